//! The ValidatingAdmissionWebhook admission plugin
//! (`staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/validating`): after the
//! ValidatingAdmissionPolicies, each webhook of each ValidatingWebhookConfiguration
//! (configurations in name order) whose rules, namespace and object selectors and
//! match conditions take the request is sent an AdmissionReview, and its answer
//! decides.
//!
//! The webhook's server is the learner's own code ([`WebhookServers`], `sim webhook`)
//! behind a Service, reached as the API server reaches it: the Service's cluster IP,
//! then one of the endpoints kube-proxy has for it ([`WebhookNet`], worked out by the
//! cluster for each request). So a Service with no ready endpoint refuses the
//! connection, a Pod on a node that is off or cut off (or hung, or behind a
//! NetworkPolicy) never answers and the call times out after `timeoutSeconds`, and
//! code that runs out of its budget has not answered in time either.
//!
//! A call that fails is `failed calling webhook "NAME": failed to call webhook: …`: a
//! 500 under `failurePolicy: Fail`, nothing under `Ignore` but an audit annotation
//! (`failed-open.validating.webhook.admission.k8s.io/round_0_index_<i>`). A refusal is
//! the webhook's own status: `admission webhook "NAME" denied the request: MESSAGE`,
//! its code (at least 400) and reason. Upstream calls the webhooks in parallel and
//! reports the first error to arrive; here they are called in order and the first
//! error in that order is reported.

mod review;

/// The glue the learner's `admit(review, path)` runs in.
pub const LIBRARY: &str = include_str!("server.js");

use super::policy::{rule_matches, Attributes};
use super::{ApiError, ObjKey, Store};
use crate::api::*;
use std::collections::{BTreeMap, VecDeque};
use std::sync::Arc;

/// The Services that may serve webhook code at once.
pub const MAX_SERVERS: usize = 16;
/// The longest webhook source.
pub const MAX_SOURCE: usize = 64 * 1024;
/// Ticks (10,000 interpreter polls each) one call may use: past them, the server has
/// not answered in time.
pub const BUDGET_TICKS: u32 = 50;
/// Ticks all the webhook calls of one request may use together: a request sent to
/// many webhooks whose code loops costs at most this, and the calls past it get no
/// answer in time.
pub const REQUEST_BUDGET_TICKS: u32 = 200;
/// Sandbox runs one request may make: the webhooks past them get no answer in time.
pub const REQUEST_RUNS: u32 = 32;
/// The CEL cost all the match conditions of one request may use (upstream's
/// per-request runtime budget).
const CEL_REQUEST_BUDGET: u64 = 10_000_000;
/// Log lines kept per server.
const MAX_LOG_LINES: usize = 200;

/// The audit annotation key prefix of a webhook that failed open.
pub const FAILED_OPEN_PREFIX: &str = "failed-open.validating.webhook.admission.k8s.io/";

/// How the endpoint a connection went to answers it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reach {
    /// The Pod accepts the connection: its server reads the request.
    Answers,
    /// Nothing listens there.
    Refused,
    /// The Pod is stopping: the connection is reset.
    Reset,
    /// Nothing comes back (a node off or cut off, a hung application, a dropped
    /// packet).
    Silent,
}

/// How a call to one Service goes from the API server, as the cluster stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dial {
    /// No such Service: the resolver's `service "NAME" not found`.
    NoService,
    /// A Service without a cluster IP.
    Headless,
    /// An ExternalName Service: the API server dials its name, outside the cluster.
    External(String),
    /// The Service has no port the webhook names.
    NoPort,
    /// The cluster IP, and the endpoints kube-proxy sends a new connection to, each
    /// with how it answers (none: kube-proxy rejects the connection; `dropped`: it
    /// drops it, and the call times out).
    Endpoints {
        /// The cluster IP.
        ip: String,
        /// The endpoints.
        endpoints: Vec<(ObjKey, Reach)>,
        /// Packets are dropped (`internalTrafficPolicy: Local`, none local).
        dropped: bool,
    },
}

/// The network as one request finds it: how each webhook's Service answers.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WebhookNet {
    /// By Service (namespace/name), for the webhook's port.
    pub services: BTreeMap<(ObjKey, i32), Dial>,
}

