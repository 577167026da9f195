//! A custom resource's structural schema at work on its objects, as the
//! apiextensions-apiserver applies it to every write: unknown fields pruned
//! (`pkg/apiserver/schema/pruning`), defaults filled in
//! (`pkg/apiserver/schema/defaulting`), then the object validated against the schema
//! (`pkg/apiserver/validation`, kube-openapi's validator), each error in the API
//! server's words.
//!
//! The schema is the JSON the definition was written with. Supported: `type`,
//! `properties`, `required`, `items`, `additionalProperties`, `enum`, `minimum`,
//! `maximum` (and their exclusive forms), `minLength`, `maxLength`, `minItems`,
//! `maxItems`, `minProperties`, `maxProperties`, `nullable`, `default`,
//! `x-kubernetes-preserve-unknown-fields`, `x-kubernetes-int-or-string` and
//! `x-kubernetes-embedded-resource`. `pattern` and `format` are kept but not checked.

use serde_json::{Map, Value};

/// How deep a schema or an object is walked: deeper parts are neither pruned,
/// defaulted nor validated. The API server's own decoder refuses objects nested much
/// less deeply; this keeps a hostile schema from recursing without end.
const MAX_DEPTH: usize = 64;

fn ty(s: &Value) -> &str {
    s.get("type").and_then(Value::as_str).unwrap_or("")
}

fn properties(s: &Value) -> Option<&Map<String, Value>> {
    s.get("properties").and_then(Value::as_object)
}

fn flag(s: &Value, name: &str) -> bool {
    s.get(name).and_then(Value::as_bool).unwrap_or(false)
}

/// The schema of an object's other keys: `additionalProperties` as a schema.
fn additional(s: &Value) -> Option<&Value> {
    s.get("additionalProperties").filter(|a| a.is_object())
}

/// Remove the fields the schema does not name (`structuralpruning.Prune`), returning
/// their paths (`spec.colour`) in the object's order. At the root, `apiVersion`,
/// `kind` and `metadata` stay (metadata is read as ObjectMeta, which keeps only its
/// own fields).
pub fn prune(schema: &Value, obj: &mut Value) -> Vec<String> {
    let mut pruned = Vec::new();
    if let Value::Object(map) = obj {
        prune_object(schema, map, "", true, 0, &mut pruned);
    }
    pruned
}

fn prune_object(
    s: &Value,
    map: &mut Map<String, Value>,
    path: &str,
    root: bool,
    depth: usize,
    pruned: &mut Vec<String>,
) {
    if depth > MAX_DEPTH {
        return;
    }
    let keep_meta = root || flag(s, "x-kubernetes-embedded-resource");
    let props = properties(s);
    let extra = additional(s);
    let preserve = flag(s, "x-kubernetes-preserve-unknown-fields");
    let mut gone = Vec::new();
    for (k, v) in map.iter_mut() {
        if keep_meta && matches!(k.as_str(), "apiVersion" | "kind" | "metadata") {
            continue;
        }
        let at = if path.is_empty() {
            k.clone()
        } else {
            format!("{path}.{k}")
        };
        match (props.and_then(|p| p.get(k)), extra) {
            (Some(sub), _) | (None, Some(sub)) => prune_value(sub, v, &at, depth + 1, pruned),
            (None, None) if preserve => {}
            (None, None) => gone.push((k.clone(), at)),
        }
    }
    for (k, at) in gone {
        map.remove(&k);
        pruned.push(at);
    }
}

fn prune_value(s: &Value, v: &mut Value, path: &str, depth: usize, pruned: &mut Vec<String>) {
    match v {
        Value::Object(m) => prune_object(s, m, path, false, depth, pruned),
        Value::Array(items) => {
            if let Some(item) = s.get("items") {
                for (i, x) in items.iter_mut().enumerate() {
                    prune_value(item, x, &format!("{path}[{i}]"), depth + 1, pruned);
                }
            }
        }
        _ => {}
    }
}

