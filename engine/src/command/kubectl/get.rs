//! `kubectl get` and `kubectl describe`: tables, `-o name|json|yaml|jsonpath=…`,
//! selectors and `--sort-by`; describe's text comes from `printers::describe`.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/get/get.go` (`GetOptions.Run`),
//! `staging/src/k8s.io/kubectl/pkg/cmd/describe/describe.go`.

use super::util::{api, key_for, kind_arg, namespace, targets, NS, R, RB};
use crate::api::*;
use crate::apiserver::selectors::{fields_match, parse_fields, parse_label_selector};
use crate::apiserver::ApiError;
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, FlagSpec, Parsed};
use crate::command::client::Client;
use crate::command::wait::{Blocking, Watch, WATCH_TIMEOUT};
use crate::command::Files;
use crate::printers::get::{table, TableOptions};
use crate::printers::jsonpath::Template;
use crate::printers::output::Output;
use crate::printers::qualified_name;
use crate::printers::yaml::to_yaml;
use std::sync::Arc;

pub(super) const GET_FLAGS: &[FlagSpec] = &[
    flag("output", Some('o')),
    flag("selector", Some('l')),
    flag("field-selector", None),
    NS,
    bool_flag("all-namespaces", Some('A')),
    bool_flag("show-labels", None),
    flag("sort-by", None),
    bool_flag("no-headers", None),
    bool_flag("watch", Some('w')),
    flag("label-columns", Some('L')),
    bool_flag("show-managed-fields", None),
    flag("chunk-size", None),
    bool_flag("ignore-not-found", None),
    bool_flag("show-kind", None),
    bool_flag("output-watch-events", None),
    bool_flag("watch-only", None),
];

/// Every `-o` that `kubectl get` knows, as `NoCompatiblePrinterError` lists them
/// (sorted).
const GET_FORMATS: &str = "custom-columns,custom-columns-file,go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,wide,yaml";

/// `PrintFlags.ToPrinter`: the format name, then its argument after `=` (inline, or a
/// file to read), with kubectl's error for an unknown format or a missing argument.
fn output_format(p: &Parsed, files: &dyn Files) -> Result<Output, String> {
    use crate::printers::{custom_columns, gotemplate::GoTemplate};
    let o = p.get("output").unwrap_or("");
    let (name, arg) = o.split_once('=').unwrap_or((o, ""));
    let no_template = || "error: template format specified but no template given".to_string();
    // `-file` formats name a file; kubectl reports a failed read with the path.
    let read = |what: &str| -> Result<String, String> {
        files.read(arg).map_err(|_| {
            format!("error: error reading {what} {arg}, open {arg}: no such file or directory")
        })
    };
    Ok(match name {
        "" | "wide" if !o.contains('=') => Output::Table { wide: o == "wide" },
        "name" if !o.contains('=') => Output::Name,
        "json" if !o.contains('=') => Output::Json,
        "yaml" if !o.contains('=') => Output::Yaml,
        "jsonpath" | "jsonpath-as-json" | "jsonpath-file" if arg.is_empty() => {
            return Err(no_template())
        }
        "jsonpath" => Output::JsonPath(Template::parse(arg)?),
        "jsonpath-as-json" => Output::JsonPathAsJson(Template::parse(arg)?),
        "jsonpath-file" => Output::JsonPath(Template::parse(&read("--template")?)?),
        "go-template" | "template" | "go-template-file" | "templatefile" if arg.is_empty() => {
            return Err(no_template())
        }
        "go-template" | "template" => Output::GoTemplate(GoTemplate::parse(arg)?),
        "go-template-file" | "templatefile" => {
            Output::GoTemplate(GoTemplate::parse(&read("--template")?)?)
        }
        "custom-columns" | "custom-columns-file" if arg.is_empty() => {
            return Err("error: custom-columns format specified but no custom columns given".into())
        }
        "custom-columns" => {
            Output::CustomColumns(custom_columns::parse_spec(arg).map_err(|e| format!("error: {e}"))?)
        }
        "custom-columns-file" => Output::CustomColumns(
            custom_columns::parse_file(&read("template")?).map_err(|e| format!("error: {e}"))?,
        ),
        _ => {
            return Err(format!(
                "error: unable to match a printer suitable for the output format \"{o}\", allowed formats are: {GET_FORMATS}"
            ))
        }
    })
}

