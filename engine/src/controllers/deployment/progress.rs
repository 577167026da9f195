//! `progress.go`: the rollout's status and progress — the status itself
//! (`calculateStatus`, from `sync.go`), the Progressing condition (complete,
//! progressing, timed out against `progressDeadlineSeconds`), the ReplicaFailure
//! condition, and the requeue that notices a stuck rollout at its deadline.
//!
//! Upstream: `pkg/controller/deployment/progress.go` (`syncRolloutStatus`,
//! `getReplicaFailures`, `requeueStuckDeployment`) with `util/deployment_util.go`
//! (`DeploymentComplete`, `DeploymentProgressing`, `DeploymentTimedOut`).

use super::util::*;
use super::SyncCtx;
use crate::api::*;
use crate::client::Request;
use crate::time::SimTime;

/// `calculateStatus`, including the Available condition.
pub fn calculate_status(
    d: &Deployment,
    rss: &[ReplicaSet],
    new: Option<usize>,
    now: u64,
) -> DeploymentStatus {
    let available = available_replica_count(rss);
    let total = replica_count(rss);
    let mut status = DeploymentStatus {
        observed_generation: d.metadata.generation,
        replicas: actual_replica_count(rss),
        updated_replicas: new.map(|i| rss[i].status.replicas).unwrap_or(0),
        ready_replicas: ready_replica_count(rss),
        available_replicas: available,
        unavailable_replicas: (total - available).max(0),
        conditions: d.status.conditions.clone(),
        collision_count: d.status.collision_count,
    };
    let c = if available >= d.spec.replicas - max_unavailable(d) {
        new_condition(
            DeploymentConditionType::Available,
            ConditionStatus::True,
            DeploymentConditionReason::MinimumReplicasAvailable,
            "Deployment has minimum availability.".into(),
            now,
        )
    } else {
        new_condition(
            DeploymentConditionType::Available,
            ConditionStatus::False,
            DeploymentConditionReason::MinimumReplicasUnavailable,
            "Deployment does not have minimum availability.".into(),
            now,
        )
    };
    set_deployment_condition(&mut status.conditions, c);
    status
}

/// `syncDeploymentStatus` (sync.go): the status alone ([`calculate_status`]), written
/// if it changed — what a scaling event, a paused Deployment and a deleting one
/// report. No Progressing update and no deadline requeue: a paused rollout cannot
/// time out, so a requeue there would come back every second for ever.
pub fn sync_deployment_status(ctx: &mut SyncCtx, rss: &[ReplicaSet], new: Option<usize>) {
    let status = calculate_status(&ctx.d, rss, new, ctx.now);
    if status != ctx.d.status {
        ctx.d.status = status;
        ctx.requests
            .push(Request::UpdateStatus(Object::Deployment(Box::new(
                ctx.d.clone(),
            ))));
    }
}

