//! `kubectl rollout status|history|undo|pause|resume|restart` for Deployments, and
//! `status|history|undo|restart` for DaemonSets and StatefulSets (whose history is
//! their ControllerRevisions; pausing them is not supported, as upstream says).
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/rollout/rollout.go` and its
//! `rollout_status.go`, `rollout_history.go`, `rollout_undo.go`, `rollout_pause.go`,
//! `rollout_resume.go`, `rollout_restart.go`; the Deployment's history and rollback in
//! `staging/src/k8s.io/kubectl/pkg/polymorphichelpers/`.

use super::util::{api, namespace, one_target, timeout_flag, DEFAULT_WAIT, NS, R, RB};
use crate::api::*;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::command::args::{flag, parse_flags, Parsed};
use crate::command::client::Client;
use crate::command::wait::Blocking;
use crate::controllers::deployment::util::{
    revision, ANNOTATIONS_TO_SKIP, POD_TEMPLATE_HASH_LABEL,
};
use crate::printers::qualified_name;
use crate::time::rfc3339;

/// `kubernetes.io/change-cause` (polymorphichelpers.ChangeCauseAnnotation).
const CHANGE_CAUSE: &str = "kubernetes.io/change-cause";

/// A copy of the Deployment `name` in `ns` (a GET), or the API server's error.
fn deployment(c: &mut Cluster, k: &Client, ns: &str, name: &str) -> Result<Deployment, String> {
    k.get_as::<Deployment>(c, &ObjKey::new(ns, name))
        .map_err(|e| e.kubectl_text())
}

/// The Deployment's ReplicaSets, its revisions: the ReplicaSets its selector lists
/// that it controls (`deploymentutil.GetAllReplicaSets`), oldest first.
fn owned_rs(c: &mut Cluster, k: &Client, d: &Deployment) -> Result<Vec<ReplicaSet>, String> {
    let listed = k
        .list(
            c,
            Kind::ReplicaSet,
            Some(&d.metadata.namespace),
            Some(&d.spec.selector),
            &[],
        )
        .map_err(api)?;
    let mut out: Vec<ReplicaSet> = listed
        .iter()
        .filter_map(|o| ReplicaSet::from_object(o))
        .filter(|r| r.metadata.controller_ref().map(|c| c.uid.as_str()) == Some(&d.metadata.uid))
        .cloned()
        .collect();
    crate::sorting::sort_by(&mut out, |a, b| {
        (a.metadata.created_ms, &a.metadata.name).cmp(&(b.metadata.created_ms, &b.metadata.name))
    });
    Ok(out)
}

/// `kubectl rollout SUBCOMMAND deployment/NAME`.
pub(super) fn rollout(c: &mut Cluster, k: &Client, words: &[String]) -> RB {
    rollout_with(c, k, words, false)
}

/// [`rollout`]; with `client_dry_run` (`--dry-run=client`) `undo` prints the template
/// it would restore instead of restoring it, as rollback.go does.
pub(super) fn rollout_with(
    c: &mut Cluster,
    k: &Client,
    words: &[String],
    client_dry_run: bool,
) -> RB {
    let Some(sub) = words.first() else {
        // cobra's DefaultSubCommandRun: the group's help.
        return Ok((super::HELP_ROLLOUT.trim_end().to_string(), None));
    };
    if !matches!(
        sub.as_str(),
        "history" | "pause" | "restart" | "resume" | "status" | "undo"
    ) {
        // DefaultSubCommandRun's usage error names every argument.
        return Err(format!(
            "error: unknown command \"{}\"\nSee 'kubectl rollout -h' for help and examples",
            words.join(" ")
        ));
    }
    let mut flags = vec![
        NS,
        flag("revision", None),
        flag("to-revision", None),
        flag("timeout", None),
        flag("watch", Some('w')),
    ];
    // pause, resume and restart print what they wrote (their PrintFlags).
    if matches!(sub.as_str(), "pause" | "resume" | "restart") {
        flags.push(flag("output", Some('o')));
    }
    let p = parse_flags(&words[1..], &flags, &format!("kubectl rollout {sub}"))?;
    let format = p.get("output").filter(|o| !o.is_empty());
    let ns = namespace(&p);
    if p.args.is_empty() {
        // Every rollout subcommand's Validate.
        return Err("error: required resource not specified".into());
    }
    let (kind, name) = one_target(&p, &format!("rollout {sub}"))?;
    if !matches!(kind, Kind::Deployment | Kind::DaemonSet | Kind::StatefulSet) {
        return Err(format!(
            "error: no {sub} has been implemented for {{\"{}\" \"{}\"}} here",
            kind.api_version().split('/').next().unwrap_or(""),
            kind.name()
        ));
    }
    let qn = qualified_name(kind, &name);
    // Only `status` may keep the command waiting; the others answer at once.
    let at_once = |text| (text, None);
    if kind != Kind::Deployment {
        let key = ObjKey::new(&ns, &name);
        let obj = (*k.get(c, kind, &key.namespace, &key.name).map_err(api)?).clone();
        return match sub.as_str() {
            "status" => rollout_status(c, k, &p, kind, &ns, &name),
            "history" => set_history(c, k, &p, &obj, &qn).map(at_once),
            "undo" => set_undo(c, k, &p, obj, &qn, client_dry_run).map(at_once),
            "restart" => set_restart(c, k, obj, &qn, format).map(at_once),
            // objectpauser.go / objectresumer.go know only Deployments.
            verb => Err(format!(
                "error: {} \"{name}\" {} is not supported",
                kind.qualified_resource(),
                if verb == "pause" {
                    "pausing"
                } else {
                    "resuming"
                }
            )),
        };
    }
    match sub.as_str() {
        "status" => rollout_status(c, k, &p, kind, &ns, &name),
        "history" => rollout_history(c, k, &p, &ns, &name, &qn).map(at_once),
        "pause" => rollout_pause(c, k, (&ns, &name, &qn), true, format).map(at_once),
        "resume" => rollout_pause(c, k, (&ns, &name, &qn), false, format).map(at_once),
        "restart" => rollout_restart(c, k, (&ns, &name, &qn), format).map(at_once),
        "undo" => rollout_undo(c, k, &p, (&ns, &name, &qn), client_dry_run).map(at_once),
        other => Err(format!(
            "error: unknown command \"{other}\" for \"kubectl rollout\""
        )),
    }
}

/// `kubectl rollout status` (`rollout_status.go`): follow the rollout until it
/// finishes, or with `--watch=false` say once where it stands.
fn rollout_status(c: &mut Cluster, k: &Client, p: &Parsed, kind: Kind, ns: &str, name: &str) -> RB {
    let timeout = timeout_flag(p, DEFAULT_WAIT)?;
    if kind == Kind::Deployment {
        deployment(c, k, ns, name)?;
    }
    let mut b = Blocking::rollout(
        c.now().saturating_add(timeout),
        kind,
        ns.to_string(),
        name.to_string(),
    );
    if p.get("watch") == Some("false") {
        // One look, no waiting.
        b.poll(c);
        return if b.failed {
            Err(b.output)
        } else {
            Ok((b.output, None))
        };
    }
    Ok((String::new(), Some(b)))
}

/// `kubectl rollout history` (`rollout_history.go`): the revisions with their change
/// causes, or one revision's Pod template with `--revision=N`.
fn rollout_history(c: &mut Cluster, k: &Client, p: &Parsed, ns: &str, name: &str, qn: &str) -> R {
    let d = deployment(c, k, ns, name)?;
    let mut rss = owned_rs(c, k, &d)?;
    crate::sorting::sort_by_key(&mut rss, |r| revision(&r.metadata));
    // history.go's ViewHistory: each revision's template, with the ReplicaSet's
    // change-cause written into the template's annotations (so `--revision=N` shows it).
    let history: Vec<(i64, PodTemplateSpec)> = rss
        .iter()
        .filter(|r| revision(&r.metadata) > 0)
        .map(|r| {
            let mut t = r.spec.template.clone();
            if let Some(cause) = r
                .metadata
                .annotations
                .get(CHANGE_CAUSE)
                .filter(|c| !c.is_empty())
            {
                t.metadata
                    .annotations
                    .insert(CHANGE_CAUSE.into(), cause.clone());
            }
            (revision(&r.metadata), t)
        })
        .collect();
    let want = revision_flag(p)?;
    // The printer's operation is "with revision #N\n" + the text (or "\n" + the
    // text): the name line, then the text and the printer's own newline.
    if history.is_empty() {
        return Ok(format!("{qn} \nNo rollout history found.\n"));
    }
    if want > 0 {
        let (_, t) = history
            .iter()
            .find(|(r, _)| *r == want)
            .ok_or_else(|| "error: unable to find the specified revision".to_string())?;
        let mut out = format!("{qn} with revision #{want}\n");
        out.push_str(&crate::printers::describe::pod_template_raw(t, 0));
        out.push('\n');
        return Ok(out);
    }
    // polymorphichelpers/history.go: a tabwriter with padding 2.
    let mut text = format!("{qn} \nREVISION\tCHANGE-CAUSE\n");
    for (rev, t) in &history {
        let cause = t
            .metadata
            .annotations
            .get(CHANGE_CAUSE)
            .cloned()
            .unwrap_or_else(|| "<none>".into());
        text.push_str(&format!("{rev}\t{cause}\n"));
    }
    let mut out = crate::tabwriter::format(&text, 0, 2);
    out.push('\n');
    Ok(out)
}

/// `kubectl rollout pause` (`rollout_pause.go`), or `kubectl rollout resume`
/// (`rollout_resume.go`) when not `pause`: set `spec.paused`.
fn rollout_pause(
    c: &mut Cluster,
    k: &Client,
    (ns, name, qn): (&str, &str, &str),
    pause: bool,
    format: Option<&str>,
) -> R {
    let mut d = deployment(c, k, ns, name)?;
    if d.spec.paused == pause {
        // objectpauser.go / objectresumer.go refuse, and RunPause / RunResume name the
        // object: `error: deployments.apps "web" is already paused`.
        return Err(format!(
            "error: deployments.apps \"{name}\" {}",
            if pause {
                "is already paused"
            } else {
                "is not paused"
            }
        ));
    }
    d.spec.paused = pause;
    let written = k
        .patch(c, "", Object::Deployment(Box::new(d)))
        .map_err(api)?;
    printed(
        c,
        written,
        qn,
        if pause { "paused" } else { "resumed" },
        format,
    )
}

/// What pause, resume and restart print of the object the server answered: its line,
/// or `-o` of it as kubectl's typed client holds it.
fn printed(
    c: &Cluster,
    written: crate::apiserver::request::ApiResponse,
    qn: &str,
    operation: &str,
    format: Option<&str>,
) -> R {
    let Some(obj) = written.object else {
        return Ok(format!("{qn} {operation}"));
    };
    let go_type = crate::printers::go_json::root_type(obj.kind());
    let shown = super::util::served(c, obj.to_json());
    super::print_flags::report_typed(format, &go_type, &shown, qn, operation)
}

/// The annotation a restart stamps on the Pod template.
const RESTARTED_AT: &str = "kubectl.kubernetes.io/restartedAt";

/// A restart within the second of the last one: its stamp is the same, so the patch is
/// empty, and `RunRestart` refuses it.
fn restart_unchanged(name: &str) -> String {
    format!("error: failed to create patch for {name}: if restart has already been triggered within the past second, please wait before attempting to trigger another")
}

/// `kubectl rollout restart` (`rollout_restart.go`): a new `restartedAt` annotation
/// on the Pod template, so the Deployment rolls out new Pods.
fn rollout_restart(
    c: &mut Cluster,
    k: &Client,
    (ns, name, qn): (&str, &str, &str),
    format: Option<&str>,
) -> R {
    let mut d = deployment(c, k, ns, name)?;
    if d.spec.paused {
        return Err(format!("error: deployments.apps \"{name}\" can't restart paused deployment (run rollout resume first)"));
    }
    let now = rfc3339(c.now());
    let annotations = &mut d.spec.template.metadata.annotations;
    if annotations.get(RESTARTED_AT) == Some(&now) {
        return Err(restart_unchanged(name));
    }
    annotations.insert(RESTARTED_AT.into(), now);
    let written = k
        .patch(c, "", Object::Deployment(Box::new(d)))
        .map_err(api)?;
    printed(c, written, qn, "restarted", format)
}

/// `kubectl rollout undo` (`rollout_undo.go`, the rollback of
/// `polymorphichelpers/rollback.go`): the previous revision's Pod template, or that of
/// `--to-revision=N`, becomes the Deployment's.
fn rollout_undo(
    c: &mut Cluster,
    k: &Client,
    p: &Parsed,
    (ns, name, qn): (&str, &str, &str),
    client_dry_run: bool,
) -> R {
    let mut d = deployment(c, k, ns, name)?;
    let rss = owned_rs(c, k, &d)?;
    let to = to_revision_flag(p)?;
    let mut revs: Vec<(i64, &ReplicaSet)> =
        rss.iter().map(|r| (revision(&r.metadata), r)).collect();
    crate::sorting::sort_by_key(&mut revs, |(r, _)| *r);
    let target = if to == 0 {
        if revs.len() < 2 {
            return Err(format!(
                "error: no rollout history found for deployment \"{name}\""
            ));
        }
        revs[revs.len() - 2]
    } else {
        *revs
            .iter()
            .find(|(r, _)| *r == to)
            .ok_or_else(|| format!("error: unable to find specified revision {to} in history"))?
    };
    // rollback.go finds the revision first; a client dry run then prints its template
    // (printTemplate as the printer's operation, whose " (dry run)" lands on a line
    // of its own); only then the pause is checked.
    if client_dry_run {
        let t = crate::printers::describe::pod_template(&target.1.spec.template, 0);
        return Ok(format!("{qn} {t} (dry run)"));
    }
    if d.spec.paused {
        return Err("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again".into());
    }
    let mut t = target.1.spec.template.clone();
    t.metadata.labels.remove(POD_TEMPLATE_HASH_LABEL);
    if crate::controllers::deployment::util::equal_ignore_hash(&t, &d.spec.template) {
        // Upstream prints the revision asked for (0 when none was).
        return Ok(format!(
            "{qn} skipped rollback (current template already matches revision {to})"
        ));
    }
    // The patch replaces the template and the annotations: the Deployment keeps its
    // own bookkeeping ones (annotationsToSkip) and takes the rest from the
    // ReplicaSet — the revision's change-cause comes back with its template.
    let mut annotations = StringMap::new();
    for k in ANNOTATIONS_TO_SKIP {
        if let Some(v) = d.metadata.annotations.get(*k) {
            annotations.insert((*k).to_string(), v.clone());
        }
    }
    for (k, v) in &target.1.metadata.annotations {
        if !ANNOTATIONS_TO_SKIP.contains(&k.as_str()) {
            annotations.insert(k.clone(), v.clone());
        }
    }
    d.metadata.annotations = annotations;
    d.spec.template = t;
    k.patch(c, "", Object::Deployment(Box::new(d)))
        .map_err(api)?;
    Ok(format!("{qn} rolled back"))
}

/// The ControllerRevisions `obj` (a DaemonSet or StatefulSet) controls, by revision
/// (`controlledHistories` in `polymorphichelpers/history.go`).
fn controlled_histories(
    c: &mut Cluster,
    k: &Client,
    obj: &Object,
) -> Result<Vec<ControllerRevision>, String> {
    let m = obj.meta();
    let listed = k
        .list(c, Kind::ControllerRevision, Some(&m.namespace), None, &[])
        .map_err(api)?;
    let mut out: Vec<ControllerRevision> = listed
        .iter()
        .filter_map(|o| ControllerRevision::from_object(o))
        .filter(|r| r.metadata.controller_ref().map(|c| c.uid.as_str()) == Some(&m.uid))
        .cloned()
        .collect();
    crate::sorting::sort_by(&mut out, |a, b| {
        a.revision
            .cmp(&b.revision)
            .then(a.metadata.name.cmp(&b.metadata.name))
    });
    Ok(out)
}

/// The revision parsed from `--to-revision` (0: the previous one).
fn to_revision_flag(p: &Parsed) -> Result<i64, String> {
    let v = p.get("to-revision").unwrap_or("0");
    v.parse().map_err(|_| {
        format!("error: invalid argument \"{v}\" for \"--to-revision\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax\nSee 'kubectl rollout undo --help' for usage.")
    })
}

/// The revision parsed from `--revision`.
fn revision_flag(p: &Parsed) -> Result<i64, String> {
    match p.get("revision") {
        None => Ok(0),
        Some(rev) => rev.parse().map_err(|_| {
            format!("error: invalid argument \"{rev}\" for \"--revision\" flag: strconv.ParseInt: parsing \"{rev}\": invalid syntax\nSee 'kubectl rollout history --help' for usage.")
        }),
    }
}

/// `kubectl rollout history` of a DaemonSet or StatefulSet (`printHistory`): each
/// ControllerRevision with the change-cause it copied from the object's annotations,
/// or with `--revision=N` the template that revision restores.
fn set_history(c: &mut Cluster, k: &Client, p: &Parsed, obj: &Object, qn: &str) -> R {
    let history = controlled_histories(c, k, obj)?;
    let want = revision_flag(p)?;
    if history.is_empty() {
        return Ok(format!("{qn} \nNo rollout history found.\n"));
    }
    if want > 0 {
        let r = history
            .iter()
            .find(|r| r.revision == want)
            .ok_or_else(|| "error: unable to find the specified revision".to_string())?;
        let t = crate::controllers::history::revision_template(r)
            .ok_or_else(|| format!("error: unable to parse history {}", r.metadata.name))?;
        let mut out = format!("{qn} with revision #{want}\n");
        out.push_str(&crate::printers::describe::pod_template_raw(&t, 0));
        out.push('\n');
        return Ok(out);
    }
    let mut text = format!("{qn} \nREVISION\tCHANGE-CAUSE\n");
    for r in &history {
        let cause = r
            .metadata
            .annotations
            .get(CHANGE_CAUSE)
            .filter(|c| !c.is_empty())
            .cloned()
            .unwrap_or_else(|| "<none>".into());
        text.push_str(&format!("{}\t{cause}\n", r.revision));
    }
    let mut out = crate::tabwriter::format(&text, 0, 2);
    out.push('\n');
    Ok(out)
}

/// The Pod template of a DaemonSet or StatefulSet, to read or to replace.
fn set_template(obj: &mut Object) -> Option<&mut PodTemplateSpec> {
    match obj {
        Object::DaemonSet(d) => Some(&mut d.spec.template),
        Object::StatefulSet(s) => Some(&mut s.spec.template),
        _ => None,
    }
}

/// `kubectl rollout undo` of a DaemonSet or StatefulSet (`DaemonSetRollbacker` /
/// `StatefulSetRollbacker` in `rollback.go`): the revision's patch replaces the
/// template; the controller then moves that revision to the end of the history.
fn set_undo(
    c: &mut Cluster,
    k: &Client,
    p: &Parsed,
    mut obj: Object,
    qn: &str,
    client_dry_run: bool,
) -> R {
    let to = to_revision_flag(p)?;
    if to < 0 {
        return Err(format!(
            "error: unable to find specified revision {to} in history"
        ));
    }
    let history = controlled_histories(c, k, &obj)?;
    if to == 0 && history.len() <= 1 {
        return Err("error: no last revision to roll back to".into());
    }
    // findHistory: the second highest revision, or the one asked for.
    let target = if to == 0 {
        history.get(history.len() - 2)
    } else {
        history.iter().find(|r| r.revision == to)
    }
    .ok_or_else(|| format!("error: unable to find specified revision {to} in history"))?;
    let template = crate::controllers::history::revision_template(target)
        .ok_or_else(|| format!("error: unable to parse history {}", target.metadata.name))?;
    if client_dry_run {
        let t = crate::printers::describe::pod_template(&template, 0);
        return Ok(format!("{qn} will roll back to {t} (dry run)"));
    }
    let Some(current) = set_template(&mut obj) else {
        return Err(format!(
            "error: no rollbacker has been implemented for {qn}"
        ));
    };
    // daemonSetMatch / statefulsetMatch compare the patches: the templates.
    if crate::controllers::history::revision_patch(current) == target.data {
        return Ok(format!(
            "{qn} skipped rollback (current template already matches revision {to})"
        ));
    }
    *current = template;
    k.patch(c, "", obj).map_err(api)?;
    Ok(format!("{qn} rolled back"))
}

/// `kubectl rollout restart` of a DaemonSet or StatefulSet (`objectrestarter.go`): a
/// new `restartedAt` annotation on the template.
fn set_restart(c: &mut Cluster, k: &Client, mut obj: Object, qn: &str, format: Option<&str>) -> R {
    let now = rfc3339(c.now());
    let obj_name = obj.meta().name.clone();
    let Some(t) = set_template(&mut obj) else {
        return Err(format!("error: no restarter has been implemented for {qn}"));
    };
    if t.metadata.annotations.get(RESTARTED_AT) == Some(&now) {
        return Err(restart_unchanged(&obj_name));
    }
    t.metadata.annotations.insert(RESTARTED_AT.into(), now);
    let written = k.patch(c, "", obj).map_err(api)?;
    printed(c, written, qn, "restarted", format)
}