/// Several objects as kubectl prints them: a `v1` `List`.
fn list_json(items: Vec<serde_json::Value>) -> serde_json::Value {
    serde_json::json!({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}})
}

/// `--sort-by`'s key for one object: the first value the path finds (none when it
/// finds nothing), or the evaluator's error.
fn sort_key(v: &serde_json::Value, t: &Template) -> Result<Option<serde_json::Value>, String> {
    let found = t.find_results(v)?;
    Ok(found.first().and_then(|r| r.first()).cloned())
}

/// `isLess` on the unstructured values kubectl compares: numbers by value, strings
/// in natural order (quantities by amount when both parse), an absent value first.
fn sort_less(a: &Option<serde_json::Value>, b: &Option<serde_json::Value>) -> std::cmp::Ordering {
    use serde_json::Value;
    use std::cmp::Ordering;
    match (a, b) {
        (None, None) => Ordering::Equal,
        (None, _) => Ordering::Less,
        (_, None) => Ordering::Greater,
        (Some(Value::Number(x)), Some(Value::Number(y))) => {
            let (x, y) = (x.as_f64().unwrap_or(0.0), y.as_f64().unwrap_or(0.0));
            x.total_cmp(&y)
        }
        (Some(Value::String(x)), Some(Value::String(y))) => {
            // A quantity's amount in thousandths (`100m`, `2`, `1Gi`), as Quantity.Cmp
            // compares them.
            let amount = |s: &str| {
                crate::api::quantity::parse_cpu_milli(s).or_else(|| {
                    crate::api::quantity::parse_bytes(s).map(|b| b.saturating_mul(1000))
                })
            };
            match (amount(x), amount(y)) {
                (Some(qx), Some(qy)) => qx.cmp(&qy),
                _ => natural_cmp(x, y),
            }
        }
        (Some(Value::Bool(x)), Some(Value::Bool(y))) => x.cmp(y),
        _ => Ordering::Equal,
    }
}

/// `sortorder.NaturalLess`: runs of digits compare as numbers, the rest byte-wise.
fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i].is_ascii_digit() && b[j].is_ascii_digit() {
            let si = i;
            while i < a.len() && a[i].is_ascii_digit() {
                i += 1;
            }
            let sj = j;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
            // Leading zeros do not count; a longer run is a larger number.
            let na = std::str::from_utf8(&a[si..i])
                .unwrap_or("")
                .trim_start_matches('0');
            let nb = std::str::from_utf8(&b[sj..j])
                .unwrap_or("")
                .trim_start_matches('0');
            let o = na.len().cmp(&nb.len()).then_with(|| na.cmp(nb));
            if o != Ordering::Equal {
                return o;
            }
            let o = (i - si).cmp(&(j - sj));
            if o != Ordering::Equal {
                return o;
            }
        } else {
            if a[i] != b[j] {
                return a[i].cmp(&b[j]);
            }
            i += 1;
            j += 1;
        }
    }
    (a.len() - i).cmp(&(b.len() - j))
}

/// `SortObjects`: the relaxed path parsed, an error unless some object has the
/// field, then Go's `sort.Sort` (not stable) with `TableSorter.Less`.
fn sort_objects(objs: Vec<Arc<Object>>, expr: &str) -> Result<Vec<Arc<Object>>, String> {
    if objs.is_empty() {
        return Ok(objs);
    }
    let field = crate::printers::custom_columns::relaxed_jsonpath(expr)
        .map_err(|e| format!("error: {e}"))?;
    let t = Template::parse_raw(&field).map_err(|e| format!("error: {e}"))?;
    let mut keyed = Vec::new();
    for o in objs {
        keyed.push((
            sort_key(&o.to_json(), &t).map_err(|e| format!("error: {e}"))?,
            o,
        ));
    }
    if keyed.iter().all(|(k, _)| k.is_none()) {
        return Err(format!(
            "error: couldn't find any field with path \"{field}\" in the list of objects"
        ));
    }
    // `TableSorter.Less`: a row without the field is less than any, even another
    // without it; then `isLess`.
    crate::printers::go_sort::sort(&mut keyed, |a, b| match (&a.0, &b.0) {
        (None, _) => true,
        (_, None) => false,
        _ => sort_less(&a.0, &b.0) == std::cmp::Ordering::Less,
    });
    Ok(keyed.into_iter().map(|(_, o)| o).collect())
}

