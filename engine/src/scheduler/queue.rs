//! The scheduling queue: activeQ by priority, backoffQ, the unschedulable pool, and the
//! informer events that move Pods between them; the nominator's book of preemptors.
//!
//! Upstream: `pkg/scheduler/internal/queue/scheduling_queue.go` (`Add`,
//! `MoveAllToActiveOrBackoffQueue`, `flushUnschedulablePodsLeftover`, the pod back-off
//! of 1 s doubling to 10 s), `pkg/scheduler/internal/queue/nominator.go`,
//! `pkg/scheduler/eventhandlers.go`.

use super::*;

impl Scheduler {
    pub(super) fn queued(&self, key: &ObjKey) -> bool {
        self.in_active.contains_key(key)
            || self.backoff.contains_key(key)
            || self.unschedulable.contains_key(key)
    }

    pub(super) fn set_nominated(&mut self, key: &ObjKey, pod: Option<&Pod>) {
        for set in self.nominated.values_mut() {
            set.remove(key);
        }
        self.nominated.retain(|_, s| !s.is_empty());
        if let Some(p) = pod {
            if wants_scheduling(p) && !p.status.nominated_node_name.is_empty() {
                self.nominated
                    .entry(p.status.nominated_node_name.clone())
                    .or_default()
                    .insert(key.clone());
            }
        }
    }

    /// Requests of the Pods nominated to `node` that `pod` must leave room for.
    pub(super) fn nominated_requests(
        &self,
        store: &Store,
        node: &str,
        pod: &Pod,
    ) -> Vec<crate::apiserver::PodRequests> {
        self.nominated
            .get(node)
            .into_iter()
            .flatten()
            .filter_map(|k| store.get::<Pod>(k))
            .filter(|p| p.metadata.uid != pod.metadata.uid && pod_priority(p) >= pod_priority(pod))
            .map(pod_requests)
            .collect()
    }

    pub(super) fn forget(&mut self, key: &ObjKey) {
        if let Some(k) = self.in_active.remove(key) {
            self.active.remove(&k);
        }
        self.backoff.remove(key);
        self.unschedulable.remove(key);
    }

    pub(super) fn push_active(
        &mut self,
        key: ObjKey,
        priority: i64,
        now: SimTime,
    ) -> Vec<(SimTime, SchedulerTimer)> {
        if self.in_active.contains_key(&key) {
            return vec![];
        }
        self.seq += 1;
        let k = (Reverse(priority), now, self.seq, key.clone());
        self.active.insert(k.clone());
        self.in_active.insert(key, k);
        self.arm_cycle(now)
    }

    pub(super) fn arm_cycle(&mut self, now: SimTime) -> Vec<(SimTime, SchedulerTimer)> {
        if self.cycle_armed || self.active.is_empty() {
            return vec![];
        }
        self.cycle_armed = true;
        vec![(now, SchedulerTimer::Cycle)]
    }

    pub(super) fn backoff_until(&self, uid: &str) -> SimTime {
        match self.attempts.get(uid) {
            Some((n, last)) if *n > 0 => {
                let d = (INITIAL_BACKOFF << (n - 1).min(16)).min(MAX_BACKOFF);
                last + d
            }
            _ => 0,
        }
    }

    /// `MoveAllToActiveOrBackoffQueue`: a cluster event may have made room.
    pub fn move_all_to_active_or_backoff(
        &mut self,
        store: &Store,
        now: SimTime,
    ) -> Vec<(SimTime, SchedulerTimer)> {
        let keys: Vec<ObjKey> = self.unschedulable.keys().cloned().collect();
        let mut timers = Vec::new();
        for key in keys {
            timers.extend(self.requeue(store, &key, now));
        }
        timers
    }

    /// AssignedPodAdd: a Pod just bound may satisfy a waiting Pod's pod affinity or
    /// change a spread count, so Pods rejected by those plugins are retried (upstream's
    /// queueing hints; Pods rejected only for resources are left waiting).
    pub(super) fn requeue_waiting_on_pods(
        &mut self,
        store: &Store,
        now: SimTime,
    ) -> Vec<(SimTime, SchedulerTimer)> {
        let keys: Vec<ObjKey> = self
            .unschedulable
            .keys()
            .filter(|k| {
                self.last_attempt.get(*k).is_some_and(|a| {
                    a.nodes.iter().any(|v| {
                        v.failure.as_ref().is_some_and(|f| {
                            f.plugin == "InterPodAffinity" || f.plugin == "PodTopologySpread"
                        })
                    })
                })
            })
            .cloned()
            .collect();
        let mut timers = Vec::new();
        for key in keys {
            timers.extend(self.requeue(store, &key, now));
        }
        timers
    }

