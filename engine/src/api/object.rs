//! [`Object`]: one enum over every kind the store holds (their [`Kind`] is in `kind`).

use super::*;
use serde::Serialize;

/// Any object in the store.
#[derive(Clone, Debug, PartialEq)]
pub enum Object {
    /// A Deployment (boxed, like the ReplicaSet and the Pod: an enum is as large as its
    /// largest variant, and these three carry a Pod spec; unboxed, every Event and Lease
    /// in the store took 1.3 KB).
    Deployment(Box<Deployment>),
    /// A ReplicaSet.
    ReplicaSet(Box<ReplicaSet>),
    /// A Pod.
    Pod(Box<Pod>),
    /// A Node (boxed: its status is the largest of the unboxed kinds).
    Node(Box<Node>),
    /// An Event (boxed: with the fields events.k8s.io writers set, the largest of the
    /// small kinds).
    Event(Box<Event>),
    /// A Lease.
    Lease(Lease),
    /// A Namespace.
    Namespace(Namespace),
    /// A PodDisruptionBudget.
    PodDisruptionBudget(PodDisruptionBudget),
    /// A PriorityClass.
    PriorityClass(PriorityClass),
    /// A Service.
    Service(Box<Service>),
    /// An EndpointSlice.
    EndpointSlice(Box<EndpointSlice>),
    /// An Endpoints.
    Endpoints(Box<Endpoints>),
    /// A Role.
    Role(Role),
    /// A ClusterRole.
    ClusterRole(ClusterRole),
    /// A RoleBinding.
    RoleBinding(RoleBinding),
    /// A ClusterRoleBinding.
    ClusterRoleBinding(ClusterRoleBinding),
    /// A ResourceQuota.
    ResourceQuota(ResourceQuota),
    /// A LimitRange.
    LimitRange(LimitRange),
    /// A Job.
    Job(Box<Job>),
    /// A CronJob.
    CronJob(Box<CronJob>),
    /// A DaemonSet.
    DaemonSet(Box<DaemonSet>),
    /// A StatefulSet.
    StatefulSet(Box<StatefulSet>),
    /// A ControllerRevision.
    ControllerRevision(ControllerRevision),
    /// A PersistentVolumeClaim.
    PersistentVolumeClaim(Box<PersistentVolumeClaim>),
    /// A PersistentVolume.
    PersistentVolume(Box<PersistentVolume>),
    /// A StorageClass.
    StorageClass(StorageClass),
    /// A ConfigMap.
    ConfigMap(ConfigMap),
    /// A Secret.
    Secret(Secret),
    /// A ServiceAccount.
    ServiceAccount(ServiceAccount),
    /// A HorizontalPodAutoscaler.
    HorizontalPodAutoscaler(Box<HorizontalPodAutoscaler>),
    /// An Ingress.
    Ingress(Box<Ingress>),
    /// An IngressClass.
    IngressClass(IngressClass),
    /// A NetworkPolicy.
    NetworkPolicy(Box<NetworkPolicy>),
    /// A ServiceCIDR.
    ServiceCIDR(ServiceCIDR),
    /// An IPAddress.
    IPAddress(IPAddress),
    /// A CustomResourceDefinition (boxed: its schema and columns).
    CustomResourceDefinition(Box<CustomResourceDefinition>),
    /// A ValidatingAdmissionPolicy.
    ValidatingAdmissionPolicy(Box<ValidatingAdmissionPolicy>),
    /// A ValidatingAdmissionPolicyBinding.
    ValidatingAdmissionPolicyBinding(Box<ValidatingAdmissionPolicyBinding>),
    /// A ValidatingWebhookConfiguration.
    ValidatingWebhookConfiguration(Box<ValidatingWebhookConfiguration>),
    /// An object of a custom resource.
    Custom(Box<CustomObject>),
}

