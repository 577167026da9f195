//! The node lifecycle controller: notices nodes whose kubelet stopped heartbeating,
//! marks them (and their Pods) not ready, and taints them so the scheduler avoids them
//! and the taint-eviction controller evicts their Pods.
//!
//! Upstream: `pkg/controller/nodelifecycle/node_lifecycle_controller.go`
//! (`monitorNodeHealth`, `tryUpdateNodeHealth`, `doNoScheduleTaintingPass`,
//! `doNoExecuteTaintingPass`, `ComputeZoneState`, `handleDisruption`) and
//! `pkg/controller/util/node/controller_utils.go` (`MarkPodsNotReady`).
//!
//! Event-driven rather than a 5-second scan of every node: each observed heartbeat
//! (a Lease renewal) moves that node's deadline; one timer per node fires at the first
//! monitor tick (multiples of 5 s) after `probeTimestamp + node-monitor-grace-period`,
//! which is when upstream's periodic scan would notice.

use super::{Controller, Ctx, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::{event_ref, writer, Component, Request};
use crate::time::{rfc3339, SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet};

/// `--node-monitor-period`.
pub const NODE_MONITOR_PERIOD: SimTime = 5 * SECOND;
/// `--node-monitor-grace-period` (50 s since v1.32).
pub const NODE_MONITOR_GRACE_PERIOD: SimTime = 50 * SECOND;
/// `--node-eviction-rate` 0.1 node/s: one NoExecute taint per zone every 10 s.
pub const EVICTION_INTERVAL: SimTime = 10 * SECOND;
/// `--secondary-node-eviction-rate` 0.01 node/s, for large partially disrupted zones.
pub const SECONDARY_EVICTION_INTERVAL: SimTime = 100 * SECOND;
/// `--unhealthy-zone-threshold`.
pub const UNHEALTHY_ZONE_THRESHOLD: f64 = 0.55;
/// `--large-cluster-size-threshold`.
pub const LARGE_CLUSTER_THRESHOLD: usize = 50;

/// Timers the controller asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NodeLifecycleTimer {
    /// Check this node's heartbeat deadline.
    Monitor(String),
    /// Try to apply the NoExecute taint to this node (rate-limited per zone).
    NoExecute(String),
}

/// The controller's state.
#[derive(Clone, Debug, Default)]
pub struct NodeLifecycleController {
    /// `probeTimestamp`: when a heartbeat was last observed, per node.
    pub probe: BTreeMap<String, SimTime>,
    monitor_pending: BTreeSet<String>,
    zone_next: BTreeMap<String, SimTime>,
    noexecute_pending: BTreeSet<String>,
    /// Queued nodes whose zone's limiter is stopped (evictions paused): when it runs
    /// again they take new places in the zone's queue, one per interval.
    noexecute_paused: BTreeSet<String>,
    /// Per zone: (ready, not ready) node counts, kept on every Node change so zone
    /// health never needs a scan of all nodes.
    zones: BTreeMap<String, (usize, usize)>,
    /// Every zone is fully disrupted (`handleDisruption`'s master disruption mode).
    master_disruption: bool,
}

fn zone_of(n: &Node) -> String {
    n.metadata
        .labels
        .get(LABEL_TOPOLOGY_ZONE)
        .cloned()
        .unwrap_or_default()
}

/// The first monitor tick strictly after `t`.
pub(crate) fn next_tick_after(t: SimTime) -> SimTime {
    (t / NODE_MONITOR_PERIOD + 1) * NODE_MONITOR_PERIOD
}

impl Controller for NodeLifecycleController {
    type Key = ObjKey;
    type Timer = NodeLifecycleTimer;
    const WATCHES: &'static [Kind] = &[Kind::Lease, Kind::Pod, Kind::Node, Kind::DaemonSet];

    fn identity() -> Component {
        Component {
            writer: writer::NODE_LIFECYCLE_CONTROLLER.into(),
            event_component: "node-controller".into(),
            host: String::new(),
        }
    }

