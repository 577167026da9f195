//! Validation (422) of the fields the simulation relies on, with the API server's text.
//!
//! Upstream: `pkg/apis/apps/validation/validation.go`, `pkg/apis/core/validation`.
//! The full set (strategy fenceposts, percentages, immutability of the selector…)
//! grows with the workload-fidelity work; each message here is upstream's.

use super::ApiError;
use crate::api::*;

/// `IsDNS1123Subdomain`-style check used for object names.
pub fn dns1123_subdomain_error(name: &str) -> Option<String> {
    let ok = !name.is_empty()
        && name.len() <= 253
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    (!ok).then(|| {
        format!(
            "metadata.name: Invalid value: \"{name}\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        )
    })
}

/// `IsDNS1035Label`.
fn dns1035_label_errors(v: &str) -> Vec<String> {
    label_errors(v, true)
}

/// `IsDNS1123Label`.
fn dns1123_label_errors(v: &str) -> Vec<String> {
    label_errors(v, false)
}

/// A DNS label (RFC 1035 when `alpha_first`: it must start with a letter), with the
/// message of upstream's check.
fn label_errors(v: &str, alpha_first: bool) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 63 {
        errs.push("must be no more than 63 characters".to_string());
    }
    let first_ok = |c: char| c.is_ascii_lowercase() || (!alpha_first && c.is_ascii_digit());
    let ok = !v.is_empty()
        && v.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && v.starts_with(first_ok)
        && v.ends_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit());
    if !ok {
        errs.push(if alpha_first {
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
        } else {
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
        }
        .to_string());
    }
    errs
}

/// `IsValidPortName`: an IANA service name.
pub fn port_name_errors(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 15 {
        errs.push("must be no more than 15 characters".to_string());
    }
    if !v
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        errs.push(
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_string(),
        );
    }
    if !v.bytes().any(|b| b.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".to_string());
    }
    if v.contains("--") {
        errs.push("must not contain consecutive hyphens".to_string());
    }
    if v.starts_with('-') || v.ends_with('-') {
        errs.push("must not begin or end with a hyphen".to_string());
    }
    errs
}

/// Go's `%#v` of a `core.ServicePort` holding only a protocol and a port (the key of
/// the duplicate-port check).
fn go_service_port_key(protocol: &str, port: i64) -> String {
    format!(
        "core.ServicePort{{Name:\"\", Protocol:\"{protocol}\", AppProtocol:(*string)(nil), Port:{port}, TargetPort:intstr.IntOrString{{Type:0, IntVal:0, StrVal:\"\"}}, NodePort:0}}"
    )
}

/// `ValidateService` and the clusterIP half of `ValidateServiceUpdate`
/// (`pkg/apis/core/validation/validation.go`), for the fields the simulation models.
fn validate_service(causes: &mut Vec<String>, svc: &Service, old: Option<&Service>) {
    let spec = &svc.spec;
    let quote = |s: &str| serde_json::Value::String(s.to_string()).to_string();
    let headless = svc.is_headless();
    if spec.ports.is_empty() && !headless && spec.type_ != "ExternalName" {
        causes.push("spec.ports: Required value".into());
    }
    // `validateClientIPAffinityConfig`: 0 < timeoutSeconds <= MaxClientIPServiceAffinitySeconds.
    if spec.session_affinity == "ClientIP" {
        if let Some(t) = spec
            .extra
            .get("sessionAffinityConfig")
            .and_then(|c| c.pointer("/clientIP/timeoutSeconds"))
        {
            if t.as_i64().is_none_or(|t| !(1..=86_400).contains(&t)) {
                causes.push(format!(
                    "spec.sessionAffinityConfig.clientIP.timeoutSeconds: Invalid value: {t}: must be greater than 0 and less than 86400"
                ));
            }
        }
    }
    let mut names = std::collections::BTreeSet::new();
    for (i, p) in spec.ports.iter().enumerate() {
        let at = format!("spec.ports[{i}]");
        if spec.ports.len() > 1 && p.name.is_empty() {
            causes.push(format!("{at}.name: Required value"));
        } else if !p.name.is_empty() {
            for m in dns1123_label_errors(&p.name) {
                causes.push(format!("{at}.name: Invalid value: {}: {m}", quote(&p.name)));
            }
            if !names.insert(p.name.as_str()) {
                causes.push(format!("{at}.name: Duplicate value: {}", quote(&p.name)));
            }
        }
        if !(1..=65535).contains(&p.port) {
            causes.push(format!(
                "{at}.port: Invalid value: {}: must be between 1 and 65535, inclusive",
                p.port
            ));
        }
        if !["SCTP", "TCP", "UDP"].contains(&p.protocol.as_str()) {
            causes.push(format!(
                "{at}.protocol: Unsupported value: {}: supported values: \"SCTP\", \"TCP\", \"UDP\"",
                quote(&p.protocol)
            ));
        }
        match &p.target_port {
            Some(IntOrString::Int(n)) if !(1..=65535).contains(n) => causes.push(format!(
                "{at}.targetPort: Invalid value: {n}: must be between 1 and 65535, inclusive"
            )),
            Some(IntOrString::String(name)) => {
                for m in port_name_errors(name) {
                    causes.push(format!(
                        "{at}.targetPort: Invalid value: {}: {m}",
                        quote(name)
                    ));
                }
            }
            _ => {}
        }
    }
    if let Some(sel) = &spec.selector {
        for (k, v) in sel {
            for msg in qualified_name_errors(k) {
                causes.push(format!("spec.selector: Invalid value: {}: {msg}", quote(k)));
            }
            for msg in label_value_errors(v) {
                causes.push(format!("spec.selector: Invalid value: {}: {msg}", quote(v)));
            }
        }
    }
    if !["ClientIP", "None"].contains(&spec.session_affinity.as_str()) {
        causes.push(format!(
            "spec.sessionAffinity: Unsupported value: {}: supported values: \"ClientIP\", \"None\"",
            quote(&spec.session_affinity)
        ));
    }
    const TYPES: [&str; 4] = ["ClusterIP", "ExternalName", "LoadBalancer", "NodePort"];
    if !TYPES.contains(&spec.type_.as_str()) {
        causes.push(format!(
            "spec.type: Unsupported value: {}: supported values: \"ClusterIP\", \"ExternalName\", \"LoadBalancer\", \"NodePort\"",
            quote(&spec.type_)
        ));
    }
    if spec.type_ == "ClusterIP" {
        for (i, p) in spec.ports.iter().enumerate() {
            if p.node_port != 0 {
                causes.push(format!(
                    "spec.ports[{i}].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"
                ));
            }
        }
    }
    if matches!(spec.type_.as_str(), "NodePort" | "LoadBalancer") && headless {
        causes.push(format!(
            "spec.clusterIPs[0]: Invalid value: \"None\": may not be set to 'None' for {} services",
            spec.type_
        ));
    }
    let mut node_ports = std::collections::BTreeSet::new();
    for (i, p) in spec.ports.iter().enumerate() {
        if p.node_port != 0 && !node_ports.insert((p.protocol.as_str(), p.node_port)) {
            causes.push(format!(
                "spec.ports[{i}].nodePort: Duplicate value: {}",
                p.node_port
            ));
        }
    }
    let mut ports = std::collections::BTreeSet::new();
    for (i, p) in spec.ports.iter().enumerate() {
        if !ports.insert((p.protocol.as_str(), p.port)) {
            causes.push(format!(
                "spec.ports[{i}]: Duplicate value: {}",
                go_service_port_key(&p.protocol, p.port)
            ));
        }
    }
    if spec.cluster_ip.parse::<std::net::Ipv6Addr>().is_ok() {
        // A valid address of the family this single-stack cluster does not serve.
        causes.push(format!(
            "spec.clusterIPs[0]: Invalid value: {}: IPv6 is not configured on this cluster",
            quote(&spec.cluster_ip)
        ));
    } else if !spec.cluster_ip.is_empty()
        && spec.cluster_ip != "None"
        && crate::apiserver::services::parse_ipv4(&spec.cluster_ip).is_none()
    {
        causes.push(format!(
            "spec.clusterIPs[0]: Invalid value: {}: must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
            quote(&spec.cluster_ip)
        ));
    }
    if let Some(o) = old {
        // ValidateImmutableField on clusterIPs[0], when both need one.
        let needs = |s: &Service| s.spec.type_ != "ExternalName";
        if needs(o)
            && needs(svc)
            && !o.spec.cluster_ip.is_empty()
            && !spec.cluster_ip.is_empty()
            && spec.cluster_ip != o.spec.cluster_ip
        {
            causes.push(format!(
                "spec.clusterIPs[0]: Invalid value: {}: field is immutable",
                quote(&spec.cluster_ip)
            ));
        }
    }
}

