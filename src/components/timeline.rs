//! The timeline: the watch log as a lane per component over the whole history (zoom in
//! and pan with the buttons), each write a mark (hover or focus shows time, writer,
//! verb, object or Event reason); marks close together are one group that lists its
//! writes. Clicking a mark goes to that moment, back or — while rewound, where the
//! recorded future stays on the track in grey — forward.

use crate::i18n::{t, trf, Lang};
use crate::sim::{use_sim, Branch, SimHandle};
use crate::view::{collect_writers, lane_names, timeline_model, traffic_writers, Group, Lane};
use kubeplay_engine::apiserver::WatchLog;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::time::{clock_label, SimTime, SECOND};
use std::collections::BTreeSet;
use yew::prelude::*;

/// The narrowest window zoom reaches.
const MIN_SPAN: SimTime = 2 * SECOND;
/// The whole-history window is at least this wide (a page just opened).
const MIN_WHOLE: SimTime = 10 * SECOND;

/// A move of the window: from (start, end) to a new window (None: the whole history).
type WindowMove = dyn Fn(SimTime, SimTime) -> Option<(SimTime, SimTime)>;

/// The lanes seen in a world so far: (world and branch, log entries read, future
/// entries read, writers).
type LaneCache = ((u64, Option<SimTime>), usize, usize, BTreeSet<String>);

/// Properties of [`TimelineView`].
#[derive(Properties, PartialEq)]
pub struct TimelineProps {
    /// Which branch's writes (fork and compare draws both; the second's marks only
    /// list, since going to a moment is the session's).
    #[prop_or_default]
    pub branch: Branch,
}

/// The timeline panel.
#[function_component(TimelineView)]
pub fn timeline_view(props: &TimelineProps) -> Html {
    let sim = use_sim().on_branch(props.branch);
    let lang = sim.lang();
    let view = use_state(|| None::<(SimTime, SimTime)>);
    let show_quiet = use_state(|| false);
    let cache = use_mut_ref(|| -> LaneCache { ((0, None), 0, 0, BTreeSet::new()) });
    let fork_view = sim.is_fork_view();
    let s = sim.state.borrow();
    let fork = s.fork.as_ref();
    if fork_view && fork.is_none() {
        return html! {};
    }
    let c = match fork {
        Some(f) if fork_view => &f.m.cluster,
        _ => &s.cluster,
    };
    // The second branch has no recorded future: a rewind closes it.
    let future = if fork_view { None } else { s.future.as_ref() };
    let now = c.now();
    let horizon = s.timeline.horizon.max(now);
    let rewound = future.is_some();
    let first_difference = fork.and_then(|f| f.first_difference.as_ref().map(|d| d.at));
    let key = (s.world, fork.filter(|_| fork_view).map(|f| f.at));
    read_lanes(&mut cache.borrow_mut(), key, c, future);
    let (lanes, shared) = lane_names(&cache.borrow().3);
    let whole = (0, horizon.max(MIN_WHOLE));
    let (start, end) = view.map_or(whole, |(a, b)| (a, b.min(whole.1.max(b))));
    let change = fork.map(|f| f.change.clone()).unwrap_or_default();
    let model = timeline_model(c, future, (&lanes, shared.as_deref()), start, end);
    drop(s);
    let span = end - start;
    let set_view = |f: Box<WindowMove>| {
        let view = view.clone();
        Callback::from(move |_: MouseEvent| view.set(f(start, end)))
    };
    let max_end = whole.1;
    let zoom_in = set_view(Box::new(move |a, b| zoomed_in(a, b, now, max_end)));
    let zoom_out = set_view(Box::new(move |a, b| zoomed_out(a, b, max_end)));
    let pan = |dir: i8| set_view(Box::new(move |a, b| panned(a, b, dir, max_end)));
    let whole_btn = set_view(Box::new(|_, _| None));
    let (active, quiet): (Vec<&Lane>, Vec<&Lane>) =
        model.lanes.iter().partition(|l| !l.groups.is_empty());
    let pct = |t: SimTime| (t.saturating_sub(start)) as f64 * 100.0 / span.max(1) as f64;
    let now_at = pct(now).min(100.0);
    let lane_row = |l: &Lane| {
        html! {
            <div class="lane" data-testid={format!("lane-{}", l.writer)} key={l.writer.clone()}>
                <span class="writer" title={l.writer.clone()}>{ &l.writer }</span>
                <span class="track">
                    <span class="inner">
                        if rewound && now < end {
                            <span class="ahead" style={format!("left:{now_at:.2}%")} aria-hidden="true"></span>
                        }
                        { for l.groups.iter().map(|g| group_view(&sim, lang, g, now)) }
                        if let Some(at) = first_difference.filter(|at| (start..=end).contains(at)) {
                            <span class="diffline" style={format!("left:{:.2}%", pct(at))} aria-hidden="true"></span>
                        }
                    </span>
                </span>
            </div>
        }
    };
    let toggle_quiet = {
        let show_quiet = show_quiet.clone();
        Callback::from(move |_: MouseEvent| show_quiet.set(!*show_quiet))
    };
    html! {
        <section class={classes!("timeline", fork_view.then_some("branch"))} aria-label={if fork_view { t(lang, "Timeline: what if") } else { t(lang, "Timeline") }}
                 data-testid={if fork_view { "timeline-fork" } else { "timeline" }}>
            { heading(lang, fork_view.then_some(change)) }
            { window_controls(lang, view.is_none(), [whole_btn, zoom_out, zoom_in, pan(-1), pan(1)], (start, end), model.truncated) }
            // The page's timeline above has the legend.
            if !fork_view {
                { legend(lang) }
            }
            <div class="lanes">
                { axis(lang, &model.ticks, (start..=end).contains(&now).then_some(now_at),
                       first_difference.filter(|at| (start..=end).contains(at)).map(|at| (at, pct(at)))) }
                { for active.iter().map(|l| lane_row(l)) }
                if !quiet.is_empty() {
                    <div class="quiet">
                        <button class="linkish" onclick={toggle_quiet} aria-expanded={show_quiet.to_string()} data-testid="tl-quiet">
                            { if *show_quiet { trf(lang, "Hide {} quiet lanes", &[&quiet.len()]) } else { trf(lang, "{} quiet lanes (no writes in this window)", &[&quiet.len()]) } }
                        </button>
                        if !*show_quiet {
                            <span class="quiet-names">{ quiet.iter().map(|l| l.writer.as_str()).collect::<Vec<_>>().join(", ") }</span>
                        }
                    </div>
                    if *show_quiet {
                        { for quiet.iter().map(|l| lane_row(l)) }
                    }
                }
            </div>
        </section>
    }
}

