//! What `kubectl explain` says about each kind and about the fields every kind has.

use crate::api::Kind;

/// `apiVersion`.
pub const API_VERSION: &str = "APIVersion names the versioned schema this object is written in (group/version, or only the version for the core group). The server converts between the versions it serves.";

/// `kind`.
pub const KIND: &str = "Kind names the REST resource this object represents, in CamelCase. The server can infer it from the endpoint a request is sent to. Cannot be updated.";

/// The descriptions of `metadata`, `spec` and `status` on a kind.
pub const TOP_FIELDS: &[(&str, &str)] = &[
    ("metadata", "Standard object's metadata: name, namespace, labels, annotations, owner references, and what the server records (uid, resourceVersion, generation, creationTimestamp)."),
    ("spec", "The desired state, as its writer declares it. Controllers act to make the observed state match it."),
    ("status", "The most recently observed state, written by the system (a controller or a kubelet) through the status subresource. It may lag behind the world."),
];

/// What a kind is, in a sentence or two.
pub fn kind(kind: Kind) -> &'static str {
    match kind {
        Kind::Deployment => "Deployment declares the Pods of a stateless application: how many replicas run from which template. Its controller owns one ReplicaSet per template and rolls from the old to the new at a controlled rate.",
        Kind::ReplicaSet => "ReplicaSet keeps a stable number of replica Pods matching its selector running at any given time. Deployments create and scale ReplicaSets; they are rarely written directly.",
        Kind::Pod => "Pod is a collection of containers that share a network namespace and volumes, scheduled together onto one node. It is created by clients or controllers and run by that node's kubelet.",
        Kind::Node => "Node is a worker machine in the cluster. Its kubelet registers it, reports its capacity and conditions, and renews its Lease as a heartbeat.",
        Kind::Event => "Event is a report of something that happened to an object (a scheduling decision, a pulled image, a failed probe). Events are kept for a limited time.",
        Kind::Lease => "Lease is a lightweight lock with a holder and a renewal time: nodes renew theirs as heartbeats, and leader election uses them for the controller manager and the scheduler.",
        Kind::Namespace => "Namespace provides a scope for names. Deleting a namespace deletes everything in it before the namespace itself goes away.",
        Kind::PodDisruptionBudget => "PodDisruptionBudget limits how many Pods of a set may be down at once through voluntary disruptions (evictions, such as those of a node drain).",
        Kind::PriorityClass => "PriorityClass maps a priority class name to an integer priority. The scheduler places higher-priority Pods first and may preempt lower-priority ones.",
        Kind::Service => "Service is a named abstraction over a set of Pods chosen by a label selector, with a stable virtual IP and ports that kube-proxy balances across the ready endpoints.",
        Kind::EndpointSlice => "EndpointSlice lists a subset of the network endpoints behind a Service, with each endpoint's readiness. The EndpointSlice controller writes them from the Service's selector.",
        Kind::Endpoints => "Endpoints is the older, single-object list of a Service's addresses. Deprecated in v1.33 in favour of EndpointSlice, and still written by its controller.",
        Kind::Role => "Role is a namespaced set of policy rules: which verbs are allowed on which resources. A RoleBinding grants it to subjects.",
        Kind::ClusterRole => "ClusterRole is a cluster-wide set of policy rules, granted in one namespace by a RoleBinding or everywhere by a ClusterRoleBinding.",
        Kind::RoleBinding => "RoleBinding grants the permissions of a Role or ClusterRole to users, groups or service accounts within its namespace.",
        Kind::ClusterRoleBinding => "ClusterRoleBinding grants the permissions of a ClusterRole to users, groups or service accounts across the whole cluster.",
        Kind::ResourceQuota => "ResourceQuota sets the aggregate limits (object counts, requests, limits) a namespace may use. The API server refuses a write that would exceed them.",
        Kind::LimitRange => "LimitRange sets per-object defaults and bounds for resource requests and limits in a namespace, applied by admission.",
        Kind::Job => "Job runs Pods until a number of them complete successfully, retrying failed ones with a back-off up to a limit.",
        Kind::CronJob => "CronJob creates a Job on a repeating schedule written in cron syntax.",
        Kind::DaemonSet => "DaemonSet runs one copy of a Pod on every eligible node, and adds or removes them as nodes come and go.",
        Kind::StatefulSet => "StatefulSet manages Pods with stable identities (ordinal names, stable network names and storage) created, updated and deleted in order.",
        Kind::ControllerRevision => "ControllerRevision is an immutable snapshot of a template, kept by the DaemonSet and StatefulSet controllers to roll updates and roll back.",
        Kind::PersistentVolumeClaim => "PersistentVolumeClaim is a user's request for storage, bound to a PersistentVolume.",
        Kind::PersistentVolume => "PersistentVolume is a piece of storage in the cluster, provisioned by an administrator or dynamically through a StorageClass.",
        Kind::StorageClass => "StorageClass describes a class of storage: its provisioner, parameters, and when volumes are bound.",
        Kind::ConfigMap => "ConfigMap holds configuration data as key-value pairs, for Pods to read as environment variables or files.",
        Kind::Secret => "Secret holds a small amount of sensitive data, such as a password, a token or a key, base64-encoded in data.",
        Kind::HorizontalPodAutoscaler => "HorizontalPodAutoscaler scales a workload's replicas from observed metrics toward a target, between a minimum and a maximum.",
        Kind::ServiceAccount => "ServiceAccount is an identity for processes that run in Pods, with the tokens they use to authenticate to the API server.",
        Kind::Ingress => "Ingress is a collection of rules that route external HTTP traffic to Services by host and path, implemented by an ingress controller.",
        Kind::IngressClass => "IngressClass names the controller that implements the Ingresses of that class, and which class is the default.",
        Kind::NetworkPolicy => "NetworkPolicy describes what network traffic is allowed to and from the Pods it selects. The network plugin enforces it.",
        Kind::ServiceCIDR => "ServiceCIDR defines a range of IP addresses using CIDR format (e.g. 192.168.0.0/24 or 2001:db2::/64). This range is used to allocate ClusterIPs to Service objects.",
        Kind::IPAddress => "IPAddress represents a single IP of a single IP Family. The object is designed to be used by APIs that operate on IP addresses. The object is used by the Service core API for allocation of IP addresses.",
        Kind::CustomResourceDefinition => "CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.",
        Kind::ValidatingAdmissionPolicy => "ValidatingAdmissionPolicy describes the definition of an admission validation policy that accepts or rejects an object without changing it.",
        Kind::ValidatingAdmissionPolicyBinding => "ValidatingAdmissionPolicyBinding binds the ValidatingAdmissionPolicy with paramerized resources. ValidatingAdmissionPolicyBinding and parameter CRDs together define how cluster administrators configure policies for clusters.",
        Kind::ValidatingWebhookConfiguration => "ValidatingWebhookConfiguration describes the configuration of and admission webhook that accept or reject and object without changing it.",
        Kind::Custom(_) => "",
    }
}
