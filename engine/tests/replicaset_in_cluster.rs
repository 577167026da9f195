//! The ReplicaSet controller inside the cluster: slow start and FailedCreate.

mod common;
use kubeplay_engine::api::*;
use kubeplay_engine::client::Request;
use kubeplay_engine::cluster::{kubectl, Cluster};

fn replicaset(replicas: i64, image: &str) -> ReplicaSet {
    let mut labels = StringMap::new();
    labels.insert("app".into(), "bare".into());
    ReplicaSet {
        metadata: ObjectMeta {
            name: "bare".into(),
            ..Default::default()
        },
        spec: ReplicaSetSpec {
            replicas,
            min_ready_seconds: 0,
            selector: LabelSelector::from_labels(&labels),
            template: PodTemplateSpec {
                metadata: ObjectMeta {
                    labels,
                    ..Default::default()
                },
                spec: PodSpec {
                    containers: vec![Container {
                        name: "app".into(),
                        image: image.into(),
                        ..Default::default()
                    }],
                    ..Default::default()
                },
            },
        },
        status: Default::default(),
    }
}

#[test]
fn creates_that_fail_stop_after_the_first_slow_start_batch_with_a_failed_create_event() {
    let mut c = Cluster::with_default_nodes(1);
    // A template the Pod validation refuses (an image with a leading blank, which
    // a template may keep and a Pod may not): every create fails.
    c.submit(
        &kubectl(),
        Request::Create {
            object: Object::ReplicaSet(Box::new(replicaset(8, " busybox"))),
            event: None,
        },
    )
    .unwrap();
    c.advance(300);
    // One sync: batch of 1 failed, the other 7 creates were skipped.
    let attempts: Vec<_> = c
        .failed
        .iter()
        .filter(|f| f.writer == "replicaset-controller")
        .collect();
    assert_eq!(attempts.len(), 1, "{attempts:?}");
    let ev = c
        .events()
        .into_iter()
        .find(|e| e.reason == "FailedCreate")
        .expect("FailedCreate event");
    assert_eq!(ev.type_, "Warning");
    assert!(
        ev.message.starts_with("Error creating: Pod \"bare-"),
        "{}",
        ev.message
    );
    assert!(
        ev.message
            .ends_with("is invalid: spec.containers[0].image: Invalid value: \" busybox\": must not have leading or trailing whitespace"),
        "{}",
        ev.message
    );
    assert_eq!(c.store.count(Kind::Pod), 0);
}

#[test]
fn a_bare_replicaset_creates_all_its_pods_in_one_sync_when_nothing_fails() {
    let mut c = Cluster::with_default_nodes(1);
    c.submit(
        &kubectl(),
        Request::Create {
            object: Object::ReplicaSet(Box::new(replicaset(7, "busybox:1.36"))),
            event: None,
        },
    )
    .unwrap();
    c.advance(300);
    assert_eq!(c.store.count(Kind::Pod), 7);
    assert!(c.settle(120_000));
    let rs = c.store.list::<ReplicaSet>().next().unwrap();
    assert_eq!((rs.status.replicas, rs.status.ready_replicas), (7, 7));
}

#[test]
fn scaling_two_thousand_pods_down_ranks_victims_without_panicking() {
    // Upstream's ActivePodsWithRanks.Less is not a strict total order (ready times in
    // one log bucket compare by uid, equal ones fall through to restarts and age); Go's
    // sort tolerates that, Rust's sort panics on it. The ranking must not crash.
    let mut c = kubeplay_engine::cluster::Cluster::new(5);
    let o = kubeplay_engine::command::run(
        &mut c,
        "sim reset --nodes 20 --pods 110",
        None,
        &kubeplay_engine::command::NoFiles,
    );
    assert!(o.ok);
    c.create_deployment("web", "nginx:1.27", 2000, "", "")
        .unwrap();
    assert!(c.settle(600_000));
    for replicas in [1999, 1500, 10] {
        let o = kubeplay_engine::command::run(
            &mut c,
            &format!("kubectl scale deployment web --replicas={replicas}"),
            None,
            &kubeplay_engine::command::NoFiles,
        );
        assert!(o.ok);
        assert!(c.settle(600_000));
    }
    let d = c
        .store
        .get::<kubeplay_engine::api::Deployment>(&kubeplay_engine::apiserver::ObjKey::new(
            "default", "web",
        ))
        .unwrap();
    assert_eq!(d.status.ready_replicas, 10);
}

#[test]
fn a_replica_set_that_cannot_create_pods_retries_with_a_doubling_back_off() {
    let mut c = Cluster::with_default_nodes(1);
    c.submit(
        &kubectl(),
        Request::Create {
            object: Object::ReplicaSet(Box::new(replicaset(3, " busybox"))),
            event: None,
        },
    )
    .unwrap();
    c.advance(120_000);
    let times: Vec<u64> = c
        .failed
        .iter()
        .filter(|f| f.writer == "replicaset-controller")
        .map(|f| f.time)
        .collect();
    // client-go's per-item back-off: 5 ms doubling (each retry also waits the
    // controller's 200 ms wake-up), so two minutes hold a dozen attempts, not hundreds.
    assert!((10..=16).contains(&times.len()), "{times:?}");
    let gaps: Vec<u64> = times.windows(2).map(|w| w[1] - w[0]).collect();
    assert!(
        gaps.windows(2).all(|g| g[1] >= g[0]),
        "gaps never shrink: {gaps:?}"
    );
    assert!(gaps.last().unwrap() > &20_000, "{gaps:?}");
    // And the Events stay few: repeated FailedCreate is counted, not listed.
    let failed_create = c
        .events()
        .into_iter()
        .filter(|e| e.reason == "FailedCreate")
        .count();
    assert!(failed_create <= 10, "{failed_create} FailedCreate events");
}
