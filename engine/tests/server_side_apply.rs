//! Server-side apply and field ownership (`metadata.managedFields`): updates take the
//! fields they change, an apply conflicts with another manager's fields unless it
//! forces or sets the value already there, and a field an applier stops naming goes.

mod common;

use common::*;
use kubeplay_engine::api::Kind;
use kubeplay_engine::apiserver::managed_fields::{path_string, Operation};
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn manifest(replicas: Option<i64>, image: &str) -> String {
    let replicas = replicas
        .map(|r| format!("  replicas: {r}\n"))
        .unwrap_or_default();
    format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\n  labels:\n    app: web\nspec:\n{replicas}  selector:\n    matchLabels:\n      app: web\n  template:\n    metadata:\n      labels:\n        app: web\n    spec:\n      containers:\n      - name: nginx\n        image: {image}\n"
    )
}

fn ssa(c: &mut Cluster, yaml: &str, extra: &str) -> (bool, String) {
    let o = run(
        c,
        &format!("kubectl apply --server-side -f - {extra}"),
        Some(yaml),
        &NoFiles,
    );
    (o.ok, o.output)
}

/// Each manager of `web` with the fields it owns.
fn owners(c: &Cluster) -> Vec<(String, Operation, String, Vec<String>)> {
    c.managed_fields()
        .get(Kind::Deployment, &ObjKey::new("default", "web"))
        .iter()
        .map(|e| {
            (
                e.manager.clone(),
                e.operation,
                e.subresource.clone(),
                e.fields.iter().map(|p| path_string(p)).collect(),
            )
        })
        .collect()
}

fn owns(c: &Cluster, manager: &str, op: Operation, field: &str) -> bool {
    owners(c)
        .iter()
        .any(|(m, o, _, f)| m == manager && *o == op && f.iter().any(|x| x == field))
}

fn started() -> Cluster {
    let mut c = Cluster::with_default_nodes(1);
    let (ok, out) = ssa(&mut c, &manifest(Some(3), "nginx:1.27"), "");
    assert!(ok, "{out}");
    assert_eq!(out, "deployment.apps/web serverside-applied\n");
    assert!(c.settle(120_000));
    c
}

#[test]
fn an_apply_after_a_scale_conflicts_with_the_scale_subresource_and_changes_nothing() {
    let mut c = started();
    assert!(owns(&c, "kubectl", Operation::Apply, ".spec.replicas"));
    sh(&mut c, "kubectl scale deployment web --replicas=5");
    assert!(owns(&c, "kubectl", Operation::Update, ".spec.replicas"));
    assert!(
        !owns(&c, "kubectl", Operation::Apply, ".spec.replicas"),
        "an update takes the field from the applier"
    );
    let (ok, out) = ssa(&mut c, &manifest(Some(3), "nginx:1.27"), "");
    assert!(!ok);
    assert!(
        out.starts_with("error: Apply failed with 1 conflict: conflict with \"kubectl\" with subresource \"scale\" using apps/v1: .spec.replicas\nPlease review the fields above--they currently have other managers."),
        "{out}"
    );
    assert!(
        out.ends_with(
            "See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts\n"
        ),
        "{out:?}"
    );
    assert_eq!(web(&c).spec.replicas, 5);
}

#[test]
fn force_conflicts_takes_the_field_and_an_equal_value_is_shared() {
    let mut c = started();
    sh(&mut c, "kubectl scale deployment web --replicas=5");
    // The same value as live: no conflict; both own it.
    let (ok, out) = ssa(&mut c, &manifest(Some(5), "nginx:1.27"), "");
    assert!(ok, "{out}");
    assert!(owns(&c, "kubectl", Operation::Apply, ".spec.replicas"));
    assert!(owns(&c, "kubectl", Operation::Update, ".spec.replicas"));
    // A different value, forced: the scale's manager loses it.
    let (ok, out) = ssa(
        &mut c,
        &manifest(Some(3), "nginx:1.27"),
        "--force-conflicts",
    );
    assert!(ok, "{out}");
    assert_eq!(web(&c).spec.replicas, 3);
    assert!(!owners(&c).iter().any(|(_, _, sub, _)| sub == "scale"));
}

