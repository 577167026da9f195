use super::*;
use crate::rng::Rng;

fn set(replicas: i64, policy: &str) -> StatefulSet {
    let mut labels = StringMap::new();
    labels.insert("app".into(), "db".into());
    let claim = PersistentVolumeClaim {
        metadata: ObjectMeta {
            name: "data".into(),
            ..Default::default()
        },
        spec: PersistentVolumeClaimSpec {
            access_modes: vec!["ReadWriteOnce".into()],
            resources: VolumeResourceRequirements {
                requests: [("storage".to_string(), "1Gi".to_string())].into(),
                ..Default::default()
            },
            ..Default::default()
        },
        status: Default::default(),
    };
    StatefulSet {
        metadata: ObjectMeta {
            name: "db".into(),
            namespace: "default".into(),
            ..Default::default()
        },
        spec: StatefulSetSpec {
            replicas,
            selector: LabelSelector::from_labels(&labels),
            service_name: "db".into(),
            pod_management_policy: policy.into(),
            template: PodTemplateSpec {
                metadata: ObjectMeta {
                    labels,
                    ..Default::default()
                },
                spec: PodSpec {
                    containers: vec![Container {
                        name: "pg".into(),
                        image: "postgres:16".into(),
                        ..Default::default()
                    }],
                    ..Default::default()
                },
            },
            volume_claim_templates: vec![claim],
            ..Default::default()
        },
        status: Default::default(),
    }
}

fn world(s: StatefulSet) -> (Store, Rng, ObjKey) {
    let mut store = Store::for_tests();
    let mut rng = Rng::new(1);
    store
        .create(0, &mut rng, Object::StatefulSet(Box::new(s)), "test")
        .unwrap();
    (store, rng, ObjKey::new("default", "db"))
}

/// Sends the requests' writes to the store (the Events and status left out), as the
/// API server would accept them.
fn apply(store: &mut Store, rng: &mut Rng, requests: &[Request]) {
    for r in requests {
        match r {
            Request::Create { object, .. } => {
                store.create(0, rng, object.clone(), "test").unwrap();
            }
            Request::UpdateStatus(o) => {
                store.update_status(0, o.clone(), "test").unwrap();
            }
            _ => {}
        }
    }
}

/// A short description of each request: `create Pod db-0`, `event SuccessfulCreate …`.
fn describe(requests: &[Request]) -> Vec<String> {
    requests
        .iter()
        .map(|r| match r {
            Request::Create { object, .. } => {
                format!("create {} {}", object.kind().name(), object.meta().name)
            }
            Request::Delete { kind, key, .. } => format!("delete {} {}", kind.name(), key.name),
            Request::Update(o) => format!("update {} {}", o.kind().name(), o.meta().name),
            Request::UpdateStatus(o) => format!("status {} {}", o.kind().name(), o.meta().name),
            Request::Event {
                reason, message, ..
            } => format!("event {reason}: {message}"),
            other => format!("{other:?}"),
        })
        .collect()
}

fn make_running_and_ready(store: &mut Store, name: &str) {
    let key = ObjKey::new("default", name);
    let mut p = store.get::<Pod>(&key).unwrap().clone();
    p.status.phase = PodPhase::Running.into();
    p.status.conditions.push(Condition {
        type_: "Ready".into(),
        status: "True".into(),
        ..Default::default()
    });
    store
        .update_status(0, Object::Pod(Box::new(p)), "test")
        .unwrap();
}

