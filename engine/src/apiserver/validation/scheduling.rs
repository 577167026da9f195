//! The scheduling.k8s.io API group (`pkg/apis/scheduling/validation/validation.go`):
//! PriorityClasses.

use crate::api::*;

/// Largest value a user-defined PriorityClass may have (`HighestUserDefinablePriority`).
pub const HIGHEST_USER_DEFINABLE_PRIORITY: i64 = 1_000_000_000;

/// `ValidatePriorityClass`: user classes may not take the `system-` prefix nor a value
/// above [`HIGHEST_USER_DEFINABLE_PRIORITY`]; the preemption policy is known.
pub(super) fn validate_priority_class(causes: &mut Vec<String>, pc: &PriorityClass) {
    // System classes are created by the API server itself, with their values.
    let system = crate::apiserver::admission::system_priority_classes()
        .iter()
        .any(|s| s.metadata.name == pc.metadata.name && s.value == pc.value);
    if !system {
        if pc.metadata.name.starts_with("system-") {
            causes.push(format!(
                "metadata.name: Invalid value: \"{}\": priority class names with 'system-' prefix are reserved",
                pc.metadata.name
            ));
        }
        if pc.value < i64::from(i32::MIN) {
            // value is an int32 upstream.
            causes.push(format!(
                "value: Invalid value: {}: must be a 32-bit integer",
                pc.value
            ));
        }
        if pc.value > HIGHEST_USER_DEFINABLE_PRIORITY {
            causes.push(format!(
                "value: Forbidden: maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"
            ));
        }
    }
    if !pc.preemption_policy.is_empty()
        && pc.preemption_policy != "PreemptLowerPriority"
        && pc.preemption_policy != "Never"
    {
        causes.push(format!(
            "preemptionPolicy: Unsupported value: \"{}\": supported values: \"Never\", \"PreemptLowerPriority\"",
            pc.preemption_policy
        ));
    }
}