/// What one Service's Pods run as a webhook server, and what it did.
#[derive(Clone, Debug, Default)]
pub struct WebhookServer {
    /// The JavaScript (`function admit(review)`).
    pub source: Arc<str>,
    /// Calls it answered, allowed, denied; calls that failed (no answer in time, an
    /// exception, an answer the API server could not use).
    pub calls: u64,
    /// Answers that allowed the request.
    pub allowed: u64,
    /// Answers that refused it.
    pub denied: u64,
    /// Calls that failed.
    pub failed: u64,
    /// Ticks its calls used, in all.
    pub ticks: u64,
    /// What its `console.log` printed, and each failure, newest last.
    pub logs: VecDeque<String>,
}

impl WebhookServer {
    fn log(&mut self, line: String) {
        if self.logs.len() == MAX_LOG_LINES {
            self.logs.pop_front();
        }
        self.logs.push_back(line);
    }
}

/// The webhook servers, by Service.
#[derive(Clone, Debug, Default)]
pub struct WebhookServers {
    /// By Service.
    pub servers: BTreeMap<ObjKey, WebhookServer>,
    /// Calls made: each picks the next endpoint (kube-proxy's spread, made
    /// deterministic), and names its review.
    calls: u64,
    /// Ticks the request being admitted has used ([`REQUEST_BUDGET_TICKS`]).
    request_ticks: u32,
    /// Sandbox runs the request being admitted has made ([`REQUEST_RUNS`]).
    request_runs: u32,
}

impl WebhookServers {
    /// Serve `source` behind Service `key` (None: stop serving there); a reload keeps
    /// the counters.
    pub fn install(&mut self, key: &ObjKey, source: Option<&str>) -> Result<(), String> {
        match source {
            None => {
                self.servers.remove(key);
            }
            Some(s) => {
                if !self.servers.contains_key(key) && self.servers.len() >= MAX_SERVERS {
                    return Err(format!(
                        "error: at most {MAX_SERVERS} Services may serve webhook code"
                    ));
                }
                self.servers.entry(key.clone()).or_default().source = Arc::from(s);
            }
        }
        Ok(())
    }
}

/// One webhook that takes this request, and where it is in the configurations.
struct Relevant {
    hook: ValidatingWebhook,
}

/// How a call went wrong (`ErrCallingWebhook`'s reason).
pub(super) struct CallError(String);

impl Store {
    /// Run the validating webhooks that take this request: the first refusal or
    /// failed call under `Fail` refuses it.
    pub(super) fn admit_webhooks(&mut self, a: &Attributes<'_>) -> Result<(), ApiError> {
        if self.count(Kind::ValidatingWebhookConfiguration) == 0 {
            return Ok(());
        }
        let Some(subject) = a.object.or(a.old) else {
            return Ok(());
        };
        // `rules.go`: webhooks never see the admission configuration kinds, so a bad
        // webhook cannot lock the cluster out of fixing it.
        if matches!(
            subject.kind(),
            Kind::ValidatingAdmissionPolicy
                | Kind::ValidatingAdmissionPolicyBinding
                | Kind::ValidatingWebhookConfiguration
        ) {
            return Ok(());
        }
        self.webhook_servers.request_ticks = 0;
        self.webhook_servers.request_runs = 0;
        // Configurations in name order (the store's), each one's webhooks in order;
        // one CEL budget for every match condition of the request.
        let mut relevant = Vec::new();
        let mut cel_budget = CEL_REQUEST_BUDGET;
        for c in self.list::<ValidatingWebhookConfiguration>() {
            for hook in &c.webhooks {
                if self.should_call(hook, a, subject, &mut cel_budget)? {
                    relevant.push(Relevant { hook: hook.clone() });
                }
            }
        }
        for (i, r) in relevant.iter().enumerate() {
            let fail = r.hook.failure_policy.as_deref() != Some("Ignore");
            let mut pod = None;
            let called = self.call_hook(&r.hook, a, subject, &mut pod);
            let by = pod.map(|p| format!(" (pod {p})")).unwrap_or_default();
            let timeout = r.hook.timeout_seconds.unwrap_or(10).clamp(1, 30);
            let note = match &called {
                Ok(()) => format!("allowed{by}"),
                Err(review::Outcome::Refused(e)) => format!("denied, {}{by}", e.code),
                Err(review::Outcome::Failed(CallError(why)))
                    if why.ends_with("deadline exceeded") =>
                {
                    format!("no answer within {timeout}s{by}")
                }
                Err(review::Outcome::Failed(CallError(why))) => format!("{why}{by}"),
            };
            self.webhook_calls.push(format!(
                "{} ({}): {note}",
                r.hook.name,
                r.hook.failure_policy.as_deref().unwrap_or("Fail")
            ));
            match called {
                Ok(()) => {}
                Err(review::Outcome::Refused(e)) => return Err(e),
                Err(review::Outcome::Failed(CallError(why))) => {
                    let text = format!("failed calling webhook {:?}: {why}", r.hook.name);
                    if fail {
                        return Err(ApiError::internal(&text));
                    }
                    self.audit_annotations.push((
                        format!("{FAILED_OPEN_PREFIX}round_0_index_{i}"),
                        r.hook.name.clone(),
                    ));
                }
            }
        }
        Ok(())
    }

