//! The probers: one worker per probe of each container — startup, liveness, readiness —
//! all run by the same [`Kubelet::probe`], which differs by probe type only in what a
//! result means.
//!
//! Upstream: `pkg/kubelet/prober/worker.go` (`doProbe`: consecutive successes and
//! failures against the thresholds; a startup probe gates the other two; a liveness or
//! startup failure at the threshold kills the container, a readiness one marks it not
//! ready), `pkg/kubelet/prober/prober_manager.go`.
//!
//! What the probe finds is the world's: [`Faults::ready`] and [`Faults::alive`] (the
//! learner's `sim unready` and `sim hang`). A healthy probe that changes nothing goes
//! quiet (readiness once Ready, liveness at once) rather than ticking for ever; a fault
//! wakes it at its next period boundary ([`Kubelet::wake_probers`]).

use super::*;

/// The three probes of a container.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ProbeType {
    /// `startupProbe`: until it passes, the other two wait.
    Startup,
    /// `livenessProbe`: failing, the container is killed and restarted.
    Liveness,
    /// `readinessProbe`: failing, the container is not Ready.
    Readiness,
}

impl ProbeType {
    /// All three, in the order a worker keeps their states.
    pub const ALL: [ProbeType; 3] = [
        ProbeType::Startup,
        ProbeType::Liveness,
        ProbeType::Readiness,
    ];

    /// Its spec on a container.
    pub fn of(self, c: &Container) -> Option<&Probe> {
        match self {
            ProbeType::Startup => c.startup_probe.as_ref(),
            ProbeType::Liveness => c.liveness_probe.as_ref(),
            ProbeType::Readiness => c.readiness_probe.as_ref(),
        }
    }

    /// How the kubelet names it in events (`Readiness probe failed: …`).
    pub fn label(self) -> &'static str {
        match self {
            ProbeType::Startup => "Startup",
            ProbeType::Liveness => "Liveness",
            ProbeType::Readiness => "Readiness",
        }
    }

    /// Whether the application of Pod `uid` passes it now.
    fn passes(self, faults: &Faults, uid: &str) -> bool {
        match self {
            ProbeType::Readiness => faults.ready(uid),
            ProbeType::Startup | ProbeType::Liveness => faults.alive(uid),
        }
    }

    fn index(self) -> usize {
        self as usize
    }
}

/// A probe tick of one container's prober.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProbeTick {
    /// Which probe.
    pub probe: ProbeType,
    /// The Pod's uid.
    pub uid: String,
    /// The container's index in `spec.containers`, or `containers.len() + j` for the
    /// sidecar `spec.initContainers[j]`.
    pub container: usize,
    /// The container's generation when armed (a restart makes the tick stale).
    pub gen: u64,
}

impl ProbeTick {
    fn timer(t: ProbeType, uid: &str, i: usize, gen: u64) -> KubeletTimer {
        KubeletTimer::Probe(ProbeTick {
            probe: t,
            uid: uid.into(),
            container: i,
            gen,
        })
    }
}

/// One probe worker's state for one container.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct ProbeState {
    /// Time of the first probe; later ones follow every `period`.
    pub(super) t0: SimTime,
    pub(super) period: SimTime,
    pub(super) successes: i64,
    pub(super) failures: i64,
    /// A probe timer is pending.
    pub(super) armed: bool,
}

/// Per container, the state of each of its three probe workers.
#[derive(Clone, Debug, Default)]
pub(super) struct Probers {
    states: [Vec<ProbeState>; 3],
}

impl Probers {
    /// Room for `n` containers.
    pub(super) fn ensure(&mut self, n: usize) {
        for v in &mut self.states {
            if v.len() < n {
                v.resize(n, ProbeState::default());
            }
        }
    }

    /// Forget container `i`'s probe results (it restarted).
    pub(super) fn reset(&mut self, i: usize) {
        for v in &mut self.states {
            if let Some(st) = v.get_mut(i) {
                *st = ProbeState::default();
            }
        }
    }

