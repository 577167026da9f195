//! Housekeeping: the kubelet's guarantee that nothing it owns is forgotten.
//!
//! Upstream: `pkg/kubelet/kubelet.go` (`syncLoopIteration`: the housekeeping tick runs
//! `HandlePodCleanups` every 2 s; the sync tick resyncs every pod worker whose
//! `--sync-frequency` of 1 min, plus jitter, is up), `pkg/kubelet/kubelet_pods.go`
//! (`HandlePodCleanups`: kill what runs without a Pod, start workers for Pods that have
//! none). Here the pod workers are driven by timers, so the resync's job is to find a
//! worker that has no timer left while it still has work to do; every minute, as a
//! background timer, it checks each worker of this node (work in proportion to the
//! node's Pods, never the cluster's). A repair means some path forgot a timer: it is
//! counted ([`Kubelet::repairs`]) so that tests can insist on zero, while a learner's
//! cluster still heals.

use super::*;

impl Kubelet {
    /// One housekeeping pass; the next is armed a minute later.
    pub(super) fn housekeeping(&mut self, store: &Store, now: SimTime) -> KubeletOutput {
        let mut timers = vec![(now + HOUSEKEEPING_INTERVAL, KubeletTimer::Housekeeping)];
        if self.cut.is_some() {
            // Cut off, it learns nothing new; its own work goes on by its timers.
            return (vec![], timers);
        }
        let mut redo = vec![];
        let uids: Vec<String> = self.workers.keys().cloned().collect();
        for uid in uids {
            let Some(w) = self.workers.get(&uid) else {
                continue;
            };
            let Some(p) = store.get::<Pod>(&w.key).filter(|p| p.metadata.uid == uid) else {
                // Its Pod is gone from the API server: the runtime cleans up.
                self.workers.remove(&uid);
                self.pending.remove(&uid);
                continue;
            };
            if p.metadata.is_deleting() && w.stage != Stage::Killing {
                // A deletion it never saw.
                self.repairs += 1;
                if let Some(w) = self.workers.get_mut(&uid) {
                    w.stage = Stage::Killing;
                }
                redo.push(KubeletTimer::Kill(uid.clone()));
                continue;
            }
            if let Some(t) = self.stalled(p, &uid) {
                self.repairs += 1;
                redo.push(t);
            }
        }
        timers.extend(redo.into_iter().map(|t| (now, t)));
        let (requests, t) = self.adopt_unknown_pods(store, now, false);
        self.repairs += t.len() as u64;
        timers.extend(t);
        (requests, timers)
    }

    /// The timer that resumes the worker of Pod `p` if it has work left and no timer
    /// to do it: bringing the Pod up or down, or restarting an exited container that
    /// its restart policy wants back.
    fn stalled(&self, p: &Pod, uid: &str) -> Option<KubeletTimer> {
        if self.pending.get(uid).copied().unwrap_or(0) > 0 {
            return None;
        }
        let w = self.workers.get(uid)?;
        if w.stage == Stage::Killing {
            return Some(KubeletTimer::Kill(uid.into()));
        }
        if p.status.container_statuses.is_empty() {
            // Never synced.
            return Some(KubeletTimer::Sync(uid.into()));
        }
        // At rest, every app container runs (probes tick only while something is
        // wrong) or has exited for good under its restart policy.
        let policy = p.spec.restart_policy.as_str();
        let (i, cs) = p.spec.containers.iter().enumerate().find_map(|(i, c)| {
            let cs = p
                .status
                .container_statuses
                .iter()
                .find(|s| s.name == c.name)?;
            let wanted = match (&cs.state.terminated, policy) {
                (None, _) => cs.state.running.is_none(),
                (Some(_), "Never") => false,
                (Some(t), "OnFailure") => t.exit_code != 0,
                (Some(_), _) => true,
            };
            wanted.then_some((i, cs))
        })?;
        if cs.state.terminated.is_none() && w.stage == Stage::Starting {
            // Not started yet: the bring-up lost its way.
            return Some(KubeletTimer::Sync(uid.into()));
        }
        let gen = w.gens.get(i).copied().unwrap_or(0);
        Some(KubeletTimer::Restart(uid.into(), i, gen))
    }

