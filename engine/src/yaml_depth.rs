//! Bounds checked before YAML text is decoded: on flow nesting (`{a: {a: …` and
//! `[[[…`, [`check`]), and on what the text expands to once aliases are followed
//! ([`check_expansion`]).
//!
//! libyaml (under `serde_yaml_ng`) keeps a "simple key" per flow level and looks at all
//! of them for every token, so its time grows with the square of the nesting: 64 KiB of
//! `{a: ` (some 10,900 levels) took 9–10 s to refuse, though the deserializer gives up
//! past 128 levels anyway. Upstream bounds the same thing: go-yaml's scanner refuses a
//! flow level above 10,000 (`exceeded max depth of 10000`), and Go's `encoding/json`
//! nesting above 10,000. Here the bound is [`MAX_FLOW_DEPTH`], 1,000 levels: no real
//! manifest comes near it (the deserializer already refuses more than 128), and a
//! document at the bound parses in milliseconds.
//!
//! The scan is one pass, O(n), and reads just enough YAML to tell a real bracket from
//! one in text: quoted scalars (`'…'`, `"…"`, multi-line, with their escapes), comments
//! (`#` at a line's start or after a space), block scalars (`|`, `>`: their more
//! indented lines are text), and plain scalars (a bracket inside `a: x[0]` is text in
//! block context; in flow context `[ ] { }` always delimit, as libyaml reads them).
//! Quotes open a scalar only where a node may start (a line's start, after `- `,
//! `? `, `: `, `[`, `{`, `,`); elsewhere (`it's`) they are text. What it cannot read
//! exactly it reads conservatively for ordinary documents; a document built to hide
//! brackets from it (an unbalanced bracket inside a quoted string *and* a quote this
//! scan takes for text) could pass it and cost the parser its quadratic time, up to
//! the size limit of the input.

/// Beyond its own text, what a document may grow to once its aliases are followed:
/// bytes of scalars, and nodes.
pub const EXPANSION_ALLOWANCE_BYTES: usize = 1 << 20;
/// See [`EXPANSION_ALLOWANCE_BYTES`].
pub const EXPANSION_ALLOWANCE_NODES: usize = 100_000;

/// A text whose aliases would make it grow past its bound: go-yaml's refusal
/// (`decode.go`'s alias ratio check).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExcessiveAliasing;

impl std::fmt::Display for ExcessiveAliasing {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("yaml: document contains excessive aliasing")
    }
}

/// Whether the documents of `text`, with every alias expanded, stay within the text's
/// own size plus [`EXPANSION_ALLOWANCE_BYTES`] of scalars and its size plus
/// [`EXPANSION_ALLOWANCE_NODES`] of nodes. The parser expands an alias by replaying
/// the anchored node, so one long string anchored once and aliased a thousand times
/// becomes a thousand strings: the repetition limit of the deserializer stops nested
/// alias bombs, not that. This walks the documents as the deserializer would, counting
/// as it goes, and stops at the bound: nothing is kept, so the walk itself costs no
/// more than the bound. A text the parser refuses passes here (the parser says why).
pub fn check_expansion(text: &str) -> Result<(), ExcessiveAliasing> {
    use serde::de::DeserializeSeed;
    let mut budget = Budget {
        bytes: text.len().saturating_add(EXPANSION_ALLOWANCE_BYTES),
        nodes: text.len().saturating_add(EXPANSION_ALLOWANCE_NODES),
        over: false,
    };
    for de in serde_yaml_ng::Deserializer::from_str(text) {
        let walked = Counter(&mut budget).deserialize(de);
        if budget.over {
            return Err(ExcessiveAliasing);
        }
        // A parse error ends the walk: the parser cannot go on past it, and
        // serde_yaml_ng's document iterator hands the same error back on every call (a
        // loop that never ends). The parser, after this, says what is wrong.
        if walked.is_err() {
            return Ok(());
        }
    }
    Ok(())
}

/// What is left of a document's expansion.
struct Budget {
    bytes: usize,
    nodes: usize,
    over: bool,
}

impl Budget {
    fn spend<E: serde::de::Error>(&mut self, bytes: usize) -> Result<(), E> {
        match (self.nodes.checked_sub(1), self.bytes.checked_sub(bytes)) {
            (Some(n), Some(b)) => {
                self.nodes = n;
                self.bytes = b;
                Ok(())
            }
            _ => {
                self.over = true;
                Err(E::custom(ExcessiveAliasing))
            }
        }
    }
}

/// Walks any node, spending the budget on each scalar, key and collection.
struct Counter<'b>(&'b mut Budget);

