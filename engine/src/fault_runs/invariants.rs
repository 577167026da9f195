//! The invariants a run holds after every step, the rollout bounds held second by
//! second, and convergence once every fault stopped (the module docs list them).

use crate::api::*;
use crate::apiserver::{allocatable, ObjKey, WatchType};
use crate::cluster::{Cluster, Ctl};
use crate::controllers::deployment::sync::is_scaling_event;
use crate::controllers::deployment::util::resolve_fenceposts;
use crate::time::{SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet};

/// How long GC may take to remove an object whose owner is gone.
const GC_REACH: SimTime = 30 * SECOND;

/// PodGC's sweep of a missing node's Pods: the first 20 s tick plus the 40 s
/// quarantine, and the force delete.
const PODGC_REACH: SimTime = 62 * SECOND;

/// What the checks remember from step to step, and the violations they found.
#[derive(Default)]
pub(super) struct Invariants {
    /// Each violation once, with when it was first seen.
    pub(super) violations: Vec<String>,
    /// Watch-log entries already checked, and the last resourceVersion seen.
    log_checked: usize,
    last_rv: u64,
    /// Node names that disappeared, and when.
    missing_since: BTreeMap<String, SimTime>,
    /// Objects (by uid) whose owner is gone, since when.
    dangling_since: BTreeMap<String, SimTime>,
    /// Pods ever created for each Job (by uid), from the watch log.
    job_pods: BTreeMap<String, BTreeSet<String>>,
}

impl Invariants {
    /// Record a violation (once: the first time it was seen).
    pub(super) fn violation(&mut self, now: SimTime, what: String) {
        let seen = self
            .violations
            .iter()
            .any(|v| v.split_once(" ms: ").is_some_and(|(_, rest)| rest == what));
        if !seen {
            self.violations.push(format!("at {now} ms: {what}"));
        }
    }

    /// The rollout bounds of the Deployments `watch` names (see [`rollout_watch`]).
    pub(super) fn check_rollout_bounds(&mut self, c: &Cluster, watch: &[(String, bool)]) {
        let mut found = vec![];
        for (name, unavailable_too) in watch {
            let Some(d) = c.store.get::<Deployment>(&ObjKey::new("default", name)) else {
                continue;
            };
            if d.status.observed_generation < d.metadata.generation {
                // The controller has not seen this spec yet: the bounds are the last
                // spec's, which the store no longer has.
                continue;
            }
            let (surge, unavailable) = resolve_fenceposts(d);
            let sets = owned_sets(c, d);
            let rs_sum: i64 = sets.iter().map(|rs| rs.spec.replicas).sum();
            let live: Vec<&Pod> = sets
                .iter()
                .flat_map(|rs| owned_pods(c, &rs.metadata.uid))
                .filter(|p| !p.metadata.is_deleting() && !p.is_terminal())
                .collect();
            let ready = live.iter().filter(|p| p.is_ready()).count() as i64;
            let max = d.spec.replicas + surge;
            if rs_sum > max || live.len() as i64 > max {
                found.push(format!(
                    "deployment {name}: {rs_sum} replicas in its ReplicaSets and {} live Pods, over replicas {} + maxSurge {surge}",
                    live.len(),
                    d.spec.replicas
                ));
            }
            if *unavailable_too && ready < d.spec.replicas - unavailable {
                found.push(format!(
                    "deployment {name}: {ready} ready Pods, under replicas {} - maxUnavailable {unavailable}",
                    d.spec.replicas
                ));
            }
        }
        for f in found {
            self.violation(c.now(), f);
        }
    }

    /// The invariants every step holds (module docs).
    pub(super) fn check_invariants(&mut self, c: &Cluster) {
        let now = c.now();
        let mut found = vec![];
        self.check_watch_log(c, &mut found);
        check_allocatable(c, &mut found);
        // While the API server is down PodGC and the garbage collector cannot act: their
        // reach is counted again from when it is back.
        if c.unavailable().is_some() {
            self.missing_since.clear();
            self.dangling_since.clear();
        }
        // Nor while its watch is broken (`sim watch break`): it learns of the deletion
        // when the watch (or its re-list) is back.
        if c.watch_broken(Ctl::PodGc) {
            self.missing_since.clear();
        }
        if c.watch_broken(Ctl::GarbageCollector) {
            self.dangling_since.clear();
        }
        self.check_pod_gc(c, now, &mut found);
        self.check_owners(c, now, &mut found);
        if !c.foreground_count_is_exact() {
            found.push("the count of foreground timers is off: settle cannot be trusted".into());
        }
        check_kubelets(c, &mut found);
        for f in found {
            self.violation(c.now(), f);
        }
    }

