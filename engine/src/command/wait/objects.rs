//! Waiting on objects: `kubectl delete` until they are gone, `kubectl wait`'s
//! conditions and `--for=create`, and `kubectl rollout status` write by write.

use super::{line, Progress};
use crate::api::*;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::printers::{qualified_name, rollout_message};
use std::collections::VecDeque;

/// `kubectl delete`: done when no object is left with its uid.
pub(super) fn poll_gone(
    c: &Cluster,
    items: &[(Kind, ObjKey, String)],
    timed_out: bool,
    out: &mut String,
) -> Progress {
    let present: Vec<String> = items
        .iter()
        .filter(|(k, key, uid)| {
            c.store
                .get_object(*k, key)
                .is_some_and(|o| o.meta().uid == *uid)
        })
        .map(|(k, key, _)| format!("{}/{}", k.resource(), key.name))
        .collect();
    if present.is_empty() {
        Progress::Done
    } else if timed_out {
        line(
            out,
            &format!(
                "error: timed out waiting for the condition on {}",
                present.join(", ")
            ),
        );
        Progress::Failed
    } else {
        Progress::Waiting
    }
}

/// `kubectl wait`: `condition met` for each object in turn, as kubectl waits for one
/// after another.
pub(super) fn poll_conditions(
    c: &Cluster,
    items: &mut VecDeque<(Kind, ObjKey)>,
    cond: &str,
    timed_out: bool,
    out: &mut String,
) -> Progress {
    while let Some((k, key)) = items.front() {
        if condition_met(c, *k, key, cond) {
            line(
                out,
                &format!("{} condition met", qualified_name(*k, &key.name)),
            );
            items.pop_front();
        } else {
            break;
        }
    }
    match items.front() {
        None => Progress::Done,
        Some((k, key)) if timed_out => {
            line(
                out,
                &format!(
                    "error: timed out waiting for the condition on {}/{}",
                    k.resource(),
                    key.name
                ),
            );
            Progress::Failed
        }
        Some(_) => Progress::Waiting,
    }
}

/// `kubectl wait --for=create` (wait.go's RunWait): poll until the resource finder
/// visits something — every named object, or at least one the selector matches; a
/// selector that matches nothing waits for the timeout (v1.33, `foundResource`) —
/// then `IsCreated` prints `condition met` for each object visited.
pub(super) fn poll_created(
    c: &Cluster,
    kind: Kind,
    ns: &str,
    names: &[ObjKey],
    selector: Option<&LabelSelector>,
    timed_out: bool,
    out: &mut String,
) -> Progress {
    let found: Vec<String> = if names.is_empty() {
        c.store
            .list_objects(kind)
            .filter(|o| !kind.namespaced() || o.meta().namespace == ns)
            .filter(|o| selector.is_none_or(|s| s.matches(&o.meta().labels)))
            .map(|o| o.meta().name.clone())
            .collect()
    } else if names.iter().all(|k| c.store.get_object(kind, k).is_some()) {
        names.iter().map(|k| k.name.clone()).collect()
    } else {
        Vec::new()
    };
    if !found.is_empty() {
        for name in found {
            line(
                out,
                &format!("{} condition met", qualified_name(kind, &name)),
            );
        }
        Progress::Done
    } else if timed_out {
        line(out, "error: timed out waiting for the condition");
        Progress::Failed
    } else {
        Progress::Waiting
    }
}

/// `kubectl rollout status`: the status viewer's message at each write of the object
/// (a watch event each), until the rollout finishes (or fails, or the Deployment is
/// gone).
pub(super) fn poll_rollout(
    c: &Cluster,
    (kind, ns, name): (Kind, &str, &str),
    last: &mut Option<String>,
    followed: &[std::sync::Arc<Object>],
    timed_out: bool,
    out: &mut String,
) -> Progress {
    let key = ObjKey::new(ns, name);
    let message = |o: &Object| match o {
        Object::DaemonSet(d) => crate::printers::daemonset_rollout_message(d),
        Object::StatefulSet(s) => crate::printers::statefulset_rollout_message(s),
        Object::Deployment(d) => rollout_message(d),
        _ => Err(String::new()),
    };
    // The states to print: the current one at the start (kubectl's list), then each
    // one written since (its watch events).
    let states: Vec<Object> = if last.is_none() {
        c.store
            .get_object(kind, &key)
            .cloned()
            .into_iter()
            .collect()
    } else {
        followed.iter().map(|o| (**o).clone()).collect()
    };
    if last.is_none() && states.is_empty() {
        line(
            out,
            &crate::apiserver::ApiError::not_found(kind, name).kubectl_text(),
        );
        return Progress::Failed;
    }
    for o in &states {
        *last = Some(o.meta().resource_version.clone());
        match message(o) {
            Err(e) => {
                line(out, &e);
                return Progress::Failed;
            }
            Ok((msg, finished)) => {
                line(out, &msg);
                if finished {
                    return Progress::Done;
                }
            }
        }
    }
    if c.store.get_object(kind, &key).is_none() {
        line(
            out,
            &crate::apiserver::ApiError::not_found(kind, name).kubectl_text(),
        );
        return Progress::Failed;
    }
    if timed_out {
        line(out, "error: timed out waiting for the condition");
        Progress::Failed
    } else {
        Progress::Waiting
    }
}

/// `kubectl wait --for=…` conditions: `delete`, `condition=Type[=Status]`,
/// `jsonpath={…}[=value]`.
pub fn condition_met(c: &Cluster, k: Kind, key: &ObjKey, cond: &str) -> bool {
    let obj = c.store.get_object(k, key);
    if cond == "delete" {
        return obj.is_none();
    }
    let Some(obj) = obj else { return false };
    let v = obj.to_json();
    if let Some(rest) = cond.strip_prefix("condition=") {
        let (ctype, want) = rest
            .split_once('=')
            .unwrap_or((rest, ConditionStatus::True.as_str()));
        let conds = v
            .pointer("/status/conditions")
            .and_then(|c| c.as_array())
            .cloned()
            .unwrap_or_default();
        return conds.iter().any(|x| {
            x.get("type")
                .and_then(|t| t.as_str())
                .is_some_and(|t| t.eq_ignore_ascii_case(ctype))
                && x.get("status")
                    .and_then(|s| s.as_str())
                    .is_some_and(|s| s.eq_ignore_ascii_case(want))
        });
    }
    if let Some(rest) = cond.strip_prefix("jsonpath=") {
        let (expr, want) = match rest.rsplit_once('=') {
            Some((e, w)) if e.ends_with('}') => (e, Some(w)),
            _ => (rest, None),
        };
        let found = crate::printers::jsonpath::select(expr, &v).unwrap_or_default();
        return match want {
            Some(w) => found
                .first()
                .is_some_and(|x| crate::printers::jsonpath::format_value(x) == w),
            None => !found.is_empty(),
        };
    }
    false
}
