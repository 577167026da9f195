//! The Pod failure policy and the success policy (`pod_failure_policy.go`:
//! `matchPodFailurePolicy`; `success_policy.go`: `matchSuccessPolicy`).

use super::indexes::{parse_indexes, OrderedIntervals};
use crate::api::*;

/// What the first matching rule of the podFailurePolicy says of failed Pod `p`: the
/// action and, for FailJob, the message; None when no rule matches (counted).
pub fn match_pod_failure_policy(job: &Job, p: &Pod) -> Option<(String, Option<String>)> {
    let policy = job.spec.pod_failure_policy.as_ref()?;
    let (ns, name) = (&p.metadata.namespace, &p.metadata.name);
    for (index, rule) in policy.rules.iter().enumerate() {
        if let Some(req) = &rule.on_exit_codes {
            let statuses = p
                .status
                .container_statuses
                .iter()
                .chain(p.status.init_container_statuses.iter());
            for cs in statuses {
                if req.container_name.as_deref().is_some_and(|n| n != cs.name) {
                    continue;
                }
                let Some(t) = cs.state.terminated.as_ref().filter(|t| t.exit_code != 0) else {
                    continue;
                };
                let listed = req.values.contains(&t.exit_code);
                let matched = match req.operator.as_str() {
                    "In" => listed,
                    "NotIn" => !listed,
                    _ => false,
                };
                if matched {
                    let msg = (rule.action == "FailJob").then(|| {
                        format!(
                            "Container {} for pod {ns}/{name} failed with exit code {} matching {} rule at index {index}",
                            cs.name, t.exit_code, rule.action
                        )
                    });
                    return Some((rule.action.clone(), msg));
                }
            }
        }
        for pattern in &rule.on_pod_conditions {
            let hit = p
                .status
                .conditions
                .iter()
                .any(|c| c.type_ == pattern.type_ && c.status == pattern.status);
            if hit {
                let msg = (rule.action == "FailJob").then(|| {
                    format!(
                        "Pod {ns}/{name} has condition {} matching {} rule at index {index}",
                        pattern.type_, rule.action
                    )
                });
                return Some((rule.action.clone(), msg));
            }
        }
    }
    None
}

/// True when a failed Pod matches an `Ignore` rule: not counted, still replaced.
pub fn ignored(job: &Job, p: &Pod) -> bool {
    match_pod_failure_policy(job, p).is_some_and(|(a, _)| a == "Ignore")
}

/// `getFailJobMessage`: the first failed Pod matching a `FailJob` rule.
pub fn fail_job_message(job: &Job, failed: &[&Pod]) -> Option<String> {
    job.spec.pod_failure_policy.as_ref()?;
    failed
        .iter()
        .filter(|p| p.status.phase == PodPhase::Failed)
        .find_map(|p| match_pod_failure_policy(job, p).and_then(|(_, m)| m))
}

/// `matchSuccessPolicy`: the index of the first rule the succeeded indexes meet.
pub fn match_success_policy(job: &Job, succeeded: &OrderedIntervals) -> Option<usize> {
    let policy = job.spec.success_policy.as_ref()?;
    if succeeded.is_empty() {
        return None;
    }
    let completions = job.spec.completions.unwrap_or(0);
    for (i, rule) in policy.rules.iter().enumerate() {
        match (&rule.succeeded_indexes, rule.succeeded_count) {
            (Some(ix), count) => {
                let want = parse_indexes(ix, completions);
                if want.is_empty() {
                    continue;
                }
                let overlap = want.intersection_total(succeeded);
                let met = match count {
                    Some(c) => overlap >= c,
                    None => overlap == want.total(),
                };
                if met {
                    return Some(i);
                }
            }
            (None, Some(c)) => {
                if succeeded.total() >= c {
                    return Some(i);
                }
            }
            (None, None) => {}
        }
    }
    None
}
