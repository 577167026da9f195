//! The configuration and policy describers: ConfigMap, Secret, ServiceAccount, PodDisruptionBudget,
//! Namespace (with its quotas and ranges), LimitRange, ResourceQuota, PriorityClass.

use super::common::*;
use super::Reader;
use crate::api::*;
use crate::tabwriter;
use std::fmt::Write;

/// `describeConfigMap`.
pub(super) fn describe_config_map(rd: &mut dyn Reader, cm: &ConfigMap) -> String {
    let mut w = String::new();
    let m = &cm.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "\nData\n====");
    // Each value is followed by a newline and then a blank line of its own.
    for (k, v) in &cm.data {
        let _ = writeln!(w, "{k}:\n----\n{v}\n");
    }
    let _ = writeln!(w, "\nBinaryData\n====");
    for (k, v) in &cm.binary_data {
        let n = base64_decode(v).map_or(0, |b| b.len());
        let _ = writeln!(w, "{k}: {n} bytes");
    }
    let _ = writeln!(w);
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeSecret`: sizes, never values.
pub(super) fn describe_secret(sec: &Secret) -> String {
    let mut w = String::new();
    let m = &sec.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "\nType:\t{}", sec.type_);
    let _ = writeln!(w, "\nData\n====");
    for (k, v) in &sec.data {
        let n = base64_decode(v).map_or(0, |b| b.len());
        let _ = writeln!(w, "{k}:\t{n} bytes");
    }
    tabwriter::format(&w, 0, 2)
}

/// `describeServiceAccount`: its image pull and mountable Secrets (a missing one
/// marked `(not found)`), the legacy token Secrets naming it, and its Events.
pub(super) fn describe_service_account(rd: &mut dyn Reader, sa: &ServiceAccount) -> String {
    let mut w = String::new();
    let m = &sa.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let secrets = rd.list(Kind::Secret, Some(&m.namespace), None, "");
    let found: Vec<&str> = secrets.iter().map(|s| s.meta().name.as_str()).collect();
    let tokens: Vec<String> = secrets
        .iter()
        .filter_map(|o| match o.as_ref() {
            Object::Secret(s)
                if s.type_ == "kubernetes.io/service-account-token"
                    && s.metadata
                        .annotations
                        .get("kubernetes.io/service-account.name")
                        == Some(&m.name)
                    && s.metadata
                        .annotations
                        .get("kubernetes.io/service-account.uid")
                        == Some(&m.uid) =>
            {
                Some(s.metadata.name.clone())
            }
            _ => None,
        })
        .collect();
    let pull: Vec<String> = sa
        .image_pull_secrets
        .iter()
        .map(|s| s.name.clone())
        .collect();
    let mount: Vec<String> = sa.secrets.iter().map(|s| s.name.clone()).collect();
    // The headers sorted, as `sets.StringKeySet(types).List()` walks them.
    for (header, names) in [
        ("Image pull secrets:", &pull),
        ("Mountable secrets: ", &mount),
        ("Tokens:            ", &tokens),
    ] {
        if names.is_empty() {
            let _ = writeln!(w, "{header}\t<none>");
        }
        let mut prefix = header;
        for name in names.iter() {
            let missing = if found.contains(&name.as_str()) {
                ""
            } else {
                " (not found)"
            };
            let _ = writeln!(w, "{prefix}\t{name}{missing}");
            prefix = "                   ";
        }
    }
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describePodDisruptionBudgetV1`.
pub(super) fn describe_pdb(rd: &mut dyn Reader, b: &PodDisruptionBudget) -> String {
    let mut w = String::new();
    let m = &b.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let ios = |v: &IntOrString| match v {
        IntOrString::Int(n) => n.to_string(),
        IntOrString::String(s) => s.clone(),
    };
    if let Some(v) = &b.spec.min_available {
        let _ = writeln!(w, "Min available:\t{}", ios(v));
    } else if let Some(v) = &b.spec.max_unavailable {
        let _ = writeln!(w, "Max unavailable:\t{}", ios(v));
    }
    if b.spec.selector.is_empty() {
        // A PDB written without a selector has none (nil): kubectl says <unset>.
        let _ = writeln!(w, "Selector:\t<unset>");
    } else {
        let _ = writeln!(w, "Selector:\t{}", b.spec.selector.to_selector_string());
    }
    let _ = writeln!(w, "Status:");
    let st = &b.status;
    let _ = writeln!(w, "    Allowed disruptions:\t{}", st.disruptions_allowed);
    let _ = writeln!(w, "    Current:\t{}", st.current_healthy);
    let _ = writeln!(w, "    Desired:\t{}", st.desired_healthy);
    let _ = writeln!(w, "    Total:\t{}", st.expected_pods);
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeNamespace`: name, labels, annotations, status, then the namespace's
/// quotas (`DescribeResourceQuotas`) and limit ranges (`DescribeLimitRanges`).
pub(super) fn describe_namespace(rd: &mut dyn Reader, n: &Namespace) -> String {
    let mut w = String::new();
    let ns = &n.metadata.name;
    let _ = writeln!(w, "Name:\t{ns}");
    multiline(&mut w, "Labels", &n.metadata.labels);
    annotations(&mut w, &n.metadata.annotations);
    let _ = writeln!(w, "Status:\t{}", n.status.phase);
    let _ = writeln!(w);
    // SortableResourceQuotas: by name, as the store lists them.
    let listed = rd.list(Kind::ResourceQuota, Some(ns), None, "");
    let quotas: Vec<ResourceQuota> = typed(&listed);
    if quotas.is_empty() {
        let _ = writeln!(w, "No resource quota.");
    } else {
        let _ = writeln!(w, "Resource Quotas");
        for q in quotas {
            let _ = writeln!(w, "  Name:\t{}", q.metadata.name);
            if !q.spec.scopes.is_empty() {
                let mut scopes = q.spec.scopes.clone();
                crate::sorting::sort(&mut scopes);
                let _ = writeln!(w, "  Scopes:\t{}", scopes.join(", "));
            }
            let _ = writeln!(w, "  Resource\tUsed\tHard");
            let _ = writeln!(w, "  --------\t---\t---");
            for (r, h) in &q.status.hard {
                let used = q.status.used.get(r).cloned().unwrap_or_else(|| "0".into());
                let _ = writeln!(w, "  {r}\t{used}\t{h}");
            }
        }
    }
    let _ = writeln!(w);
    let listed = rd.list(Kind::LimitRange, Some(ns), None, "");
    let ranges: Vec<LimitRange> = typed(&listed);
    if ranges.is_empty() {
        let _ = writeln!(w, "No LimitRange resource.");
    } else {
        let _ = writeln!(w, "Resource Limits");
        let _ = writeln!(w, "{}", limit_range_header(" "));
        for lr in &ranges {
            limit_range_rows(&mut w, lr, " ");
        }
    }
    tabwriter::format(&w, 0, 2)
}

/// The limit-range table's header and rule, each line after `prefix`.
pub(super) fn limit_range_header(prefix: &str) -> String {
    format!(
        "{prefix}Type\tResource\tMin\tMax\tDefault Request\tDefault Limit\tMax Limit/Request Ratio\n{prefix}----\t--------\t---\t---\t---------------\t-------------\t-----------------------"
    )
}

/// `describeLimitRangeSpec`: a row per item and resource, `-` where unset. Upstream
/// walks each item's resources in Go map order (it varies); kubeplay sorts them.
pub(super) fn limit_range_rows(w: &mut String, lr: &LimitRange, prefix: &str) {
    use crate::apiserver::limit_ranger::canonical;
    for item in &lr.spec.limits {
        for k in item.resources() {
            let cell = |m: &StringMap, ratio: bool| {
                m.get(k).map_or_else(
                    || "-".to_string(),
                    |q| canonical(if ratio { "" } else { k }, q),
                )
            };
            let _ = writeln!(
                w,
                "{prefix}{}\t{k}\t{}\t{}\t{}\t{}\t{}",
                item.type_,
                cell(&item.min, false),
                cell(&item.max, false),
                cell(&item.default_request, false),
                cell(&item.default, false),
                cell(&item.max_limit_request_ratio, true)
            );
        }
    }
}

/// `describeLimitRange`: name, namespace and the table (no labels or annotations).
pub(super) fn describe_limit_range(lr: &LimitRange) -> String {
    let mut w = String::new();
    let _ = writeln!(w, "Name:\t{}", lr.metadata.name);
    let _ = writeln!(w, "Namespace:\t{}", lr.metadata.namespace);
    let _ = writeln!(w, "{}", limit_range_header(""));
    limit_range_rows(&mut w, lr, "");
    tabwriter::format(&w, 0, 2)
}

/// `describeQuota`: name, namespace, scopes, and each resource of `status.hard` with
/// its used and hard quantities (nothing before the controller has counted).
pub(super) fn describe_quota(q: &ResourceQuota) -> String {
    let mut w = String::new();
    let _ = writeln!(w, "Name:\t{}", q.metadata.name);
    let _ = writeln!(w, "Namespace:\t{}", q.metadata.namespace);
    if !q.spec.scopes.is_empty() {
        let _ = writeln!(w, "Scopes:\t{}", q.spec.scopes.join(", "));
    }
    let _ = writeln!(w, "Resource\tUsed\tHard");
    let _ = writeln!(w, "--------\t----\t----");
    for (r, h) in &q.status.hard {
        let used = q.status.used.get(r).cloned().unwrap_or_else(|| "0".into());
        let _ = writeln!(w, "{r}\t{used}\t{h}");
    }
    tabwriter::format(&w, 0, 2)
}

/// `describePriorityClass`.
pub(super) fn describe_priority_class(rd: &mut dyn Reader, pc: &PriorityClass) -> String {
    let mut w = String::new();
    let _ = writeln!(w, "Name:\t{}", pc.metadata.name);
    let _ = writeln!(w, "Value:\t{}", pc.value);
    let _ = writeln!(w, "GlobalDefault:\t{}", pc.global_default);
    let policy = if pc.preemption_policy.is_empty() {
        "PreemptLowerPriority"
    } else {
        &pc.preemption_policy
    };
    let _ = writeln!(w, "PreemptionPolicy:\t{policy}");
    let _ = writeln!(w, "Description:\t{}", pc.description);
    // labels.FormatLabels: k=v,… or <none>.
    let ann: Vec<String> = pc
        .metadata
        .annotations
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    let ann = if ann.is_empty() {
        "<none>".to_string()
    } else {
        ann.join(",")
    };
    let _ = writeln!(w, "Annotations:\t{ann}");
    events(&mut w, rd, &pc.metadata.uid);
    tabwriter::format(&w, 0, 2)
}
