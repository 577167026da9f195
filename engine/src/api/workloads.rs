//! `apps/v1`: Deployment, ReplicaSet and the pod template they share.

use super::{Condition, Container, LabelSelector, ObjectMeta, PodSpec, StringMap};
use serde::{Deserialize, Serialize};

// apps/v1's well-known label and annotation keys (`k8s.io/api/apps/v1/types.go`,
// `pkg/apis/apps`), shared by the DaemonSet and StatefulSet controllers and the API
// server's DaemonSet strategy.

/// The Pod label naming the template revision (`DefaultDaemonSetUniqueLabelKey`).
pub const CONTROLLER_REVISION_HASH: &str = "controller-revision-hash";
/// The Pod label naming the template generation (`DaemonSetTemplateGenerationKey`).
pub const POD_TEMPLATE_GENERATION: &str = "pod-template-generation";
/// The DaemonSet annotation the API server keeps (`apps.DeprecatedTemplateGeneration`) at the template's generation.
pub const TEMPLATE_GENERATION_ANNOTATION: &str = "deprecated.daemonset.template.generation";

fn is_zero(v: &i64) -> bool {
    *v == 0
}
fn is_false(v: &bool) -> bool {
    !*v
}

/// `v1.PodTemplateSpec`: metadata (labels) and spec of the Pods to create.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PodTemplateSpec {
    /// Template metadata (labels, annotations).
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Template Pod spec.
    #[serde(default)]
    pub spec: PodSpec,
}

/// An `IntOrString` for maxSurge / maxUnavailable (`1` or `"25%"`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(untagged)]
pub enum IntOrString {
    /// An absolute number.
    Int(i64),
    /// A string, normally a percentage such as `25%`.
    String(String),
}

/// Go's zero value: the integer 0 (a probe's missing `port`).
impl Default for IntOrString {
    fn default() -> Self {
        IntOrString::Int(0)
    }
}

impl IntOrString {
    /// `intstr.GetScaledValueFromIntOrPercent`: resolve against `total`, rounding up or
    /// down as asked. `None` for a malformed string.
    ///
    /// Why i128: a percentage is a string, so validation does not bound it to int32
    /// (`maxSurge: "9223372036854775807%"` is valid upstream); the product is computed
    /// wide and the result saturates at the i64 range instead of overflowing.
    pub fn scaled_value(&self, total: i64, round_up: bool) -> Option<i64> {
        match self {
            IntOrString::Int(v) => Some(*v),
            IntOrString::String(s) => {
                let p: i64 = s.strip_suffix('%')?.parse().ok()?;
                let prod = i128::from(p) * i128::from(total);
                let v = if round_up {
                    (prod + 99).div_euclid(100)
                } else {
                    prod.div_euclid(100)
                };
                Some(i64::try_from(v).unwrap_or(if v < 0 { i64::MIN } else { i64::MAX }))
            }
        }
    }
}

impl std::fmt::Display for IntOrString {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            IntOrString::Int(v) => write!(f, "{v}"),
            IntOrString::String(s) => write!(f, "{s}"),
        }
    }
}

/// `apps/v1.RollingUpdateDeployment`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdateDeployment {
    /// Pods that may be unavailable during the update (default 25%, rounded down).
    #[serde(default = "default_quarter")]
    pub max_unavailable: IntOrString,
    /// Pods that may exist above replicas during the update (default 25%, rounded up).
    #[serde(default = "default_quarter")]
    pub max_surge: IntOrString,
}

fn default_quarter() -> IntOrString {
    IntOrString::String("25%".into())
}

impl Default for RollingUpdateDeployment {
    fn default() -> Self {
        RollingUpdateDeployment {
            max_unavailable: default_quarter(),
            max_surge: default_quarter(),
        }
    }
}

/// `apps/v1.DeploymentStrategy`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DeploymentStrategy {
    /// `RollingUpdate` (default) or `Recreate`.
    #[serde(rename = "type", default = "default_strategy_type")]
    pub type_: String,
    /// Parameters for RollingUpdate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdateDeployment>,
}

fn default_strategy_type() -> String {
    "RollingUpdate".into()
}

