//! Another cluster's state in and this one's out: `sim import`, `sim export`.

use super::super::args::{bool_flag, parse_flags};
use super::*;
use crate::cluster::Cluster;

/// `sim import FILE... | -f FILE... | -f -`: a new world from another cluster's state
/// ([`crate::import`]): what it loaded, left out and ignored. A refusal changes nothing.
pub fn import(
    c: &mut Cluster,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn super::super::Files,
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
pub(super) fn export(c: &mut Cluster, words: &[String]) -> R {
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
