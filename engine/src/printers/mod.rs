//! kubectl's printers: the columns of `kubectl get` as kubectl computes them.
//!
//! Upstream: `pkg/printers/internalversion/printers.go` (`printPod`, `printNode`,
//! `printDeployment`, `printReplicaSet`). The full table printers, `describe`, and
//! `-o yaml|json|jsonpath` come with the command language.

pub mod custom_columns;
pub mod describe;
pub mod get;
pub mod go_json;
pub mod go_sort;
pub mod gotemplate;
pub mod jsonpath;
pub mod output;
pub mod request_trace;
pub mod table;
pub mod unified_diff;
pub mod yaml;

use crate::api::*;
use crate::time::{human_duration_since, SimTime};

/// READY and STATUS of `kubectl get pods` (`printPod`), and the restart count.
pub fn pod_ready_status(pod: &Pod) -> (String, String, i64) {
    // Sidecars (init containers with restartPolicy: Always) count as containers.
    let sidecar = |name: &str| {
        pod.spec
            .init_containers
            .iter()
            .any(|c| c.name == name && c.is_sidecar())
    };
    let total = pod.spec.containers.len()
        + pod
            .spec
            .init_containers
            .iter()
            .filter(|c| c.is_sidecar())
            .count();
    let mut ready = 0;
    let mut restarts = 0;
    let mut reason = if pod.status.reason.is_empty() {
        pod.status.phase.clone()
    } else {
        pod.status.reason.clone()
    };
    let mut has_running = false;
    // Init containers first (printPod): the first one not completed names the stage.
    let mut initializing = false;
    let n_init = pod.spec.init_containers.len();
    for (i, c) in pod.status.init_container_statuses.iter().enumerate() {
        restarts += c.restart_count;
        // A started sidecar is not initializing the Pod: it only counts if ready.
        if sidecar(&c.name) && c.started == Some(true) {
            if c.ready {
                ready += 1;
            }
            continue;
        }
        match (&c.state.terminated, &c.state.waiting) {
            (Some(t), _) if t.exit_code == 0 => continue,
            (Some(t), _) => {
                reason = if t.reason.is_empty() {
                    format!("Init:ExitCode:{}", t.exit_code)
                } else {
                    format!("Init:{}", t.reason)
                };
            }
            (None, Some(w)) if !w.reason.is_empty() && w.reason != "PodInitializing" => {
                reason = format!("Init:{}", w.reason);
            }
            _ => reason = format!("Init:{i}/{n_init}"),
        }
        initializing = true;
        break;
    }
    let initialized = pod
        .status
        .conditions
        .iter()
        .any(|c| c.type_ == PodConditionType::Initialized && c.status == ConditionStatus::True);
    for c in pod
        .status
        .container_statuses
        .iter()
        .rev()
        .filter(|_| !initializing || initialized)
    {
        restarts += c.restart_count;
        if let Some(w) = c.state.waiting.as_ref().filter(|w| !w.reason.is_empty()) {
            reason = w.reason.clone();
        } else if let Some(t) = c.state.terminated.as_ref() {
            reason = if !t.reason.is_empty() {
                t.reason.clone()
            } else {
                format!("ExitCode:{}", t.exit_code)
            };
        } else if c.ready && c.state.running.is_some() {
            has_running = true;
            ready += 1;
        }
    }
    if reason == "Completed" && has_running {
        reason = if pod.is_ready() {
            "Running".into()
        } else {
            "NotReady".into()
        };
    }
    if pod.metadata.is_deleting() && pod.status.reason == "NodeLost" {
        reason = "Unknown".into();
    } else if pod.metadata.is_deleting() && !pod.is_terminal() {
        reason = "Terminating".into();
    }
    if !initializing || initialized {
        // Initialized: completed init containers' restarts no longer count (printPod
        // restarts from the sidecars' count), only the sidecars' and the app's.
        restarts = pod
            .status
            .init_container_statuses
            .iter()
            .filter(|c| sidecar(&c.name))
            .chain(&pod.status.container_statuses)
            .map(|c| c.restart_count)
            .sum();
    }
    (format!("{ready}/{total}"), reason, restarts)
}

