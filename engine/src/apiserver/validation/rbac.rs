//! The rbac.authorization.k8s.io API group (`pkg/apis/rbac/validation/validation.go`):
//! Roles and ClusterRoles (their rules), RoleBindings and ClusterRoleBindings (the
//! role reference and subjects).

use crate::api::*;

/// `ValidateRole`: its rules, namespaced.
pub(super) fn validate_role(causes: &mut Vec<String>, r: &Role) {
    validate_rules(causes, r.rules.as_deref().unwrap_or_default(), true)
}

/// `ValidateClusterRole`: its rules, cluster-wide.
pub(super) fn validate_cluster_role(causes: &mut Vec<String>, r: &ClusterRole) {
    validate_rules(causes, r.rules.as_deref().unwrap_or_default(), false)
}

/// `ValidateRoleBinding` and `ValidateRoleBindingUpdate`.
pub(super) fn validate_role_binding(
    causes: &mut Vec<String>,
    b: &RoleBinding,
    old: Option<&Object>,
) {
    let old = match old {
        Some(Object::RoleBinding(o)) => Some(&o.role_ref),
        _ => None,
    };
    validate_binding(causes, &b.role_ref, &b.subjects, old, true);
}

/// `ValidateClusterRoleBinding` and `ValidateClusterRoleBindingUpdate`.
pub(super) fn validate_cluster_role_binding(
    causes: &mut Vec<String>,
    b: &ClusterRoleBinding,
    old: Option<&Object>,
) {
    let old = match old {
        Some(Object::ClusterRoleBinding(o)) => Some(&o.role_ref),
        _ => None,
    };
    validate_binding(causes, &b.role_ref, &b.subjects, old, false);
}

/// `ValidatePolicyRule` for each rule (`pkg/apis/rbac/validation/validation.go`).
fn validate_rules(causes: &mut Vec<String>, rules: &[PolicyRule], namespaced: bool) {
    for (i, r) in rules.iter().enumerate() {
        let path = format!("rules[{i}]");
        if r.verbs.is_empty() {
            causes.push(format!(
                "{path}.verbs: Required value: verbs must contain at least one value"
            ));
        }
        if !r.non_resource_urls.is_empty() {
            if namespaced {
                causes.push(format!(
                    "{path}.nonResourceURLs: Invalid value: []string{{{}}}: namespaced rules cannot apply to non-resource URLs",
                    r.non_resource_urls
                        .iter()
                        .map(|u| format!("\"{u}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if !r.api_groups.is_empty() || !r.resources.is_empty() {
                causes.push(format!(
                    "{path}.nonResourceURLs: Invalid value: []string{{{}}}: rules cannot apply to both regular resources and non-resource URLs",
                    r.non_resource_urls
                        .iter()
                        .map(|u| format!("\"{u}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            continue;
        }
        if r.api_groups.is_empty() {
            causes.push(format!(
                "{path}.apiGroups: Required value: resource rules must supply at least one api group"
            ));
        }
        if r.resources.is_empty() {
            causes.push(format!(
                "{path}.resources: Required value: resource rules must supply at least one resource"
            ));
        }
    }
}

/// `ValidateRoleBinding` / `ValidateClusterRoleBinding`: the role reference and the
/// subjects; an update may not change the role reference.
fn validate_binding(
    causes: &mut Vec<String>,
    role_ref: &RoleRef,
    subjects: &[Subject],
    old: Option<&RoleRef>,
    namespaced: bool,
) {
    if role_ref.api_group != RBAC_GROUP {
        causes.push(format!(
            "roleRef.apiGroup: Unsupported value: \"{}\": supported values: \"{RBAC_GROUP}\"",
            role_ref.api_group
        ));
    }
    match (role_ref.kind.as_str(), namespaced) {
        ("Role" | "ClusterRole", true) | ("ClusterRole", false) => {}
        (k, true) => causes.push(format!(
            "roleRef.kind: Unsupported value: \"{k}\": supported values: \"Role\", \"ClusterRole\""
        )),
        (k, false) => causes.push(format!(
            "roleRef.kind: Unsupported value: \"{k}\": supported values: \"ClusterRole\""
        )),
    }
    if role_ref.name.is_empty() {
        causes.push("roleRef.name: Required value".into());
    }
    for (i, s) in subjects.iter().enumerate() {
        let path = format!("subjects[{i}]");
        if s.name.is_empty() {
            causes.push(format!("{path}.name: Required value"));
        }
        match s.kind.as_str() {
            "ServiceAccount" => {
                if !s.api_group.is_empty() {
                    causes.push(format!(
                        "{path}.apiGroup: Unsupported value: \"{}\": supported values: \"\"",
                        s.api_group
                    ));
                }
                if !namespaced && s.namespace.is_empty() {
                    causes.push(format!("{path}.namespace: Required value"));
                }
            }
            "User" | "Group" => {
                if s.api_group != RBAC_GROUP {
                    causes.push(format!(
                        "{path}.apiGroup: Unsupported value: \"{}\": supported values: \"{RBAC_GROUP}\"",
                        s.api_group
                    ));
                }
            }
            k => causes.push(format!(
                "{path}.kind: Unsupported value: \"{k}\": supported values: \"ServiceAccount\", \"User\", \"Group\""
            )),
        }
    }
    if let Some(o) = old {
        if o != role_ref {
            causes.push(format!(
                "roleRef: Invalid value: rbac.RoleRef{{APIGroup:\"{}\", Kind:\"{}\", Name:\"{}\"}}: cannot change roleRef",
                role_ref.api_group, role_ref.kind, role_ref.name
            ));
        }
    }
}
