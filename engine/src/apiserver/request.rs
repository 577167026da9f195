//! What a request to the API server is and what it answers: the typed request every
//! client sends through the one door ([`super::door`]) — its credentials, verb, kind,
//! subresource, namespace, name and body — and the response.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/request/requestinfo.go` (what
//! a request is to the authorizer), `staging/src/k8s.io/apimachinery/pkg/apis/meta/v1`
//! (`CreateOptions`, `PatchOptions`, `DeleteOptions`), `k8s.io/api/core/v1`
//! (`PodLogOptions`).

use super::managed_fields::Writer;
use super::rbac::{Attributes, UserInfo};
use super::selectors::FieldReq;
use super::{ApiError, Change, DeleteOptions};
use crate::api::*;
use crate::time::SimTime;
use std::sync::Arc;

/// An HTTP verb as the authorizer names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Verb {
    /// Read one object.
    Get,
    /// Read a collection.
    List,
    /// Follow a collection.
    Watch,
    /// `POST`.
    Create,
    /// `PUT`.
    Update,
    /// `PATCH`.
    Patch,
    /// `DELETE` of one object.
    Delete,
    /// `DELETE` of a collection.
    DeleteCollection,
}

impl Verb {
    /// The verb as RBAC names it.
    pub fn as_str(self) -> &'static str {
        match self {
            Verb::Get => "get",
            Verb::List => "list",
            Verb::Watch => "watch",
            Verb::Create => "create",
            Verb::Update => "update",
            Verb::Patch => "patch",
            Verb::Delete => "delete",
            Verb::DeleteCollection => "deletecollection",
        }
    }

    /// Whether it reads (no admission).
    pub fn reads(self) -> bool {
        matches!(self, Verb::Get | Verb::List | Verb::Watch)
    }
}

/// Who a request says it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Credentials {
    /// A component's own identity (its client certificate or ServiceAccount token),
    /// which the authenticator always accepts.
    Identity(UserInfo),
    /// A kubeconfig user's token: the authenticator finds its user, or refuses it.
    Token(String),
}

/// What a request carries.
#[derive(Clone, Debug, PartialEq)]
// A request is built once and moved into the door; the larger variants are the
// common ones (an object), so boxing them would buy nothing.
#[allow(clippy::large_enum_variant)]
pub enum Body {
    /// Nothing (reads, eviction).
    None,
    /// A whole object: a create, an update, or a patch whose result the client
    /// computed from the object it read (the controllers' ownerReference patches, the
    /// console's kubectl).
    Object(Object),
    /// A patch document, applied by the API server to the live object (or to its
    /// `scale` subresource).
    Patch(super::patch::PatchType, serde_json::Value),
    /// A server-side apply: the configuration as the applier wrote it, and whether it
    /// takes fields other managers own (`--force-conflicts`).
    Apply {
        /// The applied configuration.
        applied: serde_json::Value,
        /// Force conflicts.
        force: bool,
    },
    /// A question about the requester's own permissions or identity.
    Review(Review),
    /// What `pods/log` asks for.
    Log(LogOptions),
    /// A non-resource path (`/api`, `/version`, `/healthz`…): authorized by its path;
    /// what it serves is the HTTP layer's.
    Path(String),
    /// A resource of an aggregated API (`metrics.k8s.io`'s nodes and pods): authorized
    /// by its group and resource, then served by the API behind it, as the aggregation
    /// layer proxies to metrics-server once the request passed the handler chain.
    Aggregated(&'static crate::apiserver::discovery::Virtual),
    /// A delete's options.
    Delete(DeleteOptions),
    /// A TokenRequest for the ServiceAccount named (`serviceaccounts/NAME/token`).
    TokenRequest(crate::apiserver::service_account::TokenRequestSpec),
    /// A binding to this node.
    Bind(String),
    /// An Event the client's recorder sends (the API server correlates repeats into
    /// one Event with a count, as the recorder's aggregation does upstream).
    Event {
        /// What it is about.
        involved: ObjectReference,
        /// `Normal` or `Warning`.
        type_: EventType,
        /// Reason.
        reason: String,
        /// Message.
        message: String,
        /// The reporting component.
        component: String,
        /// The reporting host.
        host: String,
    },
}

/// `pods/log`'s options (`PodLogOptions`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LogOptions {
    /// The container.
    pub container: String,
    /// The instance before the running one.
    pub previous: bool,
    /// The last N lines only (`tailLines`).
    pub tail: Option<usize>,
    /// Each line after its RFC 3339 time (`timestamps`).
    pub timestamps: bool,
    /// Only the lines at or after this time (a follow's continuation of its stream).
    pub since: Option<SimTime>,
}

