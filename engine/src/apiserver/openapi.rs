//! The OpenAPI v3 documents the API server publishes (`/openapi/v3` and one document per
//! group version), which `kubectl explain` reads.
//!
//! Each document has the operations on its kinds — each naming its kind
//! (`x-kubernetes-group-version-kind`) and the query parameters it takes — and the
//! component schemas of the kinds and of every type they reach. A kind's schema
//! carries its group-version-kind, as upstream's does, which is how `explain` finds it.
//!
//! The schemas are generated from the api types — a field's description is its doc
//! comment — by [`schemas::generate`] (the `openapi` feature, for tests only) into
//! `openapi/schemas.json`, which every build reads: the page's console explains
//! without carrying the generator. A test fails when the file is stale
//! (`UPDATE_GOLDEN=1` rewrites it).
//!
//! The PATCH operation lists `fieldValidation`: kubectl reads it to learn that the
//! server validates fields itself. It declares no request body: kubectl would then
//! build client-side apply's patch from these schemas (their merge keys) instead of
//! from its own compiled-in types, which are upstream's exactly.

use super::discovery::{served_versions, GIT_VERSION, REVIEWS};
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

/// How a schema refers to another.
const REF_PREFIX: &str = "#/components/schemas/";

/// The checked-in definitions (see the module's comment).
pub const SCHEMAS_JSON: &str = include_str!("openapi/schemas.json");

/// Every definition, by name.
pub fn definitions() -> &'static Map<String, Value> {
    static DEFS: OnceLock<Map<String, Value>> = OnceLock::new();
    DEFS.get_or_init(|| serde_json::from_str(SCHEMAS_JSON).unwrap_or_default())
}

/// The name of the schema that carries `kind`'s group-version-kind in `group/version`.
fn kind_schema_name(group: &str, version: &str, kind: &str) -> Option<String> {
    let gvk = json!([{"group": group, "version": version, "kind": kind}]);
    definitions()
        .iter()
        .find(|(_, d)| d.get("x-kubernetes-group-version-kind") == Some(&gvk))
        .map(|(n, _)| n.clone())
}

/// The definitions `roots` reach through `$ref`s, roots included, sorted by name.
fn reachable(roots: &[String]) -> Map<String, Value> {
    let defs = definitions();
    let mut seen = std::collections::BTreeSet::new();
    let mut todo: Vec<String> = roots.to_vec();
    while let Some(name) = todo.pop() {
        if !seen.insert(name.clone()) {
            continue;
        }
        if let Some(d) = defs.get(&name) {
            refs(d, &mut todo);
        }
    }
    seen.into_iter()
        .filter_map(|n| defs.get(&n).map(|d| (n, d.clone())))
        .collect()
}

/// The names every `$ref` in `v` points to.
fn refs(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match (k.as_str(), x) {
                    ("$ref", Value::String(r)) => {
                        if let Some(n) = r.strip_prefix(REF_PREFIX) {
                            out.push(n.to_string());
                        }
                    }
                    _ => refs(x, out),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| refs(x, out)),
        _ => {}
    }
}

/// The group-version paths of the OpenAPI v3 index (`api/v1`, `apis/apps/v1`…): every
/// group version discovery lists, the reviews', metrics.k8s.io's and events.k8s.io's
/// included.
fn openapi_paths() -> Vec<(String, &'static str, &'static str)> {
    let mut out: Vec<(String, &'static str, &'static str)> = Vec::new();
    let gvs = served_versions()
        .map(|(_, g, v)| (g, v))
        .chain(REVIEWS.iter().map(|r| (r.group, r.version)));
    for (g, v) in gvs {
        let p = if g.is_empty() {
            format!("api/{v}")
        } else {
            format!("apis/{g}/{v}")
        };
        if !out.iter().any(|(q, _, _)| *q == p) {
            out.push((p, g, v));
        }
    }
    out
}

/// The path of one object of `kind` in `g`/`v`, as the documents name it.
fn object_path(kind: crate::api::Kind, g: &str, v: &str) -> String {
    let base = if g.is_empty() {
        format!("/api/{v}")
    } else {
        format!("/apis/{g}/{v}")
    };
    if kind.namespaced() {
        format!(
            "{base}/namespaces/{{namespace}}/{}/{{name}}",
            kind.resource()
        )
    } else {
        format!("{base}/{}/{{name}}", kind.resource())
    }
}

