//! Reading a protobuf request body (`application/vnd.kubernetes.protobuf`) as the
//! JSON the same object would have been, so the rest of the server reads one format.
//!
//! The decoding follows the field table of [`super::proto_fields`]. What Go's JSON
//! would leave out is left out: an empty string (a non-pointer string field is
//! written to the wire even when unset) and an empty `Time`. Unknown field numbers
//! and messages not in the table are skipped, as a protobuf reader skips them.
//!
//! Upstream: `staging/src/k8s.io/apimachinery/pkg/runtime/serializer/protobuf/protobuf.go`
//! (the `k8s\0` prefix and the `runtime.Unknown` envelope), the protobuf wire format
//! (varint, 64-bit, length-delimited, 32-bit fields).

use super::proto_fields::MESSAGES;
use serde_json::{json, Map, Value};

/// The four bytes before every protobuf-encoded object.
pub const MAGIC: &[u8] = b"k8s\0";

/// A body's (apiVersion, kind) and the object as JSON; the error says what is wrong.
pub fn decode(body: &[u8]) -> Result<Value, String> {
    let rest = body
        .strip_prefix(MAGIC)
        .ok_or("the body does not start with the protobuf prefix")?;
    let envelope = message(rest, "runtime.Unknown", 0)?;
    let api_version = envelope["typeMeta"]["apiVersion"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let kind = envelope["typeMeta"]["kind"]
        .as_str()
        .unwrap_or("")
        .to_string();
    let raw = envelope
        .get("raw")
        .and_then(Value::as_str)
        .map(base64_decode)
        .transpose()?
        .unwrap_or_default();
    let name = message_name(&api_version, &kind).ok_or_else(|| {
        format!("{kind} in version \"{api_version}\" cannot be read from protobuf here")
    })?;
    let mut obj = message(&raw, &name, 0)?;
    if let Value::Object(m) = &mut obj {
        let mut out = Map::new();
        out.insert("apiVersion".into(), json!(api_version));
        out.insert("kind".into(), json!(kind));
        out.extend(std::mem::take(m));
        return Ok(Value::Object(out));
    }
    Ok(obj)
}

/// The table's name of a kind's message.
fn message_name(api_version: &str, kind: &str) -> Option<String> {
    let name = match api_version {
        "autoscaling/v1" => format!("autoscalingv1.{kind}"),
        "autoscaling/v2" => format!("autoscalingv2.{kind}"),
        _ => kind.to_string(),
    };
    fields_of(&name).map(|_| name)
}

type Fields = &'static [super::proto_fields::Field];

fn fields_of(name: &str) -> Option<Fields> {
    MESSAGES.iter().find(|(n, _)| *n == name).map(|(_, f)| *f)
}

/// Non-pointer integer fields whose JSON tag is `omitempty`: protobuf writes their 0,
/// Go's JSON leaves it out. (A pointer's 0 — `replicas: 0`, `backoffLimit: 0` — is a
/// choice, and fields without `omitempty` read back as the same 0.)
const OMITTED_ZERO_INTS: &[&str] = &[
    "healthCheckNodePort",
    "nodePort",
    "hostPort",
    "minReadySeconds",
    "initialDelaySeconds",
    "periodSeconds",
    "successThreshold",
    "failureThreshold",
    "timeoutSeconds",
    "generation",
    "number",
];

/// The bool fields that are pointers (`*bool`) in the Go types: false there differs
/// from unset (`automountServiceAccountToken: false` turns the token off).
const POINTER_BOOLS: &[&str] = &[
    "automountServiceAccountToken",
    "enableServiceLinks",
    "shareProcessNamespace",
    "hostUsers",
    "setHostnameAsFQDN",
    "allowPrivilegeEscalation",
    "readOnlyRootFilesystem",
    "runAsNonRoot",
    "privileged",
    "optional",
    "immutable",
    "allocateLoadBalancerNodePorts",
    "suspend",
    "manualSelector",
    "controller",
    "blockOwnerDeletion",
    "orphanDependents",
    "allowed",
];

/// Nested messages deeper than this are refused (a hostile body cannot recurse
/// without end).
const MAX_DEPTH: usize = 64;

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn varint(&mut self) -> Result<u64, String> {
        let mut v: u64 = 0;
        for shift in (0..64).step_by(7) {
            let byte = *self.b.get(self.at).ok_or("truncated varint")?;
            self.at += 1;
            v |= u64::from(byte & 0x7f) << shift;
            if byte & 0x80 == 0 {
                return Ok(v);
            }
        }
        Err("varint too long".into())
    }

    fn bytes(&mut self, n: usize) -> Result<&'a [u8], String> {
        let end = self.at.checked_add(n).ok_or("length overflow")?;
        let s = self.b.get(self.at..end).ok_or("truncated field")?;
        self.at = end;
        Ok(s)
    }
}