/// The objects of one kind, in the order they are printed.
type Group = (Kind, Vec<Arc<Object>>);

/// `kubectl get TYPE[,TYPE…] [NAME…]` or `kubectl get TYPE/NAME…`.
pub(super) fn get(c: &mut Cluster, k: &Client, words: &[String], files: &dyn Files) -> RB {
    let p = parse_flags(words, GET_FLAGS, "kubectl get")?;
    // `--chunk-size` only pages the requests; what is printed is the same.
    if let Some(n) = p.get("chunk-size") {
        super::util::int_flag(n, "--chunk-size", 64, "kubectl get")?;
    }
    // `Validate`.
    if p.bool("show-labels") {
        if let Some(o) = p.get("output").filter(|o| !o.is_empty() && *o != "wide") {
            return Err(format!(
                "error: --show-labels option cannot be used with {o} printer"
            ));
        }
    }
    let watch = p.bool("watch") || p.bool("watch-only");
    if p.bool("output-watch-events") && !watch {
        return Err(
            "error: --output-watch-events option can only be used with --watch or --watch-only"
                .into(),
        );
    }
    if p.args.is_empty() {
        return Err("You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples".into());
    }
    let ns = namespace(&p);
    let label_sel = p.get("selector").map(parse_label_selector).transpose()?;
    let (kinds, names) = kinds_and_names(&p.args)?;
    if watch {
        return get_watch(c, k, &p, files, (&kinds, &names), &ns, label_sel);
    }
    // Names that are not found are reported after whatever was found.
    let mut errors = Vec::new();
    let groups = gather(
        c,
        k,
        &p,
        &kinds,
        &names,
        &ns,
        label_sel.as_ref(),
        &mut errors,
    )?;
    let total: usize = groups.iter().map(|(_, v)| v.len()).sum();
    let single = !names.is_empty() && names.len() == 1 && total == 1;
    let none_found = total == 0 && errors.is_empty();
    let output = output_format(&p, files)?;
    // `--ignore-not-found` with nothing found prints nothing: no empty List, and no
    // "No resources found" (RunGet writes that only when not ignoring NotFound).
    if total == 0 && errors.is_empty() && p.bool("ignore-not-found") {
        return Ok((String::new(), None));
    }
    // printGeneric: one name asked for (a single item implied) and not found — the
    // error alone, no empty List.
    if names.len() == 1 && !errors.is_empty() && !matches!(output, Output::Table { .. }) {
        return Err(errors.join("\n"));
    }
    let out = print(c, &p, &output, &groups, &kinds, single, none_found, &ns)?;
    if !errors.is_empty() {
        let mut text = out;
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&errors.join("\n"));
        return Err(text);
    }
    Ok((out, None))
}

/// `kubectl get --watch` (`get.go`'s `watch`): one kind; the objects as they are
/// (unless `--watch-only`), then a [`Watch`] that prints each write until
/// `--request-timeout` or the API server's own end of the watch.
fn get_watch(
    c: &mut Cluster,
    k: &Client,
    p: &Parsed,
    files: &dyn Files,
    (kinds, names): (&[Kind], &[(Kind, String)]),
    ns: &str,
    label_sel: Option<LabelSelector>,
) -> RB {
    if kinds.len() != 1 {
        return Err("error: you may only specify a single resource type".into());
    }
    let kind = kinds[0];
    let output = output_format(p, files)?;
    let mut errors = Vec::new();
    let groups = gather(c, k, p, kinds, names, ns, label_sel.as_ref(), &mut errors)?;
    if !errors.is_empty() {
        return Err(errors.join("\n"));
    }
    let objs = groups
        .into_iter()
        .next()
        .map(|(_, v)| v)
        .unwrap_or_default();
    let fields = match p.get("field-selector") {
        Some(s) => parse_fields(kind, s).map_err(|e| e.kubectl_line(kind, "", s))?,
        None => Vec::new(),
    };
    let table = table_options(p, false, p.bool("show-kind"));
    let filter = (
        (!p.bool("all-namespaces")).then(|| ns.to_string()),
        (names.len() == 1).then(|| names[0].1.clone()),
        label_sel,
        fields,
    );
    let flags = (
        table,
        p.bool("no-headers"),
        p.bool("output-watch-events"),
        p.bool("show-managed-fields"),
    );
    let mut w = Watch::new(kind, filter, output, flags);
    let initial = if p.bool("watch-only") {
        &[][..]
    } else {
        &objs[..]
    };
    let printed = w.start(c, initial)?;
    if names.len() > 1 {
        // A list of named objects is printed, but cannot be watched.
        c.store.follow(None);
        return Err(format!(
            "{printed}error: you may only watch a single resource or type of resource at a time"
        ));
    }
    let timeout = k.request_timeout.unwrap_or(WATCH_TIMEOUT);
    let deadline = c.now().saturating_add(timeout);
    Ok((printed, Some(Blocking::watch(deadline, w))))
}

