//! Goals and predictions read from the cluster: which goals are reached and when
//! ([`Tracker`]), whether one holds now, and what a "predict, then run" question
//! observed.

use super::format::{Goal, Predict, Scenario, Text};
use super::placeholders::expand;
use crate::cluster::Cluster;
use crate::command::{self, NoFiles};
use crate::time::SimTime;

/// Which goals are reached, and when. Goals latch: once reached a goal stays reached
/// (a story's "Ready dropped to 2" stays true after Ready is back to 3), except that
/// going back in time un-reaches what was reached later.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tracker {
    /// Per goal: when it was reached.
    pub reached: Vec<Option<SimTime>>,
}

impl Tracker {
    /// Nothing reached yet.
    pub fn new(s: &Scenario) -> Self {
        Tracker {
            reached: vec![None; s.goals.len()],
        }
    }

    /// Check the goals not yet reached against the cluster now; returns the indexes of
    /// those reached by this check.
    pub fn check(&mut self, s: &Scenario, c: &mut Cluster) -> Vec<usize> {
        let mut newly = Vec::new();
        for (i, g) in s.goals.iter().enumerate() {
            if self.reached.get(i).copied().flatten().is_some() {
                continue;
            }
            if s.ordered && i > 0 && self.reached.get(i - 1).copied().flatten().is_none() {
                break;
            }
            if goal_met(c, g) {
                if let Some(r) = self.reached.get_mut(i) {
                    *r = Some(c.now());
                }
                newly.push(i);
            } else if s.ordered {
                break;
            }
        }
        newly
    }

    /// Going back to time `t`: goals reached after it are not reached any more.
    pub fn rewind(&mut self, t: SimTime) {
        for r in &mut self.reached {
            if r.is_some_and(|at| at > t) {
                *r = None;
            }
        }
    }

    /// Every goal reached.
    pub fn all(&self) -> bool {
        self.reached.iter().all(Option::is_some)
    }
}

/// Whether goal `g` holds in the cluster now (a check that cannot be evaluated — its
/// placeholder names nothing yet — does not hold).
pub fn goal_met(c: &mut Cluster, g: &Goal) -> bool {
    let Ok(e) = expand(c, &g.expect) else {
        return false;
    };
    let o = command::run(c, &format!("sim expect {e}"), None, &NoFiles);
    o.expectation == Some(true)
}

/// For a choice question: the first choice whose check holds now.
pub fn observed_choice(c: &mut Cluster, p: &Predict) -> Option<usize> {
    p.choices.iter().position(|ch| {
        goal_met(
            c,
            &Goal {
                label: Text::default(),
                expect: ch.when.clone(),
            },
        )
    })
}

/// What `sim expect` observes for `subject` (`deployment/web {.status.readyReplicas}`,
/// `count pods -l app=web`) now: the value it would compare, placeholders filled in.
pub fn read(c: &mut Cluster, subject: &str) -> Result<String, String> {
    let subject = expand(c, subject)?;
    // Compared with a value nothing equals, the check fails and says what it observed.
    let o = command::run(
        c,
        &format!("sim expect {subject} == \u{1}never"),
        None,
        &NoFiles,
    );
    let got = o
        .output
        .trim_end()
        .strip_suffix(')')
        .and_then(|t| t.rsplit_once(" (observed: "))
        .map(|(_, v)| v.to_string())
        .ok_or_else(|| o.output.trim_end().to_string())?;
    Ok(if got == "<empty>" { String::new() } else { got })
}
