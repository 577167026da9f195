//! The OpenAPI v3 documents the API server publishes: what `kubectl explain` needs to
//! find and walk each kind, and the checked-in schemas they are built from.

use kubeplay_engine::api::Kind;
use kubeplay_engine::apiserver::openapi::{openapi_document, openapi_index};
use serde_json::Value;

fn documents() -> Vec<(String, Value)> {
    let index = openapi_index();
    index["paths"]
        .as_object()
        .unwrap()
        .keys()
        .map(|gv| (gv.clone(), openapi_document(gv).unwrap()))
        .collect()
}

/// Every node of a JSON value, depth first.
fn walk<'a>(v: &'a Value, out: &mut Vec<&'a Value>) {
    out.push(v);
    match v {
        Value::Object(m) => m.values().for_each(|x| walk(x, out)),
        Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
        _ => {}
    }
}

#[test]
fn every_kind_has_a_schema_with_its_group_version_kind_in_its_own_document() {
    let docs = documents();
    for kind in Kind::ALL {
        let gv = match kind.api_version().split_once('/') {
            Some((g, v)) => format!("apis/{g}/{v}"),
            None => format!("api/{}", kind.api_version()),
        };
        let (_, doc) = docs.iter().find(|(p, _)| *p == gv).unwrap();
        let (group, version) = kind
            .api_version()
            .split_once('/')
            .unwrap_or(("", kind.api_version()));
        let found = doc["components"]["schemas"]
            .as_object()
            .unwrap()
            .values()
            .filter(|s| {
                s["x-kubernetes-group-version-kind"]
                    == serde_json::json!([{"group": group, "version": version, "kind": kind.name()}])
            })
            .count();
        assert_eq!(found, 1, "{kind:?} in {gv}");
    }
}

#[test]
fn every_reference_resolves_within_its_document_and_no_schema_is_nullable() {
    for (gv, doc) in documents() {
        let schemas = doc["components"]["schemas"].as_object().unwrap();
        let mut nodes = Vec::new();
        walk(&doc, &mut nodes);
        for n in nodes {
            if let Some(r) = n.get("$ref").and_then(Value::as_str) {
                let name = r.strip_prefix("#/components/schemas/").unwrap();
                assert!(schemas.contains_key(name), "{gv}: {r}");
            }
            if let Some(t) = n.get("type") {
                // (an object here is a property named `type`)
                assert!(t.is_string() || t.is_object(), "{gv}: type {t}");
            }
            assert!(
                n.get("anyOf").is_none() && n.get("nullable").is_none(),
                "{gv}: {n}"
            );
        }
    }
}

#[test]
fn fields_read_as_upstream_shapes_them() {
    let docs = documents();
    let apps = &docs.iter().find(|(p, _)| p == "apis/apps/v1").unwrap().1;
    let s = &apps["components"]["schemas"];
    let spec = &s["DeploymentSpec"]["properties"];
    assert_eq!(spec["replicas"]["type"], "integer");
    // An object field refers to its type through allOf, beside its own description.
    assert_eq!(
        spec["template"]["allOf"][0]["$ref"],
        "#/components/schemas/PodTemplateSpec"
    );
    assert!(spec["template"]["description"].is_string());
    // An optional object field too.
    assert_eq!(
        s["DeploymentStrategy"]["properties"]["rollingUpdate"]["allOf"][0]["$ref"],
        "#/components/schemas/RollingUpdateDeployment"
    );
    assert_eq!(s["IntOrString"]["format"], "int-or-string");
    assert_eq!(
        s["Deployment"]["properties"]["apiVersion"]["type"],
        "string"
    );
    assert!(s.get("HttpGetAction").is_none() && s.get("HTTPGetAction").is_some());
    // The HPA's autoscaling/v1 form is converted, not modelled: no schema claims it.
    let v1 = &docs
        .iter()
        .find(|(p, _)| p == "apis/autoscaling/v1")
        .unwrap()
        .1;
    assert!(v1["components"]["schemas"].as_object().unwrap().is_empty());
}

/// The definitions as `openapi/schemas.json` writes them: one per line, so that a
/// change to a type shows as a change to its line.
#[cfg(feature = "openapi")]
fn file_text(defs: &serde_json::Map<String, Value>) -> String {
    let lines: Vec<String> = defs
        .iter()
        .map(|(k, v)| format!("{}: {}", Value::from(k.as_str()), v))
        .collect();
    format!("{{\n{}\n}}\n", lines.join(",\n"))
}

// The `openapi` feature is on in `cargo test --workspace` (the CLI's tests enable it).
#[cfg(feature = "openapi")]
#[test]
fn the_checked_in_schemas_are_the_ones_the_api_types_generate() {
    let want = file_text(&kubeplay_engine::apiserver::openapi::schemas::generate());
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/apiserver/openapi/schemas.json"
        );
        std::fs::write(path, &want).unwrap();
        return;
    }
    assert!(
        kubeplay_engine::apiserver::openapi::SCHEMAS_JSON == want,
        "src/apiserver/openapi/schemas.json is stale: regenerate it with UPDATE_GOLDEN=1 cargo test -p kubeplay-engine --features openapi --test openapi"
    );
}

#[test]
fn the_index_lists_every_group_version_discovery_lists() {
    let index = openapi_index();
    for gv in [
        "api/v1",
        "apis/apps/v1",
        "apis/autoscaling/v1",
        "apis/events.k8s.io/v1",
        "apis/authorization.k8s.io/v1",
        "apis/authentication.k8s.io/v1",
        "apis/metrics.k8s.io/v1beta1",
    ] {
        assert!(index["paths"].get(gv).is_some(), "{gv}");
    }
    // A review is created, not read; events.k8s.io's Events are read and patched.
    let authz = openapi_document("apis/authorization.k8s.io/v1").unwrap();
    let op = &authz["paths"]["/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"]["post"];
    assert_eq!(op["x-kubernetes-action"], "post");
    assert_eq!(
        op["x-kubernetes-group-version-kind"]["kind"],
        "SelfSubjectAccessReview"
    );
    let events = openapi_document("apis/events.k8s.io/v1").unwrap();
    assert!(events["paths"]
        .get("/apis/events.k8s.io/v1/namespaces/{namespace}/events/{name}")
        .is_some());
}
