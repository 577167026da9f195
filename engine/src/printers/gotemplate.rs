//! `-o go-template=…` / `-o template=…` (and their `-file` forms): the part of Go's
//! `text/template` that kubectl users write — text, `{{.a.b}}`, `{{.}}`, `{{$}}`,
//! string literals, `{{range …}}`/`{{if …}}`/`{{with …}}` with `{{else}}` and
//! `{{end}}`, `index` and `len`, and the `{{-`/`-}}` trim markers. Values print as
//! Go's `fmt.Sprint` does; a missing map key prints `<no value>`.
//!
//! Upstream: `staging/src/k8s.io/cli-runtime/pkg/printers/template.go`, Go's
//! `text/template`.

use super::jsonpath::go_sprint;
use serde_json::Value;

#[derive(Clone, Debug, PartialEq)]
enum Arg {
    /// `.a.b` from dot (empty: dot itself).
    Dot(Vec<String>),
    /// `$.a.b` from the whole object.
    Root(Vec<String>),
    Str(String),
}

#[derive(Clone, Debug, PartialEq)]
enum Pipe {
    Arg(Arg),
    Index(Arg, Vec<Arg>),
    Len(Arg),
}

#[derive(Clone, Debug, PartialEq)]
enum Block {
    Range,
    If,
    With,
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Text(String),
    Print(Pipe),
    Control(Block, Pipe, Vec<Node>, Vec<Node>),
}

/// A parsed template.
#[derive(Clone, Debug, PartialEq)]
pub struct GoTemplate {
    nodes: Vec<Node>,
}

/// A parse error as kubectl reports it.
fn parse_err(t: &str, line: usize, msg: &str) -> String {
    format!("error: error parsing template {t}, template: output:{line}: {msg}")
}

/// Split `{{…}}` actions out of the text, applying the trim markers: (is action, text,
/// line).
fn lex(t: &str) -> Result<Vec<(bool, String, usize)>, String> {
    let mut out: Vec<(bool, String, usize)> = Vec::new();
    let mut rest = t;
    let mut line = 1;
    while let Some(i) = rest.find("{{") {
        let mut text = rest[..i].to_string();
        line += text.matches('\n').count();
        let after = &rest[i + 2..];
        let close = after
            .find("}}")
            .ok_or_else(|| parse_err(t, line, "unclosed action"))?;
        let mut body = &after[..close];
        // `{{- ` trims the white space before, ` -}}` the white space after.
        if let Some(b) = body.strip_prefix("- ") {
            text = text.trim_end().to_string();
            body = b;
        }
        let trim_after = body.ends_with(" -");
        if trim_after {
            body = &body[..body.len() - 2];
        }
        out.push((false, text, line));
        out.push((true, body.trim().to_string(), line));
        line += body.matches('\n').count();
        rest = &after[close + 2..];
        if trim_after {
            rest = rest.trim_start();
        }
    }
    out.push((false, rest.to_string(), line));
    Ok(out)
}

fn parse_fields(s: &str) -> Vec<String> {
    s.split('.')
        .filter(|f| !f.is_empty())
        .map(String::from)
        .collect()
}

fn parse_arg(t: &str, line: usize, w: &str) -> Result<Arg, String> {
    if w == "." {
        return Ok(Arg::Dot(vec![]));
    }
    if let Some(f) = w.strip_prefix('$') {
        return Ok(Arg::Root(parse_fields(f)));
    }
    if w.starts_with('.') {
        return Ok(Arg::Dot(parse_fields(w)));
    }
    if w.starts_with('"') {
        return serde_json::from_str::<String>(w)
            .map(Arg::Str)
            .map_err(|_| parse_err(t, line, "unterminated quoted string"));
    }
    Err(parse_err(t, line, &format!("function {w:?} not defined")))
}

