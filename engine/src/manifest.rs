//! Manifests: YAML (multi-document) and JSON in the Kubernetes shapes, parsed into
//! [`Object`]s with line/column errors and the unknown fields the API server's strict
//! decoding refuses (kubectl's default `--validate=strict`).
//!
//! JSON is YAML, so one parser (`serde_yaml_ng`, the maintained fork of the archived
//! `serde_yaml`) reads both. Every document is parsed before anything is applied, so a
//! broken file changes nothing.

use crate::api::*;
use serde::Deserialize;

/// A parsed document: the object and the unknown fields the server would refuse.
#[derive(Clone, Debug, PartialEq)]
pub struct Document {
    /// The object.
    pub object: Object,
    /// Unknown field paths, e.g. `spec.template.spec.containers[0].imagePullPolice`.
    pub unknown_fields: Vec<String>,
    /// The document's own JSON (for `last-applied-configuration`).
    pub source: serde_json::Value,
}

#[derive(Deserialize)]
struct TypeMeta {
    #[serde(rename = "apiVersion", default)]
    api_version: Option<String>,
    #[serde(default)]
    kind: Option<String>,
}

/// The kind a manifest names, or kubectl's error for one it cannot map.
pub(crate) fn kind_of(api_version: &str, kind: &str) -> Result<Kind, String> {
    // Why a lookup in Kind::ALL: one table names every kind, so a kind added there
    // is read from manifests without a second list to keep in step.
    // The built-in kinds first: a definition cannot take a built-in resource's place.
    let builtin = Kind::ALL
        .iter()
        .copied()
        .find(|k| k.name() == kind && k.api_version() == api_version);
    if let Some(k) = builtin.or_else(|| crate::api::discovered::resolve_manifest(api_version, kind))
    {
        return Ok(k);
    }
    let Some(k) = Kind::ALL.iter().copied().find(|k| k.name() == kind) else {
        return Err(format!(
            "resource mapping not found for name: \"\" namespace: \"\" from \"\": no matches for kind \"{kind}\" in version \"{api_version}\"\nensure CRDs are installed first"
        ));
    };
    if k.api_version() != api_version {
        return Err(format!(
            "resource mapping not found for name: \"\" namespace: \"\" from \"\": no matches for kind \"{kind}\" in version \"{api_version}\"\nensure CRDs are installed first"
        ));
    }
    Ok(k)
}

fn typed<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> Result<T, (String, String)> {
    // One instantiation of every typed Deserialize (over serde_json::Value) serves
    // manifests and `kubectl patch` alike; deserializing straight from YAML, or through
    // serde_ignored's or serde_path_to_error's wrappers, cost hundreds of KB of wasm.
    crate::value_de::from_value(value)
}

/// Where in an object a field sits, for the real fields the simulator does not model.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Place {
    /// `metadata` of any object.
    Meta,
    /// A PodSpec: a Pod's `spec`, or any `template.spec`.
    PodSpec,
    /// An entry of `containers`, `initContainers` or `ephemeralContainers`.
    Container,
    /// `affinity` of a PodSpec.
    Affinity,
    /// A Pod's `status`.
    PodStatus,
    /// An entry of a Pod's container statuses.
    ContainerStatus,
    /// A Node's `spec`.
    NodeSpec,
    /// A Node's `status`.
    NodeStatus,
    /// A workload's `status` (Deployment, ReplicaSet, ...).
    Status,
    /// A condition in any `conditions` list.
    Condition,
    /// A ServiceAccount's top level.
    ServiceAccount,
    /// A Job's `spec` (also a CronJob's `jobTemplate.spec`).
    JobSpec,
}

