//! The workloads' describers: Deployment, ReplicaSet, Job, CronJob, DaemonSet,
//! StatefulSet and HorizontalPodAutoscaler.

use super::common::*;
use super::pod::*;
use super::Reader;
use crate::api::*;
use crate::controllers::deployment::util::{max_surge, max_unavailable, revision};
use crate::tabwriter;
use crate::time::rfc1123z;
use std::fmt::Write;

/// The ReplicaSets a Deployment controls, oldest first (`GetAllReplicaSets`: a list
/// by its selector, the ones it controls).
pub fn owned_replica_sets(rd: &mut dyn Reader, d: &Deployment) -> Vec<ReplicaSet> {
    let listed = rd.list(
        Kind::ReplicaSet,
        Some(&d.metadata.namespace),
        Some(&d.spec.selector),
        "",
    );
    let mut rss: Vec<ReplicaSet> = typed::<ReplicaSet>(&listed)
        .into_iter()
        .filter(|rs| rs.metadata.controller_ref().map(|r| r.uid.as_str()) == Some(&d.metadata.uid))
        .collect();
    crate::sorting::sort_by(&mut rss, |a, b| {
        (a.metadata.created_ms, &a.metadata.name).cmp(&(b.metadata.created_ms, &b.metadata.name))
    });
    rss
}

pub(super) fn describe_deployment(rd: &mut dyn Reader, d: &Deployment) -> String {
    let mut w = String::new();
    let m = &d.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let _ = writeln!(w, "CreationTimestamp:\t{}", rfc1123z(m.created_ms));
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "Selector:\t{}", d.spec.selector.to_selector_string());
    let s = &d.status;
    let _ = writeln!(
        w,
        "Replicas:\t{} desired | {} updated | {} total | {} available | {} unavailable",
        d.spec.replicas,
        s.updated_replicas,
        s.replicas,
        s.available_replicas,
        s.unavailable_replicas
    );
    let _ = writeln!(w, "StrategyType:\t{}", d.spec.strategy.type_);
    let _ = writeln!(w, "MinReadySeconds:\t{}", d.spec.min_ready_seconds);
    if let Some(ru) = &d.spec.strategy.rolling_update {
        let _ = writeln!(
            w,
            "RollingUpdateStrategy:\t{} max unavailable, {} max surge",
            ru.max_unavailable, ru.max_surge
        );
    }
    // One tabwriter for the whole description: the template's cells align with
    // the lines after it, as in kubectl's single prefix writer.
    w.push_str(&pod_template_raw(&d.spec.template, 0));
    conditions_table(&mut w, &s.conditions);
    let rss = owned_replica_sets(rd, d);
    let new = crate::controllers::deployment::sync::find_new(d, &rss);
    // kubectl's describer takes every old ReplicaSet, scaled to zero or not, in the
    // order FindNewReplicaSet sorted the list into (`ReplicaSetsByCreationTimestamp`:
    // creation second, then name).
    let mut old_rss: Vec<&ReplicaSet> = rss
        .iter()
        .enumerate()
        .filter(|(i, _)| Some(*i) != new)
        .map(|(_, r)| r)
        .collect();
    crate::sorting::sort_by(&mut old_rss, |a, b| {
        (a.metadata.created_ms / 1000, &a.metadata.name)
            .cmp(&(b.metadata.created_ms / 1000, &b.metadata.name))
    });
    let olds: Vec<String> = old_rss
        .iter()
        .map(|r| {
            format!(
                "{} ({}/{} replicas created)",
                r.metadata.name, r.status.replicas, r.spec.replicas
            )
        })
        .collect();
    let _ = writeln!(
        w,
        "OldReplicaSets:\t{}",
        if olds.is_empty() {
            "<none>".into()
        } else {
            olds.join(", ")
        }
    );
    match new {
        Some(i) => {
            let r = &rss[i];
            let _ = writeln!(
                w,
                "NewReplicaSet:\t{} ({}/{} replicas created)",
                r.metadata.name, r.status.replicas, r.spec.replicas
            );
        }
        None => {
            let _ = writeln!(w, "NewReplicaSet:\t<none>");
        }
    }
    events(&mut w, rd, &m.uid);
    let _ = (max_surge(d), max_unavailable(d));
    tabwriter::format(&w, 0, 2)
}