/// The words of an action, string literals kept with their quotes.
fn tokens(body: &str) -> Option<Vec<String>> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                cur.push(c);
                loop {
                    let n = chars.next()?;
                    cur.push(n);
                    if n == '\\' {
                        cur.push(chars.next()?);
                    } else if n == '"' {
                        break;
                    }
                }
            }
            c if c.is_whitespace() => {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            }
            c => cur.push(c),
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    Some(out)
}

fn parse_pipe(t: &str, line: usize, body: &str) -> Result<Pipe, String> {
    let words = tokens(body).ok_or_else(|| parse_err(t, line, "unterminated quoted string"))?;
    match words.first().map(String::as_str) {
        None => Err(parse_err(t, line, "missing value for command")),
        Some("index") if words.len() >= 2 => {
            let rest = words[2..]
                .iter()
                .map(|w| parse_arg(t, line, w))
                .collect::<Result<_, _>>()?;
            Ok(Pipe::Index(parse_arg(t, line, &words[1])?, rest))
        }
        Some("len") if words.len() == 2 => Ok(Pipe::Len(parse_arg(t, line, &words[1])?)),
        Some(w) if words.len() == 1 => Ok(Pipe::Arg(parse_arg(t, line, w)?)),
        Some(w) if w.starts_with('.') || w.starts_with('$') || w.starts_with('"') => Err(
            parse_err(t, line, &format!("can't give argument to non-function {w}")),
        ),
        Some(w) => Err(parse_err(t, line, &format!("function {w:?} not defined"))),
    }
}

impl GoTemplate {
    /// Parse a template; errors are kubectl's `error parsing template` text.
    pub fn parse(t: &str) -> Result<GoTemplate, String> {
        // (block, pipe, then-branch, else-branch, in else)
        type Open = (Block, Pipe, Vec<Node>, Vec<Node>, bool);
        let mut stack: Vec<Open> = Vec::new();
        let mut cur: Vec<Node> = Vec::new();
        let mut last_line = 1;
        for (action, text, line) in lex(t)? {
            last_line = line;
            if !action {
                if !text.is_empty() {
                    cur.push(Node::Text(text));
                }
                continue;
            }
            if text.starts_with("/*") {
                continue;
            }
            let (word, rest) = text.split_once(' ').unwrap_or((&text, ""));
            match word {
                "range" | "if" | "with" => {
                    let block = match word {
                        "range" => Block::Range,
                        "if" => Block::If,
                        _ => Block::With,
                    };
                    let pipe = parse_pipe(t, line, rest.trim())?;
                    stack.push((block, pipe, std::mem::take(&mut cur), Vec::new(), false));
                }
                "else" => match stack.last_mut() {
                    Some(open) if !open.4 => {
                        open.4 = true;
                        open.3 = std::mem::take(&mut cur);
                    }
                    _ => return Err(parse_err(t, line, "unexpected {{else}}")),
                },
                "end" => {
                    let (block, pipe, outer, then, in_else) = stack
                        .pop()
                        .ok_or_else(|| parse_err(t, line, "unexpected {{end}}"))?;
                    let body = std::mem::replace(&mut cur, outer);
                    let (then, other) = if in_else {
                        (then, body)
                    } else {
                        (body, Vec::new())
                    };
                    cur.push(Node::Control(block, pipe, then, other));
                }
                _ => cur.push(Node::Print(parse_pipe(t, line, &text)?)),
            }
        }
        if !stack.is_empty() {
            return Err(parse_err(t, last_line, "unexpected EOF"));
        }
        Ok(GoTemplate { nodes: cur })
    }

    /// Execute against `data`.
    pub fn execute(&self, data: &Value) -> Result<String, String> {
        let mut out = String::new();
        run(&self.nodes, Some(data), data, &mut out);
        Ok(out)
    }
}

fn walk<'a>(mut v: Option<&'a Value>, fields: &[String]) -> Option<&'a Value> {
    for f in fields {
        v = v.and_then(|x| x.get(f));
    }
    v
}

