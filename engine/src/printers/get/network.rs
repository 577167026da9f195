//! The tables of Services, EndpointSlices and Endpoints.

use super::super::age;
use super::cells::*;
use crate::api::*;
use crate::time::SimTime;

/// Service's columns.
pub(super) const SERVICE: Columns = Columns {
    names: &[
        "NAME",
        "TYPE",
        "CLUSTER-IP",
        "EXTERNAL-IP",
        "PORT(S)",
        "AGE",
    ],
    wide: &["SELECTOR"],
};

/// EndpointSlice's columns.
pub(super) const ENDPOINT_SLICE: Columns = Columns {
    names: &["NAME", "ADDRESSTYPE", "PORTS", "ENDPOINTS", "AGE"],
    wide: &[],
};

/// Endpoints's columns.
pub(super) const ENDPOINTS: Columns = Columns {
    names: &["NAME", "ENDPOINTS", "AGE"],
    wide: &[],
};

/// `printService`.
pub(super) fn print_service(
    name: String,
    svc: &Service,
    o: &TableOptions,
    now: SimTime,
) -> Vec<String> {
    let internal_ip = svc
        .spec
        .cluster_ips
        .first()
        .cloned()
        .unwrap_or_else(|| "<none>".into());
    let ports = make_port_string(&svc.spec.ports);
    let mut r = vec![
        name,
        svc.spec.type_.clone(),
        internal_ip,
        service_external_ip(svc),
        if ports.is_empty() {
            "<none>".into()
        } else {
            ports
        },
        age(svc.metadata.created_ms, now),
    ];
    if o.wide {
        r.push(labels_col(
            svc.spec.selector.as_ref().unwrap_or(&StringMap::new()),
        ));
    }
    r
}

