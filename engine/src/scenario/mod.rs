//! Course scenarios: a YAML file that sets up a cluster for one lesson — its nodes, a
//! setup script in the command language, steps the learner can run with a click, and
//! goals (`sim expect` checks) that tick themselves when the cluster reaches them.
//!
//! ```yaml
//! id: gateway-delete-pod
//! title: { en: "…", zh: "…" }
//! description: { en: "…", zh: "…" }
//! seed: 1                      # optional (default 1)
//! ordered: true                # goals are reached in order (a story: t0, t1, …)
//! cluster:
//!   nodes:
//!     - { name: node-1, cpu: "4", memory: 8Gi, zone: zone-a, labels: { disk: nvme } }
//! setup: |
//!   kubectl create deployment gateway --image=gateway:1.0 --replicas=3
//!   sim settle
//! steps:
//!   - text: { en: "Delete one gateway Pod", zh: "删除一个网关 Pod" }
//!     command: kubectl delete pod {pod:app=gateway} --wait=false
//!     wait: 30s                # how long the runner plays after it (default 30s)
//!     output: deleted          # text its output must contain (checked by the runner)
//!     look: kubectl get pods -o wide   # shown once the wait is over
//!   - text: { en: "Try to delete a node's last Pod", zh: "…" }
//!     command: kubectl drain node-1 --timeout=20s
//!     expect: error            # the command is meant to fail (a lesson about an error)
//! goals:
//!   - label: { en: "Ready back to 3", zh: "就绪数回到 3" }
//!     expect: deployment/gateway {.status.readyReplicas} == 3
//! ```
//!
//! Step commands and goal checks may name objects by selector: `{pod:SELECTOR}` is the
//! first (by name) Pod matching it that is not being deleted, `{newest-pod:SELECTOR}` the
//! most recently created one, `{node-of:SELECTOR}` the first one's node, `{rs:SELECTOR}`
//! the newest ReplicaSet matching it — Pod names are random, a lesson's wording is not.
//! The learner never sees a placeholder: a step shows the command with the names filled
//! in, as it ran ([`shown_command`]).
//!
//! A step's `look` is what it shows once its `wait` is over: commands run on a copy of
//! the cluster then ([`look`]). A step whose point takes time (an eviction after five
//! minutes, a rollout's errors) shows the point there, in the step itself.
//!
//! Every setup line and step command must succeed unless it is marked as meant to fail:
//! the step's `expect: error` (all its commands), or a command line's trailing
//! `# expect error` as in any script. A marked command that succeeds is a failure too.
//!
//! The files: the format's types (`format`), reading and checking a file (`parse`),
//! the built-in lessons (`builtin`), the starting cluster (`build`), placeholders
//! (`placeholders`), goals and predictions (`goals`) and the runner (`runner`).

mod build;
mod builtin;
mod format;
mod goals;
mod parse;
mod placeholders;
mod runner;

pub use build::{build, build_observed, build_with};
pub use builtin::{builtin, builtin_titles, BUILTIN};
pub use format::{Choice, ClusterSpec, Goal, NodeSpec, Predict, Scenario, Step, Text, View};
pub use goals::{goal_met, observed_choice, read, Tracker};
pub use parse::parse;
pub use placeholders::{command_lines, expand, has_placeholder, shown_command};
pub use runner::{look, play, play_with, step_wait, Report, CHECK_EVERY, DEFAULT_WAIT};

#[cfg(test)]
mod tests;