/// `/openapi/v3`: where each group version's document is.
pub fn openapi_index() -> Value {
    let mut paths = Map::new();
    for (p, _, _) in openapi_paths() {
        paths.insert(
            p.clone(),
            json!({"serverRelativeURL": format!("/openapi/v3/{p}?hash={}", GIT_VERSION)}),
        );
    }
    for p in super::custom::openapi::paths() {
        let url = format!("/openapi/v3/{p}?hash={}", GIT_VERSION);
        paths.insert(p, json!({ "serverRelativeURL": url }));
    }
    json!({"paths": paths})
}

/// `/openapi/v3/api/v1` or `/openapi/v3/apis/GROUP/VERSION`: the operations on each
/// object and the schemas of the kinds served there (see the module's comment).
pub fn openapi_document(gv_path: &str) -> Option<Value> {
    let Some((_, g, v)) = openapi_paths().into_iter().find(|(p, _, _)| p == gv_path) else {
        return super::custom::openapi::document(gv_path, reachable);
    };
    let mut paths = Map::new();
    let params = json!([
        {"name": "dryRun", "in": "query", "schema": {"type": "string", "uniqueItems": true}},
        {"name": "fieldManager", "in": "query", "schema": {"type": "string", "uniqueItems": true}},
        {"name": "fieldValidation", "in": "query", "schema": {"type": "string", "uniqueItems": true}},
        {"name": "force", "in": "query", "schema": {"type": "boolean", "uniqueItems": true}},
    ]);
    let mut roots = Vec::new();
    for (s, _, _) in served_versions().filter(|(_, sg, sv)| (*sg, *sv) == (g, v)) {
        let path = object_path(s.kind, g, v);
        let gvk = json!({"group": g, "version": v, "kind": s.kind.name()});
        // Only a kind whose type is this version's has a schema here (the HPA's
        // autoscaling/v1 form is converted, not modelled).
        let schema = kind_schema_name(g, v, s.kind.name());
        let mut get = json!({
            "operationId": format!("read{}", s.kind.name()),
            "x-kubernetes-action": "get",
            "x-kubernetes-group-version-kind": gvk,
            "responses": {"200": {"description": "OK"}},
        });
        if let Some(name) = &schema {
            get["responses"]["200"]["content"] = json!({"application/json": {"schema": {
                "$ref": format!("#/components/schemas/{name}")}}});
            roots.push(name.clone());
        }
        paths.insert(
            path,
            json!({
                "get": get,
                "patch": {
                    "operationId": format!("patch{}", s.kind.name()),
                    "x-kubernetes-action": "patch",
                    "x-kubernetes-group-version-kind": gvk,
                    "parameters": params,
                    "responses": {"200": {"description": "OK"}},
                },
            }),
        );
    }
    // The resources served without a stored type of their own: a review is created
    // (`post`), the others read.
    for r in REVIEWS.iter().filter(|r| (r.group, r.version) == (g, v)) {
        let gvk = json!({"group": g, "version": v, "kind": r.kind});
        let (path, op, action) = if r.verbs == ["create"] {
            (format!("/apis/{g}/{v}/{}", r.resource), "post", "post")
        } else if r.namespaced {
            let p = format!(
                "/apis/{g}/{v}/namespaces/{{namespace}}/{}/{{name}}",
                r.resource
            );
            (p, "get", "get")
        } else {
            (
                format!("/apis/{g}/{v}/{}/{{name}}", r.resource),
                "get",
                "get",
            )
        };
        let operation = json!({
            "operationId": format!("{op}{}", r.kind),
            "x-kubernetes-action": action,
            "x-kubernetes-group-version-kind": gvk,
            "responses": {"200": {"description": "OK"}},
        });
        paths.insert(path, json!({ op: operation }));
    }
    Some(json!({
        "openapi": "3.0.0",
        "info": {"title": "Kubernetes", "version": GIT_VERSION},
        "paths": paths,
        "components": {"schemas": reachable(&roots)},
    }))
}

pub mod v2;

#[cfg(feature = "openapi")]
pub mod schemas;
#[cfg(feature = "openapi")]
mod texts;