    /// A Node change may need taint changes; a Lease renewal is a heartbeat.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NodeLifecycleTimer>) {
        let (old, new) = (ch.old.as_deref(), ch.new.as_deref());
        if let (Kind::Node, Some(n)) = (ch.kind, new) {
            ctx.enqueue(ObjKey::of(n.meta()));
        }
        for (at, t) in self.watch(ch.kind, old, new, ctx.now) {
            ctx.after(at, t);
        }
        if ch.kind == Kind::Node {
            self.handle_disruption(ctx);
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NodeLifecycleTimer>) -> Reconcile {
        self.sync_node(ctx.store, key, ctx.now)
    }

    fn on_timer(
        &mut self,
        timer: NodeLifecycleTimer,
        ctx: &mut Ctx<'_, ObjKey, NodeLifecycleTimer>,
    ) -> Vec<Request> {
        let (requests, timers) = match &timer {
            NodeLifecycleTimer::Monitor(n) => self.monitor_node_health(ctx.store, n, ctx.now),
            NodeLifecycleTimer::NoExecute(n) => {
                self.do_no_execute_tainting_pass(ctx.store, n, ctx.now)
            }
        };
        for (at, t) in timers {
            ctx.after(at, t);
        }
        requests
    }

    /// A pending NoExecute taint is counted by [`Controller::is_busy`]; a health check of
    /// a node that is heartbeating will find it healthy.
    fn is_background(
        &self,
        timer: &NodeLifecycleTimer,
        heartbeating: &dyn Fn(&str) -> bool,
    ) -> bool {
        match timer {
            NodeLifecycleTimer::NoExecute(_) => true,
            NodeLifecycleTimer::Monitor(n) => heartbeating(n),
        }
    }

    fn is_busy(&self) -> bool {
        self.has_pending_no_execute()
    }
}

impl NodeLifecycleController {
    /// A Lease renewal (or a new node): record the heartbeat and arm the deadline.
    pub fn observe_heartbeat(
        &mut self,
        node: &str,
        now: SimTime,
    ) -> Vec<(SimTime, NodeLifecycleTimer)> {
        self.probe.insert(node.to_string(), now);
        if self.monitor_pending.insert(node.to_string()) {
            vec![(
                next_tick_after(now + NODE_MONITOR_GRACE_PERIOD),
                NodeLifecycleTimer::Monitor(node.to_string()),
            )]
        } else {
            vec![]
        }
    }

    fn count(&mut self, node: Option<&Object>, delta: isize) {
        if let Some(Object::Node(n)) = node {
            let e = self.zones.entry(zone_of(n)).or_default();
            let slot = if n.ready_status() == ConditionStatus::True {
                &mut e.0
            } else {
                &mut e.1
            };
            *slot = slot.saturating_add_signed(delta);
        }
    }

    /// `ComputeZoneState` for `zone`, with its size.
    pub fn zone_state(&self, zone: &str) -> (ZoneState, usize) {
        let (ready, not_ready) = self.zones.get(zone).copied().unwrap_or_default();
        let state = if ready == 0 && not_ready > 0 {
            ZoneState::FullDisruption
        } else if not_ready > 2
            && not_ready as f64 / (ready + not_ready) as f64 >= UNHEALTHY_ZONE_THRESHOLD
        {
            ZoneState::PartialDisruption
        } else {
            ZoneState::Normal
        };
        (state, ready + not_ready)
    }

    /// Every zone (with nodes) is fully disrupted: evictions stop everywhere
    /// (`handleDisruption`).
    fn all_zones_fully_disrupted(&self) -> bool {
        let mut zones = self.zones.values().filter(|(r, n)| r + n > 0).peekable();
        zones.peek().is_some() && zones.all(|(ready, not_ready)| *ready == 0 && *not_ready > 0)
    }

