//! The inspector: a Pod's path (created → scheduled → image pulled → started → ready)
//! with where it is stuck and the evidence, the scheduler's verdict per node, and its
//! actions; or a Node's conditions, taints, Pods (with eviction countdowns) and actions.

use crate::i18n::{t, trf, InLang};
use crate::sim::{use_sim, Selection, SimHandle, Verb};
use crate::view::{absence, node_detail, pod_path, Absence, NodeDetail, PodPath, StageState};
use kubeplay_engine::printers::describe::describe;
use kubeplay_engine::printers::yaml::to_yaml;
use kubeplay_engine::time::clock_label;
use yew::prelude::*;

/// What the inspector shows for the selection.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    /// The Pod path / node panel with actions.
    Overview,
    /// `kubectl get -o yaml`.
    Yaml,
    /// `kubectl describe` (with its Events).
    Describe,
    /// The why-trace: the chain of causes.
    Why,
}

/// The object's text as kubectl prints it (only the open tab is computed).
fn object_text(
    cluster: &kubeplay_engine::cluster::Cluster,
    sel: &Selection,
    tab: Tab,
) -> Option<String> {
    let (kind, key) = sel.kind_key();
    let obj = cluster.store.get_object(kind, &key)?;
    Some(match tab {
        Tab::Yaml => to_yaml(&obj.to_json()),
        _ => describe(cluster, obj),
    })
}

/// The inspector panel (shown when something is selected).
#[function_component(Inspector)]
pub fn inspector() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let tab = use_state(|| Tab::Overview);
    let sel = sim.state.borrow().selected.clone();
    let panel = use_node_ref();
    // What had the focus when the inspector opened (the 🔍 clicked): it gets it back on
    // close, so a keyboard user continues where they were.
    let opener = use_mut_ref(|| None::<web_sys::HtmlElement>);
    {
        let panel = panel.clone();
        let opener = opener.clone();
        use_effect_with(sel.clone(), move |sel| {
            if sel.is_some() {
                let active = web_sys::window()
                    .and_then(|w| w.document())
                    .and_then(|d| d.active_element())
                    .and_then(|e| wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlElement>(e).ok());
                if let Some(p) = panel.cast::<web_sys::HtmlElement>() {
                    // Opening from outside moves the focus (and the eye) to the panel.
                    if !active.as_ref().is_some_and(|a| p.contains(Some(a))) {
                        *opener.borrow_mut() = active;
                        let _ = p.focus();
                        p.scroll_into_view();
                    }
                }
            }
        });
    }
    let close_and_return = {
        let sim = sim.clone();
        let opener = opener.clone();
        move || {
            sim.select(None);
            if let Some(o) = opener.borrow_mut().take().filter(|o| o.is_connected()) {
                let _ = o.focus();
            }
        }
    };
    let close = {
        let close_and_return = close_and_return.clone();
        Callback::from(move |_: MouseEvent| close_and_return())
    };
    let onkeydown = Callback::from(move |e: KeyboardEvent| {
        if e.key() == "Escape" {
            e.prevent_default();
            close_and_return();
        }
    });
    let Some(selected) = sel else {
        return html! {};
    };
    let owner_kind = matches!(
        selected,
        Selection::Deployment(_)
            | Selection::ReplicaSet(_)
            | Selection::Job(_)
            | Selection::CronJob(_)
            | Selection::DaemonSet(_)
            | Selection::StatefulSet(_)
    );
    // A Deployment or ReplicaSet has no overview: it opens on its why-trace (the chain
    // already shows its counts).
    let cur = match *tab {
        Tab::Overview if owner_kind => Tab::Why,
        t => t,
    };
    let body = match (cur, &selected) {
        (Tab::Why, s) => why_view(&sim, s),
        (Tab::Yaml | Tab::Describe, s) => match object_text(&sim.state.borrow().cluster, s, *tab) {
            Some(text) => {
                html! { <pre class="objtext" data-testid="inspector-text">{ text }</pre> }
            }
            None => gone(&sim, s),
        },
        (Tab::Overview, Selection::Pod(name)) => {
            match pod_path(&sim.state.borrow().cluster, name) {
                Some(p) => pod_view(&sim, &p),
                None => gone(&sim, &selected),
            }
        }
        (
            Tab::Overview,
            Selection::Deployment(_)
            | Selection::ReplicaSet(_)
            | Selection::Job(_)
            | Selection::CronJob(_)
            | Selection::DaemonSet(_)
            | Selection::StatefulSet(_),
        ) => html! {},
        (Tab::Overview, Selection::Node(name)) => {
            match node_detail(&sim.state.borrow().cluster, name) {
                Some(n) => node_view(&sim, &n),
                None => gone(&sim, &selected),
            }
        }
    };
    let tab_button = |t: Tab, label: &'static str, id: &'static str| {
        let onclick = {
            let tab = tab.clone();
            Callback::from(move |_| tab.set(t))
        };
        html! {
            <button class={classes!("tab", (cur == t).then_some("on"))} role="tab"
                    aria-selected={(cur == t).to_string()} onclick={onclick} data-testid={id}>{ label }</button>
        }
    };
    html! {
        <section class="inspector" aria-label={t(lang, "Inspector")} data-testid="inspector"
                 ref={panel} tabindex="-1" {onkeydown}>
            <button class="mini close" onclick={close} aria-label={t(lang, "Close the inspector")}>{"×"}</button>
            <div class="tabs" role="tablist" aria-label={t(lang, "Inspector views")}>
                if !owner_kind {
                    { tab_button(Tab::Overview, if matches!(selected, Selection::Pod(_)) { t(lang, "Path") } else { t(lang, "Overview") }, "tab-overview") }
                }
                { tab_button(Tab::Why, t(lang, "Why"), "tab-why") }
                { tab_button(Tab::Yaml, t(lang, "YAML"), "tab-yaml") }
                { tab_button(Tab::Describe, t(lang, "Describe"), "tab-describe") }
            </div>
            { body }
        </section>
    }
}

