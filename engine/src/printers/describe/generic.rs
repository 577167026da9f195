//! kubectl's `genericDescriber` for the kinds without a describer of their own (Lease,
//! Event, ControllerRevision): the name, namespace, labels and annotations, then every
//! other field of the object as the server sent it (`printUnstructuredContent`), then
//! its Events.

use super::common::{annotations, events, multiline};
use super::Reader;
use crate::api::Object;
use crate::tabwriter;
use serde_json::Value;
use std::fmt::Write;

/// The fields the header already shows, or kubectl leaves out.
const SKIP: &[&str] = &[
    ".metadata.managedFields",
    ".metadata.name",
    ".metadata.namespace",
    ".metadata.labels",
    ".metadata.annotations",
];

/// `genericDescriber.Describe`.
pub(super) fn describe_generic(rd: &mut dyn Reader, obj: &Object) -> String {
    let mut w = String::new();
    let m = obj.meta();
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    if let Value::Object(content) = obj.to_json() {
        print_unstructured_content(&mut w, 0, &content, "");
    }
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `printUnstructuredContent`: fields in sorted order, maps and lists one level deeper.
fn print_unstructured_content(
    w: &mut String,
    level: usize,
    content: &serde_json::Map<String, Value>,
    prefix: &str,
) {
    let mut fields: Vec<&String> = content.keys().collect();
    crate::sorting::sort(&mut fields);
    let indent = "  ".repeat(level);
    for field in fields {
        let path = format!("{prefix}.{field}");
        if SKIP.contains(&path.as_str()) {
            continue;
        }
        let label = smart_label_for(field);
        match &content[field] {
            Value::Object(m) => {
                let _ = writeln!(w, "{indent}{label}:");
                print_unstructured_content(w, level + 1, m, &path);
            }
            Value::Array(items) => {
                let _ = writeln!(w, "{indent}{label}:");
                for item in items {
                    match item {
                        Value::Object(m) => print_unstructured_content(w, level + 1, m, &path),
                        other => {
                            let _ = writeln!(w, "{indent}  {}", go_value(other));
                        }
                    }
                }
            }
            other => {
                let _ = writeln!(w, "{indent}{label}:\t{}", go_value(other));
            }
        }
    }
}

/// A JSON scalar as Go's `%v` prints it after unstructured decoding.
fn go_value(v: &Value) -> String {
    match v {
        Value::Null => "<nil>".into(),
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        Value::Bool(b) => b.to_string(),
        // Not reached: maps and lists are printed as blocks.
        other => other.to_string(),
    }
}

/// `smartLabelFor`: `holderIdentity` → `Holder Identity`, `uid` → `UID`; a field with
/// characters other than letters and `-` is shown as it is.
fn smart_label_for(field: &str) -> String {
    if field.chars().any(|c| !c.is_alphabetic() && c != '-') {
        return field.to_string();
    }
    const ACRONYMS: &[&str] = &["API", "URL", "UID", "OSB", "GUID"];
    camelcase_split(field)
        .into_iter()
        .filter(|p| p != "_")
        .map(|part| {
            let upper = part.to_uppercase();
            if ACRONYMS.contains(&upper.as_str()) {
                upper
            } else {
                // strings.Title: the first letter upper-cased, the rest unchanged.
                let mut cs = part.chars();
                cs.next()
                    .map(|f| f.to_uppercase().chain(cs).collect())
                    .unwrap_or_default()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `camelcase.Split`: runs of lower-case, upper-case, digits and the rest, with the last
/// capital of an upper-case run moved to a lower-case run after it (`PDFLoader` →
/// `PDF`, `Loader`).
fn camelcase_split(src: &str) -> Vec<String> {
    let class = |c: char| {
        if c.is_lowercase() {
            1
        } else if c.is_uppercase() {
            2
        } else if c.is_numeric() {
            3
        } else {
            4
        }
    };
    let mut runs: Vec<Vec<char>> = Vec::new();
    let mut last = 0;
    for c in src.chars() {
        let k = class(c);
        match runs.last_mut() {
            Some(run) if k == last => run.push(c),
            _ => runs.push(vec![c]),
        }
        last = k;
    }
    for i in 0..runs.len().saturating_sub(1) {
        let upper_then_lower = runs[i].first().is_some_and(|c| c.is_uppercase())
            && runs[i + 1].first().is_some_and(|c| c.is_lowercase());
        if upper_then_lower {
            if let Some(c) = runs[i].pop() {
                runs[i + 1].insert(0, c);
            }
        }
    }
    runs.into_iter()
        .filter(|r| !r.is_empty())
        .map(|r| r.into_iter().collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn field_names_become_kubectls_labels() {
        assert_eq!(smart_label_for("holderIdentity"), "Holder Identity");
        assert_eq!(smart_label_for("apiVersion"), "API Version");
        assert_eq!(smart_label_for("uid"), "UID");
        assert_eq!(smart_label_for("PDFLoader"), "PDF Loader");
        assert_eq!(smart_label_for("k8s.io/x"), "k8s.io/x");
        assert_eq!(
            smart_label_for("leaseDurationSeconds"),
            "Lease Duration Seconds"
        );
    }
}
