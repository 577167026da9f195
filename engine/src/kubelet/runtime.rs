//! The container runtime: create and start a container, its exit, and the restart
//! decision with the crash back-off.
//!
//! Upstream: `pkg/kubelet/kuberuntime/kuberuntime_container.go` (`startContainer`),
//! `pkg/kubelet/kuberuntime/kuberuntime_manager.go` (`doBackOff`), the PLEG relist.

use super::*;

/// Back-off start for restarts and image pulls (10 s)…
pub const INITIAL_BACKOFF: SimTime = 10 * SECOND;

/// …doubling up to 300 s (`MaxContainerBackOff`); ten quiet minutes reset it.
pub const MAX_BACKOFF: SimTime = 300 * SECOND;

/// How soon the kubelet notices a container exit (PLEG relist period).
pub const PLEG_RELIST: SimTime = SECOND;

impl Kubelet {
    /// The first start of container `i` during bring-up (then the next container's pull).
    pub(super) fn start_container(
        &mut self,
        faults: &mut Faults,
        store: &Store,
        uid: &str,
        i: usize,
        now: SimTime,
    ) -> KubeletOutput {
        let Some(pod) = self.starting_pod(store, uid) else {
            return (vec![], vec![]);
        };
        // A start that failed for its config is retried alone: the next container's
        // pull began after the first attempt.
        let retry = container_config::retrying(&pod, i);
        let config = pod
            .spec
            .containers
            .get(i)
            .and_then(|c| container_config::container_config_error(store, &pod, c));
        let (mut requests, mut timers, p) = match config {
            Some(err) => self.config_error(&pod, uid, i, err, now),
            None => {
                let mut requests = self.retry_events(&pod, i);
                let (r, t, p) = self.start_one(faults, &pod, uid, i, now, false);
                requests.extend(r);
                (requests, t, p)
            }
        };
        if !retry && i + 1 < p.spec.containers.len() {
            let (r, t) = self.pull(faults, &p, uid, i + 1, now);
            requests.extend(r);
            timers.extend(t);
        }
        (requests, timers)
    }

    /// Create and start container `i` (a restart when `restart`): events, status, the
    /// readiness probe and, for images made to crash, the crash.
    pub(super) fn start_one(
        &mut self,
        faults: &mut Faults,
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
        let mut requests = self.start_events(&p.metadata, &c, restart);
        let gen = self.bump_gen(uid, i, slot_count(&p));
        let has_probe = c.readiness_probe.is_some();
        let has_startup = c.startup_probe.is_some();
        if let Some(cs) = p
            .status
            .container_statuses
            .iter_mut()
            .find(|x| x.name == c.name)
        {
            run_container(cs, uid, &c, now, restart);
            // Without a readiness probe a running container is ready as soon as it has
            // started; a startup probe decides when that is.
            cs.ready = !has_probe && !has_startup;
            cs.started = Some(!has_startup);
        }
        if !container_config::waiting_for_first_start(&p) {
            p.status.phase = PodPhase::Running.into();
        }
        let all_ready = refresh_ready(&mut p, now);
        if all_ready {
            if let Some(w) = self.workers.get_mut(uid) {
                w.stage = Stage::Running;
            }
        }
        let mut timers = Vec::new();
        match &c.startup_probe {
            // The other probes are armed once this one passes.
            Some(probe) => {
                timers.extend(self.start_prober(ProbeType::Startup, uid, i, gen, probe, now))
            }
            None => timers.extend(self.arm_probes(faults, uid, i, gen, &c, now)),
        }
        if let Some(after) = faults.crashing_images.get(&c.image) {
            timers.push((now + after, KubeletTimer::Crash(uid.into(), i, gen)));
        } else if let workload::Run::Exits { after, code } =
            workload::run_of(&c, &pod.spec.restart_policy)
        {
            // The process ends by itself; the exit is seen at the next PLEG relist.
            let at = now + after.max(1);
            timers.push((at, KubeletTimer::Exit(uid.into(), i, gen, code)));
        }
        requests.push(Request::blind_update_status(p.clone()));
        (requests, timers, p)
    }

