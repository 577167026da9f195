//! The ValidatingAdmissionPolicy admission plugin
//! (`staging/src/k8s.io/apiserver/pkg/admission/plugin/policy/validating`): after the
//! object validated, every policy with a binding whose constraints match the request
//! is evaluated, in CEL, over `object`, `oldObject`, `request`, `params`,
//! `namespaceObject` and `variables`.
//!
//! A validation that is false is a decision to deny, with its message
//! (`messageExpression`, else `message`, else `failed expression: EXPR`) and reason
//! (`Invalid` unless set). An expression that errs denies under `failurePolicy: Fail`
//! (`expression 'EXPR' resulted in error: no such key: foo`) and is passed over under
//! `Ignore`. Each deny decision goes through every one of the binding's actions:
//! `Deny` refuses the request (the first denial is the one reported, 422 for
//! `Invalid`, 403 `Forbidden`, 413 `RequestEntityTooLarge`), `Warn` adds a warning,
//! `Audit` an audit annotation (`validation.policy.admission.k8s.io/validation_failure`).
//! A binding whose parameter is missing, with `parameterNotFoundAction: Deny`, denies
//! whatever its actions (a configuration error). Policies and bindings are taken in
//! name order (upstream iterates a map: its order is not defined).
//!
//! Not evaluated: `authorizer` (no expression may use it here), type checking.

use super::{ApiError, Cause, Details, ObjKey, Store};
use crate::api::cel;
use crate::api::*;
use serde_json::{json, Value};

/// One request as the plugin sees it.
pub(super) struct Attributes<'a> {
    /// `CREATE`, `UPDATE` or `DELETE`.
    pub operation: &'static str,
    /// The object written (None on DELETE).
    pub object: Option<&'a Object>,
    /// The object before (None on CREATE).
    pub old: Option<&'a Object>,
    /// Who asks.
    pub user: &'a str,
    /// When (a webhook's `Date.now()`).
    pub now: crate::time::SimTime,
}

impl Attributes<'_> {
    /// The resource as rules name it: `deployments`, or `deployments/scale`.
    pub(super) fn resource(&self, kind: Kind, subresource: &str) -> String {
        if subresource.is_empty() {
            kind.resource().to_string()
        } else {
            format!("{}/{subresource}", kind.resource())
        }
    }
}

/// A decision to deny: the message, its reason, the binding.
struct Denial {
    policy: String,
    binding: String,
    message: String,
    reason: &'static str,
}

/// Every CEL evaluation of one request shares this budget (upstream's
/// `RuntimeCELCostBudget`).
const REQUEST_BUDGET: u64 = 10_000_000;

