//! `kubectl get` tables per kind (`pkg/printers/internalversion/printers.go`).

use super::{age, node_status, pod_ready_status};
use crate::api::*;
use crate::time::SimTime;

/// Resolve a resource name as kubectl does (plural, singular, short name, with group).
pub fn resolve_kind(s: &str) -> Option<Kind> {
    let s = s.to_ascii_lowercase();
    let base = s.split('.').next().unwrap_or("");
    let group = s.split_once('.').map(|(_, g)| g);
    let kind = match base {
        "pods" | "pod" | "po" => Kind::Pod,
        "deployments" | "deployment" | "deploy" => Kind::Deployment,
        "replicasets" | "replicaset" | "rs" => Kind::ReplicaSet,
        "nodes" | "node" | "no" => Kind::Node,
        "events" | "event" | "ev" => Kind::Event,
        "leases" | "lease" => Kind::Lease,
        "namespaces" | "namespace" | "ns" => Kind::Namespace,
        "poddisruptionbudgets" | "poddisruptionbudget" | "pdb" => Kind::PodDisruptionBudget,
        "priorityclasses" | "priorityclass" | "pc" => Kind::PriorityClass,
        _ => return None,
    };
    match group {
        None => Some(kind),
        Some(g) => {
            let want = kind
                .api_version()
                .split_once('/')
                .map(|(g, _)| g)
                .unwrap_or("");
            (g == want || (want.is_empty() && g == "v1")).then_some(kind)
        }
    }
}

/// `-o name` prefix: `pod`, `deployment.apps`, `lease.coordination.k8s.io`.
pub fn name_prefix(kind: Kind) -> String {
    let singular = kind.name().to_ascii_lowercase();
    match kind.api_version().split_once('/') {
        Some((g, _)) => format!("{singular}.{g}"),
        None => singular,
    }
}

/// Options that change the columns.
#[derive(Clone, Debug, Default)]
pub struct TableOptions {
    /// `-o wide`.
    pub wide: bool,
    /// `--show-labels`.
    pub show_labels: bool,
    /// `-A`: NAMESPACE first.
    pub with_namespace: bool,
    /// Several kinds in one `get`: names carry their kind (`pod/web-…`).
    pub with_kind: bool,
    /// `-L KEY`: a column per label key, headed by the key's last `/` part in
    /// capitals, after the kind's columns and before LABELS.
    pub label_columns: Vec<String>,
}

fn labels_col(m: &StringMap) -> String {
    if m.is_empty() {
        "<none>".into()
    } else {
        m.iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join(",")
    }
}

fn headers(kind: Kind, o: &TableOptions) -> Vec<String> {
    let mut h: Vec<String> = match kind {
        Kind::Pod => vec!["NAME", "READY", "STATUS", "RESTARTS", "AGE"],
        Kind::Deployment => vec!["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"],
        Kind::ReplicaSet => vec!["NAME", "DESIRED", "CURRENT", "READY", "AGE"],
        Kind::Node => vec!["NAME", "STATUS", "ROLES", "AGE", "VERSION"],
        Kind::Event => vec!["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"],
        Kind::Lease => vec!["NAME", "HOLDER", "AGE"],
        Kind::Namespace => vec!["NAME", "STATUS", "AGE"],
        Kind::PodDisruptionBudget => vec![
            "NAME",
            "MIN AVAILABLE",
            "MAX UNAVAILABLE",
            "ALLOWED DISRUPTIONS",
            "AGE",
        ],
        Kind::PriorityClass => vec!["NAME", "VALUE", "GLOBAL-DEFAULT", "AGE", "PREEMPTIONPOLICY"],
    }
    .into_iter()
    .map(String::from)
    .collect();
    if o.wide {
        h.extend(
            match kind {
                Kind::Pod => vec!["IP", "NODE", "NOMINATED NODE", "READINESS GATES"],
                Kind::Deployment | Kind::ReplicaSet => vec!["CONTAINERS", "IMAGES", "SELECTOR"],
                Kind::Node => vec![
                    "INTERNAL-IP",
                    "EXTERNAL-IP",
                    "OS-IMAGE",
                    "KERNEL-VERSION",
                    "CONTAINER-RUNTIME",
                ],
                _ => vec![],
            }
            .into_iter()
            .map(String::from),
        );
    }
    h.extend(o.label_columns.iter().map(|l| {
        // formatLabelHeaders: the part after the last `/`, upper-cased.
        l.rsplit('/').next().unwrap_or("").to_uppercase()
    }));
    if o.show_labels {
        h.push("LABELS".into());
    }
    if o.with_namespace && kind.namespaced() {
        h.insert(0, "NAMESPACE".into());
    }
    h
}

fn containers_images(spec: &PodSpec) -> (String, String) {
    let names: Vec<&str> = spec.containers.iter().map(|c| c.name.as_str()).collect();
    let images: Vec<&str> = spec.containers.iter().map(|c| c.image.as_str()).collect();
    (names.join(","), images.join(","))
}

