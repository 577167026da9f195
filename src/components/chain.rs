//! The chain: Deployment → ReplicaSet → Pods → Nodes, spec beside status, with lines
//! for ownerReferences and bindings.

use crate::i18n::{t, trf};
use crate::sim::{use_sim, Branch, Selection, SimHandle, Verb};
use crate::view::*;
use kubeplay_engine::api::quantity::{format_bytes, format_cpu_milli};
use kubeplay_engine::time::SimTime;
use std::collections::BTreeSet;
use yew::prelude::*;

/// Wall milliseconds a change cue (fade-in start, pulse) stays on before the cards
/// settle, when no new frame comes first.
const CUE_MS: u32 = 350;

/// How the chain is drawn in the width it has. The model is laid out in columns of
/// [`COL_W`]; here the columns stretch or narrow with the panel (text never shrinks:
/// the old design scaled the whole chain down to 0.56 in a 700 px frame, 7 px text).
/// Too narrow for four columns, the Node column goes (the node board below has every
/// node, and each Pod card names its node); too narrow for three, the chain becomes a
/// tree: each owner above its children, indented, the cards as wide as the screen.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Geo {
    /// Horizontal stretch of the model's columns.
    pub k: f64,
    /// Columns drawn (4, or 3 without Nodes).
    pub cols: usize,
    /// The tree (a phone): cards in flow, no lines.
    pub flow: bool,
    /// The chain's inner width (px).
    pub width: f64,
}

/// Narrowest and widest stretch of the columns.
const K_MIN: f64 = 0.78;
const K_MAX: f64 = 1.3;

/// Width of `cols` columns at stretch 1.
fn columns_width(cols: usize) -> f64 {
    col_x(cols - 1) + COL_W
}

impl Geo {
    /// The geometry for a chain `width` px wide (0: not measured yet, drawn as at
    /// full width).
    pub fn for_width(width: f64) -> Geo {
        let width = if width <= 0.0 {
            columns_width(4)
        } else {
            width
        };
        for cols in [4, 3] {
            let k = width / columns_width(cols);
            if k >= K_MIN {
                return Geo {
                    k: k.min(K_MAX),
                    cols,
                    flow: false,
                    width,
                };
            }
        }
        Geo {
            k: 1.0,
            cols: 3,
            flow: true,
            width,
        }
    }

    /// Left edge of column `col`.
    fn x(&self, col: usize) -> f64 {
        col_x(col) * self.k
    }

    /// Width of a column.
    fn w(&self) -> f64 {
        COL_W * self.k
    }

    /// Width of the drawing.
    fn total(&self) -> f64 {
        if self.flow {
            self.width
        } else {
            columns_width(self.cols) * self.k
        }
    }

    /// The style of a card in column `col` at `y`, `h` tall.
    fn card(&self, col: usize, y: f64, h: f64) -> String {
        if self.flow {
            format!("height:{h}px")
        } else {
            format!(
                "left:{:.1}px;top:{y}px;width:{:.1}px;height:{h}px",
                self.x(col),
                self.w()
            )
        }
    }

    /// Characters of a card's small monospace line (11 px) that fit.
    fn line_chars(&self, depth: usize) -> usize {
        let w = if self.flow {
            self.width - depth as f64 * FLOW_INDENT
        } else {
            self.w()
        };
        ((w - 25.0) / 6.8).max(8.0) as usize
    }

    /// Characters of a card's name (13 px, bold) that fit beside `reserved` px of
    /// other content on its line.
    fn name_chars(&self, depth: usize, reserved: f64) -> usize {
        let w = if self.flow {
            self.width - depth as f64 * FLOW_INDENT
        } else {
            self.w()
        };
        // Padding and border (25 px), and about 9.6 px a character: the widest of the
        // usual bold sans fonts (DejaVu Sans Bold) with room to spare, since a name the
        // card's edge cuts loses the suffix this is all about.
        ((w - 25.0 - reserved) / 9.6).max(8.0) as usize
    }
}

/// Indent of each level of the tree (px).
const FLOW_INDENT: f64 = 14.0;

/// `name` shortened to `max` characters where it must be, keeping what tells it from
/// its siblings: the end (a Pod's random suffix, a StatefulSet ordinal) stays whole,
/// the shared middle (the pod-template-hash) gives way. The full name is the title.
pub fn fit_name(name: &str, max: usize) -> String {
    let chars: Vec<char> = name.chars().collect();
    let max = max.max(4);
    if chars.len() <= max {
        return name.to_string();
    }
    let tail_len = name
        .rsplit_once('-')
        .map_or(4, |(_, t)| t.chars().count() + 1);
    let tail = |n: usize| -> String { chars[chars.len() - n..].iter().collect() };
    if max >= tail_len + 4 {
        let head: String = chars[..max - 1 - tail_len].iter().collect();
        format!("{head}…{}", tail(tail_len))
    } else {
        // Room for the suffix only: it is what tells siblings apart.
        format!("…{}", tail(tail_len.min(max - 1)))
    }
}

/// The last aggregated model, with the store revision and wall time it was made at and
/// what it cost (ms).
struct AggCache {
    rev: u64,
    at: f64,
    cost: f64,
    model: std::rc::Rc<AggregateModel>,
}

/// (previous frame, this frame) as (store revision, time), and whether this frame's
/// cues were shown already.
type Frames = (Option<(u64, SimTime)>, Option<(u64, SimTime)>, bool);

/// Wall clock in ms (0 where there is no `performance`).
fn wall_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

/// Properties of [`ChainView`].
#[derive(Properties, PartialEq)]
pub struct ChainProps {
    /// Which branch to draw (fork and compare draws both; the second is a picture,
    /// nothing on it is clicked).
    #[prop_or_default]
    pub branch: Branch,
}

/// The chain view.
#[function_component(ChainView)]
pub fn chain_view(props: &ChainProps) -> Html {
    // (previous frame, this frame) as (store revision, time), and whether this frame's
    // cues were shown already: only a new frame moves it, so a re-render of the same state
    // keeps its pulses, and a short timer then takes them off (paused, no new frame
    // comes to do it).
    let frames = use_mut_ref(|| -> Frames { (None, None, false) });
    let settle = use_force_update();
    {
        let frames = frames.clone();
        use_effect(move || {
            let shown = frames.borrow().2;
            let timer = (!shown).then(|| {
                gloo_timers::callback::Timeout::new(CUE_MS, move || {
                    frames.borrow_mut().2 = true;
                    settle.force_update();
                })
            });
            move || drop(timer)
        });
    }
    let sim = use_sim().on_branch(props.branch);
    let lang = sim.lang();
    // The chain's width, measured by a ResizeObserver (the dock, a phone, an iframe).
    let chain_ref = use_node_ref();
    let width = use_state(|| 0.0f64);
    let agg_cache = use_mut_ref(|| None::<AggCache>);
    let agg = cached_aggregate(&sim, &mut agg_cache.borrow_mut());
    {
        // Measured once the chain (not the aggregated view) is on the page.
        let chain_ref = chain_ref.clone();
        let width = width.clone();
        use_effect_with(agg.is_some(), move |agg| {
            let observer = (!*agg)
                .then(|| watch_width(&chain_ref, move |w| width.set(w)))
                .flatten();
            move || {
                if let Some((o, _)) = observer {
                    o.disconnect();
                }
            }
        });
    }
    if let Some(m) = agg {
        return aggregated_view(&sim, &m);
    }
    let model = chain_model(&sim.world());
    // With a second branch open, the cards whose counts differ from the other branch's.
    let differs = {
        let s = sim.state.borrow();
        s.fork
            .as_ref()
            .map(|f| kubeplay_engine::fork::differing(&s.cluster, &f.m.cluster))
            .unwrap_or_default()
    };
    let prev = new_frame(&sim, &mut frames.borrow_mut());
    let g = Geo::for_width(*width);
    let total = g.total();
    // Drawn without the Node column, the chain is as tall as its other columns.
    let height = if g.cols == 4 {
        model.height
    } else {
        model_height_without_nodes(&model)
    };
    let items = chain_items(&sim, &g, &model, prev, &differs);
    let fork_view = sim.is_fork_view();
    html! {
        <section class={classes!("chain", g.flow.then_some("flow"), fork_view.then_some("branch"))} ref={chain_ref} data-cols={g.cols.to_string()}
                 aria-label={if fork_view { t(lang, "What if: Deployment → ReplicaSet → Pod → Node") } else { t(lang, "Deployment → ReplicaSet → Pod → Node") }}
                 data-testid={if fork_view { "chain-fork" } else { "chain" }}>
            if !fork_view { { control_plane_bar(&sim) } }
            if g.flow {
                <div class="flowtools">{ chain_tools(&sim) }</div>
            } else {
                <div class="colheads" style={format!("width:{total:.1}px")}>
                    <span style={format!("left:{:.1}px;width:{:.1}px", g.x(0), g.w())}>{ if model.cronjobs.is_empty() { t(lang, "Deployment") } else { t(lang, "Deployment · CronJob") } }</span>
                    <span style={format!("left:{:.1}px;width:{:.1}px", g.x(1), g.w())}>{ owner_column_title(&model) }</span>
                    <span style={format!("left:{:.1}px;width:{:.1}px", g.x(2), g.w())}>{ "Pod" }
                        if g.cols == 3 { { chain_tools(&sim) } }
                    </span>
                    if g.cols == 4 {
                        <span style={format!("left:{:.1}px;width:{:.1}px", g.x(3), g.w())}>{ t(lang, "Node") }{ chain_tools(&sim) }</span>
                    }
                </div>
            }
            <div class="canvas" style={if g.flow { String::new() } else { format!("width:{total:.1}px;height:{height}px") }}>
                if !g.flow {
                    <svg class="links" width={format!("{total:.1}")} height={height.to_string()} aria-hidden="true">
                        { for model.links.iter().filter(|l| g.cols == 4 || l.kind != "binding").map(|l| html! { <path class={classes!("link", l.kind)} d={link_path(l, g.k)} /> }) }
                    </svg>
                }
                { for items }
            </div>
        </section>
    }
}

