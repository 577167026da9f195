//! The chain — Deployment → ReplicaSets → Pods → Nodes — as cards with spec beside
//! status and the lines between them, laid out here so lines and cards always agree.

use super::*;

/// Width of a column of cards (px).
pub const COL_W: f64 = 238.0;

/// Horizontal gap between columns (px).
pub const GAP: f64 = 44.0;

/// Height of a Pod card (px): four lines (name; status; uid and node; what replaced it).
pub const POD_H: f64 = 84.0;

/// Height of a Node card (px): its name, two bars, four lines (Pods, status, heartbeat, taints).
pub const NODE_H: f64 = 138.0;

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
    /// The HorizontalPodAutoscaler that sizes it: its TARGETS (`cpu: 40%/50%`) and
    /// bounds.
    pub hpa: Option<(String, i64, i64)>,
    /// metadata.resourceVersion (what changed since the last frame pulses).
    pub rv: u64,
    /// metadata.creationTimestamp in ms (what appeared since the last frame fades in).
    pub created_ms: SimTime,
    /// Card top (px).
    pub y: f64,
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

/// A Job, in the ReplicaSet column: completions wanted beside succeeded, failed and
/// active, and its `kubectl get jobs` STATUS.
#[derive(Clone, Debug, PartialEq)]
pub struct JobView {
    /// Name.
    pub name: String,
    /// `kubectl get jobs` STATUS (Running, Complete, Failed, Suspended…).
    pub status: String,
    /// COMPLETIONS as `kubectl get jobs` prints it.
    pub completions: String,
    /// status.active.
    pub active: i64,
    /// status.failed.
    pub failed: i64,
    /// spec.backoffLimit.
    pub backoff_limit: i64,
    /// Owner CronJob name.
    pub owner: Option<String>,
    /// metadata.resourceVersion.
    pub rv: u64,
    /// metadata.creationTimestamp in ms.
    pub created_ms: SimTime,
    /// Card top (px).
    pub y: f64,
}

/// A DaemonSet, in the ReplicaSet column: nodes that should run its Pod beside those
/// that do.
#[derive(Clone, Debug, PartialEq)]
pub struct DaemonSetView {
    /// Name.
    pub name: String,
    /// status.desiredNumberScheduled.
    pub desired: i64,
    /// status.currentNumberScheduled.
    pub current: i64,
    /// status.numberReady.
    pub ready: i64,
    /// status.updatedNumberScheduled.
    pub updated: i64,
    /// status.numberMisscheduled.
    pub misscheduled: i64,
    /// metadata.resourceVersion.
    pub rv: u64,
    /// metadata.creationTimestamp in ms.
    pub created_ms: SimTime,
    /// Card top (px).
    pub y: f64,
}

/// A StatefulSet, in the ReplicaSet column: replicas wanted beside those that exist,
/// Ready and at the update revision, and its claims.
#[derive(Clone, Debug, PartialEq)]
pub struct StatefulSetView {
    /// Name.
    pub name: String,
    /// spec.replicas.
    pub replicas: i64,
    /// status.replicas.
    pub current: i64,
    /// status.readyReplicas.
    pub ready: i64,
    /// status.updatedReplicas.
    pub updated: i64,
    /// spec.podManagementPolicy.
    pub policy: String,
    /// Claims labelled for it (its volumeClaimTemplates' claims).
    pub claims: usize,
    /// metadata.resourceVersion.
    pub rv: u64,
    /// metadata.creationTimestamp in ms.
    pub created_ms: SimTime,
    /// Card top (px).
    pub y: f64,
}

