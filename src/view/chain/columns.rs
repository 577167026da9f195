//! The columns laid out from the store: the node cards, the Pods grouped by owner with
//! their replacements paired, and each owner card centred on its Pods.

use super::*;

/// The node cards, in name order: status, power, requests against allocatable, taints.
pub fn node_views(c: &Cluster) -> Vec<NodeView> {
    let store = &c.store;
    let mut out = Vec::new();
    let mut y = 0.0;
    let mut nodes: Vec<&Node> = store.list::<Node>().collect();
    kubeplay_engine::sorting::sort_by(&mut nodes, |a, b| {
        natural_cmp(&a.metadata.name, &b.metadata.name)
    });
    for n in nodes {
        let usage = store.node_usage(&n.metadata.name);
        let alloc = usage
            .alloc
            .unwrap_or_else(|| kubeplay_engine::apiserver::allocatable(n));
        out.push(NodeView {
            name: n.metadata.name.clone(),
            status: node_status(n),
            ready: n.ready_status() == "True",
            powered: c.node_up(&n.metadata.name),
            cpu_requested: usage.requested.cpu_milli,
            cpu_allocatable: alloc.cpu_milli,
            mem_requested: usage.requested.memory,
            mem_allocatable: alloc.memory,
            pods: usage.pods,
            system_pods: store
                .pods_on_node(&n.metadata.name)
                .filter(|p| !crate::view::drawn(&p.metadata))
                .count() as i64,
            taints: n
                .spec
                .taints
                .iter()
                .map(|t| format!("{}:{}", t.key, t.effect))
                .collect(),
            silence: kubeplay_engine::explain::silence(c, &n.metadata.name),
            y,
        });
        y += NODE_H + V_GAP;
    }
    out
}

pub(super) fn replica_sets_oldest_first(c: &Cluster) -> Vec<&ReplicaSet> {
    let mut rss: Vec<&ReplicaSet> = c
        .store
        .list::<ReplicaSet>()
        .filter(|r| crate::view::drawn(&r.metadata))
        .collect();
    kubeplay_engine::sorting::sort_by(&mut rss, |a, b| {
        (a.metadata.created_ms, &a.metadata.name).cmp(&(b.metadata.created_ms, &b.metadata.name))
    });
    rss
}

/// Pods grouped by owner ReplicaSet (oldest ReplicaSet first), then by age and name.
pub(super) fn pods_by_owner<'a>(c: &'a Cluster, rss: &[&ReplicaSet]) -> Vec<&'a Pod> {
    let mut pods: Vec<&Pod> = c
        .store
        .list::<Pod>()
        .filter(|p| crate::view::drawn(&p.metadata))
        .collect();
    let rank: std::collections::BTreeMap<&str, usize> = rss
        .iter()
        .enumerate()
        .map(|(i, rs)| (rs.metadata.name.as_str(), i))
        .collect();
    let mut jobs: Vec<&Job> = c.store.list::<Job>().collect();
    kubeplay_engine::sorting::sort_by(&mut jobs, |a, b| {
        (a.metadata.created_ms, &a.metadata.name).cmp(&(b.metadata.created_ms, &b.metadata.name))
    });
    let job_rank: std::collections::BTreeMap<&str, usize> = jobs
        .iter()
        .enumerate()
        .map(|(i, j)| (j.metadata.name.as_str(), rss.len() + i))
        .collect();
    let ds_rank: std::collections::BTreeMap<&str, usize> = c
        .store
        .list::<DaemonSet>()
        .enumerate()
        .map(|(i, d)| (d.metadata.name.as_str(), rss.len() + jobs.len() + i))
        .collect();
    let ds_count = ds_rank.len();
    let sts_rank: std::collections::BTreeMap<&str, usize> = c
        .store
        .list::<StatefulSet>()
        .enumerate()
        .map(|(i, d)| {
            (
                d.metadata.name.as_str(),
                rss.len() + jobs.len() + ds_count + i,
            )
        })
        .collect();
    // A ReplicaSet's Pods first, in ReplicaSet order, then a Job's, in Job order, then
    // a DaemonSet's.
    let rs_rank = |p: &Pod| {
        p.metadata
            .controller_ref()
            .and_then(|r| match r.kind.as_str() {
                "Job" => job_rank.get(r.name.as_str()).copied(),
                "DaemonSet" => ds_rank.get(r.name.as_str()).copied(),
                "StatefulSet" => sts_rank.get(r.name.as_str()).copied(),
                _ => rank.get(r.name.as_str()).copied(),
            })
            .unwrap_or(usize::MAX)
    };
    // A StatefulSet's Pods in ordinal order (a recreated db-0 stays on top).
    let ordinal = |p: &Pod| match p.metadata.controller_ref() {
        Some(r) if r.kind == "StatefulSet" => {
            kubeplay_engine::controllers::statefulset::get_ordinal(&r.name, &p.metadata.name)
        }
        _ => 0,
    };
    kubeplay_engine::sorting::sort_by(&mut pods, |a, b| {
        (
            rs_rank(a),
            ordinal(a),
            a.metadata.created_ms,
            &a.metadata.name,
        )
            .cmp(&(
                rs_rank(b),
                ordinal(b),
                b.metadata.created_ms,
                &b.metadata.name,
            ))
    });
    pods
}

