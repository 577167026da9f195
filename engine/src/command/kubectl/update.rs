//! The verbs that change part of one live object: `kubectl set image`,
//! `kubectl label`, `kubectl annotate` and `kubectl patch` (a JSON merge patch).
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/set/set_image.go`,
//! `staging/src/k8s.io/kubectl/pkg/cmd/label/label.go`,
//! `staging/src/k8s.io/kubectl/pkg/cmd/annotate/annotate.go`,
//! `staging/src/k8s.io/kubectl/pkg/cmd/patch/patch.go`.

use super::print_flags::{inline, Reporter};
use super::util::{api, key_for, namespace, one_target, targets, NS, R};
use crate::api::*;
use crate::apiserver::patch::PatchType;
use crate::apiserver::selectors::{parse_field_selector, parse_label_selector};
use crate::apiserver::validation::label_value_errors;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, Parsed};
use crate::command::client::Client;
use crate::command::NoFiles;
use crate::printers::qualified_name;

/// `kubernetes.io/change-cause` (polymorphichelpers.ChangeCauseAnnotation).
const CHANGE_CAUSE: &str = "kubernetes.io/change-cause";

/// A copy of the live object to change (a GET), or the API server's error as kubectl
/// prints it.
pub(super) fn get_cloned(
    c: &mut Cluster,
    k: &Client,
    kind: Kind,
    key: &ObjKey,
) -> Result<Object, String> {
    k.get(c, kind, &key.namespace, &key.name)
        .map(|o| (*o).clone())
        .map_err(api)
}

/// `kubectl set image|resources …`.
pub(super) fn set(c: &mut Cluster, k: &Client, words: &[String]) -> R {
    match words.first().map(String::as_str) {
        Some("image") => {}
        Some("resources") => return set_resources(c, k, &words[1..]),
        // cobra's DefaultSubCommandRun: no subcommand prints the group's help.
        None => return Ok(super::HELP_SET.trim_end().to_string()),
        Some(_) => {
            // DefaultSubCommandRun's usage error names every argument.
            return Err(format!(
                "error: unknown command \"{}\"\nSee 'kubectl set -h' for help and examples",
                words.join(" ")
            ));
        }
    }
    let p = parse_flags(
        &words[1..],
        &[NS, flag("output", Some('o'))],
        "kubectl set image",
    )?;
    let format = inline(p.get("output"), &NoFiles)?;
    let (res, pairs): (Vec<String>, Vec<String>) =
        p.args.iter().cloned().partition(|a| !a.contains('='));
    if pairs.is_empty() {
        return Err("error: at least one image update is required".into());
    }
    let (kind, name) = one_target(
        &Parsed {
            args: res,
            ..Default::default()
        },
        "set image",
    )?;
    let key = key_for(kind, &namespace(&p), &name);
    let before = get_cloned(c, k, kind, &key)?;
    let mut obj = before.clone();
    let Some(spec) = pod_spec_of(&mut obj) else {
        return Err(format!(
            "error: {} does not have containers",
            kind.resource()
        ));
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
    if before == obj {
        return Ok(String::new());
    }
    let r = k.patch(c, "", obj).map_err(api)?;
    let shown = super::util::served(c, r.object.map(|o| o.to_json()).unwrap_or_default());
    let text = Reporter::new(format).typed_object(
        kind,
        &shown,
        &qualified_name(kind, &name),
        "image updated",
    )?;
    Ok(text.trim_end_matches('\n').to_string())
}

/// The Pod spec of an object that has one (`UpdatePodSpecForObjectFn`).
pub(super) fn pod_spec_of(obj: &mut Object) -> Option<&mut PodSpec> {
    Some(match obj {
        Object::Deployment(d) => &mut d.spec.template.spec,
        Object::ReplicaSet(r) => &mut r.spec.template.spec,
        Object::Pod(p) => &mut p.spec,
        Object::DaemonSet(d) => &mut d.spec.template.spec,
        Object::StatefulSet(s) => &mut s.spec.template.spec,
        Object::Job(j) => &mut j.spec.template.spec,
        Object::CronJob(j) => &mut j.spec.job_template.spec.template.spec,
        _ => return None,
    })
}

/// `populateResourceListV1`: `cpu=100m,memory=256Mi` as a resource list, each
/// quantity as the API prints it.
fn resource_list(spec: &str) -> Result<StringMap, String> {
    let mut out = StringMap::new();
    if spec.is_empty() {
        return Ok(out);
    }
    for statement in spec.split(',') {
        let parts: Vec<&str> = statement.split('=').collect();
        if parts.len() != 2 {
            return Err(format!(
                "error: Invalid argument syntax {statement}, expected <resource>=<value>"
            ));
        }
        if crate::api::quantity::parse_bytes(parts[1]).is_none() {
            return Err("error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'".into());
        }
        out.insert(
            parts[0].to_string(),
            crate::apiserver::limit_ranger::canonical(parts[0], parts[1]),
        );
    }
    Ok(out)
}

/// `filepath.Match` for container names: `*` any run, `?` one character.
pub(super) fn glob_match(pattern: &str, name: &str) -> bool {
    let (p, n): (Vec<char>, Vec<char>) = (pattern.chars().collect(), name.chars().collect());
    // Classic two-pointer wildcard match with backtracking to the last `*`.
    let (mut i, mut j, mut star, mut mark) = (0, 0, None, 0);
    while j < n.len() {
        if i < p.len() && (p[i] == '?' || p[i] == n[j]) {
            i += 1;
            j += 1;
        } else if i < p.len() && p[i] == '*' {
            star = Some(i);
            mark = j;
            i += 1;
        } else if let Some(s) = star {
            i = s + 1;
            mark += 1;
            j = mark;
        } else {
            return false;
        }
    }
    p[i..].iter().all(|c| *c == '*')
}

/// `kubectl set resources TYPE NAME… [-c CONTAINERS] --limits=… --requests=…`
/// (`set_resources.go`): the named requests and limits set on every selected container
/// of each object's Pod template; `resource requirements updated`, or nothing when
/// nothing changed.
fn set_resources(c: &mut Cluster, k: &Client, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            NS,
            flag("containers", Some('c')),
            flag("limits", None),
            flag("requests", None),
            flag("output", Some('o')),
        ],
        "kubectl set resources",
    )?;
    let mut printer = Reporter::new(inline(p.get("output"), &NoFiles)?);
    let (limits, requests) = (
        p.get("limits").unwrap_or_default(),
        p.get("requests").unwrap_or_default(),
    );
    if limits.is_empty() && requests.is_empty() {
        return Err("error: you must specify an update to requests or limits (in the form of --requests/--limits)".into());
    }
    let (limit_list, request_list) = (resource_list(limits)?, resource_list(requests)?);
    let objects = targets(&p.args)?;
    if objects.is_empty() {
        return Err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into());
    }
    let selector = p.get("containers").unwrap_or("*");
    let ns = namespace(&p);
    let (mut out, mut errs) = (Vec::new(), Vec::new());
    for (kind, name) in objects {
        let key = key_for(kind, &ns, &name);
        let before = match get_cloned(c, k, kind, &key) {
            Ok(o) => o,
            Err(e) => {
                errs.push(e);
                continue;
            }
        };
        let mut obj = before.clone();
        let qn = qualified_name(kind, &name);
        let Some(spec) = pod_spec_of(&mut obj) else {
            // `Info.ObjectName()`: the resource's plural with a server's mapping.
            errs.push(format!(
                "error: {}/{name} the object is not a pod or does not have a pod template: *v1.{}",
                kind.resource(),
                kind.name()
            ));
            continue;
        };
        let mut selected = 0;
        for ct in spec
            .containers
            .iter_mut()
            .filter(|ct| glob_match(selector, &ct.name))
        {
            selected += 1;
            ct.resources.limits.extend(limit_list.clone());
            ct.resources.requests.extend(request_list.clone());
        }
        if selected == 0 {
            errs.push(format!("error: unable to find container named {selector}"));
            continue;
        }
        if before == obj {
            continue;
        }
        match k.patch(c, "", obj) {
            Ok(r) => {
                let shown =
                    super::util::served(c, r.object.map(|o| o.to_json()).unwrap_or_default());
                out.push(printer.typed_object(
                    kind,
                    &shown,
                    &qn,
                    "resource requirements updated",
                )?)
            }
            Err(e) => errs.push(format!(
                "error: failed to patch resources update to pod template {}",
                e.message
            )),
        }
    }
    // Each chunk ends its own lines (a template prints only what it says).
    let printed = out.concat();
    if errs.is_empty() {
        Ok(printed.trim_end_matches('\n').to_string())
    } else {
        Err(format!("{printed}{}", aggregate(&errs)))
    }
}

/// `KEY=VALUE` pairs to set (sorted by key) and keys to remove.
type PairChanges = (Vec<(String, String)>, Vec<String>);

/// `cmdutil.GetResourcesAndPairs`: resource words first, then `KEY=VALUE` / `KEY-`.
fn resources_and_pairs(
    args: &[String],
    pair_type: &str,
) -> Result<(Vec<String>, Vec<String>), String> {
    let (mut resources, mut pairs) = (Vec::new(), Vec::new());
    for a in args {
        let pair = (a.contains('=') && !a.starts_with('=')) || (a.ends_with('-') && a != "-");
        if pair {
            pairs.push(a.clone());
        } else if !pairs.is_empty() {
            return Err(format!(
                "error: all resources must be specified before {pair_type} changes: {a}"
            ));
        } else {
            resources.push(a.clone());
        }
    }
    Ok((resources, pairs))
}

/// `label.go`'s `parseLabels`: new labels (sorted, for a deterministic order where Go
/// ranges over a map) and removals.
fn parse_labels(specs: &[String]) -> Result<PairChanges, String> {
    let mut new: Vec<(String, String)> = Vec::new();
    let mut remove = Vec::new();
    for spec in specs {
        if spec.contains('=') {
            let parts: Vec<&str> = spec.split('=').collect();
            if parts.len() != 2 {
                return Err(format!("error: invalid label spec: {spec}"));
            }
            let errs = label_value_errors(parts[1]);
            if !errs.is_empty() {
                return Err(format!(
                    "error: invalid label value: \"{spec}\": {}",
                    errs.join(";")
                ));
            }
            new.retain(|(k, _)| k != parts[0]);
            new.push((parts[0].to_string(), parts[1].to_string()));
        } else if let Some(k) = spec.strip_suffix('-') {
            remove.push(k.to_string());
        } else {
            return Err(format!("error: unknown label spec: {spec}"));
        }
    }
    if remove.iter().any(|r| new.iter().any(|(k, _)| k == r)) {
        return Err("error: can not both modify and remove a label in the same command".into());
    }
    crate::sorting::sort(&mut new);
    Ok((new, remove))
}

/// `cmdutil.ParsePairs(…, "annotation", true)` and `validateAnnotations`.
fn parse_annotations(specs: &[String]) -> Result<PairChanges, String> {
    let mut new: Vec<(String, String)> = Vec::new();
    let mut remove = Vec::new();
    let mut invalid = Vec::new();
    for spec in specs {
        if spec.contains('=') && !spec.starts_with('=') {
            let (k, v) = spec.split_once('=').unwrap_or((spec, ""));
            new.retain(|(x, _)| x != k);
            new.push((k.to_string(), v.to_string()));
        } else if spec.ends_with('-') && spec != "-" {
            remove.push(spec[..spec.len() - 1].to_string());
        } else {
            invalid.push(spec.as_str());
        }
    }
    if !invalid.is_empty() {
        return Err(format!(
            "error: invalid annotation format: {}",
            invalid.join(", ")
        ));
    }
    let both: Vec<&str> = remove
        .iter()
        .filter(|r| new.iter().any(|(k, _)| k == *r))
        .map(String::as_str)
        .collect();
    if !both.is_empty() {
        return Err(format!(
            "error: can not both modify and remove the following annotation(s) in the same command: {}",
            both.join(", ")
        ));
    }
    crate::sorting::sort(&mut new);
    Ok((new, remove))
}

/// `utilerrors.NewAggregate(…).Error()`: one message alone, several in brackets.
fn aggregate(errs: &[String]) -> String {
    match errs {
        [one] => one.clone(),
        many => format!("[{}]", many.join(", ")),
    }
}

/// `kubectl label` (or `kubectl annotate` when `annotations`): `KEY=VALUE` sets,
/// `KEY-` removes, on named objects or those `-l`/`--field-selector`/`--all` select
/// (`label.go` `RunLabel`, `annotate.go` `RunAnnotate`).
pub(super) fn label(c: &mut Cluster, k: &Client, words: &[String], annotations: bool) -> R {
    let verb = if annotations { "annotate" } else { "label" };
    let what = if annotations { "annotation" } else { "label" };
    let p = parse_flags(
        words,
        &[
            NS,
            bool_flag("overwrite", None),
            flag("selector", Some('l')),
            flag("field-selector", None),
            bool_flag("all", None),
            bool_flag("all-namespaces", Some('A')),
            flag("output", Some('o')),
        ],
        &format!("kubectl {verb}"),
    )?;
    // annotate.go builds its printer in Complete, before anything is sent; label.go's
    // `ToPrinter` runs after each object's patch, so a bad `-o` is met with the
    // object already labelled (real kubectl v1.33 does so).
    let format = inline(p.get("output"), &NoFiles);
    let mut printer = Reporter::new(match &format {
        Err(e) if annotations => return Err(e.clone()),
        Err(_) => None,
        Ok(f) => f.clone(),
    });
    let (res, changes) = resources_and_pairs(&p.args, what)?;
    let (new, remove) = if annotations {
        parse_annotations(&changes)?
    } else {
        parse_labels(&changes)?
    };
    let (sel, fsel, all) = (p.get("selector"), p.get("field-selector"), p.bool("all"));
    validate_label_args(&p, &res, new.is_empty() && remove.is_empty(), what)?;
    let ns = namespace(&p);
    let ns_filter = (!p.bool("all-namespaces")).then_some(ns.as_str());
    let keys = label_targets(c, k, &res, (sel, fsel, all), (&ns, ns_filter))?;
    // ContinueOnError: every object is tried; the errors are reported after.
    let mut out = Vec::new();
    let mut errors = Vec::new();
    for (kind, key, listed) in keys {
        let live = match listed {
            Some(o) => o,
            None => match get_cloned(c, k, kind, &key) {
                Ok(o) => o,
                Err(e) => {
                    errors.push(e);
                    continue;
                }
            },
        };
        let mut obj = live.clone();
        let map = if annotations {
            &mut obj.meta_mut().annotations
        } else {
            &mut obj.meta_mut().labels
        };
        if !annotations {
            for r in &remove {
                if !map.contains_key(r) {
                    out.push(format!("label \"{r}\" not found.\n"));
                }
            }
        }
        if !p.bool("overwrite") {
            if let Some(e) = overwrite_refused(map, &new, annotations) {
                errors.push(e);
                continue;
            }
        }
        for (k, v) in &new {
            map.insert(k.clone(), v.clone());
        }
        for r in &remove {
            map.remove(r);
        }
        let unchanged = live == obj;
        // label.go's updateDataChangeMsg compares the JSON before and after: shorter
        // without --overwrite reads "unlabeled".
        let shrank = obj.to_json().to_string().len() < live.to_json().to_string().len();
        // annotate prints the server's answer (the object as read, when nothing
        // changed and nothing was sent); label prints its own copy as read with the
        // labels changed (label.go's `PrintObj(info.Object)`): the resourceVersion and
        // managers it read.
        let local = super::util::served(c, obj.to_json());
        let mut shown = super::util::served(c, live.to_json());
        if !unchanged {
            match k.patch(c, "", obj) {
                Ok(r) => {
                    if let Some(o) = r.object.filter(|_| annotations) {
                        shown = super::util::served(c, o.to_json());
                    }
                }
                Err(e) => {
                    errors.push(api(e));
                    continue;
                }
            }
        }
        if let Err(e) = &format {
            errors.push(e.clone());
            continue;
        }
        if !annotations {
            shown = local;
        }
        let word = match (annotations, unchanged, shrank && !p.bool("overwrite")) {
            (true, _, _) => "annotated",
            (false, true, _) => "not labeled",
            (false, false, true) => "unlabeled",
            (false, false, false) => "labeled",
        };
        out.push(printer.object(&shown, &qualified_name(kind, &key.name), word)?);
    }
    // Each chunk ends its own lines (a template prints only what it says).
    let printed = out.concat();
    if errors.is_empty() {
        Ok(printed.trim_end_matches('\n').to_string())
    } else {
        Err(format!("{printed}{}", errors.join("\n")))
    }
}

/// `kubectl label`/`annotate`'s Validate: `--all` with no selector, some resource, and
/// some change (`nothing` when there is none) to the `what`s (labels or annotations).
fn validate_label_args(
    p: &Parsed,
    res: &[String],
    nothing: bool,
    what: &str,
) -> Result<(), String> {
    let all = p.bool("all");
    if all && p.get("selector").is_some() {
        return Err("error: cannot set --all and --selector at the same time".into());
    }
    if all && p.get("field-selector").is_some() {
        return Err("error: cannot set --all and --field-selector at the same time".into());
    }
    if res.is_empty() {
        return Err("error: one or more resources must be specified as <resource> <name> or <resource>/<name>".into());
    }
    if nothing {
        return Err(format!("error: at least one {what} update is required"));
    }
    Ok(())
}

/// The objects `kubectl label`/`annotate` visits, each with what the list already read
/// of it (none: a GET by name). The resource builder's ResourceTypeOrNameArgs: `TYPE`
/// with a selector or --all means every matching object; otherwise names are required.
fn label_targets(
    c: &mut Cluster,
    k: &Client,
    res: &[String],
    (sel, fsel, all): (Option<&str>, Option<&str>, bool),
    (ns, ns_filter): (&str, Option<&str>),
) -> Result<Vec<(Kind, ObjKey, Option<Object>)>, String> {
    if res.len() == 1 && !res[0].contains('/') && (sel.is_some() || fsel.is_some() || all) {
        let mut out = Vec::new();
        for t in res[0].split(',') {
            let kind = super::util::kind_arg(t)?;
            let ls = sel.map(parse_label_selector).transpose()?;
            let fs = fsel.map(|f| parse_field_selector(kind, f)).transpose()?;
            let found = k
                .list(
                    c,
                    kind,
                    ns_filter,
                    ls.as_ref(),
                    fs.as_deref().unwrap_or(&[]),
                )
                .map_err(api)?;
            out.extend(
                found
                    .iter()
                    .map(|o| (kind, ObjKey::of(o.meta()), Some((**o).clone()))),
            );
        }
        // No match: label.go visits nothing and prints nothing.
        return Ok(out);
    }
    let t = targets(res)?;
    if t.is_empty() {
        return Err("error: resource(s) were provided, but no name was specified".into());
    }
    Ok(t.into_iter()
        .map(|(kind, n)| (kind, key_for(kind, ns, &n), None))
        .collect())
}

/// Without `--overwrite`: the error for the keys `new` would change in `map` (labels,
/// or annotations when `annotations`), in label.go's or annotate.go's words; None when
/// none would.
fn overwrite_refused(
    map: &StringMap,
    new: &[(String, String)],
    annotations: bool,
) -> Option<String> {
    // annotate.go's validateNoAnnotationOverwrites skips the change-cause
    // annotation: `kubectl annotate … kubernetes.io/change-cause=…` always
    // replaces it.
    let clashes: Vec<(&String, &String)> = new
        .iter()
        .filter(|(k, _)| !(annotations && k == CHANGE_CAUSE))
        .filter_map(|(k, v)| map.get(k).filter(|old| *old != v).map(|old| (k, old)))
        .collect();
    if clashes.is_empty() {
        return None;
    }
    Some(if annotations {
        let list: Vec<String> = clashes
            .iter()
            .map(|(k, old)| format!("'{k}' already has a value ({old})"))
            .collect();
        format!(
            "error: --overwrite is false but found the following declared annotation(s): {}",
            list.join("; ")
        )
    } else {
        let list: Vec<String> = clashes
            .iter()
            .map(|(k, old)| format!("'{k}' already has a value ({old}), and --overwrite is false"))
            .collect();
        format!("error: {}", aggregate(&list))
    })
}

// ---- patch ----------------------------------------------------------------------------

/// Keep the fields serde skips (simulated times) across a JSON round trip.
fn restore_hidden(orig: &Object, new: &mut Object) {
    let o = orig.meta();
    let m = new.meta_mut();
    m.created_ms = o.created_ms;
    m.deletion_ms = o.deletion_ms;
}

/// `kubectl patch TYPE NAME -p PATCH [--type=strategic|merge] [--subresource=…]`: the
/// patch goes to the API server, which applies it to the live object (a
/// `metadata.resourceVersion` in it is a precondition).
pub(super) fn patch(c: &mut Cluster, k: &Client, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            NS,
            flag("patch", Some('p')),
            flag("type", None),
            flag("subresource", None),
            flag("output", Some('o')),
        ],
        "kubectl patch",
    )?;
    // patch.go's `ToPrinter` runs after the patch: a bad `-o` is met with the object
    // already patched (real kubectl v1.33 does so).
    let format = inline(p.get("output"), &NoFiles);
    // `PatchOptions.Validate`: the subresources kubectl knows.
    let subresource = match p.get("subresource").filter(|s| !s.is_empty()) {
        None => "",
        Some("status") => "status",
        Some("scale") => "scale",
        Some(sr) => {
            return Err(format!(
                "error: invalid subresource value: \"{sr}\". Must be one of [status scale]"
            ))
        }
    };
    let (kind, name) = one_target(&p, "patch")?;
    let body = p.get("patch").ok_or(
        "error: must specify --patch or --patch-file containing the contents of the patch",
    )?;
    // The patch is YAML too: bound its nesting before the parser (`yaml_depth`).
    crate::yaml_depth::check(body)
        .map_err(|e| format!("error: unable to parse \"{body}\": {e}"))?;
    crate::yaml_depth::check_expansion(body)
        .map_err(|e| format!("error: unable to parse \"{body}\": {e}"))?;
    let patch: serde_json::Value = serde_yaml_ng::from_str(body)
        .map_err(|e| format!("error: unable to parse \"{body}\": {e}"))?;
    let t = match p.get("type").unwrap_or("strategic") {
        "merge" => PatchType::Merge,
        "strategic" => PatchType::Strategic,
        "json" => PatchType::Json,
        t => {
            return Err(format!(
                "error: --type must be one of [json merge strategic], not \"{t}\""
            ))
        }
    };
    let key = key_for(kind, &namespace(&p), &name);
    let r = k
        .patch_doc(c, kind, &key, subresource, t, patch)
        .map_err(api)?;
    // The object printed is the one the server answered with: a Scale for the scale
    // subresource.
    let (shown, object) = match (subresource, &r.object) {
        ("scale", o) => (
            format!("scale.autoscaling/{name}"),
            o.as_ref()
                .and_then(|o| crate::apiserver::patch::scale_of(o))
                .unwrap_or_default(),
        ),
        (_, o) => (
            qualified_name(kind, &name),
            super::util::served(c, o.as_ref().map(|o| o.to_json()).unwrap_or_default()),
        ),
    };
    let operation = if r.unchanged {
        "patched (no change)"
    } else {
        "patched"
    };
    let text = Reporter::new(format?).object(&object, &shown, operation)?;
    Ok(text.trim_end_matches('\n').to_string())
}

/// `kubectl edit TYPE NAME`: kubeplay has no editor, so the edited object comes as a
/// heredoc (`kubectl edit deployment web <<EOF … EOF`), as if saved in the editor
/// `kubectl edit` opened on the object now. As upstream (`editoptions.go`): an
/// unchanged buffer cancels; a changed apiVersion, kind or name is refused; otherwise
/// the difference is sent as a patch — and the buffer's `metadata.resourceVersion`,
/// when it is not the live one (the text was taken before someone else wrote the
/// object), is part of that patch, so the API server refuses it with 409 and kubectl
/// says how to retry.
pub(super) fn edit(c: &mut Cluster, k: &Client, words: &[String], stdin: Option<&str>) -> R {
    let p = parse_flags(
        words,
        &[NS, flag("output", Some('o')), flag("validate", None)],
        "kubectl edit",
    )?;
    let (kind, name) = one_target(&p, "edit")?;
    let key = key_for(kind, &namespace(&p), &name);
    let live = get_cloned(c, k, kind, &key)?;
    let Some(text) = stdin else {
        return Err(format!(
            "error: kubeplay has no editor: give the edited object as a heredoc, e.g.\n  kubectl edit {} {name} <<EOF\n  …the object as `kubectl get {} {name} -o yaml` prints it, changed…\n  EOF",
            kind.resource(),
            kind.resource()
        ));
    };
    let docs = crate::manifest::parse(text, "edit").map_err(|e| format!("error: {e}"))?;
    let [doc] = docs.as_slice() else {
        return Err("error: the edited file must hold exactly one object".into());
    };
    let edited = &doc.source;
    let original = live.to_json();
    // `editFn`'s preconditions: RequireKeyUnchanged(apiVersion, kind, metadata.name).
    let same = |ptr: &str| edited.pointer(ptr) == original.pointer(ptr);
    if !same("/apiVersion") || !same("/kind") || !same("/metadata/name") {
        return Err("error: At least one of apiVersion, kind and name was changed".into());
    }
    let mut mine = doc.object.clone();
    if mine.kind().namespaced() && mine.meta().namespace.is_empty() {
        mine.meta_mut().namespace = key.namespace.clone();
    }
    let patch = super::three_way::three_way_patch(None, edited, &original);
    let empty = patch.as_object().is_none_or(|m| m.is_empty());
    if empty {
        return Ok("Edit cancelled, no changes made.".into());
    }
    // The status is its subresource's; the server keeps the live one.
    let rv_in_patch = patch.pointer("/metadata/resourceVersion").is_some();
    restore_hidden(&live, &mut mine);
    {
        let m = mine.meta_mut();
        let l = live.meta();
        m.uid = l.uid.clone();
        m.creation_timestamp = l.creation_timestamp.clone();
        if !rv_in_patch {
            m.resource_version.clear();
        }
    }
    match k.patch(c, "", mine) {
        Ok(_) => Ok(format!("{} edited", qualified_name(kind, &name))),
        Err(e) if e.code == 409 => Err(format!(
            "error: {} \"{name}\" could not be patched: {}\nYou can run `kubectl replace -f /tmp/kubectl-edit-{}.yaml` to try this update again.",
            kind.qualified_resource(),
            e.message,
            c.store.revision()
        )),
        Err(e) => Err(api(e)),
    }
}
