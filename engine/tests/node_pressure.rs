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

/// What node-1's kubelet wrote at this instant since log entry `mark`, in order, as
/// (verb, kind, Event reason): its Lease renewals and the `Killing` Events left out.
fn kubelet_writes_now(c: &Cluster, mark: usize) -> Vec<(String, String, String)> {
    c.store
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
        .collect()
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
    .contains("cpu, memory or ephemeral-storage"));
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
    let kubelet = kubelet_writes_now(&c, mark);
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
    use kubeplay_engine::kubelet::eviction::{rank, PodStats, Signal};
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
    let usage = |_: &Pod| PodStats {
        memory: 1 << 30,
        ..Default::default()
    };
    let ranked: Vec<&str> = rank(Signal::MemoryAvailable, &[&a, &b, &d, &e], &usage)
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
        "sim node pressure swap node-1",
        "sim node pressure pid node-1 --use -5",
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

/// The message of the last Event with `reason` about `name`.
fn event_message(c: &Cluster, name: &str, reason: &str) -> Option<String> {
    c.events()
        .into_iter()
        .filter(|e| e.involved_object.name == name && e.reason == reason)
        .map(|e| e.message.clone())
        .next_back()
}

fn tainted(c: &Cluster, name: &str, key: &str) -> bool {
    node(c, name)
        .spec
        .taints
        .iter()
        .any(|t| t.key == key && t.effect == "NoSchedule")
}

#[test]
fn a_node_offers_its_disk_less_the_nodefs_threshold_and_the_scheduler_and_kubelet_count_it() {
    let mut c = Cluster::new(1);
    sh(&mut c, "sim node add plain");
    sh(
        &mut c,
        "sim node add small --ephemeral-storage 20Gi --kube-reserved ephemeral-storage=1Gi",
    );
    sh(&mut c, "sim node add pid --eviction-hard pid.available<10%");
    let plain = node(&c, "plain");
    assert_eq!(plain.status.capacity["ephemeral-storage"], "100Gi");
    // 100Gi less 10% through a float32: 107374182400 − 10737418400.
    assert_eq!(plain.status.allocatable["ephemeral-storage"], "96636764000");
    let small = node(&c, "small");
    // 20Gi − 1Gi kube-reserved − 10% of 20Gi (2147483680).
    assert_eq!(small.status.allocatable["ephemeral-storage"], "18253610976");
    // A threshold list replaces the defaults (mergeDefaultEvictionSettings is off in
    // v1.33): no memory.available, no nodefs.available, nothing kept back.
    let pid = node(&c, "pid");
    assert_eq!(pid.status.allocatable["ephemeral-storage"], "100Gi");
    assert_eq!(pid.status.allocatable["memory"], "8Gi");
    // NodeResourcesFit counts ephemeral-storage requests.
    apply(
        &mut c,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: big}\nspec:\n  containers: [{name: big, image: 'nginx:1.27', resources: {requests: {ephemeral-storage: 150Gi}}}]\n",
    );
    sh(&mut c, "sim advance 5s");
    let why = sh(&mut c, "sim why pod/big");
    assert!(why.contains("Insufficient ephemeral-storage"), "{why}");
    // … and so does the kubelet, for a Pod that skips the scheduler.
    apply(
        &mut c,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: direct}\nspec:\n  nodeName: small\n  containers: [{name: c, image: 'nginx:1.27', resources: {requests: {ephemeral-storage: 19Gi}}}, {name: d, image: 'nginx:1.27', resources: {requests: {ephemeral-storage: 1Gi}}}]\n",
    );
    sh(&mut c, "sim advance 5s");
    let p = pod(&c, "direct").unwrap();
    assert_eq!(p.status.reason, "OutOfephemeral-storage");
    assert_eq!(
        p.status.message,
        "Pod was rejected: Node didn't have enough resource: ephemeral-storage, requested: 21474836480, used: 0, capacity: 18253610976"
    );
    for bad in [
        "sim node add x --ephemeral-storage lots",
        "sim node add x --ephemeral-storage 5Gi",
        "sim node add x --eviction-hard disk.available<1Gi",
        "sim node add x --eviction-hard nodefs.available<120%",
    ] {
        assert!(!run(&mut c, bad, None, &NoFiles).ok, "{bad}");
    }
    assert!(c.store.get::<Node>(&ObjKey::new("", "x")).is_none());
}

