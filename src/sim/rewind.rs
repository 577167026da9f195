//! Rewind: sparse snapshots of the deterministic engine plus the journal of what the
//! learner did. The world at any past time is the last snapshot before it, with the
//! journal's acts after that snapshot replayed at their times — the same seed and the
//! same acts give the same world, so going back and forward again is exact. An act
//! after a rewind forks the history: what came after is dropped (and the page says so).
//!
//! Snapshots are taken every [`Timeline::EVERY`] of simulated time (never per command:
//! a snapshot copies the world, and per-command copies made long sessions quadratic);
//! at most [`Timeline::MAX`] are kept, older ones thinned to every other one. A snapshot
//! of a large cluster is large (its maps and indexes are copied; the objects themselves
//! are shared), so the spacing grows with the number of objects and the snapshots
//! together hold at most [`Timeline::WEIGHT_BUDGET`] objects: at 150,000 Pods the page
//! keeps the start and the latest one, instead of running out of memory.

use super::*;

/// What a snapshot keeps: the world and what the console was waiting on.
#[derive(Clone, Debug)]
pub struct Rewindable {
    pub(super) cluster: Cluster,
    pub(super) pending: Option<(usize, Blocking)>,
    pub(super) queued: VecDeque<script::ScriptLine>,
    pub(super) tracker: Option<Tracker>,
}

impl Rewindable {
    /// `cluster` with nothing waiting (a moment of the opening story).
    pub(super) fn at_rest(cluster: Cluster, tracker: Option<Tracker>) -> Self {
        Rewindable {
            cluster,
            pending: None,
            queued: VecDeque::new(),
            tracker,
        }
    }
}

impl SimState {
    pub(super) fn rewindable(&self) -> Rewindable {
        Rewindable {
            cluster: self.cluster.clone(),
            pending: self.pending.clone(),
            queued: self.queued.clone(),
            tracker: self.scenario.as_ref().map(|a| a.tracker.clone()),
        }
    }

    /// The clock moved (tick or step): a snapshot when one is due.
    pub fn observe(&mut self) {
        let (now, applied) = (self.cluster.now(), self.applied);
        // Copy the world only when a snapshot is due.
        let weight = self.cluster.store.object_count();
        let snap = self.timeline.due(now, weight).then(|| self.rewindable());
        self.timeline.observe(now, applied, snap, weight);
        // Back at the live edge: nothing recorded lies ahead any more.
        if now >= self.timeline.horizon {
            self.future = None;
        }
    }

    /// Go to simulated time `t` within the recorded history (paused; a waiting command
    /// is stopped): the last snapshot before `t`, then the journal's acts up to `t`
    /// replayed at their times. The console is not rewound (it is the learner's
    /// transcript), so replayed commands print nowhere.
    pub fn seek(&mut self, t: SimTime) {
        // A replay still running stops first: seeking reaches only recorded history.
        self.cancel_replay();
        let t = t.min(self.timeline.horizon.max(self.cluster.now()));
        let Some(snap) = self.timeline.before(t).cloned() else {
            return;
        };
        // Going back from the furthest point: keep its log, so the timeline can show
        // what comes next (the log's chunks are shared, so this is cheap).
        if self.future.is_none() && t < self.cluster.now() {
            self.future = Some(self.cluster.store.log.clone());
        }
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
        self.m.advance(t.saturating_sub(self.m.cluster.now()));
        if let Some((i, _)) = self.pending.as_mut() {
            *i = usize::MAX;
        }
        self.console = console;
        if self.cluster.now() >= self.timeline.horizon {
            // Back at the live edge: nothing recorded lies ahead.
            self.future = None;
        }
        self.goals_reached.clear();
        self.playing = false;
        self.clock_live = false;
        // The other branch was played to now, not kept to be rewound: comparing goes on
        // from a fork made again.
        self.fork = None;
    }
}

/// One snapshot: when, how many journal acts it includes, and the state.
#[derive(Clone, Debug)]
pub struct Snap<T> {
    /// Simulated time.
    pub time: SimTime,
    /// Journal acts applied when it was taken.
    pub acts: usize,
    /// The state.
    pub state: T,
    /// What it costs to keep (objects in the cluster).
    pub weight: usize,
}

/// Snapshots and the furthest time reached.
#[derive(Clone, Debug)]
pub struct Timeline<T> {
    snaps: Vec<Snap<T>>,
    /// The furthest simulated time the history reaches.
    pub horizon: SimTime,
    /// Where the last fork happened (an act after a rewind).
    pub forked_at: Option<SimTime>,
}

impl<T: Clone> Timeline<T> {
    /// Simulated time between periodic snapshots.
    pub const EVERY: SimTime = 5_000;
    /// Most snapshots kept.
    pub const MAX: usize = 48;
    /// Most objects all snapshots may hold together (the start and the latest are
    /// always kept).
    pub const WEIGHT_BUDGET: usize = 1_000_000;
    /// Every this many objects add [`Self::EVERY`] to the spacing between snapshots.
    pub const WEIGHT_PER_EVERY: usize = 20_000;

    /// Simulated time between snapshots of a world of `weight` objects.
    pub fn interval(weight: usize) -> SimTime {
        Self::EVERY * (weight / Self::WEIGHT_PER_EVERY).max(1) as SimTime
    }

    /// A history that starts with `state` at `time`.
    pub fn new(time: SimTime, state: T) -> Self {
        Timeline {
            snaps: vec![Snap {
                time,
                acts: 0,
                state,
                weight: 0,
            }],
            horizon: time,
            forked_at: None,
        }
    }

