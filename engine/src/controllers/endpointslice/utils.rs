//! What the EndpointSlice and Endpoints controllers share: which Pods are endpoints,
//! how a Service port resolves on a Pod, which Services a Pod change concerns, and the
//! trigger-time tracker.
//!
//! Upstream: `staging/src/k8s.io/endpointslice/util/controller_utils.go`
//! (`ShouldPodBeInEndpoints`, `ShouldSetHostname`, `podEndpointsChanged`,
//! `GetServicesToUpdateOnPodChange`), `pkg/api/v1/pod/util.go` (`FindPort`) and
//! `pkg/controller/util/endpoint/trigger_time_tracker.go`.

use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::controllers::{Ctx, NoTimer};
use crate::time::SimTime;
use std::collections::{BTreeMap, BTreeSet};

/// `ShouldPodBeInEndpoints`: a Pod with an IP that is not Succeeded or Failed; a
/// terminating one only when `include_terminating`.
pub fn should_pod_be_in_endpoints(pod: &Pod, include_terminating: bool) -> bool {
    if pod.is_terminal() {
        return false;
    }
    if pod.status.pod_ip.is_empty() && pod.status.pod_ips.is_empty() {
        return false;
    }
    include_terminating || !pod.metadata.is_deleting()
}

/// The Pod's `spec.hostname` and `spec.subdomain` (kept as written, not modelled).
fn pod_spec_str<'a>(pod: &'a Pod, field: &str) -> &'a str {
    pod.spec
        .extra
        .get(field)
        .and_then(|v| v.as_str())
        .unwrap_or_default()
}

/// `ShouldSetHostname`: the Pod names a hostname and the Service as its subdomain.
pub fn should_set_hostname(pod: &Pod, svc: &Service) -> bool {
    !pod_spec_str(pod, "hostname").is_empty()
        && pod_spec_str(pod, "subdomain") == svc.metadata.name
        && svc.metadata.namespace == pod.metadata.namespace
}

/// The Pod's hostname, for endpoints that set one.
pub fn pod_hostname(pod: &Pod) -> String {
    pod_spec_str(pod, "hostname").to_string()
}

/// A protocol as defaulting leaves it: empty means TCP.
pub fn protocol_or_tcp(p: &str) -> &str {
    if p.is_empty() {
        "TCP"
    } else {
        p
    }
}

/// `podutil.FindPort`: a numeric target port as it is; a named one is looked up among
/// the Pod's container ports (then its restartable init containers', the sidecars) by
/// name and protocol. None: the Pod has no such port, and is left out of that port.
pub fn find_port(pod: &Pod, sp: &ServicePort) -> Option<i64> {
    match sp.target_port.as_ref() {
        None => Some(sp.port),
        Some(IntOrString::Int(n)) => Some(*n),
        Some(IntOrString::String(s)) => match s.parse::<i64>() {
            // An IntOrString written as a numeric string is still a string upstream,
            // and never a valid port name; validation refuses it before here.
            Ok(_) => None,
            Err(_) => {
                let proto = protocol_or_tcp(&sp.protocol);
                let sidecars = pod.spec.init_containers.iter().filter(|c| c.is_sidecar());
                pod.spec
                    .containers
                    .iter()
                    .chain(sidecars)
                    .flat_map(|c| c.ports.iter())
                    .find(|p| p.name == *s && protocol_or_tcp(&p.protocol) == proto)
                    .map(|p| p.container_port)
            }
        },
    }
}

/// `podEndpointsChanged`: does a Pod update change its endpoints, and did its labels
/// (or hostname and subdomain) change?
pub fn pod_change(old: &Pod, new: &Pod) -> (bool, bool) {
    let labels_changed = old.metadata.labels != new.metadata.labels
        || pod_spec_str(old, "hostname") != pod_spec_str(new, "hostname")
        || pod_spec_str(old, "subdomain") != pod_spec_str(new, "subdomain");
    // Upstream compares the deletionTimestamp pointers, so every update of a Pod
    // being deleted counts; then readiness and the IPs. Name, namespace, uid and node
    // are immutable by the time a Pod has an IP. (A Pod turning terminal while already
    // not ready is not a change here, as upstream: the next sync drops it.)
    let changed = old.metadata.deletion_ms.is_some()
        || new.metadata.deletion_ms.is_some()
        || old.is_ready() != new.is_ready()
        || old.status.pod_ips != new.status.pod_ips
        || old.status.pod_ip != new.status.pod_ip;
    (changed, labels_changed)
}

/// Which Services select which labels, so that a Pod change finds its Services without
/// listing the namespace's (upstream's `GetPodServiceMemberships` lists them and
/// matches each; at 5,000 Services that is 5,000 matches per Pod write).
///
/// Each Service with a selector is filed under its selector's first pair (a Pod it
/// selects must carry that pair), or under "every Pod" for an empty selector.
///
/// It also keeps each Service's members — the Pods its selector matches — so that a
/// sync reads its Pods without listing the namespace's (upstream's lister filters the
/// namespace's Pods on every sync: at the envelope, 150,000 Pods per Service sync).
#[derive(Clone, Debug, Default)]
pub struct ServiceIndex {
    by_pair: BTreeMap<(String, String, String), BTreeSet<String>>,
    every_pod: BTreeMap<String, BTreeSet<String>>,
    filed: BTreeMap<ObjKey, Option<(String, String)>>,
    members: BTreeMap<ObjKey, BTreeSet<String>>,
    selectors: BTreeMap<ObjKey, StringMap>,
}

