//! Field ownership (`metadata.managedFields`) and server-side apply's conflicts.
//!
//! Every write that changes an object's fields records who changed which: an
//! `Update` (a PUT or PATCH: `kubectl scale`, `edit`, a controller) takes the fields it
//! changed from whoever had them; an `Apply` (`kubectl apply --server-side`) owns
//! exactly the fields its configuration names. An apply that would change a field
//! another manager owns is refused with 409 Conflict — `Apply failed with 1 conflict:
//! conflict with "kubectl" with subresource "scale" using apps/v1: .spec.replicas` —
//! unless it forces (`--force-conflicts`), which takes the field
//! from the others; an apply that sets a field to the value it already has shares it.
//! A field the applier named before and names no more is removed if no one else owns
//! it (so a dropped `spec.replicas` goes back to its default).
//!
//! Paths are structured-merge-diff's: `.spec.replicas`, lists of objects keyed by
//! their merge key (`.spec.template.spec.containers[name="nginx"].image`, ports by
//! `containerPort` and `protocol`), other lists atomic.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/util/managedfields/internal`
//! (`conflict.go`: `NewConflictError`, `getConflictMessage`, `printManager`;
//! `structuredmerge.go`), `sigs.k8s.io/structured-merge-diff/v4/merge/update.go`
//! (`Update`, `Apply`, `prune`), kubectl's `pkg/cmd/apply/apply.go`.
//!
//! Simplifications: ownership is kept for the objects people write — every kind but
//! the ones only components churn (Events, Leases, Nodes, EndpointSlices, Endpoints)
//! and Pods a controller created (a Pod kubectl creates is tracked); status writes are
//! not tracked (upstream records them under the `status` subresource). Both keep the
//! envelope's hot paths free of a diff per write.

use crate::api::{Kind, Object};
use crate::apiserver::ObjKey;
use crate::time::SimTime;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

mod wire;
pub use wire::{decode_live_or_new, fields_to_set, set_to_fields, Sent};

/// One step of a field path.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Seg {
    /// A map or struct field.
    Field(String),
    /// A list element by its key fields (name → value, as JSON text).
    Key(Vec<(String, String)>),
}

/// A field path.
pub type FieldPath = Vec<Seg>;

/// `.spec.replicas`, `.spec.template.spec.containers[name="nginx"].image`.
pub fn path_string(p: &[Seg]) -> String {
    let mut s = String::new();
    for seg in p {
        match seg {
            Seg::Field(f) => {
                s.push('.');
                s.push_str(f);
            }
            Seg::Key(kv) => {
                s.push('[');
                s.push_str(
                    &kv.iter()
                        .map(|(k, v)| format!("{k}={v}"))
                        .collect::<Vec<_>>()
                        .join(","),
                );
                s.push(']');
            }
        }
    }
    s
}

/// The merge keys of a list field's elements (None: the list is atomic).
fn list_keys(field: &str, first: &Value) -> Option<Vec<&'static str>> {
    if !first.is_object() {
        return None;
    }
    match field {
        "ports" if first.get("containerPort").is_some() => Some(vec!["containerPort", "protocol"]),
        "ports" if first.get("port").is_some() => Some(vec!["port", "protocol"]),
        "containers"
        | "initContainers"
        | "ephemeralContainers"
        | "env"
        | "volumes"
        | "imagePullSecrets"
        | "readinessGates" => Some(vec!["name"]),
        "volumeMounts" => Some(vec!["mountPath"]),
        _ => None,
    }
}

/// The key of one list element: each key field's value as JSON (`protocol` defaults
/// to "TCP" as the schema does).
fn element_key(keys: &[&str], el: &Value) -> Vec<(String, String)> {
    keys.iter()
        .map(|k| {
            let v = match el.get(*k) {
                Some(v) => v.clone(),
                None if *k == "protocol" => Value::String("TCP".into()),
                None => Value::Null,
            };
            (k.to_string(), v.to_string())
        })
        .collect()
}

/// The parts of an object whose fields are owned: everything but `apiVersion`, `kind`,
/// `status`, and of `metadata` only `labels` and `annotations`.
fn owned_part(obj: &Value) -> Value {
    let mut out = serde_json::Map::new();
    if let Some(o) = obj.as_object() {
        for (k, v) in o {
            match k.as_str() {
                "apiVersion" | "kind" | "status" => {}
                "metadata" => {
                    let mut m = serde_json::Map::new();
                    for f in ["labels", "annotations"] {
                        if let Some(x) = v.get(f).filter(|x| !x.is_null()) {
                            m.insert(f.into(), x.clone());
                        }
                    }
                    if !m.is_empty() {
                        out.insert(k.clone(), Value::Object(m));
                    }
                }
                _ => {
                    out.insert(k.clone(), v.clone());
                }
            }
        }
    }
    Value::Object(out)
}

