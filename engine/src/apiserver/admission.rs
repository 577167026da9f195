//! Admission on create: defaulting, `DefaultTolerationSeconds` and `Priority`.
//!
//! Upstream: `plugin/pkg/admission/defaulttolerationseconds/admission.go`,
//! `plugin/pkg/admission/priority/admission.go` and the defaulting in
//! `pkg/apis/core/v1/defaults.go`.

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
                pod.status.phase = PodPhase::Pending.into();
            }
        }
        Object::Namespace(n) => {
            // The API server labels every namespace with its own name (GA in 1.22), so
            // selectors such as a pod affinity term's namespaceSelector can pick it.
            n.metadata.labels.insert(
                "kubernetes.io/metadata.name".into(),
                n.metadata.name.clone(),
            );
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
        spec.scheduler_name = DEFAULT_SCHEDULER_NAME.into();
    }
    if spec.termination_grace_period_seconds.is_none() {
        spec.termination_grace_period_seconds = Some(30);
    }
}

/// `DefaultTolerationSeconds`: tolerate the not-ready and unreachable taints
/// ([`TAINT_NODE_NOT_READY`], [`TAINT_NODE_UNREACHABLE`]; NoExecute) for 300 s unless
/// the Pod already tolerates them.
pub fn add_default_tolerations(spec: &mut PodSpec) {
    for key in [TAINT_NODE_NOT_READY, TAINT_NODE_UNREACHABLE] {
        let taint = Taint {
            key: key.into(),
            effect: TaintEffect::NoExecute.into(),
            ..Default::default()
        };
        if !spec.tolerations.iter().any(|t| t.tolerates(&taint)) {
            spec.tolerations.push(Toleration {
                key: key.into(),
                operator: "Exists".into(),
                effect: TaintEffect::NoExecute.into(),
                toleration_seconds: Some(DEFAULT_TOLERATION_SECONDS),
                ..Default::default()
            });
        }
    }
}

/// The two classes every API server creates at start (`scheduling.SystemPriorityClasses`).
pub fn system_priority_classes() -> Vec<PriorityClass> {
    [
        ("system-node-critical", 2_000_001_000, "Used for system critical pods that must not be moved from their current node."),
        ("system-cluster-critical", 2_000_000_000, "Used for system critical pods that must run in the cluster, but can be moved to another node if necessary."),
    ]
    .into_iter()
    .map(|(name, value, description)| PriorityClass {
        metadata: ObjectMeta {
            name: name.into(),
            ..Default::default()
        },
        value,
        description: description.into(),
        ..Default::default()
    })
    .collect()
}

/// The `Priority` admission plugin: resolve `priorityClassName` (or the global default
/// class) into `priority` and `preemptionPolicy`. `classes` are the PriorityClasses in
/// the store. Errors are the Forbidden messages the API server returns.
pub fn admit_priority(pod: &mut Pod, classes: &[&PriorityClass]) -> Result<(), String> {
    let class = if pod.spec.priority_class_name.is_empty() {
        classes.iter().find(|c| c.global_default).copied()
    } else {
        match classes
            .iter()
            .find(|c| c.metadata.name == pod.spec.priority_class_name)
        {
            Some(c) => Some(*c),
            None => {
                return Err(format!(
                    "no PriorityClass with name {} was found",
                    pod.spec.priority_class_name
                ))
            }
        }
    };
    let (value, policy) = match class {
        Some(c) => {
            if pod.spec.priority_class_name.is_empty() {
                pod.spec.priority_class_name = c.metadata.name.clone();
            }
            let policy = if c.preemption_policy.is_empty() {
                "PreemptLowerPriority".to_string()
            } else {
                c.preemption_policy.clone()
            };
            (c.value, policy)
        }
        // DefaultPriorityWhenNoDefaultClassExists.
        None => (0, "PreemptLowerPriority".to_string()),
    };
    if let Some(p) = pod.spec.priority {
        if p != value {
            return Err(format!(
                "the integer value of priority ({p}) must not be provided in pod spec; priority admission controller computed {value} from the given PriorityClass name"
            ));
        }
    }
    pod.spec.priority = Some(value);
    if let Some(p) = &pod.spec.preemption_policy {
        if *p != policy {
            return Err(format!(
                "the string value of PreemptionPolicy ({p}) must not be provided in pod spec; priority admission controller computed {policy} from the given PriorityClass name"
            ));
        }
    }
    pod.spec.preemption_policy = Some(policy);
    Ok(())
}
