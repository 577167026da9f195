//! `kubectl get` tables per kind (`pkg/printers/internalversion/printers.go`): each
//! kind's column definitions and print function, grouped by family — [`workloads`]
//! (Pods and what runs them), [`network`] (Services and their endpoints), [`cluster`]
//! (nodes, Events, Leases, Namespaces, budgets, priorities, quotas, RBAC) and
//! [`storage`] (volumes, claims, classes, ConfigMaps, Secrets); the cell formats they
//! share in [`cells`].

mod admission;
mod cells;
mod cluster;
pub mod custom;
mod network;
mod storage;
mod workloads;

pub use cells::TableOptions;
pub use network::ingress_load_balancer_status_stringer;
pub use storage::access_modes_string;
pub use workloads::format_hpa_metrics;

use crate::api::*;
use crate::time::SimTime;
use cells::labels_col;

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
        "serviceaccounts" | "serviceaccount" | "sa" => Kind::ServiceAccount,
        "horizontalpodautoscalers" | "horizontalpodautoscaler" | "hpa" => {
            Kind::HorizontalPodAutoscaler
        }
        "ingresses" | "ingress" | "ing" => Kind::Ingress,
        "ingressclasses" | "ingressclass" => Kind::IngressClass,
        "networkpolicies" | "networkpolicy" | "netpol" => Kind::NetworkPolicy,
        "servicecidrs" | "servicecidr" => Kind::ServiceCIDR,
        "ipaddresses" | "ipaddress" | "ip" => Kind::IPAddress,
        "customresourcedefinitions" | "customresourcedefinition" | "crd" | "crds" => {
            Kind::CustomResourceDefinition
        }
        "validatingadmissionpolicies" | "validatingadmissionpolicy" => {
            Kind::ValidatingAdmissionPolicy
        }
        "validatingadmissionpolicybindings" | "validatingadmissionpolicybinding" => {
            Kind::ValidatingAdmissionPolicyBinding
        }
        "validatingwebhookconfigurations" | "validatingwebhookconfiguration" => {
            Kind::ValidatingWebhookConfiguration
        }
        _ => return crate::api::discovered::resolve(&s),
    };
    let (want_group, want_version) = kind.api_version().split_once('/').unwrap_or(("", "v1"));
    match group {
        None => Some(kind),
        // `RESOURCE.VERSION.GROUP` (`deployments.v1.apps`), as ParseResourceArg tries
        // first; the console reads each kind in its own version.
        Some(g)
            if g.split_once('.').is_some_and(|(v, rest)| {
                v == want_version && rest == want_group && !want_group.is_empty()
            }) =>
        {
            Some(kind)
        }
        Some(g) if g == want_group || (want_group.is_empty() && g == "v1") => Some(kind),
        // Another group's resource of the same name (`services.serving.knative.dev`).
        Some(_) => crate::api::discovered::resolve(&s),
    }
}

