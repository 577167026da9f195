//! `v1.Node`: its spec (cordon, taints, Pod address ranges) and status (capacity,
//! conditions, addresses, images, attached volumes).

use super::is_false;
use crate::api::extra::{self, Extra};
use crate::api::{Condition, ConditionStatus, NodeConditionType, ObjectMeta, StringMap, Taint};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `v1.NodeSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NodeSpec {
    /// Cordoned.
    #[serde(default, skip_serializing_if = "is_false")]
    pub unschedulable: bool,
    /// Taints.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub taints: Vec<Taint>,
    /// The Pod address range, `podCIDR` on the wire (camelCase would say `podCidr`).
    #[serde(rename = "podCIDR", default, skip_serializing_if = "String::is_empty")]
    pub pod_cidr: String,
    /// Every Pod address range (`podCIDRs[0] == podCIDR`).
    #[serde(rename = "podCIDRs", default, skip_serializing_if = "Vec::is_empty")]
    pub pod_cidrs: Vec<String>,
    /// Unmodelled fields (`providerID`…), kept as written.
    #[serde(flatten, deserialize_with = "extra::node_spec")]
    pub extra: Extra,
}

/// `v1.NodeAddress`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
pub struct NodeAddress {
    /// `InternalIP`, `Hostname`.
    #[serde(rename = "type")]
    #[serde(default)]
    pub type_: String,
    /// The address.
    #[serde(default)]
    pub address: String,
}

/// `v1.NodeSystemInfo`. Its ten string fields are not `omitempty` upstream, so every
/// Node carries all of them, empty or not: clients generated from the OpenAPI (the
/// Python client among them) refuse a Node whose `nodeInfo` lacks one.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NodeSystemInfo {
    /// `machineID` (kubeplay's nodes report none).
    #[serde(rename = "machineID", default)]
    pub machine_id: String,
    /// `systemUUID` (kubeplay's nodes report none).
    #[serde(rename = "systemUUID", default)]
    pub system_uuid: String,
    /// `bootID` (kubeplay's nodes report none).
    #[serde(rename = "bootID", default)]
    pub boot_id: String,
    /// `kernelVersion` (kubeplay's nodes report none; kubectl prints `<unknown>`).
    #[serde(default)]
    pub kernel_version: String,
    /// `osImage`: `kubeplay (simulated)` on kubeplay's nodes.
    #[serde(default)]
    pub os_image: String,
    /// e.g. `containerd://2.0.4`.
    #[serde(default)]
    pub container_runtime_version: String,
    /// e.g. `v1.33.0`.
    #[serde(default)]
    pub kubelet_version: String,
    /// Deprecated and no longer set by the kubelet: always sent, empty.
    #[serde(default)]
    pub kube_proxy_version: String,
    /// `linux`.
    #[serde(default)]
    pub operating_system: String,
    /// `amd64`.
    #[serde(default)]
    pub architecture: String,
    /// Unmodelled fields (`swap`), kept as written.
    #[serde(flatten, deserialize_with = "extra::node_system_info")]
    pub extra: Extra,
}

/// `v1.NodeStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NodeStatus {
    /// Total resources.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub capacity: StringMap,
    /// What the scheduler may hand out.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub allocatable: StringMap,
    /// Ready, MemoryPressure, DiskPressure, PIDPressure.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// Addresses.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub addresses: Vec<NodeAddress>,
    /// Versions.
    #[serde(default)]
    pub node_info: NodeSystemInfo,
    /// Images present on the node, largest first (at most 50).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub images: Vec<ContainerImage>,
    /// The attachable volumes the kubelet has mounted (or is mounting), by unique name.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volumes_in_use: Vec<String>,
    /// The volumes the attach/detach controller attached to the node.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volumes_attached: Vec<AttachedVolume>,
    /// Unmodelled fields (`daemonEndpoints`, `features`…), kept as written.
    #[serde(flatten, deserialize_with = "extra::node_status")]
    pub extra: Extra,
}

/// `v1.AttachedVolume`: a volume attached to a node.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AttachedVolume {
    /// The volume's unique name (`kubernetes.io/csi/<driver>^<handle>`).
    #[serde(default)]
    pub name: String,
    /// Where it shows up on the node (empty for a CSI volume).
    #[serde(default)]
    pub device_path: String,
}

/// `v1.ContainerImage`: the names the runtime knows an image by, and its size.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ContainerImage {
    /// Digest and tag references, e.g. `docker.io/library/nginx@sha256:…` and
    /// `docker.io/library/nginx:1.27`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub names: Vec<String>,
    /// Bytes.
    #[serde(default)]
    pub size_bytes: i64,
}

/// `v1.Node`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Node {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: NodeSpec,
    /// What is seen.
    #[serde(default)]
    pub status: NodeStatus,
}

impl Node {
    /// Status of the Ready condition: `True`, `False`, `Unknown` (or `Unknown` if absent).
    pub fn ready_status(&self) -> &str {
        crate::api::get_condition(&self.status.conditions, NodeConditionType::Ready)
            .map(|c| c.status.as_str())
            .unwrap_or(ConditionStatus::Unknown.as_str())
    }
}
