//! `sync.go`: the new ReplicaSet, scaling (with proportional scaling mid-rollout),
//! status, conditions and history cleanup.

use super::progress::sync_deployment_status;
use super::util::*;
use super::SyncCtx;
use crate::api::*;
use crate::client::{controller_ref, Request};

/// Index of the new ReplicaSet: the oldest one whose template equals the Deployment's
/// ignoring `pod-template-hash` (`FindNewReplicaSet`).
pub fn find_new(d: &Deployment, rss: &[ReplicaSet]) -> Option<usize> {
    rss.iter()
        .position(|rs| equal_ignore_hash(&rs.spec.template, &d.spec.template))
}

/// `isScalingEvent`: some active ReplicaSet was last scaled for another replica count.
pub fn is_scaling_event(d: &Deployment, rss: &[ReplicaSet]) -> bool {
    let want = d.spec.replicas.to_string();
    rss.iter().filter(|rs| rs.spec.replicas > 0).any(|rs| {
        rs.metadata
            .annotations
            .get(DESIRED_REPLICAS_ANNOTATION)
            .is_some_and(|v| *v != want)
    })
}

fn max_old_revision(rss: &[ReplicaSet], skip: Option<usize>) -> i64 {
    rss.iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != skip)
        .map(|(_, rs)| revision(&rs.metadata))
        .max()
        .unwrap_or(0)
}

/// Set the Deployment's revision annotation (an Update of its metadata) if it differs.
fn set_deployment_revision(ctx: &mut SyncCtx, rev: i64) {
    let rev = rev.to_string();
    if ctx.d.metadata.annotations.get(REVISION_ANNOTATION) != Some(&rev) {
        ctx.d
            .metadata
            .annotations
            .insert(REVISION_ANNOTATION.into(), rev);
        ctx.requests
            .push(Request::Update(Object::Deployment(Box::new(ctx.d.clone()))));
    }
}

