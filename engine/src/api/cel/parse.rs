//! CEL's syntax (`github.com/google/cel-spec`, `doc/langdef.md`), the part validation
//! rules use: literals, `self` and `oldSelf`, field selection, indexing, calls and
//! receiver calls (`size(x)`, `x.startsWith(y)`, the macros `has`, `all`, `exists`,
//! `exists_one`, `map`, `filter`), the unary, arithmetic, relational and logical
//! operators, `in`, and the conditional `a ? b : c`.

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// `null`.
    Null,
    /// `true`, `false`.
    Bool(bool),
    /// An integer.
    Int(i64),
    /// A double.
    Double(f64),
    /// A string.
    Str(String),
    /// A list literal.
    List(Vec<Expr>),
    /// An identifier (`self`, `oldSelf`, a macro's variable).
    Ident(String),
    /// `x.f`.
    Select(Box<Expr>, String),
    /// `x[i]`.
    Index(Box<Expr>, Box<Expr>),
    /// `f(args)` (no receiver) or `x.f(args)`.
    Call(Option<Box<Expr>>, String, Vec<Expr>),
    /// `!x`, `-x`.
    Unary(&'static str, Box<Expr>),
    /// `a op b`.
    Binary(&'static str, Box<Expr>, Box<Expr>),
    /// `c ? a : b`.
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(i64),
    Double(f64),
    Str(String),
    Op(&'static str),
}

/// How deep an expression may nest: the parser recurses once per level.
const MAX_NESTING: usize = 64;
/// How long a rule may be (upstream bounds a rule's cost, not its length; this keeps
/// the parser's work small).
pub const MAX_RULE_LEN: usize = 4096;

const OPS: [&str; 22] = [
    "==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "%", "?", ":", ".", "[",
    "]", "(", ")", ",",
];

fn lex(src: &str) -> Result<Vec<(usize, Tok)>, String> {
    let b = src.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push((start, Tok::Ident(src[start..i].to_string())));
            continue;
        }
        if c.is_ascii_digit() {
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let double = i + 1 < b.len() && b[i] == b'.' && b[i + 1].is_ascii_digit();
            if double {
                i += 1;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let v = src[start..i]
                    .parse()
                    .map_err(|_| at(src, start, "invalid number"))?;
                out.push((start, Tok::Double(v)));
            } else {
                let v = src[start..i]
                    .parse()
                    .map_err(|_| at(src, start, "integer overflow"))?;
                if i < b.len() && (b[i] == b'u' || b[i] == b'U') {
                    i += 1;
                }
                out.push((start, Tok::Int(v)));
            }
            continue;
        }
        if c == b'"' || c == b'\'' {
            i += 1;
            let mut s = String::new();
            loop {
                let Some(&d) = b.get(i) else {
                    return Err(at(src, start, "Syntax error: token recognition error"));
                };
                if d == c {
                    i += 1;
                    break;
                }
                if d == b'\\' {
                    // The escaped character, whole (it may be several bytes).
                    let Some(e) = src[i + 1..].chars().next() else {
                        return Err(at(src, start, "Syntax error: token recognition error"));
                    };
                    s.push(match e {
                        'n' => '\n',
                        't' => '\t',
                        other => other,
                    });
                    i += 1 + e.len_utf8();
                    continue;
                }
                let ch = src[i..].chars().next().unwrap_or('?');
                s.push(ch);
                i += ch.len_utf8();
            }
            out.push((start, Tok::Str(s)));
            continue;
        }
        let Some(op) = OPS.iter().find(|o| src[i..].starts_with(**o)) else {
            return Err(at(src, start, "Syntax error: token recognition error"));
        };
        i += op.len();
        out.push((start, Tok::Op(op)));
    }
    Ok(out)
}

/// cel-go's error position: `ERROR: <input>:1:COLUMN: message`.
fn at(_src: &str, pos: usize, msg: &str) -> String {
    format!("ERROR: <input>:1:{}: {msg}", pos + 1)
}

struct Parser<'a> {
    src: &'a str,
    toks: Vec<(usize, Tok)>,
    pos: usize,
    depth: usize,
}

/// How deep a parsed expression is, walked without recursion (a left-deep chain
/// `1+1+…` is built by a loop, not by recursion, and evaluating it recurses once per
/// level).
pub fn depth(e: &Expr) -> usize {
    let mut deepest = 0;
    let mut todo = vec![(e, 1usize)];
    while let Some((x, d)) = todo.pop() {
        deepest = deepest.max(d);
        match x {
            Expr::List(xs) => todo.extend(xs.iter().map(|c| (c, d + 1))),
            Expr::Select(c, _) | Expr::Unary(_, c) => todo.push((c, d + 1)),
            Expr::Index(a, b) | Expr::Binary(_, a, b) => {
                todo.extend([(&**a, d + 1), (&**b, d + 1)])
            }
            Expr::Call(r, _, args) => {
                todo.extend(r.iter().map(|c| (&**c, d + 1)));
                todo.extend(args.iter().map(|c| (c, d + 1)));
            }
            Expr::Cond(a, b, c) => todo.extend([(&**a, d + 1), (&**b, d + 1), (&**c, d + 1)]),
            _ => {}
        }
    }
    deepest
}