    /// Timers were armed for this kubelet: count them per Pod.
    pub fn armed(&mut self, timers: &[(SimTime, KubeletTimer)]) {
        for (_, t) in timers {
            if let Some(uid) = t.pod_uid() {
                *self.pending.entry(uid.to_string()).or_default() += 1;
            }
        }
    }

    /// A timer armed for this kubelet fires: one fewer pending for its Pod.
    fn fired(&mut self, t: &KubeletTimer) {
        let Some(uid) = t.pod_uid() else {
            return;
        };
        if let Some(n) = self.pending.get_mut(uid) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                self.pending.remove(uid);
            }
        }
    }

    /// Workers housekeeping had to resume so far (zero unless some path forgot one).
    pub fn repairs(&self) -> u64 {
        self.repairs
    }

    /// The Pods (by name) whose worker has work left and no timer to do it — what
    /// the next housekeeping pass would resume. Empty in a healthy kubelet.
    pub fn stalled_pods(&self, store: &Store) -> Vec<String> {
        if self.cut.is_some() || !self.up {
            return vec![];
        }
        self.workers
            .iter()
            .filter_map(|(uid, w)| {
                let p = store
                    .get::<Pod>(&w.key)
                    .filter(|p| p.metadata.uid == *uid)?;
                let lost_deletion = p.metadata.is_deleting() && w.stage != Stage::Killing;
                (lost_deletion || self.stalled(p, uid).is_some()).then(|| p.metadata.name.clone())
            })
            .chain(
                store
                    .pods_on_node(&self.node)
                    .filter(|p| !p.is_terminal() && !self.workers.contains_key(&p.metadata.uid))
                    .map(|p| p.metadata.name.clone()),
            )
            .collect()
    }

    /// Handle one of this kubelet's timers, counting it off its Pod's pending ones.
    pub(super) fn count_fired(&mut self, t: &KubeletTimer) {
        self.fired(t);
    }
}

impl KubeletTimer {
    /// The uid of the Pod this timer works for (none for the node's own timers).
    pub fn pod_uid(&self) -> Option<&str> {
        use KubeletTimer::*;
        match self {
            Heartbeat | Housekeeping => None,
            Sync(u) | Kill(u) | Stopped(u) => Some(u),
            PullDone(u, _) | InitPull(u, _) | InitPullDone(u, _) | InitStart(u, _) => Some(u),
            InitExit(u, _, _) | InitBackOff(u, _) | Start(u, _) | PullFailed(u, _) => Some(u),
            ImageBackOff(u, _) | RetryPull(u, _) | Crash(u, _, _) | Restart(u, _, _) => Some(u),
            Exit(u, _, _, _) => Some(u),
            Probe(t) => Some(&t.uid),
        }
    }
}

/// What the status manager sends after a reconnect: the kubelet's status of the Pod,
/// keeping the conditions the kubelet does not own (a `DisruptionTarget` added
/// meanwhile) from the API server's (`mergePodStatus` in `status_manager.go`).
pub(super) fn merge_pod_status(api: &Pod, mine: &Pod) -> Pod {
    const KUBELET_OWNED: [PodConditionType; 5] = [
        PodConditionType::PodScheduled,
        PodConditionType::Ready,
        PodConditionType::Initialized,
        PodConditionType::ContainersReady,
        PodConditionType::PodReadyToStartContainers,
    ];
    let mut p = api.clone();
    let mut status = mine.status.clone();
    for c in &api.status.conditions {
        let owned = KUBELET_OWNED.iter().any(|k| k.as_str() == c.type_);
        if !owned && !status.conditions.iter().any(|x| x.type_ == c.type_) {
            status.conditions.push(c.clone());
        }
    }
    p.status = status;
    p
}

/// The status manager's final delete of a Pod whose containers are gone: grace 0,
/// guarded by its uid.
pub(super) fn final_delete(key: &ObjKey, uid: &str) -> Request {
    Request::Delete {
        kind: Kind::Pod,
        key: key.clone(),
        options: DeleteOptions {
            grace_period_seconds: Some(0),
            precondition_uid: Some(uid.into()),
            ..Default::default()
        },
        event: None,
    }
}