    pub(super) fn requeue(
        &mut self,
        store: &Store,
        key: &ObjKey,
        now: SimTime,
    ) -> Vec<(SimTime, SchedulerTimer)> {
        self.unschedulable.remove(key);
        let Some(p) = store.get::<Pod>(key) else {
            self.backoff.remove(key);
            return vec![];
        };
        let until = self.backoff_until(&p.metadata.uid);
        if until > now {
            if self.backoff.insert(key.clone(), until).is_none() {
                return vec![(until, SchedulerTimer::Backoff(key.clone()))];
            }
            return vec![];
        }
        self.backoff.remove(key);
        self.push_active(key.clone(), pod_priority(p), now)
    }

    /// Informer handler: unscheduled Pods join the queue; bound or deleted ones leave it;
    /// node changes and assigned-Pod deletions retry unschedulable Pods.
    pub fn watch(
        &mut self,
        store: &Store,
        kind: Kind,
        old: Option<&Object>,
        new: Option<&Object>,
        now: SimTime,
    ) -> Vec<(SimTime, SchedulerTimer)> {
        match (kind, new) {
            (Kind::Pod, Some(Object::Pod(p))) => {
                let key = ObjKey::of(&p.metadata);
                let was_nominated =
                    matches!(old, Some(Object::Pod(o)) if !o.status.nominated_node_name.is_empty());
                if was_nominated || !p.status.nominated_node_name.is_empty() {
                    self.set_nominated(&key, Some(p));
                }
                if wants_scheduling(p) {
                    if !self.queued(&key) {
                        return self.push_active(key, pod_priority(p), now);
                    }
                    vec![]
                } else {
                    self.forget(&key);
                    let newly_bound = !p.spec.node_name.is_empty()
                        && !matches!(old, Some(Object::Pod(o)) if !o.spec.node_name.is_empty());
                    if newly_bound {
                        return self.requeue_waiting_on_pods(store, now);
                    }
                    vec![]
                }
            }
            (Kind::Pod, None) => {
                let Some(Object::Pod(p)) = old else {
                    return vec![];
                };
                let key = ObjKey::of(&p.metadata);
                self.forget(&key);
                if !p.status.nominated_node_name.is_empty() {
                    self.set_nominated(&key, None);
                }
                self.attempts.remove(&p.metadata.uid);
                self.last_attempt.remove(&key);
                if !p.spec.node_name.is_empty() {
                    return self.move_all_to_active_or_backoff(store, now);
                }
                vec![]
            }
            // VolumeBinding's events: a claim added or bound, a volume added or
            // changed, a class added.
            (Kind::PersistentVolumeClaim, Some(Object::PersistentVolumeClaim(c))) => {
                let relevant = match old {
                    Some(Object::PersistentVolumeClaim(o)) => {
                        o.spec.volume_name != c.spec.volume_name || o.status.phase != c.status.phase
                    }
                    _ => true,
                };
                if relevant && !self.unschedulable.is_empty() {
                    self.move_all_to_active_or_backoff(store, now)
                } else {
                    vec![]
                }
            }
            (Kind::PersistentVolume | Kind::StorageClass, Some(_))
                if !self.unschedulable.is_empty() =>
            {
                self.move_all_to_active_or_backoff(store, now)
            }
            (Kind::Node, Some(Object::Node(n))) => {
                let relevant = match old {
                    Some(Object::Node(o)) => {
                        o.spec != n.spec
                            || o.status.allocatable != n.status.allocatable
                            || o.metadata.labels != n.metadata.labels
                    }
                    _ => true,
                };
                if relevant {
                    self.move_all_to_active_or_backoff(store, now)
                } else {
                    vec![]
                }
            }
            _ => vec![],
        }
    }

    /// A back-off timer fired: the Pod moves to the active queue.
    pub fn backoff_done(
        &mut self,
        store: &Store,
        key: &ObjKey,
        now: SimTime,
    ) -> Vec<(SimTime, SchedulerTimer)> {
        match self.backoff.get(key) {
            Some(until) if *until <= now => {
                self.backoff.remove(key);
                match store.get::<Pod>(key) {
                    Some(p) if wants_scheduling(p) => {
                        self.push_active(key.clone(), pod_priority(p), now)
                    }
                    _ => vec![],
                }
            }
            _ => vec![],
        }
    }

    /// The 30-second flush: Pods unschedulable for 5 minutes are retried.
    pub fn flush(&mut self, store: &Store, now: SimTime) -> Vec<(SimTime, SchedulerTimer)> {
        self.flush_armed = false;
        let stale: Vec<ObjKey> = self
            .unschedulable
            .iter()
            .filter(|(_, since)| now >= **since + MAX_UNSCHEDULABLE_DURATION)
            .map(|(k, _)| k.clone())
            .collect();
        let mut timers = Vec::new();
        for k in stale {
            timers.extend(self.requeue(store, &k, now));
        }
        timers.extend(self.arm_flush(now));
        timers
    }

    pub(super) fn arm_flush(&mut self, now: SimTime) -> Vec<(SimTime, SchedulerTimer)> {
        if self.flush_armed || self.unschedulable.is_empty() {
            return vec![];
        }
        self.flush_armed = true;
        vec![(now + FLUSH_PERIOD, SchedulerTimer::Flush)]
    }
}
