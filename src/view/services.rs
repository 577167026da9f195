//! The Services panel: for each Service, platform health (its endpoints and the
//! Deployment behind it) beside what its users met (the traffic's outcomes) and, when
//! the application is modelled, the business outcome — the course's two cards.

use super::*;
use kubeplay_engine::api::{Deployment, EndpointSlice, Service};
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::proxy::{Bucket, Outcome};

/// Seconds of traffic the sparkline shows.
pub const SPARK_SECONDS: u64 = 30;

/// One Service, as the panel draws it.
#[derive(Clone, Debug, PartialEq)]
pub struct ServiceView {
    /// Name.
    pub name: String,
    /// `ClusterIP`, `NodePort`…
    pub type_: String,
    /// `10.96.x.y:80` (or `None` for headless).
    pub address: String,
    /// Endpoints: ready, not ready (and not terminating), terminating.
    pub endpoints: (usize, usize, usize),
    /// The Deployment whose Pods it selects, with its Ready count and spec.replicas.
    pub deployment: Option<(String, i64, i64)>,
    /// A flow runs: its requests per second.
    pub rps: Option<u32>,
    /// What that flow is sent to: `service/NAME`, or `ingress/NAME` when it comes
    /// through an Ingress (what stopping it names).
    pub flow: String,
    /// The last 10 s: requests, then each outcome in [`Outcome::ALL`] order.
    pub recent: (u64, [u64; 5]),
    /// Error share of each of the last [`SPARK_SECONDS`] seconds, in thousandths
    /// (None: no request that second).
    pub spark: Vec<Option<u64>>,
    /// The business card, when the application is modelled: store, accepted,
    /// duplicates, lost, 409, 200, 404, 503.
    pub business: Option<(String, [u64; 7])>,
    /// Its devices, when it has some (`sim devices`).
    pub devices: Option<DevicesCard>,
    /// The other Services in the namespace: where the application could keep its
    /// messages instead (a database behind one of them).
    pub others: Vec<String>,
}

/// A Service's devices on long-lived connections, as the business card shows them.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DevicesCard {
    /// How many devices.
    pub devices: u64,
    /// Connected now.
    pub connected: u64,
    /// Connects after a device's first.
    pub reconnects: u64,
    /// Connect attempts that failed.
    pub failed: u64,
    /// Messages for the devices.
    pub messages: u64,
    /// Delivered (pushed or backfilled).
    pub delivered: u64,
    /// Of those, backfilled after a reconnect.
    pub backfilled: u64,
    /// Acknowledged by the device.
    pub acked: u64,
    /// Read by the user.
    pub read: u64,
    /// Missing for good: no Pod or database holds them any more.
    pub missing: u64,
}

/// Most Services the panel draws: those whose users meet errors or whose endpoints are
/// not all ready first, then the others (`kubectl get svc` lists every one).
pub const SERVICE_ROWS_MAX: usize = 8;

/// Whether the default namespace has a Service of the learner's (not `kubernetes`).
pub fn has_services(c: &Cluster) -> bool {
    c.store
        .list_ns::<Service>("default")
        .any(|s| s.metadata.name != "kubernetes")
}

