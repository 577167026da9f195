//! `sim` verbs: what a real cluster does not let you type — time, faults, checks.

use super::args::{bool_flag, flag, parse_duration, parse_flags, parse_span, FlagSpec};
use super::select::{fields_match, parse_field_selector, parse_label_selector};
use super::Outcome;
use crate::api::*;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::explain::scores::{filter_text, score_terms, ScoreTerm};
use crate::kubelet::NodeConfig;
use crate::printers::get::resolve_kind;
use crate::printers::jsonpath::{format_value, select};
use crate::time::{clock_label, human_duration, rfc3339, SimTime, MINUTE, SECOND};

const USAGE: &str = "usage: sim advance DURATION | settle [--max DURATION] | time | reset [--nodes N] [--cpu C] [--memory M] [--pods P] [--zones Z] | import FILE... | export [--snapshot] | seed N | node add|down|up|partition|ps|remove NAME | crash|oom pod/NAME [--container C] | hang pod/NAME | unready|ready pod/NAME | image-fail|image-ok IMAGE | image-crash IMAGE [--after DURATION] | image-warmup IMAGE DURATION | gitops on|off deployment/NAME [--every D] | load deployment|statefulset/NAME --cpu N%|Nm [--memory Q] | load KIND/NAME --stop | why pod/NAME [-n NS] | trace KIND/NAME [-n NS] | trace requests | trace request/N | expect EXPR OP VALUE | log [--tail N] | traffic service/NAME --rps N [--from NODE] [--for DURATION] [--timeout DURATION] [--retries N] [--retry-after DURATION] [--cpu-per-request DURATION] | traffic service/NAME --stop | traffic --report [service/NAME] | app service/NAME [--store memory|service/DB] | nslookup NAME [-n NS] | apiserver down|up [NAME]|replicas N|status | etcd members N|down MEMBER|up MEMBER|status | leader status|replicas N|kill COMPONENT | watch break CONTROLLER [--for DURATION] [--gone] | queues";

pub fn run(c: &mut Cluster, words: &[String]) -> Outcome {
    let Some(verb) = words.first() else {
        return Outcome::err(format!("error: {USAGE}"));
    };
    let rest = &words[1..];
    let r = match verb.as_str() {
        // The clock itself, as a blocking command: the CLI drives it in one piece
        // (`command::run`), the page in slices it can stop (`wait::Blocking`).
        "advance" => return clock_command(advance(c, rest)),
        "settle" => return clock_command(settle(c, rest)),
        "time" => Ok(format!("{} ({})", clock_label(c.now()), rfc3339(c.now()))),
        "reset" => reset(c, rest),
        "seed" => seed(c, rest),
        "node" => node(c, rest),
        "expect" => return expect(c, rest),
        "log" => log(c, rest),
        "crash" => crash(c, rest),
        "unready" => readiness(c, rest, true),
        "hang" => hang(c, rest),
        "oom" => oom(c, rest),
        "ready" => readiness(c, rest, false),
        "image-fail" => image(c, rest, "fail"),
        "image-ok" => image(c, rest, "ok"),
        "image-crash" => image(c, rest, "crash"),
        "image-warmup" => image_warmup(c, rest),
        "gitops" => gitops(c, rest),
        "load" => load(c, rest),
        "why" => why(c, rest),
        "trace" => trace(c, rest),
        "traffic" => traffic(c, rest),
        "export" => export(c, rest),
        "app" => app(c, rest),
        "nslookup" => nslookup(c, rest),
        "apiserver" => apiserver(c, rest),
        "etcd" => etcd(c, rest),
        "leader" => leader(c, rest),
        "watch" => watch(c, rest),
        "queues" => queues(c, rest),
        other => Err(format!("error: unknown sim verb \"{other}\"\n{USAGE}")),
    };
    match r {
        Ok(s) => Outcome::ok(s),
        Err(e) => Outcome::err(e),
    }
}

type R = Result<String, String>;

/// Compare what `path` selects in `v` (values joined by spaces; `empty` stands in when
/// it selects nothing) with `want` under `op`: whether it holds, and what was found.
fn expect_json(
    v: &serde_json::Value,
    path: &str,
    op: &str,
    want: &str,
    empty: Option<&str>,
) -> Result<(bool, String), String> {
    let got = select(path, v)?
        .iter()
        .map(|x| format_value(x))
        .collect::<Vec<_>>()
        .join(" ");
    let ok = compare(
        match empty {
            Some(e) if got.is_empty() => e,
            _ => &got,
        },
        op,
        want,
    )?;
    Ok((ok, got))
}