impl Default for DeploymentStrategy {
    fn default() -> Self {
        DeploymentStrategy {
            type_: default_strategy_type(),
            rolling_update: Some(RollingUpdateDeployment::default()),
        }
    }
}

fn default_one() -> i64 {
    1
}
fn default_history() -> i64 {
    10
}
fn default_deadline() -> i64 {
    600
}

/// `apps/v1.DeploymentSpec` with upstream defaults applied on deserialization.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DeploymentSpec {
    /// Desired Pods (default 1).
    #[serde(default = "default_one")]
    pub replicas: i64,
    /// Which Pods belong to this Deployment; must match the template labels.
    #[serde(default)]
    pub selector: LabelSelector,
    /// The Pods to run.
    #[serde(default)]
    pub template: PodTemplateSpec,
    /// How a new template replaces the old one.
    #[serde(default)]
    pub strategy: DeploymentStrategy,
    /// Seconds a Pod must be Ready before it counts as available.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub min_ready_seconds: i64,
    /// Old ReplicaSets kept for rollback (default 10).
    #[serde(default = "default_history")]
    pub revision_history_limit: i64,
    /// Seconds without progress before `ProgressDeadlineExceeded` (default 600).
    #[serde(default = "default_deadline")]
    pub progress_deadline_seconds: i64,
    /// A paused Deployment only scales; template changes start no rollout.
    #[serde(default, skip_serializing_if = "is_false")]
    pub paused: bool,
}

impl Default for DeploymentSpec {
    fn default() -> Self {
        DeploymentSpec {
            replicas: 1,
            selector: LabelSelector::default(),
            template: PodTemplateSpec::default(),
            strategy: DeploymentStrategy::default(),
            min_ready_seconds: 0,
            revision_history_limit: 10,
            progress_deadline_seconds: 600,
            paused: false,
        }
    }
}

/// `apps/v1.DeploymentStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DeploymentStatus {
    /// The generation this status describes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub observed_generation: i64,
    /// Σ ReplicaSet status.replicas.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub replicas: i64,
    /// Pods of the new ReplicaSet.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub updated_replicas: i64,
    /// Σ ready Pods.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ready_replicas: i64,
    /// Σ available Pods.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub available_replicas: i64,
    /// max(0, Σ ReplicaSet spec.replicas − available).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unavailable_replicas: i64,
    /// Progressing / Available / ReplicaFailure.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// Bumped on pod-template-hash collisions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i64>,
}

/// `apps/v1.Deployment`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Deployment {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: DeploymentSpec,
    /// What is seen.
    #[serde(default)]
    pub status: DeploymentStatus,
}

impl Deployment {
    /// What `kubectl create deployment NAME --image=IMAGE --replicas=N -n NS` generates:
    /// label `app=NAME` on the Deployment, its selector and its template, and one
    /// container named after the image (`registry/nginx:1.27` → `nginx`).
    pub fn create(name: &str, namespace: &str, image: &str, replicas: i64) -> Deployment {
        let mut labels = StringMap::new();
        labels.insert("app".into(), name.into());
        let container = image
            .rsplit('/')
            .next()
            .and_then(|s| s.split([':', '@']).next())
            .unwrap_or("app")
            .to_string();
        Deployment {
            metadata: ObjectMeta {
                name: name.into(),
                namespace: namespace.into(),
                labels: labels.clone(),
                ..Default::default()
            },
            spec: DeploymentSpec {
                replicas,
                selector: LabelSelector::from_labels(&labels),
                template: PodTemplateSpec {
                    metadata: ObjectMeta {
                        labels,
                        ..Default::default()
                    },
                    spec: PodSpec {
                        containers: vec![Container {
                            name: container,
                            image: image.into(),
                            ..Default::default()
                        }],
                        ..Default::default()
                    },
                },
                ..Default::default()
            },
            status: DeploymentStatus::default(),
        }
    }
}

