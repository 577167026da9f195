//! The tables of cluster objects: Nodes, Events, Leases, Namespaces, disruption budgets,
//! priority classes, quotas and limit ranges, RBAC roles and bindings.

use super::super::{age, node_status};
use super::cells::*;
use crate::api::*;
use crate::time::SimTime;

/// Node's columns.
pub(super) const NODE: Columns = Columns {
    names: &["NAME", "STATUS", "ROLES", "AGE", "VERSION"],
    wide: &[
        "INTERNAL-IP",
        "EXTERNAL-IP",
        "OS-IMAGE",
        "KERNEL-VERSION",
        "CONTAINER-RUNTIME",
    ],
};

/// Event's columns.
pub(super) const EVENT: Columns = Columns {
    names: &["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"],
    wide: &[],
};

/// Lease's columns.
pub(super) const LEASE: Columns = Columns {
    names: &["NAME", "HOLDER", "AGE"],
    wide: &[],
};

/// Namespace's columns.
pub(super) const NAMESPACE: Columns = Columns {
    names: &["NAME", "STATUS", "AGE"],
    wide: &[],
};

/// PodDisruptionBudget's columns.
pub(super) const POD_DISRUPTION_BUDGET: Columns = Columns {
    names: &[
        "NAME",
        "MIN AVAILABLE",
        "MAX UNAVAILABLE",
        "ALLOWED DISRUPTIONS",
        "AGE",
    ],
    wide: &[],
};

/// PriorityClass's columns.
pub(super) const PRIORITY_CLASS: Columns = Columns {
    names: &["NAME", "VALUE", "GLOBAL-DEFAULT", "AGE", "PREEMPTIONPOLICY"],
    wide: &[],
};

// The API server's default table (`rest.NewDefaultTableConvertor`): the
// creation time as RFC 3339, not an age.
/// Role's columns.
pub(super) const ROLE: Columns = Columns {
    names: &["NAME", "CREATED AT"],
    wide: &[],
};

// The API server's default table (`rest.NewDefaultTableConvertor`): the
// creation time as RFC 3339, not an age.
/// ClusterRole's columns.
pub(super) const CLUSTER_ROLE: Columns = Columns {
    names: &["NAME", "CREATED AT"],
    wide: &[],
};

// `printLimitRange`: the creation time as RFC 3339 too.
/// LimitRange's columns.
pub(super) const LIMIT_RANGE: Columns = Columns {
    names: &["NAME", "CREATED AT"],
    wide: &[],
};

/// RoleBinding's columns.
pub(super) const ROLE_BINDING: Columns = Columns {
    names: &["NAME", "ROLE", "AGE"],
    wide: &["USERS", "GROUPS", "SERVICEACCOUNTS"],
};

/// ClusterRoleBinding's columns.
pub(super) const CLUSTER_ROLE_BINDING: Columns = Columns {
    names: &["NAME", "ROLE", "AGE"],
    wide: &["USERS", "GROUPS", "SERVICEACCOUNTS"],
};

// v1.33 order (REQUEST and LIMIT before AGE).
/// ResourceQuota's columns.
pub(super) const RESOURCE_QUOTA: Columns = Columns {
    names: &["NAME", "REQUEST", "LIMIT", "AGE"],
    wide: &[],
};

/// `printNode`.
pub(super) fn print_node(name: String, n: &Node, o: &TableOptions, now: SimTime) -> Vec<String> {
    let m = &n.metadata;

    let mut roles: Vec<&str> = m
        .labels
        .keys()
        .filter_map(|k| k.strip_prefix("node-role.kubernetes.io/"))
        .filter(|r| !r.is_empty())
        .collect();
    crate::sorting::sort(&mut roles);
    let mut r = vec![
        name,
        node_status(n),
        if roles.is_empty() {
            "<none>".into()
        } else {
            roles.join(",")
        },
        age(m.created_ms, now),
        n.status.node_info.kubelet_version.clone(),
    ];
    if o.wide {
        let ip = n
            .status
            .addresses
            .iter()
            .find(|a| a.type_ == "InternalIP")
            .map(|a| a.address.clone());
        r.extend([
            ip.unwrap_or_else(|| "<none>".into()),
            "<none>".into(),
            // printNode: an empty OS image or kernel version reads `<unknown>`.
            or_unknown(&n.status.node_info.os_image),
            or_unknown(&n.status.node_info.kernel_version),
            or_none(&n.status.node_info.container_runtime_version),
        ]);
    }
    r
}

