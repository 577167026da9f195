use super::*;
use crate::cluster::Cluster;

pub(super) fn server() -> ApiServer {
    ApiServer::new(Cluster::with_default_nodes(1))
}

pub(super) fn req(method: &str, path: &str) -> HttpRequest {
    let mut r = HttpRequest::get(
        path,
        vec![
            ("accept".into(), "application/json".into()),
            (
                "authorization".into(),
                format!("Bearer {}", token_for(ADMIN_USER)),
            ),
        ],
    );
    r.method = method.into();
    r
}

/// Set a header, replacing any of that name.
pub(super) fn set_header(r: &mut HttpRequest, name: &str, value: &str) {
    r.headers.retain(|(k, _)| k != name);
    r.headers.push((name.into(), value.into()));
}

/// The request's reply (a `sim` command is run above this adapter:
/// `engine/tests/sim_endpoint.rs`).
pub(super) fn reply(s: &mut ApiServer, r: &HttpRequest) -> Reply {
    s.handle(r)
}

pub(super) fn with_body(mut r: HttpRequest, content_type: &str, body: &str) -> HttpRequest {
    r.headers.push(("content-type".into(), content_type.into()));
    r.body = body.as_bytes().to_vec();
    r
}

pub(super) fn call(s: &mut ApiServer, r: &HttpRequest) -> (u16, Value) {
    match reply(s, r) {
        Reply::Response(resp) => (
            resp.status,
            serde_json::from_slice(&resp.body).unwrap_or(Value::String(
                String::from_utf8_lossy(&resp.body).into_owned(),
            )),
        ),
        Reply::NoAnswer => panic!("no answer where a response was expected"),
        _ => panic!("a watch where a response was expected"),
    }
}

const DEPLOYMENT: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},
 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
 "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}"#;

pub(super) fn create_web(s: &mut ApiServer) {
    let r = with_body(
        req(
            "POST",
            "/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict",
        ),
        "application/json",
        DEPLOYMENT,
    );
    let (code, body) = call(s, &r);
    assert_eq!(code, 201, "{body}");
}

#[test]
fn aggregated_discovery_is_answered_with_its_content_type_and_the_legacy_lists_otherwise() {
    let mut s = server();
    let mut r = req("GET", "/apis");
    set_header(
        &mut r,
        "accept",
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json",
    );
    match s.handle(&r) {
        Reply::Response(resp) => {
            assert_eq!(resp.status, 200);
            assert!(resp.content_type.contains("as=APIGroupDiscoveryList"));
            let v: Value = serde_json::from_slice(&resp.body).unwrap();
            assert_eq!(v["kind"], "APIGroupDiscoveryList");
        }
        Reply::NoAnswer => panic!(),
        _ => panic!(),
    }
    let (code, v) = call(&mut s, &req("GET", "/apis"));
    assert_eq!((code, v["kind"].as_str()), (200, Some("APIGroupList")));
    let (code, v) = call(&mut s, &req("GET", "/apis/apps/v1"));
    assert_eq!(code, 200);
    assert!(v["resources"]
        .as_array()
        .unwrap()
        .iter()
        .any(|r| r["name"] == "deployments/scale"));
    assert_eq!(call(&mut s, &req("GET", "/apis/nope/v1")).0, 404);
    assert_eq!(
        call(&mut s, &req("GET", "/version")).1["gitVersion"],
        "v1.33.0"
    );
}