impl Store {
    /// Run the ValidatingAdmissionPolicies bound to this request: warnings and audit
    /// annotations are kept with the store's; the first denial refuses it.
    pub(super) fn admit_policies(&mut self, a: &Attributes<'_>) -> Result<(), ApiError> {
        // Each request's own: kept until the next write takes its place.
        self.audit_annotations.clear();
        if self.count(Kind::ValidatingAdmissionPolicyBinding) == 0 {
            return Ok(());
        }
        let Some(subject) = a.object.or(a.old) else {
            return Ok(());
        };
        let kind = subject.kind();
        // A policy cannot match policies and bindings.
        if matches!(
            kind,
            Kind::ValidatingAdmissionPolicy | Kind::ValidatingAdmissionPolicyBinding
        ) {
            return Ok(());
        }
        let mut bindings: Vec<ValidatingAdmissionPolicyBinding> = self
            .list::<ValidatingAdmissionPolicyBinding>()
            .cloned()
            .collect();
        bindings.sort_by(|x, y| x.metadata.name.cmp(&y.metadata.name));
        let mut denials = Vec::new();
        let mut budget = REQUEST_BUDGET;
        let request = self.request_value(a, subject);
        let ns_object = self.namespace_object(subject);
        for b in &bindings {
            let key = ObjKey::new("", &b.spec.policy_name);
            // A binding to a policy that does not exist is skipped.
            let Some(p) = self.get::<ValidatingAdmissionPolicy>(&key).cloned() else {
                continue;
            };
            let matched = p
                .spec
                .match_constraints
                .as_ref()
                .is_some_and(|m| self.matches(m, a, subject, true))
                && b.spec
                    .match_resources
                    .as_ref()
                    .is_none_or(|m| self.matches(m, a, subject, false));
            if !matched {
                continue;
            }
            let fail = p.spec.failure_policy.as_deref() != Some("Ignore");
            let params = match self.params(&p, b, subject) {
                Ok(Some(v)) => v,
                // No parameter, and the binding allows that: nothing to evaluate.
                Ok(None) => continue,
                Err(e) => {
                    if fail {
                        denials.push(Denial {
                            policy: p.metadata.name.clone(),
                            binding: b.metadata.name.clone(),
                            message: format!("failed to configure binding: {e}"),
                            reason: "Invalid",
                        });
                    }
                    continue;
                }
            };
            let mut vars = vec![
                (
                    "object".to_string(),
                    a.object.map_or(Value::Null, Object::to_json),
                ),
                (
                    "oldObject".to_string(),
                    a.old.map_or(Value::Null, Object::to_json),
                ),
                ("request".to_string(), request.clone()),
                ("namespaceObject".to_string(), ns_object.clone()),
            ];
            if p.spec.param_kind.is_some() {
                vars.push(("params".to_string(), params));
            }
            for d in evaluate(&p, b, &mut vars, fail, &mut budget) {
                self.act(b, &p, d, &mut denials);
            }
        }
        match denials.into_iter().next() {
            Some(d) => Err(denied(subject, d)),
            None => Ok(()),
        }
    }

    /// A deny decision through each of the binding's actions.
    fn act(
        &mut self,
        b: &ValidatingAdmissionPolicyBinding,
        p: &ValidatingAdmissionPolicy,
        d: Decision,
        denials: &mut Vec<Denial>,
    ) {
        let (policy, binding) = (p.metadata.name.clone(), b.metadata.name.clone());
        match d {
            Decision::Annotation(key, value) => {
                self.audit_annotations
                    .push((format!("{policy}/{key}"), value));
            }
            Decision::Deny {
                message,
                reason,
                index,
            } => {
                for action in &b.spec.validation_actions {
                    match action.as_str() {
                        "Deny" => denials.push(Denial {
                            policy: policy.clone(),
                            binding: binding.clone(),
                            message: message.clone(),
                            reason,
                        }),
                        "Warn" => self.warnings.push(format!(
                            "Validation failed for ValidatingAdmissionPolicy '{policy}' with binding '{binding}': {message}"
                        )),
                        "Audit" => {
                            let key = "validation.policy.admission.k8s.io/validation_failure";
                            // Only the first failure of a request is recorded.
                            if !self.audit_annotations.iter().any(|(k, _)| k == key) {
                                let value = json!([{
                                    "message": message,
                                    "policy": b.spec.policy_name,
                                    "binding": binding,
                                    "expressionIndex": index,
                                    "validationActions": b.spec.validation_actions,
                                }]);
                                self.audit_annotations.push((key.into(), value.to_string()));
                            }
                        }
                        _ => {}
                    }
                }
            }
        }
    }

    /// The request's `userInfo`: the authenticated user, or (a write from inside the
    /// store) the writer.
    pub(super) fn user_info(&self, a: &Attributes<'_>) -> Value {
        match &self.request_user {
            Some(u) => json!({"username": u.name, "groups": u.groups}),
            None => json!({"username": a.user, "groups": ["system:authenticated"]}),
        }
    }

    /// `request` as CEL reads it.
    fn request_value(&self, a: &Attributes<'_>, subject: &Object) -> Value {
        let kind = subject.kind();
        let (group, version) = super::discovery::group_version(kind);
        let m = subject.meta();
        json!({
            "kind": {"group": group, "version": version, "kind": kind.name()},
            "resource": {"group": group, "version": version, "resource": kind.resource()},
            "requestKind": {"group": group, "version": version, "kind": kind.name()},
            "requestResource": {"group": group, "version": version, "resource": kind.resource()},
            "subResource": self.subresource,
            "requestSubResource": self.subresource,
            "name": m.name,
            "namespace": m.namespace,
            "operation": a.operation,
            "userInfo": self.user_info(a),
            "dryRun": false,
        })
    }