/// A CronJob, in the Deployment column: its schedule, active Jobs and last run.
#[derive(Clone, Debug, PartialEq)]
pub struct CronJobView {
    /// Name.
    pub name: String,
    /// spec.schedule.
    pub schedule: String,
    /// spec.concurrencyPolicy.
    pub policy: String,
    /// spec.suspend.
    pub suspended: bool,
    /// status.active count.
    pub active: usize,
    /// LAST SCHEDULE as `kubectl get cronjobs` prints it.
    pub last: String,
    /// metadata.resourceVersion.
    pub rv: u64,
    /// metadata.creationTimestamp in ms.
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
    /// status.phase.
    pub phase: String,
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
    /// As a Service's endpoint: requests answered here and attempts that failed here in
    /// the last seconds, with the commonest failure (None: no request came).
    pub traffic: Option<(u64, u64, &'static str)>,
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
    /// Its kubelet has gone silent: since when, and when it goes NotReady.
    pub silence: Option<kubeplay_engine::explain::Silence>,
    /// Card top (px).
    pub y: f64,
}

/// A Service, drawn at the top of the Pod column, in front of the Pods it routes to.
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceCard {
    /// Namespace.
    pub namespace: String,
    /// Name.
    pub name: String,
    /// spec.type.
    pub type_: String,
    /// `10.96.x.y:80` (`None` for a headless Service).
    pub address: String,
    /// Its EndpointSlices' endpoints: ready, not ready (and not terminating), terminating.
    pub endpoints: (usize, usize, usize),
    /// A flow runs: its requests per second.
    pub rps: Option<u32>,
    /// Requests answered in the last two seconds (and this one so far).
    pub answered: u64,
    /// Requests that failed in the same window.
    pub failed: u64,
    /// Its lane (0: nearest the Pods) in the gap left of the Pod column.
    pub lane: usize,
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
    /// CronJobs (below the Deployments).
    pub cronjobs: Vec<CronJobView>,
    /// Jobs (below the ReplicaSets).
    pub jobs: Vec<JobView>,
    /// DaemonSets (below the Jobs).
    pub daemonsets: Vec<DaemonSetView>,
    /// StatefulSets (below the DaemonSets).
    pub statefulsets: Vec<StatefulSetView>,
    /// Pods.
    pub pods: Vec<PodView>,
    /// Nodes.
    pub nodes: Vec<NodeView>,
    /// Services (every one but the API server's own `default/kubernetes`).
    pub services: Vec<ServiceCard>,
    /// Lines.
    pub links: Vec<Link>,
    /// Total height (px).
    pub height: f64,
}

pub(super) fn rv_of(m: &ObjectMeta) -> u64 {
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
    let mut nodes: Vec<&Node> = store.list::<Node>().collect();
    nodes.sort_by(|a, b| natural_cmp(&a.metadata.name, &b.metadata.name));
    for n in nodes {
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
            silence: kubeplay_engine::explain::silence(c, &n.metadata.name),
            y,
        });
        y += NODE_H + V_GAP;
    }
    out
}

/// Build the chain model: Deployments → ReplicaSets → Pods → Nodes, laid out in columns.
pub fn chain_model(c: &Cluster) -> ChainModel {
    let mut m = ChainModel::default();
    let rss = replica_sets_oldest_first(c);
    let pods = pods_by_owner(c, &rss);
    m.services = service_cards(c);
    let band = m.services.len() as f64 * (SERVICE_H + V_GAP);
    let pods_h = pod_views(&mut m, &pods, band);
    pair_replacements(&mut m, &pods);
    let rs_free = replica_set_views(&mut m, &rss);
    let job_free = job_views(&mut m, c, rs_free);
    let ds_free = daemon_set_views(&mut m, c, job_free);
    stateful_set_views(&mut m, c, ds_free);
    let d_free = deployment_views(&mut m, c);
    cron_job_views(&mut m, c, d_free);
    m.nodes = node_views(c);
    links(&mut m);
    routes(&mut m, c);
    let owners_h = |ys: Vec<f64>| ys.into_iter().map(|y| y + OWNER_H).fold(0.0, f64::max);
    let nodes_h = m.nodes.len() as f64 * (NODE_H + V_GAP);
    m.height = pods_h
        .max(nodes_h)
        .max(owners_h(m.replicasets.iter().map(|r| r.y).collect()))
        .max(owners_h(m.deployments.iter().map(|d| d.y).collect()))
        .max(owners_h(m.jobs.iter().map(|j| j.y).collect()))
        .max(owners_h(m.daemonsets.iter().map(|d| d.y).collect()))
        .max(owners_h(m.statefulsets.iter().map(|d| d.y).collect()))
        .max(owners_h(m.cronjobs.iter().map(|j| j.y).collect()));
    m
}

fn replica_sets_oldest_first(c: &Cluster) -> Vec<&ReplicaSet> {
    let mut rss: Vec<&ReplicaSet> = c.store.list::<ReplicaSet>().collect();
    rss.sort_by(|a, b| {
        (a.metadata.created_ms, &a.metadata.name).cmp(&(b.metadata.created_ms, &b.metadata.name))
    });
    rss
}