impl Object {
    /// The kind.
    pub fn kind(&self) -> Kind {
        match self {
            Object::Deployment(_) => Kind::Deployment,
            Object::ReplicaSet(_) => Kind::ReplicaSet,
            Object::Pod(_) => Kind::Pod,
            Object::Node(_) => Kind::Node,
            Object::Event(_) => Kind::Event,
            Object::Lease(_) => Kind::Lease,
            Object::Namespace(_) => Kind::Namespace,
            Object::PodDisruptionBudget(_) => Kind::PodDisruptionBudget,
            Object::PriorityClass(_) => Kind::PriorityClass,
            Object::Service(_) => Kind::Service,
            Object::EndpointSlice(_) => Kind::EndpointSlice,
            Object::Endpoints(_) => Kind::Endpoints,
            Object::Role(_) => Kind::Role,
            Object::ClusterRole(_) => Kind::ClusterRole,
            Object::RoleBinding(_) => Kind::RoleBinding,
            Object::ClusterRoleBinding(_) => Kind::ClusterRoleBinding,
            Object::ResourceQuota(_) => Kind::ResourceQuota,
            Object::LimitRange(_) => Kind::LimitRange,
            Object::Job(_) => Kind::Job,
            Object::CronJob(_) => Kind::CronJob,
            Object::DaemonSet(_) => Kind::DaemonSet,
            Object::StatefulSet(_) => Kind::StatefulSet,
            Object::ControllerRevision(_) => Kind::ControllerRevision,
            Object::PersistentVolumeClaim(_) => Kind::PersistentVolumeClaim,
            Object::PersistentVolume(_) => Kind::PersistentVolume,
            Object::StorageClass(_) => Kind::StorageClass,
            Object::ConfigMap(_) => Kind::ConfigMap,
            Object::Secret(_) => Kind::Secret,
            Object::ServiceAccount(_) => Kind::ServiceAccount,
            Object::HorizontalPodAutoscaler(_) => Kind::HorizontalPodAutoscaler,
            Object::Ingress(_) => Kind::Ingress,
            Object::IngressClass(_) => Kind::IngressClass,
            Object::NetworkPolicy(_) => Kind::NetworkPolicy,
            Object::ServiceCIDR(_) => Kind::ServiceCIDR,
            Object::IPAddress(_) => Kind::IPAddress,
            Object::CustomResourceDefinition(_) => Kind::CustomResourceDefinition,
            Object::ValidatingAdmissionPolicy(_) => Kind::ValidatingAdmissionPolicy,
            Object::ValidatingAdmissionPolicyBinding(_) => Kind::ValidatingAdmissionPolicyBinding,
            Object::ValidatingWebhookConfiguration(_) => Kind::ValidatingWebhookConfiguration,
            Object::Custom(o) => Kind::Custom(o.kind),
        }
    }

