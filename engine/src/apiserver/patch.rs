//! The three patch formats a `PATCH` may carry besides server-side apply: JSON patch
//! (RFC 6902), JSON merge patch (RFC 7386) and the strategic merge patch.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go` (which
//! patch type goes where), `github.com/evanphx/json-patch` (JSON and merge patch) and
//! `staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go`
//! (`StrategicMergePatch`: lists with a patch merge key merged element by element,
//! the `$patch`, `$retainKeys`, `$setElementOrder/` and `$deleteFromPrimitiveList/`
//! directives). Simplification, as in `kubectl apply`'s patch: the merge keys are
//! known by the list's field name rather than read from the OpenAPI schema.

use super::ApiError;
use crate::api::Object;
use serde_json::{json, Map, Value};

/// The patch formats a `PATCH` may carry besides server-side apply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchType {
    /// `application/json-patch+json` (RFC 6902).
    Json,
    /// `application/merge-patch+json` (RFC 7386).
    Merge,
    /// `application/strategic-merge-patch+json`.
    Strategic,
}

impl PatchType {
    /// The patch type a `Content-Type` names (None: not one of these three).
    pub fn from_content_type(ct: &str) -> Option<Self> {
        match ct {
            "application/json-patch+json" => Some(PatchType::Json),
            "application/merge-patch+json" => Some(PatchType::Merge),
            "application/strategic-merge-patch+json" => Some(PatchType::Strategic),
            _ => None,
        }
    }
}

/// The document `patch` makes of `doc`, by its type.
pub fn apply_patch(doc: &mut Value, t: PatchType, patch: &Value) -> Result<(), ApiError> {
    match t {
        PatchType::Json => json_patch(doc, patch).map_err(|e| ApiError {
            code: 422,
            reason: "Invalid",
            message: e,
            kubectl_message: None,
            details: None,
        }),
        PatchType::Merge => {
            merge_patch(doc, patch);
            Ok(())
        }
        PatchType::Strategic => strategic_merge(doc, patch).map_err(ApiError::bad_request),
    }
}

/// What a patch of `live` (or of its `scale` subresource) writes: the patched object,
/// or None when it changes nothing. A patch is unconditional unless it sets a
/// resourceVersion itself; unknown fields follow `validation` (`fieldValidation`).
///
/// The patch applies to the object as it is served, `managed` (its
/// `metadata.managedFields`) included: a patch that changes them hands them back
/// beside the object, for the field manager (`managed_fields::take_sent`).
pub fn patched(
    live: &Object,
    managed: Option<&Value>,
    subresource: &str,
    t: PatchType,
    patch: &Value,
    validation: &str,
    warnings: &mut Vec<String>,
) -> Result<Option<(Object, Option<Value>)>, ApiError> {
    let kind = live.kind();
    if subresource == "scale" {
        let mut doc = scale_of(live).ok_or_else(ApiError::no_such_resource)?;
        apply_patch(&mut doc, t, patch)?;
        let Some(replicas) = doc.pointer("/spec/replicas").and_then(Value::as_i64) else {
            return Err(ApiError::bad_request(
                "spec.replicas: Required value".into(),
            ));
        };
        let want_rv = doc
            .pointer("/metadata/resourceVersion")
            .and_then(Value::as_str)
            .unwrap_or("");
        let mut j = live.to_json();
        match spec_replicas_pointer(live) {
            Some(at) => set_at(&mut j, &at, json!(replicas)),
            None => j["spec"]["replicas"] = json!(replicas),
        }
        let mut obj = crate::manifest::object_from_json(kind, j).map_err(ApiError::bad_request)?;
        super::prepare::keep_hidden(live, &mut obj);
        obj.meta_mut().resource_version = want_rv.to_string();
        return Ok(Some((obj, None)));
    }
    let mut before = live.to_json();
    if let (Some(m), Some(meta)) = (managed, before.get_mut("metadata")) {
        meta["managedFields"] = m.clone();
    }
    let mut doc = before.clone();
    apply_patch(&mut doc, t, patch).map_err(|e| {
        // A JSON patch that cannot apply is the object's 422, naming it: kubectl
        // prints `The Deployment "web" is invalid: testing value /spec/replicas
        // failed: test failed`.
        if t == PatchType::Json && e.code == 422 {
            ApiError::invalid(kind, &live.meta().name, &[e.message])
        } else {
            e
        }
    })?;
    // The strategies' PrepareForUpdate: the main resource cannot change status, nor
    // the status subresource anything else. (A patch that is not an object replaced
    // the whole document: decoding refuses it.)
    let status = if subresource == "status" {
        let status = doc.get("status").cloned();
        doc = before.clone();
        status
    } else {
        before.get("status").cloned()
    };
    if let Some(o) = doc.as_object_mut() {
        match status {
            Some(st) => {
                o.insert("status".into(), st);
            }
            None => {
                o.remove("status");
            }
        }
    }
    if doc.pointer("/metadata/resourceVersion").is_none() {
        if let Some(m) = doc.get_mut("metadata") {
            m["resourceVersion"] = json!(live.meta().resource_version);
        }
    }
    let take = |v: &mut Value| {
        v.get_mut("metadata")
            .and_then(Value::as_object_mut)
            .and_then(|m| m.remove("managedFields"))
    };
    let sent = take(&mut doc).filter(|m| Some(m) != managed);
    take(&mut before);
    // Nothing changes: no write (the API server's no-op update).
    if doc == before && sent.is_none() {
        return Ok(None);
    }
    let mut obj = super::decode::decode_object(kind, doc, validation, warnings)?;
    if obj.meta().name != live.meta().name {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({}) does not match the name on the URL ({})",
            obj.meta().name,
            live.meta().name
        )));
    }
    if obj.meta().namespace.is_empty() {
        obj.meta_mut().namespace = live.meta().namespace.clone();
    }
    super::prepare::keep_hidden(live, &mut obj);
    Ok(Some((obj, sent)))
}

