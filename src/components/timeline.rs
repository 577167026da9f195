//! The timeline: the watch log as a lane per component over the last minute, each write
//! a mark (hover or focus shows time, writer, verb, object or Event reason); clicking a
//! mark rewinds to that moment.

use crate::i18n::{t, trf};
use crate::sim::use_sim;
use crate::view::timeline_model;
use kubeplay_engine::time::SECOND;
use yew::prelude::*;

/// Simulated time the lanes show.
const WINDOW: u64 = 60 * SECOND;
/// Most marks drawn.
const MAX_MARKS: usize = 600;

/// The timeline panel.
#[function_component(TimelineView)]
pub fn timeline_view() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let model = timeline_model(&sim.state.borrow().cluster, WINDOW, MAX_MARKS);
    let span = (model.end.saturating_sub(model.start)).max(1) as f64;
    html! {
        <section class="timeline" aria-label={t(lang, "Timeline")} data-testid="timeline">
            <h2>{ t(lang, "Timeline") }<span class="sub">{ t(lang, " — every write to the API server, one lane per component (last 60 s); click a mark to go back to it") }</span></h2>
            <div class="lanes">
                { for model.lanes.iter().map(|l| html! {
                    <div class="lane" data-testid={format!("lane-{}", l.writer)}>
                        <span class="writer">{ &l.writer }</span>
                        <span class="track">
                            { for l.marks.iter().map(|m| {
                                let left = (m.time.saturating_sub(model.start)) as f64 * 100.0 / span;
                                let onclick = {
                                    let sim = sim.clone();
                                    let time = m.time;
                                    Callback::from(move |_| sim.seek(time))
                                };
                                html! {
                                    <button class={classes!("mark", m.kind)} style={format!("left:{left:.2}%")}
                                        title={m.label.clone()} aria-label={trf(lang, "Go back to: {}", &[&m.label])}
                                        onclick={onclick}></button>
                                }
                            }) }
                        </span>
                    </div>
                }) }
            </div>
        </section>
    }
}
