//! `sim etcd`: etcd's members as things that fail (`cluster::etcd`), and its data as
//! something that can be saved, restored and lost (`cluster::etcd_data`).

use super::control_plane::leaders_back;
use super::*;
use crate::time::{clock_label, human_duration};

/// `sim etcd members N | down MEMBER | up MEMBER | isolate MEMBER | rejoin MEMBER |
/// disconnect | reconnect | wipe | snapshot save|restore|status NAME | status` (see
/// `cluster::etcd` and `cluster::etcd_data`).
pub(super) fn etcd(c: &mut Cluster, words: &[String]) -> R {
    use crate::cluster::etcd::tolerated_failures;
    let usage =
        "error: usage: sim etcd members N | down MEMBER | up MEMBER | isolate MEMBER | rejoin MEMBER | disconnect | reconnect | wipe | snapshot save|restore|status NAME | status";
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
        // Members cut off from their peers run, yet count for no majority.
        let cut = match etcd.isolated_count() {
            0 => String::new(),
            k => format!(" ({k} cut off from the others)"),
        };
        format!(
            "{up} of {n} member{} up{cut}, quorum {q}: {verdict}",
            plural(n)
        )
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
                Some(t) if !c.etcd_lost_quorum() => regained(c, t),
                _ => String::new(),
            };
            Ok(format!("{m} started: {back}{}", state(c)))
        }
        [v, m] if v == "isolate" || v == "rejoin" => {
            let had = !c.etcd_lost_quorum();
            let since = c.etcd().lost_since;
            c.etcd_member_isolated(m, v == "isolate").map_err(e)?;
            let change = match (had, c.etcd_lost_quorum(), since) {
                (true, true, _) => "quorum lost — ".to_string(),
                (false, false, Some(t)) => regained(c, t),
                _ => String::new(),
            };
            let what = if v == "isolate" {
                "cut off from its peers (its process runs on)"
            } else {
                "reaches its peers again"
            };
            Ok(format!("{m} {what}: {change}{}", state(c)))
        }
        [v] if v == "status" => {
            let etcd = c.etcd();
            let mut rows = vec![vec!["MEMBER".to_string(), "STATUS".into(), "LEADER".into()]];
            for (i, m) in etcd.members.iter().enumerate() {
                rows.push(vec![
                    m.name.clone(),
                    match (m.up, m.isolated) {
                        (false, _) => "down",
                        (true, false) => "up",
                        (true, true) => "up, cut off",
                    }
                    .into(),
                    if etcd.leader == Some(i) { "*" } else { "" }.into(),
                ]);
            }
            let since = match etcd.lost_since {
                Some(t) => format!(" (since {})", clock_label(t)),
                None => String::new(),
            };
            let cut = match etcd.cut_since {
                Some(t) => format!("\nthe API server cannot reach etcd since {}: every request through it waits for its deadline (sim etcd reconnect); etcdctl on the members still answers", clock_label(t)),
                None => String::new(),
            };
            let now = c.now();
            let db = c.store.etcd_status(now);
            let data = format!(
                "\nrevision {}, compacted at {}, {} keys, DB size {} ({} in use)",
                db.revision,
                db.compacted,
                db.keys,
                crate::apiserver::mvcc::humanize_bytes(db.db_size),
                crate::apiserver::mvcc::humanize_bytes(db.db_size_in_use),
            );
            Ok(format!(
                "{}{}{since}{cut}{data}",
                crate::printers::table::render(&rows),
                state(c)
            ))
        }
        [v] if v == "disconnect" || v == "reconnect" => {
            c.show_etcd_data();
            let cut = v == "disconnect";
            let since = c.etcd().cut_since;
            c.etcd_disconnect(cut).map_err(e)?;
            Ok(if cut {
                format!("the API server is cut off from etcd: every request through it now waits for its deadline (Timeout: … context deadline exceeded) while {}; the controllers, the scheduler and the kubelets stall, running containers keep running", state(c))
            } else {
                let after = human_duration(c.now().saturating_sub(since.unwrap_or(0)));
                format!(
                    "the API server reaches etcd again after {after}{}",
                    if c.unavailable().is_none() {
                        resumed(c)
                    } else {
                        String::new()
                    }
                )
            })
        }
        [v] if v == "wipe" => {
            c.show_etcd_data();
            let r = c.etcd_wipe();
            Ok(format!(
                "every etcd member lost its data: {} objects are gone; the API server wrote its bootstrap objects again (namespaces, the kubernetes Service, RBAC, priority classes) at revision {}. Every kubelet stops the containers of its Pods; no Node is registered again until its kubelet restarts",
                r.removed, r.revision
            ))
        }
        [v, rest @ ..] if v == "snapshot" => {
            c.show_etcd_data();
            snapshot(c, rest)
        }
        _ => Err(usage.into()),
    }
}

/// What follows a control plane that works again.
fn resumed(c: &Cluster) -> String {
    format!(
        ": each kubelet reports at its next heartbeat; {}",
        leaders_back(c)
    )
}

/// "quorum regained after …" for a quorum lost at `since`.
fn regained(c: &Cluster, since: crate::time::SimTime) -> String {
    format!(
        "quorum regained after {}{} — ",
        human_duration(c.now().saturating_sub(since)),
        if c.apiserver_down() {
            " (the API server is still down)".to_string()
        } else {
            resumed(c)
        }
    )
}

/// `sim etcd snapshot save|restore|status NAME`.
fn snapshot(c: &mut Cluster, words: &[String]) -> R {
    let usage = "error: usage: sim etcd snapshot save|restore|status NAME";
    match words {
        [v, name] if v == "save" => {
            let s = c
                .etcd_snapshot_save(name)
                .map_err(|m| format!("Error: {m}"))?;
            Ok(format!(
                "Snapshot saved at {name}\nrevision {}, {} keys, {}",
                s.revision,
                s.keys(),
                crate::apiserver::mvcc::humanize_bytes(s.size)
            ))
        }
        [v, name] if v == "status" => {
            let s = c
                .etcd_snapshot(name)
                .ok_or_else(|| format!("Error: stat {name}: no such file or directory"))?;
            Ok(format!(
                "{name}: revision {}, {} keys, {}, saved at {}",
                s.revision,
                s.keys(),
                crate::apiserver::mvcc::humanize_bytes(s.size),
                clock_label(s.at)
            ))
        }
        [v, name] if v == "restore" => {
            let r = c
                .etcd_snapshot_restore(name)
                .map_err(|m| format!("Error: {m}"))?;
            Ok(format!(
                "etcd restored from {name}: {} objects written since it are gone, {} are back as they were then; revision {} (bumped by 1000000000, everything before compacted), so every watch lists again and the controllers reconcile from the restored state",
                r.removed, r.restored, r.revision
            ))
        }
        _ => Err(usage.into()),
    }
}