#[test]
fn a_created_deployment_is_read_back_as_json_as_a_list_and_as_a_table_with_wide_columns_at_priority_one(
) {
    let mut s = server();
    create_web(&mut s);
    let (code, d) = call(
        &mut s,
        &req("GET", "/apis/apps/v1/namespaces/default/deployments/web"),
    );
    assert_eq!(code, 200);
    assert_eq!(d["metadata"]["generation"], 1);
    assert!(!d["metadata"]["uid"].as_str().unwrap().is_empty());
    let (_, list) = call(
        &mut s,
        &req("GET", "/apis/apps/v1/deployments?labelSelector=app=web"),
    );
    assert_eq!(list["kind"], "DeploymentList");
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    let (_, none) = call(
        &mut s,
        &req("GET", "/apis/apps/v1/deployments?labelSelector=app=db"),
    );
    assert_eq!(none["items"].as_array().unwrap().len(), 0);
    let mut t = req(
        "GET",
        "/apis/apps/v1/namespaces/default/deployments?includeObject=Metadata",
    );
    set_header(
        &mut t,
        "accept",
        "application/json;as=Table;v=v1;g=meta.k8s.io,application/json",
    );
    let (_, table) = call(&mut s, &t);
    assert_eq!(table["kind"], "Table");
    let cols: Vec<(String, i64)> = table["columnDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_string(),
                c["priority"].as_i64().unwrap(),
            )
        })
        .collect();
    assert_eq!(cols[0], ("Name".to_string(), 0));
    assert_eq!(cols[1], ("Ready".to_string(), 0));
    assert!(cols.contains(&("Images".to_string(), 1)));
    assert_eq!(table["rows"][0]["cells"][0], "web");
    assert_eq!(table["rows"][0]["cells"][1], "0/2");
    assert_eq!(table["rows"][0]["object"]["kind"], "PartialObjectMetadata");
    assert_eq!(
        table["rows"][0]["object"]["metadata"]["labels"]["app"],
        "web"
    );
}

#[test]
fn errors_are_statuses_with_the_api_servers_reasons_messages_and_details() {
    let mut s = server();
    let (code, st) = call(&mut s, &req("GET", "/api/v1/namespaces/default/pods/nope"));
    assert_eq!(code, 404);
    assert_eq!(st["kind"], "Status");
    assert_eq!(st["reason"], "NotFound");
    assert_eq!(st["message"], "pods \"nope\" not found");
    assert_eq!(st["details"], json!({"name": "nope", "kind": "pods"}));
    create_web(&mut s);
    let again = with_body(
        req("POST", "/apis/apps/v1/namespaces/default/deployments"),
        "application/json",
        DEPLOYMENT,
    );
    let (code, st) = call(&mut s, &again);
    assert_eq!((code, st["reason"].as_str()), (409, Some("AlreadyExists")));
    assert_eq!(st["message"], "deployments.apps \"web\" already exists");
    assert_eq!(st["details"]["group"], "apps");
    let bad = DEPLOYMENT.replace("\"replicas\":2", "\"replicas\":-1");
    let bad = bad.replace("\"name\":\"web\",", "\"name\":\"bad\",");
    let r = with_body(
        req("POST", "/apis/apps/v1/namespaces/default/deployments"),
        "application/json",
        &bad,
    );
    let (code, st) = call(&mut s, &r);
    assert_eq!(
        (code, st["reason"].as_str()),
        (422, Some("Invalid")),
        "{st}"
    );
    assert_eq!(st["details"]["kind"], "Deployment");
    assert_eq!(st["details"]["causes"][0]["field"], "spec.replicas");
    let unknown = DEPLOYMENT.replace("\"replicas\":2", "\"replicas\":2,\"replicaz\":1");
    let unknown = unknown.replace("\"name\":\"web\",", "\"name\":\"odd\",");
    let r = with_body(
        req(
            "POST",
            "/apis/apps/v1/namespaces/default/deployments?fieldValidation=Strict",
        ),
        "application/json",
        &unknown,
    );
    let (code, st) = call(&mut s, &r);
    assert_eq!(code, 400);
    assert_eq!(
        st["message"],
        "Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.replicaz\""
    );
    assert_eq!(
        call(&mut s, &req("GET", "/api/v1/namespaces/default/nope")).0,
        404
    );
}

