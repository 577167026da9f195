//! The faults a learner injects and the load they put on: `sim node`, `sim crash`,
//! `sim oom`, `sim hang`, `sim unready`/`ready`, `sim image-*`, `sim load`, `sim gitops`.

use super::super::args::{bool_flag, flag, parse_duration, parse_flags, parse_span, FlagSpec};
use super::*;
use crate::api::*;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::kubelet::NodeConfig;
use crate::printers::get::resolve_kind;
use crate::time::human_duration;

pub(super) const NODE_ADD_FLAGS: &[FlagSpec] = &[
    flag("cpu", None),
    flag("memory", None),
    flag("pods", None),
    flag("ephemeral-storage", None),
    flag("eviction-hard", None),
    flag("labels", None),
    flag("taints", None),
    flag("kube-reserved", None),
    flag("system-reserved", None),
    bool_flag("down", None),
];

/// `--kube-reserved cpu=100m,memory=256Mi`: CPU, memory and ephemeral-storage, as
/// quantities.
fn parse_reserved(flag: &str, s: &str) -> Result<StringMap, String> {
    let m = parse_kv_list(s)?;
    for (k, v) in &m {
        let ok = match k.as_str() {
            "cpu" => quantity::parse_cpu_milli(v).is_some(),
            "memory" | "ephemeral-storage" => quantity::parse_bytes(v).is_some(),
            _ => false,
        };
        if !ok {
            return Err(format!(
                "error: invalid --{flag} \"{k}={v}\": cpu, memory or ephemeral-storage, as a quantity (cpu=100m,memory=256Mi)"
            ));
        }
    }
    Ok(m)
}

pub(super) fn parse_kv_list(s: &str) -> Result<StringMap, String> {
    let mut m = StringMap::new();
    for kv in s.split(',').filter(|x| !x.is_empty()) {
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| format!("error: invalid label \"{kv}\": expected key=value"))?;
        m.insert(k.to_string(), v.to_string());
    }
    Ok(m)
}

pub(super) fn parse_taints(s: &str) -> Result<Vec<Taint>, String> {
    let mut out = Vec::new();
    for t in s.split(',').filter(|x| !x.is_empty()) {
        let (kv, effect) = t
            .split_once(':')
            .ok_or_else(|| format!("error: invalid taint \"{t}\": expected key[=value]:Effect"))?;
        if TaintEffect::parse(effect).is_none() {
            return Err(format!(
                "error: invalid taint effect: {effect}, unsupported taint effect"
            ));
        }
        let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
        out.push(Taint {
            key: k.into(),
            value: v.into(),
            effect: effect.into(),
            ..Default::default()
        });
    }
    Ok(out)
}

