//! API errors, worded as the API server words them and as kubectl prints them.

use crate::api::Kind;
use std::fmt;

/// The address kubectl and the kubelets reach the API server at.
pub const API_SERVER_HOST_PORT: &str = "10.0.0.2:6443";

/// kubectl's last line when nothing listens at the API server's address.
pub fn connection_refused_line() -> String {
    format!(
        "The connection to the server {API_SERVER_HOST_PORT} was refused - did you specify the right host or port?"
    )
}

/// The API server's own name as a writer: its own writes (the namespaces and priority
/// classes every cluster has, quota usage charged at admission).
pub const KUBE_APISERVER: &str = "kube-apiserver";

/// etcd's error for a request that could not reach a quorum in time.
pub const REQUEST_TIMED_OUT: &str = "etcdserver: request timed out";
/// The API server's timeout filter's words (`apierrors.NewTimeoutError`).
pub const DEADLINE_EXCEEDED: &str =
    "Timeout: request did not complete within requested timeout - context deadline exceeded";

/// An API status error (`metav1.Status` with reason and code).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP code: 404, 409, 422, 429…
    pub code: u16,
    /// Status reason: `NotFound`, `AlreadyExists`, `Conflict`, `Invalid`, `BadRequest`…
    pub reason: &'static str,
    /// The server's message, e.g. `pods "x" not found`.
    pub message: String,
    /// For `Invalid`: what kubectl prints instead (`The Deployment "web" is invalid: …`).
    pub kubectl_message: Option<String>,
    /// What the Status's `details` name when it is not the request's own object: the
    /// missing namespace of a create, the DeleteOptions of a delete.
    pub details: Option<Box<Details>>,
}

/// A Status's `details` (`metav1.StatusDetails`): the group, kind and name an error is
/// about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Details {
    /// The API group (empty for the core group).
    pub group: &'static str,
    /// The kind for `Invalid` (`DeleteOptions`), the resource otherwise (`namespaces`).
    pub kind: &'static str,
    /// The object's name.
    pub name: String,
    /// Its causes, where the error gives them itself (a server-side apply's conflicts).
    pub causes: Vec<Cause>,
}

/// One cause of a Status (`metav1.StatusCause`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cause {
    /// `FieldManagerConflict`, `FieldValueInvalid`…
    pub reason: &'static str,
    /// What is wrong.
    pub message: String,
    /// The field (`.spec.replicas`).
    pub field: String,
}

impl ApiError {
    /// Nothing listens at the API server's address (`sim apiserver down`): no status
    /// comes back, and kubectl prints its connection error.
    pub fn connection_refused() -> Self {
        ApiError {
            code: 503,
            reason: "ServiceUnavailable",
            message: "connection refused".into(),
            kubectl_message: Some(connection_refused_line()),
            details: None,
        }
    }

    /// etcd could not reach a quorum in time (`sim etcd down` past the quorum): the
    /// API server passes etcd's error on as a 500 without a reason, which kubectl
    /// prints as `Error from server: etcdserver: request timed out`.
    pub fn etcd_timed_out() -> Self {
        ApiError {
            code: 500,
            reason: "",
            message: REQUEST_TIMED_OUT.into(),
            kubectl_message: None,
            details: None,
        }
    }

    /// 504 from the API server's timeout filter (`WithTimeoutForNonLongRunningRequests`):
    /// the request's deadline passed while its storage call hung.
    pub fn deadline_exceeded() -> Self {
        ApiError {
            code: 504,
            reason: "Timeout",
            message: DEADLINE_EXCEEDED.into(),
            kubectl_message: None,
            details: None,
        }
    }

    /// 404 `<resource> "<name>" not found`.
    pub fn not_found(kind: Kind, name: &str) -> Self {
        ApiError {
            code: 404,
            reason: "NotFound",
            message: format!("{} \"{name}\" not found", kind.qualified_resource()),
            kubectl_message: None,
            // `NewNotFound(qualifiedResource, name)`: the details name what was not
            // found, which for a create in a missing namespace is the namespace.
            details: Some(Box::new(Details {
                group: kind.api_version().split_once('/').map_or("", |(g, _)| g),
                kind: kind.resource(),
                name: name.to_string(),
                causes: Vec::new(),
            })),
        }
    }

    /// 422 for DeleteOptions the API server refuses (`ValidateDeleteOptions`):
    /// `DeleteOptions.meta.k8s.io "" is invalid: …`.
    pub fn invalid_delete_options(causes: &[String]) -> Self {
        ApiError::invalid_options("DeleteOptions", causes)
    }

