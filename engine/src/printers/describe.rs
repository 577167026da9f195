//! `kubectl describe` for pods, deployments, replicasets and nodes
//! (`k8s.io/kubectl/pkg/describe/describe.go`), written with kubectl's tab placements
//! and laid out by the [`crate::tabwriter`] port, so the alignment is kubectl's.

use super::age;
use crate::api::quantity::{format_bytes, format_cpu_milli, parse_bytes, parse_cpu_milli};
use crate::api::*;
use crate::apiserver::pod_requests;
use crate::cluster::Cluster;
use crate::controllers::deployment::util::{max_surge, max_unavailable, revision};
use crate::tabwriter;
use crate::time::{parse_rfc3339, rfc1123z};
use std::fmt::Write;

fn ts(s: &str) -> String {
    parse_rfc3339(s)
        .map(rfc1123z)
        .unwrap_or_else(|| s.to_string())
}

/// `printLabelsMultiline`: first on the key's line, the rest under it; `<none>` if empty.
fn multiline(w: &mut String, title: &str, m: &StringMap) {
    if m.is_empty() {
        let _ = writeln!(w, "{title}:\t<none>");
        return;
    }
    for (i, (k, v)) in m.iter().enumerate() {
        if i == 0 {
            let _ = writeln!(w, "{title}:\t{k}={v}");
        } else {
            let _ = writeln!(w, "\t{k}={v}");
        }
    }
}

/// `printAnnotationsMultiline`: `key: value`, skipping kubectl's last-applied copy.
fn annotations(w: &mut String, m: &StringMap) {
    annotations_titled(w, "Annotations", m);
}

/// `maxAnnotationLen`: a longer `key: value` (or a multi-line value) is printed as
/// `key:` then the value's lines, each cut at 138 characters with `...`.
const MAX_ANNOTATION_LEN: usize = 140;

/// `printAnnotationsMultiline(w, title, …)`.
fn annotations_titled(w: &mut String, title: &str, m: &StringMap) {
    let shown: Vec<(&String, &String)> = m
        .iter()
        .filter(|(k, _)| *k != "kubectl.kubernetes.io/last-applied-configuration")
        .collect();
    if shown.is_empty() {
        let _ = writeln!(w, "{title}:\t<none>");
        return;
    }
    for (i, (k, v)) in shown.iter().enumerate() {
        if i == 0 {
            let _ = write!(w, "{title}:\t");
        } else {
            w.push('\t');
        }
        let value = v.strip_suffix('\n').unwrap_or(v);
        if value.len() + k.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            let _ = writeln!(w, "{k}:");
            for line in value.split('\n') {
                let _ = writeln!(w, "\t  {}", shorten(line, MAX_ANNOTATION_LEN - 2));
            }
        } else {
            let _ = writeln!(w, "{k}: {value}");
        }
    }
}

/// `shorten`: the first `max` bytes and `...` (Go slices bytes; a cut inside a
/// character keeps the whole character here).
fn shorten(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end += 1;
    }
    format!("{}...", &s[..end])
}

fn tolerations(w: &mut String, tols: &[Toleration]) {
    if tols.is_empty() {
        let _ = writeln!(w, "Tolerations:\t<none>");
        return;
    }
    for (i, t) in tols.iter().enumerate() {
        let mut s = t.key.clone();
        if !t.value.is_empty() {
            s.push_str(&format!("={}", t.value));
        }
        if !t.effect.is_empty() {
            s.push_str(&format!(":{}", t.effect));
        }
        if t.operator == "Exists" && t.value.is_empty() {
            s.push_str(" op=Exists");
        }
        if let Some(secs) = t.toleration_seconds {
            s.push_str(&format!(" for {secs}s"));
        }
        let head = if i == 0 { "Tolerations:" } else { "" };
        let _ = writeln!(w, "{head}\t{s}");
    }
}

/// The Events block (`DescribeEvents`).
fn events(w: &mut String, c: &Cluster, uid: &str) {
    let mut evs: Vec<&Event> = c
        .store
        .list::<Event>()
        .filter(|e| e.involved_object.uid == uid)
        .collect();
    if evs.is_empty() {
        let _ = writeln!(w, "Events:\t<none>");
        return;
    }
    evs.sort_by(|a, b| {
        (a.last_ms, a.first_ms, &a.metadata.name).cmp(&(b.last_ms, b.first_ms, &b.metadata.name))
    });
    let now = c.now();
    let _ = writeln!(w, "Events:");
    let _ = writeln!(w, "  Type\tReason\tAge\tFrom\tMessage");
    let _ = writeln!(w, "  ----\t------\t----\t----\t-------");
    for e in evs {
        let a = if e.count > 1 {
            format!(
                "{} (x{} over {})",
                age(e.last_ms, now),
                e.count,
                age(e.first_ms, now)
            )
        } else {
            age(e.first_ms, now)
        };
        let _ = writeln!(
            w,
            "  {}\t{}\t{a}\t{}\t{}",
            e.type_,
            e.reason,
            e.source.component,
            e.message.trim()
        );
    }
}

fn resources(w: &mut String, ind: &str, title: &str, m: &StringMap) {
    if m.is_empty() {
        return;
    }
    let _ = writeln!(w, "{ind}{title}:");
    for (k, v) in m {
        let _ = writeln!(w, "{ind}  {k}:\t{v}");
    }
}

fn ports(c: &Container) -> (String, String) {
    if c.ports.is_empty() {
        return ("<none>".into(), "<none>".into());
    }
    let proto = |p: &ContainerPort| {
        if p.protocol.is_empty() {
            "TCP".to_string()
        } else {
            p.protocol.clone()
        }
    };
    let ps: Vec<String> = c
        .ports
        .iter()
        .map(|p| format!("{}/{}", p.container_port, proto(p)))
        .collect();
    let hs: Vec<String> = c
        .ports
        .iter()
        .map(|p| format!("{}/{}", p.host_port, proto(p)))
        .collect();
    (ps.join(", "), hs.join(", "))
}

fn state(w: &mut String, title: &str, s: &ContainerState) {
    if let Some(r) = &s.running {
        let _ = writeln!(w, "    {title}:\tRunning");
        let _ = writeln!(w, "      Started:\t{}", ts(&r.started_at));
    } else if let Some(wt) = &s.waiting {
        let _ = writeln!(w, "    {title}:\tWaiting");
        let _ = writeln!(w, "      Reason:\t{}", wt.reason);
        if !wt.message.is_empty() {
            let _ = writeln!(w, "      Message:\t{}", wt.message);
        }
    } else if let Some(t) = &s.terminated {
        let _ = writeln!(w, "    {title}:\tTerminated");
        let _ = writeln!(w, "      Reason:\t{}", t.reason);
        let _ = writeln!(w, "      Exit Code:\t{}", t.exit_code);
        let _ = writeln!(w, "      Started:\t{}", ts(&t.started_at));
        let _ = writeln!(w, "      Finished:\t{}", ts(&t.finished_at));
    } else {
        let _ = writeln!(w, "    {title}:\tWaiting");
    }
}

/// `describeContainerCommand`: Command and Args, one line each (a multi-line one split).
fn container_command(w: &mut String, ct: &Container, indent: &str) {
    for (title, items) in [("Command", &ct.command), ("Args", &ct.args)] {
        if items.is_empty() {
            continue;
        }
        let _ = writeln!(w, "{indent}{title}:");
        for item in items.iter() {
            for line in item.split('\n') {
                let _ = writeln!(w, "{indent}  {line}");
            }
        }
    }
}

/// What `EnvValueRetriever` resolves a `fieldRef` to on a Pod (nothing on a template).
fn field_ref_value(pod: Option<&Pod>, path: &str) -> String {
    let Some(p) = pod else {
        return String::new();
    };
    let keyed = |prefix: &str, map: &StringMap| -> Option<String> {
        let key = path.strip_prefix(prefix)?.strip_suffix("']")?;
        Some(map.get(key).cloned().unwrap_or_default())
    };
    if let Some(v) = keyed("metadata.labels['", &p.metadata.labels) {
        return v;
    }
    if let Some(v) = keyed("metadata.annotations['", &p.metadata.annotations) {
        return v;
    }
    match path {
        "metadata.name" => p.metadata.name.clone(),
        "metadata.namespace" => p.metadata.namespace.clone(),
        "metadata.uid" => p.metadata.uid.clone(),
        "spec.nodeName" => p.spec.node_name.clone(),
        "spec.serviceAccountName" => p.spec.service_account_name.clone(),
        "status.podIP" => p.status.pod_ip.clone(),
        "status.hostIP" => p.status.host_ip.clone(),
        _ => String::new(),
    }
}

/// `ExtractContainerResourceValue` for the four resources a `resourceFieldRef` names
/// most: cpu in whole cores rounded up (the default divisor 1), memory in bytes; an
/// unset limit reads 0, which describe shows as "node allocatable".
fn resource_field_value(ct: &Container, resource: &str) -> String {
    let (map, name) = match resource.split_once('.') {
        Some(("limits", n)) => (&ct.resources.limits, n),
        Some(("requests", n)) => (&ct.resources.requests, n),
        _ => return String::new(),
    };
    let v = map.get(name).map(String::as_str);
    match name {
        "cpu" => {
            let milli = v
                .and_then(crate::api::quantity::parse_cpu_milli)
                .unwrap_or(0);
            // Whole cores rounded up, without overflowing at i64::MAX.
            (milli / 1000 + i64::from(milli % 1000 != 0)).to_string()
        }
        "memory" => v
            .and_then(crate::api::quantity::parse_bytes)
            .unwrap_or(0)
            .to_string(),
        _ => String::new(),
    }
}

