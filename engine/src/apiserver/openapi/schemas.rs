//! The component schemas, generated from the api types (their serde attributes
//! give the JSON names, their doc comments the descriptions) and shaped as upstream's
//! are: a field of an object type is `allOf: [{$ref}]` beside its description, a
//! string enum is `type: string` with `enum` and "Possible enum values", IntOrString is
//! `int-or-string`, and each kind carries `apiVersion`, `kind` and its
//! group-version-kind.

use crate::api::*;
use schemars::generate::{Contract, SchemaSettings};
use schemars::transform::{RemoveRefSiblings, ReplaceBoolSchemas, ReplaceConstValue};
use schemars::SchemaGenerator;
use serde_json::{json, Map, Value};

use super::REF_PREFIX;

macro_rules! kinds {
    ($($t:ident),* $(,)?) => {
        /// Each kind's `$ref`, generating its type's definitions.
        fn kind_refs(g: &mut SchemaGenerator) -> Vec<(Kind, Value)> {
            vec![$((Kind::$t, g.subschema_for::<$t>().to_value())),*]
        }
        // Every kind has a schema: a kind added to [`Kind`] without one fails here.
        const _: () = {
            let n = [$(Kind::$t),*].len();
            assert!(n == Kind::ALL.len());
        };
    };
}

kinds!(
    Deployment,
    ReplicaSet,
    Pod,
    Node,
    Event,
    Lease,
    Namespace,
    PodDisruptionBudget,
    PriorityClass,
    Service,
    EndpointSlice,
    Endpoints,
    Role,
    ClusterRole,
    RoleBinding,
    ClusterRoleBinding,
    ResourceQuota,
    LimitRange,
    Job,
    CronJob,
    DaemonSet,
    StatefulSet,
    ControllerRevision,
    PersistentVolumeClaim,
    PersistentVolume,
    StorageClass,
    ConfigMap,
    Secret,
    HorizontalPodAutoscaler,
    ServiceAccount,
    Ingress,
    IngressClass,
    NetworkPolicy,
    ServiceCIDR,
    IPAddress,
    CustomResourceDefinition,
    ValidatingAdmissionPolicy,
    ValidatingAdmissionPolicyBinding,
    ValidatingWebhookConfiguration,
);

/// Every definition, generated from the api types and shaped as upstream's (kinds
/// marked with their group-version-kind), sorted by name: what
/// `openapi/schemas.json` holds.
pub fn generate() -> Map<String, Value> {
    let settings = SchemaSettings::openapi3().with(|s| {
        // Upstream marks no field nullable, and an omitted field is not required.
        s.transforms = vec![
            Box::new({
                let mut r = ReplaceBoolSchemas::default();
                r.skip_additional_properties = true;
                r
            }),
            Box::new(RemoveRefSiblings::default()),
            Box::new(ReplaceConstValue::default()),
        ];
        s.contract = Contract::Deserialize;
        s.meta_schema = None;
    });
    let mut g = settings.into_generator();
    let kinds = kind_refs(&mut g);
    let mut defs = rename(g.take_definitions(true).into_iter().collect());
    for d in defs.values_mut() {
        // A type's own doc comment is written for the code (how it is modelled); the
        // field that holds it says what it is for, and `explain` prints that.
        if let Value::Object(m) = d {
            m.remove("description");
        }
        shape(d);
    }
    defs.insert("IntOrString".into(), int_or_string());
    for (kind, r) in kinds {
        let Some(name) = r
            .get("$ref")
            .and_then(Value::as_str)
            .and_then(|r| r.strip_prefix(REF_PREFIX))
        else {
            continue;
        };
        if let Some(Value::Object(d)) = defs.get_mut(name) {
            as_kind(kind, d);
        }
    }
    let mut sorted: Vec<(String, Value)> = defs.into_iter().collect();
    crate::sorting::sort_by(&mut sorted, |a, b| a.0.cmp(&b.0));
    sorted.into_iter().collect()
}

/// upstream's `intstr.IntOrString`.
fn int_or_string() -> Value {
    json!({
        "description": "IntOrString holds either an integer or a string (a number of Pods, or a percentage such as \"25%\"; a port number, or a port's name).",
        "format": "int-or-string",
        "oneOf": [{"type": "integer"}, {"type": "string"}],
    })
}

/// A kind's schema: its description, `apiVersion` and `kind`, and the
/// group-version-kind `explain` finds it by.
fn as_kind(kind: Kind, d: &mut Map<String, Value>) {
    let (group, version) = super::super::discovery::group_version(kind);
    d.insert("description".into(), json!(super::texts::kind(kind)));
    d.insert("type".into(), json!("object"));
    if let Some(Value::Object(props)) = d.get_mut("properties") {
        props.insert(
            "apiVersion".into(),
            json!({"description": super::texts::API_VERSION, "type": "string"}),
        );
        props.insert(
            "kind".into(),
            json!({"description": super::texts::KIND, "type": "string"}),
        );
        for (field, text) in super::texts::TOP_FIELDS {
            if let Some(Value::Object(f)) = props.get_mut(*field) {
                f.insert("description".into(), json!(text));
            }
        }
    }
    d.insert(
        "x-kubernetes-group-version-kind".into(),
        json!([{"group": group, "version": version, "kind": kind.name()}]),
    );
}

