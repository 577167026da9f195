//! The RBAC describers: `RoleDescriber`, `ClusterRoleDescriber`, `RoleBindingDescriber`
//! and `ClusterRoleBindingDescriber` (`staging/src/k8s.io/kubectl/pkg/describe/describe.go`,
//! v0.33.0). A role's rules are broken down to one resource (or URL) each
//! (`breakdownRule`), the simple ones merged by resource (`CompactRules`), and sorted
//! by their Go string (`SortableRuleSlice`).

use super::common::*;
use crate::api::*;
use crate::tabwriter;
use std::collections::BTreeMap;
use std::fmt::Write;

/// `describeRole` and `describeClusterRole`: the same table, no namespace line.
pub(super) fn describe_role(meta: &ObjectMeta, rules: &[PolicyRule]) -> String {
    let mut w = String::new();
    let _ = writeln!(w, "Name:\t{}", meta.name);
    multiline(&mut w, "Labels", &meta.labels);
    annotations(&mut w, &meta.annotations);
    let _ = writeln!(w, "PolicyRule:");
    let _ = writeln!(w, "  Resources\tNon-Resource URLs\tResource Names\tVerbs");
    let _ = writeln!(w, "  ---------\t-----------------\t--------------\t-----");
    for r in compact_rules(rules.iter().flat_map(breakdown_rule).collect()) {
        let _ = writeln!(
            w,
            "  {}\t{}\t{}\t{}",
            combine_resource_group(&r.resources, &r.api_groups),
            go_list(&r.non_resource_urls),
            go_list(&r.resource_names),
            go_list(&r.verbs)
        );
    }
    tabwriter::format(&w, 0, 2)
}

/// `describeRoleBinding` and `describeClusterRoleBinding`.
pub(super) fn describe_binding(
    meta: &ObjectMeta,
    role_ref: &RoleRef,
    subjects: &[Subject],
) -> String {
    let mut w = String::new();
    let _ = writeln!(w, "Name:\t{}", meta.name);
    multiline(&mut w, "Labels", &meta.labels);
    annotations(&mut w, &meta.annotations);
    let _ = writeln!(w, "Role:");
    let _ = writeln!(w, "  Kind:\t{}", role_ref.kind);
    let _ = writeln!(w, "  Name:\t{}", role_ref.name);
    let _ = writeln!(w, "Subjects:");
    let _ = writeln!(w, "  Kind\tName\tNamespace");
    let _ = writeln!(w, "  ----\t----\t---------");
    for s in subjects {
        let _ = writeln!(w, "  {}\t{}\t{}", s.kind, s.name, s.namespace);
    }
    tabwriter::format(&w, 0, 2)
}

/// Go's `%v` of a `[]string`: `[get list]`, `[]` when empty.
fn go_list(v: &[String]) -> String {
    format!("[{}]", v.join(" "))
}

/// A rule as `PolicyRuleBuilder.Rule` returns it: every list sorted.
fn sorted_rule(mut r: PolicyRule) -> PolicyRule {
    for v in [
        &mut r.resources,
        &mut r.resource_names,
        &mut r.api_groups,
        &mut r.non_resource_urls,
        &mut r.verbs,
    ] {
        crate::sorting::sort(v);
    }
    r
}

/// `breakdownRule`: one rule per group × resource (× resource name), and one per
/// non-resource URL.
fn breakdown_rule(rule: &PolicyRule) -> Vec<PolicyRule> {
    let one =
        |groups: Vec<String>, resources: Vec<String>, names: Vec<String>, urls: Vec<String>| {
            sorted_rule(PolicyRule {
                api_groups: groups,
                resources,
                resource_names: names,
                non_resource_urls: urls,
                verbs: rule.verbs.clone(),
            })
        };
    let mut out = Vec::new();
    for g in &rule.api_groups {
        for r in &rule.resources {
            if rule.resource_names.is_empty() {
                out.push(one(vec![g.clone()], vec![r.clone()], vec![], vec![]));
            }
            for n in &rule.resource_names {
                out.push(one(
                    vec![g.clone()],
                    vec![r.clone()],
                    vec![n.clone()],
                    vec![],
                ));
            }
        }
    }
    for u in &rule.non_resource_urls {
        out.push(one(vec![], vec![], vec![], vec![u.clone()]));
    }
    out
}

/// `CompactRules`: rules of one group and one resource, with no names, merged (their
/// verbs appended in order), then every rule sorted by its Go string.
fn compact_rules(rules: Vec<PolicyRule>) -> Vec<PolicyRule> {
    let mut compacted = Vec::new();
    let mut simple: BTreeMap<(String, String), PolicyRule> = BTreeMap::new();
    for r in rules {
        let is_simple = r.resource_names.is_empty()
            && r.non_resource_urls.is_empty()
            && r.api_groups.len() == 1
            && r.resources.len() == 1;
        if !is_simple {
            compacted.push(r);
            continue;
        }
        let key = (r.api_groups[0].clone(), r.resources[0].clone());
        match simple.get_mut(&key) {
            Some(existing) => existing.verbs.extend(r.verbs),
            None => {
                simple.insert(key, r);
            }
        }
    }
    compacted.extend(simple.into_values());
    crate::sorting::sort_by_key(&mut compacted, go_string);
    compacted
}

/// The generated `PolicyRule.String()` the rules are sorted by.
fn go_string(r: &PolicyRule) -> String {
    policy_rule_string([
        &r.verbs,
        &r.api_groups,
        &r.resources,
        &r.resource_names,
        &r.non_resource_urls,
    ])
}

/// `CombineResourceGroup`: `pods`, `deployments.apps`, `deployments.apps/scale`.
fn combine_resource_group(resources: &[String], groups: &[String]) -> String {
    let Some(first) = resources.first() else {
        return String::new();
    };
    let (res, sub) = match first.split_once('/') {
        Some((r, s)) => (r, Some(s)),
        None => (first.as_str(), None),
    };
    let mut out = res.to_string();
    if let Some(g) = groups.first().filter(|g| !g.is_empty()) {
        out.push('.');
        out.push_str(g);
    }
    if let Some(s) = sub {
        out.push('/');
        out.push_str(s);
    }
    out
}
