//! `sim advance`, `sim settle`, `sim reset` and `sim seed`: the simulated clock and the
//! world it runs.

use super::super::args::{bool_flag, flag, parse_flags, parse_span, FlagSpec};
use super::super::Outcome;
use super::*;
use crate::api::*;
use crate::cluster::Cluster;
use crate::kubelet::NodeConfig;
use crate::time::MINUTE;

pub(super) fn clock_command(r: Result<super::super::wait::Blocking, String>) -> Outcome {
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

pub(super) fn advance(
    c: &Cluster,
    words: &[String],
) -> Result<super::super::wait::Blocking, String> {
    let d = words
        .first()
        .ok_or("error: usage: sim advance DURATION (e.g. 90s, 5m)")?;
    let ms = parse_span("sim advance", d).map_err(|e| format!("error: {e}"))?;
    Ok(super::super::wait::Blocking::advance(c.now(), ms))
}

pub(super) fn settle(
    c: &Cluster,
    words: &[String],
) -> Result<super::super::wait::Blocking, String> {
    let p = parse_flags(words, &[flag("max", None)], "sim settle")?;
    let max = p
        .get("max")
        .map(|m| parse_span("sim settle --max", m))
        .transpose()
        .map_err(|e| format!("error: {e}"))?
        .unwrap_or(10 * MINUTE);
    Ok(super::super::wait::Blocking::settle(c.now(), max))
}

pub(super) const RESET_FLAGS: &[FlagSpec] = &[
    flag("nodes", None),
    flag("cpu", None),
    flag("memory", None),
    flag("pods", None),
    flag("zones", None),
    bool_flag("dns", None),
];

pub(super) fn reset(c: &mut Cluster, words: &[String]) -> R {
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
    // The DNS add-on unless `--dns=false`: a script about a node's arithmetic may
    // want nodes that hold only its own Pods.
    let dns = p.get("dns") != Some("false");
    if dns {
        c.install_cluster_dns();
    }
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
        "cluster reset: {n} nodes{in_zones} ({} CPU, {} memory, {} pods each), seed {}{}",
        cfg.cpu,
        cfg.memory,
        cfg.pods,
        c.seed(),
        if dns { "" } else { ", no DNS add-on" }
    ))
}

pub(super) fn seed(c: &mut Cluster, words: &[String]) -> R {
    let s: u64 = words
        .first()
        .ok_or("error: usage: sim seed N")?
        .parse()
        .map_err(|_| "error: the seed is a whole number".to_string())?;
    *c = Cluster::standard(s);
    Ok(format!("cluster reset with seed {s}: 3 nodes"))
}
