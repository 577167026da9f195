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

mod replica_calculator;

pub use replica_calculator::TOLERANCE;

use super::{Controller, Ctx, Reconcile, Retry};
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::writer;
use crate::client::{event_ref, Component, Request};
use crate::time::{rfc3339, SimTime, SECOND};
use replica_calculator::{get_resource_replicas, Proposal};
use std::collections::BTreeMap;

/// `--horizontal-pod-autoscaler-sync-period`.
pub const SYNC_PERIOD: SimTime = 15 * SECOND;
/// `--horizontal-pod-autoscaler-downscale-stabilization`.
pub const DOWNSCALE_STABILIZATION: SimTime = 300 * SECOND;

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
    const WATCHES: &'static [Kind] = &[Kind::HorizontalPodAutoscaler, Kind::Pod];
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
        let mut invalid: Option<(HpaConditionReason, String)> = None;
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
                        invalid = Some((reason, err));
                    }
                    invalid_count += 1;
                }
            }
        }
        let total = hpa.spec.metrics.len();
        let proposal = best.as_ref().map_or(0, |(n, _)| *n);
        if let Some((ireason, ierr)) = &invalid {
            if invalid_count >= total || proposal < current {
                set_cond(
                    h,
                    HpaConditionType::ScalingActive,
                    ConditionStatus::False,
                    *ireason,
                    format!("the HPA was unable to compute the replica count: {ierr}"),
                    now,
                );
                let err = format!("invalid metrics ({invalid_count} invalid out of {total}), first error is: {ierr}");
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
            set_cond(h, HpaConditionType::AbleToScale, ConditionStatus::True, HpaConditionReason::ScaleDownStabilized, "recent recommendations were higher than current one, applying the highest recent recommendation".into(), now);
        } else {
            set_cond(
                h,
                HpaConditionType::AbleToScale,
                ConditionStatus::True,
                HpaConditionReason::ReadyForNewScale,
                "recommended size matches current size".into(),
                now,
            );
        }
        let max = h.spec.max_replicas;
        let scale_up_limit = (2 * current).max(4);
        let (cap, cap_reason, cap_msg) = if max > scale_up_limit {
            (
                scale_up_limit,
                HpaConditionReason::ScaleUpLimit,
                "the desired replica count is increasing faster than the maximum scale rate",
            )
        } else {
            (
                max,
                HpaConditionReason::TooManyReplicas,
                "the desired replica count is more than the maximum replica count",
            )
        };
        let (out, reason, msg) = if stabilized < min {
            (
                min,
                HpaConditionReason::TooFewReplicas,
                "the desired replica count is less than the minimum replica count",
            )
        } else if stabilized > cap {
            (cap, cap_reason, cap_msg)
        } else {
            (
                stabilized,
                HpaConditionReason::DesiredWithinRange,
                "the desired count is within the acceptable range",
            )
        };
        let limited = if out == stabilized {
            ConditionStatus::False
        } else {
            ConditionStatus::True
        };
        set_cond(
            h,
            HpaConditionType::ScalingLimited,
            limited,
            reason,
            msg.into(),
            now,
        );
        out
    }

    /// `normalizeDesiredReplicasWithBehaviors`: the recommendation stabilized over the
    /// behavior's windows, then held to its rate policies and the bounds.
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
        let (stabilized, reason, msg) =
            self.stabilize_recommendation_with_behaviors(key, &up, &down, current, desired, now);
        if stabilized != desired {
            set_cond(
                h,
                HpaConditionType::AbleToScale,
                ConditionStatus::True,
                reason,
                msg.into(),
                now,
            );
        } else {
            set_cond(
                h,
                HpaConditionType::AbleToScale,
                ConditionStatus::True,
                HpaConditionReason::ReadyForNewScale,
                "recommended size matches current size".into(),
                now,
            );
        }
        let (out, reason, msg) = self.convert_desired_replicas_with_behavior_rate(
            key,
            &up,
            &down,
            current,
            stabilized,
            (min, h.spec.max_replicas),
            now,
        );
        let limited = if out == stabilized {
            ConditionStatus::False
        } else {
            ConditionStatus::True
        };
        set_cond(
            h,
            HpaConditionType::ScalingLimited,
            limited,
            reason,
            msg.into(),
            now,
        );
        out
    }

    /// `stabilizeRecommendationWithBehaviors`: the lowest recommendation of the scale-up
    /// window and the highest of the scale-down window bound the new one; it is
    /// remembered in place of one both windows have left. The reason and message say
    /// which way it was held.
    fn stabilize_recommendation_with_behaviors(
        &mut self,
        key: &ObjKey,
        up: &HpaScalingRules,
        down: &HpaScalingRules,
        current: i64,
        desired: i64,
        now: SimTime,
    ) -> (i64, HpaConditionReason, &'static str) {
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
        let (reason, msg) = if desired >= current {
            (HpaConditionReason::ScaleUpStabilized, "recent recommendations were lower than current one, applying the lowest recent recommendation")
        } else {
            (HpaConditionReason::ScaleDownStabilized, "recent recommendations were higher than current one, applying the highest recent recommendation")
        };
        (stabilized, reason, msg)
    }

    /// `convertDesiredReplicasWithBehaviorRate`: the stabilized count held within the
    /// scale-up or scale-down limit of the rate policies and within (min, max), with
    /// the ScalingLimited reason and message.
    #[allow(clippy::too_many_arguments)]
    fn convert_desired_replicas_with_behavior_rate(
        &self,
        key: &ObjKey,
        up: &HpaScalingRules,
        down: &HpaScalingRules,
        current: i64,
        stabilized: i64,
        (min, max): (i64, i64),
        now: SimTime,
    ) -> (i64, HpaConditionReason, &'static str) {
        let (ups, downs) = (
            self.scale_up_events.get(key),
            self.scale_down_events.get(key),
        );
        let within = (
            stabilized,
            HpaConditionReason::DesiredWithinRange,
            "the desired count is within the acceptable range",
        );
        if stabilized > current {
            let limit = scale_up_limit(current, ups, downs, up, now).max(current);
            let (cap, r, m) = if max > limit {
                (
                    limit,
                    HpaConditionReason::ScaleUpLimit,
                    "the desired replica count is increasing faster than the maximum scale rate",
                )
            } else {
                (
                    max,
                    HpaConditionReason::TooManyReplicas,
                    "the desired replica count is more than the maximum replica count",
                )
            };
            if stabilized > cap {
                (cap, r, m)
            } else {
                within
            }
        } else if stabilized < current {
            let limit = scale_down_limit(current, ups, downs, down, now).min(current);
            let (floor, r, m) = if min < limit {
                (
                    limit,
                    HpaConditionReason::ScaleDownLimit,
                    "the desired replica count is decreasing faster than the maximum scale rate",
                )
            } else {
                (
                    min,
                    HpaConditionReason::TooFewReplicas,
                    "the desired replica count is less than the minimum replica count",
                )
            };
            if stabilized < floor {
                (floor, r, m)
            } else {
                within
            }
        } else {
            within
        }
    }
}

