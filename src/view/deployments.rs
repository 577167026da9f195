//! The Deployment panel: each Deployment's rollout budget, conditions and revisions.

use super::*;

/// One revision of a Deployment, for the history panel.
#[derive(Clone, Debug, PartialEq)]
pub struct RevisionView {
    /// `deployment.kubernetes.io/revision`.
    pub revision: i64,
    /// ReplicaSet name.
    pub replicaset: String,
    /// Images of the template.
    pub images: String,
    /// `kubernetes.io/change-cause` or `<none>`.
    pub change_cause: String,
    /// spec.replicas / status.readyReplicas of the ReplicaSet.
    pub desired: i64,
    /// Ready Pods.
    pub ready: i64,
    /// The Deployment's current template.
    pub current: bool,
}

/// What the Deployment panel shows and drives.
#[derive(Clone, Debug, PartialEq)]
pub struct DeploymentDetail {
    /// Name.
    pub name: String,
    /// First container's name (for `set image`).
    pub container: String,
    /// First container's image.
    pub image: String,
    /// spec.paused.
    pub paused: bool,
    /// Resolved maxSurge / maxUnavailable.
    pub max_surge: i64,
    /// Resolved maxUnavailable.
    pub max_unavailable: i64,
    /// Σ ReplicaSet spec.replicas (what the surge budget limits).
    pub total_pods: i64,
    /// spec.replicas.
    pub desired: i64,
    /// status.unavailableReplicas.
    pub unavailable: i64,
    /// Conditions as (type, status, reason, message).
    pub conditions: Vec<(String, String, String, String)>,
    /// Revisions, newest first.
    pub revisions: Vec<RevisionView>,
}

/// The Deployment panel's rows: per Deployment in `default`, its controls' inputs and its
/// history, for at most `limit` Deployments — those still rolling out or
/// short of Ready first, then the rest, in name order — and how many there are in all.
/// Only the chosen ones are worked out (each reads its ReplicaSets).
pub fn deployment_details_limited(c: &Cluster, limit: usize) -> (Vec<DeploymentDetail>, usize) {
    let all: Vec<&Deployment> = c
        .store
        .list::<Deployment>()
        .filter(|d| d.metadata.namespace == "default")
        .collect();
    let busy = |d: &Deployment| {
        let s = &d.status;
        let want = d.spec.replicas;
        s.updated_replicas != want || s.ready_replicas != want || s.available_replicas != want
    };
    let mut chosen = busy_first(all.len(), limit, |i| busy(all[i]));
    chosen.sort_unstable();
    (
        deployment_details_of(c, chosen.iter().map(|&i| all[i])),
        all.len(),
    )
}

fn deployment_details_of<'a>(
    c: &Cluster,
    deployments: impl Iterator<Item = &'a Deployment>,
) -> Vec<DeploymentDetail> {
    use kubeplay_engine::controllers::deployment::{owned_replica_sets, sync::find_new, util};
    deployments
        .map(|d| {
            let rss = owned_replica_sets(&c.store, d);
            let new = find_new(d, &rss);
            let mut revisions: Vec<RevisionView> = rss
                .iter()
                .enumerate()
                .map(|(i, r)| RevisionView {
                    revision: revision(&r.metadata),
                    replicaset: r.metadata.name.clone(),
                    images: r
                        .spec
                        .template
                        .spec
                        .containers
                        .iter()
                        .map(|c| c.image.clone())
                        .collect::<Vec<_>>()
                        .join(","),
                    change_cause: r
                        .metadata
                        .annotations
                        .get("kubernetes.io/change-cause")
                        .cloned()
                        .unwrap_or_else(|| "<none>".into()),
                    desired: r.spec.replicas,
                    ready: r.status.ready_replicas,
                    current: Some(i) == new,
                })
                .collect();
            kubeplay_engine::sorting::sort_by_key(&mut revisions, |r| {
                std::cmp::Reverse(r.revision)
            });
            let first = d.spec.template.spec.containers.first();
            DeploymentDetail {
                name: d.metadata.name.clone(),
                container: first.map(|c| c.name.clone()).unwrap_or_default(),
                image: first.map(|c| c.image.clone()).unwrap_or_default(),
                paused: d.spec.paused,
                max_surge: util::max_surge(d),
                max_unavailable: util::max_unavailable(d),
                total_pods: rss.iter().map(|r| r.spec.replicas).sum(),
                desired: d.spec.replicas,
                unavailable: d.status.unavailable_replicas,
                conditions: condition_rows(&d.status.conditions),
                revisions,
            }
        })
        .collect()
}

/// The image a learner most likely rolls out next: the tag's last number plus one
/// (`nginx:1.27` → `nginx:1.28`), else `:v2`.
pub fn next_image(image: &str) -> String {
    if let Some((repo, tag)) = image.rsplit_once(':') {
        if let Some(pos) = tag
            .rfind(|c: char| !c.is_ascii_digit())
            .map(|p| p + 1)
            .or(Some(0))
        {
            if let Ok(n) = tag[pos..].parse::<u64>() {
                return format!("{repo}:{}{}", &tag[..pos], n + 1);
            }
        }
        return format!("{repo}:v2");
    }
    format!("{image}:v2")
}
