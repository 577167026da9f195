//! The resourcequota controller: keeps each ResourceQuota's `status` (`hard` copied
//! from the spec, `used` counted from the namespace's Pods).
//!
//! A quota is synced when it is created or its spec changes, and when a Pod in its
//! namespace stops counting (deleted, or terminal): the replenishment that frees room
//! for the next Pod. The admission adds each admitted Pod itself (`apiserver::quota`),
//! so the controller need not look on creates. And every quota is recounted every
//! five minutes (`--resource-quota-sync-period`), the full resync that corrects a
//! `status.used` anything else left wrong.
//!
//! Upstream: `pkg/controller/resourcequota/resource_quota_controller.go` (`syncResourceQuota`:
//! recalculate usage, update status when it differs) and `resource_quota_monitor.go`
//! (the replenishment of pods that are deleted or become terminal).

use super::{Controller, Ctx, Reconcile};
use crate::api::*;
use crate::apiserver::{quota, Change, ObjKey};
use crate::client::{writer, Component, Request};
use crate::time::{SimTime, SECOND};

/// `--resource-quota-sync-period`'s default: every quota is recounted this often.
pub const RESYNC_PERIOD: SimTime = 5 * 60 * SECOND;

/// Its timer: the periodic full resync.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResyncDue;

/// The resourcequota controller (its work queue is the cluster's).
#[derive(Clone, Debug, Default)]
pub struct ResourceQuotaController {
    /// A resync is pending (armed by the first quota; none while there is none, so
    /// a cluster without quotas has no timer).
    resync_armed: bool,
}

impl Controller for ResourceQuotaController {
    type Key = ObjKey;
    type Timer = ResyncDue;
    const WATCHES: &'static [Kind] = &[
        Kind::ResourceQuota,
        Kind::Pod,
        Kind::Service,
        Kind::PersistentVolumeClaim,
        Kind::ConfigMap,
        Kind::Secret,
    ];

    fn identity() -> Component {
        Component::named(writer::RESOURCE_QUOTA_CONTROLLER)
    }

    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, ResyncDue>) {
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
                if ch.new.is_some() && !self.resync_armed {
                    self.resync_armed = true;
                    ctx.after(ctx.now + RESYNC_PERIOD, ResyncDue);
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
    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, ResyncDue>) -> Reconcile {
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

    /// `Run`'s `wait.Until(rq.enqueueAll, resyncPeriod)`: every quota back in the queue.
    fn on_timer(&mut self, _: ResyncDue, ctx: &mut Ctx<'_, ObjKey, ResyncDue>) -> Vec<Request> {
        let all: Vec<ObjKey> = ctx.store.list::<ResourceQuota>().map(quota::key).collect();
        self.resync_armed = !all.is_empty();
        if self.resync_armed {
            ctx.after(ctx.now + RESYNC_PERIOD, ResyncDue);
        }
        for q in all {
            ctx.enqueue(q);
        }
        Vec::new()
    }

    /// A resync finds nothing to do most of the time: it does not keep the cluster busy.
    fn is_background(&self, _: &ResyncDue, _: &dyn Fn(&str) -> bool) -> bool {
        true
    }
}
