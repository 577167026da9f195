//! What upstream's `pkg/controller/controller_utils.go` gives the Job controller: the
//! Pod built from the template (`GetPodFromTemplate`, with the Job's tracking finalizer
//! and an Indexed Job's index), the pod control's create and delete requests with their
//! Events, the finalizer's removal, and the `ActivePods` order of Pods to delete.

use super::indexes::JOB_COMPLETION_INDEX;
use crate::api::*;
use crate::apiserver::{DeleteOptions, ObjKey};
use crate::client::{controller_ref, event_ref, EventOnSuccess, Request};
use std::cmp::Ordering;

/// The finalizer that keeps a finished Pod until it is counted.
pub const JOB_TRACKING_FINALIZER: &str = "batch.kubernetes.io/job-tracking";

/// Whether the Pod still holds the Job's tracking finalizer (not yet counted).
pub(super) fn has_tracking_finalizer(p: &Pod) -> bool {
    p.metadata
        .finalizers
        .iter()
        .any(|f| f == JOB_TRACKING_FINALIZER)
}

/// `controller.ActivePods.Less`: the Pod to delete first sorts first.
pub fn sort_active_pods(pods: &mut [&Pod]) {
    crate::sorting::sort_by(pods, |a, b| active_pods_cmp(a, b));
}

/// The order of `controller.ActivePods`: unassigned before assigned, Pending before
/// Unknown before Running, not ready before ready, ready for less time first, more
/// restarts first, newer first.
fn active_pods_cmp(a: &Pod, b: &Pod) -> Ordering {
    let unassigned = |p: &Pod| p.spec.node_name.is_empty();
    let phase = |p: &Pod| match PodPhase::parse(&p.status.phase) {
        Some(PodPhase::Pending) => 0,
        Some(PodPhase::Unknown) => 1,
        Some(PodPhase::Running) => 2,
        _ => 3,
    };
    let restarts = |p: &Pod| {
        p.status
            .container_statuses
            .iter()
            .map(|c| c.restart_count)
            .max()
            .unwrap_or(0)
    };
    unassigned(b)
        .cmp(&unassigned(a))
        .then_with(|| phase(a).cmp(&phase(b)))
        .then_with(|| a.is_ready().cmp(&b.is_ready()))
        .then_with(|| match (a.ready_since(), b.ready_since()) {
            // Both ready: the one ready for less time first.
            (Some(x), Some(y)) => y.cmp(&x),
            _ => Ordering::Equal,
        })
        .then_with(|| restarts(b).cmp(&restarts(a)))
        .then_with(|| b.metadata.created_ms.cmp(&a.metadata.created_ms))
        .then_with(|| a.metadata.name.cmp(&b.metadata.name))
}

/// A plain DELETE keeping the finalizer (the Job is finishing: the Pod is counted).
pub(super) fn delete_pod(job: &Job, p: &Pod) -> Request {
    Request::Delete {
        kind: Kind::Pod,
        key: ObjKey::of(&p.metadata),
        options: DeleteOptions::default(),
        event: Some(EventOnSuccess {
            involved: event_ref(Kind::Job, &job.metadata),
            type_: EventType::Normal,
            reason: "SuccessfulDelete",
            message_prefix: "Deleted pod: ",
            on_failure: Some(("FailedDelete", "Error deleting: ")),
        }),
    }
}

/// `deleteJobPods`: the finalizer removed first, so the deletion is no failure.
pub(super) fn delete_job_pod(job: &Job, p: &Pod) -> Vec<Request> {
    let mut out = Vec::new();
    if has_tracking_finalizer(p) {
        out.push(release(p));
    }
    out.push(delete_pod(job, p));
    out
}

/// The finalizer's removal. Upstream sends a patch
/// (`$deleteFromPrimitiveList/finalizers`), which has no resourceVersion precondition:
/// it lands even on a Pod this sync has just deleted (whose deletionTimestamp the API
/// server keeps). A conditional update would conflict with that deletion, and a
/// retried sync would count the Pod twice.
pub(super) fn release(p: &Pod) -> Request {
    let mut released = p.clone();
    released
        .metadata
        .finalizers
        .retain(|f| f != JOB_TRACKING_FINALIZER);
    Request::blind_update(Object::Pod(Box::new(released)))
}

/// The Pod a Job creates (`CreatePodsWithGenerateName`): the template with the
/// tracking finalizer and the Job as controller; an Indexed Job's carries its index
/// (annotation, label, hostname, `JOB_COMPLETION_INDEX`).
pub fn pod_from_job(job: &Job, index: Option<i64>) -> Pod {
    let t = &job.spec.template;
    let mut pod = Pod {
        metadata: ObjectMeta {
            generate_name: format!("{}-", job.metadata.name),
            namespace: job.metadata.namespace.clone(),
            labels: t.metadata.labels.clone(),
            annotations: t.metadata.annotations.clone(),
            finalizers: vec![JOB_TRACKING_FINALIZER.into()],
            owner_references: vec![controller_ref(
                Kind::Job,
                &job.metadata.name,
                &job.metadata.uid,
            )],
            ..Default::default()
        },
        spec: t.spec.clone(),
        status: PodStatus::default(),
    };
    if let Some(i) = index {
        let name = &job.metadata.name;
        let suffix = format!("-{i}-");
        let base: String = name.chars().take(58 - suffix.len().min(58)).collect();
        pod.metadata.generate_name = format!("{base}{suffix}");
        pod.metadata
            .annotations
            .insert(JOB_COMPLETION_INDEX.into(), i.to_string());
        pod.metadata
            .labels
            .insert(JOB_COMPLETION_INDEX.into(), i.to_string());
        pod.spec
            .extra
            .insert("hostname".into(), format!("{name}-{i}").into());
        let env = serde_json::json!({
            "name": "JOB_COMPLETION_INDEX",
            "valueFrom": {"fieldRef": {"fieldPath": format!("metadata.labels['{JOB_COMPLETION_INDEX}']")}}
        });
        for c in pod
            .spec
            .containers
            .iter_mut()
            .chain(pod.spec.init_containers.iter_mut())
        {
            if !c
                .env
                .iter()
                .any(|e| e.get("name").and_then(|n| n.as_str()) == Some("JOB_COMPLETION_INDEX"))
            {
                c.env.push(env.clone());
            }
        }
    }
    pod
}

/// `CreatePodsWithGenerateName` for the Job, with its `SuccessfulCreate` / `FailedCreate`
/// Event.
pub(super) fn create_pod(job: &Job, index: Option<i64>) -> Request {
    Request::Create {
        object: Object::Pod(Box::new(pod_from_job(job, index))),
        event: Some(EventOnSuccess {
            involved: event_ref(Kind::Job, &job.metadata),
            type_: EventType::Normal,
            reason: "SuccessfulCreate",
            message_prefix: "Created pod: ",
            on_failure: Some(("FailedCreate", "Error creating: ")),
        }),
    }
}