/// The `autoscaling/v1` Scale of a scalable object.
pub fn scale_of(obj: &Object) -> Option<Value> {
    let j = obj.to_json();
    let (replicas, status_replicas, selector) = match obj {
        Object::Custom(_) => {
            // `scaleFromCustomResource`: the values at the definition's paths.
            let (spec, status, sel) = crate::api::discovered::scale_paths(obj.kind())?;
            let replicas = json!(j.pointer(&spec)?.as_i64()?);
            let status = j.pointer(&status).and_then(Value::as_i64).unwrap_or(0);
            let sel = sel.and_then(|p| j.pointer(&p)?.as_str().map(String::from));
            (replicas, status, sel.unwrap_or_default())
        }
        _ => {
            let (status, sel) = match obj {
                Object::Deployment(d) => (d.status.replicas, d.spec.selector.to_selector_string()),
                Object::ReplicaSet(r) => (r.status.replicas, r.spec.selector.to_selector_string()),
                Object::StatefulSet(s) => (s.status.replicas, s.spec.selector.to_selector_string()),
                _ => return None,
            };
            (j.pointer("/spec/replicas")?.clone(), status, sel)
        }
    };
    let m = &j["metadata"];
    Some(json!({
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": {
            "name": m["name"], "namespace": m["namespace"], "uid": m["uid"],
            "resourceVersion": m["resourceVersion"], "creationTimestamp": m["creationTimestamp"],
        },
        "spec": {"replicas": replicas},
        "status": {"replicas": status_replicas, "selector": selector},
    }))
}

/// Where a custom object keeps its desired replicas (its scale subresource's
/// `specReplicasPath`); None for the built-in kinds (`spec.replicas`).
fn spec_replicas_pointer(obj: &Object) -> Option<String> {
    match obj {
        Object::Custom(_) => crate::api::discovered::scale_paths(obj.kind()).map(|(s, _, _)| s),
        _ => None,
    }
}

