//! The node maintenance verbs: `kubectl cordon`, `kubectl uncordon`, `kubectl drain`
//! (evictions through the Eviction API, then waiting for the Pods to go) and
//! `kubectl taint`.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/drain/drain.go` (cordon, uncordon and
//! drain), `staging/src/k8s.io/kubectl/pkg/drain/` (the Pod filters and evictions),
//! `staging/src/k8s.io/kubectl/pkg/cmd/taint/taint.go`.

use super::util::{api, timeout_flag, DEFAULT_WAIT, R, RB};
use crate::api::*;
use crate::apiserver::selectors::parse_label_selector;
use crate::apiserver::validation::{label_value_errors, qualified_name_errors};
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, FlagSpec};
use crate::command::client::Client;
use crate::command::drain::{drain_failed, pods_for_deletion, DrainOptions};
use crate::command::wait::{evict, Blocking, Eviction, EVICTION_RETRY};
use crate::printers::get::resolve_kind;
use crate::time::rfc3339;

/// A copy of the Node `name` (a GET), or the API server's error.
fn node_obj(c: &mut Cluster, k: &Client, name: &str) -> Result<Node, String> {
    k.get_as::<Node>(c, &ObjKey::new("", name))
        .map_err(|e| e.kubectl_text())
}

/// The names of the Nodes `sel` selects (a list), in name order.
fn node_names(
    c: &mut Cluster,
    k: &Client,
    sel: Option<&LabelSelector>,
) -> Result<Vec<String>, String> {
    Ok(k.list(c, Kind::Node, None, sel, &[])
        .map_err(api)?
        .iter()
        .map(|n| n.meta().name.clone())
        .collect())
}

/// Set `spec.unschedulable`, saying so as kubectl does (or that it already was).
fn set_unschedulable(c: &mut Cluster, k: &Client, name: &str, on: bool) -> R {
    let mut n = node_obj(c, k, name)?;
    if n.spec.unschedulable == on {
        return Ok(format!(
            "node/{name} already {}",
            if on { "cordoned" } else { "uncordoned" }
        ));
    }
    n.spec.unschedulable = on;
    k.patch(c, "", Object::Node(Box::new(n))).map_err(api)?;
    Ok(format!(
        "node/{name} {}",
        if on { "cordoned" } else { "uncordoned" }
    ))
}