fn go_map(m: &StringMap) -> String {
    let inner: Vec<String> = m.iter().map(|(k, v)| format!("\"{k}\":\"{v}\"")).collect();
    format!("map[string]string{{{}}}", inner.join(", "))
}

fn validate_template(
    causes: &mut Vec<String>,
    replicas: i64,
    selector: &LabelSelector,
    template: &PodTemplateSpec,
) {
    if replicas < 0 {
        causes.push(format!(
            "spec.replicas: Invalid value: {replicas}: must be greater than or equal to 0"
        ));
    }
    if selector.is_empty() {
        causes.push(
            "spec.selector: Invalid value: \"null\": empty selector is invalid for deployment"
                .into(),
        );
    } else if !selector.matches(&template.metadata.labels) {
        causes.push(format!(
            "spec.template.metadata.labels: Invalid value: {}: `selector` does not match template `labels`",
            go_map(&template.metadata.labels)
        ));
    }
    if template.spec.containers.is_empty() {
        causes.push("spec.template.spec.containers: Required value".into());
    }
    if !template.spec.restart_policy.is_empty() && template.spec.restart_policy != "Always" {
        causes.push(format!(
            "spec.template.spec.restartPolicy: Unsupported value: \"{}\": supported values: \"Always\"",
            template.spec.restart_policy
        ));
    }
}

/// `ValidateStatefulSetSpec` and `ValidateStatefulSetUpdate`
/// (`pkg/apis/apps/validation/validation.go`).
fn validate_stateful_set(causes: &mut Vec<String>, ss: &StatefulSet, old: Option<&Object>) {
    let s = &ss.spec;
    if s.pod_management_policy != "OrderedReady" && s.pod_management_policy != "Parallel" {
        causes.push(format!(
            "spec.podManagementPolicy: Invalid value: \"{}\": must be 'OrderedReady' or 'Parallel'",
            s.pod_management_policy
        ));
    }
    match s.update_strategy.type_.as_str() {
        "RollingUpdate" => {
            if let Some(ru) = &s.update_strategy.rolling_update {
                nonnegative(
                    causes,
                    "spec.updateStrategy.rollingUpdate.partition",
                    ru.partition,
                );
            }
        }
        "OnDelete" => {
            if s.update_strategy.rolling_update.is_some() {
                causes.push("spec.updateStrategy.rollingUpdate: Invalid value: \"null\": only allowed for updateStrategy 'RollingUpdate'".into());
            }
        }
        t => causes.push(format!(
            "spec.updateStrategy: Invalid value: \"{t}\": must be 'RollingUpdate' or 'OnDelete'"
        )),
    }
    let policy = &s.persistent_volume_claim_retention_policy;
    for (f, v) in [
        ("whenDeleted", &policy.when_deleted),
        ("whenScaled", &policy.when_scaled),
    ] {
        if v != "Retain" && v != "Delete" {
            causes.push(format!(
                "spec.persistentVolumeClaimRetentionPolicy.{f}: Unsupported value: \"{v}\": supported values: \"Retain\", \"Delete\""
            ));
        }
    }
    if let Some(o) = &s.ordinals {
        nonnegative(causes, "spec.ordinals.start", o.start);
    }
    nonnegative(causes, "spec.minReadySeconds", s.min_ready_seconds);
    if s.replicas < 0 {
        causes.push(format!(
            "spec.replicas: Invalid value: {}: must be greater than or equal to 0",
            s.replicas
        ));
    }
    if s.selector.is_empty() {
        causes.push(
            "spec.selector: Invalid value: \"null\": empty selector is invalid for statefulset"
                .into(),
        );
    } else if !s.selector.matches(&s.template.metadata.labels) {
        causes.push(format!(
            "spec.template.metadata.labels: Invalid value: {}: `selector` does not match template `labels`",
            go_map(&s.template.metadata.labels)
        ));
    }
    validate_selector_operators(causes, &s.selector);
    if s.template.spec.containers.is_empty() {
        causes.push("spec.template.spec.containers: Required value".into());
    }
    if !s.template.spec.restart_policy.is_empty() && s.template.spec.restart_policy != "Always" {
        causes.push(format!(
            "spec.template.spec.restartPolicy: Unsupported value: \"{}\": supported values: \"Always\"",
            s.template.spec.restart_policy
        ));
    }
    validate_scheduling(causes, "spec.template.spec", &s.template.spec);
    validate_pod_spec_numbers(causes, "spec.template.spec", &s.template.spec);
    for (i, t) in s.volume_claim_templates.iter().enumerate() {
        validate_claim_spec(
            causes,
            &format!("spec.volumeClaimTemplates[{i}].spec"),
            &t.spec,
        );
    }
    if let Some(Object::StatefulSet(o)) = old {
        // Everything but these fields is fixed at creation.
        let mut a = s.clone();
        let b = &o.spec;
        a.replicas = b.replicas;
        a.ordinals = b.ordinals.clone();
        a.template = b.template.clone();
        a.update_strategy = b.update_strategy.clone();
        a.revision_history_limit = b.revision_history_limit;
        a.persistent_volume_claim_retention_policy =
            b.persistent_volume_claim_retention_policy.clone();
        a.min_ready_seconds = b.min_ready_seconds;
        if a != *b {
            causes.push("spec: Forbidden: updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden".into());
        }
    }
}

/// `validateHorizontalPodAutoscalerSpec` (`pkg/apis/autoscaling/validation`).
fn validate_hpa(causes: &mut Vec<String>, h: &HorizontalPodAutoscaler) {
    let s = &h.spec;
    if let Some(min) = s.min_replicas {
        if min < 1 {
            causes.push(format!(
                "spec.minReplicas: Invalid value: {min}: must be greater than or equal to 1"
            ));
        }
    }
    if s.max_replicas < 1 {
        causes.push(format!(
            "spec.maxReplicas: Invalid value: {}: must be greater than 0",
            s.max_replicas
        ));
    }
    if let Some(min) = s.min_replicas {
        if s.max_replicas < min {
            causes.push(format!(
                "spec.maxReplicas: Invalid value: {}: must be greater than or equal to `minReplicas`",
                s.max_replicas
            ));
        }
    }
    if s.scale_target_ref.kind.is_empty() {
        causes.push("spec.scaleTargetRef.kind: Required value".into());
    }
    if s.scale_target_ref.name.is_empty() {
        causes.push("spec.scaleTargetRef.name: Required value".into());
    }
    for (i, m) in s.metrics.iter().enumerate() {
        let at = format!("spec.metrics[{i}]");
        match (m.type_.as_str(), &m.resource) {
            ("", _) => causes.push(format!("{at}.type: Required value: must specify a metric source type")),
            ("Resource", None) => causes.push(format!(
                "{at}.resource: Required value: must populate information for the given metric source"
            )),
            ("Resource", Some(r)) => {
                if r.name.is_empty() {
                    causes.push(format!("{at}.resource.name: Required value: must specify a resource name"));
                }
                let t = &r.target;
                match (t.average_utilization, &t.average_value) {
                    (None, None) => causes.push(format!("{at}.resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization")),
                    (Some(_), Some(_)) => causes.push(format!("{at}.resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization")),
                    _ => {}
                }
                if t.type_.is_empty() {
                    causes.push(format!("{at}.resource.target.type: Required value: must specify a metric target type"));
                } else if !["Utilization", "Value", "AverageValue"].contains(&t.type_.as_str()) {
                    causes.push(format!("{at}.resource.target.type: Invalid value: \"{}\": must be either Utilization, Value, or AverageValue", t.type_));
                }
                if let Some(u) = t.average_utilization {
                    if u < 1 {
                        causes.push(format!("{at}.resource.target.averageUtilization: Invalid value: {u}: must be greater than 0"));
                    }
                }
            }
            ("Pods" | "Object" | "External" | "ContainerResource", _) => {}
            (t, _) => causes.push(format!("{at}.type: Unsupported value: \"{t}\": supported values: \"ContainerResource\", \"External\", \"Object\", \"Pods\", \"Resource\"")),
        }
    }
}

