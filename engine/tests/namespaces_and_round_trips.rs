//! Namespaces (default ones, missing ones, termination) and `get -o yaml` fed back to
//! `apply`.

mod common;
use kubeplay_engine::api::*;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn sh(c: &mut Cluster, line: &str, stdin: Option<&str>) -> (bool, String) {
    let o = run(c, line, stdin, &NoFiles);
    (o.ok, o.output)
}

#[test]
fn a_cluster_starts_with_the_four_system_namespaces() {
    let mut c = Cluster::with_default_nodes(1);
    let (ok, out) = sh(&mut c, "kubectl get namespaces", None);
    assert!(ok);
    let names: Vec<&str> = out
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().next().unwrap())
        .collect();
    assert_eq!(
        names,
        ["default", "kube-node-lease", "kube-public", "kube-system"]
    );
    assert!(out.lines().skip(1).all(|l| l.contains("Active")));
}

#[test]
fn objects_in_a_missing_namespace_are_refused_and_a_deleted_namespace_takes_its_content_along() {
    let mut c = Cluster::with_default_nodes(1);
    let (ok, out) = sh(
        &mut c,
        "kubectl create deployment web --image=nginx -n shop",
        None,
    );
    assert!(!ok);
    assert_eq!(
        out.trim(),
        "error: failed to create deployment: namespaces \"shop\" not found"
    );
    assert_eq!(
        sh(&mut c, "kubectl create namespace shop", None).1.trim(),
        "namespace/shop created"
    );
    assert!(
        sh(
            &mut c,
            "kubectl create deployment web --image=nginx --replicas=2 -n shop",
            None
        )
        .0
    );
    c.settle(60_000);
    assert_eq!(
        c.store
            .list::<Pod>()
            .filter(|p| p.metadata.namespace == "shop")
            .count(),
        2
    );
    // Deleting waits until the namespace controller has emptied it.
    let (ok, out) = sh(&mut c, "kubectl delete namespace shop", None);
    assert!(ok, "{out}");
    assert_eq!(out.trim(), "namespace \"shop\" deleted");
    assert_eq!(
        c.store
            .list_objects(Kind::Pod)
            .filter(|o| o.meta().namespace == "shop")
            .count(),
        0
    );
    assert_eq!(c.store.list_objects(Kind::Deployment).count(), 0);
    assert!(c
        .store
        .list::<Namespace>()
        .all(|n| n.metadata.name != "shop"));
    assert!(c
        .store
        .log
        .iter()
        .any(|e| e.writer == "namespace-controller"));
    let (ok, out) = sh(&mut c, "kubectl delete namespace default", None);
    assert!(!ok);
    assert_eq!(out.trim(), "Error from server (Forbidden): namespaces \"default\" is forbidden: this namespace may not be deleted");
}

#[test]
fn get_o_yaml_output_can_be_applied_back_without_changing_the_spec() {
    let mut c = Cluster::with_default_nodes(1);
    assert!(
        sh(
            &mut c,
            "kubectl create deployment web --image=nginx:1.27 --replicas=2",
            None
        )
        .0
    );
    c.settle(60_000);
    let before = c.store.list::<Deployment>().next().unwrap().clone();
    for kind in ["deployment web", "node node-1", "namespace default"] {
        let (_, yaml) = sh(&mut c, &format!("kubectl get {kind} -o yaml"), None);
        let (ok, out) = sh(&mut c, "kubectl apply -f -", Some(&yaml));
        assert!(ok, "{kind}: {out}");
        assert!(
            out.contains(" configured") || out.contains(" unchanged"),
            "{kind}: {out}"
        );
        assert!(
            !out.contains("unknown field"),
            "{kind}: no unknown fields in our own output: {out}"
        );
    }
    c.settle(60_000);
    let after = c.store.list::<Deployment>().next().unwrap().clone();
    assert_eq!(after.spec, before.spec);
    assert_eq!(
        after.metadata.generation, before.metadata.generation,
        "no rollout"
    );
    assert_eq!(c.store.list::<ReplicaSet>().count(), 1);
    // JSON works the same way.
    let (_, json) = sh(&mut c, "kubectl get deployment web -o json", None);
    assert!(sh(&mut c, "kubectl apply -f -", Some(&json)).0);
}