    /// The watch log since the last check: resourceVersions strictly increase, and a Job
    /// counts each of its Pods once.
    fn check_watch_log(&mut self, c: &Cluster, found: &mut Vec<String>) {
        // resourceVersions strictly increase.
        for e in c.store.log.since(self.log_checked) {
            if e.resource_version <= self.last_rv {
                found.push(format!(
                    "resourceVersion {} after {}",
                    e.resource_version, self.last_rv
                ));
            }
            self.last_rv = e.resource_version;
            if e.kind == Kind::Pod && e.type_ == WatchType::Added && !e.owner_uid.is_empty() {
                self.job_pods
                    .entry(e.owner_uid.clone())
                    .or_default()
                    .insert(e.uid.clone());
            }
        }
        // A Job counts each of its Pods once: never more finished Pods than it made.
        for j in c.store.list::<Job>() {
            let made = self.job_pods.get(&j.metadata.uid).map_or(0, |s| s.len()) as i64;
            if j.status.succeeded + j.status.failed > made {
                found.push(format!(
                    "job {}: {} succeeded + {} failed of {made} Pods created",
                    j.metadata.name, j.status.succeeded, j.status.failed
                ));
            }
        }
        self.log_checked = c.store.log.len();
    }

    /// No Pod stays bound to a missing node past PodGC's reach.
    fn check_pod_gc(&mut self, c: &Cluster, now: SimTime, found: &mut Vec<String>) {
        // No Pod on a missing node past PodGC.
        let nodes: BTreeSet<String> = c
            .store
            .list::<Node>()
            .map(|n| n.metadata.name.clone())
            .collect();
        self.missing_since.retain(|n, _| !nodes.contains(n));
        for p in c.store.list::<Pod>() {
            let n = &p.spec.node_name;
            if n.is_empty() || nodes.contains(n) {
                continue;
            }
            let since = *self.missing_since.entry(n.clone()).or_insert(now);
            if now.saturating_sub(since) > PODGC_REACH {
                found.push(format!(
                    "pod {} still bound to missing node {n} (gone since {since} ms)",
                    p.metadata.name
                ));
            }
        }
    }

    /// No owner dangles past the garbage collector's reach.
    fn check_owners(&mut self, c: &Cluster, now: SimTime, found: &mut Vec<String>) {
        // No owner dangling past the garbage collector's reach.
        let mut dangling = BTreeSet::new();
        for kind in [Kind::Pod, Kind::ReplicaSet, Kind::Job] {
            for o in c.store.list_objects(kind) {
                let m = o.meta();
                if m.is_deleting() {
                    continue;
                }
                if m.owner_references
                    .iter()
                    .any(|r| c.store.by_uid(&r.uid).is_none())
                {
                    dangling.insert((m.uid.clone(), format!("{kind:?} {}", m.name)));
                }
            }
        }
        let uids: BTreeSet<String> = dangling.iter().map(|(u, _)| u.clone()).collect();
        self.dangling_since.retain(|u, _| uids.contains(u));
        for (uid, what) in dangling {
            let since = *self.dangling_since.entry(uid).or_insert(now);
            if now.saturating_sub(since) > GC_REACH {
                found.push(format!("{what}: its owner is gone (since {since} ms)"));
            }
        }
    }

    /// Whether the healed cluster converged (module docs).
    pub(super) fn check_converged(&mut self, c: &Cluster) {
        let mut found = vec![];
        unconverged_sets(c, &mut found);
        unconverged_pods(c, &mut found);
        unconverged_others(c, &mut found);
        for f in found {
            self.violation(c.now(), f);
        }
    }
}

/// No node holds more than its allocatable.
fn check_allocatable(c: &Cluster, found: &mut Vec<String>) {
    // No node over its allocatable.
    for n in c.store.list::<Node>() {
        let a = allocatable(n);
        let u = c.store.node_usage(&n.metadata.name);
        if u.requested.cpu_milli > a.cpu_milli || u.requested.memory > a.memory || u.pods > a.pods {
            found.push(format!(
                "node {} over its allocatable: {:?} of {a:?}",
                n.metadata.name, u.requested
            ));
        }
    }
}

/// No kubelet has stranded work, and housekeeping never had to resume a worker.
fn check_kubelets(c: &Cluster, found: &mut Vec<String>) {
    // No stranded kubelet work.
    for (n, k) in &c.kubelets {
        let stalled = k.stalled_pods(&c.store);
        if !stalled.is_empty() {
            found.push(format!("kubelet {n}: stranded workers {stalled:?}"));
        }
        if k.repairs() > 0 {
            found.push(format!(
                "kubelet {n}: housekeeping resumed {} forgotten workers",
                k.repairs()
            ));
        }
    }
}

