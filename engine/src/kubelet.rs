//! The kubelet of one node: registers the Node, renews its Lease (the heartbeat), and
//! runs the Pods bound to it — pull the image, create and start the containers, report
//! status — and stops them when they are deleted.
//!
//! Upstream: `pkg/kubelet/kubelet.go` (`syncPod`), `pkg/kubelet/kuberuntime`
//! (`startContainer`: pull → create → start, one container after another),
//! `pkg/kubelet/images/image_manager.go` (the Pulling / Pulled events),
//! `pkg/kubelet/nodelease` (renew every 10 s, duration 40 s),
//! `pkg/kubelet/status/status_manager.go` (the final delete with grace 0).
//!
//! A powered-off node's kubelet writes nothing: its timers carry an epoch and are
//! ignored once the epoch moves, exactly like a process that is gone.

use crate::api::*;
use crate::apiserver::{DeleteOptions, ObjKey, Store};
use crate::client::{event_ref, Request};
pub use crate::config::KubeletTiming;
use crate::hash::fnv1a32;
use crate::time::{rfc3339, SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet};

/// Lease renew interval.
pub const LEASE_RENEW_INTERVAL: SimTime = 10 * SECOND;
/// Lease duration.
pub const LEASE_DURATION_SECONDS: i64 = 40;
/// Kubelet version reported by every node.
pub const KUBELET_VERSION: &str = "v1.33.0";

/// Simulated size of an image in bytes: deterministic from its name (20–120 MB).
pub fn image_size(image: &str) -> u64 {
    let h = fnv1a32(image.as_bytes()) as u64;
    20_000_000 + (h % 100_000_000)
}

/// 64 hex characters derived from `seed` (stand-in for a sha256 digest or container id).
fn hex64(seed: &str) -> String {
    let mut out = String::new();
    for i in 0..8u8 {
        let h = fnv1a32(format!("{seed}/{i}").as_bytes());
        out.push_str(&format!("{h:08x}"));
    }
    out
}

/// The resolved image id the runtime reports, e.g. `docker.io/library/nginx@sha256:…`.
pub fn image_id(image: &str) -> String {
    let repo = image.split(['@']).next().unwrap_or(image);
    let repo = match repo.rsplit_once(':') {
        Some((r, tag)) if !tag.contains('/') => r,
        _ => repo,
    };
    let full = match repo.matches('/').count() {
        0 => format!("docker.io/library/{repo}"),
        _ if repo
            .split('/')
            .next()
            .is_some_and(|h| h.contains('.') || h.contains(':')) =>
        {
            repo.to_string()
        }
        _ => format!("docker.io/{repo}"),
    };
    format!("{full}@sha256:{}", hex64(&full))
}

/// `nodeStatusMaxImages`.
pub const NODE_STATUS_MAX_IMAGES: usize = 50;

/// The fully qualified tag reference containerd reports for `image`
/// (`nginx:1.27` → `docker.io/library/nginx:1.27`; no tag → `:latest`).
pub fn image_repo_tag(image: &str) -> String {
    let digest = image_id(image);
    let repo = digest.split('@').next().unwrap_or(&digest).to_string();
    let tag = match image.split('@').next().unwrap_or(image).rsplit_once(':') {
        Some((_, t)) if !t.contains('/') => t.to_string(),
        _ => "latest".into(),
    };
    format!("{repo}:{tag}")
}

/// `status.images` for a set of images: both names, largest first, at most 50.
pub fn node_images(images: &BTreeSet<String>) -> Vec<ContainerImage> {
    let mut v: Vec<ContainerImage> = images
        .iter()
        .map(|i| ContainerImage {
            names: vec![image_id(i), image_repo_tag(i)],
            size_bytes: image_size(i) as i64,
        })
        .collect();
    v.sort_by(|a, b| b.size_bytes.cmp(&a.size_bytes).then(a.names.cmp(&b.names)));
    v.truncate(NODE_STATUS_MAX_IMAGES);
    v
}

/// Which container of a Pod: app containers and init containers share the pull steps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Slot {
    /// `spec.containers[i]`.
    App(usize),
    /// `spec.initContainers[j]`.
    Init(usize),
}

impl Slot {
    fn container(self, pod: &Pod) -> Option<&Container> {
        match self {
            Slot::App(i) => pod.spec.containers.get(i),
            Slot::Init(j) => pod.spec.init_containers.get(j),
        }
    }

    /// The timer that creates and starts it.
    fn start(self, uid: &str) -> KubeletTimer {
        match self {
            Slot::App(i) => KubeletTimer::Start(uid.into(), i),
            Slot::Init(j) => KubeletTimer::InitStart(uid.into(), j),
        }
    }

    /// The timer for its finished pull.
    fn pulled(self, uid: &str) -> KubeletTimer {
        match self {
            Slot::App(i) => KubeletTimer::PullDone(uid.into(), i),
            Slot::Init(j) => KubeletTimer::InitPullDone(uid.into(), j),
        }
    }
}

/// Timers the kubelet asks for (the cluster adds the node name and epoch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KubeletTimer {
    /// Renew the Lease.
    Heartbeat,
    /// First sync of a newly bound Pod.
    Sync(String),
    /// An image pull finished: (pod uid, container index).
    PullDone(String, usize),
    /// Init container `j`: pull (or find) its image.
    InitPull(String, usize),
    /// Init container `j`: its image arrived.
    InitPullDone(String, usize),
    /// Init container `j`: create and start it (a restart when it ran before).
    InitStart(String, usize),
    /// Init container `j` exits with this code.
    InitExit(String, usize, i64),
    /// Init container `j` failed and waits out its back-off: CrashLoopBackOff.
    InitBackOff(String, usize),
    /// A container is created and started: (pod uid, container index).
    Start(String, usize),
    /// Stop the containers of a deleted Pod.
    Kill(String),
    /// A pull the registry refused: (pod uid, container index).
    PullFailed(String, usize),
    /// The sync after a failed pull: ImagePullBackOff.
    ImageBackOff(String, usize),
    /// Pull again after the image back-off.
    RetryPull(String, usize),
    /// A container exits with code 1: (pod uid, container index, container generation).
    Crash(String, usize, u64),
    /// The restart decision for an exited container.
    Restart(String, usize, u64),
    /// A readiness probe tick.
    Probe(String, usize, u64),
    /// A liveness probe tick.
    Liveness(String, usize, u64),
    /// A startup probe tick.
    Startup(String, usize, u64),
    /// The containers of a deleted Pod have exited.
    Stopped(String),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Stage {
    Starting,
    Running,
    Killing,
}

#[derive(Clone, Debug)]
struct Worker {
    key: ObjKey,
    stage: Stage,
    /// Per container: bumped at every start/exit, so timers of an older run are ignored.
    gens: Vec<u64>,
    /// Per container: the readiness prober's state.
    probes: Vec<ProbeState>,
    /// Per container: the liveness prober's state.
    liveness: Vec<ProbeState>,
    /// Per container: the startup prober's state.
    startup: Vec<ProbeState>,
    /// Restart after a node reboot: restartCount + 1.
    restarted: bool,
}

/// A readiness prober worker's state for one container.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct ProbeState {
    /// Time of the first probe; later ones follow every `period`.
    t0: SimTime,
    period: SimTime,
    successes: i64,
    failures: i64,
    /// A probe timer is pending.
    armed: bool,
}

/// `flowcontrol.Backoff` entry: current delay and when it was last used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Backoff {
    delay: SimTime,
    last_update: SimTime,
}

/// Back-off start for restarts and image pulls (10 s)…
pub const INITIAL_BACKOFF: SimTime = 10 * SECOND;
/// …doubling up to 300 s (`MaxContainerBackOff`); ten quiet minutes reset it.
pub const MAX_BACKOFF: SimTime = 300 * SECOND;
/// How long an init container runs before it completes (exit 0).
pub const INIT_RUN: SimTime = 2 * SECOND;

fn waiting_state(reason: &str) -> ContainerState {
    ContainerState {
        waiting: Some(ContainerStateWaiting {
            reason: reason.into(),
            message: String::new(),
        }),
        ..Default::default()
    }
}

/// How soon the kubelet notices a container exit (PLEG relist period).
pub const PLEG_RELIST: SimTime = SECOND;

/// Set container `name` waiting with `reason` and `message`.
fn set_waiting(p: &mut Pod, name: &str, reason: &str, message: &str) {
    if let Some(cs) = p
        .status
        .container_statuses
        .iter_mut()
        .find(|x| x.name == name)
    {
        cs.state = ContainerState {
            waiting: Some(ContainerStateWaiting {
                reason: reason.into(),
                message: message.into(),
            }),
            ..Default::default()
        };
        cs.ready = false;
    }
}

/// ContainersReady / Ready from the containers' readiness; true when all are ready.
fn refresh_ready(p: &mut Pod, now: SimTime) -> bool {
    let unready: Vec<String> = p
        .status
        .container_statuses
        .iter()
        .filter(|x| !x.ready)
        .map(|x| x.name.clone())
        .collect();
    if unready.is_empty() {
        set_condition(
            &mut p.status.conditions,
            cond("ContainersReady", "True", "", "", now),
        );
        set_condition(&mut p.status.conditions, cond("Ready", "True", "", "", now));
        true
    } else {
        let msg = format!("containers with unready status: [{}]", unready.join(" "));
        set_condition(
            &mut p.status.conditions,
            cond("ContainersReady", "False", "ContainersNotReady", &msg, now),
        );
        set_condition(
            &mut p.status.conditions,
            cond("Ready", "False", "ContainersNotReady", &msg, now),
        );
        false
    }
}