/// `getNewReplicaSet`: find the new ReplicaSet (bringing its revision annotation up to
/// date) or, if `create`, create it with the replicas the strategy allows. Returns its
/// index in `rss`.
pub fn get_new_replica_set(
    ctx: &mut SyncCtx,
    rss: &mut Vec<ReplicaSet>,
    create: bool,
) -> Option<usize> {
    let existing = find_new(&ctx.d, rss);
    let new_revision = max_old_revision(rss, existing) + 1;
    if let Some(i) = existing {
        let rs = &mut rss[i];
        // The Deployment's annotations (a change-cause written with `kubectl annotate`)
        // reach its current ReplicaSet; a rollback's template takes the next revision
        // and remembers the one it had.
        let mut changed = set_new_replica_set_annotations(&ctx.d, rs, new_revision, true);
        if rs.spec.min_ready_seconds != ctx.d.spec.min_ready_seconds {
            rs.spec.min_ready_seconds = ctx.d.spec.min_ready_seconds;
            changed = true;
        }
        if changed {
            ctx.requests
                .push(Request::Update(Object::ReplicaSet(Box::new(rs.clone()))));
        }
        let rev = revision(&rs.metadata);
        let name = rs.metadata.name.clone();
        set_deployment_revision(ctx, rev);
        if get_condition(
            &ctx.d.status.conditions,
            DeploymentConditionType::Progressing,
        )
        .is_none()
        {
            let c = new_condition(
                DeploymentConditionType::Progressing,
                ConditionStatus::True,
                DeploymentConditionReason::FoundNewReplicaSet,
                format!("Found new replica set \"{name}\""),
                ctx.now,
            );
            set_deployment_condition(&mut ctx.d.status.conditions, c);
            ctx.requests
                .push(Request::UpdateStatus(Object::Deployment(Box::new(
                    ctx.d.clone(),
                ))));
        }
        return Some(i);
    }
    if !create {
        return None;
    }
    let d = &ctx.d;
    let hash = compute_hash(&d.spec.template, d.status.collision_count);
    let mut template = d.spec.template.clone();
    template
        .metadata
        .labels
        .insert(POD_TEMPLATE_HASH_LABEL.into(), hash.clone());
    let mut selector = d.spec.selector.clone();
    selector
        .match_labels
        .insert(POD_TEMPLATE_HASH_LABEL.into(), hash.clone());
    let replicas = new_rs_new_replicas(d, rss, 0);
    let rs = ReplicaSet {
        metadata: ObjectMeta {
            name: format!("{}-{hash}", d.metadata.name),
            namespace: d.metadata.namespace.clone(),
            labels: template.metadata.labels.clone(),
            owner_references: vec![controller_ref(
                Kind::Deployment,
                &d.metadata.name,
                &d.metadata.uid,
            )],
            created_ms: ctx.now,
            ..Default::default()
        },
        spec: ReplicaSetSpec {
            replicas,
            min_ready_seconds: d.spec.min_ready_seconds,
            selector,
            template,
        },
        status: ReplicaSetStatus::default(),
    };
    let mut rs = rs;
    set_new_replica_set_annotations(d, &mut rs, new_revision, false);
    let name = rs.metadata.name.clone();
    // The name is taken by a ReplicaSet that is not this template's (not ours, or a hash
    // collision): bump collisionCount so the next sync hashes differently.
    let key = crate::apiserver::ObjKey::of(&rs.metadata);
    if ctx.store.get::<ReplicaSet>(&key).is_some() {
        ctx.d.status.collision_count = Some(ctx.d.status.collision_count.unwrap_or(0) + 1);
        ctx.requests
            .push(Request::UpdateStatus(Object::Deployment(Box::new(
                ctx.d.clone(),
            ))));
        return None;
    }
    ctx.requests.push(Request::Create {
        object: Object::ReplicaSet(Box::new(rs.clone())),
        event: None,
    });
    if replicas > 0 {
        ctx.event(
            EventType::Normal,
            "ScalingReplicaSet",
            format!("Scaled up replica set {name} from 0 to {replicas}"),
        );
    }
    rss.push(rs);
    set_deployment_revision(ctx, new_revision);
    let c = new_condition(
        DeploymentConditionType::Progressing,
        ConditionStatus::True,
        DeploymentConditionReason::NewReplicaSetCreated,
        format!("Created new replica set \"{name}\""),
        ctx.now,
    );
    set_deployment_condition(&mut ctx.d.status.conditions, c);
    ctx.requests
        .push(Request::UpdateStatus(Object::Deployment(Box::new(
            ctx.d.clone(),
        ))));
    Some(rss.len() - 1)
}

/// `scaleReplicaSetAndRecordEvent`: set replicas and the desired/max annotations.
pub fn scale_replica_set(ctx: &mut SyncCtx, rs: &mut ReplicaSet, new_size: i64) {
    let desired = ctx.d.spec.replicas.to_string();
    let max = max_total_replicas(&ctx.d).to_string();
    let annotations_ok = rs.metadata.annotations.get(DESIRED_REPLICAS_ANNOTATION) == Some(&desired)
        && rs.metadata.annotations.get(MAX_REPLICAS_ANNOTATION) == Some(&max);
    if rs.spec.replicas == new_size && annotations_ok {
        return;
    }
    let old = rs.spec.replicas;
    rs.spec.replicas = new_size;
    rs.metadata
        .annotations
        .insert(DESIRED_REPLICAS_ANNOTATION.into(), desired);
    rs.metadata
        .annotations
        .insert(MAX_REPLICAS_ANNOTATION.into(), max);
    ctx.requests
        .push(Request::Update(Object::ReplicaSet(Box::new(rs.clone()))));
    if old != new_size {
        let dir = if new_size > old { "up" } else { "down" };
        ctx.event(
            EventType::Normal,
            "ScalingReplicaSet",
            format!(
                "Scaled {dir} replica set {} from {old} to {new_size}",
                rs.metadata.name
            ),
        );
    }
}

/// `FindActiveOrLatest`: the one active ReplicaSet, or the newest if none is active.
fn find_active_or_latest(new: Option<usize>, rss: &[ReplicaSet]) -> Option<usize> {
    let active: Vec<usize> = (0..rss.len())
        .filter(|i| rss[*i].spec.replicas > 0)
        .collect();
    match active.len() {
        0 => new.or(if rss.is_empty() {
            None
        } else {
            Some(rss.len() - 1)
        }),
        1 => Some(active[0]),
        _ => None,
    }
}

