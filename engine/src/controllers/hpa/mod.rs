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
//!
//! This file follows `horizontal.go`; the replica calculator is [`replica_calculator`].

mod normalize;
mod replica_calculator;

pub use replica_calculator::TOLERANCE;

use super::{Controller, Ctx, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::writer;
use crate::client::{event_ref, Component, Request};
use crate::time::{rfc3339, SimTime, SECOND};
use replica_calculator::{get_resource_replicas, Proposal};
use std::collections::BTreeMap;

/// The HPA controller's timer: its work queue's rate limiter handing a key back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HpaTimer {
    /// `AddRateLimited` came due at this time: the HPA is reconciled now. The flag
    /// says whether the wait is foreground work (a new or edited HPA), fixed when the
    /// timer is set: `sim settle` counts foreground timers as they are queued, so a
    /// timer's class must never change while it waits.
    Due(ObjKey, SimTime, bool),
}

/// `--horizontal-pod-autoscaler-sync-period`.
pub const SYNC_PERIOD: SimTime = 15 * SECOND;
/// `--horizontal-pod-autoscaler-downscale-stabilization`.
pub const DOWNSCALE_STABILIZATION: SimTime = 300 * SECOND;

/// The controller: each HPA's recent recommendations and, with `behavior`, its
/// recent scale changes.
#[derive(Clone, Debug, Default)]
pub struct HorizontalController {
    /// Keys waiting in the rate-limited queue, and whether the wait was started by a
    /// change of the HPA itself (foreground) rather than by the periodic resync.
    waiting: BTreeMap<ObjKey, (SimTime, bool)>,
    recommendations: BTreeMap<ObjKey, Vec<(SimTime, i64)>>,
    scale_up_events: BTreeMap<ObjKey, Vec<(SimTime, i64)>>,
    scale_down_events: BTreeMap<ObjKey, Vec<(SimTime, i64)>>,
}

impl Controller for HorizontalController {
    type Key = ObjKey;
    type Timer = HpaTimer;
    const WATCHES: &'static [Kind] = &[Kind::HorizontalPodAutoscaler, Kind::Pod];

    fn identity() -> Component {
        Component::named(writer::HPA_CONTROLLER)
    }

    /// `addHPA` and `updateHPA` call `enqueueHPA`; `deleteHPA` reconciles at once,
    /// which forgets the HPA's recommendations.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, HpaTimer>) {
        if ch.kind != Kind::HorizontalPodAutoscaler {
            return;
        }
        match (ch.old.as_deref(), ch.new.as_deref()) {
            (_, None) => {
                if let Some(o) = ch.old.as_deref() {
                    self.waiting.remove(&ObjKey::of(o.meta()));
                    ctx.enqueue(ObjKey::of(o.meta()));
                }
            }
            (old, Some(new)) => {
                // Its own status writes do not make the next sync foreground work.
                let spec_changed = old.is_none_or(|o| o.meta().generation != new.meta().generation);
                self.enqueue_hpa(ObjKey::of(new.meta()), spec_changed, ctx);
            }
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, HpaTimer>) -> Reconcile {
        let Some(hpa) = ctx.store.get::<HorizontalPodAutoscaler>(key) else {
            self.recommendations.remove(key);
            self.scale_up_events.remove(key);
            self.scale_down_events.remove(key);
            return Reconcile::default();
        };
        let r = self.reconcile(ctx.store, ctx.config, hpa, ctx.now);
        // `processNextWorkItem` adds the key back after each reconcile, in case the
        // informer's resync raced it.
        self.enqueue_hpa(key.clone(), false, ctx);
        r
    }

    fn on_timer(&mut self, timer: HpaTimer, ctx: &mut Ctx<'_, ObjKey, HpaTimer>) -> Vec<Request> {
        let HpaTimer::Due(key, at, _) = timer;
        // A wait the HPA's deletion cancelled is not the wait of a new HPA of its name
        // (and of two timers for one wait, the first reconciles).
        if self.waiting.get(&key).is_some_and(|(due, _)| *due == at) {
            self.waiting.remove(&key);
            ctx.enqueue(key);
        }
        Vec::new()
    }

    /// The periodic resync finds nothing to do in a quiet cluster; a wait started by
    /// a new or edited HPA is work to come.
    fn is_background(&self, timer: &HpaTimer, _: &dyn Fn(&str) -> bool) -> bool {
        let HpaTimer::Due(_, _, foreground) = timer;
        !foreground
    }
}

