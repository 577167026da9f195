//! The two plugins that look at *other Pods* by topology domain: PodTopologySpread and
//! InterPodAffinity.
//!
//! Upstream: `pkg/scheduler/framework/plugins/podtopologyspread/{filtering,scoring}.go`,
//! `pkg/scheduler/framework/plugins/interpodaffinity/{filtering,scoring}.go`.
//!
//! As upstream, the counts are computed once per scheduling cycle (PreFilter/PreScore)
//! and each node is then judged from the counts. Cost: a Pod with spread constraints
//! makes one pass over the Pods of the nodes its constraints can see; a Pod without
//! (anti-)affinity terms only looks at the bound Pods that have terms (the store's
//! `pods_with_affinity` index, upstream's `PodsWithAffinity`), so ordinary Pods pay
//! nothing. A Pod without constraints of its own is scored with the system default
//! ones (hostname maxSkew 3, zone maxSkew 5, `ScheduleAnyway`) over its ReplicaSet's
//! Pods, counted from the owner index: the cost of a cycle is the ReplicaSet's size.

use super::plugins::{FilterFailure, MAX_NODE_SCORE};
use super::spread_cache::{OwnedCounts, SpreadCache};
use crate::api::node_affinity::node_affinity_matches;
use crate::api::*;
use crate::apiserver::fxhash::FxHashMap;
use crate::apiserver::Store;
use std::collections::BTreeMap;

/// `ErrReasonConstraintsNotMatch`.
pub const SPREAD_NOT_MATCH: &str = "node(s) didn't match pod topology spread constraints";
/// `ErrReasonNodeLabelNotMatch`.
pub const SPREAD_MISSING_LABEL: &str =
    "node(s) didn't match pod topology spread constraints (missing required label)";
/// `ErrReasonExistingAntiAffinityRulesNotMatch`.
pub const EXISTING_ANTI_AFFINITY: &str = "node(s) didn't satisfy existing pods anti-affinity rules";
/// `ErrReasonAffinityRulesNotMatch`.
pub const AFFINITY_NOT_MATCH: &str = "node(s) didn't match pod affinity rules";
/// `ErrReasonAntiAffinityRulesNotMatch`.
pub const ANTI_AFFINITY_NOT_MATCH: &str = "node(s) didn't match pod anti-affinity rules";
/// `hardPodAffinityWeight` default: an existing Pod's *required* affinity term that
/// the incoming Pod matches adds this much to the domain.
pub const HARD_POD_AFFINITY_WEIGHT: i64 = 1;

/// `countPodsMatchSelector`: Pods in `ns` matching `sel`, terminating ones excluded.
fn count_matching<'a>(pods: impl Iterator<Item = &'a Pod>, sel: &LabelSelector, ns: &str) -> i64 {
    pods.filter(|p| {
        p.metadata.namespace == ns
            && !p.metadata.is_deleting()
            && !p.is_terminal()
            && sel.matches(&p.metadata.labels)
    })
    .count() as i64
}

fn selector_of(c: &TopologySpreadConstraint, pod: &Pod) -> LabelSelector {
    // A constraint without a selector matches no Pod (labels.Nothing()); an empty
    // selector that cannot match anything is modelled by an impossible requirement.
    let mut sel = c.label_selector.clone().unwrap_or(LabelSelector {
        match_labels: Default::default(),
        match_expressions: vec![LabelSelectorRequirement {
            key: "kubeplay.dev/nothing".into(),
            operator: "Exists".into(),
            values: vec![],
        }],
    });
    // `matchLabelKeys` (`filterTopologySpreadConstraints`): the incoming Pod's value of
    // each key it carries joins the selector, so with `pod-template-hash` a rollout's
    // new Pods spread among themselves and the old ones do not count.
    let keys = c
        .extra
        .get("matchLabelKeys")
        .and_then(|k| k.as_array())
        .into_iter()
        .flatten()
        .filter_map(|k| k.as_str());
    for k in keys {
        if let Some(v) = pod.metadata.labels.get(k) {
            sel.match_labels.insert(k.to_string(), v.clone());
        }
    }
    sel
}

