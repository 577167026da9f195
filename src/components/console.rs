//! The console: the command language typed, with kubectl's output kept aligned,
//! ↑/↓ history and Tab completion. Clicks elsewhere appear here as their commands.

use crate::i18n::{t, trf};
use crate::sim::use_sim;
use kubeplay_engine::command::complete::complete_line;
use web_sys::HtmlTextAreaElement;
use yew::prelude::*;

/// The console panel.
#[function_component(Console)]
pub fn console() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let text = use_state(String::new);
    let hint = use_state(|| None::<String>);
    let hist_pos = use_mut_ref(|| None::<usize>);
    // Escape pressed with nothing to stop: the next Tab leaves the console instead of
    // completing (the documented way out when there is text to complete).
    let escaped = use_mut_ref(|| false);
    let out_ref = use_node_ref();
    let (entries, pending, playing, running) = {
        let s = sim.state.borrow();
        // `sim advance`/`sim settle` on its way: where the clock is going.
        let running = s
            .clock_goal()
            .filter(|_| s.playing || s.clock_live)
            .map(|goal| {
                (
                    kubeplay_engine::time::clock_label(s.cluster.now()),
                    kubeplay_engine::time::clock_label(goal),
                )
            });
        (s.console.clone(), s.pending.is_some(), s.playing, running)
    };
    {
        // Keep the newest output in view.
        let out_ref = out_ref.clone();
        use_effect_with(entries.len(), move |_| {
            if let Some(el) = out_ref.cast::<web_sys::Element>() {
                el.set_scroll_top(el.scroll_height());
            }
        });
    }
    let oninput = {
        let text = text.clone();
        Callback::from(move |e: InputEvent| {
            let ta: HtmlTextAreaElement = e.target_unchecked_into();
            text.set(ta.value());
        })
    };
    let onkeydown = {
        let sim = sim.clone();
        let text = text.clone();
        let hint = hint.clone();
        let hist_pos = hist_pos.clone();
        let escaped = escaped.clone();
        Callback::from(move |e: KeyboardEvent| {
            let cur = (*text).clone();
            let pending = sim.state.borrow().pending.is_some();
            let was_escaped = std::mem::replace(&mut *escaped.borrow_mut(), false);
            match e.key().as_str() {
                "Escape" if pending => {
                    e.prevent_default();
                    sim.interrupt();
                }
                "c" if pending && e.ctrl_key() => {
                    e.prevent_default();
                    sim.interrupt();
                }
                "Escape" => {
                    *escaped.borrow_mut() = true;
                    hint.set(Some(t(lang, "Tab now leaves the console").into()));
                }
                "Enter" if !e.shift_key() && pending => {
                    // A terminal's prompt is busy while kubectl waits; so is this one.
                    e.prevent_default();
                    hint.set(Some(t(lang, "a command is still waiting for the cluster — press Play, or Esc / Ctrl+C to stop it").into()));
                }
                "Enter" if !e.shift_key() => {
                    e.prevent_default();
                    sim.run(&cur);
                    text.set(String::new());
                    hint.set(None);
                    *hist_pos.borrow_mut() = None;
                }
                "ArrowUp" | "ArrowDown" if !cur.contains('\n') => {
                    e.prevent_default();
                    let history = sim.state.borrow().history.clone();
                    if history.is_empty() {
                        return;
                    }
                    let next = history_step(&e.key(), *hist_pos.borrow(), history.len());
                    *hist_pos.borrow_mut() = next;
                    text.set(next.map(|p| history[p].clone()).unwrap_or_default());
                }
                // Tab completes a command being typed; on an empty line, with Shift, or
                // after Escape it moves the focus on, as everywhere else on the page.
                "Tab" if !cur.trim().is_empty() && !e.shift_key() && !was_escaped => {
                    e.prevent_default();
                    let (line, candidates) = complete_line(&sim.state.borrow().cluster, &cur);
                    text.set(line);
                    hint.set(candidates);
                }
                _ => {}
            }
        })
    };
    html! {
        // Empty, it takes the room of its prompt only (the lesson beside it needs it).
        <section class={classes!("console", entries.is_empty().then_some("empty"))} aria-label={t(lang, "Console")}>
            <h2>{ t(lang, "Console") }<span class="sub">{ t(lang, " — kubectl and sim commands; clicks appear here too") }</span></h2>
            <div class="out" ref={out_ref} role="log" aria-live="polite" data-testid="console-output">
                { for entries.iter().map(|e| html! {
                    <div class={classes!("entry", (!e.ok).then_some("failed"))}>
                        <pre class="cmd">{ format!("$ {}", e.command) }</pre>
                        <pre class="res">{ &e.output }</pre>
                    </div>
                }) }
            </div>
            if let Some((now, goal)) = &running {
                <div class="hint" data-testid="console-waiting">
                    { trf(lang, "running the clock: {} of at most {}… (Esc or Ctrl+C stops it)", &[now, goal]) }
                </div>
            } else if pending {
                <div class="hint" data-testid="console-waiting">
                    { if playing { t(lang, "waiting for the cluster… (Esc or Ctrl+C stops it)") } else { t(lang, "waiting for the cluster — the clock is paused: press Play (Esc or Ctrl+C stops it)") } }
                </div>
            }
            if let Some(h) = &*hint {
                <div class="hint" data-testid="console-hint">{ h }</div>
            }
            <div class="prompt">
                <span aria-hidden="true">{"$"}</span>
                <textarea rows="1" value={(*text).clone()} {oninput} {onkeydown} spellcheck="false"
                    autocomplete="off" aria-label={t(lang, "Command (kubectl or sim)")} data-testid="console-input" id="console-input"
                    aria-describedby="console-keys"
                    placeholder="kubectl get pods -o wide" />
            </div>
            <div class="keys" id="console-keys">
                // The keys below the prompt, not in its placeholder (one line there, which a
                // narrow box would cut).
                { t(lang, "Tab completes · ↑/↓ history · Shift+Enter for a new line · Esc then Tab leaves the console · Ctrl+C stops a waiting command") }
            </div>
        </section>
    }
}

/// ↑/↓ through the history of `len` commands from `pos` (None: the fresh line).
fn history_step(key: &str, pos: Option<usize>, len: usize) -> Option<usize> {
    match (key, pos) {
        ("ArrowUp", None) => len.checked_sub(1),
        ("ArrowUp", Some(p)) => Some(p.saturating_sub(1)),
        ("ArrowDown", Some(p)) if p + 1 < len => Some(p + 1),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn up_walks_back_through_the_history_and_down_returns_to_a_fresh_line() {
        assert_eq!(history_step("ArrowUp", None, 3), Some(2));
        assert_eq!(history_step("ArrowUp", Some(0), 3), Some(0));
        assert_eq!(history_step("ArrowDown", Some(1), 3), Some(2));
        assert_eq!(history_step("ArrowDown", Some(2), 3), None);
        assert_eq!(history_step("ArrowUp", None, 0), None);
    }
}
