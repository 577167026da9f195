//! Decoding a request's body into a typed object, as the API server's codec and field
//! validation do: type errors as 400s, unknown fields refused under
//! `fieldValidation=Strict`, warned of under `Warn`, dropped under `Ignore`.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go` and
//! `patch.go` (the decoder and `fieldValidation`), `runtime/serializer`.

use super::ApiError;
use crate::api::{Kind, Object};
use serde_json::Value;

/// The version part of a kind's `apiVersion` (`v1` of `apps/v1`).
pub fn api_version_of(kind: Kind) -> &'static str {
    kind.api_version().rsplit('/').next().unwrap_or("v1")
}

/// Decode a body into an object of `kind`: type errors as the API server's 400,
/// unknown fields refused under `fieldValidation=Strict`, warned of under `Warn`.
pub fn decode_object(
    kind: Kind,
    body: Value,
    validation: &str,
    warnings: &mut Vec<String>,
) -> Result<Object, ApiError> {
    let cannot = |detail: String| {
        ApiError::bad_request(format!(
            "{k} in version \"{v}\" cannot be handled as a {k}: {detail}",
            k = kind.name(),
            v = api_version_of(kind)
        ))
    };
    if let Some(k) = body.get("kind").and_then(Value::as_str) {
        if k != kind.name() {
            return Err(ApiError::bad_request(format!(
                "the API version in the data ({}) does not match the expected API version ({})",
                body.get("apiVersion").and_then(Value::as_str).unwrap_or(""),
                kind.api_version()
            )));
        }
    }
    let mut body = body;
    drop_nulls(&mut body);
    let mut unknown = Vec::new();
    let obj = crate::manifest::decode(kind, body, &mut unknown)
        .map_err(|(path, msg)| cannot(format!("{path}: {msg}")))?;
    let unknown: Vec<String> = unknown
        .into_iter()
        .filter(|f| f != "apiVersion" && f != "kind" && !f.starts_with("metadata.managedFields"))
        .collect();
    if !unknown.is_empty() {
        let list: Vec<String> = unknown
            .iter()
            .map(|f| format!("unknown field \"{f}\""))
            .collect();
        match validation {
            "Strict" => {
                return Err(cannot(format!(
                    "strict decoding error: {}",
                    list.join(", ")
                )))
            }
            "Warn" => warnings.extend(list),
            _ => {}
        }
    }
    Ok(obj)
}

/// Drop JSON nulls (a merge's deletions) before decoding: the manifest reader's.
pub use crate::manifest::drop_nulls;
