//! An object as Go's `encoding/json` writes the k8s.io/api struct kubectl holds it in.
//!
//! kubectl prints what it holds as a typed object — what `create deployment`, `run`,
//! `expose`, `autoscale` and `set image|env|resources` get back from their typed
//! clients, or build in a client dry run — by marshalling the Go struct:
//! - the fields come in declaration order (`kind` and `apiVersion` first), where an
//!   unstructured object's come sorted;
//! - every field that is not `omitempty` is written even when unset, as its zero
//!   value: `"creationTimestamp": null` in a pod template, `"status": {}`,
//!   `"resources": {}`, `"selector": null`; an `omitempty` struct is never omitted.
//!
//! The structs are described by `go_types.txt`, which `scripts/go-types.mjs` writes
//! from k8s.io/api and apimachinery at v0.33.0. A key the table does not know is kept,
//! after the known ones, so that a gap in the table never loses data.
//!
//! Upstream: `encoding/json` (`isEmptyValue`, struct field order, `HTMLEscape`),
//! `staging/src/k8s.io/cli-runtime/pkg/printers/json.go`.

use crate::api::Kind;
use serde_json::{Map, Value};
use std::collections::HashMap;
use std::sync::OnceLock;

/// The struct table (see the module's comment).
const TABLE: &str = include_str!("go_types.txt");

/// One JSON field of a Go struct.
struct Field {
    name: &'static str,
    omitempty: bool,
    inline: bool,
    ty: &'static str,
}

/// The table, parsed once.
fn structs() -> &'static HashMap<&'static str, Vec<Field>> {
    static STRUCTS: OnceLock<HashMap<&'static str, Vec<Field>>> = OnceLock::new();
    STRUCTS.get_or_init(|| {
        TABLE
            .lines()
            .filter_map(|line| {
                let mut words = line.split(' ');
                let id = words.next()?;
                let fields = words
                    .filter_map(|w| {
                        let mut parts = w.splitn(3, ':');
                        let (name, flags, ty) = (parts.next()?, parts.next()?, parts.next()?);
                        Some(Field {
                            name,
                            omitempty: flags.contains('o'),
                            inline: flags.contains('i'),
                            ty,
                        })
                    })
                    .collect();
                Some((id, fields))
            })
            .collect()
    })
}

/// A JSON value whose object members keep the order they were written in.
#[derive(Clone, Debug, PartialEq)]
pub enum Ordered {
    /// A scalar, or raw JSON written as it is.
    Leaf(Value),
    /// An array.
    Array(Vec<Ordered>),
    /// An object, its members in order.
    Object(Vec<(String, Ordered)>),
}

/// The TokenRequest's struct (a subresource's, not a served kind's).
pub const TOKEN_REQUEST: &str = "authentication/v1.TokenRequest";

/// The Go struct kubectl decodes a `kind` into (`apps/v1.Deployment`).
pub fn root_type(kind: Kind) -> String {
    // The table names a package by its group's first label (`rbac/v1` for
    // rbac.authorization.k8s.io/v1), the core group as `core`.
    let (group, version) = match kind.api_version().split_once('/') {
        Some((g, v)) => (g.split('.').next().unwrap_or(g), v),
        None => ("core", kind.api_version()),
    };
    format!("{group}/{version}.{}", kind.name())
}

/// `obj` as Go writes it in the struct `go_type` ([`root_type`], [`TOKEN_REQUEST`]).
pub fn typed(go_type: &str, obj: &Value) -> Ordered {
    encode(go_type, Some(obj))
}

/// Whether Go's `omitempty` leaves out this value of type `ty`: a zero scalar, a nil or
/// empty slice or map, a nil pointer — never a struct.
fn is_empty(ty: &str, v: Option<&Value>) -> bool {
    let is_struct = !(ty.starts_with('*')
        || ty.starts_with("[]")
        || ty.starts_with("{}")
        || matches!(ty, "s" | "i" | "f" | "b"));
    if is_struct {
        return false;
    }
    match v {
        None | Some(Value::Null) => true,
        Some(Value::String(s)) => s.is_empty() && !ty.starts_with('*'),
        Some(Value::Number(n)) => n.as_f64() == Some(0.0) && !ty.starts_with('*'),
        Some(Value::Bool(b)) => !b && !ty.starts_with('*'),
        Some(Value::Array(a)) => a.is_empty(),
        Some(Value::Object(m)) => m.is_empty() && ty.starts_with("{}"),
    }
}

