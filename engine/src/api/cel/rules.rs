//! `x-kubernetes-validations` at work: each rule of a schema evaluated where its value
//! is, with upstream's messages (`pkg/apiserver/schema/cel/validation.go`,
//! `validateExpressions`), and the rules compiled when the definition is written.

use super::eval::{evaluate, evaluate_string, uses_old_self, Outcome};
use serde_json::Value;

/// How deep the schema is walked.
const MAX_DEPTH: usize = 64;

/// The message when schema errors kept the rules from running (`hasBlockingErr`).
pub const NOT_CHECKED: &str = "<nil>: Invalid value: \"null\": some validation rules were not checked because the object was invalid; correct the existing errors to complete validation";

/// Whether a schema error keeps the rules from running: a value of the wrong type, a
/// missing required field, an unsupported value, too long or too many.
pub fn blocking(cause: &str) -> bool {
    [
        ": Required value",
        ": Unsupported value:",
        ": Too long:",
        ": Too many:",
        " must be of type ",
    ]
    .iter()
    .any(|m| cause.contains(m))
}

/// Whether the schema has a validation rule anywhere.
pub fn any(s: &Value) -> bool {
    fn go(s: &Value, depth: usize) -> bool {
        depth <= MAX_DEPTH
            && (rules(s).next().is_some()
                || s.get("properties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| p.values().any(|x| go(x, depth + 1)))
                || ["items", "additionalProperties"]
                    .iter()
                    .any(|k| s.get(*k).is_some_and(|x| x.is_object() && go(x, depth + 1))))
    }
    go(s, 0)
}

fn rules(s: &Value) -> impl Iterator<Item = &Value> {
    s.get("x-kubernetes-validations")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

fn text<'a>(r: &'a Value, k: &str) -> &'a str {
    r.get(k).and_then(Value::as_str).unwrap_or("")
}

/// Evaluate every rule of `schema` over `new` (the object without `apiVersion`, `kind`
/// and `metadata` is fine: the rules see what they are given), `old` the stored
/// object on an update. Every failure in the API server's words.
pub fn validate(schema: &Value, new: &Value, old: Option<&Value>) -> Vec<String> {
    let mut out = Vec::new();
    let mut left = super::OBJECT_BUDGET;
    walk(schema, new, old, None, 0, &mut left, &mut out);
    out
}