    /// 422 for request options the API server refuses (`ValidateDeleteOptions`,
    /// `ValidateListOptions`): `ListOptions.meta.k8s.io "" is invalid: …`.
    pub fn invalid_options(kind: &'static str, causes: &[String]) -> Self {
        let detail = if causes.len() == 1 {
            causes[0].clone()
        } else {
            format!("[{}]", causes.join(", "))
        };
        ApiError {
            code: 422,
            reason: "Invalid",
            message: format!("{kind}.meta.k8s.io \"\" is invalid: {detail}"),
            kubectl_message: Some(format!("The {kind} \"\" is invalid: {detail}")),
            details: Some(Box::new(Details {
                group: "meta.k8s.io",
                kind,
                name: String::new(),
                causes: Vec::new(),
            })),
        }
    }

    /// 404 for a path the API server does not serve (a kind without the subresource
    /// asked for).
    pub fn no_such_resource() -> Self {
        ApiError {
            code: 404,
            reason: "NotFound",
            message: "the server could not find the requested resource".into(),
            kubectl_message: None,
            details: None,
        }
    }

    /// 409 `<resource> "<name>" already exists`.
    pub fn already_exists(kind: Kind, name: &str) -> Self {
        ApiError {
            code: 409,
            reason: "AlreadyExists",
            message: format!("{} \"{name}\" already exists", kind.qualified_resource()),
            kubectl_message: None,
            details: None,
        }
    }

    /// 409 optimistic-concurrency conflict.
    pub fn conflict(kind: Kind, name: &str) -> Self {
        ApiError {
            code: 409,
            reason: "Conflict",
            message: format!(
                "Operation cannot be fulfilled on {} \"{name}\": the object has been modified; please apply your changes to the latest version and try again",
                kind.qualified_resource()
            ),
            kubectl_message: None,
            details: None,
        }
    }

    /// 409 conflict with a custom detail (e.g. binding an already bound pod).
    pub fn conflict_detail(kind: Kind, name: &str, detail: &str) -> Self {
        ApiError {
            code: 409,
            reason: "Conflict",
            message: format!(
                "Operation cannot be fulfilled on {} \"{name}\": {detail}",
                kind.qualified_resource()
            ),
            kubectl_message: None,
            details: None,
        }
    }

    /// 422 with field errors `<path>: <Type>: <value>: <detail>` joined by `, `.
    pub fn invalid(kind: Kind, name: &str, causes: &[String]) -> Self {
        let group = match kind.api_version().split_once('/') {
            Some((g, _)) => format!("{}.{g}", kind.name()),
            None => kind.name().to_string(),
        };
        let detail = if causes.len() == 1 {
            causes[0].clone()
        } else {
            format!("[{}]", causes.join(", "))
        };
        // kubectl's checkErr: one cause on the line, several as a list under it
        // (`MultilineError`, whose first line keeps the space after the colon).
        let kubectl = if causes.len() == 1 {
            format!("The {} \"{name}\" is invalid: {detail}", kind.name())
        } else {
            let mut s = format!("The {} \"{name}\" is invalid: ", kind.name());
            for c in causes {
                s.push_str("\n* ");
                s.push_str(c);
            }
            s
        };
        ApiError {
            code: 422,
            reason: "Invalid",
            message: format!("{group} \"{name}\" is invalid: {detail}"),
            kubectl_message: Some(kubectl),
            details: None,
        }
    }

    /// 400 bad request.
    pub fn bad_request(message: String) -> Self {
        ApiError {
            code: 400,
            reason: "BadRequest",
            message,
            kubectl_message: None,
            details: None,
        }
    }

    /// 500 internal error (`Internal error occurred: …`).
    pub fn internal(detail: &str) -> Self {
        ApiError {
            code: 500,
            reason: "InternalError",
            message: format!("Internal error occurred: {detail}"),
            kubectl_message: None,
            details: None,
        }
    }

    /// The line kubectl prints for this error.
    pub fn kubectl_text(&self) -> String {
        match &self.kubectl_message {
            Some(m) => m.clone(),
            // kubectl's StandardErrorMessage: a status without a reason.
            None if self.reason.is_empty() => format!("Error from server: {}", self.message),
            None => format!("Error from server ({}): {}", self.reason, self.message),
        }
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.kubectl_text())
    }
}

impl std::error::Error for ApiError {}
