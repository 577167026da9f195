//! Who kubectl is, and what the API server lets it do: the current context's user
//! (or `--as`/`--as-group` impersonation), authentication (a token it no longer
//! accepts is 401), and RBAC authorization of each request the command would send,
//! in the order kubectl sends them. The first refused request ends the command with
//! the API server's 403, worded as that verb of kubectl prints it.
//!
//! The requests per verb follow kubectl v1.33's code paths: `get TYPE` lists, `get
//! TYPE NAME` gets; `scale` patches the `scale` subresource without reading first;
//! `label`, `annotate`, `set image`, `rollout restart`, `cordon`, `taint` read the
//! object, then patch it; `apply` reads, then creates or patches; `create -f` creates;
//! `replace` updates; `logs` reads the Pod, then `pods/log`; `drain` reads the node,
//! patches it, lists its Pods and evicts them; `expose` reads its target, then creates
//! the Service. Discovery, `version` and `auth can-i` are open to every authenticated
//! user (the bootstrap `system:discovery` and `system:basic-user` roles).

use super::create::info_string;
use super::*;
use crate::api::{Kind, Object};
use crate::apiserver::rbac::{authorize, forbidden, Attributes, Decision, UserInfo};

/// One request a command sends, and how kubectl words its refusal.
struct Call {
    attrs: Attributes,
    wrap: Wrap,
}

/// How kubectl prints a refused request.
#[derive(Clone)]
enum Wrap {
    /// `Error from server (Forbidden): …`.
    Plain,
    /// A generator's `error: failed to create WHAT: …`.
    FailedToCreate(String),
    /// `Error from server (Forbidden): error when VERB "FILE": …`.
    Source(String, String),
}

/// The words without the impersonation flags, the user `--as` names and the groups
/// `--as-group` name.
pub(super) type Impersonation = (Vec<String>, Option<String>, Vec<String>);

/// `--as USER`, `--as-group GROUP` (repeatable), removed from the words.
pub(super) fn take_impersonation(words: &[String]) -> Result<Impersonation, String> {
    let mut out = Vec::new();
    let mut user = None;
    let mut groups = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if w == "--" {
            out.extend(words[i..].iter().cloned());
            break;
        }
        let (flag, inline) = match w.split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (w.as_str(), None),
        };
        if flag == "--as" || flag == "--as-group" {
            let value = match inline {
                Some(v) => v,
                None => {
                    i += 1;
                    words
                        .get(i)
                        .cloned()
                        .ok_or_else(|| format!("error: flag needs an argument: {flag}"))?
                }
            };
            if flag == "--as" {
                user = Some(value);
            } else {
                groups.push(value);
            }
        } else {
            out.push(w.clone());
        }
        i += 1;
    }
    if user.is_none() && !groups.is_empty() {
        return Err(
            "error: requesting uid, groups or user-extra for test without impersonating a user"
                .into(),
        );
    }
    Ok((out, user, groups))
}

/// The user the API server sees for this command: the current context's, or the one
/// it impersonates (the context's user must be allowed to `impersonate` it).
pub(super) fn requester(
    c: &Cluster,
    as_user: Option<&str>,
    as_groups: &[String],
) -> Result<UserInfo, String> {
    let Some(me) = c.current_user() else {
        // The authentication filter: 401, which kubectl words as a login problem.
        return Err("error: You must be logged in to the server (Unauthorized)\n".into());
    };
    let Some(name) = as_user else {
        return Ok(me);
    };
    crate::apiserver::rbac::impersonate(&c.store, &me, name, as_groups)
        .map_err(|e| format!("{}\n", e.kubectl_text()))
}

/// Flags that take a value as the next word.
const VALUE_FLAGS: &[&str] = &[
    "-n",
    "--namespace",
    "-l",
    "--selector",
    "-o",
    "--output",
    "-f",
    "--filename",
    "-c",
    "--container",
    "-p",
    "--patch",
    "--field-selector",
    "--replicas",
    "--image",
    "--port",
    "--target-port",
    "--type",
    "--name",
    "--sort-by",
    "--timeout",
    "--grace-period",
    "--tail",
    "--for",
    "--to-revision",
    "--since",
    "--protocol",
    "--selector-key",
    "--min-available",
    "--max-unavailable",
    "--tcp",
    "--value",
    "--description",
    "--preemption-policy",
    "--verb",
    "--resource",
    "--resource-name",
    "--role",
    "--clusterrole",
    "--user",
    "--group",
    "--serviceaccount",
    "--hard",
    "--scopes",
    "--current-replicas",
    "--resource-version",
    "-L",
    "--label-columns",
    "--cascade",
    "--field-manager",
    "--subresource",
];

