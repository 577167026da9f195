//! The Node authorizer (`plugin/pkg/auth/authorizer/node/node_authorizer.go`): what a
//! kubelet's identity (`system:node:<name>` in `system:nodes`) may read and write,
//! through the graph of its Pods' references, and its static rules otherwise.

use super::super::Store;
use super::authorizer::{rule_allows, Attributes, UserInfo};
use super::policy::node_rules;
use crate::api::*;

/// [`node_rules`], built once: the Node authorizer reads them for every request of a
/// kubelet that no special case answers (its Events).
fn static_node_rules() -> &'static [PolicyRule] {
    static RULES: std::sync::OnceLock<Vec<PolicyRule>> = std::sync::OnceLock::new();
    RULES.get_or_init(node_rules)
}

/// `NodeIdentity`: the node a user is, when its name is `system:node:<name>` and it is
/// in the group `system:nodes`.
pub fn node_identity(user: &UserInfo) -> Option<&str> {
    let name = user.name.strip_prefix("system:node:")?;
    user.groups
        .iter()
        .any(|g| g == "system:nodes")
        .then_some(name)
}

/// Whether a Pod bound to `node` names `what` (a Secret or ConfigMap, by `field` of a
/// volume source or an env reference) — the Node authorizer graph's edge.
fn pod_on_node_references(store: &Store, node: &str, ns: &str, kind: &str, name: &str) -> bool {
    let (volume, key, env_ref, env_from) = match kind {
        "secrets" => ("secret", "secretName", "secretKeyRef", "secretRef"),
        _ => ("configMap", "name", "configMapKeyRef", "configMapRef"),
    };
    store
        .pods_on_node(node)
        .filter(|p| p.metadata.namespace == ns)
        .any(|p| {
            let spec = serde_json::to_value(&p.spec).unwrap_or_default();
            let volumes = spec["volumes"].as_array().cloned().unwrap_or_default();
            let by_volume = volumes.iter().any(|v| {
                v[volume][key].as_str() == Some(name)
                    || v["projected"]["sources"]
                        .as_array()
                        .is_some_and(|s| s.iter().any(|x| x[volume]["name"].as_str() == Some(name)))
            });
            let containers = spec["containers"]
                .as_array()
                .into_iter()
                .chain(spec["initContainers"].as_array())
                .flatten()
                .cloned()
                .collect::<Vec<_>>();
            let by_env = containers.iter().any(|c| {
                c["env"].as_array().is_some_and(|e| {
                    e.iter()
                        .any(|x| x["valueFrom"][env_ref]["name"].as_str() == Some(name))
                }) || c["envFrom"]
                    .as_array()
                    .is_some_and(|e| e.iter().any(|x| x[env_from]["name"].as_str() == Some(name)))
            });
            by_volume || by_env
        })
}

/// The Node authorizer (`node_authorizer.go`, `AuthorizeNodeWithSelectors` on, as in
/// v1.33): Ok for what `node` may do, else the reason it has no opinion (often empty).
/// A node lists and watches Pods only with its own `spec.nodeName` field selector.
pub fn node_authorize(store: &Store, node: &str, a: &Attributes) -> Result<(), String> {
    if !a.path.is_empty() {
        return authorize_static(a);
    }
    match (a.api_group.as_str(), a.resource.as_str()) {
        ("", "secrets" | "configmaps") => authorize_read_namespaced_object(store, node, a),
        ("", "persistentvolumeclaims") if a.subresource == "status" => {
            authorize_status_update(node, a)
        }
        ("", "persistentvolumeclaims" | "persistentvolumes")
        | ("resource.k8s.io", "resourceclaims")
        | ("storage.k8s.io", "volumeattachments") => authorize_get(node, a),
        ("", "serviceaccounts") => authorize_create_token(node, a),
        ("coordination.k8s.io", "leases") => authorize_lease(node, a),
        ("", "nodes") => authorize_node(node, a),
        ("", "pods") => authorize_pod(store, node, a),
        _ => authorize_static(a),
    }
}

/// The reason for an object the graph does not connect to the node.
fn no_relationship(node: &str) -> String {
    format!("no relationship found between node '{node}' and this object")
}

/// The static rules ([`node_rules`]) for everything no case of the authorizer answers.
fn authorize_static(a: &Attributes) -> Result<(), String> {
    if static_node_rules().iter().any(|r| rule_allows(a, r)) {
        Ok(())
    } else {
        Err(String::new())
    }
}

