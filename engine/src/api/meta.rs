//! `metav1`: ObjectMeta, OwnerReference, LabelSelector, Condition helpers.

use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Labels and annotations: sorted so that output order never depends on hashing.
pub type StringMap = BTreeMap<String, String>;

fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// `metav1.ObjectMeta`: the part every object has.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ObjectMeta {
    /// Unique within the namespace and kind.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Prefix the API server completes with 5 random characters when `name` is empty.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub generate_name: String,
    /// Namespace; empty for cluster-scoped kinds (Node).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Identity of this incarnation of the object (a new object gets a new uid).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// Store revision of the last write (opaque to clients, monotonically increasing here).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
    /// Incremented by the API server on every spec change.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub generation: i64,
    /// When the API server created the object (RFC 3339, on the cluster's clock).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub creation_timestamp: String,
    /// Set when a graceful deletion or a finalizer holds the object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_timestamp: Option<String>,
    /// The grace period granted with the deletion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deletion_grace_period_seconds: Option<i64>,
    /// Identifying labels (selectors match these).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub labels: StringMap,
    /// Non-identifying metadata (revision numbers, change causes…).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub annotations: StringMap,
    /// Owners; at most one has `controller: true`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub owner_references: Vec<OwnerReference>,
    /// Finalizers that must be removed before the object goes away.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub finalizers: Vec<String>,
    /// Simulated milliseconds behind `creation_timestamp` (not part of the API shape).
    #[serde(skip)]
    pub created_ms: u64,
    /// Simulated milliseconds behind `deletion_timestamp` (not part of the API shape).
    #[serde(skip)]
    pub deletion_ms: Option<u64>,
}

impl ObjectMeta {
    /// The controller ownerReference, if any (`metav1.GetControllerOf`).
    pub fn controller_ref(&self) -> Option<&OwnerReference> {
        self.owner_references
            .iter()
            .find(|r| r.controller == Some(true))
    }

    /// True once a deletion has been requested.
    pub fn is_deleting(&self) -> bool {
        self.deletion_ms.is_some()
    }
}

/// `metav1.OwnerReference`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct OwnerReference {
    /// API version of the owner, e.g. `apps/v1`.
    #[serde(default)]
    pub api_version: String,
    /// Kind of the owner, e.g. `ReplicaSet`.
    #[serde(default)]
    pub kind: String,
    /// Name of the owner.
    #[serde(default)]
    pub name: String,
    /// Uid of the owner: the reference is to this incarnation only.
    #[serde(default)]
    pub uid: String,
    /// True for the managing controller.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub controller: Option<bool>,
    /// With foreground deletion, the owner waits for this dependent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block_owner_deletion: Option<bool>,
}

/// One `matchExpressions` requirement of a label selector.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LabelSelectorRequirement {
    /// Label key.
    #[serde(default)]
    pub key: String,
    /// `In`, `NotIn`, `Exists` or `DoesNotExist`.
    #[serde(default)]
    pub operator: String,
    /// Values for `In` / `NotIn`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub values: Vec<String>,
}

/// `metav1.LabelSelector`: matchLabels AND matchExpressions.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct LabelSelector {
    /// Exact key=value pairs, all required.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub match_labels: StringMap,
    /// Set-based requirements, all required.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_expressions: Vec<LabelSelectorRequirement>,
}

impl LabelSelector {
    /// A selector made of `matchLabels` only.
    pub fn from_labels(labels: &StringMap) -> Self {
        LabelSelector {
            match_labels: labels.clone(),
            match_expressions: vec![],
        }
    }

    /// True when the selector has no requirement (it selects everything, which
    /// controllers refuse: `SelectingAll`).
    pub fn is_empty(&self) -> bool {
        self.match_labels.is_empty() && self.match_expressions.is_empty()
    }

    /// `labels.Selector.Matches`: every requirement holds for `labels`.
    pub fn matches(&self, labels: &StringMap) -> bool {
        self.match_labels
            .iter()
            .all(|(k, v)| labels.get(k) == Some(v))
            && self.match_expressions.iter().all(|r| {
                let got = labels.get(&r.key);
                match r.operator.as_str() {
                    "In" => got.is_some_and(|v| r.values.contains(v)),
                    "NotIn" => got.is_none_or(|v| !r.values.contains(v)),
                    "Exists" => got.is_some(),
                    "DoesNotExist" => got.is_none(),
                    // Validation rejects other operators; an unknown one matches nothing.
                    _ => false,
                }
            })
    }

