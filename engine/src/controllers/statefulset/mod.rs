//! The StatefulSet controller: Pods with stable names, storage and order.
//!
//! Upstream: `pkg/controller/statefulset/stateful_set.go` (`sync`),
//! `stateful_set_control.go` (`UpdateStatefulSet → performUpdate →
//! getStatefulSetRevisions → updateStatefulSet`, `processReplica`, `processCondemned`,
//! `truncateHistory`, `completeRollingUpdate`), `stateful_pod_control.go` (the claims,
//! the Events) and `stateful_set_utils.go` (`newVersionedStatefulSetPod`,
//! `updateClaimOwnerRefForSetAndPod`, the revision patch), v1.33.
//!
//! Each ordinal `i` in `[start, start + replicas)` has one Pod `<set>-<i>` with
//! hostname `<set>-<i>` under the governing Service's subdomain, and one claim
//! `<template>-<set>-<i>` per claim template; a Pod that comes back — on another node
//! after a delete — gets the same name and the same claims. `OrderedReady` creates in
//! ordinal order and waits for each Pod to be Running and Ready before the next,
//! deletes from the highest ordinal and waits for each to go; `Parallel` does not wait.
//! A rolling update replaces Pods from the highest ordinal down to the partition, one
//! at a time (`maxUnavailable` is behind an alpha gate in v1.33, off). The controller
//! never creates a Pod while one of that name still exists: a Pod on a powered-off
//! node stays Terminating until it is force-deleted, and its replacement waits — the
//! at-most-one guarantee a Deployment does not give.
//!
//! Each template the set has had is a ControllerRevision `<set>-<hash>`; the Pods
//! carry theirs in `controller-revision-hash`, so a partitioned rollout recreates a Pod
//! below the partition from the old template.

use super::{Controller, Ctx, Reconcile};
use crate::api::CONTROLLER_REVISION_HASH;
use crate::api::*;
use crate::apiserver::{Change, DeleteOptions, ObjKey, Store};
use crate::client::writer;
use crate::client::{controller_ref, event_ref, Component, Request};
use crate::controllers::history::{
    controlled_revisions, revision_name, revision_patch, revision_template,
};
use crate::time::SimTime;
use std::collections::BTreeMap;

/// The Pod label naming the Pod (`StatefulSetPodNameLabel`).
pub const POD_NAME_LABEL: &str = "statefulset.kubernetes.io/pod-name";
/// The Pod label with its ordinal (`PodIndexLabel`).
pub const POD_INDEX_LABEL: &str = "apps.kubernetes.io/pod-index";

/// The most Pods one sync creates (a kubeplay bound, as the ReplicaSet controller's
/// `burstReplicas`): upstream's `Parallel` set creates every missing Pod in one sync;
/// here a set of 2,147,483,647 replicas creates this many, then the rest a burst at a
/// time as the creates' own events bring the next sync (the Pod limit stops them long
/// before). An `OrderedReady` set creates one at a time anyway.
pub const MAX_CREATES_PER_SYNC: usize = 500;

/// The StatefulSet controller (stateless: everything it needs is in the store).
#[derive(Clone, Debug, Default)]
pub struct StatefulSetController;

