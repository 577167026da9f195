//! Input generators: each input is either a corpus seed (the repository's own golden
//! scripts, manifests and scenarios) put through a few mutations, or built from the
//! grammar of its target — real kinds, fields, verbs and flags with hostile values
//! (huge, negative and overflowing numbers, `1e309`, empty, unicode, very long) — and
//! sometimes mutated too. Everything is drawn from one seeded [`Rng`]: the same seed
//! gives the same inputs.
//!
//! The seeds are in [`corpus`], the grammar's words in [`vocab`], the draws of values
//! in [`draw`]; each target's generator in [`commands`], [`manifests`] and
//! [`scenarios`] (scenario files and page links); the mutation engine in [`mutate`].

mod commands;
mod corpus;
mod draw;
mod manifests;
mod mutate;
mod scenarios;
mod vocab;

pub use commands::{command_line, script};
pub use corpus::Corpus;
pub use manifests::manifest;
pub use mutate::mutate;
pub use scenarios::{link, scenario};
pub use vocab::HOSTILE;

use crate::rng::Rng;
use draw::{chance, pick};
use mutate::mutate_maybe;

/// What an input is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A manifest file (YAML or JSON, one or more documents).
    Manifest,
    /// A script in the command language.
    Command,
    /// A scenario file.
    Scenario,
    /// A page address: `?query#s=…` or `#scenario=…`.
    Link,
}

impl Kind {
    /// Its name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Manifest => "manifest",
            Kind::Command => "command",
            Kind::Scenario => "scenario",
            Kind::Link => "link",
        }
    }
}

/// The seeded source of one target's inputs.
pub struct Generator<'a> {
    kind: Kind,
    corpus: &'a Corpus,
    rng: Rng,
}

impl<'a> Generator<'a> {
    /// Inputs for `kind`, seeded with `seed` (mixed with the kind, so `--target all`
    /// gives each target its own stream, the same as when run alone).
    pub fn new(kind: Kind, corpus: &'a Corpus, seed: u64) -> Self {
        let salt = match kind {
            Kind::Manifest => 0x6d61_6e69,
            Kind::Command => 0x636f_6d6d,
            Kind::Scenario => 0x7363_656e,
            Kind::Link => 0x6c69_6e6b,
        };
        Generator {
            kind,
            corpus,
            rng: Rng::new(seed ^ salt),
        }
    }

    /// The next input: half the time a mutated seed, half the time generated from the
    /// grammar (and then sometimes mutated as well).
    pub fn next_input(&mut self) -> String {
        let (rng, corpus) = (&mut self.rng, self.corpus);
        let seeds = match self.kind {
            Kind::Manifest => &corpus.manifests,
            Kind::Command => &corpus.scripts,
            Kind::Scenario => &corpus.scenarios,
            Kind::Link => &corpus.scenarios,
        };
        if self.kind != Kind::Link && !seeds.is_empty() && chance(rng, 50) {
            let seed = pick(rng, seeds).clone();
            return mutate(rng, corpus, seed);
        }
        let fresh = match self.kind {
            Kind::Manifest => manifest(rng, corpus),
            Kind::Command => script(rng, corpus),
            Kind::Scenario => scenario(rng, corpus),
            Kind::Link => return link(rng, corpus),
        };
        mutate_maybe(rng, corpus, fresh)
    }
}

#[cfg(test)]
mod tests {
    use super::mutate::MAX_INPUT;
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_inputs_and_another_seed_other_ones() {
        let corpus = Corpus::builtin();
        for kind in [Kind::Manifest, Kind::Command, Kind::Scenario, Kind::Link] {
            let take = |seed| {
                let mut g = Generator::new(kind, &corpus, seed);
                (0..50).map(|_| g.next_input()).collect::<Vec<_>>()
            };
            assert_eq!(take(7), take(7), "{}", kind.name());
            assert_ne!(take(7), take(8), "{}", kind.name());
        }
    }

    #[test]
    fn mutations_keep_char_boundaries_and_the_size_bound() {
        let corpus = Corpus::builtin();
        let mut rng = Rng::new(3);
        let mut s = "名前: 🦀\nkubectl get pods\n".to_string();
        for _ in 0..2_000 {
            s = mutate(&mut rng, &corpus, s);
            assert!(s.len() <= MAX_INPUT);
            if s.is_empty() {
                s = "é🦀x\n".into();
            }
        }
    }

    #[test]
    fn repeated_line_repeats_of_a_full_size_input_stay_within_the_bound_at_every_step() {
        // One 64 KiB line: before the bound applied per mutation, repeats of it could
        // ask for terabytes within a single call.
        let corpus = Corpus::builtin();
        for seed in 0..64 {
            let mut rng = Rng::new(seed);
            let s = mutate(&mut rng, &corpus, "x".repeat(MAX_INPUT));
            assert!(s.len() <= MAX_INPUT);
        }
    }
}
