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

use crate::api::{Pod, ReplicaSet, LABEL_TOPOLOGY_ZONE};
use crate::apiserver::selectors::parse_label_selector;
use crate::apiserver::FastPaths;
use crate::cluster::Cluster;
use crate::command::{
    self,
    args::{parse_duration, parse_span},
    script, NoFiles,
};
use crate::time::{clock_label, SimTime, SECOND};
use serde::Deserialize;
use std::collections::BTreeMap;

/// A text in both UI languages.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Text {
    /// English.
    pub en: String,
    /// Simplified Chinese.
    pub zh: String,
}

impl Text {
    /// The text in `lang` (`zh…` → Chinese, anything else English).
    pub fn get(&self, lang: &str) -> &str {
        in_lang(lang, &self.en, &self.zh)
    }
}

/// `zh` for a Chinese `lang` (`zh…`), `en` for anything else.
fn in_lang<'a>(lang: &str, en: &'a str, zh: &'a str) -> &'a str {
    if lang.starts_with("zh") {
        zh
    } else {
        en
    }
}

/// One node of the initial cluster.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct NodeSpec {
    /// Name.
    pub name: String,
    /// CPU capacity (`4`, `2500m`).
    #[serde(default = "default_cpu")]
    pub cpu: String,
    /// Memory capacity (`8Gi`).
    #[serde(default = "default_memory")]
    pub memory: String,
    /// Pod capacity.
    #[serde(default = "default_pods")]
    pub pods: u32,
    /// `topology.kubernetes.io/zone`.
    #[serde(default)]
    pub zone: Option<String>,
    /// More labels.
    #[serde(default)]
    pub labels: BTreeMap<String, String>,
    /// Taints as `key=value:Effect`.
    #[serde(default)]
    pub taints: Vec<String>,
}

fn default_cpu() -> String {
    "4".into()
}
fn default_memory() -> String {
    "8Gi".into()
}
fn default_pods() -> u32 {
    110
}
fn default_seed() -> u64 {
    1
}

/// The initial cluster.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct ClusterSpec {
    /// Its nodes.
    pub nodes: Vec<NodeSpec>,
}

/// A step of the lesson: text, and a command the learner can run by clicking.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// What to do or watch.
    pub text: Text,
    /// The command (one line, several, or a heredoc).
    #[serde(default)]
    pub command: Option<String>,
    /// How long the runner lets the clock play after it (default 30s).
    #[serde(default)]
    pub wait: Option<String>,
    /// Text the step must print (a lesson about an error shows the error): one string,
    /// or a list of strings that must all appear, in what its command and its `look`
    /// printed.
    #[serde(default, deserialize_with = "one_or_many")]
    pub output: Vec<String>,
    /// What the learner is shown once the step's `wait` is over: commands run on a copy
    /// of the cluster as it is then, so they change nothing (a step whose point takes
    /// time shows it here, not in a later step).
    #[serde(default)]
    pub look: Option<String>,
    /// `error`: the step's commands are meant to fail.
    #[serde(default)]
    pub expect: Option<String>,
    /// "Predict, then run": a question the learner answers before the step runs; the
    /// page then shows the prediction beside what happened.
    #[serde(default)]
    pub predict: Option<Predict>,
}

/// `output: "text"` or `output: ["a", "b"]`.
fn one_or_many<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum OneOrMany {
        One(String),
        Many(Vec<String>),
    }
    Ok(match OneOrMany::deserialize(d)? {
        OneOrMany::One(s) => vec![s],
        OneOrMany::Many(v) => v,
    })
}

/// A "predict, then run" question: choices, each with the check that makes it what
/// happened, or a number read from the cluster. Either is read once the step's `wait`
/// is over (a moment's state, such as Ready 2 of 3 right after a deletion, is asked
/// about with a short `wait`).
///
/// ```yaml
/// predict:
///   question: { en: "Right after the deletion, how many Pods are Ready?", zh: "…" }
///   number: deployment/gateway {.status.readyReplicas}
/// ```
/// ```yaml
/// predict:
///   question: { en: "Does the replacement keep the deleted Pod's uid?", zh: "…" }
///   choices:
///     - { en: "Yes", zh: "是", when: "count pods -l app=gateway == 99" }
///     - { en: "No: a new uid", zh: "否：新的 uid", when: "count pods -l app=gateway == 3" }
/// ```
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Predict {
    /// The question.
    pub question: Text,
    /// A choice question: the first choice whose `when` holds once the wait is over is
    /// what happened.
    #[serde(default)]
    pub choices: Vec<Choice>,
    /// A number question: what `sim expect` reads for this subject (`KIND/NAME
    /// JSONPATH` or `count KIND …`) once the step's `wait` is over.
    #[serde(default)]
    pub number: Option<String>,
}

/// One answer of a choice question.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Choice {
    /// English.
    pub en: String,
    /// Simplified Chinese.
    pub zh: String,
    /// A `sim expect` check (as a goal's) that holds when this is what happened.
    pub when: String,
}

impl Choice {
    /// The choice's text in `lang`.
    pub fn get(&self, lang: &str) -> &str {
        in_lang(lang, &self.en, &self.zh)
    }
}

/// For a choice question: the first choice whose check holds now.
pub fn observed_choice(c: &mut Cluster, p: &Predict) -> Option<usize> {
    p.choices.iter().position(|ch| {
        goal_met(
            c,
            &Goal {
                label: Text::default(),
                expect: ch.when.clone(),
            },
        )
    })
}