fn walk(
    s: &Value,
    v: &Value,
    old: Option<&Value>,
    path: Option<&str>,
    depth: usize,
    left: &mut u64,
    out: &mut Vec<String>,
) {
    if depth > MAX_DEPTH || v.is_null() || *left == 0 {
        return;
    }
    let ty = s.get("type").and_then(Value::as_str).unwrap_or("object");
    for r in rules(s) {
        let Ok(expr) = super::compile(text(r, "rule")) else {
            continue;
        };
        let transition = uses_old_self(&expr);
        if transition && old.is_none() {
            // A transition rule is skipped where there is nothing to compare with.
            continue;
        }
        let at = match (path, text(r, "fieldPath").trim_start_matches('.')) {
            (p, "") => p.unwrap_or("<nil>").to_string(),
            (None, f) => f.to_string(),
            (Some(p), f) => format!("{p}.{f}"),
        };
        let rule = text(r, "rule").trim();
        let message = || {
            let m = text(r, "message").trim();
            if m.is_empty() {
                format!("failed rule: {rule}")
            } else {
                m.to_string()
            }
        };
        match evaluate(&expr, v, old, left) {
            Outcome::Holds => {}
            // Ratcheting: a rule without oldSelf that fails on a value the update did
            // not change is not an error.
            Outcome::Fails if !transition && old == Some(v) => {}
            Outcome::Fails => {
                let me = text(r, "messageExpression");
                let detail = (!me.is_empty())
                    .then(|| super::compile(me).ok())
                    .flatten()
                    .and_then(|e| evaluate_string(&e, v, old))
                    .filter(|m| !m.trim().is_empty() && !m.contains('\n'))
                    .map(|m| m.trim().to_string())
                    .unwrap_or_else(message);
                out.push(match text(r, "reason") {
                    "FieldValueForbidden" => format!("{at}: Forbidden: {detail}"),
                    "FieldValueRequired" => format!("{at}: Required value: {detail}"),
                    "FieldValueDuplicate" => format!("{at}: Duplicate value: \"{ty}\""),
                    _ => format!("{at}: Invalid value: \"{ty}\": {detail}"),
                });
            }
            Outcome::Error(e) => {
                let m = text(r, "message").trim();
                let what = if m.is_empty() { rule } else { m };
                out.push(format!(
                    "{at}: Invalid value: \"{ty}\": {e} evaluating rule: {what}"
                ));
            }
            Outcome::OverBudget => {
                out.push(format!("{at}: Invalid value: \"{ty}\": validation failed due to running out of cost budget, no further validation rules will be run"));
                *left = 0;
                return;
            }
        }
    }
    let child = |k: &str| match path {
        None => k.to_string(),
        Some(p) => format!("{p}.{k}"),
    };
    match v {
        Value::Object(m) => {
            if let Some(props) = s.get("properties").and_then(Value::as_object) {
                for (k, sub) in props {
                    if let Some(x) = m.get(k) {
                        let o = old.and_then(|o| o.get(k));
                        walk(sub, x, o, Some(&child(k)), depth + 1, left, out);
                    }
                }
            } else if let Some(sub) = s.get("additionalProperties").filter(|a| a.is_object()) {
                for (k, x) in m {
                    let o = old.and_then(|o| o.get(k));
                    walk(
                        sub,
                        x,
                        o,
                        Some(&format!("{}[{k}]", path.unwrap_or(""))),
                        depth + 1,
                        left,
                        out,
                    );
                }
            }
        }
        Value::Array(items) => {
            if let Some(sub) = s.get("items") {
                for (i, x) in items.iter().enumerate() {
                    // Items correlate with the old list only by key (list-type map).
                    walk(
                        sub,
                        x,
                        None,
                        Some(&format!("{}[{i}]", path.unwrap_or(""))),
                        depth + 1,
                        left,
                        out,
                    );
                }
            }
        }
        _ => {}
    }
}

/// The rules' errors when the definition is written: a rule that is missing or does
/// not compile, an empty message (`x-kubernetes-validations[i]…`), under `at`.
pub fn compile_errors(schema: &Value, at: &str, depth: usize, out: &mut Vec<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    for (i, r) in rules(schema).enumerate() {
        let p = format!("{at}.x-kubernetes-validations[{i}]");
        let rule = text(r, "rule");
        if rule.trim().is_empty() {
            out.push(format!("{p}.rule: Required value: rule is not specified"));
            continue;
        }
        if let Err(e) = super::compile(rule) {
            out.push(format!(
                "{p}.rule: Invalid value: apiextensions.ValidationRule{{Rule:{rule:?}, Message:{:?}, MessageExpression:{:?}, Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:{:?}, OptionalOldSelf:(*bool)(nil)}}: compilation failed: {e}",
                text(r, "message"),
                text(r, "messageExpression"),
                text(r, "fieldPath"),
            ));
        }
        if r.get("message")
            .is_some_and(|m| m.as_str().is_some_and(|m| m.trim().is_empty()))
        {
            out.push(format!(
                "{p}.message: Invalid value: \"\": message must be non-empty if specified"
            ));
        }
        if let Some(reason) = r.get("reason").and_then(Value::as_str) {
            const REASONS: [&str; 4] = [
                "FieldValueDuplicate",
                "FieldValueForbidden",
                "FieldValueInvalid",
                "FieldValueRequired",
            ];
            if !REASONS.contains(&reason) {
                out.push(format!(
                    "{p}.reason: Unsupported value: {reason:?}: supported values: \"FieldValueDuplicate\", \"FieldValueForbidden\", \"FieldValueInvalid\", \"FieldValueRequired\""
                ));
            }
        }
    }
    if let Some(props) = schema.get("properties").and_then(Value::as_object) {
        for (k, sub) in props {
            compile_errors(sub, &format!("{at}.properties[{k}]"), depth + 1, out);
        }
    }
    for key in ["items", "additionalProperties"] {
        if let Some(sub) = schema.get(key).filter(|x| x.is_object()) {
            compile_errors(sub, &format!("{at}.{key}"), depth + 1, out);
        }
    }
}