pub(super) fn node(c: &mut Cluster, words: &[String]) -> R {
    let action = words.first().map(String::as_str).unwrap_or("");
    let name = words
        .get(1)
        .map(|n| n.trim_start_matches("node/").to_string());
    let Some(name) = name else {
        return Err("error: usage: sim node add|down|up|partition|ps|remove NAME | sim node pressure memory|disk|inodes|pid NAME [--use Q | --off]".into());
    };
    match action {
        "pressure" => pressure(c, &words[1..]),
        "add" => {
            let p = parse_flags(&words[2..], NODE_ADD_FLAGS, "sim node add")?;
            let mut cfg = NodeConfig::default();
            if let Some(cpu) = p.get("cpu") {
                quantity::parse_cpu_milli(cpu)
                    .ok_or_else(|| format!("error: invalid --cpu \"{cpu}\""))?;
                cfg.cpu = cpu.into();
            }
            if let Some(m) = p.get("memory") {
                quantity::parse_bytes(m)
                    .ok_or_else(|| format!("error: invalid --memory \"{m}\""))?;
                cfg.memory = m.into();
            }
            if let Some(d) = p.get("ephemeral-storage") {
                // The node's own files take 6Gi: a smaller disk could never be free.
                let bytes = quantity::parse_bytes(d)
                    .filter(|b| *b >= 8 << 30)
                    .ok_or_else(|| format!("error: invalid --ephemeral-storage \"{d}\": a disk of 8Gi or more (the node's own files take 6Gi)"))?;
                // cadvisor reports the disk's size in bytes: 100G reads back 97656250Ki.
                cfg.ephemeral_storage = quantity::format_bytes(bytes);
            }
            if let Some(e) = p.get("eviction-hard") {
                cfg.eviction_hard = Some(
                    crate::kubelet::eviction::parse_eviction_hard(e)
                        .map_err(|err| format!("error: invalid --eviction-hard: {err}"))?,
                );
            }
            if let Some(pods) = p.get("pods") {
                cfg.pods = pods
                    .parse()
                    .map_err(|_| format!("error: invalid --pods \"{pods}\""))?;
            }
            if let Some(l) = p.get("labels") {
                cfg.labels = parse_kv_list(l)?;
            }
            if let Some(t) = p.get("taints") {
                cfg.taints = parse_taints(t)?;
            }
            if let Some(r) = p.get("kube-reserved") {
                cfg.kube_reserved = parse_reserved("kube-reserved", r)?;
            }
            if let Some(r) = p.get("system-reserved") {
                cfg.system_reserved = parse_reserved("system-reserved", r)?;
            }
            if !name
                .chars()
                .all(|ch| ch.is_ascii_lowercase() || ch.is_ascii_digit() || ch == '-' || ch == '.')
                || name.is_empty()
            {
                return Err(format!("error: invalid node name \"{name}\": a lowercase RFC 1123 subdomain is required"));
            }
            c.add_node(&name, cfg).map_err(|e| e.kubectl_text())?;
            Ok(format!("node/{name} added"))
        }
        "down" => c
            .power_off(&name)
            .map(|_| format!("node/{name} powered off (kubelet stopped)"))
            .map_err(|e| format!("error: {e}")),
        "up" => {
            let healing = c.node_partitioned(&name);
            let outage = c.apiserver_down();
            c.power_on(&name)
                .map(|_| {
                    format!(
                        "node/{name} {}",
                        if healing && outage {
                            "is on the network again; the API server is down: its kubelet reconnects when it is back"
                        } else if healing {
                            "reconnected to the API server"
                        } else {
                            "powered on"
                        }
                    )
                })
                .map_err(|e| format!("error: {e}"))
        }
        "partition" => c
            .partition_node(&name)
            .map(|_| {
                format!("node/{name} cut off from the API server (its containers keep running)")
            })
            .map_err(|e| format!("error: {e}")),
        "ps" => {
            let rows = c.node_ps(&name).map_err(|e| format!("error: {e}"))?;
            let mut t = vec![vec![
                "POD".to_string(),
                "CONTAINER".into(),
                "IMAGE".into(),
                "STATE".into(),
            ]];
            t.extend(
                rows.into_iter()
                    .map(|(p, ct, i)| vec![p, ct, i, "Running".into()]),
            );
            Ok(crate::printers::table::render(&t))
        }
        "remove" => c
            .remove_node(&name)
            .map(|_| format!("node/{name} removed"))
            .map_err(|e| e.kubectl_text()),
        other => Err(format!(
            "error: unknown sim node action \"{other}\": add, down, up, partition, ps or remove"
        )),
    }
}

pub(super) fn pod_key(arg: Option<&String>, verb: &str) -> Result<ObjKey, String> {
    let a = arg.ok_or_else(|| format!("error: usage: sim {verb} pod/NAME"))?;
    let name = a
        .strip_prefix("pod/")
        .or_else(|| a.strip_prefix("pods/"))
        .unwrap_or(a);
    if name.is_empty() {
        return Err(format!("error: usage: sim {verb} pod/NAME"));
    }
    Ok(ObjKey::new("default", name))
}

pub(super) fn crash(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, &[flag("container", Some('c'))], "sim crash")?;
    let key = pod_key(p.args.first(), "crash")?;
    c.crash_container(&key, p.get("container"))?;
    Ok(format!(
        "pod/{}: container exited with code 1 (Error)",
        key.name
    ))
}