/// The kinds asked for, in order, and the names asked for, each with its kind (none:
/// every object of those kinds).
type Wanted = (Vec<Kind>, Vec<(Kind, String)>);

/// Which kinds and which names: `TYPE/NAME…`, or `TYPE[,TYPE…] [NAME…]` where `all`
/// stands for the workload kinds.
fn kinds_and_names(args: &[String]) -> Result<Wanted, String> {
    if args.iter().any(|a| a.contains('/')) {
        let t = targets(args)?;
        let mut ks: Vec<Kind> = Vec::new();
        for (k, _) in &t {
            if !ks.contains(k) {
                ks.push(*k);
            }
        }
        return Ok((ks, t));
    }
    let mut ks = Vec::new();
    for t in args[0].split(',') {
        // The `all` category: the workload kinds this cluster serves, in kubectl's order.
        let kinds = if t == "all" {
            crate::apiserver::discovery::category("all")
        } else {
            vec![kind_arg(t)?]
        };
        for k in kinds {
            if !ks.contains(&k) {
                ks.push(k);
            }
        }
    }
    if ks.len() > 1 && args.len() > 1 {
        return Err("error: you may only specify a single resource type".into());
    }
    let names = args[1..].iter().map(|n| (ks[0], n.clone())).collect();
    Ok((ks, names))
}

/// The objects of each kind: the named ones (a NotFound in `errors` for each missing
/// name) or all in the namespace, then `-l`, `--field-selector` and `--sort-by`.
#[allow(clippy::too_many_arguments)]
fn gather(
    c: &mut Cluster,
    k: &Client,
    p: &Parsed,
    kinds: &[Kind],
    names: &[(Kind, String)],
    ns: &str,
    label_sel: Option<&LabelSelector>,
    errors: &mut Vec<String>,
) -> Result<Vec<Group>, String> {
    let ns_filter = if p.bool("all-namespaces") {
        None
    } else {
        Some(ns)
    };
    let mut groups: Vec<Group> = Vec::new();
    for kind in kinds {
        let field_reqs = p
            .get("field-selector")
            .map(|s| {
                parse_fields(*kind, s)
                    .map_err(|e| e.kubectl_line(*kind, p.get("selector").unwrap_or(""), s))
            })
            .transpose()?;
        let mut objs: Vec<Arc<Object>> = if names.is_empty() {
            // A list sends its selectors: the API server filters. A refused list is
            // reported after the others, as the builder's ContinueOnError reports each
            // kind's error.
            let fields = field_reqs.as_deref().unwrap_or(&[]);
            match k.list(c, *kind, ns_filter, label_sel, fields) {
                Ok(items) => items,
                Err(e) => {
                    errors.push(api(e));
                    continue;
                }
            }
        } else {
            let mut v = Vec::new();
            for (nk, n) in names.iter().filter(|(nk, _)| nk == kind) {
                let key = key_for(*nk, ns, n);
                match k.get_opt(c, *nk, &key).map_err(api)? {
                    Some(o) => v.push(o),
                    // `--ignore-not-found`: the builder ignores NotFound.
                    None if p.bool("ignore-not-found") => {}
                    None => errors.push(ApiError::not_found(*nk, n).kubectl_text()),
                }
            }
            if let Some(sel) = label_sel {
                v.retain(|o| sel.matches(&o.meta().labels));
            }
            if let Some(f) = &field_reqs {
                v.retain(|o| fields_match(o, f));
            }
            v
        };
        if let Some(expr) = p.get("sort-by").filter(|e| !e.is_empty()) {
            objs = sort_objects(objs, expr)?;
        }
        groups.push((*kind, objs));
    }
    Ok(groups)
}

