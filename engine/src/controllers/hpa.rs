//! The horizontal Pod autoscaler: resizes a Deployment, StatefulSet or ReplicaSet to
//! keep its Pods' average resource use near a target.
//!
//! Upstream: `pkg/controller/podautoscaler/horizontal.go` (`reconcileAutoscaler`,
//! `computeReplicasForMetrics`, `normalizeDesiredReplicas`,
//! `normalizeDesiredReplicasWithBehaviors`, `stabilizeRecommendationWithBehaviors`,
//! `convertDesiredReplicasWithBehaviorRate`) and `replica_calculator.go`
//! (`GetResourceReplicas`, `groupPods`), with `metrics/utilization.go`, v1.33.
//!
//! Every HPA is reconciled every 15 s. For a Resource metric with a Utilization target
//! the desired count is `ceil(ready × utilization / target)`, where utilization is the
//! Ready Pods' usage over their requests as a whole percent, and nothing changes while
//! that ratio is within 10% of 1; Pods without readings count as 100% on a scale-down
//! and 0% on a scale-up, unready Pods as 0% on a scale-up. Without `behavior`, a
//! scale-down takes the highest recommendation of the last 5 minutes and a scale-up
//! is capped at max(2 × current, 4); with it, the stabilization windows and the rate
//! policies apply. The readings come from [`crate::metrics`].

use super::{Controller, Ctx, Reconcile, Retry};
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::writer;
use crate::client::{event_ref, Component, Request};
use crate::metrics::{pod_request, pod_usages};
use crate::time::{rfc3339, SimTime, SECOND};
use std::collections::BTreeMap;

/// `--horizontal-pod-autoscaler-sync-period`.
pub const SYNC_PERIOD: SimTime = 15 * SECOND;
/// `--horizontal-pod-autoscaler-downscale-stabilization`.
pub const DOWNSCALE_STABILIZATION: SimTime = 300 * SECOND;
/// `--horizontal-pod-autoscaler-tolerance`.
pub const TOLERANCE: f64 = 0.1;
/// `--horizontal-pod-autoscaler-cpu-initialization-period`.
const CPU_INITIALIZATION_PERIOD: SimTime = 300 * SECOND;
/// `--horizontal-pod-autoscaler-initial-readiness-delay`.
const INITIAL_READINESS_DELAY: SimTime = 30 * SECOND;

/// The controller: each HPA's recent recommendations and, with `behavior`, its
/// recent scale changes.
#[derive(Clone, Debug, Default)]
pub struct HorizontalController {
    recommendations: BTreeMap<ObjKey, Vec<(SimTime, i64)>>,
    scale_up_events: BTreeMap<ObjKey, Vec<(SimTime, i64)>>,
    scale_down_events: BTreeMap<ObjKey, Vec<(SimTime, i64)>>,
}

impl Controller for HorizontalController {
    type Key = ObjKey;
    type Timer = super::NoTimer;
    /// The 15 s resync is background: a quiet cluster with an HPA is quiescent.
    const RETRY: Retry = Retry {
        on_error: Retry::DEFAULT.on_error,
        requeue_is_background: true,
    };

    fn identity() -> Component {
        Component::named(writer::HPA_CONTROLLER)
    }

    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, super::NoTimer>) {
        if ch.kind == Kind::HorizontalPodAutoscaler {
            if let Some(o) = ch.new.as_deref().or(ch.old.as_deref()) {
                ctx.enqueue(ObjKey::of(o.meta()));
            }
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, super::NoTimer>) -> Reconcile {
        let Some(hpa) = ctx.store.get::<HorizontalPodAutoscaler>(key) else {
            self.recommendations.remove(key);
            self.scale_up_events.remove(key);
            self.scale_down_events.remove(key);
            return Reconcile::default();
        };
        let mut r = self.reconcile(ctx.store, ctx.config, hpa, ctx.now);
        r.requeue_after = Some(SYNC_PERIOD);
        r
    }
}

