//! The node maintenance verbs: `kubectl cordon`, `kubectl uncordon`, `kubectl drain`
//! (evictions through the Eviction API, then waiting for the Pods to go) and
//! `kubectl taint`.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go` (cordon, uncordon and
//! drain), `staging/src/k8s.io/kubectl/pkg/drain/` (the Pod filters and evictions),
//! `staging/src/k8s.io/kubectl/pkg/cmd/taint/taint.go`.

use super::util::{api, timeout_flag, DEFAULT_WAIT, R, RB};
use crate::api::*;
use crate::apiserver::{ApiError, ObjKey};
use crate::client::Request;
use crate::cluster::{kubectl as user, Cluster};
use crate::command::args::{bool_flag, flag, parse_flags, FlagSpec};
use crate::command::drain::{drain_failed, pods_for_deletion, DrainOptions};
use crate::command::select::parse_label_selector;
use crate::command::wait::{evict, Blocking, Eviction, EVICTION_RETRY};
use crate::printers::get::resolve_kind;
use crate::time::rfc3339;

/// A copy of the Node `name`, or kubectl's NotFound.
fn node_obj(c: &Cluster, name: &str) -> Result<Node, String> {
    c.store
        .get::<Node>(&ObjKey::new("", name))
        .cloned()
        .ok_or_else(|| ApiError::not_found(Kind::Node, name).kubectl_text())
}

/// Set `spec.unschedulable`, saying so as kubectl does (or that it already was).
fn set_unschedulable(c: &mut Cluster, name: &str, on: bool) -> R {
    let mut n = node_obj(c, name)?;
    if n.spec.unschedulable == on {
        return Ok(format!(
            "node/{name} already {}",
            if on { "cordoned" } else { "uncordoned" }
        ));
    }
    n.spec.unschedulable = on;
    c.submit(&user(), Request::Update(Object::Node(n)))
        .map_err(api)?;
    Ok(format!(
        "node/{name} {}",
        if on { "cordoned" } else { "uncordoned" }
    ))
}

/// `kubectl cordon NODE…` (or `kubectl uncordon` when not `on`), or `-l SELECTOR`.
pub(super) fn cordon(c: &mut Cluster, words: &[String], on: bool) -> R {
    let verb = if on { "cordon" } else { "uncordon" };
    let p = parse_flags(
        words,
        &[flag("selector", Some('l'))],
        &format!("kubectl {verb}"),
    )?;
    let names: Vec<String> = if let Some(sel) = p.get("selector") {
        let sel = parse_label_selector(sel)?;
        c.store
            .list::<Node>()
            .filter(|n| sel.matches(&n.metadata.labels))
            .map(|n| n.metadata.name.clone())
            .collect()
    } else {
        p.args
            .iter()
            .map(|a| {
                a.trim_start_matches("node/")
                    .trim_start_matches("nodes/")
                    .to_string()
            })
            .collect()
    };
    if names.is_empty() {
        return Err(format!(
            "error: USAGE: {verb} NODE [flags]\nSee 'kubectl {verb} -h' for help and examples"
        ));
    }
    let mut out = Vec::new();
    for n in names {
        out.push(set_unschedulable(c, &n, on)?);
    }
    Ok(out.join("\n"))
}

const DRAIN_FLAGS: &[FlagSpec] = &[
    bool_flag("ignore-daemonsets", None),
    bool_flag("force", None),
    bool_flag("delete-emptydir-data", None),
    flag("grace-period", None),
    flag("timeout", None),
    flag("selector", Some('l')),
    flag("pod-selector", None),
];

