//! NetworkPolicy as a network plugin enforces it on each connection (the API's
//! semantics, `k8s.io/api/networking/v1/types.go` and the NetworkPolicy concept page):
//!
//! - A Pod is isolated for ingress (egress) when a policy of its namespace selects it
//!   and names that direction in `policyTypes`. A Pod no policy isolates accepts (sends)
//!   everything.
//! - An isolated Pod's connection is allowed when a rule of one of the policies that
//!   select it matches both the peer and the port: the allow lists add up, and there is
//!   no deny rule. An empty `from` / `to` is every peer, an empty `ports` every port.
//! - A peer: `podSelector` alone picks Pods of the policy's namespace,
//!   `namespaceSelector` alone every Pod of the namespaces it picks, both together the
//!   Pods the first picks in the namespaces the second picks, `ipBlock` addresses.
//! - Traffic between a Pod and its own node is always allowed (kubelet probes); traffic
//!   from a node's host network elsewhere is matched by its node IP.
//! - A refused connection is dropped, as most plugins do: the client times out.

use crate::api::*;
use crate::apiserver::{ObjKey, Store};

/// Where a connection comes from.
#[derive(Clone, Copy, Debug)]
pub enum Peer<'a> {
    /// A Pod (its namespace, labels and IP).
    Pod(&'a Pod),
    /// A node's host network (a client on the node, or traffic from outside entering
    /// through it): the node's name and InternalIP.
    Host(&'a str, &'a str),
}

/// Which way a policy rule reads.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Direction {
    Ingress,
    Egress,
}

/// Whether a connection from `from` to Pod `to` on its port `port` is allowed by the
/// NetworkPolicies of both ends.
pub fn allows(store: &Store, from: Peer<'_>, to: &Pod, port: i64) -> bool {
    // Most clusters have none: nothing to look up.
    if store.count(Kind::NetworkPolicy) == 0 {
        return true;
    }
    if let Peer::Pod(src) = from {
        if !admitted(
            store,
            src,
            Direction::Egress,
            rule_allows(store, to, port, Peer::Pod(to)),
        ) {
            return false;
        }
    }
    if let Peer::Host(node, _) = from {
        if node == to.spec.node_name {
            return true;
        }
    }
    admitted(
        store,
        to,
        Direction::Ingress,
        rule_allows(store, to, port, from),
    )
}

/// Whether a rule (its policy's namespace, peers, ports) lets `who` reach `port` of
/// Pod `to`: the port matches, and every peer is allowed or one of them is `who`.
fn rule_allows<'a>(
    store: &'a Store,
    to: &'a Pod,
    port: i64,
    who: Peer<'a>,
) -> impl Fn(&str, &[NetworkPolicyPeer], &[NetworkPolicyPort]) -> bool + 'a {
    move |np_ns, peers, ports| {
        ports_match(ports, to, port)
            && (peers.is_empty() || peers.iter().any(|p| peer_matches(store, np_ns, p, who)))
    }
}

/// Whether `pod`'s policies let a connection through in `dir`: yes when none of them
/// isolates it that way, else when a rule of one that does says so (`rule_allows`
/// with the policy's namespace, the rule's peers and its ports).
fn admitted(
    store: &Store,
    pod: &Pod,
    dir: Direction,
    rule_allows: impl Fn(&str, &[NetworkPolicyPeer], &[NetworkPolicyPort]) -> bool,
) -> bool {
    let mut isolated = false;
    for o in store.list_shared(Kind::NetworkPolicy, Some(&pod.metadata.namespace)) {
        let Some(np) = NetworkPolicy::from_object(&o) else {
            continue;
        };
        let typed = match dir {
            Direction::Ingress => np.isolates_ingress(),
            Direction::Egress => np.isolates_egress(),
        };
        if !typed || !np.spec.pod_selector.matches(&pod.metadata.labels) {
            continue;
        }
        isolated = true;
        let ns = np.metadata.namespace.as_str();
        let allowed = match dir {
            Direction::Ingress => np
                .spec
                .ingress
                .iter()
                .any(|r| rule_allows(ns, &r.from, &r.ports)),
            Direction::Egress => np
                .spec
                .egress
                .iter()
                .any(|r| rule_allows(ns, &r.to, &r.ports)),
        };
        if allowed {
            return true;
        }
    }
    !isolated
}

/// Whether `ports` (empty: every port) let TCP `port` of Pod `to` through; a named port
/// is the name of one of its containers' ports.
fn ports_match(ports: &[NetworkPolicyPort], to: &Pod, port: i64) -> bool {
    ports.is_empty()
        || ports.iter().any(|p| {
            if p.protocol.as_deref().unwrap_or("TCP") != "TCP" {
                return false;
            }
            match &p.port {
                None => true,
                Some(IntOrString::Int(n)) => match p.end_port {
                    Some(end) => (*n..=end).contains(&port),
                    None => *n == port,
                },
                Some(IntOrString::String(name)) => to.spec.containers.iter().any(|c| {
                    c.ports
                        .iter()
                        .any(|cp| cp.name == *name && cp.container_port == port)
                }),
            }
        })
}

/// Whether peer `p` of a policy in namespace `np_ns` matches `who`.
fn peer_matches(store: &Store, np_ns: &str, p: &NetworkPolicyPeer, who: Peer<'_>) -> bool {
    match who {
        Peer::Host(_, ip) => p.ip_block.as_ref().is_some_and(|b| in_block(b, ip)),
        Peer::Pod(pod) => {
            if let Some(b) = &p.ip_block {
                return in_block(b, &pod.status.pod_ip);
            }
            let ns_ok = match &p.namespace_selector {
                None => pod.metadata.namespace == np_ns,
                Some(sel) => store
                    .get::<Namespace>(&ObjKey::new("", &pod.metadata.namespace))
                    .is_some_and(|n| sel.matches(&n.metadata.labels)),
            };
            ns_ok
                && p.pod_selector
                    .as_ref()
                    .is_none_or(|sel| sel.matches(&pod.metadata.labels))
        }
    }
}

/// Whether `ip` is in the block's CIDR and none of its exceptions.
fn in_block(b: &IPBlock, ip: &str) -> bool {
    use crate::apiserver::validation::{cidr_contains, parse_cidr_sloppy};
    let Ok(addr) = ip.parse::<std::net::IpAddr>() else {
        return false;
    };
    let inside = |cidr: &str| {
        parse_cidr_sloppy(cidr).is_some_and(|(net, len)| cidr_contains(net, len, addr))
    };
    inside(&b.cidr) && !b.except.iter().any(|e| inside(e))
}
