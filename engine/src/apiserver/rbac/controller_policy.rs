//! The controllers' roles (`bootstrappolicy/controller_policy.go`): one
//! `system:controller:<name>` ClusterRole per controller kubeplay runs, each built by a
//! function of its own as upstream adds each with `addControllerRole`, and bound to the
//! controller's ServiceAccount by the bootstrap policy.

use super::helpers::{rule, READ};
use crate::api::*;

/// `eventsRule()`: create, update and patch Events (core and events.k8s.io).
pub(super) fn events_rule() -> PolicyRule {
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
    "endpointslicemirroring-controller",
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
    "root-ca-cert-publisher",
    "service-account-controller",
    "statefulset-controller",
    "ttl-after-finished-controller",
];

/// `buildControllerRoles()`: the role of each controller in [`CONTROLLER_ACCOUNTS`]
/// (`system:controller:<name>`); the bootstrap policy sorts them by name.
pub(super) fn controller_roles() -> Vec<(String, Vec<PolicyRule>)> {
    let controllers: Vec<(&str, Vec<PolicyRule>)> = vec![
        ("cronjob-controller", cronjob_controller_rules()),
        ("daemon-set-controller", daemon_set_controller_rules()),
        (
            "horizontal-pod-autoscaler",
            horizontal_pod_autoscaler_rules(),
        ),
        ("job-controller", job_controller_rules()),
        ("persistent-volume-binder", persistent_volume_binder_rules()),
        ("pv-protection-controller", pv_protection_controller_rules()),
        (
            "pvc-protection-controller",
            pvc_protection_controller_rules(),
        ),
        ("statefulset-controller", statefulset_controller_rules()),
        (
            "ttl-after-finished-controller",
            ttl_after_finished_controller_rules(),
        ),
        ("deployment-controller", deployment_controller_rules()),
        ("disruption-controller", disruption_controller_rules()),
        ("endpoint-controller", endpoint_controller_rules()),
        ("endpointslice-controller", endpointslice_controller_rules()),
        (
            "endpointslicemirroring-controller",
            endpointslicemirroring_controller_rules(),
        ),
        (
            "generic-garbage-collector",
            generic_garbage_collector_rules(),
        ),
        ("namespace-controller", namespace_controller_rules()),
        ("node-controller", node_controller_rules()),
        ("replicaset-controller", replicaset_controller_rules()),
        ("resourcequota-controller", resourcequota_controller_rules()),
        (
            "root-ca-cert-publisher",
            vec![
                rule(&["create", "update"], &[""], &["configmaps"]),
                events_rule(),
            ],
        ),
        (
            "service-account-controller",
            vec![
                rule(&["create"], &[""], &["serviceaccounts"]),
                events_rule(),
            ],
        ),
    ];
    controllers
        .into_iter()
        .map(|(n, r)| (format!("system:controller:{n}"), r))
        .collect()
}

/// `system:controller:cronjob-controller`: CronJobs, the Jobs they own and those Jobs' Pods.
fn cronjob_controller_rules() -> Vec<PolicyRule> {
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
    ]
}

/// `system:controller:daemon-set-controller`: DaemonSets, their Pods (bound by the controller itself) and revisions.
fn daemon_set_controller_rules() -> Vec<PolicyRule> {
    vec![
        rule(READ, &["extensions", "apps"], &["daemonsets"]),
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
    ]
}

/// `system:controller:horizontal-pod-autoscaler`: HorizontalPodAutoscalers, `*/scale` and the metrics APIs.
fn horizontal_pod_autoscaler_rules() -> Vec<PolicyRule> {
    vec![
        rule(READ, &["autoscaling"], &["horizontalpodautoscalers"]),
        rule(
            &["update"],
            &["autoscaling"],
            &["horizontalpodautoscalers/status"],
        ),
        rule(&["get", "update"], &["*"], &["*/scale"]),
        rule(&["list", "watch"], &[""], &["pods"]),
        rule(&["list", "watch"], &["metrics.k8s.io"], &["pods"]),
        rule(READ, &["custom.metrics.k8s.io"], &["*"]),
        rule(READ, &["external.metrics.k8s.io"], &["*"]),
        events_rule(),
    ]
}

/// `system:controller:job-controller`: Jobs and their Pods.
fn job_controller_rules() -> Vec<PolicyRule> {
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
    ]
}

/// `system:controller:persistent-volume-binder`: PersistentVolumes and the claims they bind.
fn persistent_volume_binder_rules() -> Vec<PolicyRule> {
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
        rule(READ, &["storage.k8s.io"], &["storageclasses"]),
        rule(&["list", "watch"], &[""], &["nodes"]),
        events_rule(),
        // recyclerClient.WatchPod
        rule(&["watch"], &[""], &["events"]),
        // volume plugin - portworx
        rule(&["get"], &[""], &["services"]),
    ]
}

