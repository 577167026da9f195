//! The learner's own controller: its JavaScript in an editor, the kinds it
//! reconciles and owns, Run (or Reload), Pause and Stop; beside it what it did —
//! its state, reconciles and the budget they used, its last error, its
//! `console.log`, and the Role it runs with. Every button is a `sim controller`
//! command, so the console shows what to type and a share link carries the code.

use crate::i18n::{t, trf};
use crate::sim::use_sim;
use kubeplay_engine::api::{Kind, Role};
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::client::writer::MY_CONTROLLER;
use kubeplay_engine::controllers::script::BUDGET_TICKS;
use web_sys::{HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

/// The course's loop, as a controller of PodSets: the editor's first text.
pub const EXAMPLE: &str = include_str!("../../engine/controllers/desired-state-loop.js");
/// The PodSet kind, for the example.
const EXAMPLE_KIND: &str = include_str!("../../engine/controllers/podset-crd.yaml");
/// One PodSet, for the example.
const EXAMPLE_OBJECT: &str = include_str!("../../engine/controllers/podset-web.yaml");

/// The example's commands: the kind, then (once it is served) a PodSet of it, as
/// one would type them (a PodSet in the same apply as its definition would not map).
pub fn example_commands() -> String {
    format!(
        "{}\nkubectl wait --for condition=Established crd/podsets.course.kubeplay.dev\n{}",
        heredoc("kubectl apply", EXAMPLE_KIND),
        heredoc("kubectl apply", EXAMPLE_OBJECT)
    )
}

/// `text` as a heredoc whose end marker is not one of its lines.
pub fn heredoc(command: &str, text: &str) -> String {
    let mut marker = "EOF".to_string();
    while text.lines().any(|l| l.trim() == marker) {
        marker.push('_');
    }
    format!("{command} -f - <<{marker}\n{}\n{marker}", text.trim_end())
}

/// The controller view.
#[function_component(MyControllerView)]
pub fn my_controller_view() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let readonly = sim.readonly();
    let (spec, paused, failing, calls, failed, ticks, last_error, logs, queued, role) = {
        let s = sim.state.borrow();
        let c = s.cluster.my_controller();
        let role = c.spec.as_ref().and_then(|sp| {
            s.cluster
                .store
                .get::<Role>(&ObjKey::new(&sp.namespace, MY_CONTROLLER))
                .map(role_lines)
        });
        (
            c.spec.clone(),
            c.paused,
            c.failing(),
            c.calls,
            c.failed_calls,
            c.ticks,
            c.last_error.clone(),
            c.logs
                .iter()
                .rev()
                .take(8)
                .rev()
                .cloned()
                .collect::<Vec<_>>(),
            s.cluster.my_controller_queued(),
            role,
        )
    };
    let code = use_state(|| {
        spec.as_ref()
            .map_or(EXAMPLE.to_string(), |s| s.source.clone())
    });
    let for_kind = use_state(|| {
        spec.as_ref()
            .map_or("podsets".to_string(), |s| s.for_kind.resource().to_string())
    });
    let owns = use_state(|| {
        spec.as_ref().map_or("pods".to_string(), |s| {
            s.owns
                .iter()
                .map(|k: &Kind| k.resource())
                .collect::<Vec<_>>()
                .join(",")
        })
    });
    // What runs changed (a lesson's step, the console, a reload): the editor shows it.
    {
        let (code, for_kind, owns) = (code.clone(), for_kind.clone(), owns.clone());
        let installed = spec.clone();
        use_effect_with(spec.as_ref().map(|s| s.source.clone()), move |_| {
            if let Some(sp) = installed {
                code.set(sp.source.clone());
                for_kind.set(sp.for_kind.resource().to_string());
                owns.set(
                    sp.owns
                        .iter()
                        .map(|k| k.resource())
                        .collect::<Vec<_>>()
                        .join(","),
                );
            }
        });
    }
    let on_code = {
        let code = code.clone();
        Callback::from(move |e: InputEvent| {
            let el: HtmlTextAreaElement = e.target_unchecked_into();
            code.set(el.value());
        })
    };
    let field = |state: &UseStateHandle<String>| {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            let el: HtmlInputElement = e.target_unchecked_into();
            state.set(el.value());
        })
    };
    let run = {
        let sim = sim.clone();
        let (code, for_kind, owns) = (code.clone(), for_kind.clone(), owns.clone());
        Callback::from(move |_: MouseEvent| {
            let mut cmd = format!("sim controller run --for {}", for_kind.trim());
            if !owns.trim().is_empty() {
                cmd.push_str(&format!(" --owns {}", owns.trim()));
            }
            sim.click(heredoc(&cmd, &code));
        })
    };
    let click = |cmd: &'static str| {
        let sim = sim.clone();
        Callback::from(move |_: MouseEvent| sim.click(cmd.to_string()))
    };
    let example = {
        let sim = sim.clone();
        let code = code.clone();
        Callback::from(move |_: MouseEvent| {
            code.set(EXAMPLE.to_string());
            sim.click(example_commands());
        })
    };
    let state_text = match (&spec, paused, failing) {
        (None, ..) => t(lang, "not running"),
        (Some(_), true, _) => t(lang, "paused: its keys wait"),
        (Some(_), false, true) => t(lang, "failing: retried with back-off"),
        (Some(_), false, false) => t(lang, "running"),
    };
    let state_class = match (&spec, paused, failing) {
        (None, ..) => "off",
        (Some(_), true, _) => "paused",
        (Some(_), false, true) => "failing",
        _ => "running",
    };
    html! {
        <section class="my-controller" aria-label={t(lang, "Your controller")} data-testid="my-controller">
            <h2>
                { t(lang, "Your controller") }
                <span class="sub">{ t(lang, " — write reconcile(request, client): compare desired with observed, take one step") }</span>
            </h2>
            <div class="mc-grid">
                <div class="mc-code">
                    <div class="mc-kinds">
                        <label>{ t(lang, "reconciles") }
                            <input value={(*for_kind).clone()} oninput={field(&for_kind)} data-testid="mc-for" disabled={readonly} size="12" />
                        </label>
                        <label>{ t(lang, "owns") }
                            <input value={(*owns).clone()} oninput={field(&owns)} data-testid="mc-owns" disabled={readonly} size="12" />
                        </label>
                    </div>
                    <textarea class="mc-editor" spellcheck="false" value={(*code).clone()} oninput={on_code}
                              aria-label={t(lang, "The controller's JavaScript")} data-testid="mc-editor" readonly={readonly} rows="16" />
                    if !readonly {
                        <div class="mc-buttons">
                            <button class="primary" onclick={run} data-testid="mc-run">
                                { if spec.is_some() { t(lang, "Reload") } else { t(lang, "Run") } }
                            </button>
                            if spec.is_some() {
                                if paused {
                                    <button onclick={click("sim controller resume")} data-testid="mc-resume">{ t(lang, "Resume") }</button>
                                } else {
                                    <button onclick={click("sim controller pause")} data-testid="mc-pause">{ t(lang, "Pause") }</button>
                                }
                                <button onclick={click("sim controller stop")} data-testid="mc-stop">{ t(lang, "Stop") }</button>
                            } else {
                                <button onclick={example} data-testid="mc-example" title={t(lang, "kubectl apply the PodSet kind and a PodSet named web (3 replicas)")}>
                                    { t(lang, "Create the PodSet kind and web") }
                                </button>
                            }
                        </div>
                    }
                    <p class="mc-help">{ t(lang, "client.get(kind, name) · client.list(kind, labels) read the informer cache; client.create / update / updateStatus / patch / delete / event write through the API server as the controller's ServiceAccount, after reconcile returns. client.ownerReference(obj) makes the garbage collector clean up.") }</p>
                </div>
                <div class="mc-status" data-testid="mc-status" data-state={state_class}>
                    <p class={classes!("mc-state", state_class)}>
                        <b>{ MY_CONTROLLER }</b>{ ": " }{ state_text }
                    </p>
                    if let Some(sp) = &spec {
                        <p>{ trf(lang, "Reconciles {} in {}; {} queued", &[&sp.for_kind.resource(), &sp.namespace, &queued]) }</p>
                        <p data-testid="mc-calls">{ trf(lang, "{} reconciles, {} failed; at most {} of {} ticks", &[&calls, &failed, &ticks.1, &BUDGET_TICKS]) }</p>
                    }
                    if let Some(e) = &last_error {
                        <pre class="mc-error" data-testid="mc-error">{ format!("{} {}\n{}", kubeplay_engine::time::clock_label(e.at), e.key, e.message) }</pre>
                    }
                    if !logs.is_empty() {
                        <h3>{ t(lang, "console.log") }</h3>
                        <pre class="mc-logs" data-testid="mc-logs">{ logs.join("\n") }</pre>
                    }
                    if let Some(lines) = role {
                        <h3>{ trf(lang, "Role {} (kubectl edit role {})", &[&MY_CONTROLLER, &MY_CONTROLLER]) }</h3>
                        <ul class="mc-role" data-testid="mc-role">
                            { for lines.iter().map(|l| html! { <li><code>{ l }</code></li> }) }
                        </ul>
                    }
                </div>
            </div>
        </section>
    }
}

