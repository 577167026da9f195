//! `sim apiserver`, `sim leader`, `sim watch` and `sim queues`: the control plane's own
//! parts, as things that fail and as work queues to look into (etcd's are `etcd.rs`).

use super::super::args::{bool_flag, flag, parse_flags, parse_span};
use super::*;
use crate::cluster::Cluster;
use crate::time::{clock_label, human_duration};

/// `sim apiserver down|up [NAME]|replicas N|status`: stop or start the API server (or
/// one of its replicas: see `cluster::outage` and `cluster::apiservers`), run N
/// replicas, or say which answer.
pub(super) fn apiserver(c: &mut Cluster, words: &[String]) -> R {
    let usage =
        "error: usage: sim apiserver down|up [kube-apiserver-control-plane-N]|replicas N|status";
    let replica = |c: &Cluster, w: Option<&String>| -> Result<Option<usize>, String> {
        match w {
            None => Ok(None),
            Some(name) => c.apiservers().parse(name).map(Some).ok_or_else(|| {
                format!(
                    "error: no API server replica \"{name}\" (there are {}: kube-apiserver-control-plane-1..{})",
                    c.apiservers().replicas,
                    c.apiservers().replicas
                )
            }),
        }
    };
    const DOWN: &str = "apiserver stopped: kubectl, the controllers, the scheduler and the kubelets cannot reach it; running containers and every kube-proxy's last rules keep serving";
    match (words.first().map(String::as_str), words.len()) {
        (Some("down"), 1 | 2) => match replica(c, words.get(1))? {
            None => {
                c.stop_apiserver().map_err(|e| format!("error: {e}"))?;
                c.mark_all_apiservers_down();
                Ok(DOWN.to_string())
            }
            Some(i) => {
                c.stop_apiserver_replica(i)
                    .map_err(|e| format!("error: {e}"))?;
                let a = c.apiservers();
                Ok(if a.up() == 0 {
                    DOWN.to_string()
                } else {
                    format!(
                        "{} stopped: {} of {} API servers up; kubectl and the kubelets reach the others through the load balancer; the controller manager and the scheduler on control-plane-{} cannot reach the API (a leader there gives up after its 10s renew deadline)",
                        crate::cluster::apiservers::replica_name(i),
                        a.up(),
                        a.replicas,
                        i + 1
                    )
                })
            }
        },
        (Some("up"), 1 | 2) => {
            let since = c.apiserver_down_since();
            let one = replica(c, words.get(1))?;
            match one {
                None => {
                    if since.is_none() && c.apiservers().down.is_empty() {
                        return Err("error: the API server is already up".into());
                    }
                    if since.is_some() {
                        c.start_apiserver().map_err(|e| format!("error: {e}"))?;
                    }
                    c.mark_all_apiservers_up();
                }
                Some(i) => c
                    .start_apiserver_replica(i)
                    .map_err(|e| format!("error: {e}"))?,
            }
            let Some(since) = since else {
                return Ok(format!(
                    "{}: {} of {} API servers up",
                    one.map_or("apiservers started".to_string(), |i| format!(
                        "{} started",
                        crate::cluster::apiservers::replica_name(i)
                    )),
                    c.apiservers().up(),
                    c.apiservers().replicas
                ));
            };
            let after = crate::time::human_duration(c.now().saturating_sub(since));
            Ok(if c.etcd_lost_quorum() {
                format!("apiserver started after {after} down, but etcd has no quorum: requests still time out (sim etcd status)")
            } else {
                format!("apiserver started after {after} down: each kubelet reconnects at its next heartbeat (within 10s) and reports; {}", leaders_back(c))
            })
        }
        (Some("replicas"), 2) => {
            let n: usize = words[1]
                .parse()
                .map_err(|_| format!("error: replicas must be a number, not \"{}\"", words[1]))?;
            c.set_apiserver_replicas(n)
                .map_err(|e| format!("error: {e}"))?;
            Ok(format!(
                "{n} API server replica{} behind the load balancer (kube-apiserver-control-plane-1..{n})",
                if n == 1 { "" } else { "s" }
            ))
        }
        (Some("status"), 1) => {
            let mut out = match c.apiserver_down_since() {
                Some(t) => format!("apiserver: down since {}", clock_label(t)),
                None => "apiserver: up".into(),
            };
            let a = c.apiservers();
            if a.replicas > 1 {
                out.push_str(&format!(" ({} of {} replicas)", a.up(), a.replicas));
                for i in 0..a.replicas {
                    out.push_str(&format!(
                        "\n{}  {}",
                        crate::cluster::apiservers::replica_name(i),
                        if a.down.contains(&i) { "down" } else { "up" }
                    ));
                }
            }
            Ok(out)
        }
        _ => Err(usage.into()),
    }
}