    pub(super) fn get_mut(&mut self, t: ProbeType, i: usize) -> Option<&mut ProbeState> {
        self.states[t.index()].get_mut(i)
    }
}

impl Kubelet {
    /// Start the `t` prober of container `i` (generation `gen`): first probe after
    /// `initialDelaySeconds`. A liveness prober starts quiet — a healthy application
    /// needs no ticking — and is woken by a hang; the others tick from the start.
    pub(super) fn start_prober(
        &mut self,
        t: ProbeType,
        uid: &str,
        i: usize,
        gen: u64,
        probe: &Probe,
        now: SimTime,
    ) -> Option<(SimTime, KubeletTimer)> {
        let first = crate::time::after_seconds(now, probe.initial_delay_seconds);
        let tick = t != ProbeType::Liveness;
        if let Some(st) = self
            .workers
            .get_mut(uid)
            .and_then(|w| w.probes.get_mut(t, i))
        {
            *st = ProbeState {
                t0: first,
                period: crate::time::seconds_to_ms(probe.period_seconds.max(1)),
                successes: 0,
                failures: 0,
                armed: tick,
            };
        }
        tick.then(|| (first, ProbeTick::timer(t, uid, i, gen)))
    }

    /// Start the readiness and liveness probers of container `i` (at its start, or once
    /// its startup probe passed). A (re)started container also cures a hang.
    pub(super) fn arm_probes(
        &mut self,
        faults: &mut Faults,
        uid: &str,
        i: usize,
        gen: u64,
        c: &Container,
        now: SimTime,
    ) -> Vec<(SimTime, KubeletTimer)> {
        let mut timers = Vec::new();
        if let Some(probe) = &c.readiness_probe {
            timers.extend(self.start_prober(ProbeType::Readiness, uid, i, gen, probe, now));
        }
        if let Some(probe) = &c.liveness_probe {
            faults.hung.remove(uid);
            timers.extend(self.start_prober(ProbeType::Liveness, uid, i, gen, probe, now));
        }
        timers
    }