/// One field's raw value.
#[derive(Clone, Copy)]
enum Raw<'a> {
    Varint(u64),
    Bytes(&'a [u8]),
    Fixed,
}

fn fields(b: &[u8]) -> Result<Vec<(u32, Raw<'_>)>, String> {
    let mut r = Reader { b, at: 0 };
    let mut out = Vec::new();
    while r.at < b.len() {
        let key = r.varint()?;
        let (num, wire) = ((key >> 3) as u32, key & 7);
        let v = match wire {
            0 => Raw::Varint(r.varint()?),
            1 => {
                r.bytes(8)?;
                Raw::Fixed
            }
            2 => {
                let n = r.varint()? as usize;
                Raw::Bytes(r.bytes(n)?)
            }
            5 => {
                r.bytes(4)?;
                Raw::Fixed
            }
            w => return Err(format!("unknown wire type {w}")),
        };
        out.push((num, v));
    }
    Ok(out)
}

fn text(b: &[u8]) -> Result<String, String> {
    String::from_utf8(b.to_vec()).map_err(|_| "a string field is not UTF-8".to_string())
}

/// Decode `b` as the message `name` into JSON.
fn message(b: &[u8], name: &str, depth: usize) -> Result<Value, String> {
    if depth > MAX_DEPTH {
        return Err("nested too deeply".into());
    }
    let table = fields_of(name).ok_or_else(|| format!("unknown message {name}"))?;
    let mut out = Map::new();
    for (num, raw) in fields(b)? {
        let Some(&(_, json_name, type_, repeated)) = table.iter().find(|f| f.0 == num) else {
            continue;
        };
        let v = match (type_, raw, repeated) {
            // An element of a list is kept even when empty: `apiGroups: [""]` names
            // the core group, and is not the empty list.
            ("string", Raw::Bytes(b), true) => json!(text(b)?),
            _ => match scalar(raw, type_, json_name, depth)? {
                Some(v) => v,
                None => continue,
            },
        };
        if json_name.is_empty() {
            // An inline struct: its fields are the parent's.
            if let Value::Object(m) = v {
                out.extend(m);
            }
            continue;
        }
        if repeated {
            match out
                .entry(json_name.to_string())
                .or_insert_with(|| Value::Array(Vec::new()))
            {
                Value::Array(a) => a.push(v),
                other => *other = Value::Array(vec![v]),
            }
        } else if matches!(type_, "map" | "mapbytes" | "quantities") {
            // Map entries arrive one per field occurrence.
            if let (Some(Value::Object(m)), Value::Object(entry)) = (out.get_mut(json_name), &v) {
                m.extend(entry.clone());
            } else {
                out.insert(json_name.to_string(), v);
            }
        } else {
            out.insert(json_name.to_string(), v);
        }
    }
    Ok(Value::Object(out))
}

