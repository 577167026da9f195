//! The control-plane bar: the API server (a button to stop it, or, while it is down,
//! what that means and a button to start it again), its replicas, the etcd members
//! with their quorum, and who leads kube-controller-manager and kube-scheduler.
//!
//! It draws a [`ControlPlaneModel`], not the cluster: the bar redraws only when the
//! control plane changes. A read-only page shows the same state as plain chips, with
//! no control that does nothing.

use crate::i18n::{t, trf, Lang};
use crate::sim::{use_sim, SimHandle, Verb};
use crate::view::{etcd_size_figures, ControlPlaneModel};
use kubeplay_engine::apiserver::mvcc::humanize_bytes;
use kubeplay_engine::time::{clock_label, human_duration};
use yew::prelude::*;

/// Properties of [`ControlPlaneBar`].
#[derive(Properties, PartialEq)]
pub struct ControlPlaneProps {
    /// What to draw.
    pub model: ControlPlaneModel,
}

/// The bar, from the session's cluster.
#[function_component(ControlPlaneView)]
pub fn control_plane_view() -> Html {
    let sim = use_sim();
    let model = ControlPlaneModel::of(&sim.world());
    html! { <ControlPlaneBar {model} /> }
}

/// A chip: a button that does `verb`, or, read-only, the same words as plain text.
struct Chip<'a> {
    class: Classes,
    label: Html,
    title: String,
    testid: String,
    pressed: Option<bool>,
    verb: Option<Verb>,
    sim: &'a SimHandle,
}

impl Chip<'_> {
    fn html(self) -> Html {
        let Chip {
            class,
            label,
            title,
            testid,
            pressed,
            verb,
            sim,
        } = self;
        if sim.readonly() {
            let title = read_only_title(sim.lang(), &title);
            return html! { <span class={classes!(class, "static")} {title} data-testid={testid}>{ label }</span> };
        }
        let onclick = verb.clone().map(|v| {
            let sim = sim.clone();
            Callback::from(move |_: MouseEvent| sim.act(v.clone()))
        });
        html! {
            <button class={class} disabled={verb.is_none()} {onclick} {title} data-testid={testid}
                    aria-pressed={pressed.map(|p| p.to_string())}>{ label }</button>
        }
    }
}

