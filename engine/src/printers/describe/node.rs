//! `describeNode`: taints, Lease, conditions, system info, and the Pods' requests
//! against allocatable.

use super::common::*;
use super::Reader;
use crate::api::quantity::{format_bytes, format_cpu_milli, parse_bytes, parse_cpu_milli};
use crate::api::*;
use crate::apiserver::pod_requests;
use crate::printers::age;
use crate::tabwriter;
use crate::time::rfc1123z;
use std::fmt::Write;

pub(super) fn describe_node(rd: &mut dyn Reader, n: &Node) -> String {
    let mut w = String::new();
    let m = &n.metadata;
    let mut roles: Vec<&str> = m
        .labels
        .keys()
        .filter_map(|k| k.strip_prefix("node-role.kubernetes.io/"))
        .collect();
    crate::sorting::sort(&mut roles);
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(
        w,
        "Roles:\t{}",
        if roles.is_empty() {
            "<none>".into()
        } else {
            roles.join(",")
        }
    );
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "CreationTimestamp:\t{}", rfc1123z(m.created_ms));
    node_taints(&mut w, n);
    let _ = writeln!(w, "Unschedulable:\t{}", n.spec.unschedulable);
    node_lease(&mut w, rd, &m.name);
    node_conditions(&mut w, n);
    node_system(&mut w, n);
    node_resources(&mut w, rd, n);
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `Taints:` one a line, `<none>` without.
pub(super) fn node_taints(w: &mut String, n: &Node) {
    if n.spec.taints.is_empty() {
        let _ = writeln!(w, "Taints:\t<none>");
    } else {
        for (i, t) in n.spec.taints.iter().enumerate() {
            let head = if i == 0 { "Taints:" } else { "" };
            let v = if t.value.is_empty() {
                String::new()
            } else {
                format!("={}", t.value)
            };
            let _ = writeln!(w, "{head}\t{}{v}:{}", t.key, t.effect);
        }
    }
}

/// `Lease:` the node's heartbeat.
pub(super) fn node_lease(w: &mut String, rd: &mut dyn Reader, name: &str) {
    let lease = rd.get(Kind::Lease, "kube-node-lease", name);
    if let Some(l) = lease.as_deref().and_then(Lease::from_object) {
        let _ = writeln!(w, "Lease:");
        let _ = writeln!(w, "  HolderIdentity:\t{}", l.spec.holder_identity);
        let _ = writeln!(w, "  AcquireTime:\t<unset>");
        let _ = writeln!(
            w,
            "  RenewTime:\t{}",
            l.spec
                .renew_time
                .as_deref()
                .map(ts)
                .unwrap_or_else(|| "<unset>".into())
        );
    }
}

/// `Conditions:` with heartbeat and transition times.
pub(super) fn node_conditions(w: &mut String, n: &Node) {
    let _ = writeln!(w, "Conditions:");
    let _ = writeln!(
        w,
        "  Type\tStatus\tLastHeartbeatTime\tLastTransitionTime\tReason\tMessage"
    );
    let _ = writeln!(
        w,
        "  ----\t------\t-----------------\t------------------\t------\t-------"
    );
    for cd in &n.status.conditions {
        let hb = cd
            .last_heartbeat_time
            .as_deref()
            .map(ts)
            .unwrap_or_default();
        let tr = cd
            .last_transition_time
            .as_deref()
            .map(ts)
            .unwrap_or_default();
        // describeNode's "%v \t%v \t%s \t%s \t%v \t%v": a space ends each cell
        // but the last.
        let _ = writeln!(
            w,
            "  {} \t{} \t{hb} \t{tr} \t{} \t{}",
            cd.type_, cd.status, cd.reason, cd.message
        );
    }
}

/// Addresses, Capacity, Allocatable, System Info and PodCIDR.
pub(super) fn node_system(w: &mut String, n: &Node) {
    let _ = writeln!(w, "Addresses:");
    for a in &n.status.addresses {
        let _ = writeln!(w, "  {}:\t{}", a.type_, a.address);
    }
    // describe prints each Quantity as kubectl parsed it: a plain number of bytes
    // (`96636764000`, a BinarySI quantity that is no whole number of Ki) reads back as
    // a decimal one (`96636764k`).
    let canonical = crate::apiserver::limit_ranger::canonical;
    let _ = writeln!(w, "Capacity:");
    for (k, v) in &n.status.capacity {
        let _ = writeln!(w, "  {k}:\t{}", canonical(k, v));
    }
    let _ = writeln!(w, "Allocatable:");
    for (k, v) in &n.status.allocatable {
        let _ = writeln!(w, "  {k}:\t{}", canonical(k, v));
    }
    // describeNode prints every NodeSystemInfo field in this order.
    let info = &n.status.node_info;
    let _ = writeln!(w, "System Info:");
    for (k, v) in [
        ("Machine ID", info.machine_id.as_str()),
        ("System UUID", info.system_uuid.as_str()),
        ("Boot ID", info.boot_id.as_str()),
        ("Kernel Version", info.kernel_version.as_str()),
        ("OS Image", info.os_image.as_str()),
        ("Operating System", info.operating_system.as_str()),
        ("Architecture", info.architecture.as_str()),
        (
            "Container Runtime Version",
            info.container_runtime_version.as_str(),
        ),
        ("Kubelet Version", info.kubelet_version.as_str()),
        ("Kube-Proxy Version", info.kube_proxy_version.as_str()),
    ] {
        let _ = writeln!(w, "  {k}:\t{v}");
    }
    if !n.spec.pod_cidr.is_empty() {
        let _ = writeln!(w, "PodCIDR:\t{}", n.spec.pod_cidr);
        let _ = writeln!(w, "PodCIDRs:\t{}", n.spec.pod_cidr);
    }
}

