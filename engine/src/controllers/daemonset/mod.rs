//! The DaemonSet controller: one Pod on every node that should run one.
//!
//! Upstream: `pkg/controller/daemon/daemon_controller.go` (`syncDaemonSet → manage →
//! podsShouldBeOnNode → syncNodes`, `updateDaemonSetStatus`, `NodeShouldRunDaemonPod`),
//! `update.go` (`rollingUpdate`, `findUpdatedPodsOnNode`, `updatedDesiredNodeCounts`,
//! the history: [`update`]) and `util/daemonset_util.go`
//! (`AddOrUpdateDaemonPodTolerations`, `ReplaceDaemonSetPodNodeNameNodeAffinity`,
//! `IsPodUpdated`: [`util`]), v1.33. This file follows `daemon_controller.go`.
//!
//! The controller does not bind: it pins each Pod to its node with a required node
//! affinity on `metadata.name` and the scheduler binds it (NodeAffinity's PreFilter
//! narrows the search to that one node). The Pods tolerate the taints a sick or
//! cordoned node gets — not-ready and unreachable (NoExecute, no time limit), disk,
//! memory and PID pressure and unschedulable (NoSchedule), network-unavailable for a
//! host-network Pod — so a DaemonSet's Pod stays through its node's NotReady and a drain
//! must be told to ignore it.
//!
//! Each template the DaemonSet has had is a ControllerRevision `<ds>-<hash>`
//! (`constructHistory`, `snapshot`, `cleanupHistory` in `update.go`): the hash is the
//! one labelled on the Pods, the data the template as a replacing patch, the revision
//! one past the highest of the others (a template that comes back, as after `kubectl
//! rollout undo daemonset`, has its revision moved up). Old revisions beyond
//! `revisionHistoryLimit` that no Pod still carries are deleted, oldest first.

mod update;
mod util;

#[cfg(test)]
mod tests;

pub use util::{add_or_update_daemon_pod_tolerations, replace_node_name_affinity};

use super::{Controller, Ctx, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, DeleteOptions, ObjKey, Store};
use crate::client::writer;
use crate::client::{controller_ref, event_ref, Component, EventOnSuccess, Request};
use crate::controllers::deployment::util::compute_hash;
use crate::time::{SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet};
use update::{cleanup_history, construct_history, rolling_update};
use util::{allows_surge, is_pod_updated, target_node};

/// `BurstReplicas`.
pub const BURST_REPLICAS: usize = 250;

/// The failed-Pod back-off (`failedPodsBackoff`): 1 s doubling to 15 min.
const FAILED_POD_BACKOFF: (SimTime, SimTime) = (SECOND, 900 * SECOND);

/// The DaemonSet controller: its failed-Pod back-off per (DaemonSet, node).
#[derive(Clone, Debug, Default)]
pub struct DaemonSetController {
    failed_backoff: BTreeMap<(ObjKey, String), (SimTime, SimTime)>,
}

