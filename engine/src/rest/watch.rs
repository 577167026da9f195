//! Watches over HTTP: a watch is authorized by the door, then streamed from the writes
//! the server keeps ([`ApiServer::collect`]) — a watch from "0" first sends the objects
//! as they are, as ADDED events.
//!
//! Nothing is built ahead of what the client reads: the objects a watch starts with are
//! held as the store's shared objects and written out a bounded chunk at a time
//! ([`ApiServer::watch_events`]), and later events are found in the kept window by
//! resource version (it is ordered), not by a scan from its start. A watcher that falls
//! behind the window gets `410 Gone` and ends, as one behind an etcd compaction does.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/watch.go`,
//! `staging/src/k8s.io/apiserver/pkg/storage/cacher/cache_watcher.go`.

use super::table::{table, table_wanted, TableWanted};
use super::*;
use crate::api::Object;
use crate::apiserver::selectors::{fields_match, parse_field_selector};
use crate::apiserver::WatchType;
use crate::time::SimTime;
use std::sync::Arc;

/// An open watch: what it watches and how far it has read.
#[derive(Clone, Debug)]
pub struct WatchStream {
    kind: Kind,
    /// Watched through events.k8s.io/v1: its Events are converted.
    events_v1: bool,
    /// Watched through autoscaling/v1: its HorizontalPodAutoscalers are converted.
    autoscaling_v1: bool,
    namespace: Option<String>,
    labels: Option<crate::api::LabelSelector>,
    fields: Vec<crate::apiserver::selectors::FieldReq>,
    table: Option<TableWanted>,
    /// The last resource version sent; `u64::MAX` once the watch has ended.
    cursor: u64,
    /// The objects a watch from "0" starts with, not yet sent, and the resource
    /// version they were listed at.
    initial: VecDeque<Arc<Object>>,
    listed_at: u64,
    /// An event to send before anything else, which ends the watch (the 410 of a
    /// watch from before the kept window).
    ending: Option<Vec<u8>>,
    /// `sendInitialEvents=true`: after the objects it starts with, a BOOKMARK at the
    /// version they were listed at, annotated `k8s.io/initial-events-end`.
    initial_end: bool,
    /// `timeoutSeconds`: when the server ends the watch.
    pub timeout_seconds: Option<u64>,
    /// `allowWatchBookmarks=true`: the server may send BOOKMARKs
    /// ([`ApiServer::watch_bookmark`]).
    pub bookmarks: bool,
    /// The response's `Content-Type`.
    pub content_type: String,
}

impl WatchStream {
    fn matches(&self, o: &Object) -> bool {
        self.namespace
            .as_deref()
            .is_none_or(|ns| o.meta().namespace == ns)
            && self
                .labels
                .as_ref()
                .is_none_or(|s| s.matches(&o.meta().labels))
            && fields_match(o, &self.fields)
    }

    /// Whether the watch has ended (its events are all sent and no more will come).
    pub fn ended(&self) -> bool {
        self.cursor == u64::MAX && self.ending.is_none()
    }
}

/// The BOOKMARK that ends a watch's initial events: an empty object of the kind
/// with the version they were listed at and the `k8s.io/initial-events-end`
/// annotation (`cacheWatcher.convertToWatchEvent`'s bookmark).
fn bookmark(w: &WatchStream, rv: u64) -> Vec<u8> {
    bookmark_line(w, rv, true)
}

/// A BOOKMARK at `rv`: an empty object of the watched kind with that version (and the
/// initial-events-end annotation when it ends them).
fn bookmark_line(w: &WatchStream, rv: u64, initial_events_end: bool) -> Vec<u8> {
    let mut object = json!({
        "kind": w.kind.name(),
        "apiVersion": if w.events_v1 {
            crate::apiserver::events_v1::API_VERSION
        } else if w.autoscaling_v1 {
            crate::apiserver::autoscaling_v1::API_VERSION
        } else {
            w.kind.api_version()
        },
        "metadata": {
            "resourceVersion": rv.to_string(),
            "creationTimestamp": null,
            "annotations": {"k8s.io/initial-events-end": "true"},
        },
    });
    if !initial_events_end {
        object["metadata"]
            .as_object_mut()
            .map(|m| m.remove("annotations"));
    }
    let mut line = go_json_text(&json!({"type": "BOOKMARK", "object": object}));
    line.push('\n');
    line.into_bytes()
}

