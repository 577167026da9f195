//! Shared helpers for the engine's integration tests.
#![allow(dead_code)]

use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::time::SimTime;

/// The default cluster with Deployment `web` (3 × nginx, 100m/128Mi), settled.
pub fn web_cluster(seed: u64) -> Cluster {
    let mut c = Cluster::with_default_nodes(seed);
    c.create_deployment("web", "nginx:1.27", 3, "100m", "128Mi")
        .expect("create web");
    assert!(c.settle(120_000), "web converges");
    c
}

/// The Deployment `web`.
pub fn web(c: &Cluster) -> Deployment {
    c.store
        .get::<Deployment>(&ObjKey::new("default", "web"))
        .expect("web exists")
        .clone()
}

/// A Pod by name.
pub fn pod<'a>(c: &'a Cluster, name: &str) -> Option<&'a Pod> {
    c.store.get::<Pod>(&ObjKey::new("default", name))
}

/// Step timers until `pred` holds; panics with `what` if it does not within `max` ms.
pub fn step_until(
    c: &mut Cluster,
    max: SimTime,
    what: &str,
    pred: impl Fn(&Cluster) -> bool,
) -> SimTime {
    let deadline = c.now() + max;
    while !pred(c) {
        match c.next_event_time() {
            Some(t) if t <= deadline => {
                c.step();
            }
            _ => panic!("{what}: not reached within {max} ms (now {})", c.now()),
        }
    }
    c.now()
}

/// Reasons of the Events about one object, oldest first.
pub fn reasons_for(c: &Cluster, kind: &str, name: &str) -> Vec<String> {
    c.events()
        .into_iter()
        .filter(|e| e.involved_object.kind == kind && e.involved_object.name == name)
        .map(|e| e.reason.clone())
        .collect()
}

/// Run a command that must succeed; its output.
pub fn sh(c: &mut Cluster, line: &str) -> String {
    let o = run(c, line, None, &NoFiles);
    assert!(o.ok, "{line}: {}", o.output);
    o.output
}

/// `kubectl apply -f -` of a manifest that must succeed.
pub fn apply(c: &mut Cluster, yaml: &str) {
    let o = run(c, "kubectl apply -f -", Some(yaml), &NoFiles);
    assert!(o.ok, "apply: {}", o.output);
}

/// A Node's Ready condition status (`True`, `False`, `Unknown`), empty when it is gone.
pub fn node_ready(c: &Cluster, name: &str) -> String {
    c.store
        .get::<Node>(&ObjKey::new("", name))
        .map(|n| n.ready_status().to_string())
        .unwrap_or_default()
}
