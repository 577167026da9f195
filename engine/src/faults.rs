//! The world's fault switches: what a learner broke with `sim` verbs, held once for the
//! whole cluster and read by every kubelet (a container registry that refuses an image
//! refuses it to every node, including nodes added later).
//!
//! Not part of Kubernetes: these stand for the world outside it — the registry, the
//! application inside the container. A kubelet only observes them, as a real kubelet
//! observes a failing pull or a probe that gets no answer.

use crate::time::SimTime;
use std::collections::{BTreeMap, BTreeSet};

/// Every fault switch.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Faults {
    /// Images the registry refuses (`sim image-fail`).
    pub refused_images: BTreeSet<String>,
    /// Images whose containers exit with code 1 this long after starting (`sim image-crash`).
    pub crashing_images: BTreeMap<String, SimTime>,
    /// Pods (by uid) whose application fails its readiness probe (`sim unready`).
    pub unready: BTreeSet<String>,
    /// Pods (by uid) whose application hangs (`sim hang`): it fails its liveness and
    /// readiness probes until its container is restarted, which cures it.
    pub hung: BTreeSet<String>,
    /// Images whose application starts listening this long after its container
    /// starts (`sim image-warmup`): until then it refuses connections and fails its
    /// probes. Without an entry an application listens as soon as it starts.
    pub warmup: BTreeMap<String, SimTime>,
}

impl Faults {
    /// Whether the application of Pod `uid` answers its readiness probe.
    pub fn ready(&self, uid: &str) -> bool {
        !self.unready.contains(uid) && !self.hung.contains(uid)
    }

    /// Whether an application of `image` whose container started at `started`
    /// listens at `now`.
    pub fn listening(&self, image: &str, started: SimTime, now: SimTime) -> bool {
        self.warmup
            .get(image)
            .is_none_or(|w| now >= started.saturating_add(*w))
    }

    /// Whether the application of Pod `uid` answers its liveness and startup probes.
    pub fn alive(&self, uid: &str) -> bool {
        !self.hung.contains(uid)
    }
}
