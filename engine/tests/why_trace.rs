//! The why-trace follows causes upstream: a replacement Pod's trace starts with the
//! deletion (or eviction, and the node failure behind it) that left its ReplicaSet short.

mod common;
use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::explain::trace::trace;
use kubeplay_engine::time::SECOND;

fn pod_names(c: &kubeplay_engine::cluster::Cluster) -> Vec<String> {
    c.store
        .list::<Pod>()
        .filter(|p| !p.metadata.is_deleting())
        .map(|p| p.metadata.name.clone())
        .collect()
}

#[test]
fn a_replacement_pods_trace_starts_with_the_users_deletion_and_ends_ready() {
    let mut c = web_cluster(1);
    c.advance(20 * SECOND);
    let before = pod_names(&c);
    let victim = before[0].clone();
    let o = kubeplay_engine::command::run(
        &mut c,
        &format!("kubectl delete pod {victim} --wait=false"),
        None,
        &kubeplay_engine::command::NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    c.advance(20 * SECOND);
    let new = pod_names(&c)
        .into_iter()
        .find(|n| !before.contains(n))
        .expect("a replacement");
    let t = trace(&c, Kind::Pod, &ObjKey::new("default", &new)).unwrap();
    let lines: Vec<String> = t
        .iter()
        .map(|c| format!("{} {}", c.actor, c.text()))
        .collect();
    assert!(
        lines[0].starts_with(&format!("kubectl deleted Pod {victim}")),
        "{lines:#?}"
    );
    assert_eq!(t[0].depth, 1, "the deletion is the cause, one level up");
    assert!(lines[1].contains("saw 2 of 3 Pods"), "{lines:#?}");
    assert!(
        lines[1].ends_with(&format!("created Pod {new}")),
        "{lines:#?}"
    );
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with("default-scheduler filtered 3 nodes")),
        "{lines:#?}"
    );
    assert!(
        lines.iter().any(|l| l.contains("readiness passed")),
        "{lines:#?}"
    );
    assert!(
        lines.last().unwrap().ends_with("counts it: ready 3/3"),
        "{lines:#?}"
    );
    // Oldest first.
    assert!(t.windows(2).all(|w| w[0].time <= w[1].time));
}

#[test]
fn an_evicted_pods_replacement_traces_back_to_the_node_that_stopped_reporting() {
    let mut c = web_cluster(1);
    c.advance(20 * SECOND);
    let before = pod_names(&c);
    c.power_off("node-2").unwrap();
    c.advance(400 * SECOND);
    let new = pod_names(&c)
        .into_iter()
        .find(|n| !before.contains(n))
        .expect("a replacement");
    let t = trace(&c, Kind::Pod, &ObjKey::new("default", &new)).unwrap();
    let text: Vec<String> = t.iter().map(|c| c.text()).collect();
    assert!(
        text[0].starts_with("marked node node-2 Ready=Unknown"),
        "{text:#?}"
    );
    assert!(
        text[1].starts_with("tainted node node-2: node.kubernetes.io/unreachable:NoExecute"),
        "{text:#?}"
    );
    assert!(text[2].starts_with("evicted Pod"), "{text:#?}");
    assert_eq!(
        (t[0].depth, t[1].depth, t[2].depth, t[3].depth),
        (3, 2, 1, 0)
    );
}

#[test]
fn a_name_that_was_never_written_has_no_trace() {
    let c = web_cluster(1);
    assert!(trace(&c, Kind::Pod, &ObjKey::new("default", "nope")).is_none());
}
