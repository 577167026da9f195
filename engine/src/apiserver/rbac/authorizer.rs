//! The RBAC authorizer (`plugin/pkg/auth/authorizer/rbac/rbac.go`): a request's
//! attributes are allowed when a rule of a role bound to the user or one of its groups
//! covers them (`RuleAllows`), first the ClusterRoleBindings, then the RoleBindings of
//! the request's namespace (`VisitRulesFor`, `pkg/registry/rbac/validation/rule.go`);
//! and the 403 a refusal becomes (`forbiddenMessage`, `responsewriters/errors.go`).

use super::super::{ApiError, Store};
use crate::api::*;

/// A user as the authenticator found it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UserInfo {
    /// `alice`, `kubernetes-admin`, `system:serviceaccount:ns:name`…
    pub name: String,
    /// Its groups, `system:authenticated` included.
    pub groups: Vec<String>,
}

impl UserInfo {
    /// A user with these groups, plus `system:authenticated` (as the authenticator
    /// adds it).
    pub fn new(name: &str, groups: &[&str]) -> Self {
        let mut groups: Vec<String> = groups.iter().map(|g| g.to_string()).collect();
        if !groups.iter().any(|g| g == "system:authenticated") {
            groups.push("system:authenticated".into());
        }
        UserInfo {
            name: name.to_string(),
            groups,
        }
    }
}

/// What a request asks to do (`authorizer.Attributes`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Attributes {
    /// `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `impersonate`…
    pub verb: String,
    /// API group (`""` core, `apps`, `policy`…).
    pub api_group: String,
    /// Plural resource.
    pub resource: String,
    /// Subresource (`scale`, `log`, `status`, `eviction`), or empty.
    pub subresource: String,
    /// Namespace, empty for cluster-scoped or all-namespaces requests.
    pub namespace: String,
    /// Object name, empty for collections.
    pub name: String,
    /// For a non-resource request: its path (`/healthz`, `/version`); empty otherwise.
    pub path: String,
    /// A list's or watch's field selector, its `field=value` terms
    /// (`GetFieldSelector`: the Node authorizer lets a node list its own Pods).
    pub field_selector: Vec<(String, String)>,
}

impl Attributes {
    /// A resource request on a kind.
    pub fn on(verb: &str, kind: Kind, namespace: &str, name: &str) -> Self {
        let group = kind
            .api_version()
            .split_once('/')
            .map(|(g, _)| g)
            .unwrap_or("");
        Attributes {
            verb: verb.into(),
            api_group: group.into(),
            resource: kind.resource().into(),
            namespace: if kind.namespaced() {
                namespace.into()
            } else {
                String::new()
            },
            name: name.into(),
            ..Default::default()
        }
    }

    /// The same request on a subresource.
    pub fn subresource(mut self, subresource: &str) -> Self {
        self.subresource = subresource.into();
        self
    }

    /// A non-resource request.
    pub fn path(verb: &str, path: &str) -> Self {
        Attributes {
            verb: verb.into(),
            path: path.into(),
            ..Default::default()
        }
    }

    /// `resource/subresource` as rules and messages name it.
    pub fn full_resource(&self) -> String {
        if self.subresource.is_empty() {
            self.resource.clone()
        } else {
            format!("{}/{}", self.resource, self.subresource)
        }
    }
}

/// The authorizer's answer: allowed (with upstream's "allowed by" reason) or not (with
/// the reason to append to the refusal, often empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Allowed: `RBAC: allowed by ClusterRoleBinding "x" of ClusterRole "y" to User "z"`.
    Allow(String),
    /// Denied; the reason (empty unless a binding names a missing role).
    Deny(String),
}

/// `RuleAllows`: the verb, API group, resource and name (or non-resource path) match.
pub fn rule_allows(a: &Attributes, r: &PolicyRule) -> bool {
    let has = |list: &[String], v: &str| list.iter().any(|x| x == "*" || x == v);
    if !has(&r.verbs, &a.verb) {
        return false;
    }
    if !a.path.is_empty() {
        return r.non_resource_urls.iter().any(|u| {
            u == "*" || *u == a.path || u.strip_suffix('*').is_some_and(|p| a.path.starts_with(p))
        });
    }
    let resource = a.full_resource();
    let resource_ok = r.resources.iter().any(|x| {
        x == "*"
            || *x == resource
            || (!a.subresource.is_empty() && *x == format!("*/{}", a.subresource))
    });
    has(&r.api_groups, &a.api_group)
        && resource_ok
        && (r.resource_names.is_empty() || r.resource_names.contains(&a.name))
}

/// Whether a binding's subject is this user, one of its groups, or its
/// ServiceAccount (`appliesToUser`).
fn subject_matches(s: &Subject, user: &UserInfo, binding_ns: &str) -> bool {
    match s.kind.as_str() {
        "User" => s.name == user.name,
        "Group" => user.groups.contains(&s.name),
        "ServiceAccount" => {
            let ns = if s.namespace.is_empty() {
                binding_ns
            } else {
                &s.namespace
            };
            user.name == format!("system:serviceaccount:{ns}:{}", s.name)
        }
        _ => false,
    }
}

