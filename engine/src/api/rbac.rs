//! `rbac.authorization.k8s.io/v1`: Role, ClusterRole, RoleBinding, ClusterRoleBinding.
//!
//! Upstream: `k8s.io/api/rbac/v1/types.go`.

use super::meta::ObjectMeta;
use serde::{Deserialize, Serialize};

/// The API group of the RBAC kinds.
pub const RBAC_GROUP: &str = "rbac.authorization.k8s.io";

/// `PolicyRule`: verbs allowed on resources of API groups (optionally only some
/// names), or on non-resource URLs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PolicyRule {
    /// API groups (`""` is the core group, `*` any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub api_groups: Vec<String>,
    /// Only these object names (empty: any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_names: Vec<String>,
    /// Resources, `resource/subresource`, or `*`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    /// Non-resource URLs (`/healthz`, `/api/*`).
    #[serde(
        default,
        rename = "nonResourceURLs",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub non_resource_urls: Vec<String>,
    /// Verbs: `get`, `list`, `watch`, `create`, `update`, `patch`, `delete`, `*`…
    #[serde(default)]
    pub verbs: Vec<String>,
}

/// The generated `PolicyRule.String()` of a rule's lists (verbs, groups, resources,
/// names, URLs): kubectl sorts rules by it (`SortableRuleSlice`), in `describe` and in
/// `auth can-i --list`.
pub fn policy_rule_string(lists: [&[String]; 5]) -> String {
    let l = |v: &[String]| format!("[{}]", v.join(" "));
    format!(
        "&PolicyRule{{Verbs:{},APIGroups:{},Resources:{},ResourceNames:{},NonResourceURLs:{},}}",
        l(lists[0]),
        l(lists[1]),
        l(lists[2]),
        l(lists[3]),
        l(lists[4])
    )
}

/// `Role`: rules within one namespace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Role {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What the role allows.
    #[serde(default)]
    pub rules: Option<Vec<PolicyRule>>,
}

/// `ClusterRole`: rules across the cluster (or in a namespace, when bound there).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ClusterRole {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What the role allows.
    #[serde(default)]
    pub rules: Option<Vec<PolicyRule>>,
}

/// `Subject`: who a binding grants to.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Subject {
    /// `rbac.authorization.k8s.io` for users and groups, empty for service accounts.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_group: String,
    /// `User`, `Group` or `ServiceAccount`.
    #[serde(default)]
    pub kind: String,
    /// The name.
    #[serde(default)]
    pub name: String,
    /// For a ServiceAccount: its namespace.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
}

/// `RoleRef`: the role a binding grants.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RoleRef {
    /// `rbac.authorization.k8s.io`.
    #[serde(default)]
    pub api_group: String,
    /// `Role` or `ClusterRole`.
    #[serde(default)]
    pub kind: String,
    /// The role's name.
    #[serde(default)]
    pub name: String,
}

/// `RoleBinding`: grants a Role or ClusterRole within one namespace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RoleBinding {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The role granted.
    #[serde(default)]
    pub role_ref: RoleRef,
    /// Who it is granted to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subjects: Vec<Subject>,
}

/// `ClusterRoleBinding`: grants a ClusterRole across the cluster.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ClusterRoleBinding {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The role granted.
    #[serde(default)]
    pub role_ref: RoleRef,
    /// Who it is granted to.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub subjects: Vec<Subject>,
}