/// `describeContainerEnvFrom` (when the container has `envFrom`) and
/// `describeContainerEnvVars`.
fn container_env(w: &mut String, ct: &Container, pod: Option<&Pod>, indent: &str) {
    let s = |v: &serde_json::Value, k: &str| {
        v.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string()
    };
    let optional =
        |v: &serde_json::Value| v.get("optional").and_then(|x| x.as_bool()).unwrap_or(false);
    if let Some(from) = ct.extra.get("envFrom").and_then(|v| v.as_array()) {
        if !from.is_empty() {
            let _ = writeln!(w, "{indent}Environment Variables from:");
            for e in from {
                let (kind, r) = match (e.get("configMapRef"), e.get("secretRef")) {
                    (Some(r), _) => ("ConfigMap", r),
                    (None, Some(r)) => ("Secret", r),
                    _ => ("", &serde_json::Value::Null),
                };
                let prefix = s(e, "prefix");
                let name = s(r, "name");
                let opt = optional(r);
                if prefix.is_empty() {
                    let _ = writeln!(w, "{indent}  {name}\t{kind}\tOptional: {opt}");
                } else {
                    let _ = writeln!(
                        w,
                        "{indent}  {name}\t{kind} with prefix '{prefix}'\tOptional: {opt}"
                    );
                }
            }
        }
    }
    if ct.env.is_empty() {
        let _ = writeln!(w, "{indent}Environment:\t<none>");
        return;
    }
    let _ = writeln!(w, "{indent}Environment:");
    for e in &ct.env {
        let name = s(e, "name");
        let Some(from) = e.get("valueFrom") else {
            for (i, line) in s(e, "value").split('\n').enumerate() {
                if i == 0 {
                    let _ = writeln!(w, "{indent}  {name}:\t{line}");
                } else {
                    let _ = writeln!(w, "{indent}  \t{line}");
                }
            }
            continue;
        };
        if let Some(f) = from.get("fieldRef") {
            let path = s(f, "fieldPath");
            let api = s(f, "apiVersion");
            let value = field_ref_value(pod, &path);
            let _ = writeln!(w, "{indent}  {name}:\t{value} ({api}:{path})");
        } else if let Some(r) = from.get("resourceFieldRef") {
            let resource = s(r, "resource");
            let mut value = resource_field_value(ct, &resource);
            if value == "0" && (resource == "limits.cpu" || resource == "limits.memory") {
                value = "node allocatable".into();
            }
            let _ = writeln!(w, "{indent}  {name}:\t{value} ({resource})");
        } else if let Some(r) = from.get("secretKeyRef") {
            let _ = writeln!(
                w,
                "{indent}  {name}:\t<set to the key '{}' in secret '{}'>\tOptional: {}",
                s(r, "key"),
                s(r, "name"),
                optional(r)
            );
        } else if let Some(r) = from.get("configMapKeyRef") {
            let _ = writeln!(
                w,
                "{indent}  {name}:\t<set to the key '{}' of config map '{}'>\tOptional: {}",
                s(r, "key"),
                s(r, "name"),
                optional(r)
            );
        }
    }
}

/// `describeContainerVolumes`: the mounts sorted by path, `ro`/`rw` and the subPath.
fn container_mounts(w: &mut String, ct: &Container, indent: &str) {
    if ct.volume_mounts.is_empty() {
        let _ = writeln!(w, "{indent}Mounts:\t<none>");
        return;
    }
    let _ = writeln!(w, "{indent}Mounts:");
    let mut mounts: Vec<&VolumeMount> = ct.volume_mounts.iter().collect();
    mounts.sort_by(|a, b| a.mount_path.cmp(&b.mount_path));
    for m in mounts {
        let mut flags = vec![if m.read_only == Some(true) {
            "ro".to_string()
        } else {
            "rw".to_string()
        }];
        if let Some(sub) = m
            .extra
            .get("subPath")
            .and_then(|v| v.as_str())
            .filter(|s| !s.is_empty())
        {
            flags.push(format!("path={sub:?}"));
        }
        let _ = writeln!(
            w,
            "{indent}  {} from {} ({})",
            m.mount_path,
            m.name,
            flags.join(",")
        );
    }
}

/// `describeVolumes`: each volume with its source as describe.go's print*VolumeSource
/// functions print the sources kubeplay's users write; any other source is `<unknown>`.
fn volumes_section(w: &mut String, volumes: &[Volume], space: &str) {
    if volumes.is_empty() {
        let _ = writeln!(w, "{space}Volumes:\t<none>");
        return;
    }
    let _ = writeln!(w, "{space}Volumes:");
    let name_indent = if space.is_empty() { "" } else { " " };
    let s = |v: &serde_json::Value, k: &str| {
        v.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string()
    };
    let b = |v: &serde_json::Value, k: &str| v.get(k).and_then(|x| x.as_bool()).unwrap_or(false);
    for vol in volumes {
        // The name at LEVEL_1 (one more space inside a template); the source at LEVEL_2
        // whatever `space` is, as describeVolumes writes through the same PrefixWriter.
        let _ = writeln!(w, "  {name_indent}{}:", vol.name);
        let (kind, src) = match vol.source.iter().next() {
            Some((k, v)) => (k.as_str(), v),
            None => ("", &serde_json::Value::Null),
        };
        let l2 = "    ";
        match kind {
            "hostPath" => {
                let ty = s(src, "type");
                let ty = if src.get("type").is_none() {
                    "<none>".to_string()
                } else {
                    ty
                };
                let _ = writeln!(w, "{l2}Type:\tHostPath (bare host directory volume)");
                let _ = writeln!(w, "    Path:\t{}", s(src, "path"));
                let _ = writeln!(w, "    HostPathType:\t{ty}");
            }
            "emptyDir" => {
                let limit = src
                    .get("sizeLimit")
                    .map(|v| match v {
                        serde_json::Value::String(x) => x.clone(),
                        other => other.to_string(),
                    })
                    .filter(|x| !x.is_empty() && x != "0")
                    .unwrap_or_else(|| "<unset>".into());
                let _ = writeln!(
                    w,
                    "{l2}Type:\tEmptyDir (a temporary directory that shares a pod's lifetime)"
                );
                let _ = writeln!(w, "    Medium:\t{}", s(src, "medium"));
                let _ = writeln!(w, "    SizeLimit:\t{limit}");
            }
            "secret" => {
                let _ = writeln!(w, "{l2}Type:\tSecret (a volume populated by a Secret)");
                let _ = writeln!(w, "    SecretName:\t{}", s(src, "secretName"));
                let _ = writeln!(w, "    Optional:\t{}", b(src, "optional"));
            }
            "configMap" => {
                let _ = writeln!(
                    w,
                    "{l2}Type:\tConfigMap (a volume populated by a ConfigMap)"
                );
                let _ = writeln!(w, "    Name:\t{}", s(src, "name"));
                let _ = writeln!(w, "    Optional:\t{}", b(src, "optional"));
            }
            "persistentVolumeClaim" => {
                let _ = writeln!(
                    w,
                    "{l2}Type:\tPersistentVolumeClaim (a reference to a PersistentVolumeClaim in the same namespace)"
                );
                let _ = writeln!(w, "    ClaimName:\t{}", s(src, "claimName"));
                let _ = writeln!(w, "    ReadOnly:\t{}", b(src, "readOnly"));
            }
            "downwardAPI" => {
                let _ = writeln!(
                    w,
                    "{l2}Type:\tDownwardAPI (a volume populated by information about the pod)"
                );
                let _ = writeln!(w, "    Items:");
                for item in src
                    .get("items")
                    .and_then(|x| x.as_array())
                    .into_iter()
                    .flatten()
                {
                    if let Some(f) = item.get("fieldRef") {
                        let _ = writeln!(w, "      {} -> {}", s(f, "fieldPath"), s(item, "path"));
                    }
                    if let Some(r) = item.get("resourceFieldRef") {
                        let _ = writeln!(w, "      {} -> {}", s(r, "resource"), s(item, "path"));
                    }
                }
            }
            "projected" => {
                let _ = writeln!(
                    w,
                    "{l2}Type:\tProjected (a volume that contains injected data from multiple sources)"
                );
                for source in src
                    .get("sources")
                    .and_then(|x| x.as_array())
                    .into_iter()
                    .flatten()
                {
                    if let Some(sec) = source.get("secret") {
                        let _ = writeln!(w, "{l2}SecretName:\t{}", s(sec, "name"));
                        let _ = writeln!(w, "    Optional:\t{}", b(sec, "optional"));
                    } else if source.get("downwardAPI").is_some() {
                        let _ = writeln!(w, "{l2}DownwardAPI:\ttrue");
                    } else if let Some(cm) = source.get("configMap") {
                        let _ = writeln!(w, "{l2}ConfigMapName:\t{}", s(cm, "name"));
                        let _ = writeln!(w, "    Optional:\t{}", b(cm, "optional"));
                    } else if let Some(t) = source.get("serviceAccountToken") {
                        let secs = t
                            .get("expirationSeconds")
                            .and_then(|x| x.as_i64())
                            .unwrap_or(3600);
                        let _ = writeln!(w, "{l2}TokenExpirationSeconds:\t{secs}");
                    }
                }
            }
            _ => {
                let _ = writeln!(w, "  <unknown>");
            }
        }
    }
}

