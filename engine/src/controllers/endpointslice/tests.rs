use super::endpoints::EndpointsController;
use super::*;
use crate::apiserver::Store;
use crate::rng::Rng;

fn labels(pairs: &[(&str, &str)]) -> StringMap {
    pairs
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// A store with a Service `web` (selector app=web, port 80 → container port `http`)
/// and a node `node-1`.
fn world() -> (Store, Rng) {
    let mut store = Store::for_tests();
    let mut rng = Rng::new(1);
    let svc = Service {
        metadata: ObjectMeta {
            name: "web".into(),
            namespace: "default".into(),
            labels: labels(&[("team", "a")]),
            ..Default::default()
        },
        spec: ServiceSpec {
            selector: Some(labels(&[("app", "web")])),
            ports: vec![ServicePort {
                port: 80,
                target_port: Some(IntOrString::String("http".into())),
                ..Default::default()
            }],
            ..Default::default()
        },
        status: Default::default(),
    };
    store.create(0, &mut rng, svc.into(), "test").unwrap();
    let mut node = Node::default();
    node.metadata.name = "node-1".into();
    node.metadata
        .labels
        .insert("topology.kubernetes.io/zone".into(), "zone-a".into());
    store.create(0, &mut rng, node.into(), "test").unwrap();
    (store, rng)
}

/// A Pod of the Service on node-1 with `ip` (empty: none yet), Ready or not.
fn pod(store: &mut Store, rng: &mut Rng, name: &str, ip: &str, ready: bool) {
    let mut p = Pod::default();
    p.metadata.name = name.into();
    p.metadata.namespace = "default".into();
    p.metadata.labels = labels(&[("app", "web")]);
    p.spec.node_name = "node-1".into();
    p.spec.containers.push(Container {
        name: "app".into(),
        image: "app".into(),
        ports: vec![ContainerPort {
            name: "http".into(),
            container_port: 8080,
            ..Default::default()
        }],
        ..Default::default()
    });
    p.status.pod_ip = ip.into();
    if !ip.is_empty() {
        p.status.pod_ips = vec![PodIp { ip: ip.into() }];
        p.status.phase = PodPhase::Running.into();
    }
    p.status.conditions.push(Condition {
        type_: PodConditionType::Ready.into(),
        status: if ready {
            ConditionStatus::True
        } else {
            ConditionStatus::False
        }
        .into(),
        ..Default::default()
    });
    store.create(0, rng, p.into(), "test").unwrap();
}

fn web() -> ObjKey {
    ObjKey::new("default", "web")
}

/// Apply what a sync asked for, as the API server would (a create gets its name), and
/// let the controller's informer see its slices change.
fn apply(
    ctl: &mut EndpointSliceController,
    store: &mut Store,
    rng: &mut Rng,
    requests: Vec<Request>,
) {
    for r in requests {
        let changes = match r {
            Request::Create { object, .. } => vec![store.create(1, rng, object, "test").unwrap()],
            Request::Update(o) => vec![store.update(1, o, "test", false).unwrap()],
            Request::Delete { kind, key, .. } => store
                .delete(1, kind, &key, &Default::default(), "test")
                .unwrap(),
            other => panic!("unexpected request {other:?}"),
        };
        for ch in &changes {
            ctl.slice_changed(ch);
        }
    }
}

fn slice_of(r: &Request) -> &EndpointSlice {
    match r {
        Request::Create {
            object: Object::EndpointSlice(s),
            ..
        } => s,
        Request::Update(Object::EndpointSlice(s)) => s,
        other => panic!("not a slice write: {other:?}"),
    }
}

#[test]
fn a_service_without_pods_gets_one_empty_placeholder_slice_owned_by_it() {
    let (store, _) = world();
    let mut ctl = EndpointSliceController::default();
    let reqs = ctl.sync_service(&store, &web());
    assert_eq!(reqs.len(), 1);
    let Request::Create {
        object: Object::EndpointSlice(s),
        ..
    } = &reqs[0]
    else {
        panic!("{reqs:?}")
    };
    assert_eq!(s.metadata.generate_name, "web-");
    assert_eq!((s.endpoints.as_ref(), s.ports.as_ref()), (None, None));
    assert_eq!(
        s.metadata.labels,
        labels(&[
            ("team", "a"),
            ("kubernetes.io/service-name", "web"),
            (
                "endpointslice.kubernetes.io/managed-by",
                "endpointslice-controller.k8s.io"
            ),
        ])
    );
    let owner = &s.metadata.owner_references[0];
    assert_eq!(
        (owner.kind.as_str(), owner.name.as_str(), owner.controller),
        ("Service", "web", Some(true))
    );
    // The first sync's trigger time is the Service's creation.
    assert_eq!(
        s.metadata
            .annotations
            .get(LAST_CHANGE_TRIGGER_TIME)
            .map(String::as_str),
        Some("2025-01-01T00:00:00Z")
    );
}

#[test]
fn a_second_sync_with_nothing_changed_sends_nothing() {
    let (mut store, mut rng) = world();
    pod(&mut store, &mut rng, "web-1", "10.244.1.2", true);
    let mut ctl = EndpointSliceController::default();
    let reqs = ctl.sync_service(&store, &web());
    apply(&mut ctl, &mut store, &mut rng, reqs);
    assert_eq!(ctl.sync_service(&store, &web()), vec![]);
}

#[test]
fn the_first_pod_with_an_ip_turns_the_placeholder_into_its_slice_by_one_update() {
    let (mut store, mut rng) = world();
    pod(&mut store, &mut rng, "web-0", "", false);
    let mut ctl = EndpointSliceController::default();
    let reqs = ctl.sync_service(&store, &web());
    apply(&mut ctl, &mut store, &mut rng, reqs);
    let placeholder = store
        .list::<EndpointSlice>()
        .next()
        .unwrap()
        .metadata
        .name
        .clone();
    // A Pod with an IP, not ready yet: listed, not ready, not serving.
    pod(&mut store, &mut rng, "web-1", "10.244.1.2", false);
    let reqs = ctl.sync_service(&store, &web());
    assert_eq!(reqs.len(), 1, "{reqs:?}");
    assert!(
        matches!(reqs[0], Request::Update(_)),
        "the delete and create became an update"
    );
    let s = slice_of(&reqs[0]);
    assert_eq!(s.metadata.name, placeholder);
    assert_eq!(
        s.ports,
        Some(vec![EndpointPort {
            name: Some(String::new()),
            protocol: Some("TCP".into()),
            port: Some(8080),
            app_protocol: None,
        }]),
        "the named target port resolved on the Pod"
    );
    let eps = s.endpoints.as_ref().unwrap();
    assert_eq!(eps.len(), 1);
    assert_eq!(eps[0].addresses, ["10.244.1.2"]);
    assert_eq!(
        eps[0].conditions,
        EndpointConditions {
            ready: Some(false),
            serving: Some(false),
            terminating: Some(false),
        }
    );
    assert_eq!(
        (eps[0].node_name.as_str(), eps[0].zone.as_str()),
        ("node-1", "zone-a")
    );
    assert_eq!(eps[0].target_ref.as_ref().unwrap().name, "web-1");
}

#[test]
fn a_terminating_ready_pod_stays_serving_but_not_ready() {
    let (mut store, mut rng) = world();
    pod(&mut store, &mut rng, "web-1", "10.244.1.2", true);
    let mut ctl = EndpointSliceController::default();
    let reqs = ctl.sync_service(&store, &web());
    apply(&mut ctl, &mut store, &mut rng, reqs);
    store
        .delete(
            2,
            Kind::Pod,
            &ObjKey::new("default", "web-1"),
            &crate::apiserver::DeleteOptions {
                grace_period_seconds: Some(30),
                ..Default::default()
            },
            "test",
        )
        .unwrap();
    let reqs = ctl.sync_service(&store, &web());
    assert_eq!(reqs.len(), 1);
    assert!(matches!(reqs[0], Request::Update(_)));
    let e = &slice_of(&reqs[0]).endpoints.as_ref().unwrap()[0];
    assert_eq!(
        e.conditions,
        EndpointConditions {
            ready: Some(false),
            serving: Some(true),
            terminating: Some(true),
        }
    );
}

#[test]
fn a_hundred_and_fifty_pods_fill_two_new_slices_of_a_hundred_and_fifty() {
    let (mut store, mut rng) = world();
    for i in 0..150 {
        pod(
            &mut store,
            &mut rng,
            &format!("web-{i:03}"),
            &format!("10.244.{}.{}", 1 + i / 200, 2 + i % 200),
            true,
        );
    }
    let mut ctl = EndpointSliceController::default();
    let reqs = ctl.sync_service(&store, &web());
    let sizes: Vec<(bool, usize)> = reqs
        .iter()
        .map(|r| {
            (
                matches!(r, Request::Create { .. }),
                slice_of(r).endpoints.as_ref().map_or(0, Vec::len),
            )
        })
        .collect();
    assert_eq!(sizes, [(true, 100), (true, 50)]);
}

#[test]
fn pods_without_an_ip_or_terminal_are_left_out() {
    let (mut store, mut rng) = world();
    pod(&mut store, &mut rng, "web-1", "10.244.1.2", true);
    pod(&mut store, &mut rng, "web-2", "", false);
    pod(&mut store, &mut rng, "web-3", "10.244.1.4", false);
    let key = ObjKey::new("default", "web-3");
    let mut p = store.get::<Pod>(&key).unwrap().clone();
    p.status.phase = PodPhase::Failed.into();
    store.update_status(0, p.into(), "test").unwrap();
    let mut ctl = EndpointSliceController::default();
    let reqs = ctl.sync_service(&store, &web());
    let names: Vec<&str> = slice_of(&reqs[0])
        .endpoints
        .as_ref()
        .unwrap()
        .iter()
        .map(|e| e.target_ref.as_ref().unwrap().name.as_str())
        .collect();
    assert_eq!(names, ["web-1"]);
}

#[test]
fn a_service_without_a_selector_or_of_type_external_name_gets_no_slices() {
    let (mut store, mut rng) = world();
    let mut svc = store.get::<Service>(&web()).unwrap().clone();
    svc.spec.selector = None;
    store.update(0, svc.into(), "test", false).unwrap();
    let mut ctl = EndpointSliceController::default();
    assert_eq!(ctl.sync_service(&store, &web()), vec![]);
    let mut e = EndpointsController::default();
    assert_eq!(e.sync_service(&store, &web()), vec![]);
    let _ = &mut rng;
}

#[test]
fn endpoints_lists_ready_pods_as_addresses_and_the_rest_as_not_ready_leaving_out_terminating_ones()
{
    let (mut store, mut rng) = world();
    pod(&mut store, &mut rng, "web-1", "10.244.1.3", true);
    pod(&mut store, &mut rng, "web-2", "10.244.1.2", false);
    pod(&mut store, &mut rng, "web-3", "10.244.1.4", true);
    store
        .delete(
            0,
            Kind::Pod,
            &ObjKey::new("default", "web-3"),
            &crate::apiserver::DeleteOptions {
                grace_period_seconds: Some(30),
                ..Default::default()
            },
            "test",
        )
        .unwrap();
    let mut ctl = EndpointsController::default();
    let reqs = ctl.sync_service(&store, &web());
    assert_eq!(reqs.len(), 1);
    let Request::Create {
        object: Object::Endpoints(e),
        ..
    } = &reqs[0]
    else {
        panic!("{reqs:?}")
    };
    assert_eq!(e.metadata.name, "web");
    assert_eq!(e.metadata.labels, labels(&[("team", "a")]));
    assert_eq!(e.subsets.len(), 1);
    let ss = &e.subsets[0];
    let ips = |a: &[EndpointAddress]| a.iter().map(|x| x.ip.clone()).collect::<Vec<_>>();
    assert_eq!(ips(&ss.addresses), ["10.244.1.3"]);
    assert_eq!(ips(&ss.not_ready_addresses), ["10.244.1.2"]);
    assert_eq!(
        ss.ports,
        [V1EndpointPort {
            name: String::new(),
            port: 8080,
            protocol: "TCP".into(),
        }]
    );
    apply(
        &mut EndpointSliceController::default(),
        &mut store,
        &mut rng,
        reqs,
    );
    assert_eq!(ctl.sync_service(&store, &web()), vec![], "nothing changed");
    // The Service goes: its Endpoints (not owned) is deleted by the controller.
    store
        .delete(0, Kind::Service, &web(), &Default::default(), "test")
        .unwrap();
    let reqs = ctl.sync_service(&store, &web());
    assert!(
        matches!(&reqs[..], [Request::Delete { kind: Kind::Endpoints, key, .. }] if *key == web()),
        "{reqs:?}"
    );
}

#[test]
fn endpoints_past_a_thousand_addresses_are_truncated_and_marked() {
    let mut e = Endpoints::default();
    let addr = |i: usize| EndpointAddress {
        ip: format!("10.0.{}.{}", i / 250, i % 250),
        ..Default::default()
    };
    e.subsets = vec![EndpointSubset {
        addresses: (0..1200).map(addr).collect(),
        not_ready_addresses: (0..10).map(addr).collect(),
        ports: vec![],
    }];
    assert!(endpoints::truncate_endpoints(&mut e));
    assert_eq!(
        (
            e.subsets[0].addresses.len(),
            e.subsets[0].not_ready_addresses.len()
        ),
        (1000, 0)
    );
}

#[test]
fn the_slice_controller_finds_a_pods_services_through_its_index_only_when_endpoints_change() {
    let (mut store, mut rng) = world();
    pod(&mut store, &mut rng, "web-1", "10.244.1.2", false);
    let mut idx = utils::ServiceIndex::default();
    idx.service_written(&store, &web(), store.get::<Service>(&web()));
    let old = store
        .get::<Pod>(&ObjKey::new("default", "web-1"))
        .unwrap()
        .clone();
    let mut new = old.clone();
    new.metadata.annotations.insert("a".into(), "b".into());
    assert!(idx
        .services_for_change(&store, Some(&old), Some(&new))
        .is_empty());
    new.status.conditions[0].status = ConditionStatus::True.into();
    assert_eq!(
        idx.services_for_change(&store, Some(&old), Some(&new))
            .into_iter()
            .collect::<Vec<_>>(),
        [web()]
    );
    // Labels that no longer match: the Service still hears of it (symmetric difference).
    let mut moved = old.clone();
    moved.metadata.labels = labels(&[("app", "other")]);
    assert_eq!(
        idx.services_for_change(&store, Some(&old), Some(&moved))
            .into_iter()
            .collect::<Vec<_>>(),
        [web()]
    );
}
