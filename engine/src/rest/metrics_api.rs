//! `metrics.k8s.io/v1beta1`, as metrics-server serves it behind the API server's
//! aggregation layer: NodeMetrics and PodMetrics, read by `kubectl top` and the
//! HorizontalPodAutoscaler, from the same readings the console's `kubectl top` prints
//! ([`crate::metrics`]).
//!
//! The request passes the API server's door first (authentication, then RBAC on the
//! group `metrics.k8s.io` and the resource `nodes` or `pods`), as the aggregation layer
//! authorizes before it proxies; the answer is then built here, as metrics-server
//! builds it. A node that is down, and a Pod without a reading yet, are absent, as
//! metrics-server leaves out what it could not scrape.
//!
//! Upstream: `sigs.k8s.io/metrics-server/pkg/api/{node,pod}.go`,
//! `staging/src/k8s.io/metrics/pkg/apis/metrics/v1beta1/types.go`.

use super::*;
use crate::apiserver::discovery::REVIEWS;
use crate::metrics::PodUsage;
use crate::time::rfc3339;

/// metrics-server's scrape window as it reports it.
const WINDOW: &str = "15s";

/// CPU in nanocores and memory in Ki (bytes when not a whole Ki), as metrics-server
/// writes its usage.
fn usage_json(u: PodUsage) -> Value {
    let memory = if u.memory_bytes % 1024 == 0 {
        format!("{}Ki", u.memory_bytes / 1024)
    } else {
        u.memory_bytes.to_string()
    };
    json!({"cpu": format!("{}n", u.cpu_milli.saturating_mul(1_000_000)), "memory": memory})
}

impl ApiServer {
    /// Answer a path under `/apis/metrics.k8s.io/v1beta1/`, or None when the path is
    /// not one of its resources.
    pub(super) fn metrics_api(&mut self, req: &HttpRequest, segs: &[&str]) -> Option<HttpResponse> {
        let (resource, namespace, name) = match segs {
            ["nodes"] => ("nodes", None, None),
            ["nodes", n] => ("nodes", None, Some(*n)),
            ["pods"] => ("pods", None, None),
            ["namespaces", ns, "pods"] => ("pods", Some(*ns), None),
            ["namespaces", ns, "pods", n] => ("pods", Some(*ns), Some(*n)),
            _ => return None,
        };
        let served = REVIEWS
            .iter()
            .find(|v| v.group == "metrics.k8s.io" && v.resource == resource)?;
        if req.method != "GET" {
            return Some(HttpResponse::error(
                &ApiError {
                    code: 405,
                    reason: "MethodNotAllowed",
                    message: "the server does not allow this method on the requested resource"
                        .into(),
                    kubectl_message: None,
                    details: None,
                },
                None,
                "",
            ));
        }
        let verb = if name.is_some() {
            Verb::Get
        } else {
            Verb::List
        };
        let mut r = self.request(req, verb, Kind::Pod);
        r.body = Body::Aggregated(served);
        r.namespace = namespace.unwrap_or("").to_string();
        r.name = name.unwrap_or("").to_string();
        r.trace = None;
        if let Err(e) = self.cluster.call(r) {
            return Some(HttpResponse::json(e.code, &status_of(&e, None, "")));
        }
        let labels = match req.param("labelSelector").filter(|s| !s.is_empty()) {
            Some(s) => match crate::apiserver::selectors::parse_label_selector(s) {
                Ok(sel) => Some(sel),
                Err(e) => {
                    return Some(HttpResponse::error(
                        &ApiError::bad_request(e.trim_start_matches("error: ").to_string()),
                        None,
                        "",
                    ))
                }
            },
            None => None,
        };
        let items = if resource == "nodes" {
            node_metrics(&self.cluster, name, labels.as_ref())
        } else {
            pod_metrics(&self.cluster, namespace, name, labels.as_ref())
        };
        let kind = if resource == "nodes" {
            "NodeMetrics"
        } else {
            "PodMetrics"
        };
        Some(match name {
            Some(n) => match items.into_iter().next() {
                Some(item) => HttpResponse::json(200, &item),
                None => HttpResponse::json(
                    404,
                    &json!({
                        "kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                        "message": format!("{}.metrics.k8s.io \"{n}\" not found", if resource == "nodes" { "nodemetrics" } else { "podmetrics" }),
                        "reason": "NotFound",
                        "details": {"name": n, "group": "metrics.k8s.io", "kind": resource},
                        "code": 404,
                    }),
                ),
            },
            None => HttpResponse::json(
                200,
                &json!({
                    "kind": format!("{kind}List"), "apiVersion": "metrics.k8s.io/v1beta1",
                    "metadata": {}, "items": items,
                }),
            ),
        })
    }
}

/// NodeMetrics of each node that is up (metrics-server cannot scrape the others).
fn node_metrics(
    c: &crate::cluster::Cluster,
    name: Option<&str>,
    labels: Option<&crate::api::LabelSelector>,
) -> Vec<Value> {
    let now = c.now();
    let stamp = rfc3339(now);
    let all = crate::metrics::all_pod_usages(&c.store, &c.config.load, &c.config.served, now);
    c.store
        .list::<crate::api::Node>()
        .filter(|n| name.is_none_or(|x| n.metadata.name == x))
        .filter(|n| labels.is_none_or(|s| s.matches(&n.metadata.labels)))
        .filter(|n| c.node_up(&n.metadata.name))
        .map(|n| {
            let u = crate::metrics::node_usage(&c.store, &all, &n.metadata.name);
            json!({
                "kind": "NodeMetrics", "apiVersion": "metrics.k8s.io/v1beta1",
                "metadata": {"name": n.metadata.name, "creationTimestamp": stamp, "labels": n.metadata.labels},
                "timestamp": stamp, "window": WINDOW, "usage": usage_json(u),
            })
        })
        .collect()
}

/// PodMetrics of each selected Pod with a reading.
fn pod_metrics(
    c: &crate::cluster::Cluster,
    namespace: Option<&str>,
    name: Option<&str>,
    labels: Option<&crate::api::LabelSelector>,
) -> Vec<Value> {
    let now = c.now();
    let stamp = rfc3339(now);
    let select = |p: &crate::api::Pod| {
        name.is_none_or(|n| p.metadata.name == n)
            && labels.is_none_or(|s| s.matches(&p.metadata.labels))
    };
    let usages = crate::metrics::pod_usages(
        &c.store,
        &c.config.load,
        &c.config.served,
        namespace,
        &select,
        now,
    );
    usages
        .iter()
        .filter_map(|((ns, pn), u)| {
            let pod = c.store.get::<crate::api::Pod>(&crate::apiserver::ObjKey::new(ns, pn))?;
            Some(json!({
                "kind": "PodMetrics", "apiVersion": "metrics.k8s.io/v1beta1",
                "metadata": {"name": pn, "namespace": ns, "creationTimestamp": stamp, "labels": pod.metadata.labels},
                "timestamp": stamp, "window": WINDOW,
                "containers": containers(pod, *u),
            }))
        })
        .collect()
}

/// A Pod's reading split among its containers (the first takes what does not divide),
/// so that their sum is the Pod's, as `kubectl top pod` adds them up.
fn containers(pod: &crate::api::Pod, u: PodUsage) -> Vec<Value> {
    let n = pod.spec.containers.len().max(1) as i64;
    pod.spec
        .containers
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let share = |total: i64| total / n + if i == 0 { total % n } else { 0 };
            json!({"name": c.name, "usage": usage_json(PodUsage {
                cpu_milli: share(u.cpu_milli),
                memory_bytes: share(u.memory_bytes),
            })})
        })
        .collect()
}
