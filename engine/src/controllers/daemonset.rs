//! The DaemonSet controller: one Pod on every node that should run one.
//!
//! Upstream: `pkg/controller/daemon/daemon_controller.go` (`syncDaemonSet → manage →
//! podsShouldBeOnNode → syncNodes`, `updateDaemonSetStatus`, `NodeShouldRunDaemonPod`),
//! `update.go` (`rollingUpdate`, `findUpdatedPodsOnNode`, `updatedDesiredNodeCounts`)
//! and `util/daemonset_util.go` (`AddOrUpdateDaemonPodTolerations`,
//! `ReplaceDaemonSetPodNodeNameNodeAffinity`, `IsPodUpdated`), v1.33.
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

use super::{Controller, Ctx, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, DeleteOptions, ObjKey, Store};
use crate::client::writer;
use crate::client::{controller_ref, event_ref, Component, EventOnSuccess, Request};
use crate::controllers::deployment::util::compute_hash;
use crate::time::{SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet};

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

/// `AddOrUpdateDaemonPodTolerations`.
pub fn add_or_update_daemon_pod_tolerations(spec: &mut PodSpec) {
    let mut add = |key: &str, effect: &str| {
        let t = Toleration {
            key: key.into(),
            operator: "Exists".into(),
            effect: effect.into(),
            ..Default::default()
        };
        // `AddOrUpdateTolerationInPodSpec`: an equal toleration is not added twice; one
        // with the same key, operator, value and effect is replaced.
        match spec.tolerations.iter_mut().find(|x| {
            x.key == t.key && x.effect == t.effect && x.operator == t.operator && x.value == t.value
        }) {
            Some(x) => *x = t,
            None => spec.tolerations.push(t),
        }
    };
    add("node.kubernetes.io/not-ready", "NoExecute");
    add("node.kubernetes.io/unreachable", "NoExecute");
    add("node.kubernetes.io/disk-pressure", "NoSchedule");
    add("node.kubernetes.io/memory-pressure", "NoSchedule");
    add("node.kubernetes.io/pid-pressure", "NoSchedule");
    add("node.kubernetes.io/unschedulable", "NoSchedule");
    if spec.extra.get("hostNetwork").and_then(|v| v.as_bool()) == Some(true) {
        add("node.kubernetes.io/network-unavailable", "NoSchedule");
    }
}

/// `ReplaceDaemonSetPodNodeNameNodeAffinity`: the required node affinity becomes one
/// term, `metadata.name In [node]` (the template's preferred terms are kept).
pub fn replace_node_name_affinity(affinity: Option<Affinity>, node: &str) -> Affinity {
    let mut a = affinity.unwrap_or_default();
    let mut na = a.node_affinity.take().unwrap_or_default();
    na.required = Some(NodeSelector {
        node_selector_terms: vec![NodeSelectorTerm {
            match_fields: vec![NodeSelectorRequirement {
                key: "metadata.name".into(),
                operator: "In".into(),
                values: vec![node.into()],
            }],
            ..Default::default()
        }],
    });
    a.node_affinity = Some(na);
    a
}

/// The node a daemon Pod is for: its nodeName, else its pinned `metadata.name`
/// (`GetTargetNodeName`).
fn target_node(p: &Pod) -> Option<String> {
    if !p.spec.node_name.is_empty() {
        return Some(p.spec.node_name.clone());
    }
    crate::api::node_affinity::node_name_prefilter(p).and_then(|names| names.into_iter().next())
}

/// `IsPodUpdated`: the Pod carries the current hash or template generation.
fn is_pod_updated(p: &Pod, hash: &str, generation: Option<&String>) -> bool {
    let labels = &p.metadata.labels;
    labels.get(CONTROLLER_REVISION_HASH).map(String::as_str) == Some(hash)
        || generation.is_some_and(|g| labels.get(POD_TEMPLATE_GENERATION) == Some(g))
}

