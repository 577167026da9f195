//! kubectl's JSONPath templates (`k8s.io/client-go/util/jsonpath`): `{.a.b}`,
//! `[n]`, `[*]`, `[a:b]`, `..name`, filters `[?(@.x=="y")]`, `{range …}{end}`, and
//! literal `{"\n"}`. Missing keys print nothing (kubectl's default for `get`).

use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
enum Seg {
    Field(String),
    Wildcard,
    Index(i64),
    /// `[start:end:step]`, each part optional.
    Slice(Option<i64>, Option<i64>, Option<i64>),
    Recursive(String),
    Filter(Vec<Seg>, Option<(String, Value)>),
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Text(String),
    Path(Vec<Seg>),
    Range(Vec<Seg>, Vec<Node>),
}

/// A parsed template.
#[derive(Clone, Debug, PartialEq)]
pub struct Template {
    raw: String,
    nodes: Vec<Node>,
}

fn parse_err(t: &str, msg: &str) -> String {
    format!("error: error parsing jsonpath {t}, {msg}")
}

impl Template {
    /// Parse a template such as `{range .items[*]}{.metadata.name}{"\n"}{end}`; an
    /// error is kubectl's `error parsing jsonpath` text.
    pub fn parse(t: &str) -> Result<Template, String> {
        Self::parse_raw(t).map_err(|e| parse_err(t, &e))
    }

    /// Parse as [`Template::parse`] does, the error being the parser's own words
    /// (`unterminated array`), as custom columns and `--sort-by` report it.
    pub fn parse_raw(t: &str) -> Result<Template, String> {
        let mut stack: Vec<(Vec<Seg>, Vec<Node>)> = Vec::new();
        let mut cur: Vec<Node> = Vec::new();
        let mut rest = t;
        while !rest.is_empty() {
            match rest.find('{') {
                None => {
                    cur.push(Node::Text(rest.to_string()));
                    break;
                }
                Some(i) => {
                    if i > 0 {
                        cur.push(Node::Text(rest[..i].to_string()));
                    }
                    let body_start = i + 1;
                    let close = find_close(&rest[body_start..]).ok_or("unclosed action")?;
                    let body = rest[body_start..body_start + close].trim();
                    rest = &rest[body_start + close + 1..];
                    if body == "end" {
                        let (path, outer) = stack.pop().ok_or("not in range, nothing to end")?;
                        let inner = std::mem::replace(&mut cur, outer);
                        cur.push(Node::Range(path, inner));
                    } else if let Some(p) = body.strip_prefix("range ") {
                        let path = parse_path(p.trim())?;
                        stack.push((path, std::mem::take(&mut cur)));
                    } else if body.starts_with('"') || body.starts_with('\'') {
                        cur.push(Node::Text(unquote(body)?));
                    } else {
                        cur.push(Node::Path(parse_path(body)?));
                    }
                }
            }
        }
        if !stack.is_empty() {
            return Err("unclosed range".into());
        }
        Ok(Template {
            raw: t.to_string(),
            nodes: cur,
        })
    }

    /// Execute against `data`. An execution error (an index out of bounds, indexing
    /// what is not a list) is kubectl's whole message, template and object included;
    /// nothing is printed then (missing keys are not errors: kubectl get allows them).
    pub fn execute(&self, data: &Value) -> Result<String, String> {
        let mut out = String::new();
        run(&self.nodes, data, &mut out).map_err(|e| {
            format!(
                "error: error executing jsonpath {}: Error executing template: {e}. Printing more information for debugging the template:\n\ttemplate was:\n\t\t{}\n\tobject given to jsonpath engine was:\n\t\t{}\n\n\n",
                go_quote(&self.raw),
                self.raw,
                go_syntax(data)
            )
        })?;
        Ok(out)
    }

