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
        "services" | "service" | "svc" => Kind::Service,
        "endpointslices" | "endpointslice" => Kind::EndpointSlice,
        "endpoints" | "ep" => Kind::Endpoints,
        "roles" | "role" => Kind::Role,
        "clusterroles" | "clusterrole" => Kind::ClusterRole,
        "rolebindings" | "rolebinding" => Kind::RoleBinding,
        "clusterrolebindings" | "clusterrolebinding" => Kind::ClusterRoleBinding,
        "resourcequotas" | "resourcequota" | "quota" => Kind::ResourceQuota,
        "limitranges" | "limitrange" | "limits" => Kind::LimitRange,
        "jobs" | "job" => Kind::Job,
        "cronjobs" | "cronjob" | "cj" => Kind::CronJob,
        "daemonsets" | "daemonset" | "ds" => Kind::DaemonSet,
        "statefulsets" | "statefulset" | "sts" => Kind::StatefulSet,
        "controllerrevisions" | "controllerrevision" => Kind::ControllerRevision,
        "persistentvolumeclaims" | "persistentvolumeclaim" | "pvc" => Kind::PersistentVolumeClaim,
        "persistentvolumes" | "persistentvolume" | "pv" => Kind::PersistentVolume,
        "storageclasses" | "storageclass" | "sc" => Kind::StorageClass,
        "configmaps" | "configmap" | "cm" => Kind::ConfigMap,
        "secrets" | "secret" => Kind::Secret,
        "horizontalpodautoscalers" | "horizontalpodautoscaler" | "hpa" => {
            Kind::HorizontalPodAutoscaler
        }
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

/// `labels.FormatLabels`: `k=v` pairs sorted as whole strings (so `a-b=1` comes
/// before `a=1`), or `<none>`.
fn labels_col(m: &StringMap) -> String {
    if m.is_empty() {
        "<none>".into()
    } else {
        let mut pairs: Vec<String> = m.iter().map(|(k, v)| format!("{k}={v}")).collect();
        pairs.sort();
        pairs.join(",")
    }
}