#[test]
fn an_ordered_set_creates_its_first_claim_and_pod_and_then_waits_for_it() {
    let (mut store, mut rng, key) = world(set(3, "OrderedReady"));
    let r = sync_stateful_set(&store, &key, 0);
    let rev = revision_name(
        "db",
        &revision_patch(&store.get::<StatefulSet>(&key).unwrap().spec.template),
        0,
    );
    assert_eq!(
        describe(&r.requests),
        vec![
            format!("create ControllerRevision {rev}"),
            "create PersistentVolumeClaim data-db-0".to_string(),
            "event SuccessfulCreate: create Claim data-db-0 Pod db-0 in StatefulSet db success"
                .into(),
            "create Pod db-0".into(),
            "event SuccessfulCreate: create Pod db-0 in StatefulSet db successful".into(),
            "status StatefulSet db".into(),
        ]
    );
    apply(&mut store, &mut rng, &r.requests);
    // db-0 exists but is not Running and Ready: nothing more.
    let r = sync_stateful_set(&store, &key, 1);
    assert_eq!(describe(&r.requests), vec!["status StatefulSet db"]);
    apply(&mut store, &mut rng, &r.requests);
    make_running_and_ready(&mut store, "db-0");
    let r = sync_stateful_set(&store, &key, 2);
    assert_eq!(
        describe(&r.requests)[..3],
        [
            "create PersistentVolumeClaim data-db-1",
            "event SuccessfulCreate: create Claim data-db-1 Pod db-1 in StatefulSet db success",
            "create Pod db-1",
        ]
    );
}

#[test]
fn a_parallel_set_creates_every_pod_at_once() {
    let (store, _, key) = world(set(3, "Parallel"));
    let r = sync_stateful_set(&store, &key, 0);
    let pods: Vec<String> = describe(&r.requests)
        .into_iter()
        .filter(|d| d.starts_with("create Pod"))
        .collect();
    assert_eq!(
        pods,
        vec!["create Pod db-0", "create Pod db-1", "create Pod db-2"]
    );
}

#[test]
fn a_pod_carries_its_identity_and_its_ordinals_claim() {
    let s = set(1, "OrderedReady");
    let p = new_stateful_set_pod(&s, &s.spec.template, "db-abc", 4);
    assert_eq!(p.metadata.name, "db-4");
    assert_eq!(p.metadata.labels[POD_NAME_LABEL], "db-4");
    assert_eq!(p.metadata.labels[POD_INDEX_LABEL], "4");
    assert_eq!(p.metadata.labels[CONTROLLER_REVISION_HASH], "db-abc");
    assert_eq!(p.spec.extra["hostname"], "db-4");
    assert_eq!(p.spec.extra["subdomain"], "db");
    assert_eq!(
        pod_volumes(&p.spec),
        vec![("data".to_string(), VolumeSource::Claim("data-db-4".into()))]
    );
}

#[test]
fn a_pod_that_still_exists_while_terminating_is_not_replaced() {
    let (mut store, mut rng, key) = world(set(1, "OrderedReady"));
    let r = sync_stateful_set(&store, &key, 0);
    apply(&mut store, &mut rng, &r.requests);
    make_running_and_ready(&mut store, "db-0");
    // The Pod is being deleted (its node is gone, nobody confirms the kill).
    let pk = ObjKey::new("default", "db-0");
    let mut p = store.get::<Pod>(&pk).unwrap().clone();
    p.metadata.deletion_timestamp = Some("2025-01-01T00:00:00Z".into());
    p.metadata.deletion_ms = Some(1);
    store
        .update(0, Object::Pod(Box::new(p)), "test", false)
        .unwrap();
    let r = sync_stateful_set(&store, &key, 10);
    assert!(
        describe(&r.requests)
            .iter()
            .all(|d| !d.starts_with("create Pod")),
        "{:?}",
        describe(&r.requests)
    );
}

#[test]
fn scaling_down_deletes_the_highest_ordinal_first_and_one_at_a_time() {
    let (mut store, mut rng, key) = world(set(3, "OrderedReady"));
    for i in 0..3 {
        let r = sync_stateful_set(&store, &key, i);
        apply(&mut store, &mut rng, &r.requests);
        make_running_and_ready(&mut store, &format!("db-{i}"));
    }
    let mut s = store.get::<StatefulSet>(&key).unwrap().clone();
    s.spec.replicas = 1;
    store
        .update(0, Object::StatefulSet(Box::new(s)), "test", false)
        .unwrap();
    let r = sync_stateful_set(&store, &key, 10);
    let d = describe(&r.requests);
    let deletes: Vec<&String> = d.iter().filter(|x| x.starts_with("delete")).collect();
    assert_eq!(deletes, vec!["delete Pod db-2"]);
    assert!(d.contains(
        &"event SuccessfulDelete: delete Pod db-2 in StatefulSet db successful".to_string()
    ));
}

