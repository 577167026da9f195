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

pub mod discovery;
pub mod patch;
mod proto_fields;
pub mod protobuf;

use crate::api::{Kind, Object};
use crate::apiserver::rbac::{authorize, forbidden, Attributes, Decision, UserInfo};
use crate::apiserver::{ApiError, DeleteOptions, ObjKey, WatchType, Written};
use crate::client::Request;
use crate::cluster::{kubectl, Cluster};
use crate::command::select::{fields_match, parse_field_selector, parse_label_selector};
use crate::printers::get::{headers, row, TableOptions};
use serde_json::{json, Value};
use std::collections::VecDeque;
use std::sync::Arc;

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
}

/// An open watch: what it watches and how far it has read.
#[derive(Clone, Debug)]
pub struct WatchStream {
    kind: Kind,
    namespace: Option<String>,
    labels: Option<crate::api::LabelSelector>,
    fields: Vec<crate::command::select::FieldReq>,
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

#[derive(Clone, Copy, Debug, PartialEq)]
enum IncludeObject {
    None,
    Metadata,
    Object,
}

#[derive(Clone, Copy, Debug)]
struct TableWanted {
    include: IncludeObject,
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
        serde_yaml_ng::from_str(text).map_err(|e| ApiError::bad_request(e.to_string()))
    } else {
        serde_json::from_str(text).map_err(|e| {
            ApiError::bad_request(format!("couldn't get version/kind; json parse error: {e}"))
        })
    }
}

fn api_version_of(kind: Kind) -> &'static str {
    kind.api_version().rsplit('/').next().unwrap_or("v1")
}

/// Decode a body into an object of `kind`: type errors as the API server's 400,
/// unknown fields refused under `fieldValidation=Strict`, warned of under `Warn`.
fn decode_object(
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

/// Go's JSON decoding leaves a field given `null` at its zero value; kubeplay's types
/// want the field absent for that.
fn drop_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(drop_nulls);
        }
        Value::Array(a) => a.iter_mut().for_each(drop_nulls),
        _ => {}
    }
}

