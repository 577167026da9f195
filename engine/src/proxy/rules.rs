//! kube-proxy's rules, one shared versioned history for every node
//! (`pkg/proxy/endpointslicecache.go`, the iptables proxier's sync at `minSyncPeriod`),
//! and the endpoints a connection may take (`pkg/proxy/topology.go`
//! `CategorizeEndpoints`).

use super::{Proxies, ProxyTimer, PROPAGATION};
use crate::api::*;
use crate::apiserver::{ObjKey, Store};
use crate::time::SimTime;
use std::collections::BTreeSet;
use std::sync::Arc;

/// One endpoint as a proxy's rules hold it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleEndpoint {
    /// The Pod's IP.
    pub ip: String,
    /// The Pod.
    pub pod: ObjKey,
    /// The Pod's uid.
    pub uid: String,
    /// The Pod's node.
    pub node: String,
    /// The port per Service port name.
    pub ports: Vec<(String, i64)>,
    /// Conditions as the slice said.
    pub ready: bool,
    /// Serving.
    pub serving: bool,
    /// Terminating.
    pub terminating: bool,
    /// The zones the EndpointSlice controller hinted this endpoint for.
    pub zone_hints: Vec<String>,
}

/// A Service as a proxy's rules hold it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ServiceRules {
    /// The cluster IP (`None` for headless: no rules).
    pub cluster_ip: String,
    /// (name, port, nodePort) per Service port.
    pub ports: Vec<(String, i64, i64)>,
    /// Every endpoint of every slice.
    pub endpoints: Vec<RuleEndpoint>,
    /// `sessionAffinity: ClientIP`: how long (s) a client stays with the endpoint it
    /// was sent to (`sessionAffinityConfig.clientIP.timeoutSeconds`, 10800 by default).
    pub affinity_seconds: Option<u64>,
    /// `internalTrafficPolicy: Local`: traffic to the cluster IP goes only to endpoints
    /// on the node it entered.
    pub internal_local: bool,
}

/// Where a connection to a Service's cluster IP may go from one node.
#[derive(Debug, PartialEq, Eq)]
pub enum Reachable<'a> {
    /// These endpoints.
    To(Vec<&'a RuleEndpoint>),
    /// No endpoint anywhere: the filter table REJECTs (`has no endpoints`).
    Rejected,
    /// Endpoints elsewhere, none on this node, with `internalTrafficPolicy: Local`: the
    /// filter table DROPs (`has no local endpoints`), so the client times out.
    Dropped,
}

impl Proxies {
    /// A Service or EndpointSlice changed: the proxies will see it after
    /// [`PROPAGATION`]. Returns the timer to arm, if one is not already. A Node
    /// changed: its kube-proxy knows its zone.
    pub fn on_change(
        &mut self,
        kind: Kind,
        old: Option<&Object>,
        new: Option<&Object>,
        key: &ObjKey,
        now: SimTime,
    ) -> Option<(SimTime, ProxyTimer)> {
        let service_of = |o: &Object| {
            o.meta()
                .labels
                .get("kubernetes.io/service-name")
                .map(|n| ObjKey::new(&key.namespace, n))
        };
        let svc = match kind {
            Kind::Node => {
                // kube-proxy reads its own Node's zone label (`nodeLabels`).
                let zone =
                    new.and_then(|n| n.meta().labels.get("topology.kubernetes.io/zone").cloned());
                match zone {
                    Some(z) => self.zones.insert(key.name.clone(), z),
                    None => self.zones.remove(&key.name),
                };
                return None;
            }
            Kind::Service => key.clone(),
            Kind::EndpointSlice => {
                // The informer's index of slices by Service (their label).
                let (before, after) = (old.and_then(service_of), new.and_then(service_of));
                if let Some(b) = &before {
                    if let Some(set) = self.slices.get_mut(b) {
                        set.remove(&key.name);
                    }
                }
                if let Some(a) = &after {
                    self.slices
                        .entry(a.clone())
                        .or_default()
                        .insert(key.name.clone());
                }
                if let Some(b) = before.clone().filter(|b| Some(b) != after.as_ref()) {
                    self.dirty.insert(b);
                }
                after.or(before)?
            }
            _ => return None,
        };
        self.dirty.insert(svc);
        if self.sync_armed {
            return None;
        }
        self.sync_armed = true;
        Some((now + PROPAGATION, ProxyTimer::Sync))
    }

