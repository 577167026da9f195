//! Drawing values from the seeded [`Rng`]: numbers, names, durations, quantities,
//! labels, a flag's value by its kind, patches, quoting as a user would, scalars and
//! nested values for YAML.

use super::corpus::Corpus;
use super::vocab::*;
use crate::rng::Rng;

pub(super) fn pick<'a, T>(rng: &mut Rng, xs: &'a [T]) -> &'a T {
    &xs[rng.below(xs.len() as u64) as usize]
}

pub(super) fn chance(rng: &mut Rng, percent: u64) -> bool {
    rng.below(100) < percent
}

/// A number: usually small and plausible, sometimes at a type limit or not a number,
/// and one time in eight a count at its extreme (int32's largest above all: the count
/// a controller must never turn into an allocation or a walk of that size).
pub(super) fn number(rng: &mut Rng) -> String {
    match rng.below(8) {
        0 | 1 => rng.below(6).to_string(),
        2 => rng.below(200).to_string(),
        3 => (rng.next_u64() >> rng.below(64)).to_string(),
        4 => format!("-{}", rng.below(1000)),
        5 => pick(rng, EXTREME_COUNTS).to_string(),
        _ => pick(rng, HOSTILE).to_string(),
    }
}

/// A scalar of `len` characters anchored as `&name` once, and a flow list aliasing
/// it `times` times: a few kilobytes of text that expand to megabytes, the shape
/// serde_yaml_ng's repetition limit does not stop (the engine bounds the expansion).
pub(super) fn aliased_scalar(rng: &mut Rng, name: &str) -> (String, String) {
    let len = 1 + rng.below(20_000) as usize;
    let times = 1 + rng.below(2_000) as usize;
    let anchor = format!("&{name} \"{}\"", "x".repeat(len));
    let aliases = format!("[{}]", vec![format!("*{name}"); times].join(", "));
    (anchor, aliases)
}

/// A name: a known one, a plausible one, or a hostile one (empty, long, unicode…).
pub(super) fn name(rng: &mut Rng, corpus: &Corpus) -> String {
    match rng.below(10) {
        0..=4 if !corpus.names.is_empty() => pick(rng, &corpus.names).clone(),
        5 => format!("n{}", rng.below(5)),
        6 => "a".repeat(1 + rng.below(300) as usize),
        7 => format!(
            "{}-{}",
            pick(rng, &["web", "x", "Web", "-x", "x-", "a.b"]),
            number(rng)
        ),
        _ => pick(rng, HOSTILE).to_string(),
    }
}

pub(super) fn duration(rng: &mut Rng) -> String {
    if chance(rng, 80) {
        pick(rng, DURATIONS).to_string()
    } else {
        format!(
            "{}{}",
            number(rng),
            pick(rng, &["ms", "s", "m", "h", "d", ""])
        )
    }
}

pub(super) fn quantity(rng: &mut Rng) -> String {
    if chance(rng, 75) {
        pick(rng, QUANTITIES).to_string()
    } else {
        format!(
            "{}{}",
            number(rng),
            pick(rng, &["", "m", "Mi", "Gi", "k", "E", "Ei", "e3"])
        )
    }
}

pub(super) fn labels(rng: &mut Rng, corpus: &Corpus) -> String {
    (0..1 + rng.below(3))
        .map(|_| format!("{}={}", name(rng, corpus), name(rng, corpus)))
        .collect::<Vec<_>>()
        .join(",")
}

pub(super) fn value_of(rng: &mut Rng, corpus: &Corpus, v: Val) -> String {
    if chance(rng, 8) {
        return pick(rng, HOSTILE).to_string();
    }
    match v {
        Val::Bool => pick(rng, &["true", "false", "1", "yes", ""]).to_string(),
        Val::Number => number(rng),
        Val::Duration => duration(rng),
        Val::Quantity => quantity(rng),
        Val::Name => name(rng, corpus),
        Val::Image => format!(
            "{}:{}",
            pick(
                rng,
                &[
                    "nginx",
                    "busybox",
                    "gateway",
                    "bad/image",
                    "registry:5000/x"
                ]
            ),
            pick(rng, &["1.27", "latest", "", "2.0", "1.36"])
        ),
        Val::Labels => labels(rng, corpus),
        Val::Selector => pick(rng, SELECTORS).to_string(),
        Val::Field => pick(
            rng,
            &[
                "status.phase=Running",
                "spec.nodeName=node-1",
                "metadata.name=web",
                "phase=Pending",
                "a==b",
                "x",
                "status.phase!=Running",
            ],
        )
        .to_string(),
        Val::Output => pick(rng, OUTPUTS).to_string(),
        Val::Patch => patch(rng),
        Val::JsonPath => pick(rng, JSONPATHS).to_string(),
        Val::Taint => format!(
            "{}={}:{}",
            name(rng, corpus),
            name(rng, corpus),
            pick(
                rng,
                &["NoSchedule", "NoExecute", "PreferNoSchedule", "Bad", ""]
            )
        ),
        Val::Resources => format!("cpu={},memory={}", quantity(rng), quantity(rng)),
        Val::Word(ws) => pick(rng, ws).to_string(),
    }
}