/// PodTopologySpread PreFilter state for the hard (`DoNotSchedule`) constraints.
#[derive(Debug, Default)]
pub struct SpreadFilterState {
    constraints: Vec<(TopologySpreadConstraint, LabelSelector)>,
    /// Per constraint: matching Pods per domain value (every eligible domain present).
    counts: Vec<BTreeMap<String, i64>>,
}

impl SpreadFilterState {
    /// PreFilter: count matching Pods per domain over the nodes that pass the Pod's
    /// node affinity and carry every constraint's key (`nodeAffinityPolicy: Honor`,
    /// `nodeTaintsPolicy: Ignore`, the defaults).
    pub fn compute(store: &Store, pod: &Pod) -> Option<Self> {
        let constraints: Vec<(TopologySpreadConstraint, LabelSelector)> = pod
            .spec
            .topology_spread_constraints
            .iter()
            .filter(|c| c.is_hard())
            .map(|c| (c.clone(), selector_of(c, pod)))
            .collect();
        if constraints.is_empty() {
            return None;
        }
        let mut counts = vec![BTreeMap::new(); constraints.len()];
        for node in store.list::<Node>() {
            let labels = &node.metadata.labels;
            if !constraints
                .iter()
                .all(|(c, _)| labels.contains_key(&c.topology_key))
                || !node_affinity_matches(pod, node)
            {
                continue;
            }
            for (i, (c, sel)) in constraints.iter().enumerate() {
                let n = count_matching(
                    store.pods_on_node(&node.metadata.name),
                    sel,
                    &pod.metadata.namespace,
                );
                *counts[i]
                    .entry(labels[&c.topology_key].clone())
                    .or_insert(0) += n;
            }
        }
        Some(SpreadFilterState {
            constraints,
            counts,
        })
    }

    /// Filter: `matchNum + selfMatch − minMatchNum ≤ maxSkew` for every constraint.
    pub fn filter(&self, pod: &Pod, node: &Node) -> Result<(), FilterFailure> {
        for (i, (c, sel)) in self.constraints.iter().enumerate() {
            let Some(value) = node.metadata.labels.get(&c.topology_key) else {
                return Err(FilterFailure {
                    plugin: "PodTopologySpread",
                    reasons: vec![SPREAD_MISSING_LABEL.into()],
                    unresolvable: true,
                });
            };
            let min = self.counts[i].values().copied().min().unwrap_or(0);
            let self_match = i64::from(sel.matches(&pod.metadata.labels));
            let match_num = self.counts[i].get(value).copied().unwrap_or(0);
            if match_num.saturating_add(self_match).saturating_sub(min) > c.max_skew {
                return Err(FilterFailure {
                    plugin: "PodTopologySpread",
                    reasons: vec![SPREAD_NOT_MATCH.into()],
                    unresolvable: false,
                });
            }
        }
        Ok(())
    }
}

/// `systemDefaultConstraints` (`defaultingType: System`, v1's default): spread over
/// hostnames with maxSkew 3 and over zones with maxSkew 5, both `ScheduleAnyway`, for
/// a Pod that declares no constraint of its own.
pub const SYSTEM_DEFAULT_CONSTRAINTS: [(&str, i64); 2] =
    [(LABEL_HOSTNAME, 3), (LABEL_TOPOLOGY_ZONE, 5)];

/// One soft constraint as scoring sees it.
struct SoftConstraint {
    key: String,
    max_skew: i64,
    selector: LabelSelector,
}