/// `sim apiserver down|up [NAME]|replicas N|status`: stop or start the API server (or
/// one of its replicas: see `cluster::outage` and `cluster::apiservers`), run N
/// replicas, or say which answer.
fn apiserver(c: &mut Cluster, words: &[String]) -> R {
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
                format!("apiserver started after {after} down: the controllers relist and resume; each kubelet reconnects at its next heartbeat (within 10s) and reports")
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

/// `sim etcd members N | down MEMBER | up MEMBER | status` (see `cluster::etcd`).
fn etcd(c: &mut Cluster, words: &[String]) -> R {
    use crate::cluster::etcd::tolerated_failures;
    let usage = "error: usage: sim etcd members N | down MEMBER | up MEMBER | status";
    let e = |m: String| format!("error: {m}");
    let plural = |n: usize| if n == 1 { "" } else { "s" };
    // "2 of 3 members up, quorum 2": the line every answer ends with.
    let state = |c: &Cluster| {
        let etcd = c.etcd();
        let (up, n, q) = (etcd.up_count(), etcd.members.len(), etcd.quorum());
        let verdict = match etcd.leader_name() {
            Some(l) => format!("writes commit (leader {l})"),
            None => "no quorum: every write and consistent read times out (etcdserver: request timed out); the controllers, the scheduler and the kubelets stall, running containers keep running".into(),
        };
        format!("{up} of {n} member{} up, quorum {q}: {verdict}", plural(n))
    };
    match words {
        [v, n] if v == "members" => {
            let n: usize = n
                .parse()
                .map_err(|_| e(format!("etcd members must be a number, got \"{n}\"")))?;
            c.set_etcd_members(n).map_err(e)?;
            let f = tolerated_failures(n);
            Ok(format!(
                "etcd: {n} member{} ({}), quorum {}, tolerates {f} failure{}",
                plural(n),
                c.etcd()
                    .members
                    .iter()
                    .map(|m| m.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                c.etcd().quorum(),
                plural(f)
            ))
        }
        [v, m] if v == "down" => {
            let had = !c.etcd_lost_quorum();
            c.etcd_member_down(m).map_err(e)?;
            let lost = if had && c.etcd_lost_quorum() {
                "quorum lost — "
            } else {
                ""
            };
            Ok(format!("{m} stopped: {lost}{}", state(c)))
        }
        [v, m] if v == "up" => {
            let since = c.etcd().lost_since;
            c.etcd_member_up(m).map_err(e)?;
            let back = match since {
                Some(t) if !c.etcd_lost_quorum() => format!(
                    "quorum regained after {}{} — ",
                    crate::time::human_duration(c.now().saturating_sub(t)),
                    if c.apiserver_down() {
                        " (the API server is still down)"
                    } else {
                        ": the controllers resume, each kubelet reports at its next heartbeat"
                    }
                ),
                _ => String::new(),
            };
            Ok(format!("{m} started: {back}{}", state(c)))
        }
        [v] if v == "status" => {
            let etcd = c.etcd();
            let mut rows = vec![vec!["MEMBER".to_string(), "STATUS".into(), "LEADER".into()]];
            for (i, m) in etcd.members.iter().enumerate() {
                rows.push(vec![
                    m.name.clone(),
                    if m.up { "up" } else { "down" }.into(),
                    if etcd.leader == Some(i) { "*" } else { "" }.into(),
                ]);
            }
            let since = match etcd.lost_since {
                Some(t) => format!(" (since {})", clock_label(t)),
                None => String::new(),
            };
            Ok(format!(
                "{}{}{since}",
                crate::printers::table::render(&rows),
                state(c)
            ))
        }
        _ => Err(usage.into()),
    }
}

/// `sim leader status | replicas N | kill COMPONENT` (see `cluster::leader_election`).
fn leader(c: &mut Cluster, words: &[String]) -> R {
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
fn watch(c: &mut Cluster, words: &[String]) -> R {
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

/// `sim queues`: every control loop's work queue and watch.
fn queues(c: &mut Cluster, words: &[String]) -> R {
    if !words.is_empty() {
        return Err("error: usage: sim queues".into());
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
    for v in c.loop_views() {
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

fn clock_command(r: Result<super::wait::Blocking, String>) -> Outcome {
    match r {
        Ok(b) => Outcome {
            output: String::new(),
            ok: true,
            expectation: None,
            blocking: Some(b),
        },
        Err(e) => Outcome::err(e),
    }
}

fn advance(c: &Cluster, words: &[String]) -> Result<super::wait::Blocking, String> {
    let d = words
        .first()
        .ok_or("error: usage: sim advance DURATION (e.g. 90s, 5m)")?;
    let ms = parse_span("sim advance", d).map_err(|e| format!("error: {e}"))?;
    Ok(super::wait::Blocking::advance(c.now(), ms))
}

fn settle(c: &Cluster, words: &[String]) -> Result<super::wait::Blocking, String> {
    let p = parse_flags(words, &[flag("max", None)], "sim settle")?;
    let max = p
        .get("max")
        .map(|m| parse_span("sim settle --max", m))
        .transpose()
        .map_err(|e| format!("error: {e}"))?
        .unwrap_or(10 * MINUTE);
    Ok(super::wait::Blocking::settle(c.now(), max))
}

/// What `sim advance` prints when the clock got there.
pub(crate) fn advanced_message(from: SimTime, now: SimTime) -> String {
    format!("time {} → {}", clock_label(from), clock_label(now))
}

/// What `sim settle` prints: settled (and why nothing more can change, if the control
/// plane is down), or not settled within `max`.
pub(crate) fn settle_message(
    c: &Cluster,
    (from, at): (SimTime, SimTime),
    max: SimTime,
    settled: bool,
) -> R {
    if settled {
        Ok(format!(
            "settled at {} (after {}){}",
            clock_label(at),
            human_duration(at - from),
            match c.unavailable() {
                Some(crate::cluster::Unavailable::ApiServerDown) =>
                    ": the API server is down, so nothing more can change until it is back (sim apiserver up)",
                Some(crate::cluster::Unavailable::EtcdNoQuorum) =>
                    ": etcd has no quorum, so nothing more can change until it has one (sim etcd up)",
                None => "",
            }
        ))
    } else {
        Err(format!(
            "error: not settled after {}: work is still pending at {}",
            human_duration(max),
            clock_label(at)
        ))
    }
}

const RESET_FLAGS: &[FlagSpec] = &[
    flag("nodes", None),
    flag("cpu", None),
    flag("memory", None),
    flag("pods", None),
    flag("zones", None),
];

fn reset(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, RESET_FLAGS, "sim reset")?;
    let n: u32 = p
        .get("nodes")
        .unwrap_or("3")
        .parse()
        .map_err(|_| "error: --nodes takes a number".to_string())?;
    if n > 5_000 {
        return Err("error: --nodes may be at most 5000".into());
    }
    let mut cfg = NodeConfig::default();
    if let Some(cpu) = p.get("cpu") {
        quantity::parse_cpu_milli(cpu).ok_or_else(|| format!("error: invalid --cpu \"{cpu}\""))?;
        cfg.cpu = cpu.into();
    }
    if let Some(m) = p.get("memory") {
        quantity::parse_bytes(m).ok_or_else(|| format!("error: invalid --memory \"{m}\""))?;
        cfg.memory = m.into();
    }
    if let Some(pods) = p.get("pods") {
        cfg.pods = pods
            .parse()
            .map_err(|_| format!("error: invalid --pods \"{pods}\""))?;
    }
    let zones: u32 = match p.get("zones") {
        None => 0,
        Some(z) => z
            .parse()
            .ok()
            .filter(|z| (1..=26).contains(z))
            .ok_or_else(|| format!("error: --zones takes a number from 1 to 26, not \"{z}\""))?,
    };
    // A new cluster, with the same seed and the same configured Pod limit (a test or
    // the fuzz harness may have lowered it; a reset is not a way around it).
    let floor = c.store.pod_limit_floor;
    *c = Cluster::new(c.seed());
    c.store.pod_limit_floor = floor;
    for i in 1..=n {
        let mut node = cfg.clone();
        if zones > 0 {
            // node-1 in zone-a, node-2 in zone-b, …: zones stay even as nodes are added.
            let letter = char::from(b'a' + ((i - 1) % zones) as u8);
            node.labels
                .insert(LABEL_TOPOLOGY_ZONE.into(), format!("zone-{letter}"));
        }
        c.add_node(&format!("node-{i}"), node)
            .map_err(|e| e.kubectl_text())?;
    }
    let in_zones = if zones > 0 {
        format!(" in {zones} zones")
    } else {
        String::new()
    };
    Ok(format!(
        "cluster reset: {n} nodes{in_zones} ({} CPU, {} memory, {} pods each), seed {}",
        cfg.cpu,
        cfg.memory,
        cfg.pods,
        c.seed()
    ))
}

fn seed(c: &mut Cluster, words: &[String]) -> R {
    let s: u64 = words
        .first()
        .ok_or("error: usage: sim seed N")?
        .parse()
        .map_err(|_| "error: the seed is a whole number".to_string())?;
    *c = Cluster::with_default_nodes(s);
    Ok(format!("cluster reset with seed {s}: 3 nodes"))
}

const NODE_ADD_FLAGS: &[FlagSpec] = &[
    flag("cpu", None),
    flag("memory", None),
    flag("pods", None),
    flag("labels", None),
    flag("taints", None),
    bool_flag("down", None),
];

fn parse_kv_list(s: &str) -> Result<StringMap, String> {
    let mut m = StringMap::new();
    for kv in s.split(',').filter(|x| !x.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("error: invalid label \"{kv}\": expected key=value"))?;
        m.insert(k.to_string(), v.to_string());
    }
    Ok(m)
}

fn parse_taints(s: &str) -> Result<Vec<Taint>, String> {
    let mut out = Vec::new();
    for t in s.split(',').filter(|x| !x.is_empty()) {
        let (kv, effect) = t
            .split_once(':')
            .ok_or_else(|| format!("error: invalid taint \"{t}\": expected key[=value]:Effect"))?;
        if TaintEffect::parse(effect).is_none() {
            return Err(format!(
                "error: invalid taint effect: {effect}, unsupported taint effect"
            ));
        }
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        out.push(Taint {
            key: k.into(),
            value: v.into(),
            effect: effect.into(),
            ..Default::default()
        });
    }
    Ok(out)
}

fn node(c: &mut Cluster, words: &[String]) -> R {
    let action = words.first().map(String::as_str).unwrap_or("");
    let name = words
        .get(1)
        .map(|n| n.trim_start_matches("node/").to_string());
    let Some(name) = name else {
        return Err("error: usage: sim node add|down|up|partition|ps|remove NAME".into());
    };
    match action {
        "add" => {
            let p = parse_flags(&words[2..], NODE_ADD_FLAGS, "sim node add")?;
            let mut cfg = NodeConfig::default();
            if let Some(cpu) = p.get("cpu") {
                quantity::parse_cpu_milli(cpu)
                    .ok_or_else(|| format!("error: invalid --cpu \"{cpu}\""))?;
                cfg.cpu = cpu.into();
            }
            if let Some(m) = p.get("memory") {
                quantity::parse_bytes(m)
                    .ok_or_else(|| format!("error: invalid --memory \"{m}\""))?;
                cfg.memory = m.into();
            }
            if let Some(pods) = p.get("pods") {
                cfg.pods = pods
                    .parse()
                    .map_err(|_| format!("error: invalid --pods \"{pods}\""))?;
            }
            if let Some(l) = p.get("labels") {
                cfg.labels = parse_kv_list(l)?;
            }
            if let Some(t) = p.get("taints") {
                cfg.taints = parse_taints(t)?;
            }
            if !name
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-' || ch == '.')
                || name.is_empty()
            {
                return Err(format!("error: invalid node name \"{name}\": a lowercase RFC 1123 subdomain is required"));
            }
            c.add_node(&name, cfg).map_err(|e| e.kubectl_text())?;
            Ok(format!("node/{name} added"))
        }
        "down" => c
            .power_off(&name)
            .map(|_| format!("node/{name} powered off (kubelet stopped)"))
            .map_err(|e| format!("error: {e}")),
        "up" => {
            let healing = c.node_partitioned(&name);
            let outage = c.apiserver_down();
            c.power_on(&name)
                .map(|_| {
                    format!(
                        "node/{name} {}",
                        if healing && outage {
                            "is on the network again; the API server is down: its kubelet reconnects when it is back"
                        } else if healing {
                            "reconnected to the API server"
                        } else {
                            "powered on"
                        }
                    )
                })
                .map_err(|e| format!("error: {e}"))
        }
        "partition" => c
            .partition_node(&name)
            .map(|_| {
                format!("node/{name} cut off from the API server (its containers keep running)")
            })
            .map_err(|e| format!("error: {e}")),
        "ps" => {
            let rows = c.node_ps(&name).map_err(|e| format!("error: {e}"))?;
            let mut t = vec![vec![
                "POD".to_string(),
                "CONTAINER".into(),
                "IMAGE".into(),
                "STATE".into(),
            ]];
            t.extend(
                rows.into_iter()
                    .map(|(p, ct, i)| vec![p, ct, i, "Running".into()]),
            );
            Ok(crate::printers::table::render(&t))
        }
        "remove" => c
            .remove_node(&name)
            .map(|_| format!("node/{name} removed"))
            .map_err(|e| e.kubectl_text()),
        other => Err(format!(
            "error: unknown sim node action \"{other}\": add, down, up, partition, ps or remove"
        )),
    }
}

fn compare(got: &str, op: &str, want: &str) -> Result<bool, String> {
    let num = |s: &str| s.parse::<f64>().ok();
    Ok(match op {
        "==" => got == want || num(got).is_some() && num(got) == num(want),
        "!=" => !(got == want || num(got).is_some() && num(got) == num(want)),
        ">=" | "<=" | ">" | "<" => {
            let (a, b) = (
                num(got).ok_or_else(|| format!("error: {got:?} is not a number"))?,
                num(want).ok_or_else(|| format!("error: {want:?} is not a number"))?,
            );
            match op {
                ">=" => a >= b,
                "<=" => a <= b,
                ">" => a > b,
                _ => a < b,
            }
        }
        other => {
            return Err(format!(
                "error: unknown operator \"{other}\": use ==, !=, >=, <=, > or <"
            ))
        }
    })
}

/// `sim expect <kind>/<name> <jsonpath> OP VALUE` or `sim expect count <kind> [-l SEL]
/// [--field F=V] OP VALUE`.
fn expect(c: &mut Cluster, words: &[String]) -> Outcome {
    let r = (|| -> Result<(bool, String), String> {
        let usage = "error: usage: sim expect <kind>/<name> <jsonpath> OP VALUE | sim expect count <kind> [-l SEL] [--field F=V] OP VALUE | sim expect traffic/<service> <jsonpath> OP VALUE | sim expect apiserver <jsonpath> OP VALUE";
        if words.len() < 4 {
            return Err(usage.into());
        }
        let (op, want) = (&words[words.len() - 2], &words[words.len() - 1]);
        let subject = &words[..words.len() - 2];
        let got = if subject[0] == "count" {
            let p = parse_flags(
                &subject[1..],
                &[
                    flag("selector", Some('l')),
                    flag("field", None),
                    flag("namespace", Some('n')),
                ],
                "sim expect count",
            )?;
            let kind = p.args.first().ok_or(usage)?;
            let k = resolve_kind(kind).ok_or_else(|| {
                format!("error: the server doesn't have a resource type \"{kind}\"")
            })?;
            let sel = p.get("selector").map(parse_label_selector).transpose()?;
            let fields = p
                .get("field")
                .map(|f| {
                    let f = if f.starts_with("phase=") || f.starts_with("phase!=") {
                        format!("status.{f}")
                    } else {
                        f.to_string()
                    };
                    parse_field_selector(k, &f)
                })
                .transpose()?;
            let ns = p.get("namespace").unwrap_or("default");
            let n = c
                .store
                .list_objects(k)
                .filter(|o| !k.namespaced() || o.meta().namespace == ns)
                .filter(|o| sel.as_ref().is_none_or(|s| s.matches(&o.meta().labels)))
                .filter(|o| fields.as_ref().is_none_or(|f| fields_match(o, f)))
                .count();
            n.to_string()
        } else if let Some(n) = subject[0].strip_prefix("request/") {
            // A request's way through the API server: `{.code}`, `{.refusedAt}` (the
            // refusing stage, empty when none), `{.user}`, `{.verb}`, `{.resource}`…
            let path = subject.get(1).ok_or(usage)?;
            let log = c.request_log();
            let r = match n {
                "last" => log.recent.back(),
                n => n.parse().ok().and_then(|n| log.get(n)),
            };
            let mut v = r
                .and_then(|r| serde_json::to_value(r).ok())
                .unwrap_or_else(|| serde_json::json!({}));
            if let Some(r) = r {
                v["refusedAt"] = r.refused_at().map(|s| s.label()).unwrap_or_default().into();
            }
            return expect_json(&v, path, op, want, None);
        } else if subject[0] == "etcd" {
            // etcd: `{.members}`, `{.up}`, `{.quorum}`, `{.hasQuorum}`, `{.leader}`,
            // and while the quorum is lost `{.lostForSeconds}`.
            let path = subject.get(1).ok_or(usage)?;
            let etcd = c.etcd();
            let mut v = serde_json::json!({
                "members": etcd.members.len(),
                "up": etcd.up_count(),
                "quorum": etcd.quorum(),
                "hasQuorum": etcd.has_quorum(),
                "leader": etcd.leader_name().unwrap_or(""),
            });
            if let Some(t) = etcd.lost_since {
                v["lostForSeconds"] = (c.now().saturating_sub(t) / 1000).into();
            }
            return expect_json(&v, path, op, want, None);
        } else if let Some(name) = subject[0].strip_prefix("queue/") {
            // A control loop's queue and watch: `{.depth}`, `{.failing}`,
            // `{.stats.syncs}`, `{.stats.retries}`, `{.watch.relists}`,
            // `{.watch.missed}`, `{.watch.brokenSince}`…
            let path = subject.get(1).ok_or(usage)?;
            let ctl = crate::cluster::informers::loop_named(name)
                .ok_or_else(|| format!("error: unknown controller \"{name}\""))?;
            let v = c
                .loop_views()
                .into_iter()
                .find(|v| v.name == ctl.component().writer)
                .and_then(|v| serde_json::to_value(v).ok())
                .unwrap_or_else(|| serde_json::json!({}));
            return expect_json(&v, path, op, want, None);
        } else if let Some(name) = subject[0].strip_prefix("leader/") {
            // A component's election: `{.host}` and `{.identity}` of its leader (empty
            // when none leads), `{.replicas}`, `{.transitions}` (the Lease's),
            // `{.lastGapSeconds}` (the last leaderless gap) and while none leads
            // `{.leaderlessForSeconds}`.
            let path = subject.get(1).ok_or(usage)?;
            let el = crate::cluster::leader_election::Elected::parse(name)
                .ok_or_else(|| format!("error: unknown component \"{name}\""))?;
            let election = c.elections().get(el);
            let leader = election.leader();
            let transitions = c
                .store
                .get::<crate::api::Lease>(&el.lease_key())
                .and_then(|l| {
                    l.spec
                        .extra
                        .get("leaseTransitions")
                        .and_then(|v| v.as_i64())
                })
                .unwrap_or(0);
            let mut v = serde_json::json!({
                "host": leader.map(|l| l.host.as_str()).unwrap_or(""),
                "identity": leader.map(|l| l.identity.as_str()).unwrap_or(""),
                "replicas": election.candidates.len(),
                "transitions": transitions,
                "lastGapSeconds": election.last_gap.map(|g| g / 1000).unwrap_or(0),
            });
            if let Some(t) = election.leaderless_since {
                v["leaderlessForSeconds"] = (c.now().saturating_sub(t) / 1000).into();
            }
            return expect_json(&v, path, op, want, None);
        } else if subject[0] == "apiserver" {
            // The API server's state: `{.up}`, and while it is down `{.downSince}` (ms)
            // and `{.downForSeconds}`; `{.replicas}` and `{.replicasUp}`.
            let path = subject.get(1).ok_or(usage)?;
            let mut v = serde_json::json!({
                "up": !c.apiserver_down(),
                "replicas": c.apiservers().replicas,
                "replicasUp": c.apiservers().up(),
            });
            if let Some(t) = c.apiserver_down_since() {
                v["downSince"] = t.into();
                v["downForSeconds"] = (c.now().saturating_sub(t) / 1000).into();
            }
            return expect_json(&v, path, op, want, None);
        } else {
            let (t, name) = subject[0].split_once('/').ok_or(usage)?;
            if t == "traffic" {
                // A Service's traffic and business numbers (`Proxies::summary`).
                let path = subject.get(1).ok_or(usage)?;
                let v = c
                    .proxies
                    .summary(&ObjKey::new("default", name))
                    .unwrap_or_else(|| serde_json::json!({}));
                // No request yet counts as zero of everything.
                return expect_json(&v, path, op, want, Some("0"));
            }
            let k = resolve_kind(t)
                .ok_or_else(|| format!("error: the server doesn't have a resource type \"{t}\""))?;
            let path = subject.get(1).ok_or(usage)?;
            let key = ObjKey::new(if k.namespaced() { "default" } else { "" }, name);
            match c.store.get_object(k, &key) {
                None => "<not found>".to_string(),
                Some(o) => {
                    let mut v = o.to_json();
                    // Goals may read field ownership, as `--show-managed-fields` shows it.
                    if c.managed_fields().has(k, &key) {
                        v["metadata"]["managedFields"] = c.managed_fields().to_json(k, &key);
                    }
                    let found = select(path, &v)?;
                    found
                        .iter()
                        .map(|x| format_value(x))
                        .collect::<Vec<_>>()
                        .join(" ")
                }
            }
        };
        let ok = compare(&got, op, want)?;
        Ok((ok, got))
    })();
    match r {
        Ok((true, _)) => Outcome {
            output: format!("ok: {}\n", words.join(" ")),
            ok: true,
            expectation: Some(true),
            blocking: None,
        },
        Ok((false, got)) => Outcome {
            output: format!(
                "FAILED: {} (observed: {})\n",
                words.join(" "),
                if got.is_empty() {
                    "<empty>".into()
                } else {
                    got
                }
            ),
            ok: false,
            expectation: Some(false),
            blocking: None,
        },
        Err(e) => Outcome {
            output: format!("{e}\n"),
            ok: false,
            expectation: Some(false),
            blocking: None,
        },
    }
}

fn log(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[flag("tail", None), bool_flag("leases", None)],
        "sim log",
    )?;
    let tail: usize = p
        .get("tail")
        .unwrap_or("50")
        .parse()
        .map_err(|_| "error: --tail takes a number".to_string())?;
    let entries: Vec<_> = c
        .store
        .log
        .iter()
        .filter(|e| p.bool("leases") || e.kind != Kind::Lease)
        .collect();
    let start = entries.len().saturating_sub(tail);
    let mut rows = vec![["TIME", "RV", "TYPE", "VERB", "OBJECT", "WRITER"]
        .iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()];
    for e in &entries[start..] {
        let obj = format!("{}/{}", e.kind.name().to_ascii_lowercase(), e.key.name);
        let obj = if e.reason.is_empty() {
            obj
        } else {
            format!("{obj} ({})", e.reason)
        };
        rows.push(vec![
            clock_label(e.time),
            e.resource_version.to_string(),
            e.type_.as_str().into(),
            e.verb.into(),
            obj,
            e.writer.clone(),
        ]);
    }
    Ok(crate::printers::table::render(&rows))
}

fn pod_key(arg: Option<&String>, verb: &str) -> Result<ObjKey, String> {
    let a = arg.ok_or_else(|| format!("error: usage: sim {verb} pod/NAME"))?;
    let name = a
        .strip_prefix("pod/")
        .or_else(|| a.strip_prefix("pods/"))
        .unwrap_or(a);
    if name.is_empty() {
        return Err(format!("error: usage: sim {verb} pod/NAME"));
    }
    Ok(ObjKey::new("default", name))
}

fn crash(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, &[flag("container", Some('c'))], "sim crash")?;
    let key = pod_key(p.args.first(), "crash")?;
    c.crash_container(&key, p.get("container"))?;
    Ok(format!(
        "pod/{}: container exited with code 1 (Error)",
        key.name
    ))
}

fn readiness(c: &mut Cluster, words: &[String], unready: bool) -> R {
    let verb = if unready { "unready" } else { "ready" };
    let key = pod_key(words.first(), verb)?;
    c.set_pod_unready(&key, unready)?;
    Ok(format!(
        "pod/{}: the application now {} its readiness probe",
        key.name,
        if unready { "fails" } else { "passes" }
    ))
}

fn image(c: &mut Cluster, words: &[String], what: &str) -> R {
    let p = parse_flags(words, &[flag("after", None)], &format!("sim image-{what}"))?;
    let img = p
        .args
        .first()
        .ok_or_else(|| format!("error: usage: sim image-{what} IMAGE"))?;
    match what {
        "fail" => {
            c.set_image_refused(img, true);
            Ok(format!("registry: pulls of {img} now fail (not found)"))
        }
        "ok" => {
            c.set_image_refused(img, false);
            c.set_image_crash(img, None);
            Ok(format!("registry: {img} pulls and runs normally again"))
        }
        _ => {
            let after = p
                .get("after")
                .map(parse_duration)
                .transpose()
                .map_err(|e| format!("error: {e}"))?
                .unwrap_or(2_000);
            c.set_image_crash(img, Some(after));
            Ok(format!(
                "containers of {img} now exit with code 1 {} after they start",
                human_duration(after)
            ))
        }
    }
}

fn gitops(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, &[flag("every", None)], "sim gitops")?;
    let usage = "error: usage: sim gitops on|off deployment/NAME [--every 30s]";
    let (Some(action), Some(target)) = (p.args.first(), p.args.get(1)) else {
        return Err(usage.into());
    };
    let name = target
        .strip_prefix("deployment/")
        .or_else(|| target.strip_prefix("deploy/"))
        .ok_or(usage)?;
    let key = ObjKey::new("default", name);
    match action.as_str() {
        "on" => {
            let every = p
                .get("every")
                .map(parse_duration)
                .transpose()
                .map_err(|e| format!("error: {e}"))?
                .unwrap_or(30_000)
                .max(1_000);
            c.set_gitops(&key, Some(every))?;
            Ok(format!(
                "gitops-sync: deployment/{name} is declared as it is now; drift is undone every {}",
                human_duration(every)
            ))
        }
        "off" => {
            c.set_gitops(&key, None)?;
            Ok(format!(
                "gitops-sync: deployment/{name} is no longer synced"
            ))
        }
        _ => Err(usage.into()),
    }
}

/// `sim load KIND/NAME --cpu 80%|1200m [--memory 200Mi] | --stop`: what a workload's
/// users demand of it. A CPU percentage is of the Pods' requests at the current
/// replica count, turned into a total the Ready Pods share (add Pods and each one
/// works less); millicores are that total directly. Memory is per Pod.
fn load(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            flag("cpu", None),
            flag("memory", None),
            bool_flag("stop", None),
            flag("namespace", Some('n')),
        ],
        "sim load",
    )?;
    let usage = "error: usage: sim load deployment|statefulset|replicaset/NAME --cpu 80%|1200m [--memory 200Mi] | sim load KIND/NAME --stop";
    let target = p.args.first().ok_or(usage)?;
    let (kind_s, name) = target.split_once('/').ok_or(usage)?;
    let kind = resolve_kind(kind_s).ok_or(usage)?;
    let ns = p.get("namespace").unwrap_or("default").to_string();
    let key = ObjKey::new(&ns, name);
    let (replicas, template) = match c.store.get_object(kind, &key) {
        Some(Object::Deployment(d)) => (d.spec.replicas, d.spec.template.spec.clone()),
        Some(Object::StatefulSet(s)) => (s.spec.replicas, s.spec.template.spec.clone()),
        Some(Object::ReplicaSet(r)) => (r.spec.replicas, r.spec.template.spec.clone()),
        Some(_) => {
            return Err(format!(
                "error: sim load drives a Deployment, StatefulSet or ReplicaSet, not a {}",
                kind.name()
            ))
        }
        None => {
            return Err(format!(
                "Error from server (NotFound): {} \"{name}\" not found",
                kind.qualified_resource()
            ))
        }
    };
    let wkey = (ns.clone(), kind.name().to_string(), name.to_string());
    if p.bool("stop") {
        c.config.load.remove(&wkey);
        return Ok(format!(
            "{}/{name}: no load (its Pods idle)",
            kind.name().to_ascii_lowercase()
        ));
    }
    if p.get("cpu").is_none() && p.get("memory").is_none() {
        return Err(usage.into());
    }
    let request: i64 = template
        .containers
        .iter()
        .filter_map(|c| c.resources.requests.get("cpu"))
        .filter_map(|q| crate::api::quantity::parse_cpu_milli(q))
        .sum();
    let mut d = crate::metrics::Demand::default();
    let mut said = Vec::new();
    if let Some(cpu) = p.get("cpu") {
        let total = if let Some(pct) = cpu.strip_suffix('%') {
            let pct: i64 = pct.parse().map_err(|_| {
                format!(
                    "error: --cpu {cpu}: a percentage of the request (80%) or millicores (1200m)"
                )
            })?;
            if request == 0 {
                return Err(format!("error: --cpu {cpu}: the Pods of {} {name} request no CPU, so a percentage of it means nothing; give millicores (--cpu 500m)", kind.name()));
            }
            request * replicas.max(1) * pct / 100
        } else {
            crate::api::quantity::parse_cpu_milli(cpu).ok_or_else(|| {
                format!(
                    "error: --cpu {cpu}: a percentage of the request (80%) or millicores (1200m)"
                )
            })?
        };
        d.cpu_milli = Some(total.max(0));
        said.push(format!("{total}m of CPU shared by its Ready Pods"));
    }
    if let Some(mem) = p.get("memory") {
        let b = crate::api::quantity::parse_bytes(mem)
            .ok_or_else(|| format!("error: --memory {mem}: a quantity such as 200Mi"))?;
        d.memory_bytes = Some(b.max(0));
        said.push(format!("{mem} of memory per Pod"));
    }
    c.config.load.insert(wkey, d);
    Ok(format!(
        "{}/{name}: load {}",
        kind.name().to_ascii_lowercase(),
        said.join(", ")
    ))
}

