//! The autoscaling API group (`pkg/apis/autoscaling/validation/validation.go`):
//! HorizontalPodAutoscalers.

use crate::api::*;

/// `validateHorizontalPodAutoscalerSpec` (`pkg/apis/autoscaling/validation`).
pub(super) fn validate_hpa(causes: &mut Vec<String>, h: &HorizontalPodAutoscaler) {
    let s = &h.spec;
    if let Some(min) = s.min_replicas {
        if min < 1 {
            causes.push(format!(
                "spec.minReplicas: Invalid value: {min}: must be greater than or equal to 1"
            ));
        }
    }
    if s.max_replicas < 1 {
        causes.push(format!(
            "spec.maxReplicas: Invalid value: {}: must be greater than 0",
            s.max_replicas
        ));
    }
    if let Some(min) = s.min_replicas {
        if s.max_replicas < min {
            causes.push(format!(
                "spec.maxReplicas: Invalid value: {}: must be greater than or equal to `minReplicas`",
                s.max_replicas
            ));
        }
    }
    if s.scale_target_ref.kind.is_empty() {
        causes.push("spec.scaleTargetRef.kind: Required value".into());
    }
    if s.scale_target_ref.name.is_empty() {
        causes.push("spec.scaleTargetRef.name: Required value".into());
    }
    for (i, m) in s.metrics.iter().enumerate() {
        let at = format!("spec.metrics[{i}]");
        match (m.type_.as_str(), &m.resource) {
            ("", _) => causes.push(format!("{at}.type: Required value: must specify a metric source type")),
            ("Resource", None) => causes.push(format!(
                "{at}.resource: Required value: must populate information for the given metric source"
            )),
            ("Resource", Some(r)) => {
                if r.name.is_empty() {
                    causes.push(format!("{at}.resource.name: Required value: must specify a resource name"));
                }
                let t = &r.target;
                match (t.average_utilization, &t.average_value) {
                    (None, None) => causes.push(format!("{at}.resource.target.averageUtilization: Required value: must set either a target raw value or a target utilization")),
                    (Some(_), Some(_)) => causes.push(format!("{at}.resource.target.averageValue: Forbidden: may not set both a target raw value and a target utilization")),
                    _ => {}
                }
                if t.type_.is_empty() {
                    causes.push(format!("{at}.resource.target.type: Required value: must specify a metric target type"));
                } else if !["Utilization", "Value", "AverageValue"].contains(&t.type_.as_str()) {
                    causes.push(format!("{at}.resource.target.type: Invalid value: \"{}\": must be either Utilization, Value, or AverageValue", t.type_));
                }
                if let Some(u) = t.average_utilization {
                    if u < 1 {
                        causes.push(format!("{at}.resource.target.averageUtilization: Invalid value: {u}: must be greater than 0"));
                    }
                }
            }
            ("Pods" | "Object" | "External" | "ContainerResource", _) => {}
            (t, _) => causes.push(format!("{at}.type: Unsupported value: \"{t}\": supported values: \"ContainerResource\", \"External\", \"Object\", \"Pods\", \"Resource\"")),
        }
    }
}
