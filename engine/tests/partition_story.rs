//! `sim node partition`: the kubelet is alive but cut off. The control plane evicts
//! its Pod and starts a replacement elsewhere, while the old container keeps running —
//! two instances of one replica until the network heals.

mod common;
use common::*;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn running_instances(c: &Cluster) -> usize {
    c.kubelets.keys().map(|n| c.node_ps(n).unwrap().len()).sum()
}

#[test]
fn a_partitioned_node_leaves_its_pod_running_beside_the_replacement_until_it_heals() {
    let mut c = web_cluster(1);
    assert_eq!(running_instances(&c), 3);
    let victim = c.store.pods_on_node("node-2").next().unwrap().clone();
    let o = run(&mut c, "sim node partition node-2", None, &NoFiles);
    assert!(o.ok, "{}", o.output);
    // NotReady after the grace period, evicted 300 s later: exactly as a dead node.
    c.advance(400_000);
    assert!(c.settle(120_000));
    assert_eq!(
        web(&c).status.ready_replicas,
        3,
        "a replacement runs elsewhere"
    );
    assert!(
        pod(&c, &victim.metadata.name).is_some_and(|p| p.metadata.is_deleting()),
        "Terminating in the API"
    );
    // …but the old container still runs on the partitioned node: four instances of three.
    let ps = c.node_ps("node-2").unwrap();
    assert_eq!(ps.len(), 1);
    assert_eq!(ps[0].0, victim.metadata.name);
    assert_eq!(running_instances(&c), 4);
    let out = run(&mut c, "sim node ps node-2", None, &NoFiles).output;
    assert!(
        out.starts_with("POD") && out.contains(&victim.metadata.name) && out.contains("Running"),
        "{out}"
    );
    // Healing: the kubelet learns the Pod was deleted and stops it.
    assert_eq!(
        run(&mut c, "sim node up node-2", None, &NoFiles)
            .output
            .trim(),
        "node/node-2 reconnected to the API server"
    );
    assert!(c.settle(120_000));
    assert!(pod(&c, &victim.metadata.name).is_none());
    assert_eq!(running_instances(&c), 3);
    assert_eq!(
        c.store
            .list::<kubeplay_engine::api::Node>()
            .filter(|n| n.ready_status() == "True")
            .count(),
        3
    );
}

#[test]
fn a_short_partition_heals_without_restarting_the_containers() {
    let mut c = web_cluster(2);
    let victim = c.store.pods_on_node("node-1").next().unwrap().clone();
    run(&mut c, "sim node partition node-1", None, &NoFiles);
    c.advance(90_000);
    assert!(
        !pod(&c, &victim.metadata.name).unwrap().is_ready(),
        "marked not Ready by the node controller"
    );
    run(&mut c, "sim node up node-1", None, &NoFiles);
    assert!(c.settle(60_000));
    let p = pod(&c, &victim.metadata.name).unwrap();
    assert!(p.is_ready());
    assert_eq!(p.restarts(), 0, "unlike a reboot, nothing restarted");
}
