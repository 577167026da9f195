//! The lesson panel: pick a scenario (built-in or your own), read its steps and run
//! them with a click, watch its goals tick themselves; share the session as a link.

use crate::i18n::{t, trf, Lang};
use crate::sim::{use_sim, Panel, ScenarioSource, SimHandle, SimState};
use kubeplay_engine::scenario::parse;
use kubeplay_engine::time::{clock_label, SimTime};
use web_sys::{HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

fn lang_code(l: Lang) -> &'static str {
    match l {
        Lang::En => "en",
        Lang::Zh => "zh",
    }
}

/// The picker's prompt option (it changes nothing).
const PROMPT: &str = "-";

/// The built-in lessons' titles, read once (reading them on every redraw of the panel
/// cost the page a frame's time).
fn builtin_titles() -> &'static [(&'static str, kubeplay_engine::scenario::Text)] {
    static TITLES: std::sync::OnceLock<Vec<(&'static str, kubeplay_engine::scenario::Text)>> =
        std::sync::OnceLock::new();
    TITLES.get_or_init(kubeplay_engine::scenario::builtin_titles)
}

/// The lesson panel.
#[function_component(Lesson)]
pub fn lesson() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let code = lang_code(lang);
    let own_error = use_state(|| None::<String>);
    let share_url = use_state(|| None::<String>);
    let LessonModel {
        active,
        steps,
        goals,
        title,
        description,
        readonly,
        current,
    } = LessonModel::of(&sim.state.borrow(), code);
    // The current step in view inside the steps' own scroll box (the page stays put).
    let steps_ref = use_node_ref();
    {
        let steps_ref = steps_ref.clone();
        use_effect_with((current, title.clone()), move |_| {
            scroll_to_current(&steps_ref);
        });
    }
    let on_error = {
        let own_error = own_error.clone();
        Callback::from(move |e: Option<String>| own_error.set(e))
    };
    let share = {
        let sim = sim.clone();
        let share_url = share_url.clone();
        Callback::from(move |_| {
            // An imported world is not in any link: the link would replay another.
            if sim.state.borrow().imported.is_some() {
                share_url.set(Some(
                    t(sim.lang(), "An imported cluster: a share link cannot carry it (it would leave the page). Download the snapshot instead.").to_string(),
                ));
            } else {
                share_url.set(Some(sim.share()));
            }
        })
    };
    let tool = {
        let options = sim.state.borrow().options.clone();
        move |tool: Panel| options.shows_tool(tool)
    };
    // Locked on a lesson, its title below names it; locked on the playground, say so.
    let current_title = active
        .is_none()
        .then(|| t(lang, "Playground (no lesson)").to_string());
    html! {
        <section class="lesson" aria-label={t(lang, "Lesson")} data-testid="lesson">
            <div class="lesson-head">
                if !tool(Panel::Picker) && current_title.is_some() {
                    // Locked (readonly=1, or an embed that leaves the picker out): the
                    // lesson is named, not chosen.
                    <span class="lesson-locked" data-testid="lesson-locked"><b>{ t(lang, "Lesson") }</b>{ " " }{ current_title.unwrap_or_default() }</span>
                } else if tool(Panel::Picker) {
                <Picker active={active.clone()} on_error={on_error.clone()} />
                }
                if tool(Panel::Share) {
                <button class="btn" onclick={share} data-testid="share" title={t(lang, "Put this whole session in a link: opening it reproduces the same state")}>{ t(lang, "Share") }</button>
                if let Some(u) = &*share_url {
                    <input class="share-url" readonly=true value={u.clone()} data-testid="share-url" aria-label={t(lang, "Link to this session")}
                        onfocus={Callback::from(|e: FocusEvent| { let i: web_sys::HtmlInputElement = e.target_unchecked_into(); i.select(); })} />
                }
                }
            </div>
            if active.is_none() && tool(Panel::Picker) {
                <p class="lesson-none">{ t(lang, "Playground (no lesson)") }</p>
            }
            if let (Some(title), Some(desc)) = (title, description) {
                <h2>{ title }</h2>
                // What to do now first (the current step, its Run, the goals), then
                // what the lesson is about.
                <div class="lesson-body">
                    { steps_view(&sim, lang, &steps, readonly, current, &steps_ref) }
                    { goals_view(lang, &goals) }
                </div>
                // What the lesson is about: open above an embed's chain, a click away in
                // the dock (where the step and the goals need the room).
                <details class="lesson-about" open={sim.state.borrow().options.embed}>
                    <summary>{ t(lang, "About this lesson") }</summary>
                    <p class="lesson-desc">{ desc }</p>
                </details>
            }
            if !readonly && tool(Panel::Author) {
                <OwnScenario {on_error} />
            }
            if !readonly && tool(Panel::Import) {
                <crate::components::import::ImportPanel />
            }
            if let Some(e) = &*own_error {
                <pre class="own-error" role="alert" data-testid="own-error">{ e }</pre>
            }
        </section>
    }
}