/// The chain's height without its Node column.
fn model_height_without_nodes(m: &ChainModel) -> f64 {
    let owners = m
        .deployments
        .iter()
        .map(|d| d.y + OWNER_H)
        .chain(m.cronjobs.iter().map(|j| j.y + OWNER_H))
        .chain(m.replicasets.iter().map(|r| r.y + OWNER_H))
        .chain(m.jobs.iter().map(|j| j.y + OWNER_H))
        .chain(m.daemonsets.iter().map(|d| d.y + OWNER_H))
        .chain(m.statefulsets.iter().map(|d| d.y + OWNER_H))
        .chain(m.services.iter().map(|s| s.y + SERVICE_H))
        .chain(m.pods.iter().map(|p| p.y + POD_H));
    owners.fold(0.0, f64::max) + V_GAP
}

/// Add a node, and download the picture: the buttons beside the column heads.
fn chain_tools(sim: &SimHandle) -> Html {
    let lang = sim.lang();
    if sim.is_fork_view() {
        return html! {};
    }
    html! {
        <>
            if !sim.readonly() {
                <button class="addnode" onclick={add_node(sim)} data-testid="add-node" title={t(lang, "sim node add: register a new 4-CPU / 8Gi node")}>{ t(lang, "+ add node") }</button>
            }
            <button class="addnode" onclick={export_svg(sim)} data-testid="export-svg" title={t(lang, "Download the chain as an SVG picture (for slides)")}>{ t(lang, "SVG") }</button>
            <button class="addnode" onclick={export_png(sim)} data-testid="export-png" title={t(lang, "Download the chain as a PNG picture (for slides)")}>{ t(lang, "PNG") }</button>
        </>
    }
}

/// One card with its 🔍 right after it (so it is the next tab stop), in a wrapper
/// keyed by the object: `display: contents` when the chain is drawn in columns, an
/// indented block of the tree otherwise. `differs`: its counts are not the other
/// branch's (fork and compare).
fn item(key: String, depth: usize, card: Html, inspect: Html, differs: bool) -> Html {
    html! {
        <div {key} class={classes!("item", differs.then_some("differs"))} style={format!("--depth:{depth}")}>{ card }{ inspect }</div>
    }
}

/// A card and its 🔍, keyed by the object: `col` is its column, `y` its card's top and
/// `dy` where the 🔍 sits on it.
#[allow(clippy::too_many_arguments)]
fn object_item(
    sim: &SimHandle,
    g: &Geo,
    sel: Selection,
    depth: usize,
    card: Html,
    col: usize,
    y: f64,
    dy: f64,
    differs: &BTreeSet<String>,
) -> Html {
    let (kind, key) = sel.kind_key();
    // The outline's name for it (see `kubeplay_engine::fork::outline`).
    let what = format!("{}/{}", kind.name().to_ascii_lowercase(), key.name);
    item(
        format!("{}/{}", kind.name(), key.name),
        depth,
        card,
        inspect_button(sim, g, sel, col, y, dy),
        differs.contains(&what),
    )
}

/// Every card in page order: the tree's order (each owner, then what it owns), which
/// is also a sensible tab order for the columns.
fn chain_items(
    sim: &SimHandle,
    g: &Geo,
    m: &ChainModel,
    prev: Option<(u64, SimTime)>,
    differs: &BTreeSet<String>,
) -> Vec<Html> {
    let lang = sim.lang();
    let mut out = Vec::new();
    let mut drawn_pods = vec![false; m.pods.len()];
    let pods_of = |out: &mut Vec<Html>, owner: &str, depth: usize, drawn: &mut Vec<bool>| {
        for (i, p) in m.pods.iter().enumerate() {
            if !drawn[i] && p.owner.as_deref() == Some(owner) {
                drawn[i] = true;
                out.push(pod_item(sim, g, p, depth, prev, differs));
            }
        }
    };
    for s in &m.services {
        out.push(item(
            format!("svc/{}/{}", s.namespace, s.name),
            0,
            service_card(lang, g, s),
            html! {},
            false,
        ));
    }
    for d in &m.deployments {
        let card = deployment_card(sim, g, d, freshness(d.rv, d.created_ms, prev));
        let sel = Selection::Deployment(d.name.clone());
        out.push(object_item(
            sim,
            g,
            sel,
            0,
            card,
            0,
            d.y,
            OWNER_H - 24.0,
            differs,
        ));
        for r in m
            .replicasets
            .iter()
            .filter(|r| r.owner.as_deref() == Some(d.name.as_str()))
        {
            out.push(rs_item(sim, g, r, prev, differs));
            pods_of(&mut out, &r.name, 2, &mut drawn_pods);
        }
    }
    for r in m.replicasets.iter().filter(|r| {
        !r.owner
            .as_ref()
            .is_some_and(|o| m.deployments.iter().any(|d| &d.name == o))
    }) {
        out.push(rs_item(sim, g, r, prev, differs));
        pods_of(&mut out, &r.name, 1, &mut drawn_pods);
    }
    for c in &m.cronjobs {
        let card = cronjob_card(lang, g, c, freshness(c.rv, c.created_ms, prev));
        let sel = Selection::CronJob(c.name.clone());
        out.push(object_item(
            sim,
            g,
            sel,
            0,
            card,
            0,
            c.y,
            OWNER_H - 24.0,
            differs,
        ));
        for j in m
            .jobs
            .iter()
            .filter(|j| j.owner.as_deref() == Some(c.name.as_str()))
        {
            out.push(job_item(sim, g, j, 1, prev, differs));
            pods_of(&mut out, &j.name, 2, &mut drawn_pods);
        }
    }
    for j in m.jobs.iter().filter(|j| {
        !j.owner
            .as_ref()
            .is_some_and(|o| m.cronjobs.iter().any(|c| &c.name == o))
    }) {
        out.push(job_item(sim, g, j, 0, prev, differs));
        pods_of(&mut out, &j.name, 1, &mut drawn_pods);
    }
    for d in &m.daemonsets {
        let card = daemonset_card(lang, g, d, freshness(d.rv, d.created_ms, prev));
        let sel = Selection::DaemonSet(d.name.clone());
        out.push(object_item(sim, g, sel, 0, card, 1, d.y, 0.0, differs));
        pods_of(&mut out, &d.name, 1, &mut drawn_pods);
    }
    for d in &m.statefulsets {
        let card = statefulset_card(lang, g, d, freshness(d.rv, d.created_ms, prev));
        let sel = Selection::StatefulSet(d.name.clone());
        out.push(object_item(sim, g, sel, 0, card, 1, d.y, 0.0, differs));
        pods_of(&mut out, &d.name, 1, &mut drawn_pods);
    }
    // Pods no owner above claims (bare Pods, an owner already gone).
    for (i, p) in m.pods.iter().enumerate() {
        if !drawn_pods[i] {
            out.push(pod_item(sim, g, p, 0, prev, differs));
        }
    }
    if !g.flow && g.cols == 4 {
        for n in &m.nodes {
            let sel = Selection::Node(n.name.clone());
            out.push(object_item(
                sim,
                g,
                sel,
                0,
                node_card(sim, g, n),
                3,
                n.y,
                NODE_H - 24.0,
                differs,
            ));
        }
    }
    out
}

fn rs_item(
    sim: &SimHandle,
    g: &Geo,
    r: &ReplicaSetView,
    prev: Option<(u64, SimTime)>,
    differs: &BTreeSet<String>,
) -> Html {
    let card = replicaset_card(sim.lang(), g, r, freshness(r.rv, r.created_ms, prev));
    let sel = Selection::ReplicaSet(r.name.clone());
    object_item(sim, g, sel, 1, card, 1, r.y, 0.0, differs)
}

fn job_item(
    sim: &SimHandle,
    g: &Geo,
    j: &JobView,
    depth: usize,
    prev: Option<(u64, SimTime)>,
    differs: &BTreeSet<String>,
) -> Html {
    let card = job_card(sim.lang(), g, j, freshness(j.rv, j.created_ms, prev));
    let sel = Selection::Job(j.name.clone());
    object_item(sim, g, sel, depth, card, 1, j.y, 0.0, differs)
}

