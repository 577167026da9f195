//! UI components, one per file.

pub mod announcer;
pub mod app;
pub mod chain;
pub mod compare;
pub mod console;
pub mod control_plane;
pub mod deployments;
pub mod events;
pub mod import;
pub mod inspector;
pub mod lesson;
pub mod my_controller;
pub mod nodeboard;
pub mod queues;
pub mod requests;
pub mod services;
pub mod timeline;
pub mod toolbar;
pub mod views;

/// False for the first render, then true once the browser has painted it: what is not
/// the chain waits for it, so the learner sees the cluster first (an animation frame,
/// then a task: the paint happens between them).
#[yew::hook]
pub fn use_after_first_paint() -> bool {
    use wasm_bindgen::{closure::Closure, JsCast};
    let painted = yew::use_state(|| false);
    {
        let painted = painted.clone();
        yew::use_effect_with((), move |_| {
            let after = Closure::once(move || {
                gloo_timers::callback::Timeout::new(0, move || painted.set(true)).forget();
            });
            if let Some(w) = web_sys::window() {
                let _ = w.request_animation_frame(after.as_ref().unchecked_ref());
                // Called once by the browser: it lives as long as the page.
                after.forget();
            }
        });
    }
    *painted
}
