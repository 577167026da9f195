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
//!
//! A partitioned node's kubelet keeps working (`Cut`): its containers run, pull,
//! crash and restart, its probes tick, all against its own copy of its Pods — the
//! informer cache that stopped receiving changes at the cut — and what it would have
//! written waits. At the heal it reports the truth, as upstream's status manager does
//! after a reconnect: the latest status of every Pod it ran, the final deletes of the
//! Pods whose containers stopped, the Events its recorder was still retrying; then it
//! reconciles with what the API server decided meanwhile.

use crate::api::*;
use crate::apiserver::{DeleteOptions, ObjKey, Store};
use crate::client::{event_ref, Request};
pub use crate::config::KubeletTiming;
use crate::faults::Faults;
use crate::hash::fnv1a32;
use crate::time::{rfc3339, SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet};

pub mod admission;
pub mod allocatable;
mod container_config;
pub mod eviction;
mod housekeeping;
mod image_gc;
mod images;
mod init_containers;
pub mod logs;
mod node_status;
mod pod_workers;
mod prober;
mod runtime;
mod status;
pub mod workload;

use housekeeping::*;
pub use image_gc::IMAGE_GC_PERIOD;
pub use images::*;
pub use init_containers::INIT_RUN;
pub use node_status::*;
use pod_workers::*;
use prober::*;
pub use prober::{ProbeTick, ProbeType};
use runtime::{crash_loop_back_off, run_container};
pub use runtime::{INITIAL_BACKOFF, MAX_BACKOFF, PLEG_RELIST};
pub use status::format_go_duration;
use status::*;

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
    /// Housekeeping (`HandlePodCleanups` and the pod workers' periodic resync): every
    /// Pod bound here has a worker, every worker a Pod, and no worker is stalled.
    Housekeeping,
    /// A pull the registry refused: (pod uid, container index).
    PullFailed(String, usize),
    /// The sync after a failed pull: ImagePullBackOff.
    ImageBackOff(String, usize),
    /// Pull again after the image back-off.
    RetryPull(String, usize),
    /// A container exits with code 1: (pod uid, container index, container generation).
    /// The index is `containers.len() + j` for the sidecar `initContainers[j]`.
    Crash(String, usize, u64),
    /// A container's process ends by itself (`kubelet::workload`): (pod uid, container
    /// index, container generation, exit code).
    Exit(String, usize, u64, i64),
    /// The restart decision for an exited container (app or sidecar, as for `Crash`).
    Restart(String, usize, u64),
    /// A probe tick.
    Probe(ProbeTick),
    /// The containers of a deleted Pod have exited.
    Stopped(String),
}

/// `flowcontrol.Backoff` entry: current delay and when it was last used.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Backoff {
    pub(super) delay: SimTime,
    pub(super) last_update: SimTime,
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
    /// The size of the node's disk (its `ephemeral-storage` capacity), e.g. `100Gi`.
    pub ephemeral_storage: String,
    /// The kubelet's `--eviction-hard`; None: `DefaultEvictionHard`.
    pub eviction_hard: Option<Vec<eviction::Threshold>>,
    /// Extra labels (zone, disk…).
    pub labels: StringMap,
    /// Taints to register with.
    pub taints: Vec<Taint>,
    /// What the node offers Pods as another cluster's node reports it (imported);
    /// empty: worked out from the capacity (`allocatable::node_allocatable`).
    pub allocatable: StringMap,
    /// The kubelet's `--kube-reserved` (`cpu`, `memory`, `ephemeral-storage`).
    pub kube_reserved: StringMap,
    /// The kubelet's `--system-reserved` (`cpu`, `memory`, `ephemeral-storage`).
    pub system_reserved: StringMap,
    /// Registers cordoned (the kubelet's `--register-schedulable=false`).
    pub unschedulable: bool,
}

