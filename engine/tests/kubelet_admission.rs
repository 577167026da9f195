//! "nodeName skips the scheduler, not the kubelet": a Pod written with `spec.nodeName`
//! is admitted or rejected by the node's kubelet (`pkg/kubelet/lifecycle/predicate.go`).

mod common;

use kubeplay_engine::api::*;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::kubelet::NodeConfig;

fn sh(c: &mut Cluster, cmd: &str, stdin: Option<&str>) -> String {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(o.ok, "{cmd}: {}", o.output);
    o.output
}

fn one_node(config: NodeConfig) -> Cluster {
    let mut c = Cluster::new(5);
    c.add_node("only", config).unwrap();
    assert!(c.settle(60_000));
    c
}

fn pod(name: &str, extra: &str, cpu: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  nodeName: only\n{extra}  containers:\n  - name: c\n    image: nginx:1.27\n    resources: {{requests: {{cpu: '{cpu}'}}}}\n"
    )
}

fn kubelet_warnings(c: &Cluster, name: &str) -> Vec<(String, String)> {
    c.events()
        .into_iter()
        .filter(|e| e.involved_object.name == name && e.type_ == "Warning")
        .map(|e| (e.reason.clone(), e.message.clone()))
        .collect()
}

#[test]
fn a_pod_bound_by_name_to_a_full_node_is_rejected_by_the_kubelet_with_out_of_cpu() {
    let mut c = one_node(NodeConfig::default());
    sh(&mut c, "kubectl apply -f -", Some(&pod("big", "", "3900m")));
    sh(&mut c, "kubectl apply -f -", Some(&pod("late", "", "2")));
    assert!(c.settle(120_000));
    let big = common::pod(&c, "big").unwrap();
    assert_eq!(big.status.phase, "Running");
    let late = common::pod(&c, "late").unwrap();
    assert_eq!(late.status.phase, "Failed");
    assert_eq!(late.status.reason, "OutOfcpu");
    let msg = "Node didn't have enough resource: cpu, requested: 2000, used: 3900, capacity: 4000";
    assert_eq!(late.status.message, format!("Pod was rejected: {msg}"));
    assert_eq!(
        kubelet_warnings(&c, "late"),
        vec![("OutOfcpu".to_string(), msg.to_string())]
    );
    let e = c
        .events()
        .into_iter()
        .find(|e| e.reason == "OutOfcpu")
        .unwrap();
    assert_eq!(e.source.component, "kubelet");
    assert!(
        late.status.container_statuses.is_empty(),
        "nothing was started"
    );
    let table = sh(&mut c, "kubectl get pod late", None);
    assert!(table.contains("late   0/1     OutOfcpu   0"), "{table}");
}

#[test]
fn memory_and_the_pod_count_are_checked_too_in_that_order_after_the_count() {
    let mut c = one_node(NodeConfig {
        pods: 1,
        ..Default::default()
    });
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&pod("first", "", "100m")),
    );
    assert!(c.settle(60_000));
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&pod("second", "", "100m")),
    );
    assert!(c.settle(60_000));
    let p = common::pod(&c, "second").unwrap();
    assert_eq!(p.status.reason, "OutOfpods");
    assert_eq!(
        p.status.message,
        "Pod was rejected: Node didn't have enough resource: pods, requested: 1, used: 1, capacity: 1"
    );

    let mut c = one_node(NodeConfig::default());
    sh(
        &mut c,
        "kubectl apply -f -",
        Some("apiVersion: v1\nkind: Pod\nmetadata: {name: hog}\nspec:\n  nodeName: only\n  containers: [{name: c, image: 'nginx:1.27', resources: {limits: {memory: 9Gi}}}]\n"),
    );
    assert!(c.settle(60_000));
    let p = common::pod(&c, "hog").unwrap();
    assert_eq!(
        p.status.reason, "OutOfmemory",
        "limits-only requests its limit"
    );
    assert_eq!(
        p.status.message,
        // Its "capacity" is the node's allocatable: 8Gi less the 100Mi eviction threshold.
        "Pod was rejected: Node didn't have enough resource: memory, requested: 9663676416, used: 0, capacity: 8485076992"
    );
}

#[test]
fn a_node_selector_the_node_does_not_match_is_a_node_affinity_rejection() {
    let mut c = one_node(NodeConfig::default());
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&pod("picky", "  nodeSelector: {disk: ssd}\n", "100m")),
    );
    assert!(c.settle(60_000));
    let p = common::pod(&c, "picky").unwrap();
    assert_eq!(
        (p.status.phase.as_str(), p.status.reason.as_str()),
        ("Failed", "NodeAffinity")
    );
    assert_eq!(
        p.status.message,
        "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector"
    );
}

