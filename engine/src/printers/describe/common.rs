//! What the describers share: labels and annotations, tolerations, resources,
//! conditions, the Events block, and the lists a controller's describer reads.

use super::Reader;
use crate::api::*;
use crate::printers::age;
use crate::time::{parse_rfc3339, rfc1123z};
use std::fmt::Write;
use std::sync::Arc;

/// The Pods a controller (`uid`) controls (`getPodStatusForController`: a list by its
/// selector in its namespace, then its controller reference).
pub(super) fn controlled_pods(
    rd: &mut dyn Reader,
    ns: &str,
    selector: &LabelSelector,
    uid: &str,
) -> Vec<Pod> {
    let listed = rd.list(Kind::Pod, Some(ns), Some(selector), "");
    typed::<Pod>(&listed)
        .into_iter()
        .filter(|p| p.metadata.controller_ref().map(|r| r.uid.as_str()) == Some(uid))
        .collect()
}

/// The objects of one type in a list.
pub(super) fn typed<T: Resource + Clone>(objs: &[Arc<Object>]) -> Vec<T> {
    objs.iter()
        .filter_map(|o| T::from_object(o))
        .cloned()
        .collect()
}

pub(super) fn ts(s: &str) -> String {
    parse_rfc3339(s)
        .map(rfc1123z)
        .unwrap_or_else(|| s.to_string())
}

/// `printLabelsMultiline`: first on the key's line, the rest under it; `<none>` if empty.
pub(super) fn multiline(w: &mut String, title: &str, m: &StringMap) {
    if m.is_empty() {
        let _ = writeln!(w, "{title}:\t<none>");
        return;
    }
    for (i, (k, v)) in m.iter().enumerate() {
        if i == 0 {
            let _ = writeln!(w, "{title}:\t{k}={v}");
        } else {
            let _ = writeln!(w, "\t{k}={v}");
        }
    }
}

/// `printAnnotationsMultiline`: `key: value`, skipping kubectl's last-applied copy.
pub(super) fn annotations(w: &mut String, m: &StringMap) {
    annotations_titled(w, "Annotations", m);
}

/// `maxAnnotationLen`: a longer `key: value` (or a multi-line value) is printed as
/// `key:` then the value's lines, each cut at 138 characters with `...`.
pub(super) const MAX_ANNOTATION_LEN: usize = 140;

/// `printAnnotationsMultiline(w, title, …)`.
pub(super) fn annotations_titled(w: &mut String, title: &str, m: &StringMap) {
    let shown: Vec<(&String, &String)> = m
        .iter()
        .filter(|(k, _)| *k != "kubectl.kubernetes.io/last-applied-configuration")
        .collect();
    if shown.is_empty() {
        let _ = writeln!(w, "{title}:\t<none>");
        return;
    }
    for (i, (k, v)) in shown.iter().enumerate() {
        if i == 0 {
            let _ = write!(w, "{title}:\t");
        } else {
            w.push('\t');
        }
        let value = v.strip_suffix('\n').unwrap_or(v);
        if value.len() + k.len() + 2 > MAX_ANNOTATION_LEN || value.contains('\n') {
            let _ = writeln!(w, "{k}:");
            for line in value.split('\n') {
                let _ = writeln!(w, "\t  {}", shorten(line, MAX_ANNOTATION_LEN - 2));
            }
        } else {
            let _ = writeln!(w, "{k}: {value}");
        }
    }
}

/// `shorten`: the first `max` bytes and `...` (Go slices bytes; a cut inside a
/// character keeps the whole character here).
pub(super) fn shorten(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end += 1;
    }
    format!("{}...", &s[..end])
}

pub(super) fn tolerations(w: &mut String, tols: &[Toleration]) {
    if tols.is_empty() {
        let _ = writeln!(w, "Tolerations:\t<none>");
        return;
    }
    for (i, t) in tols.iter().enumerate() {
        let mut s = t.key.clone();
        if !t.value.is_empty() {
            s.push_str(&format!("={}", t.value));
        }
        if !t.effect.is_empty() {
            s.push_str(&format!(":{}", t.effect));
        }
        if t.operator == "Exists" && t.value.is_empty() {
            s.push_str(" op=Exists");
        }
        if let Some(secs) = t.toleration_seconds {
            s.push_str(&format!(" for {secs}s"));
        }
        let head = if i == 0 { "Tolerations:" } else { "" };
        let _ = writeln!(w, "{head}\t{s}");
    }
}

/// The Events block (`DescribeEvents`).
pub(super) fn events(w: &mut String, rd: &mut dyn Reader, uid: &str) {
    // searchEvents: a list of the Events about the object.
    let listed = rd.list(
        Kind::Event,
        None,
        None,
        &format!("involvedObject.uid={uid}"),
    );
    let mut evs: Vec<Event> = typed(&listed);
    if evs.is_empty() {
        let _ = writeln!(w, "Events:\t<none>");
        return;
    }
    crate::sorting::sort_by(&mut evs, |a, b| {
        (a.last_ms, a.first_ms, &a.metadata.name).cmp(&(b.last_ms, b.first_ms, &b.metadata.name))
    });
    let now = rd.now();
    let _ = writeln!(w, "Events:");
    let _ = writeln!(w, "  Type\tReason\tAge\tFrom\tMessage");
    let _ = writeln!(w, "  ----\t------\t----\t----\t-------");
    for e in evs {
        let a = if e.count > 1 {
            format!(
                "{} (x{} over {})",
                age(e.last_ms, now),
                e.count,
                age(e.first_ms, now)
            )
        } else {
            age(e.first_ms, now)
        };
        let _ = writeln!(
            w,
            "  {}\t{}\t{a}\t{}\t{}",
            e.type_,
            e.reason,
            e.source.component,
            e.message.trim()
        );
    }
}

pub(super) fn resources(w: &mut String, ind: &str, title: &str, m: &StringMap) {
    if m.is_empty() {
        return;
    }
    let _ = writeln!(w, "{ind}{title}:");
    for (k, v) in m {
        let _ = writeln!(w, "{ind}  {k}:\t{v}");
    }
}

pub(super) fn conditions_table(w: &mut String, conds: &[Condition]) {
    if conds.is_empty() {
        return;
    }
    let _ = writeln!(w, "Conditions:");
    let _ = writeln!(w, "  Type\tStatus\tReason");
    let _ = writeln!(w, "  ----\t------\t------");
    for cd in conds {
        let _ = writeln!(w, "  {} \t{}\t{}", cd.type_, cd.status, cd.reason);
    }
}

/// `labels.FormatLabels`: `k=v` pairs, sorted as whole strings, or `<none>`.
pub(super) fn format_labels(m: Option<&StringMap>) -> String {
    let mut pairs: Vec<String> = m
        .into_iter()
        .flatten()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    crate::sorting::sort(&mut pairs);
    if pairs.is_empty() {
        "<none>".into()
    } else {
        pairs.join(",")
    }
}
