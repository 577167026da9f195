//! Evaluating a parsed rule against JSON values (see the module's comment).

use super::parse::Expr;
use serde_json::{json, Value};

/// The cost one evaluation may spend (upstream's `PerCallLimit`, 1,000,000).
pub const COST_LIMIT: u64 = 1_000_000;

/// What every rule of one object's validation may spend together (upstream's
/// `RuntimeCELCostBudget`, 10,000,000).
pub const OBJECT_BUDGET: u64 = 10_000_000;

/// What a value costs to make or copy: one unit per JSON node, counted up to a cap
/// (a copy of a large `self` is charged for its size, so a rule cannot copy it a
/// million times for the price of a million steps).
fn weight(v: &Value) -> u64 {
    const CAP: u64 = 1 << 20;
    let mut n = 0;
    let mut todo = vec![v];
    while let Some(x) = todo.pop() {
        n += 1;
        if n >= CAP {
            break;
        }
        match x {
            Value::Array(a) => todo.extend(a.iter()),
            Value::Object(m) => todo.extend(m.values()),
            Value::String(s) => n += s.len() as u64 / 16,
            _ => {}
        }
    }
    n
}

/// What a rule came to.
#[derive(Clone, Debug, PartialEq)]
pub enum Outcome {
    /// It held.
    Holds,
    /// It returned false.
    Fails,
    /// It could not be evaluated: the error (`no such key: replicas`).
    Error(String),
    /// It ran out of cost.
    OverBudget,
}

const FUNCTIONS: [&str; 15] = [
    "has",
    "size",
    "startsWith",
    "endsWith",
    "contains",
    "lowerAscii",
    "upperAscii",
    "int",
    "double",
    "string",
    "all",
    "exists",
    "exists_one",
    "map",
    "filter",
];

/// Every function a rule calls is one this evaluator has.
pub fn check_functions(e: &Expr) -> Result<(), String> {
    let mut bad = None;
    walk(e, &mut |x| {
        if let Expr::Call(_, name, _) = x {
            if !FUNCTIONS.contains(&name.as_str()) && bad.is_none() {
                bad = Some(name.clone());
            }
        }
    });
    match bad {
        Some(name) => Err(format!(
            "ERROR: <input>:1:1: undeclared reference to '{name}' (in container '')"
        )),
        None => Ok(()),
    }
}

fn walk(e: &Expr, f: &mut dyn FnMut(&Expr)) {
    f(e);
    match e {
        Expr::List(xs) => xs.iter().for_each(|x| walk(x, f)),
        Expr::Select(x, _) | Expr::Unary(_, x) => walk(x, f),
        Expr::Index(a, b) | Expr::Binary(_, a, b) => {
            walk(a, f);
            walk(b, f);
        }
        Expr::Call(r, _, args) => {
            if let Some(r) = r {
                walk(r, f);
            }
            args.iter().for_each(|x| walk(x, f));
        }
        Expr::Cond(a, b, c) => {
            walk(a, f);
            walk(b, f);
            walk(c, f);
        }
        _ => {}
    }
}

/// Whether the rule is a transition rule (it reads `oldSelf`).
pub fn uses_old_self(e: &Expr) -> bool {
    let mut found = false;
    walk(e, &mut |x| {
        if matches!(x, Expr::Ident(n) if n == "oldSelf") {
            found = true;
        }
    });
    found
}

struct Env<'a> {
    vars: Vec<(String, Value)>,
    self_: &'a Value,
    old: Option<&'a Value>,
    cost: u64,
    /// The most this evaluation may spend: the per-call limit, or what is left of
    /// the object's budget.
    limit: u64,
}

/// Evaluate `e` with `self` (and `oldSelf`), spending from `left` (what is left of
/// the object's budget).
pub fn evaluate(e: &Expr, self_: &Value, old: Option<&Value>, left: &mut u64) -> Outcome {
    let limit = COST_LIMIT.min(*left);
    let mut env = Env {
        vars: Vec::new(),
        self_,
        old,
        cost: 0,
        limit,
    };
    let r = eval(e, &mut env);
    *left = left.saturating_sub(env.cost);
    match r {
        Ok(Value::Bool(true)) => Outcome::Holds,
        Ok(Value::Bool(false)) => Outcome::Fails,
        Ok(_) => Outcome::Error("no matching overload".into()),
        Err(_) if env.cost > env.limit => Outcome::OverBudget,
        Err(e) => Outcome::Error(e),
    }
}

