//! `kubectl wait --for=create|delete|condition=…|jsonpath=…`: the command blocks until each
//! object meets the condition (see `command::wait` for the waiting itself).
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/wait/wait.go`.

use super::util::{api, key_for, kind_arg, namespace, targets, timeout_flag, NS, RB};
use crate::api::*;
use crate::apiserver::selectors::parse_label_selector;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, Parsed};
use crate::command::client::Client;
use crate::command::wait::Blocking;

/// `kubectl wait TYPE NAME… --for=CONDITION` (or `-l SELECTOR` / `--all`).
pub(super) fn wait(c: &mut Cluster, k: &Client, words: &[String]) -> RB {
    let p = parse_flags(
        words,
        &[
            NS,
            flag("for", None),
            flag("timeout", None),
            flag("selector", Some('l')),
            bool_flag("all", None),
        ],
        "kubectl wait",
    )?;
    let cond = p
        .get("for")
        .ok_or("error: unrecognized condition: \"\"")?
        .to_string();
    let ns = namespace(&p);
    if cond.eq_ignore_ascii_case("create") {
        return wait_created(c, &p, ns);
    }
    let timeout = timeout_flag(&p, 30_000)?;
    let mut keys: Vec<(Kind, ObjKey)> = Vec::new();
    if p.get("selector").is_some() || p.bool("all") {
        let (kind, sel) = kind_and_selector(&p)?;
        let found = k.list(c, kind, Some(&ns), sel.as_ref(), &[]).map_err(api)?;
        keys.extend(found.iter().map(|o| (kind, ObjKey::of(o.meta()))));
        if keys.is_empty() {
            return Err("error: no matching resources found".into());
        }
    } else {
        for (kind, n) in targets(&p.args)? {
            let key = key_for(kind, &ns, &n);
            match k.get(c, kind, &key.namespace, &key.name) {
                Ok(_) => keys.push((kind, key)),
                // RunWait: with --for=delete a NotFound is ignored (the object is
                // already gone, and nothing is printed for it).
                Err(e) if e.code == 404 && cond.eq_ignore_ascii_case("delete") => {}
                Err(e) => return Err(api(e)),
            }
        }
        if keys.is_empty() {
            return Ok((String::new(), None));
        }
    }
    if !(cond == "delete" || cond.starts_with("condition=") || cond.starts_with("jsonpath=")) {
        return Err(format!("error: unrecognized condition: \"{cond}\""));
    }
    Ok((
        String::new(),
        Some(Blocking::conditions(
            c.now().saturating_add(timeout),
            keys,
            cond,
        )),
    ))
}

/// With `-l` or `--all`: the one kind named and the selector (none for `--all`).
fn kind_and_selector(p: &Parsed) -> Result<(Kind, Option<LabelSelector>), String> {
    let k = kind_arg(
        p.args
            .first()
            .ok_or("error: resource(s) were provided, but no name was specified")?,
    )?;
    let sel = p.get("selector").map(parse_label_selector).transpose()?;
    Ok((k, sel))
}

/// `kubectl wait --for=create`: nothing needs to exist yet; the command polls until it
/// does (see `Blocking::created`).
fn wait_created(c: &Cluster, p: &Parsed, ns: String) -> RB {
    let timeout = timeout_flag(p, 30_000)?;
    let deadline = c.now().saturating_add(timeout);
    if p.get("selector").is_some() || p.bool("all") {
        let (k, sel) = kind_and_selector(p)?;
        return Ok((
            String::new(),
            Some(Blocking::created(deadline, k, ns, Vec::new(), sel)),
        ));
    }
    let t = targets(&p.args)?;
    let Some(&(kind, _)) = t.first() else {
        return Err("error: resource(s) were provided, but no name was specified".into());
    };
    if t.iter().any(|(k, _)| *k != kind) {
        return Err("error: kubeplay's wait --for=create takes names of one kind".into());
    }
    let names = t.iter().map(|(k, n)| key_for(*k, &ns, n)).collect();
    Ok((
        String::new(),
        Some(Blocking::created(deadline, kind, ns, names, None)),
    ))
}
