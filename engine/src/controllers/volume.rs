//! Persistent storage: the PersistentVolume binder, the external provisioner of the
//! cluster's default StorageClass, and the two protection controllers.
//!
//! Upstream: `pkg/controller/volume/persistentvolume/pv_controller.go` (`syncClaim →
//! syncUnboundClaim | syncBoundClaim`, `syncVolume`, `bind`, `findBestMatchForClaim`,
//! `provisionClaim` for an external provisioner), the external-provisioner sidecar of
//! `kubernetes-csi` (`ProvisionExt`, its `Provisioning` and `ProvisioningSucceeded`
//! Events, the deletion of a released volume whose reclaim policy is Delete), and
//! `pkg/controller/volume/pvcprotection` and `pvprotection`, v1.33.
//!
//! The cluster's storage is network-attached disks (the class `standard`, provisioner
//! [`PROVISIONER`], binding `Immediate`): a volume has no node affinity, so a claim
//! follows its Pod to whichever node the Pod lands on, attached there by the
//! attach/detach controller (`crate::controllers::attach_detach`). Not modelled:
//! `WaitForFirstConsumer` binding (such a claim waits with the binder's event; the
//! scheduler lets its Pod through), expansion, snapshots.

use super::{Controller, Ctx, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, DeleteOptions, ObjKey, Store};
use crate::client::writer;
use crate::client::{event_ref, Component, EventOnSuccess, Request};
use crate::time::{SimTime, SECOND};
use std::collections::BTreeMap;

/// The default class's provisioner (a CSI driver's name).
pub const PROVISIONER: &str = "disk.csi.kubeplay.dev";
/// The external provisioner's writer and Event source.
pub const EXTERNAL_PROVISIONER: &str = "disk.csi.kubeplay.dev_csi-provisioner";
/// The finalizer that keeps a claim in use by a Pod.
pub const PVC_PROTECTION: &str = "kubernetes.io/pvc-protection";
/// The finalizer that keeps a bound volume.
pub const PV_PROTECTION: &str = "kubernetes.io/pv-protection";
/// How long the simulated disk takes to create.
pub const PROVISION_DELAY: SimTime = 2 * SECOND;

const ANN_BIND_COMPLETED: &str = "pv.kubernetes.io/bind-completed";
const ANN_BOUND_BY_CONTROLLER: &str = "pv.kubernetes.io/bound-by-controller";
const ANN_STORAGE_PROVISIONER: &str = "volume.kubernetes.io/storage-provisioner";
const ANN_BETA_STORAGE_PROVISIONER: &str = "volume.beta.kubernetes.io/storage-provisioner";
const ANN_PROVISIONED_BY: &str = "pv.kubernetes.io/provisioned-by";

/// The cluster's default StorageClass, as a cluster installer creates it.
pub fn default_storage_class() -> StorageClass {
    let mut annotations = StringMap::new();
    annotations.insert(IS_DEFAULT_CLASS.into(), "true".into());
    StorageClass {
        metadata: ObjectMeta {
            name: "standard".into(),
            annotations,
            ..Default::default()
        },
        provisioner: PROVISIONER.into(),
        reclaim_policy: "Delete".into(),
        volume_binding_mode: "Immediate".into(),
        allow_volume_expansion: Some(true),
        ..Default::default()
    }
}

/// A quantity's value in bytes for comparing capacities (0 when unreadable).
fn bytes(q: &str) -> i64 {
    crate::api::quantity::parse_bytes(q).unwrap_or(0)
}

fn claim_key(c: &ClaimRef) -> ObjKey {
    ObjKey::new(&c.namespace, &c.name)
}

/// The PersistentVolume controller (the binder). Keys are (kind, key) for claims and
/// volumes; it remembers the last waiting Event per claim so a claim that keeps
/// waiting is not re-announced on every sync.
#[derive(Clone, Debug, Default)]
pub struct PersistentVolumeController {
    announced: BTreeMap<String, String>,
}

impl Controller for PersistentVolumeController {
    type Key = (Kind, ObjKey);
    type Timer = super::NoTimer;