#[test]
fn every_patch_type_changes_the_object_and_the_scale_subresource_reads_and_writes_replicas() {
    let mut s = server();
    create_web(&mut s);
    let path = "/apis/apps/v1/namespaces/default/deployments/web";
    let merge = with_body(
        req("PATCH", path),
        "application/merge-patch+json",
        r#"{"metadata":{"labels":{"tier":"front"}}}"#,
    );
    assert_eq!(
        call(&mut s, &merge).1["metadata"]["labels"]["tier"],
        "front"
    );
    let smp = with_body(
        req("PATCH", path),
        "application/strategic-merge-patch+json",
        r#"{"spec":{"template":{"spec":{"containers":[{"name":"web","image":"nginx:1.28"}]}}}}"#,
    );
    let (_, d) = call(&mut s, &smp);
    assert_eq!(
        d["spec"]["template"]["spec"]["containers"][0]["image"],
        "nginx:1.28"
    );
    assert_eq!(d["metadata"]["generation"], 2);
    let jp = with_body(
        req("PATCH", path),
        "application/json-patch+json",
        r#"[{"op":"replace","path":"/spec/replicas","value":4}]"#,
    );
    assert_eq!(call(&mut s, &jp).1["spec"]["replicas"], 4);
    let (code, scale) = call(&mut s, &req("GET", &format!("{path}/scale")));
    assert_eq!(code, 200);
    assert_eq!(scale["kind"], "Scale");
    assert_eq!(scale["spec"]["replicas"], 4);
    let sp = with_body(
        req("PATCH", &format!("{path}/scale")),
        "application/merge-patch+json",
        r#"{"spec":{"replicas":1}}"#,
    );
    let (code, scale) = call(&mut s, &sp);
    assert_eq!((code, scale["spec"]["replicas"].as_i64()), (200, Some(1)));
    assert_eq!(call(&mut s, &req("GET", path)).1["spec"]["replicas"], 1);
    let odd = with_body(req("PATCH", path), "text/plain", "{}");
    assert_eq!(call(&mut s, &odd).0, 415);
}

#[test]
fn server_side_apply_creates_then_merges_and_a_conflict_is_a_409() {
    let mut s = server();
    let path = "/apis/apps/v1/namespaces/default/deployments/web?fieldManager=ci";
    let apply = with_body(
        req("PATCH", path),
        "application/apply-patch+yaml",
        DEPLOYMENT,
    );
    assert_eq!(call(&mut s, &apply).0, 201);
    let other = with_body(
        req(
            "PATCH",
            "/apis/apps/v1/namespaces/default/deployments/web?fieldManager=other",
        ),
        "application/apply-patch+yaml",
        &DEPLOYMENT.replace("\"replicas\":2", "\"replicas\":5"),
    );
    let (code, st) = call(&mut s, &other);
    assert_eq!(code, 409, "{st}");
    assert_eq!(
        st["message"],
        "Apply failed with 1 conflict: conflict with \"ci\": .spec.replicas"
    );
    // `NewConflictError`: the causes, and nothing else, in the details.
    assert_eq!(
        st["details"],
        json!({"causes": [{"reason": "FieldManagerConflict", "message": "conflict with \"ci\"", "field": ".spec.replicas"}]})
    );
    // The managers are in every answer's metadata.managedFields.
    let (_, got) = call(
        &mut s,
        &req("GET", "/apis/apps/v1/namespaces/default/deployments/web"),
    );
    let managers: Vec<&str> = got["metadata"]["managedFields"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["manager"].as_str().unwrap())
        .collect();
    assert_eq!(managers, ["ci"]);
    assert_eq!(got["metadata"]["managedFields"][0]["operation"], "Apply");
    assert!(got["metadata"]["managedFields"][0]["fieldsV1"]["f:spec"]["f:replicas"].is_object());
    let forced = with_body(
        req(
            "PATCH",
            "/apis/apps/v1/namespaces/default/deployments/web?fieldManager=other&force=true",
        ),
        "application/apply-patch+yaml",
        &DEPLOYMENT.replace("\"replicas\":2", "\"replicas\":5"),
    );
    assert_eq!(call(&mut s, &forced).1["spec"]["replicas"], 5);
}

