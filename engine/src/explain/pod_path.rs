//! Where is this Pod? Its path to Ready — created → scheduled → image → started →
//! ready (→ terminating) — with the stage it is at, the stage where it is stuck, and the
//! evidence for each in Kubernetes' own words (conditions, container states, Events),
//! plus its last scheduling attempt node by node and its eviction countdown.
//!
//! The stages follow what `kubectl describe pod` lets an engineer read: `PodScheduled`
//! and FailedScheduling, the container states (`ErrImagePull`, `ImagePullBackOff`,
//! `CrashLoopBackOff`, terminated with an exit code), `started` (a startup probe), the
//! `Ready` condition with its message and the `Unhealthy` probe Events.

use super::scores::{breakdown, filter_text};
use super::{eviction_in, phrase, Phrase};
use crate::api::*;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::printers::pod_ready_status;
use crate::time::clock_label;

/// Every template the path's evidence uses: the keys the page translates.
pub const TEMPLATES: &[&str] = &[
    "created at {} by {} {}, uid {}",
    "created at {} by kubectl, uid {}",
    "bound to {}",
    "FailedScheduling: {}",
    "nominated to {}: lower-priority Pods there are being preempted (Preempted events)",
    "waiting in the scheduling queue",
    "init containers first: {}",
    "init container {} ({}): terminated: {} (exit code {})",
    "init container {} ({}): running",
    "init container {} ({}): waiting: {}",
    "init container {} ({}): waiting: {}: {}",
    "init container {} ({})",
    "{}: {}",
    "container {} terminated: {} (exit code {})",
    "restarts: {}",
    "container {} running; its startup probe has not passed yet",
    "restarts: {} (same Pod, same uid)",
    "Ready since {}",
    "node {} is NotReady: the node controller marked the Pod not Ready",
    "Ready=False: {}",
    "deletionTimestamp {}",
];

/// Where a stage of a Pod's path stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StageState {
    /// Passed.
    Done,
    /// In progress now.
    Current,
    /// Stuck here: the evidence says why.
    Stuck,
    /// Not reached yet.
    Pending,
}

/// One stage of the path with its evidence.
#[derive(Clone, Debug, PartialEq)]
pub struct Stage {
    /// `created`, `scheduled`, `image`, `started`, `ready`, `terminating`.
    pub id: &'static str,
    /// Where it stands.
    pub state: StageState,
    /// Evidence lines (Kubernetes' words where it has them).
    pub evidence: Vec<Phrase>,
}

impl Stage {
    /// The stage's name as the page and `sim trace` say it.
    pub fn label(&self) -> &'static str {
        match self.id {
            "image" => "image pulled",
            id => id,
        }
    }

    fn new(id: &'static str, state: StageState, evidence: Vec<Phrase>) -> Stage {
        Stage {
            id,
            state,
            evidence,
        }
    }
}

/// One node's verdict in the Pod's last scheduling attempt.
#[derive(Clone, Debug, PartialEq)]
pub struct VerdictRow {
    /// Node.
    pub node: String,
    /// `feasible` or the filter's reason.
    pub verdict: String,
    /// Total score, when scored.
    pub score: Option<i64>,
    /// Each score plugin's normalized score and weight, when scored.
    pub breakdown: String,
    /// The chosen node.
    pub chosen: bool,
}

/// A Pod's path.
#[derive(Clone, Debug, PartialEq)]
pub struct PodPath {
    /// Name.
    pub name: String,
    /// uid.
    pub uid: String,
    /// STATUS column.
    pub status: String,
    /// The stages.
    pub stages: Vec<Stage>,
    /// The last scheduling attempt, node by node.
    pub verdicts: Vec<VerdictRow>,
    /// Seconds until the taint-eviction controller deletes it, if scheduled.
    pub eviction_in: Option<u64>,
    /// Its containers' names.
    pub containers: Vec<String>,
}

impl PodPath {
    /// The stage where it is stuck, if any.
    pub fn stuck(&self) -> Option<&Stage> {
        self.stages.iter().find(|s| s.state == StageState::Stuck)
    }
}

