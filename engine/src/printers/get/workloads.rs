//! The tables of Pods and what runs them: Deployments, ReplicaSets, DaemonSets,
//! StatefulSets and their revisions, Jobs, CronJobs, HorizontalPodAutoscalers.

use super::super::{age, pod_ready_status, pod_restarts};
use super::cells::*;
use crate::api::*;
use crate::time::SimTime;

/// Pod's columns.
pub(super) const POD: Columns = Columns {
    names: &["NAME", "READY", "STATUS", "RESTARTS", "AGE"],
    wide: &["IP", "NODE", "NOMINATED NODE", "READINESS GATES"],
};

/// Deployment's columns.
pub(super) const DEPLOYMENT: Columns = Columns {
    names: &["NAME", "READY", "UP-TO-DATE", "AVAILABLE", "AGE"],
    wide: &["CONTAINERS", "IMAGES", "SELECTOR"],
};

/// ReplicaSet's columns.
pub(super) const REPLICA_SET: Columns = Columns {
    names: &["NAME", "DESIRED", "CURRENT", "READY", "AGE"],
    wide: &["CONTAINERS", "IMAGES", "SELECTOR"],
};

/// DaemonSet's columns.
pub(super) const DAEMON_SET: Columns = Columns {
    names: &[
        "NAME",
        "DESIRED",
        "CURRENT",
        "READY",
        "UP-TO-DATE",
        "AVAILABLE",
        "NODE SELECTOR",
        "AGE",
    ],
    wide: &["CONTAINERS", "IMAGES", "SELECTOR"],
};

/// StatefulSet's columns.
pub(super) const STATEFUL_SET: Columns = Columns {
    names: &["NAME", "READY", "AGE"],
    wide: &["CONTAINERS", "IMAGES"],
};

/// ControllerRevision's columns.
pub(super) const CONTROLLER_REVISION: Columns = Columns {
    names: &["NAME", "CONTROLLER", "REVISION", "AGE"],
    wide: &[],
};

/// Job's columns.
pub(super) const JOB: Columns = Columns {
    names: &["NAME", "STATUS", "COMPLETIONS", "DURATION", "AGE"],
    wide: &["CONTAINERS", "IMAGES", "SELECTOR"],
};

/// CronJob's columns.
pub(super) const CRON_JOB: Columns = Columns {
    names: &[
        "NAME",
        "SCHEDULE",
        "TIMEZONE",
        "SUSPEND",
        "ACTIVE",
        "LAST SCHEDULE",
        "AGE",
    ],
    wide: &["CONTAINERS", "IMAGES", "SELECTOR"],
};

/// HorizontalPodAutoscaler's columns.
pub(super) const HORIZONTAL_POD_AUTOSCALER: Columns = Columns {
    names: &[
        "NAME",
        "REFERENCE",
        "TARGETS",
        "MINPODS",
        "MAXPODS",
        "REPLICAS",
        "AGE",
    ],
    wide: &[],
};

/// `printPod`.
pub(super) fn print_pod(name: String, p: &Pod, o: &TableOptions, now: SimTime) -> Vec<String> {
    let m = &p.metadata;

    let (ready, status, _) = pod_ready_status(p);
    let mut r = vec![
        name,
        ready,
        status,
        restarts_col(p, now),
        age(m.created_ms, now),
    ];
    if o.wide {
        r.push(or_none(&p.status.pod_ip));
        r.push(or_none(&p.spec.node_name));
        r.push(or_none(&p.status.nominated_node_name));
        r.push("<none>".into());
    }
    r
}

/// `RESTARTS`: the count, with `(<age> ago)` of the last restart when there was one.
pub(super) fn restarts_col(p: &Pod, now: SimTime) -> String {
    let (restarts, last) = pod_restarts(p);
    match last {
        Some(t) if restarts > 0 => format!("{restarts} ({} ago)", age(t, now)),
        _ => restarts.to_string(),
    }
}

