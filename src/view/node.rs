//! The inspector's models: a Node's conditions, taints and Pods; a Pod's path (the
//! engine's read model).

use super::*;

pub use kubeplay_engine::explain::pod_path::{PodPath, StageState};

/// The path of Pod `name` (namespace default).
pub fn pod_path(c: &Cluster, name: &str) -> Option<PodPath> {
    kubeplay_engine::explain::pod_path::pod_path(
        c,
        &kubeplay_engine::apiserver::ObjKey::new("default", name),
    )
}

/// Conditions as (type, status, reason, message) rows.
pub(super) fn condition_rows(conditions: &[Condition]) -> Vec<(String, String, String, String)> {
    conditions
        .iter()
        .map(|c| {
            (
                c.type_.clone(),
                c.status.clone(),
                c.reason.clone(),
                c.message.clone(),
            )
        })
        .collect()
}

/// The inspector's view of a Node.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeDetail {
    /// Name.
    pub name: String,
    /// STATUS column.
    pub status: String,
    /// Conditions: (type, status, reason, message).
    pub conditions: Vec<(String, String, String, String)>,
    /// Taints as `key=value:Effect`.
    pub taints: Vec<String>,
    /// Cordoned.
    pub cordoned: bool,
    /// Powered on.
    pub powered: bool,
    /// Cut off from the API server.
    pub partitioned: bool,
    /// Pods on it.
    pub pods: Vec<NodePod>,
    /// The disks its Pods mount through PersistentVolumeClaims, in Pod order.
    pub volumes: Vec<NodeVolume>,
    /// Its kubelet has gone silent: since when, and when it goes NotReady.
    pub silence: Option<kubeplay_engine::explain::Silence>,
}

/// A Pod on a node as the node board lists it.
#[derive(Clone, Debug, PartialEq)]
pub struct NodePod {
    /// Name.
    pub name: String,
    /// STATUS column.
    pub status: String,
    /// Seconds until the taint-eviction controller deletes it.
    pub evict_in: Option<u64>,
    /// The DaemonSet that put it there (one Pod per eligible node), if one did.
    pub daemonset: Option<String>,
}

/// A disk mounted on a node: a Pod's PersistentVolumeClaim and the PersistentVolume
/// bound to it. A StatefulSet Pod's claim follows it to whichever node it lands on.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeVolume {
    /// The claim.
    pub claim: String,
    /// The PersistentVolume bound to it (None: not bound yet, or the claim is missing).
    pub volume: Option<String>,
    /// Its capacity, or the claim's phase while it is not bound (`Pending`, `missing`).
    pub size: String,
    /// The Pod that mounts it.
    pub pod: String,
}

/// The claims the Pods in `pods` mount, with their volumes.
fn node_volumes(c: &Cluster, pods: &[&Pod]) -> Vec<NodeVolume> {
    use kubeplay_engine::api::{pod_volumes, VolumeSource};
    let mut out = Vec::new();
    for p in pods {
        for (_, source) in pod_volumes(&p.spec) {
            let VolumeSource::Claim(claim) = source else {
                continue;
            };
            let pvc =
                c.store
                    .get::<PersistentVolumeClaim>(&kubeplay_engine::apiserver::ObjKey::new(
                        &p.metadata.namespace,
                        &claim,
                    ));
            let (volume, size) = match pvc {
                Some(pvc) if pvc.status.phase == "Bound" && !pvc.spec.volume_name.is_empty() => (
                    Some(pvc.spec.volume_name.clone()),
                    pvc.status
                        .capacity
                        .get("storage")
                        .cloned()
                        .unwrap_or_default(),
                ),
                Some(pvc) => (None, pvc.status.phase.clone()),
                None => (None, "missing".into()),
            };
            out.push(NodeVolume {
                claim,
                volume,
                size,
                pod: p.metadata.name.clone(),
            });
        }
    }
    out
}

/// Build the inspector view of node `name`.
pub fn node_detail(c: &Cluster, name: &str) -> Option<NodeDetail> {
    let n = c
        .store
        .get::<Node>(&kubeplay_engine::apiserver::ObjKey::new("", name))?;
    let pods: Vec<&Pod> = c.store.pods_on_node(name).collect();
    Some(NodeDetail {
        name: name.to_string(),
        status: node_status(n),
        conditions: condition_rows(&n.status.conditions),
        taints: n.spec.taints.iter().map(|t| t.to_string()).collect(),
        cordoned: n.spec.unschedulable,
        powered: c.node_up(name),
        partitioned: c.node_partitioned(name),
        pods: pods
            .iter()
            .map(|p| NodePod {
                name: p.metadata.name.clone(),
                status: pod_ready_status(p).1,
                evict_in: kubeplay_engine::explain::eviction_in(c, &p.metadata.uid),
                daemonset: p
                    .metadata
                    .controller_ref()
                    .filter(|r| r.kind == "DaemonSet")
                    .map(|r| r.name.clone()),
            })
            .collect(),
        volumes: node_volumes(c, &pods),
        silence: kubeplay_engine::explain::silence(c, name),
    })
}