    /// `handleDisruption`'s master disruption mode. Every zone fully disrupted (the
    /// controller's own network may be what failed): remove the NoExecute taints it
    /// placed from every node and stop tainting, so nothing is evicted. Some node Ready
    /// again: give every node a fresh grace (probe timestamps now) and queue the nodes
    /// still not Ready for their NoExecute taint again, at the zones' rates.
    fn handle_disruption(&mut self, ctx: &mut Ctx<'_, ObjKey, NodeLifecycleTimer>) {
        let all = self.all_zones_fully_disrupted();
        if all == self.master_disruption {
            return;
        }
        self.master_disruption = all;
        let store = ctx.store;
        let nodes = (0..store.node_count()).filter_map(|i| store.node_at(i));
        if all {
            for n in nodes {
                // `markNodeAsReachable` on each: sync_node removes the taints now.
                ctx.enqueue(ObjKey::of(&n.metadata));
            }
            return;
        }
        let pass = next_tick_after(ctx.now);
        for n in nodes {
            self.probe.insert(n.metadata.name.clone(), ctx.now);
            if n.ready_status() != ConditionStatus::True {
                for (at, t) in self.mark_node_for_tainting(n, pass) {
                    ctx.after(at, t);
                }
            }
        }
    }

    /// Informer handler: node changes may change zone health; leases are heartbeats.
    fn watch(
        &mut self,
        kind: Kind,
        old: Option<&Object>,
        new: Option<&Object>,
        now: SimTime,
    ) -> Vec<(SimTime, NodeLifecycleTimer)> {
        if kind == Kind::Node {
            self.count(old, -1);
            self.count(new, 1);
        }
        match (kind, new) {
            (Kind::Node, Some(n)) => {
                if old.is_none() {
                    return self.observe_heartbeat(&n.meta().name, now);
                }
                vec![]
            }
            (Kind::Node, None) => {
                if let Some(o) = old {
                    let name = &o.meta().name;
                    self.probe.remove(name);
                    self.noexecute_pending.remove(name);
                    self.noexecute_paused.remove(name);
                }
                vec![]
            }
            (Kind::Lease, Some(Object::Lease(l))) if l.metadata.namespace == "kube-node-lease" => {
                let renewed = match old {
                    Some(Object::Lease(o)) => o.spec.renew_ms != l.spec.renew_ms,
                    _ => true,
                };
                if renewed {
                    self.observe_heartbeat(&l.spec.holder_identity, now)
                } else {
                    vec![]
                }
            }
            _ => vec![],
        }
    }

    /// True while some node waits for its NoExecute taint.
    pub fn has_pending_no_execute(&self) -> bool {
        !self.noexecute_pending.is_empty()
    }

    /// A Node changed: `doNoScheduleTaintingPass` (the NoSchedule taints that mirror
    /// cordon and readiness) and, once it is Ready again, `markNodeAsReachable` (its
    /// NoExecute readiness taints go) — one update for both.
    pub fn sync_node(&mut self, store: &Store, key: &ObjKey, now: SimTime) -> Reconcile {
        let Some(node) = store.get::<Node>(key) else {
            return Reconcile::default();
        };
        let mut taints = do_no_schedule_tainting_pass(node, now);
        if node.ready_status() == ConditionStatus::True {
            mark_node_as_reachable(&mut taints);
            self.noexecute_pending.remove(&node.metadata.name);
            self.noexecute_paused.remove(&node.metadata.name);
        } else if self.master_disruption {
            // Master disruption mode: no node keeps a NoExecute readiness taint.
            mark_node_as_reachable(&mut taints);
        }
        if taints == node.spec.taints {
            return Reconcile::default();
        }
        let mut n = node.clone();
        n.spec.taints = taints;
        Reconcile {
            requests: vec![Request::blind_update(n)],
            requeue_after: None,
        }
    }

