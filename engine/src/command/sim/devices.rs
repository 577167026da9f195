//! Devices on long-lived connections and one message by hand: `sim devices`,
//! `sim message` (`crate::proxy::devices`, `crate::app::contract`).

use super::super::args::{bool_flag, flag, parse_flags};
use super::*;
use crate::api::*;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::proxy::devices::{device_index, MAX_DEVICES};

const DEVICES_USAGE: &str = "error: usage: sim devices N service/NAME | sim devices service/NAME --stop | sim devices --report [service/NAME] [device-N]";

/// The Service a `service/NAME` (or `svc/NAME`) word names, if it exists.
fn service_arg(c: &Cluster, ns: &str, word: &str) -> Result<ObjKey, String> {
    let name = word
        .strip_prefix("service/")
        .or_else(|| word.strip_prefix("svc/"))
        .filter(|n| !n.is_empty())
        .ok_or(DEVICES_USAGE)?;
    let key = ObjKey::new(ns, name);
    if c.store.get::<Service>(&key).is_none() {
        return Err(format!(
            "Error from server (NotFound): services \"{name}\" not found"
        ));
    }
    Ok(key)
}

/// `sim devices N service/NAME`: N devices hold a connection each to the Service's
/// Pods (the Service runs the message API, in memory unless `sim app` said where);
/// `--stop` takes them away; `--report` shows their connections and messages.
pub(super) fn devices(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            bool_flag("stop", None),
            bool_flag("report", None),
            flag("namespace", Some('n')),
        ],
        "sim devices",
    )?;
    let ns = p.get("namespace").unwrap_or("default");
    if p.bool("report") {
        let mut only = None;
        let mut device = None;
        for a in &p.args {
            if a.starts_with("device-") {
                device = Some(device_index(a).ok_or_else(|| {
                    format!("error: {a} is not a device: devices are device-1, device-2, …")
                })?);
            } else {
                only = Some(service_arg(c, ns, a)?);
            }
        }
        return Ok(c.proxies.devices_report(only.as_ref(), device));
    }
    if p.bool("stop") {
        let key = service_arg(c, ns, p.args.first().ok_or(DEVICES_USAGE)?)?;
        if !c.proxies.devices.contains_key(&key) {
            return Err(format!("error: service/{} has no devices", key.name));
        }
        c.set_devices(&key, 0);
        return Ok(format!(
            "service/{}: every device disconnected and gone",
            key.name
        ));
    }
    let (n, svc) = match p.args.as_slice() {
        [n, s] if n.parse::<u64>().is_ok() => (n, s),
        [s, n] if n.parse::<u64>().is_ok() => (n, s),
        _ => return Err(DEVICES_USAGE.into()),
    };
    let n: u32 = n
        .parse()
        .ok()
        .filter(|n| (1..=MAX_DEVICES).contains(n))
        .ok_or_else(|| format!("error: N must be a whole number from 1 to {MAX_DEVICES}"))?;
    let key = service_arg(c, ns, svc)?;
    let had = c.proxies.devices.get(&key).map_or(0, |d| d.len());
    c.set_devices(&key, n);
    let store = match c.proxies.apps.get(&key).map(|a| &a.store) {
        Some(crate::app::Store::Database(db)) => format!("the database behind service/{}", db.name),
        _ => "each Pod's memory".to_string(),
    };
    Ok(if had == 0 {
        format!(
            "service/{}: {n} devices connecting, each to one of its Pods (messages kept in {store}); sim devices --report shows them",
            key.name
        )
    } else {
        format!("service/{}: {had} → {n} devices", key.name)
    })
}

const MESSAGE_USAGE: &str = "error: usage: sim message service/NAME --id ID --to DEVICE --text TEXT [--as USER] [--from NODE]";

/// `sim message service/NAME --id m-9 --to device-1 --text hi`: one POST through the
/// Service, answered by the message API's contract.
pub(super) fn message(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            flag("id", None),
            flag("to", None),
            flag("text", None),
            flag("as", None),
            flag("from", None),
            flag("namespace", Some('n')),
        ],
        "sim message",
    )?;
    let ns = p.get("namespace").unwrap_or("default");
    let key = service_arg(c, ns, p.args.first().ok_or(MESSAGE_USAGE)?)?;
    let id = p.get("id").filter(|s| !s.is_empty()).ok_or(MESSAGE_USAGE)?;
    if id.len() > 64 {
        return Err("error: --id is at most 64 characters".into());
    }
    let m = crate::proxy::Message {
        id: id.to_string(),
        to: p.get("to").ok_or(MESSAGE_USAGE)?.to_string(),
        text: p.get("text").ok_or(MESSAGE_USAGE)?.to_string(),
        sender: p
            .get("as")
            .unwrap_or(crate::app::contract::SENDER)
            .to_string(),
    };
    let from = p.get("from");
    if let Some(n) = from {
        if c.store.get::<Node>(&ObjKey::new("", n)).is_none() {
            return Err(format!(
                "Error from server (NotFound): nodes \"{n}\" not found"
            ));
        }
    }
    c.send_message(&key, &m, from)
}
