use super::*;
use crate::apiserver::Store;
use crate::rng::Rng;

fn labels(pairs: &[(&str, &str)]) -> StringMap {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn rs(replicas: i64) -> ReplicaSet {
    let l = labels(&[("app", "web")]);
    ReplicaSet {
        metadata: ObjectMeta {
            name: "web-abc".into(),
            namespace: "default".into(),
            ..Default::default()
        },
        spec: ReplicaSetSpec {
            replicas,
            min_ready_seconds: 0,
            selector: LabelSelector::from_labels(&l),
            template: PodTemplateSpec {
                metadata: ObjectMeta {
                    labels: l,
                    ..Default::default()
                },
                spec: PodSpec {
                    containers: vec![Container {
                        name: "nginx".into(),
                        image: "nginx".into(),
                        ..Default::default()
                    }],
                    ..Default::default()
                },
            },
        },
        status: Default::default(),
    }
}

/// A store holding `rs` and `pods` of it (created through the API server).
fn world(replicas: i64, pods: usize) -> (Store, ObjKey) {
    let mut store = Store::for_tests();
    let mut rng = Rng::new(1);
    let ch = store
        .create(
            0,
            &mut rng,
            Object::ReplicaSet(Box::new(rs(replicas))),
            "test",
        )
        .unwrap();
    let Some(Object::ReplicaSet(created)) = ch.new.map(std::sync::Arc::unwrap_or_clone) else {
        unreachable!()
    };
    for _ in 0..pods {
        store
            .create(
                0,
                &mut rng,
                Object::Pod(Box::new(pod_from_template(&created))),
                "test",
            )
            .unwrap();
    }
    (store, ObjKey::new("default", "web-abc"))
}

#[test]
fn a_replicaset_with_too_few_pods_asks_for_exactly_the_missing_creates() {
    let (store, key) = world(3, 1);
    let r = ReplicaSetController.sync_replica_set(&store, &key, 0);
    let Some(Request::SlowStart(batch)) = r.requests.first() else {
        panic!("{:?}", r.requests)
    };
    let created: Vec<&Request> = batch
        .iter()
        .filter(|q| matches!(q, Request::Create { .. }))
        .collect();
    assert_eq!(created.len(), 2);
    let Request::Create {
        object: Object::Pod(p),
        event: Some(e),
    } = created[0]
    else {
        panic!("{:?}", created[0])
    };
    assert_eq!(p.metadata.generate_name, "web-abc-");
    assert_eq!(p.metadata.labels, labels(&[("app", "web")]));
    let owner = p.metadata.controller_ref().unwrap();
    assert_eq!(
        (
            owner.kind.as_str(),
            owner.name.as_str(),
            owner.block_owner_deletion
        ),
        ("ReplicaSet", "web-abc", Some(true))
    );
    assert_eq!(
        (e.reason, e.message_prefix),
        ("SuccessfulCreate", "Created pod: ")
    );
    // And a status write saying what was observed: one pod.
    let Some(Request::UpdateStatus(Object::ReplicaSet(s))) = r.requests.last() else {
        panic!()
    };
    assert_eq!(s.status.replicas, 1);
    assert_eq!(r.requests.len(), 2);
}

#[test]
fn a_replicaset_with_the_right_count_asks_for_nothing_but_its_first_status() {
    let (store, key) = world(2, 2);
    let r = ReplicaSetController.sync_replica_set(&store, &key, 0);
    assert_eq!(r.requests.len(), 1);
    assert!(matches!(&r.requests[0], Request::UpdateStatus(_)));
}

#[test]
fn a_replicaset_with_too_many_pods_deletes_the_surplus_with_uid_preconditions() {
    let (store, key) = world(1, 3);
    let r = ReplicaSetController.sync_replica_set(&store, &key, 0);
    let deletes: Vec<&Request> = r
        .requests
        .iter()
        .filter(|q| matches!(q, Request::Delete { .. }))
        .collect();
    assert_eq!(deletes.len(), 2);
    for d in deletes {
        let Request::Delete {
            kind,
            options,
            event: Some(e),
            ..
        } = d
        else {
            panic!()
        };
        assert_eq!(*kind, Kind::Pod);
        assert!(options.precondition_uid.is_some());
        assert_eq!(e.reason, "SuccessfulDelete");
    }
}

#[test]
fn a_matching_orphan_is_adopted_and_a_non_matching_owned_pod_is_released() {
    let (mut store, key) = world(2, 1);
    let mut rng = Rng::new(9);
    // An orphan with matching labels.
    let orphan = Pod {
        metadata: ObjectMeta {
            name: "stray".into(),
            labels: labels(&[("app", "web")]),
            ..Default::default()
        },
        spec: PodSpec {
            containers: vec![Container {
                name: "c".into(),
                image: "i".into(),
                ..Default::default()
            }],
            ..Default::default()
        },
        status: Default::default(),
    };
    store
        .create(0, &mut rng, Object::Pod(Box::new(orphan)), "kubectl")
        .unwrap();
    // Relabel the owned pod so it no longer matches.
    let owned = store
        .list::<Pod>()
        .find(|p| p.metadata.name != "stray")
        .unwrap()
        .clone();
    let mut relabeled = owned.clone();
    relabeled.metadata.labels = labels(&[("app", "debug")]);
    store
        .update(0, Object::Pod(Box::new(relabeled)), "kubectl", false)
        .unwrap();
    let r = ReplicaSetController.sync_replica_set(&store, &key, 0);
    let updates: Vec<&Pod> = r
        .requests
        .iter()
        .filter_map(|q| match q {
            Request::Update(Object::Pod(p)) => Some(&**p),
            _ => None,
        })
        .collect();
    assert_eq!(updates.len(), 2);
    let released = updates
        .iter()
        .find(|p| p.metadata.name == owned.metadata.name)
        .unwrap();
    assert!(released.metadata.owner_references.is_empty());
    let adopted = updates.iter().find(|p| p.metadata.name == "stray").unwrap();
    assert_eq!(adopted.metadata.controller_ref().unwrap().name, "web-abc");
    // One adopted + none left of ours = 1 active, so one more is created.
    let creates: usize = r
        .requests
        .iter()
        .map(|q| match q {
            Request::SlowStart(b) => b.len(),
            _ => 0,
        })
        .sum();
    assert_eq!(creates, 1);
}

fn ranked_pod(name: &str, node: &str, phase: &str, ready_since: Option<u64>, created: u64) -> Pod {
    let mut p = Pod::default();
    p.metadata.name = name.into();
    p.metadata.uid = format!("uid-{name}");
    p.metadata.created_ms = created;
    p.spec.node_name = node.into();
    p.status.phase = phase.into();
    if let Some(t) = ready_since {
        p.status.conditions.push(Condition {
            type_: "Ready".into(),
            status: "True".into(),
            transition_ms: t,
            ..Default::default()
        });
    }
    p
}

/// Each row: two pods differing in the rule under test; `first` must be deleted first.
#[test]
fn scale_down_victims_follow_the_upstream_ranking_rule_by_rule() {
    let now = 1_000_000;
    let base = |n: &str| ranked_pod(n, "node-1", "Running", Some(10_000), 5_000);
    let mut cases: Vec<(&str, Pod, Pod, i64, i64)> = Vec::new();
    // 1. unassigned before assigned
    cases.push((
        "unassigned",
        ranked_pod("a", "", "Pending", None, 5_000),
        base("b"),
        0,
        1,
    ));
    // 2. Pending before Running
    cases.push((
        "pending",
        ranked_pod("a", "node-1", "Pending", None, 5_000),
        base("b"),
        1,
        1,
    ));
    // 3. not ready before ready
    cases.push((
        "not ready",
        ranked_pod("a", "node-1", "Running", None, 5_000),
        base("b"),
        1,
        1,
    ));
    // 4. lower deletion cost first
    let mut cheap = base("a");
    cheap.metadata.annotations.insert(
        "controller.kubernetes.io/pod-deletion-cost".into(),
        "-5".into(),
    );
    cases.push(("deletion cost", cheap, base("b"), 1, 1));
    // 5. more siblings on the same node first
    cases.push(("doubled up", base("a"), base("b"), 3, 1));
    // 6. more recently ready first (different log2 buckets)
    cases.push((
        "ready recently",
        ranked_pod("a", "node-1", "Running", Some(990_000), 5_000),
        base("b"),
        1,
        1,
    ));
    // 7. more restarts first
    let mut crashy = base("a");
    crashy.status.container_statuses.push(ContainerStatus {
        name: "c".into(),
        restart_count: 4,
        ..Default::default()
    });
    cases.push(("restarts", crashy, base("b"), 1, 1));
    // 8. newer first
    cases.push((
        "newer",
        ranked_pod("a", "node-1", "Running", Some(10_000), 900_000),
        base("b"),
        1,
        1,
    ));
    for (rule, first, second, rank_first, rank_second) in cases {
        let ord = compare_for_deletion(&(&first, rank_first), &(&second, rank_second), now);
        assert_eq!(ord, Ordering::Less, "rule: {rule}");
        let rev = compare_for_deletion(&(&second, rank_second), &(&first, rank_first), now);
        assert_eq!(rev, Ordering::Greater, "rule reversed: {rule}");
    }
}

#[test]
fn pods_doubled_up_on_a_node_are_deleted_before_lone_ones() {
    let a = ranked_pod("a", "node-1", "Running", Some(10_000), 5_000);
    let b = ranked_pod("b", "node-1", "Running", Some(10_000), 5_000);
    let c = ranked_pod("c", "node-2", "Running", Some(10_000), 5_000);
    let all = [&a, &b, &c];
    let victims = pods_to_delete(&all, &all, 1, 1_000_000);
    assert_ne!(victims[0].metadata.name, "c");
}
