//! The Service cards and their routes: each Service's endpoints from its
//! EndpointSlices, and the traffic that met each Pod in the last seconds.

use super::*;

/// The seconds a Service card and its routes count traffic over: the two before this
/// one and this one so far.
pub const ROUTE_SECONDS: u64 = 2;

/// Service cards, stacked at the top of the Pod column in namespace and name order.
pub(super) fn service_cards(c: &Cluster) -> Vec<ServiceCard> {
    let now_s = c.now() / 1000;
    let mut out = Vec::new();
    for s in c.store.list::<Service>() {
        if (s.metadata.namespace == "default" && s.metadata.name == "kubernetes")
            || !crate::view::drawn(&s.metadata)
        {
            continue;
        }
        let key = kubeplay_engine::apiserver::ObjKey::new(&s.metadata.namespace, &s.metadata.name);
        let mut endpoints = (0, 0, 0);
        for (_, state) in service_endpoints(c, s) {
            match state {
                "terminating" => endpoints.2 += 1,
                "ready" => endpoints.0 += 1,
                _ => endpoints.1 += 1,
            }
        }
        let (mut answered, mut failed) = (0, 0);
        // Traffic through an Ingress counts on the Service it goes to.
        let traffic = c.proxies.traffic_key(&key);
        if let Some(series) = c.proxies.series.get(&traffic) {
            for (_, b) in series.range(now_s.saturating_sub(ROUTE_SECONDS)..=now_s) {
                answered += b.outcomes[0];
                failed += b.errors();
            }
        }
        let i = out.len();
        out.push(ServiceCard {
            namespace: s.metadata.namespace.clone(),
            name: s.metadata.name.clone(),
            type_: s.spec.type_.clone(),
            address: match s.spec.ports.first() {
                Some(p) if !s.is_headless() => format!("{}:{}", s.spec.cluster_ip, p.port),
                _ => s.spec.cluster_ip.clone(),
            },
            endpoints,
            rps: c.proxies.flows.get(&traffic).map(|f| f.rps),
            through: (traffic != key).then(|| traffic.name.clone()),
            answered,
            failed,
            lane: i,
            y: i as f64 * (SERVICE_H + V_GAP),
        });
    }
    out
}

/// A Service's endpoints from its EndpointSlices (the `kubernetes.io/service-name`
/// label): the Pod each names, and its state — `ready`, `notready` or `terminating`
/// (terminating wins, as the slice's conditions say it).
fn service_endpoints<'a>(c: &'a Cluster, s: &'a Service) -> Vec<(&'a str, &'static str)> {
    let mut out = Vec::new();
    for slice in c.store.list_ns::<EndpointSlice>(&s.metadata.namespace) {
        if slice.metadata.labels.get("kubernetes.io/service-name") != Some(&s.metadata.name) {
            continue;
        }
        for e in slice.endpoints.iter().flatten() {
            let Some(r) = e.target_ref.as_ref().filter(|r| r.kind == "Pod") else {
                continue;
            };
            let state = if e.conditions.terminating == Some(true) {
                "terminating"
            } else if e.conditions.ready.unwrap_or(true) {
                "ready"
            } else {
                "notready"
            };
            out.push((r.name.as_str(), state));
        }
    }
    out
}

/// Routes: a line from each Service card, down its lane in the gap left of the Pod
/// column, into each Pod its EndpointSlices list — styled by the endpoint's state, and
/// by what requests met there in the last seconds (`flow`: answered, `fail`: refused,
/// reset or timed out).
pub(super) fn routes(m: &mut ChainModel, c: &Cluster) {
    let now_s = c.now() / 1000;
    let mut routes = Vec::new();
    for card in &m.services {
        let key = kubeplay_engine::apiserver::ObjKey::new(&card.namespace, &card.name);
        let Some(s) = c.store.get::<Service>(&key) else {
            continue;
        };
        // Long-lived connections per Pod uid, when the Service has devices.
        let conns = c.proxies.devices.get(&key).map(|d| d.per_pod());
        for (pod, state) in service_endpoints(c, s) {
            let Some(p) = m.pods.iter_mut().find(|p| p.name == pod) else {
                continue;
            };
            if let Some(conns) = &conns {
                let uid = c
                    .store
                    .get::<kubeplay_engine::api::Pod>(&kubeplay_engine::apiserver::ObjKey::new(
                        &card.namespace,
                        pod,
                    ))
                    .map(|p| p.metadata.uid.as_str())
                    .unwrap_or_default();
                p.connections = Some(conns.get(uid).copied().unwrap_or(0));
            }
            let hits = c
                .proxies
                .hits
                .get(&(key.clone(), pod.to_string()))
                .map(|h| h.recent(now_s))
                .unwrap_or_default();
            let failed: u64 = hits[1..].iter().sum();
            if hits.iter().sum::<u64>() > 0 {
                let (ok0, failed0, _) = p.traffic.unwrap_or((0, 0, ""));
                let worst = (1..5)
                    .max_by_key(|&i| (hits[i], std::cmp::Reverse(i)))
                    .filter(|&i| hits[i] > 0)
                    .map_or("", outcome_label);
                p.traffic = Some((ok0 + hits[0], failed0 + failed, worst));
            }
            let kind = match (state, failed > 0, hits[0] > 0) {
                ("ready", true, _) => "route ready fail",
                ("ready", false, true) => "route ready flow",
                ("ready", false, false) => "route ready",
                ("terminating", true, _) => "route terminating fail",
                ("terminating", false, true) => "route terminating flow",
                ("terminating", false, false) => "route terminating",
                (_, true, _) => "route notready fail",
                (_, false, true) => "route notready flow",
                (_, false, false) => "route notready",
            };
            routes.push(Link {
                x1: col_x(2),
                y1: card.y + SERVICE_H / 2.0,
                x2: col_x(2) - ROUTE_STUB - ROUTE_LANE * card.lane as f64,
                y2: p.y + ROUTE_INTO,
                kind,
            });
        }
    }
    // Lanes share their vertical run: the failing routes are drawn last, on top.
    kubeplay_engine::sorting::sort_by_key(&mut routes, |l| l.kind.ends_with("fail"));
    m.links.extend(routes);
}