/// Properties of [`Picker`].
#[derive(Properties, PartialEq)]
struct PickerProps {
    /// The lesson open (a built-in id, `own`), if any.
    active: Option<String>,
    /// A lesson that cannot be loaded, or None.
    on_error: Callback<Option<String>>,
}

/// The lesson picker: a short prompt (never a long title a narrow box would cut: the
/// lesson open is named in full below it), the playground, the built-in lessons.
#[function_component(Picker)]
fn picker(props: &PickerProps) -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let code = lang_code(lang);
    // The forty titles are read from their scenario files after the first paint: the
    // chain comes first.
    let painted = super::use_after_first_paint();
    let active = props.active.clone();
    let pick = {
        let on_error = props.on_error.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            let v = sel.value();
            // The picker always shows its prompt: the lesson open is named below it.
            sel.set_selected_index(0);
            let src = match v.as_str() {
                PROMPT | "own" => return,
                "" => None,
                id => Some(ScenarioSource::Id(id.to_string())),
            };
            if let Err(e) = sim.load(src) {
                on_error.emit(Some(e));
            }
        })
    };
    html! {
        <label>
            <span class="lesson-label">{ t(lang, "Lesson") }</span>
            <select onchange={pick} data-testid="scenario-picker" aria-label={t(lang, "Choose a lesson")}>
                <option value={PROMPT} selected=true>{ if active.is_some() { t(lang, "Another lesson…") } else { t(lang, "Choose a lesson…") } }</option>
                if active.is_some() {
                    <option value="">{ t(lang, "Playground (no lesson)") }</option>
                }
                { for (if painted { builtin_titles() } else { &[] }).iter().map(|(id, title)| html! {
                    <option value={id.to_string()} disabled={active.as_deref() == Some(*id)}>{ title.get(code).to_string() }</option>
                }) }
            </select>
        </label>
    }
}

/// Properties of [`OwnScenario`].
#[derive(Properties, PartialEq)]
struct OwnProps {
    /// What was wrong with the file (None: nothing).
    on_error: Callback<Option<String>>,
}

/// Writing one's own scenario: a YAML box, checked before it loads, and the session
/// written as a lesson to start from.
#[function_component(OwnScenario)]
fn own_scenario(props: &OwnProps) -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let own = use_state(String::new);
    let own_input = {
        let own = own.clone();
        Callback::from(move |e: InputEvent| {
            let ta: HtmlTextAreaElement = e.target_unchecked_into();
            own.set(ta.value());
        })
    };
    let load_own = {
        let sim = sim.clone();
        let own = own.clone();
        let on_error = props.on_error.clone();
        Callback::from(move |_| {
            // Validate first: a bad file leaves the cluster as it is.
            match parse(&own, "scenario.yaml") {
                Err(e) => on_error.emit(Some(e)),
                Ok(_) => on_error.emit(sim.load(Some(ScenarioSource::Yaml((*own).clone()))).err()),
            }
        })
    };
    let record = {
        let own = own.clone();
        let on_error = props.on_error.clone();
        Callback::from(move |_| {
            own.set(sim.record_lesson());
            on_error.emit(None);
        })
    };
    html! {
        <details class="own">
            <summary>{ t(lang, "Write your own scenario (YAML)") }</summary>
            <textarea rows="10" spellcheck="false" oninput={own_input} value={(*own).clone()} data-testid="own-yaml"
                aria-label={t(lang, "Scenario YAML")} placeholder="id: my-lesson\ntitle: { en: …, zh: … }\ndescription: { en: …, zh: … }\ncluster:\n  nodes: [{ name: node-1 }]\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=2\ngoals:\n  - label: { en: Two ready, zh: 两个就绪 }\n    expect: deployment/web {.status.readyReplicas} == 2" />
            <button class="btn" onclick={load_own} data-testid="own-load">{ t(lang, "Check and load") }</button>
            <button class="btn" onclick={record} data-testid="own-record" title={t(lang, "Write what you did in this session as a lesson: its cluster, your commands as steps, goals from what changed. Then edit it here.")}>{ t(lang, "Write this session as a lesson") }</button>
        </details>
    }
}