/// A Pod template as `describe deployment` shows it.
pub fn pod_template(t: &PodTemplateSpec, level: usize) -> String {
    tabwriter::format(&pod_template_raw(t, level), 0, 2)
}

/// A Pod template with its cells still tab-separated: `rollout history --revision`
/// prints it so (`printTemplate` writes through a prefix writer with no tabwriter
/// behind it).
pub fn pod_template_raw(t: &PodTemplateSpec, _level: usize) -> String {
    let mut w = String::new();
    let _ = writeln!(w, "Pod Template:");
    let mut labels = String::new();
    multiline(&mut labels, "  Labels", &t.metadata.labels);
    w.push_str(&labels);
    if !t.metadata.annotations.is_empty() {
        annotations_titled(&mut w, "  Annotations", &t.metadata.annotations);
    }
    let _ = writeln!(w, "  Containers:");
    for c in &t.spec.containers {
        let _ = writeln!(w, "   {}:", c.name);
        let (p, h) = ports(c);
        let _ = writeln!(w, "    Image:\t{}", c.image);
        let _ = writeln!(w, "    Port:\t{p}");
        let _ = writeln!(w, "    Host Port:\t{h}");
        container_command(&mut w, c, "    ");
        resources(&mut w, "    ", "Limits", &c.resources.limits);
        resources(&mut w, "    ", "Requests", &c.resources.requests);
        probes(&mut w, c);
        container_env(&mut w, c, None, "    ");
        container_mounts(&mut w, c, "    ");
    }
    volumes_section(&mut w, &t.spec.volumes, "  ");
    topology_spread(&mut w, &t.spec.topology_spread_constraints, "  ");
    if !t.spec.priority_class_name.is_empty() {
        let _ = writeln!(w, "  Priority Class Name:\t{}", t.spec.priority_class_name);
    }
    let mut ns = String::new();
    multiline(&mut ns, "  Node-Selectors", &t.spec.node_selector);
    w.push_str(&ns);
    let mut tl = String::new();
    tolerations(&mut tl, &t.spec.tolerations);
    w.push_str(&tl.replacen("Tolerations:", "  Tolerations:", 1));
    w
}

fn qos(p: &Pod) -> &'static str {
    let any = p
        .spec
        .containers
        .iter()
        .any(|c| !c.resources.requests.is_empty() || !c.resources.limits.is_empty());
    if !any {
        return "BestEffort";
    }
    let guaranteed = p.spec.containers.iter().all(|c| {
        ["cpu", "memory"].iter().all(|r| {
            let l = c.resources.limits.get(*r);
            l.is_some() && c.resources.requests.get(*r).is_none_or(|q| Some(q) == l)
        })
    });
    if guaranteed {
        "Guaranteed"
    } else {
        "Burstable"
    }
}

fn describe_pod(c: &Cluster, p: &Pod) -> String {
    let mut w = String::new();
    let m = &p.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let _ = writeln!(w, "Priority:\t{}", p.spec.priority.unwrap_or(0));
    if !p.spec.priority_class_name.is_empty() {
        let _ = writeln!(w, "Priority Class Name:\t{}", p.spec.priority_class_name);
    }
    if !p.spec.service_account_name.is_empty() {
        let _ = writeln!(w, "Service Account:\t{}", p.spec.service_account_name);
    }
    if p.spec.node_name.is_empty() {
        let _ = writeln!(w, "Node:\t<none>");
    } else {
        let _ = writeln!(w, "Node:\t{}/{}", p.spec.node_name, p.status.host_ip);
    }
    if let Some(st) = &p.status.start_time {
        let _ = writeln!(w, "Start Time:\t{}", ts(st));
    }
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    if let (Some(del), false) = (m.deletion_ms, p.is_terminal()) {
        // describe.go prints translateTimestampSince(deletionTimestamp): the deadline
        // is ahead, so kubectl says `<invalid>` (or `0s` within a second of it).
        let _ = writeln!(
            w,
            "Status:\tTerminating (lasts {})",
            crate::time::human_duration_since(del, c.now())
        );
        let _ = writeln!(
            w,
            "Termination Grace Period:\t{}s",
            m.deletion_grace_period_seconds.unwrap_or(0)
        );
    } else {
        let _ = writeln!(w, "Status:\t{}", p.status.phase);
    }
    if !p.status.reason.is_empty() {
        let _ = writeln!(w, "Reason:\t{}", p.status.reason);
    }
    if !p.status.message.is_empty() {
        let _ = writeln!(w, "Message:\t{}", p.status.message);
    }
    let _ = writeln!(w, "IP:\t{}", p.status.pod_ip);
    if p.status.pod_ip.is_empty() {
        let _ = writeln!(w, "IPs:\t<none>");
    } else {
        let _ = writeln!(w, "IPs:");
        let _ = writeln!(w, "  IP:\t{}", p.status.pod_ip);
    }
    if let Some(r) = m.controller_ref() {
        let _ = writeln!(w, "Controlled By:\t{}/{}", r.kind, r.name);
    }
    if !p.status.nominated_node_name.is_empty() {
        let _ = writeln!(w, "NominatedNodeName:\t{}", p.status.nominated_node_name);
    }
    if !p.spec.init_containers.is_empty() {
        containers_section(
            &mut w,
            "Init Containers",
            &p.spec.init_containers,
            &p.status.init_container_statuses,
            Some(p),
        );
    }
    containers_section(
        &mut w,
        "Containers",
        &p.spec.containers,
        &p.status.container_statuses,
        Some(p),
    );
    if !p.status.conditions.is_empty() {
        let _ = writeln!(w, "Conditions:");
        let _ = writeln!(w, "  Type\tStatus");
        for cd in &p.status.conditions {
            let _ = writeln!(w, "  {} \t{} ", cd.type_, cd.status);
        }
    }
    volumes_section(&mut w, &p.spec.volumes, "");
    let _ = writeln!(w, "QoS Class:\t{}", qos(p));
    multiline(&mut w, "Node-Selectors", &p.spec.node_selector);
    tolerations(&mut w, &p.spec.tolerations);
    topology_spread(&mut w, &p.spec.topology_spread_constraints, "");
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// One `Containers:` / `Init Containers:` section of `kubectl describe pod`.
fn containers_section(
    w: &mut String,
    title: &str,
    specs: &[Container],
    statuses: &[ContainerStatus],
    pod: Option<&Pod>,
) {
    let _ = writeln!(w, "{title}:");
    for ct in specs {
        let st = statuses.iter().find(|s| s.name == ct.name);
        let _ = writeln!(w, "  {}:", ct.name);
        if let Some(s) = st {
            let _ = writeln!(w, "    Container ID:\t{}", s.container_id);
        }
        let _ = writeln!(w, "    Image:\t{}", ct.image);
        if let Some(s) = st {
            let _ = writeln!(w, "    Image ID:\t{}", s.image_id);
        }
        let (ps, hs) = ports(ct);
        let label = if ps.contains(',') {
            ("Ports", "Host Ports")
        } else {
            ("Port", "Host Port")
        };
        let _ = writeln!(w, "    {}:\t{ps}", label.0);
        let _ = writeln!(w, "    {}:\t{hs}", label.1);
        container_command(w, ct, "    ");
        if let Some(s) = st {
            state(w, "State", &s.state);
            if s.last_state.terminated.is_some() {
                state(w, "Last State", &s.last_state);
            }
            let _ = writeln!(w, "    Ready:\t{}", if s.ready { "True" } else { "False" });
            let _ = writeln!(w, "    Restart Count:\t{}", s.restart_count);
        }
        resources(w, "    ", "Limits", &ct.resources.limits);
        resources(w, "    ", "Requests", &ct.resources.requests);
        probes(w, ct);
        container_env(w, ct, pod, "    ");
        container_mounts(w, ct, "    ");
    }
}

/// `DescribeProbe`: the handler, then its timing.
fn describe_probe(p: &Probe) -> String {
    let attrs = format!(
        "delay={}s timeout={}s period={}s #success={} #failure={}",
        p.initial_delay_seconds,
        p.timeout_seconds,
        p.period_seconds,
        p.success_threshold,
        p.failure_threshold
    );
    let port = |v: &IntOrString| match v {
        IntOrString::Int(n) => n.to_string(),
        IntOrString::String(s) => s.clone(),
    };
    if let Some(e) = &p.exec {
        format!("exec [{}] {attrs}", e.command.join(" "))
    } else if let Some(h) = &p.http_get {
        // url.URL{Scheme: "http", Host: JoinHostPort("", port), Path}.String()
        format!("http-get http://:{}{} {attrs}", port(&h.port), h.path)
    } else if let Some(t) = &p.tcp_socket {
        format!("tcp-socket :{} {attrs}", port(&t.port))
    } else {
        format!("unknown {attrs}")
    }
}

/// `describeContainerProbe`: `Liveness:`, `Readiness:`, `Startup:`.
fn probes(w: &mut String, ct: &Container) {
    for (title, probe) in [
        ("Liveness", &ct.liveness_probe),
        ("Readiness", &ct.readiness_probe),
        ("Startup", &ct.startup_probe),
    ] {
        if let Some(p) = probe {
            let _ = writeln!(w, "    {title}:\t{}", describe_probe(p));
        }
    }
}

/// `describeTopologySpreadConstraints`, sorted by topology key; `space` is the
/// indent (`""` for a Pod, `"  "` in a Pod template).
fn topology_spread(w: &mut String, tscs: &[TopologySpreadConstraint], space: &str) {
    if tscs.is_empty() {
        return;
    }
    let mut sorted: Vec<&TopologySpreadConstraint> = tscs.iter().collect();
    sorted.sort_by(|a, b| a.topology_key.cmp(&b.topology_key));
    for (i, t) in sorted.iter().enumerate() {
        if i == 0 {
            let _ = write!(w, "{space}Topology Spread Constraints:\t");
        } else {
            let _ = write!(w, "{space}\t");
        }
        let _ = write!(
            w,
            "{}:{} when max skew {} is exceeded",
            t.topology_key, t.when_unsatisfiable, t.max_skew
        );
        if let Some(sel) = &t.label_selector {
            let _ = write!(w, " for selector {}", sel.to_selector_string());
        }
        let _ = writeln!(w);
    }
}

fn conditions_table(w: &mut String, conds: &[Condition]) {
    if conds.is_empty() {
        return;
    }
    let _ = writeln!(w, "Conditions:");
    let _ = writeln!(w, "  Type\tStatus\tReason");
    let _ = writeln!(w, "  ----\t------\t------");
    for cd in conds {
        let _ = writeln!(w, "  {} \t{}\t{}", cd.type_, cd.status, cd.reason);
    }
}

fn describe_deployment(c: &Cluster, d: &Deployment) -> String {
    let mut w = String::new();
    let m = &d.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let _ = writeln!(w, "CreationTimestamp:\t{}", rfc1123z(m.created_ms));
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "Selector:\t{}", d.spec.selector.to_selector_string());
    let s = &d.status;
    let _ = writeln!(
        w,
        "Replicas:\t{} desired | {} updated | {} total | {} available | {} unavailable",
        d.spec.replicas,
        s.updated_replicas,
        s.replicas,
        s.available_replicas,
        s.unavailable_replicas
    );
    let _ = writeln!(w, "StrategyType:\t{}", d.spec.strategy.type_);
    let _ = writeln!(w, "MinReadySeconds:\t{}", d.spec.min_ready_seconds);
    if let Some(ru) = &d.spec.strategy.rolling_update {
        let _ = writeln!(
            w,
            "RollingUpdateStrategy:\t{} max unavailable, {} max surge",
            ru.max_unavailable, ru.max_surge
        );
    }
    let tmpl = pod_template(&d.spec.template, 0);
    w.push_str(&tmpl.replace('\t', " "));
    conditions_table(&mut w, &s.conditions);
    let rss = crate::controllers::deployment::owned_replica_sets(&c.store, d);
    let new = crate::controllers::deployment::sync::find_new(d, &rss);
    let olds: Vec<String> = rss
        .iter()
        .enumerate()
        .filter(|(i, r)| Some(*i) != new && r.spec.replicas > 0)
        .map(|(_, r)| {
            format!(
                "{} ({}/{} replicas created)",
                r.metadata.name, r.status.replicas, r.spec.replicas
            )
        })
        .collect();
    let _ = writeln!(
        w,
        "OldReplicaSets:\t{}",
        if olds.is_empty() {
            "<none>".into()
        } else {
            olds.join(", ")
        }
    );
    match new {
        Some(i) => {
            let r = &rss[i];
            let _ = writeln!(
                w,
                "NewReplicaSet:\t{} ({}/{} replicas created)",
                r.metadata.name, r.status.replicas, r.spec.replicas
            );
        }
        None => {
            let _ = writeln!(w, "NewReplicaSet:\t<none>");
        }
    }
    events(&mut w, c, &m.uid);
    let _ = (max_surge(d), max_unavailable(d));
    tabwriter::format(&w, 0, 2)
}

