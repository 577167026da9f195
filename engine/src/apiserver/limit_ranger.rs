//! LimitRange: the defaults a LimitRange gives its items, and the LimitRanger
//! admission plugin that fills in a new Pod's missing requests and limits (mutating)
//! and refuses one outside a range (validating).
//!
//! Mutating: each LimitRange of the namespace with a `Container` item gives every
//! container (and init container) the item's `defaultRequest` and `default` (limit)
//! for each resource the container does not set, and the Pod records what was set in
//! its `kubernetes.io/limit-ranger` annotation. Validating: each `Container` item's
//! `min`, `max` and `maxLimitRequestRatio` against every container; each `Pod` item's
//! against the Pod's summed requests and limits. Every failure of every LimitRange is
//! collected into one Forbidden (`pods "x" is forbidden: [a, b]`).
//!
//! Only Pod creates pass the plugin: a Pod update cannot change its containers'
//! resources, and workload templates are not checked (their Pods are, when a
//! controller creates them, so a Deployment whose Pods break a range shows
//! `FailedCreate` on its ReplicaSet).
//!
//! Upstream: `plugin/pkg/admission/limitranger/admission.go` (`SupportsAttributes`,
//! `mergePodResourceRequirements`, `PodValidateLimitFunc`, `minConstraint`,
//! `maxConstraint`, `limitRequestRatioConstraint`, `podRequests`, `podLimits`),
//! `pkg/apis/core/v1/defaults.go` (`SetDefaults_LimitRangeItem`),
//! `pkg/apis/core/validation/validation.go` (`ValidateLimitRange`).
//!
//! Upstream ranges over Go maps, so the order of several failures varies between
//! calls; kubeplay orders them by resource name. `PersistentVolumeClaim` items are
//! stored and printed, not enforced (kubeplay has no volumes).

use super::{ApiError, Store};
use crate::api::quantity::{format_bytes, format_cpu_milli, parse_cpu_milli};
use crate::api::*;
use std::collections::BTreeMap;

/// The annotation recording what the plugin set.
pub const LIMIT_RANGER_ANNOTATION: &str = "kubernetes.io/limit-ranger";

/// `SetDefaults_LimitRangeItem`: a `Container` item's limit defaults to its max, and
/// its request to its default limit, else to its min.
pub fn default_limit_range(lr: &mut LimitRange) {
    for item in &mut lr.spec.limits {
        if item.type_ != "Container" {
            continue;
        }
        for (k, v) in &item.max {
            item.default.entry(k.clone()).or_insert_with(|| v.clone());
        }
        for (k, v) in &item.default {
            item.default_request
                .entry(k.clone())
                .or_insert_with(|| v.clone());
        }
        for (k, v) in &item.min {
            item.default_request
                .entry(k.clone())
                .or_insert_with(|| v.clone());
        }
    }
}

/// A quantity in thousandths of its unit (`MilliValue`), as the plugin compares them.
fn milli(q: &str) -> Option<i64> {
    parse_cpu_milli(q)
}

/// The quantity as `Quantity.String()` prints it (`CanonicalizeBytes`): CPU in cores or
/// millicores (`0.5` → `500m`); a quantity written with a binary suffix in the largest
/// power of 1024 that divides it (`1024Mi` → `1Gi`, `1536Mi` stays), unless it is below
/// 1024; any other in the largest power of 1000 (`2000M` → `2G`, `1000` → `1k`); a
/// fraction of a unit in thousandths (`1.5` → `1500m`). Exponent forms stay as written.
pub fn canonical(resource: &str, q: &str) -> String {
    let q = q.trim();
    if resource == "cpu" {
        return parse_cpu_milli(q).map_or_else(|| q.to_string(), format_cpu_milli);
    }
    let Some(milli) = parse_cpu_milli(q) else {
        return q.to_string();
    };
    if q.contains(['e', 'E']) && !q.ends_with("Ei") {
        return q.to_string();
    }
    if milli % 1000 != 0 {
        return format!("{milli}m");
    }
    let v = milli / 1000;
    const BINARY: [(&str, u32); 6] = [
        ("Ei", 6),
        ("Pi", 5),
        ("Ti", 4),
        ("Gi", 3),
        ("Mi", 2),
        ("Ki", 1),
    ];
    const DECIMAL: [(&str, u32); 6] = [("E", 6), ("P", 5), ("T", 4), ("G", 3), ("M", 2), ("k", 1)];
    if v == 0 {
        return "0".into();
    }
    if q.ends_with('i') && v >= 1024 {
        let unit = BINARY
            .iter()
            .find(|(_, k)| v % 1024_i64.pow(*k) == 0)
            .map_or((v, ""), |(u, k)| (v / 1024_i64.pow(*k), u));
        return format!("{}{}", unit.0, unit.1);
    }
    let unit = DECIMAL
        .iter()
        .find(|(_, k)| v % 1000_i64.pow(*k) == 0)
        .map_or((v, ""), |(u, k)| (v / 1000_i64.pow(*k), u));
    format!("{}{}", unit.0, unit.1)
}