/// `sim leader status | replicas N | kill COMPONENT` (see `cluster::leader_election`).
pub(super) fn leader(c: &mut Cluster, words: &[String]) -> R {
    use crate::cluster::leader_election::{Elected, LEASE_DURATION};
    let usage = "error: usage: sim leader status | replicas N | kill kube-controller-manager|kube-scheduler";
    let e = |m: String| format!("error: {m}");
    match words {
        [v] if v == "status" => {
            let mut rows = vec![vec![
                "COMPONENT".to_string(),
                "HOST".into(),
                "ROLE".into(),
                "IDENTITY".into(),
            ]];
            let mut notes = String::new();
            for el in Elected::ALL {
                let election = c.elections().get(el);
                for (i, cand) in election.candidates.iter().enumerate() {
                    rows.push(vec![
                        el.name().into(),
                        cand.host.clone(),
                        if election.leader == Some(i) {
                            "leader"
                        } else {
                            "standby"
                        }
                        .into(),
                        cand.identity.clone(),
                    ]);
                }
                if let Some(t) = election.leaderless_since {
                    notes.push_str(&format!(
                        "\n{}: no leader since {}: its controllers are idle until a replica acquires the Lease",
                        el.name(),
                        clock_label(t)
                    ));
                }
            }
            Ok(format!(
                "{}{notes}",
                crate::printers::table::render(&rows).trim_end()
            ))
        }
        [v, n] if v == "replicas" => {
            let n: usize = n
                .parse()
                .map_err(|_| e(format!("replicas must be a number, got \"{n}\"")))?;
            c.set_leader_replicas(n).map_err(e)?;
            Ok(format!(
                "kube-controller-manager and kube-scheduler: {n} replica{} each (control-plane-1{}); one leads, {}",
                if n == 1 { "" } else { "s" },
                if n > 1 { format!("..{n}") } else { String::new() },
                if n == 1 { "none stands by".to_string() } else { format!("{} stand by", n - 1) }
            ))
        }
        [v, comp] if v == "kill" => {
            let el = Elected::parse(comp).ok_or_else(|| {
                e(format!(
                    "unknown component \"{comp}\": kube-controller-manager or kube-scheduler"
                ))
            })?;
            let killed = c.kill_leader(el).map_err(e)?;
            Ok(format!(
                "killed the leader {killed} of {}: its Lease is not released, so its controllers are idle until a replica sees it unrenewed for {}s and acquires it (kubectl get lease -n kube-system); the killed replica restarts as a standby",
                el.name(),
                LEASE_DURATION / 1000
            ))
        }
        _ => Err(usage.into()),
    }
}

