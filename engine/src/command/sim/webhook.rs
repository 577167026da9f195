//! `sim webhook`: the learner's admission webhook server, written in JavaScript.
//!
//! `sim webhook run service/NAME [-n NS] -f FILE|-` makes the Pods behind Service
//! NAME answer AdmissionReviews with the code's `admit(review, path)`, creating the
//! server's Deployment and Service through kubectl's door when they are missing (two
//! replicas of `kubeplay/webhook-server:1.0`, port 443 to 8443): the webhook is a
//! workload like any other, down when its Pods are. A ValidatingWebhookConfiguration
//! that names the Service sends the API server's calls there. `stop`, `status` and
//! `logs` manage and show it.

use super::super::Files;
use super::R;
use crate::apiserver::webhook::{BUDGET_TICKS, MAX_SOURCE, REQUEST_BUDGET_TICKS};
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::command::args::{flag, parse_flags};

const USAGE: &str = "error: usage: sim webhook run service/NAME [-n NAMESPACE] -f FILE|- | stop service/NAME [-n NAMESPACE] | status | logs [service/NAME] [-n NAMESPACE] [--tail N]";

/// The image the server's Deployment runs.
pub const SERVER_IMAGE: &str = "kubeplay/webhook-server:1.0";

/// `sim webhook …`.
pub fn webhook(c: &mut Cluster, words: &[String], stdin: Option<&str>, files: &dyn Files) -> R {
    let Some(action) = words.first() else {
        return Err(USAGE.into());
    };
    let rest = &words[1..];
    match action.as_str() {
        "run" => run(c, rest, stdin, files),
        "stop" => {
            let key = service_arg(rest, "sim webhook stop")?;
            if c.store.webhook_servers.servers.remove(&key).is_none() {
                return Err(format!(
                    "error: service/{} in namespace {} serves no webhook code",
                    key.name, key.namespace
                ));
            }
            Ok(format!(
                "service/{}: its Pods no longer serve webhook code (nothing listens on their port)",
                key.name
            ))
        }
        "status" => Ok(status(c)),
        "logs" => logs(c, rest),
        _ => Err(USAGE.into()),
    }
}

/// `service/NAME` and `-n NS` from `words`.
fn service_arg(words: &[String], cmd: &str) -> Result<ObjKey, String> {
    let p = parse_flags(
        words,
        &[
            flag("namespace", Some('n')),
            flag("filename", Some('f')),
            flag("tail", None),
        ],
        cmd,
    )?;
    let Some(typed) = p.args.first() else {
        return Err(USAGE.into());
    };
    let name = typed
        .strip_prefix("service/")
        .or_else(|| typed.strip_prefix("svc/"))
        .or_else(|| typed.strip_prefix("services/"))
        .filter(|n| !n.is_empty())
        .ok_or_else(|| format!("error: {cmd} takes service/NAME, not {typed:?}"))?;
    Ok(ObjKey::new(p.get("namespace").unwrap_or("default"), name))
}

fn run(c: &mut Cluster, words: &[String], stdin: Option<&str>, files: &dyn Files) -> R {
    let p = parse_flags(
        words,
        &[flag("namespace", Some('n')), flag("filename", Some('f'))],
        "sim webhook run",
    )?;
    let Some(path) = p.get("filename") else {
        return Err(USAGE.into());
    };
    let key = service_arg(words, "sim webhook run")?;
    if c.store
        .get_object(
            crate::api::Kind::Namespace,
            &ObjKey::new("", &key.namespace),
        )
        .is_none()
    {
        return Err(format!(
            "Error from server (NotFound): namespaces \"{}\" not found",
            key.namespace
        ));
    }
    if !crate::sandbox::installed() {
        return Err(
            "error: no JavaScript sandbox is loaded here to run a webhook server in".into(),
        );
    }
    let source = if path == "-" {
        stdin
            .ok_or("error: sim webhook run -f - reads stdin, and there is none")?
            .to_string()
    } else {
        files.read(path).map_err(|e| format!("error: {e}"))?
    };
    if source.len() > MAX_SOURCE {
        return Err(format!(
            "error: the webhook's source is {} bytes; at most {MAX_SOURCE} are accepted",
            source.len()
        ));
    }
    let reload = c.store.webhook_servers.servers.contains_key(&key);
    c.store.webhook_servers.install(&key, Some(&source))?;
    let mut out = workload(c, &key);
    out.push_str(&format!(
        "service/{}: its Pods {} webhook code: https://{}.{}.svc:443 answers with admit(review)",
        key.name,
        if reload {
            "now serve the new"
        } else {
            "serve the"
        },
        key.name,
        key.namespace
    ));
    Ok(out)
}

/// The server's Deployment and Service, each created through kubectl when missing.
fn workload(c: &mut Cluster, key: &ObjKey) -> String {
    let (ns, name) = (&key.namespace, &key.name);
    let docs = [
        (
            crate::api::Kind::Deployment,
            format!("apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\n  namespace: {ns}\n  labels:\n    app: {name}\nspec:\n  replicas: 2\n  selector:\n    matchLabels:\n      app: {name}\n  template:\n    metadata:\n      labels:\n        app: {name}\n    spec:\n      containers:\n      - name: server\n        image: {SERVER_IMAGE}\n        ports:\n        - containerPort: 8443\n"),
        ),
        (
            crate::api::Kind::Service,
            format!("apiVersion: v1\nkind: Service\nmetadata:\n  name: {name}\n  namespace: {ns}\nspec:\n  selector:\n    app: {name}\n  ports:\n  - port: 443\n    targetPort: 8443\n"),
        ),
    ];
    let docs = docs.map(|(kind, yaml)| (kind, key.clone(), yaml));
    super::controller::create_missing(c, &docs)
}

fn status(c: &Cluster) -> String {
    let servers = &c.store.webhook_servers.servers;
    if servers.is_empty() {
        return "No webhook servers (sim webhook run service/NAME -f FILE).".into();
    }
    let mut rows = vec![vec![
        "SERVICE".to_string(),
        "NAMESPACE".into(),
        "CALLS".into(),
        "ALLOWED".into(),
        "DENIED".into(),
        "FAILED".into(),
        "TICKS".into(),
    ]];
    for (k, s) in servers {
        rows.push(vec![
            format!("service/{}", k.name),
            k.namespace.clone(),
            s.calls.to_string(),
            s.allowed.to_string(),
            s.denied.to_string(),
            s.failed.to_string(),
            s.ticks.to_string(),
        ]);
    }
    let text: String = rows.iter().map(|r| r.join("\t") + "\n").collect();
    let mut out = crate::tabwriter::format(&text, 0, 3);
    out.push_str(&format!(
        "\nEach call may use {BUDGET_TICKS} ticks of 10,000 steps, and the calls of one request {REQUEST_BUDGET_TICKS} together: past them, the server has not answered within the webhook's timeoutSeconds."
    ));
    out
}

fn logs(c: &Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[flag("namespace", Some('n')), flag("tail", None)],
        "sim webhook logs",
    )?;
    let servers = &c.store.webhook_servers.servers;
    let picked: Vec<_> = if p.args.is_empty() {
        servers.iter().collect()
    } else {
        let key = service_arg(words, "sim webhook logs")?;
        let s = servers.get_key_value(&key).ok_or_else(|| {
            format!(
                "error: service/{} in namespace {} serves no webhook code",
                key.name, key.namespace
            )
        })?;
        vec![s]
    };
    super::controller::tail(
        picked.iter().flat_map(|(_, s)| s.logs.iter()),
        p.get("tail"),
    )
}