    /// Program the changes seen: a new version of each changed Service's rules, which
    /// every node that can hear the API server follows; the others keep theirs.
    /// `connected(node)`: Some(true) when its kube-proxy hears the API server, Some(false)
    /// when it runs cut off (partitioned), None when it does not run (powered off).
    pub fn sync(
        &mut self,
        store: &Store,
        connected: impl Fn(&str) -> Option<bool>,
        nodes: &[String],
    ) {
        self.sync_armed = false;
        let previous = self.version;
        self.version += 1;
        for key in std::mem::take(&mut self.dirty) {
            let rules = rules_from(store, &key, self.slices.get(&key)).map(Arc::new);
            let h = self.history.entry(key).or_default();
            if h.last().map(|(_, r)| r) != Some(&rules) {
                h.push((self.version, rules));
            }
        }
        for n in nodes {
            match connected(n) {
                // Live, or powered off (no kube-proxy runs; it starts afresh at power
                // on), it follows the newest.
                Some(true) | None => {
                    self.frozen.remove(n);
                }
                // Alive but cut off: it keeps what it had.
                Some(false) => {
                    self.frozen.entry(n.clone()).or_insert(previous);
                }
            }
        }
        self.prune();
    }

    /// Drop rule versions no node can read any more.
    fn prune(&mut self) {
        let oldest = self.frozen.values().min().copied().unwrap_or(self.version);
        for h in self.history.values_mut() {
            // Keep the newest version at or below `oldest`, and everything after it.
            let keep_from = h.iter().rposition(|(v, _)| *v <= oldest).unwrap_or(0);
            h.drain(..keep_from);
        }
        self.history
            .retain(|_, h| !(h.len() == 1 && h[0].1.is_none() && h[0].0 <= oldest));
    }

    /// A node forgets its rules (a new kube-proxy starts on a re-added node): it reads
    /// the newest.
    pub fn node_restarted(&mut self, node: &str) {
        self.frozen.remove(node);
    }

    /// The rules node `node`'s kube-proxy has for Service `key`.
    pub fn rules(&self, node: &str, key: &ObjKey) -> Option<&ServiceRules> {
        let v = self.frozen.get(node).copied().unwrap_or(self.version);
        let h = self.history.get(key)?;
        h.iter()
            .rev()
            .find(|(at, _)| *at <= v)
            .and_then(|(_, r)| r.as_deref())
    }
}

/// `topologyModeFromHints`: whether to keep to the hints for `zone` — only when every
/// ready endpoint has a zone hint and some are hinted for this zone.
fn zone_mode(eps: &[RuleEndpoint], zone: &str) -> bool {
    let mut all_hinted = true;
    let mut for_zone = false;
    for e in eps.iter().filter(|e| e.ready) {
        if e.zone_hints.is_empty() {
            all_hinted = false;
        } else if e.zone_hints.iter().any(|z| z == zone) {
            for_zone = true;
        }
    }
    all_hinted && for_zone
}

/// `CategorizeEndpoints` for cluster traffic from a node in `zone`: the ready
/// endpoints (those hinted for the zone, when the hints cover every endpoint and
/// name it: `trafficDistribution: PreferClose`), else the serving and terminating ones.
pub fn categorize_endpoints<'a>(eps: &'a [RuleEndpoint], zone: &str) -> Vec<&'a RuleEndpoint> {
    let topology = zone_mode(eps, zone);
    let ready: Vec<&RuleEndpoint> = eps
        .iter()
        .filter(|e| e.ready && (!topology || e.zone_hints.iter().any(|z| z == zone)))
        .collect();
    if !ready.is_empty() {
        return ready;
    }
    eps.iter().filter(|e| e.serving && e.terminating).collect()
}

/// `CategorizeEndpoints` for traffic to the cluster IP entering at `node` (in `zone`): the cluster
/// endpoints, or with `internalTrafficPolicy: Local` the local ones (ready, else serving
/// and terminating), and the iptables proxier's REJECT or DROP when there are none.
pub fn internal_endpoints<'a>(rules: &'a ServiceRules, node: &str, zone: &str) -> Reachable<'a> {
    let cluster = categorize_endpoints(&rules.endpoints, zone);
    if cluster.is_empty() {
        return Reachable::Rejected;
    }
    if !rules.internal_local {
        return Reachable::To(cluster);
    }
    let local = |e: &&RuleEndpoint| e.node == node;
    let ready: Vec<&RuleEndpoint> = rules
        .endpoints
        .iter()
        .filter(|e| local(e) && e.ready)
        .collect();
    let local_eps = if ready.is_empty() {
        rules
            .endpoints
            .iter()
            .filter(|e| local(e) && e.serving && e.terminating)
            .collect()
    } else {
        ready
    };
    if local_eps.is_empty() {
        Reachable::Dropped
    } else {
        Reachable::To(local_eps)
    }
}

