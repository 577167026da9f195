//! The one door into the API server: every client's requests — the console's kubectl,
//! the components, the HTTP clients — pass the same stages in the same order, reads
//! included, and the request log shows them as they were sent.

mod common;

use common::*;
use kubeplay_engine::api::{Kind, Object, Pod};
use kubeplay_engine::apiserver::rbac::UserInfo;
use kubeplay_engine::apiserver::request::{ApiRequest, Body, Credentials, Verb};
use kubeplay_engine::apiserver::{DeleteOptions, ObjKey};
use kubeplay_engine::cluster::request_path::{Stage, Verdict};
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::rest::{ApiServer, HttpRequest, Reply};

/// The request log since request `after`: (verb, resource, name, code).
fn sent(c: &Cluster, after: u64) -> Vec<(String, String, String, u16)> {
    c.request_log()
        .recent
        .iter()
        .filter(|r| r.n > after)
        .map(|r| (r.verb.clone(), r.resource.clone(), r.name.clone(), r.code))
        .collect()
}

fn last_n(c: &Cluster) -> u64 {
    c.request_log().recent.back().map_or(0, |r| r.n)
}

fn row(verb: &str, resource: &str, name: &str, code: u16) -> (String, String, String, u16) {
    (verb.into(), resource.into(), name.into(), code)
}

#[test]
fn kubectl_label_reads_then_patches_and_the_log_shows_both_in_that_order() {
    let mut c = web_cluster(3);
    let before = last_n(&c);
    sh(&mut c, "kubectl label deployment web tier=front");
    assert_eq!(
        sent(&c, before),
        vec![
            row("get", "deployments.apps", "web", 200),
            row("patch", "deployments.apps", "web", 200),
        ]
    );
}

#[test]
fn a_read_the_user_may_not_make_is_refused_at_the_door_and_nothing_is_written() {
    let mut c = web_cluster(3);
    // alice may patch Deployments but not read them: label's GET is refused first.
    sh(
        &mut c,
        "kubectl create role patcher --verb=patch --resource=deployments",
    );
    sh(
        &mut c,
        "kubectl create rolebinding alice-patches --role=patcher --user=alice",
    );
    let rv = c.store.revision();
    let before = last_n(&c);
    let o = run(
        &mut c,
        "kubectl label deployment web tier=front --as=alice",
        None,
        &NoFiles,
    );
    assert!(!o.ok);
    assert_eq!(
        o.output.trim_end(),
        "Error from server (Forbidden): deployments.apps \"web\" is forbidden: User \"alice\" cannot get resource \"deployments\" in API group \"apps\" in the namespace \"default\""
    );
    assert_eq!(c.store.revision(), rv, "nothing written");
    assert_eq!(
        sent(&c, before),
        vec![row("get", "deployments.apps", "web", 403)]
    );
    let t = c.request_log().recent.back().expect("kept");
    assert_eq!(t.refused_at(), Some(Stage::Authorization));
}

#[test]
fn describe_sends_the_reads_kubectls_describer_sends() {
    let mut c = web_cluster(3);
    let before = last_n(&c);
    sh(&mut c, "kubectl describe deployment web");
    let verbs: Vec<(String, String)> = sent(&c, before)
        .into_iter()
        .map(|(v, r, _, _)| (v, r))
        .collect();
    assert_eq!(
        verbs,
        vec![
            ("get".to_string(), "deployments.apps".to_string()),
            ("list".into(), "replicasets.apps".into()),
            ("list".into(), "events".into()),
        ]
    );
}