/// What the API server asks the nodes' kubelets for (it proxies `pods/log` to the
/// kubelet of the Pod's node).
pub trait NodeProxy {
    /// Whether the API server reaches `node`'s kubelet.
    fn reachable(&self, node: &str) -> bool;
    /// The lines `container` of `pod` printed, as the kubelet serves them.
    fn container_log(
        &self,
        pod: &Pod,
        container: &Container,
        previous: bool,
    ) -> Result<Vec<(SimTime, String)>, ApiError>;
}

/// What a self-review asks (`kubectl auth can-i`, `can-i --list`, `auth whoami`).
#[derive(Clone, Debug, PartialEq)]
pub enum Review {
    /// A SelfSubjectAccessReview: may I do this?
    Access(Attributes),
    /// A SelfSubjectRulesReview: what may I do in this namespace?
    Rules(String),
    /// A SelfSubjectReview: who am I?
    WhoAmI,
    /// A TokenReview: whose is this token? (a kubeconfig user's name, as the HTTP
    /// layer maps its bearer token, or a ServiceAccount's token as it is).
    Token(String),
}

/// What a self-review answers.
#[derive(Clone, Debug, PartialEq)]
pub enum ReviewAnswer {
    /// Allowed or not, and the authorizer's reason.
    Access {
        /// Allowed.
        allowed: bool,
        /// Why (the binding that allowed, or the refusal's reason).
        reason: String,
    },
    /// The rules that apply, each with the binding that grants it, and the errors met
    /// (a binding to a missing role).
    Rules(Vec<(String, PolicyRule)>, Vec<String>),
    /// The user as authenticated.
    WhoAmI(UserInfo),
    /// A TokenReview's answer: the token's user, or None when the authenticator
    /// refuses it.
    Authenticated(Option<UserInfo>),
    /// A TokenRequest's answer: the token issued.
    Token(crate::apiserver::service_account::TokenRequestStatus),
}

/// One request to the API server.
#[derive(Clone, Debug, PartialEq)]
pub struct ApiRequest {
    /// Who is asking.
    pub credentials: Credentials,
    /// `--as` / `Impersonate-User` and `Impersonate-Group`.
    pub impersonate: Option<(String, Vec<String>)>,
    /// The client's name in the watch log (`kubectl`, `kubelet/node-1`,
    /// `replicaset-controller`): who the page says did each step.
    pub client: String,
    /// Its field manager (`metadata.managedFields`).
    pub manager: Writer,
    /// The verb.
    pub verb: Verb,
    /// The kind (the resource).
    pub kind: Kind,
    /// The subresource (`status`, `scale`, `binding`, `eviction`, `finalize`), or empty.
    pub subresource: &'static str,
    /// The namespace (empty: cluster scope, or every namespace for a list).
    pub namespace: String,
    /// The object's name (empty: a collection, or a create).
    pub name: String,
    /// What it carries.
    pub body: Body,
    /// A list's label selector.
    pub labels: Option<LabelSelector>,
    /// A list's field selector.
    pub fields: Vec<FieldReq>,
    /// A watch's `resourceVersion`: events after this version. None or 0: the current
    /// objects first, as ADDED events (a list is made for them).
    pub resource_version: Option<u64>,
    /// A list's `limit`: at most this many items, and a continue token for the rest.
    pub limit: Option<u64>,
    /// A list's `continue`: the token of the chunk before.
    pub continue_token: Option<String>,
    /// `dryRun=All`: every stage runs, nothing is stored.
    pub dry_run: bool,
    /// `fieldValidation` for what the API server decodes itself (a patch's result):
    /// `Strict`, `Warn` or `Ignore`.
    pub field_validation: &'static str,
    /// Recorded in the request log under this command line (a person's request);
    /// None for the components' own.
    pub trace: Option<String>,
    /// Cache the authorization decision under the client's name (the components:
    /// their requests are many and their permissions change only with RBAC objects).
    pub cache_authz: bool,
    /// The `metadata.managedFields` an update's body carried (an HTTP client's PUT):
    /// they replace the live managers if they decode (`managed_fields::take_sent`).
    pub managed_fields: Option<serde_json::Value>,
}

impl ApiRequest {
    /// A request with no body, selectors, dry run or trace.
    pub fn new(credentials: Credentials, client: &str, verb: Verb, kind: Kind) -> Self {
        ApiRequest {
            credentials,
            impersonate: None,
            client: client.to_string(),
            manager: Writer::update(client),
            verb,
            kind,
            subresource: "",
            namespace: String::new(),
            name: String::new(),
            body: Body::None,
            labels: None,
            fields: Vec::new(),
            resource_version: None,
            limit: None,
            continue_token: None,
            dry_run: false,
            field_validation: "Warn",
            trace: None,
            cache_authz: false,
            managed_fields: None,
        }
    }