/// The ERROR event of a watch that starts, or has fallen, before the kept window.
fn expired(rv: u64, oldest: u64) -> Vec<u8> {
    let e = ApiError {
        code: 410,
        reason: "Expired",
        message: format!("too old resource version: {rv} ({oldest})"),
        kubectl_message: None,
        details: None,
    };
    let mut line = go_json_text(&json!({"type": "ERROR", "object": status_of(&e, None, "")}));
    line.push('\n');
    line.into_bytes()
}

impl ApiServer {
    pub(super) fn watch(&mut self, req: &HttpRequest, t: &Target) -> Reply {
        let mut r = match self.resource_request(req, t, Verb::Watch) {
            Ok(r) => r,
            Err(resp) => return Reply::Response(resp),
        };
        if let Err(resp) = self.selectors(req, t, &mut r) {
            return Reply::Response(resp);
        }
        if let Err(resp) = self.list_options(req, true) {
            return Reply::Response(resp);
        }
        if let Some(name) = &t.name {
            // A watch on one name (old clients): the same as a metadata.name selector.
            if let Ok(mut f) = parse_field_selector(t.kind, &format!("metadata.name={name}")) {
                r.fields.append(&mut f);
            }
            r.name.clear();
        }
        let (labels, fields) = (r.labels.clone(), r.fields.clone());
        // `sendInitialEvents=true`: the objects as they are first (at a version not
        // older than the one asked for), then the bookmark that ends them.
        let initial_events = req.flag("sendInitialEvents");
        let from: Option<u64> = req
            .param("resourceVersion")
            .filter(|s| !s.is_empty() && !initial_events)
            .and_then(|s| s.parse().ok());
        r.resource_version = from;
        // The watch is a request of its own: authorized (and, from "0", its first
        // events are the current objects the door lists).
        let resp = match self.cluster.call(r) {
            Ok(resp) => resp,
            Err(e) => return Reply::Response(HttpResponse::error(&e, Some(t.kind), "")),
        };
        let revision = self.revision();
        let mut w = WatchStream {
            kind: t.kind,
            events_v1: t.events_v1,
            autoscaling_v1: t.autoscaling_v1,
            namespace: t.namespace.clone(),
            labels,
            fields,
            table: table_wanted(req),
            cursor: revision,
            initial: VecDeque::new(),
            listed_at: revision,
            ending: None,
            initial_end: initial_events,
            timeout_seconds: req.param("timeoutSeconds").and_then(|s| s.parse().ok()),
            bookmarks: req.flag("allowWatchBookmarks"),
            content_type: "application/json".into(),
        };
        match from {
            // Start from now: every matching object as ADDED, written as it is read.
            None | Some(0) => w.initial = resp.items.into(),
            Some(rv) if rv < self.compacted => {
                w.ending = Some(expired(rv, self.compacted + 1));
                w.cursor = u64::MAX;
            }
            Some(rv) => w.cursor = rv,
        }
        Reply::Watch(w)
    }

