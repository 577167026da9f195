//! What a write changed, in a few words: the fields a learner watches (replicas,
//! phase, Ready, nodeName, deletionTimestamp, taints…), as `field: before → after`.
//!
//! Why targeted fields and not a full JSON diff: every write pays for this, and the
//! envelope is millions of writes. The timeline shows it on hover and the why-trace
//! reads it to find causes.

use crate::api::Object;
use crate::api::{ConditionStatus, Node, Pod};

fn push<T: PartialEq + std::fmt::Display>(out: &mut Vec<String>, field: &str, a: T, b: T) {
    if a != b {
        out.push(format!("{field}: {a} → {b}"));
    }
}

/// `status.readyReplicas` and `status.availableReplicas` (ReplicaSets and Deployments).
fn counts(out: &mut Vec<String>, a: (i64, i64), b: (i64, i64)) {
    push(out, "status.readyReplicas", a.0, b.0);
    push(out, "status.availableReplicas", a.1, b.1);
}

fn opt(s: &str) -> &str {
    if s.is_empty() {
        "<none>"
    } else {
        s
    }
}

fn pod_ready(p: &Pod) -> &'static str {
    if p.is_ready() {
        ConditionStatus::True
    } else {
        ConditionStatus::False
    }
    .as_str()
}

/// The first waiting / terminated reason of the Pod's containers (what STATUS shows).
fn pod_reason(p: &Pod) -> &str {
    p.status
        .container_statuses
        .iter()
        .find_map(|c| {
            c.state
                .waiting
                .as_ref()
                .map(|w| w.reason.as_str())
                .or_else(|| c.state.terminated.as_ref().map(|t| t.reason.as_str()))
        })
        .unwrap_or("")
}

fn image(t: &crate::api::PodTemplateSpec) -> &str {
    t.spec
        .containers
        .first()
        .map(|c| c.image.as_str())
        .unwrap_or("")
}

fn taints(n: &Node) -> String {
    let v: Vec<String> = n.spec.taints.iter().map(|t| t.to_string()).collect();
    if v.is_empty() {
        "<none>".into()
    } else {
        v.join(",")
    }
}

/// `field: before → after` for each watched field that differs, joined by `; `
/// (empty when none of them changed, e.g. a heartbeat).
pub fn summarize(old: &Object, new: &Object) -> String {
    let mut out = Vec::new();
    let (om, nm) = (old.meta(), new.meta());
    if om.deletion_timestamp.is_none() {
        if let Some(ts) = &nm.deletion_timestamp {
            out.push(format!("metadata.deletionTimestamp: <none> → {ts}"));
        }
    }
    match (old, new) {
        (Object::Pod(a), Object::Pod(b)) => {
            push(
                &mut out,
                "spec.nodeName",
                opt(&a.spec.node_name),
                opt(&b.spec.node_name),
            );
            push(
                &mut out,
                "status.nominatedNodeName",
                opt(&a.status.nominated_node_name),
                opt(&b.status.nominated_node_name),
            );
            push(&mut out, "status.phase", &a.status.phase, &b.status.phase);
            push(&mut out, "Ready", pod_ready(a), pod_ready(b));
            push(&mut out, "reason", opt(pod_reason(a)), opt(pod_reason(b)));
            push(&mut out, "restartCount", a.restarts(), b.restarts());
        }
        (Object::ReplicaSet(a), Object::ReplicaSet(b)) => {
            push(&mut out, "spec.replicas", a.spec.replicas, b.spec.replicas);
            push(
                &mut out,
                "status.replicas",
                a.status.replicas,
                b.status.replicas,
            );
            counts(
                &mut out,
                (a.status.ready_replicas, a.status.available_replicas),
                (b.status.ready_replicas, b.status.available_replicas),
            );
        }
        (Object::Deployment(a), Object::Deployment(b)) => {
            push(&mut out, "spec.replicas", a.spec.replicas, b.spec.replicas);
            push(
                &mut out,
                "image",
                image(&a.spec.template),
                image(&b.spec.template),
            );
            push(&mut out, "spec.paused", a.spec.paused, b.spec.paused);
            push(
                &mut out,
                "status.updatedReplicas",
                a.status.updated_replicas,
                b.status.updated_replicas,
            );
            counts(
                &mut out,
                (a.status.ready_replicas, a.status.available_replicas),
                (b.status.ready_replicas, b.status.available_replicas),
            );
        }
        // A repeated Event (count + 1): the occurrence is the news.
        (Object::Event(a), Object::Event(b)) if a.count != b.count => {
            out.push(b.message.clone());
        }
        (Object::Node(a), Object::Node(b)) => {
            push(
                &mut out,
                "spec.unschedulable",
                a.spec.unschedulable,
                b.spec.unschedulable,
            );
            push(&mut out, "Ready", a.ready_status(), b.ready_status());
            let (ta, tb) = (taints(a), taints(b));
            push(&mut out, "spec.taints", ta.as_str(), tb.as_str());
        }
        _ => {}
    }
    out.join("; ")
}

/// What an ADDED write says about the new object (an Event: its message).
pub fn describe_added(new: &Object) -> String {
    match new {
        Object::Event(e) => e.message.clone(),
        Object::Deployment(d) => format!(
            "spec.replicas: {}; image: {}",
            d.spec.replicas,
            image(&d.spec.template)
        ),
        Object::ReplicaSet(r) => format!("spec.replicas: {}", r.spec.replicas),
        Object::Pod(p) if !p.spec.node_name.is_empty() => {
            format!("spec.nodeName: {}", p.spec.node_name)
        }
        _ => String::new(),
    }
}

/// The one kind whose writes are not worth a summary: Leases (heartbeats).
pub fn worth_summarizing(o: &Object) -> bool {
    !matches!(o, Object::Lease(_))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ObjectMeta, ReplicaSet, ReplicaSetSpec};

    #[test]
    fn a_replica_count_change_reads_as_before_arrow_after() {
        let mut a = ReplicaSet {
            metadata: ObjectMeta::default(),
            spec: ReplicaSetSpec::default(),
            status: Default::default(),
        };
        a.spec.replicas = 3;
        let mut b = a.clone();
        b.spec.replicas = 2;
        b.status.ready_replicas = 2;
        assert_eq!(
            summarize(
                &Object::ReplicaSet(Box::new(a.clone())),
                &Object::ReplicaSet(Box::new(b))
            ),
            "spec.replicas: 3 → 2; status.readyReplicas: 0 → 2"
        );
        assert_eq!(
            summarize(
                &Object::ReplicaSet(Box::new(a.clone())),
                &Object::ReplicaSet(Box::new(a))
            ),
            ""
        );
    }
}
