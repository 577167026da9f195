//! The Kubernetes REST API over the simulated cluster, so that real clients (kubectl,
//! k9s, client-go programs) can drive it: `kubeplay-cli serve` carries HTTP to and
//! from [`ApiServer::handle`], which is pure — no sockets, no clock — and answers
//! from the same API server, admission, validation and RBAC the console's kubectl
//! uses.
//!
//! What it speaks:
//! - discovery: `/api`, `/apis` (aggregated `apidiscovery.k8s.io/v2` when asked for,
//!   the legacy lists otherwise), `/api/v1`, `/apis/GROUP/VERSION`, `/version`;
//! - get, list (label and field selectors), watch (`?watch=1`, streamed from the
//!   writes kept since the server started, `410 Gone` before them), create, update,
//!   patch (JSON, merge, strategic merge, server-side apply), delete (propagation,
//!   grace period, uid precondition) and deletecollection;
//! - the subresources `status`, `scale`, `eviction`, `binding` and `log`;
//! - the `Table` kubectl's `get` asks for, with the columns kubeplay's printers make
//!   (the `-o wide` ones at priority 1);
//! - errors as `metav1.Status` with the reasons and messages of [`ApiError`];
//! - bearer tokens for the kubeconfig's users, and impersonation (`--as`).
//!
//! Time stands still between requests: the simulation moves only by the `sim` verbs
//! sent to `POST /kubeplay/v1/sim` (or, with the server's realtime clock, with the wall).
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/` (get.go, create.go,
//! update.go, patch.go, delete.go, watch.go, response.go for Table conversion),
//! `staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go` (paths to
//! attributes), `staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go`.

mod proto_fields;
pub mod protobuf;
mod resources;
mod reviews;
mod table;

use crate::api::{Kind, Object};
use crate::apiserver::request::{ApiRequest, Body, Credentials, Verb};
use crate::apiserver::selectors::fields_match;
use crate::apiserver::{discovery, health};
use crate::apiserver::{ApiError, Written};
use crate::cluster::Cluster;
use serde_json::{json, Value};
use std::collections::VecDeque;
use table::TableWanted;

/// An HTTP request as the server read it.
#[derive(Clone, Debug, Default)]
pub struct HttpRequest {
    /// `GET`, `POST`, `PUT`, `PATCH`, `DELETE`.
    pub method: String,
    /// The path, percent-decoded, without the query.
    pub path: String,
    /// The query's parameters, percent-decoded, in order.
    pub query: Vec<(String, String)>,
    /// The headers; names in lower case.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl HttpRequest {
    /// The first header of this (lower-case) name.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The first query parameter of this name.
    pub fn param(&self, name: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    fn flag(&self, name: &str) -> bool {
        matches!(self.param(name), Some("1" | "true"))
    }
}

/// An HTTP response.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpResponse {
    /// Status code.
    pub status: u16,
    /// `Content-Type`.
    pub content_type: String,
    /// Extra headers (`Warning`).
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl HttpResponse {
    fn json(status: u16, v: &Value) -> Self {
        HttpResponse {
            status,
            content_type: "application/json".into(),
            headers: Vec::new(),
            body: v.to_string().into_bytes(),
        }
    }

    fn text(status: u16, s: String) -> Self {
        HttpResponse {
            status,
            content_type: "text/plain; charset=utf-8".into(),
            headers: Vec::new(),
            body: s.into_bytes(),
        }
    }

    fn error(e: &ApiError, kind: Option<Kind>, name: &str) -> Self {
        HttpResponse::json(e.code, &status_of(e, kind, name))
    }
}

/// What a request gets: a response, or a watch that streams until the client leaves.
#[derive(Debug)]
pub enum Reply {
    /// A whole response.
    Response(HttpResponse),
    /// A watch: send `first`, then [`ApiServer::watch_events`] as writes come.
    Watch(WatchStream),
    /// Nothing: the API server is down (`sim apiserver down`), so nothing listens at its
    /// address; the connection is closed without a response.
    NoAnswer,
}

/// An open watch: what it watches and how far it has read.
#[derive(Clone, Debug)]
pub struct WatchStream {
    kind: Kind,
    namespace: Option<String>,
    labels: Option<crate::api::LabelSelector>,
    fields: Vec<crate::apiserver::selectors::FieldReq>,
    table: Option<TableWanted>,
    /// The last resource version sent.
    pub cursor: u64,
    /// The events to send at once (a watch from "0": the current objects as ADDED).
    pub first: Vec<u8>,
    /// `timeoutSeconds`: when the server ends the watch.
    pub timeout_seconds: Option<u64>,
    /// The response's `Content-Type`.
    pub content_type: String,
}

/// How many writes the server keeps for watches to start from: a watch from an older
/// resource version gets `410 Gone`, as after an etcd compaction.
pub const KEPT_WRITES: usize = 100_000;

/// The path the `sim` verbs are sent to (body: the words after `sim`).
pub const SIM_PATH: &str = "/kubeplay/v1/sim";

/// The bearer token of a kubeconfig user.
pub fn token_for(user: &str) -> String {
    format!("kubeplay-token-{user}")
}

/// The users whose bearer tokens the server accepts, the admin first.
pub const USERS: &[&str] = &["kubernetes-admin", "alice", "bob", "expired"];

/// Who a request without credentials is: the admin of kubeplay's kubeconfig.
pub const ADMIN_USER: &str = "kubernetes-admin";

/// The simulated cluster behind a Kubernetes API endpoint.
pub struct ApiServer {
    /// The cluster.
    pub cluster: Cluster,
    kept: VecDeque<Written>,
    /// Writes at or before this resource version are no longer kept.
    compacted: u64,
}

/// The `metav1.Status` of an error, as the API server writes it.
pub fn status_of(e: &ApiError, kind: Option<Kind>, name: &str) -> Value {
    let mut s = json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": e.message,
        "reason": e.reason,
        "code": e.code,
    });
    if e.reason.is_empty() {
        s.as_object_mut().map(|m| m.remove("reason"));
    }
    if let Some(kind) = kind {
        let (group, _) = discovery::group_version(kind);
        let mut d = json!({});
        if !name.is_empty() {
            d["name"] = json!(name);
        }
        if !group.is_empty() {
            d["group"] = json!(group);
        }
        if e.reason == "Invalid" {
            d["kind"] = json!(kind.name());
            // "field: message" causes, as `field.ErrorList` gives them.
            let causes: Vec<Value> = invalid_causes(&e.message)
                .into_iter()
                .map(|c| match c.split_once(": ") {
                    Some((field, msg)) => json!({
                        "reason": cause_reason(msg),
                        "message": msg,
                        "field": field,
                    }),
                    None => json!({"message": c}),
                })
                .collect();
            d["causes"] = Value::Array(causes);
        } else {
            d["kind"] = json!(kind.resource());
        }
        if e.code != 500 {
            s["details"] = d;
        }
    }
    s
}

/// The causes of an `Invalid` message `KIND "name" is invalid: a` or `…: [a, b]`.
fn invalid_causes(message: &str) -> Vec<String> {
    let Some((_, detail)) = message.split_once(" is invalid: ") else {
        return vec![message.to_string()];
    };
    match detail.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(list) => list.split(", ").map(str::to_string).collect(),
        None => vec![detail.to_string()],
    }
}

fn cause_reason(msg: &str) -> &'static str {
    if msg.starts_with("Required value") {
        "FieldValueRequired"
    } else if msg.starts_with("Unsupported value") {
        "FieldValueNotSupported"
    } else if msg.starts_with("Forbidden") {
        "FieldValueForbidden"
    } else if msg.starts_with("Duplicate value") {
        "FieldValueDuplicate"
    } else {
        "FieldValueInvalid"
    }
}

/// Where a request goes, from its path.
#[derive(Clone, Debug, PartialEq)]
struct Target {
    kind: Kind,
    /// The namespace of the path (None: cluster-scoped, or every namespace).
    namespace: Option<String>,
    name: Option<String>,
    subresource: Option<String>,
}

fn not_found_path() -> HttpResponse {
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
fn parse_target(path: &str) -> Option<Target> {
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
        namespace,
        name,
        subresource: sub,
    })
}

fn decode_body(req: &HttpRequest) -> Result<Value, ApiError> {
    if req
        .header("content-type")
        .is_some_and(|c| c.contains("application/vnd.kubernetes.protobuf"))
    {
        return protobuf::decode(&req.body).map_err(ApiError::bad_request);
    }
    let text = std::str::from_utf8(&req.body)
        .map_err(|_| ApiError::bad_request("the body is not UTF-8".into()))?;
    let is_yaml = req
        .header("content-type")
        .is_some_and(|c| c.contains("yaml"));
    if is_yaml {
        crate::yaml_depth::check(text).map_err(|e| ApiError::bad_request(e.to_string()))?;
        crate::yaml_depth::check_expansion(text)
            .map_err(|e| ApiError::bad_request(e.to_string()))?;
        serde_yaml_ng::from_str(text).map_err(|e| ApiError::bad_request(e.to_string()))
    } else {
        serde_json::from_str(text).map_err(|e| {
            ApiError::bad_request(format!("couldn't get version/kind; json parse error: {e}"))
        })
    }
}

impl ApiServer {
    /// Serve `cluster`: from now on every write is kept for watches.
    pub fn new(mut cluster: Cluster) -> Self {
        cluster.store.journal_objects(true);
        let compacted = cluster.store.revision();
        ApiServer {
            cluster,
            kept: VecDeque::new(),
            compacted,
        }
    }

    /// Take the writes made since the last call into the kept window (call after
    /// anything that may have written: a request, a step of the clock).
    pub fn collect(&mut self) {
        for w in self.cluster.store.take_journal() {
            self.kept.push_back(w);
        }
        while self.kept.len() > KEPT_WRITES {
            if let Some(w) = self.kept.pop_front() {
                self.compacted = w.resource_version;
            }
        }
    }

    /// The current resource version.
    pub fn revision(&self) -> u64 {
        self.cluster.store.revision()
    }

    /// The door request an HTTP request makes: who it says it is (its bearer token's
    /// user; none: the admin, as the old insecure port took it), whom it impersonates,
    /// its field manager (`fieldManager`, else the User-Agent's product), and the line
    /// it is kept under in the request log.
    fn request(&self, req: &HttpRequest, verb: Verb, kind: Kind) -> ApiRequest {
        // client-go sends no bearer token over plain HTTP. The server listens on the
        // loopback address only, as kube-apiserver's old insecure port did, and takes
        // such a request as the kubeconfig's admin (kubeadm's `kubernetes-admin`, the
        // console's own user); other identities come by impersonation (`--as`, or a
        // kubeconfig user's `as:`).
        let user = match req
            .header("authorization")
            .and_then(|a| a.strip_prefix("Bearer "))
            .map(str::trim)
        {
            None => ADMIN_USER.to_string(),
            Some(t) => USERS
                .iter()
                .find(|u| token_for(u) == t)
                .map(|u| u.to_string())
                .unwrap_or_default(),
        };
        let mut r = ApiRequest::new(
            Credentials::Token(user),
            crate::client::writer::KUBECTL,
            verb,
            kind,
        );
        if let Some(as_user) = req.header("impersonate-user") {
            let groups: Vec<String> = req
                .headers
                .iter()
                .filter(|(k, _)| k == "impersonate-group")
                .map(|(_, v)| v.clone())
                .collect();
            r.impersonate = Some((as_user.to_string(), groups));
        }
        let manager = req
            .param("fieldManager")
            .filter(|m| !m.is_empty())
            .map(str::to_string)
            .or_else(|| {
                req.header("user-agent")
                    .and_then(|ua| ua.split('/').next())
                    .filter(|p| !p.is_empty())
                    .map(str::to_string)
            })
            .unwrap_or_else(|| "unknown".into());
        r.manager = crate::apiserver::managed_fields::Writer::update(&manager);
        r.dry_run = req.param("dryRun") == Some("All");
        r.trace = Some(format!("{} {}", req.method, req.path));
        r
    }

    /// Answer one request.
    pub fn handle(&mut self, req: &HttpRequest) -> Reply {
        // A stopped API server answers nothing, its health endpoints included; the
        // `sim` verbs (which start it again) are the playground's, not its.
        if self.cluster.apiserver_down() && req.path.trim_end_matches('/') != SIM_PATH {
            return Reply::NoAnswer;
        }
        let reply = self.route(req);
        self.collect();
        reply
    }

    /// A non-resource path: authenticated and authorized by the door, then served.
    fn non_resource(
        &mut self,
        req: &HttpRequest,
        path: &str,
        verb: Verb,
        body: Value,
        ct: &str,
    ) -> Reply {
        let mut r = self.request(req, verb, Kind::Pod);
        r.body = Body::Path(path.to_string());
        r.trace = None;
        Reply::Response(match self.cluster.call(r) {
            Ok(_) => {
                let mut resp = HttpResponse::json(200, &body);
                resp.content_type = ct.into();
                resp
            }
            Err(e) => HttpResponse::json(e.code, &status_of(&e, None, "")),
        })
    }

    fn route(&mut self, req: &HttpRequest) -> Reply {
        if req
            .header("content-type")
            .is_some_and(|c| c.contains("cbor"))
        {
            // CBOR is off in client-go by default; a 415 makes a client that tries it
            // send JSON from then on.
            return Reply::Response(HttpResponse::json(
                415,
                &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                        "message": format!("the body of the request was in an unknown format - accepted media types include: application/json, application/yaml"),
                        "reason": "UnsupportedMediaType", "code": 415}),
            ));
        }
        let path = req.path.trim_end_matches('/').to_string();
        let accept = req.header("accept").unwrap_or("");
        let aggregated = accept.contains("as=APIGroupDiscoveryList");
        const AGGREGATED: &str =
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
        const JSON: &str = "application/json";
        let get = Verb::Get;
        match path.as_str() {
            "/api" if aggregated => {
                return self.non_resource(req, &path, get, discovery::aggregated(true), AGGREGATED)
            }
            "/apis" if aggregated => {
                return self.non_resource(req, &path, get, discovery::aggregated(false), AGGREGATED)
            }
            "/api" => return self.non_resource(req, &path, get, discovery::api_versions(), JSON),
            "/apis" => {
                return self.non_resource(req, &path, get, discovery::api_group_list(), JSON)
            }
            "/version" => return self.non_resource(req, &path, get, discovery::version(), JSON),
            "/openapi/v3" => {
                return self.non_resource(req, &path, get, discovery::openapi_index(), JSON)
            }
            "/healthz" | "/livez" | "/readyz" => {
                let mut r = self.request(req, get, Kind::Pod);
                r.body = Body::Path(path.clone());
                r.trace = None;
                // `?verbose` has no value: its presence asks for the listing.
                let verbose = req.param("verbose").is_some();
                let name = path.trim_start_matches('/');
                return Reply::Response(match self.cluster.call(r) {
                    Ok(_) => {
                        let h = health::answer(self.cluster.unavailable(), name, verbose)
                            .unwrap_or(health::Health {
                                code: 503,
                                body: String::new(),
                            });
                        HttpResponse::text(h.code, h.body)
                    }
                    Err(e) => HttpResponse::json(e.code, &status_of(&e, None, "")),
                });
            }
            SIM_PATH => return Reply::Response(self.sim(req)),
            _ => {}
        }
        if let Some(gv) = path.strip_prefix("/openapi/v3/") {
            return match discovery::openapi_document(gv) {
                Some(doc) => self.non_resource(req, &path, get, doc, JSON),
                None => Reply::Response(not_found_path()),
            };
        }
        let segs: Vec<&str> = path.trim_matches('/').split('/').collect();
        let list = match segs.as_slice() {
            ["api", v] => discovery::resource_list("", v),
            ["apis", g, v] => discovery::resource_list(g, v),
            _ => None,
        };
        if let Some(list) = list {
            return self.non_resource(req, &path, get, list, JSON);
        }
        if req.method == "POST" {
            if let Some(r) = self.review(req, &path) {
                return Reply::Response(r);
            }
        }
        let Some(t) = parse_target(&path) else {
            return Reply::Response(not_found_path());
        };
        let verb = match (req.method.as_str(), &t.name) {
            ("GET", _) if req.flag("watch") => Verb::Watch,
            ("GET", Some(_)) => Verb::Get,
            ("GET", None) => Verb::List,
            ("POST", _) => Verb::Create,
            ("PUT", _) => Verb::Update,
            ("PATCH", _) => Verb::Patch,
            ("DELETE", Some(_)) => Verb::Delete,
            ("DELETE", None) => Verb::DeleteCollection,
            _ => {
                return Reply::Response(HttpResponse::json(
                    405,
                    &json!({"kind": "Status", "apiVersion": "v1", "metadata": {},
                            "status": "Failure", "message": format!("the server does not allow this method on the requested resource"),
                            "reason": "MethodNotAllowed", "code": 405}),
                ))
            }
        };
        let r = match verb {
            Verb::Watch => return self.watch(req, &t),
            Verb::Get => self.get(req, &t),
            Verb::List => self.list(req, &t),
            _ => self.write(req, &t, verb),
        };
        Reply::Response(if t.kind == Kind::Endpoints {
            // `deprecation.WarningMessage`: on every request for v1 Endpoints.
            let w = crate::command::kubectl::ENDPOINTS_DEPRECATED
                .trim_start_matches("Warning: ")
                .trim_end()
                .to_string();
            with_warnings(r, &[w])
        } else {
            r
        })
    }
}

/// `Warning` headers, as the API server sends admission's warnings.
fn with_warnings(mut r: HttpResponse, warnings: &[String]) -> HttpResponse {
    for w in warnings {
        r.headers.push((
            "Warning".into(),
            format!("299 - \"{}\"", w.replace('"', "\\\"")),
        ));
    }
    r
}

impl WatchStream {
    fn matches(&self, o: &Object) -> bool {
        self.namespace
            .as_deref()
            .is_none_or(|ns| o.meta().namespace == ns)
            && self
                .labels
                .as_ref()
                .is_none_or(|s| s.matches(&o.meta().labels))
            && fields_match(o, &self.fields)
    }
}

#[cfg(test)]
mod tests;
