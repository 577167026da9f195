//! `metadata.managedFields` on the wire: how the API server serves an object's
//! managers (FieldsV1, in upstream's order) and how it reads the managers a client
//! sends in an update or a patch, which replace the live ones.
//!
//! A client may write `managedFields` itself: kubectl's migration from client-side to
//! server-side apply sends a JSON patch replacing them (its `kubectl-client-side-apply`
//! entry merged into its `kubectl` Apply entry), and a list with one empty entry
//! resets them. Managers that do not decode are ignored and the live ones kept, so a
//! client that does not know the field cannot wipe it.
//!
//! Upstream: `k8s.io/apimachinery/pkg/util/managedfields/internal/managedfields.go`
//! (`DecodeManagedFields`, `BuildManagerIdentifier`, `sortEncodedManagedFields`),
//! `fieldmanager.go` (`decodeLiveOrNew`, `isResetManagedFields`), `fields.go`
//! (`FieldsToSet`), structured-merge-diff's `fieldpath/serialize.go`.

use super::{Entry, FieldPath, ManagedFields, Operation, Seg};
use crate::api::Kind;
use crate::apiserver::ObjKey;
use crate::time::{parse_rfc3339, rfc3339};
use serde_json::Value;
use std::collections::BTreeSet;

/// What an update's `metadata.managedFields` asks for (`decodeLiveOrNew`).
#[derive(Clone, Debug, PartialEq)]
pub enum Sent {
    /// A list of one empty entry: no managers at all.
    Reset,
    /// Managers that decode: they replace the live ones.
    Entries(Vec<Entry>),
    /// Nothing, an empty list, or managers that do not decode: the live ones stay.
    Live,
}

/// Reads the managers a client sent.
pub fn decode_live_or_new(sent: &Value) -> Sent {
    let Some(list) = sent.as_array() else {
        return Sent::Live;
    };
    if is_reset(list) {
        return Sent::Reset;
    }
    match decode_managed_fields(list) {
        Ok(entries) if !entries.is_empty() => Sent::Entries(entries),
        _ => Sent::Live,
    }
}

/// `isResetManagedFields`: exactly one entry, the zero `ManagedFieldsEntry`.
fn is_reset(list: &[Value]) -> bool {
    let [only] = list else { return false };
    only.as_object().is_some_and(|m| {
        m.values()
            .all(|v| v.is_null() || v.as_str().is_some_and(str::is_empty))
    })
}

/// `DecodeManagedFields`: every entry Apply or Update, with an API version and
/// FieldsV1; two entries with one manager identifier keep the later.
fn decode_managed_fields(list: &[Value]) -> Result<Vec<Entry>, String> {
    let mut out: Vec<Entry> = Vec::with_capacity(list.len());
    for (i, e) in list.iter().enumerate() {
        let text = |f: &str| e.get(f).and_then(Value::as_str).unwrap_or("");
        let operation = match text("operation") {
            "Apply" => Operation::Apply,
            "Update" => Operation::Update,
            _ => return Err("operation must be `Apply` or `Update`".into()),
        };
        if text("apiVersion").is_empty() {
            return Err("apiVersion must not be empty".into());
        }
        match text("fieldsType") {
            "FieldsV1" => {}
            "" => return Err(format!("missing fieldsType in managed fields entry {i}")),
            t => {
                return Err(format!(
                    "invalid fieldsType {t:?} in managed fields entry {i}"
                ))
            }
        }
        let empty = Value::Object(Default::default());
        let fields = fields_to_set(e.get("fieldsV1").unwrap_or(&empty))?;
        let entry = Entry {
            manager: text("manager").into(),
            operation,
            subresource: text("subresource").into(),
            api_version: text("apiVersion").into(),
            time: e
                .get("time")
                .and_then(Value::as_str)
                .and_then(parse_rfc3339),
            fields,
        };
        // `BuildManagerIdentifier`: the manager, operation and subresource, and for
        // an Update its API version.
        let same = |o: &Entry| {
            o.manager == entry.manager
                && o.operation == entry.operation
                && o.subresource == entry.subresource
                && (operation == Operation::Apply || o.api_version == entry.api_version)
        };
        out.retain(|o| !same(o));
        out.push(entry);
    }
    Ok(out)
}