/// What `sim expect` observes for `subject` (`deployment/web {.status.readyReplicas}`,
/// `count pods -l app=web`) now: the value it would compare, placeholders filled in.
pub fn read(c: &mut Cluster, subject: &str) -> Result<String, String> {
    let subject = expand(c, subject)?;
    // Compared with a value nothing equals, the check fails and says what it observed.
    let o = command::run(
        c,
        &format!("sim expect {subject} == \u{1}never"),
        None,
        &NoFiles,
    );
    let got = o
        .output
        .trim_end()
        .strip_suffix(')')
        .and_then(|t| t.rsplit_once(" (observed: "))
        .map(|(_, v)| v.to_string())
        .ok_or_else(|| o.output.trim_end().to_string())?;
    Ok(if got == "<empty>" { String::new() } else { got })
}

/// A goal: a `sim expect` check with a label.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Goal {
    /// What reaching it means.
    pub label: Text,
    /// `KIND/NAME JSONPATH OP VALUE` or `count KIND [-l SEL] [--field F=V] OP VALUE`.
    pub expect: String,
}

/// A scenario file.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// Identifier (`?scenario=<id>`): lowercase letters, digits and `-`.
    pub id: String,
    /// Title.
    pub title: Text,
    /// What the lesson shows.
    pub description: Text,
    /// Open the lesson forked: a second branch with this change (a command), played
    /// beside the first on the same clock ("what if").
    #[serde(default)]
    pub fork: Option<String>,
    /// The random seed (names, tie-breaks).
    #[serde(default = "default_seed")]
    pub seed: u64,
    /// Goals are reached in order: each is checked only once the one before it is.
    #[serde(default)]
    pub ordered: bool,
    /// The initial cluster.
    pub cluster: ClusterSpec,
    /// Commands run before the learner sees the cluster.
    #[serde(default)]
    pub setup: String,
    /// The steps.
    #[serde(default)]
    pub steps: Vec<Step>,
    /// The goals.
    #[serde(default)]
    pub goals: Vec<Goal>,
    /// How long the runner plays after the last step for the goals (default 15m).
    #[serde(default)]
    pub timeout: Option<String>,
    /// The page opens the lesson paused at its first step: the learner reads it, then
    /// runs it or presses Play (default: playing).
    #[serde(default)]
    pub paused: bool,
    /// The page's views the lesson uses beside the chain (the page opens them with the
    /// lesson; the learner can open the others): `[control-plane, timeline]`.
    #[serde(default)]
    pub views: Vec<View>,
}

/// A view of the page beside the chain, as a lesson declares it (`views:`) and an
/// author forces it (`panels=`). The page draws them; the engine only names them, so a
/// scenario file with a misspelt view is refused with the names it accepts.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[serde(rename_all = "kebab-case")]
pub enum View {
    /// The API server, etcd members and leader elections, with buttons to stop and
    /// start them.
    ControlPlane,
    /// One request's path through the API server (authentication … etcd).
    Requests,
    /// The informers and work queues of the controllers.
    Queues,
    /// What if: fork the session with one change and compare the two.
    Compare,
    /// Services: endpoints, traffic and what the users see.
    Services,
    /// Every node's capacity and Pods.
    Board,
    /// The history of changes, to rewind.
    Timeline,
    /// Deployments: rollouts, their revisions and conditions.
    Deployments,
    /// The Kubernetes Events as `kubectl get events` lists them.
    Events,
}

impl View {
    /// Every view, in the order the page lists them.
    pub const ALL: &'static [View] = &[
        View::ControlPlane,
        View::Requests,
        View::Queues,
        View::Compare,
        View::Services,
        View::Board,
        View::Timeline,
        View::Deployments,
        View::Events,
    ];

    /// The name a scenario file and a URL use.
    pub const fn as_str(self) -> &'static str {
        match self {
            View::ControlPlane => "control-plane",
            View::Requests => "requests",
            View::Queues => "queues",
            View::Compare => "compare",
            View::Services => "services",
            View::Board => "board",
            View::Timeline => "timeline",
            View::Deployments => "deployments",
            View::Events => "events",
        }
    }

    /// The view named `s`, if any.
    pub fn parse(s: &str) -> Option<View> {
        View::ALL.iter().copied().find(|v| v.as_str() == s)
    }
}