/// Every leaf field of an object's owned part, with its value.
pub fn leaves(obj: &Value) -> BTreeMap<FieldPath, Value> {
    let mut out = BTreeMap::new();
    walk(&owned_part(obj), &mut Vec::new(), &mut out);
    out
}

fn walk(v: &Value, at: &mut FieldPath, out: &mut BTreeMap<FieldPath, Value>) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            for (k, x) in m {
                at.push(Seg::Field(k.clone()));
                match x {
                    Value::Array(items) if !items.is_empty() => match list_keys(k, &items[0]) {
                        Some(keys) => {
                            for el in items {
                                at.push(Seg::Key(element_key(&keys, el)));
                                walk(el, at, out);
                                at.pop();
                            }
                        }
                        None => {
                            out.insert(at.clone(), x.clone());
                        }
                    },
                    _ => walk(x, at, out),
                }
                at.pop();
            }
        }
        _ => {
            if !at.is_empty() {
                out.insert(at.clone(), v.clone());
            }
        }
    }
}

/// The value at `path` in `v`.
pub fn get_at<'a>(v: &'a Value, path: &[Seg]) -> Option<&'a Value> {
    let mut cur = v;
    let mut last_field = "";
    for seg in path {
        match seg {
            Seg::Field(f) => {
                cur = cur.get(f)?;
                last_field = f;
            }
            Seg::Key(kv) => {
                let items = cur.as_array()?;
                let keys: Vec<&str> = kv.iter().map(|(k, _)| k.as_str()).collect();
                let _ = last_field;
                cur = items.iter().find(|el| element_key(&keys, el) == *kv)?;
            }
        }
    }
    Some(cur)
}

/// Set `path` in `v` to `value`, making the maps and keyed list elements on the way.
pub fn set_at(v: &mut Value, path: &[Seg], value: Value) {
    let Some((first, rest)) = path.split_first() else {
        *v = value;
        return;
    };
    match first {
        Seg::Field(f) => {
            if !v.is_object() {
                *v = Value::Object(Default::default());
            }
            let m = v.as_object_mut().expect("made an object above");
            let next = m.entry(f.clone()).or_insert(Value::Null);
            if matches!(rest.first(), Some(Seg::Key(_))) && !next.is_array() {
                *next = Value::Array(Vec::new());
            }
            set_at(next, rest, value);
        }
        Seg::Key(kv) => {
            if !v.is_array() {
                *v = Value::Array(Vec::new());
            }
            let items = v.as_array_mut().expect("made an array above");
            let keys: Vec<&str> = kv.iter().map(|(k, _)| k.as_str()).collect();
            let i = match items.iter().position(|el| element_key(&keys, el) == *kv) {
                Some(i) => i,
                None => {
                    let mut el = serde_json::Map::new();
                    for (k, val) in kv {
                        if let Ok(x) = serde_json::from_str::<Value>(val) {
                            el.insert(k.clone(), x);
                        }
                    }
                    items.push(Value::Object(el));
                    items.len() - 1
                }
            };
            set_at(&mut items[i], rest, value);
        }
    }
}

/// Remove the field at `path` (a map field or a keyed list element's field).
pub fn remove_at(v: &mut Value, path: &[Seg]) {
    let Some((last, parent)) = path.split_last() else {
        return;
    };
    let mut cur = v;
    for seg in parent {
        cur = match seg {
            Seg::Field(f) => match cur.get_mut(f) {
                Some(x) => x,
                None => return,
            },
            Seg::Key(kv) => {
                let keys: Vec<&str> = kv.iter().map(|(k, _)| k.as_str()).collect();
                let Some(items) = cur.as_array_mut() else {
                    return;
                };
                match items.iter_mut().find(|el| element_key(&keys, el) == *kv) {
                    Some(x) => x,
                    None => return,
                }
            }
        };
    }
    match last {
        Seg::Field(f) => {
            if let Some(m) = cur.as_object_mut() {
                m.remove(f);
            }
        }
        Seg::Key(kv) => {
            let keys: Vec<&str> = kv.iter().map(|(k, _)| k.as_str()).collect();
            if let Some(items) = cur.as_array_mut() {
                items.retain(|el| element_key(&keys, el) != *kv);
            }
        }
    }
}