/// `printDeployment`.
pub(super) fn print_deployment(
    name: String,
    d: &Deployment,
    o: &TableOptions,
    now: SimTime,
) -> Vec<String> {
    let m = &d.metadata;

    let mut r = vec![
        name,
        format!("{}/{}", d.status.ready_replicas, d.spec.replicas),
        d.status.updated_replicas.to_string(),
        d.status.available_replicas.to_string(),
        age(m.created_ms, now),
    ];
    if o.wide {
        let (c, i) = containers_images(&d.spec.template.spec);
        r.extend([c, i, d.spec.selector.to_selector_string()]);
    }
    r
}

/// `printReplicaSet`.
pub(super) fn print_replica_set(
    name: String,
    rs: &ReplicaSet,
    o: &TableOptions,
    now: SimTime,
) -> Vec<String> {
    let m = &rs.metadata;

    let mut r = vec![
        name,
        rs.spec.replicas.to_string(),
        rs.status.replicas.to_string(),
        rs.status.ready_replicas.to_string(),
        age(m.created_ms, now),
    ];
    if o.wide {
        let (c, i) = containers_images(&rs.spec.template.spec);
        r.extend([c, i, rs.spec.selector.to_selector_string()]);
    }
    r
}

/// `printDaemonSet`.
pub(super) fn print_daemon_set(
    name: String,
    ds: &DaemonSet,
    o: &TableOptions,
    now: SimTime,
) -> Vec<String> {
    let st = &ds.status;
    let sel = labels_col_or_none(&ds.spec.template.spec.node_selector);
    let mut r = vec![
        name,
        st.desired_number_scheduled.to_string(),
        st.current_number_scheduled.to_string(),
        st.number_ready.to_string(),
        st.updated_number_scheduled.to_string(),
        st.number_available.to_string(),
        sel,
        age(ds.metadata.created_ms, now),
    ];
    if o.wide {
        let (c, i) = containers_images(&ds.spec.template.spec);
        r.extend([c, i, format_label_selector(Some(&ds.spec.selector))]);
    }
    r
}

/// `printStatefulSet`.
pub(super) fn print_stateful_set(
    name: String,
    ss: &StatefulSet,
    o: &TableOptions,
    now: SimTime,
) -> Vec<String> {
    let m = &ss.metadata;
    let mut r = vec![
        name,
        format!("{}/{}", ss.status.ready_replicas, ss.spec.replicas),
        age(m.created_ms, now),
    ];
    if o.wide {
        let (c, i) = containers_images(&ss.spec.template.spec);
        r.extend([c, i]);
    }
    r
}

/// `printControllerRevision`: the controller as `kind.group/name`, the revision.
pub(super) fn print_controller_revision(
    name: String,
    cr: &ControllerRevision,
    now: SimTime,
) -> Vec<String> {
    let m = &cr.metadata;
    // `formatResourceName` of the controller's GroupKind: `statefulset.apps/web`.
    let controller = m.controller_ref().map_or_else(
        || "<none>".to_string(),
        |r| {
            let group = r.api_version.split_once('/').map(|(g, _)| g);
            match group {
                Some(g) => format!("{}.{g}/{}", r.kind.to_ascii_lowercase(), r.name),
                None => format!("{}/{}", r.kind.to_ascii_lowercase(), r.name),
            }
        },
    );
    vec![
        name,
        controller,
        cr.revision.to_string(),
        age(m.created_ms, now),
    ]
}

/// `printJob`: STATUS from the conditions (a finished condition first, then
/// Terminating, Suspended and the interim FailureTarget; v1.33 has no
/// SuccessCriteriaMet status, so a succeeding Job reads Running until Complete),
/// COMPLETIONS as `succeeded/completions` (`n/1 of p` for a work queue with
/// parallelism above 1), DURATION from `startTime` to `completionTime` or now.
pub(super) fn print_job(name: String, j: &Job, o: &TableOptions, now: SimTime) -> Vec<String> {
    let s = &j.status;
    let completions = match j.spec.completions {
        Some(c) => format!("{}/{c}", s.succeeded),
        None => match j.spec.parallelism.unwrap_or(0) {
            p if p > 1 => format!("{}/1 of {p}", s.succeeded),
            _ => format!("{}/1", s.succeeded),
        },
    };
    let duration = match (s.start_ms, s.completion_ms) {
        (None, _) => String::new(),
        (Some(start), None) => age(start, now),
        (Some(start), Some(end)) => age(start, end),
    };
    let has = |t: JobConditionType| j.condition_true(t).is_some();
    let status = if has(JobConditionType::Complete) {
        "Complete"
    } else if has(JobConditionType::Failed) {
        "Failed"
    } else if j.metadata.is_deleting() {
        "Terminating"
    } else if has(JobConditionType::Suspended) {
        "Suspended"
    } else if has(JobConditionType::FailureTarget) {
        "FailureTarget"
    } else {
        "Running"
    };
    let mut r = vec![
        name,
        status.into(),
        completions,
        duration,
        age(j.metadata.created_ms, now),
    ];
    if o.wide {
        let (c, i) = containers_images(&j.spec.template.spec);
        r.extend([c, i, format_label_selector(j.spec.selector.as_ref())]);
    }
    r
}