/// One field's value as JSON; None for what Go's JSON would leave out.
fn scalar(
    raw: Raw<'_>,
    type_: &str,
    json_name: &str,
    depth: usize,
) -> Result<Option<Value>, String> {
    Ok(match (type_, raw) {
        (_, Raw::Fixed) => None,
        // Likewise a non-pointer `omitempty` integer: a Service's unset
        // healthCheckNodePort is not `healthCheckNodePort: 0` in its JSON.
        ("int", Raw::Varint(0)) if OMITTED_ZERO_INTS.contains(&json_name) => None,
        ("int", Raw::Varint(v)) => Some(json!(v as i64)),
        // A non-pointer bool is written even when false, where Go's JSON leaves it
        // out (`omitempty`); a pointer's false is a choice and is kept.
        ("bool", Raw::Varint(0)) if !POINTER_BOOLS.contains(&json_name) => None,
        ("bool", Raw::Varint(v)) => Some(json!(v != 0)),
        ("string", Raw::Bytes(b)) => {
            let s = text(b)?;
            (!s.is_empty()).then(|| json!(s))
        }
        ("bytes", Raw::Bytes(b)) => Some(json!(base64_encode(b))),
        ("map" | "mapbytes" | "quantities", Raw::Bytes(b)) => {
            let mut key = String::new();
            let mut value = Value::String(String::new());
            for (n, r) in fields(b)? {
                match (n, r) {
                    (1, Raw::Bytes(k)) => key = text(k)?,
                    (2, Raw::Bytes(v)) => {
                        value = match type_ {
                            "map" => json!(text(v)?),
                            "mapbytes" => json!(base64_encode(v)),
                            _ => message(v, "Quantity", depth + 1)?
                                .get("string")
                                .cloned()
                                .unwrap_or(json!("0")),
                        }
                    }
                    _ => {}
                }
            }
            let mut m = Map::new();
            m.insert(key, value);
            Some(Value::Object(m))
        }
        ("quantity", Raw::Bytes(b)) => message(b, "Quantity", depth + 1)?.get("string").cloned(),
        ("intorstr", Raw::Bytes(b)) => {
            let v = message(b, "IntOrString", depth + 1)?;
            Some(if v["type"].as_i64() == Some(1) {
                v.get("strVal").cloned().unwrap_or(json!(""))
            } else {
                json!(v["intVal"].as_i64().unwrap_or(0) as i32)
            })
        }
        ("time", Raw::Bytes(b)) => {
            let v = message(b, "Time", depth + 1)?;
            match v.get("seconds").and_then(Value::as_i64) {
                Some(s) if s != 0 => Some(json!(rfc3339_unix(s))),
                _ => None,
            }
        }
        ("duration", Raw::Bytes(b)) => {
            let v = message(b, "Duration", depth + 1)?;
            let ns = v.get("duration").and_then(Value::as_i64).unwrap_or(0);
            Some(json!(format!("{}s", ns / 1_000_000_000)))
        }
        (t, Raw::Bytes(b)) if t.starts_with("msg:") => {
            let name = &t[4..];
            if fields_of(name).is_none() {
                return Ok(None);
            }
            Some(message(b, name, depth + 1)?)
        }
        _ => None,
    })
}

