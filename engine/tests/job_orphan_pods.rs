//! The Job controller removes its `batch.kubernetes.io/job-tracking` finalizer from Pods
//! whose Job is gone (`syncOrphanPod`): a deleted Job's Pods go away instead of sitting
//! with a deletionTimestamp forever, an orphaned Pod keeps running without the
//! finalizer, and a `Replace` CronJob does not pile up one stuck Pod per run.

mod common;

use common::*;
use kubeplay_engine::api::{Kind, Pod};
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::controllers::job::JOB_TRACKING_FINALIZER;
use kubeplay_engine::time::SECOND;

const SLEEPER: &str = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: sleeper}\nspec:\n  parallelism: 2\n  completions: 2\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: c, image: busybox, command: [sh, -c, 'sleep 3600']}]\n";

fn job_pods<'a>(c: &'a Cluster, prefix: &str) -> Vec<&'a Pod> {
    c.store
        .list::<Pod>()
        .filter(|p| p.metadata.name.starts_with(prefix))
        .collect()
}

fn holds_finalizer(p: &Pod) -> bool {
    p.metadata
        .finalizers
        .iter()
        .any(|f| f == JOB_TRACKING_FINALIZER)
}

#[test]
fn the_pods_of_a_deleted_job_lose_the_tracking_finalizer_and_go_away() {
    let mut c = web_cluster(3);
    apply(&mut c, SLEEPER);
    c.advance(30 * SECOND);
    let pods = job_pods(&c, "sleeper-");
    assert_eq!(pods.len(), 2);
    assert!(pods.iter().all(|p| holds_finalizer(p) && p.is_ready()));
    sh(&mut c, "kubectl delete job sleeper");
    // The garbage collector deletes them; the Job controller releases them; the
    // kubelet stops them within their grace period.
    c.advance(40 * SECOND);
    assert!(
        job_pods(&c, "sleeper-").is_empty(),
        "{:?}",
        job_pods(&c, "sleeper-")
    );
    let releases = c
        .store
        .log
        .iter()
        .filter(|e| {
            e.kind == Kind::Pod
                && e.writer == "job-controller"
                && e.verb == "update"
                && e.key.name.starts_with("sleeper-")
        })
        .count();
    assert_eq!(releases, 2);
}

#[test]
fn a_pod_orphaned_from_its_job_keeps_running_without_the_finalizer() {
    let mut c = web_cluster(3);
    apply(&mut c, SLEEPER);
    c.advance(30 * SECOND);
    sh(&mut c, "kubectl delete job sleeper --cascade=orphan");
    c.advance(5 * SECOND);
    let pods = job_pods(&c, "sleeper-");
    assert_eq!(pods.len(), 2);
    for p in pods {
        assert!(!holds_finalizer(p), "{:?}", p.metadata.finalizers);
        assert!(p.metadata.owner_references.is_empty());
        assert!(p.metadata.deletion_timestamp.is_none());
        assert!(p.is_ready());
    }
}

#[test]
fn a_replace_cronjob_leaves_no_pod_stuck_behind_each_run() {
    let mut c = web_cluster(3);
    apply(
        &mut c,
        "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: tick}\nspec:\n  schedule: '* * * * *'\n  concurrencyPolicy: Replace\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers: [{name: c, image: busybox, command: [sh, -c, 'sleep 3600']}]\n",
    );
    c.advance(10 * 60 * SECOND);
    // One run at a time: the replaced runs' Pods are gone, not stuck terminating.
    let pods = job_pods(&c, "tick-");
    assert!(
        pods.len() <= 2,
        "{:?}",
        pods.iter().map(|p| &p.metadata.name).collect::<Vec<_>>()
    );
    assert_eq!(
        pods.iter()
            .filter(|p| p.metadata.deletion_timestamp.is_some())
            .count(),
        pods.len().saturating_sub(1)
    );
    assert_eq!(c.store.count(Kind::Job), 1);
}
