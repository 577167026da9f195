//! The Kubernetes envelope, measured natively (the page runs the same with
//! `?bench=envelope`): N nodes in 3 zones and D Deployments × R replicas (and, with
//! `--daemonset`, a DaemonSet with a Pod on every node), from empty to every Deployment
//! available; then 10% of the nodes powered off, until every Deployment is available
//! again.
//!
//! ```text
//! cargo run --release -p kubeplay-engine --example envelope -- [--nodes 5000 --deployments 1500 --replicas 100] [--services] [--daemonset] [--converge-only]
//! ```
//! Prints one figure a line as `name: value unit`.

use kubeplay_engine::bench::{arg, envelope, rss, Size};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size = Size {
        nodes: arg(&args, "--nodes", 100),
        deployments: arg(&args, "--deployments", 30),
        replicas: arg(&args, "--replicas", 100),
        services: args.iter().any(|a| a == "--services"),
        daemonset: args.iter().any(|a| a == "--daemonset"),
        converge_only: args.iter().any(|a| a == "--converge-only"),
    };
    let start = Instant::now();
    envelope(size, &|| start.elapsed().as_secs_f64(), &rss, &mut |f| {
        println!("{f}")
    });
}