fn describe_replicaset(c: &Cluster, r: &ReplicaSet) -> String {
    let mut w = String::new();
    let m = &r.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let _ = writeln!(w, "Selector:\t{}", r.spec.selector.to_selector_string());
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    if let Some(o) = m.controller_ref() {
        let _ = writeln!(w, "Controlled By:\t{}/{}", o.kind, o.name);
    }
    let _ = writeln!(
        w,
        "Replicas:\t{} current / {} desired",
        r.status.replicas, r.spec.replicas
    );
    let pods: Vec<&Pod> = c
        .store
        .dependents(&m.uid)
        .filter(|(k, _)| *k == Kind::Pod)
        .filter_map(|(_, key)| c.store.get::<Pod>(key))
        .collect();
    let count = |ph: PodPhase| {
        pods.iter()
            .filter(|p| p.status.phase == ph && !p.metadata.is_deleting())
            .count()
    };
    let _ = writeln!(
        w,
        "Pods Status:\t{} Running / {} Waiting / {} Succeeded / {} Failed",
        count(PodPhase::Running),
        count(PodPhase::Pending),
        count(PodPhase::Succeeded),
        count(PodPhase::Failed)
    );
    let tmpl = pod_template(&r.spec.template, 0);
    w.push_str(&tmpl.replace('\t', " "));
    conditions_table(&mut w, &r.status.conditions);
    events(&mut w, c, &m.uid);
    let _ = revision(m);
    tabwriter::format(&w, 0, 2)
}

