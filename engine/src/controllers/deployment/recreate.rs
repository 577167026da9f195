//! `recreate.go`: scale every old ReplicaSet to zero, wait until no old Pod remains,
//! then scale the new ReplicaSet up.

use super::progress::{calculate_status, sync_rollout_status};
use super::sync::*;
use super::SyncCtx;
use crate::api::*;
use crate::apiserver::Store;

/// `rolloutRecreate`.
pub fn rollout_recreate(ctx: &mut SyncCtx, store: &Store, mut rss: Vec<ReplicaSet>) {
    let new = get_new_replica_set(ctx, &mut rss, false);
    // Scale down old ReplicaSets.
    let mut scaled_down = false;
    for (i, rs) in rss.iter_mut().enumerate() {
        if Some(i) != new && rs.spec.replicas > 0 {
            scale_replica_set(ctx, rs, 0);
            scaled_down = true;
        }
    }
    if scaled_down {
        sync_rollout_status(ctx, &rss, new);
        return;
    }
    // Wait for every old Pod (terminating ones included) to be gone.
    let old_pods_running =
        rss.iter()
            .enumerate()
            .filter(|(i, _)| Some(*i) != new)
            .any(|(_, rs)| {
                store
                    .dependents(&rs.metadata.uid)
                    .filter(|(k, _)| *k == Kind::Pod)
                    .filter_map(|(_, key)| store.get::<Pod>(key))
                    .any(|p| !p.is_terminal())
            });
    if old_pods_running {
        sync_rollout_status(ctx, &rss, new);
        return;
    }
    let new = match new {
        Some(n) => n,
        None => match get_new_replica_set(ctx, &mut rss, true) {
            Some(n) => n,
            None => return,
        },
    };
    let want = ctx.d.spec.replicas;
    let mut rs = rss[new].clone();
    scale_replica_set(ctx, &mut rs, want);
    rss[new] = rs;
    let status = calculate_status(&ctx.d, &rss, Some(new), ctx.now);
    if super::util::deployment_complete(&ctx.d, &status) {
        let name = rss[new].metadata.name.clone();
        cleanup_deployment(ctx, &rss, Some(&name));
    }
    sync_rollout_status(ctx, &rss, Some(new));
}
