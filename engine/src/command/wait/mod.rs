//! Commands that block in kubectl (`delete`, `rollout status`, `drain`, `wait`) as
//! resumable values: the CLI and scripts drive them by stepping the clock, the page
//! polls them after every tick, so they finish *as the clock plays*.
//!
//! The files: the waits on objects (`objects`: `kubectl delete`, `kubectl wait`,
//! `kubectl rollout status`), drain's evictions (`evictions`), and the clock of
//! `sim advance` and `sim settle` (`clock`).

use crate::api::*;
use crate::apiserver::{Follow, ObjKey, WatchType};
use crate::cluster::Cluster;
use crate::command::client::Client;
use crate::command::drain::DrainOptions;
use crate::time::SimTime;
use std::collections::VecDeque;

mod clock;
mod evictions;
mod objects;
mod watch;

pub use evictions::{evict, Eviction, EVICTION_RETRY};
use evictions::{poll_drain, retry_evictions};
pub use objects::condition_met;
use objects::{poll_conditions, poll_created, poll_gone, poll_rollout};
pub use watch::{Watch, WatchFilter, WATCH_TIMEOUT};

/// A Pod a drain evicts, with its uid.
type Pending = (ObjKey, String);

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
    /// `kubectl get --watch`: each write printed until the deadline.
    Watch(Box<Watch>),
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

    /// Print what `watch` sees until `deadline` (its [`Watch::start`] has run).
    pub fn watch(deadline: SimTime, watch: Watch) -> Self {
        Self::new(deadline, Step::Watch(Box::new(watch)))
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
        if let Step::Watch(w) = &mut self.step {
            let printed = w.poll(c, &mut self.output);
            keep_tail(&mut self.output, KEPT_OUTPUT);
            // The watch ends quietly at its deadline (kubectl ignores the watch's
            // end); a printer's error ends it with that error.
            // At the deadline's instant, once every write of it is printed.
            let done = printed.is_err() || (c.now() >= self.deadline && !c.is_mid_instant());
            if let Err(e) = printed {
                line(&mut self.output, &e);
                self.failed = true;
            }
            if done {
                w.stop(c);
            }
            return done;
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
                    c.store
                        .follow(Some(Follow::Object(*kind, ObjKey::new(ns, name))));
                }
                // The status viewer looks at the states written, not at a removal.
                c.store
                    .take_followed()
                    .into_iter()
                    .filter(|w| w.type_ != WatchType::Deleted)
                    .map(|w| w.object)
                    .collect()
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
            Step::Clock { .. } | Step::Watch(_) => Progress::Waiting,
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
                // Whatever the command saw, the instant it ended in runs to its end, as
                // a server that moved its clock there has run it: the next command acts
                // between instants.
                c.finish_instant();
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
    pub fn interrupt(&mut self, c: &mut Cluster) {
        self.output.push_str("^C\n");
        if let Step::Watch(w) = &self.step {
            w.stop(c);
        }
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

/// The most of a waiting command's output kept before it is taken: a watch left
/// running in a script keeps its last 256 KiB.
pub const KEPT_OUTPUT: usize = 256 * 1024;

/// Keep the last `max` bytes of `s` or a little less (from a line's start), after a
/// line that says earlier output was dropped.
pub fn keep_tail(s: &mut String, max: usize) {
    if s.len() <= max {
        return;
    }
    let mut cut = s.len() - max;
    while !s.is_char_boundary(cut) {
        cut += 1;
    }
    let start = s[cut..].find('\n').map_or(s.len(), |i| cut + i + 1);
    s.replace_range(..start, "… (earlier output dropped)\n");
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
