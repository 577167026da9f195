//! Init containers: run one by one to completion before the app containers start.
//!
//! Upstream: `pkg/kubelet/kuberuntime/kuberuntime_manager.go` (`computeInitContainerActions`),
//! `pkg/kubelet/kuberuntime/kuberuntime_container.go`.

use super::*;

/// How long an init container runs before it completes (exit 0).
pub const INIT_RUN: SimTime = 2 * SECOND;

impl Kubelet {
    // ---- init containers -------------------------------------------------------------

    /// Init container `j`: the image is present (start soon) or is pulled.
    pub(super) fn init_pull(
        &mut self,
        faults: &mut Faults,
        store: &Store,
        uid: &str,
        j: usize,
        now: SimTime,
    ) -> KubeletOutput {
        if !self.starting(uid) {
            return (vec![], vec![]);
        }
        match self.pod(store, uid).cloned() {
            Some(pod) => self.pull_slot(faults, &pod, uid, Slot::Init(j), now),
            None => (vec![], vec![]),
        }
    }

    pub(super) fn init_pull_done(
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
    pub(super) fn init_start(
        &mut self,
        faults: &mut Faults,
        store: &Store,
        uid: &str,
        j: usize,
        now: SimTime,
    ) -> KubeletOutput {
        let Some((pod, c)) = self.starting_container(store, uid, Slot::Init(j)) else {
            return (vec![], vec![]);
        };
        if c.is_sidecar() {
            // A sidecar restarted during bring-up (after a crash back-off) is a restart too.
            let restart = p_restarted(&pod, &c.name);
            return self.start_sidecar(faults, &pod, uid, j, now, restart);
        }
        let mut p = pod.clone();
        let mut restart = false;
        if let Some(cs) = p.status.init_container_statuses.get_mut(j) {
            restart = cs.state.terminated.is_some()
                || cs
                    .state
                    .waiting
                    .as_ref()
                    .is_some_and(|w| w.reason == "CrashLoopBackOff");
            run_container(cs, uid, &c, now, restart);
            cs.started = Some(true);
        }
        let mut requests = self.start_events(&p.metadata, &c, restart);
        requests.push(Request::blind_update_status(p));
        let exit = match faults.crashing_images.get(&c.image) {
            Some(after) => (now + after, 1),
            None => (now + INIT_RUN, 0),
        };
        (
            requests,
            vec![(exit.0, KubeletTimer::InitExit(uid.into(), j, exit.1))],
        )
    }

    /// Create and start sidecar `j` (an init container with `restartPolicy: Always`),
    /// at bring-up or as a restart (also while the Pod runs). It is not waited for to
    /// exit: once it is started — at once, or when its startup probe passes — the next
    /// init container (or the app containers) goes on. Its probers run like an app
    /// container's, under the kubelet-wide index `containers.len() + j`.
    pub(super) fn start_sidecar(
        &mut self,
        faults: &mut Faults,
        pod: &Pod,
        uid: &str,
        j: usize,
        now: SimTime,
        restart: bool,
    ) -> KubeletOutput {
        let idx = pod.spec.containers.len() + j;
        let Some(c) = pod.spec.init_containers.get(j).cloned() else {
            return (vec![], vec![]);
        };
        let mut p = pod.clone();
        let mut requests = self.start_events(&p.metadata, &c, restart);
        let gen = self.bump_gen(uid, idx, slot_count(pod));
        let has_startup = c.startup_probe.is_some();
        if let Some(cs) = p.status.init_container_statuses.get_mut(j) {
            run_container(cs, uid, &c, now, restart);
            // Started once running unless a startup probe decides when; ready then
            // unless a readiness probe decides that.
            cs.started = Some(!has_startup);
            cs.ready = !has_startup && c.readiness_probe.is_none();
        }
        let mut timers = Vec::new();
        match &c.startup_probe {
            Some(probe) => {
                timers.extend(self.start_prober(ProbeType::Startup, uid, idx, gen, probe, now))
            }
            None => timers.extend(self.arm_probes(faults, uid, idx, gen, &c, now)),
        }
        if let Some(after) = faults.crashing_images.get(&c.image) {
            timers.push((now + after, KubeletTimer::Crash(uid.into(), idx, gen)));
        }
        let (r, t) = if has_startup {
            refresh_ready(&mut p, now);
            (vec![Request::blind_update_status(p)], vec![])
        } else {
            self.sidecar_started(faults, p, uid, j, now)
        };
        requests.extend(r);
        timers.extend(t);
        (requests, timers)
    }

    /// Sidecar `j` is started (running, its startup probe passed if it has one): the
    /// first time, the Pod goes on to the next init container or the app containers;
    /// after a restart it just reports.
    pub(super) fn sidecar_started(
        &mut self,
        faults: &mut Faults,
        mut p: Pod,
        uid: &str,
        j: usize,
        now: SimTime,
    ) -> KubeletOutput {
        let all_ready = refresh_ready(&mut p, now);
        let first = self
            .workers
            .get_mut(uid)
            .is_some_and(|w| w.stage == Stage::Starting && w.sidecars_started.insert(j));
        if first {
            return self.init_completed(faults, p, uid, j, now);
        }
        if all_ready {
            if let Some(w) = self.workers.get_mut(uid) {
                if w.stage == Stage::Starting && initialized(&p) {
                    w.stage = Stage::Running;
                }
            }
        }
        (vec![Request::blind_update_status(p)], vec![])
    }

    /// Init container `j` exited: on success the next one (or the app containers)
    /// starts; on failure it is restarted after the crash back-off, or with
    /// `restartPolicy: Never` the Pod fails.
    pub(super) fn init_exit(
        &mut self,
        faults: &mut Faults,
        store: &Store,
        uid: &str,
        j: usize,
        code: i64,
        now: SimTime,
    ) -> KubeletOutput {
        let Some((pod, c)) = self.starting_container(store, uid, Slot::Init(j)) else {
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
        if code == 0 {
            return self.init_completed(faults, p, uid, j, now);
        }
        self.init_failed(p, &c.name, uid, j, now)
    }

    /// Init container `j` completed: the next one is pulled, or — the last one — the Pod
    /// is Initialized and the app containers are pulled and started.
    fn init_completed(
        &mut self,
        faults: &mut Faults,
        mut p: Pod,
        uid: &str,
        j: usize,
        now: SimTime,
    ) -> KubeletOutput {
        let n = p.spec.init_containers.len();
        if j + 1 < n {
            let rest: Vec<&str> = p.spec.init_containers[j + 1..]
                .iter()
                .map(|c| c.name.as_str())
                .collect();
            set_condition(
                &mut p.status.conditions,
                cond(
                    PodConditionType::Initialized,
                    ConditionStatus::False,
                    "ContainersNotInitialized",
                    &format!("containers with incomplete status: [{}]", rest.join(" ")),
                    now,
                ),
            );
            return (
                vec![Request::blind_update_status(p)],
                vec![(now + PLEG_RELIST, KubeletTimer::InitPull(uid.into(), j + 1))],
            );
        }
        // Every init container completed: the Pod is Initialized and the app
        // containers are pulled and started (still waiting PodInitializing).
        set_condition(
            &mut p.status.conditions,
            cond(
                PodConditionType::Initialized,
                ConditionStatus::True,
                "",
                "",
                now,
            ),
        );
        order_conditions(&mut p.status.conditions);
        let mut requests = vec![Request::blind_update_status(p.clone())];
        let (r, t) = self.pull(faults, &p, uid, 0, now);
        requests.extend(r);
        (requests, t)
    }

    /// Init container `j` failed: with `restartPolicy: Never` the Pod fails; otherwise
    /// it restarts after the crash back-off (CrashLoopBackOff while it waits).
    fn init_failed(
        &mut self,
        mut p: Pod,
        name: &str,
        uid: &str,
        j: usize,
        now: SimTime,
    ) -> KubeletOutput {
        if p.spec.restart_policy == "Never" {
            p.status.phase = PodPhase::Failed.into();
            if let Some(w) = self.workers.get_mut(uid) {
                w.stage = Stage::Running;
            }
            return (vec![Request::blind_update_status(p)], vec![]);
        }
        let key = format!("{uid}/{name}");
        let delay = match self.crash_backoff.get(&key) {
            None => 0,
            Some(b) => b.delay,
        };
        let next = if delay == 0 {
            INITIAL_BACKOFF
        } else {
            (delay * 2).min(MAX_BACKOFF)
        };
        self.crash_backoff.insert(
            key,
            Backoff {
                delay: next,
                last_update: now,
            },
        );
        let mut timers = vec![(
            now + PLEG_RELIST + delay,
            KubeletTimer::InitStart(uid.into(), j),
        )];
        if delay > 0 {
            timers.push((now + PLEG_RELIST, KubeletTimer::InitBackOff(uid.into(), j)));
        }
        (vec![Request::blind_update_status(p)], timers)
    }

    /// A failed init container waits out its back-off: CrashLoopBackOff and `BackOff`.
    pub(super) fn init_backoff(
        &mut self,
        store: &Store,
        uid: &str,
        j: usize,
        _now: SimTime,
    ) -> KubeletOutput {
        let Some((pod, c)) = self.starting_container(store, uid, Slot::Init(j)) else {
            return (vec![], vec![]);
        };
        let delay = self
            .crash_backoff
            .get(&format!("{uid}/{}", c.name))
            .map(|b| b.delay / 2)
            .unwrap_or(INITIAL_BACKOFF);
        let mut p = pod.clone();
        if let Some(cs) = p.status.init_container_statuses.get_mut(j) {
            crash_loop_back_off(cs, &pod.metadata, &c.name, delay.max(INITIAL_BACKOFF));
        }
        let ev = self.back_off_event(&p.metadata, &c.name);
        (vec![Request::blind_update_status(p), ev], vec![])
    }
}

/// Whether container `name` ran before (a start now is a restart).
fn p_restarted(pod: &Pod, name: &str) -> bool {
    status_of(pod, name).is_some_and(|cs| {
        cs.state.terminated.is_some()
            || cs
                .state
                .waiting
                .as_ref()
                .is_some_and(|w| w.reason == "CrashLoopBackOff")
    })
}

/// Whether the Pod is Initialized (every init container done or started).
fn initialized(p: &Pod) -> bool {
    p.status
        .conditions
        .iter()
        .any(|c| c.type_ == PodConditionType::Initialized.as_str() && c.status == "True")
}
