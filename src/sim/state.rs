//! The UI state behind the handle: the cluster, the clock's pace, the console and
//! its waiting command, the selection, the loaded lesson, and the journal of what the
//! learner did (the unit the share link and rewind replay).

use super::*;

/// Speeds offered by the toolbar, in tenths (×0.5 … ×60 simulated time per wall time):
/// tenths so half speed is an integer like the rest.
pub const SPEEDS_X10: [u32; 5] = [5, 10, 50, 300, 600];

/// `0.5×`, `30×`: a speed in tenths as the toolbar labels it.
pub fn speed_label(x10: u32) -> String {
    if x10 % 10 == 0 {
        format!("{}×", x10 / 10)
    } else {
        format!("{}.{}×", x10 / 10, x10 % 10)
    }
}

/// How many console entries are kept.
const CONSOLE_KEEP: usize = 200;

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

/// What the inspector shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// A Pod by name.
    Pod(String),
    /// A Node by name.
    Node(String),
    /// A Deployment by name.
    Deployment(String),
    /// A ReplicaSet by name.
    ReplicaSet(String),
    /// A Job by name.
    Job(String),
    /// A CronJob by name.
    CronJob(String),
    /// A DaemonSet by name.
    DaemonSet(String),
    /// A StatefulSet by name.
    StatefulSet(String),
}

impl Selection {
    /// The selected object's kind and key (namespace default for namespaced kinds).
    pub fn kind_key(
        &self,
    ) -> (
        kubeplay_engine::api::Kind,
        kubeplay_engine::apiserver::ObjKey,
    ) {
        use kubeplay_engine::api::Kind;
        use kubeplay_engine::apiserver::ObjKey;
        match self {
            Selection::Pod(n) => (Kind::Pod, ObjKey::new("default", n)),
            Selection::Node(n) => (Kind::Node, ObjKey::new("", n)),
            Selection::Deployment(n) => (Kind::Deployment, ObjKey::new("default", n)),
            Selection::ReplicaSet(n) => (Kind::ReplicaSet, ObjKey::new("default", n)),
            Selection::Job(n) => (Kind::Job, ObjKey::new("default", n)),
            Selection::CronJob(n) => (Kind::CronJob, ObjKey::new("default", n)),
            Selection::DaemonSet(n) => (Kind::DaemonSet, ObjKey::new("default", n)),
            Selection::StatefulSet(n) => (Kind::StatefulSet, ObjKey::new("default", n)),
        }
    }

    /// The selected object's name.
    pub fn name(&self) -> &str {
        match self {
            Selection::Pod(n)
            | Selection::Node(n)
            | Selection::Deployment(n)
            | Selection::ReplicaSet(n)
            | Selection::Job(n)
            | Selection::CronJob(n)
            | Selection::DaemonSet(n)
            | Selection::StatefulSet(n) => n,
        }
    }
}

