//! Pod status as the kubelet's status manager writes it: conditions, container states,
//! the order of the conditions.
//!
//! Upstream: `pkg/kubelet/status/status_manager.go`, `pkg/kubelet/kubelet_pods.go`
//! (`generateAPIPodStatus`).

use super::*;

pub(super) fn waiting_state(reason: &str) -> ContainerState {
    ContainerState {
        waiting: Some(ContainerStateWaiting {
            reason: reason.into(),
            message: String::new(),
        }),
        ..Default::default()
    }
}

/// Set container `name` waiting with `reason` and `message`.
pub(super) fn set_waiting(p: &mut Pod, name: &str, reason: &str, message: &str) {
    if let Some(cs) = p
        .status
        .container_statuses
        .iter_mut()
        .find(|x| x.name == name)
    {
        cs.state = ContainerState {
            waiting: Some(ContainerStateWaiting {
                reason: reason.into(),
                message: message.into(),
            }),
            ..Default::default()
        };
        cs.ready = false;
    }
}

/// The container a kubelet-wide container index names: `spec.containers[i]` for
/// `i < containers.len()`, else `spec.initContainers[i - containers.len()]`. The
/// probers, generations and restart decisions of sidecars (restartable init
/// containers) share the app containers' machinery through this one index space.
pub(super) fn slot_container(pod: &Pod, i: usize) -> Option<&Container> {
    let n = pod.spec.containers.len();
    if i < n {
        pod.spec.containers.get(i)
    } else {
        pod.spec.init_containers.get(i - n)
    }
}

/// How many indices [`slot_container`] knows for the Pod.
pub(super) fn slot_count(pod: &Pod) -> usize {
    pod.spec.containers.len() + pod.spec.init_containers.len()
}

/// The status of container `name`, app or init (names are unique across both lists).
pub(super) fn status_of<'a>(p: &'a Pod, name: &str) -> Option<&'a ContainerStatus> {
    p.status
        .container_statuses
        .iter()
        .chain(&p.status.init_container_statuses)
        .find(|x| x.name == name)
}

/// The status of container `name`, app or init, to change.
pub(super) fn status_of_mut<'a>(p: &'a mut Pod, name: &str) -> Option<&'a mut ContainerStatus> {
    p.status
        .container_statuses
        .iter_mut()
        .chain(p.status.init_container_statuses.iter_mut())
        .find(|x| x.name == name)
}

/// The `ContainersReady` message for the Pod's current statuses (`""` when all are
/// ready), as `GenerateContainersReadyCondition` builds it: sidecars (restartable init
/// containers) count like app containers and come first, in declaration order; a
/// container with no status yet is "unknown".
pub(super) fn unready_message(p: &Pod) -> String {
    let mut unknown = Vec::new();
    let mut unready = Vec::new();
    let sidecars = p.spec.init_containers.iter().filter(|c| c.is_sidecar());
    for c in sidecars.chain(&p.spec.containers) {
        match status_of(p, &c.name) {
            None => unknown.push(c.name.as_str()),
            Some(s) if !s.ready => unready.push(c.name.as_str()),
            Some(_) => {}
        }
    }
    let mut parts = Vec::new();
    if !unknown.is_empty() {
        parts.push(format!(
            "containers with unknown status: [{}]",
            unknown.join(" ")
        ));
    }
    if !unready.is_empty() {
        parts.push(format!(
            "containers with unready status: [{}]",
            unready.join(" ")
        ));
    }
    parts.join(", ")
}

/// ContainersReady / Ready from the containers' readiness (sidecars included); true
/// when all are ready.
pub(super) fn refresh_ready(p: &mut Pod, now: SimTime) -> bool {
    let msg = unready_message(p);
    if msg.is_empty() {
        set_condition(
            &mut p.status.conditions,
            cond(
                PodConditionType::ContainersReady,
                ConditionStatus::True,
                "",
                "",
                now,
            ),
        );
        set_condition(
            &mut p.status.conditions,
            cond(PodConditionType::Ready, ConditionStatus::True, "", "", now),
        );
        true
    } else {
        set_condition(
            &mut p.status.conditions,
            cond(
                PodConditionType::ContainersReady,
                ConditionStatus::False,
                "ContainersNotReady",
                &msg,
                now,
            ),
        );
        set_condition(
            &mut p.status.conditions,
            cond(
                PodConditionType::Ready,
                ConditionStatus::False,
                "ContainersNotReady",
                &msg,
                now,
            ),
        );
        false
    }
}

/// A condition of type `type_` (a Pod's or a Node's) that became `status` at `now`.
pub(super) fn cond(
    type_: impl AsRef<str>,
    status: ConditionStatus,
    reason: &str,
    message: &str,
    now: SimTime,
) -> Condition {
    Condition {
        type_: type_.as_ref().into(),
        status: status.into(),
        last_heartbeat_time: None,
        last_transition_time: Some(rfc3339(now)),
        reason: reason.into(),
        message: message.into(),
        transition_ms: now,
        ..Default::default()
    }
}

/// The order the kubelet's status manager writes Pod conditions in
/// (`generateAPIPodStatus`): its own four first, then the others (PodScheduled…).
pub(super) fn order_conditions(conds: &mut [Condition]) {
    let rank = |t: &str| match PodConditionType::parse(t) {
        Some(PodConditionType::PodReadyToStartContainers) => 0,
        Some(PodConditionType::Initialized) => 1,
        Some(PodConditionType::Ready) => 2,
        Some(PodConditionType::ContainersReady) => 3,
        _ => 4,
    };
    crate::sorting::sort_by_key(conds, |c| rank(&c.type_));
}

/// Go's `time.Duration.String()` for millisecond durations (`2.5s`, `850ms`, `1m2s`).
pub fn format_go_duration(ms: SimTime) -> String {
    if ms < 1000 {
        return format!("{ms}ms");
    }
    let m = ms / 60_000;
    let rest = ms % 60_000;
    let secs = if rest % 1000 == 0 {
        format!("{}s", rest / 1000)
    } else {
        let s = format!("{}.{:03}", rest / 1000, rest % 1000);
        format!("{}s", s.trim_end_matches('0'))
    };
    if m > 0 {
        format!("{m}m{secs}")
    } else {
        secs
    }
}