    /// The metadata.
    pub fn meta(&self) -> &ObjectMeta {
        match self {
            Object::Deployment(o) => &o.metadata,
            Object::ReplicaSet(o) => &o.metadata,
            Object::Pod(o) => &o.metadata,
            Object::Node(o) => &o.metadata,
            Object::Event(o) => &o.metadata,
            Object::Lease(o) => &o.metadata,
            Object::Namespace(o) => &o.metadata,
            Object::PodDisruptionBudget(o) => &o.metadata,
            Object::PriorityClass(o) => &o.metadata,
            Object::Service(o) => &o.metadata,
            Object::EndpointSlice(o) => &o.metadata,
            Object::Endpoints(o) => &o.metadata,
            Object::Role(o) => &o.metadata,
            Object::ClusterRole(o) => &o.metadata,
            Object::RoleBinding(o) => &o.metadata,
            Object::ClusterRoleBinding(o) => &o.metadata,
            Object::ResourceQuota(o) => &o.metadata,
            Object::LimitRange(o) => &o.metadata,
            Object::Job(o) => &o.metadata,
            Object::CronJob(o) => &o.metadata,
            Object::DaemonSet(o) => &o.metadata,
            Object::StatefulSet(o) => &o.metadata,
            Object::ControllerRevision(o) => &o.metadata,
            Object::PersistentVolumeClaim(o) => &o.metadata,
            Object::PersistentVolume(o) => &o.metadata,
            Object::StorageClass(o) => &o.metadata,
            Object::ConfigMap(o) => &o.metadata,
            Object::Secret(o) => &o.metadata,
            Object::ServiceAccount(o) => &o.metadata,
            Object::HorizontalPodAutoscaler(o) => &o.metadata,
            Object::Ingress(o) => &o.metadata,
            Object::IngressClass(o) => &o.metadata,
            Object::NetworkPolicy(o) => &o.metadata,
            Object::ServiceCIDR(o) => &o.metadata,
            Object::IPAddress(o) => &o.metadata,
            Object::CustomResourceDefinition(o) => &o.metadata,
            Object::ValidatingAdmissionPolicy(o) => &o.metadata,
            Object::ValidatingAdmissionPolicyBinding(o) => &o.metadata,
            Object::ValidatingWebhookConfiguration(o) => &o.metadata,
            Object::Custom(o) => &o.metadata,
        }
    }

    /// The metadata, mutable.
    pub fn meta_mut(&mut self) -> &mut ObjectMeta {
        match self {
            Object::Deployment(o) => &mut o.metadata,
            Object::ReplicaSet(o) => &mut o.metadata,
            Object::Pod(o) => &mut o.metadata,
            Object::Node(o) => &mut o.metadata,
            Object::Event(o) => &mut o.metadata,
            Object::Lease(o) => &mut o.metadata,
            Object::Namespace(o) => &mut o.metadata,
            Object::PodDisruptionBudget(o) => &mut o.metadata,
            Object::PriorityClass(o) => &mut o.metadata,
            Object::Service(o) => &mut o.metadata,
            Object::EndpointSlice(o) => &mut o.metadata,
            Object::Endpoints(o) => &mut o.metadata,
            Object::Role(o) => &mut o.metadata,
            Object::ClusterRole(o) => &mut o.metadata,
            Object::RoleBinding(o) => &mut o.metadata,
            Object::ClusterRoleBinding(o) => &mut o.metadata,
            Object::ResourceQuota(o) => &mut o.metadata,
            Object::LimitRange(o) => &mut o.metadata,
            Object::Job(o) => &mut o.metadata,
            Object::CronJob(o) => &mut o.metadata,
            Object::DaemonSet(o) => &mut o.metadata,
            Object::StatefulSet(o) => &mut o.metadata,
            Object::ControllerRevision(o) => &mut o.metadata,
            Object::PersistentVolumeClaim(o) => &mut o.metadata,
            Object::PersistentVolume(o) => &mut o.metadata,
            Object::StorageClass(o) => &mut o.metadata,
            Object::ConfigMap(o) => &mut o.metadata,
            Object::Secret(o) => &mut o.metadata,
            Object::ServiceAccount(o) => &mut o.metadata,
            Object::HorizontalPodAutoscaler(o) => &mut o.metadata,
            Object::Ingress(o) => &mut o.metadata,
            Object::IngressClass(o) => &mut o.metadata,
            Object::NetworkPolicy(o) => &mut o.metadata,
            Object::ServiceCIDR(o) => &mut o.metadata,
            Object::IPAddress(o) => &mut o.metadata,
            Object::CustomResourceDefinition(o) => &mut o.metadata,
            Object::ValidatingAdmissionPolicy(o) => &mut o.metadata,
            Object::ValidatingAdmissionPolicyBinding(o) => &mut o.metadata,
            Object::ValidatingWebhookConfiguration(o) => &mut o.metadata,
            Object::Custom(o) => &mut o.metadata,
        }
    }