fn hang(c: &mut Cluster, words: &[String]) -> R {
    let key = pod_key(words.first(), "hang")?;
    let live = c.hang_pod(&key)?;
    Ok(if live {
        format!("pod/{}: the application hangs; its liveness probe will fail and the kubelet will restart it", key.name)
    } else {
        format!(
            "pod/{}: the application hangs; it has no liveness probe, so nothing will restart it",
            key.name
        )
    })
}

/// `sim why pod/NAME`: the Pod's last scheduling attempt, node by node — the filter
/// that rejected each node, or each score plugin's normalized score and the total.
/// `sim trace KIND/NAME`: the chain of causes that produced the object (the page's
/// why-trace), oldest first, causes indented under what they caused.
fn trace(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, &[flag("namespace", Some('n'))], "sim trace")?;
    let Some(arg) = p.args.first() else {
        return Err("error: sim trace needs KIND/NAME, e.g. sim trace pod/web-7d4b9c-x2x4q".into());
    };
    // The request path: `sim trace requests`, `sim trace request/N`.
    if arg == "requests" {
        return Ok(crate::printers::request_trace::render_list(c.request_log()));
    }
    if let Some(n) = arg.strip_prefix("request/") {
        let log = c.request_log();
        let n: u64 = match n {
            "last" => log.recent.back().map(|r| r.n).unwrap_or(0),
            n => n
                .parse()
                .map_err(|_| format!("error: request/{n}: not a request number"))?,
        };
        return log
            .get(n)
            .map(crate::printers::request_trace::render)
            .ok_or_else(|| {
                format!(
                    "error: no request/{n}: kubeplay keeps the last {} requests kubectl sent (sim trace requests lists them)",
                    crate::cluster::request_path::KEEP
                )
            });
    }
    let Some((k, name)) = arg.split_once('/') else {
        return Err(format!("error: sim trace needs KIND/NAME, got \"{arg}\""));
    };
    let kind = crate::printers::get::resolve_kind(k)
        .ok_or_else(|| format!("error: the server doesn't have a resource type \"{k}\""))?;
    let ns = if kind.namespaced() {
        p.get("namespace").unwrap_or("default")
    } else {
        ""
    };
    let key = ObjKey::new(ns, name);
    match crate::explain::trace::trace(c, kind, &key) {
        Some(causes) => {
            let mut out = crate::explain::trace::render(&causes);
            // As the page's Why tab: a stuck Pod's trace ends where it is stuck.
            let path = (kind == Kind::Pod)
                .then(|| crate::explain::pod_path::pod_path(c, &key))
                .flatten();
            if let Some(stuck) = path.as_ref().and_then(|p| p.stuck()) {
                out.push_str(&format!("{:>6}  Stuck at: {}\n", "now", stuck.label()));
                for e in &stuck.evidence {
                    out.push_str(&format!("{:>8}{}\n", "", e.text()));
                }
            }
            Ok(out)
        }
        None => Err(format!(
            "Error from server (NotFound): {} \"{name}\" not found",
            kind.resource()
        )),
    }
}