/// The scale subresource of the target: (spec.replicas, selector, qualified resource).
fn get_scale(
    store: &Store,
    ns: &str,
    target: &CrossVersionObjectReference,
) -> Result<(i64, LabelSelector, Object), String> {
    let key = ObjKey::new(ns, &target.name);
    let (kind, obj) = match target.kind.as_str() {
        "Deployment" => (Kind::Deployment, store.get_object(Kind::Deployment, &key)),
        "StatefulSet" => (Kind::StatefulSet, store.get_object(Kind::StatefulSet, &key)),
        "ReplicaSet" => (Kind::ReplicaSet, store.get_object(Kind::ReplicaSet, &key)),
        other => {
            return Err(format!(
                "unable to determine resource for scale target reference: no matches for kind \"{other}\" in group \"{}\"",
                target.api_version.split_once('/').map_or("", |(g, _)| g)
            ))
        }
    };
    let Some(obj) = obj else {
        return Err(format!(
            "{} \"{}\" not found",
            kind.qualified_resource(),
            target.name
        ));
    };
    let (replicas, selector) = match obj {
        Object::Deployment(d) => (d.spec.replicas, d.spec.selector.clone()),
        Object::StatefulSet(s) => (s.spec.replicas, s.spec.selector.clone()),
        Object::ReplicaSet(r) => (r.spec.replicas, r.spec.selector.clone()),
        _ => (0, LabelSelector::default()),
    };
    Ok((replicas, selector, obj.clone()))
}

fn set_cond(
    h: &mut HorizontalPodAutoscaler,
    type_: &str,
    status: &str,
    reason: &str,
    message: String,
    now: SimTime,
) {
    let conds = &mut h.status.conditions;
    match conds.iter_mut().find(|c| c.type_ == type_) {
        Some(c) => {
            if c.status != status {
                c.status = status.into();
                c.last_transition_time = Some(rfc3339(now));
                c.transition_ms = now;
            }
            c.reason = reason.into();
            c.message = message;
        }
        None => conds.push(Condition {
            type_: type_.into(),
            status: status.into(),
            last_transition_time: Some(rfc3339(now)),
            reason: reason.into(),
            message,
            transition_ms: now,
            ..Default::default()
        }),
    }
}

/// One metric's proposal: (replicas, metric name, status) or (condition reason, error).
type Proposal = Result<(i64, String, MetricStatus), (String, String)>;

