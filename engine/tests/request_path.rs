//! The request path: each stage of the API server refuses what it should, and says so
//! in the request's trace; ResourceQuota's admission and controller keep a namespace
//! within its limits.

mod common;

use common::*;
use kubeplay_engine::api::{Kind, ResourceQuota};
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::request_path::{Stage, Verdict};
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn last_refused_at(c: &Cluster) -> Option<Stage> {
    c.request_log().recent.back().and_then(|r| r.refused_at())
}

fn fails(c: &mut Cluster, line: &str) -> String {
    let o = run(c, line, None, &NoFiles);
    assert!(!o.ok, "{line} should fail: {}", o.output);
    o.output
}

#[test]
fn a_request_refused_at_each_stage_names_that_stage_and_writes_nothing() {
    let mut c = web_cluster(3);
    let cases: [(&str, Stage, u16); 5] = [
        ("kubectl get pods --as=alice", Stage::Authorization, 403),
        (
            "kubectl create deployment Web --image=nginx",
            Stage::Validation,
            422,
        ),
        (
            "kubectl create deployment api --image=nginx -n nowhere",
            Stage::ValidatingAdmission,
            404,
        ),
        (
            "kubectl create deployment web --image=nginx",
            Stage::Storage,
            409,
        ),
        (
            "kubectl scale deployment web --replicas=5 --as=bob",
            Stage::Authorization,
            403,
        ),
    ];
    for (line, stage, code) in cases {
        let rev = c.store.revision();
        fails(&mut c, line);
        let r = c.request_log().recent.back().expect("recorded").clone();
        assert_eq!((r.refused_at(), r.code), (Some(stage), code), "{line}");
        // Every stage after the refusing one was not reached.
        let at = r.stages.iter().position(|s| s.stage == stage).unwrap_or(0);
        assert!(
            r.stages[at + 1..]
                .iter()
                .all(|s| s.verdict == Verdict::NotReached),
            "{line}: {:?}",
            r.stages
        );
        assert_eq!(c.store.revision(), rev, "{line} wrote nothing");
    }
    sh(&mut c, "kubectl config use-context expired@kubeplay");
    let out = fails(&mut c, "kubectl get pods");
    assert_eq!(
        out,
        "error: You must be logged in to the server (Unauthorized)\n"
    );
    assert_eq!(last_refused_at(&c), Some(Stage::Authentication));
}

#[test]
fn a_write_that_passes_every_stage_is_traced_with_its_resource_version_and_binding() {
    let mut c = web_cluster(3);
    sh(&mut c, "kubectl scale deployment web --replicas=4");
    let r = c.request_log().recent.back().expect("recorded").clone();
    assert_eq!(
        (r.verb.as_str(), r.resource.as_str(), r.code),
        ("patch", "deployments.apps/scale", 200)
    );
    assert!(
        r.stages.iter().all(|s| s.verdict == Verdict::Passed),
        "{:?}",
        r.stages
    );
    assert!(r.stages[1]
        .detail
        .contains("ClusterRoleBinding \"kubeadm:cluster-admins\""));
    let rv = web(&c).metadata.resource_version;
    assert!(
        r.stages[5]
            .detail
            .contains(&format!("resourceVersion {rv}")),
        "{}",
        r.stages[5].detail
    );
}

#[test]
fn a_binding_grants_exactly_its_role_and_a_dangling_one_gives_its_reason() {
    let mut c = web_cluster(3);
    sh(
        &mut c,
        "kubectl create role reader --verb=get,list --resource=pods",
    );
    sh(
        &mut c,
        "kubectl create rolebinding alice-reads --role=reader --user=alice",
    );
    sh(&mut c, "kubectl get pods --as=alice");
    let out = fails(&mut c, "kubectl get deployments --as=alice");
    assert_eq!(
        out,
        "Error from server (Forbidden): deployments.apps is forbidden: User \"alice\" cannot list resource \"deployments\" in API group \"apps\" in the namespace \"default\"\n"
    );
    // Another namespace: the RoleBinding does not reach it.
    sh(&mut c, "kubectl create namespace shop");
    fails(&mut c, "kubectl get pods -n shop --as=alice");
    sh(
        &mut c,
        "kubectl create rolebinding gone --role=missing --user=alice",
    );
    let out = fails(&mut c, "kubectl get services --as=alice");
    assert!(
        out.ends_with(": RBAC: role.rbac.authorization.k8s.io \"missing\" not found\n"),
        "{out}"
    );
}

#[test]
fn the_quota_controller_counts_the_namespace_and_replenishes_when_a_pod_goes() {
    let mut c = web_cluster(3);
    sh(
        &mut c,
        "kubectl create quota q --hard=pods=5,requests.cpu=2",
    );
    let quota = |c: &Cluster| {
        c.store
            .get::<ResourceQuota>(&ObjKey::new("default", "q"))
            .cloned()
            .expect("quota")
    };
    assert!(quota(&c).status.hard.is_empty(), "not counted yet");
    c.advance(1_000);
    let q = quota(&c);
    assert_eq!(q.status.hard, q.spec.hard);
    assert_eq!(q.status.used.get("pods").map(String::as_str), Some("3"));
    // The controller wrote the status, once.
    let writes: Vec<_> = c
        .store
        .log
        .since(0)
        .filter(|e| e.kind == Kind::ResourceQuota && e.writer == "resourcequota-controller")
        .collect();
    assert_eq!(writes.len(), 1);
    // The admission adds a new Pod; a deleted one is given back.
    sh(&mut c, "kubectl scale deployment web --replicas=4");
    c.advance(2_000);
    assert_eq!(
        quota(&c).status.used.get("pods").map(String::as_str),
        Some("4")
    );
    sh(&mut c, "kubectl scale deployment web --replicas=2");
    c.advance(60_000);
    assert_eq!(
        quota(&c).status.used.get("pods").map(String::as_str),
        Some("2")
    );
}

