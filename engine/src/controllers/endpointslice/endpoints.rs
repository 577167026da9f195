//! The Endpoints controller: the deprecated `v1` Endpoints object of each Service with a
//! selector, named as the Service — ready Pods under `addresses`, not-ready ones under
//! `notReadyAddresses`, terminating Pods left out (unless the Service publishes
//! not-ready addresses), at most 1,000 addresses.
//!
//! Upstream: `pkg/controller/endpoint/endpoints_controller.go` (`syncService`,
//! `addEndpointSubset`, `truncateEndpoints`) and `pkg/api/v1/endpoints/util.go`
//! (`RepackSubsets`, `SortSubsets`). Subsets and ports are sorted by content here where
//! upstream sorts by a hash of it: one subset per port set either way, and a Service
//! with one port set (the usual case) prints the same.

use super::utils::*;
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::{writer, Component, Request};
use crate::controllers::{Controller, Ctx, NoTimer, Reconcile};
use crate::time::rfc3339;
use std::collections::BTreeMap;

/// `maxCapacity`: addresses kept in one Endpoints object.
pub const MAX_CAPACITY: usize = 1000;

/// `endpoints.kubernetes.io/over-capacity`.
pub const OVER_CAPACITY: &str = "endpoints.kubernetes.io/over-capacity";

/// The Endpoints controller.
#[derive(Clone, Debug, Default)]
pub struct EndpointsController {
    services: ServiceIndex,
    trigger: TriggerTimeTracker,
}

impl Controller for EndpointsController {
    type Key = ObjKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[Kind::Service, Kind::Pod, Kind::Endpoints];

    fn identity() -> Component {
        Component::named(writer::ENDPOINT_CONTROLLER)
    }

