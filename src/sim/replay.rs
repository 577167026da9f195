//! Opening what someone else wrote — a share link (`#s=`), an author's lesson link
//! (`#scenario=`), an embedding page's command — without freezing the page.
//!
//! Two defences:
//! - **bounds checked up front**: a link that is too long, holds too many recorded
//!   actions, shows a malformed or too distant time, or carries a command that asks for
//!   too much simulated time in one piece is refused with the reason, in the learner's
//!   language, before anything runs;
//! - **an incremental replay**: what is left — up to a week of simulated time — is
//!   replayed in slices of wall time across animation frames
//!   ([`SimState::replay_slice`]), with the progress shown and a cancel
//!   ([`SimState::cancel_replay`]) that stops at the last completed action.
//!
//! The bounds live in the engine (`kubeplay_engine::bounds`): a completion record's
//! verifier applies the same ones.

use super::*;

/// Wall milliseconds one animation frame may spend replaying: the rest of the frame
/// is left for painting and for the learner's clicks.
pub const REPLAY_SLICE_MS: f64 = 25.0;

/// A shared session being replayed (see [`SimState::replay_slice`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The simulated time the replay started at (the starting world's).
    pub from: SimTime,
    /// The simulated time the link showed: the replay ends there.
    pub target: SimTime,
}

impl Replay {
    /// How far the replay is, in thousandths of its simulated span.
    pub fn permille(&self, now: SimTime) -> u32 {
        let span = self.target.saturating_sub(self.from).max(1);
        let done = now.saturating_sub(self.from).min(span);
        // At most a week of milliseconds times 1000: no overflow in u64.
        (done * 1000 / span) as u32
    }
}

pub use kubeplay_engine::bounds::*;

impl SimState {
    /// How many of the journal's acts the world includes (during a replay: how many
    /// were replayed so far).
    pub fn replayed(&self) -> usize {
        self.applied
    }

    /// Replay some more of a shared session: until `out_of_time()` says so, or to its
    /// end. Returns true when nothing is left to replay. Where a slice stops does not
    /// change the world the replay reaches ([`SimState::advance_within`]).
    pub fn replay_slice(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        let Some(r) = self.replay.clone() else {
            return true;
        };
        // A link's controller runs only once the learner has chosen to run it.
        if self.consent.is_some() {
            return false;
        }
        // A branch in the link starts when the replay reaches its moment, then follows.
        if let Some(f) = self.replay_fork.clone() {
            // The branch was made between instants, after the acts this branch had done
            // by then: a slice that ran out inside the fork's instant finishes it first
            // (the next slice starts at the fork's time, still inside it), and an act
            // of the same moment made after the fork waits (it is in both journals).
            let acts = f.acts.unwrap_or(usize::MAX).min(self.m.journal.len());
            let c = &self.m.cluster;
            if c.now() < f.at || c.is_mid_instant() || self.m.applied < acts {
                let to = f.at.saturating_sub(c.now());
                let later = self.m.journal.split_off(acts.max(self.m.applied));
                let arrived = self.m.advance_within(to, out_of_time);
                self.m.journal.extend(later);
                if !arrived {
                    return false;
                }
            }
            self.fork = Some(kubeplay_engine::fork::Fork::resume(
                &self.m, f.at, &f.change, f.journal,
            ));
            self.replay_fork = None;
        }
        let done = self.advance_all(r.target.saturating_sub(self.m.cluster.now()), out_of_time);
        self.observe();
        if done {
            // A shared link shows the moment it was shared at: paused there.
            self.replay = None;
            self.playing = false;
        }
        done
    }

    /// Stop a replay where it is: the instant it stopped in is completed, the recorded
    /// actions not yet replayed are dropped (the world is the one the learner would
    /// have seen, paused at that moment), and the page says so.
    pub fn cancel_replay(&mut self) {
        let Some(r) = self.replay.take() else {
            return;
        };
        self.cluster.finish_instant();
        let (replayed, recorded) = (self.applied, self.journal.len());
        self.m.journal.truncate(self.m.applied);
        self.observe();
        self.playing = false;
        self.replay_note = Some(said(
            "Replay stopped at {} of {}: {} of {} recorded actions replayed, the rest dropped.",
            &[
                &kubeplay_engine::time::clock_label(self.cluster.now()),
                &kubeplay_engine::time::clock_label(r.target),
                &replayed,
                &recorded,
            ],
        ));
    }
}