/// `podByCreationTimestampAndPhase`: Running before not, then oldest first.
fn sort_by_creation_and_phase(pods: &mut [&Pod]) {
    pods.sort_by(|a, b| {
        let running = |p: &Pod| p.status.phase != PodPhase::Running;
        running(a)
            .cmp(&running(b))
            .then(a.metadata.created_ms.cmp(&b.metadata.created_ms))
            .then(a.metadata.name.cmp(&b.metadata.name))
    });
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

fn allows_surge(ds: &DaemonSet) -> bool {
    ds.spec.update_strategy.type_ == "RollingUpdate"
        && ds
            .spec
            .update_strategy
            .rolling_update
            .as_ref()
            .is_some_and(|r| {
                r.max_surge != IntOrString::Int(0)
                    && r.max_surge != IntOrString::String("0%".into())
            })
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

/// `constructHistory`: the revision of the current template (created by `snapshot` if
/// there is none, its revision moved past the others if it is an older one come back)
/// and the old revisions, oldest first.
fn construct_history<'a>(
    store: &'a Store,
    ds: &DaemonSet,
    hash: &str,
    out: &mut Reconcile,
) -> Vec<&'a ControllerRevision> {
    let data = crate::controllers::history::revision_patch(&ds.spec.template);
    let histories = crate::controllers::history::controlled_revisions(store, &ds.metadata.uid);
    let (current, old): (Vec<&ControllerRevision>, Vec<&ControllerRevision>) =
        histories.into_iter().partition(|r| r.data == data);
    let next = old.iter().map(|r| r.revision).max().unwrap_or(0) + 1;
    match current.last() {
        None => {
            // `snapshot`.
            let mut labels = ds.spec.template.metadata.labels.clone();
            labels.insert(CONTROLLER_REVISION_HASH.into(), hash.into());
            out.requests.push(Request::Create {
                object: Object::ControllerRevision(ControllerRevision {
                    metadata: ObjectMeta {
                        name: format!("{}-{hash}", ds.metadata.name),
                        namespace: ds.metadata.namespace.clone(),
                        labels,
                        annotations: ds.metadata.annotations.clone(),
                        owner_references: vec![controller_ref(
                            Kind::DaemonSet,
                            &ds.metadata.name,
                            &ds.metadata.uid,
                        )],
                        ..Default::default()
                    },
                    data,
                    revision: next,
                }),
                event: None,
            });
        }
        Some(cur) if cur.revision < next => {
            let mut moved = (*cur).clone();
            moved.revision = next;
            out.requests.push(Request::blind_update(moved));
        }
        Some(_) => {}
    }
    old
}

/// `cleanupHistory`: old revisions beyond `revisionHistoryLimit`, oldest first, unless a
/// Pod still carries their hash.
fn cleanup_history(
    ds: &DaemonSet,
    node_pods: &BTreeMap<String, Vec<&Pod>>,
    old: Vec<&ControllerRevision>,
    out: &mut Reconcile,
) {
    let mut to_kill = old.len() as i64 - ds.spec.revision_history_limit.max(0);
    if to_kill <= 0 {
        return;
    }
    let live: BTreeSet<&str> = node_pods
        .values()
        .flatten()
        .filter_map(|p| p.metadata.labels.get(CONTROLLER_REVISION_HASH))
        .map(String::as_str)
        .collect();
    for r in old {
        if to_kill <= 0 {
            break;
        }
        if r.metadata
            .labels
            .get(CONTROLLER_REVISION_HASH)
            .is_some_and(|h| live.contains(h.as_str()))
        {
            continue;
        }
        out.requests.push(Request::Delete {
            kind: Kind::ControllerRevision,
            key: ObjKey::of(&r.metadata),
            options: DeleteOptions::default(),
            event: None,
        });
        to_kill -= 1;
    }
}

/// `updatedDesiredNodeCounts`: (maxSurge, maxUnavailable, desired), a percentage of
/// the desired count rounded up; both zero means one unavailable.
fn updated_desired_node_counts(ds: &DaemonSet, nodes: &[(&Node, (bool, bool))]) -> (i64, i64, i64) {
    let desired = nodes.iter().filter(|(_, (run, _))| *run).count() as i64;
    let ru = ds
        .spec
        .update_strategy
        .rolling_update
        .clone()
        .unwrap_or_default();
    let surge = ru.max_surge.scaled_value(desired, true).unwrap_or(0);
    let mut unavailable = ru.max_unavailable.scaled_value(desired, true).unwrap_or(1);
    if surge == 0 && unavailable == 0 {
        unavailable = 1;
    }
    (surge, unavailable, desired)
}

