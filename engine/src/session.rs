//! A learner's session as the engine replays it: the cluster, the console's waiting
//! command and the lines queued behind it, the loaded lesson's goals, and the journal
//! of acts (what was typed or clicked, the waiting command's looks at the cluster,
//! Ctrl+C, Step) with their simulated times.
//!
//! The page plays a [`Machine`] live and journals each act; a share link, a rewind and
//! the completion record's verifier replay the journal on the same starting world. The
//! replay is byte-identical because both go through the same code here: the page adds
//! only what a learner sees (snapshots for rewinding, the pace, the selection).

use crate::cluster::Cluster;
use crate::command::wait::Blocking;
use crate::command::{self, script, NoFiles};
use crate::scenario::{self as scn, Scenario, Tracker};
use crate::time::SimTime;
use std::collections::VecDeque;

/// How many console entries are kept.
pub const CONSOLE_KEEP: usize = 200;

/// One command in the console and what it printed.
#[derive(Clone, Debug, PartialEq)]
pub struct ConsoleEntry {
    /// The command as typed (or as a click translated it).
    pub command: String,
    /// Its output, exactly as kubectl prints it.
    pub output: String,
    /// Whether it succeeded.
    pub ok: bool,
}

/// A loaded scenario.
#[derive(Clone, Debug)]
pub struct ActiveScenario {
    /// Where it came from (a built-in id, or the author's YAML).
    pub source: ScenarioSource,
    /// The scenario.
    pub scenario: Scenario,
    /// Its goals' progress.
    pub tracker: Tracker,
}

/// Where a scenario came from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ScenarioSource {
    /// A built-in scenario's id.
    Id(String),
    /// An author's scenario file.
    Yaml(String),
}

impl ScenarioSource {
    /// Parse it.
    pub fn parse(&self) -> Result<Scenario, String> {
        match self {
            ScenarioSource::Id(id) => scn::builtin(id)
                .unwrap_or_else(|| Err(format!("error: no built-in scenario \"{id}\""))),
            ScenarioSource::Yaml(y) => scn::parse(y, "scenario.yaml"),
        }
    }
}

/// One thing the learner did (the unit of the journal).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Act {
    /// Text run in the console (or a click's command).
    #[serde(rename = "r")]
    Run(String),
    /// A waiting command looked at the cluster after a tick.
    #[serde(rename = "p")]
    Poll,
    /// Ctrl+C.
    #[serde(rename = "i")]
    Interrupt,
    /// Step to the next visible change.
    #[serde(rename = "s")]
    Step,
}

/// The engine's side of a session: everything a replay of the journal reaches.
#[derive(Clone, Debug)]
pub struct Machine {
    /// The world.
    pub cluster: Cluster,
    /// The console transcript.
    pub console: Vec<ConsoleEntry>,
    /// A command waiting for the cluster (e.g. `kubectl rollout status`), with the index
    /// of its console entry: it finishes as the clock plays.
    pub pending: Option<(usize, Blocking)>,
    /// Lines of a multi-line input still to run after the pending one.
    pub queued: VecDeque<script::ScriptLine>,
    /// How many of the journal's acts the current world includes (fewer than the
    /// journal holds after a rewind).
    pub applied: usize,
    /// The lesson loaded, if any, and its goals' progress.
    pub scenario: Option<ActiveScenario>,
    /// Everything the learner did, with its simulated time: replaying it on the same
    /// starting world gives the same world.
    pub journal: Vec<(SimTime, Act)>,
    /// Goals reached since the embedding page was last told (indexes).
    pub goals_reached: Vec<usize>,
    /// How many times the goals were checked (what the checks cost is followed by it).
    pub goal_checks: u64,
    /// The last act restarted the world (`sim reset`, `sim seed`): the text that
    /// replays it on any world — that line and the lines queued behind it. The page
    /// starts its journal again with it.
    pub restarted_with: Option<String>,
}

impl Machine {
    /// A machine around `cluster`, nothing done yet.
    pub fn new(cluster: Cluster) -> Self {
        Machine {
            cluster,
            console: Vec::new(),
            pending: None,
            queued: VecDeque::new(),
            applied: 0,
            scenario: None,
            journal: Vec::new(),
            goals_reached: Vec::new(),
            goal_checks: 0,
            restarted_with: None,
        }
    }

    /// Do `act` now and journal it, as a page with no history to fork would: between
    /// instants, at the current time. How a program (a test, a server) plays a session
    /// headless and gets a journal a replay repeats.
    pub fn act_and_journal(&mut self, act: Act) {
        self.cluster.finish_instant();
        let t = self.cluster.now();
        self.apply(&act);
        self.journal.push((t, act));
        self.applied += 1;
    }

