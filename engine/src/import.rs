//! From a real cluster and back: load another cluster's state as a new world
//! (`sim import`), and write this world out again — as a snapshot that imports back to
//! the same world, or as clean manifests a real cluster's `kubectl apply` accepts
//! (`sim export`).
//!
//! The input is what `kubectl get nodes,namespaces,deployments,… -A -o json` (a `List`)
//! or `-o yaml` prints, or several such files, or plain manifests. It is read as a
//! restore into a new API server reads etcd ([`crate::apiserver::Store::restore`]):
//! uids, specs, statuses and generations are kept, so owner chains hold through their
//! ownerReferences and bound Pods stay on their nodes with their status (their kubelets
//! adopt the running containers, [`crate::kubelet::Kubelet::adopt_running`]); the
//! store's bookkeeping (resourceVersion, managedFields, creation time) is the new
//! store's. What controllers and kubelets write for themselves (EndpointSlices,
//! Endpoints, Events, Leases) is written anew by them. Nodes come back as kubelets
//! registering with the snapshot's capacity, allocatable, labels, taints and images.
//!
//! What kubeplay does not model is never dropped silently: the [`Report`] names every
//! kind left out and every field ignored, once, with counts; the rest still loads.
//! Malformed input is refused as a whole (nothing changes), naming the file, the
//! object and the field.

use crate::api::*;
use crate::cluster::Cluster;
use crate::kubelet::NodeConfig;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

/// What an import loaded, left out and ignored.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Report {
    /// The files read.
    pub files: usize,
    /// Objects loaded, by kind.
    pub loaded: BTreeMap<&'static str, usize>,
    /// Objects left out, by `kind (reason)`.
    pub left_out: BTreeMap<String, usize>,
    /// Fields ignored (kubeplay does not model them), by path with list indexes
    /// written `[]`, and how many objects had them.
    pub ignored_fields: BTreeMap<String, usize>,
    /// ownerReferences dropped because their owner is not in the snapshot.
    pub dropped_owner_refs: usize,
    /// Bound Pods whose containers all ran: they keep running on their nodes.
    pub pods_kept_running: usize,
    /// Bound Pods not all running: their kubelets sync them as after a restart.
    pub pods_synced: usize,
    /// Nodes whose Ready condition was not True: powered off.
    pub nodes_down: Vec<String>,
}

/// How many ignored field paths the summary lists (the rest are counted).
const FIELDS_LISTED: usize = 25;

impl Report {
    /// The summary the CLI and the page print.
    pub fn summary(&self) -> String {
        let mut out = String::new();
        let loaded: Vec<String> = self
            .loaded
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect();
        out.push_str(&format!(
            "imported {} object{} from {} file{}: {}\n",
            self.loaded.values().sum::<usize>(),
            if self.loaded.values().sum::<usize>() == 1 {
                ""
            } else {
                "s"
            },
            self.files,
            if self.files == 1 { "" } else { "s" },
            if loaded.is_empty() {
                "nothing".to_string()
            } else {
                loaded.join(", ")
            }
        ));
        out.push_str(&format!(
            "Pods: {} running kept on their nodes, {} synced by their kubelets as after a restart\n",
            self.pods_kept_running, self.pods_synced
        ));
        if !self.nodes_down.is_empty() {
            out.push_str(&format!(
                "nodes not Ready in the snapshot, powered off: {}\n",
                self.nodes_down.join(", ")
            ));
        }
        if !self.left_out.is_empty() {
            out.push_str("left out (kubeplay does not model them, or writes them anew):\n");
            for (k, n) in &self.left_out {
                out.push_str(&format!("  {n} {k}\n"));
            }
        }
        if self.dropped_owner_refs > 0 {
            out.push_str(&format!(
                "ownerReferences dropped, their owner not in the snapshot: {}\n",
                self.dropped_owner_refs
            ));
        }
        if !self.ignored_fields.is_empty() {
            out.push_str("fields kubeplay ignores (objects with them):\n");
            let mut fields: Vec<(&String, &usize)> = self.ignored_fields.iter().collect();
            crate::sorting::sort_by(&mut fields, |a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            for (f, n) in fields.iter().take(FIELDS_LISTED) {
                out.push_str(&format!("  {f} ({n})\n"));
            }
            if fields.len() > FIELDS_LISTED {
                out.push_str(&format!(
                    "  … and {} more field paths\n",
                    fields.len() - FIELDS_LISTED
                ));
            }
        }
        out.push_str(
            "as a restore: uids, specs, statuses and generations kept; resourceVersions, managedFields and creation times are this cluster's\n",
        );
        out
    }
}

/// One object read: the file it came from and its JSON.
struct Item {
    source: String,
    value: Value,
}

/// The kinds restored, in the order a restore writes them: what others refer to
/// first (namespaces, classes, owners), Pods last.
const ORDER: &[Kind] = &[
    Kind::Namespace,
    Kind::PriorityClass,
    Kind::StorageClass,
    Kind::PersistentVolume,
    Kind::PersistentVolumeClaim,
    Kind::ConfigMap,
    Kind::Secret,
    Kind::ServiceAccount,
    Kind::ClusterRole,
    Kind::ClusterRoleBinding,
    Kind::Role,
    Kind::RoleBinding,
    Kind::ResourceQuota,
    Kind::LimitRange,
    Kind::Service,
    Kind::IngressClass,
    Kind::Ingress,
    Kind::NetworkPolicy,
    Kind::Deployment,
    Kind::ReplicaSet,
    Kind::StatefulSet,
    Kind::DaemonSet,
    Kind::ControllerRevision,
    Kind::CronJob,
    Kind::Job,
    Kind::HorizontalPodAutoscaler,
    Kind::PodDisruptionBudget,
    Kind::Pod,
];

/// Kinds kubeplay models but does not restore: their controllers and kubelets write
/// them anew, and why.
fn written_anew(kind: Kind) -> Option<&'static str> {
    Some(match kind {
        Kind::Event => "Events are written anew by what happens here",
        Kind::EndpointSlice | Kind::Endpoints => {
            "rebuilt by their controllers from the Services and Pods"
        }
        Kind::Lease => "renewed anew by the kubelets and leaders here",
        _ => return None,
    })
}

