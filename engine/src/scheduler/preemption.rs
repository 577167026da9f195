//! DefaultPreemption, the PostFilter plugin: when no node fits a Pod, find a node where
//! deleting lower-priority Pods would make room, nominate it and delete those Pods.
//!
//! Upstream: `pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go`
//! (`SelectVictimsOnNode`, `PodEligibleToPreemptOthers`) and
//! `pkg/scheduler/framework/preemption/preemption.go` (`pickOneNodeForPreemption`,
//! `prepareCandidate`).
//!
//! Simplifications, each chosen to keep one cycle cheap and the story the same:
//! the dry run re-checks the resource/port filters with the victims removed, while the
//! Pod-counting filters (spread, inter-pod affinity) keep their pre-removal verdicts
//! (upstream re-runs them; a Pod that needs a lower-priority Pod *gone* for its
//! anti-affinity is rare); and Pods nominated to a node do not yet reserve room there
//! for other Pods' cycles.

use super::plugins::{host_ports, run_filters, FilterFailure};
use super::NodeVerdict;
use crate::api::*;
use crate::apiserver::{pod_requests, NodeUsage, ObjKey, PodRequests, Store};
use std::collections::BTreeMap;

/// `No preemption victims found for incoming pod`.
pub const NO_VICTIMS: &str = "No preemption victims found for incoming pod";
/// `Preemption is not helpful for scheduling`.
pub const NOT_HELPFUL: &str = "Preemption is not helpful for scheduling";

/// The node chosen for preemption and the Pods to delete there.
#[derive(Clone, Debug, PartialEq)]
pub struct Candidate {
    /// Node name.
    pub node: String,
    /// Victims, most important first.
    pub victims: Vec<ObjKey>,
    /// How many victims a PodDisruptionBudget did not allow to go.
    pub pdb_violations: usize,
}

/// Why preemption did not help: the text after `preemption: `.
pub type PostFilterMsg = String;

fn priority(p: &Pod) -> i64 {
    p.spec.priority.unwrap_or(0)
}

fn start_ms(p: &Pod) -> String {
    p.status.start_time.clone().unwrap_or_default()
}

/// `MoreImportantPod`: higher priority, then the earlier start.
fn more_important_first(a: &&Pod, b: &&Pod) -> std::cmp::Ordering {
    priority(b)
        .cmp(&priority(a))
        .then_with(|| start_ms(a).cmp(&start_ms(b)))
        .then_with(|| a.metadata.name.cmp(&b.metadata.name))
}

/// `PodEligibleToPreemptOthers`: `Err` carries the PostFilter message.
pub fn eligible(store: &Store, pod: &Pod) -> Result<(), PostFilterMsg> {
    if pod.spec.preemption_policy.as_deref() == Some("Never") {
        return Err("not eligible due to preemptionPolicy=Never.".into());
    }
    let nominated = &pod.status.nominated_node_name;
    if !nominated.is_empty()
        && store
            .pods_on_node(nominated)
            .any(|p| p.metadata.is_deleting() && priority(p) < priority(pod))
    {
        // Victims of an earlier preemption are still terminating: wait for them
        // rather than preempt more Pods elsewhere.
        return Err("not eligible due to a terminating pod on the nominated node.".into());
    }
    Ok(())
}

/// Find the best node to preempt on, or the per-node reasons it cannot help.
/// `verdicts` are the filter results of the failed cycle.
pub fn find_candidate(
    store: &Store,
    pod: &Pod,
    verdicts: &[NodeVerdict],
) -> Result<Candidate, Vec<(String, Vec<String>)>> {
    let req = pod_requests(pod);
    let mut statuses: Vec<(String, Vec<String>)> = Vec::new();
    let mut candidates: Vec<(Candidate, Vec<&Pod>)> = Vec::new();
    let pdbs: Vec<&PodDisruptionBudget> = store
        .list_ns::<PodDisruptionBudget>(&pod.metadata.namespace)
        .collect();
    for v in verdicts {
        let Some(f) = &v.failure else { continue };
        if f.unresolvable {
            statuses.push((v.node.to_string(), vec![NOT_HELPFUL.into()]));
            continue;
        }
        let Some(node) = store.get::<Node>(&ObjKey::new("", &v.node)) else {
            continue;
        };
        match select_victims_on_node(store, pod, &req, node, &pdbs) {
            Ok((victims, violations)) => candidates.push((
                Candidate {
                    node: v.node.to_string(),
                    victims: victims.iter().map(|p| ObjKey::of(&p.metadata)).collect(),
                    pdb_violations: violations,
                },
                victims,
            )),
            Err(reasons) => statuses.push((v.node.to_string(), reasons)),
        }
    }
    if candidates.is_empty() {
        return Err(statuses);
    }
    // pickOneNodeForPreemption: fewest PDB violations, then the lowest
    // highest-priority victim, then the smallest priority sum, then the fewest
    // victims, then the latest start among the highest-priority victims; the first
    // node in evaluation order wins what remains tied.
    let key = |(c, v): &(Candidate, Vec<&Pod>)| {
        let highest = v.iter().map(|p| priority(p)).max().unwrap_or(i64::MIN);
        // Saturating: priorities are int32 upstream, but a sum over many victims must
        // never overflow here whatever the store holds.
        let sum: i64 = v
            .iter()
            .map(|p| priority(p).saturating_add(1 << 31))
            .fold(0i64, |a, b| a.saturating_add(b));
        let latest_start = v
            .iter()
            .filter(|p| priority(p) == highest)
            .map(|p| start_ms(p))
            .min()
            .unwrap_or_default();
        (
            c.pdb_violations,
            highest,
            sum,
            v.len(),
            std::cmp::Reverse(latest_start),
        )
    };
    let best = candidates
        .iter()
        .enumerate()
        .min_by(|(ia, a), (ib, b)| key(a).cmp(&key(b)).then(ia.cmp(ib)))
        .map(|(i, _)| i)
        .unwrap_or(0);
    Ok(candidates.swap_remove(best).0)
}