/// A card per Pod, one under the other from `top`; returns the column's height.
pub(super) fn pod_views(m: &mut ChainModel, pods: &[&Pod], top: f64) -> f64 {
    let mut y = top;
    for p in pods {
        let (ready_col, status, restarts) = pod_ready_status(p);
        m.pods.push(PodView {
            name: p.metadata.name.clone(),
            short_uid: p.metadata.uid.chars().take(8).collect(),
            ready_col,
            status,
            ready: p.is_ready(),
            phase: p.status.phase.clone(),
            restarts,
            node: p.spec.node_name.clone(),
            owner: p.metadata.controller_ref().map(|r| r.name.clone()),
            terminating: p.metadata.is_deleting(),
            replaced_by: None,
            traffic: None,
            connections: None,
            rv: rv_of(&p.metadata),
            created_ms: p.metadata.created_ms,
            y,
        });
        y += POD_H + V_GAP;
    }
    y
}

/// "Replaced by": per ReplicaSet, each terminating Pod (in deletion order) is paired
/// with the first Pod the ReplicaSet created at or after its deletion.
pub(super) fn pair_replacements(m: &mut ChainModel, pods: &[&Pod]) {
    let mut used: Vec<String> = Vec::new();
    let mut dying: Vec<&Pod> = pods
        .iter()
        .copied()
        .filter(|p| p.metadata.is_deleting() && p.metadata.controller_ref().is_some())
        // Pairing is quadratic: past the aggregation threshold nobody draws it.
        .take(if pods.len() > AGGREGATE_AT {
            0
        } else {
            usize::MAX
        })
        .collect();
    // deletionTimestamp is the deadline (request + grace period): the request came
    // grace seconds before it.
    let asked_at = |p: &Pod| {
        p.metadata.deletion_ms.unwrap_or(0).saturating_sub(
            p.metadata.deletion_grace_period_seconds.unwrap_or(0).max(0) as u64 * 1000,
        )
    };
    kubeplay_engine::sorting::sort_by_key(&mut dying, |p| (asked_at(p), p.metadata.name.clone()));
    for d in dying {
        let owner = d.metadata.controller_ref().map(|r| r.uid.clone());
        let at = asked_at(d);
        let replacement = pods
            .iter()
            .copied()
            .filter(|q| {
                !q.metadata.is_deleting()
                    && q.metadata.controller_ref().map(|r| r.uid.clone()) == owner
                    && q.metadata.created_ms >= at
                    && !used.contains(&q.metadata.name)
            })
            .min_by_key(|q| (q.metadata.created_ms, q.metadata.name.clone()));
        let Some(q) = replacement else {
            continue;
        };
        used.push(q.metadata.name.clone());
        let from = m.pods.iter().position(|v| v.name == d.metadata.name);
        let to = m.pods.iter().position(|v| v.name == q.metadata.name);
        if let (Some(from), Some(to)) = (from, to) {
            m.pods[from].replaced_by = Some((
                q.metadata.name.clone(),
                q.metadata.uid.chars().take(8).collect(),
            ));
            m.links.push(Link {
                x1: col_x(2),
                y1: m.pods[from].y + POD_H / 2.0,
                x2: col_x(2),
                y2: m.pods[to].y + POD_H / 2.0,
                kind: "replaced",
            });
        }
    }
}