    /// kubectl's string form, e.g. `app=web,tier in (a,b)`.
    pub fn to_selector_string(&self) -> String {
        let mut parts: Vec<String> = self
            .match_labels
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect();
        for r in &self.match_expressions {
            parts.push(match r.operator.as_str() {
                "In" => format!("{} in ({})", r.key, r.values.join(",")),
                "NotIn" => format!("{} notin ({})", r.key, r.values.join(",")),
                "Exists" => r.key.clone(),
                "DoesNotExist" => format!("!{}", r.key),
                op => format!("{} {op} ({})", r.key, r.values.join(",")),
            });
        }
        parts.join(",")
    }
}

/// A condition as every kind carries it (`type`, `status`, `reason`, `message`, times).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Condition {
    /// Condition type, e.g. `Ready`.
    #[serde(rename = "type")]
    #[serde(default)]
    pub type_: String,
    /// `True`, `False` or `Unknown`.
    #[serde(default)]
    pub status: String,
    /// Last time this condition was probed or heartbeated (Node conditions only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_heartbeat_time: Option<String>,
    /// Last time the condition was probed (Job conditions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_probe_time: Option<String>,
    /// Last time the status changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_transition_time: Option<String>,
    /// Last time the condition was updated (Deployment conditions only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_update_time: Option<String>,
    /// Machine-readable reason in CamelCase.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reason: String,
    /// Human-readable message.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// Simulated ms of the last transition (not part of the API shape).
    #[serde(skip)]
    pub transition_ms: u64,
    /// Simulated ms of the last update (Deployment conditions; not part of the API shape).
    #[serde(skip)]
    pub update_ms: u64,
}

/// Find a condition by type (a [`PodConditionType`], a [`NodeConditionType`] or a
/// workload's own type such as a Deployment's `Progressing`).
///
/// [`PodConditionType`]: super::PodConditionType
/// [`NodeConditionType`]: super::NodeConditionType
pub fn get_condition(conds: &[Condition], type_: impl AsRef<str>) -> Option<&Condition> {
    let type_ = type_.as_ref();
    conds.iter().find(|c| c.type_ == type_)
}

/// A Pod's `DisruptionTarget=True` condition: why the Pod is about to be deleted
/// (`PreemptionByScheduler`, `DeletionByTaintManager`, `EvictionByEvictionAPI`,
/// `DeletionByPodGC`), as every disrupting component sets it before deleting.
pub fn disruption_target(reason: &str, message: String, now: crate::time::SimTime) -> Condition {
    Condition {
        type_: super::PodConditionType::DisruptionTarget.into(),
        status: super::ConditionStatus::True.into(),
        last_transition_time: Some(crate::time::rfc3339(now)),
        reason: reason.into(),
        message,
        transition_ms: now,
        ..Default::default()
    }
}

/// Set a condition, keeping `lastTransitionTime` when the status does not change (as
/// upstream's `SetCondition` helpers do). Returns true if anything changed.
pub fn set_condition(conds: &mut Vec<Condition>, mut new: Condition) -> bool {
    if let Some(old) = conds.iter_mut().find(|c| c.type_ == new.type_) {
        if old.status == new.status {
            new.last_transition_time = old.last_transition_time.clone();
            new.transition_ms = old.transition_ms;
        }
        if *old == new {
            return false;
        }
        *old = new;
    } else {
        conds.push(new);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn labels(pairs: &[(&str, &str)]) -> StringMap {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn a_selector_needs_every_label_and_every_expression() {
        let sel = LabelSelector {
            match_labels: labels(&[("app", "web")]),
            match_expressions: vec![
                LabelSelectorRequirement {
                    key: "tier".into(),
                    operator: "In".into(),
                    values: vec!["a".into(), "b".into()],
                },
                LabelSelectorRequirement {
                    key: "canary".into(),
                    operator: "DoesNotExist".into(),
                    values: vec![],
                },
            ],
        };
        assert!(sel.matches(&labels(&[("app", "web"), ("tier", "b")])));
        assert!(!sel.matches(&labels(&[("app", "web"), ("tier", "c")])));
        assert!(!sel.matches(&labels(&[("app", "web"), ("tier", "a"), ("canary", "1")])));
        assert!(!sel.matches(&labels(&[("tier", "a")])));
        assert_eq!(sel.to_selector_string(), "app=web,tier in (a,b),!canary");
    }

    #[test]
    fn not_in_matches_a_missing_label() {
        let sel = LabelSelector {
            match_labels: StringMap::new(),
            match_expressions: vec![LabelSelectorRequirement {
                key: "env".into(),
                operator: "NotIn".into(),
                values: vec!["prod".into()],
            }],
        };
        assert!(sel.matches(&labels(&[])));
        assert!(!sel.matches(&labels(&[("env", "prod")])));
    }
}
