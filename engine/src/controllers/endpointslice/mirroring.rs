//! The EndpointSlice mirroring controller: a Service without a selector has its
//! endpoints written by hand as an Endpoints object; this controller copies them into
//! EndpointSlices (labelled `managed-by: endpointslicemirroring-controller.k8s.io`),
//! which is what kube-proxy reads. Endpoints labelled
//! `endpointslice.kubernetes.io/skip-mirror: "true"`, Services with a selector (their
//! slices are the EndpointSlice controller's) and a gone Service or Endpoints leave no
//! mirrored slice behind.
//!
//! Upstream: `pkg/controller/endpointslicemirroring/` (`endpointslicemirroring_controller.go`
//! `syncEndpoints`, `reconciler.go`, `utils.go` `newEndpointSlice`, `addressToEndpoint`).
//! Simplification: one slice per port set and address type (upstream fills slices of up
//! to `--mirroring-max-endpoints-per-subset`, 1,000, which is also the most kept of a
//! subset here).

use super::{LABEL_MANAGED_BY, LABEL_SERVICE_NAME};
use crate::api::*;
use crate::apiserver::{Change, ObjKey};
use crate::client::{writer, Component, Request};
use crate::controllers::{Controller, Ctx, NoTimer, Reconcile};
use std::collections::{BTreeMap, BTreeSet};

/// The controller's name in the slices' managed-by label.
pub const CONTROLLER_NAME: &str = "endpointslicemirroring-controller.k8s.io";
/// The label that keeps an Endpoints object from being mirrored.
pub const LABEL_SKIP_MIRROR: &str = "endpointslice.kubernetes.io/skip-mirror";
/// The annotation of an Endpoints object used as a leader-election lock.
const LEADER_ANNOTATION: &str = "control-plane.alpha.kubernetes.io/leader";
/// `--mirroring-max-endpoints-per-subset`'s default.
pub const MAX_ENDPOINTS_PER_SUBSET: usize = 1000;

/// The mirroring controller (no state of its own: the store has it all).
#[derive(Clone, Debug, Default)]
pub struct EndpointSliceMirroringController;

impl Controller for EndpointSliceMirroringController {
    type Key = ObjKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[Kind::Endpoints, Kind::Service, Kind::EndpointSlice];

    fn identity() -> Component {
        Component::named(writer::ENDPOINTSLICE_MIRRORING_CONTROLLER)
    }

