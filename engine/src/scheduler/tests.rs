use super::*;
use crate::apiserver::{NodeUsage, PodRequests};

const GI: i64 = 1 << 30;
const MI: i64 = 1 << 20;

fn node(name: &str, cpu: &str, mem: &str) -> Node {
    let mut n = Node::default();
    n.metadata.name = name.into();
    for k in [&mut n.status.allocatable, &mut n.status.capacity] {
        k.insert("cpu".into(), cpu.into());
        k.insert("memory".into(), mem.into());
        k.insert("pods".into(), "110".into());
    }
    n
}

fn usage(cpu_milli: i64, memory: i64, pods: i64) -> NodeUsage {
    NodeUsage {
        requested: PodRequests {
            cpu_milli,
            memory,
            nonzero_cpu_milli: cpu_milli,
            nonzero_memory: memory,
            ..Default::default()
        },
        pods,
        alloc: None,
        below_zero_priority: 0,
    }
}

fn pod_requesting(cpu: &str, mem: &str) -> Pod {
    let mut p = Pod::default();
    let mut r = ResourceRequirements::default();
    if !cpu.is_empty() {
        r.requests.insert("cpu".into(), cpu.into());
    }
    if !mem.is_empty() {
        r.requests.insert("memory".into(), mem.into());
    }
    p.spec.containers.push(Container {
        name: "c".into(),
        image: "i".into(),
        resources: r,
        ..Default::default()
    });
    p
}

#[test]
fn requests_not_usage_decide_fit_eight_minus_six_is_less_than_three() {
    let n = node("node-1", "4", "8Gi");
    let p = pod_requesting("", "3Gi");
    let req = crate::apiserver::pod_requests(&p);
    let f = run_filters(&p, &n, &usage(0, 6 * GI, 3), &req, &[]).unwrap_err();
    assert_eq!(f.plugin, "NodeResourcesFit");
    assert_eq!(f.reasons, ["Insufficient memory"]);
    assert!(!f.unresolvable);
    // 2Gi fits exactly into what is left.
    let p2 = pod_requesting("", "2Gi");
    assert!(run_filters(
        &p2,
        &n,
        &usage(0, 6 * GI, 3),
        &crate::apiserver::pod_requests(&p2),
        &[]
    )
    .is_ok());
}

#[test]
fn least_allocated_prefers_node_b_with_one_of_four_cpus_requested_over_node_a_with_two_and_a_half()
{
    let a = node("node-a", "4", "8Gi");
    let b = node("node-b", "4", "8Gi");
    let p = pod_requesting("1", "1Gi");
    let req = crate::apiserver::pod_requests(&p);
    // cpu: (4000 − 3500)·100/4000 = 12; memory: (8Gi − 2Gi)·100/8Gi = 75 → (12+75)/2 = 43.
    assert_eq!(least_allocated(&a, &usage(2500, GI, 2), &req), 43);
    // cpu: (4000 − 2000)·100/4000 = 50; memory 75 → 62.
    assert_eq!(least_allocated(&b, &usage(1000, GI, 1), &req), 62);
}

#[test]
fn containers_without_requests_count_as_100m_and_200mi_for_least_allocated() {
    let n = node("n", "1", "1000Mi");
    let p = pod_requesting("", "");
    let req = crate::apiserver::pod_requests(&p);
    assert_eq!((req.nonzero_cpu_milli, req.nonzero_memory), (100, 200 * MI));
    // cpu 90, memory 80 → 85.
    assert_eq!(least_allocated(&n, &NodeUsage::default(), &req), 85);
    // BalancedAllocation skips a pod without requests.
    assert_eq!(balanced_allocation(&n, &NodeUsage::default(), &req), None);
}

#[test]
fn balanced_allocation_is_one_minus_half_the_fraction_gap() {
    let n = node("n", "4", "8Gi");
    let p = pod_requesting("1", "1Gi");
    let req = crate::apiserver::pod_requests(&p);
    // cpu 2/4 = 0.5, memory 2/8 = 0.25 → std 0.125 → 87.
    assert_eq!(balanced_allocation(&n, &usage(1000, GI, 1), &req), Some(87));
}

