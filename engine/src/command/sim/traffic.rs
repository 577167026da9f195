//! The application and its users: `sim traffic`, `sim app`, `sim nslookup`.

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
            bool_flag("stop", None),
            bool_flag("report", None),
        ],
        "sim traffic",
    )?;
    let usage = "error: usage: sim traffic service/NAME --rps N [--from NODE] [--for DURATION] [--timeout DURATION] [--retries N] [--retry-after DURATION] [--cpu-per-request DURATION] | sim traffic service/NAME --stop | sim traffic --report [service/NAME]";
    let ns = p.get("namespace").unwrap_or("default");
    let key = match p.args.first() {
        Some(a) => {
            let name = a
                .strip_prefix("service/")
                .or_else(|| a.strip_prefix("svc/"))
                .or_else(|| a.strip_prefix("services/"))
                .ok_or(usage)?;
            if name.is_empty() {
                return Err(usage.into());
            }
            Some(ObjKey::new(ns, name))
        }
        None => None,
    };
    if p.bool("report") {
        return Ok(c.proxies.report(key.as_ref()));
    }
    let key = key.ok_or(usage)?;
    if p.bool("stop") {
        return if c.proxies.stop(&key) {
            Ok(format!("service/{}: traffic stopped", key.name))
        } else {
            Err(format!(
                "error: no traffic is being sent to service/{}",
                key.name
            ))
        };
    }
    if c.store.get::<Service>(&key).is_none() {
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
    let from = p.get("from").map(str::to_string);
    if let Some(n) = &from {
        if !c.kubelets.contains_key(n) {
            return Err(format!(
                "Error from server (NotFound): nodes \"{n}\" not found"
            ));
        }
    }
    let through = match &from {
        Some(n) => format!("{n}'s kube-proxy"),
        None => "every node's kube-proxy in turn".into(),
    };
    let apart = if retry_after > 0 && retries > 0 {
        format!(" {} apart", crate::kubelet::format_go_duration(retry_after))
    } else {
        String::new()
    };
    let msg = format!(
        "service/{}: {rps} requests per second through {through} for {} (timeout {}, {retries} retries{apart}, {} of CPU per answered request)",
        key.name,
        crate::kubelet::format_go_duration(duration),
        crate::kubelet::format_go_duration(timeout),
        crate::kubelet::format_go_duration(cpu_per_request),
    );
    let mut flow = crate::proxy::Flow::new(key, rps, from, duration, timeout, retries);
    flow.cpu_per_request_us = cpu_per_request * 1000;
    flow.retry_after = retry_after;
    c.start_traffic(flow);
    Ok(msg)
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
    c.proxies.apps.insert(key, crate::app::App::new(store));
    Ok(format!(
        "service/{name}: its Pods run the message API, keeping messages {said}"
    ))
}

/// `sim nslookup NAME [-n NS]`: what cluster DNS answers a Pod in NS (CoreDNS at
/// 10.96.0.10, search path `NS.svc.cluster.local svc.cluster.local cluster.local`): a
/// Service's cluster IP, a headless Service's ready endpoints, an ExternalName's
/// CNAME — printed as busybox's `nslookup` prints it.
pub(super) fn nslookup(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, &[flag("namespace", Some('n'))], "sim nslookup")?;
    let usage = "error: usage: sim nslookup NAME [-n NAMESPACE] (e.g. web, web.default, web.default.svc.cluster.local)";
    let name = p
        .args
        .first()
        .ok_or(usage)?
        .trim_end_matches('.')
        .to_ascii_lowercase();
    let ns = p.get("namespace").unwrap_or("default");
    let head = "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n";
    // The search path: NAME.NS.svc.cluster.local, NAME.svc.cluster.local, …, NAME.
    let candidates = [
        format!("{name}.{ns}.svc.cluster.local"),
        format!("{name}.svc.cluster.local"),
        format!("{name}.cluster.local"),
        name.clone(),
    ];
    for fqdn in &candidates {
        let Some(rest) = fqdn.strip_suffix(".svc.cluster.local") else {
            continue;
        };
        let Some((svc, svc_ns)) = rest.split_once('.') else {
            continue;
        };
        // HOSTNAME.SUBDOMAIN.NS: a Pod's own record under a headless Service that has
        // its name as subdomain (a StatefulSet's `web-0.web`), while the Pod is Ready.
        let parts: Vec<&str> = rest.split('.').collect();
        if parts.len() == 3 {
            let (host, sub, pns) = (parts[0], parts[1], parts[2]);
            let headless = c
                .store
                .get::<Service>(&ObjKey::new(pns, sub))
                .is_some_and(|s| s.is_headless());
            let extra = |p: &Pod, k: &str| {
                p.spec
                    .extra
                    .get(k)
                    .and_then(|v| v.as_str())
                    .map(str::to_string)
            };
            let ip = c
                .store
                .list_ns::<Pod>(pns)
                .find(|p| {
                    extra(p, "hostname").as_deref() == Some(host)
                        && extra(p, "subdomain").as_deref() == Some(sub)
                        && p.is_ready()
                        && !p.status.pod_ip.is_empty()
                })
                .map(|p| p.status.pod_ip.clone());
            if let (true, Some(ip)) = (headless, ip) {
                return Ok(format!("{head}Name:\t{fqdn}\nAddress: {ip}"));
            }
            continue;
        }
        if svc_ns.contains('.') {
            continue;
        }
        let Some(s) = c.store.get::<Service>(&ObjKey::new(svc_ns, svc)) else {
            continue;
        };
        if s.spec.type_ == "ExternalName" {
            let target = s
                .spec
                .extra
                .get("externalName")
                .and_then(|v| v.as_str())
                .unwrap_or_default();
            return Ok(format!("{head}{fqdn}\tcanonical name = {target}"));
        }
        let addresses: Vec<String> = if s.is_headless() {
            let mut ips: Vec<String> = c
                .store
                .list_ns::<EndpointSlice>(svc_ns)
                .filter(|e| {
                    e.metadata
                        .labels
                        .get("kubernetes.io/service-name")
                        .map(String::as_str)
                        == Some(svc)
                })
                .flat_map(|e| e.endpoints.clone().unwrap_or_default())
                .filter(|e| e.conditions.ready.unwrap_or(true))
                .filter_map(|e| e.addresses.first().cloned())
                .collect();
            ips.sort();
            ips.dedup();
            ips
        } else {
            vec![s.spec.cluster_ip.clone()]
        };
        if addresses.is_empty() {
            break;
        }
        let mut out = head.to_string();
        for a in addresses {
            out.push_str(&format!("Name:\t{fqdn}\nAddress: {a}\n"));
        }
        return Ok(out.trim_end().to_string());
    }
    Err(format!("{head}** server can't find {name}: NXDOMAIN"))
}
