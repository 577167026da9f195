//! The TTL-after-finished controller: deletes a finished Job `ttlSecondsAfterFinished`
//! after it finished, with its Pods (Foreground).
//!
//! Upstream: `pkg/controller/ttlafterfinished/ttlafterfinished_controller.go`
//! (`addJob`/`updateJob → processJob → processTTL → needsCleanup`). It records no
//! Events; the Job's deletion in the watch log is what a learner sees.

use super::{Controller, Ctx, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, DeleteOptions, ObjKey};
use crate::client::writer;
use crate::client::{Component, Request};
use crate::time::{after_seconds, SimTime};

/// The controller (stateless; its timers are the clock's).
#[derive(Clone, Debug, Default)]
pub struct TtlAfterFinishedController;

/// A Job's TTL expires.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expire(pub ObjKey);

/// `needsCleanup`: a TTL is set and the Job finished; the time it finished.
pub fn finished_at(job: &Job) -> Option<SimTime> {
    job.spec.ttl_seconds_after_finished?;
    job.is_finished().map(|c| c.transition_ms)
}

impl Controller for TtlAfterFinishedController {
    type Key = ObjKey;
    type Timer = Expire;
    const WATCHES: &'static [Kind] = &[Kind::Job];

    fn identity() -> Component {
        Component::named(writer::TTL_AFTER_FINISHED_CONTROLLER)
    }

    /// `addJob` / `updateJob`: a Job not being deleted that needs cleanup.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, Expire>) {
        if ch.kind != Kind::Job {
            return;
        }
        if let Some(Object::Job(j)) = ch.new.as_deref() {
            if !j.metadata.is_deleting() && finished_at(j).is_some() {
                ctx.enqueue(ObjKey::of(&j.metadata));
            }
        }
    }

    /// `processTTL`: wait until finish + TTL, then delete (uid precondition).
    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, Expire>) -> Reconcile {
        let mut out = Reconcile::default();
        let Some(job) = ctx.store.get::<Job>(key) else {
            return out;
        };
        let (Some(done), Some(ttl)) = (finished_at(job), job.spec.ttl_seconds_after_finished)
        else {
            return out;
        };
        if job.metadata.is_deleting() {
            return out;
        }
        let expire = after_seconds(done, ttl);
        if expire > ctx.now {
            ctx.after(expire, Expire(key.clone()));
            return out;
        }
        out.requests.push(Request::Delete {
            kind: Kind::Job,
            key: key.clone(),
            options: DeleteOptions {
                propagation: Some("Foreground".into()),
                precondition_uid: Some(job.metadata.uid.clone()),
                ..Default::default()
            },
            event: None,
        });
        out
    }

    fn on_timer(&mut self, timer: Expire, ctx: &mut Ctx<'_, ObjKey, Expire>) -> Vec<Request> {
        ctx.enqueue(timer.0);
        Vec::new()
    }
}
