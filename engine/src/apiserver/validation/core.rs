//! The core API group (`pkg/apis/core/validation/validation.go`): Pods (their specs'
//! rules are `pod_spec`'s, shared with every template), Services,
//! PersistentVolumeClaims and PersistentVolumes. LimitRange's own checks live with its admission plugin
//! (`limit_ranger.rs`).

use super::names::quote;
use super::names::{
    dns1123_label_errors, label_value_errors, port_name_errors, qualified_name_errors,
};
use super::pod_spec::{validate_containers, validate_pod_spec_numbers, validate_scheduling};
use crate::api::*;

/// `ValidatePodCreate`'s spec rules the simulation models: containers with images,
/// scheduling directives and numbers.
pub(super) fn validate_pod(causes: &mut Vec<String>, p: &Pod) {
    validate_containers(causes, "spec", &p.spec);
    // validateContainersOnlyForPod: a template may keep a blank-edged image (some
    // tools use " " as a placeholder), a Pod may not.
    for (list, containers) in [
        ("containers", &p.spec.containers),
        ("initContainers", &p.spec.init_containers),
    ] {
        for (i, c) in containers.iter().enumerate() {
            if c.image.trim() != c.image {
                causes.push(format!(
                    "spec.{list}[{i}].image: Invalid value: {}: must not have leading or trailing whitespace",
                    quote(&c.image)
                ));
            }
        }
    }
    validate_scheduling(causes, "spec", &p.spec);
    validate_pod_spec_numbers(causes, "spec", &p.spec);
}

/// `ValidateService` on create, with `ValidateServiceUpdate`'s clusterIP rule on update.
pub(super) fn validate_service_object(
    causes: &mut Vec<String>,
    svc: &Service,
    old: Option<&Object>,
) {
    let old = match old {
        Some(Object::Service(o)) => Some(&**o),
        _ => None,
    };
    validate_service(causes, svc, old);
}

/// `ValidateService` and the clusterIP half of `ValidateServiceUpdate`
/// (`pkg/apis/core/validation/validation.go`), for the fields the simulation models.
fn validate_service(causes: &mut Vec<String>, svc: &Service, old: Option<&Service>) {
    let spec = &svc.spec;
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
    validate_service_traffic_distribution(causes, svc);
}

/// `validateServiceTrafficDistribution` (PreferSameZone and PreferSameNode are behind
/// a feature gate that v1.33 leaves off).
fn validate_service_traffic_distribution(causes: &mut Vec<String>, svc: &Service) {
    if let Some(td) = svc.spec.extra.get("trafficDistribution") {
        let td = td.as_str().unwrap_or_default();
        if td != "PreferClose" {
            causes.push(format!(
                "spec.trafficDistribution: Unsupported value: {}: supported values: \"PreferClose\"",
                quote(td)
            ));
        }
    }
}

/// Go's `%#v` of a `core.ServicePort` holding only a protocol and a port (the key of
/// the duplicate-port check).
fn go_service_port_key(protocol: &str, port: i64) -> String {
    format!(
        "core.ServicePort{{Name:\"\", Protocol:\"{protocol}\", AppProtocol:(*string)(nil), Port:{port}, TargetPort:intstr.IntOrString{{Type:0, IntVal:0, StrVal:\"\"}}, NodePort:0}}"
    )
}

/// `ValidatePersistentVolumeClaimSpec`: at least one access mode, a storage request.
pub(super) fn validate_claim_spec(
    causes: &mut Vec<String>,
    at: &str,
    spec: &PersistentVolumeClaimSpec,
) {
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

/// `ValidatePersistentVolumeClaim` and `ValidatePersistentVolumeClaimUpdate`.
pub(super) fn validate_claim(
    causes: &mut Vec<String>,
    c: &PersistentVolumeClaim,
    old: Option<&Object>,
) {
    validate_claim_spec(causes, "spec", &c.spec);
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

/// `ValidatePersistentVolume`: access modes and a storage capacity.
pub(super) fn validate_persistent_volume(causes: &mut Vec<String>, v: &PersistentVolume) {
    if v.spec.access_modes.is_empty() {
        causes.push("spec.accessModes: Required value".into());
    }
    if !v.spec.capacity.contains_key("storage") {
        causes.push("spec.capacity: Required value".into());
    }
}

/// `ValidateResourceQuotaSpec`'s quantities (`ValidateResourceQuantityValue`): each hard
/// limit at least zero, and a whole number for a resource counted in units (Pods,
/// Services, `count/…`, extended resources).
pub(super) fn validate_resource_quota(causes: &mut Vec<String>, q: &ResourceQuota) {
    for (k, v) in &q.spec.hard {
        let at = format!("spec.hard[{k}]");
        let v = v.trim();
        if crate::api::quantity::is_negative(v) == Some(true) {
            // `ValidateNonnegativeQuantity` reports `value.String()`, a string: quoted.
            let abs = crate::apiserver::limit_ranger::canonical("", &v[1..]);
            causes.push(format!(
                "{at}: Invalid value: \"-{abs}\": must be greater than or equal to 0"
            ));
        } else if is_integer_resource_name(k)
            && crate::api::quantity::parse_cpu_milli(v).is_some_and(|m| m % 1000 != 0)
        {
            // The Quantity itself, passed by value: Go's `%#v` of it.
            causes.push(format!(
                "{at}: Invalid value: {}: must be an integer",
                crate::apiserver::limit_ranger::go_quantity(v)
            ));
        }
    }
}

/// `IsIntegerResourceName`: the object counts quota takes, and extended resources
/// (`IsExtendedResourceName`: a `/` outside `kubernetes.io`, not `requests.`, whose
/// quota name is a qualified name).
fn is_integer_resource_name(name: &str) -> bool {
    const INTEGER: [&str; 9] = [
        "pods",
        "services",
        "replicationcontrollers",
        "resourcequotas",
        "secrets",
        "configmaps",
        "persistentvolumeclaims",
        "services.nodeports",
        "services.loadbalancers",
    ];
    if INTEGER.contains(&name) {
        return true;
    }
    let native = !name.contains('/') || {
        let domain = name.split('/').next().unwrap_or_default();
        domain == "kubernetes.io" || domain.ends_with(".kubernetes.io")
    };
    !native
        && !name.starts_with("requests.")
        && qualified_name_errors(&format!("requests.{name}")).is_empty()
}