    /// A history that starts with the `opening` moments (each the world at its time,
    /// before any act; the last one kept where several share a time) and reaches
    /// `state` at `time`: a learner can rewind into the opening story.
    pub fn with_opening(opening: Vec<(SimTime, T)>, time: SimTime, state: T) -> Self {
        let mut snaps: Vec<Snap<T>> = Vec::new();
        for (t, st) in opening.into_iter().filter(|(t, _)| *t < time) {
            if snaps.last().is_some_and(|s| s.time == t) {
                snaps.pop();
            }
            snaps.push(Snap {
                time: t,
                acts: 0,
                state: st,
                weight: 0,
            });
        }
        snaps.push(Snap {
            time,
            acts: 0,
            state,
            weight: 0,
        });
        Timeline {
            snaps,
            horizon: time,
            forked_at: None,
        }
    }

    /// The history's start includes the first `acts` journal acts (it began after them).
    pub fn start_after_acts(&mut self, acts: usize) {
        if let Some(first) = self.snaps.first_mut() {
            first.acts = acts;
        }
    }

    /// Snapshots held.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.snaps.len()
    }

    /// Whether a snapshot of a world of `weight` objects is due at `now`.
    pub fn due(&self, now: SimTime, weight: usize) -> bool {
        let last = self.snaps.last().map(|s| s.time).unwrap_or(0);
        now >= last + Self::interval(weight)
    }

    /// The clock is at `now` with `acts` journal acts applied: keep `state` (a world of
    /// `weight` objects) as a snapshot when one is due (the caller makes it only then,
    /// see [`Self::due`]).
    pub fn observe(&mut self, now: SimTime, acts: usize, state: Option<T>, weight: usize) {
        if let Some(state) = state.filter(|_| self.due(now, weight)) {
            self.snaps.push(Snap {
                time: now,
                acts,
                state,
                weight,
            });
            self.thin();
        }
        self.horizon = self.horizon.max(now);
    }

    /// A new act at `now` after a rewind, with `acts` acts applied before it: what was
    /// recorded later belongs to a history that no longer happens.
    pub fn fork(&mut self, now: SimTime, acts: usize) {
        self.forked_at = Some(now);
        // The first snapshot (the start) always stays.
        let first = self.snaps.first().cloned();
        self.snaps.retain(|s| s.time <= now && s.acts <= acts);
        if self.snaps.is_empty() {
            self.snaps.extend(first);
        }
        self.horizon = now;
    }

    /// The last snapshot at or before `t` that includes at most `max_acts` acts.
    pub fn before(&self, t: SimTime) -> Option<&Snap<T>> {
        self.snaps.iter().rev().find(|s| s.time <= t)
    }

    /// Keep at most MAX: drop every other snapshot in the older half (the first, the
    /// start of history, always stays).
    fn thin(&mut self) {
        // Over the weight budget: the oldest after the start goes first.
        while self.snaps.len() > 2
            && self.snaps.iter().map(|s| s.weight).sum::<usize>() > Self::WEIGHT_BUDGET
        {
            self.snaps.remove(1);
        }
        while self.snaps.len() > Self::MAX {
            let half = self.snaps.len() / 2;
            let mut kept = Vec::with_capacity(self.snaps.len());
            for (idx, s) in std::mem::take(&mut self.snaps).into_iter().enumerate() {
                if idx == 0 || idx >= half || idx % 2 == 0 {
                    kept.push(s);
                }
            }
            self.snaps = kept;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thinning_keeps_the_start_and_the_recent_past() {
        let mut tl = Timeline::new(0, 0u64);
        for i in 1..=200u64 {
            tl.observe(i * Timeline::<u64>::EVERY, 0, Some(i), 10);
        }
        assert!(tl.len() <= Timeline::<u64>::MAX);
        assert_eq!(tl.snaps[0].state, 0);
        assert_eq!(tl.snaps.last().unwrap().state, 200);
        assert_eq!(tl.before(123_456).map(|s| s.time <= 123_456), Some(true));
    }

    #[test]
    fn a_fork_drops_snapshots_after_it_but_keeps_the_start() {
        let mut tl = Timeline::new(0, 0u64);
        for i in 1..=10u64 {
            tl.observe(i * 5_000, i as usize, Some(i), 10);
        }
        tl.fork(12_000, 2);
        assert_eq!(tl.forked_at, Some(12_000));
        assert_eq!(tl.horizon, 12_000);
        assert_eq!(tl.before(u64::MAX).unwrap().time, 10_000);
        tl.fork(0, 0);
        assert_eq!(tl.before(u64::MAX).unwrap().time, 0);
    }

    #[test]
    fn a_large_world_is_snapshotted_less_often_and_kept_within_the_weight_budget() {
        let mut tl = Timeline::new(0, 0u64);
        // 600,000 objects: a snapshot every 30 × EVERY, and room for one besides the start.
        let w = 600_000;
        assert_eq!(Timeline::<u64>::interval(w), 30 * Timeline::<u64>::EVERY);
        assert!(!tl.due(29 * Timeline::<u64>::EVERY, w));
        for i in 1..=10u64 {
            let t = i * Timeline::<u64>::interval(w);
            assert!(tl.due(t, w));
            tl.observe(t, 0, Some(i), w);
        }
        assert_eq!(tl.len(), 2);
        assert_eq!(tl.snaps[0].state, 0, "the start stays");
        assert_eq!(tl.snaps[1].state, 10, "and the latest");
    }
}