    /// The length in bytes of the object's JSON (with `apiVersion` and `kind`), counted
    /// as it is written, without building it: what kubeplay counts as the object's
    /// value in etcd (`apiserver::mvcc`).
    pub fn encoded_len(&self) -> usize {
        /// A writer that keeps only the count.
        struct Count(usize);
        impl std::io::Write for Count {
            fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
                self.0 += b.len();
                Ok(b.len())
            }
            fn flush(&mut self) -> std::io::Result<()> {
                Ok(())
            }
        }
        fn count<T: Serialize>(o: &T) -> usize {
            let mut c = Count(0);
            // Writing to a counter cannot fail; a type that refuses counts as empty.
            let _ = serde_json::to_writer(&mut c, o);
            c.0
        }
        let body = match self {
            Object::Deployment(o) => count(o),
            Object::ReplicaSet(o) => count(o),
            Object::Pod(o) => count(o),
            Object::Node(o) => count(o),
            Object::Event(o) => count(o),
            Object::Lease(o) => count(o),
            Object::Namespace(o) => count(o),
            Object::PodDisruptionBudget(o) => count(o),
            Object::PriorityClass(o) => count(o),
            Object::Service(o) => count(o),
            Object::EndpointSlice(o) => count(o),
            Object::Endpoints(o) => count(o),
            Object::Role(o) => count(o),
            Object::ClusterRole(o) => count(o),
            Object::RoleBinding(o) => count(o),
            Object::ClusterRoleBinding(o) => count(o),
            Object::ResourceQuota(o) => count(o),
            Object::LimitRange(o) => count(o),
            Object::Job(o) => count(o),
            Object::CronJob(o) => count(o),
            Object::DaemonSet(o) => count(o),
            Object::StatefulSet(o) => count(o),
            Object::ControllerRevision(o) => count(o),
            Object::PersistentVolumeClaim(o) => count(o),
            Object::PersistentVolume(o) => count(o),
            Object::StorageClass(o) => count(o),
            Object::ConfigMap(o) => count(o),
            Object::Secret(o) => count(o),
            Object::ServiceAccount(o) => count(o),
            Object::HorizontalPodAutoscaler(o) => count(o),
            Object::Ingress(o) => count(o),
            Object::IngressClass(o) => count(o),
            Object::NetworkPolicy(o) => count(o),
            Object::ServiceCIDR(o) => count(o),
            Object::IPAddress(o) => count(o),
            Object::CustomResourceDefinition(o) => count(o),
            Object::ValidatingAdmissionPolicy(o) => count(o),
            Object::ValidatingAdmissionPolicyBinding(o) => count(o),
            Object::ValidatingWebhookConfiguration(o) => count(o),
            Object::Custom(o) => count(&o.body_json()),
        };
        // `{"apiVersion":"…","kind":"…",` before the body's own fields.
        body + self.kind().api_version().len() + self.kind().name().len() + 26
    }

    /// The object as JSON with `apiVersion` and `kind` first, as `kubectl get -o json` shows it.
    pub fn to_json(&self) -> serde_json::Value {
        let body = match self {
            Object::Deployment(o) => serde_json::to_value(o),
            Object::ReplicaSet(o) => serde_json::to_value(o),
            Object::Pod(o) => serde_json::to_value(o),
            Object::Node(o) => serde_json::to_value(o),
            Object::Event(o) => serde_json::to_value(o),
            Object::Lease(o) => serde_json::to_value(o),
            Object::Namespace(o) => serde_json::to_value(o),
            Object::PodDisruptionBudget(o) => serde_json::to_value(o),
            Object::PriorityClass(o) => serde_json::to_value(o),
            Object::Service(o) => serde_json::to_value(o),
            Object::EndpointSlice(o) => serde_json::to_value(o),
            Object::Endpoints(o) => serde_json::to_value(o),
            Object::Role(o) => serde_json::to_value(o),
            Object::ClusterRole(o) => serde_json::to_value(o),
            Object::RoleBinding(o) => serde_json::to_value(o),
            Object::ClusterRoleBinding(o) => serde_json::to_value(o),
            Object::ResourceQuota(o) => serde_json::to_value(o),
            Object::LimitRange(o) => serde_json::to_value(o),
            Object::Job(o) => serde_json::to_value(o),
            Object::CronJob(o) => serde_json::to_value(o),
            Object::DaemonSet(o) => serde_json::to_value(o),
            Object::StatefulSet(o) => serde_json::to_value(o),
            Object::ControllerRevision(o) => serde_json::to_value(o),
            Object::PersistentVolumeClaim(o) => serde_json::to_value(o),
            Object::PersistentVolume(o) => serde_json::to_value(o),
            Object::StorageClass(o) => serde_json::to_value(o),
            Object::ConfigMap(o) => serde_json::to_value(o),
            Object::Secret(o) => serde_json::to_value(o),
            Object::ServiceAccount(o) => serde_json::to_value(o),
            Object::HorizontalPodAutoscaler(o) => serde_json::to_value(o),
            Object::Ingress(o) => serde_json::to_value(o),
            Object::IngressClass(o) => serde_json::to_value(o),
            Object::NetworkPolicy(o) => serde_json::to_value(o),
            Object::ServiceCIDR(o) => serde_json::to_value(o),
            Object::IPAddress(o) => serde_json::to_value(o),
            Object::CustomResourceDefinition(o) => serde_json::to_value(o),
            Object::ValidatingAdmissionPolicy(o) => serde_json::to_value(o),
            Object::ValidatingAdmissionPolicyBinding(o) => serde_json::to_value(o),
            Object::ValidatingWebhookConfiguration(o) => serde_json::to_value(o),
            Object::Custom(o) => Ok(o.body_json()),
        }
        .unwrap_or(serde_json::Value::Null);
        let mut map = serde_json::Map::new();
        map.insert("apiVersion".into(), self.kind().api_version().into());
        map.insert("kind".into(), self.kind().name().into());
        if let serde_json::Value::Object(fields) = body {
            map.extend(fields);
        }
        serde_json::Value::Object(map)
    }

    /// True if the spec (or for kinds without spec, nothing) differs: the API server
    /// bumps `generation` only on spec changes.
    pub fn spec_differs(&self, other: &Object) -> bool {
        match (self, other) {
            (Object::Deployment(a), Object::Deployment(b)) => a.spec != b.spec,
            (Object::ReplicaSet(a), Object::ReplicaSet(b)) => a.spec != b.spec,
            (Object::Pod(a), Object::Pod(b)) => a.spec != b.spec,
            (Object::Node(a), Object::Node(b)) => a.spec != b.spec,
            (Object::Namespace(a), Object::Namespace(b)) => a.spec != b.spec,
            (Object::PodDisruptionBudget(a), Object::PodDisruptionBudget(b)) => a.spec != b.spec,
            (Object::ResourceQuota(a), Object::ResourceQuota(b)) => a.spec != b.spec,
            (Object::LimitRange(a), Object::LimitRange(b)) => a.spec != b.spec,
            (Object::Job(a), Object::Job(b)) => a.spec != b.spec,
            (Object::CronJob(a), Object::CronJob(b)) => a.spec != b.spec,
            (Object::DaemonSet(a), Object::DaemonSet(b)) => a.spec != b.spec,
            (Object::StatefulSet(a), Object::StatefulSet(b)) => a.spec != b.spec,
            (Object::PersistentVolumeClaim(a), Object::PersistentVolumeClaim(b)) => {
                a.spec != b.spec
            }
            (Object::PersistentVolume(a), Object::PersistentVolume(b)) => a.spec != b.spec,
            (Object::HorizontalPodAutoscaler(a), Object::HorizontalPodAutoscaler(b)) => {
                a.spec != b.spec
            }
            (Object::Ingress(a), Object::Ingress(b)) => a.spec != b.spec,
            (Object::IngressClass(a), Object::IngressClass(b)) => a.spec != b.spec,
            (Object::NetworkPolicy(a), Object::NetworkPolicy(b)) => a.spec != b.spec,
            (Object::ServiceCIDR(a), Object::ServiceCIDR(b)) => a.spec != b.spec,
            (Object::IPAddress(a), Object::IPAddress(b)) => a.spec != b.spec,
            (Object::CustomResourceDefinition(a), Object::CustomResourceDefinition(b)) => {
                a.spec != b.spec
            }
            // Upstream's custom resource strategy: anything but metadata (a status the
            // status subresource owns was already put back as it was).
            (Object::ValidatingAdmissionPolicy(a), Object::ValidatingAdmissionPolicy(b)) => {
                a.spec != b.spec
            }
            (
                Object::ValidatingAdmissionPolicyBinding(a),
                Object::ValidatingAdmissionPolicyBinding(b),
            ) => a.spec != b.spec,
            (
                Object::ValidatingWebhookConfiguration(a),
                Object::ValidatingWebhookConfiguration(b),
            ) => a.webhooks != b.webhooks,
            (Object::Custom(a), Object::Custom(b)) => a.content != b.content,
            _ => false,
        }
    }
}

