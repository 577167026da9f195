//! The kubectl subset: verbs, flags and output text as kubectl v1.33 prints them.
//!
//! One file per group of verbs, as kubectl keeps one package per verb under
//! `staging/src/k8s.io/kubectl/pkg/cmd/` (dispatched from `pkg/cmd/cmd.go`):
//! `get.rs` (get, describe), `create.rs` (create and its subcommands, apply),
//! `delete.rs`, `update.rs` (scale, set image, label, annotate, patch), `node.rs`
//! (cordon, uncordon, drain, taint), `rollout.rs` and `wait.rs`; what several of them
//! share is in `util.rs`.

mod create;
mod delete;
mod get;
mod node;
mod rollout;
mod update;
mod util;
mod wait;

use super::{Files, Outcome};
use crate::cluster::Cluster;
use util::RB;

/// Run `kubectl WORDS…` (the words after `kubectl`): the verb picks the command.
pub fn run(c: &mut Cluster, words: &[String], stdin: Option<&str>, files: &dyn Files) -> Outcome {
    let Some(verb) = words.first() else {
        return Outcome::err("error: kubectl needs a command, e.g. kubectl get pods".into());
    };
    let rest = &words[1..];
    let r = match verb.as_str() {
        "get" => get::get(c, rest, files),
        "describe" => get::describe(c, rest),
        "create" => create::create(c, rest, stdin, files),
        "apply" => create::apply(c, rest, stdin, files),
        "delete" => return blocking(delete::delete(c, rest)),
        "scale" => update::scale(c, rest),
        "set" => update::set(c, rest),
        "rollout" => return blocking(rollout::rollout(c, rest)),
        "cordon" => node::cordon(c, rest, true),
        "uncordon" => node::cordon(c, rest, false),
        "drain" => return blocking(node::drain(c, rest)),
        "taint" => node::taint(c, rest),
        "label" => update::label(c, rest, false),
        "annotate" => update::label(c, rest, true),
        "patch" => update::patch(c, rest),
        "wait" => return blocking(wait::wait(c, rest)),
        "version" => Ok("Client Version: v1.33.0\nKustomize Version: v5.6.0\nServer Version: v1.33.0 (kubeplay)".into()),
        other => Err(format!("error: unknown command \"{other}\" for \"kubectl\"\nRun 'kubectl --help' for usage.")),
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
