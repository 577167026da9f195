//! Fuzz the engine on stable Rust: seeded inputs (mutated repository inputs and
//! grammar-built ones) through the manifest parser, the command language, the scenario
//! loader and the lz-string link decoder, each input under `catch_unwind`, timed, and
//! its peak heap measured. Prints one report per target; exits 1 on any panic or any
//! input over 2 s or 256 MiB.
//!
//! ```text
//! cargo run -p kubeplay-engine --profile fuzz --example fuzz -- --target all --inputs 1000000 --seed 1
//! ```
//!
//! `--seconds S` stops a target's run after S seconds of wall time (each target's box
//! starts when its run does) and reports the inputs it ran.
//!
//! The app's own link path (`#s=` share links replayed into its `SimState`) is fuzzed
//! by the app crate's test `sim::fuzz` (docs/reliability.md, "Fuzzing").

use kubeplay_engine::fuzz::gen::{Corpus, Generator, Kind};
use kubeplay_engine::fuzz::{run, targets, Budget, Report};
use std::path::Path;
use std::time::Duration;

kubeplay_engine::counting_allocator!();

const USAGE: &str = "usage: fuzz [--target manifest|command|link|scenario|all] [--inputs N] [--seed S] [--wall-ms MS] [--heap-mib MIB] [--seconds S] [--replay FILE] [--from N] [--trace]";

fn main() {
    let mut target = "all".to_string();
    let mut inputs: u64 = 10_000;
    let mut seed: u64 = 1;
    let mut budget = Budget::default();
    // A time box per target (`--seconds`), started as each target's run starts.
    let mut seconds: Option<u64> = None;
    // One input from a file instead of generated ones: a finding, replayed.
    let mut replay: Option<String> = None;
    let mut from: u64 = 0;
    let mut trace = false;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        let num = || -> u64 {
            value.parse().unwrap_or_else(|_| {
                eprintln!("{USAGE}");
                std::process::exit(2)
            })
        };
        match args[i].as_str() {
            "--target" => target = value.clone(),
            "--inputs" => inputs = num(),
            "--seed" => seed = num(),
            "--wall-ms" => budget.wall = Duration::from_millis(num()),
            "--heap-mib" => budget.heap = (num() as usize) << 20,
            // A time box per target: stop there and report what ran.
            "--seconds" => seconds = Some(num()),
            // Skip the first N generated inputs (generated, not run): reach a finding
            // deep in a run quickly.
            "--from" => from = num(),
            // Print each input's index before it runs (a process the kernel kills
            // leaves its last line).
            "--trace" => {
                trace = true;
                i -= 1;
            }
            "--replay" => {
                replay = Some(std::fs::read_to_string(&value).unwrap_or_else(|e| {
                    eprintln!("{value}: {e}");
                    std::process::exit(2)
                }));
                inputs = 1;
            }
            _ => {
                eprintln!("{USAGE}");
                std::process::exit(2);
            }
        }
        i += 2;
    }
    let kinds: Vec<Kind> = match target.as_str() {
        "all" => vec![Kind::Manifest, Kind::Command, Kind::Scenario, Kind::Link],
        "manifest" => vec![Kind::Manifest],
        "command" => vec![Kind::Command],
        "scenario" => vec![Kind::Scenario],
        "link" => vec![Kind::Link],
        _ => {
            eprintln!("{USAGE}");
            std::process::exit(2);
        }
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut corpus = Corpus::from_repo(&root);
    let commands = targets::CommandTarget::default();
    corpus.names.extend(commands.names());
    let manifests = targets::ManifestTarget::default();
    println!(
        "corpus: {} scripts, {} manifests, {} scenarios; seed {seed}; {inputs} inputs per target",
        corpus.scripts.len(),
        corpus.manifests.len(),
        corpus.scenarios.len()
    );
    let mut clean = true;
    for kind in kinds {
        budget.until = seconds.map(|s| std::time::Instant::now() + Duration::from_secs(s));
        let mut g = Generator::new(kind, &corpus, seed);
        for _ in 0..from {
            let _ = g.next_input();
        }
        let exec: &dyn Fn(&str) = match kind {
            Kind::Manifest => &|s| manifests.exec(s),
            Kind::Command => &|s| commands.exec(s),
            Kind::Scenario => &targets::scenario,
            Kind::Link => &targets::link,
        };
        let report = run(
            kind.name(),
            inputs,
            &budget,
            Some(heap_meter()),
            &mut |i| {
                if trace {
                    eprintln!("input #{}", from + i);
                }
                replay.clone().unwrap_or_else(|| g.next_input())
            },
            exec,
            &mut |r: &Report| {
                eprintln!(
                    "  {}: {} inputs, {:.0}/s, {} panics, {} over budget",
                    r.target,
                    r.inputs,
                    r.rate(),
                    r.panicked,
                    r.over_time.len() + r.over_heap.len()
                )
            },
        );
        print!("{report}");
        clean &= report.clean();
    }
    if !clean {
        std::process::exit(1);
    }
}