fn why(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, &[flag("namespace", Some('n'))], "sim why")?;
    let mut key = pod_key(p.args.first(), "why")?;
    if let Some(ns) = p.get("namespace") {
        key.namespace = ns.to_string();
    }
    let pod = c.store.get::<Pod>(&key).ok_or_else(|| {
        format!(
            "Error from server (NotFound): pods \"{}\" not found",
            key.name
        )
    })?;
    let Some(a) = c.scheduler().last_attempt.get(&key) else {
        return Ok(if pod.spec.node_name.is_empty() {
            format!(
                "pod/{} has not been through a scheduling cycle yet",
                key.name
            )
        } else {
            format!(
                "pod/{} is on {}; no scheduling attempt is recorded (it was bound directly, or long ago: only the newest bound Pods' attempts are kept)",
                key.name, pod.spec.node_name
            )
        });
    };
    let opt = |v: Option<i64>| v.map(|v| v.to_string()).unwrap_or_else(|| "-".into());
    let mut header = vec!["NODE".to_string(), "FILTER".to_string()];
    header.extend(score_terms(None).iter().map(ScoreTerm::header));
    header.push("TOTAL".into());
    let mut t = vec![header];
    for v in &a.nodes {
        let mark = if a.chosen.as_deref() == Some(&*v.node) {
            format!("{} *", v.node)
        } else {
            v.node.to_string()
        };
        let filter = match &v.failure {
            None => "passed".to_string(),
            Some(f) => filter_text(f),
        };
        let mut row = vec![mark, filter];
        match &v.scores {
            Some(s) => {
                row.extend(score_terms(Some(s)).iter().map(|t| opt(t.score)));
                row.push(s.total.to_string());
            }
            None => row.extend(std::iter::repeat_n("-".to_string(), 8)),
        }
        t.push(row);
    }
    let mut out = format!(
        "Last scheduling attempt of pod/{} at {}:\n{}\n",
        key.name,
        clock_label(a.time),
        crate::printers::table::render(&t).trim_end()
    );
    if let Some((node, victims)) = &a.preemption {
        out.push_str(&format!(
            "Preemption: nominated node {node}; deleting lower-priority pod(s) {}\n",
            victims.join(", ")
        ));
    }
    if a.nodes.iter().filter(|v| v.failure.is_none()).count() == 1 && a.chosen.is_some() {
        out.push_str("Only one node passed the filters, so none was scored.\n");
    }
    out.push_str(&a.message);
    Ok(out)
}

