//! The Job controller: runs Pods until enough of them succeed, retrying failures with a
//! back-off, and declares the Job Complete or Failed.
//!
//! Upstream: `pkg/controller/job/job_controller.go` (`syncJob → getPodsForJob →
//! manageJob → trackJobStatusAndRemoveFinalizers → enactJobFinished`),
//! `backoff_utils.go` (the Pod-failure back-off), `indexed_job_utils.go`,
//! `pod_failure_policy.go` and `success_policy.go`, at v1.33 with its default feature
//! gates: the terminal condition is delayed (`FailureTarget` / `SuccessCriteriaMet`
//! first, `Failed` / `Complete` once no Pod is terminating), terminating Pods are
//! tracked, and success policies and per-index back-off limits are on.
//!
//! Two layers of retry, as the course tells them: with `restartPolicy: OnFailure` the
//! kubelet restarts the failed container in the same Pod (the RESTARTS column grows,
//! with the kubelet's 10 s → 5 min crash back-off) and the controller only sums those
//! restarts against `backoffLimit`; with `Never` the Pod fails and this controller
//! creates a new Pod (a new name), after its own back-off of 10 s doubling to 10 min.
//!
//! Counting each finished Pod exactly once: every Pod is created with the
//! `batch.kubernetes.io/job-tracking` finalizer; a finished Pod's uid is first written
//! to `status.uncountedTerminatedPods`, then its finalizer is removed, then it moves
//! into `succeeded` / `failed` — the three writes upstream makes, in its order.
//!
//! This file follows `job_controller.go`; beside it are the back-off (`backoff`), the
//! Indexed Job helpers (`indexes`), the policies (`policy`) and what the controller
//! takes from `controller_utils.go` (`controller_utils`).
//!
//! Expectations: as for the ReplicaSet controller, the requests of a sync are applied
//! before the next sync, so the cache is never behind the controller's own writes.

mod backoff;
mod controller_utils;
mod indexes;
mod orphan;
mod policy;
#[cfg(test)]
mod tests;

pub use backoff::{
    finished_time, BackoffRecord, DEFAULT_POD_FAILURE_BACKOFF, MAX_POD_FAILURE_BACKOFF,
};
pub use controller_utils::{pod_from_job, sort_active_pods, JOB_TRACKING_FINALIZER};
pub use indexes::{parse_indexes, OrderedIntervals, JOB_COMPLETION_INDEX};

use backoff::new_backoff_record;
use controller_utils::{create_pod, delete_job_pod, delete_pod, has_tracking_finalizer, release};
use indexes::{succeeded_indexes, valid_index};

use super::{Controller, Ctx, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::writer;
use crate::client::{event_ref, Component, Request};
use crate::time::{rfc3339, SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet};
/// `syncJobBatchPeriod`: Pod changes are synced in batches at most this often.
pub const SYNC_JOB_BATCH_PERIOD: SimTime = SECOND;
/// `MaxPodCreateDeletePerSync`.
pub const MAX_POD_CREATE_DELETE_PER_SYNC: usize = 500;

/// The Job controller's timers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JobTimer {
    /// `enqueueSyncJobBatched`: a Pod of this Job changed a batch period ago.
    Batched(ObjKey),
    /// `enqueueOrphanPod`: this Pod holds the tracking finalizer but no running Job
    /// controls it (`syncOrphanPod`).
    Orphan(ObjKey),
}

/// The Job controller: its in-memory back-off records (lost on restart, as upstream's).
#[derive(Clone, Debug, Default)]
pub struct JobController {
    /// `podBackoffStore`, by Job.
    pub backoff: BTreeMap<ObjKey, BackoffRecord>,
    /// Pod-change syncs already armed (one batch per Job at a time).
    batched: BTreeSet<ObjKey>,
}

impl Controller for JobController {
    type Key = ObjKey;
    type Timer = JobTimer;
    const WATCHES: &'static [Kind] = &[Kind::Job, Kind::Pod];

    fn identity() -> Component {
        Component::named(writer::JOB_CONTROLLER)
    }