/// Read the lanes incrementally into `cache`: only the writes since the last frame (all
/// of them again when the world or the branch changed, or the log went back).
fn read_lanes(
    cache: &mut LaneCache,
    key: (u64, Option<SimTime>),
    c: &Cluster,
    future: Option<&WatchLog>,
) {
    if cache.0 != key || cache.1 > c.store.log.len() && future.is_none() {
        *cache = (key, 0, 0, BTreeSet::new());
    }
    let from = cache.1.min(c.store.log.len());
    cache.1 = collect_writers(&c.store.log, from, &mut cache.3);
    if let Some(f) = future {
        let from = cache.2.min(f.len());
        cache.2 = collect_writers(f, from, &mut cache.3);
    }
    for w in traffic_writers(c) {
        cache.3.insert(w);
    }
}

/// The window `a..b` zoomed in twice: around the clock when it is in view (what the
/// learner looks at), else the middle; never narrower than [`MIN_SPAN`].
fn zoomed_in(a: SimTime, b: SimTime, now: SimTime, max_end: SimTime) -> Option<(SimTime, SimTime)> {
    let half = ((b - a) / 4).max(MIN_SPAN / 2);
    let mid = if (a..=b).contains(&now) {
        now
    } else {
        a + (b - a) / 2
    };
    let lo = mid.saturating_sub(half);
    Some((lo, (lo + 2 * half).min(max_end.max(lo + MIN_SPAN))))
}

/// The window `a..b` zoomed out twice around its middle; the whole history (None) once
/// it would reach `max_end`.
fn zoomed_out(a: SimTime, b: SimTime, max_end: SimTime) -> Option<(SimTime, SimTime)> {
    let w = (b - a) * 2;
    if w >= max_end {
        return None;
    }
    let lo = (a + (b - a) / 2).saturating_sub(w / 2);
    let lo = lo.min(max_end.saturating_sub(w));
    Some((lo, lo + w))
}

/// The window `a..b` moved half its width earlier (`dir < 0`) or later, not past
/// `max_end`.
fn panned(a: SimTime, b: SimTime, dir: i8, max_end: SimTime) -> Option<(SimTime, SimTime)> {
    let step = (b - a) / 2;
    let lo = if dir < 0 {
        a.saturating_sub(step)
    } else {
        (a + step).min(max_end.saturating_sub(b - a))
    };
    Some((lo, lo + (b - a)))
}

/// The panel's title: the page's timeline, or the second branch's with its `change`.
fn heading(lang: Lang, change: Option<String>) -> Html {
    match change {
        Some(change) => html! {
            <h2>{ t(lang, "Timeline: what if") }{ " " }<code>{ change }</code><span class="sub">{ t(lang, " — the second branch's writes on the same clock (the page's timeline goes to a moment)") }</span></h2>
        },
        None => html! {
            <h2>{ t(lang, "Timeline") }<span class="sub">{ t(lang, " — every write to the API server, one lane per component; click a mark to go to that moment (Home: the start, End: live)") }</span></h2>
        },
    }
}