#[test]
fn a_replica_set_past_its_quota_records_failed_create_and_catches_up_when_room_returns() {
    let mut c = web_cluster(3);
    sh(&mut c, "kubectl create quota q --hard=pods=3");
    c.advance(1_000);
    sh(&mut c, "kubectl scale deployment web --replicas=4");
    c.advance(5_000);
    assert_eq!(web(&c).status.replicas, 3, "the fourth Pod is refused");
    let reasons = reasons_for(&c, "ReplicaSet", &web_rs_name(&c));
    assert!(reasons.iter().any(|r| r == "FailedCreate"), "{reasons:?}");
    sh(&mut c, "kubectl delete quota q");
    c.advance(60_000);
    assert_eq!(
        web(&c).status.ready_replicas,
        4,
        "the retry succeeds once room returns"
    );
}

fn web_rs_name(c: &Cluster) -> String {
    c.store
        .list_ns::<kubeplay_engine::api::ReplicaSet>("default")
        .next()
        .map(|r| r.metadata.name.clone())
        .unwrap_or_default()
}

#[test]
fn a_quota_status_gone_wrong_is_recounted_by_the_five_minute_resync() {
    let mut c = web_cluster(3);
    sh(&mut c, "kubectl create quota q --hard=pods=10");
    c.advance(1_000);
    let key = ObjKey::new("default", "q");
    let mut q = c.store.get::<ResourceQuota>(&key).cloned().expect("quota");
    assert_eq!(q.status.used.get("pods").map(String::as_str), Some("3"));
    // A status written behind the controller's back (no informer sees a store write).
    q.status.used.insert("pods".into(), "9".into());
    q.metadata.resource_version.clear();
    let now = c.now();
    c.store
        .update_status(
            now,
            kubeplay_engine::api::Object::ResourceQuota(q),
            "someone",
        )
        .expect("written");
    let used = |c: &Cluster| {
        c.store
            .get::<ResourceQuota>(&key)
            .and_then(|q| q.status.used.get("pods").cloned())
    };
    c.advance(60_000);
    assert_eq!(used(&c).as_deref(), Some("9"), "nothing recounts it yet");
    // The resync was armed when the quota was created (at about 0:00.1 after web).
    c.advance(5 * 60_000);
    assert_eq!(used(&c).as_deref(), Some("3"));
    // It keeps running, and stays background work: the cluster still settles.
    assert!(c.settle(10_000));
}

#[test]
fn apply_of_a_manifest_carrying_the_live_resource_version_succeeds_and_a_stale_one_gets_409() {
    let mut c = web_cluster(3);
    let live = web(&c);
    let manifest = |rv: &str, replicas: i64| {
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web, resourceVersion: \"{rv}\"}}\nspec:\n  replicas: {replicas}\n  selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}}}\n    spec:\n      containers:\n      - {{name: nginx, image: 'nginx:1.27'}}\n"
        )
    };
    let rv = live.metadata.resource_version.clone();
    let o = kubeplay_engine::command::run(
        &mut c,
        "kubectl apply -f -",
        Some(&manifest(&rv, 4)),
        &NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    assert_eq!(web(&c).spec.replicas, 4);
    // The same manifest again: its resourceVersion is now stale.
    let o = kubeplay_engine::command::run(
        &mut c,
        "kubectl apply -f -",
        Some(&manifest(&rv, 2)),
        &NoFiles,
    );
    assert!(!o.ok);
    assert!(
        o.output
            .starts_with("Error from server (Conflict): error when applying patch:\n{"),
        "{}",
        o.output
    );
    assert!(
        o.output.contains(&format!(
            "\"resourceVersion\":\"{rv}\"}},\"spec\":{{\"replicas\":2}}}}\nto:\n"
        )),
        "{}",
        o.output
    );
    assert!(o.output.trim_end().ends_with("for: \"STDIN\": error when patching \"STDIN\": Operation cannot be fulfilled on deployments.apps \"web\": the object has been modified; please apply your changes to the latest version and try again"), "{}", o.output);
    assert_eq!(web(&c).spec.replicas, 4);
    assert_eq!(last_refused_at(&c), Some(Stage::Storage));
}

#[test]
fn a_request_past_int64_is_more_than_a_hard_limit_at_int64_not_equal_to_it() {
    // Upstream's Quantity is exact past int64: two Pods asking 1e30 CPUs each are over
    // a hard limit of 9223372036854775807m; saturating arithmetic made them equal.
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "kubectl create namespace big");
    sh(
        &mut c,
        "kubectl create quota q -n big --hard=requests.cpu=9223372036854775807m",
    );
    c.advance(2_000);
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: huge, namespace: big}\nspec:\n  containers:\n  - name: a\n    image: nginx\n    resources: {requests: {cpu: \"1e30\"}}\n";
    let out = run(&mut c, "kubectl apply -f -", Some(pod), &NoFiles);
    assert!(!out.ok, "{}", out.output);
    assert!(
        out.output.contains("exceeded quota: q, requested: requests.cpu=1000000000000000000000000000000, used: requests.cpu=0, limited: requests.cpu=9223372036854775807m"),
        "{}",
        out.output
    );
    assert_eq!(last_refused_at(&c), Some(Stage::ValidatingAdmission));
}