/// Real Kubernetes API fields the simulator does not model (yet), each at the place
/// it belongs: kubectl would not warn about them, so neither does kubeplay (they are
/// dropped, not applied). Why by place: a real field name is unknown elsewhere, and
/// strict decoding refuses `images` in a container even though a Node's status has one.
const REAL_UNMODELLED_FIELDS: &[(Place, &[&str])] = &[
    (
        Place::Meta,
        &[
            "managedFields",
            "selfLink",
            "namespace",
            "finalizers",
            "deletionGracePeriodSeconds",
        ],
    ),
    (
        Place::Container,
        &[
            "command",
            "args",
            "env",
            "envFrom",
            "imagePullPolicy",
            "livenessProbe",
            "readinessProbe",
            "startupProbe",
            "volumeMounts",
            "volumeDevices",
            "workingDir",
            "securityContext",
            "lifecycle",
            "terminationMessagePath",
            "terminationMessagePolicy",
            "stdin",
            "stdinOnce",
            "tty",
            "resizePolicy",
            "restartPolicy",
            "targetContainerName",
        ],
    ),
    (
        Place::PodSpec,
        &[
            "restartPolicy",
            "securityContext",
            "volumes",
            "serviceAccountName",
            "serviceAccount",
            "dnsPolicy",
            "dnsConfig",
            "topologySpreadConstraints",
            "ephemeralContainers",
            "hostNetwork",
            "hostPID",
            "hostIPC",
            "imagePullSecrets",
            "priorityClassName",
            "automountServiceAccountToken",
            "enableServiceLinks",
            "hostname",
            "subdomain",
            "preemptionPolicy",
            "runtimeClassName",
            "shareProcessNamespace",
            "readinessGates",
            "overhead",
            "os",
            "schedulingGates",
            "hostAliases",
            "activeDeadlineSeconds",
            "setHostnameAsFQDN",
            "resourceClaims",
            "hostUsers",
        ],
    ),
    (Place::Affinity, &["podAffinity", "podAntiAffinity"]),
    (
        Place::PodStatus,
        &[
            "qosClass",
            "initContainerStatuses",
            "ephemeralContainerStatuses",
            "resize",
            "observedGeneration",
        ],
    ),
    (
        Place::ContainerStatus,
        &["allocatedResources", "user", "volumeMounts", "stopSignal"],
    ),
    (
        Place::NodeSpec,
        &["providerID", "configSource", "externalID"],
    ),
    (
        Place::NodeStatus,
        &[
            "daemonEndpoints",
            "images",
            "volumesInUse",
            "volumesAttached",
        ],
    ),
    (
        Place::Status,
        &["observedGeneration", "terminatingReplicas"],
    ),
    (Place::Condition, &["observedGeneration"]),
    (
        Place::ServiceAccount,
        &["imagePullSecrets", "automountServiceAccountToken"],
    ),
    (Place::JobSpec, &["activeDeadlineSeconds"]),
];

/// The places a field with the path `segs` (its own key last) sits in.
fn places(kind: Kind, segs: &[Seg]) -> Vec<Place> {
    let keys: Vec<&str> = segs[..segs.len().saturating_sub(1)]
        .iter()
        .filter_map(|s| match s {
            Seg::Key(k) => Some(k.as_str()),
            Seg::Index(_) => None,
        })
        .collect();
    let last = keys.last().copied().unwrap_or("");
    let mut out = Vec::new();
    match last {
        "metadata" => out.push(Place::Meta),
        "containers" | "initContainers" | "ephemeralContainers" => out.push(Place::Container),
        "containerStatuses" | "initContainerStatuses" | "ephemeralContainerStatuses" => {
            out.push(Place::ContainerStatus)
        }
        "affinity" => out.push(Place::Affinity),
        "conditions" => out.push(Place::Condition),
        _ => {}
    }
    let pod_spec = keys.ends_with(&["template", "spec"]);
    match (kind, keys.as_slice()) {
        (Kind::Pod, ["spec"]) => out.push(Place::PodSpec),
        (Kind::Pod, ["status"]) => out.push(Place::PodStatus),
        (Kind::Node, ["spec"]) => out.push(Place::NodeSpec),
        (Kind::Node, ["status"]) => out.push(Place::NodeStatus),
        (Kind::ServiceAccount, []) => out.push(Place::ServiceAccount),
        (Kind::Job, ["spec"]) | (Kind::CronJob, ["spec", "jobTemplate", "spec"]) => {
            out.push(Place::JobSpec)
        }
        (_, ["status"]) => out.push(Place::Status),
        _ if pod_spec => out.push(Place::PodSpec),
        _ => {}
    }
    out
}

