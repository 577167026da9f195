//! The OpenAPI v2 document (`/openapi/v2`), which kubectl reads for
//! `explain --output plaintext-openapiv2` and other clients for their schemas: the
//! same definitions as the v3 documents, in Swagger 2.0's form.
//!
//! - A reference is `#/definitions/NAME`, with its description beside it (v3 wraps
//!   it in `allOf` to carry one).
//! - An int-or-string is `type: string, format: int-or-string`, as upstream's v2
//!   document writes it.
//! - Each object's GET and PATCH carry its group-version-kind. The PATCH declares no
//!   `consumes`, so kubectl's client-side apply keeps building strategic merge patches
//!   from its own compiled-in types, which are upstream's exactly (see the v3 module).
//!
//! Upstream: `k8s.io/kube-openapi/pkg/builder` (the v2 spec) and `pkg/handler`.

use super::{definitions, REF_PREFIX};
use crate::apiserver::discovery::{served_versions, GIT_VERSION};
use serde_json::{json, Map, Value};
use std::sync::OnceLock;

/// How a v2 schema refers to another.
pub const V2_REF_PREFIX: &str = "#/definitions/";

/// The whole document (built once: it does not change while kubeplay runs).
pub fn openapi_v2_document() -> &'static Value {
    static DOC: OnceLock<Value> = OnceLock::new();
    DOC.get_or_init(build)
}

/// Every definition in its v2 form, by name.
pub fn v2_definitions() -> Map<String, Value> {
    definitions()
        .iter()
        .map(|(n, d)| (n.clone(), to_v2(d)))
        .collect()
}

fn build() -> Value {
    let mut paths = Map::new();
    for (s, g, v) in served_versions() {
        let path = super::object_path(s.kind, g, v);
        let gvk = json!({"group": g, "version": v, "kind": s.kind.name()});
        let mut ok = json!({"description": "OK"});
        if let Some(name) = super::kind_schema_name(g, v, s.kind.name()) {
            ok["schema"] = json!({"$ref": format!("{V2_REF_PREFIX}{name}")});
        }
        let operation = |verb: &str, action: &str, response: &Value| {
            json!({
                "operationId": format!("{verb}{}", s.kind.name()),
                "produces": ["application/json", "application/yaml", "application/vnd.kubernetes.protobuf"],
                "schemes": ["https"],
                "responses": {"200": response},
                "x-kubernetes-action": action,
                "x-kubernetes-group-version-kind": gvk,
            })
        };
        paths.insert(
            path,
            json!({
                "get": operation("read", "get", &ok),
                "patch": operation("patch", "patch", &json!({"description": "OK"})),
            }),
        );
    }
    json!({
        "swagger": "2.0",
        "info": {"title": "Kubernetes", "version": GIT_VERSION},
        "paths": paths,
        "definitions": v2_definitions(),
    })
}

/// A v3 schema in v2's form (see the module's comment).
fn to_v2(schema: &Value) -> Value {
    match schema {
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, v) in m {
                match (k.as_str(), v) {
                    ("$ref", Value::String(r)) => {
                        let name = r.strip_prefix(REF_PREFIX).unwrap_or(r);
                        out.insert(k.clone(), Value::String(format!("{V2_REF_PREFIX}{name}")));
                    }
                    // `allOf: [{$ref}]` beside a description: the reference itself.
                    ("allOf", Value::Array(items)) if items.len() == 1 => {
                        if let Value::Object(inner) = to_v2(&items[0]) {
                            out.extend(inner);
                        }
                    }
                    ("oneOf", _) => {
                        out.insert("type".into(), "string".into());
                    }
                    ("properties", Value::Object(props)) => {
                        let props = props.iter().map(|(n, p)| (n.clone(), to_v2(p))).collect();
                        out.insert(k.clone(), Value::Object(props));
                    }
                    ("items" | "additionalProperties", _) => {
                        out.insert(k.clone(), to_v2(v));
                    }
                    _ => {
                        out.insert(k.clone(), v.clone());
                    }
                }
            }
            Value::Object(out)
        }
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references_point_into_definitions_and_carry_their_description() {
        let doc = openapi_v2_document();
        let pod = &doc["definitions"]["Pod"];
        assert_eq!(pod["properties"]["spec"]["$ref"], "#/definitions/PodSpec");
        assert!(pod["properties"]["spec"]["description"].is_string());
        assert!(pod["properties"]["spec"].get("allOf").is_none());
        assert_eq!(
            doc["definitions"]["IntOrString"]["type"], "string",
            "int-or-string is a string with a format"
        );
        let text = doc.to_string();
        assert!(!text.contains("#/components/schemas/"));
        for r in text.split("\"$ref\":\"#/definitions/").skip(1) {
            let name = &r[..r.find('"').unwrap()];
            assert!(doc["definitions"].get(name).is_some(), "{name}");
        }
    }

    #[test]
    fn a_patch_declares_no_consumes_so_kubectl_keeps_its_own_patch_types() {
        let doc = openapi_v2_document();
        let deployments = &doc["paths"]["/apis/apps/v1/namespaces/{namespace}/deployments/{name}"];
        assert_eq!(
            deployments["patch"]["x-kubernetes-group-version-kind"]["kind"],
            "Deployment"
        );
        assert!(deployments["patch"].get("consumes").is_none());
        assert_eq!(
            deployments["get"]["responses"]["200"]["schema"]["$ref"],
            "#/definitions/Deployment"
        );
    }
}
