//! The mutation engine: cuts, repeats, splices and hostile replacements of an input,
//! within a size bound.

use super::corpus::Corpus;
use super::draw::*;
use super::vocab::*;
use crate::rng::Rng;

/// Inputs are cut to this many bytes: mutations that duplicate could otherwise grow
/// them without end.
pub(super) const MAX_INPUT: usize = 64 * 1024;

/// Cut `s` at the last character boundary within [`MAX_INPUT`] bytes.
pub(super) fn truncate_to_max(s: &mut String) {
    if s.len() > MAX_INPUT {
        let mut cut = MAX_INPUT;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        s.truncate(cut);
    }
}

pub(super) fn mutate_maybe(rng: &mut Rng, corpus: &Corpus, s: String) -> String {
    if chance(rng, 20) {
        mutate(rng, corpus, s)
    } else {
        s
    }
}

/// The character boundaries of `s` (its char indices, and its length).
fn boundaries(s: &str) -> Vec<usize> {
    s.char_indices().map(|(i, _)| i).chain([s.len()]).collect()
}

/// A random char-boundary range of `s`, at most `max` bytes long (roughly).
fn range(rng: &mut Rng, s: &str, max: usize) -> (usize, usize) {
    let b = boundaries(s);
    let i = rng.below(b.len() as u64) as usize;
    let span = 1 + rng.below(max.max(1) as u64) as usize;
    let j = b[i..]
        .iter()
        .copied()
        .take_while(|&x| x - b[i] <= span)
        .last()
        .unwrap_or(b[i]);
    (b[i], j)
}

/// Numbers and words of `s` (their byte ranges): what a token mutation replaces.
fn tokens(s: &str) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in s.char_indices().chain([(s.len(), ' ')]) {
        let word = c.is_alphanumeric() || c == '.' || c == '-';
        match (start, word) {
            (None, true) => start = Some(i),
            (Some(st), false) => {
                out.push((st, i));
                start = None;
            }
            _ => {}
        }
    }
    out
}

/// Apply one to four mutations: replace a token (a number by a hostile one, a word by
/// a vocabulary word), delete, duplicate or swap ranges, insert hostile text, repeat a
/// line, splice in part of another seed, truncate.
pub fn mutate(rng: &mut Rng, corpus: &Corpus, mut s: String) -> String {
    for _ in 0..1 + rng.below(4) {
        match rng.below(10) {
            0 | 1 => {
                let t = tokens(&s);
                if let Some(&(a, b)) = (!t.is_empty()).then(|| pick(rng, &t)) {
                    let numeric = s[a..b].chars().next().is_some_and(|c| c.is_ascii_digit());
                    let with = match rng.below(3) {
                        0 if numeric => number(rng),
                        0 => pick(rng, FIELDS).to_string(),
                        1 => pick(rng, HOSTILE).to_string(),
                        _ => name(rng, corpus),
                    };
                    s.replace_range(a..b, &with);
                }
            }
            2 => {
                let (a, b) = range(rng, &s, 64);
                s.replace_range(a..b, "");
            }
            3 => {
                let (a, b) = range(rng, &s, 64);
                let piece = s[a..b].repeat(1 + rng.below(8) as usize);
                s.insert_str(b, &piece);
            }
            4 => {
                let (a, _) = range(rng, &s, 0);
                let with = pick(rng, HOSTILE);
                s.insert_str(a, with);
            }
            5 => {
                let lines: Vec<&str> = s.split_inclusive('\n').collect();
                if !lines.is_empty() {
                    let i = rng.below(lines.len() as u64) as usize;
                    let times = *pick(rng, &[2usize, 3, 10, 100]);
                    let mut out: String = lines[..i].concat();
                    out.push_str(&lines[i].repeat(times));
                    out.push_str(&lines[i..].concat());
                    s = out;
                }
            }
            6 => {
                // Splice: a piece of another seed of any kind.
                let pool: Vec<&String> = corpus
                    .scripts
                    .iter()
                    .chain(&corpus.manifests)
                    .chain(&corpus.scenarios)
                    .collect();
                if !pool.is_empty() {
                    let other = *pick(rng, &pool);
                    let (a, b) = range(rng, other, 400);
                    let (at, _) = range(rng, &s, 0);
                    s.insert_str(at, &other[a..b]);
                }
            }
            7 => {
                // Indentation and line ends matter to YAML and heredocs.
                let (at, _) = range(rng, &s, 0);
                let with = pick(
                    rng,
                    &[
                        "\n", "\t", "  ", "\r\n", "\n---\n", ": ", "- ", "\\\n", "EOF\n",
                    ],
                );
                s.insert_str(at, with);
            }
            8 => {
                let (a, _) = range(rng, &s, 0);
                s.truncate(a);
            }
            _ => {
                let (a, b) = range(rng, &s, 16);
                let (c, d) = range(rng, &s, 16);
                if b <= c {
                    let (x, y) = (s[a..b].to_string(), s[c..d].to_string());
                    s.replace_range(c..d, &x);
                    s.replace_range(a..b, &y);
                }
            }
        }
        // Bounded after every mutation, not once at the end: four line repeats of a
        // hundred each would make a 64 KiB input 6 TB (a run of the link target was
        // killed for it, in this generator, before any input ran).
        truncate_to_max(&mut s);
    }
    s
}
