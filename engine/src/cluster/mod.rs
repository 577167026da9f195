//! The world: the API server's store, the clock, the seeded RNG and every component.
//!
//! The loop (see the crate docs): a request enters the API server → the write lands in
//! the store and the watch log → informers (each component's `on_change`) enqueue keys
//! or arm timers → at the timer, the component reconciles against the store and returns
//! requests → those go through the API server under the component's name, and so on.
//! Components react after [`Config::controller_latency`] so that each step is a
//! distinct moment a learner can see.
//!
//! - [`registry`](self) — the one list of control loops and the generic loop that runs them;
//! - `requests` — `submit` / `apply` through the API server, and the informers;
//! - `clock` — timers, `run_until`, `settle`, quiescence;
//! - `nodes` — nodes and the faults a learner injects into them.

use crate::api::*;
use crate::apiserver::{ApiError, Change, DeleteOptions, ObjKey, Store};
use crate::client::{writer, Component, Request};
pub use crate::config::Config;
use crate::faults::Faults;
use crate::kubelet::{Kubelet, KubeletTimer, NodeConfig};
use crate::rng::Rng;
use crate::time::{SimTime, TimerQueue};
use std::collections::{BTreeMap, BTreeSet};

pub mod apiserver_identity;
pub mod apiservers;
mod clock;
mod connections;
pub mod dns;
pub use clock::SettleSlice;
pub mod etcd;
pub mod etcd_data;
pub mod informers;
pub mod kubeconfig;
pub mod leader_election;
mod nodes;
mod outage;
pub mod pressure;
mod registry;
/// The request path, recorded (kept here for the page and the `sim` verbs).
pub use crate::apiserver::request_path;
mod requests;
mod restore;
mod script;
mod webhooks;

pub use outage::{Outage, Unavailable};
pub use registry::{Controllers, Ctl, CtlKey, CtlTimer, Loop};

/// Something scheduled on the clock.
#[derive(Clone, Debug)]
enum Timer {
    /// Wake a controller to sync the keys in its queue.
    Process(Ctl),
    /// Put a key back on its controller's queue (`AddAfter`, `AddRateLimited`).
    Requeue(CtlKey),
    /// A controller's own timer.
    Own(CtlTimer),
    /// A kubelet's timer: (node, the kubelet's epoch when armed, what).
    Kubelet(String, u64, KubeletTimer),
    /// The kube-proxies' sync, or the traffic generator's tick.
    Proxy(crate::proxy::ProxyTimer),
    /// A leader-elected replica's next try: (component, replica, its process epoch).
    Elect(leader_election::Elected, usize, u64),
    /// A loop's reflector watches again after its watch broke.
    Rewatch(Ctl),
    /// An API server replica's identity Lease and endpoints heartbeat: (replica, its
    /// process epoch).
    ApiServer(usize, u64),
}

/// How many refused requests [`Cluster::failed`] keeps.
pub const MAX_FAILED: usize = 10_000;

/// A request the API server refused (kept for the log and the learner).
#[derive(Clone, Debug, PartialEq)]
pub struct FailedRequest {
    /// When.
    pub time: SimTime,
    /// Who sent it.
    pub writer: String,
    /// kubectl's wording of the error.
    pub error: String,
}