    /// The authorizer's attributes of this request.
    pub fn attributes(&self) -> Attributes {
        if let Body::Path(path) = &self.body {
            return Attributes::path(self.verb.as_str(), path);
        }
        if let Body::Aggregated(v) = &self.body {
            return Attributes {
                verb: self.verb.as_str().into(),
                api_group: v.group.into(),
                resource: v.resource.into(),
                namespace: self.namespace.clone(),
                name: self.name.clone(),
                ..Default::default()
            };
        }
        if let Body::Review(r) = &self.body {
            let (group, resource) = match r {
                Review::Access(_) => ("authorization.k8s.io", "selfsubjectaccessreviews"),
                Review::Rules(_) => ("authorization.k8s.io", "selfsubjectrulesreviews"),
                Review::WhoAmI => ("authentication.k8s.io", "selfsubjectreviews"),
                Review::Token(_) => ("authentication.k8s.io", "tokenreviews"),
            };
            return Attributes {
                verb: "create".into(),
                api_group: group.into(),
                resource: resource.into(),
                ..Default::default()
            };
        }
        let ns = if self.kind.namespaced() && self.namespace.is_empty() && !self.verb.reads() {
            "default"
        } else {
            &self.namespace
        };
        let name = if self.verb == Verb::Create && self.subresource.is_empty() {
            ""
        } else {
            &self.name
        };
        let mut a =
            Attributes::on(self.verb.as_str(), self.kind, ns, name).subresource(self.subresource);
        if matches!(self.verb, Verb::List | Verb::Watch) {
            a.field_selector = self.fields.iter().filter_map(|f| f.equality()).collect();
            // `requestinfo.go`: a list or watch of one `metadata.name` is a request on
            // that name.
            if a.name.is_empty() {
                if let Some((_, n)) = a.field_selector.iter().find(|(f, _)| f == "metadata.name") {
                    a.name = n.clone();
                }
            }
        }
        a
    }
}

/// What the API server answers.
#[derive(Clone, Debug, Default)]
pub struct ApiResponse {
    /// The HTTP status code.
    pub code: u16,
    /// The object read or written (after the write; a deleted object as it was).
    pub object: Option<Arc<Object>>,
    /// A list's items.
    pub items: Vec<Arc<Object>>,
    /// What the write changed in the store (empty for reads and dry runs).
    pub changes: Vec<Change>,
    /// Admission's warnings (`Warning:` headers).
    pub warnings: Vec<String>,
    /// The store's revision when it answered.
    pub revision: u64,
    /// A self-review's answer.
    pub review: Option<ReviewAnswer>,
    /// A patch that changed nothing: nothing was written.
    pub unchanged: bool,
    /// `pods/log`'s text.
    pub log: Option<String>,
    /// A chunked list's continue token (empty on its last chunk).
    pub continue_token: String,
    /// A chunked list's `remainingItemCount`.
    pub remaining: Option<u64>,
}

/// Why requests fail while the control plane is stalled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unavailable {
    /// Nothing listens at the API server's address.
    ApiServerDown,
    /// The API server answers, but etcd cannot commit or serve a consistent read.
    EtcdNoQuorum,
    /// etcd has its quorum, but the network path from the API server to it is broken:
    /// the API server's calls hang until the request's deadline.
    EtcdUnreachable,
}

impl Unavailable {
    /// The error a request gets.
    pub fn error(self) -> ApiError {
        match self {
            Unavailable::ApiServerDown => ApiError::connection_refused(),
            Unavailable::EtcdNoQuorum => ApiError::etcd_timed_out(),
            Unavailable::EtcdUnreachable => ApiError::deadline_exceeded(),
        }
    }

    /// The API server answers but its storage does not.
    pub fn storage(self) -> bool {
        self != Unavailable::ApiServerDown
    }
}

/// The storage behind the API server, and the nodes it proxies to, as a request finds
/// them.
#[derive(Clone, Default)]
pub struct Backend<'a> {
    /// Whether requests fail, and why.
    pub unavailable: Option<Unavailable>,
    /// etcd's members, as the request path shows them: (leader, members up, members,
    /// quorum).
    pub etcd: (String, usize, usize, usize),
    /// The nodes' kubelets (None: no node answers).
    pub nodes: Option<&'a dyn NodeProxy>,
    /// How each webhook's Service answers the API server now (None: no webhook
    /// configuration, or none worked out).
    pub webhooks: Option<std::sync::Arc<super::webhook::WebhookNet>>,
}
