//! The warnings a Pod, or a workload's Pod template, gets from its strategy: fields
//! that are accepted but do nothing, or do something other than what they seem to
//! (an env var that hides an earlier one, a memory request of a fraction of a byte,
//! two containers claiming one port, a deprecated node label, a null selector that
//! matches no Pod).
//!
//! Upstream: `pkg/api/pod/warnings.go` (`GetWarningsForPod`,
//! `GetWarningsForPodTemplate`, `warningsForPodSpecAndMeta`,
//! `warningsForPodAffinityTerms`), `pkg/api/node/util.go`
//! (`GetNodeLabelDeprecatedMessage`, `GetWarningsForNodeSelectorTerm`),
//! `pkg/apis/core/pods/helpers.go` (`VisitContainersWithPath`), and each workload's
//! strategy (`WarningsOnCreate`, `WarningsOnUpdate` when the generation moves).
//!
//! Go ranges over maps in no order; kubeplay reads them in key order.

use crate::api::{Container, PodSpec, PodTemplateSpec};
use crate::api::{NodeSelectorTerm, Object, PodAffinityTerm, StringMap};
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// `deprecatedNodeLabels`.
const DEPRECATED_NODE_LABELS: [(&str, &str); 5] = [
    (
        "beta.kubernetes.io/arch",
        r#"deprecated since v1.14; use "kubernetes.io/arch" instead"#,
    ),
    (
        "beta.kubernetes.io/os",
        r#"deprecated since v1.14; use "kubernetes.io/os" instead"#,
    ),
    (
        "failure-domain.beta.kubernetes.io/region",
        r#"deprecated since v1.17; use "topology.kubernetes.io/region" instead"#,
    ),
    (
        "failure-domain.beta.kubernetes.io/zone",
        r#"deprecated since v1.17; use "topology.kubernetes.io/zone" instead"#,
    ),
    (
        "beta.kubernetes.io/instance-type",
        r#"deprecated since v1.17; use "node.kubernetes.io/instance-type" instead"#,
    ),
];

/// `deprecatedAnnotations`.
const DEPRECATED_ANNOTATIONS: [(&str, &str); 3] = [
    (
        "scheduler.alpha.kubernetes.io/critical-pod",
        r#"non-functional in v1.16+; use the "priorityClassName" field instead"#,
    ),
    (
        "security.alpha.kubernetes.io/sysctls",
        r#"non-functional in v1.11+; use the "sysctls" field instead"#,
    ),
    (
        "security.alpha.kubernetes.io/unsafe-sysctls",
        r#"non-functional in v1.11+; use the "sysctls" field instead"#,
    ),
];

const SECCOMP_POD: &str = "seccomp.security.alpha.kubernetes.io/pod";
const SECCOMP_CONTAINER_PREFIX: &str = "container.seccomp.security.alpha.kubernetes.io/";
const NULL_SELECTOR: &str = "a null labelSelector results in matching no pod";

/// `GetNodeLabelDeprecatedMessage`.
fn node_label_deprecated(key: &str) -> Option<&'static str> {
    DEPRECATED_NODE_LABELS
        .iter()
        .find(|(k, _)| *k == key)
        .map(|(_, m)| *m)
}

/// The warnings of a workload's strategy for `obj` (`old`: the stored object of an
/// update, which warns only when the spec, and so the generation, changed).
pub fn for_object(obj: &Object, old: Option<&Object>) -> Vec<String> {
    let mut w = Vec::new();
    if old.is_none() {
        name_warning(obj, &mut w);
    }
    w.extend(template_warnings(obj, old));
    w
}

/// `WarningsOnCreate`'s first check: a name that will be a hostname but is not a DNS
/// label.
fn name_warning(obj: &Object, w: &mut Vec<String>) {
    let used_in = match obj {
        Object::Pod(_) => "the Pod's hostname",
        Object::Deployment(_)
        | Object::ReplicaSet(_)
        | Object::DaemonSet(_)
        | Object::Job(_)
        | Object::CronJob(_) => "Pod names and hostnames",
        _ => return,
    };
    let msgs = super::validation::names::dns1123_label_errors(&obj.meta().name);
    if !msgs.is_empty() {
        w.push(format!(
            "metadata.name: this is used in {used_in}, which can result in surprising behavior; a DNS label is recommended: [{}]",
            msgs.join(" ")
        ));
    }
}

