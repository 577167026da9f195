//! kubectl as a client of the API server, as real kubectl is one: each verb builds
//! requests — get, list, create, update, patch, delete, evict, apply — and prints the
//! answers. Every request goes through the API server's one door
//! ([`crate::apiserver::door`]), where it is authenticated (the current context's
//! token), impersonated (`--as`, `--as-group`), authorized, admitted, validated and
//! stored, and kept in the request log under the command line that sent it.
//!
//! Upstream: `k8s.io/client-go/rest` (the REST client kubectl's builder and helpers
//! send through), `k8s.io/cli-runtime/pkg/resource/helper.go` (`Get`, `List`,
//! `Create`, `Replace`, `Patch`, `Delete`).

use crate::api::*;
use crate::apiserver::managed_fields::{Operation, Writer};
use crate::apiserver::patch::PatchType;
use crate::apiserver::request::{
    ApiRequest, ApiResponse, Body, Credentials, LogOptions, Review, ReviewAnswer, Verb,
};
use crate::apiserver::selectors::FieldReq;
use crate::apiserver::{ApiError, DeleteOptions, ObjKey};
use crate::cluster::Cluster;
use std::sync::{Arc, Mutex};

/// What a command's requests met, shared by every copy of its client (a dry run's, a
/// waiting command's): the warnings the answers carried, and the first refusal of its
/// identity.
#[derive(Debug, Default)]
struct Met {
    warnings: Vec<String>,
    /// The warnings printed so far: kubectl's warning handler prints each once a
    /// command.
    printed: std::collections::BTreeSet<String>,
    identity_error: Option<ApiError>,
}

/// kubectl's connection for one command.
#[derive(Clone, Debug)]
pub struct Client {
    /// The current context's user: the token kubectl sends.
    user: String,
    /// `--as`, `--as-group`.
    impersonate: Option<(String, Vec<String>)>,
    /// The command line each request is kept under.
    command: String,
    /// Its field manager (`--field-manager`, or the verb's default).
    manager: Writer,
    /// `--dry-run=server`: every write is a dry run.
    pub(crate) server_dry_run: bool,
    /// `--dry-run=client`: kubectl works on its own copy; its writes are not kept.
    pub(crate) client_dry_run: bool,
    /// What its requests met. The first request the authenticator or the
    /// impersonation filter refused: kubectl meets it in discovery, before its verb's
    /// own requests, and prints it alone.
    met: Arc<Mutex<Met>>,
    /// `--request-timeout`, in simulated time (`None`: none): what ends a watch.
    pub(crate) request_timeout: Option<crate::time::SimTime>,
}

impl PartialEq for Client {
    fn eq(&self, other: &Self) -> bool {
        (&self.user, &self.impersonate, &self.command, &self.manager)
            == (
                &other.user,
                &other.impersonate,
                &other.command,
                &other.manager,
            )
            && (self.server_dry_run, self.client_dry_run)
                == (other.server_dry_run, other.client_dry_run)
            && self.request_timeout == other.request_timeout
    }
}

impl Client {
    /// The client of `command` (`kubectl …`) for the current context of `c`.
    pub(crate) fn new(
        c: &Cluster,
        command: &str,
        impersonate: Option<(String, Vec<String>)>,
    ) -> Self {
        let user = c
            .kubeconfig()
            .current_context()
            .map(|x| x.user.clone())
            .unwrap_or_default();
        Client {
            user,
            impersonate,
            command: command.to_string(),
            manager: kubectl_field_manager(command),
            server_dry_run: false,
            client_dry_run: false,
            met: Arc::default(),
            request_timeout: None,
        }
    }

    /// The same client writing as `manager` (kubectl's helper `WithFieldManager`).
    pub(crate) fn with_manager(&self, manager: &str) -> Self {
        let mut k = self.clone();
        k.manager = Writer::update(manager);
        k
    }

    /// The same client sending `token` (`--token`).
    pub(crate) fn with_token(mut self, token: Option<String>) -> Self {
        if let Some(t) = token {
            self.user = t;
        }
        self
    }

