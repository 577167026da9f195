//! The page's address: options and what to open (`?scenario=`, `embed`, `panels`,
//! `lang`, `speed`…), and the share link (`#s=`) that carries a whole session.

use super::*;
use crate::i18n::Said;
use kubeplay_engine::time::human_duration;

/// Page options from the URL's query.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageOptions {
    /// `embed=1`: the compact layout for an iframe.
    pub embed: bool,
    /// `panels=chain,goals,timeline` (None: the chain, the lesson, the console and the
    /// views that come in by need: [`SimState::view_open`]).
    pub panels: Option<Vec<Panel>>,
    /// `views=`: the views the learner opened or closed.
    pub views: ViewChoices,
    /// What the author should hear about the address: a name `panels=` or `views=`
    /// does not know, with the names accepted (a console warning, and a small notice
    /// on a page that is not read-only).
    pub notices: Vec<String>,
    /// `readonly=1`: the learner watches; no commands, no clicks that change anything.
    pub readonly: bool,
    /// `height=` in px (the iframe's initial height hint).
    pub height: Option<u32>,
    /// `allowOrigins=`: origins whose postMessage commands are obeyed (besides the
    /// page's own). Never `*`: see [`PageOptions::any_origin`].
    pub allow_origins: Vec<String>,
    /// `allowOrigins=*&unsafeAnyOrigin=1`: commands from any page that frames this one
    /// are obeyed. Both are needed: `*` alone is refused, since any site could then
    /// drive a lesson (and reach its goals for the learner).
    pub any_origin: bool,
    /// `slowmo=1` / `slowmo=0`: slow motion after an action on or off (None: the
    /// default, on in lessons).
    pub slow_motion: Option<bool>,
}

impl PageOptions {
    /// Whether panel `p` is shown, as far as the address decides (a view's state and
    /// lesson are [`SimState::shows`]'s).
    pub fn shows(&self, p: Panel) -> bool {
        self.panels.as_ref().is_none_or(|list| list.contains(&p))
    }

    /// Whether the lesson panel's tool (`picker`, `share`, `author`, `import`) is
    /// shown. The full page shows them all. An embed is a course author's page: it
    /// shows the lesson picker only, unless `panels=` lists the tools it wants;
    /// `readonly=1` locks the lesson (no picker, no authoring).
    pub fn shows_tool(&self, tool: Panel) -> bool {
        if self.readonly && tool != Panel::Share {
            return false;
        }
        match &self.panels {
            Some(p) if self.embed => p.contains(&tool),
            _ if self.embed => tool == Panel::Picker,
            _ => true,
        }
    }
}

/// What the URL asks for: query pairs and the hash.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct UrlRequest {
    /// `?k=v` pairs, decoded.
    pub query: Vec<(String, String)>,
    /// The hash without `#`.
    pub hash: String,
}

impl UrlRequest {
    fn get(&self, k: &str) -> Option<&str> {
        self.query
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    }

    /// The page's options (`embed`, `panels`, `views`, `readonly`…), and the error to
    /// show about `allowOrigins=*` alone.
    fn page_options(&self) -> (PageOptions, Option<Said>) {
        let flag = |k: &str| matches!(self.get(k), Some("1" | "true" | "yes"));
        let mut allow_origins: Vec<String> = self
            .get("allowOrigins")
            .map(|o| {
                o.split(',')
                    .map(|x| x.trim().trim_end_matches('/').to_string())
                    .filter(|x| !x.is_empty())
                    .collect()
            })
            .unwrap_or_default();
        let wants_any = allow_origins.iter().any(|o| o == "*");
        allow_origins.retain(|o| o != "*");
        // `*` is obeyed only when the author also says `unsafeAnyOrigin=1`: a typo or a
        // copied example must not open a graded lesson to every site.
        let any_origin = wants_any && flag("unsafeAnyOrigin");
        let error = (wants_any && !any_origin).then(|| {
            said(
                "allowOrigins=* is ignored: add unsafeAnyOrigin=1 to obey commands from any page (unsafe for graded lessons)",
                &[],
            )
        });
        let mut notices = Vec::new();
        let panels = self.get("panels").map(|list| {
            let (panels, unknown) = parse_panels(list);
            if !unknown.is_empty() {
                notices.push(unknown_names_notice("panels", &unknown, &Panel::accepted()));
            }
            panels
        });
        let views = self.get("views").map_or_else(ViewChoices::default, |list| {
            let (views, unknown) = ViewChoices::parse(list);
            if !unknown.is_empty() {
                let accepted: Vec<&str> = View::ALL.iter().map(|v| v.as_str()).collect();
                notices.push(unknown_names_notice(
                    "views",
                    &unknown,
                    &accepted.join(", "),
                ));
            }
            views
        });
        let options = PageOptions {
            embed: flag("embed"),
            panels,
            views,
            notices,
            readonly: flag("readonly"),
            height: self.get("height").and_then(|h| h.parse().ok()),
            slow_motion: match self.get("slowmo") {
                Some("1" | "true" | "yes") => Some(true),
                Some("0" | "false" | "no") => Some(false),
                _ => None,
            },
            allow_origins,
            any_origin,
        };
        (options, error)
    }