    /// Do `act` without journaling it (a replay).
    pub fn apply(&mut self, act: &Act) {
        // A `sim advance`/`sim settle` that got here is done before anything acts (the
        // clock is between instants here, live and in a replay alike).
        // Got there just now: the goals are checked and it prints, as when the ticker's
        // run gets there (so Ctrl+C after the end prints the end, not `^C`).
        let arrived = self
            .pending
            .as_mut()
            .is_some_and(|(_, b)| b.note_clock(&self.cluster));
        if arrived {
            self.check_goals();
            self.poll_pending();
        }
        match act {
            Act::Run(text) => {
                self.run_text_unrecorded(text);
                self.check_goals();
            }
            Act::Poll => self.poll_pending(),
            Act::Interrupt => self.stop_pending(),
            Act::Step => {
                // Skip invisible heartbeats: a learner's step should show a change.
                self.cluster.step_visible(10_000);
                self.poll_pending();
                self.check_goals();
            }
        }
    }

    /// Play the clock `ms` forward. With goals still to reach, goals are checked at
    /// the ends of [`scn::CHECK_EVERY`] slices aligned to absolute time, so a story's
    /// short-lived states are seen at any speed, and a replay checks at the same
    /// moments.
    pub fn advance(&mut self, ms: SimTime) {
        self.advance_within(ms, &mut || false);
    }

    /// [`Machine::advance`] within a budget: `out_of_time()` is asked between
    /// simulated instants, and a yes stops the clock there (returns false). The ticker
    /// gives each tick a slice of wall time, so a large cluster plays slower than the
    /// chosen speed instead of freezing the page; where it stops does not change what
    /// happens ([`Cluster::run_until_within`]).
    pub fn advance_within(&mut self, ms: SimTime, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        let end = self.cluster.now() + ms;
        // After a rewind the clock replays the recorded acts as it reaches them, so
        // playing on from the past shows the same history again (until a new act
        // forks it).
        while let Some((ts, act)) = self.journal.get(self.applied).cloned() {
            if ts > end {
                break;
            }
            // A `sim settle` that converges on the way stops its run there; the clock
            // then plays on to the act (a recorded session polled it right there).
            loop {
                if !self.advance_clock(ts.saturating_sub(self.cluster.now()), out_of_time) {
                    return false;
                }
                if self.cluster.now() >= ts {
                    break;
                }
            }
            self.apply(&act);
            self.applied += 1;
            // A replayed command can take a while: the budget is asked after each.
            if out_of_time() {
                return false;
            }
        }
        self.advance_clock(end.saturating_sub(self.cluster.now()), out_of_time)
    }

    /// The time a pending `sim advance`/`sim settle` runs the clock to (at most), while
    /// it runs: the ticker then runs the clock as fast as the page allows, paused or
    /// not, instead of at the chosen speed.
    pub fn clock_goal(&self) -> Option<SimTime> {
        self.pending.as_ref().and_then(|(_, b)| b.clock_goal())
    }

    /// Run the clock to `t`: a pending `sim advance`/`sim settle` runs it (and may stop
    /// it sooner: settled), otherwise the timers simply run. False when out of time.
    fn run_to(&mut self, t: SimTime, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        match self.pending.as_mut() {
            Some((_, b)) if b.clock_goal().is_some() => {
                b.run_clock(&mut self.cluster, t, out_of_time)
            }
            _ => self.cluster.run_until_within(t, out_of_time),
        }
    }

    /// Whether a pending `sim advance`/`sim settle` got where it was going (the clock
    /// stops there, so the next poll reports it at that moment).
    fn clock_arrived(&self, was_running: bool) -> bool {
        was_running && self.clock_goal().is_none()
    }

    fn advance_clock(&mut self, ms: SimTime, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        let end = self.cluster.now() + ms;
        let watching = self.scenario.as_ref().is_some_and(|a| !a.tracker.all());
        if !watching {
            return self.run_to(end, out_of_time);
        }
        // The store revision at the last check here (and while the control plane is
        // stalled, the second: `Cluster::goal_epoch`). Goals read the store (`sim
        // expect`), so while it has not moved a check would find what the last one
        // found: the slices in which no timer fires are skipped, and goal checking
        // costs in proportion to what happens, not to simulated time (a week of idle
        // clock was six million checks). The first slice end is always checked: a
        // command or poll may have changed the world since the last check.
        let mut checked: Option<(u64, u64, u64, u64)> = None;
        // A run cut inside an instant is finished even when no time is left to play
        // (a replay slice that stopped there, an act at that very moment).
        while self.cluster.now() < end || self.cluster.is_mid_instant() {
            let now = self.cluster.now();
            let mut next = (now / scn::CHECK_EVERY + 1) * scn::CHECK_EVERY;
            if checked == Some(self.cluster.goal_epoch()) {
                // Nothing changed since the check: the next one that can differ is
                // at the end of the slice holding the next timer (none: nothing will).
                next = match self.cluster.next_event_time() {
                    Some(t) => next.max(t.div_ceil(scn::CHECK_EVERY) * scn::CHECK_EVERY),
                    None => end,
                };
            }
            let running = self.clock_goal().is_some();
            if !self.run_to(next.min(end), out_of_time) {
                return false;
            }
            if self.clock_arrived(running) {
                self.check_goals();
                return true;
            }
            if self.cluster.now() % scn::CHECK_EVERY == 0 {
                let epoch = self.cluster.goal_epoch();
                if checked != Some(epoch) {
                    self.check_goals();
                    checked = Some(self.cluster.goal_epoch());
                }
            }
            if self.scenario.as_ref().is_some_and(|a| a.tracker.all()) {
                // Every goal reached: nothing left to watch for.
                return self.run_to(end, out_of_time);
            }
        }
        true
    }

