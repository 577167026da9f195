//! The control plane's own components, authorized as upstream authorizes them: each
//! controller as its ServiceAccount (`system:serviceaccount:kube-system:<name>`, as
//! kube-controller-manager runs with `--use-service-account-credentials`) against its
//! `system:controller:<name>` role, the scheduler as `system:kube-scheduler`, leader
//! election as `system:kube-controller-manager`, and each kubelet as
//! `system:node:<node>` in `system:nodes` — first through the Node authorizer, then
//! RBAC, then the NodeRestriction admission plugin, which keeps a node to its own Node,
//! its own Lease and the Pods bound to it.
//!
//! A learner who deletes `clusterrolebinding system:kube-scheduler` sees what upstream
//! shows: the scheduler's binds are Forbidden and new Pods stay Pending (its retries
//! back off in its queue), until the binding is back.
//!
//! Decisions are cached per identity, request attributes and namespace, and the cache
//! is dropped whenever a Role, ClusterRole or binding changes: a write pays a hash
//! lookup, not a walk of every binding (the envelope sends hundreds of thousands).
//!
//! Upstream: `plugin/pkg/auth/authorizer/rbac/bootstrappolicy/controller_policy.go`
//! and `policy.go` (the roles and bindings), `plugin/pkg/auth/authorizer/node/
//! node_authorizer.go`, `plugin/pkg/admission/noderestriction/admission.go`,
//! `cmd/kubeadm/app/phases/controlplane/manifests.go` (`--authorization-mode=Node,RBAC`,
//! `--use-service-account-credentials=true`).
//!
//! Simplifications: the components' reads (list, watch) are not requests in kubeplay
//! and are not checked; the pod garbage collector, the taint eviction controller, the
//! GitOps agent and the API server's own writes are not checked (their roles are not
//! modelled); a controller's Update of a Pod is authorized as the patch upstream sends
//! (adoption and release patch the ownerReferences).

use super::*;
use crate::apiserver::rbac::{self, Attributes, Decision, UserInfo};

/// A cached decision: allowed, or the refusal's reason.
pub(super) type AuthzCache = crate::apiserver::fxhash::FxHashMap<String, Result<(), String>>;

/// The user a component's requests are made as; None for those not checked.
pub fn component_user(who: &Component) -> Option<UserInfo> {
    if let Some(node) = who.writer.strip_prefix(writer::KUBELET_PREFIX) {
        return Some(UserInfo::new(
            &format!("system:node:{node}"),
            &["system:nodes"],
        ));
    }
    let account = match who.writer.as_str() {
        writer::DEPLOYMENT_CONTROLLER => "deployment-controller",
        writer::REPLICASET_CONTROLLER => "replicaset-controller",
        writer::GARBAGE_COLLECTOR => "generic-garbage-collector",
        writer::NODE_LIFECYCLE_CONTROLLER => "node-controller",
        writer::NAMESPACE_CONTROLLER => "namespace-controller",
        writer::RESOURCE_QUOTA_CONTROLLER => "resourcequota-controller",
        writer::DISRUPTION_CONTROLLER => "disruption-controller",
        writer::ENDPOINTSLICE_CONTROLLER => "endpointslice-controller",
        writer::ENDPOINT_CONTROLLER => "endpoint-controller",
        crate::client::writer::DAEMONSET_CONTROLLER => "daemon-set-controller",
        crate::client::writer::JOB_CONTROLLER => "job-controller",
        crate::client::writer::CRONJOB_CONTROLLER => "cronjob-controller",
        crate::client::writer::STATEFULSET_CONTROLLER => "statefulset-controller",
        crate::client::writer::PERSISTENT_VOLUME_CONTROLLER => "persistent-volume-binder",
        crate::client::writer::PVC_PROTECTION_CONTROLLER => "pvc-protection-controller",
        crate::client::writer::PV_PROTECTION_CONTROLLER => "pv-protection-controller",
        crate::client::writer::HPA_CONTROLLER => "horizontal-pod-autoscaler",
        crate::client::writer::TTL_AFTER_FINISHED_CONTROLLER => "ttl-after-finished-controller",
        writer::DEFAULT_SCHEDULER => {
            return Some(UserInfo::new("system:kube-scheduler", &[]));
        }
        "kube-controller-manager" => {
            return Some(UserInfo::new("system:kube-controller-manager", &[]));
        }
        _ => return None,
    };
    Some(UserInfo::new(
        &format!("system:serviceaccount:kube-system:{account}"),
        &[
            "system:serviceaccounts",
            "system:serviceaccounts:kube-system",
        ],
    ))
}

