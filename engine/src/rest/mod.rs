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
//! - bearer tokens for the kubeconfig's users (a request without one is a 401, as
//!   kube-apiserver's with `--anonymous-auth=false`), and impersonation (`--as`);
//! - request bodies in JSON, YAML or protobuf by their `Content-Type`; any other type
//!   is a 415, so a web page's `text/plain` or form POST never reaches a handler.
//!
//! Time stands still between requests: the simulation moves only by the `sim` verbs
//! sent to `POST /kubeplay/v1/sim` (or, with the server's realtime clock, with the wall).
//! A `sim` verb comes back as [`Reply::Sim`], for [`crate::sim_endpoint`] to run (in
//! slices between other clients' requests when it runs the clock).
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/` (get.go, create.go,
//! update.go, patch.go, delete.go, watch.go, response.go for Table conversion),
//! `staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go` (paths to
//! attributes), `staging/src/k8s.io/apimachinery/pkg/api/errors/errors.go`.

mod lent;
mod list_options;
mod metrics_api;
pub(crate) mod non_resource;
mod openapi_pb;
mod proto_fields;
pub mod protobuf;
mod resources;
mod reviews;
mod sim;
mod table;
mod target;
pub mod uri;
mod watch;

use crate::api::Kind;
use crate::apiserver::door;
use crate::apiserver::request::{ApiRequest, Body, Credentials, Verb};
use crate::apiserver::{discovery, health};
use crate::apiserver::{ApiError, Written};
use crate::cluster::Cluster;
use serde_json::{json, Value};
pub use sim::SimCommand;
use std::collections::VecDeque;
use target::{not_found_path, parse_target, Target};
pub use watch::WatchStream;

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

    /// A boolean query parameter as the API server decodes one into its options
    /// (`runtime.Convert_Slice_string_To_bool`): absent, `0` or `false` in any case is
    /// false; any other value, `True`, `t`, `1` or an empty one, is true. Python's
    /// client sends `watch=True`.
    pub fn flag(&self, name: &str) -> bool {
        match self.param(name) {
            None => false,
            Some(v) => !(v == "0" || v.eq_ignore_ascii_case("false")),
        }
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
    /// Plain text (a `sim` command's words, a health check's).
    pub fn text(status: u16, s: String) -> Self {
        HttpResponse {
            status,
            content_type: "text/plain; charset=utf-8".into(),
            headers: Vec::new(),
            body: s.into_bytes(),
        }
    }

    /// An object or a Status as the API machinery's serializer writes it: compact JSON
    /// and a newline (`json.Encoder.Encode`).
    fn json(status: u16, v: &Value) -> Self {
        let mut body = go_json_text(v).into_bytes();
        body.push(b'\n');
        HttpResponse {
            status,
            content_type: "application/json".into(),
            headers: Vec::new(),
            body,
        }
    }

    fn error(e: &ApiError, kind: Option<Kind>, name: &str) -> Self {
        HttpResponse::json(e.code, &status_of(e, kind, name))
    }
}

/// What a request gets: a response, a watch that streams until the client leaves or
/// its time is up, or a `sim` command still running the clock.
#[derive(Debug)]
pub enum Reply {
    /// A whole response.
    Response(HttpResponse),
    /// A watch: send [`ApiServer::watch_events`] as they come, until it ends.
    Watch(WatchStream),
    /// An authorized `sim` command, for [`crate::sim_endpoint`] to run.
    Sim(SimCommand),
    /// Nothing: the API server is down (`sim apiserver down`), so nothing listens at its
    /// address; the connection is closed without a response.
    NoAnswer,
}

/// How many writes the server keeps for watches to start from: a watch from an older
/// resource version gets `410 Gone`, as after an etcd compaction.
pub const KEPT_WRITES: usize = 100_000;

/// The path the `sim` verbs are sent to (body: the words after `sim`).
pub const SIM_PATH: &str = "/kubeplay/v1/sim";

/// A health probe: a GET of `/healthz`, `/livez` or `/readyz`, which kube-apiserver's
/// `probes` FlowSchema puts on the `exempt` priority level, ahead of every queue.
pub fn is_health_probe(method: &str, path: &str) -> bool {
    method == "GET" && matches!(path, "/healthz" | "/livez" | "/readyz")
}

/// The bearer token of a kubeconfig user.
pub fn token_for(user: &str) -> String {
    format!("kubeplay-token-{user}")
}

/// The users whose bearer tokens the server knows, the admin first (`expired`'s is
/// refused).
pub const USERS: &[&str] = &["kubernetes-admin", "alice", "bob", "expired"];

/// The kubeconfig's admin, kubeadm's `kubernetes-admin` (the console's own user).
pub const ADMIN_USER: &str = "kubernetes-admin";

/// The largest request body the API server reads (`MaxRequestBodyBytes`, 3 MiB);
/// a larger one is refused with [`request_entity_too_large`].
pub const MAX_REQUEST_BODY_BYTES: usize = 3 << 20;

/// The 413 of a body past [`MAX_REQUEST_BODY_BYTES`] (`limitedReadBody`).
pub fn request_entity_too_large() -> HttpResponse {
    HttpResponse::json(
        413,
        &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                "message": format!("Request entity too large: limit is {MAX_REQUEST_BODY_BYTES}"),
                "reason": "RequestEntityTooLarge", "code": 413}),
    )
}

/// The simulated cluster behind a Kubernetes API endpoint.
pub struct ApiServer {
    /// The cluster.
    pub cluster: Cluster,
    kept: VecDeque<Written>,
    /// Writes at or before this resource version are no longer kept.
    compacted: u64,
    /// The body of the request being answered, decoded before its turn
    /// ([`ApiServer::handle_decoded`]).
    decoded: Option<Result<Value, ApiError>>,
    /// The request being answered is events.k8s.io/v1's: objects go out, and bodies
    /// come in, converted ([`crate::apiserver::events_v1`]).
    events_v1: std::cell::Cell<bool>,
    /// The request being answered is autoscaling/v1's
    /// ([`crate::apiserver::autoscaling_v1`]).
    autoscaling_v1: std::cell::Cell<bool>,
    /// The request being answered is for a custom resource in this `group/version`:
    /// objects go out in it (conversion `None`).
    custom_version: std::cell::RefCell<Option<String>>,
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
        let mut d = json!({});
        // "field: message" causes of an Invalid message, as `field.ErrorList` gives them.
        let invalid = || {
            let causes: Vec<Value> = invalid_causes(e)
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
            Value::Array(causes)
        };
        match &e.details {
            // The error's own details where it names another object (the namespace a
            // create did not find, the DeleteOptions) or gives its causes itself.
            Some(x) => {
                if !x.name.is_empty() {
                    d["name"] = json!(x.name);
                }
                if !x.group.is_empty() {
                    d["group"] = json!(x.group);
                }
                if !x.kind.is_empty() {
                    d["kind"] = json!(x.kind);
                }
                if !x.causes.is_empty() {
                    let causes: Vec<Value> = x
                        .causes
                        .iter()
                        .map(
                            |c| json!({"reason": c.reason, "message": c.message, "field": c.field}),
                        )
                        .collect();
                    d["causes"] = Value::Array(causes);
                } else if e.reason == "Invalid" {
                    d["causes"] = invalid();
                }
            }
            // The request's own object.
            None => {
                let (group, _) = discovery::group_version(kind);
                if !name.is_empty() {
                    d["name"] = json!(name);
                }
                if !group.is_empty() {
                    d["group"] = json!(group);
                }
                if e.reason == "Invalid" {
                    d["kind"] = json!(kind.name());
                    d["causes"] = invalid();
                } else {
                    d["kind"] = json!(kind.resource());
                }
            }
        }
        if e.code != 500 {
            s["details"] = d;
        }
    }
    s
}

/// The causes of an `Invalid` error, whole: from kubectl's list (`The KIND "name" is
/// invalid: \n* a\n* b`), since a cause may itself hold ", " (the label-name rule's
/// message does), so the server's `[a, b]` cannot be split back apart.
fn invalid_causes(e: &ApiError) -> Vec<String> {
    let text = e.kubectl_message.as_deref().unwrap_or(&e.message);
    let Some((_, detail)) = text.split_once(" is invalid: ") else {
        return vec![text.to_string()];
    };
    if detail.is_empty() || detail.starts_with("\n* ") {
        return detail
            .split("\n* ")
            .filter(|c| !c.is_empty())
            .map(str::to_string)
            .collect();
    }
    match detail.strip_prefix('[').and_then(|d| d.strip_suffix(']')) {
        Some(list) if e.kubectl_message.is_none() => list.split(", ").map(str::to_string).collect(),
        _ => vec![detail.to_string()],
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

/// The 415 of a body in a media type the server does not read
/// (`negotiation.NewUnsupportedMediaTypeError`).
fn unsupported_media_type() -> ApiError {
    ApiError {
        code: 415,
        reason: "UnsupportedMediaType",
        message: "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf".into(),
        kubectl_message: None,
        details: None,
    }
}

/// Decode a request's body by its `Content-Type`: JSON (and the JSON patch types),
/// YAML (and apply's), or protobuf; none is JSON, as `NegotiateInputSerializer` takes
/// the first type the server supports; any other type is a 415. Public so that a server
/// can decode a body before the request's turn at the cluster comes
/// ([`ApiServer::handle_decoded`]).
pub fn decode_body(req: &HttpRequest) -> Result<Value, ApiError> {
    let ct = req.header("content-type").unwrap_or("");
    let media = ct
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    match media.as_str() {
        "application/vnd.kubernetes.protobuf" => {
            protobuf::decode(&req.body).map_err(ApiError::bad_request)
        }
        "application/yaml" | "application/apply-patch+yaml" => {
            let text = std::str::from_utf8(&req.body)
                .map_err(|_| ApiError::bad_request("the body is not UTF-8".into()))?;
            crate::yaml_depth::check(text).map_err(|e| ApiError::bad_request(e.to_string()))?;
            crate::yaml_depth::check_expansion(text)
                .map_err(|e| ApiError::bad_request(e.to_string()))?;
            serde_yaml_ng::from_str(text).map_err(|e| ApiError::bad_request(e.to_string()))
        }
        ""
        | "application/json"
        | "application/merge-patch+json"
        | "application/json-patch+json"
        | "application/strategic-merge-patch+json" => {
            serde_json::from_slice(&req.body).map_err(|e| {
                ApiError::bad_request(format!("couldn't get version/kind; json parse error: {e}"))
            })
        }
        _ => Err(unsupported_media_type()),
    }
}

/// The user a request's `Authorization` header names, as the API server's bearer-token
/// authenticator reads it (`bearertoken.Authenticator`): the scheme `Bearer` in any
/// case, then the token (a ServiceAccount's JWT is passed on whole). "" when there is none, another scheme (`Basic …`) or a token
/// the server did not issue: the door refuses that with a 401 (kube-apiserver with
/// `--anonymous-auth=false`: no request goes without credentials).
pub fn bearer_user(req: &HttpRequest) -> String {
    let auth = req.header("authorization").unwrap_or("").trim();
    let mut parts = auth.splitn(3, ' ');
    let scheme = parts.next().unwrap_or("");
    let token = parts.next().unwrap_or("");
    if !scheme.eq_ignore_ascii_case("bearer") || token.is_empty() {
        return String::new();
    }
    // A ServiceAccount's token goes to the door as it is: its authenticator checks it.
    if crate::apiserver::service_account::is_jwt(token) {
        return token.to_string();
    }
    USERS
        .iter()
        .find(|u| token_for(u) == token)
        .map(|u| u.to_string())
        .unwrap_or_default()
}

/// `Impersonate-Group` without `Impersonate-User`: the impersonation filter answers
/// `responsewriters.InternalError` — a 500 in plain text naming the request URI.
fn impersonation_refused(req: &HttpRequest, groups: &[String]) -> HttpResponse {
    let e = door::impersonation_without_user(groups);
    let mut uri = req.path.clone();
    for (i, (k, v)) in req.query.iter().enumerate() {
        uri.push(if i == 0 { '?' } else { '&' });
        uri.push_str(&format!("{k}={v}"));
    }
    // `sanitizer`: nothing in the answer reads as HTML.
    let text = format!("Internal Server Error: {uri:?}: {}\n", e.message)
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;");
    let mut r = HttpResponse::text(500, text);
    r.headers
        .push(("X-Content-Type-Options".into(), "nosniff".into()));
    r
}

impl ApiServer {
    /// Serve `cluster`: from now on every write is kept for watches.
    pub fn new(mut cluster: Cluster) -> Self {
        cluster.store.journal_objects(true);
        Self::serving(cluster)
    }

    /// A server over `cluster` that keeps no writes of before (a watch or an exact list
    /// from an older version is answered as after a compaction).
    fn serving(cluster: Cluster) -> Self {
        let compacted = cluster.store.revision();
        ApiServer {
            cluster,
            kept: VecDeque::new(),
            compacted,
            decoded: None,
            events_v1: std::cell::Cell::new(false),
            autoscaling_v1: std::cell::Cell::new(false),
            custom_version: std::cell::RefCell::new(None),
        }
    }

    /// The request's body, decoded: as decoded before the request's turn when the
    /// server did that ([`ApiServer::handle_decoded`]), else now.
    fn body(&mut self, req: &HttpRequest) -> Result<Value, ApiError> {
        let body = self.raw_body(req)?;
        if self.autoscaling_v1.get() && body.is_object() {
            return Ok(crate::apiserver::autoscaling_v1::to_v2(&body));
        }
        if !self.events_v1.get() {
            return Ok(body);
        }
        Ok(match &body {
            Value::Array(_) => crate::apiserver::events_v1::json_patch_to_core(&body),
            _ => crate::apiserver::events_v1::to_core(&body),
        })
    }

    /// The request's body as the client wrote it, in the version of its path.
    fn raw_body(&mut self, req: &HttpRequest) -> Result<Value, ApiError> {
        match self.decoded.take() {
            Some(d) => d,
            None => decode_body(req),
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
        self.forget_before_restore();
    }

    /// The current resource version.
    pub fn revision(&self) -> u64 {
        self.cluster.store.revision()
    }

    /// The door request an HTTP request makes: who it says it is (its bearer token's
    /// user), whom it impersonates, its field manager (`fieldManager`, else the
    /// User-Agent's product), and the line it is kept under in the request log.
    fn request(&self, req: &HttpRequest, verb: Verb, kind: Kind) -> ApiRequest {
        let mut r = ApiRequest::new(
            Credentials::Token(bearer_user(req)),
            crate::client::writer::KUBECTL,
            verb,
            kind,
        );
        let as_user = req.header("impersonate-user").unwrap_or("");
        let groups = impersonated_groups(req);
        if !as_user.is_empty() || !groups.is_empty() {
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
        self.handle_decoded(req, None)
    }

    /// Answer one request whose body the server decoded already ([`decode_body`]), so
    /// that a large body is decoded while other requests take their turns.
    pub fn handle_decoded(
        &mut self,
        req: &HttpRequest,
        decoded: Option<Result<Value, ApiError>>,
    ) -> Reply {
        // A `sim` run in slices may have stopped inside an instant: a request acts on
        // the world between instants, as it would after the uncut run.
        self.cluster.finish_instant();
        // A stopped API server answers nothing, its health endpoints included; the
        // `sim` verbs (which start it again) are the playground's, not its.
        if self.cluster.apiserver_down() && req.path.trim_end_matches('/') != SIM_PATH {
            return Reply::NoAnswer;
        }
        self.decoded = decoded;
        // The custom resources served now are what this request finds.
        let served = crate::apiserver::custom::served(&self.cluster.store);
        let reply = crate::apiserver::custom::scope(served, || self.route(req));
        self.decoded = None;
        self.collect();
        reply
    }

    /// The filters before any handler, in the API server's order: authentication (a
    /// 401 for any request without a token the server knows, answered and logged by
    /// the door), then the impersonation filter's own refusal; and a CBOR body's 415.
    fn filters(&mut self, req: &HttpRequest) -> Option<HttpResponse> {
        if door::authenticate(&bearer_user(req)).is_none() {
            let verb = match req.method.as_str() {
                "POST" => Verb::Create,
                "PUT" => Verb::Update,
                "PATCH" => Verb::Patch,
                "DELETE" => Verb::Delete,
                _ => Verb::Get,
            };
            let mut r = self.request(req, verb, Kind::Pod);
            r.body = Body::Path(req.path.clone());
            if let Err(e) = self.cluster.call(r) {
                return Some(HttpResponse::json(e.code, &status_of(&e, None, "")));
            }
        }
        let groups = impersonated_groups(req);
        if req.header("impersonate-user").unwrap_or("").is_empty() && !groups.is_empty() {
            return Some(impersonation_refused(req, &groups));
        }
        if req
            .header("content-type")
            .is_some_and(|c| c.contains("cbor"))
        {
            // CBOR is off in client-go by default; a 415 makes a client that tries it
            // send JSON from then on.
            return Some(HttpResponse::json(
                415,
                &json!({"kind": "Status", "apiVersion": "v1", "metadata": {}, "status": "Failure",
                        "message": "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml",
                        "reason": "UnsupportedMediaType", "code": 415}),
            ));
        }
        None
    }

    /// An object as the API server serves it: its JSON with `metadata.managedFields`
    /// (which every response carries; kubectl hides them unless asked).
    fn object_json(&self, o: &crate::api::Object) -> Value {
        let mut j = o.to_json();
        let key = crate::apiserver::ObjKey::of(o.meta());
        let managed = self.cluster.managed_fields();
        if managed.has(o.kind(), &key) {
            j["metadata"]["managedFields"] = managed.to_json(o.kind(), &key);
        }
        if self.events_v1.get() && o.kind() == Kind::Event {
            return crate::apiserver::events_v1::to_v1(&j);
        }
        if self.autoscaling_v1.get() && o.kind() == Kind::HorizontalPodAutoscaler {
            return crate::apiserver::autoscaling_v1::to_v1(&j);
        }
        if let (Kind::Custom(_), Some(v)) = (o.kind(), self.custom_version.borrow().as_ref()) {
            j["apiVersion"] = json!(v);
        }
        j
    }

    /// A custom resource's objects go out in the version of the path.
    fn serve_version(&self, t: &Target) {
        if let Kind::Custom(_) = t.kind {
            self.custom_version.replace(Some(t.api_version.clone()));
        }
    }

    /// A list's `kind` and `apiVersion` for `t`.
    fn list_type(t: &Target) -> (String, String) {
        if t.events_v1 {
            return (
                "EventList".into(),
                crate::apiserver::events_v1::API_VERSION.into(),
            );
        }
        if t.autoscaling_v1 {
            return (
                "HorizontalPodAutoscalerList".into(),
                crate::apiserver::autoscaling_v1::API_VERSION.into(),
            );
        }
        if let Kind::Custom(_) = t.kind {
            return (format!("{}List", t.kind.name()), t.api_version.clone());
        }
        (
            format!("{}List", t.kind.name()),
            t.kind.api_version().into(),
        )
    }

    fn route(&mut self, req: &HttpRequest) -> Reply {
        if let Some(refused) = self.filters(req) {
            return Reply::Response(refused);
        }
        let path = req.path.trim_end_matches('/').to_string();
        if path == SIM_PATH {
            return self.sim(req);
        }
        let (t, verb) = match self.route_filtered(req) {
            Routed::Answered(r) => return r,
            Routed::Review => {
                return match self.review(req, &path) {
                    Some(r) => Reply::Response(r),
                    None => Reply::Response(not_found_path()),
                }
            }
            Routed::Other(t, verb) => (t, verb),
        };
        self.events_v1.set(t.events_v1);
        self.autoscaling_v1.set(t.autoscaling_v1);
        self.serve_version(&t);
        let r = match verb {
            Verb::Watch => self.watch(req, &t),
            _ => Reply::Response(self.write(req, &t, verb)),
        };
        self.events_v1.set(false);
        self.autoscaling_v1.set(false);
        self.custom_version.replace(None);
        match r {
            Reply::Response(r) => Reply::Response(endpoints_deprecated(t.kind, r)),
            other => other,
        }
    }

    /// What reads answer: the filters' refusals, the non-resource paths, get and list.
    /// Anything else is handed back to [`ApiServer::route`]. The console's `get --raw`
    /// goes through here only, so the page carries no write or watch path of this
    /// adapter.
    fn route_read(&mut self, req: &HttpRequest) -> Routed {
        if let Some(refused) = self.filters(req) {
            return Routed::Answered(Reply::Response(refused));
        }
        self.route_filtered(req)
    }

    /// [`ApiServer::route_read`] after the filters.
    fn route_filtered(&mut self, req: &HttpRequest) -> Routed {
        let path = req.path.trim_end_matches('/').to_string();
        if let Some(r) = self.non_resource_route(req, &path) {
            return Routed::Answered(r);
        }
        if req.method == "POST" && self.is_review(&path) {
            return Routed::Review;
        }
        let Some(t) = parse_target(&path) else {
            return Routed::Answered(Reply::Response(not_found_path()));
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
                return Routed::Answered(Reply::Response(HttpResponse::json(
                    405,
                    &json!({"kind": "Status", "apiVersion": "v1", "metadata": {},
                            "status": "Failure", "message": "the server does not allow this method on the requested resource",
                            "reason": "MethodNotAllowed", "code": 405}),
                )))
            }
        };
        if !matches!(verb, Verb::Get | Verb::List) {
            return Routed::Other(t, verb);
        }
        self.events_v1.set(t.events_v1);
        self.autoscaling_v1.set(t.autoscaling_v1);
        self.serve_version(&t);
        let r = match verb {
            Verb::Get => self.get(req, &t),
            _ => self.list(req, &t),
        };
        self.events_v1.set(false);
        self.autoscaling_v1.set(false);
        self.custom_version.replace(None);
        Routed::Answered(Reply::Response(endpoints_deprecated(t.kind, r)))
    }
}

/// Where [`ApiServer::route_read`] leaves a request.
enum Routed {
    /// Answered.
    Answered(Reply),
    /// A POST to a self-review.
    Review,
    /// A watch or a write of the target.
    Other(Target, Verb),
}

/// `deprecation.WarningMessage`: on every answer about v1 Endpoints.
fn endpoints_deprecated(kind: Kind, mut r: HttpResponse) -> HttpResponse {
    if kind != Kind::Endpoints {
        return r;
    }
    // Its handler wraps the request's, so it comes before the strategy's warnings.
    let later = std::mem::take(&mut r.headers);
    let mut r = with_warnings(r, &[discovery::ENDPOINTS_DEPRECATED.to_string()]);
    r.headers.extend(later);
    r
}

/// JSON as Go's encoder writes it: compact, `<`, `>` and `&` escaped.
fn go_json_text(v: &Value) -> String {
    crate::printers::go_json::go_html_escape(v.to_string())
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

/// The `Impersonate-Group` headers' values.
fn impersonated_groups(req: &HttpRequest) -> Vec<String> {
    req.headers
        .iter()
        .filter(|(k, _)| k == "impersonate-group")
        .map(|(_, v)| v.clone())
        .collect()
}

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_api;
#[cfg(test)]
mod tests_managed_fields;
