//! The networking.k8s.io describers (`describe.go`'s `IngressDescriber`,
//! `IngressClassDescriber`, `NetworkPolicyDescriber`, kubectl v1.33).

use super::common::*;
use super::network::format_endpoint_slices;
use super::Reader;
use crate::api::*;
use crate::tabwriter;
use std::fmt::Write;

/// `serviceBackendStringer`: `name:port`.
fn service_backend_stringer(b: &IngressServiceBackend) -> String {
    if b.port.number != 0 {
        format!("{}:{}", b.name, b.port.number)
    } else {
        format!("{}:{}", b.name, b.port.name)
    }
}

/// `describeBackendV1`: a Service backend with its ready endpoints for the Service
/// port it names, or a resource backend.
fn describe_backend(rd: &mut dyn Reader, ns: &str, b: &IngressBackend) -> String {
    if let Some(s) = &b.service {
        let sb = service_backend_stringer(s);
        let by_service = LabelSelector::from_labels(&StringMap::from([(
            "kubernetes.io/service-name".to_string(),
            s.name.clone(),
        )]));
        let listed = rd.list(Kind::EndpointSlice, Some(ns), Some(&by_service), "");
        let Some(svc) = rd
            .get(Kind::Service, ns, &s.name)
            .and_then(|o| Service::from_object(&o).cloned())
        else {
            return format!("{sb} (<error: services \"{}\" not found>)", s.name);
        };
        let mut port_name = "";
        for sp in &svc.spec.ports {
            if (s.port.number != 0 && s.port.number == sp.port)
                || (!s.port.name.is_empty() && s.port.name == sp.name)
            {
                port_name = &sp.name;
            }
        }
        let owned: Vec<EndpointSlice> = typed(&listed);
        let slices: Vec<&EndpointSlice> = owned.iter().collect();
        return format!("{sb} ({})", format_endpoint_slices(&slices, port_name));
    }
    if let Some(r) = &b.resource {
        return format!(
            "APIGroup: {}, Kind: {}, Name: {}",
            r.api_group.as_deref().unwrap_or("<none>"),
            r.kind,
            r.name
        );
    }
    String::new()
}

