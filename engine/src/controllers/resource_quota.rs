//! The resourcequota controller: keeps each ResourceQuota's `status` (`hard` copied
//! from the spec, `used` counted from the namespace's Pods).
//!
//! A quota is synced when it is created or its spec changes, and when a Pod in its
//! namespace stops counting (deleted, or terminal): the replenishment that frees room
//! for the next Pod. The admission adds each admitted Pod itself (`apiserver::quota`),
//! so the controller need not look on creates.
//!
//! Upstream: `pkg/controller/resourcequota/resource_quota_controller.go` (`syncResourceQuota`:
//! recalculate usage, update status when it differs) and `resource_quota_monitor.go`
//! (the replenishment of pods that are deleted or become terminal).

use super::{Controller, Ctx, NoTimer, Reconcile};
use crate::api::*;
use crate::apiserver::{quota, Change, ObjKey};
use crate::client::{writer, Component, Request};

/// The resourcequota controller (stateless: its work queue is the cluster's).
#[derive(Clone, Debug, Default)]
pub struct ResourceQuotaController;

impl Controller for ResourceQuotaController {
    type Key = ObjKey;
    type Timer = NoTimer;

    fn identity() -> Component {
        Component::named(writer::RESOURCE_QUOTA_CONTROLLER)
    }

    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        match ch.kind {
            Kind::ResourceQuota => {
                let spec_changed = match (ch.old.as_deref(), ch.new.as_deref()) {
                    (_, None) => false,
                    (None, Some(_)) => true,
                    (Some(o), Some(n)) => o.spec_differs(n),
                };
                if spec_changed {
                    ctx.enqueue(ch.key.clone());
                }
            }
            Kind::Pod => {
                // Most clusters and namespaces have no quota: nothing to count for them.
                if ctx.store.count(Kind::ResourceQuota) == 0
                    || ctx
                        .store
                        .list_ns::<ResourceQuota>(&ch.key.namespace)
                        .next()
                        .is_none()
                {
                    return;
                }
                let now = ctx.now;
                let counted = |o: Option<&Object>| match o {
                    Some(Object::Pod(p)) => quota::counts(p, now),
                    _ => false,
                };
                // Replenishment: a Pod that counted no longer does.
                if counted(ch.old.as_deref()) && !counted(ch.new.as_deref()) {
                    let quotas: Vec<ObjKey> = ctx
                        .store
                        .list_ns::<ResourceQuota>(&ch.key.namespace)
                        .map(quota::key)
                        .collect();
                    for q in quotas {
                        ctx.enqueue(q);
                    }
                }
            }
            _ => {}
        }
    }

    /// `syncResourceQuota`: count the namespace's usage; write the status if it differs.
    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        let Some(q) = ctx.store.get::<ResourceQuota>(key) else {
            return Reconcile::default();
        };
        let status = ResourceQuotaStatus {
            hard: q.spec.hard.clone(),
            used: quota::namespace_usage(ctx.store, q, ctx.now),
        };
        if status == q.status {
            return Reconcile::default();
        }
        let mut q = q.clone();
        q.status = status;
        Reconcile {
            requests: vec![Request::blind_update_status(q)],
            requeue_after: None,
        }
    }
}