/// `buildDefaultConstraints`: the system defaults with the selector
/// `helper.DefaultSelector` builds — the Services that select the Pod (none modelled
/// yet) merged with its controller's selector when that controller is a ReplicaSet
/// (the StatefulSet and ReplicationController cases have no kind here). A Pod with no
/// such controller, or whose selector is empty, gets no default constraint.
fn build_default_constraints<'a>(
    store: &'a Store,
    pod: &Pod,
) -> Option<(Vec<SoftConstraint>, &'a ReplicaSet)> {
    let owner = pod.metadata.controller_ref()?;
    if owner.kind != "ReplicaSet" || !owner.api_version.starts_with("apps/") {
        return None;
    }
    let rs = store.get::<ReplicaSet>(&crate::apiserver::ObjKey::new(
        &pod.metadata.namespace,
        &owner.name,
    ))?;
    let selector = rs.spec.selector.clone();
    if selector.match_labels.is_empty() && selector.match_expressions.is_empty() {
        return None;
    }
    let constraints = SYSTEM_DEFAULT_CONSTRAINTS
        .iter()
        .map(|(key, max_skew)| SoftConstraint {
            key: key.to_string(),
            max_skew: *max_skew,
            selector: selector.clone(),
        })
        .collect();
    Some((constraints, rs))
}

/// PodTopologySpread scores for the soft (`ScheduleAnyway`) constraints, normalized
/// 0–100 (fewer matching Pods in the node's domain → higher). `None`: the plugin does
/// not apply (no soft constraint, and no system default for this Pod).
///
/// A Pod that declares no constraint gets the system defaults (see
/// [`SYSTEM_DEFAULT_CONSTRAINTS`]); then, as upstream, a node need not carry every
/// topology key (`requireAllTopologies` is false: a node without a zone label is still
/// spread by hostname). The defaults' selector is the owning ReplicaSet's, and the
/// Pods it can match are counted from the ReplicaSet's dependents (the store's owner
/// index) rather than from every Pod of every node: the cost is the ReplicaSet's size,
/// not the cluster's, as upstream's own later `PodsWithOwnerRef` count does. A Pod that
/// matches the selector but is owned by nothing (the ReplicaSet would adopt it) or by
/// another controller (same pod-template-hash) is therefore not counted.
///
/// `positions`, when given, are the feasible nodes' positions in the store's node list:
/// their hostname and zone labels are then read from the store's copy by position.
pub fn spread_scores<'a>(
    store: &'a Store,
    pod: &Pod,
    feasible: &[&'a Node],
    positions: Option<&[usize]>,
    cache: &mut SpreadCache,
) -> Option<Vec<i64>> {
    let system_defaulted = pod.spec.topology_spread_constraints.is_empty();
    let (constraints, owner) = if system_defaulted {
        let (c, rs) = build_default_constraints(store, pod)?;
        (c, Some(rs))
    } else {
        let c: Vec<SoftConstraint> = pod
            .spec
            .topology_spread_constraints
            .iter()
            .filter(|c| !c.is_hard())
            .map(|c| SoftConstraint {
                key: c.topology_key.clone(),
                max_skew: c.max_skew,
                selector: selector_of(c, pod),
            })
            .collect();
        (c, None)
    };
    if constraints.is_empty() {
        return None;
    }
    let mut s = PreScoreState::new(store, constraints, feasible, positions, !system_defaulted);
    match (owner, positions) {
        // A Pod placed by no node selector or affinity counts on every node: the
        // ReplicaSet's counts kept between cycles serve it.
        (Some(rs), Some(positions))
            if pod.spec.node_selector.is_empty() && pod.spec.affinity.is_none() =>
        {
            let counts = cache.owned(store, rs);
            s.count_owned_per_node(store, counts, positions);
        }
        (Some(rs), _) => s.count_owned(store, pod, rs, feasible),
        (None, _) => s.count_on_nodes(store, pod, feasible),
    }
    Some(normalize_spread_scores(&s.scores()))
}

