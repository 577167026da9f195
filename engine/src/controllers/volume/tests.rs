use super::*;
use crate::apiserver::Store;
use crate::client::Request;
use crate::rng::Rng;

fn claim(class: Option<&str>) -> PersistentVolumeClaim {
    PersistentVolumeClaim {
        metadata: ObjectMeta {
            name: "data".into(),
            namespace: "default".into(),
            ..Default::default()
        },
        spec: PersistentVolumeClaimSpec {
            access_modes: vec!["ReadWriteOnce".into()],
            resources: VolumeResourceRequirements {
                requests: [("storage".to_string(), "1Gi".to_string())].into(),
                ..Default::default()
            },
            storage_class_name: class.map(str::to_string),
            ..Default::default()
        },
        status: Default::default(),
    }
}

fn volume(name: &str, size: &str, class: &str) -> PersistentVolume {
    PersistentVolume {
        metadata: ObjectMeta {
            name: name.into(),
            ..Default::default()
        },
        spec: PersistentVolumeSpec {
            capacity: [("storage".to_string(), size.to_string())].into(),
            access_modes: vec!["ReadWriteOnce".into(), "ReadOnlyMany".into()],
            storage_class_name: class.into(),
            persistent_volume_reclaim_policy: "Retain".into(),
            ..Default::default()
        },
        status: Default::default(),
    }
}

fn reasons(requests: &[Request]) -> Vec<String> {
    requests
        .iter()
        .map(|r| match r {
            Request::Update(o) => format!("update {}", o.meta().name),
            Request::UpdateStatus(o) => format!("status {}", o.meta().name),
            Request::Event { reason, .. } => format!("event {reason}"),
            other => format!("{other:?}"),
        })
        .collect()
}

#[test]
fn a_claim_binds_the_smallest_available_volume_that_fits() {
    let mut store = Store::for_tests();
    let mut rng = Rng::new(1);
    for v in [
        volume("big", "10Gi", "manual"),
        volume("small", "2Gi", "manual"),
        volume("tiny", "500Mi", "manual"),
    ] {
        store
            .create(0, &mut rng, Object::PersistentVolume(Box::new(v)), "t")
            .unwrap();
    }
    store
        .create(
            0,
            &mut rng,
            Object::PersistentVolumeClaim(Box::new(claim(Some("manual")))),
            "t",
        )
        .unwrap();
    let c = store
        .get::<PersistentVolumeClaim>(&ObjKey::new("default", "data"))
        .unwrap();
    let r = PersistentVolumeController::default().sync_claim(&store, c, 0);
    assert_eq!(
        reasons(&r),
        vec!["update small", "status small", "update data", "status data"]
    );
    let Request::UpdateStatus(Object::PersistentVolumeClaim(bound)) = &r[3] else {
        panic!()
    };
    assert_eq!(bound.status.phase, "Bound");
    assert_eq!(bound.status.capacity["storage"], "2Gi");
}

#[test]
fn a_claim_of_the_default_class_asks_its_external_provisioner_once() {
    let mut store = Store::for_tests();
    let mut rng = Rng::new(1);
    store
        .create(
            0,
            &mut rng,
            Object::StorageClass(default_storage_class()),
            "t",
        )
        .unwrap();
    store
        .create(
            0,
            &mut rng,
            Object::PersistentVolumeClaim(Box::new(claim(Some("standard")))),
            "t",
        )
        .unwrap();
    let c = store
        .get::<PersistentVolumeClaim>(&ObjKey::new("default", "data"))
        .unwrap();
    let mut ctl = PersistentVolumeController::default();
    assert_eq!(
        reasons(&ctl.sync_claim(&store, c, 0)),
        vec!["update data", "event ExternalProvisioning"]
    );
    let mut annotated = c.clone();
    annotated
        .metadata
        .annotations
        .insert(ANN_STORAGE_PROVISIONER.into(), PROVISIONER.into());
    assert!(ctl.sync_claim(&store, &annotated, 1).is_empty());
}

#[test]
fn a_claim_of_a_missing_class_fails_provisioning_in_the_binders_words() {
    let mut store = Store::for_tests();
    let mut rng = Rng::new(1);
    store
        .create(
            0,
            &mut rng,
            Object::PersistentVolumeClaim(Box::new(claim(Some("fast")))),
            "t",
        )
        .unwrap();
    let c = store
        .get::<PersistentVolumeClaim>(&ObjKey::new("default", "data"))
        .unwrap();
    let r = PersistentVolumeController::default().sync_claim(&store, c, 0);
    let Some(Request::Event {
        reason, message, ..
    }) = r.first()
    else {
        panic!("{r:?}")
    };
    assert_eq!(reason, "ProvisioningFailed");
    assert_eq!(message, "storageclass.storage.k8s.io \"fast\" not found");
}
