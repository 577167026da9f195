//! The simulation handle shared through a Yew context.

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::wait::Blocking;
use kubeplay_engine::command::{self, script, NoFiles};
use kubeplay_engine::scenario::{self as scn, Scenario, Tracker};
use kubeplay_engine::time::SimTime;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use yew::prelude::*;

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
        }
    }
}

/// The mutable state behind the handle.
pub struct SimState {
    /// The object the inspector shows.
    pub selected: Option<Selection>,
    /// The cluster.
    pub cluster: Cluster,
    /// Whether the clock runs.
    pub playing: bool,
    /// Speed multiplier in tenths (10 = real time).
    pub speed_x10: u32,
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
    queued: VecDeque<script::ScriptLine>,
    /// The UI language.
    pub lang: crate::i18n::Lang,
    /// Snapshots for rewinding (the journal replays from them).
    pub timeline: crate::timeline::Timeline<Rewindable>,
    /// How many of the journal's acts the current world includes (fewer than the
    /// journal holds after a rewind).
    applied: usize,
    /// The lesson loaded, if any, and its goals' progress.
    pub scenario: Option<ActiveScenario>,
    /// Everything the learner did, with its simulated time: replaying it on the same
    /// starting world gives the same world (the share link carries it).
    pub journal: Vec<(SimTime, Act)>,
    /// Goals reached since the embedding page was last told (indexes).
    pub goals_reached: Vec<usize>,
    /// How the page was opened (embed mode, panels, read-only…).
    pub options: PageOptions,
}

/// Page options from the URL's query.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageOptions {
    /// `embed=1`: the compact layout for an iframe.
    pub embed: bool,
    /// `panels=chain,board,timeline,console,goals` (None: all).
    pub panels: Option<Vec<String>>,
    /// `readonly=1`: the learner watches; no commands, no clicks that change anything.
    pub readonly: bool,
    /// `height=` in px (the iframe's initial height hint).
    pub height: Option<u32>,
    /// `allowOrigins=`: origins whose postMessage commands are obeyed (besides the
    /// page's own).
    pub allow_origins: Vec<String>,
}

impl PageOptions {
    /// Whether panel `name` is shown.
    pub fn shows(&self, name: &str) -> bool {
        self.panels
            .as_ref()
            .is_none_or(|p| p.iter().any(|x| x == name))
    }
}

/// What the URL asks for: query pairs and the hash.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UrlRequest {
    /// `?k=v` pairs, decoded.
    pub query: Vec<(String, String)>,
    /// The hash without `#`.
    pub hash: String,
}

impl UrlRequest {
    fn get(&self, k: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    }

    /// The state the URL describes, and an error to show if part of it was bad (the
    /// page then opens on the default playground rather than not at all).
    pub fn initial_state(&self) -> (SimState, Option<String>) {
        let flag = |k: &str| matches!(self.get(k), Some("1" | "true" | "yes"));
        let options = PageOptions {
            embed: flag("embed"),
            panels: self.get("panels").map(|p| {
                p.split(',')
                    .map(|x| x.trim().to_string())
                    .filter(|x| !x.is_empty())
                    .collect()
            }),
            readonly: flag("readonly"),
            height: self.get("height").and_then(|h| h.parse().ok()),
            allow_origins: self
                .get("allowOrigins")
                .map(|o| {
                    o.split(',')
                        .map(|x| x.trim().trim_end_matches('/').to_string())
                        .filter(|x| !x.is_empty())
                        .collect()
                })
                .unwrap_or_default(),
        };
        let mut error = None;
        let from_hash = if let Some(link) = self.hash.strip_prefix("s=") {
            Some(Session::decode(link).and_then(|s| SimState::from_session(&s)))
        } else {
            self.hash.strip_prefix("scenario=").map(|yaml| {
                kubeplay_engine::lz::decompress_from_uri(yaml)
                    .ok_or_else(|| "error: the scenario link is damaged".to_string())
                    .and_then(|y| SimState::with_scenario(ScenarioSource::Yaml(y)))
            })
        };
        let state = match from_hash {
            Some(Ok(s)) => Some(s),
            Some(Err(e)) => {
                error = Some(e);
                None
            }
            None => None,
        };
        let state = state.or_else(|| {
            let id = self.get("scenario")?;
            match SimState::with_scenario(ScenarioSource::Id(id.to_string())) {
                Ok(s) => Some(s),
                Err(e) => {
                    error = Some(e);
                    None
                }
            }
        });
        let mut s = state.unwrap_or_else(|| SimState::new(crate::view::default_cluster()));
        if let Some(x10) = self.get("speed").and_then(parse_speed) {
            s.speed_x10 = x10;
        }
        if matches!(self.get("autoplay"), Some("0" | "false" | "no")) {
            s.playing = false;
        }
        if let Some(l) = self.get("lang").and_then(crate::i18n::Lang::from_tag) {
            s.lang = l;
        }
        s.options = options;
        (s, error)
    }
}