    /// `addJob`, `updateJob`, `deleteJob` sync at once; a Pod change of a Job
    /// (`addPod`, `updatePod`, `deletePod`) syncs it a batch period later.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, JobTimer>) {
        for pod in orphan::orphans_of(ctx.store, ch) {
            ctx.after(ctx.now, JobTimer::Orphan(pod));
        }
        match ch.kind {
            Kind::Job => {
                if let Some(o) = ch.new.as_deref().or(ch.old.as_deref()) {
                    ctx.enqueue(ObjKey::of(o.meta()));
                }
            }
            Kind::Pod => {
                for obj in [ch.old.as_deref(), ch.new.as_deref()].into_iter().flatten() {
                    let meta = obj.meta();
                    if let Some(r) = meta.controller_ref().filter(|r| r.kind == "Job") {
                        let key = ObjKey::new(&meta.namespace, &r.name);
                        if self.batched.insert(key.clone()) {
                            ctx.after(ctx.now + SYNC_JOB_BATCH_PERIOD, JobTimer::Batched(key));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, JobTimer>) -> Reconcile {
        self.sync_job(ctx.store, key, ctx.now)
    }

    fn on_timer(&mut self, timer: JobTimer, ctx: &mut Ctx<'_, ObjKey, JobTimer>) -> Vec<Request> {
        match timer {
            JobTimer::Batched(key) => {
                self.batched.remove(&key);
                ctx.enqueue(key);
                Vec::new()
            }
            JobTimer::Orphan(pod) => orphan::sync_orphan_pod(ctx.store, &pod)
                .into_iter()
                .collect(),
        }
    }
}

/// What one sync observed and decided (upstream's `syncJobCtx`).
struct SyncCtx<'a> {
    job: &'a Job,
    pods: Vec<&'a Pod>,
    active: Vec<&'a Pod>,
    terminating: i64,
    ready: i64,
    succeeded: i64,
    failed: i64,
    succeeded_indexes: OrderedIntervals,
    finished: Option<Condition>,
    /// Pods this sync creates (`active += diff` after `ExpectCreations`).
    created: i64,
    now: SimTime,
}

impl JobController {
    /// `syncJob`.
    pub fn sync_job(&mut self, store: &Store, key: &ObjKey, now: SimTime) -> Reconcile {
        let mut out = Reconcile::default();
        let Some(job) = store.get::<Job>(key) else {
            self.backoff.remove(key);
            return out;
        };
        if job.is_finished().is_some() {
            self.backoff.remove(key);
            return out;
        }
        let pods = get_pods_for_job(store, job);
        let active: Vec<&Pod> = pods.iter().copied().filter(|p| p.is_active()).collect();
        let terminating = pods
            .iter()
            .filter(|p| !p.is_terminal() && p.metadata.is_deleting())
            .count() as i64;
        let ready = active.iter().filter(|p| p.is_ready()).count() as i64;
        let (new_succeeded, new_failed) = new_finished_pods(job, &pods);
        let uncounted = job
            .status
            .uncounted_terminated_pods
            .clone()
            .unwrap_or_default();
        let counted_failed = new_failed
            .iter()
            .filter(|p| !policy::ignored(job, p))
            .count() as i64;
        let mut status = job.status.clone();
        if status.start_time.is_none() && !job.spec.is_suspended() {
            status.start_time = Some(rfc3339(now));
            status.start_ms = Some(now);
        }
        let mut sc = SyncCtx {
            job,
            active,
            terminating,
            ready,
            succeeded: job.status.succeeded
                + new_succeeded.len() as i64
                + uncounted.succeeded.len() as i64,
            failed: job.status.failed + counted_failed + uncounted.failed.len() as i64,
            succeeded_indexes: OrderedIntervals::default(),
            finished: None,
            created: 0,
            pods,
            now,
        };
        // The back-off record: consecutive failures since the last success.
        let record = new_backoff_record(
            self.backoff.get(key).cloned().unwrap_or_default(),
            &new_succeeded,
            &new_failed,
        );
        let exceeds_backoff_limit = sc.failed > job.spec.backoff_limit();
        let start_ms = status.start_ms;
        sc.finished = if let Some(c) = job.condition_true(JobConditionType::SuccessCriteriaMet) {
            Some(c.clone())
        } else if let Some(c) = job.condition_true(JobConditionType::FailureTarget) {
            Some(new_condition(
                JobConditionType::Failed,
                &c.reason,
                &c.message,
                now,
            ))
        } else if let Some(msg) = policy::fail_job_message(job, &new_failed) {
            Some(new_condition(
                JobConditionType::FailureTarget,
                JobConditionReason::PodFailurePolicy,
                &msg,
                now,
            ))
        } else if exceeds_backoff_limit || past_backoff_limit_on_failure(job, &sc.pods) {
            Some(new_condition(
                JobConditionType::FailureTarget,
                JobConditionReason::BackoffLimitExceeded,
                "Job has reached the specified backoff limit",
                now,
            ))
        } else if past_active_deadline(job, start_ms, now) {
            Some(new_condition(
                JobConditionType::FailureTarget,
                JobConditionReason::DeadlineExceeded,
                "Job was active longer than specified deadline",
                now,
            ))
        } else {
            if let (Some(ads), Some(start), false) = (
                job.spec.active_deadline_seconds,
                start_ms,
                job.spec.is_suspended(),
            ) {
                let deadline = crate::time::after_seconds(start, ads);
                out.requeue_after = Some(deadline.saturating_sub(now).max(1));
            }
            None
        };
        if job.spec.is_indexed() {
            sc.succeeded_indexes = succeeded_indexes(job, &new_succeeded);
            sc.succeeded = sc.succeeded_indexes.total();
            if sc.finished.is_none() {
                if let Some(i) = policy::match_success_policy(job, &sc.succeeded_indexes) {
                    sc.finished = Some(new_condition(
                        JobConditionType::SuccessCriteriaMet,
                        JobConditionReason::SuccessPolicy,
                        &format!("Matched rules at index {i}"),
                        now,
                    ));
                }
            }
        }
        let mut requests = Vec::new();
        if sc.finished.is_some() {
            // Every Pod still running is deleted, keeping its finalizer: it is counted
            // (as failed, unless the Job succeeded) when its finalizer is removed below.
            let n = sc.active.len() as i64;
            for p in std::mem::take(&mut sc.active) {
                requests.push(delete_pod(job, p));
            }
            sc.terminating += n;
            sc.ready = 0;
        } else {
            if !job.metadata.is_deleting() {
                let (reqs, requeue) = self.manage_job(&mut sc, &record);
                requests.extend(reqs);
                if let Some(r) = requeue {
                    out.requeue_after = Some(out.requeue_after.map_or(r, |x| x.min(r)));
                }
            }
            let active = sc.active.len() as i64 + sc.created;
            let complete = match job.spec.completions {
                None => sc.succeeded > 0 && active == 0,
                Some(c) => sc.succeeded >= c && active == 0,
            };
            if complete {
                sc.finished = Some(new_condition(
                    JobConditionType::SuccessCriteriaMet,
                    JobConditionReason::CompletionsReached,
                    "Reached expected number of succeeded pods",
                    now,
                ));
            } else if !job.metadata.is_deleting() {
                self.sync_suspend(job, &mut status, &mut requests, now);
            }
        }
        status.active = sc.active.len() as i64 + sc.created;
        status.ready = Some(sc.ready);
        status.terminating = Some(sc.terminating);
        requests.extend(self.track_job_status_and_remove_finalizers(&sc, status, record, key));
        out.requests = requests;
        out
    }

    /// `manageJob`: create or delete Pods towards `wantActive`; returns the requests
    /// and, while the Pod-failure back-off holds creations, when to look again.
    fn manage_job(
        &mut self,
        sc: &mut SyncCtx<'_>,
        record: &BackoffRecord,
    ) -> (Vec<Request>, Option<SimTime>) {
        let job = sc.job;
        let mut requests = Vec::new();
        let active = sc.active.len() as i64;
        if job.spec.is_suspended() {
            // Suspend: every active Pod goes, its finalizer removed first, so the
            // deletions are not counted as failures.
            let mut victims = sc.active.clone();
            sort_active_pods(&mut victims);
            for p in &victims {
                requests.extend(delete_job_pod(job, p));
            }
            sc.terminating += victims.len() as i64;
            sc.ready -= victims.iter().filter(|p| p.is_ready()).count() as i64;
            sc.active.clear();
            return (requests, None);
        }
        let parallelism = job.spec.parallelism();
        let want_active = match job.spec.completions {
            None if sc.succeeded > 0 => active,
            None => parallelism,
            Some(c) => parallelism.min(c - sc.succeeded).max(0),
        };
        let rm_at_least = (active - want_active).max(0) as usize;
        let victims = active_pods_for_removal(job, &sc.active, rm_at_least);
        if !victims.is_empty() {
            let victims: Vec<&Pod> = victims
                .into_iter()
                .take(MAX_POD_CREATE_DELETE_PER_SYNC)
                .collect();
            for p in &victims {
                requests.extend(delete_job_pod(job, p));
            }
            sc.terminating += victims.len() as i64;
            sc.ready -= victims.iter().filter(|p| p.is_ready()).count() as i64;
            let gone: BTreeSet<&str> =
                crate::sorting::btree_set(victims.iter().map(|p| p.metadata.uid.as_str()));
            sc.active
                .retain(|p| !gone.contains(p.metadata.uid.as_str()));
            // Pod deletion takes precedence: no creations in the same sync.
            return (requests, None);
        }
        let terminating = if only_replace_failed_pods(job) {
            sc.terminating
        } else {
            0
        };
        let diff = want_active - terminating - active;
        if diff <= 0 {
            return (requests, None);
        }
        let remaining = record.remaining(sc.now);
        if remaining > 0 {
            // v1.33 writes `active` as 0 while the back-off holds the replacement.
            sc.active.clear();
            return (requests, Some(remaining.max(SYNC_JOB_BATCH_PERIOD)));
        }
        let diff = (diff as usize).min(MAX_POD_CREATE_DELETE_PER_SYNC);
        let creates: Vec<Request> = if job.spec.is_indexed() {
            first_pending_indexes(sc, diff)
                .into_iter()
                .map(|i| create_pod(job, Some(i)))
                .collect()
        } else {
            (0..diff).map(|_| create_pod(job, None)).collect()
        };
        sc.created = creates.len() as i64;
        if !creates.is_empty() {
            requests.push(Request::SlowStart(creates));
        }
        (requests, None)
    }

    /// The suspend and resume half of `syncJob`: the `Suspended` condition and its
    /// Events; a resumed Job's `startTime` restarts its deadline.
    fn sync_suspend(
        &self,
        job: &Job,
        status: &mut JobStatus,
        requests: &mut Vec<Request>,
        now: SimTime,
    ) {
        let (want, reason, message, event) = if job.spec.is_suspended() {
            (
                ConditionStatus::True,
                JobConditionReason::JobSuspended,
                "Job suspended",
                "Suspended",
            )
        } else {
            (
                ConditionStatus::False,
                JobConditionReason::JobResumed,
                "Job resumed",
                "Resumed",
            )
        };
        let existing = status
            .conditions
            .iter()
            .position(|c| c.type_ == JobConditionType::Suspended);
        let changed = match existing {
            // A False condition is never appended when there is none.
            None if want == ConditionStatus::False => false,
            None => {
                status.conditions.push(new_condition(
                    JobConditionType::Suspended,
                    reason,
                    message,
                    now,
                ));
                true
            }
            Some(i) => {
                let c = &status.conditions[i];
                if c.status == want && c.reason == reason && c.message == message {
                    false
                } else {
                    let mut n = new_condition(JobConditionType::Suspended, reason, message, now);
                    n.status = want.into();
                    status.conditions[i] = n;
                    true
                }
            }
        };
        if changed {
            requests.push(job_event(job, EventType::Normal, event, message));
            if want == ConditionStatus::False {
                status.start_time = Some(rfc3339(now));
                status.start_ms = Some(now);
            }
        }
    }

    /// `trackJobStatusAndRemoveFinalizers`, `flushUncountedAndRemoveFinalizers` and
    /// `enactJobFinished`: count the finished Pods still holding the finalizer, write
    /// them as uncounted with any interim condition, remove their finalizers, move them
    /// into the counters, and add the terminal condition once nothing terminates.
    fn track_job_status_and_remove_finalizers(
        &mut self,
        sc: &SyncCtx<'_>,
        mut status: JobStatus,
        record: BackoffRecord,
        key: &ObjKey,
    ) -> Vec<Request> {
        let job = sc.job;
        let mut uncounted = status.uncounted_terminated_pods.take().unwrap_or_default();
        // Uids whose Pods no longer hold the finalizer are counted now.
        let holding: BTreeSet<&str> = crate::sorting::btree_set(
            sc.pods
                .iter()
                .filter(|p| has_tracking_finalizer(p))
                .map(|p| p.metadata.uid.as_str()),
        );
        let (s_done, s_left): (Vec<String>, Vec<String>) = std::mem::take(&mut uncounted.succeeded)
            .into_iter()
            .partition(|u| !holding.contains(u.as_str()));
        let (f_done, f_left): (Vec<String>, Vec<String>) = std::mem::take(&mut uncounted.failed)
            .into_iter()
            .partition(|u| !holding.contains(u.as_str()));
        status.succeeded += s_done.len() as i64;
        status.failed += f_done.len() as i64;
        uncounted.succeeded = s_left;
        uncounted.failed = f_left;
        let finishing_as_failure = sc
            .finished
            .as_ref()
            .is_some_and(|c| c.type_ != JobConditionType::SuccessCriteriaMet);
        let mut to_release: Vec<&Pod> = Vec::new();
        let mut new_indexes = BTreeSet::new();
        let listed: BTreeSet<String> = crate::sorting::btree_set(
            uncounted
                .succeeded
                .iter()
                .chain(uncounted.failed.iter())
                .cloned(),
        );
        for p in sc.pods.iter().filter(|p| has_tracking_finalizer(p)) {
            if listed.contains(&p.metadata.uid) {
                continue;
            }
            let succeeded = p.status.phase == PodPhase::Succeeded;
            let failed = is_pod_failed(job, p);
            let can_remove =
                job.metadata.is_deleting() || sc.finished.is_some() || succeeded || failed;
            if !can_remove {
                continue;
            }
            if succeeded {
                if job.spec.is_indexed() {
                    if let Some(i) = valid_index(job, p) {
                        new_indexes.insert(i);
                    }
                } else {
                    uncounted.succeeded.push(p.metadata.uid.clone());
                }
            } else if (failed || finishing_as_failure) && !policy::ignored(job, p) {
                uncounted.failed.push(p.metadata.uid.clone());
            }
            to_release.push(p);
        }
        if job.spec.is_indexed() {
            let all = sc.succeeded_indexes.with_indexes(new_indexes);
            status.completed_indexes = all.to_string();
            status.succeeded = all.total();
        }
        // The interim condition is written with the first flush.
        let mut terminal = sc.finished.clone();
        if let Some(c) = &terminal {
            let interim = JobConditionType::parse(&c.type_).filter(|t| {
                matches!(
                    t,
                    JobConditionType::FailureTarget | JobConditionType::SuccessCriteriaMet
                )
            });
            if let Some(interim) = interim {
                if job.condition_true(interim).is_none() {
                    status.conditions.push(c.clone());
                }
                let t = if interim == JobConditionType::FailureTarget {
                    JobConditionType::Failed
                } else {
                    JobConditionType::Complete
                };
                terminal = Some(new_condition(t, &c.reason, &c.message, sc.now));
            }
        }
        let mut requests = Vec::new();
        if !to_release.is_empty() {
            let mut first = status.clone();
            first.uncounted_terminated_pods = Some(uncounted.clone());
            requests.push(update_status(job, first, false));
            for p in &to_release {
                requests.push(release(p));
            }
            status.succeeded += uncounted.succeeded.len() as i64;
            status.failed += uncounted.failed.len() as i64;
            uncounted = UncountedTerminatedPods::default();
        }
        self.backoff.insert(key.clone(), record);
        status.uncounted_terminated_pods = Some(uncounted.clone());
        // `enactJobFinished`: only with nothing uncounted and nothing terminating.
        let mut finished_event = None;
        if let Some(t) = terminal {
            let nothing_left = uncounted.succeeded.is_empty()
                && uncounted.failed.is_empty()
                && status.terminating.unwrap_or(0) == 0;
            if nothing_left {
                if t.type_ == JobConditionType::Complete {
                    status.completion_time = Some(rfc3339(sc.now));
                    status.completion_ms = Some(sc.now);
                }
                finished_event = Some(t.clone());
                status.conditions.push(t);
            }
        }
        if status != job.status {
            requests.push(update_status(job, status.clone(), !to_release.is_empty()));
        }
        if let Some(t) = finished_event {
            self.backoff.remove(key);
            if t.type_ == JobConditionType::Complete {
                if job.spec.completions.is_some_and(|c| status.succeeded > c) {
                    requests.push(job_event(
                        job,
                        EventType::Warning,
                        "TooManySucceededPods",
                        "Too many succeeded pods running after completion count reached",
                    ));
                }
                requests.push(job_event(
                    job,
                    EventType::Normal,
                    "Completed",
                    "Job completed",
                ));
            } else {
                requests.push(job_event(job, EventType::Warning, &t.reason, &t.message));
            }
        }
        requests
    }
}

/// A new `True` condition of `type_` (`lastProbeTime` = `lastTransitionTime` = now).
fn new_condition(
    type_: JobConditionType,
    reason: impl AsRef<str>,
    message: &str,
    now: SimTime,
) -> Condition {
    Condition {
        type_: type_.into(),
        status: ConditionStatus::True.into(),
        last_probe_time: Some(rfc3339(now)),
        last_transition_time: Some(rfc3339(now)),
        reason: reason.as_ref().into(),
        message: message.into(),
        transition_ms: now,
        ..Default::default()
    }
}

fn update_status(job: &Job, status: JobStatus, blind: bool) -> Request {
    let mut j = job.clone();
    j.status = status;
    if blind {
        Request::blind_update_status(Object::Job(Box::new(j)))
    } else {
        Request::UpdateStatus(Object::Job(Box::new(j)))
    }
}

fn job_event(job: &Job, type_: EventType, reason: &str, message: &str) -> Request {
    Request::Event {
        involved: event_ref(Kind::Job, &job.metadata),
        type_,
        reason: reason.into(),
        message: message.into(),
    }
}

/// `getPodsForJob`: the Pods this Job controls (the generated selector names the
/// Job's uid, so a Pod of another Job never matches; a Pod released by a selector
/// change is not followed).
fn get_pods_for_job<'a>(store: &'a Store, job: &'a Job) -> Vec<&'a Pod> {
    let sel = job.spec.selector.clone().unwrap_or_default();
    controlled_pods(store, &job.metadata.uid)
        .filter(|p| sel.matches(&p.metadata.labels))
        .collect()
}

/// The Pods whose controller is the Job of `uid` (the owner index, then the
/// controller reference).
fn controlled_pods<'a>(store: &'a Store, uid: &'a str) -> impl Iterator<Item = &'a Pod> + 'a {
    store
        .dependent_objects(uid)
        .filter_map(|o| match o {
            Object::Pod(p) => Some(&**p),
            _ => None,
        })
        .filter(move |p| p.metadata.controller_ref().map(|r| r.uid.as_str()) == Some(uid))
}

/// `onlyReplaceFailedPods`: `podReplacementPolicy: Failed`, or a podFailurePolicy.
fn only_replace_failed_pods(job: &Job) -> bool {
    job.spec.pod_replacement_policy.as_deref() == Some("Failed")
        || job.spec.pod_failure_policy.is_some()
}

/// `isPodFailed`: Failed, or (unless only failed Pods are replaced) being deleted
/// before it succeeded — a deleted Pod counts as a failure at once.
fn is_pod_failed(job: &Job, p: &Pod) -> bool {
    if p.status.phase == PodPhase::Failed {
        return true;
    }
    if only_replace_failed_pods(job) {
        return false;
    }
    p.metadata.is_deleting() && p.status.phase != PodPhase::Succeeded
}

/// `getNewFinishedPods`: finished Pods still holding the finalizer and not yet listed
/// as uncounted (an Indexed Job's need a valid index).
fn new_finished_pods<'a>(job: &Job, pods: &[&'a Pod]) -> (Vec<&'a Pod>, Vec<&'a Pod>) {
    let uncounted = job
        .status
        .uncounted_terminated_pods
        .clone()
        .unwrap_or_default();
    let listed = |p: &Pod| {
        uncounted.succeeded.contains(&p.metadata.uid) || uncounted.failed.contains(&p.metadata.uid)
    };
    let candidates = pods
        .iter()
        .copied()
        .filter(|p| has_tracking_finalizer(p) && !listed(p))
        .filter(|p| !job.spec.is_indexed() || valid_index(job, p).is_some());
    let mut succeeded = Vec::new();
    let mut failed = Vec::new();
    for p in candidates {
        if p.status.phase == PodPhase::Succeeded {
            succeeded.push(p);
        } else if is_pod_failed(job, p) {
            failed.push(p);
        }
    }
    (succeeded, failed)
}

