//! `sim etcdctl`: etcd's own client, run on the control-plane host against the members
//! directly, not through the API server (`apiserver::mvcc`). Read-only but for
//! compaction and defragmentation, which are maintenance, not data.
//!
//! Its output is etcdctl v3.5's (`etcdctl/ctlv3/command/printer_simple.go`,
//! `printer_table.go`, `printer_json.go`): `get --keys-only` prints each key and an
//! empty line, `endpoint status` one line per endpoint or a table with `-w table`,
//! sizes as go-humanize's `Bytes`. A value is printed as the object's JSON: etcd holds
//! the built-in kinds as protobuf (`k8s\0…`), which is not readable text.
//!
//! Because it goes around the API server, it works while the API server cannot reach
//! etcd (`sim etcd disconnect`) — the course's way to tell that from a lost quorum —
//! and it shows what the API server would have guarded: the Secrets' data included.
//! A linearizable read (the default) needs the quorum; `--consistency=s` reads one
//! member's copy. The TLS flags a real cluster needs (`--endpoints`, `--cacert`,
//! `--cert`, `--key`) are accepted and change nothing.

use super::super::args::{bool_flag, flag, parse_flags};
use super::*;
use crate::apiserver::mvcc::{humanize_bytes, DbStatus, ETCD_VERSION};
use crate::cluster::etcd::Etcd;

const USAGE: &str = "Error: usage: sim etcdctl get KEY [--prefix] [--keys-only] [--print-value-only] [--limit N] [--consistency l|s] | endpoint status [--cluster] [-w simple|table|json] | endpoint health [--cluster] | compact REV | defrag";
/// What every address the client dials is: etcd-1 beside the API server.
const LOCAL: &str = "127.0.0.1:2379";
const TLS_FLAGS: [&str; 5] = ["endpoints", "cacert", "cert", "key", "dial-timeout"];

/// `sim etcdctl …`.
pub(super) fn etcdctl(c: &mut Cluster, words: &[String]) -> R {
    let specs = [
        bool_flag("prefix", None),
        bool_flag("keys-only", None),
        bool_flag("print-value-only", None),
        flag("limit", None),
        flag("consistency", None),
        bool_flag("cluster", None),
        flag("write-out", Some('w')),
        flag(TLS_FLAGS[0], None),
        flag(TLS_FLAGS[1], None),
        flag(TLS_FLAGS[2], None),
        flag(TLS_FLAGS[3], None),
        flag(TLS_FLAGS[4], None),
    ];
    let p = parse_flags(words, &specs, "etcdctl").map_err(|e| e.replacen("error:", "Error:", 1))?;
    c.show_etcd_data();
    let args: Vec<&str> = p.args.iter().map(String::as_str).collect();
    match args.as_slice() {
        ["get", key] => get(c, key, &p),
        ["endpoint", "status"] => endpoint_status(c, &p),
        ["endpoint", "health"] => endpoint_health(c, &p),
        ["compact", rev] => {
            let rev: u64 = rev
                .parse()
                .map_err(|_| format!("Error: bad number for revision \"{rev}\""))?;
            linearizable(c.etcd())?;
            let now = c.now();
            c.store
                .etcd_compact(now, rev)
                .map_err(|e| format!("Error: {e}"))?;
            Ok(format!("compacted revision {rev}"))
        }
        ["defrag"] => {
            let now = c.now();
            c.store.etcd_defrag(now);
            Ok(format!("Finished defragmenting etcd member[{LOCAL}]"))
        }
        _ => Err(USAGE.into()),
    }
}

/// A read or a write through Raft: it needs a leader.
fn linearizable(etcd: &Etcd) -> Result<(), String> {
    if etcd.has_quorum() {
        Ok(())
    } else {
        Err("Error: context deadline exceeded".into())
    }
}

fn get(c: &mut Cluster, key: &str, p: &super::super::args::Parsed) -> R {
    match p.get("consistency").unwrap_or("l") {
        "l" => linearizable(c.etcd())?,
        "s" if c.etcd().members[0].up => {}
        "s" => return Err("Error: context deadline exceeded".into()),
        other => return Err(format!("Error: unknown consistency flag \"{other}\"")),
    }
    let limit: usize = match p.get("limit") {
        None => 0,
        Some(n) => n
            .parse()
            .map_err(|_| format!("Error: invalid argument \"{n}\" for \"--limit\" flag"))?,
    };
    let now = c.now();
    c.store.etcd_status(now);
    let hits: Vec<_> = if p.bool("prefix") {
        c.store.etcd_range(key, limit)
    } else {
        c.store
            .etcd_range(key, 0)
            .into_iter()
            .filter(|(k, _)| k == key)
            .collect()
    };
    let (keys_only, value_only) = (p.bool("keys-only"), p.bool("print-value-only"));
    let mut out = String::new();
    for (k, obj) in hits {
        if !value_only {
            out.push_str(&k);
            out.push('\n');
        }
        if !keys_only {
            match obj {
                Some(o) => out.push_str(&o.to_json().to_string()),
                None => out.push_str(
                    &c.store
                        .compactor_recorded()
                        .map_or(String::new(), |r| r.to_string()),
                ),
            }
        }
        out.push('\n');
    }
    Ok(out.trim_end_matches('\n').to_string())
}

/// The members `endpoint` commands dial: the local one, or with `--cluster` every
/// member's client URL.
fn endpoints(etcd: &Etcd, p: &super::super::args::Parsed) -> Vec<(usize, String)> {
    if p.bool("cluster") {
        etcd.members
            .iter()
            .enumerate()
            .map(|(i, m)| (i, format!("https://{}:2379", m.name)))
            .collect()
    } else {
        vec![(0, LOCAL.to_string())]
    }
}

