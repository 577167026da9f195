//! Pod workers: one per Pod bound to the node, from the first sync to the final delete.
//!
//! Upstream: `pkg/kubelet/pod_workers.go` (`UpdatePod`), `pkg/kubelet/kubelet.go`
//! (`syncPod`, `syncTerminatingPod`), `pkg/kubelet/status/status_manager.go` (the final
//! delete with grace 0).

use super::*;

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    Starting,
    Running,
    Killing,
}

#[derive(Clone, Debug)]
pub(super) struct Worker {
    pub(super) key: ObjKey,
    pub(super) stage: Stage,
    /// Per container: bumped at every start/exit, so timers of an older run are ignored.
    pub(super) gens: Vec<u64>,
    /// Per container: its probers' states.
    pub(super) probes: Probers,
    /// Restart after a node reboot: restartCount + 1.
    pub(super) restarted: bool,
    /// Passed the kubelet's admission (a Pod it already ran before a reboot has).
    pub(super) admitted: bool,
    /// Sidecars (by init container index) whose start already let the Pod go on to
    /// the next container: a restart of one of them does not start its successor
    /// again (`isPreviouslyInitialized` in `computeInitContainerActions`).
    pub(super) sidecars_started: BTreeSet<usize>,
    /// When the kubelet began killing the Pod's containers.
    pub(super) killed_at: Option<SimTime>,
    /// Failed attempts to set up the Pod's volumes (the mount back-off's exponent).
    pub(super) mount_attempts: u32,
    /// Since when the Pod has waited for its volumes to be attached to the node.
    pub(super) attach_wait_since: Option<SimTime>,
    /// Whether the Pod has volumes (a Pod's volumes are immutable): the status sync
    /// every 10 s reads only these Pods for `volumesInUse`, not every Pod it runs.
    pub(super) has_volumes: bool,
}

impl Worker {
    /// A worker for the Pod `pod`, at `stage`.
    pub(super) fn new(pod: &Pod, stage: Stage, restarted: bool) -> Self {
        Worker {
            key: ObjKey::of(&pod.metadata),
            has_volumes: !pod.spec.volumes.is_empty(),
            stage,
            gens: Vec::new(),
            probes: Probers::default(),
            restarted,
            // A restarted Pod was admitted before the reboot; a new one is checked first.
            admitted: restarted,
            sidecars_started: BTreeSet::new(),
            killed_at: None,
            mount_attempts: 0,
            attach_wait_since: None,
        }
    }
}