/// `describeIngressV1`.
pub(super) fn describe_ingress(rd: &mut dyn Reader, ing: &Ingress) -> String {
    let mut w = String::new();
    let m = &ing.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    multiline(&mut w, "Labels", &m.labels);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    // `ingressLoadBalancerStatusStringerV1(…, true)`: never cut.
    let address = crate::printers::get::ingress_load_balancer_status_stringer(
        &ing.status.load_balancer,
        true,
    );
    let _ = writeln!(w, "Address:\t{address}");
    let _ = writeln!(
        w,
        "Ingress Class:\t{}",
        ing.spec.ingress_class_name.as_deref().unwrap_or("<none>")
    );
    let default_backend = match &ing.spec.default_backend {
        Some(b) => describe_backend(rd, &m.namespace, b),
        None => "<default>".into(),
    };
    let _ = writeln!(w, "Default backend:\t{default_backend}");
    if !ing.spec.tls.is_empty() {
        let _ = writeln!(w, "TLS:");
        for t in &ing.spec.tls {
            if t.secret_name.is_empty() {
                let _ = writeln!(w, "  SNI routes {}", t.hosts.join(","));
            } else {
                let _ = writeln!(w, "  {} terminates {}", t.secret_name, t.hosts.join(","));
            }
        }
    }
    let _ = writeln!(w, "Rules:\n  Host\tPath\tBackends");
    let _ = writeln!(w, "  ----\t----\t--------");
    let mut count = 0;
    for rule in &ing.spec.rules {
        let Some(http) = &rule.http else { continue };
        count += 1;
        let host = if rule.host.is_empty() {
            "*"
        } else {
            &rule.host
        };
        let _ = writeln!(w, "  {host}\t");
        for p in http.paths.as_deref().unwrap_or_default() {
            let backend = describe_backend(rd, &m.namespace, &p.backend);
            let _ = writeln!(w, "    \t{} \t{backend}", p.path);
        }
    }
    if count == 0 {
        let _ = writeln!(w, "  *\t*\t{default_backend}");
    }
    annotations(&mut w, &m.annotations);
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeIngressClassV1`.
pub(super) fn describe_ingress_class(rd: &mut dyn Reader, ic: &IngressClass) -> String {
    let mut w = String::new();
    let m = &ic.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "Controller:\t{}", ic.spec.controller);
    if let Some(p) = &ic.spec.parameters {
        let _ = writeln!(w, "Parameters:");
        if let Some(g) = &p.api_group {
            let _ = writeln!(w, "  APIGroup:\t{g}");
        }
        let _ = writeln!(w, "  Kind:\t{}", p.kind);
        let _ = writeln!(w, "  Name:\t{}", p.name);
    }
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeServiceCIDRV1`: the CIDRs, then the conditions in a table.
pub(super) fn describe_service_cidr(rd: &mut dyn Reader, sc: &ServiceCIDR) -> String {
    let mut w = String::new();
    let m = &sc.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "CIDRs:\t{}", sc.spec.cidrs.join(", "));
    if !sc.status.conditions.is_empty() {
        let _ = writeln!(w, "Status:");
        let _ = writeln!(w, "Conditions:");
        let _ = writeln!(w, "  Type\tStatus\tLastTransitionTime\tReason\tMessage");
        let _ = writeln!(w, "  ----\t------\t------------------\t------\t-------");
        for c in &sc.status.conditions {
            let at = c
                .last_transition_time
                .as_deref()
                .and_then(crate::time::parse_rfc3339)
                .map(crate::time::rfc1123z)
                .unwrap_or_else(|| "Mon, 01 Jan 0001 00:00:00 +0000".into());
            let _ = writeln!(
                w,
                "  {}\t{}\t{at}\t{}\t{}",
                c.type_, c.status, c.reason, c.message
            );
        }
    }
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeIPAddressV1`: the object the address belongs to.
pub(super) fn describe_ip_address(rd: &mut dyn Reader, ip: &IPAddress) -> String {
    let mut w = String::new();
    let m = &ip.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    if let Some(p) = &ip.spec.parent_ref {
        let _ = writeln!(w, "Parent Reference:");
        let _ = writeln!(w, "  Group:\t{}", p.group);
        let _ = writeln!(w, "  Resource:\t{}", p.resource);
        let _ = writeln!(w, "  Namespace:\t{}", p.namespace);
        let _ = writeln!(w, "  Name:\t{}", p.name);
    }
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `To Port` lines of one rule's ports (`printNetworkPolicySpecIngressFrom`).
fn policy_ports(w: &mut String, ports: &[NetworkPolicyPort]) {
    if ports.is_empty() {
        let _ = writeln!(w, "    To Port: <any> (traffic allowed to all ports)");
        return;
    }
    for p in ports {
        let proto = p.protocol.as_deref().unwrap_or("TCP");
        // IntOrString's String() of a nil pointer.
        let port = match &p.port {
            Some(IntOrString::Int(n)) => n.to_string(),
            Some(IntOrString::String(s)) => s.clone(),
            None => "<nil>".into(),
        };
        match p.end_port {
            None => {
                let _ = writeln!(w, "    To Port: {port}/{proto}");
            }
            Some(end) => {
                let _ = writeln!(w, "    To Port Range: {port}-{end}/{proto}");
            }
        }
    }
}

/// The peers of one rule (`From:` or `To:`).
fn policy_peers(w: &mut String, title: &str, peers: &[NetworkPolicyPeer], any: &str) {
    if peers.is_empty() {
        let _ = writeln!(w, "    {title}: <any> ({any})");
        return;
    }
    let sel = |s: &LabelSelector| or_none_selector(s);
    for peer in peers {
        let _ = writeln!(w, "    {title}:");
        match (&peer.pod_selector, &peer.namespace_selector, &peer.ip_block) {
            (Some(p), Some(n), _) => {
                let _ = writeln!(w, "      NamespaceSelector: {}", sel(n));
                let _ = writeln!(w, "      PodSelector: {}", sel(p));
            }
            (Some(p), None, _) => {
                let _ = writeln!(w, "      PodSelector: {}", sel(p));
            }
            (None, Some(n), _) => {
                let _ = writeln!(w, "      NamespaceSelector: {}", sel(n));
            }
            (None, None, Some(b)) => {
                let _ = writeln!(w, "      IPBlock:");
                let _ = writeln!(w, "        CIDR: {}", b.cidr);
                let _ = writeln!(w, "        Except: {}", b.except.join(", "));
            }
            (None, None, None) => {}
        }
    }
}

/// `metav1.FormatLabelSelector`: `<none>` for an empty selector.
fn or_none_selector(s: &LabelSelector) -> String {
    let text = s.to_selector_string();
    if text.is_empty() {
        "<none>".into()
    } else {
        text
    }
}

/// One direction of `describeNetworkPolicySpec`: its rules (ports, then peers) apart
/// by a line of dashes (`printNetworkPolicySpecIngressFrom` / `…EgressTo`), or that the
/// policy does not affect it.
fn policy_direction(
    s: &mut String,
    isolated: bool,
    dir: &str,
    rules: &[(&[NetworkPolicyPort], &[NetworkPolicyPeer])],
) {
    if !isolated {
        let _ = writeln!(s, "  Not affecting {dir} traffic");
        return;
    }
    let _ = writeln!(s, "  Allowing {dir} traffic:");
    if rules.is_empty() {
        let _ = writeln!(
            s,
            "    <none> (Selected pods are isolated for {dir} connectivity)"
        );
    }
    let (title, any) = if dir == "ingress" {
        ("From", "traffic not restricted by source")
    } else {
        ("To", "traffic not restricted by destination")
    };
    for (i, (ports, peers)) in rules.iter().enumerate() {
        policy_ports(s, ports);
        policy_peers(s, title, peers, any);
        if i + 1 != rules.len() {
            s.push_str("    ----------\n");
        }
    }
}

/// `describeNetworkPolicy` (no Events: the describer reads none).
pub(super) fn describe_network_policy(np: &NetworkPolicy) -> String {
    let mut w = String::new();
    let m = &np.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    // `Created on:` prints the time with Go's `time.Time.String()`.
    let created = m
        .creation_timestamp
        .replace('T', " ")
        .replace('Z', " +0000 UTC");
    let _ = writeln!(w, "Created on:\t{created}");
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let spec = &np.spec;
    // The spec lines carry no tab: they are not aligned with the fields above.
    let mut s = String::from("Spec:\n");
    if spec.pod_selector.is_empty() {
        s.push_str(
            "  PodSelector:     <none> (Allowing the specific traffic to all pods in this namespace)\n",
        );
    } else {
        let _ = writeln!(
            s,
            "  PodSelector:     {}",
            or_none_selector(&spec.pod_selector)
        );
    }
    let ingress: Vec<_> = spec
        .ingress
        .iter()
        .map(|r| (&r.ports[..], &r.from[..]))
        .collect();
    let egress: Vec<_> = spec
        .egress
        .iter()
        .map(|r| (&r.ports[..], &r.to[..]))
        .collect();
    policy_direction(&mut s, np.isolates_ingress(), "ingress", &ingress);
    policy_direction(&mut s, np.isolates_egress(), "egress", &egress);
    let types = if spec.policy_types.is_empty() {
        "<none>".to_string()
    } else {
        spec.policy_types.join(", ")
    };
    let _ = writeln!(s, "  Policy Types: {types}");
    tabwriter::format(&w, 0, 2) + &s
}