/// Set the value at a JSON pointer, making the objects on the way.
fn set_at(v: &mut Value, pointer: &str, x: Value) {
    let mut at = v;
    let parts: Vec<&str> = pointer.trim_start_matches('/').split('/').collect();
    for (i, p) in parts.iter().enumerate() {
        if !at.is_object() {
            *at = json!({});
        }
        let Value::Object(m) = at else { return };
        if i + 1 == parts.len() {
            m.insert(p.to_string(), x);
            return;
        }
        at = m.entry(p.to_string()).or_insert_with(|| json!({}));
    }
}

/// RFC 7386: a merge patch applied to `target`.
pub fn merge_patch(target: &mut Value, patch: &Value) {
    match (target, patch) {
        (Value::Object(t), Value::Object(p)) => {
            for (k, v) in p {
                if v.is_null() {
                    t.remove(k);
                } else {
                    merge_patch(t.entry(k.clone()).or_insert(Value::Null), v);
                }
            }
        }
        (t, p) => *t = p.clone(),
    }
}

/// The patch merge key of a list field (what `patchMergeKey` says in the API types).
pub fn merge_key(field: &str, sample: Option<&Value>) -> Option<&'static str> {
    match field {
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "env"
        | "volumes"
        | "imagePullSecrets"
        | "resourceClaims" => Some("name"),
        "hostAliases" => Some("ip"),
        "volumeMounts" => Some("mountPath"),
        "volumeDevices" => Some("devicePath"),
        "conditions" => Some("type"),
        "ownerReferences" => Some("uid"),
        "topologySpreadConstraints" => Some("topologyKey"),
        "ports" => Some(
            if sample.is_some_and(|s| s.get("containerPort").is_some()) {
                "containerPort"
            } else {
                "port"
            },
        ),
        _ => None,
    }
}

/// Lists merged as sets of scalars (`patchStrategy: merge` without a key).
fn merges_primitives(field: &str) -> bool {
    field == "finalizers"
}

/// A strategic merge patch applied to `target`; the error is the API server's
/// wording for a patch it cannot apply.
pub fn strategic_merge(target: &mut Value, patch: &Value) -> Result<(), String> {
    match (target, patch) {
        (Value::Object(t), Value::Object(p)) => merge_map(t, p),
        (t, p) => {
            *t = p.clone();
            Ok(())
        }
    }
}

fn merge_map(t: &mut Map<String, Value>, p: &Map<String, Value>) -> Result<(), String> {
    match p.get("$patch").and_then(Value::as_str) {
        Some("replace") => {
            let mut fresh = p.clone();
            fresh.remove("$patch");
            *t = fresh;
            return Ok(());
        }
        Some("delete") => {
            t.clear();
            return Ok(());
        }
        Some(other) if other != "merge" => {
            return Err(format!("Unknown patch type: {other} in map: {p:?}"));
        }
        _ => {}
    }
    if let Some(keep) = p.get("$retainKeys").and_then(Value::as_array) {
        let keep: Vec<&str> = keep.iter().filter_map(Value::as_str).collect();
        t.retain(|k, _| keep.contains(&k.as_str()));
    }
    for (k, v) in p {
        if k == "$patch" || k == "$retainKeys" || k.starts_with("$setElementOrder/") {
            continue;
        }
        if let Some(field) = k.strip_prefix("$deleteFromPrimitiveList/") {
            if let (Some(Value::Array(list)), Value::Array(del)) = (t.get_mut(field), v) {
                list.retain(|x| !del.contains(x));
            }
            continue;
        }
        if v.is_null() {
            t.remove(k);
            continue;
        }
        match (t.get_mut(k), v) {
            (Some(Value::Object(tm)), Value::Object(pm)) => merge_map(tm, pm)?,
            (Some(Value::Array(tl)), Value::Array(pl)) => merge_list(k, tl, pl)?,
            (_, Value::Object(pm)) => {
                // A new map: directives inside it still apply (to nothing).
                let mut fresh = Map::new();
                merge_map(&mut fresh, pm)?;
                t.insert(k.clone(), Value::Object(fresh));
            }
            (_, Value::Array(pl)) => {
                let mut fresh = Vec::new();
                merge_list(k, &mut fresh, pl)?;
                t.insert(k.clone(), Value::Array(fresh));
            }
            (_, other) => {
                t.insert(k.clone(), other.clone());
            }
        }
    }
    // `$setElementOrder/<list>`: the order the patch's author wants the keyed list in.
    for (k, order) in p {
        let Some(field) = k.strip_prefix("$setElementOrder/") else {
            continue;
        };
        let (Some(Value::Array(list)), Value::Array(order)) = (t.get_mut(field), order) else {
            continue;
        };
        let key = merge_key(field, list.first());
        let pos = |x: &Value| {
            order
                .iter()
                .position(|o| match key {
                    Some(key) => o.get(key).is_some() && o.get(key) == x.get(key),
                    None => o == x,
                })
                .unwrap_or(usize::MAX)
        };
        crate::sorting::sort_by_key(list, pos);
    }
    Ok(())
}