/// Deployments and ReplicaSets that did not converge.
fn unconverged_sets(c: &Cluster, found: &mut Vec<String>) {
    for d in c.store.list::<Deployment>() {
        // Paused mid-rollout is a resting state (a GitOps sync may declare it).
        let paused_ok = d.spec.paused && d.status.observed_generation >= d.metadata.generation;
        if !paused_ok && !complete(c, d) && !recreate_stall(c, d) {
            found.push(format!(
                "deployment {}/{} did not converge: generation {} observed {}, replicas {} status {}/{}/{}/{} (replicas/updated/ready/available), {} active ReplicaSets",
                d.metadata.namespace,
                d.metadata.name,
                d.metadata.generation,
                d.status.observed_generation,
                d.spec.replicas,
                d.status.replicas,
                d.status.updated_replicas,
                d.status.ready_replicas,
                d.status.available_replicas,
                owned_sets(c, d).iter().filter(|rs| rs.spec.replicas > 0).count(),
            ));
        }
    }
    for rs in c.store.list::<ReplicaSet>() {
        let s = &rs.status;
        if s.replicas == rs.spec.replicas && s.ready_replicas == s.replicas {
            continue;
        }
        {
            found.push(format!(
                "replicaset {} did not converge: spec {} status {}/{}",
                rs.metadata.name, rs.spec.replicas, s.replicas, s.ready_replicas
            ));
        }
    }
}

/// Pods not bound, Running and Ready (or finished), and nodes whose runtime runs fewer
/// containers than the API server shows.
fn unconverged_pods(c: &Cluster, found: &mut Vec<String>) {
    for p in c.store.list::<Pod>() {
        let why = if p.metadata.is_deleting() {
            Some("Terminating")
        } else if p.spec.node_name.is_empty() {
            Some("not bound")
        } else if p.is_terminal() {
            None
        } else if p.status.phase != PodPhase::Running || !p.is_ready() {
            Some("not Running and Ready")
        } else {
            None
        };
        if let Some(why) = why {
            found.push(format!(
                "pod {}/{} {why} ({} on {:?})",
                p.metadata.namespace, p.metadata.name, p.status.phase, p.spec.node_name
            ));
        }
    }
    // What the API server shows running runs.
    for (n, k) in &c.kubelets {
        let shown: usize = c
            .store
            .pods_on_node(n)
            .filter(|p| !p.is_terminal() && !p.metadata.is_deleting())
            .map(|p| {
                p.status
                    .container_statuses
                    .iter()
                    .filter(|s| s.state.running.is_some())
                    .count()
            })
            .sum();
        let running = k.running(&c.store).len();
        if shown > running {
            found.push(format!(
                "node {n}: the API server shows {shown} running containers, its runtime runs {running}"
            ));
        }
    }
}

/// DaemonSets not rolled out, Jobs not finished, Namespaces stuck Terminating.
fn unconverged_others(c: &Cluster, found: &mut Vec<String>) {
    for ds in c.store.list::<DaemonSet>() {
        let s = &ds.status;
        if s.observed_generation < ds.metadata.generation
            || s.current_number_scheduled != s.desired_number_scheduled
            || s.number_ready != s.desired_number_scheduled
            || s.updated_number_scheduled != s.desired_number_scheduled
        {
            found.push(format!(
                "daemonset {} did not converge: desired {} current {} ready {} updated {}",
                ds.metadata.name,
                s.desired_number_scheduled,
                s.current_number_scheduled,
                s.number_ready,
                s.updated_number_scheduled
            ));
        }
    }
    for j in c.store.list::<Job>() {
        if j.is_finished().is_none() && !j.spec.is_suspended() {
            found.push(format!(
                "job {}/{} did not finish: {} active, {} succeeded, {} failed",
                j.metadata.namespace,
                j.metadata.name,
                j.status.active,
                j.status.succeeded,
                j.status.failed
            ));
        }
    }
    for ns in c.store.list::<Namespace>() {
        if ns.metadata.is_deleting() {
            found.push(format!("namespace {} stuck Terminating", ns.metadata.name));
        }
    }
}

/// Whether anything is broken on purpose right now.
pub(super) fn faults_active(c: &Cluster) -> bool {
    let f = &c.faults;
    let nodes_ok = c.kubelets.values().all(|k| k.up && !k.partitioned)
        && c.store
            .list::<Node>()
            .all(|n| !n.spec.unschedulable && n.spec.taints.iter().all(|t| t.key != "dedicated"))
        && c.store.list::<Node>().count() == c.kubelets.len();
    // A Pod on a node that is gone, or one being deleted, is a disruption still
    // under way.
    let pods_ok = c.store.list::<Pod>().all(|p| {
        !p.metadata.is_deleting()
            && (p.spec.node_name.is_empty() || c.kubelets.contains_key(&p.spec.node_name))
    });
    // A controller whose watch is broken (`sim watch break`) acts late: a fault too.
    let watches_ok = Ctl::ALL.iter().all(|l| !c.watch_broken(*l));
    !(nodes_ok
        && pods_ok
        && watches_ok
        && f.refused_images.is_empty()
        && f.crashing_images.is_empty()
        && f.unready.is_empty()
        && f.hung.is_empty())
}

