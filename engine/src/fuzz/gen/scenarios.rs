//! The scenario and link targets' generators: scenario files from their fields, and
//! page addresses carrying a scenario or a session's journal.

use super::commands::{command_line, script};
use super::corpus::Corpus;
use super::draw::*;
use super::mutate::{mutate, mutate_maybe};
use super::vocab::*;
use crate::rng::Rng;

/// A scenario file from its fields, with hostile values and commands.
pub fn scenario(rng: &mut Rng, corpus: &Corpus) -> String {
    let text = |rng: &mut Rng| {
        format!(
            "{{ en: {}, zh: {} }}",
            scalar(rng, corpus),
            scalar(rng, corpus)
        )
    };
    let mut s = format!(
        "id: {}\ntitle: {}\ndescription: {}\n",
        {
            let v = pick(rng, &["fuzz", "a-b-1", "", "Fuzz", "ü", "x y"]);
            yaml_scalar(rng, v)
        },
        text(rng),
        text(rng)
    );
    if chance(rng, 50) {
        s.push_str(&format!("seed: {}\n", number(rng)));
    }
    if chance(rng, 30) {
        s.push_str(&format!("ordered: {}\n", scalar(rng, corpus)));
    }
    if chance(rng, 4) {
        // A long scalar aliased many times, in a field the loader reads.
        let (anchor, aliases) = aliased_scalar(rng, "l");
        s = s.replacen(
            "description: ",
            &format!("description: {anchor}\nx-aliases: {aliases}\nx-was: "),
            1,
        );
    }
    scenario_nodes(rng, corpus, &mut s);
    if chance(rng, 80) {
        s.push_str("setup: |\n");
        for l in script(rng, corpus).lines() {
            s.push_str(&format!("  {l}\n"));
        }
    }
    if chance(rng, 60) {
        s.push_str("steps:\n");
        for _ in 0..1 + rng.below(3) {
            s.push_str(&format!("  - text: {}\n", text(rng)));
            let cmd = command_line(rng, corpus).replace("deployment/", "deployment/{pod:app=");
            s.push_str(&format!("    command: {}\n", yaml_scalar(rng, &cmd)));
            if chance(rng, 30) {
                s.push_str(&format!("    wait: {}\n", {
                    let v = duration(rng);
                    yaml_scalar(rng, &v)
                }));
            }
            if chance(rng, 20) {
                s.push_str(&format!(
                    "    expect: {}\n",
                    pick(rng, &["error", "ok", ""])
                ));
            }
        }
    }
    if chance(rng, 60) {
        s.push_str("goals:\n");
        for _ in 0..1 + rng.below(3) {
            let expect = format!(
                "{}/{} {} {} {}",
                pick(rng, RESOURCES),
                name(rng, corpus),
                pick(rng, JSONPATHS),
                pick(rng, &["==", ">=", "=~", "<>"]),
                number(rng)
            );
            s.push_str(&format!(
                "  - label: {}\n    expect: {}\n",
                text(rng),
                yaml_scalar(rng, &expect)
            ));
        }
    }
    if chance(rng, 30) {
        s.push_str(&format!("timeout: {}\n", {
            let v = duration(rng);
            yaml_scalar(rng, &v)
        }));
    }
    s
}

/// A scenario's `cluster.nodes`: mostly a few, now and then many.
fn scenario_nodes(rng: &mut Rng, corpus: &Corpus, s: &mut String) {
    s.push_str("cluster:\n  nodes:\n");
    // Now and then many nodes: the loader's own bound is 5000.
    let nodes = match rng.below(50) {
        0 => pick(rng, &[0u64, 5_000, 5_001]).to_owned(),
        1 => rng.below(300),
        _ => 1 + rng.below(4),
    };
    for i in 0..nodes {
        s.push_str(&format!("    - {{ name: node-{i}"));
        if chance(rng, 40) {
            s.push_str(&format!(", cpu: {}", {
                let v = quantity(rng);
                yaml_scalar(rng, &v)
            }));
        }
        if chance(rng, 40) {
            s.push_str(&format!(", memory: {}", {
                let v = quantity(rng);
                yaml_scalar(rng, &v)
            }));
        }
        if chance(rng, 20) {
            s.push_str(&format!(", pods: {}", number(rng)));
        }
        if chance(rng, 20) {
            s.push_str(&format!(", zone: {}", scalar(rng, corpus)));
        }
        if chance(rng, 10) {
            s.push_str(&format!(
                ", labels: {{ {}: {} }}",
                scalar(rng, corpus),
                scalar(rng, corpus)
            ));
        }
        if chance(rng, 10) {
            s.push_str(&format!(", taints: [{}]", {
                let v = value_of(rng, corpus, Val::Taint);
                yaml_scalar(rng, &v)
            }));
        }
        s.push_str(" }\n");
    }
}

