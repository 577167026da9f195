//! kube-scheduler's default profile: a priority queue with back-off, a filter → score →
//! select cycle over nodes, and Bind.
//!
//! Upstream: `pkg/scheduler/schedule_one.go` (`schedulePod`, `findNodesThatFitPod`,
//! `numFeasibleNodesToFind`, `prioritizeNodes`, `selectHost`),
//! `pkg/scheduler/internal/queue/scheduling_queue.go` (activeQ, backoffQ,
//! unschedulablePods, `MoveAllToActiveOrBackoffQueue`, the 5-minute flush),
//! `pkg/scheduler/framework/types.go` (`FitError`).
//!
//! One Pod per cycle, as upstream: each cycle sees the previous cycle's Bind in the
//! node usage index (upstream's "assume"), so two Pods never land on one free slot.
//! Every attempt is recorded per node (filter verdicts, scores) for the "why" views.

pub mod plugins;
pub mod preemption;
pub mod topology;

use crate::api::*;
use crate::apiserver::{pod_requests, Change, ObjKey, Store};
use crate::client::{event_ref, Component, Request};
use crate::controllers::{Controller, Ctx};
use crate::rng::Rng;
use crate::time::{rfc3339, SimTime, MINUTE, SECOND};
use plugins::*;
use std::cmp::Reverse;
use std::collections::{BTreeMap, BTreeSet};

/// `podInitialBackoffSeconds`.
pub const INITIAL_BACKOFF: SimTime = SECOND;
/// `podMaxBackoffSeconds`.
pub const MAX_BACKOFF: SimTime = 10 * SECOND;
/// Unschedulable Pods are retried at least this often (`podMaxInUnschedulablePodsDuration`).
pub const MAX_UNSCHEDULABLE_DURATION: SimTime = 5 * MINUTE;
/// How often the unschedulable pool is checked for that.
pub const FLUSH_PERIOD: SimTime = 30 * SECOND;
/// Weights of the default profile's score plugins.
pub const WEIGHT_TAINT_TOLERATION: i64 = 3;
/// NodeResourcesFit weight.
pub const WEIGHT_NODE_RESOURCES_FIT: i64 = 1;
/// NodeResourcesBalancedAllocation weight.
pub const WEIGHT_BALANCED_ALLOCATION: i64 = 1;
/// NodeAffinity weight.
pub const WEIGHT_NODE_AFFINITY: i64 = 2;
/// PodTopologySpread weight.
pub const WEIGHT_POD_TOPOLOGY_SPREAD: i64 = 2;
/// InterPodAffinity weight.
pub const WEIGHT_INTER_POD_AFFINITY: i64 = 2;
/// ImageLocality weight.
pub const WEIGHT_IMAGE_LOCALITY: i64 = 1;

/// Timers the scheduler asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SchedulerTimer {
    /// Run one scheduling cycle.
    Cycle,
    /// A Pod's back-off ended.
    Backoff(ObjKey),
    /// Check the unschedulable pool for Pods waiting more than 5 minutes.
    Flush,
}

/// Scores of one feasible node.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NodeScores {
    /// NodeResourcesFit (LeastAllocated), 0–100.
    pub least_allocated: i64,
    /// NodeResourcesBalancedAllocation, 0–100 (None: skipped, the Pod requests nothing).
    pub balanced_allocation: Option<i64>,
    /// TaintToleration after normalization, 0–100.
    pub taint_toleration: i64,
    /// NodeAffinity (preferred terms) after normalization, 0–100.
    pub node_affinity: i64,
    /// PodTopologySpread (soft constraints) after normalization, 0–100 (None: the Pod
    /// has no `ScheduleAnyway` constraint).
    pub pod_topology_spread: Option<i64>,
    /// InterPodAffinity (preferred terms, both directions) after normalization, 0–100
    /// (None: no term applies).
    pub inter_pod_affinity: Option<i64>,
    /// ImageLocality, 0–100 (0 unless the node reports the Pod's image by the exact
    /// name the Pod uses).
    pub image_locality: i64,
    /// Σ score × weight.
    pub total: i64,
}

