//! The patch client-side `kubectl apply` sends: a three-way strategic merge patch
//! from the last applied configuration (`original`), the manifest with its new
//! annotation (`modified`) and the live object (`current`), sent as a strategic merge
//! patch (and printed in `error when applying patch:\n{patch}\nto:…` when the API
//! server refuses it). Also `kubectl edit`'s patch (no `original`).
//!
//! Upstream: `staging/src/k8s.io/apimachinery/pkg/util/strategicpatch/patch.go`
//! (`CreateThreeWayMergePatch`: the changes from current to modified, and the
//! deletions of what original had and modified dropped; lists with a patch merge key
//! as `$setElementOrder/<list>` plus the changed elements by key, `$patch: delete` for
//! removed ones; `$retainKeys` in a map whose field's patch strategy is `retainKeys`).
//! The merge keys and strategies are looked up by the field's name (`containers` →
//! `name`, `ports` → `containerPort` or `port`, `volumeMounts` → `mountPath`;
//! `strategy` and each of `volumes` retain keys), as kubectl's compiled-in types
//! have them; other lists are replaced whole.

use crate::apiserver::patch::merge_key;
use serde_json::{Map, Value};

/// `CreateThreeWayMergePatch` of three JSON objects.
pub(super) fn three_way_patch(
    original: Option<&Value>,
    modified: &Value,
    current: &Value,
) -> Value {
    let empty = Map::new();
    let o = original.and_then(Value::as_object);
    let m = modified.as_object().unwrap_or(&empty);
    let c = current.as_object().unwrap_or(&empty);
    Value::Object(diff_maps(o, m, c, false))
}

/// Whether a map field's patch strategy is `retainKeys`: a Deployment's `strategy`
/// (`DeploymentSpec.Strategy`), and each element of a Pod's `volumes`
/// (`patchStrategy:"merge,retainKeys"`), so that a field the manifest no longer sets
/// (`rollingUpdate` beside `type: Recreate`; a volume's old source) is cleared.
fn retains_keys(field: &str) -> bool {
    matches!(field, "strategy" | "volumes")
}

/// `hasAdditionalNewField`: a key of `a` with a non-null value that `b` lacks.
fn has_additional_new_field(a: &Map<String, Value>, b: &Map<String, Value>) -> bool {
    a.iter().any(|(k, v)| !v.is_null() && !b.contains_key(k))
}

fn diff_maps(
    o: Option<&Map<String, Value>>,
    m: &Map<String, Value>,
    c: &Map<String, Value>,
    retain_keys: bool,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (k, mv) in m {
        let cv = c.get(k);
        let ov = o.and_then(|o| o.get(k));
        match (mv, cv) {
            (Value::Object(mm), Some(Value::Object(cm))) => {
                let sub = diff_maps(ov.and_then(Value::as_object), mm, cm, retains_keys(k));
                if !sub.is_empty() {
                    out.insert(k.clone(), Value::Object(sub));
                }
            }
            (Value::Array(ml), Some(Value::Array(cl))) => {
                if let Some(key) = merge_key(k, ml.first().or(cl.first())) {
                    diff_keyed_list(&mut out, k, key, ov.and_then(Value::as_array), ml, cl);
                } else if ml != cl {
                    out.insert(k.clone(), mv.clone());
                }
            }
            _ => {
                if cv != Some(mv) {
                    out.insert(k.clone(), mv.clone());
                }
            }
        }
    }
    // What the last apply set and this manifest dropped is deleted.
    if let Some(o) = o {
        for k in o.keys() {
            if !m.contains_key(k) {
                out.insert(k.clone(), Value::Null);
            }
        }
    }
    // Every key the manifest sets, when anything changes or the live object (or the
    // last apply) has a key the manifest does not: the server then clears the rest.
    let keep: Vec<Value> = m
        .iter()
        .filter(|(_, v)| !v.is_null())
        .map(|(k, _)| Value::from(k.as_str()))
        .collect();
    let extra = has_additional_new_field(c, m) || o.is_some_and(|o| has_additional_new_field(o, m));
    if retain_keys && !keep.is_empty() && (!out.is_empty() || extra) {
        out.insert("$retainKeys".into(), Value::Array(keep));
    }
    out
}

