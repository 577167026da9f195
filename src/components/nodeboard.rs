//! The node board: every node as a card with its Pods inside, requests against
//! allocatable, conditions that are not normal, taints, cordon / power / partition
//! state, a countdown to eviction per Pod, and the node controls.

use super::chain::bar;
use super::inspector::node_actions;
use crate::i18n::{t, trf};
use crate::sim::{use_sim, Selection};
use crate::view::*;
use kubeplay_engine::api::quantity::{format_bytes, format_cpu_milli};
use yew::prelude::*;

/// Conditions worth a learner's eye: Ready not True, or a pressure condition True.
fn abnormal(cond: &(String, String, String, String)) -> bool {
    let (t, s, _, _) = cond;
    if t == "Ready" {
        s != "True"
    } else {
        s == "True"
    }
}

/// The board.
#[function_component(NodeBoard)]
pub fn node_board() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let (views, details, aggregated) = {
        let st = sim.state.borrow();
        let aggregated = pod_count(&st.cluster) > AGGREGATE_AT;
        let model = chain_model(&st.cluster);
        let details: Vec<NodeDetail> = model
            .nodes
            .iter()
            .filter_map(|n| node_detail(&st.cluster, &n.name))
            .collect();
        (model.nodes, details, aggregated)
    };
    html! {
        <section class="panel nodeboard" aria-label={t(lang, "Node board")} data-testid="node-board">
            <h2>{ t(lang, "Nodes") }<span class="sub">{ t(lang, " — each node's Pods, requests against allocatable, and what the node lifecycle controller sees") }</span></h2>
            <div class="board">
                { for views.iter().zip(details.iter()).map(|(v, d)| {
                    let badges: Vec<(&str, &str)> = [
                        (d.cordoned, (t(lang, "cordoned"), t(lang, "SchedulingDisabled: new Pods are not placed here"))),
                        (!d.powered, (t(lang, "powered off"), t(lang, "the kubelet is down: no heartbeats"))),
                        (d.partitioned, (t(lang, "partitioned"), t(lang, "the kubelet runs but cannot reach the API server"))),
                    ]
                    .into_iter()
                    .filter(|(on, _)| *on)
                    .map(|(_, b)| b)
                    .collect();
                    let inspect = {
                        let sim = sim.clone();
                        let name = d.name.clone();
                        Callback::from(move |_| sim.select(Some(Selection::Node(name.clone()))))
                    };
                    html! {
                        <article class={classes!("nodecard", if v.ready { "ready" } else { "notready" })}
                                 data-testid={format!("board-{}", d.name)} data-status={d.status.clone()}>
                            <header>
                                <button class="linkish" onclick={inspect} title={t(lang, "Open in the inspector")}>{ &d.name }</button>
                                <span class="nodestatus">{ &d.status }</span>
                            </header>
                            if !badges.is_empty() {
                                <div class="badges">{ for badges.iter().map(|(b, t)| html! { <span class="badge" title={*t}>{ *b }</span> }) }</div>
                            }
                            { bar("cpu", v.cpu_requested, v.cpu_allocatable, format_cpu_milli) }
                            { bar("mem", v.mem_requested, v.mem_allocatable, format_bytes) }
                            { for d.conditions.iter().filter(|c| abnormal(c)).map(|(t, s, r, m)| html! {
                                <p class="cond" title={m.clone()}>{ format!("{t}={s} · {r}") }</p>
                            }) }
                            if !d.taints.is_empty() {
                                <div class="taints">{ for d.taints.iter().map(|t| html! { <span class="taint">{ t }</span> }) }</div>
                            }
                            if aggregated {
                                <p class="aggcount">{ trf(lang, "{} Pods", &[&d.pods.len()]) }</p>
                            } else {
                            <ul class="boardpods">
                                { for d.pods.iter().map(|(p, s, evict)| html! {
                                    <li class={classes!("boardpod", (s == "Running").then_some("running"), (s == "Terminating").then_some("terminating"))}>
                                        <span class="pname">{ p }</span>
                                        <span class="pstatus">{ s }</span>
                                        { evict.map(|secs| html! { <span class="countdown" title={t(lang, "NoExecute taint: the taint-eviction controller deletes the Pod when its tolerationSeconds run out")}>{ trf(lang, "evicted in {}s", &[&secs]) }</span> }).unwrap_or_default() }
                                    </li>
                                }) }
                                if d.pods.is_empty() { <li class="empty">{ t(lang, "no Pods") }</li> }
                            </ul>
                            }
                            { node_actions(&sim, d) }
                        </article>
                    }
                }) }
            </div>
        </section>
    }
}
