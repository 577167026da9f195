//! A node powered off: ~50 s → NotReady (Unknown), Pods not Ready, unreachable taints;
//! 300 s later its Pods are evicted and replaced elsewhere; power on clears it all.

mod common;
use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::printers::{node_status, pod_ready_status};
use kubeplay_engine::time::SECOND;

fn node(c: &kubeplay_engine::cluster::Cluster, n: &str) -> Node {
    c.store
        .get::<Node>(&kubeplay_engine::apiserver::ObjKey::new("", n))
        .unwrap()
        .clone()
}

#[test]
fn a_powered_off_node_goes_unknown_after_the_grace_period_and_its_pods_are_evicted_after_300_seconds(
) {
    let mut c = web_cluster(1);
    c.advance(17 * SECOND);
    let victim = c.store.pods_on_node("node-2").next().unwrap().clone();
    let t_off = c.now();
    c.power_off("node-2").unwrap();

    // Nothing visible for 40 s: the control plane cannot know yet.
    c.advance(40 * SECOND);
    assert_eq!(node_status(&node(&c, "node-2")), "Ready");
    assert_eq!(web(&c).status.ready_replicas, 3);

    // Unknown within grace (50 s after the last heartbeat) + one monitor period.
    let t_unknown = step_until(&mut c, 20 * SECOND, "Ready=Unknown", |c| {
        node(c, "node-2").ready_status() == "Unknown"
    });
    let since_off = t_unknown - t_off;
    assert!(
        (40 * SECOND..=55 * SECOND).contains(&since_off),
        "Unknown {since_off} ms after power-off"
    );
    let ready = get_condition(&node(&c, "node-2").status.conditions, "Ready")
        .unwrap()
        .clone();
    assert_eq!(
        (ready.reason.as_str(), ready.message.as_str()),
        ("NodeStatusUnknown", "Kubelet stopped posting node status.")
    );
    assert_eq!(node_status(&node(&c, "node-2")), "NotReady");
    assert!(reasons_for(&c, "Node", "node-2").contains(&"NodeNotReady".to_string()));
    // The Pod is marked not Ready (its containers still say running: kubectl prints 1/1 Running).
    let p = pod(&c, &victim.metadata.name).unwrap();
    assert!(!p.is_ready());
    assert_eq!(pod_ready_status(p).1, "Running");
    step_until(&mut c, 2 * SECOND, "ready 2", |c| {
        web(c).status.ready_replicas == 2
    });
    step_until(&mut c, 2 * SECOND, "taints", |c| {
        let t = &node(c, "node-2").spec.taints;
        t.iter()
            .any(|t| t.key == "node.kubernetes.io/unreachable" && t.effect == "NoSchedule")
            && t.iter()
                .any(|t| t.key == "node.kubernetes.io/unreachable" && t.effect == "NoExecute")
    });
    let t_taint = node(&c, "node-2")
        .spec
        .taints
        .iter()
        .find(|t| t.effect == "NoExecute")
        .unwrap()
        .added_ms;

    // No eviction before the 300 s default toleration runs out.
    c.run_until(t_taint + 299 * SECOND);
    assert!(pod(&c, &victim.metadata.name).is_some_and(|p| !p.metadata.is_deleting()));
    let t_evict = step_until(&mut c, 5 * SECOND, "evicted", |c| {
        pod(c, &victim.metadata.name).is_some_and(|p| p.metadata.is_deleting())
    });
    assert!(t_evict - t_taint >= 300 * SECOND && t_evict - t_taint < 301 * SECOND);
    let reasons = reasons_for(&c, "Pod", &victim.metadata.name);
    assert_eq!(
        reasons.last().map(String::as_str),
        Some("TaintManagerEviction")
    );
    let evicted = pod(&c, &victim.metadata.name).unwrap();
    let dt = get_condition(&evicted.status.conditions, "DisruptionTarget").unwrap();
    assert_eq!(dt.reason, "DeletionByTaintManager");

    // The replacement lands on a Ready node; the old Pod stays Terminating: no kubelet to stop it.
    assert!(c.settle(60 * SECOND));
    assert_eq!(web(&c).status.ready_replicas, 3);
    let on_other: Vec<&Pod> = c
        .store
        .list::<Pod>()
        .filter(|p| p.metadata.uid != victim.metadata.uid)
        .collect();
    assert_eq!(on_other.len(), 3);
    assert!(on_other
        .iter()
        .all(|p| p.spec.node_name != "node-2" && p.is_ready()));
    assert_eq!(
        pod_ready_status(pod(&c, &victim.metadata.name).unwrap()).1,
        "Terminating"
    );

    // Power on: Ready again, taints removed, the old Pod finally goes.
    c.power_on("node-2").unwrap();
    assert!(c.settle(60 * SECOND));
    let n = node(&c, "node-2");
    assert_eq!(node_status(&n), "Ready");
    assert!(n.spec.taints.is_empty());
    assert!(pod(&c, &victim.metadata.name).is_none());
    assert_eq!(c.store.list::<Pod>().count(), 3);
}