/// `GetWarningsForPod`, or the workload's `GetWarningsForPodTemplate`.
fn template_warnings(obj: &Object, old: Option<&Object>) -> Vec<String> {
    let spec_unchanged = old.is_some_and(|o| !obj.spec_differs(o));
    match obj {
        Object::Pod(p) => warnings_for_pod_spec_and_meta("", &p.spec, &p.metadata.annotations),
        _ if spec_unchanged => Vec::new(),
        Object::Deployment(d) => template("spec.template", &d.spec.template),
        Object::ReplicaSet(r) => template("spec.template", &r.spec.template),
        Object::DaemonSet(d) => template("spec.template", &d.spec.template),
        Object::StatefulSet(s) => template("spec.template", &s.spec.template),
        Object::Job(j) => template("spec.template", &j.spec.template),
        Object::CronJob(c) => template(
            "spec.jobTemplate.spec.template",
            &c.spec.job_template.spec.template,
        ),
        _ => Vec::new(),
    }
}

/// `GetWarningsForPodTemplate`.
fn template(path: &str, t: &PodTemplateSpec) -> Vec<String> {
    warnings_for_pod_spec_and_meta(path, &t.spec, &t.metadata.annotations)
}

/// `fieldPath.Child(...)`: `a.b`, or `b` under the empty path.
fn child(path: &str, name: &str) -> String {
    if path.is_empty() {
        name.to_string()
    } else {
        format!("{path}.{name}")
    }
}

/// `warningsForPodSpecAndMeta`.
fn warnings_for_pod_spec_and_meta(
    at: &str,
    spec: &PodSpec,
    annotations: &StringMap,
) -> Vec<String> {
    let mut w = Vec::new();
    let spec_path = child(at, "spec");
    let annotations_path = child(at, "metadata.annotations");
    for k in spec.node_selector.keys() {
        if let Some(msg) = node_label_deprecated(k) {
            w.push(format!("{spec_path}.nodeSelector[{k}]: {msg}"));
        }
    }
    node_affinity_warnings(&spec_path, spec, &mut w);
    for (i, t) in spec.topology_spread_constraints.iter().enumerate() {
        let path = format!("{spec_path}.topologySpreadConstraints[{i}]");
        if let Some(msg) = node_label_deprecated(&t.topology_key) {
            w.push(format!("{path}.topologyKey: {} is {msg}", t.topology_key));
        }
        if t.label_selector.is_none() {
            w.push(format!("{path}.labelSelector: {NULL_SELECTOR}"));
        }
    }
    for (key, message) in DEPRECATED_ANNOTATIONS {
        if annotations.contains_key(key) {
            w.push(format!("{annotations_path}[{key}]: {message}"));
        }
    }
    extra_list_warnings(&spec_path, spec, &mut w);
    if let Some(Value::Object(overhead)) = spec.extra.get("overhead") {
        let overhead: StringMap = overhead
            .iter()
            .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
            .collect();
        fractional(&format!("{spec_path}.overhead"), &overhead, &mut w);
    }
    let pod_seccomp = seccomp_field(spec.security_context.as_ref());
    if !pod_seccomp && annotations.contains_key(SECCOMP_POD) {
        w.push(format!(
            r#"{annotations_path}[{SECCOMP_POD}]: non-functional in v1.27+; use the "seccompProfile" field instead"#
        ));
    }
    let containers = visit_containers_with_path(&spec_path, spec);
    for (path, c) in &containers {
        let key = format!("{SECCOMP_CONTAINER_PREFIX}{}", c.name);
        let has_field = seccomp_field(c.extra.get("securityContext"));
        if !has_field && annotations.contains_key(&key) {
            w.push(format!(
                r#"{annotations_path}[{key}]: non-functional in v1.27+; use the "seccompProfile" field instead"#
            ));
        }
        fractional(
            &format!("{path}.resources.limits"),
            &c.resources.limits,
            &mut w,
        );
        fractional(
            &format!("{path}.resources.requests"),
            &c.resources.requests,
            &mut w,
        );
        env_warnings(path, c, &mut w);
    }
    port_warnings(&containers, &mut w);
    if spec.termination_grace_period_seconds.is_some_and(|s| s < 0) {
        w.push(format!(
            "{spec_path}.terminationGracePeriodSeconds: must be >= 0; negative values are invalid and will be treated as 1"
        ));
    }
    if let Some(a) = &spec.affinity {
        for (name, terms) in [
            ("podAffinity", &a.pod_affinity),
            ("podAntiAffinity", &a.pod_anti_affinity),
        ] {
            let Some(terms) = terms else { continue };
            let base = format!("{spec_path}.affinity.{name}");
            affinity_terms(
                &format!("{base}.requiredDuringSchedulingIgnoredDuringExecution"),
                terms.required.iter(),
                "",
                &mut w,
            );
            affinity_terms(
                &format!("{base}.preferredDuringSchedulingIgnoredDuringExecution"),
                terms.preferred.iter().map(|t| &t.pod_affinity_term),
                ".podAffinityTerm",
                &mut w,
            );
        }
    }
    w
}