/// Upstream's shapes, throughout one definition.
fn shape(v: &mut Value) {
    match v {
        Value::Object(m) => {
            if let Some(Value::String(d)) = m.get_mut("description") {
                match tidy(d) {
                    Some(t) => *d = t,
                    None => {
                        m.remove("description");
                    }
                }
            }
            // The opaque rest of a struct (`extra`: real fields not modelled) is not a
            // field of its own.
            if m.contains_key("properties") && m.get("additionalProperties") == Some(&json!(true)) {
                m.remove("additionalProperties");
            }
            optional(m);
            if let Some(d) = m.get_mut("default") {
                // Upstream's default for a struct field is `{}`, not the whole zero value.
                if d.is_object() {
                    *d = json!({});
                } else if d.is_array() {
                    m.remove("default");
                }
            }
            string_enum(m);
            for x in m.values_mut() {
                shape(x);
            }
        }
        Value::Array(a) => a.iter_mut().for_each(shape),
        _ => {}
    }
}

/// An `Option` is `T` or null to schemars; upstream says only `T` (an omitted field
/// is not written) and refers to an object type through `allOf`.
fn optional(m: &mut Map<String, Value>) {
    if let Some(Value::Array(types)) = m.get_mut("type") {
        types.retain(|t| t != "null");
        if types.len() == 1 {
            let t = types.remove(0);
            m.insert("type".into(), t);
        }
    }
    let Some(Value::Array(alts)) = m.get_mut("anyOf") else {
        return;
    };
    alts.retain(|a| a.get("type") != Some(&json!("null")));
    if alts.len() != 1 {
        return;
    }
    let one = alts.remove(0);
    m.remove("anyOf");
    match one {
        Value::Object(o) if o.contains_key("$ref") => {
            m.insert("allOf".into(), json!([o]));
        }
        Value::Object(o) => {
            for (k, v) in o {
                m.entry(k).or_insert(v);
            }
        }
        _ => {}
    }
}

/// Definitions whose Rust names differ from upstream's (Rust's casing of initialisms,
/// or a name that says its version).
const RENAMED: &[(&str, &str)] = &[
    ("HostIp", "HostIP"),
    ("PodIp", "PodIP"),
    ("HttpGetAction", "HTTPGetAction"),
    ("TcpSocketAction", "TCPSocketAction"),
    ("V1EndpointPort", "EndpointPort"),
    ("HpaScalingPolicy", "HPAScalingPolicy"),
    ("HpaScalingRules", "HPAScalingRules"),
];

/// `RENAMED` applied to the definitions and every `$ref`.
fn rename(defs: Map<String, Value>) -> Map<String, Value> {
    let to = |n: &str| {
        RENAMED
            .iter()
            .find(|(from, _)| *from == n)
            .map_or(n.to_string(), |(_, to)| to.to_string())
    };
    fn walk(v: &mut Value, to: &dyn Fn(&str) -> String) {
        match v {
            Value::Object(m) => {
                for (k, x) in m.iter_mut() {
                    match (k.as_str(), x) {
                        ("$ref", Value::String(r)) => {
                            if let Some(n) = r.strip_prefix(REF_PREFIX) {
                                *r = format!("{REF_PREFIX}{}", to(n));
                            }
                        }
                        (_, x) => walk(x, to),
                    }
                }
            }
            Value::Array(a) => a.iter_mut().for_each(|x| walk(x, to)),
            _ => {}
        }
    }
    defs.into_iter()
        .map(|(n, mut d)| {
            walk(&mut d, &to);
            (to(&n), d)
        })
        .collect()
}

/// A string enum whose variants have their own descriptions comes as `oneOf` one-value
/// enums: upstream writes `type: string`, every value in `enum`, and each value's
/// meaning in the description under "Possible enum values".
fn string_enum(m: &mut Map<String, Value>) {
    let Some(Value::Array(alts)) = m.get("oneOf") else {
        return;
    };
    let mut values = Vec::new();
    let mut said = Vec::new();
    for a in alts {
        let one = a
            .get("enum")
            .and_then(Value::as_array)
            .filter(|e| e.len() == 1)
            .and_then(|e| e[0].as_str());
        let Some(value) = one else {
            return;
        };
        values.push(json!(value));
        if let Some(d) = a.get("description").and_then(Value::as_str) {
            said.push(format!(" - `{value:?}` {}", tidy(d).unwrap_or_default()));
        }
    }
    m.remove("oneOf");
    m.insert("type".into(), json!("string"));
    if !said.is_empty() {
        let own = m
            .get("description")
            .and_then(Value::as_str)
            .map(|d| format!("{d}\n\n"))
            .unwrap_or_default();
        m.insert(
            "description".into(),
            json!(format!("{own}Possible enum values:\n{}", said.join("\n"))),
        );
    }
    m.insert("enum".into(), Value::Array(values));
}

/// A doc comment as a description: intra-doc links become plain code spans, and a
/// leading code span naming the upstream type (`` `apps/v1.DeploymentSpec`. ``) is
/// dropped — the type's name is already in `explain`'s `<…>`. None when nothing is left.
fn tidy(d: &str) -> Option<String> {
    // A doc comment's line breaks are the source's wrapping: `explain` wraps on its own.
    let mut t = d
        .split("\n\n")
        .map(|p| p.split('\n').map(str::trim).collect::<Vec<_>>().join(" "))
        .collect::<Vec<_>>()
        .join("\n\n")
        .replace("[`", "`")
        .replace("`]", "`");
    if let Some(rest) = t.strip_prefix('`') {
        if let Some(end) = rest.find('`') {
            let tail = rest[end + 1..]
                .trim_start_matches([':', '.', ',', ';'])
                .trim();
            if rest[..end].contains('.') && !rest[..end].contains(' ') {
                let mut c = tail.chars();
                t = match c.next() {
                    Some(f) => f.to_uppercase().chain(c).collect(),
                    None => String::new(),
                };
            }
        }
    }
    (!t.trim().is_empty()).then_some(t)
}
