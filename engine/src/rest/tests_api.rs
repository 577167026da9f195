//! The REST adapter's answers to what clients send beyond objects: metrics, error
//! bodies, chunked and versioned lists.
use super::tests::*;
use super::*;

#[test]
fn metrics_count_every_request_the_components_informers_included_for_whoever_may_read_them() {
    let mut s = server();
    assert_eq!(
        call(&mut s, &req("GET", "/api/v1/namespaces/default/pods")).0,
        200
    );
    let r = reply(&mut s, &req("GET", "/metrics"));
    let Reply::Response(resp) = r else {
        panic!("no response")
    };
    assert_eq!(resp.status, 200);
    assert_eq!(
        resp.content_type,
        "text/plain; version=0.0.4; charset=utf-8"
    );
    let text = String::from_utf8(resp.body).unwrap();
    assert!(
        text.starts_with("# HELP apiserver_request_total [STABLE]"),
        "{text}"
    );
    // This client's list, and the controller manager's informers' list and watch.
    assert!(text.contains("apiserver_request_total{code=\"200\",component=\"apiserver\",dry_run=\"\",group=\"\",resource=\"pods\",scope=\"namespace\",subresource=\"\",verb=\"LIST\",version=\"v1\"} 1\n"), "{text}");
    assert!(text.contains("group=\"apps\",resource=\"replicasets\",scope=\"cluster\",subresource=\"\",verb=\"WATCH\",version=\"v1\"}"), "{text}");
    assert!(
        text.contains("apiserver_storage_objects{resource=\"nodes\"} 3\n"),
        "{text}"
    );
    // Not every user may: `system:monitoring` is a group of its own.
    let (code, st) = call(&mut s, &as_alice(req("GET", "/metrics")));
    assert_eq!(code, 403);
    assert_eq!(
        st["message"],
        "forbidden: User \"alice\" cannot get path \"/metrics\""
    );
    let mut monitor = req("GET", "/metrics");
    monitor
        .headers
        .push(("impersonate-user".into(), "prometheus".into()));
    monitor
        .headers
        .push(("impersonate-group".into(), "system:monitoring".into()));
    assert_eq!(call(&mut s, &monitor).0, 200);
}

#[test]
fn error_bodies_name_what_upstreams_do() {
    let mut s = server();
    // An unsupported field selector: the server's words only; kubectl adds its own.
    let (code, st) = call(&mut s, &req("GET", "/api/v1/pods?fieldSelector=foo=bar"));
    assert_eq!(code, 400);
    assert_eq!(st["message"], "field label not supported: foo");
    // A create in a missing namespace: the details name the namespace.
    let pod = r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"nginx"}]}}"#;
    let r = with_body(
        req("POST", "/api/v1/namespaces/nope/pods"),
        "application/json",
        pod,
    );
    let (code, st) = call(&mut s, &r);
    assert_eq!(code, 404);
    assert_eq!(st["message"], "namespaces \"nope\" not found");
    assert_eq!(st["details"], json!({"name": "nope", "kind": "namespaces"}));
    // DeleteOptions the server refuses are DeleteOptions', not the object's.
    let r = with_body(
        req("DELETE", "/api/v1/namespaces/default/pods/x"),
        "application/json",
        r#"{"propagationPolicy":"Sideways"}"#,
    );
    let (code, st) = call(&mut s, &r);
    assert_eq!(code, 422);
    assert_eq!(
        st["message"],
        "DeleteOptions.meta.k8s.io \"\" is invalid: propagationPolicy: Unsupported value: \"Sideways\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\""
    );
    assert_eq!(st["details"]["kind"], "DeleteOptions");
    assert_eq!(st["details"]["group"], "meta.k8s.io");
}

/// The request, sent as alice (who may do little).
fn as_alice(mut r: HttpRequest) -> HttpRequest {
    r.headers.push(("impersonate-user".into(), "alice".into()));
    r
}

/// Create ConfigMaps `cm-0`… in `default`.
fn config_maps(s: &mut ApiServer, n: usize) {
    config_maps_from(s, 0, n);
}