/// node-1 alone, with a disk of `disk`, running `web` (3 Pods of nginx).
fn one_node_with_disk(disk: &str) -> Cluster {
    let mut c = Cluster::new(3);
    sh(
        &mut c,
        &format!("sim node add node-1 --ephemeral-storage {disk}"),
    );
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=3",
    );
    assert!(c.settle(120_000));
    c
}

/// What `sim node pressure disk node-1 --use` must take to leave node-1's disk `below`
/// bytes under imagefs.available<15%.
fn take_to_just_under_threshold(c: &Cluster, below: i64) -> i64 {
    use kubeplay_engine::kubelet::eviction::{default_eviction_hard, SYSTEM_DISK_BYTES};
    let k = &c.kubelets["node-1"];
    let disk = kubeplay_engine::api::quantity::parse_bytes(&k.config.ephemeral_storage).unwrap();
    let images: i64 = k
        .images
        .iter()
        .map(|i| kubeplay_engine::kubelet::image_size(i) as i64)
        .sum();
    disk - SYSTEM_DISK_BYTES - images - default_eviction_hard()[3].quantity(disk) + below
}

/// Advance to `into` ms after the start of the next image garbage collection period.
fn advance_into_next_gc_period(c: &mut Cluster, into: u64) {
    let period = kubeplay_engine::kubelet::IMAGE_GC_PERIOD;
    let wait = period - c.now() % period + into;
    sh(c, &format!("sim advance {wait}ms"));
}

#[test]
fn a_full_disk_is_reclaimed_from_unused_images_before_any_pod_is_evicted() {
    use kubeplay_engine::kubelet::image_size;
    let mut c = one_node_with_disk("10Gi");
    // A rollout leaves nginx:1.27 on the node with no container using it.
    sh(&mut c, "kubectl set image deployment/web nginx=nginx:1.28");
    assert!(c.settle(300_000));
    sh(&mut c, "sim advance 3m");
    assert!(c.kubelets["node-1"].images.contains("nginx:1.27"));
    // Mid-period (the image garbage collector ran at its start and found nothing to
    // do), the disk fills to just under imagefs.available<15%, by less than the image.
    advance_into_next_gc_period(&mut c, 20_000);
    let old = image_size("nginx:1.27") as i64;
    let take = take_to_just_under_threshold(&c, old / 2);
    sh(
        &mut c,
        &format!("sim node pressure disk node-1 --use {take}"),
    );
    step_until(&mut c, 11_000, "DiskPressure", |c| {
        condition(c, "node-1", "DiskPressure").0 == "True"
    });
    let met = c.now();
    assert_eq!(
        condition(&c, "node-1", "DiskPressure"),
        ("True".into(), "KubeletHasDiskPressure".into())
    );
    assert_eq!(
        event_message(&c, "node-1", "EvictionThresholdMet").as_deref(),
        Some("Attempting to reclaim ephemeral-storage")
    );
    assert_eq!(
        event_message(&c, "node-1", "NodeHasDiskPressure").as_deref(),
        Some("Node node-1 status is now: NodeHasDiskPressure")
    );
    // The unused image went; that was enough: nobody evicted.
    assert!(!c.kubelets["node-1"].images.contains("nginx:1.27"));
    assert!(c.kubelets["node-1"].images.contains("nginx:1.28"));
    sh(&mut c, "sim advance 30s");
    assert!(c.store.list::<Pod>().all(|p| p.status.reason != "Evicted"));
    let reported: Vec<String> = node(&c, "node-1")
        .status
        .images
        .iter()
        .flat_map(|i| i.names.clone())
        .collect();
    assert!(
        !reported.iter().any(|n| n.ends_with(":1.27")),
        "{reported:?}"
    );
    // The condition and its taint stay 5 minutes after the threshold was last met.
    let almost = met + 290_000 - c.now();
    sh(&mut c, &format!("sim advance {almost}ms"));
    assert_eq!(condition(&c, "node-1", "DiskPressure").0, "True");
    assert!(tainted(&c, "node-1", "node.kubernetes.io/disk-pressure"));
    step_until(&mut c, 20_000, "DiskPressure cleared", |c| {
        condition(c, "node-1", "DiskPressure").0 == "False"
    });
    assert_eq!(
        condition(&c, "node-1", "DiskPressure").1,
        "KubeletHasNoDiskPressure"
    );
}

