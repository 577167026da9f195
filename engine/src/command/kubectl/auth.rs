//! `kubectl auth can-i`, `kubectl auth whoami` and `kubectl config
//! get-contexts|current-context|use-context`.
//!
//! Upstream: kubectl `pkg/cmd/auth/cani.go` (a SelfSubjectAccessReview, or with
//! `--list` a SelfSubjectRulesReview printed through `BreakdownRule`, `CompactRules`
//! and the rules' sort order), `pkg/cmd/auth/whoami.go`, `pkg/cmd/config/`.

use super::*;
use crate::apiserver::rbac::Attributes;
use crate::apiserver::request::{Review, ReviewAnswer};
use crate::command::client::Client;
use crate::printers::table::render;

/// Resource verbs `can-i` knows without a warning.
const RESOURCE_VERBS: &[&str] = &[
    "get",
    "list",
    "watch",
    "create",
    "update",
    "patch",
    "delete",
    "deletecollection",
    "use",
    "bind",
    "impersonate",
    "*",
    "approve",
    "sign",
    "escalate",
    "attest",
];

/// Verbs for non-resource URLs.
const NON_RESOURCE_VERBS: &[&str] = &[
    "get", "put", "post", "head", "options", "delete", "patch", "*",
];

/// `kubectl auth SUBCOMMAND …`: a self-review the API server answers.
pub(super) fn auth(c: &mut Cluster, k: &Client, words: &[String]) -> Outcome {
    match words.first().map(String::as_str) {
        Some("can-i") => can_i(c, k, &words[1..]),
        Some("whoami") => match k.review(c, Review::WhoAmI) {
            Ok(ReviewAnswer::WhoAmI(user)) => {
                let rows = vec![
                    vec!["ATTRIBUTE".to_string(), "VALUE".to_string()],
                    vec!["Username".into(), user.name.clone()],
                    vec!["Groups".into(), format!("[{}]", user.groups.join(" "))],
                ];
                Outcome::ok(render(&rows))
            }
            Ok(_) => Outcome::err("error: unexpected review answer\n".into()),
            Err(e) => Outcome::err(format!("{}\n", e.kubectl_text())),
        },
        Some(other) => Outcome::err(format!(
            "error: unknown command \"{other}\" for \"kubectl auth\"\nRun 'kubectl auth --help' for usage.\n"
        )),
        None => Outcome::err("error: kubectl auth needs a subcommand: can-i or whoami\n".into()),
    }
}

