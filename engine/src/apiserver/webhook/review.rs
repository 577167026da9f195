//! One call of a webhook: the AdmissionReview the API server sends
//! (`request/admissionreview.go` `CreateAdmissionObjects`), the run of the learner's
//! server in the sandbox, and the checks on what it answered
//! (`VerifyAdmissionResponse`, `errors/statuserror.go` `ToStatusErr`).

use super::super::policy::Attributes;
use super::super::{ApiError, Store};
use super::CallError;
use crate::api::*;
use crate::sandbox::{self, ScriptCall};
use crate::time::{SimTime, EPOCH_UNIX_SECONDS};
use serde_json::{json, Value};

/// How a call ended when it did not allow the request.
pub(in crate::apiserver) enum Outcome {
    /// The webhook answered no: its status.
    Refused(ApiError),
    /// The call failed (`ErrCallingWebhook`'s reason).
    Failed(CallError),
}

/// Where a hook's requests go.
pub(super) struct Target {
    /// The URL as the error texts show it, with `?timeout=Ns`.
    pub url: String,
    /// The host (a URL hook's).
    pub host: String,
    /// The Service (None: a URL).
    pub service: Option<crate::apiserver::ObjKey>,
    /// The Service port.
    pub port: i32,
    /// The path.
    pub path: String,
}

impl Target {
    /// `hookClientConfig`: `https://NAME.NAMESPACE.svc:PORT` and the path joined as
    /// `path.Join` joins it, then client-go's `?timeout=`.
    pub fn of(hook: &ValidatingWebhook, timeout: i32) -> Target {
        let cc = &hook.client_config;
        if let Some(s) = &cc.service {
            let port = s.port.filter(|p| *p != 0).unwrap_or(443);
            let path = join_path(s.path.as_deref().unwrap_or_default());
            return Target {
                url: format!(
                    "https://{}.{}.svc:{port}{path}?timeout={timeout}s",
                    s.name, s.namespace
                ),
                host: format!("{}.{}.svc", s.name, s.namespace),
                service: Some(crate::apiserver::ObjKey::new(&s.namespace, &s.name)),
                port,
                path,
            };
        }
        let url = cc.url.clone().unwrap_or_default();
        let rest = url.split_once("://").map_or(url.as_str(), |(_, r)| r);
        let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let path = join_path(&rest[host.len()..]);
        let host_name = host.rsplit_once(':').map_or(host, |(h, _)| h).to_string();
        Target {
            url: format!("https://{host}{path}?timeout={timeout}s"),
            host: host_name,
            service: None,
            port: 443,
            path,
        }
    }
}

/// `path.Join("/", p)`: one leading slash, no trailing one, no empty segments.
fn join_path(p: &str) -> String {
    let parts: Vec<&str> = p
        .split('/')
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    format!("/{}", parts.join("/"))
}

/// The AdmissionReview (admission.k8s.io/v1) for this request.
pub(super) fn request(store: &Store, a: &Attributes<'_>, subject: &Object, n: u64) -> Value {
    let kind = subject.kind();
    let (group, version) = crate::apiserver::discovery::group_version(kind);
    let m = subject.meta();
    let uid = crate::rng::Rng::new(store.revision().wrapping_mul(0x9e37_79b9) ^ n).uuid_v4();
    let gvk = json!({"group": group, "version": version, "kind": kind.name()});
    let gvr = json!({"group": group, "version": version, "resource": kind.resource()});
    let options_kind = match a.operation {
        "CREATE" => "CreateOptions",
        "UPDATE" => "UpdateOptions",
        _ => "DeleteOptions",
    };
    let mut req = json!({
        "uid": uid,
        "kind": gvk,
        "resource": gvr,
        "requestKind": gvk,
        "requestResource": gvr,
        "name": m.name,
        "namespace": m.namespace,
        "operation": a.operation,
        "userInfo": store.user_info(a),
        "object": a.object.map_or(Value::Null, Object::to_json),
        "oldObject": a.old.map_or(Value::Null, Object::to_json),
        "dryRun": false,
        "options": {"apiVersion": "meta.k8s.io/v1", "kind": options_kind},
    });
    if let Some(o) = req.as_object_mut() {
        if !store.subresource.is_empty() {
            o.insert("subResource".into(), json!(store.subresource));
            o.insert("requestSubResource".into(), json!(store.subresource));
        }
        for k in ["name", "namespace"] {
            if o.get(k).and_then(Value::as_str) == Some("") {
                o.remove(k);
            }
        }
        // A create from `generateName` is admitted before it has a name of its own:
        // the request names none (the object carries the generated one).
        if a.operation == "CREATE" && !m.generate_name.is_empty() {
            o.remove("name");
        }
    }
    json!({"kind": "AdmissionReview", "apiVersion": "admission.k8s.io/v1", "request": req})
}

