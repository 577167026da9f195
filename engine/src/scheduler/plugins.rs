//! Filter and score plugins of the default profile (`pkg/scheduler/framework/plugins`).
//!
//! Filters (in profile order): NodeUnschedulable, NodeName, TaintToleration,
//! NodeAffinity (nodeSelector), NodeResourcesFit. Scores: TaintToleration (weight 3),
//! NodeResourcesFit LeastAllocated (1), NodeResourcesBalancedAllocation (1).

use crate::api::node_affinity::node_affinity_matches;
use crate::api::*;
use crate::apiserver::{allocatable, NodeUsage, PodRequests};

/// Why a node failed a filter.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct FilterFailure {
    /// The plugin that said no.
    pub plugin: &'static str,
    /// Reasons, as FailedScheduling counts them (e.g. `Insufficient cpu`).
    pub reasons: Vec<String>,
    /// UnschedulableAndUnresolvable: preemption cannot help.
    pub unresolvable: bool,
}

fn tolerated(pod: &Pod, taint: &Taint) -> bool {
    pod.spec.tolerations.iter().any(|t| t.tolerates(taint))
}

/// Host ports a Pod asks for: (port, protocol).
pub fn host_ports(pod: &Pod) -> Vec<(i64, String)> {
    pod.spec
        .containers
        .iter()
        .flat_map(|c| c.ports.iter())
        .filter(|p| p.host_port > 0)
        .map(|p| {
            (
                p.host_port,
                if p.protocol.is_empty() {
                    "TCP".to_string()
                } else {
                    p.protocol.clone()
                },
            )
        })
        .collect()
}

/// NodeAffinity score: Σ weights of the preferred terms the node matches.
pub fn node_affinity_raw(pod: &Pod, node: &Node) -> i64 {
    pod.spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .map(|n| {
            n.preferred
                .iter()
                .filter(|t| {
                    t.preference
                        .matches_node(&node.metadata.name, &node.metadata.labels)
                })
                .map(|t| t.weight)
                .fold(0i64, i64::saturating_add)
        })
        .unwrap_or(0)
}

/// Run the filters in order; the first that fails decides (`RunFilterPlugins`).
/// `ports_in_use` lists the host ports already taken on the node (only needed when
/// the Pod asks for host ports).
pub fn run_filters(
    pod: &Pod,
    node: &Node,
    usage: &NodeUsage,
    req: &PodRequests,
    ports_in_use: &[(i64, String)],
) -> Result<(), FilterFailure> {
    // NodeUnschedulable.
    if node.spec.unschedulable {
        let t = Taint {
            key: TAINT_NODE_UNSCHEDULABLE.into(),
            effect: TaintEffect::NoSchedule.into(),
            ..Default::default()
        };
        if !tolerated(pod, &t) {
            return Err(FilterFailure {
                plugin: "NodeUnschedulable",
                reasons: vec!["node(s) were unschedulable".into()],
                unresolvable: true,
            });
        }
    }
    // NodeName.
    if !pod.spec.node_name.is_empty() && pod.spec.node_name != node.metadata.name {
        return Err(FilterFailure {
            plugin: "NodeName",
            reasons: vec!["node(s) didn't match the requested node name".into()],
            unresolvable: true,
        });
    }
    // TaintToleration: the first untolerated NoSchedule/NoExecute taint.
    if let Some(t) = node
        .spec
        .taints
        .iter()
        .filter(|t| t.effect == TaintEffect::NoSchedule || t.effect == TaintEffect::NoExecute)
        .find(|t| !tolerated(pod, t))
    {
        return Err(FilterFailure {
            plugin: "TaintToleration",
            reasons: vec![format!(
                "node(s) had untolerated taint {{{}: {}}}",
                t.key, t.value
            )],
            unresolvable: true,
        });
    }
    // NodeAffinity: nodeSelector and required node-affinity terms.
    if !node_affinity_matches(pod, node) {
        return Err(FilterFailure {
            plugin: "NodeAffinity",
            reasons: vec!["node(s) didn't match Pod's node affinity/selector".into()],
            unresolvable: true,
        });
    }
    // NodePorts: a host port can be taken once per node.
    if host_ports(pod).iter().any(|p| ports_in_use.contains(p)) {
        return Err(FilterFailure {
            plugin: "NodePorts",
            reasons: vec!["node(s) didn't have free ports for the requested pod ports".into()],
            unresolvable: false,
        });
    }
    // NodeResourcesFit: requests against allocatable minus what is already requested.
    let alloc = usage.alloc.unwrap_or_else(|| allocatable(node));
    let mut reasons = Vec::new();
    // Saturating throughout: a node may declare any quantity (the parser saturates at
    // i64::MAX) and the sums of requests saturate too; upstream's int64 would wrap
    // here and call a huge node full. Normal values give upstream's answers.
    if usage.pods.saturating_add(1) > alloc.pods {
        reasons.push("Too many pods".to_string());
    }
    if req.cpu_milli > 0
        && req.cpu_milli > alloc.cpu_milli.saturating_sub(usage.requested.cpu_milli)
    {
        reasons.push("Insufficient cpu".to_string());
    }
    if req.memory > 0 && req.memory > alloc.memory.saturating_sub(usage.requested.memory) {
        reasons.push("Insufficient memory".to_string());
    }
    if req.ephemeral_storage > 0
        && req.ephemeral_storage
            > alloc
                .ephemeral_storage
                .saturating_sub(usage.requested.ephemeral_storage)
    {
        reasons.push("Insufficient ephemeral-storage".to_string());
    }
    if !reasons.is_empty() {
        return Err(FilterFailure {
            plugin: "NodeResourcesFit",
            reasons,
            unresolvable: false,
        });
    }
    Ok(())
}