/// One step as the panel shows it.
#[derive(Clone, PartialEq)]
struct StepView {
    /// Run already (ticked).
    ran: bool,
    text: String,
    /// The command lines as they ran, or (not run yet) as a Run would run them now:
    /// names filled in, never a `{pod:…}` placeholder.
    command: Option<Vec<String>>,
    predict: Option<PredictView>,
    /// Once run: simulated time left in its wait, and what its look showed after it.
    run: Option<(SimTime, Option<String>)>,
}

/// A "predict, then run" question, the learner's guess and what happened.
#[derive(Clone, PartialEq)]
struct PredictView {
    question: String,
    /// The choices' texts (empty: a number question).
    choices: Vec<String>,
    /// The guess, as shown (None: not predicted yet).
    guess: Option<String>,
    /// What happened, as shown, and when (None: still watching).
    outcome: Option<(String, SimTime)>,
    /// Whether it went as predicted (once known).
    matched: Option<bool>,
    /// The reasons of the Events written since the step ran, in order, each once.
    evidence: Vec<String>,
}

impl PredictView {
    fn of(s: &SimState, i: usize, q: &kubeplay_engine::scenario::Predict, code: &str) -> Self {
        let p = s.predictions.get(&i);
        let label = |v: &str| match q.choices.is_empty() {
            true => v.to_string(),
            false => v
                .parse::<usize>()
                .ok()
                .and_then(|k| q.choices.get(k))
                .map_or(v.to_string(), |c| c.get(code).to_string()),
        };
        let mut evidence: Vec<String> = Vec::new();
        if let Some(p) = p {
            for e in s.cluster.store.log.since(p.log_from) {
                if e.kind == kubeplay_engine::api::Kind::Event
                    && !e.reason.is_empty()
                    && !evidence.contains(&e.reason)
                {
                    evidence.push(e.reason.to_string());
                }
                if evidence.len() == 8 {
                    break;
                }
            }
        }
        PredictView {
            question: q.question.get(code).to_string(),
            choices: q.choices.iter().map(|c| c.get(code).to_string()).collect(),
            guess: p.map(|p| label(&p.guess)),
            outcome: p
                .and_then(|p| p.outcome.as_ref())
                .map(|(v, t)| (label(v), *t)),
            matched: p.and_then(|p| {
                let (v, _) = p.outcome.as_ref()?;
                Some(v.trim() == p.guess.trim())
            }),
            evidence,
        }
    }
}

/// Scroll the steps' box so its current step is in view (not the page: the box
/// scrolls inside the lesson).
fn scroll_to_current(steps: &NodeRef) {
    use wasm_bindgen::JsCast;
    let Some(list) = steps.cast::<web_sys::HtmlElement>() else {
        return;
    };
    let Some(item) = list
        .query_selector("li.current")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<web_sys::HtmlElement>().ok())
    else {
        return;
    };
    let top = item.offset_top() - list.offset_top();
    let bottom = top + item.offset_height();
    let (shown, room) = (list.scroll_top(), list.client_height());
    if top < shown || bottom > shown + room {
        // The whole step where it fits; a step taller than the box shows its end, where
        // its command and Run are.
        let to = if item.offset_height() > room {
            bottom - room + 4
        } else {
            top - 4
        };
        list.set_scroll_top(to.max(0));
    }
}

/// On a narrow full page the dock is a bottom sheet: a step that runs folds it to its
/// one-line status, so the learner watches the chain.
fn folds_sheet() -> bool {
    // The same width as the stylesheet's sheet layout.
    web_sys::window()
        .and_then(|w| w.inner_width().ok())
        .and_then(|w| w.as_f64())
        .is_some_and(|w| w < 1100.0)
}