impl Default for NodeConfig {
    fn default() -> Self {
        NodeConfig {
            cpu: "4".into(),
            memory: "8Gi".into(),
            pods: 110,
            ephemeral_storage: "100Gi".into(),
            eviction_hard: None,
            labels: StringMap::new(),
            taints: vec![],
            allocatable: StringMap::new(),
            kube_reserved: StringMap::new(),
            system_reserved: StringMap::new(),
            unschedulable: false,
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
    /// Cut off because the API server is down, not the node's network: its Pods still
    /// answer requests (`sim apiserver down`).
    pub apiserver_only: bool,
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
    /// The image manager's pull back-off, by `<pod uid>_<image>`.
    image_backoff: BTreeMap<String, Backoff>,
    /// The runtime's crash back-off, by `<pod uid>/<container>`.
    crash_backoff: BTreeMap<String, Backoff>,
    index: u32,
    ip_seq: u32,
    /// While partitioned: what the kubelet sees and holds back.
    cut: Option<Cut>,
    /// Pending timers per Pod (by uid), counted as they are armed and fired: a worker
    /// that is still bringing its Pod up or down with none pending is stalled.
    pending: BTreeMap<String, u32>,
    /// Workers housekeeping had to resume.
    repairs: u64,
    /// The eviction manager's state (`eviction`).
    pub pressure: eviction::Pressure,
}

/// How long the Event recorder retries an Event it could not send: upstream's
/// `maxTriesPerEvent` (12) tries, `defaultSleepDuration` (10 s) apart
/// (`client-go/tools/record/event.go`). Older Events of a partition are lost.
pub const EVENT_RETRY_WINDOW: SimTime = 110 * SECOND;

/// How often the kubelet's housekeeping checks its Pods: upstream's pod workers
/// resync every `--sync-frequency` (1 min) plus jitter, so about every 60–90 s.
pub const HOUSEKEEPING_INTERVAL: SimTime = 60 * SECOND;

/// What a partitioned kubelet holds: its view as of the cut, with its own status
/// writes applied, and what it could not send.
#[derive(Clone, Debug, Default)]
struct Cut {
    /// Its Pods (by uid), as last seen plus its own status writes.
    pods: BTreeMap<String, Pod>,
    /// Its Node, as last seen.
    node: Option<Node>,
    /// The Pods (by uid) whose containers stopped after a deletion: their final
    /// delete (grace 0) is sent at the heal.
    deletes: BTreeSet<String>,
    /// Events with the time they were recorded.
    events: Vec<(SimTime, Request)>,
}

/// Requests to send and timers to arm.
pub type KubeletOutput = (Vec<Request>, Vec<(SimTime, KubeletTimer)>);

impl Kubelet {
    /// A kubelet for node number `index` (used for its addresses).
    pub fn new(node: &str, index: u32, config: NodeConfig, timing: KubeletTiming) -> Self {
        Kubelet {
            node: node.into(),
            up: true,
            partitioned: false,
            apiserver_only: false,
            epoch: 0,
            images: BTreeSet::new(),
            reported_images: None,
            config,
            timing,
            workers: BTreeMap::new(),
            image_backoff: BTreeMap::new(),
            crash_backoff: BTreeMap::new(),
            index,
            ip_seq: 1,
            cut: None,
            pending: BTreeMap::new(),
            repairs: 0,
            pressure: Default::default(),
        }
    }

    pub(super) fn event(
        &self,
        meta: &ObjectMeta,
        type_: EventType,
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

    /// Power off: the kubelet and every container stop; nothing more is reported.
    pub fn power_off(&mut self) {
        self.up = false;
        self.epoch += 1;
        self.workers.clear();
        self.pending.clear();
        // A dead kubelet holds nothing back, and `sim node up` brings the whole node
        // back: powered on and connected.
        self.partitioned = false;
        self.apiserver_only = false;
        self.cut = None;
        // Back-off lives in the kubelet's memory: a reboot forgets it.
        self.image_backoff.clear();
        self.crash_backoff.clear();
    }

    /// Cut the node off from the API server: its containers keep running and its
    /// kubelet keeps working on what it last saw; nothing it writes arrives.
    pub fn partition(&mut self, store: &Store) {
        self.partitioned = true;
        let pods = self
            .workers
            .iter()
            .filter_map(|(uid, w)| {
                let p = store
                    .get::<Pod>(&w.key)
                    .filter(|p| p.metadata.uid == *uid)?;
                Some((uid.clone(), p.clone()))
            })
            .collect();
        self.cut = Some(Cut {
            pods,
            node: store.get::<Node>(&ObjKey::new("", &self.node)).cloned(),
            ..Default::default()
        });
    }

    /// While partitioned, what the kubelet sends goes nowhere: its status writes
    /// change only its own view (and are reported at the heal), a final delete
    /// waits, Events wait in the recorder, and the Lease renewal fails — which is
    /// what the node lifecycle controller notices.
    pub fn hold(&mut self, requests: Vec<Request>, now: SimTime) {
        let Some(cut) = self.cut.as_mut() else {
            return;
        };
        for r in requests {
            match r {
                Request::UpdateStatus(Object::Pod(p)) => {
                    if let Some(mine) = cut.pods.get_mut(&p.metadata.uid) {
                        mine.status = p.status;
                    }
                }
                Request::UpdateStatus(Object::Node(n)) => {
                    if let Some(mine) = cut.node.as_mut() {
                        mine.status = n.status;
                    }
                }
                Request::Delete {
                    kind: Kind::Pod,
                    options:
                        DeleteOptions {
                            precondition_uid: Some(uid),
                            ..
                        },
                    ..
                } => {
                    cut.deletes.insert(uid);
                }
                r @ Request::Event { .. } => cut.events.push((now, r)),
                _ => {}
            }
        }
    }

    /// The network comes back: renew the Lease, post Ready, report what happened
    /// while cut off, and reconcile with what the API server decided meanwhile —
    /// Pods deleted there are stopped now (for an evicted Pod this is when the
    /// duplicate instance finally ends), Pods bound here meanwhile start.
    pub fn heal(&mut self, store: &Store, now: SimTime) -> KubeletOutput {
        self.partitioned = false;
        self.apiserver_only = false;
        let cut = self.cut.take().unwrap_or_default();
        let node = store.get::<Node>(&ObjKey::new("", &self.node));
        let mut requests = vec![Request::blind_update(self.lease(node, now))];
        // Ready as it was for the kubelet: post it only if the controller changed it.
        if let Some(n) = node.filter(|n| n.ready_status() != ConditionStatus::True) {
            requests.extend(self.node_ready(n, now));
        }
        // The image list is reported again by the next status sync.
        self.reported_images = None;
        requests.extend(
            cut.events
                .into_iter()
                .filter(|(at, _)| now.saturating_sub(*at) <= EVENT_RETRY_WINDOW)
                .map(|(_, r)| r),
        );
        let mut timers = vec![];
        // The status manager syncs every status that differs from the API server's.
        for (uid, mine) in &cut.pods {
            let key = ObjKey::of(&mine.metadata);
            let Some(p) = store.get::<Pod>(&key).filter(|p| p.metadata.uid == *uid) else {
                continue;
            };
            let merged = merge_pod_status(p, mine);
            if merged.status != p.status {
                requests.push(Request::blind_update_status(merged));
            }
            if cut.deletes.contains(uid) && p.metadata.is_deleting() {
                requests.push(final_delete(&key, uid));
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
                    self.pending.remove(&uid);
                }
                Some(p) if p.metadata.is_deleting() && w.stage != Stage::Killing => {
                    w.stage = Stage::Killing;
                    timers.push((now, KubeletTimer::Kill(uid.clone())));
                }
                Some(_) => {}
            }
        }
        // Pods bound here (or deleted) while we were cut off.
        timers.extend(self.adopt_unknown_pods(store, now, false).1);
        (requests, timers)
    }

    /// Start a worker for every Pod bound here that has none: a Pod that is being
    /// deleted is finished off (nothing of it runs here), the others start —
    /// `restarted` when they ran here before a reboot (SandboxChanged, restart count).
    fn adopt_unknown_pods(
        &mut self,
        store: &Store,
        now: SimTime,
        restarted: bool,
    ) -> KubeletOutput {
        let mut requests = vec![];
        let mut timers = vec![];
        for p in store.pods_on_node(&self.node) {
            let uid = &p.metadata.uid;
            if p.is_terminal() || self.workers.contains_key(uid) {
                continue;
            }
            if p.metadata.is_deleting() {
                self.workers
                    .insert(uid.clone(), Worker::new(p, Stage::Killing, false));
                timers.push((
                    now + self.timing.sync_latency,
                    KubeletTimer::Stopped(uid.clone()),
                ));
            } else {
                if restarted {
                    requests.push(self.event(
                        &p.metadata,
                        EventType::Normal,
                        "SandboxChanged",
                        "Pod sandbox changed, it will be killed and re-created.".into(),
                    ));
                }
                self.workers
                    .insert(uid.clone(), Worker::new(p, Stage::Starting, restarted));
                timers.push((
                    now + self.timing.sync_latency,
                    KubeletTimer::Sync(uid.clone()),
                ));
            }
        }
        (requests, timers)
    }

    /// What this node's container runtime is running (`crictl ps`): (pod, container,
    /// image) for every running container — sidecars and app containers — of the Pods
    /// not being stopped.
    pub fn running(&self, store: &Store) -> Vec<(String, String, String)> {
        if !self.up {
            return vec![];
        }
        let mut out = Vec::new();
        for (uid, w) in &self.workers {
            if w.stage == Stage::Killing {
                continue;
            }
            let Some(p) = self.pod(store, uid) else {
                continue;
            };
            // Sidecars run beside the app containers (a running init container is one:
            // the others run to completion before anything else starts).
            let sidecars = p.status.init_container_statuses.iter();
            for cs in sidecars.chain(&p.status.container_statuses) {
                if cs.state.running.is_some() {
                    out.push((p.metadata.name.clone(), cs.name.clone(), cs.image.clone()));
                }
            }
        }
        out
    }

    /// How Pod `uid`'s application answers a connection now (the traffic model, see
    /// `crate::proxy`): a powered-off or cut-off node does not answer; a Pod this
    /// kubelet does not run, or whose app container is not running, refuses; one told
    /// to stop (TERM sent, after its preStop hooks) resets; a hung one is silent.
    pub fn answer(
        &self,
        store: &Store,
        faults: &Faults,
        uid: &str,
        now: SimTime,
    ) -> crate::proxy::Answer {
        use crate::proxy::Answer;
        if !self.up || (self.partitioned && !self.apiserver_only) {
            return Answer::Silent;
        }
        let Some(w) = self.workers.get(uid) else {
            return Answer::Refuse;
        };
        if w.killed_at.is_some_and(|t| now >= t) {
            return Answer::Reset;
        }
        if faults.hung.contains(uid) {
            return Answer::Silent;
        }
        // An app container running and past its warm-up listens.
        let listening = self.pod(store, uid).is_some_and(|p| {
            p.status.container_statuses.iter().any(|c| {
                c.state.running.as_ref().is_some_and(|r| {
                    crate::time::parse_rfc3339(&r.started_at)
                        .is_none_or(|at| faults.listening(&c.image, at, now))
                })
            })
        });
        if listening {
            Answer::Accept
        } else {
            Answer::Refuse
        }
    }

    /// Power on: post Ready, renew the Lease, and bring back every Pod bound here
    /// (containers restart in the same Pods; deleted Pods are finished off).
    pub fn power_on(&mut self, store: &Store, now: SimTime) -> KubeletOutput {
        self.up = true;
        let node = store.get::<Node>(&ObjKey::new("", &self.node));
        let (mut requests, mut timers) = self.rejoin(node, now);
        let (r, t) = self.adopt_unknown_pods(store, now, true);
        requests.extend(r);
        timers.extend(t);
        (requests, timers)
    }

    /// A kubelet that starts under the name of a node that was removed finds Pods
    /// still bound to that name: like upstream's at start, it syncs each from the
    /// API server — nothing of them runs in its runtime, so the deleted ones are
    /// finished off and the others start again (a reported Running 1/1 was a ghost).
    pub fn adopt_bound_pods(&mut self, store: &Store, now: SimTime) -> KubeletOutput {
        self.adopt_unknown_pods(store, now, true)
    }

    /// The Pod `uid` as this kubelet sees it: from the API server, or from its own
    /// view while partitioned.
    pub(super) fn pod<'a>(&'a self, store: &'a Store, uid: &str) -> Option<&'a Pod> {
        let w = self.workers.get(uid)?;
        match &self.cut {
            Some(cut) => cut.pods.get(uid),
            None => store.get::<Pod>(&w.key).filter(|p| p.metadata.uid == uid),
        }
    }

    /// This kubelet's Node as it sees it (its own view while partitioned).
    pub(super) fn node_object<'a>(&'a self, store: &'a Store) -> Option<&'a Node> {
        match &self.cut {
            Some(cut) => cut.node.as_ref(),
            None => store.get::<Node>(&ObjKey::new("", &self.node)),
        }
    }

    /// Handle one of this kubelet's timers.
    pub fn fire(
        &mut self,
        faults: &mut Faults,
        store: &Store,
        timer: KubeletTimer,
        now: SimTime,
    ) -> KubeletOutput {
        if !self.up {
            return (vec![], vec![]);
        }
        self.count_fired(&timer);
        match timer {
            KubeletTimer::Heartbeat => self.heartbeat(store, now),
            KubeletTimer::Sync(uid) => self.sync_pod(faults, store, &uid, now),
            KubeletTimer::PullDone(uid, i) => self.pull_done(store, &uid, i, now),
            KubeletTimer::InitPull(uid, j) => self.init_pull(faults, store, &uid, j, now),
            KubeletTimer::InitPullDone(uid, j) => self.init_pull_done(store, &uid, j, now),
            KubeletTimer::InitStart(uid, j) => self.init_start(faults, store, &uid, j, now),
            KubeletTimer::InitExit(uid, j, code) => {
                self.init_exit(faults, store, &uid, j, code, now)
            }
            KubeletTimer::InitBackOff(uid, j) => self.init_backoff(store, &uid, j, now),
            KubeletTimer::Start(uid, i) => self.start_container(faults, store, &uid, i, now),
            KubeletTimer::Kill(uid) => self.kill_pod(store, &uid, now),
            KubeletTimer::Housekeeping => self.housekeeping(store, now),
            KubeletTimer::PullFailed(uid, i) => self.pull_failed(faults, store, &uid, i, now),
            KubeletTimer::ImageBackOff(uid, i) => self.image_backoff(store, &uid, i, now),
            KubeletTimer::RetryPull(uid, i) => self.retry_pull(faults, store, &uid, i, now),
            KubeletTimer::Crash(uid, i, g) => {
                self.crash(store, &uid, i, Some(g), now).unwrap_or_default()
            }
            KubeletTimer::Exit(uid, i, g, code) => {
                let reason = if code == 0 { "Completed" } else { "Error" };
                self.exit(store, &uid, i, Some(g), now, code, reason)
                    .unwrap_or_default()
            }
            KubeletTimer::Restart(uid, i, g) => self.restart(faults, store, &uid, i, g, now),
            KubeletTimer::Probe(tick) => self.probe(faults, store, &tick, now),
            KubeletTimer::Stopped(uid) => self.stopped(store, &uid, now),
        }
    }

    pub(super) fn starting(&self, uid: &str) -> bool {
        self.workers
            .get(uid)
            .is_some_and(|w| w.stage == Stage::Starting)
    }

    /// Back on the network (a new epoch: timers of before are stale): renew the Lease,
    /// heartbeat again, and post `node` Ready with a `NodeReady` event.
    fn rejoin(&mut self, node: Option<&Node>, now: SimTime) -> KubeletOutput {
        self.epoch += 1;
        let mut requests = vec![Request::blind_update(self.lease(node, now))];
        if let Some(n) = node {
            requests.extend(self.node_ready(n, now));
        }
        (
            requests,
            vec![
                (now + LEASE_RENEW_INTERVAL, KubeletTimer::Heartbeat),
                (now + HOUSEKEEPING_INTERVAL, KubeletTimer::Housekeeping),
            ],
        )
    }

    /// Post the Node Ready, with the `NodeReady` event.
    fn node_ready(&self, n: &Node, now: SimTime) -> [Request; 2] {
        let ready = Request::Event {
            involved: event_ref(Kind::Node, &n.metadata),
            type_: EventType::Normal,
            reason: "NodeReady".into(),
            message: format!("Node {} status is now: NodeReady", self.node),
        };
        let mut n = n.clone();
        n.status.conditions = self.ready_conditions(now);
        [Request::blind_update_status(n), ready]
    }

    /// The Pod `uid` and its container `slot` while its worker is bringing it up.
    fn starting_container(&self, store: &Store, uid: &str, slot: Slot) -> Option<(Pod, Container)> {
        let pod = self.starting_pod(store, uid)?;
        let c = slot.container(&pod)?.clone();
        Some((pod, c))
    }

    /// The Pod `uid` while its worker is bringing it up (None once it runs or goes).
    fn starting_pod(&self, store: &Store, uid: &str) -> Option<Pod> {
        if !self.starting(uid) {
            return None;
        }
        self.pod(store, uid).cloned()
    }
}

#[cfg(test)]
mod tests;