/// The built-in scenarios, in course order: (id, YAML).
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "gateway-delete-pod",
        include_str!("../scenarios/01-gateway-delete-pod.yaml"),
    ),
    (
        "replacement-pending",
        include_str!("../scenarios/02-replacement-pending.yaml"),
    ),
    (
        "image-pull-backoff",
        include_str!("../scenarios/03-image-pull-backoff.yaml"),
    ),
    (
        "running-not-ready",
        include_str!("../scenarios/04-running-not-ready.yaml"),
    ),
    (
        "restart-vs-replace",
        include_str!("../scenarios/05-restart-vs-replace.yaml"),
    ),
    (
        "notes-api-node-down",
        include_str!("../scenarios/06-notes-api-node-down.yaml"),
    ),
    (
        "submitted-not-running",
        include_str!("../scenarios/07-submitted-not-running.yaml"),
    ),
    (
        "rollout-and-rollback",
        include_str!("../scenarios/08-rollout-and-rollback.yaml"),
    ),
    (
        "drift-reverted",
        include_str!("../scenarios/09-drift-reverted.yaml"),
    ),
    (
        "selectors-and-labels",
        include_str!("../scenarios/10-selectors-and-labels.yaml"),
    ),
    (
        "revision-history-limit",
        include_str!("../scenarios/11-revision-history-limit.yaml"),
    ),
    (
        "scheduling-arithmetic",
        include_str!("../scenarios/12-scheduling-arithmetic.yaml"),
    ),
    (
        "drain-with-pdb",
        include_str!("../scenarios/13-drain-with-pdb.yaml"),
    ),
    (
        "crashloop-backoff",
        include_str!("../scenarios/14-crashloop-backoff.yaml"),
    ),
    (
        "ready-is-not-stored",
        include_str!("../scenarios/15-ready-is-not-stored.yaml"),
    ),
    (
        "rollout-readiness-traffic",
        include_str!("../scenarios/16-rollout-readiness-traffic.yaml"),
    ),
    (
        "node-down-users-side",
        include_str!("../scenarios/17-node-down-users-side.yaml"),
    ),
    (
        "drain-keeps-serving",
        include_str!("../scenarios/18-drain-keeps-serving.yaml"),
    ),
    (
        "control-plane-down",
        include_str!("../scenarios/19-control-plane-down.yaml"),
    ),
    (
        "etcd-quorum-table",
        include_str!("../scenarios/20-etcd-quorum-table.yaml"),
    ),
    (
        "etcd-lost-quorum",
        include_str!("../scenarios/21-etcd-lost-quorum.yaml"),
    ),
    (
        "write-path-refusals",
        include_str!("../scenarios/22-write-path-refusals.yaml"),
    ),
    (
        "leader-killed",
        include_str!("../scenarios/23-leader-killed.yaml"),
    ),
    (
        "watch-broke",
        include_str!("../scenarios/24-watch-broke.yaml"),
    ),
    (
        "two-writers-one-field",
        include_str!("../scenarios/25-two-writers-one-field.yaml"),
    ),
    (
        "three-replicas-one-node",
        include_str!("../scenarios/26-three-replicas-one-node.yaml"),
    ),
    (
        "admission-mutates-and-refuses",
        include_str!("../scenarios/27-admission-mutates-and-refuses.yaml"),
    ),
    (
        "job-two-retry-layers",
        include_str!("../scenarios/28-job-two-retry-layers.yaml"),
    ),
    (
        "cronjob-forbid-skips",
        include_str!("../scenarios/29-cronjob-forbid-skips.yaml"),
    ),
    (
        "what-success-means",
        include_str!("../scenarios/30-what-success-means.yaml"),
    ),
    (
        "daemonset-on-every-node",
        include_str!("../scenarios/31-daemonset-on-every-node.yaml"),
    ),
    (
        "statefulset-at-most-one",
        include_str!("../scenarios/32-statefulset-at-most-one.yaml"),
    ),
    (
        "hpa-up-and-back-down",
        include_str!("../scenarios/33-hpa-up-and-back-down.yaml"),
    ),
    (
        "objects-and-owners",
        include_str!("../scenarios/34-objects-and-owners.yaml"),
    ),
    (
        "diagnosing-a-pod",
        include_str!("../scenarios/35-diagnosing-a-pod.yaml"),
    ),
    (
        "control-plane-machinery",
        include_str!("../scenarios/36-control-plane-machinery.yaml"),
    ),
    (
        "who-keeps-what",
        include_str!("../scenarios/37-who-keeps-what.yaml"),
    ),
    (
        "predict-the-gateway-story",
        include_str!("../scenarios/38-predict-the-gateway-story.yaml"),
    ),
    (
        "predict-more-exercises",
        include_str!("../scenarios/39-predict-more-exercises.yaml"),
    ),
    (
        "reconcile-loop",
        include_str!("../scenarios/40-reconcile-loop.yaml"),
    ),
    (
        "web-from-apply-to-running",
        include_str!("../scenarios/41-web-from-apply-to-running.yaml"),
    ),
    (
        "asking-the-api-server",
        include_str!("../scenarios/42-asking-the-api-server.yaml"),
    ),
];

/// A built-in scenario by id.
pub fn builtin(id: &str) -> Option<Result<Scenario, String>> {
    BUILTIN
        .iter()
        .find(|(i, _)| *i == id)
        .map(|(i, y)| parse(y, &format!("{i}.yaml")))
}

/// Parse and validate a scenario file. Errors name the file and, for YAML, the line
/// and column.
pub fn parse(text: &str, source: &str) -> Result<Scenario, String> {
    // Before the parser, as for manifests (`yaml_depth`).
    crate::yaml_depth::check(text).map_err(|e| {
        format!(
            "error: {source} at line {} column {}: exceeded max depth of {}",
            e.line,
            e.column,
            crate::yaml_depth::MAX_FLOW_DEPTH
        )
    })?;
    crate::yaml_depth::check_expansion(text).map_err(|e| format!("error: {source}: {e}"))?;
    let s: Scenario = serde_yaml_ng::from_str(text).map_err(|e| {
        let at = e
            .location()
            .map(|l| format!(" at line {} column {}", l.line(), l.column()))
            .unwrap_or_default();
        // serde_yaml_ng appends its own "at line…"; say it once, ours first.
        let msg = e.to_string();
        let msg = msg.split(" at line ").next().unwrap_or(&msg).to_string();
        format!("error: {source}{at}: {msg}")
    })?;
    validate(&s).map_err(|e| format!("error: {source}: {e}"))?;
    Ok(s)
}