/// The lesson's steps, each with its command and a Run button (a "predict, then run"
/// step asks first); the current one marked, those run ticked. The list scrolls in its
/// own box, so the current step and the goals beside it stay in view.
fn steps_view(
    sim: &SimHandle,
    lang: Lang,
    steps: &[StepView],
    readonly: bool,
    current: usize,
    list: &NodeRef,
) -> Html {
    if steps.is_empty() {
        return html! {};
    }
    let embed = sim.state.borrow().options.embed;
    html! {
        <ol class="lesson-steps" aria-label={t(lang, "Steps")} ref={list.clone()} data-testid="steps">
            { for steps.iter().enumerate().map(|(i, st)| {
                let run = {
                    let sim = sim.clone();
                    Callback::from(move |_| {
                        sim.run_step(i);
                        if !embed && folds_sheet() {
                            sim.fold_dock();
                        }
                    })
                };
                html! {
                    <li class={classes!((i == current).then_some("current"), st.ran.then_some("ran"))}
                        aria-current={(i == current).then_some("step")} data-testid={format!("step-item-{i}")}>
                        <span>{ &st.text }{ if st.ran { html! { <span class="ran-mark" title={t(lang, "run")}>{ " ✓" }</span> } } else { html! {} } }</span>
                        if let Some(c) = &st.command {
                            <code class="step-cmd" data-testid={format!("lesson-cmd-{i}")}>{ c.join("\n") }</code>
                            if let Some(p) = &st.predict {
                                <PredictStep index={i} view={p.clone()} {readonly} />
                            } else if !readonly {
                                <button class="btn mini-run" onclick={run} data-testid={format!("step-{i}")}>{ t(lang, "Run") }</button>
                            }
                            { step_wait_view(sim, lang, i, st.run.as_ref()) }
                        }
                    </li>
                }
            }) }
        </ol>

    }
}

/// A step that ran: while its wait plays, how much simulated time is left and an offer
/// to speed the clock up; once it is over, what the step's look shows.
fn step_wait_view(
    sim: &SimHandle,
    lang: Lang,
    i: usize,
    run: Option<&(SimTime, Option<String>)>,
) -> Html {
    match run {
        Some((left, _)) if *left > 0 => {
            let speed = {
                let sim = sim.clone();
                let left = *left;
                Callback::from(move |_| sim.speed_up(left))
            };
            html! {
                <p class="step-wait" role="status" data-testid={format!("lesson-wait-{i}")}>
                    { trf(lang, "Its point takes time: {} of simulated time left", &[&clock_label(*left)]) }
                    { " " }
                    <button class="btn mini-run" onclick={speed} data-testid={format!("lesson-speed-up-{i}")}>{ t(lang, "Speed up") }</button>
                </p>
            }
        }
        Some((_, Some(look))) => html! {
            <pre class="step-look" data-testid={format!("lesson-look-{i}")}>{ look }</pre>
        },
        _ => html! {},
    }
}

#[derive(Properties, PartialEq)]
struct PredictProps {
    index: usize,
    view: PredictView,
    readonly: bool,
}

/// A "predict, then run" step: the question, an answer to commit, then the guess
/// beside what happened, with the Events as evidence.
#[function_component(PredictStep)]
fn predict_step(props: &PredictProps) -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let guess = use_state(String::new);
    let i = props.index;
    let v = &props.view;
    let body = if let Some(g) = &v.guess {
        let (what, mark) = match (&v.outcome, v.matched) {
            (Some((o, at)), Some(true)) => (
                trf(lang, "What happened: {} (at {})", &[o, &clock_label(*at)]),
                t(lang, "✓ as predicted"),
            ),
            (Some((o, at)), _) => (
                trf(lang, "What happened: {} (at {})", &[o, &clock_label(*at)]),
                t(lang, "✗ not as predicted"),
            ),
            (None, _) => (t(lang, "What happened: still watching…").to_string(), ""),
        };
        html! {
            <div class={classes!("predict-result", v.matched.map(|m| if m { "matched" } else { "missed" }))} data-testid={format!("predict-result-{i}")}>
                <p>{ trf(lang, "Your prediction: {}", &[g]) }</p>
                <p>{ what }{ " " }<strong>{ mark }</strong></p>
                if !v.evidence.is_empty() {
                    <p class="evidence">{ trf(lang, "Evidence (Events since the step): {}", &[&v.evidence.join(", ")]) }</p>
                }
            </div>
        }
    } else if props.readonly {
        html! {}
    } else {
        let commit = {
            let sim = sim.clone();
            let guess = guess.clone();
            Callback::from(move |_| {
                if !guess.trim().is_empty() {
                    sim.predict_and_run(i, (*guess).trim().to_string());
                }
            })
        };
        let answer = if v.choices.is_empty() {
            let g = guess.clone();
            html! {
                <input type="number" class="predict-number" aria-label={t(lang, "Your answer (a number)")}
                    data-testid={format!("predict-number-{i}")} value={(*guess).clone()}
                    oninput={Callback::from(move |e: InputEvent| {
                        let el: web_sys::HtmlInputElement = e.target_unchecked_into();
                        g.set(el.value());
                    })} />
            }
        } else {
            html! {
                <div class="predict-choices" role="radiogroup" aria-label={v.question.clone()}>
                    { for v.choices.iter().enumerate().map(|(k, c)| {
                        let g = guess.clone();
                        html! {
                            <label>
                                <input type="radio" name={format!("predict-{i}")} checked={*guess == k.to_string()}
                                    data-testid={format!("predict-{i}-{k}")}
                                    onchange={Callback::from(move |_| g.set(k.to_string()))} />
                                { c }
                            </label>
                        }
                    }) }
                </div>
            }
        };
        html! {
            <>
                { answer }
                <button class="btn mini-run" onclick={commit} disabled={guess.trim().is_empty()} data-testid={format!("step-{i}")}>{ t(lang, "Predict, then run") }</button>
            </>
        }
    };
    html! {
        <div class="predict" data-testid={format!("predict-{i}")}>
            <p class="predict-q">{ &v.question }</p>
            { body }
        </div>
    }
}