/// The time axis above the lanes: its ticks (at a fraction of the window), the clock
/// (`now_at`, % of the window) when in view, and the branches' first difference (its
/// time and %) when in view.
fn axis(
    lang: Lang,
    ticks: &[(f64, String)],
    now_at: Option<f64>,
    first_difference: Option<(SimTime, f64)>,
) -> Html {
    html! {
        <div class="lane axis" aria-hidden="true">
            <span class="writer"></span>
            <span class="axis-track"><span class="inner">
                { for ticks.iter().map(|(at, label)| html! {
                    <span class="tick" style={format!("left:{:.2}%", at * 100.0)}>{ label }</span>
                }) }
                if let Some(now_at) = now_at {
                    <span class="nowtick" style={format!("left:{now_at:.2}%")}>{ t(lang, "now") }</span>
                }
                if let Some((at, left)) = first_difference {
                    <span class="difftick" style={format!("left:{left:.2}%")} data-testid="tl-first-difference"
                          title={trf(lang, "First difference at {}", &[&clock_label(at)])}>{ t(lang, "differs") }</span>
                }
            </span></span>
        </div>
    }
}

/// The window's buttons (the whole history, zoom out and in, earlier, later: their
/// callbacks in that order), the window itself, and a note when it shows only its
/// newest writes.
fn window_controls(
    lang: Lang,
    whole: bool,
    [whole_btn, zoom_out, zoom_in, earlier, later]: [Callback<MouseEvent>; 5],
    (start, end): (SimTime, SimTime),
    truncated: bool,
) -> Html {
    html! {
        <div class="tl-controls" role="group" aria-label={t(lang, "Timeline window")}>
            <button class="btn small" onclick={whole_btn} aria-pressed={whole.to_string()} data-testid="tl-whole">{ t(lang, "Whole history") }</button>
            <button class="btn small" onclick={zoom_out} aria-label={t(lang, "Zoom out")} data-testid="tl-zoom-out">{"−"}</button>
            <button class="btn small" onclick={zoom_in} aria-label={t(lang, "Zoom in")} data-testid="tl-zoom-in">{"+"}</button>
            <button class="btn small" onclick={earlier} aria-label={t(lang, "Earlier")} data-testid="tl-earlier">{"◀"}</button>
            <button class="btn small" onclick={later} aria-label={t(lang, "Later")} data-testid="tl-later">{"▶"}</button>
            <span class="tl-window" data-testid="tl-window">{ format!("{} – {}", clock_label(start), clock_label(end)) }</span>
            if truncated {
                <span class="tl-cut">{ t(lang, "showing the newest writes of this window: zoom in for the rest") }</span>
            }
        </div>
    }
}

/// What the marks mean.
fn legend(lang: Lang) -> Html {
    html! {
        <ul class="tl-legend" aria-label={t(lang, "Legend")}>
            <li><span class="mark ADDED" aria-hidden="true"></span>{ t(lang, "created") }</li>
            <li><span class="mark MODIFIED" aria-hidden="true"></span>{ t(lang, "changed") }</li>
            <li><span class="mark DELETED" aria-hidden="true"></span>{ t(lang, "deleted") }</li>
            <li><span class="mark event" aria-hidden="true"></span>{ t(lang, "Event") }</li>
            <li><span class="mark cluster MODIFIED" aria-hidden="true">{"3"}</span>{ t(lang, "several writes (hover or focus to list them)") }</li>
            <li><span class="mark MODIFIED future" aria-hidden="true"></span>{ t(lang, "after now (rewound: click to go forward)") }</li>
        </ul>
    }
}

/// A group on a lane: one write is a mark; several are a count that lists them.
fn group_view(sim: &SimHandle, lang: Lang, g: &Group, now: SimTime) -> Html {
    // Going to a moment rewinds the session, which closes the second branch: its marks
    // only show what they are.
    let go = |time: SimTime| {
        let sim = sim.clone();
        (!sim.is_fork_view()).then(|| Callback::from(move |_: MouseEvent| sim.seek(time)))
    };
    let verb = |time: SimTime| {
        if sim.is_fork_view() {
            "{}"
        } else if time > now {
            "Go forward to: {}"
        } else {
            "Go back to: {}"
        }
    };
    let class = classes!("mark", g.kind, g.future.then_some("future"));
    let first = &g.marks[0];
    if g.count == 1 {
        return html! {
            <button {class} style={format!("left:{:.2}%", g.at * 100.0)} title={first.label.clone()}
                aria-label={trf(lang, verb(first.time), &[&first.label])} onclick={go(first.time)}></button>
        };
    }
    let more = g.count - g.marks.len();
    html! {
        <span class="grp" style={format!("left:{:.2}%", g.at * 100.0)}>
            <button class={classes!(class, "cluster")} onclick={go(first.time)}
                aria-label={trf(lang, "{} writes from {}: go to the first", &[&g.count, &clock_label(first.time)])}>{ g.count }</button>
            <span class="pop" role="group">
                { for g.marks.iter().map(|m| html! {
                    <button class={classes!("popmark", m.kind)} onclick={go(m.time)} aria-label={trf(lang, verb(m.time), &[&m.label])}>{ &m.label }</button>
                }) }
                if more > 0 {
                    <span class="popmore">{ trf(lang, "and {} more: zoom in", &[&more]) }</span>
                }
            </span>
        </span>
    }
}
