//! The revision history the StatefulSet and DaemonSet controllers keep as
//! ControllerRevisions: each template as a replacing patch, named by its hash, listed
//! by owner and ordered by revision.
//!
//! Upstream: `pkg/controller/history/controller_history.go` (`ControllerRevisionName`,
//! `HashControllerRevision`, `ListControllerRevisions`, `SortControllerRevisions`), and
//! the `getPatch` both controllers define (`statefulset/stateful_set_utils.go`,
//! `daemon/update.go`).

use crate::api::*;
use crate::apiserver::Store;

/// 32-bit FNV-1 (`hash/fnv.New32`, which `HashControllerRevision` uses).
fn fnv1_32(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in bytes {
        h = h.wrapping_mul(0x0100_0193);
        h ^= u32::from(*b);
    }
    h
}

/// `getPatch`: the set's template as a replacing strategic-merge patch.
pub fn revision_patch(template: &PodTemplateSpec) -> serde_json::Value {
    let mut t = serde_json::to_value(template).unwrap_or_default();
    if let serde_json::Value::Object(m) = &mut t {
        m.insert("$patch".into(), "replace".into());
    }
    serde_json::json!({ "spec": { "template": t } })
}

/// `ControllerRevisionName(set, HashControllerRevision(revision, &collisionCount))`.
pub fn revision_name(set: &str, data: &serde_json::Value, collision_count: i64) -> String {
    let mut bytes = serde_json::to_vec(data).unwrap_or_default();
    bytes.extend_from_slice(collision_count.to_string().as_bytes());
    let hash =
        crate::controllers::deployment::util::safe_encode_string(&fnv1_32(&bytes).to_string());
    format!("{set}-{hash}")
}

/// The ControllerRevisions the object with `uid` controls, oldest revision first
/// (`ListControllerRevisions` filtered by controller, as the StatefulSet and DaemonSet
/// controllers read their history).
pub fn controlled_revisions<'a>(store: &'a Store, uid: &str) -> Vec<&'a ControllerRevision> {
    let mut out: Vec<&ControllerRevision> = store
        .dependent_objects(uid)
        .filter_map(|o| match o {
            Object::ControllerRevision(r) => Some(r),
            _ => None,
        })
        .filter(|r| r.metadata.controller_ref().map(|c| c.uid.as_str()) == Some(uid))
        .collect();
    crate::sorting::sort_by(&mut out, |a, b| {
        a.revision
            .cmp(&b.revision)
            .then(a.metadata.name.cmp(&b.metadata.name))
    });
    out
}

/// The template a revision restores (its patch's `spec.template`).
pub fn revision_template(rev: &ControllerRevision) -> Option<PodTemplateSpec> {
    let mut t = rev.data.get("spec")?.get("template")?.clone();
    if let serde_json::Value::Object(m) = &mut t {
        m.remove("$patch");
    }
    crate::value_de::from_value(t).ok()
}