    pub(super) fn bump_gen(&mut self, uid: &str, i: usize, n: usize) -> u64 {
        let Some(w) = self.workers.get_mut(uid) else {
            return 0;
        };
        if w.gens.len() < n {
            w.gens.resize(n, 0);
        }
        w.probes.ensure(n);
        w.gens[i] += 1;
        w.probes.reset(i);
        w.gens[i]
    }

    pub(super) fn gen_is(&self, uid: &str, i: usize, gen: u64) -> bool {
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
        let Some(c) = slot_container(&pod, i).cloned() else {
            return Err("no such container".into());
        };
        let name = c.name.clone();
        let mut p = pod.clone();
        let Some(cs) = status_of_mut(&mut p, &name) else {
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
        let gen = self.bump_gen(uid, i, slot_count(&p));
        // An app container's exit ends the bring-up only when no other container still
        // waits for its first start (an image pull in back-off beside a crashing
        // container): that one's retry is bring-up work, and would be dropped.
        if !c.is_sidecar() && !container_config::waiting_for_first_start(&p) {
            if let Some(w) = self.workers.get_mut(uid) {
                w.stage = Stage::Running;
            }
        }
        // A sidecar that exits during bring-up leaves the worker bringing the Pod up:
        // the init sequence may still wait for it to start again.
        Ok((
            vec![Request::blind_update_status(p)],
            vec![(now + PLEG_RELIST, KubeletTimer::Restart(uid.into(), i, gen))],
        ))
    }

    /// The restart decision for an exited container (`doBackOff`): restart now and
    /// double the back-off, or wait in CrashLoopBackOff until it has passed.
    pub(super) fn restart(
        &mut self,
        faults: &mut Faults,
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
        let Some(c) = slot_container(&pod, i).cloned() else {
            return (vec![], vec![]);
        };
        let Some(cs) = status_of(&pod, &c.name) else {
            return (vec![], vec![]);
        };
        let term = cs
            .state
            .terminated
            .clone()
            .or_else(|| cs.last_state.terminated.clone());
        let exit_code = term.as_ref().map(|t| t.exit_code).unwrap_or(1);
        let policy = pod.spec.restart_policy.as_str();
        // A sidecar is restarted whatever the Pod's restartPolicy (its own is Always).
        if !c.is_sidecar() && (policy == "Never" || (policy == "OnFailure" && exit_code == 0)) {
            // No restart: once every container has exited the Pod is terminal.
            let Some(done) = terminal_phase(&pod) else {
                return (vec![], vec![]);
            };
            // Sidecars do not hold the phase (getPhase counts the app containers only);
            // the terminal Pod's worker then stops them, in their termination order.
            let sidecar_runs = pod
                .status
                .init_container_statuses
                .iter()
                .any(|s| s.state.running.is_some());
            if !sidecar_runs {
                return (vec![done], vec![]);
            }
            if let Some(w) = self.workers.get_mut(uid) {
                w.stage = Stage::Killing;
            }
            return (vec![done], vec![(now, KubeletTimer::Kill(uid.into()))]);
        }
        let finished = term
            .as_ref()
            .and_then(|t| crate::time::parse_rfc3339(&t.finished_at))
            .unwrap_or(now);
        let key = format!("{uid}/{}", c.name);
        if self
            .crash_backoff
            .get(&key)
            .is_some_and(|b| now.saturating_sub(b.last_update) > 2 * MAX_BACKOFF)
        {
            // Ten quiet minutes reset the back-off.
            self.crash_backoff.remove(&key);
        }
        if let Some(b) = self.crash_backoff.get(&key).copied() {
            if now.saturating_sub(finished) < b.delay {
                let mut p = pod.clone();
                if let Some(cs) = status_of_mut(&mut p, &c.name) {
                    crash_loop_back_off(cs, &pod.metadata, &c.name, b.delay);
                }
                let ev = self.back_off_event(&p.metadata, &c.name);
                return (
                    vec![Request::blind_update_status(p), ev],
                    vec![(
                        finished + b.delay,
                        KubeletTimer::Restart(uid.into(), i, gen),
                    )],
                );
            }
        }
        let next = match self.crash_backoff.get(&key) {
            Some(b) => (b.delay * 2).min(MAX_BACKOFF),
            None => INITIAL_BACKOFF,
        };
        self.crash_backoff.insert(
            key,
            Backoff {
                delay: next,
                last_update: now,
            },
        );
        let n = pod.spec.containers.len();
        if i >= n {
            return self.start_sidecar(faults, &pod, uid, i - n, now, true);
        }
        let (r, t, _) = self.start_one(faults, &pod, uid, i, now, true);
        (r, t)
    }
}

/// A Pod whose containers will not restart, once every one has exited: Failed if one
/// failed, else Succeeded (None while one still runs).
fn terminal_phase(pod: &Pod) -> Option<Request> {
    let statuses = &pod.status.container_statuses;
    if !statuses.iter().all(|x| x.state.terminated.is_some()) {
        return None;
    }
    let failed = statuses.iter().any(|x| {
        x.state
            .terminated
            .as_ref()
            .is_some_and(|t| t.exit_code != 0)
    });
    let mut p = pod.clone();
    p.status.phase = if failed {
        PodPhase::Failed
    } else {
        PodPhase::Succeeded
    }
    .into();
    Some(Request::blind_update_status(p))
}

/// `startContainer` on a container's status: a restart counts and keeps the last
/// termination; the container runs from now with a new container id.
pub(super) fn run_container(
    cs: &mut ContainerStatus,
    uid: &str,
    c: &Container,
    now: SimTime,
    restart: bool,
) {
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
}

/// A failed container waiting out its back-off: `CrashLoopBackOff` with the delay, its
/// last termination kept.
pub(super) fn crash_loop_back_off(
    cs: &mut ContainerStatus,
    pod: &ObjectMeta,
    name: &str,
    delay: SimTime,
) {
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
                "back-off {} restarting failed container={name} pod={}",
                format_go_duration(delay),
                pod_full_name(pod)
            ),
        }),
        ..Default::default()
    };
}