impl<'de> serde::de::DeserializeSeed<'de> for Counter<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Counter<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("any YAML node")
    }
    fn visit_bool<E: serde::de::Error>(self, _: bool) -> Result<(), E> {
        self.0.spend(1)
    }
    fn visit_i64<E: serde::de::Error>(self, _: i64) -> Result<(), E> {
        self.0.spend(8)
    }
    fn visit_u64<E: serde::de::Error>(self, _: u64) -> Result<(), E> {
        self.0.spend(8)
    }
    fn visit_f64<E: serde::de::Error>(self, _: f64) -> Result<(), E> {
        self.0.spend(8)
    }
    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<(), E> {
        self.0.spend(v.len())
    }
    fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<(), E> {
        self.0.spend(v.len())
    }
    fn visit_unit<E: serde::de::Error>(self) -> Result<(), E> {
        self.0.spend(1)
    }
    fn visit_none<E: serde::de::Error>(self) -> Result<(), E> {
        self.0.spend(1)
    }
    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        use serde::de::DeserializeSeed;
        Counter(self.0).deserialize(d)
    }
    fn visit_newtype_struct<D: serde::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        use serde::de::DeserializeSeed;
        Counter(self.0).deserialize(d)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        self.0.spend::<A::Error>(1)?;
        while seq.next_element_seed(Counter(&mut *self.0))?.is_some() {}
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        self.0.spend::<A::Error>(1)?;
        while map.next_key_seed(Counter(&mut *self.0))?.is_some() {
            map.next_value_seed(Counter(&mut *self.0))?;
        }
        Ok(())
    }
    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<(), A::Error> {
        use serde::de::VariantAccess;
        let ((), v) = data.variant_seed(Counter(&mut *self.0))?;
        v.newtype_variant_seed(Counter(self.0))
    }
}

/// The deepest flow nesting a YAML (or JSON) text may have.
pub const MAX_FLOW_DEPTH: usize = 1_000;

/// Where the text went past [`MAX_FLOW_DEPTH`]: 1-based line and column (in
/// characters) of the bracket that did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TooDeep {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub column: usize,
}

impl std::fmt::Display for TooDeep {
    /// go-yaml's words, with the position as `serde_yaml_ng` writes it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "exceeded max depth of {MAX_FLOW_DEPTH} at line {} column {}",
            self.line, self.column
        )
    }
}

/// Whether `text` nests flow collections deeper than [`MAX_FLOW_DEPTH`] (see the
/// module docs for how it reads the text).
pub fn check(text: &str) -> Result<(), TooDeep> {
    check_with(text, MAX_FLOW_DEPTH)
}

/// What the scan is inside of, carried from one line to the next.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Carry {
    /// Nothing: the next line starts fresh.
    Nothing,
    /// A quoted scalar with this quote, not yet closed.
    Quoted(u8),
    /// A block scalar whose header was on a line indented this much: more indented
    /// (and blank) lines are its text.
    Block(usize),
    /// A plain scalar begun on a line indented this much (block context): a more
    /// indented line continues it.
    Plain(usize),
}

