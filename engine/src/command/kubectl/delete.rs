//! `kubectl delete`: by name or selector, with `--cascade`, `--grace-period`,
//! `--force` and `--wait` (the command blocks until the objects are gone).
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/delete/delete.go`
//! (`DeleteOptions.RunDelete`, `deleteResult`).

use super::util::{
    api, int_flag, key_for, kind_arg, namespace, objects_of, targets, timeout_flag, DEFAULT_WAIT,
    NS, RB,
};
use crate::api::*;
use crate::apiserver::{ApiError, DeleteOptions, ObjKey};
use crate::client::Request;
use crate::cluster::{kubectl as user, Cluster};
use crate::command::args::{bool_flag, flag, parse_flags, FlagSpec, Parsed};
use crate::command::select::{fields_match, parse_field_selector, parse_label_selector};
use crate::command::wait::Blocking;
use crate::command::Files;
use crate::printers::get::name_prefix;

const DELETE_FLAGS: &[FlagSpec] = &[
    NS,
    flag("selector", Some('l')),
    flag("field-selector", None),
    bool_flag("all", None),
    flag("grace-period", None),
    bool_flag("force", None),
    bool_flag("now", None),
    flag("cascade", None),
    flag("wait", None),
    flag("timeout", None),
    flag("filename", Some('f')),
    bool_flag("ignore-not-found", None),
];

/// An object to delete, with its uid: waiting ends when that uid is gone, even if an
/// object of the same name has taken its place.
type Victim = (Kind, ObjKey, String);

/// `kubectl delete TYPE NAME…`, `TYPE/NAME…`, or `TYPE -l SELECTOR` / `--all`.
pub(super) fn delete(
    c: &mut Cluster,
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
    let victims = if p.get("filename").is_some() {
        from_files(c, &p, &ns, stdin, files, &mut errors)?
    } else if p.get("selector").is_some() || p.get("field-selector").is_some() || p.bool("all") {
        let victims = selected(c, &p, &ns)?;
        if victims.is_empty() {
            return Ok((format!("No resources found in {ns} namespace."), None));
        }
        victims
    } else {
        named(c, &p, &ns, &mut errors)?
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
    let deleted = delete_each(c, &victims, &options, immediate, &mut out, &mut errors);
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
/// the namespace.
fn selected(c: &Cluster, p: &Parsed, ns: &str) -> Result<Vec<Victim>, String> {
    let kinds: Vec<Kind> = p
        .args
        .first()
        .ok_or("error: resource(s) were provided, but no name was specified")?
        .split(',')
        .map(kind_arg)
        .collect::<Result<_, _>>()?;
    let sel = p.get("selector").map(parse_label_selector).transpose()?;
    let mut victims = Vec::new();
    for k in kinds {
        let fields = p
            .get("field-selector")
            .map(|f| parse_field_selector(k, f))
            .transpose()?;
        for o in objects_of(c, k, Some(ns)) {
            if sel.as_ref().is_none_or(|s| s.matches(&o.meta().labels))
                && fields.as_ref().is_none_or(|f| fields_match(o, f))
            {
                victims.push((k, ObjKey::of(o.meta()), o.meta().uid.clone()));
            }
        }
    }
    Ok(victims)
}

/// `-f FILE…`: the objects the manifests name (each in its own namespace, else `-n`'s);
/// a NotFound for each missing one unless `--ignore-not-found`.
fn from_files(
    c: &Cluster,
    p: &Parsed,
    ns: &str,
    stdin: Option<&str>,
    files: &dyn Files,
    errors: &mut Vec<String>,
) -> Result<Vec<Victim>, String> {
    if !p.args.is_empty() {
        return Err("error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'".into());
    }
    let docs = super::create::read_manifest(p, stdin, files)?;
    let mut victims = Vec::new();
    for d in docs {
        let k = d.object.kind();
        let m = d.object.meta();
        let key = key_for(
            k,
            if m.namespace.is_empty() {
                ns
            } else {
                &m.namespace
            },
            &m.name,
        );
        match c.store.get_object(k, &key) {
            Some(o) => victims.push((k, key, o.meta().uid.clone())),
            None if p.bool("ignore-not-found") => {}
            None => {
                // cmdutil.AddSourceToErr("deleting", source, err).
                let source = match p.get("filename") {
                    Some("-") | None => "STDIN",
                    Some(f) => f,
                };
                let e = ApiError::not_found(k, &m.name).kubectl_text();
                errors.push(e.replacen(
                    "Error from server (NotFound): ",
                    &format!("Error from server (NotFound): error when deleting \"{source}\": "),
                    1,
                ));
            }
        }
    }
    Ok(victims)
}

/// `TYPE NAME…` or `TYPE/NAME…`: each named object; a NotFound in `errors` for each
/// missing one unless `--ignore-not-found`.
fn named(
    c: &Cluster,
    p: &Parsed,
    ns: &str,
    errors: &mut Vec<String>,
) -> Result<Vec<Victim>, String> {
    let t = targets(&p.args)?;
    if t.is_empty() {
        return Err(if p.args.is_empty() {
            "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into()
        } else {
            "error: resource(s) were provided, but no name was specified".into()
        });
    }
    let mut victims = Vec::new();
    for (k, n) in t {
        let key = key_for(k, ns, &n);
        match c.store.get_object(k, &key) {
            Some(o) => victims.push((k, key, o.meta().uid.clone())),
            None if p.bool("ignore-not-found") => {}
            None => errors.push(ApiError::not_found(k, &n).kubectl_text()),
        }
    }
    Ok(victims)
}

/// Send one delete per victim, printing kubectl's line for each (`force deleted` when
/// `immediate`); the server's refusals go to `errors`. The victims it accepted.
fn delete_each(
    c: &mut Cluster,
    victims: &[Victim],
    options: &DeleteOptions,
    immediate: bool,
    out: &mut String,
    errors: &mut Vec<String>,
) -> Vec<Victim> {
    let mut deleted = Vec::new();
    for (k, key, uid) in victims {
        match c.submit(
            &user(),
            Request::Delete {
                kind: *k,
                key: key.clone(),
                options: options.clone(),
                event: None,
            },
        ) {
            Ok(_) => {
                let word = if immediate {
                    "force deleted"
                } else {
                    "deleted"
                };
                out.push_str(&format!("{} \"{}\" {word}\n", name_prefix(*k), key.name));
                deleted.push((*k, key.clone(), uid.clone()));
            }
            Err(e) => errors.push(api(e)),
        }
    }
    deleted
}