pub(super) fn readiness(c: &mut Cluster, words: &[String], unready: bool) -> R {
    let verb = if unready { "unready" } else { "ready" };
    let key = pod_key(words.first(), verb)?;
    c.set_pod_unready(&key, unready)?;
    Ok(format!(
        "pod/{}: the application now {} its readiness probe",
        key.name,
        if unready { "fails" } else { "passes" }
    ))
}

pub(super) fn image(c: &mut Cluster, words: &[String], what: &str) -> R {
    let p = parse_flags(words, &[flag("after", None)], &format!("sim image-{what}"))?;
    let img = p
        .args
        .first()
        .ok_or_else(|| format!("error: usage: sim image-{what} IMAGE"))?;
    match what {
        "fail" => {
            c.set_image_refused(img, true);
            Ok(format!("registry: pulls of {img} now fail (not found)"))
        }
        "ok" => {
            c.set_image_refused(img, false);
            c.set_image_crash(img, None);
            Ok(format!("registry: {img} pulls and runs normally again"))
        }
        _ => {
            let after = p
                .get("after")
                .map(parse_duration)
                .transpose()
                .map_err(|e| format!("error: {e}"))?
                .unwrap_or(2_000);
            c.set_image_crash(img, Some(after));
            Ok(format!(
                "containers of {img} now exit with code 1 {} after they start",
                human_duration(after)
            ))
        }
    }
}

pub(super) fn gitops(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, &[flag("every", None)], "sim gitops")?;
    let usage = "error: usage: sim gitops on|off deployment/NAME [--every 30s]";
    let (Some(action), Some(target)) = (p.args.first(), p.args.get(1)) else {
        return Err(usage.into());
    };
    let name = target
        .strip_prefix("deployment/")
        .or_else(|| target.strip_prefix("deploy/"))
        .ok_or(usage)?;
    let key = ObjKey::new("default", name);
    match action.as_str() {
        "on" => {
            let every = p
                .get("every")
                .map(parse_duration)
                .transpose()
                .map_err(|e| format!("error: {e}"))?
                .unwrap_or(30_000)
                .max(1_000);
            c.set_gitops(&key, Some(every))?;
            Ok(format!(
                "gitops-sync: deployment/{name} is declared as it is now; drift is undone every {}",
                human_duration(every)
            ))
        }
        "off" => {
            c.set_gitops(&key, None)?;
            Ok(format!(
                "gitops-sync: deployment/{name} is no longer synced"
            ))
        }
        _ => Err(usage.into()),
    }
}

