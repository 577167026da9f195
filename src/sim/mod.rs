//! The simulation handle shared through a Yew context: the page's one state module.
//!
//! - [`state`]: the UI state (cluster, pace, console, selection, lesson, journal);
//! - [`share`]: URL options and the share link;
//! - [`rewind`]: snapshots and going back in time;
//! - [`replay`]: bounds on what links bring, and replaying a shared session in slices;
//! - here: [`SimHandle`], whose domain verbs the components call.

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::script;
use kubeplay_engine::command::wait::Blocking;
use kubeplay_engine::scenario::{self as scn, Tracker};
use kubeplay_engine::time::SimTime;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use yew::prelude::*;

mod consent;
mod pace;
mod panels;
mod replay;
mod rewind;
mod share;
mod state;
mod verbs;

pub use consent::*;
pub use kubeplay_engine::session::{Act, ConsoleEntry, Machine, ScenarioSource};
pub use pace::*;
pub use panels::*;
pub use replay::*;
pub use rewind::*;
pub use share::*;
pub use state::*;
pub use verbs::Verb;

/// A cheap, comparable handle: equality is by revision, so components re-render when
/// the simulation changed.
#[derive(Clone)]
pub struct SimHandle {
    /// Shared state.
    pub state: Rc<RefCell<SimState>>,
    /// Revision counter (bumped after every change).
    pub rev: u64,
    bump: Callback<()>,
    /// Which branch this handle draws: the session, or (fork and compare) the second
    /// branch, a read-only picture.
    pub branch: Branch,
}

/// A branch of the session, as fork and compare draws it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Branch {
    /// The session itself ("as is").
    #[default]
    Main,
    /// The second branch, with its one change ("what if").
    Fork,
}

impl PartialEq for SimHandle {
    fn eq(&self, other: &Self) -> bool {
        self.rev == other.rev && Rc::ptr_eq(&self.state, &other.state)
    }
}

impl SimHandle {
    /// A handle over `state`.
    pub fn new(state: Rc<RefCell<SimState>>, rev: u64, bump: Callback<()>) -> Self {
        SimHandle {
            state,
            rev,
            bump,
            branch: Branch::Main,
        }
    }

    /// The same handle drawing `branch`.
    pub fn on_branch(&self, branch: Branch) -> SimHandle {
        SimHandle {
            branch,
            ..self.clone()
        }
    }

    /// Whether this handle draws the second branch: a picture, with nothing to click
    /// (what the learner does goes to both branches through the session's controls).
    pub fn is_fork_view(&self) -> bool {
        self.branch == Branch::Fork
    }