/// Whether the field at `segs` is a real field the simulator does not model.
fn real_unmodelled(kind: Kind, segs: &[Seg]) -> bool {
    let Some(Seg::Key(field)) = segs.last() else {
        return false;
    };
    places(kind, segs).into_iter().any(|place| {
        REAL_UNMODELLED_FIELDS
            .iter()
            .any(|(p, fields)| *p == place && fields.contains(&field.as_str()))
    })
}

fn default_like(v: &serde_json::Value) -> bool {
    match v {
        serde_json::Value::Null => true,
        serde_json::Value::Bool(b) => !b,
        serde_json::Value::Number(n) => n.as_f64() == Some(0.0),
        serde_json::Value::String(s) => s.is_empty(),
        serde_json::Value::Array(a) => a.is_empty(),
        serde_json::Value::Object(o) => o.is_empty(),
    }
}

/// One step of a path into a JSON document.
#[derive(Clone, Debug)]
enum Seg {
    Key(String),
    Index(usize),
}

fn at<'a>(v: &'a serde_json::Value, segs: &[Seg]) -> Option<&'a serde_json::Value> {
    segs.iter().try_fold(v, |v, s| match s {
        Seg::Key(k) => v.get(k),
        Seg::Index(i) => v.get(i),
    })
}

fn at_mut<'a>(v: &'a mut serde_json::Value, segs: &[Seg]) -> Option<&'a mut serde_json::Value> {
    segs.iter().try_fold(v, |v, s| match s {
        Seg::Key(k) => v.get_mut(k),
        Seg::Index(i) => v.get_mut(i),
    })
}

/// A field of the input missing from the decoded object: unknown for sure, or — a
/// scalar at its zero value, which the decoded object omits for a known field too —
/// to be probed.
type Missing = (String, Option<Vec<Seg>>);

/// Fields of `input` that did not survive decoding (the API server's strict decoding
/// errors), found by walking the input beside the decoded object's own JSON.
fn unknown_fields(
    kind: Kind,
    input: &serde_json::Value,
    decoded: &serde_json::Value,
    path: &str,
    segs: &mut Vec<Seg>,
    out: &mut Vec<Missing>,
) {
    match (input, decoded) {
        (serde_json::Value::Object(i), serde_json::Value::Object(d)) => {
            for (k, v) in i {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                segs.push(Seg::Key(k.clone()));
                match d.get(k) {
                    Some(dv) => unknown_fields(kind, v, dv, &p, segs, out),
                    None if real_unmodelled(kind, segs) => {}
                    None if !default_like(v) => out.push((p, None)),
                    // An empty {} or [] cannot be probed with a value of its own shape;
                    // a known field written empty (`strategy: {}`) is common.
                    None if v.is_object() || v.is_array() => {}
                    None => out.push((p, Some(segs.clone()))),
                }
                segs.pop();
            }
        }
        (serde_json::Value::Array(i), serde_json::Value::Array(d)) => {
            for (idx, (v, dv)) in i.iter().zip(d).enumerate() {
                segs.push(Seg::Index(idx));
                unknown_fields(kind, v, dv, &format!("{path}[{idx}]"), segs, out);
                segs.pop();
            }
        }
        _ => {}
    }
}

/// An object of `kind` from its JSON (a server-side apply's merged result).
pub fn object_from_json(kind: Kind, value: serde_json::Value) -> Result<Object, String> {
    decode_typed(kind, value).map_err(|(_, e)| e)
}

/// Decode a JSON value of `kind` into its typed object without looking for unknown
/// fields (a caller that wants them compares the object written out again); the
/// error is (field path, message).
pub fn decode_fields(kind: Kind, value: serde_json::Value) -> Result<Object, (String, String)> {
    decode_typed(kind, value)
}

