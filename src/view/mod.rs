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
mod control_plane;
mod deployments;
mod events;
mod node;
mod services;
mod timeline;

pub use aggregate::*;
pub use chain::*;
pub use control_plane::*;
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

/// Whether the page draws an object: the cluster's add-ons in `kube-system`
/// (CoreDNS's Deployment, ReplicaSet and Pods) run beside the learner's workloads and
/// count on their nodes, but the chain does not draw them; the console lists them
/// (`kubectl get pods -n kube-system`).
pub fn drawn(m: &ObjectMeta) -> bool {
    m.namespace != "kube-system"
}

/// Names in the order a person reads them: runs of digits compare as numbers, so
/// `node-2` comes before `node-10` (kubectl's own output stays in the API server's
/// byte order; this is the page's order).
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return a.cmp(b),
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(p), Some(q)) if p.is_ascii_digit() && q.is_ascii_digit() => {
                let dx = x.iter().take_while(|c| c.is_ascii_digit()).count();
                let dy = y.iter().take_while(|c| c.is_ascii_digit()).count();
                // Leading zeros do not make a number larger: compare without them, by
                // length first (no overflow however long the run).
                let trim = |d: &[u8]| -> usize { d.iter().take_while(|c| **c == b'0').count() };
                let (nx, ny) = (&x[trim(&x[..dx])..dx], &y[trim(&y[..dy])..dy]);
                let o = nx.len().cmp(&ny.len()).then_with(|| nx.cmp(ny));
                if o != Ordering::Equal {
                    return o;
                }
                x = &x[dx..];
                y = &y[dy..];
            }
            (Some(p), Some(q)) => {
                if p != q {
                    return p.cmp(q);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

/// Why an object the inspector was showing is not in the cluster now.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Absence {
    /// Rewound to before it was created: the recorded history creates it at this time.
    NotYet(SimTime),
    /// It was deleted (or never existed in this history).
    Gone,
}

/// Why object `kind`/`key` is absent from `c`: `future` is the furthest history
/// recorded while rewound (its writes after `c`'s own are what is still to come).
pub fn absence(
    c: &Cluster,
    future: Option<&kubeplay_engine::apiserver::WatchLog>,
    kind: Kind,
    key: &kubeplay_engine::apiserver::ObjKey,
) -> Absence {
    let created_later = future.and_then(|f| {
        f.since(c.store.log.len())
            .find(|e| e.kind == kind && &e.key == key && e.verb == "create")
            .map(|e| e.time)
    });
    match created_later {
        Some(t) if t > c.now() => Absence::NotYet(t),
        _ => Absence::Gone,
    }
}

/// The default scenario: three nodes and Deployment `web` (3 × nginx, 100m/128Mi), settled.
#[cfg(test)]
pub fn default_cluster() -> Cluster {
    default_cluster_opening().1
}

/// The default scenario at 0:00 (the Deployment just created) and settled.
pub fn default_cluster_opening() -> (Cluster, Cluster) {
    let mut c = Cluster::standard(1);
    // A fixed, valid Deployment on an empty cluster: creation cannot fail.
    let _ = c.create_deployment("web", "nginx:1.27", 3, "100m", "128Mi");
    let opening = c.clone();
    c.settle(120_000);
    (opening, c)
}

#[cfg(test)]
mod tests;
