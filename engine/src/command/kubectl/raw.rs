//! `kubectl get --raw PATH`: a GET of any path, answered by the same handlers that
//! answer real kubectl through `kubeplay-cli serve` ([`crate::rest`]), on the console's
//! cluster, with the console's identity; the body printed as it came, or kubectl's
//! words for a failure.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/get/get.go` (`raw`, `RawURI`),
//! `staging/src/k8s.io/kubectl/pkg/rawhttp/raw.go`,
//! `staging/src/k8s.io/client-go/rest/request.go` (`newUnstructuredResponseError`).

use crate::cluster::Cluster;

/// `kubectl get --raw PATH`: one GET of a path, its body printed as it comes; None
/// when the command is not a `get --raw`. Every path, the health checks included, is
/// answered by the API server's handlers.
pub(super) fn get_raw(
    c: &mut Cluster,
    words: &[String],
    identity: &RawIdentity,
) -> Option<crate::command::Outcome> {
    use crate::command::Outcome;
    if words.first().map(String::as_str) != Some("get") {
        return None;
    }
    if !words[1..]
        .iter()
        .any(|w| w == "--raw" || w.starts_with("--raw="))
    {
        return None;
    }
    // get's own flags and --raw, the last of each winning (pflag).
    let mut specs = super::get::GET_FLAGS.to_vec();
    specs.push(crate::command::args::flag("raw", None));
    let p = match crate::command::args::parse_flags(&words[1..], &specs, "kubectl get") {
        Ok(p) => p,
        Err(e) => return Some(Outcome::err(format!("{e}\n"))),
    };
    let path = p.get("raw").unwrap_or_default();
    // `Complete`, then `Validate`.
    if !p.args.is_empty() {
        return Some(Outcome::err(
            "error: arguments may not be passed when --raw is specified\n".into(),
        ));
    }
    if p.bool("watch") || p.get("selector").is_some() {
        return Some(Outcome::err("error: --raw may not be specified with other flags that filter the server request or alter the output\n".into()));
    }
    if p.get("output").is_some_and(|o| !o.is_empty()) {
        return Some(Outcome::err(
            "error: --raw and --output are mutually exclusive\n".into(),
        ));
    }
    Some(raw_get(c, path, identity))
}

/// Who `kubectl get --raw` sends as: the current context's user, or `--token`'s, and
/// `--as`, `--as-group`.
pub(super) struct RawIdentity {
    /// `--token`, when given.
    pub(super) token: Option<String>,
    /// `--as`, `--as-group`.
    pub(super) impersonate: Option<(String, Vec<String>)>,
}

/// `kubectl get --raw PATH` (`RawURI`): a GET of
/// that path, answered by the API server's own handlers (what `serve` answers real
/// kubectl with), the body printed as it came. A status that is not a success is
/// printed as kubectl prints a `Status` (`Error from server (NotFound): …`).
fn raw_get(c: &mut Cluster, path: &str, identity: &RawIdentity) -> crate::command::Outcome {
    use crate::command::Outcome;
    // `url.ParseRequestURI`: an absolute path, or an absolute URL (its path and query
    // are what is asked for).
    let target = match path.split_once("://") {
        Some((scheme, rest)) if !scheme.is_empty() && !scheme.contains('/') => {
            rest.find('/').map_or("/", |i| &rest[i..])
        }
        _ if path.starts_with('/') => path,
        _ => {
            return Outcome::err(format!(
                "error: --raw must be a valid URL path: parse {path:?}: invalid URI for request\n"
            ))
        }
    };
    if crate::rest::HttpRequest::get(target, Vec::new()).flag("watch") {
        return Outcome::err(
            "error: a watch through --raw is not supported here: the simulation plays in the page (use sim advance)\n".into(),
        );
    }
    match get_path(c, target, identity) {
        Ok(mut body) => {
            if !body.ends_with('\n') {
                body.push('\n');
            }
            Outcome::ok(body)
        }
        Err((status, body)) => Outcome::err(format!("{}\n", raw_error_text(status, &body))),
    }
}

/// One GET of `target` (a path and query) as the console's kubectl sends it: the
/// current context's user, or `--token`'s, with `--as`; answered by the API server's
/// handlers. The body on a success; the status and body of anything else.
pub(super) fn get_path(
    c: &mut Cluster,
    target: &str,
    identity: &RawIdentity,
) -> Result<String, (u16, Vec<u8>)> {
    use crate::rest::{ApiServer, HttpRequest, Reply, USERS};
    let user = match &identity.token {
        Some(t) => t.clone(),
        None => c
            .kubeconfig()
            .current_context()
            .map(|x| x.user.clone())
            .unwrap_or_default(),
    };
    // A user of the kubeconfig sends its token; anything else (a ServiceAccount's
    // token, a token the server never issued) goes as it is.
    let bearer = if USERS.contains(&user.as_str()) {
        crate::rest::token_for(&user)
    } else {
        user
    };
    let mut headers = vec![("authorization".to_string(), format!("Bearer {bearer}"))];
    if let Some((as_user, groups)) = &identity.impersonate {
        if !as_user.is_empty() {
            headers.push(("impersonate-user".into(), as_user.clone()));
        }
        for g in groups {
            headers.push(("impersonate-group".into(), g.clone()));
        }
    }
    match ApiServer::answer_lent(c, &HttpRequest::get(target, headers)) {
        Reply::Response(r) if (200..300).contains(&r.status) => {
            Ok(String::from_utf8_lossy(&r.body).into_owned())
        }
        Reply::Response(r) => Err((r.status, r.body)),
        // The API server is up here (a stopped one refused the connection before).
        _ => Err((503, Vec::new())),
    }
}

/// kubectl's words for a response that is not a success: a `Status` body by its reason
/// and message; any other body by its code, as client-go's
/// `newUnstructuredResponseError` and `NewGenericServerResponse` word it; then
/// `StandardErrorMessage` (an Unauthorized one is "You must be logged in").
pub(super) fn raw_error_text(status: u16, body: &[u8]) -> String {
    let v: serde_json::Value = serde_json::from_slice(body).unwrap_or_default();
    let field = |k: &str| v.get(k).and_then(|x| x.as_str()).unwrap_or("").to_string();
    let (reason, message) = if field("kind") == "Status" {
        (field("reason"), field("message"))
    } else {
        let text = String::from_utf8_lossy(body).trim().to_string();
        let (reason, message) = match status {
            400 => ("BadRequest", "the server rejected our request for an unknown reason".into()),
            401 => ("Unauthorized", "the server has asked for the client to provide credentials".into()),
            403 => ("Forbidden", text),
            404 => ("NotFound", "the server could not find the requested resource".into()),
            405 => ("MethodNotAllowed", "the server does not allow this method on the requested resource".into()),
            409 => ("Conflict", "the server reported a conflict".into()),
            422 => ("Invalid", "the server rejected our request due to an error in our request".into()),
            429 => ("TooManyRequests", "the server has received too many requests and has asked us to try again later".into()),
            503 => ("ServiceUnavailable", "the server is currently unable to handle the request".into()),
            504 => ("Timeout", "the server was unable to return a response in the time allotted, but may still be processing the request".into()),
            s if s >= 500 => ("InternalError", format!("an error on the server ({text:?}) has prevented the request from succeeding")),
            s => ("", format!("the server responded with the status code {s} but did not return more information")),
        };
        (reason.to_string(), message)
    };
    match reason.as_str() {
        "Unauthorized" => format!("error: You must be logged in to the server ({message})"),
        "" => format!("Error from server: {message}"),
        r => format!("Error from server ({r}): {message}"),
    }
}
