//! `kubectl create role|clusterrole|rolebinding|clusterrolebinding`.
//!
//! Upstream: kubectl `pkg/cmd/create/create_role.go`, `create_clusterrole.go`,
//! `create_rolebinding.go`, `create_clusterrolebinding.go` (v0.33.0): one rule per API
//! group in the order the resources name them, verbs and resources without
//! duplicates, subjects users first, then groups, then service accounts.

use super::super::util::R;
use super::common::{client_meta, create_object, name_from_args, Output};
use crate::api::*;
use crate::cluster::Cluster;
use crate::command::args::Parsed;

/// Verbs `create role` knows (others get a warning).
const VALID_VERBS: &[&str] = &[
    "*",
    "get",
    "delete",
    "list",
    "create",
    "update",
    "patch",
    "watch",
    "proxy",
    "deletecollection",
    "use",
    "bind",
    "escalate",
    "impersonate",
];

/// Verbs allowed on non-resource URLs.
const NON_RESOURCE_VERBS: &[&str] = &[
    "*", "get", "post", "put", "delete", "patch", "head", "options",
];

/// Verbs only meaningful on one kind of resource, and which.
const SPECIAL_VERBS: &[(&str, &[(&str, &str)])] = &[
    ("use", &[("policy", "podsecuritypolicies")]),
    (
        "bind",
        &[
            ("rbac.authorization.k8s.io", "roles"),
            ("rbac.authorization.k8s.io", "clusterroles"),
        ],
    ),
    (
        "escalate",
        &[
            ("rbac.authorization.k8s.io", "roles"),
            ("rbac.authorization.k8s.io", "clusterroles"),
        ],
    ),
    (
        "impersonate",
        &[("", "users"), ("", "serviceaccounts"), ("", "groups")],
    ),
];

/// Every value of a repeatable, comma-separated flag, without duplicates.
fn values(p: &Parsed, name: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for v in p.all(name) {
        for x in v.split(',').filter(|x| !x.is_empty()) {
            if !out.iter().any(|o| o == x) {
                out.push(x.to_string());
            }
        }
    }
    out
}

/// `--resource` as (group, resource[/subresource]) through discovery.
fn resolve(resource: &str) -> Result<(String, String), String> {
    if resource == "*" {
        return Ok((String::new(), "*".into()));
    }
    let (base, sub) = match resource.split_once('/') {
        Some((b, s)) => (b, Some(s)),
        None => (resource, None),
    };
    let kind =
        crate::printers::get::resolve_kind(base).ok_or_else(|| match base.split_once('.') {
            Some((r, g)) => {
                format!("the server doesn't have a resource type \"{r}\" in group \"{g}\"")
            }
            None => format!("the server doesn't have a resource type \"{base}\""),
        })?;
    let group = kind
        .api_version()
        .split_once('/')
        .map(|(g, _)| g.to_string())
        .unwrap_or_default();
    let res = match sub {
        Some(s) => format!("{}/{s}", kind.resource()),
        None => kind.resource().to_string(),
    };
    Ok((group, res))
}

/// The metadata of a generated RBAC object: the namespace only for the namespaced kinds.
fn rbac_meta(name: String, ns: &str, namespaced: bool) -> ObjectMeta {
    ObjectMeta {
        name,
        namespace: if namespaced {
            ns.to_string()
        } else {
            String::new()
        },
        ..Default::default()
    }
}

