//! A CronJob `@every 1s` whose Jobs never end (one Job a minute: its Jobs are named by
//! the minute), played an hour at a time for `--hours` simulated hours: the wall time
//! so far and the Jobs and Pods there are after each hour.
//!
//! ```text
//! cargo run --release -p kubeplay-engine --example cron_every -- [--hours 24]
//! ```
use kubeplay_engine::api::Kind;
use kubeplay_engine::bench::arg;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{self, NoFiles};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let hours = arg(&args, "--hours", 1);
    let mut c = Cluster::with_default_nodes(1);
    let o = command::run(&mut c, "kubectl apply -f -", Some("apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: tick}\nspec:\n  schedule: '@every 1s'\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers: [{name: c, image: busybox, command: [sleep, infinity], resources: {requests: {cpu: 1m, memory: 1Mi}}}]\n"), &NoFiles);
    assert!(o.ok, "{}", o.output);
    let t0 = Instant::now();
    for h in 1..=hours {
        c.advance(3_600_000);
        println!(
            "hour {h}: {:.2} s, {} jobs, {} pods",
            t0.elapsed().as_secs_f64(),
            c.store.count(Kind::Job),
            c.store.count(Kind::Pod)
        );
    }
}
