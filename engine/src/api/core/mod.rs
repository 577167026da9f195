//! `core/v1` (and `coordination.k8s.io/v1` Lease): Pod, Node, Event, Namespace, Lease,
//! LimitRange, ResourceQuota, ServiceAccount.
//!
//! The Pod and what it is made of are in `pod`, the Node in `node`; the smaller kinds
//! are here.

mod node;
mod pod;

pub use node::*;
pub use pod::*;

use super::extra::{self, Extra};
use super::{ObjectMeta, StringMap};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

fn is_zero(v: &i64) -> bool {
    *v == 0
}
fn is_false(v: &bool) -> bool {
    !*v
}

/// A `metav1.Time` that is unset: written as null, as Go writes a zero time.
fn null_if_empty<S: serde::Serializer>(v: &str, s: S) -> Result<S::Ok, S::Error> {
    if v.is_empty() {
        s.serialize_none()
    } else {
        s.serialize_str(v)
    }
}

/// `v1.ObjectReference` as Events carry it.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ObjectReference {
    /// Kind (every field is optional upstream; a ServiceAccount's `secrets` name only).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// Namespace.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Uid.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// API version.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
}

/// `v1.EventSource`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
pub struct EventSource {
    /// Reporting component, e.g. `default-scheduler`, `kubelet`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub component: String,
    /// Node name for kubelet events.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub host: String,
}

/// `v1.Event` (core/v1 shape, as `kubectl get events` and `describe` read it).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Event {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The object the event is about.
    #[serde(default)]
    pub involved_object: ObjectReference,
    /// CamelCase reason, e.g. `Scheduled`.
    #[serde(default)]
    pub reason: String,
    /// Human-readable message.
    #[serde(default)]
    pub message: String,
    /// Who reported it.
    #[serde(default)]
    pub source: EventSource,
    /// First occurrence (null when unset: an events.k8s.io writer's Event).
    #[serde(default, serialize_with = "null_if_empty")]
    pub first_timestamp: String,
    /// Last occurrence.
    #[serde(default, serialize_with = "null_if_empty")]
    pub last_timestamp: String,
    /// Occurrences (identical events are counted, not repeated).
    #[serde(default)]
    pub count: i64,
    /// `Normal` or `Warning`.
    #[serde(rename = "type", default)]
    pub type_: String,
    /// When an events.k8s.io recorder observed it (MicroTime); null for the core
    /// recorder's Events, as upstream writes them.
    #[serde(default)]
    pub event_time: Option<String>,
    /// The controller that reported it: the core recorder copies `source.component`
    /// (`record/event.go`'s `makeEvent`); always written, `""` included.
    #[serde(default)]
    pub reporting_component: String,
    /// Its instance: the core recorder copies `source.host`.
    #[serde(default)]
    pub reporting_instance: String,
    /// What was done (events.k8s.io writers set it).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub action: String,
    /// A second object it is about, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub related: Option<ObjectReference>,
    /// An events.k8s.io EventSeries (`count`, `lastObservedTime`), as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub series: Option<serde_json::Value>,
    /// Simulated ms of the first occurrence (not part of the API shape).
    #[serde(skip)]
    pub first_ms: u64,
    /// Simulated ms of the last occurrence (not part of the API shape).
    #[serde(skip)]
    pub last_ms: u64,
}

/// `v1.NamespaceSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
pub struct NamespaceSpec {
    /// `kubernetes`: held until the namespace controller has emptied the namespace.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub finalizers: Vec<String>,
}

/// `v1.NamespaceStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
pub struct NamespaceStatus {
    /// `Active` or `Terminating`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub phase: String,
}

/// `v1.Namespace` (cluster-scoped).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
pub struct Namespace {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Finalizers.
    #[serde(default)]
    pub spec: NamespaceSpec,
    /// Phase.
    #[serde(default)]
    pub status: NamespaceStatus,
}

