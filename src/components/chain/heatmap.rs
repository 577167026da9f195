//! A large cluster: the chain as counts, the nodes as cells, and past
//! [`CELL_BUTTONS_MAX`] nodes one heat-map canvas.

use super::wall_ms;
use crate::i18n::{t, trf};
use crate::sim::{use_sim, Selection, SimHandle, Verb};
use crate::view::*;
use yew::prelude::*;

/// The last aggregated model, with the store revision and wall time it was made at and
/// what it cost (ms).
pub(super) struct AggCache {
    rev: u64,
    at: f64,
    cost: f64,
    model: std::rc::Rc<AggregateModel>,
}

/// The aggregated model when the cluster is large (None: draw the chain). The counts
/// read every Pod: at 150,000 Pods that is tens of ms, too much for every tick. While
/// the clock plays they are recounted at most every ten times what the last count cost
/// (within 1 s); paused, or on a new state after that, at once.
pub(super) fn cached_aggregate(
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
pub(super) fn aggregated_view(sim: &SimHandle, m: &AggregateModel) -> Html {
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

#[cfg(test)]
mod tests {
    use super::*;

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
