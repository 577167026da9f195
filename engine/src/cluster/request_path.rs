//! The request path, recorded: each request kubectl sends passes the API server's
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
//! Only kubectl's requests are recorded: the components' own requests are many (a
//! Lease every 10 s per node) and pass without refusal in kubeplay.

use super::*;
use crate::apiserver::rbac::{Attributes, UserInfo};
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
    /// Validating admission plugins (LimitRanger, PodSecurity, ResourceQuota,
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

    fn push(&mut self, mut r: RequestTrace) {
        self.next += 1;
        r.n = self.next;
        self.recent.push_back(r);
        while self.recent.len() > KEEP {
            self.recent.pop_front();
        }
    }
}

/// Who is acting while a kubectl command runs: its user, its command line, and the
/// requests authorization allowed (with the binding that allowed each).
#[derive(Clone, Debug, Default)]
pub struct Acting {
    /// The authenticated (or impersonated) user.
    pub user: UserInfo,
    /// The command line.
    pub command: String,
    /// Each allowed request and the reason RBAC gave.
    pub allowed: Vec<(Attributes, String)>,
    /// The writes sent so far, recorded when the command ends (after its reads).
    pending: Vec<RequestTrace>,
}

fn resource_name(a: &Attributes) -> String {
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
fn refusing_stage(e: &ApiError, verb: &str) -> Stage {
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
fn changed_paths(before: &serde_json::Value, after: &serde_json::Value, max: usize) -> Vec<String> {
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

impl Cluster {
    /// The recent requests kubectl sent.
    pub fn request_log(&self) -> &RequestLog {
        &self.requests
    }

    /// kubectl's command runs as `user`, sending the requests authorization allowed.
    pub fn start_acting(
        &mut self,
        user: UserInfo,
        command: String,
        allowed: Vec<(Attributes, String)>,
    ) {
        self.acting = Some(Acting {
            user,
            command,
            allowed,
            pending: Vec::new(),
        });
    }

    fn authn_passed(user: &UserInfo) -> StageResult {
        StageResult {
            stage: Stage::Authentication,
            verdict: Verdict::Passed,
            detail: format!("user \"{}\", groups [{}]", user.name, user.groups.join(" ")),
        }
    }

    fn rest(from: usize, verdict: Verdict) -> impl Iterator<Item = StageResult> {
        Stage::ALL[from..].iter().map(move |&stage| StageResult {
            stage,
            verdict,
            detail: String::new(),
        })
    }

    /// Record a request the API server refused before it reached any object: at
    /// authentication (`user` None: the context's user, whose token is refused) or
    /// at authorization.
    pub fn record_refused(
        &mut self,
        command: &str,
        context_user: &str,
        user: Option<&UserInfo>,
        a: &Attributes,
        error: &ApiError,
    ) {
        let mut stages = Vec::new();
        match user {
            None => {
                stages.push(StageResult {
                    stage: Stage::Authentication,
                    verdict: Verdict::Refused,
                    detail: format!("the token of user \"{context_user}\" is not accepted"),
                });
                stages.extend(Self::rest(1, Verdict::NotReached));
            }
            Some(u) => {
                stages.push(Self::authn_passed(u));
                stages.push(StageResult {
                    stage: Stage::Authorization,
                    verdict: Verdict::Refused,
                    detail: error.message.clone(),
                });
                stages.extend(Self::rest(2, Verdict::NotReached));
            }
        }
        let now = self.now;
        self.requests.push(RequestTrace {
            n: 0,
            time: now,
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
        });
    }

    /// An allowed read (`get`, `list`, `watch`): admission does not apply; storage
    /// answers unless etcd has no quorum.
    fn read_trace(&self, acting: &Acting, a: &Attributes, allowed_by: &str) -> RequestTrace {
        let mut stages = vec![
            Self::authn_passed(&acting.user),
            StageResult {
                stage: Stage::Authorization,
                verdict: Verdict::Passed,
                detail: allowed_by.to_string(),
            },
        ];
        stages.extend(Stage::ALL[2..5].iter().map(|&stage| StageResult {
            stage,
            verdict: Verdict::Skipped,
            detail: "reads are not admitted".into(),
        }));
        let (code, status, storage) = if self.etcd_lost_quorum() {
            let e = ApiError::etcd_timed_out();
            (
                500,
                format!("500 Internal Server Error: {}", e.message),
                StageResult {
                    stage: Stage::Storage,
                    verdict: Verdict::Refused,
                    detail: format!(
                        "{} (consistent read: no quorum, {} of {} members up)",
                        e.message,
                        self.etcd.up_count(),
                        self.etcd.members.len()
                    ),
                },
            )
        } else {
            (
                200,
                "200 OK".to_string(),
                StageResult {
                    stage: Stage::Storage,
                    verdict: Verdict::Passed,
                    detail: format!("read at revision {}", self.store.revision()),
                },
            )
        };
        stages.push(storage);
        RequestTrace {
            n: 0,
            time: self.now,
            command: acting.command.clone(),
            user: acting.user.name.clone(),
            verb: a.verb.clone(),
            resource: resource_name(a),
            namespace: a.namespace.clone(),
            name: a.name.clone(),
            stages,
            code,
            status,
        }
    }

    /// The writes a server dry run sent on a copy of the cluster, moved here marked as
    /// not stored (the copy is dropped; its requests still passed every stage).
    pub fn adopt_dry_run_writes(&mut self, from: &mut Cluster) {
        let Some(theirs) = from.acting.as_mut() else {
            return;
        };
        let mut writes = std::mem::take(&mut theirs.pending);
        for w in &mut writes {
            if let Some(s) = w.stages.iter_mut().find(|s| s.stage == Stage::Storage) {
                if s.verdict == Verdict::Passed {
                    s.detail = "dry run: admitted and validated, nothing stored".into();
                }
            }
        }
        if let Some(mine) = self.acting.as_mut() {
            mine.pending.extend(writes);
        }
    }

    /// The command ends: its reads are recorded, then its writes — unless kubectl's
    /// own checks stopped it before it sent anything (`sent` false).
    pub fn finish_acting(&mut self, sent: bool) {
        let Some(acting) = self.acting.take() else {
            return;
        };
        // A write that reached the API server was sent, whatever kubectl printed of
        // its answer (`The LimitRange "x" is invalid: …` names no server).
        if !sent && acting.pending.is_empty() {
            return;
        }
        if self.etcd_lost_quorum() && acting.pending.is_empty() {
            // The command's first request met etcd's timeout, and kubectl stopped there.
            if let Some((a, why)) = acting.allowed.first() {
                let mut t = self.read_trace(&acting, a, why);
                if !matches!(a.verb.as_str(), "get" | "list" | "watch") {
                    for s in &mut t.stages {
                        if s.verdict == Verdict::Skipped {
                            s.verdict = Verdict::Passed;
                            s.detail.clear();
                        }
                    }
                }
                self.requests.push(t);
            }
            return;
        }
        let reads: Vec<RequestTrace> = acting
            .allowed
            .iter()
            .filter(|(a, _)| matches!(a.verb.as_str(), "get" | "list" | "watch"))
            .map(|(a, why)| self.read_trace(&acting, a, why))
            .collect();
        for r in reads.into_iter().chain(acting.pending) {
            self.requests.push(r);
        }
    }

    /// The attributes of a write request and the reason authorization allowed it.
    fn write_attributes(&self, req: &Request) -> Option<(Attributes, String)> {
        let acting = self.acting.as_ref()?;
        let (kind, key, verb) = match req {
            Request::Create { object, .. } => (object.kind(), ObjKey::of(object.meta()), "create"),
            Request::Update(o) | Request::UpdateStatus(o) => {
                (o.kind(), ObjKey::of(o.meta()), "update")
            }
            Request::Delete { kind, key, .. } => (*kind, key.clone(), "delete"),
            Request::Evict { key } => (Kind::Pod, key.clone(), "create"),
            _ => return None,
        };
        let ns = if kind.namespaced() && key.namespace.is_empty() {
            "default".to_string()
        } else {
            key.namespace.clone()
        };
        let resource = kind.resource();
        // The call authorization saw for this object (its verb: a scale is a patch of
        // the scale subresource), else one on the same resource.
        let found = acting
            .allowed
            .iter()
            .find(|(a, _)| {
                a.resource == resource
                    && a.verb != "get"
                    && a.verb != "list"
                    && (a.name == key.name || (verb == "create" && a.name.is_empty()))
            })
            .or_else(|| {
                acting
                    .allowed
                    .iter()
                    .find(|(a, _)| a.resource == resource && a.verb != "get" && a.verb != "list")
            });
        Some(match found {
            Some((a, why)) => {
                let mut a = a.clone();
                if a.name.is_empty() && verb != "create" {
                    a.name = key.name.clone();
                }
                (a, why.clone())
            }
            None => {
                let mut a = Attributes::on(verb, kind, &ns, "");
                if verb != "create" {
                    a.name = key.name.clone();
                }
                (a, "RBAC: allowed".to_string())
            }
        })
    }

    /// Record a write kubectl sent, with what each stage did (called by `submit`).
    pub(super) fn record_write(&mut self, req: &Request, result: &Result<Vec<Change>, ApiError>) {
        let Some((a, allowed_by)) = self.write_attributes(req) else {
            return;
        };
        let Some(acting) = self.acting.clone() else {
            return;
        };
        let mut stages = vec![
            Self::authn_passed(&acting.user),
            StageResult {
                stage: Stage::Authorization,
                verdict: Verdict::Passed,
                detail: allowed_by,
            },
        ];
        let admitted = match req {
            Request::Create { object, .. } | Request::Update(object) => {
                let before = object.to_json();
                let mut after = object.clone();
                crate::apiserver::admission::admit_create(&mut after);
                if let (Request::Create { .. }, Object::Pod(pod)) = (req, &mut after) {
                    let ns = if pod.metadata.namespace.is_empty() {
                        "default".to_string()
                    } else {
                        pod.metadata.namespace.clone()
                    };
                    let ranges = self.store.limit_ranges(&ns);
                    crate::apiserver::limit_ranger::mutate_pod(pod, &ranges);
                }
                let paths = changed_paths(&before, &after.to_json(), 6);
                if paths.is_empty() {
                    "nothing to default or add".to_string()
                } else {
                    format!("defaulting and admission set {}", paths.join(", "))
                }
            }
            _ => "no mutation".to_string(),
        };
        let (code, status) = match result {
            Ok(changes) => {
                let refused_none = |from: usize| Self::rest(from, Verdict::Passed);
                let rv = changes
                    .first()
                    .and_then(|c| c.new.as_ref().or(c.old.as_ref()))
                    .map(|o| o.meta().resource_version.clone())
                    .unwrap_or_default();
                stages.push(StageResult {
                    stage: Stage::MutatingAdmission,
                    verdict: Verdict::Passed,
                    detail: admitted,
                });
                let mut later: Vec<StageResult> = refused_none(3).take(2).collect();
                later[0].detail = "the object's fields are valid".into();
                later[1].detail = if a.namespace.is_empty() {
                    "no plugin refused".into()
                } else {
                    format!(
                        "NamespaceLifecycle: namespace \"{}\" is active",
                        a.namespace
                    )
                };
                stages.extend(later);
                stages.push(StageResult {
                    stage: Stage::Storage,
                    verdict: Verdict::Passed,
                    detail: format!(
                        "written at resourceVersion {rv} (etcd leader {}, {} of {} members up, quorum {})",
                        self.etcd.leader_name().unwrap_or("-"),
                        self.etcd.up_count(),
                        self.etcd.members.len(),
                        self.etcd.quorum()
                    ),
                });
                let code = if matches!(req, Request::Create { .. }) {
                    201
                } else {
                    200
                };
                (code, format!("{code} {}", http_status(code)))
            }
            Err(e) => {
                let at = refusing_stage(e, &a.verb);
                for stage in Stage::ALL[2..].iter().copied() {
                    let idx = Stage::ALL.iter().position(|s| *s == stage).unwrap_or(0);
                    let at_idx = Stage::ALL.iter().position(|s| *s == at).unwrap_or(0);
                    stages.push(StageResult {
                        stage,
                        verdict: if idx < at_idx {
                            Verdict::Passed
                        } else if idx == at_idx {
                            Verdict::Refused
                        } else {
                            Verdict::NotReached
                        },
                        detail: if idx == at_idx {
                            e.message.clone()
                        } else if stage == Stage::MutatingAdmission && idx < at_idx {
                            admitted.clone()
                        } else {
                            String::new()
                        },
                    });
                }
                (
                    e.code,
                    format!("{} {}: {}", e.code, http_status(e.code), e.message),
                )
            }
        };
        let trace = RequestTrace {
            n: 0,
            time: self.now,
            command: acting.command.clone(),
            user: acting.user.name.clone(),
            verb: a.verb.clone(),
            resource: resource_name(&a),
            namespace: a.namespace.clone(),
            name: a.name.clone(),
            stages,
            code,
            status,
        };
        if let Some(acting) = self.acting.as_mut() {
            acting.pending.push(trace);
        }
    }
}
