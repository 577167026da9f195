//! `networking.k8s.io/v1`: Ingress, IngressClass, NetworkPolicy, ServiceCIDR and IPAddress, every field of
//! upstream's types (`k8s.io/api/networking/v1/types.go`) in its field order, written
//! as Go writes them: a struct field is always written even with `omitempty` (so
//! `spec: {}` and `status: {loadBalancer: {}}`), a pointer or slice with `omitempty`
//! only when set.

use super::{Condition, IntOrString, LabelSelector, ObjectMeta};
use serde::{Deserialize, Serialize};

fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// `v1.ServiceBackendPort`: a Service port by name or by number (one of them).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServiceBackendPort {
    /// The Service port's name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The Service port's number.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub number: i64,
}

/// `v1.IngressServiceBackend`: a Service in the Ingress's namespace.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IngressServiceBackend {
    /// The Service's name.
    #[serde(default)]
    pub name: String,
    /// Its port.
    #[serde(default)]
    pub port: ServiceBackendPort,
}

/// `v1.TypedLocalObjectReference`: an object in the same namespace (`apiGroup` is
/// written as `null` when unset: the Go field has no `omitempty`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TypedLocalObjectReference {
    /// The group (none for the core group).
    #[serde(default)]
    pub api_group: Option<String>,
    /// The kind.
    #[serde(default)]
    pub kind: String,
    /// The name.
    #[serde(default)]
    pub name: String,
}

/// `v1.IngressBackend`: a Service or another resource (exactly one).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IngressBackend {
    /// A Service backend.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<IngressServiceBackend>,
    /// A resource backend (a storage bucket…), which only the ingress controller reads.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<TypedLocalObjectReference>,
}

/// `v1.IngressTLS`: hosts served with one certificate's Secret.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IngressTLS {
    /// The hosts the certificate covers.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<String>,
    /// The Secret holding it.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub secret_name: String,
}

/// `v1.HTTPIngressPath`: a path and where its requests go.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HTTPIngressPath {
    /// The path (`/` when unset, for the ingress controller).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub path: String,
    /// `Exact`, `Prefix` or `ImplementationSpecific` (required; `null` when missing).
    #[serde(default)]
    pub path_type: Option<String>,
    /// Where matching requests go.
    #[serde(default)]
    pub backend: IngressBackend,
}

/// `v1.HTTPIngressRuleValue`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HTTPIngressRuleValue {
    /// The paths, matched longest first (`null` when none: required).
    #[serde(default)]
    pub paths: Option<Vec<HTTPIngressPath>>,
}

/// `v1.IngressRule`: a host (or every host) and its HTTP paths.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IngressRule {
    /// The host; empty for every host; `*.example.com` for one level of subdomain.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub host: String,
    /// The HTTP paths (`IngressRuleValue`, inline).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub http: Option<HTTPIngressRuleValue>,
}

/// `v1.IngressSpec`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IngressSpec {
    /// The IngressClass that implements this Ingress.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ingress_class_name: Option<String>,
    /// Where requests no rule matches go.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub default_backend: Option<IngressBackend>,
    /// TLS termination.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tls: Vec<IngressTLS>,
    /// Host and path rules.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<IngressRule>,
}

/// `v1.IngressPortStatus`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IngressPortStatus {
    /// The port.
    #[serde(default)]
    pub port: i64,
    /// TCP, UDP or SCTP.
    #[serde(default)]
    pub protocol: String,
    /// A problem with the port, in `CamelCase` or `domain/CamelCase`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// `v1.IngressLoadBalancerIngress`: one address the Ingress is reached at.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IngressLoadBalancerIngress {
    /// An IP address.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ip: String,
    /// A DNS name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub hostname: String,
    /// Its ports.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<IngressPortStatus>,
}

/// `v1.IngressLoadBalancerStatus`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IngressLoadBalancerStatus {
    /// The addresses, set by the ingress controller.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ingress: Vec<IngressLoadBalancerIngress>,
}

/// `v1.IngressStatus`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IngressStatus {
    /// Where the Ingress is reached.
    #[serde(default)]
    pub load_balancer: IngressLoadBalancerStatus,
}

/// `networking.k8s.io/v1.Ingress`: HTTP routes from outside the cluster to Services,
/// implemented by the ingress controller its class names.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Ingress {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: IngressSpec,
    /// What is seen.
    #[serde(default)]
    pub status: IngressStatus,
}

impl Ingress {
    /// The class: `spec.ingressClassName`, else the deprecated
    /// `kubernetes.io/ingress.class` annotation.
    pub fn class_name(&self) -> Option<&str> {
        self.spec.ingress_class_name.as_deref().or_else(|| {
            self.metadata
                .annotations
                .get(INGRESS_CLASS_ANNOTATION)
                .map(String::as_str)
        })
    }
}

/// The deprecated annotation that named an Ingress's class before `ingressClassName`.
pub const INGRESS_CLASS_ANNOTATION: &str = "kubernetes.io/ingress.class";
/// The annotation that makes an IngressClass the default for Ingresses without one.
pub const DEFAULT_INGRESS_CLASS_ANNOTATION: &str = "ingressclass.kubernetes.io/is-default-class";

