//! The request path: who kubectl is (the kubeconfig's current context, switchable), and
//! the last requests it sent through the API server's stages — authentication,
//! authorization, mutating admission, validation, validating admission, storage in
//! etcd — with the stage that refused one, in red.

use crate::i18n::{t, trf, Lang};
use crate::sim::use_sim;
use kubeplay_engine::cluster::request_path::{RequestTrace, Stage, Verdict};
use yew::prelude::*;

/// How many recent requests the panel lists.
const LISTED: usize = 8;

fn stage_label(lang: Lang, s: Stage) -> &'static str {
    t(lang, s.label())
}

fn verdict_class(v: Verdict) -> &'static str {
    match v {
        Verdict::Passed => "passed",
        Verdict::Refused => "refused",
        Verdict::NotReached => "unreached",
        Verdict::Skipped => "skipped",
    }
}

fn verdict_label(lang: Lang, v: Verdict) -> &'static str {
    t(
        lang,
        match v {
            Verdict::Passed => "passed",
            Verdict::Refused => "refused here",
            Verdict::NotReached => "not reached",
            Verdict::Skipped => "skipped",
        },
    )
}

fn what(r: &RequestTrace) -> String {
    let mut s = format!("{} {}", r.verb, r.resource);
    if !r.name.is_empty() {
        s.push_str(&format!(" \"{}\"", r.name));
    }
    if !r.namespace.is_empty() {
        s.push_str(&format!(" -n {}", r.namespace));
    }
    s
}

/// The request path panel.
#[function_component(RequestPath)]
pub fn request_path() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let chosen = use_state(|| None::<u64>);
    let (traces, contexts, current) = {
        let st = sim.state.borrow();
        let c = &st.cluster;
        let traces: Vec<RequestTrace> = c
            .request_log()
            .recent
            .iter()
            .rev()
            .take(LISTED)
            .cloned()
            .collect();
        let contexts: Vec<String> = c
            .kubeconfig()
            .contexts
            .iter()
            .map(|x| x.name.clone())
            .collect();
        (traces, contexts, c.kubeconfig().current.clone())
    };
    let shown = chosen
        .and_then(|n| traces.iter().find(|r| r.n == n))
        .or(traces.first())
        .cloned();
    let switch = {
        let sim = sim.clone();
        Callback::from(move |e: Event| {
            let Some(sel) = e.target_dyn_into::<web_sys::HtmlSelectElement>() else {
                return;
            };
            sim.click(format!("kubectl config use-context {}", sel.value()));
        })
    };
    html! {
        <section class="requests" aria-label={t(lang, "Request path")} data-testid="request-path">
            <h2>
                { t(lang, "Request path") }
                <span class="sub">{ t(lang, " — each kubectl request through the API server's stages") }</span>
            </h2>
            { identity(&sim, &contexts, &current, switch) }
            if let Some(r) = shown {
                <div class="request" data-testid="request-shown" data-code={r.code.to_string()}>
                    <p class="cmd"><code>{ &r.command }</code></p>
                    <p class="what">{ trf(lang, "request/{}: {} as {}", &[&r.n, &what(&r), &r.user]) }</p>
                    <ol class="stages">
                        { for r.stages.iter().map(|s| html! {
                            <li class={classes!("stage", verdict_class(s.verdict))}
                                data-testid={format!("stage-{}", verdict_class(s.verdict))}
                                data-stage={s.stage.label()}
                                title={s.detail.clone()}>
                                <b>{ stage_label(lang, s.stage) }</b>
                                <span class="verdict">{ verdict_label(lang, s.verdict) }</span>
                                if !s.detail.is_empty() {
                                    <span class="detail">{ &s.detail }</span>
                                }
                            </li>
                        }) }
                    </ol>
                    <p class={classes!("status", (r.code >= 400).then_some("bad"))} data-testid="request-status">{ &r.status }</p>
                    // What admission's webhooks answered and what it recorded: only
                    // for a request that met them.
                    if !r.webhooks.is_empty() || !r.annotations.is_empty() {
                        <ul class="admission-notes" data-testid="request-webhooks">
                            { for r.webhooks.iter().map(|w| html! {
                                <li>{ trf(lang, "webhook {}", &[w]) }</li>
                            }) }
                            { for r.annotations.iter().map(|(k, v)| html! {
                                <li>{ trf(lang, "audit annotation {}: {}", &[k, v]) }</li>
                            }) }
                        </ul>
                    }
                </div>
            } else {
                <p class="empty">{ t(lang, "No request yet: run a kubectl command or click a button.") }</p>
            }
            if traces.len() > 1 {
                <ul class="recent">
                    { for traces.iter().map(|r| {
                        let n = r.n;
                        let pick = {
                            let chosen = chosen.clone();
                            Callback::from(move |_| chosen.set(Some(n)))
                        };
                        html! {
                            <li>
                                <button class={classes!((r.code >= 400).then_some("bad"))} onclick={pick} data-testid={format!("request-{n}")}>
                                    { format!("request/{n} · {} · {}", what(r), r.code) }
                                </button>
                            </li>
                        }
                    }) }
                </ul>
            }
        </section>
    }
}

/// Who kubectl acts as: a switch between the kubeconfig's contexts, or on a read-only
/// page the context as text (not a select that switches nothing).
fn identity(
    sim: &crate::sim::SimHandle,
    contexts: &[String],
    current: &str,
    switch: Callback<Event>,
) -> Html {
    let lang = sim.lang();
    html! {
        <div class="identity">
            <label>
                { t(lang, "kubectl acts as") }{ " " }
                // Read-only: the context as text, not a select that switches nothing.
                if sim.readonly() {
                    <code data-testid="context-current">{ &current }</code>
                } else {
                    <select data-testid="context-select" onchange={switch}>
                        { for contexts.iter().map(|n| html! {
                            <option value={n.clone()} selected={*n == current}>{ n }</option>
                        }) }
                    </select>
                }
            </label>
        </div>
    }
}
