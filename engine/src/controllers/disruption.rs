//! The disruption controller: keeps each PodDisruptionBudget's status (expected and
//! healthy Pods, disruptions allowed) current as Pods come and go.
//!
//! Upstream: `pkg/controller/disruption/disruption.go` (`getExpectedPodCount`,
//! `getExpectedScale`, `countHealthyPods`, `updatePdbStatus`).

use super::{Controller, Ctx, NoTimer, Reconcile};
use crate::api::*;
use crate::apiserver::{Change, ObjKey, Store};
use crate::client::{writer, Component, Request};
use crate::time::{rfc3339, SimTime};
use std::collections::BTreeMap;

/// The disruption controller (stateless: its work queue of budget keys is the cluster's).
#[derive(Clone, Debug, Default)]
pub struct DisruptionController;

impl Controller for DisruptionController {
    type Key = ObjKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[
        Kind::PodDisruptionBudget,
        Kind::Pod,
        Kind::ReplicaSet,
        Kind::Deployment,
        Kind::StatefulSet,
    ];

    fn identity() -> Component {
        Component::named(writer::DISRUPTION_CONTROLLER)
    }

    /// A budget changed, or a Pod one may select.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        let (old, new) = (ch.old.as_deref(), ch.new.as_deref());
        match ch.kind {
            Kind::PodDisruptionBudget => {
                if let Some(o) = new.or(old) {
                    ctx.enqueue(ObjKey::of(o.meta()));
                }
            }
            Kind::Pod => {
                for o in [old, new].into_iter().flatten() {
                    let m = o.meta();
                    for pdb in ctx.store.list_ns::<PodDisruptionBudget>(&m.namespace) {
                        if pdb.spec.selector.matches(&m.labels) {
                            ctx.enqueue(ObjKey::of(&pdb.metadata));
                        }
                    }
                }
            }
            _ => {}
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        self.try_sync(ctx.store, key, ctx.now)
    }
}

impl DisruptionController {
    /// `trySync` for one budget.
    pub fn try_sync(&self, store: &Store, key: &ObjKey, now: SimTime) -> Reconcile {
        let Some(pdb) = store.get::<PodDisruptionBudget>(key) else {
            return Reconcile::default();
        };
        let status = compute_status(store, pdb, now);
        if status == pdb.status {
            return Reconcile::default();
        }
        let mut p = pdb.clone();
        p.status = status;
        Reconcile {
            requests: vec![Request::blind_update_status(p)],
            requeue_after: None,
        }
    }
}

/// Pods a budget selects (same namespace, not terminal).
pub fn selected_pods<'a>(store: &'a Store, pdb: &'a PodDisruptionBudget) -> Vec<&'a Pod> {
    store
        .list_ns::<Pod>(&pdb.metadata.namespace)
        .filter(|p| {
            !p.is_terminal()
                && !pdb.spec.selector.is_empty()
                && pdb.spec.selector.matches(&p.metadata.labels)
        })
        .collect()
}

/// `getExpectedScale`: Σ the scale of the Pods' controllers (a Deployment-owned
/// ReplicaSet counts its Deployment's replicas).
fn expected_scale(store: &Store, pods: &[&Pod]) -> i64 {
    let mut scales: BTreeMap<String, i64> = BTreeMap::new();
    for p in pods {
        let Some(r) = p.metadata.controller_ref() else {
            continue;
        };
        if r.kind != "ReplicaSet" {
            continue;
        }
        let Some(rs) = store.get::<ReplicaSet>(&ObjKey::new(&p.metadata.namespace, &r.name)) else {
            continue;
        };
        let (uid, scale) = match rs
            .metadata
            .controller_ref()
            .filter(|o| o.kind == "Deployment")
        {
            Some(o) => {
                match store.get::<Deployment>(&ObjKey::new(&p.metadata.namespace, &o.name)) {
                    Some(d) => (d.metadata.uid.clone(), d.spec.replicas),
                    None => (rs.metadata.uid.clone(), rs.spec.replicas),
                }
            }
            None => (rs.metadata.uid.clone(), rs.spec.replicas),
        };
        scales.insert(uid, scale);
    }
    scales.values().fold(0, |a: i64, b| a.saturating_add(*b))
}

/// The status a budget should have now.
pub fn compute_status(
    store: &Store,
    pdb: &PodDisruptionBudget,
    now: SimTime,
) -> PodDisruptionBudgetStatus {
    let pods = selected_pods(store, pdb);
    let current_healthy = pods
        .iter()
        .filter(|p| !p.metadata.is_deleting() && p.is_ready())
        .count() as i64;
    // `resolved` is false when a percentage does not resolve (a number too long for
    // Atoi passes validation upstream too): the controller's failSafe then allows no
    // disruption rather than guessing.
    let (expected, desired, resolved) = if let Some(mu) = &pdb.spec.max_unavailable {
        let expected = expected_scale(store, &pods);
        let max = mu.scaled_value(expected, true);
        let desired = expected.saturating_sub(max.unwrap_or(0)).max(0);
        (expected, desired, max.is_some())
    } else if let Some(ma) = &pdb.spec.min_available {
        match ma {
            IntOrString::Int(n) => (pods.len() as i64, *n, true),
            IntOrString::String(_) => {
                let expected = expected_scale(store, &pods);
                let min = ma.scaled_value(expected, true);
                (expected, min.unwrap_or(0), min.is_some())
            }
        }
    } else {
        (pods.len() as i64, 0, true)
    };
    let allowed = if expected <= 0 || !resolved {
        0
    } else {
        current_healthy.saturating_sub(desired).max(0)
    };
    let mut conditions = pdb.status.conditions.clone();
    let (status, reason) = if allowed > 0 {
        (ConditionStatus::True, "SufficientPods")
    } else {
        (ConditionStatus::False, "InsufficientPods")
    };
    set_condition(
        &mut conditions,
        Condition {
            type_: "DisruptionAllowed".into(),
            status: status.into(),
            last_transition_time: Some(rfc3339(now)),
            reason: reason.into(),
            transition_ms: now,
            ..Default::default()
        },
    );
    PodDisruptionBudgetStatus {
        observed_generation: pdb.metadata.generation,
        disruptions_allowed: allowed,
        current_healthy,
        desired_healthy: desired,
        expected_pods: expected,
        conditions,
    }
}