/// `FieldsToSet`: the leaf paths of a FieldsV1 trie. `f:` names a field, `k:` a list
/// element by its key fields, `.` the element itself. Lists kubeplay keeps atomic
/// (`v:` and `i:` elements) are owned whole.
pub fn fields_to_set(v: &Value) -> Result<BTreeSet<FieldPath>, String> {
    let mut out = BTreeSet::new();
    walk_fields(v, &mut Vec::new(), &mut out)?;
    Ok(out)
}

fn walk_fields(v: &Value, at: &mut FieldPath, out: &mut BTreeSet<FieldPath>) -> Result<(), String> {
    let Some(m) = v.as_object() else {
        return Err(format!("expected an object, got {v}"));
    };
    if m.keys().all(|k| k == ".") {
        if !at.is_empty() && !matches!(at.last(), Some(Seg::Key(_))) {
            out.insert(at.clone());
        }
        return Ok(());
    }
    for (k, child) in m {
        if k == "." {
            continue;
        }
        if let Some(name) = k.strip_prefix("f:") {
            at.push(Seg::Field(name.into()));
            walk_fields(child, at, out)?;
            at.pop();
        } else if let Some(keys) = k.strip_prefix("k:") {
            let Ok(Value::Object(kv)) = serde_json::from_str::<Value>(keys) else {
                return Err(format!("parsing JSON: {k}"));
            };
            let mut pairs: Vec<(String, String)> =
                kv.iter().map(|(k, v)| (k.clone(), v.to_string())).collect();
            crate::sorting::sort(&mut pairs);
            at.push(Seg::Key(pairs));
            walk_fields(child, at, out)?;
            at.pop();
        } else if k.starts_with("v:") || k.starts_with("i:") {
            if !at.is_empty() {
                out.insert(at.clone());
            }
        } else {
            return Err(format!("unexpected key {k:?}"));
        }
    }
    Ok(())
}

/// FieldsV1: `f:` for fields, `k:{…}` for keyed list elements (with `.` for the
/// element itself).
pub fn set_to_fields(fields: &BTreeSet<FieldPath>) -> Value {
    let mut root = serde_json::Map::new();
    for p in fields {
        let mut cur = &mut root;
        for seg in p {
            let name = match seg {
                Seg::Field(f) => format!("f:{f}"),
                Seg::Key(kv) => {
                    let obj: serde_json::Map<String, Value> = kv
                        .iter()
                        .map(|(k, v)| (k.clone(), serde_json::from_str(v).unwrap_or(Value::Null)))
                        .collect();
                    format!("k:{}", Value::Object(obj))
                }
            };
            let keyed = name.starts_with("k:");
            let entry = cur
                .entry(name)
                .or_insert_with(|| Value::Object(Default::default()));
            // Every node this builds is an object; a leaf becomes one when a longer
            // path passes through it.
            if !entry.is_object() {
                *entry = Value::Object(Default::default());
            }
            let Some(next) = entry.as_object_mut() else {
                break;
            };
            if keyed {
                next.entry(".")
                    .or_insert_with(|| Value::Object(Default::default()));
            }
            cur = next;
        }
    }
    Value::Object(root)
}

impl ManagedFields {
    /// `metadata.managedFields` as the API serves it, in `sortEncodedManagedFields`'
    /// order: Apply before Update, then by time (to the second), manager, API version
    /// and subresource.
    pub fn to_json(&self, kind: Kind, key: &ObjKey) -> Value {
        let mut entries: Vec<&Entry> = self.get(kind, key).iter().collect();
        fn order<'a>(e: &&'a Entry) -> (&'static str, u64, &'a str, &'a str, &'a str) {
            (
                e.operation.as_str(),
                e.time.map_or(0, |t| t / 1000),
                e.manager.as_str(),
                e.api_version.as_str(),
                e.subresource.as_str(),
            )
        }
        crate::sorting::sort_by(&mut entries, |a, b| order(a).cmp(&order(b)));
        Value::Array(entries.into_iter().map(entry_json).collect())
    }

    /// An update's managers replace the live ones, before the update's own changes
    /// are recorded (`FieldManager.Update`).
    pub fn take_sent(&mut self, kind: Kind, key: &ObjKey, sent: &Value) {
        match decode_live_or_new(sent) {
            Sent::Live => {}
            Sent::Reset => {
                self.by.remove(&(kind, key.clone()));
            }
            Sent::Entries(entries) => {
                self.by.insert((kind, key.clone()), entries);
            }
        }
    }
}