/// The simulated cluster.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// The API server's store (objects, indexes, watch log).
    pub store: Store,
    now: SimTime,
    timers: TimerQueue<Timer>,
    foreground_timers: usize,
    /// A power change re-classified some timers: `foreground_timers` is recounted from
    /// the queue when next needed (once, not once per node of a 500-node power-off).
    foreground_dirty: bool,
    /// [`Cluster::run_until_within`] stopped between two timers due at the same
    /// instant: timers at `now` are still to run ([`Cluster::finish_instant`]).
    mid_instant: bool,
    rng: Rng,
    seed: u64,
    /// Latencies.
    pub config: Config,
    /// Every control loop: the controllers and the scheduler.
    pub controllers: Controllers,
    /// One kubelet per node.
    pub kubelets: BTreeMap<String, Kubelet>,
    /// What the learner broke in the world outside Kubernetes (images, applications).
    pub faults: Faults,
    node_index: u32,
    /// The last epoch of each removed node's kubelet: a kubelet added again under the
    /// name starts past it, so the old kubelet's timers still queued never fire into
    /// the new one.
    retired_epochs: BTreeMap<String, u64>,
    /// Refused requests from components (conflicts and the like), the last
    /// [`MAX_FAILED`] of them: a kubelet whose Node is gone is refused every 10 s for
    /// as long as the world runs.
    pub failed: std::collections::VecDeque<FailedRequest>,
    /// Every node's kube-proxy, and the traffic sent through them.
    pub proxies: crate::proxy::Proxies,
    /// The control plane is stalled (the API server down or etcd without quorum):
    /// what the stall holds.
    outage: Option<outage::Outage>,
    /// When the API server was stopped (`sim apiserver down`), while it is down.
    apiserver_stopped: Option<SimTime>,
    /// The etcd members behind the API server.
    etcd: etcd::Etcd,
    /// Kubelets a stall cut off that reconnect at their next heartbeat.
    reconnecting: BTreeSet<String>,
    /// kubectl's kubeconfig: contexts and the current one.
    kubeconfig: kubeconfig::Kubeconfig,
    /// The leader elections of kube-controller-manager and kube-scheduler.
    elections: leader_election::Elections,
    /// The API server beside its store: authorization, the request log, field
    /// ownership (`apiserver::door`).
    pub(crate) api: crate::apiserver::door::ApiServer,
    /// The API server replicas behind the load balancer.
    apiservers: apiservers::ApiServers,
    /// Each API server process's identity Lease holder (`apiserver_identity`).
    apiserver_ids: apiserver_identity::Identities,
}

/// The default ServiceCIDR, `kubernetes`: the API server's `--service-cluster-ip-range`
/// (`defaultservicecidr`), with the finalizer and the Ready condition the ServiceCIDR
/// controller adds (`servicecidrs_controller.go`), written at once at bootstrap.
pub fn default_service_cidr() -> crate::api::ServiceCIDR {
    use crate::api::{Condition, ServiceCIDR, ServiceCIDRSpec, ServiceCIDRStatus};
    ServiceCIDR {
        metadata: ObjectMeta {
            name: "kubernetes".into(),
            finalizers: vec!["networking.k8s.io/service-cidr-finalizer".into()],
            ..Default::default()
        },
        spec: ServiceCIDRSpec {
            cidrs: vec!["10.96.0.0/12".into()],
        },
        status: ServiceCIDRStatus {
            conditions: vec![Condition {
                type_: "Ready".into(),
                status: "True".into(),
                last_transition_time: Some(crate::time::rfc3339(0)),
                message: "Kubernetes Service CIDR is ready".into(),
                ..Default::default()
            }],
        },
    }
}

/// The user's identity for clicks and commands.
pub fn kubectl() -> Component {
    Component::named(writer::KUBECTL)
}

/// The control plane's address: the API server's endpoint behind the `kubernetes`
/// Service (the nodes are `10.0.0.3` onwards).
pub const API_SERVER_ADDRESS: &str = "10.0.0.2";

impl Cluster {
    /// An empty cluster (no nodes) with this seed: the control plane and what it
    /// creates for itself (namespaces, RBAC, the `kubernetes` Service…), but no add-on,
    /// as `kubeadm init --skip-phases=addon/coredns` leaves it. The clusters a learner
    /// gets ([`Self::with_default_nodes`], a scenario's) also run the DNS add-on
    /// ([`Self::install_cluster_dns`]).
    pub fn new(seed: u64) -> Self {
        let mut c = Cluster::bare(seed);
        for ns in ["default", "kube-node-lease", "kube-public", "kube-system"] {
            let obj = Object::Namespace(Namespace {
                metadata: ObjectMeta {
                    name: ns.into(),
                    ..Default::default()
                },
                ..Default::default()
            });
            // Fixed names on an empty store: creation cannot fail.
            let _ = c.submit(
                &Component::named(writer::KUBE_APISERVER),
                Request::Create {
                    object: obj,
                    event: None,
                },
            );
        }
        for pc in crate::apiserver::admission::system_priority_classes() {
            let _ = c.submit(
                &Component::named(writer::KUBE_APISERVER),
                Request::Create {
                    object: Object::PriorityClass(pc),
                    event: None,
                },
            );
        }
        c.create_as_apiserver(0x7363_6964, [Object::ServiceCIDR(default_service_cidr())]);
        c.create_kubernetes_service();
        c.start_apiserver_identity(0);
        c.create_bootstrap_policy();
        // The default StorageClass a cluster installer adds (its own RNG, as above).
        c.create_as_apiserver(
            0x7374_6f72,
            [Object::StorageClass(
                crate::controllers::volume::default_storage_class(),
            )],
        );
        c.create_namespace_defaults();
        c.start_leader_election();
        c
    }