/// Maximum score of one plugin.
pub const MAX_NODE_SCORE: i64 = 100;

/// NodeResourcesFit, LeastAllocated strategy: mean over cpu and memory of
/// `(allocatable − requested) × 100 / allocatable`, with non-zero default requests.
///
/// The product is taken in i128: upstream's int64 `(cap − requested) × 100` overflows
/// for an allocatable above ~9.2 × 10¹⁶ (a node declaring `memory: 100P`) and scores
/// garbage; here such a node scores what the exact arithmetic gives, and every
/// normal value scores exactly as upstream.
pub fn least_allocated(node: &Node, usage: &NodeUsage, req: &PodRequests) -> i64 {
    let alloc = usage.alloc.unwrap_or_else(|| allocatable(node));
    let one = |cap: i64, requested: i64| -> i64 {
        if cap <= 0 || requested > cap {
            0
        } else if requested >= 0 && cap <= i64::MAX / MAX_NODE_SCORE {
            // The same quotient in i64 where the product cannot overflow (every real
            // node): a 128-bit division is a call, and this runs for every scored node.
            (cap - requested) * MAX_NODE_SCORE / cap
        } else {
            let score = (i128::from(cap) - i128::from(requested)) * i128::from(MAX_NODE_SCORE)
                / i128::from(cap);
            // 0..=100 whenever 0 < cap and requested <= cap (a negative request sum
            // cannot be stored, but clamp rather than trust that).
            i64::try_from(score.clamp(0, i128::from(MAX_NODE_SCORE))).unwrap_or(0)
        }
    };
    let cpu = one(
        alloc.cpu_milli,
        usage
            .requested
            .nonzero_cpu_milli
            .saturating_add(req.nonzero_cpu_milli),
    );
    let mem = one(
        alloc.memory,
        usage
            .requested
            .nonzero_memory
            .saturating_add(req.nonzero_memory),
    );
    (cpu + mem) / 2
}

/// NodeResourcesBalancedAllocation: `(1 − |f_cpu − f_mem| / 2) × 100` over actual
/// requests; `None` (skipped) for a Pod that requests nothing.
pub fn balanced_allocation(node: &Node, usage: &NodeUsage, req: &PodRequests) -> Option<i64> {
    if req.cpu_milli == 0 && req.memory == 0 {
        return None;
    }
    let alloc = usage.alloc.unwrap_or_else(|| allocatable(node));
    let frac = |requested: i64, cap: i64| -> f64 {
        if cap == 0 {
            return 1.0;
        }
        (requested as f64 / cap as f64).min(1.0)
    };
    let fc = frac(
        usage.requested.cpu_milli.saturating_add(req.cpu_milli),
        alloc.cpu_milli,
    );
    let fm = frac(
        usage.requested.memory.saturating_add(req.memory),
        alloc.memory,
    );
    let std = (fc - fm).abs() / 2.0;
    Some(((1.0 - std) * MAX_NODE_SCORE as f64) as i64)
}

/// TaintToleration raw score: untolerated PreferNoSchedule taints (reversed by normalize).
pub fn taint_toleration_raw(pod: &Pod, node: &Node) -> i64 {
    node.spec
        .taints
        .iter()
        .filter(|t| t.effect == TaintEffect::PreferNoSchedule)
        .filter(|t| {
            !pod.spec
                .tolerations
                .iter()
                .filter(|tol| tol.effect.is_empty() || tol.effect == TaintEffect::PreferNoSchedule)
                .any(|tol| tol.tolerates(t))
        })
        .count() as i64
}