/// `pastBackoffLimitOnFailure`: with OnFailure, the container restarts of the Pods
/// still Pending or Running, summed, reach backoffLimit (any restart when it is 0).
fn past_backoff_limit_on_failure(job: &Job, pods: &[&Pod]) -> bool {
    if job.spec.template.spec.restart_policy != "OnFailure" {
        return false;
    }
    let restarts: i64 = pods
        .iter()
        .filter(|p| p.status.phase == PodPhase::Running || p.status.phase == PodPhase::Pending)
        .flat_map(|p| {
            p.status
                .init_container_statuses
                .iter()
                .chain(p.status.container_statuses.iter())
        })
        .map(|c| c.restart_count)
        .sum();
    let limit = job.spec.backoff_limit();
    if limit == 0 {
        restarts > 0
    } else {
        restarts >= limit
    }
}

/// `pastActiveDeadline`.
fn past_active_deadline(job: &Job, start: Option<SimTime>, now: SimTime) -> bool {
    match (job.spec.active_deadline_seconds, start) {
        (Some(ads), Some(start)) if !job.spec.is_suspended() => {
            now >= crate::time::after_seconds(start, ads)
        }
        _ => false,
    }
}

/// `firstPendingIndexes`: the lowest indexes neither succeeded nor active (nor
/// terminating, when only failed Pods are replaced).
fn first_pending_indexes(sc: &SyncCtx<'_>, n: usize) -> Vec<i64> {
    let job = sc.job;
    let completions = job.spec.completions.unwrap_or(0);
    let mut taken: Vec<i64> = sc
        .active
        .iter()
        .filter_map(|p| valid_index(job, p))
        .collect();
    if only_replace_failed_pods(job) {
        taken.extend(
            sc.pods
                .iter()
                .filter(|p| !p.is_terminal() && p.metadata.is_deleting())
                .filter_map(|p| valid_index(job, p)),
        );
    }
    // Over the intervals' gaps: a Job of 2,147,483,647 completions costs its Pods and
    // intervals, not a walk over every index.
    sc.succeeded_indexes
        .with_indexes(taken)
        .first_missing(completions, n)
}

/// `activePodsForRemoval`: an Indexed Job's Pods with no valid index or a duplicated
/// one first, then the least useful by `controller.ActivePods`.
fn active_pods_for_removal<'a>(job: &Job, active: &[&'a Pod], n: usize) -> Vec<&'a Pod> {
    let mut rm: Vec<&Pod> = Vec::new();
    let mut left: Vec<&Pod> = Vec::new();
    if job.spec.is_indexed() {
        let mut by_index: BTreeMap<i64, Vec<&Pod>> = BTreeMap::new();
        for p in active {
            match valid_index(job, p) {
                Some(i) => by_index.entry(i).or_default().push(p),
                None => rm.push(p),
            }
        }
        for (_, mut ps) in by_index {
            sort_active_pods(&mut ps);
            let keep = ps.pop();
            rm.extend(ps);
            left.extend(keep);
        }
    } else {
        left = active.to_vec();
    }
    if rm.len() < n {
        sort_active_pods(&mut left);
        let more = n - rm.len();
        rm.extend(left.into_iter().take(more));
    }
    rm
}
