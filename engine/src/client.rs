//! The client side of the API: what a component sends to the API server ([`Request`])
//! and who it is when it does ([`Component`]), with the helpers that build the
//! references a request carries ([`event_ref`], [`controller_ref`]).
//!
//! Upstream: client-go's typed clients and `tools/record` (the Event recorder), and
//! `pkg/controller/controller_utils.go`'s pod control (an Event recorded only once the
//! create returned). Every component — controllers, the scheduler, kubelets, kubectl —
//! speaks through these types, so the API server is the only thing they share.

use crate::api::{EventType, Kind, Object, ObjectMeta, ObjectReference, OwnerReference};
use crate::apiserver::managed_fields::{Operation, Writer};
use crate::apiserver::rbac::{UserInfo, PRIVILEGED_GROUP};
use crate::apiserver::request::{ApiRequest, Body, Credentials, Verb};
use crate::apiserver::{DeleteOptions, ObjKey};

/// An Event to record once a request succeeds (client-go's pod control records
/// `SuccessfulCreate` only after the create returned, with the generated name).
#[derive(Clone, Debug, PartialEq)]
pub struct EventOnSuccess {
    /// The object the event is about (e.g. the ReplicaSet).
    pub involved: ObjectReference,
    /// Event type, `Normal` or `Warning`.
    pub type_: EventType,
    /// Reason, e.g. `SuccessfulCreate`.
    pub reason: &'static str,
    /// Message before the created/deleted object's name, e.g. `Created pod: `.
    pub message_prefix: &'static str,
    /// Warning recorded when the request fails: (reason, message prefix before the
    /// error), e.g. (`FailedCreate`, `Error creating: `).
    pub on_failure: Option<(&'static str, &'static str)>,
}

/// A request to the API server.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// `POST` an object (name may come from generateName).
    Create {
        /// The object.
        object: Object,
        /// Event to record after success.
        event: Option<EventOnSuccess>,
    },
    /// `PUT` spec and metadata.
    Update(Object),
    /// `PUT` status.
    UpdateStatus(Object),
    /// `DELETE`.
    Delete {
        /// Kind.
        kind: Kind,
        /// Key.
        key: ObjKey,
        /// Options (grace, propagation, uid precondition).
        options: DeleteOptions,
        /// Event to record after success.
        event: Option<EventOnSuccess>,
    },
    /// `POST pods/<name>/eviction` (the Eviction API: checks disruption budgets).
    Evict {
        /// The Pod.
        key: ObjKey,
    },
    /// `POST pods/<name>/binding`.
    Bind {
        /// The Pod.
        key: ObjKey,
        /// The chosen node.
        node: String,
    },
    /// `controller.slowStartBatch`: send the requests in batches of 1, 2, 4, 8, …; a
    /// batch with a failure is finished but the remaining batches are skipped, so a
    /// controller that cannot create does not hammer the API server.
    SlowStart(Vec<Request>),
    /// Record a Kubernetes Event.
    Event {
        /// The object the event is about.
        involved: ObjectReference,
        /// `Normal` or `Warning`.
        type_: EventType,
        /// Reason.
        reason: String,
        /// Message.
        message: String,
    },
}

impl Request {
    /// `PUT` of spec and metadata without a resourceVersion precondition: an
    /// unconditional ("blind") update, last write wins — what a controller sends for an
    /// object it just read from its cache and alone manages the changed fields of.
    pub fn blind_update(obj: impl Into<Object>) -> Request {
        Request::Update(without_resource_version(obj.into()))
    }

    /// `PUT` of status without a resourceVersion precondition (see [`Request::blind_update`]).
    pub fn blind_update_status(obj: impl Into<Object>) -> Request {
        Request::UpdateStatus(without_resource_version(obj.into()))
    }
}

fn without_resource_version(mut obj: Object) -> Object {
    obj.meta_mut().resource_version.clear();
    obj
}

/// Who is writing: the field manager in the watch log and the Event source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Component {
    /// Writer name in the watch log, e.g. `replicaset-controller`, `kubelet/node-1`.
    pub writer: String,
    /// Event source component, e.g. `replicaset-controller`, `kubelet`.
    pub event_component: String,
    /// Event source host (kubelet events).
    pub host: String,
}

impl Component {
    /// A control-plane component whose writer and event source are the same name.
    pub fn named(name: &str) -> Self {
        Component {
            writer: name.into(),
            event_component: name.into(),
            host: String::new(),
        }
    }