/// One node's part in a scheduling attempt.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct NodeVerdict {
    /// Node name (shared with the store's node list: one copy per node, not per verdict).
    pub node: std::sync::Arc<str>,
    /// Why it was filtered out (None: feasible).
    pub failure: Option<FilterFailure>,
    /// Scores, for feasible nodes when scoring ran.
    pub scores: Option<NodeScores>,
}

/// The last scheduling attempt of a Pod: what the learner's "why" views show.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SchedulingAttempt {
    /// When.
    pub time: SimTime,
    /// The Pod's uid.
    pub uid: String,
    /// Nodes in the order they were evaluated.
    pub nodes: Vec<NodeVerdict>,
    /// The chosen node.
    pub chosen: Option<String>,
    /// The FailedScheduling message (failures) or the Scheduled message.
    pub message: String,
    /// Preemption this attempt started: the nominated node and the Pods deleted there.
    pub preemption: Option<(String, Vec<String>)>,
}

type ActiveKey = (Reverse<i64>, SimTime, u64, ObjKey);

/// Node verdicts kept in the attempts of bound Pods (for `sim why` and the page): the
/// newest attempts are kept until their verdicts add up to this many — thousands of
/// Pods on a small cluster, a few hundred at 1,000 nodes.
pub const KEEP_BOUND_VERDICTS: usize = 100_000;

/// The scheduler's queues and records.
#[derive(Clone, Debug, Default)]
pub struct Scheduler {
    active: BTreeSet<ActiveKey>,
    in_active: BTreeMap<ObjKey, ActiveKey>,
    backoff: BTreeMap<ObjKey, SimTime>,
    unschedulable: BTreeMap<ObjKey, SimTime>,
    attempts: BTreeMap<String, (u32, SimTime)>,
    seq: u64,
    next_start_node_index: usize,
    cycle_armed: bool,
    flush_armed: bool,
    /// The last attempt per Pod: every Pod still waiting, and the most recent ones that
    /// were bound, up to [`KEEP_BOUND_VERDICTS`] (each holds a verdict per node looked at:
    /// kept for every Pod, they were half the memory of a large cluster).
    pub last_attempt: BTreeMap<ObjKey, SchedulingAttempt>,
    /// Bound attempts in the order they happened (sequence → Pod, verdicts), oldest
    /// dropped first.
    bound_attempts: BTreeMap<u64, (ObjKey, usize)>,
    bound_seq: u64,
    bound_verdicts: usize,
    /// Unbound Pods with a nominatedNodeName, by node (upstream's nominator): their
    /// requests are held on the node for Pods of lower or equal priority, so the room
    /// a preemption made is not taken by someone else.
    nominated: BTreeMap<String, BTreeSet<ObjKey>>,
}

/// `numFeasibleNodesToFind` with the default `percentageOfNodesToScore` (adaptive).
pub fn num_feasible_nodes_to_find(num_all: usize) -> usize {
    const MIN_FEASIBLE: usize = 100;
    if num_all < MIN_FEASIBLE {
        return num_all;
    }
    let pct = (50 - num_all as i64 / 125).max(5) as usize;
    (num_all * pct / 100).max(MIN_FEASIBLE)
}

fn pod_priority(p: &Pod) -> i64 {
    p.spec.priority.unwrap_or(0)
}

fn wants_scheduling(p: &Pod) -> bool {
    p.spec.node_name.is_empty()
        && !p.metadata.is_deleting()
        && !p.is_terminal()
        && (p.spec.scheduler_name.is_empty() || p.spec.scheduler_name == "default-scheduler")
}

/// The scheduler is a control loop like the controllers, with its own queue: the
/// scheduling queue's activeQ (by priority), backoffQ and unschedulable pool stand in
/// for the work queue, and one Pod is scheduled per cycle ([`SchedulerTimer::Cycle`]).
impl Controller for Scheduler {
    /// Unused: Pods wait in the scheduling queue, not in a work queue.
    type Key = ObjKey;
    type Timer = SchedulerTimer;

    fn identity() -> Component {
        Component::named("default-scheduler")
    }