impl ServiceIndex {
    /// A Service was written (`Some`) or deleted (`None`): file it again, and work out
    /// its members afresh when its selector changed.
    pub fn service_written(&mut self, store: &Store, key: &ObjKey, svc: Option<&Service>) {
        self.service_changed(key, svc);
        let selector = svc.and_then(|s| s.spec.selector.clone());
        if selector.as_ref() == self.selectors.get(key) && self.members.contains_key(key) {
            return;
        }
        match selector {
            None => {
                self.members.remove(key);
                self.selectors.remove(key);
            }
            Some(sel) => {
                let names = store
                    .list_ns::<Pod>(&key.namespace)
                    .filter(|p| sel.iter().all(|(k, v)| p.metadata.labels.get(k) == Some(v)))
                    .map(|p| p.metadata.name.clone())
                    .collect();
                self.members.insert(key.clone(), names);
                self.selectors.insert(key.clone(), sel);
            }
        }
    }

    /// A Pod was written or deleted: it joins and leaves the Services whose selectors
    /// its labels match.
    pub fn pod_written(&mut self, store: &Store, old: Option<&Pod>, new: Option<&Pod>) {
        if let Some(o) = old {
            if new.is_none_or(|n| n.metadata.labels != o.metadata.labels) {
                for key in self.services_for(store, &o.metadata.namespace, &o.metadata.labels) {
                    if let Some(m) = self.members.get_mut(&key) {
                        m.remove(&o.metadata.name);
                    }
                }
            }
        }
        if let Some(n) = new {
            if old.is_none_or(|o| o.metadata.labels != n.metadata.labels) {
                for key in self.services_for(store, &n.metadata.namespace, &n.metadata.labels) {
                    self.members
                        .entry(key)
                        .or_default()
                        .insert(n.metadata.name.clone());
                }
            }
        }
    }

    /// The Pods Service `svc` selects, by name (from the members kept; a Service the
    /// index never saw written, as in a controller test, is looked up the long way).
    pub fn selected<'a>(&self, store: &'a Store, svc: &'a Service) -> Vec<&'a Pod> {
        let key = ObjKey::of(&svc.metadata);
        match self.members.get(&key) {
            Some(names) if self.selectors.get(&key) == svc.spec.selector.as_ref() => names
                .iter()
                .filter_map(|name| store.get::<Pod>(&ObjKey::new(&key.namespace, name)))
                .collect(),
            _ => selected_pods(store, svc),
        }
    }

    /// A Service was written (`Some`) or deleted (`None`).
    fn service_changed(&mut self, key: &ObjKey, svc: Option<&Service>) {
        if let Some(old) = self.filed.remove(key) {
            match old {
                Some((k, v)) => {
                    let slot = (key.namespace.clone(), k, v);
                    if let Some(set) = self.by_pair.get_mut(&slot) {
                        set.remove(&key.name);
                        if set.is_empty() {
                            self.by_pair.remove(&slot);
                        }
                    }
                }
                None => {
                    if let Some(set) = self.every_pod.get_mut(&key.namespace) {
                        set.remove(&key.name);
                    }
                }
            }
        }
        let Some(selector) = svc.and_then(|s| s.spec.selector.as_ref()) else {
            return;
        };
        match selector.iter().next() {
            Some((k, v)) => {
                self.by_pair
                    .entry((key.namespace.clone(), k.clone(), v.clone()))
                    .or_default()
                    .insert(key.name.clone());
                self.filed.insert(key.clone(), Some((k.clone(), v.clone())));
            }
            None => {
                self.every_pod
                    .entry(key.namespace.clone())
                    .or_default()
                    .insert(key.name.clone());
                self.filed.insert(key.clone(), None);
            }
        }
    }

    /// The Services in `ns` whose selector matches `labels`, sorted.
    pub fn services_for(&self, store: &Store, ns: &str, labels: &StringMap) -> BTreeSet<ObjKey> {
        let mut names: BTreeSet<&String> = BTreeSet::new();
        if let Some(all) = self.every_pod.get(ns) {
            names.extend(all);
        }
        for (k, v) in labels {
            if let Some(set) = self.by_pair.get(&(ns.to_string(), k.clone(), v.clone())) {
                names.extend(set);
            }
        }
        names
            .into_iter()
            .map(|n| ObjKey::new(ns, n))
            .filter(|key| {
                store
                    .get::<Service>(key)
                    .and_then(|s| s.spec.selector.as_ref())
                    .is_some_and(|sel| sel.iter().all(|(k, v)| labels.get(k) == Some(v)))
            })
            .collect()
    }

