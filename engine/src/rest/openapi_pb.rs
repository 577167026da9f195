//! The OpenAPI v2 document in protobuf, as client-go asks for it
//! (`Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf`, the only
//! form its `OpenAPISchema()` reads; answered as `…spec.v2.v1.0+protobuf`): gnostic's `openapi_v2.Document` message.
//!
//! Only what the document holds is written: the info, the paths' GET and PATCH
//! operations (their ids, produces, schemes, responses and vendor extensions), and
//! the definitions' schemas. A vendor extension, a default or an enum value is an
//! `Any` whose `yaml` is the value's JSON text (JSON is YAML).
//!
//! Upstream: `github.com/google/gnostic-models/openapiv2/OpenAPIv2.proto`,
//! `k8s.io/kube-openapi/pkg/handler/handler.go` (`ToProtoBinary`).

use serde_json::{Map, Value};

/// The content type of the protobuf form, as the handler returns it (clients ask with
/// this or with the deprecated `…spec.v2@v1.0+protobuf`, which is not a valid media
/// type to answer with).
pub const OPENAPI_V2_PROTOBUF: &str = "application/com.github.proto-openapi.spec.v2.v1.0+protobuf";

/// What an `Accept` header asking for the protobuf form contains.
pub const OPENAPI_V2_PROTOBUF_ASKED: &str = "com.github.proto-openapi.spec.v2";

/// A protobuf message being written.
#[derive(Default)]
struct Msg(Vec<u8>);

impl Msg {
    fn varint(&mut self, mut v: u64) {
        while v >= 0x80 {
            self.0.push((v as u8) | 0x80);
            v >>= 7;
        }
        self.0.push(v as u8);
    }

    fn key(&mut self, field: u32, wire: u8) {
        self.varint(u64::from(field) << 3 | u64::from(wire));
    }

    fn bytes(&mut self, field: u32, b: &[u8]) {
        self.key(field, 2);
        self.varint(b.len() as u64);
        self.0.extend_from_slice(b);
    }

    fn string(&mut self, field: u32, s: &str) {
        if !s.is_empty() {
            self.bytes(field, s.as_bytes());
        }
    }

    fn message(&mut self, field: u32, m: Msg) {
        self.bytes(field, &m.0);
    }

    fn int(&mut self, field: u32, v: i64) {
        if v != 0 {
            self.key(field, 0);
            self.varint(v as u64);
        }
    }

    fn boolean(&mut self, field: u32, v: bool) {
        if v {
            self.key(field, 0);
            self.varint(1);
        }
    }

    fn double(&mut self, field: u32, v: f64) {
        self.key(field, 1);
        self.0.extend_from_slice(&v.to_le_bytes());
    }
}

/// `Any`: the value as YAML (its JSON text).
fn any(v: &Value) -> Msg {
    let mut m = Msg::default();
    m.string(2, &v.to_string());
    m
}

/// `NamedAny`s: the `x-` fields of an object.
fn vendor_extensions(m: &mut Msg, field: u32, obj: &Map<String, Value>) {
    for (k, v) in obj.iter().filter(|(k, _)| k.starts_with("x-")) {
        let mut named = Msg::default();
        named.string(1, k);
        named.message(2, any(v));
        m.message(field, named);
    }
}

fn strings(m: &mut Msg, field: u32, v: Option<&Value>) {
    for s in v.and_then(Value::as_array).into_iter().flatten() {
        if let Some(s) = s.as_str() {
            m.bytes(field, s.as_bytes());
        }
    }
}