    /// The state the URL describes, and an error to show if part of it was bad (the
    /// page then opens on the default playground rather than not at all). A share link
    /// comes back still to replay ([`SimState::replay`]): the page replays it in slices.
    pub fn initial_state(&self) -> (SimState, Option<Said>) {
        let (options, mut error) = self.page_options();
        let from_hash = if let Some(link) = self.hash.strip_prefix("s=") {
            Some(Session::decode(link).and_then(|s| SimState::start_session(&s)))
        } else {
            self.hash.strip_prefix("scenario=").map(|yaml| {
                check_link_length(yaml)?;
                let y = kubeplay_engine::lz::decompress_from_uri(yaml)
                    .ok_or_else(|| said("error: the scenario link is damaged", &[]))?;
                // Checked here too (not only in `with_scenario`) for the reason in the
                // learner's language.
                check_scenario_text(&y)?;
                if let Ok(scn) = ScenarioSource::Yaml(y.clone()).parse() {
                    check_setup(&scn.setup)?;
                }
                SimState::with_scenario(ScenarioSource::Yaml(y)).map_err(Said::raw)
            })
        };
        let state = match from_hash {
            Some(Ok(s)) => Some(s),
            Some(Err(e)) => {
                error = Some(e);
                None
            }
            None => None,
        };
        let state = state.or_else(|| {
            // `lesson=` is read as `scenario=` (authors say "lesson").
            let id = self.get("scenario").or_else(|| self.get("lesson"))?;
            match SimState::with_scenario(ScenarioSource::Id(id.to_string())) {
                Ok(s) => Some(s),
                Err(e) => {
                    error = Some(Said::raw(e));
                    None
                }
            }
        });
        let mut s = state.unwrap_or_else(SimState::default_world);
        if let Some(x10) = self.get("speed").and_then(parse_speed) {
            s.speed_x10 = x10;
        }
        if matches!(self.get("autoplay"), Some("0" | "false" | "no")) {
            s.playing = false;
        }
        if let Some(l) = self.get("lang").and_then(crate::i18n::Lang::from_tag) {
            s.lang = l;
        }
        if let Some(on) = options.slow_motion {
            s.slow_motion = on;
        }
        s.options = options;
        (s, error)
    }
}

/// The notice for names a list parameter (`panels=`, `views=`) does not know.
pub fn unknown_names_notice(param: &str, unknown: &[String], accepted: &str) -> String {
    let quoted: Vec<String> = unknown.iter().map(|n| format!("\"{n}\"")).collect();
    format!(
        "kubeplay: {param}= names {} that this page does not know (ignored). Accepted: {accepted}",
        quoted.join(", ")
    )
}

/// Keep the learner's choice of views in the address (`views=`), so a reload or a
/// copied link opens the same views; the rest of the address stays as it is.
pub fn write_views_param(choices: &ViewChoices) {
    let Some(w) = web_sys::window() else {
        return;
    };
    let loc = w.location();
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&loc.search().unwrap_or_default())
    else {
        return;
    };
    let value = choices.param();
    if value.is_empty() {
        params.delete("views");
    } else {
        params.set("views", &value);
    }
    let query = String::from(params.to_string());
    let url = format!(
        "{}{}{}",
        loc.pathname().unwrap_or_default(),
        if query.is_empty() {
            String::new()
        } else {
            format!("?{query}")
        },
        loc.hash().unwrap_or_default()
    );
    if let Ok(h) = w.history() {
        let _ = h.replace_state_with_url(&wasm_bindgen::JsValue::NULL, "", Some(&url));
    }
}

/// `speed=` as tenths: `0.5` → 5, `30` → 300 (clamped to the toolbar's range).
pub fn parse_speed(v: &str) -> Option<u32> {
    let f: f64 = v.trim_end_matches(['x', '×']).parse().ok()?;
    if !f.is_finite() || f <= 0.0 {
        return None;
    }
    Some(((f * 10.0).round() as u32).clamp(5, 600))
}

