//! `ValidatePodSpec`'s rules the simulation models, for a Pod and every pod template
//! alike (`pkg/apis/core/validation/validation.go`): the containers (`validateContainers`,
//! `validateInitContainers`, `validateContainerCommon`, `validateContainerPorts`, the
//! probes), then affinity, topology spread and tolerations, then the numbers. Each
//! function takes `at`, the spec's path (`spec`, `spec.template.spec`,
//! `spec.jobTemplate.spec.template.spec`).

use super::meta::{nonnegative, validate_label_selector};
use super::names::{
    dns1123_label_errors, label_value_errors, port_name_errors, qualified_name_errors, quote,
};
use crate::api::*;

/// `validateContainers` then `validateInitContainers`: at least one container; each
/// with a DNS-label name unique across both lists, an image, valid ports and probes.
pub(super) fn validate_containers(causes: &mut Vec<String>, at: &str, spec: &PodSpec) {
    if spec.containers.is_empty() {
        causes.push(format!("{at}.containers: Required value"));
    }
    let mut names = std::collections::BTreeSet::new();
    for (list, containers) in [
        ("containers", &spec.containers),
        ("initContainers", &spec.init_containers),
    ] {
        for (i, c) in containers.iter().enumerate() {
            let p = format!("{at}.{list}[{i}]");
            validate_container_common(causes, &p, c);
            validate_probes(causes, &p, c);
            // Regular containers insert every name, init containers only a non-empty
            // one (validateInitContainers), so two unnamed init containers are not
            // also duplicates.
            if !names.insert(c.name.as_str()) && (list == "containers" || !c.name.is_empty()) {
                causes.push(format!("{p}.name: Duplicate value: {}", quote(&c.name)));
            }
        }
    }
}

/// `validateContainerCommon`: name, image, then `validateContainerPorts`.
fn validate_container_common(causes: &mut Vec<String>, p: &str, c: &Container) {
    if c.name.is_empty() {
        causes.push(format!("{p}.name: Required value"));
    } else {
        for m in dns1123_label_errors(&c.name) {
            causes.push(format!("{p}.name: Invalid value: {}: {m}", quote(&c.name)));
        }
    }
    if c.image.is_empty() {
        causes.push(format!("{p}.image: Required value"));
    }
    let mut port_names = std::collections::BTreeSet::new();
    for (j, port) in c.ports.iter().enumerate() {
        let q = format!("{p}.ports[{j}]");
        if !port.name.is_empty() {
            let errs = port_name_errors(&port.name);
            if !errs.is_empty() {
                for m in errs {
                    causes.push(format!(
                        "{q}.name: Invalid value: {}: {m}",
                        quote(&port.name)
                    ));
                }
            } else if !port_names.insert(port.name.as_str()) {
                causes.push(format!("{q}.name: Duplicate value: {}", quote(&port.name)));
            }
        }
        if port.container_port == 0 {
            causes.push(format!("{q}.containerPort: Required value"));
        } else if !(1..=65535).contains(&port.container_port) {
            causes.push(format!(
                "{q}.containerPort: Invalid value: {}: must be between 1 and 65535, inclusive",
                port.container_port
            ));
        }
        // 0 means "no host port".
        if port.host_port != 0 && !(1..=65535).contains(&port.host_port) {
            causes.push(format!(
                "{q}.hostPort: Invalid value: {}: must be between 1 and 65535, inclusive",
                port.host_port
            ));
        }
        if port.protocol.is_empty() {
            causes.push(format!("{q}.protocol: Required value"));
        } else if !matches!(port.protocol.as_str(), "TCP" | "UDP" | "SCTP") {
            causes.push(format!(
                "{q}.protocol: Unsupported value: {}: supported values: \"SCTP\", \"TCP\", \"UDP\"",
                quote(&port.protocol)
            ));
        }
    }
}

/// `validateLivenessProbe`, `validateReadinessProbe`, `validateStartupProbe`: one
/// handler, non-negative numbers, and a success threshold of 1 where only 1 makes sense.
fn validate_probes(causes: &mut Vec<String>, p: &str, c: &Container) {
    for (name, probe, one_success) in [
        ("livenessProbe", &c.liveness_probe, true),
        ("readinessProbe", &c.readiness_probe, false),
        ("startupProbe", &c.startup_probe, true),
    ] {
        let Some(probe) = probe else { continue };
        let q = format!("{p}.{name}");
        validate_handler(causes, &q, probe);
        for (field, value) in probe_counts(probe) {
            nonnegative(causes, &format!("{q}.{field}"), value);
        }
        if one_success && probe.success_threshold != 1 {
            causes.push(format!(
                "{q}.successThreshold: Invalid value: {}: must be 1",
                probe.success_threshold
            ));
        }
    }
}