#[test]
fn a_node_that_returns_before_the_toleration_ends_keeps_its_pods() {
    let mut c = web_cluster(2);
    let victim = c.store.pods_on_node("node-1").next().unwrap().clone();
    c.power_off("node-1").unwrap();
    c.advance(120 * SECOND);
    assert_eq!(node(&c, "node-1").ready_status(), "Unknown");
    c.power_on("node-1").unwrap();
    assert!(c.settle(60 * SECOND));
    let p = pod(&c, &victim.metadata.name).expect("same Pod, same UID");
    assert_eq!(p.metadata.uid, victim.metadata.uid);
    assert!(p.is_ready());
    // Containers restarted in the same Pod after the reboot.
    assert_eq!(p.restarts(), 1);
    assert!(node(&c, "node-1").spec.taints.is_empty());
}

fn no_execute_added(c: &kubeplay_engine::cluster::Cluster, n: &str) -> Option<u64> {
    node(c, n)
        .spec
        .taints
        .iter()
        .find(|t| t.effect == "NoExecute")
        .map(|t| t.added_ms)
}

#[test]
fn two_nodes_lost_together_are_tainted_for_eviction_ten_seconds_apart() {
    let mut c = web_cluster(1);
    c.power_off("node-1").unwrap();
    c.power_off("node-2").unwrap();
    c.advance(120 * SECOND);
    let (a, b) = (
        no_execute_added(&c, "node-1").unwrap(),
        no_execute_added(&c, "node-2").unwrap(),
    );
    assert_eq!(a.abs_diff(b), 10 * SECOND, "0.1 node/s per zone");
}

#[test]
fn when_every_node_is_lost_evictions_pause_and_nothing_is_deleted() {
    let mut c = web_cluster(1);
    for n in ["node-1", "node-2", "node-3"] {
        c.power_off(n).unwrap();
    }
    c.advance(600 * SECOND);
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(node(&c, n).ready_status(), "Unknown");
        assert!(
            no_execute_added(&c, n).is_none(),
            "{n} has no NoExecute taint"
        );
    }
    assert!(c.store.list::<Pod>().all(|p| !p.metadata.is_deleting()));
    // One node back: the zone is no longer fully disrupted, so the other two are tainted.
    c.power_on("node-1").unwrap();
    c.advance(30 * SECOND);
    assert!(no_execute_added(&c, "node-2").is_some() || no_execute_added(&c, "node-3").is_some());
}

#[test]
fn when_the_last_nodes_are_lost_the_taints_already_placed_are_removed_until_a_node_returns() {
    let mut c = web_cluster(1);
    c.advance(17 * SECOND);
    c.power_off("node-1").unwrap();
    // node-1 alone: its zone is still healthy, so it is tainted for eviction.
    step_until(&mut c, 80 * SECOND, "node-1 NoExecute", |c| {
        no_execute_added(c, "node-1").is_some()
    });
    c.power_off("node-2").unwrap();
    c.power_off("node-3").unwrap();
    // Every node silent: master disruption mode takes node-1's NoExecute taint off
    // (markNodeAsReachable) well before its Pods' 300 s tolerations run out.
    step_until(&mut c, 80 * SECOND, "node-1 NoExecute removed", |c| {
        no_execute_added(c, "node-1").is_none()
    });
    c.advance(600 * SECOND);
    for n in ["node-1", "node-2", "node-3"] {
        assert_eq!(node(&c, n).ready_status(), "Unknown");
        assert!(
            no_execute_added(&c, n).is_none(),
            "{n} has no NoExecute taint"
        );
    }
    assert!(c.store.list::<Pod>().all(|p| !p.metadata.is_deleting()));
    // node-1 back: the mode ends and the two still silent are tainted again at the
    // zone's rate, node-1 (Ready) is not.
    c.power_on("node-1").unwrap();
    step_until(&mut c, 60 * SECOND, "node-2 and node-3 tainted", |c| {
        no_execute_added(c, "node-2").is_some() && no_execute_added(c, "node-3").is_some()
    });
    assert!(no_execute_added(&c, "node-1").is_none());
    let (a, b) = (
        no_execute_added(&c, "node-2").unwrap(),
        no_execute_added(&c, "node-3").unwrap(),
    );
    assert_eq!(a.abs_diff(b), 10 * SECOND, "0.1 node/s per zone");
}

