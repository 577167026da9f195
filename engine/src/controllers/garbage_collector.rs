//! The garbage collector: dependents whose owners are gone are deleted; `orphan` and
//! `foregroundDeletion` finalizers are honoured.
//!
//! Upstream: `pkg/controller/garbagecollector/garbagecollector.go` (`attemptToDeleteItem`,
//! `orphanDependents`, `processDeletingDependentsItem`). Upstream keeps its own graph of
//! owners and dependents; here the API server's owner-uid index plays that role.

use super::{Reconcile, WorkQueue};
use crate::api::*;
use crate::apiserver::{DeleteOptions, ObjKey, Store, WatchType};
use crate::client::Request;

/// The garbage collector's state: its work queue of (kind, key).
#[derive(Clone, Debug, Default)]
pub struct GarbageCollector {
    /// Objects to look at.
    pub queue: WorkQueue<(Kind, ObjKey)>,
}

fn has_finalizer(meta: &ObjectMeta, f: &str) -> bool {
    meta.finalizers.iter().any(|x| x == f)
}

impl GarbageCollector {
    /// Graph update: a deleted owner's dependents, a deleting owner with a GC
    /// finalizer, a deleted dependent of a foreground-deleting owner, and objects
    /// created with owners that do not exist.
    pub fn on_change(
        &mut self,
        store: &Store,
        type_: WatchType,
        kind: Kind,
        old: Option<&Object>,
        new: Option<&Object>,
    ) {
        match (type_, old, new) {
            (WatchType::Deleted, Some(o), _) => {
                for dep in store.dependents(&o.meta().uid) {
                    self.queue.add(dep.clone());
                }
                for r in &o.meta().owner_references {
                    if let Some(owner) = store.by_uid(&r.uid) {
                        self.queue.add(owner.clone());
                    }
                }
            }
            (_, _, Some(n)) => {
                let m = n.meta();
                if m.is_deleting()
                    && (has_finalizer(m, "orphan") || has_finalizer(m, "foregroundDeletion"))
                {
                    self.queue.add((kind, ObjKey::of(m)));
                }
                if m.owner_references
                    .iter()
                    .any(|r| store.by_uid(&r.uid).is_none())
                {
                    self.queue.add((kind, ObjKey::of(m)));
                }
            }
            _ => {}
        }
    }

    /// Process one object: finalizers if it is a deleting owner, else check its owners.
    pub fn attempt_to_delete_item(&self, store: &Store, kind: Kind, key: &ObjKey) -> Reconcile {
        let Some(obj) = store.get_object(kind, key) else {
            return Reconcile::default();
        };
        let meta = obj.meta();
        let mut requests = Vec::new();
        if meta.is_deleting() && has_finalizer(meta, "orphan") {
            // orphanDependents: drop our ownerReference from every dependent, then the finalizer.
            for (dk, dkey) in store.dependents(&meta.uid) {
                if let Some(dep) = store.get_object(*dk, dkey) {
                    let mut dep = dep.clone();
                    dep.meta_mut()
                        .owner_references
                        .retain(|r| r.uid != meta.uid);
                    dep.meta_mut().resource_version.clear();
                    requests.push(Request::Update(dep));
                }
            }
            let mut owner = obj.clone();
            owner.meta_mut().finalizers.retain(|f| f != "orphan");
            owner.meta_mut().resource_version.clear();
            requests.push(Request::Update(owner));
            return Reconcile {
                requests,
                requeue_after: None,
            };
        }
        if meta.is_deleting() && has_finalizer(meta, "foregroundDeletion") {
            let mut blocking = false;
            for (dk, dkey) in store.dependents(&meta.uid) {
                let Some(dep) = store.get_object(*dk, dkey) else {
                    continue;
                };
                let blocks = dep
                    .meta()
                    .owner_references
                    .iter()
                    .any(|r| r.uid == meta.uid && r.block_owner_deletion == Some(true));
                if blocks {
                    blocking = true;
                }
                if !dep.meta().is_deleting() {
                    requests.push(Request::Delete {
                        kind: *dk,
                        key: dkey.clone(),
                        options: DeleteOptions {
                            propagation: Some("Foreground".into()),
                            precondition_uid: Some(dep.meta().uid.clone()),
                            ..Default::default()
                        },
                        event: None,
                    });
                }
            }
            if !blocking {
                let mut owner = obj.clone();
                owner
                    .meta_mut()
                    .finalizers
                    .retain(|f| f != "foregroundDeletion");
                owner.meta_mut().resource_version.clear();
                requests.push(Request::Update(owner));
            }
            return Reconcile {
                requests,
                requeue_after: None,
            };
        }
        if meta.owner_references.is_empty() {
            return Reconcile::default();
        }
        let (solid, dangling): (Vec<&OwnerReference>, Vec<&OwnerReference>) = meta
            .owner_references
            .iter()
            .partition(|r| store.by_uid(&r.uid).is_some());
        if solid.is_empty() {
            if !meta.is_deleting() {
                requests.push(Request::Delete {
                    kind,
                    key: key.clone(),
                    options: DeleteOptions {
                        propagation: Some("Background".into()),
                        precondition_uid: Some(meta.uid.clone()),
                        ..Default::default()
                    },
                    event: None,
                });
            }
        } else if !dangling.is_empty() {
            let mut o = obj.clone();
            o.meta_mut()
                .owner_references
                .retain(|r| store.by_uid(&r.uid).is_some());
            o.meta_mut().resource_version.clear();
            requests.push(Request::Update(o));
        }
        Reconcile {
            requests,
            requeue_after: None,
        }
    }
}