/// Metadata a restore does not take from the snapshot (the new store's own).
const STORE_FIELDS: &[&str] = &[
    "managedFields",
    "resourceVersion",
    "selfLink",
    "creationTimestamp",
];

/// Read every object of `files` ((name, text) pairs): JSON or YAML, one object, a
/// multi-document stream or a `List`.
fn read_items(files: &[(String, String)]) -> Result<Vec<Item>, String> {
    let mut out = Vec::new();
    for (name, text) in files {
        let docs: Vec<Value> = if text.trim_start().starts_with(['{', '[']) {
            // JSON straight: `kubectl get -o json` of a large cluster is hundreds of MB,
            // and the JSON parser reads it several times faster than the YAML one.
            vec![serde_json::from_str(text)
                .map_err(|e| format!("error: error parsing {name}: {e}"))?]
        } else {
            crate::yaml_depth::check(text)
                .map_err(|e| format!("error: error parsing {name}: {e}"))?;
            crate::yaml_depth::check_expansion(text)
                .map_err(|e| format!("error: error parsing {name}: {e}"))?;
            let mut docs = Vec::new();
            for de in serde_yaml_ng::Deserializer::from_str(text) {
                use serde::Deserialize;
                let v = Value::deserialize(de)
                    .map_err(|e| format!("error: error parsing {name}: {e}"))?;
                docs.push(v);
            }
            docs
        };
        for doc in docs {
            flatten(name, doc, &mut out, 0)?;
        }
    }
    Ok(out)
}

/// A document's objects: itself, or a List's items (a List of Lists too, a few deep).
fn flatten(source: &str, doc: Value, out: &mut Vec<Item>, depth: u32) -> Result<(), String> {
    match doc {
        Value::Null => Ok(()),
        Value::Array(items) if depth < 4 => {
            for i in items {
                flatten(source, i, out, depth + 1)?;
            }
            Ok(())
        }
        Value::Object(mut m)
            if depth < 4
                && m.get("kind")
                    .and_then(Value::as_str)
                    .is_some_and(|k| k == "List" || k.ends_with("List")) =>
        {
            match m.remove("items") {
                Some(Value::Array(items)) => {
                    for i in items {
                        flatten(source, i, out, depth + 1)?;
                    }
                    Ok(())
                }
                Some(Value::Null) | None => Ok(()),
                Some(_) => Err(format!(
                    "error: error importing {source}: a List's items must be a list"
                )),
            }
        }
        Value::Object(m) => {
            out.push(Item {
                source: source.to_string(),
                value: Value::Object(m),
            });
            Ok(())
        }
        _ => Err(format!(
            "error: error importing {source}: expected an object or a List, found {}",
            kind_of_value(&doc)
        )),
    }
}

