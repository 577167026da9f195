//! Projection of the engine's state into the small view structs the components draw.
//!
//! Pure functions of the [`Cluster`]: no web types, so they are unit-tested natively.
//! Layout (card positions and the lines between them) is computed here too, so that
//! lines and cards always agree and nothing depends on measuring the DOM.

use kubeplay_engine::api::*;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::controllers::deployment::util::revision;
use kubeplay_engine::printers::{node_status, pod_ready_status};
use kubeplay_engine::time::{clock_label, SimTime};

/// Width of a column of cards (px).
pub const COL_W: f64 = 238.0;
/// Horizontal gap between columns (px).
pub const GAP: f64 = 44.0;
/// Height of a Pod card (px).
pub const POD_H: f64 = 64.0;
/// Height of a Node card (px).
pub const NODE_H: f64 = 108.0;
/// Height of a Deployment / ReplicaSet card (px).
pub const OWNER_H: f64 = 84.0;
/// Vertical gap between cards (px).
pub const V_GAP: f64 = 10.0;

/// A Deployment: spec beside status.
#[derive(Clone, Debug, PartialEq)]
pub struct DeploymentView {
    /// Name.
    pub name: String,
    /// spec.replicas.
    pub desired: i64,
    /// status.readyReplicas.
    pub ready: i64,
    /// status.availableReplicas.
    pub available: i64,
    /// status.updatedReplicas.
    pub updated: i64,
    /// metadata.resourceVersion (what changed since the last frame pulses).
    pub rv: u64,
    /// metadata.creationTimestamp in ms (what appeared since the last frame fades in).
    pub created_ms: SimTime,
    /// Card top (px).
    pub y: f64,
}

/// One revision of a Deployment, for the history panel.
#[derive(Clone, Debug, PartialEq)]
pub struct RevisionView {
    /// `deployment.kubernetes.io/revision`.
    pub revision: i64,
    /// ReplicaSet name.
    pub replicaset: String,
    /// Images of the template.
    pub images: String,
    /// `kubernetes.io/change-cause` or `<none>`.
    pub change_cause: String,
    /// spec.replicas / status.readyReplicas of the ReplicaSet.
    pub desired: i64,
    /// Ready Pods.
    pub ready: i64,
    /// The Deployment's current template.
    pub current: bool,
}

/// What the Deployment panel shows and drives.
#[derive(Clone, Debug, PartialEq)]
pub struct DeploymentDetail {
    /// Name.
    pub name: String,
    /// First container's name (for `set image`).
    pub container: String,
    /// First container's image.
    pub image: String,
    /// spec.paused.
    pub paused: bool,
    /// Resolved maxSurge / maxUnavailable.
    pub max_surge: i64,
    /// Resolved maxUnavailable.
    pub max_unavailable: i64,
    /// Σ ReplicaSet spec.replicas (what the surge budget limits).
    pub total_pods: i64,
    /// spec.replicas.
    pub desired: i64,
    /// status.unavailableReplicas.
    pub unavailable: i64,
    /// Conditions as (type, status, reason, message).
    pub conditions: Vec<(String, String, String, String)>,
    /// Revisions, newest first.
    pub revisions: Vec<RevisionView>,
}

/// Which of `len` items a capped list draws: up to `max` of those where `busy(i)` (in
/// order), then the others (in order) to fill `max`. The busy ones come first in the
/// result; a caller that wants list order sorts it. All of them when `len <= max`.
pub fn busy_first(len: usize, max: usize, busy: impl Fn(usize) -> bool) -> Vec<usize> {
    if len <= max {
        return (0..len).collect();
    }
    let mut picked: Vec<usize> = (0..len).filter(|&i| busy(i)).take(max).collect();
    let rest = max - picked.len();
    picked.extend((0..len).filter(|&i| !busy(i)).take(rest));
    picked
}

/// The Deployment panel's rows: per Deployment in `default`, its controls' inputs and its
/// history, for at most `limit` Deployments — those still rolling out or
/// short of Ready first, then the rest, in name order — and how many there are in all.
/// Only the chosen ones are worked out (each reads its ReplicaSets).
pub fn deployment_details_limited(c: &Cluster, limit: usize) -> (Vec<DeploymentDetail>, usize) {
    let all: Vec<&Deployment> = c
        .store
        .list::<Deployment>()
        .filter(|d| d.metadata.namespace == "default")
        .collect();
    let busy = |d: &Deployment| {
        let s = &d.status;
        let want = d.spec.replicas;
        s.updated_replicas != want || s.ready_replicas != want || s.available_replicas != want
    };
    let mut chosen = busy_first(all.len(), limit, |i| busy(all[i]));
    chosen.sort_unstable();
    (
        deployment_details_of(c, chosen.iter().map(|&i| all[i])),
        all.len(),
    )
}

