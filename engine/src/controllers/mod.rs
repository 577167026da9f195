//! Controllers: observe (the store, as an informer cache) → diff → act (requests).
//!
//! Every control loop has one shape, [`Controller`]: its identity as a writer, what it
//! watches ([`Controller::on_change`]: enqueue keys, arm timers), how it reconciles one
//! key ([`Controller::sync`], returning the [`Request`]s it wants made), what its own
//! timers do, and how a failed reconcile is retried (a rate-limited requeue). A
//! controller never writes the store itself: the cluster sends its requests through the
//! API server under its name, so every write is in the watch log with its writer, and a
//! test can assert the exact requests of a reconcile.
//!
//! The cluster keeps one registry of them (`cluster::registry`): adding a controller is
//! one module here and one line there. See `docs/architecture.md` for a worked example.
//!
//! Upstream: `k8s.io/client-go/util/workqueue`, `k8s.io/sample-controller` (the loop:
//! `processNextWorkItem → syncHandler → handleErr`), and each controller's own .go file,
//! named in its module docs.

pub mod apiextensions;
pub mod attach_detach;
pub mod cronjob;
pub mod daemonset;
pub mod deployment;
pub mod disruption;
pub mod endpointslice;
pub mod garbage_collector;
pub mod gitops;
pub mod history;
pub mod hpa;
pub mod ingress;
pub mod job;
pub mod namespace;
pub mod node_lifecycle;
pub mod pod_gc;
pub mod replicaset;
pub mod resource_quota;
pub mod root_ca_publisher;
pub mod script;
pub mod service_account;
pub mod statefulset;
pub mod taint_eviction;
pub mod ttl_after_finished;
pub mod volume;
pub mod workqueue;

pub use workqueue::{KeyLabel, RateLimiter, WorkQueue};

use crate::apiserver::{ApiError, Change, Store};
use crate::client::{Component, Request};
use crate::config::Config;
use crate::rng::Rng;
use crate::time::{SimTime, SECOND};

/// What a reconcile decided: the requests to send and, optionally, when to look again.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reconcile {
    /// Requests, in order.
    pub requests: Vec<Request>,
    /// `AddAfter`: reconcile this key again after this delay.
    pub requeue_after: Option<SimTime>,
}

/// What a controller sees and asks for during one call: the informer cache, the clock,
/// and the keys and timers it wants (the cluster adds them to its queue and its clock
/// when the call returns, in the order they were asked for).
pub struct Ctx<'a, K, T> {
    /// The informer cache: the store as it is now.
    pub store: &'a Store,
    /// Simulated now.
    pub now: SimTime,
    /// The cluster's one seeded RNG (the scheduler breaks score ties with it).
    pub rng: &'a mut Rng,
    /// The latencies in force.
    pub config: &'a Config,
    enqueued: Vec<K>,
    timers: Vec<(SimTime, T)>,
}

impl<'a, K, T> Ctx<'a, K, T> {
    /// A context over the store at `now`.
    pub fn new(store: &'a Store, now: SimTime, rng: &'a mut Rng, config: &'a Config) -> Self {
        Ctx {
            store,
            now,
            rng,
            config,
            enqueued: Vec::new(),
            timers: Vec::new(),
        }
    }

    /// Put `key` on the controller's work queue (`queue.Add`).
    pub fn enqueue(&mut self, key: K) {
        self.enqueued.push(key);
    }

    /// Fire `timer` at `at` (never earlier than now).
    pub fn after(&mut self, at: SimTime, timer: T) {
        self.timers.push((at, timer));
    }

    /// The keys and timers asked for, in order (for the cluster, and for tests).
    pub fn take(&mut self) -> (Vec<K>, Vec<(SimTime, T)>) {
        (
            std::mem::take(&mut self.enqueued),
            std::mem::take(&mut self.timers),
        )
    }
}

/// A control loop's own queue, for one that keeps its keys elsewhere than the work
/// queue (the scheduler's scheduling queue), as the queue view shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OwnQueue {
    /// Keys ready to be processed.
    pub depth: usize,
    /// The next of them.
    pub next: Vec<String>,
    /// Keys waiting to be retried.
    pub waiting: usize,
    /// Keys processed so far.
    pub syncs: u64,
    /// The last key processed, and when.
    pub last: Option<(String, SimTime)>,
}

/// A timer type for controllers that arm none.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NoTimer {}

