//! PriorityClass admission and DefaultPreemption: which Pods a higher-priority Pod
//! displaces, the exact requests the scheduler sends, and what stays untouched.

mod common;
use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::client::Request;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::rng::Rng;

fn apply(c: &mut Cluster, yaml: &str) -> Result<String, String> {
    let o = run(c, "kubectl apply -f -", Some(yaml), &NoFiles);
    if o.ok {
        Ok(o.output)
    } else {
        Err(o.output)
    }
}

fn pod_yaml(name: &str, class: &str, cpu: &str) -> String {
    format!(
        "apiVersion: v1
kind: Pod
metadata:
  name: {name}
  labels:
    app: {name}
spec:
  priorityClassName: {class}
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests:
        cpu: \"{cpu}\"
"
    )
}

/// Two 2-CPU nodes, each full with a priority-0 Pod of 1500m and one of 400m.
fn full_cluster() -> Cluster {
    let mut c = Cluster::new(3);
    sh(&mut c, "sim node add n1 --cpu 2");
    sh(&mut c, "sim node add n2 --cpu 2");
    sh(&mut c, "kubectl create priorityclass low --value=-10");
    sh(&mut c, "kubectl create priorityclass high --value=1000");
    for (name, node, cpu, class) in [
        ("big-1", "n1", "1500m", "low"),
        ("small-1", "n1", "400m", "low"),
        ("big-2", "n2", "1500m", "low"),
        ("small-2", "n2", "300m", "low"),
    ] {
        let y =
            pod_yaml(name, class, cpu).replace("spec:\n", &format!("spec:\n  nodeName: {node}\n"));
        apply(&mut c, &y).unwrap();
    }
    c.settle(60_000);
    c
}

#[test]
fn priority_admission_resolves_the_class_and_refuses_an_unknown_one_or_a_mismatch() {
    let mut c = full_cluster();
    let p = common::pod(&c, "big-1").unwrap();
    assert_eq!(p.spec.priority, Some(-10));
    assert_eq!(
        p.spec.preemption_policy.as_deref(),
        Some("PreemptLowerPriority")
    );
    let e = apply(&mut c, &pod_yaml("x", "nope", "1")).unwrap_err();
    assert_eq!(
        e.trim(),
        "Error from server (Forbidden): error when creating \"STDIN\": pods \"x\" is forbidden: no PriorityClass with name nope was found"
    );
    let y = pod_yaml("y", "high", "1").replace("spec:\n", "spec:\n  priority: 5\n");
    let e = apply(&mut c, &y).unwrap_err();
    assert!(e.contains("the integer value of priority (5) must not be provided in pod spec; priority admission controller computed 1000 from the given PriorityClass name"), "{e}");
    assert!(common::pod(&c, "x").is_none() && common::pod(&c, "y").is_none());
    // A global default class applies to Pods without a class.
    sh(
        &mut c,
        "kubectl create priorityclass everyone --value=7 --global-default",
    );
    apply(
        &mut c,
        &pod_yaml("z", "", "10m").replace("  priorityClassName: \n", ""),
    )
    .unwrap();
    let z = common::pod(&c, "z").unwrap();
    assert_eq!(
        (z.spec.priority, z.spec.priority_class_name.as_str()),
        (Some(7), "everyone")
    );
}