/// `describeJob` (kubectl `pkg/describe/describe.go`): no Conditions section;
/// `Suspend` as Go prints a bool; `Pods Statuses` with the Ready count once the
/// controller has written one.
fn describe_job(c: &Cluster, j: &Job) -> String {
    let mut w = String::new();
    let m = &j.metadata;
    let (spec, st) = (&j.spec, &j.status);
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let _ = writeln!(
        w,
        "Selector:\t{}",
        spec.selector
            .as_ref()
            .map(|s| s.to_selector_string())
            .unwrap_or_default()
    );
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    if let Some(o) = m.controller_ref() {
        let _ = writeln!(w, "Controlled By:\t{}/{}", o.kind, o.name);
    }
    if let Some(p) = spec.parallelism {
        let _ = writeln!(w, "Parallelism:\t{p}");
    }
    match spec.completions {
        Some(n) => {
            let _ = writeln!(w, "Completions:\t{n}");
        }
        None => {
            let _ = writeln!(w, "Completions:\t<unset>");
        }
    }
    if let Some(mode) = &spec.completion_mode {
        let _ = writeln!(w, "Completion Mode:\t{mode}");
    }
    if let Some(s) = spec.suspend {
        let _ = writeln!(w, "Suspend:\t{s}");
    }
    if let Some(b) = spec.backoff_limit {
        let _ = writeln!(w, "Backoff Limit:\t{b}");
    }
    if let Some(t) = spec.ttl_seconds_after_finished {
        let _ = writeln!(w, "TTL Seconds After Finished:\t{t}");
    }
    if let Some(t) = st.start_ms {
        let _ = writeln!(w, "Start Time:\t{}", rfc1123z(t));
    }
    if let Some(t) = st.completion_ms {
        let _ = writeln!(w, "Completed At:\t{}", rfc1123z(t));
    }
    if let (Some(a), Some(b)) = (st.start_ms, st.completion_ms) {
        let _ = writeln!(w, "Duration:\t{}", super::age(a, b));
    }
    if let Some(ads) = spec.active_deadline_seconds {
        let _ = writeln!(w, "Active Deadline Seconds:\t{ads}s");
    }
    match st.ready {
        None => {
            let _ = writeln!(
                w,
                "Pods Statuses:\t{} Active / {} Succeeded / {} Failed",
                st.active, st.succeeded, st.failed
            );
        }
        Some(r) => {
            let _ = writeln!(
                w,
                "Pods Statuses:\t{} Active ({r} Ready) / {} Succeeded / {} Failed",
                st.active, st.succeeded, st.failed
            );
        }
    }
    if spec.is_indexed() {
        let _ = writeln!(
            w,
            "Completed Indexes:\t{}",
            cap_indexes(&st.completed_indexes, 50)
        );
    }
    let tmpl = pod_template(&spec.template, 0);
    w.push_str(&tmpl.replace('\t', " "));
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeDaemonSet`: the five "Number of Nodes" lines carry no tab (they break
/// the alignment, as upstream's do); the Pods are counted by phase among those it
/// controls.
fn describe_daemon_set(c: &Cluster, ds: &DaemonSet) -> String {
    let mut w = String::new();
    let m = &ds.metadata;
    let st = &ds.status;
    let node_selector: Vec<String> = ds
        .spec
        .template
        .spec
        .node_selector
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let _ = writeln!(w, "Selector:\t{}", ds.spec.selector.to_selector_string());
    let _ = writeln!(
        w,
        "Node-Selector:\t{}",
        if node_selector.is_empty() {
            "<none>".to_string()
        } else {
            node_selector.join(",")
        }
    );
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(
        w,
        "Desired Number of Nodes Scheduled: {}",
        st.desired_number_scheduled
    );
    let _ = writeln!(
        w,
        "Current Number of Nodes Scheduled: {}",
        st.current_number_scheduled
    );
    let _ = writeln!(
        w,
        "Number of Nodes Scheduled with Up-to-date Pods: {}",
        st.updated_number_scheduled
    );
    let _ = writeln!(
        w,
        "Number of Nodes Scheduled with Available Pods: {}",
        st.number_available
    );
    let _ = writeln!(
        w,
        "Number of Nodes Misscheduled: {}",
        st.number_misscheduled
    );
    pods_status(&mut w, c, &m.uid);
    let tmpl = pod_template(&ds.spec.template, 0);
    w.push_str(&tmpl.replace('\t', " "));
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `Pods Status:` of a DaemonSet or StatefulSet: its controlled Pods by phase
/// (`getPodStatusForController`).
fn pods_status(w: &mut String, c: &Cluster, uid: &str) {
    let pods: Vec<&Pod> = c
        .store
        .dependent_objects(uid)
        .filter_map(|o| match o {
            Object::Pod(p) => Some(&**p),
            _ => None,
        })
        .filter(|p| p.metadata.controller_ref().map(|r| r.uid.as_str()) == Some(uid))
        .collect();
    let count = |ph: PodPhase| pods.iter().filter(|p| p.status.phase == ph).count();
    let _ = writeln!(
        w,
        "Pods Status:\t{} Running / {} Waiting / {} Succeeded / {} Failed",
        count(PodPhase::Running),
        count(PodPhase::Pending),
        count(PodPhase::Succeeded),
        count(PodPhase::Failed)
    );
}

/// `describeStatefulSet` with `describeVolumeClaimTemplates`.
fn describe_stateful_set(c: &Cluster, ss: &StatefulSet) -> String {
    let mut w = String::new();
    let m = &ss.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let _ = writeln!(w, "CreationTimestamp:\t{}", rfc1123z(m.created_ms));
    let _ = writeln!(w, "Selector:\t{}", ss.spec.selector.to_selector_string());
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(
        w,
        "Replicas:\t{} desired | {} total",
        ss.spec.replicas, ss.status.replicas
    );
    let _ = writeln!(w, "Update Strategy:\t{}", ss.spec.update_strategy.type_);
    if let Some(ru) = &ss.spec.update_strategy.rolling_update {
        let _ = writeln!(w, "  Partition:\t{}", ru.partition);
    }
    pods_status(&mut w, c, &m.uid);
    let tmpl = pod_template(&ss.spec.template, 0);
    w.push_str(&tmpl.replace('\t', " "));
    if ss.spec.volume_claim_templates.is_empty() {
        let _ = writeln!(w, "Volume Claims:\t<none>");
    } else {
        let _ = writeln!(w, "Volume Claims:");
        for t in &ss.spec.volume_claim_templates {
            let _ = writeln!(w, "  Name:\t{}", t.metadata.name);
            let _ = writeln!(
                w,
                "  StorageClass:\t{}",
                t.spec.storage_class_name.clone().unwrap_or_default()
            );
            let mut sub = String::new();
            multiline(&mut sub, "Labels", &t.metadata.labels);
            annotations(&mut sub, &t.metadata.annotations);
            for line in sub.lines() {
                let _ = writeln!(w, "  {line}");
            }
            let cap = t.requested_storage();
            let _ = writeln!(
                w,
                "  Capacity:\t{}",
                if cap.is_empty() { "<default>" } else { cap }
            );
            let _ = writeln!(w, "  Access Modes:\t[{}]", t.spec.access_modes.join(" "));
        }
    }
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `printPodsMultiline`: the names of the Pods that mount the claim.
fn claim_users(c: &Cluster, pvc: &PersistentVolumeClaim) -> Vec<String> {
    c.store
        .list::<Pod>()
        .filter(|p| p.metadata.namespace == pvc.metadata.namespace)
        .filter(|p| {
            pod_volumes(&p.spec)
                .iter()
                .any(|(_, s)| matches!(s, VolumeSource::Claim(n) if *n == pvc.metadata.name))
        })
        .map(|p| p.metadata.name.clone())
        .collect()
}

fn go_list(v: &[String]) -> String {
    format!("[{}]", v.join(" "))
}

/// `describePersistentVolumeClaim`.
fn describe_claim(c: &Cluster, pvc: &PersistentVolumeClaim) -> String {
    let mut w = String::new();
    let m = &pvc.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let _ = writeln!(
        w,
        "StorageClass:\t{}",
        pvc.spec.storage_class_name.clone().unwrap_or_default()
    );
    match m.deletion_ms {
        Some(del) => {
            let _ = writeln!(
                w,
                "Status:\tTerminating (lasts {})",
                crate::time::human_duration_since(del, c.now())
            );
        }
        None => {
            let _ = writeln!(w, "Status:\t{}", pvc.status.phase);
        }
    }
    let _ = writeln!(w, "Volume:\t{}", pvc.spec.volume_name);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "Finalizers:\t{}", go_list(&m.finalizers));
    let (capacity, modes) = if pvc.spec.volume_name.is_empty() {
        (String::new(), String::new())
    } else {
        (
            pvc.status
                .capacity
                .get("storage")
                .cloned()
                .unwrap_or_default(),
            super::get::access_modes_string(&pvc.status.access_modes),
        )
    };
    let _ = writeln!(w, "Capacity:\t{capacity}");
    let _ = writeln!(w, "Access Modes:\t{modes}");
    if let Some(mode) = &pvc.spec.volume_mode {
        let _ = writeln!(w, "VolumeMode:\t{mode}");
    }
    let users = claim_users(c, pvc);
    if users.is_empty() {
        let _ = writeln!(w, "Used By:\t<none>");
    } else {
        for (i, u) in users.iter().enumerate() {
            let _ = writeln!(w, "{}\t{u}", if i == 0 { "Used By:" } else { "" });
        }
    }
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describePersistentVolume` (a CSI source, as the provisioner writes it).
fn describe_volume(c: &Cluster, pv: &PersistentVolume) -> String {
    let mut w = String::new();
    let m = &pv.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "Finalizers:\t{}", go_list(&m.finalizers));
    let _ = writeln!(w, "StorageClass:\t{}", pv.spec.storage_class_name);
    match m.deletion_ms {
        Some(del) => {
            let _ = writeln!(
                w,
                "Status:\tTerminating (lasts {})",
                crate::time::human_duration_since(del, c.now())
            );
        }
        None => {
            let _ = writeln!(w, "Status:\t{}", pv.status.phase);
        }
    }
    let claim = pv
        .spec
        .claim_ref
        .as_ref()
        .map(|r| format!("{}/{}", r.namespace, r.name))
        .unwrap_or_default();
    let _ = writeln!(w, "Claim:\t{claim}");
    let _ = writeln!(
        w,
        "Reclaim Policy:\t{}",
        pv.spec.persistent_volume_reclaim_policy
    );
    let _ = writeln!(
        w,
        "Access Modes:\t{}",
        super::get::access_modes_string(&pv.spec.access_modes)
    );
    if let Some(mode) = &pv.spec.volume_mode {
        let _ = writeln!(w, "VolumeMode:\t{mode}");
    }
    let _ = writeln!(
        w,
        "Capacity:\t{}",
        pv.spec.capacity.get("storage").cloned().unwrap_or_default()
    );
    let _ = writeln!(w, "Node Affinity:\t<none>");
    let _ = writeln!(w, "Message:\t{}", pv.status.message);
    let _ = writeln!(w, "Source:");
    let text = |v: &serde_json::Value, k: &str| {
        v.get(k)
            .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
            .unwrap_or_default()
    };
    if let Some(csi) = pv.spec.source.get("csi") {
        let _ = writeln!(
            w,
            "    Type:\tCSI (a Container Storage Interface (CSI) volume source)"
        );
        let _ = writeln!(w, "    Driver:\t{}", text(csi, "driver"));
        let _ = writeln!(w, "    FSType:\t{}", text(csi, "fsType"));
        let _ = writeln!(w, "    VolumeHandle:\t{}", text(csi, "volumeHandle"));
        let ro = csi
            .get("readOnly")
            .and_then(|b| b.as_bool())
            .unwrap_or(false);
        let _ = writeln!(w, "    ReadOnly:\t{ro}");
        let _ = writeln!(w, "    VolumeAttributes:\t<none>");
    } else if let Some(hp) = pv.spec.source.get("hostPath") {
        let _ = writeln!(w, "    Type:\tHostPath (bare host directory volume)");
        let _ = writeln!(w, "    Path:\t{}", text(hp, "path"));
        let ty = text(hp, "type");
        let _ = writeln!(
            w,
            "    HostPathType:\t{}",
            if hp.get("type").is_none() {
                "<none>".to_string()
            } else {
                ty
            }
        );
    }
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeStorageClass`.
fn describe_storage_class(c: &Cluster, sc: &StorageClass) -> String {
    let mut w = String::new();
    let m = &sc.metadata;
    let fmt = |map: &StringMap| {
        if map.is_empty() {
            "<none>".to_string()
        } else {
            map.iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(",")
        }
    };
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(
        w,
        "IsDefaultClass:\t{}",
        if sc.is_default() { "Yes" } else { "No" }
    );
    let _ = writeln!(w, "Annotations:\t{}", fmt(&m.annotations));
    let _ = writeln!(w, "Provisioner:\t{}", sc.provisioner);
    let _ = writeln!(w, "Parameters:\t{}", fmt(&sc.parameters));
    let _ = writeln!(
        w,
        "AllowVolumeExpansion:\t{}",
        match sc.allow_volume_expansion {
            Some(true) => "True",
            Some(false) => "False",
            None => "<unset>",
        }
    );
    if sc.mount_options.is_empty() {
        let _ = writeln!(w, "MountOptions:\t<none>");
    } else {
        let _ = writeln!(w, "MountOptions:");
        for o in &sc.mount_options {
            let _ = writeln!(w, "  {o}");
        }
    }
    let _ = writeln!(w, "ReclaimPolicy:\t{}", sc.reclaim_policy);
    let _ = writeln!(w, "VolumeBindingMode:\t{}", sc.volume_binding_mode);
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeConfigMap`.
fn describe_config_map(c: &Cluster, cm: &ConfigMap) -> String {
    let mut w = String::new();
    let m = &cm.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "\nData\n====");
    for (k, v) in &cm.data {
        let _ = writeln!(w, "{k}:\n----\n{v}");
    }
    let _ = writeln!(w, "\nBinaryData\n====");
    for (k, v) in &cm.binary_data {
        let n = base64_decode(v).map_or(0, |b| b.len());
        let _ = writeln!(w, "{k}: {n} bytes");
    }
    let _ = writeln!(w);
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeHorizontalPodAutoscalerV2`.
fn describe_hpa(c: &Cluster, h: &HorizontalPodAutoscaler) -> String {
    let mut w = String::new();
    let m = &h.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "CreationTimestamp:\t{}", rfc1123z(m.created_ms));
    let r = &h.spec.scale_target_ref;
    let _ = writeln!(w, "Reference:\t{}/{}", r.kind, r.name);
    let _ = writeln!(w, "Metrics:\t( current / target )");
    for (i, metric) in h.spec.metrics.iter().enumerate() {
        let status = h
            .status
            .current_metrics
            .get(i)
            .and_then(|s| s.resource.as_ref());
        match (&metric.type_[..], &metric.resource) {
            ("Resource", Some(res)) => match &res.target.average_value {
                Some(target) => {
                    let current = status
                        .and_then(|s| s.current.average_value.clone())
                        .unwrap_or_else(|| "<unknown>".into());
                    let _ = writeln!(w, "  resource {} on pods:\t{current} / {target}", res.name);
                }
                None => {
                    let current = status
                        .and_then(|s| {
                            s.current.average_utilization.map(|u| {
                                format!(
                                    "{u}% ({})",
                                    s.current.average_value.clone().unwrap_or_default()
                                )
                            })
                        })
                        .unwrap_or_else(|| "<unknown>".into());
                    let target = res
                        .target
                        .average_utilization
                        .map_or_else(|| "<auto>".to_string(), |u| format!("{u}%"));
                    let _ = writeln!(
                        w,
                        "  resource {} on pods  (as a percentage of request):\t{current} / {target}",
                        res.name
                    );
                }
            },
            (t, _) => {
                let _ = writeln!(w, "  <unknown metric type \"{t}\">");
            }
        }
    }
    let _ = writeln!(
        w,
        "Min replicas:\t{}",
        h.spec
            .min_replicas
            .map_or_else(|| "<unset>".to_string(), |v| v.to_string())
    );
    let _ = writeln!(w, "Max replicas:\t{}", h.spec.max_replicas);
    if let Some(b) = &h.spec.behavior {
        let _ = writeln!(w, "Behavior:");
        for (dir, rules) in [("Scale Up", &b.scale_up), ("Scale Down", &b.scale_down)] {
            let Some(rules) = rules else {
                continue;
            };
            let _ = writeln!(w, "  {dir}:");
            if let Some(s) = rules.stabilization_window_seconds {
                let _ = writeln!(w, "    Stabilization Window: {s} seconds");
            }
            if !rules.policies.is_empty() {
                let _ = writeln!(
                    w,
                    "    Select Policy: {}",
                    rules.select_policy.as_deref().unwrap_or("Max")
                );
                let _ = writeln!(w, "    Policies:");
                for p in &rules.policies {
                    let _ = writeln!(
                        w,
                        "      - Type: {}\tValue: {}\tPeriod: {} seconds",
                        p.type_, p.value, p.period_seconds
                    );
                }
            }
        }
    }
    let _ = writeln!(
        w,
        "{} pods:\t{} current / {} desired",
        r.kind, h.status.current_replicas, h.status.desired_replicas
    );
    if !h.status.conditions.is_empty() {
        let _ = writeln!(w, "Conditions:");
        let _ = writeln!(w, "  Type\tStatus\tReason\tMessage");
        let _ = writeln!(w, "  ----\t------\t------\t-------");
        for cond in &h.status.conditions {
            let _ = writeln!(
                w,
                "  {}\t{}\t{}\t{}",
                cond.type_, cond.status, cond.reason, cond.message
            );
        }
    }
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeSecret`: sizes, never values.
fn describe_secret(sec: &Secret) -> String {
    let mut w = String::new();
    let m = &sec.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "\nType:\t{}", sec.type_);
    let _ = writeln!(w, "\nData\n====");
    for (k, v) in &sec.data {
        let n = base64_decode(v).map_or(0, |b| b.len());
        let _ = writeln!(w, "{k}:\t{n} bytes");
    }
    tabwriter::format(&w, 0, 2)
}