/// `policy/v1.PodDisruptionBudgetSpec`: one of minAvailable / maxUnavailable.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PodDisruptionBudgetSpec {
    /// Pods that must stay available (number or percentage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_available: Option<IntOrString>,
    /// Pods that may be unavailable (number or percentage).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_unavailable: Option<IntOrString>,
    /// The Pods it protects.
    #[serde(default)]
    pub selector: LabelSelector,
    /// Unmodelled fields (`unhealthyPodEvictionPolicy`), kept as written.
    #[serde(flatten, deserialize_with = "super::extra::pdb_spec")]
    pub extra: super::extra::Extra,
}

/// `policy/v1.PodDisruptionBudgetStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PodDisruptionBudgetStatus {
    /// The generation this status describes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub observed_generation: i64,
    /// Evictions the budget allows now.
    #[serde(default)]
    pub disruptions_allowed: i64,
    /// Ready Pods it selects.
    #[serde(default)]
    pub current_healthy: i64,
    /// Ready Pods it requires.
    #[serde(default)]
    pub desired_healthy: i64,
    /// Pods it expects (from their controllers' scale).
    #[serde(default)]
    pub expected_pods: i64,
    /// DisruptionAllowed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

/// `policy/v1.PodDisruptionBudget`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PodDisruptionBudget {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: PodDisruptionBudgetSpec,
    /// What is seen.
    #[serde(default)]
    pub status: PodDisruptionBudgetStatus,
}

/// `scheduling.k8s.io/v1.PriorityClass`: a name for a Pod priority. The Priority
/// admission plugin copies `value` and `preemptionPolicy` into Pods that name it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PriorityClass {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The priority (higher schedules first and may preempt lower).
    #[serde(default)]
    pub value: i64,
    /// Pods without a class get this one's value.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub global_default: bool,
    /// `PreemptLowerPriority` (default) or `Never`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub preemption_policy: String,
    /// Free text.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
}

/// `apps/v1.ReplicaSetSpec`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetSpec {
    /// Desired Pods (default 1).
    #[serde(default = "default_one")]
    pub replicas: i64,
    /// Seconds a Pod must be Ready before it counts as available.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub min_ready_seconds: i64,
    /// Which Pods belong to this ReplicaSet.
    #[serde(default)]
    pub selector: LabelSelector,
    /// The Pods to create.
    #[serde(default)]
    pub template: PodTemplateSpec,
}

impl Default for ReplicaSetSpec {
    fn default() -> Self {
        ReplicaSetSpec {
            replicas: 1,
            min_ready_seconds: 0,
            selector: LabelSelector::default(),
            template: PodTemplateSpec::default(),
        }
    }
}

/// `apps/v1.ReplicaSetStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSetStatus {
    /// Active Pods (not terminating, not terminal).
    #[serde(default)]
    pub replicas: i64,
    /// Pods whose labels match the template labels.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fully_labeled_replicas: i64,
    /// Ready Pods.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ready_replicas: i64,
    /// Pods Ready for at least minReadySeconds.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub available_replicas: i64,
    /// The generation this status describes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub observed_generation: i64,
    /// ReplicaFailure.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

/// `apps/v1.ReplicaSet`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ReplicaSet {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: ReplicaSetSpec,
    /// What is seen.
    #[serde(default)]
    pub status: ReplicaSetStatus,
}

/// `apps/v1.RollingUpdateDaemonSet`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdateDaemonSet {
    /// Nodes whose Pod may be unavailable during the update (default 1).
    #[serde(default = "default_one_int")]
    pub max_unavailable: IntOrString,
    /// Nodes that may run an old and a new Pod at once (default 0).
    #[serde(default = "default_zero_int")]
    pub max_surge: IntOrString,
}

fn default_one_int() -> IntOrString {
    IntOrString::Int(1)
}
fn default_zero_int() -> IntOrString {
    IntOrString::Int(0)
}

impl Default for RollingUpdateDaemonSet {
    fn default() -> Self {
        RollingUpdateDaemonSet {
            max_unavailable: default_one_int(),
            max_surge: default_zero_int(),
        }
    }
}

/// `apps/v1.DaemonSetUpdateStrategy`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetUpdateStrategy {
    /// `RollingUpdate` (default) or `OnDelete`.
    #[serde(rename = "type", default = "default_strategy_type")]
    pub type_: String,
    /// Parameters for RollingUpdate.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdateDaemonSet>,
}