/// [`check`] with another bound (tests).
fn check_with(text: &str, max: usize) -> Result<(), TooDeep> {
    // Fast path: no flow indicator at all (most manifests are block YAML).
    if !text.bytes().any(|b| b == b'[' || b == b'{') {
        return Ok(());
    }
    let mut depth = 0usize;
    let mut carry = Carry::Nothing;
    for (n, line) in text.split('\n').enumerate() {
        let b = line.as_bytes();
        let indent = b.iter().take_while(|&&c| c == b' ').count();
        let blank = b[indent..].iter().all(|c| c.is_ascii_whitespace());
        let mut i = 0;
        // Where a node may start (quotes open, `[`/`{` open in block context).
        let mut node_start = true;
        match carry {
            Carry::Block(at) => {
                if blank || indent > at {
                    continue;
                }
                carry = Carry::Nothing;
            }
            Carry::Plain(at) if depth == 0 => {
                if blank {
                    continue;
                }
                if indent > at {
                    node_start = false; // the plain scalar goes on
                } else {
                    carry = Carry::Nothing;
                }
            }
            Carry::Plain(_) => node_start = false, // flow context: indentation is free
            _ => {}
        }
        let mut prev_space = true;
        while i < b.len() {
            if let Carry::Quoted(q) = carry {
                // Inside a quoted scalar: find its end on this line.
                match b[i] {
                    b'\\' if q == b'"' => i += 1,
                    c if c == q => {
                        if q == b'\'' && b.get(i + 1) == Some(&b'\'') {
                            i += 1; // '' is a quote inside '…'
                        } else {
                            carry = Carry::Nothing;
                            node_start = false;
                        }
                    }
                    _ => {}
                }
                i += 1;
                prev_space = false;
                continue;
            }
            let c = b[i];
            let next_blank = b.get(i + 1).is_none_or(|c| c.is_ascii_whitespace());
            match c {
                b' ' | b'\t' | b'\r' => {
                    prev_space = true;
                    i += 1;
                    continue;
                }
                b'#' if prev_space => break, // a comment, to the line's end
                b'\'' | b'"' if node_start => carry = Carry::Quoted(c),
                b'[' | b'{' if node_start || depth > 0 => {
                    depth += 1;
                    if depth > max {
                        return Err(TooDeep {
                            line: n + 1,
                            column: line[..i].chars().count() + 1,
                        });
                    }
                    node_start = true;
                    carry = Carry::Nothing;
                }
                b']' | b'}' if depth > 0 => {
                    depth -= 1;
                    node_start = false;
                    carry = Carry::Nothing;
                }
                b',' if depth > 0 => {
                    node_start = true;
                    carry = Carry::Nothing;
                }
                // `- `, `? `, `: `: a node may follow. In flow context a `:` after a
                // quoted key or a collection may touch its value (`{"a":"b"}`).
                b'-' | b'?' | b':' if next_blank && (node_start || c == b':') => {
                    node_start = true;
                    carry = Carry::Nothing;
                }
                b':' if depth > 0 && !matches!(carry, Carry::Plain(_)) => {
                    node_start = true;
                }
                // A block scalar's header: `|` or `>`, indicators, then nothing.
                b'|' | b'>' if node_start && depth == 0 => {
                    let rest = &line[i + 1..];
                    let head = rest
                        .trim_start_matches(|c: char| c.is_ascii_digit() || c == '+' || c == '-');
                    let tail = head.trim_start();
                    if tail.is_empty() || (head.len() > tail.len() && tail.starts_with('#')) {
                        carry = Carry::Block(indent);
                        break;
                    }
                    node_start = false;
                    carry = Carry::Plain(indent);
                }
                // Anchors, tags and aliases precede a node: skip the word.
                b'&' | b'!' | b'*' if node_start => {
                    while i < b.len() && !b[i].is_ascii_whitespace() {
                        i += 1;
                    }
                    prev_space = false;
                    continue;
                }
                _ => {
                    if node_start || !matches!(carry, Carry::Plain(_)) {
                        carry = Carry::Plain(indent);
                    }
                    node_start = false;
                }
            }
            prev_space = false;
            i += 1;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_the_parser_refuses_ends_the_expansion_walk_at_its_error() {
        // The parser's document iterator hands an error back again on every call: the
        // walk stops at the first, and the parser says what is wrong.
        assert_eq!(check_expansion("a: 'unterminated\n"), Ok(()));
        assert_eq!(check_expansion("a: b\n---\nc: [d\n"), Ok(()));
        assert_eq!(check_expansion("x: \"\n  - y: '\n"), Ok(()));
    }

    fn depth_ok(text: &str, max: usize) -> bool {
        check_with(text, max).is_ok()
    }

    #[test]
    fn flow_nesting_is_counted_and_the_first_bracket_past_the_bound_is_named() {
        assert!(depth_ok("{a: {b: [1, [2]]}}", 4));
        assert_eq!(
            check_with("a:\n  b: {c: [[1]]}", 2),
            Err(TooDeep {
                line: 2,
                column: 11
            })
        );
        assert!(depth_ok("{a: 1}\n{b: {c: 2}}", 2));
        let deep = "{a: ".repeat(2_000);
        assert_eq!(
            check(&deep),
            Err(TooDeep {
                line: 1,
                column: 4_001
            })
        );
    }

    #[test]
    fn brackets_in_text_do_not_count() {
        // Quoted, commented, in a block scalar, inside a plain scalar (block context).
        assert!(depth_ok("a: '[[[{'\nb: \"{{\\\"[\"\nc: x # [[[[\n", 0));
        assert!(depth_ok("a: |\n  {{{{\n  [[[\nb: 1\n", 0));
        assert!(depth_ok("a: >-\n    {{{{\n\n    [[[\n", 0));
        assert!(depth_ok("a: x[0]{1}\n- it's [ok\n", 0));
        assert!(depth_ok("a: 'it''s [\n  still {quoted'\n", 0));
        // A quote inside a plain scalar is text; a bracket after it in flow context
        // still counts.
        assert!(!depth_ok("[it's, [x]]", 1));
        assert!(!depth_ok("a: word\n  'not a quote\nb: [[1]]", 1));
        // After the block scalar, brackets count again.
        assert!(!depth_ok("a: |\n  text\nb: [[1]]", 1));
    }
}