    /// `monitorNodeHealth` for one node whose deadline timer fired: a node heard from
    /// since is looked at again at its new deadline; a silent one gets
    /// [`try_update_node_health`] and, when that changed its readiness, the
    /// `NodeNotReady` event, `MarkPodsNotReady` and `process_taint_base_eviction`.
    pub fn monitor_node_health(
        &mut self,
        store: &Store,
        name: &str,
        now: SimTime,
    ) -> (Vec<Request>, Vec<(SimTime, NodeLifecycleTimer)>) {
        self.monitor_pending.remove(name);
        let Some(node) = store.get::<Node>(&ObjKey::new("", name)) else {
            return (vec![], vec![]);
        };
        let probe = self.probe.get(name).copied().unwrap_or(0);
        if now <= probe + NODE_MONITOR_GRACE_PERIOD {
            // A heartbeat arrived since the timer was set: wait for the new deadline.
            self.monitor_pending.insert(name.to_string());
            return (
                vec![],
                vec![(
                    next_tick_after(probe + NODE_MONITOR_GRACE_PERIOD),
                    NodeLifecycleTimer::Monitor(name.to_string()),
                )],
            );
        }
        let Some(updated) = try_update_node_health(node, now) else {
            return (vec![], vec![]);
        };
        let mut requests = vec![Request::blind_update_status(updated)];
        if node.ready_status() == ConditionStatus::True {
            // RecordNodeStatusChange, once, when it stops being Ready.
            requests.push(Request::Event {
                involved: event_ref(Kind::Node, &node.metadata),
                type_: EventType::Normal,
                reason: "NodeNotReady".into(),
                message: format!("Node {name} status is now: NodeNotReady"),
            });
            requests.extend(mark_pods_not_ready(store, name, now));
        }
        let (swap, timers) = self.process_taint_base_eviction(node, ConditionStatus::Unknown, now);
        requests.extend(swap);
        (requests, timers)
    }

    /// `processTaintBaseEviction` for a node that stopped being Ready (`node` is as it
    /// was, `status` its readiness now): one already tainted NoExecute for the opposite
    /// readiness has the taints swapped at once; otherwise `markNodeForTainting` — it
    /// joins its zone's rate-limited queue for the NoExecute taint
    /// ([`do_no_execute_tainting_pass`]).
    ///
    /// [`do_no_execute_tainting_pass`]: NodeLifecycleController::do_no_execute_tainting_pass
    fn process_taint_base_eviction(
        &mut self,
        node: &Node,
        status: ConditionStatus,
        now: SimTime,
    ) -> (Vec<Request>, Vec<(SimTime, NodeLifecycleTimer)>) {
        let (_, opposite) = no_execute_taint_keys(status.as_str());
        if node
            .spec
            .taints
            .iter()
            .any(|t| t.key == opposite && t.effect == TaintEffect::NoExecute)
        {
            let mut n = node.clone();
            set_ready_status(&mut n, status);
            let swapped = swap_node_controller_taint(&n, now);
            return (
                swapped.map(Request::blind_update).into_iter().collect(),
                vec![],
            );
        }
        (vec![], self.mark_node_for_tainting(node, now))
    }

    /// `markNodeForTainting`: the node waits in its zone's rate-limited queue.
    fn mark_node_for_tainting(
        &mut self,
        node: &Node,
        now: SimTime,
    ) -> Vec<(SimTime, NodeLifecycleTimer)> {
        let name = &node.metadata.name;
        if !self.noexecute_pending.insert(name.to_string()) {
            return vec![];
        }
        let zone = zone_of(node);
        let slot = self.zone_next.get(&zone).copied().unwrap_or(0).max(now);
        self.zone_next.insert(zone, slot + EVICTION_INTERVAL);
        vec![(slot, NodeLifecycleTimer::NoExecute(name.to_string()))]
    }