    /// `ShouldCallHook`: the rules, the namespace and object selectors, then the match
    /// conditions (one that errs refuses under `Fail`, with 403).
    fn should_call(
        &self,
        hook: &ValidatingWebhook,
        a: &Attributes<'_>,
        subject: &Object,
        cel_budget: &mut u64,
    ) -> Result<bool, ApiError> {
        let resource = a.resource(subject.kind(), &self.subresource);
        let ruled = hook
            .rules
            .iter()
            .any(|r| rule_matches(&r.into(), a, subject, &resource));
        if !ruled || !self.namespace_selected(hook, a, subject) {
            return Ok(false);
        }
        if let Some(sel) = &hook.object_selector {
            let any = [a.object, a.old]
                .iter()
                .flatten()
                .any(|o| sel.matches(&o.meta().labels));
            if !any {
                return Ok(false);
            }
        }
        if hook.match_conditions.is_empty() {
            return Ok(true);
        }
        let fail = hook.failure_policy.as_deref() != Some("Ignore");
        match review::match_conditions(self, hook, a, subject, cel_budget) {
            Ok(m) => Ok(m),
            Err(_) if !fail => Ok(false),
            Err(e) => Err(review::forbidden(subject, &e)),
        }
    }

    /// `MatchNamespaceSelector`: a cluster-scoped object other than a Namespace always
    /// matches; a Namespace is matched by its own labels; others by their
    /// namespace's.
    fn namespace_selected(
        &self,
        hook: &ValidatingWebhook,
        a: &Attributes<'_>,
        subject: &Object,
    ) -> bool {
        let Some(sel) = &hook.namespace_selector else {
            return true;
        };
        if sel.match_labels.is_empty() && sel.match_expressions.is_empty() {
            return true;
        }
        if subject.kind() == Kind::Namespace {
            return [a.object, a.old]
                .iter()
                .flatten()
                .next()
                .is_some_and(|o| sel.matches(&o.meta().labels));
        }
        let ns = &subject.meta().namespace;
        if ns.is_empty() {
            return true;
        }
        let labels = self
            .get::<Namespace>(&ObjKey::new("", ns))
            .map(|n| n.metadata.labels.clone())
            .unwrap_or_default();
        sel.matches(&labels)
    }

