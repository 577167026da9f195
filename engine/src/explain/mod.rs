//! Read models: what the page and the `sim` verbs show about *why* the cluster is as it
//! is, computed once here from the store, the watch log and the components' records,
//! so that the page draws and the console prints the same answers.
//!
//! - [`trace`]: the chain of causes behind an object (`sim trace`, the Why tab);
//! - [`pod_path`]: where a Pod is on its way to Ready, and where it is stuck;
//! - [`scores`]: a node's part in a scheduling attempt, plugin by plugin (`sim why`);
//! - [`lanes`]: the order of the components' lanes in the timeline;
//! - [`eviction_in`]: when the taint-eviction controller will evict a Pod.
//!
//! Sentences are [`Phrase`]s — an English template with `{}` holes and its values — so
//! the page can say them in the learner's language; each module lists its templates.

pub mod lanes;
pub mod pod_path;
pub mod scores;
pub mod trace;

use crate::cluster::Cluster;
use crate::time::SimTime;

/// A sentence kept as its English template and values: the page translates the
/// template and fills in the values (names, numbers, Kubernetes' own words: never
/// translated); [`Phrase::text`] is the English.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phrase {
    /// English with `{}` holes: the key into the page's translation table.
    pub template: &'static str,
    /// The values for the holes.
    pub args: Vec<String>,
}

impl Phrase {
    /// Kubernetes' own words (an Event message…): the same in every language.
    pub fn raw(text: String) -> Phrase {
        Phrase {
            template: "{}",
            args: vec![text],
        }
    }

    /// `template` with its holes filled in.
    pub fn fill(template: &str, args: &[String]) -> String {
        let mut out = String::new();
        let mut args = args.iter();
        let mut rest = template;
        while let Some(i) = rest.find("{}") {
            out.push_str(&rest[..i]);
            if let Some(a) = args.next() {
                out.push_str(a);
            }
            rest = &rest[i + 2..];
        }
        out.push_str(rest);
        out
    }

    /// In English.
    pub fn text(&self) -> String {
        Phrase::fill(self.template, &self.args)
    }
}

/// A [`Phrase`] from a template and its values.
pub fn phrase(template: &'static str, args: &[&dyn std::fmt::Display]) -> Phrase {
    Phrase {
        template,
        args: args.iter().map(|a| a.to_string()).collect(),
    }
}

/// A node whose kubelet has gone silent (powered off or partitioned), as the node
/// lifecycle controller sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Silence {
    /// Milliseconds since the controller last observed a heartbeat (a Lease renewal
    /// or a status update).
    pub for_ms: SimTime,
    /// Milliseconds until the controller marks it NotReady (its next monitor tick after
    /// `probeTimestamp + node-monitor-grace-period`); None once it has.
    pub not_ready_in: Option<SimTime>,
}

/// How long node `name` has been silent, when its kubelet does not report (None while
/// it does: a heartbeat every 10 s is not news).
pub fn silence(c: &Cluster, name: &str) -> Option<Silence> {
    use crate::controllers::node_lifecycle::{next_tick_after, NODE_MONITOR_GRACE_PERIOD};
    if c.node_up(name) && !c.node_partitioned(name) {
        return None;
    }
    let now = c.now();
    let probe = *c.controllers.node_lifecycle.probe.get(name)?;
    let node = c
        .store
        .get::<crate::api::Node>(&crate::apiserver::ObjKey::new("", name))?;
    let ready = node.ready_status() == crate::api::ConditionStatus::True;
    Some(Silence {
        for_ms: now.saturating_sub(probe),
        not_ready_in: ready
            .then(|| next_tick_after(probe + NODE_MONITOR_GRACE_PERIOD).saturating_sub(now)),
    })
}

/// Seconds until the taint-eviction controller deletes the Pod `uid`, if it will.
pub fn eviction_in(c: &Cluster, uid: &str) -> Option<SimTime> {
    c.controllers
        .taint_eviction
        .scheduled
        .get(uid)
        .map(|s| s.fire_at.saturating_sub(c.now()) / 1000)
}
