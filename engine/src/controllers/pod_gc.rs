//! The pod garbage collector's orphan sweep: Pods bound to a Node that no longer exists
//! are marked Failed with a DisruptionTarget condition and force-deleted, so their
//! ReplicaSets stop counting them.
//!
//! Upstream: `pkg/controller/podgc/gc_controller.go` (`gcOrphaned`, `quarantineTime`,
//! `gcCheckPeriod`, `markFailedAndDeletePodWithCondition`). Upstream sweeps every 20 s
//! and waits for a missing node to stay missing for 40 s; here the sweep for a node is
//! a timer armed when the Node is deleted, at the first 20-second tick after the
//! deletion plus the 40-second quarantine — the same moment, without a periodic scan.
//! A Pod written with a `nodeName` no Node has (bound by hand to a node that never
//! existed, or to one deleted before it was written) arms the same timer for that
//! name: the sweep that would first have seen it, plus the quarantine.

use super::{Controller, Ctx};
use crate::api::*;
use crate::apiserver::{Change, DeleteOptions, ObjKey, Store};
use crate::client::{writer, Component, Request};
use crate::time::{SimTime, SECOND};
use std::collections::BTreeSet;

/// `gcCheckPeriod`.
pub const GC_CHECK_PERIOD: SimTime = 20 * SECOND;
/// `quarantineTime`: how long a node must stay missing.
pub const QUARANTINE: SimTime = 40 * SECOND;

/// Its timer: sweep the Pods of this deleted node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepDue(pub String);

/// The pod garbage collector's orphan sweep: a timer per missing node name.
#[derive(Clone, Debug, Default)]
pub struct PodGcController {
    /// Missing node names with a sweep armed (`nodeQueue`: one entry per name).
    quarantined: BTreeSet<String>,
}

impl Controller for PodGcController {
    type Key = ObjKey;
    type Timer = SweepDue;
    const WATCHES: &'static [Kind] = &[Kind::Pod, Kind::Node];

    fn identity() -> Component {
        Component::named(writer::POD_GARBAGE_COLLECTOR)
    }

    /// A Node was deleted, or a Pod names a node that does not exist: the Pods bound to
    /// that name are swept once the quarantine has passed.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, SweepDue>) {
        let missing = match (ch.kind, ch.old.as_deref(), ch.new.as_deref()) {
            (Kind::Node, Some(gone), None) => gone.meta().name.clone(),
            (Kind::Pod, _, Some(new)) => match Pod::from_object(new) {
                Some(p)
                    if !p.spec.node_name.is_empty()
                        && ctx
                            .store
                            .get::<Node>(&ObjKey::new("", &p.spec.node_name))
                            .is_none()
                        // Still bound there now (the sweep's own writes are seen
                        // after its deletes, and need no second sweep).
                        && ctx.store.pods_on_node(&p.spec.node_name).next().is_some() =>
                {
                    p.spec.node_name.clone()
                }
                _ => return,
            },
            _ => return,
        };
        // `nodeQueue.AddAfter`: a name already waiting keeps its earlier time.
        if self.quarantined.insert(missing.clone()) {
            ctx.after(sweep_time(ctx.now), SweepDue(missing));
        }
    }

    fn on_timer(
        &mut self,
        SweepDue(node): SweepDue,
        ctx: &mut Ctx<'_, ObjKey, SweepDue>,
    ) -> Vec<Request> {
        self.quarantined.remove(&node);
        gc_orphaned(ctx.store, &node, ctx.now)
    }
}

/// When to sweep the Pods of a node found missing at `deleted_at`.
pub fn sweep_time(deleted_at: SimTime) -> SimTime {
    (deleted_at / GC_CHECK_PERIOD + 1) * GC_CHECK_PERIOD + QUARANTINE
}

/// `gcOrphaned` for one node: nothing if the node came back.
pub fn gc_orphaned(store: &Store, node: &str, now: SimTime) -> Vec<Request> {
    if store.get::<Node>(&ObjKey::new("", node)).is_some() {
        return vec![];
    }
    let mut requests = Vec::new();
    for pod in store.pods_on_node(node) {
        let mut p = pod.clone();
        if !p.is_terminal() {
            p.status.phase = PodPhase::Failed.into();
            set_condition(
                &mut p.status.conditions,
                disruption_target(
                    "DeletionByPodGC",
                    "PodGC: node no longer exists".into(),
                    now,
                ),
            );
            requests.push(Request::blind_update_status(p));
        }
        requests.push(Request::Delete {
            kind: Kind::Pod,
            key: ObjKey::of(&pod.metadata),
            options: DeleteOptions {
                grace_period_seconds: Some(0),
                precondition_uid: Some(pod.metadata.uid.clone()),
                ..Default::default()
            },
            event: None,
        });
    }
    requests
}
