//! Projection of the engine's state into the small view structs the components draw.
//!
//! Pure functions of the [`Cluster`]: no web types, so they are unit-tested natively.
//! Layout (card positions and the lines between them) is computed here too, so that
//! lines and cards always agree and nothing depends on measuring the DOM.

use kubeplay_engine::api::*;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::controllers::deployment::util::revision;
use kubeplay_engine::printers::{node_status, pod_ready_status};
use kubeplay_engine::time::{clock_label, SimTime};

mod aggregate;
mod chain;
mod deployments;
mod events;
mod node;
mod services;
mod timeline;

pub use aggregate::*;
pub use chain::*;
pub use deployments::*;
pub use events::*;
pub use node::*;
pub use services::*;
pub use timeline::*;

/// Which of `len` items a capped list draws: up to `max` of those where `busy(i)` (in
/// order), then the others (in order) to fill `max`. The busy ones come first in the
/// result; a caller that wants list order sorts it. All of them when `len <= max`.
pub fn busy_first(len: usize, max: usize, busy: impl Fn(usize) -> bool) -> Vec<usize> {
    if len <= max {
        return (0..len).collect();
    }
    let mut picked: Vec<usize> = (0..len).filter(|&i| busy(i)).take(max).collect();
    let rest = max - picked.len();
    picked.extend((0..len).filter(|&i| !busy(i)).take(rest));
    picked
}

/// The default scenario: three nodes and Deployment `web` (3 × nginx, 100m/128Mi), settled.
pub fn default_cluster() -> Cluster {
    let mut c = Cluster::with_default_nodes(1);
    // A fixed, valid Deployment on an empty cluster: creation cannot fail.
    let _ = c.create_deployment("web", "nginx:1.27", 3, "100m", "128Mi");
    c.settle(120_000);
    c
}

#[cfg(test)]
mod tests;
