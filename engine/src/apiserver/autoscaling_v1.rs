//! `autoscaling/v1` HorizontalPodAutoscalers: the same objects as `autoscaling/v2`'s,
//! stored once (in v2, the storage version) and converted at the endpoint.
//!
//! v1 has one metric, `targetCPUUtilizationPercentage`; the rest of a v2 object rides
//! in annotations so that a read-modify-write through v1 loses nothing
//! (`pkg/apis/autoscaling/v1/conversion.go`, `pkg/apis/autoscaling/annotations.go`):
//! - `autoscaling.alpha.kubernetes.io/metrics`: the metrics other than a CPU
//!   utilization target, as v1 `MetricSpec`s;
//! - `…/current-metrics`: every current metric, as v1 `MetricStatus`es;
//! - `…/conditions`: the conditions;
//! - `…/behavior`: the behavior, marshalled from the internal Go type (upstream's
//!   own TODO), so its keys are the Go field names (`ScaleUp`, `StabilizationWindowSeconds`).
//!
//! Reading back through v1 takes them out again. The annotations are written in Go's
//! field order, byte for byte as the API server writes them.

use serde_json::{json, Map, Value};

/// The group/version.
pub const API_VERSION: &str = "autoscaling/v1";

const METRICS: &str = "autoscaling.alpha.kubernetes.io/metrics";
const CURRENT_METRICS: &str = "autoscaling.alpha.kubernetes.io/current-metrics";
const CONDITIONS: &str = "autoscaling.alpha.kubernetes.io/conditions";
const BEHAVIOR: &str = "autoscaling.alpha.kubernetes.io/behavior";
/// `DropRoundTripHorizontalPodAutoscalerAnnotations`: never kept from a client.
const ROUND_TRIP: &[&str] = &[METRICS, CURRENT_METRICS, CONDITIONS, BEHAVIOR];

/// A field value as Go writes it: a JSON value, or an object already written in Go's
/// field order by [`go_object`].
enum Go {
    Json(Value),
    Raw(String),
}

fn j(v: Option<Value>) -> Option<Go> {
    v.map(Go::Json)
}

/// A JSON object in the order given (Go writes struct fields in declaration order),
/// leaving out the absent ones.
fn go_object(fields: &[(&str, Option<Go>)]) -> String {
    let parts: Vec<String> = fields
        .iter()
        .filter_map(|(k, v)| {
            let v = match v.as_ref()? {
                Go::Json(v) => v.to_string(),
                Go::Raw(text) => text.clone(),
            };
            Some(format!("{}:{v}", json!(k)))
        })
        .collect();
    format!("{{{}}}", parts.join(","))
}

fn get<'a>(v: &'a Value, key: &str) -> Option<&'a Value> {
    v.get(key).filter(|x| !x.is_null())
}

fn cloned(v: &Value, key: &str) -> Option<Value> {
    get(v, key).cloned()
}

/// A non-pointer `resource.Quantity`: `"0"` when unset.
fn quantity(v: Option<&Value>) -> Option<Value> {
    Some(v.cloned().unwrap_or_else(|| json!("0")))
}