fn kind_of_value(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "an object",
    }
}

/// `kind ns/name` (or `kind name`) of a JSON object, for messages.
fn named(v: &Value) -> String {
    let s = |p: &str| v.pointer(p).and_then(Value::as_str).unwrap_or_default();
    let (kind, ns, name) = (s("/kind"), s("/metadata/namespace"), s("/metadata/name"));
    let kind = if kind.is_empty() { "object" } else { kind };
    let name = if name.is_empty() { "(no name)" } else { name };
    if ns.is_empty() {
        format!("{kind} {name}")
    } else {
        format!("{kind} {ns}/{name}")
    }
}

/// Whether a JSON value is a zero value (which a typed object does not write out).
fn is_zero(v: &Value) -> bool {
    match v {
        Value::Null => true,
        Value::Bool(b) => !b,
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::String(s) => s.is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
    }
}

/// The paths of `input` that `kept` (the typed object written out again) lacks, with
/// list indexes as `[]`; zero values do not count (a typed object omits them).
fn ignored_paths(input: &Value, kept: &Value, path: &str, out: &mut BTreeSet<String>) {
    match (input, kept) {
        (Value::Object(a), Value::Object(b)) => {
            for (k, v) in a {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match b.get(k) {
                    Some(w) => ignored_paths(v, w, &p, out),
                    None if !is_zero(v) => {
                        out.insert(p);
                    }
                    None => {}
                }
            }
        }
        (Value::Array(a), Value::Array(b)) => {
            for (v, w) in a.iter().zip(b) {
                ignored_paths(v, w, &format!("{path}[]"), out);
            }
        }
        _ => {}
    }
}

/// A node as a kubelet that registers with what the snapshot's Node says.
fn node_config(n: &Node) -> NodeConfig {
    let mut cfg = NodeConfig::default();
    let cap = &n.status.capacity;
    if let Some(cpu) = cap
        .get("cpu")
        .filter(|q| quantity::parse_cpu_milli(q).is_some())
    {
        cfg.cpu = cpu.clone();
    }
    if let Some(m) = cap
        .get("memory")
        .filter(|q| quantity::parse_bytes(q).is_some())
    {
        cfg.memory = m.clone();
    }
    if let Some(p) = cap.get("pods").and_then(|p| p.parse().ok()) {
        cfg.pods = p;
    }
    if let Some(d) = cap
        .get("ephemeral-storage")
        .filter(|q| quantity::parse_bytes(q).is_some())
    {
        cfg.ephemeral_storage = d.clone();
    }
    for r in ["cpu", "memory", "ephemeral-storage", "pods"] {
        if let Some(a) = n.status.allocatable.get(r) {
            if cap.get(r) != Some(a) {
                cfg.allocatable.insert(r.into(), a.clone());
            }
        }
    }
    cfg.labels = n.metadata.labels.clone();
    // The taints that mirror the node's conditions (`node.kubernetes.io/not-ready`,
    // `unreachable`, the pressures) are the node lifecycle controller's to put back
    // from the conditions here; the rest — the node's own, and `unschedulable`, which
    // mirrors the cordon that is kept — come with it.
    cfg.taints = n
        .spec
        .taints
        .iter()
        .filter(|t| !t.key.starts_with("node.kubernetes.io/") || t.key == TAINT_NODE_UNSCHEDULABLE)
        .cloned()
        .collect();
    cfg.unschedulable = n.spec.unschedulable;
    cfg
}