fn round_half_away(x: f64) -> i64 {
    x.round() as i64
}

/// `getReplicaSetFraction`.
fn replica_set_fraction(rs: &ReplicaSet, d: &Deployment) -> i64 {
    if d.spec.replicas == 0 {
        return -rs.spec.replicas;
    }
    let deployment_max = max_total_replicas(d);
    let annotated = rs
        .metadata
        .annotations
        .get(MAX_REPLICAS_ANNOTATION)
        .and_then(|v| v.parse::<i64>().ok())
        .unwrap_or(d.status.replicas);
    if annotated == 0 {
        return 0;
    }
    // In floating point, as upstream computes it: the product of two saturated
    // counts would overflow an i64.
    let new_size = rs.spec.replicas as f64 * deployment_max as f64 / annotated as f64;
    round_half_away(new_size).saturating_sub(rs.spec.replicas)
}

/// `GetProportion`.
fn proportion(rs: &ReplicaSet, d: &Deployment, to_add: i64, added: i64) -> i64 {
    if rs.spec.replicas == 0 || to_add == 0 || to_add == added {
        return 0;
    }
    let fraction = replica_set_fraction(rs, d);
    let allowed = to_add.saturating_sub(added);
    if to_add > 0 {
        fraction.min(allowed)
    } else {
        fraction.max(allowed)
    }
}

/// `scale`: bring the ReplicaSets to the Deployment's size; during a rollout the
/// change is spread proportionally over the active ReplicaSets.
///
/// As upstream's, it does nothing for a Recreate Deployment with two or more active
/// ReplicaSets and a new one not yet at full size: proportional scaling is for
/// RollingUpdate only. Such a Deployment — scaled, or switched to Recreate with a new
/// replica count, in the middle of a rollout — stays a scaling event (its
/// ReplicaSets' desired-replicas annotations keep the old count) and never reaches
/// `rolloutRecreate`: upstream v1.33 stalls there, and so does kubeplay, with two
/// active ReplicaSets. Scaling back to the annotated count, or switching back to
/// RollingUpdate, lets it go on.
pub fn scale(ctx: &mut SyncCtx, new: Option<usize>, rss: &mut [ReplicaSet]) {
    if let Some(i) = find_active_or_latest(new, rss) {
        let want = ctx.d.spec.replicas;
        let mut rs = rss[i].clone();
        scale_replica_set(ctx, &mut rs, want);
        rss[i] = rs;
        return;
    }
    // New ReplicaSet saturated: old active ones go to zero.
    if let Some(n) = new {
        let rs = &rss[n];
        let saturated = rs.spec.replicas == ctx.d.spec.replicas
            && rs.metadata.annotations.get(DESIRED_REPLICAS_ANNOTATION)
                == Some(&ctx.d.spec.replicas.to_string())
            && rs.status.available_replicas == ctx.d.spec.replicas;
        if saturated {
            for (i, rs) in rss.iter_mut().enumerate() {
                if i != n && rs.spec.replicas > 0 {
                    scale_replica_set(ctx, rs, 0);
                }
            }
            return;
        }
    }
    if !is_rolling(&ctx.d) {
        return;
    }
    let d = ctx.d.clone();
    let mut active: Vec<usize> = (0..rss.len())
        .filter(|i| rss[*i].spec.replicas > 0)
        .collect();
    let all_active: i64 = active.iter().map(|i| rss[*i].spec.replicas).sum();
    let allowed = if d.spec.replicas > 0 {
        max_total_replicas(&d)
    } else {
        0
    };
    let to_add = allowed - all_active;
    // Largest first; ties: newer first when growing, older first when shrinking.
    crate::sorting::sort_by(&mut active, |a, b| {
        let (ra, rb) = (&rss[*a], &rss[*b]);
        rb.spec.replicas.cmp(&ra.spec.replicas).then_with(|| {
            let age = (ra.metadata.created_ms, &ra.metadata.name)
                .cmp(&(rb.metadata.created_ms, &rb.metadata.name));
            if to_add > 0 {
                age.reverse()
            } else {
                age
            }
        })
    });
    let mut added = 0;
    let mut sizes: Vec<i64> = Vec::new();
    for i in &active {
        let rs = &rss[*i];
        if to_add != 0 {
            let p = proportion(rs, &d, to_add, added);
            sizes.push(rs.spec.replicas.saturating_add(p));
            added = added.saturating_add(p);
        } else {
            sizes.push(rs.spec.replicas);
        }
    }
    for (pos, i) in active.iter().enumerate() {
        let mut size = sizes[pos];
        if pos == 0 && to_add != 0 {
            size = size.saturating_add(to_add.saturating_sub(added)).max(0);
        }
        let mut rs = rss[*i].clone();
        scale_replica_set(ctx, &mut rs, size);
        rss[*i] = rs;
    }
}

