//! The Deployment controller: one ReplicaSet per pod template, rolled out by strategy.
//!
//! Upstream: `pkg/controller/deployment/deployment_controller.go` (`syncDeployment`),
//! split as upstream splits it: [`sync`] (`sync.go`: new ReplicaSet, scaling, status,
//! history cleanup), [`rolling`] (`rolling.go`), [`recreate`] (`recreate.go`), and
//! [`util`] (`util/deployment_util.go`). Rollback lives in the kubectl layer, as upstream.
//!
//! A reconcile works on copies of the Deployment and its ReplicaSets: each write it
//! decides is appended as a [`Request`] and applied to the copy, so later steps of the
//! same sync see it, exactly as upstream continues with the object its write returned.

pub mod progress;
pub mod recreate;
pub mod rolling;
pub mod sync;
pub mod util;

use super::{Controller, Ctx, NoTimer, Reconcile, Retry};
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::{controller_ref, event_ref, writer, Component, Request};
use crate::time::SimTime;

/// The Deployment controller's state.
#[derive(Clone, Debug, Default)]
pub struct DeploymentController {
    /// Deployments whose rollout is still within its progress deadline: a check is
    /// due when the deadline passes (the live set behind those requeues).
    pub awaiting_deadline: std::collections::BTreeSet<ObjKey>,
}

/// The working state of one sync.
pub struct SyncCtx<'a> {
    /// The informer cache.
    pub store: &'a Store,
    /// The Deployment as this sync has written it so far.
    pub d: Deployment,
    /// Simulated now.
    pub now: SimTime,
    /// Requests decided so far.
    pub requests: Vec<Request>,
    /// Look again after this long (a stuck rollout's deadline).
    pub requeue_after: Option<SimTime>,
}

impl SyncCtx<'_> {
    /// Record an Event on the Deployment.
    pub fn event(&mut self, type_: EventType, reason: &str, message: String) {
        self.requests.push(Request::Event {
            involved: event_ref(Kind::Deployment, &self.d.metadata),
            type_,
            reason: reason.into(),
            message,
        });
    }
}

impl Controller for DeploymentController {
    type Key = ObjKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[Kind::Deployment, Kind::ReplicaSet, Kind::Pod];
    /// Its requeues are progress-deadline checks, counted by `awaiting_deadline`.
    const RETRY: Retry = Retry {
        requeue_is_background: true,
        ..Retry::DEFAULT
    };

    fn identity() -> Component {
        Component::named(writer::DEPLOYMENT_CONTROLLER)
    }