/// A `sim expect` check's shape: `KIND/NAME JSONPATH OP VALUE` or `count KIND … OP VALUE`.
fn check_expect(expect: &str, at: &str) -> Result<(), String> {
    let words = command::args::split_words(expect).map_err(|e| format!("{at}: {e}"))?;
    if words.len() < 4 {
        return Err(format!(
            "{at}: \"{expect}\" is not KIND/NAME JSONPATH OP VALUE or count KIND … OP VALUE"
        ));
    }
    if !matches!(
        words[words.len() - 2].as_str(),
        "==" | "!=" | ">=" | "<=" | ">" | "<"
    ) {
        return Err(format!(
            "{at}: unknown operator \"{}\"",
            words[words.len() - 2]
        ));
    }
    Ok(())
}

fn validate(s: &Scenario) -> Result<(), String> {
    if s.id.is_empty()
        || !s
            .id
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
    {
        return Err(format!(
            "id \"{}\" must be lowercase letters, digits and '-'",
            s.id
        ));
    }
    if s.cluster.nodes.is_empty() {
        return Err("cluster.nodes: at least one node".into());
    }
    if s.cluster.nodes.len() > 5_000 {
        return Err("cluster.nodes: at most 5000 nodes".into());
    }
    for (i, g) in s.goals.iter().enumerate() {
        check_expect(&g.expect, &format!("goals[{i}].expect"))?;
    }
    for (i, st) in s.steps.iter().enumerate() {
        if let Some(w) = &st.wait {
            parse_span("", w).map_err(|e| format!("steps[{i}].wait: {e}"))?;
        }
        if let Some(c) = &st.command {
            script::parse(c, "step").map_err(|e| format!("steps[{i}].command: {e}"))?;
        }
        if let Some(c) = &st.look {
            script::parse(c, "look").map_err(|e| format!("steps[{i}].look: {e}"))?;
        }
        if let Some(p) = &st.predict {
            match (p.choices.len(), &p.number) {
                (0, Some(_)) | (2.., None) => {}
                _ => {
                    return Err(format!(
                        "steps[{i}].predict: give either two or more choices or a number, not both"
                    ))
                }
            }
            for (j, ch) in p.choices.iter().enumerate() {
                check_expect(&ch.when, &format!("steps[{i}].predict.choices[{j}].when"))?;
            }
            if let Some(n) = &p.number {
                check_expect(&format!("{n} == 0"), &format!("steps[{i}].predict.number"))?;
            }
        }
        if let Some(e) = &st.expect {
            if e != "error" {
                return Err(format!(
                    "steps[{i}].expect: \"{e}\" is not \"error\" (the only outcome a step declares)"
                ));
            }
        }
    }
    if let Some(t) = &s.timeout {
        parse_span("", t).map_err(|e| format!("timeout: {e}"))?;
    }
    if let Some(f) = &s.fork {
        script::parse(f, "fork").map_err(|e| format!("fork: {e}"))?;
    }
    script::parse(&s.setup, "setup").map_err(|e| format!("setup: {e}"))?;
    Ok(())
}

/// The cluster a scenario starts from: its nodes, then its setup script. An error
/// names the setup line that failed and what it printed.
pub fn build(s: &Scenario) -> Result<Cluster, String> {
    build_with(s, FastPaths::ALL)
}

/// [`build`] with the store's shortcuts set to `fast`.
pub fn build_with(s: &Scenario, fast: FastPaths) -> Result<Cluster, String> {
    build_observed(s, fast, &mut |_| {})
}

/// [`build_with`], showing `observe` the world before each setup line runs (the nodes
/// are there, the line's work is not). A page keeps these as the first moments of its
/// history, so a learner can rewind to 0:00 and watch the opening story: the world
/// between two of them is the earlier one with the clock played on, which is what a
/// setup line that moves the clock (`sim settle`, `sim advance`, a waiting
/// `kubectl rollout status`) does.
pub fn build_observed(
    s: &Scenario,
    fast: FastPaths,
    observe: &mut dyn FnMut(&Cluster),
) -> Result<Cluster, String> {
    let mut c = Cluster::new(s.seed);
    c.store.fast = fast;
    for n in &s.cluster.nodes {
        let mut labels: Vec<String> = n.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if let Some(z) = &n.zone {
            labels.push(format!("{LABEL_TOPOLOGY_ZONE}={z}"));
        }
        let mut line = format!(
            "sim node add {} --cpu {} --memory {} --pods {}",
            n.name, n.cpu, n.memory, n.pods
        );
        if !labels.is_empty() {
            line.push_str(&format!(" --labels {}", labels.join(",")));
        }
        if !n.taints.is_empty() {
            line.push_str(&format!(" --taints {}", n.taints.join(",")));
        }
        let o = command::run(&mut c, &line, None, &NoFiles);
        if !o.ok {
            return Err(format!("cluster.nodes {}: {}", n.name, o.output.trim()));
        }
    }
    let lines = script::parse(&s.setup, "setup")?;
    for l in &lines {
        observe(&c);
        let o = command::run(&mut c, &l.command, l.stdin.as_deref(), &NoFiles);
        if o.ok == l.expect_error {
            if o.ok {
                return Err(format!(
                    "setup line {}: {}: succeeded, but the line says {}",
                    l.line,
                    l.command,
                    script::EXPECT_ERROR
                ));
            }
            return Err(format!(
                "setup line {}: {}: {}",
                l.line,
                l.command,
                o.output.trim()
            ));
        }
    }
    Ok(c)
}

