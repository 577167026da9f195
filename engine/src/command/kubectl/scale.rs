//! `kubectl scale`: `RunScale` in `staging/src/k8s.io/kubectl/pkg/cmd/scale/scale.go`
//! and `ScaleWithRetries`/`ScaleSimple` in `pkg/scale/scale.go` (v0.33.0).
//!
//! The resource builder (`ResourceTypeOrNameArgs`, `LabelSelectorParam`,
//! `ContinueOnError`) visits every object the arguments name: `TYPE NAME…`,
//! `TYPE/NAME…`, or `TYPE` with `-l` or `--all`. Each named object is read first (a
//! GET); one that is missing is an error kept for the end while the others are scaled.
//! Each scale is a merge patch of the `scale` subresource, read first when a
//! precondition (`--current-replicas`, `--resource-version`) must be checked.

use super::util::{api, int_flag, key_for, kind_arg, namespace, targets, NS, R};
use crate::api::*;
use crate::apiserver::patch::PatchType;
use crate::apiserver::selectors::parse_label_selector;
use crate::apiserver::{ApiError, ObjKey};
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, Parsed};
use crate::command::client::Client;
use crate::printers::qualified_name;

/// `kubectl scale … --replicas=N`.
pub(super) fn scale(c: &mut Cluster, k: &Client, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            NS,
            flag("replicas", None),
            flag("current-replicas", None),
            flag("resource-version", None),
            flag("timeout", None),
            flag("selector", Some('l')),
            bool_flag("all", None),
            flag("output", Some('o')),
        ],
        "kubectl scale",
    )?;
    let replicas = int_flag(
        p.get("replicas")
            .ok_or_else(|| super::required_flag("replicas"))?,
        "--replicas",
        64,
        "kubectl scale",
    )?;
    // scale.go's Validate.
    if replicas < 0 {
        return Err("error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0".into());
    }
    let mut printer = super::print_flags::Reporter::new(super::print_flags::inline(
        p.get("output"),
        &crate::command::NoFiles,
    )?);
    // scale.go waits for the new size only with --timeout; kubeplay answers at once.
    if p.get("timeout").is_some_and(|t| !matches!(t, "0" | "0s")) {
        return Err("error: kubeplay's scale does not wait; --timeout is not supported (use kubectl rollout status or kubectl wait)".into());
    }
    let current = current_replicas(&p)?;
    let resource_version = p.get("resource-version").filter(|v| !v.is_empty());
    let (infos, info_err) = visit(c, k, &p)?;
    if resource_version.is_some() && infos.len() > 1 {
        return Err("error: cannot use --resource-version with multiple resources".into());
    }
    if infos.is_empty() {
        // `fmt.Errorf("no objects passed to scale %w", infoErr)`: the aggregate's text.
        let text = match info_err.len() {
            0 => String::new(),
            1 => format!(" {}", info_err[0].message),
            _ => {
                let all: Vec<&str> = info_err.iter().map(|e| e.message.as_str()).collect();
                format!(" [{}]", all.join(", "))
            }
        };
        return Err(format!("error: no objects passed to scale{text}"));
    }
    let mut out = String::new();
    for (kind, key, read) in infos {
        let custom_scale =
            matches!(kind, Kind::Custom(_)) && crate::api::discovered::scale_paths(kind).is_some();
        if !matches!(
            kind,
            Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet
        ) && !custom_scale
        {
            // The scale client finds no scale subresource for the kind.
            return Err(format!(
                "{out}error: no scaler has been implemented for {{\"\" \"{}\"}}",
                kind.name()
            ));
        }
        if current.is_some() || resource_version.is_some() {
            let obj = k
                .get(c, kind, &key.namespace, &key.name)
                .map_err(|e| format!("{out}{}", api(e)))?;
            if let Err(e) = precondition(&obj, current, resource_version) {
                return Err(format!("{out}{e}"));
            }
        }
        // ScaleSimple: a merge patch of the scale subresource.
        let patch = serde_json::json!({"spec": {"replicas": replicas}});
        k.patch_doc(c, kind, &key, "scale", PatchType::Merge, patch)
            .map_err(|e| format!("{out}{}", api(e)))?;
        // `printer.PrintObj(info.Object)`: the object as the builder read it.
        let name = qualified_name(kind, &key.name);
        let text = printer
            .object(&read, &name, "scaled")
            .map_err(|e| format!("{out}{e}"))?;
        out.push_str(&text);
    }
    if info_err.is_empty() {
        return Ok(out.trim_end_matches('\n').to_string());
    }
    // The builder's errors come last, one a line as CheckErr prints an aggregate.
    let errors: Vec<String> = info_err.into_iter().map(api).collect();
    Err(format!("{out}{}", errors.join("\n")))
}

