//! `kubectl diff -f FILE`: each object as it is (LIVE) beside what applying the file
//! would make of it (MERGED, the API server's answer to the same apply sent as a dry
//! run), printed as `diff -u -N` prints the two directories kubectl writes them to.
//! Differences are exit status 1 with nothing else said, as kubectl's.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/diff/diff.go` (`DiffOptions.Run`,
//! `InfoObject.Merged`, `Differ.Diff`, `omitManagedFields`, `Masker`, `InfoObject.Name`).

use super::apply::{modified_configuration, LAST_APPLIED};
use super::create::common::*;
use super::util::{api, key_for, namespace, NS, R};
use crate::api::*;
use crate::apiserver::patch::PatchType;
use crate::apiserver::selectors::parse_label_selector;
use crate::apiserver::{ApiError, ObjKey};
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, FlagSpec};
use crate::command::client::Client;
use crate::command::Files;
use serde_json::Value;
use std::collections::BTreeMap;

const DIFF_FLAGS: &[FlagSpec] = &[
    flag("filename", Some('f')),
    NS,
    bool_flag("server-side", None),
    bool_flag("force-conflicts", None),
    flag("field-manager", None),
    bool_flag("show-managed-fields", None),
    flag("selector", Some('l')),
    flag("concurrency", None),
    bool_flag("prune", None),
];

/// `maxRetries`: tries before a diff is made without the resourceVersion lock.
const MAX_RETRIES: usize = 4;

/// `GroupVersion.String()`: `apps/v1`, `v1`.
fn group_version(kind: Kind) -> &'static str {
    kind.api_version()
}

/// `diff.go`'s masks of a Secret's values.
const MASK: &str = "***";
const MASK_BEFORE: &str = "*** (before)";
const MASK_AFTER: &str = "*** (after)";

/// `kubectl diff -f FILE`.
pub(super) fn diff(
    c: &mut Cluster,
    k: &Client,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
) -> R {
    let p = parse_flags(words, DIFF_FLAGS, "kubectl diff")?;
    if !p.args.is_empty() {
        return Err(format!(
            "error: Unexpected args: [{}]\nSee 'kubectl diff -h' for help and examples",
            p.args.join(" ")
        ));
    }
    if p.bool("prune") {
        return Err("error: kubeplay's diff does not prune: --prune is not supported here".into());
    }
    let docs = read_manifest(&p, stdin, files)?;
    let server_side = p.bool("server-side");
    if p.bool("force-conflicts") && !server_side {
        return Err("error: --force-conflicts only works with --server-side".into());
    }
    let manager = p.get("field-manager").unwrap_or(if server_side {
        "kubectl"
    } else {
        "kubectl-client-side-apply"
    });
    let selector = p.get("selector").map(parse_label_selector).transpose()?;
    let ns = namespace(&p);
    // The merged version is the API server's answer to a dry run.
    let mut dry = k.with_manager(manager);
    dry.server_dry_run = true;
    let mut out = String::new();
    // The two directories' files, by name (a later object of the same name replaces
    // the file, as `os.O_TRUNC` does).
    let mut versions: BTreeMap<String, (String, String)> = BTreeMap::new();
    for doc in docs {
        if let Some(sel) = &selector {
            if !sel.matches(&doc.object.meta().labels) {
                continue;
            }
        }
        let mut obj = doc.object;
        strip_server_fields(&mut obj);
        let kind = obj.kind();
        let obj_namespace = if !kind.namespaced() {
            String::new()
        } else if obj.meta().namespace.is_empty() {
            ns.clone()
        } else {
            obj.meta().namespace.clone()
        };
        obj.meta_mut().namespace = obj_namespace.clone();
        let key = key_for(kind, &obj_namespace, &obj.meta().name);
        // `DiffOptions.Run`: a conflict (the object changed between the read and the
        // dry run, or a server-side apply's conflict) is read and tried again, the
        // last of `maxRetries` tries warned of.
        let (live, merged) = {
            let mut attempt = 1;
            loop {
                let live = k.get_opt(c, kind, &key).map_err(api)?;
                out.push_str(&k.warning_lines());
                if attempt == MAX_RETRIES {
                    out.push_str(&format!(
                        "W{} {:>7} diff.go:723] Object ({}, Kind={}: {}) keeps changing, diffing without lock\n",
                        crate::time::klog_stamp(c.now()),
                        super::refused::KUBECTL_PID,
                        group_version(kind),
                        kind.name(),
                        key.name
                    ));
                }
                let answer = merged(
                    c,
                    &dry,
                    obj.clone(),
                    live.as_deref(),
                    &doc.source,
                    manager,
                    &p,
                );
                out.push_str(&dry.warning_lines());
                match answer {
                    Err(e) if e.code == 409 && e.reason == "Conflict" && attempt < MAX_RETRIES => {
                        attempt += 1;
                    }
                    Err(e) => return Err(format!("{out}{}", api(e))),
                    Ok(m) => break (live, m),
                }
            }
        };
        let show = p.bool("show-managed-fields");
        let mut from = live.map(|o| shown(c, o.to_json(), show));
        let mut to = merged.map(|o| shown(c, o, show));
        if kind == Kind::Secret {
            mask_secret(from.as_mut(), to.as_mut());
        }
        let yaml = |v: Option<Value>| v.map(|v| crate::printers::yaml::to_yaml(&v));
        versions.insert(
            file_name(kind, &key),
            (yaml(from).unwrap_or_default(), yaml(to).unwrap_or_default()),
        );
    }
    let text = print_diff(c, &versions);
    if text.is_empty() {
        return Ok(out);
    }
    // diff(1)'s status 1: kubectl exits 1 and prints nothing more.
    Err(format!("{out}{text}"))
}

