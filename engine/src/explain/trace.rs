//! The why-trace: the chain of causes that produced an object, read back from the watch
//! log (who wrote what, and what it changed) and the Events.
//!
//! For a Pod made by a ReplicaSet it starts upstream — the write that left the
//! ReplicaSet short of Pods (a deletion, an eviction, a scale) and what led to that
//! (the user's change to the Deployment, the node that stopped reporting) — then follows
//! the Pod itself: scheduled (with the filter summary of the scheduler's last attempt),
//! image pulled, started, readiness, and the ReplicaSet counting it Ready.
//!
//! Each step is a template with `{}` holes and its values, so the page can say it in
//! the learner's language; [`Cause::text`] fills it in English (`sim trace`).

use crate::api::{ConditionStatus, Kind, PodPhase};
use crate::apiserver::{ObjKey, WatchEntry, WatchType};
use crate::client::writer;
use crate::cluster::Cluster;
use crate::time::{clock_label, SimTime};

/// Every template a [`Cause`] uses: the keys the page translates.
pub const TEMPLATES: &[&str] = &[
    "saw {} of {} Pods for ReplicaSet {} and created Pod {}",
    "Pod {} (uid {}) finished: phase {}",
    "evicted Pod {} (uid {}): its node is tainted NoExecute",
    "preempted Pod {} (uid {}) to make room",
    "deleted Pod {} (uid {}): its node is gone",
    "deleted Pod {} (uid {})",
    "tainted node {}: {}",
    "marked node {} Ready={}: its kubelet stopped posting status",
    "created ReplicaSet {} ({})",
    "scaled ReplicaSet {}: {}",
    "created {} {} ({})",
    "changed {} {}: {}",
    "{}: {}",
    "created {} {}",
    "removed {} {} from the API server",
    "filtered {} nodes ({} feasible) and bound it to {} (score {})",
    "bound it to {}",
    "readiness passed: Ready ({})",
    "deleted it (graceful: {})",
    "{}",
    "ReplicaSet {} counts it: ready {}/{}",
];

/// One step of the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cause {
    /// When it happened (simulated ms).
    pub time: SimTime,
    /// Who did it: `kubectl`, `replicaset-controller`, `default-scheduler`, `kubelet/node-2`…
    pub actor: String,
    /// What it did, in English with `{}` holes (the key the page translates).
    pub template: &'static str,
    /// The values for the holes (names, numbers, Kubernetes' own words).
    pub args: Vec<String>,
    /// 0 for the object's own history; 1, 2… for the upstream causes that led to it
    /// (each cause one deeper than what it caused).
    pub depth: u8,
    /// How many times this same step happened (a back-off loop says it once, ×N).
    pub repeats: u32,
}

impl Cause {
    fn new(e: &WatchEntry, template: &'static str, args: Vec<String>, depth: u8) -> Self {
        debug_assert!(TEMPLATES.contains(&template), "{template} not in TEMPLATES");
        Cause {
            time: e.time,
            actor: e.writer.clone(),
            template,
            args,
            depth,
            repeats: 1,
        }
    }

    /// The step in English.
    pub fn text(&self) -> String {
        super::Phrase::fill(self.template, &self.args)
    }
}

/// Most steps of an object's own history kept (the newest).
const MAX_OWN: usize = 40;

fn short(uid: &str) -> String {
    uid.chars().take(8).collect()
}

/// The value after the last `field: ` in a change summary (`field: a → b` gives `b`).
fn field_after<'a>(change: &'a str, field: &str) -> Option<&'a str> {
    change.split("; ").find_map(|part| {
        let v = part.strip_prefix(field)?.strip_prefix(": ")?;
        Some(v.rsplit(" → ").next().unwrap_or(v))
    })
}

fn has_field(change: &str, field: &str) -> bool {
    field_after(change, field).is_some()
}

/// The Pod stopped counting as active for its ReplicaSet (upstream `IsPodActive`):
/// deleted, terminating or finished.
fn pod_gone(e: &WatchEntry) -> bool {
    e.kind == Kind::Pod
        && (e.type_ == WatchType::Deleted
            || has_field(&e.change, "metadata.deletionTimestamp")
            || field_after(&e.change, "status.phase")
                .is_some_and(|ph| ph == PodPhase::Failed || ph == PodPhase::Succeeded))
}

