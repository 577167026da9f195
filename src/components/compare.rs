//! Fork and compare: make one change in a second branch of the session and watch both
//! on one clock, side by side, with the first moment they differ. What the learner does
//! afterwards is done in both, so every difference is the change's doing.

use crate::i18n::{t, trf, InLang};
use crate::sim::use_sim;
use kubeplay_engine::fork::{outline, outline_phrase};
use kubeplay_engine::time::clock_label;
use yew::prelude::*;

/// The "what if" panel.
#[function_component(ComparePanel)]
pub fn compare_panel() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let change = use_state(String::new);
    let error = use_state(|| None::<String>);
    let readonly = sim.readonly();
    let view = {
        let s = sim.state.borrow();
        s.fork.as_ref().map(|f| {
            (
                f.change.clone(),
                f.at,
                outline(&s.cluster),
                outline(&f.m.cluster),
                f.first_difference.clone(),
            )
        })
    };
    let Some((what, at, main, fork, diff)) = view else {
        if readonly {
            return html! {};
        }
        let start = {
            let sim = sim.clone();
            let change = change.clone();
            let error = error.clone();
            Callback::from(move |_| match sim.fork_with(&change) {
                Ok(()) => error.set(None),
                Err(e) => error.set(Some(e)),
            })
        };
        let oninput = {
            let change = change.clone();
            Callback::from(move |e: InputEvent| {
                let el: web_sys::HtmlInputElement = e.target_unchecked_into();
                change.set(el.value());
            })
        };
        return html! {
            <section class="compare" aria-label={t(lang, "What if")} data-testid="compare">
                <h2>{ t(lang, "What if") }<span class="sub">{ t(lang, " — fork the session here, change one thing, and play both on one clock") }</span></h2>
                <div class="fork-form">
                    <input type="text" value={(*change).clone()} {oninput} data-testid="fork-change" spellcheck="false"
                        aria-label={t(lang, "The one change (a command)")}
                        placeholder="kubectl patch deployment web -p '{\"spec\":{\"strategy\":{\"rollingUpdate\":{\"maxUnavailable\":0}}}}'" />
                    <button class="btn" onclick={start} disabled={change.trim().is_empty()} data-testid="fork-start">{ t(lang, "Fork and compare") }</button>
                </div>
                if let Some(e) = &*error {
                    <pre class="own-error" role="alert" data-testid="fork-error">{ e }</pre>
                }
            </section>
        };
    };
    let close = {
        let sim = sim.clone();
        Callback::from(move |_| sim.close_fork())
    };
    let column = |lines: &[String], other: &[String], testid: &str| {
        html! {
            <ul class="outline" data-testid={testid.to_string()}>
                { for lines.iter().enumerate().map(|(i, l)| html! {
                    <li class={classes!((other.get(i) != Some(l)).then_some("differs"))}>{ outline_phrase(l).in_lang(lang) }</li>
                }) }
            </ul>
        }
    };
    html! {
        <section class="compare forked" aria-label={t(lang, "What if")} data-testid="compare">
            <h2>{ t(lang, "What if") }<span class="sub">{ trf(lang, " — forked at {}; what you do now is done in both", &[&clock_label(at)]) }</span>
                if !readonly {
                    <button class="btn mini-run" onclick={close} data-testid="fork-close">{ t(lang, "Close the comparison") }</button>
                }
            </h2>
            <p class="fork-diff" data-testid="fork-diff">
                { match &diff {
                    Some(d) => {
                        let said = |l: &str| if l.is_empty() { "—".to_string() } else { outline_phrase(l).in_lang(lang) };
                        html! { <>{ trf(lang, "First difference at {}:", &[&clock_label(d.at)]) }{ " " }<b>{ t(lang, "as is") }</b>{ format!(" {} · ", said(&d.main)) }<b>{ t(lang, "what if") }</b>{ format!(" {}", said(&d.fork)) }</> }
                    }
                    None => html! { { t(lang, "No difference yet: the two branches look the same.") } },
                } }
            </p>
            // The chains are drawn side by side below; line by line, what a learner sees
            // of each branch (kubectl's words), the lines that differ marked.
            <details class="linebyline">
                <summary>{ t(lang, "Line by line") }</summary>
                <div class="branches">
                    <div>
                        <h3>{ t(lang, "As is") }</h3>
                        { column(&main, &fork, "branch-main") }
                    </div>
                    <div>
                        <h3>{ t(lang, "What if") }{ ": " }<code>{ what }</code></h3>
                        { column(&fork, &main, "branch-fork") }
                    </div>
                </div>
            </details>
        </section>
    }
}
