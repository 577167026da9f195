//! `kubectl run`: one Pod from an image.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/run/run.go`.

use super::create::common::*;
use super::util::{namespace, NS, R};
use crate::api::*;
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, FlagSpec};

const RUN_FLAGS: &[FlagSpec] = &[
    NS,
    flag("image", None),
    flag("labels", Some('l')),
    flag("port", None),
    flag("env", None),
    flag("restart", None),
    flag("image-pull-policy", None),
    bool_flag("command", None),
    flag("output", Some('o')),
];

/// `kubectl run NAME --image=IMAGE [--labels=…] [--port=N] [--env=K=V]… [--restart=…]
/// [--command] [-- ARGS…]` (`run.go`): one Pod, labelled `run=NAME` unless `--labels`
/// says otherwise, its container named after it; the words after `--` are its args,
/// or with `--command` its command.
pub(super) fn run_pod(
    c: &mut Cluster,
    k: &crate::command::client::Client,
    words: &[String],
    client_dry_run: bool,
) -> R {
    let p = parse_flags(words, RUN_FLAGS, "kubectl run")?;
    let before = p.dash.unwrap_or(p.args.len());
    let Some(name) = p.args.first().filter(|_| before > 0) else {
        return Err(
            "error: NAME is required for run\nSee 'kubectl run -h' for help and examples".into(),
        );
    };
    let Some(image) = p.get("image").filter(|i| !i.is_empty()) else {
        return Err("error: required flag(s) \"image\" not set".into());
    };
    let restart = p.get("restart").unwrap_or("Always");
    if !matches!(restart, "Always" | "OnFailure" | "Never") {
        return Err(format!(
            "error: invalid restart policy: {restart}\nSee 'kubectl run -h' for help and examples"
        ));
    }
    let ns = namespace(&p);
    let labels: serde_json::Map<String, serde_json::Value> = match p.get("labels") {
        Some(l) => {
            let mut m = serde_json::Map::new();
            for pair in l.split(',') {
                let (k, v) = pair
                    .split_once('=')
                    .ok_or_else(|| format!("error: invalid label spec: {pair}"))?;
                m.insert(k.into(), v.into());
            }
            m
        }
        None => [("run".to_string(), serde_json::json!(name))]
            .into_iter()
            .collect(),
    };
    let mut container = serde_json::json!({"name": name, "image": image});
    let rest: Vec<String> = p.args[before..].to_vec();
    if !rest.is_empty() {
        let field = if p.bool("command") { "command" } else { "args" };
        container[field] = serde_json::json!(rest);
    }
    if let Some(port) = p.get("port") {
        let n: i64 = port
            .parse()
            .map_err(|_| format!("error: strconv.Atoi: parsing \"{port}\": invalid syntax"))?;
        container["ports"] = serde_json::json!([{"containerPort": n}]);
    }
    let env: Vec<serde_json::Value> = p
        .all("env")
        .iter()
        .map(|e| {
            let (k, v) = e.split_once('=').unwrap_or((e, ""));
            serde_json::json!({"name": k, "value": v})
        })
        .collect();
    if !env.is_empty() {
        container["env"] = serde_json::json!(env);
    }
    if let Some(policy) = p.get("image-pull-policy") {
        container["imagePullPolicy"] = policy.into();
    }
    container["resources"] = serde_json::json!({});
    let explicit_ns = p.get("namespace").is_some();
    let mut meta = client_meta(name, explicit_ns.then_some(ns.as_str()));
    meta["labels"] = serde_json::Value::Object(labels);
    let client = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": meta,
        "spec": {"containers": [container], "dnsPolicy": "ClusterFirst", "restartPolicy": restart},
        "status": {}
    });
    let mut pod: Pod = typed_from_client(&client)?;
    pod.metadata.namespace = ns.clone();
    let out = Output {
        client: k.clone(),
        format: super::print_flags::inline(p.get("output"), &crate::command::NoFiles)?,
        client_dry_run,
        explicit_ns,
    };
    create_object(c, Object::Pod(Box::new(pod)), client, &out, None)
}
