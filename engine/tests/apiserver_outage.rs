//! The API server as a failing part (`sim apiserver down|up`): nothing is written while
//! it is down, the data plane keeps serving by the kube-proxies' last rules, the
//! kubelets keep their containers running and report when it is back.

mod common;

use common::*;
use kubeplay_engine::api::{Node, Pod};
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::leader_election::Elected;
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

fn leader(c: &Cluster, e: Elected) -> Option<String> {
    c.elections().get(e).leader().map(|l| l.identity.clone())
}

fn lease_holder(c: &Cluster, e: Elected) -> String {
    c.store
        .get::<kubeplay_engine::api::Lease>(&ObjKey::new("kube-system", e.name()))
        .map(|l| l.spec.holder_identity.clone())
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
    // Back: the kubelets report at their next heartbeat. The controller manager's
    // leader gave up 10 s into the outage and restarted: a new leader takes the Lease
    // once the old record has gone unrenewed for 15 s after the API is back, and its
    // node lifecycle controller, a new process, gives every node a fresh grace period.
    // The nodes never go NotReady and no Pod is evicted or replaced.
    sh(&mut c, "sim apiserver up");
    c.advance(1_000);
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(node_ready(&c, n), "True", "{n}");
        assert!(node_no_execute_taints(&c, n).is_empty(), "{n}");
    }
    c.advance(120_000);
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(node_ready(&c, n), "True", "{n}");
    }
    assert_eq!(web(&c).status.ready_replicas, 3);
    assert_eq!(pod_names(&c), pods_before, "no Pod was evicted or replaced");
}

#[test]
fn after_an_outage_longer_than_the_renew_deadline_each_leader_restarts_with_a_new_identity() {
    let mut c = serving();
    let before: Vec<String> = Elected::ALL
        .iter()
        .map(|e| leader(&c, *e).expect("a leader"))
        .collect();
    sh(&mut c, "sim apiserver down");
    c.advance(9_000);
    for (e, id) in Elected::ALL.iter().zip(&before) {
        assert_eq!(
            leader(&c, *e).as_ref(),
            Some(id),
            "within the renew deadline"
        );
    }
    c.advance(60_000);
    for (e, id) in Elected::ALL.iter().zip(&before) {
        assert_eq!(leader(&c, *e), None, "{}: gave up", e.name());
        assert_eq!(&lease_holder(&c, *e), id, "nothing could be written");
        let restarted = &c.elections().get(*e).candidates[0].identity;
        assert!(restarted != id && restarted.starts_with("control-plane-1_"));
    }
    sh(&mut c, "sim apiserver up");
    // The Lease still names the old identity: the restarted replica waits a lease
    // duration from its first successful read, and its loops wait with it.
    sh(&mut c, "kubectl scale deployment web --replicas=4");
    c.advance(14_000);
    assert_eq!(leader(&c, Elected::ControllerManager), None);
    assert_eq!(
        web(&c).status.replicas,
        3,
        "no controller has run the scale"
    );
    c.advance(10_000);
    for (e, id) in Elected::ALL.iter().zip(&before) {
        let now = leader(&c, *e).expect("a new leader");
        assert!(&now != id);
        assert_eq!(lease_holder(&c, *e), now);
    }
    c.advance(30_000);
    assert_eq!(
        web(&c).status.ready_replicas,
        4,
        "the new leader's loops ran it"
    );
}

#[test]
fn an_outage_shorter_than_the_renew_deadline_leaves_each_leader_leading() {
    let mut c = serving();
    let before = leader(&c, Elected::ControllerManager);
    sh(&mut c, "sim apiserver down");
    c.advance(6_000);
    sh(&mut c, "sim apiserver up");
    c.advance(30_000);
    assert_eq!(leader(&c, Elected::ControllerManager), before);
    assert_eq!(
        lease_holder(&c, Elected::ControllerManager),
        before.unwrap()
    );
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
    // The live kubelets report at their next heartbeat; node-1's never does. The new
    // leader's node lifecycle controller starts node-1's grace period when it starts
    // (15-20 s after the API is back) and finds it NotReady once that has passed.
    c.advance(30_000);
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(
            node_ready(&c, n),
            "True",
            "{n}: within the new grace period"
        );
    }
    c.advance(60_000);
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
