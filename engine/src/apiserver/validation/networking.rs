//! The networking.k8s.io group (`pkg/apis/networking/validation/validation.go`, v1.33):
//! Ingresses, IngressClasses and NetworkPolicies, with upstream's field paths and texts.

use super::meta::validate_label_selector;
use super::names::{
    dns1035_label_errors, dns1123_label_errors, port_name_errors, quote, subdomain_errors,
};
use crate::api::*;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

/// A string as `field.Invalid` prints it.
fn q(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}

/// `IsValidPortNum`.
fn port_num_errors(p: i64) -> Vec<String> {
    if (1..=65535).contains(&p) {
        vec![]
    } else {
        vec!["must be between 1 and 65535, inclusive".into()]
    }
}

/// `IsWildcardDNS1123Subdomain`: `*.` then a subdomain.
fn wildcard_subdomain_errors(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 253 {
        errs.push("must be no more than 253 characters".into());
    }
    let ok = v.strip_prefix("*.").is_some_and(|rest| {
        subdomain_errors(rest)
            .iter()
            .all(|e| e.starts_with("must be no more"))
    });
    if !ok {
        errs.push("a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".into());
    }
    errs
}

/// `ValidateIngressStatusUpdate`'s `ValidateIngressLoadBalancerStatus`: each ingress
/// point's IP an IP, its hostname a DNS name and not an IP.
pub(super) fn validate_ingress_status(c: &mut Vec<String>, ing: &Ingress) {
    for (i, point) in ing.status.load_balancer.ingress.iter().enumerate() {
        let at = format!("status.loadBalancer.ingress[{i}]");
        if !point.ip.is_empty() && parse_ip_sloppy(&point.ip).is_none() {
            c.push(format!(
                "{at}.ip: Invalid value: {}: must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)",
                quote(&point.ip)
            ));
        }
        if !point.hostname.is_empty() {
            for m in subdomain_errors(&point.hostname) {
                c.push(format!(
                    "{at}.hostname: Invalid value: {}: {m}",
                    quote(&point.hostname)
                ));
            }
            if parse_ip_sloppy(&point.hostname).is_some() {
                c.push(format!(
                    "{at}.hostname: Invalid value: {}: must be a DNS name, not an IP address",
                    quote(&point.hostname)
                ));
            }
        }
    }
}

/// `netutils.ParseIPSloppy`: an IPv4 address (leading zeros allowed) or an IPv6 one.
pub fn parse_ip_sloppy(s: &str) -> Option<IpAddr> {
    if let Ok(v6) = s.parse::<Ipv6Addr>() {
        return Some(IpAddr::V6(v6));
    }
    let parts: Vec<&str> = s.split('.').collect();
    if parts.len() != 4 {
        return None;
    }
    let mut octets = [0u8; 4];
    for (o, p) in octets.iter_mut().zip(&parts) {
        // Go's dtoi: any number of digits, leading zeros included; the value ≤ 255.
        if p.is_empty() || !p.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        *o = p.parse().ok()?;
    }
    Some(IpAddr::V4(Ipv4Addr::from(octets)))
}

/// `netutils.ParseCIDRSloppy`: the network address and prefix length.
pub fn parse_cidr_sloppy(s: &str) -> Option<(IpAddr, u32)> {
    let (ip, len) = s.split_once('/')?;
    let ip = parse_ip_sloppy(ip)?;
    if len.is_empty() || !len.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    // Go's dtoi: leading zeros of any number; a number too large fails.
    let digits = len.trim_start_matches('0');
    let len: u32 = if digits.is_empty() {
        0
    } else {
        digits.parse().ok()?
    };
    let max = if ip.is_ipv4() { 32 } else { 128 };
    (len <= max).then_some((ip, len))
}

/// True if `ip` lies in `net/len`.
pub fn cidr_contains(net: IpAddr, len: u32, ip: IpAddr) -> bool {
    match (net, ip) {
        (IpAddr::V4(n), IpAddr::V4(i)) => {
            let mask = if len == 0 { 0 } else { u32::MAX << (32 - len) };
            u32::from(n) & mask == u32::from(i) & mask
        }
        (IpAddr::V6(n), IpAddr::V6(i)) => {
            let mask = if len == 0 {
                0
            } else {
                u128::MAX << (128 - len)
            };
            u128::from(n) & mask == u128::from(i) & mask
        }
        _ => false,
    }
}