impl HorizontalController {
    /// `reconcileAutoscaler`.
    pub fn reconcile(
        &mut self,
        store: &Store,
        config: &crate::config::Config,
        hpa: &HorizontalPodAutoscaler,
        now: SimTime,
    ) -> Reconcile {
        let mut out = Reconcile::default();
        let key = ObjKey::of(&hpa.metadata);
        let involved = event_ref(Kind::HorizontalPodAutoscaler, &hpa.metadata);
        let mut h = hpa.clone();
        let ns = &hpa.metadata.namespace;
        let event = |type_: EventType, reason: &str, message: String| Request::Event {
            involved: involved.clone(),
            type_,
            reason: reason.into(),
            message,
        };
        let (current, selector, target) = match get_scale(store, ns, &hpa.spec.scale_target_ref) {
            Ok(s) => s,
            Err(e) => {
                out.requests
                    .push(event(EventType::Warning, "FailedGetScale", e.clone()));
                set_cond(
                    &mut h,
                    "AbleToScale",
                    "False",
                    "FailedGetScale",
                    format!("the HPA controller was unable to get the target's current scale: {e}"),
                    now,
                );
                if h.status != hpa.status {
                    out.requests.push(Request::blind_update_status(h));
                }
                return out;
            }
        };
        set_cond(
            &mut h,
            "AbleToScale",
            "True",
            "SucceededGetScale",
            "the HPA controller was able to get the target's current scale".into(),
            now,
        );
        self.recommendations
            .entry(key.clone())
            .or_insert_with(|| vec![(now, current)]);
        let min = hpa.spec.min_replicas.unwrap_or(1);
        let max = hpa.spec.max_replicas;
        let mut desired = 0;
        let mut rescale = true;
        let mut reason = String::new();
        let mut statuses = h.status.current_metrics.clone();
        if current == 0 && min != 0 {
            rescale = false;
            set_cond(
                &mut h,
                "ScalingActive",
                "False",
                "ScalingDisabled",
                "scaling is disabled since the replica count of the target is zero".into(),
                now,
            );
        } else if current > max {
            reason = "Current number of replicas above Spec.MaxReplicas".into();
            desired = max;
        } else if current < min {
            reason = "Current number of replicas below Spec.MinReplicas".into();
            desired = min;
        } else {
            // computeReplicasForMetrics.
            let mut best: Option<(i64, String)> = None;
            let mut invalid: Option<(String, String)> = None;
            let mut invalid_count = 0;
            let mut new_statuses = Vec::new();
            for m in &hpa.spec.metrics {
                match self.compute_for_metric(store, config, ns, &selector, current, m, now) {
                    Ok((n, name, st)) => {
                        new_statuses.push(st);
                        if best.as_ref().is_none_or(|(b, _)| n > *b) {
                            best = Some((n, name));
                        }
                    }
                    Err((reason, err)) => {
                        new_statuses.push(MetricStatus::default());
                        out.requests
                            .push(event(EventType::Warning, &reason, err.clone()));
                        if invalid.is_none() {
                            invalid = Some((reason, err));
                        }
                        invalid_count += 1;
                    }
                }
            }
            statuses = new_statuses;
            let total = hpa.spec.metrics.len();
            let proposal = best.as_ref().map_or(0, |(n, _)| *n);
            if let Some((ireason, ierr)) = &invalid {
                if invalid_count >= total || proposal < current {
                    set_cond(
                        &mut h,
                        "ScalingActive",
                        "False",
                        ireason,
                        format!("the HPA was unable to compute the replica count: {ierr}"),
                        now,
                    );
                    let err = format!("invalid metrics ({invalid_count} invalid out of {total}), first error is: {ierr}");
                    out.requests.push(event(
                        EventType::Warning,
                        "FailedComputeMetricsReplicas",
                        err,
                    ));
                    h.status.current_replicas = current;
                    h.status.current_metrics = statuses;
                    if h.status != hpa.status {
                        out.requests.push(Request::blind_update_status(h));
                    }
                    return out;
                }
            }
            let (proposal, metric) = best.unwrap_or((0, String::new()));
            set_cond(
                &mut h,
                "ScalingActive",
                "True",
                "ValidMetricFound",
                format!("the HPA was able to successfully calculate a replica count from {metric}"),
                now,
            );
            desired = proposal;
            if desired > current {
                reason = format!("{metric} above target");
            }
            if desired < current {
                reason = "All metrics below target".into();
            }
            desired = match &hpa.spec.behavior {
                None => self.normalize_desired_replicas(&mut h, &key, current, desired, min, now),
                Some(b) => {
                    self.normalize_with_behaviors(&mut h, &key, b, current, desired, min, now)
                }
            };
            rescale = desired != current;
        }
        if rescale {
            let mut t = target;
            match &mut t {
                Object::Deployment(d) => d.spec.replicas = desired,
                Object::StatefulSet(s) => s.spec.replicas = desired,
                Object::ReplicaSet(r) => r.spec.replicas = desired,
                _ => {}
            }
            out.requests.push(Request::blind_update(t));
            set_cond(
                &mut h,
                "AbleToScale",
                "True",
                "SucceededRescale",
                format!("the HPA controller was able to update the target scale to {desired}"),
                now,
            );
            out.requests.push(event(
                EventType::Normal,
                "SuccessfulRescale",
                format!("New size: {desired}; reason: {reason}"),
            ));
            if hpa.spec.behavior.is_some() {
                let (events, change) = if desired > current {
                    (&mut self.scale_up_events, desired - current)
                } else {
                    (&mut self.scale_down_events, current - desired)
                };
                let list = events.entry(key.clone()).or_default();
                list.retain(|(t, _)| now.saturating_sub(*t) <= 1800 * SECOND);
                list.push((now, change));
            }
            h.status.last_scale_time = Some(rfc3339(now));
        } else {
            desired = current;
        }
        h.status.current_replicas = current;
        h.status.desired_replicas = desired;
        h.status.current_metrics = statuses;
        if h.status != hpa.status {
            out.requests.push(Request::blind_update_status(h));
        }
        out
    }

