//! Large clusters: counts per Deployment, ReplicaSet and node instead of a card per
//! object (the chain and the node board switch to this past a threshold).

use super::*;

/// Past this many Pods the chain and the node board switch to counts (drawing every
/// Pod would make the page unresponsive; the selected object still shows in full).
pub const AGGREGATE_AT: usize = 300;

/// Past this many nodes the chain is aggregated too, whatever the Pod count: a card per
/// node stops being a picture anyone reads long before 5,000.
pub const AGGREGATE_NODES_AT: usize = 60;

/// Whether the chain shows counts and a heat map instead of a card per object.
pub fn aggregated(c: &Cluster) -> bool {
    pod_count(c) > AGGREGATE_AT || c.store.count(Kind::Node) > AGGREGATE_NODES_AT
}

/// A ReplicaSet's Pods as counts.
#[derive(Clone, Debug, PartialEq)]
pub struct RsSummary {
    /// ReplicaSet name.
    pub name: String,
    /// Owner Deployment.
    pub owner: Option<String>,
    /// spec.replicas.
    pub desired: i64,
    /// Pods by state: ready, starting (bound, not ready), pending (unbound), terminating.
    pub ready: usize,
    /// Bound but not ready.
    pub starting: usize,
    /// Not yet bound.
    pub pending: usize,
    /// Being deleted.
    pub terminating: usize,
}

/// A node as one cell.
#[derive(Clone, Debug, PartialEq)]
pub struct NodeCell {
    /// Name.
    pub name: String,
    /// Ready condition is True.
    pub ready: bool,
    /// Pods bound / pod capacity.
    pub pods: i64,
    /// Allocatable pods.
    pub pods_allocatable: i64,
    /// CPU requested, percent of allocatable.
    pub cpu_pct: i64,
    /// Cordoned (spec.unschedulable).
    pub cordoned: bool,
}

/// The aggregated picture of a large cluster.
#[derive(Clone, Debug, PartialEq)]
pub struct AggregateModel {
    /// Pods in the cluster.
    pub total_pods: usize,
    /// Deployments: (name, spec.replicas, readyReplicas).
    pub deployments: Vec<(String, i64, i64)>,
    /// ReplicaSets with their Pods counted.
    pub replicasets: Vec<RsSummary>,
    /// Nodes as cells (shared with the heat map, which redraws only when they change).
    pub nodes: std::rc::Rc<Vec<NodeCell>>,
    /// Services with their endpoints and traffic counted.
    pub services: Vec<ServiceSummary>,
}

/// A Service as counts: its endpoints by state and what its requests met lately.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct ServiceSummary {
    /// `name`, or `namespace/name` outside `default`.
    pub name: String,
    /// Endpoints ready.
    pub ready: usize,
    /// Endpoints not ready (and not terminating).
    pub not_ready: usize,
    /// Endpoints terminating.
    pub terminating: usize,
    /// Requests answered in the last [`SERVICE_WINDOW_S`] seconds.
    pub answered: u64,
    /// Requests that failed in the same window.
    pub failed: u64,
}

/// Seconds of traffic the aggregated Service rows count.
pub const SERVICE_WINDOW_S: u64 = 10;

