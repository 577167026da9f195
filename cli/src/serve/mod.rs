//! `kubeplay-cli serve`: the simulated cluster behind a Kubernetes API endpoint on
//! `https://127.0.0.1:PORT`, for real kubectl and every other client.
//!
//! - HTTP/1.1 is hyper's, on tokio, over rustls; the CA and the serving certificate are
//!   made at start ([`crate::tls`]) and the CA goes into the written kubeconfig with a
//!   bearer token for each user ([`crate::kubeconfig`]).
//! - The engine is pure (`kubeplay_engine::rest`): HTTP becomes a
//!   [`HttpRequest`](kubeplay_engine::rest::HttpRequest) and the engine's thread answers
//!   it ([`engine`]); watches stream as the client reads ([`watch`]).
//! - The server has limits of its own ([`limits`]): the head's size and fields, the
//!   body's size (3 MiB) and read time, idle connections, a cap on connections,
//!   bodies held in memory, watches whose clients stop reading.
//! - A web page cannot drive it ([`http`]): the `Host` must be the server's address,
//!   a browser's `Origin` is refused unless `--allow-origin` allows it, writes need a
//!   Kubernetes media type, and every request a token.

mod body;
mod engine;
mod http;
pub mod limits;
mod listen;
mod watch;

use crate::{kubeconfig, tls};
use engine::{Engine, Line};
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::rest::ApiServer;
use std::io::Write;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::Semaphore;

/// The server's usage line.
pub const SERVE_USAGE: &str = "kubeplay-cli serve [--port 6443] [--kubeconfig FILE] [--scenario ID|FILE] [--seed N] [--realtime] [--allow-origin ORIGIN]... [--max-connections N]";

/// How many API requests the server answered and how long ago the last came.
pub const ACTIVITY_PATH: &str = "/kubeplay/v1/activity";

/// What the flags ask for.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// The port on 127.0.0.1 (0: any free one).
    pub port: u16,
    /// Where the kubeconfig is written.
    pub kubeconfig: String,
    /// A lesson's id or a scenario file to start from.
    pub scenario: Option<String>,
    /// The clock runs with the wall.
    pub realtime: bool,
    /// Web origins whose requests are served (`*`: any).
    pub allowed_origins: Vec<String>,
    /// Connections served at once, at most.
    pub max_connections: usize,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            port: 6443,
            kubeconfig: "kubeplay.kubeconfig".into(),
            scenario: None,
            realtime: false,
            allowed_origins: Vec::new(),
            max_connections: limits::MAX_CONNECTIONS,
        }
    }
}

/// Read the flags.
pub fn parse_flags(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut i = 0;
    while i < args.len() {
        let (name, inline) = match args[i].split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (args[i].clone(), None),
        };
        let mut value = || {
            inline.clone().or_else(|| {
                i += 1;
                args.get(i).cloned()
            })
        };
        match name.as_str() {
            "--port" => {
                o.port = value()
                    .and_then(|v| v.parse().ok())
                    .ok_or("--port takes a port number")?
            }
            "--kubeconfig" => o.kubeconfig = value().ok_or("--kubeconfig takes a file")?,
            "--scenario" => {
                o.scenario = Some(value().ok_or("--scenario takes a lesson id or a file")?)
            }
            "--realtime" => o.realtime = true,
            "--allow-origin" => o
                .allowed_origins
                .push(value().ok_or("--allow-origin takes an origin (https://host:port) or *")?),
            "--max-connections" => {
                o.max_connections = value()
                    .and_then(|v| v.parse().ok())
                    .filter(|&n: &usize| n > 0)
                    .ok_or("--max-connections takes a number above 0")?
            }
            other => return Err(format!("unknown flag \"{other}\"")),
        }
        i += 1;
    }
    Ok(o)
}

/// What every request's handling shares.
pub struct State {
    engine: Engine,
    port: u16,
    allowed_origins: Vec<String>,
    activity: http::Activity,
    /// Room for request bodies held in memory ([`limits::BODY_BUDGET_BYTES`]).
    body_budget: Arc<Semaphore>,
    /// Turns to hold a decoded body ([`limits::DECODED_BODIES`]).
    decoding: Arc<Semaphore>,
    /// One `sim` verb at a time.
    sim_turn: tokio::sync::Mutex<()>,
}

/// A server started in the background ([`start`]).
pub struct Started {
    /// The port it listens on.
    pub port: u16,
    /// Its CA's certificate, PEM.
    pub ca_pem: String,
}

/// `kubeplay-cli serve …`.
pub fn serve(args: &[String], seed: Option<u64>) -> ExitCode {
    let options = match parse_flags(args) {
        Ok(o) => o,
        Err(why) => {
            eprintln!("kubeplay-cli serve: {why}\nusage: {SERVE_USAGE}");
            return ExitCode::from(2);
        }
    };
    let cluster = match &options.scenario {
        None => Cluster::standard(seed.unwrap_or(1)),
        Some(s) => match open_scenario(s) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("kubeplay-cli: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let (started, _) = std::sync::mpsc::channel();
    match run(options, cluster, started) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("kubeplay-cli: {e}");
            ExitCode::from(2)
        }
    }
}

/// Start a server on its own thread and return once it listens (tests, benchmarks).
pub fn start(options: Options, cluster: Cluster) -> Result<Started, String> {
    let (tx, rx) = std::sync::mpsc::channel();
    let (err_tx, err_rx) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("kubeplay-serve".into())
        .spawn(move || {
            if let Err(e) = run(options, cluster, tx) {
                let _ = err_tx.send(e);
            }
        })
        .map_err(|e| format!("cannot start the server: {e}"))?;
    rx.recv().map_err(|_| {
        err_rx
            .recv()
            .unwrap_or_else(|_| "the server stopped".into())
    })
}

