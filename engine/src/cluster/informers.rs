//! Informers and work queues, visible: every control loop lists and watches with a
//! resourceVersion, each LIST and WATCH a request through the API server's door
//! (authorized as kube-controller-manager's shared informers, the scheduler or the
//! kubelet, and counted; a refused one leaves the watch broken and the reflector
//! retries each second); a watch can break (`sim watch break CONTROLLER`) and be
//! re-established, or find its resourceVersion gone (`410 Gone`) and relist; `sim
//! queues` and the page's queue view show each loop's queue depth, retries and the key
//! being synced.
//!
//! **While a watch is broken** its loop is told nothing: the changes wait in the API
//! server's watch cache. When the reflector watches again (after `--for`, 10 s unless
//! told otherwise) from its last resourceVersion:
//!
//! - if that version is still in the watch cache, the watch resumes: every missed event
//!   is delivered, in order, and nothing is lost;
//! - if it is not (`--gone`, or the break outlasted the API server's compaction of
//!   etcd's history, 5 minutes, or more changes than the watch cache holds went by), the
//!   watch gets `410 Gone: too old resource version` and the reflector relists: it
//!   lists every object at the current resourceVersion and its informer compares the
//!   list with its cache. The handlers then see each object that changed *once*, from
//!   what the cache held to what is stored now: every intermediate event is lost. An
//!   object created and deleted meanwhile is never seen at all.
//!
//! Either way the loop reconciles what its keys point at now — level-triggered, not
//! edge-triggered — so a relist makes it converge as well as every event would have;
//! that is the course's point about watches being hints, not a reliable log.
//!
//! Upstream: `staging/src/k8s.io/client-go/tools/cache/reflector.go` (`ListAndWatch`,
//! `watchHandler`, `isExpiredError`: relist on `StatusReasonExpired`/`Gone`),
//! `delta_fifo.go` (`Replace`: a relist's objects become `Replaced`/`Sync` deltas,
//! missing ones `DeletedFinalStateUnknown`), `shared_informer.go`
//! (`HandleDeltas`: OnUpdate with the cached object as old), the API server's
//! `storage/cacher/watch_cache.go` (`too old resource version: %d (%d)`), and
//! `--etcd-compaction-interval` (5 m).
//!
//! Simplification: a controller reads the store, not a cache of its own, when it
//! syncs, so a broken watch hides changes from its event handlers but not from a
//! reconcile that runs anyway (a requeue); upstream that reconcile would also read the
//! stale cache.

use super::*;
use crate::apiserver::request::{ApiRequest, Credentials, Verb};
use crate::client::Component;
use crate::time::{MINUTE, SECOND};

/// How long a broken watch stays broken unless `--for` says otherwise.
pub const DEFAULT_BREAK: SimTime = 10 * SECOND;
/// `--etcd-compaction-interval`: a resourceVersion older than this is gone.
pub const COMPACTION_INTERVAL: SimTime = 5 * MINUTE;
/// Changes a watch cache keeps for a resumed watch before the oldest are dropped (the
/// cacher's capacity; past it a resume finds its version gone).
pub const WATCH_CACHE_CAPACITY: usize = 10_000;

/// A loop's watch.
#[derive(Clone, Debug, Default)]
pub struct Watch {
    /// The resourceVersion of the last change delivered (where a new watch starts).
    pub resource_version: u64,
    /// Changes delivered so far.
    pub delivered: u64,
    /// While broken: since when, and whether the re-watch finds its version gone.
    pub broken: Option<Broken>,
    /// The changes it missed while broken, in order (cleared past the watch cache's
    /// capacity: the version is gone then).
    missed: Vec<Change>,
    /// The same changes as a relist would find them: each object once, from its state
    /// before the break to its state now (kept whatever the watch cache holds).
    changed: Coalesced,
    /// Relists so far (410 Gone).
    pub relists: u32,
    /// What the last re-watch did.
    pub last: Option<String>,
}

/// A broken watch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Broken {
    /// When it broke.
    pub since: SimTime,
    /// The resourceVersion it will ask to resume from.
    pub from: u64,
    /// When the reflector watches again.
    pub until: SimTime,
    /// Whether that version is gone (`--gone`, or the watch cache overflowed).
    pub gone: bool,
    /// Changes it missed, counted even past the watch cache's capacity.
    pub missed: u64,
}