/// RESTARTS of `kubectl get pods` as `printPod` counts it: (count, when the last
/// counted restart's container had finished). Init containers count while the Pod
/// initializes; once it is Initialized only sidecars (restartable init containers)
/// and the app containers do.
pub fn pod_restarts(pod: &Pod) -> (i64, Option<SimTime>) {
    let finished = |c: &ContainerStatus| {
        c.last_state
            .terminated
            .as_ref()
            .and_then(|t| crate::time::parse_rfc3339(&t.finished_at))
    };
    let sidecar = |name: &str| {
        pod.spec
            .init_containers
            .iter()
            .any(|c| c.name == name && c.is_sidecar())
    };
    let (_, _, restarts) = pod_ready_status(pod);
    let initialized = pod
        .status
        .conditions
        .iter()
        .any(|c| c.type_ == PodConditionType::Initialized && c.status == ConditionStatus::True);
    // printPod's init loop stops at the first init container neither completed nor a
    // started sidecar: the Pod is initializing.
    let stuck = pod.status.init_container_statuses.iter().any(|c| {
        let done = c
            .state
            .terminated
            .as_ref()
            .is_some_and(|t| t.exit_code == 0);
        let started_sidecar = sidecar(&c.name) && c.started == Some(true);
        !(done || started_sidecar)
    });
    let initializing = stuck && !initialized;
    let inits = pod
        .status
        .init_container_statuses
        .iter()
        .filter(|c| initializing || sidecar(&c.name));
    let apps = pod
        .status
        .container_statuses
        .iter()
        .filter(|_| !initializing);
    let last = inits.chain(apps).filter_map(finished).max();
    (restarts, last)
}

/// STATUS of `kubectl get nodes`: `Ready` / `NotReady` (Unknown prints NotReady too),
/// with `,SchedulingDisabled` when cordoned.
pub fn node_status(node: &Node) -> String {
    let mut s = if node.ready_status() == ConditionStatus::True {
        "Ready".to_string()
    } else {
        "NotReady".to_string()
    };
    if node.spec.unschedulable {
        s.push_str(",SchedulingDisabled");
    }
    s
}

/// AGE column (and every other "time since" kubectl prints): from the timestamp as
/// stored, in whole seconds.
pub fn age(created_ms: SimTime, now: SimTime) -> String {
    human_duration_since(created_ms, now)
}

/// A resource's name as kubectl prints it after a verb: `deployment.apps/web`.
pub fn qualified_name(kind: Kind, name: &str) -> String {
    format!("{}/{name}", get::name_prefix(kind))
}

/// kubectl's `DeploymentStatusViewer.Status`: (message, done).
pub fn rollout_message(d: &Deployment) -> Result<(String, bool), String> {
    let name = &d.metadata.name;
    if d.metadata.generation <= d.status.observed_generation {
        if get_condition(&d.status.conditions, DeploymentConditionType::Progressing)
            .is_some_and(|c| c.reason == DeploymentConditionReason::ProgressDeadlineExceeded)
        {
            return Err(format!(
                "error: deployment \"{name}\" exceeded its progress deadline"
            ));
        }
        let s = &d.status;
        if s.updated_replicas < d.spec.replicas {
            return Ok((format!("Waiting for deployment \"{name}\" rollout to finish: {} out of {} new replicas have been updated...", s.updated_replicas, d.spec.replicas), false));
        }
        if s.replicas > s.updated_replicas {
            return Ok((format!("Waiting for deployment \"{name}\" rollout to finish: {} old replicas are pending termination...", s.replicas - s.updated_replicas), false));
        }
        if s.available_replicas < s.updated_replicas {
            return Ok((format!("Waiting for deployment \"{name}\" rollout to finish: {} of {} updated replicas are available...", s.available_replicas, s.updated_replicas), false));
        }
        return Ok((
            format!("deployment \"{name}\" successfully rolled out"),
            true,
        ));
    }
    Ok((
        "Waiting for deployment spec update to be observed...".into(),
        false,
    ))
}

/// The DaemonSet status viewer (`DaemonSetStatusViewer.Status` in
/// `polymorphichelpers/rollout_status.go`).
pub fn daemonset_rollout_message(ds: &DaemonSet) -> Result<(String, bool), String> {
    if ds.spec.update_strategy.type_ != "RollingUpdate" {
        return Err(
            "error: rollout status is only available for RollingUpdate strategy type".into(),
        );
    }
    let (name, s) = (&ds.metadata.name, &ds.status);
    if ds.metadata.generation <= s.observed_generation {
        if s.updated_number_scheduled < s.desired_number_scheduled {
            return Ok((format!("Waiting for daemon set \"{name}\" rollout to finish: {} out of {} new pods have been updated...", s.updated_number_scheduled, s.desired_number_scheduled), false));
        }
        if s.number_available < s.desired_number_scheduled {
            return Ok((format!("Waiting for daemon set \"{name}\" rollout to finish: {} of {} updated pods are available...", s.number_available, s.desired_number_scheduled), false));
        }
        return Ok((
            format!("daemon set \"{name}\" successfully rolled out"),
            true,
        ));
    }
    Ok((
        "Waiting for daemon set spec update to be observed...".into(),
        false,
    ))
}