/// The attributes of a request (None for those that carry none of their own).
fn request_attributes(who: &Component, req: &Request) -> Option<Attributes> {
    let on = |verb: &str, o: &Object| {
        let m = o.meta();
        let ns = if o.kind().namespaced() && m.namespace.is_empty() {
            "default"
        } else {
            &m.namespace
        };
        Attributes::on(verb, o.kind(), ns, &m.name)
    };
    Some(match req {
        Request::Create { object, .. } => {
            let mut a = on("create", object);
            a.name.clear();
            a
        }
        Request::Update(o) => {
            // The autoscaler writes its target's replicas through the scale subresource.
            if who.writer == crate::client::writer::HPA_CONTROLLER {
                return Some(on("update", o).subresource("scale"));
            }
            let verb = match (who.writer.as_str(), o.kind()) {
                (
                    writer::REPLICASET_CONTROLLER
                    | writer::GARBAGE_COLLECTOR
                    | crate::client::writer::JOB_CONTROLLER,
                    Kind::Pod,
                ) => "patch",
                _ => "update",
            };
            let a = on(verb, o);
            if who.writer == writer::NAMESPACE_CONTROLLER && o.kind() == Kind::Namespace {
                a.subresource("finalize")
            } else {
                a
            }
        }
        Request::UpdateStatus(o) => on("update", o).subresource("status"),
        Request::Delete { kind, key, .. } => {
            Attributes::on("delete", *kind, &key.namespace, &key.name)
        }
        Request::Bind { key, .. } => {
            Attributes::on("create", Kind::Pod, &key.namespace, &key.name).subresource("binding")
        }
        Request::Evict { key } => {
            Attributes::on("create", Kind::Pod, &key.namespace, &key.name).subresource("eviction")
        }
        Request::Event { involved, .. } => {
            let ns = if involved.namespace.is_empty() {
                "default"
            } else {
                &involved.namespace
            };
            Attributes::on("create", Kind::Event, ns, "")
        }
        Request::SlowStart(_) => return None,
    })
}

/// `admitPodStatus` and friends: what a node may write (NodeRestriction).
fn node_restriction(store: &Store, node: &str, req: &Request) -> Result<(), String> {
    match req {
        Request::Create { object: Object::Pod(p), .. } => {
            if !p.metadata.annotations.contains_key("kubernetes.io/config.mirror") {
                return Err(format!(
                    "pod does not have \"kubernetes.io/config.mirror\" annotation, node \"{node}\" can only create mirror pods"
                ));
            }
            if p.spec.node_name != node {
                return Err(format!(
                    "node \"{node}\" can only create pods with spec.nodeName set to itself"
                ));
            }
            Ok(())
        }
        Request::Delete { kind: Kind::Pod, key, .. } => {
            let bound = store.get::<Pod>(key).is_some_and(|p| p.spec.node_name == node);
            if bound {
                Ok(())
            } else {
                Err(format!(
                    "node \"{node}\" can only delete pods with spec.nodeName set to itself"
                ))
            }
        }
        Request::UpdateStatus(Object::Pod(p)) => {
            let old = store.get::<Pod>(&ObjKey::of(&p.metadata));
            match old {
                Some(o) if o.spec.node_name == node => {
                    if o.metadata.labels != p.metadata.labels {
                        Err(format!("node \"{node}\" cannot update labels through pod status"))
                    } else {
                        Ok(())
                    }
                }
                _ => Err(format!(
                    "node \"{node}\" can only update pod status for pods with spec.nodeName set to itself"
                )),
            }
        }
        Request::Update(Object::Pod(_)) => Err(format!(
            "unexpected operation \"UPDATE\", node \"{node}\" can only create and delete mirror pods"
        )),
        Request::Evict { key } => {
            let bound = store.get::<Pod>(key).is_some_and(|p| p.spec.node_name == node);
            if bound {
                Ok(())
            } else {
                Err(format!(
                    "node {node} can only evict pods with spec.nodeName set to itself"
                ))
            }
        }
        Request::Create { object: Object::Node(n), .. }
        | Request::Update(Object::Node(n))
        | Request::UpdateStatus(Object::Node(n)) => {
            if n.metadata.name != node {
                return Err(format!(
                    "node \"{node}\" is not allowed to modify node \"{}\"",
                    n.metadata.name
                ));
            }
            Ok(())
        }
        Request::Delete { kind: Kind::Node, key, .. } if key.name != node => Err(format!(
            "node \"{node}\" is not allowed to modify node \"{}\"",
            key.name
        )),
        Request::Create { object: Object::Lease(l), .. }
            if l.metadata.namespace == "kube-node-lease" && l.metadata.name != node =>
        {
            Err("can only access node lease with the same name as the requesting node".to_string())
        }
        _ => Ok(()),
    }
}

