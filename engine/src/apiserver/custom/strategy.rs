//! The registry strategies of definitions and custom objects: what the API server
//! sets, keeps and checks itself on their writes
//! (`apiextensions-apiserver/pkg/registry/customresourcedefinition/strategy.go`,
//! `pkg/registry/customresource/strategy.go` and `status_strategy.go`, and the
//! definitions' `REST.Delete` in `customresourcedefinition/etcd.go`).

use crate::api::structural as schema;
use crate::api::*;
use crate::apiserver::{ApiError, Store};
use crate::time::{rfc3339, SimTime};
use serde_json::Value;

/// The finalizer that holds a definition until its objects are gone.
pub const CLEANUP_FINALIZER: &str = "customresourcecleanup.apiextensions.k8s.io";

/// A condition of a definition (they carry no heartbeat or probe times).
pub fn condition(
    type_: &str,
    status: &str,
    reason: &str,
    message: &str,
    now: SimTime,
) -> Condition {
    Condition {
        type_: type_.into(),
        status: status.into(),
        reason: reason.into(),
        message: message.into(),
        last_transition_time: Some(rfc3339(now)),
        transition_ms: now,
        ..Default::default()
    }
}

/// The defaults of a v1 definition (`v1/defaults.go`): the singular and list kind
/// from the kind, conversion `None`.
pub fn set_defaults(d: &mut CustomResourceDefinition) {
    let n = &mut d.spec.names;
    if n.singular.is_empty() {
        n.singular = n.kind.to_ascii_lowercase();
    }
    if n.list_kind.is_empty() && !n.kind.is_empty() {
        n.list_kind = format!("{}List", n.kind);
    }
    let conv = d.spec.conversion.get_or_insert_with(Default::default);
    if conv.strategy.is_empty() {
        conv.strategy = "None".into();
    }
}

/// The version's schema, if it has one.
fn schema_of(d: &CustomResourceDefinition, version: &str) -> Option<Value> {
    d.spec
        .versions
        .iter()
        .find(|v| v.name == version)
        .and_then(|v| v.schema.as_ref())
        .and_then(|s| s.open_api_v3_schema.clone())
}

fn has_status_subresource(d: &CustomResourceDefinition, version: &str) -> bool {
    d.spec
        .versions
        .iter()
        .find(|v| v.name == version)
        .and_then(|v| v.subresources.as_ref())
        .is_some_and(|s| s.status.is_some())
}

/// The storage version's name.
fn storage_name(d: &CustomResourceDefinition) -> String {
    d.storage_version()
        .map(|v| v.name.clone())
        .unwrap_or_default()
}

/// `group/version` of the storage version.
fn storage_api_version(d: &CustomResourceDefinition) -> String {
    format!("{}/{}", d.spec.group, storage_name(d))
}

/// The served version an object was sent in (its `apiVersion`), or the storage version.
fn request_version(d: &CustomResourceDefinition, o: &CustomObject) -> String {
    o.api_version
        .split_once('/')
        .map(|(_, v)| v)
        .filter(|v| d.served_version(v).is_some())
        .map_or_else(|| storage_name(d), str::to_string)
}

/// `ValidateCustomResourceDefinitionStoredVersions`.
pub(crate) fn stored_versions_errors(d: &CustomResourceDefinition) -> Vec<String> {
    let stored = &d.status.stored_versions;
    let go = |v: &[String]| {
        if v.is_empty() {
            "[]string{}".to_string()
        } else {
            let q: Vec<String> = v.iter().map(|s| format!("{s:?}")).collect();
            format!("[]string{{{}}}", q.join(", "))
        }
    };
    let mut out = Vec::new();
    if stored.is_empty() {
        out.push(format!(
            "status.storedVersions: Invalid value: {}: must have at least one stored version",
            go(stored)
        ));
    }
    for (i, v) in stored.iter().enumerate() {
        if !d.spec.versions.iter().any(|x| &x.name == v) {
            out.push(format!("status.storedVersions[{i}]: Invalid value: {v:?}: missing from spec.versions; {v} was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in {v} and removes {v} from status.storedVersions"));
        }
    }
    if let Some(s) = d.storage_version() {
        if !stored.is_empty() && !stored.contains(&s.name) {
            out.push(format!(
                "status.storedVersions: Invalid value: {}: must have the storage version {}",
                go(stored),
                s.name
            ));
        }
    }
    out
}

/// Whether the value a schema error is about (its path, before the first `: `) is the
/// same in `new` and `old` (both absent included).
fn unchanged(cause: &str, new: &Value, old: &Value) -> bool {
    let Some((path, _)) = cause.split_once(": ") else {
        return false;
    };
    let mut pointer = String::new();
    for part in path.split('.') {
        // `items[0]` is `/items/0`.
        let mut pieces = part.split('[');
        pointer.push('/');
        pointer.push_str(pieces.next().unwrap_or(""));
        for idx in pieces {
            pointer.push('/');
            pointer.push_str(idx.trim_end_matches(']'));
        }
    }
    new.pointer(&pointer) == old.pointer(&pointer)
}

