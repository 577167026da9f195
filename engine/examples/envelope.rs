//! The Kubernetes envelope, measured: N nodes in 3 zones and D Deployments × R replicas,
//! from empty to every Deployment available; then 10% of the nodes powered off, to
//! every Deployment available again (eviction after the 300 s toleration, rescheduling).
//!
//! ```text
//! cargo run --release -p kubeplay-engine --example envelope -- [--nodes 5000 --deployments 1500 --replicas 100]
//! ```
//! Prints one figure a line as `name: value unit`. Wall-clock figures are measured here,
//! outside the engine (which never reads a clock); the simulated run is deterministic.

use kubeplay_engine::api::Deployment;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::kubelet::NodeConfig;
use kubeplay_engine::time::SECOND;
use std::time::Instant;

fn arg(args: &[String], name: &str, default: usize) -> usize {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Resident set size and its peak, in bytes (Linux `/proc/self/status`; 0 elsewhere).
fn rss() -> (u64, u64) {
    let s = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb = |key: &str| {
        s.lines()
            .find(|l| l.starts_with(key))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0)
            * 1024
    };
    (kb("VmRSS:"), kb("VmHWM:"))
}

fn all_available(c: &Cluster) -> bool {
    c.store.list::<Deployment>().all(|d| {
        d.status.available_replicas == d.spec.replicas
            && d.status.updated_replicas == d.spec.replicas
    })
}

fn bound(c: &Cluster) -> usize {
    c.store
        .list::<kubeplay_engine::api::Pod>()
        .filter(|p| !p.spec.node_name.is_empty())
        .count()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let nodes = arg(&args, "--nodes", 100);
    let deployments = arg(&args, "--deployments", 30);
    let replicas = arg(&args, "--replicas", 100);
    let pods = deployments * replicas;
    println!("nodes: {nodes}");
    println!("pods: {pods}");
    let (rss0, _) = rss();
    let t0 = Instant::now();
    let mut c = Cluster::new(1);
    for i in 0..nodes {
        let mut cfg = NodeConfig {
            cpu: "32".into(),
            memory: "128Gi".into(),
            pods: 110,
            ..NodeConfig::default()
        };
        cfg.labels.insert(
            "topology.kubernetes.io/zone".into(),
            format!("zone-{}", ["a", "b", "c"][i % 3]),
        );
        c.add_node(&format!("node-{i:05}"), cfg).expect("node");
    }
    let setup = t0.elapsed().as_secs_f64();
    println!("setup_wall: {setup:.2} s");
    let t1 = Instant::now();
    for d in 0..deployments {
        c.create_deployment(
            &format!("app-{d:04}"),
            "registry.local/app:1.0",
            replicas as i64,
            "100m",
            "128Mi",
        )
        .expect("deployment");
    }
    // Play in 1 s slices of simulated time until every Pod is bound, then available.
    let mut scheduled_at = None;
    let mut sim_slices = 0;
    while !all_available(&c) {
        c.advance(SECOND);
        sim_slices += 1;
        if scheduled_at.is_none() && bound(&c) >= pods {
            scheduled_at = Some(t1.elapsed().as_secs_f64());
        }
        if sim_slices > 3600 {
            println!("error: not converged after 1 h of simulated time");
            break;
        }
    }
    let converge = t1.elapsed().as_secs_f64();
    let scheduled = scheduled_at.unwrap_or(converge);
    let writes = c.store.log.len();
    let (rss1, peak) = rss();
    println!("converge_wall: {converge:.2} s");
    println!("converge_sim: {} s", c.now() / SECOND);
    println!("schedule_wall: {scheduled:.2} s");
    println!(
        "pods_scheduled_per_s: {:.0} pods/s",
        pods as f64 / scheduled.max(1e-9)
    );
    println!("writes: {writes}");
    println!(
        "events_per_s: {:.0} writes/s",
        writes as f64 / converge.max(1e-9)
    );
    println!("peak_memory: {:.1} MiB", peak as f64 / 1048576.0);
    println!(
        "bytes_per_pod: {:.0} B",
        rss1.saturating_sub(rss0) as f64 / pods.max(1) as f64
    );
    // Node failure at scale: a tenth of the nodes lose power.
    let down = nodes / 10;
    let t2 = Instant::now();
    for i in 0..down {
        c.power_off(&format!("node-{:05}", i * 10))
            .expect("power off");
    }
    let start = c.now();
    // Until the evicted Pods' replacements are available elsewhere.
    loop {
        c.advance(5 * SECOND);
        if c.now() - start > 360 * SECOND && all_available(&c) {
            break;
        }
        if c.now() - start > 3600 * SECOND {
            println!("error: not recovered after 1 h of simulated time");
            break;
        }
    }
    let recover = t2.elapsed().as_secs_f64();
    println!("nodes_powered_off: {down}");
    println!("failover_wall: {recover:.2} s");
    println!("failover_sim: {} s", (c.now() - start) / SECOND);
    let (_, peak) = rss();
    println!(
        "peak_memory_after_failover: {:.1} MiB",
        peak as f64 / 1048576.0
    );
}