#[test]
fn a_deleted_pod_terminates_gracefully_and_a_watch_streams_each_state_then_410_before_the_window() {
    let mut s = server();
    create_web(&mut s);
    s.cluster.advance(30_000);
    s.collect();
    let (_, list) = call(&mut s, &req("GET", "/api/v1/namespaces/default/pods"));
    let rv: u64 = list["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    let name = list["items"][0]["metadata"]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let Reply::Watch(mut w) = s.handle(&req(
        "GET",
        &format!("/api/v1/namespaces/default/pods?watch=1&resourceVersion={rv}&fieldSelector=metadata.name={name}"),
    )) else {
        panic!("no watch");
    };
    assert!(s.watch_events(&mut w, usize::MAX).is_empty());
    let (code, pod) = call(
        &mut s,
        &req("DELETE", &format!("/api/v1/namespaces/default/pods/{name}")),
    );
    assert_eq!(code, 200);
    assert!(pod["metadata"]["deletionTimestamp"].is_string(), "{pod}");
    s.cluster.advance(40_000);
    s.collect();
    let lines = String::from_utf8(s.watch_events(&mut w, usize::MAX)).unwrap();
    let types: Vec<String> = lines
        .lines()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["type"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(types.first().map(String::as_str), Some("MODIFIED"));
    assert_eq!(types.last().map(String::as_str), Some("DELETED"), "{lines}");
    assert!(lines.lines().all(|l| l.contains(&name)));
    assert_eq!(
        call(
            &mut s,
            &req("GET", &format!("/api/v1/namespaces/default/pods/{name}"))
        )
        .0,
        404
    );
    let Reply::Watch(mut gone) = s.handle(&req("GET", "/api/v1/pods?watch=1&resourceVersion=1"))
    else {
        panic!("no watch");
    };
    let first = String::from_utf8(s.watch_events(&mut gone, usize::MAX)).unwrap();
    assert!(
        first.contains("\"type\":\"ERROR\"") && first.contains("\"code\":410"),
        "{first}"
    );
    assert!(gone.ended());
}

#[test]
fn a_restore_from_an_etcd_snapshot_ends_every_watch_with_410_and_a_new_list_sees_the_snapshot() {
    let mut s = server();
    create_web(&mut s);
    s.cluster.advance(30_000);
    crate::command::run(
        &mut s.cluster,
        "sim etcd snapshot save s.db",
        None,
        &crate::command::NoFiles,
    );
    s.collect();
    let Reply::Watch(mut w) = s.handle(&req("GET", "/api/v1/pods?watch=1")) else {
        panic!("no watch");
    };
    // The Pods as they are first, then what changes.
    s.watch_events(&mut w, usize::MAX);
    let o = crate::command::run(
        &mut s.cluster,
        "kubectl scale deployment web --replicas=5",
        None,
        &crate::command::NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    s.cluster.advance(10_000);
    s.collect();
    let seen = String::from_utf8(s.watch_events(&mut w, usize::MAX)).unwrap();
    assert!(seen.contains("\"ADDED\""), "{seen}");
    let o = crate::command::run(
        &mut s.cluster,
        "sim etcd snapshot restore s.db",
        None,
        &crate::command::NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    s.collect();
    let after = String::from_utf8(s.watch_events(&mut w, usize::MAX)).unwrap();
    assert!(
        after.contains("\"type\":\"ERROR\"") && after.contains("\"code\":410"),
        "{after}"
    );
    assert!(w.ended());
    let (_, list) = call(
        &mut s,
        &req("GET", "/apis/apps/v1/namespaces/default/deployments/web"),
    );
    assert_eq!(list["spec"]["replicas"], 2, "the snapshot's");
}

#[test]
fn impersonation_is_judged_by_rbac_and_a_bad_token_is_401() {
    let mut s = server();
    let mut r = req("GET", "/api/v1/namespaces/default/pods");
    r.headers.push(("impersonate-user".into(), "alice".into()));
    let (code, st) = call(&mut s, &r);
    assert_eq!(code, 403);
    assert_eq!(
        st["message"],
        "pods is forbidden: User \"alice\" cannot list resource \"pods\" in API group \"\" in the namespace \"default\""
    );
    let mut bad = req("GET", "/api/v1/pods");
    set_header(&mut bad, "authorization", "Bearer nope");
    assert_eq!(call(&mut s, &bad).0, 401);
    let admin = req("GET", "/api/v1/pods");
    assert_eq!(call(&mut s, &admin).0, 200);
}

#[test]
fn an_eviction_and_a_binding_go_through_their_subresources() {
    let mut s = server();
    let pod = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"schedulerName":"none","containers":[{"name":"c","image":"nginx"}]}}"#;
    let r = with_body(
        req("POST", "/api/v1/namespaces/default/pods"),
        "application/json",
        pod,
    );
    assert_eq!(call(&mut s, &r).0, 201);
    let b = with_body(
        req("POST", "/api/v1/namespaces/default/pods/p/binding"),
        "application/json",
        r#"{"apiVersion":"v1","kind":"Binding","metadata":{"name":"p"},"target":{"kind":"Node","name":"node-2"}}"#,
    );
    assert_eq!(call(&mut s, &b).0, 201);
    assert_eq!(
        call(&mut s, &req("GET", "/api/v1/namespaces/default/pods/p")).1["spec"]["nodeName"],
        "node-2"
    );
    let e = with_body(
        req("POST", "/api/v1/namespaces/default/pods/p/eviction"),
        "application/json",
        r#"{"apiVersion":"policy/v1","kind":"Eviction","metadata":{"name":"p","namespace":"default"}}"#,
    );
    assert_eq!(call(&mut s, &e).0, 201);
    assert!(
        call(&mut s, &req("GET", "/api/v1/namespaces/default/pods/p")).1["metadata"]
            ["deletionTimestamp"]
            .is_string()
    );
}

