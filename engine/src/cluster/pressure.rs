//! Node pressure: the kubelet's eviction manager run at each heartbeat
//! (`kubelet::eviction`), and `sim node pressure memory|disk|pid NODE` for what
//! something outside the Pods takes.

use super::*;
use crate::kubelet::eviction::{inodes_of, PodStats, Signal, PIDS_PER_CONTAINER};

/// What `sim node pressure` leaves: how much of a resource something outside the
/// Pods takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Take {
    /// Nothing any more.
    Off,
    /// This much (bytes, inodes or process ids).
    Amount(i64),
    /// As much as leaves half the resource's largest threshold free (on a default
    /// kubelet: memory 50Mi, the disk 7.5%, inodes 2.5%), so that it is met; with no
    /// threshold for it, 2%.
    UnderThreshold,
}

/// What a Pod uses as the eviction manager reads it: its working set, what its
/// workload writes (`sim load --disk`) and the inodes that takes, and a process per
/// container and the sandbox, plus any its workload adds (`sim load --pids`).
pub fn pod_stats(store: &Store, load: &crate::metrics::Load, p: &Pod) -> PodStats {
    let demand = crate::metrics::pod_demand(store, load, p);
    let disk = demand.and_then(|d| d.disk_bytes).unwrap_or(0);
    let running = p
        .status
        .container_statuses
        .iter()
        .filter(|s| s.state.running.is_some())
        .count() as i64;
    PodStats {
        memory: crate::metrics::pod_memory(p, demand),
        disk,
        inodes: inodes_of(disk),
        pids: PIDS_PER_CONTAINER * (running + 1) + demand.and_then(|d| d.pids).unwrap_or(0),
    }
}

/// Whether a workload's demand presses on a node: memory, disk or processes.
fn presses(d: &crate::metrics::Demand) -> bool {
    d.memory_bytes.is_some() || d.disk_bytes.is_some() || d.pids.is_some()
}

impl Cluster {
    /// One eviction-manager cycle on `node`'s kubelet. It costs nothing while nothing
    /// presses on this node: none of its Pods' workloads demands memory, disk or
    /// processes (`sim load`), nothing outside the Pods takes any, no condition waits
    /// to clear, and images are well short of filling the disk. Each Pod's use is read
    /// once per cycle, as the kubelet reads one stats summary.
    pub(super) fn eviction_cycle(&mut self, node: &str) {
        let (store, load, now) = (&self.store, &self.config.load, self.now);
        let Some(k) = self.kubelets.get_mut(node) else {
            return;
        };
        if !k.up || k.partitioned {
            return;
        }
        // Only this node's Pods are read, and only when some workload has a demand at
        // all: the common case costs one look at the (few) loads. Each Pod is matched
        // to its load as its stats are ([`pod_stats`]), so a Pod whose Deployment was
        // just deleted still presses until it is gone.
        let demand = load.values().any(presses)
            && store.pods_on_node(node).any(|p| {
                !p.is_terminal() && crate::metrics::pod_demand(store, load, p).is_some_and(presses)
            });
        if !(demand || k.pressure.active() || images_fill(k)) {
            // Under 80% used, this period's image garbage collection has nothing to do
            // and succeeds: it is counted as run, so the next one comes at the next
            // period, as the kubelet's runs every 5 minutes whatever the disk.
            k.pressure.image_gc_window = Some(now / crate::kubelet::IMAGE_GC_PERIOD);
            k.pressure.image_gc_failures = 0;
            return;
        }
        let summary: BTreeMap<&str, PodStats> = store
            .pods_on_node(node)
            .map(|p| (p.metadata.uid.as_str(), pod_stats(store, load, p)))
            .collect();
        let stats = |p: &Pod| {
            summary
                .get(p.metadata.uid.as_str())
                .copied()
                .unwrap_or_else(|| pod_stats(store, load, p))
        };
        let mut out = (k.image_garbage_collect(store, &stats, now), vec![]);
        let (requests, timers) = k.synchronize(store, &stats, now);
        out.0.extend(requests);
        out.1.extend(timers);
        self.kubelet_output(node, out);
    }

    /// `sim node pressure RESOURCE NODE`: something outside the Pods takes `take` of
    /// `signal`'s resource (memory, disk bytes, inodes or process ids). Returns the
    /// amount it takes now.
    pub fn set_node_pressure(
        &mut self,
        node: &str,
        signal: Signal,
        take: Take,
    ) -> Result<i64, String> {
        let Some(k) = self.kubelets.get(node) else {
            return Err(format!(
                "Error from server (NotFound): nodes \"{node}\" not found"
            ));
        };
        let current = match signal {
            Signal::MemoryAvailable => k.pressure.other_memory,
            Signal::NodeFsInodesFree => k.pressure.other_inodes,
            Signal::PidAvailable => k.pressure.other_pids,
            _ => k.pressure.other_disk,
        };
        let amount = match take {
            Take::Off => 0,
            Take::Amount(a) => a.max(0),
            Take::UnderThreshold => {
                let (store, load) = (&self.store, &self.config.load);
                let pods: Vec<&Pod> = store
                    .pods_on_node(node)
                    .filter(|p| !p.is_terminal())
                    .collect();
                let stats = |p: &Pod| pod_stats(store, load, p);
                let o = k.observe(&pods, &stats).get(signal);
                // Half the largest threshold the node keeps for the resource, so that
                // at least that one is met; with none, 2% of it.
                let leave = k
                    .thresholds()
                    .iter()
                    .filter(|t| t.signal.resource() == signal.resource())
                    .map(|t| t.quantity(o.capacity) / 2)
                    .max()
                    .unwrap_or(o.capacity / 50);
                let a = current
                    .saturating_add(o.available.saturating_sub(leave))
                    .max(0);
                // Whole mebibytes of disk, so that the amount reads as one (`89Gi`).
                if signal == Signal::NodeFsAvailable {
                    a.saturating_add((1 << 20) - 1) >> 20 << 20
                } else {
                    a
                }
            }
        };
        if let Some(k) = self.kubelets.get_mut(node) {
            let p = &mut k.pressure;
            match signal {
                Signal::MemoryAvailable => p.other_memory = amount,
                Signal::NodeFsInodesFree => p.other_inodes = amount,
                Signal::PidAvailable => p.other_pids = amount,
                _ => p.other_disk = amount,
            }
        }
        Ok(amount)
    }
}

/// Whether the node's images alone could bring its disk near a threshold (80% full):
/// a small disk with many images presses without any `sim` command.
fn images_fill(k: &crate::kubelet::Kubelet) -> bool {
    let disk = crate::api::quantity::parse_bytes(&k.config.ephemeral_storage).unwrap_or(0);
    (crate::kubelet::eviction::SYSTEM_DISK_BYTES + k.images_bytes()).saturating_mul(5)
        >= disk.saturating_mul(4)
}
