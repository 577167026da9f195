//! The page's address: options and what to open (`?scenario=`, `embed`, `panels`,
//! `lang`, `speed`…), and the share link (`#s=`) that carries a whole session.

use super::*;

/// Page options from the URL's query.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PageOptions {
    /// `embed=1`: the compact layout for an iframe.
    pub embed: bool,
    /// `panels=chain,board,timeline,console,goals` (None: all).
    pub panels: Option<Vec<String>>,
    /// `readonly=1`: the learner watches; no commands, no clicks that change anything.
    pub readonly: bool,
    /// `height=` in px (the iframe's initial height hint).
    pub height: Option<u32>,
    /// `allowOrigins=`: origins whose postMessage commands are obeyed (besides the
    /// page's own).
    pub allow_origins: Vec<String>,
}

impl PageOptions {
    /// Whether panel `name` is shown.
    pub fn shows(&self, name: &str) -> bool {
        self.panels
            .as_ref()
            .is_none_or(|p| p.iter().any(|x| x == name))
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

    /// The state the URL describes, and an error to show if part of it was bad (the
    /// page then opens on the default playground rather than not at all).
    pub fn initial_state(&self) -> (SimState, Option<String>) {
        let flag = |k: &str| matches!(self.get(k), Some("1" | "true" | "yes"));
        let options = PageOptions {
            embed: flag("embed"),
            panels: self.get("panels").map(|p| {
                p.split(',')
                    .map(|x| x.trim().to_string())
                    .filter(|x| !x.is_empty())
                    .collect()
            }),
            readonly: flag("readonly"),
            height: self.get("height").and_then(|h| h.parse().ok()),
            allow_origins: self
                .get("allowOrigins")
                .map(|o| {
                    o.split(',')
                        .map(|x| x.trim().trim_end_matches('/').to_string())
                        .filter(|x| !x.is_empty())
                        .collect()
                })
                .unwrap_or_default(),
        };
        let mut error = None;
        let from_hash = if let Some(link) = self.hash.strip_prefix("s=") {
            Some(Session::decode(link).and_then(|s| SimState::from_session(&s)))
        } else {
            self.hash.strip_prefix("scenario=").map(|yaml| {
                kubeplay_engine::lz::decompress_from_uri(yaml)
                    .ok_or_else(|| "error: the scenario link is damaged".to_string())
                    .and_then(|y| SimState::with_scenario(ScenarioSource::Yaml(y)))
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
            let id = self.get("scenario")?;
            match SimState::with_scenario(ScenarioSource::Id(id.to_string())) {
                Ok(s) => Some(s),
                Err(e) => {
                    error = Some(e);
                    None
                }
            }
        });
        let mut s = state.unwrap_or_else(|| SimState::new(crate::view::default_cluster()));
        if let Some(x10) = self.get("speed").and_then(parse_speed) {
            s.speed_x10 = x10;
        }
        if matches!(self.get("autoplay"), Some("0" | "false" | "no")) {
            s.playing = false;
        }
        if let Some(l) = self.get("lang").and_then(crate::i18n::Lang::from_tag) {
            s.lang = l;
        }
        s.options = options;
        (s, error)
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

/// The longest simulated time a share link may ask for (a week).
pub const MAX_SHARED_TIME: SimTime = 7 * 24 * 3_600_000;

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
}

impl Session {
    /// The `#s=` value: JSON compressed with lz-string (URI-safe).
    pub fn encode(&self) -> String {
        kubeplay_engine::lz::compress_to_uri(&serde_json::to_string(self).unwrap_or_default())
    }

    /// Read a `#s=` value; a damaged link says so instead of loading half a session.
    pub fn decode(s: &str) -> Result<Session, String> {
        let json = kubeplay_engine::lz::decompress_from_uri(s)
            .ok_or("error: the share link is damaged (it does not decompress)")?;
        let session: Session = serde_json::from_str(&json)
            .map_err(|e| format!("error: the share link is damaged: {e}"))?;
        if session.v != 1 {
            return Err(format!(
                "error: the share link is version {}; this page reads version 1",
                session.v
            ));
        }
        // A forged link must not make the page simulate for ever: acts in time order,
        // none after the time shown, at most a week of simulated time.
        let ordered = session.journal.windows(2).all(|w| w[0].0 <= w[1].0);
        let in_time = session.journal.iter().all(|(t, _)| *t <= session.now);
        if !ordered || !in_time || session.now > MAX_SHARED_TIME {
            return Err("error: the share link is damaged (its times do not add up)".into());
        }
        Ok(session)
    }
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
            "embed",
            "panels",
            "lang",
            "speed",
            "autoplay",
            "readonly",
            "height",
            "allowOrigins",
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
    /// time, then the clock to the time it showed.
    pub fn from_session(session: &Session) -> Result<Self, String> {
        let mut s = match &session.scenario {
            Some(src) => SimState::with_scenario(src.clone())?,
            None => SimState::new(crate::view::default_cluster()),
        };
        for (t, act) in &session.journal {
            let t = (*t).max(s.cluster.now());
            s.advance(t - s.cluster.now());
            s.observe();
            s.act(act.clone());
        }
        let end = session.now.max(s.cluster.now());
        s.advance(end - s.cluster.now());
        s.observe();
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
        }
    }
}
