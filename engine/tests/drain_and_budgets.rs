//! kubectl drain through the Eviction API with PodDisruptionBudgets (policy/v1).

mod common;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn sh(c: &mut Cluster, line: &str) -> (bool, String) {
    let o = run(c, line, None, &NoFiles);
    (o.ok, o.output)
}

fn pdb(c: &Cluster) -> PodDisruptionBudget {
    c.store
        .get::<PodDisruptionBudget>(&ObjKey::new("default", "web-pdb"))
        .unwrap()
        .clone()
}

#[test]
fn a_budget_counts_healthy_pods_and_allows_the_difference() {
    let mut c = common::web_cluster(1);
    assert_eq!(
        sh(
            &mut c,
            "kubectl create pdb web-pdb --selector=app=web --min-available=2"
        )
        .1
        .trim(),
        "poddisruptionbudget.policy/web-pdb created"
    );
    c.advance(1_000);
    let s = pdb(&c).status;
    assert_eq!(
        (
            s.current_healthy,
            s.desired_healthy,
            s.expected_pods,
            s.disruptions_allowed
        ),
        (3, 2, 3, 1)
    );
    let (_, out) = sh(&mut c, "kubectl get pdb");
    assert_eq!(
        out.lines()
            .nth(1)
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>(),
        ["web-pdb", "2", "N/A", "1", "1s"]
    );
    // maxUnavailable as a percentage reads the Deployment's scale.
    assert!(
        sh(
            &mut c,
            "kubectl create pdb half --selector=app=web --max-unavailable=50%"
        )
        .0
    );
    c.advance(1_000);
    let h = c
        .store
        .get::<PodDisruptionBudget>(&ObjKey::new("default", "half"))
        .unwrap()
        .status
        .clone();
    assert_eq!(
        (h.expected_pods, h.desired_healthy, h.disruptions_allowed),
        (3, 1, 2)
    );
}

#[test]
fn drain_is_refused_with_429_and_retries_every_five_seconds_until_its_timeout() {
    let mut c = Cluster::with_default_nodes(1);
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx --replicas=2",
    );
    c.settle(60_000);
    assert!(
        sh(
            &mut c,
            "kubectl create pdb web-pdb --selector=app=web --min-available=2"
        )
        .0
    );
    c.advance(1_000);
    assert_eq!(pdb(&c).status.disruptions_allowed, 0);
    let node = c.store.list::<Pod>().next().unwrap().spec.node_name.clone();
    let victim = c.store.pods_on_node(&node).next().unwrap().clone();
    let (ok, out) = sh(
        &mut c,
        &format!("kubectl drain {node} --ignore-daemonsets --timeout=30s"),
    );
    assert!(!ok, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("node/{node} cordoned"));
    assert_eq!(
        lines[1],
        format!("evicting pod default/{}", victim.metadata.name)
    );
    let refusal = format!(
        "error when evicting pods/\"{}\" -n \"default\" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.",
        victim.metadata.name
    );
    // Refused at 0, 5, …, 25 s; at 30 s evictPods' loop announces the Pod once more and
    // finds its global timeout reached before trying.
    assert_eq!(lines.iter().filter(|l| **l == refusal).count(), 6, "{out}");
    let announce = format!("evicting pod default/{}", victim.metadata.name);
    assert_eq!(lines.iter().filter(|l| **l == announce).count(), 7, "{out}");
    assert!(
        lines
            .last()
            .unwrap()
            .ends_with("global timeout reached: 30s"),
        "{out}"
    );
    // The budget held: the Pod still runs (the node stays cordoned, as with kubectl).
    let p = c.store.get::<Pod>(&ObjKey::of(&victim.metadata)).unwrap();
    assert!(!p.metadata.is_deleting() && p.is_ready());
    assert!(
        c.store
            .get::<Node>(&ObjKey::new("", &node))
            .unwrap()
            .spec
            .unschedulable
    );
}

#[test]
fn a_drain_that_waits_for_the_budget_gets_through_after_a_scale_up_makes_room() {
    let mut c = Cluster::with_default_nodes(1);
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx --replicas=2",
    );
    c.settle(60_000);
    assert!(
        sh(
            &mut c,
            "kubectl create pdb web-pdb --selector=app=web --min-available=2"
        )
        .0
    );
    c.advance(1_000);
    let node = c.store.list::<Pod>().next().unwrap().spec.node_name.clone();
    // Start the drain in "page mode": it stays pending while the budget says no.
    let mut o = kubeplay_engine::command::start(
        &mut c,
        &format!("kubectl drain {node} --ignore-daemonsets"),
        None,
        &NoFiles,
    );
    let mut b = o.blocking.take().expect("drain waits");
    assert!(o.output.contains("(will retry after 5s)"));
    let mut retries = 0;
    for _ in 0..60 {
        c.advance(1_000);
        if b.poll(&mut c) {
            break;
        }
        retries += b.output.matches("will retry after 5s").count();
        o.output.push_str(&std::mem::take(&mut b.output));
        if c.now() > 20_000
            && c.store
                .get::<Deployment>(&ObjKey::new("default", "web"))
                .unwrap()
                .spec
                .replicas
                == 2
        {
            // Make room: a third replica lets the budget allow one disruption.
            sh(&mut c, "kubectl scale deployment web --replicas=3");
        }
    }
    o.output.push_str(&b.output);
    assert!(
        retries >= 3,
        "retried every 5 s while refused: {}",
        o.output
    );
    assert!(
        o.output
            .trim_end()
            .ends_with(&format!("node/{node} drained")),
        "{}",
        o.output
    );
    assert!(c
        .store
        .pods_on_node(&node)
        .all(|p| p.is_terminal() || p.metadata.is_deleting()));
}