/// `-o`: tables (none, `wide`), `name`, `json`, `yaml`, `jsonpath`, `custom-columns`,
/// `go-template`; one object (`single`) prints bare, several as a `List`.
#[allow(clippy::too_many_arguments)]
fn print(
    c: &Cluster,
    p: &Parsed,
    output: &Output,
    groups: &[Group],
    kinds: &[Kind],
    single: bool,
    none_found: bool,
    ns: &str,
) -> R {
    let mut out = String::new();
    match output {
        Output::Table { wide } => {
            if none_found {
                let cluster_scoped = kinds.iter().all(|k| !k.namespaced());
                out = if p.bool("all-namespaces") || cluster_scoped {
                    "No resources found".into()
                } else {
                    format!("No resources found in {ns} namespace.")
                };
            } else {
                out = tables(c, p, groups, *wide);
            }
        }
        Output::Name => {
            for (k, v) in groups {
                for o in v {
                    out.push_str(&qualified_name(*k, &o.meta().name));
                    out.push('\n');
                }
            }
        }
        Output::Json => {
            out = super::print_flags::pretty_json(&with_managed_fields(
                c,
                p.bool("show-managed-fields"),
                document(groups, single),
            ))
        }
        Output::Yaml => {
            out = to_yaml(&with_managed_fields(
                c,
                p.bool("show-managed-fields"),
                document(groups, single),
            ))
        }
        Output::JsonPath(t) => {
            out = t.execute(&with_managed_fields(c, true, document(groups, single)))?
        }
        Output::JsonPathAsJson(t) => {
            let doc = with_managed_fields(c, true, document(groups, single));
            out = super::print_flags::jsonpath_as_json(t, &doc)?
        }
        Output::GoTemplate(t) => {
            out = t.execute(&with_managed_fields(c, true, document(groups, single)))?
        }
        Output::CustomColumns(cols) => {
            // The printer walks a List's items, or the one object.
            let doc = with_managed_fields(c, true, document(groups, single));
            let items = match doc.get("items") {
                Some(serde_json::Value::Array(a)) if !single => a.clone(),
                _ => vec![doc],
            };
            out = crate::printers::custom_columns::print(cols, &items, p.bool("no-headers"))
                .map_err(|(printed, e)| format!("{printed}error: {e}"))?;
        }
    }
    Ok(out)
}

/// One table per kind that has objects, with `--show-labels`, `-A`'s NAMESPACE column,
/// kind-qualified names when several kinds print, and `--no-headers`.
fn tables(c: &Cluster, p: &Parsed, groups: &[Group], wide: bool) -> String {
    // `multipleGVKsRequested`: by the kinds found, not the kinds asked for; or
    // `--show-kind`.
    let with_kind = p.bool("show-kind") || groups.iter().filter(|(_, v)| !v.is_empty()).count() > 1;
    let o = table_options(p, wide, with_kind);
    let now = c.now();
    let tables: Vec<String> = groups
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| {
            let v: Vec<&Object> = v.iter().map(|o| &**o).collect();
            if p.bool("no-headers") {
                crate::printers::get::table_rows(*k, &v, &o, now)
            } else {
                table(*k, &v, &o, now)
            }
        })
        .collect();
    // A blank line between tables only where a header follows.
    tables.join(if p.bool("no-headers") { "" } else { "\n" })
}

/// The table's options from the flags: `--show-labels`, `-A`'s NAMESPACE column and
/// `-L`; `wide` and `with_kind` as the caller decides them.
fn table_options(p: &Parsed, wide: bool, with_kind: bool) -> TableOptions {
    TableOptions {
        wide,
        show_labels: p.bool("show-labels"),
        with_namespace: p.bool("all-namespaces"),
        with_kind,
        label_columns: p
            .slice("label-columns")
            .into_iter()
            .map(String::from)
            .collect(),
    }
}

