//! Commands that block in kubectl (`delete`, `rollout status`, `drain`, `wait`) as
//! resumable values: the CLI and scripts drive them by stepping the clock, the page
//! polls them after every tick, so they finish *as the clock plays*.

use crate::api::*;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::command::client::Client;
use crate::command::drain::{drain_failed, pending_pods, DrainOptions};
use crate::kubelet::format_go_duration;
use crate::printers::{qualified_name, rollout_message};
use crate::time::SimTime;
use crate::time::{clock_label, human_duration};
use std::collections::VecDeque;

/// A Pod a drain evicts, with its uid.
type Pending = (ObjKey, String);

/// kubectl drain retries a refused eviction after this long.
pub const EVICTION_RETRY: SimTime = 5_000;

#[derive(Clone, Debug, PartialEq)]
enum Step {
    /// `kubectl delete`: every object (with its uid) gone.
    Gone { items: Vec<(Kind, ObjKey, String)> },
    /// `kubectl drain`: Pods a budget refused are evicted again every 5 s; evicted
    /// Pods gone, one after another, then `drained`.
    Drain {
        /// kubectl's client: the evictions it retries are its requests.
        client: Box<Client>,
        node: String,
        to_evict: Vec<(ObjKey, String)>,
        next_try: SimTime,
        pending: VecDeque<(ObjKey, String)>,
        timeout: SimTime,
        /// The filters' flags, to list the Pods still pending when it fails.
        opts: DrainOptions,
        /// Errors of single Pods (evictions refused or timed out), reported at the end.
        errors: Vec<String>,
    },
    /// `kubectl wait`: a condition on each object, in order.
    Conditions {
        items: VecDeque<(Kind, ObjKey)>,
        cond: String,
    },
    /// `kubectl wait --for=create`: the named objects (or, with none named, any object of
    /// `kind` in `ns` that `selector` matches) present, then `condition met` for each.
    Created {
        kind: Kind,
        ns: String,
        names: Vec<ObjKey>,
        selector: Option<LabelSelector>,
    },
    /// `sim advance` (no `max`) or `sim settle` (its `--max`): the clock itself, from
    /// `from` to the deadline (settle: or to the first quiescent moment). `done` is set
    /// when it got there: settled or not, and the time; the next poll prints that.
    Clock {
        from: SimTime,
        max: Option<SimTime>,
        done: Option<(bool, SimTime)>,
    },
    /// `kubectl rollout status`: the status viewer's message for each write of the
    /// object; `last` is the resourceVersion last printed for.
    Rollout {
        kind: Kind,
        ns: String,
        name: String,
        last: Option<String>,
    },
}

/// A command that is waiting for the cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct Blocking {
    /// When it gives up (simulated ms).
    pub deadline: SimTime,
    /// Output produced since the last poll (the caller takes it).
    pub output: String,
    /// Whether it ended in an error.
    pub failed: bool,
    step: Step,
}

fn line(out: &mut String, s: &str) {
    out.push_str(s);
    out.push('\n');
}

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

impl Blocking {
    fn new(deadline: SimTime, step: Step) -> Self {
        Blocking {
            deadline,
            output: String::new(),
            failed: false,
            step,
        }
    }

    /// Wait for objects to be deleted.
    pub fn gone(deadline: SimTime, items: Vec<(Kind, ObjKey, String)>) -> Self {
        Self::new(deadline, Step::Gone { items })
    }

    /// Retry refused evictions, wait for evicted Pods, then report the node drained
    /// (or, past `timeout`, kubectl's global-timeout errors and the pending Pods).
    #[allow(clippy::too_many_arguments)]
    pub fn drain(
        client: Client,
        deadline: SimTime,
        node: String,
        to_evict: Vec<(ObjKey, String)>,
        next_try: SimTime,
        pending: Vec<(ObjKey, String)>,
        timeout: SimTime,
        opts: DrainOptions,
        errors: Vec<String>,
    ) -> Self {
        Self::new(
            deadline,
            Step::Drain {
                client: Box::new(client),
                node,
                to_evict,
                next_try,
                pending: pending.into(),
                timeout,
                opts,
                errors,
            },
        )
    }

    /// Wait for a condition on each object.
    pub fn conditions(deadline: SimTime, items: Vec<(Kind, ObjKey)>, cond: String) -> Self {
        Self::new(
            deadline,
            Step::Conditions {
                items: items.into(),
                cond,
            },
        )
    }

    /// Wait for objects to exist: the `names` given, or (none given) any object of
    /// `kind` in `ns` that `selector` matches (`--all` when it is `None`).
    pub fn created(
        deadline: SimTime,
        kind: Kind,
        ns: String,
        names: Vec<ObjKey>,
        selector: Option<LabelSelector>,
    ) -> Self {
        Self::new(
            deadline,
            Step::Created {
                kind,
                ns,
                names,
                selector,
            },
        )
    }

    /// Follow a rollout.
    pub fn rollout(deadline: SimTime, kind: Kind, ns: String, name: String) -> Self {
        Self::new(
            deadline,
            Step::Rollout {
                kind,
                ns,
                name,
                last: None,
            },
        )
    }

