//! `kubectl delete`: by name or selector, with `--cascade`, `--grace-period`,
//! `--force` and `--wait` (the command blocks until the objects are gone).
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go`
//! (`DeleteOptions.RunDelete`, `deleteResult`).

use super::util::{
    api, int_flag, key_for, kind_arg, namespace, targets, timeout_flag, DEFAULT_WAIT, NS, RB,
};
use crate::api::*;
use crate::apiserver::selectors::{parse_field_selector, parse_label_selector};
use crate::apiserver::{DeleteOptions, ObjKey};
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, FlagSpec, Parsed};
use crate::command::client::Client;
use crate::command::wait::Blocking;
use crate::command::Files;
use crate::printers::get::name_prefix;

const DELETE_FLAGS: &[FlagSpec] = &[
    NS,
    flag("selector", Some('l')),
    flag("field-selector", None),
    bool_flag("all", None),
    bool_flag("all-namespaces", Some('A')),
    flag("grace-period", None),
    bool_flag("force", None),
    bool_flag("now", None),
    flag("cascade", None),
    flag("wait", None),
    flag("timeout", None),
    flag("filename", Some('f')),
    bool_flag("ignore-not-found", None),
];

/// An object deleted, with its uid: waiting ends when that uid is gone, even if an
/// object of the same name has taken its place.
type Victim = (Kind, ObjKey, String);

/// An object to delete, and the file that named it (`-f`).
type Target = (Kind, ObjKey, Option<String>);

/// `kubectl delete TYPE NAME…`, `TYPE/NAME…`, or `TYPE -l SELECTOR` / `--all`.
pub(super) fn delete(
    c: &mut Cluster,
    k: &Client,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
) -> RB {
    // `--wait` is a boolean that may be written `--wait=false`.
    let words: Vec<String> = words
        .iter()
        .map(|w| {
            if w == "--wait" {
                "--wait=true".into()
            } else {
                w.clone()
            }
        })
        .collect();
    let p = parse_flags(&words, DELETE_FLAGS, "kubectl delete")?;
    let ns = namespace(&p);
    let propagation = propagation(&p)?;
    let force = p.bool("force");
    let grace = grace_period(&p, force)?;
    let mut errors = Vec::new();
    let targets = if p.get("filename").is_some() {
        from_files(&p, &ns, stdin, files)?
    } else if p.get("selector").is_some() || p.get("field-selector").is_some() || p.bool("all") {
        let targets = selected(c, k, &p, &ns)?;
        if targets.is_empty() {
            // RunDelete's own line (unlike get's, it names no namespace).
            return Ok(("No resources found".to_string(), None));
        }
        targets
    } else {
        named(&p, &ns)?
    };
    let immediate = force && grace == Some(0);
    let mut out = String::new();
    if immediate {
        out.push_str("Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n");
    }
    let options = DeleteOptions {
        grace_period_seconds: grace,
        propagation: Some(propagation.into()),
        precondition_uid: None,
    };
    let ignore = p.bool("ignore-not-found");
    let deleted = delete_each(
        c,
        k,
        &targets,
        &options,
        immediate,
        ignore,
        &mut out,
        &mut errors,
    );
    if !errors.is_empty() {
        return Err(format!("{out}{}", errors.join("\n")));
    }
    let wait = p.get("wait").unwrap_or("true") != "false";
    if wait && !deleted.is_empty() {
        let timeout = timeout_flag(&p, DEFAULT_WAIT)?;
        return Ok((
            out,
            Some(Blocking::gone(c.now().saturating_add(timeout), deleted)),
        ));
    }
    Ok((out, None))
}

/// `--cascade`: the propagation policy sent with each delete.
fn propagation(p: &Parsed) -> Result<&'static str, String> {
    Ok(match p.get("cascade").unwrap_or("background") {
        "background" | "true" => "Background",
        "foreground" => "Foreground",
        "orphan" | "false" => "Orphan",
        other => return Err(format!("error: invalid cascade value ({other}). Must be \"background\", \"foreground\", or \"orphan\"")),
    })
}

/// `--grace-period`, or 0 with `--force` and 1 with `--now`; None (a negative value
/// too) leaves each object its own default.
fn grace_period(p: &Parsed, force: bool) -> Result<Option<i64>, String> {
    // delete.go's Complete and Validate, in their order.
    let mut grace: i64 = match p.get("grace-period") {
        Some(g) => int_flag(g, "--grace-period", 64, "kubectl delete")?,
        None => -1,
    };
    if p.bool("now") {
        if grace != -1 {
            return Err("error: --now and --grace-period cannot be specified together".into());
        }
        grace = 1;
    }
    if grace == 0 && !force {
        // Backwards compatibility without data loss: 0 means 1 unless --force.
        grace = 1;
    }
    if force && grace < 0 {
        grace = 0;
    }
    if force && grace > 0 {
        return Err(
            "error: --force and --grace-period greater than 0 cannot be specified together".into(),
        );
    }
    if p.bool("all") && p.get("selector").is_some() {
        return Err("error: cannot set --all and --selector at the same time".into());
    }
    if p.bool("all") && p.get("field-selector").is_some() {
        return Err("error: cannot set --all and --field-selector at the same time".into());
    }
    // A negative grace period means "the object's default".
    Ok((grace >= 0).then_some(grace))
}

/// `TYPE[,TYPE…]` with `-l`, `--field-selector` or `--all`: every matching object in
/// the namespace, as one list per type (with its selectors).
fn selected(c: &mut Cluster, k: &Client, p: &Parsed, ns: &str) -> Result<Vec<Target>, String> {
    let kinds: Vec<Kind> = p
        .args
        .first()
        .ok_or("error: resource(s) were provided, but no name was specified")?
        .split(',')
        .map(|t| match t {
            // The `all` category, expanded as discovery lists it.
            "all" => Ok(crate::apiserver::discovery::category("all")),
            t => kind_arg(t).map(|k| vec![k]),
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    let sel = p.get("selector").map(parse_label_selector).transpose()?;
    let mut victims = Vec::new();
    for kind in kinds {
        let fields = p
            .get("field-selector")
            .map(|f| parse_field_selector(kind, f))
            .transpose()?;
        // `-A`: the namespace is ignored, even one given with `-n`.
        let in_ns = (!p.bool("all-namespaces")).then_some(ns);
        let found = k
            .list(
                c,
                kind,
                in_ns,
                sel.as_ref(),
                fields.as_deref().unwrap_or(&[]),
            )
            .map_err(api)?;
        victims.extend(found.iter().map(|o| (kind, ObjKey::of(o.meta()), None)));
    }
    Ok(victims)
}

/// `-f FILE…`: the objects the manifests name (each in its own namespace, else `-n`'s).
fn from_files(
    p: &Parsed,
    ns: &str,
    stdin: Option<&str>,
    files: &dyn Files,
) -> Result<Vec<Target>, String> {
    if !p.args.is_empty() {
        return Err("error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'".into());
    }
    let docs = super::create::read_manifest(p, stdin, files)?;
    let source = match p.get("filename") {
        Some("-") | None => "STDIN",
        Some(f) => f,
    };
    Ok(docs
        .into_iter()
        .map(|d| {
            let kind = d.object.kind();
            let m = d.object.meta();
            let key = key_for(
                kind,
                if m.namespace.is_empty() {
                    ns
                } else {
                    &m.namespace
                },
                &m.name,
            );
            (kind, key, Some(source.to_string()))
        })
        .collect())
}

/// `TYPE NAME…` or `TYPE/NAME…`: each named object (the builder makes no request for
/// them: the deletes go out by name).
fn named(p: &Parsed, ns: &str) -> Result<Vec<Target>, String> {
    let t = targets(&p.args)?;
    if t.is_empty() {
        return Err(if p.args.is_empty() {
            "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into()
        } else {
            "error: resource(s) were provided, but no name was specified".into()
        });
    }
    Ok(t.into_iter()
        .map(|(kind, n)| (kind, key_for(kind, ns, &n), None))
        .collect())
}

/// Send one delete per target, printing kubectl's line for each (`force deleted` when
/// `immediate`); the server's refusals go to `errors` (a NotFound passed over with
/// `--ignore-not-found`, and worded with the file it came from for `-f`). The victims
/// it accepted, with their uids.
#[allow(clippy::too_many_arguments)]
fn delete_each(
    c: &mut Cluster,
    k: &Client,
    targets: &[Target],
    options: &DeleteOptions,
    immediate: bool,
    ignore_not_found: bool,
    out: &mut String,
    errors: &mut Vec<String>,
) -> Vec<Victim> {
    let mut deleted = Vec::new();
    for (kind, key, source) in targets {
        let answer = k.delete(c, *kind, key, options.clone());
        out.push_str(&k.warning_lines());
        match answer {
            Ok(r) => {
                let word = if immediate {
                    "force deleted"
                } else {
                    "deleted"
                };
                out.push_str(&format!("{} \"{}\" {word}\n", name_prefix(*kind), key.name));
                let uid = r.object.map(|o| o.meta().uid.clone()).unwrap_or_default();
                deleted.push((*kind, key.clone(), uid));
            }
            Err(e) if e.code == 404 && ignore_not_found => {}
            Err(e) => match source {
                // cmdutil.AddSourceToErr("deleting", source, err).
                Some(source) => errors.push(super::create::common::with_source(
                    api(e),
                    source,
                    "deleting",
                )),
                None => errors.push(api(e)),
            },
        }
    }
    deleted
}
