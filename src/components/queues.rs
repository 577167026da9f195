//! The queue view: every control loop's informer watch (its resourceVersion, or
//! broken with the events it missed), its work queue (depth and the next keys), the
//! reconciles that drained it, retries and keys backing off, and what the last
//! re-watch did (resumed, or 410 Gone and relisted). Buttons break a watch.

use crate::i18n::{t, trf};
use crate::sim::use_sim;
use kubeplay_engine::cluster::informers::LoopView;
use kubeplay_engine::time::clock_label;
use yew::prelude::*;

/// The widest queue bar, in keys.
const BAR_KEYS: usize = 20;

/// The queue view panel.
#[function_component(QueueView)]
pub fn queue_view() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let readonly = sim.readonly();
    let loops: Vec<LoopView> = sim.state.borrow().cluster.loop_views();
    let brk = |name: &str, gone: bool| {
        let sim = sim.clone();
        let cmd = format!(
            "sim watch break {name} --for 30s{}",
            if gone { " --gone" } else { "" }
        );
        Callback::from(move |_| sim.click(cmd.clone()))
    };
    html! {
        <section class="queues" aria-label={t(lang, "Informers and work queues")} data-testid="queue-view">
            <h2>
                { t(lang, "Informers and work queues") }
                <span class="sub">{ t(lang, " — changes flow in through each controller's watch, reconciles drain its queue") }</span>
            </h2>
            <table>
                <thead>
                    <tr>
                        <th>{ t(lang, "controller") }</th>
                        <th>{ t(lang, "watch") }</th>
                        <th>{ t(lang, "queue") }</th>
                        <th>{ t(lang, "syncs") }</th>
                        <th>{ t(lang, "retries") }</th>
                        <th>{ t(lang, "last key synced") }</th>
                        if !readonly { <th></th> }
                    </tr>
                </thead>
                <tbody>
                { for loops.iter().map(|v| {
                    let broken = v.watch.broken_since;
                    let width = (v.depth.min(BAR_KEYS) * 100 / BAR_KEYS).max(usize::from(v.depth > 0) * 4);
                    html! {
                        <tr data-testid={format!("queue-{}", v.name)} data-depth={v.depth.to_string()}
                            data-broken={broken.is_some().to_string()} data-relists={v.watch.relists.to_string()}>
                            <td class="name">{ &v.name }</td>
                            <td class={classes!("watch", broken.map(|_| "broken"))}>
                                { match broken {
                                    Some(since) => trf(lang, "broken since {} · {} missed", &[&clock_label(since), &v.watch.missed]),
                                    None => trf(lang, "watching from rv {}", &[&v.watch.resource_version]),
                                } }
                                if let Some(last) = &v.watch.last {
                                    <div class="last" data-testid="rewatch">{ last }</div>
                                }
                            </td>
                            <td class="depth">
                                if v.depth > 0 {
                                    <span class="bar" style={format!("width:{width}%")}></span>
                                }
                                <span class="n">{ v.depth }</span>
                                if !v.next.is_empty() {
                                    <span class="next">{ v.next.join(", ") }</span>
                                }
                            </td>
                            <td>{ v.stats.syncs }</td>
                            <td class={classes!((v.failing > 0).then_some("failing"))}
                                title={t(lang, "requeues after a failed reconcile (per-key back-off 5 ms doubling to 1000 s, and 10 per second overall) · keys backing off now")}>
                                { format!("{} · {}", v.stats.retries, v.failing) }
                            </td>
                            <td class="key">
                                { if v.stats.last_key.is_empty() { "-".to_string() } else { v.stats.last_key.clone() } }
                                if let Some(at) = v.stats.last_at {
                                    <span class="at">{ format!(" {}", clock_label(at)) }</span>
                                }
                            </td>
                            if !readonly {
                                <td class="acts">
                                    <button disabled={broken.is_some()} onclick={brk(&v.name, false)}
                                            data-testid={format!("break-{}", v.name)}
                                            title={t(lang, "Break its watch for 30 s; it resumes from its resourceVersion and is sent what it missed")}>
                                        { t(lang, "break watch") }
                                    </button>
                                    <button disabled={broken.is_some()} onclick={brk(&v.name, true)}
                                            data-testid={format!("break-gone-{}", v.name)}
                                            title={t(lang, "Break its watch for 30 s, its resourceVersion compacted meanwhile: 410 Gone, it relists")}>
                                        { "410" }
                                    </button>
                                </td>
                            }
                        </tr>
                    }
                }) }
                </tbody>
            </table>
        </section>
    }
}