/// PodTopologySpread's `preScoreState`: the soft constraints, the domains the feasible
/// nodes make of each key and the matching Pods counted in them, each constraint's
/// weight, and each feasible node's values for the keys (read once, reused by Score).
struct PreScoreState<'a> {
    constraints: Vec<SoftConstraint>,
    /// `requireAllTopologies`: a node must carry every key (the Pod's own constraints).
    require_all: bool,
    /// Per constraint: whether its key is the hostname (counted per node name).
    is_host: Vec<bool>,
    /// Per feasible node: left out for lacking a key.
    ignored: Vec<bool>,
    /// Per constraint (not hostname): the matching Pods in each domain.
    domains: Vec<BTreeMap<&'a str, i64>>,
    /// Per feasible node and constraint: the node's value for the key, if it has it.
    values: Vec<Option<&'a str>>,
    /// Per constraint: `topologyNormalizingWeight`.
    weights: Vec<f64>,
    /// Per constraint (hostname): the matching Pods bound to each feasible node, by its
    /// place among the feasible nodes (the score reads it for each of some 400 nodes
    /// per cycle: by position, not by hashing the node's name).
    per_node: Vec<Vec<i64>>,
}

impl<'a> PreScoreState<'a> {
    /// `initPreScoreState`: the domains seen among the feasible nodes (borrowed label
    /// values: this runs for every feasible node of every cycle) and the weights.
    fn new(
        store: &'a Store,
        constraints: Vec<SoftConstraint>,
        feasible: &[&'a Node],
        positions: Option<&[usize]>,
        require_all: bool,
    ) -> Self {
        let is_host: Vec<bool> = constraints
            .iter()
            .map(|c| c.key == LABEL_HOSTNAME)
            .collect();
        let mut ignored = vec![false; feasible.len()];
        let mut ignored_count = 0;
        let mut domains: Vec<BTreeMap<&'a str, i64>> = vec![BTreeMap::new(); constraints.len()];
        let mut values: Vec<Option<&'a str>> =
            Vec::with_capacity(feasible.len() * constraints.len());
        let kept: Vec<Option<usize>> = constraints
            .iter()
            .map(|c| {
                crate::apiserver::TOPOLOGY_LABELS
                    .iter()
                    .position(|k| *k == c.key)
            })
            .collect();
        for (j, n) in feasible.iter().enumerate() {
            let at = positions.and_then(|p| p.get(j)).copied();
            for (c, kept) in constraints.iter().zip(&kept) {
                values.push(match (at, kept) {
                    (Some(at), Some(which)) => store.node_topology_label(at, *which),
                    _ => n.metadata.labels.get(&c.key).map(String::as_str),
                });
            }
            let row = &values[values.len() - constraints.len()..];
            if require_all && row.iter().any(Option::is_none) {
                ignored[j] = true;
                ignored_count += 1;
                continue;
            }
            for (i, v) in row.iter().enumerate() {
                if !is_host[i] {
                    domains[i].entry(v.unwrap_or("")).or_insert(0);
                }
            }
        }
        let weights: Vec<f64> = constraints
            .iter()
            .enumerate()
            .map(|(i, _)| {
                let size = if is_host[i] {
                    feasible.len() - ignored_count
                } else {
                    domains[i].len()
                };
                // topologyNormalizingWeight: log(size + 2).
                ((size + 2) as f64).ln()
            })
            .collect();
        let per_node = vec![vec![0; feasible.len()]; constraints.len()];
        PreScoreState {
            constraints,
            require_all,
            is_host,
            ignored,
            domains,
            values,
            weights,
            per_node,
        }
    }

    /// PreScore counts over every node that passes the Pod's node affinity (and, when
    /// every key is required, carries them all).
    fn counts_for(&self, pod: &Pod, node: &Node) -> bool {
        let has_keys = self
            .constraints
            .iter()
            .all(|c| node.metadata.labels.contains_key(&c.key));
        (!self.require_all || has_keys) && node_affinity_matches(pod, node)
    }

    /// Whether any constraint's key is a zone-like one (its domains need the Pods'
    /// Nodes, not only their names).
    fn zoned(&self) -> bool {
        self.is_host.iter().any(|h| !h)
    }

    /// The system defaults' PreScore: the owning ReplicaSet's bound Pods that match its
    /// selector, counted from the owner index.
    fn count_owned(&mut self, store: &'a Store, pod: &Pod, rs: &ReplicaSet, feasible: &[&Node]) {
        let zoned = self.zoned();
        let mut on_node: FxHashMap<&str, i64> = FxHashMap::default();
        for obj in store.dependent_objects(&rs.metadata.uid) {
            let Some(p) = Pod::from_object(obj) else {
                continue;
            };
            // The defaults share the ReplicaSet's selector: matched once, with the rest
            // of what makes a Pod count.
            if !super::spread_cache::counts_for_owner(p, rs) {
                continue;
            }
            // The zone domains need the Pod's Node; hostname counts need only its name.
            let node = if zoned {
                store.node_named(&p.spec.node_name)
            } else {
                None
            };
            let node = node.filter(|n| self.counts_for(pod, n));
            for (i, c) in self.constraints.iter().enumerate() {
                if self.is_host[i] {
                    *on_node.entry(p.spec.node_name.as_str()).or_default() += 1;
                } else if let Some(node) = node {
                    if let Some(cnt) = self.domains[i].get_mut(label_value(node, &c.key)) {
                        *cnt += 1;
                    }
                }
            }
        }
        // Every hostname constraint counts the same Pods (the defaults have one).
        for (j, n) in feasible.iter().enumerate() {
            let cnt = on_node.get(n.metadata.name.as_str()).copied().unwrap_or(0);
            for i in 0..self.constraints.len() {
                if self.is_host[i] {
                    self.per_node[i][j] = cnt;
                }
            }
        }
    }

    /// [`Self::count_owned`] from the ReplicaSet's counts per node: the same sums,
    /// grouped by node, read by the nodes' positions in the store's node list
    /// (`positions`: the feasible nodes'). Only for a Pod without a node selector or
    /// affinity and with the system defaults (no key required), so every node counts:
    /// `counts_for` is true of each.
    fn count_owned_per_node(
        &mut self,
        store: &'a Store,
        counts: &OwnedCounts,
        positions: &[usize],
    ) {
        let by_position = counts.by_position();
        if self.zoned() {
            for (at, n) in by_position.iter().enumerate() {
                if *n == 0 {
                    continue;
                }
                for (i, c) in self.constraints.iter().enumerate() {
                    if self.is_host[i] {
                        continue;
                    }
                    let value = match crate::apiserver::TOPOLOGY_LABELS
                        .iter()
                        .position(|k| *k == c.key)
                    {
                        Some(which) => store.node_topology_label(at, which).unwrap_or(""),
                        None => store
                            .node_at(at)
                            .map_or("", |node| label_value(node, &c.key)),
                    };
                    if let Some(cnt) = self.domains[i].get_mut(value) {
                        *cnt += n;
                    }
                }
            }
        }
        for (j, at) in positions.iter().enumerate() {
            let n = by_position.get(*at).copied().unwrap_or(0);
            for i in 0..self.constraints.len() {
                if self.is_host[i] {
                    self.per_node[i][j] += n;
                }
            }
        }
    }

    /// The Pod's own constraints' PreScore: the matching Pods of every counted node in
    /// each zone-like domain, and of each feasible node for the hostname ones.
    fn count_on_nodes(&mut self, store: &'a Store, pod: &Pod, feasible: &[&'a Node]) {
        let ns = &pod.metadata.namespace;
        if self.zoned() {
            for node in store.list::<Node>() {
                if !self.counts_for(pod, node) {
                    continue;
                }
                for (i, c) in self.constraints.iter().enumerate() {
                    if self.is_host[i] {
                        continue;
                    }
                    if let Some(cnt) = self.domains[i].get_mut(label_value(node, &c.key)) {
                        *cnt += count_matching(
                            store.pods_on_node(&node.metadata.name),
                            &c.selector,
                            ns,
                        );
                    }
                }
            }
        }
        for (j, n) in feasible.iter().enumerate() {
            for (i, c) in self.constraints.iter().enumerate() {
                if self.is_host[i] {
                    self.per_node[i][j] =
                        count_matching(store.pods_on_node(&n.metadata.name), &c.selector, ns);
                }
            }
        }
    }