    /// `FindResults`: per top-level node, what it yields (a text node its text), as
    /// custom columns read a column; an error is the evaluator's own words.
    pub fn find_results<'a>(&'a self, data: &'a Value) -> Result<Vec<Vec<Value>>, String> {
        let mut out = Vec::new();
        for n in &self.nodes {
            match n {
                Node::Text(t) => out.push(vec![Value::String(t.clone())]),
                Node::Path(p) => out.push(eval(p, data)?.into_iter().cloned().collect()),
                // A range cannot reach here: a relaxed column path holds no braces.
                Node::Range(..) => out.push(Vec::new()),
            }
        }
        Ok(out)
    }
}

/// Go's `fmt.Sprint` of an unstructured value: strings bare, `[a b]` for lists,
/// `map[k:v …]` with sorted keys for maps, `<nil>` for null.
pub fn go_sprint(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::String(s) => s.clone(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => match n.as_f64() {
            // A JSON number with a fraction decodes to float64, printed as %g does.
            Some(f) if n.is_f64() => go_float(f),
            _ => n.to_string(),
        },
        Value::Array(a) => format!(
            "[{}]",
            a.iter().map(go_sprint).collect::<Vec<_>>().join(" ")
        ),
        Value::Object(o) => format!(
            "map[{}]",
            o.iter()
                .map(|(k, v)| format!("{k}:{}", go_sprint(v)))
                .collect::<Vec<_>>()
                .join(" ")
        ),
    }
}

/// Go's `%v` of a float64 (`strconv.FormatFloat(f, 'g', -1, 64)`): the shortest digits,
/// in exponent form when the exponent is below -4 or at least 6 (the precision
/// `%g` assumes for the shortest form).
fn go_float(f: f64) -> String {
    if f == 0.0 || !f.is_finite() {
        return format!("{f}");
    }
    let exp = f.abs().log10().floor() as i32;
    if (-4..6).contains(&exp) {
        format!("{f}")
    } else {
        // Rust prints `1e6`; Go prints `1e+06` and at least two exponent digits.
        let s = format!("{f:e}");
        let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
        let (sign, digits) = match e.strip_prefix('-') {
            Some(d) => ('-', d),
            None => ('+', e),
        };
        format!("{m}e{sign}{digits:0>2}")
    }
}

/// Go's `%q` / `strconv.Quote`: double quotes, with `\"`, `\\` and control characters
/// escaped.
fn go_quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            '\r' => out.push_str("\\r"),
            c if (c as u32) < 0x20 || c as u32 == 0x7f => {
                out.push_str(&format!("\\x{:02x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The Go type an unstructured value has, as `%v` of a `reflect.Type` prints it.
fn go_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "interface {}",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() || n.is_u64() => "int64",
        Value::Number(_) => "float64",
        Value::String(_) => "string",
        Value::Array(_) => "[]interface {}",
        Value::Object(_) => "map[string]interface {}",
    }
}

/// Go's `%#v` of an unstructured object (`map[string]interface {}{"k":v, ...}`, keys
/// sorted as fmt sorts them), as kubectl prints the object in a jsonpath error.
fn go_syntax(v: &Value) -> String {
    match v {
        Value::Null => "interface {}(nil)".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => go_quote(s),
        Value::Array(a) => format!(
            "[]interface {{}}{{{}}}",
            a.iter().map(go_syntax).collect::<Vec<_>>().join(", ")
        ),
        Value::Object(o) => format!(
            "map[string]interface {{}}{{{}}}",
            o.iter()
                .map(|(k, v)| format!("{}:{}", go_quote(k), go_syntax(v)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Go's `%#U` of a character, as the jsonpath lexer reports it: `U+007E '~'`.
fn go_char(c: char) -> String {
    format!("U+{:04X} '{c}'", c as u32)
}

/// Evaluate one path expression (with or without braces) and return the matches.
pub fn select<'a>(expr: &str, data: &'a Value) -> Result<Vec<&'a Value>, String> {
    let body = expr.trim().trim_start_matches('{').trim_end_matches('}');
    let path = parse_path(body).map_err(|e| parse_err(expr, &e))?;
    eval(&path, data)
}

/// Format a value as kubectl's JSONPath printer does (strings raw, the rest as JSON,
/// which Go's `json.Marshal` writes with `<`, `>` and `&` escaped).
pub fn format_value(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => super::go_json::go_html_escape(other.to_string()),
    }
}

fn run(nodes: &[Node], data: &Value, out: &mut String) -> Result<(), String> {
    for n in nodes {
        match n {
            Node::Text(t) => out.push_str(t),
            Node::Path(p) => {
                let vals: Vec<String> = eval(p, data)?.into_iter().map(format_value).collect();
                out.push_str(&vals.join(" "));
            }
            Node::Range(p, inner) => {
                for v in eval(p, data)? {
                    run(inner, v, out)?;
                }
            }
        }
    }
    Ok(())
}

fn find_close(s: &str) -> Option<usize> {
    let mut quote: Option<char> = None;
    for (i, c) in s.char_indices() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), _) => {}
            (None, '"' | '\'') => quote = Some(c),
            (None, '}') => return Some(i),
            _ => {}
        }
    }
    None
}

