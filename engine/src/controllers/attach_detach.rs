//! The attach/detach controller: a network disk is attached to the node whose Pod uses
//! it before the kubelet there can mount it, and detached when no Pod there does.
//!
//! Upstream: `pkg/controller/volume/attachdetach/` (`attach_detach_controller.go`, the
//! `reconciler` in `reconciler/reconciler.go` with its `reportMultiAttachError`, the
//! desired and actual states of the world in `cache/`), `util.DetermineVolumeAction`
//! and `volumeutil.IsMultiAttachAllowed`, v1.33; the kubelet's side is in
//! `crate::kubelet` (it waits for the attachment and reports `volumesInUse`).
//!
//! The desired state: every volume of a Pod scheduled to a node, unless the Pod has
//! terminated (`IsPodTerminated`: Succeeded or Failed, or deleting with no container
//! running). The actual state: `Node.status.volumesAttached`, which only this
//! controller writes. The reconciler:
//! - **detaches** a volume no Pod on the node needs — once the kubelet there no longer
//!   lists it in `volumesInUse` (it unmounted it). A kubelet that is gone cannot say
//!   so: its node is not healthy, and the volume is force-detached only after
//!   `maxWaitForUnmountDuration` (6 min) since the detach was first wanted, or at once
//!   if the node has the `node.kubernetes.io/out-of-service` taint (non-graceful node
//!   shutdown);
//! - **attaches** a volume a Pod on the node needs — unless it may be attached to one
//!   node only (no ReadWriteMany or ReadOnlyMany access mode) and is still attached
//!   elsewhere: then each waiting Pod gets a `FailedAttachVolume` Event, `Multi-Attach
//!   error for volume "pvc-…" Volume is already exclusively attached to one node and
//!   can't be attached to another` (or naming the Pods that still use it), once.
//!
//! This is why a StatefulSet Pod force-deleted from a powered-off node comes back on
//! another node only minutes later with a ReadWriteOnce disk: its replacement waits in
//! ContainerCreating for the disk the dead node still holds.
//!
//! Attachable volumes are those of the cluster's CSI driver ([`PROVISIONER`]); others
//! (hostPath, NFS written by hand) need no attachment. Simplifications: no
//! VolumeAttachment objects (the external attacher's work is the [`ATTACH_DELAY`]); the
//! controller is not subject to RBAC.