/// Pods grouped by owner ReplicaSet (oldest ReplicaSet first), then by age and name.
fn pods_by_owner<'a>(c: &'a Cluster, rss: &[&ReplicaSet]) -> Vec<&'a Pod> {
    let mut pods: Vec<&Pod> = c.store.list::<Pod>().collect();
    let rank: std::collections::BTreeMap<&str, usize> = rss
        .iter()
        .enumerate()
        .map(|(i, rs)| (rs.metadata.name.as_str(), i))
        .collect();
    let mut jobs: Vec<&Job> = c.store.list::<Job>().collect();
    jobs.sort_by(|a, b| {
        (a.metadata.created_ms, &a.metadata.name).cmp(&(b.metadata.created_ms, &b.metadata.name))
    });
    let job_rank: std::collections::BTreeMap<&str, usize> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| (j.metadata.name.as_str(), rss.len() + i))
        .collect();
    let ds_rank: std::collections::BTreeMap<&str, usize> = c
        .store
        .list::<DaemonSet>()
        .enumerate()
        .map(|(i, d)| (d.metadata.name.as_str(), rss.len() + jobs.len() + i))
        .collect();
    let ds_count = ds_rank.len();
    let sts_rank: std::collections::BTreeMap<&str, usize> = c
        .store
        .list::<StatefulSet>()
        .enumerate()
        .map(|(i, d)| {
            (
                d.metadata.name.as_str(),
                rss.len() + jobs.len() + ds_count + i,
            )
        })
        .collect();
    // A ReplicaSet's Pods first, in ReplicaSet order, then a Job's, in Job order, then
    // a DaemonSet's.
    let rs_rank = |p: &Pod| {
        p.metadata
            .controller_ref()
            .and_then(|r| match r.kind.as_str() {
                "Job" => job_rank.get(r.name.as_str()).copied(),
                "DaemonSet" => ds_rank.get(r.name.as_str()).copied(),
                "StatefulSet" => sts_rank.get(r.name.as_str()).copied(),
                _ => rank.get(r.name.as_str()).copied(),
            })
            .unwrap_or(usize::MAX)
    };
    // A StatefulSet's Pods in ordinal order (a recreated db-0 stays on top).
    let ordinal = |p: &Pod| match p.metadata.controller_ref() {
        Some(r) if r.kind == "StatefulSet" => {
            kubeplay_engine::controllers::statefulset::get_ordinal(&r.name, &p.metadata.name)
        }
        _ => 0,
    };
    pods.sort_by(|a, b| {
        (
            rs_rank(a),
            ordinal(a),
            a.metadata.created_ms,
            &a.metadata.name,
        )
            .cmp(&(
                rs_rank(b),
                ordinal(b),
                b.metadata.created_ms,
                &b.metadata.name,
            ))
    });
    pods
}

/// A card per Pod, one under the other from `top`; returns the column's height.
fn pod_views(m: &mut ChainModel, pods: &[&Pod], top: f64) -> f64 {
    let mut y = top;
    for p in pods {
        let (ready_col, status, restarts) = pod_ready_status(p);
        m.pods.push(PodView {
            name: p.metadata.name.clone(),
            short_uid: p.metadata.uid.chars().take(8).collect(),
            ready_col,
            status,
            ready: p.is_ready(),
            phase: p.status.phase.clone(),
            restarts,
            node: p.spec.node_name.clone(),
            owner: p.metadata.controller_ref().map(|r| r.name.clone()),
            terminating: p.metadata.is_deleting(),
            replaced_by: None,
            traffic: None,
            rv: rv_of(&p.metadata),
            created_ms: p.metadata.created_ms,
            y,
        });
        y += POD_H + V_GAP;
    }
    y
}