fn pod_item(
    sim: &SimHandle,
    g: &Geo,
    p: &PodView,
    depth: usize,
    prev: Option<(u64, SimTime)>,
    differs: &BTreeSet<String>,
) -> Html {
    let card = pod_card(sim, g, depth, p, freshness(p.rv, p.created_ms, prev));
    let sel = Selection::Pod(p.name.clone());
    object_item(sim, g, sel, depth, card, 2, p.y, POD_H - 24.0, differs)
}

/// A ResizeObserver and the callback it calls (kept alive together).
type WidthWatch = (
    web_sys::ResizeObserver,
    wasm_bindgen::closure::Closure<dyn FnMut(js_sys::Array)>,
);

/// Call `set` with the element's content width now and whenever it changes (the
/// observer and its callback live until disconnected).
fn watch_width(el: &NodeRef, set: impl Fn(f64) + 'static) -> Option<WidthWatch> {
    use wasm_bindgen::{closure::Closure, JsCast};
    let target = el.cast::<web_sys::Element>()?;
    // Padding (12 px each side) is not the cards' room.
    let inner = |e: &web_sys::Element| f64::from(e.client_width()) - 24.0;
    set(inner(&target));
    let cb = Closure::<dyn FnMut(js_sys::Array)>::new(move |entries: js_sys::Array| {
        if let Some(e) = entries
            .get(0)
            .dyn_ref::<web_sys::ResizeObserverEntry>()
            .map(|e| e.target())
        {
            set(inner(&e));
        }
    });
    let o = web_sys::ResizeObserver::new(cb.as_ref().unchecked_ref()).ok()?;
    o.observe(&target);
    Some((o, cb))
}

/// The aggregated model when the cluster is large (None: draw the chain). The counts
/// read every Pod: at 150,000 Pods that is tens of ms, too much for every tick. While
/// the clock plays they are recounted at most every ten times what the last count cost
/// (within 1 s); paused, or on a new state after that, at once.
fn cached_aggregate(
    sim: &SimHandle,
    cache: &mut Option<AggCache>,
) -> Option<std::rc::Rc<AggregateModel>> {
    let playing = sim.state.borrow().playing;
    let world = sim.world();
    if !aggregated(&world) {
        return None;
    }
    let now = wall_ms();
    let rev = world.store.revision();
    let fresh = match cache {
        Some(c) if c.rev == rev => true,
        Some(c) if playing => now - c.at < (c.cost * 10.0).min(1_000.0),
        _ => false,
    };
    if !fresh {
        let model = aggregate_model(&world);
        let cost = wall_ms() - now;
        *cache = Some(AggCache {
            rev,
            at: now,
            cost,
            model: std::rc::Rc::new(model),
        });
    }
    cache.as_ref().map(|c| c.model.clone())
}

/// The frame before this one, to mark what changed since, while this frame's cues
/// are still shown; a rewind makes nothing new.
fn new_frame(sim: &SimHandle, f: &mut Frames) -> Option<(u64, SimTime)> {
    let s = sim.world();
    let now = (s.store.revision(), s.now());
    if f.1 != Some(now) {
        // Rewound: nothing is new relative to a later frame.
        f.0 = f.1.filter(|p| p.1 <= now.1);
        f.1 = Some(now);
        f.2 = false;
    }
    if f.2 {
        None
    } else {
        f.0
    }
}

/// A link's curve; a replacement bows out to the left of the Pod cards (same column).
fn link_path(l: &Link, k: f64) -> String {
    let l = &Link {
        x1: l.x1 * k,
        x2: l.x2 * k,
        ..l.clone()
    };
    let mid = (l.x1 + l.x2) / 2.0;
    if l.kind.starts_with("route") {
        // Out of the Service card's left edge, down its lane, into the Pod.
        format!("M{} {} H{} V{} H{}", l.x1, l.y1, l.x2, l.y2, l.x1)
    } else if l.kind == "replaced" {
        let bow = l.x1 - 22.0;
        format!(
            "M{} {} C{bow} {} {bow} {} {} {}",
            l.x1, l.y1, l.y1, l.y2, l.x2, l.y2
        )
    } else {
        format!(
            "M{} {} C{mid} {} {mid} {} {} {}",
            l.x1, l.y1, l.y1, l.y2, l.x2, l.y2
        )
    }
}

/// Nodes up to this many are cells (buttons) in the aggregated view; more are drawn on
/// one canvas (5,000 buttons re-rendered every tick kept the page from answering).
pub const CELL_BUTTONS_MAX: usize = 500;

/// Rows of each aggregated list (Deployments, ReplicaSets): the ones still converging
/// first, then the rest; `kubectl get` lists them all.
pub const AGG_ROWS_MAX: usize = 20;

/// Which rows of a list of `len` to draw: the first [`AGG_ROWS_MAX`] of those where
/// `busy(i)`, then the others, in list order.
fn agg_rows(len: usize, busy: impl Fn(usize) -> bool) -> Vec<usize> {
    let mut rows = busy_first(len, AGG_ROWS_MAX, busy);
    rows.sort_unstable();
    rows
}

/// Cell edge and gap on the heat-map canvas (CSS pixels).
const HEAT_CELL: f64 = 9.0;
const HEAT_GAP: f64 = 2.0;
const HEAT_COLS: usize = 100;

/// Properties of [`HeatMap`].
#[derive(Properties, PartialEq)]
pub struct HeatMapProps {
    /// The nodes, in name order.
    pub cells: std::rc::Rc<Vec<NodeCell>>,
}

/// Thousands of nodes on one canvas: a cell per node, green by pod load when Ready,
/// amber when cordoned, red when not Ready; a click inspects the node under the pointer.
#[function_component(HeatMap)]
pub fn heat_map(props: &HeatMapProps) -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let canvas = use_node_ref();
    // The keyboard cursor: arrows move it over the cells, Enter inspects its node.
    let cursor = use_state(|| None::<usize>);
    // The cursor as the key handler last left it: two keys pressed before the next
    // render both move it (the state handle in a callback is the render's copy).
    let cursor_now = use_mut_ref(|| None::<usize>);
    let cells = props.cells.clone();
    let rows = cells.len().div_ceil(HEAT_COLS).max(1);
    let (w, h) = (
        HEAT_COLS as f64 * (HEAT_CELL + HEAT_GAP),
        rows as f64 * (HEAT_CELL + HEAT_GAP),
    );
    {
        let canvas = canvas.clone();
        use_effect_with((cells.clone(), *cursor), move |(cells, cursor)| {
            paint_heat_map(&canvas, cells, *cursor, (w, h));
        });
    }
    let onclick = {
        let sim = sim.clone();
        let cells = cells.clone();
        let canvas = canvas.clone();
        Callback::from(move |e: MouseEvent| {
            let Some(el) = canvas.cast::<web_sys::HtmlCanvasElement>() else {
                return;
            };
            // The canvas may be drawn smaller than its size: map back to its pixels.
            let scale = w / f64::from(el.client_width().max(1));
            let (x, y) = (
                f64::from(e.offset_x()) * scale,
                f64::from(e.offset_y()) * scale,
            );
            let (col, row) = (
                (x / (HEAT_CELL + HEAT_GAP)) as usize,
                (y / (HEAT_CELL + HEAT_GAP)) as usize,
            );
            if col < HEAT_COLS {
                if let Some(n) = cells.get(row * HEAT_COLS + col) {
                    sim.select(Some(Selection::Node(n.name.clone())));
                }
            }
        })
    };
    let onkeydown = {
        let sim = sim.clone();
        let cells = cells.clone();
        let cursor = cursor.clone();
        let cursor_now = cursor_now.clone();
        Callback::from(move |e: KeyboardEvent| {
            let at = cursor_now.borrow().unwrap_or(0);
            match e.key().as_str() {
                "Enter" | " " => {
                    if let Some(n) = cells.get(at) {
                        sim.select(Some(Selection::Node(n.name.clone())));
                    }
                }
                key => match heat_cursor_move(key, at, cells.len()) {
                    Some(next) => {
                        *cursor_now.borrow_mut() = Some(next);
                        cursor.set(Some(next));
                    }
                    None => return,
                },
            }
            e.prevent_default();
        })
    };
    let not_ready = cells.iter().filter(|n| !n.ready).count();
    // What the cursor is on, for screen readers (the canvas itself is one image).
    let focused = cursor.and_then(|i| cells.get(i)).map(|n| {
        trf(
            lang,
            "{}: {}, {} of {} Pods — Enter inspects it",
            &[
                &n.name,
                &if n.ready {
                    t(lang, "Ready")
                } else {
                    t(lang, "not Ready")
                },
                &n.pods,
                &n.pods_allocatable,
            ],
        )
    });
    html! {
        <>
            <canvas ref={canvas} class="heatmap" width={w.to_string()} height={h.to_string()} {onclick} {onkeydown}
                tabindex="0" data-testid="heatmap" role="img"
                aria-label={trf(lang, "{} nodes, {} not Ready: click a cell (or use the arrow keys and Enter) to inspect its node", &[&cells.len(), &not_ready])} />
            <p class="heatfocus" aria-live="polite" data-testid="heatmap-focus">{ focused.unwrap_or_default() }</p>
            <p class="heatlegend" aria-hidden="true">
                <span class="sw ready"></span>{ t(lang, "Ready (darker: more Pods)") }
                <span class="sw cordoned"></span>{ t(lang, "cordoned") }
                <span class="sw notready"></span>{ t(lang, "not Ready") }
            </p>
        </>
    }
}