#[test]
fn taint_toleration_and_cordon_filters_are_unresolvable_with_kubectls_words() {
    let mut n = node("cp", "4", "8Gi");
    n.spec.taints.push(Taint {
        key: "node-role.kubernetes.io/control-plane".into(),
        effect: "NoSchedule".into(),
        ..Default::default()
    });
    let p = pod_requesting("100m", "");
    let req = crate::apiserver::pod_requests(&p);
    let f = run_filters(&p, &n, &NodeUsage::default(), &req, &[]).unwrap_err();
    assert_eq!(
        f.reasons,
        ["node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }"]
    );
    assert!(f.unresolvable);
    n.spec.unschedulable = true;
    let f = run_filters(&p, &n, &NodeUsage::default(), &req, &[]).unwrap_err();
    assert_eq!(
        f.reasons,
        ["node(s) were unschedulable"],
        "NodeUnschedulable runs first"
    );
}

#[test]
fn node_selector_disk_nvme_excludes_a_node_without_the_label() {
    let mut a = node("node-a", "4", "8Gi");
    a.metadata.labels.insert("disk".into(), "nvme".into());
    let b = node("node-b", "4", "8Gi");
    let mut p = pod_requesting("100m", "");
    p.spec.node_selector.insert("disk".into(), "nvme".into());
    let req = crate::apiserver::pod_requests(&p);
    assert!(run_filters(&p, &a, &NodeUsage::default(), &req, &[]).is_ok());
    assert_eq!(
        run_filters(&p, &b, &NodeUsage::default(), &req, &[])
            .unwrap_err()
            .reasons,
        ["node(s) didn't match Pod's node affinity/selector"]
    );
}

fn failed(node: &str, reason: &str, unresolvable: bool) -> NodeVerdict {
    NodeVerdict {
        node: node.into(),
        failure: Some(FilterFailure {
            plugin: "x",
            reasons: vec![reason.into()],
            unresolvable,
        }),
        scores: None,
    }
}

/// The PostFilter message DefaultPreemption gives when no node has lower-priority Pods:
/// every resolvable node "no victims", every unresolvable one "not helpful".
fn post_filter(verdicts: &[NodeVerdict]) -> String {
    let statuses: Vec<(String, Vec<String>)> = verdicts
        .iter()
        .filter_map(|v| v.failure.as_ref().map(|f| (v.node.to_string(), f)))
        .map(|(n, f)| {
            let r = if f.unresolvable {
                preemption::NOT_HELPFUL
            } else {
                preemption::NO_VICTIMS
            };
            (n, vec![r.to_string()])
        })
        .collect();
    preemption::post_filter_message(verdicts.len(), &statuses)
}

#[test]
fn failed_scheduling_counts_and_sorts_reasons_and_adds_the_preemption_half() {
    let verdicts = vec![
        failed("a", "Insufficient cpu", false),
        failed(
            "b",
            "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }",
            true,
        ),
        failed(
            "c",
            "node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }",
            true,
        ),
    ];
    assert_eq!(
        fit_error(3, &verdicts, Some(&post_filter(&verdicts))),
        "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }. preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling."
    );
    assert_eq!(
        fit_error(0, &[], None),
        "no nodes available to schedule pods"
    );
}

#[test]
fn reasons_sort_as_whole_strings_so_ten_comes_before_two() {
    let mut v: Vec<NodeVerdict> = (0..10)
        .map(|i| failed(&format!("x{i}"), "Insufficient cpu", false))
        .collect();
    v.extend((0..2).map(|i| failed(&format!("y{i}"), "Insufficient memory", false)));
    assert!(fit_error(12, &v, None)
        .starts_with("0/12 nodes are available: 10 Insufficient cpu, 2 Insufficient memory."));
}

