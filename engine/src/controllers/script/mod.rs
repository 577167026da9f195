//! The learner's own controller (`sim controller`): a `reconcile(request, client)`
//! written in JavaScript, run as one more control loop beside the built-in ones.
//!
//! It has the shape of a controller-runtime controller: it reconciles the objects of
//! one kind (`--for`), and a change to an object of a kind it owns (`--owns`) wakes
//! the owner named by that object's controller reference. Its keys go through the
//! same work queue and rate limiter as every built-in controller; its reads come from
//! the informer cache; its writes go through the API server's one door as its own
//! ServiceAccount (`default/my-controller`), so authorization, admission and
//! validation judge them, and the watch log, the timeline, the why-trace and the
//! field managers name it `my-controller`.
//!
//! The code runs in a sandbox ([`runner`]) with a tick budget per reconcile; a
//! reconcile that throws, runs out of ticks or asks for too many writes writes
//! nothing, marks the controller failing, and is retried with client-go's per-key
//! back-off (5 ms doubling to 1,000 s), so an endless loop costs one budget per
//! retry and the page keeps its frame rate.

/// Where the code runs (kept under this name for the hosts that install it).
pub use crate::sandbox as runner;
mod wire;

use super::{Controller, Ctx, NoTimer, Reconcile};
use crate::api::*;
use crate::apiserver::{ApiError, Change, ObjKey};
use crate::client::{writer, Component, Request};
use crate::time::{SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet, VecDeque};

/// The longest source a controller may have (a share link carries it).
pub const MAX_SOURCE: usize = 64 * 1024;
/// Ticks (10,000 interpreter polls each) one reconcile may use.
pub const BUDGET_TICKS: u32 = 100;
/// Writes one reconcile may ask for.
pub const MAX_WRITES: usize = 100;
/// Objects the informer cache may hand one reconcile.
pub const MAX_CACHE_OBJECTS: usize = 2_000;
/// `console.log` lines kept.
pub const MAX_LOG_LINES: usize = 200;
/// The longest `requeueAfter` honoured (a day).
const MAX_REQUEUE: SimTime = 86_400 * SECOND;

/// The client library the learner's code calls.
pub const LIBRARY: &str = include_str!("client.js");

/// What the learner installed.
#[derive(Clone, Debug, PartialEq)]
pub struct ScriptSpec {
    /// The JavaScript source.
    pub source: String,
    /// The kind it reconciles.
    pub for_kind: Kind,
    /// The kinds it owns: a change to one wakes its controller owner.
    pub owns: Vec<Kind>,
    /// The namespace it works in (its Role's).
    pub namespace: String,
}

impl ScriptSpec {
    /// Every kind its informers watch.
    pub fn kinds(&self) -> Vec<Kind> {
        let mut out = vec![self.for_kind];
        for k in &self.owns {
            if !out.contains(k) {
                out.push(*k);
            }
        }
        out
    }
}

/// How the last reconcile went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LastError {
    /// When.
    pub at: SimTime,
    /// Which key.
    pub key: String,
    /// The error.
    pub message: String,
}

/// The learner's controller and what it did.
#[derive(Clone, Debug, Default)]
pub struct ScriptController {
    /// The installed code (None: no controller).
    pub spec: Option<ScriptSpec>,
    /// Paused: keys wait until it resumes.
    pub paused: bool,
    /// Keys that came while it was paused or its sandbox was missing.
    held: BTreeSet<ObjKey>,
    /// Consecutive failures per key (its own failures; refused writes go through the
    /// loop's rate limiter).
    failures: BTreeMap<ObjKey, u32>,
    /// Reconciles run.
    pub calls: u64,
    /// Ticks used, in all, and the most one reconcile used.
    pub ticks: (u64, u32),
    /// The last failure, while the controller is failing.
    pub last_error: Option<LastError>,
    /// Reconciles that failed.
    pub failed_calls: u64,
    /// What its `console.log` printed, newest last.
    pub logs: VecDeque<String>,
}

impl ScriptController {
    /// Take the keys held while paused, to queue them again.
    pub fn take_held(&mut self) -> Vec<ObjKey> {
        std::mem::take(&mut self.held).into_iter().collect()
    }

    /// Whether a reconcile failed and no later one of that key succeeded.
    pub fn failing(&self) -> bool {
        !self.failures.is_empty()
    }

    /// Install `spec` (a reload keeps the counters, forgets the failures).
    pub fn install(&mut self, spec: Option<ScriptSpec>) {
        self.spec = spec;
        self.failures.clear();
        self.last_error = None;
    }

    fn log(&mut self, line: String) {
        if self.logs.len() == MAX_LOG_LINES {
            self.logs.pop_front();
        }
        self.logs.push_back(line);
    }