    /// Who the API server authenticates this component as: each controller as its
    /// ServiceAccount (`system:serviceaccount:kube-system:<name>`, as
    /// kube-controller-manager runs with `--use-service-account-credentials`), the
    /// scheduler as `system:kube-scheduler`, leader election as
    /// `system:kube-controller-manager`, each kubelet as `system:node:<node>` in
    /// `system:nodes`, each kube-proxy as `system:kube-proxy` (bootstrap policy's
    /// subject of `system:node-proxier`; kubeadm runs it with a ServiceAccount bound to
    /// the same role). The parts whose roles kubeplay does not model — the API server
    /// itself, the pod garbage collector, the taint-eviction controller, the GitOps
    /// agent, the ingress controller, an import — act in the privileged group, which no RBAC change touches.
    ///
    /// Upstream: `plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go`
    /// and `policy.go`, `cmd/kubeadm/app/phases/controlplane/manifests.go`.
    pub fn user(&self) -> UserInfo {
        if let Some(node) = self.writer.strip_prefix(writer::KUBELET_PREFIX) {
            return UserInfo::new(&format!("system:node:{node}"), &["system:nodes"]);
        }
        if self.writer.starts_with(writer::KUBE_PROXY_PREFIX) {
            // The user bootstrap policy binds to `system:node-proxier`.
            return UserInfo::new("system:kube-proxy", &[]);
        }
        let account = match self.writer.as_str() {
            writer::DEPLOYMENT_CONTROLLER => "deployment-controller",
            writer::REPLICASET_CONTROLLER => "replicaset-controller",
            writer::GARBAGE_COLLECTOR => "generic-garbage-collector",
            writer::NODE_LIFECYCLE_CONTROLLER => "node-controller",
            writer::NAMESPACE_CONTROLLER => "namespace-controller",
            writer::RESOURCE_QUOTA_CONTROLLER => "resourcequota-controller",
            writer::DISRUPTION_CONTROLLER => "disruption-controller",
            writer::ENDPOINTSLICE_CONTROLLER => "endpointslice-controller",
            writer::ENDPOINT_CONTROLLER => "endpoint-controller",
            writer::ENDPOINTSLICE_MIRRORING_CONTROLLER => "endpointslicemirroring-controller",
            writer::DAEMONSET_CONTROLLER => "daemon-set-controller",
            writer::JOB_CONTROLLER => "job-controller",
            writer::CRONJOB_CONTROLLER => "cronjob-controller",
            writer::STATEFULSET_CONTROLLER => "statefulset-controller",
            writer::PERSISTENT_VOLUME_CONTROLLER => "persistent-volume-binder",
            writer::PVC_PROTECTION_CONTROLLER => "pvc-protection-controller",
            writer::PV_PROTECTION_CONTROLLER => "pv-protection-controller",
            writer::HPA_CONTROLLER => "horizontal-pod-autoscaler",
            writer::TTL_AFTER_FINISHED_CONTROLLER => "ttl-after-finished-controller",
            writer::SERVICE_ACCOUNT_CONTROLLER => "service-account-controller",
            writer::ROOT_CA_CERT_PUBLISHER => "root-ca-cert-publisher",
            writer::DEFAULT_SCHEDULER => return UserInfo::new("system:kube-scheduler", &[]),
            // The learner's controller runs as a ServiceAccount of `default`, bound
            // to a Role the learner can read and edit.
            writer::MY_CONTROLLER => {
                return UserInfo::new(
                    &format!("system:serviceaccount:default:{}", writer::MY_CONTROLLER),
                    &["system:serviceaccounts", "system:serviceaccounts:default"],
                )
            }
            writer::KUBE_CONTROLLER_MANAGER => {
                return UserInfo::new("system:kube-controller-manager", &[])
            }
            other => return UserInfo::new(other, &[PRIVILEGED_GROUP]),
        };
        UserInfo::new(
            &format!("system:serviceaccount:kube-system:{account}"),
            &[
                "system:serviceaccounts",
                "system:serviceaccounts:kube-system",
            ],
        )
    }

    /// Who its writes are as a field manager: the control plane's components as
    /// `kube-controller-manager`, `kube-scheduler`, `kubelet`, `kube-apiserver`; the
    /// GitOps agent applies its declared spec server-side with `--force-conflicts`, as
    /// drift-correcting agents do.
    pub fn manager(&self) -> Writer {
        match self.writer.as_str() {
            writer::GITOPS_SYNC => Writer {
                manager: writer::GITOPS_SYNC.into(),
                operation: Operation::Apply,
                subresource: String::new(),
            },
            writer::KUBE_APISERVER | writer::APIEXTENSIONS_CONTROLLERS => {
                Writer::update("kube-apiserver")
            }
            writer::INGRESS_NGINX => Writer::update(writer::INGRESS_NGINX),
            writer::MY_CONTROLLER => Writer::update(writer::MY_CONTROLLER),
            writer::DEFAULT_SCHEDULER | "kube-scheduler" => Writer::update("kube-scheduler"),
            w if w.starts_with(writer::KUBELET_PREFIX) => Writer::update("kubelet"),
            _ => Writer::update("kube-controller-manager"),
        }
    }

