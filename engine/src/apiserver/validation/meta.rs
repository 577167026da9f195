//! Object metadata and the field rules every group shares: apimachinery's
//! `pkg/api/validation` (`ValidateObjectMeta`'s name check, `ValidateAnnotations`,
//! `ValidateNonnegativeField`) and `pkg/apis/meta/v1/validation` (`ValidateLabels`,
//! label selectors), with Go's `%#v` of the values their messages print.

use super::names::{
    dns1035_label_errors, dns1123_label_errors, dns1123_subdomain_error, label_value_errors,
    path_segment_errors, qualified_name_errors, quote,
};
use crate::api::*;

/// The name rule of each kind (`ValidateObjectMeta`'s name function).
pub(super) fn validate_name(causes: &mut Vec<String>, obj: &Object) {
    let name = &obj.meta().name;
    match obj {
        Object::Event(_) => {}
        // ValidateRBACName: any path segment name (`system:discovery` is fine).
        Object::Role(_)
        | Object::ClusterRole(_)
        | Object::RoleBinding(_)
        | Object::ClusterRoleBinding(_) => causes.extend(path_segment_errors(name)),
        // ValidateServiceName: a DNS-1035 label (it becomes a DNS name).
        Object::Service(_) => causes.extend(dns1035_label_errors(name).into_iter().map(|m| {
            format!(
                "metadata.name: Invalid value: {}: {m}",
                serde_json::Value::String(name.clone())
            )
        })),
        // ValidateNamespaceName: a DNS-1123 label.
        Object::Namespace(_) => causes.extend(dns1123_label_errors(name).into_iter().map(|m| {
            format!(
                "metadata.name: Invalid value: {}: {m}",
                serde_json::Value::String(name.clone())
            )
        })),
        _ => {
            if let Some(e) = dns1123_subdomain_error(name) {
                causes.push(e);
            }
        }
    }
}

/// `ValidateLabels`, `ValidateAnnotations` and `ValidateOwnerReferences` of ObjectMeta:
/// label keys are qualified names and values valid label values; annotation keys
/// (lower-cased) qualified names; owner references name their owner fully.
pub(super) fn validate_meta_maps(causes: &mut Vec<String>, m: &ObjectMeta) {
    for (k, v) in &m.labels {
        for msg in qualified_name_errors(k) {
            causes.push(format!(
                "metadata.labels: Invalid value: {}: {msg}",
                quote(k)
            ));
        }
        for msg in label_value_errors(v) {
            causes.push(format!(
                "metadata.labels: Invalid value: {}: {msg}",
                quote(v)
            ));
        }
    }
    for k in m.annotations.keys() {
        for msg in qualified_name_errors(&k.to_lowercase()) {
            causes.push(format!(
                "metadata.annotations: Invalid value: {}: {msg}",
                quote(k)
            ));
        }
    }
    // ValidateOwnerReferences (validateOwnerReference): every part named, the path
    // without an index as upstream writes it.
    for r in &m.owner_references {
        let at = "metadata.ownerReferences";
        // schema.ParseGroupVersion: `v1`, `apps/v1`; anything else has no version.
        let version = match r.api_version.split('/').collect::<Vec<_>>().as_slice() {
            [v] | [_, v] => *v,
            _ => "",
        };
        for (field, value, empty) in [
            ("apiVersion", &r.api_version, version.is_empty()),
            ("kind", &r.kind, r.kind.is_empty()),
            ("name", &r.name, r.name.is_empty()),
            ("uid", &r.uid, r.uid.is_empty()),
        ] {
            if empty {
                let what = if field == "apiVersion" {
                    "version"
                } else {
                    field
                };
                causes.push(format!(
                    "{at}.{field}: Invalid value: {}: {what} must not be empty",
                    quote(value)
                ));
            }
        }
    }
}

/// `ValidateLabelSelector`'s operator check: each match expression's operator is one
/// of `In`, `NotIn`, `Exists`, `DoesNotExist`.
pub(super) fn validate_selector_operators(causes: &mut Vec<String>, sel: &LabelSelector) {
    for (i, r) in sel.match_expressions.iter().enumerate() {
        if !matches!(
            r.operator.as_str(),
            "In" | "NotIn" | "Exists" | "DoesNotExist"
        ) {
            causes.push(format!(
                "spec.selector.matchExpressions[{i}].operator: Invalid value: \"{}\": not a valid selector operator",
                r.operator
            ));
        }
    }
}

/// `metav1validation.ValidateLabelSelector` at `at`: match labels as `ValidateLabels`,
/// and each requirement's operator, values and key (`ValidateLabelSelectorRequirement`).
pub(super) fn validate_label_selector(causes: &mut Vec<String>, sel: &LabelSelector, at: &str) {
    for (k, v) in &sel.match_labels {
        for msg in qualified_name_errors(k) {
            causes.push(format!(
                "{at}.matchLabels: Invalid value: {}: {msg}",
                quote(k)
            ));
        }
        for msg in label_value_errors(v) {
            causes.push(format!(
                "{at}.matchLabels: Invalid value: {}: {msg}",
                quote(v)
            ));
        }
    }
    for (i, r) in sel.match_expressions.iter().enumerate() {
        let p = format!("{at}.matchExpressions[{i}]");
        match r.operator.as_str() {
            "In" | "NotIn" if r.values.is_empty() => causes.push(format!(
                "{p}.values: Required value: must be specified when `operator` is 'In' or 'NotIn'"
            )),
            "Exists" | "DoesNotExist" if !r.values.is_empty() => causes.push(format!(
                "{p}.values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" => {}
            op => causes.push(format!(
                "{p}.operator: Invalid value: {}: not a valid selector operator",
                quote(op)
            )),
        }
        for msg in qualified_name_errors(&r.key) {
            causes.push(format!("{p}.key: Invalid value: {}: {msg}", quote(&r.key)));
        }
        for (j, v) in r.values.iter().enumerate() {
            for msg in label_value_errors(v) {
                causes.push(format!(
                    "{p}.values[{j}]: Invalid value: {}: {msg}",
                    quote(v)
                ));
            }
        }
    }
}

/// `ValidateNonnegativeField`.
pub(super) fn nonnegative(causes: &mut Vec<String>, path: &str, value: i64) {
    if value < 0 {
        causes.push(format!(
            "{path}: Invalid value: {value}: must be greater than or equal to 0"
        ));
    }
}

/// Go's `%#v` of a `map[string]string` (a template's labels in a message).
pub(super) fn go_map(m: &StringMap) -> String {
    let inner: Vec<String> = m.iter().map(|(k, v)| format!("\"{k}\":\"{v}\"")).collect();
    format!("map[string]string{{{}}}", inner.join(", "))
}

/// Go's `%#v` of a `metav1.LabelSelector` holding match labels only (an immutable
/// selector in a message).
pub(super) fn go_selector(s: &LabelSelector) -> String {
    let labels: Vec<String> = s
        .match_labels
        .iter()
        .map(|(k, v)| format!("\"{k}\":\"{v}\""))
        .collect();
    format!(
        "v1.LabelSelector{{MatchLabels:map[string]string{{{}}}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}}",
        labels.join(", ")
    )
}
