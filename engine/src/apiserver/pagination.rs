//! A list in chunks (`limit` and `continue`), as the API server pages a list from etcd:
//! the items in key order, at most `limit` of them, and a continue token that names the
//! key to start from next; `remainingItemCount` when nothing filtered the list.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/storage/continue.go` (`EncodeContinue`,
//! `DecodeContinue`: URL-safe base64 without padding of `{"v":"meta.k8s.io/v1",
//! "rv":…,"start":"<key>\u0000"}`), `storage/etcd3/store.go` (`GetList`), and
//! `storage/util.go` (`ValidateListOptions`: `invalid continue token: …`).
//!
//! Simplification: a continued list reads the objects as they are now, from the token's
//! key on, and answers with the token's resourceVersion; upstream reads etcd at that
//! revision, so a write between two chunks shows only in kubeplay's. A list is as
//! consistent as it is within one chunk.

use super::ApiError;
use crate::api::Object;
use std::sync::Arc;

/// One chunk of a list.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Page {
    /// Its items.
    pub items: Vec<Arc<Object>>,
    /// The continue token, or empty on the last chunk.
    pub continue_token: String,
    /// Items after this chunk, when nothing filtered the list.
    pub remaining: Option<u64>,
    /// The resourceVersion the list is served at (a continued list: the token's).
    pub revision: u64,
}

/// The key an object has under its resource's prefix in etcd: `<namespace>/<name>`,
/// or `<name>` cluster-scoped.
fn key_of(o: &Object) -> String {
    let m = o.meta();
    if m.namespace.is_empty() {
        m.name.clone()
    } else {
        format!("{}/{}", m.namespace, m.name)
    }
}

/// The chunk of `items` (the whole list at `revision`) that `limit` and `token` ask
/// for; `filtered` when a selector narrowed the list (no remaining count then).
pub fn paginate(
    mut items: Vec<Arc<Object>>,
    revision: u64,
    limit: Option<u64>,
    token: Option<&str>,
    filtered: bool,
) -> Result<Page, ApiError> {
    let mut revision = revision;
    // etcd's order: the keys' bytes.
    items.sort_by_cached_key(|o| key_of(o));
    if let Some(t) = token.filter(|t| !t.is_empty()) {
        let (start, rv) = decode_continue(t)
            .map_err(|e| ApiError::bad_request(format!("invalid continue token: {e}")))?;
        revision = rv;
        let from = items.partition_point(|o| key_of(o) < start);
        items.drain(..from);
    }
    let Some(limit) = limit.filter(|l| *l > 0).map(|l| l as usize) else {
        return Ok(Page {
            items,
            revision,
            ..Default::default()
        });
    };
    if items.len() <= limit {
        return Ok(Page {
            items,
            revision,
            ..Default::default()
        });
    }
    let rest = items.split_off(limit);
    let last = items.last().map(|o| key_of(o)).unwrap_or_default();
    Ok(Page {
        continue_token: encode_continue(&format!("{last}\u{0}"), revision),
        remaining: (!filtered).then_some(rest.len() as u64),
        items,
        revision,
    })
}

const URL_SAFE: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// `EncodeContinue`.
pub fn encode_continue(start: &str, rv: u64) -> String {
    // Go's field order: v, rv, start.
    let json = format!(
        "{{\"v\":\"meta.k8s.io/v1\",\"rv\":{rv},\"start\":{}}}",
        serde_json::Value::from(start)
    );
    crate::api::base64_encode_with(json.as_bytes(), URL_SAFE, false)
}

/// `DecodeContinue`: the key to start from and the resourceVersion, or the error in
/// the API server's words.
pub fn decode_continue(token: &str) -> Result<(String, u64), String> {
    const INVALID: &str = "continue key is not valid";
    let mut bytes = Vec::with_capacity(token.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for (i, c) in token.bytes().enumerate() {
        let Some(v) = URL_SAFE.iter().position(|x| *x == c) else {
            return Err(format!("{INVALID}: illegal base64 data at input byte {i}"));
        };
        acc = (acc << 6) | v as u32;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            bytes.push(((acc >> bits) & 0xff) as u8);
        }
    }
    if token.len() % 4 == 1 {
        return Err(format!(
            "{INVALID}: illegal base64 data at input byte {}",
            token.len() - 1
        ));
    }
    let v: serde_json::Value =
        serde_json::from_slice(&bytes).map_err(|e| format!("{INVALID}: {e}"))?;
    match v.get("v").and_then(|x| x.as_str()) {
        Some("meta.k8s.io/v1") => {}
        other => {
            return Err(format!(
                "continue key is not valid: server does not recognize this encoded version {}",
                other.unwrap_or("")
            ))
        }
    }
    let rv = v.get("rv").and_then(|x| x.as_u64()).unwrap_or(0);
    if rv == 0 {
        return Err("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)".into());
    }
    let start = v.get("start").and_then(|x| x.as_str()).unwrap_or("");
    if start.is_empty() {
        return Err(
            "continue key is not valid: encoded start key empty (version meta.k8s.io/v1)".into(),
        );
    }
    Ok((start.to_string(), rv))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::{ConfigMap, ObjectMeta};

    fn cm(ns: &str, name: &str) -> Arc<Object> {
        Arc::new(Object::ConfigMap(ConfigMap {
            metadata: ObjectMeta {
                namespace: ns.into(),
                name: name.into(),
                ..Default::default()
            },
            ..Default::default()
        }))
    }

    fn names(p: &Page) -> Vec<String> {
        p.items.iter().map(|o| o.meta().name.clone()).collect()
    }

    #[test]
    fn a_list_comes_in_chunks_in_etcds_key_order_until_the_last_has_no_token() {
        let all = vec![cm("b", "x"), cm("a", "z"), cm("a-b", "y"), cm("a", "w")];
        let p = paginate(all.clone(), 40, Some(2), None, false).unwrap();
        // "a-b/y" sorts before "a/w": '-' is below '/'.
        assert_eq!(names(&p), ["y", "w"]);
        assert_eq!(p.remaining, Some(2));
        assert_eq!(
            decode_continue(&p.continue_token).unwrap(),
            ("a/w\u{0}".into(), 40)
        );
        let q = paginate(all, 45, Some(2), Some(&p.continue_token), false).unwrap();
        assert_eq!(names(&q), ["z", "x"]);
        assert_eq!(
            (q.continue_token.as_str(), q.remaining, q.revision),
            ("", None, 40)
        );
    }

    #[test]
    fn a_token_is_upstreams_url_safe_base64_and_a_bad_one_is_refused_in_its_words() {
        assert_eq!(
            encode_continue("default/web\u{0}", 7),
            "eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6Nywic3RhcnQiOiJkZWZhdWx0L3dlYlx1MDAwMCJ9"
        );
        let e = paginate(vec![], 1, Some(1), Some("%%"), false).unwrap_err();
        assert_eq!((e.code, e.reason), (400, "BadRequest"));
        assert_eq!(
            e.message,
            "invalid continue token: continue key is not valid: illegal base64 data at input byte 0"
        );
        let wrong = encode_continue("", 7);
        assert_eq!(
            decode_continue(&wrong).unwrap_err(),
            "continue key is not valid: encoded start key empty (version meta.k8s.io/v1)"
        );
    }
}