fn unquote(s: &str) -> Result<String, String> {
    let q = s.chars().next().unwrap_or('"');
    let inner = s
        .strip_prefix(q)
        .and_then(|x| x.strip_suffix(q))
        .ok_or("unterminated string")?;
    let mut out = String::new();
    let mut chars = inner.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('r') => out.push('\r'),
                Some(x) => out.push(x),
                None => {}
            }
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

fn parse_path(p: &str) -> Result<Vec<Seg>, String> {
    let mut segs = Vec::new();
    let s: Vec<char> = p.chars().collect();
    let mut i = 0;
    if i < s.len() && (s[i] == '$' || s[i] == '@') {
        i += 1;
    }
    while i < s.len() {
        match s[i] {
            '.' => {
                let recursive = i + 1 < s.len() && s[i + 1] == '.';
                i += if recursive { 2 } else { 1 };
                // parseField: up to the next terminator not escaped by `\` (`advance`),
                // the backslashes then dropped, so `deployment\.kubernetes\.io/revision`
                // is one annotation's key.
                let mut name = String::new();
                while i < s.len() && !matches!(s[i], '.' | '[' | ']' | ',' | '$' | '@' | '{' | '}')
                {
                    match s[i] {
                        '\\' => {
                            if let Some(&next) = s.get(i + 1) {
                                name.push(next);
                            }
                            i += 2;
                            continue;
                        }
                        c if c.is_whitespace() => {
                            return Err(format!(
                                "unrecognized character in action: {}",
                                go_char(c)
                            ));
                        }
                        c => name.push(c),
                    }
                    i += 1;
                }
                let i_end = i.min(s.len());
                i = i_end;
                if name.is_empty() {
                    if recursive || i < s.len() {
                        return Err("empty field name".into());
                    }
                    continue;
                }
                if recursive {
                    segs.push(Seg::Recursive(name));
                } else if name == "*" {
                    segs.push(Seg::Wildcard);
                } else {
                    segs.push(Seg::Field(name));
                }
            }
            '[' => {
                let mut depth = 0;
                let start = i + 1;
                let mut j = i;
                loop {
                    if j >= s.len() {
                        // parseArray reads to the first `]`; only a filter whose `)`
                        // closed is told a `]` is missing (parseFilter).
                        let filter = s[start..].starts_with(&['?', '(']);
                        return Err(if filter && s[start..].contains(&')') {
                            "unclosed array expect ]"
                        } else if filter {
                            "unterminated filter"
                        } else {
                            "unterminated array"
                        }
                        .into());
                    }
                    match s[j] {
                        '[' => depth += 1,
                        ']' => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        _ => {}
                    }
                    j += 1;
                }
                let inner: String = s[start..j].iter().collect();
                segs.push(parse_bracket(inner.trim())?);
                i = j + 1;
            }
            c if c.is_alphanumeric() && segs.is_empty() => {
                // `{metadata.name}` without the leading dot.
                let start = i;
                while i < s.len() && s[i] != '.' && s[i] != '[' {
                    i += 1;
                }
                segs.push(Seg::Field(s[start..i].iter().collect()));
            }
            c => return Err(format!("unrecognized character in action: {}", go_char(c))),
        }
    }
    Ok(segs)
}

