//! Words and flags: a shell-like tokenizer and kubectl-style (pflag) flag parsing.

/// Split a command line into words: whitespace separates, `'…'` keeps everything
/// literally, `"…"` allows `\"` and `\\`, a backslash outside quotes escapes the next
/// character. Errors are worded as a shell would word them.
pub fn split_words(line: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(x) => cur.push(x),
                        None => return Err("unexpected EOF while looking for matching `''".into()),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(x @ ('"' | '\\' | '$' | '`')) => cur.push(x),
                            Some(x) => {
                                cur.push('\\');
                                cur.push(x);
                            }
                            None => {
                                return Err("unexpected EOF while looking for matching `\"'".into())
                            }
                        },
                        Some(x) => cur.push(x),
                        None => return Err("unexpected EOF while looking for matching `\"'".into()),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(x) = chars.next() {
                    cur.push(x);
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    Ok(words)
}

/// A flag a command accepts.
#[derive(Clone, Copy, Debug)]
pub struct FlagSpec {
    /// Long name without dashes, e.g. `output`.
    pub long: &'static str,
    /// Shorthand letter, e.g. `o`.
    pub short: Option<char>,
    /// Whether it is a boolean (takes no separate value).
    pub boolean: bool,
}

/// Shorthand for building flag tables.
pub const fn flag(long: &'static str, short: Option<char>) -> FlagSpec {
    FlagSpec {
        long,
        short,
        boolean: false,
    }
}

/// A boolean flag.
pub const fn bool_flag(long: &'static str, short: Option<char>) -> FlagSpec {
    FlagSpec {
        long,
        short,
        boolean: true,
    }
}

/// Parsed flags and positional arguments.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Parsed {
    /// Positional arguments in order.
    pub args: Vec<String>,
    /// Flag values by long name (booleans as `true`/`false`); repeated flags keep all.
    pub flags: Vec<(String, String)>,
    /// Positional arguments before `--`, when there was one (`ArgsLenAtDash`).
    pub dash: Option<usize>,
}

impl Parsed {
    /// The last value of a flag.
    pub fn get(&self, long: &str) -> Option<&str> {
        self.flags
            .iter()
            .rev()
            .find(|(k, _)| k == long)
            .map(|(_, v)| v.as_str())
    }

    /// A string-slice flag (pflag's `StringSlice`): every value of a repeatable
    /// flag, each split on commas.
    pub fn slice(&self, long: &str) -> Vec<&str> {
        self.all(long)
            .into_iter()
            .flat_map(|v| v.split(','))
            .collect()
    }

