//! Where a request goes: a resource path parsed into its kind, namespace, name and
//! subresource (`/api/v1/namespaces/NS/pods/NAME/log`,
//! `/apis/events.k8s.io/v1/…` for the Events served in a second group), and the 404 of
//! a path that names nothing served.

use super::*;

/// Where a request goes, from its path.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Target {
    pub(super) kind: Kind,
    /// Served through events.k8s.io/v1 (core Events, converted at the endpoint).
    pub(super) events_v1: bool,
    /// Served through autoscaling/v1 (HorizontalPodAutoscalers stored in v2,
    /// converted at the endpoint).
    pub(super) autoscaling_v1: bool,
    /// The namespace of the path (None: cluster-scoped, or every namespace).
    pub(super) namespace: Option<String>,
    pub(super) name: Option<String>,
    pub(super) subresource: Option<String>,
    /// The `group/version` of the path (a custom object is served in any version its
    /// definition serves, converted at the endpoint).
    pub(super) api_version: String,
}

pub(super) fn not_found_path() -> HttpResponse {
    HttpResponse::json(
        404,
        &json!({
            "kind": "Status",
            "apiVersion": "v1",
            "metadata": {},
            "status": "Failure",
            "message": "the server could not find the requested resource",
            "reason": "NotFound",
            "details": {},
            "code": 404,
        }),
    )
}

/// Parse a resource path; None when it names nothing served.
pub(super) fn parse_target(path: &str) -> Option<Target> {
    let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
    let (group, version, rest) = match segs.as_slice() {
        ["api", v, rest @ ..] => ("", *v, rest),
        ["apis", g, v, rest @ ..] => (*g, *v, rest),
        _ => return None,
    };
    let (namespace, rest): (Option<String>, &[&str]) = match rest {
        // `/api/v1/namespaces/NAME[/status]` is the Namespace itself.
        ["namespaces", ns, res, tail @ ..] if group.is_empty() || !res.is_empty() => {
            if group.is_empty() && matches!(*res, "status" | "finalize") && tail.is_empty() {
                (None, rest)
            } else {
                (Some(ns.to_string()), &rest[2..])
            }
        }
        _ => (None, rest),
    };
    let (resource, name, sub) = match rest {
        [r] => (*r, None, None),
        [r, n] => (*r, Some(n.to_string()), None),
        [r, n, s] => (*r, Some(n.to_string()), Some(s.to_string())),
        _ => return None,
    };
    let kind = discovery::kind_of(group, version, resource)?;
    if namespace.is_some() && !kind.namespaced() {
        return None;
    }
    Some(Target {
        kind,
        events_v1: group == "events.k8s.io",
        autoscaling_v1: (group, version) == ("autoscaling", "v1"),
        namespace,
        name,
        subresource: sub,
        api_version: if group.is_empty() {
            version.to_string()
        } else {
            format!("{group}/{version}")
        },
    })
}
