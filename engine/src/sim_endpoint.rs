//! The `sim` verbs sent to `kubeplay-cli serve` (`POST /kubeplay/v1/sim`), run: the
//! REST adapter authorizes and reads the request ([`crate::rest::Reply::Sim`]); here
//! the console's command runs on the server's cluster.
//!
//! `sim advance` and `sim settle` run the clock, which can take a while (hours of
//! simulated time on a large cluster): they come back as [`Served::Running`], and the
//! server runs them on in slices with [`sim_continue`], answering other clients between
//! slices. Where a slice stops does not change what happens
//! ([`crate::cluster::Cluster::run_until_within`]). The answer is what the console
//! prints: 200 when the command succeeded, 400 when it failed.

use crate::command::wait::Blocking;
use crate::rest::{ApiServer, HttpRequest, HttpResponse, Reply, SimCommand};

/// A `sim advance` or `sim settle` on its way.
#[derive(Debug)]
pub struct SimRun {
    blocking: Blocking,
    output: String,
}

/// What a request to the server comes to.
#[derive(Debug)]
pub enum Served {
    /// The REST adapter's reply (a `sim` command's, once it has run, among them).
    Reply(Reply),
    /// A `sim` command still running the clock: run it on with [`sim_continue`].
    Running(SimRun),
}

/// Answer one request, starting the `sim` command it carries, if any (see
/// [`ApiServer::handle_decoded`] for `decoded`).
pub fn handle(
    api: &mut ApiServer,
    req: &HttpRequest,
    decoded: Option<Result<serde_json::Value, crate::apiserver::ApiError>>,
) -> Served {
    match api.handle_decoded(req, decoded) {
        Reply::Sim(cmd) => start(api, cmd),
        other => Served::Reply(other),
    }
}

/// Start an authorized `sim` command.
pub fn start(api: &mut ApiServer, cmd: SimCommand) -> Served {
    let mut o = crate::command::start(
        &mut api.cluster,
        &cmd.line,
        cmd.stdin.as_deref(),
        &crate::command::NoFiles,
    );
    api.collect();
    match o.blocking.take() {
        Some(blocking) => Served::Running(SimRun {
            blocking,
            output: o.output,
        }),
        None => Served::Reply(Reply::Response(HttpResponse::text(
            if o.ok { 200 } else { 400 },
            o.output,
        ))),
    }
}

/// Run a `sim advance`/`sim settle` on: until `out_of_time()` (asked between simulated
/// instants) says stop — then it comes back as [`Served::Running`], to be run on later —
/// or until it got there, and the answer is what the console prints.
pub fn sim_continue(
    api: &mut ApiServer,
    mut run: SimRun,
    out_of_time: &mut dyn FnMut() -> bool,
) -> Served {
    while let Some(goal) = run.blocking.clock_goal() {
        let done = run.blocking.run_clock(&mut api.cluster, goal, out_of_time);
        api.collect();
        if !done {
            return Served::Running(run);
        }
    }
    // There: it prints, as the console's does when the clock gets there.
    run.blocking.poll(&mut api.cluster);
    api.collect();
    run.output.push_str(&run.blocking.output);
    let code = if run.blocking.failed { 400 } else { 200 };
    Served::Reply(Reply::Response(HttpResponse::text(code, run.output)))
}

/// One request answered to its end, a `sim` run in one piece (tests, tools).
pub fn answer(api: &mut ApiServer, req: &HttpRequest) -> Reply {
    let mut served = handle(api, req, None);
    loop {
        match served {
            Served::Reply(r) => return r,
            Served::Running(run) => served = sim_continue(api, run, &mut || false),
        }
    }
}