/// `Non-terminated Pods:` with their requests and limits against allocatable, and
/// `Allocated resources:` (describe.go's `describeNodeResource`).
pub(super) fn node_resources(w: &mut String, rd: &mut dyn Reader, n: &Node) {
    let m = &n.metadata;
    // describeNode's list: the node's Pods that are neither Succeeded nor Failed.
    let listed = rd.list(
        Kind::Pod,
        None,
        None,
        &format!(
            "spec.nodeName={},status.phase!=Succeeded,status.phase!=Failed",
            m.name
        ),
    );
    let mut pods: Vec<Pod> = typed(&listed);
    pods.retain(|p| !p.is_terminal());
    let _ = writeln!(w, "Non-terminated Pods:\t({} in total)", pods.len());
    let _ = writeln!(
        w,
        "  Namespace\tName\tCPU Requests\tCPU Limits\tMemory Requests\tMemory Limits\tAge"
    );
    let _ = writeln!(
        w,
        "  ---------\t----\t------------\t----------\t---------------\t-------------\t---"
    );
    let alloc = crate::apiserver::allocatable(n);
    // i128: a quantity may be as large as i64::MAX (the parser saturates there).
    let pct = |v: i64, total: i64| {
        if total > 0 {
            i64::try_from(i128::from(v) * 100 / i128::from(total)).unwrap_or(i64::MAX)
        } else {
            0
        }
    };
    let (mut lim_cpu, mut lim_mem) = (0i64, 0i64);
    for p in &pods {
        let r = pod_requests(p);
        let lc: i64 = p
            .spec
            .containers
            .iter()
            .filter_map(|c| {
                c.resources
                    .limits
                    .get("cpu")
                    .and_then(|q| parse_cpu_milli(q))
            })
            .fold(0, i64::saturating_add);
        let lm: i64 = p
            .spec
            .containers
            .iter()
            .filter_map(|c| {
                c.resources
                    .limits
                    .get("memory")
                    .and_then(|q| parse_bytes(q))
            })
            .fold(0, i64::saturating_add);
        lim_cpu = lim_cpu.saturating_add(lc);
        lim_mem = lim_mem.saturating_add(lm);
        let _ = writeln!(
            w,
            "  {}\t{}\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{} ({}%)\t{}",
            p.metadata.namespace,
            p.metadata.name,
            format_cpu_milli(r.cpu_milli),
            pct(r.cpu_milli, alloc.cpu_milli),
            format_cpu_milli(lc),
            pct(lc, alloc.cpu_milli),
            format_bytes(r.memory),
            pct(r.memory, alloc.memory),
            format_bytes(lm),
            pct(lm, alloc.memory),
            age(p.metadata.created_ms, rd.now())
        );
    }
    let mut u = crate::apiserver::NodeUsage::default();
    for p in &pods {
        u.add_pod(&pod_requests(p));
    }
    let _ = writeln!(w, "Allocated resources:");
    let _ = writeln!(
        w,
        "  (Total limits may be over 100 percent, i.e., overcommitted.)"
    );
    let _ = writeln!(w, "  Resource\tRequests\tLimits");
    let _ = writeln!(w, "  --------\t--------\t------");
    let _ = writeln!(
        w,
        "  cpu\t{} ({}%)\t{} ({}%)",
        format_cpu_milli(u.requested.cpu_milli),
        pct(u.requested.cpu_milli, alloc.cpu_milli),
        format_cpu_milli(lim_cpu),
        pct(lim_cpu, alloc.cpu_milli)
    );
    let _ = writeln!(
        w,
        "  memory\t{} ({}%)\t{} ({}%)",
        format_bytes(u.requested.memory),
        pct(u.requested.memory, alloc.memory),
        format_bytes(lim_mem),
        pct(lim_mem, alloc.memory)
    );
    // Always printed, as upstream does, with the containers' ephemeral-storage
    // requests and limits against the node's allocatable (0% when it has none).
    let sum = |pick: fn(&Container) -> Option<&String>| -> i64 {
        pods.iter()
            .flat_map(|p| p.spec.containers.iter())
            .filter_map(|c| pick(c).and_then(|q| parse_bytes(q)))
            .fold(0, i64::saturating_add)
    };
    let req_eph = sum(|c| c.resources.requests.get("ephemeral-storage"));
    let lim_eph = sum(|c| c.resources.limits.get("ephemeral-storage"));
    let alloc_eph = n
        .status
        .allocatable
        .get("ephemeral-storage")
        .and_then(|q| parse_bytes(q))
        .unwrap_or(0);
    let _ = writeln!(
        w,
        "  ephemeral-storage\t{} ({}%)\t{} ({}%)",
        format_bytes(req_eph),
        pct(req_eph, alloc_eph),
        format_bytes(lim_eph),
        pct(lim_eph, alloc_eph)
    );
}