    /// The request `req` is on the wire, as this component sends it (the verb and
    /// subresource upstream's client sends: a controller's adoption or release of a
    /// Pod is a patch, the autoscaler writes through `scale`, the namespace
    /// controller through `finalize`).
    pub fn request(&self, req: Request) -> ApiRequest {
        let mut out = ApiRequest::new(
            Credentials::Identity(self.user()),
            &self.writer,
            Verb::Get,
            Kind::Pod,
        );
        out.manager = self.manager();
        out.cache_authz = true;
        let of = |out: &mut ApiRequest, o: &Object| {
            out.kind = o.kind();
            out.namespace = o.meta().namespace.clone();
            out.name = o.meta().name.clone();
        };
        match req {
            Request::Create { object, .. } => {
                of(&mut out, &object);
                out.verb = Verb::Create;
                out.body = Body::Object(object);
            }
            Request::Update(o) => {
                of(&mut out, &o);
                out.verb = Verb::Update;
                if self.writer == writer::HPA_CONTROLLER {
                    out.subresource = "scale";
                } else if matches!(
                    (self.writer.as_str(), o.kind()),
                    (
                        writer::REPLICASET_CONTROLLER
                            | writer::GARBAGE_COLLECTOR
                            | writer::JOB_CONTROLLER,
                        Kind::Pod
                    )
                ) {
                    out.verb = Verb::Patch;
                } else if self.writer == writer::NAMESPACE_CONTROLLER && o.kind() == Kind::Namespace
                {
                    out.subresource = "finalize";
                }
                out.body = Body::Object(o);
            }
            Request::UpdateStatus(o) => {
                of(&mut out, &o);
                out.verb = Verb::Update;
                out.subresource = "status";
                out.body = Body::Object(o);
            }
            Request::Delete {
                kind, key, options, ..
            } => {
                out.verb = Verb::Delete;
                out.kind = kind;
                out.namespace = key.namespace;
                out.name = key.name;
                out.body = Body::Delete(options);
            }
            Request::Bind { key, node } => {
                out.verb = Verb::Create;
                out.namespace = key.namespace;
                out.name = key.name;
                out.subresource = "binding";
                out.body = Body::Bind(node);
            }
            Request::Evict { key } => {
                out.verb = Verb::Create;
                out.namespace = key.namespace;
                out.name = key.name;
                out.subresource = "eviction";
            }
            Request::Event {
                involved,
                type_,
                reason,
                message,
            } => {
                out.verb = Verb::Create;
                out.kind = Kind::Event;
                out.namespace = if involved.namespace.is_empty() {
                    "default".into()
                } else {
                    involved.namespace.clone()
                };
                out.body = Body::Event {
                    involved,
                    type_,
                    reason,
                    message,
                    component: self.event_component.clone(),
                    host: self.host.clone(),
                };
            }
            // A batch is the client's own pacing: each of its requests is sent alone.
            Request::SlowStart(_) => {}
        }
        out
    }
}