/// `sync`: scaling and status only (paused Deployments and scaling events).
pub fn sync(ctx: &mut SyncCtx, mut rss: Vec<ReplicaSet>) {
    let new = get_new_replica_set(ctx, &mut rss, false);
    scale(ctx, new, &mut rss);
    if ctx.d.spec.paused {
        let new_name = new.map(|i| rss[i].metadata.name.clone());
        cleanup_deployment(ctx, &rss, new_name.as_deref());
    }
    sync_deployment_status(ctx, &rss, new);
}

/// Deleting Deployments only report status.
pub fn sync_status_only(ctx: &mut SyncCtx, rss: Vec<ReplicaSet>) {
    let new = find_new(&ctx.d, &rss);
    sync_deployment_status(ctx, &rss, new);
}

/// `checkPausedConditions`: Progressing=Unknown `DeploymentPaused` / `DeploymentResumed`
/// (never over a timed-out condition).
pub fn check_paused_conditions(ctx: &mut SyncCtx) {
    if !has_progress_deadline(&ctx.d) {
        return;
    }
    let cond = get_condition(
        &ctx.d.status.conditions,
        DeploymentConditionType::Progressing,
    );
    if cond.is_some_and(|c| c.reason == DeploymentConditionReason::ProgressDeadlineExceeded) {
        return;
    }
    let paused_cond = cond.is_some_and(|c| c.reason == DeploymentConditionReason::DeploymentPaused);
    let c = if ctx.d.spec.paused && !paused_cond {
        new_condition(
            DeploymentConditionType::Progressing,
            ConditionStatus::Unknown,
            DeploymentConditionReason::DeploymentPaused,
            "Deployment is paused".into(),
            ctx.now,
        )
    } else if !ctx.d.spec.paused && paused_cond {
        new_condition(
            DeploymentConditionType::Progressing,
            ConditionStatus::Unknown,
            DeploymentConditionReason::DeploymentResumed,
            "Deployment is resumed".into(),
            ctx.now,
        )
    } else {
        return;
    };
    set_deployment_condition(&mut ctx.d.status.conditions, c);
    ctx.requests
        .push(Request::UpdateStatus(Object::Deployment(Box::new(
            ctx.d.clone(),
        ))));
}

/// `cleanupDeployment`: delete the oldest fully scaled-down old ReplicaSets beyond
/// revisionHistoryLimit.
pub fn cleanup_deployment(ctx: &mut SyncCtx, rss: &[ReplicaSet], new_name: Option<&str>) {
    let mut cleanable: Vec<&ReplicaSet> = rss
        .iter()
        .filter(|rs| Some(rs.metadata.name.as_str()) != new_name && !rs.metadata.is_deleting())
        .collect();
    let diff = cleanable.len() as i64 - ctx.d.spec.revision_history_limit.max(0);
    if diff <= 0 {
        return;
    }
    crate::sorting::sort_by(&mut cleanable, |a, b| {
        (revision(&a.metadata), &a.metadata.name).cmp(&(revision(&b.metadata), &b.metadata.name))
    });
    for rs in cleanable.into_iter().take(diff as usize) {
        if rs.status.replicas != 0
            || rs.spec.replicas != 0
            || rs.metadata.generation > rs.status.observed_generation
        {
            continue;
        }
        ctx.requests.push(Request::Delete {
            kind: Kind::ReplicaSet,
            key: crate::apiserver::ObjKey::of(&rs.metadata),
            options: Default::default(),
            event: None,
        });
    }
}
