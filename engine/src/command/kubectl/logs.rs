//! `kubectl logs POD [-c CONTAINER] [--previous] [--tail N] [-f]`: what the application
//! printed — its start, the requests it answered (from the traffic model), and its exit.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/logs/logs.go` (the default container,
//! `Defaulted container … out of: …`) and the kubelet's `validateContainerLogStatus`
//! (`pkg/kubelet/kubelet_pods.go`), whose errors the API server returns as 400s.
//!
//! `-f` follows for ten seconds of simulated time (a terminal session would follow
//! until interrupted; a script cannot be).

use super::util::{namespace, NS, R};
use crate::api::*;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, FlagSpec};
use crate::time::{parse_rfc3339, SimTime, SECOND};

const LOGS_FLAGS: &[FlagSpec] = &[
    NS,
    flag("container", Some('c')),
    bool_flag("previous", Some('p')),
    flag("tail", None),
    bool_flag("follow", Some('f')),
    bool_flag("timestamps", None),
];

/// How long `-f` follows.
pub const FOLLOW: SimTime = 10 * SECOND;

fn bad_request(msg: String) -> String {
    format!("Error from server (BadRequest): {msg}")
}

/// The application's lines for one container instance: started at `from`, ended at
/// `to` (None: still running), with how it ended.
fn instance_lines(
    c: &Cluster,
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
    if let Some(log) = c.proxies.logs.get(&pod.metadata.uid) {
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

/// `kubectl logs`.
pub(super) fn logs(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, LOGS_FLAGS, "kubectl logs")?;
    let ns = namespace(&p);
    let tail: Option<usize> = match p.get("tail") {
        Some(v) => match v.parse::<i64>() {
            Ok(n) if n < 0 => None,
            Ok(n) => Some(n as usize),
            Err(_) => {
                return Err(format!(
                    "error: invalid argument \"{v}\" for \"--tail\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax"
                ))
            }
        },
        None => None,
    };
    let name = match p.args.as_slice() {
        [] => return Err("error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples".into()),
        [one] => match one.split_once('/') {
            Some((t, n)) if !matches!(t, "pod" | "pods" | "po") => {
                let (pod, found) = attachable_pod(c, &ns, t, n)?;
                return logs_of(c, &p, &ns, &pod, None, tail, found);
            }
            Some((_, n)) => n.to_string(),
            None => one.clone(),
        },
        [pod, container] => {
            if p.get("container").is_some() {
                return Err("error: only one of -c or an inline [CONTAINER] arg is allowed".into());
            }
            let _ = container;
            pod.clone()
        }
        _ => return Err("error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples".into()),
    };
    let inline = p.args.get(1).cloned();
    logs_of(c, &p, &ns, &name, inline, tail, String::new())
}

/// `AttachablePodForObject` for `TYPE/NAME`: the first of the workload's Pods in
/// `podutils.ByLogging` order, and kubectl's `Found N pods, using pod/NAME` line.
fn attachable_pod(c: &Cluster, ns: &str, t: &str, n: &str) -> Result<(String, String), String> {
    let kind = super::util::kind_arg(t)?;
    let key = ObjKey::new(ns, n);
    let selector = match c.store.get_object(kind, &key) {
        Some(Object::Deployment(d)) => d.spec.selector.clone(),
        Some(Object::ReplicaSet(r)) => r.spec.selector.clone(),
        Some(Object::StatefulSet(s)) => s.spec.selector.clone(),
        Some(Object::DaemonSet(d)) => d.spec.selector.clone(),
        Some(Object::Job(j)) => j.spec.selector.clone().unwrap_or_default(),
        Some(Object::Service(s)) => {
            LabelSelector::from_labels(&s.spec.selector.clone().unwrap_or_default())
        }
        Some(other) => {
            return Err(format!(
                "error: cannot get the logs from {}",
                crate::printers::get::name_prefix(other.kind())
            ))
        }
        None => return Err(crate::apiserver::ApiError::not_found(kind, n).kubectl_text()),
    };
    let mut pods: Vec<&Pod> = c
        .store
        .list_ns::<Pod>(ns)
        .filter(|p| !selector.is_empty() && selector.matches(&p.metadata.labels))
        .collect();
    if pods.is_empty() {
        return Err("error: timed out waiting for the condition".into());
    }
    let phase = |p: &Pod| match p.status.phase.as_str() {
        "Running" => 0,
        "Unknown" => 1,
        "Pending" => 2,
        _ => 3,
    };
    let restarts = |p: &Pod| {
        p.status
            .container_statuses
            .iter()
            .map(|s| s.restart_count)
            .max()
            .unwrap_or(0)
    };
    // ByLogging: assigned, running, ready, ready longer, more restarts, older.
    pods.sort_by(|a, b| {
        b.spec
            .node_name
            .is_empty()
            .cmp(&a.spec.node_name.is_empty())
            .reverse()
            .then(phase(a).cmp(&phase(b)))
            .then(b.is_ready().cmp(&a.is_ready()))
            .then(
                a.ready_since()
                    .unwrap_or(u64::MAX)
                    .cmp(&b.ready_since().unwrap_or(u64::MAX)),
            )
            .then(restarts(b).cmp(&restarts(a)))
            .then(a.metadata.created_ms.cmp(&b.metadata.created_ms))
    });
    let pod = pods[0].metadata.name.clone();
    let found = if pods.len() > 1 {
        format!("Found {} pods, using pod/{pod}\n", pods.len())
    } else {
        String::new()
    };
    Ok((pod, found))
}

/// The logs of Pod `name` (`inline`: a container named after it on the command line).
fn logs_of(
    c: &mut Cluster,
    p: &crate::command::args::Parsed,
    ns: &str,
    name: &str,
    inline: Option<String>,
    tail: Option<usize>,
    found: String,
) -> R {
    let (ns, name) = (ns.to_string(), name.to_string());
    let key = ObjKey::new(&ns, &name);
    let Some(pod) = c.store.get::<Pod>(&key).cloned() else {
        return Err(format!(
            "Error from server (NotFound): pods \"{name}\" not found"
        ));
    };
    let mut prefix = found;
    let container_name = match p.get("container").map(str::to_string).or(inline) {
        Some(n) => n,
        None => {
            let first = pod
                .spec
                .containers
                .first()
                .map(|x| x.name.clone())
                .unwrap_or_default();
            if pod.spec.containers.len() + pod.spec.init_containers.len() > 1 {
                let mut all: Vec<String> =
                    pod.spec.containers.iter().map(|x| x.name.clone()).collect();
                all.extend(
                    pod.spec
                        .init_containers
                        .iter()
                        .map(|x| format!("{} (init)", x.name)),
                );
                prefix.push_str(&format!(
                    "Defaulted container \"{first}\" out of: {}\n",
                    all.join(", ")
                ));
            }
            first
        }
    };
    let Some(container) = pod
        .spec
        .containers
        .iter()
        .chain(&pod.spec.init_containers)
        .find(|x| x.name == container_name)
        .cloned()
    else {
        return Err(format!(
            "error: container {container_name} is not valid for pod {name}"
        ));
    };
    if pod.spec.node_name.is_empty() {
        return Err(bad_request(format!(
            "container \"{container_name}\" in pod \"{name}\" is waiting to start: ContainerCreating"
        )));
    }
    // The API server asks the node's kubelet: a node that cannot answer fails it.
    let reachable = c
        .kubelets
        .get(&pod.spec.node_name)
        .is_some_and(|k| k.up && !k.partitioned);
    if !reachable {
        let ip = c
            .store
            .get::<Node>(&ObjKey::new("", &pod.spec.node_name))
            .and_then(|n| n.status.addresses.iter().find(|a| a.type_ == "InternalIP"))
            .map(|a| a.address.clone())
            .unwrap_or_default();
        return Err(format!(
            "Error from server: Get \"https://{ip}:10250/containerLogs/{ns}/{name}/{container_name}\": dial tcp {ip}:10250: connect: no route to host"
        ));
    }
    let status = pod
        .status
        .container_statuses
        .iter()
        .chain(&pod.status.init_container_statuses)
        .find(|s| s.name == container_name)
        .cloned()
        .unwrap_or_default();
    let t = |s: &str| parse_rfc3339(s).unwrap_or(0);
    let lines = if p.bool("previous") {
        let Some(last) = status.last_state.terminated.as_ref() else {
            return Err(bad_request(format!(
                "previous terminated container \"{container_name}\" in pod \"{name}\" not found"
            )));
        };
        instance_lines(
            c,
            &pod,
            &container,
            t(&last.started_at),
            Some((t(&last.finished_at), last)),
        )
    } else if let Some(r) = &status.state.running {
        instance_lines(c, &pod, &container, t(&r.started_at), None)
    } else if let Some(term) = &status.state.terminated {
        instance_lines(
            c,
            &pod,
            &container,
            t(&term.started_at),
            Some((t(&term.finished_at), term)),
        )
    } else if let Some(last) = &status.last_state.terminated {
        instance_lines(
            c,
            &pod,
            &container,
            t(&last.started_at),
            Some((t(&last.finished_at), last)),
        )
    } else {
        let reason = status
            .state
            .waiting
            .as_ref()
            .map(|w| w.reason.clone())
            .unwrap_or_default();
        return Err(bad_request(match reason.as_str() {
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
        }));
    };
    let render = |lines: &[(SimTime, String)]| -> String {
        lines
            .iter()
            .map(|(at, l)| {
                if p.bool("timestamps") {
                    format!("{} {l}\n", crate::time::rfc3339(*at))
                } else {
                    format!("{l}\n")
                }
            })
            .collect()
    };
    let shown: Vec<(SimTime, String)> = match tail {
        Some(n) => lines[lines.len().saturating_sub(n)..].to_vec(),
        None => lines.clone(),
    };
    let mut out = prefix + &render(&shown);
    if p.bool("follow") {
        let seen = lines.len();
        let from = c.now();
        c.advance(FOLLOW);
        if let Some(pod) = c.store.get::<Pod>(&key).cloned() {
            let started = pod
                .status
                .container_statuses
                .iter()
                .find(|s| s.name == container_name)
                .and_then(|s| s.state.running.as_ref())
                .map(|r| t(&r.started_at));
            if let Some(start) = started {
                let now_lines = instance_lines(c, &pod, &container, start, None);
                let new: Vec<(SimTime, String)> = now_lines
                    .into_iter()
                    .skip(seen)
                    .filter(|(at, _)| *at >= from)
                    .collect();
                out.push_str(&render(&new));
            }
        }
    }
    Ok(out.trim_end_matches('\n').to_string())
}