#[test]
fn an_untolerated_no_execute_taint_is_a_taint_toleration_rejection_but_no_schedule_is_not() {
    let mut c = one_node(NodeConfig {
        taints: vec![Taint {
            key: "dedicated".into(),
            value: "db".into(),
            effect: "NoSchedule".into(),
            ..Default::default()
        }],
        ..Default::default()
    });
    sh(&mut c, "kubectl apply -f -", Some(&pod("fine", "", "100m")));
    assert!(c.settle(60_000));
    assert_eq!(common::pod(&c, "fine").unwrap().status.phase, "Running");
    assert!(kubelet_warnings(&c, "fine").is_empty());
    sh(&mut c, "kubectl taint nodes only gone=yes:NoExecute", None);
    // The taint-eviction controller races the kubelet for a Pod written straight to
    // the node; either way it never runs. (A Pod already being deleted when the
    // kubelet sees it skips admission, as HandlePodAdditions does.)
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&pod("tainted", "", "100m")),
    );
    c.advance(30_000);
    assert!(!common::reasons_for(&c, "Pod", "tainted").contains(&"Started".to_string()));
    // The kubelet's own verdict, as predicate.go words it.
    let node = c.store.list::<Node>().next().unwrap().clone();
    let mut p: Pod = serde_yaml_ng::from_str(&pod("x", "", "100m")).unwrap();
    let r = kubeplay_engine::kubelet::admission::admit(&p, &node, &[]).unwrap();
    assert_eq!(r.reason, "TaintToleration");
    assert_eq!(
        r.message,
        "Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate"
    );
    p.spec.tolerations.push(Toleration {
        key: "gone".into(),
        operator: "Exists".into(),
        ..Default::default()
    });
    assert_eq!(
        kubeplay_engine::kubelet::admission::admit(&p, &node, &[]),
        None
    );
}

#[test]
fn a_replica_set_replaces_rejected_pods_without_hot_looping() {
    let mut c = one_node(NodeConfig::default());
    sh(&mut c, "kubectl apply -f -", Some(&pod("big", "", "3900m")));
    assert!(c.settle(60_000));
    sh(
        &mut c,
        "kubectl apply -f -",
        Some("apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: pinned}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: pinned}}\n  template:\n    metadata: {labels: {app: pinned}}\n    spec:\n      nodeName: only\n      containers: [{name: c, image: 'nginx:1.27', resources: {requests: {cpu: '1'}}}]\n"),
    );
    c.advance(60_000);
    let pods: Vec<&Pod> = c
        .store
        .list::<Pod>()
        .filter(|p| p.metadata.name.starts_with("pinned-"))
        .collect();
    // Each replacement is rejected again (the RS counts a Failed Pod as not active);
    // the loop is paced by the kubelet and the controller, not spinning.
    assert!(pods.len() >= 2, "{}", pods.len());
    assert!(pods.len() <= 200, "{} Pods in a minute", pods.len());
    eprintln!("rejected replacements in a minute: {}", pods.len());
    let active = pods.iter().filter(|p| !p.is_terminal()).count();
    assert!(active <= 1, "{active} active");
    assert!(pods
        .iter()
        .filter(|p| p.is_terminal())
        .all(|p| p.status.reason == "OutOfcpu"));
    assert_eq!(common::pod(&c, "big").unwrap().status.phase, "Running");
}

#[test]
fn sidecars_count_beside_the_app_containers_and_under_later_init_containers() {
    use kubeplay_engine::apiserver::pod_requests;
    let p: Pod = serde_yaml_ng::from_str(
        "metadata: {name: s}\nspec:\n  initContainers:\n  - {name: mesh, image: m, restartPolicy: Always, resources: {requests: {cpu: 200m}}}\n  - {name: migrate, image: i, resources: {requests: {cpu: 900m}}}\n  containers:\n  - {name: app, image: a, resources: {requests: {cpu: 500m}}}\n",
    )
    .unwrap();
    // max(migrate + the sidecar started before it = 1100m, app + sidecar = 700m).
    assert_eq!(pod_requests(&p).cpu_milli, 1100);
    let mut q = p.clone();
    q.spec.init_containers[1]
        .resources
        .requests
        .insert("cpu".into(), "100m".into());
    assert_eq!(pod_requests(&q).cpu_milli, 700);
    // A sidecar declared after a regular init container does not run beside it.
    q.spec.init_containers.swap(0, 1);
    q.spec.init_containers[0]
        .resources
        .requests
        .insert("cpu".into(), "600m".into());
    assert_eq!(pod_requests(&q).cpu_milli, 700);
}
