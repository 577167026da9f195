//! The course's t0–t4 story: three Ready replicas, one Pod deleted, a replacement with
//! a new UID goes Pending → bound → Running → Ready, and Ready is back to 3.

mod common;
use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::printers::pod_ready_status;

#[test]
fn deleting_one_of_three_pods_walks_the_replacement_through_t0_to_t4() {
    let mut c = web_cluster(1);
    // t0: spec 3, three Pods Ready, one per node.
    let d = web(&c);
    assert_eq!(
        (
            d.spec.replicas,
            d.status.ready_replicas,
            d.status.available_replicas
        ),
        (3, 3, 3)
    );
    let pods: Vec<Pod> = c.store.list::<Pod>().cloned().collect();
    assert_eq!(pods.len(), 3);
    let mut nodes: Vec<&str> = pods.iter().map(|p| p.spec.node_name.as_str()).collect();
    nodes.sort();
    assert_eq!(
        nodes,
        ["node-1", "node-2", "node-3"],
        "LeastAllocated spreads the replicas"
    );
    assert!(pods.iter().all(|p| pod_ready_status(p).1 == "Running"));
    let p1 = pods[0].clone();
    let old_uids: Vec<String> = pods.iter().map(|p| p.metadata.uid.clone()).collect();

    // t1: P1 deleted → it is Terminating at once, and Ready drops to 2.
    c.delete_pod(&p1.metadata.name).unwrap();
    assert_eq!(
        pod_ready_status(pod(&c, &p1.metadata.name).unwrap()).1,
        "Terminating"
    );
    step_until(&mut c, 5_000, "Deployment sees ready 2", |c| {
        web(c).status.ready_replicas == 2
    });

    // t2: the ReplicaSet controller has created P4: a new object, new UID, not yet bound.
    let p4 = c
        .store
        .list::<Pod>()
        .find(|p| !old_uids.contains(&p.metadata.uid))
        .expect("replacement created")
        .clone();
    assert!(p4
        .metadata
        .name
        .starts_with(&format!("{}-", p1.metadata.owner_references[0].name)));
    assert_ne!(p4.metadata.uid, p1.metadata.uid);
    assert_eq!(p4.status.phase, "Pending");
    assert!(p4.spec.node_name.is_empty(), "created, not yet bound");
    let rs_name = p4.metadata.owner_references[0].name.clone();
    assert!(
        reasons_for(&c, "ReplicaSet", &rs_name)
            .iter()
            .filter(|r| *r == "SuccessfulCreate")
            .count()
            == 4
    );

    // t3: the scheduler binds P4.
    let name = p4.metadata.name.clone();
    step_until(&mut c, 5_000, "P4 bound", |c| {
        pod(c, &name).is_some_and(|p| !p.spec.node_name.is_empty())
    });
    assert_eq!(reasons_for(&c, "Pod", &name), ["Scheduled"]);
    let bound = pod(&c, &name).unwrap();
    assert_eq!(pod_ready_status(bound).1, "Pending");
    let writer = c
        .store
        .log
        .iter()
        .rev()
        .find(|e| e.key.name == name && e.verb == "bind")
        .map(|e| e.writer.clone());
    assert_eq!(writer.as_deref(), Some("default-scheduler"));

    // The kubelet accepts it: ContainerCreating.
    step_until(&mut c, 5_000, "P4 creating", |c| {
        pod(c, &name).is_some_and(|p| pod_ready_status(p).1 == "ContainerCreating")
    });

    // t4: Running, Ready, and the Deployment is back to 3.
    step_until(&mut c, 30_000, "P4 Ready", |c| {
        pod(c, &name).is_some_and(|p| p.is_ready())
    });
    assert_eq!(
        pod_ready_status(pod(&c, &name).unwrap()),
        ("1/1".to_string(), "Running".to_string(), 0)
    );
    step_until(&mut c, 5_000, "ready 3", |c| {
        web(c).status.ready_replicas == 3
    });
    let reasons = reasons_for(&c, "Pod", &name);
    assert_eq!(reasons[0], "Scheduled");
    assert!(
        reasons.contains(&"Pulled".to_string())
            && reasons.ends_with(&["Created".to_string(), "Started".to_string()])
    );

    // P1 itself is gone once its kubelet stopped it (Killing, then the final delete).
    assert!(c.settle(60_000));
    assert!(pod(&c, &p1.metadata.name).is_none());
    assert_eq!(
        reasons_for(&c, "Pod", &p1.metadata.name)
            .last()
            .map(String::as_str),
        Some("Killing")
    );
    assert_eq!(c.store.list::<Pod>().count(), 3);
}

