use super::*;
use crate::apiserver::Store;
use crate::rng::Rng;

fn job(completions: Option<i64>, parallelism: Option<i64>, policy: &str) -> Job {
    Job {
        metadata: ObjectMeta {
            name: "pi".into(),
            namespace: "default".into(),
            ..Default::default()
        },
        spec: JobSpec {
            completions,
            parallelism,
            template: PodTemplateSpec {
                metadata: ObjectMeta::default(),
                spec: PodSpec {
                    restart_policy: policy.into(),
                    containers: vec![Container {
                        name: "pi".into(),
                        image: "perl".into(),
                        ..Default::default()
                    }],
                    ..Default::default()
                },
            },
            ..Default::default()
        },
        status: JobStatus::default(),
    }
}

/// A store holding `j` (created through the API server: defaults, selector, uid).
fn world(j: Job) -> (Store, Rng, ObjKey) {
    let mut store = Store::for_tests();
    let mut rng = Rng::new(1);
    store
        .create(0, &mut rng, Object::Job(Box::new(j)), "test")
        .unwrap();
    (store, rng, ObjKey::new("default", "pi"))
}

fn stored(store: &Store, key: &ObjKey) -> Job {
    store.get::<Job>(key).cloned().unwrap()
}

/// Add a Pod of the Job in `phase` (with container exit `code` when terminated).
fn add_pod(store: &mut Store, rng: &mut Rng, key: &ObjKey, phase: &str, code: i64, at: SimTime) {
    let j = stored(store, key);
    let mut p = pod_from_job(&j, None);
    p.spec.node_name = "node-1".into();
    p.status.phase = phase.into();
    if phase == "Succeeded" || phase == "Failed" {
        p.status.container_statuses = vec![ContainerStatus {
            name: "pi".into(),
            state: ContainerState {
                terminated: Some(ContainerStateTerminated {
                    exit_code: code,
                    reason: if code == 0 { "Completed" } else { "Error" }.into(),
                    started_at: rfc3339(0),
                    finished_at: rfc3339(at),
                }),
                ..Default::default()
            },
            ..Default::default()
        }];
    }
    store
        .create(at, rng, Object::Pod(Box::new(p)), "test")
        .unwrap();
}

fn creates(r: &Reconcile) -> usize {
    r.requests
        .iter()
        .map(|q| match q {
            Request::SlowStart(b) => b
                .iter()
                .filter(|x| matches!(x, Request::Create { .. }))
                .count(),
            _ => 0,
        })
        .sum()
}

fn last_status(r: &Reconcile) -> JobStatus {
    r.requests
        .iter()
        .rev()
        .find_map(|q| match q {
            Request::UpdateStatus(Object::Job(j)) => Some(j.status.clone()),
            _ => None,
        })
        .expect("a status write")
}

#[test]
fn a_new_job_creates_parallelism_pods_with_the_tracking_finalizer_and_starts() {
    let (store, _, key) = world(job(Some(5), Some(2), "Never"));
    let r = JobController::default().sync_job(&store, &key, 1_000);
    assert_eq!(creates(&r), 2);
    let Some(Request::SlowStart(batch)) = r.requests.first() else {
        panic!("{:?}", r.requests)
    };
    let Request::Create {
        object: Object::Pod(p),
        event,
    } = &batch[0]
    else {
        panic!()
    };
    assert_eq!(p.metadata.generate_name, "pi-");
    assert_eq!(
        p.metadata.finalizers,
        vec![JOB_TRACKING_FINALIZER.to_string()]
    );
    assert_eq!(
        p.metadata.labels.get("job-name").map(String::as_str),
        Some("pi")
    );
    assert_eq!(event.as_ref().map(|e| e.reason), Some("SuccessfulCreate"));
    let s = last_status(&r);
    assert_eq!(s.start_time.as_deref(), Some("2025-01-01T00:00:01Z"));
    assert_eq!((s.active, s.ready, s.terminating), (2, Some(0), Some(0)));
}