    /// `sim advance MS` from `now`.
    pub fn advance(now: SimTime, ms: SimTime) -> Self {
        Self::new(
            now.saturating_add(ms),
            Step::Clock {
                from: now,
                max: None,
                done: None,
            },
        )
    }

    /// `sim settle --max MAX` from `now`.
    pub fn settle(now: SimTime, max: SimTime) -> Self {
        Self::new(
            now.saturating_add(max),
            Step::Clock {
                from: now,
                max: Some(max),
                done: None,
            },
        )
    }

    /// For `sim advance` and `sim settle` not yet there: the latest time the clock
    /// runs to. While it is `Some`, the page runs the clock with
    /// [`Blocking::run_clock`] (as fast as it can, paused or not) instead of at the
    /// chosen speed.
    pub fn clock_goal(&self) -> Option<SimTime> {
        match &self.step {
            Step::Clock { done: None, .. } => Some(self.deadline),
            _ => None,
        }
    }

    /// Run the clock of `sim advance`/`sim settle` toward its goal, no further than
    /// `limit`, within the page's wall-time budget; false when `out_of_time()` stopped
    /// it (it goes on from there). Where the budget cuts the run does not change what
    /// happens ([`Cluster::run_until_within`], [`Cluster::settle_within`]).
    pub fn run_clock(
        &mut self,
        c: &mut Cluster,
        limit: SimTime,
        out_of_time: &mut dyn FnMut() -> bool,
    ) -> bool {
        let deadline = self.deadline;
        let Step::Clock { max, done, .. } = &mut self.step else {
            return true;
        };
        if done.is_some() {
            return true;
        }
        match max {
            None => {
                if !c.run_until_within(deadline.min(limit), out_of_time) {
                    return false;
                }
                if c.now() >= deadline {
                    *done = Some((true, deadline));
                }
                true
            }
            Some(_) => match c.settle_within(deadline, limit, out_of_time) {
                crate::cluster::SettleSlice::Done(settled) => {
                    *done = Some((settled, c.now()));
                    true
                }
                crate::cluster::SettleSlice::Limit => true,
                crate::cluster::SettleSlice::OutOfTime => false,
            },
        }
    }

    /// Before anything acts, between instants: has `sim advance`/`sim settle` got
    /// there? The same judgement [`Blocking::run_clock`] makes at every instant it
    /// passes, so a run stopped by the budget and then acted on is judged where an
    /// uncut run would have been. True when it got there just now.
    pub fn note_clock(&mut self, c: &Cluster) -> bool {
        let deadline = self.deadline;
        if let Step::Clock {
            max,
            done: done @ None,
            ..
        } = &mut self.step
        {
            if c.is_mid_instant() {
                return false;
            }
            if max.is_some() && c.is_quiescent() {
                *done = Some((true, c.now()));
            } else if c.now() >= deadline {
                *done = Some((max.is_none() || c.is_quiescent(), deadline.min(c.now())));
            }
            return done.is_some();
        }
        false
    }

    /// When the command wants to look again even if nothing happens in the cluster
    /// (drain's 5-second eviction retries).
    pub fn wake_at(&self) -> Option<SimTime> {
        match &self.step {
            Step::Drain {
                to_evict, next_try, ..
            } if !to_evict.is_empty() => Some(*next_try),
            _ => None,
        }
    }

    /// Look at the cluster now (retrying refused evictions when due); append new
    /// output. True when the command has finished.
    pub fn poll(&mut self, c: &mut Cluster) -> bool {
        if let Step::Clock { .. } = self.step {
            return self.poll_clock(c);
        }
        let timed_out = c.now() >= self.deadline;
        let mut out = std::mem::take(&mut self.output);
        if let Step::Drain {
            client,
            to_evict,
            next_try,
            pending,
            timeout,
            errors,
            ..
        } = &mut self.step
        {
            retry_evictions(
                c,
                client,
                to_evict,
                next_try,
                pending,
                (timed_out, *timeout),
                errors,
                &mut out,
            );
        }
        // A rollout is followed write by write, as kubectl's watch sees it.
        let followed = match &mut self.step {
            Step::Rollout {
                kind,
                ns,
                name,
                last,
            } => {
                if last.is_none() {
                    c.store.follow(Some((*kind, ObjKey::new(ns, name))));
                }
                c.store.take_followed()
            }
            _ => Vec::new(),
        };
        let progress = match &mut self.step {
            Step::Drain {
                client,
                node,
                to_evict,
                pending,
                timeout,
                opts,
                errors,
                ..
            } => poll_drain(
                c,
                client,
                node,
                (to_evict, pending),
                (*timeout, timed_out),
                opts,
                errors,
                &mut out,
            ),
            _ => Progress::Waiting,
        };
        let cr: &Cluster = c;
        let progress = match &mut self.step {
            Step::Drain { .. } => progress,
            Step::Gone { items } => poll_gone(cr, items, timed_out, &mut out),
            Step::Conditions { items, cond } => {
                poll_conditions(cr, items, cond, timed_out, &mut out)
            }
            Step::Created {
                kind,
                ns,
                names,
                selector,
            } => poll_created(cr, *kind, ns, names, selector.as_ref(), timed_out, &mut out),
            Step::Rollout {
                kind,
                ns,
                name,
                last,
            } => poll_rollout(cr, (*kind, ns, name), last, &followed, timed_out, &mut out),
            Step::Clock { .. } => Progress::Waiting,
        };
        if progress != Progress::Waiting && matches!(self.step, Step::Rollout { .. }) {
            c.store.follow(None);
        }
        if progress == Progress::Failed {
            self.failed = true;
        }
        self.output = out;
        progress != Progress::Waiting
    }