#[test]
fn the_image_garbage_collector_frees_images_every_five_minutes_over_85_percent_and_says_when_it_cannot_reach_80(
) {
    use kubeplay_engine::kubelet::image_size;
    let mut c = one_node_with_disk("10Gi");
    sh(&mut c, "kubectl set image deployment/web nginx=nginx:1.28");
    assert!(c.settle(300_000));
    sh(&mut c, "sim advance 3m");
    // 85% used, yet more than 15% free: the eviction manager meets no threshold, the
    // collector's next run has work.
    advance_into_next_gc_period(&mut c, 20_000);
    let old = image_size("nginx:1.27") as i64;
    let take = take_to_just_under_threshold(&c, -old / 2);
    sh(
        &mut c,
        &format!("sim node pressure disk node-1 --use {take}"),
    );
    sh(&mut c, "sim advance 4m");
    assert!(c.kubelets["node-1"].images.contains("nginx:1.27"));
    assert!(event_message(&c, "node-1", "FreeDiskSpaceFailed").is_none());
    step_until(&mut c, 60_000, "FreeDiskSpaceFailed", |c| {
        event_message(c, "node-1", "FreeDiskSpaceFailed").is_some()
    });
    assert_eq!(c.now() % kubeplay_engine::kubelet::IMAGE_GC_PERIOD, 0);
    let disk = 10i64 << 30;
    let threshold = kubeplay_engine::kubelet::eviction::default_eviction_hard()[3].quantity(disk);
    let available = threshold + old / 2;
    let expect = |freed: i64| {
        format!(
            "Failed to garbage collect required amount of images. Attempted to free {} bytes, but only found {freed} bytes eligible to free.",
            disk * 20 / 100 - available
        )
    };
    assert_eq!(
        event_message(&c, "node-1", "FreeDiskSpaceFailed").unwrap(),
        expect(old)
    );
    assert!(!c.kubelets["node-1"].images.contains("nginx:1.27"));
    assert!(event_message(&c, "node-1", "ImageGCFailed").is_none());
    assert_eq!(condition(&c, "node-1", "DiskPressure").0, "False");
    // Fill the freed bytes again: the next run finds nothing to delete, and from the
    // second failure in a row the kubelet records ImageGCFailed too.
    sh(
        &mut c,
        &format!("sim node pressure disk node-1 --use {}", take + old),
    );
    step_until(&mut c, 300_000, "ImageGCFailed", |c| {
        event_message(c, "node-1", "ImageGCFailed").is_some()
    });
    assert_eq!(
        event_message(&c, "node-1", "ImageGCFailed").unwrap(),
        expect(0)
    );
    assert_eq!(
        event_message(&c, "node-1", "FreeDiskSpaceFailed").unwrap(),
        expect(0)
    );
    assert!(c.store.list::<Pod>().all(|p| p.status.reason != "Evicted"));
}

#[test]
fn when_images_are_not_enough_the_pod_writing_most_over_its_request_is_evicted_and_nothing_new_is_admitted(
) {
    let mut c = one_node_with_disk("100Gi");
    sh(
        &mut c,
        "kubectl create deployment writer --image=busybox:1.36 -- sh -c 'yes > /var/log/big'",
    );
    assert!(c.settle(120_000));
    sh(&mut c, "sim load deployment/writer --disk 30Gi");
    sh(&mut c, "sim node pressure disk node-1 --use 55Gi");
    let mark = c.store.log.len();
    step_until(&mut c, 11_000, "an eviction", |c| {
        c.store.list::<Pod>().any(|p| p.status.reason == "Evicted")
    });
    // What the kubelet wrote in that cycle, in order.
    let kubelet = kubelet_writes_now(&c, mark);
    let s = |a: &str, b: &str, r: &str| (a.to_string(), b.to_string(), r.to_string());
    assert_eq!(
        kubelet,
        [
            s("update-status", "Node", ""),
            s("update-status", "Node", ""),
            s("create", "Event", "NodeHasDiskPressure"),
            s("create", "Event", "EvictionThresholdMet"),
            s("update-status", "Pod", ""),
            s("create", "Event", "Evicted"),
        ]
    );
    let evicted: Vec<&Pod> = c
        .store
        .list::<Pod>()
        .filter(|p| p.status.reason == "Evicted")
        .collect();
    assert_eq!(evicted.len(), 1);
    assert!(evicted[0].metadata.name.starts_with("writer-"));
    // 100Gi − 6Gi for the system − two images − 30Gi − 55Gi: under both thresholds;
    // nodefs.available<10% is the first met that reclaims ephemeral-storage.
    let images: i64 = ["nginx:1.27", "busybox:1.36"]
        .iter()
        .map(|i| kubeplay_engine::kubelet::image_size(i) as i64)
        .sum();
    let available = (100i64 << 30) - (6 << 30) - images - (30 << 30) - (55 << 30);
    assert_eq!(
        evicted[0].status.message,
        format!("The node was low on resource: ephemeral-storage. Threshold quantity: 10737418400, available: {}. Container busybox was using 30Gi, request is 0, has larger consumption of ephemeral-storage. ", kubeplay_engine::api::quantity::format_bytes(available))
    );
    // Its files went with it: the next cycles evict no one else.
    sh(&mut c, "sim advance 30s");
    assert_eq!(
        c.store
            .list::<Pod>()
            .filter(|p| p.status.reason == "Evicted")
            .count(),
        1
    );
    // Under DiskPressure the kubelet admits no Pod, Burstable or not.
    apply(
        &mut c,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: burstable}\nspec:\n  nodeName: node-1\n  containers: [{name: c, image: 'nginx:1.27', resources: {requests: {memory: 64Mi}}}]\n",
    );
    sh(&mut c, "sim advance 5s");
    let b = pod(&c, "burstable").unwrap();
    assert_eq!(
        (b.status.reason.as_str(), b.status.message.as_str()),
        (
            "Evicted",
            "Pod was rejected: The node had condition: [DiskPressure]. "
        )
    );
}

