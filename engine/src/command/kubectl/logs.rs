//! `kubectl logs POD [-c CONTAINER] [--previous] [--tail N] [-f]`: what the application
//! printed — its start, the requests it answered (from the traffic model), and its exit.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/logs/logs.go` (the default container,
//! `Defaulted container … out of: …`) and the kubelet's `validateContainerLogStatus`
//! (`pkg/kubelet/kubelet_pods.go`), whose errors the API server returns as 400s.
//!
//! `-f` follows for ten seconds of simulated time (a terminal session would follow
//! until interrupted; a script cannot be).

use super::util::{api, namespace, NS, R};
use crate::api::*;
use crate::apiserver::request::LogOptions;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, FlagSpec};
use crate::command::client::Client;
use crate::time::{SimTime, SECOND};

const LOGS_FLAGS: &[FlagSpec] = &[
    NS,
    flag("container", Some('c')),
    bool_flag("previous", Some('p')),
    flag("tail", None),
    bool_flag("follow", Some('f')),
    bool_flag("timestamps", None),
    flag("selector", Some('l')),
];

/// How long `-f` follows.
pub const FOLLOW: SimTime = 10 * SECOND;

/// `kubectl logs`.
pub(super) fn logs(c: &mut Cluster, k: &Client, words: &[String]) -> R {
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
    if let Some(sel) = p.get("selector") {
        return logs_by_selector(c, k, &p, &ns, sel, tail);
    }
    let name = match p.args.as_slice() {
        [] => return Err("error: expected 'logs [-f] [-p] (POD | TYPE/NAME) [-c CONTAINER]'.\nPOD or TYPE/NAME is a required argument for the logs command\nSee 'kubectl logs -h' for help and examples".into()),
        [one] => match one.split_once('/') {
            Some((t, n)) if !matches!(t, "pod" | "pods" | "po") => {
                let (pod, found) = attachable_pod(c, k, &ns, t, n)?;
                return logs_of(c, k, &p, &ns, &pod, None, tail, found);
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
    logs_of(c, k, &p, &ns, &name, inline, tail, String::new())
}

/// `kubectl logs -l SELECTOR`: the logs of every matching Pod in list order, each of
/// its default container, and the last 10 lines of each unless `--tail` says otherwise
/// (`selectorTail`); a name beside the selector is a usage error.
fn logs_by_selector(
    c: &mut Cluster,
    k: &Client,
    p: &crate::command::args::Parsed,
    ns: &str,
    sel: &str,
    tail: Option<usize>,
) -> R {
    if !p.args.is_empty() {
        return Err("error: only a selector (-l) or a POD name is allowed\nSee 'kubectl logs -h' for help and examples".into());
    }
    if p.bool("follow") {
        return Err(
            "error: kubeplay follows one Pod's log at a time: name the Pod, or drop -f".into(),
        );
    }
    let selector = crate::apiserver::selectors::parse_label_selector(sel)?;
    let pods = k
        .list(c, Kind::Pod, Some(ns), Some(&selector), &[])
        .map_err(api)?;
    if pods.is_empty() {
        return Ok(format!("No resources found in {ns} namespace."));
    }
    let tail = tail.or(Some(10));
    let mut out = Vec::new();
    for pod in &pods {
        let text = logs_of(c, k, p, ns, &pod.meta().name, None, tail, String::new())?;
        if !text.is_empty() {
            out.push(text);
        }
    }
    Ok(out.join("\n"))
}

/// `AttachablePodForObject` for `TYPE/NAME`: the first of the workload's Pods in
/// `podutils.ByLogging` order, and kubectl's `Found N pods, using pod/NAME` line.
fn attachable_pod(
    c: &mut Cluster,
    k: &Client,
    ns: &str,
    t: &str,
    n: &str,
) -> Result<(String, String), String> {
    let kind = super::util::kind_arg(t)?;
    let selector = match &*k.get(c, kind, ns, n).map_err(api)? {
        Object::Deployment(d) => d.spec.selector.clone(),
        Object::ReplicaSet(r) => r.spec.selector.clone(),
        Object::StatefulSet(s) => s.spec.selector.clone(),
        Object::DaemonSet(d) => d.spec.selector.clone(),
        Object::Job(j) => j.spec.selector.clone().unwrap_or_default(),
        Object::Service(s) => {
            LabelSelector::from_labels(&s.spec.selector.clone().unwrap_or_default())
        }
        other => {
            return Err(format!(
                "error: cannot get the logs from {}",
                crate::printers::get::name_prefix(other.kind())
            ))
        }
    };
    let listed = if selector.is_empty() {
        Vec::new()
    } else {
        k.list(c, Kind::Pod, Some(ns), Some(&selector), &[])
            .map_err(api)?
    };
    let mut pods: Vec<&Pod> = listed.iter().filter_map(|o| Pod::from_object(o)).collect();
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
    crate::sorting::sort_by(&mut pods, |a, b| {
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
#[allow(clippy::too_many_arguments)]
fn logs_of(
    c: &mut Cluster,
    k: &Client,
    p: &crate::command::args::Parsed,
    ns: &str,
    name: &str,
    inline: Option<String>,
    tail: Option<usize>,
    found: String,
) -> R {
    let key = ObjKey::new(ns, name);
    let pod: Pod = k.get_as(c, &key).map_err(api)?;
    let mut prefix = found;
    let container = match p.get("container").map(str::to_string).or(inline) {
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
    let known = pod
        .spec
        .containers
        .iter()
        .chain(&pod.spec.init_containers)
        .any(|x| x.name == container);
    if !known {
        return Err(format!(
            "error: container {container} is not valid for pod {name}"
        ));
    }
    let options = LogOptions {
        container: container.clone(),
        previous: p.bool("previous"),
        tail,
        timestamps: p.bool("timestamps"),
        since: None,
    };
    let mut out = prefix + &k.log(c, &key, options.clone()).map_err(api)?;
    if p.bool("follow") && !p.bool("previous") {
        // The stream goes on for FOLLOW of simulated time: what the running instance
        // prints meanwhile.
        let from = c.now();
        c.advance(FOLLOW);
        let more = LogOptions {
            tail: None,
            since: Some(from + 1),
            ..options
        };
        if let Ok(text) = k.log(c, &key, more) {
            out.push_str(&text);
        }
    }
    Ok(out.trim_end_matches('\n').to_string())
}
