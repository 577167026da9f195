//! ResourceQuota: what a Pod counts against its namespace's quotas, and the
//! validating admission that refuses a Pod past one.
//!
//! A Pod counts while it is not terminal, and while it is terminating only until its
//! grace period is over (`QuotaV1Pod`): so a replacement created while the Pod it
//! replaces is still terminating can find the quota full. The admission checks each
//! quota of the namespace against its `status.used` plus the new Pod's usage, refuses
//! with `exceeded quota: …` past `spec.hard`, or with `failed quota: …` when a quota
//! tracks requests or limits a container does not set, and adds the Pod's usage to
//! `status.used` when it admits it. The resourcequota controller recomputes `status`
//! from scratch when a quota changes or a Pod stops counting (replenishment).
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/admission/plugin/resourcequota/
//! controller.go` (`checkRequest`, `prettyPrint`), `pkg/quota/v1/evaluator/core/pods.go`
//! (`PodUsageFunc`, `QuotaV1Pod`, the constraints), `pkg/controller/resourcequota/`.
//!
//! Simplifications: Pods only (`pods`, `count/pods`, `cpu`/`requests.cpu`,
//! `memory`/`requests.memory`, `limits.cpu`, `limits.memory`); other resources named
//! in `hard` are shown but not counted; scopes are kept and not evaluated.

use super::{ApiError, ObjKey, Store};
use crate::api::quantity::{
    format_bytes, format_cpu_milli, parse_bytes_wide, parse_cpu_milli_wide,
};
use crate::api::*;
use crate::time::SimTime;
use std::collections::BTreeMap;

/// The resources kubeplay counts.
pub const COUNTED: &[&str] = &[
    "count/pods",
    "cpu",
    "limits.cpu",
    "limits.memory",
    "memory",
    "pods",
    "requests.cpu",
    "requests.memory",
];

/// Whether a resource is measured in CPU (millicores), else bytes or a count.
fn is_cpu(resource: &str) -> bool {
    matches!(resource, "cpu" | "requests.cpu" | "limits.cpu")
}

fn is_memory(resource: &str) -> bool {
    matches!(resource, "memory" | "requests.memory" | "limits.memory")
}

/// A quantity of `resource` as a number (millicores, bytes or a count); None when it
/// does not parse. Wider than `int64`, as upstream's `Quantity` is exact past it: a
/// request of `1e30` CPUs is more than a hard limit of `9223372036854775807m`.
pub fn parse_amount(resource: &str, q: &str) -> Option<u128> {
    if is_cpu(resource) {
        parse_cpu_milli_wide(q)
    } else {
        parse_bytes_wide(q)
    }
}

/// A number of `resource` as a quantity.
pub fn format_amount(resource: &str, v: u128) -> String {
    match i64::try_from(v) {
        Ok(v) if is_cpu(resource) => format_cpu_milli(v),
        Ok(v) if is_memory(resource) => format_bytes(v),
        // Past int64: whole units, as a decimal.
        Err(_) if is_cpu(resource) && v % 1000 == 0 => (v / 1000).to_string(),
        Err(_) if is_cpu(resource) => format!("{v}m"),
        _ => v.to_string(),
    }
}

/// `QuotaV1Pod`: whether the Pod counts against quota now.
pub fn counts(pod: &Pod, now: SimTime) -> bool {
    if matches!(pod.status.phase.as_str(), "Succeeded" | "Failed") {
        return false;
    }
    match (
        pod.metadata.deletion_ms,
        pod.metadata.deletion_grace_period_seconds,
    ) {
        (Some(at), Some(grace)) => {
            now <= at.saturating_add(u64::try_from(grace).unwrap_or(0).saturating_mul(1000))
        }
        _ => true,
    }
}

/// One resource of a container, as a number.
fn amount(map: &StringMap, key: &str, cpu: bool) -> u128 {
    map.get(key)
        .and_then(|q| {
            if cpu {
                parse_cpu_milli_wide(q)
            } else {
                parse_bytes_wide(q)
            }
        })
        .unwrap_or(0)
}

/// `resourcehelper.PodRequests` or `PodLimits` of one resource: the app containers and
/// every sidecar (an init container with `restartPolicy: Always`) run together, so
/// they are summed; a regular init container runs beside the sidecars started before
/// it; the Pod needs the largest of those.
fn pod_total(pod: &Pod, pick: impl Fn(&Container) -> &StringMap, key: &str, cpu: bool) -> u128 {
    let mut total = pod
        .spec
        .containers
        .iter()
        .fold(0u128, |s, c| s.saturating_add(amount(pick(c), key, cpu)));
    let (mut sidecars, mut init_max) = (0u128, 0u128);
    for c in &pod.spec.init_containers {
        let own = amount(pick(c), key, cpu);
        let needs = if c.is_sidecar() {
            total = total.saturating_add(own);
            sidecars = sidecars.saturating_add(own);
            sidecars
        } else {
            own.saturating_add(sidecars)
        };
        init_max = init_max.max(needs);
    }
    total.max(init_max)
}

/// `PodUsageFunc`: what one Pod uses of each counted resource.
pub fn pod_usage(pod: &Pod) -> BTreeMap<&'static str, u128> {
    let req = |key, cpu| pod_total(pod, |c| &c.resources.requests, key, cpu);
    let lim = |key, cpu| pod_total(pod, |c| &c.resources.limits, key, cpu);
    BTreeMap::from([
        ("count/pods", 1),
        ("cpu", req("cpu", true)),
        ("limits.cpu", lim("cpu", true)),
        ("limits.memory", lim("memory", false)),
        ("memory", req("memory", false)),
        ("pods", 1),
        ("requests.cpu", req("cpu", true)),
        ("requests.memory", req("memory", false)),
    ])
}

