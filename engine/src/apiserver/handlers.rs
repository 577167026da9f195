//! The write of a request that passed authorization, on the store: the registry's
//! create, update (and status), patch, delete, binding, eviction and Event, with
//! admission, validation and storage as the store does them.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/{create,update,
//! patch,delete}.go`, `pkg/registry/core/pod/storage` (binding, eviction).

use super::request::{ApiRequest, ApiResponse, Body, Verb};
use super::{ApiError, ObjKey, Store};
use crate::rng::Rng;
use crate::time::SimTime;

/// The write itself, on `store`: admission, validation and storage are the store's.
/// `managed` is the live object's `metadata.managedFields` as served, which a patch
/// applies to; the answer carries the managers the request set, if it set any (an
/// update's body, a patch's result), for the field manager. With `may_noop`, an
/// update that changes nothing (its managers included) writes nothing; a server-side
/// apply's own write passes false, as the managers it records are a change.
pub(super) fn write_on(
    store: &mut Store,
    rng: &mut Rng,
    now: SimTime,
    req: &ApiRequest,
    managed: Option<&serde_json::Value>,
    may_noop: bool,
) -> Result<(ApiResponse, Option<serde_json::Value>), ApiError> {
    let writer = req.client.as_str();
    store.warnings.clear();
    store.audit_annotations.clear();
    store.webhook_calls.clear();
    store.subresource = req.subresource.to_string();
    store.collect_warnings = req.trace.is_some();
    let key = ObjKey::new(&req.namespace, &req.name);
    let mut warnings = Vec::new();
    let patched;
    let mut sent = req.managed_fields.clone();
    let body = match &req.body {
        Body::Patch(t, patch) => {
            let live = store
                .get_shared(req.kind, &key)
                .ok_or_else(|| ApiError::not_found(req.kind, &req.name))?;
            let p = super::patch::patched(
                &live,
                managed,
                req.subresource,
                *t,
                patch,
                req.field_validation,
                &mut warnings,
            )?;
            match p {
                // Nothing changes: the live object is the answer, and nothing is written.
                None => {
                    store.collect_warnings = false;
                    let r = ApiResponse {
                        code: 200,
                        object: Some(live),
                        warnings,
                        revision: store.revision(),
                        unchanged: true,
                        ..Default::default()
                    };
                    return Ok((r, None));
                }
                Some((obj, managers)) => {
                    sent = managers;
                    patched = Body::Object(obj);
                    &patched
                }
            }
        }
        b => b,
    };
    // etcd refuses a value past its request limit: a person's object (an HTTP client's
    // or kubectl's) is measured before it is stored. The components' own objects are
    // built by their controllers and stay small; measuring each of the envelope's
    // hundreds of thousands of writes would cost a serialization apiece.
    if let (Body::Object(o), Some(_)) = (body, &req.trace) {
        if too_large(o) {
            store.collect_warnings = false;
            return Err(ApiError {
                code: 500,
                reason: "",
                message: "etcdserver: request is too large".into(),
                kubectl_message: None,
                details: None,
            });
        }
    }
    let result = match (body, req.verb, req.subresource) {
        (
            Body::Event {
                involved,
                type_,
                reason,
                message,
                component,
                host,
            },
            ..,
        ) => Ok(Vec::from_iter(store.record_event(
            now,
            rng,
            involved,
            type_.as_str(),
            reason,
            message,
            component,
            host,
        ))),
        (Body::Object(o), Verb::Create, "") => {
            store.create(now, rng, o.clone(), writer).map(|c| vec![c])
        }
        (Body::Object(o), Verb::Update | Verb::Patch, subresource) => {
            let written = if subresource == "status" {
                store.update_status(now, o.clone(), writer)
            } else {
                // A write that changes nothing is no write, unless it sets other managers.
                let noop = may_noop && sent.as_ref().is_none_or(|m| Some(m) == managed);
                store.update(now, o.clone(), writer, noop)
            };
            match written {
                Ok(c) if is_noop(&c) => {
                    store.collect_warnings = false;
                    warnings.extend(std::mem::take(&mut store.warnings));
                    let r = ApiResponse {
                        code: 200,
                        object: c.new,
                        warnings,
                        revision: store.revision(),
                        unchanged: true,
                        ..Default::default()
                    };
                    return Ok((r, None));
                }
                r => r.map(|c| vec![c]),
            }
        }
        (Body::Delete(options), Verb::Delete, "") => {
            store.delete(now, req.kind, &key, options, writer)
        }
        (Body::Bind(node), Verb::Create, "binding") => {
            store.bind(now, &key, node, writer).map(|c| vec![c])
        }
        (_, Verb::Create, "eviction") => store.evict(now, &key, writer),
        _ => Err(ApiError::bad_request(format!(
            "the server does not allow this method on the requested resource ({} {}{})",
            req.verb.as_str(),
            req.kind.resource(),
            if req.subresource.is_empty() {
                String::new()
            } else {
                format!("/{}", req.subresource)
            }
        ))),
    };
    store.collect_warnings = false;
    store.subresource.clear();
    let changes = result?;
    warnings.extend(std::mem::take(&mut store.warnings));
    let object = changes
        .iter()
        .find(|c| c.kind == req.kind)
        .or(changes.first())
        .and_then(|c| c.new.clone().or_else(|| c.old.clone()));
    let r = ApiResponse {
        code: if req.verb == Verb::Create && req.subresource.is_empty() {
            201
        } else {
            200
        },
        object,
        items: Vec::new(),
        changes,
        warnings,
        revision: store.revision(),
        ..Default::default()
    };
    // A subresource's write never sets managers (`decodeLiveOrNew`).
    Ok((r, sent.filter(|_| req.subresource.is_empty())))
}

/// etcd's `--max-request-bytes` (1.5 MiB), which bounds every object stored.
pub const MAX_OBJECT_BYTES: usize = 1_572_864;

/// Whether `o`, serialized, is past [`MAX_OBJECT_BYTES`].
fn too_large(o: &crate::api::Object) -> bool {
    // A writer that counts instead of keeping: the size without the buffer.
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0 += b.len();
            if self.0 > MAX_OBJECT_BYTES {
                return Err(std::io::Error::other("too large"));
            }
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut n = Count(0);
    serde_json::to_writer(&mut n, &o.to_json()).is_err() || n.0 > MAX_OBJECT_BYTES
}

/// An update that wrote nothing: its old and new are the one stored object.
fn is_noop(c: &super::Change) -> bool {
    matches!((&c.old, &c.new), (Some(a), Some(b)) if std::sync::Arc::ptr_eq(a, b))
}