impl Default for DaemonSetUpdateStrategy {
    fn default() -> Self {
        DaemonSetUpdateStrategy {
            type_: default_strategy_type(),
            rolling_update: Some(RollingUpdateDaemonSet::default()),
        }
    }
}

/// `apps/v1.DaemonSetSpec`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetSpec {
    /// Which Pods belong to it; must match the template labels.
    #[serde(default)]
    pub selector: LabelSelector,
    /// The Pod each eligible node runs.
    #[serde(default)]
    pub template: PodTemplateSpec,
    /// How a template change reaches the nodes.
    #[serde(default)]
    pub update_strategy: DaemonSetUpdateStrategy,
    /// Seconds a new Pod must be Ready to count as available.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub min_ready_seconds: i64,
    /// Old ControllerRevisions kept (default 10).
    #[serde(default = "default_history")]
    pub revision_history_limit: i64,
}

impl Default for DaemonSetSpec {
    fn default() -> Self {
        DaemonSetSpec {
            selector: LabelSelector::default(),
            template: PodTemplateSpec::default(),
            update_strategy: DaemonSetUpdateStrategy::default(),
            min_ready_seconds: 0,
            revision_history_limit: default_history(),
        }
    }
}

/// `apps/v1.DaemonSetStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DaemonSetStatus {
    /// Nodes running at least one daemon Pod that should.
    #[serde(default)]
    pub current_number_scheduled: i64,
    /// Nodes running a daemon Pod that should not.
    #[serde(default)]
    pub number_misscheduled: i64,
    /// Nodes that should run the daemon Pod.
    #[serde(default)]
    pub desired_number_scheduled: i64,
    /// Nodes whose daemon Pod is Ready.
    #[serde(default)]
    pub number_ready: i64,
    /// The generation this status describes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub observed_generation: i64,
    /// Nodes running the updated daemon Pod.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub updated_number_scheduled: i64,
    /// Nodes whose daemon Pod is available.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub number_available: i64,
    /// Nodes whose daemon Pod is missing or unavailable.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub number_unavailable: i64,
}

/// `apps/v1.DaemonSet`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct DaemonSet {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: DaemonSetSpec,
    /// What is seen.
    #[serde(default)]
    pub status: DaemonSetStatus,
}

/// `apps/v1.StatefulSetSpec` with upstream defaults applied on deserialization.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetSpec {
    /// Desired Pods (default 1).
    #[serde(default = "default_one")]
    pub replicas: i64,
    /// Which Pods belong to it; must match the template labels.
    #[serde(default)]
    pub selector: LabelSelector,
    /// The Pods to run.
    #[serde(default)]
    pub template: PodTemplateSpec,
    /// Claims each Pod gets, named `<template>-<set>-<ordinal>`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub volume_claim_templates: Vec<super::PersistentVolumeClaim>,
    /// The governing (headless) Service: the Pods' DNS subdomain.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub service_name: String,
    /// `OrderedReady` (default) or `Parallel`.
    #[serde(default = "default_ordered_ready")]
    pub pod_management_policy: String,
    /// How a new template replaces the old one.
    #[serde(default)]
    pub update_strategy: StatefulSetUpdateStrategy,
    /// Revisions kept (default 10).
    #[serde(default = "default_history")]
    pub revision_history_limit: i64,
    /// Seconds a Pod must be Ready to count as available.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub min_ready_seconds: i64,
    /// What happens to the claims when the set is deleted or scaled down.
    #[serde(default)]
    pub persistent_volume_claim_retention_policy: StatefulSetPersistentVolumeClaimRetentionPolicy,
    /// The first ordinal (default 0).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ordinals: Option<StatefulSetOrdinals>,
}

fn default_ordered_ready() -> String {
    "OrderedReady".into()
}
fn default_retain() -> String {
    "Retain".into()
}

