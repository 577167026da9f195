//! The kubectl subset: verbs, flags and output text as kubectl v1.33 prints them.
//!
//! One file per group of verbs, as kubectl keeps one package per verb under
//! `staging/src/k8s.io/kubectl/pkg/cmd/` (dispatched from `pkg/cmd/cmd.go`):
//! `get.rs` (get, describe), `create.rs` (create and its subcommands, apply),
//! `delete.rs`, `scale.rs`, `update.rs` (set image|resources, label, annotate, patch), `node.rs`
//! (cordon, uncordon, drain, taint), `rollout.rs` and `wait.rs`; what several of them
//! share is in `util.rs`.

mod api_resources;
mod apply;
mod auth;
mod autoscale;
mod cluster_info;
mod csa_upgrade;

mod create;
mod delete;
mod diff;
mod events;
mod explain;
mod explain_v2;
mod expose;
mod get;
mod logs;
mod node;
mod print_flags;
mod raw;
mod refused;
mod rollout;
mod run;
mod scale;
mod set_env;
mod three_way;
mod update;
mod util;
mod version;
mod wait;

use super::{Files, Outcome};
use crate::cluster::Cluster;
use crate::command::client::Client;
use util::{R, RB};

/// A required flag left out: cobra's error, as kubectl v1.33 prints it
/// (`error: required flag(s) "image" not set`; `cli.RunNoErrOutput` leaves the printing
/// to `CheckErr`, never to klog).
fn required_flag(name: &str) -> String {
    format!("error: required flag(s) \"{name}\" not set")
}

/// `--dry-run`'s strategy (`cmdutil.GetDryRunStrategy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DryRun {
    None,
    Client,
    Server,
}

/// The verbs (and `rollout` subcommands) that take `--dry-run` in kubectl
/// (`cmdutil.AddDryRunFlag`); elsewhere the flag is unknown, as in kubectl.
fn takes_dry_run(words: &[String]) -> bool {
    match words.first().map(String::as_str) {
        Some(
            "create" | "apply" | "replace" | "delete" | "scale" | "set" | "label" | "annotate"
            | "patch" | "cordon" | "uncordon" | "drain" | "taint" | "expose" | "autoscale" | "run",
        ) => true,
        Some("rollout") => matches!(
            words.get(1).map(String::as_str),
            Some("undo" | "pause" | "resume" | "restart")
        ),
        _ => false,
    }
}

/// Take `--dry-run[=VALUE]` out of `words`: the strategy, and the deprecation warning
/// klog prints for a bare or boolean value (`cmdutil.GetDryRunStrategy`).
fn take_dry_run(c: &Cluster, words: &[String]) -> Result<(Vec<String>, DryRun, String), String> {
    let mut rest = Vec::new();
    let mut strategy = DryRun::None;
    let mut warning = String::new();
    for w in words {
        let Some(v) = w.strip_prefix("--dry-run") else {
            rest.push(w.clone());
            continue;
        };
        // pflag's NoOptDefVal: a bare `--dry-run` never takes the next word as its value.
        let v = match v.strip_prefix('=') {
            Some(v) => v,
            None if v.is_empty() => "unchanged",
            None => {
                rest.push(w.clone());
                continue;
            }
        };
        let klog = |line: u32, msg: String| {
            // klog's header: Lmmdd hh:mm:ss.uuuuuu threadid file:line] — from the
            // simulated clock, so transcripts stay deterministic.
            format!(
                "W{} {:>7} helpers.go:{line}] {msg}\n",
                crate::time::klog_stamp(c.now()),
                1
            )
        };
        (strategy, warning) = match v {
            "unchanged" => (
                DryRun::Client,
                klog(
                    702,
                    "--dry-run is deprecated and can be replaced with --dry-run=client.".into(),
                ),
            ),
            "client" => (DryRun::Client, String::new()),
            "server" => (DryRun::Server, String::new()),
            "none" => (DryRun::None, String::new()),
            b @ ("1" | "t" | "T" | "TRUE" | "true" | "True") => (
                DryRun::Client,
                klog(716, format!("--dry-run={b} is deprecated (boolean value) and can be replaced with --dry-run=client.")),
            ),
            b @ ("0" | "f" | "F" | "FALSE" | "false" | "False") => (
                DryRun::None,
                klog(720, format!("--dry-run={b} is deprecated (boolean value) and can be replaced with --dry-run=none.")),
            ),
            other => {
                return Err(format!(
                    "error: Invalid dry-run value ({other}). Must be \"none\", \"server\", or \"client\"."
                ))
            }
        };
    }
    Ok((rest, strategy, warning))
}

