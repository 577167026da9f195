//! The timeline: every write in the watch log as a mark on its writer's lane, over the
//! whole history (or a zoomed window of it), with the future greyed while rewound.
//!
//! Lanes are fixed for a world: once a component has written, its lane stays, so the
//! panel does not jump as writes come and go. Marks that fall in the same slice of the
//! track are one group (a count), which lists its writes on hover or focus.

use super::*;
use kubeplay_engine::apiserver::{WatchEntry, WatchLog, WatchType};
use std::collections::BTreeSet;

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

/// The writes of one lane in one slice of the track.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// Position on the track, 0..1.
    pub at: f64,
    /// Its slice of the track (0..[`BINS`]).
    pub bin: usize,
    /// The kind that colours it: the most telling of its writes (a delete before a
    /// create before an Event before a change).
    pub kind: &'static str,
    /// After now (the history recorded before a rewind): drawn grey, still clickable.
    pub future: bool,
    /// Its first writes (at most [`GROUP_LIST_MAX`]).
    pub marks: Vec<Mark>,
    /// How many writes it holds.
    pub count: usize,
}

/// One component's lane.
#[derive(Clone, Debug, PartialEq)]
pub struct Lane {
    /// The writer (field manager), e.g. `replicaset-controller`, `kubelet/node-1`.
    pub writer: String,
    /// Its groups in the window, oldest first.
    pub groups: Vec<Group>,
}

/// The watch log as lanes per component over a window of simulated time.
#[derive(Clone, Debug, PartialEq)]
pub struct TimelineModel {
    /// Window start (ms).
    pub start: SimTime,
    /// Window end (ms).
    pub end: SimTime,
    /// The clock (ms).
    pub now: SimTime,
    /// Lanes in a fixed order: the user first, then the control plane, then kubelets.
    pub lanes: Vec<Lane>,
    /// Axis ticks: position 0..1 and label.
    pub ticks: Vec<(f64, String)>,
    /// The window held more writes than are drawn (the newest are).
    pub truncated: bool,
}

/// Most kubelet lanes in the timeline before the kubelets share one.
pub const KUBELET_LANES_MAX: usize = 6;

/// Writes a group lists on hover.
pub const GROUP_LIST_MAX: usize = 12;

/// Slices of the track: marks closer than a slice share a group.
pub const BINS: usize = 120;

/// Most writes of the window read per frame (the newest): enough for every learner-size
/// world; a large cluster's window says it was cut.
pub const SCAN_MAX: usize = 40_000;

/// The lane a write goes to, with the kubelets sharing one past [`KUBELET_LANES_MAX`].
fn lane_of(writer: &str, shared_kubelets: Option<&str>) -> String {
    match shared_kubelets {
        Some(shared) if writer.starts_with("kubelet/") => shared.to_string(),
        _ => writer.to_string(),
    }
}

/// The writers that ever wrote in `log` from index `from` (Leases left out: heartbeats
/// are the noise under the story), added to `into`; returns the new length read.
pub fn collect_writers(log: &WatchLog, from: usize, into: &mut BTreeSet<String>) -> usize {
    for e in log.since(from) {
        if e.kind != Kind::Lease && !into.contains(e.writer.as_str()) {
            into.insert(e.writer.clone());
        }
    }
    log.len()
}

/// The fixed lanes for `writers` (plus the traffic lanes seen), in lane order.
pub fn lane_names(writers: &BTreeSet<String>) -> (Vec<String>, Option<String>) {
    let kubelets = writers.iter().filter(|w| w.starts_with("kubelet/")).count();
    let shared = (kubelets > KUBELET_LANES_MAX).then(|| format!("kubelet/* ({kubelets})"));
    let mut lanes: Vec<String> = writers
        .iter()
        .map(|w| lane_of(w, shared.as_deref()))
        .collect();
    lanes.dedup();
    kubeplay_engine::sorting::sort_by(&mut lanes, |a, b| {
        let (ra, rb) = (
            kubeplay_engine::explain::lanes::lane_rank(a).0,
            kubeplay_engine::explain::lanes::lane_rank(b).0,
        );
        let traffic = |w: &str| w.starts_with("traffic ");
        (traffic(a), ra)
            .cmp(&(traffic(b), rb))
            .then_with(|| natural_cmp(a, b))
    });
    lanes.dedup();
    (lanes, shared)
}

