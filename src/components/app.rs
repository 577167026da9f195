//! The page: provider, ticker, the layout (full or embedded), and the embed bridge.

use super::{
    chain::ChainView, console::Console, deployments::DeploymentPanel, events::EventList,
    inspector::Inspector, lesson::Lesson, nodeboard::NodeBoard, services::ServicePanel,
    timeline::TimelineView, toolbar::Toolbar,
};
use crate::embed::{self, Bridge};
use crate::i18n::{t, trf, InLang, Said};
use crate::sim::{set_document_lang, url_request, SimHandle, SimState, REPLAY_SLICE_MS};
use gloo_timers::callback::Interval;
use kubeplay_engine::time::clock_label;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// Wall milliseconds between ticks.
const TICK_MS: u32 = 100;

/// Wall milliseconds a tick may spend simulating. A large cluster (thousands of nodes)
/// cannot always simulate 100 ms × speed in that time: the clock then falls behind the
/// chosen speed, and the page still paints and answers clicks between ticks.
const TICK_BUDGET_MS: f64 = 40.0;

/// Replay a share link in slices of [`REPLAY_SLICE_MS`], one per animation frame, so
/// the page paints its progress and answers clicks (the Stop button) in between; the
/// loop ends with the replay (finished or stopped).
fn replay_frames(state: Rc<RefCell<SimState>>, bump: Callback<()>) {
    use wasm_bindgen::{closure::Closure, JsCast};
    let Some(w) = web_sys::window() else {
        // No window (not a browser): replay at once.
        state.borrow_mut().replay_slice(&mut || false);
        return;
    };
    type Frame = Rc<RefCell<Option<Closure<dyn FnMut()>>>>;
    let frame: Frame = Rc::new(RefCell::new(None));
    let again = Rc::clone(&frame);
    let win = w.clone();
    let mut drawn = f64::NEG_INFINITY;
    *frame.borrow_mut() = Some(Closure::new(move || {
        let perf = win.performance();
        let now = || perf.as_ref().map_or(0.0, |p| p.now());
        let more = {
            let mut s = state.borrow_mut();
            let deadline = now() + REPLAY_SLICE_MS;
            let mut out_of_time = || now() > deadline;
            !s.replay_slice(&mut out_of_time)
        };
        // Drawn a few times a second, not every frame: a page drawn after a week of
        // simulated time costs more than the progress bar needs, and that time is
        // better left to the learner's clicks.
        if !more || now() - drawn >= REPLAY_DRAW_MS {
            drawn = now();
            bump.emit(());
        }
        if more {
            if let Some(f) = again.borrow().as_ref() {
                let _ = win.request_animation_frame(f.as_ref().unchecked_ref());
            }
        }
    }));
    if let Some(f) = frame.borrow().as_ref() {
        let _ = w.request_animation_frame(f.as_ref().unchecked_ref());
    };
    // The closure keeps itself alive through `again` for as long as frames come (one
    // small closure per page load: the cycle is not worth breaking).
}