impl Cluster {
    /// The shapes of the components' requests RBAC refused so far
    /// (`writer|verb|group|resource|subresource|namespace|name`), sorted: empty while
    /// every component is allowed what it does.
    pub fn component_refusals(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .authz_cache
            .iter()
            .filter(|(_, d)| d.is_err())
            .map(|(k, _)| k.clone())
            .collect();
        out.sort();
        out
    }

    /// Authorize a component's request (and, for a node, NodeRestriction): the 403 it
    /// gets, or Ok. kubectl's requests were authorized before they were sent; only
    /// NodeRestriction is checked here for a kubectl acting as a node.
    pub(super) fn authorize_request(
        &mut self,
        who: &Component,
        req: &Request,
    ) -> Result<(), ApiError> {
        if who.writer == writer::KUBECTL {
            let node = self
                .acting
                .as_ref()
                .and_then(|a| rbac::node_identity(&a.user).map(str::to_string));
            return match node {
                Some(n) => self.admit_node_restriction(&n, req),
                None => Ok(()),
            };
        }
        let Some(a) = request_attributes(who, req) else {
            return Ok(());
        };
        let node = who.writer.strip_prefix(writer::KUBELET_PREFIX);
        // The cache key is the writer and the request's shape: what the decision
        // depends on (a name only where a rule or the Node authorizer looks at it).
        let name_matters = a.resource == "leases" || (node.is_some() && a.resource == "nodes");
        let key = format!(
            "{}|{}|{}|{}|{}|{}|{}",
            who.writer,
            a.verb,
            a.api_group,
            a.resource,
            a.subresource,
            a.namespace,
            if name_matters { a.name.as_str() } else { "" }
        );
        // A node's reads of Pods follow the Pods' bindings, which change without an
        // RBAC write: decided each time.
        let cacheable = !(node.is_some()
            && a.resource == "pods"
            && a.subresource.is_empty()
            && a.verb == "get");
        let cached = if cacheable {
            self.authz_cache.get(&key).cloned()
        } else {
            None
        };
        let decision = match cached {
            Some(d) => d,
            None => {
                let Some(user) = component_user(who) else {
                    return Ok(());
                };
                let d = match rbac::authorize(&self.store, &user, &a) {
                    Decision::Allow(_) => Ok(()),
                    Decision::Deny(reason) => Err(reason),
                };
                if cacheable {
                    self.authz_cache.insert(key, d.clone());
                }
                d
            }
        };
        if let Err(reason) = decision {
            let user = component_user(who).unwrap_or_default();
            return Err(rbac::forbidden(&user, &a, &reason));
        }
        match node {
            Some(n) => self.admit_node_restriction(n, req),
            None => Ok(()),
        }
    }

    /// Whether `who` may record an Event in `namespace` (an Event recorded after a
    /// write, or about a refused one, is a request of its own).
    pub(super) fn may_record_event(&mut self, who: &Component, namespace: &str) -> bool {
        let ns = if namespace.is_empty() {
            "default"
        } else {
            namespace
        };
        let key = format!("{}|create||events||{ns}|", who.writer);
        if let Some(d) = self.authz_cache.get(&key) {
            return d.is_ok();
        }
        let Some(user) = component_user(who) else {
            return true;
        };
        let a = Attributes::on("create", Kind::Event, ns, "");
        let d = match rbac::authorize(&self.store, &user, &a) {
            Decision::Allow(_) => Ok(()),
            Decision::Deny(reason) => Err(reason),
        };
        let ok = d.is_ok();
        self.authz_cache.insert(key, d);
        ok
    }

    fn admit_node_restriction(&self, node: &str, req: &Request) -> Result<(), ApiError> {
        node_restriction(&self.store, node, req).map_err(|why| {
            let (kind, name) = match req {
                Request::Create { object, .. }
                | Request::Update(object)
                | Request::UpdateStatus(object) => (object.kind(), object.meta().name.clone()),
                Request::Delete { kind, key, .. } => (*kind, key.name.clone()),
                Request::Evict { key } | Request::Bind { key, .. } => (Kind::Pod, key.name.clone()),
                _ => (Kind::Pod, String::new()),
            };
            ApiError {
                code: 403,
                reason: "Forbidden",
                message: format!(
                    "{} \"{name}\" is forbidden: {why}",
                    kind.qualified_resource()
                ),
                kubectl_message: None,
            }
        })
    }

    /// An RBAC object changed: every cached decision may be wrong now.
    pub(super) fn rbac_changed(&mut self, kind: Kind) {
        if matches!(
            kind,
            Kind::Role | Kind::ClusterRole | Kind::RoleBinding | Kind::ClusterRoleBinding
        ) {
            self.authz_cache.clear();
        }
    }
}
