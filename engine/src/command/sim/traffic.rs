//! The application and its users: `sim traffic`, `sim app`.

use super::super::args::{bool_flag, flag, parse_duration, parse_flags, parse_span};
use super::*;
use crate::api::*;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::time::{SimTime, SECOND};

/// `sim traffic`: start, stop or report a Service's request flow (`crate::proxy`).
pub(super) fn traffic(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            flag("rps", None),
            flag("from", None),
            flag("for", None),
            flag("timeout", None),
            flag("retries", None),
            flag("retry-after", None),
            flag("cpu-per-request", None),
            flag("namespace", Some('n')),
            flag("host", None),
            flag("path", None),
            bool_flag("stop", None),
            bool_flag("report", None),
        ],
        "sim traffic",
    )?;
    let usage = "error: usage: sim traffic service/NAME|ingress/NAME --rps N [--from NODE|pod/NAME] [--host HOST] [--path PATH] [--for DURATION] [--timeout DURATION] [--retries N] [--retry-after DURATION] [--cpu-per-request DURATION] | sim traffic service/NAME|ingress/NAME --stop | sim traffic --report [service/NAME]";
    let ns = p.get("namespace").unwrap_or("default");
    let (key, through_ingress) = match p.args.first() {
        Some(a) => {
            let (key, ing) = flow_key(ns, a).ok_or(usage)?;
            (Some(key), ing)
        }
        None => (None, None),
    };
    let shown = |k: &ObjKey| {
        if k.name.contains('/') {
            k.name.clone()
        } else {
            format!("service/{}", k.name)
        }
    };
    if p.bool("report") {
        return Ok(c.proxies.report(key.as_ref()));
    }
    let key = key.ok_or(usage)?;
    if p.bool("stop") {
        return if c.proxies.stop(&key) {
            Ok(format!("{}: traffic stopped", shown(&key)))
        } else {
            Err(format!(
                "error: no traffic is being sent to {}",
                shown(&key)
            ))
        };
    }
    let via = match &through_ingress {
        Some(name) => Some(ingress_entry(c, ns, name, p.get("host"), p.get("path"))?),
        None => None,
    };
    if via.is_none() && c.store.get::<Service>(&key).is_none() {
        return Err(format!(
            "Error from server (NotFound): services \"{}\" not found",
            key.name
        ));
    }
    let rps: u32 = p
        .get("rps")
        .ok_or(usage)?
        .parse()
        .ok()
        .filter(|n| (1..=MAX_RPS).contains(n))
        .ok_or_else(|| format!("error: --rps must be a whole number from 1 to {MAX_RPS}"))?;
    let span = |flag: &str, default: SimTime| match p.get(flag) {
        Some(v) => {
            parse_span(&format!("sim traffic --{flag}"), v).map_err(|e| format!("error: {e}"))
        }
        None => Ok(default),
    };
    let duration = span("for", 2 * 60 * SECOND)?;
    let timeout = span("timeout", SECOND)?;
    let retries: u32 = match p.get("retries") {
        Some(v) => v
            .parse()
            .ok()
            .filter(|n| *n <= 10)
            .ok_or("error: --retries must be a whole number from 0 to 10")?,
        // A plain client (curl) does not retry.
        None => 0,
    };
    // A client that backs off before retrying: by then a stopped Pod may be out of
    // the rules, and the retry goes to another one.
    let retry_after = span("retry-after", 0)?;
    if retry_after > 10 * 60 * SECOND {
        return Err("error: --retry-after must be at most 10m".into());
    }
    // What an answered request costs its Pod's CPU: the metrics pipeline turns it into
    // the Pod's usage, which `kubectl top` and an autoscaler read.
    let cpu_per_request = match p.get("cpu-per-request") {
        Some(v) => parse_duration(v)
            .ok()
            .filter(|ms| *ms <= 10 * SECOND)
            .ok_or_else(|| {
                format!("error: --cpu-per-request must be a duration from 0s to 10s (like 2ms), not \"{v}\"")
            })?,
        None => crate::proxy::DEFAULT_CPU_PER_REQUEST_US / 1000,
    };
    let (from, source) = flow_origin(c, ns, p.get("from"))?;
    let via_set = via.is_some();
    let from = match &via {
        Some((node, _, _)) => Some(node.clone()),
        None => from,
    };
    let through = match (&from, &source) {
        (Some(n), Some(pod)) => format!("{n}'s kube-proxy from pod/{}", pod.name),
        (Some(n), None) => format!("{n}'s kube-proxy"),
        _ => "every node's kube-proxy in turn".into(),
    };
    let apart = if retry_after > 0 && retries > 0 {
        format!(" {} apart", crate::kubelet::format_go_duration(retry_after))
    } else {
        String::new()
    };
    let through = match &via {
        Some((_, _, said)) => said.clone(),
        None => through,
    };
    let msg = format!(
        "{}: {rps} requests per second through {through} for {} (timeout {}, {retries} retries{apart}, {} of CPU per answered request)",
        shown(&key),
        crate::kubelet::format_go_duration(duration),
        crate::kubelet::format_go_duration(timeout),
        crate::kubelet::format_go_duration(cpu_per_request),
    );
    let mut flow = crate::proxy::Flow::new(key, rps, from, duration, timeout, retries);
    // Through an Ingress the controller (on its node's host network) connects.
    flow.source = if via_set { None } else { source };
    flow.via = via.map(|(_, route, _)| route);
    flow.cpu_per_request_us = cpu_per_request * 1000;
    flow.retry_after = retry_after;
    c.start_traffic(flow);
    Ok(msg)
}