/// The selection is not in the cluster now: rewound to before it was created ("not
/// created yet", with when it is), or deleted ("no longer exists").
fn gone(sim: &SimHandle, sel: &Selection) -> Html {
    let lang = sim.lang();
    let (kind, key) = sel.kind_key();
    let why = {
        let s = sim.state.borrow();
        absence(&s.cluster, s.future.as_ref(), kind, &key)
    };
    let what = format!("{} {}", kind.name(), key.name);
    let text = match why {
        Absence::NotYet(at) => trf(
            lang,
            "{} is not created yet: the recorded history creates it at {}.",
            &[&what, &clock_label(at)],
        ),
        Absence::Gone => trf(lang, "{} no longer exists.", &[&what]),
    };
    html! { <p class="gone" data-testid="inspector-gone">{ text }</p> }
}

/// The why-trace of the selection: upstream causes first (indented by how far
/// upstream), then its own steps; for a stuck Pod, where it is stuck and the evidence.
fn why_view(sim: &SimHandle, sel: &Selection) -> Html {
    let lang = sim.lang();
    let (kind, key) = sel.kind_key();
    let (trace, stuck) = {
        let s = sim.state.borrow();
        let trace = kubeplay_engine::explain::trace::trace(&s.cluster, kind, &key);
        let stuck = match sel {
            Selection::Pod(n) => pod_path(&s.cluster, n).and_then(|p| {
                p.stages
                    .into_iter()
                    .find(|st| st.state == StageState::Stuck)
            }),
            _ => None,
        };
        (trace, stuck)
    };
    let Some(trace) = trace else {
        return gone(sim, sel);
    };
    let max_depth = trace.iter().map(|c| c.depth).max().unwrap_or(0);
    html! {
        <div class="why" data-testid="why">
            <h2>{ trf(lang, "Why {} {} is as it is", &[&kind.name(), &key.name]) }
                <span class="sub">{ t(lang, " — the chain of causes, read from the watch log and Events") }</span></h2>
            <ol class="causes">
                { for trace.iter().map(|c| {
                    let up = c.depth > 0;
                    let args: Vec<&dyn std::fmt::Display> = c.args.iter().map(|a| a as &dyn std::fmt::Display).collect();
                    html! {
                        <li class={classes!("cause", up.then_some("upstream"))} style={format!("--indent:{}", max_depth.saturating_sub(c.depth).min(4))} data-depth={c.depth.to_string()}>
                            <span class="when">{ clock_label(c.time) }</span>
                            <span class="actor">{ &c.actor }</span>
                            <span class="what">{ trf(lang, c.template, &args) }
                                if c.repeats > 1 {
                                    <span class="times" title={t(lang, "times it happened")}>{ format!(" ×{}", c.repeats) }</span>
                                }
                            </span>
                        </li>
                    }
                }) }
                if let Some(st) = stuck {
                    <li class="cause stuck" data-testid="why-stuck">
                        <span class="when">{ t(lang, "now") }</span>
                        <span class="actor">{ trf(lang, "Stuck at: {}", &[&t(lang, st.label())]) }</span>
                        <span class="what">{ for st.evidence.iter().map(|e| html! { <span class="evidence">{ e.in_lang(lang) }</span> }) }</span>
                    </li>
                }
            </ol>
        </div>
    }
}

