//! `batch/v1`: Job and CronJob.
//!
//! Upstream: `k8s.io/api/batch/v1/types.go`; defaults from `pkg/apis/batch/v1/defaults.go`
//! (applied by the API server's admission step, `apiserver::admission`, so a manifest
//! read back through `-o yaml` shows them as a real cluster stores them).

use super::{
    Condition, ConditionStatus, JobConditionType, LabelSelector, ObjectMeta, PodTemplateSpec,
};
use serde::{Deserialize, Serialize};

/// `batch/v1.Job`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Job {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: JobSpec,
    /// What is seen.
    #[serde(default, skip_serializing_if = "JobStatus::is_empty")]
    pub status: JobStatus,
}

/// `batch/v1.JobSpec`. Optional fields stay `Option` as upstream's pointers, so that
/// "unset" (e.g. `completions` of a work-queue Job) is distinct from zero.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct JobSpec {
    /// Pods running at once at most (default 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parallelism: Option<i64>,
    /// Successful Pods wanted (default 1 when parallelism is unset too; unset means
    /// "any one success, then no new Pods").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completions: Option<i64>,
    /// Seconds the Job may be active before it fails with `DeadlineExceeded`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub active_deadline_seconds: Option<i64>,
    /// Rules deciding what a Pod failure means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_failure_policy: Option<PodFailurePolicy>,
    /// Rules declaring the Job succeeded before every completion.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub success_policy: Option<SuccessPolicy>,
    /// Retries before the Job fails (default 6).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_limit: Option<i64>,
    /// Retries per index of an Indexed Job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backoff_limit_per_index: Option<i64>,
    /// Failed indexes before the Job fails (with `backoffLimitPerIndex`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_failed_indexes: Option<i64>,
    /// Which Pods are the Job's (generated from the uid unless `manualSelector`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    /// True: the user's selector is used as is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub manual_selector: Option<bool>,
    /// The Pods to run.
    #[serde(default)]
    pub template: PodTemplateSpec,
    /// Seconds after finishing that the TTL controller deletes the Job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ttl_seconds_after_finished: Option<i64>,
    /// `NonIndexed` (default) or `Indexed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_mode: Option<String>,
    /// True: no Pods run (active ones are deleted).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub suspend: Option<bool>,
    /// When a replacement Pod is created: `TerminatingOrFailed` (default) or `Failed`
    /// (the default with a podFailurePolicy).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pod_replacement_policy: Option<String>,
    /// The controller that manages this Job (only the built-in one is modelled).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub managed_by: Option<String>,
}

impl JobSpec {
    /// `spec.parallelism`, defaulted.
    pub fn parallelism(&self) -> i64 {
        self.parallelism.unwrap_or(1)
    }
    /// `spec.backoffLimit`, defaulted.
    pub fn backoff_limit(&self) -> i64 {
        self.backoff_limit.unwrap_or(6)
    }
    /// True for `completionMode: Indexed`.
    pub fn is_indexed(&self) -> bool {
        self.completion_mode.as_deref() == Some("Indexed")
    }
    /// True when `suspend: true`.
    pub fn is_suspended(&self) -> bool {
        self.suspend == Some(true)
    }
}

/// `batch/v1.PodFailurePolicy`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PodFailurePolicy {
    /// Checked in order; the first that matches decides.
    #[serde(default)]
    pub rules: Vec<PodFailurePolicyRule>,
}

/// `batch/v1.PodFailurePolicyRule`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PodFailurePolicyRule {
    /// `FailJob`, `FailIndex`, `Ignore` or `Count`.
    #[serde(default)]
    pub action: String,
    /// Matches on containers' exit codes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub on_exit_codes: Option<PodFailurePolicyOnExitCodesRequirement>,
    /// Matches on the Pod's conditions (e.g. `DisruptionTarget`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub on_pod_conditions: Vec<PodFailurePolicyOnPodConditionsPattern>,
}

/// `batch/v1.PodFailurePolicyOnExitCodesRequirement`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PodFailurePolicyOnExitCodesRequirement {
    /// Only this container's exit code (all containers when unset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub container_name: Option<String>,
    /// `In` or `NotIn`.
    #[serde(default)]
    pub operator: String,
    /// The exit codes.
    #[serde(default)]
    pub values: Vec<i64>,
}

/// `batch/v1.PodFailurePolicyOnPodConditionsPattern`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PodFailurePolicyOnPodConditionsPattern {
    /// The condition type.
    #[serde(rename = "type", default)]
    pub type_: String,
    /// The status it must have (default `True`).
    #[serde(default = "condition_true")]
    pub status: String,
}

fn condition_true() -> String {
    "True".into()
}

/// `batch/v1.SuccessPolicy`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SuccessPolicy {
    /// Any one rule met declares success.
    #[serde(default)]
    pub rules: Vec<SuccessPolicyRule>,
}

