//! The `ReplicaFailure` condition: a ReplicaSet that could not create or delete its
//! Pods says so in its status, with the API server's message.
//!
//! Upstream: `pkg/controller/replicaset/replica_set_utils.go` (`calculateStatus` with a
//! `manageReplicasErr`: `ReplicaFailure=True`, reason `FailedCreate` when short of
//! replicas, `FailedDelete` otherwise). Upstream learns the error within the sync; here
//! the requests run after the sync returns, so the controller hears of it through
//! `Controller::sync_failed` and writes the condition then.

use crate::api::*;
use crate::apiserver::{ApiError, ObjKey, Store};
use crate::client::Request;
use crate::time::{rfc3339, SimTime};

/// The status update that records `err` on the ReplicaSet `key` (none if it is gone).
pub fn set_replica_failure(
    store: &Store,
    key: &ObjKey,
    err: &ApiError,
    now: SimTime,
) -> Vec<Request> {
    let Some(rs) = store.get::<ReplicaSet>(key) else {
        return Vec::new();
    };
    let reason = if rs.status.replicas < rs.spec.replicas {
        ReplicaSetConditionReason::FailedCreate
    } else {
        ReplicaSetConditionReason::FailedDelete
    };
    // `SetCondition` (replica_set_utils.go): the same status and reason is no change —
    // neither the new message nor the time is written (nor wakes the controller again).
    if get_condition(
        &rs.status.conditions,
        ReplicaSetConditionType::ReplicaFailure,
    )
    .is_some_and(|c| c.status == ConditionStatus::True && c.reason == reason)
    {
        return Vec::new();
    }
    let mut rs = rs.clone();
    set_condition(
        &mut rs.status.conditions,
        Condition {
            type_: ReplicaSetConditionType::ReplicaFailure.into(),
            status: ConditionStatus::True.into(),
            last_transition_time: Some(rfc3339(now)),
            reason: reason.into(),
            message: err.message.clone(),
            transition_ms: now,
            ..Default::default()
        },
    );
    vec![Request::blind_update_status(rs)]
}