    /// One probe of type `t` of container `i` (`doProbe`). Failures emit `Unhealthy`;
    /// at failureThreshold a readiness probe marks the container not Ready, a liveness or
    /// startup probe kills it (`Killing`, exit 137) for a restart. Successes: readiness
    /// marks it Ready at successThreshold; startup marks it started and starts the other
    /// probers; liveness has nothing to say.
    pub(super) fn probe(
        &mut self,
        faults: &mut Faults,
        store: &Store,
        tick: &ProbeTick,
        now: SimTime,
    ) -> KubeletOutput {
        let (t, uid, i, gen) = (tick.probe, tick.uid.as_str(), tick.container, tick.gen);
        if !self.gen_is(uid, i, gen) {
            return (vec![], vec![]);
        }
        let Some(pod) = self.pod(store, uid).cloned() else {
            return (vec![], vec![]);
        };
        let Some(c) = slot_container(&pod, i).cloned() else {
            return (vec![], vec![]);
        };
        let Some(probe) = t.of(&c).cloned() else {
            return (vec![], vec![]);
        };
        // An application still warming up answers no probe (`sim image-warmup`).
        let started = pod
            .status
            .container_statuses
            .iter()
            .chain(&pod.status.init_container_statuses)
            .find(|s| s.name == c.name)
            .and_then(|s| s.state.running.as_ref())
            .and_then(|r| crate::time::parse_rfc3339(&r.started_at));
        let listening = started.is_none_or(|at| faults.listening(&c.image, at, now));
        let passes = t.passes(faults, uid) && listening;
        let Some(st) = self
            .workers
            .get_mut(uid)
            .and_then(|w| w.probes.get_mut(t, i))
        else {
            return (vec![], vec![]);
        };
        st.armed = false;
        let again = (
            now.saturating_add(st.period),
            ProbeTick::timer(t, uid, i, gen),
        );
        if passes {
            if t != ProbeType::Startup {
                st.failures = 0;
            }
            st.successes += 1;
            let successes = st.successes;
            return match t {
                ProbeType::Liveness => (vec![], vec![]),
                ProbeType::Readiness => {
                    self.readiness_passed(&pod, &c, i, &probe, successes, again, now)
                }
                ProbeType::Startup => self.startup_passed(faults, &pod, &c, uid, i, gen, now),
            };
        }
        if t == ProbeType::Readiness {
            st.successes = 0;
        }
        st.failures += 1;
        let failures = st.failures;
        let mut requests = vec![self.event(
            &pod.metadata,
            EventType::Warning,
            "Unhealthy",
            format!(
                "{} probe failed: {}",
                t.label(),
                probe.failure_message(&pod.status.pod_ip)
            ),
        )];
        let at_threshold = failures >= probe.failure_threshold.max(1);
        if t == ProbeType::Readiness {
            if at_threshold && container_ready(&pod, &c.name) {
                requests.push(set_container_ready(&pod, &c.name, false, now));
            }
            self.rearm(t, uid, i);
            return (requests, vec![again]);
        }
        if !at_threshold {
            self.rearm(t, uid, i);
            return (requests, vec![again]);
        }
        requests.push(self.event(
            &pod.metadata,
            EventType::Normal,
            "Killing",
            format!(
                "Container {} failed {} probe, will be restarted",
                c.name,
                t.label().to_lowercase()
            ),
        ));
        faults.hung.remove(uid);
        match self.exit(store, uid, i, None, now, 137, "Error") {
            Ok((r, timers)) => {
                requests.extend(r);
                (requests, timers)
            }
            Err(_) => (requests, vec![]),
        }
    }

    fn rearm(&mut self, t: ProbeType, uid: &str, i: usize) {
        if let Some(st) = self
            .workers
            .get_mut(uid)
            .and_then(|w| w.probes.get_mut(t, i))
        {
            st.armed = true;
        }
    }

    /// A passing readiness probe: Ready at successThreshold; until then it keeps probing,
    /// and once Ready it goes quiet.
    #[allow(clippy::too_many_arguments)]
    fn readiness_passed(
        &mut self,
        pod: &Pod,
        c: &Container,
        i: usize,
        probe: &Probe,
        successes: i64,
        again: (SimTime, KubeletTimer),
        now: SimTime,
    ) -> KubeletOutput {
        if container_ready(pod, &c.name) {
            return (vec![], vec![]);
        }
        if successes >= probe.success_threshold.max(1) {
            return (vec![set_container_ready(pod, &c.name, true, now)], vec![]);
        }
        self.rearm(ProbeType::Readiness, &pod.metadata.uid, i);
        (vec![], vec![again])
    }

    /// A passing startup probe: the container is started (and Ready now unless a
    /// readiness probe decides that), and its readiness and liveness probers start.
    #[allow(clippy::too_many_arguments)]
    fn startup_passed(
        &mut self,
        faults: &mut Faults,
        pod: &Pod,
        c: &Container,
        uid: &str,
        i: usize,
        gen: u64,
        now: SimTime,
    ) -> KubeletOutput {
        let mut p = pod.clone();
        if let Some(cs) = status_of_mut(&mut p, &c.name) {
            cs.started = Some(true);
            cs.ready = c.readiness_probe.is_none();
        }
        let timers = self.arm_probes(faults, uid, i, gen, c, now);
        let n = pod.spec.containers.len();
        if i >= n {
            // A sidecar's startup probe gates the init sequence: the next init
            // container (or the app containers) starts only now.
            let (r, t) = self.sidecar_started(faults, p, uid, i - n, now);
            return (r, timers.into_iter().chain(t).collect());
        }
        if refresh_ready(&mut p, now) {
            if let Some(w) = self.workers.get_mut(uid) {
                w.stage = Stage::Running;
            }
        }
        (vec![Request::blind_update_status(p)], timers)
    }

