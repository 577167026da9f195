//! `admissionregistration.k8s.io` kinds as `kubectl get` prints them
//! (`pkg/printers/internalversion/printers.go`:
//! `printValidatingAdmissionPolicy`, `printValidatingAdmissionPolicyBinding`,
//! `printValidatingWebhookConfiguration`).

use super::super::age;
use super::cells::*;
use crate::api::*;
use crate::time::SimTime;

/// ValidatingAdmissionPolicy's columns.
pub(super) const VALIDATING_ADMISSION_POLICY: Columns = Columns {
    names: &["NAME", "VALIDATIONS", "PARAMKIND", "AGE"],
    wide: &[],
};

/// ValidatingAdmissionPolicyBinding's columns.
pub(super) const VALIDATING_ADMISSION_POLICY_BINDING: Columns = Columns {
    names: &["NAME", "POLICYNAME", "PARAMREF", "AGE"],
    wide: &[],
};

/// ValidatingWebhookConfiguration's columns: its name, how many webhooks, its age.
pub(super) const VALIDATING_WEBHOOK_CONFIGURATION: Columns = Columns {
    names: &["NAME", "WEBHOOKS", "AGE"],
    wide: &[],
};

/// How many validations, and the parameter kind as `apiVersion/kind` (`<unset>`).
pub(super) fn print_validating_admission_policy(
    name: String,
    p: &ValidatingAdmissionPolicy,
    now: SimTime,
) -> Vec<String> {
    let param_kind = match &p.spec.param_kind {
        Some(k) => format!("{}/{}", k.api_version, k.kind),
        None => "<unset>".into(),
    };
    vec![
        name,
        p.spec.validations.len().to_string(),
        param_kind,
        age(p.metadata.created_ms, now),
    ]
}

/// The policy and the parameter reference: `namespace/name`, `*/name` without a
/// namespace, the selector, or `<unset>`.
pub(super) fn print_validating_admission_policy_binding(
    name: String,
    b: &ValidatingAdmissionPolicyBinding,
    now: SimTime,
) -> Vec<String> {
    let param_ref = match &b.spec.param_ref {
        Some(r) if !r.name.is_empty() => {
            let ns = if r.namespace.is_empty() {
                "*"
            } else {
                &r.namespace
            };
            format!("{ns}/{}", r.name)
        }
        Some(r) => match &r.selector {
            Some(s) => go_label_selector(s),
            None => "<unset>".into(),
        },
        None => "<unset>".into(),
    };
    vec![
        name,
        b.spec.policy_name.clone(),
        param_ref,
        age(b.metadata.created_ms, now),
    ]
}

/// A LabelSelector as its generated Go `String()` writes it (what the binding's
/// PARAMREF cell shows for a selector).
fn go_label_selector(s: &LabelSelector) -> String {
    let labels: String = s
        .match_labels
        .iter()
        .map(|(k, v)| format!("{k}: {v},"))
        .collect();
    let exprs: String = s
        .match_expressions
        .iter()
        .map(|e| {
            format!(
                "LabelSelectorRequirement{{Key:{},Operator:{},Values:[{}],}},",
                e.key,
                e.operator,
                e.values.join(" ")
            )
        })
        .collect();
    format!(
        "&LabelSelector{{MatchLabels:map[string]string{{{labels}}},MatchExpressions:[]LabelSelectorRequirement{{{exprs}}},}}"
    )
}
