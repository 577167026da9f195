//! The apiextensions-apiserver's controllers of CustomResourceDefinitions, which run
//! inside the API server (no leader election):
//!
//! - the **naming controller** (`pkg/controller/status/naming_controller.go`,
//!   `calculateNamesAndConditions`): accepts a definition's names unless another
//!   definition of its group already serves them (`NamesAccepted`);
//! - the **establishing controller** (`pkg/controller/establish/
//!   establishing_controller.go`): once the names are accepted, the resource is
//!   served (`Established`);
//! - the **finalizer controller** (`pkg/controller/finalizer/crd_finalizer.go`): a
//!   deleted definition's objects are deleted, then its cleanup finalizer removed.

use super::{Controller, Ctx, NoTimer, Reconcile};
use crate::api::*;
use crate::apiserver::custom::strategy::{condition, CLEANUP_FINALIZER};
use crate::apiserver::{Change, DeleteOptions, ObjKey, Store};
use crate::client::{writer, Component, Request};
use crate::time::{SimTime, SECOND};

/// How soon a definition whose objects are still going is looked at again (upstream
/// polls every 5 s).
pub const RECHECK: SimTime = 5 * SECOND;

/// The three controllers, in one loop keyed by definition name.
#[derive(Clone, Debug, Default)]
pub struct ApiExtensionsControllers;

impl Controller for ApiExtensionsControllers {
    type Key = ObjKey;
    type Timer = NoTimer;
    const WATCHES: &'static [Kind] = &[Kind::CustomResourceDefinition];

    fn identity() -> Component {
        Component::named(writer::APIEXTENSIONS_CONTROLLERS)
    }

    /// A definition changed: it, and the others of its group (whose names may have
    /// been freed or taken), are synced.
    fn on_change(&mut self, ch: &Change, ctx: &mut Ctx<'_, ObjKey, NoTimer>) {
        if ch.kind != Kind::CustomResourceDefinition {
            return;
        }
        let Some(Object::CustomResourceDefinition(d)) = ch.new.as_deref().or(ch.old.as_deref())
        else {
            return;
        };
        for other in ctx.store.list::<CustomResourceDefinition>() {
            if other.spec.group == d.spec.group {
                ctx.enqueue(ObjKey::of(&other.metadata));
            }
        }
    }

    fn sync(&mut self, key: &ObjKey, ctx: &mut Ctx<'_, ObjKey, NoTimer>) -> Reconcile {
        let store = ctx.store;
        let now = ctx.now;
        let Some(d) = store.get::<CustomResourceDefinition>(key) else {
            return Reconcile::default();
        };
        if d.metadata.is_deleting() {
            return finalize(store, d, now);
        }
        if let Some(named) = sync_names(store, d, now) {
            return Reconcile {
                requests: vec![Request::UpdateStatus(Object::CustomResourceDefinition(
                    Box::new(named),
                ))],
                requeue_after: None,
            };
        }
        // The establishing controller.
        if d.condition_true("NamesAccepted") && !d.condition_true("Established") {
            let mut e = d.clone();
            set_condition(
                &mut e.status.conditions,
                condition(
                    "Established",
                    "True",
                    "InitialNamesAccepted",
                    "the initial names have been accepted",
                    now,
                ),
            );
            return Reconcile {
                requests: vec![Request::UpdateStatus(Object::CustomResourceDefinition(
                    Box::new(e),
                ))],
                requeue_after: None,
            };
        }
        Reconcile::default()
    }
}

/// `%q is already in use`.
fn in_use(name: &str) -> String {
    format!(
        "{} is already in use",
        serde_json::Value::String(name.to_string())
    )
}