    /// Every value of a repeatable flag.
    pub fn all(&self, long: &str) -> Vec<&str> {
        self.flags
            .iter()
            .filter(|(k, _)| k == long)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// A boolean flag's value (absent = false).
    pub fn bool(&self, long: &str) -> bool {
        matches!(self.get(long), Some("true"))
    }
}

/// Parse `words` against `specs` as pflag does: `--name=value`, `--name value`,
/// `-o yaml`, `-oyaml`, `-A`, `--` ends flags. Errors use kubectl's wording.
pub fn parse_flags(words: &[String], specs: &[FlagSpec], cmd_path: &str) -> Result<Parsed, String> {
    let mut out = Parsed::default();
    let mut i = 0;
    let usage = format!("See '{cmd_path} --help' for usage.");
    while i < words.len() {
        let w = &words[i];
        if w == "--" {
            out.dash = Some(out.args.len());
            out.args.extend(words[i + 1..].iter().cloned());
            break;
        }
        if let Some(body) = w.strip_prefix("--") {
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            let Some(spec) = specs.iter().find(|s| s.long == name) else {
                return Err(format!("error: unknown flag: --{name}\n{usage}"));
            };
            let value = if spec.boolean {
                match inline.as_deref() {
                    None => "true".to_string(),
                    Some(v @ ("true" | "false")) => v.to_string(),
                    Some(v) => {
                        return Err(format!(
                            "error: invalid argument \"{v}\" for \"--{name}\" flag: strconv.ParseBool: parsing \"{v}\": invalid syntax\n{usage}"
                        ))
                    }
                }
            } else if let Some(v) = inline {
                v
            } else {
                i += 1;
                match words.get(i) {
                    Some(v) => v.clone(),
                    None => {
                        return Err(format!("error: flag needs an argument: --{name}\n{usage}"))
                    }
                }
            };
            out.flags.push((spec.long.to_string(), value));
        } else if w.len() > 1
            && w.starts_with('-')
            && !w[1..].starts_with(|c: char| c.is_ascii_digit())
        {
            let mut chars: Vec<char> = w[1..].chars().collect();
            let mut j = 0;
            while j < chars.len() {
                let c = chars[j];
                let Some(spec) = specs.iter().find(|s| s.short == Some(c)) else {
                    return Err(format!(
                        "error: unknown shorthand flag: '{c}' in {w}\n{usage}"
                    ));
                };
                if spec.boolean {
                    out.flags.push((spec.long.to_string(), "true".into()));
                    j += 1;
                    continue;
                }
                let rest: String = chars.split_off(j + 1).into_iter().collect();
                let value = if let Some(v) = rest.strip_prefix('=') {
                    v.to_string()
                } else if !rest.is_empty() {
                    rest
                } else {
                    i += 1;
                    match words.get(i) {
                        Some(v) => v.clone(),
                        None => {
                            return Err(format!(
                                "error: flag needs an argument: '{c}' in -{c}\n{usage}"
                            ))
                        }
                    }
                };
                out.flags.push((spec.long.to_string(), value));
                break;
            }
        } else {
            out.args.push(w.clone());
        }
        i += 1;
    }
    Ok(out)
}

/// A duration of simulated time one command plays (`what` names it, as typed, or is
/// empty where the context already names it):
/// at most [`MAX_SPAN`](crate::time::MAX_SPAN).
pub fn parse_span(what: &str, s: &str) -> Result<u64, String> {
    let ms = parse_duration(s)?;
    if ms > crate::time::MAX_SPAN {
        let what = if what.is_empty() {
            s.to_string()
        } else {
            format!("{what} {s}")
        };
        return Err(format!(
            "{what} is longer than the 24h of simulated time one command may play; play it in steps of at most 24h"
        ));
    }
    Ok(ms)
}

/// Parse a duration like `90s`, `5m`, `1h30m`, `250ms`, `2` (seconds) into ms.
pub fn parse_duration(s: &str) -> Result<u64, String> {
    let bad = || format!("invalid duration \"{s}\"");
    if s.is_empty() {
        return Err(bad());
    }
    if let Ok(n) = s.parse::<u64>() {
        // Same bound as with units: a bare number is seconds.
        return n
            .checked_mul(1000)
            .filter(|ms| *ms < 1_000_000_000_000_000)
            .ok_or_else(bad);
    }
    let mut total: f64 = 0.0;
    let mut rest = s;
    while !rest.is_empty() {
        let num_len = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        if num_len == 0 {
            return Err(bad());
        }
        let n: f64 = rest[..num_len].parse().map_err(|_| bad())?;
        rest = &rest[num_len..];
        let unit_len = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let mult = match &rest[..unit_len] {
            "ms" => 1.0,
            "s" => 1000.0,
            "m" => 60_000.0,
            "h" => 3_600_000.0,
            "d" => 86_400_000.0,
            _ => return Err(bad()),
        };
        rest = &rest[unit_len..];
        total += n * mult;
    }
    if !(0.0..1e15).contains(&total) {
        return Err(bad());
    }
    Ok(total.round() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_huge_bare_number_of_seconds_is_refused_not_overflowed() {
        assert!(parse_duration("18446744073709551").is_err());
        assert_eq!(parse_duration("90"), Ok(90_000));
    }

    fn w(s: &str) -> Vec<String> {
        split_words(s).unwrap()
    }

    #[test]
    fn words_split_like_a_shell() {
        assert_eq!(
            w(r#"kubectl get pods -l 'app in (a, b)' -o "jsonpath={.items[*].metadata.name}""#),
            [
                "kubectl",
                "get",
                "pods",
                "-l",
                "app in (a, b)",
                "-o",
                "jsonpath={.items[*].metadata.name}"
            ]
        );
        assert_eq!(w(r"a\ b c"), ["a b", "c"]);
        assert!(split_words("echo 'x").is_err());
    }

    #[test]
    fn flags_parse_as_pflag_does() {
        let specs = [
            flag("output", Some('o')),
            bool_flag("all-namespaces", Some('A')),
            flag("namespace", Some('n')),
        ];
        let p = parse_flags(
            &w("pods -owide -A --namespace=kube-system web"),
            &specs,
            "kubectl get",
        )
        .unwrap();
        assert_eq!(p.args, ["pods", "web"]);
        assert_eq!(p.get("output"), Some("wide"));
        assert!(p.bool("all-namespaces"));
        assert_eq!(p.get("namespace"), Some("kube-system"));
        assert_eq!(
            parse_flags(&w("--bogus"), &specs, "kubectl get").unwrap_err(),
            "error: unknown flag: --bogus\nSee 'kubectl get --help' for usage."
        );
        assert_eq!(
            parse_flags(&w("-x"), &specs, "kubectl get").unwrap_err(),
            "error: unknown shorthand flag: 'x' in -x\nSee 'kubectl get --help' for usage."
        );
        assert!(parse_flags(&w("-o"), &specs, "kubectl get")
            .unwrap_err()
            .starts_with("error: flag needs an argument"));
    }

    #[test]
    fn durations_parse_in_go_units() {
        assert_eq!(parse_duration("90s"), Ok(90_000));
        assert_eq!(parse_duration("5m"), Ok(300_000));
        assert_eq!(parse_duration("1h30m"), Ok(5_400_000));
        assert_eq!(parse_duration("250ms"), Ok(250));
        assert_eq!(parse_duration("2"), Ok(2_000));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("").is_err());
    }
}