/// `batch/v1.SuccessPolicyRule`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct SuccessPolicyRule {
    /// Indexes that must have succeeded, e.g. `0,2-3`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub succeeded_indexes: Option<String>,
    /// How many (of those indexes, or of all) must have succeeded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub succeeded_count: Option<i64>,
}

/// `batch/v1.UncountedTerminatedPods`: the uids of finished Pods whose tracking
/// finalizer the controller is removing, before it adds them to the counters.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct UncountedTerminatedPods {
    /// Succeeded Pods' uids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub succeeded: Vec<String>,
    /// Failed Pods' uids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub failed: Vec<String>,
}

/// `batch/v1.JobStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct JobStatus {
    /// `Complete`, `Failed`, `Suspended`, `FailureTarget`, `SuccessCriteriaMet`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// When the controller first ran a Pod for it (reset by suspend).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_time: Option<String>,
    /// When it completed (success only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub completion_time: Option<String>,
    /// Pending or running Pods.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub active: i64,
    /// Succeeded Pods.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub succeeded: i64,
    /// Failed Pods.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failed: i64,
    /// Terminating Pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub terminating: Option<i64>,
    /// Ready Pods.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ready: Option<i64>,
    /// Indexed Jobs: the succeeded indexes, e.g. `0-2,4`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub completed_indexes: String,
    /// Indexed Jobs with backoffLimitPerIndex: the failed indexes.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed_indexes: Option<String>,
    /// Pods whose finish is being counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uncounted_terminated_pods: Option<UncountedTerminatedPods>,
    /// Simulated ms of `startTime` (not part of the API shape).
    #[serde(skip)]
    pub start_ms: Option<u64>,
    /// Simulated ms of `completionTime` (not part of the API shape).
    #[serde(skip)]
    pub completion_ms: Option<u64>,
}

fn is_zero(v: &i64) -> bool {
    *v == 0
}

impl JobStatus {
    /// True before the controller wrote anything.
    pub fn is_empty(&self) -> bool {
        *self == JobStatus::default()
    }
}

impl Job {
    /// The condition of `type_` when it is `True`.
    pub fn condition_true(&self, type_: JobConditionType) -> Option<&Condition> {
        self.status
            .conditions
            .iter()
            .find(|c| c.type_ == type_ && c.status == ConditionStatus::True)
    }

    /// `IsJobFinished`: `Complete` or `Failed` is True.
    pub fn is_finished(&self) -> Option<&Condition> {
        self.condition_true(JobConditionType::Complete)
            .or_else(|| self.condition_true(JobConditionType::Failed))
    }
}

/// `batch/v1.JobTemplateSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct JobTemplateSpec {
    /// Labels and annotations for the Jobs.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The Jobs' spec.
    #[serde(default)]
    pub spec: JobSpec,
}

/// `batch/v1.CronJob`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CronJob {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: CronJobSpec,
    /// What is seen.
    #[serde(default)]
    pub status: CronJobStatus,
}

/// `batch/v1.CronJobSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CronJobSpec {
    /// The schedule in cron format (five fields or a macro such as `@hourly`).
    #[serde(default)]
    pub schedule: String,
    /// The IANA time zone the schedule is read in (UTC when unset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
    /// A start later than this many seconds after its time is missed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub starting_deadline_seconds: Option<i64>,
    /// `Allow` (default), `Forbid` or `Replace`.
    #[serde(default)]
    pub concurrency_policy: String,
    /// True: no new Jobs.
    #[serde(default)]
    pub suspend: Option<bool>,
    /// The Jobs to create.
    #[serde(default)]
    pub job_template: JobTemplateSpec,
    /// Finished successful Jobs kept (default 3).
    #[serde(default)]
    pub successful_jobs_history_limit: Option<i64>,
    /// Finished failed Jobs kept (default 1).
    #[serde(default)]
    pub failed_jobs_history_limit: Option<i64>,
}

/// `v1.ObjectReference` as a CronJob lists its active Jobs.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct JobReference {
    /// `batch/v1`.
    #[serde(default)]
    pub api_version: String,
    /// `Job`.
    #[serde(default)]
    pub kind: String,
    /// The Job's name.
    #[serde(default)]
    pub name: String,
    /// Its namespace.
    #[serde(default)]
    pub namespace: String,
    /// Its resourceVersion when listed.
    #[serde(default)]
    pub resource_version: String,
    /// Its uid.
    #[serde(default)]
    pub uid: String,
}

/// `batch/v1.CronJobStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CronJobStatus {
    /// Jobs running now.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub active: Vec<JobReference>,
    /// The last time a Job was scheduled.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_schedule_time: Option<String>,
    /// The last time a Job completed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_successful_time: Option<String>,
}