fn deployment_details_of<'a>(
    c: &Cluster,
    deployments: impl Iterator<Item = &'a Deployment>,
) -> Vec<DeploymentDetail> {
    use kubeplay_engine::controllers::deployment::{owned_replica_sets, sync::find_new, util};
    deployments
        .map(|d| {
            let rss = owned_replica_sets(&c.store, d);
            let new = find_new(d, &rss);
            let mut revisions: Vec<RevisionView> = rss
                .iter()
                .enumerate()
                .map(|(i, r)| RevisionView {
                    revision: revision(&r.metadata),
                    replicaset: r.metadata.name.clone(),
                    images: r
                        .spec
                        .template
                        .spec
                        .containers
                        .iter()
                        .map(|c| c.image.clone())
                        .collect::<Vec<_>>()
                        .join(","),
                    change_cause: r
                        .metadata
                        .annotations
                        .get("kubernetes.io/change-cause")
                        .cloned()
                        .unwrap_or_else(|| "<none>".into()),
                    desired: r.spec.replicas,
                    ready: r.status.ready_replicas,
                    current: Some(i) == new,
                })
                .collect();
            revisions.sort_by_key(|r| std::cmp::Reverse(r.revision));
            let first = d.spec.template.spec.containers.first();
            DeploymentDetail {
                name: d.metadata.name.clone(),
                container: first.map(|c| c.name.clone()).unwrap_or_default(),
                image: first.map(|c| c.image.clone()).unwrap_or_default(),
                paused: d.spec.paused,
                max_surge: util::max_surge(d),
                max_unavailable: util::max_unavailable(d),
                total_pods: rss.iter().map(|r| r.spec.replicas).sum(),
                desired: d.spec.replicas,
                unavailable: d.status.unavailable_replicas,
                conditions: condition_rows(&d.status.conditions),
                revisions,
            }
        })
        .collect()
}

/// The image a learner most likely rolls out next: the tag's last number plus one
/// (`nginx:1.27` → `nginx:1.28`), else `:v2`.
pub fn next_image(image: &str) -> String {
    if let Some((repo, tag)) = image.rsplit_once(':') {
        if let Some(pos) = tag
            .rfind(|c: char| !c.is_ascii_digit())
            .map(|p| p + 1)
            .or(Some(0))
        {
            if let Ok(n) = tag[pos..].parse::<u64>() {
                return format!("{repo}:{}{}", &tag[..pos], n + 1);
            }
        }
        return format!("{repo}:v2");
    }
    format!("{image}:v2")
}

/// A ReplicaSet.
#[derive(Clone, Debug, PartialEq)]
pub struct ReplicaSetView {
    /// Name.
    pub name: String,
    /// Revision annotation.
    pub revision: i64,
    /// spec.replicas.
    pub desired: i64,
    /// status.replicas.
    pub current: i64,
    /// status.readyReplicas.
    pub ready: i64,
    /// Owner Deployment name.
    pub owner: Option<String>,
    /// metadata.resourceVersion (what changed since the last frame pulses).
    pub rv: u64,
    /// metadata.creationTimestamp in ms (what appeared since the last frame fades in).
    pub created_ms: SimTime,
    /// Card top (px).
    pub y: f64,
}

/// A Pod, as `kubectl get pods -o wide` would describe it.
#[derive(Clone, Debug, PartialEq)]
pub struct PodView {
    /// Name.
    pub name: String,
    /// First 8 characters of the uid.
    pub short_uid: String,
    /// READY column.
    pub ready_col: String,
    /// STATUS column.
    pub status: String,
    /// Ready condition.
    pub ready: bool,
    /// RESTARTS.
    pub restarts: i64,
    /// NODE (empty while unscheduled).
    pub node: String,
    /// Owner ReplicaSet name.
    pub owner: Option<String>,
    /// Being deleted.
    pub terminating: bool,
    /// For a terminating Pod: the Pod its ReplicaSet created in its place (name, short
    /// uid) — same name pattern, new uid, maybe another node.
    pub replaced_by: Option<(String, String)>,
    /// metadata.resourceVersion (what changed since the last frame pulses).
    pub rv: u64,
    /// metadata.creationTimestamp in ms (what appeared since the last frame fades in).
    pub created_ms: SimTime,
    /// Card top (px).
    pub y: f64,
}

/// A Node with its requests against allocatable.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeView {
    /// Name.
    pub name: String,
    /// STATUS column (`Ready`, `NotReady`…).
    pub status: String,
    /// Ready condition is True.
    pub ready: bool,
    /// The kubelet (machine) is powered on.
    pub powered: bool,
    /// CPU requested (millicores).
    pub cpu_requested: i64,
    /// CPU allocatable (millicores).
    pub cpu_allocatable: i64,
    /// Memory requested (bytes).
    pub mem_requested: i64,
    /// Memory allocatable (bytes).
    pub mem_allocatable: i64,
    /// Pods bound.
    pub pods: i64,
    /// Taints as `key:Effect`.
    pub taints: Vec<String>,
    /// Card top (px).
    pub y: f64,
}

/// A line between two cards (ownerReference or binding).
#[derive(Clone, Debug, PartialEq)]
pub struct Link {
    /// Start (right edge of the left card).
    pub x1: f64,
    /// Start y.
    pub y1: f64,
    /// End (left edge of the right card).
    pub x2: f64,
    /// End y.
    pub y2: f64,
    /// `owner` or `binding`.
    pub kind: &'static str,
}

/// The whole chain picture.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ChainModel {
    /// Deployments.
    pub deployments: Vec<DeploymentView>,
    /// ReplicaSets.
    pub replicasets: Vec<ReplicaSetView>,
    /// Pods.
    pub pods: Vec<PodView>,
    /// Nodes.
    pub nodes: Vec<NodeView>,
    /// Lines.
    pub links: Vec<Link>,
    /// Total height (px).
    pub height: f64,
}

