//! The Service describer and its endpoints: Service, EndpointSlice, Endpoints.

use super::common::*;
use super::Reader;
use crate::api::*;
use crate::tabwriter;
use std::fmt::Write;

/// `formatEndpointSlices` (describe's `Endpoints:` line): the ready endpoints of the
/// slices' ports named `port_name`, as `ip:port`, three at most. Upstream sets `more`
/// before it skips a not-ready endpoint, so three ready and one not ready print
/// `… + 0 more...`; kept.
pub(super) fn format_endpoint_slices(slices: &[&EndpointSlice], port_name: &str) -> String {
    if slices.is_empty() {
        return "<none>".into();
    }
    const MAX: usize = 3;
    let (mut list, mut more, mut count) = (Vec::<String>::new(), false, 0usize);
    for s in slices {
        let endpoints = s.endpoints.as_deref().unwrap_or_default();
        let ports = s.ports.as_deref().unwrap_or_default();
        let is_ready = |e: &Endpoint| e.conditions.ready.unwrap_or(true);
        if ports.is_empty() {
            for e in endpoints {
                if list.len() == MAX {
                    more = true;
                }
                if !is_ready(e) {
                    continue;
                }
                if !more {
                    list.push(e.addresses.first().cloned().unwrap_or_default());
                }
                count += 1;
            }
        } else {
            for p in ports {
                if p.name.as_deref().unwrap_or_default() != port_name {
                    continue;
                }
                for e in endpoints {
                    if list.len() == MAX {
                        more = true;
                    }
                    if !is_ready(e) {
                        continue;
                    }
                    if !more {
                        let addr = e.addresses.first().cloned().unwrap_or_default();
                        let port = p.port.unwrap_or_default();
                        list.push(if addr.contains(':') {
                            format!("[{addr}]:{port}")
                        } else {
                            format!("{addr}:{port}")
                        });
                    }
                    count += 1;
                }
            }
        }
    }
    let ret = list.join(",");
    if more {
        format!("{ret} + {} more...", count.saturating_sub(MAX))
    } else {
        ret
    }
}