/// `ValidateNetworkPolicyPort`.
fn validate_network_policy_port(c: &mut Vec<String>, port: &NetworkPolicyPort, at: &str) {
    if let Some(p) = &port.protocol {
        if !matches!(p.as_str(), "TCP" | "UDP" | "SCTP") {
            c.push(format!(
                "{at}.protocol: Unsupported value: {}: supported values: \"TCP\", \"UDP\", \"SCTP\"",
                q(p)
            ));
        }
    }
    match &port.port {
        Some(IntOrString::Int(n)) => {
            for m in port_num_errors(*n) {
                c.push(format!("{at}.port: Invalid value: {n}: {m}"));
            }
            if let Some(end) = port.end_port {
                // v1.33 reports `port`'s value here.
                if end < *n {
                    c.push(format!(
                        "{at}.endPort: Invalid value: {n}: must be greater than or equal to `port`"
                    ));
                }
                for m in port_num_errors(end) {
                    c.push(format!("{at}.endPort: Invalid value: {end}: {m}"));
                }
            }
        }
        Some(IntOrString::String(s)) => {
            if let Some(end) = port.end_port {
                c.push(format!(
                    "{at}.endPort: Invalid value: {end}: may not be specified when `port` is non-numeric"
                ));
            }
            for m in port_name_errors(s) {
                c.push(format!("{at}.port: Invalid value: {}: {m}", q(s)));
            }
        }
        None => {
            if let Some(end) = port.end_port {
                c.push(format!(
                    "{at}.endPort: Invalid value: {end}: may not be specified when `port` is not specified"
                ));
            }
        }
    }
}

/// `ValidateIPBlock` (without the ratcheting of CIDRs an update keeps).
fn validate_ip_block(c: &mut Vec<String>, b: &IPBlock, at: &str) {
    if b.cidr.is_empty() {
        c.push(format!("{at}.cidr: Required value"));
        return;
    }
    let invalid = |v: &str, p: &str| {
        format!("{p}: Invalid value: {}: must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)", q(v))
    };
    let Some((net, len)) = parse_cidr_sloppy(&b.cidr) else {
        c.push(invalid(&b.cidr, &format!("{at}.cidr")));
        return;
    };
    for (i, e) in b.except.iter().enumerate() {
        let p = format!("{at}.except[{i}]");
        let Some((ex, ex_len)) = parse_cidr_sloppy(e) else {
            c.push(invalid(e, &p));
            continue;
        };
        if !cidr_contains(net, len, ex) || len >= ex_len {
            c.push(format!(
                "{p}: Invalid value: {}: must be a strict subset of `cidr`",
                q(e)
            ));
        }
    }
}

/// `ValidateNetworkPolicyPeer`.
fn validate_peer(c: &mut Vec<String>, peer: &NetworkPolicyPeer, at: &str) {
    let mut n = 0;
    if let Some(s) = &peer.pod_selector {
        n += 1;
        validate_label_selector(c, s, &format!("{at}.podSelector"));
    }
    if let Some(s) = &peer.namespace_selector {
        n += 1;
        validate_label_selector(c, s, &format!("{at}.namespaceSelector"));
    }
    if let Some(b) = &peer.ip_block {
        n += 1;
        validate_ip_block(c, b, &format!("{at}.ipBlock"));
    }
    if n == 0 {
        c.push(format!("{at}: Required value: must specify a peer"));
    } else if n > 1 && peer.ip_block.is_some() {
        c.push(format!(
            "{at}: Forbidden: may not specify both ipBlock and another peer"
        ));
    }
}