/// Replace `{pod:SEL}`, `{newest-pod:SEL}`, `{node-of:SEL}` and `{rs:SEL}` with names
/// from the cluster now.
pub fn expand(c: &Cluster, text: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        let Some(j) = rest[i..].find('}') else { break };
        let inner = &rest[i + 1..i + j];
        let Some((what, sel)) = inner.split_once(':') else {
            out.push_str(&rest[..=i]);
            rest = &rest[i + 1..];
            continue;
        };
        let value = match what {
            "pod" | "node-of" => {
                let s = parse_label_selector(sel)?;
                let p = c
                    .store
                    .list::<Pod>()
                    .filter(|p| !p.metadata.is_deleting() && s.matches(&p.metadata.labels))
                    .min_by(|a, b| a.metadata.name.cmp(&b.metadata.name))
                    .ok_or_else(|| format!("no Pod matches {sel}"))?;
                if what == "pod" {
                    p.metadata.name.clone()
                } else if p.spec.node_name.is_empty() {
                    return Err(format!("Pod {} has no node yet", p.metadata.name));
                } else {
                    p.spec.node_name.clone()
                }
            }
            "newest-pod" => {
                let s = parse_label_selector(sel)?;
                c.store
                    .list::<Pod>()
                    .filter(|p| !p.metadata.is_deleting() && s.matches(&p.metadata.labels))
                    .max_by(|a, b| {
                        (a.metadata.created_ms, &a.metadata.name)
                            .cmp(&(b.metadata.created_ms, &b.metadata.name))
                    })
                    .map(|p| p.metadata.name.clone())
                    .ok_or_else(|| format!("no Pod matches {sel}"))?
            }
            "rs" => {
                let s = parse_label_selector(sel)?;
                c.store
                    .list::<ReplicaSet>()
                    .filter(|r| s.matches(&r.metadata.labels))
                    .max_by(|a, b| {
                        (a.metadata.created_ms, &a.metadata.name)
                            .cmp(&(b.metadata.created_ms, &b.metadata.name))
                    })
                    .map(|r| r.metadata.name.clone())
                    .ok_or_else(|| format!("no ReplicaSet matches {sel}"))?
            }
            _ => {
                // Not ours (a JSONPath `{.status…}`): keep it.
                out.push_str(&rest[..i + j + 1]);
                rest = &rest[i + j + 1..];
                continue;
            }
        };
        out.push_str(&rest[..i]);
        out.push_str(&value);
        rest = &rest[i + j + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// How long the clock plays after a step with no `wait`.
pub const DEFAULT_WAIT: SimTime = 30 * SECOND;

/// How long the clock plays after step `st` before its `look` and its prediction are
/// read: its `wait`, else [`DEFAULT_WAIT`].
pub fn step_wait(st: &Step) -> SimTime {
    st.wait
        .as_deref()
        .and_then(|w| parse_duration(w).ok())
        .unwrap_or(DEFAULT_WAIT)
}

/// The placeholders [`expand`] fills in.
const PLACEHOLDERS: &[&str] = &["pod", "newest-pod", "node-of", "rs"];

/// Whether `text` still holds a placeholder (`{pod:app=web}`): what a learner must never
/// be shown as a command.
pub fn has_placeholder(text: &str) -> bool {
    PLACEHOLDERS
        .iter()
        .any(|p| text.contains(&format!("{{{p}:")))
}

/// A step's command as the learner sees it before it runs: each command line (a
/// heredoc's body left out) with the names filled in from the cluster now, which is what
/// a Run would run. A placeholder that names nothing yet reads `<a Pod with app=web>`,
/// never `{pod:app=web}`.
pub fn shown_command(c: &Cluster, cmd: &str) -> Vec<String> {
    let text = expand(c, cmd).unwrap_or_else(|_| describe_placeholders(cmd));
    command_lines(&text)
}

/// The command lines of a step's text, as the console shows them (`$ …`): a heredoc's
/// body is left out.
pub fn command_lines(text: &str) -> Vec<String> {
    match script::parse(text, "step") {
        Ok(lines) => lines.into_iter().map(|l| l.command).collect(),
        Err(_) => text.lines().map(str::to_string).collect(),
    }
}

/// `{pod:app=web}` → `<a Pod with app=web>` (and the others alike).
fn describe_placeholders(text: &str) -> String {
    let mut out = text.to_string();
    for (p, what) in [
        ("newest-pod", "the newest Pod with"),
        ("pod", "a Pod with"),
        ("node-of", "the node of a Pod with"),
        ("rs", "the newest ReplicaSet with"),
    ] {
        let open = format!("{{{p}:");
        while let Some(i) = out.find(&open) {
            let Some(j) = out[i..].find('}') else { break };
            let sel = out[i + open.len()..i + j].to_string();
            out.replace_range(i..i + j + 1, &format!("<{what} {sel}>"));
        }
    }
    out
}

/// What step `st` shows once its wait is over: each `look` command (`$ …`) and its
/// output, run on a copy of `c`, so nothing in `c` changes. None for a step without one.
pub fn look(c: &Cluster, st: &Step) -> Option<String> {
    let text = st.look.as_ref()?;
    let mut copy = c.clone();
    let text = match expand(&copy, text) {
        Ok(t) => t,
        Err(e) => return Some(format!("error: {e}\n")),
    };
    let lines = match script::parse(&text, "look") {
        Ok(l) => l,
        Err(e) => return Some(format!("{e}\n")),
    };
    let mut out = String::new();
    for l in &lines {
        let o = command::run(&mut copy, &l.command, l.stdin.as_deref(), &NoFiles);
        out.push_str(&format!("$ {}\n{}", l.command, o.output));
        if !o.output.is_empty() && !o.output.ends_with('\n') {
            out.push('\n');
        }
    }
    Some(out)
}

/// The runner's own words, in English or Chinese.
fn words(lang: &str) -> [&'static str; 6] {
    in_lang2(
        lang,
        [
            "goals",
            "expected this command to fail",
            "this command failed",
            "expected the output to contain: ",
            "(none of the choices)",
            "after",
        ],
        [
            "目标",
            "这条命令本应失败",
            "这条命令失败了",
            "输出中应当包含：",
            "（没有一个选项成立）",
            "之后",
        ],
    )
}

fn in_lang2<T>(lang: &str, en: T, zh: T) -> T {
    if lang.starts_with("zh") {
        zh
    } else {
        en
    }
}

/// Which goals are reached, and when. Goals latch: once reached a goal stays reached
/// (a story's "Ready dropped to 2" stays true after Ready is back to 3), except that
/// going back in time un-reaches what was reached later.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tracker {
    /// Per goal: when it was reached.
    pub reached: Vec<Option<SimTime>>,
}

impl Tracker {
    /// Nothing reached yet.
    pub fn new(s: &Scenario) -> Self {
        Tracker {
            reached: vec![None; s.goals.len()],
        }
    }

    /// Check the goals not yet reached against the cluster now; returns the indexes of
    /// those reached by this check.
    pub fn check(&mut self, s: &Scenario, c: &mut Cluster) -> Vec<usize> {
        let mut newly = Vec::new();
        for (i, g) in s.goals.iter().enumerate() {
            if self.reached.get(i).copied().flatten().is_some() {
                continue;
            }
            if s.ordered && i > 0 && self.reached.get(i - 1).copied().flatten().is_none() {
                break;
            }
            if goal_met(c, g) {
                if let Some(r) = self.reached.get_mut(i) {
                    *r = Some(c.now());
                }
                newly.push(i);
            } else if s.ordered {
                break;
            }
        }
        newly
    }

    /// Going back to time `t`: goals reached after it are not reached any more.
    pub fn rewind(&mut self, t: SimTime) {
        for r in &mut self.reached {
            if r.is_some_and(|at| at > t) {
                *r = None;
            }
        }
    }

    /// Every goal reached.
    pub fn all(&self) -> bool {
        self.reached.iter().all(Option::is_some)
    }
}

/// Whether goal `g` holds in the cluster now (a check that cannot be evaluated — its
/// placeholder names nothing yet — does not hold).
pub fn goal_met(c: &mut Cluster, g: &Goal) -> bool {
    let Ok(e) = expand(c, &g.expect) else {
        return false;
    };
    let o = command::run(c, &format!("sim expect {e}"), None, &NoFiles);
    o.expectation == Some(true)
}

/// What [`play`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// `$ command` and output for every step, then the goals with when each was reached.
    pub transcript: String,
    /// Per goal: when it was reached.
    pub reached: Vec<Option<SimTime>>,
    /// Steps whose output lacked the text the scenario says it must contain.
    pub output_mismatches: Vec<usize>,
    /// Steps with a command that failed without being marked as meant to fail, or
    /// that succeeded although marked.
    pub unexpected_results: Vec<usize>,
    /// Per step: the command lines that ran, names filled in (what the learner saw).
    pub ran: Vec<Vec<String>>,
}

