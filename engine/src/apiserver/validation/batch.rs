//! The batch API group (`pkg/apis/batch/validation/validation.go`): Jobs and
//! CronJobs (whose job template is a Job spec).

use super::meta::{go_map, go_selector, nonnegative};
use super::pod_spec::{validate_containers, validate_pod_spec_numbers, validate_scheduling};
use crate::api::*;

/// `ValidateJob` and, on update, `ValidateJobSpecUpdate`.
pub(super) fn validate_job(causes: &mut Vec<String>, j: &Job, old: Option<&Object>) {
    validate_job_spec(causes, "spec", &j.spec);
    if let Some(Object::Job(o)) = old {
        validate_job_update(causes, &j.spec, &o.spec);
    }
}

/// `validateJobSpec` (`pkg/apis/batch/validation/validation.go`): the counts are
/// non-negative, Indexed needs completions, the template needs containers, and the
/// restart policy is OnFailure or Never (Never with a podFailurePolicy). `at` is
/// `spec` or a CronJob's `spec.jobTemplate.spec`.
fn validate_job_spec(causes: &mut Vec<String>, at: &str, spec: &JobSpec) {
    for (f, v) in [
        ("parallelism", spec.parallelism),
        ("completions", spec.completions),
        ("activeDeadlineSeconds", spec.active_deadline_seconds),
        ("backoffLimit", spec.backoff_limit),
        ("ttlSecondsAfterFinished", spec.ttl_seconds_after_finished),
    ] {
        if let Some(v) = v {
            nonnegative(causes, &format!("{at}.{f}"), v);
        }
    }
    if let Some(mode) = &spec.completion_mode {
        if mode != "NonIndexed" && mode != "Indexed" {
            causes.push(format!(
                "{at}.completionMode: Unsupported value: \"{mode}\": supported values: \"NonIndexed\", \"Indexed\""
            ));
        }
        if mode == "Indexed" {
            // Completions have no bound of their own (only with backoffLimitPerIndex,
            // past 100,000): the controller keeps indexes as intervals, so 2,147,483,647
            // of them cost what their Pods do. Parallelism is capped, which caps the
            // length of `completedIndexes` (`maxParallelismForIndexedJob`).
            if spec.completions.is_none() {
                causes.push(format!(
                    "{at}.completions: Required value: when completion mode is Indexed"
                ));
            }
            if let Some(p) = spec.parallelism.filter(|p| *p > 100_000) {
                causes.push(format!(
                    "{at}.parallelism: Invalid value: {p}: must be less than or equal to 100000 when completion mode is Indexed"
                ));
            }
        }
    }
    if let Some(sp) = &spec.success_policy {
        if !spec.is_indexed() {
            causes.push(format!(
                "{at}.successPolicy: Invalid value: \"{}\": requires indexed completion mode",
                "NonIndexed"
            ));
        }
        if sp.rules.is_empty() {
            causes.push(format!(
                "{at}.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified"
            ));
        }
        for (i, r) in sp.rules.iter().enumerate() {
            if r.succeeded_count.is_none() && r.succeeded_indexes.is_none() {
                causes.push(format!(
                    "{at}.successPolicy.rules[{i}]: Required value: at least one of succeededCount or succeededIndexes must be specified"
                ));
            }
            if let Some(c) = r.succeeded_count {
                nonnegative(
                    causes,
                    &format!("{at}.successPolicy.rules[{i}].succeededCount"),
                    c,
                );
            }
        }
    }
    if let Some(pfp) = &spec.pod_failure_policy {
        for (i, r) in pfp.rules.iter().enumerate() {
            let p = format!("{at}.podFailurePolicy.rules[{i}]");
            if !["FailJob", "FailIndex", "Ignore", "Count"].contains(&r.action.as_str()) {
                causes.push(format!(
                    "{p}.action: Unsupported value: \"{}\": supported values: \"Count\", \"FailIndex\", \"FailJob\", \"Ignore\"",
                    r.action
                ));
            }
            match (&r.on_exit_codes, r.on_pod_conditions.is_empty()) {
                (Some(_), false) => causes.push(format!(
                    "{p}: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported"
                )),
                (None, true) => causes.push(format!(
                    "{p}: Invalid value: specifying one of OnExitCodes and OnPodConditions is required"
                )),
                _ => {}
            }
            if let Some(e) = &r.on_exit_codes {
                if e.operator != "In" && e.operator != "NotIn" {
                    causes.push(format!(
                        "{p}.onExitCodes.operator: Unsupported value: \"{}\": supported values: \"In\", \"NotIn\"",
                        e.operator
                    ));
                }
                if e.values.is_empty() {
                    causes.push(format!(
                        "{p}.onExitCodes.values: Invalid value: []int32{{}}: at least one value is required"
                    ));
                }
                if e.operator == "In" && e.values.contains(&0) {
                    causes.push(format!(
                        "{p}.onExitCodes.values[{}]: Invalid value: 0: must not be 0 for the In operator",
                        e.values.iter().position(|v| *v == 0).unwrap_or(0)
                    ));
                }
            }
        }
    }
    let t = &spec.template.spec;
    validate_containers(causes, &format!("{at}.template.spec"), t);
    // Defaulting turned an unset restart policy into Always, so upstream checks both.
    let policy = t.restart_policy.as_str();
    if policy.is_empty() || policy == "Always" {
        causes.push(format!(
            "{at}.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""
        ));
    } else if policy != "OnFailure" && policy != "Never" {
        causes.push(format!(
            "{at}.template.spec.restartPolicy: Unsupported value: \"{policy}\": supported values: \"OnFailure\", \"Never\""
        ));
    } else if spec.pod_failure_policy.is_some() && policy != "Never" {
        causes.push(format!(
            "{at}.template.spec.restartPolicy: Invalid value: \"{policy}\": only \"Never\" is supported when podFailurePolicy is specified"
        ));
    }
    if let Some(sel) = &spec.selector {
        if !sel.is_empty() && !sel.matches(&spec.template.metadata.labels) {
            causes.push(format!(
                "{at}.template.metadata.labels: Invalid value: {}: `selector` does not match template `labels`",
                go_map(&spec.template.metadata.labels)
            ));
        }
    }
    validate_scheduling(causes, &format!("{at}.template.spec"), t);
    validate_pod_spec_numbers(causes, &format!("{at}.template.spec"), t);
}