/// Draw the cells (and the keyboard cursor's outline) on the heat map's canvas.
fn paint_heat_map(canvas: &NodeRef, cells: &[NodeCell], cursor: Option<usize>, (w, h): (f64, f64)) {
    use wasm_bindgen::JsCast;
    let ctx = canvas
        .cast::<web_sys::HtmlCanvasElement>()
        .and_then(|c| c.get_context("2d").ok().flatten())
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok());
    let Some(ctx) = ctx else {
        return;
    };
    ctx.clear_rect(0.0, 0.0, w, h);
    let at = |i: usize| {
        let (col, row) = (i % HEAT_COLS, i / HEAT_COLS);
        (
            col as f64 * (HEAT_CELL + HEAT_GAP),
            row as f64 * (HEAT_CELL + HEAT_GAP),
        )
    };
    for (i, n) in cells.iter().enumerate() {
        ctx.set_fill_style_str(&heat_fill(n));
        let (x, y) = at(i);
        ctx.fill_rect(x, y, HEAT_CELL, HEAT_CELL);
    }
    if let Some(i) = cursor.filter(|&i| i < cells.len()) {
        let (x, y) = at(i);
        ctx.set_stroke_style_str("#1d4ed8");
        ctx.set_line_width(2.0);
        ctx.stroke_rect(x - 1.0, y - 1.0, HEAT_CELL + 2.0, HEAT_CELL + 2.0);
    }
}

/// A node's colour: Ready, pale to deep green with the pod load; cordoned, amber; not
/// Ready, red.
fn heat_fill(n: &NodeCell) -> String {
    let load = if n.pods_allocatable > 0 {
        (n.pods * 100 / n.pods_allocatable).clamp(0, 100)
    } else {
        0
    };
    if !n.ready {
        "#c23030".to_string()
    } else if n.cordoned {
        "#d99a00".to_string()
    } else {
        format!("hsl(145,55%,{}%)", 88 - load * 50 / 100)
    }
}

/// Where a key moves the heat map's cursor from `at` over `len` cells (None: not a
/// moving key).
fn heat_cursor_move(key: &str, at: usize, len: usize) -> Option<usize> {
    let last = len.saturating_sub(1);
    Some(match key {
        "ArrowRight" => at.saturating_add(1).min(last),
        "ArrowLeft" => at.saturating_sub(1),
        "ArrowDown" => at.saturating_add(HEAT_COLS).min(last),
        "ArrowUp" => at.saturating_sub(HEAT_COLS),
        "Home" => 0,
        "End" => last,
        _ => return None,
    })
}

/// A large cluster: Deployments and ReplicaSets with their Pods as counts, nodes as
/// cells coloured by readiness and load.
fn aggregated_view(sim: &SimHandle, m: &AggregateModel) -> Html {
    let lang = sim.lang();
    let dep_busy = |i: usize| {
        let (_, want, ready) = &m.deployments[i];
        ready != want
    };
    let deps = agg_rows(m.deployments.len(), dep_busy);
    let live: Vec<&RsSummary> = m
        .replicasets
        .iter()
        .filter(|r| r.desired > 0 || r.ready + r.starting + r.pending + r.terminating > 0)
        .collect();
    let rs_busy = |i: usize| {
        let r = live[i];
        r.starting + r.pending + r.terminating > 0 || r.ready as i64 != r.desired
    };
    let rss = agg_rows(live.len(), rs_busy);
    let svc_busy = |i: usize| {
        let s = &m.services[i];
        s.failed > 0 || s.not_ready + s.terminating > 0 || s.ready == 0
    };
    let svcs = agg_rows(m.services.len(), svc_busy);
    // "… and N more": whether those not drawn have all converged.
    let more = |rows: &[usize], all: usize, busy: &dyn Fn(usize) -> bool| {
        let hidden = all - rows.len();
        let hidden_busy =
            (0..all).filter(|&i| busy(i)).count() - rows.iter().filter(|&&i| busy(i)).count();
        (hidden > 0).then(|| html! {
            <p class="aggmore">{
                if hidden_busy == 0 {
                    trf(lang, "… and {} more, all converged (kubectl get lists every one)", &[&hidden])
                } else {
                    trf(lang, "… and {} more, {} of them still converging (kubectl get lists every one)", &[&hidden, &hidden_busy])
                }
            }</p>
        })
    };
    html! {
        <section class="chain aggregated" aria-label={t(lang, "Deployment → ReplicaSet → Pod → Node")} data-testid="aggregated">
            if !sim.is_fork_view() { { control_plane_bar(sim) } }
            <p class="aggnote">{ trf(lang, "{} Pods: the chain shows counts; click a node cell to inspect it", &[&m.total_pods]) }</p>
            <h3>{ t(lang, "Nodes") }</h3>
            if m.nodes.len() > CELL_BUTTONS_MAX {
                <HeatMap cells={m.nodes.clone()} />
            } else {
            <div class="cells">
                { for m.nodes.iter().map(|n| {
                    let load = if n.pods_allocatable > 0 { n.pods * 100 / n.pods_allocatable } else { 0 };
                    let inspect = {
                        let sim = sim.clone();
                        let name = n.name.clone();
                        Callback::from(move |_| sim.select(Some(Selection::Node(name.clone()))))
                    };
                    html! {
                        <button class={classes!("cell", if n.ready { "ready" } else { "notready" })}
                            style={format!("--load:{}%", load.min(100))} onclick={inspect}
                            title={trf(lang, "{} · {} · Pods {}/{} · cpu {}%", &[&n.name, &if n.ready { "Ready" } else { "NotReady" }, &n.pods, &n.pods_allocatable, &n.cpu_pct])}
                            aria-label={trf(lang, "Inspect {} {}", &[&"Node", &n.name])}>
                            <span class="cellname">{ if n.ready { "✓ " } else { "✕ " } }{ &n.name }</span>
                            <span class="cellbar"><span class="fill"></span></span>
                        </button>
                    }
                }) }
            </div>
            }
            <div class="aggcols">
                <div class="aggcol">
                    <h3>{ t(lang, "Deployment") }</h3>
                    { for deps.iter().map(|&i| &m.deployments[i]).map(|(name, want, ready)| {
                        let scale = |delta: i64| {
                            let sim = sim.clone();
                            let name = name.clone();
                            let to = (want + delta).max(0);
                            Callback::from(move |_| sim.act(Verb::Scale(name.clone(), to)))
                        };
                        html! {
                            <div class="aggrow" data-testid={format!("agg-deployment-{name}")}>
                                <b>{ name }</b>{" "}
                                <span class="spec">{ trf(lang, "wants {}", &[want]) }</span>{" "}
                                <span data-testid={format!("ready-{name}")}>{ trf(lang, "ready {}/{}", &[ready, want]) }</span>
                                if !sim.is_fork_view() {
                                    <button class="mini" onclick={scale(-1)} aria-label={trf(lang, "Scale down Deployment {}", &[name])}>{"−"}</button>
                                    <button class="mini" onclick={scale(1)} aria-label={trf(lang, "Scale up Deployment {}", &[name])}>{"+"}</button>
                                }
                            </div>
                        }
                    }) }
                    { more(&deps, m.deployments.len(), &dep_busy).unwrap_or_default() }
                </div>
                <div class="aggcol">
                    <h3>{ t(lang, "ReplicaSet") }{" → "}{ t(lang, "Pods") }</h3>
                    { for rss.iter().map(|&i| live[i]).map(|r| html! {
                        <div class="aggrow">
                            <b>{ &r.name }</b>{" "}{ trf(lang, "desired {}", &[&r.desired]) }
                            <span class="counts">
                                <span class="c-ready">{ trf(lang, "{} ready", &[&r.ready]) }</span>
                                <span class="c-starting">{ trf(lang, "{} starting", &[&r.starting]) }</span>
                                <span class="c-pending">{ trf(lang, "{} pending", &[&r.pending]) }</span>
                                <span class="c-terminating">{ trf(lang, "{} terminating", &[&r.terminating]) }</span>
                            </span>
                        </div>
                    }) }
                    { more(&rss, live.len(), &rs_busy).unwrap_or_default() }
                </div>
                if !m.services.is_empty() {
                    <div class="aggcol">
                        <h3>{ t(lang, "Service") }{" → "}{ t(lang, "Pods") }</h3>
                        { for svcs.iter().map(|&i| &m.services[i]).map(|s| html! {
                            <div class={classes!("aggrow", (s.failed > 0).then_some("failing"))} data-testid={format!("agg-service-{}", s.name)}>
                                <b>{ &s.name }</b>
                                <span class="counts">
                                    <span class="c-ready">{ trf(lang, "{} ready", &[&s.ready]) }</span>
                                    <span class="c-starting">{ trf(lang, "{} not ready", &[&s.not_ready]) }</span>
                                    <span class="c-terminating">{ trf(lang, "{} terminating", &[&s.terminating]) }</span>
                                </span>
                                if s.answered + s.failed > 0 {
                                    <span class="aggtraffic">{ trf(lang, "last {} s: {} answered, {} failed", &[&SERVICE_WINDOW_S, &s.answered, &s.failed]) }</span>
                                }
                            </div>
                        }) }
                        { more(&svcs, m.services.len(), &svc_busy).unwrap_or_default() }
                    </div>
                }
            </div>
        </section>
    }
}

