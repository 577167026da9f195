//! Orphan Pods: a Pod that still holds `batch.kubernetes.io/job-tracking` but whose
//! Job is gone (or that has no controller at all) is the Job controller's to release.
//! Upstream keeps a second queue for them (`orphanQueue`, `syncOrphanPod`); without it a
//! deleted Job's Pods would keep the finalizer, and so their deletionTimestamp, forever.

use super::controller_utils::{has_tracking_finalizer, release};
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::Request;

/// The Pods a change makes orphan-queue work for (`addPod`, `updatePod`, `deletePod`
/// and `deleteJob` each call `enqueueOrphanPod`).
pub(super) fn orphans_of(store: &Store, ch: &Change) -> Vec<ObjKey> {
    match ch.kind {
        Kind::Pod => match ch.new.as_deref() {
            Some(Object::Pod(p)) if is_orphan(store, p) => vec![ObjKey::of(&p.metadata)],
            _ => Vec::new(),
        },
        // `deleteJob`: every Pod it controlled that still holds the finalizer.
        Kind::Job if ch.new.is_none() => {
            let Some(Object::Job(job)) = ch.old.as_deref() else {
                return Vec::new();
            };
            super::controlled_pods(store, &job.metadata.uid)
                .filter(|p| has_tracking_finalizer(p))
                .map(|p| ObjKey::of(&p.metadata))
                .collect()
        }
        _ => Vec::new(),
    }
}

/// A Pod holding the finalizer whose controller is not a Job that exists (the Pod
/// handlers' `job == nil` branches, and the orphan branch).
fn is_orphan(store: &Store, p: &Pod) -> bool {
    if !has_tracking_finalizer(p) {
        return false;
    }
    match p.metadata.controller_ref() {
        Some(r) if r.kind == "Job" => {
            resolve_controller_ref(store, &p.metadata.namespace, r).is_none()
        }
        Some(_) => false,
        None => true,
    }
}

/// `resolveControllerRef`: the Job the reference names, if its uid still matches.
fn resolve_controller_ref<'a>(store: &'a Store, ns: &str, r: &OwnerReference) -> Option<&'a Job> {
    store
        .get::<Job>(&ObjKey::new(ns, &r.name))
        .filter(|j| j.metadata.uid == r.uid)
}

/// `syncOrphanPod`: remove the finalizer unless the Pod has since been adopted by a Job
/// that is still running, or is controlled by something other than a batch/v1 Job.
pub(super) fn sync_orphan_pod(store: &Store, key: &ObjKey) -> Option<Request> {
    let pod = store.get::<Pod>(key)?;
    if let Some(r) = pod.metadata.controller_ref() {
        if r.kind != "Job" || r.api_version != "batch/v1" {
            return None;
        }
        if let Some(job) = resolve_controller_ref(store, &pod.metadata.namespace, r) {
            // Adopted by a Job that is still running: its finalizer is that Job's.
            job.is_finished()?;
        }
    }
    has_tracking_finalizer(pod).then(|| release(pod))
}
