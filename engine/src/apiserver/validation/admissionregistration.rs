//! ValidatingAdmissionPolicy and its binding (`validateValidatingAdmissionPolicySpec`,
//! `validateValidatingAdmissionPolicyBindingSpec` in
//! `pkg/apis/admissionregistration/validation/validation.go`): the texts upstream
//! gives, field by field. Each expression is compiled here, as the strategy does.

use crate::api::*;

/// Expressions compile with the CEL subset the policy plugin evaluates; a CEL error
/// is reported as cel-go words it (`compilation failed: ERROR: …`).
fn check_expression(c: &mut Vec<String>, path: &str, expr: &str) {
    if expr.trim().is_empty() {
        return c.push(format!(
            "{path}: Required value: expression is not specified"
        ));
    }
    if let Err(e) = crate::api::cel::compile(expr) {
        c.push(format!(
            "{path}: Invalid value: {expr:?}: compilation failed: {e}"
        ));
    }
}

/// The match resources' rules and policy (the path is upstream's, typo included for
/// a binding: `spec.matchResouces`).
fn validate_match_resources(c: &mut Vec<String>, path: &str, m: &MatchResources) {
    match m.match_policy.as_deref() {
        None => c.push(format!("{path}.matchPolicy: Required value")),
        Some("Equivalent" | "Exact") => {}
        Some(p) => c.push(format!(
            "{path}.matchPolicy: Unsupported value: {p:?}: supported values: \"Equivalent\", \"Exact\""
        )),
    }
    for (list, rules) in [
        ("resourceRules", &m.resource_rules),
        ("excludeResourceRules", &m.exclude_resource_rules),
    ] {
        for (i, r) in rules.iter().enumerate() {
            validate_rule(c, &format!("{path}.{list}[{i}]"), r);
        }
    }
}

/// `validateRuleWithOperations` and `validateRule`: each list required, `*` alone,
/// the resources' wildcards consistent, a known scope.
pub(super) fn validate_rule(c: &mut Vec<String>, p: &str, r: &NamedRuleWithOperations) {
    // `%#v` of the value: the Go type of the list.
    let go_list = |ty: &str, items: &[String]| {
        let quoted: Vec<String> = items.iter().map(|x| format!("{x:?}")).collect();
        format!("{ty}{{{}}}", quoted.join(", "))
    };
    let star = |field: &str, ty: &str, items: &[String], what: &str, c: &mut Vec<String>| {
        if items.is_empty() {
            c.push(format!("{p}.{field}: Required value"));
        } else if items.len() > 1 && items.iter().any(|x| x == "*") {
            c.push(format!(
                "{p}.{field}: Invalid value: {}: if '*' is present, must not specify other {what}",
                go_list(ty, items)
            ));
        }
    };
    star(
        "operations",
        "[]admissionregistration.OperationType",
        &r.operations,
        "operations",
        c,
    );
    for (i, op) in r.operations.iter().enumerate() {
        if !["*", "CREATE", "UPDATE", "DELETE", "CONNECT"].contains(&op.as_str()) {
            c.push(format!(
                "{p}.operations[{i}]: Unsupported value: {op:?}: supported values: \"*\", \"CONNECT\", \"CREATE\", \"DELETE\", \"UPDATE\""
            ));
        }
    }
    star("apiGroups", "[]string", &r.api_groups, "API groups", c);
    star(
        "apiVersions",
        "[]string",
        &r.api_versions,
        "API versions",
        c,
    );
    for (i, v) in r.api_versions.iter().enumerate() {
        if v.is_empty() {
            c.push(format!("{p}.apiVersions[{i}]: Required value"));
        }
    }
    validate_resources(c, &format!("{p}.resources"), &r.resources, &go_list);
    if let Some(scope) = &r.scope {
        if !["*", "Cluster", "Namespaced"].contains(&scope.as_str()) {
            c.push(format!(
                "{p}.scope: Unsupported value: {scope:?}: supported values: \"*\", \"Cluster\", \"Namespaced\""
            ));
        }
    }
}