    /// Check the scenario's goals now.
    pub fn check_goals(&mut self) {
        if let Some(a) = self.scenario.as_mut() {
            self.goal_checks += 1;
            let newly = a.tracker.check(&a.scenario, &mut self.cluster);
            self.goals_reached.extend(newly);
        }
    }

    /// After a tick, whether a waiting command should look at the cluster (a journaled
    /// [`Act::Poll`]). Replaying a recorded future (after a rewind), the journal's own
    /// polls act. Inside an instant (a tick ran out of time there) the poll waits for a
    /// tick that ends between instants, where a replay can repeat it. A `sim
    /// advance`/`sim settle` on its way is polled once it got there, not every frame: it
    /// prints nothing before, and the journal stays short.
    pub fn wants_poll(&self) -> bool {
        self.pending.is_some()
            && self.clock_goal().is_none()
            && self.applied == self.journal.len()
            && !self.cluster.is_mid_instant()
    }
    /// Run text (one command, several lines, or a heredoc) as the console does,
    /// without journaling it (the caller journals the act). A blocking command stays
    /// pending, and later lines wait for it.
    pub fn run_text_unrecorded(&mut self, text: &str) {
        match script::parse(text, "console") {
            Ok(lines) => {
                self.queued.extend(lines);
                self.run_queued();
            }
            Err(e) => self.push(ConsoleEntry {
                command: text.trim().to_string(),
                output: format!("error: {e}\n"),
                ok: false,
            }),
        }
    }

    fn run_queued(&mut self) {
        while self.pending.is_none() {
            let Some(l) = self.queued.pop_front() else {
                return;
            };
            let before = self.cluster.now();
            let mut o = command::start(&mut self.cluster, &l.command, l.stdin.as_deref(), &NoFiles);
            if self.cluster.now() < before {
                // `sim reset` or `sim seed`: a new world, whose history starts here. A
                // replay starts from this line and what was queued behind it (the
                // lines before it acted on the old world, which is gone).
                let rest: Vec<String> = self.queued.iter().map(line_text).collect();
                self.restarted_with = Some(
                    std::iter::once(line_text(&l))
                        .chain(rest)
                        .collect::<Vec<_>>()
                        .join("\n"),
                );
            }
            let shown = l.shown();
            let blocking = o.blocking.take();
            self.push(ConsoleEntry {
                command: shown,
                output: o.output,
                ok: o.ok,
            });
            if let Some(b) = blocking {
                let idx = self.console.len() - 1;
                self.pending = Some((idx, b));
                self.poll_pending();
            }
        }
    }

    /// Let a pending command look at the cluster (after every tick and step).
    pub fn poll_pending(&mut self) {
        let Some((idx, mut b)) = self.pending.take() else {
            return;
        };
        // A running command sees the custom resources served now, as when it started.
        let served = crate::apiserver::custom::served(&self.cluster.store);
        let done = crate::apiserver::custom::scope(served, || b.poll(&mut self.cluster));
        let out = std::mem::take(&mut b.output);
        if let Some(e) = self.console.get_mut(idx) {
            e.output.push_str(&out);
            // A watch left running: the console keeps its entry's last part.
            command::wait::keep_tail(&mut e.output, command::wait::KEPT_OUTPUT);
            if done {
                e.ok = !b.failed;
            }
        }
        if done {
            self.run_queued();
        } else {
            self.pending = Some((idx, b));
        }
    }

    /// Ctrl+C: stop the pending command (it prints `^C`) and drop queued lines.
    pub fn stop_pending(&mut self) {
        if let Some((idx, mut b)) = self.pending.take() {
            let served = crate::apiserver::custom::served(&self.cluster.store);
            crate::apiserver::custom::scope(served, || b.interrupt(&mut self.cluster));
            if let Some(e) = self.console.get_mut(idx) {
                e.output.push_str(&b.output);
                e.ok = false;
            }
        }
        self.queued.clear();
    }

