//! `POST /kubeplay/v1/sim`: the console's `sim` verbs for HTTP clients (`kubeplay-cli
//! sim`, `kubectl sim`). The body is JSON, `{"command": "advance 30s"}` — the words
//! after `sim` — so that no web page can send one as a form or `text/plain`.
//!
//! Here the request is authorized and read; the command itself is run by
//! [`crate::sim_endpoint`], which sits above both this adapter and the console's
//! commands, so that the console's `kubectl get --raw` can answer through this adapter.

use super::*;

/// An authorized `sim` command to run: the console line (`sim advance 30s`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SimCommand {
    /// The line, `sim` included.
    pub line: String,
    /// What the command reads for `-f -` (the code of `sim controller run` or
    /// `sim webhook run`, which the client sends with the line).
    pub stdin: Option<String>,
}

impl ApiServer {
    /// Read a `sim` verb: moving time and breaking things are the cluster admin's, so
    /// the door authorizes the path first.
    pub(super) fn sim(&mut self, req: &HttpRequest) -> Reply {
        if req.method != "POST" {
            return Reply::Response(not_found_path());
        }
        let mut r = self.request(req, Verb::Create, Kind::Pod);
        r.body = Body::Path(SIM_PATH.into());
        r.trace = None;
        if let Err(e) = self.cluster.call(r) {
            return Reply::Response(HttpResponse::json(e.code, &status_of(&e, None, "")));
        }
        let body = match self.body(req) {
            Ok(b) => b,
            Err(e) => return Reply::Response(HttpResponse::error(&e, None, "")),
        };
        let Some(words) = body.get("command").and_then(Value::as_str) else {
            let e = ApiError::bad_request(
                "the body must be {\"command\": \"WORDS\"}, the words after `sim` (and \"stdin\" for -f -)".into(),
            );
            return Reply::Response(HttpResponse::error(&e, None, ""));
        };
        let stdin = body
            .get("stdin")
            .and_then(Value::as_str)
            .map(str::to_string);
        Reply::Sim(SimCommand {
            line: format!("sim {}", words.trim()),
            stdin,
        })
    }
}
