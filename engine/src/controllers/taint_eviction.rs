//! The taint-eviction controller: deletes Pods from nodes with NoExecute taints they do
//! not tolerate — at once, or after the smallest matching `tolerationSeconds`.
//!
//! Upstream: `pkg/controller/tainteviction/taint_eviction.go` (`processPodOnNode`,
//! `getMinTolerationTime`, `addConditionAndDeletePod`).

use super::{Controller, Ctx, Reconcile, Retry};
use crate::api::*;
use crate::apiserver::{Change, DeleteOptions, ObjKey, Store};
use crate::client::{event_ref, writer, Component, Request};
use crate::time::SimTime;
use std::collections::BTreeMap;

/// A scheduled eviction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduledEviction {
    /// The Pod.
    pub key: ObjKey,
    /// When it will be deleted.
    pub fire_at: SimTime,
}

/// The controller's state: evictions waiting for their toleration to run out, by Pod uid.
#[derive(Clone, Debug, Default)]
pub struct TaintEvictionController {
    /// Pending evictions by Pod uid (the UI shows their countdowns).
    pub scheduled: BTreeMap<String, ScheduledEviction>,
}

/// What processing a Pod decided.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Decision {
    /// Requests to send now (an eviction).
    pub requests: Vec<Request>,
    /// A timer to arm: (when, pod key, pod uid).
    pub timer: Option<(SimTime, ObjKey, String)>,
}

fn no_execute_taints(node: &Node) -> Vec<&Taint> {
    node.spec
        .taints
        .iter()
        .filter(|t| t.effect == TaintEffect::NoExecute)
        .collect()
}

/// The timer of a scheduled eviction: (Pod key, Pod uid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvictionDue(pub ObjKey, pub String);

impl Controller for TaintEvictionController {
    type Key = ObjKey;
    type Timer = EvictionDue;
    const WATCHES: &'static [Kind] = &[Kind::Pod, Kind::Node];
    /// Upstream retries a failed delete inside the eviction itself, not through a queue.
    const RETRY: Retry = Retry {
        on_error: None,
        ..Retry::DEFAULT
    };

    fn identity() -> Component {
        Component::named(writer::TAINT_EVICTION_CONTROLLER)
    }