/// Every Service but the API server's own, counted: one pass over the EndpointSlices.
pub fn service_summaries(c: &Cluster) -> Vec<ServiceSummary> {
    use kubeplay_engine::apiserver::ObjKey;
    let now_s = c.now() / 1000;
    let mut by_key: std::collections::BTreeMap<ObjKey, ServiceSummary> = c
        .store
        .list::<Service>()
        .filter(|s| !(s.metadata.namespace == "default" && s.metadata.name == "kubernetes"))
        .filter(|s| super::drawn(&s.metadata))
        .map(|s| {
            let key = ObjKey::new(&s.metadata.namespace, &s.metadata.name);
            let mut sum = ServiceSummary {
                name: if key.namespace == "default" {
                    key.name.clone()
                } else {
                    format!("{}/{}", key.namespace, key.name)
                },
                ..Default::default()
            };
            if let Some(series) = c.proxies.series.get(&c.proxies.traffic_key(&key)) {
                for (_, b) in series.range(now_s.saturating_sub(SERVICE_WINDOW_S - 1)..=now_s) {
                    sum.answered += b.outcomes[0];
                    sum.failed += b.errors();
                }
            }
            (key, sum)
        })
        .collect();
    for slice in c.store.list::<EndpointSlice>() {
        let Some(svc) = slice.metadata.labels.get("kubernetes.io/service-name") else {
            continue;
        };
        let Some(sum) = by_key.get_mut(&ObjKey::new(&slice.metadata.namespace, svc)) else {
            continue;
        };
        for e in slice.endpoints.iter().flatten() {
            if e.conditions.terminating == Some(true) {
                sum.terminating += 1;
            } else if e.conditions.ready.unwrap_or(true) {
                sum.ready += 1;
            } else {
                sum.not_ready += 1;
            }
        }
    }
    by_key.into_values().collect()
}

/// Pods in the cluster (decides the aggregated mode).
pub fn pod_count(c: &Cluster) -> usize {
    c.store.count(Kind::Pod)
}

/// Build the aggregated model: one pass over the Pods.
pub fn aggregate_model(c: &Cluster) -> AggregateModel {
    let store = &c.store;
    // Each ReplicaSet counts its own Pods through the owner index: one pass over the
    // Pods in all, however many ReplicaSets there are.
    let replicasets: Vec<RsSummary> = store
        .list::<ReplicaSet>()
        .filter(|rs| super::drawn(&rs.metadata))
        .map(|rs| {
            let mut s = RsSummary {
                name: rs.metadata.name.clone(),
                owner: rs.metadata.controller_ref().map(|r| r.name.clone()),
                desired: rs.spec.replicas,
                ready: 0,
                starting: 0,
                pending: 0,
                terminating: 0,
            };
            for o in store.dependent_objects(&rs.metadata.uid) {
                let Object::Pod(p) = o else {
                    continue;
                };
                if p.metadata.controller_ref().map(|r| r.uid.as_str()) != Some(&rs.metadata.uid) {
                    continue;
                }
                if p.metadata.is_deleting() {
                    s.terminating += 1;
                } else if p.is_ready() {
                    s.ready += 1;
                } else if p.spec.node_name.is_empty() {
                    s.pending += 1;
                } else {
                    s.starting += 1;
                }
            }
            s
        })
        .collect();
    let mut nodes: Vec<&Node> = store.list::<Node>().collect();
    kubeplay_engine::sorting::sort_by(&mut nodes, |a, b| {
        natural_cmp(&a.metadata.name, &b.metadata.name)
    });
    let nodes = nodes
        .into_iter()
        .map(|n| {
            let u = store.node_usage(&n.metadata.name);
            let a = u
                .alloc
                .unwrap_or_else(|| kubeplay_engine::apiserver::allocatable(n));
            NodeCell {
                name: n.metadata.name.clone(),
                ready: n.ready_status() == "True",
                pods: u.pods,
                pods_allocatable: a.pods,
                cpu_pct: if a.cpu_milli > 0 {
                    u.requested.cpu_milli * 100 / a.cpu_milli
                } else {
                    0
                },
                cordoned: n.spec.unschedulable,
            }
        })
        .collect();
    AggregateModel {
        total_pods: pod_count(c),
        deployments: store
            .list::<Deployment>()
            .filter(|d| super::drawn(&d.metadata))
            .map(|d| {
                (
                    d.metadata.name.clone(),
                    d.spec.replicas,
                    d.status.ready_replicas,
                )
            })
            .collect(),
        replicasets,
        nodes: std::rc::Rc::new(nodes),
        services: service_summaries(c),
    }
}