/// The chain of causes of the object `kind`/`key`, oldest first (None: no such object
/// ever written).
pub fn trace(c: &Cluster, kind: Kind, key: &ObjKey) -> Option<Vec<Cause>> {
    let log: Vec<&WatchEntry> = c.store.log.iter().collect();
    // The object's uid: the live one, else the newest written under that name.
    let uid = match c.store.get_object(kind, key) {
        Some(o) => o.meta().uid.clone(),
        None => log
            .iter()
            .rev()
            .find(|e| e.kind == kind && &e.key == key)?
            .uid
            .clone(),
    };
    let created = log.iter().position(|e| e.uid == uid)?;
    let mut out = Vec::new();
    upstream(c, created, 0, &mut out);
    out.reverse();
    // A Pod a ReplicaSet made has its creation told upstream ("saw 2 of 3…").
    let told = out.last().is_some_and(|l| l.depth == 0);
    own_history(c, kind, &uid, created + usize::from(told), &mut out);
    if kind == Kind::Pod {
        owner_counts_it_ready(c, &uid, created, &mut out);
    }
    // The object's own steps in time order (the owner's count comes from a later scan).
    let first_own = out.iter().position(|c| c.depth == 0).unwrap_or(out.len());
    crate::sorting::sort_by_key(&mut out[first_own..], |c| c.time);
    Some(out)
}

/// What led to the write at `idx` (its creation), pushed newest first (the caller
/// reverses). Follows ReplicaSet → Deployment → the user, and evictions → the node.
fn upstream(c: &Cluster, idx: usize, depth: u8, out: &mut Vec<Cause>) {
    if depth > 4 {
        return;
    }
    let log: Vec<&WatchEntry> = c.store.log.iter().collect();
    let e = &log[idx];
    let owner = e.owner_uid.as_str();
    match (e.kind, e.writer.as_str()) {
        (Kind::Pod, writer::REPLICASET_CONTROLLER) if !owner.is_empty() => {
            // The latest write before this one that left the ReplicaSet short: one of
            // its Pods going away, its own spec.replicas changing, or its creation.
            let trigger = log[..idx].iter().rposition(|t| {
                (t.owner_uid == owner && pod_gone(t) && t.writer != writer::REPLICASET_CONTROLLER)
                    || (t.uid == owner
                        && (t.type_ == WatchType::Added || has_field(&t.change, "spec.replicas")))
            });
            let (active, wanted) = active_and_wanted(&log, owner, trigger.unwrap_or(idx));
            let rs = rs_name(c, owner);
            out.push(Cause::new(
                e,
                "saw {} of {} Pods for ReplicaSet {} and created Pod {}",
                vec![active.to_string(), wanted, rs, e.key.name.clone()],
                depth,
            ));
            if let Some(t) = trigger {
                let te = &log[t];
                if te.kind == Kind::Pod {
                    out.push(describe_pod_gone(te, depth + 1));
                    if te.writer == writer::TAINT_EVICTION_CONTROLLER {
                        node_cause(c, te, depth + 2, out);
                    }
                } else {
                    replicaset_scaled(te, depth + 1, out);
                    upstream(c, t, depth + 1, out);
                }
            }
        }
        (Kind::ReplicaSet, _) if !owner.is_empty() => {
            // A ReplicaSet's write by the Deployment controller: the user's latest
            // change to the Deployment before it.
            if let Some(t) = log[..idx].iter().rposition(|t| {
                t.uid == owner
                    && t.writer != writer::DEPLOYMENT_CONTROLLER
                    && (t.type_ == WatchType::Added
                        || has_field(&t.change, "spec.replicas")
                        || has_field(&t.change, "image")
                        || has_field(&t.change, "spec.paused"))
            }) {
                let te = &log[t];
                out.push(user_write(te, depth + 1));
            }
        }
        _ => {}
    }
}

/// `(active Pods, spec.replicas)` of ReplicaSet `owner` just after the write at `upto`.
fn active_and_wanted(log: &[&WatchEntry], owner: &str, upto: usize) -> (usize, String) {
    let mut active = std::collections::BTreeSet::new();
    let mut wanted = String::from("?");
    for e in &log[..=upto] {
        if e.uid == owner {
            if let Some(v) = field_after(&e.change, "spec.replicas") {
                wanted = v.to_string();
            }
        } else if e.owner_uid == owner && e.kind == Kind::Pod {
            if pod_gone(e) {
                active.remove(e.uid.as_str());
            } else if e.type_ == WatchType::Added {
                active.insert(e.uid.as_str());
            }
        }
    }
    (active.len(), wanted)
}

fn rs_name(c: &Cluster, uid: &str) -> String {
    c.store
        .by_uid(uid)
        .map(|(_, k)| k.name.clone())
        .or_else(|| {
            c.store
                .log
                .iter()
                .find(|e| e.uid == uid)
                .map(|e| e.key.name.clone())
        })
        .unwrap_or_else(|| short(uid))
}

