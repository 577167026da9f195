//! The apps API group (`pkg/apis/apps/validation/validation.go`): Deployments,
//! ReplicaSets, DaemonSets and StatefulSets, and the int-or-percent rules
//! (`ValidatePositiveIntOrPercent`, `IsNotMoreThan100Percent`) the policy group
//! borrows from it as upstream does.

use super::core::validate_claim_spec;
use super::meta::{go_map, go_selector, nonnegative, validate_selector_operators};
use super::pod_spec::{validate_containers, validate_pod_spec_numbers, validate_scheduling};
use crate::api::*;

/// The template rules the replicated kinds share (`ValidatePodTemplateSpecForReplicaSet`
/// and the selector checks of `ValidateDeploymentSpec` / `ValidateReplicaSetSpec`):
/// non-negative replicas, a selector matching the template's labels, containers,
/// restart policy Always.
pub(super) fn validate_template(
    causes: &mut Vec<String>,
    replicas: i64,
    selector: &LabelSelector,
    template: &PodTemplateSpec,
) {
    if replicas < 0 {
        causes.push(format!(
            "spec.replicas: Invalid value: {replicas}: must be greater than or equal to 0"
        ));
    }
    if selector.is_empty() {
        causes.push(
            "spec.selector: Invalid value: \"null\": empty selector is invalid for deployment"
                .into(),
        );
    } else if !selector.matches(&template.metadata.labels) {
        causes.push(format!(
            "spec.template.metadata.labels: Invalid value: {}: `selector` does not match template `labels`",
            go_map(&template.metadata.labels)
        ));
    }
    validate_containers(causes, "spec.template.spec", &template.spec);
    if !template.spec.restart_policy.is_empty() && template.spec.restart_policy != "Always" {
        causes.push(format!(
            "spec.template.spec.restartPolicy: Unsupported value: \"{}\": supported values: \"Always\"",
            template.spec.restart_policy
        ));
    }
}

/// `ValidateDeployment` and `ValidateDeploymentUpdate`.
pub(super) fn validate_deployment(causes: &mut Vec<String>, d: &Deployment, old: Option<&Object>) {
    validate_template(causes, d.spec.replicas, &d.spec.selector, &d.spec.template);
    validate_selector_operators(causes, &d.spec.selector);
    validate_scheduling(causes, "spec.template.spec", &d.spec.template.spec);
    validate_pod_spec_numbers(causes, "spec.template.spec", &d.spec.template.spec);
    validate_strategy(causes, d);
    // ValidateDeploymentSpec: after replicas (in validate_template) come these.
    let s = &d.spec;
    nonnegative(causes, "spec.minReadySeconds", s.min_ready_seconds);
    nonnegative(
        causes,
        "spec.revisionHistoryLimit",
        s.revision_history_limit,
    );
    nonnegative(
        causes,
        "spec.progressDeadlineSeconds",
        s.progress_deadline_seconds,
    );
    if s.progress_deadline_seconds <= s.min_ready_seconds {
        causes.push(format!(
            "spec.progressDeadlineSeconds: Invalid value: {}: must be greater than minReadySeconds",
            s.progress_deadline_seconds
        ));
    }
    if let Some(Object::Deployment(o)) = old {
        if o.spec.selector != d.spec.selector {
            causes.push(format!(
                "spec.selector: Invalid value: {}: field is immutable",
                go_selector(&d.spec.selector)
            ));
        }
    }
}

/// `ValidateDeploymentStrategy` and `ValidateRollingUpdateDeployment`
/// (pkg/apis/apps/validation): `rollingUpdate` is forbidden with Recreate; both values
/// non-negative ints or valid percentages, not both 0, and only `maxUnavailable` capped
/// at 100% (`maxSurge: 200%` is valid).
fn validate_strategy(causes: &mut Vec<String>, d: &Deployment) {
    let st = &d.spec.strategy;
    let ru = match st.type_.as_str() {
        "Recreate" => {
            if st.rolling_update.is_some() {
                causes.push(
                    "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"
                        .into(),
                );
            }
            return;
        }
        "RollingUpdate" => match &st.rolling_update {
            Some(ru) => ru,
            // Defaulting fills it in; nothing to check here.
            None => return,
        },
        other => {
            let ru = match &st.rolling_update {
                None => "(*apps.RollingUpdateDeployment)(nil)".to_string(),
                // Go prints the pointer's address; any fixed one stands for it.
                Some(_) => "(*apps.RollingUpdateDeployment)(0xc000000000)".to_string(),
            };
            causes.push(format!(
                "spec.strategy: Unsupported value: apps.DeploymentStrategy{{Type:{}, RollingUpdate:{ru}}}: supported values: \"Recreate\", \"RollingUpdate\"",
                serde_json::Value::String(other.to_string())
            ));
            return;
        }
    };
    let at = "spec.strategy.rollingUpdate";
    positive_int_or_percent(causes, &format!("{at}.maxUnavailable"), &ru.max_unavailable);
    positive_int_or_percent(causes, &format!("{at}.maxSurge"), &ru.max_surge);
    if int_or_percent_value(&ru.max_unavailable) == 0 && int_or_percent_value(&ru.max_surge) == 0 {
        causes.push(format!(
            "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: {}: may not be 0 when `maxSurge` is 0",
            go_int_or_string(&ru.max_unavailable)
        ));
    }
    not_more_than_100_percent(causes, &format!("{at}.maxUnavailable"), &ru.max_unavailable);
}

