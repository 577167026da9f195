//! Seeded random fault runs (`kubeplay_engine::fault_runs`): each seed's random session
//! of commands and faults keeps every invariant after every step, converges once the
//! faults stop, and gives byte-identical output when run again. A failing seed prints
//! its violations and a minimal reproducing script.
//!
//! CI runs the seeds below; the documented long run does 10,000:
//! `cargo run --release -p kubeplay-engine --example fault_runs -- --runs 10000`.

use kubeplay_engine::fault_runs::{run, shrink};

/// Actions per run (as the long run).
const STEPS: usize = 40;

fn check(seeds: std::ops::Range<u64>) {
    let mut failures = vec![];
    for seed in seeds {
        let o = run(seed, STEPS);
        let again = run(seed, STEPS);
        if o.transcript != again.transcript {
            failures.push(format!("seed {seed}: two runs differ"));
        }
        if !o.passed() {
            let small = shrink(&o);
            failures.push(format!(
                "seed {seed}:\n  {}\n  minimal script:\n{}",
                o.violations.join("\n  "),
                small.script()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn seeds_1_to_40_keep_every_invariant_converge_after_the_faults_and_replay_identically() {
    check(1..41);
}

#[test]
fn seeds_41_to_80_keep_every_invariant_converge_after_the_faults_and_replay_identically() {
    check(41..81);
}

#[test]
fn seeds_81_to_120_keep_every_invariant_converge_after_the_faults_and_replay_identically() {
    check(81..121);
}

#[test]
fn seeds_121_to_160_keep_every_invariant_converge_after_the_faults_and_replay_identically() {
    check(121..161);
}

#[test]
fn seeds_161_to_200_keep_every_invariant_converge_after_the_faults_and_replay_identically() {
    check(161..201);
}

#[test]
fn seeds_201_to_240_keep_every_invariant_converge_after_the_faults_and_replay_identically() {
    check(201..241);
}