fn bound_pod(name: &str, node: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\nspec:\n  nodeName: {node}\n  containers:\n  - name: c\n    image: nginx\n"
    )
}

#[test]
fn a_pod_bound_to_a_node_that_never_existed_is_failed_and_deleted_by_pod_gc_after_the_quarantine() {
    use kubeplay_engine::command::{run, NoFiles};
    let mut c = web_cluster(2);
    let written = c.now();
    assert!(
        run(
            &mut c,
            "kubectl apply -f -",
            Some(&bound_pod("stray", "ghost")),
            &NoFiles
        )
        .ok
    );
    // One bound to a name that gets a Node before the quarantine ends is kept.
    assert!(
        run(
            &mut c,
            "kubectl apply -f -",
            Some(&bound_pod("early", "node-9")),
            &NoFiles
        )
        .ok
    );
    c.advance(10 * SECOND);
    c.add_node("node-9", Default::default()).unwrap();
    let sweep = kubeplay_engine::controllers::pod_gc::sweep_time(written);
    c.advance(sweep - 1 - c.now());
    let p = pod(&c, "stray").expect("kept during the quarantine");
    assert_eq!(p.status.phase, "Pending");
    let t = step_until(&mut c, 2 * SECOND, "stray deleted", |c| {
        pod(c, "stray").is_none()
    });
    assert_eq!(t, sweep);
    assert!(pod(&c, "early").is_some(), "its node exists now");
    // The sweep writes nothing more and arms nothing more.
    c.advance(120 * SECOND);
    assert!(pod(&c, "early").is_some());
}

#[test]
fn pods_of_a_removed_node_are_failed_and_force_deleted_by_pod_gc_after_the_quarantine() {
    let mut c = web_cluster(4);
    let victim = c
        .store
        .list::<Pod>()
        .find(|p| p.spec.node_name == "node-2")
        .expect("a web pod on node-2")
        .clone();
    let removed_at = c.now();
    c.remove_node("node-2").unwrap();
    let sweep = kubeplay_engine::controllers::pod_gc::sweep_time(removed_at);
    assert!(sweep - removed_at > 40 * SECOND && sweep - removed_at <= 60 * SECOND);
    // Until the sweep nobody touches the Pod: no node, no kubelet, no taint manager.
    c.advance(sweep - 1 - c.now());
    let p = pod(&c, &victim.metadata.name).expect("still there");
    assert_eq!(p.status.phase, "Running");
    // The exact requests of the sweep: mark Failed with DisruptionTarget, then delete
    // with grace 0 and a uid precondition.
    let requests = kubeplay_engine::controllers::pod_gc::gc_orphaned(&c.store, "node-2", sweep);
    assert_eq!(requests.len(), 2);
    match &requests[0] {
        kubeplay_engine::client::Request::UpdateStatus(Object::Pod(p)) => {
            assert_eq!(p.metadata.name, victim.metadata.name);
            assert_eq!(p.status.phase, "Failed");
            let dt = p
                .status
                .conditions
                .iter()
                .find(|c| c.type_ == "DisruptionTarget")
                .unwrap();
            assert_eq!(
                (dt.reason.as_str(), dt.message.as_str()),
                ("DeletionByPodGC", "PodGC: node no longer exists")
            );
        }
        other => panic!("{other:?}"),
    }
    match &requests[1] {
        kubeplay_engine::client::Request::Delete { key, options, .. } => {
            assert_eq!(key.name, victim.metadata.name);
            assert_eq!(options.grace_period_seconds, Some(0));
            assert_eq!(
                options.precondition_uid.as_deref(),
                Some(victim.metadata.uid.as_str())
            );
        }
        other => panic!("{other:?}"),
    }
    c.advance(1);
    assert!(pod(&c, &victim.metadata.name).is_none(), "force-deleted");
    let by_gc: Vec<&str> = c
        .store
        .log
        .iter()
        .filter(|e| e.writer == "pod-garbage-collector" && e.key.name == victim.metadata.name)
        .map(|e| e.verb)
        .collect();
    assert_eq!(by_gc, ["update-status", "delete"]);
    // The ReplicaSet replaces it on a node that exists.
    assert!(c.settle(120 * SECOND));
    let w = web(&c);
    assert_eq!(w.status.ready_replicas, 3);
    assert!(c.store.list::<Pod>().all(|p| p.spec.node_name != "node-2"));
}