#[test]
fn a_server_dry_run_passes_every_stage_and_stores_nothing() {
    let mut c = web_cluster(3);
    let rv = c.store.revision();
    let o = run(
        &mut c,
        "kubectl scale deployment web --replicas=7 --dry-run=server",
        None,
        &NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    assert_eq!(
        o.output.trim_end(),
        "deployment.apps/web scaled (server dry run)"
    );
    assert_eq!(c.store.revision(), rv);
    assert_eq!(web(&c).spec.replicas, 3);
    let t = c.request_log().recent.back().expect("kept");
    let storage = t
        .stages
        .iter()
        .find(|s| s.stage == Stage::Storage)
        .expect("storage stage");
    assert_eq!(storage.verdict, Verdict::Passed);
    assert_eq!(
        storage.detail,
        "dry run: admitted and validated, nothing stored"
    );
}

#[test]
fn a_server_dry_run_of_a_create_answers_without_a_resource_version() {
    let mut c = web_cluster(3);
    let o = run(
        &mut c,
        "kubectl create deployment api --image=api:1 --dry-run=server -o yaml",
        None,
        &NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    assert!(o.output.contains("  uid: "), "{}", o.output);
    assert!(
        !o.output.contains("resourceVersion"),
        "a create's dry run stores nothing, so has no version: {}",
        o.output
    );
}

/// A request as a node's kubelet sends it.
fn as_node(node: &str, verb: Verb, kind: Kind, ns: &str, name: &str) -> ApiRequest {
    let user = UserInfo::new(&format!("system:node:{node}"), &["system:nodes"]);
    let mut r = ApiRequest::new(
        Credentials::Identity(user),
        &format!("kubelet/{node}"),
        verb,
        kind,
    );
    r.namespace = ns.into();
    r.name = name.into();
    r
}

#[test]
fn node_restriction_keeps_a_kubelet_to_the_pods_bound_to_it() {
    let mut c = web_cluster(3);
    let p: Pod = c.store.list::<Pod>().next().expect("a Pod").clone();
    let (mine, other) = if p.spec.node_name == "node-1" {
        ("node-1", "node-2")
    } else {
        (p.spec.node_name.as_str(), "node-1")
    };
    let mut del = as_node(other, Verb::Delete, Kind::Pod, "default", &p.metadata.name);
    del.body = Body::Delete(DeleteOptions::default());
    let e = c.call(del).unwrap_err();
    assert_eq!(e.code, 403);
    assert_eq!(
        e.message,
        format!(
            "pods \"{}\" is forbidden: node \"{other}\" can only delete pods with spec.nodeName set to itself",
            p.metadata.name
        )
    );
    // Its own node may read it: a node's reads of its Pods are allowed by the Node
    // authorizer.
    let get = as_node(mine, Verb::Get, Kind::Pod, "default", &p.metadata.name);
    assert!(c.call(get).is_ok());
}

#[test]
fn the_privileged_group_is_allowed_whatever_rbac_says() {
    let mut c = web_cluster(3);
    sh(&mut c, "kubectl delete clusterrolebinding cluster-admin");
    let user = UserInfo::new("root", &["system:masters"]);
    let r = ApiRequest::new(Credentials::Identity(user), "test", Verb::List, Kind::Pod);
    let resp = c.call(r).expect("allowed");
    assert_eq!(resp.items.len(), 3);
}

fn http(method: &str, path: &str, body: &str, ct: &str) -> HttpRequest {
    HttpRequest {
        method: method.into(),
        path: path.into(),
        query: Vec::new(),
        headers: vec![
            ("content-type".into(), ct.into()),
            (
                "authorization".into(),
                format!(
                    "Bearer {}",
                    kubeplay_engine::rest::token_for("kubernetes-admin")
                ),
            ),
        ],
        body: body.as_bytes().to_vec(),
    }
}

#[test]
fn an_http_write_to_a_subresource_the_server_does_not_serve_is_a_404_and_writes_nothing() {
    let c = web_cluster(3);
    let name = c
        .store
        .list::<Pod>()
        .next()
        .expect("a Pod")
        .metadata
        .name
        .clone();
    let mut s = ApiServer::new(c);
    let rv = s.cluster.store.revision();
    for sub in ["bogus", "exec", "resize", "ephemeralcontainers"] {
        let r = http(
            "PATCH",
            &format!("/api/v1/namespaces/default/pods/{name}/{sub}"),
            r#"{"metadata":{"labels":{"x":"y"}}}"#,
            "application/merge-patch+json",
        );
        let Reply::Response(resp) = s.handle(&r) else {
            panic!("not a watch");
        };
        assert_eq!(resp.status, 404, "{sub}");
    }
    assert_eq!(s.cluster.store.revision(), rv);
    let key = ObjKey::new("default", &name);
    let p = s
        .cluster
        .store
        .get_object(Kind::Pod, &key)
        .and_then(|o| match o {
            Object::Pod(p) => Some(p.clone()),
            _ => None,
        })
        .expect("still there");
    assert!(!p.metadata.labels.contains_key("x"));
}

#[test]
fn an_http_request_and_a_console_command_are_kept_in_one_request_log() {
    let c = web_cluster(3);
    let mut s = ApiServer::new(c);
    let before = last_n(&s.cluster);
    let r = http(
        "GET",
        "/apis/apps/v1/namespaces/default/deployments/web",
        "",
        "",
    );
    let Reply::Response(resp) = s.handle(&r) else {
        panic!("not a watch");
    };
    assert_eq!(resp.status, 200);
    sh(&mut s.cluster, "kubectl get deployment web");
    let log = &s.cluster.request_log().recent;
    let commands: Vec<&str> = log
        .iter()
        .filter(|t| t.n > before)
        .map(|t| t.command.as_str())
        .collect();
    assert_eq!(
        commands,
        vec![
            "GET /apis/apps/v1/namespaces/default/deployments/web",
            "kubectl get deployment web"
        ]
    );
}