/// The first index of `log` at or after time `t` (the log is in time order).
fn lower_bound(log: &WatchLog, t: SimTime) -> usize {
    let (mut lo, mut hi) = (0, log.len());
    while lo < hi {
        let mid = (lo + hi) / 2;
        if log.get(mid).is_some_and(|e| e.time < t) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    lo
}

/// What a write says on hover.
fn mark_of(e: &WatchEntry) -> Mark {
    if e.kind == Kind::Event {
        return Mark {
            time: e.time,
            kind: "event",
            label: format!(
                "{} {} · Event {}: {}",
                clock_label(e.time),
                e.writer,
                e.reason,
                e.change
            ),
        };
    }
    let kind = match e.type_ {
        WatchType::Added => "ADDED",
        WatchType::Modified => "MODIFIED",
        WatchType::Deleted => "DELETED",
    };
    let object = format!("{}/{}", e.kind.name().to_lowercase(), e.key.name);
    let label = if e.change.is_empty() {
        format!("{} {} · {} {object}", clock_label(e.time), e.writer, e.verb)
    } else {
        format!(
            "{} {} · {} {object} · {}",
            clock_label(e.time),
            e.writer,
            e.verb,
            e.change
        )
    };
    Mark {
        time: e.time,
        kind,
        label,
    }
}

/// How telling a kind is, for the colour of a group.
fn weight(kind: &str) -> u8 {
    match kind {
        "DELETED" | "traffic-fail" => 4,
        "ADDED" => 3,
        "event" => 2,
        "MODIFIED" => 1,
        _ => 0,
    }
}

/// Axis ticks for a window `span` ms wide: about eight, at round steps.
pub fn ticks(start: SimTime, end: SimTime) -> Vec<(f64, String)> {
    const STEPS: [SimTime; 16] = [
        100, 200, 500, 1_000, 2_000, 5_000, 10_000, 15_000, 30_000, 60_000, 120_000, 300_000,
        600_000, 1_800_000, 3_600_000, 21_600_000,
    ];
    let span = end.saturating_sub(start).max(1);
    let step = STEPS
        .iter()
        .copied()
        .find(|s| span / s <= 8)
        .unwrap_or(86_400_000);
    let mut out = Vec::new();
    let mut t = start.div_ceil(step) * step;
    while t <= end {
        out.push(((t - start) as f64 / span as f64, clock_label(t)));
        t += step;
    }
    out
}

/// Build the timeline over `[start, end]` with `lanes` fixed (see [`lane_names`]); the
/// writes after now come from `future` (the log recorded before a rewind), if any.
pub fn timeline_model(
    c: &Cluster,
    future: Option<&WatchLog>,
    (lanes, shared): (&[String], Option<&str>),
    start: SimTime,
    end: SimTime,
) -> TimelineModel {
    let now = c.now();
    let span = end.saturating_sub(start).max(1);
    let bin_of =
        |t: SimTime| ((t.saturating_sub(start)) * BINS as u64 / span).min(BINS as u64 - 1) as usize;
    let mut out: Vec<Lane> = lanes
        .iter()
        .map(|w| Lane {
            writer: w.clone(),
            groups: Vec::new(),
        })
        .collect();
    let mut truncated = false;
    // The present up to now, then the recorded future after it.
    let mut sources: Vec<(&WatchLog, SimTime, SimTime, bool)> =
        vec![(&c.store.log, start, end.min(now), false)];
    if let Some(f) = future {
        if end > now {
            sources.push((f, start.max(now + 1), end, true));
        }
    }
    for (log, from, to, is_future) in sources {
        if from > to {
            continue;
        }
        let (lo, hi) = (lower_bound(log, from), lower_bound(log, to + 1));
        let lo = if hi - lo > SCAN_MAX {
            truncated = true;
            hi - SCAN_MAX
        } else {
            lo
        };
        for i in lo..hi {
            let Some(e) = log.get(i) else { break };
            if e.kind == Kind::Lease {
                continue;
            }
            let lane = lane_of(&e.writer, shared);
            let Some(l) = out.iter_mut().find(|l| l.writer == lane) else {
                continue;
            };
            let bin = bin_of(e.time);
            let mark = mark_of(e);
            push_mark(l, bin, mark, is_future, span, start);
        }
    }
    for (key, series) in &c.proxies.series {
        let name = traffic_lane(key);
        let Some(l) = out.iter_mut().find(|l| l.writer == name) else {
            continue;
        };
        for (second, b) in series.range(start / 1000..=end.min(now) / 1000) {
            if b.total() == 0 {
                continue;
            }
            let time = second * 1000;
            let failed: Vec<String> = kubeplay_engine::proxy::Outcome::ALL
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
            let kind = if b.errors() > 0 {
                "traffic-fail"
            } else {
                "traffic-ok"
            };
            push_mark(
                l,
                bin_of(time),
                Mark { time, kind, label },
                false,
                span,
                start,
            );
        }
    }
    TimelineModel {
        start,
        end,
        now,
        lanes: out,
        ticks: ticks(start, end),
        truncated,
    }
}

fn push_mark(l: &mut Lane, bin: usize, mark: Mark, future: bool, span: SimTime, start: SimTime) {
    let at_of = |t: SimTime| (t.saturating_sub(start)) as f64 / span as f64;
    match l.groups.last_mut() {
        Some(g) if g.future == future && g.bin == bin => {
            if weight(mark.kind) > weight(g.kind) {
                g.kind = mark.kind;
            }
            g.count += 1;
            if g.marks.len() < GROUP_LIST_MAX {
                g.marks.push(mark);
            }
        }
        _ => l.groups.push(Group {
            at: at_of(mark.time),
            bin,
            kind: mark.kind,
            future,
            marks: vec![mark],
            count: 1,
        }),
    }
}

/// The names of the traffic lanes a cluster has had.
pub fn traffic_writers(c: &Cluster) -> impl Iterator<Item = String> + '_ {
    c.proxies.series.keys().map(traffic_lane)
}

/// A traffic lane's name: `traffic service/NAME`, or `traffic ingress/NAME` for a flow
/// through an Ingress (kept under that name); `KIND/NAMESPACE/NAME` outside `default`.
fn traffic_lane(key: &kubeplay_engine::apiserver::ObjKey) -> String {
    let (kind, name) = key.name.split_once('/').unwrap_or(("service", &key.name));
    if key.namespace == "default" {
        format!("traffic {kind}/{name}")
    } else {
        format!("traffic {kind}/{}/{name}", key.namespace)
    }
}

/// The timeline of the last `window` ms, its lanes read from the whole log (the
/// component keeps them incrementally; the tests use this).
#[cfg(test)]
pub fn timeline_of_last(c: &Cluster, window: SimTime) -> TimelineModel {
    let mut writers = BTreeSet::new();
    collect_writers(&c.store.log, 0, &mut writers);
    writers.extend(traffic_writers(c));
    let (lanes, shared) = lane_names(&writers);
    let now = c.now();
    timeline_model(
        c,
        None,
        (&lanes, shared.as_deref()),
        now.saturating_sub(window),
        now,
    )
}