/// `sim load KIND/NAME --cpu 80%|1200m [--memory 200Mi] [--disk 2Gi] [--pids 100] |
/// --stop`: what a workload's users demand of it. A CPU percentage is of the Pods'
/// requests at the current replica count, turned into a total the Ready Pods share
/// (add Pods and each one works less); millicores are that total directly. Memory,
/// what the Pod writes to its disk and the processes it runs are per Pod.
pub(super) fn load(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            flag("cpu", None),
            flag("memory", None),
            flag("disk", None),
            flag("pids", None),
            bool_flag("stop", None),
            flag("namespace", Some('n')),
        ],
        "sim load",
    )?;
    let usage = "error: usage: sim load deployment|statefulset|replicaset/NAME [--cpu 80%|1200m] [--memory 200Mi] [--disk 2Gi] [--pids 100] | sim load KIND/NAME --stop";
    let target = p.args.first().ok_or(usage)?;
    let (kind_s, name) = target.split_once('/').ok_or(usage)?;
    let kind = resolve_kind(kind_s).ok_or(usage)?;
    let ns = p.get("namespace").unwrap_or("default").to_string();
    let key = ObjKey::new(&ns, name);
    let (replicas, template) = match c.store.get_object(kind, &key) {
        Some(Object::Deployment(d)) => (d.spec.replicas, d.spec.template.spec.clone()),
        Some(Object::StatefulSet(s)) => (s.spec.replicas, s.spec.template.spec.clone()),
        Some(Object::ReplicaSet(r)) => (r.spec.replicas, r.spec.template.spec.clone()),
        Some(_) => {
            return Err(format!(
                "error: sim load drives a Deployment, StatefulSet or ReplicaSet, not a {}",
                kind.name()
            ))
        }
        None => {
            return Err(format!(
                "Error from server (NotFound): {} \"{name}\" not found",
                kind.qualified_resource()
            ))
        }
    };
    let wkey = (ns.clone(), kind.name().to_string(), name.to_string());
    if p.bool("stop") {
        c.config.load.remove(&wkey);
        return Ok(format!(
            "{}/{name}: no load (its Pods idle)",
            kind.name().to_ascii_lowercase()
        ));
    }
    if ["cpu", "memory", "disk", "pids"]
        .iter()
        .all(|f| p.get(f).is_none())
    {
        return Err(usage.into());
    }
    let request: i64 = template
        .containers
        .iter()
        .filter_map(|c| c.resources.requests.get("cpu"))
        .filter_map(|q| crate::api::quantity::parse_cpu_milli(q))
        .sum();
    let mut d = crate::metrics::Demand::default();
    let mut said = Vec::new();
    if let Some(cpu) = p.get("cpu") {
        let total = if let Some(pct) = cpu.strip_suffix('%') {
            let pct: i64 = pct.parse().map_err(|_| {
                format!(
                    "error: --cpu {cpu}: a percentage of the request (80%) or millicores (1200m)"
                )
            })?;
            if request == 0 {
                return Err(format!("error: --cpu {cpu}: the Pods of {} {name} request no CPU, so a percentage of it means nothing; give millicores (--cpu 500m)", kind.name()));
            }
            request * replicas.max(1) * pct / 100
        } else {
            crate::api::quantity::parse_cpu_milli(cpu).ok_or_else(|| {
                format!(
                    "error: --cpu {cpu}: a percentage of the request (80%) or millicores (1200m)"
                )
            })?
        };
        d.cpu_milli = Some(total.max(0));
        said.push(format!("{total}m of CPU shared by its Ready Pods"));
    }
    if let Some(mem) = p.get("memory") {
        let b = crate::api::quantity::parse_bytes(mem)
            .ok_or_else(|| format!("error: --memory {mem}: a quantity such as 200Mi"))?;
        d.memory_bytes = Some(b.max(0));
        said.push(format!("{mem} of memory per Pod"));
    }
    if let Some(disk) = p.get("disk") {
        let b = crate::api::quantity::parse_bytes(disk)
            .ok_or_else(|| format!("error: --disk {disk}: a quantity such as 2Gi"))?;
        d.disk_bytes = Some(b.max(0));
        said.push(format!("{disk} written to disk per Pod"));
    }
    if let Some(n) = p.get("pids") {
        let pids = n
            .parse::<i64>()
            .ok()
            .filter(|x| (0..=crate::kubelet::eviction::PID_MAX).contains(x))
            .ok_or_else(|| format!("error: --pids {n}: a number of processes such as 100"))?;
        d.pids = Some(pids);
        said.push(format!("{pids} more processes per Pod"));
    }
    c.config.load.insert(wkey, d);
    Ok(format!(
        "{}/{name}: load {}",
        kind.name().to_ascii_lowercase(),
        said.join(", ")
    ))
}

pub(super) fn hang(c: &mut Cluster, words: &[String]) -> R {
    let key = pod_key(words.first(), "hang")?;
    let live = c.hang_pod(&key)?;
    Ok(if live {
        format!("pod/{}: the application hangs; its liveness probe will fail and the kubelet will restart it", key.name)
    } else {
        format!(
            "pod/{}: the application hangs; it has no liveness probe, so nothing will restart it",
            key.name
        )
    })
}

pub(super) fn oom(c: &mut Cluster, words: &[String]) -> R {
    let p = parse_flags(words, &[flag("container", Some('c'))], "sim oom")?;
    let key = pod_key(p.args.first(), "oom")?;
    c.oom_kill(&key, p.get("container"))?;
    Ok(format!(
        "pod/{}: container exceeded its memory limit: OOMKilled (exit code 137)",
        key.name
    ))
}