/// The Deployments a command's rollout must keep within bounds: all of them when
/// it starts a rollout (or scales) with every Deployment complete and no fault.
pub(super) fn rollout_watch(c: &Cluster, line: &str) -> Vec<(String, bool)> {
    let rollout = [
        "kubectl set image",
        "kubectl rollout undo",
        "kubectl rollout restart",
    ]
    .iter()
    .any(|p| line.starts_with(p));
    let scale = line.starts_with("kubectl scale");
    if !(rollout || scale) || faults_active(c) {
        return vec![];
    }
    let ds: Vec<&Deployment> = c.store.list::<Deployment>().collect();
    // Complete by its status and by its Pods (a status can lag a deletion by a
    // controller's latency).
    let ready_pods = |d: &Deployment| {
        owned_sets(c, d)
            .iter()
            .flat_map(|rs| owned_pods(c, &rs.metadata.uid))
            .filter(|p| !p.metadata.is_deleting() && p.is_ready())
            .count() as i64
    };
    if !ds
        .iter()
        .all(|d| complete(c, d) && ready_pods(d) == d.spec.replicas)
    {
        return vec![];
    }
    // A Deployment another writer scales moves under the rollout (an HPA scales it; a
    // GitOps agent puts its declared count back, maybe mid-scale): scaled down while
    // the ReplicaSet controller has not yet deleted the surplus, it is briefly over
    // its bounds, and these are not the rollout's.
    let autoscaled = |d: &Deployment| {
        let hpa = c.store.list::<HorizontalPodAutoscaler>().any(|h| {
            h.metadata.namespace == d.metadata.namespace
                && h.spec.scale_target_ref.kind == "Deployment"
                && h.spec.scale_target_ref.name == d.metadata.name
        });
        let synced = c.controllers.gitops.syncs.get(&ObjKey::of(&d.metadata));
        hpa || (scale && synced.is_some_and(|s| s.declared.replicas == d.spec.replicas))
    };
    ds.iter()
        .filter(|d| !d.spec.paused && d.spec.strategy.type_ != "Recreate" && !autoscaled(d))
        .map(|d| (d.metadata.name.clone(), rollout))
        .collect()
}

/// A Deployment whose controller has seen its spec and which has all its replicas
/// updated, ready and available in one ReplicaSet.
fn complete(c: &Cluster, d: &Deployment) -> bool {
    let s = &d.status;
    let r = d.spec.replicas;
    let active = owned_sets(c, d)
        .iter()
        .filter(|rs| rs.spec.replicas > 0)
        .count();
    s.observed_generation >= d.metadata.generation
        && s.replicas == r
        && s.updated_replicas == r
        && s.ready_replicas == r
        && s.available_replicas == r
        && active <= 1
}

/// Upstream's own stall: a Recreate Deployment scaled (or switched to Recreate with a
/// new count) mid-rollout keeps two active ReplicaSets for ever, because `scale`
/// spreads a new count only for RollingUpdate (see `deployment::sync::scale`).
fn recreate_stall(c: &Cluster, d: &Deployment) -> bool {
    let sets: Vec<ReplicaSet> = owned_sets(c, d).into_iter().cloned().collect();
    d.spec.strategy.type_ == "Recreate"
        && sets.iter().filter(|rs| rs.spec.replicas > 0).count() >= 2
        && is_scaling_event(d, &sets)
}

/// The ReplicaSets `d` controls.
fn owned_sets<'a>(c: &'a Cluster, d: &Deployment) -> Vec<&'a ReplicaSet> {
    c.store
        .dependent_objects(&d.metadata.uid)
        .filter_map(|o| match o {
            Object::ReplicaSet(rs) => Some(rs.as_ref()),
            _ => None,
        })
        .filter(|rs| {
            rs.metadata
                .controller_ref()
                .is_some_and(|r| r.uid == d.metadata.uid)
        })
        .collect()
}

/// The Pods owned by `uid`.
fn owned_pods<'a>(c: &'a Cluster, uid: &str) -> Vec<&'a Pod> {
    c.store
        .dependent_objects(uid)
        .filter_map(|o| match o {
            Object::Pod(p) => Some(p.as_ref()),
            _ => None,
        })
        .collect()
}