    fn identity() -> Component {
        Component::named(writer::PERSISTENT_VOLUME_CONTROLLER)
    }

    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, (Kind, ObjKey), super::NoTimer>) {
        let (old, new) = (ch.old.as_deref(), ch.new.as_deref());
        match ch.kind {
            Kind::PersistentVolumeClaim => {
                if let Some(o) = new.or(old) {
                    ctx.enqueue((Kind::PersistentVolumeClaim, ObjKey::of(o.meta())));
                }
                // A claim gone releases its volume.
                if let (Some(Object::PersistentVolumeClaim(c)), None) = (old, new) {
                    if !c.spec.volume_name.is_empty() {
                        ctx.enqueue((Kind::PersistentVolume, ObjKey::new("", &c.spec.volume_name)));
                    }
                }
            }
            Kind::PersistentVolume => {
                for o in [old, new].into_iter().flatten() {
                    if let Object::PersistentVolume(v) = o {
                        ctx.enqueue((Kind::PersistentVolume, ObjKey::of(&v.metadata)));
                        if let Some(c) = &v.spec.claim_ref {
                            ctx.enqueue((Kind::PersistentVolumeClaim, claim_key(c)));
                        }
                    }
                }
            }
            Kind::StorageClass if old.is_none() => {
                for c in ctx.store.list::<PersistentVolumeClaim>() {
                    if c.spec.volume_name.is_empty() {
                        ctx.enqueue((Kind::PersistentVolumeClaim, ObjKey::of(&c.metadata)));
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(
        &mut self,
        key: &(Kind, ObjKey),
        ctx: &mut Ctx<'_, (Kind, ObjKey), super::NoTimer>,
    ) -> Reconcile {
        let store = ctx.store;
        let requests = match key.0 {
            Kind::PersistentVolume => match store.get::<PersistentVolume>(&key.1) {
                Some(v) => sync_volume(store, v, ctx.now),
                None => Vec::new(),
            },
            _ => match store.get::<PersistentVolumeClaim>(&key.1) {
                Some(c) => self.sync_claim(store, c, ctx.now),
                None => {
                    self.announced.retain(|k, _| *k != key.1.to_string());
                    Vec::new()
                }
            },
        };
        Reconcile {
            requests,
            ..Default::default()
        }
    }
}

impl PersistentVolumeController {
    /// `syncClaim`.
    pub fn sync_claim(
        &mut self,
        store: &Store,
        claim: &PersistentVolumeClaim,
        now: SimTime,
    ) -> Vec<Request> {
        if claim.spec.volume_name.is_empty() {
            return self.sync_unbound_claim(store, claim);
        }
        sync_bound_claim(store, claim, now)
    }

    /// `syncUnboundClaim`: bind a matching volume, or ask for one to be provisioned.
    fn sync_unbound_claim(&mut self, store: &Store, claim: &PersistentVolumeClaim) -> Vec<Request> {
        if let Some(pv) = find_best_match_for_claim(store, claim) {
            self.announced
                .remove(&ObjKey::of(&claim.metadata).to_string());
            return bind(claim, pv);
        }
        let class_name = claim.spec.storage_class_name.clone().unwrap_or_default();
        let mut out = Vec::new();
        let (type_, reason, message) = if class_name.is_empty() {
            (
                EventType::Normal,
                "FailedBinding",
                "no persistent volumes available for this claim and no storage class is set"
                    .to_string(),
            )
        } else {
            match store.get::<StorageClass>(&ObjKey::new("", &class_name)) {
                None => (
                    EventType::Warning,
                    "ProvisioningFailed",
                    format!("storageclass.storage.k8s.io \"{class_name}\" not found"),
                ),
                Some(sc) if sc.volume_binding_mode == "WaitForFirstConsumer" => (
                    EventType::Normal,
                    "WaitForFirstConsumer",
                    "waiting for first consumer to be created before binding".to_string(),
                ),
                Some(sc) => {
                    // `provisionClaim` for an external provisioner: annotate the claim
                    // for it and say who is expected to create the volume.
                    if claim.metadata.annotations.get(ANN_STORAGE_PROVISIONER)
                        != Some(&sc.provisioner)
                    {
                        let mut c = claim.clone();
                        c.metadata
                            .annotations
                            .insert(ANN_BETA_STORAGE_PROVISIONER.into(), sc.provisioner.clone());
                        c.metadata
                            .annotations
                            .insert(ANN_STORAGE_PROVISIONER.into(), sc.provisioner.clone());
                        out.push(Request::blind_update(c));
                    }
                    (
                        EventType::Normal,
                        "ExternalProvisioning",
                        format!(
                            "Waiting for a volume to be created either by the external provisioner '{}' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
                            sc.provisioner
                        ),
                    )
                }
            }
        };
        let k = ObjKey::of(&claim.metadata).to_string();
        if self.announced.get(&k).map(String::as_str) != Some(reason) {
            self.announced.insert(k, reason.to_string());
            out.push(Request::Event {
                involved: event_ref(Kind::PersistentVolumeClaim, &claim.metadata),
                type_,
                reason: reason.into(),
                message,
            });
        }
        out
    }
}

/// `findBestMatchForClaim`: a volume pre-bound to the claim, else the smallest
/// Available one of its class with its access modes and at least its size.
fn find_best_match_for_claim<'a>(
    store: &'a Store,
    claim: &PersistentVolumeClaim,
) -> Option<&'a PersistentVolume> {
    let class = claim.spec.storage_class_name.clone().unwrap_or_default();
    let want = bytes(claim.requested_storage());
    let mut best: Option<&PersistentVolume> = None;
    for pv in store.list::<PersistentVolume>() {
        if pv.metadata.is_deleting() {
            continue;
        }
        if let Some(r) = &pv.spec.claim_ref {
            let ours = r.namespace == claim.metadata.namespace
                && r.name == claim.metadata.name
                && (r.uid.is_empty() || r.uid == claim.metadata.uid);
            if ours {
                return Some(pv);
            }
            continue;
        }
        let fits = pv.spec.storage_class_name == class
            && claim
                .spec
                .access_modes
                .iter()
                .all(|m| pv.spec.access_modes.contains(m))
            && bytes(pv.spec.capacity.get("storage").map_or("", String::as_str)) >= want;
        if !fits {
            continue;
        }
        let size =
            |v: &PersistentVolume| bytes(v.spec.capacity.get("storage").map_or("", String::as_str));
        if best.is_none_or(|b| size(pv) < size(b)) {
            best = Some(pv);
        }
    }
    best
}

/// `bind`: the volume's claimRef and phase, then the claim's volumeName, annotations
/// and phase (four writes, as upstream makes them).
fn bind(claim: &PersistentVolumeClaim, pv: &PersistentVolume) -> Vec<Request> {
    let mut out = Vec::new();
    let mut v = pv.clone();
    let bound_here = v.spec.claim_ref.as_ref().is_none_or(|r| r.uid.is_empty());
    v.spec.claim_ref = Some(ClaimRef {
        api_version: "v1".into(),
        kind: "PersistentVolumeClaim".into(),
        name: claim.metadata.name.clone(),
        namespace: claim.metadata.namespace.clone(),
        uid: claim.metadata.uid.clone(),
        resource_version: claim.metadata.resource_version.clone(),
    });
    if bound_here && pv.spec.claim_ref.is_none() {
        v.metadata
            .annotations
            .insert(ANN_BOUND_BY_CONTROLLER.into(), "yes".into());
    }
    if v != *pv {
        out.push(Request::blind_update(v.clone()));
    }
    if v.status.phase != "Bound" {
        v.status.phase = "Bound".into();
        out.push(Request::blind_update_status(v));
    }
    let mut c = claim.clone();
    c.spec.volume_name = pv.metadata.name.clone();
    c.metadata
        .annotations
        .insert(ANN_BIND_COMPLETED.into(), "yes".into());
    c.metadata
        .annotations
        .insert(ANN_BOUND_BY_CONTROLLER.into(), "yes".into());
    out.push(Request::blind_update(c.clone()));
    c.status.phase = "Bound".into();
    c.status.access_modes = pv.spec.access_modes.clone();
    c.status.capacity = pv.spec.capacity.clone();
    out.push(Request::blind_update_status(c));
    out
}

/// `syncBoundClaim`: the volume must still exist and point back at the claim.
fn sync_bound_claim(store: &Store, claim: &PersistentVolumeClaim, _now: SimTime) -> Vec<Request> {
    let lost = |reason: &str, message: &str| {
        let mut out = Vec::new();
        if claim.status.phase != "Lost" {
            let mut c = claim.clone();
            c.status.phase = "Lost".into();
            out.push(Request::blind_update_status(c));
            out.push(Request::Event {
                involved: event_ref(Kind::PersistentVolumeClaim, &claim.metadata),
                type_: EventType::Warning,
                reason: reason.into(),
                message: message.into(),
            });
        }
        out
    };
    let Some(pv) = store.get::<PersistentVolume>(&ObjKey::new("", &claim.spec.volume_name)) else {
        return lost(
            "ClaimLost",
            "Bound claim has lost reference to PersistentVolume. Data on the volume is lost!",
        );
    };
    match &pv.spec.claim_ref {
        None => bind(claim, pv),
        Some(r) if r.uid == claim.metadata.uid => {
            if claim.status.phase != "Bound" {
                let mut c = claim.clone();
                c.status.phase = "Bound".into();
                c.status.access_modes = pv.spec.access_modes.clone();
                c.status.capacity = pv.spec.capacity.clone();
                vec![Request::blind_update_status(c)]
            } else {
                Vec::new()
            }
        }
        Some(_) => lost(
            "ClaimMisbound",
            "Two claims are bound to the same volume, this one is bound incorrectly",
        ),
    }
}

/// `syncVolume`: Available without a claim, Bound with its claim, Released when the
/// claim is gone (the reclaim policy then decides: Retain keeps it, Delete leaves it to
/// its provisioner).
fn sync_volume(store: &Store, pv: &PersistentVolume, now: SimTime) -> Vec<Request> {
    let phase = match &pv.spec.claim_ref {
        None => "Available",
        Some(r) if r.uid.is_empty() => "Available",
        Some(r) => match store.get::<PersistentVolumeClaim>(&claim_key(r)) {
            Some(c) if c.metadata.uid == r.uid => {
                if c.spec.volume_name == pv.metadata.name {
                    "Bound"
                } else {
                    // The claim is being bound: syncClaim finishes it.
                    return Vec::new();
                }
            }
            _ => "Released",
        },
    };
    if pv.status.phase == phase {
        return Vec::new();
    }
    let mut v = pv.clone();
    v.status.phase = phase.into();
    v.status.last_phase_transition_time = Some(crate::time::rfc3339(now));
    vec![Request::blind_update_status(v)]
}

/// The external provisioner of [`PROVISIONER`]: creates a volume for each claim
/// annotated for it (after [`PROVISION_DELAY`], the disk's creation), and deletes a
/// released volume whose reclaim policy is Delete.
#[derive(Clone, Debug, Default)]
pub struct ExternalProvisioner {
    started: BTreeMap<String, SimTime>,
}

impl Controller for ExternalProvisioner {
    type Key = (Kind, ObjKey);
    type Timer = super::NoTimer;

    fn identity() -> Component {
        Component::named(EXTERNAL_PROVISIONER)
    }

    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, (Kind, ObjKey), super::NoTimer>) {
        match ch.new.as_deref() {
            Some(Object::PersistentVolumeClaim(c))
                if c.spec.volume_name.is_empty()
                    && c.metadata.annotations.get(ANN_STORAGE_PROVISIONER)
                        == Some(&PROVISIONER.to_string()) =>
            {
                ctx.enqueue((Kind::PersistentVolumeClaim, ObjKey::of(&c.metadata)));
            }
            Some(Object::PersistentVolume(v))
                if v.status.phase == "Released"
                    && v.spec.persistent_volume_reclaim_policy == "Delete"
                    && v.metadata.annotations.get(ANN_PROVISIONED_BY)
                        == Some(&PROVISIONER.to_string())
                    && !v.metadata.is_deleting() =>
            {
                ctx.enqueue((Kind::PersistentVolume, ObjKey::of(&v.metadata)));
            }
            _ => {}
        }
    }

    fn sync(
        &mut self,
        key: &(Kind, ObjKey),
        ctx: &mut Ctx<'_, (Kind, ObjKey), super::NoTimer>,
    ) -> Reconcile {
        let mut out = Reconcile::default();
        let store = ctx.store;
        if key.0 == Kind::PersistentVolume {
            if let Some(v) = store.get::<PersistentVolume>(&key.1) {
                if v.status.phase == "Released" && !v.metadata.is_deleting() {
                    out.requests.push(Request::Delete {
                        kind: Kind::PersistentVolume,
                        key: key.1.clone(),
                        options: DeleteOptions::default(),
                        event: None,
                    });
                }
            }
            return out;
        }
        let Some(claim) = store.get::<PersistentVolumeClaim>(&key.1) else {
            self.started.remove(&key.1.to_string());
            return out;
        };
        let name = format!("pvc-{}", claim.metadata.uid);
        if !claim.spec.volume_name.is_empty()
            || claim.metadata.is_deleting()
            || store
                .get::<PersistentVolume>(&ObjKey::new("", &name))
                .is_some()
        {
            self.started.remove(&key.1.to_string());
            return out;
        }
        let class = claim.spec.storage_class_name.clone().unwrap_or_default();
        let Some(sc) = store.get::<StorageClass>(&ObjKey::new("", &class)) else {
            return out;
        };
        let involved = event_ref(Kind::PersistentVolumeClaim, &claim.metadata);
        let since = match self.started.get(&key.1.to_string()) {
            Some(t) => *t,
            None => {
                self.started.insert(key.1.to_string(), ctx.now);
                out.requests.push(Request::Event {
                    involved: involved.clone(),
                    type_: EventType::Normal,
                    reason: "Provisioning".into(),
                    message: format!(
                        "External provisioner is provisioning volume for claim \"{}/{}\"",
                        claim.metadata.namespace, claim.metadata.name
                    ),
                });
                ctx.now
            }
        };
        if ctx.now < since + PROVISION_DELAY {
            out.requeue_after = Some(since + PROVISION_DELAY - ctx.now);
            return out;
        }
        let mut annotations = StringMap::new();
        annotations.insert(ANN_PROVISIONED_BY.into(), PROVISIONER.into());
        let mut capacity = StringMap::new();
        capacity.insert("storage".into(), claim.requested_storage().to_string());
        let mut source = BTreeMap::new();
        source.insert(
            "csi".to_string(),
            serde_json::json!({
                "driver": PROVISIONER,
                "fsType": "ext4",
                "volumeHandle": format!("disk-{}", &claim.metadata.uid[..8.min(claim.metadata.uid.len())]),
            }),
        );
        let pv = PersistentVolume {
            metadata: ObjectMeta {
                name: name.clone(),
                annotations,
                ..Default::default()
            },
            spec: PersistentVolumeSpec {
                capacity,
                access_modes: claim.spec.access_modes.clone(),
                claim_ref: Some(ClaimRef {
                    api_version: "v1".into(),
                    kind: "PersistentVolumeClaim".into(),
                    name: claim.metadata.name.clone(),
                    namespace: claim.metadata.namespace.clone(),
                    uid: claim.metadata.uid.clone(),
                    resource_version: claim.metadata.resource_version.clone(),
                }),
                persistent_volume_reclaim_policy: sc.reclaim_policy.clone(),
                storage_class_name: class,
                volume_mode: claim.spec.volume_mode.clone(),
                node_affinity: None,
                source,
            },
            status: Default::default(),
        };
        out.requests.push(Request::Create {
            object: Object::PersistentVolume(Box::new(pv)),
            event: Some(EventOnSuccess {
                involved,
                type_: EventType::Normal,
                reason: "ProvisioningSucceeded",
                message_prefix: "Successfully provisioned volume ",
                on_failure: None,
            }),
        });
        out
    }
}

/// Pods that mount the claim `ns/name` and may still use it (not finished).
fn claim_in_use(store: &Store, ns: &str, name: &str) -> bool {
    store.list::<Pod>().any(|p| {
        p.metadata.namespace == ns
            && !p.is_terminal()
            && pod_volumes(&p.spec)
                .iter()
                .any(|(_, s)| matches!(s, VolumeSource::Claim(c) if c == name))
    })
}

/// The PVC protection controller: a deleted claim keeps its finalizer while a Pod
/// still uses it.
#[derive(Clone, Debug, Default)]
pub struct PvcProtectionController;

impl Controller for PvcProtectionController {
    type Key = ObjKey;
    type Timer = super::NoTimer;

    fn identity() -> Component {
        Component::named(writer::PVC_PROTECTION_CONTROLLER)
    }

    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, super::NoTimer>) {
        match ch.kind {
            Kind::PersistentVolumeClaim => {
                if let Some(Object::PersistentVolumeClaim(c)) = ch.new.as_deref() {
                    if c.metadata.is_deleting()
                        && c.metadata.finalizers.iter().any(|f| f == PVC_PROTECTION)
                    {
                        ctx.enqueue(ObjKey::of(&c.metadata));
                    }
                }
            }
            Kind::Pod => {
                // A Pod gone or finished may free its claims.
                let Some(Object::Pod(p)) = ch.old.as_deref() else {
                    return;
                };
                let gone = match ch.new.as_deref() {
                    None => true,
                    Some(Object::Pod(n)) => n.is_terminal() && !p.is_terminal(),
                    _ => false,
                };
                if !gone || p.spec.volumes.is_empty() {
                    return;
                }
                for (_, s) in pod_volumes(&p.spec) {
                    if let VolumeSource::Claim(c) = s {
                        let key = ObjKey::new(&p.metadata.namespace, &c);
                        if ctx
                            .store
                            .get::<PersistentVolumeClaim>(&key)
                            .is_some_and(|c| c.metadata.is_deleting())
                        {
                            ctx.enqueue(key);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, super::NoTimer>) -> Reconcile {
        let mut out = Reconcile::default();
        let Some(c) = ctx.store.get::<PersistentVolumeClaim>(key) else {
            return out;
        };
        if !c.metadata.is_deleting()
            || !c.metadata.finalizers.iter().any(|f| f == PVC_PROTECTION)
            || claim_in_use(ctx.store, &key.namespace, &key.name)
        {
            return out;
        }
        let mut c = c.clone();
        c.metadata.finalizers.retain(|f| f != PVC_PROTECTION);
        out.requests
            .push(Request::Update(Object::PersistentVolumeClaim(Box::new(c))));
        out
    }
}

/// The PV protection controller: a deleted volume keeps its finalizer while Bound.
#[derive(Clone, Debug, Default)]
pub struct PvProtectionController;

impl Controller for PvProtectionController {
    type Key = ObjKey;
    type Timer = super::NoTimer;

    fn identity() -> Component {
        Component::named(writer::PV_PROTECTION_CONTROLLER)
    }

    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, super::NoTimer>) {
        if let Some(Object::PersistentVolume(v)) = ch.new.as_deref() {
            if v.metadata.is_deleting() && v.metadata.finalizers.iter().any(|f| f == PV_PROTECTION)
            {
                ctx.enqueue(ObjKey::of(&v.metadata));
            }
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, super::NoTimer>) -> Reconcile {
        let mut out = Reconcile::default();
        let Some(v) = ctx.store.get::<PersistentVolume>(key) else {
            return out;
        };
        if !v.metadata.is_deleting() || v.status.phase == "Bound" {
            return out;
        }
        let mut v = v.clone();
        v.metadata.finalizers.retain(|f| f != PV_PROTECTION);
        out.requests
            .push(Request::Update(Object::PersistentVolume(Box::new(v))));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Rng;

    fn claim(class: Option<&str>) -> PersistentVolumeClaim {
        PersistentVolumeClaim {
            metadata: ObjectMeta {
                name: "data".into(),
                namespace: "default".into(),
                ..Default::default()
            },
            spec: PersistentVolumeClaimSpec {
                access_modes: vec!["ReadWriteOnce".into()],
                resources: VolumeResourceRequirements {
                    requests: [("storage".to_string(), "1Gi".to_string())].into(),
                    ..Default::default()
                },
                storage_class_name: class.map(str::to_string),
                ..Default::default()
            },
            status: Default::default(),
        }
    }

    fn volume(name: &str, size: &str, class: &str) -> PersistentVolume {
        PersistentVolume {
            metadata: ObjectMeta {
                name: name.into(),
                ..Default::default()
            },
            spec: PersistentVolumeSpec {
                capacity: [("storage".to_string(), size.to_string())].into(),
                access_modes: vec!["ReadWriteOnce".into(), "ReadOnlyMany".into()],
                storage_class_name: class.into(),
                persistent_volume_reclaim_policy: "Retain".into(),
                ..Default::default()
            },
            status: Default::default(),
        }
    }

    fn reasons(requests: &[Request]) -> Vec<String> {
        requests
            .iter()
            .map(|r| match r {
                Request::Update(o) => format!("update {}", o.meta().name),
                Request::UpdateStatus(o) => format!("status {}", o.meta().name),
                Request::Event { reason, .. } => format!("event {reason}"),
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn a_claim_binds_the_smallest_available_volume_that_fits() {
        let mut store = Store::new();
        let mut rng = Rng::new(1);
        for v in [
            volume("big", "10Gi", "manual"),
            volume("small", "2Gi", "manual"),
            volume("tiny", "500Mi", "manual"),
        ] {
            store
                .create(0, &mut rng, Object::PersistentVolume(Box::new(v)), "t")
                .unwrap();
        }
        store
            .create(
                0,
                &mut rng,
                Object::PersistentVolumeClaim(Box::new(claim(Some("manual")))),
                "t",
            )
            .unwrap();
        let c = store
            .get::<PersistentVolumeClaim>(&ObjKey::new("default", "data"))
            .unwrap();
        let r = PersistentVolumeController::default().sync_claim(&store, c, 0);
        assert_eq!(
            reasons(&r),
            vec!["update small", "status small", "update data", "status data"]
        );
        let Request::UpdateStatus(Object::PersistentVolumeClaim(bound)) = &r[3] else {
            panic!()
        };
        assert_eq!(bound.status.phase, "Bound");
        assert_eq!(bound.status.capacity["storage"], "2Gi");
    }

    #[test]
    fn a_claim_of_the_default_class_asks_its_external_provisioner_once() {
        let mut store = Store::new();
        let mut rng = Rng::new(1);
        store
            .create(
                0,
                &mut rng,
                Object::StorageClass(default_storage_class()),
                "t",
            )
            .unwrap();
        store
            .create(
                0,
                &mut rng,
                Object::PersistentVolumeClaim(Box::new(claim(Some("standard")))),
                "t",
            )
            .unwrap();
        let c = store
            .get::<PersistentVolumeClaim>(&ObjKey::new("default", "data"))
            .unwrap();
        let mut ctl = PersistentVolumeController::default();
        assert_eq!(
            reasons(&ctl.sync_claim(&store, c, 0)),
            vec!["update data", "event ExternalProvisioning"]
        );
        let mut annotated = c.clone();
        annotated
            .metadata
            .annotations
            .insert(ANN_STORAGE_PROVISIONER.into(), PROVISIONER.into());
        assert!(ctl.sync_claim(&store, &annotated, 1).is_empty());
    }

    #[test]
    fn a_claim_of_a_missing_class_fails_provisioning_in_the_binders_words() {
        let mut store = Store::new();
        let mut rng = Rng::new(1);
        store
            .create(
                0,
                &mut rng,
                Object::PersistentVolumeClaim(Box::new(claim(Some("fast")))),
                "t",
            )
            .unwrap();
        let c = store
            .get::<PersistentVolumeClaim>(&ObjKey::new("default", "data"))
            .unwrap();
        let r = PersistentVolumeController::default().sync_claim(&store, c, 0);
        let Some(Request::Event {
            reason, message, ..
        }) = r.first()
        else {
            panic!("{r:?}")
        };
        assert_eq!(reason, "ProvisioningFailed");
        assert_eq!(message, "storageclass.storage.k8s.io \"fast\" not found");
    }
}