    /// One event's line. A Table's resource version is the event's, or for the objects
    /// a watch starts with, the one they were listed at.
    fn event_line(
        &self,
        w: &WatchStream,
        type_: &str,
        obj: &Object,
        rv: Option<(u64, SimTime)>,
    ) -> Vec<u8> {
        let mut o = match w.table {
            // A write's row as of the write: the API server renders it as it sends it.
            Some(tw) => table(
                w.kind,
                &[obj],
                tw,
                rv.map_or(w.listed_at, |(v, _)| v),
                rv.map_or(self.cluster.now(), |(_, at)| at),
            ),
            None => {
                self.events_v1.set(w.events_v1);
                self.autoscaling_v1.set(w.autoscaling_v1);
                let o = self.object_json(obj);
                self.events_v1.set(false);
                self.autoscaling_v1.set(false);
                o
            }
        };
        if let (Some((rv, _)), None) = (rv, w.table) {
            o["metadata"]["resourceVersion"] = json!(rv.to_string());
        }
        let mut line = go_json_text(&json!({"type": type_, "object": o}));
        line.push('\n');
        line.into_bytes()
    }

    /// A periodic BOOKMARK for a watch that asked for them (`allowWatchBookmarks`), at
    /// the version it has read up to, so that its client can resume from there; the
    /// HTTP layer asks once a minute and two seconds before the watch's timeout, as
    /// the watch cache's `nextBookmarkTime` schedules them. Empty for a watch that did
    /// not ask, has ended, or still has events to send first.
    pub fn watch_bookmark(&self, w: &WatchStream) -> Vec<u8> {
        let caught_up = w.initial.is_empty()
            && !w.initial_end
            && w.ending.is_none()
            && w.cursor != u64::MAX
            && w.cursor >= self.revision();
        if !w.bookmarks || !caught_up {
            return Vec::new();
        }
        bookmark_line(w, w.cursor, false)
    }

    /// etcd restored from a snapshot with everything before marked compacted: a watch
    /// from before must list again (`410 Gone`), as after an API server restarted on
    /// the restored etcd; the writes kept from before are dropped.
    pub(super) fn forget_before_restore(&mut self) {
        let restored = self.cluster.store.etcd_restored_at();
        if restored > self.compacted {
            self.compacted = restored;
            while self
                .kept
                .front()
                .is_some_and(|w| w.resource_version <= restored)
            {
                self.kept.pop_front();
            }
        }
    }

    /// The watch's next events as lines to send, about `limit` bytes at most (always
    /// at least one event when there is one): first the objects it starts with, then
    /// the kept writes after its cursor that it watches; the cursor moves past them.
    /// Empty when there is nothing new. A watch that ends (its 410 sent, or fallen
    /// behind the kept window) says so by [`WatchStream::ended`].
    pub fn watch_events(&self, w: &mut WatchStream, limit: usize) -> Vec<u8> {
        if let Some(end) = w.ending.take() {
            return end;
        }
        let mut out = Vec::new();
        if w.cursor == u64::MAX {
            return out;
        }
        while let Some(o) = w.initial.pop_front() {
            out.extend(self.event_line(w, "ADDED", &o, None));
            if out.len() >= limit {
                return out;
            }
        }
        if std::mem::take(&mut w.initial_end) {
            out.extend(bookmark(w, w.listed_at));
        }
        if w.cursor < self.compacted {
            // Writes it has not seen are gone from the window: it must list again.
            out.extend(expired(w.cursor, self.compacted + 1));
            w.cursor = u64::MAX;
            return out;
        }
        let start = self
            .kept
            .partition_point(|e| e.resource_version <= w.cursor);
        for e in self.kept.range(start..) {
            w.cursor = e.resource_version;
            if e.object.kind() != w.kind {
                continue;
            }
            // A write that moves an object into or out of the filter is ADDED or
            // DELETED to this watch.
            let Some((type_, obj)) = e.seen_through(|o| w.matches(o)) else {
                continue;
            };
            let type_ = match type_ {
                WatchType::Added => "ADDED",
                WatchType::Modified => "MODIFIED",
                WatchType::Deleted => "DELETED",
            };
            out.extend(self.event_line(w, type_, obj, Some((e.resource_version, e.at))));
            if out.len() >= limit {
                return out;
            }
        }
        w.cursor = w.cursor.max(self.revision());
        out
    }
}
