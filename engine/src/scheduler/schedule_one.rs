//! One scheduling cycle for one Pod, in upstream's steps: `schedulePod` =
//! `find_nodes_that_fit_pod` (PreFilter and Filter
//! over the nodes, from a rotating start, until enough feasible ones are found) →
//! [`prioritize_nodes`] (Score, NormalizeScore, weights) → [`select_host`]; when no node
//! fits, `run_post_filter` (DefaultPreemption) and the
//! FailedScheduling status; when one does, [`bind`] (assume, Bind, the Scheduled event).
//!
//! Upstream: `pkg/scheduler/schedule_one.go` (`schedulePod`, `findNodesThatFitPod`,
//! `findNodesThatPassFilters`, `numFeasibleNodesToFind`, `prioritizeNodes`,
//! `selectHost`, `handleSchedulingFailure`, `bind`), `pkg/scheduler/framework/types.go`
//! (`FitError.Error`).

use super::plugins::*;
use super::{preemption, topology, wants_scheduling, NodeScores, NodeVerdict, Scheduler};
use super::{SchedulerTimer, SchedulingAttempt, KEEP_BOUND_VERDICTS};
use super::{
    WEIGHT_BALANCED_ALLOCATION, WEIGHT_IMAGE_LOCALITY, WEIGHT_INTER_POD_AFFINITY,
    WEIGHT_NODE_AFFINITY, WEIGHT_NODE_RESOURCES_FIT, WEIGHT_POD_TOPOLOGY_SPREAD,
    WEIGHT_TAINT_TOLERATION,
};
use crate::api::node_affinity::node_name_prefilter;
use crate::api::*;
use crate::apiserver::{pod_requests, ObjKey, PodRequests, Store};
use crate::client::{event_ref, Request};
use crate::rng::Rng;
use crate::time::{rfc3339, SimTime};
use std::collections::BTreeMap;
use std::sync::Arc;

/// `numFeasibleNodesToFind` with the default `percentageOfNodesToScore` (adaptive).
pub fn num_feasible_nodes_to_find(num_all: usize) -> usize {
    const MIN_FEASIBLE: usize = 100;
    if num_all < MIN_FEASIBLE {
        return num_all;
    }
    let pct = (50 - num_all as i64 / 125).max(5) as usize;
    (num_all * pct / 100).max(MIN_FEASIBLE)
}

/// What the filters found: a verdict per node looked at, in the order looked at.
pub struct Filtered<'a> {
    /// Every node in the cluster (the `0/N` of FailedScheduling).
    pub num_all_nodes: usize,
    /// Verdicts of the nodes looked at.
    pub verdicts: Vec<NodeVerdict>,
    /// Indexes into `verdicts` of the feasible nodes.
    pub feasible: Vec<usize>,
    /// The Node behind each verdict.
    pub nodes: Vec<&'a Node>,
    /// Each verdict's Node's position in the store's node list ([`Store::node_entry`]).
    pub positions: Vec<usize>,
    /// A PreFilter's rejection of the Pod itself (every node fails with it).
    pub pre_filter_msg: Option<String>,
}

/// The Nodes' names by position in the store's node list, allocated together: every
/// verdict holds one (its reference count bumped for each of some 400 nodes per cycle,
/// and dropped when the attempt is), and the store's own copies lie scattered among
/// the Nodes, a cache miss each. Laid out again when Nodes join or leave.
#[derive(Clone, Debug, Default)]
pub struct NodeNames {
    generation: Option<u64>,
    names: Vec<Arc<str>>,
}

impl NodeNames {
    fn refresh(&mut self, store: &Store) {
        let generation = Some(store.node_list_generation());
        if self.generation == generation && self.names.len() == store.node_count() {
            return;
        }
        self.names = (0..store.node_count())
            .map(|i| {
                store
                    .node_entry(i)
                    .map_or_else(|| Arc::from(""), |(n, _)| Arc::from(&**n))
            })
            .collect();
        self.generation = generation;
    }