fn decode_typed(kind: Kind, value: serde_json::Value) -> Result<Object, (String, String)> {
    Ok(match kind {
        Kind::Deployment => Object::Deployment(typed(value)?),
        Kind::ReplicaSet => Object::ReplicaSet(typed(value)?),
        Kind::Pod => Object::Pod(typed(value)?),
        Kind::Node => Object::Node(typed(value)?),
        Kind::Event => Object::Event(typed(value)?),
        Kind::Lease => Object::Lease(typed(value)?),
        Kind::Namespace => Object::Namespace(typed(value)?),
        Kind::PodDisruptionBudget => Object::PodDisruptionBudget(typed(value)?),
        Kind::PriorityClass => Object::PriorityClass(typed(value)?),
        Kind::Service => Object::Service(typed(value)?),
        Kind::EndpointSlice => Object::EndpointSlice(typed(value)?),
        Kind::Endpoints => Object::Endpoints(typed(value)?),
        Kind::Role => Object::Role(typed(value)?),
        Kind::ClusterRole => Object::ClusterRole(typed(value)?),
        Kind::RoleBinding => Object::RoleBinding(typed(value)?),
        Kind::ClusterRoleBinding => Object::ClusterRoleBinding(typed(value)?),
        Kind::ResourceQuota => Object::ResourceQuota(typed(value)?),
        Kind::LimitRange => Object::LimitRange(typed(value)?),
        Kind::Job => Object::Job(typed(value)?),
        Kind::CronJob => Object::CronJob(typed(value)?),
        Kind::DaemonSet => Object::DaemonSet(typed(value)?),
        Kind::StatefulSet => Object::StatefulSet(typed(value)?),
        Kind::ControllerRevision => Object::ControllerRevision(typed(value)?),
        Kind::PersistentVolumeClaim => Object::PersistentVolumeClaim(typed(value)?),
        Kind::PersistentVolume => Object::PersistentVolume(typed(value)?),
        Kind::StorageClass => Object::StorageClass(typed(value)?),
        Kind::ConfigMap => Object::ConfigMap(typed(value)?),
        Kind::Secret => Object::Secret(typed(value)?),
        Kind::ServiceAccount => Object::ServiceAccount(typed(value)?),
        Kind::HorizontalPodAutoscaler => Object::HorizontalPodAutoscaler(typed(value)?),
        Kind::Ingress => Object::Ingress(typed(value)?),
        Kind::IngressClass => Object::IngressClass(typed(value)?),
        Kind::NetworkPolicy => Object::NetworkPolicy(typed(value)?),
        Kind::ServiceCIDR => Object::ServiceCIDR(typed(value)?),
        Kind::ValidatingAdmissionPolicy => {
            Object::ValidatingAdmissionPolicy(Box::new(typed(value)?))
        }
        Kind::ValidatingAdmissionPolicyBinding => {
            Object::ValidatingAdmissionPolicyBinding(Box::new(typed(value)?))
        }
        Kind::ValidatingWebhookConfiguration => {
            Object::ValidatingWebhookConfiguration(Box::new(typed(value)?))
        }
        Kind::IPAddress => Object::IPAddress(typed(value)?),
        Kind::CustomResourceDefinition => Object::CustomResourceDefinition(typed(value)?),
        Kind::Custom(t) => Object::Custom(Box::new(CustomObject::from_json(t, value)?)),
    })
}

/// Decode a JSON value of `kind` into its typed object; the error is (field path,
/// message). Unknown field paths are appended to `unknown`, in the input's order.
pub fn decode(
    kind: Kind,
    value: serde_json::Value,
    unknown: &mut Vec<String>,
) -> Result<Object, (String, String)> {
    if let Kind::Custom(_) = kind {
        // What the schema does not name is pruned by the API server; strict decoding
        // names it.
        unknown.extend(crate::api::discovered::unknown_fields(kind, &value));
        return decode_typed(kind, value);
    }
    let input = value.clone();
    let obj = decode_typed(kind, value)?;
    let mut missing = Vec::new();
    unknown_fields(
        kind,
        &input,
        &obj.to_json(),
        "",
        &mut Vec::new(),
        &mut missing,
    );
    for (path, probe) in missing {
        let Some(segs) = probe else {
            unknown.push(path);
            continue;
        };
        // A zero value is dropped by a known field's serialization too: give the field
        // a non-zero value of each scalar type and see whether decoding keeps it.
        let known = [
            serde_json::json!("x"),
            serde_json::json!(1),
            serde_json::json!(true),
        ]
        .into_iter()
        .any(|probe| {
            let mut v = input.clone();
            match at_mut(&mut v, &segs) {
                Some(slot) => *slot = probe,
                None => return false,
            }
            decode_typed(kind, v).is_ok_and(|o| at(&o.to_json(), &segs).is_some())
        });
        if !known {
            unknown.push(path);
        }
    }
    Ok(obj)
}

