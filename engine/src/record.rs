//! Completion records: what a course platform stores when a learner finishes a lesson,
//! and the verifier that confirms or refutes it.
//!
//! A record holds the lesson, its seed, every act of the learner with its simulated
//! time (the page's journal), the simulated time each goal was met at, and the
//! kubeplay version. The engine is deterministic, so [`verify`] simply replays the acts
//! on the lesson's starting world ([`crate::session::replay_lesson`]) and compares the
//! moments each goal was reached with the ones claimed. Nothing in a record is taken
//! on trust: a goal claimed but not met, an act edited, a time moved, another version
//! or another seed — each makes the replay disagree, and the record is refused with
//! the goal or field that disagreed.

use crate::bounds;
use crate::session::{replay_lesson, Act, Machine, ScenarioSource};
use crate::time::{clock_label, SimTime};

/// The record's `format` field.
pub const FORMAT: &str = "kubeplay-completion";

/// The kubeplay version that made (or verifies) a record: a replay is exact only on
/// the same engine.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// A completion record (JSON).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// Always [`FORMAT`].
    pub format: String,
    /// Format version (1).
    pub v: u32,
    /// The kubeplay version that made it ([`VERSION`]).
    pub kubeplay: String,
    /// The lesson: a built-in id or an author's YAML.
    pub lesson: ScenarioSource,
    /// The lesson's seed (names, tie-breaks).
    pub seed: u64,
    /// Every act of the learner, with its simulated time in ms.
    pub acts: Vec<(SimTime, Act)>,
    /// Per goal, in the lesson's order: the simulated time it was met at (null: not met).
    pub goals: Vec<Option<SimTime>>,
    /// The simulated time the record was made at.
    pub now: SimTime,
}

impl Record {
    /// The record of `m`'s session now: its lesson, the acts that made this world (after
    /// a rewind, not those past now), and its goals. None without a lesson.
    pub fn of(m: &Machine) -> Option<Record> {
        let a = m.scenario.as_ref()?;
        Some(Record {
            format: FORMAT.to_string(),
            v: 1,
            kubeplay: VERSION.to_string(),
            lesson: a.source.clone(),
            seed: a.scenario.seed,
            acts: m.journal[..m.applied.min(m.journal.len())].to_vec(),
            goals: a.tracker.reached.clone(),
            now: m.cluster.now(),
        })
    }

    /// Whether every goal is claimed met.
    pub fn complete(&self) -> bool {
        !self.goals.is_empty() && self.goals.iter().all(Option::is_some)
    }
}

/// What [`verify`] found for one goal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GoalCheck {
    /// Claimed met at this time, and the replay met it then.
    Confirmed(SimTime),
    /// Claimed not met, and the replay agrees.
    NotMet,
    /// The replay disagrees with the claim.
    Refuted {
        /// What the record claims.
        claimed: Option<SimTime>,
        /// What the replay found.
        replayed: Option<SimTime>,
    },
}

/// The verdict on a record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The lesson's goals, labelled in English, each with what was found.
    pub goals: Vec<(String, GoalCheck)>,
    /// Why the record was refused before or instead of checking goals (None: it was
    /// replayed).
    pub refused: Option<String>,
}

impl Verdict {
    /// The record is genuine and every goal was met: what a course platform grades.
    pub fn passed(&self) -> bool {
        self.refused.is_none()
            && !self.goals.is_empty()
            && self
                .goals
                .iter()
                .all(|(_, g)| matches!(g, GoalCheck::Confirmed(_)))
    }

    /// The record is genuine (whatever it claims agrees with the replay), complete or not.
    pub fn genuine(&self) -> bool {
        self.refused.is_none()
            && self
                .goals
                .iter()
                .all(|(_, g)| !matches!(g, GoalCheck::Refuted { .. }))
    }

