//! Prints the node power-off story: NotReady after ~50 s, eviction 300 s later.
//! `cargo run -p kubeplay-engine --example node_down`

use kubeplay_engine::api::*;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::printers::{node_status, pod_ready_status};
use kubeplay_engine::time::clock_label;

fn main() {
    let mut c = Cluster::with_default_nodes(1);
    if let Err(e) = c.create_deployment("web", "nginx:1.27", 3, "100m", "128Mi") {
        eprintln!("{e}");
        return;
    }
    c.settle(120_000);
    c.advance(20_000);
    let t0 = c.now();
    let _ = c.power_off("node-2");
    let start = c.events().len();
    c.advance(400_000);
    println!("powered off node-2 at {}", clock_label(t0));
    for e in c.events().into_iter().filter(|e| e.last_ms > t0) {
        println!(
            "{:>8} +{:>5.1}s {:<7} {:<22} {}/{} {}",
            clock_label(e.last_ms),
            (e.last_ms - t0) as f64 / 1000.0,
            e.type_,
            e.reason,
            e.involved_object.kind,
            e.involved_object.name,
            e.message
        );
    }
    let _ = start;
    for n in c.store.list::<Node>() {
        let taints: Vec<String> = n
            .spec
            .taints
            .iter()
            .map(|t| format!("{}:{}", t.key, t.effect))
            .collect();
        println!("{} {} {:?}", n.metadata.name, node_status(n), taints);
    }
    for p in c.store.list::<Pod>() {
        let (r, s, _) = pod_ready_status(p);
        println!("{} {r} {s} {}", p.metadata.name, p.spec.node_name);
    }
    let _ = c.power_on("node-2");
    c.settle(60_000);
    println!("after power on at {}", clock_label(c.now()));
    for n in c.store.list::<Node>() {
        println!(
            "{} {} {:?}",
            n.metadata.name,
            node_status(n),
            n.spec.taints.len()
        );
    }
    for p in c.store.list::<Pod>() {
        let (r, s, _) = pod_ready_status(p);
        println!("{} {r} {s} {}", p.metadata.name, p.spec.node_name);
    }
}