/// `speed=` as tenths: `0.5` → 5, `30` → 300 (clamped to the toolbar's range).
pub fn parse_speed(v: &str) -> Option<u32> {
    let f: f64 = v.trim_end_matches(['x', '×']).parse().ok()?;
    if !f.is_finite() || f <= 0.0 {
        return None;
    }
    Some(((f * 10.0).round() as u32).clamp(5, 600))
}

/// What a snapshot keeps: the world and what the console was waiting on.
#[derive(Clone, Debug)]
pub struct Rewindable {
    cluster: Cluster,
    pending: Option<(usize, Blocking)>,
    queued: VecDeque<script::ScriptLine>,
    tracker: Option<Tracker>,
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

/// The longest simulated time a share link may ask for (a week).
pub const MAX_SHARED_TIME: SimTime = 7 * 24 * 3_600_000;

/// A whole session as the share link carries it: the starting world (a scenario, or the
/// default playground), what was done when, and the time shown.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Session {
    /// Format version (1).
    pub v: u32,
    /// The scenario, if one was loaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<ScenarioSource>,
    /// The journal.
    #[serde(default)]
    pub journal: Vec<(SimTime, Act)>,
    /// The simulated time shown.
    pub now: SimTime,
}

impl Session {
    /// The `#s=` value: JSON compressed with lz-string (URI-safe).
    pub fn encode(&self) -> String {
        kubeplay_engine::lz::compress_to_uri(&serde_json::to_string(self).unwrap_or_default())
    }

    /// Read a `#s=` value; a damaged link says so instead of loading half a session.
    pub fn decode(s: &str) -> Result<Session, String> {
        let json = kubeplay_engine::lz::decompress_from_uri(s)
            .ok_or("error: the share link is damaged (it does not decompress)")?;
        let session: Session = serde_json::from_str(&json)
            .map_err(|e| format!("error: the share link is damaged: {e}"))?;
        if session.v != 1 {
            return Err(format!(
                "error: the share link is version {}; this page reads version 1",
                session.v
            ));
        }
        // A forged link must not make the page simulate for ever: acts in time order,
        // none after the time shown, at most a week of simulated time.
        let ordered = session.journal.windows(2).all(|w| w[0].0 <= w[1].0);
        let in_time = session.journal.iter().all(|(t, _)| *t <= session.now);
        if !ordered || !in_time || session.now > MAX_SHARED_TIME {
            return Err("error: the share link is damaged (its times do not add up)".into());
        }
        Ok(session)
    }
}

impl SimState {
    /// A fresh state around `cluster`, playing at 1×.
    pub fn new(cluster: Cluster) -> Self {
        let timeline = crate::timeline::Timeline::new(
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
            cluster,
            playing: true,
            speed_x10: 10,
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
        }
    }

    /// A fresh state on scenario `source`'s starting world (its setup run), playing.
    pub fn with_scenario(source: ScenarioSource) -> Result<Self, String> {
        let scenario = source.parse()?;
        let cluster = scn::build(&scenario)?;
        let tracker = Tracker::new(&scenario);
        let mut s = SimState::new(cluster);
        s.scenario = Some(ActiveScenario {
            source,
            scenario,
            tracker,
        });
        s.check_goals();
        s.timeline = crate::timeline::Timeline::new(s.cluster.now(), s.rewindable());
        Ok(s)
    }