    /// What a cluster's first namespaces hold by the time anyone uses it: the
    /// `default` ServiceAccount (the ServiceAccount controller's) and the
    /// `kube-root-ca.crt` ConfigMap (the root CA publisher's), so a Pod created at
    /// once finds its account. Their uids come from an RNG of their own.
    fn create_namespace_defaults(&mut self) {
        use crate::controllers::root_ca_publisher;
        let namespaces: Vec<String> = self
            .store
            .list::<Namespace>()
            .map(|n| n.metadata.name.clone())
            .collect();
        let accounts = namespaces.iter().map(|ns| {
            Object::ServiceAccount(ServiceAccount {
                metadata: ObjectMeta {
                    name: DEFAULT_SERVICE_ACCOUNT.into(),
                    namespace: ns.clone(),
                    ..Default::default()
                },
                ..Default::default()
            })
        });
        self.create_as(writer::SERVICE_ACCOUNT_CONTROLLER, 0x7361_6363, accounts);
        let maps = namespaces
            .iter()
            .map(|ns| Object::ConfigMap(root_ca_publisher::root_ca_config_map(ns)));
        self.create_as(writer::ROOT_CA_CERT_PUBLISHER, 0x6361_6372, maps);
    }

    /// The RBAC bootstrap policy (`apiserver::rbac`): its uids from an RNG of their
    /// own, so the cluster's seeded stream stays what it was before RBAC was served.
    fn create_bootstrap_policy(&mut self) {
        use crate::apiserver::rbac::{bootstrap_cluster_role_bindings, bootstrap_cluster_roles};
        let objects = bootstrap_cluster_roles()
            .into_iter()
            .map(Object::from)
            .chain(
                bootstrap_cluster_role_bindings()
                    .into_iter()
                    .map(Object::from),
            )
            // metrics-server's reader role, installed with it.
            .chain([Object::from(
                crate::apiserver::rbac::aggregated_metrics_reader(),
            )]);
        self.create_as_apiserver(0x7262_6163, objects);
    }

    /// The `kubernetes` Service in `default` and its endpoints, as the API server keeps
    /// them (`pkg/controlplane/controller/kubernetesservice`, the endpoint reconciler):
    /// the first IP of the service range, port 443 to the API server's 6443 at the
    /// control plane's address, [`API_SERVER_ADDRESS`].
    ///
    /// Their uids come from an RNG of their own: the cluster's seeded stream (Pod
    /// names, uids) stays what it was before the API server served Services.
    fn create_kubernetes_service(&mut self) {
        let https = |port: i64| ServicePort {
            name: "https".into(),
            protocol: "TCP".into(),
            port,
            target_port: Some(IntOrString::Int(6443)),
            ..Default::default()
        };
        let meta = |name: &str, labels: &[(&str, &str)]| ObjectMeta {
            name: name.into(),
            namespace: "default".into(),
            labels: labels
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Default::default()
        };
        let svc = Service {
            metadata: meta(
                "kubernetes",
                &[("component", "apiserver"), ("provider", "kubernetes")],
            ),
            spec: ServiceSpec {
                ports: vec![https(443)],
                cluster_ip: crate::apiserver::services::format_ipv4(
                    crate::apiserver::services::SERVICE_CIDR_BASE + 1,
                ),
                ..Default::default()
            },
            status: Default::default(),
        };
        let endpoints = Endpoints {
            metadata: meta(
                "kubernetes",
                &[("endpointslice.kubernetes.io/skip-mirror", "true")],
            ),
            subsets: vec![EndpointSubset {
                addresses: vec![EndpointAddress {
                    ip: API_SERVER_ADDRESS.into(),
                    ..Default::default()
                }],
                not_ready_addresses: vec![],
                ports: vec![V1EndpointPort {
                    name: "https".into(),
                    port: 6443,
                    protocol: "TCP".into(),
                }],
            }],
        };
        let slice = EndpointSlice {
            metadata: meta(
                "kubernetes",
                &[("kubernetes.io/service-name", "kubernetes")],
            ),
            address_type: "IPv4".into(),
            endpoints: Some(vec![Endpoint {
                addresses: vec![API_SERVER_ADDRESS.into()],
                conditions: EndpointConditions {
                    ready: Some(true),
                    ..Default::default()
                },
                ..Default::default()
            }]),
            ports: Some(vec![EndpointPort {
                name: Some("https".into()),
                protocol: Some("TCP".into()),
                port: Some(6443),
                app_protocol: None,
            }]),
        };
        self.create_as_apiserver(0x6b75_6265, [svc.into(), endpoints.into(), slice.into()]);
    }

