//! The page: provider, the layout (full or embedded), and the embed bridge. The
//! state's update (the ticker, a share link's replay) lives in [`crate::sim`].
//!
//! What a learner sees first is the chain, its nodes and one line saying what a click
//! does; with a lesson, its current step, Run and goals stand beside the chain (the
//! dock of a wide page, the sheet of a phone) or above it (an embed). The other views
//! come in by need (see `SimState::view_open`), from one menu.

use super::{
    chain::ChainView, console::Console, control_plane::ControlPlaneView,
    deployments::DeploymentPanel, events::EventList, inspector::Inspector, lesson::Lesson,
    nodeboard::NodeBoard, services::ServicePanel, timeline::TimelineView, toolbar::Toolbar,
    views::Guide,
};
use crate::embed::{self, Bridge};
use crate::i18n::{t, trf, InLang, Lang, Said};
use crate::sim::{
    replay_frames, set_document_lang, start_ticker, url_request, Panel, SimHandle, SimState, View,
};
use kubeplay_engine::time::clock_label;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// The root component.
#[function_component(App)]
pub fn app() -> Html {
    let url_error = use_mut_ref(|| None::<Said>);
    let state: Rc<RefCell<SimState>> = {
        let url_error = url_error.clone();
        use_mut_ref(move || {
            let req = url_request();
            let (mut s, err) = req.initial_state();
            *url_error.borrow_mut() = err;
            if !req.query.iter().any(|(k, _)| k == "lang") {
                s.lang = crate::sim::initial_lang();
            }
            set_document_lang(s.lang);
            s
        })
    };
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
    let bridge = {
        let state = Rc::clone(&state);
        use_mut_ref(move || Bridge::new(&state.borrow()))
    };
    {
        let state = Rc::clone(&state);
        let bridge = bridge.clone();
        let api = SimHandle::new(Rc::clone(&state), 0, bump.clone());
        let bump = bump.clone();
        use_effect_with((), move |_| {
            // The static loading screen of index.html gives way to the page.
            remove_loading_screen();
            // What the author should hear about the address, where authors look.
            for n in &state.borrow().options.notices {
                web_sys::console::warn_1(&n.into());
            }
            embed::listen(api, bridge.clone());
            bridge.borrow().ready(&state.borrow());
            // A share link replays across animation frames, then the ticker plays on.
            if state.borrow().replay.is_some() {
                replay_frames(Rc::clone(&state), bump.clone());
            }
            let interval = start_ticker(state, bump, move |s| bridge.borrow_mut().pump(s));
            move || drop(interval)
        });
    }
    use_home_and_end(SimHandle::new(Rc::clone(&state), 0, bump));
    // Drawn in two frames: the chain, the controls and the lesson first, the views in
    // the next one, so the learner sees the cluster as soon as it exists.
    let first_frame = !super::use_after_first_paint();
    let error = url_error
        .borrow()
        .as_ref()
        .map(|e| e.in_lang(state.borrow().lang));
    html! {
        <ContextProvider<SimHandle> context={handle}>
            { page(&state.borrow(), error, first_frame) }
        </ContextProvider<SimHandle>>
    }
}

/// Remove index.html's loading screen (the page is drawn now).
fn remove_loading_screen() {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.get_element_by_id("loading"))
    {
        el.remove();
    }
}

/// Home and End, anywhere but a text field: the start of the history and live.
#[hook]
fn use_home_and_end(api: SimHandle) {
    use_effect_with((), move |_| {
        use wasm_bindgen::{closure::Closure, JsCast};
        let listener =
            Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(move |e: web_sys::KeyboardEvent| {
                let in_field = e
                    .target()
                    .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
                    .is_some_and(|el| {
                        matches!(el.tag_name().as_str(), "INPUT" | "TEXTAREA" | "SELECT")
                    });
                if in_field || e.ctrl_key() || e.alt_key() || e.meta_key() {
                    return;
                }
                match e.key().as_str() {
                    "Home" => {
                        e.prevent_default();
                        api.seek(0);
                    }
                    "End" => {
                        e.prevent_default();
                        api.go_live();
                    }
                    _ => {}
                }
            });
        let doc = web_sys::window().and_then(|w| w.document());
        if let Some(d) = &doc {
            let _ =
                d.add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
        }
        move || {
            if let Some(d) = doc {
                let _ = d.remove_event_listener_with_callback(
                    "keydown",
                    listener.as_ref().unchecked_ref(),
                );
            }
        }
    });
}