/// Whether a security context (as written) sets `seccompProfile`.
fn seccomp_field(sc: Option<&Value>) -> bool {
    sc.and_then(|s| s.get("seccompProfile"))
        .is_some_and(|p| !p.is_null())
}

/// The node affinity's terms: a deprecated node label as a key.
fn node_affinity_warnings(spec_path: &str, spec: &PodSpec, w: &mut Vec<String>) {
    let Some(n) = spec
        .affinity
        .as_ref()
        .and_then(|a| a.node_affinity.as_ref())
    else {
        return;
    };
    let base = format!("{spec_path}.affinity.nodeAffinity");
    if let Some(required) = &n.required {
        for (i, term) in required.node_selector_terms.iter().enumerate() {
            let path = format!(
                "{base}.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[{i}]"
            );
            node_selector_term(&path, term, w);
        }
    }
    for (i, term) in n.preferred.iter().enumerate() {
        let path =
            format!("{base}.preferredDuringSchedulingIgnoredDuringExecution[{i}].preference");
        node_selector_term(&path, &term.preference, w);
    }
}

/// `GetWarningsForNodeSelectorTerm`.
fn node_selector_term(path: &str, term: &NodeSelectorTerm, w: &mut Vec<String>) {
    for (list, reqs) in [
        ("matchExpressions", &term.match_expressions),
        ("matchFields", &term.match_fields),
    ] {
        for (i, r) in reqs.iter().enumerate() {
            if let Some(msg) = node_label_deprecated(&r.key) {
                w.push(format!("{path}.{list}[{i}].key: {} is {msg}", r.key));
            }
        }
    }
}

/// `warningsForPodAffinityTerms` and `warningsForWeightedPodAffinityTerms`.
fn affinity_terms<'a>(
    path: &str,
    terms: impl Iterator<Item = &'a PodAffinityTerm>,
    inner: &str,
    w: &mut Vec<String>,
) {
    for (i, t) in terms.enumerate() {
        if t.label_selector.is_none() {
            w.push(format!("{path}[{i}]{inner}.labelSelector: {NULL_SELECTOR}"));
        }
    }
}

/// Duplicate `hostAliases` IPs, duplicate and empty `imagePullSecrets` names (fields
/// kubeplay keeps as written).
fn extra_list_warnings(spec_path: &str, spec: &PodSpec, w: &mut Vec<String>) {
    let list = |field: &str| {
        spec.extra
            .get(field)
            .and_then(Value::as_array)
            .map(|a| a.as_slice())
            .unwrap_or(&[])
    };
    let text = |v: &Value, f: &str| v.get(f).and_then(Value::as_str).unwrap_or("").to_string();
    let dupes = |field: &str, key: &str, what: &str, w: &mut Vec<String>| {
        let items = list(field);
        let mut seen = BTreeSet::new();
        for (i, item) in items.iter().enumerate() {
            let v = text(item, key);
            if items.len() > 1 && !seen.insert(v.clone()) {
                w.push(format!(
                    "{spec_path}.{field}[{i}].{key}: duplicate {what} {}",
                    go_quote(&v)
                ));
            }
        }
    };
    dupes("hostAliases", "ip", "ip", w);
    dupes("imagePullSecrets", "name", "name", w);
    for (i, item) in list("imagePullSecrets").iter().enumerate() {
        if text(item, "name").is_empty() {
            w.push(format!(
                "{spec_path}.imagePullSecrets[{i}].name: invalid empty name \"\""
            ));
        }
    }
}