#[test]
fn no_request_panics_the_server_and_the_world_stays_as_it_was_after_each_refusal() {
    let mut s = server();
    create_web(&mut s);
    let paths = [
        "/",
        "/api/v1/namespaces",
        "/api/v1/namespaces/default",
        "/api/v1/namespaces/default/pods/x/y/z/w",
        "/apis/apps/v1/namespaces/default/deployments/web/scale",
        "/apis/apps/v1/namespaces/default/deployments/web/status",
        "/apis/apps/v1/namespaces/default/deployments/web/nope",
        "/apis/apps/v1/nodes",
        "/api/v1/nodes/node-1/status",
        "/api/v1/namespaces/default/pods/x/log",
        "/openapi/v3/apis/nope/v1",
        SIM_PATH,
        "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
    ];
    let bodies: [(&str, &[u8]); 7] = [
        ("application/json", b"{"),
        ("application/json", b"[1,2]"),
        (
            "application/json",
            br#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":7}}"#,
        ),
        ("application/yaml", b"a: [\n"),
        (
            "application/vnd.kubernetes.protobuf",
            b"k8s\0\x0a\xff\xff\xff",
        ),
        ("application/merge-patch+json", b"null"),
        (
            "application/json-patch+json",
            br#"[{"op":"move","from":"/x","path":"/y"}]"#,
        ),
    ];
    for method in ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD"] {
        for path in paths {
            for (ct, body) in bodies {
                let before = s.revision();
                let mut r = req(method, path);
                r.headers.push(("content-type".into(), ct.into()));
                r.body = body.to_vec();
                if let Reply::Response(resp) = reply(&mut s, &r) {
                    if resp.status >= 400 {
                        assert_eq!(
                            s.revision(),
                            before,
                            "{method} {path} {ct}: refused but wrote"
                        );
                    }
                }
            }
        }
    }
}