/// A whole session as the share link carries it: the starting world (a scenario, or the
/// default playground), what was done when, and the time shown.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Session {
    /// Format version (1).
    pub v: u32,
    /// The scenario, if one was loaded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<ScenarioSource>,
    /// The journal.
    #[serde(default)]
    pub journal: Vec<(SimTime, Act)>,
    /// The simulated time shown.
    pub now: SimTime,
    /// The second branch, if the session was compared with one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fork: Option<ForkLink>,
}

/// A second branch in a share link: when it was forked, its change, and its own acts
/// (the change first; what the learner did after was done in both).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ForkLink {
    /// When.
    pub at: SimTime,
    /// How many of the first branch's acts came before the fork (links made before
    /// this was recorded: every act up to its moment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub acts: Option<usize>,
    /// The change.
    pub change: String,
    /// The branch's journal.
    pub journal: Vec<(SimTime, Act)>,
}

impl Session {
    /// The `#s=` value: JSON compressed with lz-string (URI-safe).
    pub fn encode(&self) -> String {
        kubeplay_engine::lz::compress_to_uri(&serde_json::to_string(self).unwrap_or_default())
    }

    /// Read a `#s=` value; a damaged link says so instead of loading half a session,
    /// and a link past the page's bounds says which one (see [`MAX_LINK_CHARS`],
    /// [`MAX_JOURNAL_ACTS`], [`MAX_SHARED_TIME`], [`check_command`]).
    pub fn decode(s: &str) -> Result<Session, Said> {
        check_link_length(s)?;
        let json = kubeplay_engine::lz::decompress_from_uri(s).ok_or_else(|| {
            said(
                "error: the share link is damaged (it does not decompress)",
                &[],
            )
        })?;
        let value: serde_json::Value = serde_json::from_str(&json)
            .map_err(|e| said("error: the share link is damaged: {}", &[&e]))?;
        // The time shown is checked on its own, so a forged or mistyped one is named.
        match value.get("now") {
            Some(n) if n.as_u64().is_some_and(|n| n <= MAX_SHARED_TIME) => {}
            Some(n) => {
                return Err(said(
                    "error: the share link's time (now = {}) is not a whole number of milliseconds from 0 to {} (a week)",
                    &[&n.to_string().chars().take(40).collect::<String>(), &MAX_SHARED_TIME],
                ))
            }
            None => {}
        }
        let acts = value
            .get("journal")
            .and_then(serde_json::Value::as_array)
            .map_or(0, Vec::len);
        if acts > MAX_JOURNAL_ACTS {
            return Err(said(
                "error: the share link holds {} recorded actions (at most {})",
                &[&acts, &MAX_JOURNAL_ACTS],
            ));
        }
        let session: Session = serde_json::from_value(value)
            .map_err(|e| said("error: the share link is damaged: {}", &[&e]))?;
        if session.v != 1 {
            return Err(said(
                "error: the share link is version {}; this page reads version 1",
                &[&session.v],
            ));
        }
        // A forged link must not make the page simulate for ever: acts in time order,
        // none after the time shown, at most a week of simulated time.
        let ordered = session.journal.windows(2).all(|w| w[0].0 <= w[1].0);
        let in_time = session.journal.iter().all(|(t, _)| *t <= session.now);
        if !ordered || !in_time || session.now > MAX_SHARED_TIME {
            return Err(said(
                "error: the share link is damaged (its times do not add up)",
                &[],
            ));
        }
        // Each command runs in one piece (it cannot yield): its own bounds. Together
        // they may ask for no more simulated time than a link may show.
        let mut asked: SimTime = 0;
        for (_, act) in &session.journal {
            if let Act::Run(text) = act {
                check_command(text)?;
                asked = asked.saturating_add(asked_span(text));
            }
        }
        if asked > MAX_SHARED_TIME {
            return Err(said(
                "error: the share link's commands ask for {} of simulated time in all (at most {})",
                &[&human_duration(asked), &human_duration(MAX_SHARED_TIME)],
            ));
        }
        if let Some(ScenarioSource::Yaml(y)) = &session.scenario {
            check_scenario_text(y)?;
        }
        // The branch is bounded as the session is: in time, in acts, each command.
        if let Some(f) = &session.fork {
            let ordered = f.journal.windows(2).all(|w| w[0].0 <= w[1].0);
            let in_time = f
                .journal
                .iter()
                .all(|(t, _)| *t >= f.at && *t <= session.now);
            if !ordered || !in_time || f.at > session.now || f.journal.len() > MAX_JOURNAL_ACTS {
                return Err(said(
                    "error: the share link is damaged (its times do not add up)",
                    &[],
                ));
            }
            check_command(&f.change)?;
            for (_, act) in &f.journal {
                if let Act::Run(text) = act {
                    check_command(text)?;
                }
            }
        }
        Ok(session)
    }
}