/// A watch's events so far, and their types.
fn watch_events(s: &mut ApiServer, w: &mut WatchStream) -> (Vec<Value>, Vec<String>) {
    let lines = String::from_utf8(s.watch_events(w, usize::MAX)).unwrap();
    let events: Vec<Value> = lines
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let types = events
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect();
    (events, types)
}

fn names(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["metadata"]["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_limited_list_comes_in_chunks_with_a_continue_token_and_the_remaining_count() {
    let mut s = server();
    config_maps(&mut s, 5);
    let (code, first) = call(
        &mut s,
        &req("GET", "/api/v1/namespaces/default/configmaps?limit=2"),
    );
    assert_eq!(code, 200);
    assert_eq!(names(&first), ["cm-0", "cm-1"]);
    // Three more, and the namespace's `kube-root-ca.crt`.
    assert_eq!(first["metadata"]["remainingItemCount"], 4);
    let token = first["metadata"]["continue"].as_str().unwrap().to_string();
    let rv = first["metadata"]["resourceVersion"].clone();
    let (_, second) = call(
        &mut s,
        &req(
            "GET",
            &format!("/api/v1/namespaces/default/configmaps?limit=2&continue={token}"),
        ),
    );
    assert_eq!(names(&second), ["cm-2", "cm-3"]);
    assert_eq!(second["metadata"]["resourceVersion"], rv);
    let token = second["metadata"]["continue"].as_str().unwrap().to_string();
    let (_, last) = call(
        &mut s,
        &req(
            "GET",
            &format!("/api/v1/namespaces/default/configmaps?limit=2&continue={token}"),
        ),
    );
    assert_eq!(names(&last), ["cm-4", "kube-root-ca.crt"]);
    assert!(last["metadata"].get("continue").is_none());
    assert!(last["metadata"].get("remainingItemCount").is_none());
    // A token that is not one is the storage layer's 400.
    let (code, st) = call(
        &mut s,
        &req(
            "GET",
            "/api/v1/namespaces/default/configmaps?limit=2&continue=%%",
        ),
    );
    assert_eq!(code, 400);
    assert_eq!(
        st["message"],
        "invalid continue token: continue key is not valid: illegal base64 data at input byte 0"
    );
}

#[test]
fn resource_version_match_is_validated_and_exact_lists_the_objects_as_they_were() {
    let mut s = server();
    config_maps(&mut s, 2);
    let (_, before) = call(&mut s, &req("GET", "/api/v1/namespaces/default/configmaps"));
    let rv: u64 = before["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    // One more, and one of the two deleted: the list at `rv` still has the two.
    config_maps_from(&mut s, 2, 3);
    assert_eq!(
        call(
            &mut s,
            &req("DELETE", "/api/v1/namespaces/default/configmaps/cm-0")
        )
        .0,
        200
    );
    let (code, then) = call(
        &mut s,
        &req("GET", &format!("/api/v1/namespaces/default/configmaps?resourceVersion={rv}&resourceVersionMatch=Exact")),
    );
    assert_eq!(code, 200, "{then}");
    assert_eq!(names(&then), ["cm-0", "cm-1", "kube-root-ca.crt"]);
    assert_eq!(then["metadata"]["resourceVersion"], rv.to_string());
    let (_, now) = call(&mut s, &req("GET", "/api/v1/namespaces/default/configmaps"));
    assert_eq!(names(&now), ["cm-1", "cm-2", "kube-root-ca.crt"]);
    // Without a version: ValidateListOptions' 422.
    let (code, st) = call(
        &mut s,
        &req("GET", "/api/v1/pods?resourceVersionMatch=NotOlderThan"),
    );
    assert_eq!(code, 422);
    assert_eq!(
        st["message"],
        "ListOptions.meta.k8s.io \"\" is invalid: resourceVersionMatch: Forbidden: resourceVersionMatch is forbidden unless resourceVersion is provided"
    );
    assert_eq!(st["details"]["kind"], "ListOptions");
    // From the future: 504 with the storage layer's cause.
    let (code, st) = call(&mut s, &req("GET", "/api/v1/pods?resourceVersion=99999999"));
    assert_eq!(code, 504);
    assert_eq!(st["reason"], "Timeout");
    assert_eq!(
        st["details"]["causes"][0]["reason"],
        "ResourceVersionTooLarge"
    );
    // Older than the kept writes: 410.
    let (code, st) = call(
        &mut s,
        &req(
            "GET",
            "/api/v1/pods?resourceVersion=1&resourceVersionMatch=Exact",
        ),
    );
    assert_eq!(code, 410);
    assert_eq!(
        st["message"],
        "The resourceVersion for the provided list is too old."
    );
}

/// Create ConfigMaps `cm-FROM`… up to `cm-TO` (exclusive).
fn config_maps_from(s: &mut ApiServer, from: usize, to: usize) {
    for i in from..to {
        let body =
            format!(r#"{{"apiVersion":"v1","kind":"ConfigMap","metadata":{{"name":"cm-{i}"}}}}"#);
        let r = with_body(
            req("POST", "/api/v1/namespaces/default/configmaps"),
            "application/json",
            &body,
        );
        assert_eq!(call(s, &r).0, 201);
    }
}

#[test]
fn a_watch_with_initial_events_sends_the_objects_then_the_bookmark_that_ends_them() {
    let mut s = server();
    config_maps(&mut s, 2);
    let path = "/api/v1/namespaces/default/configmaps?watch=1&sendInitialEvents=true&allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&resourceVersion=";
    let Reply::Watch(mut w) = s.handle(&req("GET", path)) else {
        panic!("not a watch")
    };
    let (events, types) = watch_events(&mut s, &mut w);
    assert_eq!(types, ["ADDED", "ADDED", "ADDED", "BOOKMARK"]);
    let end = &events[3]["object"];
    assert_eq!(end["kind"], "ConfigMap");
    assert_eq!(
        end["metadata"]["annotations"]["k8s.io/initial-events-end"],
        "true"
    );
    assert_eq!(end["metadata"]["resourceVersion"], s.revision().to_string());
    // Without bookmarks allowed, or without NotOlderThan: validateWatchOptions' 422.
    let bad = "/api/v1/pods?watch=1&sendInitialEvents=true&resourceVersionMatch=NotOlderThan";
    let (code, st) = call(&mut s, &req("GET", bad));
    assert_eq!(code, 422);
    assert_eq!(
        st["message"],
        "ListOptions.meta.k8s.io \"\" is invalid: allowWatchBookmarks: Forbidden: sendInitialEvents requires setting allowWatchBookmarks to true"
    );
    let (code, st) = call(
        &mut s,
        &req(
            "GET",
            "/api/v1/pods?watch=1&resourceVersionMatch=NotOlderThan&resourceVersion=1",
        ),
    );
    assert_eq!(code, 422);
    assert!(st["message"].as_str().unwrap().ends_with(
        "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided"
    ));
}

#[test]
fn metrics_k8s_io_serves_node_and_pod_metrics_behind_the_door() {
    let mut s = server();
    let (code, nodes) = call(&mut s, &req("GET", "/apis/metrics.k8s.io/v1beta1/nodes"));
    assert_eq!(code, 200);
    assert_eq!(nodes["kind"], "NodeMetricsList");
    let first = &nodes["items"][0];
    assert_eq!(first["metadata"]["name"], "node-1");
    // The node's daemons alone: 100m and 600Mi, as metrics-server writes them.
    assert_eq!(
        first["usage"],
        json!({"cpu": "100000000n", "memory": "614400Ki"})
    );
    let (code, one) = call(
        &mut s,
        &req("GET", "/apis/metrics.k8s.io/v1beta1/nodes/node-2"),
    );
    assert_eq!((code, one["kind"].as_str()), (200, Some("NodeMetrics")));
    // No Pod has run a scrape window: no PodMetrics, and a named one is metrics-server's 404.
    let (code, pods) = call(
        &mut s,
        &req(
            "GET",
            "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods",
        ),
    );
    assert_eq!(
        (code, pods["items"].as_array().map(Vec::len)),
        (200, Some(0))
    );
    let (code, st) = call(
        &mut s,
        &req(
            "GET",
            "/apis/metrics.k8s.io/v1beta1/namespaces/default/pods/web",
        ),
    );
    assert_eq!(code, 404);
    assert_eq!(st["message"], "podmetrics.metrics.k8s.io \"web\" not found");
    // RBAC decides first, on the group and resource.
    let (code, st) = call(
        &mut s,
        &as_alice(req("GET", "/apis/metrics.k8s.io/v1beta1/nodes")),
    );
    assert_eq!(code, 403);
    assert_eq!(
        st["message"],
        "nodes.metrics.k8s.io is forbidden: User \"alice\" cannot list resource \"nodes\" in API group \"metrics.k8s.io\" at the cluster scope"
    );
}

#[test]
fn events_are_served_in_events_k8s_io_v1_too_converted_both_ways() {
    let mut s = server();
    let ev = r#"{"apiVersion":"events.k8s.io/v1","kind":"Event","metadata":{"name":"hello.1"},
        "eventTime":"2025-01-01T00:00:00.000000Z","reportingController":"example.com/ctl",
        "reportingInstance":"ctl-0","action":"Reconcile","reason":"Synced","type":"Normal",
        "regarding":{"kind":"Pod","name":"p","namespace":"default"},"note":"all good"}"#;
    let r = with_body(
        req("POST", "/apis/events.k8s.io/v1/namespaces/default/events"),
        "application/json",
        ev,
    );
    let (code, created) = call(&mut s, &r);
    assert_eq!(code, 201, "{created}");
    assert_eq!(created["apiVersion"], "events.k8s.io/v1");
    assert_eq!(created["note"], "all good");
    // Stored once, as a core Event.
    let (code, core) = call(
        &mut s,
        &req("GET", "/api/v1/namespaces/default/events/hello.1"),
    );
    assert_eq!(code, 200);
    assert_eq!(core["message"], "all good");
    assert_eq!(core["involvedObject"]["name"], "p");
    assert_eq!(core["reportingComponent"], "example.com/ctl");
    assert_eq!(core["action"], "Reconcile");
    let (code, list) = call(
        &mut s,
        &req("GET", "/apis/events.k8s.io/v1/namespaces/default/events"),
    );
    assert_eq!(code, 200);
    assert_eq!(list["kind"], "EventList");
    assert_eq!(list["apiVersion"], "events.k8s.io/v1");
    let item = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["metadata"]["name"] == "hello.1")
        .unwrap();
    assert_eq!(item["regarding"]["kind"], "Pod");
    assert!(item.get("message").is_none());
    // A merge patch in events.k8s.io's names.
    let r = with_body(
        req(
            "PATCH",
            "/apis/events.k8s.io/v1/namespaces/default/events/hello.1",
        ),
        "application/merge-patch+json",
        r#"{"note":"still good"}"#,
    );
    let (code, patched) = call(&mut s, &r);
    assert_eq!(code, 200, "{patched}");
    assert_eq!(patched["note"], "still good");
    // Discovery lists the group.
    let (_, d) = call(&mut s, &req("GET", "/apis/events.k8s.io/v1"));
    assert_eq!(d["resources"][0]["name"], "events");
    assert_eq!(d["resources"][0]["shortNames"], json!(["ev"]));
}

#[test]
fn a_watch_that_allows_bookmarks_gets_one_at_the_version_it_has_read_and_others_get_none() {
    let mut s = server();
    config_maps(&mut s, 1);
    let path =
        "/api/v1/namespaces/default/configmaps?watch=1&allowWatchBookmarks=true&resourceVersion=";
    let rv = s.revision();
    let Reply::Watch(mut w) = s.handle(&req("GET", &format!("{path}{rv}"))) else {
        panic!("not a watch")
    };
    assert!(s.watch_events(&mut w, usize::MAX).is_empty());
    let line = String::from_utf8(s.watch_bookmark(&w)).unwrap();
    let event: Value = serde_json::from_str(line.trim()).unwrap();
    assert_eq!(event["type"], "BOOKMARK");
    assert_eq!(event["object"]["kind"], "ConfigMap");
    assert_eq!(
        event["object"]["metadata"]["resourceVersion"],
        rv.to_string()
    );
    assert!(event["object"]["metadata"].get("annotations").is_none());
    // Without allowWatchBookmarks, none.
    let plain = "/api/v1/namespaces/default/configmaps?watch=1&resourceVersion=";
    let Reply::Watch(mut p) = s.handle(&req("GET", &format!("{plain}{rv}"))) else {
        panic!("not a watch")
    };
    assert!(s.watch_events(&mut p, usize::MAX).is_empty());
    assert!(s.watch_bookmark(&p).is_empty());
}

#[test]
fn a_delete_whose_body_asks_for_a_dry_run_deletes_nothing_and_a_bad_value_is_invalid() {
    let mut s = server();
    create_web(&mut s);
    s.cluster.advance(30_000);
    let pods: Vec<String> = s
        .cluster
        .store
        .list::<crate::api::Pod>()
        .map(|p| p.metadata.name.clone())
        .collect();
    let name = &pods[0];
    let path = format!("/api/v1/namespaces/default/pods/{name}");
    let dry = with_body(
        req("DELETE", &path),
        "application/json",
        r#"{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Background","dryRun":["All"]}"#,
    );
    let (code, _) = call(&mut s, &dry);
    assert_eq!(code, 200);
    let key = crate::apiserver::ObjKey::new("default", name);
    let pod = s.cluster.store.get::<crate::api::Pod>(&key).unwrap();
    assert!(pod.metadata.deletion_timestamp.is_none());
    let bad = with_body(
        req("DELETE", &path),
        "application/json",
        r#"{"kind":"DeleteOptions","apiVersion":"v1","dryRun":["Some"]}"#,
    );
    let (code, body) = call(&mut s, &bad);
    assert_eq!(code, 422, "{body}");
    assert!(body["message"]
        .as_str()
        .unwrap()
        .contains("dryRun: Unsupported value: \"Some\": supported values: \"All\""));
    assert!(s
        .cluster
        .store
        .get::<crate::api::Pod>(&key)
        .unwrap()
        .metadata
        .deletion_timestamp
        .is_none());
}

#[test]
fn horizontal_pod_autoscalers_are_served_in_autoscaling_v1_too_converted_both_ways() {
    let mut s = server();
    create_web(&mut s);
    // kubectl v1.32's `autoscale` creates through v1.
    let hpa = r#"{"apiVersion":"autoscaling/v1","kind":"HorizontalPodAutoscaler",
        "metadata":{"name":"web"},"spec":{"scaleTargetRef":{"apiVersion":"apps/v1",
        "kind":"Deployment","name":"web"},"maxReplicas":5,"targetCPUUtilizationPercentage":60}}"#;
    let r = with_body(
        req(
            "POST",
            "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers",
        ),
        "application/json",
        hpa,
    );
    let (code, created) = call(&mut s, &r);
    assert_eq!(code, 201, "{created}");
    assert_eq!(created["apiVersion"], "autoscaling/v1");
    assert_eq!(created["spec"]["targetCPUUtilizationPercentage"], 60);
    assert_eq!(created["spec"]["minReplicas"], 1);
    assert_eq!(
        created["status"],
        json!({"currentReplicas": 0, "desiredReplicas": 0})
    );
    // Stored once, in v2.
    let v2 = "/apis/autoscaling/v2/namespaces/default/horizontalpodautoscalers/web";
    let (_, stored) = call(&mut s, &req("GET", v2));
    assert_eq!(
        stored["spec"]["metrics"][0]["resource"]["target"],
        json!({"type": "Utilization", "averageUtilization": 60})
    );
    // A v2 metric v1 cannot show rides in an annotation, and a merge patch through v1
    // keeps it.
    let r = with_body(
        req("PATCH", v2),
        "application/merge-patch+json",
        r#"{"spec":{"metrics":[{"type":"Resource","resource":{"name":"memory","target":{"type":"AverageValue","averageValue":"100Mi"}}},
            {"type":"Resource","resource":{"name":"cpu","target":{"type":"Utilization","averageUtilization":60}}}]}}"#,
    );
    assert_eq!(call(&mut s, &r).0, 200);
    let v1 = "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers/web";
    let (_, read) = call(&mut s, &req("GET", v1));
    assert_eq!(
        read["metadata"]["annotations"]["autoscaling.alpha.kubernetes.io/metrics"],
        r#"[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}}]"#
    );
    let r = with_body(
        req("PATCH", v1),
        "application/merge-patch+json",
        r#"{"spec":{"targetCPUUtilizationPercentage":75}}"#,
    );
    let (code, patched) = call(&mut s, &r);
    assert_eq!(code, 200, "{patched}");
    assert_eq!(patched["spec"]["targetCPUUtilizationPercentage"], 75);
    let (_, stored) = call(&mut s, &req("GET", v2));
    assert_eq!(stored["spec"]["metrics"][0]["resource"]["name"], "memory");
    assert_eq!(
        stored["spec"]["metrics"][1]["resource"]["target"]["averageUtilization"],
        75
    );
    assert!(stored["metadata"].get("annotations").is_none(), "{stored}");
    // A JSON patch addresses v1's fields.
    let r = with_body(
        req("PATCH", v1),
        "application/json-patch+json",
        r#"[{"op":"test","path":"/spec/targetCPUUtilizationPercentage","value":70}]"#,
    );
    let (code, st) = call(&mut s, &r);
    assert_eq!(code, 422, "{st}");
    let (code, list) = call(
        &mut s,
        &req(
            "GET",
            "/apis/autoscaling/v1/namespaces/default/horizontalpodautoscalers",
        ),
    );
    assert_eq!(code, 200);
    assert_eq!(list["kind"], "HorizontalPodAutoscalerList");
    assert_eq!(list["apiVersion"], "autoscaling/v1");
    assert_eq!(list["items"][0]["apiVersion"], "autoscaling/v1");
    // Discovery lists both versions, v2 preferred.
    let (_, groups) = call(&mut s, &req("GET", "/apis"));
    let autoscaling = groups["groups"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["name"] == "autoscaling")
        .unwrap();
    assert_eq!(autoscaling["preferredVersion"]["version"], "v2");
    assert_eq!(autoscaling["versions"][1]["groupVersion"], "autoscaling/v1");
    let (_, d) = call(&mut s, &req("GET", "/apis/autoscaling/v1"));
    assert_eq!(d["resources"][0]["name"], "horizontalpodautoscalers");
    assert_eq!(d["resources"][0]["shortNames"], json!(["hpa"]));
}

