//! The probers: startup, liveness and readiness probes of each container.
//!
//! Upstream: `pkg/kubelet/prober/worker.go` (`doProbe`: success and failure thresholds,
//! the startup probe gating the others), `pkg/kubelet/prober/prober_manager.go`.

use super::*;

/// A readiness prober worker's state for one container.
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

impl Kubelet {
    /// Arm the readiness and liveness probers of container `i` (at start, or once its
    /// startup probe passed).
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
            faults.hung.remove(uid);
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
    pub(super) fn startup(
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
        let Some(c) = pod.spec.containers.get(i).cloned() else {
            return (vec![], vec![]);
        };
        let Some(probe) = c.startup_probe.clone() else {
            return (vec![], vec![]);
        };
        let hung = faults.hung.contains(uid);
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
            faults.hung.remove(uid);
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
        let timers = self.arm_probes(faults, uid, i, gen, &c, now);
        (
            vec![Request::UpdateStatus(Object::Pod(Box::new(p)))],
            timers,
        )
    }

    /// A readiness probe tick: passing flips Ready on after successThreshold, failing
    /// (the application is `sim unready`) flips it off after failureThreshold and emits
    /// `Unhealthy` each time. Healthy and Ready: probing goes quiet (nothing to see).
    pub(super) fn probe(
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
        let Some(c) = pod.spec.containers.get(i).cloned() else {
            return (vec![], vec![]);
        };
        let Some(probe) = c.readiness_probe.clone() else {
            return (vec![], vec![]);
        };
        let healthy = !faults.unready.contains(uid) && !faults.hung.contains(uid);
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
            faults.unready.insert(uid.into());
        } else {
            faults.unready.remove(uid);
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
    pub(super) fn liveness(
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
        let Some(c) = pod.spec.containers.get(i).cloned() else {
            return (vec![], vec![]);
        };
        let Some(probe) = c.liveness_probe.clone() else {
            return (vec![], vec![]);
        };
        let hung = faults.hung.contains(uid);
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
        faults.hung.remove(uid);
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
}
