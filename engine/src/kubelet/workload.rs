//! What a container's process does, read from its `command` and `args`: how long it
//! runs and the code it exits with. A real runtime runs the program; the simulation
//! reads the few shell forms course material uses for batch work (`sleep 5`,
//! `sh -c "sleep 3; exit 1"`, `false`), so a Job's Pods finish, fail and are retried
//! the way the learner's manifest says.
//!
//! The rules, in order:
//! - no command and no args: the image's entrypoint, taken to be a server: it runs
//!   until stopped (nginx, redis…);
//! - `sleep N` (exec form, `N` in seconds or with an `s`/`m`/`h`/`d` suffix; `infinity`
//!   never ends): exits 0 after N;
//! - a shell script (`sh -c`, `bash -c`, `/bin/sh -c` …): its statements, split on
//!   `;`, `&&`, `||` and newlines, run in order: `sleep N` adds N, `exit N` ends with
//!   code N, `false` ends with code 1 (the script stops on it: a script that checks
//!   for errors, as batch scripts do), anything else (`echo`, `date`, `true`…) takes
//!   no time; the end of the script exits 0;
//! - anything else (`perl -e …`, `python job.py`): a program kubeplay cannot read. In
//!   a Pod that restarts Always it is a server and runs until stopped; in a batch Pod
//!   (OnFailure, Never) it does its work in [`BATCH_RUN`] and exits 0.

use crate::api::Container;
use crate::time::{SimTime, SECOND};

/// How long a batch program kubeplay cannot read runs before it exits 0.
pub const BATCH_RUN: SimTime = 5 * SECOND;

/// What the container's process does once started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Run {
    /// Runs until stopped.
    Forever,
    /// Exits with `code` after `after` ms.
    Exits {
        /// Run time.
        after: SimTime,
        /// Exit code.
        code: i64,
    },
}

/// What container `c` does in a Pod with `restart_policy`.
pub fn run_of(c: &Container, restart_policy: &str) -> Run {
    let argv: Vec<&str> = c
        .command
        .iter()
        .chain(c.args.iter())
        .map(String::as_str)
        .collect();
    if argv.is_empty() {
        return Run::Forever;
    }
    let prog = argv[0].rsplit('/').next().unwrap_or("");
    if prog == "sleep" {
        return match argv.get(1).map(|s| parse_sleep(s)) {
            Some(Some(t)) => Run::Exits { after: t, code: 0 },
            Some(None) if argv.get(1) == Some(&"infinity") => Run::Forever,
            _ => Run::Exits { after: 0, code: 1 },
        };
    }
    if matches!(prog, "sh" | "bash" | "ash" | "dash") {
        if let Some(i) = argv.iter().position(|a| *a == "-c") {
            return run_script(argv.get(i + 1).copied().unwrap_or(""));
        }
    }
    if matches!(prog, "true") {
        return Run::Exits { after: 0, code: 0 };
    }
    if matches!(prog, "false") {
        return Run::Exits { after: 0, code: 1 };
    }
    if restart_policy == "Always" {
        Run::Forever
    } else {
        Run::Exits {
            after: BATCH_RUN,
            code: 0,
        }
    }
}

/// A shell script's run (see the module docs).
fn run_script(script: &str) -> Run {
    let mut t: SimTime = 0;
    let statements = script
        .split(['\n', ';'])
        .flat_map(|s| s.split("&&"))
        .flat_map(|s| s.split("||"))
        .map(str::trim)
        .filter(|s| !s.is_empty());
    for stmt in statements {
        let mut words = stmt.split_whitespace();
        match words.next().unwrap_or("") {
            "sleep" => match words.next() {
                Some("infinity") => return Run::Forever,
                Some(n) => t = t.saturating_add(parse_sleep(n).unwrap_or(0)),
                None => {}
            },
            "exit" => {
                let code = words
                    .next()
                    .and_then(|c| c.parse::<i64>().ok())
                    .unwrap_or(0)
                    .rem_euclid(256);
                return Run::Exits { after: t, code };
            }
            "false" => return Run::Exits { after: t, code: 1 },
            // `while true; do …; done` and `tail -f`: a loop that never ends.
            "while" | "tail" if stmt.contains("true") || stmt.contains("-f") => {
                return Run::Forever;
            }
            _ => {}
        }
    }
    Run::Exits { after: t, code: 0 }
}

/// `sleep`'s operand: seconds, optionally fractional, with an `s`/`m`/`h`/`d` suffix.
fn parse_sleep(s: &str) -> Option<SimTime> {
    let (num, unit) = match s.char_indices().last()? {
        (i, 's') => (&s[..i], 1.0),
        (i, 'm') => (&s[..i], 60.0),
        (i, 'h') => (&s[..i], 3_600.0),
        (i, 'd') => (&s[..i], 86_400.0),
        _ => (s, 1.0),
    };
    let v: f64 = num.parse().ok()?;
    if !v.is_finite() || v < 0.0 {
        return None;
    }
    Some((v * unit * 1000.0).min(u64::MAX as f64 / 2.0) as SimTime)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(cmd: &[&str]) -> Container {
        Container {
            name: "c".into(),
            image: "busybox".into(),
            command: cmd.iter().map(|s| s.to_string()).collect(),
            ..Default::default()
        }
    }

    #[test]
    fn a_server_with_no_command_runs_until_stopped() {
        assert_eq!(run_of(&c(&[]), "Never"), Run::Forever);
    }

    #[test]
    fn sleep_exits_zero_after_its_operand() {
        assert_eq!(
            run_of(&c(&["sleep", "1.5m"]), "Always"),
            Run::Exits {
                after: 90_000,
                code: 0
            }
        );
        assert_eq!(run_of(&c(&["sleep", "infinity"]), "Never"), Run::Forever);
    }

    #[test]
    fn a_shell_script_sleeps_then_exits_with_its_code() {
        assert_eq!(
            run_of(&c(&["sh", "-c", "echo start; sleep 3 && exit 42"]), "Never"),
            Run::Exits {
                after: 3_000,
                code: 42
            }
        );
        assert_eq!(
            run_of(&c(&["/bin/sh", "-c", "sleep 2; false"]), "OnFailure"),
            Run::Exits {
                after: 2_000,
                code: 1
            }
        );
        assert_eq!(
            run_of(&c(&["sh", "-c", "while true; do sleep 1; done"]), "Always"),
            Run::Forever
        );
    }

    #[test]
    fn an_unreadable_program_is_a_server_or_a_batch_step_by_restart_policy() {
        let perl = c(&["perl", "-Mbignum=bpi", "-wle", "print bpi(2000)"]);
        assert_eq!(run_of(&perl, "Always"), Run::Forever);
        assert_eq!(
            run_of(&perl, "Never"),
            Run::Exits {
                after: BATCH_RUN,
                code: 0
            }
        );
    }
}
