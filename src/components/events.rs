//! Kubernetes Events, newest first: time, component, reason, object, message.

use crate::i18n::t;
use crate::sim::use_sim;
use crate::view::event_rows;
use yew::prelude::*;

/// How many Events the list shows.
const LIMIT: usize = 60;

/// The event list.
#[function_component(EventList)]
pub fn event_list() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let rows = event_rows(&sim.state.borrow().cluster, LIMIT);
    html! {
        <section class="events" aria-label={t(lang, "Events")} data-testid="events">
            <h2>{ t(lang, "Events") }<span class="sub">{ t(lang, " — who did what (newest first)") }</span></h2>
            <table>
                <thead><tr><th>{ t(lang, "TIME") }</th><th>{ t(lang, "COMPONENT") }</th><th>{ t(lang, "REASON") }</th><th>{ t(lang, "OBJECT") }</th><th>{ t(lang, "MESSAGE") }</th></tr></thead>
                <tbody>
                    { for rows.iter().map(|r| html! {
                        <tr class={classes!((r.type_ == "Warning").then_some("warn"))} data-testid="event" data-reason={r.reason.clone()}>
                            <td class="t">{ &r.time }</td>
                            <td class="c">{ &r.component }</td>
                            <td class="r">{ if r.type_ == "Warning" { format!("⚠ {}", r.reason) } else { r.reason.clone() } }</td>
                            <td class="o">{ &r.object }</td>
                            <td class="m">{ &r.message }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </section>
    }
}