/// "Replaced by": per ReplicaSet, each terminating Pod (in deletion order) is paired
/// with the first Pod the ReplicaSet created at or after its deletion.
fn pair_replacements(m: &mut ChainModel, pods: &[&Pod]) {
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
        let replacement = pods
            .iter()
            .copied()
            .filter(|q| {
                !q.metadata.is_deleting()
                    && q.metadata.controller_ref().map(|r| r.uid.clone()) == owner
                    && q.metadata.created_ms >= at
                    && !used.contains(&q.metadata.name)
            })
            .min_by_key(|q| (q.metadata.created_ms, q.metadata.name.clone()));
        let Some(q) = replacement else {
            continue;
        };
        used.push(q.metadata.name.clone());
        let from = m.pods.iter().position(|v| v.name == d.metadata.name);
        let to = m.pods.iter().position(|v| v.name == q.metadata.name);
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

/// ReplicaSets: centred on their Pods when they have some, else stacked below;
/// returns the next free slot of the column.
fn replica_set_views(m: &mut ChainModel, rss: &[&ReplicaSet]) -> f64 {
    let mut next_free = 0.0f64;
    for rs in rss {
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
    next_free
}

/// Jobs below the ReplicaSets, each centred on its Pods; returns the next free slot.
fn job_views(m: &mut ChainModel, c: &Cluster, mut next_free: f64) -> f64 {
    let mut jobs: Vec<&Job> = c.store.list::<Job>().collect();
    jobs.sort_by(|a, b| {
        (a.metadata.created_ms, &a.metadata.name).cmp(&(b.metadata.created_ms, &b.metadata.name))
    });
    let now = c.now();
    for j in jobs {
        let row = kubeplay_engine::printers::get::row(
            &Object::Job(Box::new(j.clone())),
            &Default::default(),
            now,
        );
        let mine: Vec<f64> = m
            .pods
            .iter()
            .filter(|p| p.owner.as_deref() == Some(&j.metadata.name))
            .map(|p| p.y)
            .collect();
        let y = owner_y(mine.into_iter(), POD_H, &mut next_free);
        m.jobs.push(JobView {
            name: j.metadata.name.clone(),
            status: row.get(1).cloned().unwrap_or_default(),
            completions: row.get(2).cloned().unwrap_or_default(),
            active: j.status.active,
            failed: j.status.failed,
            backoff_limit: j.spec.backoff_limit(),
            owner: j
                .metadata
                .controller_ref()
                .filter(|r| r.kind == "CronJob")
                .map(|r| r.name.clone()),
            rv: rv_of(&j.metadata),
            created_ms: j.metadata.created_ms,
            y,
        });
    }
    next_free
}

/// The tops of the Pod cards whose owner is named `owner`.
fn pod_ys_of<'a>(m: &'a ChainModel, owner: &'a str) -> impl Iterator<Item = f64> + 'a {
    m.pods
        .iter()
        .filter(move |p| p.owner.as_deref() == Some(owner))
        .map(|p| p.y)
}

/// StatefulSets below the DaemonSets, each centred on its Pods.
fn stateful_set_views(m: &mut ChainModel, c: &Cluster, mut next_free: f64) {
    for d in c.store.list::<StatefulSet>() {
        let y = owner_y(pod_ys_of(m, &d.metadata.name), POD_H, &mut next_free);
        let s = &d.status;
        let claims = c
            .store
            .list::<PersistentVolumeClaim>()
            .filter(|pvc| {
                pvc.metadata.namespace == d.metadata.namespace
                    && d.spec.volume_claim_templates.iter().any(|t| {
                        pvc.metadata
                            .name
                            .starts_with(&format!("{}-{}-", t.metadata.name, d.metadata.name))
                    })
            })
            .count();
        m.statefulsets.push(StatefulSetView {
            name: d.metadata.name.clone(),
            replicas: d.spec.replicas,
            current: s.replicas,
            ready: s.ready_replicas,
            updated: s.updated_replicas,
            policy: d.spec.pod_management_policy.clone(),
            claims,
            rv: rv_of(&d.metadata),
            created_ms: d.metadata.created_ms,
            y,
        });
    }
}

/// DaemonSets below the Jobs, each centred on its Pods; returns the next free top.
fn daemon_set_views(m: &mut ChainModel, c: &Cluster, mut next_free: f64) -> f64 {
    for d in c.store.list::<DaemonSet>() {
        let y = owner_y(pod_ys_of(m, &d.metadata.name), POD_H, &mut next_free);
        let s = &d.status;
        m.daemonsets.push(DaemonSetView {
            name: d.metadata.name.clone(),
            desired: s.desired_number_scheduled,
            current: s.current_number_scheduled,
            ready: s.number_ready,
            updated: s.updated_number_scheduled,
            misscheduled: s.number_misscheduled,
            rv: rv_of(&d.metadata),
            created_ms: d.metadata.created_ms,
            y,
        });
    }
    next_free
}

/// CronJobs below the Deployments, each centred on its Jobs.
fn cron_job_views(m: &mut ChainModel, c: &Cluster, mut next_free: f64) {
    let now = c.now();
    for cj in c.store.list::<CronJob>() {
        let mine: Vec<f64> = m
            .jobs
            .iter()
            .filter(|j| j.owner.as_deref() == Some(&cj.metadata.name))
            .map(|j| j.y)
            .collect();
        let y = owner_y(mine.into_iter(), OWNER_H, &mut next_free);
        let row = kubeplay_engine::printers::get::row(
            &Object::CronJob(Box::new(cj.clone())),
            &Default::default(),
            now,
        );
        m.cronjobs.push(CronJobView {
            name: cj.metadata.name.clone(),
            schedule: cj.spec.schedule.clone(),
            policy: cj.spec.concurrency_policy.clone(),
            suspended: cj.spec.suspend == Some(true),
            active: cj.status.active.len(),
            last: row.get(5).cloned().unwrap_or_default(),
            rv: rv_of(&cj.metadata),
            created_ms: cj.metadata.created_ms,
            y,
        });
    }
}

/// Deployments in the order of their ReplicaSets, so lines never cross; returns the
/// next free slot of the column.
fn deployment_views(m: &mut ChainModel, c: &Cluster) -> f64 {
    let mut next_free = 0.0f64;
    let mut deps: Vec<&Deployment> = c.store.list::<Deployment>().collect();
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
            hpa: c
                .store
                .list::<HorizontalPodAutoscaler>()
                .find(|h| {
                    h.metadata.namespace == d.metadata.namespace
                        && h.spec.scale_target_ref.kind == "Deployment"
                        && h.spec.scale_target_ref.name == d.metadata.name
                })
                .map(|h| {
                    (
                        kubeplay_engine::printers::get::format_hpa_metrics(h),
                        h.spec.min_replicas.unwrap_or(1),
                        h.spec.max_replicas,
                    )
                }),
            rv: rv_of(&d.metadata),
            created_ms: d.metadata.created_ms,
            y,
        });
    }
    next_free
}