/// `validateResources`: `*/*` alone, `*` not beside plain resources, and no
/// `x/y` beside `x/*` or `*/y`.
fn validate_resources(
    c: &mut Vec<String>,
    p: &str,
    resources: &[String],
    go_list: &dyn Fn(&str, &[String]) -> String,
) {
    use std::collections::BTreeSet;
    if resources.is_empty() {
        c.push(format!("{p}: Required value"));
    }
    let (mut any_sub, mut any_res) = (BTreeSet::new(), BTreeSet::new());
    let (mut double, mut single, mut plain) = (false, false, false);
    for (i, rs) in resources.iter().enumerate() {
        if rs.is_empty() {
            c.push(format!("{p}[{i}]: Required value"));
            continue;
        }
        double |= rs == "*/*";
        single |= rs == "*";
        let Some((res, sub)) = rs.split_once('/') else {
            plain = rs != "*";
            continue;
        };
        if any_sub.contains(res) {
            c.push(format!(
                "{p}[{i}]: Invalid value: {rs:?}: if '{res}/*' is present, must not specify {rs}"
            ));
        }
        if any_res.contains(sub) {
            c.push(format!(
                "{p}[{i}]: Invalid value: {rs:?}: if '*/{sub}' is present, must not specify {rs}"
            ));
        }
        if sub == "*" {
            any_sub.insert(res);
        }
        if res == "*" {
            any_res.insert(sub);
        }
    }
    if resources.len() > 1 && double {
        c.push(format!(
            "{p}: Invalid value: {}: if '*/*' is present, must not specify other resources",
            go_list("[]string", resources)
        ));
    }
    if single && plain {
        c.push(format!(
            "{p}: Invalid value: {}: if '*' is present, must not specify other resources without subresources",
            go_list("[]string", resources)
        ));
    }
}

/// `validateMatchConditions`: at most 64, each named once with a qualified name, each
/// expression compiled.
pub(super) fn validate_match_conditions(c: &mut Vec<String>, path: &str, conds: &[MatchCondition]) {
    if conds.len() > 64 {
        c.push(format!(
            "{path}: Too many: {}: must have at most 64 items",
            conds.len()
        ));
    }
    let mut names = std::collections::BTreeSet::new();
    for (i, m) in conds.iter().enumerate() {
        let p = format!("{path}[{i}]");
        if m.name.is_empty() {
            c.push(format!("{p}.name: Required value"));
        } else if !names.insert(m.name.as_str()) {
            c.push(format!("{p}.name: Duplicate value: {:?}", m.name));
        } else {
            for e in super::names::qualified_name_errors(&m.name) {
                c.push(format!("{p}.name: Invalid value: {:?}: {e}", m.name));
            }
        }
        if m.expression.trim().is_empty() {
            c.push(format!("{p}.expression: Required value"));
        } else {
            check_expression(c, &format!("{p}.expression"), &m.expression);
        }
    }
}