    /// Objects the API server creates itself at start, their uids from an RNG of their
    /// own (seeded by the cluster's seed and `salt`), so the cluster's seeded stream
    /// (Pod names, uids) stays what it was before the API server served them.
    fn create_as_apiserver(&mut self, salt: u64, objects: impl IntoIterator<Item = Object>) {
        self.create_as(writer::KUBE_APISERVER, salt, objects);
    }

    /// [`Self::create_as_apiserver`] as another component.
    fn create_as(&mut self, who: &str, salt: u64, objects: impl IntoIterator<Item = Object>) {
        let main = std::mem::replace(&mut self.rng, Rng::new(self.seed ^ salt));
        for object in objects {
            // Fixed, valid objects on a fresh store: creation cannot fail.
            let _ = self.submit(
                &Component::named(who),
                Request::Create {
                    object,
                    event: None,
                },
            );
        }
        self.rng = main;
    }

    /// An empty cluster that stands in for one lent away for a moment
    /// ([`crate::rest::ApiServer::answer_lent`]): nothing in it, nothing running.
    pub fn placeholder() -> Self {
        Cluster::bare(0)
    }

    fn bare(seed: u64) -> Self {
        Cluster {
            store: Store::new(),
            now: 0,
            timers: TimerQueue::default(),
            foreground_timers: 0,
            foreground_dirty: false,
            mid_instant: false,
            rng: Rng::new(seed),
            seed,
            config: Config::default(),
            controllers: Controllers::default(),
            kubelets: BTreeMap::new(),
            faults: Faults::default(),
            node_index: 0,
            retired_epochs: BTreeMap::new(),
            failed: Default::default(),
            proxies: Default::default(),
            outage: None,
            apiserver_stopped: None,
            etcd: etcd::Etcd::default(),
            reconnecting: BTreeSet::new(),
            kubeconfig: kubeconfig::Kubeconfig::default(),
            elections: leader_election::initial(seed),
            api: Default::default(),
            apiservers: Default::default(),
            apiserver_ids: Default::default(),
        }
    }

    /// The cluster a learner starts from (the page's free play, `kubeplay-cli run` and
    /// `serve`, `sim reset`): three Ready worker nodes `node-1..node-3` (4 CPU, 8Gi,
    /// 110 pods) and the DNS add-on.
    pub fn standard(seed: u64) -> Self {
        let mut c = Cluster::with_default_nodes(seed);
        c.install_cluster_dns();
        c
    }

    /// Three Ready worker nodes `node-1..node-3` (4 CPU, 8Gi, 110 pods) and no add-on:
    /// the controllers' tests count every Pod in the cluster as theirs.
    pub fn with_default_nodes(seed: u64) -> Self {
        let mut c = Cluster::new(seed);
        for i in 1..=3 {
            // Names are fixed and distinct: registration cannot fail.
            let _ = c.add_node(&format!("node-{i}"), NodeConfig::default());
        }
        c
    }

