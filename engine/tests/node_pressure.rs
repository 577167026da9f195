//! Node pressure, faithful to the kubelet: allocatable below capacity by the memory
//! eviction threshold and the reservations, and the eviction manager under memory
//! pressure (`kubelet::eviction`): the condition and its taint, one eviction per 10 s
//! cycle ranked as `rankMemoryPressure` ranks, upstream's texts, and the condition
//! cleared 5 minutes after the threshold was last met.

mod common;

use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn node(c: &Cluster, name: &str) -> Node {
    c.store.get::<Node>(&ObjKey::new("", name)).unwrap().clone()
}

fn condition(c: &Cluster, name: &str, type_: &str) -> (String, String) {
    let n = node(c, name);
    let x = n
        .status
        .conditions
        .iter()
        .find(|x| x.type_ == type_)
        .unwrap()
        .clone();
    (x.status, x.reason)
}

/// One node with three Pods of `web` (256Mi requested each), nothing pressing yet.
fn one_node_three_pods() -> Cluster {
    let mut c = Cluster::new(3);
    sh(&mut c, "sim node add node-1");
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=3",
    );
    sh(
        &mut c,
        "kubectl set resources deployment web --requests=memory=256Mi",
    );
    assert!(c.settle(120_000));
    c
}

#[test]
fn a_node_offers_its_capacity_less_the_memory_eviction_threshold_and_what_it_reserves() {
    let mut c = Cluster::new(1);
    sh(&mut c, "sim node add plain");
    sh(
        &mut c,
        "sim node add reserved --memory 16Gi --kube-reserved cpu=100m,memory=512Mi --system-reserved cpu=100m,memory=512Mi",
    );
    let plain = node(&c, "plain");
    assert_eq!(plain.status.capacity["memory"], "8Gi");
    assert_eq!(plain.status.allocatable["memory"], "8092Mi");
    let r = node(&c, "reserved");
    assert_eq!(r.status.allocatable["memory"], "15260Mi");
    assert_eq!(r.status.allocatable["cpu"], "3800m");
    // The scheduler counts against allocatable: 8Gi fits no default node.
    apply(
        &mut c,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec:\n  nodeSelector: {kubernetes.io/hostname: plain}\n  containers: [{name: big, image: 'nginx:1.27', resources: {requests: {memory: 8Gi}}}]\n",
    );
    sh(&mut c, "sim advance 5s");
    let why = sh(&mut c, "sim why pod/big");
    assert!(why.contains("Insufficient memory"), "{why}");
    assert!(run(
        &mut c,
        "sim node add x --kube-reserved gpu=1",
        None,
        &NoFiles
    )
    .output
    .contains("cpu or memory"));
}

#[test]
fn under_memory_pressure_the_kubelet_reports_it_is_tainted_and_evicts_one_pod_a_cycle() {
    let mut c = one_node_three_pods();
    // One Pod uses far more than it asked for; the others idle.
    let pods: Vec<String> = c
        .store
        .list::<Pod>()
        .map(|p| p.metadata.name.clone())
        .collect();
    sh(&mut c, "sim load deployment/web --memory 1Gi");
    sh(&mut c, "sim node pressure memory node-1 --use 5500Mi");
    let mark = c.store.log.len();
    let t0 = c.now();
    // The next heartbeat (every 10 s) observes memory.available under 100Mi.
    step_until(&mut c, 11_000, "MemoryPressure", |c| {
        condition(c, "node-1", "MemoryPressure").0 == "True"
    });
    assert!(c.now() - t0 <= 10_000);
    assert_eq!(
        condition(&c, "node-1", "MemoryPressure"),
        ("True".into(), "KubeletHasInsufficientMemory".into())
    );
    // What the kubelet wrote in that cycle, in order.
    let kubelet: Vec<(String, String, String)> = c
        .store
        .log
        .since(mark)
        .filter(|e| e.writer == "kubelet/node-1" && e.time == c.now())
        .map(|e| {
            (
                e.verb.to_string(),
                e.kind.name().to_string(),
                e.reason.clone(),
            )
        })
        .filter(|(_, k, r)| k != "Lease" && !(k == "Event" && r == "Killing"))
        .collect();
    assert_eq!(
        kubelet,
        [
            // The heartbeat's own status sync, then the eviction manager's cycle.
            ("update-status".into(), "Node".into(), String::new()),
            ("update-status".into(), "Node".into(), String::new()),
            (
                "create".into(),
                "Event".into(),
                "NodeHasInsufficientMemory".into()
            ),
            (
                "create".into(),
                "Event".into(),
                "EvictionThresholdMet".into()
            ),
            ("update-status".into(), "Pod".into(), String::new()),
            ("create".into(), "Event".into(), "Evicted".into()),
        ]
    );
    let evicted: Vec<Pod> = c
        .store
        .list::<Pod>()
        .filter(|p| p.status.reason == "Evicted")
        .cloned()
        .collect();
    assert_eq!(evicted.len(), 1, "one Pod a cycle");
    let p = &evicted[0];
    assert!(pods.contains(&p.metadata.name));
    assert_eq!(p.status.phase, "Failed");
    assert_eq!(
        p.status.message,
        "The node was low on resource: memory. Threshold quantity: 100Mi, available: 0. Container nginx was using 1Gi, request is 256Mi, has larger consumption of memory. "
    );
    let dt = p
        .status
        .conditions
        .iter()
        .find(|x| x.type_ == "DisruptionTarget")
        .unwrap();
    assert_eq!(
        (dt.status.as_str(), dt.reason.as_str()),
        ("True", "TerminationByKubelet")
    );
    // The node lifecycle controller taints the node.
    step_until(&mut c, 30_000, "memory-pressure taint", |c| {
        node(c, "node-1")
            .spec
            .taints
            .iter()
            .any(|t| t.key == "node.kubernetes.io/memory-pressure" && t.effect == "NoSchedule")
    });
    // 8Gi − 600Mi of daemons − 5500Mi − 2 × 1Gi is still under 100Mi: the next cycles
    // evict one more each, 10 s apart, until enough is free.
    step_until(&mut c, 25_000, "a second eviction", |c| {
        c.store
            .list::<Pod>()
            .filter(|p| p.status.reason == "Evicted")
            .count()
            == 2
    });
    let times: Vec<u64> = c
        .store
        .log
        .since(mark)
        .filter(|e| e.kind == Kind::Event && e.reason == "Evicted")
        .map(|e| e.time)
        .collect();
    assert_eq!(times.len(), 2);
    assert_eq!(times[1] - times[0], 10_000, "one eviction per 10 s cycle");
}

