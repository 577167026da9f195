//! Authorization by RBAC: who may do what, from the Role, ClusterRole, RoleBinding and
//! ClusterRoleBinding objects in the store, and the bootstrap policy every cluster
//! starts with.
//!
//! A request's attributes (user and groups, verb, API group, resource and
//! subresource, namespace, name — or a non-resource path) are allowed when a rule of a
//! role bound to the user or one of its groups covers them: first the
//! ClusterRoleBindings, then the RoleBindings of the request's namespace. A binding
//! whose role is missing adds `RBAC: role.rbac.authorization.k8s.io "x" not found` to
//! the refusal's reason. Nothing allows by default: a user with no binding may only
//! discover the API and review its own access.
//!
//! Upstream: `plugin/pkg/auth/authorizer/rbac/rbac.go` (`Authorize`, `RuleAllows`,
//! the authorizing visitor), `pkg/registry/rbac/validation/rule.go` (`VisitRulesFor`),
//! `plugin/pkg/auth/authorizer/rbac/bootstrappolicy/policy.go` (the bootstrap roles),
//! `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/responsewriters/errors.go`
//! (`forbiddenMessage`).
//!
//! Simplifications: the bootstrap policy keeps the roles a learner meets (cluster-admin,
//! admin, edit, view and the discovery roles) with the rules for the kinds kubeplay
//! serves; `admin`, `edit` and `view` are stored already aggregated. The control
//! plane's components have their roles and bindings (`system:controller:*`,
//! `system:kube-scheduler`, `system:kube-controller-manager`, `system:node` bound to
//! nobody) and are authorized by `cluster::component_authz`; a node's identity
//! (`system:node:<name>` in `system:nodes`) goes through the Node authorizer first
//! ([`node_authorize`]), as kubeadm's `--authorization-mode=Node,RBAC` does.

use super::{ApiError, Store};
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
            .get::<ClusterRole>(&super::ObjKey::new("", &role_ref.name))
            .map(|r| r.rules.as_deref().unwrap_or_default())
            .ok_or_else(|| {
                format!(
                    "clusterrole.rbac.authorization.k8s.io \"{}\" not found",
                    role_ref.name
                )
            }),
        "Role" => store
            .get::<Role>(&super::ObjKey::new(binding_ns, &role_ref.name))
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

/// `user.SystemPrivilegedGroup`: allowed everything before RBAC is asked.
pub const PRIVILEGED_GROUP: &str = "system:masters";

/// kube-apiserver's authorizer chain: the privileged group, then kubeadm's
/// `--authorization-mode=Node,RBAC`: the Node authorizer for a node's identity, then
/// RBAC (`RBACAuthorizer.Authorize`). A refusal carries the reasons of both that gave
/// one, one per line (the union authorizer's join).
pub fn authorize(store: &Store, user: &UserInfo, a: &Attributes) -> Decision {
    // The privileged group's authorizer comes first in kube-apiserver's chain: its
    // members are allowed everything, whatever RBAC says.
    if user.groups.iter().any(|g| g == PRIVILEGED_GROUP) {
        return Decision::Allow(format!("privileged group {PRIVILEGED_GROUP}"));
    }
    let mut reasons: Vec<String> = Vec::new();
    if let Some(node) = node_identity(user) {
        match node_authorize(store, node, a) {
            Ok(()) => return Decision::Allow("Node authorizer: allowed".into()),
            Err(r) if !r.is_empty() => reasons.push(r),
            Err(_) => {}
        }
    }
    let (rules, errors) = rules_for(store, user, &a.namespace);
    if let Some((by, _)) = rules.iter().find(|(_, r)| rule_allows(a, r)) {
        return Decision::Allow(format!("RBAC: allowed by {by}"));
    }
    let mut unique: Vec<String> = Vec::new();
    for e in errors {
        if !unique.contains(&e) {
            unique.push(e);
        }
    }
    match unique.len() {
        0 => {}
        1 => reasons.push(format!("RBAC: {}", unique[0])),
        _ => reasons.push(format!("RBAC: [{}]", unique.join(", "))),
    }
    Decision::Deny(reasons.join("\n"))
}

/// The impersonation filter: `me` acting as `name` in `groups` must be allowed to
/// `impersonate` the user and each group; the first refusal is the 403.
pub fn impersonate(
    store: &Store,
    me: &UserInfo,
    name: &str,
    groups: &[String],
) -> Result<UserInfo, ApiError> {
    let mut wanted = vec![Attributes {
        verb: "impersonate".into(),
        resource: "users".into(),
        name: name.into(),
        ..Default::default()
    }];
    wanted.extend(groups.iter().map(|g| Attributes {
        verb: "impersonate".into(),
        resource: "groups".into(),
        name: g.clone(),
        ..Default::default()
    }));
    for a in &wanted {
        if let Decision::Deny(reason) = authorize(store, me, a) {
            return Err(forbidden(me, a, &reason));
        }
    }
    let groups: Vec<&str> = groups.iter().map(String::as_str).collect();
    Ok(UserInfo::new(name, &groups))
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
    }
}