/// `v1.IngressClassParametersReference`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IngressClassParametersReference {
    /// The group (none for the core group).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_group: Option<String>,
    /// The kind.
    #[serde(default)]
    pub kind: String,
    /// The name.
    #[serde(default)]
    pub name: String,
    /// `Cluster` (the default when parameters are set) or `Namespace`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
    /// The namespace, with scope `Namespace`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace: Option<String>,
}

/// `v1.IngressClassSpec`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IngressClassSpec {
    /// The controller that implements the class, e.g. `k8s.io/ingress-nginx`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub controller: String,
    /// The controller's configuration object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameters: Option<IngressClassParametersReference>,
}

/// `networking.k8s.io/v1.IngressClass` (cluster-scoped): which controller implements
/// the Ingresses that name it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IngressClass {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: IngressClassSpec,
}

impl IngressClass {
    /// Marked as the default class.
    pub fn is_default(&self) -> bool {
        self.metadata
            .annotations
            .get(DEFAULT_INGRESS_CLASS_ANNOTATION)
            .is_some_and(|v| v == "true")
    }
}

/// `v1.IPBlock`: a CIDR, minus some CIDRs inside it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IPBlock {
    /// `10.0.0.0/16`.
    #[serde(default)]
    pub cidr: String,
    /// CIDRs taken out of it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub except: Vec<String>,
}

/// `v1.NetworkPolicyPeer`: Pods (by Pod and namespace selector) or an IP block.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NetworkPolicyPeer {
    /// Pods, in the policy's namespace unless a namespace selector is given too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_selector: Option<LabelSelector>,
    /// Namespaces (all their Pods, or those the Pod selector picks).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace_selector: Option<LabelSelector>,
    /// Addresses.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ip_block: Option<IPBlock>,
}

/// `v1.NetworkPolicyPort`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NetworkPolicyPort {
    /// TCP (the default), UDP or SCTP.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub protocol: Option<String>,
    /// A port number or a named container port; every port when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<IntOrString>,
    /// The last port of a range starting at `port`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end_port: Option<i64>,
}

/// `v1.NetworkPolicyIngressRule`: traffic allowed in, from peers to ports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NetworkPolicyIngressRule {
    /// The ports (every port when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<NetworkPolicyPort>,
    /// The sources (every source when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub from: Vec<NetworkPolicyPeer>,
}

/// `v1.NetworkPolicyEgressRule`: traffic allowed out, to peers on ports.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NetworkPolicyEgressRule {
    /// The ports (every port when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ports: Vec<NetworkPolicyPort>,
    /// The destinations (every destination when empty).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub to: Vec<NetworkPolicyPeer>,
}

/// `v1.NetworkPolicySpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NetworkPolicySpec {
    /// The Pods the policy isolates (`{}`: every Pod of the namespace).
    #[serde(default)]
    pub pod_selector: LabelSelector,
    /// Allowed incoming traffic.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ingress: Vec<NetworkPolicyIngressRule>,
    /// Allowed outgoing traffic.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub egress: Vec<NetworkPolicyEgressRule>,
    /// `Ingress`, `Egress` or both: the directions the selected Pods are isolated in.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub policy_types: Vec<String>,
}

/// `networking.k8s.io/v1.NetworkPolicy`: which traffic the selected Pods accept and
/// send, enforced by the network plugin.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NetworkPolicy {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: NetworkPolicySpec,
}

impl NetworkPolicy {
    /// True if the policy isolates its Pods for incoming traffic.
    pub fn isolates_ingress(&self) -> bool {
        self.spec.policy_types.iter().any(|t| t == "Ingress")
    }

    /// True if the policy isolates its Pods for outgoing traffic.
    pub fn isolates_egress(&self) -> bool {
        self.spec.policy_types.iter().any(|t| t == "Egress")
    }
}

/// `networking.k8s.io/v1` ServiceCIDR (cluster-scoped): a range the API server allocates
/// Services' ClusterIPs from. The API server creates the default one, `kubernetes`,
/// from its `--service-cluster-ip-range`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServiceCIDR {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: ServiceCIDRSpec,
    /// What the ServiceCIDR controller observed.
    #[serde(default)]
    pub status: ServiceCIDRStatus,
}

/// `v1.ServiceCIDRSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServiceCIDRSpec {
    /// At most two CIDRs, one per IP family (`10.96.0.0/12`); immutable.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cidrs: Vec<String>,
}

/// `v1.ServiceCIDRStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServiceCIDRStatus {
    /// `Ready`: whether ClusterIPs may be allocated from it.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

/// `networking.k8s.io/v1` IPAddress (cluster-scoped): one allocated ClusterIP, named by
/// the address itself, pointing at the Service that holds it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IPAddress {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: IPAddressSpec,
}

/// `v1.IPAddressSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct IPAddressSpec {
    /// The object the address is allocated to; required and immutable.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent_ref: Option<ParentReference>,
}

/// `v1.ParentReference`: the object an IPAddress belongs to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ParentReference {
    /// Its API group (empty: the core group).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub group: String,
    /// Its resource, e.g. `services`.
    #[serde(default)]
    pub resource: String,
    /// Its namespace.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Its name.
    #[serde(default)]
    pub name: String,
}
