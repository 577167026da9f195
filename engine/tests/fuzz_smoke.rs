//! A bounded fuzz run of each engine target in CI (the long run is
//! `cargo run -p kubeplay-engine --profile fuzz --example fuzz`, docs/reliability.md, "Fuzzing"):
//! seeded inputs through the manifest parser, the command language, the scenario
//! loader and the lz-string link decoder. Any panic, any input over the heap budget
//! fails the test with the input that did it; a hang ends the process. Inputs over the
//! wall budget are printed, not failed: a test does not time itself (a loaded machine
//! would fail it); the time goal is the long campaign's, in the fuzz profile.
//!
//! `KUBEPLAY_FUZZ_INPUTS` and `KUBEPLAY_FUZZ_SEED` change the run.

use kubeplay_engine::fuzz::gen::{Corpus, Generator, Kind};
use kubeplay_engine::fuzz::{run, targets, Budget};
use std::path::Path;
use std::time::Duration;

kubeplay_engine::counting_allocator!();

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// Run `inputs` inputs of `kind` (scaled by `KUBEPLAY_FUZZ_INPUTS`, which sets the
/// count for every target) through `exec` and fail loudly on any finding.
fn fuzz(kind: Kind, inputs: u64, corpus: &Corpus, exec: &dyn Fn(&str)) {
    let inputs = env_or("KUBEPLAY_FUZZ_INPUTS", inputs);
    let seed = env_or("KUBEPLAY_FUZZ_SEED", 1);
    let budget = Budget {
        wall: Duration::from_secs(10),
        ..Budget::default()
    };
    let mut g = Generator::new(kind, corpus, seed);
    let report = run(
        kind.name(),
        inputs,
        &budget,
        Some(heap_meter()),
        &mut |_| g.next_input(),
        exec,
        &mut |_| {},
    );
    eprint!("{report}");
    assert!(
        report.panicked == 0 && report.over_heap.is_empty(),
        "fuzzing found problems (seed {seed}):\n{report}"
    );
}

fn corpus() -> Corpus {
    Corpus::from_repo(&Path::new(env!("CARGO_MANIFEST_DIR")).join(".."))
}

#[test]
fn fuzzed_manifests_never_panic_or_run_over_budget() {
    let target = targets::ManifestTarget::default();
    fuzz(Kind::Manifest, 2_000, &corpus(), &|s| target.exec(s));
}

#[test]
fn fuzzed_command_scripts_never_panic_or_run_over_budget() {
    let target = targets::CommandTarget::default();
    let mut corpus = corpus();
    corpus.names.extend(target.names());
    fuzz(Kind::Command, 1_000, &corpus, &|s| target.exec(s));
}

#[test]
fn fuzzed_scenario_files_never_panic_or_run_over_budget() {
    fuzz(Kind::Scenario, 2_000, &corpus(), &targets::scenario);
}

#[test]
fn fuzzed_links_never_panic_the_lz_string_decoder_or_run_over_budget() {
    fuzz(Kind::Link, 300, &corpus(), &targets::link);
}