/// `ValidateReplicaSet`.
pub(super) fn validate_replica_set(causes: &mut Vec<String>, rs: &ReplicaSet) {
    validate_template(
        causes,
        rs.spec.replicas,
        &rs.spec.selector,
        &rs.spec.template,
    );
    validate_selector_operators(causes, &rs.spec.selector);
    validate_scheduling(causes, "spec.template.spec", &rs.spec.template.spec);
    validate_pod_spec_numbers(causes, "spec.template.spec", &rs.spec.template.spec);
    nonnegative(causes, "spec.minReadySeconds", rs.spec.min_ready_seconds);
}

/// `ValidateDaemonSet` and `ValidateDaemonSetUpdate`.
pub(super) fn validate_daemon_set(causes: &mut Vec<String>, ds: &DaemonSet, old: Option<&Object>) {
    validate_template(causes, 0, &ds.spec.selector, &ds.spec.template);
    validate_selector_operators(causes, &ds.spec.selector);
    validate_scheduling(causes, "spec.template.spec", &ds.spec.template.spec);
    validate_pod_spec_numbers(causes, "spec.template.spec", &ds.spec.template.spec);
    let st = &ds.spec.update_strategy;
    if st.type_ != "RollingUpdate" && st.type_ != "OnDelete" {
        causes.push(format!(
            "spec.updateStrategy.type: Unsupported value: \"{}\": supported values: \"OnDelete\", \"RollingUpdate\"",
            st.type_
        ));
    }
    if let Some(Object::DaemonSet(o)) = old {
        if o.spec.selector != ds.spec.selector {
            causes.push(format!(
                "spec.selector: Invalid value: {}: field is immutable",
                go_selector(&ds.spec.selector)
            ));
        }
    }
}

