//! PodTopologySpread and InterPodAffinity in a running cluster: hard and soft spread,
//! required and preferred (anti-)affinity, and the FailedScheduling text they produce.

mod common;
use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::cluster::Cluster;
use std::collections::BTreeMap;

/// A cluster of the given nodes (name, zone, max pods) and nothing else.
fn cluster(nodes: &[(&str, &str, u32)]) -> Cluster {
    let mut c = Cluster::new(7);
    for (name, zone, pods) in nodes {
        sh(
            &mut c,
            &format!(
                "sim node add {name} --labels=topology.kubernetes.io/zone={zone} --pods={pods}"
            ),
        );
    }
    c.advance(1_000);
    c
}

fn deployment(name: &str, replicas: u32, extra_spec: &str) -> String {
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata:
  name: {name}
spec:
  replicas: {replicas}
  selector:
    matchLabels:
      app: {name}
  template:
    metadata:
      labels:
        app: {name}
    spec:
{extra_spec}
      containers:
      - name: app
        image: nginx:1.27
"
    )
}

/// Running Pods of `app` per node.
fn placement(c: &Cluster, app: &str) -> BTreeMap<String, usize> {
    let mut m = BTreeMap::new();
    for p in c.store.list::<Pod>() {
        if p.metadata.labels.get("app").map(String::as_str) == Some(app)
            && !p.spec.node_name.is_empty()
        {
            *m.entry(p.spec.node_name.clone()).or_default() += 1;
        }
    }
    m
}

fn pending(c: &Cluster, app: &str) -> Vec<Pod> {
    c.store
        .list::<Pod>()
        .filter(|p| {
            p.metadata.labels.get("app").map(String::as_str) == Some(app)
                && p.spec.node_name.is_empty()
        })
        .cloned()
        .collect()
}

fn scheduled_message(p: &Pod) -> String {
    p.status
        .conditions
        .iter()
        .find(|c| c.type_ == "PodScheduled")
        .map(|c| c.message.clone())
        .unwrap_or_default()
}

const ZONE_SPREAD_HARD: &str = "      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: DoNotSchedule
        labelSelector:
          matchLabels:
            app: web";

#[test]
fn a_hard_zone_spread_keeps_zones_within_max_skew_and_leaves_the_extra_pod_pending() {
    // Zone a has two roomy nodes, zone b one node with room for a single Pod.
    let mut c = cluster(&[("a1", "a", 110), ("a2", "a", 110), ("b1", "b", 1)]);
    apply(&mut c, &deployment("web", 3, ZONE_SPREAD_HARD));
    c.settle(120_000);
    let p = placement(&c, "web");
    let zone_a = p.get("a1").copied().unwrap_or(0) + p.get("a2").copied().unwrap_or(0);
    let zone_b = p.get("b1").copied().unwrap_or(0);
    // 3 Pods, skew 1: zone a 2, zone b 1.
    assert_eq!((zone_a, zone_b), (2, 1), "{p:?}");
    // A fourth Pod would make zone a 3 against zone b's 1, and b1 is full.
    sh(&mut c, "kubectl scale deployment web --replicas=4");
    c.settle(60_000);
    let waiting = pending(&c, "web");
    assert_eq!(waiting.len(), 1);
    assert_eq!(
        scheduled_message(&waiting[0]),
        "0/3 nodes are available: 1 Too many pods, 2 node(s) didn't match pod topology spread constraints. \
         preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
    );
    // The learner's view names the plugin per node.
    let why = sh(&mut c, &format!("sim why pod/{}", waiting[0].metadata.name));
    assert!(
        why.contains("PodTopologySpread: node(s) didn't match pod topology spread constraints"),
        "{why}"
    );
    assert!(why.contains("NodeResourcesFit: Too many pods"), "{why}");
}

#[test]
fn a_node_without_the_topology_key_is_rejected_as_unresolvable() {
    let mut c = cluster(&[("a1", "a", 110)]);
    sh(&mut c, "sim node add bare");
    c.advance(1_000);
    // Remove the zone label from nothing: `bare` was added without one.
    apply(&mut c, &deployment("web", 1, ZONE_SPREAD_HARD));
    c.settle(60_000);
    let key = c
        .store
        .list::<Pod>()
        .find(|p| p.metadata.labels.get("app").map(String::as_str) == Some("web"))
        .map(|p| kubeplay_engine::apiserver::ObjKey::of(&p.metadata))
        .unwrap();
    let a = &c.scheduler().last_attempt[&key];
    let bare = a.nodes.iter().find(|v| &*v.node == "bare").unwrap();
    let f = bare.failure.as_ref().unwrap();
    assert_eq!(
        f.reasons,
        ["node(s) didn't match pod topology spread constraints (missing required label)"]
    );
    assert!(f.unresolvable);
    assert_eq!(a.chosen.as_deref(), Some("a1"));
}