/// The API server's state above the chain: a button to stop it, or — while it is down —
/// what that means and a button to start it again.
fn control_plane_bar(sim: &SimHandle) -> Html {
    let lang = sim.lang();
    let readonly = sim.readonly();
    let (down_since, etcd, now, elections, apiservers) = {
        let st = sim.state.borrow();
        (
            st.cluster.apiserver_down_since(),
            st.cluster.etcd().clone(),
            st.cluster.now(),
            st.cluster.elections().clone(),
            st.cluster.apiservers().clone(),
        )
    };
    let act = |verb: Verb| {
        let sim = sim.clone();
        Callback::from(move |_| sim.act(verb.clone()))
    };
    let apiserver = match down_since {
        Some(since) => html! {
            <div class="cpbar down" role="status" data-testid="apiserver-down">
                <b>{ trf(lang, "The API server is down (since {})", &[&kubeplay_engine::time::clock_label(since)]) }</b>
                <span>{ t(lang, "Nothing is written: kubectl is refused, the controllers and the scheduler wait, the kubelets cannot report. Running containers and every kube-proxy's last rules keep serving.") }</span>
                if !readonly {
                    <button class="addnode" onclick={act(Verb::ApiServer(true))} data-testid="apiserver-up">{ t(lang, "Start the API server") }</button>
                }
            </div>
        },
        None if !readonly => html! {
            <button class="addnode" onclick={act(Verb::ApiServer(false))} data-testid="apiserver-down-button" title={t(lang, "sim apiserver down: the control plane stops answering; the data plane keeps serving")}>{ t(lang, "Stop the API server") }</button>
        },
        None => html! {},
    };
    // With several API server replicas, one chip each (a click stops or starts it) and
    // the 1/3 replica buttons.
    use kubeplay_engine::cluster::apiservers::replica_name;
    let replica_chips = (0..apiservers.replicas)
        .filter(|_| apiservers.replicas > 1)
        .map(|i| {
            let name = replica_name(i);
            let up = !apiservers.down.contains(&i);
            let title = if up {
                trf(lang, "{}: up, behind the load balancer. Click to stop it: its host's controller manager and scheduler lose the API.", &[&name])
            } else {
                trf(lang, "{}: down. Click to start it.", &[&name])
            };
            html! {
                <button class={classes!("etcdm", if up { "up" } else { "down" })} disabled={readonly}
                        onclick={act(Verb::ApiServerReplica(name.clone(), !up))} title={title}
                        data-testid={name.clone()} aria-pressed={(!up).to_string()}>
                    { format!("control-plane-{}", i + 1) }
                </button>
            }
        });
    let apiserver_sizes = [1usize, 3].into_iter().map(|k| {
        html! {
            <button class={classes!("etcdsize", (k == apiservers.replicas).then_some("on"))}
                    disabled={readonly || k == apiservers.replicas || down_since.is_some()}
                    onclick={act(Verb::ApiServerReplicas(k))} data-testid={format!("apiserver-replicas-{k}")}
                    title={trf(lang, "sim apiserver replicas {}", &[&k])}>
                { k }
            </button>
        }
    });
    let (up, n, quorum) = (etcd.up_count(), etcd.members.len(), etcd.quorum());
    let lost = etcd.lost_since;
    // One chip per member: green up, red down, the leader starred; a click stops or
    // starts it (`sim etcd down|up etcd-N`).
    let members = etcd.members.iter().enumerate().map(|(i, m)| {
        let leader = etcd.leader == Some(i);
        let title = match (m.up, leader) {
            (true, true) => trf(
                lang,
                "{}: up, the Raft leader. Click to stop it.",
                &[&m.name],
            ),
            (true, false) => trf(lang, "{}: up. Click to stop it.", &[&m.name]),
            (false, _) => trf(lang, "{}: down. Click to start it.", &[&m.name]),
        };
        html! {
            <button class={classes!("etcdm", if m.up { "up" } else { "down" })} disabled={readonly}
                    onclick={act(Verb::Etcd(m.name.clone(), !m.up))} title={title}
                    data-testid={format!("etcd-{}", m.name)} aria-pressed={(!m.up).to_string()}>
                { if leader { format!("★ {}", m.name) } else { m.name.clone() } }
            </button>
        }
    });
    let sizes = [1usize, 3, 5].into_iter().map(|k| {
        html! {
            <button class={classes!("etcdsize", (k == n).then_some("on"))} disabled={readonly || k == n || lost.is_some()}
                    onclick={act(Verb::EtcdMembers(k))} data-testid={format!("etcd-members-{k}")}
                    title={trf(lang, "sim etcd members {}: quorum {}, tolerates {} failed", &[&k, &kubeplay_engine::cluster::etcd::quorum_of(k), &kubeplay_engine::cluster::etcd::tolerated_failures(k)])}>
                { k }
            </button>
        }
    });
    // One chip per leader-elected component: who holds its Lease, or for how long none
    // has; a click kills the leader (`sim leader kill`).
    use kubeplay_engine::cluster::leader_election::Elected;
    let replicas = elections.get(Elected::ControllerManager).candidates.len();
    let leaders = Elected::ALL.into_iter().map(|e| {
        let el = elections.get(e);
        let (label, title) = match (el.leader(), el.leaderless_since) {
            (Some(l), _) => (
                format!("★ {}", l.host),
                trf(lang, "{} leads: it holds the Lease kube-system/{}. Click to kill it.", &[&l.identity, &e.name()]),
            ),
            (None, since) => (
                trf(lang, "no leader for {}", &[&kubeplay_engine::time::human_duration(now.saturating_sub(since.unwrap_or(now)))]),
                t(lang, "No replica holds the Lease: its controllers are idle until a standby sees it unrenewed for 15 s and acquires it.").to_string(),
            ),
        };
        let short = match e {
            Elected::ControllerManager => "controller-manager",
            Elected::Scheduler => "scheduler",
        };
        html! {
            <button class={classes!("leader", el.leader.is_none().then_some("none"))} disabled={readonly || el.leader.is_none()}
                    onclick={act(Verb::KillLeader(e.name().to_string()))} title={title}
                    data-testid={format!("leader-{}", e.name())}>
                <span class="leaderlabel">{ short }</span>{ " " }{ label }
            </button>
        }
    });
    let leader_sizes = [1usize, 3].into_iter().map(|k| {
        html! {
            <button class={classes!("etcdsize", (k == replicas).then_some("on"))} disabled={readonly || k == replicas || down_since.is_some() || lost.is_some()}
                    onclick={act(Verb::LeaderReplicas(k))} data-testid={format!("leader-replicas-{k}")}
                    title={trf(lang, "sim leader replicas {}", &[&k])}>
                { k }
            </button>
        }
    });
    html! {
        <>
        <div class="cpbar">
            { apiserver }
            <span class="etcd" data-testid="apiserver-bar">
                <span class="etcdlabel">{ "kube-apiserver" }</span>
                { for replica_chips }
                { for apiserver_sizes }
            </span>
            <span class="etcd" data-testid="etcd-bar">
                <span class="etcdlabel">{ "etcd" }</span>
                { for members }
                <span class={classes!("quorum", lost.is_some().then_some("lost"))} data-testid="etcd-quorum">
                    { trf(lang, "{} of {} up · quorum {}", &[&up, &n, &quorum]) }
                </span>
                if !readonly {
                    <span class="etcdsizes" title={t(lang, "How many etcd members")}>{ t(lang, "members") }{ for sizes }</span>
                }
            </span>
            <span class="etcd" data-testid="leader-bar">
                { for leaders }
                if !readonly {
                    <span class="etcdsizes" title={t(lang, "How many replicas of kube-controller-manager and kube-scheduler")}>{ t(lang, "replicas") }{ for leader_sizes }</span>
                }
            </span>
        </div>
        if let Some(since) = lost {
            <div class="cpbar down" role="status" data-testid="etcd-no-quorum">
                <b>{ trf(lang, "etcd has lost its quorum for {}: {} of {} members up, {} needed", &[&kubeplay_engine::time::human_duration(now.saturating_sub(since)), &up, &n, &quorum]) }</b>
                <span>{ t(lang, "The API server answers, but every write and every consistent read times out (etcdserver: request timed out): nothing changes, the kubelets cannot report, their Leases go stale. Running containers keep serving. Start a member to regain the quorum.") }</span>
            </div>
        }
        </>
    }
}

