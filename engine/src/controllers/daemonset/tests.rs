use super::*;
use crate::rng::Rng;

fn ds() -> DaemonSet {
    let mut labels = StringMap::new();
    labels.insert("app".into(), "logs".into());
    DaemonSet {
        metadata: ObjectMeta {
            name: "logs".into(),
            namespace: "default".into(),
            ..Default::default()
        },
        spec: DaemonSetSpec {
            selector: LabelSelector::from_labels(&labels),
            template: PodTemplateSpec {
                metadata: ObjectMeta {
                    labels,
                    ..Default::default()
                },
                spec: PodSpec {
                    containers: vec![Container {
                        name: "agent".into(),
                        image: "fluentd".into(),
                        ..Default::default()
                    }],
                    ..Default::default()
                },
            },
            ..Default::default()
        },
        status: Default::default(),
    }
}

fn node(name: &str, taints: Vec<Taint>) -> Node {
    Node {
        metadata: ObjectMeta {
            name: name.into(),
            ..Default::default()
        },
        spec: NodeSpec {
            taints,
            ..Default::default()
        },
        ..Default::default()
    }
}

fn world(nodes: Vec<Node>) -> (Store, ObjKey) {
    let mut store = Store::for_tests();
    let mut rng = Rng::new(1);
    for n in nodes {
        store
            .create(0, &mut rng, Object::Node(Box::new(n)), "test")
            .unwrap();
    }
    store
        .create(0, &mut rng, Object::DaemonSet(Box::new(ds())), "test")
        .unwrap();
    (store, ObjKey::new("default", "logs"))
}

#[test]
fn a_daemonset_creates_one_pinned_pod_per_node_with_the_daemon_tolerations() {
    let (store, key) = world(vec![node("node-1", vec![]), node("node-2", vec![])]);
    let r = DaemonSetController::default().sync_daemon_set(&store, &key, 0);
    // The first sync snapshots the template as revision 1, then creates the Pods.
    let Some(Request::Create {
        object: Object::ControllerRevision(rev),
        ..
    }) = r.requests.first()
    else {
        panic!("{:?}", r.requests)
    };
    // The hash of the template as stored (defaulted by the API server).
    let hash = compute_hash(&store.get::<DaemonSet>(&key).unwrap().spec.template, None);
    assert_eq!(rev.metadata.name, format!("logs-{hash}"));
    assert_eq!(rev.revision, 1);
    assert_eq!(
        rev.metadata.labels.get(CONTROLLER_REVISION_HASH),
        Some(&hash)
    );
    let Some(Request::SlowStart(batch)) = r.requests.get(1) else {
        panic!("{:?}", r.requests)
    };
    let pinned: Vec<String> = batch
        .iter()
        .filter_map(|q| match q {
            Request::Create {
                object: Object::Pod(p),
                ..
            } => target_node(p),
            _ => None,
        })
        .collect();
    assert_eq!(pinned, vec!["node-1", "node-2"]);
    let Request::Create {
        object: Object::Pod(p),
        ..
    } = &batch[0]
    else {
        panic!()
    };
    let tols: Vec<(&str, &str)> = p
        .spec
        .tolerations
        .iter()
        .map(|t| (t.key.as_str(), t.effect.as_str()))
        .collect();
    assert_eq!(
        tols,
        vec![
            ("node.kubernetes.io/not-ready", "NoExecute"),
            ("node.kubernetes.io/unreachable", "NoExecute"),
            ("node.kubernetes.io/disk-pressure", "NoSchedule"),
            ("node.kubernetes.io/memory-pressure", "NoSchedule"),
            ("node.kubernetes.io/pid-pressure", "NoSchedule"),
            ("node.kubernetes.io/unschedulable", "NoSchedule"),
        ]
    );
    assert!(p.metadata.labels.contains_key(CONTROLLER_REVISION_HASH));
    assert_eq!(p.spec.node_name, "", "the scheduler binds it");
}