/// `findUpdatedPodsOnNode`: the node's one new and one old Pod (None: more than one of
/// a kind, for `manage` to clean up).
fn find_updated_pods_on_node<'a>(
    ds: &DaemonSet,
    pods: &[&'a Pod],
    hash: &str,
) -> Option<(Option<&'a Pod>, Option<&'a Pod>)> {
    let generation = ds.metadata.annotations.get(TEMPLATE_GENERATION_ANNOTATION);
    let (mut new, mut old) = (None, None);
    for p in pods {
        if p.metadata.is_deleting() {
            continue;
        }
        let slot = if is_pod_updated(p, hash, generation) {
            &mut new
        } else {
            &mut old
        };
        if slot.is_some() {
            return None;
        }
        *slot = Some(*p);
    }
    Some((new, old))
}

/// `rollingUpdate`: old Pods to delete and nodes to create new Pods on, within
/// maxUnavailable (or, with maxSurge, creating new Pods beside the old first).
fn rolling_update(
    ds: &DaemonSet,
    nodes: &[(&Node, (bool, bool))],
    node_pods: &BTreeMap<String, Vec<&Pod>>,
    hash: &str,
    now: SimTime,
) -> (Vec<String>, Vec<String>) {
    let (max_surge, max_unavailable, desired) = updated_desired_node_counts(ds, nodes);
    let min_ready = ds.spec.min_ready_seconds;
    let available = |p: &Pod| p.is_available(min_ready, now);
    let should_run_on = |name: &str| {
        nodes
            .binary_search_by(|(n, _)| n.metadata.name.as_str().cmp(name))
            .ok()
            .is_some_and(|i| nodes[i].1 .0)
    };
    if max_surge == 0 {
        let mut num_unavailable = 0;
        let mut allowed = Vec::new();
        let mut candidates = Vec::new();
        for pods in node_pods.values() {
            let Some((new, old)) = find_updated_pods_on_node(ds, pods, hash) else {
                num_unavailable += 1;
                continue;
            };
            match (new, old) {
                (None, None) | (Some(_), Some(_)) => num_unavailable += 1,
                (Some(n), None) => {
                    if !available(n) {
                        num_unavailable += 1;
                    }
                }
                (None, Some(o)) => {
                    if !available(o) {
                        allowed.push(o.metadata.name.clone());
                    } else if num_unavailable >= max_unavailable {
                        continue;
                    } else {
                        candidates.push(o.metadata.name.clone());
                    }
                }
            }
        }
        let remaining = (max_unavailable - num_unavailable).max(0) as usize;
        let remaining = remaining.min(candidates.len());
        allowed.extend(candidates.into_iter().take(remaining));
        return (allowed, Vec::new());
    }
    let mut old_to_delete = Vec::new();
    let mut should_not_run = Vec::new();
    let mut candidate_new = Vec::new();
    let mut allowed_new = Vec::new();
    let (mut num_surge, mut num_available) = (0i64, 0i64);
    for (node_name, pods) in node_pods {
        let Some((new, old)) = find_updated_pods_on_node(ds, pods, hash) else {
            num_surge += 1;
            continue;
        };
        match (old, new) {
            (Some(o), _) if available(o) => num_available += 1,
            (None, Some(n)) if available(n) => num_available += 1,
            _ => {}
        }
        let should_run = should_run_on(node_name);
        match (old, new) {
            (None, _) => {}
            (Some(o), None) => {
                if !available(o) {
                    if !should_run {
                        old_to_delete.push(o.metadata.name.clone());
                        continue;
                    }
                    allowed_new.push(node_name.clone());
                } else {
                    if !should_run {
                        should_not_run.push(o.metadata.name.clone());
                        continue;
                    }
                    if num_surge >= max_surge {
                        continue;
                    }
                    candidate_new.push(node_name.clone());
                }
            }
            (Some(o), Some(n)) => {
                if !available(n) {
                    num_surge += 1;
                    continue;
                }
                old_to_delete.push(o.metadata.name.clone());
            }
        }
    }
    let deletable = (num_available - desired).max(0) as usize;
    old_to_delete.extend(should_not_run.into_iter().take(deletable));
    let remaining = ((max_surge - num_surge).max(0) as usize).min(candidate_new.len());
    allowed_new.extend(candidate_new.into_iter().take(remaining));
    (old_to_delete, allowed_new)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn ds() -> DaemonSet {
        let mut labels = StringMap::new();
        labels.insert("app".into(), "logs".into());
        DaemonSet {
            metadata: ObjectMeta {
                name: "logs".into(),
                namespace: "default".into(),
                ..Default::default()
            },
            spec: DaemonSetSpec {
                selector: LabelSelector::from_labels(&labels),
                template: PodTemplateSpec {
                    metadata: ObjectMeta {
                        labels,
                        ..Default::default()
                    },
                    spec: PodSpec {
                        containers: vec![Container {
                            name: "agent".into(),
                            image: "fluentd".into(),
                            ..Default::default()
                        }],
                        ..Default::default()
                    },
                },
                ..Default::default()
            },
            status: Default::default(),
        }
    }

    fn node(name: &str, taints: Vec<Taint>) -> Node {
        Node {
            metadata: ObjectMeta {
                name: name.into(),
                ..Default::default()
            },
            spec: NodeSpec {
                taints,
                ..Default::default()
            },
            ..Default::default()
        }
    }

    fn world(nodes: Vec<Node>) -> (Store, ObjKey) {
        let mut store = Store::new();
        let mut rng = Rng::new(1);
        for n in nodes {
            store.create(0, &mut rng, Object::Node(n), "test").unwrap();
        }
        store
            .create(0, &mut rng, Object::DaemonSet(Box::new(ds())), "test")
            .unwrap();
        (store, ObjKey::new("default", "logs"))
    }

    #[test]
    fn a_daemonset_creates_one_pinned_pod_per_node_with_the_daemon_tolerations() {
        let (store, key) = world(vec![node("node-1", vec![]), node("node-2", vec![])]);
        let r = DaemonSetController::default().sync_daemon_set(&store, &key, 0);
        // The first sync snapshots the template as revision 1, then creates the Pods.
        let Some(Request::Create {
            object: Object::ControllerRevision(rev),
            ..
        }) = r.requests.first()
        else {
            panic!("{:?}", r.requests)
        };
        // The hash of the template as stored (defaulted by the API server).
        let hash = compute_hash(&store.get::<DaemonSet>(&key).unwrap().spec.template, None);
        assert_eq!(rev.metadata.name, format!("logs-{hash}"));
        assert_eq!(rev.revision, 1);
        assert_eq!(
            rev.metadata.labels.get(CONTROLLER_REVISION_HASH),
            Some(&hash)
        );
        let Some(Request::SlowStart(batch)) = r.requests.get(1) else {
            panic!("{:?}", r.requests)
        };
        let pinned: Vec<String> = batch
            .iter()
            .filter_map(|q| match q {
                Request::Create {
                    object: Object::Pod(p),
                    ..
                } => target_node(p),
                _ => None,
            })
            .collect();
        assert_eq!(pinned, vec!["node-1", "node-2"]);
        let Request::Create {
            object: Object::Pod(p),
            ..
        } = &batch[0]
        else {
            panic!()
        };
        let tols: Vec<(&str, &str)> = p
            .spec
            .tolerations
            .iter()
            .map(|t| (t.key.as_str(), t.effect.as_str()))
            .collect();
        assert_eq!(
            tols,
            vec![
                ("node.kubernetes.io/not-ready", "NoExecute"),
                ("node.kubernetes.io/unreachable", "NoExecute"),
                ("node.kubernetes.io/disk-pressure", "NoSchedule"),
                ("node.kubernetes.io/memory-pressure", "NoSchedule"),
                ("node.kubernetes.io/pid-pressure", "NoSchedule"),
                ("node.kubernetes.io/unschedulable", "NoSchedule"),
            ]
        );
        assert!(p.metadata.labels.contains_key(CONTROLLER_REVISION_HASH));
        assert_eq!(p.spec.node_name, "", "the scheduler binds it");
    }

    #[test]
    fn a_node_with_an_untolerated_taint_gets_no_pod_and_is_not_desired() {
        let taint = Taint {
            key: "dedicated".into(),
            value: "gpu".into(),
            effect: "NoSchedule".into(),
            ..Default::default()
        };
        let (store, key) = world(vec![node("node-1", vec![]), node("node-2", vec![taint])]);
        let r = DaemonSetController::default().sync_daemon_set(&store, &key, 0);
        let status = r
            .requests
            .iter()
            .find_map(|q| match q {
                Request::UpdateStatus(Object::DaemonSet(d)) => Some(d.status.clone()),
                _ => None,
            })
            .unwrap();
        assert_eq!(status.desired_number_scheduled, 1);
        assert_eq!(status.number_unavailable, 1);
    }

    #[test]
    fn a_noschedule_taint_keeps_a_running_pod_a_noexecute_one_does_not() {
        let d = ds();
        let no_schedule = node(
            "n",
            vec![Taint {
                key: "k".into(),
                effect: "NoSchedule".into(),
                ..Default::default()
            }],
        );
        assert_eq!(node_should_run_daemon_pod(&no_schedule, &d), (false, true));
        let no_execute = node(
            "n",
            vec![Taint {
                key: "k".into(),
                effect: "NoExecute".into(),
                ..Default::default()
            }],
        );
        assert_eq!(node_should_run_daemon_pod(&no_execute, &d), (false, false));
        let not_ready = node(
            "n",
            vec![Taint {
                key: "node.kubernetes.io/not-ready".into(),
                effect: "NoExecute".into(),
                ..Default::default()
            }],
        );
        assert_eq!(node_should_run_daemon_pod(&not_ready, &d), (true, true));
    }

    /// Every ControllerRevision in `r`'s requests: (verb, name, revision).
    fn revision_writes(r: &Reconcile) -> Vec<(&'static str, String, i64)> {
        r.requests
            .iter()
            .filter_map(|q| match q {
                Request::Create {
                    object: Object::ControllerRevision(c),
                    ..
                } => Some(("create", c.metadata.name.clone(), c.revision)),
                Request::Update(Object::ControllerRevision(c)) => {
                    Some(("update", c.metadata.name.clone(), c.revision))
                }
                Request::Delete {
                    kind: Kind::ControllerRevision,
                    key,
                    ..
                } => Some(("delete", key.name.clone(), 0)),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn each_template_gets_a_revision_and_a_template_that_comes_back_moves_to_the_end() {
        let (mut store, key) = world(vec![node("node-1", vec![])]);
        let mut rng = Rng::new(2);
        let mut c = DaemonSetController::default();
        let apply = |store: &mut Store, rng: &mut Rng, r: &Reconcile| {
            for q in &r.requests {
                if let Request::Create {
                    object: o @ Object::ControllerRevision(_),
                    ..
                } = q
                {
                    store.create(0, rng, o.clone(), "test").unwrap();
                }
                if let Request::Update(o @ Object::ControllerRevision(_)) = q {
                    store.update(0, o.clone(), "test").unwrap();
                }
            }
        };
        let first = c.sync_daemon_set(&store, &key, 0);
        let h1 = compute_hash(&store.get::<DaemonSet>(&key).unwrap().spec.template, None);
        assert_eq!(
            revision_writes(&first),
            vec![("create", format!("logs-{h1}"), 1)]
        );
        apply(&mut store, &mut rng, &first);
        // Nothing new while the template stays.
        assert_eq!(revision_writes(&c.sync_daemon_set(&store, &key, 0)), vec![]);
        // A new image: revision 2.
        let mut d = store.get::<DaemonSet>(&key).unwrap().clone();
        d.spec.template.spec.containers[0].image = "fluentd:2".into();
        store
            .update(0, Object::DaemonSet(Box::new(d.clone())), "test")
            .unwrap();
        let h2 = compute_hash(&store.get::<DaemonSet>(&key).unwrap().spec.template, None);
        let second = c.sync_daemon_set(&store, &key, 0);
        assert_eq!(
            revision_writes(&second),
            vec![("create", format!("logs-{h2}"), 2)]
        );
        apply(&mut store, &mut rng, &second);
        // Back to the first image (a rollback): revision 1 becomes revision 3.
        d = store.get::<DaemonSet>(&key).unwrap().clone();
        d.spec.template.spec.containers[0].image = "fluentd".into();
        store
            .update(0, Object::DaemonSet(Box::new(d)), "test")
            .unwrap();
        let back = c.sync_daemon_set(&store, &key, 0);
        assert_eq!(
            revision_writes(&back),
            vec![("update", format!("logs-{h1}"), 3)]
        );
    }
}