/// `SelectVictimsOnNode`: remove every lower-priority Pod; if the Pod then fits,
/// reprieve as many as possible, most important first (budget-violating ones first).
fn select_victims_on_node<'a>(
    store: &'a Store,
    pod: &Pod,
    req: &PodRequests,
    node: &Node,
    pdbs: &[&PodDisruptionBudget],
) -> Result<(Vec<&'a Pod>, usize), Vec<String>> {
    let name = &node.metadata.name;
    let mut usage = store.node_usage(name);
    // No Pod of the node is below a priority of 0 or less: no victim, known from the
    // node's counts without reading each Pod (the answer the scan below would give).
    if priority(pod) <= 0 && usage.below_zero_priority == 0 {
        return Err(vec![NO_VICTIMS.into()]);
    }
    let mut lower: Vec<&Pod> = store
        .pods_on_node(name)
        .filter(|p| !p.is_terminal() && priority(p) < priority(pod))
        .collect();
    if lower.is_empty() {
        return Err(vec![NO_VICTIMS.into()]);
    }
    crate::sorting::sort_by(&mut lower, more_important_first);
    let reqs: BTreeMap<&str, PodRequests> = crate::sorting::btree_map(
        lower
            .iter()
            .map(|p| (p.metadata.uid.as_str(), pod_requests(p))),
    );
    for p in &lower {
        usage.remove_pod(&reqs[p.metadata.uid.as_str()]);
    }
    let wants_ports = !host_ports(pod).is_empty();
    let ports = |without: &[&Pod]| -> Vec<(i64, String)> {
        if !wants_ports {
            return vec![];
        }
        store
            .pods_on_node(name)
            .filter(|p| {
                !p.is_terminal() && !without.iter().any(|w| w.metadata.uid == p.metadata.uid)
            })
            .flat_map(host_ports)
            .collect()
    };
    let fits = |usage: &NodeUsage, without: &[&Pod]| -> Result<(), FilterFailure> {
        run_filters(pod, node, usage, req, &ports(without))
    };
    if let Err(f) = fits(&usage, &lower) {
        return Err(f.reasons);
    }
    // Split by whether deleting the Pod would break a budget (in order, spending the
    // budgets' allowed disruptions as upstream's filterPodsWithPDBViolation does).
    let mut allowed: Vec<i64> = pdbs.iter().map(|b| b.status.disruptions_allowed).collect();
    let mut violating = Vec::new();
    let mut non_violating = Vec::new();
    for p in &lower {
        let mut violates = false;
        for (i, b) in pdbs.iter().enumerate() {
            if !b.spec.selector.is_empty() && b.spec.selector.matches(&p.metadata.labels) {
                allowed[i] -= 1;
                if allowed[i] < 0 {
                    violates = true;
                }
            }
        }
        if violates {
            violating.push(*p);
        } else {
            non_violating.push(*p);
        }
    }
    let mut victims: Vec<&Pod> = Vec::new();
    let mut violations = 0;
    let mut removed: Vec<&Pod> = lower.clone();
    for (group, is_violating) in [(violating, true), (non_violating, false)] {
        for p in group {
            let r = &reqs[p.metadata.uid.as_str()];
            usage.add_pod(r);
            removed.retain(|w| w.metadata.uid != p.metadata.uid);
            if fits(&usage, &removed).is_err() {
                usage.remove_pod(r);
                removed.push(p);
                victims.push(p);
                if is_violating {
                    violations += 1;
                }
            }
        }
    }
    crate::sorting::sort_by(&mut victims, more_important_first);
    Ok((victims, violations))
}

/// The PostFilter message: per-node statuses counted like FitError's reasons.
pub fn post_filter_message(num_nodes: usize, statuses: &[(String, Vec<String>)]) -> String {
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    for (_, reasons) in statuses {
        for r in reasons {
            *counts.entry(r.as_str()).or_default() += 1;
        }
    }
    let mut parts: Vec<String> = counts.iter().map(|(r, c)| format!("{c} {r}")).collect();
    crate::sorting::sort(&mut parts);
    format!("0/{num_nodes} nodes are available: {}.", parts.join(", "))
}
