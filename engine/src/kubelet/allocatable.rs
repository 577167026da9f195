//! Node allocatable: what the kubelet offers Pods, below its capacity by what it
//! reserves for the system and keeps back for eviction.
//!
//! allocatable = capacity − kube-reserved − system-reserved − the hard eviction
//! threshold (`GetNodeAllocatableAbsolute`, `getNodeAllocatableAbsoluteImpl` in
//! `pkg/kubelet/cm/node_container_manager_linux.go`; the threshold's share is
//! `hardEvictionReservation`). The kubelet's defaults on Linux
//! (`pkg/kubelet/eviction/defaults_linux.go`, `DefaultEvictionHard`) keep
//! `memory.available<100Mi`, `nodefs.available<10%`, `nodefs.inodesFree<5%`,
//! `imagefs.available<15%` and `imagefs.inodesFree<5%` (the last since v1.30); only
//! `memory.available` and `nodefs.available` reserve anything (`hardEvictionReservation`);
//! kube-reserved and system-reserved are empty unless set. So a
//! node of 8Gi offers 8Gi − 100Mi = 8092Mi, and one of 100Gi of disk offers
//! 100Gi − 10% = 96636764000 bytes of `ephemeral-storage` (10% worked out through a
//! float32, as `GetThresholdQuantity` does, then printed as bytes: the difference is
//! no whole number of Ki). The scheduler counts requests against that, not the capacity.
//!
//! `sim node add --kube-reserved cpu=100m,memory=256Mi --system-reserved …` sets the
//! reservations, `--eviction-hard` the thresholds.

use super::eviction::{reservation, Signal};
use super::NodeConfig;
use crate::api::quantity::{format_bytes, format_cpu_milli, parse_bytes, parse_cpu_milli};
use crate::api::StringMap;

/// What the node registers as capacity.
pub fn node_capacity(cfg: &NodeConfig) -> StringMap {
    let mut resources = StringMap::new();
    resources.insert("cpu".into(), cfg.cpu.clone());
    resources.insert("ephemeral-storage".into(), cfg.ephemeral_storage.clone());
    resources.insert("memory".into(), cfg.memory.clone());
    resources.insert("pods".into(), cfg.pods.to_string());
    resources
}

/// What the node registers as allocatable: capacity less the reservations and the
/// memory and nodefs eviction thresholds, never below zero. A node that names its allocatable
/// (another cluster's, imported) registers that.
pub fn node_allocatable(cfg: &NodeConfig) -> StringMap {
    let mut a = node_capacity(cfg);
    let reserved = |r: &str, parse: fn(&str) -> Option<i64>| -> i64 {
        [&cfg.kube_reserved, &cfg.system_reserved]
            .iter()
            .filter_map(|m| m.get(r))
            .filter_map(|q| parse(q))
            .sum()
    };
    if let Some(cpu) = parse_cpu_milli(&cfg.cpu) {
        let left = (cpu - reserved("cpu", parse_cpu_milli)).max(0);
        a.insert("cpu".into(), format_cpu_milli(left));
    }
    let thresholds = cfg
        .eviction_hard
        .clone()
        .unwrap_or_else(super::eviction::default_eviction_hard);
    for (resource, quantity, signal) in [
        ("memory", &cfg.memory, Signal::MemoryAvailable),
        (
            "ephemeral-storage",
            &cfg.ephemeral_storage,
            Signal::NodeFsAvailable,
        ),
    ] {
        if let Some(capacity) = parse_bytes(quantity) {
            let left = capacity
                .saturating_sub(reserved(resource, parse_bytes))
                .saturating_sub(reservation(&thresholds, signal, capacity))
                .max(0);
            a.insert(resource.into(), format_bytes(left));
        }
    }
    a.extend(cfg.allocatable.clone());
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_default_node_keeps_the_memory_eviction_threshold_back() {
        let a = node_allocatable(&NodeConfig::default());
        assert_eq!(a["memory"], "8092Mi");
        assert_eq!(a["cpu"], "4");
        assert_eq!(a["pods"], "110");
        assert_eq!(a["ephemeral-storage"], "96636764000");
        assert_eq!(node_capacity(&NodeConfig::default())["memory"], "8Gi");
        assert_eq!(
            node_capacity(&NodeConfig::default())["ephemeral-storage"],
            "100Gi"
        );
    }

    #[test]
    fn reservations_come_off_too_and_allocatable_never_goes_below_zero() {
        let mut cfg = NodeConfig::default();
        cfg.kube_reserved.insert("cpu".into(), "100m".into());
        cfg.kube_reserved.insert("memory".into(), "256Mi".into());
        cfg.system_reserved.insert("memory".into(), "512Mi".into());
        let a = node_allocatable(&cfg);
        assert_eq!(a["cpu"], "3900m");
        assert_eq!(a["memory"], "7324Mi");
        cfg.eviction_hard = Some(
            super::super::eviction::parse_eviction_hard("memory.available<1Gi,pid.available<10%")
                .unwrap(),
        );
        let a = node_allocatable(&cfg);
        assert_eq!(a["memory"], "6400Mi");
        // No nodefs.available threshold: the whole disk is offered.
        assert_eq!(a["ephemeral-storage"], "100Gi");
        cfg.memory = "64Mi".into();
        assert_eq!(node_allocatable(&cfg)["memory"], "0");
    }
}
