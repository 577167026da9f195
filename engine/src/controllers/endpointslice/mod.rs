//! The EndpointSlice controller: for every Service with a selector, EndpointSlices
//! listing every Pod it selects that has an IP and is not Succeeded or Failed — not-ready
//! and terminating Pods too, each with its `ready`, `serving` and `terminating`
//! conditions — at most 100 endpoints a slice, one group of slices per port set.
//!
//! Upstream: `pkg/controller/endpointslice/endpointslice_controller.go` (`syncService`,
//! the Pod and Service handlers) and `staging/src/k8s.io/endpointslice/reconciler.go`
//! (`reconcile` → `reconcileByAddressType` → `reconcileByPortMapping` → `finalize`),
//! `utils.go` (`podToEndpoint`, `getEndpointPorts`, `newEndpointSlice`,
//! `setEndpointSliceLabels`, `getSliceToFill`).
//!
//! Where upstream iterates a Go map or a set (`PopAny`, `UnsortedList`), the order here
//! is sorted (endpoints by address, slices by name): the same outcome up to which
//! endpoint lands in which slice, and deterministic. The cluster is single-stack IPv4,
//! so each Service has one address type.

pub mod endpoints;
pub mod mirroring;
mod trafficdist;
pub mod utils;

use super::{Controller, Ctx, NoTimer, Reconcile, Retry};
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::{controller_ref, writer, Component, Request};
use crate::time::{rfc3339, SECOND};
use std::collections::{BTreeMap, BTreeSet};
use utils::*;

/// `--max-endpoints-per-slice`'s default.
pub const MAX_ENDPOINTS_PER_SLICE: usize = 100;

/// `kubernetes.io/service-name`.
pub const LABEL_SERVICE_NAME: &str = "kubernetes.io/service-name";

/// `endpointslice.kubernetes.io/managed-by`.
pub const LABEL_MANAGED_BY: &str = "endpointslice.kubernetes.io/managed-by";

/// The controller's name in [`LABEL_MANAGED_BY`].
pub const CONTROLLER_NAME: &str = "endpointslice-controller.k8s.io";

/// The EndpointSlice controller (its state: the trigger-time tracker and the index
/// from Pod labels to Services).
#[derive(Clone, Debug, Default)]
pub struct EndpointSliceController {
    services: ServiceIndex,
    trigger: TriggerTimeTracker,
    /// The informer's index of EndpointSlices by their Service (the
    /// `kubernetes.io/service-name` label): a sync reads its Service's slices, not the
    /// namespace's (upstream lists them with that label selector from the indexer).
    slices: BTreeMap<ObjKey, BTreeSet<String>>,
}

impl Controller for EndpointSliceController {
    type Key = ObjKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[Kind::Pod, Kind::Service, Kind::Node, Kind::EndpointSlice];
    /// `ItemExponentialFailureRateLimiter(1s, 1000s)`.
    const RETRY: Retry = Retry {
        on_error: Some((SECOND, 1_000 * SECOND)),
        requeue_is_background: false,
    };

    fn identity() -> Component {
        Component::named(writer::ENDPOINTSLICE_CONTROLLER)
    }

