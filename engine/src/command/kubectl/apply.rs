//! `kubectl apply` (client-side, with its last-applied three-way merge, and
//! `--server-side`) and `kubectl replace`.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go`,
//! `staging/src/k8s.io/kubectl/pkg/cmd/replace/replace.go`.

use super::create::common::*;
use super::util::{api, key_for, namespace, NS, R};
use crate::api::*;
use crate::apiserver::patch::PatchType;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, FlagSpec, Parsed};
use crate::command::client::Client;
use crate::command::Files;
use crate::printers::qualified_name;

const APPLY_FLAGS: &[FlagSpec] = &[
    flag("filename", Some('f')),
    flag("validate", None),
    NS,
    bool_flag("server-side", None),
    bool_flag("force-conflicts", None),
    flag("field-manager", None),
    flag("output", Some('o')),
];

/// apply.go's words after a server-side apply's 409 (the API server's message first).
const SSA_CONFLICT_HELP: &str =
    "Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the `--force-conflicts` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts";

/// The word apply prints: with `--server-side` every outcome is `serverside-applied`
/// (apply.go prints that operation for each object it patched). A server-side apply
/// merges on the server with field ownership (`apiserver::managed_fields`): it owns
/// the fields its manifest names, conflicts with other managers' fields unless
/// `--force-conflicts`, and writes no last-applied annotation.
fn applied(p: &Parsed, client_side: &'static str) -> &'static str {
    if p.bool("server-side") {
        "serverside-applied"
    } else {
        client_side
    }
}

/// Where client-side apply keeps the manifest it last applied.
pub(super) const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// `kubectl apply -f FILE`: create what is missing, update what differs.
pub(super) fn apply(
    c: &mut Cluster,
    k: &Client,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
) -> R {
    let p = parse_flags(&bare_validate(words), APPLY_FLAGS, "kubectl apply")?;
    let server_side = p.bool("server-side");
    if p.bool("force-conflicts") && !server_side {
        return Err("error: --force-conflicts only works with --server-side".into());
    }
    let ns = namespace(&p);
    let v = validation(&p, "Error: ")?;
    let (docs, unmapped): (Vec<_>, Vec<_>) = read_manifest_each(&p, stdin, files)?
        .into_iter()
        .partition(Result::is_ok);
    let docs: Vec<_> = docs.into_iter().flatten().collect();
    let mut out = String::new();
    // apply.go collects each object's error and reports them after the others; the
    // builder's (a kind the server does not serve) come first (`GetObjects`).
    let mut errors: Vec<Failure> = unmapped
        .into_iter()
        .filter_map(Result::err)
        .map(Failure::from)
        .collect();
    // `-o`: `name` prints each object's name as it is applied; any other format prints
    // the objects the server answered with after all are applied (`printObjects`), its
    // printer made only then, so that a bad format fails after the writes.
    let format = p.get("output").filter(|o| !o.is_empty()).map(String::from);
    let mut printed: Vec<serde_json::Value> = Vec::new();
    let line = |out: &mut String, name: &str, operation: &'static str| match format.as_deref() {
        None => out.push_str(&format!("{name} {}\n", applied(&p, operation))),
        Some("name") => out.push_str(&format!("{name}\n")),
        Some(_) => {}
    };
    for doc in docs {
        // apply's first request is the GET of the live object.
        let live_key = key_for(
            doc.object.kind(),
            if doc.object.meta().namespace.is_empty() {
                &ns
            } else {
                &doc.object.meta().namespace
            },
            &doc.object.meta().name,
        );
        let got = k.get_opt(c, doc.object.kind(), &live_key);
        out.push_str(&k.warning_lines());
        let live = match got {
            Ok(live) => live,
            Err(e) => {
                errors.push(Failure::api(
                    e,
                    &source_name(&p),
                    &format!(
                        "retrieving current configuration of:\n{}\nfrom server for:",
                        info_string(doc.object.kind(), &live_key)
                    ),
                ));
                continue;
            }
        };
        let exists = live.is_some();
        // Why "patching" for a live object: client-side apply patches what exists.
        let verb = if exists { "patching" } else { "creating" };
        match field_validation(&doc, v, verb, &source_name(&p)) {
            Ok(warnings) => out.push_str(&warnings),
            Err(e) => {
                errors.push(e.into());
                continue;
            }
        }
        let mut obj = doc.object;
        strip_server_fields(&mut obj);
        if obj.kind().namespaced() && obj.meta().namespace.is_empty() {
            obj.meta_mut().namespace = ns.clone();
        }
        let kind = obj.kind();
        let key = ObjKey::of(obj.meta());
        if server_side {
            let manager = p.get("field-manager").unwrap_or("kubectl");
            let name = qualified_name(kind, &key.name);
            let force = p.bool("force-conflicts");
            match server_side_apply(c, k, kind, &key, &doc.source, manager, force) {
                Ok(mut o) => {
                    let warnings = super::csa_upgrade::after_server_side_apply(
                        c,
                        k,
                        kind,
                        &key,
                        &doc.source,
                        manager,
                        force,
                    );
                    out.push_str(&warnings);
                    // Each step that succeeded refreshed the object kubectl prints.
                    if !(k.server_dry_run || k.client_dry_run) {
                        o = c.store.get_shared(kind, &key).or(o);
                    }
                    line(&mut out, &name, "serverside-applied");
                    printed.extend(o.map(|o| super::util::served(c, o.to_json())));
                }
                Err(e) => errors.push(e.into()),
            }
            continue;
        }
        obj.meta_mut().annotations.insert(
            LAST_APPLIED.into(),
            last_applied(&doc.source, &obj_ns(kind, &key)),
        );
        let name = qualified_name(kind, &key.name);
        let Some(live) = live.map(|o| (*o).clone()) else {
            let answer = k.create(c, obj);
            out.push_str(&k.warning_lines());
            match answer {
                Ok(r) => {
                    line(&mut out, &name, "created");
                    printed.extend(r.object.map(|o| super::util::served(c, o.to_json())));
                }
                Err(e) => errors.push(Failure::api(e, &source_name(&p), "creating")),
            }
            continue;
        };
        let modified = modified_configuration(&doc.source, &obj_ns(kind, &key));
        // patcher.Patch warns of an object no apply wrote, then patches it anyway.
        if !live.meta().annotations.contains_key(LAST_APPLIED) {
            out.push_str(&format!(
                "Warning: resource {}/{} is missing the {LAST_APPLIED} annotation which is required by kubectl apply. kubectl apply should only be used on resources created declaratively by either kubectl create --save-config or kubectl apply. The missing annotation will be patched automatically.\n",
                kind.resource(),
                key.name
            ));
        }
        // The three-way patch (patcher.Patch): what the manifest changes, and what the
        // last apply set and the manifest dropped. Fields other writers set (a `kubectl
        // set resources` limit, the Deployment controller's annotations, a Pod's node)
        // are in neither, so they stay. The manifest's resourceVersion, when it is not
        // the live one, is part of the patch: the API server takes it as a precondition.
        let original = live
            .meta()
            .annotations
            .get(LAST_APPLIED)
            .and_then(|a| serde_json::from_str::<serde_json::Value>(a).ok());
        let patch =
            super::three_way::three_way_patch(original.as_ref(), &modified, &live.to_json());
        // apply.go: an empty patch is `unchanged`, and is not sent.
        if patch.as_object().is_none_or(|m| m.is_empty()) {
            line(&mut out, &name, "unchanged");
            printed.push(super::util::served(c, live.to_json()));
            continue;
        }
        let answer = k.patch_doc(c, kind, &key, "", PatchType::Strategic, patch.clone());
        out.push_str(&k.warning_lines());
        match answer {
            Ok(r) => {
                line(&mut out, &name, "configured");
                printed.extend(r.object.map(|o| super::util::served(c, o.to_json())));
            }
            Err(e) => {
                // apply.go: `applying patch:\n%s\nto:\n%v\nfor:` around the patcher's
                // own `error when patching`.
                let source = source_name(&p);
                errors.push(Failure::api(e, &source, "patching").within(
                    &source,
                    &format!(
                        "applying patch:\n{patch}\nto:\n{}\nfor:",
                        info_string(kind, &key)
                    ),
                ));
            }
        }
    }
    if errors.is_empty() {
        if let Some(f) = format.as_deref().filter(|f| *f != "name") {
            // The writes are done: what was printed so far stays before the error.
            match print_applied(f, printed) {
                Ok(text) => out.push_str(&text),
                Err(e) => return Err(format!("{out}{e}")),
            }
        }
    }
    finish(out, errors)
}

