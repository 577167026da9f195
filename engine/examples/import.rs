//! What an import costs: a settled cluster of N nodes (3 zones) and D Deployments × R
//! replicas is written as a snapshot (`sim export --snapshot`, the shape of `kubectl
//! get … -A -o json`), then read back with `sim import`'s importer.
//!
//! ```text
//! cargo run --release -p kubeplay-engine --example import -- [--nodes 1000 --deployments 300 --replicas 100] [--write FILE]
//! cargo run --release -p kubeplay-engine --example import -- --read FILE
//! ```
//! With `--write` the snapshot is written to FILE and not imported; `--read` imports
//! FILE in a process that built nothing before (so its memory is the import's).
//! Prints one figure a line as `name: value unit`.

use kubeplay_engine::api::LABEL_TOPOLOGY_ZONE;
use kubeplay_engine::bench::{arg, rss};
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::kubelet::NodeConfig;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    if let Some(file) = path("--read") {
        let text = std::fs::read_to_string(&file).expect("the snapshot file");
        println!("snapshot_bytes: {}", text.len());
        measure(text);
        return;
    }
    let (nodes, deployments, replicas) = (
        arg(&args, "--nodes", 1000),
        arg(&args, "--deployments", 300),
        arg(&args, "--replicas", 100),
    );
    let t = Instant::now();
    let text = {
        let mut c = Cluster::new(1);
        for i in 0..nodes {
            let mut cfg = NodeConfig {
                cpu: "32".into(),
                memory: "128Gi".into(),
                ..NodeConfig::default()
            };
            cfg.labels.insert(
                LABEL_TOPOLOGY_ZONE.into(),
                format!("zone-{}", ["a", "b", "c"][i % 3]),
            );
            c.add_node(&format!("node-{i:05}"), cfg)
                .expect("a new node name");
        }
        for d in 0..deployments {
            c.create_deployment(
                &format!("app-{d:04}"),
                "registry.local/app:1.0",
                replicas as i64,
                "100m",
                "128Mi",
            )
            .expect("a new Deployment");
        }
        c.settle(30 * 60 * 1000);
        println!("pods: {}", c.store.count(kubeplay_engine::api::Kind::Pod));
        println!("build_wall: {:.2} s", t.elapsed().as_secs_f64());
        serde_json::to_string(&kubeplay_engine::import::snapshot(&c)).expect("JSON")
    };
    println!("snapshot_bytes: {}", text.len());
    if let Some(file) = path("--write") {
        std::fs::write(&file, &text).expect("the snapshot file");
        return;
    }
    measure(text);
}

/// Import `text` and print the figures.
fn measure(text: String) {
    let (before, _) = rss();
    let t = Instant::now();
    let (c, report) = kubeplay_engine::import::import(1, None, &[("snapshot.json".into(), text)])
        .expect("the snapshot imports");
    let wall = t.elapsed().as_secs_f64();
    let (after, peak) = rss();
    println!("import_wall: {wall:.2} s");
    println!("pods_kept_running: {}", report.pods_kept_running);
    println!(
        "import_memory: {:.1} MB (resident after the import, less before)",
        (after.saturating_sub(before)) as f64 / 1e6
    );
    println!("peak_memory: {:.1} MB", peak as f64 / 1e6);
    println!("objects: {}", c.store.object_count());
}