/// Evaluate `e` over named variables (an admission policy's `object`, `oldObject`,
/// `params`, `request`, `namespaceObject`, `variables`), spending from `left`: its
/// value, or the error cel-go gives (running past the limit is `operation
/// cancelled: actual cost limit exceeded`).
pub fn evaluate_value(e: &Expr, vars: &[(String, Value)], left: &mut u64) -> Result<Value, String> {
    static NULL: Value = Value::Null;
    let mut env = Env {
        vars: vars.to_vec(),
        self_: &NULL,
        old: None,
        cost: 0,
        limit: COST_LIMIT.min(*left),
    };
    let r = eval(e, &mut env);
    *left = left.saturating_sub(env.cost);
    r
}

/// Evaluate `e` to a string (a `messageExpression`); None for anything else.
pub fn evaluate_string(e: &Expr, self_: &Value, old: Option<&Value>) -> Option<String> {
    let mut env = Env {
        vars: Vec::new(),
        self_,
        old,
        cost: 0,
        limit: COST_LIMIT,
    };
    match eval(e, &mut env) {
        Ok(Value::String(s)) => Some(s),
        _ => None,
    }
}

type R = Result<Value, String>;

fn no_overload(op: &str) -> String {
    format!("no such overload: {op}")
}

fn eval(e: &Expr, env: &mut Env) -> R {
    env.cost += 1;
    if env.cost > env.limit {
        return Err("operation cancelled: actual cost limit exceeded".into());
    }
    let v = eval_node(e, env)?;
    // Values made or copied are charged for their size (see `weight`).
    let made = matches!(
        e,
        Expr::Ident(_)
            | Expr::Select(..)
            | Expr::Index(..)
            | Expr::List(_)
            | Expr::Binary("+", ..)
            | Expr::Call(..)
    );
    if made {
        env.cost += weight(&v);
        if env.cost > env.limit {
            return Err("operation cancelled: actual cost limit exceeded".into());
        }
    }
    Ok(v)
}

fn eval_node(e: &Expr, env: &mut Env) -> R {
    match e {
        Expr::Null => Ok(Value::Null),
        Expr::Bool(b) => Ok(json!(b)),
        Expr::Int(n) => Ok(json!(n)),
        Expr::Double(d) => Ok(json!(d)),
        Expr::Str(s) => Ok(json!(s)),
        Expr::List(xs) => xs
            .iter()
            .map(|x| eval(x, env))
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        Expr::Ident(n) => match n.as_str() {
            "self" => Ok(env.self_.clone()),
            "oldSelf" => env
                .old
                .cloned()
                .ok_or_else(|| "no such attribute: oldSelf".into()),
            _ => env
                .vars
                .iter()
                .rev()
                .find(|(v, _)| v == n)
                .map(|(_, x)| x.clone())
                .ok_or_else(|| format!("no such attribute: {n}")),
        },
        Expr::Select(x, f) => {
            let v = eval(x, env)?;
            match v {
                Value::Object(m) => m.get(f).cloned().ok_or_else(|| format!("no such key: {f}")),
                // cel-go's `refQualify` on null (`object.spec` on a DELETE).
                Value::Null => Err(format!("no such key: {f}")),
                _ => Err(format!(
                    "type '{}' does not support field selection",
                    cel_type(&v)
                )),
            }
        }
        Expr::Index(x, i) => {
            let (v, i) = (eval(x, env)?, eval(i, env)?);
            match (&v, &i) {
                (Value::Array(a), Value::Number(n)) => n
                    .as_i64()
                    .and_then(|k| usize::try_from(k).ok())
                    .and_then(|k| a.get(k).cloned())
                    .ok_or_else(|| format!("index out of bounds: {n}")),
                (Value::Object(m), Value::String(k)) => {
                    m.get(k).cloned().ok_or_else(|| format!("no such key: {k}"))
                }
                _ => Err(no_overload("_[_]")),
            }
        }
        Expr::Unary(op, x) => {
            let v = eval(x, env)?;
            match (*op, &v) {
                ("!", Value::Bool(b)) => Ok(json!(!b)),
                ("-", Value::Number(n)) if n.is_i64() => n
                    .as_i64()
                    .and_then(i64::checked_neg)
                    .map(|k| json!(k))
                    .ok_or_else(|| "return error for overflow".into()),
                ("-", Value::Number(n)) => Ok(json!(-n.as_f64().unwrap_or(0.0))),
                _ => Err(no_overload(op)),
            }
        }
        Expr::Binary(op, a, b) => binary(op, a, b, env),
        Expr::Cond(c, a, b) => match eval(c, env)? {
            Value::Bool(true) => eval(a, env),
            Value::Bool(false) => eval(b, env),
            _ => Err(no_overload("_?_:_")),
        },
        Expr::Call(recv, name, args) => call(recv.as_deref(), name, args, env),
    }
}

