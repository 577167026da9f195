//! The world: the API server's store, the clock, the seeded RNG and every component.
//!
//! The loop (see the crate docs): a request enters the API server → the write lands in
//! the store and the watch log → informers (each component's `on_change`) enqueue keys
//! or arm timers → at the timer, the component reconciles against the store and returns
//! requests → those go through the API server under the component's name, and so on.
//! Components react after [`Config::controller_latency`] so that each step is a
//! distinct moment a learner can see.

use crate::api::*;
use crate::apiserver::{ApiError, Change, DeleteOptions, ObjKey, Store};
use crate::client::{Component, Request};
pub use crate::config::Config;
use crate::controllers::gitops::SyncDue;
use crate::kubelet::{Kubelet, KubeletTimer, NodeConfig};
use crate::rng::Rng;
use crate::time::{SimTime, TimerQueue};
use std::collections::{BTreeMap, BTreeSet};

mod registry;

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
}

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
    node_index: u32,
    /// Refused requests from components (conflicts and the like).
    pub failed: Vec<FailedRequest>,
}

/// The user's identity for clicks and commands.
pub fn kubectl() -> Component {
    Component::named("kubectl")
}

impl Cluster {
    /// An empty cluster (no nodes) with this seed: just the namespaces every cluster
    /// starts with.
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
                &Component::named("kube-apiserver"),
                Request::Create {
                    object: obj,
                    event: None,
                },
            );
        }
        for pc in crate::apiserver::admission::system_priority_classes() {
            let _ = c.submit(
                &Component::named("kube-apiserver"),
                Request::Create {
                    object: Object::PriorityClass(pc),
                    event: None,
                },
            );
        }
        c
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
            node_index: 0,
            failed: Vec::new(),
        }
    }

    /// The default cluster: three Ready worker nodes `node-1..node-3` (4 CPU, 8Gi, 110 pods).
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

    fn is_background(&self, t: &Timer) -> bool {
        match t {
            Timer::Kubelet(_, _, KubeletTimer::Heartbeat) => true,
            Timer::Kubelet(n, epoch, _) => self.kubelets.get(n).is_none_or(|k| k.epoch != *epoch),
            Timer::Own(t) => self.controllers.timer_is_background(t, &|n| {
                self.kubelets.get(n).is_some_and(|k| k.up && !k.partitioned)
            }),
            Timer::Requeue(k) => Controllers::requeue_is_background(k),
            Timer::Process(_) => false,
        }
    }

    fn push_timer(&mut self, at: SimTime, t: Timer) {
        if !self.is_background(&t) {
            self.foreground_timers += 1;
        }
        self.timers.push(at.max(self.now), t);
    }

    // ---- nodes -------------------------------------------------------------------------

    /// Add a node: its kubelet registers the Node and its Lease now.
    pub fn add_node(&mut self, name: &str, config: NodeConfig) -> Result<(), ApiError> {
        if self.kubelets.contains_key(name)
            || self.store.get::<Node>(&ObjKey::new("", name)).is_some()
        {
            return Err(ApiError::already_exists(Kind::Node, name));
        }
        self.node_index += 1;
        let mut k = Kubelet::new(name, self.node_index, config, self.config.kubelet.clone());
        // The registry is cluster-wide: a new node sees the same refused/crashing images.
        if let Some(other) = self.kubelets.values().next() {
            k.refused_images = other.refused_images.clone();
            k.crashing_images = other.crashing_images.clone();
        }
        let (requests, timers) = k.register(self.now);
        let epoch = k.epoch;
        self.kubelets.insert(name.to_string(), k);
        let comp = kubelet_component(name);
        self.apply(&comp, requests)?;
        for (at, t) in timers {
            self.push_timer(at, Timer::Kubelet(name.to_string(), epoch, t));
        }
        Ok(())
    }

    /// Power a node off: its kubelet stops heartbeating and its containers stop.
    pub fn power_off(&mut self, name: &str) -> Result<(), String> {
        let k = self
            .kubelets
            .get_mut(name)
            .ok_or_else(|| format!("node \"{name}\" not found"))?;
        if !k.up {
            return Err(format!("node \"{name}\" is already down"));
        }
        k.power_off();
        // Timers of the old epoch just became background work.
        self.recount_foreground();
        Ok(())
    }

    /// Remove a node: its kubelet stops for good and the Node object is deleted (the
    /// Pods bound to it stay until something deletes them).
    pub fn remove_node(&mut self, name: &str) -> Result<(), ApiError> {
        if self.store.get::<Node>(&ObjKey::new("", name)).is_none() {
            return Err(ApiError::not_found(Kind::Node, name));
        }
        if let Some(mut k) = self.kubelets.remove(name) {
            k.power_off();
        }
        self.recount_foreground();
        self.submit(
            &kubectl(),
            Request::Delete {
                kind: Kind::Node,
                key: ObjKey::new("", name),
                options: DeleteOptions::default(),
                event: None,
            },
        )?;
        let lease = ObjKey::new("kube-node-lease", name);
        if self.store.get::<Lease>(&lease).is_some() {
            let _ = self.submit(
                &kubectl(),
                Request::Delete {
                    kind: Kind::Lease,
                    key: lease,
                    options: DeleteOptions::default(),
                    event: None,
                },
            );
        }
        Ok(())
    }

    /// Cut a node off from the API server (its kubelet and containers keep running).
    pub fn partition_node(&mut self, name: &str) -> Result<(), String> {
        let k = self
            .kubelets
            .get_mut(name)
            .ok_or_else(|| format!("node \"{name}\" not found"))?;
        if !k.up || k.partitioned {
            return Err(format!(
                "node \"{name}\" is already {}",
                if k.up { "partitioned" } else { "down" }
            ));
        }
        k.partition();
        self.recount_foreground();
        Ok(())
    }

    /// Whether a node is cut off from the API server.
    pub fn node_partitioned(&self, name: &str) -> bool {
        self.kubelets.get(name).is_some_and(|k| k.partitioned)
    }

    /// What a node's runtime is running: (pod, container, image).
    pub fn node_ps(&self, name: &str) -> Result<Vec<(String, String, String)>, String> {
        let k = self
            .kubelets
            .get(name)
            .ok_or_else(|| format!("node \"{name}\" not found"))?;
        Ok(k.running(&self.store))
    }

    /// Power a node back on (or reconnect a partitioned one): the kubelet reports Ready
    /// and reconciles its Pods.
    pub fn power_on(&mut self, name: &str) -> Result<(), String> {
        let k = self
            .kubelets
            .get_mut(name)
            .ok_or_else(|| format!("node \"{name}\" not found"))?;
        if k.partitioned {
            let out = k.heal(&self.store, self.now);
            self.recount_foreground();
            self.kubelet_output(name, out);
            return Ok(());
        }
        if k.up {
            return Err(format!("node \"{name}\" is already up"));
        }
        let (requests, timers) = k.power_on(&self.store, self.now);
        let epoch = k.epoch;
        self.recount_foreground();
        let _ = self.apply(&kubelet_component(name), requests);
        for (at, t) in timers {
            self.push_timer(at, Timer::Kubelet(name.to_string(), epoch, t));
        }
        Ok(())
    }

    fn recount_foreground(&mut self) {
        // Power changes re-classify that node's timers; count again when next needed.
        self.foreground_dirty = true;
    }

    /// Pending timers that are not background work.
    fn foreground_count(&self) -> usize {
        if self.foreground_dirty {
            self.timers
                .iter()
                .filter(|t| !self.is_background(t))
                .count()
        } else {
            self.foreground_timers
        }
    }

    fn kubelet_output(&mut self, node: &str, out: crate::kubelet::KubeletOutput) {
        let (requests, timers) = out;
        let epoch = self.kubelets.get(node).map(|k| k.epoch).unwrap_or(0);
        for (at, t) in timers {
            self.push_timer(at, Timer::Kubelet(node.to_string(), epoch, t));
        }
        let _ = self.apply(&kubelet_component(node), requests);
    }

    /// The running Pod `key` and its kubelet's node, or kubectl's kind of error.
    fn running_pod(&self, key: &ObjKey) -> Result<(Pod, String), String> {
        let pod = self
            .store
            .get::<Pod>(key)
            .cloned()
            .ok_or_else(|| ApiError::not_found(Kind::Pod, &key.name).kubectl_text())?;
        let node = pod.spec.node_name.clone();
        if node.is_empty() {
            return Err(format!(
                "error: pod {} is not scheduled to a node yet",
                key.name
            ));
        }
        if !self.node_up(&node) {
            return Err(format!(
                "error: node {node} is down: pod {} has no running containers",
                key.name
            ));
        }
        Ok((pod, node))
    }

    /// `sim crash`: a container of a running Pod exits with code 1; its kubelet
    /// restarts it according to restartPolicy, with CrashLoopBackOff.
    pub fn crash_container(&mut self, key: &ObjKey, container: Option<&str>) -> Result<(), String> {
        let (pod, node) = self.running_pod(key)?;
        let i = container_index(&pod, container, key)?;
        let now = self.now;
        let k = self.kubelets.get_mut(&node).ok_or("error: no kubelet")?;
        let out = k
            .crash(&self.store, &pod.metadata.uid, i, None, now)
            .map_err(|e| format!("error: {e}"))?;
        self.kubelet_output(&node, out);
        Ok(())
    }

    /// `sim hang`: the Pod's application stops answering until its container restarts
    /// (a liveness probe restarts it; without one it stays hung). Returns whether any
    /// container has a liveness probe.
    pub fn hang_pod(&mut self, key: &ObjKey) -> Result<bool, String> {
        let (pod, node) = self.running_pod(key)?;
        let now = self.now;
        let k = self.kubelets.get_mut(&node).ok_or("error: no kubelet")?;
        let out = k
            .set_hung(&self.store, &pod.metadata.uid, now)
            .map_err(|e| format!("error: {e}"))?;
        self.kubelet_output(&node, out);
        Ok(pod
            .spec
            .containers
            .iter()
            .any(|c| c.liveness_probe.is_some()))
    }

    /// `sim oom`: a container exceeds its memory limit and is OOMKilled (exit 137).
    pub fn oom_kill(&mut self, key: &ObjKey, container: Option<&str>) -> Result<(), String> {
        let (pod, node) = self.running_pod(key)?;
        let i = container_index(&pod, container, key)?;
        let now = self.now;
        let k = self.kubelets.get_mut(&node).ok_or("error: no kubelet")?;
        let out = k
            .exit(
                &self.store,
                &pod.metadata.uid,
                i,
                None,
                now,
                137,
                "OOMKilled",
            )
            .map_err(|e| format!("error: {e}"))?;
        self.kubelet_output(&node, out);
        Ok(())
    }

    /// `sim unready` / `sim ready`: the Pod's application fails (or passes) its
    /// readiness probe from now on.
    pub fn set_pod_unready(&mut self, key: &ObjKey, unready: bool) -> Result<(), String> {
        let (pod, node) = self.running_pod(key)?;
        let now = self.now;
        let k = self.kubelets.get_mut(&node).ok_or("error: no kubelet")?;
        let out = k
            .set_unready(&self.store, &pod.metadata.uid, unready, now)
            .map_err(|e| format!("error: {e}"))?;
        self.kubelet_output(&node, out);
        Ok(())
    }

    /// `sim gitops on`: from now on the Deployment's current spec is what Git declares,
    /// re-applied every `every` ms. `None` switches the sync off.
    pub fn set_gitops(&mut self, key: &ObjKey, every: Option<SimTime>) -> Result<(), String> {
        let d = self
            .store
            .get::<Deployment>(key)
            .ok_or_else(|| ApiError::not_found(Kind::Deployment, &key.name).kubectl_text())?;
        match every {
            Some(every) => {
                let declared = d.spec.clone();
                let gitops = &mut self.controllers.gitops;
                let first = gitops.start(key.clone(), declared, every, self.now);
                let t = CtlTimer::GitOps(SyncDue(key.clone()));
                self.push_timer(first, Timer::Own(t));
            }
            None => self.controllers.gitops.stop(key),
        }
        Ok(())
    }

    /// `sim image-fail` / `sim image-ok`: the registry refuses (or serves) an image.
    pub fn set_image_refused(&mut self, image: &str, refused: bool) {
        for k in self.kubelets.values_mut() {
            if refused {
                k.refused_images.insert(image.to_string());
            } else {
                k.refused_images.remove(image);
            }
        }
    }

    /// `sim image-crash`: containers of this image exit with code 1 `after` ms after
    /// they start (None: they stop crashing).
    pub fn set_image_crash(&mut self, image: &str, after: Option<SimTime>) {
        for k in self.kubelets.values_mut() {
            match after {
                Some(a) => {
                    k.crashing_images.insert(image.to_string(), a);
                }
                None => {
                    k.crashing_images.remove(image);
                }
            }
        }
    }

    // ---- requests ----------------------------------------------------------------------

    /// Send one request as `who` (e.g. [`kubectl()`]); returns the API server's changes.
    pub fn submit(&mut self, who: &Component, req: Request) -> Result<Vec<Change>, ApiError> {
        let changes = self.execute(who, req)?;
        for ch in &changes {
            self.dispatch(ch);
        }
        Ok(changes)
    }

    fn execute(&mut self, who: &Component, req: Request) -> Result<Vec<Change>, ApiError> {
        let now = self.now;
        let writer = who.writer.as_str();
        let store = &mut self.store;
        let rng = &mut self.rng;
        Ok(match req {
            Request::Create { object, event } => {
                let ch = store.create(now, rng, object, writer)?;
                let mut out = vec![ch];
                if let Some(e) = event {
                    let msg = format!("{}{}", e.message_prefix, out[0].key.name);
                    out.push(store.record_event(
                        now,
                        rng,
                        &e.involved,
                        e.type_,
                        e.reason,
                        &msg,
                        &who.event_component,
                        &who.host,
                    ));
                }
                out
            }
            Request::Update(obj) => vec![store.update(now, obj, writer)?],
            Request::UpdateStatus(obj) => vec![store.update_status(now, obj, writer)?],
            Request::Delete {
                kind,
                key,
                options,
                event,
            } => {
                let mut out = store.delete(now, kind, &key, &options, writer)?;
                if let Some(e) = event {
                    let msg = format!("{}{}", e.message_prefix, key.name);
                    out.push(store.record_event(
                        now,
                        rng,
                        &e.involved,
                        e.type_,
                        e.reason,
                        &msg,
                        &who.event_component,
                        &who.host,
                    ));
                }
                out
            }
            Request::Bind { key, node } => vec![store.bind(now, &key, &node, writer)?],
            Request::Evict { key } => store.evict(now, &key, writer)?,
            Request::SlowStart(requests) => {
                // Reached only through `submit` from outside a component: run it in full.
                let mut out = Vec::new();
                for r in requests {
                    out.extend(self.execute(who, r)?);
                }
                return Ok(out);
            }
            Request::Event {
                involved,
                type_,
                reason,
                message,
            } => {
                vec![store.record_event(
                    now,
                    rng,
                    &involved,
                    type_,
                    &reason,
                    &message,
                    &who.event_component,
                    &who.host,
                )]
            }
        })
    }

    /// Apply a component's requests in order; a refused one is recorded and the rest go on.
    fn apply(&mut self, who: &Component, requests: Vec<Request>) -> Result<(), ApiError> {
        let mut first_err = None;
        for r in requests {
            if let Err(e) = self.apply_one(who, r) {
                first_err.get_or_insert(e);
            }
        }
        match first_err {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    fn apply_one(&mut self, who: &Component, r: Request) -> Result<(), ApiError> {
        if let Request::SlowStart(requests) = r {
            return self.slow_start_batch(who, requests);
        }
        let on_failure = match &r {
            Request::Create { event: Some(e), .. } | Request::Delete { event: Some(e), .. } => {
                e.on_failure.map(|f| (e.involved.clone(), f))
            }
            _ => None,
        };
        let result = self.submit(who, r).map(|_| ());
        if let Err(e) = &result {
            self.failed.push(FailedRequest {
                time: self.now,
                writer: who.writer.clone(),
                error: e.kubectl_text(),
            });
            if let Some((involved, (reason, prefix))) = on_failure {
                let msg = format!("{prefix}{}", e.message);
                let ch = self.store.record_event(
                    self.now,
                    &mut self.rng,
                    &involved,
                    "Warning",
                    reason,
                    &msg,
                    &who.event_component,
                    &who.host,
                );
                self.dispatch(&ch);
            }
        }
        result
    }

    /// `slowStartBatch`: batches of 1, 2, 4, …; after a batch with a failure the rest
    /// is skipped.
    fn slow_start_batch(
        &mut self,
        who: &Component,
        requests: Vec<Request>,
    ) -> Result<(), ApiError> {
        let mut rest = requests.into_iter();
        let mut size = 1;
        loop {
            let batch: Vec<Request> = rest.by_ref().take(size).collect();
            if batch.is_empty() {
                return Ok(());
            }
            let mut failed = None;
            for r in batch {
                if let Err(e) = self.apply_one(who, r) {
                    failed.get_or_insert(e);
                }
            }
            if let Some(e) = failed {
                return Err(e);
            }
            size *= 2;
        }
    }

    // ---- informers -----------------------------------------------------------------------

    fn dispatch(&mut self, ch: &Change) {
        if ch.kind == Kind::Event {
            return;
        }
        self.controllers_on_change(ch);
        if ch.kind == Kind::Pod {
            self.kubelets_on_pod_change(ch);
        }
        self.arm_controllers();
    }

    /// The kubelets of the nodes the Pod was and is bound to see the change (a
    /// partitioned kubelet's watch is cut: it sees nothing).
    fn kubelets_on_pod_change(&mut self, ch: &Change) {
        let now = self.now;
        let old_pod = ch.old.as_deref().and_then(Pod::from_object);
        let new_pod = ch.new.as_deref().and_then(Pod::from_object);
        let nodes: BTreeSet<String> = [old_pod, new_pod]
            .into_iter()
            .flatten()
            .map(|p| p.spec.node_name.clone())
            .filter(|n| !n.is_empty())
            .collect();
        for n in nodes {
            if let Some(k) = self.kubelets.get_mut(&n).filter(|k| !k.partitioned) {
                let epoch = k.epoch;
                let (requests, timers) = k.on_pod_change(old_pod, new_pod, now);
                debug_assert!(requests.is_empty(), "kubelets react on timers");
                for (at, t) in timers {
                    self.push_timer(at, Timer::Kubelet(n.clone(), epoch, t));
                }
            }
        }
    }

    // ---- the clock -----------------------------------------------------------------------

    /// Run every timer due up to `t`, then set the clock to `t`.
    pub fn run_until(&mut self, t: SimTime) {
        // Never out of time: it always reaches `t`.
        self.run_until_within(t, &mut || false);
    }

    /// [`Cluster::run_until`] that may stop early: after each timer it asks
    /// `out_of_time()`, and if that says yes it stops, the clock at that timer's time,
    /// and returns false; the next call goes on from there. The timers run in the same
    /// order either way, so a run cut into slices is identical to an uninterrupted one:
    /// the page plays a large cluster in slices it can afford per frame (at 5,000 nodes
    /// one instant can hold thousands of scheduling attempts), and the clock falls
    /// behind the wall instead of the page freezing. A stop inside an instant is
    /// remembered: [`Cluster::finish_instant`] completes it before anything else acts.
    pub fn run_until_within(&mut self, t: SimTime, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        while let Some((at, timer)) = self.timers.pop_due(t) {
            self.fire_popped(at, timer);
            if let Some(next) = self.timers.peek_time().filter(|&n| n <= t) {
                if out_of_time() {
                    self.mid_instant = next == at;
                    return false;
                }
            }
        }
        self.mid_instant = false;
        self.now = self.now.max(t);
        true
    }

    /// Whether a budgeted run stopped between two timers of the same instant.
    pub fn is_mid_instant(&self) -> bool {
        self.mid_instant
    }

    /// Run the rest of an instant a budgeted run stopped inside, so that a command
    /// acts on the world as it is between instants — where a replay, which runs every
    /// timer up to the command's time first, will find it.
    pub fn finish_instant(&mut self) {
        if self.mid_instant {
            self.run_until(self.now);
        }
    }

    /// Advance the clock by `ms`.
    pub fn advance(&mut self, ms: SimTime) {
        self.run_until(self.now + ms);
    }

    /// Run the next timer (whenever it is due); returns its time.
    pub fn step(&mut self) -> Option<SimTime> {
        let at = self.timers.peek_time()?;
        let (at, timer) = self.timers.pop_due(at)?;
        self.fire_popped(at, timer);
        Some(at)
    }

    /// Run timers until some object other than a heartbeat Lease is written (the
    /// learner's "next step"), at most `max_timers` of them; returns the time reached.
    /// A quiescent cluster does not move: only heartbeats would follow.
    pub fn step_visible(&mut self, max_timers: usize) -> SimTime {
        let start = self.store.log.len();
        for _ in 0..max_timers {
            if self.is_quiescent() || self.step().is_none() {
                break;
            }
            if self.store.log.since(start).any(|e| e.kind != Kind::Lease) {
                break;
            }
        }
        self.now
    }

    /// Run until the cluster is quiescent or `max` ms have passed; returns whether it
    /// converged.
    pub fn settle(&mut self, max: SimTime) -> bool {
        let deadline = self.now + max;
        while !self.is_quiescent() {
            match self.timers.peek_time() {
                // Only cancelled timers can remain when the live sets are empty.
                None => break,
                Some(t) if t <= deadline => {
                    self.step();
                }
                _ => break,
            }
        }
        if !self.is_quiescent() {
            // Still busy: the whole budget was spent.
            self.run_until(deadline);
        }
        self.is_quiescent()
    }

    fn fire_popped(&mut self, at: SimTime, timer: Timer) {
        if self.foreground_dirty {
            // The queue no longer holds `timer`: counting it gives the count after it.
            self.foreground_timers = self.foreground_count();
            self.foreground_dirty = false;
        } else if !self.is_background(&timer) {
            self.foreground_timers = self.foreground_timers.saturating_sub(1);
        }
        self.now = self.now.max(at);
        self.fire(timer);
    }

    fn fire(&mut self, timer: Timer) {
        let now = self.now;
        match timer {
            Timer::Process(c) => self.controller_process(c),
            Timer::Requeue(k) => self.controller_requeue(k),
            Timer::Own(t) => self.controller_timer(t),
            Timer::Kubelet(node, epoch, t) => {
                let Some(k) = self.kubelets.get_mut(&node) else {
                    return;
                };
                if k.epoch != epoch {
                    return;
                }
                let (requests, timers) = k.fire(&self.store, t, now);
                for (at, t) in timers {
                    self.push_timer(at, Timer::Kubelet(node.clone(), epoch, t));
                }
                let _ = self.apply(&kubelet_component(&node), requests);
            }
        }
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
        let mut labels = StringMap::new();
        labels.insert("app".into(), name.into());
        let mut requests = StringMap::new();
        if !cpu.is_empty() {
            requests.insert("cpu".into(), cpu.into());
        }
        if !memory.is_empty() {
            requests.insert("memory".into(), memory.into());
        }
        let container_name = image
            .rsplit('/')
            .next()
            .and_then(|s| s.split([':', '@']).next())
            .unwrap_or("app")
            .to_string();
        let d = Deployment {
            metadata: ObjectMeta {
                name: name.into(),
                labels: labels.clone(),
                ..Default::default()
            },
            spec: DeploymentSpec {
                replicas,
                selector: LabelSelector::from_labels(&labels),
                template: PodTemplateSpec {
                    metadata: ObjectMeta {
                        labels,
                        ..Default::default()
                    },
                    spec: PodSpec {
                        containers: vec![Container {
                            name: container_name,
                            image: image.into(),
                            resources: ResourceRequirements {
                                requests,
                                limits: StringMap::new(),
                            },
                            ..Default::default()
                        }],
                        ..Default::default()
                    },
                },
                ..Default::default()
            },
            status: DeploymentStatus::default(),
        };
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
        writer: format!("kubelet/{node}"),
        event_component: "kubelet".into(),
        host: node.into(),
    }
}

/// The index of `container` in the Pod (its first container when none is named), or
/// kubectl's words for a name the Pod does not have.
fn container_index(pod: &Pod, container: Option<&str>, key: &ObjKey) -> Result<usize, String> {
    match container {
        Some(c) => pod
            .spec
            .containers
            .iter()
            .position(|x| x.name == c)
            .ok_or_else(|| format!("error: container {c} is not valid for pod {}", key.name)),
        None => Ok(0),
    }
}