/// The bar itself.
#[function_component(ControlPlaneBar)]
pub fn control_plane_bar(props: &ControlPlaneProps) -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let readonly = sim.readonly();
    let m = &props.model;
    let act = |verb: Verb| {
        let sim = sim.clone();
        Callback::from(move |_| sim.act(verb.clone()))
    };
    let apiserver = apiserver_status(&sim, m);
    let down = m.apiserver_down_since.is_some();
    let lost = m.quorum_lost_for.is_some();
    let replicas = m.apiservers.len();
    let replica_chips = replica_chips(&sim, m);
    let sizes = |options: &[usize],
                 current: usize,
                 blocked: bool,
                 verb: fn(usize) -> Verb,
                 testid: &str,
                 title: &dyn Fn(usize) -> String| {
        options
            .iter()
            .map(|&k| {
                html! {
                    <button class={classes!("etcdsize", (k == current).then_some("on"))}
                            disabled={k == current || blocked} onclick={act(verb(k))}
                            data-testid={format!("{testid}-{k}")} title={title(k)}>{ k }</button>
                }
            })
            .collect::<Html>()
    };
    let members = member_chips(&sim, m);
    let leaders = leader_chips(&sim, m);
    let n = m.etcd.len();
    html! {
        <div class="cpview" data-testid="control-plane">
        <div class="cpbar">
            { apiserver }
            <span class="etcd" data-testid="apiserver-bar">
                <span class="etcdlabel">{ "kube-apiserver" }</span>
                { replica_chips }
                if !readonly {
                    { sizes(&[1, 3], replicas, down, Verb::ApiServerReplicas, "apiserver-replicas", &|k| trf(lang, "sim apiserver replicas {}", &[&k])) }
                }
            </span>
            <span class="etcd" data-testid="etcd-bar">
                <span class="etcdlabel">{ "etcd" }</span>
                { members }
                <span class={classes!("quorum", lost.then_some("lost"))} data-testid="etcd-quorum">
                    { trf(lang, "{} of {} up · quorum {}", &[&m.etcd_up, &n, &m.quorum]) }
                </span>
                if let Some((rev, file, in_use)) = m.etcd_data {
                    <span class="etcddata" data-testid="etcd-data"
                        title={t(lang, "etcd's revision, its database file and the part of it in use: every write adds a revision, a compaction frees room inside the file, a defragmentation gives it back (sim etcdctl endpoint status)")}>
                        { trf(lang, "rev {} · {} ({} in use)", &[&rev, &humanize_bytes(file), &humanize_bytes(in_use)]) }
                    </span>
                }
                if !readonly {
                    <span class="etcdsizes" title={t(lang, "How many etcd members")}>{ t(lang, "members") }
                        { sizes(&[1, 3, 5], n, lost, Verb::EtcdMembers, "etcd-members", &|k| {
                            let (q, f) = etcd_size_figures(k);
                            trf(lang, "sim etcd members {}: quorum {}, tolerates {} failed", &[&k, &q, &f])
                        }) }
                    </span>
                }
            </span>
            <span class="etcd" data-testid="leader-bar">
                { leaders }
                if !readonly {
                    <span class="etcdsizes" title={t(lang, "How many replicas of kube-controller-manager and kube-scheduler")}>{ t(lang, "replicas") }
                        { sizes(&[1, 3], m.leader_replicas, down || lost, Verb::LeaderReplicas, "leader-replicas", &|k| trf(lang, "sim leader replicas {}", &[&k])) }
                    </span>
                }
            </span>
        </div>
        if let Some(for_ms) = m.etcd_cut_for {
            <div class="cpbar down" role="status" data-testid="etcd-cut">
                <b>{ trf(lang, "The API server cannot reach etcd for {}: its members are up, with a leader", &[&human_duration(for_ms)]) }</b>
                <span>{ t(lang, "Every request through the API server waits for its deadline (Timeout: … context deadline exceeded) and /readyz fails on etcd, as with a lost quorum; etcdctl on the members says healthy. That is how the two are told apart.") }</span>
                if !readonly {
                    <button class="addnode" onclick={let sim = sim.clone(); Callback::from(move |_| sim.act(Verb::EtcdPath(true)))} data-testid="etcd-reconnect">{ t(lang, "Reconnect") }</button>
                }
            </div>
        }
        if let Some(for_ms) = m.quorum_lost_for {
            <div class="cpbar down" role="status" data-testid="etcd-no-quorum">
                <b>{ trf(lang, "etcd has lost its quorum for {}: {} of {} members up, {} needed", &[&human_duration(for_ms), &m.etcd_up, &n, &m.quorum]) }</b>
                <span>{ t(lang, "The API server answers, but every write and every consistent read times out (etcdserver: request timed out): nothing changes, the kubelets cannot report, their Leases go stale. Running containers keep serving. Start a member to regain the quorum.") }</span>
            </div>
        }
        </div>
    }
}

/// The API server: a button to stop it, or, while it is down, what that means and a
/// button to start it again.
fn apiserver_status(sim: &SimHandle, m: &ControlPlaneModel) -> Html {
    let lang = sim.lang();
    let readonly = sim.readonly();
    let act = |verb: Verb| {
        let sim = sim.clone();
        Callback::from(move |_| sim.act(verb.clone()))
    };
    match m.apiserver_down_since {
        Some(since) => html! {
            <div class="cpbar down" role="status" data-testid="apiserver-down">
                <b>{ trf(lang, "The API server is down (since {})", &[&clock_label(since)]) }</b>
                <span>{ t(lang, "Nothing is written: kubectl is refused, the controllers and the scheduler wait, the kubelets cannot report. Running containers and every kube-proxy's last rules keep serving.") }</span>
                if !readonly {
                    <button class="addnode" onclick={act(Verb::ApiServer(true))} data-testid="apiserver-up">{ t(lang, "Start the API server") }</button>
                }
            </div>
        },
        None if !readonly => html! {
            <button class="addnode" onclick={act(Verb::ApiServer(false))} data-testid="apiserver-down-button" title={t(lang, "sim apiserver down: the control plane stops answering; the data plane keeps serving")}>{ t(lang, "Stop the API server") }</button>
        },
        None => html! {},
    }
}