/// Unix seconds as RFC 3339 (UTC).
fn rfc3339_unix(secs: i64) -> String {
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = crate::time::civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

fn base64_encode(b: &[u8]) -> String {
    let mut out = String::with_capacity(b.len().div_ceil(3) * 4);
    for c in b.chunks(3) {
        let n = (u32::from(c[0]) << 16)
            | (u32::from(*c.get(1).unwrap_or(&0)) << 8)
            | u32::from(*c.get(2).unwrap_or(&0));
        for i in 0..4 {
            if i <= c.len() {
                out.push(B64[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

fn base64_decode(s: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(s.len() / 4 * 3);
    let mut acc: u32 = 0;
    let mut bits = 0;
    for c in s.bytes().filter(|&c| c != b'=') {
        let v = B64.iter().position(|&x| x == c).ok_or("not base64")? as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn varint(mut v: u64, out: &mut Vec<u8>) {
        loop {
            let b = (v & 0x7f) as u8;
            v >>= 7;
            if v == 0 {
                out.push(b);
                return;
            }
            out.push(b | 0x80);
        }
    }

    fn field_bytes(num: u32, b: &[u8], out: &mut Vec<u8>) {
        varint(u64::from(num) << 3 | 2, out);
        varint(b.len() as u64, out);
        out.extend_from_slice(b);
    }

    fn field_varint(num: u32, v: u64, out: &mut Vec<u8>) {
        varint(u64::from(num) << 3, out);
        varint(v, out);
    }

    fn map_entry(num: u32, k: &str, v: &str, out: &mut Vec<u8>) {
        let mut e = Vec::new();
        field_bytes(1, k.as_bytes(), &mut e);
        field_bytes(2, v.as_bytes(), &mut e);
        field_bytes(num, &e, out);
    }

    /// What client-go sends for `kubectl create deployment web --image=nginx --replicas=2`.
    fn deployment() -> Vec<u8> {
        let mut meta = Vec::new();
        field_bytes(1, b"web", &mut meta);
        field_bytes(2, b"", &mut meta);
        map_entry(11, "app", "web", &mut meta);
        field_bytes(8, b"", &mut meta);
        let mut sel = Vec::new();
        map_entry(1, "app", "web", &mut sel);
        let mut container = Vec::new();
        field_bytes(1, b"nginx", &mut container);
        field_bytes(2, b"nginx", &mut container);
        let mut port = Vec::new();
        field_varint(3, 80, &mut port);
        field_bytes(4, b"TCP", &mut port);
        field_bytes(6, &port, &mut container);
        let mut pod_spec = Vec::new();
        field_bytes(2, &container, &mut pod_spec);
        let mut tmeta = Vec::new();
        map_entry(11, "app", "web", &mut tmeta);
        let mut template = Vec::new();
        field_bytes(1, &tmeta, &mut template);
        field_bytes(2, &pod_spec, &mut template);
        let mut spec = Vec::new();
        field_varint(1, 2, &mut spec);
        field_bytes(2, &sel, &mut spec);
        field_bytes(3, &template, &mut spec);
        let mut obj = Vec::new();
        field_bytes(1, &meta, &mut obj);
        field_bytes(2, &spec, &mut obj);
        field_bytes(3, b"", &mut obj);
        let mut tm = Vec::new();
        field_bytes(1, b"apps/v1", &mut tm);
        field_bytes(2, b"Deployment", &mut tm);
        let mut env = MAGIC.to_vec();
        field_bytes(1, &tm, &mut env);
        field_bytes(2, &obj, &mut env);
        field_bytes(3, b"", &mut env);
        field_bytes(4, b"", &mut env);
        env
    }

    #[test]
    fn an_empty_string_in_a_list_is_kept_as_kubectl_create_role_sends_the_core_group() {
        // The bytes kubectl v1.33 sends for `kubectl create role r --verb=get --resource=pods`.
        let body: &[u8] = &[
            0x6b, 0x38, 0x73, 0x00, 0x0a, 0x24, 0x0a, 0x1c, b'r', b'b', b'a', b'c', b'.', b'a',
            b'u', b't', b'h', b'o', b'r', b'i', b'z', b'a', b't', b'i', b'o', b'n', b'.', b'k',
            b'8', b's', b'.', b'i', b'o', b'/', b'v', b'1', 0x12, 0x04, b'R', b'o', b'l', b'e',
            0x12, 0x22, 0x0a, 0x11, 0x0a, 0x01, b'r', 0x12, 0x00, 0x1a, 0x00, 0x22, 0x00, 0x2a,
            0x00, 0x32, 0x00, 0x38, 0x00, 0x42, 0x00, 0x12, 0x0d, 0x0a, 0x03, b'g', b'e', b't',
            0x12, 0x00, 0x1a, 0x04, b'p', b'o', b'd', b's', 0x1a, 0x00, 0x22, 0x00,
        ];
        let v = decode(body).unwrap();
        assert_eq!(
            v["rules"],
            json!([{"verbs": ["get"], "apiGroups": [""], "resources": ["pods"]}])
        );
    }

    #[test]
    fn a_protobuf_deployment_reads_as_the_json_of_the_same_object() {
        let v = decode(&deployment()).unwrap();
        assert_eq!(
            v,
            json!({
                "apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "web", "labels": {"app": "web"}},
                "spec": {"replicas": 2, "selector": {"matchLabels": {"app": "web"}},
                    "template": {"metadata": {"labels": {"app": "web"}},
                        "spec": {"containers": [{"name": "nginx", "image": "nginx",
                            "ports": [{"containerPort": 80, "protocol": "TCP"}]}]}}}
            })
        );
    }

    #[test]
    fn a_cut_or_garbled_body_is_an_error_never_a_panic() {
        let whole = deployment();
        for cut in 0..whole.len() {
            let _ = decode(&whole[..cut]);
        }
        for i in 4..whole.len() {
            for b in [0x00, 0x07, 0x7f, 0x80, 0xff] {
                let mut v = whole.clone();
                v[i] = b;
                let _ = decode(&v);
            }
        }
        assert!(decode(b"{}").is_err());
    }

    #[test]
    fn base64_round_trips() {
        for s in [&b""[..], b"a", b"ab", b"abc", b"\x00\xff\x10hello"] {
            assert_eq!(base64_decode(&base64_encode(s)).unwrap(), s);
        }
        assert_eq!(base64_encode(b"hi"), "aGk=");
    }

    #[test]
    fn every_nested_message_the_table_names_as_its_own_is_in_the_table_or_skipped_on_purpose() {
        // A `msg:` not listed is skipped when read; the ones kubectl's generators set
        // must be listed.
        for needed in [
            "ObjectMeta",
            "DeploymentSpec",
            "PodTemplateSpec",
            "PodSpec",
            "Container",
            "ContainerPort",
            "JobSpec",
            "CronJobSpec",
            "DeleteOptions",
            "Eviction",
        ] {
            assert!(fields_of(needed).is_some(), "{needed}");
        }
    }
}