#[test]
fn required_anti_affinity_on_hostname_puts_one_replica_per_node_and_the_fourth_waits() {
    let mut c = cluster(&[("n1", "a", 110), ("n2", "a", 110), ("n3", "b", 110)]);
    let anti = "      affinity:
        podAntiAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector:
              matchLabels:
                app: cache
            topologyKey: kubernetes.io/hostname";
    apply(&mut c, &deployment("cache", 4, anti));
    c.settle(120_000);
    let p = placement(&c, "cache");
    assert_eq!(p.values().copied().collect::<Vec<_>>(), [1, 1, 1], "{p:?}");
    let waiting = pending(&c, "cache");
    assert_eq!(waiting.len(), 1);
    assert_eq!(
        scheduled_message(&waiting[0]),
        "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules. \
         preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod."
    );
    // A fourth node lets it run: the node add requeues it.
    sh(
        &mut c,
        "sim node add n4 --labels=topology.kubernetes.io/zone=b",
    );
    c.settle(120_000);
    assert!(pending(&c, "cache").is_empty());
    assert_eq!(placement(&c, "cache").get("n4"), Some(&1));
}

#[test]
fn an_existing_pods_anti_affinity_keeps_a_newcomer_off_its_node() {
    let mut c = cluster(&[("n1", "a", 110), ("n2", "a", 110)]);
    // `loner` refuses to share a node with anything labelled tier=noisy.
    apply(
        &mut c,
        "apiVersion: v1
kind: Pod
metadata:
  name: loner
spec:
  nodeName: n1
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchLabels:
            tier: noisy
        topologyKey: kubernetes.io/hostname
  containers:
  - name: app
    image: nginx:1.27
",
    );
    c.settle(60_000);
    apply(
        &mut c,
        "apiVersion: v1
kind: Pod
metadata:
  name: noisy
  labels:
    tier: noisy
spec:
  containers:
  - name: app
    image: nginx:1.27
",
    );
    c.settle(60_000);
    let key = kubeplay_engine::apiserver::ObjKey::new("default", "noisy");
    let a = &c.scheduler().last_attempt[&key];
    assert_eq!(a.chosen.as_deref(), Some("n2"));
    let n1 = a.nodes.iter().find(|v| &*v.node == "n1").unwrap();
    assert_eq!(
        n1.failure.as_ref().unwrap().reasons,
        ["node(s) didn't satisfy existing pods anti-affinity rules"]
    );
}

#[test]
fn required_pod_affinity_follows_the_first_pod_and_the_first_pod_may_go_anywhere() {
    let mut c = cluster(&[("a1", "a", 110), ("b1", "b", 110), ("b2", "b", 110)]);
    let aff = "      affinity:
        podAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
          - labelSelector:
              matchLabels:
                app: team
            topologyKey: topology.kubernetes.io/zone";
    apply(&mut c, &deployment("team", 4, aff));
    c.settle(120_000);
    assert!(pending(&c, "team").is_empty());
    // All four share the first Pod's zone.
    let p = placement(&c, "team");
    let zones: std::collections::BTreeSet<&str> = p
        .keys()
        .map(|n| if n == "a1" { "a" } else { "b" })
        .collect();
    assert_eq!(zones.len(), 1, "{p:?}");
}

#[test]
fn a_pod_whose_affinity_matches_nothing_is_unresolvable_everywhere() {
    let mut c = cluster(&[("a1", "a", 110), ("b1", "b", 110)]);
    apply(
        &mut c,
        "apiVersion: v1
kind: Pod
metadata:
  name: follower
spec:
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector:
          matchLabels:
            app: leader
        topologyKey: kubernetes.io/hostname
  containers:
  - name: app
    image: nginx:1.27
",
    );
    c.settle(30_000);
    let p = common::pod(&c, "follower").unwrap().clone();
    assert_eq!(
        scheduled_message(&p),
        "0/2 nodes are available: 2 node(s) didn't match pod affinity rules. \
         preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling."
    );
    // The leader arrives; binding it requeues the follower, which joins it.
    apply(
        &mut c,
        "apiVersion: v1
kind: Pod
metadata:
  name: leader
  labels:
    app: leader
spec:
  nodeName: b1
  containers:
  - name: app
    image: nginx:1.27
",
    );
    c.settle(60_000);
    assert_eq!(common::pod(&c, "follower").unwrap().spec.node_name, "b1");
}