fn run(sim: &SimHandle, verb: Verb) -> Callback<MouseEvent> {
    let sim = sim.clone();
    Callback::from(move |_| sim.act(verb.clone()))
}

fn pod_view(sim: &SimHandle, p: &PodPath) -> Html {
    let lang = sim.lang();
    let stuck = p
        .stages
        .iter()
        .find(|s| s.state == StageState::Stuck)
        .map(|s| t(lang, s.label()));
    html! {
        <div class="pod-path">
            <h2>{ format!("Pod {}", p.name) }<span class="sub">{ format!(" · {} · uid {}", p.status, &p.uid[..8.min(p.uid.len())]) }</span></h2>
            if let Some(s) = stuck {
                <p class="stuck-at" data-testid="stuck-at">{ trf(lang, "Stuck at: {}", &[&s]) }</p>
            }
            if let Some(t) = p.eviction_in {
                <p class="countdown" data-testid="eviction-countdown">{ trf(lang, "The taint-eviction controller deletes it in {}s (tolerationSeconds)", &[&t]) }</p>
            }
            <ol class="stages">
                { for p.stages.iter().map(|s| {
                    let (icon, class, word) = match s.state {
                        StageState::Done => ("✓", "done", t(lang, "done")),
                        StageState::Current => ("…", "current", t(lang, "in progress")),
                        StageState::Stuck => ("✕", "stuck", t(lang, "stuck")),
                        StageState::Pending => ("○", "pending", t(lang, "not reached")),
                    };
                    html! {
                        <li class={classes!("stage", class)} data-testid={format!("stage-{}", s.id)} data-state={class}>
                            <span class="stage-name"><span aria-hidden="true">{ icon }</span>{ format!(" {} ", t(lang, s.label())) }<span class="sr">{ format!("({word})") }</span></span>
                            { for s.evidence.iter().map(|e| html! { <span class="evidence">{ e.in_lang(lang) }</span> }) }
                        </li>
                    }
                }) }
            </ol>
            if !p.verdicts.is_empty() {
                <table class="verdicts" aria-label={t(lang, "Last scheduling attempt, node by node")}>
                    <thead><tr><th>{ t(lang, "NODE") }</th><th>{ t(lang, "FILTERS") }</th><th>{ t(lang, "SCORE") }</th></tr></thead>
                    <tbody>
                        { for p.verdicts.iter().map(|v| html! {
                            <tr class={classes!(v.chosen.then_some("chosen"))}>
                                <td>{ if v.chosen { trf(lang, "{} (chosen)", &[&v.node]) } else { v.node.clone() } }</td>
                                // "feasible" is the UI's word; a filter's reason is the scheduler's
                                // own text and stays as kubectl shows it.
                                <td>{ if v.verdict == "feasible" { t(lang, "feasible").to_string() } else { v.verdict.clone() } }</td>
                                <td title={v.breakdown.clone()}>
                                    { v.score.map(|s| s.to_string()).unwrap_or_else(|| "—".into()) }
                                    if !v.breakdown.is_empty() { <span class="breakdown">{ &v.breakdown }</span> }
                                </td>
                            </tr>
                        }) }
                    </tbody>
                </table>
            }
            if !sim.readonly() {
            <div class="actions">
                <button class="btn" onclick={run(sim, Verb::DeletePod(p.name.clone()))}>{ t(lang, "Delete") }</button>
                <button class="btn" onclick={run(sim, Verb::CrashPod(p.name.clone()))} data-testid="action-crash">{ t(lang, "Kill container") }</button>
                <button class="btn" onclick={run(sim, Verb::SetUnready(p.name.clone(), true))}>{ t(lang, "Make unready") }</button>
                <button class="btn" onclick={run(sim, Verb::SetUnready(p.name.clone(), false))}>{ t(lang, "Make ready") }</button>
                <button class="btn" onclick={run(sim, Verb::HangPod(p.name.clone()))}>{ t(lang, "Hang") }</button>
                <button class="btn" onclick={run(sim, Verb::OomPod(p.name.clone()))}>{ t(lang, "OOM") }</button>
            </div>
            }
        </div>
    }
}