/// Keep what JSON does not carry (simulated times) from the live object.
fn keep_hidden(live: &Object, new: &mut Object) {
    let (o, m) = (live.meta(), new.meta_mut());
    m.created_ms = o.created_ms;
    m.deletion_ms = o.deletion_ms;
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

    fn user_of(&self, req: &HttpRequest) -> Result<UserInfo, HttpResponse> {
        let unauthorized = || {
            HttpResponse::json(
                401,
                &json!({"kind": "Status", "apiVersion": "v1", "metadata": {},
                        "status": "Failure", "message": "Unauthorized",
                        "reason": "Unauthorized", "code": 401}),
            )
        };
        let token = req
            .header("authorization")
            .and_then(|a| a.strip_prefix("Bearer "))
            .map(str::trim);
        let me = match token {
            // client-go sends no bearer token over plain HTTP. The server listens on
            // the loopback address only, as kube-apiserver's old insecure port did,
            // and takes such a request as the kubeconfig's admin (kubeadm's
            // `kubernetes-admin`, the console's own user); other identities come by
            // impersonation (`--as`, or a kubeconfig user's `as:`).
            None => {
                crate::cluster::kubeconfig::authenticate(ADMIN_USER).ok_or_else(unauthorized)?
            }
            Some(t) => {
                let name = USERS
                    .iter()
                    .find(|u| token_for(u) == t)
                    .ok_or_else(unauthorized)?;
                crate::cluster::kubeconfig::authenticate(name).ok_or_else(unauthorized)?
            }
        };
        let Some(as_user) = req.header("impersonate-user") else {
            return Ok(me);
        };
        let groups: Vec<String> = req
            .headers
            .iter()
            .filter(|(k, _)| k == "impersonate-group")
            .map(|(_, v)| v.clone())
            .collect();
        crate::apiserver::rbac::impersonate(&self.cluster.store, &me, as_user, &groups)
            .map_err(|e| HttpResponse::json(e.code, &status_of(&e, None, "")))
    }

    fn check(&self, user: &UserInfo, a: &Attributes) -> Result<String, HttpResponse> {
        match authorize(&self.cluster.store, user, a) {
            Decision::Allow(why) => Ok(why),
            Decision::Deny(reason) => {
                let e = forbidden(user, a, &reason);
                Err(HttpResponse::json(e.code, &status_of(&e, None, "")))
            }
        }
    }

    /// Answer one request.
    pub fn handle(&mut self, req: &HttpRequest) -> Reply {
        let reply = match self.user_of(req) {
            Ok(user) => self.route(req, &user),
            Err(r) => Reply::Response(r),
        };
        self.collect();
        reply
    }

    fn route(&mut self, req: &HttpRequest, user: &UserInfo) -> Reply {
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
        let path = req.path.trim_end_matches('/');
        let accept = req.header("accept").unwrap_or("");
        let aggregated = accept.contains("as=APIGroupDiscoveryList");
        let non_resource = |me: &Self, body: Value, ct: &str| -> Reply {
            let a = Attributes::path("get", path);
            if let Err(r) = me.check(user, &a) {
                return Reply::Response(r);
            }
            let mut r = HttpResponse::json(200, &body);
            r.content_type = ct.into();
            Reply::Response(r)
        };
        const AGGREGATED: &str =
            "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList";
        match path {
            "/api" if aggregated => {
                return non_resource(self, discovery::aggregated(true), AGGREGATED)
            }
            "/apis" if aggregated => {
                return non_resource(self, discovery::aggregated(false), AGGREGATED)
            }
            "/api" => return non_resource(self, discovery::api_versions(), "application/json"),
            "/apis" => return non_resource(self, discovery::api_group_list(), "application/json"),
            "/version" => return non_resource(self, discovery::version(), "application/json"),
            "/openapi/v3" => {
                return non_resource(self, discovery::openapi_index(), "application/json")
            }
            "/healthz" | "/livez" | "/readyz" => {
                return Reply::Response(HttpResponse::text(200, "ok".into()))
            }
            SIM_PATH => return Reply::Response(self.sim(req, user)),
            _ => {}
        }
        if let Some(gv) = path.strip_prefix("/openapi/v3/") {
            return match discovery::openapi_document(gv) {
                Some(doc) => non_resource(self, doc, "application/json"),
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
            return non_resource(self, list, "application/json");
        }
        if req.method == "POST" {
            match path {
                "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews" => {
                    return Reply::Response(self.access_review(req, user))
                }
                "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews" => {
                    return Reply::Response(self.rules_review(req, user))
                }
                "/apis/authentication.k8s.io/v1/selfsubjectreviews" => {
                    return Reply::Response(self.whoami(req, user))
                }
                _ => {}
            }
        }
        let Some(t) = parse_target(path) else {
            return Reply::Response(not_found_path());
        };
        let verb = match (req.method.as_str(), &t.name) {
            ("GET", _) if req.flag("watch") => "watch",
            ("GET", Some(_)) => "get",
            ("GET", None) => "list",
            ("POST", _) => "create",
            ("PUT", _) => "update",
            ("PATCH", _) => "patch",
            ("DELETE", Some(_)) => "delete",
            ("DELETE", None) => "deletecollection",
            _ => {
                return Reply::Response(HttpResponse::json(
                    405,
                    &json!({"kind": "Status", "apiVersion": "v1", "metadata": {},
                            "status": "Failure", "message": format!("the server does not allow this method on the requested resource"),
                            "reason": "MethodNotAllowed", "code": 405}),
                ))
            }
        };
        // A POST names its object in the body, and a subresource POST in the path.
        let (verb, name) = match (verb, &t.subresource) {
            ("create", Some(_)) => ("create", t.name.clone().unwrap_or_default()),
            _ => (verb, t.name.clone().unwrap_or_default()),
        };
        let mut a = Attributes::on(verb, t.kind, t.namespace.as_deref().unwrap_or(""), &name);
        if let Some(s) = &t.subresource {
            a = a.subresource(s);
        }
        let why = match self.check(user, &a) {
            Ok(why) => why,
            Err(r) => return Reply::Response(r),
        };
        let r = match verb {
            "watch" => return self.watch(req, &t),
            "get" => self.get(req, &t),
            "list" => self.list(req, &t),
            _ => {
                let label = format!("{} {}", req.method, req.path);
                self.cluster
                    .start_acting(user.clone(), label, vec![(a.clone(), why)]);
                let r = self.write(req, &t, verb);
                self.cluster.finish_acting(true);
                r
            }
        };
        Reply::Response(if t.kind == Kind::Endpoints {
            // `deprecation.WarningMessage`: on every request for v1 Endpoints.
            let w = crate::command::kubectl::ENDPOINTS_DEPRECATED
                .trim_start_matches("Warning: ")
                .trim_end()
                .to_string();
            Self::with_warnings(r, &[w])
        } else {
            r
        })
    }

    fn table_wanted(req: &HttpRequest) -> Option<TableWanted> {
        let accept = req.header("accept")?;
        if !accept.contains("as=Table") {
            return None;
        }
        let include = match req.param("includeObject") {
            Some("None") => IncludeObject::None,
            Some("Object") => IncludeObject::Object,
            _ => IncludeObject::Metadata,
        };
        Some(TableWanted { include })
    }

    fn object_json(&self, obj: &Object) -> Value {
        obj.to_json()
    }

    fn table(&self, kind: Kind, objs: &[&Object], t: TableWanted, rv: u64) -> Value {
        let narrow = headers(kind, &TableOptions::default()).len();
        let wide_opts = TableOptions {
            wide: true,
            ..Default::default()
        };
        let cols: Vec<Value> = headers(kind, &wide_opts)
            .iter()
            .enumerate()
            .map(|(i, h)| {
                json!({
                    "name": column_name(h),
                    "type": "string",
                    "format": if i == 0 && h == "NAME" { "name" } else { "" },
                    "description": "",
                    "priority": if i < narrow { 0 } else { 1 },
                })
            })
            .collect();
        let now = self.cluster.now();
        let rows: Vec<Value> = objs
            .iter()
            .map(|o| {
                let mut r = json!({"cells": row(o, &wide_opts, now)});
                match t.include {
                    IncludeObject::None => {}
                    IncludeObject::Metadata => {
                        let j = o.to_json();
                        r["object"] = json!({
                            "kind": "PartialObjectMetadata",
                            "apiVersion": "meta.k8s.io/v1",
                            "metadata": j.get("metadata").cloned().unwrap_or(Value::Null),
                        });
                    }
                    IncludeObject::Object => r["object"] = o.to_json(),
                }
                r
            })
            .collect();
        json!({
            "kind": "Table",
            "apiVersion": "meta.k8s.io/v1",
            "metadata": {"resourceVersion": rv.to_string()},
            "columnDefinitions": cols,
            "rows": rows,
        })
    }

    fn get(&mut self, req: &HttpRequest, t: &Target) -> HttpResponse {
        let name = t.name.clone().unwrap_or_default();
        let key = ObjKey::new(t.namespace.as_deref().unwrap_or(""), &name);
        if t.subresource.as_deref() == Some("log") {
            return self.log(req, t);
        }
        let Some(obj) = self.cluster.store.get_object(t.kind, &key) else {
            return HttpResponse::error(&ApiError::not_found(t.kind, &name), Some(t.kind), &name);
        };
        match t.subresource.as_deref() {
            Some("scale") => match scale_of(obj) {
                Some(s) => HttpResponse::json(200, &s),
                None => not_found_path(),
            },
            Some("status") | None => match Self::table_wanted(req) {
                Some(tw) => {
                    let rv = self.revision();
                    HttpResponse::json(200, &self.table(t.kind, &[obj], tw, rv))
                }
                None => HttpResponse::json(200, &self.object_json(obj)),
            },
            Some(_) => not_found_path(),
        }
    }

    fn selected(&self, req: &HttpRequest, t: &Target) -> Result<Vec<&Object>, HttpResponse> {
        let bad = |e: String| HttpResponse::error(&ApiError::bad_request(e), None, "");
        let labels = req
            .param("labelSelector")
            .filter(|s| !s.is_empty())
            .map(parse_label_selector)
            .transpose()
            .map_err(|e| bad(e.trim_start_matches("error: ").to_string()))?;
        let fields = req
            .param("fieldSelector")
            .filter(|s| !s.is_empty())
            .map(|f| parse_field_selector(t.kind, f))
            .transpose()
            .map_err(|e| bad(e.trim_start_matches("error: ").to_string()))?;
        Ok(self
            .cluster
            .store
            .list_objects(t.kind)
            .filter(|o| {
                t.namespace
                    .as_deref()
                    .is_none_or(|ns| o.meta().namespace == ns)
            })
            .filter(|o| labels.as_ref().is_none_or(|s| s.matches(&o.meta().labels)))
            .filter(|o| fields.as_ref().is_none_or(|f| fields_match(o, f)))
            .collect())
    }

    fn list(&mut self, req: &HttpRequest, t: &Target) -> HttpResponse {
        let objs = match self.selected(req, t) {
            Ok(o) => o,
            Err(r) => return r,
        };
        let rv = self.revision();
        if let Some(tw) = Self::table_wanted(req) {
            return HttpResponse::json(200, &self.table(t.kind, &objs, tw, rv));
        }
        let items: Vec<Value> = objs.iter().map(|o| self.object_json(o)).collect();
        HttpResponse::json(
            200,
            &json!({
                "kind": format!("{}List", t.kind.name()),
                "apiVersion": t.kind.api_version(),
                "metadata": {"resourceVersion": rv.to_string()},
                "items": items,
            }),
        )
    }

    fn watch(&mut self, req: &HttpRequest, t: &Target) -> Reply {
        let bad =
            |e: String| Reply::Response(HttpResponse::error(&ApiError::bad_request(e), None, ""));
        let labels = match req
            .param("labelSelector")
            .filter(|s| !s.is_empty())
            .map(parse_label_selector)
            .transpose()
        {
            Ok(l) => l,
            Err(e) => return bad(e),
        };
        let mut fields = match req
            .param("fieldSelector")
            .filter(|s| !s.is_empty())
            .map(|f| parse_field_selector(t.kind, f))
            .transpose()
        {
            Ok(f) => f.unwrap_or_default(),
            Err(e) => return bad(e),
        };
        if let Some(name) = &t.name {
            // A watch on one name (old clients): the same as a metadata.name selector.
            if let Ok(mut f) = parse_field_selector(t.kind, &format!("metadata.name={name}")) {
                fields.append(&mut f);
            }
        }
        let table = Self::table_wanted(req);
        let mut w = WatchStream {
            kind: t.kind,
            namespace: t.namespace.clone(),
            labels,
            fields,
            table,
            cursor: self.revision(),
            first: Vec::new(),
            timeout_seconds: req.param("timeoutSeconds").and_then(|s| s.parse().ok()),
            content_type: "application/json".into(),
        };
        let from: Option<u64> = req
            .param("resourceVersion")
            .filter(|s| !s.is_empty())
            .and_then(|s| s.parse().ok());
        match from {
            None | Some(0) => {
                // Start from now: every matching object as ADDED.
                let objs: Vec<Object> = self
                    .cluster
                    .store
                    .list_objects(t.kind)
                    .filter(|o| w.matches(o))
                    .cloned()
                    .collect();
                for o in &objs {
                    let line = self.event_line(&w, "ADDED", o, None);
                    w.first.extend(line);
                }
            }
            Some(rv) if rv < self.compacted => {
                let msg = format!("too old resource version: {rv} ({})", self.compacted + 1);
                let e = ApiError {
                    code: 410,
                    reason: "Expired",
                    message: msg,
                    kubectl_message: None,
                };
                let mut line =
                    json!({"type": "ERROR", "object": status_of(&e, None, "")}).to_string();
                line.push('\n');
                w.first = line.into_bytes();
                w.cursor = u64::MAX;
            }
            Some(rv) => {
                w.cursor = rv;
                let more = self.watch_events(&mut w);
                w.first = more;
            }
        }
        Reply::Watch(w)
    }

    fn event_line(&self, w: &WatchStream, type_: &str, obj: &Object, rv: Option<u64>) -> Vec<u8> {
        let mut o = match w.table {
            Some(tw) => {
                let rvv = rv.unwrap_or_else(|| self.revision());
                self.table(w.kind, &[obj], tw, rvv)
            }
            None => self.object_json(obj),
        };
        if let (Some(rv), None) = (rv, w.table) {
            o["metadata"]["resourceVersion"] = json!(rv.to_string());
        }
        let mut line = json!({"type": type_, "object": o}).to_string();
        line.push('\n');
        line.into_bytes()
    }

    /// The events of writes after the watch's cursor that it watches, as lines to
    /// send; the cursor moves past them. A watch the kept window no longer reaches
    /// ends (an empty answer with the cursor at `u64::MAX`).
    pub fn watch_events(&self, w: &mut WatchStream) -> Vec<u8> {
        let mut out = Vec::new();
        if w.cursor == u64::MAX {
            return out;
        }
        for e in &self.kept {
            if e.resource_version <= w.cursor {
                continue;
            }
            w.cursor = e.resource_version;
            if e.object.kind() != w.kind || !w.matches(&e.object) {
                continue;
            }
            let type_ = match e.type_ {
                WatchType::Added => "ADDED",
                WatchType::Modified => "MODIFIED",
                WatchType::Deleted => "DELETED",
            };
            out.extend(self.event_line(w, type_, &e.object, Some(e.resource_version)));
        }
        w.cursor = w.cursor.max(self.revision());
        out
    }

    fn log(&mut self, req: &HttpRequest, t: &Target) -> HttpResponse {
        let name = t.name.clone().unwrap_or_default();
        let ns = t.namespace.clone().unwrap_or_default();
        let mut words = vec![
            "kubectl".to_string(),
            "logs".into(),
            name.clone(),
            "-n".into(),
            ns,
        ];
        if let Some(c) = req.param("container") {
            words.extend(["-c".into(), c.to_string()]);
        }
        if req.flag("previous") {
            words.push("--previous".into());
        }
        if let Some(n) = req.param("tailLines") {
            words.extend(["--tail".into(), n.to_string()]);
        }
        if req.flag("timestamps") {
            words.push("--timestamps".into());
        }
        let line = words.join(" ");
        let out = crate::command::run(&mut self.cluster, &line, None, &crate::command::NoFiles);
        if out.ok {
            return HttpResponse::text(200, out.output);
        }
        let text = out.output.trim_end().to_string();
        let (code, reason, msg) =
            if let Some(m) = text.strip_prefix("Error from server (NotFound): ") {
                (404, "NotFound", m.to_string())
            } else if let Some(m) = text.strip_prefix("Error from server (BadRequest): ") {
                (400, "BadRequest", m.to_string())
            } else if let Some(m) = text.strip_prefix("Error from server: ") {
                (500, "", m.to_string())
            } else {
                (
                    400,
                    "BadRequest",
                    text.trim_start_matches("error: ").to_string(),
                )
            };
        let e = ApiError {
            code,
            reason,
            message: msg,
            kubectl_message: None,
        };
        HttpResponse::error(&e, Some(Kind::Pod), &name)
    }

    fn write(&mut self, req: &HttpRequest, t: &Target, verb: &str) -> HttpResponse {
        // A create's error names the object of the body (`The Deployment "x" is
        // invalid`), as the API server's does.
        let name = match (verb, &t.name) {
            ("create", None) => decode_body(req)
                .ok()
                .and_then(|b| {
                    b.pointer("/metadata/name")
                        .and_then(Value::as_str)
                        .map(str::to_string)
                })
                .unwrap_or_default(),
            _ => t.name.clone().unwrap_or_default(),
        };
        let result = match (verb, t.subresource.as_deref()) {
            ("create", Some("eviction")) => self.evict(req, t),
            ("create", Some("binding")) => self.bind(req, t),
            ("create", None) => self.create(req, t),
            ("update", sub) => self.update(req, t, sub),
            ("patch", sub) => self.patch(req, t, sub),
            ("delete", None) => self.delete(req, t),
            ("deletecollection", None) => self.delete_collection(req, t),
            _ => return not_found_path(),
        };
        match result {
            Ok(r) => r,
            Err(e) => HttpResponse::error(&e, Some(t.kind), &name),
        }
    }

    fn dry_run(req: &HttpRequest) -> bool {
        req.param("dryRun") == Some("All")
    }

    /// Send `request` as kubectl; with `dryRun=All`, to a copy that is thrown away.
    fn send(
        &mut self,
        req: &HttpRequest,
        request: Request,
    ) -> Result<Vec<crate::apiserver::Change>, ApiError> {
        if Self::dry_run(req) {
            let mut copy = self.cluster.clone();
            copy.store.journal_objects(false);
            return copy.submit(&kubectl(), request);
        }
        self.cluster.submit(&kubectl(), request)
    }

    fn answer(
        &self,
        status: u16,
        changes: &[crate::apiserver::Change],
        kind: Kind,
        key: &ObjKey,
    ) -> HttpResponse {
        let obj = changes
            .iter()
            .find(|c| c.kind == kind && &c.key == key)
            .and_then(|c| c.new.clone().or(c.old.clone()))
            .or_else(|| {
                self.cluster
                    .store
                    .get_object(kind, key)
                    .map(|o| Arc::new(o.clone()))
            });
        match obj {
            Some(o) => HttpResponse::json(status, &self.object_json(&o)),
            None => HttpResponse::json(
                200,
                &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
                        "details": {"name": key.name, "kind": kind.resource()}}),
            ),
        }
    }

    fn with_warnings(mut r: HttpResponse, warnings: &[String]) -> HttpResponse {
        for w in warnings {
            r.headers.push((
                "Warning".into(),
                format!("299 - \"{}\"", w.replace('"', "\\\"")),
            ));
        }
        r
    }

    fn create(&mut self, req: &HttpRequest, t: &Target) -> Result<HttpResponse, ApiError> {
        let body = decode_body(req)?;
        let mut warnings = Vec::new();
        let validation = req.param("fieldValidation").unwrap_or("Warn");
        let mut obj = decode_object(t.kind, body, validation, &mut warnings)?;
        let ns = t.namespace.clone().unwrap_or_default();
        if t.kind.namespaced() {
            let m = obj.meta_mut();
            if m.namespace.is_empty() {
                m.namespace = ns.clone();
            } else if m.namespace != ns {
                return Err(ApiError::bad_request(
                    "the namespace of the provided object does not match the namespace sent on the request".into(),
                ));
            }
        }
        if !obj.meta().resource_version.is_empty() {
            return Err(ApiError::bad_request(
                "resourceVersion should not be set on objects to be created".into(),
            ));
        }
        clear_server_fields(&mut obj);
        let kind = obj.kind();
        let changes = self.send(
            req,
            Request::Create {
                object: obj,
                event: None,
            },
        )?;
        let key = changes
            .iter()
            .find(|c| c.kind == kind)
            .map(|c| c.key.clone())
            .unwrap_or_default();
        warnings.extend(std::mem::take(&mut self.cluster.store.warnings));
        Ok(Self::with_warnings(
            self.answer(201, &changes, kind, &key),
            &warnings,
        ))
    }

    fn live(&self, t: &Target) -> Result<Object, ApiError> {
        let name = t.name.clone().unwrap_or_default();
        let key = ObjKey::new(t.namespace.as_deref().unwrap_or(""), &name);
        self.cluster
            .store
            .get_object(t.kind, &key)
            .cloned()
            .ok_or_else(|| ApiError::not_found(t.kind, &name))
    }

    /// A whole new state of the object (PUT, or a patch's result): to the main
    /// resource, or its `status` or `scale`.
    fn replace_with(
        &mut self,
        req: &HttpRequest,
        t: &Target,
        sub: Option<&str>,
        new: Value,
        warnings: &mut Vec<String>,
    ) -> Result<HttpResponse, ApiError> {
        let name = t.name.clone().unwrap_or_default();
        let live = self.live(t)?;
        let key = ObjKey::of(live.meta());
        if sub == Some("scale") {
            let Some(replicas) = new.pointer("/spec/replicas").and_then(Value::as_i64) else {
                return Err(ApiError::bad_request(
                    "spec.replicas: Required value".into(),
                ));
            };
            let want_rv = new
                .pointer("/metadata/resourceVersion")
                .and_then(Value::as_str)
                .unwrap_or("");
            let mut j = live.to_json();
            j["spec"]["replicas"] = json!(replicas);
            let mut obj =
                crate::manifest::object_from_json(t.kind, j).map_err(ApiError::bad_request)?;
            keep_hidden(&live, &mut obj);
            obj.meta_mut().resource_version = want_rv.to_string();
            let changes = self.send(req, Request::Update(obj))?;
            let after = changes
                .iter()
                .find_map(|c| c.new.clone())
                .map(|o| (*o).clone())
                .unwrap_or(live);
            return Ok(HttpResponse::json(
                200,
                &scale_of(&after).unwrap_or(Value::Null),
            ));
        }
        let mut obj = decode_object(
            t.kind,
            new,
            req.param("fieldValidation").unwrap_or("Warn"),
            warnings,
        )?;
        if obj.meta().name != name {
            return Err(ApiError::bad_request(format!(
                "the name of the object ({}) does not match the name on the URL ({name})",
                obj.meta().name
            )));
        }
        if obj.meta().namespace.is_empty() {
            obj.meta_mut().namespace = key.namespace.clone();
        }
        keep_hidden(&live, &mut obj);
        let request = if sub == Some("status") {
            Request::UpdateStatus(obj)
        } else {
            Request::Update(obj)
        };
        let changes = self.send(req, request)?;
        warnings.extend(std::mem::take(&mut self.cluster.store.warnings));
        Ok(Self::with_warnings(
            self.answer(200, &changes, t.kind, &key),
            warnings,
        ))
    }

    fn update(
        &mut self,
        req: &HttpRequest,
        t: &Target,
        sub: Option<&str>,
    ) -> Result<HttpResponse, ApiError> {
        let body = decode_body(req)?;
        let mut warnings = Vec::new();
        self.replace_with(req, t, sub, body, &mut warnings)
    }

    fn patch(
        &mut self,
        req: &HttpRequest,
        t: &Target,
        sub: Option<&str>,
    ) -> Result<HttpResponse, ApiError> {
        let ct = req.header("content-type").unwrap_or("");
        let ct = ct.split(';').next().unwrap_or("").trim();
        if ct == "application/apply-patch+yaml" || ct == "application/apply-patch+cbor" {
            return self.server_side_apply(req, t);
        }
        let body = decode_body(req)?;
        let live = self.live(t)?;
        let mut doc = if sub == Some("scale") {
            scale_of(&live).ok_or_else(|| ApiError::not_found(t.kind, &live.meta().name))?
        } else {
            live.to_json()
        };
        match ct {
            "application/json-patch+json" => patch::json_patch(&mut doc, &body)
                .map_err(|e| ApiError {
                    code: 422,
                    reason: "Invalid",
                    message: e,
                    kubectl_message: None,
                })?,
            "application/merge-patch+json" => patch::merge_patch(&mut doc, &body),
            "application/strategic-merge-patch+json" => patch::strategic_merge(&mut doc, &body)
                .map_err(ApiError::bad_request)?,
            other => {
                return Err(ApiError {
                    code: 415,
                    reason: "UnsupportedMediaType",
                    message: format!("the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml (got {other})"),
                    kubectl_message: None,
                })
            }
        }
        // A patch's result keeps the live resourceVersion unless the patch set one:
        // a patch is unconditional, as upstream's.
        if doc.pointer("/metadata/resourceVersion").is_none() {
            if let Some(m) = doc.get_mut("metadata") {
                m["resourceVersion"] = json!(live.meta().resource_version);
            }
        }
        let unchanged = sub.is_none() && doc == live.to_json();
        if unchanged {
            return Ok(HttpResponse::json(200, &live.to_json()));
        }
        let mut warnings = Vec::new();
        self.replace_with(req, t, sub, doc, &mut warnings)
    }

    fn server_side_apply(
        &mut self,
        req: &HttpRequest,
        t: &Target,
    ) -> Result<HttpResponse, ApiError> {
        let applied = decode_body(req)?;
        let Some(manager) = req.param("fieldManager").filter(|m| !m.is_empty()) else {
            return Err(ApiError::bad_request(
                "PATCH, application/apply-patch+yaml requests must include a fieldManager query parameter".into(),
            ));
        };
        let force = req.flag("force");
        let mut warnings = Vec::new();
        let mut obj = decode_object(
            t.kind,
            applied.clone(),
            req.param("fieldValidation").unwrap_or("Strict"),
            &mut warnings,
        )?;
        let name = t.name.clone().unwrap_or_default();
        if obj.meta().namespace.is_empty() {
            obj.meta_mut().namespace = t.namespace.clone().unwrap_or_default();
        }
        if obj.meta().name != name {
            return Err(ApiError::bad_request(format!(
                "the name of the object ({}) does not match the name on the URL ({name})",
                obj.meta().name
            )));
        }
        let key = ObjKey::of(obj.meta());
        let Some(live) = self.cluster.store.get_object(t.kind, &key).cloned() else {
            clear_server_fields(&mut obj);
            let changes = self.cluster.submit_server_side_apply(
                Request::Create {
                    object: obj,
                    event: None,
                },
                Vec::new(),
                manager,
                &applied,
            )?;
            return Ok(self.answer(201, &changes, t.kind, &key));
        };
        let (merged, entries) = self
            .cluster
            .plan_server_side_apply(&live, &applied, manager, force)
            .map_err(|conflicts| ApiError {
                code: 409,
                reason: "Conflict",
                message: crate::apiserver::managed_fields::conflict_message(&conflicts),
                kubectl_message: None,
            })?;
        let mut merged = merged;
        drop_nulls(&mut merged);
        let mut updated =
            crate::manifest::object_from_json(t.kind, merged).map_err(ApiError::bad_request)?;
        keep_hidden(&live, &mut updated);
        updated.meta_mut().resource_version = live.meta().resource_version.clone();
        if updated == live {
            self.cluster
                .record_server_side_apply(t.kind, &key, entries, manager, &applied);
            return Ok(HttpResponse::json(200, &live.to_json()));
        }
        let changes = self.cluster.submit_server_side_apply(
            Request::Update(updated),
            entries,
            manager,
            &applied,
        )?;
        Ok(self.answer(200, &changes, t.kind, &key))
    }

    fn delete_options(req: &HttpRequest) -> Result<DeleteOptions, ApiError> {
        let body: Value = if req.body.is_empty() {
            json!({})
        } else {
            decode_body(req)?
        };
        let grace = body
            .get("gracePeriodSeconds")
            .and_then(Value::as_i64)
            .or_else(|| req.param("gracePeriodSeconds").and_then(|s| s.parse().ok()));
        let propagation = body
            .get("propagationPolicy")
            .and_then(Value::as_str)
            .or(req.param("propagationPolicy"))
            .map(str::to_string);
        if let Some(p) = &propagation {
            if !matches!(p.as_str(), "Orphan" | "Background" | "Foreground") {
                return Err(ApiError::invalid(
                    Kind::Pod,
                    "",
                    &[format!("propagationPolicy: Unsupported value: \"{p}\": supported values: \"Foreground\", \"Background\", \"Orphan\", \"nil\"")],
                ));
            }
        }
        let uid = body
            .pointer("/preconditions/uid")
            .and_then(Value::as_str)
            .map(str::to_string);
        Ok(DeleteOptions {
            grace_period_seconds: grace,
            propagation,
            precondition_uid: uid,
        })
    }

    fn delete(&mut self, req: &HttpRequest, t: &Target) -> Result<HttpResponse, ApiError> {
        let live = self.live(t)?;
        let options = Self::delete_options(req)?;
        let key = ObjKey::of(live.meta());
        let changes = self.send(
            req,
            Request::Delete {
                kind: t.kind,
                key: key.clone(),
                options,
                event: None,
            },
        )?;
        // Gone at once: the Status of a finished delete carries the object's
        // identity; still terminating (grace, finalizers): the object as it is now.
        let still = self.cluster.store.get_object(t.kind, &key).cloned();
        Ok(match still {
            Some(o) if !Self::dry_run(req) => HttpResponse::json(200, &o.to_json()),
            _ => {
                let gone = changes
                    .iter()
                    .find(|c| c.kind == t.kind && c.key == key)
                    .and_then(|c| c.old.clone())
                    .map(|o| (*o).clone())
                    .unwrap_or(live);
                HttpResponse::json(
                    200,
                    &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success",
                            "details": {"name": key.name, "group": discovery::group_version(t.kind).0,
                                        "kind": t.kind.resource(), "uid": gone.meta().uid}}),
                )
            }
        })
    }

    fn delete_collection(
        &mut self,
        req: &HttpRequest,
        t: &Target,
    ) -> Result<HttpResponse, ApiError> {
        let keys: Vec<ObjKey> = match self.selected(req, t) {
            Ok(objs) => objs.iter().map(|o| ObjKey::of(o.meta())).collect(),
            Err(r) => return Ok(r),
        };
        let options = Self::delete_options(req)?;
        let mut items = Vec::new();
        for key in keys {
            let before = self.cluster.store.get_object(t.kind, &key).cloned();
            self.send(
                req,
                Request::Delete {
                    kind: t.kind,
                    key: key.clone(),
                    options: options.clone(),
                    event: None,
                },
            )?;
            if let Some(o) = self
                .cluster
                .store
                .get_object(t.kind, &key)
                .or(before.as_ref())
            {
                items.push(o.to_json());
            }
        }
        Ok(HttpResponse::json(
            200,
            &json!({"kind": format!("{}List", t.kind.name()), "apiVersion": t.kind.api_version(),
                    "metadata": {"resourceVersion": self.revision().to_string()}, "items": items}),
        ))
    }

    fn evict(&mut self, req: &HttpRequest, t: &Target) -> Result<HttpResponse, ApiError> {
        let name = t.name.clone().unwrap_or_default();
        let body = decode_body(req)?;
        if let Some(n) = body.pointer("/metadata/name").and_then(Value::as_str) {
            if n != name {
                return Err(ApiError::bad_request(
                    "name in URL does not match name in Eviction object".to_string(),
                ));
            }
        }
        let key = ObjKey::new(t.namespace.as_deref().unwrap_or(""), &name);
        self.live(t)?;
        self.send(req, Request::Evict { key })?;
        Ok(HttpResponse::json(
            201,
            &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201}),
        ))
    }

    fn bind(&mut self, req: &HttpRequest, t: &Target) -> Result<HttpResponse, ApiError> {
        let name = t.name.clone().unwrap_or_default();
        let body = decode_body(req)?;
        let node = body
            .pointer("/target/name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let key = ObjKey::new(t.namespace.as_deref().unwrap_or(""), &name);
        self.send(req, Request::Bind { key, node })?;
        Ok(HttpResponse::json(
            201,
            &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Success", "code": 201}),
        ))
    }

    /// `SelfSubjectAccessReview` (`kubectl auth can-i`): may the requester do this?
    fn access_review(&mut self, req: &HttpRequest, user: &UserInfo) -> HttpResponse {
        let body = match decode_body(req) {
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
        let status = match authorize(&self.cluster.store, user, &a) {
            Decision::Allow(why) => json!({"allowed": true, "reason": why}),
            Decision::Deny(why) if why.is_empty() => json!({"allowed": false}),
            Decision::Deny(why) => json!({"allowed": false, "reason": why}),
        };
        HttpResponse::json(
            201,
            &json!({"kind": "SelfSubjectAccessReview", "apiVersion": "authorization.k8s.io/v1",
                    "metadata": {"creationTimestamp": null}, "spec": spec, "status": status}),
        )
    }

    /// `SelfSubjectRulesReview` (`kubectl auth can-i --list`): what the requester may
    /// do in a namespace, rule by rule as RBAC visits them.
    fn rules_review(&mut self, req: &HttpRequest, user: &UserInfo) -> HttpResponse {
        let body = match decode_body(req) {
            Ok(b) => b,
            Err(e) => return HttpResponse::error(&e, None, ""),
        };
        let ns = body
            .pointer("/spec/namespace")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string();
        let (rules, errors) = crate::apiserver::rbac::rules_for(&self.cluster.store, user, &ns);
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

    /// `SelfSubjectReview` (`kubectl auth whoami`): who the requester is.
    fn whoami(&mut self, _req: &HttpRequest, user: &UserInfo) -> HttpResponse {
        HttpResponse::json(
            201,
            &json!({"kind": "SelfSubjectReview", "apiVersion": "authentication.k8s.io/v1",
                    "metadata": {"creationTimestamp": null},
                    "status": {"userInfo": {"username": user.name, "groups": user.groups}}}),
        )
    }

    /// `POST /kubeplay/v1/sim`: the words after `sim` in the body; answers what the
    /// console prints, 200 when the command succeeded and 400 when it failed.
    fn sim(&mut self, req: &HttpRequest, user: &UserInfo) -> HttpResponse {
        if req.method != "POST" {
            return not_found_path();
        }
        // Moving time and breaking things are the cluster admin's.
        let a = Attributes::path("create", SIM_PATH);
        if let Err(r) = self.check(user, &a) {
            return r;
        }
        let words = String::from_utf8_lossy(&req.body).trim().to_string();
        let line = format!("sim {words}");
        let out = crate::command::run(&mut self.cluster, &line, None, &crate::command::NoFiles);
        HttpResponse::text(if out.ok { 200 } else { 400 }, out.output)
    }
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

/// A header as the Table names its column (`NOMINATED NODE` → `Nominated Node`):
/// kubectl prints column names in capitals either way.
fn column_name(h: &str) -> String {
    h.split(' ')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_string() + &c.as_str().to_ascii_lowercase(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the server sets itself on a create: identity, timestamps, generation, and the
/// status of the kinds whose `PrepareForCreate` resets it.
pub(crate) fn clear_server_fields(obj: &mut Object) {
    let m = obj.meta_mut();
    m.uid.clear();
    m.resource_version.clear();
    m.creation_timestamp.clear();
    m.deletion_timestamp = None;
    m.generation = 0;
    match obj {
        Object::Deployment(d) => d.status = Default::default(),
        Object::ReplicaSet(r) => r.status = Default::default(),
        Object::Pod(p) => p.status = Default::default(),
        _ => {}
    }
}

/// The `autoscaling/v1` Scale of a scalable object.
fn scale_of(obj: &Object) -> Option<Value> {
    let j = obj.to_json();
    let replicas = j.pointer("/spec/replicas").cloned()?;
    let (status_replicas, selector) = match obj {
        Object::Deployment(d) => (d.status.replicas, d.spec.selector.to_selector_string()),
        Object::ReplicaSet(r) => (r.status.replicas, r.spec.selector.to_selector_string()),
        Object::StatefulSet(s) => (s.status.replicas, s.spec.selector.to_selector_string()),
        _ => return None,
    };
    let m = &j["metadata"];
    Some(json!({
        "kind": "Scale",
        "apiVersion": "autoscaling/v1",
        "metadata": {
            "name": m["name"], "namespace": m["namespace"], "uid": m["uid"],
            "resourceVersion": m["resourceVersion"], "creationTimestamp": m["creationTimestamp"],
        },
        "spec": {"replicas": replicas},
        "status": {"replicas": status_replicas, "selector": selector},
    }))
}

#[cfg(test)]
mod tests;
