//! Required node affinity, as `k8s.io/component-helpers/scheduling/corev1/nodeaffinity`
//! gives it to both the scheduler's NodeAffinity plugin and the DaemonSet controller
//! (`GetRequiredNodeAffinity(pod).Match(node)`), and the kubelet's admission: the
//! `nodeSelector` and the required terms, and the node names the terms pin.

use super::{Node, Pod};
use std::collections::BTreeSet;

/// NodeAffinity filter part: nodeSelector and the required node-affinity terms.
pub fn node_affinity_matches(pod: &Pod, node: &Node) -> bool {
    let labels = &node.metadata.labels;
    let selector_ok = pod
        .spec
        .node_selector
        .iter()
        .all(|(k, v)| labels.get(k) == Some(v));
    let required_ok = match pod
        .spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
        .and_then(|n| n.required.as_ref())
    {
        Some(sel) => sel
            .node_selector_terms
            .iter()
            .any(|t| t.matches_node(&node.metadata.name, labels)),
        None => true,
    };
    selector_ok && required_ok
}

/// NodeAffinity's `PreFilter`: the node names every required term pins with
/// `matchFields` `metadata.name In [...]` (ANDed within a term, ORed across terms), or
/// None when some term does not pin (every node is a candidate).
pub fn node_name_prefilter(pod: &Pod) -> Option<BTreeSet<String>> {
    let terms = &pod
        .spec
        .affinity
        .as_ref()?
        .node_affinity
        .as_ref()?
        .required
        .as_ref()?
        .node_selector_terms;
    let mut names = BTreeSet::new();
    for t in terms {
        let mut term: Option<BTreeSet<String>> = None;
        for r in &t.match_fields {
            if r.key == "metadata.name" && r.operator == "In" {
                let s: BTreeSet<String> = crate::sorting::btree_set(r.values.iter().cloned());
                term = Some(match term {
                    None => s,
                    Some(prev) => prev.intersection(&s).cloned().collect(),
                });
            }
        }
        names.extend(term?);
    }
    (!terms.is_empty()).then_some(names)
}
