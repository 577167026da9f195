//! The lesson format: the types a scenario file deserializes into (the file, its
//! nodes, steps, "predict, then run" questions, goals and the page's views), with
//! their texts in both languages.

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
    /// Whether it runs the DNS add-on (CoreDNS behind `kube-system/kube-dns`), as a
    /// kubeadm cluster does. A lesson whose arithmetic counts every request on its
    /// nodes may leave it out: CoreDNS's Pods request CPU and memory there too.
    #[serde(default = "default_dns")]
    pub dns: bool,
}

fn default_dns() -> bool {
    true
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
    /// The learner's own controller: its JavaScript, its Role, what it did.
    Controller,
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
        View::Controller,
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
            View::Controller => "controller",
        }
    }

    /// The view named `s`, if any.
    pub fn parse(s: &str) -> Option<View> {
        View::ALL.iter().copied().find(|v| v.as_str() == s)
    }
}