#[test]
fn a_pod_over_its_ephemeral_storage_limit_is_evicted_without_any_node_pressure() {
    let mut c = one_node_with_disk("100Gi");
    sh(
        &mut c,
        "kubectl set resources deployment web --limits=ephemeral-storage=1Gi",
    );
    assert!(c.settle(300_000));
    sh(&mut c, "sim load deployment/web --disk 2Gi");
    step_until(&mut c, 11_000, "an eviction", |c| {
        c.store.list::<Pod>().any(|p| p.status.reason == "Evicted")
    });
    let evicted: Vec<&Pod> = c
        .store
        .list::<Pod>()
        .filter(|p| p.status.reason == "Evicted")
        .collect();
    // Every Pod over its limit goes in the same cycle, with no DisruptionTarget.
    assert_eq!(evicted.len(), 3);
    for p in evicted {
        assert_eq!(
            p.status.message,
            "Pod ephemeral local storage usage exceeds the total limit of containers 1Gi. "
        );
        assert!(p
            .status
            .conditions
            .iter()
            .all(|x| x.type_ != "DisruptionTarget"));
    }
    assert_eq!(condition(&c, "node-1", "DiskPressure").0, "False");
}

#[test]
fn pid_pressure_needs_a_threshold_the_kubelet_does_not_set_by_default() {
    let mut c = one_node_three_pods();
    let said = sh(&mut c, "sim node pressure pid node-1");
    assert!(said.contains("no pid.available threshold"), "{said}");
    sh(&mut c, "sim advance 30s");
    assert_eq!(condition(&c, "node-1", "PIDPressure").0, "False");
    assert!(c.store.list::<Pod>().all(|p| p.status.reason != "Evicted"));

    // A node whose kubelet keeps 10% of pid_max: the Pod running the most processes
    // goes first among equal priorities.
    let mut c = Cluster::new(3);
    sh(
        &mut c,
        "sim node add node-1 --eviction-hard pid.available<10%",
    );
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=2",
    );
    sh(
        &mut c,
        "kubectl create deployment workers --image=busybox:1.36 -- sh -c 'while true; do sh & done'",
    );
    assert!(c.settle(120_000));
    sh(&mut c, "sim load deployment/workers --pids 3800000");
    step_until(&mut c, 11_000, "PIDPressure", |c| {
        condition(c, "node-1", "PIDPressure").0 == "True"
    });
    assert_eq!(
        condition(&c, "node-1", "PIDPressure").1,
        "KubeletHasInsufficientPID"
    );
    assert_eq!(
        event_message(&c, "node-1", "EvictionThresholdMet").as_deref(),
        Some("Attempting to reclaim pids")
    );
    let evicted: Vec<&Pod> = c
        .store
        .list::<Pod>()
        .filter(|p| p.status.reason == "Evicted")
        .collect();
    assert_eq!(evicted.len(), 1);
    assert!(evicted[0].metadata.name.starts_with("workers-"));
    // 4194304 − 300 for the system − 2 × 2 for web − 3800002 for workers (its sandbox,
    // its container and what it forked): a PID message names no container.
    assert_eq!(
        evicted[0].status.message,
        "The node was low on resource: pids. Threshold quantity: 419430, available: 393998. "
    );
    step_until(&mut c, 30_000, "pid-pressure taint", |c| {
        tainted(c, "node-1", "node.kubernetes.io/pid-pressure")
    });
}
