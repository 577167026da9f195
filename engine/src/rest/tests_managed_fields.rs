//! `metadata.managedFields` written by a client: a patch or an update that carries
//! them replaces the live managers; one empty entry resets them; managers that do not
//! decode, or an empty list, leave the live ones.

use super::tests::{call, create_web, req, server, with_body};
use super::*;

const WEB: &str = "/apis/apps/v1/namespaces/default/deployments/web";

fn managers(s: &mut ApiServer) -> Value {
    let (code, body) = call(s, &req("GET", WEB));
    assert_eq!(code, 200, "{body}");
    body["metadata"]["managedFields"].clone()
}

fn json_patch(s: &mut ApiServer, patch: Value) -> (u16, Value) {
    let r = with_body(
        req("PATCH", WEB),
        "application/json-patch+json",
        &patch.to_string(),
    );
    call(s, &r)
}

#[test]
fn a_json_patch_of_the_managers_replaces_them_and_bumps_the_version() {
    let mut s = server();
    create_web(&mut s);
    let before = managers(&mut s);
    assert_eq!(before.as_array().map(Vec::len), Some(1), "{before}");
    let mut mine = before.clone();
    mine[0]["manager"] = json!("someone-else");
    mine[0]["operation"] = json!("Apply");
    let (code, body) = json_patch(
        &mut s,
        json!([{"op": "replace", "path": "/metadata/managedFields", "value": mine}]),
    );
    assert_eq!(code, 200, "{body}");
    assert_eq!(
        body["metadata"]["managedFields"][0]["manager"],
        "someone-else"
    );
    assert_eq!(body["metadata"]["managedFields"][0]["operation"], "Apply");
    assert_eq!(
        body["metadata"]["managedFields"][0]["fieldsV1"],
        before[0]["fieldsV1"]
    );
    assert_ne!(body["metadata"]["resourceVersion"], json!(null));
}

#[test]
fn one_empty_entry_resets_the_managers() {
    let mut s = server();
    create_web(&mut s);
    let (code, body) = json_patch(
        &mut s,
        json!([{"op": "replace", "path": "/metadata/managedFields", "value": [{}]}]),
    );
    assert_eq!(code, 200, "{body}");
    assert!(body["metadata"].get("managedFields").is_none(), "{body}");
}

#[test]
fn managers_that_do_not_decode_or_an_empty_list_leave_the_live_ones() {
    let mut s = server();
    create_web(&mut s);
    let before = managers(&mut s);
    for bad in [
        json!([]),
        json!([{"manager": "m", "operation": "Patch", "apiVersion": "apps/v1", "fieldsType": "FieldsV1", "fieldsV1": {}}]),
        json!([{"manager": "m", "operation": "Update", "apiVersion": "apps/v1", "fieldsType": "FieldsV1", "fieldsV1": {"spec": {}}}]),
    ] {
        let r = with_body(
            req("PATCH", WEB),
            "application/merge-patch+json",
            &json!({"metadata": {"managedFields": bad, "labels": {"touched": "yes"}}}).to_string(),
        );
        let (code, body) = call(&mut s, &r);
        assert_eq!(code, 200, "{body}");
        let after = &body["metadata"]["managedFields"];
        assert_eq!(after.as_array().map(Vec::len), Some(1), "{bad}: {after}");
        assert_eq!(after[0]["manager"], before[0]["manager"], "{bad}: {after}");
        assert_eq!(
            after[0]["fieldsV1"]["f:spec"],
            before[0]["fieldsV1"]["f:spec"]
        );
    }
}

#[test]
fn an_update_carrying_managers_keeps_them_and_adds_its_own_changes() {
    let mut s = server();
    create_web(&mut s);
    let (_, mut obj) = call(&mut s, &req("GET", WEB));
    obj["metadata"]["managedFields"] = json!([{"manager": "imported", "operation": "Update",
        "apiVersion": "apps/v1", "fieldsType": "FieldsV1", "time": "2025-01-01T00:00:00Z",
        "fieldsV1": {"f:spec": {"f:replicas": {}, "f:paused": {}}}}]);
    obj["spec"]["replicas"] = json!(4);
    let mut r = with_body(req("PUT", WEB), "application/json", &obj.to_string());
    r.headers.push(("user-agent".into(), "editor/1.0".into()));
    let (code, body) = call(&mut s, &r);
    assert_eq!(code, 200, "{body}");
    let m = &body["metadata"]["managedFields"];
    let names: Vec<&str> = m
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["manager"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["editor", "imported"], "{m}");
    assert_eq!(m[0]["fieldsV1"], json!({"f:spec": {"f:replicas": {}}}));
    assert_eq!(m[1]["fieldsV1"], json!({"f:spec": {"f:paused": {}}}));
}
