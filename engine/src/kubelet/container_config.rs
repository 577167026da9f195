//! What the kubelet resolves before it can create a container (`generateContainerConfig`
//! → `makeEnvironmentVariables`, `pkg/kubelet/kubelet_pods.go`, v1.33): every `envFrom`
//! source, then every `env` entry's `valueFrom`. A ConfigMap or Secret that does not
//! exist, or a key it lacks, stops the start unless the reference is `optional`: the
//! container waits in `CreateContainerConfigError`, a `Failed` Event says why, and the
//! pod worker tries again at its next sync.

use super::*;
use serde_json::Value;

/// The waiting reason of a container whose config could not be generated.
pub const CREATE_CONTAINER_CONFIG_ERROR: &str = "CreateContainerConfigError";

/// How soon a pod worker syncs a Pod again after a failed start (the kubelet's
/// `backOffPeriod` for a sync that returned an error, 10 s).
pub(super) const CONFIG_RETRY: SimTime = 10 * SECOND;

/// The error `makeEnvironmentVariables` returns for container `c`, if any, in
/// upstream's words (`configmap "app-config" not found`, `couldn't find key k in
/// ConfigMap ns/name`).
pub fn container_config_error(store: &Store, pod: &Pod, c: &Container) -> Option<String> {
    let ns = &pod.metadata.namespace;
    let optional = |v: &Value| v["optional"].as_bool() == Some(true);
    if let Some(from) = c.extra.get("envFrom").and_then(Value::as_array) {
        for source in from {
            for (field, kind) in [("configMapRef", "configmap"), ("secretRef", "secret")] {
                let r = &source[field];
                let Some(name) = r["name"].as_str() else {
                    continue;
                };
                if !exists(store, kind, ns, name) && !optional(r) {
                    return Some(format!("{kind} \"{name}\" not found"));
                }
            }
        }
    }
    for var in &c.env {
        let from = &var["valueFrom"];
        for (field, kind, shown) in [
            ("configMapKeyRef", "configmap", "ConfigMap"),
            ("secretKeyRef", "secret", "Secret"),
        ] {
            let r = &from[field];
            let (Some(name), Some(key)) = (r["name"].as_str(), r["key"].as_str()) else {
                continue;
            };
            if optional(r) {
                continue;
            }
            match data_has(store, kind, ns, name, key) {
                None => return Some(format!("{kind} \"{name}\" not found")),
                Some(false) => {
                    return Some(format!("couldn't find key {key} in {shown} {ns}/{name}"))
                }
                Some(true) => {}
            }
        }
    }
    None
}

fn exists(store: &Store, kind: &str, ns: &str, name: &str) -> bool {
    let key = ObjKey::new(ns, name);
    match kind {
        "configmap" => store.get::<ConfigMap>(&key).is_some(),
        _ => store.get::<Secret>(&key).is_some(),
    }
}

/// Whether the object's `data` holds `key`; None when the object is missing.
fn data_has(store: &Store, kind: &str, ns: &str, name: &str, key: &str) -> Option<bool> {
    let k = ObjKey::new(ns, name);
    match kind {
        "configmap" => store
            .get::<ConfigMap>(&k)
            .map(|cm| cm.data.contains_key(key)),
        _ => store.get::<Secret>(&k).map(|s| s.data.contains_key(key)),
    }
}

/// Whether container `i` waits after a failed config: the next start is a retry.
pub(super) fn retrying(pod: &Pod, i: usize) -> bool {
    let Some(c) = pod.spec.containers.get(i) else {
        return false;
    };
    pod.status.container_statuses.iter().any(|cs| {
        cs.name == c.name
            && cs
                .state
                .waiting
                .as_ref()
                .is_some_and(|w| w.reason == CREATE_CONTAINER_CONFIG_ERROR)
    })
}

/// `getPhase`: a container waiting for its first start keeps the Pod Pending (one that
/// waits after it ran, in CrashLoopBackOff, counts as stopped).
pub(super) fn waiting_for_first_start(pod: &Pod) -> bool {
    pod.status
        .container_statuses
        .iter()
        .any(|cs| cs.state.waiting.is_some() && cs.last_state.terminated.is_none())
}

impl Kubelet {
    /// A retried start ensures the image again and finds it present.
    pub(super) fn retry_events(&self, pod: &Pod, i: usize) -> Vec<Request> {
        match pod.spec.containers.get(i) {
            Some(c) if retrying(pod, i) => vec![self.event(
                &pod.metadata,
                EventType::Normal,
                "Pulled",
                format!("Container image \"{}\" already present on machine", c.image),
            )],
            _ => Vec::new(),
        }
    }

    /// `startContainer` stopped at `generateContainerConfig`: the image check's Event,
    /// `Failed` with the error, the container waiting in `CreateContainerConfigError`
    /// (the Pod stays Pending), and the next attempt at the worker's next sync.
    pub(super) fn config_error(
        &mut self,
        pod: &Pod,
        uid: &str,
        i: usize,
        err: String,
        now: SimTime,
    ) -> (Vec<Request>, Vec<(SimTime, KubeletTimer)>, Pod) {
        let mut p = pod.clone();
        let Some(c) = pod.spec.containers.get(i) else {
            return (vec![], vec![], p);
        };
        let mut requests = self.retry_events(pod, i);
        requests.push(self.event(
            &p.metadata,
            EventType::Warning,
            "Failed",
            format!("Error: {err}"),
        ));
        if let Some(cs) = p
            .status
            .container_statuses
            .iter_mut()
            .find(|x| x.name == c.name)
        {
            cs.state = ContainerState {
                waiting: Some(ContainerStateWaiting {
                    reason: CREATE_CONTAINER_CONFIG_ERROR.into(),
                    message: err,
                }),
                ..Default::default()
            };
            cs.ready = false;
            cs.started = Some(false);
        }
        requests.push(Request::blind_update_status(p.clone()));
        let retry = vec![(now + CONFIG_RETRY, KubeletTimer::Start(uid.into(), i))];
        (requests, retry, p)
    }
}
