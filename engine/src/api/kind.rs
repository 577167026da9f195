//! [`Kind`]: the kinds the API server serves, with their names, groups and scope.

use super::*;
use serde::Serialize;

/// The kinds the API server serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub enum Kind {
    /// `apps/v1` Deployment.
    Deployment,
    /// `apps/v1` ReplicaSet.
    ReplicaSet,
    /// `v1` Pod.
    Pod,
    /// `v1` Node (cluster-scoped).
    Node,
    /// `v1` Event.
    Event,
    /// `coordination.k8s.io/v1` Lease.
    Lease,
    /// `v1` Namespace (cluster-scoped).
    Namespace,
    /// `policy/v1` PodDisruptionBudget.
    PodDisruptionBudget,
    /// `scheduling.k8s.io/v1` PriorityClass (cluster-scoped).
    PriorityClass,
    /// `v1` Service.
    Service,
    /// `discovery.k8s.io/v1` EndpointSlice.
    EndpointSlice,
    /// `v1` Endpoints (deprecated in v1.33, still served and kept).
    Endpoints,
    /// `rbac.authorization.k8s.io/v1` Role.
    Role,
    /// `rbac.authorization.k8s.io/v1` ClusterRole (cluster-scoped).
    ClusterRole,
    /// `rbac.authorization.k8s.io/v1` RoleBinding.
    RoleBinding,
    /// `rbac.authorization.k8s.io/v1` ClusterRoleBinding (cluster-scoped).
    ClusterRoleBinding,
    /// `v1` ResourceQuota.
    ResourceQuota,
    /// `v1` LimitRange.
    LimitRange,
    /// `batch/v1` Job.
    Job,
    /// `batch/v1` CronJob.
    CronJob,
    /// `apps/v1` DaemonSet.
    DaemonSet,
    /// `apps/v1` StatefulSet.
    StatefulSet,
    /// `apps/v1` ControllerRevision.
    ControllerRevision,
    /// `v1` PersistentVolumeClaim.
    PersistentVolumeClaim,
    /// `v1` PersistentVolume (cluster-scoped).
    PersistentVolume,
    /// `storage.k8s.io/v1` StorageClass (cluster-scoped).
    StorageClass,
    /// `v1` ConfigMap.
    ConfigMap,
    /// `v1` Secret.
    Secret,
    /// `autoscaling/v2` HorizontalPodAutoscaler.
    HorizontalPodAutoscaler,
    /// `v1` ServiceAccount.
    ServiceAccount,
    /// `networking.k8s.io/v1` Ingress.
    Ingress,
    /// `networking.k8s.io/v1` IngressClass (cluster-scoped).
    IngressClass,
    /// `networking.k8s.io/v1` NetworkPolicy.
    NetworkPolicy,
    /// `networking.k8s.io/v1` ServiceCIDR (cluster-scoped).
    ServiceCIDR,
    /// `networking.k8s.io/v1` IPAddress (cluster-scoped).
    IPAddress,
    /// `apiextensions.k8s.io/v1` CustomResourceDefinition (cluster-scoped).
    CustomResourceDefinition,
    /// `admissionregistration.k8s.io/v1` ValidatingAdmissionPolicy (cluster-scoped).
    ValidatingAdmissionPolicy,
    /// `admissionregistration.k8s.io/v1` ValidatingAdmissionPolicyBinding
    /// (cluster-scoped).
    ValidatingAdmissionPolicyBinding,
    /// `admissionregistration.k8s.io/v1` ValidatingWebhookConfiguration
    /// (cluster-scoped).
    ValidatingWebhookConfiguration,
    /// A custom resource a CustomResourceDefinition serves (not in [`Kind::ALL`]: the
    /// store learns them as definitions are made).
    Custom(CustomKind),
}

impl Kind {
    /// Every kind, in a fixed order.
    pub const ALL: [Kind; 39] = [
        Kind::Deployment,
        Kind::ReplicaSet,
        Kind::Pod,
        Kind::Node,
        Kind::Event,
        Kind::Lease,
        Kind::Namespace,
        Kind::PodDisruptionBudget,
        Kind::PriorityClass,
        Kind::Service,
        Kind::EndpointSlice,
        Kind::Endpoints,
        Kind::Role,
        Kind::ClusterRole,
        Kind::RoleBinding,
        Kind::ClusterRoleBinding,
        Kind::ResourceQuota,
        Kind::LimitRange,
        Kind::Job,
        Kind::CronJob,
        Kind::DaemonSet,
        Kind::StatefulSet,
        Kind::ControllerRevision,
        Kind::PersistentVolumeClaim,
        Kind::PersistentVolume,
        Kind::StorageClass,
        Kind::ConfigMap,
        Kind::Secret,
        Kind::HorizontalPodAutoscaler,
        Kind::ServiceAccount,
        Kind::Ingress,
        Kind::IngressClass,
        Kind::NetworkPolicy,
        Kind::ServiceCIDR,
        Kind::IPAddress,
        Kind::CustomResourceDefinition,
        Kind::ValidatingAdmissionPolicy,
        Kind::ValidatingAdmissionPolicyBinding,
        Kind::ValidatingWebhookConfiguration,
    ];