/// `ValidateStatefulSetSpec` and `ValidateStatefulSetUpdate`
/// (`pkg/apis/apps/validation/validation.go`).
pub(super) fn validate_stateful_set(
    causes: &mut Vec<String>,
    ss: &StatefulSet,
    old: Option<&Object>,
) {
    let s = &ss.spec;
    if s.pod_management_policy != "OrderedReady" && s.pod_management_policy != "Parallel" {
        causes.push(format!(
            "spec.podManagementPolicy: Invalid value: \"{}\": must be 'OrderedReady' or 'Parallel'",
            s.pod_management_policy
        ));
    }
    match s.update_strategy.type_.as_str() {
        "RollingUpdate" => {
            if let Some(ru) = &s.update_strategy.rolling_update {
                nonnegative(
                    causes,
                    "spec.updateStrategy.rollingUpdate.partition",
                    ru.partition,
                );
            }
        }
        "OnDelete" => {
            if s.update_strategy.rolling_update.is_some() {
                causes.push("spec.updateStrategy.rollingUpdate: Invalid value: \"null\": only allowed for updateStrategy 'RollingUpdate'".into());
            }
        }
        t => causes.push(format!(
            "spec.updateStrategy: Invalid value: \"{t}\": must be 'RollingUpdate' or 'OnDelete'"
        )),
    }
    let policy = &s.persistent_volume_claim_retention_policy;
    for (f, v) in [
        ("whenDeleted", &policy.when_deleted),
        ("whenScaled", &policy.when_scaled),
    ] {
        if v != "Retain" && v != "Delete" {
            causes.push(format!(
                "spec.persistentVolumeClaimRetentionPolicy.{f}: Unsupported value: \"{v}\": supported values: \"Retain\", \"Delete\""
            ));
        }
    }
    if let Some(o) = &s.ordinals {
        nonnegative(causes, "spec.ordinals.start", o.start);
    }
    nonnegative(causes, "spec.minReadySeconds", s.min_ready_seconds);
    if s.replicas < 0 {
        causes.push(format!(
            "spec.replicas: Invalid value: {}: must be greater than or equal to 0",
            s.replicas
        ));
    }
    if s.selector.is_empty() {
        causes.push(
            "spec.selector: Invalid value: \"null\": empty selector is invalid for statefulset"
                .into(),
        );
    } else if !s.selector.matches(&s.template.metadata.labels) {
        causes.push(format!(
            "spec.template.metadata.labels: Invalid value: {}: `selector` does not match template `labels`",
            go_map(&s.template.metadata.labels)
        ));
    }
    validate_selector_operators(causes, &s.selector);
    validate_containers(causes, "spec.template.spec", &s.template.spec);
    if !s.template.spec.restart_policy.is_empty() && s.template.spec.restart_policy != "Always" {
        causes.push(format!(
            "spec.template.spec.restartPolicy: Unsupported value: \"{}\": supported values: \"Always\"",
            s.template.spec.restart_policy
        ));
    }
    validate_scheduling(causes, "spec.template.spec", &s.template.spec);
    validate_pod_spec_numbers(causes, "spec.template.spec", &s.template.spec);
    for (i, t) in s.volume_claim_templates.iter().enumerate() {
        validate_claim_spec(
            causes,
            &format!("spec.volumeClaimTemplates[{i}].spec"),
            &t.spec,
        );
    }
    if let Some(Object::StatefulSet(o)) = old {
        // Everything but these fields is fixed at creation.
        let mut a = s.clone();
        let b = &o.spec;
        a.replicas = b.replicas;
        a.ordinals = b.ordinals.clone();
        a.template = b.template.clone();
        a.update_strategy = b.update_strategy.clone();
        a.revision_history_limit = b.revision_history_limit;
        a.persistent_volume_claim_retention_policy =
            b.persistent_volume_claim_retention_policy.clone();
        a.min_ready_seconds = b.min_ready_seconds;
        if a != *b {
            causes.push("spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden".into());
        }
    }
}

/// `ValidatePositiveIntOrPercent`: an int ≥ 0, or a string matching `[0-9]+%`.
pub(super) fn positive_int_or_percent(causes: &mut Vec<String>, path: &str, v: &IntOrString) {
    match v {
        IntOrString::Int(n) => nonnegative(causes, path, *n),
        IntOrString::String(s) if valid_percent(s).is_none() => causes.push(format!(
            "{path}: Invalid value: {}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
            go_int_or_string(v)
        )),
        IntOrString::String(_) => {}
    }
}

/// `IsNotMoreThan100Percent`: a valid percentage whose number (Atoi: an over-long one
/// reads as 0, as upstream) is over 100 is refused.
pub(super) fn not_more_than_100_percent(causes: &mut Vec<String>, path: &str, v: &IntOrString) {
    if let IntOrString::String(s) = v {
        if valid_percent(s).is_some_and(|p| p > 100) {
            causes.push(format!(
                "{path}: Invalid value: {}: must not be greater than 100%",
                go_int_or_string(v)
            ));
        }
    }
}

/// An `intstr.IntOrString` as the API server's field errors print it: the value is
/// not a `fmt.Stringer` (String has a pointer receiver), so `%#v` shows the struct.
fn go_int_or_string(v: &IntOrString) -> String {
    match v {
        IntOrString::Int(n) => format!("intstr.IntOrString{{Type:0, IntVal:{n}, StrVal:\"\"}}"),
        IntOrString::String(s) => format!(
            "intstr.IntOrString{{Type:1, IntVal:0, StrVal:{}}}",
            serde_json::Value::String(s.clone())
        ),
    }
}

/// `IsValidPercent`: `[0-9]+%`.
fn valid_percent(s: &str) -> Option<i64> {
    let digits = s.strip_suffix('%')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Atoi of an over-long number fails upstream too (the value is then 0).
    Some(digits.parse().unwrap_or(0))
}

/// `getIntOrPercentValue`: a valid percentage's number, else `IntValue()` (which
/// Atoi-parses a string, 0 when it is not a number).
fn int_or_percent_value(v: &IntOrString) -> i64 {
    match v {
        IntOrString::Int(n) => *n,
        IntOrString::String(s) => valid_percent(s).unwrap_or_else(|| s.parse().unwrap_or(0)),
    }
}
