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
    /// Pods on it: (name, STATUS, seconds to eviction).
    pub pods: Vec<(String, String, Option<u64>)>,
}

/// Build the inspector view of node `name`.
pub fn node_detail(c: &Cluster, name: &str) -> Option<NodeDetail> {
    let n = c
        .store
        .get::<Node>(&kubeplay_engine::apiserver::ObjKey::new("", name))?;
    Some(NodeDetail {
        name: name.to_string(),
        status: node_status(n),
        conditions: condition_rows(&n.status.conditions),
        taints: n.spec.taints.iter().map(|t| t.to_string()).collect(),
        cordoned: n.spec.unschedulable,
        powered: c.node_up(name),
        partitioned: c.node_partitioned(name),
        pods: c
            .store
            .pods_on_node(name)
            .map(|p| {
                (
                    p.metadata.name.clone(),
                    pod_ready_status(p).1,
                    kubeplay_engine::explain::eviction_in(c, &p.metadata.uid),
                )
            })
            .collect(),
    })
}