/// Lines: Deployment → ReplicaSet → Pod and CronJob → Job → Pod (ownerReferences),
/// Pod → Node (binding).
fn links(m: &mut ChainModel) {
    for j in &m.jobs {
        if let Some(cj) = m
            .cronjobs
            .iter()
            .find(|c| Some(&c.name) == j.owner.as_ref())
        {
            m.links.push(Link {
                x1: col_x(0) + COL_W,
                y1: cj.y + OWNER_H / 2.0,
                x2: col_x(1),
                y2: j.y + OWNER_H / 2.0,
                kind: "owner",
            });
        }
    }
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
        let owner_y = m
            .replicasets
            .iter()
            .find(|r| Some(&r.name) == p.owner.as_ref())
            .map(|r| r.y)
            .or_else(|| {
                m.jobs
                    .iter()
                    .find(|j| Some(&j.name) == p.owner.as_ref())
                    .map(|j| j.y)
            })
            .or_else(|| {
                m.daemonsets
                    .iter()
                    .find(|d| Some(&d.name) == p.owner.as_ref())
                    .map(|d| d.y)
            })
            .or_else(|| {
                m.statefulsets
                    .iter()
                    .find(|d| Some(&d.name) == p.owner.as_ref())
                    .map(|d| d.y)
            });
        if let Some(oy) = owner_y {
            m.links.push(Link {
                x1: col_x(1) + COL_W,
                y1: oy + OWNER_H / 2.0,
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
}

/// The seconds a Service card and its routes count traffic over: the two before this
/// one and this one so far.
pub const ROUTE_SECONDS: u64 = 2;

/// Service cards, stacked at the top of the Pod column in namespace and name order.
fn service_cards(c: &Cluster) -> Vec<ServiceCard> {
    let now_s = c.now() / 1000;
    let mut out = Vec::new();
    for s in c.store.list::<Service>() {
        if s.metadata.namespace == "default" && s.metadata.name == "kubernetes" {
            continue;
        }
        let key = kubeplay_engine::apiserver::ObjKey::new(&s.metadata.namespace, &s.metadata.name);
        let mut endpoints = (0, 0, 0);
        for (_, state) in service_endpoints(c, s) {
            match state {
                "terminating" => endpoints.2 += 1,
                "ready" => endpoints.0 += 1,
                _ => endpoints.1 += 1,
            }
        }
        let (mut answered, mut failed) = (0, 0);
        if let Some(series) = c.proxies.series.get(&key) {
            for (_, b) in series.range(now_s.saturating_sub(ROUTE_SECONDS)..=now_s) {
                answered += b.outcomes[0];
                failed += b.errors();
            }
        }
        let i = out.len();
        out.push(ServiceCard {
            namespace: s.metadata.namespace.clone(),
            name: s.metadata.name.clone(),
            type_: s.spec.type_.clone(),
            address: match s.spec.ports.first() {
                Some(p) if !s.is_headless() => format!("{}:{}", s.spec.cluster_ip, p.port),
                _ => s.spec.cluster_ip.clone(),
            },
            endpoints,
            rps: c.proxies.flows.get(&key).map(|f| f.rps),
            answered,
            failed,
            lane: i,
            y: i as f64 * (SERVICE_H + V_GAP),
        });
    }
    out
}

/// A Service's endpoints from its EndpointSlices (the `kubernetes.io/service-name`
/// label): the Pod each names, and its state — `ready`, `notready` or `terminating`
/// (terminating wins, as the slice's conditions say it).
fn service_endpoints<'a>(c: &'a Cluster, s: &'a Service) -> Vec<(&'a str, &'static str)> {
    let mut out = Vec::new();
    for slice in c.store.list_ns::<EndpointSlice>(&s.metadata.namespace) {
        if slice.metadata.labels.get("kubernetes.io/service-name") != Some(&s.metadata.name) {
            continue;
        }
        for e in slice.endpoints.iter().flatten() {
            let Some(r) = e.target_ref.as_ref().filter(|r| r.kind == "Pod") else {
                continue;
            };
            let state = if e.conditions.terminating == Some(true) {
                "terminating"
            } else if e.conditions.ready.unwrap_or(true) {
                "ready"
            } else {
                "notready"
            };
            out.push((r.name.as_str(), state));
        }
    }
    out
}

/// Routes: a line from each Service card, down its lane in the gap left of the Pod
/// column, into each Pod its EndpointSlices list — styled by the endpoint's state, and
/// by what requests met there in the last seconds (`flow`: answered, `fail`: refused,
/// reset or timed out).
fn routes(m: &mut ChainModel, c: &Cluster) {
    let now_s = c.now() / 1000;
    let mut routes = Vec::new();
    for card in &m.services {
        let key = kubeplay_engine::apiserver::ObjKey::new(&card.namespace, &card.name);
        let Some(s) = c.store.get::<Service>(&key) else {
            continue;
        };
        for (pod, state) in service_endpoints(c, s) {
            let Some(p) = m.pods.iter_mut().find(|p| p.name == pod) else {
                continue;
            };
            let hits = c
                .proxies
                .hits
                .get(&(key.clone(), pod.to_string()))
                .map(|h| h.recent(now_s))
                .unwrap_or_default();
            let failed: u64 = hits[1..].iter().sum();
            if hits.iter().sum::<u64>() > 0 {
                let (ok0, failed0, _) = p.traffic.unwrap_or((0, 0, ""));
                let worst = (1..5)
                    .max_by_key(|&i| (hits[i], std::cmp::Reverse(i)))
                    .filter(|&i| hits[i] > 0)
                    .map_or("", outcome_label);
                p.traffic = Some((ok0 + hits[0], failed0 + failed, worst));
            }
            let kind = match (state, failed > 0, hits[0] > 0) {
                ("ready", true, _) => "route ready fail",
                ("ready", false, true) => "route ready flow",
                ("ready", false, false) => "route ready",
                ("terminating", true, _) => "route terminating fail",
                ("terminating", false, true) => "route terminating flow",
                ("terminating", false, false) => "route terminating",
                (_, true, _) => "route notready fail",
                (_, false, true) => "route notready flow",
                (_, false, false) => "route notready",
            };
            routes.push(Link {
                x1: col_x(2),
                y1: card.y + SERVICE_H / 2.0,
                x2: col_x(2) - ROUTE_STUB - ROUTE_LANE * card.lane as f64,
                y2: p.y + ROUTE_INTO,
                kind,
            });
        }
    }
    // Lanes share their vertical run: the failing routes are drawn last, on top.
    routes.sort_by_key(|l| l.kind.ends_with("fail"));
    m.links.extend(routes);
}

/// Height of a Service card (px).
pub const SERVICE_H: f64 = 92.0;

/// How far left of the Pod column the first Service's lane runs (px).
pub const ROUTE_STUB: f64 = 16.0;

/// Spacing of the further Services' lanes in the gap left of the Pod column (px).
pub const ROUTE_LANE: f64 = 6.0;

/// Where a route enters a Pod card, below its top (px): above the ownerReference line,
/// which enters at the middle.
pub const ROUTE_INTO: f64 = 16.0;
