//! A run's steps and its outcome, and the script a failing run prints.

use crate::command::script::EXPECT_ERROR;

/// One command of a run: its line and its stdin (a manifest).
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The command line.
    pub line: String,
    /// What it reads on stdin.
    pub stdin: Option<String>,
}

impl Step {
    pub(super) fn new(line: impl Into<String>) -> Self {
        Step {
            line: line.into(),
            stdin: None,
        }
    }
}

/// What one run did and found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The cluster's seed.
    pub seed: u64,
    /// The random steps (without the healing that follows them).
    pub steps: Vec<Step>,
    /// Whether each step succeeded.
    pub ok: Vec<bool>,
    /// Every command's output and the final state: what the determinism check compares.
    pub transcript: String,
    /// Invariant violations and convergence failures, each with the time.
    pub violations: Vec<String>,
    /// `sim settle` returned settled.
    pub settled: bool,
}

impl Outcome {
    /// No violation, and the cluster settled and converged.
    pub fn passed(&self) -> bool {
        self.violations.is_empty()
    }

    /// The steps as a script for `kubeplay-cli run --seed SEED` (failing commands marked
    /// as meant to fail), ending with the healing and the settle.
    pub fn script(&self) -> String {
        let mut out = format!(
            "# kubeplay-cli --seed {} run THIS_FILE\n# {}\n",
            self.seed,
            self.violations
                .first()
                .map(String::as_str)
                .unwrap_or("passes")
        );
        for (s, ok) in self.steps.iter().zip(&self.ok) {
            let mark = if *ok {
                String::new()
            } else {
                format!(" {EXPECT_ERROR}")
            };
            match &s.stdin {
                Some(body) => out.push_str(&format!("{} <<EOF{mark}\n{body}EOF\n", s.line)),
                None => out.push_str(&format!("{}{mark}\n", s.line)),
            }
        }
        out.push_str("# then: every fault stops, and `sim settle --max 20m`\n");
        out
    }
}