/// `Convert_autoscaling_MetricSpec_To_v1_MetricSpec`, as Go marshals it.
fn metric_spec_to_v1(m: &Value) -> String {
    let target = |s: &Value| s.get("target").cloned().unwrap_or(Value::Null);
    let metric = |s: &Value| s.get("metric").cloned().unwrap_or(Value::Null);
    let typ = cloned(m, "type");
    let resource = get(m, "resource").map(|r| {
        let t = target(r);
        Go::Raw(go_object(&[
            ("name", j(cloned(r, "name"))),
            (
                "targetAverageUtilization",
                j(cloned(&t, "averageUtilization")),
            ),
            ("targetAverageValue", j(cloned(&t, "averageValue"))),
        ]))
    });
    let container = get(m, "containerResource").map(|r| {
        let t = target(r);
        Go::Raw(go_object(&[
            ("name", j(cloned(r, "name"))),
            (
                "targetAverageUtilization",
                j(cloned(&t, "averageUtilization")),
            ),
            ("targetAverageValue", j(cloned(&t, "averageValue"))),
            ("container", j(cloned(r, "container"))),
        ]))
    });
    let pods = get(m, "pods").map(|p| {
        let (t, id) = (target(p), metric(p));
        Go::Raw(go_object(&[
            ("metricName", j(cloned(&id, "name"))),
            ("targetAverageValue", j(quantity(get(&t, "averageValue")))),
            ("selector", j(cloned(&id, "selector"))),
        ]))
    });
    let object = get(m, "object").map(|o| {
        let (t, id) = (target(o), metric(o));
        let d = o.get("describedObject").cloned().unwrap_or(Value::Null);
        Go::Raw(go_object(&[
            (
                "target",
                Some(Go::Raw(go_object(&[
                    ("kind", j(Some(d.get("kind").cloned().unwrap_or(json!(""))))),
                    ("name", j(Some(d.get("name").cloned().unwrap_or(json!(""))))),
                    ("apiVersion", j(cloned(&d, "apiVersion"))),
                ]))),
            ),
            ("metricName", j(cloned(&id, "name"))),
            ("targetValue", j(quantity(get(&t, "value")))),
            ("selector", j(cloned(&id, "selector"))),
            ("averageValue", j(cloned(&t, "averageValue"))),
        ]))
    });
    let external = get(m, "external").map(|e| {
        let (t, id) = (target(e), metric(e));
        Go::Raw(go_object(&[
            ("metricName", j(cloned(&id, "name"))),
            ("metricSelector", j(cloned(&id, "selector"))),
            ("targetValue", j(cloned(&t, "value"))),
            ("targetAverageValue", j(cloned(&t, "averageValue"))),
        ]))
    });
    go_object(&[
        ("type", j(typ)),
        ("object", object),
        ("pods", pods),
        ("resource", resource),
        ("containerResource", container),
        ("external", external),
    ])
}

/// `Convert_autoscaling_MetricStatus_To_v1_MetricStatus`, as Go marshals it (kubeplay
/// keeps the readings of resource metrics).
fn metric_status_to_v1(m: &Value) -> String {
    let resource = get(m, "resource").map(|r| {
        let c = r.get("current").cloned().unwrap_or(Value::Null);
        Go::Raw(go_object(&[
            ("name", j(cloned(r, "name"))),
            (
                "currentAverageUtilization",
                j(cloned(&c, "averageUtilization")),
            ),
            ("currentAverageValue", j(quantity(get(&c, "averageValue")))),
        ]))
    });
    go_object(&[("type", j(cloned(m, "type"))), ("resource", resource)])
}

fn condition_to_v1(c: &Value) -> String {
    go_object(&[
        ("type", j(cloned(c, "type"))),
        ("status", j(cloned(c, "status"))),
        (
            "lastTransitionTime",
            j(Some(
                c.get("lastTransitionTime").cloned().unwrap_or(Value::Null),
            )),
        ),
        ("reason", j(cloned(c, "reason").filter(|r| r != ""))),
        ("message", j(cloned(c, "message").filter(|r| r != ""))),
    ])
}

/// The internal `HPAScalingRules` as `encoding/json` writes a struct without tags: every
/// field, nil pointers as `null`.
fn rules_internal(r: Option<&Value>) -> Go {
    let Some(r) = r.filter(|r| !r.is_null()) else {
        return Go::Json(Value::Null);
    };
    let policies: Vec<String> = r
        .get("policies")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .map(|p| {
            go_object(&[
                ("Type", j(Some(p.get("type").cloned().unwrap_or(json!(""))))),
                (
                    "Value",
                    j(Some(p.get("value").cloned().unwrap_or(json!(0)))),
                ),
                (
                    "PeriodSeconds",
                    j(Some(p.get("periodSeconds").cloned().unwrap_or(json!(0)))),
                ),
            ])
        })
        .collect();
    let policies = if r.get("policies").is_some_and(Value::is_array) {
        Go::Raw(format!("[{}]", policies.join(",")))
    } else {
        Go::Json(Value::Null)
    };
    let field = |k: &str| j(Some(r.get(k).cloned().unwrap_or(Value::Null)));
    Go::Raw(go_object(&[
        (
            "StabilizationWindowSeconds",
            field("stabilizationWindowSeconds"),
        ),
        ("SelectPolicy", field("selectPolicy")),
        ("Policies", Some(policies)),
        ("Tolerance", field("tolerance")),
    ]))
}

fn list(v: &Value, pointer: &str) -> Vec<Value> {
    v.pointer(pointer)
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default()
}

