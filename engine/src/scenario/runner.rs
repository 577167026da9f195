//! The runner: a lesson played as a learner who follows every step would, with its
//! transcript ([`play`], [`Report`]), and what a step waits for and shows (`wait`,
//! `look`).

use super::build::build_with;
use super::format::{Scenario, Step};
use super::goals::{observed_choice, read, Tracker};
use super::placeholders::expand;
use crate::apiserver::FastPaths;
use crate::cluster::Cluster;
use crate::command::{self, args::parse_duration, script, NoFiles};
use crate::time::{clock_label, SimTime, SECOND};

/// The runner's own words, in English or Chinese.
fn words(lang: &str) -> [&'static str; 6] {
    in_lang2(
        lang,
        [
            "goals",
            "expected this command to fail",
            "this command failed",
            "expected the output to contain: ",
            "(none of the choices)",
            "after",
        ],
        [
            "目标",
            "这条命令本应失败",
            "这条命令失败了",
            "输出中应当包含：",
            "（没有一个选项成立）",
            "之后",
        ],
    )
}

fn in_lang2<T>(lang: &str, en: T, zh: T) -> T {
    if lang.starts_with("zh") {
        zh
    } else {
        en
    }
}

/// How long the clock plays after a step with no `wait`.
pub const DEFAULT_WAIT: SimTime = 30 * SECOND;

/// How long the clock plays after step `st` before its `look` and its prediction are
/// read: its `wait`, else [`DEFAULT_WAIT`].
pub fn step_wait(st: &Step) -> SimTime {
    st.wait
        .as_deref()
        .and_then(|w| parse_duration(w).ok())
        .unwrap_or(DEFAULT_WAIT)
}

/// What step `st` shows once its wait is over: each `look` command (`$ …`) and its
/// output, run on a copy of `c`, so nothing in `c` changes. None for a step without one.
pub fn look(c: &Cluster, st: &Step) -> Option<String> {
    let text = st.look.as_ref()?;
    let mut copy = c.clone();
    let text = match expand(&copy, text) {
        Ok(t) => t,
        Err(e) => return Some(format!("error: {e}\n")),
    };
    let lines = match script::parse(&text, "look") {
        Ok(l) => l,
        Err(e) => return Some(format!("{e}\n")),
    };
    let mut out = String::new();
    for l in &lines {
        let o = command::run(&mut copy, &l.command, l.stdin.as_deref(), &NoFiles);
        out.push_str(&format!("$ {}\n{}", l.command, o.output));
        if !o.output.is_empty() && !o.output.ends_with('\n') {
            out.push('\n');
        }
    }
    Some(out)
}

/// What [`play`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// `$ command` and output for every step, then the goals with when each was reached.
    pub transcript: String,
    /// Per goal: when it was reached.
    pub reached: Vec<Option<SimTime>>,
    /// Steps whose output lacked the text the scenario says it must contain.
    pub output_mismatches: Vec<usize>,
    /// Steps with a command that failed without being marked as meant to fail, or
    /// that succeeded although marked.
    pub unexpected_results: Vec<usize>,
    /// Per step: the command lines that ran, names filled in (what the learner saw).
    pub ran: Vec<Vec<String>>,
}

impl Report {
    /// Every goal reached, every step printed what it should, and every command
    /// succeeded or failed as the scenario says.
    pub fn passed(&self) -> bool {
        self.reached.iter().all(Option::is_some)
            && self.output_mismatches.is_empty()
            && self.unexpected_results.is_empty()
    }
}

/// Slice of simulated time between goal checks while playing: short enough to see a
/// story's intermediate states (a replacement Pending for a fraction of a second).
pub const CHECK_EVERY: SimTime = 100;

fn play_for(s: &Scenario, c: &mut Cluster, t: &mut Tracker, ms: SimTime, stop_when_done: bool) {
    let end = c.now().saturating_add(ms);
    let mut checked = c.goal_epoch();
    while c.now() < end {
        if stop_when_done && t.all() {
            return;
        }
        // Goals read the objects, which change only when something is written (or,
        // while the control plane is stalled, with the clock: `goal_epoch`): play
        // to the next timer (at most one slice), and check only after a write. Quiet
        // time then costs its timers, not one check per slice.
        let next = c.next_event_time().unwrap_or(end);
        let slice_end = c.now().saturating_add(CHECK_EVERY).min(end);
        c.run_until(next.max(c.now()).min(slice_end).max(c.now()));
        if c.next_event_time().is_none_or(|n| n > slice_end) {
            c.run_until(slice_end);
        }
        if c.goal_epoch() != checked {
            checked = c.goal_epoch();
            t.check(s, c);
        }
    }
}

