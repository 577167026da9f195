//! A GitOps agent (Argo CD / Flux style), for the drift lessons: every `every` ms it
//! re-applies the spec Git declares for a Deployment, undoing manual changes, under its
//! own manager name. Not part of Kubernetes; it talks to the API server like any client.

use super::{Controller, Ctx};
use crate::api::*;
use crate::apiserver::{Change, ObjKey};
use crate::client::{writer, Component, Request};
use crate::time::SimTime;
use std::collections::{BTreeMap, BTreeSet};

/// What Git declares for one Deployment, and how often it is synced.
#[derive(Clone, Debug, PartialEq)]
pub struct GitOpsSync {
    /// The declared spec (what the Git repository says).
    pub declared: DeploymentSpec,
    /// Sync interval.
    pub every: SimTime,
    /// Which chain of sync timers is this sync's: a timer of an earlier `on` (before
    /// an `off`) finds another round and ends.
    pub round: u64,
}

/// The agent's timer: sync this Deployment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SyncDue(pub ObjKey, pub u64);

/// The agent: its syncs by Deployment.
#[derive(Clone, Debug, Default)]
pub struct GitOpsController {
    /// Syncs by Deployment.
    pub syncs: BTreeMap<ObjKey, GitOpsSync>,
    /// The synced Deployments whose live spec differs from Git's: their next sync
    /// will write, so it is foreground work (`sim settle` waits for it).
    drifted: BTreeSet<ObjKey>,
    /// The drifted set changed since the cluster last asked.
    drift_changed: bool,
    /// Rounds handed out so far.
    rounds: u64,
}

impl GitOpsController {
    /// Start syncing `key` to `declared` every `every` ms; returns when the first sync
    /// is due — None when it was already synced: its pending sync then goes on, with
    /// the new declaration and interval from its next round (two chains of syncs would
    /// double every sync).
    pub fn start(
        &mut self,
        key: ObjKey,
        declared: DeploymentSpec,
        every: SimTime,
        now: SimTime,
    ) -> Option<(SimTime, SyncDue)> {
        // What Git declares is the live spec: no drift.
        self.set_drifted(&key, false);
        let (round, first) = match self.syncs.get(&key) {
            Some(g) => (g.round, None),
            None => {
                self.rounds += 1;
                let due = SyncDue(key.clone(), self.rounds);
                (self.rounds, Some((now.saturating_add(every), due)))
            }
        };
        self.syncs.insert(
            key,
            GitOpsSync {
                declared,
                every,
                round,
            },
        );
        first
    }

    /// Stop syncing `key` (its pending timer then finds nothing to do).
    pub fn stop(&mut self, key: &ObjKey) {
        self.syncs.remove(key);
        self.set_drifted(key, false);
    }

    fn set_drifted(&mut self, key: &ObjKey, drifted: bool) {
        let changed = if drifted {
            self.drifted.insert(key.clone())
        } else {
            self.drifted.remove(key)
        };
        self.drift_changed |= changed;
    }

    /// Whether a synced Deployment drifted or came back since the last call: its
    /// pending sync changed from background to foreground work or back.
    pub fn take_drift_changed(&mut self) -> bool {
        std::mem::take(&mut self.drift_changed)
    }
}

impl Controller for GitOpsController {
    type Key = ObjKey;
    type Timer = SyncDue;
    const WATCHES: &'static [Kind] = &[Kind::Deployment];

    fn identity() -> Component {
        Component::named(writer::GITOPS_SYNC)
    }

    /// It syncs on its clock; it only notes which of its Deployments drifted.
    fn on_change(&mut self, ch: &Change, _: &mut Ctx<'_, ObjKey, SyncDue>) {
        if ch.kind != Kind::Deployment {
            return;
        }
        let Some(g) = self.syncs.get(&ch.key) else {
            return;
        };
        let drifted = ch
            .new
            .as_deref()
            .and_then(Deployment::from_object)
            .is_some_and(|d| d.spec != g.declared);
        self.set_drifted(&ch.key, drifted);
    }

    /// Re-apply the declared spec if the live one drifted, and sync again `every` later.
    fn on_timer(
        &mut self,
        SyncDue(key, round): SyncDue,
        ctx: &mut Ctx<'_, ObjKey, SyncDue>,
    ) -> Vec<Request> {
        let Some(g) = self.syncs.get(&key).filter(|g| g.round == round) else {
            return Vec::new();
        };
        let mut requests = Vec::new();
        if let Some(d) = ctx.store.get::<Deployment>(&key) {
            if d.spec != g.declared {
                let mut d = d.clone();
                d.spec = g.declared.clone();
                requests.push(Request::blind_update(d));
            }
        }
        ctx.after(ctx.now.saturating_add(g.every), SyncDue(key, round));
        requests
    }

    /// A periodic sync never ends by itself: it is background work — unless the
    /// Deployment drifted, and this sync will put it back.
    fn is_background(&self, SyncDue(key, round): &SyncDue, _: &dyn Fn(&str) -> bool) -> bool {
        let live = self.syncs.get(key).is_some_and(|g| g.round == *round);
        !(live && self.drifted.contains(key))
    }
}
