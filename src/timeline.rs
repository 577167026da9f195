//! Rewind: sparse snapshots of the deterministic engine. The cluster at any past time
//! is the last snapshot at or before it, advanced to it — the same seed and the same
//! commands give the same world, so replaying is exact. A command issued after a
//! rewind forks the history: what came after is dropped (and the page says so).
//!
//! Snapshots are taken every [`Timeline::EVERY`] of simulated time and right after
//! every command (commands are the only input the clock cannot replay); at most
//! [`Timeline::MAX`] are kept, older ones thinned to every other one.

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::time::SimTime;

/// Snapshots and the furthest time reached.
#[derive(Clone, Debug)]
pub struct Timeline {
    snaps: Vec<(SimTime, Cluster)>,
    /// The furthest simulated time the history reaches.
    pub horizon: SimTime,
    /// Where the last fork happened (a command after a rewind).
    pub forked_at: Option<SimTime>,
}

impl Timeline {
    /// Simulated time between periodic snapshots.
    pub const EVERY: SimTime = 5_000;
    /// Most snapshots kept.
    pub const MAX: usize = 48;

    /// A history that starts at `c`.
    pub fn new(c: &Cluster) -> Self {
        Timeline {
            snaps: vec![(c.now(), c.clone())],
            horizon: c.now(),
            forked_at: None,
        }
    }

    /// Snapshots held.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.snaps.len()
    }

    /// The clock moved with no command: snapshot when one is due.
    pub fn observe(&mut self, c: &Cluster) {
        let last = self.snaps.last().map(|(t, _)| *t).unwrap_or(0);
        if c.now() >= last + Self::EVERY {
            self.snaps.push((c.now(), c.clone()));
            self.thin();
        }
        self.horizon = self.horizon.max(c.now());
    }

    /// A command changed the world at `c.now()`: anything recorded after now belongs
    /// to a history that no longer happens.
    pub fn command(&mut self, c: &Cluster) {
        let now = c.now();
        if now < self.horizon {
            self.forked_at = Some(now);
            self.snaps.retain(|(t, _)| *t <= now);
            self.horizon = now;
        }
        self.snaps.push((now, c.clone()));
        self.thin();
    }

    /// The cluster at `t` (clamped to the history): the last snapshot at or before it,
    /// advanced to it.
    pub fn at(&self, t: SimTime) -> Option<Cluster> {
        let t = t.min(self.horizon);
        let (ts, c) = self.snaps.iter().rev().find(|(ts, _)| *ts <= t)?;
        let mut c = c.clone();
        c.advance(t - ts);
        Some(c)
    }

    /// Keep at most MAX: drop every other snapshot in the older half (the first, the
    /// start of history, always stays).
    fn thin(&mut self) {
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
    use kubeplay_engine::api::Pod;
    use kubeplay_engine::command::{run, NoFiles};

    fn names(c: &Cluster) -> Vec<(String, String, String)> {
        c.store
            .list::<Pod>()
            .map(|p| {
                (
                    p.metadata.name.clone(),
                    p.spec.node_name.clone(),
                    p.status.phase.clone(),
                )
            })
            .collect()
    }

    #[test]
    fn going_back_and_forth_reproduces_the_same_world_byte_for_byte() {
        let mut c = crate::view::default_cluster();
        let mut tl = Timeline::new(&c);
        for _ in 0..40 {
            c.advance(700);
            tl.observe(&c);
        }
        let t_cmd = c.now();
        let o = run(
            &mut c,
            "kubectl delete pod -l app=web --wait=false",
            None,
            &NoFiles,
        );
        assert!(o.ok);
        tl.command(&c);
        for _ in 0..60 {
            c.advance(700);
            tl.observe(&c);
        }
        let end = c.now();
        let at_end = tl.at(end).unwrap();
        assert_eq!(names(&at_end), names(&c));
        assert_eq!(at_end.store.log.len(), c.store.log.len());
        // Before the deletion the old Pods are there; after it, their replacements.
        let before = tl.at(t_cmd - 1).unwrap();
        assert_ne!(names(&before), names(&c));
        let mid = 19_300;
        let a = tl.at(mid).unwrap();
        let b = tl.at(mid).unwrap();
        assert_eq!(names(&a), names(&b));
        assert_eq!(a.store.log.len(), b.store.log.len());
        assert!(tl.len() <= Timeline::MAX);
    }

    #[test]
    fn a_command_after_a_rewind_forks_the_history() {
        let mut c = crate::view::default_cluster();
        let t0 = c.now();
        let mut tl = Timeline::new(&c);
        for _ in 0..30 {
            c.advance(1_000);
            tl.observe(&c);
        }
        assert_eq!(tl.horizon, t0 + 30_000);
        let mut past = tl.at(t0 + 10_000).unwrap();
        let o = run(
            &mut past,
            "kubectl scale deployment web --replicas=5",
            None,
            &NoFiles,
        );
        assert!(o.ok);
        tl.command(&past);
        assert_eq!(tl.forked_at, Some(t0 + 10_000));
        assert_eq!(tl.horizon, t0 + 10_000);
        // The history now continues from the forked world.
        past.advance(5_000);
        tl.observe(&past);
        let now = tl.at(t0 + 15_000).unwrap();
        assert_eq!(names(&now), names(&past));
    }

    #[test]
    fn thinning_keeps_the_start_and_the_recent_past() {
        let mut c = crate::view::default_cluster();
        let t0 = c.now();
        let mut tl = Timeline::new(&c);
        for _ in 0..200 {
            c.advance(Timeline::EVERY);
            tl.observe(&c);
        }
        assert!(tl.len() <= Timeline::MAX);
        assert_eq!(tl.snaps[0].0, t0);
        assert_eq!(tl.snaps.last().unwrap().0, c.now());
        // Any time is still reachable.
        assert!(tl.at(123_456).is_some());
    }
}