/// Why the server gave no usable HTTP answer.
pub(super) enum Failure {
    /// It did not answer within the timeout (its budget ran out).
    Timeout,
    /// It died mid-request (out of memory): the connection closed.
    Crashed,
    /// It answered 500 with this body (its handler threw).
    Error(String),
    /// No sandbox to run it in.
    NoSandbox,
}

/// What one run of the server did.
pub(super) struct Ran {
    /// Ticks it used.
    pub ticks: u32,
    /// Its `console.log` lines.
    pub logs: Vec<String>,
    /// The body it answered with, parsed, or why there is none.
    pub answer: Result<Value, Failure>,
}

/// Run the server's `admit(review, path)`.
pub(super) fn run(
    source: &str,
    review: &Value,
    target: &Target,
    now: SimTime,
    n: u64,
    budget_ticks: u32,
) -> Ran {
    let input = json!({"review": review, "path": target.path}).to_string();
    let now_ms = EPOCH_UNIX_SECONDS
        .saturating_mul(1000)
        .saturating_add(i64::try_from(now).unwrap_or(i64::MAX / 2));
    let call = ScriptCall {
        source,
        library: super::LIBRARY,
        input: &input,
        now_ms,
        seed: n,
        budget_ticks,
    };
    let none = |f: Failure, ticks: u32| Ran {
        ticks,
        logs: Vec::new(),
        answer: Err(f),
    };
    if budget_ticks == 0 {
        return none(Failure::Timeout, 0);
    }
    let Some(outcome) = sandbox::run(&call) else {
        return none(Failure::NoSandbox, 0);
    };
    let ticks = outcome.ticks;
    let text = match outcome.result {
        Ok(t) => t,
        Err(f) => {
            let why = match f.kind.as_str() {
                "Budget" => Failure::Timeout,
                "Memory" => Failure::Crashed,
                _ => Failure::Error(clip(&f.message, 1_000)),
            };
            return none(why, ticks);
        }
    };
    #[derive(serde::Deserialize)]
    struct Out {
        #[serde(default)]
        logs: Vec<String>,
        #[serde(default)]
        answer: Value,
        #[serde(default)]
        error: Option<String>,
    }
    let out: Out = match serde_json::from_str(&text) {
        Ok(o) => o,
        Err(e) => return none(Failure::Error(format!("unreadable output: {e}")), ticks),
    };
    let logs = out
        .logs
        .into_iter()
        .take(50)
        .map(|l| clip(&l, 500))
        .collect();
    Ran {
        ticks,
        logs,
        answer: match out.error {
            Some(e) => Err(Failure::Error(clip(&e, 1_000))),
            None => Ok(out.answer),
        },
    }
}

