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

//!
//! The files: the binder (`binder`), the external provisioner (`provisioner`) and the
//! protection controllers (`protection`); the class, finalizers and annotations they
//! share are here.

use crate::api::*;
use crate::apiserver::ObjKey;
use crate::time::{SimTime, SECOND};

mod binder;
mod protection;
mod provisioner;

pub use binder::PersistentVolumeController;
pub use protection::{PvProtectionController, PvcProtectionController};
pub use provisioner::ExternalProvisioner;

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

#[cfg(test)]
mod tests;