/// `validateValidatingAdmissionPolicySpec`.
pub(super) fn validate_policy(c: &mut Vec<String>, p: &ValidatingAdmissionPolicy) {
    let s = &p.spec;
    match s.failure_policy.as_deref() {
        None => c.push("spec.failurePolicy: Required value".into()),
        Some("Fail" | "Ignore") => {}
        Some(f) => c.push(format!(
            "spec.failurePolicy: Unsupported value: {f:?}: supported values: \"Fail\", \"Ignore\""
        )),
    }
    if let Some(k) = &s.param_kind {
        if k.api_version.is_empty() {
            c.push("spec.paramKind.apiVersion: Required value".into());
        } else if k.api_version.split('/').nth(1).is_none_or(str::is_empty)
            && k.api_version.contains('.')
        {
            c.push(format!(
                "spec.paramKind.apiVersion: Invalid value: {:?}: version must be specified",
                k.api_version
            ));
        }
        if k.kind.is_empty() {
            c.push("spec.paramKind.kind: Required value".into());
        }
    }
    match &s.match_constraints {
        None => c.push("spec.matchConstraints: Required value".into()),
        Some(m) => {
            validate_match_resources(c, "spec.matchConstraints", m);
            if m.resource_rules.is_empty() {
                c.push("spec.matchConstraints.resourceRules: Required value".into());
            }
        }
    }
    if s.validations.is_empty() && s.audit_annotations.is_empty() {
        let why = "validations or auditAnnotations must contain at least one item";
        c.push(format!("spec.validations: Required value: {why}"));
        c.push(format!("spec.auditAnnotations: Required value: {why}"));
    }
    for (i, v) in s.validations.iter().enumerate() {
        let p = format!("spec.validations[{i}]");
        check_expression(c, &format!("{p}.expression"), &v.expression);
        if !v.message.is_empty() && v.message.trim().is_empty() {
            c.push(format!(
                "{p}.message: Invalid value: {:?}: message must be non-empty if specified",
                v.message
            ));
        } else if v.message.contains('\n') {
            c.push(format!(
                "{p}.message: Invalid value: {:?}: message must not contain line breaks",
                v.message
            ));
        }
        if !v.message_expression.is_empty() {
            check_expression(c, &format!("{p}.messageExpression"), &v.message_expression);
        }
        if let Some(r) = &v.reason {
            if !["Forbidden", "Invalid", "RequestEntityTooLarge"].contains(&r.as_str()) {
                c.push(format!(
                    "{p}.reason: Unsupported value: {r:?}: supported values: \"Forbidden\", \"Invalid\", \"RequestEntityTooLarge\""
                ));
            }
        }
    }
    if s.audit_annotations.len() > 20 {
        c.push("spec.auditAnnotations: Invalid value: \"\": must not have more than 20 auditAnnotations".into());
    }
    let mut keys = std::collections::BTreeSet::new();
    for (i, a) in s.audit_annotations.iter().enumerate() {
        let p = format!("spec.auditAnnotations[{i}]");
        if !keys.insert(a.key.as_str()) {
            c.push(format!("{p}.key: Duplicate value: {:?}", a.key));
        }
        if a.value_expression.trim().is_empty() {
            c.push(format!(
                "{p}.valueExpression: Required value: valueExpression is not specified"
            ));
        } else {
            check_expression(c, &format!("{p}.valueExpression"), &a.value_expression);
        }
    }
    validate_match_conditions(c, "spec.matchConditions", &s.match_conditions);
    for (i, v) in s.variables.iter().enumerate() {
        let p = format!("spec.variables[{i}]");
        let ident = v
            .name
            .chars()
            .next()
            .is_some_and(|ch| ch.is_ascii_alphabetic() || ch == '_')
            && v.name
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
        if v.name.is_empty() {
            c.push(format!("{p}.name: Required value: name is not specified"));
        } else if !ident {
            c.push(format!(
                "{p}.name: Invalid value: {:?}: name is not a valid CEL identifier",
                v.name
            ));
        }
        check_expression(c, &format!("{p}.expression"), &v.expression);
    }
}

/// `validateValidatingAdmissionPolicyBindingSpec`, `validateValidationActions`,
/// `validateParamRef`.
pub(super) fn validate_binding(c: &mut Vec<String>, b: &ValidatingAdmissionPolicyBinding) {
    let s = &b.spec;
    if s.policy_name.is_empty() {
        c.push("spec.policyName: Required value".into());
    }
    let actions = &s.validation_actions;
    if actions.is_empty() {
        c.push(
            "spec.validationActions: Required value: at least one validation action is required"
                .into(),
        );
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, a) in actions.iter().enumerate() {
        if !["Deny", "Warn", "Audit"].contains(&a.as_str()) {
            c.push(format!(
                "spec.validationActions[{i}]: Unsupported value: {a:?}: supported values: \"Audit\", \"Deny\", \"Warn\""
            ));
        } else if !seen.insert(a.as_str()) {
            c.push(format!(
                "spec.validationActions[{i}]: Duplicate value: {a:?}"
            ));
        }
    }
    if seen.contains("Deny") && seen.contains("Warn") {
        c.push(format!(
            "spec.validationActions: Invalid value: []admissionregistration.ValidationAction{{{}}}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)",
            actions.iter().map(|a| format!("{a:?}")).collect::<Vec<_>>().join(", ")
        ));
    }
    if let Some(r) = &s.param_ref {
        match (r.name.is_empty(), r.selector.is_none()) {
            (false, false) => {
                let why = "name and selector are mutually exclusive";
                c.push(format!("spec.paramRef.name: Forbidden: {why}"));
                c.push(format!("spec.paramRef.selector: Forbidden: {why}"));
            }
            (true, true) => c.push(
                "spec.paramRef: Required value: one of name or selector must be specified".into(),
            ),
            _ => {}
        }
        match r.parameter_not_found_action.as_deref() {
            None | Some("") => c.push("spec.paramRef.parameterNotFoundAction: Required value".into()),
            Some("Deny" | "Allow") => {}
            Some(a) => c.push(format!(
                "spec.paramRef.parameterNotFoundAction: Unsupported value: {a:?}: supported values: \"Deny\", \"Allow\""
            )),
        }
    }
    if let Some(m) = &s.match_resources {
        validate_match_resources(c, "spec.matchResouces", m);
    }
}
