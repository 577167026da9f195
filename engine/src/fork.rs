//! Fork and compare: from any moment of a session, a second branch with one thing
//! changed (a readiness probe, a PodDisruptionBudget, `maxUnavailable: 0`, a second
//! zone), played on the same clock beside the first, and the first moment the two
//! worlds differ in what a learner can see.
//!
//! The branch is a copy of the session's engine side ([`Machine`]) with the change run
//! in it; determinism does the rest: both branches start from the same world, so every
//! difference is the change's doing.

use crate::api::{Deployment, Node, Pod, ReplicaSet};
use crate::cluster::Cluster;
use crate::explain::Phrase;
use crate::session::{Act, Machine};
use crate::time::SimTime;

/// The second branch.
#[derive(Clone, Debug)]
pub struct Fork {
    /// When it was forked.
    pub at: SimTime,
    /// How many of the first branch's acts came before the fork (acts of the same
    /// moment may come before or after it: the time alone does not say).
    pub acts: usize,
    /// The one change (a command) made in it.
    pub change: String,
    /// The branch's engine side.
    pub m: Machine,
    /// The first moment the two branches differed, once they have.
    pub first_difference: Option<Difference>,
}

/// Where the two branches first differed: the time, and the first line of their
/// outlines ([`outline`]) that differs, in each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Difference {
    /// When.
    pub at: SimTime,
    /// The line in the branch as it is (empty: it has no such line).
    pub main: String,
    /// The line in the branch with the change.
    pub fork: String,
}

impl Fork {
    /// Fork `main` now and make `change` in the new branch. Its console, journal and
    /// waiting command start afresh; an error of the change is returned as printed.
    pub fn start(main: &Machine, change: &str) -> Result<Fork, String> {
        let mut m = main.clone();
        m.pending = None;
        // Nothing waits in the branch: the store keeps no writes for a watch of main's.
        m.cluster.store.follow(None);
        m.queued.clear();
        m.console.clear();
        m.journal.clear();
        m.applied = 0;
        m.goals_reached.clear();
        m.act_and_journal(Act::Run(change.to_string()));
        if let Some(e) = m.console.iter().find(|e| !e.ok) {
            return Err(e.output.trim_end().to_string());
        }
        let mut f = Fork {
            at: m.cluster.now(),
            acts: main.applied,
            change: change.to_string(),
            m,
            first_difference: None,
        };
        f.compare(&main.cluster);
        Ok(f)
    }

    /// A branch as a share link carries it: `main` is the first branch at the moment
    /// it was forked, `journal` the branch's own acts (the change first). Playing it
    /// on ([`Fork::follow`]) replays them at their times. `main` must stand between
    /// instants, with exactly the acts it had done when it was forked: the page's
    /// replay stops there (a copy made inside an instant, or after a later act of the
    /// same moment, is another world, and would find another first difference).
    pub fn resume(main: &Machine, at: SimTime, change: &str, journal: Vec<(SimTime, Act)>) -> Fork {
        let mut m = main.clone();
        m.pending = None;
        m.cluster.store.follow(None);
        m.queued.clear();
        m.console.clear();
        m.goals_reached.clear();
        m.journal = journal;
        m.applied = 0;
        // The change is made and compared at once, as [`Fork::start`] did: before the
        // acts of the same moment that came after the fork (in both journals).
        if let Some((_, act)) = m.journal.first().filter(|(t, _)| *t <= at).cloned() {
            m.apply(&act);
            m.applied = 1;
        }
        let mut f = Fork {
            at,
            acts: main.applied,
            change: change.to_string(),
            m,
            first_difference: None,
        };
        f.compare(&main.cluster);
        f
    }

    /// Play the branch's clock up to `main`'s (one clock for both), within the page's
    /// budget (false: out of time, it catches up next time); then compare the two. A
    /// command waiting in the branch looks at its cluster, as the page's console does.
    pub fn follow(&mut self, main: &Cluster, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        let behind = main.now().saturating_sub(self.m.cluster.now());
        if !self.m.advance_within(behind, out_of_time) {
            return false;
        }
        if self.m.wants_poll() {
            self.m.act_and_journal(Act::Poll);
        }
        if !main.is_mid_instant() && !self.m.cluster.is_mid_instant() {
            self.compare(main);
        }
        true
    }

    /// What the learner does after the fork is done in both branches: `text` runs here
    /// too, at the same moment (the branch first catches up with `main`).
    pub fn also(&mut self, main: &Cluster, text: &str) {
        // Caught up without comparing: `main` has acted already, this branch not yet.
        let behind = main.now().saturating_sub(self.m.cluster.now());
        self.m.advance(behind);
        self.m.act_and_journal(Act::Run(text.to_string()));
    }

    /// Note the first difference, if this is it. The branches are compared where both
    /// clocks stand at the fork's moment or on a [`crate::scenario::CHECK_EVERY`]
    /// boundary — moments a live page and a replay both stop at, so a share link finds
    /// the same first difference (see the page's `advance_all`).
    fn compare(&mut self, main: &Cluster) {
        let now = main.now();
        if self.first_difference.is_some()
            || now != self.m.cluster.now()
            || (now % crate::scenario::CHECK_EVERY != 0 && now != self.at)
        {
            return;
        }
        let (a, b) = (outline(main), outline(&self.m.cluster));
        let n = a.len().max(b.len());
        if let Some(i) = (0..n).find(|&i| a.get(i) != b.get(i)) {
            self.first_difference = Some(Difference {
                at: main.now(),
                main: a.get(i).cloned().unwrap_or_default(),
                fork: b.get(i).cloned().unwrap_or_default(),
            });
        }
    }
}

