//! `sim advance` and `sim settle` as waits: the clock itself, run toward its goal (in
//! one piece by the CLI, in budgeted slices by the page), and what each prints once
//! there.

use super::{line, Blocking, Step};
use crate::cluster::Cluster;
use crate::time::{clock_label, human_duration, SimTime};

impl Blocking {
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

    /// `sim advance`/`sim settle`: once there, print what the CLI prints.
    pub(super) fn poll_clock(&mut self, c: &Cluster) -> bool {
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
}

/// What `sim advance` prints when the clock got there.
fn advanced_message(from: SimTime, now: SimTime) -> String {
    format!("time {} → {}", clock_label(from), clock_label(now))
}

/// What `sim settle` prints: settled (and why nothing more can change, if the control
/// plane is down), or not settled within `max`.
fn settle_message(
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
                Some(crate::cluster::Unavailable::EtcdUnreachable) =>
                    ": the API server cannot reach etcd, so nothing more can change until it can (sim etcd reconnect)",
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