/// The words kubectl's printers append to an operation in a dry run
/// (`PrintFlagsWithDryRunStrategy`): `deployment.apps/web created (dry run)`.
const OPERATIONS: &[&str] = &[
    "created",
    "exposed",
    "configured",
    "unchanged",
    "deleted",
    "force deleted",
    "labeled",
    "unlabeled",
    "not labeled",
    "annotated",
    "scaled",
    "image updated",
    "env updated",
    "autoscaled",
    "resource requirements updated",
    "patched",
    "patched (no change)",
    "cordoned",
    "already cordoned",
    "uncordoned",
    "already uncordoned",
    "drained",
    "tainted",
    "untainted",
    "modified",
    "paused",
    "resumed",
    "restarted",
    "rolled back",
    "serverside-applied",
];

fn mark_dry_run(text: &str, suffix: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        let (body, nl) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        let is_op = !body.starts_with("error")
            && !body.starts_with("Warning")
            && OPERATIONS
                .iter()
                .any(|op| body.ends_with(&format!(" {op}")));
        if is_op {
            out.push_str(&format!("{body} {suffix}{nl}"));
        } else if let Some(pod) = body.strip_prefix("evicting pod ") {
            out.push_str(&format!("evicting pod {pod} {suffix}{nl}"));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// `kubectl set --help` (also what `kubectl set` alone prints).
const HELP_SET: &str = include_str!("help/set.txt");
/// `kubectl create secret --help` (also what `kubectl create secret` alone prints).
const HELP_CREATE_SECRET: &str = include_str!("help/create-secret.txt");
/// `kubectl rollout --help` (also what `kubectl rollout` alone prints).
const HELP_ROLLOUT: &str = include_str!("help/rollout.txt");

/// kubectl's help texts, as `kubectl [VERB [SUBCOMMAND]] --help` prints them
/// (transcribed from kubectl's own output), by command path.
const HELP: &[(&str, &str)] = &[
    ("", include_str!("help/kubectl.txt")),
    ("annotate", include_str!("help/annotate.txt")),
    ("apply", include_str!("help/apply.txt")),
    ("cordon", include_str!("help/cordon.txt")),
    ("create", include_str!("help/create.txt")),
    ("create service", include_str!("help/create-service.txt")),
    (
        "create service clusterip",
        include_str!("help/create-service-clusterip.txt"),
    ),
    (
        "create service nodeport",
        include_str!("help/create-service-nodeport.txt"),
    ),
    ("cluster-info", include_str!("help/cluster-info.txt")),
    ("explain", include_str!("help/explain.txt")),
    ("expose", include_str!("help/expose.txt")),
    ("logs", include_str!("help/logs.txt")),
    (
        "create deployment",
        include_str!("help/create-deployment.txt"),
    ),
    (
        "create namespace",
        include_str!("help/create-namespace.txt"),
    ),
    (
        "create poddisruptionbudget",
        include_str!("help/create-poddisruptionbudget.txt"),
    ),
    (
        "create priorityclass",
        include_str!("help/create-priorityclass.txt"),
    ),
    ("delete", include_str!("help/delete.txt")),
    ("describe", include_str!("help/describe.txt")),
    ("diff", include_str!("help/diff.txt")),
    ("drain", include_str!("help/drain.txt")),
    ("get", include_str!("help/get.txt")),
    ("label", include_str!("help/label.txt")),
    ("patch", include_str!("help/patch.txt")),
    ("rollout", HELP_ROLLOUT),
    ("rollout history", include_str!("help/rollout-history.txt")),
    ("rollout pause", include_str!("help/rollout-pause.txt")),
    ("rollout restart", include_str!("help/rollout-restart.txt")),
    ("rollout resume", include_str!("help/rollout-resume.txt")),
    ("rollout status", include_str!("help/rollout-status.txt")),
    ("rollout undo", include_str!("help/rollout-undo.txt")),
    ("replace", include_str!("help/replace.txt")),
    ("scale", include_str!("help/scale.txt")),
    ("set", HELP_SET),
    ("create secret", HELP_CREATE_SECRET),
    ("set image", include_str!("help/set-image.txt")),
    ("set resources", include_str!("help/set-resources.txt")),
    ("taint", include_str!("help/taint.txt")),
    ("uncordon", include_str!("help/uncordon.txt")),
    ("version", include_str!("help/version.txt")),
    ("wait", include_str!("help/wait.txt")),
];

/// The help `kubectl WORDS…` asks for, if it asks: no words at all, `help [VERB…]`,
/// or `-h`/`--help` anywhere before `--` (cobra answers help before it parses the
/// other flags). Subcommand aliases resolve as kubectl's do.
fn help_for(words: &[String]) -> Option<Outcome> {
    let asks = words.is_empty()
        || words[0] == "help"
        || words
            .iter()
            .take_while(|w| *w != "--")
            .any(|w| w == "-h" || w == "--help" || w == "--help=true");
    if !asks {
        return None;
    }
    let path: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .filter(|w| !w.starts_with('-') && *w != "help")
        .take(3)
        .map(|w| match w {
            "deploy" => "deployment",
            "ns" => "namespace",
            "pdb" => "poddisruptionbudget",
            "pc" => "priorityclass",
            "svc" => "service",
            other => other,
        })
        .collect();
    // The longest command path with a help text: `rollout status web` → `rollout status`.
    for n in (0..=path.len()).rev() {
        let key = path[..n].join(" ");
        if let Some((_, text)) = HELP.iter().find(|(k, _)| *k == key) {
            if n == 0 && !path.is_empty() {
                // An unknown verb: cobra's error, not the top-level help.
                return None;
            }
            return Some(Outcome::ok(text.to_string()));
        }
    }
    None
}

/// kubectl's global flags may come before the verb (`kubectl -n kube-system get pods`):
/// `-n`/`--namespace` there moves after it, where every verb reads it.
fn verb_first(words: &[String]) -> Vec<String> {
    let mut globals = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let w = &words[i];
        if w == "-n" || w == "--namespace" {
            if i + 1 >= words.len() {
                // No value (and no verb): cobra's own error, as kubectl prints it.
                break;
            }
            globals.extend(words[i..i + 2].iter().cloned());
            i += 2;
        } else if w.starts_with("--namespace=") || (w.starts_with("-n") && w.len() > 2) {
            globals.push(w.clone());
            i += 1;
        } else {
            break;
        }
    }
    let mut out = words[i..].to_vec();
    if matches!(
        out.first().map(String::as_str),
        Some("cordon" | "uncordon" | "drain" | "taint" | "version")
    ) {
        // A global flag these verbs have no use for (Nodes have no namespace): kubectl
        // accepts and ignores it anywhere on the line.
        let mut kept = Vec::new();
        let mut j = 0;
        while j < out.len() {
            let w = &out[j];
            if w == "-n" || w == "--namespace" {
                j += 2;
                continue;
            }
            if !(w.starts_with("--namespace=") || (w.starts_with("-n") && w.len() > 2)) {
                kept.push(w.clone());
            }
            j += 1;
        }
        return kept;
    }
    out.extend(globals);
    out
}

/// Run `kubectl WORDS…` (the words after `kubectl`): the verb picks the command.
pub fn run(c: &mut Cluster, words: &[String], stdin: Option<&str>, files: &dyn Files) -> Outcome {
    let words = &verb_first(words);
    if let Some(help) = help_for(words) {
        return help;
    }
    // kubectl's own file: no request at all.
    if words.first().is_some_and(|w| w == "config") {
        return auth::config(c, &words[1..]);
    }
    let (words, as_user, as_groups) = match crate::command::client::take_impersonation(words) {
        Ok(x) => x,
        Err(e) => return Outcome::err(format!("{e}\n")),
    };
    let (words, token) = match crate::command::client::take_token(&words) {
        Ok(x) => x,
        Err(e) => return Outcome::err(format!("{e}\n")),
    };
    let (words, request_timeout) = match crate::command::client::take_request_timeout(&words) {
        Ok(x) => x,
        Err(e) => return Outcome::err(format!("{e}\n")),
    };
    let words = &words;
    if c.apiserver_down() {
        if let Some(o) = refused::refused(c, words) {
            return o;
        }
    }
    let raw_identity = raw::RawIdentity {
        token: token.clone(),
        impersonate: as_user.clone().map(|u| (u, as_groups.clone())),
    };
    if let Some(o) = raw::get_raw(c, words, &raw_identity) {
        return o;
    }
    if words.first().map(String::as_str) == Some("version") {
        return version::version(c, &words[1..], &raw_identity);
    }
    let command = format!("kubectl {}", words.join(" "));
    let mut k = Client::new(c, &command, as_user.map(|u| (u, as_groups))).with_token(token);
    k.request_timeout = request_timeout;
    let o = run_sent(c, &k, words, stdin, files);
    // A token the authenticator refuses, or an impersonation the user may not do, is
    // met in discovery, before the verb's own requests: kubectl prints it alone.
    match k.identity_error() {
        Some(e) => Outcome::err(format!("{}\n", e.kubectl_text())),
        None => o,
    }
}

/// The command with its `--dry-run`: kubectl's dry runs, then the verb.
fn run_sent(
    c: &mut Cluster,
    k: &Client,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
) -> Outcome {
    if !takes_dry_run(words) {
        return run_verb(c, k, words, stdin, files);
    }
    let (words, strategy, warning) = match take_dry_run(c, words) {
        Ok(x) => x,
        Err(e) => return Outcome::err(e),
    };
    if strategy == DryRun::None {
        let mut o = run_verb(c, k, &words, stdin, files);
        o.output.insert_str(0, &warning);
        return o;
    }
    let mut k = k.clone();
    let mut o = if strategy == DryRun::Server {
        // Every write goes to the API server as a dry run: each passes every stage,
        // and none is stored.
        k.server_dry_run = true;
        run_verb(c, &k, &words, stdin, files)
    } else {
        // A client dry run sends no write: kubectl works on its own copy of what it
        // reads, which is then dropped (its reads are kept in the request log).
        k.client_dry_run = true;
        let mut scratch = c.clone();
        let before = c.request_log().recent.back().map_or(0, |r| r.n);
        let o = client_dry_run(&mut scratch, &k, &words, stdin, files);
        c.adopt_requests(scratch.request_log(), before);
        o
    };
    // A dry run does not wait: nothing was really deleted or evicted. A drain that
    // would have waited for its evictions is done (`deleteOrEvictPodsSimple` returns
    // at once in a dry run, and RunDrain prints the node drained).
    if o.blocking.take().is_some() && words.first().map(String::as_str) == Some("drain") {
        let node = o.output.lines().find_map(|l| {
            l.strip_suffix(" cordoned")
                .or_else(|| l.strip_suffix(" already cordoned"))
        });
        if let Some(node) = node {
            o.output = format!("{}{node} drained\n", o.output);
        }
    }
    let suffix = if strategy == DryRun::Server {
        "(server dry run)"
    } else {
        "(dry run)"
    };
    o.output = format!("{warning}{}", mark_dry_run(&o.output, suffix));
    o
}

/// A client dry run, on kubectl's own copy of the cluster: a generator prints the
/// object it built; `run`, `drain`, `expose` and `rollout` decide without the server.
fn client_dry_run(
    scratch: &mut Cluster,
    k: &Client,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
) -> Outcome {
    let result = |r: R| match r {
        Ok(s) => Outcome::ok(s),
        Err(e) => Outcome::err(e),
    };
    match words.first().map(String::as_str) {
        Some("create") => result(create::create_with(
            scratch,
            k,
            &words[1..],
            stdin,
            files,
            true,
        )),
        Some("run") => result(run::run_pod(scratch, k, &words[1..], true)),
        Some("drain") => blocking(node::drain_with(scratch, k, &words[1..], true)),
        Some("expose") => result(expose::expose(scratch, k, &words[1..], true)),
        Some("rollout") => blocking(rollout::rollout_with(scratch, k, &words[1..], true)),
        _ => run_verb(scratch, k, words, stdin, files),
    }
}

/// Whether an argument after the verb names a type `is` accepts, alone, in a list
/// (`svc,ep`) or as `TYPE/NAME`.
fn names_type(words: &[String], is: impl Fn(&str) -> bool) -> bool {
    words
        .iter()
        .skip(1)
        .filter(|w| !w.starts_with('-'))
        .any(|w| w.split(',').any(|t| is(t.split('/').next().unwrap_or(""))))
}

/// Run one verb (no `--dry-run` left in `words`).
fn run_verb(
    c: &mut Cluster,
    k: &Client,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
) -> Outcome {
    let mut o = run_verb_inner(c, k, words, stdin, files);
    // Warnings not printed with an object's line yet (admission's `would violate …`,
    // v1 Endpoints' deprecation) come before the answer.
    o.output.insert_str(0, &k.warning_lines());
    if names_events_by_short_name(words) {
        o.output.insert_str(0, EV_AMBIGUOUS);
    }
    o
}

/// The shortcut expander's warning: `ev` is the short name of both core Events and
/// events.k8s.io Events, and the RESTMapper takes the core group's, the one of higher
/// priority.
const EV_AMBIGUOUS: &str =
    "Warning: short name \"ev\" could also match lower priority resource events.events.k8s.io\n";

/// Whether a verb that maps resource types is given `ev` as one (`ev`, `ev,pods`,
/// `ev/NAME`).
fn names_events_by_short_name(words: &[String]) -> bool {
    let maps_types = matches!(
        words.first().map(String::as_str),
        Some(
            "get"
                | "describe"
                | "delete"
                | "label"
                | "annotate"
                | "patch"
                | "wait"
                | "edit"
                | "explain"
        )
    );
    maps_types && names_type(words, |t| t == "ev")
}

fn run_verb_inner(
    c: &mut Cluster,
    k: &Client,
    words: &[String],
    stdin: Option<&str>,
    files: &dyn Files,
) -> Outcome {
    let Some(verb) = words.first() else {
        return Outcome::err("error: kubectl needs a command, e.g. kubectl get pods".into());
    };
    let rest = &words[1..];
    let r = match verb.as_str() {
        "get" => return blocking(get::get(c, k, rest, files)),
        "events" => events::events(c, k, rest),
        "describe" => get::describe(c, k, rest),
        "create" => create::create(c, k, rest, stdin, files),
        "run" => run::run_pod(c, k, rest, false),
        "api-resources" => api_resources::api_resources(rest),
        "api-versions" => api_resources::api_versions(rest),
        "explain" => explain::explain(rest),
        "cluster-info" => cluster_info::cluster_info(c, k, rest),
        "expose" => expose::expose(c, k, rest, false),
        "logs" => logs::logs(c, k, rest),
        "apply" => apply::apply(c, k, rest, stdin, files),
        "diff" => diff::diff(c, k, rest, stdin, files),
        "replace" => apply::replace(c, k, rest, stdin, files),
        "delete" => return blocking(delete::delete(c, k, rest, stdin, files)),
        "scale" => scale::scale(c, k, rest),
        "autoscale" => autoscale::autoscale(c, k, rest),
        "top" => autoscale::top(c, k, rest),
        "set" if rest.first().map(String::as_str) == Some("env") => {
            set_env::set_env(c, k, &rest[1..])
        }
        "set" => update::set(c, k, rest),
        "rollout" => return blocking(rollout::rollout(c, k, rest)),
        "cordon" => node::cordon(c, k, rest, true),
        "uncordon" => node::cordon(c, k, rest, false),
        "drain" => return blocking(node::drain(c, k, rest)),
        "taint" => node::taint(c, k, rest),
        "label" => update::label(c, k, rest, false),
        "annotate" => update::label(c, k, rest, true),
        "patch" => update::patch(c, k, rest),
        "edit" => update::edit(c, k, rest, stdin),
        "wait" => return blocking(wait::wait(c, k, rest)),
        "auth" => return auth::auth(c, k, rest),
        other => Err(format!(
            "error: unknown command \"{other}\" for \"kubectl\"\nRun 'kubectl --help' for usage."
        )),
    };
    match r {
        Ok(s) => Outcome::ok(s),
        Err(e) => Outcome::err(e),
    }
}

/// A verb that may block, as an [`Outcome`] that carries the waiting command.
fn blocking(r: RB) -> Outcome {
    match r {
        Ok((text, b)) => {
            let mut o = Outcome::ok(text);
            o.blocking = b;
            o
        }
        Err(e) => Outcome::err(e),
    }
}