    /// The name at `position`, or `fallback` (the store's) if it is not laid out.
    fn at<'a>(&'a self, position: usize, fallback: &'a Arc<str>) -> &'a Arc<str> {
        self.names.get(position).unwrap_or(fallback)
    }
}

impl Scheduler {
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
        self.cycles += 1;
        self.last_cycled = Some((key.clone(), now));
        let mut timers = Vec::new();
        let requests = match store.get::<Pod>(&key) {
            Some(pod) if wants_scheduling(pod) => {
                let (attempt, requests) = self.schedule_pod(store, rng, pod, now);
                if attempt.chosen.is_none() {
                    self.note_failed_attempt(&pod.metadata.uid, now);
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

    /// One more failed attempt for the Pod `uid` at `now`: its back-off grows.
    pub(super) fn note_failed_attempt(&mut self, uid: &str, now: SimTime) {
        let e = self.attempts.entry(uid.to_string()).or_insert((0, now));
        e.0 += 1;
        e.1 = now;
    }

    /// `schedulePod`: filter, then score and select (or preempt), then bind.
    pub(super) fn schedule_pod(
        &mut self,
        store: &Store,
        rng: &mut Rng,
        pod: &Pod,
        now: SimTime,
    ) -> (SchedulingAttempt, Vec<Request>) {
        let req = pod_requests(pod);
        let mut filtered = self.find_nodes_that_fit_pod(store, pod, &req);
        if filtered.feasible.is_empty() {
            return self.run_post_filter(store, pod, filtered, now);
        }
        let chosen = if filtered.feasible.len() == 1 {
            filtered.feasible[0]
        } else {
            prioritize_nodes(store, pod, &req, &mut filtered, &mut self.spread_cache);
            select_host(&filtered.feasible, &filtered.verdicts, rng)
        };
        bind(pod, filtered.verdicts, chosen, now)
    }

    /// `findNodesThatFitPod`: PreFilter, then Filter over the nodes from where the last
    /// cycle stopped (`nextStartNodeIndex`), until `numFeasibleNodesToFind` fit.
    pub(super) fn find_nodes_that_fit_pod<'a>(
        &mut self,
        store: &'a Store,
        pod: &Pod,
        req: &PodRequests,
    ) -> Filtered<'a> {
        let wants_ports = !host_ports(pod).is_empty();
        // The Nodes by position, name order (no per-attempt list of 5,000 references).
        let n = store.node_count();
        let mut out = Filtered {
            num_all_nodes: n,
            verdicts: Vec::new(),
            feasible: Vec::new(),
            nodes: Vec::new(),
            positions: Vec::new(),
            pre_filter_msg: None,
        };
        if n == 0 {
            return out;
        }
        // VolumeBinding's PreFilter: a claim missing, being deleted or waiting for an
        // immediate binding rejects the Pod before any node is looked at.
        if let Err(msg) = volume_binding_pre_filter(store, pod) {
            for i in 0..n {
                let Some((name, node)) = store.node_entry(i) else {
                    continue;
                };
                out.nodes.push(node);
                out.positions.push(i);
                out.verdicts.push(NodeVerdict {
                    node: name.clone(),
                    failure: Some(FilterFailure {
                        plugin: "VolumeBinding",
                        reasons: vec![msg.clone()],
                        unresolvable: true,
                    }),
                    scores: None,
                });
            }
            out.pre_filter_msg = Some(msg);
            return out;
        }
        // PreFilter of the plugins that count other Pods (None: nothing to check).
        self.node_names.refresh(store);
        let spread = topology::SpreadFilterState::compute(store, pod);
        let affinity = topology::AffinityFilterState::compute(store, pod);
        let to_find = num_feasible_nodes_to_find(n);
        let start = self.next_start_node_index % n;
        let mut processed = 0;
        // NodeAffinity's PreFilter: a Pod pinned by `matchFields` on `metadata.name` (a
        // DaemonSet's) is filtered on those nodes only; the others fail it unresolvably.
        let pinned = node_name_prefilter(pod);
        let pinned_at: Option<Vec<usize>> = pinned.as_ref().map(|names| {
            names
                .iter()
                .filter_map(|name| store.node_position(name))
                .collect()
        });
        let count = pinned_at.as_ref().map_or(n, Vec::len);
        // Room for the nodes a cycle usually looks at, laid out once rather than grown
        // by doubling (each a copy of what was pushed so far; the verdicts are kept).
        let room = to_find.min(count);
        out.verdicts.reserve_exact(room);
        out.feasible.reserve_exact(room);
        out.nodes.reserve_exact(room);
        out.positions.reserve_exact(room);
        for i in 0..count {
            let idx = match &pinned_at {
                Some(at) => at[i],
                None => (start + i) % n,
            };
            processed += 1;
            let Some((name, node)) = store.node_entry(idx) else {
                continue;
            };
            let mut usage = store.node_usage_at(idx);
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
            let res = run_filters(pod, node, &usage, req, &ports_in_use)
                .and_then(|()| spread.as_ref().map_or(Ok(()), |s| s.filter(pod, node)))
                .and_then(|()| affinity.as_ref().map_or(Ok(()), |s| s.filter(pod, node)));
            if res.is_ok() {
                out.feasible.push(out.verdicts.len());
            }
            out.nodes.push(node);
            out.positions.push(idx);
            out.verdicts.push(NodeVerdict {
                node: self.node_names.at(idx, name).clone(),
                failure: res.err(),
                scores: None,
            });
            if out.feasible.len() >= to_find {
                break;
            }
        }
        if let Some(names) = &pinned {
            // `SetAbsentNodesStatus`: what FailedScheduling counts for the rest (only
            // needed when nothing fits; skipped otherwise, a DaemonSet's Pods are many).
            if out.feasible.is_empty() {
                for i in 0..n {
                    let Some((name, node)) = store.node_entry(i) else {
                        continue;
                    };
                    if names.contains(&**name) {
                        continue;
                    }
                    out.nodes.push(node);
                    out.positions.push(i);
                    out.verdicts.push(NodeVerdict {
                        node: name.clone(),
                        failure: Some(FilterFailure {
                            plugin: "NodeAffinity",
                            reasons: vec!["node(s) didn't satisfy plugin(s) [NodeAffinity]".into()],
                            unresolvable: true,
                        }),
                        scores: None,
                    });
                }
            }
        }
        self.next_start_node_index = (start + processed) % n;
        out
    }

    /// No node fits: PostFilter (DefaultPreemption) and `handleSchedulingFailure` — the
    /// victims' DisruptionTarget, deletion and Preempted events, the nominated node, and
    /// the FailedScheduling event and `PodScheduled=False` status.
    pub(super) fn run_post_filter(
        &mut self,
        store: &Store,
        pod: &Pod,
        filtered: Filtered<'_>,
        now: SimTime,
    ) -> (SchedulingAttempt, Vec<Request>) {
        let n = filtered.num_all_nodes;
        let verdicts = filtered.verdicts;
        // The third value is PostFilter's nominating info: `Some(node)` overrides
        // status.nominatedNodeName (with "" when preemption found no candidate, as
        // `NewPostFilterResultWithNominatedNode("")` does), None leaves it (a Pod not
        // eligible to preempt gets no PostFilter result).
        let (post, candidate, nominate) = if n == 0 {
            (None, None, None)
        } else {
            match preemption::eligible(store, pod) {
                Err(m) => (Some(m), None, None),
                Ok(()) => match preemption::find_candidate(store, pod, &verdicts) {
                    Ok(c) => {
                        let node = c.node.clone();
                        (None, Some(c), Some(node))
                    }
                    Err(statuses) => (
                        Some(preemption::post_filter_message(n, &statuses)),
                        None,
                        Some(String::new()),
                    ),
                },
            }
        };
        let message = match &filtered.pre_filter_msg {
            // `FitError.Error()` with a PreFilter message: that message, not the
            // per-node histogram.
            Some(m) if n > 0 => {
                let main = format!("0/{n} nodes are available: {m}.");
                match &post {
                    Some(p) => format!("{main} preemption: {p}"),
                    None => main,
                }
            }
            _ => fit_error(n, &verdicts, post.as_deref()),
        };
        let mut requests = Vec::new();
        if let Some(c) = &candidate {
            requests.extend(prepare_candidate(store, pod, c, now));
        }
        // The status alone is copied: most retries change nothing, and the Pod is
        // cloned only for a write.
        let mut status = pod.status.clone();
        let nominated_changed = nominate
            .as_ref()
            .is_some_and(|n| *n != pod.status.nominated_node_name);
        if let Some(n) = nominate {
            status.nominated_node_name = n;
        }
        let condition_changed = set_condition(
            &mut status.conditions,
            Condition {
                type_: PodConditionType::PodScheduled.into(),
                status: ConditionStatus::False.into(),
                last_transition_time: Some(rfc3339(now)),
                reason: "Unschedulable".into(),
                message: message.clone(),
                transition_ms: now,
                ..Default::default()
            },
        );
        requests.push(Request::Event {
            involved: event_ref(Kind::Pod, &pod.metadata),
            type_: EventType::Warning,
            reason: "FailedScheduling".into(),
            message: message.clone(),
        });
        // `updatePod`: the status is patched only when the condition or the nominated
        // node changed. A Pod retried every five minutes with the same verdict costs
        // an Event (counted by the recorder), not a Pod write.
        if condition_changed || nominated_changed {
            let mut p = pod.clone();
            p.status = status;
            requests.push(Request::blind_update_status(p));
        }
        let attempt = SchedulingAttempt {
            time: now,
            uid: pod.metadata.uid.clone(),
            nodes: verdicts,
            chosen: None,
            message,
            preemption: candidate
                .map(|c| (c.node, c.victims.into_iter().map(|k| k.name).collect())),
        };
        (attempt, requests)
    }
}

/// `prepareCandidate`: each victim gets DisruptionTarget, is deleted gracefully and gets
/// a Preempted event.
fn prepare_candidate(
    store: &Store,
    pod: &Pod,
    c: &preemption::Candidate,
    now: SimTime,
) -> Vec<Request> {
    let mut requests = Vec::new();
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
        requests.push(Request::blind_update_status(v));
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
            type_: EventType::Normal,
            reason: "Preempted".into(),
            message: format!("Preempted by pod {} on node {}", pod.metadata.uid, c.node),
        });
    }
    requests
}