/// `describeService` (kubectl v1.33: endpoints from the Service's EndpointSlices).
pub(super) fn describe_service(rd: &mut dyn Reader, svc: &Service) -> String {
    let mut w = String::new();
    let m = &svc.metadata;
    let spec = &svc.spec;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "Selector:\t{}", format_labels(spec.selector.as_ref()));
    let _ = writeln!(w, "Type:\t{}", spec.type_);
    if !spec.ip_family_policy.is_empty() {
        let _ = writeln!(w, "IP Family Policy:\t{}", spec.ip_family_policy);
    }
    let or_none = |v: &[String]| {
        if v.is_empty() {
            "<none>".to_string()
        } else {
            v.join(",")
        }
    };
    let _ = writeln!(w, "IP Families:\t{}", or_none(&spec.ip_families));
    let _ = writeln!(w, "IP:\t{}", spec.cluster_ip);
    let _ = writeln!(w, "IPs:\t{}", or_none(&spec.cluster_ips));
    if !spec.external_ips.is_empty() {
        let _ = writeln!(w, "External IPs:\t{}", spec.external_ips.join(","));
    }
    let extra_str = |k: &str| {
        spec.extra
            .get(k)
            .and_then(|v| v.as_str())
            .unwrap_or_default()
            .to_string()
    };
    let lb_ip = extra_str("loadBalancerIP");
    if !lb_ip.is_empty() {
        let _ = writeln!(w, "Desired LoadBalancer IP:\t{lb_ip}");
    }
    let external_name = extra_str("externalName");
    if !external_name.is_empty() {
        let _ = writeln!(w, "External Name:\t{external_name}");
    }
    // The Service's slices: a list by the service-name label.
    let by_service = LabelSelector::from_labels(&StringMap::from([(
        "kubernetes.io/service-name".to_string(),
        m.name.clone(),
    )]));
    let listed = rd.list(
        Kind::EndpointSlice,
        Some(&m.namespace),
        Some(&by_service),
        "",
    );
    let owned: Vec<EndpointSlice> = typed(&listed);
    let slices: Vec<&EndpointSlice> = owned.iter().collect();
    for p in &spec.ports {
        let name = if p.name.is_empty() {
            "<unset>"
        } else {
            &p.name
        };
        let _ = writeln!(w, "Port:\t{name}\t{}/{}", p.port, p.protocol);
        let target = match &p.target_port {
            Some(IntOrString::Int(n)) => n.to_string(),
            Some(IntOrString::String(s)) => s.clone(),
            None => "0".into(),
        };
        let _ = writeln!(w, "TargetPort:\t{target}/{}", p.protocol);
        if p.node_port != 0 {
            let _ = writeln!(w, "NodePort:\t{name}\t{}/{}", p.node_port, p.protocol);
        }
        let _ = writeln!(
            w,
            "Endpoints:\t{}",
            format_endpoint_slices(&slices, &p.name)
        );
    }
    let _ = writeln!(w, "Session Affinity:\t{}", spec.session_affinity);
    if !spec.external_traffic_policy.is_empty() {
        let _ = writeln!(
            w,
            "External Traffic Policy:\t{}",
            spec.external_traffic_policy
        );
    }
    if !spec.internal_traffic_policy.is_empty() {
        let _ = writeln!(
            w,
            "Internal Traffic Policy:\t{}",
            spec.internal_traffic_policy
        );
    }
    if let Some(n) = spec
        .extra
        .get("healthCheckNodePort")
        .and_then(|v| v.as_i64())
    {
        if n != 0 {
            let _ = writeln!(w, "HealthCheck NodePort:\t{n}");
        }
    }
    if let Some(r) = spec
        .extra
        .get("loadBalancerSourceRanges")
        .and_then(|v| v.as_array())
    {
        let r: Vec<&str> = r.iter().filter_map(|v| v.as_str()).collect();
        if !r.is_empty() {
            let _ = writeln!(w, "LoadBalancer Source Ranges:\t{}", r.join(","));
        }
    }
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeEndpointSliceV1`.
pub(super) fn describe_endpoint_slice(rd: &mut dyn Reader, s: &EndpointSlice) -> String {
    let mut w = String::new();
    let m = &s.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "AddressType:\t{}", s.address_type);
    let unset = |v: Option<String>| {
        v.filter(|x| !x.is_empty())
            .unwrap_or_else(|| "<unset>".into())
    };
    match s.ports.as_deref() {
        None | Some([]) => {
            let _ = writeln!(w, "Ports: <unset>");
        }
        Some(ports) => {
            let _ = writeln!(w, "Ports:");
            let _ = writeln!(w, "  Name\tPort\tProtocol");
            let _ = writeln!(w, "  ----\t----\t--------");
            for p in ports {
                let _ = writeln!(
                    w,
                    "  {}\t{}\t{}",
                    unset(p.name.clone()),
                    unset(p.port.map(|n| n.to_string())),
                    p.protocol.clone().unwrap_or_default()
                );
            }
        }
    }
    match s.endpoints.as_deref() {
        None | Some([]) => {
            let _ = writeln!(w, "Endpoints: <none>");
        }
        Some(eps) => {
            let _ = writeln!(w, "Endpoints:");
            for e in eps {
                let addrs = if e.addresses.is_empty() {
                    "<none>".to_string()
                } else {
                    e.addresses.join(", ")
                };
                let _ = writeln!(w, "  - Addresses:\t{addrs}");
                let _ = writeln!(w, "    Conditions:");
                let _ = writeln!(
                    w,
                    "      Ready:\t{}",
                    unset(e.conditions.ready.map(|b| b.to_string()))
                );
                let _ = writeln!(w, "    Hostname:\t{}", unset(Some(e.hostname.clone())));
                if let Some(r) = &e.target_ref {
                    let _ = writeln!(w, "    TargetRef:\t{}/{}", r.kind, r.name);
                }
                let _ = writeln!(w, "    NodeName:\t{}", unset(Some(e.node_name.clone())));
                let _ = writeln!(w, "    Zone:\t{}", unset(Some(e.zone.clone())));
            }
        }
    }
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeEndpoints` (v1).
pub(super) fn describe_endpoints(rd: &mut dyn Reader, e: &Endpoints) -> String {
    let mut w = String::new();
    let m = &e.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "Subsets:");
    let ips = |a: &[EndpointAddress]| {
        if a.is_empty() {
            "<none>".to_string()
        } else {
            a.iter()
                .map(|x| x.ip.as_str())
                .collect::<Vec<_>>()
                .join(",")
        }
    };
    for ss in &e.subsets {
        let _ = writeln!(w, "  Addresses:\t{}", ips(&ss.addresses));
        let _ = writeln!(w, "  NotReadyAddresses:\t{}", ips(&ss.not_ready_addresses));
        if !ss.ports.is_empty() {
            let _ = writeln!(w, "  Ports:");
            let _ = writeln!(w, "    Name\tPort\tProtocol");
            let _ = writeln!(w, "    ----\t----\t--------");
            for p in &ss.ports {
                let name = if p.name.is_empty() {
                    "<unset>"
                } else {
                    &p.name
                };
                let _ = writeln!(w, "    {name}\t{}\t{}", p.port, p.protocol);
            }
        }
        let _ = writeln!(w);
    }
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}
