//! The resource metrics pipeline: what each Pod uses, as metrics-server reports it
//! from the kubelets (`metrics.k8s.io`), read by the HorizontalPodAutoscaler and by
//! `kubectl top`.
//!
//! What a workload demands is the simulation's input (`sim load deployment/web --cpu
//! 80%`): a CPU demand is a total in millicores shared by the workload's Running and
//! Ready Pods (so more replicas means less per Pod, which is what makes an autoscaler
//! converge); a memory demand is per Pod. Without a demand a Pod idles: 1m of CPU and
//! a quarter of its memory request (8Mi without one) per container. A container's CPU
//! limit caps its usage (it is throttled). A Pod has readings once its sandbox has run
//! for one scrape window (15 s), as metrics-server's first scrape comes after that.
//!
//! Request traffic (`sim traffic service/web --rps 100`) is the other source: each
//! request a Pod answers costs it CPU time (`--cpu-per-request`, 2 ms by default, so
//! 50 requests per second keep a Pod at 100m). As the kubelet's CPU reading is the
//! difference of a cumulative counter between two scrapes, a Pod's traffic usage is
//! the CPU time it spent in the last whole 15 s window, divided by the window; it adds
//! to what `sim load` makes it use.

use crate::api::*;
use crate::apiserver::Store;
use crate::time::{SimTime, SECOND};
use std::collections::BTreeMap;

/// metrics-server's resolution: a Pod's first reading comes this long after its start.
pub const METRIC_WINDOW: SimTime = 15 * SECOND;

/// What a workload demands.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Demand {
    /// CPU in millicores, shared among the workload's Ready Pods.
    pub cpu_milli: Option<i64>,
    /// Memory in bytes per Pod.
    pub memory_bytes: Option<i64>,
    /// What each Pod writes to its containers' writable layers and logs, in bytes
    /// (`sim load --disk`).
    pub disk_bytes: Option<i64>,
    /// The processes and threads each Pod runs beside one per container
    /// (`sim load --pids`).
    pub pids: Option<i64>,
}

/// Demands by (namespace, kind, name) of the workload.
pub type Load = BTreeMap<(String, String, String), Demand>;

/// The CPU time one Pod spent answering requests, per scrape window.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ServedCpu {
    /// The window (`now / METRIC_WINDOW`) `cpu_us` counts.
    window: u64,
    /// CPU time spent in `window`, in microseconds.
    cpu_us: u64,
    /// The usage of the window before `window`, in millicores.
    prev_milli: i64,
}

impl ServedCpu {
    /// One answered request costing `cpu_us` microseconds of CPU at `now`.
    pub fn add(&mut self, now: SimTime, cpu_us: u64) {
        let w = now / METRIC_WINDOW;
        if w != self.window {
            self.prev_milli = if w == self.window + 1 {
                Self::milli(self.cpu_us)
            } else {
                0
            };
            self.cpu_us = 0;
            self.window = w;
        }
        self.cpu_us += cpu_us;
    }

    /// The usage the last whole window before `now` read, in millicores.
    pub fn reading(&self, now: SimTime) -> i64 {
        let w = now / METRIC_WINDOW;
        if w == self.window {
            self.prev_milli
        } else if w == self.window + 1 {
            Self::milli(self.cpu_us)
        } else {
            0
        }
    }

    /// Whether the entry can still read above zero at `now`.
    pub fn live(&self, now: SimTime) -> bool {
        now / METRIC_WINDOW <= self.window + 1
    }

    fn milli(cpu_us: u64) -> i64 {
        // µs of CPU per window (ms) = millicores.
        (cpu_us / METRIC_WINDOW) as i64
    }
}

/// The CPU time each Pod spent on requests, by Pod uid (`sim traffic`).
pub type Served = BTreeMap<String, ServedCpu>;

/// One Pod's reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PodUsage {
    /// CPU in millicores.
    pub cpu_milli: i64,
    /// Memory in bytes.
    pub memory_bytes: i64,
}

/// The readings of every Pod in the cluster (what node usage sums).
pub fn all_pod_usages(
    store: &Store,
    load: &Load,
    served: &Served,
    now: SimTime,
) -> BTreeMap<(String, String), PodUsage> {
    pod_usages(store, load, served, None, &|_| true, now)
}

/// What a node's own daemons (the kubelet, the runtime) use besides its Pods.
pub const NODE_DAEMONS: PodUsage = PodUsage {
    cpu_milli: 100,
    memory_bytes: 600 << 20,
};

/// A node's usage as metrics-server reports it: its daemons plus its Pods' readings
/// (`usages`, from [`pod_usages`]).
pub fn node_usage(
    store: &Store,
    usages: &BTreeMap<(String, String), PodUsage>,
    node: &str,
) -> PodUsage {
    let mut u = NODE_DAEMONS;
    for pod in store.pods_on_node(node) {
        if let Some(p) = usages.get(&(pod.metadata.namespace.clone(), pod.metadata.name.clone())) {
            u.cpu_milli += p.cpu_milli;
            u.memory_bytes += p.memory_bytes;
        }
    }
    u
}

/// One Pod's working set alone (the eviction manager's reading), given its workload's
/// demand ([`pod_demand`]): that demand's memory, else its idle share.
pub fn pod_memory(p: &Pod, demand: Option<&Demand>) -> i64 {
    usage_of(p, demand.map(|d| (d, 0)), 0).memory_bytes
}

/// The workload's demand on a Pod, if it has one.
pub fn pod_demand<'a>(store: &Store, load: &'a Load, p: &Pod) -> Option<&'a Demand> {
    workload_of(store, p).and_then(|(k, n)| load.get(&(p.metadata.namespace.clone(), k, n)))
}

