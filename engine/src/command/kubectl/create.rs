//! `kubectl create` (from `-f` and its subcommands deployment, poddisruptionbudget,
//! priorityclass, namespace) and `kubectl apply`, with the manifest reading both share.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/create/create.go`,
//! `create_deployment.go`, `create_pdb.go`, `create_priorityclass.go`,
//! `create_namespace.go`; `staging/src/k8s.io/kubectl/pkg/cmd/apply/apply.go`.

use super::util::{api, int_flag, key_for, namespace, NS, R};
use crate::api::*;
use crate::apiserver::ObjKey;
use crate::client::Request;
use crate::cluster::{kubectl as user, Cluster};
use crate::command::args::{bool_flag, flag, parse_flags, FlagSpec, Parsed};
use crate::command::select::parse_label_selector;
use crate::command::Files;
use crate::printers::qualified_name;

/// The documents of every `-f` (`-` is stdin), in order.
pub(super) fn read_manifest(
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

/// The API server's refusal of a document with fields its type does not have: kubectl
/// sends `fieldValidation=Strict` (its default `--validate=strict`), so the server
/// answers 400 (`transformDecodeError` in apiserver's handlers/rest.go, the list from
/// apimachinery's `NewStrictDecodingError`) and nothing is created. `verb` and
/// `source` are `cmdutil.AddSourceToErr`'s: `creating "web.yaml"`.
fn strict_decoding_error(
    doc: &crate::manifest::Document,
    verb: &str,
    source: &str,
) -> Option<String> {
    if doc.unknown_fields.is_empty() {
        return None;
    }
    let kind = doc.object.kind();
    let version = kind.api_version().rsplit('/').next().unwrap_or("v1");
    let fields: Vec<String> = doc
        .unknown_fields
        .iter()
        .map(|f| format!("unknown field \"{f}\""))
        .collect();
    Some(format!(
        "Error from server (BadRequest): error when {verb} \"{source}\": {k} in version \"{version}\" cannot be handled as a {k}: strict decoding error: {}",
        fields.join(", "),
        k = kind.name()
    ))
}

/// `--validate` (`cmdutil.GetValidationDirective`): what the server does with a field
/// its type does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Validation {
    /// `strict` (or `true`, or a bare `--validate`): refused (kubectl's default).
    Strict,
    /// `warn`: `Warning: unknown field "…"`, then the object without it.
    Warn,
    /// `ignore` (or `false`): dropped silently.
    Ignore,
}

/// `--validate`'s value; `prefix` is how the verb reports a bad one (`error: ` from
/// create, cobra's `Error: ` from apply).
fn validation(p: &Parsed, prefix: &str) -> Result<Validation, String> {
    match p.get("validate").unwrap_or("strict") {
        "strict" | "true" => Ok(Validation::Strict),
        "warn" => Ok(Validation::Warn),
        "ignore" | "false" => Ok(Validation::Ignore),
        other => Err(format!(
            "{prefix}invalid - validate option \"{other}\"; must be one of: strict (or true), warn, ignore (or false)"
        )),
    }
}

/// `--validate` without a value means `strict` (its NoOptDefVal), never the next word.
fn bare_validate(words: &[String]) -> Vec<String> {
    words
        .iter()
        .map(|w| {
            if w == "--validate" {
                "--validate=strict".to_string()
            } else {
                w.clone()
            }
        })
        .collect()
}

/// The server's answer to a document's unknown fields under `v`: refused (the error),
/// or accepted with warnings to print first.
fn field_validation(
    doc: &crate::manifest::Document,
    v: Validation,
    verb: &str,
    source: &str,
) -> Result<String, String> {
    match v {
        Validation::Strict => {
            strict_decoding_error(doc, verb, source).map_or(Ok(String::new()), Err)
        }
        Validation::Warn => Ok(doc
            .unknown_fields
            .iter()
            .map(|f| format!("Warning: unknown field \"{f}\"\n"))
            .collect()),
        Validation::Ignore => Ok(String::new()),
    }
}

/// `-f`'s source as kubectl names it in errors (`STDIN` for `-`).
fn source_name(p: &Parsed) -> String {
    match p.get("filename") {
        Some("-") | None => "STDIN".to_string(),
        Some(f) => f.to_string(),
    }
}

/// What a manifest may set: the server owns identity, timestamps and status (a
/// Node's too: kubeplay's kubelets report it).
fn strip_server_fields(obj: &mut Object) {
    crate::rest::clear_server_fields(obj);
    if let Object::Node(n) = obj {
        n.status = Default::default();
    }
}

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
];

/// `kubectl create -f FILE` or `kubectl create SUBCOMMAND NAME …`.
pub(super) fn create(
    c: &mut Cluster,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
) -> R {
    create_with(c, words, stdin, files, false)
}