/// What the namespace's counting Pods use of each resource the quota names.
pub fn namespace_usage(store: &Store, q: &ResourceQuota, now: SimTime) -> StringMap {
    let mut totals: BTreeMap<&str, u128> = BTreeMap::new();
    for p in store
        .list_ns::<Pod>(&q.metadata.namespace)
        .filter(|p| counts(p, now))
    {
        for (k, v) in pod_usage(p) {
            let t = totals.entry(k).or_default();
            *t = t.saturating_add(v);
        }
    }
    q.spec
        .hard
        .keys()
        .map(|r| {
            let v = totals.get(r.as_str()).copied().unwrap_or(0);
            (r.clone(), format_amount(r, v))
        })
        .collect()
}

/// The pod constraint (`podComputeUsageHelper`'s sibling): a quota tracking requests
/// or limits of cpu or memory needs every container to set them.
fn missing_constraints(q: &ResourceQuota, pod: &Pod) -> Option<String> {
    let mut msgs = Vec::new();
    for r in q.spec.hard.keys() {
        let (field, key) = match r.as_str() {
            "cpu" | "requests.cpu" => ("requests", "cpu"),
            "memory" | "requests.memory" => ("requests", "memory"),
            "limits.cpu" => ("limits", "cpu"),
            "limits.memory" => ("limits", "memory"),
            _ => continue,
        };
        let mut names: Vec<&str> = pod
            .spec
            .init_containers
            .iter()
            .chain(&pod.spec.containers)
            .filter(|c| {
                let m = if field == "requests" {
                    &c.resources.requests
                } else {
                    &c.resources.limits
                };
                !m.contains_key(key)
            })
            .map(|c| c.name.as_str())
            .collect();
        if names.is_empty() {
            continue;
        }
        names.sort_unstable();
        names.dedup();
        msgs.push(format!("{r} for: {}", names.join(",")));
    }
    (!msgs.is_empty()).then(|| format!("must specify {}", msgs.join("; ")))
}

/// The resourcequota admission for a Pod create: Ok with the quotas' new status
/// (to store with the Pod), or the 403.
pub fn admit_pod(store: &Store, pod: &Pod) -> Result<Vec<ResourceQuota>, ApiError> {
    let forbid = |msg: String| ApiError {
        code: 403,
        reason: "Forbidden",
        message: format!("pods \"{}\" is forbidden: {msg}", pod.metadata.name),
        kubectl_message: None,
        details: None,
    };
    let usage = pod_usage(pod);
    let mut updated = Vec::new();
    for q in store.list_ns::<ResourceQuota>(&pod.metadata.namespace) {
        if q.spec.hard.is_empty() {
            continue;
        }
        if let Some(m) = missing_constraints(q, pod) {
            return Err(forbid(format!("failed quota: {}: {m}", q.metadata.name)));
        }
        let tracked: Vec<&String> = q
            .spec
            .hard
            .keys()
            .filter(|r| COUNTED.contains(&r.as_str()))
            .collect();
        // The controller has not counted yet: the admission cannot know the usage.
        let unknown: Vec<&str> = tracked
            .iter()
            .filter(|r| !q.status.hard.contains_key(r.as_str()))
            .map(|r| r.as_str())
            .collect();
        if !unknown.is_empty() {
            return Err(forbid(format!(
                "status unknown for quota: {}, resources: {}",
                q.metadata.name,
                unknown.join(",")
            )));
        }
        let (mut requested, mut used, mut hard) = (Vec::new(), Vec::new(), Vec::new());
        let mut new_used = q.status.used.clone();
        for r in &tracked {
            let want = usage.get(r.as_str()).copied().unwrap_or(0);
            let now_used = q
                .status
                .used
                .get(r.as_str())
                .and_then(|u| parse_amount(r, u))
                .unwrap_or(0);
            let limit = q
                .status
                .hard
                .get(r.as_str())
                .and_then(|h| parse_amount(r, h))
                .unwrap_or(u128::MAX);
            let total = now_used.saturating_add(want);
            if want > 0 && total > limit {
                requested.push(format!("{r}={}", format_amount(r, want)));
                used.push(format!("{r}={}", format_amount(r, now_used)));
                hard.push(format!(
                    "{r}={}",
                    q.status.hard.get(r.as_str()).cloned().unwrap_or_default()
                ));
            }
            new_used.insert((*r).clone(), format_amount(r, total));
        }
        if !requested.is_empty() {
            return Err(forbid(format!(
                "exceeded quota: {}, requested: {}, used: {}, limited: {}",
                q.metadata.name,
                requested.join(","),
                used.join(","),
                hard.join(",")
            )));
        }
        let mut q = q.clone();
        q.status.used = new_used;
        updated.push(q);
    }
    Ok(updated)
}

/// `kubectl get quota`'s REQUEST and LIMIT cells (`printResourceQuota`): `res: used/hard`
/// from the status, `limits.*` in LIMIT, the rest in REQUEST.
pub fn quota_cells(q: &ResourceQuota) -> (String, String) {
    let (mut req, mut lim) = (Vec::new(), Vec::new());
    for (r, h) in &q.status.hard {
        let used = q.status.used.get(r).cloned().unwrap_or_else(|| "0".into());
        let cell = format!("{r}: {used}/{h}");
        if r.split('.').next() == Some("limits") && r.contains('.') {
            lim.push(cell);
        } else {
            req.push(cell);
        }
    }
    (req.join(", "), lim.join(", "))
}

/// The key a quota is stored under.
pub fn key(q: &ResourceQuota) -> ObjKey {
    ObjKey::of(&q.metadata)
}