/// NoExecute taints on `n`, by key.
fn no_execute(c: &kubeplay_engine::cluster::Cluster, n: &str) -> Vec<String> {
    node(c, n)
        .spec
        .taints
        .iter()
        .filter(|t| t.effect == "NoExecute")
        .map(|t| t.key.clone())
        .collect()
}

#[test]
fn a_not_ready_node_that_goes_silent_has_its_not_ready_taint_swapped_for_unreachable_at_once() {
    use kubeplay_engine::client::Request;
    use kubeplay_engine::cluster::kubectl;
    let mut c = web_cluster(1);
    // node-2's kubelet reported Ready=False and the controller tainted it not-ready.
    let mut n = node(&c, "node-2");
    for cond in n
        .status
        .conditions
        .iter_mut()
        .filter(|c| c.type_ == "Ready")
    {
        cond.status = "False".into();
        cond.reason = "KubeletNotReady".into();
    }
    n.metadata.resource_version.clear();
    c.submit(&kubectl(), Request::UpdateStatus(Object::Node(Box::new(n))))
        .unwrap();
    let mut n = node(&c, "node-2");
    n.spec.taints.push(Taint {
        key: "node.kubernetes.io/not-ready".into(),
        effect: "NoExecute".into(),
        ..Default::default()
    });
    n.metadata.resource_version.clear();
    c.submit(&kubectl(), Request::Update(Object::Node(Box::new(n))))
        .unwrap();
    c.power_off("node-2").unwrap();
    step_until(&mut c, 120 * SECOND, "node-2 Unknown", |c| {
        node(c, "node-2").ready_status() == "Unknown"
    });
    // SwapNodeControllerTaint in the same pass: never both, never neither.
    c.advance(1);
    assert_eq!(
        no_execute(&c, "node-2"),
        vec!["node.kubernetes.io/unreachable"]
    );
    let swap = c
        .store
        .log
        .iter()
        .rev()
        .find(|e| {
            e.kind == Kind::Node && e.writer == "node-lifecycle-controller" && e.verb == "update"
        })
        .unwrap();
    assert!(swap.change.contains("unreachable"), "{}", swap.change);
}

#[test]
fn a_ready_node_loses_only_the_readiness_no_execute_taints() {
    use kubeplay_engine::controllers::node_lifecycle::mark_node_as_reachable;
    let taint = |k: &str| Taint {
        key: k.into(),
        effect: "NoExecute".into(),
        ..Default::default()
    };
    let mut taints = vec![
        taint("node.kubernetes.io/unreachable"),
        taint("node.kubernetes.io/not-ready"),
        taint("node.kubernetes.io/unschedulable"),
        taint("dedicated"),
    ];
    mark_node_as_reachable(&mut taints);
    let keys: Vec<&str> = taints.iter().map(|t| t.key.as_str()).collect();
    assert_eq!(keys, vec!["node.kubernetes.io/unschedulable", "dedicated"]);
}

#[test]
fn a_silent_node_counts_the_seconds_since_its_last_heartbeat_down_to_the_moment_it_goes_not_ready()
{
    use kubeplay_engine::explain::silence;
    let mut c = web_cluster(1);
    c.advance(17 * SECOND);
    assert_eq!(
        silence(&c, "node-2"),
        None,
        "a reporting node is not silent"
    );
    c.power_off("node-2").unwrap();
    c.advance(23 * SECOND);
    let s = silence(&c, "node-2").expect("silent");
    // Its last heartbeat came at most 10 s before the power-off.
    assert!((23 * SECOND..=33 * SECOND).contains(&s.for_ms), "{s:?}");
    let left = s.not_ready_in.expect("still Ready");
    c.advance(left - 1);
    assert_eq!(
        node_status(&node(&c, "node-2")),
        "Ready",
        "not before the countdown ends"
    );
    c.advance(1);
    let after = silence(&c, "node-2").expect("still silent");
    assert_eq!(node_status(&node(&c, "node-2")), "NotReady");
    assert_eq!(after.not_ready_in, None);
    assert!(after.for_ms > 50 * SECOND);
    c.power_on("node-2").unwrap();
    c.advance(15 * SECOND);
    assert_eq!(silence(&c, "node-2"), None, "heard from again");
}