fn rv_of(m: &ObjectMeta) -> u64 {
    m.resource_version.parse().unwrap_or(0)
}

/// How a card looks against the previous frame: just created (fades in), just
/// written (pulses), or unchanged. Driven by the store, not timers, so a card the
/// layout moves keeps its look (a CSS animation would restart on every move).
pub fn freshness(
    rv: u64,
    created_ms: SimTime,
    prev: Option<(u64, SimTime)>,
) -> Option<&'static str> {
    let (prev_rev, prev_now) = prev?;
    if created_ms > prev_now {
        Some("fresh")
    } else if rv > prev_rev {
        Some("changed")
    } else {
        None
    }
}

/// Left edge of column `i`.
pub fn col_x(i: usize) -> f64 {
    i as f64 * (COL_W + GAP)
}

/// An owner card's top: centred on its children's cards (tops `ys`, each `child_h`
/// tall) when it has some, else at the next free slot; never above `next_free`, which
/// moves below the card.
fn owner_y(ys: impl Iterator<Item = f64>, child_h: f64, next_free: &mut f64) -> f64 {
    let ys: Vec<f64> = ys.collect();
    let want = match (ys.first(), ys.last()) {
        (Some(top), Some(last)) => (top + last + child_h) / 2.0 - OWNER_H / 2.0,
        _ => *next_free,
    };
    let y = want.max(*next_free);
    *next_free = y + OWNER_H + V_GAP;
    y
}

/// The node cards, in name order: status, power, requests against allocatable, taints.
pub fn node_views(c: &Cluster) -> Vec<NodeView> {
    let store = &c.store;
    let mut out = Vec::new();
    let mut y = 0.0;
    for n in store.list::<Node>() {
        let usage = store.node_usage(&n.metadata.name);
        let alloc = usage
            .alloc
            .unwrap_or_else(|| kubeplay_engine::apiserver::allocatable(n));
        out.push(NodeView {
            name: n.metadata.name.clone(),
            status: node_status(n),
            ready: n.ready_status() == "True",
            powered: c.node_up(&n.metadata.name),
            cpu_requested: usage.requested.cpu_milli,
            cpu_allocatable: alloc.cpu_milli,
            mem_requested: usage.requested.memory,
            mem_allocatable: alloc.memory,
            pods: usage.pods,
            taints: n
                .spec
                .taints
                .iter()
                .map(|t| format!("{}:{}", t.key, t.effect))
                .collect(),
            y,
        });
        y += NODE_H + V_GAP;
    }
    out
}

