//! What the tables share: the options that change the columns, a kind's column
//! definitions, and the cell formats (`<none>`, labels, selectors, containers).

use crate::api::*;

/// Options that change the columns.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TableOptions {
    /// `-o wide`.
    pub wide: bool,
    /// `--show-labels`.
    pub show_labels: bool,
    /// `-A`: NAMESPACE first.
    pub with_namespace: bool,
    /// Several kinds in one `get`: names carry their kind (`pod/web-…`).
    pub with_kind: bool,
    /// `-L KEY`: a column per label key, headed by the key's last `/` part in
    /// capitals, after the kind's columns and before LABELS.
    pub label_columns: Vec<String>,
}

/// A kind's column definitions (upstream's `…ColumnDefinitions`): the columns always
/// shown, and those `-o wide` adds (priority 1).
pub(super) struct Columns {
    /// The columns always shown.
    pub(super) names: &'static [&'static str],
    /// The columns `-o wide` adds.
    pub(super) wide: &'static [&'static str],
}

/// `labels.FormatLabels`: `k=v` pairs sorted as whole strings (so `a-b=1` comes
/// before `a=1`), or `<none>`.
pub(super) fn labels_col(m: &StringMap) -> String {
    if m.is_empty() {
        "<none>".into()
    } else {
        let mut pairs: Vec<String> = m.iter().map(|(k, v)| format!("{k}={v}")).collect();
        crate::sorting::sort(&mut pairs);
        pairs.join(",")
    }
}

/// A Pod spec's container names and images, comma-joined (the wide columns).
pub(super) fn containers_images(spec: &PodSpec) -> (String, String) {
    let names: Vec<&str> = spec.containers.iter().map(|c| c.name.as_str()).collect();
    let images: Vec<&str> = spec.containers.iter().map(|c| c.image.as_str()).collect();
    (names.join(","), images.join(","))
}

/// The value, or `<none>` when empty.
pub(super) fn or_none(s: &str) -> String {
    if s.is_empty() {
        "<none>".into()
    } else {
        s.to_string()
    }
}

/// The value, or `d` when empty.
pub(super) fn or_default(v: &str, d: &str) -> String {
    if v.is_empty() {
        d.into()
    } else {
        v.into()
    }
}

/// `labels.FormatLabels` of a node selector, `<none>` when empty.
/// `labels.FormatLabels` of a node selector: `k=v,…` in key order, `<none>` if empty.
pub(super) fn labels_col_or_none(m: &StringMap) -> String {
    let parts: Vec<String> = m.iter().map(|(k, v)| format!("{k}={v}")).collect();
    or_none(&parts.join(","))
}

/// A label selector as a string, `<none>` when there is none.
/// `metav1.FormatLabelSelector`: `<none>` for no selector.
pub(super) fn format_label_selector(sel: Option<&LabelSelector>) -> String {
    or_none(&sel.map(|s| s.to_selector_string()).unwrap_or_default())
}