/// `coordination.k8s.io/v1.LeaseSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LeaseSpec {
    /// The node name for node leases.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub holder_identity: String,
    /// 40 for node leases.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub lease_duration_seconds: i64,
    /// Last renewal (the kubelet's heartbeat).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub renew_time: Option<String>,
    /// Simulated ms behind `renew_time` (not part of the API shape).
    #[serde(skip)]
    pub renew_ms: u64,
    /// Unmodelled fields (`acquireTime`, `leaseTransitions`…), kept as written.
    #[serde(flatten, deserialize_with = "extra::lease_spec")]
    pub extra: Extra,
}

/// `coordination.k8s.io/v1.Lease`: node heartbeats live in namespace `kube-node-lease`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Lease {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Holder and renew time.
    #[serde(default)]
    pub spec: LeaseSpec,
}

/// `v1.LimitRangeItem`: the bounds and defaults of one type of thing (`Container`,
/// `Pod`, `PersistentVolumeClaim`) in a namespace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LimitRangeItem {
    /// `Container`, `Pod` or `PersistentVolumeClaim`.
    #[serde(rename = "type", default)]
    pub type_: String,
    /// The most each may use (a limit, and a request).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub max: StringMap,
    /// The least each must ask for (a request, and a limit).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub min: StringMap,
    /// The limit a container without one gets.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub default: StringMap,
    /// The request a container without one gets.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub default_request: StringMap,
    /// The largest limit ÷ request.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub max_limit_request_ratio: StringMap,
}

impl LimitRangeItem {
    /// Every resource the item names, sorted, once each.
    pub fn resources(&self) -> Vec<&String> {
        let mut keys: Vec<&String> = self
            .max
            .keys()
            .chain(self.min.keys())
            .chain(self.default.keys())
            .chain(self.default_request.keys())
            .chain(self.max_limit_request_ratio.keys())
            .collect();
        crate::sorting::sort(&mut keys);
        keys.dedup();
        keys
    }
}

/// `v1.LimitRangeSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LimitRangeSpec {
    /// The items, each for one type.
    #[serde(default)]
    pub limits: Vec<LimitRangeItem>,
}

/// `v1.LimitRange`: per-container (or per-Pod) bounds and defaults in a namespace,
/// enforced by the LimitRanger admission plugin.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
pub struct LimitRange {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The items.
    #[serde(default)]
    pub spec: LimitRangeSpec,
}

/// `v1.ResourceQuotaSpec`: the hard limits of a namespace's consumption.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResourceQuotaSpec {
    /// Resource name → quantity: `pods`, `requests.cpu`, `limits.memory`,
    /// `count/deployments.apps`…
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hard: StringMap,
    /// Scopes (`BestEffort`, `NotTerminating`…): kept, not evaluated.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<String>,
}

/// `v1.ResourceQuotaStatus`: what the quota controller counted.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResourceQuotaStatus {
    /// The enforced limits (a copy of `spec.hard`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub hard: StringMap,
    /// What the namespace uses of each.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub used: StringMap,
}

/// `v1.ResourceQuota`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
pub struct ResourceQuota {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The limits.
    #[serde(default)]
    pub spec: ResourceQuotaSpec,
    /// The counts.
    #[serde(default)]
    pub status: ResourceQuotaStatus,
}

/// The ServiceAccount every namespace has (the ServiceAccount controller's), which a
/// Pod that names none runs as.
pub const DEFAULT_SERVICE_ACCOUNT: &str = "default";

/// The ConfigMap with the cluster's CA bundle in every namespace (the root CA
/// publisher's), which the token volume projects.
pub const ROOT_CA_CONFIG_MAP: &str = "kube-root-ca.crt";

/// `v1.LocalObjectReference`: a name in the same namespace.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct LocalObjectReference {
    /// The name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
}

/// `v1.ServiceAccount`: an identity for processes in Pods. Every namespace has
/// `default`, which the ServiceAccount controller creates.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServiceAccount {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Secrets Pods running as it may use (legacy token Secrets among them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub secrets: Vec<ObjectReference>,
    /// Secrets added to the Pods running as it for pulling images.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub image_pull_secrets: Vec<LocalObjectReference>,
    /// False: its token is not mounted into Pods that do not ask for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub automount_service_account_token: Option<bool>,
}
