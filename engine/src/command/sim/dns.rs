//! `sim nslookup`: what the cluster DNS answers a Pod, as busybox's `nslookup` prints
//! it. The answers are CoreDNS's `kubernetes` plugin's with kubeadm's Corefile
//! (`kubernetes cluster.local in-addr.arpa ip6.arpa { pods insecure … }`,
//! `plugin/kubernetes/kubernetes.go` and `reverse.go`), and they come only while the
//! query reaches a CoreDNS: the Pod's resolver is the `kube-dns` Service's address
//! ([`DNS_SERVICE_IP`], the kubelet's `clusterDNS`), which answers while one of its
//! endpoints is Ready.

use super::super::args::{flag, parse_flags};
use super::*;
use crate::api::*;
use crate::apiserver::ObjKey;
use crate::cluster::dns::DNS_SERVICE_IP;
use crate::cluster::Cluster;
use crate::controllers::endpointslice::LABEL_SERVICE_NAME;

/// The cluster's DNS domain (kubeadm's `networking.dnsDomain`).
const ZONE: &str = "cluster.local";

/// What busybox prints when no server answers (every query timed out).
const NO_SERVERS: &str = ";; connection timed out; no servers could be reached";

/// `sim nslookup NAME|IP [-n NS]`: what cluster DNS answers a Pod in NS (search path
/// `NS.svc.cluster.local svc.cluster.local cluster.local`): a Service's cluster IP, a
/// headless Service's ready endpoints, an endpoint's own name under a headless
/// Service, an ExternalName's CNAME, a Pod's `A-B-C-D.NS.pod` record, and for an IP
/// the PTR record of a Service or of a named endpoint.
pub(super) fn nslookup(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, &[flag("namespace", Some('n'))], "sim nslookup")?;
    let usage = "error: usage: sim nslookup NAME|IP [-n NAMESPACE] (e.g. web, web.default, web.default.svc.cluster.local, 10.96.0.1)";
    let name = p
        .args
        .first()
        .ok_or(usage)?
        .trim_end_matches('.')
        .to_ascii_lowercase();
    if name.is_empty() {
        return Err(usage.into());
    }
    let ns = p.get("namespace").unwrap_or("default");
    if !dns_answers(c) {
        return Err(NO_SERVERS.into());
    }
    let head = format!("Server:\t\t{DNS_SERVICE_IP}\nAddress:\t{DNS_SERVICE_IP}:53\n\n");
    if let Some(ip) = parse_ipv4(&name) {
        return reverse(c, &head, ip);
    }
    // The search path: NAME.NS.svc.cluster.local, NAME.svc.cluster.local, …, NAME.
    let candidates = [
        format!("{name}.{ns}.svc.{ZONE}"),
        format!("{name}.svc.{ZONE}"),
        format!("{name}.{ZONE}"),
        name.clone(),
    ];
    for fqdn in &candidates {
        if let Some(answer) = forward(c, fqdn) {
            return Ok(format!("{head}{answer}"));
        }
    }
    Err(format!("{head}** server can't find {name}: NXDOMAIN"))
}

/// Whether a query reaches a CoreDNS: the `kube-dns` Service holds the resolver's
/// address and kube-proxy has a Ready endpoint to send it to.
fn dns_answers(c: &Cluster) -> bool {
    let key = ObjKey::new("kube-system", "kube-dns");
    c.store
        .get::<Service>(&key)
        .is_some_and(|s| s.spec.cluster_ip == DNS_SERVICE_IP)
        && !ready_endpoints(c, "kube-system", "kube-dns").is_empty()
}

/// The Ready endpoints of Service `ns/svc`, from its EndpointSlices (what CoreDNS
/// watches), in slice order.
fn ready_endpoints(c: &Cluster, ns: &str, svc: &str) -> Vec<Endpoint> {
    c.store
        .list_ns::<EndpointSlice>(ns)
        .filter(|e| {
            e.metadata
                .labels
                .get(LABEL_SERVICE_NAME)
                .map(String::as_str)
                == Some(svc)
        })
        .flat_map(|e| e.endpoints.clone().unwrap_or_default())
        .filter(|e| e.conditions.ready.unwrap_or(true))
        .collect()
}

/// The answer for one fully qualified name, or `None` (NXDOMAIN: the resolver tries
/// the next name of its search path).
fn forward(c: &Cluster, fqdn: &str) -> Option<String> {
    if let Some(rest) = fqdn.strip_suffix(&format!(".pod.{ZONE}")) {
        return pod_record(fqdn, rest);
    }
    let rest = fqdn.strip_suffix(&format!(".svc.{ZONE}"))?;
    let parts: Vec<&str> = rest.split('.').collect();
    match parts[..] {
        [svc, ns] => service_record(c, fqdn, ns, svc),
        // ENDPOINT.SVC.NS: an endpoint of a headless Service by its hostname (a
        // StatefulSet's `web-0.web`), or by its address written with dashes.
        [host, svc, ns] => {
            let s = c.store.get::<Service>(&ObjKey::new(ns, svc))?;
            if !s.is_headless() {
                return None;
            }
            let ip = ready_endpoints(c, ns, svc)
                .into_iter()
                .filter_map(|e| {
                    let ip = e.addresses.first()?.clone();
                    let named = if e.hostname.is_empty() {
                        ip.replace('.', "-") == host
                    } else {
                        e.hostname == host
                    };
                    named.then_some(ip)
                })
                .next()?;
            Some(format!("Name:\t{fqdn}\nAddress: {ip}"))
        }
        _ => None,
    }
}