    /// The request's Namespace, trimmed as upstream's `CreateNamespaceObject` trims it
    /// (null at cluster scope).
    fn namespace_object(&self, subject: &Object) -> Value {
        let ns = &subject.meta().namespace;
        if ns.is_empty() {
            return Value::Null;
        }
        match self.get::<Namespace>(&ObjKey::new("", ns)) {
            Some(n) => {
                let v = Object::Namespace(n.clone()).to_json();
                json!({"metadata": v["metadata"], "spec": v["spec"], "status": v["status"]})
            }
            None => Value::Null,
        }
    }

    /// Whether match resources `m` take this request (`matching.Matches`): its
    /// namespace and object selectors, its exclusions, then its rules (a binding's
    /// empty rules take everything; a policy's never are empty).
    fn matches(
        &self,
        m: &MatchResources,
        a: &Attributes<'_>,
        subject: &Object,
        policy: bool,
    ) -> bool {
        let ns = &subject.meta().namespace;
        if let Some(sel) = &m.namespace_selector {
            if !ns.is_empty() {
                let labels = self
                    .get::<Namespace>(&ObjKey::new("", ns))
                    .map(|n| n.metadata.labels.clone())
                    .unwrap_or_default();
                if !sel.matches(&labels) {
                    return false;
                }
            }
        }
        if let Some(sel) = &m.object_selector {
            let any = [a.object, a.old]
                .iter()
                .flatten()
                .any(|o| sel.matches(&o.meta().labels));
            if !any {
                return false;
            }
        }
        let resource = a.resource(subject.kind(), &self.subresource);
        if m.exclude_resource_rules
            .iter()
            .any(|r| rule_matches(r, a, subject, &resource))
        {
            return false;
        }
        if !policy && m.resource_rules.is_empty() {
            return true;
        }
        m.resource_rules
            .iter()
            .any(|r| rule_matches(r, a, subject, &resource))
    }

    /// The binding's parameter: None when there is none to evaluate with and the
    /// binding allows that; Err for a configuration error.
    fn params(
        &self,
        p: &ValidatingAdmissionPolicy,
        b: &ValidatingAdmissionPolicyBinding,
        subject: &Object,
    ) -> Result<Option<Value>, String> {
        let (Some(pk), Some(r)) = (&p.spec.param_kind, &b.spec.param_ref) else {
            return Ok(Some(Value::Null));
        };
        let (group, version) = pk
            .api_version
            .rsplit_once('/')
            .unwrap_or(("", &pk.api_version));
        // A built-in kind, or a custom resource's (by its kind's lower-case name, as
        // discovery maps it).
        let kind = Kind::ALL
            .into_iter()
            .find(|k| k.name() == pk.kind && k.api_version() == pk.api_version)
            .or_else(|| crate::api::discovered::resolve(&pk.kind.to_lowercase()))
            .filter(|k| k.name() == pk.kind && k.api_version() == pk.api_version)
            .ok_or_else(|| {
                format!(
                    "failed to find resource referenced by paramKind: '{}, Kind={}'",
                    if group.is_empty() {
                        version.to_string()
                    } else {
                        format!("{group}/{version}")
                    },
                    pk.kind
                )
            })?;
        let ns = if !kind.namespaced() {
            String::new()
        } else if r.namespace.is_empty() {
            subject.meta().namespace.clone()
        } else {
            r.namespace.clone()
        };
        let found = if r.name.is_empty() {
            None
        } else {
            self.get_object(kind, &ObjKey::new(&ns, &r.name))
                .map(Object::to_json)
        };
        match (found, r.parameter_not_found_action.as_deref()) {
            (Some(v), _) => Ok(Some(v)),
            (None, Some("Deny")) => {
                Err("no params found for policy binding with `Deny` parameterNotFoundAction".into())
            }
            (None, _) => Ok(None),
        }
    }
}

