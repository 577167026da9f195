//! The Pod-failure back-off (`backoff_utils.go`): failures since the last success,
//! when the last one finished, and the time left before the next Pod may be created
//! (10 s doubling to 10 min).

use crate::api::*;
use crate::time::{parse_rfc3339, SimTime, SECOND};

/// `DefaultJobPodFailureBackOff`.
pub const DEFAULT_POD_FAILURE_BACKOFF: SimTime = 10 * SECOND;

/// `MaxJobPodFailureBackOff` (10 minutes since v1.27).
pub const MAX_POD_FAILURE_BACKOFF: SimTime = 600 * SECOND;

/// `backoffRecord`: failures since the last success, and when the last one finished.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BackoffRecord {
    /// `failuresAfterLastSuccess`.
    pub failures_after_last_success: u32,
    /// `lastFailureTime`.
    pub last_failure: Option<SimTime>,
}

impl BackoffRecord {
    /// `getRemainingTime`: `min(10 s · 2^(n−1), 10 min)` from the last failure.
    pub fn remaining(&self, now: SimTime) -> SimTime {
        let Some(last) = self.last_failure else {
            return 0;
        };
        if self.failures_after_last_success == 0 {
            return 0;
        }
        let mut backoff = DEFAULT_POD_FAILURE_BACKOFF;
        for _ in 1..self.failures_after_last_success {
            backoff *= 2;
            if backoff >= MAX_POD_FAILURE_BACKOFF {
                backoff = MAX_POD_FAILURE_BACKOFF;
                break;
            }
        }
        let elapsed = now.saturating_sub(last);
        backoff.saturating_sub(elapsed)
    }
}

/// `getFinishedTime`: the last container's finish, else the Pod's deletion, else its
/// creation.
pub fn finished_time(p: &Pod) -> SimTime {
    let statuses = &p.status.container_statuses;
    if !statuses.is_empty() && statuses.iter().all(|c| c.state.terminated.is_some()) {
        if let Some(t) = statuses
            .iter()
            .filter_map(|c| c.state.terminated.as_ref())
            .filter_map(|t| parse_rfc3339(&t.finished_at))
            .max()
        {
            return t;
        }
    }
    p.metadata.deletion_ms.unwrap_or(p.metadata.created_ms)
}

/// `newBackoffRecord`: failures since the newest success.
pub(super) fn new_backoff_record(
    mut record: BackoffRecord,
    succeeded: &[&Pod],
    failed: &[&Pod],
) -> BackoffRecord {
    match (succeeded.is_empty(), failed.is_empty()) {
        (true, true) => record,
        (true, false) => {
            record.failures_after_last_success += failed.len() as u32;
            record.last_failure = failed.iter().map(|p| finished_time(p)).max();
            record
        }
        (false, true) => BackoffRecord::default(),
        (false, false) => {
            let last_success = succeeded
                .iter()
                .map(|p| finished_time(p))
                .max()
                .unwrap_or(0);
            let after: Vec<SimTime> = failed
                .iter()
                .map(|p| finished_time(p))
                .filter(|t| *t > last_success)
                .collect();
            BackoffRecord {
                failures_after_last_success: after.len() as u32,
                last_failure: after.iter().copied().max(),
            }
        }
    }
}