/// A stored (v2) HorizontalPodAutoscaler as `autoscaling/v1` serves it
/// (`Convert_autoscaling_HorizontalPodAutoscaler_To_v1_HorizontalPodAutoscaler`).
pub fn to_v1(v2: &Value) -> Value {
    let Some(src) = v2.as_object() else {
        return v2.clone();
    };
    let spec = v2.get("spec").cloned().unwrap_or(json!({}));
    let status = v2.get("status").cloned().unwrap_or(json!({}));
    let metrics = list(v2, "/spec/metrics");
    let is_cpu = |m: &Value| {
        m.get("type").and_then(Value::as_str) == Some("Resource")
            && m.pointer("/resource/name").and_then(Value::as_str) == Some("cpu")
    };
    // The first CPU resource metric names the v1 target (when it is a utilization).
    let target_cpu = metrics
        .iter()
        .find(|m| is_cpu(m))
        .and_then(|m| cloned(&m["resource"]["target"], "averageUtilization"));
    let other: Vec<String> = metrics
        .iter()
        .filter(|m| !(is_cpu(m) && get(&m["resource"]["target"], "averageUtilization").is_some()))
        .map(metric_spec_to_v1)
        .collect();
    let current = list(v2, "/status/currentMetrics");
    let current_cpu = current
        .iter()
        .filter(|m| is_cpu(m))
        .filter_map(|m| cloned(&m["resource"]["current"], "averageUtilization"))
        .next_back();
    let conditions = list(v2, "/status/conditions");

    let mut meta = v2.get("metadata").cloned().unwrap_or(json!({}));
    let mut annotations: Map<String, Value> = meta
        .get("annotations")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    annotations.retain(|k, _| !ROUND_TRIP.contains(&k.as_str()));
    if !other.is_empty() {
        annotations.insert(METRICS.into(), json!(format!("[{}]", other.join(","))));
    }
    if !current.is_empty() {
        let enc: Vec<String> = current.iter().map(metric_status_to_v1).collect();
        annotations.insert(
            CURRENT_METRICS.into(),
            json!(format!("[{}]", enc.join(","))),
        );
    }
    if let Some(b) = get(&spec, "behavior") {
        let enc = go_object(&[
            ("ScaleUp", Some(rules_internal(b.get("scaleUp")))),
            ("ScaleDown", Some(rules_internal(b.get("scaleDown")))),
        ]);
        annotations.insert(BEHAVIOR.into(), json!(enc));
    }
    if !conditions.is_empty() {
        let enc: Vec<String> = conditions.iter().map(condition_to_v1).collect();
        annotations.insert(CONDITIONS.into(), json!(format!("[{}]", enc.join(","))));
    }
    if let Some(m) = meta.as_object_mut() {
        if annotations.is_empty() {
            m.remove("annotations");
        } else {
            m.insert("annotations".into(), Value::Object(annotations));
        }
    }

    let mut v1_spec = Map::new();
    for k in ["scaleTargetRef", "minReplicas", "maxReplicas"] {
        if let Some(v) = cloned(&spec, k) {
            v1_spec.insert(k.into(), v);
        }
    }
    if let Some(t) = target_cpu {
        v1_spec.insert("targetCPUUtilizationPercentage".into(), t);
    }
    let mut v1_status = Map::new();
    for k in ["observedGeneration", "lastScaleTime"] {
        if let Some(v) = cloned(&status, k) {
            v1_status.insert(k.into(), v);
        }
    }
    // Not omitempty in v1.
    for k in ["currentReplicas", "desiredReplicas"] {
        v1_status.insert(k.into(), status.get(k).cloned().unwrap_or(json!(0)));
    }
    if let Some(c) = current_cpu {
        v1_status.insert("currentCPUUtilizationPercentage".into(), c);
    }
    let mut out = Map::new();
    for (k, v) in src {
        let v = match k.as_str() {
            "apiVersion" => json!(API_VERSION),
            "metadata" => meta.clone(),
            "spec" => Value::Object(v1_spec.clone()),
            "status" => Value::Object(v1_status.clone()),
            _ => v.clone(),
        };
        out.insert(k.clone(), v);
    }
    out.entry("status").or_insert(Value::Object(v1_status));
    Value::Object(out)
}