/// The words that are not flags or flag values, and the flags' values by name.
fn split(words: &[String]) -> (Vec<String>, Vec<(String, String)>) {
    let mut args = Vec::new();
    let mut flags = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if w == "--" {
            args.extend(words[i + 1..].iter().cloned());
            break;
        }
        if let Some((f, v)) = w.split_once('=').filter(|_| w.starts_with('-')) {
            flags.push((f.to_string(), v.to_string()));
        } else if VALUE_FLAGS.contains(&w.as_str()) {
            flags.push((w.clone(), words.get(i + 1).cloned().unwrap_or_default()));
            i += 1;
        } else if w.starts_with('-') && w.len() > 1 {
            flags.push((w.clone(), String::new()));
        } else {
            args.push(w.clone());
        }
        i += 1;
    }
    (args, flags)
}

fn flag<'a>(flags: &'a [(String, String)], names: &[&str]) -> Option<&'a str> {
    flags
        .iter()
        .rev()
        .find(|(f, _)| names.contains(&f.as_str()))
        .map(|(_, v)| v.as_str())
}

fn has(flags: &[(String, String)], names: &[&str]) -> bool {
    flags.iter().any(|(f, _)| names.contains(&f.as_str()))
}

/// The objects `-f` names (None: kubectl's own reading fails first, which the verb
/// reports).
fn file_objects(
    flags: &[(String, String)],
    stdin: Option<&str>,
    files: &dyn Files,
) -> Option<(String, Vec<Object>)> {
    let path = flag(flags, &["-f", "--filename"])?;
    let (text, source) = if path == "-" {
        (stdin?.to_string(), "STDIN".to_string())
    } else {
        (files.read(path).ok()?, path.to_string())
    };
    let docs = crate::manifest::parse(&text, &source).ok()?;
    Some((source, docs.into_iter().map(|d| d.object).collect()))
}

/// `TYPE NAME…` or `TYPE/NAME…` arguments as (kind, name) pairs; a bare `TYPE` (or
/// `TYPE,TYPE`) has an empty name.
fn targets_of(args: &[String]) -> Vec<(Kind, String)> {
    let mut out = Vec::new();
    if args.first().is_some_and(|a| a.contains('/')) {
        for a in args {
            if let Some((t, n)) = a.split_once('/') {
                if let Some(k) = crate::printers::get::resolve_kind(t) {
                    out.push((k, n.to_string()));
                }
            }
        }
        return out;
    }
    let Some(types) = args.first() else {
        return out;
    };
    for t in types.split(',') {
        let Some(k) = crate::printers::get::resolve_kind(t) else {
            continue;
        };
        if args.len() > 1 {
            out.extend(args[1..].iter().map(|n| (k, n.clone())));
        } else {
            out.push((k, String::new()));
        }
    }
    out
}

