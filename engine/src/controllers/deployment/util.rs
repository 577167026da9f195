//! Helpers of `pkg/controller/deployment/util/deployment_util.go` and
//! `pkg/controller/controller_utils.go` (ComputeHash).

use crate::api::*;
use crate::hash::fnv1a32;
use crate::rng::SAFE_ALPHABET;

/// Annotation: revision number of a ReplicaSet / Deployment.
pub const REVISION_ANNOTATION: &str = "deployment.kubernetes.io/revision";
/// Annotation: revisions a ReplicaSet had before a rollback brought it back.
pub const REVISION_HISTORY_ANNOTATION: &str = "deployment.kubernetes.io/revision-history";
/// Annotation: spec.replicas of the Deployment when the ReplicaSet was last scaled.
pub const DESIRED_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/desired-replicas";
/// Annotation: replicas + maxSurge when the ReplicaSet was last scaled.
pub const MAX_REPLICAS_ANNOTATION: &str = "deployment.kubernetes.io/max-replicas";
/// The label that ties a ReplicaSet's Pods to its template.
pub const POD_TEMPLATE_HASH_LABEL: &str = "pod-template-hash";

/// `rand.SafeEncodeString`: each character of `s` becomes `alphabet[c % 27]`.
pub fn safe_encode_string(s: &str) -> String {
    s.bytes()
        .map(|b| SAFE_ALPHABET[(b as usize) % SAFE_ALPHABET.len()] as char)
        .collect()
}

/// `controller.ComputeHash`: FNV-1a over a deterministic dump of the template (here: its
/// canonical JSON, whose maps are sorted), then the collision count (4 bytes LE + 4 zero
/// bytes), written in decimal and safe-encoded.
pub fn compute_hash(template: &PodTemplateSpec, collision_count: Option<i64>) -> String {
    let mut bytes = serde_json::to_vec(template).unwrap_or_default();
    if let Some(c) = collision_count {
        bytes.extend_from_slice(&(c as u32).to_le_bytes());
        bytes.extend_from_slice(&[0, 0, 0, 0]);
    }
    safe_encode_string(&fnv1a32(&bytes).to_string())
}

/// Templates equal once the `pod-template-hash` label is ignored (`EqualIgnoreHash`).
pub fn equal_ignore_hash(a: &PodTemplateSpec, b: &PodTemplateSpec) -> bool {
    // The Pod specs in place, and only the metadata copied to drop the label: copying
    // whole templates for every ReplicaSet at every sync was a fifth of the time of a
    // long crash-looping rollout (a fuzz input over its 2 s budget).
    if a.spec != b.spec {
        return false;
    }
    let mut am = a.metadata.clone();
    let mut bm = b.metadata.clone();
    am.labels.remove(POD_TEMPLATE_HASH_LABEL);
    bm.labels.remove(POD_TEMPLATE_HASH_LABEL);
    am == bm
}

/// `maxRevHistoryLengthInChars` (deployment_controller.go): the revision-history
/// annotation keeps at most this many characters, dropping the oldest entries.
pub const MAX_REV_HISTORY_LENGTH_IN_CHARS: usize = 2000;

/// Annotations a Deployment does not copy to its ReplicaSets, and that a rollback does
/// not copy back (`annotationsToSkip` in deployment_util.go and kubectl's rollback.go).
pub const ANNOTATIONS_TO_SKIP: &[&str] = &[
    "kubectl.kubernetes.io/last-applied-configuration",
    REVISION_ANNOTATION,
    REVISION_HISTORY_ANNOTATION,
    DESIRED_REPLICAS_ANNOTATION,
    MAX_REPLICAS_ANNOTATION,
    "deprecated.deployment.rollback.to",
];

/// `copyDeploymentAnnotationsToReplicaSet`: every Deployment annotation but the skipped
/// ones reaches the ReplicaSet (never removed from it); true when one changed.
pub fn copy_deployment_annotations_to_replica_set(d: &Deployment, rs: &mut ReplicaSet) -> bool {
    let mut changed = false;
    for (k, v) in &d.metadata.annotations {
        if ANNOTATIONS_TO_SKIP.contains(&k.as_str()) || rs.metadata.annotations.get(k) == Some(v) {
            continue;
        }
        rs.metadata.annotations.insert(k.clone(), v.clone());
        changed = true;
    }
    changed
}