/// [`create`]; `client_dry_run` (`--dry-run=client`) builds the object without
/// sending it, so `-o yaml` shows it as kubectl built it.
pub(super) fn create_with(
    c: &mut Cluster,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
    client_dry_run: bool,
) -> R {
    let p = parse_flags(&bare_validate(words), CREATE_FLAGS, "kubectl create")?;
    let ns = namespace(&p);
    let out = Output {
        format: p.get("output").map(str::to_string),
        client_dry_run,
        // The namespace appears in the object only when -n said it (enforceNamespace).
        explicit_ns: p.get("namespace").is_some(),
    };
    if let Some(f) = out.format.as_deref() {
        if f != "yaml" && f != "name" {
            return Err(format!(
                "error: kubeplay prints kubectl create -o yaml or -o name, not -o {f}"
            ));
        }
        if p.args.is_empty() {
            return Err("error: kubeplay prints -o only for kubectl create SUBCOMMAND NAME".into());
        }
    }
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
        Some("role") => super::create_rbac::create_role(c, &p, &ns, &out, true),
        Some("clusterrole") => super::create_rbac::create_role(c, &p, &ns, &out, false),
        Some("rolebinding") => super::create_rbac::create_binding(c, &p, &ns, &out, true),
        Some("clusterrolebinding") => super::create_rbac::create_binding(c, &p, &ns, &out, false),
        Some("service" | "svc") => super::expose::create_service(
            c,
            &p,
            &ns,
            out.format.as_deref(),
            out.client_dry_run,
            out.explicit_ns,
        ),
        Some(other) => Err(format!(
            "error: unknown command \"{other}\" for \"kubectl create\""
        )),
        None => create_from_files(c, &p, &ns, stdin, files),
    }
}

/// The NAME after a `kubectl create` subcommand (`NameFromCommandArgs`).
pub(super) fn name_from_args(p: &Parsed) -> Result<&String, String> {
    p.args
        .get(1)
        .ok_or_else(|| "error: exactly one NAME is required, got 0".to_string())
}

/// How `kubectl create SUBCOMMAND` reports what it made.
pub(super) struct Output {
    /// `-o yaml` or `-o name`.
    pub(super) format: Option<String>,
    /// `--dry-run=client`: nothing is sent.
    pub(super) client_dry_run: bool,
    /// `-n` was given.
    pub(super) explicit_ns: bool,
}

/// Create one object as kubectl's user (unless a client dry run), then print it as
/// `-o` says: `client` is the object as kubectl's generator builds it (no defaults,
/// `creationTimestamp: null`), which a client dry run prints; otherwise the server's.
///
/// `what` names the generators that wrap the server's refusal as `error: failed to
/// create WHAT: …` (deployment, poddisruptionbudgets, priorityclass); the others
/// return it as it came.
pub(super) fn create_object(
    c: &mut Cluster,
    object: Object,
    client: serde_json::Value,
    out: &Output,
    what: Option<&str>,
) -> R {
    let kind = object.kind();
    let key = key_for(kind, &object.meta().namespace, &object.meta().name);
    let qn = qualified_name(kind, &key.name);
    if !out.client_dry_run {
        c.submit(
            &user(),
            Request::Create {
                object,
                event: None,
            },
        )
        .map_err(|e| match what {
            Some(w) => format!("error: failed to create {w}: {}", e.message),
            None => api(e),
        })?;
    }
    Ok(match out.format.as_deref() {
        Some("name") => qn,
        Some(_) if out.client_dry_run => crate::printers::yaml::to_yaml(&client),
        Some(_) => c
            .store
            .get_object(kind, &key)
            .map(|o| crate::printers::yaml::to_yaml(&o.to_json()))
            .unwrap_or_default(),
        None => format!("{qn} created"),
    })
}

/// `metadata` of a generated object: `creationTimestamp: null`, the name, and the
/// namespace when -n gave it.
pub(super) fn client_meta(name: &str, ns: Option<&str>) -> serde_json::Value {
    let mut m = serde_json::json!({"creationTimestamp": null, "name": name});
    if let Some(ns) = ns {
        m["namespace"] = ns.into();
    }
    m
}