#[test]
fn the_number_of_feasible_nodes_to_find_follows_the_adaptive_percentage() {
    assert_eq!(num_feasible_nodes_to_find(3), 3);
    assert_eq!(num_feasible_nodes_to_find(99), 99);
    assert_eq!(num_feasible_nodes_to_find(100), 100);
    // 1,000 nodes: 50 − 8 = 42% → 420.
    assert_eq!(num_feasible_nodes_to_find(1_000), 420);
    // 5,000 nodes: 50 − 40 = 10% → 500.
    assert_eq!(num_feasible_nodes_to_find(5_000), 500);
    // 10,000 nodes: floor at 5% → 500.
    assert_eq!(num_feasible_nodes_to_find(10_000), 500);
}

#[test]
fn normalization_scales_by_the_maximum_and_reverse_flips_it() {
    let mut s = vec![0, 1, 2];
    default_normalize(&mut s, true);
    assert_eq!(s, [100, 50, 0]);
    let mut z = vec![0, 0];
    default_normalize(&mut z, true);
    assert_eq!(z, [100, 100]);
}

#[test]
fn required_node_affinity_ors_terms_and_ands_expressions_with_gt_and_lt() {
    let mut n = node("n", "4", "8Gi");
    n.metadata.labels.insert("zone".into(), "b".into());
    n.metadata.labels.insert("cores".into(), "16".into());
    let term = |exprs: Vec<(&str, &str, Vec<&str>)>| NodeSelectorTerm {
        match_expressions: exprs
            .into_iter()
            .map(|(k, op, v)| NodeSelectorRequirement {
                key: k.into(),
                operator: op.into(),
                values: v.into_iter().map(String::from).collect(),
            })
            .collect(),
        ..Default::default()
    };
    let pod_with = |terms: Vec<NodeSelectorTerm>| {
        let mut p = pod_requesting("100m", "");
        p.spec.affinity = Some(Affinity {
            node_affinity: Some(NodeAffinity {
                required: Some(NodeSelector {
                    node_selector_terms: terms,
                }),
                preferred: vec![],
            }),
            ..Default::default()
        });
        p
    };
    let fits = |p: &Pod| {
        run_filters(
            p,
            &n,
            &NodeUsage::default(),
            &crate::apiserver::pod_requests(p),
            &[],
        )
        .is_ok()
    };
    assert!(fits(&pod_with(vec![term(vec![
        ("zone", "In", vec!["a", "b"]),
        ("cores", "Gt", vec!["8"])
    ])])));
    assert!(!fits(&pod_with(vec![term(vec![
        ("zone", "In", vec!["a", "b"]),
        ("cores", "Lt", vec!["8"])
    ])])));
    // Terms are ORed.
    assert!(fits(&pod_with(vec![
        term(vec![("zone", "NotIn", vec!["b"])]),
        term(vec![("gpu", "DoesNotExist", vec![])])
    ])));
    assert!(!fits(&pod_with(vec![term(vec![(
        "gpu",
        "Exists",
        vec![]
    )])])));
}

#[test]
fn preferred_node_affinity_sums_the_weights_of_matching_terms() {
    let mut n = node("n", "4", "8Gi");
    n.metadata.labels.insert("disk".into(), "nvme".into());
    let mut p = pod_requesting("100m", "");
    let pref = |w: i64, k: &str, v: &str| PreferredSchedulingTerm {
        weight: w,
        preference: NodeSelectorTerm {
            match_expressions: vec![NodeSelectorRequirement {
                key: k.into(),
                operator: "In".into(),
                values: vec![v.into()],
            }],
            ..Default::default()
        },
    };
    p.spec.affinity = Some(Affinity {
        node_affinity: Some(NodeAffinity {
            required: None,
            preferred: vec![pref(20, "disk", "nvme"), pref(60, "zone", "a")],
        }),
        ..Default::default()
    });
    assert_eq!(node_affinity_raw(&p, &n), 20);
}