    /// `doNoExecuteTaintingPass` for one node: add `unreachable:NoExecute` unless the
    /// zone state says evictions are paused (then look again after a monitor period).
    pub fn do_no_execute_tainting_pass(
        &mut self,
        store: &Store,
        name: &str,
        now: SimTime,
    ) -> (Vec<Request>, Vec<(SimTime, NodeLifecycleTimer)>) {
        if !self.noexecute_pending.contains(name) {
            return (vec![], vec![]);
        }
        let Some(node) = store.get::<Node>(&ObjKey::new("", name)) else {
            self.noexecute_pending.remove(name);
            self.noexecute_paused.remove(name);
            return (vec![], vec![]);
        };
        let status = node.ready_status();
        if status == ConditionStatus::True {
            self.noexecute_pending.remove(name);
            self.noexecute_paused.remove(name);
            return (vec![], vec![]);
        }
        let zone = zone_of(node);
        let (state, size) = self.zone_state(&zone);
        let all_zones_down = self.all_zones_fully_disrupted();
        let paused = all_zones_down
            || (state == ZoneState::PartialDisruption && size <= LARGE_CLUSTER_THRESHOLD);
        if paused {
            self.noexecute_paused.insert(name.to_string());
            return (
                vec![],
                vec![(
                    now + NODE_MONITOR_PERIOD,
                    NodeLifecycleTimer::NoExecute(name.to_string()),
                )],
            );
        }
        self.noexecute_pending.remove(name);
        if self.noexecute_paused.remove(name) {
            // The limiter was swapped back from "never" (`SwapLimiter`): a fresh token
            // bucket at the zone's rate, so the nodes that waited are tainted one per
            // interval, not all at once.
            return (vec![], self.mark_node_for_tainting(node, now));
        }
        if state == ZoneState::PartialDisruption {
            self.zone_next
                .insert(zone, now + SECONDARY_EVICTION_INTERVAL);
        }
        match swap_node_controller_taint(node, now) {
            Some(n) => (vec![Request::blind_update(n)], vec![]),
            None => (vec![], vec![]),
        }
    }
}

/// The taints the node lifecycle controller manages with NoSchedule.
const NO_SCHEDULE_MANAGED: [&str; 6] = [
    TAINT_NODE_UNSCHEDULABLE,
    TAINT_NODE_UNREACHABLE,
    TAINT_NODE_NOT_READY,
    TAINT_NODE_MEMORY_PRESSURE,
    TAINT_NODE_DISK_PRESSURE,
    TAINT_NODE_PID_PRESSURE,
];

/// `nodeConditionToTaintKeyStatusMap`'s pressure rows: a condition True ⇒ its taint.
const PRESSURE_TAINTS: [(&str, &str); 3] = [
    ("MemoryPressure", TAINT_NODE_MEMORY_PRESSURE),
    ("DiskPressure", TAINT_NODE_DISK_PRESSURE),
    ("PIDPressure", TAINT_NODE_PID_PRESSURE),
];

/// `doNoScheduleTaintingPass`: the node's taints with the managed NoSchedule ones made
/// to mirror it — cordoned ⇒ `unschedulable`, Ready=Unknown ⇒ `unreachable`,
/// Ready=False ⇒ `not-ready`, MemoryPressure/DiskPressure/PIDPressure=True ⇒
/// `memory-pressure`/`disk-pressure`/`pid-pressure` — and the others kept as they are.
pub fn do_no_schedule_tainting_pass(node: &Node, now: SimTime) -> Vec<Taint> {
    let mut want: Vec<&str> = Vec::new();
    if node.spec.unschedulable {
        want.push(TAINT_NODE_UNSCHEDULABLE);
    }
    match ConditionStatus::parse(node.ready_status()) {
        Some(ConditionStatus::Unknown) => want.push(TAINT_NODE_UNREACHABLE),
        Some(ConditionStatus::False) => want.push(TAINT_NODE_NOT_READY),
        _ => {}
    }
    for (condition, taint) in PRESSURE_TAINTS {
        if node
            .status
            .conditions
            .iter()
            .any(|c| c.type_ == condition && c.status == "True")
        {
            want.push(taint);
        }
    }
    let mut taints: Vec<Taint> = node
        .spec
        .taints
        .iter()
        .filter(|t| {
            !(NO_SCHEDULE_MANAGED.contains(&t.key.as_str()) && t.effect == TaintEffect::NoSchedule)
                || want.contains(&t.key.as_str())
        })
        .cloned()
        .collect();
    for k in want {
        if !taints
            .iter()
            .any(|t| t.key == k && t.effect == TaintEffect::NoSchedule)
        {
            taints.push(Taint {
                key: k.into(),
                effect: TaintEffect::NoSchedule.into(),
                time_added: Some(rfc3339(now)),
                added_ms: now,
                ..Default::default()
            });
        }
    }
    taints
}

/// `markNodeAsReachable`: a Ready node loses the NoExecute readiness taints.
pub fn mark_node_as_reachable(taints: &mut Vec<Taint>) {
    taints.retain(|t| {
        !(t.effect == TaintEffect::NoExecute
            && (t.key == TAINT_NODE_UNREACHABLE || t.key == TAINT_NODE_NOT_READY))
    });
}

