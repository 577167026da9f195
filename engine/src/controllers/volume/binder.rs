//! The PersistentVolume controller, the binder (`pv_controller.go`): `syncClaim →
//! syncUnboundClaim | syncBoundClaim`, `findBestMatchForClaim`, `bind`, `syncVolume`, and
//! the hand-over of a claim of a provisioned class to its external provisioner.

use super::{
    bytes, claim_key, ANN_BETA_STORAGE_PROVISIONER, ANN_BIND_COMPLETED, ANN_BOUND_BY_CONTROLLER,
    ANN_STORAGE_PROVISIONER,
};
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::writer;
use crate::client::{event_ref, Component, Request};
use crate::controllers::{Controller, Ctx, NoTimer, Reconcile};
use crate::time::SimTime;
use std::collections::BTreeMap;

/// The PersistentVolume controller (the binder). Keys are (kind, key) for claims and
/// volumes; it remembers the last waiting Event per claim so a claim that keeps
/// waiting is not re-announced on every sync.
#[derive(Clone, Debug, Default)]
pub struct PersistentVolumeController {
    announced: BTreeMap<String, String>,
}

impl Controller for PersistentVolumeController {
    type Key = (Kind, ObjKey);
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[
        Kind::PersistentVolume,
        Kind::PersistentVolumeClaim,
        Kind::StorageClass,
        Kind::Pod,
        Kind::Node,
    ];

    fn identity() -> Component {
        Component::named(writer::PERSISTENT_VOLUME_CONTROLLER)
    }

    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, (Kind, ObjKey), NoTimer>) {
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
        ctx: &mut Ctx<'_, (Kind, ObjKey), NoTimer>,
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