/// `printCronJob`: `printBoolPtr` for SUSPEND (`<unset>` when nil).
pub(super) fn print_cron_job(
    name: String,
    cj: &CronJob,
    o: &TableOptions,
    now: SimTime,
) -> Vec<String> {
    let spec = &cj.spec;
    let last = cj
        .status
        .last_schedule_time
        .as_deref()
        .and_then(crate::time::parse_rfc3339)
        .map(|t| age(t, now))
        .unwrap_or_else(|| "<none>".into());
    let suspend = match spec.suspend {
        None => "<unset>".to_string(),
        Some(true) => "True".into(),
        Some(false) => "False".into(),
    };
    let mut r = vec![
        name,
        spec.schedule.clone(),
        spec.time_zone.clone().unwrap_or_else(|| "<none>".into()),
        suspend,
        cj.status.active.len().to_string(),
        last,
        age(cj.metadata.created_ms, now),
    ];
    if o.wide {
        let (c, i) = containers_images(&spec.job_template.spec.template.spec);
        r.extend([
            c,
            i,
            format_label_selector(spec.job_template.spec.selector.as_ref()),
        ]);
    }
    r
}

/// `printHorizontalPodAutoscaler`: the target, metrics, bounds and replicas.
pub(super) fn print_hpa(name: String, h: &HorizontalPodAutoscaler, now: SimTime) -> Vec<String> {
    let m = &h.metadata;
    vec![
        name,
        format!(
            "{}/{}",
            h.spec.scale_target_ref.kind, h.spec.scale_target_ref.name
        ),
        format_hpa_metrics(h),
        h.spec
            .min_replicas
            .map_or_else(|| "<unset>".to_string(), |m| m.to_string()),
        h.spec.max_replicas.to_string(),
        h.status.current_replicas.to_string(),
        age(m.created_ms, now),
    ]
}

/// `formatHPAMetrics`: `cpu: 80%/50%` per Resource metric (`<unknown>` before the
/// first reading), two at most, then ` + N more...`.
pub fn format_hpa_metrics(h: &HorizontalPodAutoscaler) -> String {
    let specs = &h.spec.metrics;
    if specs.is_empty() {
        return "<none>".into();
    }
    let statuses = &h.status.current_metrics;
    let list: Vec<String> = specs
        .iter()
        .enumerate()
        .map(|(i, spec)| {
            let status = statuses.get(i).and_then(|s| s.resource.as_ref());
            match (&spec.type_[..], &spec.resource) {
                ("Resource", Some(r)) => match &r.target.average_value {
                    Some(target) => format!(
                        "{}: {}/{target}",
                        r.name,
                        status
                            .and_then(|s| s.current.average_value.clone())
                            .unwrap_or_else(|| "<unknown>".into())
                    ),
                    None => format!(
                        "{}: {}/{}",
                        r.name,
                        status
                            .and_then(|s| s.current.average_utilization)
                            .map_or_else(|| "<unknown>".to_string(), |u| format!("{u}%")),
                        r.target
                            .average_utilization
                            .map_or_else(|| "<auto>".to_string(), |u| format!("{u}%"))
                    ),
                },
                _ => "<unknown type>".into(),
            }
        })
        .collect();
    if list.len() > 2 {
        format!("{} + {} more...", list[..2].join(", "), list.len() - 2)
    } else {
        list.join(", ")
    }
}
