//! `autoscaling/v2`: HorizontalPodAutoscaler.
//!
//! Upstream: `k8s.io/api/autoscaling/v2/types.go`; defaults from
//! `pkg/apis/autoscaling/v2/defaults.go` (minReplicas 1, a CPU target of 80% when no
//! metric is given, and — only when `behavior` is written — its scale-up and
//! scale-down rules). Only Resource metrics are computed; the other metric sources
//! are kept as written.

use super::{Condition, ObjectMeta};
use serde::{Deserialize, Serialize};

fn is_zero(v: &i64) -> bool {
    *v == 0
}

/// `autoscaling/v2.CrossVersionObjectReference`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CrossVersionObjectReference {
    /// e.g. `apps/v1`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// e.g. `Deployment`.
    #[serde(default)]
    pub kind: String,
    /// The target's name.
    #[serde(default)]
    pub name: String,
}

/// `autoscaling/v2.MetricTarget`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MetricTarget {
    /// `Utilization`, `Value` or `AverageValue`.
    #[serde(rename = "type", default)]
    pub type_: String,
    /// Percent of the Pods' requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_utilization: Option<i64>,
    /// A quantity per Pod.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_value: Option<String>,
    /// A total quantity.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// `autoscaling/v2.ResourceMetricSource`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResourceMetricSource {
    /// `cpu` or `memory`.
    #[serde(default)]
    pub name: String,
    /// The target.
    #[serde(default)]
    pub target: MetricTarget,
}

/// `autoscaling/v2.MetricSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MetricSpec {
    /// `Resource`, `Pods`, `Object`, `External` or `ContainerResource`.
    #[serde(rename = "type", default)]
    pub type_: String,
    /// A resource of the Pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<ResourceMetricSource>,
    /// Other sources, kept as written (not computed here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pods: Option<serde_json::Value>,
    /// An object's metric (kept as written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object: Option<serde_json::Value>,
    /// An external metric (kept as written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub external: Option<serde_json::Value>,
    /// A container's resource (kept as written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_resource: Option<serde_json::Value>,
}

/// `autoscaling/v2.HPAScalingPolicy`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HpaScalingPolicy {
    /// `Pods` or `Percent`.
    #[serde(rename = "type", default)]
    pub type_: String,
    /// How many Pods, or what percent.
    #[serde(default)]
    pub value: i64,
    /// The window the change is counted over.
    #[serde(default)]
    pub period_seconds: i64,
}

/// `autoscaling/v2.HPAScalingRules`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HpaScalingRules {
    /// Recommendations looked back over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stabilization_window_seconds: Option<i64>,
    /// `Max` (default), `Min` or `Disabled`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub select_policy: Option<String>,
    /// The rate limits.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub policies: Vec<HpaScalingPolicy>,
}

/// `autoscaling/v2.HorizontalPodAutoscalerBehavior`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HorizontalPodAutoscalerBehavior {
    /// Rules when scaling up.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_up: Option<HpaScalingRules>,
    /// Rules when scaling down.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale_down: Option<HpaScalingRules>,
}

/// `autoscaling/v2.HorizontalPodAutoscalerSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HorizontalPodAutoscalerSpec {
    /// What it scales.
    #[serde(default)]
    pub scale_target_ref: CrossVersionObjectReference,
    /// Lower bound (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_replicas: Option<i64>,
    /// Upper bound.
    #[serde(default)]
    pub max_replicas: i64,
    /// What it measures.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub metrics: Vec<MetricSpec>,
    /// How fast it may move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub behavior: Option<HorizontalPodAutoscalerBehavior>,
}

/// `autoscaling/v2.MetricValueStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MetricValueStatus {
    /// Percent of the Pods' requests.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_utilization: Option<i64>,
    /// A quantity per Pod.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub average_value: Option<String>,
}

/// `autoscaling/v2.ResourceMetricStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ResourceMetricStatus {
    /// `cpu` or `memory`.
    #[serde(default)]
    pub name: String,
    /// What was measured.
    #[serde(default)]
    pub current: MetricValueStatus,
}

/// `autoscaling/v2.MetricStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MetricStatus {
    /// The metric's source type.
    #[serde(rename = "type", default)]
    pub type_: String,
    /// A resource's reading.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub resource: Option<ResourceMetricStatus>,
}

/// `autoscaling/v2.HorizontalPodAutoscalerStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HorizontalPodAutoscalerStatus {
    /// The generation this status describes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub observed_generation: Option<i64>,
    /// When it last changed the target's size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_scale_time: Option<String>,
    /// The target's size when last read.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub current_replicas: i64,
    /// The size it wants.
    #[serde(default)]
    pub desired_replicas: i64,
    /// The last readings.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub current_metrics: Vec<MetricStatus>,
    /// AbleToScale, ScalingActive, ScalingLimited.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

/// `autoscaling/v2.HorizontalPodAutoscaler`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct HorizontalPodAutoscaler {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: HorizontalPodAutoscalerSpec,
    /// What is seen.
    #[serde(default)]
    pub status: HorizontalPodAutoscalerStatus,
}

/// `SetDefaults_HorizontalPodAutoscaler`.
pub fn default_hpa(h: &mut HorizontalPodAutoscaler) {
    h.spec.min_replicas.get_or_insert(1);
    if h.spec.metrics.is_empty() {
        h.spec.metrics.push(MetricSpec {
            type_: "Resource".into(),
            resource: Some(ResourceMetricSource {
                name: "cpu".into(),
                target: MetricTarget {
                    type_: "Utilization".into(),
                    average_utilization: Some(80),
                    ..Default::default()
                },
            }),
            ..Default::default()
        });
    }
    if let Some(b) = &mut h.spec.behavior {
        // `GenerateHPAScaleUpRules` / `GenerateHPAScaleDownRules`: the written fields
        // over the defaults (the scale-down window stays unset: the controller's
        // --horizontal-pod-autoscaler-downscale-stabilization, 5 min, applies).
        let up = b.scale_up.take().unwrap_or_default();
        b.scale_up = Some(HpaScalingRules {
            stabilization_window_seconds: up.stabilization_window_seconds.or(Some(0)),
            select_policy: up.select_policy.or(Some("Max".into())),
            policies: if up.policies.is_empty() {
                vec![
                    HpaScalingPolicy {
                        type_: "Pods".into(),
                        value: 4,
                        period_seconds: 15,
                    },
                    HpaScalingPolicy {
                        type_: "Percent".into(),
                        value: 100,
                        period_seconds: 15,
                    },
                ]
            } else {
                up.policies
            },
        });
        let down = b.scale_down.take().unwrap_or_default();
        b.scale_down = Some(HpaScalingRules {
            stabilization_window_seconds: down.stabilization_window_seconds,
            select_policy: down.select_policy.or(Some("Max".into())),
            policies: if down.policies.is_empty() {
                vec![HpaScalingPolicy {
                    type_: "Percent".into(),
                    value: 100,
                    period_seconds: 15,
                }]
            } else {
                down.policies
            },
        });
    }
}