#[test]
fn scaling_up_and_down_converges_and_scale_down_keeps_pods_spread() {
    let mut c = web_cluster(3);
    c.scale_deployment("web", 6).unwrap();
    assert!(c.settle(120_000));
    assert_eq!(web(&c).status.ready_replicas, 6);
    c.scale_deployment("web", 3).unwrap();
    assert!(c.settle(120_000));
    let d = web(&c);
    assert_eq!((d.status.replicas, d.status.ready_replicas), (3, 3));
    let mut nodes: Vec<String> = c
        .store
        .list::<Pod>()
        .map(|p| p.spec.node_name.clone())
        .collect();
    nodes.sort();
    assert_eq!(
        nodes,
        ["node-1", "node-2", "node-3"],
        "doubled-up pods are deleted first"
    );
    let msgs: Vec<String> = c
        .events()
        .iter()
        .filter(|e| e.reason == "ScalingReplicaSet")
        .map(|e| e.message.clone())
        .collect();
    assert!(
        msgs[1].ends_with("from 3 to 6") && msgs[2].ends_with("from 6 to 3"),
        "{msgs:?}"
    );
}

#[test]
fn a_pod_that_fits_nowhere_stays_pending_with_the_failed_scheduling_message() {
    let mut c = web_cluster(1);
    c.create_deployment("big", "nginx:1.27", 1, "3500m", "")
        .unwrap();
    assert!(c.settle(60_000));
    c.scale_deployment("big", 4).unwrap();
    c.advance(30_000);
    let pending: Vec<&Pod> = c
        .store
        .list::<Pod>()
        .filter(|p| p.spec.node_name.is_empty())
        .collect();
    assert_eq!(pending.len(), 1);
    let cond = get_condition(&pending[0].status.conditions, "PodScheduled").unwrap();
    assert_eq!(
        (cond.status.as_str(), cond.reason.as_str()),
        ("False", "Unschedulable")
    );
    assert_eq!(
        cond.message,
        "0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
    );
    let failed = |c: &kubeplay_engine::cluster::Cluster| {
        c.events()
            .into_iter()
            .find(|e| e.reason == "FailedScheduling")
            .unwrap()
            .count
    };
    // No cluster event could help, so no retry until the 5-minute flush of unschedulable Pods.
    assert_eq!(failed(&c), 1);
    let (pending_rv, from) = (
        pending[0].metadata.resource_version.clone(),
        c.store.log.len(),
    );
    let pending_key = kubeplay_engine::apiserver::ObjKey::of(&pending[0].metadata);
    c.advance(5 * 60_000);
    assert_eq!(
        failed(&c),
        2,
        "the flush retried it, counted on the same Event"
    );
    // Same verdict, same condition: upstream's updatePod sends no patch, so the retry
    // wrote the Event and not the Pod.
    let retry: Vec<(Kind, &str)> = c
        .store
        .log
        .since(from)
        .filter(|e| e.kind != Kind::Lease && e.kind != Kind::Node)
        .map(|e| (e.kind, e.verb))
        .collect();
    assert_eq!(retry, [(Kind::Event, "update")]);
    assert_eq!(
        c.store
            .get::<Pod>(&pending_key)
            .unwrap()
            .metadata
            .resource_version,
        pending_rv
    );
    // A new node makes room: the scheduler retries on the node-added event.
    c.add_node("node-4", Default::default()).unwrap();
    assert!(c.settle(60_000));
    assert_eq!(
        c.store
            .list::<Pod>()
            .filter(|p| p.spec.node_name == "node-4")
            .count(),
        1
    );
}

#[test]
fn a_visible_step_skips_heartbeats_and_stops_at_the_next_real_write() {
    let mut c = web_cluster(4);
    // Quiescent: a step does not move the clock through hours of heartbeats.
    let (t0, log0) = (c.now(), c.store.log.len());
    c.step_visible(10_000);
    assert_eq!((c.now(), c.store.log.len()), (t0, log0));
    // After a deletion the next visible write is the ReplicaSet controller's create,
    // one controller latency later.
    let name = c.store.list::<Pod>().next().unwrap().metadata.name.clone();
    c.delete_pod(&name).unwrap();
    let (t1, log1) = (c.now(), c.store.log.len());
    c.step_visible(10_000);
    let visible: Vec<_> = c
        .store
        .log
        .since(log1)
        .filter(|e| e.kind != kubeplay_engine::api::Kind::Lease)
        .collect();
    assert_eq!(visible[0].writer, "replicaset-controller");
    assert_eq!(visible[0].verb, "create");
    assert_eq!(c.now() - t1, c.config.controller_latency);
}