/// The whole page for state `s` (`first_frame`: the chain and the controls only).
fn page(s: &SimState, error: Option<String>, first_frame: bool) -> Html {
    let lang = s.lang;
    let options = &s.options;
    // An embed puts a lesson above the chain (the frame's first screen; the picker alone
    // goes after it); the full page puts it in the dock, beside the chain on a wide
    // screen.
    let lesson_above = options.embed && s.shows(Panel::Goals) && s.scenario.is_some();
    let has_console = s.shows(Panel::Console) && !options.readonly;
    let in_dock = (!lesson_above && s.shows(Panel::Goals)) || s.selected.is_some() || has_console;
    let style = options
        .height
        .filter(|_| options.embed)
        .map(|h| format!("min-height:{h}px"));
    html! {
        <div class={classes!("app", options.embed.then_some("embed"), options.readonly.then_some("readonly"))} style={style}>
            <nav class="skips" aria-label={t(lang, "Skip links")}>
                <a class="skip" href="#stage" onclick={skip_to("stage")}>{ t(lang, "Skip to the cluster") }</a>
                if has_console {
                    <a class="skip" href="#console-input" onclick={skip_to("console-input")}>{ t(lang, "Skip to the console") }</a>
                }
            </nav>
            if !options.embed {
                <header class="top">
                    <h1 class="brand">{"kubeplay"}</h1>
                    <p class="tagline">{ t(lang, "Spec is what you want, status is what is. Watch the control plane close the gap.") }</p>
                </header>
            }
            <Toolbar />
            { notices(s, error) }
            <super::announcer::Announcer />
            if lesson_above {
                <div class="lesson-slot"><Lesson /></div>
            }
            <Guide />
            if s.view_open(View::ControlPlane) { <ControlPlaneView /> }
            <div class={classes!("workbench", in_dock.then_some("docked"))}>
                // The stage: what the cluster is, always in view.
                <main class="main" id="stage" tabindex="-1" data-testid="stage">
                    { stage(s, first_frame) }
                </main>
                // The dock: what the learner does and reads, beside the stage on a wide
                // screen, a bottom sheet on a narrow one (as DevTools docks its panels).
                if in_dock {
                    { dock(s, lang, s.shows(Panel::Goals) && !lesson_above, has_console) }
                }
            </div>
        </div>
    }
}

/// A skip link's click: the focus moves to element `id`, the address stays (a `#id`
/// link would resolve against the page's `<base>` and reload it without its query).
fn skip_to(id: &'static str) -> Callback<MouseEvent> {
    Callback::from(move |e: MouseEvent| {
        e.prevent_default();
        let target = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.get_element_by_id(id))
            .and_then(|el| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(el).ok());
        if let Some(el) = target {
            let _ = el.focus();
            el.scroll_into_view();
        }
    })
}

/// The address's error, the author's notices, and a share link's replay.
fn notices(s: &SimState, error: Option<String>) -> Html {
    let lang = s.lang;
    let replay = s.replay.as_ref().map(|r| {
        (
            r.permille(s.cluster.now()),
            clock_label(s.cluster.now()),
            clock_label(r.target),
            s.replayed(),
            s.journal.len(),
        )
    });
    html! {
        <>
            if let Some(e) = error {
                <p class="url-error" role="alert" data-testid="url-error">{ e }</p>
            }
            if !s.options.readonly {
                { for s.options.notices.iter().map(|n| html! { <p class="author-notice" data-testid="author-notice">{ n }</p> }) }
            }
            if let Some((permille, at, target, replayed, recorded)) = replay {
                <div class="replay" role="status" data-testid="replay">
                    <span class="replay-what">{ trf(lang, "Replaying the shared session: {} of {}", &[&at, &target]) }</span>
                    <progress max="1000" value={permille.to_string()} aria-label={t(lang, "Replay progress")} data-testid="replay-progress"></progress>
                    <span class="replay-acts">{ trf(lang, "{} of {} recorded actions", &[&replayed, &recorded]) }</span>
                    <CancelReplay />
                </div>
            }
            if let Some(n) = s.replay_note.as_ref().map(|n| n.in_lang(lang)) {
                <p class="replay-note" role="status" data-testid="replay-note">{ n }</p>
            }
            if s.consent.is_some() { <crate::components::my_controller::ConsentBox /> }
        </>
    }
}

/// The replay's Stop button.
#[function_component(CancelReplay)]
fn cancel_replay() -> Html {
    let sim = crate::sim::use_sim();
    let cancel = {
        let h = sim.clone();
        Callback::from(move |_: MouseEvent| h.cancel_replay())
    };
    html! { <button class="replay-cancel" data-testid="replay-cancel" onclick={cancel}>{ t(sim.lang(), "Stop replay") }</button> }
}

