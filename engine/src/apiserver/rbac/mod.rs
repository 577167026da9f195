//! Authorization by RBAC: who may do what, from the Role, ClusterRole, RoleBinding and
//! ClusterRoleBinding objects in the store, and the bootstrap policy every cluster
//! starts with.
//!
//! A request's attributes (user and groups, verb, API group, resource and
//! subresource, namespace, name — or a non-resource path) are allowed when a rule of a
//! role bound to the user or one of its groups covers them: first the
//! ClusterRoleBindings, then the RoleBindings of the request's namespace. A binding
//! whose role is missing adds `RBAC: role.rbac.authorization.k8s.io "x" not found` to
//! the refusal's reason. Nothing allows by default: a user with no binding may only
//! discover the API and review its own access.
//!
//! The files follow upstream's packages:
//! - [`authorizer`], the RBAC authorizer: `plugin/pkg/auth/authorizer/rbac/rbac.go`
//!   (`Authorize`, `RuleAllows`, the authorizing visitor),
//!   `pkg/registry/rbac/validation/rule.go` (`VisitRulesFor`), and
//!   `endpoints/handlers/responsewriters/errors.go` (`forbiddenMessage`);
//! - [`chain`], the authorizer chain of `pkg/kubeapiserver/authorizer` (privileged
//!   group, Node, RBAC) and the impersonation filter;
//! - [`node`], the Node authorizer: `plugin/pkg/auth/authorizer/node/node_authorizer.go`;
//! - [`policy`] and [`controller_policy`], the bootstrap policy:
//!   `plugin/pkg/auth/authorizer/rbac/bootstrappolicy`'s `policy.go` (the bootstrap
//!   roles and bindings) and `controller_policy.go` (a role per controller), built with
//!   [`helpers`] (`pkg/apis/rbac/v1/helpers.go`'s rule builder).
//!
//! Simplifications: the bootstrap policy keeps the roles a learner meets (cluster-admin,
//! admin, edit, view and the discovery roles) with the rules for the kinds kubeplay
//! serves; `admin`, `edit` and `view` are stored already aggregated. The control
//! plane's components have their roles and bindings (`system:controller:*`,
//! `system:kube-scheduler`, `system:kube-controller-manager`, `system:node` bound to
//! nobody) and are authorized at the API server's door (`apiserver::door`); a node's identity
//! (`system:node:<name>` in `system:nodes`) goes through the Node authorizer first
//! ([`node_authorize`]), as kubeadm's `--authorization-mode=Node,RBAC` does.

mod authorizer;
mod chain;
mod controller_policy;
mod helpers;
mod node;
mod policy;

pub use authorizer::{forbidden, rule_allows, rules_for, Attributes, Decision, UserInfo};
pub use chain::{authorize, impersonate, PRIVILEGED_GROUP};
pub use controller_policy::CONTROLLER_ACCOUNTS;
pub use node::{node_authorize, node_identity};
pub use policy::{
    aggregated_metrics_reader, bootstrap_cluster_role_bindings, bootstrap_cluster_roles, node_rules,
};
