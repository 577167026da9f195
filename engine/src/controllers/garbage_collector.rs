//! The garbage collector: dependents whose owners are gone are deleted; `orphan` and
//! `foregroundDeletion` finalizers are honoured.
//!
//! Upstream: `pkg/controller/garbagecollector/garbagecollector.go` (`attemptToDeleteItem`,
//! `orphanDependents`, `processDeletingDependentsItem`). Upstream keeps its own graph of
//! owners and dependents; here the API server's owner-uid index plays that role.

use super::{Controller, Ctx, NoTimer, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, DeleteOptions, ObjKey, Store, WatchType};
use crate::client::{writer, Component, Request};

/// A work-queue key of the garbage collector: the object's kind and key (it watches
/// every kind, as upstream's graph holds every owner and dependent).
pub type GcKey = (Kind, ObjKey);

/// The garbage collector (its graph is the API server's owner-uid index; its work
/// queue is the cluster's).
#[derive(Clone, Debug, Default)]
pub struct GarbageCollector;

fn has_finalizer(meta: &ObjectMeta, f: &str) -> bool {
    meta.finalizers.iter().any(|x| x == f)
}

/// The garbage collector's metadata informers: every resource the API server serves
/// that can be deleted, except Events (`ignoredResources` in upstream's
/// `garbagecollector.go`).
const GC_WATCHES: &[Kind] = &{
    let mut out = [Kind::Deployment; Kind::ALL.len() - 1];
    let (mut i, mut j) = (0, 0);
    while i < Kind::ALL.len() {
        if !matches!(Kind::ALL[i], Kind::Event) {
            out[j] = Kind::ALL[i];
            j += 1;
        }
        i += 1;
    }
    out
};

impl Controller for GarbageCollector {
    type Key = GcKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = GC_WATCHES;

    fn identity() -> Component {
        Component {
            writer: writer::GARBAGE_COLLECTOR.into(),
            event_component: "garbage-collector-controller".into(),
            host: String::new(),
        }
    }

    /// Graph update: a deleted owner's dependents, a deleting owner with a GC
    /// finalizer, a deleted dependent of a foreground-deleting owner, and objects
    /// created with owners that do not exist.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, GcKey, NoTimer>) {
        let (store, kind) = (ctx.store, ch.kind);
        match (ch.type_, ch.old.as_deref(), ch.new.as_deref()) {
            (WatchType::Deleted, Some(o), _) => {
                for dep in store.dependents(&o.meta().uid) {
                    ctx.enqueue(dep.clone());
                }
                for r in &o.meta().owner_references {
                    if let Some(owner) = store.by_uid(&r.uid) {
                        ctx.enqueue(owner.clone());
                    }
                }
            }
            (_, _, Some(n)) => {
                let m = n.meta();
                if m.is_deleting()
                    && (has_finalizer(m, "orphan") || has_finalizer(m, "foregroundDeletion"))
                {
                    ctx.enqueue((kind, ObjKey::of(m)));
                }
                if m.owner_references
                    .iter()
                    .any(|r| store.by_uid(&r.uid).is_none())
                {
                    ctx.enqueue((kind, ObjKey::of(m)));
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, (kind, key): &GcKey, ctx: &mut Ctx<'_, GcKey, NoTimer>) -> Reconcile {
        self.attempt_to_delete_item(ctx.store, *kind, key)
    }
}

impl GarbageCollector {
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
                    requests.push(Request::blind_update(dep));
                }
            }
            let mut owner = obj.clone();
            owner.meta_mut().finalizers.retain(|f| f != "orphan");
            requests.push(Request::blind_update(owner));
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
                requests.push(Request::blind_update(owner));
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
            requests.push(Request::blind_update(o));
        }
        Reconcile {
            requests,
            requeue_after: None,
        }
    }
}