/// `kubectl create deployment NAME --image=IMAGE [--replicas=N] [--port=PORT]`
/// (`create_deployment.go`).
fn create_deployment(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
    // cobra checks required flags before the command runs, so before the NAME.
    let image = p
        .get("image")
        .ok_or_else(|| super::required_flag(c, "image"))?;
    let name = name_from_args(p)?;
    // An int32 flag: kubectl refuses 3000000000 before any request.
    let replicas = int_flag(
        p.get("replicas").unwrap_or("1"),
        "-r, --replicas",
        32,
        "kubectl create deployment",
    )?;
    let d = new_deployment(name, ns, image, replicas, p.get("port"))?;
    // create_deployment.go's object before the server sees it.
    let ct = &d.spec.template.spec.containers[0];
    let mut container = serde_json::json!({"image": ct.image, "name": ct.name, "resources": {}});
    if let Some(port) = ct.ports.first() {
        container["ports"] = serde_json::json!([{"containerPort": port.container_port}]);
    }
    let labels = serde_json::json!({"app": name});
    let mut meta = client_meta(name, out.explicit_ns.then_some(ns));
    meta["labels"] = labels.clone();
    let client = serde_json::json!({
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "metadata": meta,
        "spec": {
            "replicas": replicas,
            "selector": {"matchLabels": labels},
            "strategy": {},
            "template": {
                "metadata": {"creationTimestamp": null, "labels": labels},
                "spec": {"containers": [container]}
            }
        },
        "status": {}
    });
    create_object(
        c,
        Object::Deployment(Box::new(d)),
        client,
        out,
        Some("deployment"),
    )
}

/// `NameFromCommandArgs` with the command after `--`: the one NAME and the command.
fn name_and_command<'a>(p: &'a Parsed, sub: &str) -> Result<(&'a String, Vec<String>), String> {
    let before = p.dash.unwrap_or(p.args.len());
    let names = before.saturating_sub(1);
    if names != 1 {
        return Err(format!(
            "error: exactly one NAME is required, got {names}\nSee 'kubectl create {sub} -h' for help and examples"
        ));
    }
    Ok((&p.args[1], p.args[before..].to_vec()))
}

/// The typed object of a generated client-side object (its `null`s dropped).
fn typed_from_client<T: serde::de::DeserializeOwned>(
    client: &serde_json::Value,
) -> Result<T, String> {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.retain(|_, x| !x.is_null());
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v = client.clone();
    strip(&mut v);
    serde_json::from_value(v).map_err(|e| format!("error: {e}"))
}

/// The client-side object of a generated Job or CronJob's Pod template.
fn batch_pod_template(
    name: &str,
    image: &str,
    command: &[String],
    restart: &str,
) -> serde_json::Value {
    let mut container = serde_json::json!({"image": image, "name": name, "resources": {}});
    if !command.is_empty() {
        container["command"] = serde_json::json!(command);
    }
    serde_json::json!({
        "metadata": {"creationTimestamp": null},
        "spec": {"containers": [container], "restartPolicy": restart}
    })
}

/// `kubectl create job NAME --image=IMAGE [-- COMMAND…]` or `--from=cronjob/NAME`
/// (`create_job.go`): the container is named after the Job, restartPolicy Never, the
/// command after `--`; from a CronJob, its Job template with the `instantiate: manual`
/// annotation and the CronJob as controller (without blockOwnerDeletion).
fn create_job(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
    if p.get("restart").is_some() || p.get("schedule").is_some() {
        let f = if p.get("restart").is_some() {
            "restart"
        } else {
            "schedule"
        };
        return Err(format!(
            "error: unknown flag: --{f}\nSee 'kubectl create job --help' for usage."
        ));
    }
    let (name, command) = name_and_command(p, "job")?;
    let (image, from) = (p.get("image"), p.get("from"));
    if image.is_some() == from.is_some() {
        return Err("error: either --image or --from must be specified".into());
    }
    if !command.is_empty() && from.is_some() {
        return Err("error: cannot specify --from and command".into());
    }
    let ns_out = out.explicit_ns.then_some(ns);
    let (job, client) = match (image, from) {
        (Some(image), _) => {
            let template = batch_pod_template(name, image, &command, "Never");
            let client = serde_json::json!({
                "apiVersion": "batch/v1",
                "kind": "Job",
                "metadata": client_meta(name, ns_out),
                "spec": {"template": template},
                "status": {}
            });
            let mut job: Job = typed_from_client(&client)?;
            job.metadata.namespace = ns.to_string();
            (job, client)
        }
        (None, Some(from)) => {
            let (kind, cj_name) = from.split_once('/').unwrap_or((from, ""));
            let kind = crate::printers::get::resolve_kind(kind).ok_or_else(|| {
                format!("error: the server doesn't have a resource type \"{from}\"")
            })?;
            if kind != Kind::CronJob {
                return Err(format!("error: unknown object type *v1.{}", kind.name()));
            }
            let cj = c
                .store
                .get::<CronJob>(&ObjKey::new(ns, cj_name))
                .cloned()
                .ok_or_else(|| {
                    format!("Error from server (NotFound): cronjobs.batch \"{cj_name}\" not found")
                })?;
            let t = &cj.spec.job_template;
            let mut annotations = StringMap::new();
            annotations.insert("cronjob.kubernetes.io/instantiate".into(), "manual".into());
            annotations.extend(t.metadata.annotations.clone());
            let mut owner =
                crate::client::controller_ref(Kind::CronJob, &cj.metadata.name, &cj.metadata.uid);
            owner.block_owner_deletion = None;
            let job = Job {
                metadata: ObjectMeta {
                    name: name.clone(),
                    namespace: ns.to_string(),
                    annotations,
                    labels: t.metadata.labels.clone(),
                    owner_references: vec![owner],
                    ..Default::default()
                },
                spec: t.spec.clone(),
                status: JobStatus::default(),
            };
            let mut client = Object::Job(Box::new(job.clone())).to_json();
            client["metadata"]["creationTimestamp"] = serde_json::Value::Null;
            if !out.explicit_ns {
                if let Some(m) = client["metadata"].as_object_mut() {
                    m.remove("namespace");
                }
            }
            client["status"] = serde_json::json!({});
            (job, client)
        }
        (None, None) => unreachable!("checked above"),
    };
    create_object(c, Object::Job(Box::new(job)), client, out, Some("job"))
}