fn parse_bracket(inner: &str) -> Result<Seg, String> {
    if inner == "*" {
        // `[*]` is an array subscript (a map is an error), unlike `.*`.
        return Ok(Seg::Slice(None, None, None));
    }
    if let Some(f) = inner.strip_prefix("?(").and_then(|x| x.strip_suffix(')')) {
        // client-go splits a filter with `^([^!<>=]+)([!<>=]+)(.+?)$`: the left path,
        // the run of operator characters, and the right operand.
        let is_op = |c: char| matches!(c, '!' | '<' | '>' | '=');
        if let Some(at) = f.find(is_op).filter(|&at| at > 0) {
            let (l, rest) = f.split_at(at);
            let end = rest.find(|c: char| !is_op(c)).unwrap_or(rest.len());
            let (op, r) = rest.split_at(end);
            if !r.is_empty() {
                let path = parse_path(l.trim())?;
                let r = r.trim();
                let v = if r.starts_with('"') || r.starts_with('\'') {
                    Value::String(unquote(r)?)
                } else if let Ok(n) = serde_json::from_str::<serde_json::Number>(r) {
                    Value::Number(n)
                } else {
                    // Anything else must lex as a path (`@.x`); `~` and the like do not.
                    parse_path(r)?;
                    Value::String(r.to_string())
                };
                return Ok(Seg::Filter(path, Some((op.to_string(), v))));
            }
        }
        return Ok(Seg::Filter(parse_path(f.trim())?, None));
    }
    if inner.starts_with('\'') || inner.starts_with('"') {
        return Ok(Seg::Field(unquote(inner)?));
    }
    if inner.contains(':') {
        // client-go's `sliceOperatorRex`, `^(-?[\d]*)(:-?[\d]*)?(:-?[\d]*)?$`: at most
        // three parts; a part that fits the pattern but not an int is its own error
        // (`strconv.Atoi`'s range).
        let parts: Vec<&str> = inner.split(':').collect();
        let shape = |x: &str| {
            let d = x.strip_prefix('-').unwrap_or(x);
            d.bytes().all(|b| b.is_ascii_digit())
        };
        if parts.len() > 3 || !parts.iter().all(|x| shape(x)) {
            return Err(format!("invalid array index {inner}"));
        }
        let n = |x: &str| -> Result<Option<i64>, String> {
            if x.is_empty() {
                Ok(None)
            } else {
                x.parse()
                    .map(Some)
                    .map_err(|_| format!("array index {x} is not a number"))
            }
        };
        let part = |i: usize| parts.get(i).copied().unwrap_or("");
        return Ok(Seg::Slice(n(part(0))?, n(part(1))?, n(part(2))?));
    }
    let d = inner.strip_prefix('-').unwrap_or(inner);
    if d.is_empty() || !d.bytes().all(|b| b.is_ascii_digit()) {
        return Err(format!("invalid array index {inner}"));
    }
    inner
        .parse::<i64>()
        .map(Seg::Index)
        .map_err(|_| format!("array index {inner} is not a number"))
}

