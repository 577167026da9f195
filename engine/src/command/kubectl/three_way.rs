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
//! removed ones). Simplifications: the merge keys are looked up by the list's field
//! name (`containers` → `name`, `ports` → `containerPort` or `port`, `volumeMounts` →
//! `mountPath`…) rather than from the OpenAPI schema; other lists are replaced whole;
//! no `$retainKeys` (so a switch of `strategy.type` to `Recreate` keeps the live
//! `rollingUpdate`, which validation then refuses).

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
    Value::Object(diff_maps(o, m, c))
}

fn diff_maps(
    o: Option<&Map<String, Value>>,
    m: &Map<String, Value>,
    c: &Map<String, Value>,
) -> Map<String, Value> {
    let mut out = Map::new();
    for (k, mv) in m {
        let cv = c.get(k);
        let ov = o.and_then(|o| o.get(k));
        match (mv, cv) {
            (Value::Object(mm), Some(Value::Object(cm))) => {
                let sub = diff_maps(ov.and_then(Value::as_object), mm, cm);
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