    /// The state a share link describes: its starting world, then every act at its
    /// time, then the clock to the time it showed.
    pub fn from_session(session: &Session) -> Result<Self, String> {
        let mut s = match &session.scenario {
            Some(src) => SimState::with_scenario(src.clone())?,
            None => SimState::new(crate::view::default_cluster()),
        };
        for (t, act) in &session.journal {
            let t = (*t).max(s.cluster.now());
            s.advance(t - s.cluster.now());
            s.observe();
            s.act(act.clone());
        }
        let end = session.now.max(s.cluster.now());
        s.advance(end - s.cluster.now());
        s.observe();
        Ok(s)
    }

    /// This session, for a share link.
    pub fn session(&self) -> Session {
        let now = self.cluster.now();
        Session {
            v: 1,
            scenario: self.scenario.as_ref().map(|a| a.source.clone()),
            // After a rewind, what the journal holds past now has not happened here.
            journal: self.journal[..self.applied].to_vec(),
            now,
        }
    }

    fn rewindable(&self) -> Rewindable {
        Rewindable {
            cluster: self.cluster.clone(),
            pending: self.pending.clone(),
            queued: self.queued.clone(),
            tracker: self.scenario.as_ref().map(|a| a.tracker.clone()),
        }
    }

    /// Do `act` now and journal it. An act after a rewind forks the history: the acts
    /// that came after this moment are dropped. A command that changed nothing and
    /// left nothing waiting (a `kubectl get`) is not history, so it forks nothing.
    pub fn act(&mut self, act: Act) {
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
            if self.applied < self.journal.len() || now < self.timeline.horizon {
                self.journal.truncate(self.applied);
                self.timeline.fork(now, self.applied);
            }
            // Journaled at the moment it started (a Run's own clock moves are replayed).
            self.journal.push((before.1, act));
            self.applied += 1;
        }
    }

    /// Do `act` without journaling it (a replay).
    fn apply(&mut self, act: &Act) {
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

    /// Play the clock `ms` forward. With goals still to reach, the clock moves in
    /// [`scn::CHECK_EVERY`] slices aligned to absolute time, checking after each, so a
    /// story's short-lived states are seen at any speed, and a replay checks at the same
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
            if !self.advance_clock(ts.saturating_sub(self.cluster.now()), out_of_time) {
                return false;
            }
            self.apply(&act);
            self.applied += 1;
        }
        self.advance_clock(end.saturating_sub(self.cluster.now()), out_of_time)
    }

    fn advance_clock(&mut self, ms: SimTime, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        let end = self.cluster.now() + ms;
        let watching = self.scenario.as_ref().is_some_and(|a| !a.tracker.all());
        if !watching {
            return self.cluster.run_until_within(end, out_of_time);
        }
        while self.cluster.now() < end {
            let next = (self.cluster.now() / scn::CHECK_EVERY + 1) * scn::CHECK_EVERY;
            if !self.cluster.run_until_within(next.min(end), out_of_time) {
                return false;
            }
            if self.cluster.now() % scn::CHECK_EVERY == 0 {
                self.check_goals();
            }
        }
        true
    }

    /// Check the scenario's goals now.
    pub fn check_goals(&mut self) {
        if let Some(a) = self.scenario.as_mut() {
            let newly = a.tracker.check(&a.scenario, &mut self.cluster);
            self.goals_reached.extend(newly);
        }
    }

    /// After a tick: a waiting command looks at the cluster (a journaled act).
    pub fn tick_poll(&mut self) {
        // Replaying a recorded future (after a rewind), the journal's own polls act.
        // Inside an instant (a tick ran out of time there) the poll waits for a tick
        // that ends between instants, where a replay can repeat it.
        if self.pending.is_some()
            && self.applied == self.journal.len()
            && !self.cluster.is_mid_instant()
        {
            self.act(Act::Poll);
        }
    }

    /// Run to the next visible change (a journaled act).
    pub fn step_once(&mut self) {
        self.act(Act::Step);
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

    /// The clock moved (tick or step): a snapshot when one is due.
    pub fn observe(&mut self) {
        let (now, applied) = (self.cluster.now(), self.applied);
        // Copy the world only when a snapshot is due.
        let weight = self.cluster.store.object_count();
        let snap = self.timeline.due(now, weight).then(|| self.rewindable());
        self.timeline.observe(now, applied, snap, weight);
    }

    /// Go to simulated time `t` within the recorded history (paused; a waiting command
    /// is stopped): the last snapshot before `t`, then the journal's acts up to `t`
    /// replayed at their times. The console is not rewound (it is the learner's
    /// transcript), so replayed commands print nowhere.
    pub fn seek(&mut self, t: SimTime) {
        let t = t.min(self.timeline.horizon.max(self.cluster.now()));
        let Some(snap) = self.timeline.before(t).cloned() else {
            return;
        };
        let console = std::mem::take(&mut self.console);
        let Rewindable {
            cluster,
            pending,
            queued,
            tracker,
        } = snap.state;
        self.cluster = cluster;
        self.pending = pending;
        self.queued = queued;
        if let (Some(a), Some(tr)) = (self.scenario.as_mut(), tracker) {
            a.tracker = tr;
        }
        self.applied = snap.acts;
        // Detach a waiting command from the console: it goes on acting as the clock
        // replays, but the transcript belongs to the present.
        if let Some((i, _)) = self.pending.as_mut() {
            *i = usize::MAX;
        }
        self.advance(t.saturating_sub(self.cluster.now()));
        if let Some((i, _)) = self.pending.as_mut() {
            *i = usize::MAX;
        }
        self.console = console;
        self.goals_reached.clear();
        self.playing = false;
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
            b.interrupt();
            if let Some(e) = self.console.get_mut(idx) {
                e.output.push_str(&b.output);
                e.ok = false;
            }
        }
        self.queued.clear();
    }

    fn push(&mut self, e: ConsoleEntry) {
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

/// A cheap, comparable handle: equality is by revision, so components re-render when
/// the simulation changed.
#[derive(Clone)]
pub struct SimHandle {
    /// Shared state.
    pub state: Rc<RefCell<SimState>>,
    /// Revision counter (bumped after every change).
    pub rev: u64,
    bump: Callback<()>,
}

impl PartialEq for SimHandle {
    fn eq(&self, other: &Self) -> bool {
        self.rev == other.rev && Rc::ptr_eq(&self.state, &other.state)
    }
}

impl SimHandle {
    /// A handle over `state`.
    pub fn new(state: Rc<RefCell<SimState>>, rev: u64, bump: Callback<()>) -> Self {
        SimHandle { state, rev, bump }
    }

    fn with<R>(&self, f: impl FnOnce(&mut SimState) -> R) -> R {
        let r = f(&mut self.state.borrow_mut());
        self.bump.emit(());
        r
    }

    /// Run what the learner typed in the console.
    pub fn run(&self, text: &str) {
        if self.readonly() {
            return;
        }
        self.with(|s| {
            if !text.trim().is_empty() {
                s.history.push(text.trim().to_string());
            }
            s.run_text(text);
        });
    }

    /// A click, as the command it stands for: it runs through the same command
    /// language and appears in the console, so the learner sees what to type.
    pub fn click(&self, command: String) {
        if self.readonly() {
            return;
        }
        self.with(|s| {
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
            None => SimState::new(crate::view::default_cluster()),
        };
        self.with(|s| {
            let (lang, speed, options) = (s.lang, s.speed_x10, s.options.clone());
            *s = fresh;
            s.lang = lang;
            s.speed_x10 = speed;
            s.options = options;
        });
        Ok(())
    }

    /// Run step `i` of the loaded scenario (its placeholders filled in now).
    pub fn run_step(&self, i: usize) {
        let cmd = {
            let s = self.state.borrow();
            let Some(a) = s.scenario.as_ref() else { return };
            let Some(c) = a.scenario.steps.get(i).and_then(|st| st.command.clone()) else {
                return;
            };
            scn::expand(&s.cluster, &c)
        };
        match cmd {
            Ok(c) => self.click(c.trim_end().to_string()),
            Err(e) => self.with(|s| s.last_error = Some(format!("error: {e}"))),
        }
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
        self.with(|s| {
            // `{pod:app=web}` and friends name objects whose names are random.
            let text = match scn::expand(&s.cluster, text) {
                Ok(t) => t,
                Err(e) => return (format!("error: {e}\n"), false),
            };
            let before = s.console.len();
            s.run_text(&text);
            let new = &s.console[before.min(s.console.len())..];
            let out: String = new.iter().map(|e| e.output.as_str()).collect();
            (out, new.iter().all(|e| e.ok))
        })
    }

    /// Play or pause explicitly.
    pub fn set_playing(&self, playing: bool) {
        self.with(|s| s.playing = playing);
    }

    /// Read-only page (`readonly=1`): the learner's clicks and console change nothing.
    pub fn readonly(&self) -> bool {
        self.state.borrow().options.readonly
    }

    /// `kubectl delete pod NAME` (not waiting, so the deletion can be watched).
    pub fn delete_pod(&self, name: &str) {
        self.click(format!("kubectl delete pod {name} --wait=false"));
    }

    /// `kubectl scale deployment NAME --replicas=N`.
    pub fn scale(&self, name: &str, replicas: i64) {
        self.click(format!(
            "kubectl scale deployment {name} --replicas={replicas}"
        ));
    }

    /// Power a node off, or back on.
    pub fn toggle_node_power(&self, name: &str) {
        let up = self.state.borrow().cluster.node_up(name);
        self.click(format!(
            "sim node {} {name}",
            if up { "down" } else { "up" }
        ));
    }

    /// Ctrl+C in the console.
    pub fn interrupt(&self) {
        self.with(|s| s.interrupt());
    }

    /// Show an object in the inspector (None closes it).
    pub fn select(&self, sel: Option<Selection>) {
        self.with(|s| s.selected = sel);
    }

    /// Play or pause.
    pub fn toggle_play(&self) {
        self.with(|s| s.playing = !s.playing);
    }

    /// Run to the next visible change.
    pub fn step(&self) {
        self.with(|s| {
            s.playing = false;
            s.step_once();
            s.observe();
        });
    }

    /// Rewind or fast-forward to `t` within the recorded history.
    pub fn seek(&self, t: SimTime) {
        self.with(|s| s.seek(t));
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

/// The page's URL as a [`UrlRequest`].
pub fn url_request() -> UrlRequest {
    let Some(w) = web_sys::window() else {
        return UrlRequest::default();
    };
    let loc = w.location();
    let mut query = Vec::new();
    if let Ok(p) = web_sys::UrlSearchParams::new_with_str(&loc.search().unwrap_or_default()) {
        for k in [
            "scenario",
            "embed",
            "panels",
            "lang",
            "speed",
            "autoplay",
            "readonly",
            "height",
            "allowOrigins",
        ] {
            if let Some(v) = p.get(k) {
                query.push((k.to_string(), v));
            }
        }
    }
    let hash = loc.hash().unwrap_or_default();
    UrlRequest {
        query,
        hash: hash.trim_start_matches('#').to_string(),
    }
}

/// The page's language at start: `?lang=zh|en`, else the browser's, else English.
pub fn initial_lang() -> crate::i18n::Lang {
    use crate::i18n::Lang;
    let Some(w) = web_sys::window() else {
        return Lang::En;
    };
    let from_url = w.location().search().ok().and_then(|q| {
        q.trim_start_matches('?')
            .split('&')
            .find_map(|kv| kv.strip_prefix("lang="))
            .and_then(Lang::from_tag)
    });
    from_url
        .or_else(|| w.navigator().language().as_deref().and_then(Lang::from_tag))
        .unwrap_or(Lang::En)
}

/// `<html lang>` follows the UI language (screen readers, CJK font selection).
pub fn set_document_lang(lang: crate::i18n::Lang) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute("lang", lang.code());
    }
}

/// The handle of the enclosing provider.
#[hook]
pub fn use_sim() -> SimHandle {
    // The provider wraps the whole app, so the context is always there.
    use_context::<SimHandle>().expect("SimHandle provider")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::default_cluster;

    #[test]
    fn a_blocking_command_waits_for_the_clock_and_later_lines_wait_for_it() {
        let mut s = SimState::new(default_cluster());
        s.run_text("kubectl scale deployment web --replicas=5\nkubectl rollout status deployment/web\nkubectl get deploy web");
        assert!(s.pending.is_some(), "rollout status is waiting");
        assert_eq!(s.console.len(), 2, "the get waits its turn");
        for _ in 0..100 {
            s.cluster.advance(100);
            s.poll_pending();
        }
        assert!(s.pending.is_none());
        assert_eq!(s.console.len(), 3);
        assert!(
            s.console[1]
                .output
                .ends_with("deployment \"web\" successfully rolled out\n"),
            "{}",
            s.console[1].output
        );
        assert!(
            s.console[2].output.contains("5/5"),
            "{}",
            s.console[2].output
        );
    }

    /// `kubectl delete pod` the first Pod, not waiting.
    fn delete_first_pod(s: &mut SimState) {
        let victim = s
            .cluster
            .store
            .list::<kubeplay_engine::api::Pod>()
            .next()
            .map(|p| p.metadata.name.clone())
            .unwrap_or_default();
        s.run_text(&format!("kubectl delete pod {victim} --wait=false"));
    }

    /// Play like the page does: ticks of `ms`, a poll after each, snapshots.
    fn play(s: &mut SimState, ticks: usize, ms: u64) {
        for _ in 0..ticks {
            s.advance(ms);
            s.tick_poll();
            s.observe();
        }
    }

    #[test]
    fn ticks_that_run_out_of_time_inside_an_instant_still_share_a_byte_identical_world() {
        let mut s = SimState::new(default_cluster());
        // A tick that may stop after any timer: out of time at every 7th question.
        let mut asked = 0u32;
        let mut stops = 0;
        let mut mid = 0;
        let mut tick = |s: &mut SimState, ms: u64| {
            let done = s.advance_within(ms, &mut || {
                asked += 1;
                asked % 7 == 0
            });
            stops += usize::from(!done);
            mid += usize::from(s.cluster.is_mid_instant());
            s.tick_poll();
            s.observe();
        };
        s.run_text("kubectl scale deployment web --replicas=12");
        for _ in 0..20 {
            tick(&mut s, 300);
        }
        // Each command comes while a tick has stopped inside an instant.
        let mut acted_mid = 0;
        for cmd in [
            "delete",
            "kubectl drain node-1 --ignore-daemonsets",
            "kubectl uncordon node-1",
        ] {
            for _ in 0..50 {
                if s.cluster.is_mid_instant() {
                    break;
                }
                tick(&mut s, 1000);
            }
            acted_mid += usize::from(s.cluster.is_mid_instant());
            match cmd {
                "delete" => delete_first_pod(&mut s),
                c => s.run_text(c),
            }
            for _ in 0..60 {
                tick(&mut s, 1000);
            }
        }
        assert_eq!(acted_mid, 3);
        for _ in 0..50 {
            tick(&mut s, 1000);
        }
        assert!(
            stops > 10 && mid > 0,
            "{stops} stops, {mid} inside an instant"
        );
        let back =
            SimState::from_session(&Session::decode(&s.session().encode()).unwrap()).unwrap();
        assert_eq!(back.cluster.now(), s.cluster.now());
        assert_eq!(back.cluster.transcript(), s.cluster.transcript());
        assert_eq!(back.console, s.console);
    }

    #[test]
    fn a_share_link_round_trips_to_a_byte_identical_world() {
        let mut s = SimState::new(default_cluster());
        play(&mut s, 7, 100);
        delete_first_pod(&mut s);
        play(&mut s, 13, 3000);
        s.run_text("kubectl scale deployment web --replicas=5");
        play(&mut s, 3, 500);
        // A blocking drain acts on polls as the clock plays.
        s.run_text("kubectl drain node-2 --ignore-daemonsets");
        play(&mut s, 40, 1500);
        s.step_once();
        s.run_text("kubectl uncordon node-2\nkubectl get pods");
        play(&mut s, 9, 50);
        let link = s.session().encode();
        let back = SimState::from_session(&Session::decode(&link).unwrap()).unwrap();
        assert_eq!(back.cluster.now(), s.cluster.now());
        assert_eq!(back.cluster.transcript(), s.cluster.transcript());
        assert_eq!(back.console, s.console);
        assert!(
            s.journal.iter().any(|(_, a)| *a == Act::Poll),
            "the drain was polled"
        );
    }

    #[test]
    fn rewinding_and_going_forward_again_gives_byte_identical_worlds() {
        let mut s = SimState::new(default_cluster());
        play(&mut s, 20, 700);
        delete_first_pod(&mut s);
        play(&mut s, 5, 700);
        let (t_mid, mid) = (s.cluster.now(), s.cluster.transcript());
        // (An act at t_mid itself would belong to t_mid: seeking to a time includes
        // what was done at it.)
        play(&mut s, 1, 700);
        s.run_text("kubectl drain node-1 --ignore-daemonsets");
        play(&mut s, 40, 700);
        let (t_end, end) = (s.cluster.now(), s.cluster.transcript());
        let console = s.console.clone();
        s.seek(t_mid);
        assert_eq!(s.cluster.now(), t_mid);
        assert_eq!(s.cluster.transcript(), mid);
        assert_eq!(s.console, console, "the transcript is not rewound");
        s.seek(t_end);
        assert_eq!(s.cluster.transcript(), end);
        // Back again, then Play: the recorded acts (the drain and its polls) replay.
        s.seek(t_mid);
        play(&mut s, 41, 700);
        assert_eq!(s.cluster.now(), t_end);
        assert_eq!(s.cluster.transcript(), end);
        assert_eq!(s.timeline.forked_at, None);
    }

    #[test]
    fn a_command_after_a_rewind_forks_the_history_but_a_get_does_not() {
        let mut s = SimState::new(default_cluster());
        s.run_text("kubectl scale deployment web --replicas=4");
        play(&mut s, 30, 1000);
        let t = s.cluster.now() - 15_000;
        s.seek(t);
        s.run_text("kubectl get pods");
        assert_eq!(s.timeline.forked_at, None);
        assert_eq!(s.journal.len(), 1);
        s.run_text("kubectl scale deployment web --replicas=2");
        assert_eq!(s.timeline.forked_at, Some(t));
        assert_eq!(s.journal.len(), 2);
        play(&mut s, 20, 1000);
        let spec = |s: &SimState| {
            s.cluster
                .store
                .get::<kubeplay_engine::api::Deployment>(&kubeplay_engine::apiserver::ObjKey::new(
                    "default", "web",
                ))
                .unwrap()
                .status
                .ready_replicas
        };
        assert_eq!(spec(&s), 2);
    }

    #[test]
    fn a_share_link_after_a_rewind_carries_only_what_happened_before_now() {
        let mut s = SimState::new(default_cluster());
        s.run_text("kubectl scale deployment web --replicas=4");
        play(&mut s, 30, 1000);
        let t = s.cluster.now() - 20_000;
        s.run_text("kubectl scale deployment web --replicas=1");
        play(&mut s, 10, 1000);
        s.seek(t);
        let at_t = s.cluster.transcript();
        let back = SimState::from_session(&s.session()).unwrap();
        assert_eq!(back.cluster.now(), t);
        assert_eq!(back.cluster.transcript(), at_t);
    }

    #[test]
    fn a_scenario_session_replays_with_its_goals_reached_at_the_same_moments() {
        let mut s =
            SimState::with_scenario(ScenarioSource::Id("gateway-delete-pod".into())).unwrap();
        let pod = kubeplay_engine::scenario::expand(&s.cluster, "{pod:app=gateway}").unwrap();
        play(&mut s, 3, 300);
        s.run_text(&format!("kubectl delete pod {pod} --wait=false"));
        play(&mut s, 10, 3000);
        let reached = s.scenario.as_ref().unwrap().tracker.reached.clone();
        assert!(reached.iter().all(Option::is_some), "{reached:?}");
        let back =
            SimState::from_session(&Session::decode(&s.session().encode()).unwrap()).unwrap();
        assert_eq!(back.scenario.as_ref().unwrap().tracker.reached, reached);
        assert_eq!(back.cluster.transcript(), s.cluster.transcript());
    }

    #[test]
    fn a_link_with_three_thousand_commands_still_round_trips() {
        let mut s = SimState::new(default_cluster());
        for i in 0..3_000u64 {
            s.run_text(&format!(
                "kubectl scale deployment web --replicas={}",
                1 + i % 4
            ));
            s.advance(200 + (i % 7) * 10);
            s.tick_poll();
        }
        let link = s.session().encode();
        // A figure, not a limit: Chromium takes URLs up to 2 MB, and the hash never
        // reaches a server.
        eprintln!("share link with 3000 commands: {} characters", link.len());
        let back = SimState::from_session(&Session::decode(&link).unwrap()).unwrap();
        assert_eq!(back.cluster.transcript(), s.cluster.transcript());
    }

    #[test]
    fn a_damaged_or_foreign_share_link_is_refused_with_a_reason() {
        assert!(Session::decode("!!!").unwrap_err().contains("damaged"));
        let not_json = kubeplay_engine::lz::compress_to_uri("hello");
        assert!(Session::decode(&not_json).unwrap_err().contains("damaged"));
        let forever = kubeplay_engine::lz::compress_to_uri(r#"{"v":1,"now":99999999999999}"#);
        assert!(Session::decode(&forever)
            .unwrap_err()
            .contains("times do not add up"));
        let unordered =
            kubeplay_engine::lz::compress_to_uri(r#"{"v":1,"now":10,"journal":[[9,"s"],[3,"s"]]}"#);
        assert!(Session::decode(&unordered).is_err());
        let v2 = kubeplay_engine::lz::compress_to_uri(r#"{"v":2,"now":0}"#);
        assert!(Session::decode(&v2).unwrap_err().contains("version 2"));
        let bad_scn = Session {
            v: 1,
            scenario: Some(ScenarioSource::Id("nope".into())),
            journal: vec![],
            now: 0,
        };
        assert!(SimState::from_session(&bad_scn).is_err());
    }

    fn req(query: &[(&str, &str)], hash: &str) -> UrlRequest {
        UrlRequest {
            query: query
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            hash: hash.into(),
        }
    }

    #[test]
    fn the_url_opens_a_scenario_in_embed_mode_with_its_options() {
        let (s, err) = req(
            &[
                ("scenario", "drain-with-pdb"),
                ("embed", "1"),
                ("panels", "chain, goals"),
                ("speed", "0.5"),
                ("autoplay", "0"),
                ("readonly", "1"),
                ("lang", "zh"),
                ("allowOrigins", "https://course.example/,https://b.example"),
            ],
            "",
        )
        .initial_state();
        assert_eq!(err, None);
        assert_eq!(s.scenario.as_ref().unwrap().scenario.id, "drain-with-pdb");
        assert!(s.options.embed && s.options.readonly && !s.playing);
        assert!(s.options.shows("goals") && !s.options.shows("console"));
        assert_eq!(s.speed_x10, 5);
        assert_eq!(s.lang, crate::i18n::Lang::Zh);
        assert_eq!(
            s.options.allow_origins,
            ["https://course.example", "https://b.example"]
        );
    }

    #[test]
    fn a_bad_url_opens_the_playground_and_says_what_was_wrong() {
        let (s, err) = req(&[("scenario", "no-such")], "").initial_state();
        assert!(s.scenario.is_none());
        assert_eq!(
            err.as_deref(),
            Some("error: no built-in scenario \"no-such\"")
        );
        let (_, err) = req(&[], "s=garbage!").initial_state();
        assert!(err.unwrap().contains("damaged"));
        let yaml = kubeplay_engine::lz::compress_to_uri("id: x\n");
        let (s, err) = req(&[], &format!("scenario={yaml}")).initial_state();
        assert!(s.scenario.is_none());
        assert!(
            err.unwrap().starts_with("error: scenario.yaml"),
            "a bad own scenario says where"
        );
        assert_eq!(parse_speed("60x"), Some(600));
        assert_eq!(parse_speed("1000"), Some(600));
        assert_eq!(parse_speed("-1"), None);
        assert_eq!(parse_speed("NaN"), None);
    }

    #[test]
    fn speeds_run_from_half_to_sixty_times_and_read_as_the_toolbar_shows_them() {
        assert_eq!(SPEEDS_X10.first(), Some(&5));
        assert_eq!(SPEEDS_X10.last(), Some(&600));
        let labels: Vec<String> = SPEEDS_X10.iter().map(|s| speed_label(*s)).collect();
        assert_eq!(labels, ["0.5×", "1×", "5×", "30×", "60×"]);
    }

    #[test]
    fn interrupting_drops_the_queue_and_marks_the_command_failed() {
        let mut s = SimState::new(default_cluster());
        s.run_text("kubectl wait --for=delete node/node-1 --timeout=1m\nkubectl get nodes");
        s.interrupt();
        assert!(s.pending.is_none());
        assert_eq!(s.console.len(), 1);
        assert!(!s.console[0].ok);
        assert_eq!(s.console[0].output, "^C\n");
    }
}
