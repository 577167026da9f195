//! The chain: Deployment → ReplicaSet → Pods → Nodes, spec beside status, with lines
//! for ownerReferences and bindings.

use crate::i18n::t;
use crate::sim::{use_sim, Branch, Selection, SimHandle, Verb};
use crate::view::*;
use kubeplay_engine::time::SimTime;
use std::collections::BTreeSet;
use yew::prelude::*;

mod cards;
mod geo;
mod heatmap;
mod lines;

use cards::*;
pub use cards::{bar, heartbeat_line};
pub use geo::Geo;
use heatmap::{aggregated_view, cached_aggregate, AggCache};

/// Wall milliseconds a change cue (fade-in start, pulse) stays on before the cards
/// settle, when no new frame comes first.
const CUE_MS: u32 = 350;

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
            if !g.flow {
                <div class="colheads" style={format!("width:{total:.1}px")}>
                    <span style={format!("left:{:.1}px;width:{:.1}px", g.x(0), g.w())}>{ if model.cronjobs.is_empty() { t(lang, "Deployment") } else { t(lang, "Deployment · CronJob") } }</span>
                    <span style={format!("left:{:.1}px;width:{:.1}px", g.x(1), g.w())}>{ owner_column_title(&model) }</span>
                    <span style={format!("left:{:.1}px;width:{:.1}px", g.x(2), g.w())}>{ "Pod" }</span>
                    if g.cols == 4 {
                        <span style={format!("left:{:.1}px;width:{:.1}px", g.x(3), g.w())}>{ t(lang, "Node") }</span>
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
            if g.cols < 4 || g.flow {
                // No Node column: the nodes in a row below, so they stay on the first
                // screen (a click powers one off or on, as in the column).
                <div class="nodestrip" aria-label={t(lang, "Nodes")} data-testid="node-strip">
                    { for model.nodes.iter().map(|n| node_chip(&sim, n)) }
                </div>
            }
            // After the cards in the page (so the first Pod is a few Tabs from the skip
            // link), drawn at the chain's top right.
            <div class="chaintools">{ chain_tools(&sim) }</div>
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
    // The 🔍 at the top right: the lines below keep the card's whole width.
    object_item(sim, g, sel, depth, card, 2, p.y, 0.0, differs)
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