/// `format.Pod`: `name_namespace(uid)`, as the kubelet names a Pod in its messages.
pub(super) fn pod_full_name(pod: &ObjectMeta) -> String {
    format!("{}_{}({})", pod.name, pod.namespace, pod.uid)
}

impl Kubelet {
    /// The events of a container start: on a restart the image is already there.
    pub(super) fn start_events(
        &self,
        pod: &ObjectMeta,
        c: &Container,
        restart: bool,
    ) -> Vec<Request> {
        let normal =
            |reason: &str, message: String| self.event(pod, EventType::Normal, reason, message);
        let mut requests = Vec::new();
        // Every start ensures the image again: a restart finds it present, and with
        // `Always` pulls it anyway (the registry round trip only: every layer is there).
        if restart && c.image_pull_policy == "Always" {
            requests.push(normal("Pulling", format!("Pulling image \"{}\"", c.image)));
            requests.push(normal(
                "Pulled",
                format!(
                    "Successfully pulled image \"{}\" in {secs} ({secs} including waiting). Image size: {} bytes.",
                    c.image,
                    image_size(&c.image),
                    secs = format_go_duration(self.pull_ms_of(c)),
                ),
            ));
        } else if restart {
            requests.push(normal(
                "Pulled",
                format!("Container image \"{}\" already present on machine", c.image),
            ));
        }
        requests.push(normal("Created", format!("Created container {}", c.name)));
        requests.push(normal("Started", format!("Started container {}", c.name)));
        requests
    }

    /// The `BackOff` warning of a container in CrashLoopBackOff.
    pub(super) fn back_off_event(&self, pod: &ObjectMeta, name: &str) -> Request {
        self.event(
            pod,
            EventType::Warning,
            "BackOff",
            format!(
                "Back-off restarting failed container {name} in pod {}",
                pod_full_name(pod)
            ),
        )
    }
}