/// The defaults the namespace's LimitRanges give a container: (requests, limits).
/// A later LimitRange's default does not replace an earlier one's.
fn container_defaults(ranges: &[&LimitRange]) -> (StringMap, StringMap) {
    let (mut req, mut lim) = (StringMap::new(), StringMap::new());
    for lr in ranges {
        for item in lr.spec.limits.iter().filter(|i| i.type_ == "Container") {
            for (k, v) in &item.default_request {
                req.entry(k.clone()).or_insert_with(|| v.clone());
            }
            for (k, v) in &item.default {
                lim.entry(k.clone()).or_insert_with(|| v.clone());
            }
        }
    }
    (req, lim)
}

/// `mergeContainerResources`: set what the container lacks; the annotation's phrases.
fn merge_container(
    c: &mut Container,
    defaults: &(StringMap, StringMap),
    prefix: &str,
    notes: &mut Vec<String>,
) {
    let (req, lim) = defaults;
    let mut set_limits = Vec::new();
    for (k, v) in lim {
        if !c.resources.limits.contains_key(k) {
            c.resources.limits.insert(k.clone(), v.clone());
            set_limits.push(k.clone());
        }
    }
    let mut set_requests = Vec::new();
    for (k, v) in req {
        if !c.resources.requests.contains_key(k) {
            c.resources.requests.insert(k.clone(), v.clone());
            set_requests.push(k.clone());
        }
    }
    if !set_requests.is_empty() {
        notes.push(format!(
            "{} request for {prefix} {}",
            set_requests.join(", "),
            c.name
        ));
    }
    if !set_limits.is_empty() {
        notes.push(format!(
            "{} limit for {prefix} {}",
            set_limits.join(", "),
            c.name
        ));
    }
}

/// The mutating half: defaults from `ranges` (the namespace's LimitRanges, by name).
pub fn mutate_pod(pod: &mut Pod, ranges: &[&LimitRange]) {
    let defaults = container_defaults(ranges);
    if defaults.0.is_empty() && defaults.1.is_empty() {
        return;
    }
    let mut notes = Vec::new();
    for c in &mut pod.spec.containers {
        merge_container(c, &defaults, "container", &mut notes);
    }
    for c in &mut pod.spec.init_containers {
        merge_container(c, &defaults, "init container", &mut notes);
    }
    if !notes.is_empty() {
        pod.metadata.annotations.insert(
            LIMIT_RANGER_ANNOTATION.into(),
            format!("LimitRanger plugin set: {}", notes.join("; ")),
        );
    }
}

/// `minConstraint`.
fn min_constraint(
    type_: &str,
    res: &str,
    enforced: &str,
    requests: &StringMap,
    limits: &StringMap,
) -> Option<String> {
    let e = canonical(res, enforced);
    let want = milli(enforced)?;
    let Some(req) = requests.get(res) else {
        return Some(format!(
            "minimum {res} usage per {type_} is {e}.  No request is specified"
        ));
    };
    if milli(req).unwrap_or(0) < want {
        return Some(format!(
            "minimum {res} usage per {type_} is {e}, but request is {}",
            canonical(res, req)
        ));
    }
    if let Some(lim) = limits.get(res) {
        if milli(lim).unwrap_or(0) < want {
            return Some(format!(
                "minimum {res} usage per {type_} is {e}, but limit is {}",
                canonical(res, lim)
            ));
        }
    }
    None
}

/// `maxConstraint`.
fn max_constraint(
    type_: &str,
    res: &str,
    enforced: &str,
    requests: &StringMap,
    limits: &StringMap,
) -> Option<String> {
    let e = canonical(res, enforced);
    let most = milli(enforced)?;
    let Some(lim) = limits.get(res) else {
        return Some(format!(
            "maximum {res} usage per {type_} is {e}.  No limit is specified"
        ));
    };
    if milli(lim).unwrap_or(0) > most {
        return Some(format!(
            "maximum {res} usage per {type_} is {e}, but limit is {}",
            canonical(res, lim)
        ));
    }
    if let Some(req) = requests.get(res) {
        if milli(req).unwrap_or(0) > most {
            return Some(format!(
                "maximum {res} usage per {type_} is {e}, but request is {}",
                canonical(res, req)
            ));
        }
    }
    None
}

