use super::*;
use crate::apiserver::Store;
use crate::rng::Rng;

fn deployment(replicas: i64, image: &str) -> Deployment {
    Deployment::create("web", "default", image, replicas)
}

fn key() -> ObjKey {
    ObjKey::new("default", "web")
}

#[test]
fn a_new_deployment_creates_one_hashed_replicaset_at_full_size_and_says_so() {
    let mut store = Store::for_tests();
    let mut rng = Rng::new(1);
    store
        .create(
            0,
            &mut rng,
            Object::Deployment(Box::new(deployment(3, "nginx:1.27"))),
            "kubectl",
        )
        .unwrap();
    let r = DeploymentController::default().sync_deployment(&store, &key(), 0);
    let kinds: Vec<&str> = r
        .requests
        .iter()
        .map(|q| match q {
            Request::Create {
                object: Object::ReplicaSet(_),
                ..
            } => "create-rs",
            Request::Event { reason, .. } if reason == "ScalingReplicaSet" => "event-scaling",
            Request::Update(Object::Deployment(_)) => "update-deployment",
            Request::UpdateStatus(Object::Deployment(_)) => "status-deployment",
            other => panic!("unexpected {other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "create-rs",
            "event-scaling",
            "update-deployment",
            "status-deployment",
            "status-deployment"
        ]
    );
    let Request::Create {
        object: Object::ReplicaSet(rs),
        ..
    } = &r.requests[0]
    else {
        unreachable!()
    };
    let hash = rs.metadata.labels.get("pod-template-hash").unwrap();
    assert_eq!(rs.metadata.name, format!("web-{hash}"));
    assert!(hash
        .chars()
        .all(|c| "bcdfghjklmnpqrstvwxz2456789".contains(c)));
    assert_eq!(rs.spec.replicas, 3);
    assert_eq!(
        rs.spec.selector.match_labels.get("pod-template-hash"),
        Some(hash)
    );
    assert_eq!(
        rs.metadata
            .annotations
            .get("deployment.kubernetes.io/revision")
            .map(String::as_str),
        Some("1")
    );
    assert_eq!(
        rs.metadata
            .annotations
            .get("deployment.kubernetes.io/desired-replicas")
            .map(String::as_str),
        Some("3")
    );
    assert_eq!(
        rs.metadata
            .annotations
            .get("deployment.kubernetes.io/max-replicas")
            .map(String::as_str),
        Some("4")
    );
    let Request::Event { message, .. } = &r.requests[1] else {
        unreachable!()
    };
    assert_eq!(
        *message,
        format!("Scaled up replica set web-{hash} from 0 to 3")
    );
    let Request::UpdateStatus(Object::Deployment(d)) = &r.requests[2 + 1] else {
        unreachable!()
    };
    let c = get_condition(&d.status.conditions, "Progressing").unwrap();
    assert_eq!(
        (c.reason.as_str(), c.message.clone()),
        (
            "NewReplicaSetCreated",
            format!("Created new replica set \"web-{hash}\"")
        )
    );
}

/// Runs the deployment sync and applies its requests to the store, like the cluster does.
fn sync_and_apply(store: &mut Store, rng: &mut Rng, now: u64) -> Vec<Request> {
    let r = DeploymentController::default().sync_deployment(store, &key(), now);
    for q in r.requests.clone() {
        match q {
            Request::Create { object, .. } => {
                drop(store.create(now, rng, object, "deployment-controller"))
            }
            Request::Update(o) => drop(store.update(now, o, "deployment-controller", false)),
            Request::UpdateStatus(o) => drop(store.update_status(now, o, "deployment-controller")),
            _ => {}
        }
    }
    r.requests
}

#[test]
fn scaling_a_deployment_scales_its_only_replicaset_and_records_scaling_replicaset() {
    let mut store = Store::for_tests();
    let mut rng = Rng::new(1);
    store
        .create(
            0,
            &mut rng,
            Object::Deployment(Box::new(deployment(3, "nginx:1.27"))),
            "kubectl",
        )
        .unwrap();
    sync_and_apply(&mut store, &mut rng, 0);
    let mut d = store.get::<Deployment>(&key()).unwrap().clone();
    d.spec.replicas = 5;
    d.metadata.resource_version.clear();
    store
        .update(1, Object::Deployment(Box::new(d)), "kubectl", false)
        .unwrap();
    let requests = sync_and_apply(&mut store, &mut rng, 2);
    let rs_updates: Vec<&ReplicaSet> = requests
        .iter()
        .filter_map(|q| match q {
            Request::Update(Object::ReplicaSet(rs)) => Some(&**rs),
            _ => None,
        })
        .collect();
    assert_eq!(rs_updates.len(), 1);
    assert_eq!(rs_updates[0].spec.replicas, 5);
    assert_eq!(
        rs_updates[0]
            .metadata
            .annotations
            .get("deployment.kubernetes.io/desired-replicas")
            .map(String::as_str),
        Some("5")
    );
    let msg = requests.iter().find_map(|q| match q {
        Request::Event {
            reason, message, ..
        } if reason == "ScalingReplicaSet" => Some(message.clone()),
        _ => None,
    });
    assert_eq!(
        msg,
        Some(format!(
            "Scaled up replica set {} from 3 to 5",
            rs_updates[0].metadata.name
        ))
    );
}

#[test]
fn a_new_template_surges_one_new_pod_before_any_old_one_goes() {
    let mut store = Store::for_tests();
    let mut rng = Rng::new(1);
    store
        .create(
            0,
            &mut rng,
            Object::Deployment(Box::new(deployment(3, "nginx:1.27"))),
            "kubectl",
        )
        .unwrap();
    sync_and_apply(&mut store, &mut rng, 0);
    // Old RS fully available.
    let old = store.list::<ReplicaSet>().next().unwrap().clone();
    let mut s = old.clone();
    s.status = ReplicaSetStatus {
        replicas: 3,
        ready_replicas: 3,
        available_replicas: 3,
        fully_labeled_replicas: 3,
        observed_generation: 1,
        conditions: vec![],
    };
    store
        .update_status(1, Object::ReplicaSet(Box::new(s)), "replicaset-controller")
        .unwrap();
    let mut d = store.get::<Deployment>(&key()).unwrap().clone();
    d.spec.template.spec.containers[0].image = "nginx:1.28".into();
    d.metadata.resource_version.clear();
    store
        .update(2, Object::Deployment(Box::new(d)), "kubectl", false)
        .unwrap();
    let requests = sync_and_apply(&mut store, &mut rng, 3);
    let new_rs = requests.iter().find_map(|q| match q {
        Request::Create {
            object: Object::ReplicaSet(rs),
            ..
        } => Some(rs.clone()),
        _ => None,
    });
    let new_rs = new_rs.expect("a new ReplicaSet");
    // 3 replicas, 25%: surge 1, unavailable 0 → the new RS starts at 1, the old one stays at 3.
    assert_eq!(new_rs.spec.replicas, 1);
    assert_eq!(
        new_rs
            .metadata
            .annotations
            .get("deployment.kubernetes.io/revision")
            .map(String::as_str),
        Some("2")
    );
    assert!(!requests.iter().any(|q| matches!(q, Request::Update(Object::ReplicaSet(rs)) if rs.metadata.name == old.metadata.name && rs.spec.replicas < 3)));
}