/// `kubectl create cronjob NAME --image=IMAGE --schedule=SCHEDULE [--restart=POLICY]
/// [-- COMMAND…]` (`create_cronjob.go`): `--image` and `--schedule` are required
/// flags (checked before the NAME); the restart policy defaults to OnFailure; neither
/// it nor the schedule is checked before the API server.
fn create_cron_job(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
    let missing: Vec<&str> = ["image", "schedule"]
        .into_iter()
        .filter(|f| p.get(f).is_none())
        .collect();
    if !missing.is_empty() {
        let list: Vec<String> = missing.iter().map(|f| format!("\"{f}\"")).collect();
        return Err(format!(
            "error: required flag(s) {} not set",
            list.join(", ")
        ));
    }
    let (name, command) = name_and_command(p, "cronjob")?;
    let image = p.get("image").unwrap_or_default();
    let schedule = p.get("schedule").unwrap_or_default();
    let restart = p
        .get("restart")
        .filter(|r| !r.is_empty())
        .unwrap_or("OnFailure");
    let template = batch_pod_template(name, image, &command, restart);
    let client = serde_json::json!({
        "apiVersion": "batch/v1",
        "kind": "CronJob",
        "metadata": client_meta(name, out.explicit_ns.then_some(ns)),
        "spec": {
            "jobTemplate": {
                "metadata": {"creationTimestamp": null, "name": name},
                "spec": {"template": template}
            },
            "schedule": schedule
        },
        "status": {}
    });
    let mut cj: CronJob = typed_from_client(&client)?;
    cj.metadata.namespace = ns.to_string();
    create_object(
        c,
        Object::CronJob(Box::new(cj)),
        client,
        out,
        Some("cronjob"),
    )
}

/// `kubectl create poddisruptionbudget NAME --selector=SELECTOR
/// --min-available=N|--max-unavailable=N` (`create_pdb.go`).
fn create_pdb(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
    let name = name_from_args(p)?;
    let sel = p
        .get("selector")
        .ok_or("error: a selector must be specified")?;
    let mut spec = PodDisruptionBudgetSpec {
        selector: parse_label_selector(sel)?,
        ..Default::default()
    };
    // intstr.Parse: a number that fits an int32 is an int, anything else a string
    // (which the API server then refuses as not a percentage).
    let parse = |v: &str| {
        v.parse::<i32>()
            .map(|n| IntOrString::Int(i64::from(n)))
            .unwrap_or_else(|_| IntOrString::String(v.to_string()))
    };
    match (p.get("min-available"), p.get("max-unavailable")) {
        (Some(m), None) => spec.min_available = Some(parse(m)),
        (None, Some(m)) => spec.max_unavailable = Some(parse(m)),
        _ => return Err("error: one of min-available or max-unavailable must be specified".into()),
    }
    let ios = |v: &IntOrString| match v {
        IntOrString::Int(n) => serde_json::json!(n),
        IntOrString::String(s) => serde_json::json!(s),
    };
    let mut cspec = serde_json::json!({"selector": spec.selector});
    if let Some(v) = &spec.min_available {
        cspec["minAvailable"] = ios(v);
    }
    if let Some(v) = &spec.max_unavailable {
        cspec["maxUnavailable"] = ios(v);
    }
    let client = serde_json::json!({
        "apiVersion": "policy/v1",
        "kind": "PodDisruptionBudget",
        "metadata": client_meta(name, out.explicit_ns.then_some(ns)),
        "spec": cspec,
        "status": {"currentHealthy": 0, "desiredHealthy": 0, "disruptionsAllowed": 0, "expectedPods": 0}
    });
    let pdb = PodDisruptionBudget {
        metadata: ObjectMeta {
            name: name.clone(),
            namespace: ns.to_string(),
            ..Default::default()
        },
        spec,
        ..Default::default()
    };
    create_object(
        c,
        Object::PodDisruptionBudget(pdb),
        client,
        out,
        Some("poddisruptionbudgets"),
    )
}