/// A custom resource's columns, as the running command's discovery has them (its
/// storage version's `additionalPrinterColumns`, or the default Age column).
fn custom_columns(kind: Kind) -> Vec<CustomResourceColumnDefinition> {
    let c = crate::api::discovered::columns(kind);
    if c.is_empty() {
        crate::apiserver::custom::default_columns()
    } else {
        c
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

/// The column headers of `kind`'s table with these options.
pub fn headers(kind: Kind, o: &TableOptions) -> Vec<String> {
    let mut h = kind_headers(kind, o);
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

/// The kind's own columns (and `-o wide`'s).
fn kind_headers(kind: Kind, o: &TableOptions) -> Vec<String> {
    let columns = match kind {
        Kind::Custom(_) => return custom::headers(&custom_columns(kind), o.wide),
        Kind::CustomResourceDefinition => &cluster::ROLE,
        Kind::Pod => &workloads::POD,
        Kind::Deployment => &workloads::DEPLOYMENT,
        Kind::ReplicaSet => &workloads::REPLICA_SET,
        Kind::DaemonSet => &workloads::DAEMON_SET,
        Kind::StatefulSet => &workloads::STATEFUL_SET,
        Kind::ControllerRevision => &workloads::CONTROLLER_REVISION,
        Kind::Job => &workloads::JOB,
        Kind::CronJob => &workloads::CRON_JOB,
        Kind::HorizontalPodAutoscaler => &workloads::HORIZONTAL_POD_AUTOSCALER,
        Kind::Service => &network::SERVICE,
        Kind::EndpointSlice => &network::ENDPOINT_SLICE,
        Kind::Endpoints => &network::ENDPOINTS,
        Kind::Ingress => &network::INGRESS,
        Kind::IngressClass => &network::INGRESS_CLASS,
        Kind::ServiceCIDR => &network::SERVICE_CIDR,
        Kind::IPAddress => &network::IP_ADDRESS,
        Kind::NetworkPolicy => &network::NETWORK_POLICY,
        Kind::Node => &cluster::NODE,
        Kind::Event => &cluster::EVENT,
        Kind::Lease => &cluster::LEASE,
        Kind::Namespace => &cluster::NAMESPACE,
        Kind::PodDisruptionBudget => &cluster::POD_DISRUPTION_BUDGET,
        Kind::PriorityClass => &cluster::PRIORITY_CLASS,
        Kind::Role => &cluster::ROLE,
        Kind::ClusterRole => &cluster::CLUSTER_ROLE,
        Kind::LimitRange => &cluster::LIMIT_RANGE,
        Kind::RoleBinding => &cluster::ROLE_BINDING,
        Kind::ClusterRoleBinding => &cluster::CLUSTER_ROLE_BINDING,
        Kind::ResourceQuota => &cluster::RESOURCE_QUOTA,
        Kind::PersistentVolumeClaim => &storage::PERSISTENT_VOLUME_CLAIM,
        Kind::PersistentVolume => &storage::PERSISTENT_VOLUME,
        Kind::StorageClass => &storage::STORAGE_CLASS,
        Kind::ConfigMap => &storage::CONFIG_MAP,
        Kind::Secret => &storage::SECRET,
        Kind::ServiceAccount => &storage::SERVICE_ACCOUNT,
        Kind::ValidatingAdmissionPolicy => &admission::VALIDATING_ADMISSION_POLICY,
        Kind::ValidatingAdmissionPolicyBinding => &admission::VALIDATING_ADMISSION_POLICY_BINDING,
        Kind::ValidatingWebhookConfiguration => &admission::VALIDATING_WEBHOOK_CONFIGURATION,
    };
    let mut h: Vec<String> = columns.names.iter().copied().map(String::from).collect();
    if o.wide {
        h.extend(columns.wide.iter().copied().map(String::from));
    }
    h
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
        Object::Pod(p) => workloads::print_pod(name, p, o, now),
        Object::Deployment(d) => workloads::print_deployment(name, d, o, now),
        Object::ReplicaSet(rs) => workloads::print_replica_set(name, rs, o, now),
        Object::Node(n) => cluster::print_node(name, n, o, now),
        Object::Event(e) => cluster::print_event(e, now),
        Object::Lease(l) => cluster::print_lease(name, l, now),
        Object::Namespace(n) => cluster::print_namespace(name, n, now),
        Object::PodDisruptionBudget(p) => cluster::print_pod_disruption_budget(name, p, now),
        Object::PriorityClass(pc) => cluster::print_priority_class(name, pc, now),
        Object::Service(svc) => network::print_service(name, svc, o, now),
        Object::EndpointSlice(s) => network::print_endpoint_slice(name, s, now),
        Object::Endpoints(e) => network::print_endpoints(name, e, now),
        Object::Ingress(i) => network::print_ingress(name, i, o, now),
        Object::IngressClass(ic) => network::print_ingress_class(name, ic, now),
        Object::ServiceCIDR(sc) => network::print_service_cidr(name, sc, now),
        Object::IPAddress(ip) => network::print_ip_address(name, ip),
        Object::NetworkPolicy(np) => network::print_network_policy(name, np, now),
        Object::ValidatingAdmissionPolicy(p) => {
            admission::print_validating_admission_policy(name, p, now)
        }
        Object::ValidatingAdmissionPolicyBinding(b) => {
            admission::print_validating_admission_policy_binding(name, b, now)
        }
        Object::ValidatingWebhookConfiguration(w) => vec![
            name,
            w.webhooks.len().to_string(),
            super::age(w.metadata.created_ms, now),
        ],
        // The API server's default table (`rest.NewDefaultTableConvertor`) and
        // `printLimitRange`: the creation time as RFC 3339.
        Object::Role(_) | Object::ClusterRole(_) | Object::LimitRange(_) => {
            vec![name, m.creation_timestamp.clone()]
        }
        Object::RoleBinding(b) => cluster::print_binding(name, &b.role_ref, &b.subjects, o, m, now),
        Object::ClusterRoleBinding(b) => {
            cluster::print_binding(name, &b.role_ref, &b.subjects, o, m, now)
        }
        Object::ResourceQuota(q) => cluster::print_resource_quota(name, q, now),
        Object::Job(j) => workloads::print_job(name, j, o, now),
        Object::CronJob(cj) => workloads::print_cron_job(name, cj, o, now),
        Object::DaemonSet(ds) => workloads::print_daemon_set(name, ds, o, now),
        Object::StatefulSet(ss) => workloads::print_stateful_set(name, ss, o, now),
        Object::ControllerRevision(cr) => workloads::print_controller_revision(name, cr, now),
        Object::PersistentVolumeClaim(c) => storage::print_persistent_volume_claim(name, c, o, now),
        Object::PersistentVolume(v) => storage::print_persistent_volume(name, v, o, now),
        Object::StorageClass(sc) => storage::print_storage_class(name, sc, now),
        Object::ConfigMap(cm) => storage::print_config_map(name, cm, now),
        Object::Secret(sec) => storage::print_secret(name, sec, now),
        Object::ServiceAccount(sa) => storage::print_service_account(name, sa, now),
        Object::HorizontalPodAutoscaler(h) => workloads::print_hpa(name, h, now),
        Object::CustomResourceDefinition(_) => vec![name, m.creation_timestamp.clone()],
        Object::Custom(_) => custom::row(name, obj, &custom_columns(obj.kind()), o.wide, now),
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
