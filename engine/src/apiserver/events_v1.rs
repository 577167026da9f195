//! `events.k8s.io/v1` Events: the same objects as core `v1` Events, stored once (as
//! core Events, their storage version) and converted at the endpoint, field by field.
//!
//! Upstream: `pkg/apis/events/v1/conversion.go` (`Convert_core_Event_To_v1_Event`
//! and back): `note` is `message`, `regarding` is `involvedObject`,
//! `reportingController` is `reportingComponent`, and the core recorder's `source`,
//! `firstTimestamp`, `lastTimestamp` and `count` are kept as `deprecatedSource`,
//! `deprecatedFirstTimestamp`, `deprecatedLastTimestamp` and `deprecatedCount`.

use serde_json::{json, Map, Value};

/// The group/version.
pub const API_VERSION: &str = "events.k8s.io/v1";

/// Field names, core's first, events.k8s.io/v1's second.
const RENAMED: &[(&str, &str)] = &[
    ("message", "note"),
    ("involvedObject", "regarding"),
    ("reportingComponent", "reportingController"),
    ("source", "deprecatedSource"),
    ("firstTimestamp", "deprecatedFirstTimestamp"),
    ("lastTimestamp", "deprecatedLastTimestamp"),
    ("count", "deprecatedCount"),
];

/// A core Event's JSON as events.k8s.io/v1 serves it. `eventTime` is always written
/// (null when unset), `regarding` and `deprecatedSource` too (Go structs); the rest
/// only when set.
pub fn to_v1(core: &Value) -> Value {
    let mut out = Map::new();
    out.insert("apiVersion".into(), json!(API_VERSION));
    out.insert("kind".into(), json!("Event"));
    let Some(src) = core.as_object() else {
        return Value::Object(out);
    };
    for (k, v) in src {
        if matches!(k.as_str(), "apiVersion" | "kind") {
            continue;
        }
        let name = RENAMED
            .iter()
            .find(|(c, _)| c == k)
            .map_or(k.as_str(), |(_, n)| n);
        let empty = match v {
            Value::Null => !matches!(name, "eventTime"),
            Value::String(s) => s.is_empty(),
            Value::Number(n) => n.as_i64() == Some(0),
            _ => false,
        };
        if !empty || matches!(name, "regarding" | "deprecatedSource") {
            out.insert(name.to_string(), v.clone());
        }
    }
    out.entry("eventTime").or_insert(Value::Null);
    Value::Object(out)
}

/// An events.k8s.io/v1 document (an Event, or a merge patch of one) in core's names.
pub fn to_core(v1: &Value) -> Value {
    let Some(src) = v1.as_object() else {
        return v1.clone();
    };
    let mut out = Map::new();
    for (k, v) in src {
        let value = match k.as_str() {
            "apiVersion" => json!("v1"),
            _ => v.clone(),
        };
        let name = RENAMED
            .iter()
            .find(|(_, n)| n == k)
            .map_or(k.as_str(), |(c, _)| c);
        out.insert(name.to_string(), value);
    }
    Value::Object(out)
}

/// A JSON patch's paths in core's names (`/note` is `/message`…).
pub fn json_patch_to_core(ops: &Value) -> Value {
    let rename = |p: &str| -> String {
        for (core, v1) in RENAMED {
            let prefix = format!("/{v1}");
            if p == prefix || p.starts_with(&format!("{prefix}/")) {
                return format!("/{core}{}", &p[prefix.len()..]);
            }
        }
        p.to_string()
    };
    match ops {
        Value::Array(list) => Value::Array(
            list.iter()
                .map(|op| {
                    let mut op = op.clone();
                    for key in ["path", "from"] {
                        if let Some(p) = op.get(key).and_then(Value::as_str).map(rename) {
                            op[key] = json!(p);
                        }
                    }
                    op
                })
                .collect(),
        ),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_core_event_reads_as_events_v1_and_back() {
        let core = json!({
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": "web.1", "namespace": "default"},
            "involvedObject": {"kind": "Pod", "name": "web"},
            "reason": "Scheduled", "message": "Successfully assigned",
            "source": {"component": "default-scheduler"},
            "firstTimestamp": "2025-01-01T00:00:00Z", "lastTimestamp": "2025-01-01T00:00:00Z",
            "count": 1, "type": "Normal", "eventTime": null,
            "reportingComponent": "default-scheduler", "reportingInstance": "",
        });
        let v1 = to_v1(&core);
        assert_eq!(v1["apiVersion"], "events.k8s.io/v1");
        assert_eq!(v1["note"], "Successfully assigned");
        assert_eq!(v1["regarding"]["name"], "web");
        assert_eq!(v1["reportingController"], "default-scheduler");
        assert_eq!(v1["deprecatedCount"], 1);
        assert!(v1.get("reportingInstance").is_none(), "empty: left out");
        assert!(v1.get("eventTime").is_some_and(Value::is_null));
        let back = to_core(&v1);
        assert_eq!(back["message"], "Successfully assigned");
        assert_eq!(back["involvedObject"]["kind"], "Pod");
        assert_eq!(back["apiVersion"], "v1");
        let patch = json_patch_to_core(&json!([{"op": "replace", "path": "/note", "value": "x"}]));
        assert_eq!(patch[0]["path"], "/message");
    }
}
