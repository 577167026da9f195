//! The PodSecurity admission plugin (`pod-security-admission/admission/admission.go`):
//! Pods refused under `enforce`, warnings under `warn`, workloads' templates warned
//! about, a Namespace's labels validated and the Pods already there checked against a
//! stricter `enforce`.

use super::api::{labelled, policy_to_evaluate, Level, LevelVersion, Policy};
use super::registry::{evaluate, forbidden_detail};
use crate::api::*;
use std::collections::BTreeSet;

/// What admission decided about a Pod or a workload's template.
#[derive(Debug, Default, PartialEq)]
pub struct Decision {
    /// The refusal (`violates PodSecurity …`), for a Pod under `enforce`.
    pub refusal: Option<String>,
    /// The warnings for the client.
    pub warnings: Vec<String>,
}

/// `EvaluatePod`: `enforce` only for Pods; `warn` only when not refused.
pub fn evaluate_pod(policy: &Policy, meta: &ObjectMeta, spec: &PodSpec, enforce: bool) -> Decision {
    let mut d = Decision::default();
    if enforce {
        let f = evaluate(&policy.enforce, meta, spec);
        if !f.is_empty() {
            d.refusal = Some(format!(
                "violates PodSecurity \"{}\": {}",
                policy.enforce.label(),
                forbidden_detail(&f)
            ));
            return d;
        }
    }
    let f = evaluate(&policy.warn, meta, spec);
    if !f.is_empty() {
        d.warnings.push(format!(
            "would violate PodSecurity \"{}\": {}",
            policy.warn.label(),
            forbidden_detail(&f)
        ));
    }
    d
}

/// `isSignificantPodUpdate`: only a change of the containers' number or images is
/// evaluated again.
pub fn significant_pod_update(new: &PodSpec, old: &PodSpec) -> bool {
    let images = |cs: &[Container]| cs.iter().map(|c| c.image.clone()).collect::<Vec<_>>();
    new.containers.len() != old.containers.len()
        || new.init_containers.len() != old.init_containers.len()
        || images(&new.containers) != images(&old.containers)
        || images(&new.init_containers) != images(&old.init_containers)
}

/// Whether a namespace change from `old` to `new` policy makes the existing Pods be
/// checked (`ValidateNamespace`): a stricter enforce level, or another version.
pub fn recheck_existing(old: &Policy, new: &Policy) -> bool {
    if old.enforce == new.enforce || new.enforce.level == Level::Privileged {
        return false;
    }
    !(old.enforce.minor == new.enforce.minor && new.enforce.level <= old.enforce.level)
}