/// `ValidateJobSpecUpdate`: the selector, the completion mode and (while the Job is
/// not suspended) the Pod template cannot change; completions only together with
/// parallelism in an Indexed Job (elastic Indexed Jobs).
fn validate_job_update(causes: &mut Vec<String>, new: &JobSpec, old: &JobSpec) {
    if new.selector != old.selector {
        causes.push(format!(
            "spec.selector: Invalid value: {}: field is immutable",
            new.selector
                .as_ref()
                .map(go_selector)
                .unwrap_or_else(|| "null".into())
        ));
    }
    if new.completion_mode != old.completion_mode {
        causes.push(format!(
            "spec.completionMode: Invalid value: \"{}\": field is immutable",
            new.completion_mode.as_deref().unwrap_or("")
        ));
    }
    let elastic = new.is_indexed() && new.completions == new.parallelism;
    if new.completions != old.completions && !elastic {
        causes.push(format!(
            "spec.completions: Invalid value: {}: field is immutable",
            new.completions
                .map(|c| c.to_string())
                .unwrap_or_else(|| "null".into())
        ));
    }
    // A suspended Job that never started may change its template's scheduling
    // directives only; the rest of the template is fixed for good.
    let mut a = new.template.clone();
    let b = &old.template;
    if old.is_suspended() {
        a.spec.node_selector = b.spec.node_selector.clone();
        a.spec.tolerations = b.spec.tolerations.clone();
        a.spec.affinity = b.spec.affinity.clone();
        a.metadata.labels = b.metadata.labels.clone();
        a.metadata.annotations = b.metadata.annotations.clone();
    }
    if a != *b {
        causes.push(
            "spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable".into(),
        );
    }
}

/// `ValidateCronJobCreate`: the schedule and time zone parse, the concurrency policy
/// is known, the history limits are non-negative, and the job template is a valid Job
/// spec.
pub(super) fn validate_cron_job(causes: &mut Vec<String>, cj: &CronJob, old: Option<&Object>) {
    if let Err(e) = crate::api::cron::parse(&cj.spec.schedule) {
        causes.push(format!(
            "spec.schedule: Invalid value: \"{}\": {e}",
            cj.spec.schedule
        ));
    }
    if let Some(tz) = &cj.spec.time_zone {
        if crate::api::cron::zone_offset(tz).is_none() {
            causes.push(format!(
                "spec.timeZone: Invalid value: \"{tz}\": unknown time zone {tz}"
            ));
        }
    }
    if !["Allow", "Forbid", "Replace"].contains(&cj.spec.concurrency_policy.as_str()) {
        causes.push(format!(
            "spec.concurrencyPolicy: Unsupported value: \"{}\": supported values: \"Allow\", \"Forbid\", \"Replace\"",
            cj.spec.concurrency_policy
        ));
    }
    for (f, v) in [
        ("startingDeadlineSeconds", cj.spec.starting_deadline_seconds),
        (
            "successfulJobsHistoryLimit",
            cj.spec.successful_jobs_history_limit,
        ),
        ("failedJobsHistoryLimit", cj.spec.failed_jobs_history_limit),
    ] {
        if let Some(v) = v {
            nonnegative(causes, &format!("spec.{f}"), v);
        }
    }
    validate_job_spec(causes, "spec.jobTemplate.spec", &cj.spec.job_template.spec);
    // `ValidateCronJobCreate`: the controller names each Job `<cronjob>-<11 digits>`,
    // and a Job's name is at most 63 characters. Only on create: an existing CronJob
    // with a longer name is left to be updated.
    let name = &cj.metadata.name;
    if old.is_none() && name.len() > 63 - 11 {
        causes.push(format!(
            "metadata.name: Invalid value: \"{name}\": must be no more than 52 characters"
        ));
    }
}