fn can_i(c: &mut Cluster, k: &Client, words: &[String]) -> Outcome {
    let mut args = Vec::new();
    let (mut ns, mut all, mut list, mut quiet, mut no_headers) =
        ("default".to_string(), false, false, false, false);
    let mut subresource = String::new();
    let mut i = 0;
    while i < words.len() {
        let w = words[i].as_str();
        let mut value = |long: &str, short: Option<&str>| -> Option<String> {
            if let Some(v) = w.strip_prefix(&format!("{long}=")) {
                return Some(v.to_string());
            }
            if w == long || short == Some(w) {
                i += 1;
                return Some(words.get(i).cloned().unwrap_or_default());
            }
            None
        };
        if let Some(v) = value("--namespace", Some("-n")) {
            ns = v;
        } else if let Some(v) = value("--subresource", None) {
            subresource = v;
        } else {
            match w {
                "-A" | "--all-namespaces" => all = true,
                "--list" => list = true,
                "-q" | "--quiet" => quiet = true,
                "--no-headers" => no_headers = true,
                f if f.starts_with('-') => {
                    return Outcome::err(format!(
                        "error: unknown flag: {}\nSee 'kubectl auth can-i --help' for usage.\n",
                        f.split('=').next().unwrap_or(f)
                    ))
                }
                _ => args.push(w.to_string()),
            }
        }
        i += 1;
    }
    if no_headers && !list {
        return Outcome::err("error: --no-headers cannot be set without --list specified\n".into());
    }
    if list {
        if !args.is_empty() {
            return Outcome::err("error: list option must be specified with no arguments\n".into());
        }
        if quiet || all || !subresource.is_empty() {
            return Outcome::err("error: list option can't be specified with neither quiet, all-namespaces nor subresource options\n".into());
        }
        return match k.review(c, Review::Rules(ns)) {
            Ok(ReviewAnswer::Rules(rules, _)) => Outcome::ok(list_rules(&rules, no_headers)),
            Ok(_) => Outcome::err("error: unexpected review answer\n".into()),
            Err(e) => Outcome::err(format!("{}\n", e.kubectl_text())),
        };
    }
    let (verb, target) = match args.as_slice() {
        [v, t] => (v.clone(), t.clone()),
        [v, t, n] if !t.contains('/') => (v.clone(), format!("{t}/{n}")),
        _ => {
            return Outcome::err("error: you must specify two arguments: verb resource or verb resource/resourceName.\nSee 'kubectl auth can-i -h' for help and examples.\n".into())
        }
    };
    let mut warnings = String::new();
    let attrs = if target.starts_with('/') {
        if !subresource.is_empty() {
            return Outcome::err(
                "error: --subresource can not be used with NonResourceURL\n".into(),
            );
        }
        if !NON_RESOURCE_VERBS.contains(&verb.as_str()) {
            warnings.push_str(&format!("Warning: verb '{verb}' is not a known verb\n\n"));
        }
        Attributes::path(&verb, &target)
    } else {
        if !RESOURCE_VERBS.contains(&verb.as_str()) {
            warnings.push_str(&format!("Warning: verb '{verb}' is not a known verb\n\n"));
        }
        let (type_, name) = target
            .split_once('/')
            .map(|(t, n)| (t.to_string(), n.to_string()))
            .unwrap_or((target.clone(), String::new()));
        let namespace = if all { String::new() } else { ns.clone() };
        match crate::printers::get::resolve_kind(&type_) {
            Some(kind) => {
                if !kind.namespaced() && !all {
                    let group = kind.api_version().split_once('/').map(|(g, _)| g);
                    warnings.push_str(&match group {
                        Some(g) => format!(
                            "Warning: resource '{}' is not namespace scoped in group '{g}'\n\n",
                            kind.resource()
                        ),
                        None => format!(
                            "Warning: resource '{}' is not namespace scoped\n\n",
                            kind.resource()
                        ),
                    });
                }
                let mut a = Attributes::on(&verb, kind, &namespace, &name);
                a.namespace = namespace;
                a.subresource = subresource;
                a
            }
            None => {
                let (res, group) = type_
                    .split_once('.')
                    .map(|(r, g)| (r.to_string(), g.to_string()))
                    .unwrap_or((type_.clone(), String::new()));
                // An aggregated API's resource is in discovery too (metrics.k8s.io's
                // nodes and pods), so kubectl's RESTMapper finds it.
                let served = crate::apiserver::discovery::REVIEWS.iter().find(|v| {
                    v.group == group && (v.resource == res || v.kind.eq_ignore_ascii_case(&res))
                });
                if let Some(v) = served {
                    if !v.namespaced && !all {
                        warnings.push_str(&format!(
                            "Warning: resource '{}' is not namespace scoped in group '{}'\n\n",
                            v.resource, v.group
                        ));
                    }
                } else if !matches!(res.as_str(), "users" | "groups" | "*") {
                    warnings.push_str(&if group.is_empty() {
                        format!("Warning: the server doesn't have a resource type '{res}'\n\n")
                    } else {
                        format!(
                            "Warning: the server doesn't have a resource type '{res}' in group '{group}'\n\n"
                        )
                    });
                }
                Attributes {
                    verb: verb.clone(),
                    api_group: group,
                    resource: served.map_or(res, |v| v.resource.to_string()),
                    subresource,
                    namespace,
                    name,
                    path: String::new(),
                    field_selector: Vec::new(),
                }
            }
        }
    };
    let (allowed, reason) = match k.review(c, Review::Access(attrs)) {
        Ok(ReviewAnswer::Access { allowed: true, .. }) => (true, String::new()),
        Ok(ReviewAnswer::Access { reason, .. }) => (false, reason),
        Ok(_) => (false, String::new()),
        Err(e) => return Outcome::err(format!("{}\n", e.kubectl_text())),
    };
    let answer = if allowed {
        "yes\n".to_string()
    } else if reason.is_empty() {
        "no\n".to_string()
    } else {
        format!("no - {reason}\n")
    };
    let text = if quiet {
        String::new()
    } else {
        format!("{warnings}{answer}")
    };
    if allowed {
        Outcome::ok(text)
    } else {
        Outcome::err(text)
    }
}

/// One rule as `--list` handles it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Row {
    verbs: Vec<String>,
    groups: Vec<String>,
    resources: Vec<String>,
    names: Vec<String>,
    urls: Vec<String>,
}

impl Row {
    /// The generated `PolicyRule.String()`: the sort key.
    fn key(&self) -> String {
        crate::api::policy_rule_string([
            &self.verbs,
            &self.groups,
            &self.resources,
            &self.names,
            &self.urls,
        ])
    }
}

