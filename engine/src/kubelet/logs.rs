//! The kubelet's container logs (`GET /containerLogs/NS/POD/CONTAINER`, which the API
//! server's `pods/log` proxies to): what the application printed — its start, the
//! requests it answered (from the traffic model), and its exit — for the running
//! instance or, with `previous`, the one before; and the kubelet's refusals for a
//! container that has not started (`validateContainerLogStatus`).
//!
//! Upstream: `pkg/kubelet/kubelet_pods.go` (`GetContainerLogs`,
//! `validateContainerLogStatus`), `pkg/registry/core/pod/rest/log.go`.

use crate::api::*;
use crate::apiserver::ApiError;
use crate::time::{parse_rfc3339, SimTime};
use std::collections::{BTreeMap, VecDeque};

/// The lines one container instance printed: started at `from`, ended at `to` (None:
/// still running), with how it ended. `served` is what the application answered, by
/// Pod uid (the traffic model's log).
pub fn instance_lines(
    served: &BTreeMap<String, VecDeque<(SimTime, String)>>,
    pod: &Pod,
    container: &Container,
    from: SimTime,
    to: Option<(SimTime, &ContainerStateTerminated)>,
) -> Vec<(SimTime, String)> {
    let port = container
        .ports
        .first()
        .map(|p| p.container_port)
        .unwrap_or(8080);
    let mut lines = vec![(from, format!("listening on :{port}"))];
    let end = to.map(|(t, _)| t).unwrap_or(SimTime::MAX);
    if let Some(log) = served.get(&pod.metadata.uid) {
        // The requests go to the Pod's first container (its application).
        if pod.spec.containers.first().map(|x| &x.name) == Some(&container.name) {
            lines.extend(log.iter().filter(|(t, _)| *t >= from && *t <= end).cloned());
        }
    }
    if let Some((t, term)) = to {
        let last = match (term.reason.as_str(), term.exit_code) {
            ("OOMKilled", _) => None,
            (_, 0) => Some("received SIGTERM, shutting down".to_string()),
            (_, code) => Some(format!("fatal: exiting with code {code}")),
        };
        if let Some(l) = last {
            lines.push((t, l));
        }
    }
    lines
}

/// The log of `container` (named in `pod`'s spec) of the running instance, or with
/// `previous` the last terminated one; a container that has not started is the
/// kubelet's 400.
pub fn container_log(
    served: &BTreeMap<String, VecDeque<(SimTime, String)>>,
    pod: &Pod,
    container: &Container,
    previous: bool,
) -> Result<Vec<(SimTime, String)>, ApiError> {
    let (name, container_name) = (&pod.metadata.name, &container.name);
    let status = pod
        .status
        .container_statuses
        .iter()
        .chain(&pod.status.init_container_statuses)
        .find(|s| s.name == *container_name)
        .cloned()
        .unwrap_or_default();
    let t = |s: &str| parse_rfc3339(s).unwrap_or(0);
    let ended = |term: &ContainerStateTerminated| {
        instance_lines(
            served,
            pod,
            container,
            t(&term.started_at),
            Some((t(&term.finished_at), term)),
        )
    };
    if previous {
        return match status.last_state.terminated.as_ref() {
            Some(last) => Ok(ended(last)),
            None => Err(ApiError::bad_request(format!(
                "previous terminated container \"{container_name}\" in pod \"{name}\" not found"
            ))),
        };
    }
    if let Some(r) = &status.state.running {
        return Ok(instance_lines(
            served,
            pod,
            container,
            t(&r.started_at),
            None,
        ));
    }
    if let Some(term) = status
        .state
        .terminated
        .as_ref()
        .or(status.last_state.terminated.as_ref())
    {
        return Ok(ended(term));
    }
    let reason = status
        .state
        .waiting
        .as_ref()
        .map(|w| w.reason.clone())
        .unwrap_or_default();
    Err(ApiError::bad_request(match reason.as_str() {
        "ErrImagePull" => format!(
            "container \"{container_name}\" in pod \"{name}\" is waiting to start: image can't be pulled"
        ),
        "ImagePullBackOff" => format!(
            "container \"{container_name}\" in pod \"{name}\" is waiting to start: trying and failing to pull image"
        ),
        "" => format!(
            "container \"{container_name}\" in pod \"{name}\" is waiting to start - no logs yet"
        ),
        r => format!("container \"{container_name}\" in pod \"{name}\" is waiting to start: {r}"),
    }))
}

/// The kubelets the API server proxies `pods/log` to, with what their applications
/// answered.
pub struct Servers<'a> {
    /// Every node's kubelet.
    pub kubelets: &'a BTreeMap<String, super::Kubelet>,
    /// What the applications answered, by Pod uid (the traffic model's log).
    pub served: &'a BTreeMap<String, VecDeque<(SimTime, String)>>,
}

impl crate::apiserver::request::NodeProxy for Servers<'_> {
    fn reachable(&self, node: &str) -> bool {
        self.kubelets
            .get(node)
            .is_some_and(|k| k.up && !k.partitioned)
    }

    fn container_log(
        &self,
        pod: &Pod,
        container: &Container,
        previous: bool,
    ) -> Result<Vec<(SimTime, String)>, ApiError> {
        container_log(self.served, pod, container, previous)
    }
}
