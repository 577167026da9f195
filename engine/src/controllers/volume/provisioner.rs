//! The external provisioner of the default class (the `kubernetes-csi`
//! external-provisioner sidecar): a volume for each claim handed to it, after the disk's
//! creation, and the deletion of a released volume whose reclaim policy is Delete.

use super::{
    ANN_PROVISIONED_BY, ANN_STORAGE_PROVISIONER, EXTERNAL_PROVISIONER, PROVISIONER, PROVISION_DELAY,
};
use crate::api::*;
use crate::apiserver::{Change, DeleteOptions, ObjKey};
use crate::client::{event_ref, Component, EventOnSuccess, Request};
use crate::controllers::{Controller, Ctx, NoTimer, Reconcile};
use crate::time::SimTime;
use std::collections::BTreeMap;

/// The external provisioner of [`PROVISIONER`]: creates a volume for each claim
/// annotated for it (after [`PROVISION_DELAY`], the disk's creation), and deletes a
/// released volume whose reclaim policy is Delete.
#[derive(Clone, Debug, Default)]
pub struct ExternalProvisioner {
    started: BTreeMap<String, SimTime>,
}

impl Controller for ExternalProvisioner {
    type Key = (Kind, ObjKey);
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[
        Kind::PersistentVolumeClaim,
        Kind::PersistentVolume,
        Kind::StorageClass,
    ];

    fn identity() -> Component {
        Component::named(EXTERNAL_PROVISIONER)
    }

    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, (Kind, ObjKey), NoTimer>) {
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
        ctx: &mut Ctx<'_, (Kind, ObjKey), NoTimer>,
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