/// `validateHandler` of a probe: exactly one handler type, each valid.
fn validate_handler(causes: &mut Vec<String>, q: &str, probe: &Probe) {
    let mut handlers = 0;
    let mut one = |causes: &mut Vec<String>, field: &str| {
        handlers += 1;
        if handlers > 1 {
            causes.push(format!(
                "{q}.{field}: Forbidden: may not specify more than 1 handler type"
            ));
            return false;
        }
        true
    };
    if let Some(e) = &probe.exec {
        if one(causes, "exec") && e.command.is_empty() {
            causes.push(format!("{q}.exec.command: Required value"));
        }
    }
    if let Some(h) = &probe.http_get {
        if one(causes, "httpGet") {
            validate_port_num_or_name(causes, &format!("{q}.httpGet.port"), &h.port);
        }
    }
    if let Some(t) = &probe.tcp_socket {
        if one(causes, "tcpSocket") {
            validate_port_num_or_name(causes, &format!("{q}.tcpSocket.port"), &t.port);
        }
    }
    for field in ["grpc", "sleep"] {
        if probe.extra.contains_key(field) {
            one(causes, field);
        }
    }
    if handlers == 0 {
        causes.push(format!("{q}: Required value: must specify a handler type"));
    }
}

/// `ValidatePortNumOrName`.
fn validate_port_num_or_name(causes: &mut Vec<String>, at: &str, port: &IntOrString) {
    match port {
        IntOrString::Int(n) if !(1..=65535).contains(n) => causes.push(format!(
            "{at}: Invalid value: {n}: must be between 1 and 65535, inclusive"
        )),
        IntOrString::Int(_) => {}
        IntOrString::String(s) => {
            for m in port_name_errors(s) {
                causes.push(format!("{at}: Invalid value: {}: {m}", quote(s)));
            }
        }
    }
}

