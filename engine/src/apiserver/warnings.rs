//! The strategies' `WarningsOnCreate` and `WarningsOnUpdate` for IP and CIDR values
//! (KEP-4858, whose warnings v1.33 returns on every such field) and the Service's
//! ignored-field combinations: what the API server accepts but tells the client, in a
//! `Warning` header, will be refused in a future release or has no effect.
//!
//! Upstream: `staging/src/k8s.io/apimachinery/pkg/util/validation/ip.go`
//! (`GetWarningsForIP`, `GetWarningsForCIDR`), `pkg/api/service/warnings.go`,
//! `pkg/registry/networking/networkpolicy/strategy.go`,
//! `pkg/registry/core/endpoint/strategy.go`,
//! `pkg/registry/discovery/endpointslice/strategy.go`.

use super::validation::names::quote as q;
use super::validation::networking::{parse_cidr_sloppy, parse_ip_sloppy};
use crate::api::*;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// `net.IP.String()`: an IPv4-mapped IPv6 address prints as IPv4.
fn go_ip_string(ip: IpAddr) -> String {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => v6.to_string(),
        },
        v4 => v4.to_string(),
    }
}

/// Whether `netip.ParseAddr` takes `s` as it is: no leading zero in an IPv4 octet.
fn strict_ip(s: &str) -> bool {
    s.contains(':') || s.split('.').all(|p| p == "0" || !p.starts_with('0'))
}

/// `GetWarningsForIP`: a value validation accepted that is not in the standard form.
pub fn warnings_for_ip(path: &str, value: &str) -> Vec<String> {
    let Some(ip) = parse_ip_sloppy(value) else {
        return Vec::new();
    };
    let mapped = matches!(ip, IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some());
    if !strict_ip(value) || mapped {
        return vec![format!(
            "{path}: non-standard IP address {} will be considered invalid in a future Kubernetes release: use {}",
            q(value),
            q(&go_ip_string(ip))
        )];
    }
    if ip.is_ipv6() && ip.to_string() != value {
        return vec![format!(
            "{path}: IPv6 address {} should be in RFC 5952 canonical format ({})",
            q(value),
            q(&ip.to_string())
        )];
    }
    Vec::new()
}

/// The network of `ip/len` (its host bits cleared), as `net.IPNet.String()` prints it:
/// an IPv4-mapped network as IPv4.
fn network_string(ip: IpAddr, len: u32) -> String {
    match ip {
        IpAddr::V4(v4) => {
            let mask = if len == 0 { 0 } else { u32::MAX << (32 - len) };
            format!("{}/{len}", Ipv4Addr::from(u32::from(v4) & mask))
        }
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) if len >= 96 => network_string(IpAddr::V4(v4), len - 96),
            _ => {
                let mask = if len == 0 {
                    0
                } else {
                    u128::MAX << (128 - len)
                };
                format!("{}/{len}", Ipv6Addr::from(u128::from(v6) & mask))
            }
        },
    }
}

/// `GetWarningsForCIDR`: host bits set, a non-standard form, or IPv6 not in RFC 5952's.
pub fn warnings_for_cidr(path: &str, value: &str) -> Vec<String> {
    let Some((ip, len)) = parse_cidr_sloppy(value) else {
        return Vec::new();
    };
    let mut warnings = Vec::new();
    let network = network_string(ip, len);
    let host_bits = match ip {
        IpAddr::V4(_) => network.split('/').next() != Some(&ip.to_string()),
        IpAddr::V6(v6) => {
            let mask = if len == 0 {
                0
            } else {
                u128::MAX << (128 - len)
            };
            u128::from(v6) & !mask != 0
        }
    };
    if host_bits {
        let bits = if ip.is_ipv4() { 32 } else { 128 };
        warnings.push(format!(
            "{path}: CIDR value {} is ambiguous in this context (should be {} or {}?)",
            q(value),
            q(&network),
            q(&format!("{}/{bits}", go_ip_string(ip)))
        ));
    }
    let (addr, bits) = value.split_once('/').unwrap_or((value, ""));
    let prefix_ok = strict_ip(addr) && (bits == "0" || !bits.starts_with('0'));
    let mapped = matches!(ip, IpAddr::V6(v6) if v6.to_ipv4_mapped().is_some());
    if !prefix_ok || mapped {
        warnings.push(format!(
            "{path}: non-standard CIDR value {} will be considered invalid in a future Kubernetes release: use {}",
            q(value),
            q(&network)
        ));
    }
    let canonical = format!("{ip}/{len}");
    if warnings.is_empty() && ip.is_ipv6() && canonical != value {
        warnings.push(format!(
            "{path}: IPv6 CIDR value {} should be in RFC 5952 canonical format ({})",
            q(value),
            q(&canonical)
        ));
    }
    warnings
}