#[test]
fn a_succeeded_pod_is_listed_uncounted_then_released_then_counted() {
    let (mut store, mut rng, key) = world(job(Some(1), Some(1), "Never"));
    add_pod(&mut store, &mut rng, &key, "Succeeded", 0, 5_000);
    let r = JobController::default().sync_job(&store, &key, 6_000);
    let kinds: Vec<String> = r
        .requests
        .iter()
        .map(|q| match q {
            Request::UpdateStatus(_) => "status".to_string(),
            Request::Update(Object::Pod(p)) => {
                format!("pod finalizers {:?}", p.metadata.finalizers)
            }
            Request::Event { reason, .. } => format!("event {reason}"),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        kinds,
        vec!["status", "pod finalizers []", "status", "event Completed"]
    );
    let Request::UpdateStatus(Object::Job(first)) = &r.requests[0] else {
        panic!()
    };
    let uncounted = first.status.uncounted_terminated_pods.clone().unwrap();
    assert_eq!(uncounted.succeeded.len(), 1);
    assert_eq!(first.status.succeeded, 0);
    assert!(first
        .condition_true(JobConditionType::SuccessCriteriaMet)
        .is_some());
    let s = last_status(&r);
    assert_eq!(s.succeeded, 1);
    let types: Vec<&str> = s.conditions.iter().map(|c| c.type_.as_str()).collect();
    assert_eq!(types, vec!["SuccessCriteriaMet", "Complete"]);
    assert_eq!(s.completion_time.as_deref(), Some("2025-01-01T00:00:06Z"));
}

#[test]
fn a_failed_pod_is_replaced_only_after_the_pod_failure_back_off() {
    let (mut store, mut rng, key) = world(job(Some(1), Some(1), "Never"));
    add_pod(&mut store, &mut rng, &key, "Failed", 1, 5_000);
    let mut ctl = JobController::default();
    let r = ctl.sync_job(&store, &key, 6_000);
    assert_eq!(creates(&r), 0, "10 s after the failure at 5 s, not before");
    assert_eq!(r.requeue_after, Some(9_000));
    assert_eq!(last_status(&r).failed, 1);
    assert_eq!(
        ctl.backoff.get(&key),
        Some(&BackoffRecord {
            failures_after_last_success: 1,
            last_failure: Some(5_000)
        })
    );
    // Once the status is written and the finalizer gone, the replacement waits for
    // 15 s exactly.
    let mut j = stored(&store, &key);
    j.status = last_status(&r);
    store
        .update_status(6_000, Object::Job(Box::new(j)), "test")
        .unwrap();
    let mut p = store.list::<Pod>().next().cloned().unwrap();
    p.metadata.finalizers.clear();
    store
        .update(6_000, Object::Pod(Box::new(p)), "test", false)
        .unwrap();
    assert_eq!(creates(&ctl.sync_job(&store, &key, 14_999)), 0);
    assert_eq!(creates(&ctl.sync_job(&store, &key, 15_000)), 1);
}

#[test]
fn the_back_off_doubles_per_consecutive_failure_up_to_ten_minutes() {
    let rec = |n| BackoffRecord {
        failures_after_last_success: n,
        last_failure: Some(0),
    };
    let delays: Vec<SimTime> = (1..=8).map(|n| rec(n).remaining(0) / 1000).collect();
    assert_eq!(delays, vec![10, 20, 40, 80, 160, 320, 600, 600]);
}

#[test]
fn more_failures_than_the_backoff_limit_fail_the_job_in_two_steps() {
    let mut j = job(Some(1), Some(1), "Never");
    j.spec.backoff_limit = Some(1);
    let (mut store, mut rng, key) = world(j);
    add_pod(&mut store, &mut rng, &key, "Failed", 1, 1_000);
    add_pod(&mut store, &mut rng, &key, "Failed", 1, 2_000);
    let r = JobController::default().sync_job(&store, &key, 3_000);
    let s = last_status(&r);
    assert_eq!(s.failed, 2);
    let types: Vec<&str> = s.conditions.iter().map(|c| c.type_.as_str()).collect();
    assert_eq!(types, vec!["FailureTarget", "Failed"]);
    let failed = s.conditions.last().unwrap();
    assert_eq!(
        (failed.reason.as_str(), failed.message.as_str()),
        (
            "BackoffLimitExceeded",
            "Job has reached the specified backoff limit"
        )
    );
    assert!(r.requests.iter().any(|q| matches!(q,
        Request::Event { type_: EventType::Warning, reason, .. } if reason == "BackoffLimitExceeded")));
}

#[test]
fn on_failure_restarts_of_running_pods_count_against_the_backoff_limit() {
    let mut j = job(Some(1), Some(1), "OnFailure");
    j.spec.backoff_limit = Some(2);
    let (mut store, mut rng, key) = world(j);
    add_pod(&mut store, &mut rng, &key, "Running", 0, 1_000);
    let mut p = store.list::<Pod>().next().cloned().unwrap();
    p.status.container_statuses = vec![ContainerStatus {
        name: "pi".into(),
        restart_count: 2,
        ..Default::default()
    }];
    store
        .update_status(2_000, Object::Pod(Box::new(p)), "test")
        .unwrap();
    let r = JobController::default().sync_job(&store, &key, 3_000);
    // The running Pod is deleted (keeping its finalizer, so it is counted as failed)
    // and the Job waits for it to terminate before Failed.
    assert!(r
        .requests
        .iter()
        .any(|q| matches!(q, Request::Delete { .. })));
    let s = last_status(&r);
    assert_eq!(s.failed, 1);
    let types: Vec<&str> = s.conditions.iter().map(|c| c.type_.as_str()).collect();
    assert_eq!(types, vec!["FailureTarget"]);
    assert_eq!(s.terminating, Some(1));
}

#[test]
fn an_active_deadline_requeues_then_fails_the_job() {
    let mut j = job(Some(1), Some(1), "Never");
    j.spec.active_deadline_seconds = Some(30);
    let (store, _, key) = world(j);
    let mut ctl = JobController::default();
    let r = ctl.sync_job(&store, &key, 0);
    assert_eq!(r.requeue_after, Some(30_000));
    let mut started = stored(&store, &key);
    started.status.start_time = Some(rfc3339(0));
    started.status.start_ms = Some(0);
    let mut store2 = store.clone();
    store2
        .update_status(1, Object::Job(Box::new(started)), "test")
        .unwrap();
    let r = ctl.sync_job(&store2, &key, 30_000);
    let s = last_status(&r);
    let c = s.conditions.last().unwrap();
    assert_eq!(
        (c.type_.as_str(), c.reason.as_str(), c.message.as_str()),
        (
            "Failed",
            "DeadlineExceeded",
            "Job was active longer than specified deadline"
        )
    );
}

#[test]
fn a_pod_failure_policy_fail_job_rule_names_the_container_and_exit_code() {
    let mut j = job(Some(3), Some(1), "Never");
    j.spec.pod_failure_policy = Some(PodFailurePolicy {
        rules: vec![PodFailurePolicyRule {
            action: "FailJob".into(),
            on_exit_codes: Some(PodFailurePolicyOnExitCodesRequirement {
                container_name: None,
                operator: "In".into(),
                values: vec![42],
            }),
            on_pod_conditions: vec![],
        }],
    });
    let (mut store, mut rng, key) = world(j);
    add_pod(&mut store, &mut rng, &key, "Failed", 42, 1_000);
    let r = JobController::default().sync_job(&store, &key, 2_000);
    let s = last_status(&r);
    let c = s.conditions.last().unwrap();
    let pod = store.list::<Pod>().next().unwrap();
    assert_eq!(c.reason, "PodFailurePolicy");
    assert_eq!(
        c.message,
        format!(
            "Container pi for pod default/{} failed with exit code 42 matching FailJob rule at index 0",
            pod.metadata.name
        )
    );
}

#[test]
fn an_ignore_rule_replaces_the_pod_without_counting_it() {
    let mut j = job(Some(1), Some(1), "Never");
    j.spec.pod_failure_policy = Some(PodFailurePolicy {
        rules: vec![PodFailurePolicyRule {
            action: "Ignore".into(),
            on_exit_codes: None,
            on_pod_conditions: vec![PodFailurePolicyOnPodConditionsPattern {
                type_: "DisruptionTarget".into(),
                status: "True".into(),
            }],
        }],
    });
    let (mut store, mut rng, key) = world(j);
    add_pod(&mut store, &mut rng, &key, "Failed", 137, 1_000);
    let mut p = store.list::<Pod>().next().cloned().unwrap();
    p.status.conditions.push(disruption_target(
        "DeletionByTaintManager",
        "x".into(),
        1_000,
    ));
    store
        .update_status(1_000, Object::Pod(Box::new(p)), "test")
        .unwrap();
    let mut ctl = JobController::default();
    let r = ctl.sync_job(&store, &key, 2_000);
    assert_eq!(last_status(&r).failed, 0, "not counted");
    // The back-off record still sees the failure (upstream passes every new failed
    // Pod to it): the replacement comes 10 s after it.
    assert_eq!(creates(&r), 0);
    assert_eq!(r.requeue_after, Some(9_000));
}

#[test]
fn an_indexed_job_creates_its_lowest_pending_indexes_with_their_names_and_env() {
    let mut j = job(Some(3), Some(2), "Never");
    j.spec.completion_mode = Some("Indexed".into());
    let (store, _, key) = world(j);
    let r = JobController::default().sync_job(&store, &key, 0);
    let Some(Request::SlowStart(batch)) = r.requests.first() else {
        panic!()
    };
    let names: Vec<(String, String)> = batch
        .iter()
        .filter_map(|q| match q {
            Request::Create {
                object: Object::Pod(p),
                ..
            } => Some((
                p.metadata.generate_name.clone(),
                p.metadata.annotations[JOB_COMPLETION_INDEX].clone(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        names,
        vec![
            ("pi-0-".to_string(), "0".to_string()),
            ("pi-1-".to_string(), "1".to_string())
        ]
    );
}

#[test]
fn suspending_deletes_active_pods_without_counting_them_and_says_so() {
    let (mut store, mut rng, key) = world(job(Some(2), Some(2), "Never"));
    add_pod(&mut store, &mut rng, &key, "Running", 0, 1_000);
    let mut j = stored(&store, &key);
    j.spec.suspend = Some(true);
    store
        .update(2_000, Object::Job(Box::new(j)), "test", false)
        .unwrap();
    let r = JobController::default().sync_job(&store, &key, 3_000);
    let steps: Vec<String> = r
        .requests
        .iter()
        .map(|q| match q {
            Request::Update(Object::Pod(p)) => format!("release {:?}", p.metadata.finalizers),
            Request::Delete { kind, .. } => format!("delete {}", kind.name()),
            Request::Event { reason, .. } => format!("event {reason}"),
            Request::UpdateStatus(_) => "status".into(),
            other => format!("{other:?}"),
        })
        .collect();
    assert_eq!(
        steps,
        vec!["release []", "delete Pod", "event Suspended", "status"]
    );
    let s = last_status(&r);
    assert_eq!((s.active, s.failed), (0, 0));
    let c = s.conditions.last().unwrap();
    assert_eq!(
        (c.type_.as_str(), c.reason.as_str()),
        ("Suspended", "JobSuspended")
    );
}