/// `limitRequestRatioConstraint`: limit ÷ request at most the ratio.
fn ratio_constraint(
    type_: &str,
    res: &str,
    enforced: &str,
    requests: &StringMap,
    limits: &StringMap,
) -> Option<String> {
    let e = canonical("", enforced);
    let ratio = milli(enforced)?;
    let req = requests.get(res).and_then(|q| milli(q)).unwrap_or(0);
    if req == 0 {
        return Some(format!(
            "{res} max limit to request ratio per {type_} is {e}, but no request is specified or request is 0"
        ));
    }
    let lim = limits.get(res).and_then(|q| milli(q)).unwrap_or(0);
    if lim == 0 {
        return Some(format!(
            "{res} max limit to request ratio per {type_} is {e}, but no limit is specified or limit is 0"
        ));
    }
    let observed = lim as f64 / req as f64;
    if observed * 1000.0 > ratio as f64 {
        return Some(format!(
            "{res} max limit to request ratio per {type_} is {e}, but provided ratio is {observed:.6}"
        ));
    }
    None
}

/// Add `list` into `sum` (quantities in thousandths).
fn add_into(sum: &mut BTreeMap<String, i64>, list: &StringMap) {
    for (k, v) in list {
        *sum.entry(k.clone()).or_default() += milli(v).unwrap_or(0);
    }
}

/// `podRequests` / `podLimits`: containers summed, sidecars (restartable init
/// containers) added, and the largest of each regular init container's (with the
/// sidecars started before it) if larger.
fn pod_total(pod: &Pod, pick: fn(&Container) -> &StringMap) -> StringMap {
    let mut total = BTreeMap::new();
    for c in &pod.spec.containers {
        add_into(&mut total, pick(c));
    }
    let mut sidecars = BTreeMap::new();
    let mut init_max: BTreeMap<String, i64> = BTreeMap::new();
    for c in &pod.spec.init_containers {
        let this = if c.restart_policy.as_deref() == Some("Always") {
            add_into(&mut total, pick(c));
            add_into(&mut sidecars, pick(c));
            sidecars.clone()
        } else {
            let mut t = BTreeMap::new();
            add_into(&mut t, pick(c));
            for (k, v) in &sidecars {
                *t.entry(k.clone()).or_default() += v;
            }
            t
        };
        for (k, v) in this {
            let e = init_max.entry(k).or_default();
            *e = (*e).max(v);
        }
    }
    for (k, v) in init_max {
        let e = total.entry(k).or_default();
        *e = (*e).max(v);
    }
    total
        .into_iter()
        .map(|(k, m)| {
            let q = if k == "cpu" {
                format_cpu_milli(m)
            } else {
                format_bytes(m / 1000)
            };
            (k, q)
        })
        .collect()
}

/// `PodValidateLimitFunc` for one LimitRange: every failure, in order.
fn validate_pod_against(pod: &Pod, lr: &LimitRange, errs: &mut Vec<String>) {
    for item in &lr.spec.limits {
        let t = item.type_.as_str();
        let mut check = |requests: &StringMap, limits: &StringMap| {
            for (k, v) in &item.min {
                errs.extend(min_constraint(t, k, v, requests, limits));
            }
            for (k, v) in &item.max {
                errs.extend(max_constraint(t, k, v, requests, limits));
            }
            for (k, v) in &item.max_limit_request_ratio {
                errs.extend(ratio_constraint(t, k, v, requests, limits));
            }
        };
        match t {
            "Container" => {
                for c in pod.spec.containers.iter().chain(&pod.spec.init_containers) {
                    check(&c.resources.requests, &c.resources.limits);
                }
            }
            "Pod" => {
                let requests = pod_total(pod, |c| &c.resources.requests);
                let limits = pod_total(pod, |c| &c.resources.limits);
                check(&requests, &limits);
            }
            _ => {}
        }
    }
}

/// The validating half: the Forbidden naming every failure, or Ok.
pub fn validate_pod(pod: &Pod, ranges: &[&LimitRange]) -> Result<(), ApiError> {
    // runLimitFunc stops at the first LimitRange that refuses: a later one's
    // failures are not reported.
    let mut errs = Vec::new();
    for lr in ranges {
        validate_pod_against(pod, lr, &mut errs);
        if !errs.is_empty() {
            break;
        }
    }
    // utilerrors.NewAggregate: duplicates once; one message bare, several in brackets.
    let mut seen = std::collections::BTreeSet::new();
    errs.retain(|e| seen.insert(e.clone()));
    if errs.is_empty() {
        return Ok(());
    }
    let body = if errs.len() == 1 {
        errs.remove(0)
    } else {
        format!("[{}]", errs.join(", "))
    };
    Err(ApiError {
        code: 403,
        reason: "Forbidden",
        message: format!("pods \"{}\" is forbidden: {body}", pod.metadata.name),
        kubectl_message: None,
        details: None,
    })
}

