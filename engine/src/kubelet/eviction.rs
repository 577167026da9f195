//! The kubelet's eviction manager under memory pressure (`pkg/kubelet/eviction`,
//! `eviction_manager.go` `synchronize`, `helpers.go`).
//!
//! Every 10 s (`evictionMonitoringPeriod`; kubeplay runs it at the heartbeat, which
//! has the same period) the kubelet observes `memory.available`: the node's capacity
//! less what its own daemons, any other process (`sim node pressure memory`) and its
//! Pods use (their working sets, `sim load --memory`). Below the hard threshold
//! (`memory.available<100Mi`):
//!
//! - the node reports `MemoryPressure=True` (`KubeletHasInsufficientMemory`, "kubelet has
//!   insufficient memory available", a Normal `NodeHasInsufficientMemory` Event), and
//!   the node lifecycle controller taints it `node.kubernetes.io/memory-pressure:NoSchedule`;
//! - it records a Warning `EvictionThresholdMet` "Attempting to reclaim memory" on the
//!   node and evicts **one** Pod per cycle, ranked as `rankMemoryPressure` ranks them:
//!   Pods whose usage exceeds their requests first, then the lower priority, then the
//!   larger usage above the request;
//! - the evicted Pod is killed with a 1 s grace period (hard eviction,
//!   `immediateEvictionGracePeriodSeconds`) and ends `Failed` with reason `Evicted`, the
//!   message `evictionMessage` writes, and a `DisruptionTarget` condition
//!   (`TerminationByKubelet`); a Warning `Evicted` Event says the same. It stays: its
//!   controller creates a replacement, which the taint keeps off this node.
//!
//! The condition stays True until 5 minutes after the last cycle in which the threshold
//! was met (`evictionPressureTransitionPeriod`), then goes back to False
//! (`KubeletHasSufficientMemory`, `NodeHasSufficientMemory`).
//!
//! Simplifications: memory only (kubeplay's nodes have no disks to fill, and the kubelet
//! sets no default PID threshold); a Pod's working set is split evenly over its
//! containers; critical Pods are not spared; no soft thresholds.

use super::*;
use crate::api::quantity::{format_bytes, parse_bytes};
use crate::kubelet::allocatable::MEMORY_EVICTION_HARD_BYTES;

/// `evictionPressureTransitionPeriod`'s default.
pub const PRESSURE_TRANSITION_PERIOD: SimTime = 5 * 60_000;
/// `immediateEvictionGracePeriodSeconds`: a hard eviction's grace period.
pub const HARD_EVICTION_GRACE_SECONDS: i64 = 1;

/// What the eviction manager keeps between cycles.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Pressure {
    /// Memory used by processes outside the Pods beyond the kubelet and the runtime
    /// (`sim node pressure memory`).
    pub other_memory: i64,
    /// When `memory.available` was last seen below its threshold.
    pub memory_met_at: Option<SimTime>,
    /// Whether the node reports MemoryPressure.
    pub memory_pressure: bool,
}

impl Pressure {
    /// Whether a cycle could change anything: something presses, or the condition
    /// waits to clear.
    pub fn active(&self) -> bool {
        self.other_memory > 0 || self.memory_pressure
    }
}

/// The MemoryPressure condition as the node status setter writes it.
pub fn memory_pressure_condition(pressure: bool, now: SimTime) -> Condition {
    let (status, reason, message) = if pressure {
        (
            ConditionStatus::True,
            "KubeletHasInsufficientMemory",
            "kubelet has insufficient memory available",
        )
    } else {
        (
            ConditionStatus::False,
            "KubeletHasSufficientMemory",
            "kubelet has sufficient memory available",
        )
    };
    let mut c = cond(
        NodeConditionType::MemoryPressure,
        status,
        reason,
        message,
        now,
    );
    c.last_heartbeat_time = Some(rfc3339(now));
    c
}

impl Kubelet {
    /// One cycle of the eviction manager (see the module's words), given each Pod's
    /// working set (`usage`). Returns what the kubelet writes.
    pub fn synchronize(
        &mut self,
        store: &Store,
        usage: &dyn Fn(&Pod) -> i64,
        now: SimTime,
    ) -> KubeletOutput {
        let Some(node) = self.node_object(store).cloned() else {
            return (vec![], vec![]);
        };
        let pods: Vec<&Pod> = store
            .pods_on_node(&self.node)
            .filter(|p| !p.is_terminal())
            .collect();
        let available = (self.memory_available(&pods, usage) - self.pressure.other_memory).max(0);
        let met = available < MEMORY_EVICTION_HARD_BYTES;
        if met {
            self.pressure.memory_met_at = Some(now);
        }
        let pressure = self
            .pressure
            .memory_met_at
            .is_some_and(|t| now.saturating_sub(t) < PRESSURE_TRANSITION_PERIOD);
        let mut requests = Vec::new();
        let mut timers = Vec::new();
        if pressure != self.pressure.memory_pressure {
            self.pressure.memory_pressure = pressure;
            let mut n = node.clone();
            set_condition(
                &mut n.status.conditions,
                memory_pressure_condition(pressure, now),
            );
            let event = if pressure {
                "NodeHasInsufficientMemory"
            } else {
                "NodeHasSufficientMemory"
            };
            requests.push(Request::blind_update_status(n));
            requests.push(Request::Event {
                involved: event_ref(Kind::Node, &node.metadata),
                type_: EventType::Normal,
                reason: event.into(),
                message: format!("Node {} status is now: {event}", self.node),
            });
        }
        if met {
            requests.push(Request::Event {
                involved: event_ref(Kind::Node, &node.metadata),
                type_: EventType::Warning,
                reason: "EvictionThresholdMet".into(),
                message: "Attempting to reclaim memory".into(),
            });
            let live: Vec<&Pod> = pods
                .into_iter()
                .filter(|p| !p.metadata.is_deleting())
                .filter(|p| {
                    self.workers
                        .get(&p.metadata.uid)
                        .is_none_or(|w| w.killed_at.is_none())
                })
                .collect();
            if let Some(victim) = rank_memory_pressure(&live, usage).first() {
                let (r, t) = self.evict(store, victim, usage(victim), available, now);
                requests.extend(r);
                timers.extend(t);
            }
        }
        (requests, timers)
    }