/// Build the chain model: Deployments → ReplicaSets → Pods → Nodes, laid out in columns.
pub fn chain_model(c: &Cluster) -> ChainModel {
    let store = &c.store;
    let mut m = ChainModel::default();
    // Pods, grouped by owner ReplicaSet (oldest ReplicaSet first), then by age and name.
    let mut rss: Vec<&ReplicaSet> = store.list::<ReplicaSet>().collect();
    rss.sort_by(|a, b| {
        (a.metadata.created_ms, &a.metadata.name).cmp(&(b.metadata.created_ms, &b.metadata.name))
    });
    let mut pods: Vec<&Pod> = store.list::<Pod>().collect();
    let rank: std::collections::BTreeMap<&str, usize> = rss
        .iter()
        .enumerate()
        .map(|(i, rs)| (rs.metadata.name.as_str(), i))
        .collect();
    let rs_rank = |p: &Pod| {
        p.metadata
            .controller_ref()
            .and_then(|r| rank.get(r.name.as_str()).copied())
            .unwrap_or(usize::MAX)
    };
    pods.sort_by(|a, b| {
        (rs_rank(a), a.metadata.created_ms, &a.metadata.name).cmp(&(
            rs_rank(b),
            b.metadata.created_ms,
            &b.metadata.name,
        ))
    });
    let mut y = 0.0;
    for p in &pods {
        let (ready_col, status, restarts) = pod_ready_status(p);
        m.pods.push(PodView {
            name: p.metadata.name.clone(),
            short_uid: p.metadata.uid.chars().take(8).collect(),
            ready_col,
            status,
            ready: p.is_ready(),
            restarts,
            node: p.spec.node_name.clone(),
            owner: p.metadata.controller_ref().map(|r| r.name.clone()),
            terminating: p.metadata.is_deleting(),
            replaced_by: None,
            rv: rv_of(&p.metadata),
            created_ms: p.metadata.created_ms,
            y,
        });
        y += POD_H + V_GAP;
    }
    // "Replaced by": per ReplicaSet, each terminating Pod (in deletion order) is paired
    // with the first Pod the ReplicaSet created at or after its deletion.
    let mut used: Vec<String> = Vec::new();
    let mut dying: Vec<&Pod> = pods
        .iter()
        .copied()
        .filter(|p| p.metadata.is_deleting() && p.metadata.controller_ref().is_some())
        // Pairing is quadratic: past the aggregation threshold nobody draws it.
        .take(if pods.len() > AGGREGATE_AT {
            0
        } else {
            usize::MAX
        })
        .collect();
    // deletionTimestamp is the deadline (request + grace period): the request came
    // grace seconds before it.
    let asked_at = |p: &Pod| {
        p.metadata.deletion_ms.unwrap_or(0).saturating_sub(
            p.metadata.deletion_grace_period_seconds.unwrap_or(0).max(0) as u64 * 1000,
        )
    };
    dying.sort_by_key(|p| (asked_at(p), p.metadata.name.clone()));
    for d in dying {
        let owner = d.metadata.controller_ref().map(|r| r.uid.clone());
        let at = asked_at(d);
        let mut candidates: Vec<&Pod> = pods
            .iter()
            .copied()
            .filter(|q| {
                !q.metadata.is_deleting()
                    && q.metadata.controller_ref().map(|r| r.uid.clone()) == owner
                    && q.metadata.created_ms >= at
                    && !used.contains(&q.metadata.name)
            })
            .collect();
        candidates.sort_by_key(|q| (q.metadata.created_ms, q.metadata.name.clone()));
        if let Some(q) = candidates.first() {
            used.push(q.metadata.name.clone());
            let (from, to) = (
                m.pods.iter().position(|v| v.name == d.metadata.name),
                m.pods.iter().position(|v| v.name == q.metadata.name),
            );
            if let (Some(from), Some(to)) = (from, to) {
                m.pods[from].replaced_by = Some((
                    q.metadata.name.clone(),
                    q.metadata.uid.chars().take(8).collect(),
                ));
                m.links.push(Link {
                    x1: col_x(2),
                    y1: m.pods[from].y + POD_H / 2.0,
                    x2: col_x(2),
                    y2: m.pods[to].y + POD_H / 2.0,
                    kind: "replaced",
                });
            }
        }
    }
    let pods_h = y;
    // ReplicaSets: centred on their Pods when they have some, else stacked below.
    let mut next_free = 0.0f64;
    for rs in &rss {
        let mine: Vec<&PodView> = m
            .pods
            .iter()
            .filter(|p| p.owner.as_deref() == Some(&rs.metadata.name))
            .collect();
        let y = owner_y(mine.iter().map(|p| p.y), POD_H, &mut next_free);
        m.replicasets.push(ReplicaSetView {
            name: rs.metadata.name.clone(),
            revision: revision(&rs.metadata),
            desired: rs.spec.replicas,
            current: rs.status.replicas,
            ready: rs.status.ready_replicas,
            owner: rs.metadata.controller_ref().map(|r| r.name.clone()),
            rv: rv_of(&rs.metadata),
            created_ms: rs.metadata.created_ms,
            y,
        });
    }
    let mut next_free = 0.0f64;
    // Deployments in the order of their ReplicaSets, so lines never cross.
    let mut deps: Vec<&Deployment> = store.list::<Deployment>().collect();
    let first_rs_y = |d: &Deployment| {
        m.replicasets
            .iter()
            .filter(|r| r.owner.as_deref() == Some(&d.metadata.name))
            .map(|r| r.y)
            .fold(f64::INFINITY, f64::min)
    };
    deps.sort_by(|a, b| {
        first_rs_y(a)
            .total_cmp(&first_rs_y(b))
            .then_with(|| a.metadata.name.cmp(&b.metadata.name))
    });
    for d in deps {
        let mine: Vec<&ReplicaSetView> = m
            .replicasets
            .iter()
            .filter(|r| r.owner.as_deref() == Some(&d.metadata.name))
            .collect();
        let y = owner_y(mine.iter().map(|r| r.y), OWNER_H, &mut next_free);
        m.deployments.push(DeploymentView {
            name: d.metadata.name.clone(),
            desired: d.spec.replicas,
            ready: d.status.ready_replicas,
            available: d.status.available_replicas,
            updated: d.status.updated_replicas,
            rv: rv_of(&d.metadata),
            created_ms: d.metadata.created_ms,
            y,
        });
    }
    m.nodes = node_views(c);
    // Lines: Deployment → ReplicaSet → Pod (ownerReferences), Pod → Node (binding).
    for rs in &m.replicasets {
        if let Some(d) = m
            .deployments
            .iter()
            .find(|d| Some(&d.name) == rs.owner.as_ref())
        {
            m.links.push(Link {
                x1: col_x(0) + COL_W,
                y1: d.y + OWNER_H / 2.0,
                x2: col_x(1),
                y2: rs.y + OWNER_H / 2.0,
                kind: "owner",
            });
        }
    }
    for p in &m.pods {
        if let Some(rs) = m
            .replicasets
            .iter()
            .find(|r| Some(&r.name) == p.owner.as_ref())
        {
            m.links.push(Link {
                x1: col_x(1) + COL_W,
                y1: rs.y + OWNER_H / 2.0,
                x2: col_x(2),
                y2: p.y + POD_H / 2.0,
                kind: "owner",
            });
        }
        if let Some(n) = m.nodes.iter().find(|n| n.name == p.node) {
            m.links.push(Link {
                x1: col_x(2) + COL_W,
                y1: p.y + POD_H / 2.0,
                x2: col_x(3),
                y2: n.y + NODE_H / 2.0,
                kind: "binding",
            });
        }
    }
    let owners_h = |ys: Vec<f64>| ys.into_iter().map(|y| y + OWNER_H).fold(0.0, f64::max);
    let nodes_h = m.nodes.len() as f64 * (NODE_H + V_GAP);
    m.height = pods_h
        .max(nodes_h)
        .max(owners_h(m.replicasets.iter().map(|r| r.y).collect()))
        .max(owners_h(m.deployments.iter().map(|d| d.y).collect()));
    m
}

