//! `sim controller`: the learner's own controller, written in JavaScript.
//!
//! `sim controller run --for KIND [--owns KIND,…] [-n NS] -f FILE` installs (or
//! reloads) it, creating its ServiceAccount, Role and RoleBinding through kubectl's
//! door when they are missing (an existing Role is the learner's to edit: it is
//! kept); `pause`, `resume` and `stop` control it; `status` and `logs` show what it
//! did.

use super::super::Files;
use super::R;
use crate::api::Kind;
use crate::client::writer::MY_CONTROLLER;
use crate::cluster::Cluster;
use crate::command::args::{flag, parse_flags};
use crate::controllers::script::{ScriptSpec, BUDGET_TICKS, MAX_SOURCE};

const USAGE: &str = "error: usage: sim controller run --for KIND [--owns KIND,...] [-n NAMESPACE] -f FILE|- | pause | resume | stop | status | logs [--tail N]";

/// `sim controller …`.
pub fn controller(c: &mut Cluster, words: &[String], stdin: Option<&str>, files: &dyn Files) -> R {
    let Some(action) = words.first() else {
        return Err(USAGE.into());
    };
    let rest = &words[1..];
    match action.as_str() {
        "run" => run(c, rest, stdin, files),
        "pause" | "resume" => {
            running(c)?;
            c.pause_my_controller(action == "pause");
            Ok(format!(
                "{MY_CONTROLLER}: {}",
                if action == "pause" {
                    "paused: its keys wait"
                } else {
                    "resumed"
                }
            ))
        }
        "stop" => {
            running(c)?;
            c.set_my_controller(None);
            Ok(format!(
                "{MY_CONTROLLER}: stopped (its ServiceAccount and Role are kept)"
            ))
        }
        "status" => status(c),
        "logs" => logs(c, rest),
        _ => Err(USAGE.into()),
    }
}

/// The JavaScript that `text` would run as a controller or a webhook server (each
/// `sim controller run`'s or `sim webhook run`'s heredoc, or the file it names), so
/// the page can show it before anything runs; None when `text` runs no such code.
pub fn controller_code(text: &str) -> Option<String> {
    let lines = crate::command::script::parse(text, "text").ok()?;
    let code: Vec<String> = lines
        .into_iter()
        .filter(|l| {
            let words = crate::command::args::split_words(&l.command).unwrap_or_default();
            words
                .iter()
                .take(3)
                .map(String::as_str)
                .eq(["sim", "controller", "run"])
                || words
                    .iter()
                    .take(3)
                    .map(String::as_str)
                    .eq(["sim", "webhook", "run"])
        })
        .map(|l| l.stdin.unwrap_or(l.command))
        .collect();
    (!code.is_empty()).then(|| code.join("\n"))
}

fn running(c: &Cluster) -> Result<&ScriptSpec, String> {
    c.my_controller().spec.as_ref().ok_or_else(|| {
        "error: no controller is running (sim controller run --for KIND -f FILE)".to_string()
    })
}

fn kind_arg(typed: &str) -> Result<Kind, String> {
    crate::printers::get::resolve_kind(typed)
        .ok_or_else(|| format!("error: the server doesn't have a resource type \"{typed}\""))
}