/// A member's id: a hash of its name, as etcd's is of its peer URLs.
fn member_id(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

fn endpoint_status(c: &mut Cluster, p: &super::super::args::Parsed) -> R {
    let now = c.now();
    let db = c.store.etcd_status(now);
    let etcd = c.etcd();
    let format = p.get("write-out").unwrap_or("simple");
    let mut rows: Vec<[String; 10]> = Vec::new();
    let mut json = Vec::new();
    let mut failed = Vec::new();
    for (i, ep) in endpoints(etcd, p) {
        let m = &etcd.members[i];
        if !m.up {
            failed.push(format!(
                "Failed to get the status of endpoint {ep} (context deadline exceeded)"
            ));
            continue;
        }
        // A member cut off from the others, or in a cluster without quorum, knows
        // no leader.
        let leader = etcd.leader.filter(|_| m.voting());
        let id = member_id(&m.name);
        let leader_id = leader.map_or(0, |l| member_id(&etcd.members[l].name));
        let errors = if leader.is_none() {
            "etcdserver: no leader"
        } else {
            ""
        };
        let raft_index = db.revision + etcd.term;
        rows.push([
            ep.clone(),
            format!("{id:x}"),
            ETCD_VERSION.into(),
            humanize_bytes(db.db_size),
            (leader == Some(i)).to_string(),
            "false".into(),
            etcd.term.to_string(),
            raft_index.to_string(),
            raft_index.to_string(),
            errors.into(),
        ]);
        json.push(status_json(
            &ep, id, leader_id, etcd.term, raft_index, &db, errors,
        ));
    }
    let body = match format {
        "simple" => rows
            .iter()
            .map(|r| r.join(", "))
            .collect::<Vec<_>>()
            .join("\n"),
        "table" => {
            let hdr = [
                "ENDPOINT",
                "ID",
                "VERSION",
                "DB SIZE",
                "IS LEADER",
                "IS LEARNER",
                "RAFT TERM",
                "RAFT INDEX",
                "RAFT APPLIED INDEX",
                "ERRORS",
            ];
            ascii_table(&hdr, &rows)
        }
        "json" => serde_json::Value::Array(json).to_string(),
        other => return Err(format!("Error: unknown output format \"{other}\"")),
    };
    Ok(failed
        .into_iter()
        .chain((!body.is_empty()).then_some(body))
        .collect::<Vec<_>>()
        .join("\n"))
}

fn status_json(
    ep: &str,
    id: u64,
    leader: u64,
    term: u64,
    index: u64,
    db: &DbStatus,
    errors: &str,
) -> serde_json::Value {
    let mut status = serde_json::json!({
        "header": {"cluster_id": member_id("kubeplay"), "member_id": id, "revision": db.revision, "raft_term": term},
        "version": ETCD_VERSION,
        "dbSize": db.db_size,
        "leader": leader,
        "raftIndex": index,
        "raftTerm": term,
        "raftAppliedIndex": index,
        "dbSizeInUse": db.db_size_in_use,
    });
    if !errors.is_empty() {
        status["errors"] = serde_json::json!([errors]);
    }
    serde_json::json!({"Endpoint": ep, "Status": status})
}

fn endpoint_health(c: &mut Cluster, p: &super::super::args::Parsed) -> R {
    let etcd = c.etcd();
    let mut lines = Vec::new();
    let mut unhealthy = false;
    for (i, ep) in endpoints(etcd, p) {
        let m = &etcd.members[i];
        // Health commits a proposal (a linearizable read of a missing key): the member
        // must be up and its cluster must have a leader it can reach.
        if m.up && m.voting() && etcd.has_quorum() {
            lines.push(format!(
                "{ep} is healthy: successfully committed proposal: took = 1.482ms"
            ));
        } else {
            unhealthy = true;
            lines.push(format!(
                "{ep} is unhealthy: failed to commit proposal: context deadline exceeded"
            ));
        }
    }
    if unhealthy {
        lines.push("Error: unhealthy cluster".into());
        return Err(lines.join("\n"));
    }
    Ok(lines.join("\n"))
}

/// tablewriter's default box, cells right-aligned as etcdctl sets it and headers
/// centred.
fn ascii_table(hdr: &[&str], rows: &[[String; 10]]) -> String {
    let widths: Vec<usize> = (0..hdr.len())
        .map(|i| {
            rows.iter()
                .map(|r| r[i].chars().count())
                .chain([hdr[i].len()])
                .max()
                .unwrap_or(0)
        })
        .collect();
    let line = format!(
        "+{}+",
        widths
            .iter()
            .map(|w| "-".repeat(w + 2))
            .collect::<Vec<_>>()
            .join("+")
    );
    let centred = |s: &str, w: usize| {
        let pad = w - s.len();
        let left = pad / 2;
        format!("{}{s}{}", " ".repeat(left), " ".repeat(pad - left))
    };
    let mut out = vec![line.clone()];
    out.push(format!(
        "| {} |",
        hdr.iter()
            .zip(&widths)
            .map(|(h, w)| centred(h, *w))
            .collect::<Vec<_>>()
            .join(" | ")
    ));
    out.push(line.clone());
    for r in rows {
        out.push(format!(
            "| {} |",
            r.iter()
                .zip(&widths)
                .map(|(c, w)| format!("{c:>w$}"))
                .collect::<Vec<_>>()
                .join(" | ")
        ));
    }
    out.push(line);
    out.join("\n")
}
