//! How fast the simulated components react (the latencies a scenario may tune) and
//! what the simulated workloads demand (`sim load`, read by the metrics pipeline).
//!
//! Kept apart from the components so that each of them (and the cluster that wires
//! them) can read its own latency without importing the others.

use crate::time::SimTime;

/// Tunable latencies.
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Delay between a watch event and the controller's reconcile.
    pub controller_latency: SimTime,
    /// Delay between a Pod entering the scheduling queue and its cycle.
    pub scheduler_latency: SimTime,
    /// Kubelet timings.
    pub kubelet: KubeletTiming,
    /// What each workload demands of CPU and memory (`sim load`).
    pub load: crate::metrics::Load,
    /// The CPU time each Pod spent answering `sim traffic` requests.
    pub served: crate::metrics::Served,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            controller_latency: 200,
            scheduler_latency: 300,
            kubelet: KubeletTiming::default(),
            load: Default::default(),
            served: Default::default(),
        }
    }
}

/// Latencies of the simulated node (configurable for scenarios).
#[derive(Clone, Debug, PartialEq)]
pub struct KubeletTiming {
    /// From seeing a Pod bound to the node to reporting ContainerCreating.
    pub sync_latency: SimTime,
    /// Create + start of one container once its image is present.
    pub container_start: SimTime,
    /// Time for a container to exit after TERM (capped by the grace period).
    pub container_stop: SimTime,
    /// Pull time per MB of image.
    pub pull_ms_per_mb: SimTime,
    /// Fixed pull overhead.
    pub pull_base: SimTime,
}

impl Default for KubeletTiming {
    fn default() -> Self {
        KubeletTiming {
            sync_latency: 300,
            container_start: 700,
            container_stop: 1_000,
            pull_ms_per_mb: 40,
            pull_base: 800,
        }
    }
}
