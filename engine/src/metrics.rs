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
}

/// Demands by (namespace, kind, name) of the workload.
pub type Load = BTreeMap<(String, String, String), Demand>;

/// One Pod's reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PodUsage {
    /// CPU in millicores.
    pub cpu_milli: i64,
    /// Memory in bytes.
    pub memory_bytes: i64,
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
        out.insert(
            (p.metadata.namespace.clone(), p.metadata.name.clone()),
            usage_of(p, demand),
        );
    }
    out
}

fn usage_of(p: &Pod, demand: Option<(&Demand, i64)>) -> PodUsage {
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