impl Report {
    /// Every goal reached, every step printed what it should, and every command
    /// succeeded or failed as the scenario says.
    pub fn passed(&self) -> bool {
        self.reached.iter().all(Option::is_some)
            && self.output_mismatches.is_empty()
            && self.unexpected_results.is_empty()
    }
}

/// Slice of simulated time between goal checks while playing: short enough to see a
/// story's intermediate states (a replacement Pending for a fraction of a second).
pub const CHECK_EVERY: SimTime = 100;

fn play_for(s: &Scenario, c: &mut Cluster, t: &mut Tracker, ms: SimTime, stop_when_done: bool) {
    let end = c.now().saturating_add(ms);
    let mut checked = c.goal_epoch();
    while c.now() < end {
        if stop_when_done && t.all() {
            return;
        }
        // Goals read the objects, which change only when something is written (or,
        // while the control plane is stalled, with the clock: `goal_epoch`): play
        // to the next timer (at most one slice), and check only after a write. Quiet
        // time then costs its timers, not one check per slice.
        let next = c.next_event_time().unwrap_or(end);
        let slice_end = c.now().saturating_add(CHECK_EVERY).min(end);
        c.run_until(next.max(c.now()).min(slice_end).max(c.now()));
        if c.next_event_time().is_none_or(|n| n > slice_end) {
            c.run_until(slice_end);
        }
        if c.goal_epoch() != checked {
            checked = c.goal_epoch();
            t.check(s, c);
        }
    }
}

/// Run a scenario as a learner who follows every step would: build it, then each
/// step's command with the clock playing `wait` after it, then play until every goal
/// is reached or the timeout passes.
pub fn play(s: &Scenario, lang: &str) -> Result<Report, String> {
    play_with(s, lang, FastPaths::ALL).map(|(r, _)| r)
}

