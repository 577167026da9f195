//! The self-reviews (`kubectl auth can-i`, `can-i --list`, `auth whoami`), each
//! through the API server's door.
//!
//! Upstream: `pkg/registry/authorization/selfsubjectaccessreview/rest.go`,
//! `selfsubjectrulesreview/rest.go`, `pkg/registry/authentication/selfsubjectreview/rest.go`.

use super::*;
use crate::apiserver::rbac::Attributes;
use crate::apiserver::request::{Review, ReviewAnswer};

impl ApiServer {
    /// Whether `path` is a self-review's.
    pub(super) fn is_review(&self, path: &str) -> bool {
        matches!(
            path,
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"
                | "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews"
                | "/apis/authentication.k8s.io/v1/selfsubjectreviews"
                | "/apis/authentication.k8s.io/v1/tokenreviews"
        )
    }

    /// A self-review at `path`, or None when the path is not one.
    pub(super) fn review(&mut self, req: &HttpRequest, path: &str) -> Option<HttpResponse> {
        Some(match path {
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews" => self.access_review(req),
            "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews" => self.rules_review(req),
            "/apis/authentication.k8s.io/v1/selfsubjectreviews" => self.whoami(req),
            "/apis/authentication.k8s.io/v1/tokenreviews" => self.token_review(req),
            _ => return None,
        })
    }

    /// The door's answer to a self-review.
    fn ask(&mut self, req: &HttpRequest, review: Review) -> Result<ReviewAnswer, HttpResponse> {
        let mut r = self.request(req, Verb::Create, Kind::Pod);
        r.body = Body::Review(review);
        r.trace = None;
        match self.cluster.call(r) {
            Ok(resp) => resp.review.ok_or_else(|| {
                HttpResponse::error(&ApiError::bad_request("no review".into()), None, "")
            }),
            Err(e) => Err(HttpResponse::json(e.code, &status_of(&e, None, ""))),
        }
    }

    /// `SelfSubjectAccessReview` (`kubectl auth can-i`): may the requester do this?
    fn access_review(&mut self, req: &HttpRequest) -> HttpResponse {
        let body = match self.body(req) {
            Ok(b) => b,
            Err(e) => return HttpResponse::error(&e, None, ""),
        };
        let spec = body.get("spec").cloned().unwrap_or(json!({}));
        let s = |v: &Value, k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        let a = if let Some(r) = spec.get("resourceAttributes") {
            Attributes {
                verb: s(r, "verb"),
                api_group: s(r, "group"),
                resource: s(r, "resource"),
                subresource: s(r, "subresource"),
                namespace: s(r, "namespace"),
                name: s(r, "name"),
                path: String::new(),
                field_selector: r
                    .pointer("/fieldSelector/rawSelector")
                    .and_then(Value::as_str)
                    .map(crate::apiserver::selectors::equality_terms)
                    .unwrap_or_default(),
            }
        } else if let Some(n) = spec.get("nonResourceAttributes") {
            Attributes::path(&s(n, "verb"), &s(n, "path"))
        } else {
            let e = ApiError::invalid(
                Kind::Pod,
                "",
                &["spec.resourceAttributes: Invalid value: \"null\": exactly one of nonResourceAttributes or resourceAttributes must be specified".into()],
            );
            return HttpResponse::error(&e, None, "");
        };
        let status = match self.ask(req, Review::Access(a)) {
            Ok(ReviewAnswer::Access {
                allowed: true,
                reason,
            }) => json!({"allowed": true, "reason": reason}),
            Ok(ReviewAnswer::Access { reason, .. }) if reason.is_empty() => {
                json!({"allowed": false})
            }
            Ok(ReviewAnswer::Access { reason, .. }) => json!({"allowed": false, "reason": reason}),
            Ok(_) => json!({"allowed": false}),
            Err(r) => return r,
        };
        HttpResponse::json(
            201,
            &json!({"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1",
                    "metadata": {"creationTimestamp": null}, "spec": spec, "status": status}),
        )
    }

