//! `rolling.go`: one RollingUpdate step per sync.

use super::progress::{calculate_status, sync_rollout_status};
use super::sync::*;
use super::util::*;
use super::SyncCtx;
use crate::api::*;

/// `rolloutRolling`: get or create the new ReplicaSet; scale it up within maxSurge (and
/// stop there if it changed); else scale old ReplicaSets down within maxUnavailable;
/// once complete, clean up history; always sync status.
pub fn rollout_rolling(ctx: &mut SyncCtx, mut rss: Vec<ReplicaSet>) {
    let Some(new) = get_new_replica_set(ctx, &mut rss, true) else {
        return;
    };
    if reconcile_new_replica_set(ctx, &mut rss, new) {
        sync_rollout_status(ctx, &rss, Some(new));
        return;
    }
    if reconcile_old_replica_sets(ctx, &mut rss, new) {
        sync_rollout_status(ctx, &rss, Some(new));
        return;
    }
    let status = calculate_status(&ctx.d, &rss, Some(new), ctx.now);
    if deployment_complete(&ctx.d, &status) {
        let name = rss[new].metadata.name.clone();
        cleanup_deployment(ctx, &rss, Some(&name));
    }
    sync_rollout_status(ctx, &rss, Some(new));
}

/// `reconcileNewReplicaSet`: returns true if it scaled.
pub fn reconcile_new_replica_set(ctx: &mut SyncCtx, rss: &mut [ReplicaSet], new: usize) -> bool {
    let want = ctx.d.spec.replicas;
    let cur = rss[new].spec.replicas;
    if cur == want {
        return false;
    }
    let target = if cur > want {
        want
    } else {
        new_rs_new_replicas(&ctx.d, rss, cur)
    };
    let mut rs = rss[new].clone();
    scale_replica_set(ctx, &mut rs, target);
    let changed = rs.spec.replicas != cur;
    rss[new] = rs;
    changed
}

/// `reconcileOldReplicaSets`: returns true if it scaled anything down.
pub fn reconcile_old_replica_sets(ctx: &mut SyncCtx, rss: &mut [ReplicaSet], new: usize) -> bool {
    let old_pods: i64 = rss
        .iter()
        .enumerate()
        .filter(|(i, _)| *i != new)
        .map(|(_, r)| r.spec.replicas)
        .sum();
    if old_pods == 0 {
        return false;
    }
    let all_pods = replica_count(rss);
    let min_available = ctx.d.spec.replicas - max_unavailable(&ctx.d);
    let new_unavailable = rss[new].spec.replicas - rss[new].status.available_replicas;
    let max_scaled_down = all_pods - min_available - new_unavailable;
    if max_scaled_down <= 0 {
        return false;
    }
    let cleaned = cleanup_unhealthy_replicas(ctx, rss, new, max_scaled_down);
    let scaled = scale_down_old_replica_sets_for_rolling_update(ctx, rss, new);
    cleaned + scaled > 0
}

/// `cleanupUnhealthyReplicas`: scale down old replicas that are not available, oldest
/// ReplicaSet first, within `max_cleanup`.
fn cleanup_unhealthy_replicas(
    ctx: &mut SyncCtx,
    rss: &mut [ReplicaSet],
    new: usize,
    max_cleanup: i64,
) -> i64 {
    let mut total = 0;
    for (i, rs) in rss.iter_mut().enumerate() {
        if i == new {
            continue;
        }
        if total >= max_cleanup {
            break;
        }
        let (spec, avail) = (rs.spec.replicas, rs.status.available_replicas);
        if spec == 0 || spec == avail {
            continue;
        }
        let down = (max_cleanup - total).min(spec - avail);
        scale_replica_set(ctx, rs, spec - down);
        total += down;
    }
    total
}

/// `scaleDownOldReplicaSetsForRollingUpdate`: scale down old ReplicaSets, oldest first,
/// while availability stays at or above replicas − maxUnavailable.
fn scale_down_old_replica_sets_for_rolling_update(
    ctx: &mut SyncCtx,
    rss: &mut [ReplicaSet],
    new: usize,
) -> i64 {
    let min_available = ctx.d.spec.replicas - max_unavailable(&ctx.d);
    let available = available_replica_count(rss);
    if available <= min_available {
        return 0;
    }
    let total_down = available - min_available;
    let mut scaled = 0;
    for (i, rs) in rss.iter_mut().enumerate() {
        if i == new {
            continue;
        }
        if scaled >= total_down {
            break;
        }
        let spec = rs.spec.replicas;
        if spec == 0 {
            continue;
        }
        let down = spec.min(total_down - scaled);
        scale_replica_set(ctx, rs, spec - down);
        scaled += down;
    }
    scaled
}
