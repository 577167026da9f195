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
//! A single command cannot yield (`sim advance 6h` runs inside one engine call), which
//! is why one command's span has its own, smaller bound ([`MAX_COMMAND_SPAN`]).

use super::*;
use crate::i18n::Said;
use kubeplay_engine::command::args::{flag, parse_duration, parse_flags, split_words};
use kubeplay_engine::time::{human_duration, MINUTE};

/// The longest `#s=` / `#scenario=` value the page opens, in characters. A session of
/// 3,000 commands is about 20,000 characters; the bound leaves room for long pasted
/// manifests while keeping the decompression and JSON parse small.
pub const MAX_LINK_CHARS: usize = 200_000;

/// The most journal entries (commands, polls, steps) a share link may hold.
pub const MAX_JOURNAL_ACTS: usize = 10_000;

/// The longest one command text (a line, several lines or a heredoc) in a share link
/// or from an embedding page, in characters.
pub const MAX_COMMAND_CHARS: usize = 20_000;

/// The longest author scenario (`#scenario=` or the embed API's `load {yaml}`),
/// decompressed, in characters.
pub const MAX_SCENARIO_CHARS: usize = 200_000;

/// The most simulated time one command from a link or an embedding page may ask for
/// (`sim advance D`, `sim settle --max D`), and a scenario's setup in all: such a
/// command runs inside one engine call, which cannot yield to the page, so its cost is
/// bounded here. Longer spans are played by the clock (which does yield).
pub const MAX_COMMAND_SPAN: SimTime = 6 * 60 * MINUTE;

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

/// A [`Said`] from its English template and values (the key the page translates).
pub fn said(template: &'static str, args: &[&dyn std::fmt::Display]) -> Said {
    kubeplay_engine::explain::phrase(template, args)
}

/// How much simulated time `text` asks for in one piece: the sum of its `sim advance`
/// durations and `sim settle` bounds (10 minutes when not given). Lines that do not
/// parse ask for nothing (the engine refuses them when they run).
pub fn asked_span(text: &str) -> SimTime {
    let Ok(lines) = script::parse(text, "link") else {
        return 0;
    };
    lines
        .iter()
        .map(|l| {
            let Ok(words) = split_words(&l.command) else {
                return 0;
            };
            match words.iter().map(String::as_str).collect::<Vec<_>>()[..] {
                ["sim", "advance", d, ..] => parse_duration(d).unwrap_or(0),
                ["sim", "settle", ..] => parse_flags(&words[2..], &[flag("max", None)], "")
                    .ok()
                    .map(|p| p.get("max").map_or(Ok(10 * MINUTE), parse_duration))
                    .and_then(Result::ok)
                    .unwrap_or(0),
                _ => 0,
            }
        })
        .fold(0, SimTime::saturating_add)
}

/// Whether one command from a link or an embedding page may run: not too long, and not
/// asking for more than [`MAX_COMMAND_SPAN`] of simulated time in one piece.
pub fn check_command(text: &str) -> Result<(), Said> {
    let chars = text.chars().count();
    if chars > MAX_COMMAND_CHARS {
        return Err(said(
            "error: a command is too long: {} characters (at most {})",
            &[&chars, &MAX_COMMAND_CHARS],
        ));
    }
    let span = asked_span(text);
    if span > MAX_COMMAND_SPAN {
        return Err(said(
            "error: a command asks for {} of simulated time in one piece (at most {}): {}",
            &[
                &human_duration(span),
                &human_duration(MAX_COMMAND_SPAN),
                &text.lines().next().unwrap_or_default().trim(),
            ],
        ));
    }
    Ok(())
}

/// Whether an author's scenario text may be loaded: not too long, and a setup that asks
/// for at most [`MAX_COMMAND_SPAN`] of simulated time (it runs in one piece).
pub fn check_scenario_text(yaml: &str) -> Result<(), Said> {
    let chars = yaml.chars().count();
    if chars > MAX_SCENARIO_CHARS {
        return Err(said(
            "error: the scenario is too long: {} characters (at most {})",
            &[&chars, &MAX_SCENARIO_CHARS],
        ));
    }
    Ok(())
}

/// Whether a parsed scenario's setup may run (see [`check_scenario_text`]).
pub fn check_setup(setup: &str) -> Result<(), Said> {
    let span = asked_span(setup);
    if span > MAX_COMMAND_SPAN {
        return Err(said(
            "error: the scenario's setup asks for {} of simulated time (at most {})",
            &[&human_duration(span), &human_duration(MAX_COMMAND_SPAN)],
        ));
    }
    Ok(())
}

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
        let done = self
            .m
            .advance_within(r.target.saturating_sub(self.m.cluster.now()), out_of_time);
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
