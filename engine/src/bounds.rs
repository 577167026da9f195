//! Bounds on what someone else wrote: a share link, an embedding page's command, an
//! author's lesson, a completion record sent to a verifier. Each is refused with the
//! reason, before anything runs, when it asks for more than a learner's page (or a
//! course server) should spend on it.

use crate::command::args::{flag, parse_duration, parse_flags, split_words};
use crate::command::script;
use crate::explain::Phrase as Said;
use crate::time::{human_duration, SimTime, MINUTE};

/// The longest `#s=` / `#scenario=` value the page opens, in characters. A session of
/// 3,000 commands is about 20,000 characters; the bound leaves room for long pasted
/// manifests while keeping the decompression and JSON parse small.
pub const MAX_LINK_CHARS: usize = 200_000;

/// The longest simulated time a share link may ask for (a week).
pub const MAX_SHARED_TIME: SimTime = 7 * 24 * 3_600_000;

/// The most journal entries (commands, polls, steps) a share link may hold.
pub const MAX_JOURNAL_ACTS: usize = 10_000;

/// The longest one command text (a line, several lines or a heredoc) in a share link
/// or from an embedding page, in characters.
pub const MAX_COMMAND_CHARS: usize = 20_000;

/// The longest author scenario (`#scenario=` or the embed API's `load {yaml}`),
/// decompressed, in characters.
pub const MAX_SCENARIO_CHARS: usize = 200_000;

/// The most simulated time one command from a link or an embedding page may ask for
/// (`sim advance D`, `sim settle --max D`), and a scenario's setup in all. An
/// embedding page's command and a setup run in one piece (the caller waits for what
/// they print), so their cost is bounded here; the console's run in slices, but a
/// link's are bounded alike, so a link cannot ask a page for more than it shows.
pub const MAX_COMMAND_SPAN: SimTime = 6 * 60 * MINUTE;

/// A [`Said`] from its English template and values (the key the page translates).
pub fn said(template: &'static str, args: &[&dyn std::fmt::Display]) -> Said {
    crate::explain::phrase(template, args)
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