/// `ValidateNetworkPolicySpec`.
pub(super) fn validate_network_policy(c: &mut Vec<String>, np: &NetworkPolicy) {
    let spec = &np.spec;
    validate_label_selector(c, &spec.pod_selector, "spec.podSelector");
    for (i, rule) in spec.ingress.iter().enumerate() {
        for (j, port) in rule.ports.iter().enumerate() {
            validate_network_policy_port(c, port, &format!("spec.ingress[{i}].ports[{j}]"));
        }
        for (j, peer) in rule.from.iter().enumerate() {
            validate_peer(c, peer, &format!("spec.ingress[{i}].from[{j}]"));
        }
    }
    for (i, rule) in spec.egress.iter().enumerate() {
        for (j, port) in rule.ports.iter().enumerate() {
            validate_network_policy_port(c, port, &format!("spec.egress[{i}].ports[{j}]"));
        }
        for (j, peer) in rule.to.iter().enumerate() {
            validate_peer(c, peer, &format!("spec.egress[{i}].to[{j}]"));
        }
    }
    if spec.policy_types.len() > 2 {
        // `%v` of a pointer to the slice.
        c.push(format!(
            "spec.policyTypes: Invalid value: &[{}]: may not specify more than two policyTypes",
            spec.policy_types.join(" ")
        ));
        return;
    }
    for (i, t) in spec.policy_types.iter().enumerate() {
        if t != "Ingress" && t != "Egress" {
            c.push(format!(
                "spec.policyTypes[{i}]: Unsupported value: {}: supported values: \"Ingress\", \"Egress\"",
                q(t)
            ));
        }
    }
}

/// `validateIngressBackend`.
fn validate_ingress_backend(c: &mut Vec<String>, b: &IngressBackend, at: &str) {
    match (&b.resource, &b.service) {
        (Some(_), Some(_)) => c.push(format!(
            "{at}: Invalid value: \"\": cannot set both resource and service backends"
        )),
        (Some(r), None) => validate_typed_local_object_reference(
            c,
            r.api_group.as_deref(),
            &r.kind,
            &r.name,
            &format!("{at}.resource"),
        ),
        (None, Some(s)) => {
            if s.name.is_empty() {
                c.push(format!("{at}.service.name: Required value"));
            } else {
                for m in dns1035_label_errors(&s.name) {
                    c.push(format!(
                        "{at}.service.name: Invalid value: {}: {m}",
                        q(&s.name)
                    ));
                }
            }
            let (name, number) = (&s.port.name, s.port.number);
            if !name.is_empty() && number != 0 {
                c.push(format!(
                    "{at}: Invalid value: \"\": cannot set both port name & port number"
                ));
            } else if !name.is_empty() {
                for m in port_name_errors(name) {
                    c.push(format!(
                        "{at}.service.port.name: Invalid value: {}: {m}",
                        q(name)
                    ));
                }
            } else if number != 0 {
                for m in port_num_errors(number) {
                    c.push(format!(
                        "{at}.service.port.number: Invalid value: {number}: {m}"
                    ));
                }
            } else {
                c.push(format!(
                    "{at}: Required value: port name or number is required"
                ));
            }
        }
        (None, None) => c.push(format!(
            "{at}: Invalid value: \"\": resource or service backend is required"
        )),
    }
}

/// `IsValidPathSegmentName`'s messages.
fn path_segment_messages(v: &str) -> Vec<String> {
    if v == "." || v == ".." {
        return vec![format!("may not be '{v}'")];
    }
    ['/', '%']
        .into_iter()
        .filter(|ch| v.contains(*ch))
        .map(|ch| format!("may not contain '{ch}'"))
        .collect()
}

/// `validateIngressTypedLocalObjectReference`.
fn validate_typed_local_object_reference(
    c: &mut Vec<String>,
    api_group: Option<&str>,
    kind: &str,
    name: &str,
    at: &str,
) {
    if let Some(g) = api_group {
        for m in subdomain_errors(g) {
            c.push(format!("{at}.apiGroup: Invalid value: {}: {m}", q(g)));
        }
    }
    for (field, v) in [("kind", kind), ("name", name)] {
        if v.is_empty() {
            c.push(format!("{at}.{field}: Required value: {field} is required"));
        } else {
            for m in path_segment_messages(v) {
                c.push(format!("{at}.{field}: Invalid value: {}: {m}", q(v)));
            }
        }
    }
}

/// `validateHTTPIngressPath`.
fn validate_http_ingress_path(c: &mut Vec<String>, p: &HTTPIngressPath, at: &str) {
    let Some(path_type) = &p.path_type else {
        c.push(format!(
            "{at}.pathType: Required value: pathType must be specified"
        ));
        return;
    };
    let bad = |c: &mut Vec<String>, m: &str| {
        c.push(format!("{at}.path: Invalid value: {}: {m}", q(&p.path)));
    };
    match path_type.as_str() {
        "Exact" | "Prefix" => {
            if !p.path.starts_with('/') {
                bad(c, "must be an absolute path");
            }
            if !p.path.is_empty() {
                for seq in ["//", "/./", "/../", "%2f", "%2F"] {
                    if p.path.contains(seq) {
                        bad(c, &format!("must not contain '{seq}'"));
                    }
                }
                for suffix in ["/..", "/."] {
                    if p.path.ends_with(suffix) {
                        bad(c, &format!("cannot end with '{suffix}'"));
                    }
                }
            }
        }
        "ImplementationSpecific" => {
            if !p.path.is_empty() && !p.path.starts_with('/') {
                bad(c, "must be an absolute path");
            }
        }
        other => c.push(format!(
            "{at}.pathType: Unsupported value: {}: supported values: \"Exact\", \"ImplementationSpecific\", \"Prefix\"",
            q(other)
        )),
    }
    validate_ingress_backend(c, &p.backend, &format!("{at}.backend"));
}