/// Go's `%q`.
fn go_quote(s: &str) -> String {
    super::validation::names::quote(s)
}

/// `VisitContainersWithPath`: init containers, then containers (ephemeral ones are
/// not modelled).
fn visit_containers_with_path<'a>(
    spec_path: &str,
    spec: &'a PodSpec,
) -> Vec<(String, &'a Container)> {
    let init = spec
        .init_containers
        .iter()
        .enumerate()
        .map(|(i, c)| (format!("{spec_path}.initContainers[{i}]"), c));
    let main = spec
        .containers
        .iter()
        .enumerate()
        .map(|(i, c)| (format!("{spec_path}.containers[{i}]"), c));
    init.chain(main).collect()
}

/// A memory or ephemeral-storage quantity that is not a whole number of bytes.
fn fractional(path: &str, list: &StringMap, w: &mut Vec<String>) {
    for name in ["memory", "ephemeral-storage"] {
        let Some(q) = list.get(name) else { continue };
        let Some(milli) = crate::api::quantity::parse_cpu_milli(q) else {
            continue;
        };
        if milli % 1000 != 0 {
            let shown = super::limit_ranger::canonical(name, q);
            w.push(format!(
                "{path}[{name}]: fractional byte value {} is invalid, must be an integer",
                go_quote(&shown)
            ));
        }
    }
}

/// An env var that hides an earlier one of its name, unless it extends it
/// (`X="$(X)123"`).
fn env_warnings(path: &str, c: &Container, w: &mut Vec<String>) {
    if c.env.len() < 2 {
        return;
    }
    let mut seen = BTreeSet::new();
    for (i, item) in c.env.iter().enumerate() {
        let name = item.get("name").and_then(Value::as_str).unwrap_or("");
        if seen.insert(name) {
            continue;
        }
        let reference = format!("$({name})");
        let value = item.get("value").and_then(Value::as_str).unwrap_or("");
        let value_from = item.get("valueFrom").is_some_and(|v| !v.is_null());
        if value_from || value == reference || !value.contains(&reference) {
            w.push(format!(
                "{path}.env[{i}]: hides previous definition of {}, which may be dropped when using apply",
                go_quote(name)
            ));
        }
    }
}