/// `kubectl cordon NODE…` (or `kubectl uncordon` when not `on`), or `-l SELECTOR`.
pub(super) fn cordon(c: &mut Cluster, k: &Client, words: &[String], on: bool) -> R {
    let verb = if on { "cordon" } else { "uncordon" };
    let p = parse_flags(
        words,
        &[flag("selector", Some('l'))],
        &format!("kubectl {verb}"),
    )?;
    let names: Vec<String> = if let Some(sel) = p.get("selector") {
        let sel = parse_label_selector(sel)?;
        node_names(c, k, Some(&sel))?
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
        out.push(set_unschedulable(c, k, &n, on)?);
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
pub(super) fn drain(c: &mut Cluster, k: &Client, words: &[String]) -> RB {
    drain_with(c, k, words, false)
}

/// [`drain`]; with `client_dry_run` (`--dry-run=client`) nothing is evicted:
/// `deleteOrEvictPodsSimple` prints each Pod it would evict and the node is drained.
pub(super) fn drain_with(
    c: &mut Cluster,
    k: &Client,
    words: &[String],
    client_dry_run: bool,
) -> RB {
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
        ignore_daemonsets: p.bool("ignore-daemonsets"),
    };
    let timeout = timeout_flag(&p, DEFAULT_WAIT)?;
    let mut text = set_unschedulable(c, k, &name, true)?;
    text.push('\n');
    let list = pods_for_deletion(c, k, &name, &opts).map_err(|e| format!("{text}{e}"))?;
    if !list.errors.is_empty() {
        return Err(format!("{text}{}", drain_failed(&name, &list.errors)));
    }
    if !list.warnings.is_empty() {
        text.push_str(&format!("Warning: {}\n", list.warnings));
    }
    if client_dry_run {
        for pod in &list.pods {
            text.push_str(&format!(
                "evicting pod {}/{}\n",
                pod.metadata.namespace, pod.metadata.name
            ));
        }
        text.push_str(&format!("node/{name} drained\n"));
        return Ok((text, None));
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
        let uid = pod.metadata.uid.clone();
        match evict(c, k, &key, &mut text) {
            Eviction::Accepted => pending.push((key, uid)),
            Eviction::Retry => refused.push((key, uid)),
            Eviction::Gone => {}
            Eviction::Failed(e) => errors.push(e),
        }
    }
    let next_try = c.now() + EVICTION_RETRY;
    Ok((
        text,
        Some(Blocking::drain(
            k.clone(),
            c.now().saturating_add(timeout),
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

/// A taint as `parseTaint` reads `KEY[=VALUE][:EFFECT]`, or its error.
fn parse_taint(st: &str) -> Result<Taint, String> {
    let parts: Vec<&str> = st.split(':').collect();
    let (key, value, effect) = match parts.as_slice() {
        [key] => (*key, "", ""),
        [kv, effect] => {
            if TaintEffect::parse(effect).is_none() {
                return Err(format!(
                    "invalid taint effect: {effect}, unsupported taint effect"
                ));
            }
            let kv: Vec<&str> = kv.split('=').collect();
            match kv.as_slice() {
                [k] => (*k, "", *effect),
                [k, v] => {
                    let errs = label_value_errors(v);
                    if !errs.is_empty() {
                        return Err(format!("invalid taint spec: {st}, {}", errs.join("; ")));
                    }
                    (*k, *v, *effect)
                }
                _ => return Err(format!("invalid taint spec: {st}")),
            }
        }
        _ => return Err(format!("invalid taint spec: {st}")),
    };
    let errs = qualified_name_errors(key);
    if !errs.is_empty() {
        return Err(format!("invalid taint spec: {st}, {}", errs.join("; ")));
    }
    Ok(Taint {
        key: key.into(),
        value: value.into(),
        effect: effect.into(),
        time_added: None,
        added_ms: 0,
    })
}

/// `Taint.ToString()`: `key`, `key=value:`, `key:effect` or `key=value:effect`.
fn taint_string(t: &Taint) -> String {
    match (t.value.is_empty(), t.effect.is_empty()) {
        (true, true) => t.key.clone(),
        (false, true) => format!("{}={}:", t.key, t.value),
        (true, false) => format!("{}:{}", t.key, t.effect),
        (false, false) => format!("{}={}:{}", t.key, t.value, t.effect),
    }
}

/// `parseTaints`: taints to add (each with an effect, no key+effect twice) and to
/// remove (`…-`).
fn parse_taints(specs: &[String]) -> Result<(Vec<Taint>, Vec<Taint>), String> {
    let (mut add, mut remove) = (Vec::new(), Vec::new());
    for spec in specs {
        if let Some(rm) = spec.strip_suffix('-') {
            let t = parse_taint(rm)?;
            remove.push(t);
        } else {
            let t = parse_taint(spec)?;
            if t.effect.is_empty() {
                return Err(format!("invalid taint spec: {spec}"));
            }
            if add
                .iter()
                .any(|a: &Taint| a.key == t.key && a.effect == t.effect)
            {
                // Go's %v of a corev1.Taint value.
                return Err(format!(
                    "duplicated taints with the same key and effect: {{{} {} {} <nil>}}",
                    t.key, t.value, t.effect
                ));
            }
            add.push(t);
        }
    }
    Ok((add, remove))
}

/// `kubectl taint nodes NODE… KEY[=VALUE]:EFFECT…` (`--all`, `-l`; a trailing `-`
/// removes), as `taint.go` and its `utils.go` do: the new taints first, then the old
/// ones they do not replace; `tainted`, `untainted` or `modified`.
pub(super) fn taint(c: &mut Cluster, k: &Client, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            bool_flag("overwrite", None),
            flag("selector", Some('l')),
            bool_flag("all", None),
        ],
        "kubectl taint",
    )?;
    let usage = |e: String| format!("error: {e}\nSee 'kubectl taint -h' for help and examples");
    let (mut resources, mut specs) = (Vec::new(), Vec::new());
    for a in &p.args {
        let is_taint = a.contains('=') || a.contains(':') || a.ends_with('-');
        if is_taint {
            specs.push(a.clone());
        } else if !specs.is_empty() {
            return Err(format!(
                "error: all resources must be specified before taint changes: {a}"
            ));
        } else {
            resources.push(a.clone());
        }
    }
    if resources.is_empty() {
        return Err("error: one or more resources must be specified as <resource> <name>".into());
    }
    if specs.is_empty() {
        return Err("error: at least one taint update is required".into());
    }
    let (add, remove) = parse_taints(&specs).map_err(usage)?;
    let rtype = resources[0].to_lowercase();
    if resolve_kind(&rtype) != Some(Kind::Node) {
        return Err(match resolve_kind(&rtype) {
            Some(_) => {
                format!("error: invalid resource type {rtype}, only node types are supported")
            }
            None => format!("error: the server doesn't have a resource type \"{rtype}\""),
        });
    }
    let conflicts: Vec<String> = add
        .iter()
        .flat_map(|a| {
            remove
                .iter()
                .filter(move |r| r.key == a.key && (r.effect.is_empty() || r.effect == a.effect))
                .map(|r| format!("{}={}", r.key, r.effect))
        })
        .collect();
    if !conflicts.is_empty() {
        return Err(format!(
            "error: can not both modify and remove the following taint(s) in the same command: {}",
            conflicts.join(", ")
        ));
    }
    let (all, sel) = (p.bool("all"), p.get("selector"));
    if all && sel.is_some() {
        return Err(
            "error: setting 'all' parameter with a non empty selector is prohibited".into(),
        );
    }
    let names: Vec<String> = if all || sel.is_some() {
        let s = sel.map(parse_label_selector).transpose()?;
        node_names(c, k, s.as_ref())?
    } else if resources.len() < 2 {
        return Err(
            "error: at least one resource name must be specified since 'all' parameter is not set"
                .into(),
        );
    } else {
        resources[1..].to_vec()
    };
    let overwrite = p.bool("overwrite");
    let mut out = Vec::new();
    for name in names {
        let mut n = node_obj(c, k, &name).map_err(|e| join_out(&out, e))?;
        if !overwrite {
            let exists: Vec<&str> = add
                .iter()
                .filter(|t| {
                    n.spec
                        .taints
                        .iter()
                        .any(|o| o.key == t.key && o.effect == t.effect)
                })
                .map(|t| t.key.as_str())
                .collect();
            if !exists.is_empty() {
                return Err(join_out(
                    &out,
                    format!(
                        "error: node {name} already has {} taint(s) with same effect(s) and --overwrite is false",
                        exists.join(",")
                    ),
                ));
            }
        }
        // reorganizeTaints: the new taints, then each old one no new taint matches
        // (same key and effect).
        let now = c.now();
        let mut new: Vec<Taint> = add
            .iter()
            .map(|t| {
                let mut t = t.clone();
                if t.effect == TaintEffect::NoExecute {
                    t.time_added = Some(rfc3339(now));
                    t.added_ms = now;
                }
                t
            })
            .collect();
        for old in &n.spec.taints {
            if !new
                .iter()
                .any(|t| t.key == old.key && t.effect == old.effect)
            {
                new.push(old.clone());
            }
        }
        let added = n.spec.taints.len() != new.len();
        // deleteTaints: an error for each taint not found; `deleted` is the last one's
        // outcome, as upstream's loop leaves it.
        let mut errors = Vec::new();
        let mut deleted = false;
        for r in &remove {
            let before = new.len();
            new.retain(|t| !(t.key == r.key && (r.effect.is_empty() || t.effect == r.effect)));
            deleted = new.len() != before;
            if !deleted {
                errors.push(format!("taint \"{}\" not found", taint_string(r)));
            }
        }
        if !errors.is_empty() {
            return Err(join_out(
                &out,
                format!("error: {}", crate::command::drain::aggregate(&errors)),
            ));
        }
        let operation = if (added && deleted) || overwrite {
            "modified"
        } else if added {
            "tainted"
        } else {
            "untainted"
        };
        n.spec.taints = new;
        k.patch(c, "", Object::Node(Box::new(n)))
            .map_err(|e| join_out(&out, api(e)))?;
        out.push(format!("node/{name} {operation}"));
    }
    Ok(out.join("\n"))
}

/// What was printed before an error, then the error.
fn join_out(out: &[String], e: String) -> String {
    let mut v = out.to_vec();
    v.push(e);
    v.join("\n")
}
