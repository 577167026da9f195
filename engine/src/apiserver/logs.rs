//! `pods/log`: the API server finds the Pod's node and proxies to its kubelet.
//!
//! Upstream: `pkg/registry/core/pod/rest/log.go`, `pkg/registry/core/pod/strategy.go`
//! (`LogLocation`).

use super::request::{ApiRequest, ApiResponse, Backend, LogOptions};
use super::{ApiError, ObjKey, Store};
use crate::api::*;

/// `pods/log`: the API server finds the Pod's node and asks its kubelet.
pub(super) fn log(
    store: &Store,
    backend: &Backend,
    req: &ApiRequest,
    o: &LogOptions,
) -> Result<ApiResponse, ApiError> {
    let key = ObjKey::new(&req.namespace, &req.name);
    let pod = store
        .get::<Pod>(&key)
        .ok_or_else(|| ApiError::not_found(Kind::Pod, &req.name))?;
    let name = &req.name;
    let c = &o.container;
    let Some(container) = pod
        .spec
        .containers
        .iter()
        .chain(&pod.spec.init_containers)
        .find(|x| x.name == *c)
    else {
        return Err(ApiError::bad_request(format!(
            "container {c} is not valid for pod {name}"
        )));
    };
    if pod.spec.node_name.is_empty() {
        return Err(ApiError::bad_request(format!(
            "container \"{c}\" in pod \"{name}\" is waiting to start: ContainerCreating"
        )));
    }
    let node = &pod.spec.node_name;
    let Some(nodes) = backend.nodes.filter(|n| n.reachable(node)) else {
        let ip = store
            .get::<Node>(&ObjKey::new("", node))
            .and_then(|n| n.status.addresses.iter().find(|a| a.type_ == "InternalIP"))
            .map(|a| a.address.clone())
            .unwrap_or_default();
        return Err(ApiError {
            code: 500,
            reason: "",
            message: format!(
                "Get \"https://{ip}:10250/containerLogs/{}/{name}/{c}\": dial tcp {ip}:10250: connect: no route to host",
                req.namespace
            ),
            kubectl_message: None,
            details: None,
        });
    };
    let mut lines = nodes.container_log(pod, container, o.previous)?;
    if let Some(since) = o.since {
        lines.retain(|(at, _)| *at >= since);
    }
    if let Some(n) = o.tail {
        lines.drain(..lines.len().saturating_sub(n));
    }
    let text = lines
        .iter()
        .map(|(at, l)| {
            if o.timestamps {
                format!("{} {l}\n", crate::time::rfc3339(*at))
            } else {
                format!("{l}\n")
            }
        })
        .collect();
    Ok(ApiResponse {
        code: 200,
        log: Some(text),
        revision: store.revision(),
        ..Default::default()
    })
}
