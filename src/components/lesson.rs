//! The lesson panel: pick a scenario (built-in or your own), read its steps and run
//! them with a click, watch its goals tick themselves; share the session as a link.

use crate::i18n::{t, trf, Lang};
use crate::sim::{use_sim, ScenarioSource, SimHandle, SimState};
use kubeplay_engine::scenario::{parse, BUILTIN};
use kubeplay_engine::time::{clock_label, SimTime};
use web_sys::{HtmlSelectElement, HtmlTextAreaElement};
use yew::prelude::*;

fn lang_code(l: Lang) -> &'static str {
    match l {
        Lang::En => "en",
        Lang::Zh => "zh",
    }
}

/// The lesson panel.
#[function_component(Lesson)]
pub fn lesson() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let code = lang_code(lang);
    let own = use_state(String::new);
    let own_error = use_state(|| None::<String>);
    let share_url = use_state(|| None::<String>);
    let LessonModel {
        active,
        steps,
        goals,
        title,
        description,
        readonly,
    } = LessonModel::of(&sim.state.borrow(), code);
    let pick = {
        let sim = sim.clone();
        let own_error = own_error.clone();
        Callback::from(move |e: Event| {
            let sel: HtmlSelectElement = e.target_unchecked_into();
            let v = sel.value();
            let src = match v.as_str() {
                "" => None,
                "own" => return,
                id => Some(ScenarioSource::Id(id.to_string())),
            };
            if let Err(e) = sim.load(src) {
                own_error.set(Some(e));
            }
        })
    };
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
        let own_error = own_error.clone();
        Callback::from(move |_| {
            // Validate first: a bad file leaves the cluster as it is.
            match parse(&own, "scenario.yaml") {
                Err(e) => own_error.set(Some(e)),
                Ok(_) => match sim.load(Some(ScenarioSource::Yaml((*own).clone()))) {
                    Ok(()) => own_error.set(None),
                    Err(e) => own_error.set(Some(e)),
                },
            }
        })
    };
    let share = {
        let sim = sim.clone();
        let share_url = share_url.clone();
        Callback::from(move |_| share_url.set(Some(sim.share())))
    };
    let tool = {
        let options = sim.state.borrow().options.clone();
        move |name: &str| options.shows_tool(name)
    };
    // Locked on a lesson, its title below names it; locked on the playground, say so.
    let current_title = active
        .is_none()
        .then(|| t(lang, "Playground (no lesson)").to_string());
    html! {
        <section class="lesson" aria-label={t(lang, "Lesson")} data-testid="lesson">
            <div class="lesson-head">
                if !tool("picker") && current_title.is_some() {
                    // Locked (readonly=1, or an embed that leaves the picker out): the
                    // lesson is named, not chosen.
                    <span class="lesson-locked" data-testid="lesson-locked"><b>{ t(lang, "Lesson") }</b>{ " " }{ current_title.unwrap_or_default() }</span>
                } else if tool("picker") {
                <label>
                    <span class="lesson-label">{ t(lang, "Lesson") }</span>
                    <select onchange={pick} data-testid="scenario-picker" aria-label={t(lang, "Choose a lesson")}>
                        <option value="" selected={active.is_none()}>{ t(lang, "Playground (no lesson)") }</option>
                        { for BUILTIN.iter().filter_map(|(id, y)| parse(y, id).ok().map(|s| (id, s))).map(|(id, s)| html! {
                            <option value={id.to_string()} selected={active.as_deref() == Some(id)}>{ s.title.get(code).to_string() }</option>
                        }) }
                        if active.as_deref() == Some("own") {
                            <option value="own" selected=true>{ t(lang, "Your own scenario") }</option>
                        }
                    </select>
                </label>
                }
                if tool("share") {
                <button class="btn" onclick={share} data-testid="share" title={t(lang, "Put this whole session in a link: opening it reproduces the same state")}>{ t(lang, "Share") }</button>
                if let Some(u) = &*share_url {
                    <input class="share-url" readonly=true value={u.clone()} data-testid="share-url" aria-label={t(lang, "Link to this session")}
                        onfocus={Callback::from(|e: FocusEvent| { let i: web_sys::HtmlInputElement = e.target_unchecked_into(); i.select(); })} />
                }
                }
            </div>
            if let (Some(title), Some(desc)) = (title, description) {
                <h2>{ title }</h2>
                <p class="lesson-desc">{ desc }</p>
                <div class="lesson-body">
                    { steps_view(&sim, lang, &steps, readonly) }
                    { goals_view(lang, &goals) }
                </div>
            }
            if !readonly && tool("author") {
                <details class="own">
                    <summary>{ t(lang, "Write your own scenario (YAML)") }</summary>
                    <textarea rows="10" spellcheck="false" oninput={own_input} value={(*own).clone()} data-testid="own-yaml"
                        aria-label={t(lang, "Scenario YAML")} placeholder="id: my-lesson\ntitle: { en: …, zh: … }\ndescription: { en: …, zh: … }\ncluster:\n  nodes: [{ name: node-1 }]\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=2\ngoals:\n  - label: { en: Two ready, zh: 两个就绪 }\n    expect: deployment/web {.status.readyReplicas} == 2" />
                    <button class="btn" onclick={load_own} data-testid="own-load">{ t(lang, "Check and load") }</button>
                </details>
            }
            if let Some(e) = &*own_error {
                <pre class="own-error" role="alert" data-testid="own-error">{ e }</pre>
            }
        </section>
    }
}

/// The lesson's steps, each with its command and a Run button.
fn steps_view(
    sim: &SimHandle,
    lang: Lang,
    steps: &[(String, Option<String>)],
    readonly: bool,
) -> Html {
    if steps.is_empty() {
        return html! {};
    }
    html! {
        <ol class="lesson-steps" aria-label={t(lang, "Steps")}>
            { for steps.iter().enumerate().map(|(i, (text, cmd))| {
                let run = {
                    let sim = sim.clone();
                    Callback::from(move |_| sim.run_step(i))
                };
                html! {
                    <li>
                        <span>{ text }</span>
                        if let Some(c) = cmd {
                            <code class="step-cmd">{ c.lines().next().unwrap_or_default().to_string() }{ if c.trim_end().lines().count() > 1 { " …" } else { "" } }</code>
                            if !readonly {
                                <button class="btn mini-run" onclick={run} data-testid={format!("step-{i}")}>{ t(lang, "Run") }</button>
                            }
                        }
                    </li>
                }
            }) }
        </ol>

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
    steps: Vec<(String, Option<String>)>,
    goals: Vec<(String, Option<SimTime>)>,
    title: Option<String>,
    description: Option<String>,
    readonly: bool,
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
                        .map(|st| (st.text.get(code).to_string(), st.command.clone()))
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
        }
    }
}