fn diff_keyed_list(
    out: &mut Map<String, Value>,
    field: &str,
    key: &str,
    o: Option<&Vec<Value>>,
    m: &[Value],
    c: &[Value],
) {
    let find = |list: &'_ [Value], id: &Value| -> Option<Value> {
        list.iter().find(|e| e.get(key) == Some(id)).cloned()
    };
    let mut changed = Vec::new();
    for me in m {
        let Some(id) = me.get(key) else {
            continue;
        };
        match find(c, id) {
            None => changed.push(me.clone()),
            Some(ce) => {
                let oe = o.and_then(|o| find(o, id));
                let empty = Map::new();
                let mut sub = diff_maps(
                    oe.as_ref().and_then(Value::as_object),
                    me.as_object().unwrap_or(&empty),
                    ce.as_object().unwrap_or(&empty),
                    retains_keys(field),
                );
                if !sub.is_empty() {
                    sub.insert(key.to_string(), id.clone());
                    changed.push(Value::Object(sub));
                }
            }
        }
    }
    if let Some(o) = o {
        for oe in o {
            let Some(id) = oe.get(key) else { continue };
            if find(m, id).is_none() {
                let mut del = Map::new();
                del.insert("$patch".into(), "delete".into());
                del.insert(key.to_string(), id.clone());
                changed.push(Value::Object(del));
            }
        }
    }
    if changed.is_empty() {
        return;
    }
    let order: Vec<Value> = m
        .iter()
        .filter_map(|e| e.get(key))
        .map(|id| {
            let mut x = Map::new();
            x.insert(key.to_string(), id.clone());
            Value::Object(x)
        })
        .collect();
    out.insert(format!("$setElementOrder/{field}"), Value::Array(order));
    out.insert(field.to_string(), Value::Array(changed));
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_changed_image_is_patched_by_the_containers_name_with_their_order() {
        let current = json!({"spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "nginx", "image": "nginx:1.27", "imagePullPolicy": "IfNotPresent"}]}}}});
        let modified = json!({"spec": {"replicas": 3, "template": {"spec": {"containers": [{"name": "nginx", "image": "nginx:1.28"}]}}}});
        let p = three_way_patch(Some(&modified), &modified, &current);
        assert_eq!(
            p.to_string(),
            r#"{"spec":{"template":{"spec":{"$setElementOrder/containers":[{"name":"nginx"}],"containers":[{"image":"nginx:1.28","name":"nginx"}]}}}}"#
        );
    }

    #[test]
    fn a_switch_to_recreate_retains_only_the_keys_the_manifest_sets() {
        let live = json!({"spec": {"strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}}}});
        let modified = json!({"spec": {"strategy": {"type": "Recreate"}}});
        assert_eq!(
            three_way_patch(None, &modified, &live).to_string(),
            r#"{"spec":{"strategy":{"$retainKeys":["type"],"type":"Recreate"}}}"#
        );
        // Nothing changed, but the live object has a key the manifest does not set.
        let same = json!({"spec": {"strategy": {"type": "RollingUpdate"}}});
        assert_eq!(
            three_way_patch(Some(&same), &same, &live).to_string(),
            r#"{"spec":{"strategy":{"$retainKeys":["type"]}}}"#
        );
    }

    #[test]
    fn a_field_the_last_apply_set_and_the_manifest_dropped_is_deleted() {
        let original = json!({"metadata": {"labels": {"a": "1", "b": "2"}}});
        let modified = json!({"metadata": {"labels": {"a": "1"}}});
        let current = json!({"metadata": {"labels": {"a": "1", "b": "2", "c": "3"}}});
        assert_eq!(
            three_way_patch(Some(&original), &modified, &current).to_string(),
            r#"{"metadata":{"labels":{"b":null}}}"#
        );
    }
}
