//! Services and their endpoints: `v1` Service, `discovery.k8s.io/v1` EndpointSlice and the
//! deprecated `v1` Endpoints, with upstream's field names and field order
//! (`k8s.io/api/core/v1/types.go`, `k8s.io/api/discovery/v1/types.go`).

use super::extra::{self, Extra};
use super::{ObjectMeta, ObjectReference, StringMap};
use crate::api::IntOrString;
use serde::{Deserialize, Serialize};

fn is_zero(v: &i64) -> bool {
    *v == 0
}
fn is_false(v: &bool) -> bool {
    !*v
}

/// `v1.ServicePort`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServicePort {
    /// The port's name (required when a Service has more than one port).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// `TCP` (the default), `UDP` or `SCTP`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub protocol: String,
    /// The port clients connect to on the cluster IP.
    #[serde(default)]
    pub port: i64,
    /// The Pods' port: a number, or the name of a container port (defaults to `port`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_port: Option<IntOrString>,
    /// The port on every node (NodePort and LoadBalancer Services).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub node_port: i64,
    /// Unmodelled fields (`appProtocol`), kept as written.
    #[serde(flatten, deserialize_with = "extra::service_port")]
    pub extra: Extra,
}

/// `v1.ServiceSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServiceSpec {
    /// The ports the Service exposes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<ServicePort>,
    /// The Pods it routes to. None: a Service without a selector, whose endpoints
    /// someone else manages (the controllers leave it alone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<StringMap>,
    /// The virtual IP (`None` for a headless Service).
    #[serde(
        default,
        rename = "clusterIP",
        skip_serializing_if = "String::is_empty"
    )]
    pub cluster_ip: String,
    /// `clusterIP` and, dual-stack, the other family's.
    #[serde(default, rename = "clusterIPs", skip_serializing_if = "Vec::is_empty")]
    pub cluster_ips: Vec<String>,
    /// `ClusterIP` (the default), `NodePort`, `LoadBalancer` or `ExternalName`.
    #[serde(default, rename = "type", skip_serializing_if = "String::is_empty")]
    pub type_: String,
    /// Extra IPs the nodes accept traffic for.
    #[serde(default, rename = "externalIPs", skip_serializing_if = "Vec::is_empty")]
    pub external_ips: Vec<String>,
    /// `None` (the default) or `ClientIP`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub session_affinity: String,
    /// `Cluster` (the default for NodePort) or `Local`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub external_traffic_policy: String,
    /// List not-ready Pods as ready endpoints (for peer discovery).
    #[serde(default, skip_serializing_if = "is_false")]
    pub publish_not_ready_addresses: bool,
    /// The IP families of the Service's cluster IPs: `[IPv4]` (the cluster is
    /// single-stack).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ip_families: Vec<String>,
    /// `SingleStack` (the default).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ip_family_policy: String,
    /// `Cluster` (the default) or `Local`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub internal_traffic_policy: String,
    /// Unmodelled fields (`externalName`, `loadBalancerIP`, …), kept as written.
    #[serde(flatten, deserialize_with = "extra::service_spec")]
    pub extra: Extra,
}

/// `v1.ServiceStatus`: the load balancer's ingress points (none here: no cloud).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServiceStatus {
    /// `{}` until a cloud provider fills it.
    #[serde(default = "empty_object")]
    pub load_balancer: serde_json::Value,
}

fn empty_object() -> serde_json::Value {
    serde_json::Value::Object(Default::default())
}

impl Default for ServiceStatus {
    fn default() -> Self {
        ServiceStatus {
            load_balancer: empty_object(),
        }
    }
}

/// `v1.Service`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Service {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: ServiceSpec,
    /// What is seen.
    #[serde(default)]
    pub status: ServiceStatus,
}

impl Service {
    /// `clusterIP: None`.
    pub fn is_headless(&self) -> bool {
        self.spec.cluster_ip == "None"
    }

    /// The type, `ClusterIP` when unset.
    pub fn type_or_default(&self) -> &str {
        if self.spec.type_.is_empty() {
            "ClusterIP"
        } else {
            &self.spec.type_
        }
    }
}

/// `discovery/v1.EndpointConditions`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EndpointConditions {
    /// Serving and not terminating (or the Service publishes not-ready addresses).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready: Option<bool>,
    /// The Pod is Ready, terminating or not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub serving: Option<bool>,
    /// The Pod is being deleted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminating: Option<bool>,
}

/// `discovery/v1.Endpoint`: one Pod behind a Service.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Endpoint {
    /// The Pod's IP.
    #[serde(default)]
    pub addresses: Vec<String>,
    /// Ready, serving, terminating.
    #[serde(default)]
    pub conditions: EndpointConditions,
    /// The Pod's hostname when it has one under the Service's subdomain.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hostname: String,
    /// The Pod.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_ref: Option<ObjectReference>,
    /// The Pod's node.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub node_name: String,
    /// The node's `topology.kubernetes.io/zone`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub zone: String,
    /// Where kube-proxy should prefer to send traffic to this endpoint: the EndpointSlice
    /// controller's zone hint for `trafficDistribution: PreferClose`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hints: Option<EndpointHints>,
}

/// `discovery/v1.EndpointHints`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EndpointHints {
    /// The zones whose traffic should go to this endpoint.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub for_zones: Vec<ForZone>,
    /// `forNodes` (alpha in v1.33, not acted on), kept as written.
    #[serde(flatten, deserialize_with = "extra::endpoint_hints")]
    pub extra: Extra,
}

/// `discovery/v1.ForZone`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
pub struct ForZone {
    /// The zone's name.
    #[serde(default)]
    pub name: String,
}

/// `discovery/v1.EndpointPort`.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EndpointPort {
    /// The Service port's name (`""` for a single unnamed port).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// TCP, UDP or SCTP.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// The Pods' port number (named target ports resolved per Pod).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<i64>,
    /// The Service port's appProtocol.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app_protocol: Option<String>,
}

/// `discovery/v1.EndpointSlice`: up to 100 endpoints of one Service sharing one port set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EndpointSlice {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// `IPv4` here.
    #[serde(default)]
    pub address_type: String,
    /// The endpoints (`null` in JSON when none, as upstream's placeholder slice).
    #[serde(default)]
    pub endpoints: Option<Vec<Endpoint>>,
    /// The ports every endpoint of the slice serves.
    #[serde(default)]
    pub ports: Option<Vec<EndpointPort>>,
}

/// `v1.EndpointAddress`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EndpointAddress {
    /// The Pod's IP.
    #[serde(default)]
    pub ip: String,
    /// The Pod's hostname under the Service's subdomain.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hostname: String,
    /// The Pod's node.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub node_name: String,
    /// The Pod.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_ref: Option<ObjectReference>,
}

/// `v1.EndpointPort` (of the deprecated Endpoints API).
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct V1EndpointPort {
    /// The Service port's name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The Pods' port number.
    #[serde(default)]
    pub port: i64,
    /// TCP, UDP or SCTP.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub protocol: String,
}

/// `v1.EndpointSubset`: addresses sharing one port set.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct EndpointSubset {
    /// Ready Pods.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub addresses: Vec<EndpointAddress>,
    /// Pods not ready (yet).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub not_ready_addresses: Vec<EndpointAddress>,
    /// The ports.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<V1EndpointPort>,
}

/// `v1.Endpoints`: the deprecated one-object-per-Service list of endpoints, still kept
/// by the endpoints controller in v1.33.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Endpoints {
    /// Object metadata (the Service's name).
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The addresses, grouped by port set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subsets: Vec<EndpointSubset>,
}