/// One row of the event list.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRow {
    /// Simulated clock of the last occurrence.
    pub time: String,
    /// `Normal` / `Warning`.
    pub type_: String,
    /// Reporting component (with host for kubelets).
    pub component: String,
    /// Reason.
    pub reason: String,
    /// `kind/name`.
    pub object: String,
    /// Message (with `(xN)` when repeated).
    pub message: String,
}

/// The newest `limit` Events, newest first.
pub fn event_rows(c: &Cluster, limit: usize) -> Vec<EventRow> {
    c.store
        .events_by_last_seen()
        .rev()
        .take(limit)
        .map(|e| EventRow {
            time: clock_label(e.last_ms),
            type_: e.type_.clone(),
            component: if e.source.host.is_empty() {
                e.source.component.clone()
            } else {
                format!("{}/{}", e.source.component, e.source.host)
            },
            reason: e.reason.clone(),
            object: format!(
                "{}/{}",
                e.involved_object.kind.to_lowercase(),
                e.involved_object.name
            ),
            message: if e.count > 1 {
                format!("{} (x{})", e.message, e.count)
            } else {
                e.message.clone()
            },
        })
        .collect()
}

/// The default scenario: three nodes and Deployment `web` (3 × nginx, 100m/128Mi), settled.
pub fn default_cluster() -> Cluster {
    let mut c = Cluster::with_default_nodes(1);
    // A fixed, valid Deployment on an empty cluster: creation cannot fail.
    let _ = c.create_deployment("web", "nginx:1.27", 3, "100m", "128Mi");
    c.settle(120_000);
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_scenario_draws_one_chain_of_three_pods_over_three_nodes() {
        let m = chain_model(&default_cluster());
        assert_eq!(m.deployments.len(), 1);
        assert_eq!((m.deployments[0].desired, m.deployments[0].ready), (3, 3));
        assert_eq!(m.replicasets.len(), 1);
        assert_eq!(m.pods.len(), 3);
        assert!(m
            .pods
            .iter()
            .all(|p| p.status == "Running" && p.ready_col == "1/1"));
        assert_eq!(m.nodes.len(), 3);
        assert!(m
            .nodes
            .iter()
            .all(|n| n.status == "Ready" && n.pods == 1 && n.cpu_requested == 100));
        // 1 Deployment→RS line, 3 RS→Pod lines, 3 Pod→Node bindings.
        assert_eq!(m.links.iter().filter(|l| l.kind == "owner").count(), 4);
        assert_eq!(m.links.iter().filter(|l| l.kind == "binding").count(), 3);
        assert!(m.height >= 3.0 * NODE_H);
    }

    #[test]
    fn the_next_image_bumps_the_last_number_of_the_tag() {
        assert_eq!(next_image("nginx:1.27"), "nginx:1.28");
        assert_eq!(next_image("shop:v9"), "shop:v10");
        assert_eq!(next_image("busybox:latest"), "busybox:v2");
        assert_eq!(next_image("busybox"), "busybox:v2");
    }

    #[test]
    fn deployment_details_list_revisions_newest_first_with_the_budget() {
        let mut c = default_cluster();
        kubeplay_engine::command::run(
            &mut c,
            "kubectl set image deployment/web nginx=nginx:1.28",
            None,
            &kubeplay_engine::command::NoFiles,
        );
        c.settle(120_000);
        let d = &deployment_details_limited(&c, usize::MAX).0[0];
        assert_eq!((d.max_surge, d.max_unavailable, d.desired), (1, 0, 3));
        assert_eq!(
            d.revisions.iter().map(|r| r.revision).collect::<Vec<_>>(),
            [2, 1]
        );
        assert!(d.revisions[0].current && d.revisions[0].images == "nginx:1.28");
        assert_eq!(
            d.conditions
                .iter()
                .map(|c| c.0.as_str())
                .collect::<Vec<_>>(),
            ["Available", "Progressing"]
        );
    }

    #[test]
    fn a_deleted_pod_shows_terminating_and_an_unbound_replacement_has_no_binding_line() {
        let mut c = default_cluster();
        let name = c.store.list::<Pod>().next().unwrap().metadata.name.clone();
        c.delete_pod(&name).unwrap();
        c.advance(250);
        let m = chain_model(&c);
        let old = m.pods.iter().find(|p| p.name == name).unwrap();
        assert!(old.terminating);
        assert_eq!(old.status, "Terminating");
        let new = m
            .pods
            .iter()
            .find(|p| p.node.is_empty())
            .expect("replacement, not yet bound");
        assert_eq!(new.status, "Pending");
        assert_eq!(m.links.iter().filter(|l| l.kind == "binding").count(), 3);
        let rows = event_rows(&c, 5);
        assert_eq!(rows[0].reason, "SuccessfulCreate");
        assert_eq!(rows[0].component, "replicaset-controller");
    }
}

pub use kubeplay_engine::explain::pod_path::{PodPath, StageState};

