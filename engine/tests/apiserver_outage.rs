//! The API server as a failing part (`sim apiserver down|up`): nothing is written while
//! it is down, the data plane keeps serving by the kube-proxies' last rules, the
//! kubelets keep their containers running and report when it is back.

mod common;

use common::*;
use kubeplay_engine::api::{Node, Pod};
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

/// `web` (3 replicas) behind Service `web` with 20 requests a second flowing.
fn serving() -> Cluster {
    let mut c = web_cluster(11);
    sh(&mut c, "kubectl expose deployment web --port=80");
    c.advance(5_000);
    sh(&mut c, "sim traffic service/web --rps 20 --for 30m");
    c.advance(5_000);
    c
}

fn errors(c: &Cluster) -> u64 {
    c.proxies
        .series
        .get(&ObjKey::new("default", "web"))
        .into_iter()
        .flat_map(|s| s.values())
        .map(|b| b.errors())
        .sum()
}

/// The node's NoExecute taints (the ones that evict).
fn node_no_execute_taints(c: &Cluster, name: &str) -> Vec<String> {
    c.store
        .get::<Node>(&ObjKey::new("", name))
        .map(|n| {
            n.spec
                .taints
                .iter()
                .filter(|t| t.effect == "NoExecute")
                .map(|t| t.key.clone())
                .collect()
        })
        .unwrap_or_default()
}

fn pod_names(c: &Cluster) -> Vec<String> {
    c.store
        .list_ns::<Pod>("default")
        .map(|p| p.metadata.name.clone())
        .collect()
}

#[test]
fn while_the_api_server_is_down_nothing_is_written_and_users_are_still_served() {
    let mut c = serving();
    let rev = c.store.revision();
    sh(&mut c, "sim apiserver down");
    c.advance(180_000);
    // Three minutes without Lease renewals, status or controller writes: the store is as
    // it was, and no request failed.
    assert_eq!(c.store.revision(), rev);
    assert_eq!(errors(&c), 0);
    let o = run(
        &mut c,
        "kubectl scale deployment web --replicas=5",
        None,
        &NoFiles,
    );
    assert!(!o.ok);
    assert!(o.output.ends_with(
        "The connection to the server 10.0.0.2:6443 was refused - did you specify the right host or port?\n"
    ));
    assert_eq!(c.store.revision(), rev, "a refused request writes nothing");
    let pods_before = pod_names(&c);
    // Back: the controllers resume at once, the kubelets at their next heartbeat. The
    // node lifecycle controller looks first and finds every Lease three minutes old:
    // every node NotReady, and with every zone unhealthy, nothing tainted or evicted.
    sh(&mut c, "sim apiserver up");
    c.advance(1_000);
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(node_ready(&c, n), "Unknown", "{n}");
        assert!(
            node_no_execute_taints(&c, n).is_empty(),
            "{n}: in FullDisruption nothing is tainted NoExecute"
        );
    }
    c.advance(60_000);
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(node_ready(&c, n), "True", "{n}");
    }
    assert_eq!(web(&c).status.ready_replicas, 3);
    assert_eq!(pod_names(&c), pods_before, "no Pod was evicted or replaced");
}

#[test]
fn a_container_that_crashes_during_the_outage_is_restarted_locally_and_reported_after_it() {
    let mut c = serving();
    let victim = c
        .store
        .list_ns::<Pod>("default")
        .next()
        .map(|p| p.metadata.name.clone())
        .expect("a web Pod");
    sh(&mut c, "sim apiserver down");
    sh(&mut c, &format!("sim crash pod/{victim}"));
    c.advance(30_000);
    let restarts = |c: &Cluster| {
        pod(c, &victim)
            .and_then(|p| p.status.container_statuses.first().map(|s| s.restart_count))
            .unwrap_or(-1)
    };
    assert_eq!(
        restarts(&c),
        0,
        "nothing reported while the API server is down"
    );
    sh(&mut c, "sim apiserver up");
    c.advance(1_000);
    assert_eq!(restarts(&c), 0, "its kubelet reports at its next heartbeat");
    c.advance(10_000);
    assert_eq!(
        restarts(&c),
        1,
        "the kubelet restarted it and reports it now"
    );
}

#[test]
fn a_node_that_dies_during_the_outage_is_noticed_only_once_the_api_server_is_back() {
    let mut c = serving();
    sh(&mut c, "sim apiserver down");
    sh(&mut c, "sim node down node-1");
    c.advance(120_000);
    assert_eq!(node_ready(&c, "node-1"), "True", "no controller can write");
    sh(&mut c, "sim apiserver up");
    // The node lifecycle controller looks before any kubelet has reported: every
    // Lease is far older than the 50 s grace, so every node is NotReady (Unknown) at
    // first; the live kubelets report at their next heartbeat, node-1's never does.
    c.advance(1_000);
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(node_ready(&c, n), "Unknown", "{n}");
    }
    c.advance(15_000);
    assert_eq!(node_ready(&c, "node-1"), "Unknown");
    assert_eq!(node_ready(&c, "node-2"), "True");
    assert_eq!(node_ready(&c, "node-3"), "True");
}

#[test]
fn nodes_cannot_join_or_leave_while_the_api_server_is_down() {
    let mut c = serving();
    sh(&mut c, "sim apiserver down");
    for line in ["sim node add node-4", "sim node remove node-2"] {
        let o = run(&mut c, line, None, &NoFiles);
        assert!(!o.ok, "{line}");
        assert!(o.output.contains("was refused"), "{line}: {}", o.output);
    }
    sh(&mut c, "sim node down node-3");
    let o = run(&mut c, "sim node up node-3", None, &NoFiles);
    assert!(
        !o.ok && o.output.contains("could not register"),
        "{}",
        o.output
    );
    sh(&mut c, "sim apiserver up");
    sh(&mut c, "sim node up node-3");
    assert!(c.settle(300_000));
    assert_eq!(node_ready(&c, "node-3"), "True");
}
