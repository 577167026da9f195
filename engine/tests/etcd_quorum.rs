//! etcd as a Raft cluster that can lose its quorum (`sim etcd members|down|up`): the
//! course's table (1 member → quorum 1, 3 → 2, 5 → 3), what a learner meets without
//! a quorum, and the way back.

mod common;

use common::*;
use kubeplay_engine::api::Deployment;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::etcd::{quorum_of, tolerated_failures};
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

const TIMED_OUT: &str = "Error from server: etcdserver: request timed out\n";
/// `kubectl scale` reads each object before it writes: without a quorum the read
/// times out, and RunScale has no objects to scale.
const SCALE_TIMED_OUT: &str = "error: no objects passed to scale etcdserver: request timed out\n";

fn replicas(c: &Cluster) -> i64 {
    c.store
        .get::<Deployment>(&ObjKey::new("default", "web"))
        .map(|d| d.spec.replicas)
        .unwrap_or(-1)
}

#[test]
fn the_quorum_is_a_majority_and_tolerates_the_minority_failing() {
    let table: Vec<(usize, usize, usize)> = (1..=7)
        .map(|n| (n, quorum_of(n), tolerated_failures(n)))
        .collect();
    assert_eq!(
        table,
        [
            (1, 1, 0),
            (2, 2, 0),
            (3, 2, 1),
            (4, 3, 1),
            (5, 3, 2),
            (6, 4, 2),
            (7, 4, 3)
        ]
    );
}

#[test]
fn a_write_commits_with_up_to_the_tolerated_failures_and_times_out_past_them() {
    for n in [1usize, 3, 5] {
        let mut c = web_cluster(3);
        sh(&mut c, &format!("sim etcd members {n}"));
        let mut want = 3;
        for down in 1..=n {
            sh(&mut c, &format!("sim etcd down etcd-{down}"));
            want += 1;
            let o = run(
                &mut c,
                &format!("kubectl scale deployment web --replicas={want}"),
                None,
                &NoFiles,
            );
            if down <= tolerated_failures(n) {
                assert!(o.ok, "{n} members, {down} down: {}", o.output);
                assert_eq!(replicas(&c), want);
            } else {
                assert!(!o.ok, "{n} members, {down} down");
                assert_eq!(o.output, SCALE_TIMED_OUT, "{n} members, {down} down");
                assert_eq!(replicas(&c), want - 1, "the write did not commit");
                break;
            }
        }
    }
}

#[test]
fn without_a_quorum_reads_time_out_too_but_client_side_work_and_version_answer() {
    let mut c = web_cluster(3);
    sh(&mut c, "sim etcd members 3");
    sh(&mut c, "sim etcd down etcd-1");
    sh(&mut c, "sim etcd down etcd-3");
    let rev = c.store.revision();
    for line in [
        "kubectl get pods",
        "kubectl describe deployment web",
        "kubectl delete pod -l app=web",
        "kubectl logs deploy/web",
    ] {
        let o = run(&mut c, line, None, &NoFiles);
        assert_eq!((o.ok, o.output.as_str()), (false, TIMED_OUT), "{line}");
    }
    // kubectl's own checks come first, as they do before any request is sent.
    let o = run(&mut c, "kubectl get pods --no-such-flag", None, &NoFiles);
    assert!(
        o.output.starts_with("error: unknown flag: --no-such-flag"),
        "{}",
        o.output
    );
    // The API server answers from memory.
    let o = run(&mut c, "kubectl version", None, &NoFiles);
    assert!(
        o.ok && o.output.contains("Server Version: v1.33.0"),
        "{}",
        o.output
    );
    let o = run(
        &mut c,
        "kubectl create deployment api --image=api:1 --dry-run=client -o name",
        None,
        &NoFiles,
    );
    assert_eq!(o.output, "deployment.apps/api\n");
    assert_eq!(c.store.revision(), rev, "nothing was written");
}

