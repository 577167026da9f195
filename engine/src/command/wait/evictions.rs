//! `kubectl drain`'s evictions (`evictPods` in pkg/drain): one eviction through the
//! Eviction API, the retry of those a disruption budget refused, and the wait for the
//! evicted Pods to go.

use super::{line, Pending, Progress};
use crate::api::Pod;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::command::client::Client;
use crate::command::drain::{drain_failed, pending_pods, DrainOptions};
use crate::kubelet::format_go_duration;
use crate::time::SimTime;
use std::collections::VecDeque;

/// kubectl drain retries a refused eviction after this long.
pub const EVICTION_RETRY: SimTime = 5_000;

/// How one eviction through the Eviction API went (`evictPods`' loop in pkg/drain).
#[derive(Clone, Debug, PartialEq)]
pub enum Eviction {
    /// Accepted: wait for the Pod to go.
    Accepted,
    /// 429 (a disruption budget): kubectl's retry line was printed; try again in 5 s.
    Retry,
    /// The Pod is gone already (404): nothing to wait for, nothing printed.
    Gone,
    /// Any other refusal: this Pod's error, reported when the drain ends.
    Failed(String),
}

/// One eviction through the Eviction API, as kubectl drain makes it.
pub fn evict(c: &mut Cluster, k: &Client, key: &ObjKey, out: &mut String) -> Eviction {
    match k.evict(c, key) {
        Ok(_) => Eviction::Accepted,
        Err(e) if e.code == 429 => {
            line(
                out,
                &format!(
                    "error when evicting pods/\"{}\" -n \"{}\" (will retry after 5s): {}",
                    key.name, key.namespace, e.message
                ),
            );
            Eviction::Retry
        }
        Err(e) if e.code == 404 => Eviction::Gone,
        Err(e) => Eviction::Failed(format!(
            "error when evicting pods/\"{}\" -n \"{}\": {}",
            key.name, key.namespace, e.message
        )),
    }
}

/// `kubectl drain`: when the retry is due, evict again the Pods a budget refused —
/// each attempt announced with `evicting pod NS/NAME`, as evictPods' loop prints it
/// before every try; those accepted join `pending`. Past the global timeout the loop
/// still announces the Pod, then gives up on it with kubectl's timeout error.
#[allow(clippy::too_many_arguments)]
pub(super) fn retry_evictions(
    c: &mut Cluster,
    k: &Client,
    to_evict: &mut Vec<(ObjKey, String)>,
    next_try: &mut SimTime,
    pending: &mut VecDeque<(ObjKey, String)>,
    (timed_out, timeout): (bool, SimTime),
    errors: &mut Vec<String>,
    out: &mut String,
) {
    if to_evict.is_empty() || !(timed_out || c.now() >= *next_try) {
        return;
    }
    let mut still = Vec::new();
    for (key, uid) in std::mem::take(to_evict) {
        line(out, &format!("evicting pod {}/{}", key.namespace, key.name));
        if timed_out {
            errors.push(format!(
                "error when evicting pods/\"{}\" -n \"{}\": global timeout reached: {}",
                key.name,
                key.namespace,
                format_go_duration(timeout)
            ));
            continue;
        }
        match evict(c, k, &key, out) {
            Eviction::Accepted => pending.push_back((key, uid)),
            Eviction::Retry => still.push((key, uid)),
            Eviction::Gone => {}
            Eviction::Failed(e) => errors.push(e),
        }
    }
    *to_evict = still;
    *next_try = c.now() + EVICTION_RETRY;
}

/// `kubectl drain`: `evicted` for each evicted Pod once it is gone, in order, then
/// `drained` when no Pod is left to evict or to wait for; past the global timeout each
/// Pod still there is an error, and the drain ends as `RunDrain` ends a failed one.
#[allow(clippy::too_many_arguments)]
pub(super) fn poll_drain(
    c: &mut Cluster,
    k: &Client,
    node: &str,
    (to_evict, pending): (&[Pending], &mut VecDeque<Pending>),
    (timeout, timed_out): (SimTime, bool),
    opts: &DrainOptions,
    errors: &mut Vec<String>,
    out: &mut String,
) -> Progress {
    let gone = |c: &Cluster, key: &ObjKey, uid: &str| {
        c.store
            .get::<Pod>(key)
            .is_none_or(|p| p.metadata.uid != uid)
    };
    while let Some((key, uid)) = pending.front() {
        if gone(c, key, uid) {
            line(out, &format!("pod/{} evicted", key.name));
            pending.pop_front();
        } else {
            break;
        }
    }
    if timed_out {
        for (key, uid) in pending.drain(..) {
            if gone(c, &key, &uid) {
                line(out, &format!("pod/{} evicted", key.name));
            } else {
                errors.push(format!(
                    "error when waiting for pod \"{}\" in namespace \"{}\" to terminate: global timeout reached: {}",
                    key.name,
                    key.namespace,
                    format_go_duration(timeout)
                ));
            }
        }
    }
    if !(to_evict.is_empty() && pending.is_empty()) {
        return Progress::Waiting;
    }
    if errors.is_empty() {
        line(out, &format!("node/{node} drained"));
        return Progress::Done;
    }
    out.push_str(&pending_pods(c, k, node, opts, errors));
    out.push_str(&drain_failed(node, errors));
    Progress::Failed
}