fn oom(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, &[flag("container", Some('c'))], "sim oom")?;
    let key = pod_key(p.args.first(), "oom")?;
    c.oom_kill(&key, p.get("container"))?;
    Ok(format!(
        "pod/{}: container exceeded its memory limit: OOMKilled (exit code 137)",
        key.name
    ))
}

/// `sim traffic`: start, stop or report a Service's request flow (`crate::proxy`).
fn traffic(c: &mut Cluster, words: &[String]) -> R {
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

/// `sim image-warmup IMAGE DURATION`: the application in IMAGE listens only this long
/// after its container starts (0s: at once again).
fn image_warmup(c: &mut Cluster, words: &[String]) -> R {
    let usage = "error: usage: sim image-warmup IMAGE DURATION (e.g. 8s; 0s to listen at once)";
    let (Some(image), Some(d)) = (words.first(), words.get(1)) else {
        return Err(usage.into());
    };
    let ms = parse_span("sim image-warmup", d).map_err(|e| format!("error: {e}"))?;
    if ms == 0 {
        c.faults.warmup.remove(image);
        return Ok(format!(
            "{image}: the application listens as soon as its container starts"
        ));
    }
    c.faults.warmup.insert(image.clone(), ms);
    Ok(format!(
        "{image}: the application listens {} after its container starts; until then it refuses connections and fails its probes",
        crate::kubelet::format_go_duration(ms)
    ))
}

/// `sim app service/NAME [--store memory|service/DB]`: the Service's Pods run the
/// message API (`crate::app`), keeping messages in memory or in a database behind
/// Service DB; its traffic then posts and reads messages.
fn app(c: &mut Cluster, words: &[String]) -> R {
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
fn nslookup(c: &mut Cluster, words: &[String]) -> R {
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

/// `sim import FILE... | -f FILE... | -f -`: a new world from another cluster's state
/// ([`crate::import`]): what it loaded, left out and ignored. A refusal changes nothing.
pub fn import(
    c: &mut Cluster,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn super::Files,
) -> R {
    let usage = "error: usage: sim import FILE... (the output of kubectl get … -o json or -o yaml, or manifests; -f - reads stdin)";
    let mut paths = Vec::new();
    let mut it = words.iter();
    while let Some(w) = it.next() {
        match w.as_str() {
            "-f" | "--filename" => paths.push(it.next().ok_or(usage)?.clone()),
            f if f.starts_with("--filename=") => paths.push(f["--filename=".len()..].to_string()),
            f if f.starts_with('-') && f != "-" => {
                return Err(format!("error: unknown flag: {f}\n{usage}"))
            }
            f => paths.push(f.to_string()),
        }
    }
    if paths.is_empty() {
        return Err(usage.into());
    }
    let mut texts = Vec::new();
    for p in paths {
        let text = if p == "-" {
            stdin
                .ok_or("error: sim import -f - reads stdin, and there is none")?
                .to_string()
        } else {
            files.read(&p).map_err(|e| format!("error: {e}"))?
        };
        texts.push((if p == "-" { "STDIN".to_string() } else { p }, text));
    }
    let (world, report) = crate::import::import(c.seed(), c.store.pod_limit_floor, &texts)?;
    *c = world;
    Ok(report.summary())
}

/// `sim export [--snapshot]`: this world as clean manifests for `kubectl apply` on a
/// real cluster, or (`--snapshot`) as a List with status that `sim import` reads back
/// into the same world.
fn export(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, &[bool_flag("snapshot", None)], "sim export")?;
    if !p.args.is_empty() {
        return Err("error: usage: sim export [--snapshot]".into());
    }
    if p.bool("snapshot") {
        let mut s = serde_json::to_string_pretty(&crate::import::snapshot(c))
            .map_err(|e| format!("error: {e}"))?;
        s.push('\n');
        Ok(s)
    } else {
        Ok(crate::import::manifests(c))
    }
}
