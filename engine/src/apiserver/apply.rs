//! Server-side apply (`PATCH` with `application/apply-patch+yaml`): the applied
//! configuration merged onto the live object with field ownership — a field another
//! manager owns is a conflict (409) unless the apply forces it — and the object created
//! when there is none.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/patch.go`
//! (`applyPatcher`), `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager/`,
//! the registry strategies' `PrepareForCreate`.

use super::managed_fields::{api_version, conflict_message, tracked_kind, ManagedFields, Stamp};
use super::request::{ApiRequest, ApiResponse, Body, Verb};
use super::{ApiError, ObjKey, Store};
use crate::api::*;
use crate::rng::Rng;
use crate::time::SimTime;
use serde_json::Value;

/// A server-side apply of `applied` by `req`'s field manager, on `store`, with the
/// ownership it takes recorded in `managed`.
pub(super) fn server_side_apply(
    store: &mut Store,
    managed: &mut ManagedFields,
    rng: &mut Rng,
    now: SimTime,
    req: &ApiRequest,
    applied: &Value,
    force: bool,
) -> Result<ApiResponse, ApiError> {
    let manager = req.manager.manager.as_str();
    if manager.is_empty() {
        return Err(ApiError::bad_request(
            "PATCH, application/apply-patch+yaml requests must include a fieldManager query parameter".into(),
        ));
    }
    let mut warnings = Vec::new();
    let mut obj = super::decode::decode_object(
        req.kind,
        applied.clone(),
        req.field_validation,
        &mut warnings,
    )?;
    if obj.meta().namespace.is_empty() && req.kind.namespaced() {
        obj.meta_mut().namespace = req.namespace.clone();
    }
    if obj.meta().name != req.name {
        return Err(ApiError::bad_request(format!(
            "the name of the object ({}) does not match the name on the URL ({})",
            obj.meta().name,
            req.name
        )));
    }
    let key = ObjKey::of(obj.meta());
    let write = |store: &mut Store, rng: &mut Rng, verb: Verb, object: Object| {
        let mut w = req.clone();
        w.verb = verb;
        w.body = Body::Object(object);
        super::handlers::write_on(store, rng, now, &w, None, false).map(|(r, _)| r)
    };
    let Some(live) = store.get_shared(req.kind, &key) else {
        super::prepare::clear_server_fields(&mut obj);
        let mut r = write(store, rng, Verb::Create, obj)?;
        finish(managed, now, &r, manager, applied, Vec::new());
        r.warnings.splice(0..0, warnings);
        return Ok(r);
    };
    let (mut merged, entries) = managed
        .plan_apply(req.kind, &key, &live.to_json(), applied, manager, force)
        .map_err(|conflicts| ApiError {
            code: 409,
            reason: "Conflict",
            message: conflict_message(&conflicts),
            kubectl_message: None,
            // `NewConflictError`: one FieldManagerConflict cause per field, and no
            // name, group or kind in the details.
            details: Some(Box::new(super::Details {
                group: "",
                kind: "",
                name: String::new(),
                causes: conflicts
                    .iter()
                    .map(|c| super::Cause {
                        reason: "FieldManagerConflict",
                        message: format!("conflict with {}", c.manager),
                        field: super::managed_fields::path_string(&c.path),
                    })
                    .collect(),
            })),
        })?;
    super::decode::drop_nulls(&mut merged);
    let mut updated =
        crate::manifest::object_from_json(req.kind, merged).map_err(ApiError::bad_request)?;
    super::prepare::keep_hidden(&live, &mut updated);
    updated.meta_mut().resource_version = live.meta().resource_version.clone();
    if updated == *live {
        // Nothing changes but who owns what.
        let at = Stamp {
            api_version: req.kind.api_version(),
            time: now,
        };
        managed.finish_apply(req.kind, &key, entries, manager, applied, at);
        return Ok(ApiResponse {
            code: 200,
            object: Some(live),
            warnings,
            revision: store.revision(),
            unchanged: true,
            ..Default::default()
        });
    }
    let mut r = write(store, rng, Verb::Update, updated)?;
    finish(managed, now, &r, manager, applied, entries);
    r.warnings.splice(0..0, warnings);
    Ok(r)
}

/// The applier's Apply entry (and `entries` for the others), after its write.
fn finish(
    managed: &mut ManagedFields,
    now: SimTime,
    r: &ApiResponse,
    manager: &str,
    applied: &Value,
    entries: Vec<super::managed_fields::Entry>,
) {
    if let Some(ch) = r
        .changes
        .iter()
        .find(|c| tracked_kind(c.kind) && c.new.is_some())
    {
        let at = Stamp {
            api_version: ch.new.as_deref().map(api_version).unwrap_or("v1"),
            time: now,
        };
        managed.finish_apply(ch.kind, &ch.key, entries, manager, applied, at);
    }
}