/// The mutable state behind the handle.
pub struct SimState {
    /// The object the inspector shows.
    pub selected: Option<Selection>,
    /// The dock is unfolded (on a narrow screen, the bottom sheet is open).
    pub dock_open: bool,
    /// While rewound: the watch log of the furthest history recorded (the timeline
    /// greys its writes after now); dropped when a new act forks the history.
    pub future: Option<kubeplay_engine::apiserver::WatchLog>,
    /// Which world this is (a new one per load and per `sim reset`): views that keep
    /// something per world (the timeline's lanes) start over when it changes.
    pub world: u64,
    /// The cluster.
    pub cluster: Cluster,
    /// Whether the clock runs.
    pub playing: bool,
    /// Speed multiplier in tenths (10 = real time).
    pub speed_x10: u32,
    /// Slow motion after an action: for [`SLOW_SPAN`] of simulated time after a learner
    /// changes something, the clock plays at most at [`SLOW_X10`], so each step of the
    /// reconcile is a moment they can see (on by default in lessons).
    pub slow_motion: bool,
    /// Until when the slow motion lasts (simulated ms).
    pub slow_until: SimTime,
    /// What the last Step changed: its time and the writes it made.
    pub last_step: Option<(SimTime, Vec<String>)>,
    /// The last tick ran out of its wall-time budget before the clock reached where the
    /// chosen speed would put it: the simulation is running slower than chosen.
    pub lagging: bool,
    /// The last action's error, shown to the learner (kubectl's words).
    pub last_error: Option<String>,
    /// The equivalent command of the last click.
    pub last_command: Option<String>,
    /// The console transcript.
    pub console: Vec<ConsoleEntry>,
    /// Commands typed, oldest first (↑/↓).
    pub history: Vec<String>,
    /// A command waiting for the cluster (e.g. `kubectl rollout status`), with the index
    /// of its console entry: it finishes as the clock plays.
    pub pending: Option<(usize, Blocking)>,
    /// Lines of a multi-line input still to run after the pending one.
    pub(super) queued: VecDeque<script::ScriptLine>,
    /// The UI language.
    pub lang: crate::i18n::Lang,
    /// Snapshots for rewinding (the journal replays from them).
    pub timeline: Timeline<Rewindable>,
    /// How many of the journal's acts the current world includes (fewer than the
    /// journal holds after a rewind).
    pub(super) applied: usize,
    /// The lesson loaded, if any, and its goals' progress.
    pub scenario: Option<ActiveScenario>,
    /// Everything the learner did, with its simulated time: replaying it on the same
    /// starting world gives the same world (the share link carries it).
    pub journal: Vec<(SimTime, Act)>,
    /// Goals reached since the embedding page was last told (indexes).
    pub goals_reached: Vec<usize>,
    /// How the page was opened (embed mode, panels, read-only…).
    pub options: PageOptions,
    /// A shared session still being replayed (the page shows its progress).
    pub replay: Option<Replay>,
    /// What became of a replay the learner stopped (shown until the next one).
    pub replay_note: Option<crate::i18n::Said>,
    /// How many times the goals were checked (what the checks cost is followed by it).
    pub goal_checks: u64,
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

/// A number for each new world (see [`SimState::world`]).
fn next_world() -> u64 {
    use std::sync::atomic::{AtomicU64, Ordering};
    static WORLDS: AtomicU64 = AtomicU64::new(1);
    WORLDS.fetch_add(1, Ordering::Relaxed)
}

/// Simulated time the slow motion lasts after an action.
pub const SLOW_SPAN: SimTime = 5_000;

/// The slow-motion speed (in tenths): 0.3×, so a Pod's replacement (about 1.5 s at 1×)
/// takes about 5 s to watch.
pub const SLOW_X10: u32 = 3;

impl SimState {
    /// A fresh state around `cluster`, playing at 1×.
    pub fn new(cluster: Cluster) -> Self {
        let timeline = Timeline::new(
            cluster.now(),
            Rewindable {
                cluster: cluster.clone(),
                pending: None,
                queued: VecDeque::new(),
                tracker: None,
            },
        );
        SimState {
            timeline,
            applied: 0,
            selected: None,
            dock_open: false,
            future: None,
            world: next_world(),
            cluster,
            playing: true,
            speed_x10: 10,
            slow_motion: false,
            slow_until: 0,
            last_step: None,
            lagging: false,
            last_error: None,
            last_command: None,
            console: Vec::new(),
            history: Vec::new(),
            pending: None,
            queued: VecDeque::new(),
            lang: crate::i18n::Lang::En,
            scenario: None,
            journal: Vec::new(),
            goals_reached: Vec::new(),
            options: PageOptions::default(),
            replay: None,
            replay_note: None,
            goal_checks: 0,
        }
    }

