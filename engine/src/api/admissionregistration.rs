//! `admissionregistration.k8s.io/v1`: ValidatingAdmissionPolicy and its binding
//! (`staging/src/k8s.io/api/admissionregistration/v1/types.go`), both cluster-scoped.
//! A policy says what to check (CEL validations over the request's object) and on
//! which requests; a binding puts it to work with its actions (`Deny`, `Warn`,
//! `Audit`). The API server's plugin that runs them is `apiserver::policy`.
//!
//! A ValidatingWebhookConfiguration (cluster-scoped too) names HTTPS servers the API
//! server asks about each request its rules select (`apiserver::webhook`).

use super::{Condition, LabelSelector, ObjectMeta};
use serde::{Deserialize, Serialize};

/// `v1.ValidatingAdmissionPolicy`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ValidatingAdmissionPolicy {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What the policy checks and on which requests.
    #[serde(default)]
    pub spec: ValidatingAdmissionPolicySpec,
    /// What the status controller observed (its type checking).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<ValidatingAdmissionPolicyStatus>,
}

/// `v1.ValidatingAdmissionPolicySpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ValidatingAdmissionPolicySpec {
    /// The kind of the parameter objects a binding may point at.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param_kind: Option<ParamKind>,
    /// The requests the policy applies to (required).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_constraints: Option<MatchResources>,
    /// The checks, each a CEL expression that must be true.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub validations: Vec<Validation>,
    /// `Fail` (the default) or `Ignore`: what an error in evaluating the policy does.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_policy: Option<String>,
    /// Values recorded in the request's audit event.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub audit_annotations: Vec<AuditAnnotation>,
    /// Conditions a request must meet for the policy to be evaluated at all.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_conditions: Vec<MatchCondition>,
    /// Named expressions the others read as `variables.NAME`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub variables: Vec<Variable>,
}

/// `v1.ParamKind`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ParamKind {
    /// `group/version` of the parameter kind.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// Its kind.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
}

/// `v1.MatchResources`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MatchResources {
    /// The namespaces whose objects match (default: every one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace_selector: Option<LabelSelector>,
    /// The objects that match by their labels (default: every one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object_selector: Option<LabelSelector>,
    /// The operations and resources that match.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_rules: Vec<NamedRuleWithOperations>,
    /// Those that do not, whatever the rules say.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub exclude_resource_rules: Vec<NamedRuleWithOperations>,
    /// `Equivalent` (the default) or `Exact`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_policy: Option<String>,
}

/// `v1.NamedRuleWithOperations`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct NamedRuleWithOperations {
    /// Object names the rule is limited to (empty: any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resource_names: Vec<String>,
    /// `CREATE`, `UPDATE`, `DELETE`, `CONNECT` or `*`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operations: Vec<String>,
    /// API groups (`""` is the core group, `*` any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub api_groups: Vec<String>,
    /// API versions (`*` any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub api_versions: Vec<String>,
    /// Resources (`deployments`, `pods/status`, `*`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    /// `Cluster`, `Namespaced` or `*` (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
}

/// `v1.Validation`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Validation {
    /// The CEL expression that must be true.
    #[serde(default)]
    pub expression: String,
    /// The message when it is false.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// The status reason when it is false (`Invalid` when unset).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// A CEL expression that makes the message.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message_expression: String,
}

/// `v1.AuditAnnotation`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct AuditAnnotation {
    /// The key, published as `POLICY/KEY`.
    #[serde(default)]
    pub key: String,
    /// A CEL expression giving the value (a string, or null for none).
    #[serde(default)]
    pub value_expression: String,
}

/// `v1.MatchCondition`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct MatchCondition {
    /// Its name.
    #[serde(default)]
    pub name: String,
    /// A CEL expression that must be true for the policy to run.
    #[serde(default)]
    pub expression: String,
}

/// `v1.Variable`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Variable {
    /// Its name, read as `variables.NAME`.
    #[serde(default)]
    pub name: String,
    /// Its CEL expression.
    #[serde(default)]
    pub expression: String,
}

/// `v1.ValidatingAdmissionPolicyStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ValidatingAdmissionPolicyStatus {
    /// The generation the status describes.
    #[serde(default)]
    pub observed_generation: i64,
    /// The type checking's warnings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub type_checking: Option<TypeChecking>,
    /// Conditions (the status controller sets none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
}

/// `v1.TypeChecking`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct TypeChecking {
    /// One per expression with a problem.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub expression_warnings: Vec<ExpressionWarning>,
}