/// `kubectl drain NODE` (`drain.go` `RunDrain`, `deleteOrEvictPodsSimple`; pkg/drain's
/// `GetPodsForDeletion` and `evictPods`): cordon, refuse the Pods the filters refuse,
/// evict the others through the Eviction API, then wait for them to go.
pub(super) fn drain(c: &mut Cluster, words: &[String]) -> RB {
    let p = parse_flags(words, DRAIN_FLAGS, "kubectl drain")?;
    // Flags kubectl has that would change what happens here but are not modelled:
    // refused rather than silently ignored.
    if p.get("selector").is_some() && !p.args.is_empty() {
        return Err("error: cannot specify both a node name and a --selector option\nSee 'kubectl drain -h' for help and examples".into());
    }
    if p.get("selector").is_some() {
        return Err(
            "error: kubeplay's drain takes one NODE by name; --selector is not supported".into(),
        );
    }
    if p.get("grace-period").is_some_and(|g| g != "-1") {
        return Err("error: kubeplay's drain evicts with each Pod's own grace period; --grace-period is not supported".into());
    }
    let name = p
        .args
        .first()
        .ok_or("error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples")?
        .trim_start_matches("node/")
        .to_string();
    let opts = DrainOptions {
        force: p.bool("force"),
        delete_emptydir_data: p.bool("delete-emptydir-data"),
        pod_selector: p.get("pod-selector").map(str::to_string),
    };
    let timeout = timeout_flag(&p, DEFAULT_WAIT)?;
    let mut text = set_unschedulable(c, &name, true)?;
    text.push('\n');
    let list = pods_for_deletion(c, &name, &opts).map_err(|e| format!("{text}{e}"))?;
    if !list.errors.is_empty() {
        return Err(format!("{text}{}", drain_failed(&name, &list.errors)));
    }
    if !list.warnings.is_empty() {
        text.push_str(&format!("Warning: {}\n", list.warnings));
    }
    // Through the Eviction API, as kubectl drain does: a disruption budget that
    // allows nothing answers 429 and the eviction is retried every 5 s.
    let mut pending = Vec::new();
    let mut refused = Vec::new();
    let mut errors = Vec::new();
    for pod in &list.pods {
        text.push_str(&format!(
            "evicting pod {}/{}\n",
            pod.metadata.namespace, pod.metadata.name
        ));
        let key = ObjKey::of(&pod.metadata);
        match evict(c, &key, &mut text) {
            Eviction::Accepted(uid) => pending.push((key, uid)),
            Eviction::Retry => refused.push(key),
            Eviction::Gone => {}
            Eviction::Failed(e) => errors.push(e),
        }
    }
    let next_try = c.now() + EVICTION_RETRY;
    Ok((
        text,
        Some(Blocking::drain(
            c.now() + timeout,
            name,
            refused,
            next_try,
            pending,
            timeout,
            opts,
            errors,
        )),
    ))
}

/// `kubectl taint nodes NODE KEY[=VALUE]:EFFECT…` (a trailing `-` removes).
pub(super) fn taint(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            bool_flag("overwrite", None),
            flag("selector", Some('l')),
            bool_flag("all", None),
        ],
        "kubectl taint",
    )?;
    let mut args = p.args.clone();
    if args
        .first()
        .is_some_and(|a| resolve_kind(a) == Some(Kind::Node))
    {
        args.remove(0);
    }
    let Some(node_name) = args
        .first()
        .map(|a| a.trim_start_matches("node/").to_string())
    else {
        return Err("error: at least one taint update is required".into());
    };
    let specs = &args[1..];
    if specs.is_empty() {
        return Err("error: at least one taint update is required".into());
    }
    let mut n = node_obj(c, &node_name)?;
    let mut removed_any = false;
    let mut added_any = false;
    for s in specs {
        if let Some(rm) = s.strip_suffix('-') {
            let (k, effect) = match rm.split_once(':') {
                Some((k, e)) => (k.split('=').next().unwrap_or(k), Some(e)),
                None => (rm.split('=').next().unwrap_or(rm), None),
            };
            let before = n.spec.taints.len();
            n.spec
                .taints
                .retain(|t| !(t.key == k && effect.is_none_or(|e| t.effect == e)));
            if n.spec.taints.len() == before {
                return Err(format!("error: taint {rm:?} not found"));
            }
            removed_any = true;
        } else {
            let (kv, effect) = s
                .split_once(':')
                .ok_or_else(|| format!("error: invalid taint spec: {s}, unknown taint effect"))?;
            if TaintEffect::parse(effect).is_none() {
                return Err(format!(
                    "error: invalid taint effect: {effect}, unsupported taint effect"
                ));
            }
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            if let Some(existing) = n
                .spec
                .taints
                .iter_mut()
                .find(|t| t.key == k && t.effect == effect)
            {
                if !p.bool("overwrite") {
                    return Err(format!("error: node {node_name} already has {k} taint(s) with same effect(s) and --overwrite is false"));
                }
                existing.value = v.into();
            } else {
                let now = c.now();
                n.spec.taints.push(Taint {
                    key: k.into(),
                    value: v.into(),
                    effect: effect.into(),
                    time_added: (effect == TaintEffect::NoExecute).then(|| rfc3339(now)),
                    added_ms: now,
                });
            }
            added_any = true;
        }
    }
    c.submit(&user(), Request::Update(Object::Node(n)))
        .map_err(api)?;
    Ok(format!(
        "node/{node_name} {}",
        if added_any || !removed_any {
            "tainted"
        } else {
            "untainted"
        }
    ))
}
