//! What `kubectl apply --server-side` does after its apply succeeded, for an object
//! that was once applied client-side: it keeps the `last-applied-configuration`
//! annotation under a manager of its own (`kubectl-last-applied`), then moves the
//! fields the client-side manager (`kubectl-client-side-apply`) owned into its own
//! Apply entry with a JSON patch of `metadata.managedFields`, and applies again.
//! Each step that fails is a warning, never the command's error.
//!
//! Upstream: kubectl's `pkg/cmd/apply/apply.go` (`applyOneObject`,
//! `saveLastApplyAnnotationIfNecessary`, `migrateToSSAIfNecessary`), client-go's
//! `util/csaupgrade/upgrade.go` (`FindFieldsOwners`, `UpgradeManagedFieldsPatch`,
//! `upgradedManagedFields`, `unionManagerIntoIndex`).

use super::super::client::Client;
use crate::api::Kind;
use crate::apiserver::managed_fields::{fields_to_set, set_to_fields, FieldPath, Seg};
use crate::apiserver::patch::PatchType;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use serde_json::{json, Value};

/// The annotation client-side apply keeps.
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";
/// `fieldManagerServerSideApply`: apply's default manager.
const SSA_MANAGER: &str = "kubectl";
/// `fieldManagerLastAppliedAnnotation`.
const LAST_APPLIED_MANAGER: &str = "kubectl-last-applied";

const LAST_APPLIED_FAILED: &str = "Warning: failed to migrate kubectl.kubernetes.io/last-applied-configuration for Server-Side Apply. This is non-fatal and will be retried next time you apply. Error: ";
const PATCH_FAILED: &str = "Warning: server rejected managed fields migration to Server-Side Apply. This is non-fatal and will be retried next time you apply. Error: ";
const REAPPLY_FAILED: &str = "Warning: failed to re-apply configuration after performing Server-Side Apply migration. This is non-fatal and will be retried next time you apply. Error: ";

/// `lastAppliedAnnotationFieldPath`.
fn last_applied_path() -> FieldPath {
    ["metadata", "annotations", LAST_APPLIED]
        .into_iter()
        .map(|f| Seg::Field(f.into()))
        .collect()
}

/// The steps after a successful server-side apply of `applied` by `manager`; what
/// they print (kubectl's warnings on its error stream).
pub(super) fn after_server_side_apply(
    c: &mut Cluster,
    k: &Client,
    kind: Kind,
    key: &ObjKey,
    applied: &Value,
    manager: &str,
    force: bool,
) -> String {
    if k.server_dry_run || k.client_dry_run {
        return String::new();
    }
    if let Err(e) = save_last_apply_annotation_if_necessary(c, k, kind, key, manager) {
        return format!("{LAST_APPLIED_FAILED}{e}\n");
    }
    match migrate_to_ssa_if_necessary(c, k, kind, key, manager) {
        Err(e) => format!("{PATCH_FAILED}{e}\n"),
        Ok(false) => String::new(),
        Ok(true) => match k.apply(c, kind, key, applied.clone(), manager, force) {
            Ok(_) => String::new(),
            Err(e) => format!("{REAPPLY_FAILED}{}\n", e.message),
        },
    }
}

/// The live object as served, managers included.
fn served(c: &Cluster, kind: Kind, key: &ObjKey) -> Option<(Value, Vec<Value>)> {
    let obj = c.store.get_object(kind, key)?.to_json();
    let managed = c.managed_fields().to_json(kind, key);
    Some((obj, managed.as_array().cloned().unwrap_or_default()))
}

/// `saveLastApplyAnnotationIfNecessary`: an annotation no Apply manager owns is
/// applied by `kubectl-last-applied`, so that the next apply does not drop it.
fn save_last_apply_annotation_if_necessary(
    c: &mut Cluster,
    k: &Client,
    kind: Kind,
    key: &ObjKey,
    manager: &str,
) -> Result<(), String> {
    if manager != SSA_MANAGER {
        return Ok(());
    }
    let Some((obj, managed)) = served(c, kind, key) else {
        return Ok(());
    };
    let Some(annotation) = obj
        .pointer("/metadata/annotations")
        .and_then(|a| a.get(LAST_APPLIED))
    else {
        return Ok(());
    };
    if !find_fields_owners(&managed, "Apply").is_empty() {
        return Ok(());
    }
    let mut metadata = json!({"name": key.name, "annotations": {LAST_APPLIED: annotation}});
    if kind.namespaced() {
        metadata["namespace"] = json!(key.namespace);
    }
    let just_annotation =
        json!({"apiVersion": kind.api_version(), "kind": kind.name(), "metadata": metadata});
    k.apply(c, kind, key, just_annotation, LAST_APPLIED_MANAGER, false)
        .map(|_| ())
        .map_err(|e| e.message)
}

