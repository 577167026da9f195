//! The DaemonSet's updates (`pkg/controller/daemon/update.go`): its history of
//! ControllerRevisions (`constructHistory`, `snapshot`, `cleanupHistory`) and the
//! rolling update within maxUnavailable or with maxSurge (`rollingUpdate`,
//! `findUpdatedPodsOnNode`, `updatedDesiredNodeCounts`).

use super::util::is_pod_updated;
use crate::api::*;
use crate::apiserver::{DeleteOptions, ObjKey, Store};
use crate::client::{controller_ref, Request};
use crate::controllers::Reconcile;
use crate::time::SimTime;
use std::collections::{BTreeMap, BTreeSet};

/// `constructHistory`: the revision of the current template (created by `snapshot` if
/// there is none, its revision moved past the others if it is an older one come back)
/// and the old revisions, oldest first.
pub(super) fn construct_history<'a>(
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
pub(super) fn cleanup_history(
    ds: &DaemonSet,
    node_pods: &BTreeMap<String, Vec<&Pod>>,
    old: Vec<&ControllerRevision>,
    out: &mut Reconcile,
) {
    let mut to_kill = old.len() as i64 - ds.spec.revision_history_limit.max(0);
    if to_kill <= 0 {
        return;
    }
    let live: BTreeSet<&str> = crate::sorting::btree_set(
        node_pods
            .values()
            .flatten()
            .filter_map(|p| p.metadata.labels.get(CONTROLLER_REVISION_HASH))
            .map(String::as_str),
    );
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
pub(super) fn rolling_update(
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