/// `kubectl create priorityclass NAME [--value=N] [--global-default]
/// [--preemption-policy=POLICY] [--description=TEXT]` (`create_priorityclass.go`).
fn create_priority_class(c: &mut Cluster, p: &Parsed, out: &Output) -> R {
    let name = name_from_args(p)?;
    let value = int_flag(
        p.get("value").unwrap_or("0"),
        "--value",
        32,
        "kubectl create priorityclass",
    )?;
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
    let mut client = serde_json::json!({
        "apiVersion": "scheduling.k8s.io/v1",
        "kind": "PriorityClass",
        "metadata": client_meta(name, None),
        "preemptionPolicy": pc.preemption_policy,
        "value": pc.value
    });
    // omitempty fields.
    if !pc.description.is_empty() {
        client["description"] = pc.description.clone().into();
    }
    if pc.global_default {
        client["globalDefault"] = true.into();
    }
    create_object(
        c,
        Object::PriorityClass(pc),
        client,
        out,
        Some("priorityclass"),
    )
}

/// `--from-literal=key=value` pairs in order, checked as `create_configmap.go` and
/// `create_secret.go` check them (`kind` names the object in the errors).
fn literal_pairs(p: &Parsed, kind: &str, name: &str) -> Result<Vec<(String, String)>, String> {
    if p.get("from-file").is_some() || p.get("from-env-file").is_some() {
        return Err(
            "error: kubeplay has no local files to read; use --from-literal=KEY=VALUE".into(),
        );
    }
    let mut out: Vec<(String, String)> = Vec::new();
    for lit in p.all("from-literal") {
        let Some((k, v)) = lit.split_once('=').filter(|(k, _)| !k.is_empty()) else {
            return Err(format!(
                "error: invalid literal source {lit}, expected key=value"
            ));
        };
        if !k
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        {
            return Err(format!(
                "error: \"{k}\" is not a valid key name for a {kind}: a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')"
            ));
        }
        if out.iter().any(|(x, _)| x == k) {
            return Err(format!(
                "error: cannot add key \"{k}\", another key by that name already exists in Data for {kind} \"{name}\""
            ));
        }
        out.push((k.to_string(), v.to_string()));
    }
    Ok(out)
}

/// `kubectl create configmap NAME [--from-literal=KEY=VALUE …]` (`create_configmap.go`).
fn create_config_map(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
    let name = name_from_args(p)?.clone();
    let pairs = literal_pairs(p, "ConfigMap", &name)?;
    let data: StringMap = pairs.into_iter().collect();
    let mut client = serde_json::json!({
        "apiVersion": "v1",
        "kind": "ConfigMap",
        "metadata": client_meta(&name, out.explicit_ns.then_some(ns)),
    });
    if !data.is_empty() {
        client["data"] = serde_json::to_value(&data).unwrap_or_default();
    }
    let cm = ConfigMap {
        metadata: ObjectMeta {
            name,
            namespace: ns.to_string(),
            ..Default::default()
        },
        data,
        ..Default::default()
    };
    create_object(c, Object::ConfigMap(cm), client, out, None)
}

/// `kubectl create secret generic NAME [--type=TYPE] [--from-literal=KEY=VALUE …]`
/// (`create_secret.go`; the values are base64-encoded into `data`).
fn create_secret(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
    match p.args.get(1).map(String::as_str) {
        Some("generic") => {}
        Some("tls" | "docker-registry") => {
            return Err("error: kubeplay creates generic Secrets only (kubectl create secret generic NAME --from-literal=KEY=VALUE)".into())
        }
        _ => return Err(super::HELP_CREATE_SECRET.trim_end().to_string()),
    }
    let Some(name) = p.args.get(2).cloned() else {
        return Err("error: exactly one NAME is required, got 0\nSee 'kubectl create secret generic -h' for help and examples".into());
    };
    let pairs = literal_pairs(p, "Secret", &name)?;
    let data: StringMap = pairs
        .into_iter()
        .map(|(k, v)| (k, base64_encode(v.as_bytes())))
        .collect();
    let type_ = p.get("type").unwrap_or("").to_string();
    let mut client = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Secret",
        "metadata": client_meta(&name, out.explicit_ns.then_some(ns)),
    });
    if !data.is_empty() {
        client["data"] = serde_json::to_value(&data).unwrap_or_default();
    }
    if !type_.is_empty() {
        client["type"] = type_.clone().into();
    }
    let secret = Secret {
        metadata: ObjectMeta {
            name,
            namespace: ns.to_string(),
            ..Default::default()
        },
        data,
        type_,
        ..Default::default()
    };
    create_object(c, Object::Secret(secret), client, out, None)
}