    /// The scheduler (its queues and its last attempt per Pod).
    pub fn scheduler(&self) -> &crate::scheduler::Scheduler {
        &self.controllers.scheduler
    }

    /// The seed this cluster was created with.
    pub fn seed(&self) -> u64 {
        self.seed
    }

    /// Simulated now (ms).
    pub fn now(&self) -> SimTime {
        self.now
    }

    /// When the next timer is due, if any.
    pub fn next_event_time(&self) -> Option<SimTime> {
        self.timers.peek_time()
    }

    /// True when only periodic background work (heartbeats, health checks of healthy
    /// nodes, the scheduler's flush) is pending: the cluster has converged.
    pub fn is_quiescent(&self) -> bool {
        // Cancellable work (evictions, NoExecute taints) is counted by its controllers'
        // live sets: a cancelled timer left in the queue must not hold settle() up.
        self.foreground_count() == 0 && !self.controllers.busy()
    }

    // ---- conveniences for the UI and tests (the command language builds on these) -------

    /// `kubectl create deployment NAME --image=IMAGE --replicas=N` with requests.
    pub fn create_deployment(
        &mut self,
        name: &str,
        image: &str,
        replicas: i64,
        cpu: &str,
        memory: &str,
    ) -> Result<(), ApiError> {
        let mut d = Deployment::create(name, "", image, replicas);
        let requests = &mut d.spec.template.spec.containers[0].resources.requests;
        if !cpu.is_empty() {
            requests.insert("cpu".into(), cpu.into());
        }
        if !memory.is_empty() {
            requests.insert("memory".into(), memory.into());
        }
        self.submit(
            &kubectl(),
            Request::Create {
                object: Object::Deployment(Box::new(d)),
                event: None,
            },
        )
        .map(|_| ())
    }

    /// `kubectl delete pod NAME --wait=false` in namespace `default`.
    pub fn delete_pod(&mut self, name: &str) -> Result<(), ApiError> {
        self.submit(
            &kubectl(),
            Request::Delete {
                kind: Kind::Pod,
                key: ObjKey::new("default", name),
                options: DeleteOptions::default(),
                event: None,
            },
        )
        .map(|_| ())
    }

    /// `kubectl scale deployment NAME --replicas=N` in namespace `default`.
    pub fn scale_deployment(&mut self, name: &str, replicas: i64) -> Result<(), ApiError> {
        let key = ObjKey::new("default", name);
        let mut d = self
            .store
            .get::<Deployment>(&key)
            .cloned()
            .ok_or_else(|| ApiError::not_found(Kind::Deployment, name))?;
        d.spec.replicas = replicas;
        self.submit(&kubectl(), Request::Update(Object::Deployment(Box::new(d))))
            .map(|_| ())
    }

    /// Events sorted by last occurrence (then namespace and name), as `kubectl get events
    /// -A --sort-by=.lastTimestamp`.
    pub fn events(&self) -> Vec<&Event> {
        self.store.events_by_last_seen().collect()
    }

    /// Whether a node's kubelet is powered on.
    pub fn node_up(&self, name: &str) -> bool {
        self.kubelets.get(name).is_some_and(|k| k.up)
    }

    /// A stable digest of the run: the watch log and every Event, for determinism checks.
    pub fn transcript(&self) -> String {
        let mut out = String::new();
        for e in &self.store.log {
            out.push_str(&format!(
                "{} {} {} {} {} {} {} {}\n",
                e.time,
                e.resource_version,
                e.type_.as_str(),
                e.verb,
                e.kind.name(),
                e.key,
                e.uid,
                e.writer
            ));
        }
        for e in self.events() {
            out.push_str(&format!(
                "{} {} {}/{} {} x{} {}\n",
                e.last_ms,
                e.type_,
                e.involved_object.kind,
                e.involved_object.name,
                e.reason,
                e.count,
                e.message
            ));
        }
        out
    }
}

/// A kubelet's identity: writer `kubelet/<node>`, event source `kubelet` on host `<node>`.
pub fn kubelet_component(node: &str) -> Component {
    Component {
        writer: writer::kubelet(node),
        event_component: "kubelet".into(),
        host: node.into(),
    }
}