    /// Send the review to the hook's server and judge its answer.
    fn call_hook(
        &mut self,
        hook: &ValidatingWebhook,
        a: &Attributes<'_>,
        subject: &Object,
        answered_by: &mut Option<String>,
    ) -> Result<(), review::Outcome> {
        self.webhook_servers.calls += 1;
        let n = self.webhook_servers.calls;
        let timeout = hook.timeout_seconds.unwrap_or(10).clamp(1, 30);
        let target = review::Target::of(hook, timeout);
        let fail = |why: String| review::Outcome::Failed(CallError(why));
        let Some(svc) = &target.service else {
            // A URL outside the cluster: there is no outside to reach.
            return Err(fail(format!(
                "failed to call webhook: Post {:?}: dial tcp: lookup {}: no such host",
                target.url, target.host
            )));
        };
        let dial = self
            .webhook_net
            .as_ref()
            .and_then(|net| net.services.get(&(svc.clone(), target.port)))
            .cloned()
            .unwrap_or(Dial::NoService);
        let post = |err: &str| format!("failed to call webhook: Post {:?}: {err}", target.url);
        let (pod, ip) = match dial {
            Dial::NoService => {
                return Err(fail(post(&format!("service {:?} not found", svc.name))))
            }
            Dial::Headless => {
                return Err(fail(post(
                    "cannot route to service with ClusterIP \"None\"",
                )))
            }
            Dial::External(host) => {
                return Err(fail(post(&format!(
                    "dial tcp: lookup {host}: no such host"
                ))))
            }
            Dial::NoPort => {
                return Err(fail(post(&format!(
                    "no service port {} found for service {:?}",
                    target.port, svc.name
                ))))
            }
            Dial::Endpoints {
                ip,
                endpoints,
                dropped,
            } => {
                let dial_err =
                    |what: &str| post(&format!("dial tcp {ip}:{}: connect: {what}", target.port));
                if dropped {
                    return Err(fail(post("context deadline exceeded")));
                }
                let Some((pod, reach)) = endpoints
                    .get((n as usize) % endpoints.len().max(1))
                    .cloned()
                else {
                    return Err(fail(dial_err("connection refused")));
                };
                *answered_by = Some(pod.name.clone());
                match reach {
                    Reach::Answers => (pod, ip),
                    Reach::Refused => return Err(fail(dial_err("connection refused"))),
                    Reach::Reset => return Err(fail(dial_err("connection reset by peer"))),
                    Reach::Silent => return Err(fail(post("context deadline exceeded"))),
                }
            }
        };
        let Some(source) = self
            .webhook_servers
            .servers
            .get(svc)
            .map(|s| s.source.clone())
        else {
            // The Pods run no webhook server: nothing listens on the port.
            return Err(fail(post(&format!(
                "dial tcp {ip}:{}: connect: connection refused",
                target.port
            ))));
        };
        let review = review::request(self, a, subject, n);
        // The request's own bounds: its ticks, and its runs (a run that answers at
        // once still costs one tick).
        let runs_left = self.webhook_servers.request_runs < REQUEST_RUNS;
        let left = REQUEST_BUDGET_TICKS.saturating_sub(self.webhook_servers.request_ticks);
        let budget = if runs_left { left.min(BUDGET_TICKS) } else { 0 };
        let ran = review::run(&source, &review, &target, a.now, n, budget);
        if budget > 0 {
            self.webhook_servers.request_runs += 1;
            self.webhook_servers.request_ticks = self
                .webhook_servers
                .request_ticks
                .saturating_add(ran.ticks.max(1));
        }
        let server = self.webhook_servers.servers.entry(svc.clone()).or_default();
        server.calls += 1;
        server.ticks += u64::from(ran.ticks);
        for line in &ran.logs {
            server.log(format!(
                "{} {}: {line}",
                crate::time::rfc3339(a.now),
                pod.name
            ));
        }
        let answer = match ran.answer {
            Ok(v) => v,
            Err(why) => {
                server.failed += 1;
                let text = post_or(&target, why);
                server.log(format!(
                    "{} {}: {}",
                    crate::time::rfc3339(a.now),
                    pod.name,
                    text.lines().next().unwrap_or_default()
                ));
                return Err(fail(text));
            }
        };
        let uid = review["request"]["uid"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        let verdict = review::verify(&answer, &uid);
        let server = self.webhook_servers.servers.entry(svc.clone()).or_default();
        match &verdict {
            Ok(v) if v.allowed => server.allowed += 1,
            Ok(_) => server.denied += 1,
            Err(_) => server.failed += 1,
        }
        let v = verdict.map_err(|e| {
            fail(match e {
                review::Unusable::Decode(e) => format!("failed to call webhook: {e}"),
                review::Unusable::Invalid(e) => format!("received invalid webhook response: {e}"),
            })
        })?;
        for (k, val) in v.audit_annotations {
            // `checkKeyFormat`: `NAME/KEY`, a qualified name; a bad key, or one set
            // before, is left out (upstream logs it).
            let key = format!("{}/{k}", hook.name);
            let taken = self.audit_annotations.iter().any(|(x, _)| *x == key);
            if !k.contains('/') && super::validation::qualified_name_ok(&key) && !taken {
                self.audit_annotations.push((key, val));
            }
        }
        for w in v.warnings {
            if !self.warnings.contains(&w) {
                self.warnings.push(w);
            }
        }
        if v.allowed {
            return Ok(());
        }
        Err(review::Outcome::Refused(review::to_status_err(
            &hook.name, v.status,
        )))
    }
}

/// A failure of the server's own making, as the API server's client words it: no
/// answer in time, or the server's 500.
fn post_or(target: &review::Target, why: review::Failure) -> String {
    match why {
        review::Failure::Timeout => format!(
            "failed to call webhook: Post {:?}: context deadline exceeded",
            target.url
        ),
        review::Failure::Crashed => format!("failed to call webhook: Post {:?}: EOF", target.url),
        review::Failure::Error(body) => format!(
            "failed to call webhook: an error on the server ({body:?}) has prevented the request from succeeding"
        ),
        review::Failure::NoSandbox => {
            "failed to call webhook: the JavaScript sandbox is not loaded".to_string()
        }
    }
}