/// The workload a Pod serves, (kind, name): a ReplicaSet's Pods serve its Deployment.
pub fn workload_of(store: &Store, pod: &Pod) -> Option<(String, String)> {
    let r = pod.metadata.controller_ref()?;
    if r.kind == "ReplicaSet" {
        let rs = store.get::<ReplicaSet>(&crate::apiserver::ObjKey::new(
            &pod.metadata.namespace,
            &r.name,
        ));
        if let Some(d) = rs.and_then(|rs| rs.metadata.controller_ref()) {
            return Some((d.kind.clone(), d.name.clone()));
        }
    }
    Some((r.kind.clone(), r.name.clone()))
}

fn serving(p: &Pod) -> bool {
    p.status.phase == PodPhase::Running && p.is_ready() && !p.metadata.is_deleting()
}

/// When the Pod's sandbox came up (None: not yet).
fn started_at(p: &Pod) -> Option<SimTime> {
    p.status
        .conditions
        .iter()
        .find(|c| c.type_ == "PodReadyToStartContainers" && c.status == "True")
        .map(|c| c.transition_ms)
}

/// The readings of every Pod in `namespace` that `select` accepts (None: all), by name.
/// Pods without readings yet are absent.
pub fn pod_usages(
    store: &Store,
    load: &Load,
    served: &Served,
    namespace: Option<&str>,
    select: &dyn Fn(&Pod) -> bool,
    now: SimTime,
) -> BTreeMap<(String, String), PodUsage> {
    let pods: Vec<&Pod> = store
        .list::<Pod>()
        .filter(|p| namespace.is_none_or(|ns| p.metadata.namespace == ns))
        .collect();
    // Ready Pods per loaded workload, counted once.
    let mut ready: BTreeMap<(String, String, String), i64> = BTreeMap::new();
    if !load.is_empty() {
        for p in &pods {
            if serving(p) {
                if let Some((k, n)) = workload_of(store, p) {
                    let key = (p.metadata.namespace.clone(), k, n);
                    if load.contains_key(&key) {
                        *ready.entry(key).or_default() += 1;
                    }
                }
            }
        }
    }
    let mut out = BTreeMap::new();
    for p in pods {
        if !select(p) || p.status.phase != PodPhase::Running {
            continue;
        }
        let Some(since) = started_at(p) else {
            continue;
        };
        if now < since + METRIC_WINDOW {
            continue;
        }
        let demand = workload_of(store, p).and_then(|(k, n)| {
            let key = (p.metadata.namespace.clone(), k, n);
            load.get(&key)
                .map(|d| (d, ready.get(&key).copied().unwrap_or(0)))
        });
        let traffic = served.get(&p.metadata.uid).map_or(0, |s| s.reading(now));
        out.insert(
            (p.metadata.namespace.clone(), p.metadata.name.clone()),
            usage_of(p, demand, traffic),
        );
    }
    out
}

fn usage_of(p: &Pod, demand: Option<(&Demand, i64)>, traffic_milli: i64) -> PodUsage {
    let n = p.spec.containers.len().max(1) as i64;
    let req = |c: &Container, r: &str| c.resources.requests.get(r).cloned();
    let cpu_limit: Option<i64> = p
        .spec
        .containers
        .iter()
        .map(|c| {
            c.resources
                .limits
                .get("cpu")
                .and_then(|q| crate::api::quantity::parse_cpu_milli(q))
        })
        .sum();
    let idle_mem: i64 = p
        .spec
        .containers
        .iter()
        .map(|c| {
            req(c, "memory")
                .and_then(|q| crate::api::quantity::parse_bytes(&q))
                .map_or(8 << 20, |b| b / 4)
        })
        .sum();
    let mut cpu = n;
    let mut mem = idle_mem;
    if let Some((d, ready)) = demand {
        if let Some(total) = d.cpu_milli {
            if serving(p) && ready > 0 {
                cpu = cpu.max(total / ready);
            }
        }
        if let Some(m) = d.memory_bytes {
            mem = m;
        }
    }
    cpu += traffic_milli;
    if let Some(limit) = cpu_limit {
        cpu = cpu.min(limit);
    }
    PodUsage {
        cpu_milli: cpu,
        memory_bytes: mem,
    }
}

/// The Pod's CPU or memory request summed over its containers (`calculatePodRequests`):
/// Err names the first container without one.
pub fn pod_request(p: &Pod, resource: &str) -> Result<i64, String> {
    let mut sum = 0;
    for c in &p.spec.containers {
        let q = c.resources.requests.get(resource).ok_or_else(|| {
            format!(
                "missing request for {resource} in container {} of Pod {}",
                c.name, p.metadata.name
            )
        })?;
        sum += if resource == "cpu" {
            crate::api::quantity::parse_cpu_milli(q).unwrap_or(0)
        } else {
            crate::api::quantity::parse_bytes(q).unwrap_or(0) * 1000
        };
    }
    Ok(sum)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pod_reads_the_cpu_time_of_the_last_whole_window_and_zero_once_it_is_idle() {
        let mut s = ServedCpu::default();
        // 15 s window 2: 300 requests of 2 ms = 600 ms of CPU over 15 s = 40m.
        for i in 0..300 {
            s.add(30_000 + i * 50, 2_000);
        }
        assert_eq!(s.reading(44_999), 0, "window 2 is not whole yet");
        assert_eq!(s.reading(45_000), 40);
        // Window 3 has one request; the reading is still window 2's.
        s.add(46_000, 2_000);
        assert_eq!(s.reading(50_000), 40);
        assert_eq!(s.reading(60_000), 0, "window 3 read 2 ms over 15 s");
        assert!(!s.live(75_000));
        assert_eq!(s.reading(75_000), 0);
    }
}