    /// Score: each feasible node's raw score, the sum over the constraints whose key it
    /// carries of `scoreForCount` (None: the node was left out).
    fn scores(&self) -> Vec<Option<i64>> {
        self.values
            .chunks(self.constraints.len())
            .enumerate()
            .map(|(j, row)| {
                if self.ignored[j] {
                    return None;
                }
                let mut score = 0f64;
                for (i, c) in self.constraints.iter().enumerate() {
                    // Score: only the constraints whose key the node carries.
                    let Some(value) = row[i] else {
                        continue;
                    };
                    let cnt = if self.is_host[i] {
                        self.per_node[i][j]
                    } else {
                        self.domains[i].get(value).copied().unwrap_or(0)
                    };
                    // scoreForCount.
                    score += cnt as f64 * self.weights[i] + c.max_skew.saturating_sub(1) as f64;
                }
                Some(score.round() as i64)
            })
            .collect()
    }
}

/// A node's value for a label key; a missing key reads as "" (Go's map lookup), a
/// domain of its own.
fn label_value<'n>(n: &'n Node, key: &str) -> &'n str {
    n.metadata.labels.get(key).map_or("", String::as_str)
}

/// NormalizeScore: MaxNodeScore × (max + min − s) / max; ignored nodes get 0.
fn normalize_spread_scores(raw: &[Option<i64>]) -> Vec<i64> {
    let present = raw.iter().flatten();
    let min = present.clone().copied().min().unwrap_or(0);
    let max = present.copied().max().unwrap_or(0);
    raw.iter()
        .map(|s| match s {
            None => 0,
            Some(_) if max == 0 => MAX_NODE_SCORE,
            // i128: the raw scores are counts and maxSkews (int32 upstream,
            // refused above that by the API server), so this cannot overflow
            // with what validation lets through; it must not panic on anything.
            Some(s) => i64::try_from(
                i128::from(MAX_NODE_SCORE) * (i128::from(max) + i128::from(min) - i128::from(*s))
                    / i128::from(max),
            )
            .unwrap_or(0),
        })
        .collect()
}