/// `capIndexesListOrNone`: the list cut after the first comma past `soft` characters.
fn cap_indexes(indexes: &str, soft: usize) -> String {
    if indexes.is_empty() {
        return "<none>".into();
    }
    match indexes.char_indices().skip(soft).find(|(_, ch)| *ch == ',') {
        Some((i, _)) => format!("{}...", &indexes[..=i]),
        None => indexes.to_string(),
    }
}

/// `describeCronJob`, `describeJobTemplate` and `printActiveJobs`: the Job template's
/// selector, parallelism and completions as written (`<unset>` unless given), no time
/// zone line (v0.33).
fn describe_cron_job(c: &Cluster, cj: &CronJob) -> String {
    let mut w = String::new();
    let m = &cj.metadata;
    let spec = &cj.spec;
    let unset = |v: Option<i64>, unit: &str| {
        v.map(|n| format!("{n}{unit}"))
            .unwrap_or_else(|| "<unset>".into())
    };
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "Schedule:\t{}", spec.schedule);
    let _ = writeln!(w, "Concurrency Policy:\t{}", spec.concurrency_policy);
    let suspend = match spec.suspend {
        None => "<unset>",
        Some(true) => "True",
        Some(false) => "False",
    };
    let _ = writeln!(w, "Suspend:\t{suspend}");
    let _ = writeln!(
        w,
        "Successful Job History Limit:\t{}",
        unset(spec.successful_jobs_history_limit, "")
    );
    let _ = writeln!(
        w,
        "Failed Job History Limit:\t{}",
        unset(spec.failed_jobs_history_limit, "")
    );
    let _ = writeln!(
        w,
        "Starting Deadline Seconds:\t{}",
        unset(spec.starting_deadline_seconds, "s")
    );
    let jt = &spec.job_template.spec;
    let _ = writeln!(
        w,
        "Selector:\t{}",
        jt.selector
            .as_ref()
            .map(|s| s.to_selector_string())
            .unwrap_or_else(|| "<unset>".into())
    );
    let _ = writeln!(w, "Parallelism:\t{}", unset(jt.parallelism, ""));
    let _ = writeln!(w, "Completions:\t{}", unset(jt.completions, ""));
    if let Some(ads) = jt.active_deadline_seconds {
        let _ = writeln!(w, "Active Deadline Seconds:\t{ads}s");
    }
    let tmpl = pod_template(&jt.template, 0);
    w.push_str(&tmpl.replace('\t', " "));
    let _ = writeln!(
        w,
        "Last Schedule Time:\t{}",
        cj.status
            .last_schedule_time
            .as_deref()
            .map(ts)
            .unwrap_or_else(|| "<unset>".into())
    );
    let active: Vec<&str> = cj.status.active.iter().map(|r| r.name.as_str()).collect();
    let _ = writeln!(
        w,
        "Active Jobs:\t{}",
        if active.is_empty() {
            "<none>".to_string()
        } else {
            active.join(", ")
        }
    );
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