fn describe_pod_gone(e: &WatchEntry, depth: u8) -> Cause {
    let name = e.key.name.clone();
    if let Some(phase) = field_after(&e.change, "status.phase") {
        return Cause::new(
            e,
            "Pod {} (uid {}) finished: phase {}",
            vec![name, short(&e.uid), phase.to_string()],
            depth,
        );
    }
    let t = match e.writer.as_str() {
        writer::TAINT_EVICTION_CONTROLLER => {
            "evicted Pod {} (uid {}): its node is tainted NoExecute"
        }
        writer::DEFAULT_SCHEDULER => "preempted Pod {} (uid {}) to make room",
        writer::POD_GARBAGE_COLLECTOR => "deleted Pod {} (uid {}): its node is gone",
        _ => "deleted Pod {} (uid {})",
    };
    Cause::new(e, t, vec![name, short(&e.uid)], depth)
}

/// Why the taint-eviction controller evicted: the node it ran on went NotReady /
/// unreachable and was tainted.
fn node_cause(c: &Cluster, eviction: &WatchEntry, depth: u8, out: &mut Vec<Cause>) {
    let log: Vec<&WatchEntry> = c.store.log.iter().collect();
    let Some(at) = log.iter().position(|e| std::ptr::eq(*e, eviction)) else {
        return;
    };
    // The node of the Pod: its bind entry.
    let Some(node) = log[..at]
        .iter()
        .rev()
        .find(|e| e.uid == eviction.uid && e.verb == "bind")
        .and_then(|e| field_after(&e.change, "spec.nodeName"))
    else {
        return;
    };
    // The write that added a NoExecute taint (a later NoSchedule one is not the cause).
    let added_no_execute = |e: &WatchEntry| {
        e.change.split("; ").any(|part| {
            part.strip_prefix("spec.taints: ")
                .and_then(|v| v.split_once(" → "))
                .is_some_and(|(before, after)| {
                    after.contains(":NoExecute") && !before.contains(":NoExecute")
                })
        })
    };
    if let Some(t) = log[..at]
        .iter()
        .rposition(|e| e.kind == Kind::Node && e.key.name == node && added_no_execute(e))
    {
        let te = &log[t];
        out.push(Cause::new(
            te,
            "tainted node {}: {}",
            vec![
                node.to_string(),
                field_after(&te.change, "spec.taints")
                    .unwrap_or_default()
                    .to_string(),
            ],
            depth,
        ));
        if let Some(r) = log[..t].iter().rposition(|e| {
            e.kind == Kind::Node && e.key.name == node && has_field(&e.change, "Ready")
        }) {
            let re = &log[r];
            out.push(Cause::new(
                re,
                "marked node {} Ready={}: its kubelet stopped posting status",
                vec![
                    node.to_string(),
                    field_after(&re.change, "Ready")
                        .unwrap_or_default()
                        .to_string(),
                ],
                depth + 1,
            ));
        }
    }
}

fn replicaset_scaled(e: &WatchEntry, depth: u8, out: &mut Vec<Cause>) {
    if e.type_ == WatchType::Added {
        out.push(Cause::new(
            e,
            "created ReplicaSet {} ({})",
            vec![e.key.name.clone(), e.change.clone()],
            depth,
        ));
    } else {
        out.push(Cause::new(
            e,
            "scaled ReplicaSet {}: {}",
            vec![e.key.name.clone(), e.change.clone()],
            depth,
        ));
    }
}

fn user_write(e: &WatchEntry, depth: u8) -> Cause {
    let kind = e.kind.name().to_string();
    if e.type_ == WatchType::Added {
        Cause::new(
            e,
            "created {} {} ({})",
            vec![kind, e.key.name.clone(), e.change.clone()],
            depth,
        )
    } else {
        Cause::new(
            e,
            "changed {} {}: {}",
            vec![kind, e.key.name.clone(), e.change.clone()],
            depth,
        )
    }
}

