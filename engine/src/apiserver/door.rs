//! The one door into the API server. Every request of every client — the controllers,
//! the scheduler, the kubelets, the console's kubectl and the HTTP clients of
//! `kubeplay-cli serve` — is an [`ApiRequest`] handed to [`ApiServer::call`], which
//! passes it through upstream's handler chain in order:
//!
//! 1. **authentication**: the request's [`Credentials`] — a component's own identity,
//!    or a kubeconfig user's token, which the authenticator may refuse (401) — then
//!    the impersonation filter (`--as`, `Impersonate-User`);
//! 2. **authorization**: the privileged group, the Node authorizer and RBAC (403);
//! 3. **mutating admission**, **validation** and **validating admission** (writes
//!    only): the store's admission chain, and the NodeRestriction plugin for a node's
//!    own requests;
//! 4. **storage**: the read or the write in etcd, unless etcd has no quorum (500), or
//!    nothing at all answers (the API server is down).
//!
//! Reads (get, list, watch) are requests too, the components' informers included:
//! they are authorized, counted by shape and code (`apiserver_request_total`) and,
//! when a person sent them, recorded with the writes in the request log
//! (`request_path`).
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/server/config.go`
//! (`DefaultBuildHandlerChain`), `endpoints/filters/{authentication,impersonation,
//! authorization}.go`, `endpoints/handlers/{get,create,update,patch,delete}.go`,
//! `pkg/kubeapiserver/authorizer/config.go` (the privileged group first, then
//! `--authorization-mode=Node,RBAC`).

use super::managed_fields::{api_version, tracked_kind, Entry, ManagedFields, Stamp};
use super::metrics::RequestShape;
use super::rbac::{self, Attributes, Decision, UserInfo};
use super::request::*;
use super::request_path::{self as trace, RequestLog, RequestTrace, Stage, StageResult, Verdict};
use super::selectors::fields_match;
use super::{ApiError, Change, ObjKey, Store};
use crate::api::*;
use crate::rng::Rng;
use crate::time::SimTime;

/// The API server's state beside its storage: the authorization cache, the request
/// log and field ownership.
#[derive(Clone, Debug, Default)]
pub struct ApiServer {
    /// The components' authorization decisions: the reason RBAC allowed, or refused.
    authz_cache: super::fxhash::FxHashMap<String, Result<String, String>>,
    /// The requests people sent, with their stages.
    pub requests: RequestLog,
    /// Who owns which fields of each object (`metadata.managedFields`).
    pub managed: ManagedFields,
    /// Every request answered, counted by its shape and status code (upstream's
    /// `apiserver_request_total`): the components' reads included.
    pub counts: std::collections::BTreeMap<RequestShape, u64>,
}

/// The users the API server's authenticator knows by token: None for a token it
/// does not accept (kubeplay's kubeconfig: kubeadm's admin, `alice` and `bob`, and
/// `expired`, whose token is refused).
pub fn authenticate(user: &str) -> Option<UserInfo> {
    match user {
        // An unknown token names nobody.
        EXPIRED_USER | "" => None,
        "kubernetes-admin" => Some(UserInfo::new(user, &["kubeadm:cluster-admins"])),
        other => Some(UserInfo::new(other, &[])),
    }
}

/// The kubeconfig user whose token the API server no longer accepts.
pub const EXPIRED_USER: &str = "expired";

/// The error of `buildImpersonationRequests` for groups asked for without a user: the
/// impersonation filter answers it as an internal error (500), naming each request as
/// Go prints a `corev1.ObjectReference`.
pub fn impersonation_without_user(groups: &[String]) -> ApiError {
    let refs: Vec<String> = groups
        .iter()
        .map(|g| format!("{{Group  {g}    }}"))
        .collect();
    ApiError {
        code: 500,
        reason: "InternalError",
        message: format!(
            "requested [{}] without impersonating a user",
            refs.join(" ")
        ),
        kubectl_message: None,
        details: None,
    }
}

/// The 401 every refused token gets (kubectl meets it in discovery and says so).
fn unauthorized() -> ApiError {
    ApiError {
        code: 401,
        reason: "Unauthorized",
        message: "Unauthorized".into(),
        kubectl_message: Some("error: You must be logged in to the server (Unauthorized)".into()),
        details: None,
    }
}

impl ApiServer {
    /// Answer one request, through every stage in order, and count it.
    pub fn call(
        &mut self,
        store: &mut Store,
        rng: &mut Rng,
        now: SimTime,
        backend: &Backend,
        req: ApiRequest,
    ) -> Result<ApiResponse, ApiError> {
        // A request nothing answered (the API server down) is not counted.
        let shape = RequestShape::of(&req)
            .filter(|_| backend.unavailable != Some(Unavailable::ApiServerDown));
        let r = self.handle(store, rng, now, backend, req);
        if let Some(mut shape) = shape {
            shape.code = match &r {
                Ok(resp) => resp.code,
                Err(e) => e.code,
            };
            *self.counts.entry(shape).or_default() += 1;
        }
        r
    }

    /// The handler chain.
    fn handle(
        &mut self,
        store: &mut Store,
        rng: &mut Rng,
        now: SimTime,
        backend: &Backend,
        req: ApiRequest,
    ) -> Result<ApiResponse, ApiError> {
        // Nothing answers: no stage runs, nothing is recorded.
        if backend.unavailable == Some(Unavailable::ApiServerDown) {
            return Err(ApiError::connection_refused());
        }
        let attrs = req.attributes();
        let user = self.authenticate(store, now, &req, &attrs)?;
        let allowed_by = match self.authorize(store, &user, &req, &attrs) {
            Ok(why) => why,
            Err(e) => {
                if let Some(command) = &req.trace {
                    self.requests.push(trace::refused(
                        now,
                        command,
                        &user.name,
                        Some(&user),
                        &attrs,
                        &e,
                    ));
                }
                return Err(e);
            }
        };
        let result = if let Body::Path(_) | Body::Aggregated(_) = &req.body {
            Ok(ApiResponse {
                code: 200,
                revision: store.revision(),
                ..Default::default()
            })
        } else if let Body::Review(r) = &req.body {
            Ok(review(store, now, &user, r))
        } else if let Body::TokenRequest(spec) = &req.body {
            super::service_account::issue_token(store, rng, now, &req.namespace, &req.name, spec)
                .map(|t| ApiResponse {
                    code: 201,
                    revision: store.revision(),
                    review: Some(ReviewAnswer::Token(t)),
                    ..Default::default()
                })
        } else if req.verb.reads() {
            read(store, backend, &req)
        } else {
            // The webhooks' network is this request's: kept no longer than it.
            // This request's alone: no earlier write's annotations or calls in its
            // trace, whatever path it takes.
            store.audit_annotations.clear();
            store.webhook_calls.clear();
            store.webhook_net = backend.webhooks.clone();
            store.request_user = Some(user.clone());
            let r = self.write(store, rng, now, backend, &user, &req);
            store.webhook_net = None;
            store.request_user = None;
            r
        };
        if let Some(command) = &req.trace {
            let t = self.trace(
                store,
                now,
                backend,
                command,
                &user,
                &attrs,
                &allowed_by,
                &req,
                &result,
            );
            self.requests.push(t);
        }
        result
    }

    /// Authentication, then the impersonation filter.
    fn authenticate(
        &mut self,
        store: &Store,
        now: SimTime,
        req: &ApiRequest,
        attrs: &Attributes,
    ) -> Result<UserInfo, ApiError> {
        let me = match &req.credentials {
            Credentials::Identity(u) => u.clone(),
            // A JWT is a ServiceAccount's token; anything else names a kubeconfig user.
            Credentials::Token(token) if super::service_account::is_jwt(token) => {
                match super::service_account::authenticate_token(store, now, token) {
                    Some(u) => u,
                    None => {
                        let e = unauthorized();
                        if let Some(command) = &req.trace {
                            self.requests
                                .push(trace::refused(now, command, "", None, attrs, &e));
                        }
                        return Err(e);
                    }
                }
            }
            Credentials::Token(name) => match authenticate(name) {
                Some(u) => u,
                None => {
                    let e = unauthorized();
                    if let Some(command) = &req.trace {
                        self.requests
                            .push(trace::refused(now, command, name, None, attrs, &e));
                    }
                    return Err(e);
                }
            },
        };
        let Some((as_user, as_groups)) = &req.impersonate else {
            return Ok(me);
        };
        // `buildImpersonationRequests`: an empty user is no user (the request is the
        // caller's own), and groups asked for without a user are an error.
        if as_user.is_empty() {
            if as_groups.is_empty() {
                return Ok(me);
            }
            return Err(impersonation_without_user(as_groups));
        }
        rbac::impersonate(store, &me, as_user, as_groups).inspect_err(|e| {
            if let Some(command) = &req.trace {
                let a = Attributes {
                    verb: "impersonate".into(),
                    resource: "users".into(),
                    name: as_user.clone(),
                    ..Default::default()
                };
                self.requests
                    .push(trace::refused(now, command, &me.name, Some(&me), &a, e));
            }
        })
    }

    /// Authorization: the reason it was allowed, or the 403 (NodeRestriction's
    /// refusals of a node's writes included).
    fn authorize(
        &mut self,
        store: &Store,
        user: &UserInfo,
        req: &ApiRequest,
        a: &Attributes,
    ) -> Result<String, ApiError> {
        let node = rbac::node_identity(user).map(str::to_string);
        // The cache key is the client and the request's shape: what the decision
        // depends on (a name only where a rule or the Node authorizer looks at it).
        // A node's reads of Pods follow the Pods' bindings, which change without an
        // RBAC write: decided each time.
        let name_matters = a.resource == "leases" || (node.is_some() && a.resource == "nodes");
        // A node's list or watch of Pods follows its field selector, which the key
        // leaves out: decided each time too.
        let cacheable = req.cache_authz
            && !(node.is_some()
                && a.resource == "pods"
                && a.subresource.is_empty()
                && matches!(a.verb.as_str(), "get" | "list" | "watch"));
        let key = cacheable.then(|| {
            format!(
                "{}|{}|{}|{}|{}|{}|{}",
                req.client,
                a.verb,
                a.api_group,
                a.resource,
                a.subresource,
                a.namespace,
                if name_matters { a.name.as_str() } else { "" }
            )
        });
        let cached = key.as_ref().and_then(|k| self.authz_cache.get(k).cloned());
        let decision = match cached {
            Some(d) => d,
            None => {
                let d = match rbac::authorize(store, user, a) {
                    Decision::Allow(why) => Ok(why),
                    Decision::Deny(reason) => Err(reason),
                };
                if let Some(k) = key {
                    self.authz_cache.insert(k, d.clone());
                }
                d
            }
        };
        let why = decision.map_err(|reason| rbac::forbidden(user, a, &reason))?;
        if let Some(n) = node {
            if !req.verb.reads() {
                super::node_restriction::admit(store, &n, req)?;
            }
        }
        Ok(why)
    }

    /// An RBAC object changed: every cached decision may be wrong now.
    pub fn rbac_changed(&mut self, kind: Kind) {
        if matches!(
            kind,
            Kind::Role | Kind::ClusterRole | Kind::RoleBinding | Kind::ClusterRoleBinding
        ) {
            self.authz_cache.clear();
        }
    }

    /// The shapes of the components' requests RBAC refused so far
    /// (`client|verb|group|resource|subresource|namespace|name`), sorted: empty while
    /// every component is allowed what it does.
    pub fn component_refusals(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .authz_cache
            .iter()
            .filter(|(_, d)| d.is_err())
            .map(|(k, _)| k.clone())
            .collect();
        crate::sorting::sort(&mut out);
        out
    }

    /// The write, on the store (or, for a dry run, on a copy of it).
    fn write(
        &mut self,
        store: &mut Store,
        rng: &mut Rng,
        now: SimTime,
        backend: &Backend,
        user: &UserInfo,
        req: &ApiRequest,
    ) -> Result<ApiResponse, ApiError> {
        if let Some(u) = backend.unavailable.filter(|u| u.storage()) {
            return Err(u.error());
        }
        let _ = user;
        if let Body::Apply { applied, force } = &req.body {
            if req.dry_run {
                let (mut copy, mut managed, mut copy_rng) =
                    (store.clone(), self.managed.clone(), rng.clone());
                copy.journal_objects(false);
                let mut r = super::apply::server_side_apply(
                    &mut copy,
                    &mut managed,
                    &mut copy_rng,
                    now,
                    req,
                    applied,
                    *force,
                )?;
                r.changes.clear();
                dry_run_version(store, &mut r);
                return Ok(r);
            }
            return super::apply::server_side_apply(
                store,
                &mut self.managed,
                rng,
                now,
                req,
                applied,
                *force,
            );
        }
        if req.dry_run {
            // Every stage runs on a copy that is then dropped: the answer is the one
            // the write would get, and nothing is stored or watched.
            let mut copy = store.clone();
            copy.journal_objects(false);
            let mut copy_rng = rng.clone();
            let served = self.served_managers(req);
            let (mut r, _) = super::handlers::write_on(
                &mut copy,
                &mut copy_rng,
                now,
                req,
                served.as_ref(),
                true,
            )?;
            r.changes.clear();
            dry_run_version(store, &mut r);
            return Ok(r);
        }
        let served = self.served_managers(req);
        let (r, sent) = super::handlers::write_on(store, rng, now, req, served.as_ref(), true)?;
        self.record_managers(now, req, &r.changes, sent.as_ref());
        Ok(r)
    }

    /// The managers of a patch's or an update's object as served, for the patch to
    /// apply to (a person's only: the components never send managedFields).
    fn served_managers(&self, req: &ApiRequest) -> Option<serde_json::Value> {
        // An update's too: whether the managers it sends are the ones stored decides
        // whether an otherwise identical update writes.
        let update = matches!(req.body, Body::Object(_))
            && req.verb == Verb::Update
            && req.subresource.is_empty();
        if !(matches!(req.body, Body::Patch(..)) || update) || req.trace.is_none() {
            return None;
        }
        let key = super::ObjKey::new(&req.namespace, &req.name);
        self.managed
            .has(req.kind, &key)
            .then(|| self.managed.to_json(req.kind, &key))
    }

    /// An accepted create, update, patch or delete: the writer's fields (see
    /// `managed_fields`).
    fn record_managers(
        &mut self,
        now: SimTime,
        req: &ApiRequest,
        changes: &[Change],
        sent: Option<&serde_json::Value>,
    ) {
        let spec_write = matches!(
            req.verb,
            Verb::Create | Verb::Update | Verb::Patch | Verb::Delete
        ) && !matches!(req.subresource, "status" | "binding" | "eviction")
            && !matches!(req.body, Body::Event { .. });
        if !spec_write {
            return;
        }
        // A write through a subresource (`scale`) is that subresource's manager,
        // whoever sent it (`BuildManagerInfoManager`).
        let mut w = req.manager.clone();
        if w.subresource.is_empty() {
            w.subresource = req.subresource.to_string();
        }
        let w = &w;
        for ch in changes {
            if !tracked_kind(ch.kind) {
                continue;
            }
            let Some(new) = ch.new.as_deref() else {
                self.managed.forget(ch.kind, &ch.key);
                continue;
            };
            // A Pod a component created is not tracked (the envelope's hot path).
            if ch.kind == Kind::Pod && req.trace.is_none() && !self.managed.has(ch.kind, &ch.key) {
                continue;
            }
            let now_json = new.to_json();
            let old_json = ch.old.as_deref().map(|o| o.to_json());
            let at = Stamp {
                api_version: api_version(new),
                time: now,
            };
            if w.operation == super::managed_fields::Operation::Apply {
                // Applied with force: it owns what it declares (its spec), taken from
                // whoever had it.
                let applied = serde_json::json!({ "spec": now_json.get("spec").cloned().unwrap_or_default() });
                let live = old_json.unwrap_or_else(|| now_json.clone());
                if let Ok((_, entries)) = self
                    .managed
                    .plan_apply(ch.kind, &ch.key, &live, &applied, &w.manager, true)
                {
                    self.managed
                        .finish_apply(ch.kind, &ch.key, entries, &w.manager, &applied, at);
                }
                continue;
            }
            if let Some(sent) = sent
                .filter(|_| ch.kind == req.kind && (req.name.is_empty() || ch.key.name == req.name))
            {
                self.managed.take_sent(ch.kind, &ch.key, sent);
            }
            self.managed
                .record_update(ch.kind, &ch.key, old_json.as_ref(), &now_json, w, at);
        }
    }

    /// The trace of a request that passed authorization.
    #[allow(clippy::too_many_arguments)]
    fn trace(
        &self,
        store: &Store,
        now: SimTime,
        backend: &Backend,
        command: &str,
        user: &UserInfo,
        a: &Attributes,
        allowed_by: &str,
        req: &ApiRequest,
        result: &Result<ApiResponse, ApiError>,
    ) -> RequestTrace {
        let mut stages = vec![
            trace::authn_passed(user),
            StageResult {
                stage: Stage::Authorization,
                verdict: Verdict::Passed,
                detail: allowed_by.to_string(),
            },
        ];
        let (code, status) = if req.verb.reads() {
            stages.extend(Stage::ALL[2..5].iter().map(|&stage| StageResult {
                stage,
                verdict: Verdict::Skipped,
                detail: "reads are not admitted".into(),
            }));
            match result {
                Err(e) if backend.unavailable.is_some_and(|u| u.storage()) => {
                    let (_, up, members, _) = &backend.etcd;
                    let why = if backend.unavailable == Some(Unavailable::EtcdUnreachable) {
                        format!("the API server cannot reach etcd; {up} of {members} members up, with a leader")
                    } else {
                        format!("consistent read: no quorum, {up} of {members} members up")
                    };
                    stages.push(StageResult {
                        stage: Stage::Storage,
                        verdict: Verdict::Refused,
                        detail: format!("{} ({why})", e.message),
                    });
                    (
                        e.code,
                        format!("{} {}: {}", e.code, trace::http_status(e.code), e.message),
                    )
                }
                _ => {
                    stages.push(StageResult {
                        stage: Stage::Storage,
                        verdict: Verdict::Passed,
                        detail: format!("read at revision {}", store.revision()),
                    });
                    (200, "200 OK".to_string())
                }
            }
        } else {
            self.write_stages(store, backend, a, req, result, &mut stages)
        };
        // A write's audit annotations and webhook calls (a read has none).
        let (annotations, webhooks) = if req.verb.reads() {
            (Vec::new(), Vec::new())
        } else {
            (store.audit_annotations.clone(), store.webhook_calls.clone())
        };
        RequestTrace {
            annotations,
            webhooks,
            n: 0,
            time: now,
            command: command.to_string(),
            user: user.name.clone(),
            verb: a.verb.clone(),
            resource: trace::resource_name(a),
            namespace: a.namespace.clone(),
            name: a.name.clone(),
            stages,
            code,
            status,
        }
    }

    /// A write's stages after authorization: what defaulting and admission set, then
    /// validation, validating admission and storage, up to the one that refused it.
    fn write_stages(
        &self,
        store: &Store,
        backend: &Backend,
        a: &Attributes,
        req: &ApiRequest,
        result: &Result<ApiResponse, ApiError>,
        stages: &mut Vec<StageResult>,
    ) -> (u16, String) {
        // What admission made of the object: the one sent, or (for a patch, whose
        // object the API server made) the one stored.
        let sent = match &req.body {
            Body::Object(o) => Some(o.clone()),
            Body::Patch(..) | Body::Apply { .. } => result
                .as_ref()
                .ok()
                .and_then(|r| r.object.as_deref().cloned()),
            _ => None,
        };
        let admitted = match (sent.as_ref(), req.subresource) {
            (Some(object), "" | "scale")
                if matches!(req.verb, Verb::Create | Verb::Update | Verb::Patch) =>
            {
                let before = object.to_json();
                let mut after = object.clone();
                super::admission::admit_create(&mut after);
                if let (Verb::Create, Object::Pod(pod)) = (req.verb, &mut after) {
                    let ns = if pod.metadata.namespace.is_empty() {
                        "default".to_string()
                    } else {
                        pod.metadata.namespace.clone()
                    };
                    let ranges = store.limit_ranges(&ns);
                    super::limit_ranger::mutate_pod(pod, &ranges);
                }
                let paths = trace::changed_paths(&before, &after.to_json(), 6);
                if paths.is_empty() {
                    "nothing to default or add".to_string()
                } else {
                    format!("defaulting and admission set {}", paths.join(", "))
                }
            }
            _ => "no mutation".to_string(),
        };
        match result {
            Ok(r) => {
                stages.push(StageResult {
                    stage: Stage::MutatingAdmission,
                    verdict: Verdict::Passed,
                    detail: admitted,
                });
                let mut later: Vec<StageResult> = trace::rest(3, Verdict::Passed).take(2).collect();
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
                let (leader, up, members, quorum) = &backend.etcd;
                let rv = r
                    .object
                    .as_deref()
                    .map(|o| o.meta().resource_version.clone())
                    .unwrap_or_default();
                stages.push(StageResult {
                    stage: Stage::Storage,
                    verdict: Verdict::Passed,
                    detail: if req.dry_run {
                        "dry run: admitted and validated, nothing stored".into()
                    } else {
                        format!(
                            "written at resourceVersion {rv} (etcd leader {leader}, {up} of {members} members up, quorum {quorum})"
                        )
                    },
                });
                (r.code, format!("{} {}", r.code, trace::http_status(r.code)))
            }
            Err(e) => {
                let at = trace::refusing_stage(e, &a.verb);
                let at_idx = Stage::ALL.iter().position(|s| *s == at).unwrap_or(0);
                for (idx, stage) in Stage::ALL.iter().copied().enumerate().skip(2) {
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
                    format!("{} {}: {}", e.code, trace::http_status(e.code), e.message),
                )
            }
        }
    }

    /// Record a server-side apply's ownership after its write (or, when nothing
    /// changed, in place of it).
    pub fn finish_apply(
        &mut self,
        now: SimTime,
        kind: Kind,
        key: &ObjKey,
        entries: Vec<Entry>,
        manager: &str,
        applied: &serde_json::Value,
    ) {
        let at = Stamp {
            api_version: kind.api_version(),
            time: now,
        };
        self.managed
            .finish_apply(kind, key, entries, manager, applied, at);
    }
}

/// A self-review, answered from the authorizer (no storage: the reviews are not kept).
fn review(store: &Store, now: SimTime, user: &UserInfo, r: &Review) -> ApiResponse {
    let answer = match r {
        Review::Access(a) => {
            let (allowed, reason) = match rbac::authorize(store, user, a) {
                Decision::Allow(why) => (true, why),
                Decision::Deny(why) => (false, why),
            };
            ReviewAnswer::Access { allowed, reason }
        }
        Review::Rules(ns) => {
            let (rules, errors) = rbac::rules_for(store, user, ns);
            ReviewAnswer::Rules(
                rules.into_iter().map(|(by, r)| (by, r.clone())).collect(),
                errors,
            )
        }
        Review::WhoAmI => ReviewAnswer::WhoAmI(user.clone()),
        // The token authenticators, on the token the review carries.
        Review::Token(token) if super::service_account::is_jwt(token) => {
            ReviewAnswer::Authenticated(super::service_account::authenticate_token(
                store, now, token,
            ))
        }
        Review::Token(name) => ReviewAnswer::Authenticated(authenticate(name)),
    };
    ApiResponse {
        code: 201,
        revision: store.revision(),
        review: Some(answer),
        ..Default::default()
    }
}

/// A read: one object, or a collection filtered by namespace and selectors.
fn read(store: &Store, backend: &Backend, req: &ApiRequest) -> Result<ApiResponse, ApiError> {
    if let Some(u) = backend.unavailable.filter(|u| u.storage()) {
        // A consistent read needs the quorum too, and a path to it.
        return Err(u.error());
    }
    if let Body::Log(o) = &req.body {
        return super::logs::log(store, backend, req, o);
    }
    let revision = store.revision();
    if req.verb == Verb::Get {
        let key = ObjKey::new(&req.namespace, &req.name);
        let o = store
            .get_shared(req.kind, &key)
            .ok_or_else(|| ApiError::not_found(req.kind, &req.name))?;
        return Ok(ApiResponse {
            code: 200,
            object: Some(o),
            revision,
            ..Default::default()
        });
    }
    if req.verb == Verb::Watch && req.resource_version.unwrap_or(0) > 0 {
        // A watch from a version: its events come from the watch cache, nothing is
        // listed.
        return Ok(ApiResponse {
            code: 200,
            revision,
            ..Default::default()
        });
    }
    let ns = (!req.namespace.is_empty() && req.kind.namespaced()).then_some(req.namespace.as_str());
    let mut items = store.list_shared(req.kind, ns);
    if let Some(sel) = &req.labels {
        items.retain(|o| sel.matches(&o.meta().labels));
    }
    if !req.fields.is_empty() {
        items.retain(|o| fields_match(o, &req.fields));
    }
    if req.limit.is_some() || req.continue_token.is_some() {
        let filtered = req.labels.is_some() || !req.fields.is_empty();
        let page = super::pagination::paginate(
            items,
            revision,
            req.limit,
            req.continue_token.as_deref(),
            filtered,
        )?;
        return Ok(ApiResponse {
            code: 200,
            items: page.items,
            revision: page.revision,
            continue_token: page.continue_token,
            remaining: page.remaining,
            ..Default::default()
        });
    }
    Ok(ApiResponse {
        code: 200,
        items,
        revision,
        ..Default::default()
    })
}

/// A dry run writes nothing to etcd, so its answer has no new resource version
/// (`DryRunnableStorage` copies the object out instead of storing it): a create's
/// object has none, an update's keeps the live object's.
fn dry_run_version(store: &Store, r: &mut ApiResponse) {
    let Some(o) = r.object.as_mut() else {
        return;
    };
    let live = store
        .get_object(o.kind(), &ObjKey::of(o.meta()))
        .map(|l| l.meta().resource_version.clone())
        .unwrap_or_default();
    if o.meta().resource_version != live {
        std::sync::Arc::make_mut(o).meta_mut().resource_version = live;
    }
}