    /// Add a console entry, keeping the last [`CONSOLE_KEEP`].
    pub fn push(&mut self, e: ConsoleEntry) {
        self.console.push(e);
        let extra = self.console.len().saturating_sub(CONSOLE_KEEP);
        // Keep the pending entry's index right when old entries fall off.
        if extra > 0 && self.pending.as_ref().is_none_or(|(i, _)| *i >= extra) {
            self.console.drain(..extra);
            if let Some((i, _)) = self.pending.as_mut() {
                *i -= extra;
            }
        }
    }
}

/// A script line as text that parses back to it (a heredoc under a marker its body
/// does not hold).
pub fn line_text(l: &script::ScriptLine) -> String {
    let mark = if l.expect_error {
        format!(" {}", script::EXPECT_ERROR)
    } else {
        String::new()
    };
    match &l.stdin {
        None => format!("{}{mark}", l.command),
        Some(body) => {
            let eof = (0..)
                .map(|i| format!("EOF{}", if i == 0 { String::new() } else { i.to_string() }))
                .find(|m| !body.lines().any(|x| x.trim() == m))
                .unwrap_or_default();
            let nl = if body.ends_with('\n') || body.is_empty() {
                ""
            } else {
                "\n"
            };
            format!("{} <<{eof}{mark}\n{body}{nl}{eof}", l.command)
        }
    }
}

/// A lesson's starting world as the page opens it: its setup run, the goals checked
/// once, and the moments of the opening story (the world before each setup line, the
/// last one per instant), which a learner may rewind into and act from.
pub fn open_lesson(source: ScenarioSource) -> Result<(Machine, Vec<Cluster>), String> {
    // An author's text is checked before it runs: its setup runs in one piece.
    if let ScenarioSource::Yaml(y) = &source {
        crate::bounds::check_scenario_text(y).map_err(|e| e.text())?;
    }
    let scenario = source.parse()?;
    if let ScenarioSource::Yaml(_) = &source {
        crate::bounds::check_setup(&scenario.setup).map_err(|e| e.text())?;
    }
    let mut opening: Vec<Cluster> = Vec::new();
    let cluster = scn::build_observed(&scenario, Default::default(), &mut |c| {
        // One moment per instant: the last world seen at a time.
        if opening.last().is_some_and(|o| o.now() == c.now()) {
            opening.pop();
        }
        opening.push(c.clone());
    })?;
    let tracker = Tracker::new(&scenario);
    let mut m = Machine::new(cluster);
    m.scenario = Some(ActiveScenario {
        source,
        scenario,
        tracker,
    });
    m.check_goals();
    Ok((m, opening))
}

/// A lesson session replayed at once: the lesson opened, the journal's acts at their
/// times, then the clock to `now` — the world and goals the page showed (the page
/// replays a share link the same way, in slices). A journal whose first act came
/// inside the opening story starts from the opening's moment at or before it, as the
/// page's rewind does.
pub fn replay_lesson(
    source: ScenarioSource,
    journal: Vec<(SimTime, Act)>,
    now: SimTime,
) -> Result<Machine, String> {
    let (mut m, opening) = open_lesson(source)?;
    if let Some(&(first, _)) = journal.first() {
        if first < m.cluster.now() {
            if let Some(moment) = opening.iter().rev().find(|c| c.now() <= first) {
                m.cluster = moment.clone();
                if let Some(a) = m.scenario.as_mut() {
                    a.tracker = Tracker::new(&a.scenario);
                }
                m.advance(first.saturating_sub(m.cluster.now()));
                m.goals_reached.clear();
            }
        }
    }
    m.journal = journal;
    m.applied = 0;
    m.advance(now.saturating_sub(m.cluster.now()));
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_script_line_written_back_as_text_parses_to_the_same_line() {
        let text = "kubectl get pods\nkubectl frob # expect error\nkubectl apply -f - <<EOF\nkind: Pod\nEOF\nkubectl apply -f - <<END # expect error\nEOF\nkind: x\nEOF1\nEND\nsim settle\n";
        let lines = script::parse(text, "t").unwrap();
        assert_eq!(lines.len(), 5);
        for l in &lines {
            let back = script::parse(&line_text(l), "t").unwrap();
            assert_eq!(back.len(), 1, "{}", line_text(l));
            assert_eq!(
                (&back[0].command, &back[0].stdin, back[0].expect_error),
                (&l.command, &l.stdin, l.expect_error),
                "{}",
                line_text(l)
            );
        }
    }
}