/// `ValidatePersistentVolumeClaimSpec`: at least one access mode, a storage request.
fn validate_claim_spec(causes: &mut Vec<String>, at: &str, spec: &PersistentVolumeClaimSpec) {
    if spec.access_modes.is_empty() {
        causes.push(format!(
            "{at}.accessModes: Required value: at least 1 access mode is required"
        ));
    }
    const MODES: [&str; 4] = [
        "ReadOnlyMany",
        "ReadWriteMany",
        "ReadWriteOnce",
        "ReadWriteOncePod",
    ];
    for m in &spec.access_modes {
        if !MODES.contains(&m.as_str()) {
            causes.push(format!(
                "{at}.accessModes: Unsupported value: \"{m}\": supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\""
            ));
        }
    }
    if !spec.resources.requests.contains_key("storage") {
        causes.push(format!("{at}.resources[storage]: Required value"));
    }
}

/// `validateJobSpec` (`pkg/apis/batch/validation/validation.go`): the counts are
/// non-negative, Indexed needs completions, the template needs containers, and the
/// restart policy is OnFailure or Never (Never with a podFailurePolicy). `at` is
/// `spec` or a CronJob's `spec.jobTemplate.spec`.
fn validate_job_spec(causes: &mut Vec<String>, at: &str, spec: &JobSpec) {
    for (f, v) in [
        ("parallelism", spec.parallelism),
        ("completions", spec.completions),
        ("activeDeadlineSeconds", spec.active_deadline_seconds),
        ("backoffLimit", spec.backoff_limit),
        ("ttlSecondsAfterFinished", spec.ttl_seconds_after_finished),
    ] {
        if let Some(v) = v {
            nonnegative(causes, &format!("{at}.{f}"), v);
        }
    }
    if let Some(mode) = &spec.completion_mode {
        if mode != "NonIndexed" && mode != "Indexed" {
            causes.push(format!(
                "{at}.completionMode: Unsupported value: \"{mode}\": supported values: \"NonIndexed\", \"Indexed\""
            ));
        }
        if mode == "Indexed" {
            match spec.completions {
                None => causes.push(format!(
                    "{at}.completions: Required value: when completion mode is Indexed"
                )),
                Some(c) if c > 100_000 => causes.push(format!(
                    "{at}.completions: Invalid value: {c}: must be less than or equal to 100000 when completion mode is Indexed"
                )),
                _ => {}
            }
            if let Some(p) = spec.parallelism.filter(|p| *p > 100_000) {
                causes.push(format!(
                    "{at}.parallelism: Invalid value: {p}: must be less than or equal to 100000 when completion mode is Indexed"
                ));
            }
        }
    }
    if let Some(sp) = &spec.success_policy {
        if !spec.is_indexed() {
            causes.push(format!(
                "{at}.successPolicy: Invalid value: \"{}\": requires indexed completion mode",
                "NonIndexed"
            ));
        }
        if sp.rules.is_empty() {
            causes.push(format!(
                "{at}.successPolicy.rules: Required value: at least one rules must be specified when the successPolicy is specified"
            ));
        }
        for (i, r) in sp.rules.iter().enumerate() {
            if r.succeeded_count.is_none() && r.succeeded_indexes.is_none() {
                causes.push(format!(
                    "{at}.successPolicy.rules[{i}]: Required value: at least one of succeededCount or succeededIndexes must be specified"
                ));
            }
            if let Some(c) = r.succeeded_count {
                nonnegative(
                    causes,
                    &format!("{at}.successPolicy.rules[{i}].succeededCount"),
                    c,
                );
            }
        }
    }
    if let Some(pfp) = &spec.pod_failure_policy {
        for (i, r) in pfp.rules.iter().enumerate() {
            let p = format!("{at}.podFailurePolicy.rules[{i}]");
            if !["FailJob", "FailIndex", "Ignore", "Count"].contains(&r.action.as_str()) {
                causes.push(format!(
                    "{p}.action: Unsupported value: \"{}\": supported values: \"Count\", \"FailIndex\", \"FailJob\", \"Ignore\"",
                    r.action
                ));
            }
            match (&r.on_exit_codes, r.on_pod_conditions.is_empty()) {
                (Some(_), false) => causes.push(format!(
                    "{p}: Invalid value: specifying both OnExitCodes and OnPodConditions is not supported"
                )),
                (None, true) => causes.push(format!(
                    "{p}: Invalid value: specifying one of OnExitCodes and OnPodConditions is required"
                )),
                _ => {}
            }
            if let Some(e) = &r.on_exit_codes {
                if e.operator != "In" && e.operator != "NotIn" {
                    causes.push(format!(
                        "{p}.onExitCodes.operator: Unsupported value: \"{}\": supported values: \"In\", \"NotIn\"",
                        e.operator
                    ));
                }
                if e.values.is_empty() {
                    causes.push(format!(
                        "{p}.onExitCodes.values: Invalid value: []int32{{}}: at least one value is required"
                    ));
                }
                if e.operator == "In" && e.values.contains(&0) {
                    causes.push(format!(
                        "{p}.onExitCodes.values[{}]: Invalid value: 0: must not be 0 for the In operator",
                        e.values.iter().position(|v| *v == 0).unwrap_or(0)
                    ));
                }
            }
        }
    }
    let t = &spec.template.spec;
    if t.containers.is_empty() {
        causes.push(format!("{at}.template.spec.containers: Required value"));
    }
    for (i, c) in t.containers.iter().enumerate() {
        if c.image.is_empty() {
            causes.push(format!(
                "{at}.template.spec.containers[{i}].image: Required value"
            ));
        }
    }
    // Defaulting turned an unset restart policy into Always, so upstream checks both.
    let policy = t.restart_policy.as_str();
    if policy.is_empty() || policy == "Always" {
        causes.push(format!(
            "{at}.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", \"Never\""
        ));
    } else if policy != "OnFailure" && policy != "Never" {
        causes.push(format!(
            "{at}.template.spec.restartPolicy: Unsupported value: \"{policy}\": supported values: \"OnFailure\", \"Never\""
        ));
    } else if spec.pod_failure_policy.is_some() && policy != "Never" {
        causes.push(format!(
            "{at}.template.spec.restartPolicy: Invalid value: \"{policy}\": only \"Never\" is supported when podFailurePolicy is specified"
        ));
    }
    if let Some(sel) = &spec.selector {
        if !sel.is_empty() && !sel.matches(&spec.template.metadata.labels) {
            causes.push(format!(
                "{at}.template.metadata.labels: Invalid value: {}: `selector` does not match template `labels`",
                go_map(&spec.template.metadata.labels)
            ));
        }
    }
    validate_scheduling(causes, &format!("{at}.template.spec"), t);
    validate_pod_spec_numbers(causes, &format!("{at}.template.spec"), t);
}

