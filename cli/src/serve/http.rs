//! One request, from hyper's to the engine's and back: the checks a web page cannot
//! pass (the `Host` the server was reached by, a browser's `Origin`), the body read
//! within its limits and decoded before the request's turn at the cluster, then the
//! engine's answer — a whole response, a watch's stream, or a `sim` verb run in slices.

use super::body::Body;
use super::engine::Line;
use super::limits::{BODY_BUDGET_BYTES, BODY_READ_TIMEOUT};
use super::{watch, State, ACTIVITY_PATH};
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper::header::{HeaderName, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use kubeplay_engine::apiserver::health;
use kubeplay_engine::rest::{self, HttpRequest, HttpResponse, Reply, MAX_REQUEST_BODY_BYTES};
use serde_json::json;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Instant;
use tokio::sync::{Notify, OwnedSemaphorePermit};

/// The CORS headers kube-apiserver's `WithCORS` sends an allowed origin (its defaults).
const CORS_METHODS: &str = "POST, GET, OPTIONS, PUT, DELETE, PATCH";
const CORS_HEADERS: &str = "Content-Type, Content-Length, Accept-Encoding, X-CSRF-Token, Authorization, X-Requested-With, If-Modified-Since";

/// hyper's service: answer `req`. `close` ends the connection.
pub async fn serve(
    state: Arc<State>,
    close: Arc<Notify>,
    req: Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    if let Some(refused) = misdirected(&state, &req) {
        return Ok(refused);
    }
    let origin = match allowed_origin(&state, &req) {
        Ok(o) => o,
        Err(refused) => return Ok(response(refused)),
    };
    let mut resp = match (&origin, req.method()) {
        // A browser's preflight for an allowed origin: `WithCORS` answers it alone.
        (Some(_), &Method::OPTIONS) => {
            let mut r = Response::new(Body::full(""));
            *r.status_mut() = StatusCode::NO_CONTENT;
            r
        }
        _ => answer(&state, close, req).await,
    };
    if let Some(origin) = origin {
        let h = resp.headers_mut();
        h.insert("access-control-allow-origin", origin);
        for (k, v) in [
            ("access-control-allow-methods", CORS_METHODS),
            ("access-control-allow-headers", CORS_HEADERS),
            ("access-control-expose-headers", "Date"),
            ("access-control-allow-credentials", "true"),
        ] {
            h.insert(k, HeaderValue::from_static(v));
        }
    }
    Ok(resp)
}

/// A `metav1.Status` answer of the server's own.
fn status(code: u16, reason: &str, message: &str) -> HttpResponse {
    let mut s = json!({"kind": "Status", "apiVersion": "v1", "metadata": {},
                       "status": "Failure", "message": message, "reason": reason, "code": code});
    if reason.is_empty() {
        s.as_object_mut().map(|m| m.remove("reason"));
    }
    HttpResponse {
        status: code,
        content_type: "application/json".into(),
        headers: Vec::new(),
        body: s.to_string().into_bytes(),
    }
}

/// The `Host` must be the address the server listens on, `127.0.0.1:PORT` or
/// `localhost:PORT`: a page on another name that DNS points here (rebinding) is
/// refused with 421 Misdirected Request.
fn misdirected(state: &State, req: &Request<Incoming>) -> Option<Response<Body>> {
    let host = req
        .headers()
        .get(hyper::header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    let port = state.port;
    let (name, p) = match host.rsplit_once(':') {
        Some((n, p)) => (n, p.parse::<u16>().ok()),
        // No port: the scheme's own, 443.
        None => (host, Some(443)),
    };
    let ours = (name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost")) && p == Some(port);
    (!ours).then(|| {
        let msg = format!(
            "the Host header {host:?} does not name this server: it serves https://127.0.0.1:{port} and https://localhost:{port} only"
        );
        response(status(421, "", &msg))
    })
}

/// A request from a web page (it carries `Origin`) is refused unless `--allow-origin`
/// allowed that origin; then the answer carries CORS headers for it.
fn allowed_origin(
    state: &State,
    req: &Request<Incoming>,
) -> Result<Option<HeaderValue>, HttpResponse> {
    let Some(origin) = req.headers().get(hyper::header::ORIGIN) else {
        return Ok(None);
    };
    let text = String::from_utf8_lossy(origin.as_bytes());
    if state
        .allowed_origins
        .iter()
        .any(|a| a == "*" || a.as_str() == text)
    {
        return Ok(Some(origin.clone()));
    }
    let msg = format!(
        "requests from web pages are refused: the origin {text:?} is not allowed (start the server with --allow-origin {text} to allow it)"
    );
    Err(status(403, "Forbidden", &msg))
}

/// The request's answer: kubeplay's activity, or the engine's.
async fn answer(state: &Arc<State>, close: Arc<Notify>, req: Request<Incoming>) -> Response<Body> {
    let path = req.uri().path().to_string();
    if path == ACTIVITY_PATH {
        return activity(state, &req);
    }
    if !path.starts_with("/kubeplay/") {
        state.activity.note();
    }
    if let Some(answered) = probe_answered(state, &req) {
        return answered;
    }
    let (parts, incoming) = req.into_parts();
    // One `sim` verb at a time runs the clock; API requests go between its slices.
    let _turn = if parts.uri.path() == rest::SIM_PATH {
        Some(state.sim_turn.lock().await)
    } else {
        None
    };
    let (body, room) = match read_body(state, &parts.headers, incoming).await {
        Ok(b) => b,
        Err(refused) => return response(refused),
    };
    let req = http_request(&parts, body);
    // Decoded now, before its turn at the cluster, two at most at once.
    let mut decoding = None;
    let decoded = if req.body.is_empty() {
        None
    } else {
        decoding = state.decoding.clone().acquire_owned().await.ok();
        Some(rest::decode_body(&req))
    };
    // Probes are exempt from queueing (the `probes` FlowSchema), so a busy cluster
    // still answers its health checks at once.
    let line = if rest::is_health_probe(&req.method, &req.path) {
        Line::Exempt
    } else {
        Line::Request
    };
    let engine = state.engine.clone();
    let first = engine
        .run(line, move |api| {
            kubeplay_engine::sim_endpoint::handle(api, &req, decoded)
        })
        .await;
    // The body and its decoding are spent: their room goes to the next request, not
    // held while a `sim advance` runs on.
    drop((room, decoding));
    let reply = match first {
        Some(r) => engine.finish_sim(r).await,
        None => None,
    };
    match reply {
        Some(Reply::Response(r)) => response(r),
        Some(Reply::Watch(w)) => {
            let ct = HeaderValue::from_str(&w.content_type);
            let mut r = Response::new(watch::body(engine, w, close));
            let h = r.headers_mut();
            if let Ok(ct) = ct {
                h.insert(hyper::header::CONTENT_TYPE, ct);
            }
            h.insert(
                hyper::header::CACHE_CONTROL,
                HeaderValue::from_static("no-cache, private"),
            );
            r
        }
        Some(Reply::NoAnswer) => {
            // A stopped API server: nothing answers at its address, so the connection
            // ends without a response, as one to a process that is gone would.
            close.notify_one();
            std::future::pending::<Response<Body>>().await
        }
        _ => response(status(
            500,
            "InternalError",
            "Internal error occurred: the request was not answered",
        )),
    }
}

/// A health probe of one of the kubeconfig's users, answered from the engine's last
/// published [`Health`](super::engine::Health), as kube-apiserver answers `/healthz`
/// from its checks without touching the store: no waiting for the cluster's thread,
/// however busy. A probe RBAC refuses, any other token (a ServiceAccount's, to be
/// checked), an impersonation and an API server that is down are None: the engine
/// answers those. Health requests are not counted in `apiserver_request_total`, so
/// nothing else is owed to the engine.
fn probe_answered(state: &State, req: &Request<Incoming>) -> Option<Response<Body>> {
    let path = req.uri().path();
    if !rest::is_health_probe(req.method().as_str(), path)
        || req
            .headers()
            .keys()
            .any(|k| k.as_str().starts_with("impersonate-"))
    {
        return None;
    }
    let probe = engine_request(req.method(), req.uri(), req.headers(), Vec::new());
    let user = rest::bearer_user(&probe);
    let health = state.engine.health();
    if health.allows(&user, path) != Some(true) {
        return None;
    }
    let verbose = probe.param("verbose").is_some();
    let h = health::answer(health.unavailable, path.trim_start_matches('/'), verbose)?;
    // What the engine's own answer carries (`ApiServer::health`).
    Some(response(HttpResponse {
        status: h.code,
        content_type: "text/plain; charset=utf-8".into(),
        headers: Vec::new(),
        body: h.body.into_bytes(),
    }))
}

/// `GET /kubeplay/v1/activity`: how many API requests the server answered and how
/// long ago the last came — a script moves the clock once a waiting client has sent
/// what it sends. For any user the server knows.
fn activity(state: &State, req: &Request<Incoming>) -> Response<Body> {
    let auth = req
        .headers()
        .get(hyper::header::AUTHORIZATION)
        .map(|a| String::from_utf8_lossy(a.as_bytes()).into_owned());
    let probe = HttpRequest {
        headers: auth
            .map(|a| ("authorization".into(), a))
            .into_iter()
            .collect(),
        ..Default::default()
    };
    if kubeplay_engine::apiserver::door::authenticate(&rest::bearer_user(&probe)).is_none() {
        return response(status(401, "Unauthorized", "Unauthorized"));
    }
    let (n, idle) = state.activity.read();
    let body = format!("{{\"requests\":{n},\"idleMs\":{idle}}}");
    response(HttpResponse {
        status: 200,
        content_type: "application/json".into(),
        headers: Vec::new(),
        body: body.into_bytes(),
    })
}

/// Read the body within [`MAX_REQUEST_BODY_BYTES`] (413 past it, at once when the
/// declared length says so), [`BODY_READ_TIMEOUT`] (504) and the room all bodies
/// share ([`BODY_BUDGET_BYTES`]: a body waits for room, 429 if none comes). The room
/// is held until the request is answered.
async fn read_body(
    state: &State,
    headers: &hyper::HeaderMap,
    mut incoming: Incoming,
) -> Result<(Vec<u8>, Option<OwnedSemaphorePermit>), HttpResponse> {
    use hyper::body::Body as _;
    if incoming.is_end_stream() {
        return Ok((Vec::new(), None));
    }
    let declared = headers
        .get(hyper::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > MAX_REQUEST_BODY_BYTES as u64) {
        return Err(rest::request_entity_too_large());
    }
    let deadline = tokio::time::Instant::now() + BODY_READ_TIMEOUT;
    let want = declared.map_or(MAX_REQUEST_BODY_BYTES, |n| n as usize);
    let want = u32::try_from(want.min(BODY_BUDGET_BYTES)).unwrap_or(u32::MAX);
    let room =
        match tokio::time::timeout_at(deadline, state.body_budget.clone().acquire_many_owned(want))
            .await
        {
            Ok(Ok(p)) => p,
            _ => {
                let mut r = status(
                    429,
                    "TooManyRequests",
                    "Too many requests, please try again later.",
                );
                r.headers.push(("Retry-After".into(), "1".into()));
                return Err(r);
            }
        };
    let mut body = Vec::with_capacity(want as usize);
    loop {
        match tokio::time::timeout_at(deadline, incoming.frame()).await {
            Err(_) => {
                return Err(status(
                    504,
                    "Timeout",
                    "Timeout: request did not complete within requested timeout - context deadline exceeded",
                ))
            }
            Ok(None) => break,
            Ok(Some(Err(e))) => {
                return Err(status(400, "BadRequest", &format!("the request's body could not be read: {e}")))
            }
            Ok(Some(Ok(frame))) => {
                if let Ok(data) = frame.into_data() {
                    if body.len() + data.len() > MAX_REQUEST_BODY_BYTES {
                        return Err(rest::request_entity_too_large());
                    }
                    body.extend_from_slice(&data);
                }
            }
        }
    }
    Ok((body, Some(room)))
}

/// The engine's request: the path and query percent-decoded, header names in lower case.
fn http_request(parts: &hyper::http::request::Parts, body: Vec<u8>) -> HttpRequest {
    engine_request(&parts.method, &parts.uri, &parts.headers, body)
}

fn engine_request(
    method: &Method,
    uri: &hyper::Uri,
    headers: &hyper::HeaderMap,
    body: Vec<u8>,
) -> HttpRequest {
    let query = rest::uri::split_query(uri.query().unwrap_or(""));
    HttpRequest {
        method: method.as_str().to_string(),
        path: rest::uri::percent_decode(uri.path(), false),
        query,
        headers: headers
            .iter()
            .map(|(k, v)| {
                (
                    k.as_str().to_string(),
                    String::from_utf8_lossy(v.as_bytes()).trim().to_string(),
                )
            })
            .collect(),
        body,
    }
}

/// hyper's response for the engine's: its status, type and headers, and the server's
/// `Cache-Control`; the length is the body's.
pub fn response(r: HttpResponse) -> Response<Body> {
    let mut resp = Response::new(Body::full(r.body));
    *resp.status_mut() =
        StatusCode::from_u16(r.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    let h = resp.headers_mut();
    if let Ok(ct) = HeaderValue::from_str(&r.content_type) {
        h.insert(hyper::header::CONTENT_TYPE, ct);
    }
    h.insert(
        hyper::header::CACHE_CONTROL,
        HeaderValue::from_static("no-cache, private"),
    );
    for (k, v) in r.headers {
        // A value no header may carry (a control character) is left out.
        if let (Ok(k), Ok(v)) = (
            HeaderName::from_bytes(k.as_bytes()),
            HeaderValue::from_bytes(v.as_bytes()),
        ) {
            h.append(k, v);
        }
    }
    resp
}

/// The counters behind [`ACTIVITY_PATH`].
pub struct Activity {
    counts: std::sync::Mutex<(u64, Instant)>,
}

impl Activity {
    /// No request yet.
    pub fn new() -> Self {
        Activity {
            counts: std::sync::Mutex::new((0, Instant::now())),
        }
    }

    fn note(&self) {
        let mut a = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        *a = (a.0 + 1, Instant::now());
    }

    fn read(&self) -> (u64, u128) {
        let a = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        (a.0, a.1.elapsed().as_millis())
    }
}

impl Default for Activity {
    fn default() -> Self {
        Self::new()
    }
}