/// `DefaultNormalizeScore`: scale to 0–100 by the maximum; `reverse` flips it.
pub fn default_normalize(scores: &mut [i64], reverse: bool) {
    let max = scores.iter().copied().max().unwrap_or(0);
    if max == 0 {
        if reverse {
            scores.iter_mut().for_each(|s| *s = MAX_NODE_SCORE);
        }
        return;
    }
    for s in scores.iter_mut() {
        // i128: raw scores are small counts or weight sums, but a sum of many weights
        // must not overflow the product.
        let v = i64::try_from(i128::from(MAX_NODE_SCORE) * i128::from(*s) / i128::from(max))
            .unwrap_or(MAX_NODE_SCORE);
        *s = if reverse { MAX_NODE_SCORE - v } else { v };
    }
}

/// ImageLocality: `minThreshold`.
pub const IMAGE_MIN_THRESHOLD: i64 = 23 * 1024 * 1024;
/// ImageLocality: `maxContainerThreshold`.
pub const IMAGE_MAX_CONTAINER_THRESHOLD: i64 = 1000 * 1024 * 1024;

/// `normalizedImageName`: add `:latest` when there is no tag. Upstream matches this
/// against the names the node reports, so `nginx:1.27` in a Pod never matches the
/// `docker.io/library/nginx:1.27` containerd reports (upstream's own TODO): only fully
/// qualified image references earn locality. The simulation keeps that.
pub fn normalized_image_name(name: &str) -> String {
    if name
        .rfind(':')
        .is_none_or(|c| name.rfind('/').is_some_and(|s| c < s))
    {
        format!("{name}:latest")
    } else {
        name.to_string()
    }
}

/// ImageLocality for one node: Σ image size × (nodes with it / all nodes) over the
/// Pod's (init) containers whose image the node has, clamped to
/// [23 MiB, 1000 MiB × containers] and scaled to 0–100. `state(name)` gives the
/// cluster-wide (size, node count) of an image name.
pub fn image_locality(
    pod: &Pod,
    node: &Node,
    total_nodes: usize,
    state: impl Fn(&str) -> Option<(i64, usize)>,
) -> i64 {
    let names = pod_image_names(pod);
    let states: Vec<_> = names.iter().map(|n| state(n)).collect();
    image_locality_of(&names, &states, node, total_nodes)
}

/// The normalized image name of each container (init containers first): computed once
/// per scheduling attempt, not once per node.
pub fn pod_image_names(pod: &Pod) -> Vec<String> {
    pod.spec
        .init_containers
        .iter()
        .chain(pod.spec.containers.iter())
        .map(|c| normalized_image_name(&c.image))
        .collect()
}

/// [`image_locality`] with the Pod's image names already normalized and each one's
/// cluster-wide state (`states`, by the same index) looked up: once per attempt, not
/// once per node.
pub fn image_locality_of(
    names: &[String],
    states: &[Option<(i64, usize)>],
    node: &Node,
    total_nodes: usize,
) -> i64 {
    let mut sum: i64 = 0;
    for (name, state) in names.iter().zip(states) {
        // An image no node reports adds nothing: the node's list is not read.
        let Some((size, n)) = *state else {
            continue;
        };
        let on_node = node.status.images.iter().any(|i| i.names.contains(name));
        if on_node {
            let spread = n as f64 / total_nodes.max(1) as f64;
            // `as` saturates a float; the sum saturates too (image sizes come from
            // node status, which a manifest may set to anything).
            sum = sum.saturating_add((size as f64 * spread) as i64);
        }
    }
    let max = IMAGE_MAX_CONTAINER_THRESHOLD.saturating_mul(names.len() as i64);
    let sum = sum.clamp(IMAGE_MIN_THRESHOLD, max.max(IMAGE_MIN_THRESHOLD));
    if max <= IMAGE_MIN_THRESHOLD || sum == IMAGE_MIN_THRESHOLD {
        return 0;
    }
    // (sum − min) ≤ (max − min): the product fits in i128 and the result in 0..=100.
    let score = i128::from(MAX_NODE_SCORE) * i128::from(sum - IMAGE_MIN_THRESHOLD)
        / i128::from(max - IMAGE_MIN_THRESHOLD);
    i64::try_from(score).unwrap_or(MAX_NODE_SCORE)
}