/// `InfoObject.Merged`: a server-side apply sent as a dry run; a dry-run create of an
/// object that is not there; otherwise client-side apply's three-way patch, sent as a
/// dry run (the live object itself when the patch is empty, as the patcher returns
/// it).
fn merged(
    c: &mut Cluster,
    dry: &Client,
    obj: Object,
    live: Option<&Object>,
    source: &Value,
    manager: &str,
    p: &crate::command::args::Parsed,
) -> Result<Option<Value>, ApiError> {
    let kind = obj.kind();
    let key = ObjKey::of(obj.meta());
    let ns = obj_ns(kind, &key);
    if p.bool("server-side") {
        let r = dry.apply(
            c,
            kind,
            &key,
            source.clone(),
            manager,
            p.bool("force-conflicts"),
        )?;
        return Ok(r.object.map(|o| o.to_json()));
    }
    let Some(live) = live else {
        // The manifest as read: diff sends no last-applied annotation.
        let r = dry.create(c, obj)?;
        return Ok(r.object.map(|o| o.to_json()));
    };
    // `GetModifiedConfiguration(obj, annotate=false)`: the manifest with its
    // annotations, less a last-applied one, so the patch leaves that annotation as
    // it is.
    let mut modified = modified_configuration(source, &ns);
    if let Some(a) = modified
        .pointer_mut("/metadata/annotations")
        .and_then(Value::as_object_mut)
    {
        a.remove(LAST_APPLIED);
    }
    let original = live
        .meta()
        .annotations
        .get(LAST_APPLIED)
        .and_then(|a| serde_json::from_str::<Value>(a).ok());
    let patch = super::three_way::three_way_patch(original.as_ref(), &modified, &live.to_json());
    if patch.as_object().is_none_or(|m| m.is_empty()) {
        return Ok(Some(live.to_json()));
    }
    let r = dry.patch_doc(c, kind, &key, "", PatchType::Strategic, patch)?;
    Ok(r.object.map(|o| o.to_json()))
}

/// `omitManagedFields`, unless `--show-managed-fields`: then the managers the API
/// server serves with the object (the stored ones: a dry run's answer carries the
/// live object's managers here).
fn shown(c: &Cluster, v: Value, show_managed_fields: bool) -> Value {
    if show_managed_fields {
        super::util::served(c, v)
    } else {
        super::print_flags::omit_managed_fields(&v)
    }
}

