//! A list's options beyond its selectors: `resourceVersion` with
//! `resourceVersionMatch`, `limit` and `continue`, validated and served as the API
//! server serves them.
//!
//! - `ValidateListOptions`: `resourceVersionMatch` needs a `resourceVersion`, is not
//!   with `continue`, is `Exact` or `NotOlderThan`, and `Exact` is not for `"0"` (422,
//!   `ListOptions.meta.k8s.io "" is invalid`); on a watch it comes only with
//!   `sendInitialEvents` (then `NotOlderThan`, and with `allowWatchBookmarks`).
//! - A version newer than the store's is `504 Too large resource version` (upstream
//!   first waits up to 3 s for it to arrive; here nothing arrives while a request waits).
//! - `Exact` at an older version lists the objects as they were then, from the writes
//!   the server keeps; one older than those is `410 The resourceVersion for the provided
//!   list is too old.`
//!
//! Upstream: `staging/src/k8s.io/apimachinery/pkg/apis/meta/internalversion/validation/
//! validation.go` (`ValidateListOptions`), `staging/src/k8s.io/apiserver/pkg/storage/
//! errors.go` (`NewTooLargeResourceVersionError`), `storage/etcd3/store.go` (`GetList`).

use super::*;
use crate::api::Object;
use crate::apiserver::selectors::fields_match;
use crate::apiserver::{WatchType, Written};
use std::collections::BTreeMap;
use std::sync::Arc;

/// What a list asks of `resourceVersion`.
pub(super) enum At {
    /// The newest (no version, `0`, or not older than one the store has).
    Newest,
    /// Exactly this older version.
    Exact(u64),
}

impl ApiServer {
    /// Validate a list's or watch's options; the version a list is read at, or the
    /// error's response.
    pub(super) fn list_options(&self, req: &HttpRequest, watch: bool) -> Result<At, HttpResponse> {
        let rv = req.param("resourceVersion").unwrap_or("");
        let rvm = req.param("resourceVersionMatch").unwrap_or("");
        let mut errs = Vec::new();
        let forbidden = |m: &str| format!("resourceVersionMatch: Forbidden: {m}");
        if watch {
            // `validateWatchOptions`, the WatchList feature on.
            let initial = req.param("sendInitialEvents").is_some();
            if initial && rvm != "NotOlderThan" {
                errs.push(forbidden(
                    "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan",
                ));
            }
            if initial && req.flag("sendInitialEvents") && !req.flag("allowWatchBookmarks") {
                errs.push("allowWatchBookmarks: Forbidden: sendInitialEvents requires setting allowWatchBookmarks to true".into());
            }
            if !initial && !rvm.is_empty() {
                errs.push(forbidden(
                    "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided",
                ));
            }
            if !rvm.is_empty() && rvm != "NotOlderThan" {
                errs.push(format!("resourceVersionMatch: Unsupported value: \"{rvm}\": supported values: \"NotOlderThan\""));
            }
        } else if !rvm.is_empty() {
            if rv.is_empty() {
                errs.push(forbidden(
                    "resourceVersionMatch is forbidden unless resourceVersion is provided",
                ));
            }
            if req.param("continue").is_some_and(|c| !c.is_empty()) {
                errs.push(forbidden(
                    "resourceVersionMatch is forbidden when continue is provided",
                ));
            }
            if !matches!(rvm, "Exact" | "NotOlderThan") {
                errs.push(format!("resourceVersionMatch: Unsupported value: \"{rvm}\": supported values: \"Exact\", \"NotOlderThan\", \"\""));
            }
            if rvm == "Exact" && rv == "0" {
                errs.push(forbidden(
                    "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"",
                ));
            }
        }
        if !errs.is_empty() {
            return Err(HttpResponse::error(
                &ApiError::invalid_options("ListOptions", &errs),
                Some(Kind::Pod),
                "",
            ));
        }
        if watch || rv.is_empty() || rv == "0" {
            return Ok(At::Newest);
        }
        let Ok(n) = rv.parse::<u64>() else {
            return Err(HttpResponse::error(
                &ApiError::bad_request(format!("invalid resource version: {rv}")),
                Some(Kind::Pod),
                "",
            ));
        };
        let current = self.revision();
        if n > current {
            return Err(HttpResponse::json(
                504,
                &json!({
                    "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                    "message": format!("Too large resource version: {n}, current: {current}"),
                    "reason": "Timeout",
                    "details": {"causes": [{"reason": "ResourceVersionTooLarge", "message": "Too large resource version"}], "retryAfterSeconds": 1},
                    "code": 504,
                }),
            ));
        }
        Ok(if rvm == "Exact" && n < current {
            At::Exact(n)
        } else {
            At::Newest
        })
    }

    /// The objects of `r`'s list as they were at resourceVersion `n`: the list now, with
    /// each object written since `n` put back as the kept writes show it then. None
    /// when a write it needs is no longer kept.
    pub(super) fn list_at(
        &self,
        r: &ApiRequest,
        now: Vec<Arc<Object>>,
        n: u64,
    ) -> Option<Vec<Arc<Object>>> {
        if n < self.compacted {
            return None;
        }
        let in_scope = |o: &Object| {
            (r.namespace.is_empty() || o.meta().namespace == r.namespace)
                && r.labels
                    .as_ref()
                    .is_none_or(|s| s.matches(&o.meta().labels))
                && (r.fields.is_empty() || fields_match(o, &r.fields))
        };
        // Each key written since `n`: its state then (None: absent).
        let mut then: BTreeMap<(String, String), Option<Arc<Object>>> = BTreeMap::new();
        let writes: Vec<&Written> = self
            .kept
            .iter()
            .filter(|w| w.object.kind() == r.kind)
            .collect();
        for w in writes.iter().filter(|w| w.resource_version > n) {
            let m = w.object.meta();
            let key = (m.namespace.clone(), m.name.clone());
            if then.contains_key(&key) {
                continue;
            }
            // The last kept write of this key at or before `n`, if any.
            let before = writes.iter().rev().find(|x| {
                x.resource_version <= n
                    && x.object.meta().namespace == key.0
                    && x.object.meta().name == key.1
            });
            let state = match before {
                Some(x) if x.type_ == WatchType::Deleted => None,
                Some(x) => Some(x.object.clone()),
                // Created after `n`: absent then.
                None if w.type_ == WatchType::Added => None,
                // Written before the kept writes begin: its state then is gone.
                None => return None,
            };
            then.insert(key, state);
        }
        let mut items: Vec<Arc<Object>> = now
            .into_iter()
            .filter(|o| {
                let m = o.meta();
                !then.contains_key(&(m.namespace.clone(), m.name.clone()))
            })
            .collect();
        items.extend(then.into_values().flatten().filter(|o| in_scope(o)));
        Some(items)
    }
}