/// The term selects `target`: its namespace is one the term looks in (`namespaces`,
/// `namespaceSelector` over the namespaces' labels, or by default the owner's own) and
/// its labels match the term's selector.
fn term_matches(store: &Store, term: &PodAffinityTerm, owner_ns: &str, target: &Pod) -> bool {
    let ns = &target.metadata.namespace;
    let in_ns = match &term.namespace_selector {
        None if term.namespaces.is_empty() => ns == owner_ns,
        None => term.namespaces.contains(ns),
        Some(sel) => {
            term.namespaces.contains(ns)
                || store
                    .get::<Namespace>(&crate::apiserver::ObjKey::new("", ns))
                    .is_some_and(|n| sel.matches(&n.metadata.labels))
        }
    };
    in_ns
        && term
            .label_selector
            .as_ref()
            .is_some_and(|s| s.matches(&target.metadata.labels))
}

fn affinity_of(p: &Pod) -> (&[PodAffinityTerm], &[WeightedPodAffinityTerm]) {
    match p
        .spec
        .affinity
        .as_ref()
        .and_then(|a| a.pod_affinity.as_ref())
    {
        Some(a) => (&a.required, &a.preferred),
        None => (&[], &[]),
    }
}

fn anti_affinity_of(p: &Pod) -> (&[PodAffinityTerm], &[WeightedPodAffinityTerm]) {
    match p
        .spec
        .affinity
        .as_ref()
        .and_then(|a| a.pod_anti_affinity.as_ref())
    {
        Some(a) => (&a.required, &a.preferred),
        None => (&[], &[]),
    }
}

type Pair = (String, String);