/// The naming controller's `sync`: the definition with its accepted names and
/// conditions, or None when its names are already the accepted ones.
fn sync_names(
    store: &Store,
    d: &CustomResourceDefinition,
    now: SimTime,
) -> Option<CustomResourceDefinition> {
    let requested = &d.spec.names;
    let accepted = &d.status.accepted_names;
    if requested == accepted
        && d.status
            .conditions
            .iter()
            .any(|c| c.type_ == "NamesAccepted")
    {
        return None;
    }
    // Every name the group's definitions have been accepted under.
    let (mut resources, mut kinds) = (Vec::new(), Vec::new());
    for other in store
        .list::<CustomResourceDefinition>()
        .filter(|o| o.spec.group == d.spec.group && o.metadata.name != d.metadata.name)
    {
        let n = &other.status.accepted_names;
        resources.push(n.plural.clone());
        resources.push(n.singular.clone());
        resources.extend(n.short_names.iter().cloned());
        kinds.push(n.kind.clone());
        kinds.push(n.list_kind.clone());
    }
    let fresh = |want: &str, have: &str, used: &[String]| {
        want == have || !used.iter().any(|u| !u.is_empty() && u == want)
    };
    let mut names = accepted.clone();
    let mut cond = ("True", "NoConflicts", "no conflicts found".to_string());
    // Each conflict overwrites the reason: the last one found is the one shown.
    for (want, have, used, reason, slot) in [
        (
            &requested.plural,
            &accepted.plural,
            &resources,
            "PluralConflict",
            0,
        ),
        (
            &requested.singular,
            &accepted.singular,
            &resources,
            "SingularConflict",
            1,
        ),
        (&requested.kind, &accepted.kind, &kinds, "KindConflict", 2),
        (
            &requested.list_kind,
            &accepted.list_kind,
            &kinds,
            "ListKindConflict",
            3,
        ),
    ] {
        if slot == 2 {
            // The short names are checked between the singular and the kind.
            let short_errs: Vec<String> = requested
                .short_names
                .iter()
                .filter(|s| !accepted.short_names.contains(s) && resources.contains(s))
                .map(|s| in_use(s))
                .collect();
            if short_errs.is_empty() {
                names.short_names = requested.short_names.clone();
            } else {
                let msg = if short_errs.len() == 1 {
                    short_errs[0].clone()
                } else {
                    format!("[{}]", short_errs.join(", "))
                };
                cond = ("False", "ShortNamesConflict", msg);
            }
        }
        if !fresh(want, have, used) {
            cond = ("False", reason, in_use(want));
            continue;
        }
        let field = match slot {
            0 => &mut names.plural,
            1 => &mut names.singular,
            2 => &mut names.kind,
            _ => &mut names.list_kind,
        };
        *field = want.clone();
    }
    names.categories = requested.categories.clone();
    let mut out = d.clone();
    out.status.accepted_names = names;
    let accepted_now = cond.0 == "True";
    set_condition(
        &mut out.status.conditions,
        condition("NamesAccepted", cond.0, cond.1, &cond.2, now),
    );
    if !out
        .status
        .conditions
        .iter()
        .any(|c| c.type_ == "Established")
    {
        out.status.conditions.push(condition(
            "Established",
            "False",
            "NotAccepted",
            "not all names are accepted",
            now,
        ));
    }
    if accepted_now && !out.condition_true("Established") {
        set_condition(
            &mut out.status.conditions,
            condition(
                "Established",
                "False",
                "Installing",
                "the initial names have been accepted",
                now,
            ),
        );
    }
    (out != *d).then_some(out)
}

/// The finalizer controller's `sync`: say deletion is in progress, delete every
/// object of the resource, and once none is left remove the finalizer.
fn finalize(store: &Store, d: &CustomResourceDefinition, now: SimTime) -> Reconcile {
    if !d.metadata.finalizers.iter().any(|f| f == CLEANUP_FINALIZER) {
        return Reconcile::default();
    }
    let terminating = |status: &str, reason: &str, message: &str| {
        let mut t = d.clone();
        set_condition(
            &mut t.status.conditions,
            condition("Terminating", status, reason, message, now),
        );
        t
    };
    let in_progress = d
        .status
        .conditions
        .iter()
        .any(|c| c.type_ == "Terminating" && c.reason == "InstanceDeletionInProgress");
    if !in_progress {
        let t = terminating(
            "True",
            "InstanceDeletionInProgress",
            "CustomResource deletion is in progress",
        );
        return status_update(t, None);
    }
    // A type that could not be interned never held objects: nothing to wait for.
    let established = d.condition_true("Established") && d.custom_type().is_some();
    let done = if let (true, Some(t)) = (established, d.custom_type()) {
        let kind = Kind::Custom(t);
        let left: Vec<&Object> = store.list_objects(kind).collect();
        if !left.is_empty() {
            // `wait.PollImmediate`: the objects just deleted are looked for at once,
            // the ones that wait for their own finalizers every 5 s.
            let fresh = left.iter().any(|o| !o.meta().is_deleting());
            let requests = left
                .iter()
                .filter(|o| !o.meta().is_deleting())
                .map(|o| Request::Delete {
                    kind,
                    key: ObjKey::of(o.meta()),
                    options: DeleteOptions::default(),
                    event: None,
                })
                .collect();
            return Reconcile {
                requests,
                requeue_after: Some(if fresh { 0 } else { RECHECK }),
            };
        }
        terminating(
            "False",
            "InstanceDeletionCompleted",
            "removed all instances",
        )
    } else {
        terminating(
            "False",
            "NeverEstablished",
            "resource was never established",
        )
    };
    let mut done = done;
    done.metadata.finalizers.retain(|f| f != CLEANUP_FINALIZER);
    status_update(done, None)
}

fn status_update(d: CustomResourceDefinition, requeue_after: Option<SimTime>) -> Reconcile {
    Reconcile {
        requests: vec![Request::UpdateStatus(Object::CustomResourceDefinition(
            Box::new(d),
        ))],
        requeue_after,
    }
}