/// Where a flow through an Ingress enters (the controller's node), its route (the
/// Ingress, host and path) and how the start message says it.
type IngressEntry = (String, (ObjKey, String, String), String);

/// The key a flow to `target` is kept under: a Service's name, or `ingress/NAME` for a
/// flow through an Ingress (no Service name has a `/`), with that Ingress's name.
fn flow_key(ns: &str, target: &str) -> Option<(ObjKey, Option<String>)> {
    if let Some(ing) = ["ingress/", "ingresses/", "ing/"]
        .iter()
        .find_map(|pre| target.strip_prefix(pre))
        .filter(|n| !n.is_empty())
    {
        return Some((
            ObjKey::new(ns, &format!("ingress/{ing}")),
            Some(ing.to_string()),
        ));
    }
    let name = ["service/", "svc/", "services/"]
        .iter()
        .find_map(|pre| target.strip_prefix(pre))
        .filter(|n| !n.is_empty())?;
    Some((ObjKey::new(ns, name), None))
}

/// Where a flow's requests come from (`--from`): a client on NODE's host network, or
/// with `pod/NAME` that Pod, through its node's kube-proxy (NetworkPolicies see it).
/// Returns the entry node (None: every node in turn) and the sending Pod.
fn flow_origin(
    c: &Cluster,
    ns: &str,
    from: Option<&str>,
) -> Result<(Option<String>, Option<ObjKey>), String> {
    let Some(f) = from else {
        return Ok((None, None));
    };
    if let Some(name) = ["pod/", "po/", "pods/"]
        .iter()
        .find_map(|pre| f.strip_prefix(pre))
    {
        let pod_key = ObjKey::new(ns, name);
        let Some(pod) = c.store.get::<Pod>(&pod_key) else {
            return Err(format!(
                "Error from server (NotFound): pods \"{name}\" not found"
            ));
        };
        if pod.spec.node_name.is_empty() {
            return Err(format!(
                "error: pod/{name} is not scheduled yet: it has no node to send from"
            ));
        }
        return Ok((Some(pod.spec.node_name.clone()), Some(pod_key)));
    }
    if !c.kubelets.contains_key(f) {
        return Err(format!(
            "Error from server (NotFound): nodes \"{f}\" not found"
        ));
    }
    Ok((Some(f.to_string()), None))
}

