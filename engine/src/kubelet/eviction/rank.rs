//! Whom the eviction manager evicts first, and what it tells them.
//!
//! Upstream: `pkg/kubelet/eviction/helpers.go` — `rankMemoryPressure`,
//! `rankDiskPressureFunc` (`exceedDiskRequests`, `priority`, `disk`), `rankPIDPressure`
//! (`priority`, `process`), `podRequest`, `evictionMessage`, `getThresholdMetInfo`.

use super::signals::{Observations, Signal, Threshold, Value};
use crate::api::quantity::{format_bytes, format_decimal, parse_bytes};
use crate::api::Pod;

/// What a Pod uses, as the summary API reports it to the eviction manager.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PodStats {
    /// Working set, bytes.
    pub memory: i64,
    /// Its containers' writable layers and logs, bytes.
    pub disk: i64,
    /// The inodes those files take.
    pub inodes: i64,
    /// Processes and threads.
    pub pids: i64,
}

/// `podRequest`: the Pod's request of `resource` (`memory` or `ephemeral-storage`):
/// its containers' sum, or its largest init container's if that is larger.
pub fn pod_request(p: &Pod, resource: &str) -> i64 {
    let of = |c: &crate::api::Container| {
        c.resources
            .requests
            .get(resource)
            .and_then(|q| parse_bytes(q))
            .unwrap_or(0)
    };
    let containers = p
        .spec
        .containers
        .iter()
        .map(of)
        .fold(0i64, i64::saturating_add);
    let init = p.spec.init_containers.iter().map(of).max().unwrap_or(0);
    containers.max(init)
}

/// Container `i`'s share of a Pod's `usage` split evenly over its `n` containers (the
/// first takes the remainder): kubeplay knows a Pod's use, not each container's.
pub fn container_share(usage: i64, n: usize, i: usize) -> i64 {
    let n = n.max(1) as i64;
    usage / n + if i == 0 { usage % n } else { 0 }
}

/// The containers the stats summary reports for a running Pod, in the order their
/// shares are counted ([`container_share`]): its sidecars (init containers with
/// `restartPolicy: Always`, which run beside the others) first, then its containers.
/// `evictionMessage` matches the summary's containers against both lists.
pub fn reporting_containers(p: &Pod) -> Vec<&crate::api::Container> {
    p.spec
        .init_containers
        .iter()
        .filter(|c| c.is_sidecar())
        .chain(&p.spec.containers)
        .collect()
}

/// The Pods ranked for eviction under `signal`, the first to go first. The Pods'
/// names break what is left of a tie (upstream's sort is not stable).
pub fn rank<'a>(
    signal: Signal,
    pods: &[&'a Pod],
    stats: &dyn Fn(&Pod) -> PodStats,
) -> Vec<&'a Pod> {
    // Each Pod's sort key: whether it exceeds its request, its priority, and its usage
    // (less its request where upstream subtracts one), larger first.
    let key = |p: &Pod| -> (bool, i64, i64) {
        let s = stats(p);
        let priority = p.spec.priority.unwrap_or(0);
        match signal {
            // rankMemoryPressure: exceedMemoryRequests, priority, memory.
            Signal::MemoryAvailable => {
                let req = pod_request(p, "memory");
                (s.memory > req, priority, s.memory - req)
            }
            // rankPIDPressure: priority, process.
            Signal::PidAvailable => (false, priority, s.pids),
            // rankDiskPressureFunc: exceedDiskRequests, priority, disk. Both compare the
            // usage — bytes, or inodes — with the ephemeral-storage request, as upstream.
            _ => {
                let req = pod_request(p, "ephemeral-storage");
                let used = if signal.resource() == "inodes" {
                    s.inodes
                } else {
                    s.disk
                };
                (used > req, priority, used - req)
            }
        }
    };
    let mut ranked: Vec<(&Pod, (bool, i64, i64))> = pods.iter().map(|p| (*p, key(p))).collect();
    ranked.sort_by(|(a, ka), (b, kb)| {
        kb.0.cmp(&ka.0)
            .then(ka.1.cmp(&kb.1))
            .then(kb.2.cmp(&ka.2))
            .then(a.metadata.name.cmp(&b.metadata.name))
    });
    ranked.into_iter().map(|r| r.0).collect()
}

/// A quantity as its Quantity prints: bytes in binary suffixes, counts in decimal
/// ones (`DecimalSI`: `400k`, `327680`).
pub fn format_quantity(resource: &str, q: i64) -> String {
    if matches!(resource, "memory" | "ephemeral-storage") {
        return format_bytes(q);
    }
    format_decimal(q)
}