/// The lesson's goals, ticked with the simulated time each was reached.
fn goals_view(lang: Lang, goals: &[(String, Option<SimTime>)]) -> Html {
    let reached = goals.iter().filter(|(_, r)| r.is_some()).count();
    html! {
        <div class="lesson-goals" data-testid="goals">
            <h3>{ trf(lang, "Goals: {} of {} reached", &[&reached, &goals.len()]) }</h3>
            <ul>
                { for goals.iter().enumerate().map(|(i, (label, r))| html! {
                    <li class={classes!("goal", r.is_some().then_some("reached"))} data-testid={format!("goal-{i}")} data-reached={r.is_some().to_string()}>
                        <span class="goal-mark" aria-hidden="true">{ if r.is_some() { "✓" } else { "○" } }</span>
                        <span>{ label }</span>
                        <span class="sr">{ if r.is_some() { t(lang, "(reached)") } else { t(lang, "(not yet)") } }</span>
                        if let Some(at) = r {
                            <span class="when">{ clock_label(*at) }</span>
                        }
                    </li>
                }) }
            </ul>
        </div>
    }
}

/// What the panel shows of the loaded lesson, in language `code`.
struct LessonModel {
    /// The picker's value: a built-in id, `own`, or none.
    active: Option<String>,
    steps: Vec<StepView>,
    goals: Vec<(String, Option<SimTime>)>,
    title: Option<String>,
    description: Option<String>,
    readonly: bool,
    /// The step to do now: the one after the last run.
    current: usize,
}

impl LessonModel {
    fn of(s: &SimState, code: &str) -> LessonModel {
        let a = s.scenario.as_ref();
        LessonModel {
            active: a.map(|a| match &a.source {
                ScenarioSource::Id(id) => id.clone(),
                ScenarioSource::Yaml(_) => "own".to_string(),
            }),
            steps: a
                .map(|a| {
                    a.scenario
                        .steps
                        .iter()
                        .enumerate()
                        .map(|(i, st)| {
                            let ran = s.step_runs.get(&i);
                            StepView {
                                ran: ran.is_some(),
                                text: st.text.get(code).to_string(),
                                command: st.command.as_ref().map(|c| match ran {
                                    Some(r) => r.commands.clone(),
                                    None => kubeplay_engine::scenario::shown_command(&s.cluster, c),
                                }),
                                predict: st
                                    .predict
                                    .as_ref()
                                    .map(|q| PredictView::of(s, i, q, code)),
                                run: ran.map(|r| (r.left(s.cluster.now()), r.look.clone())),
                            }
                        })
                        .collect()
                })
                .unwrap_or_default(),
            goals: a
                .map(|a| {
                    a.scenario
                        .goals
                        .iter()
                        .zip(&a.tracker.reached)
                        .map(|(g, r)| (g.label.get(code).to_string(), *r))
                        .collect()
                })
                .unwrap_or_default(),
            title: a.map(|a| a.scenario.title.get(code).to_string()),
            description: a.map(|a| a.scenario.description.get(code).to_string()),
            readonly: s.options.readonly,
            current: s.step_runs.keys().next_back().map_or(0, |i| {
                let last = a.map_or(0, |a| a.scenario.steps.len().saturating_sub(1));
                (i + 1).min(last)
            }),
        }
    }
}
