//! Native sidecars (an init container with `restartPolicy: Always`, GA in v1.33): the
//! kubelet starts one and goes on without waiting for it to exit, keeps it running
//! beside the app containers, and stops it after them.

mod common;

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn sh(c: &mut Cluster, cmd: &str, stdin: Option<&str>) -> String {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(o.ok, "{cmd}: {}", o.output);
    o.output
}

const MESHED: &str = "apiVersion: v1
kind: Pod
metadata: {name: meshed}
spec:
  initContainers:
  - {name: proxy, image: 'envoy:1.31', restartPolicy: Always}
  - {name: migrate, image: 'busybox:1.36'}
  containers:
  - {name: app, image: 'nginx:1.27'}
";

#[test]
fn a_sidecar_starts_first_keeps_running_beside_the_app_and_stops_after_it() {
    let mut c = Cluster::with_default_nodes(2);
    sh(&mut c, "kubectl apply -f -", Some(MESHED));
    assert!(c.settle(120_000));
    let p = common::pod(&c, "meshed").unwrap();
    assert_eq!(p.status.phase, "Running");
    let proxy = &p.status.init_container_statuses[0];
    assert!(proxy.state.running.is_some(), "{proxy:?}");
    assert_eq!((proxy.started, proxy.ready), (Some(true), true));
    let migrate = &p.status.init_container_statuses[1];
    assert_eq!(
        migrate.state.terminated.as_ref().map(|t| t.exit_code),
        Some(0)
    );
    let table = sh(&mut c, "kubectl get pod meshed", None);
    assert!(table.contains("meshed   2/2     Running"), "{table}");
    // Started before migrate ran, and never waited for.
    let started: Vec<String> = c
        .events()
        .into_iter()
        .filter(|e| e.involved_object.name == "meshed" && e.reason == "Started")
        .map(|e| e.message.clone())
        .collect();
    assert_eq!(
        started,
        vec![
            "Started container proxy",
            "Started container migrate",
            "Started container app"
        ]
    );
    sh(&mut c, "kubectl delete pod meshed --wait=false", None);
    c.advance(5_000);
    let killing: Vec<String> = c
        .events()
        .into_iter()
        .filter(|e| e.involved_object.name == "meshed" && e.reason == "Killing")
        .map(|e| e.message.clone())
        .collect();
    assert_eq!(
        killing,
        vec!["Stopping container app", "Stopping container proxy"]
    );
}

#[test]
fn a_crashing_sidecar_is_restarted_even_in_a_pod_that_never_restarts() {
    let mut c = Cluster::with_default_nodes(2);
    sh(&mut c, "sim image-crash envoy:1.31 --after 1s", None);
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&MESHED.replace("spec:\n", "spec:\n  restartPolicy: Never\n")),
    );
    c.advance(60_000);
    let p = common::pod(&c, "meshed").unwrap();
    assert_ne!(p.status.phase, "Failed");
    assert!(p.status.init_container_statuses[0].restart_count >= 1);
}