/// The fully qualified reference a runtime resolves (`docker.io/library/nginx:1.27`).
pub fn image_reference(image: &str) -> String {
    let (repo, tag) = match image.rsplit_once(':') {
        Some((r, t)) if !t.contains('/') => (r, t),
        _ => (image, "latest"),
    };
    let full = match repo.matches('/').count() {
        0 => format!("docker.io/library/{repo}"),
        _ if repo
            .split('/')
            .next()
            .is_some_and(|h| h.contains('.') || h.contains(':')) =>
        {
            repo.to_string()
        }
        _ => format!("docker.io/{repo}"),
    };
    format!("{full}:{tag}")
}

/// containerd's error for an image the registry does not have.
pub fn pull_error(image: &str) -> String {
    let r = image_reference(image);
    format!("rpc error: code = NotFound desc = failed to pull and unpack image \"{r}\": failed to resolve reference \"{r}\": {r}: not found")
}

/// Capacity a node registers with.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeConfig {
    /// CPU, e.g. `4`.
    pub cpu: String,
    /// Memory, e.g. `8Gi`.
    pub memory: String,
    /// Max Pods, e.g. `110`.
    pub pods: i64,
    /// Extra labels (zone, disk…).
    pub labels: StringMap,
    /// Taints to register with.
    pub taints: Vec<Taint>,
}

impl Default for NodeConfig {
    fn default() -> Self {
        NodeConfig {
            cpu: "4".into(),
            memory: "8Gi".into(),
            pods: 110,
            labels: StringMap::new(),
            taints: vec![],
        }
    }
}

/// One node's kubelet.
#[derive(Clone, Debug)]
pub struct Kubelet {
    /// Node name.
    pub node: String,
    /// Powered on.
    pub up: bool,
    /// Alive but cut off from the API server (`sim node partition`): containers keep
    /// running, nothing is reported, no change is seen.
    pub partitioned: bool,
    /// Bumped at every power change; stale timers are ignored.
    pub epoch: u64,
    /// Images present on the node.
    pub images: BTreeSet<String>,
    /// The image set last reported in the node status: the status sync computes the
    /// report (digests and sizes of up to 50 images) only when the set changed.
    reported_images: Option<BTreeSet<String>>,
    /// Registration config.
    pub config: NodeConfig,
    /// Timing.
    pub timing: KubeletTiming,
    workers: BTreeMap<String, Worker>,
    /// Images the registry refuses (`sim image-fail`).
    pub refused_images: BTreeSet<String>,
    /// Images whose containers exit with code 1 this long after starting (`sim image-crash`).
    pub crashing_images: BTreeMap<String, SimTime>,
    /// Pods whose application fails its readiness probe (`sim unready`).
    pub unready: BTreeSet<String>,
    /// Pods whose application hangs (`sim hang`): it fails liveness and readiness probes
    /// until its container is restarted.
    pub hung: BTreeSet<String>,
    backoff: BTreeMap<String, Backoff>,
    index: u32,
    ip_seq: u32,
}

/// Requests to send and timers to arm.
pub type KubeletOutput = (Vec<Request>, Vec<(SimTime, KubeletTimer)>);

fn cond(type_: &str, status: &str, reason: &str, message: &str, now: SimTime) -> Condition {
    Condition {
        type_: type_.into(),
        status: status.into(),
        last_heartbeat_time: None,
        last_transition_time: Some(rfc3339(now)),
        reason: reason.into(),
        message: message.into(),
        transition_ms: now,
        ..Default::default()
    }
}

impl Kubelet {
    /// A kubelet for node number `index` (used for its addresses).
    pub fn new(node: &str, index: u32, config: NodeConfig, timing: KubeletTiming) -> Self {
        Kubelet {
            node: node.into(),
            up: true,
            partitioned: false,
            epoch: 0,
            images: BTreeSet::new(),
            reported_images: None,
            config,
            timing,
            workers: BTreeMap::new(),
            refused_images: BTreeSet::new(),
            crashing_images: BTreeMap::new(),
            unready: BTreeSet::new(),
            hung: BTreeSet::new(),
            backoff: BTreeMap::new(),
            index,
            ip_seq: 1,
        }
    }

    fn host_ip(&self) -> String {
        format!("10.0.{}.{}", self.index / 250, self.index % 250 + 2)
    }

    fn event(
        &self,
        meta: &ObjectMeta,
        type_: &'static str,
        reason: &str,
        message: String,
    ) -> Request {
        Request::Event {
            involved: event_ref(Kind::Pod, meta),
            type_,
            reason: reason.into(),
            message,
        }
    }

    fn ready_conditions(&self, now: SimTime) -> Vec<Condition> {
        let mut c = vec![
            cond(
                "MemoryPressure",
                "False",
                "KubeletHasSufficientMemory",
                "kubelet has sufficient memory available",
                now,
            ),
            cond(
                "DiskPressure",
                "False",
                "KubeletHasNoDiskPressure",
                "kubelet has no disk pressure",
                now,
            ),
            cond(
                "PIDPressure",
                "False",
                "KubeletHasSufficientPID",
                "kubelet has sufficient PID available",
                now,
            ),
            cond(
                "Ready",
                "True",
                "KubeletReady",
                "kubelet is posting ready status",
                now,
            ),
        ];
        for x in c.iter_mut() {
            x.last_heartbeat_time = Some(rfc3339(now));
        }
        c
    }

    fn lease(&self, now: SimTime) -> Lease {
        Lease {
            metadata: ObjectMeta {
                name: self.node.clone(),
                namespace: "kube-node-lease".into(),
                ..Default::default()
            },
            spec: LeaseSpec {
                holder_identity: self.node.clone(),
                lease_duration_seconds: LEASE_DURATION_SECONDS,
                renew_time: Some(rfc3339(now)),
                renew_ms: now,
            },
        }
    }

    /// Register the Node and its Lease, and start heartbeating.
    pub fn register(&mut self, now: SimTime) -> KubeletOutput {
        let mut labels = StringMap::new();
        labels.insert("kubernetes.io/hostname".into(), self.node.clone());
        labels.insert("kubernetes.io/os".into(), "linux".into());
        labels.insert("kubernetes.io/arch".into(), "amd64".into());
        labels.extend(self.config.labels.clone());
        let mut resources = StringMap::new();
        resources.insert("cpu".into(), self.config.cpu.clone());
        resources.insert("memory".into(), self.config.memory.clone());
        resources.insert("pods".into(), self.config.pods.to_string());
        let node = Node {
            metadata: ObjectMeta {
                name: self.node.clone(),
                labels,
                ..Default::default()
            },
            spec: NodeSpec {
                unschedulable: false,
                taints: self.config.taints.clone(),
                pod_cidr: format!("10.244.{}.0/24", self.index),
            },
            status: NodeStatus {
                capacity: resources.clone(),
                allocatable: resources,
                conditions: self.ready_conditions(now),
                addresses: vec![
                    NodeAddress {
                        type_: "InternalIP".into(),
                        address: self.host_ip(),
                    },
                    NodeAddress {
                        type_: "Hostname".into(),
                        address: self.node.clone(),
                    },
                ],
                node_info: NodeSystemInfo {
                    kubelet_version: KUBELET_VERSION.into(),
                    container_runtime_version: "containerd://2.0.5".into(),
                    operating_system: "linux".into(),
                    architecture: "amd64".into(),
                },
                images: node_images(&self.images),
            },
        };
        self.reported_images = Some(self.images.clone());
        (
            vec![
                Request::Create {
                    object: Object::Node(node),
                    event: None,
                },
                Request::Create {
                    object: Object::Lease(self.lease(now)),
                    event: None,
                },
            ],
            vec![(now + LEASE_RENEW_INTERVAL, KubeletTimer::Heartbeat)],
        )
    }

    /// Renew the Lease.
    pub fn heartbeat(&mut self, store: &Store, now: SimTime) -> KubeletOutput {
        let mut lease = self.lease(now);
        lease.metadata.resource_version.clear();
        let mut requests = vec![Request::Update(Object::Lease(lease))];
        // The node status sync (every 10 s, like the Lease here): report the images
        // when they changed — what the scheduler's ImageLocality reads.
        let unchanged = self.reported_images.as_ref() == Some(&self.images);
        if let Some(n) = store
            .get::<Node>(&ObjKey::new("", &self.node))
            .filter(|_| !unchanged)
        {
            let images = node_images(&self.images);
            if n.status.images != images {
                let mut n = n.clone();
                n.status.images = images;
                n.metadata.resource_version.clear();
                requests.push(Request::UpdateStatus(Object::Node(n)));
            }
            self.reported_images = Some(self.images.clone());
        }
        (
            requests,
            vec![(now + LEASE_RENEW_INTERVAL, KubeletTimer::Heartbeat)],
        )
    }

