//! The page: provider, ticker, and the layout.

use super::{
    chain::ChainView, console::Console, deployments::DeploymentPanel, events::EventList,
    inspector::Inspector, nodeboard::NodeBoard, timeline::TimelineView, toolbar::Toolbar,
};
use crate::i18n::t;
use crate::sim::{initial_lang, set_document_lang, SimHandle, SimState};
use crate::view::default_cluster;
use gloo_timers::callback::Interval;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// Wall milliseconds between ticks.
const TICK_MS: u32 = 100;

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let state: Rc<RefCell<SimState>> = use_mut_ref(|| {
        let mut s = SimState::new(default_cluster());
        s.lang = initial_lang();
        set_document_lang(s.lang);
        s
    });
    let lang = state.borrow().lang;
    // One revision counter shared by clicks and the ticker; the state setter re-renders.
    let counter = use_mut_ref(|| 0u64);
    let rev = use_state(|| 0u64);
    let bump = {
        let counter = Rc::clone(&counter);
        let set = rev.setter();
        Callback::from(move |_| {
            let next = *counter.borrow() + 1;
            *counter.borrow_mut() = next;
            set.set(next);
        })
    };
    let handle = SimHandle::new(Rc::clone(&state), *rev, bump.clone());
    {
        let state = Rc::clone(&state);
        use_effect_with((), move |_| {
            let interval = Interval::new(TICK_MS, move || {
                let speed_x10 = {
                    let s = state.borrow();
                    s.playing.then_some(u64::from(s.speed_x10))
                };
                if let Some(speed_x10) = speed_x10 {
                    let mut s = state.borrow_mut();
                    s.advance(u64::from(TICK_MS) * speed_x10 / 10);
                    // A blocking command in the console finishes as the clock plays.
                    s.tick_poll();
                    s.observe();
                    drop(s);
                    bump.emit(());
                }
            });
            move || drop(interval)
        });
    }
    html! {
        <ContextProvider<SimHandle> context={handle}>
            <div class="app">
                <header class="top">
                    <h1 class="brand">{"kubeplay"}</h1>
                    <p class="tagline">{ t(lang, "Spec is what you want, status is what is. Watch the control plane close the gap.") }</p>
                </header>
                <Toolbar />
                <main class="main">
                    <ChainView />
                    <TimelineView />
                    <Inspector />
                    <NodeBoard />
                    <DeploymentPanel />
                    <Console />
                    <EventList />
                </main>
            </div>
        </ContextProvider<SimHandle>>
    }
}