/// `v1.ExpressionWarning`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ExpressionWarning {
    /// The expression's field path.
    #[serde(default)]
    pub field_ref: String,
    /// What is wrong.
    #[serde(default)]
    pub warning: String,
}

/// `v1.ValidatingAdmissionPolicyBinding`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ValidatingAdmissionPolicyBinding {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Which policy, with what parameters, on which requests, with which actions.
    #[serde(default)]
    pub spec: ValidatingAdmissionPolicyBindingSpec,
}

/// `v1.ValidatingAdmissionPolicyBindingSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ValidatingAdmissionPolicyBindingSpec {
    /// The policy it binds (a binding to a missing policy is ignored).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub policy_name: String,
    /// The parameter object.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub param_ref: Option<ParamRef>,
    /// Narrows the policy's requests further.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_resources: Option<MatchResources>,
    /// `Deny`, `Warn`, `Audit` (at least one; not Deny with Warn).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub validation_actions: Vec<String>,
}

/// `v1.ParamRef`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ParamRef {
    /// The parameter object's name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// Its namespace (empty: the request's, for a namespaced kind).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// Parameter objects by label, instead of a name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<LabelSelector>,
    /// `Allow` or `Deny` when no parameter is found (required).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parameter_not_found_action: Option<String>,
}

/// `v1.ValidatingWebhookConfiguration`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ValidatingWebhookConfiguration {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The webhooks, each asked about the requests its rules select.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub webhooks: Vec<ValidatingWebhook>,
}

/// `v1.ValidatingWebhook`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ValidatingWebhook {
    /// Its name, a fully qualified domain name (`replicas.example.com`).
    #[serde(default)]
    pub name: String,
    /// Where the API server sends the AdmissionReview.
    #[serde(default)]
    pub client_config: WebhookClientConfig,
    /// The operations and resources it is asked about.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<RuleWithOperations>,
    /// `Fail` (the default): a call that fails refuses the request; `Ignore`: the
    /// request goes on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_policy: Option<String>,
    /// `Equivalent` (the default) or `Exact`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub match_policy: Option<String>,
    /// The namespaces whose objects it is asked about (default: every one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub namespace_selector: Option<LabelSelector>,
    /// The objects it is asked about, by their labels (default: every one).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub object_selector: Option<LabelSelector>,
    /// `None` or `NoneOnDryRun` (required).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub side_effects: Option<String>,
    /// How long the API server waits for an answer (1 to 30 s, 10 by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_seconds: Option<i32>,
    /// The AdmissionReview versions it understands, preferred first (required).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub admission_review_versions: Vec<String>,
    /// CEL conditions a request must meet for the webhook to be called.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub match_conditions: Vec<MatchCondition>,
}

/// `v1.WebhookClientConfig`: a URL, or a Service in the cluster.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct WebhookClientConfig {
    /// `https://host[:port]/path`, for a server outside the cluster.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The Service in front of the server.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub service: Option<ServiceReference>,
    /// The PEM bundle (base64) that signs the server's certificate.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub ca_bundle: String,
}

/// `v1.ServiceReference`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ServiceReference {
    /// The Service's namespace.
    #[serde(default)]
    pub namespace: String,
    /// Its name.
    #[serde(default)]
    pub name: String,
    /// The URL path the requests go to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub path: Option<String>,
    /// The Service port (443 by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<i32>,
}

/// `v1.RuleWithOperations`: a webhook's rule (a policy's has resource names too).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct RuleWithOperations {
    /// `CREATE`, `UPDATE`, `DELETE`, `CONNECT` or `*`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub operations: Vec<String>,
    /// API groups (`""` is the core group, `*` any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub api_groups: Vec<String>,
    /// API versions (`*` any).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub api_versions: Vec<String>,
    /// Resources (`pods`, `deployments/scale`, `*`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub resources: Vec<String>,
    /// `Cluster`, `Namespaced` or `*` (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scope: Option<String>,
}

impl From<&RuleWithOperations> for NamedRuleWithOperations {
    fn from(r: &RuleWithOperations) -> Self {
        NamedRuleWithOperations {
            resource_names: Vec::new(),
            operations: r.operations.clone(),
            api_groups: r.api_groups.clone(),
            api_versions: r.api_versions.clone(),
            resources: r.resources.clone(),
            scope: r.scope.clone(),
        }
    }
}