/// `kubectl create namespace NAME` (`create_namespace.go`).
fn create_namespace(c: &mut Cluster, p: &Parsed, out: &Output) -> R {
    let name = name_from_args(p)?;
    let ns = Namespace {
        metadata: ObjectMeta {
            name: name.clone(),
            ..Default::default()
        },
        ..Default::default()
    };
    let client = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Namespace",
        "metadata": client_meta(name, None),
        "spec": {},
        "status": {}
    });
    create_object(c, Object::Namespace(ns), client, out, None)
}

/// `kubectl create quota NAME [--hard=RES=QTY,…] [--scopes=SCOPE,…]`
/// (`create_quota.go`): the quantities are checked as quantities, nothing more.
fn create_quota(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
    let name = name_from_args(p)?.clone();
    let mut hard = StringMap::new();
    if let Some(h) = p.get("hard") {
        for pair in h.split(',').filter(|x| !x.is_empty()) {
            let Some((r, q)) = pair.split_once('=') else {
                return Err(format!(
                    "error: Invalid argument syntax {pair}, expected <resource>=<value>"
                ));
            };
            if crate::api::quantity::parse_bytes(q).is_none() && !q.starts_with('-') {
                return Err("error: quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'".into());
            }
            hard.insert(r.to_string(), q.to_string());
        }
    }
    let scopes: Vec<String> = p
        .get("scopes")
        .map(|s| {
            s.split(',')
                .filter(|x| !x.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default();
    let mut spec = serde_json::Map::new();
    if !hard.is_empty() {
        spec.insert(
            "hard".into(),
            serde_json::to_value(&hard).unwrap_or_default(),
        );
    }
    if !scopes.is_empty() {
        spec.insert(
            "scopes".into(),
            serde_json::to_value(&scopes).unwrap_or_default(),
        );
    }
    let client = serde_json::json!({
        "apiVersion": "v1",
        "kind": "ResourceQuota",
        "metadata": client_meta(&name, out.explicit_ns.then_some(ns)),
        "spec": spec,
        "status": {}
    });
    let q = ResourceQuota {
        metadata: ObjectMeta {
            name,
            namespace: ns.to_string(),
            ..Default::default()
        },
        spec: ResourceQuotaSpec { hard, scopes },
        status: Default::default(),
    };
    create_object(c, Object::ResourceQuota(q), client, out, Some("quota"))
}

/// `kubectl create -f FILE…` (`create.go`, `RunCreate`): each document in turn; the
/// first the server refuses ends the command after what was created before it.
fn create_from_files(
    c: &mut Cluster,
    p: &Parsed,
    ns: &str,
    stdin: Option<&str>,
    files: &dyn Files,
) -> R {
    if p.all("filename").is_empty() {
        // create.go's RunE returns this before CheckErr sees it, so cobra prints it
        // (capital "Error: "); apply says it through CheckErr.
        return Err("Error: must specify one of -f and -k".into());
    }
    let v = validation(p, "error: ")?;
    let docs = read_manifest(p, stdin, files)?;
    let mut out = String::new();
    // The builder's ContinueOnError: every document is tried, the errors come last.
    let mut errors = Vec::new();
    for doc in docs {
        match field_validation(&doc, v, "creating", &source_name(p)) {
            Ok(warnings) => out.push_str(&warnings),
            Err(e) => {
                errors.push(e);
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
        match c.submit(
            &user(),
            Request::Create {
                object: obj,
                event: None,
            },
        ) {
            Ok(_) => out.push_str(&format!("{} created\n", qualified_name(kind, &name))),
            // cmdutil.AddSourceToErr("creating", …).
            Err(e) => errors.push(with_source(api(e), &source_name(p), "creating")),
        }
    }
    finish(out, errors)
}

/// What a multi-object verb printed, then its errors (an error exit if any).
fn finish(out: String, errors: Vec<String>) -> R {
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(format!("{out}{}", errors.join("\n")))
    }
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
    flag("validate", None),
    NS,
    bool_flag("server-side", None),
    bool_flag("force-conflicts", None),
    flag("field-manager", None),
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
const LAST_APPLIED: &str = "kubectl.kubernetes.io/last-applied-configuration";

/// `kubectl apply -f FILE`: create what is missing, update what differs.
pub(super) fn apply(
    c: &mut Cluster,
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
    let docs = read_manifest(&p, stdin, files)?;
    let mut out = String::new();
    // apply.go collects each object's error and reports them after the others.
    let mut errors = Vec::new();
    for doc in docs {
        if let Some(u) = c.unavailable() {
            // apply's first request is the GET of the live object: it meets the
            // timeout (the API server answers; etcd cannot serve the read).
            let kind = doc.object.kind();
            let meta = doc.object.meta();
            let ns = if !kind.namespaced() {
                ""
            } else if meta.namespace.is_empty() {
                &ns
            } else {
                &meta.namespace
            };
            let key = ObjKey::new(ns, &meta.name);
            errors.push(with_source(
                api(u.error()),
                &source_name(&p),
                &format!(
                    "retrieving current configuration of:\n{}\nfrom server for:",
                    info_string(kind, &key)
                ),
            ));
            continue;
        }
        let exists = c
            .store
            .get_object(
                doc.object.kind(),
                &key_for(
                    doc.object.kind(),
                    if doc.object.meta().namespace.is_empty() {
                        &ns
                    } else {
                        &doc.object.meta().namespace
                    },
                    &doc.object.meta().name,
                ),
            )
            .is_some();
        // Why "patching" for a live object: client-side apply patches what exists.
        let verb = if exists { "patching" } else { "creating" };
        match field_validation(&doc, v, verb, &source_name(&p)) {
            Ok(warnings) => out.push_str(&warnings),
            Err(e) => {
                errors.push(e);
                continue;
            }
        }
        let mut obj = doc.object;
        // The manifest's resourceVersion, if it names one, goes into the patch: the
        // API server takes it as a precondition.
        let manifest_rv = obj.meta().resource_version.clone();
        strip_server_fields(&mut obj);
        if obj.kind().namespaced() && obj.meta().namespace.is_empty() {
            obj.meta_mut().namespace = ns.clone();
        }
        let kind = obj.kind();
        let key = ObjKey::of(obj.meta());
        if server_side {
            let manager = p.get("field-manager").unwrap_or("kubectl");
            let name = qualified_name(kind, &key.name);
            match server_side_apply(c, obj, &doc.source, manager, p.bool("force-conflicts")) {
                Ok(()) => out.push_str(&format!("{name} serverside-applied\n")),
                Err(e) => errors.push(e),
            }
            continue;
        }
        obj.meta_mut().annotations.insert(
            LAST_APPLIED.into(),
            last_applied(&doc.source, &obj_ns(kind, &key)),
        );
        let name = qualified_name(kind, &key.name);
        let Some(live) = c.store.get_object(kind, &key).cloned() else {
            match c.submit(
                &user(),
                Request::Create {
                    object: obj,
                    event: None,
                },
            ) {
                Ok(_) => out.push_str(&format!("{name} {}\n", applied(&p, "created"))),
                Err(e) => errors.push(with_source(api(e), &source_name(&p), "creating")),
            }
            continue;
        };
        let mut merged = merge_into_live(&live, &obj);
        // modified: the manifest as sent, with its new annotation.
        let mut modified = doc.source.clone();
        if let Some(m) = modified.as_object_mut() {
            let meta = m.entry("metadata").or_insert_with(|| serde_json::json!({}));
            if let Some(meta) = meta.as_object_mut() {
                let ann = meta
                    .entry("annotations")
                    .or_insert_with(|| serde_json::json!({}));
                if let Some(ann) = ann.as_object_mut() {
                    ann.insert(
                        LAST_APPLIED.into(),
                        last_applied(&doc.source, &obj_ns(kind, &key)).into(),
                    );
                }
            }
        }
        let stale = !manifest_rv.is_empty() && manifest_rv != live.meta().resource_version;
        if merged == live && !stale {
            out.push_str(&format!("{name} {}\n", applied(&p, "unchanged")));
            continue;
        }
        if stale {
            // The patch carries the manifest's resourceVersion: a precondition that
            // no longer holds (kubectl's five retries each get the same answer).
            merged.meta_mut().resource_version = manifest_rv;
        }
        match c.submit(&user(), Request::Update(merged)) {
            Ok(_) => out.push_str(&format!("{name} {}\n", applied(&p, "configured"))),
            Err(e) => {
                // apply.go: `applying patch:\n%s\nto:\n%v\nfor:` around the patcher's
                // own `error when patching`.
                let original = live
                    .meta()
                    .annotations
                    .get(LAST_APPLIED)
                    .and_then(|a| serde_json::from_str::<serde_json::Value>(a).ok());
                let patch = super::three_way::three_way_patch(
                    original.as_ref(),
                    &modified,
                    &live.to_json(),
                );
                let source = source_name(&p);
                let inner = with_source(api(e), &source, "patching");
                errors.push(with_source(
                    inner,
                    &source,
                    &format!(
                        "applying patch:\n{patch}\nto:\n{}\nfor:",
                        info_string(kind, &key)
                    ),
                ));
            }
        }
    }
    finish(out, errors)
}

const REPLACE_FLAGS: &[FlagSpec] = &[flag("filename", Some('f')), flag("validate", None), NS];

/// `kubectl replace -f FILE|-` (replace.go): a PUT of each object as written. The
/// manifest's `metadata.resourceVersion`, when it has one, is the precondition: a
/// manifest taken with `kubectl get -o yaml` before someone else wrote the object gets
/// the API server's 409 Conflict — optimistic concurrency as every client meets it.
/// Without one the update is unconditional. Status is the status subresource's.
pub(super) fn replace(
    c: &mut Cluster,
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
                errors.push(e);
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
        match c.submit(&user(), Request::Update(obj)) {
            Ok(_) => out.push_str(&format!("{name} replaced\n")),
            Err(e) => errors.push(with_source(api(e), &source, "replacing")),
        }
    }
    finish(out, errors)
}

/// One object's server-side apply: create it, or merge the manifest into the live
/// object on the server's field ownership; a 409 in apply.go's words.
fn server_side_apply(
    c: &mut Cluster,
    obj: Object,
    applied: &serde_json::Value,
    manager: &str,
    force: bool,
) -> Result<(), String> {
    let kind = obj.kind();
    let key = ObjKey::of(obj.meta());
    let Some(live) = c.store.get_object(kind, &key).cloned() else {
        let create = Request::Create {
            object: obj,
            event: None,
        };
        return c
            .submit_server_side_apply(create, Vec::new(), manager, applied)
            .map(|_| ())
            .map_err(api);
    };
    let (merged, entries) = c
        .plan_server_side_apply(&live, applied, manager, force)
        .map_err(|conflicts| {
            format!(
                "error: {}\n{SSA_CONFLICT_HELP}",
                crate::apiserver::managed_fields::conflict_message(&conflicts)
            )
        })?;
    let decoded =
        crate::manifest::object_from_json(kind, merged).map_err(|e| format!("error: {e}"))?;
    let mut updated = merge_into_live(&live, &decoded);
    updated.meta_mut().resource_version = live.meta().resource_version.clone();
    if updated == live {
        // Nothing changes but who owns what.
        c.record_server_side_apply(kind, &key, entries, manager, applied);
        return Ok(());
    }
    c.submit_server_side_apply(Request::Update(updated), entries, manager, applied)
        .map(|_| ())
        .map_err(api)
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
    format!("{}\n", applied)
}

/// The namespace an applied object ends up in ("" for a cluster-scoped kind).
fn obj_ns(kind: Kind, key: &ObjKey) -> String {
    if kind.namespaced() {
        key.namespace.clone()
    } else {
        String::new()
    }
}

/// cmdutil.AddSourceToErr: the server's words after the file they came from.
fn with_source(text: String, source: &str, verb: &str) -> String {
    match text.split_once("): ") {
        Some((head, rest)) if head.starts_with("Error from server (") => {
            format!("{head}): error when {verb} \"{source}\": {rest}")
        }
        // A status without a reason (etcd's timeout): `Error from server: …`.
        _ => match text.strip_prefix("Error from server: ") {
            Some(rest) => format!("Error from server: error when {verb} \"{source}\": {rest}"),
            None => text,
        },
    }
}

/// cli-runtime's `Info.String()`: the REST mapping and the name, as apply's errors
/// quote them (`Resource: "apps/v1, Resource=deployments", …`).
pub(super) fn info_string(kind: Kind, key: &ObjKey) -> String {
    let (group, version) = kind
        .api_version()
        .split_once('/')
        .unwrap_or(("", kind.api_version()));
    format!(
        "Resource: \"{group}/{version}, Resource={}\", GroupVersionKind: \"{group}/{version}, Kind={}\"\nName: \"{}\", Namespace: \"{}\"",
        kind.resource(),
        kind.name(),
        key.name,
        key.namespace
    )
}

/// Client-side apply, simplified: the manifest's spec, labels and annotations replace
/// the live ones; everything the server owns stays (a Pod's node, the Deployment
/// controller's annotations), and admission's defaults fill in what the manifest left
/// out, so an unchanged manifest compares equal to the live object.
fn merge_into_live(live: &Object, obj: &Object) -> Object {
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
    match (&mut merged, obj) {
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
    merged
}

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
pub(super) fn run_pod(c: &mut Cluster, words: &[String], client_dry_run: bool) -> R {
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
        format: p.get("output").map(str::to_string),
        client_dry_run,
        explicit_ns,
    };
    create_object(c, Object::Pod(Box::new(pod)), client, &out, None)
}
