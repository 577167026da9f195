//! The OpenAPI v3 documents of the custom groups (`apiextensions-apiserver/pkg/
//! controller/openapi/builder`): each served resource's schema, as its definition
//! wrote it, with `apiVersion`, `kind` and `metadata` added and its
//! group-version-kind, so that `kubectl explain` finds it.

use crate::api::discovered::{in_scope, Served};
use serde_json::{json, Map, Value};

/// `apis/GROUP/VERSION` of every served custom group version.
pub fn paths() -> Vec<String> {
    let mut out: Vec<String> = in_scope()
        .iter()
        .flat_map(|s| s.versions.iter().map(|v| format!("apis/{}/{v}", s.group)))
        .collect();
    out.sort();
    out.dedup();
    out
}

/// The schema name upstream gives a kind: its group reversed, the version, the kind
/// (`com.example.v1.Widget`).
fn schema_name(group: &str, version: &str, kind: &str) -> String {
    let rev: Vec<&str> = group.rsplit('.').collect();
    format!("{}.{version}.{kind}", rev.join("."))
}

fn kind_schema(s: &Served, version: &str) -> Value {
    let mut schema = match s.schema.clone() {
        Some(Value::Object(m)) => m,
        _ => Map::new(),
    };
    schema.insert("type".into(), json!("object"));
    let props = schema.entry("properties").or_insert_with(|| json!({}));
    if let Value::Object(p) = props {
        p.insert("apiVersion".into(), json!({"type": "string", "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources"}));
        p.insert("kind".into(), json!({"type": "string", "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds"}));
        p.insert("metadata".into(), json!({"allOf": [{"$ref": "#/components/schemas/ObjectMeta"}], "description": "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"}));
    }
    schema.insert(
        "x-kubernetes-group-version-kind".into(),
        json!([{"group": s.group, "version": version, "kind": s.names.kind}]),
    );
    Value::Object(schema)
}

/// The document of `apis/GROUP/VERSION`, or None when no custom resource is served
/// there. `meta` gives the definitions the kinds refer to (ObjectMeta and what it
/// reaches).
pub fn document(gv_path: &str, meta: impl Fn(&[String]) -> Map<String, Value>) -> Option<Value> {
    let (group, version) = gv_path.strip_prefix("apis/")?.split_once('/')?;
    let scope = in_scope();
    let served: Vec<&Served> = scope
        .iter()
        .filter(|s| s.group == group && s.versions.iter().any(|v| v == version))
        .collect();
    if served.is_empty() {
        return None;
    }
    let mut schemas = meta(&["ObjectMeta".to_string()]);
    let mut paths = Map::new();
    for s in served {
        let name = schema_name(group, version, &s.names.kind);
        schemas.insert(name.clone(), kind_schema(s, version));
        let gvk = json!({"group": group, "version": version, "kind": s.names.kind});
        let path = if s.kind.namespaced() {
            format!(
                "/apis/{group}/{version}/namespaces/{{namespace}}/{}/{{name}}",
                s.names.plural
            )
        } else {
            format!("/apis/{group}/{version}/{}/{{name}}", s.names.plural)
        };
        paths.insert(
            path,
            json!({
                "get": {
                    "operationId": format!("read{}", s.names.kind),
                    "x-kubernetes-action": "get",
                    "x-kubernetes-group-version-kind": gvk,
                    "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {
                        "$ref": format!("#/components/schemas/{name}")}}}}},
                },
                "patch": {
                    "operationId": format!("patch{}", s.names.kind),
                    "x-kubernetes-action": "patch",
                    "x-kubernetes-group-version-kind": gvk,
                    "parameters": [
                        {"name": "dryRun", "in": "query", "schema": {"type": "string", "uniqueItems": true}},
                        {"name": "fieldManager", "in": "query", "schema": {"type": "string", "uniqueItems": true}},
                        {"name": "fieldValidation", "in": "query", "schema": {"type": "string", "uniqueItems": true}},
                        {"name": "force", "in": "query", "schema": {"type": "boolean", "uniqueItems": true}},
                    ],
                    "responses": {"200": {"description": "OK"}},
                },
            }),
        );
    }
    Some(json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes CRD Swagger", "version": "v0.1.0"},
        "paths": paths,
        "components": {"schemas": schemas},
    }))
}
