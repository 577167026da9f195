//! kube-apiserver's authorizer chain (`pkg/kubeapiserver/authorizer/config.go`): the
//! privileged group, then the Node authorizer, then RBAC, joined as the union
//! authorizer joins them; and the impersonation filter
//! (`endpoints/filters/impersonation.go`) that asks it.

use super::super::{ApiError, Store};
use super::authorizer::{forbidden, rule_allows, rules_for, Attributes, Decision, UserInfo};
use super::node::{node_authorize, node_identity};

/// `user.SystemPrivilegedGroup`: allowed everything before RBAC is asked.
pub const PRIVILEGED_GROUP: &str = "system:masters";

/// kube-apiserver's authorizer chain: the privileged group, then kubeadm's
/// `--authorization-mode=Node,RBAC`: the Node authorizer for a node's identity, then
/// RBAC (`RBACAuthorizer.Authorize`). A refusal carries the reasons of both that gave
/// one, one per line (the union authorizer's join).
pub fn authorize(store: &Store, user: &UserInfo, a: &Attributes) -> Decision {
    // The privileged group's authorizer comes first in kube-apiserver's chain: its
    // members are allowed everything, whatever RBAC says.
    if user.groups.iter().any(|g| g == PRIVILEGED_GROUP) {
        return Decision::Allow(format!("privileged group {PRIVILEGED_GROUP}"));
    }
    let mut reasons: Vec<String> = Vec::new();
    if let Some(node) = node_identity(user) {
        match node_authorize(store, node, a) {
            Ok(()) => return Decision::Allow("Node authorizer: allowed".into()),
            Err(r) if !r.is_empty() => reasons.push(r),
            Err(_) => {}
        }
    }
    let (rules, errors) = rules_for(store, user, &a.namespace);
    if let Some((by, _)) = rules.iter().find(|(_, r)| rule_allows(a, r)) {
        return Decision::Allow(format!("RBAC: allowed by {by}"));
    }
    let mut unique: Vec<String> = Vec::new();
    for e in errors {
        if !unique.contains(&e) {
            unique.push(e);
        }
    }
    match unique.len() {
        0 => {}
        1 => reasons.push(format!("RBAC: {}", unique[0])),
        _ => reasons.push(format!("RBAC: [{}]", unique.join(", "))),
    }
    Decision::Deny(reasons.join("\n"))
}

/// The impersonation filter: `me` acting as `name` in `groups` must be allowed to
/// `impersonate` the user and each group; the first refusal is the 403.
pub fn impersonate(
    store: &Store,
    me: &UserInfo,
    name: &str,
    groups: &[String],
) -> Result<UserInfo, ApiError> {
    let mut wanted = vec![Attributes {
        verb: "impersonate".into(),
        resource: "users".into(),
        name: name.into(),
        ..Default::default()
    }];
    wanted.extend(groups.iter().map(|g| Attributes {
        verb: "impersonate".into(),
        resource: "groups".into(),
        name: g.clone(),
        ..Default::default()
    }));
    for a in &wanted {
        if let Decision::Deny(reason) = authorize(store, me, a) {
            return Err(forbidden(me, a, &reason));
        }
    }
    let groups: Vec<&str> = groups.iter().map(String::as_str).collect();
    Ok(UserInfo::new(name, &groups))
}
