//! The bootstrap policy (`bootstrappolicy/policy.go`): the ClusterRoles and
//! ClusterRoleBindings an API server creates at start — cluster-admin, admin, edit,
//! view, the discovery roles, the control plane's components and `system:node` — for
//! the API groups kubeplay serves.

use super::controller_policy::{controller_roles, events_rule, CONTROLLER_ACCOUNTS};
use super::helpers::{read_write, rule, urls, with_names, READ, WRITE};
use crate::api::*;

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
        rule(
            READ,
            &["networking.k8s.io"],
            &["ingresses", "ingresses/status", "networkpolicies"],
        ),
        // Aggregated from metrics-server's `system:aggregated-metrics-reader`.
        metrics_reader_rule(),
    ]
}

/// metrics-server's `system:aggregated-metrics-reader` rule: reading NodeMetrics and
/// PodMetrics.
fn metrics_reader_rule() -> PolicyRule {
    rule(READ, &["metrics.k8s.io"], &["pods", "nodes"])
}

/// The ClusterRole metrics-server's manifest installs, labelled for aggregation into
/// `view`, `edit` and `admin` (the clusterrole-aggregation-controller's work is done:
/// those roles carry its rule), so that `view` users can run `kubectl top`.
pub fn aggregated_metrics_reader() -> ClusterRole {
    let labels = [
        ("k8s-app", "metrics-server"),
        ("rbac.authorization.k8s.io/aggregate-to-admin", "true"),
        ("rbac.authorization.k8s.io/aggregate-to-edit", "true"),
        ("rbac.authorization.k8s.io/aggregate-to-view", "true"),
    ];
    ClusterRole {
        metadata: ObjectMeta {
            name: "system:aggregated-metrics-reader".into(),
            labels: labels
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
            ..Default::default()
        },
        rules: Some(vec![metrics_reader_rule()]),
    }
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
        rule(
            WRITE,
            &["networking.k8s.io"],
            &["ingresses", "networkpolicies"],
        ),
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
            "system:monitoring",
            &[],
            vec![urls(
                &["get"],
                &[
                    "/metrics",
                    "/metrics/slis",
                    "/livez",
                    "/readyz",
                    "/healthz",
                    "/livez/*",
                    "/readyz/*",
                    "/healthz/*",
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

/// `controller_policy.go`'s roles for [`CONTROLLER_ACCOUNTS`], and `policy.go`'s
/// `system:kube-controller-manager`, `system:kube-scheduler`, `system:volume-scheduler`,
/// `system:node` and `system:node-proxier` (v1.33, default feature gates), by name.
fn component_roles() -> Vec<(String, Vec<PolicyRule>)> {
    let mut out = controller_roles();
    out.push((
        "system:kube-controller-manager".into(),
        kube_controller_manager_rules(),
    ));
    out.push(("system:kube-scheduler".into(), kube_scheduler_rules()));
    out.push(("system:volume-scheduler".into(), volume_scheduler_rules()));
    out.push(("system:node".into(), node_rules()));
    out.push(("system:node-proxier".into(), node_proxier_rules()));
    crate::sorting::sort_by(&mut out, |a, b| a.0.cmp(&b.0));
    out
}

/// `system:kube-controller-manager`: the controller manager's own identity: its lease, tokens and service accounts, and reading everything.
fn kube_controller_manager_rules() -> Vec<PolicyRule> {
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
    ]
}

/// `system:kube-scheduler`: the scheduler's identity: its lease, Pods and their bindings, and what scheduling reads.
fn kube_scheduler_rules() -> Vec<PolicyRule> {
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
        rule(READ, &[""], &["nodes"]),
        rule(&["get", "list", "watch", "delete"], &[""], &["pods"]),
        rule(&["create"], &[""], &["pods/binding", "bindings"]),
        rule(&["patch", "update"], &[""], &["pods/status"]),
        rule(READ, &[""], &["services", "replicationcontrollers"]),
        rule(READ, &["apps", "extensions"], &["replicasets"]),
        rule(READ, &["apps"], &["statefulsets"]),
        rule(READ, &["policy"], &["poddisruptionbudgets"]),
        rule(
            READ,
            &[""],
            &["persistentvolumeclaims", "persistentvolumes"],
        ),
        rule(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
        rule(
            &["create"],
            &["authorization.k8s.io"],
            &["subjectaccessreviews"],
        ),
        rule(READ, &["storage.k8s.io"], &["csinodes"]),
        rule(READ, &["storage.k8s.io"], &["volumeattachments"]),
        rule(READ, &[""], &["namespaces"]),
        rule(READ, &["storage.k8s.io"], &["csidrivers"]),
        rule(READ, &["storage.k8s.io"], &["csistoragecapacities"]),
    ]
}

/// `system:volume-scheduler`: the scheduler's volume binding.
fn volume_scheduler_rules() -> Vec<PolicyRule> {
    vec![
        rule(
            &["get", "list", "watch", "update", "patch"],
            &[""],
            &["persistentvolumes"],
        ),
        rule(READ, &["storage.k8s.io"], &["storageclasses"]),
        rule(
            &["get", "list", "watch", "update", "patch"],
            &[""],
            &["persistentvolumeclaims"],
        ),
    ]
}

/// `system:node-proxier`: what kube-proxy's informers read (Services, EndpointSlices,
/// its Node) and its Events.
fn node_proxier_rules() -> Vec<PolicyRule> {
    vec![
        rule(&["list", "watch"], &[""], &["services", "endpoints"]),
        rule(&["get", "list", "watch"], &[""], &["nodes"]),
        events_rule(),
        rule(
            &["list", "watch"],
            &["discovery.k8s.io"],
            &["endpointslices"],
        ),
    ]
}

/// `NodeRules()`: the `system:node` role, and the Node authorizer's static rules.
pub fn node_rules() -> Vec<PolicyRule> {
    vec![
        rule(&["create"], &["authentication.k8s.io"], &["tokenreviews"]),
        rule(
            &["create"],
            &["authorization.k8s.io"],
            &["subjectaccessreviews", "localsubjectaccessreviews"],
        ),
        rule(READ, &[""], &["services"]),
        rule(&["create", "get", "list", "watch"], &[""], &["nodes"]),
        rule(&["update", "patch"], &[""], &["nodes/status"]),
        rule(&["update", "patch"], &[""], &["nodes"]),
        rule(&["create", "update", "patch"], &[""], &["events"]),
        rule(READ, &[""], &["pods"]),
        rule(&["create", "delete"], &[""], &["pods"]),
        rule(&["update", "patch"], &[""], &["pods/status"]),
        rule(&["create"], &[""], &["pods/eviction"]),
        rule(READ, &[""], &["secrets", "configmaps"]),
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
        rule(READ, &["node.k8s.io"], &["runtimeclasses"]),
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
            "system:monitoring",
            "system:monitoring",
            vec![group("system:monitoring")],
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
        ("system:node-proxier", vec![user("system:kube-proxy")]),
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