/// `ValidateJobSpecUpdate`: the selector, the completion mode and (while the Job is
/// not suspended) the Pod template cannot change; completions only together with
/// parallelism in an Indexed Job (elastic Indexed Jobs).
fn validate_job_update(causes: &mut Vec<String>, new: &JobSpec, old: &JobSpec) {
    if new.selector != old.selector {
        causes.push(format!(
            "spec.selector: Invalid value: {}: field is immutable",
            new.selector
                .as_ref()
                .map(go_selector)
                .unwrap_or_else(|| "null".into())
        ));
    }
    if new.completion_mode != old.completion_mode {
        causes.push(format!(
            "spec.completionMode: Invalid value: \"{}\": field is immutable",
            new.completion_mode.as_deref().unwrap_or("")
        ));
    }
    let elastic = new.is_indexed() && new.completions == new.parallelism;
    if new.completions != old.completions && !elastic {
        causes.push(format!(
            "spec.completions: Invalid value: {}: field is immutable",
            new.completions
                .map(|c| c.to_string())
                .unwrap_or_else(|| "null".into())
        ));
    }
    // A suspended Job that never started may change its template's scheduling
    // directives only; the rest of the template is fixed for good.
    let mut a = new.template.clone();
    let b = &old.template;
    if old.is_suspended() {
        a.spec.node_selector = b.spec.node_selector.clone();
        a.spec.tolerations = b.spec.tolerations.clone();
        a.spec.affinity = b.spec.affinity.clone();
        a.metadata.labels = b.metadata.labels.clone();
        a.metadata.annotations = b.metadata.annotations.clone();
    }
    if a != *b {
        causes.push(
            "spec.template: Invalid value: core.PodTemplateSpec{...}: field is immutable".into(),
        );
    }
}

/// Topology spread constraints and pod (anti-)affinity terms
/// (`ValidateTopologySpreadConstraints`, `validatePodAffinityTerm`,
/// `validateWeightedPodAffinityTerm`); `at` is `spec` or `spec.template.spec`.
fn validate_scheduling(causes: &mut Vec<String>, at: &str, spec: &PodSpec) {
    for (i, c) in spec.topology_spread_constraints.iter().enumerate() {
        let p = format!("{at}.topologySpreadConstraints[{i}]");
        if c.max_skew <= 0 {
            causes.push(format!(
                "{p}.maxSkew: Invalid value: {}: must be greater than zero",
                c.max_skew
            ));
        }
        if c.topology_key.is_empty() {
            causes.push(format!("{p}.topologyKey: Required value: can not be empty"));
        }
        if c.when_unsatisfiable != "DoNotSchedule" && c.when_unsatisfiable != "ScheduleAnyway" {
            causes.push(format!(
                "{p}.whenUnsatisfiable: Unsupported value: \"{}\": supported values: \"DoNotSchedule\", \"ScheduleAnyway\"",
                c.when_unsatisfiable
            ));
        }
    }
    let Some(a) = &spec.affinity else { return };
    for (field, aff) in [
        ("podAffinity", &a.pod_affinity),
        ("podAntiAffinity", &a.pod_anti_affinity),
    ] {
        let Some(aff) = aff else { continue };
        let p = format!("{at}.affinity.{field}");
        for (i, t) in aff.required.iter().enumerate() {
            if t.topology_key.is_empty() {
                causes.push(format!(
                    "{p}.requiredDuringSchedulingIgnoredDuringExecution[{i}].topologyKey: Required value: can not be empty"
                ));
            }
        }
        for (i, t) in aff.preferred.iter().enumerate() {
            let q = format!("{p}.preferredDuringSchedulingIgnoredDuringExecution[{i}]");
            if !(1..=100).contains(&t.weight) {
                causes.push(format!(
                    "{q}.weight: Invalid value: {}: must be in the range 1-100",
                    t.weight
                ));
            }
            if t.pod_affinity_term.topology_key.is_empty() {
                causes.push(format!(
                    "{q}.podAffinityTerm.topologyKey: Required value: can not be empty"
                ));
            }
        }
    }
    if let Some(n) = &a.node_affinity {
        for (i, t) in n.preferred.iter().enumerate() {
            if !(1..=100).contains(&t.weight) {
                causes.push(format!(
                    "{at}.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[{i}].weight: Invalid value: {}: must be in the range 1-100",
                    t.weight
                ));
            }
        }
    }
}

/// Largest value a user-defined PriorityClass may have (`HighestUserDefinablePriority`).
pub const HIGHEST_USER_DEFINABLE_PRIORITY: i64 = 1_000_000_000;

/// Quantities that do not parse are refused when the request is decoded (400), before
/// validation, in the API server's words.
fn check_quantities(obj: &Object) -> Result<(), ApiError> {
    let spec = match obj {
        Object::Pod(p) => &p.spec,
        Object::Deployment(d) => &d.spec.template.spec,
        Object::ReplicaSet(r) => &r.spec.template.spec,
        Object::Job(j) => &j.spec.template.spec,
        Object::CronJob(c) => &c.spec.job_template.spec.template.spec,
        Object::DaemonSet(d) => &d.spec.template.spec,
        _ => return Ok(()),
    };
    let bad = spec
        .containers
        .iter()
        .flat_map(|c| c.resources.requests.iter().chain(c.resources.limits.iter()))
        .any(|(k, v)| match k.as_str() {
            "cpu" => crate::api::quantity::parse_cpu_milli(v).is_none(),
            _ => crate::api::quantity::parse_bytes(v).is_none(),
        });
    if bad {
        let kind = obj.kind();
        return Err(ApiError::bad_request(format!(
            "{} in version \"{}\" cannot be handled as a {}: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
            kind.name(),
            kind.api_version().rsplit('/').next().unwrap_or("v1"),
            kind.name()
        )));
    }
    Ok(())
}

/// An integer field of the request and the Go struct that declares it upstream,
/// for the decoder's `json: cannot unmarshal number …` error.
struct IntField {
    /// The Go struct type the field belongs to (`DeploymentSpec`, `Probe`…).
    go_struct: &'static str,
    /// The JSON path without list indexes, as encoding/json's error context joins it
    /// (`spec.template.spec.containers.ports.containerPort`).
    path: String,
    /// The value written.
    value: i64,
}

