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
mod queue;
pub mod schedule_one;
pub mod spread_cache;
pub mod topology;

pub use schedule_one::{fit_error, num_feasible_nodes_to_find};

use crate::api::*;
use crate::apiserver::{pod_requests, Change, ObjKey, Store};
use crate::client::{writer, Component, Request};
use crate::controllers::{Controller, Ctx};
use crate::time::{SimTime, MINUTE, SECOND};
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
    /// Scheduling cycles run, and the Pod and time of the last (the queue view).
    cycles: u64,
    last_cycled: Option<(ObjKey, SimTime)>,
    /// The default spread's counts per ReplicaSet between cycles.
    spread_cache: spread_cache::SpreadCache,
    /// The Nodes' names by position, for the verdicts.
    node_names: schedule_one::NodeNames,
}

fn pod_priority(p: &Pod) -> i64 {
    p.spec.priority.unwrap_or(0)
}

fn wants_scheduling(p: &Pod) -> bool {
    p.spec.node_name.is_empty()
        && !p.metadata.is_deleting()
        && !p.is_terminal()
        && (p.spec.scheduler_name.is_empty() || p.spec.scheduler_name == DEFAULT_SCHEDULER_NAME)
}

/// The scheduler is a control loop like the controllers, with its own queue: the
/// scheduling queue's activeQ (by priority), backoffQ and unschedulable pool stand in
/// for the work queue, and one Pod is scheduled per cycle ([`SchedulerTimer::Cycle`]).
impl Controller for Scheduler {
    /// Unused: Pods wait in the scheduling queue, not in a work queue.
    type Key = ObjKey;
    type Timer = SchedulerTimer;
    const WATCHES: &'static [Kind] = &[
        Kind::Pod,
        Kind::Node,
        Kind::PersistentVolumeClaim,
        Kind::PersistentVolume,
        Kind::StorageClass,
        Kind::Namespace,
        Kind::PodDisruptionBudget,
        Kind::Service,
        Kind::ReplicaSet,
        Kind::StatefulSet,
    ];

    fn identity() -> Component {
        Component::named(writer::DEFAULT_SCHEDULER)
    }

    /// The activeQ stands for its work queue; Pods in backoffQ or the unschedulable
    /// pool are the ones waiting to be retried.
    fn own_queue(&self) -> Option<crate::controllers::OwnQueue> {
        use crate::controllers::KeyLabel;
        Some(crate::controllers::OwnQueue {
            depth: self.active.len(),
            next: self.active.iter().take(3).map(|k| k.3.label()).collect(),
            waiting: self.backoff.len() + self.unschedulable.len(),
            syncs: self.cycles,
            last: self.last_cycled.as_ref().map(|(k, t)| (k.label(), *t)),
        })
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

    /// `handleBindingCycleError`: the Bind was refused (Forbidden when the scheduler
    /// lost its binding, a conflict when someone bound the Pod first). The Pod goes
    /// back through the back-off queue and the failure is recorded as upstream's
    /// FailureHandler records it: a FailedScheduling event and `PodScheduled=False`
    /// with reason `SchedulerError` (both refused too if the scheduler may not write).
    fn request_refused(
        &mut self,
        req: &Request,
        err: &crate::apiserver::ApiError,
        ctx: &mut Ctx<'_, ObjKey, SchedulerTimer>,
    ) -> Vec<Request> {
        let Request::Bind { key, .. } = req else {
            return Vec::new();
        };
        let now = ctx.now;
        let Some(pod) = ctx.store.get::<Pod>(key) else {
            return Vec::new();
        };
        if !pod.spec.node_name.is_empty() {
            return Vec::new();
        }
        self.note_failed_attempt(&pod.metadata.uid, now);
        let until = self.backoff_until(&pod.metadata.uid);
        self.backoff.insert(key.clone(), until);
        ctx.after(until, SchedulerTimer::Backoff(key.clone()));
        let message = format!(
            "Binding rejected: running Bind plugin \"DefaultBinder\": {}",
            err.message
        );
        let mut p = pod.clone();
        set_condition(
            &mut p.status.conditions,
            Condition {
                type_: PodConditionType::PodScheduled.into(),
                status: ConditionStatus::False.into(),
                reason: "SchedulerError".into(),
                message: message.clone(),
                last_transition_time: Some(crate::time::rfc3339(now)),
                transition_ms: now,
                ..Default::default()
            },
        );
        vec![
            Request::Event {
                involved: crate::client::event_ref(Kind::Pod, &pod.metadata),
                type_: EventType::Warning,
                reason: "FailedScheduling".into(),
                message,
            },
            Request::blind_update_status(p),
        ]
    }

    /// The flush runs every 30 s whether or not a Pod waits.
    fn is_background(&self, timer: &SchedulerTimer, _: &dyn Fn(&str) -> bool) -> bool {
        *timer == SchedulerTimer::Flush
    }
}

#[cfg(test)]
mod tests;