/// `prioritizeNodes`: each score plugin's raw scores over the feasible nodes, normalized
/// where the plugin normalizes, weighted and summed into each verdict's [`NodeScores`].
pub fn prioritize_nodes(
    store: &Store,
    pod: &Pod,
    req: &PodRequests,
    f: &mut Filtered<'_>,
    cache: &mut super::spread_cache::SpreadCache,
) {
    let feasible_nodes: Vec<&Node> = f.feasible.iter().map(|i| f.nodes[*i]).collect();
    let mut taint_scores: Vec<i64> = feasible_nodes
        .iter()
        .map(|n| taint_toleration_raw(pod, n))
        .collect();
    default_normalize(&mut taint_scores, true);
    let mut affinity_scores: Vec<i64> = feasible_nodes
        .iter()
        .map(|n| node_affinity_raw(pod, n))
        .collect();
    default_normalize(&mut affinity_scores, false);
    let positions: Option<Vec<usize>> = f
        .feasible
        .iter()
        .map(|i| f.positions.get(*i).copied())
        .collect();
    let spread_scores =
        topology::spread_scores(store, pod, &feasible_nodes, positions.as_deref(), cache);
    let pod_affinity_scores = topology::affinity_scores(store, pod, &feasible_nodes);
    let image_names = pod_image_names(pod);
    let image_states: Vec<_> = image_names.iter().map(|n| store.image_state(n)).collect();
    for (pos, i) in f.feasible.iter().enumerate() {
        let nd = f.nodes[*i];
        let usage = f.positions.get(*i).map_or_else(
            || store.node_usage(&nd.metadata.name),
            |&at| store.node_usage_at(at),
        );
        let scores = NodeScores::weighed(
            least_allocated(nd, &usage, req),
            balanced_allocation(nd, &usage, req),
            taint_scores[pos],
            affinity_scores[pos],
            spread_scores.as_ref().map(|s| s[pos]),
            pod_affinity_scores.as_ref().map(|s| s[pos]),
            image_locality_of(&image_names, &image_states, nd, f.num_all_nodes),
        );
        f.verdicts[*i].scores = Some(scores);
    }
}