#[test]
fn a_partitioned_update_replaces_only_the_ordinals_at_or_above_the_partition() {
    let (mut store, mut rng, key) = world(set(3, "OrderedReady"));
    for i in 0..3 {
        let r = sync_stateful_set(&store, &key, i);
        apply(&mut store, &mut rng, &r.requests);
        make_running_and_ready(&mut store, &format!("db-{i}"));
    }
    let r = sync_stateful_set(&store, &key, 5);
    apply(&mut store, &mut rng, &r.requests);
    let mut s = store.get::<StatefulSet>(&key).unwrap().clone();
    s.spec.template.spec.containers[0].image = "postgres:17".into();
    s.spec.update_strategy.rolling_update = Some(RollingUpdateStatefulSetStrategy { partition: 2 });
    store
        .update(0, Object::StatefulSet(Box::new(s)), "test", false)
        .unwrap();
    let r = sync_stateful_set(&store, &key, 10);
    let d = describe(&r.requests);
    assert!(d[0].starts_with("create ControllerRevision db-"), "{d:?}");
    let deletes: Vec<&String> = d.iter().filter(|x| x.starts_with("delete")).collect();
    assert_eq!(deletes, vec!["delete Pod db-2"]);
    // Recreated below the partition, a Pod keeps the old template.
    let s = store.get::<StatefulSet>(&key).unwrap();
    let old = (
        s.status.current_revision.as_str(),
        &set(3, "").spec.template,
    );
    let new = ("db-new", &s.spec.template);
    assert_eq!(
        new_versioned_pod(s, old, new, 1).spec.containers[0].image,
        "postgres:16"
    );
    assert_eq!(
        new_versioned_pod(s, old, new, 2).spec.containers[0].image,
        "postgres:17"
    );
}

#[test]
fn the_retention_policy_decides_who_owns_a_claim() {
    let mut s = set(1, "OrderedReady");
    s.metadata.uid = "set-uid".into();
    s.spec.persistent_volume_claim_retention_policy.when_deleted = "Delete".into();
    s.spec.persistent_volume_claim_retention_policy.when_scaled = "Delete".into();
    let mut pod = new_stateful_set_pod(&s, &s.spec.template, "r", 3);
    pod.metadata.uid = "pod-uid".into();
    let mut claim = PersistentVolumeClaim::default();
    assert!(update_claim_owner_refs(&mut claim, &s, Some(&pod), true));
    let owners: Vec<&str> = claim
        .metadata
        .owner_references
        .iter()
        .map(|r| r.uid.as_str())
        .collect();
    assert_eq!(owners, vec!["set-uid"]);
    // Scaled away: the Pod owns it instead, so the claim goes with the Pod.
    assert!(update_claim_owner_refs(&mut claim, &s, Some(&pod), false));
    let owners: Vec<&str> = claim
        .metadata
        .owner_references
        .iter()
        .map(|r| r.uid.as_str())
        .collect();
    assert_eq!(owners, vec!["pod-uid"]);
    // Retain/Retain: nobody.
    s.spec.persistent_volume_claim_retention_policy = Default::default();
    assert!(update_claim_owner_refs(&mut claim, &s, Some(&pod), true));
    assert!(claim.metadata.owner_references.is_empty());
}

#[test]
fn a_revision_name_follows_the_template_and_the_collision_count() {
    let s = set(1, "OrderedReady");
    let data = revision_patch(&s.spec.template);
    assert_eq!(data["spec"]["template"]["$patch"], "replace");
    let a = revision_name("db", &data, 0);
    assert_eq!(a, revision_name("db", &data, 0));
    assert_ne!(a, revision_name("db", &data, 1));
    assert!(a.starts_with("db-"));
}

#[test]
fn an_ordinal_is_read_only_from_the_sets_own_names() {
    assert_eq!(get_ordinal("web", "web-12"), 12);
    assert_eq!(get_ordinal("web", "web-x"), -1);
    assert_eq!(get_ordinal("web", "webby-1"), -1);
    assert_eq!(get_ordinal("web", "web-"), -1);
}
