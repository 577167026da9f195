//! The kubectl subset: verbs, flags and output text as kubectl v1.33 prints them.

use super::args::{bool_flag, flag, parse_duration, parse_flags, FlagSpec, Parsed};
use super::select::{fields_match, parse_field_selector, parse_label_selector};
use super::wait::Blocking;
use super::{Files, Outcome};
use crate::api::*;
use crate::apiserver::{ApiError, DeleteOptions, ObjKey};
use crate::client::Request;
use crate::cluster::{kubectl as user, Cluster};
use crate::controllers::deployment::util::{revision, POD_TEMPLATE_HASH_LABEL};
use crate::printers::get::{name_prefix, resolve_kind, table, TableOptions};
use crate::printers::jsonpath::Template;
use crate::printers::qualified_name;
use crate::printers::yaml::to_yaml;
use crate::time::{rfc3339, SimTime, MINUTE};

const NS: FlagSpec = flag("namespace", Some('n'));

/// Longest a blocking command waits when it has no `--timeout` (simulated).
const DEFAULT_WAIT: SimTime = 30 * MINUTE;

pub fn run(c: &mut Cluster, words: &[String], stdin: Option<&str>, files: &dyn Files) -> Outcome {
    let Some(verb) = words.first() else {
        return Outcome::err("error: kubectl needs a command, e.g. kubectl get pods".into());
    };
    let rest = &words[1..];
    let r = match verb.as_str() {
        "get" => get(c, rest),
        "describe" => describe(c, rest),
        "create" => create(c, rest, stdin, files),
        "apply" => apply(c, rest, stdin, files),
        "delete" => return blocking(delete(c, rest)),
        "scale" => scale(c, rest),
        "set" => set(c, rest),
        "rollout" => return blocking(rollout(c, rest)),
        "cordon" => cordon(c, rest, true),
        "uncordon" => cordon(c, rest, false),
        "drain" => return blocking(drain(c, rest)),
        "taint" => taint(c, rest),
        "label" => label(c, rest, false),
        "annotate" => label(c, rest, true),
        "patch" => patch(c, rest),
        "wait" => return blocking(wait(c, rest)),
        "version" => Ok("Client Version: v1.33.0\nKustomize Version: v5.6.0\nServer Version: v1.33.0 (kubeplay)".into()),
        other => Err(format!("error: unknown command \"{other}\" for \"kubectl\"\nRun 'kubectl --help' for usage.")),
    };
    match r {
        Ok(s) => Outcome::ok(s),
        Err(e) => Outcome::err(e),
    }
}

type R = Result<String, String>;

fn blocking(r: RB) -> Outcome {
    match r {
        Ok((text, b)) => {
            let mut o = Outcome::ok(text);
            o.blocking = b;
            o
        }
        Err(e) => Outcome::err(e),
    }
}
/// A result that may leave the command waiting for the cluster.
type RB = Result<(String, Option<Blocking>), String>;

fn api(e: ApiError) -> String {
    e.kubectl_text()
}

fn namespace(p: &Parsed) -> String {
    p.get("namespace").unwrap_or("default").to_string()
}

fn key_for(kind: Kind, ns: &str, name: &str) -> ObjKey {
    ObjKey::new(if kind.namespaced() { ns } else { "" }, name)
}

fn kind_arg(s: &str) -> Result<Kind, String> {
    resolve_kind(s).ok_or_else(|| format!("error: the server doesn't have a resource type \"{s}\""))
}

/// `TYPE NAME…` or `TYPE/NAME…` into (kind, names).
fn targets(args: &[String]) -> Result<Vec<(Kind, String)>, String> {
    let mut out = Vec::new();
    if args.is_empty() {
        return Ok(out);
    }
    if args[0].contains('/') {
        for a in args {
            let (t, n) = a
                .split_once('/')
                .ok_or_else(|| "error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'".to_string())?;
            out.push((kind_arg(t)?, n.to_string()));
        }
    } else {
        let k = kind_arg(&args[0])?;
        for n in &args[1..] {
            out.push((k, n.to_string()));
        }
    }
    Ok(out)
}

fn timeout_flag(p: &Parsed, default: SimTime) -> Result<SimTime, String> {
    match p.get("timeout") {
        None => Ok(default),
        Some(t) => match parse_duration(t) {
            Ok(0) => Ok(DEFAULT_WAIT),
            Ok(ms) => Ok(ms),
            Err(e) => Err(format!("error: {e}")),
        },
    }
}

// ---- get ------------------------------------------------------------------------------

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

fn objects_of<'a>(c: &'a Cluster, kind: Kind, ns: Option<&str>) -> Vec<&'a Object> {
    c.store
        .list_objects(kind)
        .filter(|o| ns.is_none() || !kind.namespaced() || Some(o.meta().namespace.as_str()) == ns)
        .collect()
}

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