impl Store {
    /// The LimitRanges of namespace `ns`, by name.
    pub fn limit_ranges(&self, ns: &str) -> Vec<&LimitRange> {
        if self.count(Kind::LimitRange) == 0 {
            return Vec::new();
        }
        self.list::<LimitRange>()
            .filter(|l| l.metadata.namespace == ns)
            .collect()
    }
}

/// How a `resource.Quantity` passed by value prints in a field error: it has no
/// value-receiver `String()`, so `%#v` dumps the struct (`ParseQuantity`'s int64
/// form, with the string cached when it was written canonically).
pub fn go_quantity(q: &str) -> String {
    let q = q.trim();
    let digits = |t: &str| t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let n = digits(q);
    let (num, rest) = q.split_at(n);
    let (denom, suffix) = match rest.strip_prefix('.') {
        Some(r) => r.split_at(digits(r)),
        None => ("", rest),
    };
    let (binary, exponent): (bool, i32) = match suffix {
        "" => (false, 0),
        "n" => (false, -9),
        "u" => (false, -6),
        "m" => (false, -3),
        "k" => (false, 3),
        "M" => (false, 6),
        "G" => (false, 9),
        "T" => (false, 12),
        "P" => (false, 15),
        "E" => (false, 18),
        "Ki" => (true, 10),
        "Mi" => (true, 20),
        "Gi" => (true, 30),
        "Ti" => (true, 40),
        "Pi" => (true, 50),
        "Ei" => (true, 60),
        _ => return format!("{q:?}"),
    };
    if num.is_empty() && denom.is_empty() {
        return format!("{q:?}");
    }
    let shifted = format!("{num}{denom}");
    let Ok(v) = shifted.parse::<i64>() else {
        return format!("{q:?}");
    };
    let (value, scale, format, cached) = if binary {
        if !denom.is_empty() {
            return format!("{q:?}");
        }
        let Some(value) = v.checked_mul(1i64 << exponent) else {
            return format!("{q:?}");
        };
        let canonical = exponent % 10 == 0 && (num.parse::<i64>().unwrap_or(0) & 7) != 0;
        (value, 0, "BinarySI", canonical)
    } else {
        let scale = exponent - denom.len() as i32;
        let canonical = scale % 3 == 0 && !shifted.ends_with("000") && !shifted.starts_with('0');
        (v, scale, "DecimalSI", canonical)
    };
    format!(
        "resource.Quantity{{i:resource.int64Amount{{value:{value}, scale:{scale}}}, d:resource.infDecAmount{{Dec:(*inf.Dec)(nil)}}, s:{:?}, Format:{format:?}}}",
        if cached { q } else { "" }
    )
}

/// The resources a Container or Pod item may name (`validateContainerResourceName`).
fn container_resource(name: &str) -> bool {
    matches!(name, "cpu" | "memory" | "ephemeral-storage")
        || name.starts_with("hugepages-")
        || name.contains('/')
}