/// A patch: merge, JSON patch, or junk.
pub(super) fn patch(rng: &mut Rng) -> String {
    match rng.below(5) {
        0 => format!("{{\"spec\":{{\"replicas\":{}}}}}", number(rng)),
        1 => format!(
            "[{{\"op\":\"{}\",\"path\":\"{}\",\"value\":{}}}]",
            pick(rng, &["replace", "add", "remove", "move", "test", "x"]),
            pick(rng, &["/spec/replicas", "/metadata/labels/a", "/spec/template/spec/containers/0/image", "/", "", "/spec/x~1y", "/spec/containers/-"]),
            number(rng)
        ),
        2 => "{\"metadata\":{\"labels\":{\"a\":null}}}".to_string(),
        3 => "{\"spec\":{\"template\":{\"spec\":{\"containers\":[{\"name\":\"nginx\",\"image\":\"nginx:2\"}]}}}}".to_string(),
        _ => pick(rng, &["{", "[]", "null", "{}", "\"x\"", "1e309"]).to_string(),
    }
}

/// Quote a word for the command line, as a user would (or, rarely, badly).
pub(super) fn quote(rng: &mut Rng, w: &str) -> String {
    let plain = !w.is_empty()
        && w.chars()
            .all(|c| !c.is_whitespace() && !"'\"\\#<>|;&(){}$`".contains(c));
    if plain && chance(rng, 90) {
        return w.to_string();
    }
    match rng.below(10) {
        0 => w.to_string(),
        1 => format!("\"{}\"", w.replace('\\', "\\\\").replace('"', "\\\"")),
        2 => format!("'{w}"),
        _ if !w.contains('\'') => format!("'{w}'"),
        _ => format!("\"{}\"", w.replace('\\', "\\\\").replace('"', "\\\"")),
    }
}

/// One flag with its value, in one of the forms kubectl reads.
pub(super) fn flag(rng: &mut Rng, corpus: &Corpus) -> String {
    let (f, v) = pick(rng, FLAGS);
    let value = value_of(rng, corpus, *v);
    match (v, rng.below(4)) {
        (Val::Bool, 0) => format!("--{f}"),
        (_, 1) => format!("--{f} {}", quote(rng, &value)),
        (_, 2) if f.len() > 2 => format!("-{} {}", &f[..1], quote(rng, &value)),
        _ => format!("--{f}={}", quote(rng, &value)),
    }
}

/// A target: `TYPE NAME`, `TYPE/NAME`, or a name alone.
pub(super) fn target(rng: &mut Rng, corpus: &Corpus) -> String {
    let r = pick(rng, RESOURCES);
    let n = name(rng, corpus);
    match rng.below(4) {
        0 => format!("{r}/{}", quote(rng, &n)),
        1 => r.to_string(),
        2 => quote(rng, &n),
        _ => format!("{r} {}", quote(rng, &n)),
    }
}

/// A scalar for a manifest: plain, quoted, a number, or hostile.
pub(super) fn scalar(rng: &mut Rng, corpus: &Corpus) -> String {
    let raw = match rng.below(6) {
        0 => number(rng),
        1 => quantity(rng),
        2 => name(rng, corpus),
        _ => pick(rng, HOSTILE).to_string(),
    };
    yaml_scalar(rng, &raw)
}

/// A scalar written plainly, double-quoted or single-quoted.
pub(super) fn yaml_scalar(rng: &mut Rng, raw: &str) -> String {
    match rng.below(4) {
        0 => serde_json::to_string(raw).unwrap_or_default(),
        1 if !raw.contains('\'') => format!("'{raw}'"),
        _ if raw.is_empty() => "\"\"".into(),
        _ => raw.to_string(),
    }
}

/// A random YAML block value at `indent`, `depth` levels at most.
pub(super) fn yaml_value(
    rng: &mut Rng,
    corpus: &Corpus,
    indent: usize,
    depth: u32,
    out: &mut String,
) {
    let pad = " ".repeat(indent);
    match if depth == 0 { 0 } else { rng.below(4) } {
        0 => {
            out.push(' ');
            out.push_str(&scalar(rng, corpus));
            out.push('\n');
        }
        1 => {
            out.push('\n');
            for _ in 0..1 + rng.below(3) {
                out.push_str(&format!("{pad}-"));
                yaml_value(rng, corpus, indent + 2, depth - 1, out);
            }
        }
        2 => {
            let items: Vec<String> = (0..rng.below(4)).map(|_| scalar(rng, corpus)).collect();
            out.push_str(&format!(" [{}]\n", items.join(", ")));
        }
        _ => {
            out.push('\n');
            for _ in 0..1 + rng.below(4) {
                out.push_str(&format!("{pad}{}:", pick(rng, FIELDS)));
                yaml_value(rng, corpus, indent + 2, depth - 1, out);
            }
        }
    }
}
