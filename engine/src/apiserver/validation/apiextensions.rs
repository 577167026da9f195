//! The apiextensions.k8s.io API group
//! (`apiextensions-apiserver/pkg/apis/apiextensions/validation/validation.go`):
//! CustomResourceDefinitions — their names, scope, versions, printer columns,
//! subresources and the structural rules of their schemas.
//!
//! Upstream validates the internal type, to which the v1 object is converted first:
//! when every version has the same schema (or subresources, or printer columns), the
//! conversion moves it to the top level, so its errors name `spec.validation…`,
//! `spec.subresources…` and `spec.additionalPrinterColumns…` rather than a version's.

use super::names::{dns1035_label_errors, subdomain_errors};
use crate::api::*;
use serde_json::Value;

fn q(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// `ValidateCustomResourceDefinition` (and on update the immutable fields of
/// `validateCustomResourceDefinitionSpecUpdate`).
pub(super) fn validate_crd(
    c: &mut Vec<String>,
    d: &CustomResourceDefinition,
    old: Option<&CustomResourceDefinition>,
) {
    let spec = &d.spec;
    let want = format!("{}.{}", spec.names.plural, spec.group);
    if d.metadata.name != want {
        c.push(format!(
            "metadata.name: Invalid value: {}: must be spec.names.plural+\".\"+spec.group",
            q(&d.metadata.name)
        ));
    }
    if spec.group.is_empty() {
        c.push("spec.group: Required value".into());
    } else {
        let errs = subdomain_errors(&spec.group);
        if !errs.is_empty() {
            c.push(format!(
                "spec.group: Invalid value: {}: {}",
                q(&spec.group),
                errs.join(",")
            ));
        } else if !spec.group.contains('.') {
            c.push(format!(
                "spec.group: Invalid value: {}: should be a domain with at least one dot",
                q(&spec.group)
            ));
        }
    }
    match spec.scope.as_str() {
        "" => c.push("spec.scope: Required value".into()),
        "Cluster" | "Namespaced" => {}
        s => c.push(format!(
            "spec.scope: Unsupported value: {}: supported values: \"Cluster\", \"Namespaced\"",
            q(s)
        )),
    }
    validate_versions(c, d);
    validate_names(c, &spec.names, "spec.names");
    if spec.preserve_unknown_fields {
        c.push("spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead".into());
    }
    if is_protected(&spec.group)
        && !d
            .metadata
            .annotations
            .contains_key("api-approved.kubernetes.io")
    {
        // `validateAPIApproval`: the Kubernetes project's own groups are reviewed.
        c.push("metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation \"api-approved.kubernetes.io\", see https://github.com/kubernetes/enhancements/pull/1111".into());
    }
    if let Some(old) = old {
        // The status was carried over from the stored definition: a version objects
        // are still stored in cannot leave spec.versions.
        c.extend(crate::apiserver::custom::strategy::stored_versions_errors(
            d,
        ));
        let immutable = |c: &mut Vec<String>, path: &str, new: &str, old: &str| {
            if new != old {
                c.push(format!(
                    "{path}: Invalid value: {}: field is immutable",
                    q(new)
                ));
            }
        };
        immutable(c, "spec.group", &spec.group, &old.spec.group);
        immutable(
            c,
            "spec.names.plural",
            &spec.names.plural,
            &old.spec.names.plural,
        );
        if old.condition_true("Established") {
            immutable(c, "spec.scope", &spec.scope, &old.spec.scope);
            immutable(c, "spec.names.kind", &spec.names.kind, &old.spec.names.kind);
        }
    }
}

/// A group of the Kubernetes project (`*.k8s.io`, `*.kubernetes.io`).
fn is_protected(group: &str) -> bool {
    ["k8s.io", "kubernetes.io"]
        .iter()
        .any(|g| group == *g || group.ends_with(&format!(".{g}")))
}

fn validate_names(c: &mut Vec<String>, n: &CustomResourceDefinitionNames, at: &str) {
    let label = |c: &mut Vec<String>, path: String, v: &str, mixed: bool| {
        let errs = dns1035_label_errors(&if mixed {
            v.to_ascii_lowercase()
        } else {
            v.to_string()
        });
        if !errs.is_empty() {
            let pre = if mixed {
                "may have mixed case, but should otherwise match: "
            } else {
                ""
            };
            c.push(format!(
                "{path}: Invalid value: {}: {pre}{}",
                q(v),
                errs.join(",")
            ));
        }
    };
    for (field, v, mixed) in [
        ("plural", &n.plural, false),
        ("singular", &n.singular, false),
        ("kind", &n.kind, true),
        ("listKind", &n.list_kind, true),
    ] {
        if v.is_empty() {
            c.push(format!("{at}.{field}: Required value"));
        } else {
            label(c, format!("{at}.{field}"), v, mixed);
        }
    }
    if !n.kind.is_empty() && n.kind == n.list_kind {
        c.push(format!(
            "{at}.listKind: Invalid value: {}: kind and listKind may not be the same",
            q(&n.list_kind)
        ));
    }
    for (i, s) in n.short_names.iter().enumerate() {
        label(c, format!("{at}.shortNames[{i}]"), s, false);
    }
    for (i, s) in n.categories.iter().enumerate() {
        label(c, format!("{at}.categories[{i}]"), s, false);
    }
}

/// The versions, and each part that either sits at the top level (every version has
/// the same) or in its version.
fn validate_versions(c: &mut Vec<String>, d: &CustomResourceDefinition) {
    let vs = &d.spec.versions;
    let dump = || {
        // Upstream prints the whole internal slice with `%#v`; its pointers cannot be
        // reproduced, so the versions are named instead.
        let names: Vec<String> = vs.iter().map(|v| q(&v.name)).collect();
        format!("[{}]", names.join(", "))
    };
    for (i, v) in vs.iter().enumerate() {
        let errs = dns1035_label_errors(&v.name);
        if !errs.is_empty() {
            c.push(format!(
                "spec.versions[{i}].name: Invalid value: {}: {}",
                q(&v.name),
                errs.join(",")
            ));
        }
    }
    let mut seen = std::collections::BTreeSet::new();
    if vs.iter().any(|v| !seen.insert(v.name.as_str())) {
        c.push(format!(
            "spec.versions: Invalid value: {}: must contain unique version names",
            dump()
        ));
    }
    if vs.iter().filter(|v| v.storage).count() != 1 {
        c.push(format!(
            "spec.versions: Invalid value: {}: must have exactly one version marked as storage version",
            dump()
        ));
    }
    let same = |f: &dyn Fn(&CustomResourceDefinitionVersion) -> String| {
        vs.windows(2).all(|w| f(&w[0]) == f(&w[1]))
    };
    let schema_of = |v: &CustomResourceDefinitionVersion| {
        v.schema.as_ref().and_then(|s| s.open_api_v3_schema.clone())
    };
    // Versions without a schema never count as sharing one
    // (`hasIdenticalPerVersionSchema`): each is named.
    let shared = vs.first().and_then(schema_of).is_some();
    if shared && same(&|v| format!("{:?}", schema_of(v))) {
        if let Some(s) = vs.first().and_then(schema_of) {
            structural(c, &s, "spec.validation.openAPIV3Schema", true);
        }
    } else {
        for (i, v) in vs.iter().enumerate() {
            let at = format!("spec.versions[{i}].schema.openAPIV3Schema");
            match schema_of(v) {
                Some(s) => structural(c, &s, &at, true),
                None => c.push(format!("{at}: Required value: schemas are required")),
            }
        }
    }
    let columns_same = same(&|v| format!("{:?}", v.additional_printer_columns));
    for (i, v) in vs.iter().enumerate() {
        let at = if columns_same {
            "spec.additionalPrinterColumns".to_string()
        } else {
            format!("spec.versions[{i}].additionalPrinterColumns")
        };
        for (j, col) in v.additional_printer_columns.iter().enumerate() {
            validate_column(c, col, &format!("{at}[{j}]"));
        }
        if columns_same {
            break;
        }
    }
    let subs_same = same(&|v| format!("{:?}", v.subresources));
    for (i, v) in vs.iter().enumerate() {
        let at = if subs_same {
            "spec.subresources".to_string()
        } else {
            format!("spec.versions[{i}].subresources")
        };
        if let Some(scale) = v.subresources.as_ref().and_then(|s| s.scale.as_ref()) {
            validate_scale(c, scale, &at);
        }
        if subs_same {
            break;
        }
    }
}

/// `ValidateCustomResourceColumnDefinition`.
fn validate_column(c: &mut Vec<String>, col: &CustomResourceColumnDefinition, at: &str) {
    const TYPES: &str = "boolean,date,integer,number,string";
    if col.name.is_empty() {
        c.push(format!("{at}.name: Required value"));
    }
    if col.type_.is_empty() {
        c.push(format!("{at}.type: Required value: must be one of {TYPES}"));
    } else if !TYPES.split(',').any(|t| t == col.type_) {
        c.push(format!(
            "{at}.type: Invalid value: {}: must be one of {TYPES}",
            q(&col.type_)
        ));
    }
    const FORMATS: &str = "byte,date,date-time,double,float,int32,int64,password";
    if !col.format.is_empty() && !FORMATS.split(',').any(|f| f == col.format) {
        c.push(format!(
            "{at}.format: Invalid value: {}: must be one of {FORMATS}",
            q(&col.format)
        ));
    }
    if col.json_path.is_empty() {
        c.push(format!("{at}.JSONPath: Required value"));
    } else if !col.json_path.starts_with('.') {
        c.push(format!(
            "{at}.JSONPath: Invalid value: {}: must be a simple json path starting with .",
            q(&col.json_path)
        ));
    }
}

/// The scale subresource's paths.
fn validate_scale(c: &mut Vec<String>, s: &CustomResourceSubresourceScale, at: &str) {
    for (field, v, under) in [
        ("specReplicasPath", &s.spec_replicas_path, ".spec."),
        ("statusReplicasPath", &s.status_replicas_path, ".status."),
    ] {
        let path = format!("{at}.scale.{field}");
        if v.is_empty() {
            c.push(format!("{path}: Required value"));
        } else if !v.starts_with('.') {
            c.push(format!(
                "{path}: Invalid value: {}: must be a simple json path starting with .",
                q(v)
            ));
        } else if !v.starts_with(under) {
            let what = under.trim_end_matches('.');
            c.push(format!(
                "{path}: Invalid value: {}: should be a json path under {what}",
                q(v)
            ));
        }
    }
    if let Some(sel) = s.label_selector_path.as_deref().filter(|p| !p.is_empty()) {
        if !sel.starts_with(".spec.") && !sel.starts_with(".status.") {
            c.push(format!(
                "{at}.scale.labelSelectorPath: Invalid value: {}: should be a json path under either .spec or .status",
                q(sel)
            ));
        }
    }
}

const TYPES: [&str; 6] = ["array", "boolean", "integer", "number", "object", "string"];

/// The structural rules (`validateStructuralInvariants` and the standard schema checks)
/// most schemas meet: every specified field has a type, arrays have items, the root is
/// an object. Errors sorted, as upstream sorts them.
fn structural(c: &mut Vec<String>, schema: &Value, at: &str, root: bool) {
    let mut errs = Vec::new();
    walk(
        &mut errs,
        schema,
        at,
        if root { Place::Root } else { Place::Field },
        0,
    );
    errs.sort();
    c.extend(errs);
    // Then the validation rules, which must compile
    // (`ValidateCustomResourceDefinitionOpenAPISchema`).
    crate::api::cel::rules::compile_errors(schema, at, 0, c);
}

#[derive(Clone, Copy, PartialEq)]
enum Place {
    Root,
    Field,
    Items,
    Additional,
}

fn walk(errs: &mut Vec<String>, s: &Value, at: &str, place: Place, depth: usize) {
    if depth > 64 {
        return;
    }
    let Some(map) = s.as_object() else {
        errs.push(format!("{at}: Invalid value: \"\": must be an object"));
        return;
    };
    let flag = |k: &str| map.get(k).and_then(Value::as_bool).unwrap_or(false);
    let ty = map.get("type").and_then(Value::as_str).unwrap_or("");
    let loose = flag("x-kubernetes-int-or-string") || flag("x-kubernetes-preserve-unknown-fields");
    if ty.is_empty() && !loose {
        let why = match place {
            Place::Root => "must not be empty at the root",
            Place::Items => "must not be empty for specified array items",
            Place::Field | Place::Additional => "must not be empty for specified object fields",
        };
        errs.push(format!("{at}.type: Required value: {why}"));
    } else if !ty.is_empty() && !TYPES.contains(&ty) {
        errs.push(format!(
            "{at}.type: Unsupported value: {}: supported values: \"array\", \"boolean\", \"integer\", \"number\", \"object\", \"string\"",
            q(ty)
        ));
    }
    if place == Place::Root && !ty.is_empty() && ty != "object" {
        errs.push(format!(
            "{at}.type: Invalid value: {}: must be object at the root",
            q(ty)
        ));
    }
    if place == Place::Root && map.contains_key("additionalProperties") {
        errs.push(format!(
            "{at}.additionalProperties: Forbidden: must not be used at the root"
        ));
    }
    if map.contains_key("additionalProperties") && map.contains_key("properties") {
        errs.push(format!(
            "{at}.additionalProperties: Forbidden: additionalProperties and properties are mutual exclusive"
        ));
    }
    if ty == "array" && !map.contains_key("items") {
        errs.push(format!("{at}.items: Required value: must be specified"));
    }
    if let Some(v) = map.get("x-kubernetes-preserve-unknown-fields") {
        if v == &Value::Bool(false) {
            errs.push(format!("{at}.x-kubernetes-preserve-unknown-fields: Invalid value: false: must be true or undefined"));
        }
    }
    if place == Place::Root && flag("nullable") {
        errs.push(format!(
            "{at}.nullable: Forbidden: nullable cannot be true at the root"
        ));
    }
    if let Some(props) = map.get("properties").and_then(Value::as_object) {
        for (k, sub) in props {
            if place == Place::Root && k == "metadata" {
                let extra = sub
                    .get("properties")
                    .and_then(Value::as_object)
                    .is_some_and(|p| p.keys().any(|f| f != "name" && f != "generateName"));
                if extra {
                    errs.push(format!("{at}.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified"));
                }
            }
            walk(
                errs,
                sub,
                &format!("{at}.properties[{k}]"),
                Place::Field,
                depth + 1,
            );
        }
    }
    if let Some(items) = map.get("items") {
        walk(errs, items, &format!("{at}.items"), Place::Items, depth + 1);
    }
    if let Some(extra) = map.get("additionalProperties").filter(|a| a.is_object()) {
        walk(
            errs,
            extra,
            &format!("{at}.additionalProperties"),
            Place::Additional,
            depth + 1,
        );
    }
}
