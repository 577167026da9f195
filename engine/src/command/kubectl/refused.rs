//! What kubectl prints when nothing listens at the API server's address
//! (`sim apiserver down`), as kubectl v1.33 prints it: discovery's klog errors (one per
//! attempt — how many depends on the command's path through the REST mapper and its
//! retries, counted against the real client), then the error of the request that
//! failed. Client-side work still happens: `version` prints the client's lines, a
//! generator with `--dry-run=client` prints its object.
//!
//! (When the API server answers but etcd has no quorum, each request meets etcd's
//! timeout at the door, and the verb prints it as it prints any error.)

use super::*;
use crate::apiserver::API_SERVER_HOST_PORT as HP;

/// The pid kubectl's klog lines carry (a fixed one: output is deterministic).
pub(super) const KUBECTL_PID: u32 = 4242;

/// The refused command's output (None: the command needs no server and runs).
pub(super) fn refused(c: &Cluster, words: &[String]) -> Option<Outcome> {
    let verb = words.first()?.as_str();
    let has = |f: &str| {
        words
            .iter()
            .any(|w| w == f || w.starts_with(&format!("{f}=")))
    };
    let flag_value = |short: &str, long: &str| -> Option<String> {
        let mut it = words.iter();
        while let Some(w) = it.next() {
            if w == short || w == long {
                return it.next().cloned();
            }
            if let Some(v) = w.strip_prefix(&format!("{long}=")) {
                return Some(v.to_string());
            }
        }
        None
    };
    let dry_client = words.iter().any(|w| w == "--dry-run=client");
    let e_line = format!(
        "E{} {KUBECTL_PID:>7} memcache.go:265] \"Unhandled Error\" err=\"couldn't get current server API group list: Get \\\"https://{HP}/api?timeout=32s\\\": dial tcp {HP}: connect: connection refused\"\n",
        crate::time::klog_stamp(c.now())
    );
    let last = format!("{}\n", crate::apiserver::connection_refused_line());
    let with = |n: usize, tail: &str| Outcome::err(format!("{}{tail}", e_line.repeat(n)));
    let file =
        flag_value("-f", "--filename").map(|f| if f == "-" { "STDIN".to_string() } else { f });
    let ns = flag_value("-n", "--namespace").unwrap_or_else(|| "default".into());
    let dial = format!("dial tcp {HP}: connect: connection refused");
    let unable = |f: &str| {
        format!("unable to recognize \"{f}\": Get \"https://{HP}/api?timeout=32s\": {dial}\n")
    };
    Some(match verb {
        // `version` prints the client's lines first (version.rs).
        "version" => return None,
        "create" | "apply" | "replace" if file.is_some() => {
            let f = file.unwrap_or_default();
            if words
                .iter()
                .any(|w| w == "--validate=false" || w == "--validate=ignore")
            {
                with(1, &format!("error: {}", unable(&f)))
            } else {
                Outcome::err(format!("error: error validating \"{f}\": error validating data: failed to download openapi: Get \"https://{HP}/openapi/v2?timeout=32s\": {dial}; if you choose to ignore these errors, turn validation off with --validate=false\n"))
            }
        }
        "create" if dry_client => return None,
        "create" => {
            let post = |what: &str, path: &str| {
                Outcome::err(format!("error: failed to create {what}: Post \"https://{HP}/{path}?fieldManager=kubectl-create&fieldValidation=Strict\": {dial}\n"))
            };
            match words.get(1).map(String::as_str) {
                Some("deployment" | "deploy") => post(
                    "deployment",
                    &format!("apis/apps/v1/namespaces/{ns}/deployments"),
                ),
                Some("poddisruptionbudget" | "pdb") => post(
                    "poddisruptionbudgets",
                    &format!("apis/policy/v1/namespaces/{ns}/poddisruptionbudgets"),
                ),
                Some("service" | "svc") => {
                    let type_ = match words.get(2).map(String::as_str) {
                        Some("nodeport") => "NodePort",
                        Some("loadbalancer") => "LoadBalancer",
                        Some("externalname") => "ExternalName",
                        _ => "ClusterIP",
                    };
                    post(
                        &format!("{type_} service"),
                        &format!("api/v1/namespaces/{ns}/services"),
                    )
                }
                _ => Outcome::err(last),
            }
        }
        // `--raw` is one request straight to the path: no discovery first.
        "get" if has("--raw") => Outcome::err(last),
        "get" | "delete" if file.is_some() => {
            let f = file.unwrap_or_default();
            let prefix = if verb == "delete" { "error: " } else { "" };
            with(1, &format!("{prefix}{}", unable(&f)))
        }
        "top" => Outcome::err(last),
        "explain" | "auth" | "taint" => with(2, &last),
        "api-resources" => with(
            1,
            &format!("NAME   SHORTNAMES   APIVERSION   NAMESPACED   KIND\n{last}"),
        ),
        "rollout" | "cordon" | "uncordon" | "drain" | "set" | "wait" | "logs" => with(4, &last),
        // get, describe, scale, label, annotate, expose, edit, patch, delete NAME…
        _ => with(5, &last),
    })
}
