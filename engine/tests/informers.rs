//! Informers and work queues (`sim watch break`, `sim queues`): a broken watch hides
//! changes from its controller; a resumed watch delivers every missed event; a watch
//! whose resourceVersion is gone (410) relists and sees each changed object once; the
//! queue view counts queued keys, syncs and retries.

mod common;

use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::informers::LoopView;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn view(c: &Cluster, name: &str) -> LoopView {
    c.loop_views()
        .into_iter()
        .find(|v| v.name == name)
        .expect("a loop of that name")
}

fn rs(c: &Cluster) -> ReplicaSet {
    c.store
        .list::<ReplicaSet>()
        .find(|r| r.metadata.namespace == "default")
        .expect("web's ReplicaSet")
        .clone()
}

fn web_pods(c: &Cluster) -> usize {
    c.store
        .list::<Pod>()
        .filter(|p| p.metadata.namespace == "default" && p.metadata.deletion_timestamp.is_none())
        .count()
}

#[test]
fn a_broken_watch_hides_changes_and_a_resumed_one_delivers_every_missed_event() {
    let mut c = web_cluster(1);
    let out = sh(&mut c, "sim watch break replicaset-controller --for 30s");
    assert!(out.contains("is sent what it missed"), "{out}");
    sh(&mut c, "kubectl scale deployment web --replicas=5");
    c.advance(10_000);
    assert_eq!(
        rs(&c).spec.replicas,
        5,
        "the deployment controller scaled it"
    );
    assert_eq!(
        web_pods(&c),
        3,
        "the ReplicaSet controller was told nothing"
    );
    let v = view(&c, "replicaset-controller");
    assert!(v.watch.broken_since.is_some());
    let missed = v.watch.missed;
    assert!(
        missed >= 2,
        "at least the scale and the ReplicaSet's update: {missed}"
    );
    c.advance(21_000);
    let v = view(&c, "replicaset-controller");
    assert_eq!(v.watch.broken_since, None);
    assert_eq!(v.watch.relists, 0);
    let last = v.watch.last.unwrap();
    assert!(last.starts_with("resumed from resourceVersion"), "{last}");
    assert!(c.settle(120_000));
    assert_eq!(web_pods(&c), 5);
}

#[test]
fn a_gone_resource_version_relists_and_sees_each_changed_object_once() {
    let mut c = web_cluster(2);
    sh(
        &mut c,
        "sim watch break replicaset-controller --for 30s --gone",
    );
    // Two scales while it is blind: it will never see the 6.
    sh(&mut c, "kubectl scale deployment web --replicas=6");
    c.advance(3_000);
    sh(&mut c, "kubectl scale deployment web --replicas=2");
    c.advance(3_000);
    assert_eq!(rs(&c).spec.replicas, 2);
    assert_eq!(web_pods(&c), 3);
    c.advance(25_000);
    let v = view(&c, "replicaset-controller");
    assert_eq!(v.watch.relists, 1);
    let last = v.watch.last.clone().unwrap();
    assert!(
        last.starts_with("410 Gone: too old resource version:"),
        "{last}"
    );
    // Each changed object once: fewer objects than the events it never saw.
    let number_before = |word: &str| -> u64 {
        let head = &last[..last.find(word).unwrap()];
        head.trim_end().rsplit(' ').next().unwrap().parse().unwrap()
    };
    let (objects, events) = (
        number_before("objects changed"),
        number_before("events never seen"),
    );
    assert!(0 < objects && objects < events, "{last}");
    assert!(c.settle(120_000));
    assert_eq!(web_pods(&c), 2, "level-triggered: the relist converges it");
}

#[test]
fn an_object_created_and_deleted_while_a_watch_is_gone_is_never_seen() {
    let mut c = web_cluster(3);
    sh(
        &mut c,
        "sim watch break deployment-controller --for 20s --gone",
    );
    sh(&mut c, "kubectl create deployment tmp --image=nginx:1.27");
    sh(&mut c, "kubectl delete deployment tmp");
    let before = view(&c, "deployment-controller").stats.syncs;
    c.advance(21_000);
    let v = view(&c, "deployment-controller");
    assert_eq!(v.watch.relists, 1);
    assert_eq!(v.stats.syncs, before, "no key was ever queued for tmp");
}

#[test]
fn a_break_longer_than_the_compaction_interval_finds_its_version_gone() {
    let mut c = web_cluster(4);
    let out = sh(&mut c, "sim watch break endpointslice-controller --for 6m");
    assert!(out.contains("which will be gone (410)"), "{out}");
    c.advance(6 * 60_000 + 1_000);
    assert_eq!(view(&c, "endpointslice-controller").watch.relists, 1);
}