    /// An Endpoints or Service changed (same name), or a slice it manages did.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        match ch.kind {
            Kind::Endpoints | Kind::Service => ctx.enqueue(ch.key.clone()),
            Kind::EndpointSlice => {
                for o in [&ch.old, &ch.new].into_iter().flatten() {
                    let labels = &o.meta().labels;
                    if labels.get(LABEL_MANAGED_BY).map(String::as_str) == Some(CONTROLLER_NAME) {
                        if let Some(svc) = labels.get(LABEL_SERVICE_NAME) {
                            ctx.enqueue(ObjKey::new(&ch.key.namespace, svc));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        Reconcile {
            requests: sync_endpoints(ctx.store, key),
            requeue_after: None,
        }
    }
}

/// `shouldMirror`: not skipped by its label, not a leader-election lock.
fn should_mirror(ep: &Endpoints) -> bool {
    ep.metadata
        .labels
        .get(LABEL_SKIP_MIRROR)
        .map(String::as_str)
        != Some("true")
        && !ep.metadata.annotations.contains_key(LEADER_ANNOTATION)
}

/// `syncEndpoints`: the requests that make the mirrored slices of `key` what its
/// Endpoints say (or remove them).
pub fn sync_endpoints(store: &crate::apiserver::Store, key: &ObjKey) -> Vec<Request> {
    let existing: Vec<&EndpointSlice> = store
        .list_ns::<EndpointSlice>(&key.namespace)
        .filter(|s| {
            let l = &s.metadata.labels;
            l.get(LABEL_SERVICE_NAME) == Some(&key.name)
                && l.get(LABEL_MANAGED_BY).map(String::as_str) == Some(CONTROLLER_NAME)
        })
        .collect();
    let svc = store.get::<Service>(key);
    let ep = store
        .get::<Endpoints>(key)
        .filter(|e| should_mirror(e) && !e.metadata.is_deleting());
    let desired = match (svc, ep) {
        (Some(svc), Some(ep))
            if svc.spec.selector.is_none()
                && svc.spec.type_ != "ExternalName"
                && !svc.metadata.is_deleting() =>
        {
            desired_slices(ep)
        }
        _ => BTreeMap::new(),
    };
    reconcile(key, &existing, desired)
}

/// The ports and address type of one mirrored slice.
type SliceKey = (Vec<EndpointPort>, &'static str);

/// The slices an Endpoints object mirrors to: one per port set and address type,
/// each subset's addresses (ready) and not-ready addresses, at most
/// [`MAX_ENDPOINTS_PER_SUBSET`] of a subset.
fn desired_slices(ep: &Endpoints) -> BTreeMap<SliceKey, (EndpointSlice, BTreeSet<String>)> {
    let mut out: BTreeMap<SliceKey, (EndpointSlice, BTreeSet<String>)> = BTreeMap::new();
    for subset in &ep.subsets {
        let mut ports: Vec<EndpointPort> = subset
            .ports
            .iter()
            .map(|p| EndpointPort {
                name: Some(p.name.clone()),
                protocol: Some(if p.protocol.is_empty() {
                    "TCP".into()
                } else {
                    p.protocol.clone()
                }),
                port: Some(p.port),
                app_protocol: None,
            })
            .collect();
        crate::sorting::sort(&mut ports);
        let addresses = subset
            .addresses
            .iter()
            .map(|a| (a, true))
            .chain(subset.not_ready_addresses.iter().map(|a| (a, false)))
            .take(MAX_ENDPOINTS_PER_SUBSET);
        for (a, ready) in addresses {
            let family = if crate::apiserver::services::parse_ipv4(&a.ip).is_some() {
                "IPv4"
            } else if a.ip.parse::<std::net::Ipv6Addr>().is_ok() {
                "IPv6"
            } else {
                continue;
            };
            let (slice, seen) = out
                .entry((ports.clone(), family))
                .or_insert_with(|| (new_endpoint_slice(ep, &ports, family), BTreeSet::new()));
            // An address listed twice for the same ports is one endpoint.
            if !seen.insert(a.ip.clone()) {
                continue;
            }
            slice
                .endpoints
                .get_or_insert_with(Vec::new)
                .push(address_to_endpoint(a, ready));
        }
    }
    out
}

/// `newEndpointSlice`: the Endpoints' labels and annotations (but the trigger time and
/// kubectl's last-applied copy), the service-name and managed-by labels, owned by the
/// Endpoints object.
fn new_endpoint_slice(ep: &Endpoints, ports: &[EndpointPort], family: &str) -> EndpointSlice {
    let mut labels = ep.metadata.labels.clone();
    labels.insert(LABEL_SERVICE_NAME.into(), ep.metadata.name.clone());
    labels.insert(LABEL_MANAGED_BY.into(), CONTROLLER_NAME.into());
    let annotations = ep
        .metadata
        .annotations
        .iter()
        .filter(|(k, _)| {
            *k != "endpoints.kubernetes.io/last-change-trigger-time"
                && *k != "kubectl.kubernetes.io/last-applied-configuration"
        })
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let mut owner =
        crate::client::controller_ref(Kind::Endpoints, &ep.metadata.name, &ep.metadata.uid);
    owner.block_owner_deletion = Some(true);
    EndpointSlice {
        metadata: ObjectMeta {
            generate_name: format!("{}-", ep.metadata.name),
            namespace: ep.metadata.namespace.clone(),
            labels,
            annotations,
            owner_references: vec![owner],
            ..Default::default()
        },
        address_type: family.into(),
        endpoints: Some(Vec::new()),
        ports: Some(ports.to_vec()),
    }
}

/// `addressToEndpoint`: the address, its Ready condition, node, hostname and target.
fn address_to_endpoint(a: &EndpointAddress, ready: bool) -> Endpoint {
    Endpoint {
        addresses: vec![a.ip.clone()],
        conditions: EndpointConditions {
            ready: Some(ready),
            serving: None,
            terminating: None,
        },
        hostname: a.hostname.clone(),
        target_ref: a.target_ref.clone(),
        node_name: a.node_name.clone(),
        zone: String::new(),
        hints: None,
    }
}

/// Update the slice already mirroring each port set, create the missing ones, delete
/// the rest.
fn reconcile(
    key: &ObjKey,
    existing: &[&EndpointSlice],
    mut desired: BTreeMap<SliceKey, (EndpointSlice, BTreeSet<String>)>,
) -> Vec<Request> {
    let mut requests = Vec::new();
    for s in existing {
        let mut ports = s.ports.clone().unwrap_or_default();
        crate::sorting::sort(&mut ports);
        let family = match s.address_type.as_str() {
            "IPv4" => "IPv4",
            "IPv6" => "IPv6",
            _ => "",
        };
        match desired.remove(&(ports, family)) {
            Some((mut want, _)) => {
                want.metadata.name = s.metadata.name.clone();
                want.metadata.generate_name = s.metadata.generate_name.clone();
                let same = want.endpoints == s.endpoints
                    && want.ports == s.ports
                    && want.metadata.labels == s.metadata.labels
                    && want.metadata.annotations == s.metadata.annotations;
                if !same {
                    let mut updated = (*s).clone();
                    updated.endpoints = want.endpoints;
                    updated.ports = want.ports;
                    updated.metadata.labels = want.metadata.labels;
                    updated.metadata.annotations = want.metadata.annotations;
                    requests.push(Request::blind_update(updated));
                }
            }
            None => requests.push(Request::Delete {
                kind: Kind::EndpointSlice,
                key: ObjKey::new(&key.namespace, &s.metadata.name),
                options: Default::default(),
                event: None,
            }),
        }
    }
    for (_, (slice, _)) in desired {
        requests.push(Request::Create {
            object: slice.into(),
            event: None,
        });
    }
    requests
}