fn open_scenario(s: &str) -> Result<Cluster, String> {
    use kubeplay_engine::scenario;
    let parsed = match scenario::builtin(s) {
        Some(r) => r?,
        None => {
            let text = std::fs::read_to_string(s)
                .map_err(|e| format!("{s}: not a built-in scenario and not a file ({e})"))?;
            scenario::parse(&text, s)?
        }
    };
    scenario::build(&parsed)
}

/// Listen, write the kubeconfig, say where, then serve until the process ends.
fn run(
    options: Options,
    cluster: Cluster,
    started: std::sync::mpsc::Sender<Started>,
) -> Result<(), String> {
    let descriptors = limits::raise_descriptor_limit();
    let cap = limits::connection_cap(options.max_connections, descriptors);
    // Two threads carry HTTP and TLS; the engine has its own.
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("kubeplay-http")
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's threads: {e}"))?;
    runtime.block_on(async move {
        let port = options.port;
        let listener =
            listen(port).map_err(|e| format!("cannot listen on 127.0.0.1:{port}: {e}"))?;
        let port = listener.local_addr().map(|a| a.port()).unwrap_or(port);
        let id = tls::make_identity()?;
        let acceptor = tokio_rustls::TlsAcceptor::from(tls::server_config(&id)?);
        let url = format!("https://127.0.0.1:{port}");
        let path = &options.kubeconfig;
        kubeconfig::write(path, &kubeconfig::kubeconfig_text(&url, &id.ca_pem))
            .map_err(|e| format!("cannot write {path}: {e}"))?;
        let engine = Engine::start(ApiServer::new(cluster))
            .map_err(|e| format!("cannot start the engine's thread: {e}"))?;
        say(&url, path, options.realtime, cap);
        if options.realtime {
            tokio::spawn(clock(engine.clone()));
        }
        let state = Arc::new(State {
            engine,
            port,
            allowed_origins: options.allowed_origins,
            activity: http::Activity::new(),
            body_budget: Arc::new(Semaphore::new(limits::BODY_BUDGET_BYTES)),
            decoding: Arc::new(Semaphore::new(limits::DECODED_BODIES)),
            sim_turn: tokio::sync::Mutex::new(()),
        });
        let _ = started.send(Started {
            port,
            ca_pem: id.ca_pem.clone(),
        });
        listen::accept_loop(listener, acceptor, state, cap).await;
        Ok(())
    })
}

/// The listening socket, with a backlog where clients past the connection cap wait.
fn listen(port: u16) -> std::io::Result<tokio::net::TcpListener> {
    let socket = tokio::net::TcpSocket::new_v4()?;
    // A restarted server gets its port back while old connections linger.
    socket.set_reuseaddr(true)?;
    socket.bind(([127, 0, 0, 1], port).into())?;
    socket.listen(1024)
}

fn say(url: &str, kubeconfig: &str, realtime: bool, cap: usize) {
    // Written, not printed: a closed standard output must not stop the server.
    let mut out = std::io::stdout();
    let _ = writeln!(out, "kubeplay: serving the Kubernetes API on {url}");
    let _ = writeln!(
        out,
        "kubeplay: kubeconfig written to {kubeconfig}; use it with"
    );
    let _ = writeln!(out, "  export KUBECONFIG={kubeconfig}");
    if realtime {
        let _ = writeln!(out, "kubeplay: the clock runs with the wall");
    } else {
        let _ = writeln!(
            out,
            "kubeplay: time stands still between requests; move it with `kubeplay-cli sim advance 30s`"
        );
    }
    let _ = writeln!(out, "kubeplay: at most {cap} connections at once");
    let _ = out.flush();
}

/// The clock of `--realtime`: simulated time follows the wall, in 100 ms steps, each
/// step a slice at most ([`limits::SIM_SLICE`]) so a cluster slower than the wall
/// falls behind instead of holding the engine.
async fn clock(engine: Engine) {
    let start = Instant::now();
    let Some(base) = engine.run(Line::Background, |api| api.cluster.now()).await else {
        return;
    };
    let mut tick = tokio::time::interval(Duration::from_millis(100));
    loop {
        tick.tick().await;
        let target = base + start.elapsed().as_millis() as u64;
        let stepped = engine
            .run(Line::Background, move |api| {
                let slice = Instant::now();
                if target > api.cluster.now() {
                    api.cluster
                        .run_until_within(target, &mut || slice.elapsed() >= limits::SIM_SLICE);
                    api.collect();
                }
            })
            .await;
        if stepped.is_none() {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_flags_are_read_with_their_values_inline_or_after_them() {
        let args: Vec<String> = [
            "--port=0",
            "--kubeconfig",
            "k",
            "--allow-origin",
            "https://a.example",
            "--allow-origin=*",
            "--max-connections",
            "10",
            "--realtime",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let o = parse_flags(&args).unwrap();
        assert_eq!(
            (o.port, o.kubeconfig.as_str(), o.max_connections, o.realtime),
            (0, "k", 10, true)
        );
        assert_eq!(o.allowed_origins, vec!["https://a.example", "*"]);
        assert!(parse_flags(&["--max-connections=0".to_string()]).is_err());
        assert!(parse_flags(&["--nope".to_string()]).is_err());
    }
}