    /// Unscheduled Pods join the queue (their cycle `scheduler_latency` later); bound or
    /// deleted ones leave it; node and Pod events may make room for waiting ones.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, SchedulerTimer>) {
        let latency = ctx.config.scheduler_latency;
        let timers = self.watch(
            ctx.store,
            ch.kind,
            ch.old.as_deref(),
            ch.new.as_deref(),
            ctx.now,
        );
        for (at, t) in timers {
            let at = if t == SchedulerTimer::Cycle {
                at + latency
            } else {
                at
            };
            ctx.after(at, t);
        }
    }

    fn on_timer(
        &mut self,
        timer: SchedulerTimer,
        ctx: &mut Ctx<'_, ObjKey, SchedulerTimer>,
    ) -> Vec<Request> {
        let now = ctx.now;
        let (requests, timers) = match timer {
            SchedulerTimer::Cycle => self.schedule_one(ctx.store, ctx.rng, now),
            SchedulerTimer::Backoff(k) => (vec![], self.backoff_done(ctx.store, &k, now)),
            SchedulerTimer::Flush => (vec![], self.flush(ctx.store, now)),
        };
        for (at, t) in timers {
            ctx.after(at, t);
        }
        requests
    }

    /// The flush runs every 30 s whether or not a Pod waits.
    fn is_background(&self, timer: &SchedulerTimer, _: &dyn Fn(&str) -> bool) -> bool {
        *timer == SchedulerTimer::Flush
    }
}

impl Scheduler {
    /// Pods waiting in each queue: (active, backoff, unschedulable).
    pub fn queue_lengths(&self) -> (usize, usize, usize) {
        (
            self.active.len(),
            self.backoff.len(),
            self.unschedulable.len(),
        )
    }

    fn queued(&self, key: &ObjKey) -> bool {
        self.in_active.contains_key(key)
            || self.backoff.contains_key(key)
            || self.unschedulable.contains_key(key)
    }