/// `ValidateLimitRange`'s checks of the items, as field errors in upstream's order.
pub fn validate_limit_range(lr: &LimitRange) -> Vec<String> {
    let mut errs = Vec::new();
    let mut types = std::collections::BTreeSet::new();
    for (i, item) in lr.spec.limits.iter().enumerate() {
        let path = format!("spec.limits[{i}]");
        let t = item.type_.as_str();
        if !matches!(t, "Container" | "Pod" | "PersistentVolumeClaim") && !t.contains('/') {
            errs.push(format!(
                "{path}.type: Invalid value: {t:?}: must be a standard limit type or fully qualified"
            ));
        }
        if !types.insert(t.to_string()) {
            errs.push(format!("{path}.type: Duplicate value: {t:?}"));
        }
        for (field, m) in [
            ("max", &item.max),
            ("min", &item.min),
            ("default", &item.default),
            ("defaultRequest", &item.default_request),
            ("maxLimitRequestRatio", &item.max_limit_request_ratio),
        ] {
            for k in m.keys() {
                let ok = if matches!(t, "Container" | "Pod") {
                    container_resource(k)
                } else {
                    k == "storage" || container_resource(k)
                };
                if !ok {
                    let why = if matches!(t, "Container" | "Pod") {
                        "must be a standard resource for containers"
                    } else {
                        "must be a standard resource type or fully qualified"
                    };
                    errs.push(format!("{path}.{field}[{k}]: Invalid value: {k:?}: {why}"));
                }
            }
        }
        if t == "Pod" {
            for (field, m) in [
                ("default", &item.default),
                ("defaultRequest", &item.default_request),
            ] {
                if !m.is_empty() {
                    errs.push(format!(
                        "{path}.{field}: Forbidden: may not be specified when `type` is 'Pod'"
                    ));
                }
            }
        }
        if t == "PersistentVolumeClaim"
            && !item.min.contains_key("storage")
            && !item.max.contains_key("storage")
        {
            errs.push(format!(
                "{path}.limits: Required value: either minimum or maximum storage value is required, but neither was provided"
            ));
        }
        let get = |m: &StringMap, k: &str| m.get(k).and_then(|q| milli(q));
        for k in item.resources() {
            let raw = |m: &StringMap| m.get(k).cloned().unwrap_or_default();
            let show = |m: &StringMap| canonical(k, &raw(m));
            let (min, max) = (get(&item.min, k), get(&item.max, k));
            // Each bound pair in upstream's order: (lower, upper, the field the error
            // is on, the map whose value it reports, the message's two names). Upstream
            // reports the min, then the max, as the bad value of a default's errors.
            let (mn, mx, def, req) = (&item.min, &item.max, &item.default, &item.default_request);
            let pairs: [(&StringMap, &StringMap, &str, &StringMap, &str, &str); 6] = [
                (mn, mx, "min", mn, "min value", "max value"),
                (
                    mn,
                    req,
                    "defaultRequest",
                    req,
                    "min value",
                    "default request value",
                ),
                (
                    req,
                    mx,
                    "defaultRequest",
                    req,
                    "default request value",
                    "max value",
                ),
                (
                    req,
                    def,
                    "defaultRequest",
                    req,
                    "default request value",
                    "default limit value",
                ),
                (mn, def, "default", mn, "min value", "default value"),
                (def, mx, "default", mx, "default value", "max value"),
            ];
            for (lower, upper, field, bad, lower_name, upper_name) in pairs {
                if let (Some(a), Some(b)) = (get(lower, k), get(upper, k)) {
                    if a > b {
                        errs.push(format!(
                            "{path}.{field}[{k}]: Invalid value: {}: {lower_name} {} is greater than {upper_name} {}",
                            go_quantity(&raw(bad)),
                            show(lower),
                            show(upper)
                        ));
                    }
                }
            }
            let mut invalid = |field: &str, bad: &StringMap, why: String| {
                errs.push(format!(
                    "{path}.{field}[{k}]: Invalid value: {}: {why}",
                    go_quantity(&raw(bad))
                ))
            };
            if let Some(r) = get(&item.max_limit_request_ratio, k) {
                let ratio = canonical("", &raw(&item.max_limit_request_ratio));
                if r < 1000 {
                    invalid(
                        "maxLimitRequestRatio",
                        &item.max_limit_request_ratio,
                        format!("ratio {ratio} is less than 1"),
                    );
                }
                if let (Some(a), Some(b)) = (min, max) {
                    if a > 0 && (r as f64) / 1000.0 > b as f64 / a as f64 {
                        invalid(
                            "maxLimitRequestRatio",
                            &item.max_limit_request_ratio,
                            format!(
                                "ratio {ratio} is greater than max/min = {:.6}",
                                b as f64 / a as f64
                            ),
                        );
                    }
                }
            }
        }
    }
    errs
}

#[cfg(test)]
mod tests {
    use super::canonical;

    #[test]
    fn quantities_print_as_go_canonicalizes_them() {
        // What kubectl prints back for each written quantity (checked against kubectl
        // 1.33's `set resources --local -o jsonpath`).
        for (written, printed) in [
            ("1000", "1k"),
            ("0.5Gi", "512Mi"),
            ("1.5", "1500m"),
            ("1e3", "1e3"),
            ("100", "100"),
            ("1023Ki", "1023Ki"),
            ("2048", "2048"),
            ("12000k", "12M"),
            ("1.5Gi", "1536Mi"),
            ("1024Mi", "1Gi"),
            ("2000M", "2G"),
            ("0", "0"),
        ] {
            assert_eq!(canonical("memory", written), printed, "{written}");
        }
        assert_eq!(canonical("cpu", "0.25"), "250m");
        assert_eq!(canonical("cpu", "2000m"), "2");
    }
}