/// The requests `kubectl WORDS…` sends, in order (what authorization sees).
fn calls(c: &Cluster, words: &[String], stdin: Option<&str>, files: &dyn Files) -> Vec<Call> {
    let (args, flags) = split(words);
    let Some(verb) = args.first().map(String::as_str) else {
        return vec![];
    };
    let rest = &args[1..];
    let ns = flag(&flags, &["-n", "--namespace"]).unwrap_or("default");
    let all_ns = has(&flags, &["-A", "--all-namespaces"]);
    let plain = |verb: &str, kind: Kind, name: &str| Call {
        attrs: Attributes::on(verb, kind, if all_ns { "" } else { ns }, name),
        wrap: Wrap::Plain,
    };
    let obj_ns = |o: &Object| {
        if o.meta().namespace.is_empty() {
            ns.to_string()
        } else {
            o.meta().namespace.clone()
        }
    };
    let mut out = Vec::new();
    match verb {
        "get" | "describe" => {
            if let Some((_, objs)) = file_objects(&flags, stdin, files) {
                for o in &objs {
                    out.push(Call {
                        attrs: Attributes::on("get", o.kind(), &obj_ns(o), &o.meta().name),
                        wrap: Wrap::Plain,
                    });
                }
            } else {
                for (k, n) in targets_of(rest) {
                    let v = if n.is_empty() { "list" } else { "get" };
                    out.push(plain(v, k, &n));
                }
            }
        }
        "delete" => {
            if let Some((source, objs)) = file_objects(&flags, stdin, files) {
                for o in &objs {
                    out.push(Call {
                        attrs: Attributes::on("delete", o.kind(), &obj_ns(o), &o.meta().name),
                        wrap: Wrap::Source("deleting".into(), source.clone()),
                    });
                }
            } else {
                for (k, n) in targets_of(rest) {
                    if n.is_empty() {
                        // `-l`, `--all`: the list comes first.
                        out.push(plain("list", k, ""));
                    } else {
                        out.push(plain("delete", k, &n));
                    }
                }
            }
        }
        "create" | "apply" | "replace" if has(&flags, &["-f", "--filename"]) => {
            if let Some((source, objs)) = file_objects(&flags, stdin, files) {
                for o in &objs {
                    let (kind, ons, name) = (o.kind(), obj_ns(o), o.meta().name.clone());
                    let at = |v: &str| Attributes::on(v, kind, &ons, &name);
                    match verb {
                        "create" => out.push(Call {
                            attrs: Attributes::on("create", kind, &ons, ""),
                            wrap: Wrap::Source("creating".into(), source.clone()),
                        }),
                        "replace" => out.push(Call {
                            attrs: at("update"),
                            wrap: Wrap::Source("replacing".into(), source.clone()),
                        }),
                        _ => {
                            let key = crate::apiserver::ObjKey::new(
                                if kind.namespaced() { &ons } else { "" },
                                &name,
                            );
                            out.push(Call {
                                attrs: at("get"),
                                wrap: Wrap::Source(
                                    format!(
                                        "retrieving current configuration of:\n{}\nfrom server for:",
                                        info_string(kind, &key)
                                    ),
                                    source.clone(),
                                ),
                            });
                            let exists = c.store.get_object(kind, &key).is_some();
                            out.push(if exists {
                                Call {
                                    attrs: at("patch"),
                                    wrap: Wrap::Source("patching".into(), source.clone()),
                                }
                            } else {
                                Call {
                                    attrs: Attributes::on("create", kind, &ons, ""),
                                    wrap: Wrap::Source("creating".into(), source.clone()),
                                }
                            });
                        }
                    }
                }
            }
        }
        "create" => {
            let generated = |kind: Kind, what: Option<&str>| Call {
                attrs: Attributes::on("create", kind, ns, ""),
                wrap: match what {
                    Some(w) => Wrap::FailedToCreate(w.into()),
                    None => Wrap::Plain,
                },
            };
            match rest.first().map(String::as_str) {
                Some("deployment" | "deploy") => {
                    out.push(generated(Kind::Deployment, Some("deployment")))
                }
                Some("poddisruptionbudget" | "pdb") => out.push(generated(
                    Kind::PodDisruptionBudget,
                    Some("poddisruptionbudgets"),
                )),
                Some("priorityclass" | "pc") => {
                    out.push(generated(Kind::PriorityClass, Some("priorityclass")))
                }
                Some("service" | "svc") => {
                    let t = match rest.get(1).map(String::as_str) {
                        Some("nodeport") => "NodePort",
                        Some("loadbalancer") => "LoadBalancer",
                        Some("externalname") => "ExternalName",
                        _ => "ClusterIP",
                    };
                    out.push(generated(Kind::Service, Some(&format!("{t} service"))))
                }
                Some("namespace" | "ns") => out.push(generated(Kind::Namespace, None)),
                Some("quota" | "resourcequota") => {
                    out.push(generated(Kind::ResourceQuota, Some("quota")))
                }
                Some("role") => out.push(generated(Kind::Role, None)),
                Some("clusterrole") => out.push(generated(Kind::ClusterRole, None)),
                Some("rolebinding") => out.push(generated(Kind::RoleBinding, None)),
                Some("clusterrolebinding") => out.push(generated(Kind::ClusterRoleBinding, None)),
                _ => {}
            }
        }
        "run" => out.push(Call {
            attrs: Attributes::on("create", Kind::Pod, ns, ""),
            wrap: Wrap::Plain,
        }),
        "scale" => {
            for (k, n) in targets_of(rest) {
                out.push(Call {
                    attrs: Attributes::on("patch", k, ns, &n).subresource("scale"),
                    wrap: Wrap::Plain,
                });
            }
        }
        "patch" => {
            for (k, n) in targets_of(rest) {
                out.push(plain("patch", k, &n));
            }
        }
        "label" | "annotate" | "edit" => {
            for (k, n) in targets_of(rest) {
                if n.is_empty() {
                    out.push(plain("list", k, ""));
                } else {
                    out.push(plain("get", k, &n));
                    out.push(plain("patch", k, &n));
                }
            }
        }
        "set" => {
            for (k, n) in targets_of(rest.get(1..).unwrap_or_default()) {
                out.push(plain("get", k, &n));
                out.push(plain("patch", k, &n));
            }
        }
        "expose" => {
            for (k, n) in targets_of(rest) {
                out.push(plain("get", k, &n));
            }
            out.push(Call {
                attrs: Attributes::on("create", Kind::Service, ns, ""),
                wrap: Wrap::FailedToCreate("ClusterIP service".into()),
            });
        }
        "rollout" => {
            let sub = rest.first().map(String::as_str).unwrap_or("");
            for (k, n) in targets_of(rest.get(1..).unwrap_or_default()) {
                out.push(plain("get", k, &n));
                match sub {
                    "restart" | "pause" | "resume" | "undo" => out.push(plain("patch", k, &n)),
                    _ => {}
                }
                if matches!(sub, "undo" | "history") {
                    out.push(plain("list", Kind::ReplicaSet, ""));
                }
            }
        }
        "cordon" | "uncordon" | "drain" => {
            for n in rest {
                out.push(plain("get", Kind::Node, n));
                out.push(plain("patch", Kind::Node, n));
                if verb == "drain" {
                    out.push(Call {
                        attrs: Attributes::on("list", Kind::Pod, "", ""),
                        wrap: Wrap::Plain,
                    });
                    for p in c.store.pods_on_node(n) {
                        out.push(Call {
                            attrs: Attributes::on(
                                "create",
                                Kind::Pod,
                                &p.metadata.namespace,
                                &p.metadata.name,
                            )
                            .subresource("eviction"),
                            wrap: Wrap::Plain,
                        });
                    }
                }
            }
        }
        "taint" => {
            for n in rest.get(1..).unwrap_or_default() {
                if n.contains(['=', ':']) || n.ends_with('-') {
                    break;
                }
                out.push(plain("get", Kind::Node, n));
                out.push(plain("patch", Kind::Node, n));
            }
        }
        "logs" => {
            let name = rest
                .first()
                .map(|n| n.split_once('/').map(|(_, n)| n).unwrap_or(n))
                .unwrap_or("");
            if rest
                .first()
                .is_some_and(|n| !n.contains('/') || n.starts_with("pod"))
            {
                out.push(plain("get", Kind::Pod, name));
                out.push(Call {
                    attrs: Attributes::on("get", Kind::Pod, ns, name).subresource("log"),
                    wrap: Wrap::Plain,
                });
            } else if let Some((k, n)) = targets_of(rest.get(..1).unwrap_or_default()).first() {
                out.push(plain("get", *k, n));
                out.push(plain("list", Kind::Pod, ""));
            }
        }
        "wait" => {
            for (k, n) in targets_of(rest) {
                let v = if n.is_empty() { "list" } else { "get" };
                out.push(plain(v, k, &n));
            }
        }
        _ => {}
    }
    out
}