/// `makePortString`: `port/protocol`, or `port:nodePort/protocol`, comma-joined.
pub fn make_port_string(ports: &[ServicePort]) -> String {
    ports
        .iter()
        .map(|p| {
            if p.node_port > 0 {
                format!("{}:{}/{}", p.port, p.node_port, p.protocol)
            } else {
                format!("{}/{}", p.port, p.protocol)
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// `getServiceExternalIP` (no cloud: a LoadBalancer stays `<pending>`).
fn service_external_ip(svc: &Service) -> String {
    let external = svc.spec.external_ips.join(",");
    match svc.spec.type_.as_str() {
        "ClusterIP" | "NodePort" | "LoadBalancer" if !external.is_empty() => external,
        "ClusterIP" | "NodePort" => "<none>".into(),
        "LoadBalancer" => "<pending>".into(),
        "ExternalName" => svc
            .spec
            .extra
            .get("externalName")
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string(),
        _ => "<unknown>".into(),
    }
}

/// `listWithMoreString`: up to three items, then ` + N more...`; `<unset>` for none.
fn list_with_more(list: &[String], count: usize) -> String {
    const MAX: usize = 3;
    let shown = list.iter().take(MAX).cloned().collect::<Vec<_>>().join(",");
    if count > MAX {
        format!("{shown} + {} more...", count - MAX)
    } else if shown.is_empty() {
        "<unset>".into()
    } else {
        shown
    }
}

/// `formatDiscoveryPorts`: each port's number, else its name, else `*`.
pub fn format_discovery_ports(ports: &[EndpointPort]) -> String {
    let list: Vec<String> = ports
        .iter()
        .map(|p| match (&p.port, &p.name) {
            (Some(n), _) => n.to_string(),
            (None, Some(name)) => name.clone(),
            (None, None) => "*".into(),
        })
        .collect();
    list_with_more(&list, list.len())
}

/// `formatDiscoveryEndpoints`: every address, ready or not.
pub fn format_discovery_endpoints(endpoints: &[Endpoint]) -> String {
    let list: Vec<String> = endpoints
        .iter()
        .flat_map(|e| e.addresses.iter().cloned())
        .collect();
    list_with_more(&list, list.len())
}

/// `formatEndpoints`: the ready addresses (not-ready ones are neither shown nor
/// counted) as `ip:port` per port, port-major, bare IPs for a subset without ports;
/// three at most, then ` + N more...`; `<none>` without subsets, an empty cell when
/// only not-ready addresses exist.
pub fn format_endpoints(e: &Endpoints) -> String {
    if e.subsets.is_empty() {
        return "<none>".into();
    }
    const MAX: usize = 3;
    let (mut list, mut count, mut more) = (Vec::<String>::new(), 0, false);
    for ss in &e.subsets {
        if ss.ports.is_empty() {
            count += ss.addresses.len();
            for a in &ss.addresses {
                if list.len() == MAX {
                    more = true;
                    break;
                }
                list.push(a.ip.clone());
            }
            continue;
        }
        for port in &ss.ports {
            count += ss.addresses.len();
            for a in &ss.addresses {
                if list.len() == MAX {
                    more = true;
                    break;
                }
                // net.JoinHostPort: an IPv6 address in brackets.
                list.push(if a.ip.contains(':') {
                    format!("[{}]:{}", a.ip, port.port)
                } else {
                    format!("{}:{}", a.ip, port.port)
                });
            }
        }
    }
    let ret = list.join(",");
    if more {
        format!("{ret} + {} more...", count - MAX)
    } else {
        ret
    }
}

/// `printEndpointSlice`: the address type, ports and endpoints.
pub(super) fn print_endpoint_slice(name: String, s: &EndpointSlice, now: SimTime) -> Vec<String> {
    let m = &s.metadata;
    vec![
        name,
        s.address_type.clone(),
        format_discovery_ports(s.ports.as_deref().unwrap_or_default()),
        format_discovery_endpoints(s.endpoints.as_deref().unwrap_or_default()),
        age(m.created_ms, now),
    ]
}

/// `printEndpoints`.
pub(super) fn print_endpoints(name: String, e: &Endpoints, now: SimTime) -> Vec<String> {
    let m = &e.metadata;
    vec![name, format_endpoints(e), age(m.created_ms, now)]
}

/// Ingress's columns.
pub(super) const INGRESS: Columns = Columns {
    names: &["NAME", "CLASS", "HOSTS", "ADDRESS", "PORTS", "AGE"],
    wide: &[],
};

/// IngressClass's columns.
pub(super) const INGRESS_CLASS: Columns = Columns {
    names: &["NAME", "CONTROLLER", "PARAMETERS", "AGE"],
    wide: &[],
};

/// ServiceCIDR's columns.
pub(super) const SERVICE_CIDR: Columns = Columns {
    names: &["NAME", "CIDRS", "AGE"],
    wide: &[],
};

/// IPAddress's columns: upstream defines two, so its age cell is never printed.
pub(super) const IP_ADDRESS: Columns = Columns {
    names: &["NAME", "PARENTREF"],
    wide: &[],
};

/// NetworkPolicy's columns.
pub(super) const NETWORK_POLICY: Columns = Columns {
    names: &["NAME", "POD-SELECTOR", "AGE"],
    wide: &[],
};

/// `printIngress`.
pub(super) fn print_ingress(
    name: String,
    ing: &Ingress,
    o: &TableOptions,
    now: SimTime,
) -> Vec<String> {
    let class = ing
        .spec
        .ingress_class_name
        .clone()
        .unwrap_or_else(|| "<none>".into());
    // `formatPorts`: TLS anywhere means both.
    let ports = if ing.spec.tls.is_empty() {
        "80"
    } else {
        "80, 443"
    };
    vec![
        name,
        class,
        format_hosts(&ing.spec.rules),
        ingress_load_balancer_status_stringer(&ing.status.load_balancer, o.wide),
        ports.into(),
        age(ing.metadata.created_ms, now),
    ]
}

/// `formatHosts`: the first three hosts, then how many rules more.
fn format_hosts(rules: &[IngressRule]) -> String {
    const MAX: usize = 3;
    let mut list: Vec<&str> = Vec::new();
    let mut more = false;
    for rule in rules {
        if list.len() == MAX {
            more = true;
        }
        if !more && !rule.host.is_empty() {
            list.push(&rule.host);
        }
    }
    if list.is_empty() {
        return "*".into();
    }
    let ret = list.join(",");
    if more {
        format!("{ret} + {} more...", rules.len() - MAX)
    } else {
        ret
    }
}

/// `ingressLoadBalancerStatusStringer`: the distinct IPs (or else host names), sorted,
/// cut to 16 bytes unless wide (`describe ingress` asks for it wide).
pub fn ingress_load_balancer_status_stringer(s: &IngressLoadBalancerStatus, wide: bool) -> String {
    let set: std::collections::BTreeSet<&str> = s
        .ingress
        .iter()
        .filter_map(|i| {
            if !i.ip.is_empty() {
                Some(i.ip.as_str())
            } else if !i.hostname.is_empty() {
                Some(i.hostname.as_str())
            } else {
                None
            }
        })
        .collect();
    let r = set.into_iter().collect::<Vec<_>>().join(",");
    const LOAD_BALANCER_WIDTH: usize = 16;
    if !wide && r.len() > LOAD_BALANCER_WIDTH {
        // Go cuts bytes; a status written through the API may hold any text, so the
        // cut moves back to a character boundary rather than split one.
        let mut end = LOAD_BALANCER_WIDTH - 3;
        while !r.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &r[..end])
    } else {
        r
    }
}

/// `printServiceCIDR`: its CIDRs joined by commas.
pub(super) fn print_service_cidr(name: String, sc: &ServiceCIDR, now: SimTime) -> Vec<String> {
    vec![
        name,
        sc.spec.cidrs.join(","),
        age(sc.metadata.created_ms, now),
    ]
}

/// `printIPAddress`: its parent as `resource[.group][/namespace]/name`, lowercased
/// (upstream's row has an age cell too, past its two columns).
pub(super) fn print_ip_address(name: String, ip: &IPAddress) -> Vec<String> {
    let parent = match &ip.spec.parent_ref {
        None => "<none>".to_string(),
        Some(p) => {
            let mut s = if p.group.is_empty() {
                p.resource.to_lowercase()
            } else {
                format!("{}.{}", p.resource, p.group).to_lowercase()
            };
            if !p.namespace.is_empty() {
                s.push('/');
                s.push_str(&p.namespace);
            }
            s.push('/');
            s.push_str(&p.name);
            s
        }
    };
    vec![name, parent]
}

/// `printIngressClass`: the controller and `Kind[.apiGroup]/name` of its parameters.
pub(super) fn print_ingress_class(name: String, ic: &IngressClass, now: SimTime) -> Vec<String> {
    let parameters = match &ic.spec.parameters {
        None => "<none>".to_string(),
        Some(p) => match &p.api_group {
            Some(g) => format!("{}.{g}/{}", p.kind, p.name),
            None => format!("{}/{}", p.kind, p.name),
        },
    };
    vec![
        name,
        ic.spec.controller.clone(),
        parameters,
        age(ic.metadata.created_ms, now),
    ]
}

/// `printNetworkPolicy`: the Pod selector.
pub(super) fn print_network_policy(name: String, np: &NetworkPolicy, now: SimTime) -> Vec<String> {
    vec![
        name,
        format_label_selector(Some(&np.spec.pod_selector)),
        age(np.metadata.created_ms, now),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_ingress_address_is_cut_without_splitting_a_character() {
        let status = IngressLoadBalancerStatus {
            ingress: vec![IngressLoadBalancerIngress {
                hostname: "ééééééééééé.example".into(),
                ..Default::default()
            }],
        };
        assert_eq!(
            ingress_load_balancer_status_stringer(&status, false),
            "éééééé..."
        );
        assert_eq!(
            ingress_load_balancer_status_stringer(&status, true),
            "ééééééééééé.example"
        );
    }
}