/// Drop JSON nulls (Go's zero values; a merge's deletions) before decoding.
pub fn drop_nulls(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(drop_nulls);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

/// The documents of a YAML stream with the 0-based line each starts on.
fn document_starts(text: &str) -> Vec<usize> {
    let mut starts = vec![0];
    for (i, l) in text.lines().enumerate() {
        if (l == "---" || l.starts_with("--- ")) && i > 0 {
            starts.push(i + 1);
        } else if (l == "---" || l.starts_with("--- ")) && i == 0 {
            starts[0] = 1;
        }
    }
    starts
}

/// Find where `path` (e.g. `spec.template.spec.containers[0].image`) is written in a
/// block-style YAML document starting at line `from`: 1-based (line, column) of its value.
fn locate(text: &str, from: usize, path: &str) -> Option<(usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut segs: Vec<String> = Vec::new();
    for part in path.split('.') {
        let mut rest = part;
        if let Some(b) = rest.find('[') {
            if b > 0 {
                segs.push(rest[..b].to_string());
            }
            rest = &rest[b..];
            while let Some(end) = rest.find(']') {
                segs.push(rest[..=end].to_string());
                rest = &rest[end + 1..];
            }
        } else if !rest.is_empty() {
            segs.push(rest.to_string());
        }
    }
    let indent = |l: &str| l.len() - l.trim_start().len();
    let (mut line, mut min_indent, mut pos) = (from, 0usize, None);
    for seg in segs {
        if let Some(idx) = seg
            .strip_prefix('[')
            .and_then(|x| x.strip_suffix(']'))
            .and_then(|x| x.parse::<usize>().ok())
        {
            let mut seen = 0;
            let mut found = None;
            let mut item_indent = None;
            for (k, l) in lines.iter().enumerate().skip(line) {
                let t = l.trim_start();
                if t.is_empty() || t.starts_with('#') {
                    continue;
                }
                if indent(l) < min_indent && k > line {
                    break;
                }
                if t.starts_with("- ") || t == "-" {
                    let ind = indent(l);
                    if item_indent.is_none_or(|x| x == ind) {
                        item_indent = Some(ind);
                        if seen == idx {
                            found = Some((k, ind + 2));
                            break;
                        }
                        seen += 1;
                    }
                }
            }
            let (k, col) = found?;
            pos = Some((k + 1, col + 1));
            line = k;
            min_indent = col;
        } else {
            let mut found = None;
            for (k, l) in lines.iter().enumerate().skip(line) {
                let t = l.trim_start().trim_start_matches("- ");
                if l.trim().is_empty() || l.trim_start().starts_with('#') {
                    continue;
                }
                if indent(l) < min_indent && k > line {
                    break;
                }
                if let Some(rest) = t
                    .strip_prefix(seg.as_str())
                    .and_then(|r| r.strip_prefix(':'))
                {
                    let key_col = l.len() - t.len();
                    let value_col = l.len() - rest.trim_start().len();
                    found = Some((k, key_col, value_col));
                    break;
                }
            }
            let (k, key_col, value_col) = found?;
            pos = Some((k + 1, value_col + 1));
            line = k + 1;
            min_indent = key_col + 1;
        }
    }
    pos
}

fn yaml_error(source: &str, e: &serde_yaml_ng::Error) -> String {
    // serde_yaml_ng already says "… at line L column C"; kubectl prefixes its own words.
    format!("error: error parsing {source}: {e}")
}

/// Parse every document of `text` (read from `source`, e.g. `web.yaml` or `STDIN`).
pub fn parse(text: &str, source: &str) -> Result<Vec<Document>, String> {
    parse_each(text, source)?.into_iter().collect()
}

/// Parse every document of `text`, keeping going past a document whose kind the
/// server does not serve (kubectl's builder with `ContinueOnError`: a definition and
/// an object of it in one file create the definition, then report the object's
/// `resource mapping not found`); any other error stops the whole text.
pub fn parse_each(text: &str, source: &str) -> Result<Vec<Result<Document, String>>, String> {
    // Before the parser: its time grows with the square of the flow nesting.
    crate::yaml_depth::check(text).map_err(|e| format!("error: error parsing {source}: {e}"))?;
    // And before the parser expands aliases: what the text grows to is bounded.
    crate::yaml_depth::check_expansion(text)
        .map_err(|e| format!("error: error parsing {source}: {e}"))?;
    let mut docs = Vec::new();
    let starts = document_starts(text);
    for (i, de) in serde_yaml_ng::Deserializer::from_str(text).enumerate() {
        let value: serde_json::Value =
            serde_json::Value::deserialize(de).map_err(|e| yaml_error(source, &e))?;
        if value.is_null() {
            continue; // an empty document (e.g. a trailing `---`)
        }
        let tm = TypeMeta::deserialize(&value)
            .map_err(|e| format!("error: error validating \"{source}\": {e}"))?;
        let (Some(api_version), Some(kind)) = (tm.api_version, tm.kind) else {
            return Err(format!(
                "error: error validating \"{source}\": error validating data: [apiVersion not set, kind not set]; if you choose to ignore these errors, turn validation off with --validate=false"
            ));
        };
        let k = kind_of(&api_version, &kind).map_err(|e| {
            // kubectl names the object as the manifest does (its name and namespace as
            // written: nothing is defaulted before the kind is mapped) and where it came from.
            let meta = |f: &str| {
                value["metadata"][f]
                    .as_str()
                    .unwrap_or_default()
                    .to_string()
            };
            format!("error: {e}").replacen(
                "name: \"\" namespace: \"\" from \"\"",
                &format!(
                    "name: {:?} namespace: {:?} from {:?}",
                    meta("name"),
                    meta("namespace"),
                    source
                ),
                1,
            )
        });
        let k = match k {
            Ok(k) => k,
            Err(e) => {
                docs.push(Err(e));
                continue;
            }
        };
        let mut unknown = Vec::new();
        // A null is Go's zero value (`creationTimestamp: null`, which every
        // `--dry-run=client -o yaml` writes): decoded as left out, kept in the source.
        let mut decodable = value.clone();
        drop_nulls(&mut decodable);
        let object = decode(k, decodable, &mut unknown).map_err(|(path, msg)| {
            let at = starts
                .get(i)
                .and_then(|from| locate(text, *from, &path))
                .map(|(l, c)| format!(" at line {l} column {c}"))
                .unwrap_or_default();
            format!("error: error parsing {source}: {path}: {msg}{at}")
        })?;
        unknown.retain(|p| p != "apiVersion" && p != "kind");
        docs.push(Ok(Document {
            object,
            unknown_fields: unknown,
            source: value,
        }));
    }
    Ok(docs)
}

#[cfg(test)]
mod tests {
    use super::*;

    const WEB: &str = "\
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 3
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: nginx
        image: nginx:1.27
        imagePullPolice: Always
---
apiVersion: v1
kind: Pod
metadata: {name: solo}
spec:
  containers: [{name: c, image: busybox}]
";

    #[test]
    fn real_fields_the_simulator_does_not_model_are_not_called_unknown() {
        let m = WEB.replace(
            "imagePullPolice: Always",
            "imagePullPolicy: Always\n        env: [{name: A, value: b}]",
        );
        let docs = parse(&m, "web.yaml").unwrap();
        assert!(
            docs[0].unknown_fields.is_empty(),
            "{:?}",
            docs[0].unknown_fields
        );
    }

    #[test]
    fn a_real_field_name_in_the_wrong_place_is_unknown() {
        // `images` is a Node status field, not a container's.
        let m = WEB.replace("image: nginx:1.27", "images: nginx:1.27");
        let docs = parse(&m, "web.yaml").unwrap();
        assert_eq!(
            docs[0].unknown_fields,
            [
                "spec.template.spec.containers[0].imagePullPolice",
                "spec.template.spec.containers[0].images"
            ]
        );
        // A pod spec field in a Deployment's own spec, a container field in the pod spec.
        let m = WEB.replace("replicas: 3", "replicas: 3\n  hostNetwork: true");
        let docs = parse(&m, "web.yaml").unwrap();
        assert!(docs[0]
            .unknown_fields
            .contains(&"spec.hostNetwork".to_string()));
        let node = "apiVersion: v1\nkind: Node\nmetadata: {name: n}\nstatus:\n  images: [{names: [nginx]}]\n  daemonEndpoints: {kubeletEndpoint: {Port: 10250}}\n";
        assert!(parse(node, "n.yaml").unwrap()[0].unknown_fields.is_empty());
        let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: i, hostNetwork: true}]\n";
        assert_eq!(
            parse(pod, "p.yaml").unwrap()[0].unknown_fields,
            ["spec.containers[0].hostNetwork"]
        );
    }

    #[test]
    fn multi_document_yaml_becomes_typed_objects_with_unknown_field_warnings() {
        let docs = parse(WEB, "web.yaml").unwrap();
        assert_eq!(docs.len(), 2);
        let Object::Deployment(d) = &docs[0].object else {
            panic!()
        };
        assert_eq!((d.metadata.name.as_str(), d.spec.replicas), ("web", 3));
        assert_eq!(d.spec.strategy.type_, "RollingUpdate", "defaults apply");
        assert_eq!(
            docs[0].unknown_fields,
            ["spec.template.spec.containers[0].imagePullPolice"]
        );
        assert!(matches!(docs[1].object, Object::Pod(_)));
        assert!(docs[1].unknown_fields.is_empty());
    }

    #[test]
    fn an_unknown_field_at_its_zero_value_is_still_unknown_but_a_known_one_is_not() {
        let m = WEB
            .replace("imagePullPolice: Always", "imagePullPolicy: Always")
            .replace(
                "replicas: 3",
                "replicas: 0\n  replica: 0\n  paused: false\n  flag: \"\"",
            );
        let docs = parse(&m, "web.yaml").unwrap();
        assert_eq!(docs[0].unknown_fields, ["spec.flag", "spec.replica"]);
    }

    #[test]
    fn a_null_is_a_zero_value_as_dry_run_output_writes_it() {
        let m = WEB.replace("  name: web\n", "  name: web\n  creationTimestamp: null\n");
        let docs = parse(&m, "web.yaml").unwrap();
        assert_eq!(docs[0].object.meta().name, "web");
        assert!(docs[0].source["metadata"]["creationTimestamp"].is_null());
    }

    #[test]
    fn json_manifests_parse_too() {
        let docs = parse(r#"{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c","image":"i"}]}}"#, "p.json").unwrap();
        assert_eq!(docs[0].object.meta().name, "p");
    }

    #[test]
    fn a_wrong_type_is_reported_with_line_and_column() {
        let bad = WEB.replace("replicas: 3", "replicas: three");
        let e = parse(&bad, "web.yaml").unwrap_err();
        assert!(e.starts_with("error: error parsing web.yaml: spec.replicas: invalid type: string \"three\", expected i64"), "{e}");
        assert!(e.contains("line 6 column"), "{e}");
    }

    #[test]
    fn the_line_and_column_of_a_nested_wrong_type_are_found() {
        let bad = WEB.replace("image: nginx:1.27", "image: [not, a, string]");
        let e = parse(&bad, "web.yaml").unwrap_err();
        assert!(e.starts_with("error: error parsing web.yaml: spec.template.spec.containers[0].image: invalid type: sequence"), "{e}");
        assert!(e.ends_with("at line 15 column 16"), "{e}");
        // In the second document.
        let bad = WEB.replace("containers: [{name: c, image: busybox}]", "containers: 7");
        let e = parse(&bad, "web.yaml").unwrap_err();
        assert!(
            e.contains("spec.containers: invalid type: integer `7`")
                && e.ends_with("at line 22 column 15"),
            "{e}"
        );
    }

    #[test]
    fn broken_yaml_and_unknown_kinds_are_errors() {
        let e = parse("apiVersion: v1\nkind: Pod\nmetadata: [\n", "x.yaml").unwrap_err();
        assert!(
            e.starts_with("error: error parsing x.yaml:") && e.contains("line"),
            "{e}"
        );
        let e = parse(
            "apiVersion: v1\nkind: Widget\nmetadata: {name: w}\n",
            "w.yaml",
        )
        .unwrap_err();
        assert!(
            e.contains("no matches for kind \"Widget\" in version \"v1\""),
            "{e}"
        );
        let e = parse("metadata: {name: w}\n", "w.yaml").unwrap_err();
        assert!(e.contains("apiVersion not set, kind not set"), "{e}");
        assert!(parse("", "empty.yaml").unwrap().is_empty());
    }
}