#[test]
fn soft_spread_and_preferred_anti_affinity_score_the_emptier_domain_higher() {
    let mut c = cluster(&[("a1", "a", 110), ("b1", "b", 110)]);
    // Three Pods already in zone a.
    for i in 0..3 {
        apply(
            &mut c,
            &format!(
                "apiVersion: v1
kind: Pod
metadata:
  name: old-{i}
  labels:
    app: web
spec:
  nodeName: a1
  containers:
  - name: app
    image: nginx:1.27
"
            ),
        );
    }
    c.settle(60_000);
    apply(
        &mut c,
        "apiVersion: v1
kind: Pod
metadata:
  name: new
  labels:
    app: web
spec:
  topologySpreadConstraints:
  - maxSkew: 1
    topologyKey: topology.kubernetes.io/zone
    whenUnsatisfiable: ScheduleAnyway
    labelSelector:
      matchLabels:
        app: web
  affinity:
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 50
        podAffinityTerm:
          labelSelector:
            matchLabels:
              app: web
          topologyKey: kubernetes.io/hostname
  containers:
  - name: app
    image: nginx:1.27
",
    );
    c.settle(60_000);
    let key = kubeplay_engine::apiserver::ObjKey::new("default", "new");
    let a = &c.scheduler().last_attempt[&key];
    let score = |n: &str| {
        a.nodes
            .iter()
            .find(|v| &*v.node == n)
            .unwrap()
            .scores
            .clone()
            .unwrap()
    };
    // Spread, two zones → weight ln(4): a1 = round(3·1.386) = 4, b1 = 0;
    // normalized 100·(4+0−s)/4 → a1 0, b1 100.
    assert_eq!(score("a1").pod_topology_spread, Some(0));
    assert_eq!(score("b1").pod_topology_spread, Some(100));
    // Anti-affinity: a1 −150, b1 0 → (s − min)/(max − min) → a1 0, b1 100.
    assert_eq!(score("a1").inter_pod_affinity, Some(0));
    assert_eq!(score("b1").inter_pod_affinity, Some(100));
    assert_eq!(a.chosen.as_deref(), Some("b1"));
}

#[test]
fn a_namespace_selector_widens_a_term_to_other_namespaces_by_their_labels() {
    let mut c = cluster(&[("n1", "a", 110), ("n2", "a", 110)]);
    sh(&mut c, "kubectl create namespace other");
    let ns = c
        .store
        .get::<Namespace>(&kubeplay_engine::apiserver::ObjKey::new("", "other"))
        .unwrap();
    assert_eq!(ns.metadata.labels["kubernetes.io/metadata.name"], "other");
    apply(
        &mut c,
        "apiVersion: v1
kind: Pod
metadata: {name: db, namespace: other, labels: {app: db}}
spec:
  nodeName: n1
  containers: [{name: db, image: postgres:16}]
",
    );
    c.settle(60_000);
    let pod = |name: &str, selector: &str| {
        format!(
            "apiVersion: v1
kind: Pod
metadata: {{name: {name}}}
spec:
  affinity:
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - labelSelector: {{matchLabels: {{app: db}}}}
        topologyKey: kubernetes.io/hostname
{selector}
  containers: [{{name: app, image: nginx:1.27}}]
"
        )
    };
    // Without a namespace selector the term looks only in `default`: n1 is allowed.
    apply(&mut c, &pod("plain", ""));
    // With `{kubernetes.io/metadata.name: other}` it sees the db Pod and avoids n1.
    apply(
        &mut c,
        &pod(
            "wide",
            "        namespaceSelector: {matchLabels: {kubernetes.io/metadata.name: other}}",
        ),
    );
    c.settle(60_000);
    let verdict = |name: &str| {
        let a =
            &c.scheduler().last_attempt[&kubeplay_engine::apiserver::ObjKey::new("default", name)];
        a.nodes
            .iter()
            .find(|v| &*v.node == "n1")
            .unwrap()
            .failure
            .as_ref()
            .map(|f| f.reasons.clone())
    };
    assert_eq!(verdict("plain"), None);
    assert_eq!(
        verdict("wide"),
        Some(vec![
            "node(s) didn't match pod anti-affinity rules".to_string()
        ])
    );
    assert_eq!(common::pod(&c, "wide").unwrap().spec.node_name, "n2");
}