impl Kubelet {
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
                self.workers
                    .insert(uid.clone(), Worker::new(p, Stage::Starting, false));
                (
                    vec![],
                    vec![(now + self.timing.sync_latency, KubeletTimer::Sync(uid))],
                )
            }
            None => {
                self.workers
                    .insert(uid.clone(), Worker::new(p, Stage::Killing, false));
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

    /// A Pod this node runs already, restored from another cluster's state (`sim
    /// import`): as a restarted kubelet finds its containers through the runtime, the
    /// running containers keep running — no pull, no start, no status write — and
    /// their probers (and a finite workload's exit) start from now. False when its
    /// containers do not all run: then the Pod is synced as any Pod a starting kubelet
    /// finds.
    pub fn adopt_running(
        &mut self,
        faults: &mut Faults,
        pod: &Pod,
        now: SimTime,
    ) -> (bool, KubeletOutput) {
        let runs = |c: &Container| {
            pod.status
                .container_statuses
                .iter()
                .any(|s| s.name == c.name && s.state.running.is_some())
        };
        if !self.up
            || pod.spec.node_name != self.node
            || pod.status.phase != "Running"
            || pod.metadata.is_deleting()
            || pod.spec.containers.is_empty()
            || !pod.spec.containers.iter().all(runs)
        {
            return (false, (vec![], vec![]));
        }
        let uid = pod.metadata.uid.clone();
        let mut w = Worker::new(pod, Stage::Running, false);
        w.admitted = true;
        // Sidecars run already: their successors are not started again.
        w.sidecars_started = (0..pod.spec.init_containers.len()).collect();
        self.workers.insert(uid.clone(), w);
        for c in &pod.spec.containers {
            self.images.insert(c.image.clone());
            self.pressure
                .image_detected
                .entry(c.image.clone())
                .or_insert(now);
        }
        // Its sandbox keeps its IP: the node's next Pod gets the one after it, not it.
        if let Some(last) = pod
            .status
            .pod_ip
            .strip_prefix(&format!("10.244.{}.", self.index))
            .and_then(|n| n.parse::<u32>().ok())
            .filter(|n| *n >= 2)
        {
            self.ip_seq = self.ip_seq.max(last - 1);
        }
        let n = slot_count(pod);
        let mut timers = Vec::new();
        for (i, c) in pod.spec.containers.iter().enumerate() {
            let gen = self.bump_gen(&uid, i, n);
            timers.extend(self.arm_probes(faults, &uid, i, gen, c, now));
            if let workload::Run::Exits { after, code } =
                workload::run_of(c, &pod.spec.restart_policy)
            {
                timers.push((
                    now + after.max(1),
                    KubeletTimer::Exit(uid.clone(), i, gen, code),
                ));
            }
        }
        (true, (vec![], timers))
    }

    /// A Pod waiting for its volumes: accepted (Pending, ContainerCreating) but with no
    /// sandbox, so no IP (none is taken from the node's range either) and
    /// `PodReadyToStartContainers=False`. The status write, if anything changed.
    fn waiting_for_volumes(&mut self, pod: &Pod, restarted: bool, now: SimTime) -> Vec<Request> {
        let mut p = pod.clone();
        let seq = self.ip_seq;
        self.accept(&mut p, restarted, now);
        self.ip_seq = seq;
        p.status.pod_ip.clear();
        p.status.pod_ips.clear();
        set_condition(
            &mut p.status.conditions,
            cond(
                PodConditionType::PodReadyToStartContainers,
                ConditionStatus::False,
                "",
                "",
                now,
            ),
        );
        order_conditions(&mut p.status.conditions);
        if p.status != pod.status {
            vec![Request::blind_update_status(p)]
        } else {
            Vec::new()
        }
    }

    /// `syncPod`: accept the Pod (IP, ContainerCreating) and begin with container 0.
    pub(super) fn sync_pod(
        &mut self,
        faults: &mut Faults,
        store: &Store,
        uid: &str,
        now: SimTime,
    ) -> KubeletOutput {
        if !self.starting(uid) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            self.workers.remove(uid);
            return (vec![], vec![]);
        };
        let pod = &pod;
        let restarted = self.workers.get(uid).is_some_and(|w| w.restarted);
        if self.workers.get(uid).is_some_and(|w| !w.admitted) {
            let node = self.node_object(store);
            let others = self.admitted_pods(store, uid);
            // The eviction manager's admit handler runs before the predicates.
            let refused = super::eviction::admit(pod, &self.pressure)
                .or_else(|| node.and_then(|n| admission::admit(pod, n, &others)));
            if let Some(r) = refused {
                let pod = pod.clone();
                return self.reject(&pod, r);
            }
            if let Some(w) = self.workers.get_mut(uid) {
                w.admitted = true;
            }
        }
        // `WaitForAttachAndMount`: a disk must first be attached to this node by the
        // attach/detach controller (`verifyControllerAttachedVolume`). The Pod waits in
        // ContainerCreating with no sandbox; after `podAttachAndMountTimeout` (2 min 3 s)
        // the sync fails with FailedMount, and the wait begins again.
        let node = self.node_object(store);
        let unattached: Vec<String> =
            crate::controllers::attach_detach::pod_attachable_volumes(store, pod)
                .into_iter()
                .filter(|(_, _, u)| {
                    !node.is_some_and(|n| n.status.volumes_attached.iter().any(|v| v.name == *u))
                })
                .map(|(name, _, _)| name)
                .collect();
        if !unattached.is_empty() {
            let since = match self.workers.get(uid).and_then(|w| w.attach_wait_since) {
                Some(s) => s,
                None => {
                    if let Some(w) = self.workers.get_mut(uid) {
                        w.attach_wait_since = Some(now);
                    }
                    now
                }
            };
            let mut requests = self.waiting_for_volumes(pod, restarted, now);
            if now >= since + ATTACH_AND_MOUNT_TIMEOUT {
                if let Some(w) = self.workers.get_mut(uid) {
                    w.attach_wait_since = Some(now);
                }
                let names = unattached.join(" ");
                requests.push(self.event(
                    &pod.metadata,
                    EventType::Warning,
                    "FailedMount",
                    format!("Unable to attach or mount volumes: unmounted volumes=[{names}], unattached volumes=[{names}], failed to process volumes=[]: timed out waiting for the condition"),
                ));
            }
            // The volume manager polls every 300 ms; a second is enough to see it.
            return (
                requests,
                vec![(now + SECOND, KubeletTimer::Sync(uid.into()))],
            );
        }
        if let Some(w) = self.workers.get_mut(uid) {
            w.attach_wait_since = None;
        }
        // `WaitForAttachAndMount`: a ConfigMap or Secret volume whose object is
        // missing cannot be set up; the Pod waits in ContainerCreating with no
        // sandbox, and the volume manager retries with its exponential back-off.
        if let Some((volume, reason)) = unmountable_volume(store, pod) {
            let attempts = self.workers.get(uid).map_or(0, |w| w.mount_attempts);
            if let Some(w) = self.workers.get_mut(uid) {
                w.mount_attempts = attempts + 1;
            }
            let mut requests = self.waiting_for_volumes(pod, restarted, now);
            requests.push(self.event(
                &pod.metadata,
                EventType::Warning,
                "FailedMount",
                format!("MountVolume.SetUp failed for volume \"{volume}\" : {reason}"),
            ));
            // 500 ms doubling to 2 min 2 s (`exponentialbackoff`'s limits).
            let delay = (500u64 << attempts.min(10)).min(122_000);
            return (
                requests,
                vec![(now + delay, KubeletTimer::Sync(uid.into()))],
            );
        }
        let mut p = pod.clone();
        self.accept(&mut p, restarted, now);
        let has_init = !p.spec.init_containers.is_empty();
        let initialized = if has_init {
            // Init containers run one by one first; the app containers wait.
            init_container_statuses(&mut p, now)
        } else {
            cond(
                PodConditionType::Initialized,
                ConditionStatus::True,
                "",
                "",
                now,
            )
        };
        // Nothing runs yet: every app container and sidecar is listed unready.
        let unready = unready_message(&p);
        let s = &mut p.status;
        for c in [
            cond(
                PodConditionType::PodReadyToStartContainers,
                ConditionStatus::True,
                "",
                "",
                now,
            ),
            initialized,
            cond(
                PodConditionType::Ready,
                ConditionStatus::False,
                "ContainersNotReady",
                &unready,
                now,
            ),
            cond(
                PodConditionType::ContainersReady,
                ConditionStatus::False,
                "ContainersNotReady",
                &unready,
                now,
            ),
        ] {
            set_condition(&mut s.conditions, c);
        }
        order_conditions(&mut p.status.conditions);
        let mut requests = vec![Request::blind_update_status(p.clone())];
        let (r, t) = if has_init {
            (vec![], vec![(now, KubeletTimer::InitPull(uid.into(), 0))])
        } else {
            self.pull(faults, &p, uid, 0, now)
        };
        requests.extend(r);
        (requests, t)
    }

    /// The Pod is accepted: Pending on this host with an IP (a new one after a reboot),
    /// every container `ContainerCreating` (a reboot counts a restart and leaves
    /// `Unknown`, exit 255, as the last state).
    fn accept(&mut self, p: &mut Pod, restarted: bool, now: SimTime) {
        let s = &mut p.status;
        s.phase = PodPhase::Pending.into();
        s.host_ip = self.host_ip();
        s.host_ips = vec![HostIp {
            ip: s.host_ip.clone(),
        }];
        if p.spec.host_network {
            // In the node's network namespace: no sandbox IP, the node's own
            // (`generateAPIPodStatus` copies hostIPs into podIPs).
            s.pod_ip = s.host_ip.clone();
        } else if s.pod_ip.is_empty() || restarted {
            s.pod_ip = format!("10.244.{}.{}", self.index, self.ip_seq % 250 + 2);
            self.ip_seq += 1;
        }
        // The kubelet reports the sandbox's IPs as the list and the first as podIP
        // (single-stack here: one of each).
        s.pod_ips = vec![PodIp {
            ip: s.pod_ip.clone(),
        }];
        if s.start_time.is_none() {
            s.start_time = Some(rfc3339(now));
        }
        let old = std::mem::take(&mut s.container_statuses);
        s.container_statuses = p
            .spec
            .containers
            .iter()
            .map(|c| {
                let prev = old.iter().find(|x| x.name == c.name);
                let restarts = prev.map(|x| x.restart_count).unwrap_or(0) + i64::from(restarted);
                ContainerStatus {
                    name: c.name.clone(),
                    state: waiting_state("ContainerCreating"),
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
    }

    /// Run the preStop hooks, then TERM every running container; they exit after
    /// `container_stop` (or at the grace deadline, whichever is first).
    pub(super) fn kill_pod(&mut self, store: &Store, uid: &str, now: SimTime) -> KubeletOutput {
        self.kill_pod_with_grace(store, uid, now, None)
    }

    /// [`Self::kill_pod`] with the grace period overridden (an eviction's).
    pub(super) fn kill_pod_with_grace(
        &mut self,
        store: &Store,
        uid: &str,
        now: SimTime,
        grace_override: Option<i64>,
    ) -> KubeletOutput {
        let Some(pod) = self.pod(store, uid) else {
            self.workers.remove(uid);
            return (vec![], vec![]);
        };
        // Every container is told to stop at once (`killContainersWithSyncResult` runs
        // one `killContainer` each, and each records its Killing event first), but the
        // termination ordering holds the sidecars: each is stopped only after every app
        // container and every later-declared sidecar has exited. So the app containers
        // exit after one stop time, then the sidecars one after another in reverse
        // declaration order, all within the grace period.
        let stops = stop_order(pod);
        let requests: Vec<Request> = stops
            .iter()
            .map(|(name, _)| {
                self.event(
                    &pod.metadata,
                    EventType::Normal,
                    "Killing",
                    format!("Stopping container {name}"),
                )
            })
            .collect();
        // A deleted Pod's grace is the deletion's; a Pod that completed (its sidecars
        // left to stop) has its spec's terminationGracePeriodSeconds.
        let grace = if let Some(g) = grace_override {
            g
        } else if pod.metadata.is_deleting() {
            pod.metadata.deletion_grace_period_seconds.unwrap_or(0)
        } else {
            pod.spec.grace_seconds()
        };
        let grace_ms = crate::time::seconds_to_ms(grace);
        let last = stops.last().map(|(_, k)| *k).unwrap_or(0);
        // The preStop hooks run first, within the grace period; TERM follows them.
        let pre_stop = pre_stop_ms(pod).min(grace_ms);
        let stop = pre_stop
            .saturating_add(last * self.timing.container_stop)
            .min(grace_ms);
        if let Some(w) = self.workers.get_mut(uid) {
            w.killed_at = Some(now.saturating_add(pre_stop));
        }
        (
            requests,
            vec![(now.saturating_add(stop), KubeletTimer::Stopped(uid.into()))],
        )
    }

    /// Containers gone: report them terminated and remove the Pod (delete, grace 0).
    pub(super) fn stopped(&mut self, store: &Store, uid: &str, now: SimTime) -> KubeletOutput {
        let Some(pod) = self.pod(store, uid).cloned() else {
            self.workers.remove(uid);
            return (vec![], vec![]);
        };
        let killed_at = self
            .workers
            .remove(uid)
            .and_then(|w| w.killed_at)
            .unwrap_or(now);
        let mut p = pod;
        // Each container exited at its turn in the stop order (the last at `now`, the
        // grace deadline cutting the wait short).
        let finished: BTreeMap<String, SimTime> = crate::sorting::btree_map(
            stop_order(&p)
                .into_iter()
                .map(|(name, k)| (name, (killed_at + k * self.timing.container_stop).min(now))),
        );
        let sidecars = p
            .status
            .init_container_statuses
            .iter_mut()
            .filter(|s| s.state.running.is_some());
        for cs in p.status.container_statuses.iter_mut().chain(sidecars) {
            let at = finished.get(&cs.name).copied().unwrap_or(now);
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
                    finished_at: rfc3339(at),
                }),
                ..Default::default()
            };
            cs.ready = false;
            cs.started = Some(false);
        }
        // A Pod that completed on its own keeps its phase (Failed stays Failed) and
        // stays; a deleted one is Succeeded and removed.
        let deleted = p.metadata.is_deleting();
        let reason = if !deleted && p.status.phase == PodPhase::Failed {
            "PodFailed"
        } else {
            p.status.phase = PodPhase::Succeeded.into();
            "PodCompleted"
        };
        set_condition(
            &mut p.status.conditions,
            cond(
                PodConditionType::Ready,
                ConditionStatus::False,
                reason,
                "",
                now,
            ),
        );
        set_condition(
            &mut p.status.conditions,
            cond(
                PodConditionType::ContainersReady,
                ConditionStatus::False,
                reason,
                "",
                now,
            ),
        );
        if !deleted {
            return (vec![Request::blind_update_status(p)], vec![]);
        }
        (
            vec![
                Request::blind_update_status(p.clone()),
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

/// `podAttachAndMountTimeout`: how long a Pod's sync waits for its volumes.
pub const ATTACH_AND_MOUNT_TIMEOUT: SimTime = 123 * SECOND;

/// Init containers first: each `PodInitializing` (keeping its restart count), the app
/// containers waiting `PodInitializing` too; the `Initialized=False` condition.
/// The first volume whose ConfigMap or Secret does not exist (and is not optional):
/// (volume name, the error the volume plugin reports).
fn unmountable_volume(store: &Store, pod: &Pod) -> Option<(String, String)> {
    if pod.spec.volumes.is_empty() {
        return None;
    }
    let ns = &pod.metadata.namespace;
    pod_volumes(&pod.spec)
        .into_iter()
        .find_map(|(name, source)| match source {
            VolumeSource::ConfigMap(cm, false)
                if store.get::<ConfigMap>(&ObjKey::new(ns, &cm)).is_none() =>
            {
                Some((name, format!("configmap \"{cm}\" not found")))
            }
            VolumeSource::Secret(sec, false)
                if store.get::<Secret>(&ObjKey::new(ns, &sec)).is_none() =>
            {
                Some((name, format!("secret \"{sec}\" not found")))
            }
            _ => None,
        })
}

fn init_container_statuses(p: &mut Pod, now: SimTime) -> Condition {
    let s = &mut p.status;
    let old = std::mem::take(&mut s.init_container_statuses);
    s.init_container_statuses = p
        .spec
        .init_containers
        .iter()
        .map(|c| ContainerStatus {
            name: c.name.clone(),
            state: waiting_state("PodInitializing"),
            restart_count: old
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
    let names: Vec<&str> = p
        .spec
        .init_containers
        .iter()
        .map(|c| c.name.as_str())
        .collect();
    cond(
        PodConditionType::Initialized,
        ConditionStatus::False,
        "ContainersNotInitialized",
        &format!("containers with incomplete status: [{}]", names.join(" ")),
        now,
    )
}

/// The running containers of a Pod being killed, in the order they are told to stop,
/// each with its turn: app containers first (turn 1, together), then the running
/// sidecars in reverse declaration order (turns 2, 3… — one after another, as
/// `newTerminationOrdering` chains them; turn 1 onwards when no app container runs).
fn stop_order(pod: &Pod) -> Vec<(String, u64)> {
    let apps: Vec<(String, u64)> = pod
        .status
        .container_statuses
        .iter()
        .filter(|c| c.state.running.is_some())
        .map(|c| (c.name.clone(), 1))
        .collect();
    let mut turn = u64::from(!apps.is_empty());
    let mut out = apps;
    let sidecars = pod
        .status
        .init_container_statuses
        .iter()
        .zip(&pod.spec.init_containers)
        .filter(|(s, c)| c.is_sidecar() && s.state.running.is_some())
        .rev();
    for (s, _) in sidecars {
        turn += 1;
        out.push((s.name.clone(), turn));
    }
    out
}

/// How long the app containers' preStop hooks take: a `sleep` action's seconds, or an
/// `exec` of `sleep N` (directly or through `sh -c`), the longest of them; 0 without
/// one. (`kuberuntime_container.go` `executePreStopHook`: the hooks run before TERM,
/// and the time they take counts against the grace period.)
pub fn pre_stop_ms(pod: &Pod) -> SimTime {
    let seconds = |c: &Container| -> u64 {
        let Some(pre) = c.extra.get("lifecycle").and_then(|l| l.get("preStop")) else {
            return 0;
        };
        if let Some(n) = pre.pointer("/sleep/seconds").and_then(|v| v.as_u64()) {
            return n;
        }
        let words: Vec<&str> = pre
            .pointer("/exec/command")
            .and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|w| w.as_str()).collect())
            .unwrap_or_default();
        // `sleep N`, or `sh -c "sleep N"`.
        let line = match words.as_slice() {
            [_, "-c", script] => script.to_string(),
            _ => words.join(" "),
        };
        let mut it = line.split_whitespace();
        while let Some(w) = it.next() {
            if w == "sleep" || w.ends_with("/sleep") {
                return it.next().and_then(|n| n.parse().ok()).unwrap_or(0);
            }
        }
        0
    };
    pod.spec
        .containers
        .iter()
        .map(seconds)
        .max()
        .unwrap_or(0)
        .saturating_mul(1000)
}