pub(super) fn describe_replicaset(rd: &mut dyn Reader, r: &ReplicaSet) -> String {
    let mut w = String::new();
    let m = &r.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let _ = writeln!(w, "Selector:\t{}", r.spec.selector.to_selector_string());
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    if let Some(o) = m.controller_ref() {
        let _ = writeln!(w, "Controlled By:\t{}/{}", o.kind, o.name);
    }
    let _ = writeln!(
        w,
        "Replicas:\t{} current / {} desired",
        r.status.replicas, r.spec.replicas
    );
    let pods = controlled_pods(rd, &m.namespace, &r.spec.selector, &m.uid);
    let count = |ph: PodPhase| {
        pods.iter()
            .filter(|p| p.status.phase == ph && !p.metadata.is_deleting())
            .count()
    };
    let _ = writeln!(
        w,
        "Pods Status:\t{} Running / {} Waiting / {} Succeeded / {} Failed",
        count(PodPhase::Running),
        count(PodPhase::Pending),
        count(PodPhase::Succeeded),
        count(PodPhase::Failed)
    );
    // One tabwriter for the whole description: the template's cells align with
    // the lines after it, as in kubectl's single prefix writer.
    w.push_str(&pod_template_raw(&r.spec.template, 0));
    conditions_table(&mut w, &r.status.conditions);
    events(&mut w, rd, &m.uid);
    let _ = revision(m);
    tabwriter::format(&w, 0, 2)
}

