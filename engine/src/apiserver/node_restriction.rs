//! The NodeRestriction admission plugin: a kubelet (`system:node:<name>` in
//! `system:nodes`) may write only its own Node, its own Lease and the Pods bound to it,
//! and no Pod but a mirror Pod of its own.
//!
//! Upstream: `plugin/pkg/admission/noderestriction/admission.go` (`admitPod`,
//! `admitPodStatus`, `admitPodEviction`, `admitNode`, `admitLease`).

use super::request::{ApiRequest, Body, Verb};
use super::{ApiError, ObjKey, Store};
use crate::api::*;

/// Whether `node` may send `req`: the 403 it gets, or Ok.
pub fn admit(store: &Store, node: &str, req: &ApiRequest) -> Result<(), ApiError> {
    check(store, node, req).map_err(|why| {
        let name = match &req.body {
            Body::Object(o) => o.meta().name.clone(),
            _ => req.name.clone(),
        };
        ApiError {
            code: 403,
            reason: "Forbidden",
            message: format!(
                "{} \"{name}\" is forbidden: {why}",
                req.kind.qualified_resource()
            ),
            kubectl_message: None,
            details: None,
        }
    })
}

/// What a node may write, and why not.
fn check(store: &Store, node: &str, req: &ApiRequest) -> Result<(), String> {
    let bound_here = |key: &ObjKey| {
        store
            .get::<Pod>(key)
            .is_some_and(|p| p.spec.node_name == node)
    };
    let key = ObjKey::new(&req.namespace, &req.name);
    match (req.kind, req.verb, req.subresource, &req.body) {
        (Kind::Pod, Verb::Create, "", Body::Object(Object::Pod(p))) => {
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
        (Kind::Pod, Verb::Delete, "", _) => {
            if bound_here(&key) {
                Ok(())
            } else {
                Err(format!(
                    "node \"{node}\" can only delete pods with spec.nodeName set to itself"
                ))
            }
        }
        (Kind::Pod, Verb::Update | Verb::Patch, "status", Body::Object(Object::Pod(p))) => {
            match store.get::<Pod>(&ObjKey::of(&p.metadata)) {
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
        (Kind::Pod, Verb::Update | Verb::Patch, "", _) => Err(format!(
            "unexpected operation \"UPDATE\", node \"{node}\" can only create and delete mirror pods"
        )),
        (Kind::Pod, Verb::Create, "eviction", _) => {
            if bound_here(&key) {
                Ok(())
            } else {
                Err(format!(
                    "node {node} can only evict pods with spec.nodeName set to itself"
                ))
            }
        }
        (Kind::Node, Verb::Create | Verb::Update | Verb::Patch, _, Body::Object(n)) => {
            if n.meta().name != node {
                return Err(format!(
                    "node \"{node}\" is not allowed to modify node \"{}\"",
                    n.meta().name
                ));
            }
            Ok(())
        }
        (Kind::Node, Verb::Delete, _, _) if req.name != node => Err(format!(
            "node \"{node}\" is not allowed to modify node \"{}\"",
            req.name
        )),
        (Kind::Lease, Verb::Create, "", Body::Object(l))
            if l.meta().namespace == "kube-node-lease" && l.meta().name != node =>
        {
            Err("can only access node lease with the same name as the requesting node".to_string())
        }
        _ => Ok(()),
    }
}
