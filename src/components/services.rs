//! The Services panel: platform health beside what the users met — each Service's
//! endpoints and Deployment (Ready x/y) next to its traffic's outcomes and, with the
//! message API, the business card (accepted, duplicates, lost, 409/200/404/503).
//! Every button runs its command through the console.

use crate::i18n::{t, trf};
use crate::sim::{use_sim, Verb};
use crate::view::{outcome_label, service_views, unexposed_deployments, ServiceView};
use yew::prelude::*;

/// The panel.
#[function_component(ServicePanel)]
pub fn service_panel() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let ((views, total), unexposed) = {
        let st = sim.state.borrow();
        (
            service_views(&st.cluster),
            unexposed_deployments(&st.cluster),
        )
    };
    let hidden = total - views.len();
    if views.is_empty() && unexposed.is_empty() {
        return html! {};
    }
    let expose = |d: String| {
        let sim = sim.clone();
        Callback::from(move |_| sim.act(Verb::Expose(d.clone())))
    };
    html! {
        <section class="services" aria-label={t(lang, "Services: platform health and user outcome")} data-testid="services">
            <h2>{ t(lang, "Services: platform health and user outcome") }</h2>
            { for views.into_iter().map(|v| html! { <ServiceRow view={v} /> }) }
            if hidden > 0 {
                <p class="aggmore">{ trf(lang, "… and {} more Services (kubectl get svc lists every one)", &[&hidden]) }</p>
            }
            if !unexposed.is_empty() && !sim.readonly() {
                <p class="svc-unexposed">
                    { t(lang, "No Service in front of:") }
                    { for unexposed.into_iter().map(|d| html! {
                        <button data-testid={format!("expose-{d}")} onclick={expose(d.clone())}>{ trf(lang, "Expose {}", &[&d]) }</button>
                    }) }
                </p>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct RowProps {
    view: ServiceView,
}

#[function_component(ServiceRow)]
fn service_row(props: &RowProps) -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let readonly = sim.readonly();
    let v = &props.view;
    let act = |verb: Verb| {
        let sim = sim.clone();
        Callback::from(move |_| sim.act(verb.clone()))
    };
    let (ready, not_ready, terminating) = v.endpoints;
    let (total, outcomes) = v.recent;
    let errors = total - outcomes[0];
    let health = match &v.deployment {
        Some((d, r, want)) => html! {
            <p class={classes!("svc-ready", (r < want).then_some("short"))}>
                { trf(lang, "deployment/{}: Ready {}/{}", &[d, r, want]) }
            </p>
        },
        None => html! { <p class="svc-ready">{ t(lang, "No Deployment selected") }</p> },
    };
    let user_class = if total == 0 {
        "idle"
    } else if errors == 0 {
        "good"
    } else {
        "bad"
    };
    html! {
        <article class="svc" data-testid={format!("svc-{}", v.name)}>
            <div class="svc-card platform">
                <p class="svc-label">{ t(lang, "Platform health") }</p>
                <h3>{ format!("service/{}", v.name) }<span class="svc-type">{ &v.type_ }</span></h3>
                <p class="svc-addr">{ &v.address }</p>
                { health }
                <p class="svc-eps" data-testid="svc-endpoints">
                    { trf(lang, "Endpoints: {} ready, {} not ready, {} terminating", &[&ready, &not_ready, &terminating]) }
                </p>
            </div>
            <div class={classes!("svc-card", "users", user_class)}>
                <p class="svc-label">{ t(lang, "User outcome") }</p>
                <h3>{ t(lang, "What users met (last 10 s)") }</h3>
                if total == 0 {
                    <p class="svc-none">{ t(lang, "No requests.") }</p>
                } else {
                    <p class="svc-total" data-testid="svc-traffic">{ trf(lang, "{} requests, {} answered, {} failed", &[&total, &outcomes[0], &errors]) }</p>
                    <ul class="svc-outcomes">
                        { for (1..5).filter(|i| outcomes[*i] > 0).map(|i| html! {
                            <li>{ format!("{} {}", outcomes[i], t(lang, outcome_label(i))) }</li>
                        }) }
                    </ul>
                }
                <div class="spark" aria-hidden="true">
                    { for v.spark.iter().map(|s| match s {
                        None => html! { <span class="bar none"></span> },
                        Some(e) => html! { <span class={classes!("bar", (*e > 0).then_some("err"))} style={format!("height:{}%", 10 + e * 90 / 1000)}></span> },
                    }) }
                </div>
                <p class="svc-buttons">
                    if let Some(rps) = v.rps {
                        <span class="svc-rps">{ trf(lang, "{} requests/s", &[&rps]) }</span>
                        if !readonly {
                            <button data-testid="svc-stop" onclick={act(Verb::StopTraffic(v.flow.clone()))}>{ t(lang, "Stop traffic") }</button>
                        }
                    } else if !readonly {
                        <button data-testid="svc-traffic-start" onclick={act(Verb::Traffic(v.name.clone(), 20))}>{ t(lang, "Send 20 requests/s") }</button>
                    }
                </p>
            </div>
            { business_card(&sim, v) }
        </article>
    }
}

/// The business card: what the message API made of the requests (accepted, accepted
/// twice, lost, the status codes), and the course's switch of where it keeps them.
fn business_card(sim: &crate::sim::SimHandle, v: &ServiceView) -> Html {
    let lang = sim.lang();
    let readonly = sim.readonly();
    let act = |verb: Verb| {
        let sim = sim.clone();
        Callback::from(move |_| sim.act(verb.clone()))
    };
    html! {
        <div class="svc-card business">
            <h3>{ t(lang, "Business outcome") }</h3>
            if let Some((store, b)) = &v.business {
                <p class="svc-store">{ trf(lang, "Messages kept in: {}", &[store]) }</p>
                <table class="biz" data-testid="svc-business">
                    <tr><th>{ t(lang, "accepted") }</th><td>{ b[0] }</td></tr>
                    <tr class={classes!((b[1] > 0).then_some("bad"))}><th>{ t(lang, "accepted twice") }</th><td>{ b[1] }</td></tr>
                    <tr class={classes!((b[2] > 0).then_some("bad"))}><th>{ t(lang, "lost") }</th><td>{ b[2] }</td></tr>
                    <tr><th>{ "409 / 200 / 404 / 503" }</th><td>{ format!("{} / {} / {} / {}", b[3], b[4], b[5], b[6]) }</td></tr>
                </table>
                { devices_card(lang, v) }
                // The course's switch: an authoritative store behind another Service,
                // or back to each Pod's memory.
                if !readonly {
                <p class="svc-buttons">
                    if store == "memory" {
                        { for v.others.iter().take(3).map(|o| html! {
                            <button data-testid={format!("svc-store-{o}")} onclick={act(Verb::App(v.name.clone(), Some(o.clone())))}>{ trf(lang, "Keep messages in the database behind service/{}", &[o]) }</button>
                        }) }
                        if v.others.is_empty() {
                            <span class="svc-hint">{ t(lang, "For a database: create and expose a Deployment for it, then choose it here.") }</span>
                        }
                    } else {
                        <button data-testid="svc-store-memory" onclick={act(Verb::App(v.name.clone(), None))}>{ t(lang, "Keep messages in each Pod's memory") }</button>
                    }
                    if v.devices.is_none() {
                        <button data-testid="svc-devices" onclick={act(Verb::Devices(v.name.clone(), 100))}>{ t(lang, "Connect 100 devices") }</button>
                    }
                </p>
                }
            } else {
                <p class="svc-none">{ t(lang, "The application is not modelled.") }</p>
                if !readonly {
                    <p class="svc-buttons">
                        <button data-testid="svc-app" onclick={act(Verb::App(v.name.clone(), None))}>{ t(lang, "Run the message API (state in memory)") }</button>
                    </p>
                }
            }
        </div>
    }
}

/// The devices on long-lived connections (`sim devices`): connected, reconnects, and
/// their messages' three kinds of evidence — delivered, acknowledged, read — with what
/// no backfill can bring back.
fn devices_card(lang: crate::i18n::Lang, v: &ServiceView) -> Html {
    let Some(d) = &v.devices else {
        return Html::default();
    };
    html! {
        <table class="biz devices" data-testid="svc-devices-card">
            <tr class={classes!((d.connected < d.devices).then_some("bad"))}>
                <th>{ t(lang, "devices connected") }</th><td>{ format!("{} / {}", d.connected, d.devices) }</td>
            </tr>
            <tr><th>{ t(lang, "reconnects (failed attempts)") }</th><td>{ format!("{} ({})", d.reconnects, d.failed) }</td></tr>
            <tr><th>{ t(lang, "messages for devices") }</th><td>{ d.messages }</td></tr>
            <tr><th>{ t(lang, "delivered (of which backfilled)") }</th><td>{ format!("{} ({})", d.delivered, d.backfilled) }</td></tr>
            <tr><th>{ t(lang, "acknowledged by the device") }</th><td>{ d.acked }</td></tr>
            <tr><th>{ t(lang, "read by the user") }</th><td>{ d.read }</td></tr>
            <tr class={classes!((d.missing > 0).then_some("bad"))}><th>{ t(lang, "missing for good") }</th><td>{ d.missing }</td></tr>
        </table>
    }
}
