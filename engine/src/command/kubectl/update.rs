//! The verbs that change part of one live object: `kubectl scale`, `kubectl set image`,
//! `kubectl label`, `kubectl annotate` and `kubectl patch` (a JSON merge patch).
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/scale/scale.go`,
//! `staging/src/k8s.io/kubectl/pkg/cmd/set/set_image.go`,
//! `staging/src/k8s.io/kubectl/pkg/cmd/label/label.go`,
//! `staging/src/k8s.io/kubectl/pkg/cmd/annotate/annotate.go`,
//! `staging/src/k8s.io/kubectl/pkg/cmd/patch/patch.go`.

use super::util::{api, key_for, namespace, one_target, targets, NS, R};
use crate::api::*;
use crate::apiserver::{ApiError, ObjKey};
use crate::client::Request;
use crate::cluster::{kubectl as user, Cluster};
use crate::command::args::{bool_flag, flag, parse_flags, Parsed};
use crate::printers::qualified_name;

/// A copy of the live object to change, or kubectl's NotFound.
fn get_cloned(c: &Cluster, kind: Kind, key: &ObjKey) -> Result<Object, String> {
    c.store
        .get_object(kind, key)
        .cloned()
        .ok_or_else(|| ApiError::not_found(kind, &key.name).kubectl_text())
}

/// `kubectl scale TYPE NAME --replicas=N` (Deployments and ReplicaSets).
pub(super) fn scale(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            NS,
            flag("replicas", None),
            flag("current-replicas", None),
            flag("timeout", None),
        ],
        "kubectl scale",
    )?;
    let replicas: i64 = p
        .get("replicas")
        .ok_or("error: required flag(s) \"replicas\" not set")?
        .parse()
        .map_err(|_| "error: invalid argument for \"--replicas\" flag".to_string())?;
    if replicas < 0 {
        return Err("error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0".into());
    }
    let (kind, name) = one_target(&p, "scale")?;
    let key = key_for(kind, &namespace(&p), &name);
    let mut obj = get_cloned(c, kind, &key)?;
    match &mut obj {
        Object::Deployment(d) => d.spec.replicas = replicas,
        Object::ReplicaSet(r) => r.spec.replicas = replicas,
        _ => {
            return Err(format!(
                "error: no scaler has been implemented for {{\"\" \"{}\"}}",
                kind.name()
            ))
        }
    }
    c.submit(&user(), Request::Update(obj)).map_err(api)?;
    Ok(format!("{} scaled", qualified_name(kind, &name)))
}

/// `kubectl set image TYPE NAME CONTAINER=IMAGE…` (the only `set` subcommand here).
pub(super) fn set(c: &mut Cluster, words: &[String]) -> R {
    if words.first().map(String::as_str) != Some("image") {
        return Err("error: only `kubectl set image` is supported here".into());
    }
    let p = parse_flags(&words[1..], &[NS], "kubectl set image")?;
    let (res, pairs): (Vec<String>, Vec<String>) =
        p.args.iter().cloned().partition(|a| !a.contains('='));
    if pairs.is_empty() {
        return Err("error: at least one image update is required".into());
    }
    let (kind, name) = one_target(
        &Parsed {
            args: res,
            flags: vec![],
        },
        "set image",
    )?;
    let key = key_for(kind, &namespace(&p), &name);
    let mut obj = get_cloned(c, kind, &key)?;
    let spec = match &mut obj {
        Object::Deployment(d) => &mut d.spec.template.spec,
        Object::ReplicaSet(r) => &mut r.spec.template.spec,
        Object::Pod(p) => &mut p.spec,
        _ => {
            return Err(format!(
                "error: {} does not have containers",
                kind.resource()
            ))
        }
    };
    for pair in &pairs {
        let (cname, image) = pair.split_once('=').unwrap_or((pair, ""));
        let mut found = false;
        for ct in spec.containers.iter_mut() {
            if cname == "*" || ct.name == cname {
                ct.image = image.to_string();
                found = true;
            }
        }
        if !found {
            return Err(format!("error: unable to find container named \"{cname}\""));
        }
    }
    let before = c.store.get_object(kind, &key).cloned();
    if before.as_ref() == Some(&obj) {
        return Ok(String::new());
    }
    c.submit(&user(), Request::Update(obj)).map_err(api)?;
    Ok(format!("{} image updated", qualified_name(kind, &name)))
}

/// `kubectl label` (or `kubectl annotate` when `annotations`): `KEY=VALUE` sets,
/// `KEY-` removes.
pub(super) fn label(c: &mut Cluster, words: &[String], annotations: bool) -> R {
    let verb = if annotations { "annotate" } else { "label" };
    let p = parse_flags(
        words,
        &[
            NS,
            bool_flag("overwrite", None),
            flag("selector", Some('l')),
            bool_flag("all", None),
        ],
        &format!("kubectl {verb}"),
    )?;
    let (res, changes): (Vec<String>, Vec<String>) = p.args.iter().cloned().partition(|a| {
        !(a.contains('=') || a.ends_with('-')) || a.contains('/') && !a.contains('=')
    });
    if changes.is_empty() {
        return Err(format!(
            "error: at least one {} update is required",
            if annotations { "annotation" } else { "label" }
        ));
    }
    let t = targets(&res)?;
    if t.is_empty() {
        return Err("error: one or more resources must be specified as <resource> <name> or <resource>/<name>".into());
    }
    let ns = namespace(&p);
    let mut out = Vec::new();
    for (kind, name) in t {
        let key = key_for(kind, &ns, &name);
        let mut obj = get_cloned(c, kind, &key)?;
        let map = if annotations {
            &mut obj.meta_mut().annotations
        } else {
            &mut obj.meta_mut().labels
        };
        for ch in &changes {
            if let Some(k) = ch.strip_suffix('-') {
                map.remove(k);
            } else if let Some((k, v)) = ch.split_once('=') {
                if let Some(old) = map.get(k) {
                    if old != v && !p.bool("overwrite") {
                        return Err(format!(
                            "error: '{k}' already has a value ({old}), and --overwrite is false"
                        ));
                    }
                }
                map.insert(k.to_string(), v.to_string());
            }
        }
        let unchanged = c.store.get_object(kind, &key) == Some(&obj);
        if !unchanged {
            c.submit(&user(), Request::Update(obj)).map_err(api)?;
        }
        let only_removals = changes.iter().all(|ch| ch.ends_with('-'));
        let word = match (annotations, unchanged, only_removals) {
            (true, _, _) => "annotated",
            (false, true, _) => "not labeled",
            (false, false, true) => "unlabeled",
            (false, false, false) => "labeled",
        };
        out.push(format!("{} {word}", qualified_name(kind, &name)));
    }
    Ok(out.join("\n"))
}

// ---- patch ----------------------------------------------------------------------------

/// RFC 7386 JSON merge patch.
fn merge_patch(target: &mut serde_json::Value, patch: &serde_json::Value) {
    match (target, patch) {
        (serde_json::Value::Object(t), serde_json::Value::Object(p)) => {
            for (k, v) in p {
                if v.is_null() {
                    t.remove(k);
                } else {
                    merge_patch(t.entry(k.clone()).or_insert(serde_json::Value::Null), v);
                }
            }
        }
        (t, p) => *t = p.clone(),
    }
}

/// Keep the fields serde skips (simulated times) across a JSON round trip.
fn restore_hidden(orig: &Object, new: &mut Object) {
    let o = orig.meta();
    let m = new.meta_mut();
    m.created_ms = o.created_ms;
    m.deletion_ms = o.deletion_ms;
}

/// `kubectl patch TYPE NAME -p PATCH` (`--type=merge` or `strategic`, both applied
/// as a merge patch).
pub(super) fn patch(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[NS, flag("patch", Some('p')), flag("type", None)],
        "kubectl patch",
    )?;
    let (kind, name) = one_target(&p, "patch")?;
    let body = p.get("patch").ok_or("error: must specify -p to patch")?;
    let patch: serde_json::Value = serde_yaml_ng::from_str(body)
        .map_err(|e| format!("error: unable to parse \"{body}\": {e}"))?;
    match p.get("type").unwrap_or("strategic") {
        "merge" | "strategic" => {}
        "json" => return Err("error: --type=json is not supported here; use --type=merge".into()),
        t => {
            return Err(format!(
                "error: --type must be one of [json merge strategic], not \"{t}\""
            ))
        }
    }
    let key = key_for(kind, &namespace(&p), &name);
    let live = get_cloned(c, kind, &key)?;
    let before = live.to_json();
    let mut v = before.clone();
    merge_patch(&mut v, &patch);
    // Compare in the API's JSON shape: simulator-only fields are not part of it.
    if v == before {
        return Ok(format!(
            "{} patched (no change)",
            qualified_name(kind, &name)
        ));
    }
    let mut ignored = Vec::new();
    let mut obj = crate::manifest::decode(kind, v, &mut ignored)
        .map_err(|(path, msg)| format!("error: unable to decode patched object: {path}: {msg}"))?;
    restore_hidden(&live, &mut obj);
    let status_changed = before.get("status") != obj.to_json().get("status");
    let req = if status_changed && !matches!((&obj, &live), (a, b) if a.spec_differs(b)) {
        Request::blind_update_status(obj)
    } else {
        Request::blind_update(obj)
    };
    c.submit(&user(), req).map_err(api)?;
    Ok(format!("{} patched", qualified_name(kind, &name)))
}