/// Ports two containers (or one) claim twice, or ambiguously; a host IP without a
/// host port.
fn port_warnings(containers: &[(String, &Container)], w: &mut Vec<String>) {
    struct Block {
        path: String,
        host_ip: String,
        host_port: i64,
    }
    let mut all: BTreeMap<String, Vec<Block>> = BTreeMap::new();
    for (path, c) in containers {
        for (i, p) in c.ports.iter().enumerate() {
            let here = format!("{path}.ports[{i}]");
            let host_ip = p
                .extra
                .get("hostIP")
                .and_then(Value::as_str)
                .unwrap_or("")
                .to_string();
            if !host_ip.is_empty() && p.host_port == 0 {
                w.push(format!(
                    "{here}: hostIP set without hostPort: {{Name:{} HostPort:{} ContainerPort:{} Protocol:{} HostIP:{host_ip}}}",
                    p.name, p.host_port, p.container_port, p.protocol
                ));
            }
            let others = all
                .entry(format!("{}/{}", p.container_port, p.protocol))
                .or_default();
            for o in others.iter() {
                if host_ip == o.host_ip && p.host_port == o.host_port {
                    w.push(format!("{here}: duplicate port definition with {}", o.path));
                } else if p.host_port == 0 || o.host_port == 0 {
                    w.push(format!(
                        "{here}: overlapping port definition with {}",
                        o.path
                    ));
                } else if p.host_port == o.host_port && (host_ip.is_empty() != o.host_ip.is_empty())
                {
                    w.push(format!(
                        "{here}: dangerously ambiguous port definition with {}",
                        o.path
                    ));
                }
            }
            others.push(Block {
                path: here,
                host_ip,
                host_port: p.host_port,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Kind;
    use serde_json::json;

    fn pod(spec: Value) -> Object {
        let j = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p"}, "spec": spec});
        crate::manifest::object_from_json(Kind::Pod, j).unwrap()
    }

    fn container(extra: Value) -> Value {
        let mut c = json!({"name": "c", "image": "nginx"});
        c.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        c
    }

    #[test]
    fn an_env_var_that_extends_the_one_before_is_not_warned_of_but_one_that_hides_it_is() {
        let env = json!({"env": [
            {"name": "A", "value": "1"},
            {"name": "A", "value": "$(A)x"},
            {"name": "A", "value": "$(A)"},
            {"name": "A", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]});
        let w = for_object(&pod(json!({"containers": [container(env)]})), None);
        assert_eq!(
            w,
            [
                "spec.containers[0].env[2]: hides previous definition of \"A\", which may be dropped when using apply",
                "spec.containers[0].env[3]: hides previous definition of \"A\", which may be dropped when using apply",
            ]
        );
    }

    #[test]
    fn ports_are_compared_across_init_containers_and_containers() {
        let spec = json!({
            "initContainers": [container(json!({"name": "i", "ports": [{"containerPort": 80, "hostPort": 80}]}))],
            "containers": [container(json!({"ports": [
                {"containerPort": 80, "hostPort": 80},
                {"containerPort": 80, "hostPort": 80, "hostIP": "10.0.0.1"}]}))]});
        let w = for_object(&pod(spec), None);
        assert_eq!(
            w,
            [
                "spec.containers[0].ports[0]: duplicate port definition with spec.initContainers[0].ports[0]",
                "spec.containers[0].ports[1]: dangerously ambiguous port definition with spec.initContainers[0].ports[0]",
                "spec.containers[0].ports[1]: dangerously ambiguous port definition with spec.containers[0].ports[0]",
            ]
        );
    }

    #[test]
    fn null_selectors_in_pod_affinity_terms_match_no_pod() {
        let spec = json!({"containers": [container(json!({}))], "affinity": {"podAntiAffinity": {
            "requiredDuringSchedulingIgnoredDuringExecution": [{"topologyKey": "kubernetes.io/hostname"}],
            "preferredDuringSchedulingIgnoredDuringExecution": [{"weight": 1, "podAffinityTerm": {"topologyKey": "x"}}]}}});
        assert_eq!(
            for_object(&pod(spec), None),
            [
                "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].labelSelector: a null labelSelector results in matching no pod",
                "spec.affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector: a null labelSelector results in matching no pod",
            ]
        );
    }

    #[test]
    fn a_whole_byte_count_is_fine_and_a_fraction_is_named_in_canonical_form() {
        let res = json!({"resources": {"requests": {"memory": "0.5Gi"}, "limits": {"memory": "100m", "ephemeral-storage": "1.5k"}}});
        assert_eq!(
            for_object(&pod(json!({"containers": [container(res)]})), None),
            [
                "spec.containers[0].resources.limits[memory]: fractional byte value \"100m\" is invalid, must be an integer",
            ]
        );
    }

    #[test]
    fn a_workload_warns_on_create_and_on_a_spec_change_but_not_on_a_label() {
        let d = |image: &str, label: &str| {
            let j = json!({"apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "a.b", "labels": {"x": label}},
                "spec": {"selector": {"matchLabels": {"app": "a"}}, "template": {
                    "metadata": {"labels": {"app": "a"}},
                    "spec": {"nodeSelector": {"beta.kubernetes.io/arch": "amd64"},
                             "containers": [{"name": "c", "image": image}]}}}});
            crate::manifest::object_from_json(Kind::Deployment, j).unwrap()
        };
        let arch = "spec.template.spec.nodeSelector[beta.kubernetes.io/arch]: deprecated since v1.14; use \"kubernetes.io/arch\" instead";
        assert_eq!(
            for_object(&d("nginx", "1"), None),
            [
                "metadata.name: this is used in Pod names and hostnames, which can result in surprising behavior; a DNS label is recommended: [must not contain dots]",
                arch,
            ]
        );
        assert!(for_object(&d("nginx", "2"), Some(&d("nginx", "1"))).is_empty());
        assert_eq!(for_object(&d("httpd", "1"), Some(&d("nginx", "1"))), [arch]);
    }
}