    /// `handlePodUpdate` for bound Pods, and `handleNodeUpdate` when a node's NoExecute
    /// taints changed (every Pod on it is processed again).
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, EvictionDue>) {
        let (old, new) = (ch.old.as_deref(), ch.new.as_deref());
        match ch.kind {
            Kind::Pod => match new.and_then(Pod::from_object) {
                Some(p) if !p.spec.node_name.is_empty() => ctx.enqueue(ObjKey::of(&p.metadata)),
                Some(_) => {}
                None => {
                    if let Some(p) = old.and_then(Pod::from_object) {
                        self.forget(&p.metadata.uid);
                    }
                }
            },
            Kind::Node => {
                let taints = |o: Option<&Object>| -> Vec<Taint> {
                    match o {
                        Some(Object::Node(n)) => {
                            no_execute_taints(n).into_iter().cloned().collect()
                        }
                        _ => vec![],
                    }
                };
                if taints(old) != taints(new) {
                    if let Some(n) = new {
                        for p in ctx.store.pods_on_node(&n.meta().name) {
                            ctx.enqueue(ObjKey::of(&p.metadata));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, EvictionDue>) -> Reconcile {
        let Some(pod) = ctx.store.get::<Pod>(key) else {
            return Reconcile::default();
        };
        let d = self.process_pod(ctx.store, pod, ctx.now);
        if let Some((at, k, uid)) = d.timer {
            ctx.after(at, EvictionDue(k, uid));
        }
        Reconcile {
            requests: d.requests,
            requeue_after: None,
        }
    }

    fn on_timer(
        &mut self,
        EvictionDue(key, uid): EvictionDue,
        ctx: &mut Ctx<'_, ObjKey, EvictionDue>,
    ) -> Vec<Request> {
        self.fire(ctx.store, &key, &uid, ctx.now)
    }

    /// Scheduled evictions are counted by [`Controller::is_busy`] (one cancelled by a
    /// toleration or a Ready node leaves its timer behind, finding nothing to do).
    fn is_background(&self, _: &EvictionDue, _: &dyn Fn(&str) -> bool) -> bool {
        true
    }

    fn is_busy(&self) -> bool {
        !self.scheduled.is_empty()
    }
}

impl TaintEvictionController {
    /// `processPodOnNode`.
    pub fn process_pod(&mut self, store: &Store, pod: &Pod, now: SimTime) -> Decision {
        let uid = pod.metadata.uid.clone();
        let node = store.get::<Node>(&ObjKey::new("", &pod.spec.node_name));
        let taints = node.map(no_execute_taints).unwrap_or_default();
        if taints.is_empty() || pod.metadata.is_deleting() {
            self.scheduled.remove(&uid);
            return Decision::default();
        }
        let mut min_secs: Option<i64> = None;
        for taint in &taints {
            let used: Vec<&Toleration> = pod
                .spec
                .tolerations
                .iter()
                .filter(|t| t.tolerates(taint))
                .collect();
            if used.is_empty() {
                self.scheduled.remove(&uid);
                return Decision {
                    requests: evict(pod, now),
                    timer: None,
                };
            }
            // getMinTolerationTime: a toleration without seconds tolerates forever.
            if let Some(s) = used
                .iter()
                .filter_map(|t| t.toleration_seconds)
                .map(|s| s.max(0))
                .min()
            {
                min_secs = Some(min_secs.map_or(s, |m: i64| m.min(s)));
            }
        }
        let Some(secs) = min_secs else {
            self.scheduled.remove(&uid);
            return Decision::default();
        };
        let want = crate::time::after_seconds(now, secs);
        if let Some(existing) = self.scheduled.get(&uid) {
            if existing.fire_at <= want {
                return Decision::default();
            }
        }
        self.scheduled.insert(
            uid.clone(),
            ScheduledEviction {
                key: ObjKey::of(&pod.metadata),
                fire_at: want,
            },
        );
        Decision {
            requests: vec![],
            timer: Some((want, ObjKey::of(&pod.metadata), uid)),
        }
    }

    /// A scheduled eviction's timer fired.
    pub fn fire(&mut self, store: &Store, key: &ObjKey, uid: &str, now: SimTime) -> Vec<Request> {
        match self.scheduled.get(uid) {
            Some(s) if s.fire_at <= now => {}
            _ => return vec![],
        }
        self.scheduled.remove(uid);
        match store.get::<Pod>(key) {
            Some(p) if p.metadata.uid == uid && !p.metadata.is_deleting() => evict(p, now),
            _ => vec![],
        }
    }

    /// Forget a Pod (deleted).
    pub fn forget(&mut self, uid: &str) {
        self.scheduled.remove(uid);
    }
}

/// `addConditionAndDeletePod`: DisruptionTarget condition, event, graceful delete.
fn evict(pod: &Pod, now: SimTime) -> Vec<Request> {
    let mut p = pod.clone();
    set_condition(
        &mut p.status.conditions,
        disruption_target(
            "DeletionByTaintManager",
            "Taint manager: deleting due to NoExecute taint".into(),
            now,
        ),
    );
    vec![
        Request::Event {
            involved: event_ref(Kind::Pod, &pod.metadata),
            type_: EventType::Normal,
            reason: "TaintManagerEviction".into(),
            message: format!(
                "Marking for deletion Pod {}/{}",
                pod.metadata.namespace, pod.metadata.name
            ),
        },
        Request::blind_update_status(p),
        Request::Delete {
            kind: Kind::Pod,
            key: ObjKey::of(&pod.metadata),
            options: DeleteOptions {
                precondition_uid: Some(pod.metadata.uid.clone()),
                ..Default::default()
            },
            event: None,
        },
    ]
}