const READ: &[&str] = &["get", "list", "watch"];
const WRITE: &[&str] = &["create", "delete", "deletecollection", "patch", "update"];

fn rule(verbs: &[&str], groups: &[&str], resources: &[&str]) -> PolicyRule {
    let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    PolicyRule {
        verbs: v(verbs),
        api_groups: v(groups),
        resources: v(resources),
        ..Default::default()
    }
}

fn urls(verbs: &[&str], paths: &[&str]) -> PolicyRule {
    let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    PolicyRule {
        verbs: v(verbs),
        non_resource_urls: v(paths),
        ..Default::default()
    }
}

fn read_write() -> Vec<&'static str> {
    READ.iter().chain(WRITE).copied().collect()
}

/// The rules of `view` (aggregated from `system:aggregate-to-view`), for the API
/// groups kubeplay serves.
fn view_rules() -> Vec<PolicyRule> {
    vec![
        rule(
            READ,
            &[""],
            &[
                "configmaps",
                "endpoints",
                "persistentvolumeclaims",
                "persistentvolumeclaims/status",
                "pods",
                "replicationcontrollers",
                "replicationcontrollers/scale",
                "serviceaccounts",
                "services",
                "services/status",
            ],
        ),
        rule(
            READ,
            &[""],
            &[
                "bindings",
                "events",
                "limitranges",
                "namespaces/status",
                "pods/log",
                "pods/status",
                "replicationcontrollers/status",
                "resourcequotas",
                "resourcequotas/status",
            ],
        ),
        rule(READ, &[""], &["namespaces"]),
        rule(READ, &["discovery.k8s.io"], &["endpointslices"]),
        rule(
            READ,
            &["apps"],
            &[
                "controllerrevisions",
                "daemonsets",
                "daemonsets/status",
                "deployments",
                "deployments/scale",
                "deployments/status",
                "replicasets",
                "replicasets/scale",
                "replicasets/status",
                "statefulsets",
                "statefulsets/scale",
                "statefulsets/status",
            ],
        ),
        rule(
            READ,
            &["autoscaling"],
            &[
                "horizontalpodautoscalers",
                "horizontalpodautoscalers/status",
            ],
        ),
        rule(
            READ,
            &["batch"],
            &["cronjobs", "cronjobs/status", "jobs", "jobs/status"],
        ),
        rule(
            READ,
            &["policy"],
            &["poddisruptionbudgets", "poddisruptionbudgets/status"],
        ),
    ]
}

/// `edit`: `view` plus writing what a namespace's user runs (`system:aggregate-to-edit`).
fn edit_rules() -> Vec<PolicyRule> {
    let mut rules = vec![
        rule(
            READ,
            &[""],
            &[
                "pods/attach",
                "pods/exec",
                "pods/portforward",
                "pods/proxy",
                "secrets",
                "services/proxy",
            ],
        ),
        rule(&["impersonate"], &[""], &["serviceaccounts"]),
        rule(
            WRITE,
            &[""],
            &[
                "pods",
                "pods/attach",
                "pods/exec",
                "pods/portforward",
                "pods/proxy",
            ],
        ),
        rule(&["create"], &[""], &["pods/eviction"]),
        rule(
            WRITE,
            &[""],
            &[
                "configmaps",
                "endpoints",
                "persistentvolumeclaims",
                "replicationcontrollers",
                "replicationcontrollers/scale",
                "secrets",
                "serviceaccounts",
                "services",
                "services/proxy",
            ],
        ),
        rule(&["create"], &[""], &["serviceaccounts/token"]),
        rule(
            WRITE,
            &["apps"],
            &[
                "daemonsets",
                "deployments",
                "deployments/rollback",
                "deployments/scale",
                "replicasets",
                "replicasets/scale",
                "statefulsets",
                "statefulsets/scale",
            ],
        ),
        rule(WRITE, &["autoscaling"], &["horizontalpodautoscalers"]),
        rule(WRITE, &["batch"], &["cronjobs", "jobs"]),
        rule(WRITE, &["policy"], &["poddisruptionbudgets"]),
    ];
    rules.extend(view_rules());
    rules
}

/// `admin`: `edit` plus granting access within the namespace (`system:aggregate-to-admin`).
fn admin_rules() -> Vec<PolicyRule> {
    let mut rules = vec![
        rule(
            &["create"],
            &["authorization.k8s.io"],
            &["localsubjectaccessreviews"],
        ),
        rule(
            &read_write(),
            &["rbac.authorization.k8s.io"],
            &["rolebindings", "roles"],
        ),
    ];
    rules.extend(edit_rules());
    rules
}