/// The int32 fields of `obj` a user can write, in document order. kubeplay stores
/// every integer as an i64; upstream declares these as int32 (or an `IntOrString`'s
/// int32), so a larger number never reaches validation there.
fn int32_fields(obj: &Object) -> Vec<IntField> {
    let mut out = Vec::new();
    let mut push = |go_struct: &'static str, path: String, value: i64| {
        out.push(IntField {
            go_struct,
            path,
            value,
        })
    };
    let int = |v: &IntOrString| match v {
        IntOrString::Int(n) => Some(*n),
        IntOrString::String(_) => None,
    };
    let pod_spec = |at: &str, spec: &PodSpec, push: &mut dyn FnMut(&'static str, String, i64)| {
        for (list, containers) in [
            ("containers", &spec.containers),
            ("initContainers", &spec.init_containers),
        ] {
            for c in containers {
                for p in &c.ports {
                    push(
                        "ContainerPort",
                        format!("{at}.{list}.ports.containerPort"),
                        p.container_port,
                    );
                    push(
                        "ContainerPort",
                        format!("{at}.{list}.ports.hostPort"),
                        p.host_port,
                    );
                }
                for (name, probe) in [
                    ("livenessProbe", &c.liveness_probe),
                    ("readinessProbe", &c.readiness_probe),
                    ("startupProbe", &c.startup_probe),
                ] {
                    let Some(probe) = probe else { continue };
                    let p = format!("{at}.{list}.{name}");
                    for (action, port) in [
                        ("httpGet", probe.http_get.as_ref().map(|h| &h.port)),
                        ("tcpSocket", probe.tcp_socket.as_ref().map(|t| &t.port)),
                    ] {
                        if let Some(n) = port.and_then(int) {
                            let go = if action == "httpGet" {
                                "HTTPGetAction"
                            } else {
                                "TCPSocketAction"
                            };
                            push(go, format!("{p}.{action}.port"), n);
                        }
                    }
                    for (field, value) in probe_counts(probe) {
                        push("Probe", format!("{p}.{field}"), value);
                    }
                }
            }
        }
        if let Some(a) = &spec.affinity {
            if let Some(n) = &a.node_affinity {
                for t in &n.preferred {
                    push("PreferredSchedulingTerm", format!("{at}.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution.weight"), t.weight);
                }
            }
            for (field, aff) in [
                ("podAffinity", &a.pod_affinity),
                ("podAntiAffinity", &a.pod_anti_affinity),
            ] {
                for t in aff.iter().flat_map(|a| &a.preferred) {
                    push("WeightedPodAffinityTerm", format!("{at}.affinity.{field}.preferredDuringSchedulingIgnoredDuringExecution.weight"), t.weight);
                }
            }
        }
        for c in &spec.topology_spread_constraints {
            push(
                "TopologySpreadConstraint",
                format!("{at}.topologySpreadConstraints.maxSkew"),
                c.max_skew,
            );
        }
        if let Some(p) = spec.priority {
            push("PodSpec", format!("{at}.priority"), p);
        }
    };
    match obj {
        Object::Deployment(d) => {
            let s = &d.spec;
            push("DeploymentSpec", "spec.replicas".into(), s.replicas);
            push(
                "DeploymentSpec",
                "spec.minReadySeconds".into(),
                s.min_ready_seconds,
            );
            push(
                "DeploymentSpec",
                "spec.revisionHistoryLimit".into(),
                s.revision_history_limit,
            );
            push(
                "DeploymentSpec",
                "spec.progressDeadlineSeconds".into(),
                s.progress_deadline_seconds,
            );
            if let Some(ru) = &s.strategy.rolling_update {
                for (field, v) in [
                    ("maxUnavailable", &ru.max_unavailable),
                    ("maxSurge", &ru.max_surge),
                ] {
                    if let Some(n) = int(v) {
                        push(
                            "RollingUpdateDeployment",
                            format!("spec.strategy.rollingUpdate.{field}"),
                            n,
                        );
                    }
                }
            }
            pod_spec("spec.template.spec", &s.template.spec, &mut push);
        }
        Object::ReplicaSet(rs) => {
            push("ReplicaSetSpec", "spec.replicas".into(), rs.spec.replicas);
            push(
                "ReplicaSetSpec",
                "spec.minReadySeconds".into(),
                rs.spec.min_ready_seconds,
            );
            pod_spec("spec.template.spec", &rs.spec.template.spec, &mut push);
        }
        Object::Pod(p) => pod_spec("spec", &p.spec, &mut push),
        Object::Job(j) => {
            for (f, v) in [
                ("parallelism", j.spec.parallelism),
                ("completions", j.spec.completions),
                ("backoffLimit", j.spec.backoff_limit),
                ("ttlSecondsAfterFinished", j.spec.ttl_seconds_after_finished),
            ] {
                if let Some(v) = v {
                    push("JobSpec", format!("spec.{f}"), v);
                }
            }
            pod_spec("spec.template.spec", &j.spec.template.spec, &mut push);
        }
        Object::CronJob(cj) => {
            let t = &cj.spec.job_template.spec;
            for (f, v) in [
                ("parallelism", t.parallelism),
                ("completions", t.completions),
            ] {
                if let Some(v) = v {
                    push("JobSpec", format!("spec.jobTemplate.spec.{f}"), v);
                }
            }
            pod_spec(
                "spec.jobTemplate.spec.template.spec",
                &t.template.spec,
                &mut push,
            );
        }
        Object::DaemonSet(d) => {
            push(
                "DaemonSetSpec",
                "spec.minReadySeconds".into(),
                d.spec.min_ready_seconds,
            );
            pod_spec("spec.template.spec", &d.spec.template.spec, &mut push);
        }
        Object::PodDisruptionBudget(pdb) => {
            for (field, v) in [
                ("minAvailable", &pdb.spec.min_available),
                ("maxUnavailable", &pdb.spec.max_unavailable),
            ] {
                if let Some(n) = v.as_ref().and_then(int) {
                    push("PodDisruptionBudgetSpec", format!("spec.{field}"), n);
                }
            }
        }
        Object::PriorityClass(pc) => push("PriorityClass", "value".into(), pc.value),
        Object::Service(svc) => {
            for p in &svc.spec.ports {
                push("ServicePort", "spec.ports.port".into(), p.port);
                push("ServicePort", "spec.ports.nodePort".into(), p.node_port);
            }
        }
        _ => {}
    }
    out
}

/// A number too big for an int32 field fails when the request is decoded (400), before
/// admission and validation: encoding/json's `UnmarshalTypeError` inside the API
/// server's "cannot be handled as" wrapper, e.g. `Deployment in version "v1" cannot be
/// handled as a Deployment: json: cannot unmarshal number 9223372036854775807 into Go
/// struct field DeploymentSpec.spec.replicas of type int32`. The decoder reports the
/// first such field; so does this.
fn check_int32(obj: &Object) -> Result<(), ApiError> {
    let Some(f) = int32_fields(obj)
        .into_iter()
        .find(|f| i32::try_from(f.value).is_err())
    else {
        return Ok(());
    };
    let kind = obj.kind();
    Err(ApiError::bad_request(format!(
        "{} in version \"{}\" cannot be handled as a {}: json: cannot unmarshal number {} into Go struct field {}.{} of type int32",
        kind.name(),
        kind.api_version().rsplit('/').next().unwrap_or("v1"),
        kind.name(),
        f.value,
        f.go_struct,
        f.path
    )))
}

/// `ValidateNonnegativeField`.
fn nonnegative(causes: &mut Vec<String>, path: &str, value: i64) {
    if value < 0 {
        causes.push(format!(
            "{path}: Invalid value: {value}: must be greater than or equal to 0"
        ));
    }
}

/// The integer rules of a pod spec (`pkg/apis/core/validation`): `validateProbe`'s
/// non-negative fields, `validateContainerPorts`' port range, `activeDeadlineSeconds`
/// in 1..MaxInt32. `at` is `spec` or `spec.template.spec`.
fn validate_pod_spec_numbers(causes: &mut Vec<String>, at: &str, spec: &PodSpec) {
    for (list, containers) in [
        ("containers", &spec.containers),
        ("initContainers", &spec.init_containers),
    ] {
        for (i, c) in containers.iter().enumerate() {
            let p = format!("{at}.{list}[{i}]");
            for (j, port) in c.ports.iter().enumerate() {
                if !(1..=65535).contains(&port.container_port) {
                    causes.push(format!(
                        "{p}.ports[{j}].containerPort: Invalid value: {}: must be between 1 and 65535, inclusive",
                        port.container_port
                    ));
                }
                // 0 means "no host port".
                if port.host_port != 0 && !(1..=65535).contains(&port.host_port) {
                    causes.push(format!(
                        "{p}.ports[{j}].hostPort: Invalid value: {}: must be between 1 and 65535, inclusive",
                        port.host_port
                    ));
                }
            }
            for (name, probe) in [
                ("livenessProbe", &c.liveness_probe),
                ("readinessProbe", &c.readiness_probe),
                ("startupProbe", &c.startup_probe),
            ] {
                let Some(probe) = probe else { continue };
                for (field, value) in probe_counts(probe) {
                    nonnegative(causes, &format!("{p}.{name}.{field}"), value);
                }
            }
        }
    }
    if let Some(v) = spec.extra.get("activeDeadlineSeconds") {
        // Kept as written (the simulation does not act on it), so any JSON value.
        let ok = v
            .as_i64()
            .is_some_and(|n| (1..=i64::from(i32::MAX)).contains(&n));
        if !ok {
            causes.push(format!(
                "{at}.activeDeadlineSeconds: Invalid value: {v}: must be between 1 and 2147483647, inclusive"
            ));
        }
    }
}