/// `getThresholdMetInfo`: the threshold's quantity and what was available, for the
/// first met threshold that reclaims `resource`. A percentage's quantity is BinarySI
/// (`GetThresholdQuantity`); a written one prints as it was written.
pub fn threshold_met_info(
    resource: &str,
    met: &[&Threshold],
    obs: &Observations,
) -> Option<(String, String)> {
    let t = met.iter().find(|t| t.signal.resource() == resource)?;
    let o = obs.get(t.signal);
    let quantity = match t.value {
        Value::Percentage(_) => format_bytes(t.quantity(o.capacity)),
        Value::Quantity(_) => t.value_text(),
    };
    Some((quantity, format_quantity(resource, o.available)))
}

/// `evictionMessage`: the node's line, then each container using more of `resource`
/// than it requested (only memory and ephemeral-storage name containers). A Pod's
/// usage is split evenly over its containers.
pub fn eviction_message(
    resource: &str,
    pod: &Pod,
    stats: &PodStats,
    info: Option<(String, String)>,
) -> String {
    let mut m = format!("The node was low on resource: {resource}. ");
    if let Some((quantity, available)) = info {
        m.push_str(&format!(
            "Threshold quantity: {quantity}, available: {available}. "
        ));
    }
    let usage = match resource {
        "memory" => stats.memory,
        "ephemeral-storage" => stats.disk,
        _ => return m,
    };
    let containers = reporting_containers(pod);
    let n = containers.len();
    for (i, c) in containers.into_iter().enumerate() {
        let share = container_share(usage, n, i);
        let request = c.resources.requests.get(resource);
        let req = request.and_then(|q| parse_bytes(q)).unwrap_or(0);
        if share > req {
            m.push_str(&format!(
                "Container {} was using {}, request is {}, has larger consumption of {resource}. ",
                c.name,
                format_bytes(share),
                request.map_or("0", String::as_str)
            ));
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_print_as_decimal_quantities_and_bytes_as_binary_ones() {
        assert_eq!(format_decimal(327_680), "327680");
        assert_eq!(format_decimal(400_000), "400k");
        assert_eq!(format_decimal(0), "0");
        assert_eq!(format_quantity("ephemeral-storage", 5 << 30), "5Gi");
        assert_eq!(format_quantity("pids", 4_194_000), "4194k");
    }
}

#[cfg(test)]
mod rank_tests {
    use super::*;

    fn pod(name: &str, storage_request: &str, priority: i64) -> Pod {
        let mut p = Pod::default();
        p.metadata.name = name.into();
        p.spec.priority = Some(priority);
        let mut c = crate::api::Container {
            name: "c".into(),
            ..Default::default()
        };
        if !storage_request.is_empty() {
            c.resources
                .requests
                .insert("ephemeral-storage".into(), storage_request.into());
        }
        p.spec.containers = vec![c];
        p
    }

    fn names(v: Vec<&Pod>) -> Vec<&str> {
        v.into_iter().map(|p| p.metadata.name.as_str()).collect()
    }

    #[test]
    fn under_disk_pressure_pods_over_their_request_go_first_then_the_lower_priority_then_the_larger_excess(
    ) {
        let a = pod("a-under", "10Gi", 0);
        let b = pod("b-over-high", "", 1000);
        let d = pod("d-over-small", "4Gi", 0);
        let e = pod("e-over-large", "1Gi", 0);
        let stats = |_: &Pod| PodStats {
            disk: 5 << 30,
            inodes: 10,
            ..Default::default()
        };
        let ranked = rank(Signal::NodeFsAvailable, &[&a, &b, &d, &e], &stats);
        assert_eq!(
            names(ranked),
            ["e-over-large", "d-over-small", "b-over-high", "a-under"]
        );
        // For inodes the usage is compared with the ephemeral-storage request as
        // upstream does: 10 inodes exceed no request of bytes but a missing one.
        let ranked = rank(Signal::NodeFsInodesFree, &[&a, &b, &d, &e], &stats);
        assert_eq!(names(ranked)[0], "b-over-high");
    }

    #[test]
    fn under_pid_pressure_the_lower_priority_goes_first_then_the_most_processes() {
        let a = pod("a-few", "", 0);
        let b = pod("b-many-high", "", 1000);
        let d = pod("d-many", "", 0);
        let stats = |p: &Pod| PodStats {
            pids: if p.metadata.name.contains("many") {
                5000
            } else {
                3
            },
            ..Default::default()
        };
        let ranked = rank(Signal::PidAvailable, &[&a, &b, &d], &stats);
        assert_eq!(names(ranked), ["d-many", "a-few", "b-many-high"]);
    }
}