/// Download the current chain picture.
fn export_svg(sim: &SimHandle) -> Callback<MouseEvent> {
    let sim = sim.clone();
    Callback::from(move |_| {
        let svg = {
            let st = sim.state.borrow();
            crate::export::chain_svg(&chain_model(&st.cluster), st.lang)
        };
        crate::export::download_svg("kubeplay-chain.svg", &svg);
    })
}

fn export_png(sim: &SimHandle) -> Callback<MouseEvent> {
    let sim = sim.clone();
    Callback::from(move |_| {
        let (svg, (w, h)) = {
            let st = sim.state.borrow();
            let m = chain_model(&st.cluster);
            (
                crate::export::chain_svg(&m, st.lang),
                crate::export::chain_size(&m),
            )
        };
        crate::export::download_png("kubeplay-chain.png", &svg, w, h);
    })
}

/// `sim node add node-N` with the first free N.
fn add_node(sim: &SimHandle) -> Callback<MouseEvent> {
    let sim = sim.clone();
    Callback::from(move |_| sim.act(Verb::AddNode(sim.free_node_name())))
}

fn deployment_card(
    sim: &SimHandle,
    g: &Geo,
    d: &DeploymentView,
    fresh: Option<&'static str>,
) -> Html {
    let lang = sim.lang();
    let gap = d.desired - d.ready;
    let scale = |delta: i64| {
        let sim = sim.clone();
        let name = d.name.clone();
        let to = (d.desired + delta).max(0);
        Callback::from(move |_| sim.act(Verb::Scale(name.clone(), to)))
    };
    html! {
        <div key={format!("d/{}", d.name)} class={classes!("card", "deploy", (gap != 0).then_some("gap"), fresh)} style={g.card(0, d.y, OWNER_H)}
             data-testid={format!("deployment-{}", d.name)}>
            <div class="kind">
                { t(lang, "Deployment") }
                if let Some((targets, min, max)) = &d.hpa {
                    // The first metric's reading, short enough for the card; the title
                    // has kubectl's whole TARGETS column and the bounds.
                    <span class="hpa" data-testid={format!("hpa-{}", d.name)}
                          title={format!("{} — {targets}", trf(lang, "HorizontalPodAutoscaler: {} to {} replicas", &[min, max]))}>
                        { format!(" · HPA {}", targets.split(", ").next().unwrap_or("").split_once(": ").map_or(targets.as_str(), |(_, v)| v)) }
                    </span>
                }
            </div>
            <div class="name" title={d.name.clone()}>{ fit_name(&d.name, g.name_chars(0, 0.0)) }</div>
            <div class="specstatus">
                <span class="spec" title="spec.replicas">{ trf(lang, "wants {}", &[&d.desired]) }</span>
                <span class="status" data-testid={format!("ready-{}", d.name)} title="status.readyReplicas / spec.replicas">
                    { trf(lang, "ready {}/{}", &[&d.ready, &d.desired]) }
                </span>
                <span class="status">{ trf(lang, "available {}", &[&d.available]) }</span>
            </div>
            if !sim.readonly() && !sim.is_fork_view() {
                <div class="scale">
                    <button class="mini" onclick={scale(-1)} aria-label={trf(lang, "Scale down Deployment {}", &[&d.name])}>{"−"}</button>
                    <button class="mini" onclick={scale(1)} aria-label={trf(lang, "Scale up Deployment {}", &[&d.name])}>{"+"}</button>
                </div>
            }
        </div>
    }
}

/// A Service in front of its Pods: address, endpoints by state, and what its
/// requests met in the last seconds (red when some failed).
fn service_card(lang: crate::i18n::Lang, g: &Geo, s: &ServiceCard) -> Html {
    let (ready, not_ready, terminating) = s.endpoints;
    // Failures first: the line is cut at the card's edge, and they are the news.
    let traffic = match (s.rps, s.answered + s.failed) {
        (None, 0) => t(lang, "no traffic").to_string(),
        _ => trf(
            lang,
            "{} failed · {} answered in the last {} s",
            &[&s.failed, &s.answered, &(ROUTE_SECONDS + 1)],
        ),
    };
    let title = s
        .rps
        .map(|rps| trf(lang, "{} req/s", &[&rps]))
        .unwrap_or_default();
    html! {
        <div key={format!("svc/{}/{}", s.namespace, s.name)}
             class={classes!("card", "service", (s.failed > 0).then_some("failing"), (ready == 0).then_some("noready"))}
             style={g.card(2, s.y, SERVICE_H)} data-testid={format!("service-card-{}", s.name)}>
            <div class="kind" title={format!("{} · {} · {}", t(lang, "Service"), s.type_, s.address)}>{ format!("{} · {} · {}", t(lang, "Service"), s.type_, s.address) }</div>
            <div class="name" title={s.name.clone()}>{ fit_name(&s.name, g.name_chars(0, 0.0)) }</div>
            <div class="specstatus">
                <span class="status" title={t(lang, "EndpointSlice endpoints: conditions.ready / not ready / conditions.terminating")}>
                    { trf(lang, "endpoints {} ready · {} not ready · {} terminating", &[&ready, &not_ready, &terminating]) }
                </span>
            </div>
            <div class="traffic" data-testid={format!("service-traffic-{}", s.name)} title={title}>{ traffic }</div>
        </div>
    }
}

fn replicaset_card(
    lang: crate::i18n::Lang,
    g: &Geo,
    r: &ReplicaSetView,
    fresh: Option<&'static str>,
) -> Html {
    html! {
        <div key={format!("rs/{}", r.name)} class={classes!("card", "rs", (r.desired == 0).then_some("idle"), fresh)} style={g.card(1, r.y, OWNER_H)}
             data-testid={format!("replicaset-{}", r.name)}>
            <div class="kind">{ format!("{} · {}", t(lang, "ReplicaSet"), trf(lang, "revision {}", &[&r.revision])) }</div>
            <div class="name" title={r.name.clone()}>{ fit_name(&r.name, g.name_chars(1, 0.0)) }</div>
            <div class="specstatus">
                <span class="spec" title="spec.replicas">{ trf(lang, "desired {}", &[&r.desired]) }</span>
                <span class="status">{ trf(lang, "current {}", &[&r.current]) }</span>
                <span class="status">{ trf(lang, "ready {}", &[&r.ready]) }</span>
            </div>
        </div>
    }
}

/// A Job: completions (succeeded of wanted), what runs and what failed against the
/// back-off limit, and its STATUS as `kubectl get jobs` prints it.
fn job_card(lang: crate::i18n::Lang, g: &Geo, j: &JobView, fresh: Option<&'static str>) -> Html {
    let state = match j.status.as_str() {
        "Complete" => Some("done"),
        "Failed" => Some("failed"),
        _ => None,
    };
    html! {
        <div key={format!("job/{}", j.name)} class={classes!("card", "rs", "job", state, fresh)} style={g.card(1, j.y, OWNER_H)}
             data-testid={format!("job-{}", j.name)}>
            <div class="kind">{ format!("{} · {}", t(lang, "Job"), j.status) }</div>
            <div class="name" title={j.name.clone()}>{ fit_name(&j.name, g.name_chars(1, 0.0)) }</div>
            <div class="specstatus">
                <span class="spec" title="status.succeeded / spec.completions">{ trf(lang, "completions {}", &[&j.completions]) }</span>
                <span class="status" title="status.active">{ trf(lang, "active {}", &[&j.active]) }</span>
                <span class="status" title="status.failed / spec.backoffLimit" data-testid={format!("job-failed-{}", j.name)}>
                    { trf(lang, "failed {} (limit {})", &[&j.failed, &j.backoff_limit]) }
                </span>
            </div>
        </div>
    }
}

/// The second column's title: the owner kinds it shows (kind names, the same in
/// every language).
fn owner_column_title(model: &ChainModel) -> String {
    let mut kinds = vec!["ReplicaSet"];
    if !model.jobs.is_empty() {
        kinds.push("Job");
    }
    if !model.daemonsets.is_empty() {
        kinds.push("DaemonSet");
    }
    if !model.statefulsets.is_empty() {
        kinds.push("StatefulSet");
    }
    kinds.join(" · ")
}