    /// `memory.available` before what other processes take: the capacity less the
    /// node's daemons and `pods`' working sets (may be negative).
    pub fn memory_available(&self, pods: &[&Pod], usage: &dyn Fn(&Pod) -> i64) -> i64 {
        let capacity = parse_bytes(&self.config.memory).unwrap_or(0);
        capacity
            - crate::metrics::NODE_DAEMONS.memory_bytes
            - pods.iter().map(|p| usage(p)).sum::<i64>()
    }

    /// `evictPod`: the Pod's final status and Event, then its containers killed with
    /// the hard eviction's grace period.
    fn evict(
        &mut self,
        store: &Store,
        pod: &Pod,
        usage: i64,
        available: i64,
        now: SimTime,
    ) -> KubeletOutput {
        let message = eviction_message(pod, usage, available);
        let mut p = pod.clone();
        p.status.phase = PodPhase::Failed.into();
        p.status.reason = "Evicted".into();
        p.status.message = message.clone();
        set_condition(
            &mut p.status.conditions,
            cond(
                PodConditionType::DisruptionTarget,
                ConditionStatus::True,
                "TerminationByKubelet",
                &message,
                now,
            ),
        );
        let mut requests = vec![
            Request::blind_update_status(p),
            self.event(&pod.metadata, EventType::Warning, "Evicted", message),
        ];
        let (r, t) = self.kill_pod_with_grace(
            store,
            &pod.metadata.uid,
            now,
            Some(HARD_EVICTION_GRACE_SECONDS),
        );
        requests.extend(r);
        (requests, t)
    }
}

/// The eviction manager's `Admit` under MemoryPressure: a BestEffort Pod that does not
/// tolerate the `memory-pressure` taint is refused (critical Pods, priority 2000000000
/// and up, are admitted). Refused: reason `Evicted`, "The node had condition:
/// [MemoryPressure]. ".
pub fn admit(pod: &Pod, pressure: &Pressure) -> Option<super::admission::Rejection> {
    if !pressure.memory_pressure || pod.spec.priority.unwrap_or(0) >= 2_000_000_000 {
        return None;
    }
    let best_effort = pod
        .spec
        .containers
        .iter()
        .chain(&pod.spec.init_containers)
        .all(|c| c.resources.requests.is_empty() && c.resources.limits.is_empty());
    let taint = Taint {
        key: TAINT_NODE_MEMORY_PRESSURE.into(),
        effect: TaintEffect::NoSchedule.into(),
        ..Default::default()
    };
    let tolerated = pod.spec.tolerations.iter().any(|t| t.tolerates(&taint));
    (best_effort && !tolerated).then(|| super::admission::Rejection {
        reason: "Evicted".into(),
        message: "The node had condition: [MemoryPressure]. ".into(),
    })
}

/// `rankMemoryPressure`: `exceedMemoryRequests`, then `priority`, then `memory` (usage
/// above the request, larger first); the Pods' names break what is left of a tie.
pub fn rank_memory_pressure<'a>(pods: &[&'a Pod], usage: &dyn Fn(&Pod) -> i64) -> Vec<&'a Pod> {
    let mut ranked: Vec<(&Pod, bool, i64, i64)> = pods
        .iter()
        .map(|p| {
            let u = usage(p);
            let req = memory_request(p);
            (*p, u > req, p.spec.priority.unwrap_or(0), u - req)
        })
        .collect();
    ranked.sort_by(|a, b| {
        b.1.cmp(&a.1)
            .then(a.2.cmp(&b.2))
            .then(b.3.cmp(&a.3))
            .then(a.0.metadata.name.cmp(&b.0.metadata.name))
    });
    ranked.into_iter().map(|r| r.0).collect()
}

fn memory_request(p: &Pod) -> i64 {
    p.spec
        .containers
        .iter()
        .filter_map(|c| c.resources.requests.get("memory"))
        .filter_map(|q| parse_bytes(q))
        .sum()
}

/// `evictionMessage` for memory: the node, the threshold and what was available, then
/// each container using more than it requested.
pub fn eviction_message(pod: &Pod, usage: i64, available: i64) -> String {
    let mut m = format!(
        "The node was low on resource: memory. Threshold quantity: {}, available: {}. ",
        format_bytes(MEMORY_EVICTION_HARD_BYTES),
        format_bytes(available)
    );
    let n = pod.spec.containers.len().max(1) as i64;
    for (i, c) in pod.spec.containers.iter().enumerate() {
        let share = usage / n + if i == 0 { usage % n } else { 0 };
        let request = c.resources.requests.get("memory");
        let req = request.and_then(|q| parse_bytes(q)).unwrap_or(0);
        if share > req {
            m.push_str(&format!(
                "Container {} was using {}, request is {}, has larger consumption of memory. ",
                c.name,
                format_bytes(share),
                request.map_or("0", String::as_str)
            ));
        }
    }
    m
}
