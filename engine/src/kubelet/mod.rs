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
use crate::faults::Faults;
use crate::hash::fnv1a32;
use crate::time::{rfc3339, SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet};

pub mod admission;
mod images;
mod init_containers;
mod node_status;
mod pod_workers;
mod prober;
mod runtime;
mod status;

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
    /// A pull the registry refused: (pod uid, container index).
    PullFailed(String, usize),
    /// The sync after a failed pull: ImagePullBackOff.
    ImageBackOff(String, usize),
    /// Pull again after the image back-off.
    RetryPull(String, usize),
    /// A container exits with code 1: (pod uid, container index, container generation).
    /// The index is `containers.len() + j` for the sidecar `initContainers[j]`.
    Crash(String, usize, u64),
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
    /// The image manager's pull back-off, by `<pod uid>_<image>`.
    image_backoff: BTreeMap<String, Backoff>,
    /// The runtime's crash back-off, by `<pod uid>/<container>`.
    crash_backoff: BTreeMap<String, Backoff>,
    index: u32,
    ip_seq: u32,
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
        // Back-off lives in the kubelet's memory: a reboot forgets it.
        self.image_backoff.clear();
        self.crash_backoff.clear();
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
        let node = store.get::<Node>(&ObjKey::new("", &self.node));
        // Ready as it was for the kubelet: post it only if the controller changed it.
        let stale = node.filter(|n| n.ready_status() != ConditionStatus::True);
        let (mut requests, mut timers) = self.rejoin(stale, now);
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
                    requests.push(Request::blind_update_status(p));
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
                    Worker::new(ObjKey::of(&p.metadata), Stage::Starting, false),
                );
                timers.push((now + self.timing.sync_latency, KubeletTimer::Sync(uid)));
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
            if w.stage == Stage::Killing && !self.partitioned {
                continue;
            }
            let Some(p) = store.get::<Pod>(&w.key).filter(|p| p.metadata.uid == *uid) else {
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

    /// Power on: post Ready, renew the Lease, and bring back every Pod bound here
    /// (containers restart in the same Pods; deleted Pods are finished off).
    pub fn power_on(&mut self, store: &Store, now: SimTime) -> KubeletOutput {
        self.up = true;
        let node = store.get::<Node>(&ObjKey::new("", &self.node));
        let (mut requests, mut timers) = self.rejoin(node, now);
        let pods: Vec<Pod> = store.pods_on_node(&self.node).cloned().collect();
        for p in pods {
            if p.is_terminal() {
                continue;
            }
            let uid = p.metadata.uid.clone();
            if p.metadata.is_deleting() {
                self.workers.insert(
                    uid.clone(),
                    Worker::new(ObjKey::of(&p.metadata), Stage::Killing, false),
                );
                timers.push((now + self.timing.sync_latency, KubeletTimer::Stopped(uid)));
            } else {
                requests.push(self.event(
                    &p.metadata,
                    EventType::Normal,
                    "SandboxChanged",
                    "Pod sandbox changed, it will be killed and re-created.".into(),
                ));
                self.workers.insert(
                    uid.clone(),
                    Worker::new(ObjKey::of(&p.metadata), Stage::Starting, true),
                );
                timers.push((now + self.timing.sync_latency, KubeletTimer::Sync(uid)));
            }
        }
        (requests, timers)
    }

    pub(super) fn pod<'a>(&self, store: &'a Store, uid: &str) -> Option<&'a Pod> {
        let w = self.workers.get(uid)?;
        store.get::<Pod>(&w.key).filter(|p| p.metadata.uid == uid)
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
            KubeletTimer::PullFailed(uid, i) => self.pull_failed(faults, store, &uid, i, now),
            KubeletTimer::ImageBackOff(uid, i) => self.image_backoff(store, &uid, i, now),
            KubeletTimer::RetryPull(uid, i) => self.retry_pull(faults, store, &uid, i, now),
            KubeletTimer::Crash(uid, i, g) => {
                self.crash(store, &uid, i, Some(g), now).unwrap_or_default()
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
        let mut requests = vec![Request::blind_update(self.lease(now))];
        if let Some(n) = node {
            let ready = Request::Event {
                involved: event_ref(Kind::Node, &n.metadata),
                type_: EventType::Normal,
                reason: "NodeReady".into(),
                message: format!("Node {} status is now: NodeReady", self.node),
            };
            let mut n = n.clone();
            n.status.conditions = self.ready_conditions(now);
            requests.push(Request::blind_update_status(n));
            requests.push(ready);
        }
        (
            requests,
            vec![(now + LEASE_RENEW_INTERVAL, KubeletTimer::Heartbeat)],
        )
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