#[test]
fn pods_over_their_requests_go_first_then_the_lower_priority_then_the_larger_excess() {
    use kubeplay_engine::kubelet::eviction::rank_memory_pressure;
    let pod = |name: &str, req: &str, prio: i64| {
        let mut p = Pod::default();
        p.metadata.name = name.into();
        p.spec.priority = Some(prio);
        let mut c = Container {
            name: "c".into(),
            ..Default::default()
        };
        c.resources.requests.insert("memory".into(), req.into());
        p.spec.containers = vec![c];
        p
    };
    let a = pod("a-under", "2Gi", 0); // uses 1Gi: under its request
    let b = pod("b-over-high", "100Mi", 1000); // over, high priority
    let d = pod("d-over-low-small", "900Mi", 0); // over by 124Mi
    let e = pod("e-over-low-large", "100Mi", 0); // over by 924Mi
    let usage = |_: &Pod| 1i64 << 30;
    let ranked: Vec<&str> = rank_memory_pressure(&[&a, &b, &d, &e], &usage)
        .iter()
        .map(|p| p.metadata.name.as_str())
        .collect();
    assert_eq!(
        ranked,
        [
            "e-over-low-large",
            "d-over-low-small",
            "b-over-high",
            "a-under"
        ]
    );
}

#[test]
fn the_condition_clears_five_minutes_after_the_threshold_was_last_met() {
    let mut c = one_node_three_pods();
    sh(&mut c, "sim node pressure memory node-1");
    step_until(&mut c, 11_000, "MemoryPressure", |c| {
        condition(c, "node-1", "MemoryPressure").0 == "True"
    });
    let met = c.now();
    sh(&mut c, "sim node pressure memory node-1 --off");
    // Still True for five minutes after the last cycle that met the threshold.
    sh(&mut c, "sim advance 4m");
    assert_eq!(condition(&c, "node-1", "MemoryPressure").0, "True");
    step_until(&mut c, 120_000, "MemoryPressure cleared", |c| {
        condition(c, "node-1", "MemoryPressure").0 == "False"
    });
    let cleared = c.now() - met;
    assert!((300_000..=310_000).contains(&cleared), "{cleared}");
    assert_eq!(
        condition(&c, "node-1", "MemoryPressure").1,
        "KubeletHasSufficientMemory"
    );
    assert!(reasons_for(&c, "Node", "node-1").contains(&"NodeHasSufficientMemory".to_string()));
}

#[test]
fn nothing_presses_nothing_happens_and_bad_input_changes_nothing() {
    let mut c = one_node_three_pods();
    let before = c.store.revision();
    for bad in [
        "sim node pressure disk node-1",
        "sim node pressure memory nope",
        "sim node pressure memory node-1 --use lots",
        "sim node pressure memory node-1 --use 1Gi --off",
        "sim node pressure",
    ] {
        let o = run(&mut c, bad, None, &NoFiles);
        assert!(!o.ok, "{bad}: {}", o.output);
    }
    assert_eq!(c.store.revision(), before);
    sh(&mut c, "sim advance 1m");
    assert_eq!(condition(&c, "node-1", "MemoryPressure").0, "False");
    assert!(c.store.list::<Pod>().all(|p| p.status.reason != "Evicted"));
}

#[test]
fn under_memory_pressure_a_best_effort_pod_sent_to_the_node_is_refused_and_a_burstable_one_runs() {
    let mut c = one_node_three_pods();
    sh(&mut c, "sim node pressure memory node-1");
    step_until(&mut c, 11_000, "MemoryPressure", |c| {
        condition(c, "node-1", "MemoryPressure").0 == "True"
    });
    sh(&mut c, "sim node pressure memory node-1 --off");
    // nodeName skips the scheduler (and the taint), not the kubelet.
    apply(
        &mut c,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: besteffort}\nspec:\n  nodeName: node-1\n  containers: [{name: c, image: 'nginx:1.27'}]\n",
    );
    apply(
        &mut c,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: burstable}\nspec:\n  nodeName: node-1\n  containers: [{name: c, image: 'nginx:1.27', resources: {requests: {memory: 64Mi}}}]\n",
    );
    sh(&mut c, "sim advance 20s");
    let be = pod(&c, "besteffort").unwrap();
    assert_eq!(
        (be.status.phase.as_str(), be.status.reason.as_str()),
        ("Failed", "Evicted")
    );
    assert_eq!(
        be.status.message,
        "Pod was rejected: The node had condition: [MemoryPressure]. "
    );
    assert_eq!(pod(&c, "burstable").unwrap().status.phase, "Running");
}