/// An autoscaler's recent scale changes (when, by how many replicas).
type ScaleEvents = Vec<(SimTime, i64)>;

/// `getReplicasChangePerPeriod`: the replicas the events of the last `period` seconds
/// changed.
fn replicas_change_per_period(events: Option<&ScaleEvents>, period: i64, now: SimTime) -> i64 {
    events.map_or(0, |l| {
        l.iter()
            .filter(|(t, _)| *t > now.saturating_sub(period.max(0) as SimTime * SECOND))
            .map(|(_, c)| c)
            .sum()
    })
}

/// `calculateScaleUpLimitWithScalingRules`: each policy's limit from the count its
/// period began with (`Pods`: plus the value; `Percent`: times 1 + value%, rounded up),
/// the largest unless `selectPolicy: Min`; `Disabled`: no scale-up.
fn scale_up_limit(
    current: i64,
    ups: Option<&ScaleEvents>,
    downs: Option<&ScaleEvents>,
    rules: &HpaScalingRules,
    now: SimTime,
) -> i64 {
    let select = rules.select_policy.as_deref().unwrap_or("Max");
    if select == "Disabled" {
        return current;
    }
    let proposals = rules.policies.iter().map(|p| {
        let start = current - replicas_change_per_period(ups, p.period_seconds, now)
            + replicas_change_per_period(downs, p.period_seconds, now);
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
}

/// `calculateScaleDownLimitWithBehaviors`: each policy's limit from the count its
/// period began with (`Pods`: minus the value; `Percent`: times 1 − value%), the
/// smallest unless `selectPolicy: Min`; `Disabled`: no scale-down.
fn scale_down_limit(
    current: i64,
    ups: Option<&ScaleEvents>,
    downs: Option<&ScaleEvents>,
    rules: &HpaScalingRules,
    now: SimTime,
) -> i64 {
    let select = rules.select_policy.as_deref().unwrap_or("Max");
    if select == "Disabled" {
        return current;
    }
    let proposals = rules.policies.iter().map(|p| {
        let start = current - replicas_change_per_period(ups, p.period_seconds, now)
            + replicas_change_per_period(downs, p.period_seconds, now);
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
}