/// The path of Pod `name` (namespace default).
pub fn pod_path(c: &Cluster, name: &str) -> Option<PodPath> {
    kubeplay_engine::explain::pod_path::pod_path(
        c,
        &kubeplay_engine::apiserver::ObjKey::new("default", name),
    )
}

/// Past this many Pods the chain and the node board switch to counts (drawing every
/// Pod would make the page unresponsive; the selected object still shows in full).
pub const AGGREGATE_AT: usize = 300;

/// Past this many nodes the chain is aggregated too, whatever the Pod count: a card per
/// node stops being a picture anyone reads long before 5,000.
pub const AGGREGATE_NODES_AT: usize = 60;

/// Whether the chain shows counts and a heat map instead of a card per object.
pub fn aggregated(c: &Cluster) -> bool {
    pod_count(c) > AGGREGATE_AT || c.store.count(Kind::Node) > AGGREGATE_NODES_AT
}

/// A ReplicaSet's Pods as counts.
#[derive(Clone, Debug, PartialEq)]
pub struct RsSummary {
    /// ReplicaSet name.
    pub name: String,
    /// Owner Deployment.
    pub owner: Option<String>,
    /// spec.replicas.
    pub desired: i64,
    /// Pods by state: ready, starting (bound, not ready), pending (unbound), terminating.
    pub ready: usize,
    /// Bound but not ready.
    pub starting: usize,
    /// Not yet bound.
    pub pending: usize,
    /// Being deleted.
    pub terminating: usize,
}

/// A node as one cell.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeCell {
    /// Name.
    pub name: String,
    /// Ready condition is True.
    pub ready: bool,
    /// Pods bound / pod capacity.
    pub pods: i64,
    /// Allocatable pods.
    pub pods_allocatable: i64,
    /// CPU requested, percent of allocatable.
    pub cpu_pct: i64,
    /// Cordoned (spec.unschedulable).
    pub cordoned: bool,
}

/// The aggregated picture of a large cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct AggregateModel {
    /// Pods in the cluster.
    pub total_pods: usize,
    /// Deployments: (name, spec.replicas, readyReplicas).
    pub deployments: Vec<(String, i64, i64)>,
    /// ReplicaSets with their Pods counted.
    pub replicasets: Vec<RsSummary>,
    /// Nodes as cells (shared with the heat map, which redraws only when they change).
    pub nodes: std::rc::Rc<Vec<NodeCell>>,
}

/// Pods in the cluster (decides the aggregated mode).
pub fn pod_count(c: &Cluster) -> usize {
    c.store.count(Kind::Pod)
}

/// Build the aggregated model: one pass over the Pods.
pub fn aggregate_model(c: &Cluster) -> AggregateModel {
    let store = &c.store;
    // Each ReplicaSet counts its own Pods through the owner index: one pass over the
    // Pods in all, however many ReplicaSets there are.
    let replicasets: Vec<RsSummary> = store
        .list::<ReplicaSet>()
        .map(|rs| {
            let mut s = RsSummary {
                name: rs.metadata.name.clone(),
                owner: rs.metadata.controller_ref().map(|r| r.name.clone()),
                desired: rs.spec.replicas,
                ready: 0,
                starting: 0,
                pending: 0,
                terminating: 0,
            };
            for o in store.dependent_objects(&rs.metadata.uid) {
                let Object::Pod(p) = o else {
                    continue;
                };
                if p.metadata.controller_ref().map(|r| r.uid.as_str()) != Some(&rs.metadata.uid) {
                    continue;
                }
                if p.metadata.is_deleting() {
                    s.terminating += 1;
                } else if p.is_ready() {
                    s.ready += 1;
                } else if p.spec.node_name.is_empty() {
                    s.pending += 1;
                } else {
                    s.starting += 1;
                }
            }
            s
        })
        .collect();
    let nodes = store
        .list::<Node>()
        .map(|n| {
            let u = store.node_usage(&n.metadata.name);
            let a = u
                .alloc
                .unwrap_or_else(|| kubeplay_engine::apiserver::allocatable(n));
            NodeCell {
                name: n.metadata.name.clone(),
                ready: n.ready_status() == "True",
                pods: u.pods,
                pods_allocatable: a.pods,
                cpu_pct: if a.cpu_milli > 0 {
                    u.requested.cpu_milli * 100 / a.cpu_milli
                } else {
                    0
                },
                cordoned: n.spec.unschedulable,
            }
        })
        .collect();
    AggregateModel {
        total_pods: pod_count(c),
        deployments: store
            .list::<Deployment>()
            .map(|d| {
                (
                    d.metadata.name.clone(),
                    d.spec.replicas,
                    d.status.ready_replicas,
                )
            })
            .collect(),
        replicasets,
        nodes: std::rc::Rc::new(nodes),
    }
}

/// One write in the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// When (simulated ms).
    pub time: SimTime,
    /// `ADDED` / `MODIFIED` / `DELETED` write, or `event` for a Kubernetes Event.
    pub kind: &'static str,
    /// What the mark says on hover/focus: time, verb, object, reason.
    pub label: String,
}

/// One component's lane.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// The writer (field manager), e.g. `replicaset-controller`, `kubelet/node-1`.
    pub writer: String,
    /// Its writes in the window, oldest first.
    pub marks: Vec<Mark>,
}

