//! What a learner or a lesson checks: `sim expect`, `sim log`, `sim trace`, `sim why`.

use super::super::args::{bool_flag, flag, parse_flags};
use super::super::Outcome;
use super::*;
use crate::api::*;
use crate::apiserver::selectors::{fields_match, parse_field_selector, parse_label_selector};
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::explain::scores::{filter_text, score_terms, ScoreTerm};
use crate::printers::get::resolve_kind;
use crate::printers::jsonpath::{format_value, select};
use crate::time::clock_label;

/// Compare what `path` selects in `v` (values joined by spaces; `empty` stands in when
/// it selects nothing) with `want` under `op`: whether it holds, and what was found.
pub(super) fn expect_json(
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

pub(super) fn compare(got: &str, op: &str, want: &str) -> Result<bool, String> {
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

/// What `sim expect` answers when its words are not a check it knows.
const EXPECT_USAGE: &str = "error: usage: sim expect <kind>/<name> <jsonpath> OP VALUE | sim expect count <kind> [-l SEL] [--field F=V] OP VALUE | sim expect traffic/<service> <jsonpath> OP VALUE | sim expect apiserver <jsonpath> OP VALUE";

/// `sim expect <kind>/<name> <jsonpath> OP VALUE` or `sim expect count <kind> [-l SEL]
/// [--field F=V] OP VALUE`.
pub(super) fn expect(c: &mut Cluster, words: &[String]) -> Outcome {
    match check_expectation(c, words) {
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

/// `sim expect`'s check: whether it holds, and what it observed. Each subject other than
/// an object or a count is read as a JSON document its path selects from.
fn check_expectation(c: &mut Cluster, words: &[String]) -> Result<(bool, String), String> {
    if words.len() < 4 {
        return Err(EXPECT_USAGE.into());
    }
    let (op, want) = (&words[words.len() - 2], &words[words.len() - 1]);
    let subject = &words[..words.len() - 2];
    let path = || subject.get(1).ok_or(EXPECT_USAGE);
    let got = if subject[0] == "count" {
        count_matching(c, &subject[1..])?
    } else if let Some(n) = subject[0].strip_prefix("request/") {
        let path = path()?;
        return expect_json(&request_state(c, n), path, op, want, None);
    } else if subject[0] == "etcd" {
        let path = path()?;
        return expect_json(&etcd_state(c), path, op, want, None);
    } else if let Some(name) = subject[0].strip_prefix("queue/") {
        let path = path()?;
        return expect_json(&queue_state(c, name)?, path, op, want, None);
    } else if let Some(name) = subject[0].strip_prefix("leader/") {
        let path = path()?;
        return expect_json(&leader_state(c, name)?, path, op, want, None);
    } else if subject[0] == "apiserver" {
        let path = path()?;
        return expect_json(&apiserver_state(c), path, op, want, None);
    } else {
        let (t, name) = subject[0].split_once('/').ok_or(EXPECT_USAGE)?;
        if t == "devices" {
            let path = path()?;
            let v = devices_state(c, name).unwrap_or_else(|| serde_json::json!({}));
            return expect_json(&v, path, op, want, Some("0"));
        }
        if t == "traffic" {
            // A Service's traffic and business numbers (`Proxies::summary`).
            let path = path()?;
            let v = c
                .proxies
                .summary(&ObjKey::new("default", name))
                .unwrap_or_else(|| serde_json::json!({}));
            // No request yet counts as zero of everything.
            return expect_json(&v, path, op, want, Some("0"));
        }
        object_value(c, t, name, subject.get(1))?
    };
    let ok = compare(&got, op, want)?;
    Ok((ok, got))
}

/// `sim expect devices/NAME`: a Service's devices (`Proxies::devices_summary`),
/// `{.idlePods}`, its Ready Pods that hold no connection, and `{.fewest}`, the fewest
/// connections a Ready Pod holds, and `{.newest}`, those the youngest Ready Pod holds
/// (connections do not move or rebalance onto a Pod that became ready later).
fn devices_state(c: &Cluster, name: &str) -> Option<serde_json::Value> {
    let key = ObjKey::new("default", name);
    let mut v = c.proxies.devices_summary(&key)?;
    let sel = c.store.get::<Service>(&key)?.spec.selector.clone()?;
    let held = v["pods"].clone();
    // Each Ready Pod's creation time, name and connections.
    let mut ready: Vec<(String, String, u64)> = c
        .store
        .list_ns::<Pod>("default")
        .filter(|p| {
            sel.iter()
                .all(|(k, val)| p.metadata.labels.get(k) == Some(val))
        })
        .filter(|p| p.metadata.deletion_timestamp.is_none() && p.is_ready())
        .map(|p| {
            let n = held
                .get(&p.metadata.name)
                .and_then(|n| n.as_u64())
                .unwrap_or(0);
            let m = &p.metadata;
            (m.creation_timestamp.clone(), m.name.clone(), n)
        })
        .collect();
    ready.sort();
    v["idlePods"] = ready.iter().filter(|r| r.2 == 0).count().into();
    v["fewest"] = ready.iter().map(|r| r.2).min().unwrap_or(0).into();
    v["newest"] = ready.last().map_or(0, |r| r.2).into();
    Some(v)
}

/// `sim expect count <kind> [-l SEL] [--field F=V] [-n NS]`: how many objects match.
fn count_matching(c: &Cluster, args: &[String]) -> Result<String, String> {
    let p = parse_flags(
        args,
        &[
            flag("selector", Some('l')),
            flag("field", None),
            flag("namespace", Some('n')),
        ],
        "sim expect count",
    )?;
    let kind = p.args.first().ok_or(EXPECT_USAGE)?;
    let k = resolve_kind(kind)
        .ok_or_else(|| format!("error: the server doesn't have a resource type \"{kind}\""))?;
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
    Ok(n.to_string())
}

/// `sim expect request/N|last`: a request's way through the API server: `{.code}`,
/// `{.refusedAt}` (the refusing stage, empty when none), `{.user}`, `{.verb}`,
/// `{.resource}`…
fn request_state(c: &mut Cluster, n: &str) -> serde_json::Value {
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
    v
}

/// `sim expect etcd`: `{.members}`, `{.up}`, `{.quorum}`, `{.hasQuorum}`, `{.leader}`,
/// while the quorum is lost `{.lostForSeconds}`; `{.reachable}` (the API server's path
/// to it), `{.snapshots}`, and its data: `{.revision}`, `{.compacted}`, `{.dbSize}`,
/// `{.dbSizeInUse}`, `{.dbSizeFree}` (freed by compaction, given back by a
/// defragmentation), `{.keys}`.
fn etcd_state(c: &mut Cluster) -> serde_json::Value {
    let now = c.now();
    let db = c.store.etcd_status(now);
    let etcd = c.etcd();
    let mut v = serde_json::json!({
        "members": etcd.members.len(),
        "up": etcd.up_count(),
        "quorum": etcd.quorum(),
        "hasQuorum": etcd.has_quorum(),
        "leader": etcd.leader_name().unwrap_or(""),
        "reachable": etcd.cut_since.is_none(),
        "snapshots": etcd.snapshots.len(),
        "revision": db.revision,
        "compacted": db.compacted,
        "dbSize": db.db_size,
        "dbSizeInUse": db.db_size_in_use,
        "dbSizeFree": db.db_size - db.db_size_in_use,
        "keys": db.keys,
    });
    if let Some(t) = etcd.lost_since {
        v["lostForSeconds"] = (c.now().saturating_sub(t) / 1000).into();
    }
    v
}

/// `sim expect queue/NAME`: a control loop's queue and watch: `{.depth}`, `{.failing}`,
/// `{.stats.syncs}`, `{.stats.retries}`, `{.watch.relists}`, `{.watch.missed}`,
/// `{.watch.brokenSince}`…
fn queue_state(c: &mut Cluster, name: &str) -> Result<serde_json::Value, String> {
    let ctl = crate::cluster::informers::loop_named(name)
        .ok_or_else(|| format!("error: unknown controller \"{name}\""))?;
    Ok(c.loop_views()
        .into_iter()
        .find(|v| v.name == ctl.component().writer)
        .and_then(|v| serde_json::to_value(v).ok())
        .unwrap_or_else(|| serde_json::json!({})))
}

/// `sim expect leader/NAME`: a component's election: `{.host}` and `{.identity}` of its
/// leader (empty when none leads), `{.replicas}`, `{.transitions}` (the Lease's),
/// `{.lastGapSeconds}` (the last leaderless gap) and while none leads
/// `{.leaderlessForSeconds}`.
fn leader_state(c: &mut Cluster, name: &str) -> Result<serde_json::Value, String> {
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
    Ok(v)
}

/// `sim expect apiserver`: `{.up}`, and while it is down `{.downSince}` (ms) and
/// `{.downForSeconds}`; `{.replicas}` and `{.replicasUp}`.
fn apiserver_state(c: &mut Cluster) -> serde_json::Value {
    let mut v = serde_json::json!({
        "up": !c.apiserver_down(),
        "replicas": c.apiservers().replicas,
        "replicasUp": c.apiservers().up(),
    });
    if let Some(t) = c.apiserver_down_since() {
        v["downSince"] = t.into();
        v["downForSeconds"] = (c.now().saturating_sub(t) / 1000).into();
    }
    v
}

/// `sim expect KIND/NAME PATH`: what `path` selects in the object (in `default` when
/// namespaced), values joined by spaces, or `<not found>`.
fn object_value(
    c: &Cluster,
    kind: &str,
    name: &str,
    path: Option<&String>,
) -> Result<String, String> {
    let k = resolve_kind(kind)
        .ok_or_else(|| format!("error: the server doesn't have a resource type \"{kind}\""))?;
    let path = path.ok_or(EXPECT_USAGE)?;
    let key = ObjKey::new(if k.namespaced() { "default" } else { "" }, name);
    Ok(match c.store.get_object(k, &key) {
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
    })
}

pub(super) fn log(c: &mut Cluster, words: &[String]) -> R {
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

/// `sim why pod/NAME`: the Pod's last scheduling attempt, node by node — the filter
/// that rejected each node, or each score plugin's normalized score and the total.
/// `sim trace KIND/NAME`: the chain of causes that produced the object (the page's
/// why-trace), oldest first, causes indented under what they caused.
pub(super) fn trace(c: &mut Cluster, words: &[String]) -> R {
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

pub(super) fn why(c: &mut Cluster, words: &[String]) -> R {
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