    /// Informer handler: Deployments themselves, their ReplicaSets (by controller
    /// ownerReference), and Pod deletions (Recreate waits for old Pods to be gone).
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        let (store, old, new) = (ctx.store, ch.old.as_deref(), ch.new.as_deref());
        match ch.kind {
            Kind::Deployment => {
                if let Some(o) = new.or(old) {
                    ctx.enqueue(ObjKey::of(o.meta()));
                }
            }
            Kind::ReplicaSet => {
                for o in [old, new].into_iter().flatten() {
                    let meta = o.meta();
                    match meta.controller_ref() {
                        Some(r) if r.kind == "Deployment" => {
                            ctx.enqueue(ObjKey::new(&meta.namespace, &r.name));
                        }
                        Some(_) => {}
                        // An orphan: every Deployment that selects it may adopt it
                        // (`addReplicaSet` / `updateReplicaSet`: getDeploymentsForReplicaSet).
                        None => {
                            for d in store.list_ns::<Deployment>(&meta.namespace) {
                                if !d.spec.selector.is_empty()
                                    && d.spec.selector.matches(&meta.labels)
                                {
                                    ctx.enqueue(ObjKey::of(&d.metadata));
                                }
                            }
                        }
                    }
                }
            }
            // Recreate waits for old Pods to be gone: a Pod deletion wakes its Deployment.
            Kind::Pod if new.is_none() => {
                if let Some(o) = old {
                    let meta = o.meta();
                    let rs = meta.controller_ref().and_then(|r| {
                        store.get::<ReplicaSet>(&ObjKey::new(&meta.namespace, &r.name))
                    });
                    if let Some(r) = rs.and_then(|rs| rs.metadata.controller_ref()) {
                        if r.kind == "Deployment" {
                            ctx.enqueue(ObjKey::new(&meta.namespace, &r.name));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        let r = self.sync_deployment(ctx.store, key, ctx.now);
        // A rollout within its progress deadline is work still to come.
        if r.requeue_after.is_some() {
            self.awaiting_deadline.insert(key.clone());
        } else {
            self.awaiting_deadline.remove(key);
        }
        r
    }

    fn is_busy(&self) -> bool {
        !self.awaiting_deadline.is_empty()
    }
}

impl DeploymentController {
    /// `syncDeployment`: deleting → status only; paused or scaling event → `sync`;
    /// otherwise a rollout step of the Deployment's strategy.
    pub fn sync_deployment(&self, store: &Store, key: &ObjKey, now: SimTime) -> Reconcile {
        let Some(d) = store.get::<Deployment>(key) else {
            return Reconcile::default();
        };
        let mut ctx = SyncCtx {
            store,
            d: d.clone(),
            now,
            requests: Vec::new(),
            requeue_after: None,
        };
        if d.spec.selector.is_empty() {
            ctx.event(
                EventType::Warning,
                "SelectingAll",
                "This deployment is selecting all pods. A non-empty selector is required.".into(),
            );
            if d.status.observed_generation < d.metadata.generation {
                let mut s = d.clone();
                s.status.observed_generation = d.metadata.generation;
                ctx.requests
                    .push(Request::UpdateStatus(Object::Deployment(Box::new(s))));
            }
            return Reconcile {
                requests: ctx.requests,
                requeue_after: None,
            };
        }
        let (rss, claims) = claim_replica_sets(store, d);
        ctx.requests.extend(claims);
        if !d.metadata.is_deleting() {
            sync::check_paused_conditions(&mut ctx);
        }
        if d.metadata.is_deleting() {
            sync::sync_status_only(&mut ctx, rss);
        } else if d.spec.paused || sync::is_scaling_event(&ctx.d, &rss) {
            sync::sync(&mut ctx, rss);
        } else if util::is_rolling(d) {
            rolling::rollout_rolling(&mut ctx, rss);
        } else {
            recreate::rollout_recreate(&mut ctx, store, rss);
        }
        Reconcile {
            requests: ctx.requests,
            requeue_after: ctx.requeue_after,
        }
    }
}

/// `getReplicaSetsForDeployment` with `ClaimReplicaSets` (controller_ref_manager.go):
/// the ReplicaSets `d` controls, oldest first, with the requests that adopt orphans its
/// selector matches and release owned ones it no longer matches. A Deployment being
/// deleted neither adopts nor releases; a ReplicaSet being deleted is not adopted.
pub fn claim_replica_sets(store: &Store, d: &Deployment) -> (Vec<ReplicaSet>, Vec<Request>) {
    let mut requests = Vec::new();
    let deleting = d.metadata.is_deleting();
    let sel = &d.spec.selector;
    let mut rss: Vec<ReplicaSet> = Vec::new();
    for rs in owned_replica_sets(store, d) {
        if deleting || sel.matches(&rs.metadata.labels) {
            rss.push(rs);
        } else if !rs.metadata.is_deleting() {
            let mut released = rs.clone();
            released
                .metadata
                .owner_references
                .retain(|r| r.uid != d.metadata.uid);
            requests.push(Request::Update(Object::ReplicaSet(Box::new(released))));
        }
    }
    if !deleting {
        for rs in store.orphans::<ReplicaSet>(&d.metadata.namespace) {
            if !rs.metadata.is_deleting() && sel.matches(&rs.metadata.labels) {
                let mut adopted = rs.clone();
                adopted.metadata.owner_references.push(controller_ref(
                    Kind::Deployment,
                    &d.metadata.name,
                    &d.metadata.uid,
                ));
                requests.push(Request::Update(Object::ReplicaSet(Box::new(
                    adopted.clone(),
                ))));
                rss.push(adopted);
            }
        }
    }
    crate::sorting::sort_by(&mut rss, |a, b| {
        (a.metadata.created_ms, &a.metadata.name).cmp(&(b.metadata.created_ms, &b.metadata.name))
    });
    (rss, requests)
}

/// ReplicaSets controlled by `d`, oldest first (creationTimestamp, then name).
pub fn owned_replica_sets(store: &Store, d: &Deployment) -> Vec<ReplicaSet> {
    let mut rss: Vec<ReplicaSet> = store
        .dependents(&d.metadata.uid)
        .filter(|(k, _)| *k == Kind::ReplicaSet)
        .filter_map(|(_, key)| store.get::<ReplicaSet>(key))
        .filter(|rs| {
            rs.metadata.controller_ref().map(|r| r.uid.as_str()) == Some(d.metadata.uid.as_str())
        })
        .cloned()
        .collect();
    crate::sorting::sort_by(&mut rss, |a, b| {
        (a.metadata.created_ms, &a.metadata.name).cmp(&(b.metadata.created_ms, &b.metadata.name))
    });
    rss
}

#[cfg(test)]
mod tests;