/// A flow through Ingress `name`: the node the ingress controller is reached at, the
/// route (the Ingress, the request's host and path: by default the first rule's host
/// and `/`), and how the start message says it.
fn ingress_entry(
    c: &Cluster,
    ns: &str,
    name: &str,
    host: Option<&str>,
    path: Option<&str>,
) -> Result<IngressEntry, String> {
    let key = ObjKey::new(ns, name);
    let Some(ing) = c.store.get::<Ingress>(&key) else {
        return Err(format!(
            "Error from server (NotFound): ingresses.networking.k8s.io \"{name}\" not found"
        ));
    };
    if !crate::controllers::ingress::implements(&c.store, ing) {
        let why = match ing.class_name() {
            Some(class) => format!(
                "its class \"{class}\" is not an IngressClass of {}",
                crate::controllers::ingress::INGRESS_NGINX_CONTROLLER
            ),
            None => "it names no IngressClass and none is the default".to_string(),
        };
        return Err(format!(
            "error: no ingress controller serves ingress/{name}: {why} (an IngressClass with spec.controller: {} is served by the cluster's ingress-nginx)",
            crate::controllers::ingress::INGRESS_NGINX_CONTROLLER
        ));
    }
    let Some(node) = c.store.node_at(0) else {
        return Err("error: the cluster has no nodes for the ingress controller".into());
    };
    let host = host
        .map(str::to_string)
        .or_else(|| {
            ing.spec
                .rules
                .iter()
                .map(|r| r.host.clone())
                .find(|h| !h.is_empty() && !h.starts_with('*'))
        })
        .unwrap_or_else(|| "example.com".into());
    let path = path.unwrap_or("/");
    if !path.starts_with('/') {
        return Err(format!("error: --path must start with /, not \"{path}\""));
    }
    let address = ing
        .status
        .load_balancer
        .ingress
        .first()
        .map(|a| a.ip.clone())
        .unwrap_or_else(|| node.metadata.name.clone());
    let said = format!("the ingress controller at {address} for http://{host}{path}");
    Ok((
        node.metadata.name.clone(),
        (key, host, path.to_string()),
        said,
    ))
}

/// The most requests per second one flow sends (its cost is per request).
pub const MAX_RPS: u32 = 1000;

/// `sim app service/NAME [--store memory|service/DB]`: the Service's Pods run the
/// message API (`crate::app`), keeping messages in memory or in a database behind
/// Service DB; its traffic then posts and reads messages.
pub(super) fn app(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[flag("store", None), flag("namespace", Some('n'))],
        "sim app",
    )?;
    let usage = "error: usage: sim app service/NAME [--store memory|service/DB]";
    let ns = p.get("namespace").unwrap_or("default");
    let name = p
        .args
        .first()
        .and_then(|a| {
            a.strip_prefix("service/")
                .or_else(|| a.strip_prefix("svc/"))
        })
        .filter(|n| !n.is_empty())
        .ok_or(usage)?;
    let key = ObjKey::new(ns, name);
    if c.store.get::<Service>(&key).is_none() {
        return Err(format!(
            "Error from server (NotFound): services \"{name}\" not found"
        ));
    }
    let (store, said) = match p.get("store").unwrap_or("memory") {
        "memory" => (
            crate::app::Store::Memory,
            "in each Pod's memory".to_string(),
        ),
        db => {
            let db_name = db
                .strip_prefix("service/")
                .or_else(|| db.strip_prefix("svc/"))
                .filter(|n| !n.is_empty())
                .ok_or(usage)?;
            let db_key = ObjKey::new(ns, db_name);
            if c.store.get::<Service>(&db_key).is_none() {
                return Err(format!(
                    "Error from server (NotFound): services \"{db_name}\" not found"
                ));
            }
            (
                crate::app::Store::Database(db_key),
                format!("in the database behind service/{db_name}"),
            )
        }
    };
    // A client's ids stay unique across the move: devices drop copies by id.
    let app = match c.proxies.apps.get(&key) {
        Some(old) => old.moved_to(store),
        None => crate::app::App::new(store),
    };
    c.proxies.apps.insert(key, app);
    Ok(format!(
        "service/{name}: its Pods run the message API, keeping messages {said}"
    ))
}