fn get(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, GET_FLAGS, "kubectl get")?;
    if p.bool("watch") {
        return Err("error: --watch is not supported here: the simulation plays in the page (use sim advance)".into());
    }
    if p.args.is_empty() {
        return Err("You must specify the type of resource to get. Use \"kubectl api-resources\" for a complete list of supported resources.\n\nerror: Required resource not specified.\nUse \"kubectl explain <resource>\" for a detailed description of that resource (e.g. kubectl explain pods).\nSee 'kubectl get -h' for help and examples".into());
    }
    let all_ns = p.bool("all-namespaces");
    let ns = namespace(&p);
    let ns_filter = if all_ns { None } else { Some(ns.as_str()) };
    let label_sel = p.get("selector").map(parse_label_selector).transpose()?;
    let now = c.now();
    // Which kinds and which names.
    let (kinds, names): (Vec<Kind>, Vec<(Kind, String)>) = if p.args[0].contains('/') {
        let t = targets(&p.args)?;
        let mut ks: Vec<Kind> = Vec::new();
        for (k, _) in &t {
            if !ks.contains(k) {
                ks.push(*k);
            }
        }
        (ks, t)
    } else {
        let mut ks = Vec::new();
        for t in p.args[0].split(',') {
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
        if ks.len() > 1 && p.args.len() > 1 {
            return Err("error: you may only specify a single resource type".into());
        }
        let names = p.args[1..].iter().map(|n| (ks[0], n.clone())).collect();
        (ks, names)
    };
    let mut errors = Vec::new();
    let mut groups: Vec<(Kind, Vec<&Object>)> = Vec::new();
    for k in &kinds {
        let field_reqs = p
            .get("field-selector")
            .map(|s| parse_field_selector(*k, s))
            .transpose()?;
        let mut objs: Vec<&Object> = if names.is_empty() {
            objects_of(c, *k, ns_filter)
        } else {
            let mut v = Vec::new();
            for (nk, n) in names.iter().filter(|(nk, _)| nk == k) {
                match c.store.get_object(*nk, &key_for(*nk, &ns, n)) {
                    Some(o) => v.push(o),
                    None => errors.push(ApiError::not_found(*nk, n).kubectl_text()),
                }
            }
            v
        };
        if let Some(sel) = &label_sel {
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
    let total: usize = groups.iter().map(|(_, v)| v.len()).sum();
    let output = p.get("output").unwrap_or("");
    let single = !names.is_empty() && names.len() == 1 && total == 1;
    let mut out = String::new();
    match output {
        "" | "wide" => {
            if total == 0 && errors.is_empty() {
                let cluster_scoped = kinds.iter().all(|k| !k.namespaced());
                out = if all_ns || cluster_scoped {
                    "No resources found".into()
                } else {
                    format!("No resources found in {ns} namespace.")
                };
            } else {
                let o = TableOptions {
                    wide: output == "wide",
                    show_labels: p.bool("show-labels"),
                    with_namespace: all_ns,
                    with_kind: kinds.len() > 1 || p.args[0].split(',').any(|t| t == "all"),
                };
                let tables: Vec<String> = groups
                    .iter()
                    .filter(|(_, v)| !v.is_empty())
                    .map(|(k, v)| {
                        let t = table(*k, v, o, now);
                        if p.bool("no-headers") {
                            t.split_once('\n').map(|(_, rest)| rest.to_string()).unwrap_or_default()
                        } else {
                            t
                        }
                    })
                    .collect();
                out = tables.join("\n");
            }
        }
        "name" => {
            for (k, v) in &groups {
                for o in v {
                    out.push_str(&qualified_name(*k, &o.meta().name));
                    out.push('\n');
                }
            }
        }
        "json" | "yaml" => {
            let items: Vec<serde_json::Value> = groups.iter().flat_map(|(_, v)| v.iter().map(|o| o.to_json())).collect();
            let doc = if single { items.into_iter().next().unwrap_or_default() } else { list_json(items) };
            out = if output == "json" { pretty_json(&doc) } else { to_yaml(&doc) };
        }
        o if o.starts_with("jsonpath=") || o.starts_with("jsonpath-as-json=") => {
            let tmpl = o.split_once('=').map(|(_, t)| t).unwrap_or("");
            let t = Template::parse(tmpl)?;
            let items: Vec<serde_json::Value> = groups.iter().flat_map(|(_, v)| v.iter().map(|o| o.to_json())).collect();
            let doc = if single { items.into_iter().next().unwrap_or_default() } else { list_json(items) };
            out = t.execute(&doc);
        }
        other => {
            return Err(format!(
                "error: unable to match a printer suitable for the output format \"{other}\", allowed formats are: json,jsonpath,jsonpath-as-json,name,wide,yaml"
            ))
        }
    }
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

// ---- create / apply -------------------------------------------------------------------

fn read_manifest(
    p: &Parsed,
    stdin: Option<&str>,
    files: &dyn Files,
) -> Result<Vec<crate::manifest::Document>, String> {
    let mut docs = Vec::new();
    let paths = p.all("filename");
    if paths.is_empty() {
        return Err("error: must specify one of -f and -k".into());
    }
    for path in paths {
        let (text, source) = if path == "-" {
            (
                stdin
                    .ok_or("error: no objects passed to apply (stdin is empty)")?
                    .to_string(),
                "STDIN".to_string(),
            )
        } else {
            (
                files.read(path).map_err(|e| format!("error: {e}"))?,
                path.to_string(),
            )
        };
        docs.extend(crate::manifest::parse(&text, &source)?);
    }
    if docs.is_empty() {
        return Err("error: no objects passed to apply".into());
    }
    Ok(docs)
}

fn warnings(doc: &crate::manifest::Document) -> String {
    doc.unknown_fields
        .iter()
        .map(|f| format!("Warning: unknown field \"{f}\"\n"))
        .collect()
}

/// What a manifest may set: the server owns identity, timestamps and status.
fn strip_server_fields(obj: &mut Object) {
    let m = obj.meta_mut();
    m.uid.clear();
    m.resource_version.clear();
    m.creation_timestamp.clear();
    m.deletion_timestamp = None;
    m.generation = 0;
    match obj {
        Object::Deployment(d) => d.status = Default::default(),
        Object::ReplicaSet(r) => r.status = Default::default(),
        Object::Pod(p) => p.status = Default::default(),
        Object::Node(n) => n.status = Default::default(),
        _ => {}
    }
}

const CREATE_FLAGS: &[FlagSpec] = &[
    flag("filename", Some('f')),
    NS,
    flag("image", None),
    flag("replicas", Some('r')),
    flag("port", None),
    flag("dry-run", None),
    flag("selector", None),
    flag("min-available", None),
    flag("max-unavailable", None),
    flag("value", None),
    bool_flag("global-default", None),
    flag("preemption-policy", None),
    flag("description", None),
];

fn create(c: &mut Cluster, words: &[String], stdin: Option<&str>, files: &dyn Files) -> R {
    let p = parse_flags(words, CREATE_FLAGS, "kubectl create")?;
    let ns = namespace(&p);
    if p.args.first().map(String::as_str) == Some("deployment")
        || p.args.first().map(String::as_str) == Some("deploy")
    {
        let name = p
            .args
            .get(1)
            .ok_or("error: exactly one NAME is required, got 0")?;
        let image = p
            .get("image")
            .ok_or("error: required flag(s) \"image\" not set")?;
        let replicas: i64 = p
            .get("replicas")
            .unwrap_or("1")
            .parse()
            .map_err(|_| "error: invalid argument for --replicas".to_string())?;
        let d = new_deployment(name, &ns, image, replicas, p.get("port"))?;
        c.submit(
            &user(),
            Request::Create {
                object: Object::Deployment(Box::new(d)),
                event: None,
            },
        )
        .map_err(api)?;
        return Ok(format!("deployment.apps/{name} created"));
    }
    if matches!(
        p.args.first().map(String::as_str),
        Some("poddisruptionbudget" | "pdb")
    ) {
        let name = p
            .args
            .get(1)
            .ok_or("error: exactly one NAME is required, got 0")?;
        let sel = p
            .get("selector")
            .ok_or("error: a selector must be specified")?;
        let mut spec = PodDisruptionBudgetSpec {
            selector: parse_label_selector(sel)?,
            ..Default::default()
        };
        let parse = |v: &str| {
            v.parse::<i64>()
                .map(IntOrString::Int)
                .unwrap_or_else(|_| IntOrString::String(v.to_string()))
        };
        match (p.get("min-available"), p.get("max-unavailable")) {
            (Some(m), None) => spec.min_available = Some(parse(m)),
            (None, Some(m)) => spec.max_unavailable = Some(parse(m)),
            _ => {
                return Err(
                    "error: one of min-available or max-unavailable must be specified".into(),
                )
            }
        }
        let pdb = PodDisruptionBudget {
            metadata: ObjectMeta {
                name: name.clone(),
                namespace: ns.clone(),
                ..Default::default()
            },
            spec,
            ..Default::default()
        };
        c.submit(
            &user(),
            Request::Create {
                object: Object::PodDisruptionBudget(pdb),
                event: None,
            },
        )
        .map_err(api)?;
        return Ok(format!("poddisruptionbudget.policy/{name} created"));
    }
    if matches!(
        p.args.first().map(String::as_str),
        Some("priorityclass" | "pc")
    ) {
        let name = p
            .args
            .get(1)
            .ok_or("error: exactly one NAME is required, got 0")?;
        let value: i64 = p
            .get("value")
            .unwrap_or("0")
            .parse()
            .map_err(|_| "error: invalid argument for --value".to_string())?;
        let policy = p.get("preemption-policy").unwrap_or("PreemptLowerPriority");
        if policy != "PreemptLowerPriority" && policy != "Never" {
            return Err(format!(
                "The PriorityClass \"{name}\" is invalid: preemptionPolicy: Unsupported value: \"{policy}\": supported values: \"Never\", \"PreemptLowerPriority\""
            ));
        }
        let pc = PriorityClass {
            metadata: ObjectMeta {
                name: name.clone(),
                ..Default::default()
            },
            value,
            global_default: p.bool("global-default"),
            preemption_policy: policy.to_string(),
            description: p.get("description").unwrap_or("").to_string(),
        };
        c.submit(
            &user(),
            Request::Create {
                object: Object::PriorityClass(pc),
                event: None,
            },
        )
        .map_err(api)?;
        return Ok(format!("priorityclass.scheduling.k8s.io/{name} created"));
    }
    if matches!(p.args.first().map(String::as_str), Some("namespace" | "ns")) {
        let name = p
            .args
            .get(1)
            .ok_or("error: exactly one NAME is required, got 0")?;
        let ns = Namespace {
            metadata: ObjectMeta {
                name: name.clone(),
                ..Default::default()
            },
            ..Default::default()
        };
        c.submit(
            &user(),
            Request::Create {
                object: Object::Namespace(ns),
                event: None,
            },
        )
        .map_err(api)?;
        return Ok(format!("namespace/{name} created"));
    }
    if !p.args.is_empty() {
        return Err(format!(
            "error: unknown command \"{}\" for \"kubectl create\"",
            p.args[0]
        ));
    }
    let docs = read_manifest(&p, stdin, files)?;
    let mut out = String::new();
    for doc in docs {
        out.push_str(&warnings(&doc));
        let mut obj = doc.object;
        strip_server_fields(&mut obj);
        if obj.kind().namespaced() && obj.meta().namespace.is_empty() {
            obj.meta_mut().namespace = ns.clone();
        }
        let kind = obj.kind();
        let name = obj.meta().name.clone();
        match c.submit(
            &user(),
            Request::Create {
                object: obj,
                event: None,
            },
        ) {
            Ok(_) => out.push_str(&format!("{} created\n", qualified_name(kind, &name))),
            Err(e) => return Err(format!("{out}{}", api(e))),
        }
    }
    Ok(out)
}

/// `kubectl create deployment`: [`Deployment::create`] with `--port`.
pub fn new_deployment(
    name: &str,
    ns: &str,
    image: &str,
    replicas: i64,
    port: Option<&str>,
) -> Result<Deployment, String> {
    let mut d = Deployment::create(name, ns, image, replicas);
    if let Some(pt) = port {
        d.spec.template.spec.containers[0].ports = vec![ContainerPort {
            container_port: pt
                .parse()
                .map_err(|_| format!("error: invalid port \"{pt}\""))?,
            ..Default::default()
        }];
    }
    Ok(d)
}

const APPLY_FLAGS: &[FlagSpec] = &[
    flag("filename", Some('f')),
    NS,
    bool_flag("server-side", None),
    flag("dry-run", None),
];

const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

fn apply(c: &mut Cluster, words: &[String], stdin: Option<&str>, files: &dyn Files) -> R {
    let p = parse_flags(words, APPLY_FLAGS, "kubectl apply")?;
    let ns = namespace(&p);
    let docs = read_manifest(&p, stdin, files)?;
    let mut out = String::new();
    for doc in docs {
        out.push_str(&warnings(&doc));
        let mut obj = doc.object;
        strip_server_fields(&mut obj);
        if obj.kind().namespaced() && obj.meta().namespace.is_empty() {
            obj.meta_mut().namespace = ns.clone();
        }
        let kind = obj.kind();
        let key = ObjKey::of(obj.meta());
        let mut applied = doc.source.clone();
        if let Some(m) = applied.get_mut("metadata").and_then(|m| m.as_object_mut()) {
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
        obj.meta_mut()
            .annotations
            .insert(LAST_APPLIED.into(), format!("{}\n", applied));
        let name = qualified_name(kind, &key.name);
        let Some(live) = c.store.get_object(kind, &key).cloned() else {
            c.submit(
                &user(),
                Request::Create {
                    object: obj,
                    event: None,
                },
            )
            .map_err(|e| {
                // cmdutil.AddSourceToErr: the server's words after the file they
                // came from.
                let source = match p.get("filename") {
                    Some("-") | None => "STDIN".to_string(),
                    Some(f) => f.to_string(),
                };
                let text = api(e);
                let text = match text.split_once("): ") {
                    Some((head, rest)) if head.starts_with("Error from server (") => {
                        format!("{head}): error when creating \"{source}\": {rest}")
                    }
                    _ => text,
                };
                format!("{out}{text}")
            })?;
            out.push_str(&format!("{name} created\n"));
            continue;
        };
        // Client-side apply, simplified: the manifest's spec, labels and annotations
        // replace the live ones; everything the server owns stays.
        let mut merged = live.clone();
        {
            let m = merged.meta_mut();
            m.labels = obj.meta().labels.clone();
            let mut ann = obj.meta().annotations.clone();
            for (k, v) in &live.meta().annotations {
                if k.starts_with("deployment.kubernetes.io/") {
                    ann.entry(k.clone()).or_insert_with(|| v.clone());
                }
            }
            m.annotations = ann;
        }
        match (&mut merged, &obj) {
            (Object::Deployment(m), Object::Deployment(n)) => m.spec = n.spec.clone(),
            (Object::ReplicaSet(m), Object::ReplicaSet(n)) => m.spec = n.spec.clone(),
            (Object::Pod(m), Object::Pod(n)) => {
                let node = m.spec.node_name.clone();
                m.spec = n.spec.clone();
                if m.spec.node_name.is_empty() {
                    m.spec.node_name = node;
                }
            }
            (Object::Node(m), Object::Node(n)) => m.spec = n.spec.clone(),
            (m, n) => *m = n.clone(),
        }
        crate::apiserver::admission_defaults(&mut merged);
        if merged == live {
            out.push_str(&format!("{name} unchanged\n"));
            continue;
        }
        c.submit(&user(), Request::Update(merged))
            .map_err(|e| format!("{out}{}", api(e)))?;
        out.push_str(&format!("{name} configured\n"));
    }
    Ok(out)
}

// ---- delete ---------------------------------------------------------------------------

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

fn delete(c: &mut Cluster, words: &[String]) -> RB {
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
    let propagation = match p.get("cascade").unwrap_or("background") {
        "background" | "true" => "Background",
        "foreground" => "Foreground",
        "orphan" | "false" => "Orphan",
        other => return Err(format!("error: invalid cascade value ({other}). Must be \"background\", \"foreground\", or \"orphan\"")),
    };
    let force = p.bool("force");
    let grace =
        match p.get("grace-period") {
            Some(g) => Some(g.parse::<i64>().map_err(|_| {
                format!("error: invalid argument \"{g}\" for \"--grace-period\" flag")
            })?),
            None if force => Some(0),
            None if p.bool("now") => Some(1),
            None => None,
        };
    // A negative grace period means "the object's default".
    let grace = grace.filter(|g| *g >= 0);
    let mut victims: Vec<(Kind, ObjKey, String)> = Vec::new();
    let mut errors = Vec::new();
    if p.get("selector").is_some() || p.get("field-selector").is_some() || p.bool("all") {
        let kinds: Vec<Kind> = p
            .args
            .first()
            .ok_or("error: resource(s) were provided, but no name was specified")?
            .split(',')
            .map(kind_arg)
            .collect::<Result<_, _>>()?;
        let sel = p.get("selector").map(parse_label_selector).transpose()?;
        for k in kinds {
            let fields = p
                .get("field-selector")
                .map(|f| parse_field_selector(k, f))
                .transpose()?;
            for o in objects_of(c, k, Some(&ns)) {
                if sel.as_ref().is_none_or(|s| s.matches(&o.meta().labels))
                    && fields.as_ref().is_none_or(|f| fields_match(o, f))
                {
                    victims.push((k, ObjKey::of(o.meta()), o.meta().uid.clone()));
                }
            }
        }
        if victims.is_empty() {
            return Ok((format!("No resources found in {ns} namespace."), None));
        }
    } else {
        let t = targets(&p.args)?;
        if t.is_empty() {
            return Err(if p.args.is_empty() {
                "error: You must provide one or more resources by argument or filename.\nExample resource specifications include:\n   '-f rsrc.yaml'\n   '--filename=rsrc.json'\n   '<resource> <name>'\n   '<resource>'".into()
            } else {
                "error: resource(s) were provided, but no name was specified".into()
            });
        }
        for (k, n) in t {
            let key = key_for(k, &ns, &n);
            match c.store.get_object(k, &key) {
                Some(o) => victims.push((k, key, o.meta().uid.clone())),
                None if p.bool("ignore-not-found") => {}
                None => errors.push(ApiError::not_found(k, &n).kubectl_text()),
            }
        }
    }
    let mut out = String::new();
    if force && grace == Some(0) {
        out.push_str("Warning: Immediate deletion does not wait for confirmation that the running resource has been terminated. The resource may continue to run on the cluster indefinitely.\n");
    }
    let mut deleted = Vec::new();
    for (k, key, uid) in &victims {
        let opts = DeleteOptions {
            grace_period_seconds: grace,
            propagation: Some(propagation.into()),
            precondition_uid: None,
        };
        match c.submit(
            &user(),
            Request::Delete {
                kind: *k,
                key: key.clone(),
                options: opts,
                event: None,
            },
        ) {
            Ok(_) => {
                let word = if force && grace == Some(0) {
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
    if !errors.is_empty() {
        return Err(format!("{out}{}", errors.join("\n")));
    }
    let wait = p.get("wait").unwrap_or("true") != "false";
    if wait && !deleted.is_empty() {
        let timeout = timeout_flag(&p, DEFAULT_WAIT)?;
        return Ok((out, Some(Blocking::gone(c.now() + timeout, deleted))));
    }
    Ok((out, None))
}

// ---- scale / set image ----------------------------------------------------------------

fn one_target(p: &Parsed, verb: &str) -> Result<(Kind, String), String> {
    let t = targets(&p.args)?;
    match t.len() {
        1 => Ok(t.into_iter().next().unwrap_or((Kind::Pod, String::new()))),
        0 => Err(format!("error: resource(s) were provided, but no name was specified\nSee 'kubectl {verb} -h' for help and examples")),
        _ => Err(format!("error: exactly one resource is required for kubectl {verb}")),
    }
}

fn get_cloned(c: &Cluster, kind: Kind, key: &ObjKey) -> Result<Object, String> {
    c.store
        .get_object(kind, key)
        .cloned()
        .ok_or_else(|| ApiError::not_found(kind, &key.name).kubectl_text())
}

fn scale(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            NS,
            flag("replicas", None),
            flag("current-replicas", None),
            flag("timeout", None),
        ],
        "kubectl scale",
    )?;
    let replicas: i64 = p
        .get("replicas")
        .ok_or("error: required flag(s) \"replicas\" not set")?
        .parse()
        .map_err(|_| "error: invalid argument for \"--replicas\" flag".to_string())?;
    if replicas < 0 {
        return Err("error: The --replicas=COUNT flag is required, and COUNT must be greater than or equal to 0".into());
    }
    let (kind, name) = one_target(&p, "scale")?;
    let key = key_for(kind, &namespace(&p), &name);
    let mut obj = get_cloned(c, kind, &key)?;
    match &mut obj {
        Object::Deployment(d) => d.spec.replicas = replicas,
        Object::ReplicaSet(r) => r.spec.replicas = replicas,
        _ => {
            return Err(format!(
                "error: no scaler has been implemented for {{\"\" \"{}\"}}",
                kind.name()
            ))
        }
    }
    c.submit(&user(), Request::Update(obj)).map_err(api)?;
    Ok(format!("{} scaled", qualified_name(kind, &name)))
}

fn set(c: &mut Cluster, words: &[String]) -> R {
    if words.first().map(String::as_str) != Some("image") {
        return Err("error: only `kubectl set image` is supported here".into());
    }
    let p = parse_flags(&words[1..], &[NS], "kubectl set image")?;
    let (res, pairs): (Vec<String>, Vec<String>) =
        p.args.iter().cloned().partition(|a| !a.contains('='));
    if pairs.is_empty() {
        return Err("error: at least one image update is required".into());
    }
    let (kind, name) = one_target(
        &Parsed {
            args: res,
            flags: vec![],
        },
        "set image",
    )?;
    let key = key_for(kind, &namespace(&p), &name);
    let mut obj = get_cloned(c, kind, &key)?;
    let spec = match &mut obj {
        Object::Deployment(d) => &mut d.spec.template.spec,
        Object::ReplicaSet(r) => &mut r.spec.template.spec,
        Object::Pod(p) => &mut p.spec,
        _ => {
            return Err(format!(
                "error: {} does not have containers",
                kind.resource()
            ))
        }
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
    let before = c.store.get_object(kind, &key).cloned();
    if before.as_ref() == Some(&obj) {
        return Ok(String::new());
    }
    c.submit(&user(), Request::Update(obj)).map_err(api)?;
    Ok(format!("{} image updated", qualified_name(kind, &name)))
}

// ---- nodes: cordon, drain, taint ------------------------------------------------------

fn node_obj(c: &Cluster, name: &str) -> Result<Node, String> {
    c.store
        .get::<Node>(&ObjKey::new("", name))
        .cloned()
        .ok_or_else(|| ApiError::not_found(Kind::Node, name).kubectl_text())
}

fn set_unschedulable(c: &mut Cluster, name: &str, on: bool) -> R {
    let mut n = node_obj(c, name)?;
    if n.spec.unschedulable == on {
        return Ok(format!(
            "node/{name} already {}",
            if on { "cordoned" } else { "uncordoned" }
        ));
    }
    n.spec.unschedulable = on;
    c.submit(&user(), Request::Update(Object::Node(n)))
        .map_err(api)?;
    Ok(format!(
        "node/{name} {}",
        if on { "cordoned" } else { "uncordoned" }
    ))
}

fn cordon(c: &mut Cluster, words: &[String], on: bool) -> R {
    let verb = if on { "cordon" } else { "uncordon" };
    let p = parse_flags(
        words,
        &[flag("selector", Some('l'))],
        &format!("kubectl {verb}"),
    )?;
    let names: Vec<String> = if let Some(sel) = p.get("selector") {
        let sel = parse_label_selector(sel)?;
        c.store
            .list::<Node>()
            .filter(|n| sel.matches(&n.metadata.labels))
            .map(|n| n.metadata.name.clone())
            .collect()
    } else {
        p.args
            .iter()
            .map(|a| {
                a.trim_start_matches("node/")
                    .trim_start_matches("nodes/")
                    .to_string()
            })
            .collect()
    };
    if names.is_empty() {
        return Err(format!(
            "error: USAGE: {verb} NODE [flags]\nSee 'kubectl {verb} -h' for help and examples"
        ));
    }
    let mut out = Vec::new();
    for n in names {
        out.push(set_unschedulable(c, &n, on)?);
    }
    Ok(out.join("\n"))
}

const DRAIN_FLAGS: &[FlagSpec] = &[
    bool_flag("ignore-daemonsets", None),
    bool_flag("force", None),
    bool_flag("delete-emptydir-data", None),
    flag("grace-period", None),
    flag("timeout", None),
    flag("selector", Some('l')),
    flag("pod-selector", None),
];

fn drain(c: &mut Cluster, words: &[String]) -> RB {
    let p = parse_flags(words, DRAIN_FLAGS, "kubectl drain")?;
    let name = p
        .args
        .first()
        .ok_or("error: USAGE: drain NODE [flags]\nSee 'kubectl drain -h' for help and examples")?
        .trim_start_matches("node/")
        .to_string();
    let mut out = vec![set_unschedulable(c, &name, true)?];
    let pods: Vec<Pod> = c
        .store
        .pods_on_node(&name)
        .filter(|p| !p.is_terminal())
        .cloned()
        .collect();
    // Filters of k8s.io/kubectl/pkg/drain: unmanaged Pods need --force.
    let unmanaged: Vec<String> = pods
        .iter()
        .filter(|p| p.metadata.controller_ref().is_none())
        .map(|p| format!("{}/{}", p.metadata.namespace, p.metadata.name))
        .collect();
    if !unmanaged.is_empty() && !p.bool("force") {
        let msg = format!(
            "cannot delete Pods that declare no controller (use --force to override): {}",
            unmanaged.join(", ")
        );
        out.push(format!("error: unable to drain node \"{name}\" due to error: {msg}, continuing command...\nThere are pending nodes to be drained:\n {name}\n{msg}"));
        return Err(out.join("\n"));
    }
    if !unmanaged.is_empty() {
        out.push(format!(
            "Warning: deleting Pods that declare no controller: {}",
            unmanaged.join(", ")
        ));
    }
    // Through the Eviction API, as kubectl drain does: a disruption budget that
    // allows nothing answers 429 and the eviction is retried every 5 s.
    let mut text = out.join("\n");
    text.push('\n');
    let mut pending = Vec::new();
    let mut refused = Vec::new();
    for pod in &pods {
        text.push_str(&format!(
            "evicting pod {}/{}\n",
            pod.metadata.namespace, pod.metadata.name
        ));
        let key = ObjKey::of(&pod.metadata);
        match super::wait::evict(c, &key, &mut text) {
            Some(uid) => pending.push((key, uid)),
            None => refused.push(key),
        }
    }
    let timeout = timeout_flag(&p, DEFAULT_WAIT)?;
    let next_try = c.now() + super::wait::EVICTION_RETRY;
    Ok((
        text,
        Some(Blocking::drain(
            c.now() + timeout,
            name,
            refused,
            next_try,
            pending,
            timeout,
        )),
    ))
}

fn taint(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            bool_flag("overwrite", None),
            flag("selector", Some('l')),
            bool_flag("all", None),
        ],
        "kubectl taint",
    )?;
    let mut args = p.args.clone();
    if args
        .first()
        .is_some_and(|a| resolve_kind(a) == Some(Kind::Node))
    {
        args.remove(0);
    }
    let Some(node_name) = args
        .first()
        .map(|a| a.trim_start_matches("node/").to_string())
    else {
        return Err("error: at least one taint update is required".into());
    };
    let specs = &args[1..];
    if specs.is_empty() {
        return Err("error: at least one taint update is required".into());
    }
    let mut n = node_obj(c, &node_name)?;
    let mut removed_any = false;
    let mut added_any = false;
    for s in specs {
        if let Some(rm) = s.strip_suffix('-') {
            let (k, effect) = match rm.split_once(':') {
                Some((k, e)) => (k.split('=').next().unwrap_or(k), Some(e)),
                None => (rm.split('=').next().unwrap_or(rm), None),
            };
            let before = n.spec.taints.len();
            n.spec
                .taints
                .retain(|t| !(t.key == k && effect.is_none_or(|e| t.effect == e)));
            if n.spec.taints.len() == before {
                return Err(format!("error: taint {rm:?} not found"));
            }
            removed_any = true;
        } else {
            let (kv, effect) = s
                .split_once(':')
                .ok_or_else(|| format!("error: invalid taint spec: {s}, unknown taint effect"))?;
            if TaintEffect::parse(effect).is_none() {
                return Err(format!(
                    "error: invalid taint effect: {effect}, unsupported taint effect"
                ));
            }
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            if let Some(existing) = n
                .spec
                .taints
                .iter_mut()
                .find(|t| t.key == k && t.effect == effect)
            {
                if !p.bool("overwrite") {
                    return Err(format!("error: node {node_name} already has {k} taint(s) with same effect(s) and --overwrite is false"));
                }
                existing.value = v.into();
            } else {
                let now = c.now();
                n.spec.taints.push(Taint {
                    key: k.into(),
                    value: v.into(),
                    effect: effect.into(),
                    time_added: (effect == TaintEffect::NoExecute).then(|| rfc3339(now)),
                    added_ms: now,
                });
            }
            added_any = true;
        }
    }
    c.submit(&user(), Request::Update(Object::Node(n)))
        .map_err(api)?;
    Ok(format!(
        "node/{node_name} {}",
        if added_any || !removed_any {
            "tainted"
        } else {
            "untainted"
        }
    ))
}

fn label(c: &mut Cluster, words: &[String], annotations: bool) -> R {
    let verb = if annotations { "annotate" } else { "label" };
    let p = parse_flags(
        words,
        &[
            NS,
            bool_flag("overwrite", None),
            flag("selector", Some('l')),
            bool_flag("all", None),
        ],
        &format!("kubectl {verb}"),
    )?;
    let (res, changes): (Vec<String>, Vec<String>) = p.args.iter().cloned().partition(|a| {
        !(a.contains('=') || a.ends_with('-')) || a.contains('/') && !a.contains('=')
    });
    if changes.is_empty() {
        return Err(format!(
            "error: at least one {} update is required",
            if annotations { "annotation" } else { "label" }
        ));
    }
    let t = targets(&res)?;
    if t.is_empty() {
        return Err("error: one or more resources must be specified as <resource> <name> or <resource>/<name>".into());
    }
    let ns = namespace(&p);
    let mut out = Vec::new();
    for (kind, name) in t {
        let key = key_for(kind, &ns, &name);
        let mut obj = get_cloned(c, kind, &key)?;
        let map = if annotations {
            &mut obj.meta_mut().annotations
        } else {
            &mut obj.meta_mut().labels
        };
        for ch in &changes {
            if let Some(k) = ch.strip_suffix('-') {
                map.remove(k);
            } else if let Some((k, v)) = ch.split_once('=') {
                if let Some(old) = map.get(k) {
                    if old != v && !p.bool("overwrite") {
                        return Err(format!(
                            "error: '{k}' already has a value ({old}), and --overwrite is false"
                        ));
                    }
                }
                map.insert(k.to_string(), v.to_string());
            }
        }
        let unchanged = c.store.get_object(kind, &key) == Some(&obj);
        if !unchanged {
            c.submit(&user(), Request::Update(obj)).map_err(api)?;
        }
        let only_removals = changes.iter().all(|ch| ch.ends_with('-'));
        let word = match (annotations, unchanged, only_removals) {
            (true, _, _) => "annotated",
            (false, true, _) => "not labeled",
            (false, false, true) => "unlabeled",
            (false, false, false) => "labeled",
        };
        out.push(format!("{} {word}", qualified_name(kind, &name)));
    }
    Ok(out.join("\n"))
}

// ---- patch ----------------------------------------------------------------------------

/// RFC 7386 JSON merge patch.
fn merge_patch(target: &mut serde_json::Value, patch: &serde_json::Value) {
    match (target, patch) {
        (serde_json::Value::Object(t), serde_json::Value::Object(p)) => {
            for (k, v) in p {
                if v.is_null() {
                    t.remove(k);
                } else {
                    merge_patch(t.entry(k.clone()).or_insert(serde_json::Value::Null), v);
                }
            }
        }
        (t, p) => *t = p.clone(),
    }
}

/// Keep the fields serde skips (simulated times) across a JSON round trip.
fn restore_hidden(orig: &Object, new: &mut Object) {
    let o = orig.meta();
    let m = new.meta_mut();
    m.created_ms = o.created_ms;
    m.deletion_ms = o.deletion_ms;
}

fn patch(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[NS, flag("patch", Some('p')), flag("type", None)],
        "kubectl patch",
    )?;
    let (kind, name) = one_target(&p, "patch")?;
    let body = p.get("patch").ok_or("error: must specify -p to patch")?;
    let patch: serde_json::Value = serde_yaml_ng::from_str(body)
        .map_err(|e| format!("error: unable to parse \"{body}\": {e}"))?;
    match p.get("type").unwrap_or("strategic") {
        "merge" | "strategic" => {}
        "json" => return Err("error: --type=json is not supported here; use --type=merge".into()),
        t => {
            return Err(format!(
                "error: --type must be one of [json merge strategic], not \"{t}\""
            ))
        }
    }
    let key = key_for(kind, &namespace(&p), &name);
    let live = get_cloned(c, kind, &key)?;
    let before = live.to_json();
    let mut v = before.clone();
    merge_patch(&mut v, &patch);
    // Compare in the API's JSON shape: simulator-only fields are not part of it.
    if v == before {
        return Ok(format!(
            "{} patched (no change)",
            qualified_name(kind, &name)
        ));
    }
    let mut ignored = Vec::new();
    let mut obj = crate::manifest::decode(kind, v, &mut ignored)
        .map_err(|(path, msg)| format!("error: unable to decode patched object: {path}: {msg}"))?;
    restore_hidden(&live, &mut obj);
    let status_changed = before.get("status") != obj.to_json().get("status");
    let req = if status_changed && !matches!((&obj, &live), (a, b) if a.spec_differs(b)) {
        Request::blind_update_status(obj)
    } else {
        Request::blind_update(obj)
    };
    c.submit(&user(), req).map_err(api)?;
    Ok(format!("{} patched", qualified_name(kind, &name)))
}

// ---- wait -----------------------------------------------------------------------------

fn wait(c: &mut Cluster, words: &[String]) -> RB {
    let p = parse_flags(
        words,
        &[
            NS,
            flag("for", None),
            flag("timeout", None),
            flag("selector", Some('l')),
            bool_flag("all", None),
        ],
        "kubectl wait",
    )?;
    let cond = p
        .get("for")
        .ok_or("error: --for must be specified")?
        .to_string();
    let ns = namespace(&p);
    let mut keys: Vec<(Kind, ObjKey)> = Vec::new();
    if p.get("selector").is_some() || p.bool("all") {
        let k = kind_arg(
            p.args
                .first()
                .ok_or("error: resource(s) were provided, but no name was specified")?,
        )?;
        let sel = p.get("selector").map(parse_label_selector).transpose()?;
        for o in objects_of(c, k, Some(&ns)) {
            if sel.as_ref().is_none_or(|s| s.matches(&o.meta().labels)) {
                keys.push((k, ObjKey::of(o.meta())));
            }
        }
        if keys.is_empty() {
            return Err("error: no matching resources found".into());
        }
    } else {
        for (k, n) in targets(&p.args)? {
            let key = key_for(k, &ns, &n);
            if c.store.get_object(k, &key).is_none() && cond != "delete" {
                return Err(ApiError::not_found(k, &n).kubectl_text());
            }
            keys.push((k, key));
        }
    }
    let timeout = timeout_flag(&p, 30_000)?;
    if !(cond == "delete" || cond.starts_with("condition=") || cond.starts_with("jsonpath=")) {
        return Err(format!("error: unrecognized condition: \"{cond}\""));
    }
    Ok((
        String::new(),
        Some(Blocking::conditions(c.now() + timeout, keys, cond)),
    ))
}

// ---- rollout --------------------------------------------------------------------------

fn deployment(c: &Cluster, ns: &str, name: &str) -> Result<Deployment, String> {
    c.store
        .get::<Deployment>(&ObjKey::new(ns, name))
        .cloned()
        .ok_or_else(|| ApiError::not_found(Kind::Deployment, name).kubectl_text())
}

fn owned_rs(c: &Cluster, d: &Deployment) -> Vec<ReplicaSet> {
    crate::controllers::deployment::owned_replica_sets(&c.store, d)
}

fn rollout(c: &mut Cluster, words: &[String]) -> RB {
    let Some(sub) = words.first() else {
        return Err(
            "error: Required subcommand: one of history, pause, restart, resume, status, undo"
                .into(),
        );
    };
    let p = parse_flags(
        &words[1..],
        &[
            NS,
            flag("revision", None),
            flag("to-revision", None),
            flag("timeout", None),
            flag("watch", Some('w')),
        ],
        &format!("kubectl rollout {sub}"),
    )?;
    let ns = namespace(&p);
    let (kind, name) = one_target(&p, &format!("rollout {sub}"))?;
    if kind != Kind::Deployment {
        return Err(format!(
            "error: no {sub} has been implemented for {{\"{}\" \"{}\"}} here",
            kind.api_version().split('/').next().unwrap_or(""),
            kind.name()
        ));
    }
    let qn = qualified_name(kind, &name);
    match sub.as_str() {
        "status" => {
            let timeout = timeout_flag(&p, DEFAULT_WAIT)?;
            deployment(c, &ns, &name)?;
            let mut b = Blocking::rollout(c.now() + timeout, ns.clone(), name.clone());
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
        "history" => {
            let d = deployment(c, &ns, &name)?;
            let mut rss = owned_rs(c, &d);
            rss.sort_by_key(|r| revision(&r.metadata));
            if let Some(rev) = p.get("revision") {
                let want: i64 = rev
                    .parse()
                    .map_err(|_| format!("error: invalid revision {rev}"))?;
                let rs = rss
                    .iter()
                    .find(|r| revision(&r.metadata) == want)
                    .ok_or_else(|| "error: unable to find the specified revision".to_string())?;
                let mut out = format!("{qn} with revision #{want}\n");
                out.push_str(&crate::printers::describe::pod_template(
                    &rs.spec.template,
                    0,
                ));
                return Ok((out, None));
            }
            // polymorphichelpers/history.go: a tabwriter with padding 2.
            let mut text = format!("{qn} \nREVISION\tCHANGE-CAUSE\n");
            for rs in &rss {
                let cause = rs
                    .metadata
                    .annotations
                    .get("kubernetes.io/change-cause")
                    .cloned()
                    .unwrap_or_else(|| "<none>".into());
                text.push_str(&format!("{}\t{cause}\n", revision(&rs.metadata)));
            }
            Ok((crate::printers::tabwriter::format(&text, 0, 2), None))
        }
        "pause" | "resume" => {
            let pause = sub == "pause";
            let mut d = deployment(c, &ns, &name)?;
            if d.spec.paused == pause {
                // kubectl prints this through its normal printer: not an error.
                return Ok((
                    format!("{qn} already {}", if pause { "paused" } else { "resumed" }),
                    None,
                ));
            }
            d.spec.paused = pause;
            c.submit(&user(), Request::Update(Object::Deployment(Box::new(d))))
                .map_err(api)?;
            Ok((
                format!("{qn} {}", if pause { "paused" } else { "resumed" }),
                None,
            ))
        }
        "restart" => {
            let mut d = deployment(c, &ns, &name)?;
            if d.spec.paused {
                return Err(format!("error: deployments.apps \"{name}\" can't restart paused deployment (run rollout resume first)"));
            }
            d.spec
                .template
                .metadata
                .annotations
                .insert("kubectl.kubernetes.io/restartedAt".into(), rfc3339(c.now()));
            c.submit(&user(), Request::Update(Object::Deployment(Box::new(d))))
                .map_err(api)?;
            Ok((format!("{qn} restarted"), None))
        }
        "undo" => {
            let mut d = deployment(c, &ns, &name)?;
            if d.spec.paused {
                return Err("error: you cannot rollback a paused deployment; resume it first with 'kubectl rollout resume' and try again".into());
            }
            let rss = owned_rs(c, &d);
            let to: i64 = p
                .get("to-revision")
                .unwrap_or("0")
                .parse()
                .map_err(|_| "error: invalid --to-revision".to_string())?;
            let mut revs: Vec<(i64, &ReplicaSet)> =
                rss.iter().map(|r| (revision(&r.metadata), r)).collect();
            revs.sort_by_key(|(r, _)| *r);
            let target = if to == 0 {
                if revs.len() < 2 {
                    return Err(format!(
                        "error: no rollout history found for deployment \"{name}\""
                    ));
                }
                revs[revs.len() - 2]
            } else {
                *revs.iter().find(|(r, _)| *r == to).ok_or_else(|| {
                    format!("error: unable to find specified revision {to} in history")
                })?
            };
            let mut t = target.1.spec.template.clone();
            t.metadata.labels.remove(POD_TEMPLATE_HASH_LABEL);
            if crate::controllers::deployment::util::equal_ignore_hash(&t, &d.spec.template) {
                return Ok((
                    format!(
                        "{qn} skipped rollback (current template already matches revision {})",
                        target.0
                    ),
                    None,
                ));
            }
            d.spec.template = t;
            c.submit(&user(), Request::Update(Object::Deployment(Box::new(d))))
                .map_err(api)?;
            Ok((format!("{qn} rolled back"), None))
        }
        other => Err(format!(
            "error: unknown command \"{other}\" for \"kubectl rollout\""
        )),
    }
}

// ---- describe -------------------------------------------------------------------------

fn describe(c: &mut Cluster, words: &[String]) -> R {
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