/// How the cluster retries a key whose reconcile had a request refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Retry {
    /// `AddRateLimited` after a failure (None: the controller does not requeue, e.g.
    /// the taint-eviction controller, whose upstream retries the delete itself).
    pub on_error: Option<(SimTime, SimTime)>,
    /// Whether a pending requeue is background work for quiescence: true when the
    /// controller counts what it waits for itself ([`Controller::is_busy`]), so that a
    /// requeue made stale by a later sync does not hold `settle()` up.
    pub requeue_is_background: bool,
}

impl Retry {
    /// client-go's `DefaultControllerRateLimiter`: per key 5 ms after the first
    /// failure, doubling to 1,000 s, until the key syncs cleanly; and across keys a
    /// token bucket of 10 per second with a burst of 100 (see [`RateLimiter`]).
    pub const DEFAULT: Retry = Retry {
        on_error: Some((5, 1_000 * SECOND)),
        requeue_is_background: false,
    };
}

/// One control loop.
///
/// The cluster calls, for every write the API server accepted, [`on_change`] of every
/// registered controller (in registry order); a controller with queued keys is woken
/// `controller_latency` later and [`sync`]s each key; the requests go to the API server
/// as [`Controller::identity`]; a refused one is shown to [`sync_failed`] and the key is
/// requeued through the rate limiter; a `requeue_after` wakes the key again.
///
/// [`on_change`]: Controller::on_change
/// [`sync`]: Controller::sync
/// [`sync_failed`]: Controller::sync_failed
pub trait Controller: Clone + std::fmt::Debug + Default {
    /// A work-queue key (namespace/name for most; the garbage collector keys by kind too).
    type Key: Clone + Ord + std::fmt::Debug + KeyLabel;
    /// Its own timers ([`NoTimer`] for none).
    type Timer: Clone + std::fmt::Debug;
    /// How its failed reconciles are retried.
    const RETRY: Retry = Retry::DEFAULT;
    /// The kinds its informers list and watch: upstream's `informers.X().Informer()`
    /// handed to its constructor (`NewReplicaSetController(rsInformer, podInformer…)`).
    /// The cluster sends those LISTs and WATCHes through the API server's door when the
    /// loop starts and when its watch is re-established.
    const WATCHES: &'static [crate::api::Kind];

    /// Its identity: the writer in the watch log and the Event source.
    fn identity() -> Component;

    /// Informer handler: a write happened (never an Event). Enqueue keys and arm timers
    /// through `ctx`; change nothing else of the world.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, Self::Key, Self::Timer>);

    /// Reconcile one key against the store.
    fn sync(&mut self, key: &Self::Key, ctx: &mut Ctx<'_, Self::Key, Self::Timer>) -> Reconcile {
        let _ = (key, ctx);
        Reconcile::default()
    }

    /// A request of `key`'s reconcile was refused with `err`: requests that record it
    /// (e.g. the ReplicaSet's `ReplicaFailure` condition).
    fn sync_failed(
        &mut self,
        key: &Self::Key,
        err: &ApiError,
        ctx: &mut Ctx<'_, Self::Key, Self::Timer>,
    ) -> Vec<Request> {
        let _ = (key, err, ctx);
        Vec::new()
    }

    /// A request one of its timers sent was refused (only a Bind is reported, and the
    /// requests after it in that batch are not sent): requests that record it.
    fn request_refused(
        &mut self,
        req: &Request,
        err: &ApiError,
        ctx: &mut Ctx<'_, Self::Key, Self::Timer>,
    ) -> Vec<Request> {
        let _ = (req, err, ctx);
        Vec::new()
    }

    /// One of its timers fired: the requests to send.
    fn on_timer(
        &mut self,
        timer: Self::Timer,
        ctx: &mut Ctx<'_, Self::Key, Self::Timer>,
    ) -> Vec<Request> {
        let _ = (timer, ctx);
        Vec::new()
    }

    /// Whether a pending timer is background work, which does not keep the cluster from
    /// being quiescent (a periodic check that finds nothing to do). `heartbeating(node)`
    /// says whether that node's kubelet is up and connected.
    fn is_background(&self, timer: &Self::Timer, heartbeating: &dyn Fn(&str) -> bool) -> bool {
        let _ = (timer, heartbeating);
        false
    }

    /// Work it is waiting for that no foreground timer shows (a scheduled eviction, a
    /// progress deadline): the cluster is not quiescent while this is true.
    fn is_busy(&self) -> bool {
        false
    }

    /// Its own queue, if it keeps one instead of the work queue.
    fn own_queue(&self) -> Option<OwnQueue> {
        None
    }
}