/// What one binding's evaluation decided.
enum Decision {
    /// Deny: the message, its reason, the validation's index.
    Deny {
        message: String,
        reason: &'static str,
        index: usize,
    },
    /// An audit annotation's key and value.
    Annotation(String, String),
}

/// The policy's match conditions, variables, validations and audit annotations,
/// evaluated: the deny decisions and annotations.
fn evaluate(
    p: &ValidatingAdmissionPolicy,
    _b: &ValidatingAdmissionPolicyBinding,
    vars: &mut Vec<(String, Value)>,
    fail: bool,
    budget: &mut u64,
) -> Vec<Decision> {
    let mut out = Vec::new();
    let run = |src: &str, vars: &[(String, Value)], budget: &mut u64| {
        let e = cel::compile(src).map_err(|e| format!("compilation error: {e}"))?;
        cel::evaluate_value(&e, vars, budget)
    };
    // Any match condition false: the policy does not apply; one that errs (none
    // false) denies under Fail.
    match match_conditions(&p.spec.match_conditions, vars, budget) {
        Ok(true) => {}
        Ok(false) => return out,
        Err(errors) => {
            if fail {
                out.push(Decision::Deny {
                    message: errors,
                    reason: "Invalid",
                    index: 0,
                });
            }
            return out;
        }
    }
    // Variables, in order: each may read those before it.
    let mut variables = serde_json::Map::new();
    for v in &p.spec.variables {
        let mut with = vars.clone();
        with.push(("variables".into(), Value::Object(variables.clone())));
        if let Ok(x) = run(&v.expression, &with, budget) {
            variables.insert(v.name.clone(), x);
        }
    }
    vars.push(("variables".into(), Value::Object(variables)));
    for (index, v) in p.spec.validations.iter().enumerate() {
        let expr = v.expression.trim();
        let message = match run(expr, vars, budget) {
            Ok(Value::Bool(true)) => continue,
            Ok(Value::Bool(false)) => {
                let from_expression = (!v.message_expression.is_empty())
                    .then(|| run(&v.message_expression, vars, budget).ok())
                    .flatten()
                    .and_then(|m| m.as_str().map(|s| s.trim().to_string()))
                    .filter(|m| !m.is_empty() && m.len() <= 5 * 1024 && !m.contains('\n'));
                let reason = match v.reason.as_deref() {
                    Some("Forbidden") => "Forbidden",
                    Some("RequestEntityTooLarge") => "RequestEntityTooLarge",
                    _ => "Invalid",
                };
                let message = from_expression.unwrap_or_else(|| {
                    if v.message.trim().is_empty() {
                        format!("failed expression: {expr}")
                    } else {
                        v.message.trim().to_string()
                    }
                });
                out.push(Decision::Deny {
                    message,
                    reason,
                    index,
                });
                continue;
            }
            Ok(_) => format!("expression '{expr}' resulted in error: no such overload"),
            Err(e) => format!("expression '{expr}' resulted in error: {e}"),
        };
        if fail {
            out.push(Decision::Deny {
                message,
                reason: "Invalid",
                index,
            });
        }
    }
    for an in &p.spec.audit_annotations {
        match run(&an.value_expression, vars, budget) {
            Ok(Value::String(s)) if !s.trim().is_empty() => {
                let mut s = s.trim().to_string();
                s.truncate(10 * 1024);
                out.push(Decision::Annotation(an.key.clone(), s));
            }
            Ok(Value::String(_)) | Ok(Value::Null) => {}
            Ok(x) => {
                if fail {
                    out.push(Decision::Deny {
                        message: format!(
                            "valueExpression '{}' resulted in unsupported return type: {}. Return type must be either string or null.",
                            an.value_expression,
                            cel_type(&x)
                        ),
                        reason: "Invalid",
                        index: 0,
                    });
                }
            }
            Err(e) => {
                if fail {
                    out.push(Decision::Deny {
                        message: format!(
                            "expression '{}' resulted in error: {e}",
                            an.value_expression
                        ),
                        reason: "Invalid",
                        index: 0,
                    });
                }
            }
        }
    }
    out
}