/// `authorizeReadNamespacedObject`: a Secret or ConfigMap, read by name, that a Pod
/// bound to the node references.
fn authorize_read_namespaced_object(
    store: &Store,
    node: &str,
    a: &Attributes,
) -> Result<(), String> {
    if !matches!(a.verb.as_str(), "get" | "list" | "watch") {
        return Err("can only read resources of this type".into());
    }
    if !a.subresource.is_empty() {
        return Err("cannot read subresource".into());
    }
    if a.namespace.is_empty() {
        return Err("can only read namespaced object of this type".into());
    }
    if a.name.is_empty() {
        return Err("No Object name found".into());
    }
    if pod_on_node_references(store, node, &a.namespace, &a.resource, &a.name) {
        Ok(())
    } else {
        Err(no_relationship(node))
    }
}

/// `authorizeStatusUpdate`: a claim's status, updated or patched.
fn authorize_status_update(node: &str, a: &Attributes) -> Result<(), String> {
    if !matches!(a.verb.as_str(), "update" | "patch") {
        return Err("can only get/update/patch this type".into());
    }
    Err(no_relationship(node))
}

/// `authorizeGet`: a claim, volume, resource claim or volume attachment, read by name.
fn authorize_get(node: &str, a: &Attributes) -> Result<(), String> {
    if a.verb != "get" {
        return Err("can only get individual resources of this type".into());
    }
    if !a.subresource.is_empty() {
        return Err("cannot get subresource".into());
    }
    if a.name.is_empty() {
        return Err("No Object name found".into());
    }
    Err(no_relationship(node))
}

/// `authorizeCreateToken`: a token for a named ServiceAccount.
fn authorize_create_token(node: &str, a: &Attributes) -> Result<(), String> {
    if a.verb == "get" && a.subresource.is_empty() {
        return Err("not allowed to get service accounts".into());
    }
    if a.verb != "create" || a.name.is_empty() {
        return Err("can only create tokens for individual service accounts".into());
    }
    if a.subresource != "token" {
        return Err("can only create token subresource of serviceaccount".into());
    }
    Err(no_relationship(node))
}

/// `authorizeLease`: the node's own Lease in `kube-node-lease`.
fn authorize_lease(node: &str, a: &Attributes) -> Result<(), String> {
    if !matches!(
        a.verb.as_str(),
        "get" | "create" | "update" | "patch" | "delete"
    ) {
        return Err("can only get, create, update, patch, or delete a node lease".into());
    }
    if a.namespace != "kube-node-lease" {
        return Err("can only access leases in the \"kube-node-lease\" system namespace".into());
    }
    if a.verb != "create" && a.name != node {
        return Err("can only access node lease with the same name as the requesting node".into());
    }
    Ok(())
}

/// `authorizeNode`: the node writes Node objects and its status, and reads only its own.
fn authorize_node(node: &str, a: &Attributes) -> Result<(), String> {
    match (a.subresource.as_str(), a.verb.as_str()) {
        ("", "create" | "update" | "patch") => Ok(()),
        ("", "get" | "list" | "watch") => {
            if a.name.is_empty() {
                Err(format!(
                    "node '{node}' cannot read all nodes, only its own Node object"
                ))
            } else if a.name != node {
                Err(format!(
                    "node '{node}' cannot read '{}', only its own Node object",
                    a.name
                ))
            } else {
                Ok(())
            }
        }
        ("status", "update" | "patch") => Ok(()),
        _ => Err(String::new()),
    }
}

/// `authorizePod`: the node reads a Pod bound to it, creates and deletes its mirror
/// Pods, writes Pod status and evicts.
fn authorize_pod(store: &Store, node: &str, a: &Attributes) -> Result<(), String> {
    match (a.subresource.as_str(), a.verb.as_str()) {
        ("", "get") => {
            if a.name.is_empty() {
                return Err("No Object name found".into());
            }
            let bound = store
                .get::<Pod>(&super::super::ObjKey::new(&a.namespace, &a.name))
                .is_some_and(|p| p.spec.node_name == node);
            if bound {
                Ok(())
            } else {
                Err(no_relationship(node))
            }
        }
        ("", "list" | "watch") => {
            // Only a scoped field selector: the node's own Pods.
            if a.field_selector
                .iter()
                .any(|(f, v)| f == "spec.nodeName" && v == node)
            {
                Ok(())
            } else {
                Err("can only list/watch pods with spec.nodeName field selector".into())
            }
        }
        ("", "create" | "delete") => Ok(()),
        ("status", "update" | "patch") => Ok(()),
        ("eviction", "create") => Ok(()),
        _ => Err(String::new()),
    }
}