/// `evalArray`'s bounds: both ends resolved against the length, an empty range
/// allowed, anything else outside the list an error.
///
/// The arithmetic is Go's `int`, which wraps: `[9223372036854775807]` derives its end
/// as `MaxInt64 + 1`, i.e. `MinInt64`, and client-go then reports the start out of
/// bounds. Wrapping ops give exactly that answer, where Rust's `+` would panic; no
/// other value reaches an overflow (a negative end plus a length never does).
fn bounds(
    start: Option<i64>,
    end: Option<i64>,
    derived: bool,
    len: i64,
) -> Result<(i64, i64), String> {
    let mut s = start.unwrap_or(0);
    if s < 0 {
        s = s.wrapping_add(len);
    }
    let mut e = end.unwrap_or(len);
    if e < 0 || (e == 0 && derived) {
        e = e.wrapping_add(len);
    }
    if s == e {
        return Ok((s, e));
    }
    if s >= len || s < 0 {
        return Err(format!(
            "array index out of bounds: index {s}, length {len}"
        ));
    }
    if e > len || e < 0 {
        return Err(format!(
            "array index out of bounds: index {}, length {len}",
            e.wrapping_sub(1)
        ));
    }
    if s > e {
        return Err(format!(
            "starting index {s} is greater than ending index {e}"
        ));
    }
    Ok((s, e))
}

fn eval<'a>(path: &[Seg], data: &'a Value) -> Result<Vec<&'a Value>, String> {
    let mut cur = vec![data];
    for seg in path {
        let mut next = Vec::new();
        for v in cur {
            match seg {
                Seg::Field(f) => {
                    if let Some(x) = v.get(f.as_str()) {
                        next.push(x);
                    }
                }
                Seg::Wildcard => match v {
                    Value::Array(a) => next.extend(a.iter()),
                    Value::Object(o) => next.extend(o.values()),
                    _ => {}
                },
                Seg::Index(_) | Seg::Slice(..) => {
                    let arr = match v {
                        Value::Array(a) => a,
                        // A nil value is skipped, as template.Indirect reports it.
                        Value::Null => continue,
                        other => return Err(format!("{} is not array or slice", go_type(other))),
                    };
                    let len = arr.len() as i64;
                    let (s, e, step) = match seg {
                        // `[i]` is the range i..i+1 (the end derived from the start,
                        // with Go's wrapping `+`: see `bounds`).
                        Seg::Index(i) => {
                            let (s, e) = bounds(Some(*i), Some(i.wrapping_add(1)), true, len)?;
                            (s, e, None)
                        }
                        Seg::Slice(a, b, step) => {
                            let (s, e) = bounds(*a, *b, false, len)?;
                            (s, e, *step)
                        }
                        _ => (0, 0, None),
                    };
                    if s == e {
                        // An empty range ends the evaluation here (before the step
                        // is looked at), as evalArray returns early.
                        continue;
                    }
                    let step = match step {
                        None => 1,
                        Some(st) if st <= 0 => return Err("step must be > 0".into()),
                        // A step past the length takes the first element only.
                        Some(st) => usize::try_from(st).unwrap_or(usize::MAX),
                    };
                    // `bounds` guarantees 0 <= s < e <= len here.
                    if let Some(items) = usize::try_from(s)
                        .ok()
                        .zip(usize::try_from(e).ok())
                        .and_then(|(s, e)| arr.get(s..e))
                    {
                        next.extend(items.iter().step_by(step));
                    }
                }
                Seg::Recursive(name) => collect_recursive(v, name, &mut next),
                Seg::Filter(p, cond) => {
                    let items: Vec<&Value> = match v {
                        Value::Array(a) => a.iter().collect(),
                        other => vec![other],
                    };
                    for item in items {
                        let found = eval(p, item)?;
                        let keep = match cond {
                            None => !found.is_empty(),
                            Some((op, want)) => {
                                found.first().is_some_and(|got| compare(got, op, want))
                            }
                        };
                        if keep {
                            next.push(item);
                        }
                    }
                }
            }
        }
        cur = next;
    }
    Ok(cur)
}