/// The column headers of `kind`'s table with these options.
pub fn headers(kind: Kind, o: &TableOptions) -> Vec<String> {
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
        Kind::Service => vec![
            "NAME",
            "TYPE",
            "CLUSTER-IP",
            "EXTERNAL-IP",
            "PORT(S)",
            "AGE",
        ],
        Kind::EndpointSlice => vec!["NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"],
        Kind::Endpoints => vec!["NAME", "ENDPOINTS", "AGE"],
        // The API server's default table (`rest.NewDefaultTableConvertor`): the
        // creation time as RFC 3339, not an age.
        Kind::Role | Kind::ClusterRole => vec!["NAME", "CREATED AT"],
        // `printLimitRange`: the creation time as RFC 3339 too.
        Kind::LimitRange => vec!["NAME", "CREATED AT"],
        Kind::RoleBinding | Kind::ClusterRoleBinding => vec!["NAME", "ROLE", "AGE"],
        // v1.33 order (REQUEST and LIMIT before AGE).
        Kind::ResourceQuota => vec!["NAME", "REQUEST", "LIMIT", "AGE"],
        Kind::Job => vec!["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"],
        Kind::DaemonSet => vec![
            "NAME",
            "DESIRED",
            "CURRENT",
            "READY",
            "UP-TO-DATE",
            "AVAILABLE",
            "NODE SELECTOR",
            "AGE",
        ],
        Kind::StatefulSet => vec!["NAME", "READY", "AGE"],
        Kind::ControllerRevision => vec!["NAME", "CONTROLLER", "REVISION", "AGE"],
        Kind::PersistentVolumeClaim => vec![
            "NAME",
            "STATUS",
            "VOLUME",
            "CAPACITY",
            "ACCESS MODES",
            "STORAGECLASS",
            "VOLUMEATTRIBUTESCLASS",
            "AGE",
        ],
        Kind::PersistentVolume => vec![
            "NAME",
            "CAPACITY",
            "ACCESS MODES",
            "RECLAIM POLICY",
            "STATUS",
            "CLAIM",
            "STORAGECLASS",
            "VOLUMEATTRIBUTESCLASS",
            "REASON",
            "AGE",
        ],
        Kind::StorageClass => vec![
            "NAME",
            "PROVISIONER",
            "RECLAIMPOLICY",
            "VOLUMEBINDINGMODE",
            "ALLOWVOLUMEEXPANSION",
            "AGE",
        ],
        Kind::ConfigMap => vec!["NAME", "DATA", "AGE"],
        Kind::Secret => vec!["NAME", "TYPE", "DATA", "AGE"],
        Kind::HorizontalPodAutoscaler => vec![
            "NAME",
            "REFERENCE",
            "TARGETS",
            "MINPODS",
            "MAXPODS",
            "REPLICAS",
            "AGE",
        ],
        Kind::CronJob => vec![
            "NAME",
            "SCHEDULE",
            "TIMEZONE",
            "SUSPEND",
            "ACTIVE",
            "LAST SCHEDULE",
            "AGE",
        ],
    }
    .into_iter()
    .map(String::from)
    .collect();
    if o.wide {
        h.extend(
            match kind {
                Kind::Pod => vec!["IP", "NODE", "NOMINATED NODE", "READINESS GATES"],
                Kind::StatefulSet => vec!["CONTAINERS", "IMAGES"],
                Kind::PersistentVolumeClaim | Kind::PersistentVolume => vec!["VOLUMEMODE"],
                Kind::Deployment
                | Kind::ReplicaSet
                | Kind::Job
                | Kind::CronJob
                | Kind::DaemonSet => {
                    vec!["CONTAINERS", "IMAGES", "SELECTOR"]
                }
                Kind::Service => vec!["SELECTOR"],
                Kind::RoleBinding | Kind::ClusterRoleBinding => {
                    vec!["USERS", "GROUPS", "SERVICEACCOUNTS"]
                }
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

/// `printRoleBinding` / `printClusterRoleBinding`: `Kind/name` of the role, and with
/// `-o wide` the subjects by kind (`rbac.SubjectsStrings`), service accounts as
/// `namespace/name`.
fn print_binding(
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
        Object::Service(svc) => print_service(name, svc, o, now),
        Object::EndpointSlice(s) => vec![
            name,
            s.address_type.clone(),
            format_discovery_ports(s.ports.as_deref().unwrap_or_default()),
            format_discovery_endpoints(s.endpoints.as_deref().unwrap_or_default()),
            age(m.created_ms, now),
        ],
        Object::Endpoints(e) => vec![name, format_endpoints(e), age(m.created_ms, now)],
        Object::Role(_) | Object::ClusterRole(_) | Object::LimitRange(_) => {
            vec![name, m.creation_timestamp.clone()]
        }
        Object::RoleBinding(b) => print_binding(name, &b.role_ref, &b.subjects, o, m, now),
        Object::ClusterRoleBinding(b) => print_binding(name, &b.role_ref, &b.subjects, o, m, now),
        Object::ResourceQuota(q) => {
            let (req, lim) = crate::apiserver::quota::quota_cells(q);
            vec![name, req, lim, age(m.created_ms, now)]
        }
        Object::Job(j) => print_job(name, j, o, now),
        Object::CronJob(cj) => print_cron_job(name, cj, o, now),
        Object::DaemonSet(ds) => {
            let st = &ds.status;
            let sel = labels_col_or_none(&ds.spec.template.spec.node_selector);
            let mut r = vec![
                name,
                st.desired_number_scheduled.to_string(),
                st.current_number_scheduled.to_string(),
                st.number_ready.to_string(),
                st.updated_number_scheduled.to_string(),
                st.number_available.to_string(),
                sel,
                age(ds.metadata.created_ms, now),
            ];
            if o.wide {
                let (c, i) = containers_images(&ds.spec.template.spec);
                r.extend([c, i, format_label_selector(Some(&ds.spec.selector))]);
            }
            r
        }
        Object::StatefulSet(ss) => {
            let mut r = vec![
                name,
                format!("{}/{}", ss.status.ready_replicas, ss.spec.replicas),
                age(m.created_ms, now),
            ];
            if o.wide {
                let (c, i) = containers_images(&ss.spec.template.spec);
                r.extend([c, i]);
            }
            r
        }
        Object::ControllerRevision(cr) => {
            // `formatResourceName` of the controller's GroupKind: `statefulset.apps/web`.
            let controller = m.controller_ref().map_or_else(
                || "<none>".to_string(),
                |r| {
                    let group = r.api_version.split_once('/').map(|(g, _)| g);
                    match group {
                        Some(g) => format!("{}.{g}/{}", r.kind.to_ascii_lowercase(), r.name),
                        None => format!("{}/{}", r.kind.to_ascii_lowercase(), r.name),
                    }
                },
            );
            vec![
                name,
                controller,
                cr.revision.to_string(),
                age(m.created_ms, now),
            ]
        }
        Object::PersistentVolumeClaim(c) => {
            let phase = if m.is_deleting() {
                "Terminating".to_string()
            } else {
                c.status.phase.clone()
            };
            let (capacity, modes) = if c.spec.volume_name.is_empty() {
                (String::new(), String::new())
            } else {
                (
                    c.status
                        .capacity
                        .get("storage")
                        .cloned()
                        .unwrap_or_default(),
                    access_modes_string(&c.status.access_modes),
                )
            };
            let mut r = vec![
                name,
                phase,
                c.spec.volume_name.clone(),
                capacity,
                modes,
                c.spec.storage_class_name.clone().unwrap_or_default(),
                "<unset>".into(),
                age(m.created_ms, now),
            ];
            if o.wide {
                r.push(
                    c.spec
                        .volume_mode
                        .clone()
                        .unwrap_or_else(|| "<unset>".into()),
                );
            }
            r
        }
        Object::PersistentVolume(v) => {
            let phase = if m.is_deleting() {
                "Terminating".to_string()
            } else {
                v.status.phase.clone()
            };
            let claim = v
                .spec
                .claim_ref
                .as_ref()
                .map(|c| format!("{}/{}", c.namespace, c.name))
                .unwrap_or_default();
            let mut r = vec![
                name,
                v.spec.capacity.get("storage").cloned().unwrap_or_default(),
                access_modes_string(&v.spec.access_modes),
                v.spec.persistent_volume_reclaim_policy.clone(),
                phase,
                claim,
                v.spec.storage_class_name.clone(),
                "<unset>".into(),
                String::new(),
                age(m.created_ms, now),
            ];
            if o.wide {
                r.push(
                    v.spec
                        .volume_mode
                        .clone()
                        .unwrap_or_else(|| "<unset>".into()),
                );
            }
            r
        }
        Object::StorageClass(sc) => {
            let shown = if sc.is_default() {
                format!("{name} (default)")
            } else {
                name
            };
            vec![
                shown,
                sc.provisioner.clone(),
                or_default(&sc.reclaim_policy, "Delete"),
                or_default(&sc.volume_binding_mode, "Immediate"),
                sc.allow_volume_expansion.unwrap_or(false).to_string(),
                age(m.created_ms, now),
            ]
        }
        Object::ConfigMap(cm) => vec![
            name,
            (cm.data.len() + cm.binary_data.len()).to_string(),
            age(m.created_ms, now),
        ],
        Object::Secret(sec) => vec![
            name,
            sec.type_.clone(),
            sec.data.len().to_string(),
            age(m.created_ms, now),
        ],
        Object::HorizontalPodAutoscaler(h) => vec![
            name,
            format!(
                "{}/{}",
                h.spec.scale_target_ref.kind, h.spec.scale_target_ref.name
            ),
            format_hpa_metrics(h),
            h.spec
                .min_replicas
                .map_or_else(|| "<unset>".to_string(), |m| m.to_string()),
            h.spec.max_replicas.to_string(),
            h.status.current_replicas.to_string(),
            age(m.created_ms, now),
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

/// `formatHPAMetrics`: `cpu: 80%/50%` per Resource metric (`<unknown>` before the
/// first reading), two at most, then ` + N more...`.
pub fn format_hpa_metrics(h: &HorizontalPodAutoscaler) -> String {
    let specs = &h.spec.metrics;
    if specs.is_empty() {
        return "<none>".into();
    }
    let statuses = &h.status.current_metrics;
    let list: Vec<String> = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let status = statuses.get(i).and_then(|s| s.resource.as_ref());
            match (&spec.type_[..], &spec.resource) {
                ("Resource", Some(r)) => match &r.target.average_value {
                    Some(target) => format!(
                        "{}: {}/{target}",
                        r.name,
                        status
                            .and_then(|s| s.current.average_value.clone())
                            .unwrap_or_else(|| "<unknown>".into())
                    ),
                    None => format!(
                        "{}: {}/{}",
                        r.name,
                        status
                            .and_then(|s| s.current.average_utilization)
                            .map_or_else(|| "<unknown>".to_string(), |u| format!("{u}%")),
                        r.target
                            .average_utilization
                            .map_or_else(|| "<auto>".to_string(), |u| format!("{u}%"))
                    ),
                },
                _ => "<unknown type>".into(),
            }
        })
        .collect();
    if list.len() > 2 {
        format!("{} + {} more...", list[..2].join(", "), list.len() - 2)
    } else {
        list.join(", ")
    }
}

/// `GetAccessModesAsString`: RWO, ROX, RWX, RWOP in that order, comma-joined.
pub fn access_modes_string(modes: &[String]) -> String {
    [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ]
    .iter()
    .filter(|(m, _)| modes.iter().any(|x| x == m))
    .map(|(_, short)| *short)
    .collect::<Vec<_>>()
    .join(",")
}

fn or_default(v: &str, d: &str) -> String {
    if v.is_empty() {
        d.into()
    } else {
        v.into()
    }
}

/// `printService`.
fn print_service(name: String, svc: &Service, o: &TableOptions, now: SimTime) -> Vec<String> {
    let internal_ip = svc
        .spec
        .cluster_ips
        .first()
        .cloned()
        .unwrap_or_else(|| "<none>".into());
    let ports = make_port_string(&svc.spec.ports);
    let mut r = vec![
        name,
        svc.spec.type_.clone(),
        internal_ip,
        service_external_ip(svc),
        if ports.is_empty() {
            "<none>".into()
        } else {
            ports
        },
        age(svc.metadata.created_ms, now),
    ];
    if o.wide {
        r.push(labels_col(
            svc.spec.selector.as_ref().unwrap_or(&StringMap::new()),
        ));
    }
    r
}

/// `makePortString`: `port/protocol`, or `port:nodePort/protocol`, comma-joined.
pub fn make_port_string(ports: &[ServicePort]) -> String {
    ports
        .iter()
        .map(|p| {
            if p.node_port > 0 {
                format!("{}:{}/{}", p.port, p.node_port, p.protocol)
            } else {
                format!("{}/{}", p.port, p.protocol)
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// `getServiceExternalIP` (no cloud: a LoadBalancer stays `<pending>`).
fn service_external_ip(svc: &Service) -> String {
    let external = svc.spec.external_ips.join(",");
    match svc.spec.type_.as_str() {
        "ClusterIP" | "NodePort" | "LoadBalancer" if !external.is_empty() => external,
        "ClusterIP" | "NodePort" => "<none>".into(),
        "LoadBalancer" => "<pending>".into(),
        "ExternalName" => svc
            .spec
            .extra
            .get("externalName")
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string(),
        _ => "<unknown>".into(),
    }
}

/// `listWithMoreString`: up to three items, then ` + N more...`; `<unset>` for none.
fn list_with_more(list: &[String], count: usize) -> String {
    const MAX: usize = 3;
    let shown = list.iter().take(MAX).cloned().collect::<Vec<_>>().join(",");
    if count > MAX {
        format!("{shown} + {} more...", count - MAX)
    } else if shown.is_empty() {
        "<unset>".into()
    } else {
        shown
    }
}

/// `formatDiscoveryPorts`: each port's number, else its name, else `*`.
pub fn format_discovery_ports(ports: &[EndpointPort]) -> String {
    let list: Vec<String> = ports
        .iter()
        .map(|p| match (&p.port, &p.name) {
            (Some(n), _) => n.to_string(),
            (None, Some(name)) => name.clone(),
            (None, None) => "*".into(),
        })
        .collect();
    list_with_more(&list, list.len())
}

/// `formatDiscoveryEndpoints`: every address, ready or not.
pub fn format_discovery_endpoints(endpoints: &[Endpoint]) -> String {
    let list: Vec<String> = endpoints
        .iter()
        .flat_map(|e| e.addresses.iter().cloned())
        .collect();
    list_with_more(&list, list.len())
}

/// `formatEndpoints`: the ready addresses (not-ready ones are neither shown nor
/// counted) as `ip:port` per port, port-major, bare IPs for a subset without ports;
/// three at most, then ` + N more...`; `<none>` without subsets, an empty cell when
/// only not-ready addresses exist.
pub fn format_endpoints(e: &Endpoints) -> String {
    if e.subsets.is_empty() {
        return "<none>".into();
    }
    const MAX: usize = 3;
    let (mut list, mut count, mut more) = (Vec::<String>::new(), 0, false);
    for ss in &e.subsets {
        if ss.ports.is_empty() {
            count += ss.addresses.len();
            for a in &ss.addresses {
                if list.len() == MAX {
                    more = true;
                    break;
                }
                list.push(a.ip.clone());
            }
            continue;
        }
        for port in &ss.ports {
            count += ss.addresses.len();
            for a in &ss.addresses {
                if list.len() == MAX {
                    more = true;
                    break;
                }
                // net.JoinHostPort: an IPv6 address in brackets.
                list.push(if a.ip.contains(':') {
                    format!("[{}]:{}", a.ip, port.port)
                } else {
                    format!("{}:{}", a.ip, port.port)
                });
            }
        }
    }
    let ret = list.join(",");
    if more {
        format!("{ret} + {} more...", count - MAX)
    } else {
        ret
    }
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

/// `labels.FormatLabels` of a node selector: `k=v,…` in key order, `<none>` if empty.
fn labels_col_or_none(m: &StringMap) -> String {
    let parts: Vec<String> = m.iter().map(|(k, v)| format!("{k}={v}")).collect();
    or_none(&parts.join(","))
}

/// `metav1.FormatLabelSelector`: `<none>` for no selector.
fn format_label_selector(sel: Option<&LabelSelector>) -> String {
    or_none(&sel.map(|s| s.to_selector_string()).unwrap_or_default())
}

/// `printJob`: STATUS from the conditions (a finished condition first, then
/// Terminating, Suspended and the interim FailureTarget; v1.33 has no
/// SuccessCriteriaMet status, so a succeeding Job reads Running until Complete),
/// COMPLETIONS as `succeeded/completions` (`n/1 of p` for a work queue with
/// parallelism above 1), DURATION from `startTime` to `completionTime` or now.
fn print_job(name: String, j: &Job, o: &TableOptions, now: SimTime) -> Vec<String> {
    let s = &j.status;
    let completions = match j.spec.completions {
        Some(c) => format!("{}/{c}", s.succeeded),
        None => match j.spec.parallelism.unwrap_or(0) {
            p if p > 1 => format!("{}/1 of {p}", s.succeeded),
            _ => format!("{}/1", s.succeeded),
        },
    };
    let duration = match (s.start_ms, s.completion_ms) {
        (None, _) => String::new(),
        (Some(start), None) => age(start, now),
        (Some(start), Some(end)) => age(start, end),
    };
    let has = |t: &str| j.condition_true(t).is_some();
    let status = if has("Complete") {
        "Complete"
    } else if has("Failed") {
        "Failed"
    } else if j.metadata.is_deleting() {
        "Terminating"
    } else if has("Suspended") {
        "Suspended"
    } else if has("FailureTarget") {
        "FailureTarget"
    } else {
        "Running"
    };
    let mut r = vec![
        name,
        status.into(),
        completions,
        duration,
        age(j.metadata.created_ms, now),
    ];
    if o.wide {
        let (c, i) = containers_images(&j.spec.template.spec);
        r.extend([c, i, format_label_selector(j.spec.selector.as_ref())]);
    }
    r
}

/// `printCronJob`: `printBoolPtr` for SUSPEND (`<unset>` when nil).
fn print_cron_job(name: String, cj: &CronJob, o: &TableOptions, now: SimTime) -> Vec<String> {
    let spec = &cj.spec;
    let last = cj
        .status
        .last_schedule_time
        .as_deref()
        .and_then(crate::time::parse_rfc3339)
        .map(|t| age(t, now))
        .unwrap_or_else(|| "<none>".into());
    let suspend = match spec.suspend {
        None => "<unset>".to_string(),
        Some(true) => "True".into(),
        Some(false) => "False".into(),
    };
    let mut r = vec![
        name,
        spec.schedule.clone(),
        spec.time_zone.clone().unwrap_or_else(|| "<none>".into()),
        suspend,
        cj.status.active.len().to_string(),
        last,
        age(cj.metadata.created_ms, now),
    ];
    if o.wide {
        let (c, i) = containers_images(&spec.job_template.spec.template.spec);
        r.extend([
            c,
            i,
            format_label_selector(spec.job_template.spec.selector.as_ref()),
        ]);
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
    table_of(kind, objs, o, now, true)
}

/// The table without its header (`--no-headers`): the columns are as wide as the
/// rows alone need, since the header never reaches the tabwriter.
pub fn table_rows(kind: Kind, objs: &[&Object], o: &TableOptions, now: SimTime) -> String {
    table_of(kind, objs, o, now, false)
}

fn table_of(kind: Kind, objs: &[&Object], o: &TableOptions, now: SimTime, header: bool) -> String {
    let mut rows = if header {
        vec![headers(kind, o)]
    } else {
        Vec::new()
    };
    rows.extend(objs.iter().map(|obj| row(obj, o, now)));
    // Through the tabwriter, which pads every cell but the last of a line: an empty
    // last cell (a `-L` label the object lacks) leaves the padding before it.
    let text: String = rows.iter().map(|r| r.join("\t") + "\n").collect();
    crate::tabwriter::format(&text, 6, 3)
}
