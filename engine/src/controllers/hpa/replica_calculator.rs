//! The replica calculator (`pkg/controller/podautoscaler/replica_calculator.go`, with
//! `metrics/utilization.go`): the replica count a Resource metric proposes, from the
//! Pods' readings grouped as ready, unready and missing (`groupPods`), their requests
//! (`calculatePodRequests`), and the utilization ratio (`GetResourceUtilizationRatio`)
//! or the raw average (`GetRawResourceReplicas`).

use crate::api::*;
use crate::apiserver::Store;
use crate::metrics::{pod_request, pod_usages};
use crate::time::{SimTime, SECOND};
use std::collections::BTreeMap;

/// `--horizontal-pod-autoscaler-tolerance`.
pub const TOLERANCE: f64 = 0.1;
/// `--horizontal-pod-autoscaler-cpu-initialization-period`.
const CPU_INITIALIZATION_PERIOD: SimTime = 300 * SECOND;
/// `--horizontal-pod-autoscaler-initial-readiness-delay`.
const INITIAL_READINESS_DELAY: SimTime = 30 * SECOND;

/// One metric's proposal: (replicas, metric name, status) or (condition reason, error).
pub(super) type Proposal = Result<(i64, String, MetricStatus), (HpaConditionReason, String)>;

/// The target's Pods as `groupPods` sorts them.
struct GroupedPods<'a> {
    /// Ready Pods with a reading.
    ready_count: i64,
    /// Pending Pods, and (for cpu) Pods not yet ready or just started.
    unready: Vec<&'a str>,
    /// Pods without a reading.
    missing: Vec<&'a str>,
    /// The ready Pods' readings.
    metrics: BTreeMap<&'a str, i64>,
}

/// `GetResourceReplicas` / `GetRawResourceReplicas`: the replica count Resource metric
/// `r` proposes for the Pods `selector` picks in `ns`, `current` replicas now.
pub(super) fn get_resource_replicas(
    store: &Store,
    config: &crate::config::Config,
    ns: &str,
    selector: &LabelSelector,
    current: i64,
    r: &ResourceMetricSource,
    now: SimTime,
) -> Proposal {
    let res = r.name.as_str();
    let fail = |e: String| {
        let what = if r.target.average_value.is_some() {
            "usage"
        } else {
            "utilization"
        };
        Err((
            HpaConditionReason::FailedGetResourceMetric,
            format!("failed to get {res} {what}: {e}"),
        ))
    };
    let pods: Vec<&Pod> = store
        .list::<Pod>()
        .filter(|p| p.metadata.namespace == ns && selector.matches(&p.metadata.labels))
        .collect();
    let usages = pod_usages(
        store,
        &config.load,
        &config.served,
        Some(ns),
        &|p| selector.matches(&p.metadata.labels),
        now,
    );
    if usages.is_empty() {
        return fail(format!("unable to get metrics for resource {res}: no metrics returned from resource metrics API"));
    }
    if pods.is_empty() {
        return fail("no pods returned by selector while calculating replica count".into());
    }
    let value = |name: &str| {
        usages.get(&(ns.to_string(), name.to_string())).map(|u| {
            if res == "cpu" {
                u.cpu_milli
            } else {
                u.memory_bytes * 1000
            }
        })
    };
    let grouped = group_pods(&pods, value, res, now);
    if grouped.metrics.is_empty() {
        return fail("did not receive metrics for targeted pods (pods might be unready)".into());
    }
    let requests = match calculate_pod_requests(&pods, res) {
        Ok(requests) => requests,
        Err(e) => return fail(e),
    };
    let name = if r.target.average_value.is_some() {
        format!("{res} resource")
    } else {
        format!("{res} resource utilization (percentage of request)")
    };
    if let Some(av) = &r.target.average_value {
        let (n, st) = get_raw_resource_replicas(res, av, current, &grouped);
        return Ok((n, name, st));
    }
    let target = r.target.average_utilization.unwrap_or(80).max(1);
    let (n, st) = get_utilization_replicas(res, target, current, &grouped, &requests);
    Ok((n, name, st))
}

/// Whether a usage ratio is within the tolerance of 1 (no change).
fn within(ratio: f64) -> bool {
    (1.0 - TOLERANCE..=1.0 + TOLERANCE).contains(&ratio)
}

/// `groupPods`: the Pods with a reading that count, the unready ones (Pending; for cpu
/// also those in their initialization period or not ready), the missing ones.
fn group_pods<'a>(
    pods: &[&'a Pod],
    value: impl Fn(&str) -> Option<i64>,
    res: &str,
    now: SimTime,
) -> GroupedPods<'a> {
    let (mut ready_count, mut unready, mut missing) = (0i64, Vec::new(), Vec::new());
    let mut metrics: BTreeMap<&str, i64> = BTreeMap::new();
    for p in pods {
        let name = p.metadata.name.as_str();
        if p.metadata.is_deleting() || p.status.phase == PodPhase::Failed {
            continue;
        }
        if p.status.phase == PodPhase::Pending {
            unready.push(name);
            continue;
        }
        let Some(v) = value(name) else {
            missing.push(name);
            continue;
        };
        if res == "cpu" {
            let cond = p.status.conditions.iter().find(|c| c.type_ == "Ready");
            let start = p
                .status
                .conditions
                .iter()
                .find(|c| c.type_ == "PodReadyToStartContainers")
                .map(|c| c.transition_ms);
            let is_unready = match (cond, start) {
                (Some(c), Some(start)) => {
                    if start + CPU_INITIALIZATION_PERIOD > now {
                        c.status == "False" || now < c.transition_ms + crate::metrics::METRIC_WINDOW
                    } else {
                        c.status == "False" && start + INITIAL_READINESS_DELAY > c.transition_ms
                    }
                }
                _ => true,
            };
            if is_unready {
                unready.push(name);
                continue;
            }
        }
        ready_count += 1;
        metrics.insert(name, v);
    }
    GroupedPods {
        ready_count,
        unready,
        missing,
        metrics,
    }
}