/// `Apply` or `Update`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Operation {
    /// Server-side apply.
    Apply,
    /// Any other write.
    Update,
}

impl Operation {
    /// `Apply` / `Update`.
    pub fn as_str(self) -> &'static str {
        match self {
            Operation::Apply => "Apply",
            Operation::Update => "Update",
        }
    }
}

/// One manager's fields of one object (`ManagedFieldsEntry`).
#[derive(Clone, Debug, PartialEq)]
pub struct Entry {
    /// `kubectl`, `kubectl-scale`, `kube-controller-manager`…
    pub manager: String,
    /// Apply or Update.
    pub operation: Operation,
    /// `scale` for `kubectl scale`, else empty.
    pub subresource: String,
    /// The API version it wrote with.
    pub api_version: String,
    /// When it last wrote (None: a client sent the entry without a time).
    pub time: Option<SimTime>,
    /// The fields it owns.
    pub fields: BTreeSet<FieldPath>,
}

impl Entry {
    /// `printManager`: how a conflict names it. The manager identifier a conflict
    /// carries never includes the time (`BuildManagerIdentifier`), so an Update manager
    /// prints `"kubectl" with subresource "scale" using apps/v1` and an Apply manager
    /// its quoted name.
    pub fn print(&self) -> String {
        let mut s = format!("{:?}", self.manager);
        if !self.subresource.is_empty() {
            s.push_str(&format!(" with subresource {:?}", self.subresource));
        }
        if self.operation == Operation::Update {
            s.push_str(&format!(" using {}", self.api_version));
        }
        s
    }

    fn same_manager(&self, manager: &str, op: Operation, subresource: &str) -> bool {
        self.manager == manager && self.operation == op && self.subresource == subresource
    }
}

/// Who writes: the manager, the operation and the subresource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Writer {
    /// The field manager.
    pub manager: String,
    /// Apply or Update.
    pub operation: Operation,
    /// `scale`, or empty.
    pub subresource: String,
}

impl Writer {
    /// An `Update` by `manager`.
    pub fn update(manager: &str) -> Self {
        Writer {
            manager: manager.into(),
            operation: Operation::Update,
            subresource: String::new(),
        }
    }
}

/// One field another manager owns that an apply would change.
#[derive(Clone, Debug, PartialEq)]
pub struct Conflict {
    /// The owner, as `printManager` prints it.
    pub manager: String,
    /// The field.
    pub path: FieldPath,
}

/// `getConflictMessage`: the 409's message.
pub fn conflict_message(conflicts: &[Conflict]) -> String {
    if let [c] = conflicts {
        return format!(
            "Apply failed with 1 conflict: conflict with {}: {}",
            c.manager,
            path_string(&c.path)
        );
    }
    let mut by: BTreeMap<&str, Vec<&FieldPath>> = BTreeMap::new();
    for c in conflicts {
        by.entry(&c.manager).or_default().push(&c.path);
    }
    let mut lines = Vec::new();
    for (m, paths) in by {
        lines.push(format!("conflicts with {m}:"));
        for p in paths {
            lines.push(format!("- {}", path_string(p)));
        }
    }
    format!(
        "Apply failed with {} conflicts: {}",
        conflicts.len(),
        lines.join("\n")
    )
}

/// When and with which API version a manager wrote.
#[derive(Clone, Copy, Debug)]
pub struct Stamp<'a> {
    /// The API version it wrote with.
    pub api_version: &'a str,
    /// When.
    pub time: SimTime,
}

/// Every tracked object's managers.
#[derive(Clone, Debug, Default)]
pub struct ManagedFields {
    by: BTreeMap<(Kind, ObjKey), Vec<Entry>>,
}

/// Whether writes to this kind are tracked at all (see the module docs).
pub fn tracked_kind(kind: Kind) -> bool {
    !matches!(
        kind,
        Kind::Event | Kind::Lease | Kind::Node | Kind::EndpointSlice | Kind::Endpoints
    )
}

impl ManagedFields {
    /// An object's managers, in the order they first wrote.
    pub fn get(&self, kind: Kind, key: &ObjKey) -> &[Entry] {
        self.by
            .get(&(kind, key.clone()))
            .map_or(&[], |v| v.as_slice())
    }

    /// Whether an object has any.
    pub fn has(&self, kind: Kind, key: &ObjKey) -> bool {
        self.by.contains_key(&(kind, key.clone()))
    }

