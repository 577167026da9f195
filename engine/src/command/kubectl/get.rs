//! `kubectl get` and `kubectl describe`: tables, `-o name|json|yaml|jsonpath=…`,
//! selectors and `--sort-by`; describe's text comes from `printers::describe`.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/get/get.go` (`GetOptions.Run`),
//! `staging/src/k8s.io/kubectl/pkg/cmd/describe/describe.go`.

use super::util::{key_for, kind_arg, namespace, objects_of, targets, NS, R};
use crate::api::*;
use crate::apiserver::ApiError;
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, FlagSpec, Parsed};
use crate::command::select::{fields_match, parse_field_selector, parse_label_selector};
use crate::printers::get::{table, TableOptions};
use crate::printers::jsonpath::Template;
use crate::printers::qualified_name;
use crate::printers::yaml::to_yaml;

const GET_FLAGS: &[FlagSpec] = &[
    flag("output", Some('o')),
    flag("selector", Some('l')),
    flag("field-selector", None),
    NS,
    bool_flag("all-namespaces", Some('A')),
    bool_flag("show-labels", None),
    flag("sort-by", None),
    bool_flag("no-headers", None),
    bool_flag("watch", Some('w')),
];

/// Several objects as kubectl prints them: a `v1` `List`.
fn list_json(items: Vec<serde_json::Value>) -> serde_json::Value {
    serde_json::json!({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}})
}

/// JSON as kubectl prints it (4-space indent).
pub fn pretty_json(v: &serde_json::Value) -> String {
    use serde::Serialize;
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    let _ = v.serialize(&mut ser);
    String::from_utf8(buf).unwrap_or_default()
}

/// `--sort-by`: the first value the JSONPath finds, numbers before text.
fn sort_key(v: &serde_json::Value, expr: &str) -> Result<(f64, String), String> {
    let found = crate::printers::jsonpath::select(expr, v)?;
    Ok(match found.first() {
        Some(x) => match x.as_f64() {
            Some(n) => (n, String::new()),
            None => (0.0, crate::printers::jsonpath::format_value(x)),
        },
        None => (0.0, String::new()),
    })
}

/// The objects of one kind, in the order they are printed.
type Group<'a> = (Kind, Vec<&'a Object>);

/// `kubectl get TYPE[,TYPE…] [NAME…]` or `kubectl get TYPE/NAME…`.
pub(super) fn get(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, GET_FLAGS, "kubectl get")?;
    if p.bool("watch") {
        return Err("error: --watch is not supported here: the simulation plays in the page (use sim advance)".into());
    }
    if p.args.is_empty() {
        return Err("You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples".into());
    }
    let ns = namespace(&p);
    let label_sel = p.get("selector").map(parse_label_selector).transpose()?;
    let (kinds, names) = kinds_and_names(&p.args)?;
    // Names that are not found are reported after whatever was found.
    let mut errors = Vec::new();
    let groups = gather(c, &p, &kinds, &names, &ns, label_sel.as_ref(), &mut errors)?;
    let total: usize = groups.iter().map(|(_, v)| v.len()).sum();
    let single = !names.is_empty() && names.len() == 1 && total == 1;
    let none_found = total == 0 && errors.is_empty();
    let out = print(c, &p, &groups, &kinds, single, none_found, &ns)?;
    if !errors.is_empty() {
        let mut text = out;
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(&errors.join("\n"));
        return Err(text);
    }
    Ok(out)
}

/// The kinds asked for, in order, and the names asked for, each with its kind (none:
/// every object of those kinds).
type Wanted = (Vec<Kind>, Vec<(Kind, String)>);

/// Which kinds and which names: `TYPE/NAME…`, or `TYPE[,TYPE…] [NAME…]` where `all`
/// stands for the workload kinds.
fn kinds_and_names(args: &[String]) -> Result<Wanted, String> {
    if args[0].contains('/') {
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
            vec![Kind::Pod, Kind::Deployment, Kind::ReplicaSet]
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
fn gather<'a>(
    c: &'a Cluster,
    p: &Parsed,
    kinds: &[Kind],
    names: &[(Kind, String)],
    ns: &str,
    label_sel: Option<&LabelSelector>,
    errors: &mut Vec<String>,
) -> Result<Vec<Group<'a>>, String> {
    let ns_filter = if p.bool("all-namespaces") {
        None
    } else {
        Some(ns)
    };
    let mut groups: Vec<Group> = Vec::new();
    for k in kinds {
        let field_reqs = p
            .get("field-selector")
            .map(|s| parse_field_selector(*k, s))
            .transpose()?;
        let mut objs: Vec<&Object> = if names.is_empty() {
            objects_of(c, *k, ns_filter)
        } else {
            let mut v = Vec::new();
            for (nk, n) in names.iter().filter(|(nk, _)| nk == k) {
                match c.store.get_object(*nk, &key_for(*nk, ns, n)) {
                    Some(o) => v.push(o),
                    None => errors.push(ApiError::not_found(*nk, n).kubectl_text()),
                }
            }
            v
        };
        if let Some(sel) = label_sel {
            objs.retain(|o| sel.matches(&o.meta().labels));
        }
        if let Some(f) = &field_reqs {
            objs.retain(|o| fields_match(o, f));
        }
        if let Some(expr) = p.get("sort-by") {
            let mut keyed = Vec::new();
            for o in objs {
                keyed.push((sort_key(&o.to_json(), expr)?, o));
            }
            keyed.sort_by(|a, b| {
                // total_cmp: a total order even for NaN, so the sort cannot panic.
                a.0 .0.total_cmp(&b.0 .0).then_with(|| a.0 .1.cmp(&b.0 .1))
            });
            objs = keyed.into_iter().map(|(_, o)| o).collect();
        }
        groups.push((*k, objs));
    }
    Ok(groups)
}