/// `describeJob` (kubectl `pkg/describe/describe.go`): no Conditions section;
/// `Suspend` as Go prints a bool; `Pods Statuses` with the Ready count once the
/// controller has written one.
pub(super) fn describe_job(rd: &mut dyn Reader, j: &Job) -> String {
    let mut w = String::new();
    let m = &j.metadata;
    let (spec, st) = (&j.spec, &j.status);
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let _ = writeln!(
        w,
        "Selector:\t{}",
        spec.selector
            .as_ref()
            .map(|s| s.to_selector_string())
            .unwrap_or_default()
    );
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    if let Some(o) = m.controller_ref() {
        let _ = writeln!(w, "Controlled By:\t{}/{}", o.kind, o.name);
    }
    if let Some(p) = spec.parallelism {
        let _ = writeln!(w, "Parallelism:\t{p}");
    }
    match spec.completions {
        Some(n) => {
            let _ = writeln!(w, "Completions:\t{n}");
        }
        None => {
            let _ = writeln!(w, "Completions:\t<unset>");
        }
    }
    if let Some(mode) = &spec.completion_mode {
        let _ = writeln!(w, "Completion Mode:\t{mode}");
    }
    if let Some(s) = spec.suspend {
        let _ = writeln!(w, "Suspend:\t{s}");
    }
    if let Some(b) = spec.backoff_limit {
        let _ = writeln!(w, "Backoff Limit:\t{b}");
    }
    if let Some(t) = spec.ttl_seconds_after_finished {
        let _ = writeln!(w, "TTL Seconds After Finished:\t{t}");
    }
    if let Some(t) = st.start_ms {
        let _ = writeln!(w, "Start Time:\t{}", rfc1123z(t));
    }
    if let Some(t) = st.completion_ms {
        let _ = writeln!(w, "Completed At:\t{}", rfc1123z(t));
    }
    if let (Some(a), Some(b)) = (st.start_ms, st.completion_ms) {
        let _ = writeln!(w, "Duration:\t{}", crate::printers::age(a, b));
    }
    if let Some(ads) = spec.active_deadline_seconds {
        let _ = writeln!(w, "Active Deadline Seconds:\t{ads}s");
    }
    match st.ready {
        None => {
            let _ = writeln!(
                w,
                "Pods Statuses:\t{} Active / {} Succeeded / {} Failed",
                st.active, st.succeeded, st.failed
            );
        }
        Some(r) => {
            let _ = writeln!(
                w,
                "Pods Statuses:\t{} Active ({r} Ready) / {} Succeeded / {} Failed",
                st.active, st.succeeded, st.failed
            );
        }
    }
    if spec.is_indexed() {
        let _ = writeln!(
            w,
            "Completed Indexes:\t{}",
            cap_indexes(&st.completed_indexes, 50)
        );
    }
    // One tabwriter for the whole description: the template's cells align with
    // the lines after it, as in kubectl's single prefix writer.
    w.push_str(&pod_template_raw(&spec.template, 0));
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeDaemonSet`: the five "Number of Nodes" lines carry no tab (they break
/// the alignment, as upstream's do); the Pods are counted by phase among those it
/// controls.
pub(super) fn describe_daemon_set(rd: &mut dyn Reader, ds: &DaemonSet) -> String {
    let mut w = String::new();
    let m = &ds.metadata;
    let st = &ds.status;
    let node_selector: Vec<String> = ds
        .spec
        .template
        .spec
        .node_selector
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let _ = writeln!(w, "Selector:\t{}", ds.spec.selector.to_selector_string());
    let _ = writeln!(
        w,
        "Node-Selector:\t{}",
        if node_selector.is_empty() {
            "<none>".to_string()
        } else {
            node_selector.join(",")
        }
    );
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(
        w,
        "Desired Number of Nodes Scheduled: {}",
        st.desired_number_scheduled
    );
    let _ = writeln!(
        w,
        "Current Number of Nodes Scheduled: {}",
        st.current_number_scheduled
    );
    let _ = writeln!(
        w,
        "Number of Nodes Scheduled with Up-to-date Pods: {}",
        st.updated_number_scheduled
    );
    let _ = writeln!(
        w,
        "Number of Nodes Scheduled with Available Pods: {}",
        st.number_available
    );
    let _ = writeln!(
        w,
        "Number of Nodes Misscheduled: {}",
        st.number_misscheduled
    );
    pods_status(&mut w, rd, m, &ds.spec.selector);
    // One tabwriter for the whole description: the template's cells align with
    // the lines after it, as in kubectl's single prefix writer.
    w.push_str(&pod_template_raw(&ds.spec.template, 0));
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `Pods Status:` of a DaemonSet or StatefulSet: its controlled Pods by phase
/// (`getPodStatusForController`).
pub(super) fn pods_status(
    w: &mut String,
    rd: &mut dyn Reader,
    meta: &ObjectMeta,
    selector: &LabelSelector,
) {
    let pods = controlled_pods(rd, &meta.namespace, selector, &meta.uid);
    let count = |ph: PodPhase| pods.iter().filter(|p| p.status.phase == ph).count();
    let _ = writeln!(
        w,
        "Pods Status:\t{} Running / {} Waiting / {} Succeeded / {} Failed",
        count(PodPhase::Running),
        count(PodPhase::Pending),
        count(PodPhase::Succeeded),
        count(PodPhase::Failed)
    );
}

/// `describeStatefulSet` with `describeVolumeClaimTemplates`.
pub(super) fn describe_stateful_set(rd: &mut dyn Reader, ss: &StatefulSet) -> String {
    let mut w = String::new();
    let m = &ss.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let _ = writeln!(w, "CreationTimestamp:\t{}", rfc1123z(m.created_ms));
    let _ = writeln!(w, "Selector:\t{}", ss.spec.selector.to_selector_string());
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(
        w,
        "Replicas:\t{} desired | {} total",
        ss.spec.replicas, ss.status.replicas
    );
    let _ = writeln!(w, "Update Strategy:\t{}", ss.spec.update_strategy.type_);
    if let Some(ru) = &ss.spec.update_strategy.rolling_update {
        let _ = writeln!(w, "  Partition:\t{}", ru.partition);
    }
    pods_status(&mut w, rd, m, &ss.spec.selector);
    // One tabwriter for the whole description: the template's cells align with
    // the lines after it, as in kubectl's single prefix writer.
    w.push_str(&pod_template_raw(&ss.spec.template, 0));
    if ss.spec.volume_claim_templates.is_empty() {
        let _ = writeln!(w, "Volume Claims:\t<none>");
    } else {
        let _ = writeln!(w, "Volume Claims:");
        for t in &ss.spec.volume_claim_templates {
            let _ = writeln!(w, "  Name:\t{}", t.metadata.name);
            let _ = writeln!(
                w,
                "  StorageClass:\t{}",
                t.spec.storage_class_name.clone().unwrap_or_default()
            );
            let mut sub = String::new();
            multiline(&mut sub, "Labels", &t.metadata.labels);
            annotations(&mut sub, &t.metadata.annotations);
            for line in sub.lines() {
                let _ = writeln!(w, "  {line}");
            }
            let cap = t.requested_storage();
            let _ = writeln!(
                w,
                "  Capacity:\t{}",
                if cap.is_empty() { "<default>" } else { cap }
            );
            let _ = writeln!(w, "  Access Modes:\t[{}]", t.spec.access_modes.join(" "));
        }
    }
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeHorizontalPodAutoscalerV2`.
pub(super) fn describe_hpa(rd: &mut dyn Reader, h: &HorizontalPodAutoscaler) -> String {
    let mut w = String::new();
    let m = &h.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "CreationTimestamp:\t{}", rfc1123z(m.created_ms));
    let r = &h.spec.scale_target_ref;
    let _ = writeln!(w, "Reference:\t{}/{}", r.kind, r.name);
    let _ = writeln!(w, "Metrics:\t( current / target )");
    for (i, metric) in h.spec.metrics.iter().enumerate() {
        let status = h
            .status
            .current_metrics
            .get(i)
            .and_then(|s| s.resource.as_ref());
        match (&metric.type_[..], &metric.resource) {
            ("Resource", Some(res)) => match &res.target.average_value {
                Some(target) => {
                    let current = status
                        .and_then(|s| s.current.average_value.clone())
                        .unwrap_or_else(|| "<unknown>".into());
                    let _ = writeln!(w, "  resource {} on pods:\t{current} / {target}", res.name);
                }
                None => {
                    let current = status
                        .and_then(|s| {
                            s.current.average_utilization.map(|u| {
                                format!(
                                    "{u}% ({})",
                                    s.current.average_value.clone().unwrap_or_default()
                                )
                            })
                        })
                        .unwrap_or_else(|| "<unknown>".into());
                    let target = res
                        .target
                        .average_utilization
                        .map_or_else(|| "<auto>".to_string(), |u| format!("{u}%"));
                    let _ = writeln!(
                        w,
                        "  resource {} on pods  (as a percentage of request):\t{current} / {target}",
                        res.name
                    );
                }
            },
            (t, _) => {
                let _ = writeln!(w, "  <unknown metric type \"{t}\">");
            }
        }
    }
    let _ = writeln!(
        w,
        "Min replicas:\t{}",
        h.spec
            .min_replicas
            .map_or_else(|| "<unset>".to_string(), |v| v.to_string())
    );
    let _ = writeln!(w, "Max replicas:\t{}", h.spec.max_replicas);
    if let Some(b) = &h.spec.behavior {
        let _ = writeln!(w, "Behavior:");
        for (dir, rules) in [("Scale Up", &b.scale_up), ("Scale Down", &b.scale_down)] {
            let Some(rules) = rules else {
                continue;
            };
            let _ = writeln!(w, "  {dir}:");
            if let Some(s) = rules.stabilization_window_seconds {
                let _ = writeln!(w, "    Stabilization Window: {s} seconds");
            }
            if !rules.policies.is_empty() {
                let _ = writeln!(
                    w,
                    "    Select Policy: {}",
                    rules.select_policy.as_deref().unwrap_or("Max")
                );
                let _ = writeln!(w, "    Policies:");
                for p in &rules.policies {
                    let _ = writeln!(
                        w,
                        "      - Type: {}\tValue: {}\tPeriod: {} seconds",
                        p.type_, p.value, p.period_seconds
                    );
                }
            }
        }
    }
    let _ = writeln!(
        w,
        "{} pods:\t{} current / {} desired",
        r.kind, h.status.current_replicas, h.status.desired_replicas
    );
    if !h.status.conditions.is_empty() {
        let _ = writeln!(w, "Conditions:");
        let _ = writeln!(w, "  Type\tStatus\tReason\tMessage");
        let _ = writeln!(w, "  ----\t------\t------\t-------");
        for cond in &h.status.conditions {
            let _ = writeln!(
                w,
                "  {}\t{}\t{}\t{}",
                cond.type_, cond.status, cond.reason, cond.message
            );
        }
    }
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `capIndexesListOrNone`: the list cut after the first comma past `soft` characters.
pub(super) fn cap_indexes(indexes: &str, soft: usize) -> String {
    if indexes.is_empty() {
        return "<none>".into();
    }
    match indexes.char_indices().skip(soft).find(|(_, ch)| *ch == ',') {
        Some((i, _)) => format!("{}...", &indexes[..=i]),
        None => indexes.to_string(),
    }
}

/// `describeCronJob`, `describeJobTemplate` and `printActiveJobs`: the Job template's
/// selector, parallelism and completions as written (`<unset>` unless given), no time
/// zone line (v0.33).
pub(super) fn describe_cron_job(rd: &mut dyn Reader, cj: &CronJob) -> String {
    let mut w = String::new();
    let m = &cj.metadata;
    let spec = &cj.spec;
    let unset = |v: Option<i64>, unit: &str| {
        v.map(|n| format!("{n}{unit}"))
            .unwrap_or_else(|| "<unset>".into())
    };
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "Schedule:\t{}", spec.schedule);
    let _ = writeln!(w, "Concurrency Policy:\t{}", spec.concurrency_policy);
    let suspend = match spec.suspend {
        None => "<unset>",
        Some(true) => "True",
        Some(false) => "False",
    };
    let _ = writeln!(w, "Suspend:\t{suspend}");
    let _ = writeln!(
        w,
        "Successful Job History Limit:\t{}",
        unset(spec.successful_jobs_history_limit, "")
    );
    let _ = writeln!(
        w,
        "Failed Job History Limit:\t{}",
        unset(spec.failed_jobs_history_limit, "")
    );
    let _ = writeln!(
        w,
        "Starting Deadline Seconds:\t{}",
        unset(spec.starting_deadline_seconds, "s")
    );
    let jt = &spec.job_template.spec;
    let _ = writeln!(
        w,
        "Selector:\t{}",
        jt.selector
            .as_ref()
            .map(|s| s.to_selector_string())
            .unwrap_or_else(|| "<unset>".into())
    );
    let _ = writeln!(w, "Parallelism:\t{}", unset(jt.parallelism, ""));
    let _ = writeln!(w, "Completions:\t{}", unset(jt.completions, ""));
    if let Some(ads) = jt.active_deadline_seconds {
        let _ = writeln!(w, "Active Deadline Seconds:\t{ads}s");
    }
    // One tabwriter for the whole description: the template's cells align with
    // the lines after it, as in kubectl's single prefix writer.
    w.push_str(&pod_template_raw(&jt.template, 0));
    let _ = writeln!(
        w,
        "Last Schedule Time:\t{}",
        cj.status
            .last_schedule_time
            .as_deref()
            .map(ts)
            .unwrap_or_else(|| "<unset>".into())
    );
    let active: Vec<&str> = cj.status.active.iter().map(|r| r.name.as_str()).collect();
    let _ = writeln!(
        w,
        "Active Jobs:\t{}",
        if active.is_empty() {
            "<none>".to_string()
        } else {
            active.join(", ")
        }
    );
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}
