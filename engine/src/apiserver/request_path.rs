//! The request path, recorded: each request a client sends passes the API server's
//! stages in upstream's order — authentication, authorization, mutating admission,
//! validation (schema and field checks), validating admission, then storage in etcd —
//! and a refusal names the stage that refused it. The last requests are kept for
//! `sim trace request/N` and the page's request path panel.
//!
//! Each request gets a number in order. Reads (get, list, watch) skip admission, which
//! only writes pass. What the mutating stage shows is what defaulting and admission
//! added to the object (`apiserver::admission`: defaults, DefaultTolerationSeconds,
//! Priority, the Service allocators; `apiserver::limit_ranger`: LimitRanger's defaults),
//! as the paths of the fields they set.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/server/config.go`
//! (`DefaultBuildHandlerChain`: authentication, then authorization filters),
//! `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/create.go` and `update.go`
//! (decode, mutating admission, validation, validating admission, storage).
//!
//! Only the requests a person sent are recorded (the console's kubectl and the HTTP
//! clients of `kubeplay-cli serve`): the components' own requests are many (a Lease
//! every 10 s per node). The door ([`super::door`]) builds each trace as the request
//! passes its stages.

use super::rbac::{Attributes, UserInfo};
use super::ApiError;
use crate::time::SimTime;
use std::collections::VecDeque;

/// How many requests are kept.
pub const KEEP: usize = 100;

/// A stage of the request path, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Stage {
    /// Who is asking (the token or certificate).
    Authentication,
    /// May they (RBAC).
    Authorization,
    /// Defaults and mutating admission plugins.
    MutatingAdmission,
    /// Schema and field validation (400, 422).
    Validation,
    /// Validating admission plugins (LimitRanger, PodSecurity,
    /// ValidatingAdmissionPolicy, ValidatingAdmissionWebhook, ResourceQuota,
    /// NamespaceLifecycle).
    ValidatingAdmission,
    /// etcd: the write or consistent read.
    Storage,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 6] = [
        Stage::Authentication,
        Stage::Authorization,
        Stage::MutatingAdmission,
        Stage::Validation,
        Stage::ValidatingAdmission,
        Stage::Storage,
    ];

    /// The stage's name.
    pub fn label(self) -> &'static str {
        match self {
            Stage::Authentication => "authentication",
            Stage::Authorization => "authorization",
            Stage::MutatingAdmission => "mutating admission",
            Stage::Validation => "validation",
            Stage::ValidatingAdmission => "validating admission",
            Stage::Storage => "storage (etcd)",
        }
    }
}

/// What happened at a stage.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum Verdict {
    /// Passed.
    Passed,
    /// Refused the request here.
    Refused,
    /// Not reached: an earlier stage refused.
    NotReached,
    /// Does not apply (admission for a read).
    Skipped,
}

/// One stage's outcome.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct StageResult {
    /// The stage.
    pub stage: Stage,
    /// Its verdict.
    pub verdict: Verdict,
    /// What it found (the user, the binding that allowed, the fields set, the
    /// resourceVersion written, or the refusal).
    pub detail: String,
}

/// One request and its way through the API server.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RequestTrace {
    /// Its number (`request/N`).
    pub n: u64,
    /// When (simulated ms).
    pub time: SimTime,
    /// The kubectl command that sent it.
    pub command: String,
    /// The user as authenticated (or as the context names it when refused).
    pub user: String,
    /// The verb (`get`, `list`, `create`, `update`, `patch`, `delete`).
    pub verb: String,
    /// `resource[.group][/subresource]`.
    pub resource: String,
    /// Namespace (empty at cluster scope).
    pub namespace: String,
    /// Object name (empty for collections and creates).
    pub name: String,
    /// The stages in order.
    pub stages: Vec<StageResult>,
    /// HTTP status code.
    pub code: u16,
    /// The status line: `201 Created`, `403 Forbidden: …`.
    pub status: String,
    /// The audit annotations admission gave it (a ValidatingAdmissionPolicy's):
    /// what the audit log would record with the request.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub annotations: Vec<(String, String)>,
    /// The admission webhooks it was sent to, and how each call went.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub webhooks: Vec<String>,
}

impl RequestTrace {
    /// The stage that refused it, if one did.
    pub fn refused_at(&self) -> Option<Stage> {
        self.stages
            .iter()
            .find(|s| s.verdict == Verdict::Refused)
            .map(|s| s.stage)
    }
}

/// The recent requests.
#[derive(Clone, Debug, Default)]
pub struct RequestLog {
    next: u64,
    /// The last [`KEEP`] requests, oldest first.
    pub recent: VecDeque<RequestTrace>,
}

impl RequestLog {
    /// A request by number, if still kept.
    pub fn get(&self, n: u64) -> Option<&RequestTrace> {
        self.recent.iter().find(|r| r.n == n)
    }

    /// Keep `r`, numbered next.
    pub fn push(&mut self, mut r: RequestTrace) {
        self.next += 1;
        r.n = self.next;
        self.recent.push_back(r);
        while self.recent.len() > KEEP {
            self.recent.pop_front();
        }
    }
}

pub(super) fn resource_name(a: &Attributes) -> String {
    let mut r = a.resource.clone();
    if !a.api_group.is_empty() {
        r = format!("{r}.{}", a.api_group);
    }
    if !a.subresource.is_empty() {
        r = format!("{r}/{}", a.subresource);
    }
    r
}