/// What the stages read off the Pod, once.
struct Facts<'a> {
    pod: &'a Pod,
    /// Its Events: (reason, message), oldest first.
    events: Vec<(String, String)>,
    status: String,
    scheduled: bool,
    /// Waiting containers: (reason, message).
    waiting: Vec<(String, String)>,
    all_started: bool,
    pulled: bool,
    image_stuck: Option<(String, String)>,
}

impl<'a> Facts<'a> {
    fn of(c: &Cluster, pod: &'a Pod) -> Facts<'a> {
        let mut events: Vec<&Event> = c
            .store
            .list::<Event>()
            .filter(|e| e.involved_object.uid == pod.metadata.uid)
            .collect();
        crate::sorting::sort_by(&mut events, |a, b| {
            (a.last_ms, &a.metadata.name).cmp(&(b.last_ms, &b.metadata.name))
        });
        let statuses = &pod.status.container_statuses;
        let waiting: Vec<(String, String)> = statuses
            .iter()
            .filter_map(|c| {
                c.state
                    .waiting
                    .as_ref()
                    .map(|w| (w.reason.clone(), w.message.clone()))
            })
            .collect();
        let all_started =
            !statuses.is_empty() && statuses.iter().all(|c| c.state.running.is_some());
        Facts {
            pod,
            events: events
                .into_iter()
                .map(|e| (e.reason.clone(), e.message.clone()))
                .collect(),
            status: pod_ready_status(pod).1,
            scheduled: !pod.spec.node_name.is_empty(),
            image_stuck: waiting
                .iter()
                .find(|(r, _)| r == "ErrImagePull" || r == "ImagePullBackOff")
                .cloned(),
            pulled: statuses.iter().any(|c| !c.image_id.is_empty()) || all_started,
            waiting,
            all_started,
        }
    }

    /// The messages of its Events with `reason`, oldest first, as they are.
    fn said(&self, reason: &str) -> Vec<Phrase> {
        self.events
            .iter()
            .filter(|(r, _)| r == reason)
            .map(|(_, m)| Phrase::raw(m.clone()))
            .collect()
    }

    /// The first Event with `reason`, if any.
    fn first(&self, reason: &str) -> Vec<Phrase> {
        self.said(reason).into_iter().take(1).collect()
    }
}

/// The path of the Pod `key`.
pub fn pod_path(c: &Cluster, key: &ObjKey) -> Option<PodPath> {
    let p = c.store.get::<Pod>(key)?;
    let f = Facts::of(c, p);
    let mut stages = vec![
        created(p),
        scheduled(&f),
        image(&f),
        started(&f),
        ready(c, &f),
    ];
    if p.metadata.is_deleting() {
        stages.push(Stage::new(
            "terminating",
            StageState::Current,
            vec![phrase(
                "deletionTimestamp {}",
                &[&p.metadata.deletion_timestamp.clone().unwrap_or_default()],
            )],
        ));
    }
    Some(PodPath {
        name: key.name.clone(),
        uid: p.metadata.uid.clone(),
        status: f.status,
        stages,
        verdicts: verdict_rows(c, key),
        eviction_in: eviction_in(c, &p.metadata.uid),
        containers: p.spec.containers.iter().map(|c| c.name.clone()).collect(),
    })
}

fn created(p: &Pod) -> Stage {
    let at = clock_label(p.metadata.created_ms);
    let uid = &p.metadata.uid[..8.min(p.metadata.uid.len())];
    let by = match p.metadata.controller_ref() {
        Some(r) => phrase(
            "created at {} by {} {}, uid {}",
            &[&at, &r.kind, &r.name, &uid],
        ),
        None => phrase("created at {} by kubectl, uid {}", &[&at, &uid]),
    };
    Stage::new("created", StageState::Done, vec![by])
}

fn scheduled(f: &Facts) -> Stage {
    let p = f.pod;
    if f.scheduled {
        let mut e = f.said("Scheduled");
        if e.is_empty() {
            e.push(phrase("bound to {}", &[&p.spec.node_name]));
        }
        return Stage::new("scheduled", StageState::Done, e);
    }
    let failed = get_condition(&p.status.conditions, PodConditionType::PodScheduled)
        .filter(|c| c.status == ConditionStatus::False);
    match failed {
        // A preemption is under way: not stuck, waiting for its victims.
        Some(cnd) if !p.status.nominated_node_name.is_empty() => Stage::new(
            "scheduled",
            StageState::Current,
            vec![
                phrase("FailedScheduling: {}", &[&cnd.message]),
                phrase(
                    "nominated to {}: lower-priority Pods there are being preempted (Preempted events)",
                    &[&p.status.nominated_node_name],
                ),
            ],
        ),
        Some(cnd) => Stage::new(
            "scheduled",
            StageState::Stuck,
            vec![phrase("FailedScheduling: {}", &[&cnd.message])],
        ),
        None => Stage::new(
            "scheduled",
            StageState::Current,
            vec![phrase("waiting in the scheduling queue", &[])],
        ),
    }
}

fn image(f: &Facts) -> Stage {
    if !f.scheduled {
        return Stage::new("image", StageState::Pending, vec![]);
    }
    // Init containers run before the app containers' images are even pulled.
    if f.status.starts_with("Init:") {
        return init_containers(f);
    }
    if let Some((r, m)) = &f.image_stuck {
        return Stage::new("image", StageState::Stuck, vec![phrase("{}: {}", &[r, m])]);
    }
    if f.pulled {
        Stage::new("image", StageState::Done, f.first("Pulled"))
    } else {
        Stage::new("image", StageState::Current, f.first("Pulling"))
    }
}

/// The image stage while init containers run: each one's state.
fn init_containers(f: &Facts) -> Stage {
    let p = f.pod;
    let mut e = vec![phrase("init containers first: {}", &[&f.status])];
    for (spec, cs) in p
        .spec
        .init_containers
        .iter()
        .zip(p.status.init_container_statuses.iter())
    {
        let (n, i) = (&spec.name, &spec.image);
        e.push(if let Some(t) = &cs.state.terminated {
            phrase(
                "init container {} ({}): terminated: {} (exit code {})",
                &[n, i, &t.reason, &t.exit_code],
            )
        } else if cs.state.running.is_some() {
            phrase("init container {} ({}): running", &[n, i])
        } else if let Some(w) = &cs.state.waiting {
            if w.message.is_empty() {
                phrase("init container {} ({}): waiting: {}", &[n, i, &w.reason])
            } else {
                phrase(
                    "init container {} ({}): waiting: {}: {}",
                    &[n, i, &w.reason, &w.message],
                )
            }
        } else {
            phrase("init container {} ({})", &[n, i])
        });
    }
    let stuck = f.status.contains("CrashLoopBackOff") || f.status.contains("Error");
    let state = if stuck {
        StageState::Stuck
    } else {
        StageState::Current
    };
    Stage::new("image", state, e)
}

fn started(f: &Facts) -> Stage {
    let p = f.pod;
    if !f.scheduled || f.image_stuck.is_some() || !f.pulled {
        return Stage::new("started", StageState::Pending, vec![]);
    }
    if let Some((r, m)) = f.waiting.iter().find(|(r, _)| r == "CrashLoopBackOff") {
        return Stage::new(
            "started",
            StageState::Stuck,
            vec![
                phrase("{}: {}", &[r, m]),
                phrase("restarts: {}", &[&p.restarts()]),
            ],
        );
    }
    let terminated: Vec<Phrase> = p
        .status
        .container_statuses
        .iter()
        .filter_map(|c| {
            c.state.terminated.as_ref().map(|t| {
                phrase(
                    "container {} terminated: {} (exit code {})",
                    &[&c.name, &t.reason, &t.exit_code],
                )
            })
        })
        .collect();
    if !terminated.is_empty() && !f.all_started {
        return Stage::new("started", StageState::Stuck, terminated);
    }
    let unstarted: Vec<&ContainerStatus> = p
        .status
        .container_statuses
        .iter()
        .filter(|c| c.started == Some(false))
        .collect();
    if f.all_started && !unstarted.is_empty() {
        // Running, but a startup probe has not passed yet: liveness and readiness wait.
        let mut e: Vec<Phrase> = unstarted
            .iter()
            .map(|c| {
                phrase(
                    "container {} running; its startup probe has not passed yet",
                    &[&c.name],
                )
            })
            .collect();
        e.extend(
            f.said("Unhealthy")
                .into_iter()
                .filter(|m| m.text().starts_with("Startup"))
                .take(1),
        );
        return Stage::new("started", StageState::Current, e);
    }
    if f.all_started {
        let mut e = f.first("Started");
        if p.restarts() > 0 {
            e.push(phrase(
                "restarts: {} (same Pod, same uid)",
                &[&p.restarts()],
            ));
        }
        return Stage::new("started", StageState::Done, e);
    }
    let e = f
        .waiting
        .iter()
        .map(|(r, m)| {
            if m.is_empty() {
                Phrase::raw(r.clone())
            } else {
                phrase("{}: {}", &[r, m])
            }
        })
        .collect();
    Stage::new("started", StageState::Current, e)
}

fn ready(c: &Cluster, f: &Facts) -> Stage {
    let p = f.pod;
    if p.is_ready() {
        let since = clock_label(p.ready_since().unwrap_or(0));
        return Stage::new(
            "ready",
            StageState::Done,
            vec![phrase("Ready since {}", &[&since])],
        );
    }
    if !f.all_started {
        return Stage::new("ready", StageState::Pending, vec![]);
    }
    let mut e: Vec<Phrase> = f.said("Unhealthy").into_iter().rev().take(1).collect();
    let node_ready = c
        .store
        .get::<Node>(&ObjKey::new("", &p.spec.node_name))
        .map(|n| n.ready_status() == ConditionStatus::True);
    if node_ready == Some(false) {
        e.push(phrase(
            "node {} is NotReady: the node controller marked the Pod not Ready",
            &[&p.spec.node_name],
        ));
    }
    if let Some(cnd) = get_condition(&p.status.conditions, PodConditionType::Ready)
        .filter(|c| !c.message.is_empty())
    {
        e.push(phrase("Ready=False: {}", &[&cnd.message]));
    }
    let state = if e.is_empty() {
        StageState::Current
    } else {
        StageState::Stuck
    };
    Stage::new("ready", state, e)
}

/// The Pod's last scheduling attempt, node by node.
fn verdict_rows(c: &Cluster, key: &ObjKey) -> Vec<VerdictRow> {
    let Some(a) = c.scheduler().last_attempt.get(key) else {
        return Vec::new();
    };
    a.nodes
        .iter()
        .map(|v| VerdictRow {
            node: v.node.to_string(),
            verdict: match &v.failure {
                None => "feasible".into(),
                Some(f) => filter_text(f),
            },
            score: v.scores.as_ref().map(|s| s.total),
            breakdown: v.scores.as_ref().map(breakdown).unwrap_or_default(),
            chosen: a.chosen.as_deref() == Some(&*v.node),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_phrase_of_the_path_is_a_listed_template() {
        let src = include_str!("pod_path.rs");
        let code = &src[..src.find("#[cfg(test)]").unwrap_or(src.len())];
        let mut rest = code;
        let mut n = 0;
        while let Some(i) = rest.find("phrase(") {
            rest = &rest[i + 7..];
            let r = rest.trim_start();
            if let Some(t) = r.strip_prefix('"') {
                let t = &t[..t.find('"').unwrap_or(0)];
                assert!(TEMPLATES.contains(&t), "not in TEMPLATES: {t}");
                n += 1;
            }
        }
        assert!(n >= TEMPLATES.len(), "found {n} phrases");
    }
}
