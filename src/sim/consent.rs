//! Code someone else wrote — a controller carried by a share link, a lesson step or
//! the embedding page — is shown to the learner and runs only after they choose to
//! run it. What the learner types or clicks themselves runs at once (the sandbox is
//! fetched first, the first time).

use super::*;
use kubeplay_engine::command::controller_code;

/// A command as one line: a heredoc's body is left out (`… <<EOF …`), as the
/// console shows it, and the commands are joined with ` ; `.
pub fn command_summary(text: &str) -> String {
    match kubeplay_engine::command::script::parse(text, "text") {
        Ok(lines) => lines
            .iter()
            .map(|l| l.shown())
            .collect::<Vec<_>>()
            .join(" ; "),
        Err(_) => text.replace('\n', " ; "),
    }
}

/// What waits for the learner's choice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AfterConsent {
    /// A share link's replay.
    Replay,
    /// A lesson's step.
    Step(usize),
    /// A lesson's "predict, then run" step, with the learner's guess.
    Predict(usize, String),
    /// The embedding page's command.
    Text(String),
    /// The embedding page's `setState` of a session that runs a controller.
    State(String),
}

/// The controller code a session's acts (and its branch's) would run.
pub fn session_code(session: &Session) -> Option<String> {
    let fork = session.fork.iter().flat_map(|f| f.journal.iter());
    let code: Vec<String> = session
        .journal
        .iter()
        .chain(fork)
        .filter_map(|(_, a)| match a {
            Act::Run(t) => controller_code(t),
            _ => None,
        })
        .collect();
    (!code.is_empty()).then(|| code.join("\n"))
}

/// Code shown to the learner before it runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Consent {
    /// The JavaScript it would run.
    pub code: String,
    /// What runs once they agree.
    pub then: AfterConsent,
    /// They agreed: the sandbox is loading.
    pub loading: bool,
}

impl SimState {
    /// A share link that replays a controller waits, paused, for the learner.
    pub fn ask_before_replay(&mut self, session: &Session) {
        if self.replay.is_none() {
            return;
        }
        if let Some(code) = session_code(session) {
            self.playing = false;
            self.consent = Some(Consent {
                code,
                then: AfterConsent::Replay,
                loading: false,
            });
        }
    }

    /// Whether `text`'s controller code needs the learner's yes first (None: it
    /// runs no controller, or they already agreed to this code).
    pub fn needs_consent(&self, text: &str) -> Option<String> {
        controller_code(text).filter(|c| !self.consented.contains(c))
    }
}

impl SimHandle {
    /// Run `text` once the sandbox is loaded (at once when it is): what the learner
    /// typed or clicked.
    pub(super) fn after_sandbox(&self, text: &str, run: fn(&SimHandle, &str)) -> bool {
        if controller_code(text).is_none() || crate::sandbox::loaded() {
            return false;
        }
        let h = self.clone();
        let text = text.to_string();
        crate::sandbox::load(move |r| match r {
            Ok(()) => run(&h, &text),
            Err(e) => h.with(|s| {
                s.push(ConsoleEntry {
                    command: text.lines().next().unwrap_or_default().to_string(),
                    output: format!("error: the controller's sandbox did not load: {e}\n"),
                    ok: false,
                })
            }),
        });
        true
    }

    /// Ask the learner before `then` runs `code`. A question already waiting is not
    /// replaced (its answer would then apply to code the learner never saw): the
    /// new one is dropped, and false says so.
    pub(super) fn ask(&self, code: String, then: AfterConsent) -> bool {
        if self.state.borrow().consent.is_some() {
            return false;
        }
        self.with(|s| {
            s.consent = Some(Consent {
                code,
                then,
                loading: false,
            })
        });
        true
    }

    /// The learner chose to run the code shown: load the sandbox, then go on.
    pub fn consent_given(&self) {
        let Some(c) = self.state.borrow().consent.clone() else {
            return;
        };
        self.with(|s| {
            if let Some(c) = s.consent.as_mut() {
                c.loading = true;
            }
        });
        let h = self.clone();
        crate::sandbox::load(move |r| {
            h.with(|s| {
                s.consent = None;
                match &r {
                    Ok(()) => {
                        s.consented.insert(c.code.clone());
                    }
                    Err(e) => {
                        s.last_error =
                            Some(format!("error: the controller's sandbox did not load: {e}"))
                    }
                }
            });
            if r.is_err() {
                // Without the sandbox a link's replay would build another world.
                if c.then == AfterConsent::Replay {
                    h.cancel_replay();
                }
                return;
            }
            match c.then {
                // The replay's frames go on by themselves now.
                AfterConsent::Replay => {}
                AfterConsent::Step(i) => h.run_step(i),
                AfterConsent::Predict(i, guess) => h.predict_and_run(i, guess),
                AfterConsent::Text(t) => {
                    h.api_run(&t);
                }
                AfterConsent::State(v) => {
                    if let Err(e) = h.set_state_string(&v) {
                        h.with(|s| s.last_error = Some(e));
                    }
                }
            }
        });
    }

    /// The learner chose not to run it: a link's replay stops before its first act.
    pub fn consent_refused(&self) {
        let Some(c) = self.state.borrow().consent.clone() else {
            return;
        };
        self.with(|s| s.consent = None);
        if c.then == AfterConsent::Replay {
            self.cancel_replay();
        }
    }
}