/// The reason phrase of an HTTP status code the API server answers with ("" for
/// others).
pub fn http_status(code: u16) -> &'static str {
    match code {
        200 => "OK",
        201 => "Created",
        400 => "Bad Request",
        401 => "Unauthorized",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        410 => "Gone",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Entity",
        429 => "Too Many Requests",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        _ => "",
    }
}

/// The stage an API error comes from.
pub(super) fn refusing_stage(e: &ApiError, verb: &str) -> Stage {
    // A ValidatingAdmissionPolicy's denial says so, whatever its code (422, 403, 413).
    if e.message.contains("denied request: ") && e.message.contains("ValidatingAdmissionPolicy '") {
        return Stage::ValidatingAdmission;
    }
    // So does a webhook's refusal (its own code), or a call to one that failed (500),
    // or a match condition that erred (403).
    if e.message.starts_with("admission webhook \"")
        || e.message.contains("failed calling webhook \"")
    {
        return Stage::ValidatingAdmission;
    }
    match (e.code, e.reason) {
        (422, _) | (400, _) => Stage::Validation,
        (403, _)
            if e.message.contains("exceeded quota")
                || e.message.contains("failed quota")
                || e.message.contains("status unknown for quota") =>
        {
            Stage::ValidatingAdmission
        }
        // LimitRanger and PodSecurity.
        (403, _)
            if e.message.contains(" usage per ")
                || e.message.contains(" max limit to request ratio per ")
                || e.message.contains("violates PodSecurity") =>
        {
            Stage::ValidatingAdmission
        }
        (403, _) if e.message.contains("because it is being terminated") => {
            Stage::ValidatingAdmission
        }
        (403, _) if e.message.contains("PriorityClass") => Stage::MutatingAdmission,
        (403, _) => Stage::Authorization,
        // Creating in a namespace that does not exist: NamespaceLifecycle.
        (404, _) if verb == "create" => Stage::ValidatingAdmission,
        _ => Stage::Storage,
    }
}

/// The leaf paths where `after` differs from `before` (what defaulting and admission
/// set), at most `max`.
pub(super) fn changed_paths(
    before: &serde_json::Value,
    after: &serde_json::Value,
    max: usize,
) -> Vec<String> {
    fn walk(
        b: Option<&serde_json::Value>,
        a: &serde_json::Value,
        path: String,
        out: &mut Vec<String>,
    ) {
        match (b, a) {
            (Some(bv), av) if bv == av => {}
            (Some(serde_json::Value::Object(bm)), serde_json::Value::Object(am)) => {
                for (k, v) in am {
                    let p = if path.is_empty() {
                        k.clone()
                    } else {
                        format!("{path}.{k}")
                    };
                    walk(bm.get(k), v, p, out);
                }
            }
            (Some(serde_json::Value::Array(ba)), serde_json::Value::Array(aa))
                if ba.len() == aa.len() =>
            {
                for (i, v) in aa.iter().enumerate() {
                    walk(ba.get(i), v, format!("{path}[{i}]"), out);
                }
            }
            _ => out.push(path),
        }
    }
    let mut out = Vec::new();
    walk(Some(before), after, String::new(), &mut out);
    out.retain(|p| !p.starts_with("status"));
    let more = out.len().saturating_sub(max);
    out.truncate(max);
    if more > 0 {
        out.push(format!("… {more} more"));
    }
    out
}

/// The authentication stage, passed by `user`.
pub(super) fn authn_passed(user: &UserInfo) -> StageResult {
    StageResult {
        stage: Stage::Authentication,
        verdict: Verdict::Passed,
        detail: format!("user \"{}\", groups [{}]", user.name, user.groups.join(" ")),
    }
}

/// The stages from `from` on, all with `verdict`.
pub(super) fn rest(from: usize, verdict: Verdict) -> impl Iterator<Item = StageResult> {
    Stage::ALL[from..].iter().map(move |&stage| StageResult {
        stage,
        verdict,
        detail: String::new(),
    })
}

/// The trace of a request refused before it reached any object: at authentication
/// (`user` None: the context's user, whose token is refused) or at authorization
/// (impersonation included).
pub(super) fn refused(
    time: SimTime,
    command: &str,
    context_user: &str,
    user: Option<&UserInfo>,
    a: &Attributes,
    error: &ApiError,
) -> RequestTrace {
    let mut stages = Vec::new();
    match user {
        None => {
            stages.push(StageResult {
                stage: Stage::Authentication,
                verdict: Verdict::Refused,
                detail: format!("the token of user \"{context_user}\" is not accepted"),
            });
            stages.extend(rest(1, Verdict::NotReached));
        }
        Some(u) => {
            stages.push(authn_passed(u));
            stages.push(StageResult {
                stage: Stage::Authorization,
                verdict: Verdict::Refused,
                detail: error.message.clone(),
            });
            stages.extend(rest(2, Verdict::NotReached));
        }
    }
    RequestTrace {
        annotations: Vec::new(),
        webhooks: Vec::new(),
        n: 0,
        time,
        command: command.to_string(),
        user: user
            .map(|u| u.name.clone())
            .unwrap_or_else(|| context_user.to_string()),
        verb: a.verb.clone(),
        resource: resource_name(a),
        namespace: a.namespace.clone(),
        name: a.name.clone(),
        stages,
        code: error.code,
        status: format!(
            "{} {}: {}",
            error.code,
            http_status(error.code),
            error.message
        ),
    }
}
