//! What one reconcile of the learner's controller costs, measured natively: the
//! PodSet loop (`engine/controllers/desired-state-loop.js`) on a PodSet of N replicas, in sync,
//! reconciled again and again. Each round queues its key and plays the clock until it
//! is synced; the same rounds with the controller paused are the baseline, so the
//! difference is the reconcile: the informer cache as JSON, the sandbox (a fresh
//! QuickJS runtime, the code parsed and run), and its requests decoded.
//!
//! ```text
//! cargo run --release -p kubeplay-engine --example reconcile_cost -- [--replicas 3] [--rounds 200]
//! ```
//! Prints one figure a line as `name: value unit`.

use kubeplay_engine::bench::arg;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::controllers::script::runner;
use std::time::Instant;

const CRD: &str = include_str!("../controllers/podset-crd.yaml");
const LOOP: &str = include_str!("../controllers/desired-state-loop.js");

fn sh(c: &mut Cluster, cmd: &str, stdin: Option<&str>) {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(o.ok, "{cmd}: {}", o.output);
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let replicas: usize = arg(&args, "--replicas", 3);
    let rounds: usize = arg(&args, "--rounds", 200);
    runner::install_global(kubeplay_sandbox::run_json);
    let mut c = Cluster::with_default_nodes(3);
    sh(&mut c, "kubectl apply -f -", Some(CRD));
    c.settle(60_000);
    sh(
        &mut c,
        "sim controller run --for podsets --owns pods -f -",
        Some(LOOP),
    );
    let web = format!(
        "apiVersion: course.kubeplay.dev/v1\nkind: PodSet\nmetadata:\n  name: web\nspec:\n  replicas: {replicas}\n  image: nginx\n  selector:\n    app: web\n"
    );
    sh(&mut c, "kubectl apply -f -", Some(&web));
    c.settle(24 * 3_600_000);
    let spec = c.my_controller().spec.clone();
    let time = |c: &mut Cluster, paused: bool| {
        c.pause_my_controller(paused);
        let calls = c.my_controller().calls;
        let start = Instant::now();
        for _ in 0..rounds {
            c.set_my_controller(spec.clone());
            c.advance(1_000);
        }
        let took = start.elapsed().as_secs_f64();
        (took, c.my_controller().calls - calls)
    };
    let (base, none) = time(&mut c, true);
    c.pause_my_controller(false);
    c.advance(1_000);
    let (with, calls) = time(&mut c, false);
    assert_eq!(none, 0);
    let ctl = c.my_controller();
    let per_call = (with - base).max(0.0) / calls.max(1) as f64;
    println!("reconcile_pods_in_cache: {replicas} pods");
    println!("reconciles: {calls} calls");
    println!("reconcile_native: {:.0} us", per_call * 1e6);
    println!("reconcile_ticks_max: {} ticks", ctl.ticks.1);
}