/// The object's own writes and Events, from its creation on (the newest [`MAX_OWN`]).
fn own_history(c: &Cluster, kind: Kind, uid: &str, created: usize, out: &mut Vec<Cause>) {
    let log: Vec<&WatchEntry> = c.store.log.iter().collect();
    let mut own: Vec<Cause> = Vec::new();
    for e in &log[created..] {
        let cause = if e.uid == uid {
            own_write(c, kind, e)
        } else if e.kind == Kind::Event && e.owner_uid == uid && !e.change.is_empty() {
            Some(Cause::new(
                e,
                "{}: {}",
                vec![e.reason.clone(), e.change.clone()],
                0,
            ))
        } else {
            None
        };
        let Some(cause) = cause else { continue };
        // A step seen before (a back-off loop: Pulling, Failed, BackOff again) is
        // counted on its first occurrence rather than told again.
        if let Some(seen) = own
            .iter_mut()
            .find(|l| l.template == cause.template && l.args == cause.args)
        {
            seen.repeats += 1;
            continue;
        }
        own.push(cause);
    }
    let skip = own.len().saturating_sub(MAX_OWN);
    out.extend(own.into_iter().skip(skip));
}

fn own_write(c: &Cluster, kind: Kind, e: &WatchEntry) -> Option<Cause> {
    let name = e.key.name.clone();
    let kind_name = kind.name().to_string();
    Some(match (e.type_, e.verb) {
        (WatchType::Added, _) => {
            if e.change.is_empty() {
                Cause::new(e, "created {} {}", vec![kind_name, name], 0)
            } else {
                Cause::new(
                    e,
                    "created {} {} ({})",
                    vec![kind_name, name, e.change.clone()],
                    0,
                )
            }
        }
        (WatchType::Deleted, _) => Cause::new(
            e,
            "removed {} {} from the API server",
            vec![kind_name, name],
            0,
        ),
        (_, "bind") => {
            let node = field_after(&e.change, "spec.nodeName")
                .unwrap_or_default()
                .to_string();
            match c
                .scheduler()
                .last_attempt
                .get(&e.key)
                .filter(|a| a.chosen.as_deref() == Some(node.as_str()))
            {
                Some(a) => {
                    let feasible = a.nodes.iter().filter(|v| v.failure.is_none()).count();
                    let score = a
                        .nodes
                        .iter()
                        .find(|v| *v.node == *node)
                        .and_then(|v| v.scores.as_ref())
                        .map(|s| s.total.to_string())
                        .unwrap_or_else(|| "—".into());
                    Cause::new(
                        e,
                        "filtered {} nodes ({} feasible) and bound it to {} (score {})",
                        vec![a.nodes.len().to_string(), feasible.to_string(), node, score],
                        0,
                    )
                }
                None => Cause::new(e, "bound it to {}", vec![node], 0),
            }
        }
        _ if e.change.is_empty() => return None,
        _ if kind == Kind::Pod
            && field_after(&e.change, "Ready").is_some_and(|s| s == ConditionStatus::True) =>
        {
            Cause::new(e, "readiness passed: Ready ({})", vec![e.change.clone()], 0)
        }
        _ if has_field(&e.change, "metadata.deletionTimestamp") => {
            Cause::new(e, "deleted it (graceful: {})", vec![e.change.clone()], 0)
        }
        _ => Cause::new(e, "{}", vec![e.change.clone()], 0),
    })
}

/// After a Pod became Ready: its ReplicaSet's status counting it.
fn owner_counts_it_ready(c: &Cluster, uid: &str, created: usize, out: &mut Vec<Cause>) {
    let log: Vec<&WatchEntry> = c.store.log.iter().collect();
    let Some(owner) = log.get(created).map(|e| e.owner_uid.as_str()) else {
        return;
    };
    if owner.is_empty() {
        return;
    }
    let Some(ready_at) = log[created..]
        .iter()
        .position(|e| {
            e.uid == uid
                && field_after(&e.change, "Ready").is_some_and(|s| s == ConditionStatus::True)
        })
        .map(|i| i + created)
    else {
        return;
    };
    if let Some(e) = log[ready_at..]
        .iter()
        .find(|e| e.uid == owner && has_field(&e.change, "status.readyReplicas"))
    {
        let (_, wanted) = active_and_wanted(&log, owner, log.len() - 1);
        out.push(Cause::new(
            e,
            "ReplicaSet {} counts it: ready {}/{}",
            vec![
                e.key.name.clone(),
                field_after(&e.change, "status.readyReplicas")
                    .unwrap_or_default()
                    .to_string(),
                wanted,
            ],
            0,
        ));
    }
}

/// `sim trace KIND/NAME`: the trace as text, one step a line, causes indented.
pub fn render(causes: &[Cause]) -> String {
    let mut out = String::new();
    for c in causes {
        let indent = "  ".repeat(usize::from(c.depth));
        let times = if c.repeats > 1 {
            format!(" (×{})", c.repeats)
        } else {
            String::new()
        };
        out.push_str(&format!(
            "{:>6}  {}{} {}{times}\n",
            clock_label(c.time),
            indent,
            c.actor,
            c.text()
        ));
    }
    out
}