/// `Masker.run`: every value of a Secret's `data` masked; a key on both sides whose
/// values differ masked as before and after, so that the change still shows.
fn mask_secret(from: Option<&mut Value>, to: Option<&mut Value>) {
    let data = |v: Option<&mut Value>| -> Option<serde_json::Map<String, Value>> {
        v.and_then(|v| v.get("data"))
            .and_then(Value::as_object)
            .cloned()
    };
    let (mut from, mut to) = (from, to);
    let before = data(from.as_deref_mut());
    let after = data(to.as_deref_mut());
    let (mut f, mut t) = (before.clone(), after.clone());
    if let (Some(f), Some(b)) = (f.as_mut(), before.as_ref()) {
        for (key, value) in b {
            match after.as_ref().and_then(|a| a.get(key)) {
                Some(other) if other != value => {
                    f.insert(key.clone(), MASK_BEFORE.into());
                    if let Some(t) = t.as_mut() {
                        t.insert(key.clone(), MASK_AFTER.into());
                    }
                }
                Some(_) => {
                    f.insert(key.clone(), MASK.into());
                    if let Some(t) = t.as_mut() {
                        t.insert(key.clone(), MASK.into());
                    }
                }
                None => {
                    f.insert(key.clone(), MASK.into());
                }
            }
        }
    }
    if let Some(t) = t.as_mut() {
        for key in after.iter().flat_map(|a| a.keys()) {
            if before.as_ref().is_none_or(|b| !b.contains_key(key)) {
                t.insert(key.clone(), MASK.into());
            }
        }
    }
    for (side, masked) in [(from, f), (to, t)] {
        if let (Some(v), Some(m)) = (side, masked) {
            v["data"] = Value::Object(m);
        }
    }
}

/// `InfoObject.Name`: `GROUP.VERSION.KIND.NAMESPACE.NAME`, the group and its dot left
/// out for the core group.
fn file_name(kind: Kind, key: &ObjKey) -> String {
    let api_version = kind.api_version();
    let (group, version) = api_version.split_once('/').unwrap_or(("", api_version));
    let group = if group.is_empty() {
        String::new()
    } else {
        format!("{group}.")
    };
    format!(
        "{group}{version}.{}.{}.{}",
        kind.name(),
        key.namespace,
        key.name
    )
}

/// `diff -u -N LIVE-… MERGED-…` over the two directories: each file that differs, in
/// name order, under its `diff` line and its two headers (the files' times are the
/// simulated clock's; the directories are named by it).
fn print_diff(c: &Cluster, versions: &BTreeMap<String, (String, String)>) -> String {
    let stamp = crate::time::rfc3339_micro(c.now())
        .replace('T', " ")
        .replace('Z', "000 +0000");
    let dirs = (
        format!(
            "/tmp/LIVE-{}",
            1_000_000_000 + c.now() / 1000 % 1_000_000_000
        ),
        format!(
            "/tmp/MERGED-{}",
            2_000_000_000 + c.now() / 1000 % 1_000_000_000
        ),
    );
    let mut out = String::new();
    for (name, (live, merged)) in versions {
        let hunks = crate::printers::unified_diff::hunks(live, merged);
        if hunks.is_empty() {
            continue;
        }
        let (a, b) = (format!("{}/{name}", dirs.0), format!("{}/{name}", dirs.1));
        out.push_str(&format!(
            "diff -u -N {a} {b}\n--- {a}\t{stamp}\n+++ {b}\t{stamp}\n{hunks}"
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_file_is_named_by_group_version_kind_namespace_and_name() {
        let key = ObjKey::new("default", "web");
        assert_eq!(
            file_name(Kind::Deployment, &key),
            "apps.v1.Deployment.default.web"
        );
        assert_eq!(file_name(Kind::ConfigMap, &key), "v1.ConfigMap.default.web");
        let node = ObjKey::new("", "node-1");
        assert_eq!(file_name(Kind::Node, &node), "v1.Node..node-1");
    }

    #[test]
    fn a_secrets_values_are_masked_and_a_changed_one_shows_before_and_after() {
        let mut from = json!({"data": {"kept": "a", "changed": "b", "gone": "c"}});
        let mut to = json!({"data": {"kept": "a", "changed": "B", "added": "d"}});
        mask_secret(Some(&mut from), Some(&mut to));
        assert_eq!(
            from["data"],
            json!({"kept": "***", "changed": "*** (before)", "gone": "***"})
        );
        assert_eq!(
            to["data"],
            json!({"kept": "***", "changed": "*** (after)", "added": "***"})
        );
    }

    #[test]
    fn a_secret_that_is_not_there_yet_has_only_its_new_values_masked() {
        let mut to = json!({"data": {"a": "x"}});
        mask_secret(None, Some(&mut to));
        assert_eq!(to["data"], json!({"a": "***"}));
    }
}