    /// `sim advance`/`sim settle`: once there, print what the CLI prints.
    fn poll_clock(&mut self, c: &Cluster) -> bool {
        self.note_clock(c);
        let Step::Clock {
            from,
            max,
            done: Some((settled, at)),
        } = self.step
        else {
            return false;
        };
        let r = match max {
            None => Ok(advanced_message(from, at)),
            Some(max) => settle_message(c, (from, at), max, settled),
        };
        match r {
            Ok(s) => line(&mut self.output, &s),
            Err(e) => {
                line(&mut self.output, &e);
                self.failed = true;
            }
        }
        true
    }

    /// Drive to the end by stepping the clock (the CLI and scripts).
    pub fn drive(&mut self, c: &mut Cluster) {
        if let Step::Clock {
            max, ref mut done, ..
        } = self.step
        {
            // In one piece, judged between any two timers, as the CLI always has.
            let settled = match max {
                None => {
                    c.run_until(self.deadline);
                    true
                }
                Some(max) => c.settle(max),
            };
            *done = Some((settled, c.now()));
            self.poll_clock(c);
            return;
        }
        loop {
            if self.poll(c) {
                return;
            }
            let next = c.next_event_time();
            let target = match (next, self.wake_at()) {
                (Some(a), Some(b)) => Some(a.min(b)),
                (a, b) => a.or(b),
            };
            match target {
                Some(t) if t <= self.deadline => {
                    if next == Some(t) {
                        c.step();
                    } else {
                        c.run_until(t);
                    }
                }
                _ => c.run_until(self.deadline),
            }
        }
    }

    /// Stop waiting (Ctrl+C in the console). `sim advance` and `sim settle` say where
    /// the clock stopped.
    pub fn interrupt(&mut self, c: &Cluster) {
        self.output.push_str("^C\n");
        if let Step::Clock { from, .. } = self.step {
            line(
                &mut self.output,
                &format!(
                    "stopped at {} (started at {})",
                    crate::time::clock_label(c.now()),
                    crate::time::clock_label(from)
                ),
            );
        }
        self.failed = true;
    }
}

/// What one look at the cluster found.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Progress {
    /// Not yet: look again later.
    Waiting,
    /// Finished.
    Done,
    /// Finished with an error (kubectl exits non-zero).
    Failed,
}

/// `kubectl drain`: when the retry is due, evict again the Pods a budget refused —
/// each attempt announced with `evicting pod NS/NAME`, as evictPods' loop prints it
/// before every try; those accepted join `pending`. Past the global timeout the loop
/// still announces the Pod, then gives up on it with kubectl's timeout error.
#[allow(clippy::too_many_arguments)]
fn retry_evictions(
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

/// `kubectl delete`: done when no object is left with its uid.
fn poll_gone(
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

/// `kubectl drain`: `evicted` for each evicted Pod once it is gone, in order, then
/// `drained` when no Pod is left to evict or to wait for; past the global timeout each
/// Pod still there is an error, and the drain ends as `RunDrain` ends a failed one.
#[allow(clippy::too_many_arguments)]
fn poll_drain(
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

/// `kubectl wait`: `condition met` for each object in turn, as kubectl waits for one
/// after another.
fn poll_conditions(
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
fn poll_created(
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
fn poll_rollout(
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

/// What `sim advance` prints when the clock got there.
pub(crate) fn advanced_message(from: SimTime, now: SimTime) -> String {
    format!("time {} → {}", clock_label(from), clock_label(now))
}

/// What `sim settle` prints: settled (and why nothing more can change, if the control
/// plane is down), or not settled within `max`.
pub(crate) fn settle_message(
    c: &Cluster,
    (from, at): (SimTime, SimTime),
    max: SimTime,
    settled: bool,
) -> Result<String, String> {
    if settled {
        Ok(format!(
            "settled at {} (after {}){}",
            clock_label(at),
            human_duration(at - from),
            match c.unavailable() {
                Some(crate::cluster::Unavailable::ApiServerDown) =>
                    ": the API server is down, so nothing more can change until it is back (sim apiserver up)",
                Some(crate::cluster::Unavailable::EtcdNoQuorum) =>
                    ": etcd has no quorum, so nothing more can change until it has one (sim etcd up)",
                None => "",
            }
        ))
    } else {
        Err(format!(
            "error: not settled after {}: work is still pending at {}",
            human_duration(max),
            clock_label(at)
        ))
    }
}