/// A value of Go type `ty` (absent: its zero value).
fn encode(ty: &str, v: Option<&Value>) -> Ordered {
    let v = v.filter(|v| !v.is_null());
    let leaf = |zero: Value| Ordered::Leaf(v.cloned().unwrap_or(zero));
    match ty {
        "s" => leaf(Value::String(String::new())),
        "i" | "f" | "x" => leaf(Value::from(0)),
        "b" => leaf(Value::Bool(false)),
        "q" => leaf(Value::String("0".into())),
        "t" | "r" => leaf(Value::Null),
        _ if ty.starts_with('*') => match v {
            None => Ordered::Leaf(Value::Null),
            Some(_) => encode(&ty[1..], v),
        },
        _ if ty.starts_with("[]") => match v {
            Some(Value::Array(a)) => {
                Ordered::Array(a.iter().map(|x| encode(&ty[2..], Some(x))).collect())
            }
            _ => leaf(Value::Null),
        },
        _ if ty.starts_with("{}") => match v {
            // A Go map's keys come sorted, as serde_json's map already keeps them.
            Some(Value::Object(m)) => Ordered::Object(
                m.iter()
                    .map(|(k, x)| (k.clone(), encode(&ty[2..], Some(x))))
                    .collect(),
            ),
            _ => leaf(Value::Null),
        },
        _ => match (structs().get(ty), v) {
            (Some(fields), Some(Value::Object(m))) => encode_struct(fields, Some(m)),
            (Some(fields), None) => encode_struct(fields, None),
            _ => leaf(Value::Object(Map::new())),
        },
    }
}

/// A struct's fields in order, then any key the table does not know.
fn encode_struct(fields: &[Field], m: Option<&Map<String, Value>>) -> Ordered {
    let mut out = Vec::new();
    let mut known: Vec<&str> = Vec::new();
    for f in fields {
        if f.inline {
            if let (Some(inner), Ordered::Object(members)) = (
                structs().get(f.ty),
                encode(f.ty, m.map(|m| Value::Object(m.clone())).as_ref()),
            ) {
                known.extend(inner.iter().map(|f| f.name));
                out.extend(
                    members
                        .into_iter()
                        .filter(|(k, _)| inner.iter().any(|f| f.name == k.as_str())),
                );
            }
            continue;
        }
        known.push(f.name);
        let x = m.and_then(|m| m.get(f.name));
        if f.omitempty && is_empty(f.ty, x) {
            continue;
        }
        out.push((f.name.to_string(), encode(f.ty, x)));
    }
    if let Some(m) = m {
        for (k, x) in m {
            if !known.contains(&k.as_str()) {
                out.push((k.clone(), Ordered::Leaf(x.clone())));
            }
        }
    }
    Ordered::Object(out)
}

impl Ordered {
    /// The same value as plain JSON (its objects' keys sorted again).
    pub fn to_value(&self) -> Value {
        match self {
            Ordered::Leaf(v) => v.clone(),
            Ordered::Array(a) => Value::Array(a.iter().map(Ordered::to_value).collect()),
            Ordered::Object(m) => {
                Value::Object(m.iter().map(|(k, v)| (k.clone(), v.to_value())).collect())
            }
        }
    }

    /// Plain JSON with its keys in the order they come (sorted, from serde_json).
    pub fn from_value(v: &Value) -> Ordered {
        match v {
            Value::Array(a) => Ordered::Array(a.iter().map(Ordered::from_value).collect()),
            Value::Object(m) => Ordered::Object(
                m.iter()
                    .map(|(k, x)| (k.clone(), Ordered::from_value(x)))
                    .collect(),
            ),
            _ => Ordered::Leaf(v.clone()),
        }
    }