/// `ValidatePodDisruptionBudgetSpec` (pkg/apis/policy/validation): each of
/// minAvailable / maxUnavailable a non-negative int or a valid percentage
/// (`ValidatePositiveIntOrPercent`), and a percentage at most 100%
/// (`IsNotMoreThan100Percent`).
fn validate_pdb(causes: &mut Vec<String>, pdb: &PodDisruptionBudget) {
    for (field, v) in [
        ("minAvailable", &pdb.spec.min_available),
        ("maxUnavailable", &pdb.spec.max_unavailable),
    ] {
        let Some(v) = v else { continue };
        positive_int_or_percent(causes, &format!("spec.{field}"), v);
        not_more_than_100_percent(causes, &format!("spec.{field}"), v);
    }
}

/// `ValidatePositiveIntOrPercent`: an int ≥ 0, or a string matching `[0-9]+%`.
fn positive_int_or_percent(causes: &mut Vec<String>, path: &str, v: &IntOrString) {
    match v {
        IntOrString::Int(n) => nonnegative(causes, path, *n),
        IntOrString::String(s) if valid_percent(s).is_none() => causes.push(format!(
            "{path}: Invalid value: {}: a valid percent string must be a numeric string followed by an ending '%' (e.g. '1%',  or '93%', regex used for validation is '[0-9]+%')",
            go_int_or_string(v)
        )),
        IntOrString::String(_) => {}
    }
}

/// `IsNotMoreThan100Percent`: a valid percentage whose number (Atoi: an over-long one
/// reads as 0, as upstream) is over 100 is refused.
fn not_more_than_100_percent(causes: &mut Vec<String>, path: &str, v: &IntOrString) {
    if let IntOrString::String(s) = v {
        if valid_percent(s).is_some_and(|p| p > 100) {
            causes.push(format!(
                "{path}: Invalid value: {}: must not be greater than 100%",
                go_int_or_string(v)
            ));
        }
    }
}

fn validate_selector_operators(causes: &mut Vec<String>, sel: &LabelSelector) {
    for (i, r) in sel.match_expressions.iter().enumerate() {
        if !matches!(
            r.operator.as_str(),
            "In" | "NotIn" | "Exists" | "DoesNotExist"
        ) {
            causes.push(format!(
                "spec.selector.matchExpressions[{i}].operator: Invalid value: \"{}\": not a valid selector operator",
                r.operator
            ));
        }
    }
}

/// An `intstr.IntOrString` as the API server's field errors print it: the value is
/// not a `fmt.Stringer` (String has a pointer receiver), so `%#v` shows the struct.
fn go_int_or_string(v: &IntOrString) -> String {
    match v {
        IntOrString::Int(n) => format!("intstr.IntOrString{{Type:0, IntVal:{n}, StrVal:\"\"}}"),
        IntOrString::String(s) => format!(
            "intstr.IntOrString{{Type:1, IntVal:0, StrVal:{}}}",
            serde_json::Value::String(s.clone())
        ),
    }
}

/// `IsValidPercent`: `[0-9]+%`.
fn valid_percent(s: &str) -> Option<i64> {
    let digits = s.strip_suffix('%')?;
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Atoi of an over-long number fails upstream too (the value is then 0).
    Some(digits.parse().unwrap_or(0))
}

/// `getIntOrPercentValue`: a valid percentage's number, else `IntValue()` (which
/// Atoi-parses a string, 0 when it is not a number).
fn int_or_percent_value(v: &IntOrString) -> i64 {
    match v {
        IntOrString::Int(n) => *n,
        IntOrString::String(s) => valid_percent(s).unwrap_or_else(|| s.parse().unwrap_or(0)),
    }
}

/// `ValidateDeploymentStrategy` and `ValidateRollingUpdateDeployment`
/// (pkg/apis/apps/validation): `rollingUpdate` is forbidden with Recreate; both values
/// non-negative ints or valid percentages, not both 0, and only `maxUnavailable` capped
/// at 100% (`maxSurge: 200%` is valid).
fn validate_strategy(causes: &mut Vec<String>, d: &Deployment) {
    let st = &d.spec.strategy;
    let ru = match st.type_.as_str() {
        "Recreate" => {
            if st.rolling_update.is_some() {
                causes.push(
                    "spec.strategy.rollingUpdate: Forbidden: may not be specified when strategy `type` is 'Recreate'"
                        .into(),
                );
            }
            return;
        }
        "RollingUpdate" => match &st.rolling_update {
            Some(ru) => ru,
            // Defaulting fills it in; nothing to check here.
            None => return,
        },
        other => {
            let ru = match &st.rolling_update {
                None => "(*apps.RollingUpdateDeployment)(nil)".to_string(),
                // Go prints the pointer's address; any fixed one stands for it.
                Some(_) => "(*apps.RollingUpdateDeployment)(0xc000000000)".to_string(),
            };
            causes.push(format!(
                "spec.strategy: Unsupported value: apps.DeploymentStrategy{{Type:{}, RollingUpdate:{ru}}}: supported values: \"Recreate\", \"RollingUpdate\"",
                serde_json::Value::String(other.to_string())
            ));
            return;
        }
    };
    let at = "spec.strategy.rollingUpdate";
    positive_int_or_percent(causes, &format!("{at}.maxUnavailable"), &ru.max_unavailable);
    positive_int_or_percent(causes, &format!("{at}.maxSurge"), &ru.max_surge);
    if int_or_percent_value(&ru.max_unavailable) == 0 && int_or_percent_value(&ru.max_surge) == 0 {
        causes.push(format!(
            "spec.strategy.rollingUpdate.maxUnavailable: Invalid value: {}: may not be 0 when `maxSurge` is 0",
            go_int_or_string(&ru.max_unavailable)
        ));
    }
    not_more_than_100_percent(causes, &format!("{at}.maxUnavailable"), &ru.max_unavailable);
}

/// `IsValidLabelValue` (apimachinery `util/validation`): its messages, joined by `;`
/// as kubectl's `parseLabels` joins them.
pub fn label_value_errors(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 63 {
        errs.push("must be no more than 63 characters".to_string());
    }
    let ok_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.';
    let ok = v.is_empty()
        || (v.chars().all(ok_char)
            && v.starts_with(|c: char| c.is_ascii_alphanumeric())
            && v.ends_with(|c: char| c.is_ascii_alphanumeric()));
    if !ok {
        errs.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')".to_string());
    }
    errs
}

const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";

/// `IsQualifiedName` (apimachinery util/validation): `[prefix/]name`.
pub fn qualified_name_errors(value: &str) -> Vec<String> {
    let regex_error = |what: &str| {
        format!("{what}must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '{QUALIFIED_NAME_FMT}')")
    };
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else if let Some(e) = dns1123_subdomain_error(prefix) {
                // The message after the field name: "a lowercase RFC 1123 subdomain …".
                let msg = e
                    .split_once(": Invalid value: ")
                    .map(|(_, r)| r)
                    .unwrap_or(&e);
                let msg = msg.split_once(": ").map(|(_, r)| r).unwrap_or(msg);
                errs.push(format!("prefix part {msg}"));
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error("")
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 characters".to_string());
    }
    let ok = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    if !ok {
        errs.push(format!("name part {}", regex_error("")));
    }
    errs
}

/// `ValidateLabels` and `ValidateAnnotations` of ObjectMeta: label keys are qualified
/// names and values valid label values; annotation keys (lower-cased) qualified names.
fn validate_meta_maps(causes: &mut Vec<String>, m: &ObjectMeta) {
    let quote = |s: &str| serde_json::Value::String(s.to_string()).to_string();
    for (k, v) in &m.labels {
        for msg in qualified_name_errors(k) {
            causes.push(format!(
                "metadata.labels: Invalid value: {}: {msg}",
                quote(k)
            ));
        }
        for msg in label_value_errors(v) {
            causes.push(format!(
                "metadata.labels: Invalid value: {}: {msg}",
                quote(v)
            ));
        }
    }
    for k in m.annotations.keys() {
        for msg in qualified_name_errors(&k.to_lowercase()) {
            causes.push(format!(
                "metadata.annotations: Invalid value: {}: {msg}",
                quote(k)
            ));
        }
    }
}