/// Times for a share link's journal: in order mostly, at the week's bound, past it,
/// or backwards.
fn link_time(rng: &mut Rng, at: &mut u64) -> String {
    match rng.below(20) {
        0 => pick(
            rng,
            &[
                "604800000",
                "604800001",
                "18446744073709551615",
                "-1",
                "1e309",
                "0.5",
                "\"1\"",
                "null",
            ],
        )
        .to_string(),
        1 => rng.below(1_000).to_string(),
        _ => {
            *at += rng.below(120_000);
            at.to_string()
        }
    }
}

/// A share link's JSON: a version, maybe a scenario, a journal of acts, the time.
fn session_json(rng: &mut Rng, corpus: &Corpus) -> String {
    let mut at = 0u64;
    let mut parts = vec![format!(
        "\"v\":{}",
        if chance(rng, 90) {
            "1".to_string()
        } else {
            number(rng)
        }
    )];
    match rng.below(6) {
        0 => {
            let ids: Vec<&str> = crate::scenario::BUILTIN.iter().map(|(i, _)| *i).collect();
            let id = if chance(rng, 80) {
                pick(rng, &ids).to_string()
            } else {
                name(rng, corpus)
            };
            parts.push(format!(
                "\"scenario\":{{\"id\":{}}}",
                serde_json::Value::from(id)
            ));
        }
        1 => {
            let yaml = if chance(rng, 50) && !corpus.scenarios.is_empty() {
                pick(rng, &corpus.scenarios).clone()
            } else {
                scenario(rng, corpus)
            };
            parts.push(format!(
                "\"scenario\":{{\"yaml\":{}}}",
                serde_json::Value::from(yaml)
            ));
        }
        _ => {}
    }
    let mut acts = Vec::new();
    for _ in 0..rng.below(6) {
        let t = link_time(rng, &mut at);
        let act = match rng.below(6) {
            0 => "\"p\"".to_string(),
            1 => "\"i\"".to_string(),
            2 => "\"s\"".to_string(),
            _ => format!("{{\"r\":{}}}", serde_json::Value::from(script(rng, corpus))),
        };
        acts.push(format!("[{t},{act}]"));
    }
    parts.push(format!("\"journal\":[{}]", acts.join(",")));
    at += rng.below(600_000);
    let now = if chance(rng, 90) {
        at.to_string()
    } else {
        link_time(rng, &mut at)
    };
    parts.push(format!("\"now\":{now}"));
    format!("{{{}}}", parts.join(","))
}

/// A page address: query options, then a `#s=` share link, a `#scenario=` link, or
/// neither.
pub fn link(rng: &mut Rng, corpus: &Corpus) -> String {
    let mut query = Vec::new();
    for _ in 0..rng.below(4) {
        let (k, v): (&str, String) = match rng.below(9) {
            0 => (
                "speed",
                pick(
                    rng,
                    &["0.5", "30", "1e309", "-1", "NaN", "0", "x", "2x", "5×"],
                )
                .to_string(),
            ),
            1 => (
                "lang",
                pick(rng, &["zh", "en", "zh-CN", "", "🦀"]).to_string(),
            ),
            2 => ("height", number(rng)),
            3 => (
                "panels",
                pick(rng, &["chain,board", "", ",,,", "goals"]).to_string(),
            ),
            4 => ("embed", pick(rng, &["1", "0", "true"]).to_string()),
            5 => ("readonly", "1".to_string()),
            6 => ("autoplay", "0".to_string()),
            7 => ("allowOrigins", "https://a.example/,".to_string()),
            _ => ("scenario", name(rng, corpus)),
        };
        query.push(format!("{k}={v}"));
    }
    let hash = match rng.below(10) {
        0..=5 => {
            let json = session_json(rng, corpus);
            format!(
                "s={}",
                crate::lz::compress_to_uri(&mutate_maybe(rng, corpus, json))
            )
        }
        6 | 7 => {
            let yaml = if chance(rng, 50) && !corpus.scenarios.is_empty() {
                {
                    let seed = pick(rng, &corpus.scenarios).clone();
                    mutate(rng, corpus, seed)
                }
            } else {
                scenario(rng, corpus)
            };
            format!("scenario={}", crate::lz::compress_to_uri(&yaml))
        }
        8 => format!(
            "s={}",
            (0..rng.below(200))
                .map(|_| char::from(b"ABCxyz019+-$ !%"[rng.below(15) as usize]))
                .collect::<String>()
        ),
        _ => String::new(),
    };
    let mut out = String::new();
    if !query.is_empty() {
        out.push('?');
        out.push_str(&query.join("&"));
    }
    if !hash.is_empty() {
        out.push('#');
        out.push_str(&hash);
    }
    // Damage the compressed stream itself sometimes: the decoder's own input.
    if chance(rng, 15) {
        out = mutate(rng, corpus, out);
    }
    out
}