impl Watch {
    /// A change happened while the watch was broken.
    pub(super) fn miss(&mut self, ch: &Change) {
        if let Some(b) = &mut self.broken {
            b.missed += 1;
            self.changed.add(ch);
            if self.missed.len() >= WATCH_CACHE_CAPACITY {
                b.gone = true;
                self.missed = Vec::new();
            } else if !b.gone {
                self.missed.push(ch.clone());
            }
        }
    }

    /// How the queue view shows it.
    pub fn view(&self) -> WatchView {
        WatchView {
            resource_version: self.resource_version,
            delivered: self.delivered,
            broken_since: self.broken.as_ref().map(|b| b.since),
            missed: self.broken.as_ref().map_or(0, |b| b.missed),
            relists: self.relists,
            last: self.last.clone(),
        }
    }
}

/// What a loop did (the queue view).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoopStats {
    /// Keys synced so far.
    pub syncs: u64,
    /// The key synced last.
    pub last_key: String,
    /// When.
    pub last_at: Option<SimTime>,
    /// Requeues after a failed sync (`AddRateLimited`).
    pub retries: u64,
}

/// A loop's watch as shown.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WatchView {
    /// The resourceVersion of the last change it was shown.
    pub resource_version: u64,
    /// Changes delivered so far.
    pub delivered: u64,
    /// Broken since (None: watching).
    pub broken_since: Option<SimTime>,
    /// Changes missed while broken.
    pub missed: u64,
    /// Relists so far.
    pub relists: u32,
    /// What the last re-watch did.
    pub last: Option<String>,
}

/// One loop in the queue view.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoopView {
    /// Its name (the writer: `replicaset-controller`…).
    pub name: String,
    /// Keys queued.
    pub depth: usize,
    /// The next keys to sync.
    pub next: Vec<String>,
    /// Keys backing off after a failure.
    pub failing: usize,
    /// Syncs, the last key, retries.
    pub stats: LoopStats,
    /// Its watch.
    pub watch: WatchView,
}

/// The loop a name means: its writer name (`replicaset-controller`,
/// `default-scheduler`…), or `scheduler`.
pub fn loop_named(name: &str) -> Option<Ctl> {
    let name = if name == "scheduler" || name == "kube-scheduler" {
        writer::DEFAULT_SCHEDULER
    } else {
        name
    };
    Ctl::ALL
        .iter()
        .copied()
        .find(|c| c.component().writer == name)
}

impl Cluster {
    /// Every loop's queue and watch, in registry order.
    pub fn loop_views(&self) -> Vec<LoopView> {
        let mut v = self.controllers.views();
        // The learner's controller is a loop only while it has code.
        if self.controllers.script.spec.is_none() {
            v.retain(|l| l.name != crate::client::writer::MY_CONTROLLER);
        }
        v
    }

    /// `sim watch break CONTROLLER`: its watch breaks now and is re-established after
    /// `for_ms`; with `gone` its resourceVersion will have been compacted by then.
    pub fn break_watch(&mut self, c: Ctl, for_ms: SimTime, gone: bool) -> Result<u64, String> {
        let now = self.now;
        let w = self.controllers.watch_mut(c);
        if w.broken.is_some() {
            return Err(format!(
                "the watch of {} is already broken",
                c.component().writer
            ));
        }
        let from = w.resource_version;
        w.broken = Some(Broken {
            since: now,
            from,
            until: now + for_ms,
            gone: gone || for_ms > COMPACTION_INTERVAL,
            missed: 0,
        });
        self.push_timer(now + for_ms, Timer::Rewatch(c));
        Ok(from)
    }