/// ReplicaSets: centred on their Pods when they have some, else stacked below;
/// returns the next free slot of the column.
pub(super) fn replica_set_views(m: &mut ChainModel, rss: &[&ReplicaSet]) -> f64 {
    let mut next_free = 0.0f64;
    for rs in rss {
        let mine: Vec<&PodView> = m
            .pods
            .iter()
            .filter(|p| p.owner.as_deref() == Some(&rs.metadata.name))
            .collect();
        let y = owner_y(mine.iter().map(|p| p.y), POD_H, &mut next_free);
        m.replicasets.push(ReplicaSetView {
            name: rs.metadata.name.clone(),
            revision: revision(&rs.metadata),
            desired: rs.spec.replicas,
            current: rs.status.replicas,
            ready: rs.status.ready_replicas,
            owner: rs.metadata.controller_ref().map(|r| r.name.clone()),
            rv: rv_of(&rs.metadata),
            created_ms: rs.metadata.created_ms,
            y,
        });
    }
    next_free
}

/// Jobs below the ReplicaSets, each centred on its Pods; returns the next free slot.
pub(super) fn job_views(m: &mut ChainModel, c: &Cluster, mut next_free: f64) -> f64 {
    let mut jobs: Vec<&Job> = c.store.list::<Job>().collect();
    kubeplay_engine::sorting::sort_by(&mut jobs, |a, b| {
        (a.metadata.created_ms, &a.metadata.name).cmp(&(b.metadata.created_ms, &b.metadata.name))
    });
    let now = c.now();
    for j in jobs {
        let row = kubeplay_engine::printers::get::row(
            &Object::Job(Box::new(j.clone())),
            &Default::default(),
            now,
        );
        let mine: Vec<f64> = m
            .pods
            .iter()
            .filter(|p| p.owner.as_deref() == Some(&j.metadata.name))
            .map(|p| p.y)
            .collect();
        let y = owner_y(mine.into_iter(), POD_H, &mut next_free);
        m.jobs.push(JobView {
            name: j.metadata.name.clone(),
            status: row.get(1).cloned().unwrap_or_default(),
            completions: row.get(2).cloned().unwrap_or_default(),
            active: j.status.active,
            failed: j.status.failed,
            backoff_limit: j.spec.backoff_limit(),
            owner: j
                .metadata
                .controller_ref()
                .filter(|r| r.kind == "CronJob")
                .map(|r| r.name.clone()),
            rv: rv_of(&j.metadata),
            created_ms: j.metadata.created_ms,
            y,
        });
    }
    next_free
}

/// The tops of the Pod cards whose owner is named `owner`.
fn pod_ys_of<'a>(m: &'a ChainModel, owner: &'a str) -> impl Iterator<Item = f64> + 'a {
    m.pods
        .iter()
        .filter(move |p| p.owner.as_deref() == Some(owner))
        .map(|p| p.y)
}

/// StatefulSets below the DaemonSets, each centred on its Pods.
pub(super) fn stateful_set_views(m: &mut ChainModel, c: &Cluster, mut next_free: f64) {
    for d in c.store.list::<StatefulSet>() {
        let y = owner_y(pod_ys_of(m, &d.metadata.name), POD_H, &mut next_free);
        let s = &d.status;
        let claims = c
            .store
            .list::<PersistentVolumeClaim>()
            .filter(|pvc| {
                pvc.metadata.namespace == d.metadata.namespace
                    && d.spec.volume_claim_templates.iter().any(|t| {
                        pvc.metadata
                            .name
                            .starts_with(&format!("{}-{}-", t.metadata.name, d.metadata.name))
                    })
            })
            .count();
        m.statefulsets.push(StatefulSetView {
            name: d.metadata.name.clone(),
            replicas: d.spec.replicas,
            current: s.replicas,
            ready: s.ready_replicas,
            updated: s.updated_replicas,
            policy: d.spec.pod_management_policy.clone(),
            claims,
            rv: rv_of(&d.metadata),
            created_ms: d.metadata.created_ms,
            y,
        });
    }
}