/// Wall milliseconds between redraws of the page while a share link replays.
const REPLAY_DRAW_MS: f64 = 200.0;

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
    let (lang, options) = {
        let s = state.borrow();
        (s.lang, s.options.clone())
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
    let home_end_api = SimHandle::new(Rc::clone(&state), 0, bump.clone());
    {
        let state = Rc::clone(&state);
        let bridge = bridge.clone();
        let api = SimHandle::new(Rc::clone(&state), 0, bump.clone());
        use_effect_with((), move |_| {
            embed::listen(api, bridge.clone());
            bridge.borrow().ready(&state.borrow());
            // A share link replays across animation frames, then the ticker plays on.
            if state.borrow().replay.is_some() {
                replay_frames(Rc::clone(&state), bump.clone());
            }
            let interval = Interval::new(TICK_MS, move || {
                let run_ms = {
                    let s = state.borrow();
                    match s.clock_goal() {
                        // The clock is the replay's until it ends.
                        _ if s.replay.is_some() => None,
                        // `sim advance`/`sim settle` in the console: as fast as the
                        // budget allows, in slices so the page stays live and Ctrl+C
                        // can stop it; paused too, if the learner just typed it.
                        Some(goal) if s.playing || s.clock_live => {
                            Some((goal.saturating_sub(s.cluster.now()), true))
                        }
                        _ => s.playing.then_some((
                            (u64::from(TICK_MS) * u64::from(s.effective_speed_x10()) / 10).min(
                                // A lesson step is read at the end of its wait, exactly.
                                s.next_reading()
                                    .map_or(u64::MAX, |t| t.saturating_sub(s.cluster.now())),
                            ),
                            false,
                        )),
                    }
                };
                if let Some((ms, driving)) = run_ms {
                    let mut s = state.borrow_mut();
                    let perf = web_sys::window().and_then(|w| w.performance());
                    let deadline = perf.as_ref().map_or(0.0, |p| p.now()) + TICK_BUDGET_MS;
                    let mut out_of_time = || perf.as_ref().is_some_and(|p| p.now() > deadline);
                    let done = s.advance_all(ms, &mut out_of_time);
                    s.lagging = !done && !driving;
                    // A blocking command in the console finishes as the clock plays.
                    s.tick_poll();
                    s.observe_predictions();
                    s.observe();
                    drop(s);
                    bump.emit(());
                }
                // Tell the embedding page what happened (clicks included, paused or not).
                bridge.borrow_mut().pump(&mut state.borrow_mut());
            });
            move || drop(interval)
        });
    }
    {
        // Home and End, anywhere but a text field: the start of the history and live.
        let api = home_end_api;
        use_effect_with((), move |_| {
            use wasm_bindgen::{closure::Closure, JsCast};
            let listener = Closure::<dyn FnMut(web_sys::KeyboardEvent)>::new(
                move |e: web_sys::KeyboardEvent| {
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
                },
            );
            let doc = web_sys::window().and_then(|w| w.document());
            if let Some(d) = &doc {
                let _ = d
                    .add_event_listener_with_callback("keydown", listener.as_ref().unchecked_ref());
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
    let shows = |p: &str| options.shows(p);
    // The second branch's change, while fork and compare is open.
    let forked = state.borrow().fork.as_ref().map(|f| f.change.clone());
    let error = url_error.borrow().as_ref().map(|e| e.in_lang(lang));
    let (replay, replay_note) = {
        let s = state.borrow();
        let replay = s.replay.clone().map(|r| {
            (
                r.permille(s.cluster.now()),
                clock_label(s.cluster.now()),
                clock_label(r.target),
                s.replayed(),
                s.journal.len(),
            )
        });
        (replay, s.replay_note.as_ref().map(|n| n.in_lang(lang)))
    };
    let cancel = {
        let h = handle.clone();
        Callback::from(move |_: MouseEvent| h.cancel_replay())
    };
    let style = options
        .height
        .filter(|_| options.embed)
        .map(|h| format!("min-height:{h}px"));
    // The dock (console, inspector, lesson) unfolds by itself when something is
    // selected: on a narrow screen it is a bottom sheet otherwise folded to its handle.
    let (selected, sheet_open) = {
        let s = state.borrow();
        (s.selected.clone(), s.dock_open)
    };
    let toggle_sheet = {
        let h = handle.clone();
        Callback::from(move |_: MouseEvent| h.toggle_dock())
    };
    let has_lesson = shows("goals");
    let has_console = shows("console") && !options.readonly;
    let dock_parts: Vec<&str> = [
        has_lesson.then(|| t(lang, "Lesson")),
        selected.is_some().then(|| t(lang, "Inspector")),
        has_console.then(|| t(lang, "Console")),
    ]
    .into_iter()
    .flatten()
    .collect();
    html! {
        <ContextProvider<SimHandle> context={handle}>
            <div class={classes!("app", options.embed.then_some("embed"), options.readonly.then_some("readonly"))} style={style}>
                <nav class="skips" aria-label={t(lang, "Skip links")}>
                    <a class="skip" href="#stage">{ t(lang, "Skip to the cluster") }</a>
                    if shows("console") && !options.readonly {
                        <a class="skip" href="#console-input">{ t(lang, "Skip to the console") }</a>
                    }
                </nav>
                if !options.embed {
                    <header class="top">
                        <h1 class="brand">{"kubeplay"}</h1>
                        <p class="tagline">{ t(lang, "Spec is what you want, status is what is. Watch the control plane close the gap.") }</p>
                    </header>
                }
                <Toolbar />
                if let Some(e) = error {
                    <p class="url-error" role="alert" data-testid="url-error">{ e }</p>
                }
                if let Some((permille, at, target, replayed, recorded)) = replay {
                    <div class="replay" role="status" data-testid="replay">
                        <span class="replay-what">{ trf(lang, "Replaying the shared session: {} of {}", &[&at, &target]) }</span>
                        <progress max="1000" value={permille.to_string()} aria-label={t(lang, "Replay progress")} data-testid="replay-progress"></progress>
                        <span class="replay-acts">{ trf(lang, "{} of {} recorded actions", &[&replayed, &recorded]) }</span>
                        <button class="replay-cancel" data-testid="replay-cancel" onclick={cancel}>{ t(lang, "Stop replay") }</button>
                    </div>
                }
                if let Some(n) = replay_note {
                    <p class="replay-note" role="status" data-testid="replay-note">{ n }</p>
                }
                <super::announcer::Announcer />
                <div class={classes!("workbench", (!dock_parts.is_empty()).then_some("docked"))}>
                    // The stage: what the cluster is, always in view.
                    <main class="main stage" id="stage" tabindex="-1" data-testid="stage">
                        if let Some(change) = forked.clone().filter(|_| shows("chain")) {
                            // Fork and compare: what differs first, then both chains side
                            // by side where the stage is wide enough, else one above the
                            // other.
                            if shows("compare") { <crate::components::compare::ComparePanel /> }
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
                            if shows("chain") { <ChainView /> }
                            if shows("compare") { <crate::components::compare::ComparePanel /> }
                        }
                        if shows("services") { <ServicePanel /> }
                        if shows("board") { <NodeBoard /> }
                        if shows("timeline") {
                            <TimelineView />
                            if forked.is_some() { <TimelineView branch={crate::sim::Branch::Fork} /> }
                        }
                        if !options.embed && shows("deployments") { <DeploymentPanel /> }
                        if shows("requests") { <crate::components::requests::RequestPath /> }
                        if shows("queues") { <crate::components::queues::QueueView /> }
                        if !options.embed && shows("events") { <EventList /> }
                    </main>
                    // The dock: what the learner does and reads, beside the stage on a wide
                    // screen, a bottom sheet on a narrow one (as DevTools docks its panels).
                    if !dock_parts.is_empty() {
                        <aside id="dock" tabindex="-1" class={classes!("dock", sheet_open.then_some("open"))}
                               aria-label={t(lang, "Console, inspector and lesson")} data-testid="dock">
                            <button class="sheet-handle" onclick={toggle_sheet} aria-expanded={sheet_open.to_string()}
                                    aria-controls="dock-body" data-testid="sheet-handle">
                                <span aria-hidden="true">{ if sheet_open { "▾" } else { "▴" } }</span>
                                { format!(" {}", dock_parts.join(" · ")) }
                            </button>
                            <div class="dock-body" id="dock-body">
                                if shows("goals") {
                                    <Lesson />
                                }
                                <Inspector />
                                if has_console { <Console /> }
                            </div>
                        </aside>
                    }
                </div>
            </div>
        </ContextProvider<SimHandle>>
    }
}