/// `-o`: tables (none, `wide`), `name`, `json`, `yaml`, `jsonpath=…`; one object
/// (`single`) prints bare, several as a `List`.
fn print(
    c: &Cluster,
    p: &Parsed,
    groups: &[Group],
    kinds: &[Kind],
    single: bool,
    none_found: bool,
    ns: &str,
) -> R {
    let output = p.get("output").unwrap_or("");
    let mut out = String::new();
    match output {
        "" | "wide" => {
            if none_found {
                let cluster_scoped = kinds.iter().all(|k| !k.namespaced());
                out = if p.bool("all-namespaces") || cluster_scoped {
                    "No resources found".into()
                } else {
                    format!("No resources found in {ns} namespace.")
                };
            } else {
                out = tables(c, p, groups, kinds, output == "wide");
            }
        }
        "name" => {
            for (k, v) in groups {
                for o in v {
                    out.push_str(&qualified_name(*k, &o.meta().name));
                    out.push('\n');
                }
            }
        }
        "json" | "yaml" => {
            let doc = document(groups, single);
            out = if output == "json" { pretty_json(&doc) } else { to_yaml(&doc) };
        }
        o if o.starts_with("jsonpath=") || o.starts_with("jsonpath-as-json=") => {
            let tmpl = o.split_once('=').map(|(_, t)| t).unwrap_or("");
            let t = Template::parse(tmpl)?;
            out = t.execute(&document(groups, single))?;
        }
        other => {
            return Err(format!(
                "error: unable to match a printer suitable for the output format \"{other}\", allowed formats are: json,jsonpath,jsonpath-as-json,name,wide,yaml"
            ))
        }
    }
    Ok(out)
}

/// One table per kind that has objects, with `--show-labels`, `-A`'s NAMESPACE column,
/// kind-qualified names when several kinds print, and `--no-headers`.
fn tables(c: &Cluster, p: &Parsed, groups: &[Group], kinds: &[Kind], wide: bool) -> String {
    let o = TableOptions {
        wide,
        show_labels: p.bool("show-labels"),
        with_namespace: p.bool("all-namespaces"),
        with_kind: kinds.len() > 1 || p.args[0].split(',').any(|t| t == "all"),
    };
    let now = c.now();
    let tables: Vec<String> = groups
        .iter()
        .filter(|(_, v)| !v.is_empty())
        .map(|(k, v)| {
            let t = table(*k, v, o, now);
            if p.bool("no-headers") {
                t.split_once('\n')
                    .map(|(_, rest)| rest.to_string())
                    .unwrap_or_default()
            } else {
                t
            }
        })
        .collect();
    tables.join("\n")
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
pub(super) fn describe(c: &mut Cluster, words: &[String]) -> R {
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
        let k = kind_arg(&p.args[0])?;
        let sel = p.get("selector").map(parse_label_selector).transpose()?;
        objs = objects_of(c, k, Some(&ns))
            .into_iter()
            .filter(|o| sel.as_ref().is_none_or(|s| s.matches(&o.meta().labels)))
            .cloned()
            .collect();
        if objs.is_empty() {
            return Ok(format!("No resources found in {ns} namespace."));
        }
    } else {
        for (k, n) in targets(&p.args)? {
            match c.store.get_object(k, &key_for(k, &ns, &n)) {
                Some(o) => objs.push(o.clone()),
                None => errors.push(ApiError::not_found(k, &n).kubectl_text()),
            }
        }
        if objs.is_empty() && errors.is_empty() {
            return Err("error: You must specify the type of resource to describe. Use \"kubectl api-resources\" for a complete list of supported resources.".into());
        }
    }
    let text: Vec<String> = objs
        .iter()
        .map(|o| crate::printers::describe::describe(c, o))
        .collect();
    let out = text.join("\n\n");
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