fn eval_arg<'a>(a: &'a Arg, dot: Option<&'a Value>, root: &'a Value) -> Option<Value> {
    match a {
        Arg::Dot(f) => walk(dot, f).cloned(),
        Arg::Root(f) => walk(Some(root), f).cloned(),
        Arg::Str(s) => Some(Value::String(s.clone())),
    }
}

fn eval(p: &Pipe, dot: Option<&Value>, root: &Value) -> Option<Value> {
    match p {
        Pipe::Arg(a) => eval_arg(a, dot, root),
        Pipe::Index(a, keys) => {
            let mut v = eval_arg(a, dot, root);
            for k in keys {
                let key = eval_arg(k, dot, root);
                v = match (v, key) {
                    (Some(Value::Object(m)), Some(Value::String(k))) => m.get(&k).cloned(),
                    (Some(Value::Array(a)), Some(Value::Number(n))) => {
                        n.as_u64().and_then(|i| a.get(i as usize).cloned())
                    }
                    _ => None,
                };
            }
            v
        }
        Pipe::Len(a) => eval_arg(a, dot, root).map(|v| {
            Value::from(match v {
                Value::Array(a) => a.len(),
                Value::Object(m) => m.len(),
                Value::String(s) => s.len(),
                _ => 0,
            })
        }),
    }
}

/// text/template's truth: false, 0, nil, empty string, list and map are false.
fn truth(v: &Option<Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(Value::Array(a)) => !a.is_empty(),
        Some(Value::Object(m)) => !m.is_empty(),
    }
}

fn run(nodes: &[Node], dot: Option<&Value>, root: &Value, out: &mut String) {
    for n in nodes {
        match n {
            Node::Text(t) => out.push_str(t),
            Node::Print(p) => match eval(p, dot, root) {
                Some(v) => out.push_str(&go_sprint(&v)),
                None => out.push_str("<no value>"),
            },
            Node::Control(block, p, then, other) => {
                let v = eval(p, dot, root);
                match block {
                    Block::If if truth(&v) => run(then, dot, root, out),
                    Block::With if truth(&v) => run(then, v.as_ref(), root, out),
                    Block::Range if truth(&v) => {
                        // A map ranges over its values in key order, as Go sorts them.
                        let items: Vec<Value> = match v {
                            Some(Value::Array(a)) => a,
                            Some(Value::Object(m)) => m.into_iter().map(|(_, v)| v).collect(),
                            _ => Vec::new(),
                        };
                        for it in &items {
                            run(then, Some(it), root, out);
                        }
                    }
                    _ => run(other, dot, root, out),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn exec(t: &str, v: Value) -> String {
        GoTemplate::parse(t).unwrap().execute(&v).unwrap()
    }

    #[test]
    fn fields_ranges_and_literals_print_as_go_does() {
        let v = json!({"items": [{"metadata": {"name": "a", "labels": {"x": "1"}}}, {"metadata": {"name": "b"}}]});
        assert_eq!(
            exec(
                r#"{{range .items}}{{.metadata.name}} {{.metadata.labels}}{{"\n"}}{{end}}"#,
                v
            ),
            "a map[x:1]\nb <no value>\n"
        );
    }

    #[test]
    fn if_else_index_len_and_trim_markers_work() {
        let v = json!({"items": [1, 2], "m": {"k.x": "v"}});
        assert_eq!(
            exec(
                r#"{{ len .items }} {{- if .nope }}yes{{else}} no{{end}} {{index .m "k.x"}}"#,
                v
            ),
            "2 no v"
        );
    }

    #[test]
    fn parse_errors_use_kubectls_words() {
        assert_eq!(
            GoTemplate::parse("{{.x").unwrap_err(),
            "error: error parsing template {{.x, template: output:1: unclosed action"
        );
        assert_eq!(
            GoTemplate::parse("{{foo}}").unwrap_err(),
            "error: error parsing template {{foo}}, template: output:1: function \"foo\" not defined"
        );
    }
}