/// InterPodAffinity PreFilter state.
#[derive(Debug, Default)]
pub struct AffinityFilterState {
    /// Domains where an existing Pod's required anti-affinity forbids the incoming Pod.
    existing_anti: BTreeMap<Pair, i64>,
    /// Domains holding Pods that match all of the incoming Pod's required affinity terms.
    affinity: BTreeMap<Pair, i64>,
    /// Domains holding Pods matched by the incoming Pod's required anti-affinity terms.
    anti: BTreeMap<Pair, i64>,
    /// The incoming Pod matches all its own required affinity terms.
    self_match: bool,
}

impl AffinityFilterState {
    /// PreFilter. Existing Pods are looked at through the `pods_with_affinity` index
    /// unless the incoming Pod has required terms of its own.
    pub fn compute(store: &Store, pod: &Pod) -> Option<Self> {
        let (aff, _) = affinity_of(pod);
        let (anti, _) = anti_affinity_of(pod);
        let mut st = AffinityFilterState::default();
        let node_label = |name: &str, key: &str| -> Option<String> {
            store
                .get::<Node>(&crate::apiserver::ObjKey::new("", name))
                .and_then(|n| n.metadata.labels.get(key).cloned())
        };
        for existing in store.bound_pods_with_affinity() {
            if existing.metadata.is_deleting() || existing.is_terminal() {
                continue;
            }
            for term in anti_affinity_of(existing).0 {
                if term_matches(store, term, &existing.metadata.namespace, pod) {
                    if let Some(v) = node_label(&existing.spec.node_name, &term.topology_key) {
                        *st.existing_anti
                            .entry((term.topology_key.clone(), v))
                            .or_default() += 1;
                    }
                }
            }
        }
        if !aff.is_empty() || !anti.is_empty() {
            for node in store.list::<Node>() {
                for existing in store.pods_on_node(&node.metadata.name) {
                    if existing.metadata.is_deleting() || existing.is_terminal() {
                        continue;
                    }
                    let ns = &pod.metadata.namespace;
                    if !aff.is_empty() && aff.iter().all(|t| term_matches(store, t, ns, existing)) {
                        for t in aff {
                            if let Some(v) = node.metadata.labels.get(&t.topology_key) {
                                *st.affinity
                                    .entry((t.topology_key.clone(), v.clone()))
                                    .or_default() += 1;
                            }
                        }
                    }
                    for t in anti {
                        if term_matches(store, t, ns, existing) {
                            if let Some(v) = node.metadata.labels.get(&t.topology_key) {
                                *st.anti
                                    .entry((t.topology_key.clone(), v.clone()))
                                    .or_default() += 1;
                            }
                        }
                    }
                }
            }
        }
        st.self_match = aff
            .iter()
            .all(|t| term_matches(store, t, &pod.metadata.namespace, pod));
        if st.existing_anti.is_empty() && aff.is_empty() && anti.is_empty() {
            return None;
        }
        Some(st)
    }

    /// Filter: the Pod's affinity, its anti-affinity, then existing Pods'
    /// anti-affinity (upstream order and reasons).
    pub fn filter(&self, pod: &Pod, node: &Node) -> Result<(), FilterFailure> {
        let labels = &node.metadata.labels;
        let fail = |reason: &str, unresolvable: bool| FilterFailure {
            plugin: "InterPodAffinity",
            reasons: vec![reason.into()],
            unresolvable,
        };
        let (aff, _) = affinity_of(pod);
        let satisfied = aff.iter().all(|t| {
            labels.get(&t.topology_key).is_some_and(|v| {
                self.affinity
                    .get(&(t.topology_key.clone(), v.clone()))
                    .is_some_and(|c| *c > 0)
            })
        });
        if !satisfied {
            // The first Pod of a group that selects itself may go anywhere its terms'
            // topology keys exist (otherwise it could never start).
            let self_match = self.affinity.is_empty() && self.self_match;
            if !self_match || !aff.iter().all(|t| labels.contains_key(&t.topology_key)) {
                return Err(fail(AFFINITY_NOT_MATCH, true));
            }
        }
        let (anti, _) = anti_affinity_of(pod);
        if anti.iter().any(|t| {
            labels.get(&t.topology_key).is_some_and(|v| {
                self.anti
                    .get(&(t.topology_key.clone(), v.clone()))
                    .is_some_and(|c| *c > 0)
            })
        }) {
            return Err(fail(ANTI_AFFINITY_NOT_MATCH, false));
        }
        if labels.iter().any(|(k, v)| {
            self.existing_anti
                .get(&(k.clone(), v.clone()))
                .is_some_and(|c| *c > 0)
        }) {
            return Err(fail(EXISTING_ANTI_AFFINITY, false));
        }
        Ok(())
    }
}