    /// The warnings the answers carried since the last call, as kubectl prints them
    /// when the answer arrives (`Warning: …` lines, each once a command): a command
    /// that writes object after object prints each object's warnings before its line.
    pub(crate) fn warning_lines(&self) -> String {
        let Ok(mut m) = self.met.lock() else {
            return String::new();
        };
        let new = std::mem::take(&mut m.warnings);
        new.into_iter()
            .filter(|w| m.printed.insert(w.clone()))
            .map(|w| format!("Warning: {w}\n"))
            .collect()
    }

    /// The authentication or impersonation refusal this command met, if it met one.
    pub(crate) fn identity_error(&self) -> Option<ApiError> {
        self.met.lock().ok().and_then(|m| m.identity_error.clone())
    }

    /// A request of this client.
    fn request(&self, verb: Verb, kind: Kind, namespace: &str, name: &str) -> ApiRequest {
        let mut r = ApiRequest::new(
            Credentials::Token(self.user.clone()),
            crate::client::writer::KUBECTL,
            verb,
            kind,
        );
        r.impersonate = self.impersonate.clone();
        r.manager = self.manager.clone();
        r.namespace = if kind.namespaced() {
            namespace.to_string()
        } else {
            String::new()
        };
        r.name = name.to_string();
        let write = !verb.reads();
        r.dry_run = write && self.server_dry_run;
        // A client dry run sends no write: its reads are kept, its writes are not.
        if !(write && self.client_dry_run) {
            r.trace = Some(self.command.clone());
        }
        r
    }

    /// Send `r`; an identity refusal is kept for the command's answer.
    fn send(&self, c: &mut Cluster, r: ApiRequest) -> Result<ApiResponse, ApiError> {
        let endpoints = r.kind == Kind::Endpoints;
        let out = c.call(r);
        let Ok(mut met) = self.met.lock() else {
            return out;
        };
        // `deprecation.WarningMessage`: every answer the handler gives about v1
        // Endpoints carries it (a refusal before the handler does not).
        let deprecated = endpoints
            && out
                .as_ref()
                .map_or_else(|e| e.code != 401 && e.code != 403, |_| true);
        if deprecated {
            met.warnings
                .push(crate::apiserver::discovery::ENDPOINTS_DEPRECATED.to_string());
        }
        match &out {
            Ok(resp) => met.warnings.extend(resp.warnings.iter().cloned()),
            Err(e)
                if e.code == 401 || (e.code == 403 && e.message.contains("cannot impersonate")) =>
            {
                met.identity_error.get_or_insert(e.clone());
            }
            Err(_) => {}
        }
        drop(met);
        out
    }

    /// `GET` one object.
    pub(crate) fn get(
        &self,
        c: &mut Cluster,
        kind: Kind,
        namespace: &str,
        name: &str,
    ) -> Result<Arc<Object>, ApiError> {
        let r = self.request(Verb::Get, kind, namespace, name);
        let resp = self.send(c, r)?;
        resp.object.ok_or_else(|| ApiError::not_found(kind, name))
    }