/// Load `files` as the starting world of a new cluster with `seed` (the Pod limit
/// floor of `floor`, as `sim reset` keeps it). The cluster stands at 0:00.0 with
/// everything restored; nothing has run yet.
pub fn import(
    seed: u64,
    floor: Option<usize>,
    files: &[(String, String)],
) -> Result<(Cluster, Report), String> {
    let items = read_items(files)?;
    let mut report = Report {
        files: files.len(),
        ..Default::default()
    };
    let mut nodes: Vec<Node> = Vec::new();
    let mut objects: BTreeMap<usize, Vec<(String, Object)>> = BTreeMap::new();
    let mut uids: BTreeSet<String> = BTreeSet::new();
    for Item { source, value } in items {
        let Some((kind, obj)) = decode_item(&source, value, &mut report)? else {
            continue;
        };
        if !obj.meta().uid.is_empty() {
            uids.insert(obj.meta().uid.clone());
        }
        match obj {
            Object::Node(n) => nodes.push(*n),
            obj => {
                let Some(i) = ORDER.iter().position(|k| *k == kind) else {
                    *report
                        .left_out
                        .entry(format!("{} (not restored)", kind.name()))
                        .or_default() += 1;
                    continue;
                };
                objects.entry(i).or_default().push((source, obj));
            }
        }
    }
    let mut c = Cluster::new(seed);
    c.store.pod_limit_floor = floor;
    // Nodes by name, so the world does not depend on the order `kubectl get` printed.
    nodes.sort_by_cached_key(|n| natural_key(&n.metadata.name));
    add_nodes(&mut c, &nodes, &mut report)?;
    restore_objects(&mut c, objects, &uids, &mut report)?;
    for n in &nodes {
        let ready = n
            .status
            .conditions
            .iter()
            .any(|c| c.type_ == "Ready" && c.status == "True");
        if !ready && !n.status.conditions.is_empty() {
            let _ = c.power_off(&n.metadata.name);
            report.nodes_down.push(n.metadata.name.clone());
        }
    }
    Ok((c, report))
}

/// One document of the input as an object of its kind, its store-assigned fields
/// dropped and the fields the model ignores counted; None (counted in `left_out`) for a
/// kind that is not modelled or that the cluster writes anew.
fn decode_item(
    source: &str,
    mut value: Value,
    report: &mut Report,
) -> Result<Option<(Kind, Object)>, String> {
    let (Some(api_version), Some(kind_name)) = (
        value
            .get("apiVersion")
            .and_then(Value::as_str)
            .map(str::to_string),
        value
            .get("kind")
            .and_then(Value::as_str)
            .map(str::to_string),
    ) else {
        return Err(format!(
            "error: error importing {source}: {}: apiVersion and kind are required",
            named(&value)
        ));
    };
    // Why custom resources are left out: their objects are only served once the
    // definition is established, which takes the API server's own controllers, and a
    // restore writes objects without running them.
    let found = Kind::ALL
        .iter()
        .copied()
        .find(|k| k.name() == kind_name && k.api_version() == api_version)
        .filter(|k| *k != Kind::CustomResourceDefinition);
    let Some(kind) = found else {
        let why = if kind_name == "CustomResourceDefinition" {
            "custom resources are not imported"
        } else if api_version.contains('.') && !api_version.contains("k8s.io/") {
            "a custom resource, not imported"
        } else {
            "not modelled"
        };
        *report
            .left_out
            .entry(format!("{kind_name} ({api_version}: {why})"))
            .or_default() += 1;
        return Ok(None);
    };
    if let Some(why) = written_anew(kind) {
        *report
            .left_out
            .entry(format!("{kind_name} ({why})"))
            .or_default() += 1;
        return Ok(None);
    }
    if let Some(meta) = value.get_mut("metadata").and_then(Value::as_object_mut) {
        for f in STORE_FIELDS {
            meta.remove(*f);
        }
    }
    let input = value.clone();
    let obj = crate::manifest::decode_fields(kind, value).map_err(|(path, e)| {
        let path = if path.is_empty() || path == "." {
            String::new()
        } else {
            format!("{path}: ")
        };
        format!(
            "error: error importing {source}: {}: {path}{e}",
            named(&input)
        )
    })?;
    let mut ignored = BTreeSet::new();
    ignored_paths(&input, &obj.to_json(), "", &mut ignored);
    for p in ignored {
        *report.ignored_fields.entry(p).or_default() += 1;
    }
    if obj.meta().name.is_empty() {
        return Err(format!(
            "error: error importing {source}: {}: metadata.name: Required value",
            named(&input)
        ));
    }
    Ok(Some((kind, obj)))
}

/// Add the imported nodes (in the order given), each kubelet knowing the images its
/// node reported.
fn add_nodes(c: &mut Cluster, nodes: &[Node], report: &mut Report) -> Result<(), String> {
    for n in nodes {
        let name = &n.metadata.name;
        c.add_node(name, node_config(n))
            .map_err(|e| format!("error: error importing Node {name}: {}", e.message))?;
        let now = c.now();
        if let Some(k) = c.kubelets.get_mut(name) {
            // `repo@sha256:…` and `repo:tag`: the tag form is what Pods name, often
            // without Docker Hub's implied prefix. One name per image: the disk holds
            // it once.
            for name in n.status.images.iter().flat_map(|i| &i.names) {
                if !name.contains('@') {
                    let short = name
                        .strip_prefix("docker.io/library/")
                        .or_else(|| name.strip_prefix("docker.io/"))
                        .unwrap_or(name);
                    k.images.insert(short.to_string());
                    k.pressure
                        .image_detected
                        .entry(short.to_string())
                        .or_insert(now);
                }
            }
        }
        *report.loaded.entry("Node").or_default() += 1;
    }
    Ok(())
}