/// The stage: the chain (or both branches of a comparison), then the open views.
fn stage(s: &SimState, first_frame: bool) -> Html {
    let lang = s.lang;
    let shows = |p: Panel| s.shows(p);
    let view = |v: View| !first_frame && s.view_open(v);
    // The second branch's change, while fork and compare is open.
    let forked = s.fork.as_ref().map(|f| f.change.clone());
    html! {
        <>
            if let Some(change) = forked.clone().filter(|_| shows(Panel::Chain)) {
                // Fork and compare: what differs first, then both chains side by side
                // where the stage is wide enough, else one above the other.
                if view(View::Compare) { <crate::components::compare::ComparePanel /> }
                <div class="split" data-testid="split">
                    <div class="side">
                        <h3 class="side-head">{ t(lang, "As is") }</h3>
                        <ChainView />
                    </div>
                    <div class="side">
                        <h3 class="side-head">{ t(lang, "What if") }{ ": " }<code>{ change }</code></h3>
                        <ChainView branch={crate::sim::Branch::Fork} />
                    </div>
                </div>
            } else {
                if shows(Panel::Chain) { <ChainView /> }
                if view(View::Compare) { <crate::components::compare::ComparePanel /> }
            }
            if view(View::Services) { <ServicePanel /> }
            if view(View::Board) { <NodeBoard /> }
            if view(View::Timeline) {
                <TimelineView />
                if forked.is_some() { <TimelineView branch={crate::sim::Branch::Fork} /> }
            }
            if view(View::Deployments) { <DeploymentPanel /> }
            if view(View::Requests) { <crate::components::requests::RequestPath /> }
            if view(View::Queues) { <crate::components::queues::QueueView /> }
            if view(View::Events) { <EventList /> }
            if view(View::Controller) { <crate::components::my_controller::MyControllerView /> }
        </>
    }
}

/// The dock: the lesson (full page), the inspector and the console. On a narrow
/// screen it is a bottom sheet whose handle, folded, says where the lesson stands.
fn dock(s: &SimState, lang: Lang, lesson: bool, console: bool) -> Html {
    let open = s.dock_open;
    // One line: with a lesson, where it stands (the console is in the sheet anyway).
    let lesson_line = lesson && s.scenario.is_some();
    let parts: Vec<String> = [
        lesson.then(|| lesson_status(s, lang)),
        (s.selected.is_some() && !lesson_line).then(|| t(lang, "Inspector").to_string()),
        (console && !lesson_line).then(|| t(lang, "Console").to_string()),
    ]
    .into_iter()
    .flatten()
    .collect();
    html! {
        <aside id="dock" tabindex="-1" class={classes!("dock", open.then_some("open"))}
               aria-label={t(lang, "Console, inspector and lesson")} data-testid="dock">
            <SheetHandle {open} label={parts.join(" · ")} />
            <div class="dock-body" id="dock-body">
                if lesson { <Lesson /> }
                <Inspector />
                if console { <Console /> }
            </div>
        </aside>
    }
}

/// Where the lesson stands, in one line: the step and the goals.
fn lesson_status(s: &SimState, lang: Lang) -> String {
    let Some(a) = s.scenario.as_ref() else {
        return t(lang, "Lesson").to_string();
    };
    let steps = a.scenario.steps.len();
    let goals = a.tracker.reached.len();
    let met = a.tracker.reached.iter().filter(|r| r.is_some()).count();
    let step = match s.step_runs.keys().next_back() {
        Some(i) => trf(lang, "step {} of {} ran", &[&(i + 1), &steps]),
        None if steps > 0 => trf(lang, "{} steps", &[&steps]),
        None => String::new(),
    };
    let goals = trf(lang, "goals {} of {}", &[&met, &goals]);
    let status = if step.is_empty() {
        goals
    } else {
        format!("{step} · {goals}")
    };
    trf(lang, "Lesson: {}", &[&status])
}

/// Properties of [`SheetHandle`].
#[derive(Properties, PartialEq)]
struct SheetHandleProps {
    open: bool,
    label: String,
}

/// The bottom sheet's handle (a narrow screen): folds and unfolds the dock.
#[function_component(SheetHandle)]
fn sheet_handle(props: &SheetHandleProps) -> Html {
    let sim = crate::sim::use_sim();
    let toggle = Callback::from(move |_: MouseEvent| sim.toggle_dock());
    let open = props.open;
    html! {
        <button class="sheet-handle" onclick={toggle} aria-expanded={open.to_string()}
                aria-controls="dock-body" data-testid="sheet-handle">
            <span aria-hidden="true">{ if open { "▾" } else { "▴" } }</span>
            { format!(" {}", props.label) }
        </button>
    }
}