/// Fill in defaults (`structuraldefaulting.Default`): a property with a `default` that
/// is missing, or null without `nullable`, gets it; then each value is defaulted by
/// its own schema. A default inside an object applies only where that object exists.
pub fn default(schema: &Value, obj: &mut Value) {
    default_value(schema, obj, 0);
}

fn default_value(s: &Value, v: &mut Value, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match v {
        Value::Object(map) => {
            if let Some(props) = properties(s) {
                for (k, sub) in props {
                    let Some(d) = sub.get("default") else {
                        continue;
                    };
                    let absent = match map.get(k) {
                        None => true,
                        Some(Value::Null) => !flag(sub, "nullable"),
                        Some(_) => false,
                    };
                    if absent {
                        map.insert(k.clone(), d.clone());
                    }
                }
                for (k, x) in map.iter_mut() {
                    if let Some(sub) = props.get(k) {
                        default_value(sub, x, depth + 1);
                    }
                }
            } else if let Some(sub) = additional(s) {
                for x in map.values_mut() {
                    default_value(sub, x, depth + 1);
                }
            }
        }
        Value::Array(items) => {
            if let Some(item) = s.get("items") {
                for x in items {
                    default_value(item, x, depth + 1);
                }
            }
        }
        _ => {}
    }
}

/// The JSON type name the validator gives a value.
fn type_name(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

/// A value as a field error prints it (`field.Error`'s value: strings quoted).
fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Number(_) | Value::Bool(_) => v.to_string(),
        Value::Null => "\"null\"".into(),
        other => format!("{:?}", type_name(other)),
    }
}

fn number(v: &Value) -> Option<f64> {
    v.as_f64()
}