/// What a kube-proxy programs for Service `key`: its ports and every endpoint of its
/// slices (any manager's: the `kubernetes` Service's slice is the API server's). None:
/// no Service, or a headless one (no cluster IP, no rules).
pub fn rules_for(store: &Store, key: &ObjKey) -> Option<ServiceRules> {
    let names: BTreeSet<String> = crate::sorting::btree_set(
        store
            .list_ns::<EndpointSlice>(&key.namespace)
            .filter(|s| s.metadata.labels.get("kubernetes.io/service-name") == Some(&key.name))
            .map(|s| s.metadata.name.clone()),
    );
    rules_from(store, key, Some(&names))
}

/// [`rules_for`] from the slices named (the proxies' index of slices by Service).
fn rules_from(
    store: &Store,
    key: &ObjKey,
    slices: Option<&BTreeSet<String>>,
) -> Option<ServiceRules> {
    let svc = store.get::<Service>(key)?;
    if svc.is_headless() || svc.spec.cluster_ip.is_empty() {
        return None;
    }
    let mut endpoints = Vec::new();
    let slices = slices
        .into_iter()
        .flatten()
        .filter_map(|n| store.get::<EndpointSlice>(&ObjKey::new(&key.namespace, n)));
    for s in slices {
        if s.metadata.labels.get("kubernetes.io/service-name") != Some(&key.name) {
            continue;
        }
        let ports: Vec<(String, i64)> = s
            .ports
            .iter()
            .flatten()
            .map(|p| {
                (
                    p.name.clone().unwrap_or_default(),
                    p.port.unwrap_or_default(),
                )
            })
            .collect();
        for e in s.endpoints.iter().flatten() {
            let Some(ip) = e.addresses.first() else {
                continue;
            };
            let (pod, uid) = e
                .target_ref
                .as_ref()
                .map(|r| (ObjKey::new(&r.namespace, &r.name), r.uid.clone()))
                .unwrap_or_default();
            endpoints.push(RuleEndpoint {
                ip: ip.clone(),
                pod,
                uid,
                node: e.node_name.clone(),
                ports: ports.clone(),
                // A nil condition counts as true for ready and serving.
                ready: e.conditions.ready.unwrap_or(true),
                serving: e.conditions.serving.unwrap_or(true),
                terminating: e.conditions.terminating.unwrap_or(false),
                zone_hints: e
                    .hints
                    .iter()
                    .flat_map(|h| h.for_zones.iter().map(|z| z.name.clone()))
                    .collect(),
            });
        }
    }
    crate::sorting::sort_by(&mut endpoints, |a, b| {
        a.ip.cmp(&b.ip).then_with(|| a.pod.cmp(&b.pod))
    });
    Some(ServiceRules {
        cluster_ip: svc.spec.cluster_ip.clone(),
        ports: svc
            .spec
            .ports
            .iter()
            .map(|p| (p.name.clone(), p.port, p.node_port))
            .collect(),
        endpoints,
        affinity_seconds: (svc.spec.session_affinity == "ClientIP").then(|| {
            svc.spec
                .extra
                .get("sessionAffinityConfig")
                .and_then(|c| c.pointer("/clientIP/timeoutSeconds"))
                .and_then(serde_json::Value::as_u64)
                .unwrap_or(crate::apiserver::admission::DEFAULT_CLIENT_IP_AFFINITY_SECONDS)
        }),
        internal_local: svc.spec.internal_traffic_policy == "Local",
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ep(ip: &str, ready: bool, serving: bool, terminating: bool) -> RuleEndpoint {
        RuleEndpoint {
            ip: ip.into(),
            pod: ObjKey::new("default", ip),
            uid: ip.into(),
            node: "node-1".into(),
            ports: vec![],
            ready,
            serving,
            terminating,
            zone_hints: vec![],
        }
    }

    #[test]
    fn ready_endpoints_win_then_serving_terminating_ones_then_none() {
        let eps = [
            ep("a", true, true, false),
            ep("b", false, true, true),
            ep("c", false, false, false),
        ];
        let ips = |v: Vec<&RuleEndpoint>| v.iter().map(|e| e.ip.clone()).collect::<Vec<_>>();
        assert_eq!(ips(categorize_endpoints(&eps, "")), ["a"]);
        assert_eq!(ips(categorize_endpoints(&eps[1..], "")), ["b"]);
        assert!(categorize_endpoints(&eps[2..], "").is_empty());
    }
}
