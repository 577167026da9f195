//! Controllers: observe (the store, as an informer cache) → diff → act (requests).
//!
//! A controller never writes the store itself: `reconcile` returns the [`Request`]s it
//! wants made, and the cluster sends them through the API server under the
//! controller's name. That keeps every write visible in the watch log with its writer,
//! and lets tests assert the exact requests a reconcile makes.

pub mod deployment;
pub mod disruption;
pub mod garbage_collector;
pub mod node_lifecycle;
pub mod pod_gc;
pub mod replicaset;
pub mod taint_eviction;

pub mod workqueue;

pub use workqueue::WorkQueue;

use crate::client::Request;
use crate::time::SimTime;

/// What a reconcile decided: the requests to send and, optionally, when to look again.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reconcile {
    /// Requests, in order.
    pub requests: Vec<Request>,
    /// `AddAfter`: reconcile this key again after this delay.
    pub requeue_after: Option<SimTime>,
}
