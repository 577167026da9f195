//! Manifests: YAML (multi-document) and JSON in the Kubernetes shapes, parsed into
//! [`Object`]s with kubectl's unknown-field warnings and line/column errors.
//!
//! JSON is YAML, so one parser (`serde_yaml_ng`, the maintained fork of the archived
//! `serde_yaml`) reads both. Every document is parsed before anything is applied, so a
//! broken file changes nothing.

use crate::api::*;
use serde::Deserialize;

/// A parsed document: the object and the unknown fields kubectl would warn about.
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
fn kind_of(api_version: &str, kind: &str) -> Result<Kind, String> {
    let k = match kind {
        "Deployment" => Kind::Deployment,
        "ReplicaSet" => Kind::ReplicaSet,
        "Pod" => Kind::Pod,
        "Node" => Kind::Node,
        "Event" => Kind::Event,
        "Lease" => Kind::Lease,
        _ => {
            return Err(format!(
                "resource mapping not found for name: \"\" namespace: \"\" from \"\": no matches for kind \"{kind}\" in version \"{api_version}\"\nensure CRDs are installed first"
            ))
        }
    };
    if k.api_version() != api_version {
        return Err(format!(
            "resource mapping not found for name: \"\" namespace: \"\" from \"\": no matches for kind \"{kind}\" in version \"{api_version}\"\nensure CRDs are installed first"
        ));
    }
    Ok(k)
}

/// serde_ignored's `a.b.0.c` as kubectl prints it: `a.b[0].c`.
fn kubectl_path(p: &str) -> String {
    let mut out = String::new();
    for seg in p.split('.') {
        if !seg.is_empty() && seg.chars().all(|c| c.is_ascii_digit()) {
            out.push_str(&format!("[{seg}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(seg);
        }
    }
    out
}

fn typed<'de, T: Deserialize<'de>>(
    de: serde_yaml_ng::Deserializer<'de>,
    unknown: &mut Vec<String>,
) -> Result<T, serde_yaml_ng::Error> {
    serde_ignored::deserialize(de, |path| unknown.push(kubectl_path(&path.to_string())))
}

fn yaml_error(source: &str, e: &serde_yaml_ng::Error) -> String {
    // serde_yaml_ng already says "… at line L column C"; kubectl prefixes its own words.
    format!("error: error parsing {source}: {e}")
}

/// Parse every document of `text` (read from `source`, e.g. `web.yaml` or `STDIN`).
pub fn parse(text: &str, source: &str) -> Result<Vec<Document>, String> {
    let mut docs = Vec::new();
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
            format!("error: {e}").replace("from \"\"", &format!("from \"{source}\""))
        })?;
        // Re-read this document with positions, into its typed shape.
        let Some(de) = serde_yaml_ng::Deserializer::from_str(text).nth(i) else {
            continue;
        };
        let mut unknown = Vec::new();
        let object = match k {
            Kind::Deployment => typed::<Deployment>(de, &mut unknown).map(Object::Deployment),
            Kind::ReplicaSet => typed::<ReplicaSet>(de, &mut unknown).map(Object::ReplicaSet),
            Kind::Pod => typed::<Pod>(de, &mut unknown).map(Object::Pod),
            Kind::Node => typed::<Node>(de, &mut unknown).map(Object::Node),
            Kind::Event => typed::<Event>(de, &mut unknown).map(Object::Event),
            Kind::Lease => typed::<Lease>(de, &mut unknown).map(Object::Lease),
        }
        .map_err(|e| yaml_error(source, &e))?;
        unknown.retain(|p| p != "apiVersion" && p != "kind");
        docs.push(Document {
            object,
            unknown_fields: unknown,
            source: value,
        });
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