    /// A Service changed; a Pod changed in a way its Services' endpoints show; or one
    /// of the controller's slices changed under it (upstream's `onEndpointSliceUpdate`
    /// resyncs the Service unless the write was its own).
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        let (old, new) = (ch.old.as_deref(), ch.new.as_deref());
        match ch.kind {
            Kind::Service | Kind::Pod => {
                watch_services_and_pods(&mut self.services, &mut self.trigger, ch, ctx)
            }
            Kind::EndpointSlice => {
                self.slice_changed(ch);
                // A managed slice deleted by someone else is made again (upstream also
                // reverts edits; its own writes, the usual case, need no look).
                if let (Some(o), None) = (old.and_then(EndpointSlice::from_object), new) {
                    let labels = &o.metadata.labels;
                    if labels.get(LABEL_MANAGED_BY).map(String::as_str) == Some(CONTROLLER_NAME) {
                        if let Some(name) = labels.get(LABEL_SERVICE_NAME) {
                            ctx.enqueue(ObjKey::new(&o.metadata.namespace, name));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        Reconcile {
            requests: self.sync_service(ctx.store, key),
            requeue_after: None,
        }
    }
}

impl EndpointSliceController {
    /// Keep the index of slices by Service current with a change to a slice.
    pub fn slice_changed(&mut self, ch: &Change) {
        if ch.kind != Kind::EndpointSlice {
            return;
        }
        let service_of = |o: &Object| {
            o.meta()
                .labels
                .get(LABEL_SERVICE_NAME)
                .map(|n| (ObjKey::new(&o.meta().namespace, n), o.meta().name.clone()))
        };
        if let Some((svc, name)) = ch.old.as_deref().and_then(service_of) {
            if let Some(set) = self.slices.get_mut(&svc) {
                set.remove(&name);
                if set.is_empty() {
                    self.slices.remove(&svc);
                }
            }
        }
        if let Some((svc, name)) = ch.new.as_deref().and_then(service_of) {
            self.slices.entry(svc).or_default().insert(name);
        }
    }

    /// `syncService`: the slices one Service should have, as the requests that get it
    /// there (creates, then updates, then deletes).
    pub fn sync_service(&mut self, store: &Store, key: &ObjKey) -> Vec<Request> {
        let Some(svc) = store.get::<Service>(key) else {
            // The garbage collector deletes the slices through their owner reference.
            self.trigger.delete_service(key);
            return Vec::new();
        };
        if svc.spec.type_ == "ExternalName" || svc.spec.selector.is_none() {
            return Vec::new();
        }
        let pods = self.services.selected(store, svc);
        let existing: Vec<&EndpointSlice> = self
            .slices
            .get(key)
            .into_iter()
            .flatten()
            .filter_map(|name| store.get::<EndpointSlice>(&ObjKey::new(&key.namespace, name)))
            .filter(|s| {
                s.metadata.labels.get(LABEL_SERVICE_NAME) == Some(&key.name)
                    && s.metadata.labels.get(LABEL_MANAGED_BY).map(String::as_str)
                        == Some(CONTROLLER_NAME)
                    // Slices being deleted are left to finish.
                    && !s.metadata.is_deleting()
            })
            .collect();
        let trigger = self.trigger.compute(svc, &pods);
        reconcile(store, svc, &pods, &existing, trigger)
    }
}

/// `ownedBy`: the slice's controller reference is this Service (this incarnation).
fn owned_by(slice: &EndpointSlice, svc: &Service) -> bool {
    slice
        .metadata
        .owner_references
        .iter()
        .any(|r| r.kind == "Service" && r.uid == svc.metadata.uid && r.controller == Some(true))
}

/// The identity of an endpoint in a slice (`hashEndpoint`: addresses, hostname and the
/// Pod's namespace and name).
type EndpointKey = (Vec<String>, String, String, String);

/// One port set's ports (in the Service's order) and its wanted endpoints.
type DesiredByPorts = (Vec<EndpointPort>, BTreeMap<EndpointKey, Endpoint>);

fn endpoint_key(e: &Endpoint) -> EndpointKey {
    let mut addresses = e.addresses.clone();
    crate::sorting::sort(&mut addresses);
    let (ns, name) = e
        .target_ref
        .as_ref()
        .map(|r| (r.namespace.clone(), r.name.clone()))
        .unwrap_or_default();
    (addresses, e.hostname.clone(), ns, name)
}

/// `getEndpointPorts`: each Service port resolved on this Pod (ports it lacks are
/// left out); none for a headless Service without ports.
pub fn get_endpoint_ports(svc: &Service, pod: &Pod) -> Vec<EndpointPort> {
    svc.spec
        .ports
        .iter()
        .filter_map(|sp| {
            let n = find_port(pod, sp)?;
            Some(EndpointPort {
                name: Some(sp.name.clone()),
                protocol: Some(protocol_or_tcp(&sp.protocol).to_string()),
                port: Some(n),
                app_protocol: sp
                    .extra
                    .get("appProtocol")
                    .and_then(|v| v.as_str())
                    .map(String::from),
            })
        })
        .collect()
}

/// `podToEndpoint`.
pub fn pod_to_endpoint(pod: &Pod, node: Option<&Node>, svc: &Service) -> Endpoint {
    let serving = pod.is_ready();
    let terminating = pod.metadata.is_deleting();
    // "ready" is never true for a terminating Pod, unless the Service publishes
    // not-ready addresses.
    let ready = svc.spec.publish_not_ready_addresses || (serving && !terminating);
    let addresses = if pod.status.pod_ips.is_empty() {
        vec![pod.status.pod_ip.clone()]
    } else {
        // getEndpointAddresses: the IPs of the slice's family (IPv4 here).
        pod.status
            .pod_ips
            .iter()
            .filter(|ip| !ip.ip.contains(':'))
            .map(|ip| ip.ip.clone())
            .collect()
    };
    Endpoint {
        addresses,
        conditions: EndpointConditions {
            ready: Some(ready),
            serving: Some(serving),
            terminating: Some(terminating),
        },
        hostname: if should_set_hostname(pod, svc) {
            pod_hostname(pod)
        } else {
            String::new()
        },
        target_ref: Some(ObjectReference {
            kind: "Pod".into(),
            namespace: pod.metadata.namespace.clone(),
            name: pod.metadata.name.clone(),
            uid: pod.metadata.uid.clone(),
            api_version: String::new(),
        }),
        node_name: pod.spec.node_name.clone(),
        zone: node
            .and_then(|n| n.metadata.labels.get("topology.kubernetes.io/zone"))
            .cloned()
            .unwrap_or_default(),
        hints: None,
    }
}

/// `setEndpointSliceLabels`: the Service's labels (but the reserved ones), the
/// headless label when it has no cluster IP, the service name and the manager; and
/// whether the slice's own labels differ from the Service's.
fn set_endpoint_slice_labels(slice: &EndpointSlice, svc: &Service) -> (StringMap, bool) {
    let reserved = |k: &str| k == LABEL_SERVICE_NAME || k == LABEL_MANAGED_BY;
    let mut svc_labels: StringMap = svc
        .metadata
        .labels
        .iter()
        .filter(|(k, _)| !reserved(k))
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    if svc.is_headless() {
        svc_labels.insert(HEADLESS_LABEL.into(), String::new());
    } else {
        svc_labels.remove(HEADLESS_LABEL);
    }
    let updated = slice
        .metadata
        .labels
        .iter()
        .filter(|(k, _)| !reserved(k))
        .any(|(k, v)| svc_labels.get(k) != Some(v))
        || svc_labels
            .iter()
            .any(|(k, v)| slice.metadata.labels.get(k) != Some(v));
    svc_labels.insert(LABEL_SERVICE_NAME.into(), svc.metadata.name.clone());
    svc_labels.insert(LABEL_MANAGED_BY.into(), CONTROLLER_NAME.into());
    (svc_labels, updated)
}

/// `newEndpointSlice`: named `<service>-` plus five random characters by the API
/// server, owned by the Service.
fn new_endpoint_slice(svc: &Service, ports: Option<Vec<EndpointPort>>) -> EndpointSlice {
    let mut s = EndpointSlice {
        metadata: ObjectMeta {
            generate_name: format!("{}-", svc.metadata.name),
            namespace: svc.metadata.namespace.clone(),
            owner_references: vec![controller_ref(
                Kind::Service,
                &svc.metadata.name,
                &svc.metadata.uid,
            )],
            ..Default::default()
        },
        address_type: "IPv4".into(),
        endpoints: None,
        ports,
    };
    s.metadata.labels = set_endpoint_slice_labels(&s, svc).0;
    s
}

/// `getSliceToFill`: the fullest unchanged slice with room for all `n` endpoints.
fn get_slice_to_fill<'a>(slices: &[&'a EndpointSlice], n: usize) -> Option<&'a EndpointSlice> {
    let mut best: Option<&EndpointSlice> = None;
    for s in slices {
        let len = s.endpoints.as_ref().map_or(0, Vec::len);
        if len + n > MAX_ENDPOINTS_PER_SLICE {
            continue;
        }
        if best.is_none_or(|b| len > b.endpoints.as_ref().map_or(0, Vec::len)) {
            best = Some(s);
        }
    }
    best
}

/// What one port set's slices need (`reconcileByPortMapping`'s results).
#[derive(Default)]
struct Plan {
    create: Vec<EndpointSlice>,
    update: Vec<EndpointSlice>,
    delete: Vec<EndpointSlice>,
    /// Slices left as they are (hints may still move them to `update`).
    unchanged: Vec<EndpointSlice>,
}

/// `reconcileByPortMapping`: keep the wanted endpoints where they are (updating those
/// that changed), drop the unwanted, fill slices being updated anyway, then one
/// unchanged slice with room for all that is left, then new slices.
fn reconcile_by_port_mapping(
    svc: &Service,
    existing: &[&EndpointSlice],
    desired: &mut BTreeMap<EndpointKey, Endpoint>,
    ports: &[EndpointPort],
    plan: &mut Plan,
) {
    let mut by_name: BTreeMap<String, EndpointSlice> = BTreeMap::new();
    let mut unchanged: BTreeSet<String> = BTreeSet::new();
    let mut to_update: BTreeSet<String> = BTreeSet::new();
    let mut to_delete: BTreeSet<String> = BTreeSet::new();
    for slice in existing {
        let name = slice.metadata.name.clone();
        let old = slice.endpoints.as_deref().unwrap_or_default();
        let mut kept = Vec::new();
        let mut endpoint_updated = false;
        for e in old {
            if let Some(got) = desired.remove(&endpoint_key(e)) {
                // EndpointsEqualBeyondHash: conditions, zone, node and target (the
                // hints are trafficdist's to compare).
                endpoint_updated |= got
                    != Endpoint {
                        hints: None,
                        ..e.clone()
                    };
                kept.push(got);
            }
        }
        let (labels, labels_changed) = set_endpoint_slice_labels(slice, svc);
        if endpoint_updated || old.len() != kept.len() {
            if kept.is_empty() {
                to_delete.insert(name.clone());
                by_name.insert(name, (*slice).clone());
            } else {
                let mut s = (*slice).clone();
                s.endpoints = Some(kept);
                s.metadata.labels = labels;
                to_update.insert(name.clone());
                by_name.insert(name, s);
            }
        } else if labels_changed {
            let mut s = (*slice).clone();
            s.metadata.labels = labels;
            to_update.insert(name.clone());
            by_name.insert(name, s);
        } else {
            unchanged.insert(name.clone());
            by_name.insert(name, (*slice).clone());
        }
    }
    // Fill the slices being updated anyway, fullest first.
    if !desired.is_empty() && !to_update.is_empty() {
        let mut names: Vec<&String> = to_update.iter().collect();
        crate::sorting::sort_by_key(&mut names, |n| {
            std::cmp::Reverse(by_name[*n].endpoints.as_ref().map_or(0, Vec::len))
        });
        let names: Vec<String> = names.into_iter().cloned().collect();
        for n in names {
            let s = by_name.get_mut(&n).expect("named above");
            let eps = s.endpoints.get_or_insert_with(Vec::new);
            while eps.len() < MAX_ENDPOINTS_PER_SLICE {
                let Some((_, e)) = desired.pop_first() else {
                    break;
                };
                eps.push(e);
            }
        }
    }
    while !desired.is_empty() {
        let mut fill: Option<EndpointSlice> = None;
        if desired.len() < MAX_ENDPOINTS_PER_SLICE && !unchanged.is_empty() {
            let candidates: Vec<&EndpointSlice> = unchanged.iter().map(|n| &by_name[n]).collect();
            fill = get_slice_to_fill(&candidates, desired.len()).cloned();
        }
        let mut s = fill.unwrap_or_else(|| new_endpoint_slice(svc, Some(ports.to_vec())));
        let eps = s.endpoints.get_or_insert_with(Vec::new);
        while eps.len() < MAX_ENDPOINTS_PER_SLICE {
            let Some((_, e)) = desired.pop_first() else {
                break;
            };
            eps.push(e);
        }
        if s.metadata.name.is_empty() {
            plan.create.push(s);
        } else {
            let name = s.metadata.name.clone();
            unchanged.remove(&name);
            to_update.insert(name.clone());
            by_name.insert(name, s);
        }
    }
    for n in &to_update {
        plan.update.push(by_name[n].clone());
    }
    for n in &to_delete {
        plan.delete.push(by_name[n].clone());
    }
    for n in &unchanged {
        plan.unchanged.push(by_name[n].clone());
    }
}

/// `reconcile` → `reconcileByAddressType` → `finalize` for one Service: the requests.
pub fn reconcile(
    store: &Store,
    svc: &Service,
    pods: &[&Pod],
    existing: &[&EndpointSlice],
    trigger: Option<crate::time::SimTime>,
) -> Vec<Request> {
    let mut plan = Plan::default();
    // Existing slices by port set; slices not owned by this Service (an older
    // incarnation's) are deleted.
    let mut existing_by_ports: BTreeMap<Vec<EndpointPort>, Vec<&EndpointSlice>> = BTreeMap::new();
    for s in existing {
        if owned_by(s, svc) && s.address_type == "IPv4" {
            let mut key = s.ports.clone().unwrap_or_default();
            crate::sorting::sort(&mut key);
            existing_by_ports.entry(key).or_default().push(s);
        } else {
            plan.delete.push((*s).clone());
        }
    }
    // Desired endpoints by port set.
    let mut desired: BTreeMap<Vec<EndpointPort>, DesiredByPorts> = BTreeMap::new();
    for pod in pods {
        if !should_pod_be_in_endpoints(pod, true) {
            continue;
        }
        let ports = get_endpoint_ports(svc, pod);
        let mut key = ports.clone();
        crate::sorting::sort(&mut key);
        let node = store.get::<Node>(&ObjKey::new("", &pod.spec.node_name));
        if node.is_none() && !svc.spec.publish_not_ready_addresses {
            // A Pod on a node that no longer exists is left out (upstream also
            // requeues the Service; the Pod's deletion by the Pod GC syncs it again).
            continue;
        }
        let endpoint = pod_to_endpoint(pod, node, svc);
        let entry = desired
            .entry(key)
            .or_insert_with(|| (ports, BTreeMap::new()));
        if !endpoint.addresses.is_empty() {
            entry.1.insert(endpoint_key(&endpoint), endpoint);
        }
    }
    let no_existing = Vec::new();
    for (key, (ports, mut set)) in std::mem::take(&mut desired) {
        let slices = existing_by_ports.get(&key).unwrap_or(&no_existing);
        reconcile_by_port_mapping(svc, slices, &mut set, &ports, &mut plan);
        existing_by_ports.remove(&key);
    }
    // Slices of port sets no Pod has any more.
    for slices in existing_by_ports.values() {
        plan.delete.extend(slices.iter().map(|s| (*s).clone()));
    }
    // A Service without endpoints keeps one empty placeholder slice.
    if existing.len() == plan.delete.len() && plan.create.is_empty() {
        let placeholder = new_endpoint_slice(svc, None);
        let is_placeholder = |s: &EndpointSlice| {
            s.endpoints.as_ref().is_none_or(Vec::is_empty)
                && s.ports.as_ref().is_none_or(Vec::is_empty)
                && s.address_type == placeholder.address_type
                && s.metadata.labels == placeholder.metadata.labels
                && s.metadata.owner_references == placeholder.metadata.owner_references
        };
        if plan.delete.len() == 1 && is_placeholder(&plan.delete[0]) {
            plan.delete.clear();
        } else {
            plan.create.push(placeholder);
        }
    }
    let unchanged = std::mem::take(&mut plan.unchanged);
    trafficdist::reconcile_hints(svc, &mut plan.create, &mut plan.update, unchanged);
    finalize(svc, plan, trigger)
}

/// `finalize`: a create and a delete become one update of the slice to be deleted;
/// then creates (not while the Service is being deleted), updates and deletes, each
/// create and update stamped with the trigger time.
fn finalize(svc: &Service, mut plan: Plan, trigger: Option<crate::time::SimTime>) -> Vec<Request> {
    let mut i = 0;
    while i < plan.delete.len() && !plan.create.is_empty() {
        if plan.delete[i].address_type == "IPv4" && owned_by(&plan.delete[i], svc) {
            let mut s = plan.create.pop().expect("not empty");
            let gone = plan.delete.remove(i);
            s.metadata.name = gone.metadata.name;
            s.metadata.generate_name = gone.metadata.generate_name;
            plan.update.push(s);
        } else {
            i += 1;
        }
    }
    let stamp = |s: &mut EndpointSlice| match trigger {
        Some(t) => {
            s.metadata
                .annotations
                .insert(LAST_CHANGE_TRIGGER_TIME.into(), rfc3339(t));
        }
        None => {
            s.metadata.annotations.remove(LAST_CHANGE_TRIGGER_TIME);
        }
    };
    let mut requests = Vec::new();
    if !svc.metadata.is_deleting() {
        for mut s in plan.create {
            stamp(&mut s);
            requests.push(Request::Create {
                object: s.into(),
                event: None,
            });
        }
    }
    for mut s in plan.update {
        stamp(&mut s);
        requests.push(Request::blind_update(s));
    }
    for s in plan.delete {
        requests.push(Request::Delete {
            kind: Kind::EndpointSlice,
            key: ObjKey::of(&s.metadata),
            options: Default::default(),
            event: None,
        });
    }
    requests
}

#[cfg(test)]
mod tests;
