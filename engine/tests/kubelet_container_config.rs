//! The kubelet refuses to start a container whose environment it cannot build: a
//! ConfigMap or Secret named by `envFrom` or `valueFrom` that is missing, or a key it
//! lacks, leaves the container waiting in `CreateContainerConfigError` (the Pod
//! Pending) with upstream's message, until the object appears.

mod common;

use common::*;
use kubeplay_engine::time::SECOND;

fn pod_yaml(env: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: app}}\nspec:\n  containers:\n  - name: app\n    image: nginx:1.27\n{env}"
    )
}

fn waiting(c: &kubeplay_engine::cluster::Cluster) -> (String, String, String) {
    let p = pod(c, "app").unwrap();
    let w = p.status.container_statuses[0]
        .state
        .waiting
        .clone()
        .unwrap_or_default();
    (p.status.phase.to_string(), w.reason, w.message)
}

#[test]
fn a_missing_configmap_in_env_from_waits_in_create_container_config_error_until_it_exists() {
    let mut c = web_cluster(2);
    apply(
        &mut c,
        &pod_yaml("    envFrom:\n    - configMapRef: {name: app-config}\n"),
    );
    c.advance(30 * SECOND);
    assert_eq!(
        waiting(&c),
        (
            "Pending".into(),
            "CreateContainerConfigError".into(),
            "configmap \"app-config\" not found".into()
        )
    );
    let events = sh(
        &mut c,
        "kubectl get events --field-selector involvedObject.name=app",
    );
    assert!(
        events.contains("Warning   Failed")
            && events.contains("Error: configmap \"app-config\" not found"),
        "{events}"
    );
    assert!(!events.contains("Started"), "{events}");
    let get = sh(&mut c, "kubectl get pod app --no-headers");
    let cols: Vec<&str> = get.split_whitespace().collect();
    assert_eq!(
        cols[1..4],
        ["0/1", "CreateContainerConfigError", "0"],
        "{get}"
    );
    // Created, it is found at the worker's next sync (every 10 s).
    sh(
        &mut c,
        "kubectl create configmap app-config --from-literal=MODE=prod",
    );
    c.advance(11 * SECOND);
    let p = pod(&c, "app").unwrap();
    assert_eq!(p.status.phase.to_string(), "Running");
    assert!(p.status.container_statuses[0].state.running.is_some());
    let events = sh(
        &mut c,
        "kubectl get events --field-selector involvedObject.name=app",
    );
    assert!(events.contains("already present on machine"), "{events}");
}

#[test]
fn each_missing_reference_is_named_in_upstreams_words_and_optional_ones_are_skipped() {
    let cases = [
        (
            "    env:\n    - name: K\n      valueFrom: {secretKeyRef: {name: creds, key: token}}\n",
            "secret \"creds\" not found",
        ),
        (
            "    envFrom:\n    - secretRef: {name: creds}\n",
            "secret \"creds\" not found",
        ),
        (
            "    env:\n    - name: K\n      valueFrom: {configMapKeyRef: {name: kube-root-ca.crt, key: nope}}\n",
            "couldn't find key nope in ConfigMap default/kube-root-ca.crt",
        ),
        (
            "    env:\n    - name: K\n      valueFrom: {configMapKeyRef: {name: gone, key: k, optional: true}}\n    envFrom:\n    - configMapRef: {name: gone, optional: true}\n",
            "",
        ),
    ];
    for (env, want) in cases {
        let mut c = web_cluster(2);
        apply(&mut c, &pod_yaml(env));
        c.advance(30 * SECOND);
        let (phase, reason, message) = waiting(&c);
        if want.is_empty() {
            assert_eq!((phase.as_str(), reason.as_str()), ("Running", ""), "{env}");
        } else {
            assert_eq!(
                (phase.as_str(), reason.as_str(), message.as_str()),
                ("Pending", "CreateContainerConfigError", want),
                "{env}"
            );
        }
    }
}

#[test]
fn a_pod_stays_pending_while_its_second_container_cannot_start() {
    let mut c = web_cluster(2);
    apply(
        &mut c,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: app}\nspec:\n  containers:\n  - name: web\n    image: nginx:1.27\n  - name: side\n    image: busybox\n    command: [sleep, '3600']\n    envFrom:\n    - configMapRef: {name: app-config}\n",
    );
    c.advance(30 * SECOND);
    let p = pod(&c, "app").unwrap();
    assert_eq!(p.status.phase.to_string(), "Pending");
    assert!(p.status.container_statuses[0].state.running.is_some());
    assert_eq!(
        p.status.container_statuses[1]
            .state
            .waiting
            .as_ref()
            .unwrap()
            .reason,
        "CreateContainerConfigError"
    );
}