/// Run a scenario as a learner who follows every step would: build it, then each
/// step's command with the clock playing `wait` after it, then play until every goal
/// is reached or the timeout passes.
pub fn play(s: &Scenario, lang: &str) -> Result<Report, String> {
    play_with(s, lang, FastPaths::ALL).map(|(r, _)| r)
}

/// [`play`] with the store's shortcuts set to `fast` (set before the scenario's
/// cluster is built), returning the cluster too: how a test compares the shortcuts
/// against the plain computations.
pub fn play_with(s: &Scenario, lang: &str, fast: FastPaths) -> Result<(Report, Cluster), String> {
    let mut c = build_with(s, fast)?;
    let mut t = Tracker::new(s);
    t.check(s, &mut c);
    let say = words(lang);
    let mut out = format!("# {}\n# {}\n", s.title.get(lang), s.description.get(lang));
    let mut mismatches = Vec::new();
    let mut unexpected = Vec::new();
    let mut ran = Vec::new();
    for (i, st) in s.steps.iter().enumerate() {
        out.push_str(&format!(
            "\n## {} {}\n",
            clock_label(c.now()),
            st.text.get(lang)
        ));
        let mut printed = String::new();
        let mut commands = Vec::new();
        if let Some(cmd) = &st.command {
            let text = expand(&c, cmd).map_err(|e| format!("steps[{i}]: {e}"))?;
            let lines = script::parse(&text, "step")?;
            let step_fails = st.expect.as_deref() == Some("error");
            for l in &lines {
                commands.push(l.command.clone());
                let o = command::run(&mut c, &l.command, l.stdin.as_deref(), &NoFiles);
                out.push_str(&format!("$ {}\n{}", l.command, o.output));
                printed.push_str(&o.output);
                if o.ok == (step_fails || l.expect_error) {
                    if !unexpected.contains(&i) {
                        unexpected.push(i);
                    }
                    out.push_str(&format!("!! {}\n", if o.ok { say[1] } else { say[2] }));
                }
                t.check(s, &mut c);
            }
        }
        ran.push(commands);
        let wait = step_wait(st);
        play_for(s, &mut c, &mut t, wait, false);
        // What the step shows once its wait is over.
        if let Some(seen) = look(&c, st) {
            let (at, after) = (
                clock_label(c.now()),
                crate::kubelet::format_go_duration(wait),
            );
            out.push_str(&in_lang2(
                lang,
                format!("-- {at} ({after} {})\n{seen}", say[5]),
                format!("-- {at}（{after} {}）\n{seen}", say[5]),
            ));
            printed.push_str(&seen);
        }
        for want in &st.output {
            if !printed.contains(want.as_str()) {
                mismatches.push(i);
                out.push_str(&format!("!! {}{want}\n", say[3]));
            }
        }
        // A "predict, then run" step: what happened, once the wait is over.
        if let Some(p) = &st.predict {
            let answer = match &p.number {
                Some(n) => read(&mut c, n).unwrap_or_else(|e| e),
                None => observed_choice(&mut c, p)
                    .map_or(say[4].to_string(), |k| p.choices[k].get(lang).to_string()),
            };
            out.push_str(&format!("?? {}\n=> {answer}\n", p.question.get(lang)));
        }
    }
    let timeout = s
        .timeout
        .as_deref()
        .map(parse_duration)
        .transpose()?
        .unwrap_or(15 * 60 * SECOND);
    play_for(s, &mut c, &mut t, timeout, true);
    out.push_str(&format!("\n## {}\n", say[0]));
    for (g, r) in s.goals.iter().zip(&t.reached) {
        match r {
            Some(at) => out.push_str(&format!(
                "[x] {} ({})\n",
                g.label.get(lang),
                clock_label(*at)
            )),
            None => out.push_str(&format!("[ ] {}   ({})\n", g.label.get(lang), g.expect)),
        }
    }
    Ok((
        Report {
            transcript: out,
            reached: t.reached,
            output_mismatches: mismatches,
            unexpected_results: unexpected,
            ran,
        },
        c,
    ))
}
