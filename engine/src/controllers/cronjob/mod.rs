//! The CronJob controller: creates a Job at each scheduled time, keeps the active list,
//! applies the concurrency policy and the starting deadline, and trims finished Jobs to
//! the history limits.
//!
//! Upstream: `pkg/controller/cronjob/cronjob_controllerv2.go` (`sync → syncCronJob →
//! cleanupFinishedJobs`) and `utils.go` (`mostRecentScheduleTime`, `nextScheduleTime`,
//! `nextScheduleTimeDuration`, `getJobFromTemplate2`), v1.33.
//!
//! The controller wakes at each next schedule time (plus upstream's 100 ms
//! `nextScheduleDelta`). Those wake-ups are background work: a cluster whose only
//! pending work is a future schedule is settled, and `sim advance` plays the schedule —
//! a day of `*/5` runs is a few seconds of page time at high speed.

use super::{Controller, Ctx, Reconcile};
use crate::api::cron::{self as schedule, Schedule, Zone};
use crate::api::*;
use crate::apiserver::{Change, DeleteOptions, ObjKey, Store};
use crate::client::writer;
use crate::client::{controller_ref, event_ref, Component, Request};
use crate::time::{parse_rfc3339, rfc3339, SimTime, EPOCH_UNIX_SECONDS};
use std::borrow::Cow;

/// The annotation a scheduled Job carries: its nominal time, in the CronJob's zone.
pub const SCHEDULED_TIMESTAMP: &str = "batch.kubernetes.io/cronjob-scheduled-timestamp";
/// `nextScheduleDelta`.
const NEXT_SCHEDULE_DELTA: SimTime = 100;

/// The CronJob controller (stateless).
#[derive(Clone, Debug, Default)]
pub struct CronJobController;

/// Wake a CronJob at its next schedule time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NextSchedule(pub ObjKey);

impl Controller for CronJobController {
    type Key = ObjKey;
    type Timer = NextSchedule;
    const WATCHES: &'static [Kind] = &[Kind::Job, Kind::CronJob];

    fn identity() -> Component {
        Component::named(writer::CRONJOB_CONTROLLER)
    }

