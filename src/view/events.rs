//! The Events panel: the newest Kubernetes Events.

use super::*;

/// One row of the event list.
#[derive(Clone, Debug, PartialEq)]
pub struct EventRow {
    /// Simulated clock of the last occurrence.
    pub time: String,
    /// `Normal` / `Warning`.
    pub type_: String,
    /// Reporting component (with host for kubelets).
    pub component: String,
    /// Reason.
    pub reason: String,
    /// `kind/name`.
    pub object: String,
    /// Message (with `(xN)` when repeated).
    pub message: String,
}

/// The newest `limit` Events, newest first.
pub fn event_rows(c: &Cluster, limit: usize) -> Vec<EventRow> {
    c.store
        .events_by_last_seen()
        .rev()
        .take(limit)
        .map(|e| EventRow {
            time: clock_label(e.last_ms),
            type_: e.type_.clone(),
            component: if e.source.host.is_empty() {
                e.source.component.clone()
            } else {
                format!("{}/{}", e.source.component, e.source.host)
            },
            reason: e.reason.clone(),
            object: format!(
                "{}/{}",
                e.involved_object.kind.to_lowercase(),
                e.involved_object.name
            ),
            message: if e.count > 1 {
                format!("{} (x{})", e.message, e.count)
            } else {
                e.message.clone()
            },
        })
        .collect()
}