/// Restore the other objects, kind by kind in [`ORDER`] and by namespace and name within
/// a kind: those every cluster has already are left out, owner references to objects
/// not imported dropped, and bound Pods counted as kept running or to be synced.
fn restore_objects(
    c: &mut Cluster,
    mut objects: BTreeMap<usize, Vec<(String, Object)>>,
    uids: &BTreeSet<String>,
    report: &mut Report,
) -> Result<(), String> {
    for (_, list) in objects.iter_mut() {
        crate::sorting::sort_by(list, |a, b| {
            let (a, b) = (a.1.meta(), b.1.meta());
            (a.namespace.as_str(), a.name.as_str()).cmp(&(b.namespace.as_str(), b.name.as_str()))
        });
    }
    for (_, list) in objects {
        for (source, mut obj) in list {
            let kind = obj.kind();
            let key = crate::apiserver::ObjKey::of(obj.meta());
            // Every fresh cluster has these already (the default namespaces, the
            // `kubernetes` Service, the system priority classes, the bootstrap RBAC).
            if c.store.get_object(kind, &key).is_some() {
                *report
                    .left_out
                    .entry(format!("{} (every cluster has it already)", kind.name()))
                    .or_default() += 1;
                continue;
            }
            let refs = &mut obj.meta_mut().owner_references;
            let before = refs.len();
            refs.retain(|r| uids.contains(&r.uid));
            report.dropped_owner_refs += before - refs.len();
            let bound = match &obj {
                Object::Pod(p) if !p.spec.node_name.is_empty() => Some(p.clone()),
                _ => None,
            };
            let what = format!("{} {}", kind.name(), key.name);
            c.restore(obj)
                .map_err(|e| format!("error: error importing {source}: {what}: {}", e.message))?;
            if let Some(p) = bound {
                let running = p.status.phase == "Running"
                    && !p.spec.containers.is_empty()
                    && p.spec.containers.iter().all(|ct| {
                        p.status
                            .container_statuses
                            .iter()
                            .any(|s| s.name == ct.name && s.state.running.is_some())
                    })
                    && c.kubelets.contains_key(&p.spec.node_name);
                if running {
                    report.pods_kept_running += 1;
                } else if !p.is_terminal() {
                    report.pods_synced += 1;
                }
            }
            *report.loaded.entry(kind.name()).or_default() += 1;
        }
    }
    Ok(())
}

/// A name's sort key in natural order (`node-2` before `node-10`).
fn natural_key(name: &str) -> String {
    let mut out = String::new();
    let mut digits = String::new();
    for ch in name.chars().chain(std::iter::once('\u{0}')) {
        if ch.is_ascii_digit() {
            digits.push(ch);
            continue;
        }
        if !digits.is_empty() {
            out.push_str(&format!("{digits:0>20}"));
            digits.clear();
        }
        if ch != '\u{0}' {
            out.push(ch);
        }
    }
    out
}

/// The kinds a snapshot holds (what the import reads back), in restore order, Nodes
/// first.
fn snapshot_kinds() -> impl Iterator<Item = Kind> {
    std::iter::once(Kind::Node).chain(ORDER.iter().copied())
}

/// This world as `kubectl get … -A -o json` prints it: a `List` of every object an
/// import restores (Nodes, workloads, Pods with their status…) but those every
/// cluster has, for `sim import` to read back into the same world.
pub fn snapshot(c: &Cluster) -> Value {
    // What every cluster has (its namespaces, the `kubernetes` Service, the system
    // priority classes and RBAC, the default StorageClass) an import finds there.
    let fresh = Cluster::new(c.seed());
    let items: Vec<Value> = snapshot_kinds()
        .flat_map(|k| {
            c.store
                .list_objects(k)
                .filter(|o| {
                    fresh
                        .store
                        .get_object(k, &crate::apiserver::ObjKey::of(o.meta()))
                        .is_none()
                })
                .map(Object::to_json)
                .collect::<Vec<_>>()
        })
        .collect();
    serde_json::json!({
        "apiVersion": "v1",
        "items": items,
        "kind": "List",
        "metadata": { "resourceVersion": "" }
    })
}

