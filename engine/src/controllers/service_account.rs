//! The ServiceAccount controller: every active namespace has the `default`
//! ServiceAccount, created when the namespace appears and again when it is deleted.
//!
//! Upstream: `pkg/controller/serviceaccount/serviceaccounts_controller.go`
//! (`syncNamespace`: skip a namespace that is not Active; create each account of
//! `serviceAccountsToEnsure` the lister lacks, ignoring AlreadyExists).

use super::{Controller, Ctx, NoTimer, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, ObjKey};
use crate::client::{writer, Component, Request};

/// The ServiceAccount controller (stateless: its work queue is the cluster's).
#[derive(Clone, Debug, Default)]
pub struct ServiceAccountsController;

impl Controller for ServiceAccountsController {
    type Key = ObjKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[Kind::ServiceAccount, Kind::Namespace];

    fn identity() -> Component {
        Component::named(writer::SERVICE_ACCOUNT_CONTROLLER)
    }

    /// A namespace added or updated, or a ServiceAccount deleted: look at its namespace.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        match ch.kind {
            Kind::Namespace => {
                if let Some(n) = ch.new.as_deref() {
                    ctx.enqueue(ObjKey::new("", &n.meta().name));
                }
            }
            Kind::ServiceAccount if ch.new.is_none() => {
                if let Some(old) = ch.old.as_deref() {
                    ctx.enqueue(ObjKey::new("", &old.meta().namespace));
                }
            }
            _ => {}
        }
    }

    /// `syncNamespace`.
    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        let Some(ns) = ctx.store.get::<Namespace>(key) else {
            return Reconcile::default();
        };
        if ns.status.phase != "Active" || ns.metadata.is_deleting() {
            return Reconcile::default();
        }
        let account = ObjKey::new(&key.name, DEFAULT_SERVICE_ACCOUNT);
        if ctx.store.get::<ServiceAccount>(&account).is_some() {
            return Reconcile::default();
        }
        let sa = ServiceAccount {
            metadata: ObjectMeta {
                name: DEFAULT_SERVICE_ACCOUNT.into(),
                namespace: key.name.clone(),
                ..Default::default()
            },
            ..Default::default()
        };
        Reconcile {
            requests: vec![Request::Create {
                object: Object::ServiceAccount(sa),
                event: None,
            }],
            requeue_after: None,
        }
    }
}