/// [`play`] with the store's shortcuts set to `fast` (set before the scenario's
/// cluster is built), returning the cluster too: how a test compares the shortcuts
/// against the plain computations.
pub fn play_with(s: &Scenario, lang: &str, fast: FastPaths) -> Result<(Report, Cluster), String> {
    let mut c = build_with(s, fast)?;
    let mut t = Tracker::new(s);
    t.check(s, &mut c);
    let say = words(lang);
    let mut out = format!("# {}\n# {}\n", s.title.get(lang), s.description.get(lang));
    let mut mismatches = Vec::new();
    let mut unexpected = Vec::new();
    let mut ran = Vec::new();
    for (i, st) in s.steps.iter().enumerate() {
        out.push_str(&format!(
            "\n## {} {}\n",
            clock_label(c.now()),
            st.text.get(lang)
        ));
        let mut printed = String::new();
        let mut commands = Vec::new();
        if let Some(cmd) = &st.command {
            let text = expand(&c, cmd).map_err(|e| format!("steps[{i}]: {e}"))?;
            let lines = script::parse(&text, "step")?;
            let step_fails = st.expect.as_deref() == Some("error");
            for l in &lines {
                commands.push(l.command.clone());
                let o = command::run(&mut c, &l.command, l.stdin.as_deref(), &NoFiles);
                out.push_str(&format!("$ {}\n{}", l.command, o.output));
                printed.push_str(&o.output);
                if o.ok == (step_fails || l.expect_error) {
                    if !unexpected.contains(&i) {
                        unexpected.push(i);
                    }
                    out.push_str(&format!("!! {}\n", if o.ok { say[1] } else { say[2] }));
                }
                t.check(s, &mut c);
            }
        }
        ran.push(commands);
        let wait = step_wait(st);
        play_for(s, &mut c, &mut t, wait, false);
        // What the step shows once its wait is over.
        if let Some(seen) = look(&c, st) {
            let (at, after) = (
                clock_label(c.now()),
                crate::kubelet::format_go_duration(wait),
            );
            out.push_str(&in_lang2(
                lang,
                format!("-- {at} ({after} {})\n{seen}", say[5]),
                format!("-- {at}（{after} {}）\n{seen}", say[5]),
            ));
            printed.push_str(&seen);
        }
        for want in &st.output {
            if !printed.contains(want.as_str()) {
                mismatches.push(i);
                out.push_str(&format!("!! {}{want}\n", say[3]));
            }
        }
        // A "predict, then run" step: what happened, once the wait is over.
        if let Some(p) = &st.predict {
            let answer = match &p.number {
                Some(n) => read(&mut c, n).unwrap_or_else(|e| e),
                None => observed_choice(&mut c, p)
                    .map_or(say[4].to_string(), |k| p.choices[k].get(lang).to_string()),
            };
            out.push_str(&format!("?? {}\n=> {answer}\n", p.question.get(lang)));
        }
    }
    let timeout = s
        .timeout
        .as_deref()
        .map(parse_duration)
        .transpose()?
        .unwrap_or(15 * 60 * SECOND);
    play_for(s, &mut c, &mut t, timeout, true);
    out.push_str(&format!("\n## {}\n", say[0]));
    for (g, r) in s.goals.iter().zip(&t.reached) {
        match r {
            Some(at) => out.push_str(&format!(
                "[x] {} ({})\n",
                g.label.get(lang),
                clock_label(*at)
            )),
            None => out.push_str(&format!("[ ] {}   ({})\n", g.label.get(lang), g.expect)),
        }
    }
    Ok((
        Report {
            transcript: out,
            reached: t.reached,
            output_mismatches: mismatches,
            unexpected_results: unexpected,
            ran,
        },
        c,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_scenario_file_says_where_and_what() {
        let e = parse(
            "id: x\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster:\n  nodes: []\n",
            "mine.yaml",
        )
        .unwrap_err();
        assert_eq!(e, "error: mine.yaml: cluster.nodes: at least one node");
        let e = parse("id: x\ntitel: {en: a}\n", "mine.yaml").unwrap_err();
        assert!(
            e.starts_with("error: mine.yaml at line 2 column 1: unknown field `titel`"),
            "{e}"
        );
        let e = parse("id: [\n", "mine.yaml").unwrap_err();
        assert!(e.starts_with("error: mine.yaml at line"), "{e}");
        let e = parse("id: Bad_Id\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: n1}]}\n", "m.yaml").unwrap_err();
        assert!(e.contains("must be lowercase"), "{e}");
        let e = parse("id: x\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: n1}]}\ngoals:\n  - label: {en: a, zh: b}\n    expect: deployment/x {.spec.replicas} ~ 3\n", "m.yaml").unwrap_err();
        assert!(e.contains("unknown operator \"~\""), "{e}");
    }

    #[test]
    fn a_lesson_names_its_views_and_a_misspelt_view_is_refused_with_the_names_accepted() {
        let head = "id: x\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: n1}]}\n";
        let s = parse(
            &format!("{head}views: [control-plane, timeline]\n"),
            "m.yaml",
        )
        .unwrap();
        assert_eq!(s.views, vec![View::ControlPlane, View::Timeline]);
        assert_eq!(parse(head, "m.yaml").unwrap().views, vec![]);
        let e = parse(&format!("{head}views: [timelime]\n"), "m.yaml").unwrap_err();
        assert!(e.starts_with("error: m.yaml at line 5"), "{e}");
        for v in View::ALL {
            assert!(e.contains(&format!("`{}`", v.as_str())), "{e}");
            assert_eq!(View::parse(v.as_str()), Some(*v));
        }
        assert_eq!(View::parse("chian"), None);
    }

    #[test]
    fn placeholders_name_the_first_pod_its_node_and_the_newest_replicaset() {
        let s = parse(
            "id: t\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: n1}, {name: n2}]}\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=2\n  sim settle\n",
            "t.yaml",
        )
        .unwrap();
        let c = build(&s).unwrap();
        let mut pods: Vec<&Pod> = c.store.list::<Pod>().collect();
        pods.sort_by(|a, b| a.metadata.name.cmp(&b.metadata.name));
        let e = expand(
            &c,
            "kubectl delete pod {pod:app=web} # on {node-of:app=web} {rs:app=web} {.status}",
        )
        .unwrap();
        let rs = c.store.list::<ReplicaSet>().next().unwrap();
        assert_eq!(
            e,
            format!(
                "kubectl delete pod {} # on {} {} {{.status}}",
                pods[0].metadata.name, pods[0].spec.node_name, rs.metadata.name
            )
        );
        assert!(expand(&c, "{pod:app=none}").is_err());
    }

    #[test]
    fn ordered_goals_latch_in_order_and_a_rewind_unreaches_later_ones() {
        let s = parse(
            "id: t\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\nordered: true\ncluster: {nodes: [{name: n1}]}\ngoals:\n  - {label: {en: one node, zh: x}, expect: count nodes == 1}\n  - {label: {en: a deployment, zh: x}, expect: count deployments == 1}\n",
            "t.yaml",
        )
        .unwrap();
        let mut c = build(&s).unwrap();
        let mut t = Tracker::new(&s);
        assert_eq!(t.check(&s, &mut c), vec![0]);
        c.advance(5_000);
        let _ = command::run(
            &mut c,
            "kubectl create deployment web --image=nginx:1.27",
            None,
            &NoFiles,
        );
        assert_eq!(t.check(&s, &mut c), vec![1]);
        assert_eq!(t.reached, vec![Some(0), Some(5_000)]);
        t.rewind(1_000);
        assert_eq!(t.reached, vec![Some(0), None]);
    }

    #[test]
    fn a_steps_look_shows_the_cluster_after_its_wait_and_changes_nothing() {
        let s = parse(
            "id: t\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: n1}]}\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=1\n  sim settle\nsteps:\n  - text: {en: a, zh: b}\n    command: kubectl delete pod {pod:app=web} --wait=false\n    wait: 20s\n    output: [deleted, \"1/1\", \"Successfully assigned\"]\n    look: |\n      kubectl get deployment web\n      sim trace pod/{newest-pod:app=web}\n",
            "t.yaml",
        )
        .unwrap();
        assert_eq!(s.steps[0].output.len(), 3);
        let (r, c) = play_with(&s, "en", FastPaths::ALL).unwrap();
        assert!(r.passed(), "{}", r.transcript);
        assert!(
            r.transcript
                .contains(" (20s after)\n$ kubectl get deployment web\n"),
            "{}",
            r.transcript
        );
        assert!(!r.transcript.contains("{newest-pod:"), "{}", r.transcript);
        // The look ran on a copy: kubectl's requests of the look are not in the cluster.
        let before = c.request_log().recent.len();
        let again = look(&c, &s.steps[0]).unwrap();
        assert!(again.contains("kubectl deleted Pod"), "{again}");
        assert_eq!(c.request_log().recent.len(), before);
        let zh = play(&s, "zh").unwrap().transcript;
        assert!(zh.contains("（20s 之后）\n"), "{zh}");
        assert!(zh.contains("\n## 目标\n"), "{zh}");
    }

    #[test]
    fn a_command_is_shown_with_its_names_filled_in_and_never_as_a_placeholder() {
        let s = parse(
            "id: t\ntitle: {en: a, zh: b}\ndescription: {en: a, zh: b}\ncluster: {nodes: [{name: n1}]}\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=1\n  sim settle\n",
            "t.yaml",
        )
        .unwrap();
        let c = build(&s).unwrap();
        let shown = shown_command(
            &c,
            "kubectl delete pod {pod:app=web}\nkubectl apply -f - <<EOF\nkind: Pod\nEOF\n",
        );
        assert_eq!(shown.len(), 2, "{shown:?}");
        assert!(shown[0].starts_with("kubectl delete pod web-"), "{shown:?}");
        assert_eq!(shown[1], "kubectl apply -f -");
        let none = shown_command(
            &c,
            "kubectl delete pod {pod:app=db}\nsim node ps {node-of:app=db}",
        );
        assert_eq!(
            none,
            vec![
                "kubectl delete pod <a Pod with app=db>".to_string(),
                "sim node ps <the node of a Pod with app=db>".to_string()
            ]
        );
        assert!(!has_placeholder(&none[0]));
        assert!(has_placeholder("sim trace pod/{newest-pod:app=web}"));
    }

    /// A space YAML folding put where Chinese has none: after or before full-width
    /// punctuation, or between two Han characters.
    fn stray_space(zh: &str) -> Option<String> {
        let han = |c: char| ('\u{4e00}'..='\u{9fff}').contains(&c);
        let punct = |c: char| {
            ('\u{3000}'..='\u{303f}').contains(&c) || ('\u{ff01}'..='\u{ff1f}').contains(&c)
        };
        let chars: Vec<char> = zh.chars().collect();
        chars.windows(3).find_map(|w| {
            let [a, sp, b] = [w[0], w[1], w[2]];
            (sp == ' ' && (punct(a) || punct(b) || (han(a) && han(b))))
                .then(|| w.iter().collect::<String>())
        })
    }

    #[test]
    fn the_chinese_texts_of_every_scenario_have_no_stray_spaces_from_line_folding() {
        assert_eq!(stray_space("节点， kubelet").as_deref(), Some("， k"));
        assert_eq!(stray_space("删除一个 Pod，看：就绪数"), None);
        for (id, _) in BUILTIN {
            let s = builtin(id).unwrap().unwrap();
            let texts = [&s.title, &s.description]
                .into_iter()
                .chain(s.steps.iter().map(|st| &st.text))
                .chain(s.goals.iter().map(|g| &g.label));
            for t in texts {
                assert_eq!(stray_space(&t.zh), None, "{id}: {}", t.zh);
            }
        }
    }
}