    fn fail(&mut self, key: &ObjKey, now: SimTime, message: String) -> SimTime {
        self.failed_calls += 1;
        let n = self.failures.entry(key.clone()).or_insert(0);
        *n = n.saturating_add(1);
        // client-go's per-item exponential back-off: 5 ms · 2^(n-1), at most 1,000 s.
        let after = 5u64
            .checked_shl(n.saturating_sub(1).min(40))
            .unwrap_or(u64::MAX)
            .min(1_000 * SECOND);
        self.log(format!(
            "{} {}: {}",
            crate::time::rfc3339(now),
            key_label(key),
            first_line(&message)
        ));
        self.last_error = Some(LastError {
            at: now,
            key: key_label(key),
            message,
        });
        after
    }
}

fn key_label(k: &ObjKey) -> String {
    format!("{}/{}", k.namespace, k.name)
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or_default()
}

impl Controller for ScriptController {
    type Key = ObjKey;
    type Timer = NoTimer;
    /// client-go's back-off; a requeue it asked for (`requeueAfter`, a periodic look)
    /// or a retry of its own failure is background work: a loop that looks every few
    /// seconds, or one that keeps failing, never lets the cluster settle otherwise.
    const RETRY: super::Retry = super::Retry {
        requeue_is_background: true,
        ..super::Retry::DEFAULT
    };
    /// Its kinds are the learner's: the cluster lists and watches them as they are
    /// installed, not from a fixed list.
    const WATCHES: &'static [Kind] = &[];

    fn identity() -> Component {
        Component::named(writer::MY_CONTROLLER)
    }

    /// `For(kind)`: its own objects; `Owns(kind)`: the controller owner of an owned
    /// object (controller-runtime's `EnqueueRequestForOwner` with `OnlyControllerOwner`),
    /// and for an object no controller owns, every object of its kind.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        let Some(spec) = &self.spec else {
            return;
        };
        if ch.key.namespace != spec.namespace {
            return;
        }
        if ch.kind == spec.for_kind {
            ctx.enqueue(ch.key.clone());
        }
        if !spec.owns.contains(&ch.kind) {
            return;
        }
        let owner_kind = spec.for_kind.name();
        let owner_group = spec.for_kind.api_version().split_once('/').map(|(g, _)| g);
        let mut orphan = false;
        for o in [&ch.old, &ch.new].into_iter().flatten() {
            let mut owned = false;
            for r in &o.meta().owner_references {
                let group = r.api_version.split_once('/').map(|(g, _)| g);
                if r.controller == Some(true) && r.kind == owner_kind && group == owner_group {
                    ctx.enqueue(ObjKey::new(&spec.namespace, &r.name));
                }
                owned |= r.controller == Some(true);
            }
            orphan |= !owned;
        }
        // An object no controller owns may be one that any of its objects should
        // count (a Pod made by hand with its labels): every one of them looks, as the
        // ReplicaSet controller looks up the ReplicaSets whose selector matches an
        // orphan Pod (`getPodReplicaSets`).
        if orphan {
            for o in ctx.store.list_shared(spec.for_kind, Some(&spec.namespace)) {
                ctx.enqueue(ObjKey::of(o.meta()));
            }
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        let Some(spec) = self.spec.clone() else {
            return Reconcile::default();
        };
        if self.paused || !runner::installed() {
            self.held.insert(key.clone());
            return Reconcile::default();
        }
        self.calls += 1;
        let now = ctx.now;
        let served = crate::apiserver::custom::served(ctx.store);
        let ran = crate::apiserver::custom::scope(served, || {
            wire::reconcile(&spec, key, ctx.store, now, self.calls)
        });
        self.ticks.0 += u64::from(ran.ticks);
        self.ticks.1 = self.ticks.1.max(ran.ticks);
        for line in ran.logs {
            self.log(format!(
                "{} {}: {line}",
                crate::time::rfc3339(now),
                key_label(key)
            ));
        }
        match ran.result {
            Ok((requests, requeue_after)) => {
                if self.failures.remove(key).is_some() && self.failures.is_empty() {
                    self.last_error = None;
                }
                Reconcile {
                    requests,
                    requeue_after: requeue_after.map(|t| t.min(MAX_REQUEUE)),
                }
            }
            Err(message) => Reconcile {
                requests: Vec::new(),
                requeue_after: Some(self.fail(key, now, message)),
            },
        }
    }

    /// A write was refused: the learner sees the API server's words.
    fn sync_failed(
        &mut self,
        key: &ObjKey,
        err: &ApiError,
        ctx: &mut Ctx<'_, ObjKey, NoTimer>,
    ) -> Vec<Request> {
        self.fail(key, ctx.now, err.kubectl_text());
        Vec::new()
    }
}

#[cfg(test)]
mod tests;
