//! "Record a lesson": an author plays in the page, and this writes the session as a
//! scenario file — the starting cluster and setup, one step per command run (with the
//! simulated time that passed before the next), and goals suggested from what changed.
//! The author then edits it (titles, texts, placeholders for random names, goals) in the
//! page's editor, where it is checked with line numbers before it loads.

use crate::api::{Deployment, Event};
use crate::cluster::Cluster;
use crate::scenario::Scenario;
use crate::session::Act;
use crate::time::SimTime;
use std::collections::BTreeMap;

/// Event reasons worth a goal, most telling first: what a lesson is usually about.
const TELLING: &[&str] = &[
    "FailedScheduling",
    "Evicted",
    "NodeNotReady",
    "Unhealthy",
    "BackOff",
    "Killing",
    "SuccessfulCreate",
    "Scheduled",
    "ScalingReplicaSet",
];

/// What a recording started from.
pub enum Base<'a> {
    /// The default playground: three nodes and Deployment `web`.
    Playground,
    /// A lesson, with its file's text (its cluster, setup and seed are kept).
    Lesson(&'a Scenario, &'a str),
}

/// The session as a scenario file. `start` is the world the session started from,
/// `acts` what was done (only commands become steps), `end` the world now.
pub fn write_lesson(
    base: &Base,
    start: &Cluster,
    acts: &[(SimTime, Act)],
    end: &Cluster,
) -> String {
    let mut y = String::new();
    y.push_str("id: my-lesson\n");
    y.push_str("title: { en: \"My lesson\", zh: \"我的课程\" }\n");
    y.push_str("description:\n  en: \"What the learner will see, in a sentence or two.\"\n  zh: \"学习者将看到什么，用一两句话说明。\"\n");
    match base {
        Base::Playground => {
            y.push_str("cluster:\n  nodes:\n    - { name: node-1 }\n    - { name: node-2 }\n    - { name: node-3 }\n");
            y.push_str("setup: |\n");
            for line in playground_setup(start).lines() {
                y.push_str(&format!("  {line}\n"));
            }
        }
        Base::Lesson(s, text) => {
            if s.seed != 1 {
                y.push_str(&format!("seed: {}\n", s.seed));
            }
            // The lesson's own cluster, as its file wrote it.
            let cluster = serde_yaml_ng::from_str::<serde_yaml_ng::Value>(text)
                .ok()
                .and_then(|v| v.get("cluster").cloned())
                .and_then(|c| serde_yaml_ng::to_string(&c).ok())
                .unwrap_or_default();
            y.push_str("cluster:\n");
            for line in cluster.lines() {
                y.push_str(&format!("  {line}\n"));
            }
            y.push_str("setup: |\n");
            for line in s.setup.lines() {
                y.push_str(&format!("  {line}\n"));
            }
        }
    }
    let runs: Vec<(SimTime, &str)> = acts
        .iter()
        .filter_map(|(t, a)| match a {
            Act::Run(text) if !text.trim().is_empty() => Some((*t, text.as_str())),
            _ => None,
        })
        .collect();
    y.push_str(if runs.is_empty() {
        "steps: []\n"
    } else {
        "steps:\n"
    });
    for (i, (t, text)) in runs.iter().enumerate() {
        let next = runs.get(i + 1).map_or(end.now(), |(n, _)| *n);
        y.push_str(&format!(
            "  - text: {{ en: \"Step {n}\", zh: \"第 {n} 步\" }}\n    command: |\n",
            n = i + 1
        ));
        for line in text.trim_end().lines() {
            y.push_str(&format!("      {line}\n"));
        }
        y.push_str(&format!("    wait: {}\n", span(next.saturating_sub(*t))));
    }
    let goals = suggested_goals(start, end);
    y.push_str(if goals.is_empty() {
        "goals: []\n"
    } else {
        "goals:\n"
    });
    for (en, zh, expect) in goals {
        y.push_str(&format!(
            "  - label: {{ en: {}, zh: {} }}\n    expect: {}\n",
            quoted(&en),
            quoted(&zh),
            quoted(&expect)
        ));
    }
    y
}

/// A YAML double-quoted scalar (a JSON string is one).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_default()
}

/// A duration the scenario format reads: whole seconds where they are whole.
fn span(ms: SimTime) -> String {
    if ms % 1000 == 0 {
        format!("{}s", ms / 1000)
    } else {
        format!("{ms}ms")
    }
}

