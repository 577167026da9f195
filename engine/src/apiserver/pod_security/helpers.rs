//! What the checks share (`pod-security-admission/policy/helpers.go` and the Pod
//! visitors): the Pod spec as the checks read it, the failure they return, and the
//! phrases their details are built of.

use crate::api::*;
use serde_json::Value;
use std::collections::BTreeSet;

/// `joinQuote`.
pub(super) fn join_quote<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let v: Vec<&str> = items.iter().map(AsRef::as_ref).collect();
    format!("\"{}\"", v.join("\", \""))
}

/// `pluralize`.
pub(super) fn pluralize<'a>(singular: &'a str, plural: &'a str, n: usize) -> &'a str {
    if n == 1 {
        singular
    } else {
        plural
    }
}

/// `container "a"` / `containers "a", "b"`.
pub(super) fn containers_phrase(names: &[String]) -> String {
    format!(
        "{} {}",
        pluralize("container", "containers", names.len()),
        join_quote(names)
    )
}

/// The setters of a value the Pod level and its containers may set: `pod`,
/// `container "a"` / `containers "a", "b"`, as the checks join them with " and ".
pub(super) fn setters(pod: bool, names: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    if pod {
        out.push("pod".to_string());
    }
    if !names.is_empty() {
        out.push(containers_phrase(names));
    }
    out
}

/// Where `securityContext.<field>.type` (an AppArmor or seccomp profile) is set to
/// neither `RuntimeDefault` nor `Localhost`: the setters and the values set.
pub(super) fn bad_profile_type(v: &View, field: &str) -> (Vec<String>, BTreeSet<String>) {
    let mut bad = BTreeSet::new();
    let mut check = |sc: &Value| match sc[field]["type"].as_str() {
        Some(t) if !seccomp_ok(t) => {
            bad.insert(t.to_string());
            true
        }
        _ => false,
    };
    let pod = check(v.pod_sc());
    let names: Vec<String> = v
        .containers()
        .filter(|(_, sc)| check(sc))
        .map(|(n, _)| n.to_string())
        .collect();
    (setters(pod, &names), bad)
}

/// A Pod spec as the checks read it: the JSON of the spec, containers in upstream's
/// visiting order (init containers, then containers).
pub(super) struct View {
    /// The Pod spec as JSON.
    pub(super) spec: Value,
    /// The Pod's annotations (AppArmor's older form).
    pub(super) annotations: StringMap,
}

impl View {
    /// The Pod-level `securityContext`.
    pub(super) fn pod_sc(&self) -> &Value {
        &self.spec["securityContext"]
    }

    /// Each container's name and `securityContext`, init containers first.
    pub(super) fn containers(&self) -> impl Iterator<Item = (&str, &Value)> {
        let list = |k: &str| {
            self.spec[k]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
        };
        list("initContainers")
            .chain(list("containers"))
            .map(|c| (c["name"].as_str().unwrap_or(""), &c["securityContext"]))
    }

    /// Whether the Pod declares the Windows OS.
    pub(super) fn windows(&self) -> bool {
        self.spec["os"]["name"].as_str() == Some("windows")
    }
}

/// A check's failure: its reason and its detail.
pub(super) type Failure = (String, String);

/// A failure with this reason and detail.
pub(super) fn fail(reason: impl Into<String>, detail: impl Into<String>) -> Option<Failure> {
    Some((reason.into(), detail.into()))
}

/// The strings of a JSON array (empty when it is not one).
pub(super) fn strings(v: &Value) -> impl Iterator<Item = &str> {
    v.as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(Value::as_str)
}

/// The Pod's volumes: each name and its source fields.
pub(super) fn volumes(v: &View) -> impl Iterator<Item = (&str, &serde_json::Map<String, Value>)> {
    v.spec["volumes"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(|vol| Some((vol["name"].as_str().unwrap_or(""), vol.as_object()?)))
}

pub(super) fn seccomp_ok(t: &str) -> bool {
    matches!(t, "RuntimeDefault" | "Localhost")
}