/// The StatefulSet status viewer (`StatefulSetStatusViewer.Status`). The API server
/// defaults `rollingUpdate.partition` to 0, so a RollingUpdate set ends on the
/// "partitioned roll out complete" line even without a partition, as kubectl prints.
pub fn statefulset_rollout_message(sts: &StatefulSet) -> Result<(String, bool), String> {
    if sts.spec.update_strategy.type_ != "RollingUpdate" {
        return Err(
            "error: rollout status is only available for RollingUpdate strategy type".into(),
        );
    }
    let s = &sts.status;
    if s.observed_generation == 0 || sts.metadata.generation > s.observed_generation {
        return Ok((
            "Waiting for statefulset spec update to be observed...".into(),
            false,
        ));
    }
    if s.ready_replicas < sts.spec.replicas {
        return Ok((
            format!(
                "Waiting for {} pods to be ready...",
                sts.spec.replicas - s.ready_replicas
            ),
            false,
        ));
    }
    if let Some(ru) = &sts.spec.update_strategy.rolling_update {
        if s.updated_replicas < sts.spec.replicas - ru.partition {
            return Ok((format!("Waiting for partitioned roll out to finish: {} out of {} new pods have been updated...", s.updated_replicas, sts.spec.replicas - ru.partition), false));
        }
        return Ok((
            format!(
                "partitioned roll out complete: {} new pods have been updated...",
                s.updated_replicas
            ),
            true,
        ));
    }
    if s.update_revision != s.current_revision {
        return Ok((
            format!(
                "waiting for statefulset rolling update to complete {} pods at revision {}...",
                s.updated_replicas, s.update_revision
            ),
            false,
        ));
    }
    Ok((
        format!(
            "statefulset rolling update complete {} pods at revision {}...",
            s.current_replicas, s.current_revision
        ),
        true,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod_with(phase: PodPhase, statuses: Vec<ContainerStatus>) -> Pod {
        let mut p = Pod::default();
        p.spec.containers = statuses
            .iter()
            .map(|s| Container {
                name: s.name.clone(),
                ..Default::default()
            })
            .collect();
        p.status.phase = phase.into();
        p.status.container_statuses = statuses;
        p
    }

    #[test]
    fn a_waiting_container_reason_overrides_the_phase() {
        let p = pod_with(
            PodPhase::Pending,
            vec![ContainerStatus {
                name: "app".into(),
                state: ContainerState {
                    waiting: Some(ContainerStateWaiting {
                        reason: "ContainerCreating".into(),
                        message: String::new(),
                    }),
                    ..Default::default()
                },
                ..Default::default()
            }],
        );
        assert_eq!(
            pod_ready_status(&p),
            ("0/1".into(), "ContainerCreating".into(), 0)
        );
    }

    #[test]
    fn a_deleting_pod_prints_terminating_and_keeps_its_ready_count() {
        let mut p = pod_with(
            PodPhase::Running,
            vec![ContainerStatus {
                name: "app".into(),
                ready: true,
                restart_count: 2,
                state: ContainerState {
                    running: Some(ContainerStateRunning::default()),
                    ..Default::default()
                },
                ..Default::default()
            }],
        );
        assert_eq!(pod_ready_status(&p), ("1/1".into(), "Running".into(), 2));
        p.metadata.deletion_ms = Some(5);
        assert_eq!(pod_ready_status(&p).1, "Terminating");
    }

    #[test]
    fn unknown_and_false_ready_nodes_both_print_not_ready() {
        let mut n = Node::default();
        n.status.conditions.push(Condition {
            type_: NodeConditionType::Ready.into(),
            status: ConditionStatus::Unknown.into(),
            ..Default::default()
        });
        assert_eq!(node_status(&n), "NotReady");
        n.spec.unschedulable = true;
        n.status.conditions[0].status = ConditionStatus::True.into();
        assert_eq!(node_status(&n), "Ready,SchedulingDisabled");
    }
}