/// Validate `obj` (against `old` on update). Returns a 422 listing every cause.
pub fn validate(obj: &Object, old: Option<&Object>) -> Result<(), ApiError> {
    check_quantities(obj)?;
    check_int32(obj)?;
    let mut causes = Vec::new();
    let name = &obj.meta().name;
    match obj {
        Object::Event(_) => {}
        // ValidateRBACName: any path segment name (`system:discovery` is fine).
        Object::Role(_)
        | Object::ClusterRole(_)
        | Object::RoleBinding(_)
        | Object::ClusterRoleBinding(_) => causes.extend(path_segment_errors(name)),
        // ValidateServiceName: a DNS-1035 label (it becomes a DNS name).
        Object::Service(_) => causes.extend(dns1035_label_errors(name).into_iter().map(|m| {
            format!(
                "metadata.name: Invalid value: {}: {m}",
                serde_json::Value::String(name.clone())
            )
        })),
        _ => {
            if let Some(e) = dns1123_subdomain_error(name) {
                causes.push(e);
            }
        }
    }
    validate_meta_maps(&mut causes, obj.meta());
    match obj {
        Object::Deployment(d) => {
            validate_template(
                &mut causes,
                d.spec.replicas,
                &d.spec.selector,
                &d.spec.template,
            );
            validate_selector_operators(&mut causes, &d.spec.selector);
            validate_scheduling(&mut causes, "spec.template.spec", &d.spec.template.spec);
            validate_pod_spec_numbers(&mut causes, "spec.template.spec", &d.spec.template.spec);
            validate_strategy(&mut causes, d);
            // ValidateDeploymentSpec: after replicas (in validate_template) come these.
            let s = &d.spec;
            nonnegative(&mut causes, "spec.minReadySeconds", s.min_ready_seconds);
            nonnegative(
                &mut causes,
                "spec.revisionHistoryLimit",
                s.revision_history_limit,
            );
            nonnegative(
                &mut causes,
                "spec.progressDeadlineSeconds",
                s.progress_deadline_seconds,
            );
            if s.progress_deadline_seconds <= s.min_ready_seconds {
                causes.push(format!(
                    "spec.progressDeadlineSeconds: Invalid value: {}: must be greater than minReadySeconds",
                    s.progress_deadline_seconds
                ));
            }
            if let Some(Object::Deployment(o)) = old {
                if o.spec.selector != d.spec.selector {
                    causes.push(format!(
                        "spec.selector: Invalid value: {}: field is immutable",
                        go_selector(&d.spec.selector)
                    ));
                }
            }
        }
        Object::ReplicaSet(rs) => {
            validate_template(
                &mut causes,
                rs.spec.replicas,
                &rs.spec.selector,
                &rs.spec.template,
            );
            validate_selector_operators(&mut causes, &rs.spec.selector);
            validate_scheduling(&mut causes, "spec.template.spec", &rs.spec.template.spec);
            validate_pod_spec_numbers(&mut causes, "spec.template.spec", &rs.spec.template.spec);
            nonnegative(
                &mut causes,
                "spec.minReadySeconds",
                rs.spec.min_ready_seconds,
            );
        }
        Object::PriorityClass(pc) => {
            // System classes are created by the API server itself, with their values.
            let system = crate::apiserver::admission::system_priority_classes()
                .iter()
                .any(|s| s.metadata.name == pc.metadata.name && s.value == pc.value);
            if !system {
                if pc.metadata.name.starts_with("system-") {
                    causes.push(format!(
                        "metadata.name: Invalid value: \"{}\": priority class names with 'system-' prefix are reserved",
                        pc.metadata.name
                    ));
                }
                if pc.value < i64::from(i32::MIN) {
                    // value is an int32 upstream.
                    causes.push(format!(
                        "value: Invalid value: {}: must be a 32-bit integer",
                        pc.value
                    ));
                }
                if pc.value > HIGHEST_USER_DEFINABLE_PRIORITY {
                    causes.push(format!(
                        "value: Forbidden: maximum allowed value of a user defined priority is {HIGHEST_USER_DEFINABLE_PRIORITY}"
                    ));
                }
            }
            if !pc.preemption_policy.is_empty()
                && pc.preemption_policy != "PreemptLowerPriority"
                && pc.preemption_policy != "Never"
            {
                causes.push(format!(
                    "preemptionPolicy: Unsupported value: \"{}\": supported values: \"Never\", \"PreemptLowerPriority\"",
                    pc.preemption_policy
                ));
            }
        }
        Object::Pod(p) => {
            if p.spec.containers.is_empty() {
                causes.push("spec.containers: Required value".into());
            }
            for (i, c) in p.spec.containers.iter().enumerate() {
                if c.image.is_empty() {
                    causes.push(format!("spec.containers[{i}].image: Required value"));
                }
            }
            validate_scheduling(&mut causes, "spec", &p.spec);
            validate_pod_spec_numbers(&mut causes, "spec", &p.spec);
        }
        Object::PodDisruptionBudget(pdb) => validate_pdb(&mut causes, pdb),
        Object::DaemonSet(ds) => {
            validate_template(&mut causes, 0, &ds.spec.selector, &ds.spec.template);
            validate_selector_operators(&mut causes, &ds.spec.selector);
            validate_scheduling(&mut causes, "spec.template.spec", &ds.spec.template.spec);
            validate_pod_spec_numbers(&mut causes, "spec.template.spec", &ds.spec.template.spec);
            let st = &ds.spec.update_strategy;
            if st.type_ != "RollingUpdate" && st.type_ != "OnDelete" {
                causes.push(format!(
                    "spec.updateStrategy.type: Unsupported value: \"{}\": supported values: \"OnDelete\", \"RollingUpdate\"",
                    st.type_
                ));
            }
            if let Some(Object::DaemonSet(o)) = old {
                if o.spec.selector != ds.spec.selector {
                    causes.push(format!(
                        "spec.selector: Invalid value: {}: field is immutable",
                        go_selector(&ds.spec.selector)
                    ));
                }
            }
        }
        Object::StatefulSet(ss) => validate_stateful_set(&mut causes, ss, old),
        Object::HorizontalPodAutoscaler(h) => validate_hpa(&mut causes, h),
        Object::PersistentVolumeClaim(c) => {
            validate_claim_spec(&mut causes, "spec", &c.spec);
            if let Some(Object::PersistentVolumeClaim(o)) = old {
                // ValidatePersistentVolumeClaimUpdate: only the requests may change
                // (and the binder's volumeName, once).
                let mut a = c.spec.clone();
                let mut b = o.spec.clone();
                a.resources.requests.clear();
                b.resources.requests.clear();
                if b.volume_name.is_empty() {
                    b.volume_name = a.volume_name.clone();
                }
                if a != b {
                    causes.push("spec: Forbidden: spec is immutable after creation except resources.requests and volumeAttributesClassName for bound claims".into());
                }
            }
        }
        Object::PersistentVolume(v) => {
            if v.spec.access_modes.is_empty() {
                causes.push("spec.accessModes: Required value".into());
            }
            if !v.spec.capacity.contains_key("storage") {
                causes.push("spec.capacity: Required value".into());
            }
        }
        Object::StorageClass(sc) => {
            if sc.provisioner.is_empty() {
                causes.push("provisioner: Required value".into());
            }
            if let Some(Object::StorageClass(o)) = old {
                if o.provisioner != sc.provisioner || o.parameters != sc.parameters {
                    causes
                        .push("parameters: Forbidden: updates to parameters are forbidden.".into());
                }
            }
        }
        Object::Job(j) => {
            validate_job_spec(&mut causes, "spec", &j.spec);
            if let Some(Object::Job(o)) = old {
                validate_job_update(&mut causes, &j.spec, &o.spec);
            }
        }
        Object::CronJob(cj) => {
            if let Err(e) = crate::api::cron::parse(&cj.spec.schedule) {
                causes.push(format!(
                    "spec.schedule: Invalid value: \"{}\": {e}",
                    cj.spec.schedule
                ));
            }
            if let Some(tz) = &cj.spec.time_zone {
                if crate::api::cron::zone_offset(tz).is_none() {
                    causes.push(format!(
                        "spec.timeZone: Invalid value: \"{tz}\": unknown time zone {tz}"
                    ));
                }
            }
            if !["Allow", "Forbid", "Replace"].contains(&cj.spec.concurrency_policy.as_str()) {
                causes.push(format!(
                    "spec.concurrencyPolicy: Unsupported value: \"{}\": supported values: \"Allow\", \"Forbid\", \"Replace\"",
                    cj.spec.concurrency_policy
                ));
            }
            for (f, v) in [
                ("startingDeadlineSeconds", cj.spec.starting_deadline_seconds),
                (
                    "successfulJobsHistoryLimit",
                    cj.spec.successful_jobs_history_limit,
                ),
                ("failedJobsHistoryLimit", cj.spec.failed_jobs_history_limit),
            ] {
                if let Some(v) = v {
                    nonnegative(&mut causes, &format!("spec.{f}"), v);
                }
            }
            validate_job_spec(
                &mut causes,
                "spec.jobTemplate.spec",
                &cj.spec.job_template.spec,
            );
        }
        Object::LimitRange(lr) => causes.extend(super::limit_ranger::validate_limit_range(lr)),
        Object::Role(r) => {
            validate_rules(&mut causes, r.rules.as_deref().unwrap_or_default(), true)
        }
        Object::ClusterRole(r) => {
            validate_rules(&mut causes, r.rules.as_deref().unwrap_or_default(), false)
        }
        Object::RoleBinding(b) => {
            let old = match old {
                Some(Object::RoleBinding(o)) => Some(&o.role_ref),
                _ => None,
            };
            validate_binding(&mut causes, &b.role_ref, &b.subjects, old, true);
        }
        Object::ClusterRoleBinding(b) => {
            let old = match old {
                Some(Object::ClusterRoleBinding(o)) => Some(&o.role_ref),
                _ => None,
            };
            validate_binding(&mut causes, &b.role_ref, &b.subjects, old, false);
        }
        Object::Service(svc) => {
            let old = match old {
                Some(Object::Service(o)) => Some(&**o),
                _ => None,
            };
            validate_service(&mut causes, svc, old);
        }
        _ => {}
    }
    if causes.is_empty() {
        Ok(())
    } else {
        Err(ApiError::invalid(obj.kind(), name, &causes))
    }
}