    /// `json.MarshalIndent(obj, "", "    ")`, as kubectl's JSON printer writes it.
    pub fn to_indented(&self) -> String {
        let mut out = String::new();
        self.write(&mut out, 0);
        go_html_escape(out)
    }

    fn write(&self, out: &mut String, depth: usize) {
        let pad = |out: &mut String, d: usize| {
            out.push('\n');
            out.push_str(&"    ".repeat(d));
        };
        match self {
            Ordered::Leaf(v @ (Value::Object(_) | Value::Array(_))) => {
                Ordered::from_value(v).write(out, depth)
            }
            Ordered::Leaf(v) => out.push_str(&v.to_string()),
            Ordered::Array(a) if a.is_empty() => out.push_str("[]"),
            Ordered::Object(m) if m.is_empty() => out.push_str("{}"),
            Ordered::Array(a) => {
                out.push('[');
                for (i, x) in a.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    pad(out, depth + 1);
                    x.write(out, depth + 1);
                }
                pad(out, depth);
                out.push(']');
            }
            Ordered::Object(m) => {
                out.push('{');
                for (i, (k, x)) in m.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    pad(out, depth + 1);
                    out.push_str(&Value::String(k.clone()).to_string());
                    out.push_str(": ");
                    x.write(out, depth + 1);
                }
                pad(out, depth);
                out.push('}');
            }
        }
    }
}

/// Go's JSON escapes `<`, `>`, `&`, U+2028 and U+2029 inside strings (`HTMLEscape`);
/// they appear nowhere else in JSON text, so each is replaced wherever it is. Text
/// without them is handed back as it is: a list of thousands of objects is not copied.
pub fn go_html_escape(json: String) -> String {
    if !json.contains(['<', '>', '&', '\u{2028}', '\u{2029}']) {
        return json;
    }
    json.replace('<', "\\u003c")
        .replace('>', "\\u003e")
        .replace('&', "\\u0026")
        .replace('\u{2028}', "\\u2028")
        .replace('\u{2029}', "\\u2029")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_served_kind_has_its_go_struct_in_the_table() {
        // kubectl never holds a CustomResourceDefinition as a typed object of
        // k8s.io/api (it is apiextensions-apiserver's type): it prints it unstructured.
        for kind in Kind::ALL
            .into_iter()
            .filter(|k| *k != Kind::CustomResourceDefinition)
        {
            assert!(structs().contains_key(root_type(kind).as_str()), "{kind:?}");
        }
    }

    #[test]
    fn a_typed_object_prints_in_field_order_with_the_zero_values_go_writes() {
        let d = json!({"apiVersion": "apps/v1", "kind": "Deployment",
            "metadata": {"name": "web", "labels": {"app": "web"}},
            "spec": {"replicas": 1, "selector": {"matchLabels": {"app": "web"}},
                "template": {"metadata": {"labels": {"app": "web"}},
                    "spec": {"containers": [{"name": "nginx", "image": "nginx"}]}}}});
        let text = typed(&root_type(Kind::Deployment), &d).to_indented();
        let want = r#"{
    "kind": "Deployment",
    "apiVersion": "apps/v1",
    "metadata": {
        "name": "web",
        "creationTimestamp": null,
        "labels": {
            "app": "web"
        }
    },
    "spec": {
        "replicas": 1,
        "selector": {
            "matchLabels": {
                "app": "web"
            }
        },
        "template": {
            "metadata": {
                "creationTimestamp": null,
                "labels": {
                    "app": "web"
                }
            },
            "spec": {
                "containers": [
                    {
                        "name": "nginx",
                        "image": "nginx",
                        "resources": {}
                    }
                ]
            }
        },
        "strategy": {}
    },
    "status": {}
}"#;
        assert_eq!(text, want);
    }

    #[test]
    fn go_escapes_html_characters_in_strings() {
        assert_eq!(
            go_html_escape(r#"{"a":"<b>&"}"#.to_string()),
            r#"{"a":"\u003cb\u003e\u0026"}"#
        );
    }
}