/// A v2 `MetricTarget`: its type and the values that are set.
fn metric_target(type_: &str, values: [(&str, Option<Value>); 3]) -> Value {
    let mut t = Map::new();
    t.insert("type".into(), json!(type_));
    for (k, v) in values {
        if let Some(v) = v {
            t.insert(k.into(), v);
        }
    }
    Value::Object(t)
}

/// A v1 `MetricSpec` (from the annotation) in v2's shape
/// (`Convert_v1_MetricSpec_To_autoscaling_MetricSpec`).
fn metric_spec_to_v2(m: &Value) -> Value {
    let mut out = Map::new();
    out.insert("type".into(), m.get("type").cloned().unwrap_or(json!("")));
    let identifier = |name: Option<Value>, selector: Option<Value>| {
        let mut id = Map::new();
        id.insert("name".into(), name.unwrap_or(json!("")));
        if let Some(s) = selector {
            id.insert("selector".into(), s);
        }
        Value::Object(id)
    };
    let resource_target = |r: &Value| {
        let util = cloned(r, "targetAverageUtilization");
        let type_ = if util.is_some() {
            "Utilization"
        } else {
            "AverageValue"
        };
        metric_target(
            type_,
            [
                ("averageUtilization", util),
                ("averageValue", cloned(r, "targetAverageValue")),
                ("value", None),
            ],
        )
    };
    if let Some(r) = get(m, "resource") {
        out.insert(
            "resource".into(),
            json!({"name": r.get("name").cloned().unwrap_or(json!("")), "target": resource_target(r)}),
        );
    }
    if let Some(r) = get(m, "containerResource") {
        out.insert(
            "containerResource".into(),
            json!({"name": r.get("name").cloned().unwrap_or(json!("")),
                   "container": r.get("container").cloned().unwrap_or(json!("")),
                   "target": resource_target(r)}),
        );
    }
    if let Some(p) = get(m, "pods") {
        out.insert(
            "pods".into(),
            json!({"metric": identifier(cloned(p, "metricName"), cloned(p, "selector")),
                   "target": {"type": "AverageValue",
                              "averageValue": p.get("targetAverageValue").cloned().unwrap_or(json!("0"))}}),
        );
    }
    if let Some(o) = get(m, "object") {
        let average = cloned(o, "averageValue");
        let type_ = if average.is_some() {
            "AverageValue"
        } else {
            "Value"
        };
        let value = o.get("targetValue").cloned().unwrap_or(json!("0"));
        let t = metric_target(
            type_,
            [
                ("value", Some(value)),
                ("averageValue", average),
                ("averageUtilization", None),
            ],
        );
        out.insert(
            "object".into(),
            json!({"describedObject": o.get("target").cloned().unwrap_or(json!({})),
                   "metric": identifier(cloned(o, "metricName"), cloned(o, "selector")),
                   "target": t}),
        );
    }
    if let Some(e) = get(m, "external") {
        let value = cloned(e, "targetValue");
        let type_ = if value.is_some() {
            "Value"
        } else {
            "AverageValue"
        };
        let t = metric_target(
            type_,
            [
                ("value", value),
                ("averageValue", cloned(e, "targetAverageValue")),
                ("averageUtilization", None),
            ],
        );
        out.insert(
            "external".into(),
            json!({"metric": identifier(cloned(e, "metricName"), cloned(e, "metricSelector")),
                   "target": t}),
        );
    }
    Value::Object(out)
}

/// A v1 `MetricStatus` (from the annotation) in v2's shape.
fn metric_status_to_v2(m: &Value) -> Value {
    let mut out = json!({"type": m.get("type").cloned().unwrap_or(json!(""))});
    if let Some(r) = get(m, "resource") {
        let mut current = Map::new();
        if let Some(u) = cloned(r, "currentAverageUtilization") {
            current.insert("averageUtilization".into(), u);
        }
        current.insert(
            "averageValue".into(),
            r.get("currentAverageValue").cloned().unwrap_or(json!("0")),
        );
        out["resource"] = json!({"name": r.get("name").cloned().unwrap_or(json!("")),
                                 "current": Value::Object(current)});
    }
    out
}

