//! `kubectl create`: from `-f`, and the dispatch to its subcommands (`generators`:
//! deployment, job, cronjob, poddisruptionbudget, priorityclass, configmap, secret,
//! namespace, quota; `ingress`; `rbac`: role, clusterrole, rolebinding, clusterrolebinding). What
//! it shares with `apply`, `replace` and `delete -f` is in `common`.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/create/create.go`.

pub(super) mod common;
mod generators;
mod ingress;
mod rbac;

use super::util::{namespace, NS, R};
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, FlagSpec, Parsed};
use crate::command::client::Client;
use crate::command::Files;
use crate::printers::qualified_name;
pub(super) use common::read_manifest;
use common::*;
use generators::*;

const CREATE_FLAGS: &[FlagSpec] = &[
    flag("filename", Some('f')),
    flag("validate", None),
    flag("output", Some('o')),
    NS,
    flag("image", None),
    flag("replicas", Some('r')),
    flag("port", None),
    flag("selector", None),
    flag("min-available", None),
    flag("max-unavailable", None),
    flag("value", None),
    bool_flag("global-default", None),
    flag("preemption-policy", None),
    flag("description", None),
    flag("tcp", None),
    flag("clusterip", None),
    flag("node-port", None),
    flag("external-name", None),
    flag("verb", None),
    flag("resource", None),
    flag("resource-name", None),
    flag("non-resource-url", None),
    flag("role", None),
    flag("clusterrole", None),
    flag("user", None),
    flag("group", None),
    flag("serviceaccount", None),
    flag("hard", None),
    flag("scopes", None),
    flag("from", None),
    flag("schedule", None),
    flag("restart", None),
    flag("from-literal", None),
    flag("from-file", None),
    flag("from-env-file", None),
    flag("type", None),
    flag("duration", None),
    flag("audience", None),
    flag("docker-server", None),
    flag("docker-username", None),
    flag("docker-password", None),
    flag("docker-email", None),
    flag("class", None),
    flag("rule", None),
    flag("default-backend", None),
    flag("annotation", None),
];

/// `kubectl create -f FILE` or `kubectl create SUBCOMMAND NAME …`.
pub(super) fn create(
    c: &mut Cluster,
    k: &Client,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
) -> R {
    create_with(c, k, words, stdin, files, false)
}

/// [`create`]; `client_dry_run` (`--dry-run=client`) builds the object without
/// sending it, so `-o yaml` shows it as kubectl built it.
pub(super) fn create_with(
    c: &mut Cluster,
    k: &Client,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
    client_dry_run: bool,
) -> R {
    let p = parse_flags(&bare_validate(words), CREATE_FLAGS, "kubectl create")?;
    let ns = namespace(&p);
    let out = Output {
        client: k.clone(),
        format: super::print_flags::inline(p.get("output"), files)?,
        client_dry_run,
        // The namespace appears in the object only when -n said it (enforceNamespace).
        explicit_ns: p.get("namespace").is_some(),
    };
    match p.args.first().map(String::as_str) {
        Some("deployment" | "deploy") => create_deployment(c, &p, &ns, &out),
        Some("poddisruptionbudget" | "pdb") => create_pdb(c, &p, &ns, &out),
        Some("priorityclass" | "pc") => create_priority_class(c, &p, &out),
        Some("namespace" | "ns") => create_namespace(c, &p, &out),
        Some("quota" | "resourcequota") => create_quota(c, &p, &ns, &out),
        Some("job") => create_job(c, &p, &ns, &out),
        Some("cronjob" | "cj") => create_cron_job(c, &p, &ns, &out),
        Some("configmap" | "cm") => create_config_map(c, &p, &ns, &out),
        Some("secret") => create_secret(c, &p, &ns, &out),
        Some("serviceaccount" | "sa") => create_service_account(c, &p, &ns, &out),
        Some("token") => create_token(c, k, &p, &ns, &out),
        Some("ingress" | "ing") => ingress::create_ingress(c, &p, &ns, &out),
        Some("role") => rbac::create_role(c, &p, &ns, &out, true),
        Some("clusterrole") => rbac::create_role(c, &p, &ns, &out, false),
        Some("rolebinding") => rbac::create_binding(c, &p, &ns, &out, true),
        Some("clusterrolebinding") => rbac::create_binding(c, &p, &ns, &out, false),
        Some("service" | "svc") => super::expose::create_service(
            c,
            k,
            &p,
            &ns,
            out.format.as_deref(),
            out.client_dry_run,
            out.explicit_ns,
        ),
        Some(other) => Err(format!(
            "error: unknown command \"{other}\" for \"kubectl create\""
        )),
        None => create_from_files(c, k, &p, &ns, stdin, files, out.format),
    }
}

/// `kubectl create -f FILE…` (`create.go`, `RunCreate`): each document in turn; the
/// first the server refuses ends the command after what was created before it.
fn create_from_files(
    c: &mut Cluster,
    k: &Client,
    p: &Parsed,
    ns: &str,
    stdin: Option<&str>,
    files: &dyn Files,
    format: Option<String>,
) -> R {
    if p.all("filename").is_empty() {
        // create.go's RunE returns this before CheckErr sees it, so cobra prints it
        // (capital "Error: "); apply says it through CheckErr.
        return Err("Error: must specify one of -f and -k".into());
    }
    let v = validation(p, "error: ")?;
    let docs = read_manifest_each(p, stdin, files)?;
    let mut out = String::new();
    // The builder's ContinueOnError: every document is tried, the errors come last.
    let mut errors = Vec::new();
    // `-o`: each object the server answered with, printed as it is created (the
    // builder's objects are unstructured: JSON keys sorted, no Go types).
    let mut printer = super::print_flags::Reporter::new(format);
    for doc in docs {
        let doc = match doc {
            Ok(d) => d,
            Err(e) => {
                errors.push(Failure::from(e));
                continue;
            }
        };
        match field_validation(&doc, v, "creating", &source_name(p)) {
            Ok(warnings) => out.push_str(&warnings),
            Err(e) => {
                errors.push(e.into());
                continue;
            }
        }
        let mut obj = doc.object;
        strip_server_fields(&mut obj);
        if obj.kind().namespaced() && obj.meta().namespace.is_empty() {
            obj.meta_mut().namespace = ns.to_string();
        }
        let kind = obj.kind();
        let name = obj.meta().name.clone();
        let answer = k.create(c, obj);
        out.push_str(&k.warning_lines());
        match answer {
            Ok(r) => {
                let shown =
                    super::util::served(c, r.object.map(|o| o.to_json()).unwrap_or_default());
                match printer.object(&shown, &qualified_name(kind, &name), "created") {
                    Ok(text) => out.push_str(&text),
                    Err(e) => errors.push(Failure::from(e)),
                }
            }
            // cmdutil.AddSourceToErr("creating", …).
            Err(e) => errors.push(Failure::api(e, &source_name(p), "creating")),
        }
    }
    finish(out, errors)
}