fn merge_list(field: &str, t: &mut Vec<Value>, p: &[Value]) -> Result<(), String> {
    if p.iter()
        .any(|x| x.get("$patch").and_then(Value::as_str) == Some("replace"))
    {
        *t = p
            .iter()
            .filter(|x| x.get("$patch").is_none())
            .cloned()
            .collect();
        return Ok(());
    }
    if merges_primitives(field) {
        for x in p {
            if !t.contains(x) {
                t.push(x.clone());
            }
        }
        return Ok(());
    }
    let Some(key) = merge_key(field, p.first().or(t.first())) else {
        *t = p.to_vec();
        return Ok(());
    };
    for item in p {
        let Some(id) = item.get(key) else {
            return Err(format!(
                "map: {item} does not contain declared merge key: {key}"
            ));
        };
        let at = t.iter().position(|x| x.get(key) == Some(id));
        if item.get("$patch").and_then(Value::as_str) == Some("delete") {
            if let Some(i) = at {
                t.remove(i);
            }
            continue;
        }
        match at {
            Some(i) => strategic_merge(&mut t[i], item)?,
            None => {
                let mut fresh = Value::Object(Map::new());
                strategic_merge(&mut fresh, item)?;
                t.push(fresh);
            }
        }
    }
    Ok(())
}

/// RFC 6902: a JSON patch applied to `target`; the error is the API server's text.
pub fn json_patch(target: &mut Value, patch: &Value) -> Result<(), String> {
    let Some(ops) = patch.as_array() else {
        return Err("json: cannot unmarshal object into Go value of type jsonpatch.Patch".into());
    };
    for op in ops {
        let kind = op.get("op").and_then(Value::as_str).unwrap_or("");
        let path = op.get("path").and_then(Value::as_str).unwrap_or("");
        match kind {
            "add" => add(target, path, value_of(op)?)?,
            "remove" => {
                remove(target, path)?;
            }
            "replace" => {
                remove(target, path)?;
                add(target, path, value_of(op)?)?;
            }
            "move" => {
                let from = op.get("from").and_then(Value::as_str).unwrap_or("");
                let v = remove(target, from)?;
                add(target, path, v)?;
            }
            "copy" => {
                let from = op.get("from").and_then(Value::as_str).unwrap_or("");
                let v = target.pointer(from).cloned().ok_or_else(|| missing(from))?;
                add(target, path, v)?;
            }
            "test" => {
                let want = value_of(op)?;
                if target.pointer(path) != Some(&want) {
                    return Err(format!("testing value {path} failed: test failed"));
                }
            }
            other => return Err(format!("Unexpected kind: {other}")),
        }
    }
    Ok(())
}

fn value_of(op: &Value) -> Result<Value, String> {
    op.get("value")
        .cloned()
        .ok_or_else(|| "missing value".to_string())
}

fn missing(path: &str) -> String {
    format!("replace operation does not apply: doc is missing path: {path}: missing value")
}

fn unescape(s: &str) -> String {
    s.replace("~1", "/").replace("~0", "~")
}

fn split(path: &str) -> Option<(String, String)> {
    let (parent, last) = path.rsplit_once('/')?;
    Some((parent.to_string(), unescape(last)))
}