#[test]
fn query_booleans_are_read_as_the_api_server_reads_them_so_watch_true_is_a_watch() {
    let mut s = server();
    create_web(&mut s);
    for v in ["True", "true", "TRUE", "1", "t", ""] {
        let r = req("GET", &format!("/apis/apps/v1/deployments?watch={v}"));
        assert!(matches!(s.handle(&r), Reply::Watch(_)), "watch={v}");
    }
    for v in ["False", "false", "FALSE", "0"] {
        let r = req("GET", &format!("/apis/apps/v1/deployments?watch={v}"));
        assert!(matches!(s.handle(&r), Reply::Response(_)), "watch={v}");
    }
    let path = "/apis/apps/v1/namespaces/default/deployments/web";
    let apply = |q: &str| {
        with_body(
            req("PATCH", &format!("{path}?fieldManager=other{q}")),
            "application/apply-patch+yaml",
            &DEPLOYMENT.replace("\"replicas\":2", "\"replicas\":5"),
        )
    };
    assert_eq!(call(&mut s, &apply("&force=False")).0, 409);
    assert_eq!(call(&mut s, &apply("&force=True")).1["spec"]["replicas"], 5);
}

#[test]
fn a_request_without_a_token_the_server_issued_is_401_whatever_its_path() {
    let mut s = server();
    let with_auth = |auth: Option<&str>, path: &str| {
        let mut r = req("GET", path);
        r.headers.retain(|(k, _)| k != "authorization");
        if let Some(a) = auth {
            r.headers.push(("authorization".into(), a.into()));
        }
        r
    };
    let admin = token_for(ADMIN_USER);
    for auth in [
        None,
        Some("Basic a3ViZXJuZXRlcy1hZG1pbjpwYXNzd29yZA=="),
        Some("bearer junk"),
        Some("Bearer"),
        Some(&format!("Bearer  {admin}")),
        Some(&format!("Bearer {}", token_for("expired"))),
    ] {
        for path in ["/api/v1/pods", "/healthz", "/no/such/path", SIM_PATH] {
            let (code, st) = call(&mut s, &with_auth(auth, path));
            assert_eq!(code, 401, "{auth:?} {path}: {st}");
            assert_eq!(st["reason"], "Unauthorized");
            assert_eq!(st["message"], "Unauthorized");
        }
    }
    let lower = format!("bearer {}", token_for("alice"));
    let (code, st) = call(
        &mut s,
        &with_auth(Some(&lower), "/api/v1/namespaces/default/pods"),
    );
    assert_eq!(
        code, 403,
        "the token's user, alice, is judged by RBAC: {st}"
    );
    assert_eq!(
        call(
            &mut s,
            &with_auth(Some(&format!("Bearer {admin}")), "/healthz")
        )
        .0,
        200
    );
}

#[test]
fn a_write_in_a_media_type_the_server_does_not_read_is_415_and_writes_nothing() {
    let mut s = server();
    let before = s.revision();
    let form = "apiVersion=v1&kind=ConfigMap";
    for (path, ct, body) in [
        (SIM_PATH, "text/plain", "node down node-1"),
        (
            SIM_PATH,
            "application/x-www-form-urlencoded",
            "command=reset",
        ),
        (SIM_PATH, "multipart/form-data; boundary=x", "--x--"),
        ("/api/v1/namespaces/default/configmaps", "text/plain", "{}"),
        (
            "/api/v1/namespaces/default/configmaps",
            "application/x-www-form-urlencoded",
            form,
        ),
    ] {
        let (code, st) = call(&mut s, &with_body(req("POST", path), ct, body));
        assert_eq!(code, 415, "{path} {ct}: {st}");
        assert_eq!(st["reason"], "UnsupportedMediaType");
        assert_eq!(
            st["message"],
            "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf"
        );
    }
    assert_eq!(s.revision(), before);
    assert!(s
        .cluster
        .store
        .list::<crate::api::Node>()
        .all(|n| n.metadata.name != "nope"));
    // No Content-Type at all is JSON, as the API server takes it.
    let mut r = req("POST", "/api/v1/namespaces/default/configmaps");
    r.body = br#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}"#.to_vec();
    assert_eq!(call(&mut s, &r).0, 201);
}