    /// A fresh state on scenario `source`'s starting world (its setup run), playing.
    pub fn with_scenario(source: ScenarioSource) -> Result<Self, String> {
        // An author's text is checked before it runs: its setup runs in one piece.
        if let ScenarioSource::Yaml(y) = &source {
            check_scenario_text(y).map_err(|e| e.text())?;
        }
        let scenario = source.parse()?;
        if let ScenarioSource::Yaml(_) = &source {
            check_setup(&scenario.setup).map_err(|e| e.text())?;
        }
        let mut opening: Vec<Cluster> = Vec::new();
        let cluster = scn::build_observed(&scenario, Default::default(), &mut |c| {
            // One snapshot per moment: the last world seen at a time.
            if opening.last().is_some_and(|o| o.now() == c.now()) {
                opening.pop();
            }
            opening.push(c.clone());
        })?;
        let tracker = Tracker::new(&scenario);
        let mut s = SimState::new(cluster);
        s.slow_motion = true;
        s.playing = !scenario.paused;
        s.scenario = Some(ActiveScenario {
            source,
            scenario,
            tracker,
        });
        let fresh = s.scenario.as_ref().map(|a| Tracker::new(&a.scenario));
        s.check_goals();
        s.timeline = Timeline::with_opening(
            opening
                .into_iter()
                .map(|c| {
                    let t = c.now();
                    (t, Rewindable::at_rest(c, fresh.clone()))
                })
                .collect(),
            s.cluster.now(),
            s.rewindable(),
        );
        Ok(s)
    }

    /// A fresh state on the default world (three nodes and Deployment `web`), its
    /// opening story (created, scheduled, started) in its history.
    pub fn default_world() -> Self {
        let (opening, cluster) = crate::view::default_cluster_opening();
        let mut s = SimState::new(cluster);
        s.timeline = Timeline::with_opening(
            vec![(opening.now(), Rewindable::at_rest(opening, None))],
            s.cluster.now(),
            s.rewindable(),
        );
        s
    }

    /// Do `act` now and journal it. An act after a rewind forks the history: the acts
    /// that came after this moment are dropped. A command that changed nothing and
    /// left nothing waiting (a `kubectl get`) is not history, so it forks nothing.
    pub fn act(&mut self, act: Act) {
        // Acting during a replay stops it first, where it is (and the page says so).
        self.cancel_replay();
        // A tick may have stopped inside an instant: acts happen between instants.
        self.cluster.finish_instant();
        let before = (self.cluster.store.revision(), self.cluster.now());
        self.apply(&act);
        let changed = match &act {
            Act::Run(text) => {
                let mut words = text.split_whitespace();
                // `sim` faults live in the kubelets, not the store: they are history too.
                let sim_change = words.next() == Some("sim")
                    && !matches!(
                        words.next(),
                        Some("time" | "log" | "why" | "trace" | "expect")
                    );
                sim_change
                    || (self.cluster.store.revision(), self.cluster.now()) != before
                    || self.pending.is_some()
                    || !self.queued.is_empty()
            }
            _ => true,
        };
        if changed {
            let now = self.cluster.now();
            if now < before.1 {
                // The clock went back (`sim reset`): a new world, whose history starts
                // here, not a fork of the old one. It does not depend on the old world,
                // so the journal starts again with the reset (at 0:00, before anything
                // else: a share link replays it first), and the rewind reaches back to
                // this moment.
                self.journal.clear();
                self.journal.push((0, act));
                self.applied = 1;
                self.timeline = Timeline::new(now, self.rewindable());
                self.timeline.start_after_acts(self.applied);
                self.future = None;
                self.world = next_world();
                return;
            }
            if self.applied < self.journal.len() || now < self.timeline.horizon {
                self.journal.truncate(self.applied);
                self.timeline.fork(now, self.applied);
                self.future = None;
            }
            if !matches!(act, Act::Poll | Act::Step) {
                self.slow_until = now + SLOW_SPAN;
            }
            // Journaled at the moment it started (a Run's own clock moves are replayed).
            self.journal.push((before.1, act));
            self.applied += 1;
        }
    }