fn add(target: &mut Value, path: &str, v: Value) -> Result<(), String> {
    if path.is_empty() {
        *target = v;
        return Ok(());
    }
    let (parent, last) = split(path).ok_or_else(|| missing(path))?;
    match target.pointer_mut(&parent) {
        Some(Value::Object(m)) => {
            m.insert(last, v);
            Ok(())
        }
        Some(Value::Array(a)) => {
            let i = if last == "-" {
                a.len()
            } else {
                last.parse::<usize>().map_err(|_| missing(path))?
            };
            if i > a.len() {
                return Err(format!(
                    "add operation does not apply: doc is missing path: \"{path}\": missing value"
                ));
            }
            a.insert(i, v);
            Ok(())
        }
        _ => Err(format!(
            "add operation does not apply: doc is missing path: \"{path}\": missing value"
        )),
    }
}

fn remove(target: &mut Value, path: &str) -> Result<Value, String> {
    let (parent, last) = split(path).ok_or_else(|| missing(path))?;
    match target.pointer_mut(&parent) {
        Some(Value::Object(m)) => m.remove(&last).ok_or_else(|| missing(path)),
        Some(Value::Array(a)) => match last.parse::<usize>() {
            Ok(i) if i < a.len() => Ok(a.remove(i)),
            _ => Err(missing(path)),
        },
        _ => Err(missing(path)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_strategic_patch_merges_containers_by_name_and_replaces_other_lists() {
        let mut live = json!({"spec": {"template": {"spec": {
            "containers": [{"name": "app", "image": "a:1"}, {"name": "side", "image": "s:1"}],
            "tolerations": [{"key": "x"}]
        }}}});
        let patch = json!({"spec": {"template": {"spec": {
            "containers": [{"name": "app", "image": "a:2"}],
            "tolerations": [{"key": "y"}]
        }}}});
        strategic_merge(&mut live, &patch).unwrap();
        assert_eq!(
            live["spec"]["template"]["spec"]["containers"],
            json!([{"name": "app", "image": "a:2"}, {"name": "side", "image": "s:1"}])
        );
        assert_eq!(
            live["spec"]["template"]["spec"]["tolerations"],
            json!([{"key": "y"}])
        );
    }

    #[test]
    fn strategic_directives_delete_an_element_retain_keys_and_set_the_order() {
        let mut live = json!({"env": [{"name": "A", "value": "1"}, {"name": "B", "value": "2"}],
            "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": 1}}});
        let patch = json!({
            "$setElementOrder/env": [{"name": "C"}, {"name": "A"}],
            "env": [{"name": "B", "$patch": "delete"}, {"name": "C", "value": "3"}],
            "strategy": {"$retainKeys": ["type"], "type": "Recreate"}
        });
        strategic_merge(&mut live, &patch).unwrap();
        assert_eq!(
            live["env"],
            json!([{"name": "C", "value": "3"}, {"name": "A", "value": "1"}])
        );
        assert_eq!(live["strategy"], json!({"type": "Recreate"}));
    }

    #[test]
    fn a_json_patch_adds_replaces_removes_and_fails_on_a_missing_path() {
        let mut v = json!({"spec": {"replicas": 1, "a": [1, 2]}});
        json_patch(
            &mut v,
            &json!([
                {"op": "replace", "path": "/spec/replicas", "value": 3},
                {"op": "add", "path": "/spec/a/-", "value": 9},
                {"op": "remove", "path": "/spec/a/0"},
                {"op": "test", "path": "/spec/replicas", "value": 3}
            ]),
        )
        .unwrap();
        assert_eq!(v, json!({"spec": {"replicas": 3, "a": [2, 9]}}));
        assert!(json_patch(&mut v, &json!([{"op": "remove", "path": "/spec/nope"}])).is_err());
        assert!(json_patch(&mut v, &json!({"op": "add"})).is_err());
    }

    #[test]
    fn a_merge_patch_removes_fields_set_to_null() {
        let mut v = json!({"a": {"b": 1, "c": 2}});
        merge_patch(&mut v, &json!({"a": {"b": null, "d": [1]}}));
        assert_eq!(v, json!({"a": {"c": 2, "d": [1]}}));
    }
}