/// Conversion between a typed object and [`Object`].
pub trait Resource: Clone + Sized {
    /// The kind.
    const KIND: Kind;
    /// Wrap.
    fn into_object(self) -> Object;
    /// Unwrap a reference.
    fn from_object(o: &Object) -> Option<&Self>;
    /// Metadata.
    fn meta(&self) -> &ObjectMeta;
}

macro_rules! resource {
    ($t:ident) => {
        resource!($t, |x| x);
    };
    ($t:ident, boxed) => {
        resource!($t, Box::new);
    };
    ($t:ident, $wrap:expr) => {
        impl Resource for $t {
            const KIND: Kind = Kind::$t;
            fn into_object(self) -> Object {
                Object::$t($wrap(self))
            }
            fn from_object(o: &Object) -> Option<&Self> {
                match o {
                    Object::$t(x) => Some(x),
                    _ => None,
                }
            }
            fn meta(&self) -> &ObjectMeta {
                &self.metadata
            }
        }
    };
}
impl<T: Resource> From<T> for Object {
    fn from(r: T) -> Object {
        r.into_object()
    }
}

resource!(Deployment, boxed);
resource!(ReplicaSet, boxed);
resource!(Pod, boxed);
resource!(Node, boxed);
resource!(Event, boxed);
resource!(Lease);
resource!(Namespace);
resource!(PodDisruptionBudget);
resource!(PriorityClass);
resource!(Service, boxed);
resource!(EndpointSlice, boxed);
resource!(Endpoints, boxed);
resource!(Role);
resource!(ClusterRole);
resource!(RoleBinding);
resource!(ClusterRoleBinding);
resource!(ResourceQuota);
resource!(LimitRange);
resource!(Job, boxed);
resource!(CronJob, boxed);
resource!(DaemonSet, boxed);
resource!(StatefulSet, boxed);
resource!(ControllerRevision);
resource!(PersistentVolumeClaim, boxed);
resource!(PersistentVolume, boxed);
resource!(StorageClass);
resource!(ConfigMap);
resource!(Secret);
resource!(ServiceAccount);
resource!(HorizontalPodAutoscaler, boxed);
resource!(Ingress, boxed);
resource!(IngressClass);
resource!(NetworkPolicy, boxed);
resource!(ServiceCIDR);
resource!(IPAddress);
resource!(ValidatingAdmissionPolicy, boxed);
resource!(ValidatingAdmissionPolicyBinding, boxed);
resource!(ValidatingWebhookConfiguration, boxed);
resource!(CustomResourceDefinition, boxed);