    /// Do `act` without journaling it (a replay).
    fn apply(&mut self, act: &Act) {
        // A `sim advance`/`sim settle` that got here is done before anything acts (the
        // clock is between instants here, live and in a replay alike).
        if let Some((_, b)) = self.pending.as_mut() {
            b.note_clock(&self.cluster);
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

    /// [`SimState::advance`] within a budget: `out_of_time()` is asked between
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

    /// Run a pending `sim advance`/`sim settle` to the end in one piece (the embedding
    /// page's commands), then let it print (a journaled poll, as the ticker's).
    pub fn finish_clock(&mut self) {
        while let Some(goal) = self.clock_goal() {
            self.advance_within(goal.saturating_sub(self.cluster.now()), &mut || false);
            self.tick_poll();
        }
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
        let mut checked: Option<(u64, u64, u64)> = None;
        while self.cluster.now() < end {
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

    /// After a tick: a waiting command looks at the cluster (a journaled act).
    pub fn tick_poll(&mut self) {
        // Replaying a recorded future (after a rewind), the journal's own polls act.
        // Inside an instant (a tick ran out of time there) the poll waits for a tick
        // that ends between instants, where a replay can repeat it.
        // A `sim advance`/`sim settle` on its way is polled once it got there, not
        // every frame: it prints nothing before, and the journal stays short.
        if self.pending.is_some()
            && self.clock_goal().is_none()
            && self.applied == self.journal.len()
            && !self.cluster.is_mid_instant()
        {
            self.act(Act::Poll);
        }
    }

    /// Run to the next visible change (a journaled act).
    pub fn step_once(&mut self) {
        let from = self.cluster.store.log.len();
        self.act(Act::Step);
        // Say what the step changed (the chain marks it too): the writes it made.
        let writes: Vec<String> = self
            .cluster
            .store
            .log
            .since(from)
            .filter(|e| e.kind != kubeplay_engine::api::Kind::Lease)
            .map(|e| {
                if e.kind == kubeplay_engine::api::Kind::Event {
                    format!("{} · Event {}", e.writer, e.reason)
                } else {
                    format!(
                        "{} · {} {}/{}",
                        e.writer,
                        e.verb,
                        e.kind.name().to_lowercase(),
                        e.key.name
                    )
                }
            })
            .collect();
        self.last_step = Some((self.cluster.now(), writes));
    }

    /// The speed the clock plays at now (tenths): the chosen one, or the slow motion
    /// after an action. A learner who chose more than 1× is skipping ahead on purpose,
    /// so the slow motion applies at 1× and below.
    pub fn effective_speed_x10(&self) -> u32 {
        if self.slow_motion && self.speed_x10 <= 10 && self.cluster.now() < self.slow_until {
            self.speed_x10.min(SLOW_X10)
        } else {
            self.speed_x10
        }
    }

    /// Run text (one command, several lines, or a heredoc) as the console does. A
    /// blocking command stays pending (and later lines wait for it) until the clock
    /// has played far enough.
    pub fn run_text(&mut self, text: &str) {
        self.act(Act::Run(text.to_string()));
    }

    fn run_text_unrecorded(&mut self, text: &str) {
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
            let mut o = command::start(&mut self.cluster, &l.command, l.stdin.as_deref(), &NoFiles);
            let shown = match &l.stdin {
                Some(_) => format!("{} <<EOF …", l.command),
                None => l.command.clone(),
            };
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
        let done = b.poll(&mut self.cluster);
        let out = std::mem::take(&mut b.output);
        if let Some(e) = self.console.get_mut(idx) {
            e.output.push_str(&out);
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

    /// Ctrl+C: stop the pending command and drop queued lines (a journaled act).
    pub fn interrupt(&mut self) {
        if self.pending.is_some() || !self.queued.is_empty() {
            self.act(Act::Interrupt);
        }
    }

    fn stop_pending(&mut self) {
        if let Some((idx, mut b)) = self.pending.take() {
            b.interrupt(&self.cluster);
            if let Some(e) = self.console.get_mut(idx) {
                e.output.push_str(&b.output);
                e.ok = false;
            }
        }
        self.queued.clear();
    }

    pub(super) fn push(&mut self, e: ConsoleEntry) {
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