/// `--current-replicas`: -1, the flag's default, is no precondition.
fn current_replicas(p: &Parsed) -> Result<Option<i64>, String> {
    let Some(v) = p.get("current-replicas") else {
        return Ok(None);
    };
    let n: i64 = v.parse().map_err(|_| {
        format!("error: invalid argument \"{v}\" for \"--current-replicas\" flag: strconv.ParseInt: parsing \"{v}\": invalid syntax\nSee 'kubectl scale --help' for usage.")
    })?;
    Ok((n != -1).then_some(n))
}

/// `ScalePrecondition.validate`: the size, then the resource version, of the scale
/// as read.
fn precondition(obj: &Object, size: Option<i64>, rv: Option<&str>) -> Result<(), String> {
    if let Some(want) = size {
        let was = obj
            .to_json()
            .pointer("/spec/replicas")
            .and_then(serde_json::Value::as_i64)
            .unwrap_or(0);
        if want != was {
            return Err(format!("error: Expected replicas to be {want}, was {was}"));
        }
    }
    if let Some(want) = rv {
        let was = &obj.meta().resource_version;
        if want != was {
            return Err(format!(
                "error: Expected resource version to be {want}, was {was}"
            ));
        }
    }
    Ok(())
}

/// A named object the builder could not read.
type Missing = Vec<ApiError>;

/// The builder's visit: the objects found, and the errors of those that were not.
/// A builder's info: the object's kind, key, and the object as read.
type Info = (Kind, ObjKey, serde_json::Value);

fn visit(c: &mut Cluster, k: &Client, p: &Parsed) -> Result<(Vec<Info>, Missing), String> {
    let ns = namespace(p);
    let selector = p.get("selector");
    let all = p.bool("all");
    if p.args.is_empty() {
        return Err("error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into());
    }
    if p.args.len() == 1 && !p.args[0].contains('/') && (selector.is_some() || all) {
        let sel = selector.map(parse_label_selector).transpose()?;
        let mut found = Vec::new();
        for t in p.args[0].split(',') {
            let kind = kind_arg(t)?;
            let list = k.list(c, kind, Some(&ns), sel.as_ref(), &[]).map_err(api)?;
            found.extend(list.iter().map(|o| {
                (
                    kind,
                    ObjKey::of(o.meta()),
                    super::util::served(c, o.to_json()),
                )
            }));
        }
        return Ok((found, Vec::new()));
    }
    if selector.is_some() {
        return Err("error: name cannot be provided when a selector is specified".into());
    }
    let named = targets(&p.args)?;
    if named.is_empty() {
        return Err("error: resource(s) were provided, but no name was specified".into());
    }
    let (mut found, mut errors) = (Vec::new(), Vec::new());
    for (kind, name) in named {
        let key = key_for(kind, &ns, &name);
        match k.get(c, kind, &key.namespace, &key.name) {
            Ok(o) => found.push((kind, key, super::util::served(c, o.to_json()))),
            Err(e) => errors.push(e),
        }
    }
    Ok((found, errors))
}