/// `activeDeadlineSeconds` in 1..MaxInt32. (The container numbers are checked with
/// their containers.)
pub(super) fn validate_pod_spec_numbers(causes: &mut Vec<String>, at: &str, spec: &PodSpec) {
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

/// A probe's counts and durations by their JSON names: both the int32 decode check
/// and validation's `must be greater than or equal to 0` read them.
pub(super) fn probe_counts(probe: &Probe) -> [(&'static str, i64); 5] {
    [
        ("initialDelaySeconds", probe.initial_delay_seconds),
        ("timeoutSeconds", probe.timeout_seconds),
        ("periodSeconds", probe.period_seconds),
        ("successThreshold", probe.success_threshold),
        ("failureThreshold", probe.failure_threshold),
    ]
}

/// `validateAffinity` (node affinity, pod affinity, pod anti-affinity), then
/// `validateTopologySpreadConstraints`, then `ValidateTolerations`.
pub(super) fn validate_scheduling(causes: &mut Vec<String>, at: &str, spec: &PodSpec) {
    if let Some(a) = &spec.affinity {
        if let Some(n) = &a.node_affinity {
            validate_node_affinity(causes, &format!("{at}.affinity.nodeAffinity"), n);
        }
        for (field, aff) in [
            ("podAffinity", &a.pod_affinity),
            ("podAntiAffinity", &a.pod_anti_affinity),
        ] {
            let Some(aff) = aff else { continue };
            let p = format!("{at}.affinity.{field}");
            for (i, t) in aff.required.iter().enumerate() {
                let q = format!("{p}.requiredDuringSchedulingIgnoredDuringExecution[{i}]");
                validate_pod_affinity_term(causes, &q, t);
            }
            for (i, t) in aff.preferred.iter().enumerate() {
                let q = format!("{p}.preferredDuringSchedulingIgnoredDuringExecution[{i}]");
                if !(1..=100).contains(&t.weight) {
                    causes.push(format!(
                        "{q}.weight: Invalid value: {}: must be in the range 1-100",
                        t.weight
                    ));
                }
                validate_pod_affinity_term(
                    causes,
                    &format!("{q}.podAffinityTerm"),
                    &t.pod_affinity_term,
                );
            }
        }
    }
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
    validate_tolerations(causes, &format!("{at}.tolerations"), &spec.tolerations);
}

/// `validateNodeAffinity`: `ValidateNodeSelector` for the required terms,
/// `ValidatePreferredSchedulingTerms` for the preferred ones.
fn validate_node_affinity(causes: &mut Vec<String>, p: &str, n: &NodeAffinity) {
    if let Some(req) = &n.required {
        let q = format!("{p}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms");
        if req.node_selector_terms.is_empty() {
            causes.push(format!(
                "{q}: Required value: must have at least one node selector term"
            ));
        }
        for (i, t) in req.node_selector_terms.iter().enumerate() {
            validate_node_selector_term(causes, &format!("{q}[{i}]"), t);
        }
    }
    for (i, t) in n.preferred.iter().enumerate() {
        let q = format!("{p}.preferredDuringSchedulingIgnoredDuringExecution[{i}]");
        if !(1..=100).contains(&t.weight) {
            causes.push(format!(
                "{q}.weight: Invalid value: {}: must be in the range 1-100",
                t.weight
            ));
        }
        validate_node_selector_term(causes, &format!("{q}.preference"), &t.preference);
    }
}

/// `ValidateNodeSelectorTerm`'s match expressions (`ValidateNodeSelectorRequirement`;
/// node affinity allows any label value, so values are only counted).
fn validate_node_selector_term(causes: &mut Vec<String>, p: &str, t: &NodeSelectorTerm) {
    for (j, r) in t.match_expressions.iter().enumerate() {
        let q = format!("{p}.matchExpressions[{j}]");
        match r.operator.as_str() {
            "In" | "NotIn" if r.values.is_empty() => causes.push(format!(
                "{q}.values: Required value: must be specified when `operator` is 'In' or 'NotIn'"
            )),
            "Exists" | "DoesNotExist" if !r.values.is_empty() => causes.push(format!(
                "{q}.values: Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'"
            )),
            "Gt" | "Lt" if r.values.len() != 1 => causes.push(format!(
                "{q}.values: Required value: must be specified single value when `operator` is 'Lt' or 'Gt'"
            )),
            "In" | "NotIn" | "Exists" | "DoesNotExist" | "Gt" | "Lt" => {}
            op => causes.push(format!(
                "{q}.operator: Invalid value: {}: not a valid selector operator",
                quote(op)
            )),
        }
        for m in qualified_name_errors(&r.key) {
            causes.push(format!("{q}.key: Invalid value: {}: {m}", quote(&r.key)));
        }
    }
}

/// `validatePodAffinityTerm`: its selectors, namespaces, and a topology key that is a
/// label name.
fn validate_pod_affinity_term(causes: &mut Vec<String>, p: &str, t: &PodAffinityTerm) {
    if let Some(sel) = &t.label_selector {
        validate_label_selector(causes, sel, &format!("{p}.labelSelector"));
    }
    if let Some(sel) = &t.namespace_selector {
        validate_label_selector(causes, sel, &format!("{p}.namespaceSelector"));
    }
    for ns in &t.namespaces {
        for m in dns1123_label_errors(ns) {
            causes.push(format!("{p}.namespace: Invalid value: {}: {m}", quote(ns)));
        }
    }
    if t.topology_key.is_empty() {
        causes.push(format!("{p}.topologyKey: Required value: can not be empty"));
    }
    for m in qualified_name_errors(&t.topology_key) {
        causes.push(format!(
            "{p}.topologyKey: Invalid value: {}: {m}",
            quote(&t.topology_key)
        ));
    }
}

/// `ValidateTolerations`.
fn validate_tolerations(causes: &mut Vec<String>, at: &str, tolerations: &[Toleration]) {
    for (i, t) in tolerations.iter().enumerate() {
        let p = format!("{at}[{i}]");
        if !t.key.is_empty() {
            for m in qualified_name_errors(&t.key) {
                causes.push(format!("{p}.key: Invalid value: {}: {m}", quote(&t.key)));
            }
        }
        if t.key.is_empty() && t.operator != "Exists" {
            causes.push(format!(
                "{p}.operator: Invalid value: {}: operator must be Exists when `key` is empty, which means \"match all values and all keys\"",
                quote(&t.operator)
            ));
        }
        if t.toleration_seconds.is_some() && t.effect != "NoExecute" {
            causes.push(format!(
                "{p}.effect: Invalid value: {}: effect must be 'NoExecute' when `tolerationSeconds` is set",
                quote(&t.effect)
            ));
        }
        match t.operator.as_str() {
            "Equal" | "" => {
                let errs = label_value_errors(&t.value);
                if !errs.is_empty() {
                    causes.push(format!(
                        "{p}.operator: Invalid value: {}: {}",
                        quote(&t.value),
                        errs.join(";")
                    ));
                }
            }
            // Upstream prints the whole toleration (`%#v`) with this one.
            "Exists" if !t.value.is_empty() => causes.push(format!(
                "{p}.operator: Invalid value: core.Toleration{{Key:{}, Operator:\"Exists\", Value:{}, Effect:{}, TolerationSeconds:{}}}: value must be empty when `operator` is 'Exists'",
                quote(&t.key),
                quote(&t.value),
                quote(&t.effect),
                t.toleration_seconds
                    .map_or("(*int64)(nil)".to_string(), |_| "(*int64)(…)".to_string())
            )),
            "Exists" => {}
            op => causes.push(format!(
                "{p}.operator: Unsupported value: {}: supported values: \"Equal\", \"Exists\"",
                quote(op)
            )),
        }
        if !t.effect.is_empty()
            && !matches!(
                t.effect.as_str(),
                "NoSchedule" | "PreferNoSchedule" | "NoExecute"
            )
        {
            causes.push(format!(
                "{p}.effect: Unsupported value: {}: supported values: \"NoSchedule\", \"PreferNoSchedule\", \"NoExecute\"",
                quote(&t.effect)
            ));
        }
    }
}