/// InterPodAffinity scores, normalized 0–100 by (s − min) / (max − min). `None`: no
/// preferred term anywhere applies (all nodes score 0, upstream's skip).
pub fn affinity_scores(store: &Store, pod: &Pod, feasible: &[&Node]) -> Option<Vec<i64>> {
    let (_, pref_aff) = affinity_of(pod);
    let (_, pref_anti) = anti_affinity_of(pod);
    let own_terms = !pref_aff.is_empty() || !pref_anti.is_empty();
    let mut topo: BTreeMap<Pair, i64> = BTreeMap::new();
    let ns = &pod.metadata.namespace;
    let mut add = |node: &Node, key: &str, w: i64| {
        if let Some(v) = node.metadata.labels.get(key) {
            let e = topo.entry((key.to_string(), v.clone())).or_default();
            // Saturating: weights are validated (1–100), but a sum over many Pods must
            // not overflow whatever the store holds.
            *e = e.saturating_add(w);
        }
    };
    let mut visit = |node: &Node, existing: &Pod| {
        if existing.metadata.is_deleting() || existing.is_terminal() {
            return;
        }
        for t in pref_aff {
            if term_matches(store, &t.pod_affinity_term, ns, existing) {
                add(node, &t.pod_affinity_term.topology_key, t.weight);
            }
        }
        for t in pref_anti {
            if term_matches(store, &t.pod_affinity_term, ns, existing) {
                add(node, &t.pod_affinity_term.topology_key, -t.weight);
            }
        }
        let ens = &existing.metadata.namespace;
        let (req, pref) = affinity_of(existing);
        for t in req {
            if term_matches(store, t, ens, pod) {
                add(node, &t.topology_key, HARD_POD_AFFINITY_WEIGHT);
            }
        }
        for t in pref {
            if term_matches(store, &t.pod_affinity_term, ens, pod) {
                add(node, &t.pod_affinity_term.topology_key, t.weight);
            }
        }
        for t in anti_affinity_of(existing).1 {
            if term_matches(store, &t.pod_affinity_term, ens, pod) {
                add(node, &t.pod_affinity_term.topology_key, -t.weight);
            }
        }
    };
    if own_terms {
        for node in store.list::<Node>() {
            for existing in store.pods_on_node(&node.metadata.name) {
                visit(node, existing);
            }
        }
    } else {
        for existing in store.bound_pods_with_affinity() {
            if let Some(node) =
                store.get::<Node>(&crate::apiserver::ObjKey::new("", &existing.spec.node_name))
            {
                visit(node, existing);
            }
        }
    }
    if topo.is_empty() {
        return None;
    }
    let raw: Vec<i64> = feasible
        .iter()
        .map(|n| {
            n.metadata
                .labels
                .iter()
                .map(|(k, v)| topo.get(&(k.clone(), v.clone())).copied().unwrap_or(0))
                .fold(0i64, i64::saturating_add)
        })
        .collect();
    let min = raw.iter().copied().min().unwrap_or(0);
    let max = raw.iter().copied().max().unwrap_or(0);
    let diff = max.saturating_sub(min);
    Some(
        raw.iter()
            .map(|s| {
                if diff > 0 {
                    (MAX_NODE_SCORE as f64 * ((*s as f64 - min as f64) / diff as f64)) as i64
                } else {
                    0
                }
            })
            .collect(),
    )
}