/// `printObjects`: the one object applied, or all of them in a `v1` `List` (a typed
/// `corev1.List`, so its JSON comes in Go's field order).
fn print_applied(format: &str, mut objects: Vec<serde_json::Value>) -> Result<String, String> {
    use super::print_flags::{printer, Printer};
    use crate::printers::go_json::Ordered;
    let Some(p) = printer(Some(format), &crate::command::NoFiles)? else {
        return Ok(String::new());
    };
    let doc = match objects.len() {
        0 => return Ok(String::new()),
        1 => objects.remove(0),
        _ => {
            let list = Ordered::Object(vec![
                ("kind".into(), Ordered::Leaf("List".into())),
                ("apiVersion".into(), Ordered::Leaf("v1".into())),
                ("metadata".into(), Ordered::Object(Vec::new())),
                (
                    "items".into(),
                    Ordered::Array(
                        objects
                            .iter()
                            .map(|o| match p {
                                Printer::Json | Printer::Yaml => {
                                    Ordered::from_value(&super::print_flags::omit_managed_fields(o))
                                }
                                _ => Ordered::from_value(o),
                            })
                            .collect(),
                    ),
                ),
            ]);
            if matches!(p, Printer::Json) {
                return Ok(list.to_indented() + "\n");
            }
            list.to_value()
        }
    };
    p.print(&[(doc, String::new())])
}