/// `sim watch break CONTROLLER [--for DURATION] [--gone]` (see `cluster::informers`).
pub(super) fn watch(c: &mut Cluster, words: &[String]) -> R {
    use crate::cluster::informers::{loop_named, DEFAULT_BREAK};
    let usage = "error: usage: sim watch break CONTROLLER [--for DURATION] [--gone] (e.g. sim watch break replicaset-controller --for 30s)";
    let p = parse_flags(
        words,
        &[flag("for", None), bool_flag("gone", None)],
        "sim watch",
    )?;
    let [verb, name] = p.args.as_slice() else {
        return Err(usage.into());
    };
    if verb != "break" {
        return Err(usage.into());
    }
    let ctl = loop_named(name).ok_or_else(|| {
        format!(
            "error: unknown controller \"{name}\": one of {}",
            crate::cluster::Ctl::ALL
                .iter()
                .map(|c| c.component().writer)
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    let for_ms = p
        .get("for")
        .map(|d| parse_span("sim watch --for", d))
        .transpose()
        .map_err(|e| format!("error: {e}"))?
        .unwrap_or(DEFAULT_BREAK);
    let gone = p.bool("gone");
    let from = c
        .break_watch(ctl, for_ms, gone)
        .map_err(|e| format!("error: {e}"))?;
    Ok(format!(
        "the watch of {name} broke at resourceVersion {from}: it is told nothing for {}, then watches again from {from}{}",
        human_duration(for_ms),
        if gone || for_ms > crate::cluster::informers::COMPACTION_INTERVAL {
            ", which will be gone (410): it relists"
        } else {
            " and is sent what it missed"
        }
    ))
}

/// `sim queues [LOOP…]`: every control loop's work queue and watch.
/// Only the loops named, when some are (a lesson lists the ones its story is about).
pub(super) fn queues(c: &mut Cluster, words: &[String]) -> R {
    if words.iter().any(|w| w.starts_with('-')) {
        return Err("error: usage: sim queues [LOOP…]".into());
    }
    let views = c.loop_views();
    if let Some(w) = words.iter().find(|w| !views.iter().any(|v| &v.name == *w)) {
        return Err(format!(
            "error: no control loop \"{w}\" (sim queues lists them all)"
        ));
    }
    let mut rows = vec![vec![
        "CONTROLLER".to_string(),
        "QUEUE".into(),
        "NEXT".into(),
        "SYNCS".into(),
        "RETRIES".into(),
        "BACKING OFF".into(),
        "LAST KEY".into(),
        "WATCH".into(),
    ]];
    let mut notes = Vec::new();
    for v in views
        .into_iter()
        .filter(|v| words.is_empty() || words.contains(&v.name))
    {
        let watch = match v.watch.broken_since {
            Some(t) => format!(
                "broken since {} ({} missed)",
                clock_label(t),
                v.watch.missed
            ),
            None => format!("rv {}", v.watch.resource_version),
        };
        rows.push(vec![
            v.name.clone(),
            v.depth.to_string(),
            if v.next.is_empty() {
                "-".into()
            } else {
                v.next.join(",")
            },
            v.stats.syncs.to_string(),
            v.stats.retries.to_string(),
            v.failing.to_string(),
            if v.stats.last_key.is_empty() {
                "-".into()
            } else {
                v.stats.last_key.clone()
            },
            watch,
        ]);
        if let Some(last) = &v.watch.last {
            notes.push(format!("{}: {last}", v.name));
        }
    }
    let mut out = crate::printers::table::render(&rows).trim_end().to_string();
    for n in notes {
        out.push('\n');
        out.push_str(&n);
    }
    Ok(out)
}

/// What the leader-elected components do once the control plane answers again: those
/// whose leader kept its Lease through the stall resume at once; those whose leader gave
/// up and restarted wait for a replica to take the Lease.
pub(super) fn leaders_back(c: &Cluster) -> String {
    use crate::cluster::leader_election::{Elected, LEASE_DURATION};
    let restarted: Vec<&str> = Elected::ALL
        .iter()
        .filter(|e| c.elections().get(**e).leader().is_none())
        .map(|e| e.name())
        .collect();
    if restarted.is_empty() {
        return "the controllers and the scheduler resume".into();
    }
    format!(
        "{} restarted during the outage and lead again once a replica has seen its Lease unrenewed for {}",
        restarted.join(" and "),
        crate::time::human_duration(LEASE_DURATION)
    )
}