fn logical(op: &str, a: &Expr, b: &Expr, env: &mut Env) -> R {
    // CEL's && and || are commutative over errors: a decisive side wins either way.
    let decisive = op == "||";
    let l = eval(a, env);
    if matches!(l, Ok(Value::Bool(x)) if x == decisive) {
        return Ok(json!(decisive));
    }
    let r = eval(b, env);
    if matches!(r, Ok(Value::Bool(x)) if x == decisive) {
        return Ok(json!(decisive));
    }
    match (l?, r?) {
        (Value::Bool(_), Value::Bool(_)) => Ok(json!(!decisive)),
        _ => Err(no_overload(op)),
    }
}

fn binary(op: &str, a: &Expr, b: &Expr, env: &mut Env) -> R {
    if op == "&&" || op == "||" {
        return logical(op, a, b, env);
    }
    let (l, r) = (eval(a, env)?, eval(b, env)?);
    match op {
        "==" => Ok(json!(equal(&l, &r))),
        "!=" => Ok(json!(!equal(&l, &r))),
        "in" => match &r {
            Value::Array(xs) => Ok(json!(xs.iter().any(|x| equal(x, &l)))),
            Value::Object(m) => match &l {
                Value::String(k) => Ok(json!(m.contains_key(k))),
                _ => Ok(json!(false)),
            },
            _ => Err(no_overload("@in")),
        },
        "<" | "<=" | ">" | ">=" => {
            let ord = compare(&l, &r).ok_or_else(|| no_overload(op))?;
            Ok(json!(match op {
                "<" => ord.is_lt(),
                "<=" => ord.is_le(),
                ">" => ord.is_gt(),
                _ => ord.is_ge(),
            }))
        }
        _ => arithmetic(op, &l, &r),
    }
}

fn equal(a: &Value, b: &Value) -> bool {
    match (a, b) {
        // Two ints compare as ints: through f64, 2^53 + 1 would equal 2^53.
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => i == j,
            _ => x.as_f64() == y.as_f64(),
        },
        _ => a == b,
    }
}

fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => match (x.as_i64(), y.as_i64()) {
            (Some(i), Some(j)) => Some(i.cmp(&j)),
            _ => x.as_f64()?.partial_cmp(&y.as_f64()?),
        },
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        (Value::Bool(x), Value::Bool(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

fn arithmetic(op: &str, l: &Value, r: &Value) -> R {
    let overflow = || "return error for overflow".to_string();
    match (l, r) {
        (Value::Number(x), Value::Number(y)) if x.is_i64() && y.is_i64() => {
            let (i, j) = (x.as_i64().unwrap_or(0), y.as_i64().unwrap_or(0));
            let v = match op {
                "+" => i.checked_add(j).ok_or_else(overflow)?,
                "-" => i.checked_sub(j).ok_or_else(overflow)?,
                "*" => i.checked_mul(j).ok_or_else(overflow)?,
                "/" if j == 0 => return Err("division by zero".into()),
                "/" => i.checked_div(j).ok_or_else(overflow)?,
                "%" if j == 0 => return Err("modulus by zero".into()),
                "%" => i.checked_rem(j).ok_or_else(overflow)?,
                _ => return Err(no_overload(op)),
            };
            Ok(json!(v))
        }
        (Value::Number(x), Value::Number(y)) => {
            let (i, j) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            Ok(json!(match op {
                "+" => i + j,
                "-" => i - j,
                "*" => i * j,
                "/" => i / j,
                _ => return Err(no_overload(op)),
            }))
        }
        (Value::String(x), Value::String(y)) if op == "+" => Ok(json!(format!("{x}{y}"))),
        (Value::Array(x), Value::Array(y)) if op == "+" => {
            Ok(Value::Array(x.iter().chain(y).cloned().collect()))
        }
        _ => Err(no_overload(op)),
    }
}

fn cel_type(v: &Value) -> &'static str {
    match v {
        Value::Null => "null_type",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_i64() || n.is_u64() => "int",
        Value::Number(_) => "double",
        Value::String(_) => "string",
        Value::Array(_) => "list",
        Value::Object(_) => "map",
    }
}

fn call(recv: Option<&Expr>, name: &str, args: &[Expr], env: &mut Env) -> R {
    if name == "has" {
        // `has(x.f)`: whether the field is present, without failing when it is not.
        let [Expr::Select(x, f)] = args else {
            return Err("invalid argument to has() macro".into());
        };
        return match eval(x, env)? {
            Value::Object(m) => Ok(json!(m.contains_key(f))),
            other => Err(format!(
                "type '{}' does not support field selection",
                cel_type(&other)
            )),
        };
    }
    if let (Some(r), "all" | "exists" | "exists_one" | "map" | "filter") = (recv, name) {
        return comprehension(r, name, args, env);
    }
    let target = match recv {
        Some(r) => Some(eval(r, env)?),
        None => None,
    };
    let vals: Vec<Value> = args
        .iter()
        .map(|a| eval(a, env))
        .collect::<Result<_, _>>()?;
    let one = match (&target, vals.as_slice()) {
        (Some(t), []) => t.clone(),
        (None, [x]) => x.clone(),
        (Some(t), [x]) => return string_method(name, t, x),
        _ => return Err(no_overload(name)),
    };
    match (name, &one) {
        ("size", Value::String(s)) => Ok(json!(s.chars().count())),
        ("size", Value::Array(a)) => Ok(json!(a.len())),
        ("size", Value::Object(m)) => Ok(json!(m.len())),
        ("lowerAscii", Value::String(s)) => Ok(json!(s.to_ascii_lowercase())),
        ("upperAscii", Value::String(s)) => Ok(json!(s.to_ascii_uppercase())),
        ("int", Value::Number(n)) => n
            .as_i64()
            .or_else(|| {
                n.as_f64()
                    .filter(|f| f.is_finite() && f.abs() < 9.2e18)
                    .map(|f| f as i64)
            })
            .map(|i| json!(i))
            .ok_or_else(|| "int() range error".into()),
        ("int", Value::String(s)) => s
            .parse::<i64>()
            .map(|i| json!(i))
            .map_err(|_| format!("cannot convert '{s}' to int")),
        ("double", Value::Number(n)) => Ok(json!(n.as_f64().unwrap_or(0.0))),
        ("double", Value::String(s)) => s
            .parse::<f64>()
            .map(|d| json!(d))
            .map_err(|_| format!("cannot convert '{s}' to double")),
        ("string", Value::String(s)) => Ok(json!(s)),
        ("string", Value::Number(n)) => Ok(json!(n.to_string())),
        ("string", Value::Bool(b)) => Ok(json!(b.to_string())),
        _ => Err(no_overload(name)),
    }
}

fn string_method(name: &str, t: &Value, x: &Value) -> R {
    match (name, t, x) {
        ("startsWith", Value::String(s), Value::String(p)) => Ok(json!(s.starts_with(p.as_str()))),
        ("endsWith", Value::String(s), Value::String(p)) => Ok(json!(s.ends_with(p.as_str()))),
        ("contains", Value::String(s), Value::String(p)) => Ok(json!(s.contains(p.as_str()))),
        _ => Err(no_overload(name)),
    }
}

/// `x.all(v, p)`, `exists`, `exists_one`, `map(v, e)`, `filter(v, p)`: over a list's
/// items or a map's keys.
fn comprehension(r: &Expr, name: &str, args: &[Expr], env: &mut Env) -> R {
    let [Expr::Ident(var), body] = args else {
        return Err(format!("invalid arguments to {name}() macro"));
    };
    let items: Vec<Value> = match eval(r, env)? {
        Value::Array(a) => a,
        Value::Object(m) => m.keys().map(|k| json!(k)).collect(),
        other => {
            return Err(format!(
                "type '{}' does not support iteration",
                cel_type(&other)
            ))
        }
    };
    let (mut count, mut out, mut error) = (0usize, Vec::new(), None);
    for item in items {
        env.vars.push((var.clone(), item.clone()));
        let v = eval(body, env);
        env.vars.pop();
        match (name, v) {
            ("map", Ok(x)) => out.push(x),
            (_, Ok(Value::Bool(true))) => {
                count += 1;
                if name == "filter" {
                    out.push(item);
                }
                if name == "exists" {
                    return Ok(json!(true));
                }
            }
            ("all", Ok(Value::Bool(false))) => return Ok(json!(false)),
            (_, Ok(Value::Bool(false))) => {}
            (_, Ok(_)) => return Err(no_overload(name)),
            (_, Err(e)) if env.cost > env.limit => return Err(e),
            // An error is kept unless a later item decides (`all` false, `exists` true).
            (_, Err(e)) => {
                if matches!(name, "map" | "filter" | "exists_one") {
                    return Err(e);
                }
                error.get_or_insert(e);
            }
        }
    }
    if let Some(e) = error {
        return Err(e);
    }
    Ok(match name {
        "all" => json!(true),
        "exists" => json!(false),
        "exists_one" => json!(count == 1),
        _ => Value::Array(out),
    })
}
