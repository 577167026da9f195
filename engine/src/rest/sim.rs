//! `POST /kubeplay/v1/sim`: the console's `sim` verbs for HTTP clients (`kubeplay-cli
//! sim`, `kubectl sim`). The body is JSON, `{"command": "advance 30s"}` — the words
//! after `sim` — so that no web page can send one as a form or `text/plain`. The answer
//! is what the console prints: 200 when the command succeeded, 400 when it failed.
//!
//! `sim advance` and `sim settle` run the clock, which can take a while (hours of
//! simulated time on a large cluster): they come back as [`Reply::Sim`], and the server
//! runs them in slices with [`ApiServer::sim_continue`], answering other clients
//! between slices. Where a slice stops does not change what happens
//! ([`crate::cluster::Cluster::run_until_within`]).

use super::*;
use crate::command::wait::Blocking;

/// A `sim advance` or `sim settle` on its way.
#[derive(Debug)]
pub struct SimRun {
    blocking: Blocking,
    output: String,
}

impl ApiServer {
    /// Start a `sim` verb: moving time and breaking things are the cluster admin's, so
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
                "the body must be {\"command\": \"WORDS\"}, the words after `sim`".into(),
            );
            return Reply::Response(HttpResponse::error(&e, None, ""));
        };
        let line = format!("sim {}", words.trim());
        let mut o = crate::command::start(&mut self.cluster, &line, None, &crate::command::NoFiles);
        match o.blocking.take() {
            Some(blocking) => Reply::Sim(SimRun {
                blocking,
                output: o.output,
            }),
            None => Reply::Response(HttpResponse::text(if o.ok { 200 } else { 400 }, o.output)),
        }
    }

    /// Run a `sim advance`/`sim settle` on: until `out_of_time()` (asked between
    /// simulated instants) says stop — then it comes back as [`Reply::Sim`], to be run
    /// on later — or until it got there, and the answer is what the console prints.
    pub fn sim_continue(
        &mut self,
        mut run: SimRun,
        out_of_time: &mut dyn FnMut() -> bool,
    ) -> Reply {
        while let Some(goal) = run.blocking.clock_goal() {
            let done = run.blocking.run_clock(&mut self.cluster, goal, out_of_time);
            self.collect();
            if !done {
                return Reply::Sim(run);
            }
        }
        // There: it prints, as the console's does when the clock gets there.
        run.blocking.poll(&mut self.cluster);
        run.output.push_str(&run.blocking.output);
        let code = if run.blocking.failed { 400 } else { 200 };
        Reply::Response(HttpResponse::text(code, run.output))
    }
}