    /// The object is gone.
    pub fn forget(&mut self, kind: Kind, key: &ObjKey) {
        self.by.remove(&(kind, key.clone()));
    }

    /// An `Update` (or a create) by `w` changed `old` into `new`: the fields it
    /// changed are its own now and no one else's; fields it removed are no one's.
    pub fn record_update(
        &mut self,
        kind: Kind,
        key: &ObjKey,
        old: Option<&Value>,
        new: &Value,
        w: &Writer,
        at: Stamp<'_>,
    ) {
        let (api_version, now) = (at.api_version, at.time);
        let after = leaves(new);
        let before = old.map(leaves).unwrap_or_default();
        let changed: BTreeSet<FieldPath> = crate::sorting::btree_set(
            after
                .iter()
                .filter(|(p, v)| before.get(*p) != Some(*v))
                .map(|(p, _)| p.clone()),
        );
        let removed: BTreeSet<&FieldPath> =
            crate::sorting::btree_set(before.keys().filter(|p| !after.contains_key(*p)));
        if changed.is_empty() && removed.is_empty() {
            return;
        }
        let entries = self.by.entry((kind, key.clone())).or_default();
        for e in entries.iter_mut() {
            e.fields
                .retain(|p| !changed.contains(p) && !removed.contains(p));
        }
        match entries
            .iter_mut()
            .find(|e| e.same_manager(&w.manager, w.operation, &w.subresource))
        {
            Some(e) => {
                e.fields.extend(changed);
                e.time = Some(now);
                e.api_version = api_version.into();
            }
            None => entries.push(Entry {
                manager: w.manager.clone(),
                operation: w.operation,
                subresource: w.subresource.clone(),
                api_version: api_version.into(),
                time: Some(now),
                fields: changed,
            }),
        }
        entries.retain(|e| !e.fields.is_empty() || e.operation == Operation::Apply);
    }

    /// What a server-side apply of `applied` by `manager` onto `live` would do: the
    /// conflicts (empty when forced), the object after it, and the ownership after it.
    pub fn plan_apply(
        &self,
        kind: Kind,
        key: &ObjKey,
        live: &Value,
        applied: &Value,
        manager: &str,
        force: bool,
    ) -> Result<(Value, Vec<Entry>), Vec<Conflict>> {
        let mine = leaves(applied);
        let entries = self.get(kind, key).to_vec();
        let is_me = |e: &Entry| e.same_manager(manager, Operation::Apply, "");
        let mut conflicts = Vec::new();
        for (p, v) in &mine {
            if get_at(live, p) == Some(v) {
                continue;
            }
            for e in entries.iter().filter(|e| !is_me(e) && e.fields.contains(p)) {
                conflicts.push(Conflict {
                    manager: e.print(),
                    path: p.clone(),
                });
            }
        }
        if !conflicts.is_empty() && !force {
            return Err(conflicts);
        }
        let mut object = live.clone();
        for (p, v) in &mine {
            set_at(&mut object, p, v.clone());
        }
        // What it named before and names no more, owned by no one else, goes.
        let others: BTreeSet<&FieldPath> = crate::sorting::btree_set(
            entries
                .iter()
                .filter(|e| !is_me(e))
                .flat_map(|e| e.fields.iter()),
        );
        if let Some(prev) = entries.iter().find(|e| is_me(e)) {
            for p in prev.fields.iter().filter(|p| !mine.contains_key(*p)) {
                if !others.contains(p) {
                    remove_at(&mut object, p);
                }
            }
        }
        let mut after: Vec<Entry> = entries;
        if force {
            let taken: BTreeSet<&FieldPath> =
                crate::sorting::btree_set(conflicts.iter().map(|c| &c.path));
            for e in after.iter_mut().filter(|e| !is_me(e)) {
                e.fields.retain(|p| !taken.contains(p));
            }
        }
        after.retain(|e| !is_me(e) && !e.fields.is_empty());
        Ok((object, after))
    }

    /// After an apply's write: `entries` (from [`ManagedFields::plan_apply`]) and the
    /// applier's own entry owning exactly what it applied.
    pub fn finish_apply(
        &mut self,
        kind: Kind,
        key: &ObjKey,
        mut entries: Vec<Entry>,
        manager: &str,
        applied: &Value,
        at: Stamp<'_>,
    ) {
        let (api_version, now) = (at.api_version, at.time);
        entries.push(Entry {
            manager: manager.into(),
            operation: Operation::Apply,
            subresource: String::new(),
            api_version: api_version.into(),
            time: Some(now),
            fields: leaves(applied).into_keys().collect(),
        });
        self.by.insert((kind, key.clone()), entries);
    }
}