#[test]
fn a_deployments_replicas_spread_over_hostnames_by_default_even_where_one_big_node_scores_higher() {
    // LeastAllocated alone prefers the big node for every replica (99 against 97 per
    // Pod, and the image it has pulled adds ImageLocality); the system default
    // hostname constraint (maxSkew 3, weight 2) outweighs that as soon as it holds one.
    let mut c = Cluster::new(7);
    sh(&mut c, "sim node add big --cpu=32 --memory=64Gi");
    sh(&mut c, "sim node add small-1 --cpu=4 --memory=8Gi");
    sh(&mut c, "sim node add small-2 --cpu=4 --memory=8Gi");
    c.advance(1_000);
    apply(&mut c, &deployment("web", 3, ""));
    c.settle(120_000);
    let p = placement(&c, "web");
    assert_eq!(
        p.into_iter().collect::<Vec<_>>(),
        [
            ("big".into(), 1),
            ("small-1".into(), 1),
            ("small-2".into(), 1)
        ],
    );
    // A bare Pod has no controller and so no default constraint: it goes to the big node.
    apply(
        &mut c,
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: solo\nspec:\n  containers:\n  - name: app\n    image: nginx:1.27\n",
    );
    c.settle(60_000);
    assert_eq!(common::pod(&c, "solo").unwrap().spec.node_name, "big");
}

#[test]
fn the_default_spread_counts_zones_only_on_nodes_that_carry_the_zone_label() {
    // Zone a: two nodes; zone b: one; and x1 without a zone label. As upstream, the
    // zone constraint scores only the nodes that carry the key (a node without it is
    // still spread by hostname: `requireAllTopologies` is false for the defaults), so
    // x1 misses the zone term's count and its maxSkew − 1 and is preferred; among the
    // labelled nodes, zone b's single node takes as many as zone a's two together.
    let mut c = Cluster::new(7);
    for (name, labels) in [
        ("a1", " --labels=topology.kubernetes.io/zone=a"),
        ("a2", " --labels=topology.kubernetes.io/zone=a"),
        ("b1", " --labels=topology.kubernetes.io/zone=b"),
        ("x1", ""),
    ] {
        sh(
            &mut c,
            &format!("sim node add {name} --cpu=8 --memory=16Gi{labels}"),
        );
    }
    c.advance(1_000);
    apply(&mut c, &deployment("web", 8, ""));
    c.settle(120_000);
    // Without the defaults the four equal nodes would take 2 each.
    assert_eq!(
        placement(&c, "web").into_iter().collect::<Vec<_>>(),
        [
            ("a1".into(), 1),
            ("a2".into(), 1),
            ("b1".into(), 2),
            ("x1".into(), 4)
        ],
    );
}

/// Pods of `app=gateway` per node after a rollout that adds a hostname spread
/// constraint to replicas that all started on node-1.
fn spread_after_rollout(match_label_keys: bool) -> Vec<usize> {
    use kubeplay_engine::command::{run, NoFiles};
    let mut c = Cluster::with_default_nodes(3);
    for line in [
        "kubectl cordon node-2",
        "kubectl cordon node-3",
        "kubectl create deployment gateway --image=nginx:1.27 --replicas=3",
    ] {
        assert!(run(&mut c, line, None, &NoFiles).ok, "{line}");
    }
    assert!(c.settle(120_000));
    for line in ["kubectl uncordon node-2", "kubectl uncordon node-3"] {
        assert!(run(&mut c, line, None, &NoFiles).ok, "{line}");
    }
    let keys = if match_label_keys {
        r#","matchLabelKeys":["pod-template-hash"]"#
    } else {
        ""
    };
    let patch = format!(
        r#"kubectl patch deployment gateway -p '{{"spec":{{"template":{{"spec":{{"topologySpreadConstraints":[{{"maxSkew":1,"topologyKey":"kubernetes.io/hostname","whenUnsatisfiable":"DoNotSchedule","labelSelector":{{"matchLabels":{{"app":"gateway"}}}}{keys}}}]}}}}}}}}'"#
    );
    let o = run(&mut c, &patch, None, &NoFiles);
    assert!(o.ok, "{}", o.output);
    assert!(c.settle(300_000));
    ["node-1", "node-2", "node-3"]
        .iter()
        .map(|n| {
            c.store
                .list::<Pod>()
                .filter(|p| p.spec.node_name == *n && p.metadata.deletion_timestamp.is_none())
                .count()
        })
        .collect()
}

#[test]
fn match_label_keys_lets_a_rollout_spread_its_new_pods_one_per_node() {
    assert_eq!(spread_after_rollout(true), [1, 1, 1]);
    // Without it the old Pods on node-1 count while the new ones are placed.
    assert_ne!(spread_after_rollout(false), [1, 1, 1]);
}