/// A bound as Go prints it (`%v` of a float64: no `.0` on whole numbers).
fn bound(v: &Value) -> String {
    match v.as_f64() {
        Some(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{}", f as i64),
        Some(f) => f.to_string(),
        None => v.to_string(),
    }
}

/// Validate the object (without `apiVersion`, `kind` and `metadata`) against the
/// schema: every error as the API server words it, in the schema's order.
pub fn validate(schema: &Value, obj: &Value) -> Vec<String> {
    let mut causes = Vec::new();
    if let (Value::Object(map), Some(props)) = (obj, properties(schema)) {
        for r in required(schema) {
            if !matches!(r, "apiVersion" | "kind" | "metadata") && !map.contains_key(r) {
                causes.push(format!("{r}: Required value"));
            }
        }
        for (k, sub) in props {
            if matches!(k.as_str(), "apiVersion" | "kind" | "metadata") {
                continue;
            }
            if let Some(v) = map.get(k) {
                validate_value(sub, v, k, 1, &mut causes);
            }
        }
    }
    causes
}

fn required(s: &Value) -> impl Iterator<Item = &str> {
    s.get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
}

fn validate_value(s: &Value, v: &Value, path: &str, depth: usize, causes: &mut Vec<String>) {
    if depth > MAX_DEPTH {
        return;
    }
    if v.is_null() && flag(s, "nullable") {
        return;
    }
    if flag(s, "x-kubernetes-int-or-string") {
        if !matches!(type_name(v), "integer" | "string") {
            let t = type_name(v);
            causes.push(format!(
                "{path}: Invalid value: \"{t}\": {path} in body must be of type integer,string: \"{t}\""
            ));
        }
        return;
    }
    let want = ty(s);
    let got = type_name(v);
    let fits = match want {
        "" => true,
        "number" => matches!(got, "integer" | "number"),
        "integer" => got == "integer" || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        w => w == got,
    };
    if !fits {
        causes.push(format!(
            "{path}: Invalid value: \"{got}\": {path} in body must be of type {want}: \"{got}\""
        ));
        return;
    }
    if let Some(values) = s.get("enum").and_then(Value::as_array) {
        if !values.contains(v) {
            let list: Vec<String> = values
                .iter()
                .map(|x| match x {
                    Value::String(s) => format!("{s:?}"),
                    other => format!("\"{other}\""),
                })
                .collect();
            causes.push(format!(
                "{path}: Unsupported value: {}: supported values: {}",
                shown(v),
                list.join(", ")
            ));
        }
    }
    match v {
        Value::Number(_) => check_number(s, v, path, causes),
        Value::String(text) => check_string(s, text, path, causes),
        Value::Array(items) => {
            check_count(s, items.len(), path, "items", causes);
            if let Some(item) = s.get("items") {
                for (i, x) in items.iter().enumerate() {
                    validate_value(item, x, &format!("{path}[{i}]"), depth + 1, causes);
                }
            }
        }
        Value::Object(map) => {
            check_count(s, map.len(), path, "properties", causes);
            for r in required(s) {
                if !map.contains_key(r) {
                    causes.push(format!("{path}.{r}: Required value"));
                }
            }
            if let Some(props) = properties(s) {
                for (k, sub) in props {
                    if let Some(x) = map.get(k) {
                        validate_value(sub, x, &format!("{path}.{k}"), depth + 1, causes);
                    }
                }
            } else if let Some(sub) = additional(s) {
                for (k, x) in map {
                    validate_value(sub, x, &format!("{path}.{k}"), depth + 1, causes);
                }
            }
        }
        _ => {}
    }
}

fn check_number(s: &Value, v: &Value, path: &str, causes: &mut Vec<String>) {
    let Some(x) = number(v) else { return };
    if let Some(min) = s.get("minimum").filter(|m| m.is_number()) {
        let exclusive = flag(s, "exclusiveMinimum");
        let m = number(min).unwrap_or(f64::MIN);
        if x < m || (exclusive && x == m) {
            let rel = if exclusive {
                "greater than"
            } else {
                "greater than or equal to"
            };
            causes.push(format!(
                "{path}: Invalid value: {v}: {path} in body should be {rel} {}",
                bound(min)
            ));
        }
    }
    if let Some(max) = s.get("maximum").filter(|m| m.is_number()) {
        let exclusive = flag(s, "exclusiveMaximum");
        let m = number(max).unwrap_or(f64::MAX);
        if x > m || (exclusive && x == m) {
            let rel = if exclusive {
                "less than"
            } else {
                "less than or equal to"
            };
            causes.push(format!(
                "{path}: Invalid value: {v}: {path} in body should be {rel} {}",
                bound(max)
            ));
        }
    }
}

/// kube-openapi's string validator: `maxLength`, then `minLength`, stopping at the
/// first that fails.
fn check_string(s: &Value, text: &str, path: &str, causes: &mut Vec<String>) {
    let len = text.chars().count() as u64;
    if let Some(max) = s.get("maxLength").and_then(Value::as_u64) {
        if len > max {
            causes.push(format!(
                "{path}: Too long: may not be more than {max} bytes"
            ));
            return;
        }
    }
    if let Some(min) = s.get("minLength").and_then(Value::as_u64) {
        if len < min {
            causes.push(format!(
                "{path}: Invalid value: {text:?}: {path} in body should be at least {min} chars long"
            ));
        }
    }
}

/// `minItems`/`maxItems` or `minProperties`/`maxProperties`.
fn check_count(s: &Value, n: usize, path: &str, what: &str, causes: &mut Vec<String>) {
    let cap = |w: &str| format!("{}{}", w[..1].to_uppercase(), &w[1..]);
    if let Some(min) = s.get(format!("min{}", cap(what))).and_then(Value::as_u64) {
        if (n as u64) < min {
            causes.push(format!(
                "{path}: Invalid value: {n}: {path} in body should have at least {min} {what}"
            ));
        }
    }
    if let Some(max) = s.get(format!("max{}", cap(what))).and_then(Value::as_u64) {
        if n as u64 > max {
            causes.push(format!(
                "{path}: Too many: {n}: must have at most {max} {what}"
            ));
        }
    }
}