fn describe_node(c: &Cluster, n: &Node) -> String {
    let mut w = String::new();
    let m = &n.metadata;
    let mut roles: Vec<&str> = m
        .labels
        .keys()
        .filter_map(|k| k.strip_prefix("node-role.kubernetes.io/"))
        .collect();
    roles.sort();
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
    node_lease(&mut w, c, &m.name);
    node_conditions(&mut w, n);
    node_system(&mut w, n);
    node_resources(&mut w, c, n);
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `Taints:` one a line, `<none>` without.
fn node_taints(w: &mut String, n: &Node) {
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
fn node_lease(w: &mut String, c: &Cluster, name: &str) {
    if let Some(l) = c
        .store
        .get::<Lease>(&crate::apiserver::ObjKey::new("kube-node-lease", name))
    {
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
fn node_conditions(w: &mut String, n: &Node) {
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
fn node_system(w: &mut String, n: &Node) {
    let _ = writeln!(w, "Addresses:");
    for a in &n.status.addresses {
        let _ = writeln!(w, "  {}:\t{}", a.type_, a.address);
    }
    let _ = writeln!(w, "Capacity:");
    for (k, v) in &n.status.capacity {
        let _ = writeln!(w, "  {k}:\t{v}");
    }
    let _ = writeln!(w, "Allocatable:");
    for (k, v) in &n.status.allocatable {
        let _ = writeln!(w, "  {k}:\t{v}");
    }
    // describeNode prints every NodeSystemInfo field in this order; what kubeplay does
    // not model (machine and boot ids, kernel, OS image, and kubeProxyVersion, which
    // kubelets no longer set) prints empty.
    let info = &n.status.node_info;
    let _ = writeln!(w, "System Info:");
    for (k, v) in [
        ("Machine ID", ""),
        ("System UUID", ""),
        ("Boot ID", ""),
        ("Kernel Version", ""),
        ("OS Image", ""),
        ("Operating System", info.operating_system.as_str()),
        ("Architecture", info.architecture.as_str()),
        (
            "Container Runtime Version",
            info.container_runtime_version.as_str(),
        ),
        ("Kubelet Version", info.kubelet_version.as_str()),
        ("Kube-Proxy Version", ""),
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
fn node_resources(w: &mut String, c: &Cluster, n: &Node) {
    let m = &n.metadata;
    let pods: Vec<&Pod> = c
        .store
        .pods_on_node(&m.name)
        .filter(|p| !p.is_terminal())
        .collect();
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
            age(p.metadata.created_ms, c.now())
        );
    }
    let u = c.store.node_usage(&m.name);
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

/// `describePodDisruptionBudgetV1`.
fn describe_pdb(c: &Cluster, b: &PodDisruptionBudget) -> String {
    let mut w = String::new();
    let m = &b.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let ios = |v: &IntOrString| match v {
        IntOrString::Int(n) => n.to_string(),
        IntOrString::String(s) => s.clone(),
    };
    if let Some(v) = &b.spec.min_available {
        let _ = writeln!(w, "Min available:\t{}", ios(v));
    } else if let Some(v) = &b.spec.max_unavailable {
        let _ = writeln!(w, "Max unavailable:\t{}", ios(v));
    }
    if b.spec.selector.is_empty() {
        // A PDB written without a selector has none (nil): kubectl says <unset>.
        let _ = writeln!(w, "Selector:\t<unset>");
    } else {
        let _ = writeln!(w, "Selector:\t{}", b.spec.selector.to_selector_string());
    }
    let _ = writeln!(w, "Status:");
    let st = &b.status;
    let _ = writeln!(w, "    Allowed disruptions:\t{}", st.disruptions_allowed);
    let _ = writeln!(w, "    Current:\t{}", st.current_healthy);
    let _ = writeln!(w, "    Desired:\t{}", st.desired_healthy);
    let _ = writeln!(w, "    Total:\t{}", st.expected_pods);
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeNamespace`: name, labels, annotations, status, then the namespace's
/// quotas (`DescribeResourceQuotas`) and limit ranges (`DescribeLimitRanges`).
fn describe_namespace(c: &Cluster, n: &Namespace) -> String {
    let mut w = String::new();
    let ns = &n.metadata.name;
    let _ = writeln!(w, "Name:\t{ns}");
    multiline(&mut w, "Labels", &n.metadata.labels);
    annotations(&mut w, &n.metadata.annotations);
    let _ = writeln!(w, "Status:\t{}", n.status.phase);
    let _ = writeln!(w);
    // SortableResourceQuotas: by name, as the store lists them.
    let quotas: Vec<&ResourceQuota> = c
        .store
        .list::<ResourceQuota>()
        .filter(|q| q.metadata.namespace == *ns)
        .collect();
    if quotas.is_empty() {
        let _ = writeln!(w, "No resource quota.");
    } else {
        let _ = writeln!(w, "Resource Quotas");
        for q in quotas {
            let _ = writeln!(w, "  Name:\t{}", q.metadata.name);
            if !q.spec.scopes.is_empty() {
                let mut scopes = q.spec.scopes.clone();
                scopes.sort();
                let _ = writeln!(w, "  Scopes:\t{}", scopes.join(", "));
            }
            let _ = writeln!(w, "  Resource\tUsed\tHard");
            let _ = writeln!(w, "  --------\t---\t---");
            for (r, h) in &q.status.hard {
                let used = q.status.used.get(r).cloned().unwrap_or_else(|| "0".into());
                let _ = writeln!(w, "  {r}\t{used}\t{h}");
            }
        }
    }
    let _ = writeln!(w);
    let ranges = c.store.limit_ranges(ns);
    if ranges.is_empty() {
        let _ = writeln!(w, "No LimitRange resource.");
    } else {
        let _ = writeln!(w, "Resource Limits");
        let _ = writeln!(w, "{}", limit_range_header(" "));
        for lr in ranges {
            limit_range_rows(&mut w, lr, " ");
        }
    }
    tabwriter::format(&w, 0, 2)
}

/// The limit-range table's header and rule, each line after `prefix`.
fn limit_range_header(prefix: &str) -> String {
    format!(
        "{prefix}Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n{prefix}----\t--------\t---\t---\t---------------\t-------------\t-----------------------"
    )
}

/// `describeLimitRangeSpec`: a row per item and resource, `-` where unset. Upstream
/// walks each item's resources in Go map order (it varies); kubeplay sorts them.
fn limit_range_rows(w: &mut String, lr: &LimitRange, prefix: &str) {
    use crate::apiserver::limit_ranger::canonical;
    for item in &lr.spec.limits {
        for k in item.resources() {
            let cell = |m: &StringMap, ratio: bool| {
                m.get(k).map_or_else(
                    || "-".to_string(),
                    |q| canonical(if ratio { "" } else { k }, q),
                )
            };
            let _ = writeln!(
                w,
                "{prefix}{}\t{k}\t{}\t{}\t{}\t{}\t{}",
                item.type_,
                cell(&item.min, false),
                cell(&item.max, false),
                cell(&item.default_request, false),
                cell(&item.default, false),
                cell(&item.max_limit_request_ratio, true)
            );
        }
    }
}

/// `describeLimitRange`: name, namespace and the table (no labels or annotations).
fn describe_limit_range(lr: &LimitRange) -> String {
    let mut w = String::new();
    let _ = writeln!(w, "Name:\t{}", lr.metadata.name);
    let _ = writeln!(w, "Namespace:\t{}", lr.metadata.namespace);
    let _ = writeln!(w, "{}", limit_range_header(""));
    limit_range_rows(&mut w, lr, "");
    tabwriter::format(&w, 0, 2)
}

/// `describeQuota`: name, namespace, scopes, and each resource of `status.hard` with
/// its used and hard quantities (nothing before the controller has counted).
fn describe_quota(q: &ResourceQuota) -> String {
    let mut w = String::new();
    let _ = writeln!(w, "Name:\t{}", q.metadata.name);
    let _ = writeln!(w, "Namespace:\t{}", q.metadata.namespace);
    if !q.spec.scopes.is_empty() {
        let _ = writeln!(w, "Scopes:\t{}", q.spec.scopes.join(", "));
    }
    let _ = writeln!(w, "Resource\tUsed\tHard");
    let _ = writeln!(w, "--------\t----\t----");
    for (r, h) in &q.status.hard {
        let used = q.status.used.get(r).cloned().unwrap_or_else(|| "0".into());
        let _ = writeln!(w, "{r}\t{used}\t{h}");
    }
    tabwriter::format(&w, 0, 2)
}

/// `describePriorityClass`.
fn describe_priority_class(c: &Cluster, pc: &PriorityClass) -> String {
    let mut w = String::new();
    let _ = writeln!(w, "Name:\t{}", pc.metadata.name);
    let _ = writeln!(w, "Value:\t{}", pc.value);
    let _ = writeln!(w, "GlobalDefault:\t{}", pc.global_default);
    let policy = if pc.preemption_policy.is_empty() {
        "PreemptLowerPriority"
    } else {
        &pc.preemption_policy
    };
    let _ = writeln!(w, "PreemptionPolicy:\t{policy}");
    let _ = writeln!(w, "Description:\t{}", pc.description);
    // labels.FormatLabels: k=v,… or <none>.
    let ann: Vec<String> = pc
        .metadata
        .annotations
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let ann = if ann.is_empty() {
        "<none>".to_string()
    } else {
        ann.join(",")
    };
    let _ = writeln!(w, "Annotations:\t{ann}");
    events(&mut w, c, &pc.metadata.uid);
    tabwriter::format(&w, 0, 2)
}

/// `labels.FormatLabels`: `k=v` pairs, sorted as whole strings, or `<none>`.
fn format_labels(m: Option<&StringMap>) -> String {
    let mut pairs: Vec<String> = m
        .into_iter()
        .flatten()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    pairs.sort();
    if pairs.is_empty() {
        "<none>".into()
    } else {
        pairs.join(",")
    }
}

/// `formatEndpointSlices` (describe's `Endpoints:` line): the ready endpoints of the
/// slices' ports named `port_name`, as `ip:port`, three at most. Upstream sets `more`
/// before it skips a not-ready endpoint, so three ready and one not ready print
/// `… + 0 more...`; kept.
fn format_endpoint_slices(slices: &[&EndpointSlice], port_name: &str) -> String {
    if slices.is_empty() {
        return "<none>".into();
    }
    const MAX: usize = 3;
    let (mut list, mut more, mut count) = (Vec::<String>::new(), false, 0usize);
    for s in slices {
        let endpoints = s.endpoints.as_deref().unwrap_or_default();
        let ports = s.ports.as_deref().unwrap_or_default();
        let is_ready = |e: &Endpoint| e.conditions.ready.unwrap_or(true);
        if ports.is_empty() {
            for e in endpoints {
                if list.len() == MAX {
                    more = true;
                }
                if !is_ready(e) {
                    continue;
                }
                if !more {
                    list.push(e.addresses.first().cloned().unwrap_or_default());
                }
                count += 1;
            }
        } else {
            for p in ports {
                if p.name.as_deref().unwrap_or_default() != port_name {
                    continue;
                }
                for e in endpoints {
                    if list.len() == MAX {
                        more = true;
                    }
                    if !is_ready(e) {
                        continue;
                    }
                    if !more {
                        let addr = e.addresses.first().cloned().unwrap_or_default();
                        let port = p.port.unwrap_or_default();
                        list.push(if addr.contains(':') {
                            format!("[{addr}]:{port}")
                        } else {
                            format!("{addr}:{port}")
                        });
                    }
                    count += 1;
                }
            }
        }
    }
    let ret = list.join(",");
    if more {
        format!("{ret} + {} more...", count.saturating_sub(MAX))
    } else {
        ret
    }
}

/// `describeService` (kubectl v1.33: endpoints from the Service's EndpointSlices).
fn describe_service(c: &Cluster, svc: &Service) -> String {
    let mut w = String::new();
    let m = &svc.metadata;
    let spec = &svc.spec;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "Selector:\t{}", format_labels(spec.selector.as_ref()));
    let _ = writeln!(w, "Type:\t{}", spec.type_);
    if !spec.ip_family_policy.is_empty() {
        let _ = writeln!(w, "IP Family Policy:\t{}", spec.ip_family_policy);
    }
    let or_none = |v: &[String]| {
        if v.is_empty() {
            "<none>".to_string()
        } else {
            v.join(",")
        }
    };
    let _ = writeln!(w, "IP Families:\t{}", or_none(&spec.ip_families));
    let _ = writeln!(w, "IP:\t{}", spec.cluster_ip);
    let _ = writeln!(w, "IPs:\t{}", or_none(&spec.cluster_ips));
    if !spec.external_ips.is_empty() {
        let _ = writeln!(w, "External IPs:\t{}", spec.external_ips.join(","));
    }
    let extra_str = |k: &str| {
        spec.extra
            .get(k)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let lb_ip = extra_str("loadBalancerIP");
    if !lb_ip.is_empty() {
        let _ = writeln!(w, "Desired LoadBalancer IP:\t{lb_ip}");
    }
    let external_name = extra_str("externalName");
    if !external_name.is_empty() {
        let _ = writeln!(w, "External Name:\t{external_name}");
    }
    let slices: Vec<&EndpointSlice> = c
        .store
        .list_ns::<EndpointSlice>(&m.namespace)
        .filter(|s| s.metadata.labels.get("kubernetes.io/service-name") == Some(&m.name))
        .collect();
    for p in &spec.ports {
        let name = if p.name.is_empty() {
            "<unset>"
        } else {
            &p.name
        };
        let _ = writeln!(w, "Port:\t{name}\t{}/{}", p.port, p.protocol);
        let target = match &p.target_port {
            Some(IntOrString::Int(n)) => n.to_string(),
            Some(IntOrString::String(s)) => s.clone(),
            None => "0".into(),
        };
        let _ = writeln!(w, "TargetPort:\t{target}/{}", p.protocol);
        if p.node_port != 0 {
            let _ = writeln!(w, "NodePort:\t{name}\t{}/{}", p.node_port, p.protocol);
        }
        let _ = writeln!(
            w,
            "Endpoints:\t{}",
            format_endpoint_slices(&slices, &p.name)
        );
    }
    let _ = writeln!(w, "Session Affinity:\t{}", spec.session_affinity);
    if !spec.external_traffic_policy.is_empty() {
        let _ = writeln!(
            w,
            "External Traffic Policy:\t{}",
            spec.external_traffic_policy
        );
    }
    if !spec.internal_traffic_policy.is_empty() {
        let _ = writeln!(
            w,
            "Internal Traffic Policy:\t{}",
            spec.internal_traffic_policy
        );
    }
    if let Some(n) = spec
        .extra
        .get("healthCheckNodePort")
        .and_then(|v| v.as_i64())
    {
        if n != 0 {
            let _ = writeln!(w, "HealthCheck NodePort:\t{n}");
        }
    }
    if let Some(r) = spec
        .extra
        .get("loadBalancerSourceRanges")
        .and_then(|v| v.as_array())
    {
        let r: Vec<&str> = r.iter().filter_map(|v| v.as_str()).collect();
        if !r.is_empty() {
            let _ = writeln!(w, "LoadBalancer Source Ranges:\t{}", r.join(","));
        }
    }
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeEndpointSliceV1`.
fn describe_endpoint_slice(c: &Cluster, s: &EndpointSlice) -> String {
    let mut w = String::new();
    let m = &s.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "AddressType:\t{}", s.address_type);
    let unset = |v: Option<String>| {
        v.filter(|x| !x.is_empty())
            .unwrap_or_else(|| "<unset>".into())
    };
    match s.ports.as_deref() {
        None | Some([]) => {
            let _ = writeln!(w, "Ports: <unset>");
        }
        Some(ports) => {
            let _ = writeln!(w, "Ports:");
            let _ = writeln!(w, "  Name\tPort\tProtocol");
            let _ = writeln!(w, "  ----\t----\t--------");
            for p in ports {
                let _ = writeln!(
                    w,
                    "  {}\t{}\t{}",
                    unset(p.name.clone()),
                    unset(p.port.map(|n| n.to_string())),
                    p.protocol.clone().unwrap_or_default()
                );
            }
        }
    }
    match s.endpoints.as_deref() {
        None | Some([]) => {
            let _ = writeln!(w, "Endpoints: <none>");
        }
        Some(eps) => {
            let _ = writeln!(w, "Endpoints:");
            for e in eps {
                let addrs = if e.addresses.is_empty() {
                    "<none>".to_string()
                } else {
                    e.addresses.join(", ")
                };
                let _ = writeln!(w, "  - Addresses:\t{addrs}");
                let _ = writeln!(w, "    Conditions:");
                let _ = writeln!(
                    w,
                    "      Ready:\t{}",
                    unset(e.conditions.ready.map(|b| b.to_string()))
                );
                let _ = writeln!(w, "    Hostname:\t{}", unset(Some(e.hostname.clone())));
                if let Some(r) = &e.target_ref {
                    let _ = writeln!(w, "    TargetRef:\t{}/{}", r.kind, r.name);
                }
                let _ = writeln!(w, "    NodeName:\t{}", unset(Some(e.node_name.clone())));
                let _ = writeln!(w, "    Zone:\t{}", unset(Some(e.zone.clone())));
            }
        }
    }
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeEndpoints` (v1).
fn describe_endpoints(c: &Cluster, e: &Endpoints) -> String {
    let mut w = String::new();
    let m = &e.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "Subsets:");
    let ips = |a: &[EndpointAddress]| {
        if a.is_empty() {
            "<none>".to_string()
        } else {
            a.iter()
                .map(|x| x.ip.as_str())
                .collect::<Vec<_>>()
                .join(",")
        }
    };
    for ss in &e.subsets {
        let _ = writeln!(w, "  Addresses:\t{}", ips(&ss.addresses));
        let _ = writeln!(w, "  NotReadyAddresses:\t{}", ips(&ss.not_ready_addresses));
        if !ss.ports.is_empty() {
            let _ = writeln!(w, "  Ports:");
            let _ = writeln!(w, "    Name\tPort\tProtocol");
            let _ = writeln!(w, "    ----\t----\t--------");
            for p in &ss.ports {
                let name = if p.name.is_empty() {
                    "<unset>"
                } else {
                    &p.name
                };
                let _ = writeln!(w, "    {name}\t{}\t{}", p.port, p.protocol);
            }
        }
        let _ = writeln!(w);
    }
    events(&mut w, c, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `kubectl describe` text for one object.
pub fn describe(c: &Cluster, obj: &Object) -> String {
    let text = match obj {
        Object::Pod(p) => describe_pod(c, p),
        Object::Deployment(d) => describe_deployment(c, d),
        Object::ReplicaSet(r) => describe_replicaset(c, r),
        Object::Node(n) => describe_node(c, n),
        Object::PodDisruptionBudget(b) => describe_pdb(c, b),
        Object::Namespace(n) => describe_namespace(c, n),
        Object::PriorityClass(pc) => describe_priority_class(c, pc),
        Object::Service(svc) => describe_service(c, svc),
        Object::EndpointSlice(s) => describe_endpoint_slice(c, s),
        Object::Endpoints(e) => describe_endpoints(c, e),
        Object::ResourceQuota(q) => describe_quota(q),
        Object::LimitRange(lr) => describe_limit_range(lr),
        Object::Job(j) => describe_job(c, j),
        Object::CronJob(cj) => describe_cron_job(c, cj),
        Object::DaemonSet(ds) => describe_daemon_set(c, ds),
        Object::StatefulSet(ss) => describe_stateful_set(c, ss),
        Object::PersistentVolumeClaim(pvc) => describe_claim(c, pvc),
        Object::PersistentVolume(pv) => describe_volume(c, pv),
        Object::StorageClass(sc) => describe_storage_class(c, sc),
        Object::ConfigMap(cm) => describe_config_map(c, cm),
        Object::Secret(sec) => describe_secret(sec),
        Object::HorizontalPodAutoscaler(h) => describe_hpa(c, h),
        other => {
            let mut w = String::new();
            let _ = writeln!(w, "Name:\t{}", other.meta().name);
            let _ = writeln!(w, "Namespace:\t{}", other.meta().namespace);
            multiline(&mut w, "Labels", &other.meta().labels);
            annotations(&mut w, &other.meta().annotations);
            tabwriter::format(&w, 0, 2)
        }
    };
    text.trim_end().to_string()
}