    /// Power off: the kubelet and every container stop; nothing more is reported.
    pub fn power_off(&mut self) {
        self.up = false;
        self.epoch += 1;
        self.workers.clear();
        // Back-off lives in the kubelet's memory: a reboot forgets it.
        self.backoff.clear();
    }

    /// Cut the node off from the API server: its containers keep running exactly as
    /// they are, but it can neither report nor see anything.
    pub fn partition(&mut self) {
        self.partitioned = true;
        // Its pending work (probes, restarts, reports) freezes with the connection.
        self.epoch += 1;
    }

    /// The network comes back: heartbeat, post Ready, and reconcile with what the API
    /// server decided meanwhile — Pods deleted there are stopped now (for an evicted
    /// Pod this is when the duplicate instance finally ends), the others report again.
    pub fn heal(&mut self, store: &Store, now: SimTime) -> KubeletOutput {
        self.partitioned = false;
        self.epoch += 1;
        let mut requests = Vec::new();
        let mut timers = vec![(now + LEASE_RENEW_INTERVAL, KubeletTimer::Heartbeat)];
        let mut lease = self.lease(now);
        lease.metadata.resource_version.clear();
        requests.push(Request::Update(Object::Lease(lease)));
        if let Some(n) = store.get::<Node>(&ObjKey::new("", &self.node)) {
            if n.ready_status() != "True" {
                let mut n = n.clone();
                n.status.conditions = self.ready_conditions(now);
                n.metadata.resource_version.clear();
                requests.push(Request::UpdateStatus(Object::Node(n.clone())));
                requests.push(Request::Event {
                    involved: event_ref(Kind::Node, &n.metadata),
                    type_: "Normal",
                    reason: "NodeReady".into(),
                    message: format!("Node {} status is now: NodeReady", self.node),
                });
            }
        }
        let uids: Vec<String> = self.workers.keys().cloned().collect();
        for uid in uids {
            let Some(w) = self.workers.get_mut(&uid) else {
                continue;
            };
            match store.get::<Pod>(&w.key).filter(|p| p.metadata.uid == uid) {
                None => {
                    // Deleted (force) while we could not see it: the runtime cleans up.
                    self.workers.remove(&uid);
                }
                Some(p) if p.metadata.is_deleting() => {
                    w.stage = Stage::Killing;
                    timers.push((now, KubeletTimer::Kill(uid.clone())));
                }
                Some(p) => {
                    // Report what actually runs (the node controller had marked it not Ready).
                    let mut p = p.clone();
                    refresh_ready(&mut p, now);
                    p.metadata.resource_version.clear();
                    requests.push(Request::UpdateStatus(Object::Pod(Box::new(p))));
                }
            }
        }
        // Pods bound here while we were cut off.
        for p in store.pods_on_node(&self.node) {
            if !p.is_terminal()
                && !p.metadata.is_deleting()
                && !self.workers.contains_key(&p.metadata.uid)
            {
                let uid = p.metadata.uid.clone();
                self.workers.insert(
                    uid.clone(),
                    Worker {
                        key: ObjKey::of(&p.metadata),
                        stage: Stage::Starting,
                        restarted: false,
                        gens: Vec::new(),
                        probes: Vec::new(),
                        liveness: Vec::new(),
                        startup: Vec::new(),
                    },
                );
                timers.push((now + self.timing.sync_latency, KubeletTimer::Sync(uid)));
            }
        }
        (requests, timers)
    }

    /// What this node's container runtime is running (`crictl ps`): (pod, container,
    /// image) for every Pod whose containers have started and not been stopped.
    pub fn running(&self, store: &Store) -> Vec<(String, String, String)> {
        if !self.up {
            return vec![];
        }
        let mut out = Vec::new();
        for (uid, w) in &self.workers {
            if w.stage == Stage::Killing && !self.partitioned {
                continue;
            }
            let Some(p) = store.get::<Pod>(&w.key).filter(|p| p.metadata.uid == *uid) else {
                continue;
            };
            for cs in &p.status.container_statuses {
                if cs.state.running.is_some() {
                    out.push((p.metadata.name.clone(), cs.name.clone(), cs.image.clone()));
                }
            }
        }
        out
    }

    /// Power on: post Ready, renew the Lease, and bring back every Pod bound here
    /// (containers restart in the same Pods; deleted Pods are finished off).
    pub fn power_on(&mut self, store: &Store, now: SimTime) -> KubeletOutput {
        self.up = true;
        self.epoch += 1;
        let mut requests = Vec::new();
        let mut timers = vec![(now + LEASE_RENEW_INTERVAL, KubeletTimer::Heartbeat)];
        let mut lease = self.lease(now);
        lease.metadata.resource_version.clear();
        requests.push(Request::Update(Object::Lease(lease)));
        if let Some(n) = store.get::<Node>(&ObjKey::new("", &self.node)) {
            let mut n = n.clone();
            n.status.conditions = self.ready_conditions(now);
            n.metadata.resource_version.clear();
            requests.push(Request::UpdateStatus(Object::Node(n.clone())));
            requests.push(Request::Event {
                involved: event_ref(Kind::Node, &n.metadata),
                type_: "Normal",
                reason: "NodeReady".into(),
                message: format!("Node {} status is now: NodeReady", self.node),
            });
        }
        let pods: Vec<Pod> = store.pods_on_node(&self.node).cloned().collect();
        for p in pods {
            if p.is_terminal() {
                continue;
            }
            let uid = p.metadata.uid.clone();
            if p.metadata.is_deleting() {
                self.workers.insert(
                    uid.clone(),
                    Worker {
                        key: ObjKey::of(&p.metadata),
                        stage: Stage::Killing,
                        restarted: false,
                        gens: Vec::new(),
                        probes: Vec::new(),
                        liveness: Vec::new(),
                        startup: Vec::new(),
                    },
                );
                timers.push((now + self.timing.sync_latency, KubeletTimer::Stopped(uid)));
            } else {
                requests.push(self.event(
                    &p.metadata,
                    "Normal",
                    "SandboxChanged",
                    "Pod sandbox changed, it will be killed and re-created.".into(),
                ));
                self.workers.insert(
                    uid.clone(),
                    Worker {
                        key: ObjKey::of(&p.metadata),
                        stage: Stage::Starting,
                        restarted: true,
                        gens: Vec::new(),
                        probes: Vec::new(),
                        liveness: Vec::new(),
                        startup: Vec::new(),
                    },
                );
                timers.push((now + self.timing.sync_latency, KubeletTimer::Sync(uid)));
            }
        }
        (requests, timers)
    }

    /// Informer handler for Pods bound to this node.
    pub fn on_pod_change(
        &mut self,
        old: Option<&Pod>,
        new: Option<&Pod>,
        now: SimTime,
    ) -> KubeletOutput {
        if !self.up {
            return (vec![], vec![]);
        }
        let Some(p) = new else {
            if let Some(o) = old {
                self.workers.remove(&o.metadata.uid);
            }
            return (vec![], vec![]);
        };
        if p.spec.node_name != self.node || p.is_terminal() {
            return (vec![], vec![]);
        }
        let uid = p.metadata.uid.clone();
        match self.workers.get_mut(&uid) {
            None if !p.metadata.is_deleting() => {
                self.workers.insert(
                    uid.clone(),
                    Worker {
                        key: ObjKey::of(&p.metadata),
                        stage: Stage::Starting,
                        restarted: false,
                        gens: Vec::new(),
                        probes: Vec::new(),
                        liveness: Vec::new(),
                        startup: Vec::new(),
                    },
                );
                (
                    vec![],
                    vec![(now + self.timing.sync_latency, KubeletTimer::Sync(uid))],
                )
            }
            None => {
                self.workers.insert(
                    uid.clone(),
                    Worker {
                        key: ObjKey::of(&p.metadata),
                        stage: Stage::Killing,
                        restarted: false,
                        gens: Vec::new(),
                        probes: Vec::new(),
                        liveness: Vec::new(),
                        startup: Vec::new(),
                    },
                );
                (
                    vec![],
                    vec![(now + self.timing.sync_latency, KubeletTimer::Stopped(uid))],
                )
            }
            Some(w) if p.metadata.is_deleting() && w.stage != Stage::Killing => {
                w.stage = Stage::Killing;
                (
                    vec![],
                    vec![(now + self.timing.sync_latency, KubeletTimer::Kill(uid))],
                )
            }
            Some(_) => (vec![], vec![]),
        }
    }