/// `EvaluatePodsInNamespace`: the warnings for the Pods already in the namespace that
/// the new enforce level would refuse, grouped by their reasons.
pub fn existing_pod_warnings(ns: &str, lv: &LevelVersion, pods: &[&Pod]) -> Vec<String> {
    // prioritizePods: one Pod per controller first, then the other replicas.
    let mut seen = BTreeSet::new();
    let (mut first, mut rest) = (Vec::new(), Vec::new());
    for p in pods {
        match p
            .metadata
            .owner_references
            .iter()
            .find(|o| o.controller == Some(true))
        {
            Some(o) if !seen.insert(o.uid.clone()) => rest.push(*p),
            _ => first.push(*p),
        }
    }
    first.extend(rest);
    const MAX_PODS: usize = 3000;
    let total = first.len();
    first.truncate(MAX_PODS);
    let mut groups: std::collections::BTreeMap<String, (String, usize)> = Default::default();
    for p in &first {
        let f = evaluate(lv, &p.metadata, &p.spec);
        if f.is_empty() {
            continue;
        }
        let reasons = f
            .iter()
            .map(|(r, _)| r.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let g = groups
            .entry(reasons)
            .or_insert_with(|| (p.metadata.name.clone(), 0));
        if p.metadata.name < g.0 {
            g.0 = p.metadata.name.clone();
        }
        g.1 += 1;
    }
    let mut out = Vec::new();
    if total > MAX_PODS {
        out.push(format!(
            "new PodSecurity enforce level only checked against the first {MAX_PODS} of {total} existing pods"
        ));
    }
    if groups.is_empty() {
        return out;
    }
    out.push(format!(
        "existing pods in namespace \"{ns}\" violate the new PodSecurity enforce level \"{}\"",
        lv.label()
    ));
    let mut lines: Vec<String> = groups
        .into_iter()
        .map(|(reasons, (name, n))| match n {
            1 => format!("{name}: {reasons}"),
            2 => format!("{name} (and 1 other pod): {reasons}"),
            n => format!("{name} (and {} other pods): {reasons}", n - 1),
        })
        .collect();
    crate::sorting::sort(&mut lines);
    out.extend(lines);
    out
}

impl super::super::Store {
    /// The Pod Security policy of namespace `ns`, when it has any of the labels.
    fn pod_security_policy(&self, ns: &str) -> Option<Policy> {
        let n = self.get::<Namespace>(&super::super::ObjKey::new("", ns))?;
        labelled(&n.metadata.labels).then(|| policy_to_evaluate(&n.metadata.labels).0)
    }

    /// The PodSecurity admission plugin for a create (`old` None) or an update of
    /// `obj`: refuses a Pod under `enforce`, validates a Namespace's labels, and
    /// returns its warnings when `warn` (kubectl's requests: the components' warnings go
    /// nowhere, as client-go's default handler only logs them).
    pub(in crate::apiserver) fn admit_pod_security(
        &self,
        obj: &Object,
        old: Option<&Object>,
        warn: bool,
    ) -> Result<Vec<String>, super::super::ApiError> {
        let template = |o: &Object| -> Option<(ObjectMeta, PodSpec)> {
            match o {
                Object::Deployment(d) => Some((
                    d.spec.template.metadata.clone(),
                    d.spec.template.spec.clone(),
                )),
                Object::ReplicaSet(r) => Some((
                    r.spec.template.metadata.clone(),
                    r.spec.template.spec.clone(),
                )),
                _ => None,
            }
        };
        match obj {
            Object::Namespace(n) => {
                let was = old.map(|o| o.meta().labels.clone()).unwrap_or_default();
                if !labelled(&n.metadata.labels) && !labelled(&was) {
                    return Ok(Vec::new());
                }
                let (policy, errs) = policy_to_evaluate(&n.metadata.labels);
                let (old_policy, old_errs) = policy_to_evaluate(&was);
                // An update keeps the label errors it already had.
                if !errs.is_empty() && (old.is_none() || old_errs.is_empty() || old_errs != errs) {
                    return Err(super::super::ApiError::invalid(
                        Kind::Namespace,
                        &n.metadata.name,
                        &errs,
                    ));
                }
                if warn && old.is_some() && recheck_existing(&old_policy, &policy) {
                    let pods: Vec<&Pod> = self
                        .list::<Pod>()
                        .filter(|p| p.metadata.namespace == n.metadata.name)
                        .collect();
                    return Ok(existing_pod_warnings(
                        &n.metadata.name,
                        &policy.enforce,
                        &pods,
                    ));
                }
                Ok(Vec::new())
            }
            Object::Pod(p) => {
                let Some(policy) = self.pod_security_policy(&p.metadata.namespace) else {
                    return Ok(Vec::new());
                };
                if let Some(Object::Pod(o)) = old {
                    if !significant_pod_update(&p.spec, &o.spec) {
                        return Ok(Vec::new());
                    }
                }
                let d = evaluate_pod(&policy, &p.metadata, &p.spec, true);
                if let Some(why) = d.refusal {
                    return Err(super::super::ApiError {
                        code: 403,
                        reason: "Forbidden",
                        message: format!("pods \"{}\" is forbidden: {why}", p.metadata.name),
                        kubectl_message: None,
                        details: None,
                    });
                }
                Ok(if warn { d.warnings } else { Vec::new() })
            }
            o => {
                if !warn {
                    return Ok(Vec::new());
                }
                let Some((meta, spec)) = template(o) else {
                    return Ok(Vec::new());
                };
                let Some(policy) = self.pod_security_policy(&o.meta().namespace) else {
                    return Ok(Vec::new());
                };
                Ok(evaluate_pod(&policy, &meta, &spec, false).warnings)
            }
        }
    }
}