/// The internal behavior's Go field names in v2's JSON names (`ScaleUp` is `scaleUp`).
fn behavior_to_v2(b: &Value) -> Value {
    match b {
        Value::Object(o) => Value::Object(
            o.iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| {
                    let mut name = k.clone();
                    if let Some(first) = name.get(..1) {
                        name = format!("{}{}", first.to_ascii_lowercase(), &name[1..]);
                    }
                    (name, behavior_to_v2(v))
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(behavior_to_v2).collect()),
        other => other.clone(),
    }
}

fn annotation_list(annotations: &Map<String, Value>, key: &str) -> Option<Vec<Value>> {
    let text = annotations.get(key)?.as_str()?;
    serde_json::from_str::<Vec<Value>>(text).ok()
}

/// An `autoscaling/v1` document (an object, or a merge patch or applied configuration
/// of one) in v2's shape (`Convert_v1_HorizontalPodAutoscaler_To_autoscaling_…`). The
/// CPU default of an object without metrics is v2's defaulting, applied on decode.
pub fn to_v2(v1: &Value) -> Value {
    let Some(src) = v1.as_object() else {
        return v1.clone();
    };
    let mut out = src.clone();
    if out.contains_key("apiVersion") {
        out.insert("apiVersion".into(), json!("autoscaling/v2"));
    }
    let mut annotations: Map<String, Value> = v1
        .pointer("/metadata/annotations")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    if let Some(spec) = v1.get("spec").and_then(Value::as_object) {
        let mut v2 = Map::new();
        for (k, v) in spec {
            if k != "targetCPUUtilizationPercentage" {
                v2.insert(k.clone(), v.clone());
            }
        }
        let mut metrics: Vec<Value> = annotation_list(&annotations, METRICS)
            .unwrap_or_default()
            .iter()
            .map(metric_spec_to_v2)
            .collect();
        if let Some(t) = get(v1, "spec").and_then(|s| cloned(s, "targetCPUUtilizationPercentage")) {
            metrics.push(json!({"type": "Resource", "resource": {"name": "cpu",
                "target": {"type": "Utilization", "averageUtilization": t}}}));
        }
        if !metrics.is_empty() {
            v2.insert("metrics".into(), Value::Array(metrics));
        }
        if let Some(b) = annotations
            .get(BEHAVIOR)
            .and_then(Value::as_str)
            .and_then(|t| serde_json::from_str::<Value>(t).ok())
            .map(|b| behavior_to_v2(&b))
            .filter(|b| b.as_object().is_some_and(|o| !o.is_empty()))
        {
            v2.insert("behavior".into(), b);
        }
        out.insert("spec".into(), Value::Object(v2));
    }
    if let Some(status) = v1.get("status").and_then(Value::as_object) {
        let mut v2 = Map::new();
        for k in [
            "observedGeneration",
            "lastScaleTime",
            "currentReplicas",
            "desiredReplicas",
        ] {
            if let Some(v) = status.get(k) {
                v2.insert(k.into(), v.clone());
            }
        }
        let current = match annotation_list(&annotations, CURRENT_METRICS) {
            Some(list) => list.iter().map(metric_status_to_v2).collect(),
            None => status
                .get("currentCPUUtilizationPercentage")
                .filter(|v| !v.is_null())
                .map(|u| {
                    vec![json!({"type": "Resource", "resource": {"name": "cpu",
                        "current": {"averageUtilization": u}}})]
                })
                .unwrap_or_default(),
        };
        if !current.is_empty() {
            v2.insert("currentMetrics".into(), Value::Array(current));
        }
        if let Some(c) = annotation_list(&annotations, CONDITIONS) {
            v2.insert("conditions".into(), Value::Array(c));
        }
        out.insert("status".into(), Value::Object(v2));
    }
    if v1.pointer("/metadata/annotations").is_some() {
        annotations.retain(|k, _| !ROUND_TRIP.contains(&k.as_str()));
        if let Some(meta) = out.get_mut("metadata").and_then(Value::as_object_mut) {
            if annotations.is_empty() {
                meta.remove("annotations");
            } else {
                meta.insert("annotations".into(), Value::Object(annotations));
            }
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stored() -> Value {
        json!({
            "apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "web", "namespace": "default", "annotations": {"team": "a"}},
            "spec": {
                "scaleTargetRef": {"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"},
                "minReplicas": 1, "maxReplicas": 10,
                "metrics": [
                    {"type": "Resource", "resource": {"name": "memory",
                        "target": {"type": "AverageValue", "averageValue": "100Mi"}}},
                    {"type": "Resource", "resource": {"name": "cpu",
                        "target": {"type": "Utilization", "averageUtilization": 50}}},
                ],
                "behavior": {
                    "scaleUp": {"stabilizationWindowSeconds": 0, "selectPolicy": "Max",
                        "policies": [{"type": "Pods", "value": 4, "periodSeconds": 15}]},
                    "scaleDown": {"selectPolicy": "Max",
                        "policies": [{"type": "Percent", "value": 100, "periodSeconds": 15}]},
                },
            },
            "status": {
                "currentReplicas": 2, "desiredReplicas": 2,
                "currentMetrics": [{"type": "Resource", "resource": {"name": "cpu",
                    "current": {"averageUtilization": 30, "averageValue": "30m"}}}],
                "conditions": [{"type": "AbleToScale", "status": "True",
                    "lastTransitionTime": "2026-01-01T00:00:00Z", "reason": "ReadyForNewScale",
                    "message": "recommended size matches current size"}],
            },
        })
    }

    #[test]
    fn a_v2_object_read_through_v1_keeps_its_cpu_target_and_carries_the_rest_in_annotations() {
        let v1 = to_v1(&stored());
        assert_eq!(v1["apiVersion"], "autoscaling/v1");
        assert_eq!(v1["spec"]["targetCPUUtilizationPercentage"], 50);
        assert!(v1["spec"].get("metrics").is_none());
        assert_eq!(v1["status"]["currentCPUUtilizationPercentage"], 30);
        let a = &v1["metadata"]["annotations"];
        assert_eq!(a["team"], "a");
        assert_eq!(
            a[METRICS],
            r#"[{"type":"Resource","resource":{"name":"memory","targetAverageValue":"100Mi"}}]"#
        );
        assert_eq!(
            a[CURRENT_METRICS],
            r#"[{"type":"Resource","resource":{"name":"cpu","currentAverageUtilization":30,"currentAverageValue":"30m"}}]"#
        );
        assert_eq!(
            a[BEHAVIOR],
            r#"{"ScaleUp":{"StabilizationWindowSeconds":0,"SelectPolicy":"Max","Policies":[{"Type":"Pods","Value":4,"PeriodSeconds":15}],"Tolerance":null},"ScaleDown":{"StabilizationWindowSeconds":null,"SelectPolicy":"Max","Policies":[{"Type":"Percent","Value":100,"PeriodSeconds":15}],"Tolerance":null}}"#
        );
        assert_eq!(
            a[CONDITIONS],
            r#"[{"type":"AbleToScale","status":"True","lastTransitionTime":"2026-01-01T00:00:00Z","reason":"ReadyForNewScale","message":"recommended size matches current size"}]"#
        );
    }

    #[test]
    fn a_v1_read_modify_write_gives_back_the_same_v2_object() {
        let back = to_v2(&to_v1(&stored()));
        let want = stored();
        assert_eq!(back["spec"]["behavior"], want["spec"]["behavior"]);
        assert_eq!(back["status"], want["status"]);
        assert_eq!(back["metadata"]["annotations"], json!({"team": "a"}));
        // The CPU target comes back last, after the metrics of the annotation.
        assert_eq!(
            back["spec"]["metrics"],
            json!([want["spec"]["metrics"][0], want["spec"]["metrics"][1]])
        );
    }

    #[test]
    fn a_v1_object_without_annotations_converts_its_cpu_target_and_nothing_else() {
        let v1 = json!({"apiVersion": "autoscaling/v1", "kind": "HorizontalPodAutoscaler",
            "metadata": {"name": "web"},
            "spec": {"scaleTargetRef": {"kind": "Deployment", "name": "web"}, "maxReplicas": 5,
                     "targetCPUUtilizationPercentage": 70}});
        let v2 = to_v2(&v1);
        assert_eq!(v2["apiVersion"], "autoscaling/v2");
        assert_eq!(
            v2["spec"]["metrics"],
            json!([{"type": "Resource", "resource": {"name": "cpu",
                "target": {"type": "Utilization", "averageUtilization": 70}}}])
        );
        assert!(v2["spec"].get("behavior").is_none());
        // Without a status, v1 still writes its two counts.
        let back = to_v1(&json!({"apiVersion": "autoscaling/v2", "metadata": {}, "spec": {}}));
        assert_eq!(
            back["status"],
            json!({"currentReplicas": 0, "desiredReplicas": 0})
        );
    }
}