/// `kubectl create role|clusterrole NAME --verb=… (--resource=… | --non-resource-url=…)`.
pub(super) fn create_role(
    c: &mut Cluster,
    p: &Parsed,
    ns: &str,
    out: &Output,
    namespaced: bool,
) -> R {
    let name = name_from_args(p)?.clone();
    let verbs = values(p, "verb");
    if verbs.is_empty() {
        return Err("error: at least one verb must be specified".into());
    }
    let resources = values(p, "resource");
    let names = values(p, "resource-name");
    let urls = if namespaced {
        vec![]
    } else {
        values(p, "non-resource-url")
    };
    if namespaced && resources.is_empty() {
        return Err("error: at least one resource must be specified".into());
    }
    if !namespaced && resources.is_empty() && urls.is_empty() {
        return Err("error: one of resource or nonResourceURL must be specified".into());
    }
    let mut warnings = String::new();
    if !resources.is_empty() {
        for v in &verbs {
            if !VALID_VERBS.contains(&v.as_str()) {
                warnings.push_str(&format!("Warning: '{v}' is not a standard resource verb\n"));
            }
        }
    }
    for u in &urls {
        if !u.starts_with('/') {
            return Err("error: nonResourceURL should start with /".into());
        }
        if u.contains('*') && !u.ends_with('*') {
            return Err(
                "error: nonResourceURL only supports wildcard matches when '*' is at the end"
                    .into(),
            );
        }
    }
    if !urls.is_empty() {
        if let Some(v) = verbs
            .iter()
            .find(|v| !NON_RESOURCE_VERBS.contains(&v.as_str()))
        {
            return Err(format!("error: invalid verb: '{v}' for nonResourceURL"));
        }
    }
    // One rule per API group, in the order the resources first name it.
    let mut rules: Vec<PolicyRule> = Vec::new();
    for r in &resources {
        let (group, res) = resolve(r)?;
        for (verb, allowed) in SPECIAL_VERBS {
            if verbs.iter().any(|v| v == verb)
                && !allowed.iter().any(|(g, rr)| *g == group && *rr == res)
            {
                return Err(format!(
                    "error: can not perform '{verb}' on '{res}' in group '{group}'"
                ));
            }
        }
        match rules.iter_mut().find(|x| x.api_groups == [group.clone()]) {
            Some(rule) => {
                if !rule.resources.contains(&res) {
                    rule.resources.push(res);
                }
            }
            None => rules.push(PolicyRule {
                api_groups: vec![group],
                resources: vec![res],
                resource_names: names.clone(),
                verbs: verbs.clone(),
                ..Default::default()
            }),
        }
    }
    if !urls.is_empty() {
        rules.push(PolicyRule {
            non_resource_urls: urls,
            verbs: verbs.clone(),
            ..Default::default()
        });
    }
    let explicit = out.explicit_ns.then_some(ns);
    let client = serde_json::json!({
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": if namespaced { "Role" } else { "ClusterRole" },
        "metadata": client_meta(&name, if namespaced { explicit } else { None }),
        "rules": rules,
    });
    let metadata = rbac_meta(name, ns, namespaced);
    let object = if namespaced {
        Object::Role(Role {
            metadata,
            rules: Some(rules),
        })
    } else {
        Object::ClusterRole(ClusterRole {
            metadata,
            rules: Some(rules),
        })
    };
    create_object(c, object, client, out, None).map(|s| format!("{warnings}{s}"))
}

/// `kubectl create rolebinding|clusterrolebinding NAME --role=…|--clusterrole=…
/// [--user=…] [--group=…] [--serviceaccount=NS:NAME]`.
pub(super) fn create_binding(
    c: &mut Cluster,
    p: &Parsed,
    ns: &str,
    out: &Output,
    namespaced: bool,
) -> R {
    let role = p.get("role").filter(|_| namespaced);
    let cluster_role = p.get("clusterrole");
    if !namespaced && cluster_role.is_none() {
        return Err("error: required flag(s) \"clusterrole\" not set".into());
    }
    let name = name_from_args(p)?.clone();
    let role_ref = match (role, cluster_role) {
        (Some(r), None) => ("Role", r),
        (None, Some(r)) => ("ClusterRole", r),
        _ => return Err("error: exactly one of clusterrole or role must be specified".into()),
    };
    let mut subjects = Vec::new();
    for u in p.all("user") {
        subjects.push(Subject {
            api_group: RBAC_GROUP.into(),
            kind: "User".into(),
            name: u.to_string(),
            namespace: String::new(),
        });
    }
    for g in p.all("group") {
        subjects.push(Subject {
            api_group: RBAC_GROUP.into(),
            kind: "Group".into(),
            name: g.to_string(),
            namespace: String::new(),
        });
    }
    for sa in p.all("serviceaccount") {
        let Some((sns, sname)) = sa
            .split_once(':')
            .filter(|(a, b)| !a.is_empty() && !b.is_empty())
        else {
            return Err("error: serviceaccount must be <namespace>:<name>".into());
        };
        subjects.push(Subject {
            api_group: String::new(),
            kind: "ServiceAccount".into(),
            name: sname.to_string(),
            namespace: sns.to_string(),
        });
    }
    let role_ref = RoleRef {
        api_group: RBAC_GROUP.into(),
        kind: role_ref.0.into(),
        name: role_ref.1.to_string(),
    };
    let explicit = out.explicit_ns.then_some(ns);
    let mut client = serde_json::json!({
        "apiVersion": "rbac.authorization.k8s.io/v1",
        "kind": if namespaced { "RoleBinding" } else { "ClusterRoleBinding" },
        "metadata": client_meta(&name, if namespaced { explicit } else { None }),
        "roleRef": role_ref,
    });
    if !subjects.is_empty() {
        client["subjects"] = serde_json::to_value(&subjects).unwrap_or_default();
    }
    let metadata = rbac_meta(name, ns, namespaced);
    let object = if namespaced {
        Object::RoleBinding(RoleBinding {
            metadata,
            role_ref,
            subjects,
        })
    } else {
        Object::ClusterRoleBinding(ClusterRoleBinding {
            metadata,
            role_ref,
            subjects,
        })
    };
    create_object(c, object, client, out, None)
}