/// The watch log as lanes per component over a window of simulated time.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineModel {
    /// Window start (ms).
    pub start: SimTime,
    /// Window end (ms): now.
    pub end: SimTime,
    /// Lanes in a fixed order: the user first, then the control plane, then kubelets.
    pub lanes: Vec<Lane>,
}

/// Most kubelet lanes in the timeline before the kubelets share one.
pub const KUBELET_LANES_MAX: usize = 6;

/// Build the timeline over the last `window` ms (heartbeats — Lease renewals — left
/// out: they are the noise under the story). At most `max_marks` writes, newest kept.
pub fn timeline_model(c: &Cluster, window: SimTime, max_marks: usize) -> TimelineModel {
    let end = c.now();
    let start = end.saturating_sub(window);
    let mut lanes: Vec<Lane> = Vec::new();
    let entries: Vec<&kubeplay_engine::apiserver::WatchEntry> = c
        .store
        .log
        .iter()
        .rev()
        .take_while(|e| e.time >= start)
        .filter(|e| e.kind != Kind::Lease)
        .take(max_marks)
        .collect();
    // A lane per kubelet reads well for a few nodes; past KUBELET_LANES_MAX the kubelets
    // share one lane (each mark still names its node).
    let kubelets: std::collections::BTreeSet<&str> = entries
        .iter()
        .map(|e| e.writer.as_str())
        .filter(|w| w.starts_with("kubelet/"))
        .collect();
    let shared_kubelet_lane =
        (kubelets.len() > KUBELET_LANES_MAX).then(|| format!("kubelet/* ({})", kubelets.len()));
    for e in entries.into_iter().rev() {
        let lane = match &shared_kubelet_lane {
            Some(shared) if e.writer.starts_with("kubelet/") => shared.as_str(),
            _ => e.writer.as_str(),
        };
        let (kind, label) = if e.kind == Kind::Event {
            (
                "event",
                format!(
                    "{} {} · Event {}: {}",
                    clock_label(e.time),
                    e.writer,
                    e.reason,
                    e.change
                ),
            )
        } else {
            let k = match e.type_ {
                kubeplay_engine::apiserver::WatchType::Added => "ADDED",
                kubeplay_engine::apiserver::WatchType::Modified => "MODIFIED",
                kubeplay_engine::apiserver::WatchType::Deleted => "DELETED",
            };
            (
                k,
                if e.change.is_empty() {
                    format!(
                        "{} {} · {} {}/{}",
                        clock_label(e.time),
                        e.writer,
                        e.verb,
                        e.kind.name().to_lowercase(),
                        e.key.name
                    )
                } else {
                    format!(
                        "{} {} · {} {}/{} · {}",
                        clock_label(e.time),
                        e.writer,
                        e.verb,
                        e.kind.name().to_lowercase(),
                        e.key.name,
                        e.change
                    )
                },
            )
        };
        let mark = Mark {
            time: e.time,
            kind,
            label,
        };
        match lanes.iter_mut().find(|l| l.writer == lane) {
            Some(l) => l.marks.push(mark),
            None => lanes.push(Lane {
                writer: lane.to_string(),
                marks: vec![mark],
            }),
        }
    }
    lanes.sort_by_key(|l| kubeplay_engine::explain::lanes::lane_rank(&l.writer));
    TimelineModel { start, end, lanes }
}

/// Conditions as (type, status, reason, message) rows.
fn condition_rows(conditions: &[Condition]) -> Vec<(String, String, String, String)> {
    conditions
        .iter()
        .map(|c| {
            (
                c.type_.clone(),
                c.status.clone(),
                c.reason.clone(),
                c.message.clone(),
            )
        })
        .collect()
}

/// The inspector's view of a Node.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeDetail {
    /// Name.
    pub name: String,
    /// STATUS column.
    pub status: String,
    /// Conditions: (type, status, reason, message).
    pub conditions: Vec<(String, String, String, String)>,
    /// Taints as `key=value:Effect`.
    pub taints: Vec<String>,
    /// Cordoned.
    pub cordoned: bool,
    /// Powered on.
    pub powered: bool,
    /// Cut off from the API server.
    pub partitioned: bool,
    /// Pods on it: (name, STATUS, seconds to eviction).
    pub pods: Vec<(String, String, Option<u64>)>,
}

/// Build the inspector view of node `name`.
pub fn node_detail(c: &Cluster, name: &str) -> Option<NodeDetail> {
    let n = c
        .store
        .get::<Node>(&kubeplay_engine::apiserver::ObjKey::new("", name))?;
    Some(NodeDetail {
        name: name.to_string(),
        status: node_status(n),
        conditions: condition_rows(&n.status.conditions),
        taints: n.spec.taints.iter().map(|t| t.to_string()).collect(),
        cordoned: n.spec.unschedulable,
        powered: c.node_up(name),
        partitioned: c.node_partitioned(name),
        pods: c
            .store
            .pods_on_node(name)
            .map(|p| {
                (
                    p.metadata.name.clone(),
                    pod_ready_status(p).1,
                    kubeplay_engine::explain::eviction_in(c, &p.metadata.uid),
                )
            })
            .collect(),
    })
}

#[cfg(test)]
mod path_tests {
    use super::*;
    use kubeplay_engine::command::{run, NoFiles};

