//! What the Pods bound to a node ask of it: a Pod's summed requests, a node's
//! allocatable, and the per-node sums the store keeps (the scheduler cache's NodeInfo).
//!
//! Upstream: `pkg/api/v1/resource/helpers.go` (`PodRequests`),
//! `pkg/scheduler/framework/types.go` (`NodeInfo`: `Requested`, `NonZeroRequested`,
//! `Allocatable`), `pkg/scheduler/util/pod_resources.go` (the non-zero defaults).
//! Kept on the API server side because the store maintains these sums as Pods are bound
//! and deleted; the scheduler and the printers only read them.

use crate::api::quantity::{parse_bytes, parse_cpu_milli};
use crate::api::*;

/// Resource requests of a Pod, summed over its containers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PodRequests {
    /// CPU requested (millicores).
    pub cpu_milli: i64,
    /// Memory requested (bytes).
    pub memory: i64,
    /// Local ephemeral storage requested (bytes).
    pub ephemeral_storage: i64,
    /// CPU with the scheduler's non-zero default (100m) for containers without a request.
    pub nonzero_cpu_milli: i64,
    /// Memory with the scheduler's non-zero default (200Mi) for containers without a request.
    pub nonzero_memory: i64,
}

/// Scheduler non-zero default CPU request (`pkg/scheduler/util`: DefaultMilliCPURequest).
pub const DEFAULT_MILLI_CPU_REQUEST: i64 = 100;
/// Scheduler non-zero default memory request (DefaultMemoryRequest, 200Mi).
pub const DEFAULT_MEMORY_REQUEST: i64 = 200 * 1024 * 1024;

/// `resourcehelper.PodRequests` (`AggregateContainerRequests`) for cpu and memory, plus
/// the non-zero variant: the app containers and every sidecar (an init container with
/// `restartPolicy: Always`) run together, so they are summed; a regular init container
/// runs alone beside the sidecars started before it, so the Pod needs at least the
/// largest of those; the request is the larger of the two.
pub fn pod_requests(pod: &Pod) -> PodRequests {
    let mut r = sum_requests(&pod.spec.containers);
    let mut sidecars = PodRequests::default();
    let mut init_max = PodRequests::default();
    for c in &pod.spec.init_containers {
        let own = sum_requests(std::slice::from_ref(c));
        let needs = if c.is_sidecar() {
            add(&mut r, &own);
            add(&mut sidecars, &own);
            sidecars
        } else {
            let mut with_sidecars = own;
            add(&mut with_sidecars, &sidecars);
            with_sidecars
        };
        max(&mut init_max, &needs);
    }
    max(&mut r, &init_max);
    r
}

/// Saturating sums: a quantity may be as large as i64::MAX (the parser saturates
/// there), and two of them must not overflow. Upstream's int64 sums would wrap; a
/// saturated sum reads as "more than any node has", which is what it means. The
/// price: a node's sums, once saturated, are not restored exactly by
/// [`NodeUsage::remove_pod`] (they stay large until the node's Pods are gone) — only
/// for requests of exabytes, which no real Pod makes.
fn add(to: &mut PodRequests, r: &PodRequests) {
    to.cpu_milli = to.cpu_milli.saturating_add(r.cpu_milli);
    to.memory = to.memory.saturating_add(r.memory);
    to.ephemeral_storage = to.ephemeral_storage.saturating_add(r.ephemeral_storage);
    to.nonzero_cpu_milli = to.nonzero_cpu_milli.saturating_add(r.nonzero_cpu_milli);
    to.nonzero_memory = to.nonzero_memory.saturating_add(r.nonzero_memory);
}

fn max(to: &mut PodRequests, r: &PodRequests) {
    to.cpu_milli = to.cpu_milli.max(r.cpu_milli);
    to.memory = to.memory.max(r.memory);
    to.ephemeral_storage = to.ephemeral_storage.max(r.ephemeral_storage);
    to.nonzero_cpu_milli = to.nonzero_cpu_milli.max(r.nonzero_cpu_milli);
    to.nonzero_memory = to.nonzero_memory.max(r.nonzero_memory);
}