fn entry_json(e: &Entry) -> Value {
    let mut m = serde_json::Map::new();
    m.insert("apiVersion".into(), e.api_version.clone().into());
    m.insert("fieldsType".into(), "FieldsV1".into());
    m.insert("fieldsV1".into(), set_to_fields(&e.fields));
    m.insert("manager".into(), e.manager.clone().into());
    m.insert("operation".into(), e.operation.as_str().into());
    if !e.subresource.is_empty() {
        m.insert("subresource".into(), e.subresource.clone().into());
    }
    if let Some(t) = e.time {
        m.insert("time".into(), rfc3339(t).into());
    }
    Value::Object(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn paths(v: Value) -> Vec<String> {
        fields_to_set(&v)
            .unwrap()
            .iter()
            .map(|p| super::super::path_string(p))
            .collect()
    }

    #[test]
    fn fields_v1_reads_back_into_the_paths_it_was_written_from() {
        let v = json!({"f:metadata": {"f:labels": {"f:app": {}}},
            "f:spec": {"f:replicas": {}, "f:template": {"f:spec": {"f:containers": {
                "k:{\"name\":\"nginx\"}": {".": {}, "f:image": {}, "f:name": {},
                    "f:ports": {"k:{\"protocol\":\"TCP\",\"containerPort\":80}": {".": {}, "f:containerPort": {}}}}}}}}});
        let set = fields_to_set(&v).unwrap();
        assert_eq!(
            paths(v),
            [
                ".metadata.labels.app",
                ".spec.replicas",
                ".spec.template.spec.containers[name=\"nginx\"].image",
                ".spec.template.spec.containers[name=\"nginx\"].name",
                ".spec.template.spec.containers[name=\"nginx\"].ports[containerPort=80,protocol=\"TCP\"].containerPort",
            ]
        );
        assert_eq!(fields_to_set(&set_to_fields(&set)).unwrap(), set);
    }

    #[test]
    fn a_set_list_or_an_indexed_element_owns_its_list_whole() {
        assert_eq!(
            paths(json!({"f:metadata": {"f:finalizers": {".": {}, "v:\"a\"": {}}}})),
            [".metadata.finalizers"]
        );
    }

    #[test]
    fn what_is_not_fields_v1_does_not_decode() {
        assert!(fields_to_set(&json!({"spec": {}})).is_err());
        assert!(fields_to_set(&json!({"f:spec": 1})).is_err());
        assert!(fields_to_set(&json!({"k:notjson": {}})).is_err());
    }

    #[test]
    fn one_empty_entry_resets_and_a_bad_or_empty_list_keeps_the_live_managers() {
        assert_eq!(decode_live_or_new(&json!([{}])), Sent::Reset);
        assert_eq!(decode_live_or_new(&json!([])), Sent::Live);
        assert_eq!(decode_live_or_new(&json!([{}, {}])), Sent::Live);
        let bad_op = json!([{"manager": "m", "operation": "Patch", "apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": {}}]);
        assert_eq!(decode_live_or_new(&bad_op), Sent::Live);
        let no_type =
            json!([{"manager": "m", "operation": "Update", "apiVersion": "v1", "fieldsV1": {}}]);
        assert_eq!(decode_live_or_new(&no_type), Sent::Live);
        let ok = json!([{"manager": "m", "operation": "Update", "apiVersion": "v1", "fieldsType": "FieldsV1",
            "fieldsV1": {"f:data": {"f:a": {}}}, "time": "2025-01-01T00:00:05Z"}]);
        let Sent::Entries(e) = decode_live_or_new(&ok) else {
            panic!("decodes")
        };
        assert_eq!((e[0].manager.as_str(), e[0].time), ("m", Some(5_000)));
    }

    #[test]
    fn managers_are_served_apply_first_then_by_time_and_name() {
        let mut m = ManagedFields::default();
        let key = ObjKey::new("default", "cm");
        let e = |manager: &str, operation, time| Entry {
            manager: manager.into(),
            operation,
            subresource: String::new(),
            api_version: "v1".into(),
            time: Some(time),
            fields: BTreeSet::new(),
        };
        m.by.insert(
            (Kind::ConfigMap, key.clone()),
            vec![
                e("kubectl-client-side-apply", Operation::Update, 0),
                e("kubectl-last-applied", Operation::Apply, 1_000),
                e("kubectl", Operation::Apply, 1_500),
            ],
        );
        let served = m.to_json(Kind::ConfigMap, &key);
        let names: Vec<&str> = served
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["manager"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            [
                "kubectl",
                "kubectl-last-applied",
                "kubectl-client-side-apply"
            ]
        );
    }
}