/// The warnings a create of `obj` gets from its strategy.
pub fn on_create(obj: &Object) -> Vec<String> {
    on_update(obj, None)
}

/// The warnings a write of `obj` gets from its strategy (`old`: the stored object of
/// an update).
pub fn on_update(obj: &Object, old: Option<&Object>) -> Vec<String> {
    match obj {
        Object::Service(svc) => service(svc),
        Object::NetworkPolicy(np) => {
            // On an update only when the spec changed (the generation moves).
            let same = matches!(old, Some(Object::NetworkPolicy(o)) if o.spec == np.spec);
            if same {
                Vec::new()
            } else {
                network_policy(np)
            }
        }
        Object::Endpoints(e) => endpoints(e),
        Object::EndpointSlice(s) => endpoint_slice(s),
        _ => super::pod_warnings::for_object(obj, old),
    }
}

/// `GetWarningsForService`, as v1.33 has it.
fn service(svc: &Service) -> Vec<String> {
    let mut w = Vec::new();
    let str_of = |k: &str| {
        svc.spec
            .extra
            .get(k)
            .and_then(serde_json::Value::as_str)
            .unwrap_or_default()
    };
    if svc
        .metadata
        .annotations
        .contains_key("service.kubernetes.io/topology-aware-hints")
    {
        w.push("annotation service.kubernetes.io/topology-aware-hints is deprecated, please use service.kubernetes.io/topology-mode instead".to_string());
    }
    // IsServiceIPSet: a cluster IP that is neither empty nor None.
    // (`normalizeClusterIPs` has copied a lone clusterIP into clusterIPs by then.)
    if !svc.spec.cluster_ip.is_empty() && svc.spec.cluster_ip != "None" {
        let lone = [svc.spec.cluster_ip.clone()];
        let ips = if svc.spec.cluster_ips.is_empty() {
            &lone[..]
        } else {
            &svc.spec.cluster_ips[..]
        };
        for (i, ip) in ips.iter().enumerate() {
            w.extend(warnings_for_ip(&format!("spec.clusterIPs[{i}]"), ip));
        }
    }
    for (i, ip) in svc.spec.external_ips.iter().enumerate() {
        w.extend(warnings_for_ip(&format!("spec.externalIPs[{i}]"), ip));
    }
    let lb_ip = str_of("loadBalancerIP");
    if !lb_ip.is_empty() {
        w.extend(warnings_for_ip("spec.loadBalancerIP", lb_ip));
    }
    let ranges = svc.spec.extra.get("loadBalancerSourceRanges");
    for (i, cidr) in ranges
        .and_then(serde_json::Value::as_array)
        .into_iter()
        .flatten()
        .enumerate()
    {
        let cidr = cidr.as_str().unwrap_or_default();
        w.extend(warnings_for_cidr(
            &format!("spec.loadBalancerSourceRanges[{i}]"),
            cidr,
        ));
    }
    if svc.spec.type_ == "ExternalName" && !svc.spec.external_ips.is_empty() {
        w.push("spec.externalIPs is ignored when spec.type is \"ExternalName\"".to_string());
    }
    if svc.spec.type_ != "ExternalName" && !str_of("externalName").is_empty() {
        w.push("spec.externalName is ignored when spec.type is not \"ExternalName\"".to_string());
    }
    w
}

/// The NetworkPolicy strategy's warnings: each IP block's CIDR and exceptions.
fn network_policy(np: &NetworkPolicy) -> Vec<String> {
    let mut w = Vec::new();
    let mut block = |at: String, b: &IPBlock| {
        w.extend(warnings_for_cidr(&format!("{at}.ipBlock.cidr"), &b.cidr));
        for (k, e) in b.except.iter().enumerate() {
            w.extend(warnings_for_cidr(&format!("{at}.ipBlock.except[{k}]"), e));
        }
    };
    for (i, rule) in np.spec.ingress.iter().enumerate() {
        for (j, peer) in rule.from.iter().enumerate() {
            if let Some(b) = &peer.ip_block {
                block(format!("spec.ingress[{i}].from[{j}]"), b);
            }
        }
    }
    for (i, rule) in np.spec.egress.iter().enumerate() {
        for (j, peer) in rule.to.iter().enumerate() {
            if let Some(b) = &peer.ip_block {
                block(format!("spec.egress[{i}].to[{j}]"), b);
            }
        }
    }
    w
}

