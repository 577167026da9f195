//! `core/v1`'s scheduling vocabulary: taints and tolerations, node selectors and
//! affinity, pod (anti-)affinity, topology spread constraints.

use super::*;
use serde::{Deserialize, Serialize};

/// `v1.Toleration`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Toleration {
    /// Taint key; empty with `Exists` tolerates every taint.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub key: String,
    /// `Equal` (default) or `Exists`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub operator: String,
    /// Value for `Equal`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub value: String,
    /// Effect to tolerate; empty means all effects.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub effect: String,
    /// For NoExecute: how long the Pod stays after the taint appears.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toleration_seconds: Option<i64>,
}

impl Toleration {
    /// `v1.Toleration.ToleratesTaint`.
    pub fn tolerates(&self, taint: &Taint) -> bool {
        if !self.effect.is_empty() && self.effect != taint.effect {
            return false;
        }
        if !self.key.is_empty() && self.key != taint.key {
            return false;
        }
        match self.operator.as_str() {
            "Exists" => true,
            "" | "Equal" => self.value == taint.value,
            _ => false,
        }
    }
}

/// `v1.Taint`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Taint {
    /// Taint key.
    #[serde(default)]
    pub key: String,
    /// Optional value.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub value: String,
    /// `NoSchedule`, `PreferNoSchedule` or `NoExecute`.
    #[serde(default)]
    pub effect: String,
    /// When a NoExecute taint was added (set by the node lifecycle controller).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_added: Option<String>,
    /// Simulated ms behind `time_added` (not part of the API shape).
    #[serde(skip)]
    pub added_ms: u64,
}

impl std::fmt::Display for Taint {
    /// `key=value:Effect`, or `key:Effect` without a value (as kubectl prints taints).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.value.is_empty() {
            write!(f, "{}:{}", self.key, self.effect)
        } else {
            write!(f, "{}={}:{}", self.key, self.value, self.effect)
        }
    }
}

/// `v1.NodeSelectorRequirement`: In, NotIn, Exists, DoesNotExist, Gt, Lt.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NodeSelectorRequirement {
    /// Label key.
    #[serde(default)]
    pub key: String,
    /// Operator.
    #[serde(default)]
    pub operator: String,
    /// Values (one integer for Gt / Lt).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

impl NodeSelectorRequirement {
    /// Whether node labels satisfy it (`nodeaffinity.nodeSelectorRequirementsAsSelector`).
    pub fn matches(&self, labels: &StringMap) -> bool {
        let got = labels.get(&self.key);
        match self.operator.as_str() {
            "In" => got.is_some_and(|v| self.values.contains(v)),
            "NotIn" => got.is_none_or(|v| !self.values.contains(v)),
            "Exists" => got.is_some(),
            "DoesNotExist" => got.is_none(),
            "Gt" | "Lt" => {
                let (Some(v), Some(bound)) = (
                    got.and_then(|v| v.parse::<i64>().ok()),
                    self.values.first().and_then(|b| b.parse::<i64>().ok()),
                ) else {
                    return false;
                };
                if self.operator == "Gt" {
                    v > bound
                } else {
                    v < bound
                }
            }
            _ => false,
        }
    }
}

/// `v1.NodeSelectorTerm`: its requirements are ANDed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NodeSelectorTerm {
    /// Requirements on node labels.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_expressions: Vec<NodeSelectorRequirement>,
    /// Requirements on node fields: `metadata.name` is the one upstream supports (the
    /// DaemonSet controller pins its Pods with it).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_fields: Vec<NodeSelectorRequirement>,
    /// Unmodelled fields, kept as written.
    #[serde(flatten, deserialize_with = "super::extra::node_selector_term")]
    pub extra: super::extra::Extra,
}

impl NodeSelectorTerm {
    /// All label requirements hold, for a term without field requirements (an empty
    /// term matches nothing, as upstream).
    pub fn matches(&self, labels: &StringMap) -> bool {
        self.match_fields.is_empty()
            && !self.match_expressions.is_empty()
            && self.match_expressions.iter().all(|r| r.matches(labels))
    }

