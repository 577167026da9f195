//! Per-Deployment controls and history: set image (a good one, a broken one), roll back
//! to a chosen revision, pause / resume, restart; the surge and unavailable budget in
//! use and the conditions. Every button runs its kubectl command through the console.

use crate::i18n::{t, trf};
use crate::sim::{use_sim, Verb};
use crate::view::{deployment_details_limited, next_image, DeploymentDetail};
use web_sys::{HtmlInputElement, HtmlSelectElement};
use yew::prelude::*;

/// Most Deployments the panel details (each with its controls and history).
pub const PANEL_MAX: usize = 12;

/// The panel.
#[function_component(DeploymentPanel)]
pub fn deployment_panel() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let (details, total) = deployment_details_limited(&sim.state.borrow().cluster, PANEL_MAX);
    if details.is_empty() {
        return html! {};
    }
    let shown = details.len();
    html! {
        <section class="deployments" aria-label={t(lang, "Deployments: rollouts and history")} data-testid="deployments">
            { for details.into_iter().map(|d| html! { <DeploymentRow detail={d} /> }) }
            if shown < total {
                <p class="aggmore" data-testid="deployments-more">{ trf(lang, "Showing {} of {} Deployments: those still rolling out first (kubectl rollout status and kubectl get reach every one).", &[&shown, &total]) }</p>
            }
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct RowProps {
    detail: DeploymentDetail,
}

#[function_component(DeploymentRow)]
fn deployment_row(props: &RowProps) -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let d = &props.detail;
    let image_ref = use_node_ref();
    let rev_ref = use_node_ref();
    let name = d.name.clone();
    let run = |verb: Verb| {
        let sim = sim.clone();
        Callback::from(move |_| sim.act(verb.clone()))
    };
    let set_image = {
        let sim = sim.clone();
        let image_ref = image_ref.clone();
        let (name, container) = (d.name.clone(), d.container.clone());
        Callback::from(move |_| {
            if let Some(input) = image_ref.cast::<HtmlInputElement>() {
                let img = input.value();
                if !img.trim().is_empty() {
                    sim.act(Verb::SetImage {
                        deployment: name.clone(),
                        container: container.clone(),
                        image: img.trim().to_string(),
                    });
                }
            }
        })
    };
    let broken = Verb::RollOutBrokenImage {
        deployment: d.name.clone(),
        container: d.container.clone(),
        image: format!("{}-broken", d.image),
    };
    let undo = {
        let sim = sim.clone();
        let rev_ref = rev_ref.clone();
        let name = d.name.clone();
        Callback::from(move |_| {
            let rev = rev_ref
                .cast::<HtmlSelectElement>()
                .map(|s| s.value())
                .unwrap_or_default();
            let to = (!rev.is_empty()).then_some(rev);
            sim.act(Verb::Undo(name.clone(), to));
        })
    };
    let pause = Verb::SetPaused(d.name.clone(), !d.paused);
    let older: Vec<i64> = d
        .revisions
        .iter()
        .filter(|r| !r.current)
        .map(|r| r.revision)
        .collect();
    html! {
        <div class="deployment-row" data-testid={format!("deployment-panel-{}", d.name)}>
            <div class="drow-head">
                <h2>{ trf(lang, "Deployment {}", &[&d.name]) }</h2>
                <span class="budget" title={t(lang, "Σ ReplicaSet replicas against replicas + maxSurge; unavailable against maxUnavailable")}>
                    { trf(lang, "pods {}/{} (max {} with surge {}) · unavailable {}/{}", &[&d.total_pods, &d.desired, &(d.desired + d.max_surge), &d.max_surge, &d.unavailable, &d.max_unavailable]) }
                </span>
                { for d.conditions.iter().map(|(t, s, r, m)| html! {
                    <span class={classes!("cond-chip", if s == "True" { "ok" } else if s == "False" { "bad" } else { "unknown" })} title={m.clone()}>
                        { format!("{t}={s} · {r}") }
                    </span>
                }) }
            </div>
            // A read-only page shows the history, not controls that do nothing.
            if !sim.readonly() {
            <div class="drow-actions">
                <label>{ format!("{} ", t(lang, "image")) }<input ref={image_ref} value={next_image(&d.image)} aria-label={trf(lang, "New image for Deployment {}", &[&name])} data-testid={format!("image-{}", d.name)} /></label>
                <button class="btn" onclick={set_image} data-testid={format!("set-image-{}", d.name)}>{ t(lang, "Set image") }</button>
                <button class="btn" onclick={run(broken)} title={t(lang, "The registry refuses this image: the rollout gets stuck")} data-testid={format!("broken-image-{}", d.name)}>{ t(lang, "Roll out a broken image") }</button>
                <label>{ format!("{} ", t(lang, "revision")) }
                    <select ref={rev_ref} aria-label={trf(lang, "Revision to roll Deployment {} back to", &[&name])}>
                        <option value="">{ t(lang, "previous") }</option>
                        { for older.iter().map(|r| html! { <option value={r.to_string()}>{ r }</option> }) }
                    </select>
                </label>
                <button class="btn" onclick={undo} data-testid={format!("undo-{}", d.name)}>{ t(lang, "Roll back") }</button>
                <button class="btn" onclick={run(pause)} aria-pressed={d.paused.to_string()} data-testid={format!("pause-{}", d.name)}>{ if d.paused { t(lang, "Resume") } else { t(lang, "Pause") } }</button>
                <button class="btn" onclick={run(Verb::Restart(d.name.clone()))}>{ t(lang, "Restart") }</button>
            </div>
            }
            <table class="history" aria-label={trf(lang, "Revision history of Deployment {}", &[&name])}>
                <thead><tr><th>{ t(lang, "REVISION") }</th><th>{ t(lang, "REPLICASET") }</th><th>{ t(lang, "IMAGES") }</th><th>{ t(lang, "READY/DESIRED") }</th><th>{ t(lang, "CHANGE-CAUSE") }</th></tr></thead>
                <tbody>
                    { for d.revisions.iter().map(|r| html! {
                        <tr class={classes!(r.current.then_some("current"))} data-testid="revision">
                            <td>{ if r.current { trf(lang, "{} (current)", &[&r.revision]) } else { r.revision.to_string() } }</td>
                            <td>{ &r.replicaset }</td>
                            <td>{ &r.images }</td>
                            <td>{ format!("{}/{}", r.ready, r.desired) }</td>
                            <td>{ &r.change_cause }</td>
                        </tr>
                    }) }
                </tbody>
            </table>
        </div>
    }
}
