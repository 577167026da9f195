//! kubeplay: the web app. A Yew front end over `kubeplay_engine`.
//!
//! The engine lives in one `Rc<RefCell<SimState>>` behind a context ([`sim::SimHandle`]);
//! components call its domain methods (`delete_pod`, `toggle_node_power`, `scale`,
//! `play`, `step`…) and never build engine requests themselves. Pacing (the ticker)
//! lives here; every behaviour lives in the engine.

mod components;
mod embed;
mod export;
mod i18n;
mod sim;
mod timeline;
mod view;

fn main() {
    yew::Renderer::<components::app::App>::new().render();
}
