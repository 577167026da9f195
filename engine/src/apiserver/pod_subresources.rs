//! The Pod's subresources that write: `pods/binding` (the scheduler's bind) and
//! `pods/eviction` (with its PodDisruptionBudget check).
//!
//! Upstream: `pkg/registry/core/pod/storage/storage.go` (`BindingREST`) and
//! `pkg/registry/core/pod/storage/eviction.go`.

use super::*;

impl Store {
    /// `POST pods/<name>/binding`: set spec.nodeName and PodScheduled=True.
    pub fn bind(
        &mut self,
        now: SimTime,
        key: &ObjKey,
        node: &str,
        writer: &str,
    ) -> Result<Change, ApiError> {
        let Some(Object::Pod(pod)) = self.get_object(Kind::Pod, key) else {
            return Err(ApiError::not_found(Kind::Pod, &key.name));
        };
        if !pod.spec.node_name.is_empty() {
            return Err(ApiError::conflict_detail(
                Kind::Pod,
                &key.name,
                &format!(
                    "pod {} is already assigned to node \"{}\"",
                    key.name, pod.spec.node_name
                ),
            ));
        }
        if pod.metadata.is_deleting() {
            return Err(ApiError::conflict_detail(
                Kind::Pod,
                &key.name,
                "pod is being deleted, cannot be assigned to a host",
            ));
        }
        let mut pod = pod.clone();
        pod.spec.node_name = node.to_string();
        set_condition(
            &mut pod.status.conditions,
            Condition {
                type_: PodConditionType::PodScheduled.into(),
                status: ConditionStatus::True.into(),
                last_transition_time: Some(rfc3339(now)),
                transition_ms: now,
                ..Default::default()
            },
        );
        Ok(self.put(now, "bind", Object::Pod(pod), writer))
    }

    /// `POST pods/<name>/eviction`: refuse with 429 when a PodDisruptionBudget allows no
    /// disruption (a not-Ready Pod may go while the budget is met: IfHealthyBudget);
    /// otherwise spend one disruption, mark the Pod DisruptionTarget and delete it
    /// gracefully (`pkg/registry/core/pod/storage/eviction.go`).
    pub fn evict(
        &mut self,
        now: SimTime,
        key: &ObjKey,
        writer: &str,
    ) -> Result<Vec<Change>, ApiError> {
        let pod = self
            .get::<Pod>(key)
            .cloned()
            .ok_or_else(|| ApiError::not_found(Kind::Pod, &key.name))?;
        if pod.metadata.is_deleting() || pod.is_terminal() {
            return self.delete(now, Kind::Pod, key, &DeleteOptions::default(), writer);
        }
        let pdbs: Vec<PodDisruptionBudget> = self
            .list_ns::<PodDisruptionBudget>(&key.namespace)
            .filter(|b| {
                !b.spec.selector.is_empty() && b.spec.selector.matches(&pod.metadata.labels)
            })
            .cloned()
            .collect();
        if pdbs.len() > 1 {
            return Err(ApiError {
                code: 500,
                reason: "InternalError",
                message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.".into(),
                kubectl_message: None,
                details: None,
            });
        }
        let mut changes = Vec::new();
        if let Some(pdb) = pdbs.into_iter().next() {
            let healthy_enough = pdb.status.current_healthy >= pdb.status.desired_healthy;
            if !(pod.is_ready()) && healthy_enough {
                // An unhealthy Pod does not count against a met budget.
            } else if pdb.status.disruptions_allowed <= 0 {
                return Err(ApiError {
                    code: 429,
                    reason: "TooManyRequests",
                    message: "Cannot evict pod as it would violate the pod's disruption budget."
                        .into(),
                    kubectl_message: None,
                    details: None,
                });
            } else {
                let mut b = pdb.clone();
                b.status.disruptions_allowed -= 1;
                changes.push(self.put(
                    now,
                    "update-status",
                    Object::PodDisruptionBudget(b),
                    writer,
                ));
            }
        }
        let mut marked = pod.clone();
        set_condition(
            &mut marked.status.conditions,
            disruption_target(
                "EvictionByEvictionAPI",
                "Eviction API: evicting".into(),
                now,
            ),
        );
        changes.push(self.put(now, "update-status", Object::Pod(Box::new(marked)), writer));
        let opts = DeleteOptions {
            precondition_uid: Some(pod.metadata.uid.clone()),
            ..Default::default()
        };
        changes.extend(self.delete(now, Kind::Pod, key, &opts, writer)?);
        Ok(changes)
    }
}