/// A StatefulSet: replicas wanted beside those that exist, Ready and up to date, and
/// the claims its Pods keep.
fn statefulset_card(
    lang: crate::i18n::Lang,
    g: &Geo,
    d: &StatefulSetView,
    fresh: Option<&'static str>,
) -> Html {
    let gap = d.ready != d.replicas;
    html! {
        <div key={format!("sts/{}", d.name)} class={classes!("card", "rs", "statefulset", gap.then_some("gap"), fresh)} style={g.card(1, d.y, OWNER_H)}
             data-testid={format!("statefulset-{}", d.name)}>
            <div class="kind">{ format!("{} · {}", t(lang, "StatefulSet"), d.policy) }</div>
            <div class="name" title={d.name.clone()}>{ fit_name(&d.name, g.name_chars(0, 0.0)) }</div>
            <div class="specstatus">
                <span class="spec" title="spec.replicas">{ trf(lang, "want {}", &[&d.replicas]) }</span>
                <span class="status" title="status.readyReplicas" data-testid={format!("sts-ready-{}", d.name)}>{ trf(lang, "ready {}", &[&d.ready]) }</span>
                <span class="status" title="status.updatedReplicas">{ trf(lang, "up-to-date {}", &[&d.updated]) }</span>
                <span class="status" title="PersistentVolumeClaims">{ trf(lang, "claims {}", &[&d.claims]) }</span>
            </div>
        </div>
    }
}

/// A DaemonSet: nodes that should run its Pod (desired) beside those that do, Ready
/// and up to date.
fn daemonset_card(
    lang: crate::i18n::Lang,
    g: &Geo,
    d: &DaemonSetView,
    fresh: Option<&'static str>,
) -> Html {
    let gap = d.ready != d.desired;
    html! {
        <div key={format!("ds/{}", d.name)} class={classes!("card", "rs", "daemonset", gap.then_some("gap"), fresh)} style={g.card(1, d.y, OWNER_H)}
             data-testid={format!("daemonset-{}", d.name)}>
            <div class="kind">{ t(lang, "DaemonSet · one Pod per eligible node") }</div>
            <div class="name" title={d.name.clone()}>{ fit_name(&d.name, g.name_chars(0, 0.0)) }</div>
            <div class="specstatus">
                <span class="spec" title="status.desiredNumberScheduled">{ trf(lang, "nodes {}", &[&d.desired]) }</span>
                <span class="status" title="status.currentNumberScheduled">{ trf(lang, "current {}", &[&d.current]) }</span>
                <span class="status" title="status.numberReady" data-testid={format!("ds-ready-{}", d.name)}>{ trf(lang, "ready {}", &[&d.ready]) }</span>
                <span class="status" title="status.updatedNumberScheduled">{ trf(lang, "up-to-date {}", &[&d.updated]) }</span>
                if d.misscheduled > 0 {
                    <span class="status" title="status.numberMisscheduled">{ trf(lang, "misscheduled {}", &[&d.misscheduled]) }</span>
                }
            </div>
        </div>
    }
}

/// A CronJob: its schedule and policy, active Jobs and the last scheduled run.
fn cronjob_card(
    lang: crate::i18n::Lang,
    g: &Geo,
    j: &CronJobView,
    fresh: Option<&'static str>,
) -> Html {
    html! {
        <div key={format!("cj/{}", j.name)} class={classes!("card", "deploy", "cronjob", j.suspended.then_some("idle"), fresh)} style={g.card(0, j.y, OWNER_H)}
             data-testid={format!("cronjob-{}", j.name)}>
            <div class="kind">{ format!("{} · {}", t(lang, "CronJob"), j.policy) }</div>
            <div class="name" title={j.name.clone()}>{ fit_name(&j.name, g.name_chars(1, 0.0)) }</div>
            <div class="specstatus">
                <span class="spec" title="spec.schedule">{ &j.schedule }</span>
                <span class="status" title="status.active">{ trf(lang, "active {}", &[&j.active]) }</span>
                <span class="status" title="status.lastScheduleTime">
                    { if j.last == "<none>" { t(lang, "not run yet").to_string() } else { trf(lang, "last run {} ago", &[&j.last]) } }
                </span>
            </div>
        </div>
    }
}

fn pod_icon(p: &PodView) -> Html {
    if !p.terminating
        && p.phase != "Succeeded"
        && p.phase != "Failed"
        && !p.ready
        && p.node.is_empty()
    {
        // Pending (not yet bound): a drawn clock, not an emoji some systems cannot draw.
        return html! {
            <svg class="pending-ico" viewBox="0 0 16 16" aria-hidden="true"><circle cx="8" cy="8" r="6" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M8 4.5V8l2.5 1.8" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linecap="round"/></svg>
        };
    }
    html! { { pod_glyph(p) } }
}

fn pod_glyph(p: &PodView) -> &'static str {
    if p.terminating {
        "✕"
    } else if p.phase == "Succeeded" {
        "✔"
    } else if p.phase == "Failed" {
        "✗"
    } else if p.ready {
        "✓"
    } else {
        "…"
    }
}

fn pod_card(
    sim: &SimHandle,
    g: &Geo,
    depth: usize,
    p: &PodView,
    fresh: Option<&'static str>,
) -> Html {
    let lang = sim.lang();
    // The second branch is a picture: its cards do nothing.
    let onclick = (!sim.is_fork_view()).then(|| {
        let sim = sim.clone();
        let name = p.name.clone();
        Callback::from(move |_: MouseEvent| sim.act(Verb::DeletePod(name.clone())))
    });
    let state = if p.terminating {
        "terminating"
    } else if p.phase == "Succeeded" {
        "succeeded"
    } else if p.phase == "Failed" {
        "failed"
    } else if p.ready {
        "ready"
    } else if p.node.is_empty() {
        "pending"
    } else {
        "starting"
    };
    let node = if p.node.is_empty() {
        "<none>".to_string()
    } else {
        p.node.clone()
    };
    html! {
        <button key={format!("pod/{}", p.name)} class={classes!("card", "pod", state, fresh)} style={g.card(2, p.y, POD_H)} onclick={onclick}
                aria-label={format!("Pod {}", p.name)} title={if sim.is_fork_view() { format!("Pod {}", p.name) } else { format!("{} (kubectl delete pod {})", trf(lang, "Delete Pod {}", &[&p.name]), p.name) }}
                data-testid="pod" data-status={p.status.clone()}>
            <span class="row1">
                <span class="icon" aria-hidden="true">{ pod_icon(p) }</span>
                <span class="name" title={p.name.clone()}>{ fit_name(&p.name, g.name_chars(depth, if p.traffic.is_some() { 100.0 } else { 22.0 })) }</span>
                if let Some((ok, failed, worst)) = p.traffic {
                    if failed > 0 {
                        <span class="hits fail" data-testid="pod-hits" title={trf(lang, "last {} s: {} answered, {} failed", &[&(ROUTE_SECONDS + 1), &ok, &failed])}>{ format!("✕ {failed} {}", t(lang, worst)) }</span>
                    } else {
                        <span class="hits ok" data-testid="pod-hits" title={trf(lang, "last {} s: {} answered, {} failed", &[&(ROUTE_SECONDS + 1), &ok, &failed])}>{ format!("⇢ {ok}") }</span>
                    }
                }
            </span>
            <span class="row2">
                <span class="podstatus">
                    { format!("{} {}", p.ready_col, p.status) }
                    if !p.ready && !p.terminating && p.status == "Running" {
                        <span class="cond" title="Ready=False">{ format!(" {}", t(lang, "not Ready")) }</span>
                    }
                </span>
                <span class="restarts">{ trf(lang, "restarts {}", &[&p.restarts]) }</span>
            </span>
            <span class="row3">
                <span class="uid" title="metadata.uid">{ format!("uid {}", p.short_uid) }</span>
                <span>{ format!("· {}", trf(lang, "node {}", &[&node])) }</span>
                if let Some((name, uid)) = &p.replaced_by {
                    // Its own line: the new name (its suffix whole) and the new uid are
                    // the point of the lesson.
                    <span class="replaced" data-testid="replaced-by" title={trf(lang, "Replaced by {} (uid {}): a new Pod, not this one restarted", &[name, uid])}>
                        { replaced_line(lang, g, depth, name, uid) }
                    </span>
                }
            </span>
        </button>
    }
}

/// "→ replaced by NAME (uid UID)" in the room the card has: the words go first, then
/// the name's shared middle; the new Pod's suffix and uid always stay.
fn replaced_line(lang: crate::i18n::Lang, g: &Geo, depth: usize, name: &str, uid: &str) -> String {
    let room = g.line_chars(depth);
    // "→ " and " (uid 12345678)".
    let fixed = 2 + 15;
    let words = t(lang, "replaced by {} (uid {})").chars().count() - 6 - 11;
    if room >= fixed + words + 12 {
        format!(
            "→ {}",
            trf(
                lang,
                "replaced by {} (uid {})",
                &[&fit_name(name, room - fixed - words), &uid]
            )
        )
    } else {
        format!(
            "→ {} (uid {uid})",
            fit_name(name, room.saturating_sub(fixed))
        )
    }
}