fn collect_recursive<'a>(v: &'a Value, name: &str, out: &mut Vec<&'a Value>) {
    match v {
        Value::Object(o) => {
            if let Some(x) = o.get(name) {
                out.push(x);
            }
            for child in o.values() {
                collect_recursive(child, name, out);
            }
        }
        Value::Array(a) => {
            for child in a {
                collect_recursive(child, name, out);
            }
        }
        _ => {}
    }
}

fn compare(got: &Value, op: &str, want: &Value) -> bool {
    let num = |v: &Value| {
        v.as_f64()
            .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
    };
    match op {
        "==" => got == want || (num(got).is_some() && num(got) == num(want)),
        "!=" => !(got == want || (num(got).is_some() && num(got) == num(want))),
        _ => match (num(got), num(want)) {
            (Some(a), Some(b)) => match op {
                "<" => a < b,
                ">" => a > b,
                "<=" => a <= b,
                _ => a >= b,
            },
            _ => false,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn run(t: &str, v: &Value) -> String {
        Template::parse(t).unwrap().execute(v).unwrap()
    }

    #[test]
    fn jsonpath_table() {
        let data = json!({
            "kind": "List",
            "items": [
                {"metadata": {"name": "a", "labels": {"app": "web"}}, "status": {"phase": "Running", "n": 3}},
                {"metadata": {"name": "b", "labels": {"app": "db"}}, "status": {"phase": "Pending", "n": 1}},
                {"metadata": {"name": "c"}, "status": {"phase": "Running", "n": 2}}
            ]
        });
        let cases = [
            ("{.kind}", "List"),
            ("{.items[*].metadata.name}", "a b c"),
            ("{.items[0].metadata.name}", "a"),
            ("{.items[-1].metadata.name}", "c"),
            ("{.items[0:2].metadata.name}", "a b"),
            (
                "{.items[?(@.status.phase==\"Running\")].metadata.name}",
                "a c",
            ),
            ("{.items[?(@.status.n>1)].metadata.name}", "a c"),
            ("{.items[?(@.metadata.labels)].metadata.name}", "a b"),
            ("{.items[*].metadata.labels.app}", "web db"),
            ("{..phase}", "Running Pending Running"),
            (
                "{range .items[*]}{.metadata.name}{\"\\t\"}{.status.n}{\"\\n\"}{end}",
                "a\t3\nb\t1\nc\t2\n",
            ),
            ("name={.items[1].metadata.name}!", "name=b!"),
            ("{.missing.key}", ""),
            ("{.items[0].status}", "{\"n\":3,\"phase\":\"Running\"}"),
            ("{.items[0]['metadata']['name']}", "a"),
        ];
        for (t, want) in cases {
            assert_eq!(run(t, &data), want, "template {t}");
        }
        // A backslash escapes a dot of a key (an annotation's, a label's).
        let annotated =
            json!({"metadata": {"annotations": {"deployment.kubernetes.io/revision": "3"}}});
        assert_eq!(
            run(
                r"{.metadata.annotations.deployment\.kubernetes\.io/revision}",
                &annotated
            ),
            "3"
        );
    }

    #[test]
    fn malformed_templates_are_errors_not_panics() {
        // A corpus of broken templates: each must come back as a value, never a panic.
        for t in [
            "{.items[",
            "{range .items[*]}{.x}",
            "{end}",
            "{.a[?(@.x==)]}",
            "{.a[x]}",
            "{",
            "{.items[*].}",
            "{.a[1:x]}",
            "{[}",
            "{..}",
        ] {
            let _ = Template::parse(t).map(|tpl| tpl.execute(&json!({"a": [1, 2]})));
            let _ = select(t, &json!({"a": [1, 2]}));
        }
        assert!(Template::parse("{.items[")
            .unwrap_err()
            .starts_with("error: error parsing jsonpath"));
        assert!(Template::parse("{end}").is_err());
        assert!(Template::parse("{range .a}x").is_err());
    }
}