/// The API version a kind is written with.
pub fn api_version(obj: &Object) -> &str {
    match obj {
        // A custom object says which version it is stored in: the type's own name for
        // it is whatever definition the process met first.
        Object::Custom(o) if !o.api_version.is_empty() => &o.api_version,
        _ => obj.kind().api_version(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// `web` applied by `kubectl` with 3 replicas: its key, the managers, the object.
    fn applied_by_kubectl() -> (ObjKey, ManagedFields, Value) {
        let key = ObjKey::new("default", "web");
        let mut m = ManagedFields::default();
        let live = deploy(3, "nginx:1.27");
        m.finish_apply(Kind::Deployment, &key, vec![], "kubectl", &live, stamp(0));
        (key, m, live)
    }

    fn stamp(time: SimTime) -> Stamp<'static> {
        Stamp {
            api_version: "apps/v1",
            time,
        }
    }

    fn deploy(replicas: i64, image: &str) -> Value {
        json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "labels": {"app": "web"}},
            "spec": {"replicas": replicas, "template": {"spec": {"containers": [
                {"name": "nginx", "image": image, "ports": [{"containerPort": 80}]}]}}}})
    }

    #[test]
    fn leaf_paths_key_containers_by_name_and_ports_by_port_and_protocol() {
        let paths: Vec<String> = leaves(&deploy(3, "nginx:1.27"))
            .keys()
            .map(|p| path_string(p))
            .collect();
        assert_eq!(
            paths,
            [
                ".metadata.labels.app",
                ".spec.replicas",
                ".spec.template.spec.containers[name=\"nginx\"].image",
                ".spec.template.spec.containers[name=\"nginx\"].name",
                ".spec.template.spec.containers[name=\"nginx\"].ports[containerPort=80,protocol=\"TCP\"].containerPort",
            ]
        );
    }

    #[test]
    fn an_apply_changing_a_field_another_manager_updated_conflicts_unless_forced() {
        let (key, mut m, live) = applied_by_kubectl();
        let scaled = deploy(5, "nginx:1.27");
        let scale = Writer {
            manager: "kubectl".into(),
            operation: Operation::Update,
            subresource: "scale".into(),
        };
        m.record_update(
            Kind::Deployment,
            &key,
            Some(&live),
            &scaled,
            &scale,
            stamp(5_000),
        );
        let err = m
            .plan_apply(
                Kind::Deployment,
                &key,
                &scaled,
                &deploy(3, "nginx:1.27"),
                "kubectl",
                false,
            )
            .unwrap_err();
        assert_eq!(
            conflict_message(&err),
            "Apply failed with 1 conflict: conflict with \"kubectl\" with subresource \"scale\" using apps/v1: .spec.replicas"
        );
        // The same value as live: no conflict, the field is shared.
        assert!(m
            .plan_apply(
                Kind::Deployment,
                &key,
                &scaled,
                &deploy(5, "nginx:1.27"),
                "kubectl",
                false
            )
            .is_ok());
        let (obj, after) = m
            .plan_apply(
                Kind::Deployment,
                &key,
                &scaled,
                &deploy(3, "nginx:1.27"),
                "kubectl",
                true,
            )
            .unwrap();
        assert_eq!(obj["spec"]["replicas"], 3);
        assert!(
            after.is_empty(),
            "forced: the scale's manager lost its only field"
        );
    }

    #[test]
    fn a_field_the_applier_no_longer_names_is_removed_when_no_one_else_owns_it() {
        let (key, m, live) = applied_by_kubectl();
        let mut without = deploy(3, "nginx:1.27");
        without["spec"].as_object_mut().unwrap().remove("replicas");
        let (obj, _) = m
            .plan_apply(Kind::Deployment, &key, &live, &without, "kubectl", false)
            .unwrap();
        assert!(obj["spec"].get("replicas").is_none());
    }

    #[test]
    fn conflicts_with_several_managers_are_listed_by_manager_in_order() {
        let c = |m: &str, f: &str| Conflict {
            manager: format!("{m:?}"),
            path: vec![Seg::Field("spec".into()), Seg::Field(f.into())],
        };
        assert_eq!(
            conflict_message(&[c("b", "replicas"), c("a", "paused"), c("b", "minReadySeconds")]),
            "Apply failed with 3 conflicts: conflicts with \"a\":\n- .spec.paused\nconflicts with \"b\":\n- .spec.replicas\n- .spec.minReadySeconds"
        );
    }
}