    /// Wake the `types` probers of every container of Pod `uid` that has one and is
    /// quiet: their next tick, on their period's grid (the prober ticks every period
    /// from its first probe).
    fn wake_probers(
        &mut self,
        pod: &Pod,
        uid: &str,
        types: &[ProbeType],
        now: SimTime,
    ) -> Vec<(SimTime, KubeletTimer)> {
        let mut timers = Vec::new();
        let Some(w) = self.workers.get_mut(uid) else {
            return timers;
        };
        // App containers and sidecars alike (the kubelet-wide index).
        for i in 0..slot_count(pod) {
            let Some(c) = slot_container(pod, i) else {
                continue;
            };
            let gen = w.gens.get(i).copied().unwrap_or(0);
            for &t in types {
                if t.of(c).is_none() {
                    continue;
                }
                let Some(st) = w
                    .probes
                    .get_mut(t, i)
                    .filter(|st| !st.armed && st.period > 0)
                else {
                    continue;
                };
                let k = now.saturating_sub(st.t0) / st.period + 1;
                st.armed = true;
                timers.push((st.t0 + k * st.period, ProbeTick::timer(t, uid, i, gen)));
            }
        }
        timers
    }

    /// `sim unready` / `sim ready`: the application of a Pod starts (or stops) failing
    /// its readiness probe; the next probe tick notices. Err if no container has a
    /// readiness probe.
    pub fn set_unready(
        &mut self,
        faults: &mut Faults,
        store: &Store,
        uid: &str,
        unready: bool,
        now: SimTime,
    ) -> Result<KubeletOutput, String> {
        let pod = self
            .pod(store, uid)
            .cloned()
            .ok_or("the pod is not running on this node")?;
        let sidecars = pod.spec.init_containers.iter().filter(|c| c.is_sidecar());
        if !pod
            .spec
            .containers
            .iter()
            .chain(sidecars)
            .any(|c| c.readiness_probe.is_some())
        {
            return Err(format!(
                "pod {} has no readiness probe: the kubelet counts a running container as ready, so there is nothing to fail (add a readinessProbe to its containers)",
                pod.metadata.name
            ));
        }
        if unready {
            faults.unready.insert(uid.into());
        } else {
            faults.unready.remove(uid);
        }
        Ok((
            vec![],
            self.wake_probers(&pod, uid, &[ProbeType::Readiness], now),
        ))
    }

    /// `sim hang`: the application stops answering (liveness and readiness probes fail)
    /// until its container restarts.
    pub fn set_hung(
        &mut self,
        faults: &mut Faults,
        store: &Store,
        uid: &str,
        now: SimTime,
    ) -> Result<KubeletOutput, String> {
        let pod = self
            .pod(store, uid)
            .cloned()
            .ok_or("the pod is not running on this node")?;
        faults.hung.insert(uid.into());
        let types = [ProbeType::Liveness, ProbeType::Readiness];
        Ok((vec![], self.wake_probers(&pod, uid, &types, now)))
    }
}

/// Whether container `name` (app or sidecar) of the Pod is Ready in its status.
fn container_ready(pod: &Pod, name: &str) -> bool {
    status_of(pod, name).is_some_and(|x| x.ready)
}

/// The status update that marks container `name` (app or sidecar) Ready or not, and
/// the Pod's ContainersReady / Ready with it.
fn set_container_ready(pod: &Pod, name: &str, ready: bool, now: SimTime) -> Request {
    let mut p = pod.clone();
    if let Some(cs) = status_of_mut(&mut p, name) {
        cs.ready = ready;
    }
    refresh_ready(&mut p, now);
    Request::blind_update_status(p)
}
