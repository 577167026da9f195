//! Clock and controls: play / pause / step / speed, and the last click as a command.

use crate::i18n::{t, trf, Lang};
use crate::sim::{speed_label, use_sim, SPEEDS_X10};
use kubeplay_engine::time::clock_label;
use yew::prelude::*;

/// The rewind slider's step (ms).
const SCRUB_STEP: u64 = 100;

/// The toolbar.
#[function_component(Toolbar)]
pub fn toolbar() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let (slow_motion, slowing, last_step) = {
        let s = sim.state.borrow();
        (
            s.slow_motion,
            s.playing && s.effective_speed_x10() < s.speed_x10,
            s.last_step.clone(),
        )
    };
    let toggle_slow = {
        let sim = sim.clone();
        Callback::from(move |_| sim.toggle_slow_motion())
    };
    let (now, playing, speed, cmd, err, horizon, forked, lagging) = {
        let s = sim.state.borrow();
        (
            s.cluster.now(),
            s.playing,
            s.speed_x10,
            s.last_command.clone(),
            s.last_error.clone(),
            s.timeline.horizon.max(s.cluster.now()),
            s.timeline.forked_at,
            s.playing && s.lagging,
        )
    };
    let seek = {
        let sim = sim.clone();
        Callback::from(move |e: InputEvent| {
            if let Some(input) = e.target_dyn_into::<web_sys::HtmlInputElement>() {
                if let Ok(t) = input.value().parse::<u64>() {
                    // The range snaps to 100 ms steps from 0, so a latest moment between
                    // two steps is out of its reach: the last step before the end means
                    // the end.
                    let max = input.max().parse::<u64>().unwrap_or(t);
                    sim.seek(if t + SCRUB_STEP > max { max } else { t });
                }
            }
        })
    };
    let toggle = {
        let sim = sim.clone();
        Callback::from(move |_| sim.toggle_play())
    };
    let step = {
        let sim = sim.clone();
        Callback::from(move |_| sim.step())
    };
    html! {
        <section class="toolbar" aria-label={t(lang, "Simulation controls")}>
            <span class="clock" data-testid="clock" aria-label={t(lang, "Simulated time")}>{ clock_label(now) }</span>
            <button class="btn" onclick={toggle} aria-pressed={playing.to_string()} data-testid="play">
                { if playing { icon_pause() } else { icon_play() } }
                { if playing { t(lang, "Pause") } else { t(lang, "Play") } }
            </button>
            <button class="btn" onclick={step} title={t(lang, "Run the next event")} data-testid="step">{ icon_step() }{ t(lang, "Step") }</button>
            <span class="speeds" role="group" aria-label={t(lang, "Speed")}>
                { for SPEEDS_X10.iter().map(|s| {
                    let sim = sim.clone();
                    let s = *s;
                    let onclick = Callback::from(move |_| sim.set_speed(s));
                    let label = speed_label(s);
                    html! {
                        <button class={classes!("btn", "speed", (speed == s).then_some("on"))}
                            onclick={onclick} aria-pressed={(speed == s).to_string()}
                            data-testid={format!("speed-{}", label.trim_end_matches('×'))}>{ label }</button>
                    }
                }) }
                if lagging {
                    <span class="lagging" data-testid="lagging" title={t(lang, "This cluster takes longer to simulate than the chosen speed allows; the page stays responsive and the clock runs slower")}>{ t(lang, "simulation slower than chosen") }</span>
                }
            </span>
            <button class={classes!("btn", "slowmo", slow_motion.then_some("on"))} onclick={toggle_slow}
                aria-pressed={slow_motion.to_string()} data-testid="slow-motion"
                title={t(lang, "Slow motion after an action: for a few seconds after you change something, the clock plays at 0.3× (when you watch at 1× or slower) so each step of the reconcile can be seen")}>
                { t(lang, "Slow motion") }
            </button>
            if slowing {
                <span class="slowing" data-testid="slowing">{ t(lang, "slow motion: watching your change") }</span>
            }
            <label class="scrub" title={t(lang, "Drag to go back in time and forward again (the engine replays from snapshots)")}>
                <span>{ t(lang, "Rewind") }</span>
                <input type="range" min="0" max={horizon.to_string()} step={SCRUB_STEP.to_string()} value={now.to_string()}
                    oninput={seek} aria-label={t(lang, "Simulated time: drag to rewind or fast-forward")} aria-valuetext={clock_label(now)}
                    data-testid="scrub" />
                if now < horizon {
                    <span class="behind" data-testid="behind">{ trf(lang, "{} behind the latest", &[&clock_label(horizon - now)]) }</span>
                }
                if let Some(f) = forked {
                    <span class="forked" data-testid="forked" title={t(lang, "A command after a rewind starts a new history: what came after that moment is gone")}>{ trf(lang, "history forked at {}", &[&clock_label(f)]) }</span>
                }
            </label>
            <span class="langs" role="group" aria-label={t(lang, "Language")}>
                { for [(Lang::En, "English"), (Lang::Zh, "中文")].into_iter().map(|(l, label)| {
                    let sim = sim.clone();
                    let onclick = Callback::from(move |_| sim.set_lang(l));
                    html! {
                        <button class={classes!("btn", "lang", (lang == l).then_some("on"))} onclick={onclick}
                            aria-pressed={(lang == l).to_string()} lang={l.code()} data-testid={format!("lang-{}", if l == Lang::Zh { "zh" } else { "en" })}>{ label }</button>
                    }
                }) }
            </span>
            if let Some((at, writes)) = last_step {
                <span class="stepped" role="status" data-testid="step-summary">
                    { trf(lang, "Step → {}: {}", &[&clock_label(at), &step_summary(lang, &writes)]) }
                </span>
            }
            if let Some(c) = cmd {
                <code class="lastcmd" data-testid="last-command">{ format!("$ {}", crate::sim::command_summary(&c)) }</code>
            }
            if let Some(e) = err {
                <span class="error" role="alert">{ e }</span>
            }
        </section>
    }
}

/// The writes of one step, the first few named.
fn step_summary(lang: Lang, writes: &[String]) -> String {
    const SHOWN: usize = 3;
    if writes.is_empty() {
        return t(lang, "only the clock moved (a heartbeat or a timer)").to_string();
    }
    let mut text = writes
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join("; ");
    if writes.len() > SHOWN {
        text.push_str(&trf(lang, " (+{} more)", &[&(writes.len() - SHOWN)]));
    }
    text
}

// Inline SVG icons: no icon font or emoji font is assumed on the learner's machine.
fn icon_play() -> Html {
    html! { <svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M4 2l10 6-10 6z" /></svg> }
}

fn icon_pause() -> Html {
    html! { <svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M3 2h4v12H3zM9 2h4v12H9z" /></svg> }
}

fn icon_step() -> Html {
    html! { <svg class="ico" viewBox="0 0 16 16" aria-hidden="true"><path d="M2 2l8 6-8 6zM11 2h3v12h-3z" /></svg> }
}