/// `calculatePodRequests`: each Pod's request of the resource (an error when a
/// container has none).
fn calculate_pod_requests<'a>(
    pods: &[&'a Pod],
    res: &str,
) -> Result<BTreeMap<&'a str, i64>, String> {
    let mut requests: BTreeMap<&str, i64> = BTreeMap::new();
    for p in pods {
        requests.insert(p.metadata.name.as_str(), pod_request(p, res)?);
    }
    Ok(requests)
}

/// `GetRawResourceReplicas`: the average against a quantity per Pod.
fn get_raw_resource_replicas(
    res: &str,
    av: &str,
    current: i64,
    g: &GroupedPods<'_>,
) -> (i64, MetricStatus) {
    let target = if res == "cpu" {
        crate::api::quantity::parse_cpu_milli(av).unwrap_or(1)
    } else {
        crate::api::quantity::parse_bytes(av).unwrap_or(1) * 1000
    }
    .max(1);
    let sum: i64 = g.metrics.values().sum();
    let avg = sum / g.metrics.len() as i64;
    let ratio = sum as f64 / (target as f64 * g.ready_count as f64);
    let n = if within(ratio) && g.unready.is_empty() && g.missing.is_empty() {
        current
    } else {
        (sum as f64 / target as f64).ceil() as i64
    };
    let shown = if res == "cpu" {
        format!("{avg}m")
    } else {
        crate::api::quantity::format_bytes(avg / 1000)
    };
    let st = MetricStatus {
        type_: "Resource".into(),
        resource: Some(ResourceMetricStatus {
            name: res.into(),
            current: MetricValueStatus {
                average_utilization: None,
                average_value: Some(shown),
            },
        }),
    };
    (n, st)
}

/// `GetResourceReplicas`' utilization half: the ready Pods' ratio to the target, then —
/// with Pods missing readings or unready ones on a scale-up — the ratio again with
/// those filled in (100% of the request on a scale-down, 0% on a scale-up), and no
/// change when the two disagree on the direction.
fn get_utilization_replicas(
    res: &str,
    target: i64,
    current: i64,
    g: &GroupedPods<'_>,
    requests: &BTreeMap<&str, i64>,
) -> (i64, MetricStatus) {
    let (ratio, utilization, raw) = resource_utilization_ratio(&g.metrics, requests, target);
    let scale_up_with_unready = !g.unready.is_empty() && ratio > 1.0;
    let n = if !scale_up_with_unready && g.missing.is_empty() {
        if within(ratio) {
            current
        } else {
            (ratio * g.ready_count as f64).ceil() as i64
        }
    } else {
        let mut m2 = g.metrics.clone();
        if !g.missing.is_empty() {
            for pod in &g.missing {
                let fill = if ratio < 1.0 {
                    requests.get(pod).copied().unwrap_or(0) * target.max(100) / 100
                } else {
                    0
                };
                if ratio != 1.0 {
                    m2.insert(pod, fill);
                }
            }
        }
        if scale_up_with_unready {
            for pod in &g.unready {
                m2.insert(pod, 0);
            }
        }
        let (new_ratio, _, _) = resource_utilization_ratio(&m2, requests, target);
        if within(new_ratio) || (ratio < 1.0 && new_ratio > 1.0) || (ratio > 1.0 && new_ratio < 1.0)
        {
            current
        } else {
            let n = (new_ratio * m2.len() as f64).ceil() as i64;
            if (new_ratio < 1.0 && n > current) || (new_ratio > 1.0 && n < current) {
                current
            } else {
                n
            }
        }
    };
    let avg = if res == "cpu" {
        format!("{raw}m")
    } else {
        crate::api::quantity::format_bytes(raw / 1000)
    };
    let st = MetricStatus {
        type_: "Resource".into(),
        resource: Some(ResourceMetricStatus {
            name: res.into(),
            current: MetricValueStatus {
                average_utilization: Some(utilization),
                average_value: Some(avg),
            },
        }),
    };
    (n, st)
}

/// `GetResourceUtilizationRatio`: the Pods' usage over their requests as a whole
/// percent, that over the target, and the raw average usage.
fn resource_utilization_ratio(
    metrics: &BTreeMap<&str, i64>,
    requests: &BTreeMap<&str, i64>,
    target: i64,
) -> (f64, i64, i64) {
    let (mut used, mut req, mut n) = (0i64, 0i64, 0i64);
    for (pod, v) in metrics {
        if let Some(rq) = requests.get(pod) {
            used += v;
            req += rq;
            n += 1;
        }
    }
    let util = if req > 0 { used * 100 / req } else { 0 };
    (
        util as f64 / target as f64,
        util,
        if n > 0 { used / n } else { 0 },
    )
}
