//! The desired count normalized: `normalizeDesiredReplicas` (the legacy scale-down
//! stabilization and scale-up limit) and, with `behavior`,
//! `normalizeDesiredReplicasWithBehaviors` with its stabilization windows and rate
//! policies, from `horizontal.go`, v1.33.

use super::{set_cond, HorizontalController, DOWNSCALE_STABILIZATION};
use crate::api::*;
use crate::apiserver::ObjKey;
use crate::time::{SimTime, SECOND};

impl HorizontalController {
    /// `normalizeDesiredReplicas` (no `behavior`): the 5-minute scale-down
    /// stabilization and the legacy scale-up limit.
    pub(super) fn normalize_desired_replicas(
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
    pub(super) fn normalize_with_behaviors(
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
