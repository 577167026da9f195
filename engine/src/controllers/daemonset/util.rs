//! What `pkg/controller/daemon/util/daemonset_util.go` gives the controller: the daemon
//! tolerations, the node-name affinity a Pod is pinned with, its target node, whether
//! it is updated, whether the strategy allows surge.

use crate::api::*;

/// `AddOrUpdateDaemonPodTolerations`.
pub fn add_or_update_daemon_pod_tolerations(spec: &mut PodSpec) {
    let mut add = |key: &str, effect: &str| {
        let t = Toleration {
            key: key.into(),
            operator: "Exists".into(),
            effect: effect.into(),
            ..Default::default()
        };
        // `AddOrUpdateTolerationInPodSpec`: an equal toleration is not added twice; one
        // with the same key, operator, value and effect is replaced.
        match spec.tolerations.iter_mut().find(|x| {
            x.key == t.key && x.effect == t.effect && x.operator == t.operator && x.value == t.value
        }) {
            Some(x) => *x = t,
            None => spec.tolerations.push(t),
        }
    };
    add("node.kubernetes.io/not-ready", "NoExecute");
    add("node.kubernetes.io/unreachable", "NoExecute");
    add("node.kubernetes.io/disk-pressure", "NoSchedule");
    add("node.kubernetes.io/memory-pressure", "NoSchedule");
    add("node.kubernetes.io/pid-pressure", "NoSchedule");
    add("node.kubernetes.io/unschedulable", "NoSchedule");
    if spec.host_network {
        add("node.kubernetes.io/network-unavailable", "NoSchedule");
    }
}

/// `ReplaceDaemonSetPodNodeNameNodeAffinity`: the required node affinity becomes one
/// term, `metadata.name In [node]` (the template's preferred terms are kept).
pub fn replace_node_name_affinity(affinity: Option<Affinity>, node: &str) -> Affinity {
    let mut a = affinity.unwrap_or_default();
    let mut na = a.node_affinity.take().unwrap_or_default();
    na.required = Some(NodeSelector {
        node_selector_terms: vec![NodeSelectorTerm {
            match_fields: vec![NodeSelectorRequirement {
                key: "metadata.name".into(),
                operator: "In".into(),
                values: vec![node.into()],
            }],
            ..Default::default()
        }],
    });
    a.node_affinity = Some(na);
    a
}

/// The node a daemon Pod is for: its nodeName, else its pinned `metadata.name`
/// (`GetTargetNodeName`).
pub(super) fn target_node(p: &Pod) -> Option<String> {
    if !p.spec.node_name.is_empty() {
        return Some(p.spec.node_name.clone());
    }
    crate::api::node_affinity::node_name_prefilter(p).and_then(|names| names.into_iter().next())
}

/// `IsPodUpdated`: the Pod carries the current hash or template generation.
pub(super) fn is_pod_updated(p: &Pod, hash: &str, generation: Option<&String>) -> bool {
    let labels = &p.metadata.labels;
    labels.get(CONTROLLER_REVISION_HASH).map(String::as_str) == Some(hash)
        || generation.is_some_and(|g| labels.get(POD_TEMPLATE_GENERATION) == Some(g))
}

/// `AllowsSurge`: a rolling update with a maxSurge other than 0.
pub(super) fn allows_surge(ds: &DaemonSet) -> bool {
    ds.spec.update_strategy.type_ == "RollingUpdate"
        && ds
            .spec
            .update_strategy
            .rolling_update
            .as_ref()
            .is_some_and(|r| {
                r.max_surge != IntOrString::Int(0)
                    && r.max_surge != IntOrString::String("0%".into())
            })
}
