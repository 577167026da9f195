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

/// A learner's prediction for a "predict, then run" step, and what happened. Kept by
/// the page (not journaled): a share link carries what was done, not what was guessed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prediction {
    /// The guess: a choice's index, or the number as typed.
    pub guess: String,
    /// When the step ran.
    pub ran_at: SimTime,
    /// When a number question is read: the step's `wait` after its commands are done
    /// (while they run, the wait after it ran).
    pub read_at: SimTime,
    /// The step's commands still ran when last looked: `read_at` moves to the wait
    /// after they are done (a step of twenty `rollout status` takes minutes).
    pub commands_running: bool,
    /// Where the watch log was when it ran: the Events written since are the evidence.
    pub log_from: usize,
    /// What happened (a choice's index or the number read), and when it was seen.
    pub outcome: Option<(String, SimTime)>,
}

/// A lesson step the learner ran: the commands that ran (names filled in), and its
/// wait, with what its `look` showed once the wait was over. Kept by the page, as
/// predictions are.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepRun {
    /// The command lines that ran, as the console shows them.
    pub commands: Vec<String>,
    /// When it ran.
    pub ran_at: SimTime,
    /// When its wait is over (its `look` is read then); `ran_at` for a step that names
    /// no wait and has no look. Counted from when its commands are done.
    pub until: SimTime,
    /// Its commands still ran when last looked (see [`Prediction::commands_running`]).
    pub commands_running: bool,
    /// What its `look` showed once the wait was over.
    pub look: Option<String>,
}

impl StepRun {
    /// Simulated time left before the step's point shows (0: it has).
    pub fn left(&self, now: SimTime) -> SimTime {
        self.until.saturating_sub(now)
    }
}

/// The speed at which `left` of simulated time plays in about five seconds: the first
/// of [`SPEEDS_X10`] that is fast enough, else the fastest (the "speed up" offer).
pub fn speed_to_catch_up(left: SimTime) -> u32 {
    SPEEDS_X10
        .iter()
        .copied()
        .find(|&x10| left * 10 / u64::from(x10) <= 5_000)
        .unwrap_or(SPEEDS_X10[SPEEDS_X10.len() - 1])
}

/// The mutable state behind the handle.
pub struct SimState {
    /// The engine's side: the cluster, the console and its waiting command, the
    /// lesson's goals and the journal. Its fields read as the state's own (`Deref`).
    pub m: Machine,
    /// The object the inspector shows.
    pub selected: Option<Selection>,
    /// The dock is unfolded (on a narrow screen, the bottom sheet is open).
    pub dock_open: bool,
    /// While rewound: the watch log of the furthest history recorded (the timeline
    /// greys its writes after now); dropped when a new act forks the history.
    pub future: Option<kubeplay_engine::apiserver::WatchLog>,
    /// A `sim advance`/`sim settle` started by the learner's own act is running: the
    /// ticker runs it even while paused. One restored by a rewind or a share link
    /// waits for Play, so the learner can look at the moment they went to.
    pub clock_live: bool,
    /// The learner's predictions, by step.
    pub predictions: std::collections::BTreeMap<usize, Prediction>,
    /// The lesson steps run, by step.
    pub step_runs: std::collections::BTreeMap<usize, StepRun>,
    /// A second branch with one change, played beside this one ("what if"); what the
    /// learner does is done in both. A rewind closes it.
    pub fork: Option<kubeplay_engine::fork::Fork>,
    /// The world an imported session started from (`sim import` in the page): what a
    /// session script begins with. A share link cannot carry it (nothing leaves the
    /// page), so the page offers the snapshot instead.
    pub imported: Option<Box<Cluster>>,
    /// A share link's branch still to start when its replay reaches the fork's moment.
    pub(super) replay_fork: Option<ForkLink>,
    /// Which world this is (a new one per load and per `sim reset`): views that keep
    /// something per world (the timeline's lanes) start over when it changes.
    pub world: u64,
    /// The world in which the learner last acted (a click, a command): the page's
    /// one-line instruction steps aside there, and comes back in a new world.
    pub acted_in: Option<u64>,
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
    /// Commands typed, oldest first (↑/↓).
    pub history: Vec<String>,
    /// The UI language.
    pub lang: crate::i18n::Lang,
    /// Snapshots for rewinding (the journal replays from them).
    pub timeline: Timeline<Rewindable>,
    /// How the page was opened (embed mode, panels, read-only…).
    pub options: PageOptions,
    /// A shared session still being replayed (the page shows its progress).
    pub replay: Option<Replay>,
    /// What became of a replay the learner stopped (shown until the next one).
    pub replay_note: Option<crate::i18n::Said>,
    /// Controller code waiting for the learner's yes ([`super::consent`]).
    pub consent: Option<super::Consent>,
    /// The controller code the learner agreed to run.
    pub consented: std::collections::BTreeSet<String>,
}