/// The ClusterRoles an API server creates at start (a subset of the bootstrap policy).
pub fn bootstrap_cluster_roles() -> Vec<ClusterRole> {
    let role = |name: &str, labels: &[(&str, &str)], rules: Vec<PolicyRule>| ClusterRole {
        metadata: ObjectMeta {
            name: name.into(),
            labels: labels
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .chain([(
                    "kubernetes.io/bootstrapping".to_string(),
                    "rbac-defaults".to_string(),
                )])
                .collect(),
            annotations: [(
                "rbac.authorization.kubernetes.io/autoupdate".to_string(),
                "true".to_string(),
            )]
            .into_iter()
            .collect(),
            ..Default::default()
        },
        rules: Some(rules),
    };
    vec![
        role("admin", &[], admin_rules()),
        role(
            "cluster-admin",
            &[],
            vec![rule(&["*"], &["*"], &["*"]), urls(&["*"], &["*"])],
        ),
        role(
            "edit",
            &[("rbac.authorization.k8s.io/aggregate-to-admin", "true")],
            edit_rules(),
        ),
        role(
            "system:basic-user",
            &[],
            vec![
                rule(
                    &["create"],
                    &["authorization.k8s.io"],
                    &["selfsubjectaccessreviews", "selfsubjectrulesreviews"],
                ),
                rule(
                    &["create"],
                    &["authentication.k8s.io"],
                    &["selfsubjectreviews"],
                ),
            ],
        ),
        role(
            "system:discovery",
            &[],
            vec![urls(
                &["get"],
                &[
                    "/api",
                    "/api/*",
                    "/apis",
                    "/apis/*",
                    "/healthz",
                    "/livez",
                    "/openapi",
                    "/openapi/*",
                    "/readyz",
                    "/version",
                    "/version/",
                ],
            )],
        ),
        role(
            "system:public-info-viewer",
            &[],
            vec![urls(
                &["get"],
                &["/healthz", "/livez", "/readyz", "/version", "/version/"],
            )],
        ),
        role(
            "view",
            &[("rbac.authorization.k8s.io/aggregate-to-edit", "true")],
            view_rules(),
        ),
    ]
    .into_iter()
    .chain(
        component_roles()
            .into_iter()
            .map(|(name, rules)| role(&name, &[], rules)),
    )
    .collect()
}

/// `eventsRule()`: create, update and patch Events (core and events.k8s.io).
fn events_rule() -> PolicyRule {
    rule(
        &["create", "update", "patch"],
        &["", "events.k8s.io"],
        &["events"],
    )
}

/// The controllers kubeplay runs that have a role of their own
/// (`system:controller:<name>`, bound to the ServiceAccount `kube-system/<name>`
/// each controller uses with `--use-service-account-credentials`), with their rules.
pub const CONTROLLER_ACCOUNTS: &[&str] = &[
    "cronjob-controller",
    "daemon-set-controller",
    "deployment-controller",
    "disruption-controller",
    "endpoint-controller",
    "endpointslice-controller",
    "generic-garbage-collector",
    "horizontal-pod-autoscaler",
    "job-controller",
    "namespace-controller",
    "node-controller",
    "persistent-volume-binder",
    "pv-protection-controller",
    "pvc-protection-controller",
    "replicaset-controller",
    "resourcequota-controller",
    "statefulset-controller",
    "ttl-after-finished-controller",
];