/// `syncRolloutStatus`: the status ([`calculate_status`]), the Progressing condition
/// (complete, progressing, or timed out), the ReplicaFailure condition, and a requeue
/// for the moment a stuck rollout would pass its deadline.
pub fn sync_rollout_status(ctx: &mut SyncCtx, rss: &[ReplicaSet], new: Option<usize>) {
    let now = ctx.now;
    let mut status = calculate_status(&ctx.d, rss, new, now);
    let current = get_condition(
        &ctx.d.status.conditions,
        DeploymentConditionType::Progressing,
    )
    .cloned();
    let complete_before = status.replicas == status.updated_replicas
        && current
            .as_ref()
            .is_some_and(|c| c.reason == DeploymentConditionReason::NewReplicaSetAvailable);
    if has_progress_deadline(&ctx.d) && !complete_before && !ctx.d.spec.paused {
        let rs_name = new.map(|i| rss[i].metadata.name.clone());
        let d_name = ctx.d.metadata.name.clone();
        if deployment_complete(&ctx.d, &status) {
            let msg = match &rs_name {
                Some(n) => format!("ReplicaSet \"{n}\" has successfully progressed."),
                None => format!("Deployment \"{d_name}\" has successfully progressed."),
            };
            set_deployment_condition(
                &mut status.conditions,
                new_condition(
                    DeploymentConditionType::Progressing,
                    ConditionStatus::True,
                    DeploymentConditionReason::NewReplicaSetAvailable,
                    msg,
                    now,
                ),
            );
        } else if deployment_progressing(&ctx.d, &status) {
            let msg = match &rs_name {
                Some(n) => format!("ReplicaSet \"{n}\" is progressing."),
                None => format!("Deployment \"{d_name}\" is progressing."),
            };
            // Progress refreshes lastUpdateTime even with the same reason (upstream
            // special-cases Progressing); the transition time stays while True.
            let mut c = new_condition(
                DeploymentConditionType::Progressing,
                ConditionStatus::True,
                DeploymentConditionReason::ReplicaSetUpdated,
                msg,
                now,
            );
            if let Some(cur) = current.as_ref() {
                if cur.status == ConditionStatus::True {
                    c.last_transition_time = cur.last_transition_time.clone();
                    c.transition_ms = cur.transition_ms;
                }
                status
                    .conditions
                    .retain(|x| x.type_ != DeploymentConditionType::Progressing);
            }
            set_deployment_condition(&mut status.conditions, c);
        } else if deployment_timed_out(&ctx.d, &status, now) {
            let msg = match &rs_name {
                Some(n) => format!("ReplicaSet \"{n}\" has timed out progressing."),
                None => format!("Deployment \"{d_name}\" has timed out progressing."),
            };
            set_deployment_condition(
                &mut status.conditions,
                new_condition(
                    DeploymentConditionType::Progressing,
                    ConditionStatus::False,
                    DeploymentConditionReason::ProgressDeadlineExceeded,
                    msg,
                    now,
                ),
            );
        }
    }
    set_replica_failure_condition(&mut status, rss, new, now);
    // A rollout that completed and then lost a replica cannot time out (the check
    // above skips it): upstream still requeues it, rate-limited, on every sync with
    // an unchanged status, and each such sync finds nothing to do. Here it waits for
    // the next change instead, so a degraded Deployment is not busy work for ever.
    ctx.requeue_after = if complete_before {
        None
    } else {
        requeue_stuck_deployment(&ctx.d, &status, now)
    };
    if status != ctx.d.status {
        ctx.d.status = status;
        ctx.requests
            .push(Request::UpdateStatus(Object::Deployment(Box::new(
                ctx.d.clone(),
            ))));
    }
}

/// `getReplicaFailures` into the Deployment's ReplicaFailure condition: the new
/// ReplicaSet's failure first, then the old ones'; none clears it.
fn set_replica_failure_condition(
    status: &mut DeploymentStatus,
    rss: &[ReplicaSet],
    new: Option<usize>,
    now: SimTime,
) {
    let order: Vec<usize> = new
        .into_iter()
        .chain((0..rss.len()).filter(|i| Some(*i) != new))
        .collect();
    let failure = order.iter().find_map(|i| {
        get_condition(
            &rss[*i].status.conditions,
            ReplicaSetConditionType::ReplicaFailure,
        )
        .filter(|c| c.status == ConditionStatus::True)
        .cloned()
    });
    match failure {
        Some(f) => set_deployment_condition(
            &mut status.conditions,
            new_condition(
                DeploymentConditionType::ReplicaFailure,
                ConditionStatus::True,
                &f.reason,
                f.message.clone(),
                now,
            ),
        ),
        None => status
            .conditions
            .retain(|c| c.type_ != DeploymentConditionType::ReplicaFailure),
    }
}

/// `requeueStuckDeployment`: a rollout not complete and not yet timed out is looked at
/// again one second after its deadline would pass.
fn requeue_stuck_deployment(
    d: &Deployment,
    status: &DeploymentStatus,
    now: SimTime,
) -> Option<SimTime> {
    let cur = get_condition(&d.status.conditions, DeploymentConditionType::Progressing)?;
    if !has_progress_deadline(d)
        || deployment_complete(d, status)
        || cur.reason == DeploymentConditionReason::ProgressDeadlineExceeded
    {
        return None;
    }
    let deadline = crate::time::after_seconds(cur.update_ms, d.spec.progress_deadline_seconds);
    Some(if deadline < now.saturating_add(1000) {
        1000
    } else {
        (deadline - now).saturating_add(1000)
    })
}