/// The Services in `default` but the API server's own, at most [`SERVICE_ROWS_MAX`]
/// (troubled ones first), and how many there are in all. One pass over the
/// EndpointSlices counts every Service's endpoints; the rest is worked out for the
/// drawn ones only.
pub fn service_views(c: &Cluster) -> (Vec<ServiceView>, usize) {
    let now_s = c.now() / 1000;
    let services: Vec<&Service> = c
        .store
        .list_ns::<Service>("default")
        .filter(|s| s.metadata.name != "kubernetes")
        .collect();
    let names: Vec<String> = services.iter().map(|s| s.metadata.name.clone()).collect();
    let mut endpoints: std::collections::BTreeMap<&str, (usize, usize, usize)> = Default::default();
    for slice in c.store.list_ns::<EndpointSlice>("default") {
        let Some(svc) = slice.metadata.labels.get("kubernetes.io/service-name") else {
            continue;
        };
        let eps = endpoints.entry(svc.as_str()).or_default();
        for e in slice.endpoints.iter().flatten() {
            if e.conditions.terminating == Some(true) {
                eps.2 += 1;
            } else if e.conditions.ready.unwrap_or(true) {
                eps.0 += 1;
            } else {
                eps.1 += 1;
            }
        }
    }
    let failing = |s: &Service| {
        c.proxies
            .series
            .get(&ObjKey::new("default", &s.metadata.name))
            .is_some_and(|m| {
                m.range(now_s.saturating_sub(9)..=now_s)
                    .any(|(_, b)| b.errors() > 0)
            })
    };
    let troubled = |i: usize| {
        let s = services[i];
        let (r, nr, t) = endpoints
            .get(s.metadata.name.as_str())
            .copied()
            .unwrap_or_default();
        failing(s) || nr + t > 0 || (r == 0 && s.spec.selector.is_some())
    };
    let mut rows = super::busy_first(services.len(), SERVICE_ROWS_MAX, troubled);
    rows.sort_unstable();
    let views = rows
        .into_iter()
        .map(|i| services[i])
        .map(|s| {
            let key = ObjKey::new("default", &s.metadata.name);
            let eps = endpoints
                .get(s.metadata.name.as_str())
                .copied()
                .unwrap_or_default();
            let deployment = s.spec.selector.as_ref().and_then(|sel| {
                c.store.list_ns::<Deployment>("default").find(|d| {
                    let l = &d.spec.template.metadata.labels;
                    !sel.is_empty() && sel.iter().all(|(k, v)| l.get(k) == Some(v))
                })
            });
            // Traffic through an Ingress counts on the Service it goes to.
            let traffic = c.proxies.traffic_key(&key);
            let series = c.proxies.series.get(&traffic);
            let second = |s: u64| series.and_then(|m| m.get(&s));
            let mut recent = (0, [0u64; 5]);
            for s in now_s.saturating_sub(9)..=now_s {
                if let Some(b) = second(s) {
                    recent.0 += b.total();
                    for (i, n) in b.outcomes.iter().enumerate() {
                        recent.1[i] += n;
                    }
                }
            }
            let spark = (now_s.saturating_sub(SPARK_SECONDS - 1)..=now_s)
                .map(|s| {
                    second(s)
                        .filter(|b: &&Bucket| b.total() > 0)
                        .map(|b| b.errors() * 1000 / b.total())
                })
                .collect();
            let business = c.proxies.apps.get(&key).map(|a| {
                let b = &a.business;
                let store = match &a.store {
                    kubeplay_engine::app::Store::Memory => "memory".to_string(),
                    kubeplay_engine::app::Store::Database(db) => format!("service/{}", db.name),
                };
                (
                    store,
                    [
                        b.accepted,
                        b.duplicates,
                        a.lost(),
                        b.conflicts,
                        b.found,
                        b.not_found,
                        b.unavailable,
                    ],
                )
            });
            let devices = c.proxies.devices.get(&key).map(|d| {
                let n = &d.counts;
                DevicesCard {
                    devices: u64::from(d.len()),
                    connected: d.connected(),
                    reconnects: n.reconnects,
                    failed: n.failed_attempts,
                    messages: n.messages,
                    delivered: n.pushed + n.backfilled,
                    backfilled: n.backfilled,
                    acked: n.acked,
                    read: n.read,
                    missing: n.missing,
                }
            });
            ServiceView {
                name: s.metadata.name.clone(),
                type_: s.spec.type_.clone(),
                address: match s.spec.ports.first() {
                    Some(p) if !s.is_headless() => format!("{}:{}", s.spec.cluster_ip, p.port),
                    _ => s.spec.cluster_ip.clone(),
                },
                endpoints: eps,
                deployment: deployment.map(|d| {
                    (
                        d.metadata.name.clone(),
                        d.status.ready_replicas,
                        d.spec.replicas,
                    )
                }),
                rps: c.proxies.flows.get(&traffic).map(|f| f.rps),
                flow: if traffic.name.contains('/') {
                    traffic.name.clone()
                } else {
                    format!("service/{}", traffic.name)
                },
                recent,
                spark,
                business,
                devices,
                others: names
                    .iter()
                    .filter(|n| **n != s.metadata.name)
                    .take(3)
                    .cloned()
                    .collect(),
            }
        })
        .collect();
    (views, services.len())
}

/// Most unexposed Deployments the panel names.
pub const UNEXPOSED_MAX: usize = 8;

/// Deployments in `default` no Service selects (the panel offers to expose them), at
/// most [`UNEXPOSED_MAX`]. Services are indexed by each label pair of their selector,
/// so a Deployment is checked only against Services that could select it.
pub fn unexposed_deployments(c: &Cluster) -> Vec<String> {
    let services: Vec<&StringMap> = c
        .store
        .list_ns::<Service>("default")
        .filter_map(|s| s.spec.selector.as_ref())
        .filter(|sel| !sel.is_empty())
        .collect();
    let mut by_pair: std::collections::BTreeMap<(&str, &str), Vec<usize>> = Default::default();
    for (i, sel) in services.iter().enumerate() {
        for (k, v) in sel.iter() {
            by_pair.entry((k.as_str(), v.as_str())).or_default().push(i);
        }
    }
    c.store
        .list_ns::<Deployment>("default")
        .filter(|d| {
            let l = &d.spec.template.metadata.labels;
            !l.iter().any(|(k, v)| {
                by_pair
                    .get(&(k.as_str(), v.as_str()))
                    .into_iter()
                    .flatten()
                    .any(|&i| services[i].iter().all(|(k, v)| l.get(k) == Some(v)))
            })
        })
        .take(UNEXPOSED_MAX)
        .map(|d| d.metadata.name.clone())
        .collect()
}

/// The label of outcome `i` of [`Outcome::ALL`] in the panel.
pub fn outcome_label(i: usize) -> &'static str {
    match Outcome::ALL[i] {
        Outcome::Ok => "answered",
        Outcome::NoEndpoints => "no endpoints",
        Outcome::Refused => "refused",
        Outcome::Timeout => "timed out",
        Outcome::Reset => "reset",
    }
}
