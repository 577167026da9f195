//! How an ingress controller picks the backend of a request (the Ingress API's
//! matching rules, `k8s.io/api/networking/v1/types.go` and the Ingress concept page):
//!
//! - **Host**: a rule's host matches the request's exactly, or, as `*.example.com`,
//!   when the request's host is one more label in front of `example.com`. Exact hosts
//!   are tried first, then wildcards, then the rules without a host (every host).
//! - **Path**, within the rules of that host: `Exact` matches the whole path, case
//!   sensitively; `Prefix` matches element by element split by `/` (`/foo` matches
//!   `/foo`, `/foo/` and `/foo/bar`, not `/foobar`; a trailing `/` is ignored);
//!   `ImplementationSpecific` is a prefix for ingress-nginx, read here as `Prefix`.
//!   The longest matching path wins, and between equals `Exact` wins over `Prefix`.
//! - Nothing matching: the Ingress's `defaultBackend`, else the controller's own
//!   default backend (ingress-nginx answers 404).

use crate::api::*;

/// Whether rule host `rule` matches request host `host`.
fn host_matches(rule: &str, host: &str) -> bool {
    match rule.strip_prefix("*.") {
        Some(suffix) => host
            .split_once('.')
            .is_some_and(|(first, rest)| !first.is_empty() && rest == suffix),
        None => rule == host,
    }
}

/// The path's elements (empty ones, from `//` or a trailing `/`, dropped).
fn elements(p: &str) -> Vec<&str> {
    p.split('/').filter(|e| !e.is_empty()).collect()
}

/// Whether a path of type `path_type` matches request path `req`.
fn path_matches(path_type: &str, path: &str, req: &str) -> bool {
    let path = if path.is_empty() { "/" } else { path };
    match path_type {
        "Exact" => path == req,
        _ => {
            let (p, r) = (elements(path), elements(req));
            p.len() <= r.len() && p.iter().zip(&r).all(|(a, b)| a == b)
        }
    }
}

/// The backend an ingress controller sends a request for `host` and `path` to, or
/// None: no rule matches and there is no default backend (a 404).
pub fn route<'a>(ing: &'a Ingress, host: &str, path: &str) -> Option<&'a IngressBackend> {
    let rules = &ing.spec.rules;
    let with_host = |pick: &dyn Fn(&IngressRule) -> bool| -> Vec<&'a IngressRule> {
        rules.iter().filter(|r| pick(r)).collect()
    };
    let mut chosen =
        with_host(&|r| !r.host.is_empty() && !r.host.starts_with("*.") && r.host == host);
    if chosen.is_empty() {
        chosen = with_host(&|r| r.host.starts_with("*.") && host_matches(&r.host, host));
    }
    if chosen.is_empty() {
        chosen = with_host(&|r| r.host.is_empty());
    }
    let mut best: Option<(&HTTPIngressPath, usize, bool)> = None;
    for rule in chosen {
        let paths = rule
            .http
            .as_ref()
            .and_then(|h| h.paths.as_deref())
            .unwrap_or_default();
        for p in paths {
            let t = p.path_type.as_deref().unwrap_or("ImplementationSpecific");
            if !path_matches(t, &p.path, path) {
                continue;
            }
            let len = p.path.len();
            let exact = t == "Exact";
            let better = match best {
                None => true,
                Some((_, l, e)) => len > l || (len == l && exact && !e),
            };
            if better {
                best = Some((p, len, exact));
            }
        }
    }
    best.map(|(p, _, _)| &p.backend)
        .or(ing.spec.default_backend.as_ref())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ingress(rules: &[(&str, &str, &str, &str)], default: Option<&str>) -> Ingress {
        let backend = |svc: &str| IngressBackend {
            service: Some(IngressServiceBackend {
                name: svc.into(),
                port: ServiceBackendPort {
                    name: String::new(),
                    number: 80,
                },
            }),
            resource: None,
        };
        let mut ing = Ingress::default();
        for (host, path, t, svc) in rules {
            ing.spec.rules.push(IngressRule {
                host: host.to_string(),
                http: Some(HTTPIngressRuleValue {
                    paths: Some(vec![HTTPIngressPath {
                        path: path.to_string(),
                        path_type: Some(t.to_string()),
                        backend: backend(svc),
                    }]),
                }),
            });
        }
        ing.spec.default_backend = default.map(backend);
        ing
    }

    fn to(ing: &Ingress, host: &str, path: &str) -> Option<String> {
        route(ing, host, path).and_then(|b| b.service.as_ref().map(|s| s.name.clone()))
    }

    #[test]
    fn prefix_paths_match_by_element_and_the_longest_wins() {
        let ing = ingress(
            &[
                ("", "/", "Prefix", "root"),
                ("", "/foo", "Prefix", "foo"),
                ("", "/foo/bar", "Exact", "exact"),
                ("", "/foo/bar", "Prefix", "prefix"),
            ],
            None,
        );
        assert_eq!(to(&ing, "any", "/foo").as_deref(), Some("foo"));
        assert_eq!(to(&ing, "any", "/foo/").as_deref(), Some("foo"));
        assert_eq!(to(&ing, "any", "/foobar").as_deref(), Some("root"));
        assert_eq!(to(&ing, "any", "/foo/bar").as_deref(), Some("exact"));
        assert_eq!(to(&ing, "any", "/foo/bar/baz").as_deref(), Some("prefix"));
    }

    #[test]
    fn exact_hosts_come_before_wildcards_and_wildcards_cover_one_label() {
        let ing = ingress(
            &[
                ("*.example.com", "/", "Prefix", "wild"),
                ("shop.example.com", "/", "Prefix", "shop"),
                ("", "/", "Prefix", "any"),
            ],
            None,
        );
        assert_eq!(to(&ing, "shop.example.com", "/").as_deref(), Some("shop"));
        assert_eq!(to(&ing, "blog.example.com", "/").as_deref(), Some("wild"));
        assert_eq!(to(&ing, "a.b.example.com", "/").as_deref(), Some("any"));
        assert_eq!(to(&ing, "example.com", "/").as_deref(), Some("any"));
    }

    #[test]
    fn nothing_matching_goes_to_the_default_backend_or_nowhere() {
        let ing = ingress(&[("shop.example.com", "/api", "Exact", "api")], Some("web"));
        assert_eq!(
            to(&ing, "shop.example.com", "/api/x").as_deref(),
            Some("web")
        );
        assert_eq!(to(&ing, "other", "/api").as_deref(), Some("web"));
        let ing = ingress(&[("shop.example.com", "/api", "Exact", "api")], None);
        assert_eq!(to(&ing, "shop.example.com", "/"), None);
    }
}