/// Whether an object is one a controller made (it has a controlling owner): its owner
/// makes it again on a real cluster, so an export leaves it out.
fn controller_owned(m: &ObjectMeta) -> bool {
    m.owner_references
        .iter()
        .any(|r| r.controller == Some(true))
}

/// The namespaces every cluster has.
const SYSTEM_NAMESPACES: &[&str] = &["default", "kube-node-lease", "kube-public", "kube-system"];

/// This world's objects as clean manifests for `kubectl apply` on a real cluster, one
/// YAML stream: the store's and the controllers' fields stripped (status, uid,
/// resourceVersion, generation, creationTimestamp, managedFields, a Service's
/// allocated addresses, a bare Pod's node), the objects a controller makes left to
/// that controller (ReplicaSets of Deployments, their Pods, ControllerRevisions…), as
/// is what every cluster has (its namespaces, the `kubernetes` Service, the DNS add-on, system
/// priority classes and RBAC, the default StorageClass) and what no manifest holds
/// (Nodes, Events, Leases, EndpointSlices).
pub fn manifests(c: &Cluster) -> String {
    // The DNS add-on is there too on a cluster the manifests are applied to.
    let mut fresh = Cluster::new(c.seed());
    fresh.install_cluster_dns();
    let mut docs = Vec::new();
    for kind in ORDER.iter().copied() {
        for obj in c.store.list_objects(kind) {
            let m = obj.meta();
            if controller_owned(m)
                || kind == Kind::ControllerRevision
                || (kind == Kind::Namespace && SYSTEM_NAMESPACES.contains(&m.name.as_str()))
                || fresh
                    .store
                    .get_object(kind, &crate::apiserver::ObjKey::of(m))
                    .is_some()
            {
                continue;
            }
            let mut v = obj.to_json();
            clean(&mut v, kind);
            let mut doc = crate::printers::yaml::to_yaml(&v);
            if !doc.ends_with('\n') {
                doc.push('\n');
            }
            docs.push(doc);
        }
    }
    docs.join("---\n")
}

/// Strip what the API server and the controllers set from an object's JSON.
fn clean(v: &mut Value, kind: Kind) {
    if let Some(o) = v.as_object_mut() {
        o.remove("status");
    }
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        for f in [
            "uid",
            "resourceVersion",
            "generation",
            "creationTimestamp",
            "managedFields",
            "selfLink",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "ownerReferences",
            "finalizers",
        ] {
            m.remove(f);
        }
        if let Some(a) = m.get_mut("annotations").and_then(Value::as_object_mut) {
            // The Deployment controller's and kubectl's own notes.
            a.retain(|k, _| {
                !k.starts_with("deployment.kubernetes.io/")
                    && k != "kubectl.kubernetes.io/last-applied-configuration"
                    && k != crate::api::TEMPLATE_GENERATION_ANNOTATION
            });
            if a.is_empty() {
                m.remove("annotations");
            }
        }
    }
    match kind {
        Kind::Service => {
            if let Some(s) = v.get_mut("spec").and_then(Value::as_object_mut) {
                // Allocated from this cluster's ranges; the real one allocates its own.
                s.remove("clusterIP");
                s.remove("clusterIPs");
                if let Some(Value::Array(ports)) = s.get_mut("ports") {
                    for p in ports {
                        if let Some(p) = p.as_object_mut() {
                            p.remove("nodePort");
                        }
                    }
                }
            }
        }
        Kind::Pod => {
            if let Some(s) = v.get_mut("spec").and_then(Value::as_object_mut) {
                // Another cluster's nodes: its scheduler places the Pod.
                s.remove("nodeName");
            }
        }
        Kind::Job => {
            // The selector and labels generated from this cluster's Job uid.
            if let Some(s) = v.get_mut("spec").and_then(Value::as_object_mut) {
                let generated = s.get("manualSelector").and_then(Value::as_bool) != Some(true);
                if generated {
                    s.remove("selector");
                    if let Some(l) = s
                        .get_mut("template")
                        .and_then(|t| t.get_mut("metadata"))
                        .and_then(|m| m.get_mut("labels"))
                        .and_then(Value::as_object_mut)
                    {
                        l.retain(|k, _| {
                            !matches!(
                                k.as_str(),
                                "controller-uid"
                                    | "batch.kubernetes.io/controller-uid"
                                    | "job-name"
                                    | "batch.kubernetes.io/job-name"
                            )
                        });
                    }
                }
            }
        }
        _ => {}
    }
}