/// `printEvent`: last seen, type, reason, object, message.
pub(super) fn print_event(e: &Event, now: SimTime) -> Vec<String> {
    vec![
        age(e.last_ms, now),
        e.type_.clone(),
        e.reason.clone(),
        format!(
            "{}/{}",
            e.involved_object.kind.to_ascii_lowercase(),
            e.involved_object.name
        ),
        e.message.clone(),
    ]
}

/// `printLease`: the holder.
pub(super) fn print_lease(name: String, l: &Lease, now: SimTime) -> Vec<String> {
    let m = &l.metadata;
    vec![
        name,
        or_none(&l.spec.holder_identity),
        age(m.created_ms, now),
    ]
}

/// `printNamespace`: the phase.
pub(super) fn print_namespace(name: String, n: &Namespace, now: SimTime) -> Vec<String> {
    let m = &n.metadata;
    vec![name, n.status.phase.clone(), age(m.created_ms, now)]
}

/// `printPodDisruptionBudget`: minAvailable, maxUnavailable (`N/A` when unset), the
/// disruptions allowed.
pub(super) fn print_pod_disruption_budget(
    name: String,
    p: &PodDisruptionBudget,
    now: SimTime,
) -> Vec<String> {
    let m = &p.metadata;
    let na = |v: &Option<IntOrString>| {
        v.as_ref()
            .map(|x| x.to_string())
            .unwrap_or_else(|| "N/A".into())
    };
    vec![
        name,
        na(&p.spec.min_available),
        na(&p.spec.max_unavailable),
        p.status.disruptions_allowed.to_string(),
        age(m.created_ms, now),
    ]
}

/// `printPriorityClass`: the value, global default, preemption policy.
pub(super) fn print_priority_class(name: String, pc: &PriorityClass, now: SimTime) -> Vec<String> {
    let m = &pc.metadata;
    vec![
        name,
        pc.value.to_string(),
        pc.global_default.to_string(),
        age(m.created_ms, now),
        if pc.preemption_policy.is_empty() {
            "PreemptLowerPriority".into()
        } else {
            pc.preemption_policy.clone()
        },
    ]
}

/// `printResourceQuota`: the requests and limits used of the hard ones.
pub(super) fn print_resource_quota(name: String, q: &ResourceQuota, now: SimTime) -> Vec<String> {
    let m = &q.metadata;
    let (req, lim) = crate::apiserver::quota::quota_cells(q);
    vec![name, req, lim, age(m.created_ms, now)]
}

/// `printRoleBinding` / `printClusterRoleBinding`: `Kind/name` of the role, and with
/// `-o wide` the subjects by kind (`rbac.SubjectsStrings`), service accounts as
/// `namespace/name`.
pub(super) fn print_binding(
    name: String,
    role: &RoleRef,
    subjects: &[Subject],
    o: &TableOptions,
    m: &ObjectMeta,
    now: SimTime,
) -> Vec<String> {
    let mut r = vec![
        name,
        format!("{}/{}", role.kind, role.name),
        age(m.created_ms, now),
    ];
    if o.wide {
        let of = |kind: &str| {
            subjects
                .iter()
                .filter(|s| s.kind == kind)
                .map(|s| {
                    if kind == "ServiceAccount" {
                        format!("{}/{}", s.namespace, s.name)
                    } else {
                        s.name.clone()
                    }
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        r.extend([of("User"), of("Group"), of("ServiceAccount")]);
    }
    r
}

/// `s`, or `<unknown>` when empty.
fn or_unknown(s: &str) -> String {
    if s.is_empty() {
        "<unknown>".into()
    } else {
        s.to_string()
    }
}