    /// The built-in kind's place in [`Kind::ALL`] (None for a custom resource).
    pub fn index(self) -> Option<usize> {
        Some(match self {
            Kind::Deployment => 0,
            Kind::ReplicaSet => 1,
            Kind::Pod => 2,
            Kind::Node => 3,
            Kind::Event => 4,
            Kind::Lease => 5,
            Kind::Namespace => 6,
            Kind::PodDisruptionBudget => 7,
            Kind::PriorityClass => 8,
            Kind::Service => 9,
            Kind::EndpointSlice => 10,
            Kind::Endpoints => 11,
            Kind::Role => 12,
            Kind::ClusterRole => 13,
            Kind::RoleBinding => 14,
            Kind::ClusterRoleBinding => 15,
            Kind::ResourceQuota => 16,
            Kind::LimitRange => 17,
            Kind::Job => 18,
            Kind::CronJob => 19,
            Kind::DaemonSet => 20,
            Kind::StatefulSet => 21,
            Kind::ControllerRevision => 22,
            Kind::PersistentVolumeClaim => 23,
            Kind::PersistentVolume => 24,
            Kind::StorageClass => 25,
            Kind::ConfigMap => 26,
            Kind::Secret => 27,
            Kind::HorizontalPodAutoscaler => 28,
            Kind::ServiceAccount => 29,
            Kind::Ingress => 30,
            Kind::IngressClass => 31,
            Kind::NetworkPolicy => 32,
            Kind::ServiceCIDR => 33,
            Kind::IPAddress => 34,
            Kind::CustomResourceDefinition => 35,
            Kind::ValidatingAdmissionPolicy => 36,
            Kind::ValidatingAdmissionPolicyBinding => 37,
            Kind::ValidatingWebhookConfiguration => 38,
            Kind::Custom(_) => return None,
        })
    }