/// `Schema`.
fn schema(s: &Value) -> Msg {
    let mut m = Msg::default();
    let Some(o) = s.as_object() else { return m };
    let text = |k: &str| o.get(k).and_then(Value::as_str).unwrap_or("");
    m.string(1, text("$ref"));
    m.string(2, text("format"));
    m.string(3, text("title"));
    m.string(4, text("description"));
    if let Some(d) = o.get("default") {
        m.message(5, any(d));
    }
    for (field, key) in [(7, "maximum"), (9, "minimum")] {
        if let Some(x) = o.get(key).and_then(Value::as_f64) {
            m.double(field, x);
        }
    }
    for (field, key) in [
        (11, "maxLength"),
        (12, "minLength"),
        (14, "maxItems"),
        (15, "minItems"),
    ] {
        m.int(field, o.get(key).and_then(Value::as_i64).unwrap_or(0));
    }
    m.string(13, text("pattern"));
    m.boolean(
        16,
        o.get("uniqueItems")
            .and_then(Value::as_bool)
            .unwrap_or(false),
    );
    strings(&mut m, 19, o.get("required"));
    for e in o
        .get("enum")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        m.message(20, any(e));
    }
    match o.get("additionalProperties") {
        Some(Value::Bool(b)) => {
            let mut item = Msg::default();
            item.key(2, 0);
            item.varint(u64::from(*b));
            m.message(21, item);
        }
        Some(inner @ Value::Object(_)) => {
            let mut item = Msg::default();
            item.message(1, schema(inner));
            m.message(21, item);
        }
        _ => {}
    }
    if let Some(t) = o.get("type").and_then(Value::as_str) {
        let mut item = Msg::default();
        item.string(1, t);
        m.message(22, item);
    }
    if let Some(items) = o.get("items") {
        let mut item = Msg::default();
        item.message(1, schema(items));
        m.message(23, item);
    }
    if let Some(Value::Object(props)) = o.get("properties") {
        let mut p = Msg::default();
        for (name, s) in props {
            p.message(1, named_schema(name, s));
        }
        m.message(25, p);
    }
    vendor_extensions(&mut m, 31, o);
    m
}

/// `NamedSchema`.
fn named_schema(name: &str, s: &Value) -> Msg {
    let mut m = Msg::default();
    m.string(1, name);
    m.message(2, schema(s));
    m
}

/// `Operation`.
fn operation(op: &Value) -> Msg {
    let mut m = Msg::default();
    let text = |k: &str| op.get(k).and_then(Value::as_str).unwrap_or("");
    m.string(3, text("description"));
    m.string(5, text("operationId"));
    strings(&mut m, 6, op.get("produces"));
    strings(&mut m, 7, op.get("consumes"));
    if let Some(Value::Object(responses)) = op.get("responses") {
        let mut rs = Msg::default();
        for (code, r) in responses {
            let mut response = Msg::default();
            response.string(
                1,
                r.get("description").and_then(Value::as_str).unwrap_or(""),
            );
            if let Some(s) = r.get("schema") {
                let mut item = Msg::default();
                item.message(1, schema(s));
                response.message(2, item);
            }
            let mut value = Msg::default();
            value.message(1, response);
            let mut named = Msg::default();
            named.string(1, code);
            named.message(2, value);
            rs.message(1, named);
        }
        m.message(9, rs);
    }
    strings(&mut m, 10, op.get("schemes"));
    if let Some(o) = op.as_object() {
        vendor_extensions(&mut m, 13, o);
    }
    m
}

/// The document (see [`crate::apiserver::openapi::v2`]) as a `Document` message.
pub fn encode_document(doc: &Value) -> Vec<u8> {
    let mut m = Msg::default();
    m.string(1, doc.get("swagger").and_then(Value::as_str).unwrap_or(""));
    let mut info = Msg::default();
    info.string(
        1,
        doc.pointer("/info/title")
            .and_then(Value::as_str)
            .unwrap_or(""),
    );
    info.string(
        2,
        doc.pointer("/info/version")
            .and_then(Value::as_str)
            .unwrap_or(""),
    );
    m.message(2, info);
    if let Some(Value::Object(paths)) = doc.get("paths") {
        let mut ps = Msg::default();
        for (path, item) in paths {
            // PathItem's operations by their field numbers.
            let mut pi = Msg::default();
            for (field, verb) in [
                (2, "get"),
                (3, "put"),
                (4, "post"),
                (5, "delete"),
                (8, "patch"),
            ] {
                if let Some(op) = item.get(verb) {
                    pi.message(field, operation(op));
                }
            }
            let mut named = Msg::default();
            named.string(1, path);
            named.message(2, pi);
            ps.message(2, named);
        }
        m.message(8, ps);
    }
    if let Some(Value::Object(defs)) = doc.get("definitions") {
        let mut d = Msg::default();
        for (name, s) in defs {
            d.message(1, named_schema(name, s));
        }
        m.message(9, d);
    }
    m.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_schema_is_written_with_gnostics_field_numbers() {
        let s = json!({"type": "string", "description": "d", "x-a": 1});
        // type (22) is a TypeItem with its value (1); description is field 4;
        // the extension a NamedAny (31) of name and Any{yaml}.
        assert_eq!(
            schema(&s).0,
            [
                0x22, 1, b'd', // description
                0xb2, 1, 8, 0x0a, 6, b's', b't', b'r', b'i', b'n', b'g', // type
                0xfa, 1, 10, 0x0a, 3, b'x', b'-', b'a', 0x12, 3, 0x12, 1, b'1', // x-a
            ]
        );
    }
}