/// Parse a rule.
pub fn parse(src: &str) -> Result<Expr, String> {
    if src.len() > MAX_RULE_LEN {
        return Err(format!(
            "ERROR: <input>:1:1: expression too long (more than {MAX_RULE_LEN} characters)"
        ));
    }
    let toks = lex(src)?;
    let mut p = Parser {
        src,
        toks,
        pos: 0,
        depth: 0,
    };
    let e = p.expr()?;
    if let Some((at_, _)) = p.toks.get(p.pos) {
        return Err(at(src, *at_, "Syntax error: extraneous input"));
    }
    if depth(&e) > MAX_NESTING {
        return Err(at(src, 0, "expression recursion limit exceeded"));
    }
    Ok(e)
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|(_, t)| t)
    }

    fn here(&self) -> usize {
        self.toks.get(self.pos).map_or(self.src.len(), |(p, _)| *p)
    }

    fn eat(&mut self, op: &str) -> bool {
        if matches!(self.peek(), Some(Tok::Op(o)) if *o == op) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn expect(&mut self, op: &str) -> Result<(), String> {
        if self.eat(op) {
            Ok(())
        } else {
            Err(at(
                self.src,
                self.here(),
                &format!("Syntax error: missing '{op}'"),
            ))
        }
    }

    fn expr(&mut self) -> Result<Expr, String> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(at(
                self.src,
                self.here(),
                "expression recursion limit exceeded",
            ));
        }
        let c = self.or()?;
        let e = if self.eat("?") {
            let a = self.or()?;
            self.expect(":")?;
            let b = self.expr()?;
            Expr::Cond(Box::new(c), Box::new(a), Box::new(b))
        } else {
            c
        };
        self.depth -= 1;
        Ok(e)
    }

    fn binary(
        &mut self,
        ops: &[&'static str],
        next: fn(&mut Self) -> Result<Expr, String>,
    ) -> Result<Expr, String> {
        let mut l = next(self)?;
        loop {
            let op = match self.peek() {
                Some(Tok::Op(o)) if ops.contains(o) => *o,
                Some(Tok::Ident(w)) if w == "in" && ops.contains(&"in") => "in",
                _ => return Ok(l),
            };
            self.pos += 1;
            let r = next(self)?;
            l = Expr::Binary(op, Box::new(l), Box::new(r));
        }
    }

    fn or(&mut self) -> Result<Expr, String> {
        self.binary(&["||"], Self::and)
    }

    fn and(&mut self) -> Result<Expr, String> {
        self.binary(&["&&"], Self::relation)
    }

    fn relation(&mut self) -> Result<Expr, String> {
        self.binary(&["==", "!=", "<", "<=", ">", ">=", "in"], Self::addition)
    }

    fn addition(&mut self) -> Result<Expr, String> {
        self.binary(&["+", "-"], Self::multiplication)
    }

    fn multiplication(&mut self) -> Result<Expr, String> {
        self.binary(&["*", "/", "%"], Self::unary)
    }

    fn unary(&mut self) -> Result<Expr, String> {
        for op in ["!", "-"] {
            if self.eat(op) {
                self.depth += 1;
                if self.depth > MAX_NESTING {
                    return Err(at(
                        self.src,
                        self.here(),
                        "expression recursion limit exceeded",
                    ));
                }
                let e = self.unary()?;
                self.depth -= 1;
                return Ok(match (op, e) {
                    ("-", Expr::Int(n)) => Expr::Int(-n),
                    ("-", Expr::Double(d)) => Expr::Double(-d),
                    (op, e) => Expr::Unary(if op == "!" { "!" } else { "-" }, Box::new(e)),
                });
            }
        }
        self.member()
    }

    fn member(&mut self) -> Result<Expr, String> {
        let mut e = self.primary()?;
        loop {
            if self.eat(".") {
                let Some(Tok::Ident(name)) = self.peek().cloned() else {
                    return Err(at(
                        self.src,
                        self.here(),
                        "Syntax error: missing IDENTIFIER",
                    ));
                };
                self.pos += 1;
                if self.eat("(") {
                    let args = self.args(")")?;
                    e = Expr::Call(Some(Box::new(e)), name, args);
                } else {
                    e = Expr::Select(Box::new(e), name);
                }
            } else if self.eat("[") {
                let i = self.expr()?;
                self.expect("]")?;
                e = Expr::Index(Box::new(e), Box::new(i));
            } else {
                return Ok(e);
            }
        }
    }

    fn args(&mut self, close: &str) -> Result<Vec<Expr>, String> {
        let mut out = Vec::new();
        if self.eat(close) {
            return Ok(out);
        }
        loop {
            out.push(self.expr()?);
            if self.eat(close) {
                return Ok(out);
            }
            self.expect(",")?;
        }
    }

    fn primary(&mut self) -> Result<Expr, String> {
        let pos = self.here();
        let Some(t) = self.peek().cloned() else {
            return Err(at(self.src, pos, "Syntax error: mismatched input '<EOF>'"));
        };
        self.pos += 1;
        Ok(match t {
            Tok::Int(n) => Expr::Int(n),
            Tok::Double(d) => Expr::Double(d),
            Tok::Str(s) => Expr::Str(s),
            Tok::Ident(w) => match w.as_str() {
                "true" => Expr::Bool(true),
                "false" => Expr::Bool(false),
                "null" => Expr::Null,
                _ if self.eat("(") => Expr::Call(None, w, self.args(")")?),
                _ => Expr::Ident(w),
            },
            Tok::Op("(") => {
                let e = self.expr()?;
                self.expect(")")?;
                e
            }
            Tok::Op("[") => Expr::List(self.args("]")?),
            Tok::Op(o) => {
                return Err(at(
                    self.src,
                    pos,
                    &format!("Syntax error: mismatched input '{o}'"),
                ))
            }
        })
    }
}