/// `RESTARTS`: the count, with `(<age> ago)` of the last restart when there was one.
fn restarts_col(p: &Pod, now: SimTime) -> String {
    let (restarts, last) = super::pod_restarts(p);
    match last {
        Some(t) if restarts > 0 => format!("{restarts} ({} ago)", age(t, now)),
        _ => restarts.to_string(),
    }
}

fn or_none(s: &str) -> String {
    if s.is_empty() {
        "<none>".into()
    } else {
        s.to_string()
    }
}

/// One table row for `obj`.
pub fn row(obj: &Object, o: &TableOptions, now: SimTime) -> Vec<String> {
    let m = obj.meta();
    let name = if o.with_kind {
        format!("{}/{}", name_prefix(obj.kind()), m.name)
    } else {
        m.name.clone()
    };
    let mut r: Vec<String> = match obj {
        Object::Pod(p) => print_pod(name, p, o, now),
        Object::Deployment(d) => print_deployment(name, d, o, now),
        Object::ReplicaSet(rs) => print_replica_set(name, rs, o, now),
        Object::Node(n) => print_node(name, n, o, now),
        Object::Event(e) => vec![
            age(e.last_ms, now),
            e.type_.clone(),
            e.reason.clone(),
            format!(
                "{}/{}",
                e.involved_object.kind.to_ascii_lowercase(),
                e.involved_object.name
            ),
            e.message.clone(),
        ],
        Object::Lease(l) => vec![
            name,
            or_none(&l.spec.holder_identity),
            age(m.created_ms, now),
        ],
        Object::Namespace(n) => vec![name, n.status.phase.clone(), age(m.created_ms, now)],
        Object::PodDisruptionBudget(p) => {
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
        Object::PriorityClass(pc) => vec![
            name,
            pc.value.to_string(),
            pc.global_default.to_string(),
            age(m.created_ms, now),
            if pc.preemption_policy.is_empty() {
                "PreemptLowerPriority".into()
            } else {
                pc.preemption_policy.clone()
            },
        ],
    };
    // A label the object lacks is an empty cell.
    r.extend(
        o.label_columns
            .iter()
            .map(|l| m.labels.get(l).cloned().unwrap_or_default()),
    );
    if o.show_labels {
        r.push(labels_col(&m.labels));
    }
    if o.with_namespace && obj.kind().namespaced() {
        r.insert(0, m.namespace.clone());
    }
    r
}

/// `printPod`.
fn print_pod(name: String, p: &Pod, o: &TableOptions, now: SimTime) -> Vec<String> {
    let m = &p.metadata;

    let (ready, status, _) = pod_ready_status(p);
    let mut r = vec![
        name,
        ready,
        status,
        restarts_col(p, now),
        age(m.created_ms, now),
    ];
    if o.wide {
        r.push(or_none(&p.status.pod_ip));
        r.push(or_none(&p.spec.node_name));
        r.push(or_none(&p.status.nominated_node_name));
        r.push("<none>".into());
    }
    r
}

/// `printDeployment`.
fn print_deployment(name: String, d: &Deployment, o: &TableOptions, now: SimTime) -> Vec<String> {
    let m = &d.metadata;

    let mut r = vec![
        name,
        format!("{}/{}", d.status.ready_replicas, d.spec.replicas),
        d.status.updated_replicas.to_string(),
        d.status.available_replicas.to_string(),
        age(m.created_ms, now),
    ];
    if o.wide {
        let (c, i) = containers_images(&d.spec.template.spec);
        r.extend([c, i, d.spec.selector.to_selector_string()]);
    }
    r
}

/// `printReplicaSet`.
fn print_replica_set(name: String, rs: &ReplicaSet, o: &TableOptions, now: SimTime) -> Vec<String> {
    let m = &rs.metadata;

    let mut r = vec![
        name,
        rs.spec.replicas.to_string(),
        rs.status.replicas.to_string(),
        rs.status.ready_replicas.to_string(),
        age(m.created_ms, now),
    ];
    if o.wide {
        let (c, i) = containers_images(&rs.spec.template.spec);
        r.extend([c, i, rs.spec.selector.to_selector_string()]);
    }
    r
}

/// `printNode`.
fn print_node(name: String, n: &Node, o: &TableOptions, now: SimTime) -> Vec<String> {
    let m = &n.metadata;

    let mut roles: Vec<&str> = m
        .labels
        .keys()
        .filter_map(|k| k.strip_prefix("node-role.kubernetes.io/"))
        .filter(|r| !r.is_empty())
        .collect();
    roles.sort();
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
            "kubeplay (simulated)".into(),
            "<unknown>".into(),
            or_none(&n.status.node_info.container_runtime_version),
        ]);
    }
    r
}

/// The table for objects of one kind (header included).
pub fn table(kind: Kind, objs: &[&Object], o: &TableOptions, now: SimTime) -> String {
    let mut rows = vec![headers(kind, o)];
    rows.extend(objs.iter().map(|obj| row(obj, o, now)));
    // Through the tabwriter, which pads every cell but the last of a line: an empty
    // last cell (a `-L` label the object lacks) leaves the padding before it.
    let text: String = rows.iter().map(|r| r.join("\t") + "\n").collect();
    super::tabwriter::format(&text, 6, 3)
}