fn run(c: &mut Cluster, words: &[String], stdin: Option<&str>, files: &dyn Files) -> R {
    let p = parse_flags(
        words,
        &[
            flag("for", None),
            flag("owns", None),
            flag("namespace", Some('n')),
            flag("filename", Some('f')),
        ],
        "sim controller run",
    )?;
    let (Some(for_typed), Some(path)) = (p.get("for"), p.get("filename")) else {
        return Err(USAGE.into());
    };
    let for_kind = kind_arg(for_typed)?;
    let mut owns = Vec::new();
    for typed in p.slice("owns") {
        let k = kind_arg(typed)?;
        if !owns.contains(&k) {
            owns.push(k);
        }
    }
    for k in std::iter::once(for_kind).chain(owns.iter().copied()) {
        if !k.namespaced() {
            return Err(format!(
                "error: {} is not namespaced: the controller works in one namespace",
                k.resource()
            ));
        }
    }
    let namespace = p.get("namespace").unwrap_or("default").to_string();
    if c.store
        .get_object(
            Kind::Namespace,
            &crate::apiserver::ObjKey::new("", &namespace),
        )
        .is_none()
    {
        return Err(format!(
            "Error from server (NotFound): namespaces \"{namespace}\" not found"
        ));
    }
    if !crate::controllers::script::runner::installed() {
        // Never hold keys for a sandbox that may come later: the world would differ
        // from the one the same commands build where it is loaded.
        return Err("error: no JavaScript sandbox is loaded here to run a controller in".into());
    }
    let source = if path == "-" {
        stdin
            .ok_or("error: sim controller run -f - reads stdin, and there is none")?
            .to_string()
    } else {
        files.read(path).map_err(|e| format!("error: {e}"))?
    };
    if source.len() > MAX_SOURCE {
        return Err(format!(
            "error: the controller's source is {} bytes; at most {MAX_SOURCE} are accepted",
            source.len()
        ));
    }
    let spec = ScriptSpec {
        source,
        for_kind,
        owns,
        namespace,
    };
    let mut out = rbac(c, &spec);
    let reload = c.my_controller().spec.is_some();
    let watched: Vec<&str> = spec.owns.iter().map(|k| k.resource()).collect();
    out.push_str(&format!(
        "{MY_CONTROLLER}: {} {}{} in namespace {} as system:serviceaccount:default:{MY_CONTROLLER}",
        if reload {
            "reloaded; reconciles"
        } else {
            "reconciles"
        },
        spec.for_kind.qualified_resource(),
        if watched.is_empty() {
            String::new()
        } else {
            format!(" (owns {})", watched.join(", "))
        },
        spec.namespace,
    ));
    if c.my_controller().paused {
        out.push_str(" (paused)");
    }
    c.set_my_controller(Some(spec));
    Ok(out)
}

/// Its ServiceAccount, Role and RoleBinding, each created through kubectl when it
/// is missing.
fn rbac(c: &mut Cluster, spec: &ScriptSpec) -> String {
    let group = |k: Kind| {
        k.api_version()
            .split_once('/')
            .map(|(g, _)| g.to_string())
            .unwrap_or_default()
    };
    let mut rules = format!(
        "- apiGroups: [\"{}\"]\n  resources: [\"{}\"]\n  verbs: [\"get\", \"list\", \"watch\", \"update\", \"patch\"]\n- apiGroups: [\"{}\"]\n  resources: [\"{}/status\"]\n  verbs: [\"get\", \"update\", \"patch\"]\n",
        group(spec.for_kind),
        spec.for_kind.resource(),
        group(spec.for_kind),
        spec.for_kind.resource()
    );
    for k in &spec.owns {
        rules.push_str(&format!(
            "- apiGroups: [\"{}\"]\n  resources: [\"{}\"]\n  verbs: [\"get\", \"list\", \"watch\", \"create\", \"update\", \"patch\", \"delete\"]\n",
            group(*k),
            k.resource()
        ));
    }
    rules.push_str(
        "- apiGroups: [\"\"]\n  resources: [\"events\"]\n  verbs: [\"create\", \"patch\"]\n",
    );
    let ns = &spec.namespace;
    let docs = [
        (
            Kind::ServiceAccount,
            "default",
            format!("apiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: {MY_CONTROLLER}\n  namespace: default\n"),
        ),
        (
            Kind::Role,
            ns.as_str(),
            format!("apiVersion: rbac.authorization.k8s.io/v1\nkind: Role\nmetadata:\n  name: {MY_CONTROLLER}\n  namespace: {ns}\nrules:\n{rules}"),
        ),
        (
            Kind::RoleBinding,
            ns.as_str(),
            format!("apiVersion: rbac.authorization.k8s.io/v1\nkind: RoleBinding\nmetadata:\n  name: {MY_CONTROLLER}\n  namespace: {ns}\nroleRef:\n  apiGroup: rbac.authorization.k8s.io\n  kind: Role\n  name: {MY_CONTROLLER}\nsubjects:\n- kind: ServiceAccount\n  name: {MY_CONTROLLER}\n  namespace: default\n"),
        ),
    ];
    let docs: Vec<_> = docs
        .into_iter()
        .map(|(kind, ns, yaml)| (kind, crate::apiserver::ObjKey::new(ns, MY_CONTROLLER), yaml))
        .collect();
    create_missing(c, &docs)
}