const REPLACE_FLAGS: &[FlagSpec] = &[flag("filename", Some('f')), flag("validate", None), NS];

/// `kubectl replace -f FILE|-` (replace.go): a PUT of each object as written. The
/// manifest's `metadata.resourceVersion`, when it has one, is the precondition: a
/// manifest taken with `kubectl get -o yaml` before someone else wrote the object gets
/// the API server's 409 Conflict — optimistic concurrency as every client meets it.
/// Without one the update is unconditional. Status is the status subresource's.
pub(super) fn replace(
    c: &mut Cluster,
    k: &Client,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
) -> R {
    let p = parse_flags(&bare_validate(words), REPLACE_FLAGS, "kubectl replace")?;
    let ns = namespace(&p);
    let v = validation(&p, "Error: ")?;
    let docs = read_manifest(&p, stdin, files)?;
    let source = source_name(&p);
    let mut out = String::new();
    let mut errors = Vec::new();
    for doc in docs {
        match field_validation(&doc, v, "replacing", &source) {
            Ok(warnings) => out.push_str(&warnings),
            Err(e) => {
                errors.push(e.into());
                continue;
            }
        }
        let mut obj = doc.object;
        if obj.kind().namespaced() && obj.meta().namespace.is_empty() {
            obj.meta_mut().namespace = ns.clone();
        }
        let kind = obj.kind();
        let key = ObjKey::of(obj.meta());
        let name = qualified_name(kind, &key.name);
        let answer = k.update(c, obj);
        out.push_str(&k.warning_lines());
        match answer {
            Ok(_) => out.push_str(&format!("{name} replaced\n")),
            Err(e) => errors.push(Failure::api(e, &source, "replacing")),
        }
    }
    finish(out, errors)
}

/// One object's server-side apply (a PATCH with the manifest as written): the API
/// server creates it, or merges it into the live object on its field ownership; a
/// 409 in apply.go's words.
fn server_side_apply(
    c: &mut Cluster,
    k: &Client,
    kind: Kind,
    key: &ObjKey,
    applied: &serde_json::Value,
    manager: &str,
    force: bool,
) -> Result<Option<std::sync::Arc<Object>>, String> {
    k.apply(c, kind, key, applied.clone(), manager, force)
        .map(|r| r.object)
        .map_err(|e| {
            if e.code == 409 && e.reason == "Conflict" {
                format!("error: {}\n{SSA_CONFLICT_HELP}", e.message)
            } else {
                api(e)
            }
        })
}

/// `GetModifiedConfiguration`: the manifest with the namespace the resource builder
/// set, and its new `last-applied-configuration` annotation.
pub(super) fn modified_configuration(source: &serde_json::Value, ns: &str) -> serde_json::Value {
    let mut modified = source.clone();
    if let Some(m) = modified.as_object_mut() {
        let meta = m.entry("metadata").or_insert_with(|| serde_json::json!({}));
        if let Some(meta) = meta.as_object_mut() {
            if !ns.is_empty() {
                meta.insert("namespace".into(), ns.into());
            }
            let ann = meta
                .entry("annotations")
                .or_insert_with(|| serde_json::json!({}));
            if let Some(ann) = ann.as_object_mut() {
                ann.insert(LAST_APPLIED.into(), last_applied(source, ns).into());
            }
        }
    }
    modified
}

/// The `last-applied-configuration` annotation's value: the manifest as written,
/// without what the server owns (identity, timestamps, status) or an earlier
/// annotation of its own.
fn last_applied(source: &serde_json::Value, namespace: &str) -> String {
    let mut applied = source.clone();
    if let Some(m) = applied.get_mut("metadata").and_then(|m| m.as_object_mut()) {
        // The resource builder has set the namespace by then, and
        // GetModifiedConfiguration encodes the object with its annotations map less
        // this one: `"annotations":{}` when the manifest had no other.
        if !namespace.is_empty() {
            m.insert("namespace".into(), namespace.into());
        }
        m.entry("annotations")
            .or_insert_with(|| serde_json::json!({}));
        for f in [
            "uid",
            "resourceVersion",
            "creationTimestamp",
            "generation",
            "managedFields",
        ] {
            m.remove(f);
        }
        if let Some(a) = m.get_mut("annotations").and_then(|a| a.as_object_mut()) {
            a.remove(LAST_APPLIED);
        }
    }
    if let Some(o) = applied.as_object_mut() {
        o.remove("status");
    }
    // kubectl encodes it with Go's JSON encoder, which escapes `<`, `>` and `&` (a CEL
    // expression's `<=` is stored as `\u003c=`).
    crate::printers::go_json::go_html_escape(format!("{}\n", applied))
}