    /// A Service changed, a Pod changed in a way its endpoints show, or an Endpoints
    /// object was deleted or edited under it.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        let new = ch.new.as_deref();
        match ch.kind {
            Kind::Service | Kind::Pod => {
                watch_services_and_pods(&mut self.services, &mut self.trigger, ch, ctx)
            }
            // onEndpointsDelete: an Endpoints object deleted while its Service lives
            // is made again.
            Kind::Endpoints if new.is_none() => ctx.enqueue(ch.key.clone()),
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

impl EndpointsController {
    /// `syncService`.
    pub fn sync_service(&mut self, store: &Store, key: &ObjKey) -> Vec<Request> {
        let Some(svc) = store.get::<Service>(key) else {
            // The Service is gone: so is its Endpoints object (not owned: deleted here).
            self.trigger.delete_service(key);
            if store.get::<Endpoints>(key).is_some() {
                return vec![Request::Delete {
                    kind: Kind::Endpoints,
                    key: key.clone(),
                    options: Default::default(),
                    event: None,
                }];
            }
            return Vec::new();
        };
        if svc.spec.type_ == "ExternalName" || svc.spec.selector.is_none() {
            return Vec::new();
        }
        let pods = self.services.selected(store, svc);
        let trigger = self.trigger.compute(svc, &pods);
        let tolerate = svc.spec.publish_not_ready_addresses;
        let mut subsets: Vec<EndpointSubset> = Vec::new();
        for pod in &pods {
            if !should_pod_be_in_endpoints(pod, tolerate) {
                continue;
            }
            let Some(ip) = pod
                .status
                .pod_ips
                .iter()
                .map(|p| p.ip.clone())
                .find(|ip| !ip.contains(':'))
                .or_else(|| (!pod.status.pod_ip.is_empty()).then(|| pod.status.pod_ip.clone()))
            else {
                continue;
            };
            let epa = EndpointAddress {
                ip,
                hostname: if should_set_hostname(pod, svc) {
                    pod_hostname(pod)
                } else {
                    String::new()
                },
                node_name: pod.spec.node_name.clone(),
                target_ref: Some(ObjectReference {
                    kind: "Pod".into(),
                    namespace: pod.metadata.namespace.clone(),
                    name: pod.metadata.name.clone(),
                    uid: pod.metadata.uid.clone(),
                    api_version: String::new(),
                }),
            };
            let ready = tolerate || pod.is_ready();
            let mut add = |ports: Vec<V1EndpointPort>| {
                subsets.push(if ready {
                    EndpointSubset {
                        addresses: vec![epa.clone()],
                        not_ready_addresses: vec![],
                        ports,
                    }
                } else {
                    EndpointSubset {
                        addresses: vec![],
                        not_ready_addresses: vec![epa.clone()],
                        ports,
                    }
                })
            };
            if svc.spec.ports.is_empty() {
                // A headless Service may have no ports.
                if svc.is_headless() {
                    add(vec![]);
                }
            } else {
                for sp in &svc.spec.ports {
                    if let Some(n) = find_port(pod, sp) {
                        add(vec![V1EndpointPort {
                            name: sp.name.clone(),
                            port: n,
                            protocol: protocol_or_tcp(&sp.protocol).to_string(),
                        }]);
                    }
                }
            }
        }
        let subsets = repack_subsets(subsets);
        let current = store.get::<Endpoints>(key);
        let mut compare_labels = current
            .map(|e| e.metadata.labels.clone())
            .unwrap_or_default();
        compare_labels.remove(HEADLESS_LABEL);
        if let Some(cur) = current {
            // capacityAnnotationSetCorrectly
            let capacity_ok = total_addresses(&cur.subsets) <= MAX_CAPACITY
                && !cur.metadata.annotations.contains_key(OVER_CAPACITY);
            if cur.subsets == subsets && compare_labels == svc.metadata.labels && capacity_ok {
                return Vec::new();
            }
        }
        let mut e = current.cloned().unwrap_or_else(|| Endpoints {
            metadata: ObjectMeta {
                name: svc.metadata.name.clone(),
                namespace: svc.metadata.namespace.clone(),
                ..Default::default()
            },
            subsets: vec![],
        });
        let create = current.is_none();
        e.subsets = subsets;
        e.metadata.labels = svc.metadata.labels.clone();
        match trigger {
            Some(t) => {
                e.metadata
                    .annotations
                    .insert(LAST_CHANGE_TRIGGER_TIME.into(), rfc3339(t));
            }
            None => {
                e.metadata.annotations.remove(LAST_CHANGE_TRIGGER_TIME);
            }
        }
        if truncate_endpoints(&mut e) {
            e.metadata
                .annotations
                .insert(OVER_CAPACITY.into(), "truncated".into());
        } else {
            e.metadata.annotations.remove(OVER_CAPACITY);
        }
        if svc.is_headless() || svc.spec.cluster_ip.is_empty() {
            e.metadata
                .labels
                .insert(HEADLESS_LABEL.into(), String::new());
        } else {
            e.metadata.labels.remove(HEADLESS_LABEL);
        }
        if create {
            vec![Request::Create {
                object: e.into(),
                event: None,
            }]
        } else {
            vec![Request::blind_update(e)]
        }
    }
}

fn total_addresses(subsets: &[EndpointSubset]) -> usize {
    subsets
        .iter()
        .map(|s| s.addresses.len() + s.not_ready_addresses.len())
        .sum()
}

/// `RepackSubsets`: addresses grouped by the exact set of ports they serve, each
/// address ready or not once; then sorted (`SortSubsets`: addresses by IP then uid).
pub fn repack_subsets(subsets: Vec<EndpointSubset>) -> Vec<EndpointSubset> {
    // Address identity: IP and the Pod's uid (upstream's addressKey).
    type AddrKey = (String, String);
    let addr_key = |a: &EndpointAddress| {
        (
            a.ip.clone(),
            a.target_ref
                .as_ref()
                .map(|r| r.uid.clone())
                .unwrap_or_default(),
        )
    };
    let mut all: BTreeMap<AddrKey, EndpointAddress> = BTreeMap::new();
    // Port (None: the sentinel of a subset without ports) → address → ready.
    let mut by_port: BTreeMap<Option<V1EndpointPort>, BTreeMap<AddrKey, bool>> = BTreeMap::new();
    for ss in &subsets {
        let ports: Vec<Option<V1EndpointPort>> = if ss.ports.is_empty() {
            vec![None]
        } else {
            ss.ports.iter().cloned().map(Some).collect()
        };
        for port in ports {
            let set = by_port.entry(port).or_default();
            for (addrs, ready) in [(&ss.addresses, true), (&ss.not_ready_addresses, false)] {
                for a in addrs {
                    let k = addr_key(a);
                    all.entry(k.clone()).or_insert_with(|| a.clone());
                    // mapAddressByPort: a not-ready copy of an address wins.
                    let r = set.entry(k).or_insert(ready);
                    *r = *r && ready;
                }
            }
        }
    }
    // Group the ports by the address set they share.
    let mut by_addrs: BTreeMap<Vec<(AddrKey, bool)>, Vec<V1EndpointPort>> = BTreeMap::new();
    for (port, addrs) in by_port {
        let key: Vec<(AddrKey, bool)> = addrs.into_iter().collect();
        let ports = by_addrs.entry(key).or_default();
        if let Some(p) = port {
            ports.push(p);
        }
    }
    let mut out: Vec<EndpointSubset> = by_addrs
        .into_iter()
        .map(|(addrs, ports)| {
            let mut ss = EndpointSubset {
                ports,
                ..Default::default()
            };
            for (k, ready) in addrs {
                let a = all[&k].clone();
                if ready {
                    ss.addresses.push(a);
                } else {
                    ss.not_ready_addresses.push(a);
                }
            }
            let by_ip_uid = |a: &EndpointAddress, b: &EndpointAddress| {
                let uid = |x: &EndpointAddress| {
                    x.target_ref
                        .as_ref()
                        .map(|r| r.uid.clone())
                        .unwrap_or_default()
                };
                a.ip.cmp(&b.ip).then_with(|| uid(a).cmp(&uid(b)))
            };
            crate::sorting::sort_by(&mut ss.addresses, by_ip_uid);
            crate::sorting::sort_by(&mut ss.not_ready_addresses, by_ip_uid);
            crate::sorting::sort(&mut ss.ports);
            ss
        })
        .collect();
    crate::sorting::sort_by(&mut out, |a, b| {
        let first = |s: &EndpointSubset| {
            s.addresses
                .first()
                .or(s.not_ready_addresses.first())
                .map(|a| a.ip.clone())
        };
        first(a).cmp(&first(b)).then_with(|| a.ports.cmp(&b.ports))
    });
    out
}

/// `truncateEndpoints`: past [`MAX_CAPACITY`] addresses, keep each subset's share
/// (rounded up) of the ready ones, or of the not-ready ones when the ready ones fit.
pub fn truncate_endpoints(e: &mut Endpoints) -> bool {
    let ready: usize = e.subsets.iter().map(|s| s.addresses.len()).sum();
    let not_ready: usize = e.subsets.iter().map(|s| s.not_ready_addresses.len()).sum();
    if ready + not_ready <= MAX_CAPACITY {
        return false;
    }
    let truncate_ready = ready > MAX_CAPACITY;
    let (max, total) = if truncate_ready {
        (MAX_CAPACITY, ready)
    } else {
        (MAX_CAPACITY - ready, not_ready)
    };
    let mut can_be_added = max;
    for s in &mut e.subsets {
        let n = if truncate_ready {
            s.addresses.len()
        } else {
            s.not_ready_addresses.len()
        };
        let share = (n * max).div_ceil(total).min(can_be_added);
        if truncate_ready {
            s.addresses.truncate(share);
            s.not_ready_addresses.clear();
            can_be_added -= s.addresses.len();
        } else {
            s.not_ready_addresses.truncate(share);
            can_be_added -= s.not_ready_addresses.len();
        }
    }
    true
}