/// Each object of `docs` that does not exist, created through kubectl's door as the
/// learner would create it; what kubectl printed.
pub(super) fn create_missing(
    c: &mut Cluster,
    docs: &[(Kind, crate::apiserver::ObjKey, String)],
) -> String {
    let mut out = String::new();
    for (kind, key, yaml) in docs {
        if c.store.get_object(*kind, key).is_some() {
            continue;
        }
        let o = crate::command::run(
            c,
            "kubectl create -f -",
            Some(yaml),
            &crate::command::NoFiles,
        );
        out.push_str(&o.output);
    }
    out
}

fn status(c: &Cluster) -> R {
    let ctl = c.my_controller();
    let spec = running(c)?;
    let state = if ctl.paused {
        "paused"
    } else if ctl.failing() {
        "failing"
    } else if !crate::controllers::script::runner::installed() {
        "waiting for its sandbox to load"
    } else {
        "running"
    };
    let owns: Vec<&str> = spec.owns.iter().map(|k| k.resource()).collect();
    let mut out = format!(
        "Name:         {MY_CONTROLLER}\nState:        {state}\nFor:          {}\nOwns:         {}\nNamespace:    {}\nIdentity:     system:serviceaccount:default:{MY_CONTROLLER} (Role {MY_CONTROLLER} in {})\nQueue:        {}\nReconciles:   {} ({} failed)\n",
        spec.for_kind.qualified_resource(),
        if owns.is_empty() { "<none>".to_string() } else { owns.join(", ") },
        spec.namespace,
        spec.namespace,
        c.my_controller_queued(),
        ctl.calls,
        ctl.failed_calls,
    );
    if let Some(average) = ctl.ticks.0.checked_div(ctl.calls) {
        out.push_str(&format!(
            "Ticks:        {average} on average, {} at most, of {BUDGET_TICKS} per reconcile\n",
            ctl.ticks.1
        ));
    }
    if let Some(e) = &ctl.last_error {
        out.push_str(&format!(
            "Last error:   {} ({}, {})\n",
            e.message.replace('\n', "\n              "),
            e.key,
            crate::time::rfc3339(e.at)
        ));
    }
    Ok(out)
}

fn logs(c: &Cluster, words: &[String]) -> R {
    let p = parse_flags(words, &[flag("tail", None)], "sim controller logs")?;
    running(c)?;
    tail(c.my_controller().logs.iter(), p.get("tail"))
}

/// The last `--tail N` of `lines` (all without it), one a line.
pub(super) fn tail<'a>(lines: impl Iterator<Item = &'a String>, n: Option<&str>) -> R {
    let lines: Vec<&String> = lines.collect();
    let keep = match n {
        Some(t) => t
            .parse::<usize>()
            .map_err(|_| format!("error: invalid argument \"{t}\" for \"--tail\" flag"))?,
        None => lines.len(),
    };
    let skip = lines.len().saturating_sub(keep);
    Ok(lines
        .into_iter()
        .skip(skip)
        .cloned()
        .collect::<Vec<_>>()
        .join("\n"))
}
