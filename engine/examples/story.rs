//! Prints the t0–t4 story (delete one Pod of three) as the watch log and Events show it.
//! `cargo run -p kubeplay-engine --example story`

use kubeplay_engine::api::*;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::printers::pod_ready_status;
use kubeplay_engine::time::clock_label;

fn pods(c: &Cluster) {
    for p in c.store.list::<Pod>() {
        let (ready, status, restarts) = pod_ready_status(p);
        println!(
            "  {:<28} {ready:<5} {status:<18} {restarts:<3} {:<8} {}",
            p.metadata.name,
            p.spec.node_name,
            &p.metadata.uid[..8]
        );
    }
}

fn main() {
    let mut c = Cluster::with_default_nodes(1);
    if let Err(e) = c.create_deployment("web", "nginx:1.27", 3, "100m", "128Mi") {
        eprintln!("{e}");
        return;
    }
    c.settle(120_000);
    println!("t0 at {}", clock_label(c.now()));
    pods(&c);
    let victim = c
        .store
        .list::<Pod>()
        .next()
        .map(|p| p.metadata.name.clone())
        .unwrap_or_default();
    let start_log = c.store.log.len();
    let _ = c.delete_pod(&victim);
    c.settle(120_000);
    println!(
        "after deleting {victim}, settled at {}",
        clock_label(c.now())
    );
    pods(&c);
    for e in c.store.log.since(start_log) {
        println!(
            "{:>8} {:<7} {:<14} {:<10} {:<40} {}",
            clock_label(e.time),
            e.type_.as_str(),
            e.verb,
            e.kind.name(),
            e.key.to_string(),
            e.writer
        );
    }
    for e in c.events() {
        println!(
            "{:>8} {:<7} {:<18} {}/{} {}",
            clock_label(e.last_ms),
            e.type_,
            e.reason,
            e.involved_object.kind,
            e.involved_object.name,
            e.message
        );
    }
}
