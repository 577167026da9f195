//! The ReplicaSet controller: keeps `spec.replicas` active Pods matching the selector.
//!
//! Upstream: `pkg/controller/replicaset/replica_set.go` (`syncReplicaSet → claimPods →
//! manageReplicas → calculateStatus`) and `pkg/controller/controller_utils.go`
//! (`ActivePodsWithRanks`, pod control events).
//!
//! Expectations: upstream tracks expected creates/deletes because its informer cache
//! lags its own writes. Here the requests of a reconcile are applied before the next
//! reconcile can run, so the cache is never behind the controller's own writes and
//! expectations are always satisfied; the burst limit and slow-start still apply.

mod replica_failure;

use super::{Controller, Ctx, NoTimer, Reconcile};
use crate::api::*;
use crate::apiserver::{ApiError, Change, DeleteOptions, ObjKey, Store};
use crate::client::{controller_ref, event_ref, writer, Component, EventOnSuccess, Request};
use crate::time::SimTime;
use std::cmp::Ordering;
use std::collections::BTreeMap;

/// `burstReplicas`: at most this many creates or deletes per sync.
pub const BURST_REPLICAS: usize = 500;

/// The ReplicaSet controller (stateless: its work queue is the cluster's).
#[derive(Clone, Debug, Default)]
pub struct ReplicaSetController;

impl Controller for ReplicaSetController {
    type Key = ObjKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[Kind::ReplicaSet, Kind::Pod];

    fn identity() -> Component {
        Component::named(writer::REPLICASET_CONTROLLER)
    }