    /// `computeReplicasForMetric` for a Resource metric (other sources are not served
    /// by this cluster's metrics pipeline).
    #[allow(clippy::too_many_arguments)]
    fn compute_for_metric(
        &self,
        store: &Store,
        config: &crate::config::Config,
        ns: &str,
        selector: &LabelSelector,
        current: i64,
        m: &MetricSpec,
        now: SimTime,
    ) -> Proposal {
        let Some(r) = m.resource.as_ref().filter(|_| m.type_ == "Resource") else {
            return Err((
                "InvalidMetricSourceType".into(),
                format!(
                    "invalid metric source type \"{}\"; kubeplay serves Resource metrics only",
                    m.type_
                ),
            ));
        };
        let res = r.name.as_str();
        let fail = |e: String| {
            let what = if r.target.average_value.is_some() {
                "usage"
            } else {
                "utilization"
            };
            Err((
                "FailedGetResourceMetric".to_string(),
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
        // groupPods.
        let (mut ready_count, mut unready, mut missing) = (0i64, Vec::new(), Vec::new());
        let mut metrics: BTreeMap<&str, i64> = BTreeMap::new();
        for p in &pods {
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
                            c.status == "False"
                                || now < c.transition_ms + crate::metrics::METRIC_WINDOW
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
        if metrics.is_empty() {
            return fail(
                "did not receive metrics for targeted pods (pods might be unready)".into(),
            );
        }
        let mut requests: BTreeMap<&str, i64> = BTreeMap::new();
        for p in &pods {
            match pod_request(p, res) {
                Ok(v) => {
                    requests.insert(p.metadata.name.as_str(), v);
                }
                Err(e) => return fail(e),
            }
        }
        let name = if r.target.average_value.is_some() {
            format!("{res} resource")
        } else {
            format!("{res} resource utilization (percentage of request)")
        };
        let within = |ratio: f64| (1.0 - TOLERANCE..=1.0 + TOLERANCE).contains(&ratio);
        if let Some(av) = &r.target.average_value {
            // GetRawResourceReplicas: the average against a quantity per Pod.
            let target = if res == "cpu" {
                crate::api::quantity::parse_cpu_milli(av).unwrap_or(1)
            } else {
                crate::api::quantity::parse_bytes(av).unwrap_or(1) * 1000
            }
            .max(1);
            let sum: i64 = metrics.values().sum();
            let avg = sum / metrics.len() as i64;
            let ratio = sum as f64 / (target as f64 * ready_count as f64);
            let n = if within(ratio) && unready.is_empty() && missing.is_empty() {
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
            return Ok((n, name, st));
        }
        let target = r.target.average_utilization.unwrap_or(80).max(1);
        // GetResourceUtilizationRatio: a whole percent, then over the target.
        let ratio_of = |m: &BTreeMap<&str, i64>| -> (f64, i64, i64) {
            let (mut used, mut req, mut n) = (0i64, 0i64, 0i64);
            for (pod, v) in m {
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
        };
        let (ratio, utilization, raw) = ratio_of(&metrics);
        let scale_up_with_unready = !unready.is_empty() && ratio > 1.0;
        let n = if !scale_up_with_unready && missing.is_empty() {
            if within(ratio) {
                current
            } else {
                (ratio * ready_count as f64).ceil() as i64
            }
        } else {
            let mut m2 = metrics.clone();
            if !missing.is_empty() {
                for pod in &missing {
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
                for pod in &unready {
                    m2.insert(pod, 0);
                }
            }
            let (new_ratio, _, _) = ratio_of(&m2);
            if within(new_ratio)
                || (ratio < 1.0 && new_ratio > 1.0)
                || (ratio > 1.0 && new_ratio < 1.0)
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
        Ok((n, name, st))
    }

    /// `normalizeDesiredReplicas` (no `behavior`): the 5-minute scale-down
    /// stabilization and the legacy scale-up limit.
    fn normalize_desired_replicas(
        &mut self,
        h: &mut HorizontalPodAutoscaler,
        key: &ObjKey,
        current: i64,
        desired: i64,
        min: i64,
        now: SimTime,
    ) -> i64 {
        // stabilizeRecommendation: the highest of the window, this one recorded.
        let recs = self.recommendations.entry(key.clone()).or_default();
        let cutoff = now.saturating_sub(DOWNSCALE_STABILIZATION);
        let mut stabilized = desired;
        let mut old = None;
        for (i, (t, r)) in recs.iter().enumerate() {
            if *t > cutoff {
                stabilized = stabilized.max(*r);
            } else {
                old = Some(i);
            }
        }
        match old {
            Some(i) => recs[i] = (now, desired),
            None => recs.push((now, desired)),
        }
        if stabilized != desired {
            set_cond(h, "AbleToScale", "True", "ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation".into(), now);
        } else {
            set_cond(
                h,
                "AbleToScale",
                "True",
                "ReadyForNewScale",
                "recommended size matches current size".into(),
                now,
            );
        }
        let max = h.spec.max_replicas;
        let scale_up_limit = (2 * current).max(4);
        let (cap, cap_reason, cap_msg) = if max > scale_up_limit {
            (
                scale_up_limit,
                "ScaleUpLimit",
                "the desired replica count is increasing faster than the maximum scale rate",
            )
        } else {
            (
                max,
                "TooManyReplicas",
                "the desired replica count is more than the maximum replica count",
            )
        };
        let (out, reason, msg) = if stabilized < min {
            (
                min,
                "TooFewReplicas",
                "the desired replica count is less than the minimum replica count",
            )
        } else if stabilized > cap {
            (cap, cap_reason, cap_msg)
        } else {
            (
                stabilized,
                "DesiredWithinRange",
                "the desired count is within the acceptable range",
            )
        };
        let limited = if out == stabilized { "False" } else { "True" };
        set_cond(h, "ScalingLimited", limited, reason, msg.into(), now);
        out
    }

    /// `normalizeDesiredReplicasWithBehaviors`.
    #[allow(clippy::too_many_arguments)]
    fn normalize_with_behaviors(
        &mut self,
        h: &mut HorizontalPodAutoscaler,
        key: &ObjKey,
        b: &HorizontalPodAutoscalerBehavior,
        current: i64,
        desired: i64,
        min: i64,
        now: SimTime,
    ) -> i64 {
        let up = b.scale_up.clone().unwrap_or_default();
        let down = b.scale_down.clone().unwrap_or_default();
        let up_window = up.stabilization_window_seconds.unwrap_or(0).max(0) as SimTime * SECOND;
        let down_window = down
            .stabilization_window_seconds
            .map_or(DOWNSCALE_STABILIZATION, |s| s.max(0) as SimTime * SECOND);
        let recs = self.recommendations.entry(key.clone()).or_default();
        let (mut up_rec, mut down_rec) = (desired, desired);
        let mut old = None;
        for (i, (t, r)) in recs.iter().enumerate() {
            if *t > now.saturating_sub(up_window) {
                up_rec = up_rec.min(*r);
            }
            if *t > now.saturating_sub(down_window) {
                down_rec = down_rec.max(*r);
            }
            if *t <= now.saturating_sub(up_window) && *t <= now.saturating_sub(down_window) {
                old = Some(i);
            }
        }
        let stabilized = current.max(up_rec).min(down_rec);
        match old {
            Some(i) => recs[i] = (now, desired),
            None => recs.push((now, desired)),
        }
        if stabilized != desired {
            let (reason, msg) = if desired >= current {
                ("ScaleUpStabilized", "recent recommendations were lower than current one, applying the lowest recent recommendation")
            } else {
                ("ScaleDownStabilized", "recent recommendations were higher than current one, applying the highest recent recommendation")
            };
            set_cond(h, "AbleToScale", "True", reason, msg.into(), now);
        } else {
            set_cond(
                h,
                "AbleToScale",
                "True",
                "ReadyForNewScale",
                "recommended size matches current size".into(),
                now,
            );
        }
        let changed = |events: &BTreeMap<ObjKey, Vec<(SimTime, i64)>>, period: i64| -> i64 {
            events.get(key).map_or(0, |l| {
                l.iter()
                    .filter(|(t, _)| *t > now.saturating_sub(period.max(0) as SimTime * SECOND))
                    .map(|(_, c)| c)
                    .sum()
            })
        };
        let max = h.spec.max_replicas;
        let (out, reason, msg) = if stabilized > current {
            let select = up.select_policy.as_deref().unwrap_or("Max");
            let mut limit = if select == "Disabled" {
                current
            } else {
                let proposals = up.policies.iter().map(|p| {
                    let start = current - changed(&self.scale_up_events, p.period_seconds)
                        + changed(&self.scale_down_events, p.period_seconds);
                    if p.type_ == "Pods" {
                        start + p.value
                    } else {
                        (start as f64 * (1.0 + p.value as f64 / 100.0)).ceil() as i64
                    }
                });
                if select == "Min" {
                    proposals.min()
                } else {
                    proposals.max()
                }
                .unwrap_or(current)
            };
            limit = limit.max(current);
            let (cap, r, m) = if max > limit {
                (
                    limit,
                    "ScaleUpLimit",
                    "the desired replica count is increasing faster than the maximum scale rate",
                )
            } else {
                (
                    max,
                    "TooManyReplicas",
                    "the desired replica count is more than the maximum replica count",
                )
            };
            if stabilized > cap {
                (cap, r, m)
            } else {
                (
                    stabilized,
                    "DesiredWithinRange",
                    "the desired count is within the acceptable range",
                )
            }
        } else if stabilized < current {
            let select = down.select_policy.as_deref().unwrap_or("Max");
            let mut limit = if select == "Disabled" {
                current
            } else {
                let proposals = down.policies.iter().map(|p| {
                    let start = current - changed(&self.scale_up_events, p.period_seconds)
                        + changed(&self.scale_down_events, p.period_seconds);
                    if p.type_ == "Pods" {
                        start - p.value
                    } else {
                        (start as f64 * (1.0 - p.value as f64 / 100.0)) as i64
                    }
                });
                if select == "Min" {
                    proposals.max()
                } else {
                    proposals.min()
                }
                .unwrap_or(current)
            };
            limit = limit.min(current);
            let (floor, r, m) = if min < limit {
                (
                    limit,
                    "ScaleDownLimit",
                    "the desired replica count is decreasing faster than the maximum scale rate",
                )
            } else {
                (
                    min,
                    "TooFewReplicas",
                    "the desired replica count is less than the minimum replica count",
                )
            };
            if stabilized < floor {
                (floor, r, m)
            } else {
                (
                    stabilized,
                    "DesiredWithinRange",
                    "the desired count is within the acceptable range",
                )
            }
        } else {
            (
                stabilized,
                "DesiredWithinRange",
                "the desired count is within the acceptable range",
            )
        };
        let limited = if out == stabilized { "False" } else { "True" };
        set_cond(h, "ScalingLimited", limited, reason, msg.into(), now);
        out
    }
}