#[test]
fn the_queue_fills_while_no_leader_drains_it_and_empties_once_one_does() {
    let mut c = web_cluster(5);
    sh(&mut c, "sim leader kill kube-controller-manager");
    sh(&mut c, "kubectl scale deployment web --replicas=4");
    c.advance(5_000);
    let v = view(&c, "deployment-controller");
    assert_eq!(v.depth, 1);
    assert_eq!(v.next, ["default/web"]);
    assert!(c.settle(120_000));
    assert_eq!(view(&c, "deployment-controller").depth, 0);
    assert_eq!(web_pods(&c), 4);
}

#[test]
fn a_refused_create_is_retried_with_back_off_and_counted() {
    let mut c = web_cluster(6);
    sh(&mut c, "kubectl create quota pods --hard=pods=3");
    c.advance(2_000);
    sh(&mut c, "kubectl scale deployment web --replicas=5");
    c.advance(10_000);
    let v = view(&c, "replicaset-controller");
    assert!(v.stats.retries >= 2, "{:?}", v.stats);
    assert_eq!(v.failing, 1, "its one key backs off");
    sh(&mut c, "kubectl delete quota pods");
    assert!(c.settle(300_000));
    let v = view(&c, "replicaset-controller");
    assert_eq!(v.failing, 0, "a clean sync forgets the key's failures");
    assert_eq!(web_pods(&c), 5);
}

#[test]
fn watch_and_queue_commands_refuse_what_they_cannot_do() {
    let mut c = Cluster::with_default_nodes(1);
    for (cmd, want) in [
        ("sim watch break nobody", "unknown controller \"nobody\""),
        (
            "sim watch mend replicaset-controller",
            "usage: sim watch break",
        ),
        (
            "sim watch break replicaset-controller --for soon",
            "invalid duration \"soon\"",
        ),
        ("sim queues now", "no control loop \"now\""),
        ("sim queues --all", "usage: sim queues [LOOP…]"),
    ] {
        let o = run(&mut c, cmd, None, &NoFiles);
        assert!(!o.ok && o.output.contains(want), "{cmd}: {}", o.output);
    }
    sh(&mut c, "sim watch break scheduler");
    let o = run(&mut c, "sim watch break default-scheduler", None, &NoFiles);
    assert!(!o.ok && o.output.contains("already broken"), "{}", o.output);
    let table = sh(&mut c, "sim queues");
    assert!(table.starts_with("CONTROLLER "), "{table}");
    assert!(table.contains("default-scheduler "), "{table}");
    let _ = ObjKey::new("", "");
}

#[test]
fn a_node_lifecycle_controller_blind_to_leases_marks_nodes_unknown_and_the_kubelets_put_ready_back()
{
    let mut c = web_cluster(7);
    sh(
        &mut c,
        "sim watch break node-lifecycle-controller --for 70s --gone",
    );
    // Past the 50 s grace by its clock, with no renewal seen: Unknown, Pods not ready.
    let at = step_until(&mut c, 70_000, "node-1 marked Unknown", |c| {
        node_ready(c, "node-1") == "Unknown"
    });
    assert!(at >= 50_000, "{at}");
    // The kubelets post Ready at their next status sync; the relist then sees fresh
    // Leases: nothing is evicted and nothing is replaced.
    assert!(c.settle(180_000));
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(node_ready(&c, n), "True", "{n}");
    }
    assert_eq!(web(&c).status.ready_replicas, 3);
    assert!(reasons_for(&c, "Node", "node-1").contains(&"NodeReady".to_string()));
}

#[test]
fn the_scheduler_row_shows_its_scheduling_queue_and_its_cycles() {
    let mut c = web_cluster(8);
    let v = view(&c, "default-scheduler");
    assert_eq!(v.stats.syncs, 3, "one cycle per Pod of web");
    assert!(
        v.stats.last_key.starts_with("default/web-"),
        "{:?}",
        v.stats
    );
    // No leader: new Pods wait in the activeQ.
    sh(&mut c, "sim leader kill kube-scheduler");
    sh(&mut c, "kubectl scale deployment web --replicas=5");
    c.advance(5_000);
    let v = view(&c, "default-scheduler");
    assert_eq!(v.depth, 2);
    assert_eq!(v.next.len(), 2);
    assert!(c.settle(120_000));
    let v = view(&c, "default-scheduler");
    assert_eq!((v.depth, v.stats.syncs), (0, 5));
}