/// `kubectl auth can-i --list`: the rules that apply in `ns`, broken down, compacted
/// and sorted as kubectl does.
fn list_rules(rules: &[(String, crate::api::PolicyRule)], no_headers: bool) -> String {
    let one = |s: &String| vec![s.clone()];
    // BreakdownRule: one rule per group × resource × verb (× name); one per URL × verb.
    let mut broken = Vec::new();
    for (_, r) in rules {
        for g in &r.api_groups {
            for res in &r.resources {
                for v in &r.verbs {
                    if r.resource_names.is_empty() {
                        broken.push(Row {
                            verbs: one(v),
                            groups: one(g),
                            resources: one(res),
                            names: vec![],
                            urls: vec![],
                        });
                    }
                    for n in &r.resource_names {
                        broken.push(Row {
                            verbs: one(v),
                            groups: one(g),
                            resources: one(res),
                            names: one(n),
                            urls: vec![],
                        });
                    }
                }
            }
        }
        for u in &r.non_resource_urls {
            for v in &r.verbs {
                broken.push(Row {
                    verbs: one(v),
                    groups: vec![],
                    resources: vec![],
                    names: vec![],
                    urls: one(u),
                });
            }
        }
    }
    // CompactRules: simple resource rules merge their verbs (first seen first).
    let mut compact: Vec<Row> = Vec::new();
    let mut simple: Vec<Row> = Vec::new();
    for r in broken {
        if r.urls.is_empty() && r.groups.len() == 1 && r.resources.len() == 1 && r.names.len() <= 1
        {
            match simple
                .iter_mut()
                .find(|s| s.groups == r.groups && s.resources == r.resources && s.names == r.names)
            {
                Some(s) => {
                    for v in r.verbs {
                        if !s.verbs.contains(&v) {
                            s.verbs.push(v);
                        }
                    }
                }
                None => simple.push(r),
            }
        } else {
            compact.push(r);
        }
    }
    compact.extend(simple);
    crate::sorting::sort_by_key(&mut compact, Row::key);
    let mut rows = Vec::new();
    if !no_headers {
        rows.push(
            ["Resources", "Non-Resource URLs", "Resource Names", "Verbs"]
                .map(String::from)
                .to_vec(),
        );
    }
    let l = |v: &[String]| format!("[{}]", v.join(" "));
    for r in compact {
        // describe.CombineResourceGroup.
        let resource = match (r.resources.first(), r.groups.first()) {
            (None, _) => String::new(),
            (Some(res), g) => {
                let (base, sub) = match res.split_once('/') {
                    Some((b, s)) => (b, Some(s)),
                    None => (res.as_str(), None),
                };
                let mut s = match g {
                    Some(g) if !g.is_empty() => format!("{base}.{g}"),
                    _ => base.to_string(),
                };
                if let Some(sub) = sub {
                    s = format!("{s}/{sub}");
                }
                s
            }
        };
        rows.push(vec![resource, l(&r.urls), l(&r.names), l(&r.verbs)]);
    }
    render(&rows)
}

/// `kubectl config SUBCOMMAND …`: kubectl's own file, no request.
pub(super) fn config(c: &mut Cluster, words: &[String]) -> Outcome {
    let rest = &words[1.min(words.len())..];
    match words.first().map(String::as_str) {
        Some("current-context") => Outcome::ok(format!("{}\n", c.kubeconfig().current)),
        Some("use-context") => match rest.first() {
            Some(name) => match c.use_context(name) {
                Ok(()) => Outcome::ok(format!("Switched to context \"{name}\".\n")),
                Err(e) => Outcome::err(format!("error: {e}\n")),
            },
            None => Outcome::err("error: Unexpected args: []\n".into()),
        },
        Some("get-contexts") => {
            let names_only = rest
                .windows(2)
                .any(|w| w[0] == "-o" && w[1] == "name")
                || rest.iter().any(|w| w == "-oname" || w == "--output=name" || w == "-o=name");
            let wanted: Vec<&String> = rest
                .iter()
                .filter(|w| !w.starts_with('-') && *w != "name")
                .collect();
            let kc = c.kubeconfig();
            let mut missing = None;
            let chosen: Vec<_> = if wanted.is_empty() {
                kc.contexts.iter().collect()
            } else {
                let mut v = Vec::new();
                for w in &wanted {
                    match kc.contexts.iter().find(|x| x.name == **w) {
                        Some(x) => v.push(x),
                        None => {
                            missing.get_or_insert_with(|| (*w).clone());
                        }
                    }
                }
                v
            };
            if names_only {
                let s: String = chosen.iter().map(|x| format!("{}\n", x.name)).collect();
                return match missing {
                    Some(m) => Outcome::err(format!("{s}error: context {m} not found\n")),
                    None => Outcome::ok(s),
                };
            }
            let mut rows = vec![["CURRENT", "NAME", "CLUSTER", "AUTHINFO", "NAMESPACE"]
                .map(String::from)
                .to_vec()];
            for x in &chosen {
                rows.push(vec![
                    if x.name == kc.current { "*" } else { "" }.to_string(),
                    x.name.clone(),
                    x.cluster.clone(),
                    x.user.clone(),
                    x.namespace.clone(),
                ]);
            }
            let table = render(&rows);
            match missing {
                Some(m) => Outcome::err(format!("{table}error: context {m} not found\n")),
                None => Outcome::ok(table),
            }
        }
        Some(other) => Outcome::err(format!(
            "error: unknown command \"{other}\" for \"kubectl config\"\nRun 'kubectl config --help' for usage.\n"
        )),
        None => Outcome::err(
            "error: kubectl config needs a subcommand: current-context, get-contexts or use-context\n"
                .into(),
        ),
    }
}