/// The object's top-level fields as one JSON object.
fn content_value(o: &CustomObject) -> Value {
    Value::Object(o.content.clone())
}

/// What a rule at the root sees: the object with `apiVersion`, `kind` and the
/// `metadata` fields a schema may name (`name`, `generateName`).
fn rule_input(o: &CustomObject) -> Value {
    let mut m = o.content.clone();
    m.insert(
        "apiVersion".into(),
        Value::String(o.kind.api_version.clone()),
    );
    m.insert("kind".into(), Value::String(o.kind.ty.kind.clone()));
    let mut meta = serde_json::Map::new();
    meta.insert("name".into(), Value::String(o.metadata.name.clone()));
    if !o.metadata.generate_name.is_empty() {
        meta.insert(
            "generateName".into(),
            Value::String(o.metadata.generate_name.clone()),
        );
    }
    m.insert("metadata".into(), Value::Object(meta));
    Value::Object(m)
}

impl Store {
    /// The definition that serves a custom object's type, or the 404 a client gets
    /// for a resource the API server does not serve.
    fn serving_definition(&self, t: CustomKind) -> Result<&CustomResourceDefinition, ApiError> {
        super::definition_of(self, t)
            .filter(|d| d.condition_true("NamesAccepted") || d.condition_true("Established"))
            .ok_or_else(ApiError::no_such_resource)
    }