/// `sim image-warmup IMAGE DURATION`: the application in IMAGE listens only this long
/// after its container starts (0s: at once again).
pub(super) fn image_warmup(c: &mut Cluster, words: &[String]) -> R {
    let usage = "error: usage: sim image-warmup IMAGE DURATION (e.g. 8s; 0s to listen at once)";
    let (Some(image), Some(d)) = (words.first(), words.get(1)) else {
        return Err(usage.into());
    };
    let ms = parse_span("sim image-warmup", d).map_err(|e| format!("error: {e}"))?;
    if ms == 0 {
        c.faults.warmup.remove(image);
        return Ok(format!(
            "{image}: the application listens as soon as its container starts"
        ));
    }
    c.faults.warmup.insert(image.clone(), ms);
    Ok(format!(
        "{image}: the application listens {} after its container starts; until then it refuses connections and fails its probes",
        crate::kubelet::format_go_duration(ms)
    ))
}

/// `sim node pressure memory|disk|inodes|pid NODE [--use Q | --off]`: memory, disk
/// bytes, inodes or process ids taken on the node by something outside its Pods
/// (`cluster::pressure`); by default as much as leaves the kubelet's threshold met.
fn pressure(c: &mut Cluster, words: &[String]) -> R {
    use crate::cluster::pressure::Take;
    use crate::kubelet::eviction::Signal;
    let usage =
        "error: usage: sim node pressure memory|disk|inodes|pid NODE [--use QUANTITY | --off]";
    let p = parse_flags(
        words,
        &[flag("use", None), bool_flag("off", None)],
        "sim node pressure",
    )?;
    let [what, node] = p.args.as_slice() else {
        return Err(usage.into());
    };
    let (signal, noun, condition) = match what.as_str() {
        "memory" => (Signal::MemoryAvailable, "of memory", "MemoryPressure"),
        "disk" => (Signal::NodeFsAvailable, "of its disk", "DiskPressure"),
        "inodes" => (Signal::NodeFsInodesFree, "inodes", "DiskPressure"),
        "pid" => (Signal::PidAvailable, "process ids", "PIDPressure"),
        _ => {
            return Err(format!(
                "error: sim node pressure {what}: memory, disk, inodes or pid"
            ))
        }
    };
    let bytes = matches!(what.as_str(), "memory" | "disk");
    let node = node.trim_start_matches("node/");
    let take = match (p.get("use"), p.bool("off")) {
        (Some(_), true) => return Err(usage.into()),
        (Some(q), false) => Take::Amount(if bytes {
            quantity::parse_bytes(q)
                .ok_or_else(|| format!("error: --use {q}: a quantity such as 7Gi"))?
        } else {
            q.parse::<i64>()
                .ok()
                .filter(|n| *n >= 0)
                .ok_or_else(|| format!("error: --use {q}: a number such as 400000"))?
        }),
        (None, true) => Take::Off,
        (None, false) => Take::UnderThreshold,
    };
    let took = c.set_node_pressure(node, signal, take)?;
    let amount = if bytes {
        quantity::format_bytes(took)
    } else {
        took.to_string()
    };
    if took == 0 {
        let noun = noun.trim_start_matches("of ");
        return Ok(format!("node/{node}: nothing outside its Pods takes {noun} now; the kubelet clears {condition} 5m after its threshold was last met"));
    }
    let thresholds: Vec<String> = c
        .kubelets
        .get(node)
        .map(|k| k.thresholds())
        .unwrap_or_default()
        .iter()
        .filter(|t| t.signal.resource() == signal.resource())
        .map(|t| format!("{}<{}", t.signal.name(), t.value_text()))
        .collect();
    let checks = if thresholds.is_empty() {
        format!("its kubelet has no {} threshold (none by default), so it reports no {condition} and evicts nothing; a node added with --eviction-hard {}<10% has one", signal.name(), signal.name())
    } else {
        format!("the kubelet checks {} every 10s", thresholds.join(" and "))
    };
    Ok(format!(
        "node/{node}: something outside its Pods takes {amount} {noun}; {checks}"
    ))
}
