use super::*;
use crate::cluster::Cluster;

fn server() -> ApiServer {
    ApiServer::new(Cluster::with_default_nodes(1))
}

fn req(method: &str, path: &str) -> HttpRequest {
    let (path, query) = path.split_once('?').unwrap_or((path, ""));
    HttpRequest {
        method: method.into(),
        path: path.into(),
        query: query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| {
                let (k, v) = p.split_once('=').unwrap_or((p, ""));
                (k.to_string(), v.to_string())
            })
            .collect(),
        headers: vec![("accept".into(), "application/json".into())],
        body: Vec::new(),
    }
}

fn with_body(mut r: HttpRequest, content_type: &str, body: &str) -> HttpRequest {
    r.headers.push(("content-type".into(), content_type.into()));
    r.body = body.as_bytes().to_vec();
    r
}

fn call(s: &mut ApiServer, r: &HttpRequest) -> (u16, Value) {
    match s.handle(r) {
        Reply::Response(resp) => (
            resp.status,
            serde_json::from_slice(&resp.body).unwrap_or(Value::String(
                String::from_utf8_lossy(&resp.body).into_owned(),
            )),
        ),
        Reply::Watch(_) => panic!("a watch where a response was expected"),
        Reply::NoAnswer => panic!("no answer where a response was expected"),
    }
}

const DEPLOYMENT: &str = r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","labels":{"app":"web"}},
 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
 "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}"#;

fn create_web(s: &mut ApiServer) {
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
    r.headers = vec![(
        "accept".into(),
        "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json"
            .into(),
    )];
    match s.handle(&r) {
        Reply::Response(resp) => {
            assert_eq!(resp.status, 200);
            assert!(resp.content_type.contains("as=APIGroupDiscoveryList"));
            let v: Value = serde_json::from_slice(&resp.body).unwrap();
            assert_eq!(v["kind"], "APIGroupDiscoveryList");
        }
        Reply::Watch(_) | Reply::NoAnswer => panic!(),
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
    t.headers = vec![(
        "accept".into(),
        "application/json;as=Table;v=v1;g=meta.k8s.io,application/json".into(),
    )];
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
    assert!(st["message"].as_str().unwrap().contains("conflict"), "{st}");
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
    assert!(w.first.is_empty());
    let (code, pod) = call(
        &mut s,
        &req("DELETE", &format!("/api/v1/namespaces/default/pods/{name}")),
    );
    assert_eq!(code, 200);
    assert!(pod["metadata"]["deletionTimestamp"].is_string(), "{pod}");
    s.cluster.advance(40_000);
    s.collect();
    let lines = String::from_utf8(s.watch_events(&mut w)).unwrap();
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
    let Reply::Watch(gone) = s.handle(&req("GET", "/api/v1/pods?watch=1&resourceVersion=1")) else {
        panic!("no watch");
    };
    let first = String::from_utf8(gone.first).unwrap();
    assert!(
        first.contains("\"type\":\"ERROR\"") && first.contains("\"code\":410"),
        "{first}"
    );
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
    bad.headers
        .push(("authorization".into(), "Bearer nope".into()));
    assert_eq!(call(&mut s, &bad).0, 401);
    let mut admin = req("GET", "/api/v1/pods");
    admin.headers.push((
        "authorization".into(),
        format!("Bearer {}", token_for("kubernetes-admin")),
    ));
    assert_eq!(call(&mut s, &admin).0, 200);
}

#[test]
fn sim_verbs_move_the_clock_through_the_server_and_a_bad_one_is_a_400() {
    let mut s = server();
    let r = with_body(req("POST", SIM_PATH), "text/plain", "advance 30s");
    let (code, out) = call(&mut s, &r);
    assert_eq!(code, 200, "{out}");
    assert_eq!(s.cluster.now(), 30_000);
    let r = with_body(req("POST", SIM_PATH), "text/plain", "advance soon");
    assert_eq!(call(&mut s, &r).0, 400);
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
                if let Reply::Response(resp) = s.handle(&r) {
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
fn readyz_says_what_a_real_api_server_says_in_health_without_etcd_and_when_stopped() {
    let mut s = server();
    let (code, body) = call(&mut s, &req("GET", "/readyz"));
    assert_eq!((code, body), (200, Value::String("ok".into())));
    let (code, body) = call(&mut s, &req("GET", "/readyz?verbose"));
    assert_eq!(code, 200);
    assert!(
        body.as_str()
            .unwrap()
            .ends_with("[+]shutdown ok\nreadyz check passed\n"),
        "{body}"
    );
    // etcd without its quorum: the API server answers, its readiness says why not.
    let r = with_body(req("POST", SIM_PATH), "text/plain", "etcd down etcd-1");
    assert_eq!(call(&mut s, &r).0, 200);
    let (code, body) = call(&mut s, &req("GET", "/readyz"));
    assert_eq!(code, 500);
    let body = body.as_str().unwrap().to_string();
    assert!(body.contains("[-]etcd failed: reason withheld\n"), "{body}");
    assert!(body.ends_with("readyz check failed\n"), "{body}");
    let r = with_body(req("POST", SIM_PATH), "text/plain", "etcd up etcd-1");
    assert_eq!(call(&mut s, &r).0, 200);
    // Stopped: nothing answers, not even "ok".
    let r = with_body(req("POST", SIM_PATH), "text/plain", "apiserver down");
    assert_eq!(call(&mut s, &r).0, 200);
    for path in ["/readyz", "/livez", "/healthz", "/api/v1/pods"] {
        assert!(
            matches!(s.handle(&req("GET", path)), Reply::NoAnswer),
            "{path}"
        );
    }
    s.cluster.start_apiserver().unwrap();
    assert_eq!(call(&mut s, &req("GET", "/readyz")).0, 200);
}