/// A subject as the "allowed by" reason names it (`describeSubject`).
fn describe_subject(s: &Subject, binding_ns: &str) -> String {
    match s.kind.as_str() {
        "ServiceAccount" => {
            let ns = if s.namespace.is_empty() {
                binding_ns
            } else {
                &s.namespace
            };
            format!("ServiceAccount \"{}/{ns}\"", s.name)
        }
        k => format!("{k} \"{}\"", s.name),
    }
}

/// The rules a binding's roleRef names, or the error a missing role gives.
fn role_rules<'a>(
    store: &'a Store,
    role_ref: &RoleRef,
    binding_ns: &str,
) -> Result<&'a [PolicyRule], String> {
    match role_ref.kind.as_str() {
        "ClusterRole" => store
            .get::<ClusterRole>(&super::super::ObjKey::new("", &role_ref.name))
            .map(|r| r.rules.as_deref().unwrap_or_default())
            .ok_or_else(|| {
                format!(
                    "clusterrole.rbac.authorization.k8s.io \"{}\" not found",
                    role_ref.name
                )
            }),
        "Role" => store
            .get::<Role>(&super::super::ObjKey::new(binding_ns, &role_ref.name))
            .map(|r| r.rules.as_deref().unwrap_or_default())
            .ok_or_else(|| {
                format!(
                    "role.rbac.authorization.k8s.io \"{}\" not found",
                    role_ref.name
                )
            }),
        k => Err(format!("unsupported role reference kind: \"{k}\"")),
    }
}

/// Every rule that applies to `user` in `namespace` (cluster-wide ones first), with
/// the binding that grants it, and the errors of bindings whose role is missing
/// (`VisitRulesFor`).
pub fn rules_for<'a>(
    store: &'a Store,
    user: &UserInfo,
    namespace: &str,
) -> (Vec<(String, &'a PolicyRule)>, Vec<String>) {
    let mut rules = Vec::new();
    let mut errors = Vec::new();
    for b in store.list::<ClusterRoleBinding>() {
        let Some(s) = b.subjects.iter().find(|s| subject_matches(s, user, "")) else {
            continue;
        };
        match role_rules(store, &b.role_ref, "") {
            Ok(rs) => {
                let by = format!(
                    "ClusterRoleBinding \"{}\" of {} \"{}\" to {}",
                    b.metadata.name,
                    b.role_ref.kind,
                    b.role_ref.name,
                    describe_subject(s, "")
                );
                rules.extend(rs.iter().map(|r| (by.clone(), r)));
            }
            Err(e) => errors.push(e),
        }
    }
    if !namespace.is_empty() {
        for b in store.list_ns::<RoleBinding>(namespace) {
            let Some(s) = b
                .subjects
                .iter()
                .find(|s| subject_matches(s, user, namespace))
            else {
                continue;
            };
            match role_rules(store, &b.role_ref, namespace) {
                Ok(rs) => {
                    let by = format!(
                        "RoleBinding \"{}/{namespace}\" of {} \"{}\" to {}",
                        b.metadata.name,
                        b.role_ref.kind,
                        b.role_ref.name,
                        describe_subject(s, namespace)
                    );
                    rules.extend(rs.iter().map(|r| (by.clone(), r)));
                }
                Err(e) => errors.push(e),
            }
        }
    }
    (rules, errors)
}

/// `forbiddenMessage` + `NewForbidden`: the 403 a refused request gets.
pub fn forbidden(user: &UserInfo, a: &Attributes, reason: &str) -> ApiError {
    let msg = if !a.path.is_empty() {
        format!(
            "User \"{}\" cannot {} path \"{}\"",
            user.name, a.verb, a.path
        )
    } else if !a.namespace.is_empty() {
        format!(
            "User \"{}\" cannot {} resource \"{}\" in API group \"{}\" in the namespace \"{}\"",
            user.name,
            a.verb,
            a.full_resource(),
            a.api_group,
            a.namespace
        )
    } else {
        format!(
            "User \"{}\" cannot {} resource \"{}\" in API group \"{}\" at the cluster scope",
            user.name,
            a.verb,
            a.full_resource(),
            a.api_group
        )
    };
    let msg = if reason.is_empty() {
        msg
    } else {
        format!("{msg}: {reason}")
    };
    let prefix = if !a.path.is_empty() {
        "forbidden".to_string()
    } else {
        let gr = if a.api_group.is_empty() {
            a.resource.clone()
        } else {
            format!("{}.{}", a.resource, a.api_group)
        };
        if a.name.is_empty() {
            format!("{gr} is forbidden")
        } else {
            format!("{gr} \"{}\" is forbidden", a.name)
        }
    };
    ApiError {
        code: 403,
        reason: "Forbidden",
        message: format!("{prefix}: {msg}"),
        kubectl_message: None,
        details: None,
    }
}