    /// All requirements hold for the node `name` with `labels` (`nodeaffinity`'s
    /// `nodeSelectorTerm.match`: expressions on labels, fields on `metadata.name`).
    pub fn matches_node(&self, name: &str, labels: &StringMap) -> bool {
        if self.match_expressions.is_empty() && self.match_fields.is_empty() {
            return false;
        }
        let mut fields = StringMap::new();
        fields.insert("metadata.name".into(), name.to_string());
        self.match_expressions.iter().all(|r| r.matches(labels))
            && self
                .match_fields
                .iter()
                .all(|r| r.key == "metadata.name" && r.matches(&fields))
    }
}

/// `v1.NodeSelector`: its terms are ORed.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NodeSelector {
    /// Terms.
    #[serde(default)]
    pub node_selector_terms: Vec<NodeSelectorTerm>,
}

/// `v1.PreferredSchedulingTerm`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PreferredSchedulingTerm {
    /// 1–100.
    #[serde(default)]
    pub weight: i64,
    /// The term.
    #[serde(default)]
    pub preference: NodeSelectorTerm,
}

/// `v1.NodeAffinity`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
pub struct NodeAffinity {
    /// Hard: some term must match.
    #[serde(
        rename = "requiredDuringSchedulingIgnoredDuringExecution",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub required: Option<NodeSelector>,
    /// Soft: matching terms add their weight to the node's score.
    #[serde(
        rename = "preferredDuringSchedulingIgnoredDuringExecution",
        default,
        skip_serializing_if = "Vec::is_empty"
    )]
    pub preferred: Vec<PreferredSchedulingTerm>,
}

/// `v1.PodAffinityTerm`: Pods matching `labelSelector` (in `namespaces`, default the
/// Pod's own) that run in the same `topologyKey` domain.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PodAffinityTerm {
    /// Which Pods count (none: no Pod).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
    /// Namespaces to look in (with no `namespaceSelector` either: the Pod's namespace).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub namespaces: Vec<String>,
    /// Namespaces whose labels match also count (`{}`: every namespace).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace_selector: Option<LabelSelector>,
    /// Node label whose value defines a domain (`kubernetes.io/hostname`, a zone...).
    #[serde(default)]
    pub topology_key: String,
    /// Unmodelled fields (`matchLabelKeys`, `mismatchLabelKeys`), kept as written.
    #[serde(flatten, deserialize_with = "super::extra::pod_affinity_term")]
    pub extra: super::extra::Extra,
}

/// `v1.WeightedPodAffinityTerm`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WeightedPodAffinityTerm {
    /// 1–100.
    #[serde(default)]
    pub weight: i64,
    /// The term.
    #[serde(default)]
    pub pod_affinity_term: PodAffinityTerm,
}

/// `v1.PodAffinity` and `v1.PodAntiAffinity` (same shape).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PodAffinity {
    /// Hard terms: all must hold.
    #[serde(
        rename = "requiredDuringSchedulingIgnoredDuringExecution",
        default,
        skip_serializing_if = "Vec::is_empty"
    )]
    pub required: Vec<PodAffinityTerm>,
    /// Soft terms: weights added (affinity) or subtracted (anti-affinity).
    #[serde(
        rename = "preferredDuringSchedulingIgnoredDuringExecution",
        default,
        skip_serializing_if = "Vec::is_empty"
    )]
    pub preferred: Vec<WeightedPodAffinityTerm>,
}

/// `v1.Affinity`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Affinity {
    /// Node affinity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_affinity: Option<NodeAffinity>,
    /// Inter-pod affinity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_affinity: Option<PodAffinity>,
    /// Inter-pod anti-affinity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_anti_affinity: Option<PodAffinity>,
}

/// `v1.TopologySpreadConstraint`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TopologySpreadConstraint {
    /// Largest allowed difference between a domain's matching Pods and the minimum.
    #[serde(default)]
    pub max_skew: i64,
    /// Node label whose value defines a domain.
    #[serde(default)]
    pub topology_key: String,
    /// `DoNotSchedule` (filter) or `ScheduleAnyway` (score).
    #[serde(default)]
    pub when_unsatisfiable: String,
    /// Which Pods count.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector: Option<LabelSelector>,
    /// Further fields kept as written: `matchLabelKeys` (read by the scheduler's
    /// spread), `minDomains`, `nodeAffinityPolicy`…
    #[serde(flatten, deserialize_with = "super::extra::topology_spread")]
    pub extra: super::extra::Extra,
}

impl TopologySpreadConstraint {
    /// `whenUnsatisfiable: DoNotSchedule`.
    pub fn is_hard(&self) -> bool {
        self.when_unsatisfiable == "DoNotSchedule"
    }
}