/// The first request the command would send (what a 401 refused).
pub(super) fn first_call(
    c: &Cluster,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
) -> Option<Attributes> {
    calls(c, words, stdin, files)
        .into_iter()
        .next()
        .map(|c| c.attrs)
}

/// What authorization made of a command's requests.
pub(super) struct Verdicts {
    /// The requests allowed, each with the reason RBAC gave, in order.
    pub(super) allowed: Vec<(Attributes, String)>,
    /// The first refused request, its 403, and kubectl's output for the command.
    pub(super) refusal: Option<(Attributes, crate::apiserver::ApiError, Outcome)>,
}

/// Authorize each request of the command, in order: the first refused one ends it,
/// worded as kubectl prints it (`get` of several types reports each refused type).
pub(super) fn decide(
    c: &Cluster,
    user: &UserInfo,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
) -> Verdicts {
    let verb = words.first().map(String::as_str).unwrap_or("");
    let mut lines = Vec::new();
    let mut allowed = Vec::new();
    let mut first: Option<(Attributes, crate::apiserver::ApiError)> = None;
    for call in calls(c, words, stdin, files) {
        let reason = match authorize(&c.store, user, &call.attrs) {
            Decision::Allow(why) => {
                allowed.push((call.attrs, why));
                continue;
            }
            Decision::Deny(reason) => reason,
        };
        let e = forbidden(user, &call.attrs, &reason);
        lines.push(match &call.wrap {
            Wrap::Plain => e.kubectl_text(),
            Wrap::FailedToCreate(what) => format!("error: failed to create {what}: {}", e.message),
            Wrap::Source(v, source) => format!(
                "Error from server (Forbidden): error when {v} \"{source}\": {}",
                e.message
            ),
        });
        first.get_or_insert((call.attrs, e));
        if verb != "get" {
            break;
        }
    }
    Verdicts {
        allowed,
        refusal: first.map(|(a, e)| (a, e, Outcome::err(format!("{}\n", lines.join("\n"))))),
    }
}