/// The names components write under (the field manager in the watch log): the page's
/// "who did this", the timeline's lanes and the why-trace read them.
pub mod writer {
    /// The learner (clicks and commands).
    pub const KUBECTL: &str = "kubectl";
    /// The installer that adds the cluster DNS add-on.
    pub const KUBEADM: &str = "kubeadm";
    /// The API server itself (the namespaces and priority classes every cluster has).
    pub const KUBE_APISERVER: &str = crate::apiserver::KUBE_APISERVER;
    /// deployment-controller.
    pub const DEPLOYMENT_CONTROLLER: &str = "deployment-controller";
    /// replicaset-controller.
    pub const REPLICASET_CONTROLLER: &str = "replicaset-controller";
    /// The garbage collector.
    pub const GARBAGE_COLLECTOR: &str = "garbage-collector";
    /// node-lifecycle-controller.
    pub const NODE_LIFECYCLE_CONTROLLER: &str = "node-lifecycle-controller";
    /// taint-eviction-controller.
    pub const TAINT_EVICTION_CONTROLLER: &str = "taint-eviction-controller";
    /// namespace-controller.
    pub const NAMESPACE_CONTROLLER: &str = "namespace-controller";
    /// resourcequota-controller.
    pub const RESOURCE_QUOTA_CONTROLLER: &str = "resourcequota-controller";
    /// disruption-controller.
    pub const DISRUPTION_CONTROLLER: &str = "disruption-controller";
    /// The EndpointSlice controller.
    pub const ENDPOINTSLICE_CONTROLLER: &str = "endpointslice-controller";
    /// The (v1) Endpoints controller.
    pub const ENDPOINT_CONTROLLER: &str = "endpoint-controller";
    /// The EndpointSlice mirroring controller (Endpoints of selector-less Services).
    pub const ENDPOINTSLICE_MIRRORING_CONTROLLER: &str = "endpointslicemirroring-controller";
    /// The pod garbage collector.
    pub const POD_GARBAGE_COLLECTOR: &str = "pod-garbage-collector";
    /// A restore of another cluster's state (`sim import`).
    pub const IMPORT: &str = "import";
    /// etcd restored from a snapshot (`sim etcd snapshot restore`): what the informers
    /// see change when they list again.
    pub const ETCD_RESTORE: &str = "etcd-restore";
    /// etcd's data lost on every member (`sim etcd wipe`).
    pub const ETCD_DATA_LOSS: &str = "etcd-data-loss";
    /// The GitOps agent of the drift lessons.
    pub const GITOPS_SYNC: &str = "gitops-sync";
    /// The learner's own controller (`sim controller`): its writer, Event source,
    /// field manager and ServiceAccount name.
    pub const MY_CONTROLLER: &str = "my-controller";
    /// The ingress controller (ingress-nginx's name as a writer and Event source).
    pub const INGRESS_NGINX: &str = "nginx-ingress-controller";
    /// The writer and Event source.
    pub const ATTACH_DETACH_CONTROLLER: &str = "attachdetach-controller";
    /// The writer and Event source.
    pub const JOB_CONTROLLER: &str = "job-controller";
    /// The writer and Event source.
    pub const HPA_CONTROLLER: &str = "horizontal-pod-autoscaler";
    /// The writer.
    pub const TTL_AFTER_FINISHED_CONTROLLER: &str = "ttl-after-finished-controller";
    /// The writer and Event source.
    pub const CRONJOB_CONTROLLER: &str = "cronjob-controller";
    /// The binder's writer and Event source.
    pub const PERSISTENT_VOLUME_CONTROLLER: &str = "persistentvolume-controller";
    /// The PVC protection controller's writer.
    pub const PVC_PROTECTION_CONTROLLER: &str = "pvc-protection-controller";
    /// The PV protection controller's writer.
    pub const PV_PROTECTION_CONTROLLER: &str = "pv-protection-controller";
    /// The ServiceAccount controller's writer.
    pub const SERVICE_ACCOUNT_CONTROLLER: &str = "serviceaccount-controller";
    /// The root CA publisher's writer.
    pub const ROOT_CA_CERT_PUBLISHER: &str = "root-ca-cert-publisher";
    /// The writer and Event source.
    pub const DAEMONSET_CONTROLLER: &str = "daemonset-controller";
    /// The writer and Event source.
    pub const STATEFULSET_CONTROLLER: &str = "statefulset-controller";
    /// kube-controller-manager itself (its leader election).
    pub const KUBE_CONTROLLER_MANAGER: &str = "kube-controller-manager";
    /// The API server's own controllers of CustomResourceDefinitions (naming,
    /// establishing, finalizer), which write as `kube-apiserver`.
    pub const APIEXTENSIONS_CONTROLLERS: &str = "apiextensions-controllers";
    /// kube-scheduler (its writer name is its profile's name).
    pub const DEFAULT_SCHEDULER: &str = crate::api::DEFAULT_SCHEDULER_NAME;
    /// Every kubelet writes as `kubelet/<node>`.
    pub const KUBELET_PREFIX: &str = "kubelet/";

    /// Every kube-proxy reads as `kube-proxy/<node>`.
    pub const KUBE_PROXY_PREFIX: &str = "kube-proxy/";

    /// The kubelet of `node`.
    pub fn kubelet(node: &str) -> String {
        format!("{KUBELET_PREFIX}{node}")
    }

    /// The kube-proxy of `node`.
    pub fn kube_proxy(node: &str) -> String {
        format!("{KUBE_PROXY_PREFIX}{node}")
    }
}

/// The `metav1.OwnerReference` a controller puts on what it creates.
pub fn controller_ref(kind: Kind, name: &str, uid: &str) -> OwnerReference {
    OwnerReference {
        api_version: kind.api_version().into(),
        kind: kind.name().into(),
        name: name.into(),
        uid: uid.into(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// An ObjectReference for Events, from kind and metadata.
pub fn event_ref(kind: Kind, meta: &ObjectMeta) -> ObjectReference {
    ObjectReference {
        kind: kind.name().into(),
        namespace: meta.namespace.clone(),
        name: meta.name.clone(),
        uid: meta.uid.clone(),
        api_version: kind.api_version().into(),
    }
}
