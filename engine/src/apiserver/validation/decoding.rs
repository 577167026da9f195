//! What the API server refuses while decoding the request (400), before admission
//! and validation: quantities that do not parse (`resource.Quantity`'s unmarshaller)
//! and numbers too big for a field upstream's Go types declare as int32
//! (encoding/json's `UnmarshalTypeError`).

use super::super::ApiError;
use super::pod_spec::probe_counts;
use crate::api::*;

/// Quantities that do not parse are refused when the request is decoded (400), before
/// validation, in the API server's words.
pub(super) fn check_quantities(obj: &Object) -> Result<(), ApiError> {
    let spec = match obj {
        // A quota's hard limits are quantities too; a negative one decodes and is
        // refused by validation.
        Object::ResourceQuota(q) => {
            return match q
                .spec
                .hard
                .values()
                .any(|v| crate::api::quantity::is_negative(v).is_none())
            {
                true => Err(not_a_quantity(obj)),
                false => Ok(()),
            };
        }
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
        return Err(not_a_quantity(obj));
    }
    Ok(())
}

/// The decoder's refusal of a quantity that does not parse.
fn not_a_quantity(obj: &Object) -> ApiError {
    let kind = obj.kind();
    ApiError::bad_request(format!(
        "{} in version \"{}\" cannot be handled as a {}: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'",
        kind.name(),
        kind.api_version().rsplit('/').next().unwrap_or("v1"),
        kind.name()
    ))
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
    match obj {
        Object::Deployment(d) => deployment_int32_fields(d, &mut push),
        Object::ReplicaSet(rs) => {
            push("ReplicaSetSpec", "spec.replicas".into(), rs.spec.replicas);
            push(
                "ReplicaSetSpec",
                "spec.minReadySeconds".into(),
                rs.spec.min_ready_seconds,
            );
            pod_spec_int32_fields("spec.template.spec", &rs.spec.template.spec, &mut push);
        }
        Object::Pod(p) => pod_spec_int32_fields("spec", &p.spec, &mut push),
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
            pod_spec_int32_fields("spec.template.spec", &j.spec.template.spec, &mut push);
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
            pod_spec_int32_fields(
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
            pod_spec_int32_fields("spec.template.spec", &d.spec.template.spec, &mut push);
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

/// A Deployment's int32 fields: `DeploymentSpec`'s, its rolling update's numbers, its
/// template's.
fn deployment_int32_fields(d: &Deployment, push: &mut dyn FnMut(&'static str, String, i64)) {
    let s = &d.spec;
    for (f, v) in [
        ("replicas", s.replicas),
        ("minReadySeconds", s.min_ready_seconds),
        ("revisionHistoryLimit", s.revision_history_limit),
        ("progressDeadlineSeconds", s.progress_deadline_seconds),
    ] {
        push("DeploymentSpec", format!("spec.{f}"), v);
    }
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
    pod_spec_int32_fields("spec.template.spec", &s.template.spec, push);
}

/// The int32 fields of a pod spec at `at` (`spec` or a template's spec), in document
/// order.
fn pod_spec_int32_fields(
    at: &str,
    spec: &PodSpec,
    push: &mut dyn FnMut(&'static str, String, i64),
) {
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
}

/// An `IntOrString`'s number, when it holds one (its int32 half).
fn int(v: &IntOrString) -> Option<i64> {
    match v {
        IntOrString::Int(n) => Some(*n),
        IntOrString::String(_) => None,
    }
}

/// A number too big for an int32 field fails when the request is decoded (400), before
/// admission and validation: encoding/json's `UnmarshalTypeError` inside the API
/// server's "cannot be handled as" wrapper, e.g. `Deployment in version "v1" cannot be
/// handled as a Deployment: json: cannot unmarshal number 9223372036854775807 into Go
/// struct field DeploymentSpec.spec.replicas of type int32`. The decoder reports the
/// first such field; so does this.
pub(super) fn check_int32(obj: &Object) -> Result<(), ApiError> {
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