impl Default for StatefulSetSpec {
    fn default() -> Self {
        StatefulSetSpec {
            replicas: 1,
            selector: LabelSelector::default(),
            template: PodTemplateSpec::default(),
            volume_claim_templates: Vec::new(),
            service_name: String::new(),
            pod_management_policy: default_ordered_ready(),
            update_strategy: StatefulSetUpdateStrategy::default(),
            revision_history_limit: default_history(),
            min_ready_seconds: 0,
            persistent_volume_claim_retention_policy: Default::default(),
            ordinals: None,
        }
    }
}

impl StatefulSetSpec {
    /// `getStartOrdinal`.
    pub fn start_ordinal(&self) -> i64 {
        self.ordinals.as_ref().map_or(0, |o| o.start)
    }
    /// The RollingUpdate partition (0 when unset).
    pub fn partition(&self) -> i64 {
        self.update_strategy
            .rolling_update
            .as_ref()
            .map_or(0, |r| r.partition)
    }
}

/// `apps/v1.StatefulSetOrdinals`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetOrdinals {
    /// The first replica's ordinal.
    #[serde(default)]
    pub start: i64,
}

/// `apps/v1.StatefulSetPersistentVolumeClaimRetentionPolicy`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetPersistentVolumeClaimRetentionPolicy {
    /// `Retain` (default) or `Delete`: the claims when the set is deleted.
    #[serde(default = "default_retain")]
    pub when_deleted: String,
    /// `Retain` (default) or `Delete`: a claim when its Pod is scaled away.
    #[serde(default = "default_retain")]
    pub when_scaled: String,
}

impl Default for StatefulSetPersistentVolumeClaimRetentionPolicy {
    fn default() -> Self {
        StatefulSetPersistentVolumeClaimRetentionPolicy {
            when_deleted: default_retain(),
            when_scaled: default_retain(),
        }
    }
}

/// `apps/v1.StatefulSetUpdateStrategy`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetUpdateStrategy {
    /// `RollingUpdate` (default) or `OnDelete`.
    #[serde(rename = "type", default = "default_strategy_type")]
    pub type_: String,
    /// Parameters of `RollingUpdate`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rolling_update: Option<RollingUpdateStatefulSetStrategy>,
}

impl Default for StatefulSetUpdateStrategy {
    fn default() -> Self {
        StatefulSetUpdateStrategy {
            type_: default_strategy_type(),
            rolling_update: Some(RollingUpdateStatefulSetStrategy::default()),
        }
    }
}

/// `apps/v1.RollingUpdateStatefulSetStrategy`. `maxUnavailable` is behind the alpha
/// gate `MaxUnavailableStatefulSet` (off in v1.33), so the API server drops it and it
/// is not modelled: a rolling update replaces one Pod at a time.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RollingUpdateStatefulSetStrategy {
    /// Ordinals below it keep the current revision.
    #[serde(default)]
    pub partition: i64,
}

/// `apps/v1.StatefulSetStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatefulSetStatus {
    /// The generation this status describes.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub observed_generation: i64,
    /// Pods created by the controller.
    #[serde(default)]
    pub replicas: i64,
    /// Pods with a Ready condition.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub ready_replicas: i64,
    /// Pods at the current revision.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub current_replicas: i64,
    /// Pods at the update revision.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub updated_replicas: i64,
    /// The revision of the Pods before the update.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub current_revision: String,
    /// The revision of the template now.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub update_revision: String,
    /// Bumped on revision-name collisions. The StatefulSet controller writes it on
    /// every status update (`status.CollisionCount = new(int32)`), so a synced set
    /// always carries it, 0 included; None until then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collision_count: Option<i64>,
    /// Pods Ready for minReadySeconds.
    #[serde(default)]
    pub available_replicas: i64,
}

/// `apps/v1.StatefulSet`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StatefulSet {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: StatefulSetSpec,
    /// What is seen.
    #[serde(default)]
    pub status: StatefulSetStatus,
}

/// `apps/v1.ControllerRevision`: one immutable snapshot of a StatefulSet's (or a
/// DaemonSet's) template, the history `rollout undo` goes back to.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ControllerRevision {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The patch that restores the template: `{"spec":{"template":{…,"$patch":"replace"}}}`.
    #[serde(default)]
    pub data: serde_json::Value,
    /// The revision number, increasing.
    #[serde(default)]
    pub revision: i64,
}