fn sum_requests(containers: &[Container]) -> PodRequests {
    let mut r = PodRequests::default();
    for c in containers {
        let cpu = c
            .resources
            .requests
            .get("cpu")
            .and_then(|q| parse_cpu_milli(q));
        let mem = c
            .resources
            .requests
            .get("memory")
            .and_then(|q| parse_bytes(q));
        let storage = c
            .resources
            .requests
            .get("ephemeral-storage")
            .and_then(|q| parse_bytes(q));
        // Saturating, as `add`.
        r.ephemeral_storage = r.ephemeral_storage.saturating_add(storage.unwrap_or(0));
        r.cpu_milli = r.cpu_milli.saturating_add(cpu.unwrap_or(0));
        r.memory = r.memory.saturating_add(mem.unwrap_or(0));
        r.nonzero_cpu_milli = r
            .nonzero_cpu_milli
            .saturating_add(cpu.unwrap_or(DEFAULT_MILLI_CPU_REQUEST));
        r.nonzero_memory = r
            .nonzero_memory
            .saturating_add(mem.unwrap_or(DEFAULT_MEMORY_REQUEST));
    }
    r
}

/// Per-node sums of the requests of the Pods bound to it (the scheduler cache's NodeInfo).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NodeUsage {
    /// Σ requests.
    pub requested: PodRequests,
    /// Pods bound to the node and not terminal.
    pub pods: i64,
    /// The node's allocatable, parsed once when the Node was written (the filters and
    /// scores read it for every node of every attempt; parsing quantities there was a
    /// sixth of the scheduler's time at 1,000 nodes). None: not known, parse it.
    pub alloc: Option<Allocatable>,
    /// Of those Pods, how many have a negative priority. With none, a Pod of priority
    /// 0 or less has no preemption victim on the node, which the scheduler then
    /// knows without looking at each Pod: a cluster full of Pending Pods (all of
    /// priority 0) tries preemption on every failed attempt.
    pub below_zero_priority: i64,
}

impl NodeUsage {
    /// Count one more Pod with requests `r` on the node.
    pub fn add_pod(&mut self, r: &PodRequests) {
        self.pods = self.pods.saturating_add(1);
        add(&mut self.requested, r);
    }

    /// Count one more bound Pod: its requests `r` ([`pod_requests`]) and its priority.
    pub fn add_bound(&mut self, p: &Pod, r: &PodRequests) {
        self.add_pod(r);
        if p.spec.priority.is_some_and(|v| v < 0) {
            self.below_zero_priority = self.below_zero_priority.saturating_add(1);
        }
    }

    /// Count one bound Pod fewer, with its requests `r` (the inverse of
    /// [`NodeUsage::add_bound`]).
    pub fn remove_bound(&mut self, p: &Pod, r: &PodRequests) {
        self.remove_pod(r);
        if p.spec.priority.is_some_and(|v| v < 0) {
            self.below_zero_priority = (self.below_zero_priority - 1).max(0);
        }
    }

    /// Count one Pod with requests `r` fewer on the node.
    pub fn remove_pod(&mut self, r: &PodRequests) {
        // Saturating, as `add` (see there); never below zero either.
        let sub = |a: i64, b: i64| a.saturating_sub(b).max(0);
        self.pods = sub(self.pods, 1);
        self.requested.cpu_milli = sub(self.requested.cpu_milli, r.cpu_milli);
        self.requested.memory = sub(self.requested.memory, r.memory);
        self.requested.ephemeral_storage =
            sub(self.requested.ephemeral_storage, r.ephemeral_storage);
        self.requested.nonzero_cpu_milli =
            sub(self.requested.nonzero_cpu_milli, r.nonzero_cpu_milli);
        self.requested.nonzero_memory = sub(self.requested.nonzero_memory, r.nonzero_memory);
    }
}

/// Node allocatable in the units the plugins compare.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Allocatable {
    /// Millicores.
    pub cpu_milli: i64,
    /// Bytes.
    pub memory: i64,
    /// Bytes of local ephemeral storage.
    pub ephemeral_storage: i64,
    /// Pod slots.
    pub pods: i64,
}

/// Parse a node's allocatable (falling back to capacity).
pub fn allocatable(node: &Node) -> Allocatable {
    let get = |k: &str| {
        node.status
            .allocatable
            .get(k)
            .or_else(|| node.status.capacity.get(k))
    };
    Allocatable {
        cpu_milli: get("cpu").and_then(|q| parse_cpu_milli(q)).unwrap_or(0),
        memory: get("memory").and_then(|q| parse_bytes(q)).unwrap_or(0),
        ephemeral_storage: get("ephemeral-storage")
            .and_then(|q| parse_bytes(q))
            .unwrap_or(0),
        pods: get("pods").and_then(|q| q.parse().ok()).unwrap_or(0),
    }
}
