//! The namespace controller: empties a terminating namespace, then finalizes it.
//!
//! Upstream: `pkg/controller/namespace/namespace_controller.go` (`syncNamespaceFromKey`)
//! and `pkg/controller/namespace/deletion/namespaced_resources_deleter.go` (`Delete`:
//! delete every object of every namespaced kind, wait until none is left — upstream
//! requeues with an estimate, here every second — then remove the `kubernetes`
//! finalizer so the API server can remove the namespace).

use super::{Controller, Ctx, NoTimer, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, DeleteOptions, ObjKey};
use crate::client::{writer, Component, Request};
use crate::time::{SimTime, SECOND};

/// How soon a namespace that still holds objects is looked at again.
pub const RECHECK: SimTime = SECOND;

/// The namespace controller (stateless: its work queue is the cluster's).
#[derive(Clone, Debug, Default)]
pub struct NamespaceController;

impl Controller for NamespaceController {
    type Key = ObjKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[Kind::Namespace];

    fn identity() -> Component {
        Component::named(writer::NAMESPACE_CONTROLLER)
    }

    /// A namespace that is being deleted needs emptying.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        if ch.kind != Kind::Namespace {
            return;
        }
        if let Some(n) = ch.new.as_deref().filter(|n| n.meta().is_deleting()) {
            ctx.enqueue(ObjKey::of(n.meta()));
        }
    }

    /// `NamespacedResourcesDeleter.Delete`: delete everything in it, then finalize.
    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        let store = ctx.store;
        let Some(ns) = store.get::<Namespace>(key) else {
            return Reconcile::default();
        };
        if !ns.metadata.is_deleting() {
            return Reconcile::default();
        }
        let mut remaining = 0;
        let mut requests = Vec::new();
        let kinds = Kind::ALL.into_iter().chain(store.custom_kinds());
        for kind in kinds.filter(|k| k.namespaced()) {
            for o in store
                .list_objects(kind)
                .filter(|o| o.meta().namespace == key.name)
            {
                remaining += 1;
                if !o.meta().is_deleting() {
                    requests.push(Request::Delete {
                        kind,
                        key: ObjKey::of(o.meta()),
                        options: DeleteOptions::default(),
                        event: None,
                    });
                }
            }
        }
        if remaining == 0 {
            let mut n = ns.clone();
            n.spec.finalizers.clear();
            requests.push(Request::blind_update(n));
        }
        Reconcile {
            requests,
            requeue_after: (remaining > 0).then_some(RECHECK),
        }
    }
}