/// The outline's sentences ([`outline`]): English with `{}` holes, so the page can
/// say each line in the learner's language ([`outline_phrase`]).
pub const TEMPLATES: &[&str] = &[
    "{}: {} wanted, {} updated, {} ready, {} available",
    "{}: {} wanted, {} ready",
    "{}: {}, {} Pods ({} ready, {} terminating)",
    "Pods on no node: {}",
];

/// What a learner sees of a world, one line per thing, without the random parts of
/// names (so two branches compare by what happened, not by what was named): each
/// Deployment's counts, each ReplicaSet's (by template hash), the Pods on each node by
/// phase and readiness, and each node's readiness.
pub fn outline(c: &Cluster) -> Vec<String> {
    outline_phrases(c).iter().map(Phrase::text).collect()
}

/// [`outline`] as sentences kept with their values.
pub fn outline_phrases(c: &Cluster) -> Vec<Phrase> {
    let line = |template: &'static str, args: Vec<String>| Phrase { template, args };
    let mut out = Vec::new();
    for d in c.store.list::<Deployment>() {
        let s = &d.status;
        out.push(line(
            TEMPLATES[0],
            vec![
                format!("deployment/{}", d.metadata.name),
                d.spec.replicas.to_string(),
                s.updated_replicas.to_string(),
                s.ready_replicas.to_string(),
                s.available_replicas.to_string(),
            ],
        ));
    }
    for r in c.store.list::<ReplicaSet>() {
        out.push(line(
            TEMPLATES[1],
            vec![
                format!("replicaset/{}", r.metadata.name),
                r.spec.replicas.to_string(),
                r.status.ready_replicas.to_string(),
            ],
        ));
    }
    // One pass over the Pods: (Pods, ready, terminating) by node; "" is no node.
    let mut on: std::collections::BTreeMap<&str, (usize, usize, usize)> = Default::default();
    for p in c.store.list::<Pod>() {
        let e = on.entry(p.spec.node_name.as_str()).or_default();
        e.0 += 1;
        e.1 += usize::from(p.is_ready());
        e.2 += usize::from(p.metadata.is_deleting());
    }
    for n in c.store.list::<Node>() {
        let (pods, ready, terminating) = on
            .get(n.metadata.name.as_str())
            .copied()
            .unwrap_or_default();
        let status = if n.ready_status() == "True" {
            "Ready"
        } else {
            "NotReady"
        };
        out.push(line(
            TEMPLATES[2],
            vec![
                format!("node/{}", n.metadata.name),
                status.to_string(),
                pods.to_string(),
                ready.to_string(),
                terminating.to_string(),
            ],
        ));
    }
    let pending = on.get("").map_or(0, |e| e.0);
    out.push(line(TEMPLATES[3], vec![pending.to_string()]));
    out
}

/// An [`outline`] line (as a [`Difference`] keeps it) back as its sentence: the
/// template it was filled from and its values; a line of no template is kept whole.
pub fn outline_phrase(text: &str) -> Phrase {
    TEMPLATES
        .iter()
        .find_map(|t| holes(t, text).map(|args| Phrase { template: t, args }))
        .unwrap_or_else(|| Phrase::raw(text.to_string()))
}

/// The values that fill `template`'s holes to make `text`, if it does (a hole's value
/// ends where the next literal part first appears).
fn holes(template: &str, text: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = template.split("{}").collect();
    let mut rest = text.strip_prefix(parts[0])?;
    let mut args = Vec::new();
    for (i, lit) in parts.iter().enumerate().skip(1) {
        let end = if i == parts.len() - 1 {
            if lit.is_empty() {
                rest.len()
            } else {
                rest.strip_suffix(lit).map(str::len)?
            }
        } else {
            rest.find(lit)?
        };
        args.push(rest[..end].to_string());
        rest = &rest[end + lit.len()..];
    }
    rest.is_empty().then_some(args)
}

/// What differs between two worlds, by the thing each [`outline`] line is about
/// (`deployment/web`, `replicaset/web-5d…`, `node/node-1`, `Pods on no node`): the
/// lines one world has and the other has not, or has with other counts. Pods are
/// compared by name too (`pod/web-5d…-x4jzh`: only one world has it, or it runs on
/// another node, or is ready or terminating in one only): a change that names nothing
/// leaves the two worlds drawing the same names, so the same Pod can be followed in
/// both; where names part, the Pods are different Pods and differ.
pub fn differing(a: &Cluster, b: &Cluster) -> std::collections::BTreeSet<String> {
    let mut out = differing_lines(a, b);
    let pods = |c: &Cluster| -> std::collections::BTreeMap<String, (String, bool, bool)> {
        c.store
            .list::<Pod>()
            .map(|p| {
                (
                    format!("pod/{}", p.metadata.name),
                    (
                        p.spec.node_name.clone(),
                        p.is_ready(),
                        p.metadata.is_deleting(),
                    ),
                )
            })
            .collect()
    };
    let (pa, pb) = (pods(a), pods(b));
    out.extend(
        pa.keys()
            .chain(pb.keys())
            .filter(|k| pa.get(*k) != pb.get(*k))
            .cloned(),
    );
    out
}

/// [`differing`] by [`outline`] lines only.
fn differing_lines(a: &Cluster, b: &Cluster) -> std::collections::BTreeSet<String> {
    let by_key = |c: &Cluster| -> std::collections::BTreeMap<String, String> {
        outline(c)
            .into_iter()
            .map(|l| match l.split_once(": ") {
                Some((k, v)) => (k.to_string(), v.to_string()),
                None => (l, String::new()),
            })
            .collect()
    };
    let (a, b) = (by_key(a), by_key(b));
    a.keys()
        .chain(b.keys())
        .filter(|k| a.get(*k) != b.get(*k))
        .cloned()
        .collect()
}