/// With several API server replicas, one chip each (a click stops or starts it).
fn replica_chips(sim: &SimHandle, m: &ControlPlaneModel) -> Html {
    let lang = sim.lang();
    let replicas = m.apiservers.len();
    m.apiservers
        .iter()
        .enumerate()
        .filter(|_| replicas > 1)
        .map(|(i, (name, up))| {
            let title = if *up {
                trf(lang, "{}: up, behind the load balancer. Click to stop it: its host's controller manager and scheduler lose the API.", &[name])
            } else {
                trf(lang, "{}: down. Click to start it.", &[name])
            };
            Chip {
                class: classes!("etcdm", if *up { "up" } else { "down" }),
                label: html! { { format!("control-plane-{}", i + 1) } },
                title,
                testid: name.clone(),
                pressed: Some(!up),
                verb: Some(Verb::ApiServerReplica(name.clone(), !up)),
                sim,
            }
            .html()
        })
        .collect()
}

/// One chip per etcd member: green up, red down, the leader starred; a click stops or
/// starts it.
fn member_chips(sim: &SimHandle, m: &ControlPlaneModel) -> Html {
    let lang = sim.lang();
    m.etcd
        .iter()
        .map(|e| {
            let title = match (e.up, e.leader) {
                (true, true) => trf(lang, "{}: up, the Raft leader. Click to stop it.", &[&e.name]),
                (true, false) => trf(lang, "{}: up. Click to stop it.", &[&e.name]),
                (false, _) => trf(lang, "{}: down. Click to start it.", &[&e.name]),
            };
            Chip {
                class: classes!("etcdm", if e.up { "up" } else { "down" }),
                label: html! { { if e.leader { format!("★ {}", e.name) } else { e.name.clone() } } },
                title,
                testid: format!("etcd-{}", e.name),
                pressed: Some(!e.up),
                verb: Some(Verb::Etcd(e.name.clone(), !e.up)),
                sim,
            }
            .html()
        })
        .collect()
}

/// One chip per leader-elected component: who holds its Lease, or for how long none
/// has; a click kills the leader (`sim leader kill`).
fn leader_chips(sim: &SimHandle, m: &ControlPlaneModel) -> Html {
    let lang = sim.lang();
    m.leaders
        .iter()
        .map(|l| {
            let (label, title) = match &l.holder {
                Some((host, identity)) => (
                    format!("★ {host}"),
                    trf(lang, "{} leads: it holds the Lease kube-system/{}. Click to kill it.", &[identity, &l.lease]),
                ),
                None => (
                    trf(lang, "no leader for {}", &[&human_duration(l.leaderless_for)]),
                    t(lang, "No replica holds the Lease: its controllers are idle until a standby sees it unrenewed for 15 s and acquires it.").to_string(),
                ),
            };
            Chip {
                class: classes!("leader", l.holder.is_none().then_some("none")),
                label: html! { <><span class="leaderlabel">{ l.short }</span>{ " " }{ label }</> },
                title,
                testid: format!("leader-{}", l.lease),
                pressed: None,
                verb: l.holder.as_ref().map(|_| Verb::KillLeader(l.lease.to_string())),
                sim,
            }
            .html()
        })
        .collect()
}

/// A chip's tooltip on a read-only page: what it shows, without the click it does not
/// have (the sentence before "Click…").
fn read_only_title(lang: Lang, title: &str) -> String {
    let click = t(lang, "Click");
    title
        .find(click)
        .map_or(title, |i| title[..i].trim_end())
        .to_string()
}