/// `SetNewReplicaSetAnnotations`: the Deployment's annotations, the revision (raised to
/// `new_revision` only, the former one appended to the revision history as a rollback
/// brings an old template back), and — for a ReplicaSet about to be created — the
/// desired/max replicas. True when an annotation changed.
pub fn set_new_replica_set_annotations(
    d: &Deployment,
    rs: &mut ReplicaSet,
    new_revision: i64,
    exists: bool,
) -> bool {
    let mut changed = copy_deployment_annotations_to_replica_set(d, rs);
    let old = rs.metadata.annotations.get(REVISION_ANNOTATION).cloned();
    let old_rev = match old.as_deref().map(str::parse::<i64>) {
        Some(Ok(r)) => r,
        // An unparsable revision: upstream logs and leaves the ReplicaSet alone.
        Some(Err(_)) if old.as_deref() != Some("") => return false,
        _ => 0,
    };
    if old_rev < new_revision {
        rs.metadata
            .annotations
            .insert(REVISION_ANNOTATION.into(), new_revision.to_string());
        changed = true;
        if let Some(old) = old {
            let hist = rs
                .metadata
                .annotations
                .get(REVISION_HISTORY_ANNOTATION)
                .cloned()
                .unwrap_or_default();
            if hist.is_empty() {
                rs.metadata
                    .annotations
                    .insert(REVISION_HISTORY_ANNOTATION.into(), old);
            } else {
                let mut olds: Vec<&str> = hist.split(',').collect();
                let mut total = hist.len() + old.len() + 1;
                let mut start = 0;
                while total > MAX_REV_HISTORY_LENGTH_IN_CHARS && start < olds.len() {
                    total -= olds[start].len() + 1;
                    start += 1;
                }
                if total <= MAX_REV_HISTORY_LENGTH_IN_CHARS {
                    olds = olds.split_off(start);
                    olds.push(&old);
                    let joined = olds.join(",");
                    rs.metadata
                        .annotations
                        .insert(REVISION_HISTORY_ANNOTATION.into(), joined);
                }
            }
        }
    }
    if !exists {
        let desired = d.spec.replicas.to_string();
        let max = max_total_replicas(d).to_string();
        for (k, v) in [
            (DESIRED_REPLICAS_ANNOTATION, desired),
            (MAX_REPLICAS_ANNOTATION, max),
        ] {
            if rs.metadata.annotations.get(k) != Some(&v) {
                rs.metadata.annotations.insert(k.into(), v);
                changed = true;
            }
        }
    }
    changed
}

/// The revision annotation as a number (0 when absent or malformed).
pub fn revision(meta: &ObjectMeta) -> i64 {
    meta.annotations
        .get(REVISION_ANNOTATION)
        .and_then(|v| v.parse().ok())
        .unwrap_or(0)
}

/// `ResolveFenceposts`: (maxSurge, maxUnavailable) against `replicas`; both 0 → unavailable 1.
pub fn resolve_fenceposts(d: &Deployment) -> (i64, i64) {
    let ru = d.spec.strategy.rolling_update.clone().unwrap_or_default();
    let replicas = d.spec.replicas;
    let surge = ru
        .max_surge
        .scaled_value(replicas, true)
        .unwrap_or(0)
        .max(0);
    let mut unavailable = ru
        .max_unavailable
        .scaled_value(replicas, false)
        .unwrap_or(0)
        .max(0);
    if surge == 0 && unavailable == 0 {
        unavailable = 1;
    }
    (surge, unavailable)
}

/// `replicas + MaxSurge`: the most Pods a rollout may run. Saturating, because a
/// percentage `maxSurge` has no upper bound in validation (`999999999%` is valid).
pub fn max_total_replicas(d: &Deployment) -> i64 {
    d.spec.replicas.saturating_add(max_surge(d))
}

/// True for the RollingUpdate strategy.
pub fn is_rolling(d: &Deployment) -> bool {
    d.spec.strategy.type_ != "Recreate"
}

/// `MaxSurge`: 0 unless RollingUpdate.
pub fn max_surge(d: &Deployment) -> i64 {
    if !is_rolling(d) {
        return 0;
    }
    resolve_fenceposts(d).0
}

/// `MaxUnavailable`: 0 unless RollingUpdate with replicas > 0; capped at replicas.
pub fn max_unavailable(d: &Deployment) -> i64 {
    if !is_rolling(d) || d.spec.replicas == 0 {
        return 0;
    }
    resolve_fenceposts(d).1.min(d.spec.replicas)
}

/// Σ spec.replicas.
pub fn replica_count(rss: &[ReplicaSet]) -> i64 {
    rss.iter().map(|r| r.spec.replicas).sum()
}

/// Σ status.replicas.
pub fn actual_replica_count(rss: &[ReplicaSet]) -> i64 {
    rss.iter().map(|r| r.status.replicas).sum()
}

/// Σ status.readyReplicas.
pub fn ready_replica_count(rss: &[ReplicaSet]) -> i64 {
    rss.iter().map(|r| r.status.ready_replicas).sum()
}

/// Σ status.availableReplicas.
pub fn available_replica_count(rss: &[ReplicaSet]) -> i64 {
    rss.iter().map(|r| r.status.available_replicas).sum()
}

/// `NewRSNewReplicas` for RollingUpdate (Recreate: replicas).
pub fn new_rs_new_replicas(d: &Deployment, all: &[ReplicaSet], new_rs_replicas: i64) -> i64 {
    if !is_rolling(d) {
        return d.spec.replicas;
    }
    let current = replica_count(all);
    let max_total = max_total_replicas(d);
    if current >= max_total {
        return new_rs_replicas;
    }
    let scale_up = max_total
        .saturating_sub(current)
        .min(d.spec.replicas.saturating_sub(new_rs_replicas));
    new_rs_replicas.saturating_add(scale_up)
}

