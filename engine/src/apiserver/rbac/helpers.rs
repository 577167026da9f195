//! Building policy rules (`pkg/apis/rbac/v1/helpers.go`'s `NewRule(…).Groups(…)
//! .Resources(…)` and `.URLs(…)`), for the bootstrap policy's roles.

use crate::api::*;

/// The read verbs.
pub(super) const READ: &[&str] = &["get", "list", "watch"];

/// The write verbs.
pub(super) const WRITE: &[&str] = &["create", "delete", "deletecollection", "patch", "update"];

/// A resource rule: these verbs on these resources of these API groups.
pub(super) fn rule(verbs: &[&str], groups: &[&str], resources: &[&str]) -> PolicyRule {
    let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    PolicyRule {
        verbs: v(verbs),
        api_groups: v(groups),
        resources: v(resources),
        ..Default::default()
    }
}

/// A non-resource rule: these verbs on these paths.
pub(super) fn urls(verbs: &[&str], paths: &[&str]) -> PolicyRule {
    let v = |x: &[&str]| x.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    PolicyRule {
        verbs: v(verbs),
        non_resource_urls: v(paths),
        ..Default::default()
    }
}

/// [`READ`] and [`WRITE`] together.
pub(super) fn read_write() -> Vec<&'static str> {
    READ.iter().chain(WRITE).copied().collect()
}

/// The rule restricted to these object names (`.Names(…)`).
pub(super) fn with_names(mut r: PolicyRule, names: &[&str]) -> PolicyRule {
    r.resource_names = names.iter().map(|n| n.to_string()).collect();
    r
}
