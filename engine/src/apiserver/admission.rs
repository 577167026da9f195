//! Admission on create: defaulting and `DefaultTolerationSeconds`.
//!
//! Upstream: `plugin/pkg/admission/defaulttolerationseconds/admission.go` and the
//! defaulting in `pkg/apis/core/v1/defaults.go`.

use crate::api::*;

/// Seconds a Pod tolerates `not-ready` / `unreachable` NoExecute taints by default.
pub const DEFAULT_TOLERATION_SECONDS: i64 = 300;

/// Apply create-time defaults and admission plugins to `obj`.
pub fn admit_create(obj: &mut Object) {
    match obj {
        Object::Pod(pod) => {
            default_pod_spec(&mut pod.spec);
            add_default_tolerations(&mut pod.spec);
            if pod.status.phase.is_empty() {
                pod.status.phase = "Pending".into();
            }
        }
        Object::Namespace(n) => {
            if n.status.phase.is_empty() {
                n.status.phase = "Active".into();
            }
            if !n.metadata.is_deleting() && !n.spec.finalizers.iter().any(|f| f == "kubernetes") {
                n.spec.finalizers.push("kubernetes".into());
            }
        }
        Object::Deployment(d) => default_pod_spec(&mut d.spec.template.spec),
        Object::ReplicaSet(rs) => default_pod_spec(&mut rs.spec.template.spec),
        _ => {}
    }
}

fn default_pod_spec(spec: &mut PodSpec) {
    if spec.restart_policy.is_empty() {
        spec.restart_policy = "Always".into();
    }
    if spec.scheduler_name.is_empty() {
        spec.scheduler_name = "default-scheduler".into();
    }
    if spec.termination_grace_period_seconds.is_none() {
        spec.termination_grace_period_seconds = Some(30);
    }
}

/// `DefaultTolerationSeconds`: tolerate `node.kubernetes.io/not-ready` and
/// `node.kubernetes.io/unreachable` (NoExecute) for 300 s unless the Pod already
/// tolerates them.
pub fn add_default_tolerations(spec: &mut PodSpec) {
    for key in [
        "node.kubernetes.io/not-ready",
        "node.kubernetes.io/unreachable",
    ] {
        let taint = Taint {
            key: key.into(),
            effect: "NoExecute".into(),
            ..Default::default()
        };
        if !spec.tolerations.iter().any(|t| t.tolerates(&taint)) {
            spec.tolerations.push(Toleration {
                key: key.into(),
                operator: "Exists".into(),
                effect: "NoExecute".into(),
                toleration_seconds: Some(DEFAULT_TOLERATION_SECONDS),
                ..Default::default()
            });
        }
    }
}
