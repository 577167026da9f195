//! Seeded random fault runs (see `kubeplay_engine::fault_runs`): each run is checked
//! after every step, healed, and checked for convergence; each is run twice and must
//! be byte-identical. Prints one line per run with its digest, and for a failing run
//! a minimal reproducing script.
//!
//! ```text
//! cargo run --release -p kubeplay-engine --example fault_runs -- --runs 10000
//! ```
//!
//! `--runs N` (default 100), `--first S` (first seed, default 1), `--steps K` (actions per
//! run, default 40), `--show SEED` (print that run's whole transcript instead),
//! `--no-shrink` (report failures without minimising them). Exits 1 if any run failed.
//!
//! The digests also tell two builds apart: a refactor that must not change behaviour
//! compares its digests before and after.

use kubeplay_engine::fault_runs::{run, shrink};
use std::process::ExitCode;

/// FNV-1a, 64 bits: a digest that needs no dependency.
fn fnv64(s: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().collect();
    let opt = |k: &str, d: u64| -> u64 {
        argv.iter()
            .position(|a| a == k)
            .and_then(|i| argv.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let steps = opt("--steps", 40) as usize;
    if let Some(seed) = argv
        .iter()
        .position(|a| a == "--show")
        .and_then(|i| argv.get(i + 1))
        .and_then(|v| v.parse::<u64>().ok())
    {
        let o = run(seed, steps);
        print!("{}", o.transcript);
        for v in &o.violations {
            println!("VIOLATION {v}");
        }
        return ExitCode::SUCCESS;
    }
    let first = opt("--first", 1);
    let runs = opt("--runs", 100);
    let minimise = !argv.iter().any(|a| a == "--no-shrink");
    let mut all: u64 = 0;
    let (mut failed, mut unsettled, mut nondeterministic) = (0, 0, 0);
    for seed in first..first + runs {
        let o = run(seed, steps);
        let h = fnv64(&o.transcript);
        all = all.rotate_left(7) ^ h;
        let again = fnv64(&run(seed, steps).transcript);
        if again != h {
            nondeterministic += 1;
        }
        unsettled += u64::from(!o.settled);
        println!(
            "seed {seed}: {h:016x} ({} lines, {}{})",
            o.transcript.lines().count(),
            if o.passed() { "converged" } else { "FAILED" },
            if again == h {
                ""
            } else {
                ", NOT DETERMINISTIC"
            }
        );
        if !o.passed() {
            failed += 1;
            for v in &o.violations {
                println!("  {v}");
            }
            if minimise {
                let small = shrink(&o);
                println!(
                    "  minimal script ({} of {} steps):",
                    small.steps.len(),
                    o.steps.len()
                );
                for l in small.script().lines() {
                    println!("    {l}");
                }
            }
        }
    }
    println!(
        "all: {all:016x} ({} of {runs} converged; {failed} failed, {unsettled} did not settle, {nondeterministic} not deterministic)",
        runs - failed
    );
    if failed + nondeterministic > 0 {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