    /// `GET` one object, or None when it is not found (other errors pass).
    pub(crate) fn get_opt(
        &self,
        c: &mut Cluster,
        kind: Kind,
        key: &ObjKey,
    ) -> Result<Option<Arc<Object>>, ApiError> {
        match self.get(c, kind, &key.namespace, &key.name) {
            Ok(o) => Ok(Some(o)),
            Err(e) if e.code == 404 => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// `GET` one object of a known type, as that type.
    pub(crate) fn get_as<T: Resource + Clone>(
        &self,
        c: &mut Cluster,
        key: &ObjKey,
    ) -> Result<T, ApiError> {
        let o = self.get(c, T::KIND, &key.namespace, &key.name)?;
        T::from_object(&o)
            .cloned()
            .ok_or_else(|| ApiError::not_found(T::KIND, &key.name))
    }

    /// `LIST` a collection: in `namespace` (None: every namespace), with selectors.
    pub(crate) fn list(
        &self,
        c: &mut Cluster,
        kind: Kind,
        namespace: Option<&str>,
        labels: Option<&LabelSelector>,
        fields: &[FieldReq],
    ) -> Result<Vec<Arc<Object>>, ApiError> {
        let mut r = self.request(Verb::List, kind, namespace.unwrap_or(""), "");
        r.labels = labels.cloned();
        r.fields = fields.to_vec();
        Ok(self.send(c, r)?.items)
    }

    /// `POST` an object.
    pub(crate) fn create(&self, c: &mut Cluster, obj: Object) -> Result<ApiResponse, ApiError> {
        let (kind, ns) = (obj.kind(), obj.meta().namespace.clone());
        let mut r = self.request(Verb::Create, kind, &ns, "");
        r.name = obj.meta().name.clone();
        r.body = Body::Object(obj);
        self.send(c, r)
    }

    /// `PUT` an object (with its resourceVersion, if it carries one, as a precondition).
    pub(crate) fn update(&self, c: &mut Cluster, obj: Object) -> Result<ApiResponse, ApiError> {
        self.write_whole(c, Verb::Update, "", obj)
    }

    /// `PATCH` an object (or its `subresource`) to `obj`, the result kubectl computed
    /// from the object it read: within one command nothing else writes in between, so
    /// sending the result is what the patch would make of it.
    pub(crate) fn patch(
        &self,
        c: &mut Cluster,
        subresource: &'static str,
        obj: Object,
    ) -> Result<ApiResponse, ApiError> {
        self.write_whole(c, Verb::Patch, subresource, obj)
    }

    fn write_whole(
        &self,
        c: &mut Cluster,
        verb: Verb,
        subresource: &'static str,
        obj: Object,
    ) -> Result<ApiResponse, ApiError> {
        let m = obj.meta();
        let mut r = self.request(verb, obj.kind(), &m.namespace, &m.name);
        if r.namespace.is_empty() && obj.kind().namespaced() {
            r.namespace = "default".into();
        }
        r.subresource = subresource;
        r.body = Body::Object(obj);
        self.send(c, r)
    }

    /// `PATCH` with a patch document the API server applies to the live object (or to
    /// its `subresource`).
    pub(crate) fn patch_doc(
        &self,
        c: &mut Cluster,
        kind: Kind,
        key: &ObjKey,
        subresource: &'static str,
        t: PatchType,
        patch: serde_json::Value,
    ) -> Result<ApiResponse, ApiError> {
        let mut r = self.request(Verb::Patch, kind, &key.namespace, &key.name);
        r.subresource = subresource;
        r.body = Body::Patch(t, patch);
        self.send(c, r)
    }

    /// `PATCH` with `application/apply-patch+yaml`: a server-side apply of `applied`.
    pub(crate) fn apply(
        &self,
        c: &mut Cluster,
        kind: Kind,
        key: &ObjKey,
        applied: serde_json::Value,
        manager: &str,
        force: bool,
    ) -> Result<ApiResponse, ApiError> {
        let mut r = self.request(Verb::Patch, kind, &key.namespace, &key.name);
        r.manager = Writer {
            manager: manager.to_string(),
            operation: Operation::Apply,
            subresource: String::new(),
        };
        r.body = Body::Apply { applied, force };
        // kubectl validated the manifest itself (`--validate`).
        r.field_validation = "Ignore";
        self.send(c, r)
    }

    /// `DELETE` one object.
    pub(crate) fn delete(
        &self,
        c: &mut Cluster,
        kind: Kind,
        key: &ObjKey,
        options: DeleteOptions,
    ) -> Result<ApiResponse, ApiError> {
        let mut r = self.request(Verb::Delete, kind, &key.namespace, &key.name);
        r.body = Body::Delete(options);
        self.send(c, r)
    }

    /// `GET pods/NAME/log`. A follow's continuation (`since`) is the same stream, not a
    /// request of its own: it is not kept again.
    pub(crate) fn log(
        &self,
        c: &mut Cluster,
        key: &ObjKey,
        options: LogOptions,
    ) -> Result<String, ApiError> {
        let mut r = self.request(Verb::Get, Kind::Pod, &key.namespace, &key.name);
        r.subresource = "log";
        if options.since.is_some() {
            r.trace = None;
        }
        r.body = Body::Log(options);
        Ok(self.send(c, r)?.log.unwrap_or_default())
    }

    /// `POST pods/NAME/eviction`.
    pub(crate) fn evict(&self, c: &mut Cluster, key: &ObjKey) -> Result<ApiResponse, ApiError> {
        let mut r = self.request(Verb::Create, Kind::Pod, &key.namespace, &key.name);
        r.subresource = "eviction";
        self.send(c, r)
    }

    /// `POST serviceaccounts/NAME/token`: a token for that account.
    pub(crate) fn token_request(
        &self,
        c: &mut Cluster,
        key: &ObjKey,
        spec: crate::apiserver::service_account::TokenRequestSpec,
    ) -> Result<crate::apiserver::service_account::TokenRequestStatus, ApiError> {
        let mut r = self.request(
            Verb::Create,
            Kind::ServiceAccount,
            &key.namespace,
            &key.name,
        );
        r.subresource = "token";
        r.body = Body::TokenRequest(spec);
        match self.send(c, r)?.review {
            Some(ReviewAnswer::Token(t)) => Ok(t),
            _ => Err(ApiError::bad_request("no token in server response".into())),
        }
    }

    /// A read of metrics.k8s.io's `resource` (`nodes`, `pods`) through the aggregation
    /// layer: the door authorizes it on that group, as it does before proxying to
    /// metrics-server. The answer itself is computed by the caller.
    pub(crate) fn metrics(
        &self,
        c: &mut Cluster,
        resource: &str,
        namespace: Option<&str>,
        name: Option<&str>,
    ) -> Result<(), ApiError> {
        let Some(served) = crate::apiserver::discovery::REVIEWS
            .iter()
            .find(|v| v.group == "metrics.k8s.io" && v.resource == resource)
        else {
            return Ok(());
        };
        let verb = if name.is_some() {
            Verb::Get
        } else {
            Verb::List
        };
        let mut r = self.request(verb, Kind::Pod, namespace.unwrap_or(""), name.unwrap_or(""));
        r.body = Body::Aggregated(served);
        self.send(c, r).map(|_| ())
    }

    /// A self-review (`auth can-i`, `auth can-i --list`, `auth whoami`): not kept in
    /// the request log.
    pub(crate) fn review(&self, c: &mut Cluster, review: Review) -> Result<ReviewAnswer, ApiError> {
        let mut r = self.request(Verb::Create, Kind::Pod, "", "");
        r.trace = None;
        r.body = Body::Review(review);
        let resp = self.send(c, r)?;
        resp.review
            .ok_or_else(|| ApiError::bad_request("no review in the answer".into()))
    }
}

/// kubectl's default field manager for a command line (its `--field-manager` if it
/// gives one).
pub(crate) fn kubectl_field_manager(command: &str) -> Writer {
    let words: Vec<&str> = command.split_whitespace().collect();
    for (i, w) in words.iter().enumerate() {
        if let Some(m) = w.strip_prefix("--field-manager=") {
            return Writer::update(m);
        }
        if *w == "--field-manager" {
            if let Some(m) = words.get(i + 1) {
                return Writer::update(m);
            }
        }
    }
    let verb = words
        .iter()
        .skip_while(|w| **w != "kubectl")
        .nth(1)
        .copied()
        .unwrap_or("");
    let manager = match verb {
        "scale" => {
            return Writer {
                manager: "kubectl".into(),
                operation: Operation::Update,
                subresource: "scale".into(),
            }
        }
        "apply" => "kubectl-client-side-apply",
        "create" => "kubectl-create",
        "edit" => "kubectl-edit",
        "patch" => "kubectl-patch",
        "replace" => "kubectl-replace",
        "label" => "kubectl-label",
        "annotate" => "kubectl-annotate",
        "set" => "kubectl-set",
        "rollout" if words.contains(&"undo") => "kubectl",
        "rollout" => "kubectl-rollout",
        "expose" => "kubectl-expose",
        "run" => "kubectl-run",
        "taint" => "kubectl-taint",
        _ => "kubectl",
    };
    Writer::update(manager)
}

/// The words without the impersonation flags, the user `--as` names and the groups
/// `--as-group` name.
pub(crate) type Impersonation = (Vec<String>, Option<String>, Vec<String>);

/// `--as USER`, `--as-group GROUP` (repeatable), removed from the words.
pub(crate) fn take_impersonation(words: &[String]) -> Result<Impersonation, String> {
    let (out, taken) = take_global_flags(words, &["--as", "--as-group"])?;
    let mut user = None;
    let mut groups = Vec::new();
    for (flag, value) in taken {
        if flag == "--as" {
            user = Some(value);
        } else {
            groups.push(value);
        }
    }
    if user.is_none() && !groups.is_empty() {
        return Err(
            "error: requesting uid, groups or user-extra for test without impersonating a user"
                .into(),
        );
    }
    Ok((out, user, groups))
}

/// `--token` (kubectl's global flag): the bearer token to send instead of the current
/// context user's, taken out of the words.
pub(crate) fn take_token(words: &[String]) -> Result<(Vec<String>, Option<String>), String> {
    let (out, taken) = take_global_flags(words, &["--token"])?;
    Ok((out, taken.into_iter().last().map(|(_, v)| v)))
}

/// `--request-timeout` (kubectl's global flag), taken out of the words: a whole number
/// of seconds or a duration with its unit, as client-go's `ParseTimeout` reads it;
/// zero means none.
pub(crate) fn take_request_timeout(
    words: &[String],
) -> Result<(Vec<String>, Option<crate::time::SimTime>), String> {
    let (out, taken) = take_global_flags(words, &["--request-timeout"])?;
    let Some((_, value)) = taken.into_iter().last() else {
        return Ok((out, None));
    };
    // Go's durations have no days, and no sign here.
    let bad_unit = value.starts_with('-') || value.contains('d');
    match crate::command::args::parse_span("--request-timeout", &value) {
        Ok(ms) if !bad_unit => Ok((out, (ms > 0).then_some(ms))),
        Err(e) if e.contains("24h") => Err(format!("error: {e}")),
        _ => Err("error: Invalid timeout value. Timeout must be a single integer in seconds, or an integer followed by a corresponding time unit (e.g. 1s | 2m | 3h)".into()),
    }
}

/// The words left after taking global flags out, and each flag given with its value.
type TakenFlags = (Vec<String>, Vec<(&'static str, String)>);

/// kubectl's global flags `flags` (`--flag VALUE` or `--flag=VALUE`, anywhere before
/// `--`) taken out of the words.
fn take_global_flags(words: &[String], flags: &[&str]) -> Result<TakenFlags, String> {
    let known = |f: &str| -> Option<&'static str> {
        ["--as", "--as-group", "--token", "--request-timeout"]
            .into_iter()
            .find(|k| *k == f && flags.contains(k))
    };
    let mut out = Vec::new();
    let mut taken = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if w == "--" {
            out.extend(words[i..].iter().cloned());
            break;
        }
        let (flag, inline) = match w.split_once('=') {
            Some((f, v)) => (f, Some(v.to_string())),
            None => (w.as_str(), None),
        };
        if let Some(flag) = known(flag) {
            let value = match inline {
                Some(v) => v,
                None => {
                    i += 1;
                    words
                        .get(i)
                        .cloned()
                        .ok_or_else(|| format!("error: flag needs an argument: {flag}"))?
                }
            };
            taken.push((flag, value));
        } else {
            out.push(w.clone());
        }
        i += 1;
    }
    Ok((out, taken))
}

/// A describer's reads (`printers::describe::Reader`) as this client's requests: the
/// lists and gets kubectl's describers send. A refused read shows as nothing found.
pub(crate) struct Reads<'a> {
    /// The cluster the requests go to.
    pub c: &'a mut Cluster,
    /// The client sending them.
    pub k: &'a Client,
}

impl crate::printers::describe::Reader for Reads<'_> {
    fn now(&self) -> crate::time::SimTime {
        self.c.now()
    }

    fn list(
        &mut self,
        kind: Kind,
        namespace: Option<&str>,
        labels: Option<&LabelSelector>,
        fields: &str,
    ) -> Vec<Arc<Object>> {
        let Ok(fields) = crate::apiserver::selectors::parse_field_selector(kind, fields) else {
            return Vec::new();
        };
        self.k
            .list(self.c, kind, namespace, labels, &fields)
            .unwrap_or_default()
    }

    fn get(&mut self, kind: Kind, namespace: &str, name: &str) -> Option<Arc<Object>> {
        self.k.get(self.c, kind, namespace, name).ok()
    }
}