/// `validateIngressRules`.
fn validate_ingress_rules(c: &mut Vec<String>, rules: &[IngressRule]) {
    for (i, rule) in rules.iter().enumerate() {
        let at = format!("spec.rules[{i}]");
        let host = &rule.host;
        if !host.is_empty() {
            if parse_ip_sloppy(host).is_some() {
                c.push(format!(
                    "{at}.host: Invalid value: {}: must be a DNS name, not an IP address",
                    q(host)
                ));
            }
            let errs = if host.contains('*') {
                wildcard_subdomain_errors(host)
            } else {
                subdomain_errors(host)
            };
            for m in errs {
                c.push(format!("{at}.host: Invalid value: {}: {m}", q(host)));
            }
        }
        if let Some(http) = &rule.http {
            let paths = http.paths.as_deref().unwrap_or(&[]);
            if paths.is_empty() {
                c.push(format!("{at}.http.paths: Required value"));
            }
            for (j, p) in paths.iter().enumerate() {
                validate_http_ingress_path(c, p, &format!("{at}.http.paths[{j}]"));
            }
        }
    }
}

/// `ValidateIngressSpec`, and on create `ValidateIngressCreate`'s class check.
pub(super) fn validate_ingress(c: &mut Vec<String>, ing: &Ingress, create: bool) {
    let spec = &ing.spec;
    if spec.rules.is_empty() && spec.default_backend.is_none() {
        c.push("spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified".into());
    }
    if let Some(b) = &spec.default_backend {
        validate_ingress_backend(c, b, "spec.defaultBackend");
    }
    validate_ingress_rules(c, &spec.rules);
    for (i, tls) in spec.tls.iter().enumerate() {
        for (j, host) in tls.hosts.iter().enumerate() {
            let errs = if host.contains('*') {
                wildcard_subdomain_errors(host)
            } else {
                subdomain_errors(host)
            };
            for m in errs {
                c.push(format!(
                    "spec.tls[{i}].hosts[{j}]: Invalid value: {}: {m}",
                    q(host)
                ));
            }
        }
        if !tls.secret_name.is_empty() {
            for m in subdomain_errors(&tls.secret_name) {
                c.push(format!(
                    "spec.tls[{i}].secretName: Invalid value: {}: {m}",
                    q(&tls.secret_name)
                ));
            }
        }
    }
    if let Some(class) = &spec.ingress_class_name {
        for m in subdomain_errors(class) {
            c.push(format!(
                "spec.ingressClassName: Invalid value: {}: {m}",
                q(class)
            ));
        }
    }
    if create {
        if let (Some(a), Some(class)) = (
            ing.metadata.annotations.get(INGRESS_CLASS_ANNOTATION),
            &spec.ingress_class_name,
        ) {
            if a != class {
                c.push(format!(
                    "annotations.kubernetes.io/ingress.class: Invalid value: {}: must match `ingressClassName` when both are specified",
                    q(a)
                ));
            }
        }
    }
}