/// `controller_policy.go`'s roles for [`CONTROLLER_ACCOUNTS`], and `policy.go`'s
/// `system:kube-controller-manager`, `system:kube-scheduler`, `system:volume-scheduler`
/// and `system:node` (v1.33, default feature gates).
fn component_roles() -> Vec<(String, Vec<PolicyRule>)> {
    let ro = &["get", "list", "watch"][..];
    let with_names = |mut r: PolicyRule, names: &[&str]| {
        r.resource_names = names.iter().map(|n| n.to_string()).collect();
        r
    };
    let controllers: Vec<(&str, Vec<PolicyRule>)> = vec![
        (
            "cronjob-controller",
            vec![
                rule(
                    &["get", "list", "watch", "update"],
                    &["batch"],
                    &["cronjobs"],
                ),
                rule(
                    &[
                        "get", "list", "watch", "create", "update", "delete", "patch",
                    ],
                    &["batch"],
                    &["jobs"],
                ),
                rule(&["update"], &["batch"], &["cronjobs/status"]),
                rule(&["update"], &["batch"], &["cronjobs/finalizers"]),
                rule(&["list", "watch", "delete"], &[""], &["pods"]),
                events_rule(),
            ],
        ),
        (
            "daemon-set-controller",
            vec![
                rule(ro, &["extensions", "apps"], &["daemonsets"]),
                rule(&["update"], &["extensions", "apps"], &["daemonsets/status"]),
                rule(
                    &["update"],
                    &["extensions", "apps"],
                    &["daemonsets/finalizers"],
                ),
                rule(&["list", "watch"], &[""], &["nodes"]),
                rule(
                    &["list", "watch", "create", "delete", "patch"],
                    &[""],
                    &["pods"],
                ),
                rule(&["create"], &[""], &["pods/binding"]),
                rule(
                    &[
                        "get", "list", "watch", "create", "delete", "update", "patch",
                    ],
                    &["apps"],
                    &["controllerrevisions"],
                ),
                events_rule(),
            ],
        ),
        (
            "horizontal-pod-autoscaler",
            vec![
                rule(ro, &["autoscaling"], &["horizontalpodautoscalers"]),
                rule(
                    &["update"],
                    &["autoscaling"],
                    &["horizontalpodautoscalers/status"],
                ),
                rule(&["get", "update"], &["*"], &["*/scale"]),
                rule(&["list", "watch"], &[""], &["pods"]),
                rule(&["list", "watch"], &["metrics.k8s.io"], &["pods"]),
                rule(ro, &["custom.metrics.k8s.io"], &["*"]),
                rule(ro, &["external.metrics.k8s.io"], &["*"]),
                events_rule(),
            ],
        ),
        (
            "job-controller",
            vec![
                rule(
                    &["get", "list", "watch", "update", "patch"],
                    &["batch"],
                    &["jobs"],
                ),
                rule(&["update"], &["batch"], &["jobs/status"]),
                rule(&["update"], &["batch"], &["jobs/finalizers"]),
                rule(
                    &["list", "watch", "create", "delete", "patch"],
                    &[""],
                    &["pods"],
                ),
                events_rule(),
            ],
        ),
        (
            "persistent-volume-binder",
            vec![
                rule(
                    &["get", "list", "watch", "update", "create", "delete"],
                    &[""],
                    &["persistentvolumes"],
                ),
                rule(&["update"], &[""], &["persistentvolumes/status"]),
                rule(
                    &["get", "list", "watch", "update"],
                    &[""],
                    &["persistentvolumeclaims"],
                ),
                rule(&["update"], &[""], &["persistentvolumeclaims/status"]),
                rule(
                    &["list", "watch", "get", "create", "delete"],
                    &[""],
                    &["pods"],
                ),
                rule(ro, &["storage.k8s.io"], &["storageclasses"]),
                rule(&["list", "watch"], &[""], &["nodes"]),
                events_rule(),
                // recyclerClient.WatchPod
                rule(&["watch"], &[""], &["events"]),
                // volume plugin - portworx
                rule(&["get"], &[""], &["services"]),
            ],
        ),
        (
            "pv-protection-controller",
            vec![
                rule(
                    &["get", "list", "watch", "update"],
                    &[""],
                    &["persistentvolumes"],
                ),
                events_rule(),
            ],
        ),
        (
            "pvc-protection-controller",
            vec![
                rule(
                    &["get", "list", "watch", "update"],
                    &[""],
                    &["persistentvolumeclaims"],
                ),
                rule(&["list", "watch", "get"], &[""], &["pods"]),
                events_rule(),
            ],
        ),
        (
            "statefulset-controller",
            vec![
                rule(&["list", "watch"], &[""], &["pods"]),
                rule(ro, &["apps"], &["statefulsets"]),
                rule(&["update"], &["apps"], &["statefulsets/status"]),
                rule(&["update"], &["apps"], &["statefulsets/finalizers"]),
                rule(
                    &["get", "create", "delete", "update", "patch"],
                    &[""],
                    &["pods"],
                ),
                rule(
                    &[
                        "get", "create", "delete", "update", "patch", "list", "watch",
                    ],
                    &["apps"],
                    &["controllerrevisions"],
                ),
                rule(
                    &["get", "create", "list", "watch"],
                    &[""],
                    &["persistentvolumeclaims"],
                ),
                events_rule(),
                // appended under StatefulSetAutoDeletePVC (GA, locked on in v1.33)
                rule(&["update", "delete"], &[""], &["persistentvolumeclaims"]),
                rule(&["update"], &[""], &["pods/finalizers"]),
            ],
        ),
        (
            "ttl-after-finished-controller",
            vec![
                rule(&["get", "list", "watch", "delete"], &["batch"], &["jobs"]),
                events_rule(),
            ],
        ),
        (
            "deployment-controller",
            vec![
                rule(
                    &["get", "list", "watch", "update"],
                    &["extensions", "apps"],
                    &["deployments"],
                ),
                rule(
                    &["update"],
                    &["extensions", "apps"],
                    &["deployments/status"],
                ),
                rule(
                    &["update"],
                    &["extensions", "apps"],
                    &["deployments/finalizers"],
                ),
                rule(
                    &[
                        "get", "list", "watch", "create", "update", "patch", "delete",
                    ],
                    &["apps", "extensions"],
                    &["replicasets"],
                ),
                rule(&["get", "list", "watch", "update"], &[""], &["pods"]),
                events_rule(),
            ],
        ),
        (
            "disruption-controller",
            vec![
                rule(ro, &["extensions", "apps"], &["deployments"]),
                rule(ro, &["apps", "extensions"], &["replicasets"]),
                rule(ro, &[""], &["replicationcontrollers"]),
                rule(ro, &["policy"], &["poddisruptionbudgets"]),
                rule(ro, &["apps"], &["statefulsets"]),
                rule(&["update"], &["policy"], &["poddisruptionbudgets/status"]),
                rule(&["patch", "update"], &[""], &["pods/status"]),
                rule(&["get"], &["*"], &["*/scale"]),
                events_rule(),
            ],
        ),
        (
            "endpoint-controller",
            vec![
                rule(ro, &[""], &["services", "pods"]),
                rule(
                    &["get", "list", "watch", "create", "update", "delete"],
                    &[""],
                    &["endpoints"],
                ),
                rule(&["create"], &[""], &["endpoints/restricted"]),
                events_rule(),
            ],
        ),
        (
            "endpointslice-controller",
            vec![
                rule(ro, &[""], &["services", "pods", "nodes"]),
                rule(&["update"], &[""], &["services/finalizers"]),
                rule(
                    &["get", "list", "watch", "create", "update", "delete"],
                    &["discovery.k8s.io"],
                    &["endpointslices"],
                ),
                events_rule(),
            ],
        ),
        (
            "generic-garbage-collector",
            vec![
                rule(
                    &["get", "list", "watch", "patch", "update", "delete"],
                    &["*"],
                    &["*"],
                ),
                events_rule(),
            ],
        ),
        (
            "namespace-controller",
            vec![
                rule(&["get", "list", "watch", "delete"], &[""], &["namespaces"]),
                rule(
                    &["update"],
                    &[""],
                    &["namespaces/finalize", "namespaces/status"],
                ),
                rule(
                    &["get", "list", "watch", "delete", "deletecollection"],
                    &["*"],
                    &["*"],
                ),
            ],
        ),
        (
            "node-controller",
            vec![
                rule(
                    &["get", "list", "watch", "update", "delete", "patch"],
                    &[""],
                    &["nodes"],
                ),
                rule(&["patch", "update"], &[""], &["nodes/status"]),
                rule(&["patch", "update"], &[""], &["pods/status"]),
                rule(&["list", "watch", "get", "delete"], &[""], &["pods"]),
                events_rule(),
            ],
        ),
        (
            "replicaset-controller",
            vec![
                rule(
                    &["get", "list", "watch", "update"],
                    &["apps", "extensions"],
                    &["replicasets"],
                ),
                rule(
                    &["update"],
                    &["apps", "extensions"],
                    &["replicasets/status"],
                ),
                rule(
                    &["update"],
                    &["apps", "extensions"],
                    &["replicasets/finalizers"],
                ),
                rule(
                    &["list", "watch", "patch", "create", "delete"],
                    &[""],
                    &["pods"],
                ),
                events_rule(),
            ],
        ),
        (
            "resourcequota-controller",
            vec![
                rule(&["list", "watch"], &["*"], &["*"]),
                rule(&["update"], &[""], &["resourcequotas/status"]),
                events_rule(),
            ],
        ),
    ];
    let mut out: Vec<(String, Vec<PolicyRule>)> = controllers
        .into_iter()
        .map(|(n, r)| (format!("system:controller:{n}"), r))
        .collect();
    out.push((
        "system:kube-controller-manager".into(),
        vec![
            events_rule(),
            rule(&["create"], &["coordination.k8s.io"], &["leases"]),
            with_names(
                rule(&["get", "update"], &["coordination.k8s.io"], &["leases"]),
                &["kube-controller-manager"],
            ),
            rule(&["create"], &[""], &["secrets", "serviceaccounts"]),
            rule(&["delete"], &[""], &["secrets"]),
            rule(
                &["get"],
                &[""],
                &["namespaces", "secrets", "serviceaccounts", "configmaps"],
            ),
            rule(&["update"], &[""], &["secrets", "serviceaccounts"]),
            rule(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
            rule(
                &["create"],
                &["authorization.k8s.io"],
                &["subjectaccessreviews"],
            ),
            rule(&["list", "watch"], &["*"], &["*"]),
            rule(&["create"], &[""], &["serviceaccounts/token"]),
        ],
    ));
    out.push((
        "system:kube-scheduler".into(),
        vec![
            events_rule(),
            rule(&["create"], &["coordination.k8s.io"], &["leases"]),
            with_names(
                rule(
                    &["get", "update", "list", "watch"],
                    &["coordination.k8s.io"],
                    &["leases"],
                ),
                &["kube-scheduler"],
            ),
            rule(
                &[
                    "get",
                    "list",
                    "watch",
                    "create",
                    "update",
                    "patch",
                    "delete",
                    "deletecollection",
                ],
                &["coordination.k8s.io"],
                &["leasecandidates"],
            ),
            rule(ro, &[""], &["nodes"]),
            rule(&["get", "list", "watch", "delete"], &[""], &["pods"]),
            rule(&["create"], &[""], &["pods/binding", "bindings"]),
            rule(&["patch", "update"], &[""], &["pods/status"]),
            rule(ro, &[""], &["services", "replicationcontrollers"]),
            rule(ro, &["apps", "extensions"], &["replicasets"]),
            rule(ro, &["apps"], &["statefulsets"]),
            rule(ro, &["policy"], &["poddisruptionbudgets"]),
            rule(ro, &[""], &["persistentvolumeclaims", "persistentvolumes"]),
            rule(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
            rule(
                &["create"],
                &["authorization.k8s.io"],
                &["subjectaccessreviews"],
            ),
            rule(ro, &["storage.k8s.io"], &["csinodes"]),
            rule(ro, &["storage.k8s.io"], &["volumeattachments"]),
            rule(ro, &[""], &["namespaces"]),
            rule(ro, &["storage.k8s.io"], &["csidrivers"]),
            rule(ro, &["storage.k8s.io"], &["csistoragecapacities"]),
        ],
    ));
    out.push((
        "system:volume-scheduler".into(),
        vec![
            rule(
                &["get", "list", "watch", "update", "patch"],
                &[""],
                &["persistentvolumes"],
            ),
            rule(ro, &["storage.k8s.io"], &["storageclasses"]),
            rule(
                &["get", "list", "watch", "update", "patch"],
                &[""],
                &["persistentvolumeclaims"],
            ),
        ],
    ));
    out.push(("system:node".into(), node_rules()));
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// [`node_rules`], built once: the Node authorizer reads them for every request of a
/// kubelet that no special case answers (its Events).
fn static_node_rules() -> &'static [PolicyRule] {
    static RULES: std::sync::OnceLock<Vec<PolicyRule>> = std::sync::OnceLock::new();
    RULES.get_or_init(node_rules)
}

/// `NodeRules()`: the `system:node` role, and the Node authorizer's static rules.
pub fn node_rules() -> Vec<PolicyRule> {
    let ro = &["get", "list", "watch"][..];
    vec![
        rule(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
        rule(
            &["create"],
            &["authorization.k8s.io"],
            &["subjectaccessreviews", "localsubjectaccessreviews"],
        ),
        rule(ro, &[""], &["services"]),
        rule(&["create", "get", "list", "watch"], &[""], &["nodes"]),
        rule(&["update", "patch"], &[""], &["nodes/status"]),
        rule(&["update", "patch"], &[""], &["nodes"]),
        rule(&["create", "update", "patch"], &[""], &["events"]),
        rule(ro, &[""], &["pods"]),
        rule(&["create", "delete"], &[""], &["pods"]),
        rule(&["update", "patch"], &[""], &["pods/status"]),
        rule(&["create"], &[""], &["pods/eviction"]),
        rule(ro, &[""], &["secrets", "configmaps"]),
        rule(
            &["get"],
            &[""],
            &["persistentvolumeclaims", "persistentvolumes"],
        ),
        rule(&["get"], &[""], &["endpoints"]),
        rule(
            &["create", "get", "list", "watch"],
            &["certificates.k8s.io"],
            &["certificatesigningrequests"],
        ),
        rule(
            &["get", "create", "update", "patch", "delete"],
            &["coordination.k8s.io"],
            &["leases"],
        ),
        rule(&["get"], &["storage.k8s.io"], &["volumeattachments"]),
        rule(&["create"], &[""], &["serviceaccounts/token"]),
        rule(
            &["get", "update", "patch"],
            &[""],
            &["persistentvolumeclaims/status"],
        ),
        rule(
            &["get", "watch", "list"],
            &["storage.k8s.io"],
            &["csidrivers"],
        ),
        rule(
            &["get", "create", "update", "patch", "delete"],
            &["storage.k8s.io"],
            &["csinodes"],
        ),
        rule(ro, &["node.k8s.io"], &["runtimeclasses"]),
    ]
}

/// The ClusterRoleBindings an API server creates at start, and kubeadm's binding of
/// its admin group (`kubeadm:cluster-admins`) to cluster-admin.
pub fn bootstrap_cluster_role_bindings() -> Vec<ClusterRoleBinding> {
    let group = |g: &str| Subject {
        api_group: RBAC_GROUP.into(),
        kind: "Group".into(),
        name: g.into(),
        namespace: String::new(),
    };
    let binding = |name: &str, role: &str, subjects: Vec<Subject>, bootstrap: bool| {
        let mut metadata = ObjectMeta {
            name: name.into(),
            ..Default::default()
        };
        if bootstrap {
            metadata
                .labels
                .insert("kubernetes.io/bootstrapping".into(), "rbac-defaults".into());
            metadata.annotations.insert(
                "rbac.authorization.kubernetes.io/autoupdate".into(),
                "true".into(),
            );
        }
        ClusterRoleBinding {
            metadata,
            role_ref: RoleRef {
                api_group: RBAC_GROUP.into(),
                kind: "ClusterRole".into(),
                name: role.into(),
            },
            subjects,
        }
    };
    let mut bindings = vec![
        binding(
            "cluster-admin",
            "cluster-admin",
            vec![group("system:masters")],
            true,
        ),
        binding(
            "kubeadm:cluster-admins",
            "cluster-admin",
            vec![group("kubeadm:cluster-admins")],
            false,
        ),
        binding(
            "system:basic-user",
            "system:basic-user",
            vec![group("system:authenticated")],
            true,
        ),
        binding(
            "system:discovery",
            "system:discovery",
            vec![group("system:authenticated")],
            true,
        ),
        binding(
            "system:public-info-viewer",
            "system:public-info-viewer",
            vec![
                group("system:authenticated"),
                group("system:unauthenticated"),
            ],
            true,
        ),
    ];
    let user = |u: &str| Subject {
        api_group: RBAC_GROUP.into(),
        kind: "User".into(),
        name: u.into(),
        namespace: String::new(),
    };
    for (name, subjects) in [
        (
            "system:kube-controller-manager",
            vec![user("system:kube-controller-manager")],
        ),
        ("system:kube-scheduler", vec![user("system:kube-scheduler")]),
        (
            "system:volume-scheduler",
            vec![user("system:kube-scheduler")],
        ),
        // Bound to nobody since the Node authorizer (1.8): the binding is kept with
        // no subjects.
        ("system:node", vec![]),
    ] {
        bindings.push(binding(name, name, subjects, true));
    }
    for sa in CONTROLLER_ACCOUNTS {
        let name = format!("system:controller:{sa}");
        bindings.push(binding(
            &name,
            &name,
            vec![Subject {
                api_group: String::new(),
                kind: "ServiceAccount".into(),
                name: sa.to_string(),
                namespace: "kube-system".into(),
            }],
            true,
        ));
    }
    bindings
}

/// `NodeIdentity`: the node a user is, when its name is `system:node:<name>` and it is
/// in the group `system:nodes`.
pub fn node_identity(user: &UserInfo) -> Option<&str> {
    let name = user.name.strip_prefix("system:node:")?;
    user.groups
        .iter()
        .any(|g| g == "system:nodes")
        .then_some(name)
}

/// Whether a Pod bound to `node` names `what` (a Secret or ConfigMap, by `field` of a
/// volume source or an env reference) — the Node authorizer graph's edge.
fn pod_on_node_references(store: &Store, node: &str, ns: &str, kind: &str, name: &str) -> bool {
    let (volume, key, env_ref, env_from) = match kind {
        "secrets" => ("secret", "secretName", "secretKeyRef", "secretRef"),
        _ => ("configMap", "name", "configMapKeyRef", "configMapRef"),
    };
    store
        .pods_on_node(node)
        .filter(|p| p.metadata.namespace == ns)
        .any(|p| {
            let spec = serde_json::to_value(&p.spec).unwrap_or_default();
            let volumes = spec["volumes"].as_array().cloned().unwrap_or_default();
            let by_volume = volumes.iter().any(|v| {
                v[volume][key].as_str() == Some(name)
                    || v["projected"]["sources"]
                        .as_array()
                        .is_some_and(|s| s.iter().any(|x| x[volume]["name"].as_str() == Some(name)))
            });
            let containers = spec["containers"]
                .as_array()
                .into_iter()
                .chain(spec["initContainers"].as_array())
                .flatten()
                .cloned()
                .collect::<Vec<_>>();
            let by_env = containers.iter().any(|c| {
                c["env"].as_array().is_some_and(|e| {
                    e.iter()
                        .any(|x| x["valueFrom"][env_ref]["name"].as_str() == Some(name))
                }) || c["envFrom"]
                    .as_array()
                    .is_some_and(|e| e.iter().any(|x| x[env_from]["name"].as_str() == Some(name)))
            });
            by_volume || by_env
        })
}

/// The Node authorizer (`node_authorizer.go`, `AuthorizeNodeWithSelectors` on, as in
/// v1.33): Ok for what `node` may do, else the reason it has no opinion (often empty).
/// kubeplay's attributes carry no field selector, so a node's list or watch of Pods
/// is refused as one without `spec.nodeName`.
pub fn node_authorize(store: &Store, node: &str, a: &Attributes) -> Result<(), String> {
    let no_relationship = || format!("no relationship found between node '{node}' and this object");
    if !a.path.is_empty() {
        return if static_node_rules().iter().any(|r| rule_allows(a, r)) {
            Ok(())
        } else {
            Err(String::new())
        };
    }
    let read = matches!(a.verb.as_str(), "get" | "list" | "watch");
    match (a.api_group.as_str(), a.resource.as_str()) {
        ("", "secrets" | "configmaps") => {
            if !read {
                return Err("can only read resources of this type".into());
            }
            if !a.subresource.is_empty() {
                return Err("cannot read subresource".into());
            }
            if a.namespace.is_empty() {
                return Err("can only read namespaced object of this type".into());
            }
            if a.name.is_empty() {
                return Err("No Object name found".into());
            }
            if pod_on_node_references(store, node, &a.namespace, &a.resource, &a.name) {
                Ok(())
            } else {
                Err(no_relationship())
            }
        }
        ("", "persistentvolumeclaims") if a.subresource == "status" => {
            if !matches!(a.verb.as_str(), "update" | "patch") {
                return Err("can only get/update/patch this type".into());
            }
            Err(no_relationship())
        }
        ("", "persistentvolumeclaims" | "persistentvolumes")
        | ("resource.k8s.io", "resourceclaims")
        | ("storage.k8s.io", "volumeattachments") => {
            if a.verb != "get" {
                return Err("can only get individual resources of this type".into());
            }
            if !a.subresource.is_empty() {
                return Err("cannot get subresource".into());
            }
            if a.name.is_empty() {
                return Err("No Object name found".into());
            }
            Err(no_relationship())
        }
        ("", "serviceaccounts") => {
            if a.verb == "get" && a.subresource.is_empty() {
                return Err("not allowed to get service accounts".into());
            }
            if a.verb != "create" || a.name.is_empty() {
                return Err("can only create tokens for individual service accounts".into());
            }
            if a.subresource != "token" {
                return Err("can only create token subresource of serviceaccount".into());
            }
            Err(no_relationship())
        }
        ("coordination.k8s.io", "leases") => {
            if !matches!(
                a.verb.as_str(),
                "get" | "create" | "update" | "patch" | "delete"
            ) {
                return Err("can only get, create, update, patch, or delete a node lease".into());
            }
            if a.namespace != "kube-node-lease" {
                return Err(
                    "can only access leases in the \"kube-node-lease\" system namespace".into(),
                );
            }
            if a.verb != "create" && a.name != node {
                return Err(
                    "can only access node lease with the same name as the requesting node".into(),
                );
            }
            Ok(())
        }
        ("", "nodes") => match (a.subresource.as_str(), a.verb.as_str()) {
            ("", "create" | "update" | "patch") => Ok(()),
            ("", "get" | "list" | "watch") => {
                if a.name.is_empty() {
                    Err(format!(
                        "node '{node}' cannot read all nodes, only its own Node object"
                    ))
                } else if a.name != node {
                    Err(format!(
                        "node '{node}' cannot read '{}', only its own Node object",
                        a.name
                    ))
                } else {
                    Ok(())
                }
            }
            ("status", "update" | "patch") => Ok(()),
            _ => Err(String::new()),
        },
        ("", "pods") => match (a.subresource.as_str(), a.verb.as_str()) {
            ("", "get") => {
                if a.name.is_empty() {
                    return Err("No Object name found".into());
                }
                let bound = store
                    .get::<Pod>(&super::ObjKey::new(&a.namespace, &a.name))
                    .is_some_and(|p| p.spec.node_name == node);
                if bound {
                    Ok(())
                } else {
                    Err(no_relationship())
                }
            }
            ("", "list" | "watch") => {
                Err("can only list/watch pods with spec.nodeName field selector".into())
            }
            ("", "create" | "delete") => Ok(()),
            ("status", "update" | "patch") => Ok(()),
            ("eviction", "create") => Ok(()),
            _ => Err(String::new()),
        },
        _ => {
            if static_node_rules().iter().any(|r| rule_allows(a, r)) {
                Ok(())
            } else {
                Err(String::new())
            }
        }
    }
}
