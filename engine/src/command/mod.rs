//! The command language: a kubectl subset with kubectl's flags and text, plus `sim`
//! verbs for what a real cluster does not let you type. One language for the page's
//! console, the `kubeplay-cli`, scenario scripts and the embed API.

pub mod args;
pub mod client;
pub mod complete;
pub mod drain;
pub(crate) mod kubectl;
pub mod script;
mod sim;
pub mod wait;

pub use sim::controller_code;

use crate::cluster::Cluster;

/// Where `-f FILE` reads from: the CLI reads the disk, the page a map of pasted files.
pub trait Files {
    /// The file's text, or the error kubectl would print after `error: `.
    fn read(&self, path: &str) -> Result<String, String>;
}

/// No files at all (e.g. the embed API).
pub struct NoFiles;

impl Files for NoFiles {
    fn read(&self, path: &str) -> Result<String, String> {
        Err(format!("the path \"{path}\" does not exist"))
    }
}

/// What running one command produced.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    /// The text, exactly as the console shows it (ends with a newline unless empty).
    pub output: String,
    /// False when kubectl would exit non-zero.
    pub ok: bool,
    /// For `sim expect`: whether the expectation held.
    pub expectation: Option<bool>,
    /// A command still waiting for the cluster (`delete`, `rollout status`, `drain`,
    /// `wait`); only [`start`] leaves it here, [`run`] drives it to the end.
    pub blocking: Option<wait::Blocking>,
}

impl Outcome {
    fn ok(output: String) -> Self {
        Outcome {
            output: with_newline(output),
            ok: true,
            expectation: None,
            blocking: None,
        }
    }
    fn err(output: String) -> Self {
        Outcome {
            output: with_newline(output),
            ok: false,
            expectation: None,
            blocking: None,
        }
    }
}

fn with_newline(mut s: String) -> String {
    if !s.is_empty() && !s.ends_with('\n') {
        s.push('\n');
    }
    s
}

/// Run one command line to completion: a blocking command advances the simulated clock
/// until it finishes or times out (the CLI, scripts, and the embed API). `stdin` feeds
/// `-f -` (a heredoc in scripts). Never panics on any input; errors come back as kubectl
/// prints them.
pub fn run(cluster: &mut Cluster, line: &str, stdin: Option<&str>, files: &dyn Files) -> Outcome {
    let mut o = start(cluster, line, stdin, files);
    if let Some(mut b) = o.blocking.take() {
        let served = crate::apiserver::custom::served(&cluster.store);
        crate::apiserver::custom::scope(served, || b.drive(cluster));
        o.output.push_str(&b.output);
        o.ok = !b.failed;
    }
    o
}

/// Start one command: what it printed so far, and — for a blocking command — the
/// [`wait::Blocking`] the caller polls as its clock plays (the page's console).
pub fn start(cluster: &mut Cluster, line: &str, stdin: Option<&str>, files: &dyn Files) -> Outcome {
    // The custom resources served now are what this command's kubectl discovers.
    let served = crate::apiserver::custom::served(&cluster.store);
    crate::apiserver::custom::scope(served, || start_in_scope(cluster, line, stdin, files))
}

fn start_in_scope(
    cluster: &mut Cluster,
    line: &str,
    stdin: Option<&str>,
    files: &dyn Files,
) -> Outcome {
    let words = match args::split_words(line) {
        Ok(w) => w,
        Err(e) => return Outcome::err(format!("error: {e}")),
    };
    match words.first().map(String::as_str) {
        None => Outcome::ok(String::new()),
        Some("kubectl") | Some("k") => kubectl::run(cluster, &words[1..], stdin, files),
        // The `sim` verbs that read files or stdin.
        Some("sim") if words.get(1).map(String::as_str) == Some("import") => {
            match sim::import(cluster, &words[2..], stdin, files) {
                Ok(s) => Outcome::ok(s),
                Err(e) => Outcome::err(e),
            }
        }
        Some("sim") if words.get(1).map(String::as_str) == Some("controller") => {
            match sim::controller(cluster, &words[2..], stdin, files) {
                Ok(s) => Outcome::ok(s),
                Err(e) => Outcome::err(e),
            }
        }
        Some("sim") if words.get(1).map(String::as_str) == Some("webhook") => {
            match sim::webhook(cluster, &words[2..], stdin, files) {
                Ok(s) => Outcome::ok(s),
                Err(e) => Outcome::err(e),
            }
        }
        Some("sim") => sim::run(cluster, &words[1..]),
        Some(other) => Outcome::err(format!(
            "error: unknown command \"{other}\": commands start with kubectl or sim"
        )),
    }
}

/// Verbs and resource names for completion in the console.
pub const KUBECTL_VERBS: &[&str] = &[
    "annotate",
    "api-resources",
    "api-versions",
    "apply",
    "cordon",
    "create",
    "delete",
    "describe",
    "drain",
    "expose",
    "get",
    "label",
    "logs",
    "patch",
    "replace",
    "rollout",
    "run",
    "scale",
    "set",
    "taint",
    "uncordon",
    "version",
    "wait",
];
/// `sim` verbs.
pub const SIM_VERBS: &[&str] = &[
    "advance",
    "settle",
    "time",
    "reset",
    "seed",
    "node",
    "crash",
    "oom",
    "hang",
    "unready",
    "ready",
    "image-fail",
    "image-ok",
    "image-crash",
    "image-warmup",
    "gitops",
    "controller",
    "webhook",
    "why",
    "trace",
    "expect",
    "log",
    "traffic",
    "app",
    "devices",
    "message",
    "nslookup",
    "apiserver",
    "etcd",
    "etcdctl",
    "leader",
    "watch",
    "queues",
];
/// Resource names kubectl accepts here.
pub const RESOURCE_NAMES: &[&str] = &[
    "pods",
    "deployments",
    "replicasets",
    "nodes",
    "events",
    "leases",
    "namespaces",
    "services",
    "endpointslices",
    "endpoints",
    "poddisruptionbudgets",
    "priorityclasses",
    "po",
    "deploy",
    "rs",
    "no",
    "ev",
    "ns",
    "svc",
    "ep",
    "pdb",
    "pc",
];
