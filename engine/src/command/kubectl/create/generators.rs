//! `kubectl create`'s generator subcommands: deployment, job, cronjob,
//! poddisruptionbudget, priorityclass, configmap, secret generic, namespace and quota.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/create/create_deployment.go`,
//! `create_job.go`, `create_cronjob.go`, `create_pdb.go`, `create_priorityclass.go`,
//! `create_configmap.go`, `create_secret.go`, `create_namespace.go`, `create_quota.go`.

use super::super::util::{int_flag, R};
use super::common::*;
use crate::api::*;
use crate::apiserver::selectors::parse_label_selector;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::command::args::Parsed;
use crate::command::kubectl::Client;

/// `kubectl create deployment NAME --image=IMAGE [--replicas=N] [--port=PORT]`
/// (`create_deployment.go`).
pub(super) fn create_deployment(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
    // cobra checks required flags before the command runs, so before the NAME.
    let image = p
        .get("image")
        .ok_or_else(|| super::super::required_flag("image"))?;
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
pub(super) fn name_and_command<'a>(
    p: &'a Parsed,
    sub: &str,
) -> Result<(&'a String, Vec<String>), String> {
    let before = p.dash.unwrap_or(p.args.len());
    let names = before.saturating_sub(1);
    if names != 1 {
        return Err(format!(
            "error: exactly one NAME is required, got {names}\nSee 'kubectl create {sub} -h' for help and examples"
        ));
    }
    Ok((&p.args[1], p.args[before..].to_vec()))
}

/// The client-side object of a generated Job or CronJob's Pod template.
pub(super) fn batch_pod_template(
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
pub(super) fn create_job(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
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
            let cj: CronJob = out
                .client
                .get_as(c, &ObjKey::new(ns, cj_name))
                .map_err(|e| e.kubectl_text())?;
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
pub(super) fn create_cron_job(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
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
pub(super) fn create_pdb(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
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
pub(super) fn create_priority_class(c: &mut Cluster, p: &Parsed, out: &Output) -> R {
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
pub(super) fn literal_pairs(
    p: &Parsed,
    kind: &str,
    name: &str,
) -> Result<Vec<(String, String)>, String> {
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
pub(super) fn create_config_map(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
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

/// `kubectl create serviceaccount NAME` (`create_serviceaccount.go`).
pub(super) fn create_service_account(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
    let name = name_from_args(p)?.clone();
    let client = serde_json::json!({
        "apiVersion": "v1",
        "kind": "ServiceAccount",
        "metadata": client_meta(&name, out.explicit_ns.then_some(ns)),
    });
    let sa = ServiceAccount {
        metadata: ObjectMeta {
            name,
            namespace: ns.to_string(),
            ..Default::default()
        },
        ..Default::default()
    };
    create_object(c, Object::ServiceAccount(sa), client, out, None)
}

/// `kubectl create token SERVICEACCOUNT [--duration=D] [--audience=A …]`
/// (`create_token.go`): a TokenRequest for the account, and the token it returns.
pub(super) fn create_token(c: &mut Cluster, k: &Client, p: &Parsed, ns: &str, out: &Output) -> R {
    let name = name_from_args(p)?.clone();
    let mut expiration_seconds = None;
    if let Some(d) = p.get("duration") {
        let ms = crate::command::args::parse_duration(d).map_err(|e| format!("error: {e}"))?;
        if ms % 1000 != 0 {
            return Err("error: --duration cannot be expressed in units less than seconds".into());
        }
        // 0 (the default) lets the server choose.
        expiration_seconds = (ms > 0).then_some((ms / 1000) as i64);
    }
    let audiences: Vec<String> = p.all("audience").into_iter().map(String::from).collect();
    if audiences.iter().any(String::is_empty) {
        return Err("error: --audience must not be an empty string".into());
    }
    let spec = crate::apiserver::service_account::TokenRequestSpec {
        audiences,
        expiration_seconds,
    };
    let t = k
        .token_request(c, &ObjKey::new(ns, &name), spec)
        .map_err(|e| format!("error: failed to create token: {}", e.message))?;
    if out.format.is_some() {
        // With -o, the TokenRequest itself, as its typed client decoded it.
        let qn = format!("tokenrequest.authentication.k8s.io/{name}");
        let obj = t.to_json(ns, &name);
        return super::super::print_flags::report_typed(
            out.format.as_deref(),
            crate::printers::go_json::TOKEN_REQUEST,
            &obj,
            &qn,
            "created",
        );
    }
    Ok(format!("{}\n", t.token))
}

/// `kubectl create secret generic NAME [--type=TYPE] [--from-literal=KEY=VALUE …]`
/// (`create_secret.go`; the values are base64-encoded into `data`).
pub(super) fn create_secret(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
    match p.args.get(1).map(String::as_str) {
        Some("generic") => {}
        Some("docker-registry") => return create_docker_registry_secret(c, p, ns, out),
        Some("tls") => {
            return Err("error: kubeplay creates generic and docker-registry Secrets (kubectl create secret generic NAME --from-literal=KEY=VALUE)".into())
        }
        _ => return Err(super::super::HELP_CREATE_SECRET.trim_end().to_string()),
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

/// `kubectl create secret docker-registry NAME --docker-username=… --docker-password=…
/// [--docker-server=…] [--docker-email=…]` (`create_secret_docker.go`): a
/// `kubernetes.io/dockerconfigjson` Secret whose `.dockerconfigjson` holds the
/// registry's entry, written in the Go struct's field order.
fn create_docker_registry_secret(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
    let Some(name) = p.args.get(2).cloned() else {
        return Err("error: exactly one NAME is required, got 0\nSee 'kubectl create secret docker-registry -h' for help and examples".into());
    };
    if p.get("from-file").is_some() {
        return Err("error: kubeplay reads no files for docker-registry Secrets; give --docker-username and --docker-password".into());
    }
    let (user, password) = (
        p.get("docker-username").unwrap_or(""),
        p.get("docker-password").unwrap_or(""),
    );
    if user.is_empty() || password.is_empty() {
        return Err("error: either --from-file or the combination of --docker-username, --docker-password and --docker-server is required".into());
    }
    let server = p
        .get("docker-server")
        .unwrap_or("https://index.docker.io/v1/");
    let email = p.get("docker-email").unwrap_or("");
    let q = |s: &str| serde_json::Value::String(s.to_string()).to_string();
    let mut entry = format!("\"username\":{},\"password\":{}", q(user), q(password));
    if !email.is_empty() {
        entry.push_str(&format!(",\"email\":{}", q(email)));
    }
    let auth = base64_encode(format!("{user}:{password}").as_bytes());
    entry.push_str(&format!(",\"auth\":{}", q(&auth)));
    let config = format!("{{\"auths\":{{{}:{{{entry}}}}}}}", q(server));
    let mut data = StringMap::new();
    data.insert(".dockerconfigjson".into(), base64_encode(config.as_bytes()));
    let type_ = "kubernetes.io/dockerconfigjson".to_string();
    let client = serde_json::json!({
        "apiVersion": "v1",
        "data": data,
        "kind": "Secret",
        "metadata": client_meta(&name, out.explicit_ns.then_some(ns)),
        "type": type_,
    });
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
pub(super) fn create_namespace(c: &mut Cluster, p: &Parsed, out: &Output) -> R {
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
pub(super) fn create_quota(c: &mut Cluster, p: &Parsed, ns: &str, out: &Output) -> R {
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