    fn pod<'a>(&self, store: &'a Store, uid: &str) -> Option<&'a Pod> {
        let w = self.workers.get(uid)?;
        store.get::<Pod>(&w.key).filter(|p| p.metadata.uid == uid)
    }

    /// Handle one of this kubelet's timers.
    pub fn fire(&mut self, store: &Store, timer: KubeletTimer, now: SimTime) -> KubeletOutput {
        if !self.up {
            return (vec![], vec![]);
        }
        match timer {
            KubeletTimer::Heartbeat => self.heartbeat(store, now),
            KubeletTimer::Sync(uid) => self.sync_pod(store, &uid, now),
            KubeletTimer::PullDone(uid, i) => self.pull_done(store, &uid, i, now),
            KubeletTimer::InitPull(uid, j) => self.init_pull(store, &uid, j, now),
            KubeletTimer::InitPullDone(uid, j) => self.init_pull_done(store, &uid, j, now),
            KubeletTimer::InitStart(uid, j) => self.init_start(store, &uid, j, now),
            KubeletTimer::InitExit(uid, j, code) => self.init_exit(store, &uid, j, code, now),
            KubeletTimer::InitBackOff(uid, j) => self.init_backoff(store, &uid, j, now),
            KubeletTimer::Start(uid, i) => self.start_container(store, &uid, i, now),
            KubeletTimer::Kill(uid) => self.kill_pod(store, &uid, now),
            KubeletTimer::PullFailed(uid, i) => self.pull_failed(store, &uid, i, now),
            KubeletTimer::ImageBackOff(uid, i) => self.image_backoff(store, &uid, i, now),
            KubeletTimer::RetryPull(uid, i) => self.retry_pull(store, &uid, i, now),
            KubeletTimer::Crash(uid, i, g) => {
                self.crash(store, &uid, i, Some(g), now).unwrap_or_default()
            }
            KubeletTimer::Restart(uid, i, g) => self.restart(store, &uid, i, g, now),
            KubeletTimer::Probe(uid, i, g) => self.probe(store, &uid, i, g, now),
            KubeletTimer::Liveness(uid, i, g) => self.liveness(store, &uid, i, g, now),
            KubeletTimer::Startup(uid, i, g) => self.startup(store, &uid, i, g, now),
            KubeletTimer::Stopped(uid) => self.stopped(store, &uid, now),
        }
    }

    fn starting(&self, uid: &str) -> bool {
        self.workers
            .get(uid)
            .is_some_and(|w| w.stage == Stage::Starting)
    }

    /// `syncPod`: accept the Pod (IP, ContainerCreating) and begin with container 0.
    fn sync_pod(&mut self, store: &Store, uid: &str, now: SimTime) -> KubeletOutput {
        if !self.starting(uid) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid) else {
            self.workers.remove(uid);
            return (vec![], vec![]);
        };
        let restarted = self.workers.get(uid).is_some_and(|w| w.restarted);
        let mut p = pod.clone();
        let s = &mut p.status;
        s.phase = "Pending".into();
        s.host_ip = self.host_ip();
        if s.pod_ip.is_empty() || restarted {
            s.pod_ip = format!("10.244.{}.{}", self.index, self.ip_seq % 250 + 2);
            self.ip_seq += 1;
        }
        if s.start_time.is_none() {
            s.start_time = Some(rfc3339(now));
        }
        let names: Vec<String> = p.spec.containers.iter().map(|c| c.name.clone()).collect();
        let old_statuses = s.container_statuses.clone();
        s.container_statuses = p
            .spec
            .containers
            .iter()
            .map(|c| {
                let prev = old_statuses.iter().find(|x| x.name == c.name);
                let restarts = prev.map(|x| x.restart_count).unwrap_or(0) + i64::from(restarted);
                ContainerStatus {
                    name: c.name.clone(),
                    state: ContainerState {
                        waiting: Some(ContainerStateWaiting {
                            reason: "ContainerCreating".into(),
                            message: String::new(),
                        }),
                        ..Default::default()
                    },
                    last_state: if restarted {
                        ContainerState {
                            terminated: Some(ContainerStateTerminated {
                                exit_code: 255,
                                reason: "Unknown".into(),
                                started_at: String::new(),
                                finished_at: rfc3339(now),
                            }),
                            ..Default::default()
                        }
                    } else {
                        prev.map(|x| x.last_state.clone()).unwrap_or_default()
                    },
                    ready: false,
                    restart_count: restarts,
                    image: c.image.clone(),
                    image_id: String::new(),
                    container_id: String::new(),
                    started: Some(false),
                }
            })
            .collect();
        let unready = format!("containers with unready status: [{}]", names.join(" "));
        let has_init = !p.spec.init_containers.is_empty();
        let s = &mut p.status;
        let initialized = if has_init {
            // Init containers run one by one first; the app containers wait.
            let old_init = s.init_container_statuses.clone();
            s.init_container_statuses = p
                .spec
                .init_containers
                .iter()
                .map(|c| ContainerStatus {
                    name: c.name.clone(),
                    state: waiting_state("PodInitializing"),
                    restart_count: old_init
                        .iter()
                        .find(|x| x.name == c.name)
                        .map(|x| x.restart_count)
                        .unwrap_or(0),
                    image: c.image.clone(),
                    started: Some(false),
                    ..Default::default()
                })
                .collect();
            for cs in &mut s.container_statuses {
                cs.state = waiting_state("PodInitializing");
            }
            let init_names: Vec<&str> = p
                .spec
                .init_containers
                .iter()
                .map(|c| c.name.as_str())
                .collect();
            cond(
                "Initialized",
                "False",
                "ContainersNotInitialized",
                &format!(
                    "containers with incomplete status: [{}]",
                    init_names.join(" ")
                ),
                now,
            )
        } else {
            cond("Initialized", "True", "", "", now)
        };
        for c in [
            cond("PodReadyToStartContainers", "True", "", "", now),
            initialized,
            cond("Ready", "False", "ContainersNotReady", &unready, now),
            cond(
                "ContainersReady",
                "False",
                "ContainersNotReady",
                &unready,
                now,
            ),
        ] {
            set_condition(&mut s.conditions, c);
        }
        order_conditions(&mut p.status.conditions);
        p.metadata.resource_version.clear();
        let mut requests = vec![Request::UpdateStatus(Object::Pod(Box::new(p.clone())))];
        let (r, t) = if has_init {
            (vec![], vec![(now, KubeletTimer::InitPull(uid.into(), 0))])
        } else {
            self.pull(&p, uid, 0, now)
        };
        requests.extend(r);
        (requests, t)
    }

    // ---- init containers -------------------------------------------------------------

    /// Init container `j`: the image is present (start soon) or is pulled.
    fn init_pull(&mut self, store: &Store, uid: &str, j: usize, now: SimTime) -> KubeletOutput {
        if !self.starting(uid) {
            return (vec![], vec![]);
        }
        match self.pod(store, uid).cloned() {
            Some(pod) => self.pull_slot(&pod, uid, Slot::Init(j), now),
            None => (vec![], vec![]),
        }
    }

    fn init_pull_done(
        &mut self,
        store: &Store,
        uid: &str,
        j: usize,
        now: SimTime,
    ) -> KubeletOutput {
        self.pull_done_slot(store, uid, Slot::Init(j), now)
    }

    /// Create and start init container `j`; it runs to completion (exit 0 after
    /// [`INIT_RUN`]) unless its image is made to crash (`sim image-crash`: exit 1).
    fn init_start(&mut self, store: &Store, uid: &str, j: usize, now: SimTime) -> KubeletOutput {
        if !self.starting(uid) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            return (vec![], vec![]);
        };
        let Some(c) = pod.spec.init_containers.get(j).cloned() else {
            return (vec![], vec![]);
        };
        let mut p = pod.clone();
        let mut requests = Vec::new();
        let mut restart = false;
        if let Some(cs) = p.status.init_container_statuses.get_mut(j) {
            restart = cs.state.terminated.is_some()
                || cs
                    .state
                    .waiting
                    .as_ref()
                    .is_some_and(|w| w.reason == "CrashLoopBackOff");
            if restart {
                cs.restart_count += 1;
                if cs.state.terminated.is_some() {
                    cs.last_state = ContainerState {
                        terminated: cs.state.terminated.take(),
                        ..Default::default()
                    };
                }
            }
            cs.state = ContainerState {
                running: Some(ContainerStateRunning {
                    started_at: rfc3339(now),
                }),
                ..Default::default()
            };
            cs.container_id = format!(
                "containerd://{}",
                hex64(&format!("{uid}/{}/{}", c.name, cs.restart_count))
            );
            cs.image_id = image_id(&c.image);
            cs.started = Some(true);
        }
        if restart {
            requests.push(self.event(
                &p.metadata,
                "Normal",
                "Pulled",
                format!("Container image \"{}\" already present on machine", c.image),
            ));
        }
        requests.push(self.event(
            &p.metadata,
            "Normal",
            "Created",
            format!("Created container {}", c.name),
        ));
        requests.push(self.event(
            &p.metadata,
            "Normal",
            "Started",
            format!("Started container {}", c.name),
        ));
        p.metadata.resource_version.clear();
        requests.push(Request::UpdateStatus(Object::Pod(Box::new(p))));
        let exit = match self.crashing_images.get(&c.image) {
            Some(after) => (now + after, 1),
            None => (now + INIT_RUN, 0),
        };
        (
            requests,
            vec![(exit.0, KubeletTimer::InitExit(uid.into(), j, exit.1))],
        )
    }

    /// Init container `j` exited: on success the next one (or the app containers)
    /// starts; on failure it is restarted after the crash back-off, or with
    /// `restartPolicy: Never` the Pod fails.
    fn init_exit(
        &mut self,
        store: &Store,
        uid: &str,
        j: usize,
        code: i64,
        now: SimTime,
    ) -> KubeletOutput {
        if !self.starting(uid) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            return (vec![], vec![]);
        };
        let Some(c) = pod.spec.init_containers.get(j).cloned() else {
            return (vec![], vec![]);
        };
        let mut p = pod.clone();
        if let Some(cs) = p.status.init_container_statuses.get_mut(j) {
            let started_at = cs
                .state
                .running
                .as_ref()
                .map(|r| r.started_at.clone())
                .unwrap_or_default();
            cs.state = ContainerState {
                terminated: Some(ContainerStateTerminated {
                    exit_code: code,
                    reason: if code == 0 { "Completed" } else { "Error" }.into(),
                    started_at,
                    finished_at: rfc3339(now),
                }),
                ..Default::default()
            };
            // A completed init container reports ready.
            cs.ready = code == 0;
        }
        let n = p.spec.init_containers.len();
        if code == 0 {
            if j + 1 < n {
                let rest: Vec<&str> = p.spec.init_containers[j + 1..]
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect();
                set_condition(
                    &mut p.status.conditions,
                    cond(
                        "Initialized",
                        "False",
                        "ContainersNotInitialized",
                        &format!("containers with incomplete status: [{}]", rest.join(" ")),
                        now,
                    ),
                );
                p.metadata.resource_version.clear();
                return (
                    vec![Request::UpdateStatus(Object::Pod(Box::new(p)))],
                    vec![(now + PLEG_RELIST, KubeletTimer::InitPull(uid.into(), j + 1))],
                );
            }
            // Every init container completed: the Pod is Initialized and the app
            // containers are pulled and started (still waiting PodInitializing).
            set_condition(
                &mut p.status.conditions,
                cond("Initialized", "True", "", "", now),
            );
            order_conditions(&mut p.status.conditions);
            p.metadata.resource_version.clear();
            let mut requests = vec![Request::UpdateStatus(Object::Pod(Box::new(p.clone())))];
            let (r, t) = self.pull(&p, uid, 0, now);
            requests.extend(r);
            return (requests, t);
        }
        if p.spec.restart_policy == "Never" {
            p.status.phase = "Failed".into();
            p.metadata.resource_version.clear();
            if let Some(w) = self.workers.get_mut(uid) {
                w.stage = Stage::Running;
            }
            return (
                vec![Request::UpdateStatus(Object::Pod(Box::new(p)))],
                vec![],
            );
        }
        let key = format!("{uid}/{}", c.name);
        let delay = match self.backoff.get(&key) {
            None => 0,
            Some(b) => b.delay,
        };
        let next = if delay == 0 {
            INITIAL_BACKOFF
        } else {
            (delay * 2).min(MAX_BACKOFF)
        };
        self.backoff.insert(
            key,
            Backoff {
                delay: next,
                last_update: now,
            },
        );
        p.metadata.resource_version.clear();
        let mut timers = vec![(
            now + PLEG_RELIST + delay,
            KubeletTimer::InitStart(uid.into(), j),
        )];
        if delay > 0 {
            timers.push((now + PLEG_RELIST, KubeletTimer::InitBackOff(uid.into(), j)));
        }
        (
            vec![Request::UpdateStatus(Object::Pod(Box::new(p)))],
            timers,
        )
    }

    /// A failed init container waits out its back-off: CrashLoopBackOff and `BackOff`.
    fn init_backoff(&mut self, store: &Store, uid: &str, j: usize, _now: SimTime) -> KubeletOutput {
        if !self.starting(uid) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            return (vec![], vec![]);
        };
        let Some(c) = pod.spec.init_containers.get(j).cloned() else {
            return (vec![], vec![]);
        };
        let delay = self
            .backoff
            .get(&format!("{uid}/{}", c.name))
            .map(|b| b.delay / 2)
            .unwrap_or(INITIAL_BACKOFF);
        let mut p = pod.clone();
        let what = format!("{}_{}({uid})", p.metadata.name, p.metadata.namespace);
        if let Some(cs) = p.status.init_container_statuses.get_mut(j) {
            if cs.state.terminated.is_some() {
                cs.last_state = ContainerState {
                    terminated: cs.state.terminated.take(),
                    ..Default::default()
                };
            }
            cs.state = ContainerState {
                waiting: Some(ContainerStateWaiting {
                    reason: "CrashLoopBackOff".into(),
                    message: format!(
                        "back-off {} restarting failed container={} pod={what}",
                        format_go_duration(delay.max(INITIAL_BACKOFF)),
                        c.name
                    ),
                }),
                ..Default::default()
            };
        }
        p.metadata.resource_version.clear();
        let ev = self.event(
            &p.metadata,
            "Warning",
            "BackOff",
            format!(
                "Back-off restarting failed container {} in pod {what}",
                c.name
            ),
        );
        (
            vec![Request::UpdateStatus(Object::Pod(Box::new(p))), ev],
            vec![],
        )
    }

    fn pull(&mut self, pod: &Pod, uid: &str, i: usize, now: SimTime) -> KubeletOutput {
        self.pull_slot(pod, uid, Slot::App(i), now)
    }

    /// The image of an (init) container is present (start soon) or is pulled; a refused
    /// one fails (app containers: ErrImagePull, then back-off).
    fn pull_slot(&mut self, pod: &Pod, uid: &str, slot: Slot, now: SimTime) -> KubeletOutput {
        let Some(c) = slot.container(pod) else {
            return (vec![], vec![]);
        };
        if self.images.contains(&c.image) {
            let ev = self.event(
                &pod.metadata,
                "Normal",
                "Pulled",
                format!("Container image \"{}\" already present on machine", c.image),
            );
            return (
                vec![ev],
                vec![(now + self.timing.container_start, slot.start(uid))],
            );
        }
        let ev = self.event(
            &pod.metadata,
            "Normal",
            "Pulling",
            format!("Pulling image \"{}\"", c.image),
        );
        if let (true, Slot::App(i)) = (self.refused_images.contains(&c.image), slot) {
            // The registry answers quickly with an error.
            return (
                vec![ev],
                vec![(
                    now + self.timing.pull_base,
                    KubeletTimer::PullFailed(uid.into(), i),
                )],
            );
        }
        let ms = self.pull_ms(&c.image);
        (vec![ev], vec![(now + ms, slot.pulled(uid))])
    }

    fn pull_ms(&self, image: &str) -> SimTime {
        self.timing.pull_base + image_size(image) / 1_000_000 * self.timing.pull_ms_per_mb
    }

    fn pull_done(&mut self, store: &Store, uid: &str, i: usize, now: SimTime) -> KubeletOutput {
        self.pull_done_slot(store, uid, Slot::App(i), now)
    }

    /// A pull finished: `Pulled` with the time and size, then the container starts.
    fn pull_done_slot(
        &mut self,
        store: &Store,
        uid: &str,
        slot: Slot,
        now: SimTime,
    ) -> KubeletOutput {
        if !self.starting(uid) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid) else {
            return (vec![], vec![]);
        };
        let Some(c) = slot.container(pod) else {
            return (vec![], vec![]);
        };
        let image = c.image.clone();
        let ev = self.event(
            &pod.metadata,
            "Normal",
            "Pulled",
            format!(
                "Successfully pulled image \"{image}\" in {secs} ({secs} including waiting). Image size: {} bytes.",
                image_size(&image),
                secs = format_go_duration(self.pull_ms(&image)),
            ),
        );
        self.images.insert(image);
        (
            vec![ev],
            vec![(now + self.timing.container_start, slot.start(uid))],
        )
    }

    /// The first start of container `i` during bring-up (then the next container's pull).
    fn start_container(
        &mut self,
        store: &Store,
        uid: &str,
        i: usize,
        now: SimTime,
    ) -> KubeletOutput {
        if !self.starting(uid) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            return (vec![], vec![]);
        };
        let (mut requests, mut timers, p) = self.start_one(&pod, uid, i, now, false);
        if i + 1 < p.spec.containers.len() {
            let (r, t) = self.pull(&p, uid, i + 1, now);
            requests.extend(r);
            timers.extend(t);
        }
        (requests, timers)
    }

    /// Create and start container `i` (a restart when `restart`): events, status, the
    /// readiness probe and, for images made to crash, the crash.
    fn start_one(
        &mut self,
        pod: &Pod,
        uid: &str,
        i: usize,
        now: SimTime,
        restart: bool,
    ) -> (Vec<Request>, Vec<(SimTime, KubeletTimer)>, Pod) {
        let mut p = pod.clone();
        let Some(c) = pod.spec.containers.get(i).cloned() else {
            return (vec![], vec![], p);
        };
        let mut requests = Vec::new();
        if restart {
            requests.push(self.event(
                &p.metadata,
                "Normal",
                "Pulled",
                format!("Container image \"{}\" already present on machine", c.image),
            ));
        }
        requests.push(self.event(
            &p.metadata,
            "Normal",
            "Created",
            format!("Created container {}", c.name),
        ));
        requests.push(self.event(
            &p.metadata,
            "Normal",
            "Started",
            format!("Started container {}", c.name),
        ));
        let gen = self.bump_gen(uid, i, p.spec.containers.len());
        let has_probe = c.readiness_probe.is_some();
        let has_startup = c.startup_probe.is_some();
        if let Some(cs) = p
            .status
            .container_statuses
            .iter_mut()
            .find(|x| x.name == c.name)
        {
            if restart {
                cs.restart_count += 1;
                if cs.state.terminated.is_some() {
                    cs.last_state = ContainerState {
                        terminated: cs.state.terminated.take(),
                        ..Default::default()
                    };
                }
            }
            cs.state = ContainerState {
                running: Some(ContainerStateRunning {
                    started_at: rfc3339(now),
                }),
                ..Default::default()
            };
            cs.container_id = format!(
                "containerd://{}",
                hex64(&format!("{uid}/{}/{}", c.name, cs.restart_count))
            );
            cs.image_id = image_id(&c.image);
            // Without a readiness probe a running container is ready as soon as it has
            // started; a startup probe decides when that is.
            cs.ready = !has_probe && !has_startup;
            cs.started = Some(!has_startup);
        }
        p.status.phase = "Running".into();
        let all_ready = refresh_ready(&mut p, now);
        if all_ready {
            if let Some(w) = self.workers.get_mut(uid) {
                w.stage = Stage::Running;
            }
        }
        let mut timers = Vec::new();
        if let Some(probe) = &c.startup_probe {
            // The other probes are armed once this one passes (`startup`).
            let first = now + probe.initial_delay_seconds.max(0) as u64 * 1000;
            if let Some(w) = self.workers.get_mut(uid) {
                w.startup[i] = ProbeState {
                    t0: first,
                    period: probe.period_seconds.max(1) as u64 * 1000,
                    successes: 0,
                    failures: 0,
                    armed: true,
                };
            }
            timers.push((first, KubeletTimer::Startup(uid.into(), i, gen)));
            if let Some(after) = self.crashing_images.get(&c.image) {
                timers.push((now + after, KubeletTimer::Crash(uid.into(), i, gen)));
            }
            p.metadata.resource_version.clear();
            requests.push(Request::UpdateStatus(Object::Pod(Box::new(p.clone()))));
            return (requests, timers, p);
        }
        timers.extend(self.arm_probes(uid, i, gen, &c, now));
        if let Some(after) = self.crashing_images.get(&c.image) {
            timers.push((now + after, KubeletTimer::Crash(uid.into(), i, gen)));
        }
        p.metadata.resource_version.clear();
        requests.push(Request::UpdateStatus(Object::Pod(Box::new(p.clone()))));
        (requests, timers, p)
    }

    /// Arm the readiness and liveness probers of container `i` (at start, or once its
    /// startup probe passed).
    fn arm_probes(
        &mut self,
        uid: &str,
        i: usize,
        gen: u64,
        c: &Container,
        now: SimTime,
    ) -> Vec<(SimTime, KubeletTimer)> {
        let mut timers = Vec::new();
        if let Some(probe) = &c.readiness_probe {
            let first = now + probe.initial_delay_seconds.max(0) as u64 * 1000;
            if let Some(w) = self.workers.get_mut(uid) {
                w.probes[i] = ProbeState {
                    t0: first,
                    period: probe.period_seconds.max(1) as u64 * 1000,
                    successes: 0,
                    failures: 0,
                    armed: true,
                };
            }
            timers.push((first, KubeletTimer::Probe(uid.into(), i, gen)));
        }
        if let Some(probe) = &c.liveness_probe {
            // A restart cures a hang; healthy liveness probes need no ticking (they change nothing).
            self.hung.remove(uid);
            let first = now + probe.initial_delay_seconds.max(0) as u64 * 1000;
            if let Some(w) = self.workers.get_mut(uid) {
                w.liveness[i] = ProbeState {
                    t0: first,
                    period: probe.period_seconds.max(1) as u64 * 1000,
                    successes: 0,
                    failures: 0,
                    armed: false,
                };
            }
        }
        timers
    }

    /// A startup probe tick: a healthy application passes (the container is `started`,
    /// the other probes begin; without a readiness probe it is Ready now); a hung one
    /// fails, `Unhealthy` each time, and at failureThreshold is killed and restarted.
    fn startup(
        &mut self,
        store: &Store,
        uid: &str,
        i: usize,
        gen: u64,
        now: SimTime,
    ) -> KubeletOutput {
        if !self.gen_is(uid, i, gen) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            return (vec![], vec![]);
        };
        let Some(c) = pod.spec.containers.get(i).cloned() else {
            return (vec![], vec![]);
        };
        let Some(probe) = c.startup_probe.clone() else {
            return (vec![], vec![]);
        };
        let hung = self.hung.contains(uid);
        let Some(w) = self.workers.get_mut(uid) else {
            return (vec![], vec![]);
        };
        let st = &mut w.startup[i];
        st.armed = false;
        if hung {
            st.failures += 1;
            let failures = st.failures;
            let period = st.period;
            let mut requests = vec![self.event(
                &pod.metadata,
                "Warning",
                "Unhealthy",
                format!(
                    "Startup probe failed: {}",
                    probe.failure_message(&pod.status.pod_ip)
                ),
            )];
            if failures < probe.failure_threshold.max(1) {
                if let Some(w) = self.workers.get_mut(uid) {
                    w.startup[i].armed = true;
                }
                return (
                    requests,
                    vec![(now + period, KubeletTimer::Startup(uid.into(), i, gen))],
                );
            }
            requests.push(self.event(
                &pod.metadata,
                "Normal",
                "Killing",
                format!(
                    "Container {} failed startup probe, will be restarted",
                    c.name
                ),
            ));
            self.hung.remove(uid);
            return match self.exit(store, uid, i, None, now, 137, "Error") {
                Ok((r, t)) => {
                    requests.extend(r);
                    (requests, t)
                }
                Err(_) => (requests, vec![]),
            };
        }
        let mut p = pod.clone();
        if let Some(cs) = p
            .status
            .container_statuses
            .iter_mut()
            .find(|x| x.name == c.name)
        {
            cs.started = Some(true);
            cs.ready = c.readiness_probe.is_none();
        }
        if refresh_ready(&mut p, now) {
            if let Some(w) = self.workers.get_mut(uid) {
                w.stage = Stage::Running;
            }
        }
        p.metadata.resource_version.clear();
        let timers = self.arm_probes(uid, i, gen, &c, now);
        (
            vec![Request::UpdateStatus(Object::Pod(Box::new(p)))],
            timers,
        )
    }

    fn bump_gen(&mut self, uid: &str, i: usize, n: usize) -> u64 {
        let Some(w) = self.workers.get_mut(uid) else {
            return 0;
        };
        if w.gens.len() < n {
            w.gens.resize(n, 0);
            w.probes.resize(n, ProbeState::default());
            w.liveness.resize(n, ProbeState::default());
            w.startup.resize(n, ProbeState::default());
        }
        w.gens[i] += 1;
        w.probes[i] = ProbeState::default();
        w.liveness[i] = ProbeState::default();
        w.startup[i] = ProbeState::default();
        w.gens[i]
    }

    fn gen_is(&self, uid: &str, i: usize, gen: u64) -> bool {
        self.workers
            .get(uid)
            .is_some_and(|w| w.stage != Stage::Killing && w.gens.get(i) == Some(&gen))
    }

    /// Container `i` exits with code 1 (`sim crash`, or an image made to crash). The
    /// restart decision follows one PLEG relist later.
    pub fn crash(
        &mut self,
        store: &Store,
        uid: &str,
        i: usize,
        gen: Option<u64>,
        now: SimTime,
    ) -> Result<KubeletOutput, String> {
        self.exit(store, uid, i, gen, now, 1, "Error")
    }

    /// Container `i` ends with `code` / `reason` (1/Error for a crash, 137/OOMKilled for
    /// the memory limit, 137/Error for a liveness kill); a restart decision follows.
    #[allow(clippy::too_many_arguments)]
    pub fn exit(
        &mut self,
        store: &Store,
        uid: &str,
        i: usize,
        gen: Option<u64>,
        now: SimTime,
        code: i64,
        reason: &str,
    ) -> Result<KubeletOutput, String> {
        if let Some(g) = gen {
            if !self.gen_is(uid, i, g) {
                return Ok((vec![], vec![]));
            }
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            return Err("the pod is not running on this node".into());
        };
        let Some(name) = pod.spec.containers.get(i).map(|c| c.name.clone()) else {
            return Err("no such container".into());
        };
        let mut p = pod.clone();
        let Some(cs) = p
            .status
            .container_statuses
            .iter_mut()
            .find(|x| x.name == name)
        else {
            return Err(format!("container {name} has not started"));
        };
        let Some(running) = cs.state.running.take() else {
            return Err(format!("container {name} is not running"));
        };
        cs.state = ContainerState {
            terminated: Some(ContainerStateTerminated {
                exit_code: code,
                reason: reason.into(),
                started_at: running.started_at,
                finished_at: rfc3339(now),
            }),
            ..Default::default()
        };
        cs.ready = false;
        cs.started = Some(false);
        refresh_ready(&mut p, now);
        let gen = self.bump_gen(uid, i, p.spec.containers.len());
        if let Some(w) = self.workers.get_mut(uid) {
            w.stage = Stage::Running;
        }
        p.metadata.resource_version.clear();
        Ok((
            vec![Request::UpdateStatus(Object::Pod(Box::new(p)))],
            vec![(now + PLEG_RELIST, KubeletTimer::Restart(uid.into(), i, gen))],
        ))
    }

    /// The restart decision for an exited container (`doBackOff`): restart now and
    /// double the back-off, or wait in CrashLoopBackOff until it has passed.
    fn restart(
        &mut self,
        store: &Store,
        uid: &str,
        i: usize,
        gen: u64,
        now: SimTime,
    ) -> KubeletOutput {
        if !self.gen_is(uid, i, gen) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            return (vec![], vec![]);
        };
        let Some(c) = pod.spec.containers.get(i).cloned() else {
            return (vec![], vec![]);
        };
        let Some(cs) = pod
            .status
            .container_statuses
            .iter()
            .find(|x| x.name == c.name)
        else {
            return (vec![], vec![]);
        };
        let term = cs
            .state
            .terminated
            .clone()
            .or_else(|| cs.last_state.terminated.clone());
        let exit_code = term.as_ref().map(|t| t.exit_code).unwrap_or(1);
        let policy = pod.spec.restart_policy.as_str();
        if policy == "Never" || (policy == "OnFailure" && exit_code == 0) {
            // No restart: once every container has exited the Pod is terminal.
            let all_exited = pod
                .status
                .container_statuses
                .iter()
                .all(|x| x.state.terminated.is_some());
            if !all_exited {
                return (vec![], vec![]);
            }
            let failed = pod.status.container_statuses.iter().any(|x| {
                x.state
                    .terminated
                    .as_ref()
                    .is_some_and(|t| t.exit_code != 0)
            });
            let mut p = pod.clone();
            p.status.phase = if failed { "Failed" } else { "Succeeded" }.into();
            p.metadata.resource_version.clear();
            return (
                vec![Request::UpdateStatus(Object::Pod(Box::new(p)))],
                vec![],
            );
        }
        let finished = term
            .as_ref()
            .and_then(|t| crate::time::parse_rfc3339(&t.finished_at))
            .unwrap_or(now);
        let key = format!("{uid}/{}", c.name);
        if self
            .backoff
            .get(&key)
            .is_some_and(|b| now.saturating_sub(b.last_update) > 2 * MAX_BACKOFF)
        {
            // Ten quiet minutes reset the back-off.
            self.backoff.remove(&key);
        }
        if let Some(b) = self.backoff.get(&key).copied() {
            if now.saturating_sub(finished) < b.delay {
                let mut p = pod.clone();
                let what = format!("{}_{}({uid})", p.metadata.name, p.metadata.namespace);
                if let Some(cs) = p
                    .status
                    .container_statuses
                    .iter_mut()
                    .find(|x| x.name == c.name)
                {
                    if cs.state.terminated.is_some() {
                        cs.last_state = ContainerState {
                            terminated: cs.state.terminated.take(),
                            ..Default::default()
                        };
                    }
                    cs.state = ContainerState {
                        waiting: Some(ContainerStateWaiting {
                            reason: "CrashLoopBackOff".into(),
                            message: format!(
                                "back-off {} restarting failed container={} pod={what}",
                                format_go_duration(b.delay),
                                c.name
                            ),
                        }),
                        ..Default::default()
                    };
                }
                p.metadata.resource_version.clear();
                let ev = self.event(
                    &p.metadata,
                    "Warning",
                    "BackOff",
                    format!(
                        "Back-off restarting failed container {} in pod {what}",
                        c.name
                    ),
                );
                return (
                    vec![Request::UpdateStatus(Object::Pod(Box::new(p))), ev],
                    vec![(
                        finished + b.delay,
                        KubeletTimer::Restart(uid.into(), i, gen),
                    )],
                );
            }
        }
        let next = match self.backoff.get(&key) {
            Some(b) => (b.delay * 2).min(MAX_BACKOFF),
            None => INITIAL_BACKOFF,
        };
        self.backoff.insert(
            key,
            Backoff {
                delay: next,
                last_update: now,
            },
        );
        let (r, t, _) = self.start_one(&pod, uid, i, now, true);
        (r, t)
    }

    /// A readiness probe tick: passing flips Ready on after successThreshold, failing
    /// (the application is `sim unready`) flips it off after failureThreshold and emits
    /// `Unhealthy` each time. Healthy and Ready: probing goes quiet (nothing to see).
    fn probe(
        &mut self,
        store: &Store,
        uid: &str,
        i: usize,
        gen: u64,
        now: SimTime,
    ) -> KubeletOutput {
        if !self.gen_is(uid, i, gen) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            return (vec![], vec![]);
        };
        let Some(c) = pod.spec.containers.get(i).cloned() else {
            return (vec![], vec![]);
        };
        let Some(probe) = c.readiness_probe.clone() else {
            return (vec![], vec![]);
        };
        let healthy = !self.unready.contains(uid) && !self.hung.contains(uid);
        let Some(w) = self.workers.get_mut(uid) else {
            return (vec![], vec![]);
        };
        let st = &mut w.probes[i];
        st.armed = false;
        let ready = pod
            .status
            .container_statuses
            .iter()
            .find(|x| x.name == c.name)
            .is_some_and(|x| x.ready);
        let mut requests = Vec::new();
        let mut flip = None;
        if healthy {
            st.failures = 0;
            st.successes += 1;
            if !ready && st.successes >= probe.success_threshold.max(1) {
                flip = Some(true);
            }
        } else {
            st.successes = 0;
            st.failures += 1;
            if ready && st.failures >= probe.failure_threshold.max(1) {
                flip = Some(false);
            }
        }
        let again = !healthy || (!ready && flip.is_none());
        if again {
            st.armed = true;
        }
        let period = st.period;
        if !healthy {
            requests.push(self.event(
                &pod.metadata,
                "Warning",
                "Unhealthy",
                format!(
                    "Readiness probe failed: {}",
                    probe.failure_message(&pod.status.pod_ip)
                ),
            ));
        }
        if let Some(r) = flip {
            let mut p = pod.clone();
            if let Some(cs) = p
                .status
                .container_statuses
                .iter_mut()
                .find(|x| x.name == c.name)
            {
                cs.ready = r;
            }
            refresh_ready(&mut p, now);
            p.metadata.resource_version.clear();
            requests.push(Request::UpdateStatus(Object::Pod(Box::new(p))));
        }
        let timers = if again {
            vec![(now + period, KubeletTimer::Probe(uid.into(), i, gen))]
        } else {
            vec![]
        };
        (requests, timers)
    }

    /// The application of a Pod starts (`ready = false`) or stops failing its readiness
    /// probe; the next probe tick notices. Err if no container has a readiness probe.
    pub fn set_unready(
        &mut self,
        store: &Store,
        uid: &str,
        unready: bool,
        now: SimTime,
    ) -> Result<KubeletOutput, String> {
        let pod = self
            .pod(store, uid)
            .cloned()
            .ok_or("the pod is not running on this node")?;
        let probed: Vec<usize> = pod
            .spec
            .containers
            .iter()
            .enumerate()
            .filter(|(_, c)| c.readiness_probe.is_some())
            .map(|(i, _)| i)
            .collect();
        if probed.is_empty() {
            return Err(format!(
                "pod {} has no readiness probe: the kubelet counts a running container as ready, so there is nothing to fail (add a readinessProbe to its containers)",
                pod.metadata.name
            ));
        }
        if unready {
            self.unready.insert(uid.into());
        } else {
            self.unready.remove(uid);
        }
        let mut timers = Vec::new();
        for i in probed {
            let Some(w) = self.workers.get_mut(uid) else {
                break;
            };
            let gen = w.gens.get(i).copied().unwrap_or(0);
            let Some(st) = w.probes.get_mut(i) else {
                continue;
            };
            if st.armed || st.period == 0 {
                continue;
            }
            // The prober ticks every period from its first probe.
            let k = (now.saturating_sub(st.t0)) / st.period + 1;
            st.armed = true;
            timers.push((
                st.t0 + k * st.period,
                KubeletTimer::Probe(uid.into(), i, gen),
            ));
        }
        Ok((vec![], timers))
    }

    /// A liveness probe tick while the application hangs: `Unhealthy` each time, and at
    /// failureThreshold `Killing` and a restart (exit 137).
    fn liveness(
        &mut self,
        store: &Store,
        uid: &str,
        i: usize,
        gen: u64,
        now: SimTime,
    ) -> KubeletOutput {
        if !self.gen_is(uid, i, gen) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            return (vec![], vec![]);
        };
        let Some(c) = pod.spec.containers.get(i).cloned() else {
            return (vec![], vec![]);
        };
        let Some(probe) = c.liveness_probe.clone() else {
            return (vec![], vec![]);
        };
        let hung = self.hung.contains(uid);
        let Some(w) = self.workers.get_mut(uid) else {
            return (vec![], vec![]);
        };
        let st = &mut w.liveness[i];
        st.armed = false;
        if !hung {
            st.failures = 0;
            return (vec![], vec![]);
        }
        st.failures += 1;
        let failures = st.failures;
        let period = st.period;
        let mut requests = vec![self.event(
            &pod.metadata,
            "Warning",
            "Unhealthy",
            format!(
                "Liveness probe failed: {}",
                probe.failure_message(&pod.status.pod_ip)
            ),
        )];
        if failures < probe.failure_threshold.max(1) {
            if let Some(w) = self.workers.get_mut(uid) {
                w.liveness[i].armed = true;
            }
            return (
                requests,
                vec![(now + period, KubeletTimer::Liveness(uid.into(), i, gen))],
            );
        }
        requests.push(self.event(
            &pod.metadata,
            "Normal",
            "Killing",
            format!(
                "Container {} failed liveness probe, will be restarted",
                c.name
            ),
        ));
        self.hung.remove(uid);
        match self.exit(store, uid, i, None, now, 137, "Error") {
            Ok((r, t)) => {
                requests.extend(r);
                (requests, t)
            }
            Err(_) => (requests, vec![]),
        }
    }

    /// `sim hang`: the application stops answering (liveness and readiness probes fail)
    /// until its container restarts. Probe ticks start at the next period boundary.
    pub fn set_hung(
        &mut self,
        store: &Store,
        uid: &str,
        now: SimTime,
    ) -> Result<KubeletOutput, String> {
        let pod = self
            .pod(store, uid)
            .cloned()
            .ok_or("the pod is not running on this node")?;
        self.hung.insert(uid.into());
        let mut timers = Vec::new();
        let Some(w) = self.workers.get_mut(uid) else {
            return Ok((vec![], vec![]));
        };
        for (i, c) in pod.spec.containers.iter().enumerate() {
            let gen = w.gens.get(i).copied().unwrap_or(0);
            if c.liveness_probe.is_some() {
                if let Some(st) = w
                    .liveness
                    .get_mut(i)
                    .filter(|st| !st.armed && st.period > 0)
                {
                    let k = now.saturating_sub(st.t0) / st.period + 1;
                    st.armed = true;
                    timers.push((
                        st.t0 + k * st.period,
                        KubeletTimer::Liveness(uid.into(), i, gen),
                    ));
                }
            }
            if c.readiness_probe.is_some() {
                if let Some(st) = w.probes.get_mut(i).filter(|st| !st.armed && st.period > 0) {
                    let k = now.saturating_sub(st.t0) / st.period + 1;
                    st.armed = true;
                    timers.push((
                        st.t0 + k * st.period,
                        KubeletTimer::Probe(uid.into(), i, gen),
                    ));
                }
            }
        }
        Ok((vec![], timers))
    }

    /// The registry refused the image: `Failed`, then `ErrImagePull`, and back-off.
    fn pull_failed(&mut self, store: &Store, uid: &str, i: usize, now: SimTime) -> KubeletOutput {
        if !self.starting(uid) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            return (vec![], vec![]);
        };
        let Some(c) = pod.spec.containers.get(i).cloned() else {
            return (vec![], vec![]);
        };
        if !self.refused_images.contains(&c.image) {
            // The registry accepts it again (`sim image-ok`): this attempt succeeds.
            return self.pull_done(store, uid, i, now);
        }
        let err = pull_error(&c.image);
        let key = format!("{uid}_{}", c.image);
        let next = match self.backoff.get(&key) {
            Some(b) if now.saturating_sub(b.last_update) <= 2 * MAX_BACKOFF => {
                (b.delay * 2).min(MAX_BACKOFF)
            }
            _ => INITIAL_BACKOFF,
        };
        self.backoff.insert(
            key,
            Backoff {
                delay: next,
                last_update: now,
            },
        );
        let mut p = pod.clone();
        set_waiting(&mut p, &c.name, "ErrImagePull", &err);
        p.metadata.resource_version.clear();
        (
            vec![
                self.event(
                    &p.metadata,
                    "Warning",
                    "Failed",
                    format!("Failed to pull image \"{}\": {err}", c.image),
                ),
                self.event(
                    &p.metadata,
                    "Warning",
                    "Failed",
                    "Error: ErrImagePull".into(),
                ),
                Request::UpdateStatus(Object::Pod(Box::new(p))),
            ],
            vec![(now + PLEG_RELIST, KubeletTimer::ImageBackOff(uid.into(), i))],
        )
    }

    /// The next sync inside the image back-off: `BackOff` and `ImagePullBackOff`, and a
    /// new pull when the back-off has passed.
    fn image_backoff(
        &mut self,
        store: &Store,
        uid: &str,
        i: usize,
        _now: SimTime,
    ) -> KubeletOutput {
        if !self.starting(uid) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            return (vec![], vec![]);
        };
        let Some(c) = pod.spec.containers.get(i).cloned() else {
            return (vec![], vec![]);
        };
        let Some(b) = self.backoff.get(&format!("{uid}_{}", c.image)).copied() else {
            return (vec![], vec![]);
        };
        let mut p = pod.clone();
        let msg = format!(
            "Back-off pulling image \"{}\": ErrImagePull: {}",
            c.image,
            pull_error(&c.image)
        );
        set_waiting(&mut p, &c.name, "ImagePullBackOff", &msg);
        p.metadata.resource_version.clear();
        (
            vec![
                self.event(
                    &p.metadata,
                    "Normal",
                    "BackOff",
                    format!("Back-off pulling image \"{}\"", c.image),
                ),
                self.event(
                    &p.metadata,
                    "Warning",
                    "Failed",
                    "Error: ImagePullBackOff".into(),
                ),
                Request::UpdateStatus(Object::Pod(Box::new(p))),
            ],
            vec![(
                b.last_update + b.delay,
                KubeletTimer::RetryPull(uid.into(), i),
            )],
        )
    }

    fn retry_pull(&mut self, store: &Store, uid: &str, i: usize, now: SimTime) -> KubeletOutput {
        if !self.starting(uid) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            return (vec![], vec![]);
        };
        self.pull(&pod, uid, i, now)
    }

    /// TERM every running container; they exit after `container_stop` (or at the
    /// grace deadline, whichever is first).
    fn kill_pod(&mut self, store: &Store, uid: &str, now: SimTime) -> KubeletOutput {
        let Some(pod) = self.pod(store, uid) else {
            self.workers.remove(uid);
            return (vec![], vec![]);
        };
        let requests: Vec<Request> = pod
            .status
            .container_statuses
            .iter()
            .filter(|c| c.state.running.is_some())
            .map(|c| {
                self.event(
                    &pod.metadata,
                    "Normal",
                    "Killing",
                    format!("Stopping container {}", c.name),
                )
            })
            .collect();
        let grace_ms = pod
            .metadata
            .deletion_grace_period_seconds
            .unwrap_or(0)
            .max(0) as u64
            * 1000;
        let stop = if requests.is_empty() {
            0
        } else {
            self.timing.container_stop.min(grace_ms)
        };
        (
            requests,
            vec![(now + stop, KubeletTimer::Stopped(uid.into()))],
        )
    }

    /// Containers gone: report them terminated and remove the Pod (delete, grace 0).
    fn stopped(&mut self, store: &Store, uid: &str, now: SimTime) -> KubeletOutput {
        let Some(pod) = self.pod(store, uid) else {
            self.workers.remove(uid);
            return (vec![], vec![]);
        };
        self.workers.remove(uid);
        let mut p = pod.clone();
        for cs in p.status.container_statuses.iter_mut() {
            let started = cs
                .state
                .running
                .as_ref()
                .map(|r| r.started_at.clone())
                .unwrap_or_default();
            cs.state = ContainerState {
                terminated: Some(ContainerStateTerminated {
                    exit_code: 0,
                    reason: "Completed".into(),
                    started_at: started,
                    finished_at: rfc3339(now),
                }),
                ..Default::default()
            };
            cs.ready = false;
            cs.started = Some(false);
        }
        p.status.phase = "Succeeded".into();
        set_condition(
            &mut p.status.conditions,
            cond("Ready", "False", "PodCompleted", "", now),
        );
        set_condition(
            &mut p.status.conditions,
            cond("ContainersReady", "False", "PodCompleted", "", now),
        );
        p.metadata.resource_version.clear();
        (
            vec![
                Request::UpdateStatus(Object::Pod(Box::new(p.clone()))),
                Request::Delete {
                    kind: Kind::Pod,
                    key: ObjKey::of(&p.metadata),
                    options: DeleteOptions {
                        grace_period_seconds: Some(0),
                        precondition_uid: Some(uid.into()),
                        ..Default::default()
                    },
                    event: None,
                },
            ],
            vec![],
        )
    }
}

/// The order the kubelet's status manager writes Pod conditions in
/// (`generateAPIPodStatus`): its own four first, then the others (PodScheduled…).
fn order_conditions(conds: &mut [Condition]) {
    let rank = |t: &str| match t {
        "PodReadyToStartContainers" => 0,
        "Initialized" => 1,
        "Ready" => 2,
        "ContainersReady" => 3,
        _ => 4,
    };
    conds.sort_by_key(|c| rank(&c.type_));
}

/// Go's `time.Duration.String()` for millisecond durations (`2.5s`, `850ms`, `1m2s`).
pub fn format_go_duration(ms: SimTime) -> String {
    if ms < 1000 {
        return format!("{ms}ms");
    }
    let m = ms / 60_000;
    let rest = ms % 60_000;
    let secs = if rest % 1000 == 0 {
        format!("{}s", rest / 1000)
    } else {
        let s = format!("{}.{:03}", rest / 1000, rest % 1000);
        format!("{}s", s.trim_end_matches('0'))
    };
    if m > 0 {
        format!("{m}m{secs}")
    } else {
        secs
    }
}
