//! `trafficDistribution` hints (`staging/src/k8s.io/endpointslice/trafficdist/
//! trafficdist.go`): with `PreferClose`, every ready endpoint with a zone gets the hint
//! `forZones: [{name: <its zone>}]`, which kube-proxy uses to keep traffic in the
//! client's zone; without it, any hint is removed.

use crate::api::{EndpointHints, EndpointSlice, ForZone, Service};

/// The Service's `spec.trafficDistribution`, if it is `PreferClose`.
fn prefers_close(svc: &Service) -> bool {
    svc.spec
        .extra
        .get("trafficDistribution")
        .and_then(|v| v.as_str())
        == Some("PreferClose")
}

/// `endpointReady`: the Ready condition set and true.
fn ready(e: &crate::api::Endpoint) -> bool {
    e.conditions.ready == Some(true)
}

/// `needsUpdate` of the heuristic in force: a hint missing, wrong or stale.
fn needs_update(prefer_close: bool, slice: &EndpointSlice) -> bool {
    let eps = slice.endpoints.as_deref().unwrap_or_default();
    if !prefer_close {
        return eps.iter().any(|e| e.hints.is_some());
    }
    eps.iter().filter(|e| ready(e)).any(|e| {
        let zones = e.hints.as_ref().map_or(&[][..], |h| &h.for_zones[..]);
        if e.zone.is_empty() {
            !zones.is_empty()
        } else {
            zones.len() != 1 || zones[0].name != e.zone
        }
    })
}

/// `update` of the heuristic in force.
fn update(prefer_close: bool, slice: &mut EndpointSlice) {
    for e in slice.endpoints.iter_mut().flatten() {
        if !prefer_close {
            e.hints = None;
        } else if ready(e) {
            e.hints = (!e.zone.is_empty()).then(|| EndpointHints {
                for_zones: vec![ForZone {
                    name: e.zone.clone(),
                }],
                ..Default::default()
            });
        }
    }
}

/// `ReconcileHints`: the unchanged slices whose hints are off join the updates; then
/// every slice to create or update gets the hints the Service asks for.
pub(super) fn reconcile_hints(
    svc: &Service,
    create: &mut [EndpointSlice],
    update_: &mut Vec<EndpointSlice>,
    unchanged: Vec<EndpointSlice>,
) {
    let prefer_close = prefers_close(svc);
    update_.extend(
        unchanged
            .into_iter()
            .filter(|s| needs_update(prefer_close, s)),
    );
    for s in create.iter_mut().chain(update_.iter_mut()) {
        update(prefer_close, s);
    }
}