impl HorizontalController {
    /// `enqueueHPA`: `AddRateLimited` with upstream's HPA rate limiter, a fixed
    /// interval of the sync period. A key already waiting keeps its earlier time, so
    /// however often an HPA changes it is reconciled once per period, the first time
    /// one period after it was created.
    fn enqueue_hpa(&mut self, key: ObjKey, foreground: bool, ctx: &mut Ctx<'_, ObjKey, HpaTimer>) {
        match self.waiting.get_mut(&key) {
            // A background wait that becomes foreground work: a second, foreground
            // timer for the same moment (the first to fire reconciles).
            Some((at, f)) => {
                if foreground && !*f {
                    *f = true;
                    ctx.after(*at, HpaTimer::Due(key, *at, true));
                }
            }
            None => {
                let at = ctx.now + SYNC_PERIOD;
                self.waiting.insert(key.clone(), (at, foreground));
                ctx.after(at, HpaTimer::Due(key, at, foreground));
            }
        }
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

/// The target's scale could not be read: the `FailedGetScale` Event, and AbleToScale
/// False.
fn failed_get_scale(
    hpa: &HorizontalPodAutoscaler,
    mut h: HorizontalPodAutoscaler,
    e: String,
    now: SimTime,
) -> Reconcile {
    let mut out = Reconcile::default();
    out.requests.push(Request::Event {
        involved: event_ref(Kind::HorizontalPodAutoscaler, &hpa.metadata),
        type_: EventType::Warning,
        reason: "FailedGetScale".into(),
        message: e.clone(),
    });
    set_cond(
        &mut h,
        HpaConditionType::AbleToScale,
        ConditionStatus::False,
        HpaConditionReason::FailedGetScale,
        format!("the HPA controller was unable to get the target's current scale: {e}"),
        now,
    );
    update_status_if_needed(hpa, h, &mut out);
    out
}

/// The target with its scale set to `desired` (the scale subresource's update).
fn scale_update(mut target: Object, desired: i64) -> Request {
    match &mut target {
        Object::Deployment(d) => d.spec.replicas = desired,
        Object::StatefulSet(s) => s.spec.replicas = desired,
        Object::ReplicaSet(r) => r.spec.replicas = desired,
        _ => {}
    }
    Request::blind_update(target)
}

/// `updateStatusIfNeeded`: the status written when it changed.
fn update_status_if_needed(
    hpa: &HorizontalPodAutoscaler,
    h: HorizontalPodAutoscaler,
    out: &mut Reconcile,
) {
    if h.status != hpa.status {
        out.requests.push(Request::blind_update_status(h));
    }
}

/// `setCondition`: a condition's status, reason and message (its transition time when
/// the status changes).
fn set_cond(
    h: &mut HorizontalPodAutoscaler,
    type_: HpaConditionType,
    status: ConditionStatus,
    reason: HpaConditionReason,
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
        let mut h = hpa.clone();
        let ns = &hpa.metadata.namespace;
        let (current, selector, target) = match get_scale(store, ns, &hpa.spec.scale_target_ref) {
            Ok(s) => s,
            Err(e) => return failed_get_scale(hpa, h, e, now),
        };
        set_cond(
            &mut h,
            HpaConditionType::AbleToScale,
            ConditionStatus::True,
            HpaConditionReason::SucceededGetScale,
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
                HpaConditionType::ScalingActive,
                ConditionStatus::False,
                HpaConditionReason::ScalingDisabled,
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
            let (new_statuses, computed) = self.compute_replicas_for_metrics(
                store, config, hpa, &mut h, &selector, current, now, &mut out,
            );
            statuses = new_statuses;
            let (proposal, metric) = match computed {
                Ok(p) => p,
                Err(err) => {
                    out.requests.push(Request::Event {
                        involved: event_ref(Kind::HorizontalPodAutoscaler, &hpa.metadata),
                        type_: EventType::Warning,
                        reason: "FailedComputeMetricsReplicas".into(),
                        message: err,
                    });
                    h.status.current_replicas = current;
                    h.status.current_metrics = statuses;
                    update_status_if_needed(hpa, h, &mut out);
                    return out;
                }
            };
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
            self.rescale(
                hpa, &mut h, target, current, desired, &reason, now, &mut out,
            );
        } else {
            desired = current;
        }
        h.status.current_replicas = current;
        h.status.desired_replicas = desired;
        h.status.current_metrics = statuses;
        update_status_if_needed(hpa, h, &mut out);
        out
    }

    /// The rescale: the target's scale updated, AbleToScale `SucceededRescale`, the
    /// `SuccessfulRescale` Event, the change remembered for the behavior's rate
    /// policies (`storeScaleEvent`), and `lastScaleTime`.
    #[allow(clippy::too_many_arguments)]
    fn rescale(
        &mut self,
        hpa: &HorizontalPodAutoscaler,
        h: &mut HorizontalPodAutoscaler,
        target: Object,
        current: i64,
        desired: i64,
        reason: &str,
        now: SimTime,
        out: &mut Reconcile,
    ) {
        out.requests.push(scale_update(target, desired));
        set_cond(
            h,
            HpaConditionType::AbleToScale,
            ConditionStatus::True,
            HpaConditionReason::SucceededRescale,
            format!("the HPA controller was able to update the target scale to {desired}"),
            now,
        );
        out.requests.push(Request::Event {
            involved: event_ref(Kind::HorizontalPodAutoscaler, &hpa.metadata),
            type_: EventType::Normal,
            reason: "SuccessfulRescale".into(),
            message: format!("New size: {desired}; reason: {reason}"),
        });
        if hpa.spec.behavior.is_some() {
            self.store_scale_event(&ObjKey::of(&hpa.metadata), current, desired, now);
        }
        h.status.last_scale_time = Some(rfc3339(now));
    }

    /// `computeReplicasForMetrics`: each metric's proposal (the largest wins) and its
    /// status; ScalingActive says whether a count could be computed. Err: the message
    /// of the `FailedComputeMetricsReplicas` Event, when every metric was invalid or
    /// an invalid one might have asked for fewer replicas.
    #[allow(clippy::too_many_arguments)]
    fn compute_replicas_for_metrics(
        &self,
        store: &Store,
        config: &crate::config::Config,
        hpa: &HorizontalPodAutoscaler,
        h: &mut HorizontalPodAutoscaler,
        selector: &LabelSelector,
        current: i64,
        now: SimTime,
        out: &mut Reconcile,
    ) -> (Vec<MetricStatus>, Result<(i64, String), String>) {
        let ns = &hpa.metadata.namespace;
        let mut best: Option<(i64, String)> = None;
        let mut invalid: Option<(HpaConditionReason, String, String)> = None;
        let mut invalid_count = 0;
        let mut new_statuses = Vec::new();
        for m in &hpa.spec.metrics {
            match self.compute_for_metric(store, config, ns, selector, current, m, now) {
                Ok((n, name, st)) => {
                    new_statuses.push(st);
                    if best.as_ref().is_none_or(|(b, _)| n > *b) {
                        best = Some((n, name));
                    }
                }
                Err((reason, err)) => {
                    new_statuses.push(MetricStatus::default());
                    out.requests.push(Request::Event {
                        involved: event_ref(Kind::HorizontalPodAutoscaler, &hpa.metadata),
                        type_: EventType::Warning,
                        reason: reason.into(),
                        message: err.clone(),
                    });
                    if invalid.is_none() {
                        // `computeReplicasForMetric` wraps a Resource metric's error once
                        // more; the condition keeps the inner text, the returned error
                        // (and so FailedComputeMetricsReplicas) the wrapped one.
                        let wrapped = match m.resource.as_ref().filter(|_| m.type_ == "Resource") {
                            Some(r) => {
                                format!("failed to get {} resource metric value: {err}", r.name)
                            }
                            None => err.clone(),
                        };
                        invalid = Some((reason, err, wrapped));
                    }
                    invalid_count += 1;
                }
            }
        }
        let total = hpa.spec.metrics.len();
        let proposal = best.as_ref().map_or(0, |(n, _)| *n);
        if let Some((ireason, ierr, wrapped)) = &invalid {
            if invalid_count >= total || proposal < current {
                set_cond(
                    h,
                    HpaConditionType::ScalingActive,
                    ConditionStatus::False,
                    *ireason,
                    format!("the HPA was unable to compute the replica count: {ierr}"),
                    now,
                );
                let err = format!("invalid metrics ({invalid_count} invalid out of {total}), first error is: {wrapped}");
                return (new_statuses, Err(err));
            }
        }
        let (proposal, metric) = best.unwrap_or((0, String::new()));
        set_cond(
            h,
            HpaConditionType::ScalingActive,
            ConditionStatus::True,
            HpaConditionReason::ValidMetricFound,
            format!("the HPA was able to successfully calculate a replica count from {metric}"),
            now,
        );
        (new_statuses, Ok((proposal, metric)))
    }

    /// `storeScaleEvent`: a scale change remembered for the behavior's rate policies
    /// (the last 30 minutes).
    fn store_scale_event(&mut self, key: &ObjKey, current: i64, desired: i64, now: SimTime) {
        let (events, change) = if desired > current {
            (&mut self.scale_up_events, desired - current)
        } else {
            (&mut self.scale_down_events, current - desired)
        };
        let list = events.entry(key.clone()).or_default();
        list.retain(|(t, _)| now.saturating_sub(*t) <= 1800 * SECOND);
        list.push((now, change));
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
                HpaConditionReason::InvalidMetricSourceType,
                format!(
                    "invalid metric source type \"{}\"; kubeplay serves Resource metrics only",
                    m.type_
                ),
            ));
        };
        get_resource_replicas(store, config, ns, selector, current, r, now)
    }
}