impl Controller for DaemonSetController {
    type Key = ObjKey;
    type Timer = super::NoTimer;
    const WATCHES: &'static [Kind] = &[
        Kind::DaemonSet,
        Kind::ControllerRevision,
        Kind::Pod,
        Kind::Node,
    ];

    fn identity() -> Component {
        Component::named(writer::DAEMONSET_CONTROLLER)
    }

    /// `addDaemonset`/`updateDaemonset`, the Pods it controls, and a node added or
    /// changed so that whether it should run a DaemonSet's Pod changed (`addNode`,
    /// `updateNode` with `shouldIgnoreNodeUpdate`).
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, super::NoTimer>) {
        let (old, new) = (ch.old.as_deref(), ch.new.as_deref());
        match ch.kind {
            Kind::DaemonSet => {
                if let Some(o) = new.or(old) {
                    ctx.enqueue(ObjKey::of(o.meta()));
                }
            }
            Kind::Pod => {
                for o in [old, new].into_iter().flatten() {
                    let m = o.meta();
                    if let Some(r) = m.controller_ref().filter(|r| r.kind == "DaemonSet") {
                        ctx.enqueue(ObjKey::new(&m.namespace, &r.name));
                    }
                }
            }
            Kind::Node => {
                let (o, n) = (
                    old.and_then(Node::from_object),
                    new.and_then(Node::from_object),
                );
                if let (Some(o), Some(n)) = (o, n) {
                    if should_ignore_node_update(o, n) {
                        return;
                    }
                }
                for ds in ctx.store.list::<DaemonSet>() {
                    let probe = daemon_probe(ds);
                    let before = o.map(|o| should_run_with(&probe, o, ds));
                    let after = n.map(|n| should_run_with(&probe, n, ds));
                    let changed = match (before, after) {
                        (None, Some(a)) => a.0,
                        (Some(b), Some(a)) => b != a,
                        _ => false,
                    };
                    if changed {
                        ctx.enqueue(ObjKey::of(&ds.metadata));
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, super::NoTimer>) -> Reconcile {
        self.sync_daemon_set(ctx.store, key, ctx.now)
    }
}

/// `shouldIgnoreNodeUpdate`: only the heartbeat moved (condition statuses the same,
/// spec and labels the same).
fn should_ignore_node_update(old: &Node, new: &Node) -> bool {
    let conds = |n: &Node| -> Vec<(String, String)> {
        n.status
            .conditions
            .iter()
            .map(|c| (c.type_.clone(), c.status.clone()))
            .collect()
    };
    conds(old) == conds(new) && old.spec == new.spec && old.metadata.labels == new.metadata.labels
}

/// `NodeShouldRunDaemonPod`: (should run, should continue running).
pub fn node_should_run_daemon_pod(node: &Node, ds: &DaemonSet) -> (bool, bool) {
    should_run_with(&daemon_probe(ds), node, ds)
}

/// `NewPod` without its node: the template with the daemon tolerations, built once per
/// sync and asked of every node (upstream builds it per node; it differs only in
/// `nodeName`, which the check below compares itself).
fn daemon_probe(ds: &DaemonSet) -> Pod {
    let mut spec = ds.spec.template.spec.clone();
    add_or_update_daemon_pod_tolerations(&mut spec);
    Pod {
        metadata: ObjectMeta {
            namespace: ds.metadata.namespace.clone(),
            labels: ds.spec.template.metadata.labels.clone(),
            ..Default::default()
        },
        spec,
        status: PodStatus::default(),
    }
}

/// [`node_should_run_daemon_pod`] with the probe Pod of [`daemon_probe`].
fn should_run_with(pod: &Pod, node: &Node, ds: &DaemonSet) -> (bool, bool) {
    let spec_node = &ds.spec.template.spec.node_name;
    if !(spec_node.is_empty() || *spec_node == node.metadata.name) {
        return (false, false);
    }
    if !crate::api::node_affinity::node_affinity_matches(pod, node) {
        return (false, false);
    }
    let untolerated = |effects: &[&str]| {
        node.spec.taints.iter().any(|t| {
            effects.contains(&t.effect.as_str())
                && !pod.spec.tolerations.iter().any(|tol| tol.tolerates(t))
        })
    };
    if untolerated(&["NoSchedule", "NoExecute"]) {
        // Scheduled daemon Pods keep running unless a NoExecute taint is untolerated.
        return (false, !untolerated(&["NoExecute"]));
    }
    (true, true)
}

/// `NewPod`: the template with the daemon tolerations, pinned to `node`.
fn new_pod(ds: &DaemonSet, node: &str) -> Pod {
    let mut spec = ds.spec.template.spec.clone();
    add_or_update_daemon_pod_tolerations(&mut spec);
    spec.affinity = Some(replace_node_name_affinity(spec.affinity.take(), node));
    Pod {
        metadata: ObjectMeta {
            namespace: ds.metadata.namespace.clone(),
            labels: ds.spec.template.metadata.labels.clone(),
            annotations: ds.spec.template.metadata.annotations.clone(),
            ..Default::default()
        },
        spec,
        status: PodStatus::default(),
    }
}

impl DaemonSetController {
    /// `syncDaemonSet`.
    pub fn sync_daemon_set(&mut self, store: &Store, key: &ObjKey, now: SimTime) -> Reconcile {
        let mut out = Reconcile::default();
        let Some(ds) = store.get::<DaemonSet>(key) else {
            self.failed_backoff.retain(|(k, _), _| k != key);
            return out;
        };
        let hash = compute_hash(&ds.spec.template, None);
        // Upstream returns before constructHistory for a DaemonSet being deleted.
        let old_revisions = if ds.metadata.is_deleting() {
            Vec::new()
        } else {
            construct_history(store, ds, &hash, &mut out)
        };
        let probe = daemon_probe(ds);
        // Each node's (should run, should continue running), asked once per sync.
        let nodes: Vec<(&Node, (bool, bool))> = store
            .list::<Node>()
            .map(|n| (n, should_run_with(&probe, n, ds)))
            .collect();
        let node_pods = nodes_to_daemon_pods(store, ds);
        if !ds.metadata.is_deleting() {
            let (deletes, creates, requeue) = self.manage(ds, key, &nodes, &node_pods, &hash, now);
            let (mut deletes, mut creates) = (deletes, creates);
            if deletes.is_empty()
                && creates.is_empty()
                && ds.spec.update_strategy.type_ == "RollingUpdate"
            {
                let (d, c) = rolling_update(ds, &nodes, &node_pods, &hash, now);
                deletes = d;
                creates = c;
            }
            out.requests
                .extend(sync_nodes(ds, &node_pods, &deletes, &creates, &hash));
            out.requeue_after = requeue;
        }
        cleanup_history(ds, &node_pods, old_revisions, &mut out);
        let status = calculate_status(ds, &nodes, &node_pods, &hash, now);
        if status != ds.status {
            let mut updated = ds.clone();
            updated.status = status;
            out.requests
                .push(Request::UpdateStatus(Object::DaemonSet(Box::new(updated))));
        }
        // A Ready Pod becomes available minReadySeconds later.
        if ds.spec.min_ready_seconds > 0 {
            let wait = node_pods
                .values()
                .flatten()
                .filter_map(|p| p.ready_since())
                .map(|since| crate::time::after_seconds(since, ds.spec.min_ready_seconds))
                .filter(|t| *t > now)
                .min()
                .map(|t| t - now + 1);
            out.requeue_after = match (out.requeue_after, wait) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
        }
        out
    }

    /// `manage` / `podsShouldBeOnNode`: the nodes that need a Pod and the Pods to
    /// delete (on nodes that should not run one, duplicates, failed ones).
    fn manage(
        &mut self,
        ds: &DaemonSet,
        key: &ObjKey,
        nodes: &[(&Node, (bool, bool))],
        node_pods: &BTreeMap<String, Vec<&Pod>>,
        _hash: &str,
        now: SimTime,
    ) -> (Vec<String>, Vec<String>, Option<SimTime>) {
        let mut creates = Vec::new();
        let mut deletes = Vec::new();
        let mut requeue: Option<SimTime> = None;
        for (node, (should_run, should_continue)) in nodes {
            let (should_run, should_continue) = (*should_run, *should_continue);
            let name = &node.metadata.name;
            let pods = node_pods.get(name);
            match pods {
                None if should_run => creates.push(name.clone()),
                Some(pods) if should_continue => {
                    let mut running: Vec<&Pod> = Vec::new();
                    for p in pods {
                        if p.metadata.is_deleting() {
                            continue;
                        }
                        if p.status.phase == PodPhase::Failed {
                            // Avoid fighting a kubelet that rejects the Pod: back off.
                            let bk = (key.clone(), name.clone());
                            match self.failed_backoff.get(&bk).copied() {
                                Some((delay, since)) if now < since + delay => {
                                    let wait = since + delay - now;
                                    requeue = Some(requeue.map_or(wait, |r| r.min(wait)));
                                    continue;
                                }
                                prev => {
                                    let delay = prev.map_or(FAILED_POD_BACKOFF.0, |(d, _)| {
                                        (d * 2).min(FAILED_POD_BACKOFF.1)
                                    });
                                    self.failed_backoff.insert(bk, (delay, now));
                                }
                            }
                            deletes.push(p.metadata.name.clone());
                        } else if p.status.phase == PodPhase::Succeeded {
                            deletes.push(p.metadata.name.clone());
                        } else {
                            running.push(p);
                        }
                    }
                    // Without surge, more than one running Pod: keep the oldest.
                    if running.len() > 1 && !allows_surge(ds) {
                        sort_by_creation_and_phase(&mut running);
                        deletes.extend(running[1..].iter().map(|p| p.metadata.name.clone()));
                    }
                }
                Some(pods) if !should_continue => {
                    deletes.extend(
                        pods.iter()
                            .filter(|p| !p.metadata.is_deleting())
                            .map(|p| p.metadata.name.clone()),
                    );
                }
                _ => {}
            }
        }
        (deletes, creates, requeue)
    }
}

/// `podByCreationTimestampAndPhase`: Running before not, then oldest first.
fn sort_by_creation_and_phase(pods: &mut [&Pod]) {
    crate::sorting::sort_by(pods, |a, b| {
        let running = |p: &Pod| p.status.phase != PodPhase::Running;
        running(a)
            .cmp(&running(b))
            .then(a.metadata.created_ms.cmp(&b.metadata.created_ms))
            .then(a.metadata.name.cmp(&b.metadata.name))
    });
}

/// `getNodesToDaemonPods`: the DaemonSet's Pods by target node (terminal Pods being
/// deleted left out).
fn nodes_to_daemon_pods<'a>(store: &'a Store, ds: &DaemonSet) -> BTreeMap<String, Vec<&'a Pod>> {
    let mut out: BTreeMap<String, Vec<&Pod>> = BTreeMap::new();
    for o in store.dependent_objects(&ds.metadata.uid) {
        let Object::Pod(p) = o else {
            continue;
        };
        if p.metadata.controller_ref().map(|r| r.uid.as_str()) != Some(ds.metadata.uid.as_str())
            || !ds.spec.selector.matches(&p.metadata.labels)
            || (p.is_terminal() && p.metadata.is_deleting())
        {
            continue;
        }
        if let Some(n) = target_node(p) {
            out.entry(n).or_default().push(p);
        }
    }
    out
}

/// `syncNodes`: delete, then create in slow-start batches, each Pod pinned to its node.
fn sync_nodes(
    ds: &DaemonSet,
    node_pods: &BTreeMap<String, Vec<&Pod>>,
    deletes: &[String],
    creates: &[String],
    hash: &str,
) -> Vec<Request> {
    let mut out = Vec::new();
    let ds_ref = event_ref(Kind::DaemonSet, &ds.metadata);
    let by_name: BTreeMap<&str, &Pod> = if deletes.is_empty() {
        BTreeMap::new()
    } else {
        node_pods
            .values()
            .flatten()
            .map(|p| (p.metadata.name.as_str(), *p))
            .collect()
    };
    let mut seen = BTreeSet::new();
    for name in deletes.iter().take(BURST_REPLICAS) {
        if !seen.insert(name) {
            continue;
        }
        let Some(p) = by_name.get(name.as_str()) else {
            continue;
        };
        if p.status.phase == PodPhase::Failed {
            out.push(Request::Event {
                involved: ds_ref.clone(),
                type_: EventType::Warning,
                reason: "FailedDaemonPod".into(),
                message: format!(
                    "Found failed daemon pod {}/{} on node {}, will try to kill it",
                    p.metadata.namespace, p.metadata.name, p.spec.node_name
                ),
            });
        }
        out.push(Request::Delete {
            kind: Kind::Pod,
            key: ObjKey::of(&p.metadata),
            options: DeleteOptions::default(),
            event: Some(EventOnSuccess {
                involved: ds_ref.clone(),
                type_: EventType::Normal,
                reason: "SuccessfulDelete",
                message_prefix: "Deleted pod: ",
                on_failure: Some(("FailedDelete", "Error deleting: ")),
            }),
        });
    }
    let creates: Vec<Request> = creates
        .iter()
        .take(BURST_REPLICAS)
        .map(|node| Request::Create {
            object: Object::Pod(Box::new(pod_for_node(ds, node, hash))),
            event: Some(EventOnSuccess {
                involved: ds_ref.clone(),
                type_: EventType::Normal,
                reason: "SuccessfulCreate",
                message_prefix: "Created pod: ",
                on_failure: Some(("FailedCreate", "Error creating: ")),
            }),
        })
        .collect();
    if !creates.is_empty() {
        out.push(Request::SlowStart(creates));
    }
    out
}

/// The Pod created for `node` (`CreatePodTemplate` + the node affinity): the
/// template's labels with the revision hash and template generation, the daemon
/// tolerations, the DaemonSet as controller.
pub fn pod_for_node(ds: &DaemonSet, node: &str, hash: &str) -> Pod {
    let mut p = new_pod(ds, node);
    p.metadata.generate_name = format!("{}-", ds.metadata.name);
    p.metadata
        .labels
        .insert(CONTROLLER_REVISION_HASH.into(), hash.into());
    if let Some(g) = ds.metadata.annotations.get(TEMPLATE_GENERATION_ANNOTATION) {
        p.metadata
            .labels
            .insert(POD_TEMPLATE_GENERATION.into(), g.clone());
    }
    p.metadata.owner_references = vec![controller_ref(
        Kind::DaemonSet,
        &ds.metadata.name,
        &ds.metadata.uid,
    )];
    p
}

/// `updateDaemonSetStatus`.
fn calculate_status(
    ds: &DaemonSet,
    nodes: &[(&Node, (bool, bool))],
    node_pods: &BTreeMap<String, Vec<&Pod>>,
    hash: &str,
    now: SimTime,
) -> DaemonSetStatus {
    let mut s = DaemonSetStatus {
        observed_generation: ds.metadata.generation,
        ..Default::default()
    };
    let generation = ds.metadata.annotations.get(TEMPLATE_GENERATION_ANNOTATION);
    for (node, (should_run, _)) in nodes {
        let should_run = *should_run;
        let pods = node_pods.get(&node.metadata.name);
        let scheduled = pods.is_some_and(|p| !p.is_empty());
        if should_run {
            s.desired_number_scheduled += 1;
            let Some(pods) = pods.filter(|_| scheduled) else {
                continue;
            };
            s.current_number_scheduled += 1;
            let mut pods = pods.clone();
            sort_by_creation_and_phase(&mut pods);
            let p = pods[0];
            if p.is_ready() {
                s.number_ready += 1;
                if p.is_available(ds.spec.min_ready_seconds, now) {
                    s.number_available += 1;
                }
            }
            if is_pod_updated(p, hash, generation) {
                s.updated_number_scheduled += 1;
            }
        } else if scheduled {
            s.number_misscheduled += 1;
        }
    }
    s.number_unavailable = s.desired_number_scheduled - s.number_available;
    s
}