/// `migrateToSSAIfNecessary`: the Update managers that own the annotation are merged
/// into `manager`'s Apply entry, by a JSON patch of the managers. Whether it patched.
fn migrate_to_ssa_if_necessary(
    c: &mut Cluster,
    k: &Client,
    kind: Kind,
    key: &ObjKey,
    manager: &str,
) -> Result<bool, String> {
    let Some((obj, managed)) = served(c, kind, key) else {
        return Ok(false);
    };
    let mut names: Vec<String> = find_fields_owners(&managed, "Update")
        .into_iter()
        .filter_map(|e| e.get("manager").and_then(Value::as_str).map(String::from))
        .collect();
    crate::sorting::sort(&mut names);
    names.dedup();
    let mut filtered = Some(managed.clone());
    for csa in &names {
        filtered = upgraded_managed_fields(filtered, csa, manager)?;
    }
    let filtered = filtered.unwrap_or_default();
    if filtered == managed {
        return Ok(false);
    }
    let version = obj.pointer("/metadata/resourceVersion").cloned();
    let patch = json!([
        {"op": "replace", "path": "/metadata/managedFields", "value": filtered},
        // Replace rather than test: a changed object is etcd's 409, not a 422.
        {"op": "replace", "path": "/metadata/resourceVersion", "value": version},
    ]);
    k.with_manager(manager)
        .patch_doc(c, kind, key, "", PatchType::Json, patch)
        .map(|_| true)
        .map_err(|e| e.message)
}

/// `FindFieldsOwners`: the entries of `operation` whose fields include the
/// annotation (an entry that does not decode matches nothing).
fn find_fields_owners<'a>(managed: &'a [Value], operation: &str) -> Vec<&'a Value> {
    let path = last_applied_path();
    managed
        .iter()
        .filter(|e| e.get("operation").and_then(Value::as_str) == Some(operation))
        .filter(|e| {
            e.get("fieldsV1")
                .and_then(|f| fields_to_set(f).ok())
                .is_some_and(|set| set.contains(&path))
        })
        .collect()
}

fn is_entry(e: &Value, manager: &str, operation: &str) -> bool {
    let text = |f: &str| e.get(f).and_then(Value::as_str).unwrap_or("");
    text("manager") == manager && text("operation") == operation && text("subresource").is_empty()
}

/// `upgradedManagedFields`: `csa`'s Update entries folded into `ssa`'s Apply entry
/// (the first `csa` entry becomes it if there is none), the rest of `csa`'s dropped.
fn upgraded_managed_fields(
    managed: Option<Vec<Value>>,
    csa: &str,
    ssa: &str,
) -> Result<Option<Vec<Value>>, String> {
    let Some(mut managed) = managed else {
        return Ok(None);
    };
    let target = match managed.iter().position(|e| is_entry(e, ssa, "Apply")) {
        Some(i) => i,
        None => {
            let Some(i) = managed.iter().position(|e| is_entry(e, csa, "Update")) else {
                return Ok(Some(managed));
            };
            managed[i]["operation"] = json!("Apply");
            managed[i]["manager"] = json!(ssa);
            i
        }
    };
    union_manager_into_index(&mut managed, target, csa)?;
    let filtered: Vec<Value> = managed
        .into_iter()
        .filter(|e| !is_entry(e, csa, "Update"))
        .collect();
    Ok((!filtered.is_empty()).then_some(filtered))
}

/// `unionManagerIntoIndex`: the target's fields joined with those of `csa`'s Update
/// entry of the same API version.
fn union_manager_into_index(managed: &mut [Value], target: usize, csa: &str) -> Result<(), String> {
    let decode = |e: &Value| {
        fields_to_set(e.get("fieldsV1").unwrap_or(&json!({})))
            .map_err(|e| format!("failed to convert fields to set: {e}"))
    };
    let version = managed[target].get("apiVersion").cloned();
    let mut set = decode(&managed[target])?;
    if let Some(other) = managed
        .iter()
        .find(|e| is_entry(e, csa, "Update") && e.get("apiVersion").cloned() == version)
    {
        set.extend(decode(other)?);
    }
    managed[target]["fieldsV1"] = set_to_fields(&set);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(manager: &str, operation: &str, fields: Value) -> Value {
        json!({"apiVersion": "v1", "fieldsType": "FieldsV1", "fieldsV1": fields,
               "manager": manager, "operation": operation, "time": "2025-01-01T00:00:00Z"})
    }

    #[test]
    fn the_client_side_managers_fields_join_the_appliers_entry_and_it_goes() {
        let annotation = json!({"f:metadata": {"f:annotations": {"f:kubectl.kubernetes.io/last-applied-configuration": {}}}});
        let managed = vec![
            entry("kubectl", "Apply", json!({"f:data": {"f:a": {}}})),
            entry("kubectl-last-applied", "Apply", annotation.clone()),
            entry(
                "kubectl-client-side-apply",
                "Update",
                json!({"f:data": {"f:a": {}, "f:b": {}}, "f:metadata": annotation["f:metadata"]}),
            ),
        ];
        assert_eq!(find_fields_owners(&managed, "Update").len(), 1);
        let after = upgraded_managed_fields(Some(managed), "kubectl-client-side-apply", "kubectl")
            .unwrap()
            .unwrap();
        assert_eq!(after.len(), 2);
        assert_eq!(
            after[0]["fieldsV1"],
            json!({"f:data": {"f:a": {}, "f:b": {}}, "f:metadata": annotation["f:metadata"]})
        );
    }

    #[test]
    fn without_an_appliers_entry_the_client_side_one_becomes_it() {
        let managed = vec![entry(
            "kubectl-client-side-apply",
            "Update",
            json!({"f:data": {"f:a": {}}}),
        )];
        let after = upgraded_managed_fields(Some(managed), "kubectl-client-side-apply", "kubectl")
            .unwrap()
            .unwrap();
        assert_eq!(
            (after[0]["manager"].as_str(), after[0]["operation"].as_str()),
            (Some("kubectl"), Some("Apply"))
        );
    }
}
