//! The API server's own metrics (`GET /metrics`), in Prometheus's text format: every
//! request it answered (`apiserver_request_total`, the components' reads and watches
//! included) and the objects it stores (`apiserver_storage_objects`).
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/metrics/metrics.go`
//! (`requestCounter`, `CleanVerb`, `CleanScope`) and
//! `staging/src/k8s.io/apiserver/pkg/storage/etcd3/metrics/metrics.go`
//! (`objectCounts`).

use super::request::{ApiRequest, Body, Verb};
use super::Store;
use crate::api::Kind;
use std::collections::BTreeMap;
use std::fmt::Write;

/// A request's shape as `apiserver_request_total` labels it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct RequestShape {
    /// The verb as the metric names it (`GET`, `LIST`, `WATCH`, `POST`, `PUT`, `PATCH`,
    /// `APPLY`, `DELETE`, `DELETECOLLECTION`).
    pub verb: &'static str,
    /// The resource.
    pub kind: Kind,
    /// The subresource, or empty.
    pub subresource: &'static str,
    /// `resource` (one object, or a create), `namespace` (a namespace's collection) or
    /// `cluster`.
    pub scope: &'static str,
    /// A dry run.
    pub dry_run: bool,
    /// The status code answered.
    pub code: u16,
}

impl RequestShape {
    /// The shape of `req`, its code not yet known; None for what is not a resource
    /// request (a path, a review).
    pub fn of(req: &ApiRequest) -> Option<RequestShape> {
        if matches!(
            req.body,
            Body::Path(_) | Body::Review(_) | Body::Aggregated(_)
        ) {
            return None;
        }
        // `CleanVerb`: a server-side apply is APPLY.
        let verb = match (req.verb, &req.body) {
            (Verb::Patch, Body::Apply { .. }) => "APPLY",
            (Verb::Get, _) => "GET",
            (Verb::List, _) => "LIST",
            (Verb::Watch, _) => "WATCH",
            (Verb::Create, _) => "POST",
            (Verb::Update, _) => "PUT",
            (Verb::Patch, _) => "PATCH",
            (Verb::Delete, _) => "DELETE",
            (Verb::DeleteCollection, _) => "DELETECOLLECTION",
        };
        // `CleanScope`, on the request info, where a list or watch of one
        // `metadata.name` has that name.
        let named = !req.name.is_empty()
            || (matches!(req.verb, Verb::List | Verb::Watch)
                && req
                    .fields
                    .iter()
                    .filter_map(|f| f.equality())
                    .any(|(f, _)| f == "metadata.name"));
        let scope = if named || req.verb == Verb::Create {
            "resource"
        } else if !req.namespace.is_empty() && req.kind.namespaced() {
            "namespace"
        } else {
            "cluster"
        };
        Some(RequestShape {
            verb,
            kind: req.kind,
            subresource: req.subresource,
            scope,
            dry_run: req.dry_run,
            code: 0,
        })
    }
}

/// The metrics page: `apiserver_request_total` from `counts`, `apiserver_storage_objects`
/// from the store, each series sorted by its labels.
pub fn prometheus(counts: &BTreeMap<RequestShape, u64>, store: &Store) -> String {
    let mut out = String::new();
    out.push_str("# HELP apiserver_request_total [STABLE] Counter of apiserver requests broken out for each verb, dry run value, group, version, resource, scope, component, and HTTP response code.\n");
    out.push_str("# TYPE apiserver_request_total counter\n");
    let mut lines: Vec<(String, u64)> = counts
        .iter()
        .map(|(s, n)| {
            let (group, version) = group_version(s.kind);
            (
                format!(
                    "apiserver_request_total{{code=\"{}\",component=\"apiserver\",dry_run=\"{}\",group=\"{group}\",resource=\"{}\",scope=\"{}\",subresource=\"{}\",verb=\"{}\",version=\"{version}\"}}",
                    s.code,
                    if s.dry_run { "All" } else { "" },
                    s.kind.resource(),
                    s.scope,
                    s.subresource,
                    s.verb,
                ),
                *n,
            )
        })
        .collect();
    // Several shapes can print alike (none today); sorted text is what a scrape sees.
    crate::sorting::sort(&mut lines);
    for (l, n) in lines {
        let _ = writeln!(out, "{l} {n}");
    }
    out.push_str("# HELP apiserver_storage_objects [STABLE] Number of stored objects at the time of last check split by kind. In case of a fetching error, the value will be -1.\n");
    out.push_str("# TYPE apiserver_storage_objects gauge\n");
    let mut objects: Vec<(String, usize)> = Kind::ALL
        .iter()
        .map(|&k| {
            let (group, _) = group_version(k);
            let resource = if group.is_empty() {
                k.resource().to_string()
            } else {
                format!("{}.{group}", k.resource())
            };
            (resource, store.count(k))
        })
        .collect();
    crate::sorting::sort(&mut objects);
    for (r, n) in objects {
        let _ = writeln!(out, "apiserver_storage_objects{{resource=\"{r}\"}} {n}");
    }
    out
}

/// A kind's API group and version.
fn group_version(kind: Kind) -> (&'static str, &'static str) {
    match kind.api_version().split_once('/') {
        Some((g, v)) => (g, v),
        None => ("", kind.api_version()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::apiserver::rbac::UserInfo;
    use crate::apiserver::request::Credentials;

    fn req(verb: Verb, kind: Kind, ns: &str, name: &str) -> ApiRequest {
        let mut r = ApiRequest::new(
            Credentials::Identity(UserInfo::new("u", &[])),
            "c",
            verb,
            kind,
        );
        r.namespace = ns.into();
        r.name = name.into();
        r
    }

    #[test]
    fn a_request_is_labelled_with_upstreams_verb_and_scope() {
        let s = RequestShape::of(&req(Verb::List, Kind::Pod, "", "")).unwrap();
        assert_eq!((s.verb, s.scope), ("LIST", "cluster"));
        let s = RequestShape::of(&req(Verb::List, Kind::Pod, "default", "")).unwrap();
        assert_eq!((s.verb, s.scope), ("LIST", "namespace"));
        let s = RequestShape::of(&req(Verb::Create, Kind::Pod, "default", "")).unwrap();
        assert_eq!((s.verb, s.scope), ("POST", "resource"));
        let s = RequestShape::of(&req(Verb::Get, Kind::Node, "", "n")).unwrap();
        assert_eq!((s.verb, s.scope), ("GET", "resource"));
        let mut p = req(Verb::Get, Kind::Pod, "", "");
        p.body = Body::Path("/healthz".into());
        assert!(RequestShape::of(&p).is_none());
    }

    #[test]
    fn the_page_prints_each_series_with_its_labels_and_the_stored_objects() {
        let mut counts = BTreeMap::new();
        let mut s = RequestShape::of(&req(Verb::List, Kind::Deployment, "", "")).unwrap();
        s.code = 200;
        counts.insert(s, 3);
        let text = prometheus(&counts, &Store::default());
        assert!(text.contains("apiserver_request_total{code=\"200\",component=\"apiserver\",dry_run=\"\",group=\"apps\",resource=\"deployments\",scope=\"cluster\",subresource=\"\",verb=\"LIST\",version=\"v1\"} 3\n"), "{text}");
        assert!(text.contains("apiserver_storage_objects{resource=\"deployments.apps\"} 0\n"));
        assert!(text.contains("apiserver_storage_objects{resource=\"pods\"} 0\n"));
    }
}