    /// `GetServicesToUpdateOnPodChange` for a Pod write: the Services of the new
    /// labels and the old ones when the endpoints changed, else of the labels that
    /// changed only (those that selected the Pod before or after but not both).
    pub fn services_for_change(
        &self,
        store: &Store,
        old: Option<&Pod>,
        new: Option<&Pod>,
    ) -> BTreeSet<ObjKey> {
        match (old, new) {
            (Some(o), Some(n)) => {
                let (changed, labels_changed) = pod_change(o, n);
                if !changed && !labels_changed {
                    return BTreeSet::new();
                }
                let ns = &n.metadata.namespace;
                let before = self.services_for(store, ns, &o.metadata.labels);
                let after = self.services_for(store, ns, &n.metadata.labels);
                if changed {
                    before.union(&after).cloned().collect()
                } else {
                    before.symmetric_difference(&after).cloned().collect()
                }
            }
            (Some(p), None) | (None, Some(p)) => {
                self.services_for(store, &p.metadata.namespace, &p.metadata.labels)
            }
            (None, None) => BTreeSet::new(),
        }
    }
}

/// The Pods a Service selects (its namespace, every label of the selector), by name.
pub fn selected_pods<'a>(store: &'a Store, svc: &'a Service) -> Vec<&'a Pod> {
    let Some(sel) = svc.spec.selector.as_ref() else {
        return Vec::new();
    };
    store
        .list_ns::<Pod>(&svc.metadata.namespace)
        .filter(|p| sel.iter().all(|(k, v)| p.metadata.labels.get(k) == Some(v)))
        .collect()
}

/// `TriggerTimeTracker`: the time of the earliest change not yet reflected in a
/// Service's endpoints — a Pod whose Ready condition last changed after the last sync
/// saw it, or the Service's creation on its first sync. It becomes the
/// `endpoints.kubernetes.io/last-change-trigger-time` annotation.
#[derive(Clone, Debug, Default)]
pub struct TriggerTimeTracker {
    states: BTreeMap<ObjKey, ServiceState>,
}

#[derive(Clone, Debug, Default)]
struct ServiceState {
    last_pod_trigger_times: BTreeMap<String, SimTime>,
    last_service_trigger_time: SimTime,
}

impl TriggerTimeTracker {
    /// `ComputeEndpointLastChangeTriggerTime`; None is Go's zero time (no change).
    pub fn compute(&mut self, svc: &Service, pods: &[&Pod]) -> Option<SimTime> {
        let key = ObjKey::of(&svc.metadata);
        let state = self.states.get(&key);
        let mut min: Option<SimTime> = None;
        let mut new_state = ServiceState::default();
        for pod in pods {
            // getPodTriggerTime: the Ready condition's lastTransitionTime (second
            // precision, as the API stores it).
            let Some(t) = get_condition(&pod.status.conditions, PodConditionType::Ready)
                .map(|c| c.transition_ms / 1000 * 1000)
            else {
                continue;
            };
            new_state
                .last_pod_trigger_times
                .insert(pod.metadata.name.clone(), t);
            let seen = state.and_then(|s| s.last_pod_trigger_times.get(&pod.metadata.name));
            if seen.is_none_or(|s| t > *s) {
                min = Some(min.map_or(t, |m| m.min(t)));
            }
        }
        let svc_t = svc.metadata.created_ms / 1000 * 1000;
        if state.is_none_or(|s| svc_t > s.last_service_trigger_time) {
            min = Some(min.map_or(svc_t, |m| m.min(svc_t)));
        }
        new_state.last_service_trigger_time = svc_t;
        self.states.insert(key, new_state);
        min
    }

    /// `DeleteService`: forget a deleted Service.
    pub fn delete_service(&mut self, key: &ObjKey) {
        self.states.remove(key);
    }
}

/// What both endpoint controllers do with a Service or Pod write: keep the index and
/// the trigger times, and queue the Services whose endpoints it concerns.
pub fn watch_services_and_pods(
    services: &mut ServiceIndex,
    trigger: &mut TriggerTimeTracker,
    ch: &Change,
    ctx: &mut Ctx<'_, ObjKey, NoTimer>,
) {
    let (old, new) = (ch.old.as_deref(), ch.new.as_deref());
    if ch.kind == Kind::Service {
        let svc = new.and_then(Service::from_object);
        services.service_written(ctx.store, &ch.key, svc);
        if svc.is_none() {
            trigger.delete_service(&ch.key);
        }
        ctx.enqueue(ch.key.clone());
    } else {
        let old = old.and_then(Pod::from_object);
        let new = new.and_then(Pod::from_object);
        services.pod_written(ctx.store, old, new);
        for key in services.services_for_change(ctx.store, old, new) {
            ctx.enqueue(key);
        }
    }
}

/// The annotation both controllers set to [`TriggerTimeTracker::compute`]'s time.
pub const LAST_CHANGE_TRIGGER_TIME: &str = "endpoints.kubernetes.io/last-change-trigger-time";

/// `service.kubernetes.io/headless`, on the endpoints of a Service without a cluster IP.
pub const HEADLESS_LABEL: &str = "service.kubernetes.io/headless";