/// `ValidateIngressClass` (and on update the controller's immutability).
pub(super) fn validate_ingress_class(c: &mut Vec<String>, ic: &IngressClass, old: Option<&Object>) {
    if let Some(Object::IngressClass(old)) = old {
        if old.spec.controller != ic.spec.controller {
            c.push(format!(
                "spec.controller: Invalid value: {}: field is immutable",
                q(&ic.spec.controller)
            ));
        }
    }
    let controller = &ic.spec.controller;
    if controller.len() > 250 {
        c.push("spec.controller: Too long: may not be more than 250 bytes".into());
    }
    // `IsDomainPrefixedPath`.
    match controller.split_once('/') {
        _ if controller.is_empty() => c.push("spec.controller: Required value".into()),
        Some((host, path)) if !host.is_empty() && !path.is_empty() => {
            for m in subdomain_errors(host) {
                c.push(format!("spec.controller: Invalid value: {}: {m}", q(host)));
            }
            let http_path = |b: u8| b.is_ascii_alphanumeric() || b"/-._~%!$&'()*+,;=:".contains(&b);
            if !path.bytes().all(http_path) {
                c.push(format!(
                    "spec.controller: Invalid value: {}: Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')",
                    q(path)
                ));
            }
        }
        _ => c.push(format!(
            "spec.controller: Invalid value: {}: must be a domain-prefixed path (such as \"acme.io/foo\")",
            q(controller)
        )),
    }
    let Some(p) = &ic.spec.parameters else {
        return;
    };
    let at = "spec.parameters";
    validate_typed_local_object_reference(c, p.api_group.as_deref(), &p.kind, &p.name, at);
    let Some(scope) = &p.scope else {
        c.push(format!("{at}.scope: Required value"));
        return;
    };
    match scope.as_str() {
        "Namespace" => match &p.namespace {
            None => c.push(format!(
                "{at}.namespace: Required value: `parameters.scope` is set to 'Namespace'"
            )),
            Some(ns) => {
                for m in dns1123_label_errors(ns) {
                    c.push(format!("{at}.namespace: Invalid value: {}: {m}", q(ns)));
                }
            }
        },
        "Cluster" => {
            if p.namespace.is_some() {
                c.push(format!(
                    "{at}.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"
                ));
            }
        }
        other => c.push(format!(
            "{at}.scope: Unsupported value: {}: supported values: \"Cluster\", \"Namespace\"",
            q(other)
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn path(p: &str, t: Option<&str>) -> HTTPIngressPath {
        HTTPIngressPath {
            path: p.into(),
            path_type: t.map(String::from),
            backend: IngressBackend {
                service: Some(IngressServiceBackend {
                    name: "web".into(),
                    port: ServiceBackendPort {
                        name: String::new(),
                        number: 80,
                    },
                }),
                resource: None,
            },
        }
    }

    #[test]
    fn ingress_paths_are_checked_by_their_type() {
        let mut c = Vec::new();
        validate_http_ingress_path(&mut c, &path("a//b/.", Some("Prefix")), "p");
        assert_eq!(
            c,
            [
                "p.path: Invalid value: \"a//b/.\": must be an absolute path",
                "p.path: Invalid value: \"a//b/.\": must not contain '//'",
                "p.path: Invalid value: \"a//b/.\": cannot end with '/.'",
            ]
        );
        let mut c = Vec::new();
        validate_http_ingress_path(&mut c, &path("", Some("ImplementationSpecific")), "p");
        validate_http_ingress_path(&mut c, &path("/x", None), "q");
        assert_eq!(
            c,
            ["q.pathType: Required value: pathType must be specified"]
        );
    }

    #[test]
    fn an_except_block_must_lie_strictly_inside_its_cidr() {
        let mut c = Vec::new();
        let b = IPBlock {
            cidr: "10.0.0.0/8".into(),
            except: vec![
                "10.1.0.0/16".into(),
                "11.0.0.0/16".into(),
                "10.0.0.0/8".into(),
                "x".into(),
            ],
        };
        validate_ip_block(&mut c, &b, "b");
        assert_eq!(c.len(), 3, "{c:?}");
        assert!(c[0]
            .starts_with("b.except[1]: Invalid value: \"11.0.0.0/16\": must be a strict subset"));
        assert!(c[2].contains("must be a valid CIDR value"));
    }

    #[test]
    fn a_peer_with_an_ip_block_and_a_selector_is_forbidden() {
        let mut c = Vec::new();
        let peer = NetworkPolicyPeer {
            pod_selector: Some(LabelSelector::default()),
            namespace_selector: None,
            ip_block: Some(IPBlock {
                cidr: "10.0.0.0/8".into(),
                except: vec![],
            }),
        };
        validate_peer(&mut c, &peer, "p");
        assert_eq!(
            c,
            ["p: Forbidden: may not specify both ipBlock and another peer"]
        );
        let mut c = Vec::new();
        validate_peer(&mut c, &NetworkPolicyPeer::default(), "p");
        assert_eq!(c, ["p: Required value: must specify a peer"]);
    }
}