    /// The Kind name, e.g. `ReplicaSet`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Deployment => "Deployment",
            Kind::ReplicaSet => "ReplicaSet",
            Kind::Pod => "Pod",
            Kind::Node => "Node",
            Kind::Event => "Event",
            Kind::Lease => "Lease",
            Kind::Namespace => "Namespace",
            Kind::PodDisruptionBudget => "PodDisruptionBudget",
            Kind::PriorityClass => "PriorityClass",
            Kind::Service => "Service",
            Kind::EndpointSlice => "EndpointSlice",
            Kind::Endpoints => "Endpoints",
            Kind::Role => "Role",
            Kind::ClusterRole => "ClusterRole",
            Kind::RoleBinding => "RoleBinding",
            Kind::ClusterRoleBinding => "ClusterRoleBinding",
            Kind::ResourceQuota => "ResourceQuota",
            Kind::LimitRange => "LimitRange",
            Kind::Job => "Job",
            Kind::CronJob => "CronJob",
            Kind::DaemonSet => "DaemonSet",
            Kind::StatefulSet => "StatefulSet",
            Kind::ControllerRevision => "ControllerRevision",
            Kind::PersistentVolumeClaim => "PersistentVolumeClaim",
            Kind::PersistentVolume => "PersistentVolume",
            Kind::StorageClass => "StorageClass",
            Kind::ConfigMap => "ConfigMap",
            Kind::Secret => "Secret",
            Kind::HorizontalPodAutoscaler => "HorizontalPodAutoscaler",
            Kind::ServiceAccount => "ServiceAccount",
            Kind::Ingress => "Ingress",
            Kind::IngressClass => "IngressClass",
            Kind::NetworkPolicy => "NetworkPolicy",
            Kind::ServiceCIDR => "ServiceCIDR",
            Kind::IPAddress => "IPAddress",
            Kind::CustomResourceDefinition => "CustomResourceDefinition",
            Kind::ValidatingAdmissionPolicy => "ValidatingAdmissionPolicy",
            Kind::ValidatingAdmissionPolicyBinding => "ValidatingAdmissionPolicyBinding",
            Kind::ValidatingWebhookConfiguration => "ValidatingWebhookConfiguration",
            Kind::Custom(t) => &t.ty.kind,
        }
    }

    /// `apiVersion`.
    pub fn api_version(self) -> &'static str {
        match self {
            Kind::Deployment
            | Kind::ReplicaSet
            | Kind::DaemonSet
            | Kind::StatefulSet
            | Kind::ControllerRevision => "apps/v1",
            Kind::StorageClass => "storage.k8s.io/v1",
            Kind::HorizontalPodAutoscaler => "autoscaling/v2",
            Kind::Lease => "coordination.k8s.io/v1",
            Kind::Job | Kind::CronJob => "batch/v1",
            Kind::PodDisruptionBudget => "policy/v1",
            Kind::PriorityClass => "scheduling.k8s.io/v1",
            Kind::EndpointSlice => "discovery.k8s.io/v1",
            Kind::Ingress
            | Kind::IngressClass
            | Kind::NetworkPolicy
            | Kind::ServiceCIDR
            | Kind::IPAddress => "networking.k8s.io/v1",
            Kind::CustomResourceDefinition => "apiextensions.k8s.io/v1",
            Kind::ValidatingAdmissionPolicy
            | Kind::ValidatingAdmissionPolicyBinding
            | Kind::ValidatingWebhookConfiguration => "admissionregistration.k8s.io/v1",
            Kind::Custom(t) => &t.api_version,
            Kind::Role | Kind::ClusterRole | Kind::RoleBinding | Kind::ClusterRoleBinding => {
                "rbac.authorization.k8s.io/v1"
            }
            _ => "v1",
        }
    }

    /// The plural resource, e.g. `replicasets`.
    pub fn resource(self) -> &'static str {
        match self {
            Kind::Deployment => "deployments",
            Kind::ReplicaSet => "replicasets",
            Kind::Pod => "pods",
            Kind::Node => "nodes",
            Kind::Event => "events",
            Kind::Lease => "leases",
            Kind::Namespace => "namespaces",
            Kind::PodDisruptionBudget => "poddisruptionbudgets",
            Kind::PriorityClass => "priorityclasses",
            Kind::Service => "services",
            Kind::EndpointSlice => "endpointslices",
            Kind::Endpoints => "endpoints",
            Kind::Role => "roles",
            Kind::ClusterRole => "clusterroles",
            Kind::RoleBinding => "rolebindings",
            Kind::ClusterRoleBinding => "clusterrolebindings",
            Kind::ResourceQuota => "resourcequotas",
            Kind::LimitRange => "limitranges",
            Kind::Job => "jobs",
            Kind::CronJob => "cronjobs",
            Kind::DaemonSet => "daemonsets",
            Kind::StatefulSet => "statefulsets",
            Kind::ControllerRevision => "controllerrevisions",
            Kind::PersistentVolumeClaim => "persistentvolumeclaims",
            Kind::PersistentVolume => "persistentvolumes",
            Kind::StorageClass => "storageclasses",
            Kind::ConfigMap => "configmaps",
            Kind::Secret => "secrets",
            Kind::HorizontalPodAutoscaler => "horizontalpodautoscalers",
            Kind::ServiceAccount => "serviceaccounts",
            Kind::Ingress => "ingresses",
            Kind::IngressClass => "ingressclasses",
            Kind::NetworkPolicy => "networkpolicies",
            Kind::ServiceCIDR => "servicecidrs",
            Kind::IPAddress => "ipaddresses",
            Kind::CustomResourceDefinition => "customresourcedefinitions",
            Kind::ValidatingAdmissionPolicy => "validatingadmissionpolicies",
            Kind::ValidatingAdmissionPolicyBinding => "validatingadmissionpolicybindings",
            Kind::ValidatingWebhookConfiguration => "validatingwebhookconfigurations",
            Kind::Custom(t) => &t.ty.plural,
        }
    }

    /// `resource.group` as error messages print it, e.g. `replicasets.apps`, `pods`.
    pub fn qualified_resource(self) -> String {
        match self.api_version().split_once('/') {
            Some((group, _)) => format!("{}.{group}", self.resource()),
            None => self.resource().to_string(),
        }
    }

    /// True for namespaced kinds.
    pub fn namespaced(self) -> bool {
        if let Kind::Custom(t) = self {
            return t.ty.namespaced;
        }
        !matches!(
            self,
            Kind::Node
                | Kind::Namespace
                | Kind::PriorityClass
                | Kind::ClusterRole
                | Kind::ClusterRoleBinding
                | Kind::PersistentVolume
                | Kind::StorageClass
                | Kind::IngressClass
                | Kind::ServiceCIDR
                | Kind::IPAddress
                | Kind::CustomResourceDefinition
                | Kind::ValidatingAdmissionPolicy
                | Kind::ValidatingAdmissionPolicyBinding
                | Kind::ValidatingWebhookConfiguration
        )
    }
}