/// `path.IsValidPathSegmentName` (ValidateRBACName).
fn path_segment_errors(name: &str) -> Vec<String> {
    let bad = |m: &str| format!("metadata.name: Invalid value: \"{name}\": {m}");
    if name.is_empty() {
        return vec!["metadata.name: Required value: name or generateName is required".into()];
    }
    if name == "." || name == ".." {
        return vec![bad(&format!("may not be '{name}'"))];
    }
    let mut out = Vec::new();
    for c in ['/', '%'] {
        if name.contains(c) {
            out.push(bad(&format!("may not contain '{c}'")));
        }
    }
    out
}

/// `ValidatePolicyRule` for each rule (`pkg/apis/rbac/validation/validation.go`).
fn validate_rules(causes: &mut Vec<String>, rules: &[PolicyRule], namespaced: bool) {
    for (i, r) in rules.iter().enumerate() {
        let path = format!("rules[{i}]");
        if r.verbs.is_empty() {
            causes.push(format!(
                "{path}.verbs: Required value: verbs must contain at least one value"
            ));
        }
        if !r.non_resource_urls.is_empty() {
            if namespaced {
                causes.push(format!(
                    "{path}.nonResourceURLs: Invalid value: []string{{{}}}: namespaced rules cannot apply to non-resource URLs",
                    r.non_resource_urls
                        .iter()
                        .map(|u| format!("\"{u}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            if !r.api_groups.is_empty() || !r.resources.is_empty() {
                causes.push(format!(
                    "{path}.nonResourceURLs: Invalid value: []string{{{}}}: rules cannot apply to both regular resources and non-resource URLs",
                    r.non_resource_urls
                        .iter()
                        .map(|u| format!("\"{u}\""))
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
            }
            continue;
        }
        if r.api_groups.is_empty() {
            causes.push(format!(
                "{path}.apiGroups: Required value: resource rules must supply at least one api group"
            ));
        }
        if r.resources.is_empty() {
            causes.push(format!(
                "{path}.resources: Required value: resource rules must supply at least one resource"
            ));
        }
    }
}

/// `ValidateRoleBinding` / `ValidateClusterRoleBinding`: the role reference and the
/// subjects; an update may not change the role reference.
fn validate_binding(
    causes: &mut Vec<String>,
    role_ref: &RoleRef,
    subjects: &[Subject],
    old: Option<&RoleRef>,
    namespaced: bool,
) {
    if role_ref.api_group != RBAC_GROUP {
        causes.push(format!(
            "roleRef.apiGroup: Unsupported value: \"{}\": supported values: \"{RBAC_GROUP}\"",
            role_ref.api_group
        ));
    }
    match (role_ref.kind.as_str(), namespaced) {
        ("Role" | "ClusterRole", true) | ("ClusterRole", false) => {}
        (k, true) => causes.push(format!(
            "roleRef.kind: Unsupported value: \"{k}\": supported values: \"Role\", \"ClusterRole\""
        )),
        (k, false) => causes.push(format!(
            "roleRef.kind: Unsupported value: \"{k}\": supported values: \"ClusterRole\""
        )),
    }
    if role_ref.name.is_empty() {
        causes.push("roleRef.name: Required value".into());
    }
    for (i, s) in subjects.iter().enumerate() {
        let path = format!("subjects[{i}]");
        if s.name.is_empty() {
            causes.push(format!("{path}.name: Required value"));
        }
        match s.kind.as_str() {
            "ServiceAccount" => {
                if !s.api_group.is_empty() {
                    causes.push(format!(
                        "{path}.apiGroup: Unsupported value: \"{}\": supported values: \"\"",
                        s.api_group
                    ));
                }
                if !namespaced && s.namespace.is_empty() {
                    causes.push(format!("{path}.namespace: Required value"));
                }
            }
            "User" | "Group" => {
                if s.api_group != RBAC_GROUP {
                    causes.push(format!(
                        "{path}.apiGroup: Unsupported value: \"{}\": supported values: \"{RBAC_GROUP}\"",
                        s.api_group
                    ));
                }
            }
            k => causes.push(format!(
                "{path}.kind: Unsupported value: \"{k}\": supported values: \"ServiceAccount\", \"User\", \"Group\""
            )),
        }
    }
    if let Some(o) = old {
        if o != role_ref {
            causes.push(format!(
                "roleRef: Invalid value: rbac.RoleRef{{APIGroup:\"{}\", Kind:\"{}\", Name:\"{}\"}}: cannot change roleRef",
                role_ref.api_group, role_ref.kind, role_ref.name
            ));
        }
    }
}

fn go_selector(s: &LabelSelector) -> String {
    let labels: Vec<String> = s
        .match_labels
        .iter()
        .map(|(k, v)| format!("\"{k}\":\"{v}\""))
        .collect();
    format!(
        "v1.LabelSelector{{MatchLabels:map[string]string{{{}}}, MatchExpressions:[]v1.LabelSelectorRequirement(nil)}}",
        labels.join(", ")
    )
}

/// A probe's counts and durations by their JSON names: both the int32 decode check
/// and validation's `must be greater than or equal to 0` read them.
fn probe_counts(probe: &Probe) -> [(&'static str, i64); 5] {
    [
        ("initialDelaySeconds", probe.initial_delay_seconds),
        ("timeoutSeconds", probe.timeout_seconds),
        ("periodSeconds", probe.period_seconds),
        ("successThreshold", probe.success_threshold),
        ("failureThreshold", probe.failure_threshold),
    ]
}