/// The Endpoints strategy's warnings, skipped for the endpoints controller's own
/// (which writes canonical addresses).
fn endpoints(e: &Endpoints) -> Vec<String> {
    let managed = e.metadata.labels.get("endpoints.kubernetes.io/managed-by");
    if managed.map(String::as_str) == Some("endpoint-controller") {
        return Vec::new();
    }
    let mut w = Vec::new();
    for (i, s) in e.subsets.iter().enumerate() {
        for (j, a) in s.addresses.iter().enumerate() {
            w.extend(warnings_for_ip(
                &format!("subsets[{i}].addresses[{j}].ip"),
                &a.ip,
            ));
        }
        for (j, a) in s.not_ready_addresses.iter().enumerate() {
            let at = format!("subsets[{i}].notReadyAddresses[{j}].ip");
            w.extend(warnings_for_ip(&at, &a.ip));
        }
    }
    w
}

/// The EndpointSlice strategy's warnings, skipped for the two controllers' slices.
fn endpoint_slice(s: &EndpointSlice) -> Vec<String> {
    let managed = s
        .metadata
        .labels
        .get("endpointslice.kubernetes.io/managed-by");
    if matches!(
        managed.map(String::as_str),
        Some("endpointslice-controller.k8s.io" | "endpointslicemirroring-controller.k8s.io")
    ) {
        return Vec::new();
    }
    let mut w = Vec::new();
    for (i, ep) in s.endpoints.iter().flatten().enumerate() {
        for (j, a) in ep.addresses.iter().enumerate() {
            w.extend(warnings_for_ip(
                &format!("endpoints[{i}].addresses[{j}]"),
                a,
            ));
        }
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ip_warnings_name_the_standard_form() {
        assert_eq!(
            warnings_for_ip("spec.externalIPs[0]", "010.001.002.003"),
            ["spec.externalIPs[0]: non-standard IP address \"010.001.002.003\" will be considered invalid in a future Kubernetes release: use \"10.1.2.3\""]
        );
        assert_eq!(
            warnings_for_ip("x", "::ffff:1.2.3.4"),
            ["x: non-standard IP address \"::ffff:1.2.3.4\" will be considered invalid in a future Kubernetes release: use \"1.2.3.4\""]
        );
        assert_eq!(
            warnings_for_ip("x", "2001:db8:0:0::2"),
            ["x: IPv6 address \"2001:db8:0:0::2\" should be in RFC 5952 canonical format (\"2001:db8::2\")"]
        );
        assert_eq!(
            warnings_for_ip("x", "0001.2.3.4"),
            ["x: non-standard IP address \"0001.2.3.4\" will be considered invalid in a future Kubernetes release: use \"1.2.3.4\""]
        );
        assert!(warnings_for_ip("x", "10.0.0.1").is_empty());
        assert!(warnings_for_ip("x", "2001:db8::2").is_empty());
    }

    #[test]
    fn cidr_warnings_flag_host_bits_and_non_standard_forms() {
        assert_eq!(
            warnings_for_cidr("spec.loadBalancerSourceRanges[0]", "192.12.2.8/24"),
            ["spec.loadBalancerSourceRanges[0]: CIDR value \"192.12.2.8/24\" is ambiguous in this context (should be \"192.12.2.0/24\" or \"192.12.2.8/32\"?)"]
        );
        assert_eq!(
            warnings_for_cidr("x", "010.0.0.0/8"),
            ["x: non-standard CIDR value \"010.0.0.0/8\" will be considered invalid in a future Kubernetes release: use \"10.0.0.0/8\""]
        );
        assert_eq!(
            warnings_for_cidr("x", "2001:db8:0:0::/64"),
            ["x: IPv6 CIDR value \"2001:db8:0:0::/64\" should be in RFC 5952 canonical format (\"2001:db8::/64\")"]
        );
        assert!(warnings_for_cidr("x", "10.0.0.0/8").is_empty());
    }

    #[test]
    fn a_lone_cluster_ip_is_warned_of_as_the_first_of_cluster_ips() {
        let svc: Service = serde_json::from_value(serde_json::json!({
            "metadata": {"name": "s"},
            "spec": {"clusterIP": "10.96.0.010", "ports": [{"port": 80}]}
        }))
        .unwrap();
        assert_eq!(
            on_create(&Object::Service(Box::new(svc))),
            ["spec.clusterIPs[0]: non-standard IP address \"10.96.0.010\" will be considered invalid in a future Kubernetes release: use \"10.96.0.10\""]
        );
    }
}