/// `s` cut to at most `max` bytes, at a character boundary.
fn clip(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

/// A verified answer.
pub(super) struct Verdict {
    /// Whether it allows the request.
    pub allowed: bool,
    /// Its status (`response.status`).
    pub status: Value,
    /// Its audit annotations, key and value.
    pub audit_annotations: Vec<(String, String)>,
    /// Its warnings, as the warning recorder keeps them.
    pub warnings: Vec<String>,
}

/// Why an answer cannot be used.
pub(super) enum Unusable {
    /// The body does not decode into an AdmissionReview (the client's `Into`):
    /// `failed to call webhook: json: …`.
    Decode(String),
    /// It decodes, and `VerifyAdmissionResponse` refuses it: `received invalid
    /// webhook response: …`.
    Invalid(String),
}

/// The answer decoded as Go's `encoding/json` decodes it into an AdmissionReview (a
/// field of the wrong type fails the whole decode), then `VerifyAdmissionResponse`
/// for a validating webhook: a response, the request's uid, the AdmissionReview
/// kind, no patch.
pub(super) fn verify(answer: &Value, uid: &str) -> Result<Verdict, Unusable> {
    let decoded = decode(answer).map_err(Unusable::Decode)?;
    let Some(d) = decoded else {
        return Err(Unusable::Invalid("webhook response was absent".into()));
    };
    if d.uid != uid {
        return Err(Unusable::Invalid(format!(
            "expected response.uid={uid:?}, got {:?}",
            d.uid
        )));
    }
    let text = |k: &str| answer.get(k).and_then(Value::as_str).unwrap_or_default();
    let (api_version, kind) = (text("apiVersion"), text("kind"));
    if api_version != "admission.k8s.io/v1" || kind != "AdmissionReview" {
        let (g, v) = api_version.rsplit_once('/').unwrap_or(("", api_version));
        return Err(Unusable::Invalid(format!(
            "expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got {g}/{v}, Kind={kind}"
        )));
    }
    if d.patch {
        return Err(Unusable::Invalid(
            "validating webhook may not return response.patch".into(),
        ));
    }
    if d.patch_type {
        return Err(Unusable::Invalid(
            "validating webhook may not return response.patchType".into(),
        ));
    }
    Ok(d.verdict)
}

/// What decoding kept of a response.
struct Decoded {
    uid: String,
    patch: bool,
    patch_type: bool,
    verdict: Verdict,
}

/// The response's fields by their Go types (None: no response).
fn decode(answer: &Value) -> Result<Option<Decoded>, String> {
    let response = match answer.get("response") {
        Some(r @ Value::Object(_)) => r,
        None | Some(Value::Null) => return Ok(None),
        Some(v) => return Err(unmarshal(v, "response", "v1.AdmissionResponse")),
    };
    let field = |k: &str| response.get(k).filter(|v| !v.is_null());
    let uid = match field("uid") {
        None => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(v) => return Err(unmarshal(v, "uid", "types.UID")),
    };
    let allowed = match field("allowed") {
        None => false,
        Some(Value::Bool(b)) => *b,
        Some(v) => return Err(unmarshal(v, "allowed", "bool")),
    };
    let status = match field("status") {
        None => Value::Null,
        Some(v @ Value::Object(_)) => v.clone(),
        Some(v) => return Err(unmarshal(v, "status", "v1.Status")),
    };
    let mut audit_annotations = Vec::new();
    match field("auditAnnotations") {
        None => {}
        Some(Value::Object(m)) => {
            for (k, v) in m {
                let Some(v) = v.as_str() else {
                    return Err(unmarshal(v, "auditAnnotations", "string"));
                };
                // A qualified name is at most 316 bytes: a longer key is dropped
                // anyway; the first 32 are kept.
                if audit_annotations.len() < 32 && k.len() <= 316 {
                    audit_annotations.push((k.clone(), clip(v, 10 * 1024)));
                }
            }
        }
        Some(v) => return Err(unmarshal(v, "auditAnnotations", "map[string]string")),
    }
    let warnings = match field("warnings") {
        None => Vec::new(),
        Some(Value::Array(items)) => {
            let mut out = Vec::new();
            for w in items {
                let Some(w) = w.as_str() else {
                    return Err(unmarshal(w, "warnings", "string"));
                };
                out.push(w.to_string());
            }
            recorded_warnings(out)
        }
        Some(v) => return Err(unmarshal(v, "warnings", "[]string")),
    };
    Ok(Some(Decoded {
        uid,
        patch: field("patch").is_some(),
        patch_type: field("patchType").is_some(),
        verdict: Verdict {
            allowed,
            status,
            audit_annotations,
            warnings,
        },
    }))
}

/// encoding/json's type error, as the webhook client's decoder reports it.
fn unmarshal(v: &Value, field: &str, go_type: &str) -> String {
    let json_type = match v {
        Value::Null => "null",
        Value::Bool(_) => "bool",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    format!(
        "json: cannot unmarshal {json_type} into Go struct field AdmissionResponse.response.{field} of type {go_type}"
    )
}

/// The warning recorder (`endpoints/filters/warning.go`): empty ones, repeats and
/// any with a control character are dropped; past 4,096 characters in all, each is
/// cut to 256.
fn recorded_warnings(ws: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut total = 0;
    for w in ws {
        if w.is_empty() || w.chars().any(char::is_control) || out.contains(&w) {
            continue;
        }
        // Past 4,096 characters in all, each is cut to 256 and no more are added.
        if total > 4096 {
            break;
        }
        total += w.chars().count();
        out.push(w);
    }
    if total > 4096 {
        for w in &mut out {
            if w.chars().count() > 256 {
                *w = w.chars().take(256).collect();
            }
        }
    }
    out
}

/// `ToStatusErr`: the webhook's own status, its message prefixed, its code at least
/// 400.
pub(super) fn to_status_err(name: &str, status: Value) -> ApiError {
    let denied_by = format!("admission webhook {name:?} denied the request");
    // The webhook's words, bounded: they travel into Events and the request log.
    let clipped = |k: &str| {
        clip(
            status.get(k).and_then(Value::as_str).unwrap_or_default(),
            4096,
        )
    };
    let text = |k: &str| clipped(k);
    let message = if !text("message").is_empty() {
        format!("{denied_by}: {}", text("message"))
    } else if !text("reason").is_empty() {
        format!("{denied_by}: {}", text("reason"))
    } else {
        format!("{denied_by} without explanation")
    };
    let code = status
        .get("code")
        .and_then(Value::as_i64)
        .unwrap_or(0)
        .clamp(400, 599);
    ApiError {
        code: code as u16,
        reason: status_reason(&text("reason")),
        message,
        kubectl_message: None,
        // The webhook's status names no object.
        details: Some(Box::new(crate::apiserver::Details {
            group: "",
            kind: "",
            name: String::new(),
            causes: Vec::new(),
        })),
    }
}

/// A status reason as `&'static str`, as [`ApiError`] keeps it: upstream's own
/// (`metav1.StatusReason…`) as they are; a reason of the webhook's own kept as well
/// (kubectl shows any as `Error from server (REASON)`), each distinct one once, up to
/// 64 of them (then, and past 256 bytes, it reads as none).
fn status_reason(r: &str) -> &'static str {
    const KNOWN: [&str; 20] = [
        "Unauthorized",
        "Forbidden",
        "NotFound",
        "AlreadyExists",
        "Conflict",
        "Gone",
        "Invalid",
        "ServerTimeout",
        "StoreReadError",
        "Timeout",
        "TooManyRequests",
        "BadRequest",
        "MethodNotAllowed",
        "NotAcceptable",
        "RequestEntityTooLarge",
        "UnsupportedMediaType",
        "InternalError",
        "Expired",
        "ServiceUnavailable",
        "Unknown",
    ];
    if let Some(k) = KNOWN.into_iter().find(|k| *k == r) {
        return k;
    }
    if r.is_empty() || r.len() > 256 {
        return "";
    }
    static OWN: std::sync::Mutex<Vec<&'static str>> = std::sync::Mutex::new(Vec::new());
    let Ok(mut own) = OWN.lock() else {
        return "";
    };
    if let Some(k) = own.iter().find(|k| **k == r) {
        return k;
    }
    if own.len() >= 64 {
        return "";
    }
    let k: &'static str = Box::leak(r.to_string().into_boxed_str());
    own.push(k);
    k
}

/// The hook's match conditions over `object`, `oldObject` and `request`: Ok(false)
/// when one is false, Err when none is false and one erred.
pub(super) fn match_conditions(
    store: &Store,
    hook: &ValidatingWebhook,
    a: &Attributes<'_>,
    subject: &Object,
    budget: &mut u64,
) -> Result<bool, String> {
    let review = request(store, a, subject, 0);
    let mut req = review["request"].clone();
    if let Some(o) = req.as_object_mut() {
        o.remove("object");
        o.remove("oldObject");
    }
    let vars = vec![
        (
            "object".to_string(),
            a.object.map_or(Value::Null, Object::to_json),
        ),
        (
            "oldObject".to_string(),
            a.old.map_or(Value::Null, Object::to_json),
        ),
        ("request".to_string(), req),
    ];
    super::super::policy::match_conditions(&hook.match_conditions, &vars, budget)
}

/// `apierrors.NewForbidden(resource, name, err)`.
pub(super) fn forbidden(subject: &Object, err: &str) -> ApiError {
    ApiError {
        code: 403,
        reason: "Forbidden",
        message: format!(
            "{} \"{}\" is forbidden: {err}",
            subject.kind().qualified_resource(),
            subject.meta().name
        ),
        kubectl_message: None,
        details: None,
    }
}