#[test]
fn a_dry_run_update_answers_with_the_live_resource_version() {
    let mut s = server();
    create_web(&mut s);
    let path = "/apis/apps/v1/namespaces/default/deployments/web";
    let (_, live) = call(&mut s, &req("GET", path));
    let r = with_body(
        req("PATCH", &format!("{path}?dryRun=All")),
        "application/merge-patch+json",
        r#"{"spec":{"replicas":7}}"#,
    );
    let (code, answer) = call(&mut s, &r);
    assert_eq!(code, 200, "{answer}");
    assert_eq!(answer["spec"]["replicas"], 7);
    assert_eq!(
        answer["metadata"]["resourceVersion"],
        live["metadata"]["resourceVersion"]
    );
}

#[test]
fn each_body_ends_as_the_upstream_handler_that_writes_it_ends_it() {
    let mut s = server();
    create_web(&mut s);
    let body = |s: &mut ApiServer, path: &str| -> String {
        let Reply::Response(resp) = reply(s, &req("GET", path)) else {
            panic!("no response for {path}")
        };
        String::from_utf8(resp.body).unwrap()
    };
    // The API machinery's serializer: a newline after the object, the Status, the list
    // and discovery.
    for path in [
        "/apis/apps/v1/namespaces/default/deployments/web",
        "/apis/apps/v1/namespaces/default/deployments/nope",
        "/api/v1/namespaces/default/pods",
        "/api",
        "/apis",
        "/apis/apps/v1",
    ] {
        let b = body(&mut s, path);
        assert!(b.starts_with('{') && b.ends_with("}\n"), "{path}: {b}");
    }
    // `/version` is indented, and has none; nor have the OpenAPI documents.
    let version = body(&mut s, "/version");
    // version.Info's field order.
    assert!(
        version.starts_with("{\n  \"major\": \"1\",\n  \"minor\": \"33\",\n  \"emulationMajor\"")
            && version.ends_with("\"platform\": \"linux/amd64\"\n}"),
        "{version}"
    );
    assert!(version.contains("\"emulationMinor\": \"33\""), "{version}");
    for path in ["/openapi/v3", "/openapi/v3/apis/apps/v1"] {
        assert!(body(&mut s, path).ends_with("}}"), "{path}");
    }
    // Go's encoder escapes what HTML would read.
    let cm =
        r#"{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"h"},"data":{"a":"<b>&"}}"#;
    let r = with_body(
        req("POST", "/api/v1/namespaces/default/configmaps"),
        "application/json",
        cm,
    );
    assert_eq!(call(&mut s, &r).0, 201);
    let got = body(&mut s, "/api/v1/namespaces/default/configmaps/h");
    assert!(got.contains(r#""a":"\u003cb\u003e\u0026""#), "{got}");
}

#[test]
fn a_token_review_names_the_tokens_user_and_refuses_an_unknown_token() {
    let mut s = server();
    let review = |s: &mut ApiServer, token: &str, as_user: &str| {
        let mut r = with_body(
            req("POST", "/apis/authentication.k8s.io/v1/tokenreviews"),
            "application/json",
            &json!({"apiVersion": "authentication.k8s.io/v1", "kind": "TokenReview", "spec": {"token": token}}).to_string(),
        );
        set_header(
            &mut r,
            "authorization",
            &format!("Bearer {}", token_for(as_user)),
        );
        call(s, &r)
    };
    let (code, body) = review(&mut s, &token_for("alice"), ADMIN_USER);
    assert_eq!(code, 201, "{body}");
    assert_eq!(body["status"]["authenticated"], true);
    assert_eq!(body["status"]["user"]["username"], "alice");
    let (code, body) = review(&mut s, "bogus", ADMIN_USER);
    assert_eq!(code, 201, "{body}");
    assert_eq!(body["status"], json!({"user": {}}));
    let (code, body) = review(&mut s, "", ADMIN_USER);
    assert_eq!(code, 400, "{body}");
    assert_eq!(
        body["message"],
        "token is required for TokenReview in authentication"
    );
    // Reviewing tokens is the admin's: alice may not.
    let (code, _) = review(&mut s, "bogus", "alice");
    assert_eq!(code, 403);
}

#[test]
fn a_label_selector_watch_hears_a_relabelled_object_leave_as_deleted_and_return_as_added() {
    let mut s = server();
    config_maps(&mut s, 1);
    let patch = |s: &mut ApiServer, body: &str| {
        let r = with_body(
            req("PATCH", "/api/v1/namespaces/default/configmaps/cm-0"),
            "application/merge-patch+json",
            body,
        );
        assert_eq!(call(s, &r).0, 200);
    };
    patch(&mut s, r#"{"metadata":{"labels":{"tier":"web"}}}"#);
    let Reply::Watch(mut w) = s.handle(&req(
        "GET",
        &format!(
            "/api/v1/namespaces/default/configmaps?watch=1&labelSelector=tier%3Dweb&resourceVersion={}",
            s.revision()
        ),
    )) else {
        panic!("not a watch")
    };
    patch(&mut s, r#"{"data":{"k":"1"}}"#);
    patch(&mut s, r#"{"metadata":{"labels":{"tier":null}}}"#);
    patch(&mut s, r#"{"data":{"k":"2"}}"#);
    patch(&mut s, r#"{"metadata":{"labels":{"tier":"web"}}}"#);
    let (events, types) = watch_events(&mut s, &mut w);
    // The write while outside the selector is not sent.
    assert_eq!(types, ["MODIFIED", "DELETED", "ADDED"], "{events:?}");
    // DELETED carries the object as it was, at the write's resourceVersion.
    let gone = &events[1]["object"];
    assert_eq!(gone["metadata"]["labels"]["tier"], "web");
    assert_eq!(gone["data"]["k"], "1");
    assert_ne!(
        gone["metadata"]["resourceVersion"],
        events[0]["object"]["metadata"]["resourceVersion"]
    );
    assert_eq!(events[2]["object"]["data"]["k"], "2");
}