/// A `#s=` or `#scenario=` value no longer than [`MAX_LINK_CHARS`].
pub fn check_link_length(value: &str) -> Result<(), Said> {
    let n = value.len();
    if n > MAX_LINK_CHARS {
        return Err(said(
            "error: the link is too long to open: {} characters (at most {})",
            &[&n, &MAX_LINK_CHARS],
        ));
    }
    Ok(())
}

/// The page's URL as a [`UrlRequest`].
pub fn url_request() -> UrlRequest {
    let Some(w) = web_sys::window() else {
        return UrlRequest::default();
    };
    let loc = w.location();
    let mut query = Vec::new();
    if let Ok(p) = web_sys::UrlSearchParams::new_with_str(&loc.search().unwrap_or_default()) {
        for k in [
            "scenario",
            "lesson",
            "embed",
            "panels",
            "views",
            "lang",
            "speed",
            "autoplay",
            "readonly",
            "height",
            "slowmo",
            "allowOrigins",
            "unsafeAnyOrigin",
        ] {
            if let Some(v) = p.get(k) {
                query.push((k.to_string(), v));
            }
        }
    }
    let hash = loc.hash().unwrap_or_default();
    UrlRequest {
        query,
        hash: hash.trim_start_matches('#').to_string(),
    }
}

/// The page's language at start: `?lang=zh|en`, else the browser's, else English.
pub fn initial_lang() -> crate::i18n::Lang {
    use crate::i18n::Lang;
    let Some(w) = web_sys::window() else {
        return Lang::En;
    };
    let from_url = w.location().search().ok().and_then(|q| {
        q.trim_start_matches('?')
            .split('&')
            .find_map(|kv| kv.strip_prefix("lang="))
            .and_then(Lang::from_tag)
    });
    from_url
        .or_else(|| w.navigator().language().as_deref().and_then(Lang::from_tag))
        .unwrap_or(Lang::En)
}

/// `<html lang>` follows the UI language (screen readers, CJK font selection).
pub fn set_document_lang(lang: crate::i18n::Lang) {
    if let Some(el) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.document_element())
    {
        let _ = el.set_attribute("lang", lang.code());
    }
}

impl SimState {
    /// The state a share link describes: its starting world, then every act at its
    /// time, then the clock to the time it showed — all at once (see
    /// [`SimState::start_session`] for the page's way, in slices).
    #[cfg(test)]
    pub fn from_session(session: &Session) -> Result<Self, Said> {
        let mut s = SimState::start_session(session)?;
        s.replay_slice(&mut || false);
        Ok(s)
    }

    /// A share link's starting world with its journal still to replay: each
    /// [`SimState::replay_slice`] plays some more (the recorded acts at their times,
    /// then the clock to the time the link showed), so the page stays responsive
    /// through up to a week of simulated time.
    pub fn start_session(session: &Session) -> Result<Self, Said> {
        let mut s = match &session.scenario {
            Some(src) => SimState::with_scenario(src.clone()).map_err(Said::raw)?,
            None => SimState::default_world(),
        };
        // A session that acted during the opening story (rewound into it) starts
        // there: the world at its first act, from the opening's snapshots.
        if let Some(&(first, _)) = session.journal.first() {
            if first < s.cluster.now() {
                let playing = s.playing;
                s.seek(first);
                s.timeline.fork(first, 0);
                s.timeline.forked_at = None;
                s.future = None;
                s.playing = playing;
            }
        }
        s.journal = session.journal.clone();
        s.applied = 0;
        // A lesson that opens forked is forked again where the link's branch says.
        s.fork = None;
        s.replay_fork = session.fork.clone();
        let from = s.cluster.now();
        s.replay = Some(Replay {
            from,
            target: session.now.max(from),
        });
        s.ask_before_replay(session);
        Ok(s)
    }

    /// This session, for a share link.
    pub fn session(&self) -> Session {
        let now = self.cluster.now();
        Session {
            v: 1,
            scenario: self.scenario.as_ref().map(|a| a.source.clone()),
            // After a rewind, what the journal holds past now has not happened here.
            journal: self.journal[..self.applied].to_vec(),
            now,
            fork: self.fork.as_ref().map(|f| ForkLink {
                at: f.at,
                acts: Some(f.acts),
                change: f.change.clone(),
                journal: f.m.journal[..f.m.applied.min(f.m.journal.len())].to_vec(),
            }),
        }
    }
}