fn node_view(sim: &SimHandle, n: &NodeDetail) -> Html {
    let lang = sim.lang();
    html! {
        <div class="node-detail">
            <h2>{ trf(lang, "Node {}", &[&n.name]) }<span class="sub">{ format!(" · {}{}", n.status, if n.partitioned { t(lang, " · partitioned") } else if !n.powered { t(lang, " · powered off") } else { "" }) }</span></h2>
            <p>{ crate::components::chain::heartbeat_line(lang, n.silence) }</p>
            <table class="verdicts" aria-label={t(lang, "Node conditions")}>
                <thead><tr><th>{ t(lang, "TYPE") }</th><th>{ t(lang, "STATUS") }</th><th>{ t(lang, "REASON") }</th><th>{ t(lang, "MESSAGE") }</th></tr></thead>
                <tbody>{ for n.conditions.iter().map(|(t, s, r, m)| html! { <tr><td>{t}</td><td>{s}</td><td>{r}</td><td>{m}</td></tr> }) }</tbody>
            </table>
            <p class="taints">{ if n.taints.is_empty() { t(lang, "Taints: <none>").to_string() } else { trf(lang, "Taints: {}", &[&n.taints.join(", ")]) } }</p>
            <ul class="node-pods">
                { for n.pods.iter().map(|p| html! {
                    <li>{ format!("{} · {}", p.name, p.status) }{ p.evict_in.map(|t| html! { <span class="countdown">{ format!(" · {}", trf(lang, "evicted in {}s", &[&t])) }</span> }).unwrap_or_default() }</li>
                }) }
            </ul>
            { node_actions(sim, n) }
        </div>
    }
}

/// Cordon / uncordon, drain, power off / on (or reconnect), partition: the node
/// controls shared by the inspector and the node board.
pub(crate) fn node_actions(sim: &SimHandle, n: &NodeDetail) -> Html {
    // A read-only page (`readonly=1`) shows the state, not controls that do nothing.
    if sim.readonly() {
        return html! {};
    }
    let lang = sim.lang();
    let cordon = Verb::Cordon(n.name.clone(), !n.cordoned);
    let power = Verb::Power(n.name.clone(), !n.powered || n.partitioned);
    html! {
        <div class="actions">
            <button class="btn" onclick={run(sim, cordon)} data-testid="action-cordon">{ if n.cordoned { t(lang, "Uncordon") } else { t(lang, "Cordon") } }</button>
            <button class="btn" onclick={run(sim, Verb::Drain(n.name.clone()))} data-testid="action-drain">{ t(lang, "Drain") }</button>
            <button class="btn" onclick={run(sim, power)} data-testid="action-power">{ if n.partitioned { t(lang, "Reconnect") } else if n.powered { t(lang, "Power off") } else { t(lang, "Power on") } }</button>
            if n.powered && !n.partitioned {
                <button class="btn" onclick={run(sim, Verb::Partition(n.name.clone()))} data-testid="action-partition">{ t(lang, "Partition") }</button>
            }
        </div>
    }
}
