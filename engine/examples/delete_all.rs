//! `kubectl delete pods --all` on N Pods, timed natively: nodes enough for them, one
//! Deployment of N replicas settled, then one delete of every Pod.
//!
//! ```text
//! cargo run --release -p kubeplay-engine --example delete_all -- [--pods 3000]
//! ```
//! Prints one figure a line as `name: value unit`.

use kubeplay_engine::bench::arg;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{self, NoFiles};
use kubeplay_engine::kubelet::NodeConfig;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let pods = arg(&args, "--pods", 3000);
    let mut c = Cluster::new(1);
    for i in 0..pods.div_ceil(100).max(1) {
        let cfg = NodeConfig {
            cpu: "32".into(),
            memory: "128Gi".into(),
            pods: 110,
            ..NodeConfig::default()
        };
        // Names are unique and the config valid: registration cannot fail.
        let _ = c.add_node(&format!("node-{i:05}"), cfg);
    }
    let t0 = Instant::now();
    let _ = c.create_deployment("web", "registry.local/app:1.0", pods as i64, "10m", "16Mi");
    c.settle(3_600_000);
    println!("pods: {pods}");
    println!("create_wall: {:.2} s", t0.elapsed().as_secs_f64());
    let t1 = Instant::now();
    let o = command::run(
        &mut c,
        "kubectl delete pods --all --wait=false",
        None,
        &NoFiles,
    );
    println!("delete_wall: {:.2} s", t1.elapsed().as_secs_f64());
    println!("deleted: {}", o.output.lines().count());
}