/// Match conditions (a policy's or a webhook's, `matchconditions.Matcher`): false
/// when one is false; when none is false but some erred, their errors, joined.
pub(super) fn match_conditions(
    conds: &[MatchCondition],
    vars: &[(String, Value)],
    budget: &mut u64,
) -> Result<bool, String> {
    let mut errors = Vec::new();
    for m in conds {
        let result = cel::compile(&m.expression)
            .map_err(|e| format!("compilation error: {e}"))
            .and_then(|e| cel::evaluate_value(&e, vars, budget));
        match result {
            Ok(Value::Bool(false)) => return Ok(false),
            Ok(Value::Bool(true)) => {}
            Ok(_) => errors.push(format!(
                "expression '{}' resulted in error: no such overload",
                m.expression
            )),
            Err(e) => errors.push(format!(
                "expression '{}' resulted in error: {e}",
                m.expression
            )),
        }
    }
    if errors.is_empty() {
        Ok(true)
    } else {
        Err(errors.join(", "))
    }
}

/// A JSON value's CEL type name.
fn cel_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null_type",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "double",
        Value::Number(_) => "int",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "map",
    }
}

/// Whether a rule takes this request: operation, group, version, resource and scope,
/// and its names.
pub(super) fn rule_matches(
    r: &NamedRuleWithOperations,
    a: &Attributes<'_>,
    subject: &Object,
    resource: &str,
) -> bool {
    let kind = subject.kind();
    let (group, version) = super::discovery::group_version(kind);
    let any = |items: &[String], x: &str| items.iter().any(|i| i == "*" || i == x);
    let scope_ok = match r.scope.as_deref() {
        Some("Cluster") => !kind.namespaced(),
        Some("Namespaced") => kind.namespaced(),
        _ => true,
    };
    // `*` is every resource but no subresource, `*/*` everything, `*/scale` every
    // resource's scale, `deployments/*` every subresource of deployments.
    let (res, sub) = resource.split_once('/').unwrap_or((resource, ""));
    let resource_ok = r.resources.iter().any(|x| {
        let (xr, xs) = x.split_once('/').unwrap_or((x, ""));
        (xr == "*" || xr == res) && (xs == sub || (xs == "*" && !sub.is_empty())) || x == "*/*"
    });
    any(&r.operations, a.operation)
        && any(&r.api_groups, group)
        && any(&r.api_versions, version)
        && resource_ok
        && scope_ok
        && (r.resource_names.is_empty() || r.resource_names.contains(&subject.meta().name))
}

/// The refusal for a denial (`dispatcher.go`): `admission.NewForbidden`'s message, its
/// reason and code replaced by the validation's.
fn denied(subject: &Object, d: Denial) -> ApiError {
    let kind = subject.kind();
    let (group, _) = super::discovery::group_version(kind);
    let name = subject.meta().name.clone();
    let why = format!(
        "ValidatingAdmissionPolicy '{}' with binding '{}' denied request: {}",
        d.policy, d.binding, d.message
    );
    let resource = if group.is_empty() {
        kind.resource().to_string()
    } else {
        format!("{}.{group}", kind.resource())
    };
    let code = match d.reason {
        "Forbidden" => 403,
        "RequestEntityTooLarge" => 413,
        _ => 422,
    };
    // kubectl prints an Invalid status as `The <kind> "<name>" is invalid: <causes>`;
    // this one's cause names no field.
    let kubectl_message = (d.reason == "Invalid")
        .then(|| format!("The {} \"{name}\" is invalid: : {why}", kind.resource()));
    ApiError {
        code,
        reason: d.reason,
        message: format!("{resource} \"{name}\" is forbidden: {why}"),
        kubectl_message,
        details: Some(Box::new(Details {
            group,
            kind: kind.resource(),
            name,
            causes: vec![Cause {
                reason: "",
                message: why,
                field: String::new(),
            }],
        })),
    }
}
