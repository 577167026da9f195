//! `describePod` and the Pod template every workload's describer prints: containers,
//! probes, environment, mounts, volumes, QoS.

use super::common::*;
use super::Reader;
use crate::api::*;
use crate::tabwriter;
use std::fmt::Write;

pub(super) fn ports(c: &Container) -> (String, String) {
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

pub(super) fn state(w: &mut String, title: &str, s: &ContainerState) {
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
pub(super) fn container_command(w: &mut String, ct: &Container, indent: &str) {
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
pub(super) fn field_ref_value(pod: Option<&Pod>, path: &str) -> String {
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
pub(super) fn resource_field_value(ct: &Container, resource: &str) -> String {
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
pub(super) fn container_env(w: &mut String, ct: &Container, pod: Option<&Pod>, indent: &str) {
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
pub(super) fn container_mounts(w: &mut String, ct: &Container, indent: &str) {
    if ct.volume_mounts.is_empty() {
        let _ = writeln!(w, "{indent}Mounts:\t<none>");
        return;
    }
    let _ = writeln!(w, "{indent}Mounts:");
    let mut mounts: Vec<&VolumeMount> = ct.volume_mounts.iter().collect();
    crate::sorting::sort_by(&mut mounts, |a, b| a.mount_path.cmp(&b.mount_path));
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
pub(super) fn volumes_section(w: &mut String, volumes: &[Volume], space: &str) {
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

pub(super) fn describe_pod(rd: &mut dyn Reader, p: &Pod) -> String {
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
            crate::time::human_duration_since(del, rd.now())
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
    let _ = writeln!(w, "QoS Class:\t{}", p.qos_class());
    multiline(&mut w, "Node-Selectors", &p.spec.node_selector);
    tolerations(&mut w, &p.spec.tolerations);
    topology_spread(&mut w, &p.spec.topology_spread_constraints, "");
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// One `Containers:` / `Init Containers:` section of `kubectl describe pod`.
pub(super) fn containers_section(
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
pub(super) fn describe_probe(p: &Probe) -> String {
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
pub(super) fn probes(w: &mut String, ct: &Container) {
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
pub(super) fn topology_spread(w: &mut String, tscs: &[TopologySpreadConstraint], space: &str) {
    if tscs.is_empty() {
        return;
    }
    let mut sorted: Vec<&TopologySpreadConstraint> = tscs.iter().collect();
    crate::sorting::sort_by(&mut sorted, |a, b| a.topology_key.cmp(&b.topology_key));
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