/// The NoExecute taint a node of readiness `status` gets, and its opposite: unreachable
/// for Unknown, not-ready for False.
fn no_execute_taint_keys(status: &str) -> (&'static str, &'static str) {
    if status == ConditionStatus::Unknown {
        (TAINT_NODE_UNREACHABLE, TAINT_NODE_NOT_READY)
    } else {
        (TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE)
    }
}

fn set_ready_status(node: &mut Node, status: ConditionStatus) {
    if let Some(c) = node
        .status
        .conditions
        .iter_mut()
        .find(|c| c.type_ == NodeConditionType::Ready)
    {
        c.status = status.into();
    }
}

/// `SwapNodeControllerTaint`: the NoExecute taint for the node's readiness added and
/// its opposite removed, in one update, so that unreachable and not-ready are never
/// both on a node. None when the node already has exactly that.
pub fn swap_node_controller_taint(node: &Node, now: SimTime) -> Option<Node> {
    let (key, opposite) = no_execute_taint_keys(node.ready_status());
    let has = |k: &str| {
        node.spec
            .taints
            .iter()
            .any(|t| t.key == k && t.effect == TaintEffect::NoExecute)
    };
    if has(key) && !has(opposite) {
        return None;
    }
    let mut n = node.clone();
    n.spec
        .taints
        .retain(|t| !(t.key == opposite && t.effect == TaintEffect::NoExecute));
    if !has(key) {
        n.spec.taints.push(Taint {
            key: key.into(),
            effect: TaintEffect::NoExecute.into(),
            time_added: Some(rfc3339(now)),
            added_ms: now,
            ..Default::default()
        });
    }
    Some(n)
}

/// `tryUpdateNodeHealth` for a node silent past its grace period: Ready and the
/// pressure conditions become Unknown (`NodeStatusUnknown`). None if already Unknown.
pub fn try_update_node_health(node: &Node, now: SimTime) -> Option<Node> {
    if node.ready_status() == ConditionStatus::Unknown {
        return None;
    }
    let mut n = node.clone();
    for c in n.status.conditions.iter_mut() {
        if matches!(
            NodeConditionType::parse(&c.type_),
            Some(
                NodeConditionType::Ready
                    | NodeConditionType::MemoryPressure
                    | NodeConditionType::DiskPressure
                    | NodeConditionType::PIDPressure
            )
        ) {
            c.status = ConditionStatus::Unknown.into();
            c.reason = "NodeStatusUnknown".into();
            c.message = "Kubelet stopped posting node status.".into();
            c.last_transition_time = Some(rfc3339(now));
            c.transition_ms = now;
        }
    }
    Some(n)
}

/// Zone health (`ComputeZoneState`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ZoneState {
    /// Mostly healthy.
    Normal,
    /// More than 2 nodes and ≥ 55% not ready.
    PartialDisruption,
    /// No ready node.
    FullDisruption,
}

/// `MarkPodsNotReady`: Ready=False on every Pod of the node, with a `NodeNotReady` event.
pub fn mark_pods_not_ready(store: &Store, node: &str, now: SimTime) -> Vec<Request> {
    let mut out = Vec::new();
    for p in store.pods_on_node(node) {
        if p.is_terminal() {
            continue;
        }
        if get_condition(&p.status.conditions, PodConditionType::Ready)
            .is_some_and(|c| c.status == ConditionStatus::False)
        {
            continue;
        }
        let mut pod = p.clone();
        set_condition(
            &mut pod.status.conditions,
            Condition {
                type_: PodConditionType::Ready.into(),
                status: ConditionStatus::False.into(),
                last_transition_time: Some(rfc3339(now)),
                transition_ms: now,
                ..Default::default()
            },
        );
        out.push(Request::blind_update_status(pod));
        out.push(Request::Event {
            involved: event_ref(Kind::Pod, &p.metadata),
            type_: EventType::Warning,
            reason: "NodeNotReady".into(),
            message: "Node is not ready".into(),
        });
    }
    out
}