#[test]
fn the_scheduler_preempts_the_fewest_lowest_pods_and_sends_exactly_these_requests() {
    let mut c = full_cluster();
    // Needs 1 CPU: on n1 only small-1 (400m) frees too little (100m + 400m free),
    // big-1 alone frees enough; on n2 likewise big-2. Both nodes need one victim of
    // the same priority, so the tie goes to the node evaluated first.
    apply(&mut c, &pod_yaml("vip", "high", "1")).unwrap();
    let mut sched = c.scheduler().clone();
    let store = c.store.clone();
    let mut rng = Rng::new(1);
    let (requests, _) = sched.schedule_one(&store, &mut rng, c.now());
    let vip = store.get::<Pod>(&ObjKey::new("default", "vip")).unwrap();
    let attempt = &sched.last_attempt[&ObjKey::new("default", "vip")];
    let (node, victims) = attempt.preemption.clone().expect("preemption happened");
    assert_eq!(victims.len(), 1);
    let victim = victims[0].clone();
    assert!(
        (node == "n1" && victim == "big-1") || (node == "n2" && victim == "big-2"),
        "{node} {victim}"
    );
    let kinds: Vec<String> = requests
        .iter()
        .map(|r| match r {
            Request::UpdateStatus(Object::Pod(p)) => {
                let dt = p
                    .status
                    .conditions
                    .iter()
                    .find(|c| c.type_ == "DisruptionTarget");
                match dt {
                    Some(d) => format!(
                        "UpdateStatus {} DisruptionTarget {} {}",
                        p.metadata.name, d.reason, d.message
                    ),
                    None => format!(
                        "UpdateStatus {} nominated={}",
                        p.metadata.name, p.status.nominated_node_name
                    ),
                }
            }
            Request::Delete { key, options, .. } => format!(
                "Delete {} uid-precondition={}",
                key.name,
                options.precondition_uid.is_some()
            ),
            Request::Event {
                involved,
                reason,
                message,
                ..
            } => {
                format!("Event {} {reason}: {message}", involved.name)
            }
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        [
            format!("UpdateStatus {victim} DisruptionTarget PreemptionByScheduler default-scheduler: preempting to accommodate a higher priority pod"),
            format!("Delete {victim} uid-precondition=true"),
            format!("Event {victim} Preempted: Preempted by pod {} on node {node}", vip.metadata.uid),
            "Event vip FailedScheduling: 0/2 nodes are available: 2 Insufficient cpu.".to_string(),
            format!("UpdateStatus vip nominated={node}"),
        ]
    );
}

#[test]
fn a_preempting_pod_runs_once_its_victim_is_gone_and_lower_pods_do_not_take_its_room() {
    let mut c = full_cluster();
    apply(&mut c, &pod_yaml("vip", "high", "1")).unwrap();
    // A priority -10 Pod that would also fit the freed room arrives right after.
    apply(&mut c, &pod_yaml("late", "low", "100m")).unwrap();
    c.settle(120_000);
    let vip = common::pod(&c, "vip").unwrap();
    assert!(!vip.spec.node_name.is_empty());
    assert_eq!(vip.status.nominated_node_name, vip.spec.node_name);
    let node = vip.spec.node_name.clone();
    let victim = if node == "n1" { "big-1" } else { "big-2" };
    assert!(common::pod(&c, victim).is_none(), "the victim is deleted");
    assert!(common::reasons_for(&c, "Pod", victim).contains(&"Preempted".to_string()));
    // The small Pods were reprieved and `late` found room beside vip.
    assert_ne!(common::pod(&c, "late").unwrap().spec.node_name, "");
    assert!(common::pod(&c, "small-1").is_some() && common::pod(&c, "small-2").is_some());
}

#[test]
fn the_room_a_preemption_made_is_held_for_the_nominated_pod() {
    let mut c = full_cluster();
    apply(&mut c, &pod_yaml("vip", "high", "1")).unwrap();
    common::step_until(&mut c, 5_000, "vip nominated", |c| {
        !common::pod(c, "vip")
            .unwrap()
            .status
            .nominated_node_name
            .is_empty()
    });
    let vip = common::pod(&c, "vip").unwrap().clone();
    let node = vip.status.nominated_node_name.clone();
    assert!(!node.is_empty() && vip.spec.node_name.is_empty());
    let victim = if node == "n1" { "big-1" } else { "big-2" };
    // The victim vanishes at once while vip sits out its 1 s back-off; a
    // lower-priority Pod that needs the same CPU arrives in that window.
    sh(
        &mut c,
        &format!("kubectl delete pod {victim} --grace-period=0 --force"),
    );
    apply(&mut c, &pod_yaml("late", "low", "1")).unwrap();
    common::step_until(&mut c, 5_000, "late attempted", |c| {
        let p = common::pod(c, "late").unwrap();
        !p.spec.node_name.is_empty() || !p.status.conditions.is_empty()
    });
    let late = common::pod(&c, "late").unwrap();
    assert_eq!(late.spec.node_name, "", "late must not take vip's room");
    c.advance(5_000);
    assert_eq!(common::pod(&c, "vip").unwrap().spec.node_name, node);
}

#[test]
fn preemption_policy_never_and_equal_priority_leave_running_pods_alone() {
    let mut c = full_cluster();
    sh(
        &mut c,
        "kubectl create priorityclass polite --value=1000 --preemption-policy=Never",
    );
    apply(&mut c, &pod_yaml("polite-pod", "polite", "1")).unwrap();
    apply(&mut c, &pod_yaml("peer", "low", "1")).unwrap();
    c.advance(5_000);
    let msg = |name: &str| {
        common::pod(&c, name)
            .unwrap()
            .status
            .conditions
            .iter()
            .find(|x| x.type_ == "PodScheduled")
            .unwrap()
            .message
            .clone()
    };
    assert_eq!(
        msg("polite-pod"),
        "0/2 nodes are available: 2 Insufficient cpu. preemption: not eligible due to preemptionPolicy=Never."
    );
    assert_eq!(
        msg("peer"),
        "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod."
    );
    for p in ["big-1", "small-1", "big-2", "small-2"] {
        assert!(
            !common::pod(&c, p).unwrap().metadata.is_deleting(),
            "{p} untouched"
        );
    }
}

#[test]
fn when_removing_every_lower_pod_is_not_enough_the_message_says_what_is_missing() {
    let mut c = full_cluster();
    // 3 CPUs fit on no 2-CPU node whatever is removed.
    apply(&mut c, &pod_yaml("huge", "high", "3")).unwrap();
    c.advance(5_000);
    let p = common::pod(&c, "huge").unwrap();
    let m = &p
        .status
        .conditions
        .iter()
        .find(|x| x.type_ == "PodScheduled")
        .unwrap()
        .message;
    assert_eq!(
        m,
        "0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 Insufficient cpu."
    );
    assert!(p.status.nominated_node_name.is_empty());
}