impl std::ops::Deref for SimState {
    type Target = Machine;
    fn deref(&self) -> &Machine {
        &self.m
    }
}

impl std::ops::DerefMut for SimState {
    fn deref_mut(&mut self) -> &mut Machine {
        &mut self.m
    }
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
            m: Machine::new(cluster),
            timeline,
            selected: None,
            dock_open: false,
            future: None,
            world: next_world(),
            acted_in: None,
            clock_live: false,
            predictions: Default::default(),
            step_runs: Default::default(),
            fork: None,
            imported: None,
            replay_fork: None,
            playing: true,
            speed_x10: 10,
            slow_motion: false,
            slow_until: 0,
            last_step: None,
            lagging: false,
            last_error: None,
            last_command: None,
            history: Vec::new(),
            lang: crate::i18n::Lang::En,
            options: PageOptions::default(),
            replay: None,
            replay_note: None,
            consent: None,
            consented: Default::default(),
        }
    }

    /// A fresh state on scenario `source`'s starting world (its setup run), playing.
    pub fn with_scenario(source: ScenarioSource) -> Result<Self, String> {
        let (m, opening) = kubeplay_engine::session::open_lesson(source)?;
        let mut s = SimState::new(m.cluster.clone());
        s.m = m;
        s.slow_motion = true;
        s.playing = !s.scenario.as_ref().is_some_and(|a| a.scenario.paused);
        // A lesson opens with its step in view: on a narrow screen the sheet is open.
        s.dock_open = true;
        // A lesson that opens forked: the second branch, with its change, from here.
        if let Some(change) = s.scenario.as_ref().and_then(|a| a.scenario.fork.clone()) {
            s.fork = Some(kubeplay_engine::fork::Fork::start(&s.m, &change)?);
        }
        let fresh = s.scenario.as_ref().map(|a| Tracker::new(&a.scenario));
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

    /// A fresh state on an imported world (see [`kubeplay_engine::import`]): it opens
    /// paused, so the learner sees the world as it was before anything runs.
    pub fn imported_world(c: Cluster) -> Self {
        let mut s = SimState::new(c.clone());
        s.timeline = Timeline::with_opening(
            vec![(c.now(), Rewindable::at_rest(c.clone(), None))],
            s.cluster.now(),
            s.rewindable(),
        );
        s.playing = false;
        s.imported = Some(Box::new(c));
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
        self.m.restarted_with = None;
        self.apply(&act);
        // What the learner does is done in the other branch too, at the same moment.
        if let (Some(f), Act::Run(text)) = (self.fork.as_mut(), &act) {
            f.also(&self.m.cluster, text);
        }
        // A `sim advance`/`sim settle` the learner just started runs even while paused
        // (they asked for it); one restored by a rewind or a link waits for Play.
        self.clock_live =
            self.clock_goal().is_some() && (self.clock_live || matches!(act, Act::Run(_)));
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
                // The reset may have come from a line queued behind a waiting command
                // (run by a poll or a step): the journal starts with that line and
                // what was queued behind it, which replays it on any world.
                let act = self.m.restarted_with.take().map_or(act, Act::Run);
                self.fork = None;
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
                self.m.journal.truncate(self.m.applied);
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

    /// Run a pending `sim advance`/`sim settle` to the end in one piece (the embedding
    /// page's commands), then let it print (a journaled poll, as the ticker's).
    pub fn finish_clock(&mut self) {
        while let Some(goal) = self.clock_goal() {
            let behind = goal.saturating_sub(self.m.cluster.now());
            self.advance_all(behind, &mut || false);
            self.tick_poll();
        }
    }

    /// Play the clock `ms` on, within the budget: with a second branch, in slices that
    /// end on every [`scn::CHECK_EVERY`] boundary, the branch following at each, so the
    /// two are compared at the same moments live and in a share link's replay.
    pub fn advance_all(&mut self, ms: SimTime, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        if self.fork.is_none() {
            return self.m.advance_within(ms, out_of_time);
        }
        let end = self.m.cluster.now().saturating_add(ms);
        loop {
            // The branch catches up first and is compared where this one stands; out of
            // time, this one waits for it. It follows even when level: a slice that ran
            // out right after the branch got here (on an act of its own) has not
            // compared this moment yet, and the next slice must, or a replay cut
            // elsewhere than the live run would find a later first difference.
            // A replay's acts of this moment come first, as they did live: the learner
            // acted here, and the branch did it too (its journal has it) as it followed.
            let due = self.m.journal.get(self.m.applied);
            if due.is_some_and(|(t, _)| *t <= self.m.cluster.now())
                && !self.m.advance_within(0, out_of_time)
            {
                return false;
            }
            let (m, fork) = (&self.m, self.fork.as_mut());
            if let Some(f) = fork {
                if !f.follow(&m.cluster, out_of_time) {
                    return false;
                }
            }
            let now = self.m.cluster.now();
            let mid = self.m.cluster.is_mid_instant();
            if now >= end && !mid {
                return true;
            }
            // An instant cut short is finished first: a boundary is compared whole.
            let next = if mid {
                now
            } else {
                ((now / scn::CHECK_EVERY + 1) * scn::CHECK_EVERY).min(end)
            };
            if !self.m.advance_within(next.saturating_sub(now), out_of_time) {
                return false;
            }
        }
    }

    /// The next moment a step's look or prediction is to be read (after now): the clock
    /// stops there for a tick, so what the step shows is the world at the end of its
    /// wait, not a tick later (a Pod Pending for half a second is seen Pending).
    pub fn next_reading(&self) -> Option<SimTime> {
        let now = self.m.cluster.now();
        let looks = self
            .step_runs
            .values()
            .filter(|r| !r.commands_running && r.look.is_none() && r.until > now)
            .map(|r| r.until);
        let guesses = self
            .predictions
            .values()
            .filter(|p| !p.commands_running && p.outcome.is_none() && p.read_at > now)
            .map(|p| p.read_at);
        looks.chain(guesses).min()
    }

    /// Once a step's wait is over, what happened to its prediction: the first choice
    /// whose check holds (`-`: none does), or the number read; and what its `look`
    /// shows (run on a copy of the cluster: nothing changes).
    pub fn observe_predictions(&mut self) {
        let Some(a) = self.m.scenario.as_ref() else {
            return;
        };
        let now = self.m.cluster.now();
        // A step's wait counts from when its commands are done, as a lesson played
        // whole does (`scenario::runner`): a blocking command (`rollout status`) and
        // the lines queued behind it are part of the step.
        let busy = self.m.pending.is_some() || !self.m.queued.is_empty();
        for r in self.step_runs.values_mut() {
            if r.commands_running && !busy {
                r.commands_running = false;
                r.until = now + (r.until - r.ran_at);
            }
        }
        for p in self.predictions.values_mut() {
            if p.commands_running && !busy {
                p.commands_running = false;
                p.read_at = now + (p.read_at - p.ran_at);
            }
        }
        for (i, r) in self.step_runs.iter_mut() {
            if r.commands_running || r.look.is_some() || now < r.until {
                continue;
            }
            if let Some(st) = a.scenario.steps.get(*i) {
                r.look = scn::look(&self.m.cluster, st);
            }
        }
        for (i, p) in self.predictions.iter_mut() {
            if p.outcome.is_some() {
                continue;
            }
            let Some(q) = a.scenario.steps.get(*i).and_then(|st| st.predict.as_ref()) else {
                continue;
            };
            if p.commands_running || now < p.read_at {
                continue;
            }
            let seen = match &q.number {
                Some(n) => scn::read(&mut self.m.cluster, n).ok(),
                None => Some(
                    scn::observed_choice(&mut self.m.cluster, q)
                        .map_or_else(|| "-".to_string(), |k| k.to_string()),
                ),
            };
            if let Some(v) = seen {
                p.outcome = Some((v, now));
            }
        }
    }

    /// After a tick: a waiting command looks at the cluster (a journaled act; see
    /// [`Machine::wants_poll`]).
    pub fn tick_poll(&mut self) {
        if self.m.wants_poll() {
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

    /// Ctrl+C: stop the pending command and drop queued lines (a journaled act).
    pub fn interrupt(&mut self) {
        if self.pending.is_some() || !self.queued.is_empty() {
            self.act(Act::Interrupt);
        }
    }
}