#[test]
fn a_node_with_an_untolerated_taint_gets_no_pod_and_is_not_desired() {
    let taint = Taint {
        key: "dedicated".into(),
        value: "gpu".into(),
        effect: "NoSchedule".into(),
        ..Default::default()
    };
    let (store, key) = world(vec![node("node-1", vec![]), node("node-2", vec![taint])]);
    let r = DaemonSetController::default().sync_daemon_set(&store, &key, 0);
    let status = r
        .requests
        .iter()
        .find_map(|q| match q {
            Request::UpdateStatus(Object::DaemonSet(d)) => Some(d.status.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!(status.desired_number_scheduled, 1);
    assert_eq!(status.number_unavailable, 1);
}

#[test]
fn a_noschedule_taint_keeps_a_running_pod_a_noexecute_one_does_not() {
    let d = ds();
    let no_schedule = node(
        "n",
        vec![Taint {
            key: "k".into(),
            effect: "NoSchedule".into(),
            ..Default::default()
        }],
    );
    assert_eq!(node_should_run_daemon_pod(&no_schedule, &d), (false, true));
    let no_execute = node(
        "n",
        vec![Taint {
            key: "k".into(),
            effect: "NoExecute".into(),
            ..Default::default()
        }],
    );
    assert_eq!(node_should_run_daemon_pod(&no_execute, &d), (false, false));
    let not_ready = node(
        "n",
        vec![Taint {
            key: "node.kubernetes.io/not-ready".into(),
            effect: "NoExecute".into(),
            ..Default::default()
        }],
    );
    assert_eq!(node_should_run_daemon_pod(&not_ready, &d), (true, true));
}

/// Every ControllerRevision in `r`'s requests: (verb, name, revision).
fn revision_writes(r: &Reconcile) -> Vec<(&'static str, String, i64)> {
    r.requests
        .iter()
        .filter_map(|q| match q {
            Request::Create {
                object: Object::ControllerRevision(c),
                ..
            } => Some(("create", c.metadata.name.clone(), c.revision)),
            Request::Update(Object::ControllerRevision(c)) => {
                Some(("update", c.metadata.name.clone(), c.revision))
            }
            Request::Delete {
                kind: Kind::ControllerRevision,
                key,
                ..
            } => Some(("delete", key.name.clone(), 0)),
            _ => None,
        })
        .collect()
}

#[test]
fn each_template_gets_a_revision_and_a_template_that_comes_back_moves_to_the_end() {
    let (mut store, key) = world(vec![node("node-1", vec![])]);
    let mut rng = Rng::new(2);
    let mut c = DaemonSetController::default();
    let apply = |store: &mut Store, rng: &mut Rng, r: &Reconcile| {
        for q in &r.requests {
            if let Request::Create {
                object: o @ Object::ControllerRevision(_),
                ..
            } = q
            {
                store.create(0, rng, o.clone(), "test").unwrap();
            }
            if let Request::Update(o @ Object::ControllerRevision(_)) = q {
                store.update(0, o.clone(), "test", false).unwrap();
            }
        }
    };
    let first = c.sync_daemon_set(&store, &key, 0);
    let h1 = compute_hash(&store.get::<DaemonSet>(&key).unwrap().spec.template, None);
    assert_eq!(
        revision_writes(&first),
        vec![("create", format!("logs-{h1}"), 1)]
    );
    apply(&mut store, &mut rng, &first);
    // Nothing new while the template stays.
    assert_eq!(revision_writes(&c.sync_daemon_set(&store, &key, 0)), vec![]);
    // A new image: revision 2.
    let mut d = store.get::<DaemonSet>(&key).unwrap().clone();
    d.spec.template.spec.containers[0].image = "fluentd:2".into();
    store
        .update(0, Object::DaemonSet(Box::new(d.clone())), "test", false)
        .unwrap();
    let h2 = compute_hash(&store.get::<DaemonSet>(&key).unwrap().spec.template, None);
    let second = c.sync_daemon_set(&store, &key, 0);
    assert_eq!(
        revision_writes(&second),
        vec![("create", format!("logs-{h2}"), 2)]
    );
    apply(&mut store, &mut rng, &second);
    // Back to the first image (a rollback): revision 1 becomes revision 3.
    d = store.get::<DaemonSet>(&key).unwrap().clone();
    d.spec.template.spec.containers[0].image = "fluentd".into();
    store
        .update(0, Object::DaemonSet(Box::new(d)), "test", false)
        .unwrap();
    let back = c.sync_daemon_set(&store, &key, 0);
    assert_eq!(
        revision_writes(&back),
        vec![("update", format!("logs-{h1}"), 3)]
    );
}