    /// The verdict as text: one line per goal, then `PASSED`, `GENUINE, NOT COMPLETE`
    /// or `REFUSED: reason`.
    pub fn report(&self) -> String {
        let mut out = String::new();
        for (label, g) in &self.goals {
            let line = match g {
                GoalCheck::Confirmed(t) => format!("[x] {label}: met at {}", clock_label(*t)),
                GoalCheck::NotMet => format!("[ ] {label}: not met"),
                GoalCheck::Refuted { claimed, replayed } => format!(
                    "[!] {label}: claimed {}, the replay {}",
                    claimed.map_or("not met".to_string(), |t| format!(
                        "met at {}",
                        clock_label(t)
                    )),
                    replayed.map_or("never met it".to_string(), |t| format!(
                        "met it at {}",
                        clock_label(t)
                    ))
                ),
            };
            out.push_str(&line);
            out.push('\n');
        }
        out.push_str(&match &self.refused {
            Some(r) => format!("REFUSED: {r}\n"),
            None if self.passed() => "PASSED\n".to_string(),
            None if self.genuine() => "GENUINE, NOT COMPLETE\n".to_string(),
            None => {
                "REFUSED: the replay does not reach the goals at the claimed times\n".to_string()
            }
        });
        out
    }
}

fn refused(reason: String) -> Verdict {
    Verdict {
        goals: Vec::new(),
        refused: Some(reason),
    }
}

/// Check a record (its JSON text): read it, bound it as a share link is bounded, replay
/// its acts on its lesson, and compare every goal's moment. Never panics on any input.
pub fn verify(json: &str) -> Verdict {
    if json.len() > bounds::MAX_LINK_CHARS {
        return refused(format!(
            "the record is too long: {} bytes (at most {})",
            json.len(),
            bounds::MAX_LINK_CHARS
        ));
    }
    let r: Record = match serde_json::from_str(json) {
        Ok(r) => r,
        Err(e) => return refused(format!("not a completion record: {e}")),
    };
    if r.format != FORMAT || r.v != 1 {
        return refused(format!(
            "not a completion record (format \"{}\" version {}; expected \"{FORMAT}\" version 1)",
            r.format, r.v
        ));
    }
    if r.kubeplay != VERSION {
        return refused(format!(
            "made by kubeplay {}, verified by kubeplay {VERSION}: a replay is exact only on the same version",
            r.kubeplay
        ));
    }
    if r.acts.len() > bounds::MAX_JOURNAL_ACTS {
        return refused(format!(
            "the record holds {} acts (at most {})",
            r.acts.len(),
            bounds::MAX_JOURNAL_ACTS
        ));
    }
    let ordered = r.acts.windows(2).all(|w| w[0].0 <= w[1].0);
    if !ordered || r.acts.iter().any(|(t, _)| *t > r.now) || r.now > bounds::MAX_SHARED_TIME {
        return refused("the record's times do not add up".to_string());
    }
    for (_, act) in &r.acts {
        if let Act::Run(text) = act {
            if let Err(e) = bounds::check_command(text) {
                return refused(e.text().trim_start_matches("error: ").to_string());
            }
        }
    }
    let lesson = match r.lesson.parse() {
        Ok(s) => s,
        Err(e) => return refused(e.trim_start_matches("error: ").to_string()),
    };
    if lesson.seed != r.seed {
        return refused(format!(
            "the record's seed {} is not the lesson's ({})",
            r.seed, lesson.seed
        ));
    }
    if r.goals.len() != lesson.goals.len() {
        return refused(format!(
            "the record lists {} goals; the lesson has {}",
            r.goals.len(),
            lesson.goals.len()
        ));
    }
    let m = match replay_lesson(r.lesson.clone(), r.acts.clone(), r.now) {
        Ok(m) => m,
        Err(e) => return refused(e.trim_start_matches("error: ").to_string()),
    };
    let Some(a) = m.scenario.as_ref() else {
        return refused("the lesson did not load".to_string());
    };
    let goals = lesson
        .goals
        .iter()
        .zip(r.goals.iter().zip(&a.tracker.reached))
        .map(|(g, (&claimed, &replayed))| {
            let check = match (claimed, replayed) {
                (Some(c), Some(p)) if c == p => GoalCheck::Confirmed(c),
                (None, None) => GoalCheck::NotMet,
                _ => GoalCheck::Refuted { claimed, replayed },
            };
            (g.label.en.clone(), check)
        })
        .collect();
    Verdict {
        goals,
        refused: None,
    }
}
