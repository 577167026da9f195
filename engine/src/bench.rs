//! The envelope benchmark, shared by the native example (`examples/envelope.rs`) and the
//! page (`?bench=envelope`): the same run, with the wall clock and the memory gauge
//! handed in by the caller — the engine itself never reads a clock.
//!
//! N nodes in 3 zones, D Deployments × R replicas, from empty to every Deployment
//! available; then a tenth of the nodes powered off, until every Deployment is
//! available again (eviction after the 300 s toleration, rescheduling elsewhere).

use crate::api::{DaemonSet, Deployment, Pod, LABEL_TOPOLOGY_ZONE};
use crate::cluster::Cluster;
use crate::kubelet::NodeConfig;
use crate::time::SECOND;

/// The run's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Size {
    /// Nodes.
    pub nodes: usize,
    /// Deployments.
    pub deployments: usize,
    /// Replicas each.
    pub replicas: usize,
    /// A Service in front of each Deployment (EndpointSlices, Endpoints, kube-proxy).
    pub services: bool,
    /// A DaemonSet too: one Pod on every node.
    pub daemonset: bool,
    /// Stop after the converge, without the failover (to profile the converge alone).
    pub converge_only: bool,
}

/// One printed figure: `name: value unit`.
#[derive(Clone, Debug, PartialEq)]
pub struct Figure {
    /// Name (`converge_wall`).
    pub name: &'static str,
    /// Value.
    pub value: f64,
    /// Unit (`s`, `pods/s`, `MiB`…).
    pub unit: &'static str,
}

impl std::fmt::Display for Figure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let v = if self.value.fract() == 0.0 || self.value.abs() >= 100.0 {
            format!("{:.0}", self.value)
        } else {
            format!("{:.2}", self.value)
        };
        if self.unit.is_empty() {
            write!(f, "{}: {v}", self.name)
        } else {
            write!(f, "{}: {v} {}", self.name, self.unit)
        }
    }
}

fn all_available(c: &Cluster) -> bool {
    c.store.list::<Deployment>().all(|d| {
        d.status.available_replicas == d.spec.replicas
            && d.status.updated_replicas == d.spec.replicas
    }) && c.store.list::<DaemonSet>().all(|d| {
        d.status.desired_number_scheduled > 0
            && d.status.number_available == d.status.desired_number_scheduled
    })
}

fn bound(c: &Cluster) -> usize {
    c.store
        .list::<Pod>()
        .filter(|p| !p.spec.node_name.is_empty())
        .count()
}