impl Controller for StatefulSetController {
    type Key = ObjKey;
    type Timer = super::NoTimer;
    const WATCHES: &'static [Kind] = &[
        Kind::Pod,
        Kind::StatefulSet,
        Kind::PersistentVolumeClaim,
        Kind::ControllerRevision,
    ];

    fn identity() -> Component {
        Component::named(writer::STATEFULSET_CONTROLLER)
    }

    /// The set, the Pods it controls, and the claims of its Pods (a claim bound or
    /// released may unblock a Pod's start).
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, super::NoTimer>) {
        let (old, new) = (ch.old.as_deref(), ch.new.as_deref());
        match ch.kind {
            Kind::StatefulSet => {
                if let Some(o) = new.or(old) {
                    ctx.enqueue(ObjKey::of(o.meta()));
                }
            }
            Kind::Pod => {
                for o in [old, new].into_iter().flatten() {
                    let m = o.meta();
                    if let Some(r) = m.controller_ref().filter(|r| r.kind == "StatefulSet") {
                        ctx.enqueue(ObjKey::new(&m.namespace, &r.name));
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, super::NoTimer>) -> Reconcile {
        sync_stateful_set(ctx.store, key, ctx.now)
    }
}

/// The ordinal of a Pod named `<set>-<n>` (`getParentNameAndOrdinal`), -1 if none.
pub fn get_ordinal(set: &str, pod: &str) -> i64 {
    pod.strip_prefix(set)
        .and_then(|r| r.strip_prefix('-'))
        .filter(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .and_then(|n| n.parse().ok())
        .unwrap_or(-1)
}

fn pod_revision(p: &Pod) -> &str {
    p.metadata
        .labels
        .get(CONTROLLER_REVISION_HASH)
        .map(String::as_str)
        .unwrap_or("")
}

fn is_running_and_ready(p: &Pod) -> bool {
    p.status.phase == PodPhase::Running && p.is_ready()
}

fn is_healthy(p: &Pod) -> bool {
    is_running_and_ready(p) && !p.metadata.is_deleting()
}

/// The claim of `template` for ordinal `ord` (`getPersistentVolumeClaimName`).
pub fn claim_name(template: &str, set: &str, ord: i64) -> String {
    format!("{template}-{set}-{ord}")
}

/// `newVersionedStatefulSetPod`: ordinals below the partition keep the current
/// revision's template, the rest take the update revision's.
fn new_versioned_pod(
    set: &StatefulSet,
    current: (&str, &PodTemplateSpec),
    update: (&str, &PodTemplateSpec),
    ord: i64,
) -> Pod {
    let rolling = set.spec.update_strategy.type_ == "RollingUpdate";
    let start = set.spec.start_ordinal();
    // Upstream's condition, with Go's precedence (`a && b || c`).
    let use_current = (rolling
        && set.spec.update_strategy.rolling_update.is_none()
        && ord < start + set.status.current_replicas)
        || (set.spec.update_strategy.rolling_update.is_some()
            && ord < start + set.spec.partition());
    let (rev, template) = if use_current { current } else { update };
    new_stateful_set_pod(set, template, rev, ord)
}

/// `newStatefulSetPod`: the template with the set's identity and storage.
pub fn new_stateful_set_pod(
    set: &StatefulSet,
    template: &PodTemplateSpec,
    rev: &str,
    ord: i64,
) -> Pod {
    let name = format!("{}-{ord}", set.metadata.name);
    let mut labels = template.metadata.labels.clone();
    labels.insert(POD_NAME_LABEL.into(), name.clone());
    labels.insert(POD_INDEX_LABEL.into(), ord.to_string());
    labels.insert(CONTROLLER_REVISION_HASH.into(), rev.into());
    let mut spec = template.spec.clone();
    spec.extra
        .insert("hostname".into(), serde_json::Value::String(name.clone()));
    if !set.spec.service_name.is_empty() {
        spec.extra.insert(
            "subdomain".into(),
            serde_json::Value::String(set.spec.service_name.clone()),
        );
    }
    // `updateStorage`: each claim template replaces a template volume of its name.
    for t in &set.spec.volume_claim_templates {
        let vname = &t.metadata.name;
        let mut source = crate::api::extra::Extra::new();
        source.insert(
            "persistentVolumeClaim".into(),
            serde_json::json!({ "claimName": claim_name(vname, &set.metadata.name, ord) }),
        );
        let volume = Volume {
            name: vname.clone(),
            source: std::sync::Arc::new(source),
        };
        match spec.volumes.iter_mut().find(|v| v.name == *vname) {
            Some(v) => *v = volume,
            None => spec.volumes.push(volume),
        }
    }
    Pod {
        metadata: ObjectMeta {
            name,
            namespace: set.metadata.namespace.clone(),
            labels,
            annotations: template.metadata.annotations.clone(),
            owner_references: vec![controller_ref(
                Kind::StatefulSet,
                &set.metadata.name,
                &set.metadata.uid,
            )],
            ..Default::default()
        },
        spec,
        status: PodStatus::default(),
    }
}

fn owner_ref(kind: Kind, name: &str, uid: &str) -> OwnerReference {
    let mut r = controller_ref(kind, name, uid);
    r.controller = None;
    r.block_owner_deletion = None;
    r
}

/// `updateClaimOwnerRefForSetAndPod`: the claim's owners as the retention policy
/// wants them; true when they changed.
fn update_claim_owner_refs(
    claim: &mut PersistentVolumeClaim,
    set: &StatefulSet,
    pod: Option<&Pod>,
    in_range: bool,
) -> bool {
    let before = claim.metadata.owner_references.clone();
    let policy = &set.spec.persistent_volume_claim_retention_policy;
    let refs = &mut claim.metadata.owner_references;
    let set_ref = owner_ref(Kind::StatefulSet, &set.metadata.name, &set.metadata.uid);
    let add = |r: OwnerReference, refs: &mut Vec<OwnerReference>| {
        if !refs.iter().any(|x| x.uid == r.uid) {
            refs.push(r);
        }
    };
    let remove = |uid: &str, refs: &mut Vec<OwnerReference>| refs.retain(|x| x.uid != uid);
    let pod_uid = pod.map(|p| p.metadata.uid.clone()).unwrap_or_default();
    let pod_ref = pod.map(|p| owner_ref(Kind::Pod, &p.metadata.name, &p.metadata.uid));
    let (scaled, deleted) = (
        policy.when_scaled == "Delete",
        policy.when_deleted == "Delete",
    );
    if deleted && (!scaled || in_range) {
        add(set_ref, refs);
    } else {
        remove(&set.metadata.uid, refs);
    }
    if scaled && !in_range {
        if let Some(r) = pod_ref {
            add(r, refs);
        }
    } else if !pod_uid.is_empty() {
        remove(&pod_uid, refs);
    }
    *refs != before
}

/// `sync` → `UpdateStatefulSet` → `performUpdate`: the revisions, the update of the
/// Pods, the status, the history.
pub fn sync_stateful_set(store: &Store, key: &ObjKey, now: SimTime) -> Reconcile {
    let mut out = Reconcile::default();
    let Some(set) = store.get::<StatefulSet>(key) else {
        return out;
    };
    let pods = get_pods_for_stateful_set(store, set);
    let revisions = controlled_revisions(store, &set.metadata.uid);
    let (current_name, current_template, update_name) =
        get_stateful_set_revisions(set, &revisions, &mut out);
    let u = Update {
        store,
        set,
        current: (current_name.as_str(), &current_template),
        update: (update_name.as_str(), &set.spec.template),
        monotonic: set.spec.pod_management_policy != "Parallel",
        now,
    };
    let status = update_stateful_set(&u, &pods, &mut out);
    if status != set.status {
        let mut s = set.clone();
        s.status = status;
        out.requests
            .push(Request::UpdateStatus(Object::StatefulSet(Box::new(s))));
    }
    truncate_history(
        set,
        &pods,
        &revisions,
        &current_name,
        &update_name,
        &mut out,
    );
    out
}

/// `getPodsForStatefulSet`: the Pods it controls whose labels still match, by ordinal.
fn get_pods_for_stateful_set<'a>(store: &'a Store, set: &StatefulSet) -> Vec<&'a Pod> {
    let name = &set.metadata.name;
    let mut pods: Vec<&Pod> = store
        .dependent_objects(&set.metadata.uid)
        .filter_map(|o| match o {
            Object::Pod(p) => Some(&**p),
            _ => None,
        })
        .filter(|p| {
            p.metadata.controller_ref().map(|r| r.uid.as_str()) == Some(set.metadata.uid.as_str())
                && set.spec.selector.matches(&p.metadata.labels)
        })
        .collect();
    crate::sorting::sort_by_key(&mut pods, |p| get_ordinal(name, &p.metadata.name));
    pods
}

/// `getStatefulSetRevisions`: the current revision's name and template, and the update
/// revision's name; a new template gets a revision, and an earlier one that came back
/// moves to the end.
fn get_stateful_set_revisions(
    set: &StatefulSet,
    revisions: &[&ControllerRevision],
    out: &mut Reconcile,
) -> (String, PodTemplateSpec, String) {
    let name = &set.metadata.name;
    let collision_count = set.status.collision_count.unwrap_or(0);
    let data = revision_patch(&set.spec.template);
    let update_name = revision_name(name, &data, collision_count);
    let next_revision = revisions.last().map_or(1, |r| r.revision + 1);
    let update_number = match revisions.iter().find(|r| r.data == data) {
        Some(r)
            if Some(r.metadata.name.as_str())
                == revisions.last().map(|l| l.metadata.name.as_str()) =>
        {
            r.revision
        }
        Some(r) => {
            // An earlier template came back (a rollback): its revision moves to the end.
            let mut moved = (*r).clone();
            moved.revision = next_revision;
            out.requests.push(Request::blind_update(moved));
            next_revision
        }
        None => {
            if !set.metadata.is_deleting() {
                let rev = ControllerRevision {
                    metadata: ObjectMeta {
                        name: update_name.clone(),
                        namespace: set.metadata.namespace.clone(),
                        labels: set.spec.template.metadata.labels.clone(),
                        // newRevision copies the set's annotations (a change-cause
                        // among them, which `rollout history` prints).
                        annotations: set.metadata.annotations.clone(),
                        owner_references: vec![controller_ref(
                            Kind::StatefulSet,
                            name,
                            &set.metadata.uid,
                        )],
                        ..Default::default()
                    },
                    data: data.clone(),
                    revision: next_revision,
                };
                out.requests.push(Request::Create {
                    object: Object::ControllerRevision(rev),
                    event: None,
                });
            }
            next_revision
        }
    };
    let _ = update_number;
    let update_name = revisions
        .iter()
        .find(|r| r.data == data)
        .map_or(update_name, |r| r.metadata.name.clone());
    let current = revisions
        .iter()
        .find(|r| r.metadata.name == set.status.current_revision)
        .and_then(|r| revision_template(r).map(|t| (r.metadata.name.clone(), t)));
    let (current_name, current_template) =
        current.unwrap_or_else(|| (update_name.clone(), set.spec.template.clone()));
    (current_name, current_template, update_name)
}

/// What `updateStatefulSet`, `processReplica` and `processCondemned` read: the set,
/// its current and update revisions (name and template), whether Pods are managed in
/// order (`OrderedReady`: monotonic), and the time.
struct Update<'a> {
    store: &'a Store,
    set: &'a StatefulSet,
    current: (&'a str, &'a PodTemplateSpec),
    update: (&'a str, &'a PodTemplateSpec),
    monotonic: bool,
    now: SimTime,
}

/// `updateStatefulSet`: the Pods sorted into replicas (ordinals in range) and condemned
/// ones (beyond it), the status from the Pods as they are; then each replica in ordinal
/// order, the condemned from the highest ordinal, and the rolling update from the
/// highest ordinal down to the partition — a monotonic set stops at the first Pod it
/// must wait for.
fn update_stateful_set(u: &Update<'_>, pods: &[&Pod], out: &mut Reconcile) -> StatefulSetStatus {
    let set = u.set;
    let name = &set.metadata.name;
    let start = set.spec.start_ordinal();
    let count = set.spec.replicas.max(0);
    let end = start + count;
    // Upstream allocates a slot per replica (`make([]*v1.Pod, replicaCount)`); here only
    // the Pods that exist are kept, by ordinal, so 2,147,483,647 replicas cost what
    // their Pods do.
    let mut replicas: BTreeMap<i64, &Pod> = BTreeMap::new();
    let mut condemned: Vec<&Pod> = Vec::new();
    for p in pods {
        let ord = get_ordinal(name, &p.metadata.name);
        if ord >= start && ord < end {
            replicas.insert(ord, p);
        } else if ord >= 0 {
            condemned.push(p);
        }
    }
    crate::sorting::sort_by_key(&mut condemned, |p| {
        std::cmp::Reverse(get_ordinal(name, &p.metadata.name))
    });
    let mut status = compute_replica_status(set, pods, u.current.0, u.update.0, u.now);
    complete_rolling_update(set, &mut status);
    if set.metadata.is_deleting() {
        return status;
    }
    let first_unhealthy: Option<&str> = replicas
        .values()
        .chain(condemned.iter())
        .find(|p| !is_healthy(p))
        .map(|p| p.metadata.name.as_str());
    let mut blocked = false;
    let mut created = 0;
    for ord in start..end {
        let slot = replicas.get(&ord).copied();
        if slot.is_none() && created == MAX_CREATES_PER_SYNC {
            // The rest on the next sync, which these creates' own events bring.
            blocked = true;
            break;
        }
        created += usize::from(slot.is_none());
        if process_replica(u, ord, slot, out) {
            blocked = true;
            break;
        }
    }
    if !blocked {
        for p in &condemned {
            if process_condemned(u, p, first_unhealthy, out) {
                blocked = true;
                break;
            }
        }
    }
    // The rolling update: from the highest ordinal down to the partition.
    if !blocked && set.spec.update_strategy.type_ == "RollingUpdate" {
        let min = start + set.spec.partition().max(0);
        for target in (min..end).rev() {
            let Some(p) = replicas.get(&target).copied() else {
                break;
            };
            if pod_revision(p) != u.update.0 && !p.metadata.is_deleting() {
                out.requests.extend(delete_pod(set, p));
                break;
            }
            if !is_healthy(p) {
                break;
            }
        }
    }
    status
}

/// `computeReplicaStatus`: the set's status from its Pods as they are.
fn compute_replica_status(
    set: &StatefulSet,
    pods: &[&Pod],
    current_name: &str,
    update_name: &str,
    now: SimTime,
) -> StatefulSetStatus {
    let mut status = StatefulSetStatus {
        observed_generation: set.metadata.generation,
        current_revision: current_name.to_string(),
        update_revision: update_name.to_string(),
        collision_count: Some(set.status.collision_count.unwrap_or(0)),
        ..Default::default()
    };
    for p in pods {
        status.replicas += 1;
        if is_running_and_ready(p) {
            status.ready_replicas += 1;
            if p.is_available(set.spec.min_ready_seconds, now) {
                status.available_replicas += 1;
            }
        }
        if !p.metadata.is_deleting() {
            if pod_revision(p) == current_name {
                status.current_replicas += 1;
            }
            if pod_revision(p) == update_name {
                status.updated_replicas += 1;
            }
        }
    }
    status
}

/// `completeRollingUpdate`: once every Pod is updated and ready, the update revision
/// becomes the current one.
fn complete_rolling_update(set: &StatefulSet, status: &mut StatefulSetStatus) {
    if set.spec.update_strategy.type_ == "RollingUpdate"
        && status.updated_replicas == status.replicas
        && status.ready_replicas == status.replicas
    {
        status.current_replicas = status.updated_replicas;
        status.current_revision = status.update_revision.clone();
    }
}

/// `processReplica` for ordinal `ord` (its Pod, if any): a finished Pod is deleted to
/// be recreated, a missing one created with its claims, a Pending one given the claims
/// it lost, and the claims' owners kept up to date. True when the sync must stop here
/// (a monotonic set waits for this Pod).
fn process_replica(u: &Update<'_>, ord: i64, existing: Option<&Pod>, out: &mut Reconcile) -> bool {
    let (set, monotonic, now) = (u.set, u.monotonic, u.now);
    let name = &set.metadata.name;
    if let Some(p) = existing {
        if p.is_terminal() && !p.metadata.is_deleting() {
            let (type_, reason, what) = if p.status.phase == PodPhase::Failed {
                (EventType::Warning, "RecreatingFailedPod", "failed")
            } else {
                (EventType::Normal, "RecreatingTerminatedPod", "terminated")
            };
            out.requests.push(Request::Event {
                involved: event_ref(Kind::StatefulSet, &set.metadata),
                type_,
                reason: reason.into(),
                message: format!(
                    "StatefulSet {}/{name} is recreating {what} Pod {}",
                    set.metadata.namespace, p.metadata.name
                ),
            });
            out.requests.extend(delete_pod(set, p));
            return monotonic;
        }
    }
    let Some(p) = existing else {
        let pod = new_versioned_pod(set, u.current, u.update, ord);
        // createPersistentVolumeClaims, then the Pod.
        let Ok(claims) = claims_for(u.store, set, &pod, ord, true) else {
            return monotonic;
        };
        out.requests.extend(claims);
        let pod_name = pod.metadata.name.clone();
        out.requests.push(Request::Create {
            object: Object::Pod(Box::new(pod)),
            event: None,
        });
        out.requests.push(pod_event(set, "create", &pod_name));
        return monotonic;
    };
    // A Pod still Pending may have lost a claim: make the missing ones.
    if p.status.phase == PodPhase::Pending {
        if let Ok(claims) = claims_for(u.store, set, p, ord, false) {
            out.requests.extend(claims);
        }
    }
    if monotonic && (p.metadata.is_deleting() || !is_running_and_ready(p)) {
        return true;
    }
    if monotonic && !p.is_available(set.spec.min_ready_seconds, now) {
        if let Some(since) = p.ready_since() {
            let at = crate::time::after_seconds(since, set.spec.min_ready_seconds);
            out.requeue_after = Some(at.saturating_sub(now) + 1);
        }
        return true;
    }
    out.requests
        .extend(claim_owner_updates(u.store, set, p, true));
    false
}

/// `processCondemned` for Pod `p` beyond the replicas: deleted (its claims' owners
/// updated first), unless a monotonic set must wait — for a Pod being deleted, or an
/// unhealthy one that is not the first unhealthy Pod. True when the sync must stop
/// here.
fn process_condemned(
    u: &Update<'_>,
    p: &Pod,
    first_unhealthy: Option<&str>,
    out: &mut Reconcile,
) -> bool {
    let (set, monotonic) = (u.set, u.monotonic);
    if p.metadata.is_deleting() {
        return monotonic;
    }
    if monotonic && !is_running_and_ready(p) && Some(p.metadata.name.as_str()) != first_unhealthy {
        return true;
    }
    out.requests
        .extend(claim_owner_updates(u.store, set, p, false));
    out.requests.extend(delete_pod(set, p));
    monotonic
}

/// `truncateHistory`: revisions no Pod uses beyond revisionHistoryLimit, oldest first.
fn truncate_history(
    set: &StatefulSet,
    pods: &[&Pod],
    revisions: &[&ControllerRevision],
    current_name: &str,
    update_name: &str,
    out: &mut Reconcile,
) {
    let live: Vec<&str> = pods.iter().map(|p| pod_revision(p)).collect();
    let history: Vec<&&ControllerRevision> = revisions
        .iter()
        .filter(|r| {
            r.metadata.name != current_name
                && r.metadata.name != update_name
                && !live.contains(&r.metadata.name.as_str())
        })
        .collect();
    let excess = history
        .len()
        .saturating_sub(set.spec.revision_history_limit.max(0) as usize);
    for r in history.into_iter().take(excess) {
        out.requests.push(Request::Delete {
            kind: Kind::ControllerRevision,
            key: ObjKey::of(&r.metadata),
            options: DeleteOptions::default(),
            event: None,
        });
    }
}

/// `recordPodEvent`: `create Pod web-0 in StatefulSet web successful`.
fn pod_event(set: &StatefulSet, verb: &str, pod: &str) -> Request {
    let title = match verb {
        "create" => "Create",
        "delete" => "Delete",
        _ => "Update",
    };
    Request::Event {
        involved: event_ref(Kind::StatefulSet, &set.metadata),
        type_: EventType::Normal,
        reason: format!("Successful{title}"),
        message: format!(
            "{verb} Pod {pod} in StatefulSet {} successful",
            set.metadata.name
        ),
    }
}

fn delete_pod(set: &StatefulSet, p: &Pod) -> Vec<Request> {
    vec![
        Request::Delete {
            kind: Kind::Pod,
            key: ObjKey::of(&p.metadata),
            options: DeleteOptions::default(),
            event: None,
        },
        pod_event(set, "delete", &p.metadata.name),
    ]
}

/// `createPersistentVolumeClaims`: each missing claim of the Pod, labelled and owned
/// as the retention policy says, with its Event; Err when one is being deleted (the
/// Pod must wait for it to go).
fn claims_for(
    store: &Store,
    set: &StatefulSet,
    pod: &Pod,
    ord: i64,
    _new: bool,
) -> Result<Vec<Request>, ()> {
    let mut out = Vec::new();
    for t in &set.spec.volume_claim_templates {
        let cname = claim_name(&t.metadata.name, &set.metadata.name, ord);
        match store.get::<PersistentVolumeClaim>(&ObjKey::new(&set.metadata.namespace, &cname)) {
            Some(c) if c.metadata.is_deleting() => return Err(()),
            Some(_) => {}
            None => {
                let mut claim = PersistentVolumeClaim {
                    metadata: ObjectMeta {
                        name: cname.clone(),
                        namespace: set.metadata.namespace.clone(),
                        labels: t.metadata.labels.clone(),
                        annotations: t.metadata.annotations.clone(),
                        ..Default::default()
                    },
                    spec: t.spec.clone(),
                    status: Default::default(),
                };
                for (k, v) in &set.spec.selector.match_labels {
                    claim.metadata.labels.insert(k.clone(), v.clone());
                }
                update_claim_owner_refs(&mut claim, set, None, true);
                out.push(Request::Create {
                    object: Object::PersistentVolumeClaim(Box::new(claim)),
                    event: None,
                });
                out.push(Request::Event {
                    involved: event_ref(Kind::StatefulSet, &set.metadata),
                    type_: EventType::Normal,
                    reason: "SuccessfulCreate".into(),
                    message: format!(
                        "create Claim {cname} Pod {} in StatefulSet {} success",
                        pod.metadata.name, set.metadata.name
                    ),
                });
            }
        }
    }
    Ok(out)
}

/// The claims of an existing Pod whose owners the retention policy wants changed.
fn claim_owner_updates(
    store: &Store,
    set: &StatefulSet,
    pod: &Pod,
    in_range: bool,
) -> Vec<Request> {
    let ord = get_ordinal(&set.metadata.name, &pod.metadata.name);
    let mut out = Vec::new();
    for t in &set.spec.volume_claim_templates {
        let cname = claim_name(&t.metadata.name, &set.metadata.name, ord);
        if let Some(c) =
            store.get::<PersistentVolumeClaim>(&ObjKey::new(&set.metadata.namespace, &cname))
        {
            let mut c = c.clone();
            if update_claim_owner_refs(&mut c, set, Some(pod), in_range) {
                out.push(Request::blind_update(c));
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