    /// `addCronJob`, `updateCronJob`, and a Job's change for the CronJob that controls it.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NextSchedule>) {
        match ch.kind {
            Kind::CronJob => {
                if let Some(o) = ch.new.as_deref().or(ch.old.as_deref()) {
                    ctx.enqueue(ObjKey::of(o.meta()));
                }
            }
            Kind::Job => {
                for o in [ch.old.as_deref(), ch.new.as_deref()].into_iter().flatten() {
                    let m = o.meta();
                    if let Some(r) = m.controller_ref().filter(|r| r.kind == "CronJob") {
                        ctx.enqueue(ObjKey::new(&m.namespace, &r.name));
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NextSchedule>) -> Reconcile {
        let (r, next) = sync(ctx.store, key, ctx.now);
        if let Some(at) = next {
            ctx.after(at, NextSchedule(key.clone()));
        }
        r
    }

    fn on_timer(
        &mut self,
        timer: NextSchedule,
        ctx: &mut Ctx<'_, ObjKey, NextSchedule>,
    ) -> Vec<Request> {
        ctx.enqueue(timer.0);
        Vec::new()
    }

    /// A future schedule is not pending work.
    fn is_background(&self, _: &NextSchedule, _: &dyn Fn(&str) -> bool) -> bool {
        true
    }
}

/// The Jobs `cj` controls.
fn jobs_of<'a>(store: &'a Store, cj: &'a CronJob) -> Vec<&'a Job> {
    let mut jobs: Vec<&Job> = store
        .dependent_objects(&cj.metadata.uid)
        .filter_map(|o| match o {
            Object::Job(j) => Some(&**j),
            _ => None,
        })
        .filter(|j| {
            j.metadata.controller_ref().map(|r| r.uid.as_str()) == Some(cj.metadata.uid.as_str())
        })
        .collect();
    crate::sorting::sort_by(&mut jobs, |a, b| a.metadata.name.cmp(&b.metadata.name));
    jobs
}

fn zone_of(cj: &CronJob) -> Option<Zone> {
    match &cj.spec.time_zone {
        None => schedule::zone_offset("UTC"),
        Some(tz) => schedule::zone_offset(tz),
    }
}

/// `sync`: `syncCronJob`, then `cleanupFinishedJobs`, then the status; the time to
/// look again.
pub fn sync(store: &Store, key: &ObjKey, now: SimTime) -> (Reconcile, Option<SimTime>) {
    let mut out = Reconcile::default();
    let Some(cj) = store.get::<CronJob>(key) else {
        return (out, None);
    };
    let jobs = jobs_of(store, cj);
    // The status is copied only when something changes it: in the steady state (a
    // CronJob with a long active list, synced every second) nothing does.
    let mut status: Cow<'_, CronJobStatus> = Cow::Borrowed(&cj.status);
    let mut requests = Vec::new();
    let event = |type_, reason: &str, message: String| Request::Event {
        involved: event_ref(Kind::CronJob, &cj.metadata),
        type_,
        reason: reason.into(),
        message,
    };
    // The active list and the Jobs by uid: each lookup a set's, not a walk of the
    // other list (a CronJob whose Jobs never end lists thousands).
    let active: std::collections::BTreeSet<String> =
        crate::sorting::btree_set(status.active.iter().map(|r| r.uid.clone()));
    let listed: std::collections::BTreeSet<&str> =
        crate::sorting::btree_set(jobs.iter().map(|j| j.metadata.uid.as_str()));
    let mut seen_done: std::collections::BTreeSet<String> = Default::default();
    for j in &jobs {
        let found = active.contains(&j.metadata.uid);
        let finished = j.is_finished();
        if !found && finished.is_none() {
            requests.push(event(
                EventType::Warning,
                "UnexpectedJob",
                format!(
                    "Saw a job that the controller did not create or forgot: {}",
                    j.metadata.name
                ),
            ));
        } else if found && finished.is_some() {
            let cond = finished.map(|c| c.type_.clone()).unwrap_or_default();
            seen_done.insert(j.metadata.uid.clone());
            requests.push(event(
                EventType::Normal,
                "SawCompletedJob",
                format!("Saw completed job: {}, condition: {cond}", j.metadata.name),
            ));
        } else if j.condition_true(JobConditionType::Complete).is_some() {
            let done = j.status.completion_ms;
            let last = status
                .last_successful_time
                .as_deref()
                .and_then(parse_rfc3339);
            if let Some(t) = done.filter(|t| last.is_none_or(|l| *t > l)) {
                status.to_mut().last_successful_time = Some(rfc3339(t));
            }
        }
        // A Job seen completing while listed also sets the last success.
        if found && j.condition_true(JobConditionType::Complete).is_some() {
            let last = status
                .last_successful_time
                .as_deref()
                .and_then(parse_rfc3339);
            if let Some(t) = j
                .status
                .completion_ms
                .filter(|t| last.is_none_or(|l| *t > l))
            {
                status.to_mut().last_successful_time = Some(rfc3339(t));
            }
        }
    }
    if !seen_done.is_empty() {
        status
            .to_mut()
            .active
            .retain(|r| !seen_done.contains(&r.uid));
    }
    // Active references whose Job is gone.
    let missing = status
        .active
        .iter()
        .any(|r| !listed.contains(r.uid.as_str()));
    if missing {
        status.to_mut().active.retain(|r| {
            let gone = !listed.contains(r.uid.as_str());
            if gone {
                requests.push(event(
                    EventType::Normal,
                    "MissingJob",
                    format!("Active job went missing: {}", r.name),
                ));
            }
            !gone
        });
    }
    let next = sync_schedule(cj, &jobs, &mut status, &mut requests, now);
    cleanup_finished_jobs(cj, &jobs, &mut status, &mut requests);
    if let Cow::Owned(status) = status {
        if status != cj.status {
            let mut updated = cj.clone();
            updated.status = status;
            requests.push(Request::blind_update_status(Object::CronJob(Box::new(
                updated,
            ))));
        }
    }
    out.requests = requests;
    (out, next)
}

/// The scheduling half of `syncCronJob`: the Job of the most recent unmet schedule
/// time, if it is not too late and the concurrency policy allows; the next wake-up.
fn sync_schedule(
    cj: &CronJob,
    jobs: &[&Job],
    status: &mut Cow<'_, CronJobStatus>,
    requests: &mut Vec<Request>,
    now: SimTime,
) -> Option<SimTime> {
    let event = |type_, reason: &str, message: String| Request::Event {
        involved: event_ref(Kind::CronJob, &cj.metadata),
        type_,
        reason: reason.into(),
        message,
    };
    if cj.metadata.is_deleting() {
        return None;
    }
    let Some(zone) = zone_of(cj) else {
        let tz = cj.spec.time_zone.clone().unwrap_or_default();
        requests.push(event(
            EventType::Warning,
            "UnknownTimeZone",
            format!("invalid timeZone: \"{tz}\": unknown time zone {tz}"),
        ));
        return None;
    };
    if cj.spec.suspend == Some(true) {
        return None;
    }
    let sched = match schedule::parse(&cj.spec.schedule) {
        Ok(s) => s,
        Err(e) => {
            requests.push(event(
                EventType::Warning,
                "UnparseableSchedule",
                format!("unparseable schedule: \"{}\" : {e}", cj.spec.schedule),
            ));
            return None;
        }
    };
    let recent = most_recent_schedule_time(cj, status, now, &sched, &zone, true);
    let scheduled = match recent {
        Err(e) => {
            requests.push(event(
                EventType::Warning,
                "InvalidSchedule",
                format!("invalid schedule: {} : {e}", cj.spec.schedule),
            ));
            return None;
        }
        Ok((_, None, _)) => {
            return next_schedule_time(cj, status, now, &sched, &zone);
        }
        Ok((_, Some(t), many)) => {
            if many {
                requests.push(event(
                    EventType::Warning,
                    "TooManyMissedTimes",
                    "too many missed start times. Set or decrease .spec.startingDeadlineSeconds or check clock skew".into(),
                ));
            }
            t
        }
    };
    let too_late = cj
        .spec
        .starting_deadline_seconds
        .is_some_and(|s| crate::time::after_seconds(scheduled, s) < now);
    if too_late {
        requests.push(event(
            EventType::Warning,
            "MissSchedule",
            format!(
                "Missed scheduled time to start a job: {}",
                crate::time::rfc1123z(scheduled)
            ),
        ));
        return next_schedule_time(cj, status, now, &sched, &zone);
    }
    let name = job_name(cj, scheduled);
    let last = status.last_schedule_time.as_deref().and_then(parse_rfc3339);
    if status.active.iter().any(|r| r.name == name) || last == Some(scheduled) {
        return next_schedule_time(cj, status, now, &sched, &zone);
    }
    if cj.spec.concurrency_policy == "Forbid" && !status.active.is_empty() {
        requests.push(event(
            EventType::Normal,
            "JobAlreadyActive",
            "Not starting job because prior execution is running and concurrency policy is Forbid"
                .into(),
        ));
        return next_schedule_time(cj, status, now, &sched, &zone);
    }
    if cj.spec.concurrency_policy == "Replace" {
        for r in status.active.clone() {
            if let Some(j) = jobs.iter().find(|j| j.metadata.uid == r.uid) {
                requests.extend(delete_job(cj, j, status));
            }
        }
    }
    let job = job_from_template(cj, scheduled, &zone);
    requests.push(Request::Create {
        object: Object::Job(Box::new(job)),
        event: Some(crate::client::EventOnSuccess {
            involved: event_ref(Kind::CronJob, &cj.metadata),
            type_: EventType::Normal,
            reason: "SuccessfulCreate",
            message_prefix: "Created job ",
            on_failure: Some(("FailedCreate", "Error creating job: ")),
        }),
    });
    // The reference's uid and resourceVersion are the create's response: the status
    // write that follows in this batch is completed from it (a refused create leaves
    // the reference out).
    status.to_mut().active.push(JobReference {
        api_version: "batch/v1".into(),
        kind: "Job".into(),
        name: name.clone(),
        namespace: cj.metadata.namespace.clone(),
        resource_version: String::new(),
        uid: String::new(),
    });
    status.to_mut().last_schedule_time = Some(rfc3339(scheduled));
    next_schedule_time(cj, status, now, &sched, &zone)
}

/// `deleteJob`: background deletion, the active reference dropped, `SuccessfulDelete`.
fn delete_job(cj: &CronJob, j: &Job, status: &mut Cow<'_, CronJobStatus>) -> Vec<Request> {
    if status.active.iter().any(|r| r.uid == j.metadata.uid) {
        status.to_mut().active.retain(|r| r.uid != j.metadata.uid);
    }
    vec![
        Request::Delete {
            kind: Kind::Job,
            key: ObjKey::of(&j.metadata),
            options: DeleteOptions {
                propagation: Some("Background".into()),
                ..Default::default()
            },
            event: None,
        },
        Request::Event {
            involved: event_ref(Kind::CronJob, &cj.metadata),
            type_: EventType::Normal,
            reason: "SuccessfulDelete".into(),
            message: format!("Deleted job {}", j.metadata.name),
        },
    ]
}

/// `cleanupFinishedJobs`: the oldest finished Jobs beyond each history limit, by start
/// time.
fn cleanup_finished_jobs(
    cj: &CronJob,
    jobs: &[&Job],
    status: &mut Cow<'_, CronJobStatus>,
    requests: &mut Vec<Request>,
) {
    for (cond, limit) in [
        (
            JobConditionType::Complete,
            cj.spec.successful_jobs_history_limit,
        ),
        (JobConditionType::Failed, cj.spec.failed_jobs_history_limit),
    ] {
        let Some(limit) = limit else {
            continue;
        };
        let mut finished: Vec<&&Job> = jobs
            .iter()
            .filter(|j| j.is_finished().is_some_and(|c| c.type_ == cond))
            .collect();
        let n = finished.len() as i64 - limit;
        if n <= 0 {
            continue;
        }
        // `byJobStartTime`: no start time last, then by start, then by name.
        crate::sorting::sort_by(&mut finished, |a, b| {
            let key = |j: &Job| {
                (
                    j.status.start_ms.is_none(),
                    j.status.start_ms,
                    j.metadata.name.clone(),
                )
            };
            key(a).cmp(&key(b))
        });
        for j in finished.into_iter().take(n as usize) {
            requests.extend(delete_job(cj, j, status));
        }
    }
}

/// `getJobName`: the CronJob's name and the scheduled time in minutes since 1970.
pub fn job_name(cj: &CronJob, scheduled: SimTime) -> String {
    let minutes = (EPOCH_UNIX_SECONDS + (scheduled / 1000) as i64) / 60;
    format!("{}-{minutes}", cj.metadata.name)
}

/// `getJobFromTemplate2`.
pub fn job_from_template(cj: &CronJob, scheduled: SimTime, zone: &Zone) -> Job {
    let t = &cj.spec.job_template;
    let mut annotations = t.metadata.annotations.clone();
    annotations.insert(SCHEDULED_TIMESTAMP.into(), rfc3339_in(scheduled, zone));
    Job {
        metadata: ObjectMeta {
            name: job_name(cj, scheduled),
            namespace: cj.metadata.namespace.clone(),
            labels: t.metadata.labels.clone(),
            annotations,
            owner_references: vec![controller_ref(
                Kind::CronJob,
                &cj.metadata.name,
                &cj.metadata.uid,
            )],
            ..Default::default()
        },
        spec: t.spec.clone(),
        status: JobStatus::default(),
    }
}

/// RFC 3339 in a zone: `2025-01-01T09:00:00+08:00`, or `Z` for UTC.
fn rfc3339_in(t: SimTime, zone: &Zone) -> String {
    let unix = EPOCH_UNIX_SECONDS + (t / 1000) as i64;
    let off = zone.offset_at(unix);
    if off == 0 {
        return rfc3339(t);
    }
    let local = rfc3339(t.saturating_add_signed(off * 1000));
    let sign = if off < 0 { '-' } else { '+' };
    let a = off.abs();
    format!(
        "{}{sign}{:02}:{:02}",
        local.trim_end_matches('Z'),
        a / 3600,
        (a % 3600) / 60
    )
}

/// `mostRecentScheduleTime`: (the earliest time considered, the most recent schedule
/// time at or before now, whether more than 100 were missed).
fn most_recent_schedule_time(
    cj: &CronJob,
    status: &CronJobStatus,
    now: SimTime,
    sched: &Schedule,
    zone: &Zone,
    with_deadline: bool,
) -> Result<(SimTime, Option<SimTime>, bool), String> {
    let mut earliest = status
        .last_schedule_time
        .as_deref()
        .and_then(parse_rfc3339)
        .unwrap_or(cj.metadata.created_ms);
    if with_deadline {
        if let Some(s) = cj.spec.starting_deadline_seconds {
            let deadline = now.saturating_sub(crate::time::seconds_to_ms(s));
            if deadline > earliest {
                earliest = deadline;
            }
        }
    }
    let Some(t1) = schedule::next(sched, zone, earliest) else {
        return Ok((earliest, None, false));
    };
    let Some(t2) = schedule::next(sched, zone, t1) else {
        return Ok((earliest, (now >= t1).then_some(t1), false));
    };
    if now < t1 {
        return Ok((earliest, None, false));
    }
    if now < t2 {
        return Ok((earliest, Some(t1), false));
    }
    let between = (t2 - t1 + 500) / 1000;
    if between < 1 {
        return Err("time difference between two schedules is less than 1 second".into());
    }
    let elapsed = (now - t1) / 1000;
    let missed = elapsed / between + 1;
    let back = missed.saturating_sub(2) * between * 1000;
    let mut t = t1 + back;
    let mut most_recent = None;
    while let Some(n) = schedule::next(sched, zone, t) {
        if n > now {
            break;
        }
        most_recent = Some(n);
        t = n;
    }
    Ok((earliest, most_recent, missed > 100))
}

/// `nextScheduleTimeDuration`, as the absolute time to wake.
fn next_schedule_time(
    cj: &CronJob,
    status: &CronJobStatus,
    now: SimTime,
    sched: &Schedule,
    zone: &Zone,
) -> Option<SimTime> {
    let from = match most_recent_schedule_time(cj, status, now, sched, zone, false) {
        Err(_) => now,
        Ok((_, Some(t), _)) => t,
        Ok((earliest, None, _)) => earliest.max(if earliest > now { earliest } else { 0 }),
    };
    let from = if from < now && most_recent_is_none_with_missed(cj, status, now, sched, zone) {
        now
    } else {
        from
    };
    schedule::next(sched, zone, from).map(|t| t + NEXT_SCHEDULE_DELTA)
}

/// Whether schedules were missed since the earliest time without one being due now
/// (upstream then aims from now).
fn most_recent_is_none_with_missed(
    cj: &CronJob,
    status: &CronJobStatus,
    now: SimTime,
    sched: &Schedule,
    zone: &Zone,
) -> bool {
    matches!(
        most_recent_schedule_time(cj, status, now, sched, zone, false),
        Ok((_, None, true))
    )
}