pub(crate) fn bar(
    lang: crate::i18n::Lang,
    label: &str,
    used: i64,
    total: i64,
    fmt: fn(i64) -> String,
) -> Html {
    let pct = if total > 0 {
        (used as f64 * 100.0 / total as f64).min(100.0)
    } else {
        0.0
    };
    html! {
        <span class="bar" title={trf(lang, "{} requests {} of {} allocatable", &[&label, &fmt(used), &fmt(total)])}>
            <span class="barlabel">{ format!("{label} {}/{}", fmt(used), fmt(total)) }</span>
            <span class="track"><span class="fill" style={format!("width:{pct:.1}%")}></span></span>
        </span>
    }
}

fn node_card(sim: &SimHandle, g: &Geo, n: &NodeView) -> Html {
    let lang = sim.lang();
    let onclick = (!sim.is_fork_view()).then(|| {
        let sim = sim.clone();
        let name = n.name.clone();
        Callback::from(move |_: MouseEvent| sim.toggle_node_power(&name))
    });
    let title = if n.powered {
        trf(lang, "Power off Node {}", &[&n.name])
    } else {
        trf(lang, "Power on Node {}", &[&n.name])
    };
    html! {
        <button key={format!("node/{}", n.name)} class={classes!("card", "node", if n.ready { "ready" } else { "notready" }, (!n.powered).then_some("off"))}
                style={g.card(3, n.y, NODE_H)} onclick={onclick}
                aria-label={trf(lang, "Node {}", &[&n.name])} title={if sim.is_fork_view() { trf(lang, "Node {}", &[&n.name]) } else { title }}
                data-testid="node" data-status={n.status.clone()}>
            <span class="row1">
                <span class="icon" aria-hidden="true">{ if n.ready { "✓" } else { "✕" } }</span>
                <span class="name" title={n.name.clone()}>{ fit_name(&n.name, g.name_chars(0, 90.0)) }</span>
                <span class="nodestatus" title={n.status.clone()}>{ &n.status }</span>
            </span>
            { bar(lang, "cpu", n.cpu_requested, n.cpu_allocatable, format_cpu_milli) }
            { bar(lang, "mem", n.mem_requested, n.mem_allocatable, format_bytes) }
            <span class="row3">
                { if n.pods == 1 { t(lang, "1 pod").to_string() } else { trf(lang, "{} pods", &[&n.pods]) } }
                if !n.powered { <span class="power">{ t(lang, "power off") }</span> }
                { heartbeat_line(lang, n.silence, true) }
                { for group_taints(&n.taints).into_iter().map(|(short, full)| {
                    // Short form on the card (`unreachable:NoSchedule,NoExecute`); the full
                    // keys in the tooltip.
                    html! { <span class="taint" title={trf(lang, "taints {}", &[&full.join(", ")])}>{ short }</span> }
                }) }

            </span>
        </button>
    }
}

/// A silent node's heartbeat: how long since the last one and the countdown to
/// NotReady (`short`: the chain's card, one line).
pub(crate) fn heartbeat_line(
    lang: crate::i18n::Lang,
    silence: Option<kubeplay_engine::explain::Silence>,
    short: bool,
) -> Html {
    let Some(s) = silence else {
        return html! {};
    };
    let secs = s.for_ms / 1000;
    let text = match (s.not_ready_in, short) {
        (Some(left), true) => trf(
            lang,
            "NotReady in {} s · no heartbeat",
            &[&left.div_ceil(1000)],
        ),
        (Some(left), false) => trf(
            lang,
            "no heartbeat for {} s (NotReady at {} s): NotReady in {} s",
            &[&secs, &((s.for_ms + left) / 1000), &left.div_ceil(1000)],
        ),
        (None, _) => trf(lang, "no heartbeat for {} s", &[&secs]),
    };
    html! {
        <span class="heartbeat countdown" data-testid="heartbeat"
              title={t(lang, "The node lifecycle controller marks a node NotReady when it has not heard a heartbeat (a Lease renewal or a status update) for node-monitor-grace-period, 50 s, at its next 5 s check")}>{ text }</span>
    }
}

/// Taints `key:Effect` grouped by key: (`unreachable:NoExecute,NoSchedule`, the full taints).
fn group_taints(taints: &[String]) -> Vec<(String, Vec<String>)> {
    let mut groups: Vec<(String, Vec<String>, Vec<String>)> = Vec::new();
    for t in taints {
        let (key, effect) = t.rsplit_once(':').unwrap_or((t.as_str(), ""));
        let short = key.rsplit('/').next().unwrap_or(key).to_string();
        match groups.iter_mut().find(|(k, _, _)| *k == short) {
            Some((_, effects, full)) => {
                effects.push(effect.to_string());
                full.push(t.clone());
            }
            None => groups.push((short, vec![effect.to_string()], vec![t.clone()])),
        }
    }
    groups
        .into_iter()
        .map(|(k, e, full)| (format!("{k}:{}", e.join(",")), full))
        .collect()
}

/// A small button at a card's top-right corner that opens the inspector (a separate
/// control: the card itself keeps its one-click action).
/// It follows its card in the page (and so in tab order); `dy` is its offset from the
/// card's top.
fn inspect_button(
    sim: &SimHandle,
    g: &Geo,
    sel: Selection,
    col: usize,
    card_y: f64,
    dy: f64,
) -> Html {
    // The inspector shows the session's objects; the second branch's are not there.
    if sim.is_fork_view() {
        return html! {};
    }
    // One label for every kind: the kind as kubectl prints it, then the name.
    let lang = sim.lang();
    let kind = sel.kind_key().0.name();
    let label = trf(lang, "Inspect {} {}", &[&kind, &sel.name()]);
    let onclick = {
        let sim = sim.clone();
        Callback::from(move |_| sim.select(Some(sel.clone())))
    };
    let style = if g.flow {
        format!("right:4px;top:{}px", dy + 4.0)
    } else {
        format!(
            "left:{:.1}px;top:{}px",
            g.x(col) + g.w() - 22.0,
            card_y + dy + 4.0
        )
    };
    html! {
        <button class="inspect" {style} onclick={onclick} aria-label={label.to_string()} title={label.to_string()} data-testid="inspect">
            <svg viewBox="0 0 16 16" aria-hidden="true"><circle cx="7" cy="7" r="4.5" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M10.5 10.5l3.5 3.5" stroke="currentColor" stroke-width="1.8"/></svg>
        </button>
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shortened_name_keeps_its_suffix_whole_and_gives_up_the_shared_middle() {
        assert_eq!(fit_name("web-59fd79d996-kmcs7", 30), "web-59fd79d996-kmcs7");
        assert_eq!(
            fit_name("gateway-5fccbcf6fb-km8x2", 18),
            "gateway-5fc…-km8x2"
        );
        assert_eq!(fit_name("gateway-5fccbcf6fb-km8x2", 8), "…-km8x2");
        assert_eq!(fit_name("db-0", 3), "db-0");
        for max in 4..30 {
            let f = fit_name("gateway-5fccbcf6fb-km8x2", max);
            assert!(f.chars().count() <= max.max(4), "{f} for {max}");
            assert!(f.ends_with("km8x2") || max < 7, "{f} for {max}");
        }
    }

    #[test]
    fn the_chain_drops_its_node_column_then_becomes_a_tree_as_it_narrows_and_never_scales_text() {
        let full = Geo::for_width(0.0);
        assert_eq!((full.k, full.cols, full.flow), (1.0, 4, false));
        assert_eq!(Geo::for_width(1600.0).k, K_MAX);
        let g = Geo::for_width(880.0);
        assert_eq!((g.cols, g.flow), (4, false));
        let g = Geo::for_width(700.0);
        assert_eq!((g.cols, g.flow), (3, false));
        assert!(g.k >= K_MIN);
        assert!(Geo::for_width(360.0).flow);
    }

    #[test]
    fn a_long_aggregated_list_draws_the_rows_still_converging_first_in_list_order() {
        assert_eq!(agg_rows(5, |_| false), vec![0, 1, 2, 3, 4]);
        let busy = [7usize, 500, 1499];
        let rows = agg_rows(1500, |i| busy.contains(&i));
        assert_eq!(rows.len(), AGG_ROWS_MAX);
        assert!(busy.iter().all(|b| rows.contains(b)));
        assert!(rows.windows(2).all(|w| w[0] < w[1]));
        // More busy rows than room: only busy rows are drawn.
        let rows = agg_rows(1500, |i| i % 2 == 1);
        assert!(rows.iter().all(|i| i % 2 == 1) && rows.len() == AGG_ROWS_MAX);
    }

    #[test]
    fn the_heat_map_cursor_moves_by_cell_and_by_row_and_stays_on_the_map() {
        let len = HEAT_COLS * 2 + 3;
        assert_eq!(heat_cursor_move("ArrowRight", 0, len), Some(1));
        assert_eq!(heat_cursor_move("ArrowLeft", 0, len), Some(0));
        assert_eq!(heat_cursor_move("ArrowDown", 1, len), Some(1 + HEAT_COLS));
        assert_eq!(
            heat_cursor_move("ArrowDown", HEAT_COLS * 2, len),
            Some(len - 1)
        );
        assert_eq!(heat_cursor_move("End", 0, len), Some(len - 1));
        assert_eq!(heat_cursor_move("x", 4, len), None);
    }
}