    /// The world this handle draws: the session's cluster, or the second branch's
    /// (the session's when there is no second branch any more).
    pub fn world(&self) -> std::cell::Ref<'_, Cluster> {
        let branch = self.branch;
        std::cell::Ref::map(self.state.borrow(), move |s| match (&s.fork, branch) {
            (Some(f), Branch::Fork) => &f.m.cluster,
            _ => &s.m.cluster,
        })
    }

    fn with<R>(&self, f: impl FnOnce(&mut SimState) -> R) -> R {
        let r = f(&mut self.state.borrow_mut());
        self.bump.emit(());
        r
    }

    /// Run what the learner typed in the console.
    pub fn run(&self, text: &str) {
        if self.readonly() || self.after_sandbox(text, |h, t| h.run(t)) {
            return;
        }
        self.with(|s| {
            if !text.trim().is_empty() {
                s.history.push(text.trim().to_string());
            }
            s.acted_in = Some(s.world);
            s.run_text(text);
        });
    }

    /// A click, as the command it stands for: it runs through the same command
    /// language and appears in the console, so the learner sees what to type.
    pub fn click(&self, command: String) {
        if self.readonly() || self.after_sandbox(&command, |h, t| h.click(t.to_string())) {
            return;
        }
        self.with(|s| {
            // Before the command: a `sim reset` makes a new world, where the
            // instruction comes back.
            s.acted_in = Some(s.world);
            s.run_text(&command);
            let ok = s.console.last().is_some_and(|e| e.ok);
            s.last_error = if ok {
                None
            } else {
                s.console.last().map(|e| e.output.trim().to_string())
            };
            s.last_command = Some(command);
        });
    }

    /// Load a scenario (None: the default playground). Language, speed and page
    /// options carry over; the console and history start afresh.
    pub fn load(&self, source: Option<ScenarioSource>) -> Result<(), String> {
        let fresh = match source {
            Some(src) => SimState::with_scenario(src)?,
            None => SimState::default_world(),
        };
        self.with(|s| {
            let (lang, speed, options) = (s.lang, s.speed_x10, s.options.clone());
            *s = fresh;
            s.lang = lang;
            s.speed_x10 = speed;
            s.options = options;
            // The page's own choice (`slowmo=`) wins over the lesson's default.
            if let Some(on) = s.options.slow_motion {
                s.slow_motion = on;
            }
        });
        Ok(())
    }

    /// Load another cluster's state as a new world (files as (name, text)); what was
    /// loaded, left out and ignored. A refusal leaves the session as it is. Language,
    /// speed and page options carry over, as [`SimHandle::load`] keeps them.
    pub fn import_files(&self, files: &[(String, String)]) -> Result<String, String> {
        let (seed, floor) = {
            let s = self.state.borrow();
            (s.cluster.seed(), s.cluster.store.pod_limit_floor)
        };
        let (world, report) = kubeplay_engine::import::import(seed, floor, files)?;
        let fresh = SimState::imported_world(world);
        self.with(|s| {
            let (lang, speed, options) = (s.lang, s.speed_x10, s.options.clone());
            *s = fresh;
            s.lang = lang;
            s.speed_x10 = speed;
            s.options = options;
        });
        Ok(report.summary())
    }

    /// This world's objects as clean manifests for `kubectl apply` on a real cluster.
    pub fn export_manifests(&self) -> String {
        kubeplay_engine::import::manifests(&self.state.borrow().cluster)
    }

    /// This world as a snapshot `sim import` reads back.
    pub fn export_snapshot(&self) -> String {
        let s = self.state.borrow();
        let mut out = serde_json::to_string_pretty(&kubeplay_engine::import::snapshot(&s.cluster))
            .unwrap_or_default();
        out.push('\n');
        out
    }

    /// The session as a script `kubeplay-cli run` plays again: its starting world as a
    /// snapshot, then the commands at their times.
    pub fn session_script(&self) -> String {
        let s = self.state.borrow();
        let acts = &s.journal[..s.applied.min(s.journal.len())];
        let start = match (&s.imported, s.scenario.as_ref()) {
            (Some(c), _) => (**c).clone(),
            (None, Some(a)) => kubeplay_engine::session::open_lesson(a.source.clone())
                .map(|(m, _)| m.cluster)
                .unwrap_or_else(|_| s.cluster.clone()),
            (None, None) => crate::view::default_cluster_opening().1,
        };
        kubeplay_engine::author::write_script(&start, acts, s.cluster.now())
    }

    /// The completion record of this session (None without a lesson), as a course
    /// platform stores it and `kubeplay-cli verify` checks it.
    pub fn record(&self) -> Option<kubeplay_engine::record::Record> {
        let s = self.state.borrow();
        let mut m = s.m.clone();
        // A tick may have stopped inside an instant; the record ends between instants,
        // where a replay ends.
        m.cluster.finish_instant();
        kubeplay_engine::record::Record::of(&m)
    }

    /// Fork now: a second branch with `change` (a command) made in it, played beside
    /// this one on the same clock. The change's error, if it fails (no branch is made).
    pub fn fork_with(&self, change: &str) -> Result<(), String> {
        if self.after_sandbox(change, |h, t| {
            if let Err(e) = h.fork_with(t) {
                h.with(|s| s.last_error = Some(e));
            }
        }) {
            return Ok(());
        }
        let f = {
            let mut s = self.state.borrow_mut();
            s.m.cluster.finish_instant();
            kubeplay_engine::fork::Fork::start(&s.m, change.trim())?
        };
        self.with(|s| s.fork = Some(f));
        Ok(())
    }

    /// Close the second branch.
    pub fn close_fork(&self) {
        self.with(|s| s.fork = None);
    }

    /// "Record a lesson": this session written as a scenario file (the lesson's or the
    /// playground's cluster and setup, each command a step, goals from what changed),
    /// for the author to edit.
    pub fn record_lesson(&self) -> String {
        use kubeplay_engine::author::{write_lesson, Base};
        let s = self.state.borrow();
        let acts = &s.journal[..s.applied.min(s.journal.len())];
        match s.scenario.as_ref() {
            Some(a) => {
                let text = match &a.source {
                    ScenarioSource::Id(id) => kubeplay_engine::scenario::BUILTIN
                        .iter()
                        .find(|(b, _)| b == id)
                        .map_or("", |(_, t)| t),
                    ScenarioSource::Yaml(y) => y.as_str(),
                };
                let start = kubeplay_engine::session::open_lesson(a.source.clone())
                    .map(|(m, _)| m.cluster)
                    .unwrap_or_else(|_| s.cluster.clone());
                write_lesson(&Base::Lesson(&a.scenario, text), &start, acts, &s.cluster)
            }
            None => write_lesson(
                &Base::Playground,
                &crate::view::default_cluster_opening().1,
                acts,
                &s.cluster,
            ),
        }
    }

    /// The session as a string (`getState`): the share link's value.
    pub fn state_string(&self) -> String {
        self.state.borrow().session().encode()
    }

    /// Restore a session from [`SimHandle::state_string`] (`setState`): replayed at once
    /// (it is bounded like a share link). Language, speed and page options carry over.
    pub fn set_state_string(&self, value: &str) -> Result<(), String> {
        let session = Session::decode(value).map_err(|e| e.text())?;
        // A session that runs a controller is shown first and restored once the
        // learner agrees (and the sandbox is loaded).
        let code = session_code(&session);
        if let Some(code) = code.clone() {
            if !self.state.borrow().consented.contains(&code) {
                return match self.ask(code, AfterConsent::State(value.to_string())) {
                    true => Ok(()),
                    false => Err(
                        "error: the learner is answering another question; send it again later"
                            .into(),
                    ),
                };
            }
        }
        let mut fresh = SimState::start_session(&session).map_err(|e| e.text())?;
        // Already agreed to: the replay runs at once.
        fresh.consent = None;
        fresh.replay_slice(&mut || false);
        self.with(|s| {
            let (lang, speed, options) = (s.lang, s.speed_x10, s.options.clone());
            let consented = std::mem::take(&mut s.consented);
            *s = fresh;
            s.lang = lang;
            s.speed_x10 = speed;
            s.options = options;
            s.consented = consented;
        });
        Ok(())
    }

    /// A "predict, then run" step: keep the learner's guess, then run the step.
    pub fn predict_and_run(&self, i: usize, guess: String) {
        if self.readonly() {
            return;
        }
        // A step's controller is shown first: the prediction counts from when it runs.
        let code = {
            let s = self.state.borrow();
            s.scenario
                .as_ref()
                .and_then(|a| a.scenario.steps.get(i))
                .and_then(|st| st.command.as_deref())
                .and_then(|c| s.needs_consent(c))
        };
        if let Some(code) = code {
            self.ask(code, AfterConsent::Predict(i, guess));
            return;
        }
        {
            let mut s = self.state.borrow_mut();
            let wait = s
                .scenario
                .as_ref()
                .and_then(|a| a.scenario.steps.get(i))
                .and_then(|st| st.wait.as_deref())
                .and_then(|w| kubeplay_engine::command::args::parse_duration(w).ok())
                .unwrap_or(30_000);
            let now = s.cluster.now();
            let log_from = s.cluster.store.log.len();
            s.predictions.insert(
                i,
                Prediction {
                    guess,
                    ran_at: now,
                    read_at: now + wait,
                    commands_running: true,
                    log_from,
                    outcome: None,
                },
            );
        }
        self.run_step(i);
        self.with(|s| s.observe_predictions());
    }

    /// Run step `i` of the loaded scenario (its placeholders filled in now); the lesson
    /// shows the commands as they ran, and counts its wait down.
    pub fn run_step(&self, i: usize) {
        let (cmd, wait) = {
            let s = self.state.borrow();
            let Some(a) = s.scenario.as_ref() else { return };
            let Some(st) = a.scenario.steps.get(i) else {
                return;
            };
            let Some(c) = st.command.clone() else { return };
            // A step with neither a wait of its own nor a look has nothing to wait for.
            let wait = (st.wait.is_some() || st.look.is_some()).then(|| scn::step_wait(st));
            (scn::expand(&s.cluster, &c), wait)
        };
        // A lesson's controller is shown before it runs.
        if let Some(code) = cmd
            .as_ref()
            .ok()
            .and_then(|c| self.state.borrow().needs_consent(c))
        {
            self.ask(code, AfterConsent::Step(i));
            return;
        }
        match cmd {
            Ok(c) => {
                let ran_at = self.state.borrow().cluster.now();
                self.click(c.trim_end().to_string());
                self.with(|s| {
                    s.step_runs.insert(
                        i,
                        StepRun {
                            commands: scn::command_lines(&c),
                            ran_at,
                            until: ran_at + wait.unwrap_or(0),
                            commands_running: true,
                            look: None,
                        },
                    );
                    s.observe_predictions();
                });
            }
            Err(e) => self.with(|s| s.last_error = Some(format!("error: {e}"))),
        }
    }

    /// Open or close view `v` (the learner's choice, kept in the address).
    pub fn set_view(&self, v: View, open: bool) {
        self.with(|s| s.options.views.set(v, open));
        write_views_param(&self.state.borrow().options.views);
    }

    /// Fold the dock (on a narrow screen, the bottom sheet to its one-line handle).
    pub fn fold_dock(&self) {
        self.with(|s| s.dock_open = false);
    }

    /// Play a step's wait faster: the speed that plays what is left in a few seconds,
    /// slow motion off.
    pub fn speed_up(&self, left: SimTime) {
        self.with(|s| {
            s.speed_x10 = s.speed_x10.max(state::speed_to_catch_up(left));
            s.slow_motion = false;
            s.playing = true;
        });
    }

    /// The link that reopens this session exactly (`#s=`), also put in the address bar.
    pub fn share(&self) -> String {
        let hash = format!("s={}", self.state.borrow().session().encode());
        let Some(w) = web_sys::window() else {
            return format!("#{hash}");
        };
        let loc = w.location();
        let base = format!(
            "{}{}{}",
            loc.origin().unwrap_or_default(),
            loc.pathname().unwrap_or_default(),
            loc.search().unwrap_or_default()
        );
        let url = format!("{base}#{hash}");
        if let Ok(h) = w.history() {
            let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
        }
        url
    }

    /// Run a command for the embedding page (read-only or not: the author drives it);
    /// returns what it printed and whether it succeeded.
    pub fn api_run(&self, text: &str) -> (String, bool) {
        // The embedding page's controller is shown to the learner before it runs, as
        // it would run: with its placeholders filled in.
        let expanded = scn::expand(&self.state.borrow().cluster, text).unwrap_or_default();
        let code = {
            let s = self.state.borrow();
            s.needs_consent(text).or_else(|| s.needs_consent(&expanded))
        };
        if let Some(code) = code {
            let asked = self.ask(code, AfterConsent::Text(text.to_string()));
            let said = if asked {
                "error: the learner is asked whether to run this controller; it runs once they agree\n"
            } else {
                "error: the learner is answering another question; send it again later\n"
            };
            return (said.into(), false);
        }
        self.with(|s| {
            // An embedding page's command runs in one piece: bounded before it runs,
            // and a refusal is in the console too, so the learner sees why.
            if let Err(e) = check_command(text) {
                let output = format!("{}\n", e.text());
                s.push(ConsoleEntry {
                    command: text
                        .lines()
                        .next()
                        .unwrap_or_default()
                        .chars()
                        .take(200)
                        .collect(),
                    output: output.clone(),
                    ok: false,
                });
                return (output, false);
            }
            // `{pod:app=web}` and friends name objects whose names are random.
            let text = match scn::expand(&s.cluster, text) {
                Ok(t) => t,
                Err(e) => return (format!("error: {e}\n"), false),
            };
            let before = s.console.len();
            let running = s.clock_goal().is_some();
            s.run_text(&text);
            // `sim advance`/`sim settle` run to the end here, as in the CLI: the
            // embedding page waits for what they print (bounded above). A learner's
            // own, already running, is left to the ticker.
            if !running {
                s.finish_clock();
            }
            let new = &s.console[before.min(s.console.len())..];
            let out: String = new.iter().map(|e| e.output.as_str()).collect();
            (out, new.iter().all(|e| e.ok))
        })
    }

    /// Stop the replay of a shared session where it is (see
    /// [`SimState::cancel_replay`]).
    pub fn cancel_replay(&self) {
        self.with(|s| s.cancel_replay());
    }

    /// Play or pause explicitly.
    pub fn set_playing(&self, playing: bool) {
        self.with(|s| s.playing = playing);
    }

    /// Read-only page (`readonly=1`): the learner's clicks and console change nothing.
    pub fn readonly(&self) -> bool {
        self.state.borrow().options.readonly
    }

    /// Power a node off, or back on.
    pub fn toggle_node_power(&self, name: &str) {
        let up = self.state.borrow().cluster.node_up(name);
        self.act(Verb::Power(name.to_string(), !up));
    }

    /// Ctrl+C in the console.
    pub fn interrupt(&self) {
        self.with(|s| s.interrupt());
    }

    /// Show an object in the inspector (None closes it).
    pub fn select(&self, sel: Option<Selection>) {
        self.with(|s| {
            // Opening the inspector unfolds the dock in the same frame, so the panel can
            // take the focus as soon as it is drawn.
            s.dock_open |= sel.is_some();
            s.selected = sel;
        });
    }

    /// Fold or unfold the dock (the bottom sheet on a narrow screen).
    pub fn toggle_dock(&self) {
        self.with(|s| s.dock_open = !s.dock_open);
    }

    /// Play or pause.
    pub fn toggle_play(&self) {
        self.with(|s| {
            s.playing = !s.playing;
            s.last_step = None;
        });
    }

    /// Slow motion after an action on or off.
    pub fn toggle_slow_motion(&self) {
        self.with(|s| s.slow_motion = !s.slow_motion);
    }

    /// Run to the next visible change.
    pub fn step(&self) {
        self.with(|s| {
            s.playing = false;
            s.step_once();
            s.observe_predictions();
            s.observe();
        });
    }

    /// Rewind or fast-forward to `t` within the recorded history.
    pub fn seek(&self, t: SimTime) {
        self.with(|s| s.seek(t));
    }

    /// Back to the live edge of the history (the furthest recorded moment), playing.
    pub fn go_live(&self) {
        self.with(|s| {
            let horizon = s.timeline.horizon.max(s.cluster.now());
            if s.cluster.now() < horizon {
                s.seek(horizon);
            }
            s.playing = true;
        });
    }

    /// Set the speed (in tenths: 5 is 0.5×).
    pub fn set_speed(&self, speed_x10: u32) {
        self.with(|s| s.speed_x10 = speed_x10);
    }

    /// Switch the UI language (kubectl output stays English).
    pub fn set_lang(&self, lang: crate::i18n::Lang) {
        self.with(|s| s.lang = lang);
        set_document_lang(lang);
    }

    /// The UI language.
    pub fn lang(&self) -> crate::i18n::Lang {
        self.state.borrow().lang
    }
}

/// The handle of the enclosing provider.
#[hook]
pub fn use_sim() -> SimHandle {
    // The provider wraps the whole app, so the context is always there.
    use_context::<SimHandle>().expect("SimHandle provider")
}

#[cfg(test)]
mod fuzz;
#[cfg(test)]
mod tests;