#[test]
fn a_field_the_applier_stops_naming_goes_back_to_its_default() {
    let mut c = started();
    let (ok, out) = ssa(&mut c, &manifest(None, "nginx:1.27"), "");
    assert!(ok, "{out}");
    assert_eq!(web(&c).spec.replicas, 1, "removed, then defaulted");
}

#[test]
fn another_applier_conflicts_on_every_field_whose_value_it_would_change() {
    let mut c = started();
    sh(&mut c, "kubectl set image deployment/web nginx=nginx:1.28");
    assert!(owns(
        &c,
        "kubectl-set",
        Operation::Update,
        ".spec.template.spec.containers[name=\"nginx\"].image"
    ));
    let (ok, out) = ssa(
        &mut c,
        &manifest(Some(3), "nginx:1.27"),
        "--field-manager=argocd",
    );
    assert!(!ok);
    assert!(out.contains("conflict with \"kubectl-set\" using apps/v1: .spec.template.spec.containers[name=\"nginx\"].image"), "{out}");
    let o = run(
        &mut c,
        "kubectl apply --force-conflicts -f -",
        Some(&manifest(Some(3), "x")),
        &NoFiles,
    );
    assert_eq!(
        o.output,
        "error: --force-conflicts only works with --server-side\n"
    );
}

#[test]
fn the_gitops_agent_applies_with_force_and_takes_back_a_scaled_field() {
    let mut c = started();
    sh(&mut c, "sim gitops on deployment/web --every 20s");
    sh(&mut c, "kubectl scale deployment web --replicas=5");
    c.advance(25_000);
    assert_eq!(web(&c).spec.replicas, 3);
    assert!(owns(&c, "gitops-sync", Operation::Apply, ".spec.replicas"));
    assert!(!owners(&c).iter().any(|(_, _, sub, _)| sub == "scale"));
    // The learner's apply of the same values co-owns: no conflict.
    let (ok, out) = ssa(&mut c, &manifest(Some(3), "nginx:1.27"), "");
    assert!(ok, "{out}");
}

#[test]
fn managed_fields_show_only_with_show_managed_fields() {
    let mut c = started();
    let plain = sh(&mut c, "kubectl get deployment web -o yaml");
    assert!(!plain.contains("managedFields"));
    let shown = sh(
        &mut c,
        "kubectl get deployment web -o yaml --show-managed-fields",
    );
    assert!(
        shown.contains("  managedFields:\n  - apiVersion: apps/v1\n    fieldsType: FieldsV1\n"),
        "{shown}"
    );
    assert!(
        shown.contains("              k:{\"name\":\"nginx\"}:\n                .: {}\n"),
        "{shown}"
    );
}

#[test]
fn a_server_side_apply_after_a_client_side_one_moves_its_fields_to_the_applier() {
    let mut c = Cluster::with_default_nodes(1);
    let o = run(
        &mut c,
        "kubectl apply -f -",
        Some(&manifest(Some(3), "nginx:1.27")),
        &NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    assert!(owns(
        &c,
        "kubectl-client-side-apply",
        Operation::Update,
        ".spec.replicas"
    ));
    let (ok, out) = ssa(&mut c, &manifest(Some(3), "nginx:1.27"), "");
    assert_eq!(
        (ok, out.as_str()),
        (true, "deployment.apps/web serverside-applied\n")
    );
    let managers: Vec<(String, Operation)> =
        owners(&c).into_iter().map(|(m, o, _, _)| (m, o)).collect();
    assert_eq!(
        managers,
        [
            ("kubectl-last-applied".to_string(), Operation::Apply),
            ("kubectl".to_string(), Operation::Apply)
        ],
        "the client-side manager is gone"
    );
    assert!(owns(
        &c,
        "kubectl-last-applied",
        Operation::Apply,
        ".metadata.annotations.kubectl.kubernetes.io/last-applied-configuration"
    ));
    assert!(owns(&c, "kubectl", Operation::Apply, ".spec.replicas"));
    // Migrated once: the next apply finds nothing to move.
    let (ok, out) = ssa(&mut c, &manifest(Some(3), "nginx:1.27"), "");
    assert_eq!(
        (ok, out.as_str()),
        (true, "deployment.apps/web serverside-applied\n")
    );
}