/// `system:controller:pv-protection-controller`: PersistentVolumes' protection finalizer.
fn pv_protection_controller_rules() -> Vec<PolicyRule> {
    vec![
        rule(
            &["get", "list", "watch", "update"],
            &[""],
            &["persistentvolumes"],
        ),
        events_rule(),
    ]
}

/// `system:controller:pvc-protection-controller`: claims' protection finalizer, and the Pods that use them.
fn pvc_protection_controller_rules() -> Vec<PolicyRule> {
    vec![
        rule(
            &["get", "list", "watch", "update"],
            &[""],
            &["persistentvolumeclaims"],
        ),
        rule(&["list", "watch", "get"], &[""], &["pods"]),
        events_rule(),
    ]
}

/// `system:controller:statefulset-controller`: StatefulSets, their Pods, revisions and claims.
fn statefulset_controller_rules() -> Vec<PolicyRule> {
    vec![
        rule(&["list", "watch"], &[""], &["pods"]),
        rule(READ, &["apps"], &["statefulsets"]),
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
    ]
}

/// `system:controller:ttl-after-finished-controller`: finished Jobs past their TTL.
fn ttl_after_finished_controller_rules() -> Vec<PolicyRule> {
    vec![
        rule(&["get", "list", "watch", "delete"], &["batch"], &["jobs"]),
        events_rule(),
    ]
}

/// `system:controller:deployment-controller`: Deployments and their ReplicaSets.
fn deployment_controller_rules() -> Vec<PolicyRule> {
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
    ]
}

/// `system:controller:disruption-controller`: PodDisruptionBudgets and the scale of what their Pods belong to.
fn disruption_controller_rules() -> Vec<PolicyRule> {
    vec![
        rule(READ, &["extensions", "apps"], &["deployments"]),
        rule(READ, &["apps", "extensions"], &["replicasets"]),
        rule(READ, &[""], &["replicationcontrollers"]),
        rule(READ, &["policy"], &["poddisruptionbudgets"]),
        rule(READ, &["apps"], &["statefulsets"]),
        rule(&["update"], &["policy"], &["poddisruptionbudgets/status"]),
        rule(&["patch", "update"], &[""], &["pods/status"]),
        rule(&["get"], &["*"], &["*/scale"]),
        events_rule(),
    ]
}

/// `system:controller:endpoint-controller`: Endpoints from Services and Pods.
fn endpoint_controller_rules() -> Vec<PolicyRule> {
    vec![
        rule(READ, &[""], &["services", "pods"]),
        rule(
            &["get", "list", "watch", "create", "update", "delete"],
            &[""],
            &["endpoints"],
        ),
        rule(&["create"], &[""], &["endpoints/restricted"]),
        events_rule(),
    ]
}

/// `system:controller:endpointslice-controller`: EndpointSlices from Services, Pods and Nodes.
fn endpointslice_controller_rules() -> Vec<PolicyRule> {
    vec![
        rule(READ, &[""], &["services", "pods", "nodes"]),
        rule(&["update"], &[""], &["services/finalizers"]),
        rule(
            &["get", "list", "watch", "create", "update", "delete"],
            &["discovery.k8s.io"],
            &["endpointslices"],
        ),
        events_rule(),
    ]
}

/// `system:controller:endpointslicemirroring-controller`: EndpointSlices from the
/// Endpoints of selector-less Services.
fn endpointslicemirroring_controller_rules() -> Vec<PolicyRule> {
    vec![
        rule(READ, &[""], &["services", "endpoints"]),
        rule(&["update"], &[""], &["endpoints/finalizers"]),
        rule(
            &["get", "list", "create", "update", "delete"],
            &["discovery.k8s.io"],
            &["endpointslices"],
        ),
        events_rule(),
    ]
}

/// `system:controller:generic-garbage-collector`: any object with owners.
fn generic_garbage_collector_rules() -> Vec<PolicyRule> {
    vec![
        rule(
            &["get", "list", "watch", "patch", "update", "delete"],
            &["*"],
            &["*"],
        ),
        events_rule(),
    ]
}

/// `system:controller:namespace-controller`: terminating Namespaces and everything in them.
fn namespace_controller_rules() -> Vec<PolicyRule> {
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
    ]
}

/// `system:controller:node-controller`: Nodes' health and the eviction of their Pods.
fn node_controller_rules() -> Vec<PolicyRule> {
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
    ]
}

/// `system:controller:replicaset-controller`: ReplicaSets and their Pods.
fn replicaset_controller_rules() -> Vec<PolicyRule> {
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
    ]
}

/// `system:controller:resourcequota-controller`: ResourceQuotas' usage.
fn resourcequota_controller_rules() -> Vec<PolicyRule> {
    vec![
        rule(&["list", "watch"], &["*"], &["*"]),
        rule(&["update"], &[""], &["resourcequotas/status"]),
        events_rule(),
    ]
}