/// The playground's Deployments as a setup that builds them again.
fn playground_setup(start: &Cluster) -> String {
    let mut out = String::new();
    // The learner's Deployments: the DNS add-on's in kube-system comes with the cluster.
    for d in start.store.list_ns::<Deployment>("default") {
        let tpl = &d.spec.template.spec;
        let mut containers = String::new();
        for c in &tpl.containers {
            containers.push_str(&format!(
                "      - name: {}\n        image: {}\n",
                c.name, c.image
            ));
            let req = &c.resources.requests;
            if !req.is_empty() {
                containers.push_str("        resources:\n          requests:\n");
                for (k, v) in req {
                    containers.push_str(&format!("            {k}: {}\n", quoted(&v.to_string())));
                }
            }
        }
        let labels: Vec<String> = d
            .spec
            .template
            .metadata
            .labels
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect();
        out.push_str(&format!(
            "kubectl apply -f - <<EOF\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {name}\nspec:\n  replicas: {r}\n  selector:\n    matchLabels: {{ {l} }}\n  template:\n    metadata:\n      labels: {{ {l} }}\n    spec:\n      containers:\n{containers}EOF\n",
            name = d.metadata.name,
            r = d.spec.replicas,
            l = labels.join(", "),
        ));
    }
    out.push_str("sim settle\n");
    out
}

/// Goals from what changed between `start` and `end`: each Deployment's Ready count
/// that differs, then up to three Event reasons that were written, most telling first.
/// Only what was not already true at the start: a goal is reached by doing the lesson.
fn suggested_goals(start: &Cluster, end: &Cluster) -> Vec<(String, String, String)> {
    let mut goals = Vec::new();
    for d in end.store.list_ns::<Deployment>("default") {
        let ready = d.status.ready_replicas;
        let before = start
            .store
            .list_ns::<Deployment>("default")
            .find(|s| s.metadata.name == d.metadata.name)
            .map(|s| s.status.ready_replicas);
        if before != Some(ready) {
            goals.push((
                format!("{} has {ready} Ready", d.metadata.name),
                format!("{} 有 {ready} 个就绪", d.metadata.name),
                format!(
                    "deployment/{} {{.status.readyReplicas}} == {ready}",
                    d.metadata.name
                ),
            ));
        }
    }
    let count = |c: &Cluster| {
        let mut m: BTreeMap<String, usize> = BTreeMap::new();
        // `count events` counts in the lesson's namespace, as the goal will.
        for e in c.store.list_ns::<Event>("default") {
            *m.entry(e.reason.clone()).or_default() += 1;
        }
        m
    };
    let (b, a) = (count(start), count(end));
    let mut added = 0;
    for reason in TELLING {
        let (was, now) = (
            b.get(*reason).copied().unwrap_or(0),
            a.get(*reason).copied().unwrap_or(0),
        );
        if now > was && added < 3 {
            goals.push((
                format!("{reason} Events: {now}"),
                format!("{reason} Event：{now} 个"),
                format!("count events --field reason={reason} >= {now}"),
            ));
            added += 1;
        }
    }
    goals
}

/// The session as a script `kubeplay-cli run` plays again: the starting world as a
/// snapshot it imports (`sim import`, so any world — the playground, a lesson's, an
/// imported one — starts the same), then each command at its time, with `sim advance`
/// for the time between, up to `end`.
pub fn write_script(start: &Cluster, acts: &[(SimTime, Act)], end: SimTime) -> String {
    let mut out = String::from(
        "# A kubeplay session: `kubeplay-cli run FILE` plays it again.\n# The world it started from, as a snapshot:\nsim import -f - <<EOF\n",
    );
    out.push_str(
        &serde_json::to_string_pretty(&crate::import::snapshot(start)).unwrap_or_default(),
    );
    out.push_str("\nEOF\n");
    let mut now = start.now();
    for (t, a) in acts {
        let Act::Run(text) = a else { continue };
        if text.trim().is_empty() {
            continue;
        }
        if *t > now {
            out.push_str(&format!("sim advance {}\n", span(t - now)));
            now = *t;
        }
        out.push_str(text.trim_end());
        out.push('\n');
    }
    if end > now {
        out.push_str(&format!("sim advance {}\n", span(end - now)));
    }
    out
}