/// The objects as the server sent them, `metadata.managedFields` included when `show`:
/// JSON and YAML omit them unless `--show-managed-fields` (since v1.21, cli-runtime's
/// `OmitManagedFieldsPrinter`); the template printers always see them.
fn with_managed_fields(c: &Cluster, show: bool, mut doc: serde_json::Value) -> serde_json::Value {
    if !show {
        return doc;
    }
    let add = |o: &mut serde_json::Value| {
        let Some(kind) = o
            .get("kind")
            .and_then(|k| k.as_str())
            .and_then(|k| Kind::ALL.iter().copied().find(|x| x.name() == k))
        else {
            return;
        };
        let meta = &o["metadata"];
        let key = crate::apiserver::ObjKey::new(
            meta["namespace"].as_str().unwrap_or(""),
            meta["name"].as_str().unwrap_or(""),
        );
        if c.managed_fields().has(kind, &key) {
            o["metadata"]["managedFields"] = c.managed_fields().to_json(kind, &key);
        }
    };
    match doc.get_mut("items").and_then(|i| i.as_array_mut()) {
        Some(items) => items.iter_mut().for_each(add),
        None => add(&mut doc),
    }
    doc
}

/// What `-o json|yaml|jsonpath` prints: the object itself, or a `List`.
fn document(groups: &[Group], single: bool) -> serde_json::Value {
    let items: Vec<serde_json::Value> = groups
        .iter()
        .flat_map(|(_, v)| v.iter().map(|o| o.to_json()))
        .collect();
    if single {
        items.into_iter().next().unwrap_or_default()
    } else {
        list_json(items)
    }
}

// ---- describe -------------------------------------------------------------------------

/// `kubectl describe TYPE [NAME…]` or `kubectl describe TYPE/NAME…`.
pub(super) fn describe(c: &mut Cluster, k: &Client, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            NS,
            flag("selector", Some('l')),
            bool_flag("all-namespaces", Some('A')),
        ],
        "kubectl describe",
    )?;
    let ns = namespace(&p);
    let mut objs: Vec<Object> = Vec::new();
    let mut errors = Vec::new();
    if p.args.len() == 1 && !p.args[0].contains('/') {
        let kind = kind_arg(&p.args[0])?;
        let sel = p.get("selector").map(parse_label_selector).transpose()?;
        objs = k
            .list(c, kind, Some(&ns), sel.as_ref(), &[])
            .map_err(api)?
            .iter()
            .map(|o| (**o).clone())
            .collect();
        if objs.is_empty() {
            return Ok(format!("No resources found in {ns} namespace."));
        }
    } else {
        for (kind, n) in targets(&p.args)? {
            match k.get_opt(c, kind, &key_for(kind, &ns, &n)).map_err(api)? {
                Some(o) => objs.push((*o).clone()),
                None if p.args.len() == 2 && !p.args[0].contains('/') => {
                    return describe_matching_resources(c, k, kind, &ns, &n);
                }
                None => errors.push(ApiError::not_found(kind, &n).kubectl_text()),
            }
        }
        if objs.is_empty() && errors.is_empty() {
            return Err("error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.".into());
        }
    }
    let text: Vec<String> = objs
        .iter()
        .map(|o| {
            let mut reads = crate::command::client::Reads { c: &mut *c, k };
            crate::printers::describe::describe_with(&mut reads, o)
        })
        .collect();
    // kubectl prints each description (which ends in a newline) after "\n\n": two
    // blank lines between objects.
    let out = text.join("\n\n\n");
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(format!(
            "{out}{}{}",
            if out.is_empty() { "" } else { "\n" },
            errors.join("\n")
        ))
    }
}

/// `DescribeMatchingResources`: `kubectl describe TYPE NAME` whose NAME is not found
/// describes every object of the type whose name starts with it (`describe deploy we`
/// finds `web`), each followed by a blank line; with none, the NotFound stands.
fn describe_matching_resources(
    c: &mut Cluster,
    k: &Client,
    kind: Kind,
    ns: &str,
    prefix: &str,
) -> R {
    let found: Vec<Object> = k
        .list(c, kind, Some(ns), None, &[])
        .map_err(api)?
        .iter()
        .filter(|o| o.meta().name.starts_with(prefix))
        .map(|o| (**o).clone())
        .collect();
    if found.is_empty() {
        return Err(ApiError::not_found(kind, prefix).kubectl_text());
    }
    let mut out = String::new();
    for o in &found {
        let mut reads = crate::command::client::Reads { c: &mut *c, k };
        out.push_str(&crate::printers::describe::describe_with(&mut reads, o));
        // The description's own last newline, then `Fprintf(o.Out, "%s\n", s)`'s.
        out.push_str("\n\n");
    }
    Ok(out)
}