use super::volume::PROVISIONER;
use super::{Controller, Ctx, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::writer;
use crate::client::{event_ref, Component, Request};
use crate::time::{SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet};

/// `maxWaitForUnmountDuration`: how long a volume still in use on an unhealthy node is
/// kept attached before it is force-detached.
pub const MAX_WAIT_FOR_UNMOUNT: SimTime = 6 * 60 * SECOND;
/// How long the CSI driver takes to attach a disk.
pub const ATTACH_DELAY: SimTime = SECOND;
/// The taint that says a node is shut down for good (non-graceful node shutdown).
pub const OUT_OF_SERVICE_TAINT: &str = "node.kubernetes.io/out-of-service";

/// The unique name of an attachable volume (`kubernetes.io/csi/<driver>^<handle>`), as
/// `volumesAttached` and `volumesInUse` list it; None for a volume that needs no
/// attachment.
pub fn unique_volume_name(pv: &PersistentVolume) -> Option<String> {
    let csi = pv.spec.source.get("csi")?;
    let driver = csi.get("driver")?.as_str()?;
    if driver != PROVISIONER {
        return None;
    }
    let handle = csi.get("volumeHandle")?.as_str()?;
    Some(format!("kubernetes.io/csi/{driver}^{handle}"))
}

/// The attachable volumes a Pod needs: (volume name in the Pod, PV name, unique name).
pub fn pod_attachable_volumes(store: &Store, pod: &Pod) -> Vec<(String, String, String)> {
    pod_volumes(&pod.spec)
        .into_iter()
        .filter_map(|(name, source)| {
            let VolumeSource::Claim(claim) = source else {
                return None;
            };
            let pvc = store
                .get::<PersistentVolumeClaim>(&ObjKey::new(&pod.metadata.namespace, &claim))?;
            if pvc.spec.volume_name.is_empty() {
                return None;
            }
            let pv = store.get::<PersistentVolume>(&ObjKey::new("", &pvc.spec.volume_name))?;
            unique_volume_name(pv).map(|u| (name, pv.metadata.name.clone(), u))
        })
        .collect()
}

/// `IsPodTerminated` as `DetermineVolumeAction` asks it: the Pod's volumes may go.
fn is_pod_terminated(p: &Pod) -> bool {
    p.is_terminal()
        || (p.metadata.is_deleting()
            && !p
                .status
                .container_statuses
                .iter()
                .any(|s| s.state.running.is_some()))
}

/// `IsMultiAttachAllowed`: a volume readable or writable from many nodes.
fn multi_attach_allowed(pv: &PersistentVolume) -> bool {
    pv.spec
        .access_modes
        .iter()
        .any(|m| m == "ReadWriteMany" || m == "ReadOnlyMany")
}

/// The attach/detach controller. Keys are PersistentVolume names; its caches are the
/// Pods using each claim and the nodes each volume is attached to (read from the Nodes
/// as they change), and the reconciler's own bookkeeping.
#[derive(Clone, Debug, Default)]
pub struct AttachDetachController {
    /// Pods by the claims they use.
    claim_pods: BTreeMap<ObjKey, BTreeSet<ObjKey>>,
    /// Nodes each volume (by unique name) is attached to.
    attached_on: BTreeMap<String, BTreeSet<String>>,
    /// PV name by unique name.
    pv_of: BTreeMap<String, String>,
    /// When a detach was first wanted, by (PV, node).
    detach_requested: BTreeMap<(String, String), SimTime>,
    /// Attachments under way: when they complete, by (PV, node).
    attaching: BTreeMap<(String, String), SimTime>,
    /// Pods (uid) told of a Multi-Attach error, by PV.
    reported: BTreeSet<(String, String)>,
}

impl AttachDetachController {
    fn enqueue_claim(ctx: &mut Ctx<'_, ObjKey, super::NoTimer>, claim: &ObjKey) {
        if let Some(c) = ctx.store.get::<PersistentVolumeClaim>(claim) {
            if !c.spec.volume_name.is_empty() {
                ctx.enqueue(ObjKey::new("", &c.spec.volume_name));
            }
        }
    }

    fn pod_claims(p: &Pod) -> Vec<ObjKey> {
        pod_volumes(&p.spec)
            .into_iter()
            .filter_map(|(_, s)| match s {
                VolumeSource::Claim(c) => Some(ObjKey::new(&p.metadata.namespace, &c)),
                _ => None,
            })
            .collect()
    }
}

impl Controller for AttachDetachController {
    type Key = ObjKey;
    type Timer = super::NoTimer;
    const WATCHES: &'static [Kind] = &[
        Kind::Pod,
        Kind::Node,
        Kind::PersistentVolumeClaim,
        Kind::PersistentVolume,
    ];

    fn identity() -> Component {
        Component::named(writer::ATTACH_DETACH_CONTROLLER)
    }

    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, super::NoTimer>) {
        let (old, new) = (ch.old.as_deref(), ch.new.as_deref());
        match ch.kind {
            Kind::Pod => {
                let mut claims = BTreeSet::new();
                if let Some(Object::Pod(p)) = old {
                    for c in Self::pod_claims(p) {
                        if let Some(set) = self.claim_pods.get_mut(&c) {
                            set.remove(&ObjKey::of(&p.metadata));
                            if set.is_empty() {
                                self.claim_pods.remove(&c);
                            }
                        }
                        claims.insert(c);
                    }
                }
                if let (Some(Object::Pod(p)), None) = (old, new) {
                    let uid = &p.metadata.uid;
                    self.reported.retain(|(_, u)| u != uid);
                }
                if let Some(Object::Pod(p)) = new {
                    for c in Self::pod_claims(p) {
                        self.claim_pods
                            .entry(c.clone())
                            .or_default()
                            .insert(ObjKey::of(&p.metadata));
                        claims.insert(c);
                    }
                }
                for c in &claims {
                    Self::enqueue_claim(ctx, c);
                }
            }
            Kind::PersistentVolumeClaim => {
                if let Some(Object::PersistentVolumeClaim(c)) = new {
                    if !c.spec.volume_name.is_empty() {
                        ctx.enqueue(ObjKey::new("", &c.spec.volume_name));
                    }
                }
            }
            Kind::PersistentVolume => {
                if let Some(o) = new.or(old) {
                    if let (Object::PersistentVolume(v), true) = (o, new.is_some()) {
                        if let Some(u) = unique_volume_name(v) {
                            self.pv_of.insert(u, v.metadata.name.clone());
                        }
                    }
                    ctx.enqueue(ObjKey::of(o.meta()));
                }
            }
            Kind::Node => {
                let attached = |o: Option<&Object>| -> BTreeSet<String> {
                    match o {
                        Some(Object::Node(n)) => n
                            .status
                            .volumes_attached
                            .iter()
                            .map(|v| v.name.clone())
                            .collect(),
                        _ => BTreeSet::new(),
                    }
                };
                let (before, after) = (attached(old), attached(new));
                let name = new
                    .or(old)
                    .map(|o| o.meta().name.clone())
                    .unwrap_or_default();
                for u in before.difference(&after) {
                    if let Some(set) = self.attached_on.get_mut(u) {
                        set.remove(&name);
                        if set.is_empty() {
                            self.attached_on.remove(u);
                        }
                    }
                }
                for u in after.difference(&before) {
                    self.attached_on
                        .entry(u.clone())
                        .or_default()
                        .insert(name.clone());
                }
                // What the reconciler decides by changed: the attachments, what the
                // kubelet has in use, health, the out-of-service taint.
                let (Some(Object::Node(o)), Some(Object::Node(n))) = (old, new) else {
                    for u in before.union(&after) {
                        if let Some(pv) = self.pv_of.get(u) {
                            ctx.enqueue(ObjKey::new("", pv));
                        }
                    }
                    return;
                };
                let changed = o.status.volumes_attached != n.status.volumes_attached
                    || o.status.volumes_in_use != n.status.volumes_in_use
                    || o.ready_status() != n.ready_status()
                    || o.spec.taints != n.spec.taints;
                if changed {
                    for u in before.union(&after) {
                        if let Some(pv) = self.pv_of.get(u) {
                            ctx.enqueue(ObjKey::new("", pv));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, super::NoTimer>) -> Reconcile {
        let now = ctx.now;
        sync_volume(self, ctx.store, &key.name, now)
    }
}

/// One pass of the reconciler over one volume: detaches first, then attaches.
fn sync_volume(
    c: &mut AttachDetachController,
    store: &Store,
    pv_name: &str,
    now: SimTime,
) -> Reconcile {
    let mut out = Reconcile::default();
    let Some(pv) = store.get::<PersistentVolume>(&ObjKey::new("", pv_name)) else {
        c.detach_requested.retain(|(v, _), _| v != pv_name);
        c.attaching.retain(|(v, _), _| v != pv_name);
        return out;
    };
    let Some(unique) = unique_volume_name(pv) else {
        return out;
    };
    // The desired state: nodes of the Pods using the volume's claim.
    let mut desired: BTreeMap<String, Vec<&Pod>> = BTreeMap::new();
    if let Some(claim) = &pv.spec.claim_ref {
        let ck = ObjKey::new(&claim.namespace, &claim.name);
        for pk in c.claim_pods.get(&ck).into_iter().flatten() {
            let Some(p) = store.get::<Pod>(pk) else {
                continue;
            };
            if p.spec.node_name.is_empty() || is_pod_terminated(p) {
                continue;
            }
            desired.entry(p.spec.node_name.clone()).or_default().push(p);
        }
    }
    let attached: BTreeSet<String> = c.attached_on.get(&unique).cloned().unwrap_or_default();
    let mut wake: Option<SimTime> = None;
    let mut soonest = |t: SimTime| {
        wake = Some(wake.map_or(t, |w: SimTime| w.min(t)));
    };
    // Detach.
    for n in attached.iter().filter(|n| !desired.contains_key(*n)) {
        let Some(node) = store.get::<Node>(&ObjKey::new("", n)) else {
            continue;
        };
        let since = *c
            .detach_requested
            .entry((pv_name.to_string(), n.clone()))
            .or_insert(now);
        let in_use = node.status.volumes_in_use.contains(&unique);
        let healthy = node.ready_status() == ConditionStatus::True;
        let out_of_service = node
            .spec
            .taints
            .iter()
            .any(|t| t.key == OUT_OF_SERVICE_TAINT);
        let timeout = now.saturating_sub(since) > MAX_WAIT_FOR_UNMOUNT;
        let force = !healthy && timeout;
        if in_use && !force && !out_of_service {
            if !healthy {
                soonest(since + MAX_WAIT_FOR_UNMOUNT + 1);
            }
            continue;
        }
        let mut n2 = node.clone();
        n2.status.volumes_attached.retain(|v| v.name != unique);
        out.requests.push(Request::blind_update_status(n2));
        c.detach_requested.remove(&(pv_name.to_string(), n.clone()));
    }
    // Attach.
    for (n, pods) in &desired {
        c.detach_requested.remove(&(pv_name.to_string(), n.clone()));
        if attached.contains(n) {
            c.attaching.remove(&(pv_name.to_string(), n.clone()));
            continue;
        }
        let others: Vec<&String> = attached.iter().filter(|x| *x != n).collect();
        if !multi_attach_allowed(pv) && !others.is_empty() {
            // reportMultiAttachError: the Pods on the other nodes that still use it.
            let users: Vec<&Pod> = others
                .iter()
                .flat_map(|o| desired.get(*o).into_iter().flatten())
                .copied()
                .collect();
            for p in pods {
                if !c
                    .reported
                    .insert((pv_name.to_string(), p.metadata.uid.clone()))
                {
                    continue;
                }
                let suffix = if users.is_empty() {
                    "Volume is already exclusively attached to one node and can't be attached to another".to_string()
                } else {
                    let local: Vec<&str> = users
                        .iter()
                        .filter(|u| u.metadata.namespace == p.metadata.namespace)
                        .map(|u| u.metadata.name.as_str())
                        .collect();
                    let other = users.len() - local.len();
                    match (local.is_empty(), other) {
                        (false, 0) => format!("Volume is already used by pod(s) {}", local.join(", ")),
                        (false, k) => format!(
                            "Volume is already used by pod(s) {} and {k} pod(s) in different namespaces",
                            local.join(", ")
                        ),
                        (true, k) => format!("Volume is already used by {k} pod(s) in different namespaces"),
                    }
                };
                out.requests.push(Request::Event {
                    involved: event_ref(Kind::Pod, &p.metadata),
                    type_: EventType::Warning,
                    reason: "FailedAttachVolume".into(),
                    message: format!("Multi-Attach error for volume \"{pv_name}\" {suffix}"),
                });
            }
            continue;
        }
        let done = *c
            .attaching
            .entry((pv_name.to_string(), n.clone()))
            .or_insert(now + ATTACH_DELAY);
        if done > now {
            soonest(done);
            continue;
        }
        let Some(node) = store.get::<Node>(&ObjKey::new("", n)) else {
            continue;
        };
        let mut n2 = node.clone();
        n2.status.volumes_attached.push(AttachedVolume {
            name: unique.clone(),
            device_path: String::new(),
        });
        out.requests.push(Request::blind_update_status(n2));
        c.attaching.remove(&(pv_name.to_string(), n.clone()));
        for p in pods {
            c.reported
                .remove(&(pv_name.to_string(), p.metadata.uid.clone()));
            out.requests.push(Request::Event {
                involved: event_ref(Kind::Pod, &p.metadata),
                type_: EventType::Normal,
                reason: "SuccessfulAttachVolume".into(),
                message: format!("AttachVolume.Attach succeeded for volume \"{pv_name}\""),
            });
        }
    }
    out.requeue_after = wake.map(|t| t.saturating_sub(now).max(1));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    const UNIQUE: &str = "kubernetes.io/csi/disk.csi.kubeplay.dev^disk-1";

    fn node(name: &str, ready: bool, attached: bool, taints: &[&str]) -> Node {
        let mut n: Node = serde_json::from_value(serde_json::json!({
            "metadata": {"name": name},
            "spec": {"taints": taints.iter().map(|k| serde_json::json!({"key": k, "effect": "NoExecute"})).collect::<Vec<_>>()},
            "status": {"conditions": [{"type": "Ready", "status": if ready { "True" } else { "Unknown" }}]}
        }))
        .unwrap();
        if attached {
            n.status.volumes_attached = vec![AttachedVolume {
                name: UNIQUE.into(),
                device_path: String::new(),
            }];
            n.status.volumes_in_use = vec![UNIQUE.into()];
        }
        n
    }

    /// A bound RWO claim, its CSI volume, Pod db-0 on `pod_node`, and `nodes`.
    fn world(nodes: Vec<Node>, pod_node: &str) -> (Store, AttachDetachController) {
        let mut store = Store::for_tests();
        let mut rng = Rng::new(1);
        for n in nodes {
            store
                .create(0, &mut rng, Object::Node(Box::new(n)), "test")
                .unwrap();
        }
        let pv: PersistentVolume = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "pvc-1"},
            "spec": {"capacity": {"storage": "1Gi"}, "accessModes": ["ReadWriteOnce"],
                     "claimRef": {"namespace": "default", "name": "data-db-0"},
                     "csi": {"driver": PROVISIONER, "volumeHandle": "disk-1"}}
        }))
        .unwrap();
        store
            .create(0, &mut rng, Object::PersistentVolume(Box::new(pv)), "test")
            .unwrap();
        let pvc: PersistentVolumeClaim = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "data-db-0", "namespace": "default"},
            "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}, "volumeName": "pvc-1"}
        }))
        .unwrap();
        store
            .create(
                0,
                &mut rng,
                Object::PersistentVolumeClaim(Box::new(pvc)),
                "test",
            )
            .unwrap();
        let pod: Pod = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "db-0", "namespace": "default"},
            "spec": {"nodeName": pod_node, "containers": [{"name": "pg", "image": "postgres:16"}],
                     "volumes": [{"name": "data", "persistentVolumeClaim": {"claimName": "data-db-0"}}]}
        }))
        .unwrap();
        store
            .create(0, &mut rng, Object::Pod(Box::new(pod)), "test")
            .unwrap();
        let mut c = AttachDetachController::default();
        c.claim_pods.insert(
            ObjKey::new("default", "data-db-0"),
            [ObjKey::new("default", "db-0")].into(),
        );
        for n in store.list::<Node>() {
            if !n.status.volumes_attached.is_empty() {
                c.attached_on
                    .entry(UNIQUE.into())
                    .or_default()
                    .insert(n.metadata.name.clone());
            }
        }
        (store, c)
    }

    /// The requests as (verb, object, detail) lines.
    fn shown(r: &Reconcile) -> Vec<String> {
        r.requests
            .iter()
            .map(|q| match q {
                Request::UpdateStatus(Object::Node(n)) => format!(
                    "update node/{} volumesAttached={:?}",
                    n.metadata.name,
                    n.status
                        .volumes_attached
                        .iter()
                        .map(|v| v.name.as_str())
                        .collect::<Vec<_>>()
                ),
                Request::Event {
                    involved,
                    reason,
                    message,
                    ..
                } => format!("event pod/{} {reason}: {message}", involved.name),
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_pod_gets_its_disk_attached_to_its_node_after_the_drivers_delay() {
        let (store, mut c) = world(vec![node("node-1", true, false, &[])], "node-1");
        let first = sync_volume(&mut c, &store, "pvc-1", 0);
        assert_eq!(shown(&first), Vec::<String>::new());
        assert_eq!(first.requeue_after, Some(ATTACH_DELAY));
        let done = sync_volume(&mut c, &store, "pvc-1", ATTACH_DELAY);
        assert_eq!(
            shown(&done),
            [
                format!("update node/node-1 volumesAttached=[\"{UNIQUE}\"]"),
                "event pod/db-0 SuccessfulAttachVolume: AttachVolume.Attach succeeded for volume \"pvc-1\"".to_string(),
            ]
        );
    }

    #[test]
    fn a_disk_held_by_a_dead_node_is_a_multi_attach_error_until_six_minutes_force_the_detach() {
        let (store, mut c) = world(
            vec![
                node("node-1", false, true, &[]),
                node("node-2", true, false, &[]),
            ],
            "node-2",
        );
        let r = sync_volume(&mut c, &store, "pvc-1", 0);
        assert_eq!(
            shown(&r),
            ["event pod/db-0 FailedAttachVolume: Multi-Attach error for volume \"pvc-1\" Volume is already exclusively attached to one node and can't be attached to another"]
        );
        assert_eq!(r.requeue_after, Some(MAX_WAIT_FOR_UNMOUNT + 1));
        // Told once; still waiting a minute later.
        assert_eq!(
            shown(&sync_volume(&mut c, &store, "pvc-1", 60_000)),
            Vec::<String>::new()
        );
        // Past the wait: force-detached from the dead node.
        let r = sync_volume(&mut c, &store, "pvc-1", MAX_WAIT_FOR_UNMOUNT + 1);
        assert_eq!(shown(&r), ["update node/node-1 volumesAttached=[]"]);
    }

    #[test]
    fn the_out_of_service_taint_releases_the_disk_at_once() {
        let (store, mut c) = world(
            vec![
                node("node-1", false, true, &[OUT_OF_SERVICE_TAINT]),
                node("node-2", true, false, &[]),
            ],
            "node-2",
        );
        let r = sync_volume(&mut c, &store, "pvc-1", 0);
        assert_eq!(shown(&r)[0], "update node/node-1 volumesAttached=[]");
    }

    #[test]
    fn a_healthy_node_keeps_a_disk_its_kubelet_still_uses_and_never_force_detaches_it() {
        let (store, mut c) = world(
            vec![
                node("node-1", true, true, &[]),
                node("node-2", true, false, &[]),
            ],
            "node-2",
        );
        let r = sync_volume(&mut c, &store, "pvc-1", 0);
        assert!(shown(&r)[0].contains("Multi-Attach error"));
        assert_eq!(r.requeue_after, None);
        let later = sync_volume(&mut c, &store, "pvc-1", 2 * MAX_WAIT_FOR_UNMOUNT);
        assert_eq!(shown(&later), Vec::<String>::new());
    }
}