/// Code someone else wrote, shown before it runs: the learner runs it, or not.
#[function_component(ConsentBox)]
pub fn consent_box() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let Some(c) = sim.state.borrow().consent.clone() else {
        return html! {};
    };
    let what = match c.then {
        crate::sim::AfterConsent::Replay => t(lang, "This shared session runs code written in JavaScript (a controller or a webhook server). Read it first: it runs in a sandbox with no network and no access to this page, and only if you choose to run it."),
        crate::sim::AfterConsent::Step(_) | crate::sim::AfterConsent::Predict(..) => t(lang, "This step runs code written in JavaScript (a controller or a webhook server). Read it first: it runs in a sandbox with no network and no access to this page."),
        crate::sim::AfterConsent::Text(_) | crate::sim::AfterConsent::State(_) => t(lang, "The page around this playground wants to run code written in JavaScript (a controller or a webhook server). Read it first: it runs in a sandbox with no network and no access to this page."),
    };
    let yes = {
        let h = sim.clone();
        Callback::from(move |_: MouseEvent| h.consent_given())
    };
    let no = {
        let h = sim.clone();
        Callback::from(move |_: MouseEvent| h.consent_refused())
    };
    html! {
        <div class="consent" role="alertdialog" aria-label={t(lang, "Run this code?")} data-testid="consent">
            <p>{ what }</p>
            <pre class="consent-code" data-testid="consent-code">{ &c.code }</pre>
            <div class="mc-buttons">
                <button class="primary" onclick={yes} disabled={c.loading} data-testid="consent-run">
                    { if c.loading { t(lang, "Loading the sandbox…") } else { t(lang, "Run this code") } }
                </button>
                <button onclick={no} disabled={c.loading} data-testid="consent-skip">{ t(lang, "Don't run it") }</button>
            </div>
        </div>
    }
}

/// A Role's rules, one line each: `pods: get, list, watch`.
fn role_lines(r: &Role) -> Vec<String> {
    r.rules
        .iter()
        .flatten()
        .map(|rule| format!("{}: {}", rule.resources.join(", "), rule.verbs.join(", ")))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_heredoc_marker_is_never_a_line_of_the_code() {
        assert_eq!(heredoc("x", "a\n"), "x -f - <<EOF\na\nEOF");
        assert_eq!(
            heredoc("x", "EOF\nEOF_"),
            "x -f - <<EOF__\nEOF\nEOF_\nEOF__"
        );
    }
}