/// `NewDeploymentCondition`: update and transition times at `now`. The reason is a
/// [`DeploymentConditionReason`], or a ReplicaSet's for ReplicaFailure.
pub fn new_condition(
    type_: DeploymentConditionType,
    status: ConditionStatus,
    reason: impl AsRef<str>,
    message: String,
    now: u64,
) -> Condition {
    Condition {
        type_: type_.into(),
        status: status.into(),
        last_update_time: Some(crate::time::rfc3339(now)),
        last_transition_time: Some(crate::time::rfc3339(now)),
        reason: reason.as_ref().into(),
        message,
        transition_ms: now,
        update_ms: now,
        ..Default::default()
    }
}

/// `HasProgressDeadline`: set and not "forever" (MaxInt32).
pub fn has_progress_deadline(d: &Deployment) -> bool {
    d.spec.progress_deadline_seconds > 0 && d.spec.progress_deadline_seconds != i64::from(i32::MAX)
}

/// `DeploymentTimedOut`: no progress for progressDeadlineSeconds since the Progressing
/// condition's lastUpdateTime (strictly after).
pub fn deployment_timed_out(d: &Deployment, s: &DeploymentStatus, now: u64) -> bool {
    if !has_progress_deadline(d) {
        return false;
    }
    let Some(c) = get_condition(&s.conditions, DeploymentConditionType::Progressing) else {
        return false;
    };
    match DeploymentConditionReason::parse(&c.reason) {
        Some(DeploymentConditionReason::NewReplicaSetAvailable) => false,
        Some(DeploymentConditionReason::ProgressDeadlineExceeded) => true,
        _ => crate::time::after_seconds(c.update_ms, d.spec.progress_deadline_seconds) < now,
    }
}

/// `SetDeploymentCondition`: same status and reason → unchanged; same status → keep
/// lastTransitionTime; the condition is then moved to the end of the list.
pub fn set_deployment_condition(conds: &mut Vec<Condition>, mut c: Condition) {
    if let Some(cur) = conds.iter().find(|x| x.type_ == c.type_) {
        if cur.status == c.status && cur.reason == c.reason {
            return;
        }
        if cur.status == c.status {
            c.last_transition_time = cur.last_transition_time.clone();
            c.transition_ms = cur.transition_ms;
        }
    }
    conds.retain(|x| x.type_ != c.type_);
    conds.push(c);
}

/// `DeploymentComplete`.
pub fn deployment_complete(d: &Deployment, s: &DeploymentStatus) -> bool {
    s.updated_replicas == d.spec.replicas
        && s.replicas == d.spec.replicas
        && s.available_replicas == d.spec.replicas
        && s.observed_generation >= d.metadata.generation
}

/// `DeploymentProgressing`: anything moved since the last status.
pub fn deployment_progressing(d: &Deployment, s: &DeploymentStatus) -> bool {
    let old = &d.status;
    let old_old = old.replicas - old.updated_replicas;
    let new_old = s.replicas - s.updated_replicas;
    s.updated_replicas > old.updated_replicas
        || new_old < old_old
        || s.ready_replicas > old.ready_replicas
        || s.available_replicas > old.available_replicas
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn safe_encoding_maps_digits_as_upstream() {
        assert_eq!(safe_encode_string("0123456789"), "456789bcdf");
    }

    #[test]
    fn hashes_use_only_the_safe_alphabet_and_change_with_collisions() {
        let t = PodTemplateSpec::default();
        let h = compute_hash(&t, None);
        assert!(h.chars().all(|c| SAFE_ALPHABET.contains(&(c as u8))));
        assert_ne!(h, compute_hash(&t, Some(1)));
        assert_eq!(h, compute_hash(&t, None));
    }

    fn deployment(replicas: i64, surge: IntOrString, unavailable: IntOrString) -> Deployment {
        let mut d = Deployment::default();
        d.spec.replicas = replicas;
        d.spec.strategy.rolling_update = Some(RollingUpdateDeployment {
            max_surge: surge,
            max_unavailable: unavailable,
        });
        d
    }

    #[test]
    fn default_surge_rounds_up_and_unavailable_rounds_down() {
        let q = || IntOrString::String("25%".into());
        // replicas → (surge, unavailable), the table of k8s-facts §1.3.
        for (replicas, want) in [(1, (1, 0)), (3, (1, 0)), (4, (1, 1)), (10, (3, 2))] {
            let d = deployment(replicas, q(), q());
            assert_eq!(
                (max_surge(&d), max_unavailable(&d)),
                want,
                "replicas {replicas}"
            );
        }
    }

    #[test]
    fn both_zero_resolves_unavailable_to_one() {
        let d = deployment(3, IntOrString::Int(0), IntOrString::Int(0));
        assert_eq!(resolve_fenceposts(&d), (0, 1));
        let d = deployment(
            3,
            IntOrString::String("0%".into()),
            IntOrString::String("10%".into()),
        );
        assert_eq!(resolve_fenceposts(&d), (0, 1));
    }
}