    #[test]
    fn a_deleted_pod_points_to_the_new_pod_that_replaced_it() {
        let mut c = default_cluster();
        let victim = c.store.list::<Pod>().next().unwrap().clone();
        let o = run(
            &mut c,
            &format!("kubectl delete pod {} --wait=false", victim.metadata.name),
            None,
            &NoFiles,
        );
        assert!(o.ok);
        c.advance(600);
        let m = chain_model(&c);
        let old = m
            .pods
            .iter()
            .find(|p| p.name == victim.metadata.name)
            .unwrap();
        assert!(old.terminating);
        let (name, uid) = old
            .replaced_by
            .clone()
            .expect("paired with its replacement");
        let new = c
            .store
            .get::<Pod>(&kubeplay_engine::apiserver::ObjKey::new("default", &name))
            .unwrap();
        assert!(new.metadata.created_ms >= victim.metadata.created_ms);
        assert_ne!(new.metadata.uid, victim.metadata.uid);
        assert!(new.metadata.uid.starts_with(&uid));
        assert_eq!(m.links.iter().filter(|l| l.kind == "replaced").count(), 1);
        // The Pods that were not deleted point nowhere.
        assert_eq!(m.pods.iter().filter(|p| p.replaced_by.is_some()).count(), 1);
    }

    #[test]
    fn many_kubelets_share_one_timeline_lane_and_each_mark_still_names_its_node() {
        let mut c = Cluster::new(1);
        let o = run(&mut c, "sim reset --nodes 12", None, &NoFiles);
        assert!(o.ok, "{}", o.output);
        let o = run(
            &mut c,
            "kubectl create deployment web --image=nginx:1.27 --replicas=24",
            None,
            &NoFiles,
        );
        assert!(o.ok, "{}", o.output);
        c.advance(30_000);
        let m = timeline_model(&c, 30_000, 10_000);
        let kubelet_lanes: Vec<&Lane> = m
            .lanes
            .iter()
            .filter(|l| l.writer.starts_with("kubelet/"))
            .collect();
        assert_eq!(kubelet_lanes.len(), 1);
        assert_eq!(kubelet_lanes[0].writer, "kubelet/* (12)");
        assert!(kubelet_lanes[0]
            .marks
            .iter()
            .any(|mk| mk.label.contains("kubelet/node-12 ")));
        // A few nodes keep a lane each.
        let small = timeline_model(&default_cluster(), 60_000, 10_000);
        assert_eq!(
            small
                .lanes
                .iter()
                .filter(|l| l.writer.starts_with("kubelet/node-"))
                .count(),
            3
        );
    }

    #[test]
    fn the_timeline_puts_the_user_first_and_shows_the_story_of_a_deletion() {
        let mut c = default_cluster();
        c.advance(20_000);
        let o = run(
            &mut c,
            "kubectl delete pod -l app=web --wait=false",
            None,
            &NoFiles,
        );
        assert!(o.ok);
        c.advance(10_000);
        let m = timeline_model(&c, 12_000, 1_000);
        let writers: Vec<&str> = m.lanes.iter().map(|l| l.writer.as_str()).collect();
        let pos = |w: &str| writers.iter().position(|x| x.starts_with(w)).unwrap();
        assert_eq!(pos("kubectl"), 0);
        assert!(pos("deployment-controller") < pos("replicaset-controller"));
        assert!(pos("replicaset-controller") < pos("default-scheduler"));
        assert!(pos("default-scheduler") < pos("kubelet/"));
        assert!(!m
            .lanes
            .iter()
            .flat_map(|l| &l.marks)
            .any(|mk| mk.label.contains("lease/")));
        let kubectl = &m.lanes[0].marks;
        assert_eq!(kubectl.len(), 3, "{kubectl:?}");
        assert!(
            kubectl[0].label.contains("kubectl · delete pod/web-"),
            "{}",
            kubectl[0].label
        );
        let rs = &m.lanes[pos("replicaset-controller")].marks;
        assert!(rs
            .iter()
            .any(|mk| mk.kind == "ADDED" && mk.label.contains("create pod/web-")));
        assert!(rs.iter().any(|mk| mk.kind == "event"
            && mk
                .label
                .contains("Event SuccessfulCreate: Created pod: web-")));
        // A write shows its change as field: before → after.
        assert!(
            rs.iter()
                .any(|mk| mk.label.contains("status.readyReplicas: 3 → 0")),
            "{rs:?}"
        );
        assert!(m
            .lanes
            .iter()
            .flat_map(|l| &l.marks)
            .all(|mk| mk.time >= m.start && mk.time <= m.end));
    }

    #[test]
    fn the_page_says_a_pods_evidence_in_the_learners_language() {
        use crate::i18n::{InLang, Lang};
        let c = default_cluster();
        let ready = c.store.list::<Pod>().next().unwrap().metadata.name.clone();
        let path = pod_path(&c, &ready).unwrap();
        let created = &path.stages[0].evidence[0];
        assert!(
            created
                .text()
                .starts_with("created at 0:00.4 by ReplicaSet web-"),
            "{}",
            created.text()
        );
        assert!(
            created.in_lang(Lang::Zh).contains("创建"),
            "{}",
            created.in_lang(Lang::Zh)
        );
    }
}