/// `SVC.NS.svc.cluster.local`: a Service's cluster IP, a headless Service's Ready
/// endpoints (none: no record), an ExternalName's CNAME.
fn service_record(c: &Cluster, fqdn: &str, ns: &str, svc: &str) -> Option<String> {
    let s = c.store.get::<Service>(&ObjKey::new(ns, svc))?;
    if s.spec.type_ == "ExternalName" {
        let target = s
            .spec
            .extra
            .get("externalName")
            .and_then(|v| v.as_str())
            .unwrap_or_default();
        return Some(format!("{fqdn}\tcanonical name = {target}"));
    }
    let addresses: Vec<String> = if s.is_headless() {
        let mut ips: Vec<String> = ready_endpoints(c, ns, svc)
            .into_iter()
            .filter_map(|e| e.addresses.first().cloned())
            .collect();
        crate::sorting::sort(&mut ips);
        ips.dedup();
        ips
    } else {
        vec![s.spec.cluster_ip.clone()]
    };
    if addresses.is_empty() {
        return None;
    }
    let lines: Vec<String> = addresses
        .iter()
        .map(|a| format!("Name:\t{fqdn}\nAddress: {a}"))
        .collect();
    Some(lines.join("\n"))
}

/// `A-B-C-D.NS.pod.cluster.local` with `pods insecure`: the address the name spells,
/// whether or not a Pod has it (`findPods`: no lookup in insecure mode).
fn pod_record(fqdn: &str, rest: &str) -> Option<String> {
    let (pod, ns) = rest.split_once('.')?;
    if ns.is_empty() || ns.contains('.') || pod.contains("--") || pod.matches('-').count() != 3 {
        return None;
    }
    let ip = parse_ipv4(&pod.replace('-', "."))?;
    Some(format!("Name:\t{fqdn}\nAddress: {}", format_ipv4(ip)))
}

/// The PTR record of an address (`serviceRecordForIP`): the Service whose cluster IP
/// it is, else every endpoint with a hostname at that address; else NXDOMAIN (the
/// Corefile's `fallthrough in-addr.arpa` sends it upstream, which has no record).
fn reverse(c: &Cluster, head: &str, ip: [u8; 4]) -> R {
    let [a, b, cc, d] = ip;
    let arpa = format!("{d}.{cc}.{b}.{a}.in-addr.arpa");
    let addr = format_ipv4(ip);
    // The allocator's IPAddress of a cluster IP names its Service (no scan of them).
    let service = c
        .store
        .get::<IPAddress>(&ObjKey::new("", &addr))
        .and_then(|a| a.spec.parent_ref.as_ref())
        .filter(|r| r.resource == "services")
        .and_then(|r| c.store.get::<Service>(&ObjKey::new(&r.namespace, &r.name)));
    let names: Vec<String> = match service {
        Some(s) => vec![format!(
            "{}.{}.svc.{ZONE}",
            s.metadata.name, s.metadata.namespace
        )],
        None => c
            .store
            .list::<EndpointSlice>()
            .flat_map(|slice| {
                let svc = slice
                    .metadata
                    .labels
                    .get(LABEL_SERVICE_NAME)
                    .cloned()
                    .unwrap_or_default();
                let ns = slice.metadata.namespace.clone();
                slice
                    .endpoints
                    .clone()
                    .unwrap_or_default()
                    .into_iter()
                    .filter(|e| {
                        e.conditions.ready.unwrap_or(true)
                            && !e.hostname.is_empty()
                            && e.addresses.contains(&addr)
                    })
                    .map(move |e| format!("{}.{svc}.{ns}.svc.{ZONE}", e.hostname))
            })
            .collect(),
    };
    if names.is_empty() {
        return Err(format!("{head}** server can't find {arpa}: NXDOMAIN"));
    }
    let lines: Vec<String> = names
        .iter()
        .map(|n| format!("{arpa}\tname = {n}"))
        .collect();
    Ok(format!("{head}{}", lines.join("\n")))
}

/// A dotted IPv4 address, as Go's `net.ParseIP` reads one (no leading zeros).
fn parse_ipv4(s: &str) -> Option<[u8; 4]> {
    let leading_zero = s.split('.').any(|p| p.len() > 1 && p.starts_with('0'));
    let n = crate::apiserver::services::parse_ipv4(s).filter(|_| !leading_zero)?;
    Some(n.to_be_bytes())
}

fn format_ipv4(ip: [u8; 4]) -> String {
    crate::apiserver::services::format_ipv4(u32::from_be_bytes(ip))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_plain_dotted_quad_is_an_address() {
        assert_eq!(parse_ipv4("10.96.0.1"), Some([10, 96, 0, 1]));
        for bad in [
            "10.96.0",
            "10.96.0.1.2",
            "10.96.0.256",
            "10.096.0.1",
            "a.b.c.d",
            "",
        ] {
            assert_eq!(parse_ipv4(bad), None, "{bad}");
        }
    }

    #[test]
    fn a_pod_record_spells_its_address_with_dashes_in_a_namespace() {
        let f = "10-244-1-5.default.pod.cluster.local";
        assert_eq!(
            pod_record(f, "10-244-1-5.default").as_deref(),
            Some("Name:\t10-244-1-5.default.pod.cluster.local\nAddress: 10.244.1.5")
        );
        assert_eq!(pod_record(f, "10-244-1.default"), None);
        assert_eq!(pod_record(f, "10-244-1-5"), None);
        assert_eq!(pod_record(f, "10-244-1-5.a.b"), None);
    }
}
