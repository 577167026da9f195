//! The timeline: every write in the watch log as a mark on its writer's lane.

use super::*;

/// One write in the timeline.
#[derive(Clone, Debug, PartialEq)]
pub struct Mark {
    /// When (simulated ms).
    pub time: SimTime,
    /// `ADDED` / `MODIFIED` / `DELETED` write, or `event` for a Kubernetes Event.
    pub kind: &'static str,
    /// What the mark says on hover/focus: time, verb, object, reason.
    pub label: String,
}

/// One component's lane.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// The writer (field manager), e.g. `replicaset-controller`, `kubelet/node-1`.
    pub writer: String,
    /// Its writes in the window, oldest first.
    pub marks: Vec<Mark>,
}

/// The watch log as lanes per component over a window of simulated time.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineModel {
    /// Window start (ms).
    pub start: SimTime,
    /// Window end (ms): now.
    pub end: SimTime,
    /// Lanes in a fixed order: the user first, then the control plane, then kubelets.
    pub lanes: Vec<Lane>,
}

/// Most kubelet lanes in the timeline before the kubelets share one.
pub const KUBELET_LANES_MAX: usize = 6;

/// Build the timeline over the last `window` ms (heartbeats — Lease renewals — left
/// out: they are the noise under the story). At most `max_marks` writes, newest kept.
pub fn timeline_model(c: &Cluster, window: SimTime, max_marks: usize) -> TimelineModel {
    let end = c.now();
    let start = end.saturating_sub(window);
    let mut lanes: Vec<Lane> = Vec::new();
    let entries: Vec<&kubeplay_engine::apiserver::WatchEntry> = c
        .store
        .log
        .iter()
        .rev()
        .take_while(|e| e.time >= start)
        .filter(|e| e.kind != Kind::Lease)
        .take(max_marks)
        .collect();
    // A lane per kubelet reads well for a few nodes; past KUBELET_LANES_MAX the kubelets
    // share one lane (each mark still names its node).
    let kubelets: std::collections::BTreeSet<&str> = entries
        .iter()
        .map(|e| e.writer.as_str())
        .filter(|w| w.starts_with("kubelet/"))
        .collect();
    let shared_kubelet_lane =
        (kubelets.len() > KUBELET_LANES_MAX).then(|| format!("kubelet/* ({})", kubelets.len()));
    for e in entries.into_iter().rev() {
        let lane = match &shared_kubelet_lane {
            Some(shared) if e.writer.starts_with("kubelet/") => shared.as_str(),
            _ => e.writer.as_str(),
        };
        let (kind, label) = if e.kind == Kind::Event {
            (
                "event",
                format!(
                    "{} {} · Event {}: {}",
                    clock_label(e.time),
                    e.writer,
                    e.reason,
                    e.change
                ),
            )
        } else {
            let k = match e.type_ {
                kubeplay_engine::apiserver::WatchType::Added => "ADDED",
                kubeplay_engine::apiserver::WatchType::Modified => "MODIFIED",
                kubeplay_engine::apiserver::WatchType::Deleted => "DELETED",
            };
            (
                k,
                if e.change.is_empty() {
                    format!(
                        "{} {} · {} {}/{}",
                        clock_label(e.time),
                        e.writer,
                        e.verb,
                        e.kind.name().to_lowercase(),
                        e.key.name
                    )
                } else {
                    format!(
                        "{} {} · {} {}/{} · {}",
                        clock_label(e.time),
                        e.writer,
                        e.verb,
                        e.kind.name().to_lowercase(),
                        e.key.name,
                        e.change
                    )
                },
            )
        };
        let mark = Mark {
            time: e.time,
            kind,
            label,
        };
        match lanes.iter_mut().find(|l| l.writer == lane) {
            Some(l) => l.marks.push(mark),
            None => lanes.push(Lane {
                writer: lane.to_string(),
                marks: vec![mark],
            }),
        }
    }
    lanes.sort_by_key(|l| kubeplay_engine::explain::lanes::lane_rank(&l.writer));
    lanes.extend(traffic_lanes(c, start, end));
    TimelineModel { start, end, lanes }
}

/// Below the components, a lane per Service that had requests in the window: a mark per
/// second, `traffic-ok` when every request was answered, `traffic-fail` when some
/// failed — what the users met beside what the control plane wrote.
fn traffic_lanes(c: &Cluster, start: SimTime, end: SimTime) -> Vec<Lane> {
    use kubeplay_engine::proxy::Outcome;
    let mut out = Vec::new();
    for (key, series) in &c.proxies.series {
        let marks: Vec<Mark> = series
            .range(start / 1000..=end / 1000)
            .filter(|(_, b)| b.total() > 0)
            .map(|(second, b)| {
                let time = second * 1000;
                let failed: Vec<String> = Outcome::ALL
                    .iter()
                    .zip(b.outcomes)
                    .skip(1)
                    .filter(|(_, n)| *n > 0)
                    .map(|(o, n)| format!("{n} {}", o.label()))
                    .collect();
                let mut label = format!(
                    "{} service/{} · {} requests, {} OK",
                    clock_label(time),
                    key.name,
                    b.total(),
                    b.outcomes[0]
                );
                if !failed.is_empty() {
                    label = format!("{label}, {}", failed.join(", "));
                }
                Mark {
                    time,
                    kind: if b.errors() > 0 {
                        "traffic-fail"
                    } else {
                        "traffic-ok"
                    },
                    label,
                }
            })
            .collect();
        if !marks.is_empty() {
            out.push(Lane {
                writer: if key.namespace == "default" {
                    format!("traffic service/{}", key.name)
                } else {
                    format!("traffic service/{}/{}", key.namespace, key.name)
                },
                marks,
            });
        }
    }
    out
}