/// Run the envelope. `now()` is a wall clock in seconds; `memory()` the bytes in use
/// (RSS natively, wasm linear memory in the page) and their peak. `progress` hears
/// each figure as it is measured.
pub fn envelope(
    size: Size,
    now: &dyn Fn() -> f64,
    memory: &dyn Fn() -> (u64, u64),
    progress: &mut dyn FnMut(&Figure),
) -> Vec<Figure> {
    let mut out = Vec::new();
    let mut say = |name: &'static str, value: f64, unit: &'static str| {
        let f = Figure { name, value, unit };
        progress(&f);
        out.push(f);
    };
    let pods = size.deployments * size.replicas + if size.daemonset { size.nodes } else { 0 };
    say("nodes", size.nodes as f64, "");
    say("pods", pods as f64, "");
    say(
        "services",
        if size.services {
            size.deployments as f64
        } else {
            0.0
        },
        "",
    );
    let (mem0, _) = memory();
    let t0 = now();
    let mut c = Cluster::new(1);
    for i in 0..size.nodes {
        let mut cfg = NodeConfig {
            cpu: "32".into(),
            memory: "128Gi".into(),
            pods: 110,
            ..NodeConfig::default()
        };
        cfg.labels.insert(
            LABEL_TOPOLOGY_ZONE.into(),
            format!("zone-{}", ["a", "b", "c"][i % 3]),
        );
        // Names are unique and the config valid: registration cannot fail.
        let _ = c.add_node(&format!("node-{i:05}"), cfg);
    }
    say("setup_wall", now() - t0, "s");
    let t1 = now();
    for d in 0..size.deployments {
        let _ = c.create_deployment(
            &format!("app-{d:04}"),
            "registry.local/app:1.0",
            size.replicas as i64,
            "100m",
            "128Mi",
        );
        if size.services {
            let _ = crate::command::run(
                &mut c,
                &format!("kubectl expose deployment app-{d:04} --port=80"),
                None,
                &crate::command::NoFiles,
            );
        }
    }
    if size.daemonset {
        let _ = crate::command::run(
            &mut c,
            "kubectl apply -f -",
            Some("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: node-agent}\nspec:\n  selector: {matchLabels: {app: node-agent}}\n  template:\n    metadata: {labels: {app: node-agent}}\n    spec:\n      containers: [{name: agent, image: 'registry.local/agent:1.0', resources: {requests: {cpu: 10m, memory: 16Mi}}}]\n"),
            &crate::command::NoFiles,
        );
    }
    let mut scheduled_at = None;
    let mut slices = 0;
    while !all_available(&c) && slices < 3_600 {
        c.advance(SECOND);
        slices += 1;
        if scheduled_at.is_none() && bound(&c) >= pods {
            scheduled_at = Some(now() - t1);
        }
    }
    let converge = now() - t1;
    let scheduled = scheduled_at.unwrap_or(converge);
    let writes = c.store.log.len();
    let (mem1, peak) = memory();
    say("converged", f64::from(u8::from(all_available(&c))), "");
    say("converge_wall", converge, "s");
    say("converge_sim", (c.now() / SECOND) as f64, "s");
    say("schedule_wall", scheduled, "s");
    say(
        "pods_scheduled_per_s",
        pods as f64 / scheduled.max(1e-9),
        "pods/s",
    );
    say("writes", writes as f64, "");
    say(
        "events_per_s",
        writes as f64 / converge.max(1e-9),
        "writes/s",
    );
    say("peak_memory", peak as f64 / 1_048_576.0, "MiB");
    say(
        "bytes_per_pod",
        mem1.saturating_sub(mem0) as f64 / pods.max(1) as f64,
        "B",
    );
    if size.converge_only {
        return out;
    }
    let down = size.nodes / 10;
    let t2 = now();
    for i in 0..down {
        let _ = c.power_off(&format!("node-{:05}", i * 10));
    }
    let start = c.now();
    loop {
        c.advance(5 * SECOND);
        let spent = c.now() - start;
        if (spent > 360 * SECOND && all_available(&c)) || spent > 3_600 * SECOND {
            break;
        }
    }
    say("nodes_powered_off", down as f64, "");
    say("failover_wall", now() - t2, "s");
    say("failover_sim", ((c.now() - start) / SECOND) as f64, "s");
    let (_, peak) = memory();
    say(
        "peak_memory_after_failover",
        peak as f64 / 1_048_576.0,
        "MiB",
    );
    out
}

/// The value after `name` among the example programs' arguments, as a number
/// (`default` when absent or not a number).
pub fn arg(args: &[String], name: &str, default: usize) -> usize {
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Resident set size and its peak, in bytes (Linux `/proc/self/status`; 0 elsewhere):
/// the example programs' memory figures.
pub fn rss() -> (u64, u64) {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_envelope_converges_and_recovers_and_reports_every_figure() {
        let mut seen = Vec::new();
        let figs = envelope(
            Size {
                nodes: 10,
                deployments: 3,
                replicas: 10,
                services: true,
                daemonset: true,
                converge_only: false,
            },
            &|| 0.0,
            &|| (0, 0),
            &mut |f| seen.push(f.name),
        );
        let get = |n: &str| figs.iter().find(|f| f.name == n).map(|f| f.value);
        assert_eq!(get("converged"), Some(1.0));
        assert_eq!(
            get("pods"),
            Some(40.0),
            "30 of the Deployments, one per node"
        );
        assert_eq!(get("nodes_powered_off"), Some(1.0));
        assert!(get("failover_sim").unwrap() >= 360.0);
        // A tainted node leaves the DaemonSet's desired count (upstream's
        // `NodeShouldRunDaemonPod`): the failover ends without waiting for its Pod there.
        assert!(get("failover_sim").unwrap() < 3_600.0);
        assert_eq!(seen.len(), figs.len());
        assert_eq!(
            Figure {
                name: "converge_wall",
                value: 3.214,
                unit: "s"
            }
            .to_string(),
            "converge_wall: 3.21 s"
        );
    }
}