impl NodeScores {
    /// The plugins' normalized scores and their weighted sum.
    #[allow(clippy::too_many_arguments)]
    pub fn weighed(
        least_allocated: i64,
        balanced_allocation: Option<i64>,
        taint_toleration: i64,
        node_affinity: i64,
        pod_topology_spread: Option<i64>,
        inter_pod_affinity: Option<i64>,
        image_locality: i64,
    ) -> NodeScores {
        let total = least_allocated * WEIGHT_NODE_RESOURCES_FIT
            + balanced_allocation.unwrap_or(0) * WEIGHT_BALANCED_ALLOCATION
            + taint_toleration * WEIGHT_TAINT_TOLERATION
            + node_affinity * WEIGHT_NODE_AFFINITY
            + pod_topology_spread.unwrap_or(0) * WEIGHT_POD_TOPOLOGY_SPREAD
            + inter_pod_affinity.unwrap_or(0) * WEIGHT_INTER_POD_AFFINITY
            + image_locality * WEIGHT_IMAGE_LOCALITY;
        NodeScores {
            least_allocated,
            balanced_allocation,
            taint_toleration,
            node_affinity,
            pod_topology_spread,
            inter_pod_affinity,
            image_locality,
            total,
        }
    }
}

/// `selectHost`: the highest total; ties broken uniformly at random by reservoir sampling.
pub fn select_host(feasible: &[usize], verdicts: &[NodeVerdict], rng: &mut Rng) -> usize {
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

/// `bind`: the Binding and the Scheduled event; the attempt as the why-views show it.
pub fn bind(
    pod: &Pod,
    verdicts: Vec<NodeVerdict>,
    chosen: usize,
    now: SimTime,
) -> (SchedulingAttempt, Vec<Request>) {
    let node = verdicts[chosen].node.to_string();
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
            involved: event_ref(Kind::Pod, &pod.metadata),
            type_: EventType::Normal,
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
    crate::sorting::sort(&mut main);
    let main = format!("0/{num_nodes} nodes are available: {}.", main.join(", "));
    match post {
        Some(p) => format!("{main} preemption: {p}"),
        None => main,
    }
}

/// VolumeBinding's `PreFilter` (`pkg/scheduler/framework/plugins/volumebinding`): each
/// claim the Pod mounts must exist and not be deleting; a claim not yet bound whose
/// class binds immediately (or is missing) makes the Pod wait for the binder.
/// Volumes are network-attached here (no node affinity), so the Filter passes every
/// node once the claims are bound.
pub fn volume_binding_pre_filter(store: &Store, pod: &Pod) -> Result<(), String> {
    if pod.spec.volumes.is_empty() {
        return Ok(());
    }
    let mut unbound_immediate = false;
    for (_, source) in pod_volumes(&pod.spec) {
        let VolumeSource::Claim(name) = source else {
            continue;
        };
        let key = ObjKey::new(&pod.metadata.namespace, &name);
        let Some(claim) = store.get::<PersistentVolumeClaim>(&key) else {
            return Err(format!("persistentvolumeclaim \"{name}\" not found"));
        };
        if claim.metadata.is_deleting() {
            return Err(format!("persistentvolumeclaim \"{name}\" is being deleted"));
        }
        if claim.spec.volume_name.is_empty() {
            let class = claim.spec.storage_class_name.as_deref().unwrap_or("");
            let delayed = store
                .get::<StorageClass>(&ObjKey::new("", class))
                .is_some_and(|sc| sc.volume_binding_mode == "WaitForFirstConsumer");
            if !delayed {
                unbound_immediate = true;
            }
        }
    }
    if unbound_immediate {
        return Err("pod has unbound immediate PersistentVolumeClaims".into());
    }
    Ok(())
}