    fn set_nominated(&mut self, key: &ObjKey, pod: Option<&Pod>) {
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
    fn nominated_requests(
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

    fn forget(&mut self, key: &ObjKey) {
        if let Some(k) = self.in_active.remove(key) {
            self.active.remove(&k);
        }
        self.backoff.remove(key);
        self.unschedulable.remove(key);
    }

    fn push_active(
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

    fn arm_cycle(&mut self, now: SimTime) -> Vec<(SimTime, SchedulerTimer)> {
        if self.cycle_armed || self.active.is_empty() {
            return vec![];
        }
        self.cycle_armed = true;
        vec![(now, SchedulerTimer::Cycle)]
    }

    fn backoff_until(&self, uid: &str) -> SimTime {
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
    fn requeue_waiting_on_pods(
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

    fn requeue(
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

    fn arm_flush(&mut self, now: SimTime) -> Vec<(SimTime, SchedulerTimer)> {
        if self.flush_armed || self.unschedulable.is_empty() {
            return vec![];
        }
        self.flush_armed = true;
        vec![(now + FLUSH_PERIOD, SchedulerTimer::Flush)]
    }

    /// One scheduling cycle (`scheduleOne`) for the Pod at the head of the active queue.
    pub fn schedule_one(
        &mut self,
        store: &Store,
        rng: &mut Rng,
        now: SimTime,
    ) -> (Vec<Request>, Vec<(SimTime, SchedulerTimer)>) {
        self.cycle_armed = false;
        let Some(head) = self.active.pop_first() else {
            return (vec![], vec![]);
        };
        let key = head.3;
        self.in_active.remove(&key);
        let mut timers = Vec::new();
        let requests = match store.get::<Pod>(&key) {
            Some(pod) if wants_scheduling(pod) => {
                let (attempt, requests) = self.schedule_pod(store, rng, pod, now);
                if attempt.chosen.is_none() {
                    let e = self
                        .attempts
                        .entry(pod.metadata.uid.clone())
                        .or_insert((0, now));
                    e.0 += 1;
                    e.1 = now;
                    self.unschedulable.insert(key.clone(), now);
                    timers.extend(self.arm_flush(now));
                } else {
                    self.attempts.remove(&pod.metadata.uid);
                }
                if attempt.chosen.is_some() {
                    self.bound_seq += 1;
                    let n = attempt.nodes.len();
                    self.bound_attempts.insert(self.bound_seq, (key.clone(), n));
                    self.bound_verdicts += n;
                    while self.bound_verdicts > KEEP_BOUND_VERDICTS && self.bound_attempts.len() > 1
                    {
                        let Some((_, (old, n))) = self.bound_attempts.pop_first() else {
                            break;
                        };
                        self.bound_verdicts -= n;
                        // Only if that Pod's latest attempt is still the bound one.
                        if old != key
                            && self
                                .last_attempt
                                .get(&old)
                                .is_some_and(|a| a.chosen.is_some())
                        {
                            self.last_attempt.remove(&old);
                        }
                    }
                }
                self.last_attempt.insert(key, attempt);
                requests
            }
            _ => vec![],
        };
        timers.extend(self.arm_cycle(now));
        (requests, timers)
    }

    fn schedule_pod(
        &mut self,
        store: &Store,
        rng: &mut Rng,
        pod: &Pod,
        now: SimTime,
    ) -> (SchedulingAttempt, Vec<Request>) {
        let req = pod_requests(pod);
        let wants_ports = !host_ports(pod).is_empty();
        // The Nodes by position, name order (no per-attempt list of 5,000 references).
        let n = store.node_count();
        let mut verdicts: Vec<NodeVerdict> = Vec::new();
        let mut feasible: Vec<usize> = Vec::new();
        // verdict index → its Node.
        let mut node_of: Vec<&Node> = Vec::new();
        // PreFilter of the plugins that count other Pods (None: nothing to check).
        let spread = topology::SpreadFilterState::compute(store, pod);
        let affinity = topology::AffinityFilterState::compute(store, pod);
        if n > 0 {
            let to_find = num_feasible_nodes_to_find(n);
            let start = self.next_start_node_index % n;
            let mut processed = 0;
            for i in 0..n {
                let idx = (start + i) % n;
                processed += 1;
                let Some((name, node)) = store.node_entry(idx) else {
                    continue;
                };
                let mut usage = store.node_usage(&node.metadata.name);
                // RunFilterPluginsWithNominatedPods: room promised to a Pod of equal or
                // higher priority is not free.
                for r in self.nominated_requests(store, &node.metadata.name, pod) {
                    usage.add_pod(&r);
                }
                let ports_in_use: Vec<(i64, String)> = if wants_ports {
                    store
                        .pods_on_node(&node.metadata.name)
                        .filter(|p| !p.is_terminal())
                        .flat_map(host_ports)
                        .collect()
                } else {
                    Vec::new()
                };
                let res = run_filters(pod, node, &usage, &req, &ports_in_use)
                    .and_then(|()| spread.as_ref().map_or(Ok(()), |s| s.filter(pod, node)))
                    .and_then(|()| affinity.as_ref().map_or(Ok(()), |s| s.filter(pod, node)));
                if res.is_ok() {
                    feasible.push(verdicts.len());
                }
                node_of.push(node);
                verdicts.push(NodeVerdict {
                    node: name.clone(),
                    failure: res.err(),
                    scores: None,
                });
                if feasible.len() >= to_find {
                    break;
                }
            }
            self.next_start_node_index = (start + processed) % n;
        }
        let pod_ref = event_ref(Kind::Pod, &pod.metadata);
        if feasible.is_empty() {
            // PostFilter (DefaultPreemption).
            let (post, candidate) = if n == 0 {
                (None, None)
            } else {
                match preemption::eligible(store, pod) {
                    Err(m) => (Some(m), None),
                    Ok(()) => match preemption::find_candidate(store, pod, &verdicts) {
                        Ok(c) => (None, Some(c)),
                        Err(statuses) => {
                            (Some(preemption::post_filter_message(n, &statuses)), None)
                        }
                    },
                }
            };
            let message = fit_error(n, &verdicts, post.as_deref());
            let mut requests = Vec::new();
            let mut p = pod.clone();
            if let Some(c) = &candidate {
                // prepareCandidate: each victim gets DisruptionTarget, is deleted
                // gracefully and gets a Preempted event.
                for key in &c.victims {
                    let Some(victim) = store.get::<Pod>(key) else {
                        continue;
                    };
                    let mut v = victim.clone();
                    set_condition(
                        &mut v.status.conditions,
                        disruption_target(
                            "PreemptionByScheduler",
                            format!(
                                "{}: preempting to accommodate a higher priority pod",
                                pod.spec.scheduler_name
                            ),
                            now,
                        ),
                    );
                    v.metadata.resource_version.clear();
                    requests.push(Request::UpdateStatus(Object::Pod(Box::new(v))));
                    requests.push(Request::Delete {
                        kind: Kind::Pod,
                        key: key.clone(),
                        options: crate::apiserver::DeleteOptions {
                            precondition_uid: Some(victim.metadata.uid.clone()),
                            ..Default::default()
                        },
                        event: None,
                    });
                    requests.push(Request::Event {
                        involved: event_ref(Kind::Pod, &victim.metadata),
                        type_: "Normal",
                        reason: "Preempted".into(),
                        message: format!(
                            "Preempted by pod {} on node {}",
                            pod.metadata.uid, c.node
                        ),
                    });
                }
                p.status.nominated_node_name = c.node.clone();
            }
            set_condition(
                &mut p.status.conditions,
                Condition {
                    type_: "PodScheduled".into(),
                    status: "False".into(),
                    last_transition_time: Some(rfc3339(now)),
                    reason: "Unschedulable".into(),
                    message: message.clone(),
                    transition_ms: now,
                    ..Default::default()
                },
            );
            p.metadata.resource_version.clear();
            requests.push(Request::Event {
                involved: pod_ref,
                type_: "Warning",
                reason: "FailedScheduling".into(),
                message: message.clone(),
            });
            requests.push(Request::UpdateStatus(Object::Pod(Box::new(p))));
            let attempt = SchedulingAttempt {
                time: now,
                uid: pod.metadata.uid.clone(),
                nodes: verdicts,
                chosen: None,
                message,
                preemption: candidate
                    .map(|c| (c.node, c.victims.into_iter().map(|k| k.name).collect())),
            };
            return (attempt, requests);
        }
        let chosen_idx = if feasible.len() == 1 {
            feasible[0]
        } else {
            // prioritizeNodes: raw scores, normalize, weight, sum.
            let mut taint_scores: Vec<i64> = feasible
                .iter()
                .map(|i| taint_toleration_raw(pod, node_of[*i]))
                .collect();
            default_normalize(&mut taint_scores, true);
            let mut affinity_scores: Vec<i64> = feasible
                .iter()
                .map(|i| node_affinity_raw(pod, node_of[*i]))
                .collect();
            default_normalize(&mut affinity_scores, false);
            let feasible_nodes: Vec<&Node> = feasible.iter().map(|i| node_of[*i]).collect();
            let spread_scores = topology::spread_scores(store, pod, &feasible_nodes);
            let pod_affinity_scores = topology::affinity_scores(store, pod, &feasible_nodes);
            let image_names = plugins::pod_image_names(pod);
            for (pos, i) in feasible.iter().enumerate() {
                let nd = node_of[*i];
                let usage = store.node_usage(&nd.metadata.name);
                let la = least_allocated(nd, &usage, &req);
                let ba = balanced_allocation(nd, &usage, &req);
                let tt = taint_scores[pos];
                let na = affinity_scores[pos];
                let pts = spread_scores.as_ref().map(|s| s[pos]);
                let ipa = pod_affinity_scores.as_ref().map(|s| s[pos]);
                let il = image_locality_of(&image_names, nd, n, |name| store.image_state(name));
                let total = la * WEIGHT_NODE_RESOURCES_FIT
                    + ba.unwrap_or(0) * WEIGHT_BALANCED_ALLOCATION
                    + tt * WEIGHT_TAINT_TOLERATION
                    + na * WEIGHT_NODE_AFFINITY
                    + pts.unwrap_or(0) * WEIGHT_POD_TOPOLOGY_SPREAD
                    + ipa.unwrap_or(0) * WEIGHT_INTER_POD_AFFINITY
                    + il * WEIGHT_IMAGE_LOCALITY;
                verdicts[*i].scores = Some(NodeScores {
                    least_allocated: la,
                    balanced_allocation: ba,
                    taint_toleration: tt,
                    node_affinity: na,
                    pod_topology_spread: pts,
                    inter_pod_affinity: ipa,
                    image_locality: il,
                    total,
                });
            }
            select_host(&feasible, &verdicts, rng)
        };
        let node = verdicts[chosen_idx].node.to_string();
        let message = format!(
            "Successfully assigned {}/{} to {node}",
            pod.metadata.namespace, pod.metadata.name
        );
        let requests = vec![
            Request::Bind {
                key: ObjKey::of(&pod.metadata),
                node: node.clone(),
            },
            Request::Event {
                involved: pod_ref,
                type_: "Normal",
                reason: "Scheduled".into(),
                message: message.clone(),
            },
        ];
        let attempt = SchedulingAttempt {
            time: now,
            uid: pod.metadata.uid.clone(),
            nodes: verdicts,
            chosen: Some(node),
            message,
            preemption: None,
        };
        (attempt, requests)
    }
}

/// `selectHost`: the highest total; ties broken uniformly at random by reservoir sampling.
fn select_host(feasible: &[usize], verdicts: &[NodeVerdict], rng: &mut Rng) -> usize {
    let mut best = feasible[0];
    let mut best_score = i64::MIN;
    let mut count = 0u64;
    for i in feasible {
        let s = verdicts[*i].scores.as_ref().map(|s| s.total).unwrap_or(0);
        if s > best_score {
            best_score = s;
            best = *i;
            count = 1;
        } else if s == best_score {
            count += 1;
            if rng.below(count) == 0 {
                best = *i;
            }
        }
    }
    best
}

/// `FitError.Error()` with the message DefaultPreemption gives when no Pod has a lower
/// priority than the incoming one (every resolvable node: no victims).
pub fn fit_error_message(num_nodes: usize, verdicts: &[NodeVerdict]) -> String {
    if num_nodes == 0 {
        return "no nodes available to schedule pods".into();
    }
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    let mut preemption: BTreeMap<&str, usize> = BTreeMap::new();
    for v in verdicts {
        if let Some(f) = &v.failure {
            for r in &f.reasons {
                *reasons.entry(r.clone()).or_default() += 1;
            }
            let p = if f.unresolvable {
                "Preemption is not helpful for scheduling"
            } else {
                "No preemption victims found for incoming pod"
            };
            *preemption.entry(p).or_default() += 1;
        }
    }
    let join = |m: Vec<String>| {
        let mut m = m;
        m.sort();
        m.join(", ")
    };
    let main = join(reasons.iter().map(|(r, c)| format!("{c} {r}")).collect());
    let pre = join(preemption.iter().map(|(r, c)| format!("{c} {r}")).collect());
    format!("0/{num_nodes} nodes are available: {main}. preemption: 0/{num_nodes} nodes are available: {pre}.")
}

/// `FitError.Error()`: the filter reasons, then ` preemption: ` and the PostFilter
/// message when preemption did not succeed (`post` None: preemption nominated a node).
pub fn fit_error(num_nodes: usize, verdicts: &[NodeVerdict], post: Option<&str>) -> String {
    if num_nodes == 0 {
        return "no nodes available to schedule pods".into();
    }
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for v in verdicts {
        if let Some(f) = &v.failure {
            for r in &f.reasons {
                *reasons.entry(r.clone()).or_default() += 1;
            }
        }
    }
    let mut main: Vec<String> = reasons.iter().map(|(r, c)| format!("{c} {r}")).collect();
    main.sort();
    let main = format!("0/{num_nodes} nodes are available: {}.", main.join(", "));
    match post {
        Some(p) => format!("{main} preemption: {p}"),
        None => main,
    }
}

#[cfg(test)]
mod tests;