/// DaemonSets below the Jobs, each centred on its Pods; returns the next free top.
pub(super) fn daemon_set_views(m: &mut ChainModel, c: &Cluster, mut next_free: f64) -> f64 {
    for d in c.store.list::<DaemonSet>() {
        let y = owner_y(pod_ys_of(m, &d.metadata.name), POD_H, &mut next_free);
        let s = &d.status;
        m.daemonsets.push(DaemonSetView {
            name: d.metadata.name.clone(),
            desired: s.desired_number_scheduled,
            current: s.current_number_scheduled,
            ready: s.number_ready,
            updated: s.updated_number_scheduled,
            misscheduled: s.number_misscheduled,
            rv: rv_of(&d.metadata),
            created_ms: d.metadata.created_ms,
            y,
        });
    }
    next_free
}

/// CronJobs below the Deployments, each centred on its Jobs.
pub(super) fn cron_job_views(m: &mut ChainModel, c: &Cluster, mut next_free: f64) {
    let now = c.now();
    for cj in c.store.list::<CronJob>() {
        let mine: Vec<f64> = m
            .jobs
            .iter()
            .filter(|j| j.owner.as_deref() == Some(&cj.metadata.name))
            .map(|j| j.y)
            .collect();
        let y = owner_y(mine.into_iter(), OWNER_H, &mut next_free);
        let row = kubeplay_engine::printers::get::row(
            &Object::CronJob(Box::new(cj.clone())),
            &Default::default(),
            now,
        );
        m.cronjobs.push(CronJobView {
            name: cj.metadata.name.clone(),
            schedule: cj.spec.schedule.clone(),
            policy: cj.spec.concurrency_policy.clone(),
            suspended: cj.spec.suspend == Some(true),
            active: cj.status.active.len(),
            last: row.get(5).cloned().unwrap_or_default(),
            rv: rv_of(&cj.metadata),
            created_ms: cj.metadata.created_ms,
            y,
        });
    }
}

/// Deployments in the order of their ReplicaSets, so lines never cross; returns the
/// next free slot of the column.
pub(super) fn deployment_views(m: &mut ChainModel, c: &Cluster) -> f64 {
    let mut next_free = 0.0f64;
    let mut deps: Vec<&Deployment> = c
        .store
        .list::<Deployment>()
        .filter(|d| crate::view::drawn(&d.metadata))
        .collect();
    let first_rs_y = |d: &Deployment| {
        m.replicasets
            .iter()
            .filter(|r| r.owner.as_deref() == Some(&d.metadata.name))
            .map(|r| r.y)
            .fold(f64::INFINITY, f64::min)
    };
    kubeplay_engine::sorting::sort_by(&mut deps, |a, b| {
        first_rs_y(a)
            .total_cmp(&first_rs_y(b))
            .then_with(|| a.metadata.name.cmp(&b.metadata.name))
    });
    for d in deps {
        let mine: Vec<&ReplicaSetView> = m
            .replicasets
            .iter()
            .filter(|r| r.owner.as_deref() == Some(&d.metadata.name))
            .collect();
        let y = owner_y(mine.iter().map(|r| r.y), OWNER_H, &mut next_free);
        m.deployments.push(DeploymentView {
            name: d.metadata.name.clone(),
            desired: d.spec.replicas,
            ready: d.status.ready_replicas,
            available: d.status.available_replicas,
            updated: d.status.updated_replicas,
            hpa: c
                .store
                .list::<HorizontalPodAutoscaler>()
                .find(|h| {
                    h.metadata.namespace == d.metadata.namespace
                        && h.spec.scale_target_ref.kind == "Deployment"
                        && h.spec.scale_target_ref.name == d.metadata.name
                })
                .map(|h| {
                    (
                        kubeplay_engine::printers::get::format_hpa_metrics(h),
                        h.spec.min_replicas.unwrap_or(1),
                        h.spec.max_replicas,
                    )
                }),
            rv: rv_of(&d.metadata),
            created_ms: d.metadata.created_ms,
            y,
        });
    }
    next_free
}
