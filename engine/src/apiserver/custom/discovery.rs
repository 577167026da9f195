//! Discovery of the custom resources (`apiextensions-apiserver/pkg/apiserver/
//! customresource_discovery_controller.go`): each served group and version with its
//! resources, for the aggregated documents and the legacy lists alike. What is served
//! is the running request's view ([`super::in_scope`]).

use crate::api::discovered::{in_scope, Served};
use crate::api::Kind;
use serde_json::{json, Value};

/// The verbs of every custom resource, in the order upstream lists them.
const VERBS: [&str; 8] = [
    "delete",
    "deletecollection",
    "get",
    "list",
    "patch",
    "create",
    "update",
    "watch",
];

/// kube-aware version order (`version.CompareKubeAwareVersionStrings`): GA before
/// beta before alpha, higher numbers first, anything else last by name.
fn version_key(v: &str) -> (u8, i64, i64, String) {
    let parse = |s: &str| -> Option<(u8, i64, i64)> {
        let rest = s.strip_prefix('v')?;
        let end = rest
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(rest.len());
        let major: i64 = rest[..end].parse().ok()?;
        let tail = &rest[end..];
        if tail.is_empty() {
            return Some((0, -major, 0));
        }
        for (word, rank) in [("beta", 1u8), ("alpha", 2u8)] {
            if let Some(n) = tail.strip_prefix(word) {
                let minor: i64 = if n.is_empty() { 0 } else { n.parse().ok()? };
                return Some((rank, -major, -minor));
            }
        }
        None
    };
    match parse(v) {
        Some((rank, major, minor)) => (rank, major, minor, String::new()),
        None => (3, 0, 0, v.to_string()),
    }
}

/// The custom groups, by name (their priority is below every built-in group's).
pub fn groups() -> Vec<String> {
    let mut gs: Vec<String> = in_scope().iter().map(|s| s.group.clone()).collect();
    gs.sort();
    gs.dedup();
    gs
}

/// A group's versions, the preferred one first.
fn versions(group: &str) -> Vec<String> {
    let mut vs: Vec<String> = in_scope()
        .iter()
        .filter(|s| s.group == group)
        .flat_map(|s| s.versions.iter().cloned())
        .collect();
    vs.sort_by_key(|v| version_key(v));
    vs.dedup();
    vs
}

fn scope(s: &Served) -> &'static str {
    if s.kind.namespaced() {
        "Namespaced"
    } else {
        "Cluster"
    }
}

/// `APIResourceDiscovery` of one resource in one version.
fn resource(s: &Served, version: &str) -> Value {
    let mut r = json!({
        "resource": s.names.plural,
        "responseKind": {"group": s.group, "version": version, "kind": s.names.kind},
        "scope": scope(s),
        "singularResource": s.names.singular,
        "verbs": VERBS,
    });
    if !s.names.short_names.is_empty() {
        r["shortNames"] = json!(s.names.short_names);
    }
    if !s.names.categories.is_empty() {
        r["categories"] = json!(s.names.categories);
    }
    let mut subs = Vec::new();
    if s.status {
        subs.push(json!({"subresource": "status",
            "responseKind": {"group": s.group, "version": version, "kind": s.names.kind},
            "verbs": ["get", "patch", "update"]}));
    }
    if s.scale.is_some() {
        subs.push(json!({"subresource": "scale",
            "responseKind": {"group": "autoscaling", "version": "v1", "kind": "Scale"},
            "verbs": ["get", "patch", "update"]}));
    }
    if !subs.is_empty() {
        r["subresources"] = Value::Array(subs);
    }
    r
}

/// The aggregated discovery of each custom group (`APIGroupDiscovery`).
pub fn aggregated() -> Vec<Value> {
    let scope_now = in_scope();
    groups()
        .into_iter()
        .map(|g| {
            let versions: Vec<Value> = versions(&g)
                .into_iter()
                .map(|v| {
                    let mut rs: Vec<Value> = scope_now
                        .iter()
                        .filter(|s| s.group == g && s.versions.contains(&v))
                        .map(|s| resource(s, &v))
                        .collect();
                    rs.sort_by(|a, b| a["resource"].as_str().cmp(&b["resource"].as_str()));
                    json!({"version": v, "resources": rs, "freshness": "Current"})
                })
                .collect();
            json!({"metadata": {"name": g, "creationTimestamp": null}, "versions": versions})
        })
        .collect()
}

/// The legacy `APIGroup` of each custom group.
pub fn api_groups() -> Vec<Value> {
    groups()
        .into_iter()
        .map(|g| {
            let gvs: Vec<Value> = versions(&g)
                .iter()
                .map(|v| json!({"groupVersion": format!("{g}/{v}"), "version": v}))
                .collect();
            let preferred = gvs.first().cloned().unwrap_or(Value::Null);
            json!({"name": g, "versions": gvs, "preferredVersion": preferred})
        })
        .collect()
}

/// `APIResourceList` of a custom group and version, or None when nothing is served
/// there.
pub fn resource_list(group: &str, version: &str) -> Option<Value> {
    let mut resources = Vec::new();
    for s in in_scope()
        .iter()
        .filter(|s| s.group == group && s.versions.iter().any(|v| v == version))
    {
        let mut r = json!({
            "name": s.names.plural,
            "singularName": s.names.singular,
            "namespaced": s.kind.namespaced(),
            "kind": s.names.kind,
            "verbs": VERBS,
        });
        if !s.names.short_names.is_empty() {
            r["shortNames"] = json!(s.names.short_names);
        }
        if !s.names.categories.is_empty() {
            r["categories"] = json!(s.names.categories);
        }
        resources.push(r);
        if s.status {
            resources.push(json!({"name": format!("{}/status", s.names.plural), "singularName": "",
                "namespaced": s.kind.namespaced(), "kind": s.names.kind, "verbs": ["get", "patch", "update"]}));
        }
        if s.scale.is_some() {
            resources.push(
                json!({"name": format!("{}/scale", s.names.plural), "singularName": "",
                "namespaced": s.kind.namespaced(), "group": "autoscaling", "version": "v1",
                "kind": "Scale", "verbs": ["get", "patch", "update"]}),
            );
        }
    }
    if resources.is_empty() {
        return None;
    }
    resources.sort_by(|a, b| a["name"].as_str().cmp(&b["name"].as_str()));
    Some(json!({
        "kind": "APIResourceList",
        "apiVersion": "v1",
        "groupVersion": format!("{group}/{version}"),
        "resources": resources,
    }))
}

/// The custom resource served at `resource` in group/version.
pub fn kind_of(group: &str, version: &str, resource: &str) -> Option<Kind> {
    in_scope()
        .iter()
        .find(|s| {
            s.group == group
                && s.names.plural == resource
                && s.versions.iter().any(|v| v == version)
        })
        .map(|s| s.kind)
}
