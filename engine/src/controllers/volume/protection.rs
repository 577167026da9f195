//! The two protection controllers (`pkg/controller/volume/pvcprotection` and
//! `pvprotection`): a claim keeps its finalizer while a Pod still uses it, a volume
//! while it is bound.

use super::{PVC_PROTECTION, PV_PROTECTION};
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::writer;
use crate::client::{Component, Request};
use crate::controllers::{Controller, Ctx, NoTimer, Reconcile};

/// Pods that mount the claim `ns/name` and may still use it (not finished).
fn claim_in_use(store: &Store, ns: &str, name: &str) -> bool {
    store.list::<Pod>().any(|p| {
        p.metadata.namespace == ns
            && !p.is_terminal()
            && pod_volumes(&p.spec)
                .iter()
                .any(|(_, s)| matches!(s, VolumeSource::Claim(c) if c == name))
    })
}

/// The PVC protection controller: a deleted claim keeps its finalizer while a Pod
/// still uses it.
#[derive(Clone, Debug, Default)]
pub struct PvcProtectionController;

impl Controller for PvcProtectionController {
    type Key = ObjKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[Kind::PersistentVolumeClaim, Kind::Pod];

    fn identity() -> Component {
        Component::named(writer::PVC_PROTECTION_CONTROLLER)
    }

    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        match ch.kind {
            Kind::PersistentVolumeClaim => {
                if let Some(Object::PersistentVolumeClaim(c)) = ch.new.as_deref() {
                    if c.metadata.is_deleting()
                        && c.metadata.finalizers.iter().any(|f| f == PVC_PROTECTION)
                    {
                        ctx.enqueue(ObjKey::of(&c.metadata));
                    }
                }
            }
            Kind::Pod => {
                // A Pod gone or finished may free its claims.
                let Some(Object::Pod(p)) = ch.old.as_deref() else {
                    return;
                };
                let gone = match ch.new.as_deref() {
                    None => true,
                    Some(Object::Pod(n)) => n.is_terminal() && !p.is_terminal(),
                    _ => false,
                };
                if !gone || p.spec.volumes.is_empty() {
                    return;
                }
                for (_, s) in pod_volumes(&p.spec) {
                    if let VolumeSource::Claim(c) = s {
                        let key = ObjKey::new(&p.metadata.namespace, &c);
                        if ctx
                            .store
                            .get::<PersistentVolumeClaim>(&key)
                            .is_some_and(|c| c.metadata.is_deleting())
                        {
                            ctx.enqueue(key);
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        let mut out = Reconcile::default();
        let Some(c) = ctx.store.get::<PersistentVolumeClaim>(key) else {
            return out;
        };
        if !c.metadata.is_deleting()
            || !c.metadata.finalizers.iter().any(|f| f == PVC_PROTECTION)
            || claim_in_use(ctx.store, &key.namespace, &key.name)
        {
            return out;
        }
        let mut c = c.clone();
        c.metadata.finalizers.retain(|f| f != PVC_PROTECTION);
        out.requests
            .push(Request::Update(Object::PersistentVolumeClaim(Box::new(c))));
        out
    }
}

/// The PV protection controller: a deleted volume keeps its finalizer while Bound.
#[derive(Clone, Debug, Default)]
pub struct PvProtectionController;

impl Controller for PvProtectionController {
    type Key = ObjKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[Kind::PersistentVolume];

    fn identity() -> Component {
        Component::named(writer::PV_PROTECTION_CONTROLLER)
    }

    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        if let Some(Object::PersistentVolume(v)) = ch.new.as_deref() {
            if v.metadata.is_deleting() && v.metadata.finalizers.iter().any(|f| f == PV_PROTECTION)
            {
                ctx.enqueue(ObjKey::of(&v.metadata));
            }
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        let mut out = Reconcile::default();
        let Some(v) = ctx.store.get::<PersistentVolume>(key) else {
            return out;
        };
        if !v.metadata.is_deleting() || v.status.phase == "Bound" {
            return out;
        }
        let mut v = v.clone();
        v.metadata.finalizers.retain(|f| f != PV_PROTECTION);
        out.requests
            .push(Request::Update(Object::PersistentVolume(Box::new(v))));
        out
    }
}