    /// The reflector watches again: a resumed watch delivers what it missed; a gone
    /// version relists (see the module docs).
    pub(super) fn rewatch(&mut self, c: Ctl) {
        if self.unavailable().is_some() {
            // Nothing answers: the reflector backs off and tries again.
            self.push_timer(self.now + SECOND, Timer::Rewatch(c));
            return;
        }
        let now = self.now;
        let Some(b) = self.controllers.watch(c).broken.clone() else {
            return;
        };
        let gone = b.gone || now.saturating_sub(b.since) > COMPACTION_INTERVAL;
        // The LIST (for a gone version) and the WATCH are requests through the door: one
        // the authorizer refuses leaves the watch broken, and the reflector tries again.
        let from = (!gone).then_some(b.from);
        if let Err(line) = self.list_and_watch(&informer_client(c), c.watches(), from) {
            self.controllers.watch_mut(c).last = Some(line);
            self.push_timer(now + SECOND, Timer::Rewatch(c));
            return;
        }
        let revision = self.store.revision();
        let w = self.controllers.watch_mut(c);
        let Some(b) = w.broken.take() else {
            return;
        };
        let missed = std::mem::take(&mut w.missed);
        let changed = std::mem::take(&mut w.changed).changes();
        let deliver = if gone {
            w.relists += 1;
            w.last = Some(format!(
                "410 Gone: too old resource version: {} ({revision}); relisted at {revision}: {} object{} changed, {} event{} never seen",
                b.from,
                changed.len(),
                if changed.len() == 1 { "" } else { "s" },
                b.missed,
                if b.missed == 1 { "" } else { "s" },
            ));
            changed
        } else {
            w.last = Some(format!(
                "resumed from resourceVersion {}: {} missed event{} delivered",
                b.from,
                missed.len(),
                if missed.len() == 1 { "" } else { "s" },
            ));
            missed
        };
        w.resource_version = revision;
        self.controller_deliver(c, &deliver);
        self.controllers.watch_mut(c).resource_version = revision;
        self.arm_controllers();
    }

    /// A reflector's `ListAndWatch` for each of `kinds`, through the API server's
    /// door as `who`: from `from`, a WATCH that resumes there; otherwise a LIST at the
    /// current resourceVersion, then a WATCH from it. Err: the reflector's error line
    /// for the first request refused.
    pub(super) fn list_and_watch(
        &mut self,
        who: &Component,
        kinds: &[Kind],
        from: Option<u64>,
    ) -> Result<(), String> {
        self.list_and_watch_selected(who, kinds, from, &[])
    }

    /// [`Self::list_and_watch`] with selectors per kind (a kubelet watches its own Pods
    /// and its own Node; kube-proxy its own Node and the slices of proxied Services).
    pub(super) fn list_and_watch_selected(
        &mut self,
        who: &Component,
        kinds: &[Kind],
        from: Option<u64>,
        selectors: &[InformerSelector],
    ) -> Result<(), String> {
        let user = who.user();
        for &kind in kinds {
            let selector = selectors.iter().find(|s| s.kind == kind);
            let fields = selector
                .filter(|s| !s.fields.is_empty())
                .and_then(|s| {
                    crate::apiserver::selectors::parse_field_selector(kind, &s.fields).ok()
                })
                .unwrap_or_default();
            let labels = selector
                .filter(|s| !s.labels.is_empty())
                .and_then(|s| crate::apiserver::selectors::parse_label_selector(&s.labels).ok());
            let request = |verb: Verb| {
                let mut r =
                    ApiRequest::new(Credentials::Identity(user.clone()), &who.writer, verb, kind);
                r.cache_authz = true;
                r.fields = fields.clone();
                r.labels = labels.clone();
                r
            };
            let version = match from {
                Some(v) => v,
                None => match self.call(request(Verb::List)) {
                    Ok(resp) => resp.revision,
                    Err(e) => return Err(reflector_error("failed to list", kind, &e)),
                },
            };
            let mut watch = request(Verb::Watch);
            watch.resource_version = Some(version.max(1));
            if let Err(e) = self.call(watch) {
                return Err(reflector_error("failed to watch", kind, &e));
            }
        }
        Ok(())
    }