    /// Informer handler: which ReplicaSets a change concerns (`addPod`, `updatePod`,
    /// `deletePod`, `addRS`, `updateRS`).
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        let (store, old, new) = (ctx.store, ch.old.as_deref(), ch.new.as_deref());
        match ch.kind {
            Kind::ReplicaSet => {
                if let Some(o) = new.or(old) {
                    ctx.enqueue(ObjKey::of(o.meta()));
                }
            }
            Kind::Pod => {
                for obj in [old, new].into_iter().flatten() {
                    let meta = obj.meta();
                    match meta.controller_ref() {
                        Some(r) if r.kind == "ReplicaSet" => {
                            ctx.enqueue(ObjKey::new(&meta.namespace, &r.name));
                        }
                        Some(_) => {}
                        None => {
                            // An orphan: every ReplicaSet that selects it may adopt it.
                            for rs in store.list_ns::<ReplicaSet>(&meta.namespace) {
                                if !rs.spec.selector.is_empty()
                                    && rs.spec.selector.matches(&meta.labels)
                                {
                                    ctx.enqueue(ObjKey::of(&rs.metadata));
                                }
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        self.sync_replica_set(ctx.store, key, ctx.now)
    }

    /// `manageReplicas` returned an error: `calculateStatus` records it.
    fn sync_failed(
        &mut self,
        key: &ObjKey,
        err: &ApiError,
        ctx: &mut Ctx<'_, ObjKey, NoTimer>,
    ) -> Vec<Request> {
        replica_failure::set_replica_failure(ctx.store, key, err, ctx.now)
    }
}

impl ReplicaSetController {
    /// `syncReplicaSet`.
    pub fn sync_replica_set(&self, store: &Store, key: &ObjKey, now: SimTime) -> Reconcile {
        let Some(rs) = store.get::<ReplicaSet>(key) else {
            return Reconcile::default();
        };
        let mut out = Reconcile::default();
        let (pods, mut requests) = claim_pods(store, rs);
        let active: Vec<&Pod> = pods.into_iter().filter(|p| p.is_active()).collect();
        let managed = if rs.metadata.is_deleting() {
            Vec::new()
        } else {
            manage_replicas(store, rs, &active, now)
        };
        // Upstream's calculateStatus knows manageReplicas' error; here its requests run
        // after the sync. A sync with nothing to create or delete cannot fail: it clears
        // ReplicaFailure. One that has creates or deletes leaves the condition as it is:
        // if they fail, `sync_failed` records it (no change when it is already there);
        // if they succeed, the next sync clears it. (Clearing it now and setting it back
        // after every failure woke the controller with its own writes in a hot loop.)
        let clear_failure = managed.is_empty();
        requests.extend(managed);
        out.requests = requests;
        // After manage_replicas the cache still shows the pods it is deleting; the status
        // written now describes what was observed, as upstream's does.
        let status = calculate_status(rs, &active, now, clear_failure);
        if status != rs.status {
            let mut updated = rs.clone();
            updated.status = status;
            out.requests
                .push(Request::UpdateStatus(Object::ReplicaSet(Box::new(updated))));
        }
        // Requeue when a Ready pod will become available (minReadySeconds).
        if rs.spec.min_ready_seconds > 0 {
            let wait = active
                .iter()
                .filter_map(|p| p.ready_since())
                .map(|since| crate::time::after_seconds(since, rs.spec.min_ready_seconds))
                .filter(|t| *t > now)
                .min();
            out.requeue_after = wait.map(|t| (t - now).saturating_add(1));
        }
        out
    }
}

/// `claimPods`: the Pods this ReplicaSet controls, adopting matching orphans and
/// releasing owned Pods that no longer match (`PodControllerRefManager`).
fn claim_pods<'a>(store: &'a Store, rs: &'a ReplicaSet) -> (Vec<&'a Pod>, Vec<Request>) {
    let mut pods = Vec::new();
    let mut requests = Vec::new();
    let sel = &rs.spec.selector;
    for o in store.dependent_objects(&rs.metadata.uid) {
        let Object::Pod(p) = o else {
            continue;
        };
        if p.metadata.controller_ref().map(|r| r.uid.as_str()) != Some(rs.metadata.uid.as_str()) {
            continue;
        }
        if sel.matches(&p.metadata.labels) {
            pods.push(&**p);
        } else if !p.metadata.is_deleting() {
            // Release: drop our ownerReference.
            let mut released = p.clone();
            released
                .metadata
                .owner_references
                .retain(|r| r.uid != rs.metadata.uid);
            requests.push(Request::Update(Object::Pod(released)));
        }
    }
    if !rs.metadata.is_deleting() && !sel.is_empty() {
        for p in store.orphan_pods(&rs.metadata.namespace) {
            if p.is_active() && sel.matches(&p.metadata.labels) {
                let mut adopted = p.clone();
                adopted.metadata.owner_references.push(controller_ref(
                    Kind::ReplicaSet,
                    &rs.metadata.name,
                    &rs.metadata.uid,
                ));
                requests.push(Request::Update(Object::Pod(Box::new(adopted))));
                pods.push(p);
            }
        }
    }
    (pods, requests)
}

/// The Pod a ReplicaSet creates from its template (`GetPodFromTemplate`).
pub fn pod_from_template(rs: &ReplicaSet) -> Pod {
    let t = &rs.spec.template;
    Pod {
        metadata: ObjectMeta {
            generate_name: format!("{}-", rs.metadata.name),
            namespace: rs.metadata.namespace.clone(),
            labels: t.metadata.labels.clone(),
            annotations: t.metadata.annotations.clone(),
            owner_references: vec![controller_ref(
                Kind::ReplicaSet,
                &rs.metadata.name,
                &rs.metadata.uid,
            )],
            ..Default::default()
        },
        spec: t.spec.clone(),
        status: PodStatus::default(),
    }
}

/// `manageReplicas`: create or delete the difference.
fn manage_replicas(store: &Store, rs: &ReplicaSet, active: &[&Pod], now: SimTime) -> Vec<Request> {
    let diff = active.len() as i64 - rs.spec.replicas;
    let rs_ref = event_ref(Kind::ReplicaSet, &rs.metadata);
    let mut out = Vec::new();
    if diff < 0 {
        let n = (-diff as usize).min(BURST_REPLICAS);
        let creates = (0..n)
            .map(|_| Request::Create {
                object: Object::Pod(Box::new(pod_from_template(rs))),
                event: Some(EventOnSuccess {
                    involved: rs_ref.clone(),
                    type_: EventType::Normal,
                    reason: "SuccessfulCreate",
                    message_prefix: "Created pod: ",
                    on_failure: Some(("FailedCreate", "Error creating: ")),
                }),
            })
            .collect();
        out.push(Request::SlowStart(creates));
    } else if diff > 0 {
        let n = (diff as usize).min(BURST_REPLICAS);
        let related = related_pods(store, rs);
        for p in pods_to_delete(active, &related, n, now) {
            out.push(Request::Delete {
                kind: Kind::Pod,
                key: ObjKey::of(&p.metadata),
                options: DeleteOptions {
                    precondition_uid: Some(p.metadata.uid.clone()),
                    ..Default::default()
                },
                event: Some(EventOnSuccess {
                    involved: rs_ref.clone(),
                    type_: EventType::Normal,
                    reason: "SuccessfulDelete",
                    message_prefix: "Deleted pod: ",
                    on_failure: Some(("FailedDelete", "Error deleting: ")),
                }),
            });
        }
    }
    out
}

/// Active Pods of every ReplicaSet controlled by the same owner as `rs` (the
/// "related pods" of `getIndirectlyRelatedPods`), or of `rs` alone if it has no owner.
fn related_pods<'a>(store: &'a Store, rs: &'a ReplicaSet) -> Vec<&'a Pod> {
    let siblings: Vec<String> = match rs.metadata.controller_ref() {
        Some(owner) => store
            .dependents(&owner.uid)
            .filter(|(k, _)| *k == Kind::ReplicaSet)
            .filter_map(|(_, key)| store.get::<ReplicaSet>(key))
            .map(|r| r.metadata.uid.clone())
            .collect(),
        None => vec![rs.metadata.uid.clone()],
    };
    siblings
        .iter()
        .flat_map(|uid| store.dependents(uid))
        .filter(|(k, _)| *k == Kind::Pod)
        .filter_map(|(_, key)| store.get::<Pod>(key))
        .filter(|p| p.is_active())
        .collect()
}

/// `getPodsToDelete`: rank the active Pods and take the first `n`.
pub fn pods_to_delete<'a>(
    active: &[&'a Pod],
    related: &[&Pod],
    n: usize,
    now: SimTime,
) -> Vec<&'a Pod> {
    let mut on_node: BTreeMap<&str, i64> = BTreeMap::new();
    for p in related {
        if !p.spec.node_name.is_empty() {
            *on_node.entry(p.spec.node_name.as_str()).or_default() += 1;
        }
    }
    let mut ranked: Vec<(&Pod, i64)> = active
        .iter()
        .map(|p| {
            let rank = if p.spec.node_name.is_empty() {
                0
            } else {
                on_node.get(p.spec.node_name.as_str()).copied().unwrap_or(0)
            };
            (*p, rank)
        })
        .collect();
    // Upstream's Less is not a strict total order (see compare_for_deletion); Go's sort
    // accepts that, Rust's `sort_by` panics on it. A plain merge sort gives a
    // deterministic order and never panics.
    merge_sort_by(&mut ranked, &|a, b| compare_for_deletion(a, b, now));
    ranked.into_iter().take(n).map(|(p, _)| p).collect()
}

fn phase_ordinal(p: &Pod) -> i32 {
    match PodPhase::parse(&p.status.phase) {
        Some(PodPhase::Pending) => 0,
        Some(PodPhase::Unknown) => 1,
        Some(PodPhase::Running) => 2,
        _ => 3,
    }
}

fn deletion_cost(p: &Pod) -> i64 {
    p.metadata
        .annotations
        .get("controller.kubernetes.io/pod-deletion-cost")
        .and_then(|v| v.parse::<i32>().ok())
        .map(i64::from)
        .unwrap_or(0)
}

fn max_restarts(p: &Pod) -> i64 {
    p.status
        .container_statuses
        .iter()
        .map(|c| c.restart_count)
        .max()
        .unwrap_or(0)
}

/// floor(log2(now − t)) in nanoseconds, −1 for a non-positive duration
/// (`logarithmicRankDiff`).
fn log_bucket(t: SimTime, now: SimTime) -> i64 {
    let d_ns = (now as i128 - t as i128) * 1_000_000;
    if d_ns > 0 {
        127 - (d_ns as u128).leading_zeros() as i64
    } else {
        -1
    }
}

/// `ActivePodsWithRanks.Less` as an ordering: `Less` sorts first = deleted first.
/// Stable merge sort that tolerates a comparator which is not a total order (it only
/// ever asks "is b before a?", so an inconsistent answer changes the order, never
/// safety). Deterministic for a deterministic comparator.
pub fn merge_sort_by<T: Clone>(v: &mut [T], cmp: &dyn Fn(&T, &T) -> Ordering) {
    if v.len() <= 1 {
        return;
    }
    let mid = v.len() / 2;
    merge_sort_by(&mut v[..mid], cmp);
    merge_sort_by(&mut v[mid..], cmp);
    let (left, right) = (v[..mid].to_vec(), v[mid..].to_vec());
    let (mut i, mut j, mut k) = (0, 0, 0);
    while i < left.len() && j < right.len() {
        if cmp(&right[j], &left[i]) == Ordering::Less {
            v[k] = right[j].clone();
            j += 1;
        } else {
            v[k] = left[i].clone();
            i += 1;
        }
        k += 1;
    }
    for x in left[i..].iter().chain(right[j..].iter()) {
        v[k] = x.clone();
        k += 1;
    }
}

/// `ActivePodsWithRanks.Less`, as upstream: ready times that differ but fall in the
/// same log bucket compare by uid, equal ones fall through to restarts and age — so
/// it is not transitive for every input.
pub fn compare_for_deletion(a: &(&Pod, i64), b: &(&Pod, i64), now: SimTime) -> Ordering {
    let (pa, ra) = *a;
    let (pb, rb) = *b;
    // 1. Unassigned < assigned.
    let (ua, ub) = (pa.spec.node_name.is_empty(), pb.spec.node_name.is_empty());
    if ua != ub {
        return if ua {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    // 2. Pending < Unknown < Running.
    let (oa, ob) = (phase_ordinal(pa), phase_ordinal(pb));
    if oa != ob {
        return oa.cmp(&ob);
    }
    // 3. Not ready < ready.
    let (ra_, rb_) = (pa.is_ready(), pb.is_ready());
    if ra_ != rb_ {
        return if !ra_ {
            Ordering::Less
        } else {
            Ordering::Greater
        };
    }
    // 4. Lower pod-deletion-cost first.
    let (ca, cb) = (deletion_cost(pa), deletion_cost(pb));
    if ca != cb {
        return ca.cmp(&cb);
    }
    // 5. More related pods on the same node first.
    if ra != rb {
        return rb.cmp(&ra);
    }
    // 6. Both ready: more recently ready first, in log2 buckets, uid tie-break.
    if let (Some(ta), Some(tb)) = (pa.ready_since(), pb.ready_since()) {
        if ta != tb {
            let diff = log_bucket(ta, now) - log_bucket(tb, now);
            if diff == 0 {
                return pa.metadata.uid.cmp(&pb.metadata.uid);
            }
            return diff.cmp(&0);
        }
    }
    // 7. Higher max container restarts first.
    let (xa, xb) = (max_restarts(pa), max_restarts(pb));
    if xa != xb {
        return xb.cmp(&xa);
    }
    // 8. Newer first, in log2 buckets, uid tie-break.
    let (ta, tb) = (pa.metadata.created_ms, pb.metadata.created_ms);
    if ta != tb {
        let diff = log_bucket(ta, now) - log_bucket(tb, now);
        if diff == 0 {
            return pa.metadata.uid.cmp(&pb.metadata.uid);
        }
        return diff.cmp(&0);
    }
    Ordering::Equal
}

/// `calculateStatus`.
pub fn calculate_status(
    rs: &ReplicaSet,
    active: &[&Pod],
    now: SimTime,
    clear_failure: bool,
) -> ReplicaSetStatus {
    let template_labels = &rs.spec.template.metadata.labels;
    let fully = active
        .iter()
        .filter(|p| {
            template_labels
                .iter()
                .all(|(k, v)| p.metadata.labels.get(k) == Some(v))
        })
        .count() as i64;
    ReplicaSetStatus {
        replicas: active.len() as i64,
        fully_labeled_replicas: fully,
        ready_replicas: active.iter().filter(|p| p.is_ready()).count() as i64,
        available_replicas: active
            .iter()
            .filter(|p| p.is_available(rs.spec.min_ready_seconds, now))
            .count() as i64,
        observed_generation: rs.metadata.generation,
        conditions: rs
            .status
            .conditions
            .iter()
            .filter(|c| !clear_failure || c.type_ != ReplicaSetConditionType::ReplicaFailure)
            .cloned()
            .collect(),
    }
}

#[cfg(test)]
mod tests;