#[test]
fn a_taken_host_port_filters_the_node_but_preemption_could_help() {
    let n = node("n", "4", "8Gi");
    let mut p = pod_requesting("100m", "");
    p.spec.containers[0].ports.push(ContainerPort {
        container_port: 80,
        host_port: 8080,
        ..Default::default()
    });
    let req = crate::apiserver::pod_requests(&p);
    let f = run_filters(&p, &n, &NodeUsage::default(), &req, &[(8080, "TCP".into())]).unwrap_err();
    assert_eq!(
        (f.plugin, f.reasons[0].as_str(), f.unresolvable),
        (
            "NodePorts",
            "node(s) didn't have free ports for the requested pod ports",
            false
        )
    );
    assert!(run_filters(&p, &n, &NodeUsage::default(), &req, &[(8080, "UDP".into())]).is_ok());
}

#[test]
fn init_containers_count_as_the_maximum_with_the_app_containers_sum() {
    let mut p = pod_requesting("200m", "100Mi");
    let mut init = Container {
        name: "migrate".into(),
        image: "i".into(),
        ..Default::default()
    };
    init.resources.requests.insert("cpu".into(), "1".into());
    p.spec.init_containers.push(init);
    let r = crate::apiserver::pod_requests(&p);
    assert_eq!((r.cpu_milli, r.memory), (1000, 100 * MI));
}

#[test]
fn image_locality_scales_size_by_spread_and_only_matches_the_reported_name() {
    let mut n = node("n1", "4", "8Gi");
    n.status.images.push(ContainerImage {
        names: vec![
            "docker.io/library/x@sha256:00".into(),
            "docker.io/library/x:1".into(),
        ],
        size_bytes: 600 * MI,
    });
    let state = |name: &str| (name == "docker.io/library/x:1").then_some((600 * MI, 1usize));
    let with_image = |image: &str| {
        let mut p = pod_requesting("100m", "");
        p.spec.containers[0].image = image.into();
        p
    };
    // 600 MiB on 1 of 2 nodes → 300 MiB; 100 × (300 − 23) / (1000 − 23) = 28.
    assert_eq!(
        image_locality(&with_image("docker.io/library/x:1"), &n, 2, state),
        28
    );
    // On every node the spread is 1: 100 × (600 − 23) / 977 = 59.
    assert_eq!(
        image_locality(&with_image("docker.io/library/x:1"), &n, 1, state),
        59
    );
    // The short name the node does not report, and a missing tag (→ :latest), earn nothing.
    assert_eq!(image_locality(&with_image("x:1"), &n, 2, state), 0);
    assert_eq!(
        image_locality(&with_image("docker.io/library/x"), &n, 2, state),
        0
    );
    assert_eq!(
        normalized_image_name("docker.io/library/x"),
        "docker.io/library/x:latest"
    );
    assert_eq!(
        normalized_image_name("localhost:5000/x"),
        "localhost:5000/x:latest"
    );
    assert_eq!(
        normalized_image_name("localhost:5000/x:2"),
        "localhost:5000/x:2"
    );
}

#[test]
fn a_pod_pinned_by_match_fields_is_filtered_on_its_node_only_and_the_rest_fail_node_affinity() {
    let mut pod = Pod::default();
    pod.spec.affinity = Some(crate::controllers::daemonset::replace_node_name_affinity(
        None, "node-2",
    ));
    let names = crate::api::node_affinity::node_name_prefilter(&pod).unwrap();
    assert_eq!(
        names.into_iter().collect::<Vec<_>>(),
        vec!["node-2".to_string()]
    );
    let mut n = Node::default();
    n.metadata.name = "node-1".into();
    assert!(!crate::api::node_affinity::node_affinity_matches(&pod, &n));
    n.metadata.name = "node-2".into();
    assert!(crate::api::node_affinity::node_affinity_matches(&pod, &n));
}