    /// `PrepareForCreate`, defaulting and the schema's validation of a definition or a
    /// custom object being created (other kinds pass untouched).
    pub(in crate::apiserver) fn prepare_custom_create(
        &self,
        obj: &mut Object,
    ) -> Result<(), ApiError> {
        match obj {
            Object::CustomResourceDefinition(d) => {
                set_defaults(d);
                if d.storage_version().is_some() && d.custom_type().is_none() {
                    // The process's table of custom types is full (a bound on what
                    // clients can make it keep).
                    return Err(ApiError::internal(&format!(
                        "this API server serves at most {} custom resource types",
                        crate::api::MAX_CUSTOM_TYPES
                    )));
                }
                d.status = Default::default();
                if let Some(v) = d.storage_version() {
                    d.status.stored_versions = vec![v.name.clone()];
                }
                Ok(())
            }
            Object::Custom(o) => {
                let d = self.serving_definition(o.kind)?;
                if d.metadata.is_deleting() || d.condition_true("Terminating") {
                    return Err(ApiError {
                        code: 405,
                        reason: "MethodNotAllowed",
                        message:
                            "create not allowed while custom resource definition is terminating"
                                .into(),
                        kubectl_message: None,
                        details: None,
                    });
                }
                let version = request_version(d, o);
                let mut content = content_value(o);
                if let Some(s) = schema_of(d, &version) {
                    schema::prune(&s, &mut content);
                    schema::default(&s, &mut content);
                }
                if let Value::Object(m) = content {
                    o.content = m;
                }
                if has_status_subresource(d, &version) {
                    o.content.remove("status");
                }
                // Stored in the storage version (conversion `None`: only `apiVersion`
                // changes).
                o.api_version = storage_api_version(d);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// The schema's validation of a custom object (after the metadata's), then its
    /// validation rules, unless a schema error keeps them from running (`old`: the
    /// stored object, for transition rules).
    pub(in crate::apiserver) fn validate_custom(
        &self,
        obj: &Object,
        old: Option<&Object>,
    ) -> Result<(), ApiError> {
        let Object::Custom(o) = obj else {
            return Ok(());
        };
        let d = self.serving_definition(o.kind)?;
        let Some(s) = schema_of(d, &storage_name(d)) else {
            return Ok(());
        };
        let new = content_value(o);
        let mut causes = schema::validate(&s, &new);
        if let Some(Object::Custom(p)) = old {
            // Ratcheting (CRDValidationRatcheting, on in v1.33): an error about a value
            // the update did not change is no error, so a schema made stricter does not
            // block an update of other fields.
            let before = content_value(p);
            causes.retain(|c| !unchanged(c, &new, &before));
        }
        if !crate::api::cel::rules::any(&s) {
            // No rules: no CEL validator (upstream's is nil), nothing to say.
        } else if causes.iter().any(|c| crate::api::cel::rules::blocking(c)) {
            causes.push(crate::api::cel::rules::NOT_CHECKED.into());
        } else {
            let old = match old {
                Some(Object::Custom(p)) => Some(rule_input(p)),
                _ => None,
            };
            causes.extend(crate::api::cel::rules::validate(
                &s,
                &rule_input(o),
                old.as_ref(),
            ));
        }
        if causes.is_empty() {
            Ok(())
        } else {
            Err(ApiError::invalid(obj.kind(), &o.metadata.name, &causes))
        }
    }

    /// `PrepareForUpdate` of the main resource: a definition's status stays (with its
    /// new storage version recorded); a custom object is pruned and defaulted, and
    /// keeps its status when it has the status subresource.
    pub(in crate::apiserver) fn prepare_custom_update(
        &self,
        obj: &mut Object,
        old: &Object,
    ) -> Result<(), ApiError> {
        match (obj, old) {
            (Object::CustomResourceDefinition(d), Object::CustomResourceDefinition(o)) => {
                set_defaults(d);
                d.status = o.status.clone();
                if let Some(v) = d.storage_version().map(|v| v.name.clone()) {
                    if !d.status.stored_versions.contains(&v) {
                        d.status.stored_versions.push(v);
                    }
                }
                Ok(())
            }
            (Object::Custom(n), Object::Custom(o)) => {
                let d = self.serving_definition(n.kind)?;
                let version = request_version(d, n);
                let mut content = content_value(n);
                if let Some(s) = schema_of(d, &version) {
                    schema::prune(&s, &mut content);
                    schema::default(&s, &mut content);
                }
                if let Value::Object(m) = content {
                    n.content = m;
                }
                if has_status_subresource(d, &version) {
                    match o.content.get("status") {
                        Some(s) => n.content.insert("status".into(), s.clone()),
                        None => n.content.remove("status"),
                    };
                }
                n.api_version = storage_api_version(d);
                Ok(())
            }
            _ => Ok(()),
        }
    }

    /// `/status` of a custom object or a definition: `merged` (the stored object) takes
    /// the request's status alone; a custom object without the status subresource has
    /// no `/status` (404).
    pub(in crate::apiserver) fn merge_custom_status(
        &self,
        merged: &mut Object,
        new: &Object,
    ) -> Result<bool, ApiError> {
        match (merged, new) {
            (Object::Custom(m), Object::Custom(n)) => {
                let d = self.serving_definition(m.kind)?;
                let version = storage_name(d);
                if !has_status_subresource(d, &version) {
                    return Err(ApiError::no_such_resource());
                }
                let old = rule_input(m);
                match n.content.get("status") {
                    Some(s) => m.content.insert("status".into(), s.clone()),
                    None => m.content.remove("status"),
                };
                let mut content = content_value(m);
                if let Some(s) = schema_of(d, &version) {
                    schema::prune(&s, &mut content);
                    schema::default(&s, &mut content);
                    let mut causes = schema::validate(&s, &content);
                    if causes.is_empty() && crate::api::cel::rules::any(&s) {
                        // The rules see the whole object, old and new.
                        let mut merged = (**m).clone();
                        if let Value::Object(c) = &content {
                            merged.content = c.clone();
                        }
                        causes.extend(crate::api::cel::rules::validate(
                            &s,
                            &rule_input(&merged),
                            Some(&old),
                        ));
                    }
                    if !causes.is_empty() {
                        return Err(ApiError::invalid(new.kind(), &m.metadata.name, &causes));
                    }
                }
                if let Value::Object(c) = content {
                    m.content = c;
                }
                Ok(true)
            }
            // The definition's status strategy keeps the spec; of the metadata, what a
            // status write may change (its finalizers, which is how the finalizer
            // controller lets it go, labels, annotations); never its identity.
            (Object::CustomResourceDefinition(m), Object::CustomResourceDefinition(n)) => {
                m.status = n.status.clone();
                m.metadata.finalizers = n.metadata.finalizers.clone();
                m.metadata.labels = n.metadata.labels.clone();
                m.metadata.annotations = n.metadata.annotations.clone();
                let causes = stored_versions_errors(m);
                if !causes.is_empty() {
                    return Err(ApiError::invalid(new.kind(), &m.metadata.name, &causes));
                }
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// The first `DELETE` of a definition (`REST.Delete`): it is marked for deletion,
    /// holds the cleanup finalizer and says so in a `Terminating` condition; the
    /// finalizer controller deletes its objects. None for any other object, or a
    /// definition already being deleted.
    pub(in crate::apiserver) fn mark_definition_deleted(
        &self,
        obj: &Object,
        now: SimTime,
    ) -> Option<Object> {
        let Object::CustomResourceDefinition(d) = obj else {
            return None;
        };
        if d.metadata.is_deleting() {
            return None;
        }
        let mut d = d.clone();
        d.metadata.deletion_ms = Some(now);
        d.metadata.deletion_timestamp = Some(rfc3339(now));
        if !d.metadata.finalizers.iter().any(|f| f == CLEANUP_FINALIZER) {
            d.metadata.finalizers.push(CLEANUP_FINALIZER.into());
        }
        set_condition(
            &mut d.status.conditions,
            condition(
                "Terminating",
                "True",
                "InstanceDeletionPending",
                "CustomResourceDefinition marked for deletion; CustomResource deletion will begin soon",
                now,
            ),
        );
        Some(Object::CustomResourceDefinition(d))
    }
}