    /// A controller manager or scheduler replica leads now: its loops' informers
    /// start, one LIST and WATCH per kind (the shared informer factory watches a kind
    /// once for every loop that asks for it). A refused one leaves those loops'
    /// watches broken until the reflector's retry succeeds.
    pub(super) fn start_informers(&mut self, e: super::leader_election::Elected) {
        let loops: Vec<Ctl> = Ctl::ALL
            .iter()
            .copied()
            .filter(|c| super::leader_election::Elected::of(*c) == Some(e))
            .collect();
        let mut kinds: Vec<Kind> = Vec::new();
        for c in &loops {
            for k in c.watches() {
                if !kinds.contains(k) {
                    kinds.push(*k);
                }
            }
        }
        let Some(&first) = loops.first() else {
            return;
        };
        let who = informer_client(first);
        let Err(line) = self.list_and_watch(&who, &kinds, None) else {
            return;
        };
        let now = self.now;
        for c in loops {
            let w = self.controllers.watch_mut(c);
            w.last = Some(line.clone());
            if w.broken.is_none() {
                w.broken = Some(Broken {
                    since: now,
                    from: w.resource_version,
                    until: now + SECOND,
                    gone: true,
                    missed: 0,
                });
                self.push_timer(now + SECOND, Timer::Rewatch(c));
            }
        }
    }

    /// Whether a loop's watch is broken.
    pub fn watch_broken(&self, c: Ctl) -> bool {
        self.controllers.watch(c).broken.is_some()
    }
}

/// The selectors an informer lists and watches one kind with (`ListOptions`'
/// `fieldSelector` and `labelSelector`; empty: none).
pub(super) struct InformerSelector {
    /// The kind.
    pub kind: Kind,
    /// Its field selector.
    pub fields: String,
    /// Its label selector.
    pub labels: String,
}

impl InformerSelector {
    /// A field selector for `kind`.
    pub fn fields(kind: Kind, fields: String) -> Self {
        InformerSelector {
            kind,
            fields,
            labels: String::new(),
        }
    }

    /// A label selector for `kind`.
    pub fn labels(kind: Kind, labels: &str) -> Self {
        InformerSelector {
            kind,
            fields: String::new(),
            labels: labels.into(),
        }
    }
}

/// Who a loop's informers list and watch as: kube-controller-manager's shared
/// informers use the manager's own identity (`rootClientBuilder.ClientOrDie(
/// "shared-informers")`), not each controller's ServiceAccount; the scheduler and
/// the components outside the manager are themselves.
fn informer_client(c: Ctl) -> Component {
    match super::leader_election::Elected::of(c) {
        Some(e @ super::leader_election::Elected::ControllerManager) => e.component(),
        _ => c.component(),
    }
}

/// The reflector's error line (`reflector.go`): `failed to list *v1.Pod: pods is
/// forbidden: …`.
fn reflector_error(what: &str, kind: Kind, e: &ApiError) -> String {
    let version = kind.api_version().rsplit('/').next().unwrap_or("v1");
    format!("{what} *{version}.{}: {}", kind.name(), e.message)
}

/// A relist's view of missed changes: each object once, from the state the informer
/// cached before the break (the first change's old) to the state listed now (the last
/// change's new); objects created and deleted in between are not seen at all.
#[derive(Clone, Debug, Default)]
struct Coalesced {
    /// Objects in the order they first changed.
    order: Vec<(Kind, ObjKey)>,
    /// Each one's (state before the break, state now).
    by: BTreeMap<(Kind, ObjKey), BeforeAndNow>,
}

/// An object's state before a watch broke and its state now (None: absent).
type BeforeAndNow = (Option<Arc<Object>>, Option<Arc<Object>>);

impl Coalesced {
    fn add(&mut self, ch: &Change) {
        let k = (ch.kind, ch.key.clone());
        match self.by.get_mut(&k) {
            Some(e) => e.1 = ch.new.clone(),
            None => {
                self.order.push(k.clone());
                self.by.insert(k, (ch.old.clone(), ch.new.clone()));
            }
        }
    }

    fn changes(self) -> Vec<Change> {
        let Coalesced { order, mut by } = self;
        order
            .into_iter()
            .filter_map(|k| {
                let (old, new) = by.remove(&k)?;
                let type_ = match (&old, &new) {
                    (None, None) => return None,
                    (None, Some(_)) => crate::apiserver::WatchType::Added,
                    (Some(_), Some(_)) => crate::apiserver::WatchType::Modified,
                    (Some(_), None) => crate::apiserver::WatchType::Deleted,
                };
                Some(Change {
                    type_,
                    kind: k.0,
                    key: k.1,
                    old,
                    new,
                })
            })
            .collect()
    }
}

use std::sync::Arc;
