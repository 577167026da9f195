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

/// Most node cards the board draws. A cluster of thousands of nodes would be thousands
/// of cards, re-rendered every tick; the aggregated chain's heat map above shows every
/// node, and the board shows the ones that need attention first.
pub const BOARD_MAX: usize = 48;

/// Which nodes get a card: all of them up to [`BOARD_MAX`]; past that, the ones that
/// need attention (not Ready, powered off, cordoned, tainted) first, then the rest in
/// name order, [`BOARD_MAX`] in all. Returns the indexes in that order (attention
/// first), so the cards a learner should look at come first.
pub fn board_nodes(views: &[NodeView]) -> Vec<usize> {
    busy_first(views.len(), BOARD_MAX, |i| {
        let v = &views[i];
        !v.ready || !v.powered || !v.taints.is_empty()
    })
}

/// The board.
#[function_component(NodeBoard)]
pub fn node_board() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let (views, details, aggregated, total) = {
        let st = sim.state.borrow();
        let aggregated = aggregated(&st.cluster);
        let all = node_views(&st.cluster);
        let total = all.len();
        let shown = board_nodes(&all);
        let mut all: Vec<Option<NodeView>> = all.into_iter().map(Some).collect();
        let views: Vec<NodeView> = shown.iter().filter_map(|&i| all[i].take()).collect();
        let details: Vec<NodeDetail> = views
            .iter()
            .filter_map(|n| node_detail(&st.cluster, &n.name))
            .collect();
        (views, details, aggregated, total)
    };
    html! {
        <section class="panel nodeboard" aria-label={t(lang, "Node board")} data-testid="node-board">
            <h2>{ t(lang, "Nodes") }<span class="sub">{ t(lang, " — each node's Pods, requests against allocatable, and what the node lifecycle controller sees") }</span></h2>
            if views.len() < total {
                <p class="boardnote" data-testid="board-note">{ trf(lang, "Showing {} of {} nodes: the ones that need attention first. The heat map above has every node; click a cell to inspect it.", &[&views.len(), &total]) }</p>
            }
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
                            { crate::components::chain::heartbeat_line(lang, d.silence) }
                            if !badges.is_empty() {
                                <div class="badges">{ for badges.iter().map(|(b, t)| html! { <span class="badge" title={*t}>{ *b }</span> }) }</div>
                            }
                            { bar(lang, "cpu", v.cpu_requested, v.cpu_allocatable, format_cpu_milli) }
                            { bar(lang, "mem", v.mem_requested, v.mem_allocatable, format_bytes) }
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
                                { for d.pods.iter().map(|p| html! {
                                    <li class={classes!("boardpod", (p.status == "Running").then_some("running"), (p.status == "Terminating").then_some("terminating"))}
                                        data-testid={format!("board-pod-{}", p.name)}>
                                        <span class="pname">{ &p.name }</span>
                                        { p.daemonset.as_ref().map(|ds| html! {
                                            <span class="tag ds" data-testid="daemon-pod" title={trf(lang, "DaemonSet {} runs one Pod on every eligible node: this one stays through NotReady and a drain without --ignore-daemonsets refuses it", &[ds])}>{ "DS" }</span>
                                        }).unwrap_or_default() }
                                        <span class="pstatus">{ &p.status }</span>
                                        { p.evict_in.map(|secs| html! { <span class="countdown" title={t(lang, "NoExecute taint: the taint-eviction controller deletes the Pod when its tolerationSeconds run out")}>{ trf(lang, "evicted in {}s", &[&secs]) }</span> }).unwrap_or_default() }
                                    </li>
                                }) }
                                if d.pods.is_empty() { <li class="empty">{ t(lang, "no Pods") }</li> }
                            </ul>
                            }
                            if !d.volumes.is_empty() {
                                <ul class="boardvols" aria-label={t(lang, "Disks")} data-testid="board-volumes">
                                    { for d.volumes.iter().map(|v| {
                                        let title = match &v.volume {
                                            Some(pv) => trf(lang, "PersistentVolume {} bound to claim {}, mounted by Pod {}", &[pv, &v.claim, &v.pod]),
                                            None => trf(lang, "claim {} is not bound to a volume yet: Pod {} waits for it", &[&v.claim, &v.pod]),
                                        };
                                        html! {
                                            <li class={classes!("boardvol", v.volume.is_none().then_some("unbound"))} title={title} data-testid={format!("board-volume-{}", v.claim)}>
                                                <span class="vicon" aria-hidden="true">{ "⛁" }</span>
                                                <span class="vname">{ &v.claim }</span>
                                                <span class="vsize">{ &v.size }</span>
                                            </li>
                                        }
                                    }) }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn view(name: &str, ready: bool, taints: &[&str]) -> NodeView {
        NodeView {
            name: name.into(),
            status: if ready { "Ready" } else { "NotReady" }.into(),
            ready,
            powered: true,
            cpu_requested: 0,
            cpu_allocatable: 1000,
            mem_requested: 0,
            mem_allocatable: 1,
            pods: 0,
            system_pods: 0,
            taints: taints.iter().map(|t| t.to_string()).collect(),
            silence: None,
            y: 0.0,
        }
    }

    #[test]
    fn a_small_cluster_gets_a_card_for_every_node() {
        let views: Vec<NodeView> = (0..BOARD_MAX)
            .map(|i| view(&format!("n{i:03}"), true, &[]))
            .collect();
        assert_eq!(board_nodes(&views), (0..BOARD_MAX).collect::<Vec<_>>());
    }

    #[test]
    fn a_large_cluster_shows_the_nodes_needing_attention_first_then_fills_in_name_order() {
        let mut views: Vec<NodeView> = (0..5000)
            .map(|i| view(&format!("n{i:04}"), true, &[]))
            .collect();
        views[4000] = view(
            "n4000",
            false,
            &["node.kubernetes.io/unreachable:NoExecute"],
        );
        views[4999].powered = false;
        views[2500].taints = vec!["node.kubernetes.io/unschedulable:NoSchedule".into()];
        let shown = board_nodes(&views);
        assert_eq!(shown.len(), BOARD_MAX);
        assert!(shown.contains(&4000) && shown.contains(&4999) && shown.contains(&2500));
        // Those three first (in name order), then the first 45 healthy ones.
        assert_eq!(&shown[..3], &[2500, 4000, 4999]);
        assert_eq!(&shown[3..], &(0..BOARD_MAX - 3).collect::<Vec<_>>()[..]);
    }
}