    /// `SelfSubjectRulesReview` (`kubectl auth can-i --list`): what the requester may
    /// do in a namespace, rule by rule as RBAC visits them.
    fn rules_review(&mut self, req: &HttpRequest) -> HttpResponse {
        let body = match self.body(req) {
            Ok(b) => b,
            Err(e) => return HttpResponse::error(&e, None, ""),
        };
        let ns = body
            .pointer("/spec/namespace")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let (rules, errors) = match self.ask(req, Review::Rules(ns.clone())) {
            Ok(ReviewAnswer::Rules(rules, errors)) => (rules, errors),
            Ok(_) => (Vec::new(), Vec::new()),
            Err(r) => return r,
        };
        let mut resource_rules = Vec::new();
        let mut non_resource_rules = Vec::new();
        for (_, r) in rules {
            if !r.non_resource_urls.is_empty() {
                non_resource_rules
                    .push(json!({"verbs": r.verbs, "nonResourceURLs": r.non_resource_urls}));
            } else {
                let mut rr =
                    json!({"verbs": r.verbs, "apiGroups": r.api_groups, "resources": r.resources});
                if !r.resource_names.is_empty() {
                    rr["resourceNames"] = json!(r.resource_names);
                }
                resource_rules.push(rr);
            }
        }
        let mut status = json!({
            "resourceRules": resource_rules,
            "nonResourceRules": non_resource_rules,
            "incomplete": !errors.is_empty(),
        });
        if !errors.is_empty() {
            status["evaluationError"] = json!(errors.join(", "));
        }
        HttpResponse::json(
            201,
            &json!({"kind": "SelfSubjectRulesReview", "apiVersion": "authorization.k8s.io/v1",
                    "metadata": {"creationTimestamp": null}, "spec": {"namespace": ns}, "status": status}),
        )
    }

    /// `TokenReview`: whose is the token in the body? The requester needs `create
    /// tokenreviews`; the token goes through the authenticators, as a request's would.
    fn token_review(&mut self, req: &HttpRequest) -> HttpResponse {
        let body = match self.body(req) {
            Ok(b) => b,
            Err(e) => return HttpResponse::error(&e, None, ""),
        };
        let token = body
            .pointer("/spec/token")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        if token.is_empty() {
            let e =
                ApiError::bad_request("token is required for TokenReview in authentication".into());
            return HttpResponse::error(&e, None, "");
        }
        // The bearer token a header would carry, mapped as the header's is.
        let mut as_header = req.clone();
        as_header.headers = vec![("authorization".into(), format!("Bearer {token}"))];
        let who = bearer_user(&as_header);
        let user = match self.ask(req, Review::Token(who)) {
            Ok(ReviewAnswer::Authenticated(u)) => u,
            Ok(_) => return not_found_path(),
            Err(r) => return r,
        };
        let mut spec = json!({"token": token});
        if let Some(a) = body.pointer("/spec/audiences") {
            spec["audiences"] = a.clone();
        }
        let status = match user {
            // The authenticators answer for the API server's own audience.
            Some(u) => json!({"authenticated": true,
                "user": {"username": u.name, "groups": u.groups},
                "audiences": ["https://kubernetes.default.svc.cluster.local"]}),
            None => json!({"user": {}}),
        };
        HttpResponse::json(
            201,
            &json!({"kind": "TokenReview", "apiVersion": "authentication.k8s.io/v1",
                    "metadata": {"creationTimestamp": null}, "spec": spec, "status": status}),
        )
    }

    /// `SelfSubjectReview` (`kubectl auth whoami`): who the requester is.
    fn whoami(&mut self, req: &HttpRequest) -> HttpResponse {
        let user = match self.ask(req, Review::WhoAmI) {
            Ok(ReviewAnswer::WhoAmI(u)) => u,
            Ok(_) => return not_found_path(),
            Err(r) => return r,
        };
        HttpResponse::json(
            201,
            &json!({"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1",
                    "metadata": {"creationTimestamp": null},
                    "status": {"userInfo": {"username": user.name, "groups": user.groups}}}),
        )
    }
}