#[test]
fn the_leader_fails_over_to_a_member_that_is_up() {
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "sim etcd members 3");
    assert_eq!(c.etcd().leader_name(), Some("etcd-1"));
    sh(&mut c, "sim etcd down etcd-1");
    assert_eq!(c.etcd().leader_name(), Some("etcd-2"));
    sh(&mut c, "sim etcd down etcd-2");
    assert_eq!(c.etcd().leader_name(), None, "no quorum, no leader");
    sh(&mut c, "sim etcd up etcd-1");
    assert_eq!(c.etcd().leader_name(), Some("etcd-1"));
}

#[test]
fn after_a_long_loss_the_leaders_restart_and_the_nodes_stay_ready() {
    let mut c = web_cluster(5);
    let pods: Vec<String> = pod_names(&c);
    sh(&mut c, "sim etcd members 3");
    sh(&mut c, "sim etcd down etcd-2");
    sh(&mut c, "sim etcd down etcd-3");
    c.advance(90_000);
    // Nothing could be written: the nodes look as they did, and the controller
    // manager's leader gave up renewing its Lease and restarted.
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(node_ready(&c, n), "True", "{n}");
    }
    let cm = kubeplay_engine::cluster::leader_election::Elected::ControllerManager;
    assert!(c.elections().get(cm).leader().is_none());
    sh(&mut c, "sim etcd up etcd-3");
    // The kubelets report within 10 s; the new leader's node lifecycle controller
    // starts 15 s or more after the quorum is back, with a fresh grace for each node.
    c.advance(30_000);
    assert!(c.elections().get(cm).leader().is_some());
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(node_ready(&c, n), "True", "{n}");
    }
    c.advance(5 * 60_000);
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(node_ready(&c, n), "True", "{n}");
    }
    assert_eq!(pod_names(&c), pods, "no Pod was evicted or replaced");
}

#[test]
fn a_node_cannot_join_without_a_quorum() {
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "sim etcd down etcd-1");
    let o = run(&mut c, "sim node add node-4", None, &NoFiles);
    assert!(!o.ok);
    assert!(
        o.output.contains("etcdserver: request timed out"),
        "{}",
        o.output
    );
    sh(&mut c, "sim node down node-3");
    let o = run(&mut c, "sim node up node-3", None, &NoFiles);
    assert!(o.output.contains("etcd has no quorum"), "{}", o.output);
}

fn pod_names(c: &Cluster) -> Vec<String> {
    c.store
        .list_ns::<kubeplay_engine::api::Pod>("default")
        .map(|p| p.metadata.name.clone())
        .collect()
}

/// The course's other case: every etcd process alive, yet no majority, because the
/// members cannot reach each other. Requests time out as with stopped members; the
/// status shows every member up; rejoining brings the quorum back.
#[test]
fn members_alive_but_cut_off_from_each_other_form_no_majority() {
    let mut c = web_cluster(1);
    let sim = |c: &mut Cluster, l: &str| run(c, l, None, &NoFiles);
    assert!(sim(&mut c, "sim etcd members 3").ok);
    let o = sim(&mut c, "sim etcd isolate etcd-2");
    assert_eq!(
        o.output,
        "etcd-2 cut off from its peers (its process runs on): 3 of 3 members up (1 cut off from the others), quorum 2: writes commit (leader etcd-1)\n"
    );
    let o = sim(&mut c, "sim etcd isolate etcd-3");
    assert!(o.output.starts_with("etcd-3 cut off from its peers (its process runs on): quorum lost — 3 of 3 members up (2 cut off from the others), quorum 2: no quorum"), "{}", o.output);
    let status = sim(&mut c, "sim etcd status").output;
    assert!(status.contains("etcd-2   up, cut off"), "{status}");
    assert_eq!(
        sim(&mut c, "kubectl scale deployment web --replicas=3").output,
        SCALE_TIMED_OUT
    );
    assert!(
        !sim(&mut c, "sim etcd isolate etcd-3").ok,
        "already cut off"
    );
    assert!(!sim(&mut c, "sim etcd down etcd-1").output.is_empty());
    assert!(sim(&mut c, "sim etcd up etcd-1").ok);
    let o = sim(&mut c, "sim etcd rejoin etcd-2");
    assert!(o.output.contains("quorum regained after"), "{}", o.output);
    assert!(sim(&mut c, "kubectl scale deployment web --replicas=3").ok);
    assert_eq!(replicas(&c), 3);
}