#[test]
fn an_empty_impersonated_user_is_the_caller_and_groups_without_a_user_are_the_filters_500() {
    let mut s = server();
    let mut r = req("GET", "/api/v1/namespaces/default/pods");
    r.headers.push(("impersonate-user".into(), "".into()));
    let (code, _) = call(&mut s, &r);
    assert_eq!(code, 200, "no user to impersonate: the admin's own request");
    let mut r = req("GET", "/api/v1/namespaces/default/pods?limit=5");
    r.headers
        .push(("impersonate-group".into(), "system:masters".into()));
    r.headers.push(("impersonate-group".into(), "dev".into()));
    let Reply::Response(resp) = s.handle(&r) else {
        panic!("not a response");
    };
    assert_eq!(resp.status, 500);
    assert_eq!(
        String::from_utf8_lossy(&resp.body),
        "Internal Server Error: \"/api/v1/namespaces/default/pods?limit=5\": requested [{Group  system:masters    } {Group  dev    }] without impersonating a user\n"
    );
    // The door refuses the same request from any client.
    use crate::apiserver::request::{ApiRequest, Credentials, Verb};
    let mut a = ApiRequest::new(
        Credentials::Token(ADMIN_USER.into()),
        "test",
        Verb::List,
        Kind::Pod,
    );
    a.impersonate = Some((String::new(), vec!["dev".into()]));
    let e = s.cluster.call(a).expect_err("refused");
    assert_eq!(
        (e.code, e.message.as_str()),
        (
            500,
            "requested [{Group  dev    }] without impersonating a user"
        )
    );
}

#[test]
fn a_watch_from_zero_is_written_a_bounded_chunk_at_a_time_and_sends_every_object_once() {
    let mut s = server();
    create_web(&mut s);
    s.cluster.advance(30_000);
    s.collect();
    let scale = with_body(
        req(
            "PATCH",
            "/apis/apps/v1/namespaces/default/deployments/web/scale",
        ),
        "application/merge-patch+json",
        r#"{"spec":{"replicas":40}}"#,
    );
    assert_eq!(call(&mut s, &scale).0, 200);
    s.cluster.advance(30_000);
    s.collect();
    let (_, list) = call(&mut s, &req("GET", "/api/v1/pods"));
    let want = list["items"].as_array().unwrap().len();
    assert!(want >= 40, "{want} Pods");
    let Reply::Watch(mut w) = s.handle(&req("GET", "/api/v1/pods?watch=true")) else {
        panic!("no watch");
    };
    let mut names = std::collections::BTreeSet::new();
    let mut chunks = 0;
    loop {
        let chunk = s.watch_events(&mut w, 4096);
        if chunk.is_empty() {
            break;
        }
        chunks += 1;
        let lines: Vec<&str> = std::str::from_utf8(&chunk).unwrap().lines().collect();
        // Past the limit by at most the one event that crossed it.
        let last = lines.last().unwrap().len() + 1;
        assert!(chunk.len() < 4096 + last, "{} bytes", chunk.len());
        for l in lines {
            let e: Value = serde_json::from_str(l).unwrap();
            assert_eq!(e["type"], "ADDED");
            let name = e["object"]["metadata"]["name"]
                .as_str()
                .unwrap()
                .to_string();
            assert!(names.insert(name), "an object sent twice");
        }
    }
    assert_eq!(names.len(), want);
    assert!(chunks > 1, "{chunks} chunk(s)");
    assert!(!w.ended(), "a watch goes on after its first objects");
}

#[test]
fn a_body_decoded_before_its_turn_is_the_one_the_request_uses() {
    let mut s = server();
    let r = with_body(
        req("POST", "/api/v1/namespaces/default/configmaps"),
        "application/json",
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}"#,
    );
    let decoded = decode_body(&r);
    let mut emptied = r.clone();
    emptied.body.clear();
    let Reply::Response(resp) = s.handle_decoded(&emptied, Some(decoded)) else {
        panic!("not a response");
    };
    assert_eq!(resp.status, 201);
    // Used once: the next request decodes its own.
    assert_eq!(call(&mut s, &emptied).0, 400);
}
