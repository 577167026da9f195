//! English and Simplified Chinese for everything the UI itself says. kubectl output,
//! Kubernetes reasons and messages, object names and field names stay as Kubernetes
//! prints them (a learner searches for those words).
//!
//! Keys are the English strings; `{}` marks a value filled in by [`trf`].
//!
//! One convention, checked by a test: a Kubernetes **kind** ([`KINDS`]: Pod, Node,
//! Deployment…) is written in English in both languages, as kubectl prints it, and so
//! are condition types and event reasons (Ready, NotReady, FailedScheduling). Every
//! other UI word is translated, with the course texts' terms ([`TERMS`]).

/// A UI language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// From a `lang` URL parameter or a browser language tag (`zh`, `zh-CN`, `en-US`…);
    /// None when it names neither language.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let t = tag.trim().to_ascii_lowercase();
        if t == "zh" || t.starts_with("zh-") || t.starts_with("zh_") {
            Some(Lang::Zh)
        } else if t == "en" || t.starts_with("en-") || t.starts_with("en_") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// The `lang` attribute value.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }
}

#[cfg_attr(not(test), allow(dead_code))]
/// Kubernetes kinds: the same word in both languages (a capitalized kind in an
/// English string must appear in its Chinese too).
pub const KINDS: &[&str] = &[
    "Pod",
    "Node",
    "Deployment",
    "ReplicaSet",
    "Service",
    "EndpointSlice",
    "Job",
    "CronJob",
    "DaemonSet",
    "StatefulSet",
    "HorizontalPodAutoscaler",
    "PersistentVolumeClaim",
    "PersistentVolume",
    "ConfigMap",
    "Secret",
    "Namespace",
    "Lease",
    "PodDisruptionBudget",
    "ControllerRevision",
    "PriorityClass",
];

#[cfg_attr(not(test), allow(dead_code))]
/// The terminology table: the English UI word, its Chinese, and where it comes from.
/// Prose uses these; a kind named as a kind stays English (see [`KINDS`]).
pub const TERMS: &[(&str, &str, &str)] = &[
    ("desired state / spec", "期望状态", "course texts"),
    ("actual state / status", "实际状态", "course texts"),
    ("replica", "副本", "course texts"),
    ("ready (Pods, replicas)", "就绪", "course texts"),
    ("not ready", "未就绪", "course texts"),
    ("schedule / scheduler", "调度 / 调度器", "course texts"),
    ("node (the machine, in prose)", "节点", "course texts"),
    ("evict / eviction", "驱逐", "course texts"),
    ("taint / toleration", "污点 / 容忍", "course texts"),
    (
        "cordon / drain",
        "封锁（cordon） / 排空（drain）",
        "kubectl verbs kept beside the word",
    ),
    (
        "rolling update / roll back",
        "滚动更新 / 回滚",
        "course texts",
    ),
    ("controller", "控制器", "course texts"),
    ("control plane", "控制平面", "course texts"),
    ("inspector", "检查器", "this UI"),
    ("console", "控制台", "this UI"),
    ("timeline", "时间线", "this UI"),
    ("lesson", "课程场景", "this UI"),
    (
        "describe (the inspector tab)",
        "描述（describe）",
        "kubectl verb kept beside the word",
    ),
    (
        "feasible (a node that passes every filter)",
        "可行",
        "scheduler framework",
    ),
    ("heartbeat", "心跳", "node lifecycle"),
];

mod zh;
use zh::ZH;

/// The text for `en` in `lang` (English when no translation exists).
pub fn t(lang: Lang, en: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Zh => ZH
            .iter()
            .find(|(k, _)| *k == en)
            .map(|(_, v)| *v)
            .unwrap_or(en),
    }
}

/// [`t`] with each `{}` replaced by the next argument.
pub fn trf(lang: Lang, en: &'static str, args: &[&dyn std::fmt::Display]) -> String {
    let mut out = String::new();
    let mut args = args.iter();
    let mut rest = t(lang, en);
    while let Some(i) = rest.find("{}") {
        out.push_str(&rest[..i]);
        if let Some(a) = args.next() {
            out.push_str(&a.to_string());
        }
        rest = &rest[i + 2..];
    }
    out.push_str(rest);
    out
}

/// A sentence the page says, kept as its English template and values so it is put
/// into the learner's language when drawn (view models are built once, shown in either):
/// the engine's read models speak in these.
pub use kubeplay_engine::explain::Phrase as Said;

/// A [`Said`] in the learner's language.
pub trait InLang {
    /// In `lang`.
    fn in_lang(&self, lang: Lang) -> String;
}

impl InLang for Said {
    fn in_lang(&self, lang: Lang) -> String {
        Said::fill(t(lang, self.template), &self.args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `t(lang, "…")` / `trf(lang, "…"` key in the components, found by scanning
    /// their source.
    fn keys_in_source() -> Vec<String> {
        let sources = [
            include_str!("../components/app.rs"),
            include_str!("../sim/share.rs"),
            include_str!("../sim/replay.rs"),
            include_str!("../../engine/src/bounds.rs"),
            include_str!("../components/chain/mod.rs"),
            include_str!("../components/chain/cards.rs"),
            include_str!("../components/chain/heatmap.rs"),
            include_str!("../components/chain/lines.rs"),
            include_str!("../components/control_plane.rs"),
            include_str!("../components/views.rs"),
            include_str!("../components/console.rs"),
            include_str!("../components/deployments.rs"),
            include_str!("../components/events.rs"),
            include_str!("../components/inspector.rs"),
            include_str!("../components/lesson.rs"),
            include_str!("../components/nodeboard.rs"),
            include_str!("../components/toolbar.rs"),
            include_str!("../components/timeline.rs"),
            include_str!("../components/announcer.rs"),
            include_str!("../components/services.rs"),
            include_str!("../components/compare.rs"),
            include_str!("../components/import.rs"),
            include_str!("../components/requests.rs"),
            include_str!("../components/queues.rs"),
            include_str!("../view/mod.rs"),
            include_str!("../view/aggregate.rs"),
            include_str!("../view/chain/mod.rs"),
            include_str!("../view/chain/cards.rs"),
            include_str!("../view/chain/columns.rs"),
            include_str!("../view/chain/links.rs"),
            include_str!("../view/chain/services.rs"),
            include_str!("../view/deployments.rs"),
            include_str!("../view/events.rs"),
            include_str!("../view/node.rs"),
            include_str!("../view/timeline.rs"),
        ];
        let mut keys = Vec::new();
        // rustfmt breaks a long call over lines (`trf(\n    lang,\n    "…"`): read it
        // as one line.
        let joined: Vec<String> = sources.iter().map(|s| join_calls(s)).collect();
        for src in joined.iter().map(String::as_str) {
            for marker in ["t(lang, \"", "trf(lang, \"", "said(\n", "said(\""] {
                let mut rest = src;
                while let Some(i) = rest.find(marker) {
                    rest = &rest[i + marker.len()..];
                    // `said(` may break its line before the template.
                    let r = rest.trim_start().strip_prefix('"').unwrap_or(rest);
                    if let Some(end) = r.find('"') {
                        keys.push(r[..end].to_string());
                    }
                }
            }
        }
        keys
    }

    /// `src` with the whitespace inside `t(`/`trf(` … `lang,` … `"` collapsed to the
    /// one-line form the scan looks for.
    fn join_calls(src: &str) -> String {
        let mut out = String::with_capacity(src.len());
        let mut chars = src.chars().peekable();
        while let Some(c) = chars.next() {
            out.push(c);
            let after_open = out.ends_with("t(") || out.ends_with("trf(");
            let after_lang = out.ends_with("(lang,");
            if after_open || after_lang {
                let mut ws = false;
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                    ws = true;
                }
                if after_lang && ws {
                    out.push(' ');
                }
            }
        }
        out
    }

    #[test]
    fn a_call_rustfmt_broke_over_lines_is_read_as_one() {
        assert_eq!(
            join_calls("trf(\n    lang,\n    \"x {}\",\n &[&1])"),
            "trf(lang, \"x {}\",\n &[&1])"
        );
    }

    #[test]
    fn every_string_the_components_show_has_a_chinese_translation() {
        let mut keys = keys_in_source();
        keys.extend(
            kubeplay_engine::explain::trace::TEMPLATES
                .iter()
                .chain(kubeplay_engine::explain::pod_path::TEMPLATES)
                .chain(kubeplay_engine::fork::TEMPLATES)
                .map(|t| t.to_string()),
        );
        assert!(keys.len() > 60, "the scan found only {} keys", keys.len());
        let missing: Vec<&String> = keys
            .iter()
            .filter(|k| !ZH.iter().any(|(e, _)| e == k))
            .collect();
        assert!(missing.is_empty(), "no Chinese for: {missing:?}");
    }

    #[test]
    fn a_kind_named_in_english_is_named_the_same_in_chinese() {
        let is_word = |text: &str, at: usize, len: usize| {
            let before = text[..at].chars().next_back();
            let after = text[at + len..].chars().next();
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '/')
                && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
        };
        let mut wrong = Vec::new();
        for (en, zh) in ZH {
            for kind in KINDS {
                let named = en
                    .match_indices(kind)
                    .any(|(at, _)| is_word(en, at, kind.len()));
                if named && !zh.contains(kind) {
                    wrong.push(format!("{kind}: {en} → {zh}"));
                }
            }
        }
        assert!(wrong.is_empty(), "kinds translated:\n{}", wrong.join("\n"));
    }

    #[test]
    fn every_term_of_the_table_is_the_one_the_translations_use() {
        for (en, zh, _) in TERMS {
            for part in zh.split(" / ") {
                assert!(
                    ZH.iter().any(|(_, z)| z.contains(part)),
                    "the term for {en} ({part}) is used nowhere"
                );
            }
        }
    }

    #[test]
    fn translations_keep_their_placeholders_and_keys_are_unique() {
        for (i, (en, zh)) in ZH.iter().enumerate() {
            assert_eq!(en.matches("{}").count(), zh.matches("{}").count(), "{en}");
            assert!(!ZH[..i].iter().any(|(e, _)| e == en), "duplicate key {en}");
        }
    }

    #[test]
    fn languages_come_from_tags_and_fill_placeholders() {
        assert_eq!(Lang::from_tag("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::from_tag("ZH"), Some(Lang::Zh));
        assert_eq!(Lang::from_tag("en-US"), Some(Lang::En));
        assert_eq!(Lang::from_tag("fr"), None);
        assert_eq!(trf(Lang::Zh, "ready {}/{}", &[&2, &3]), "就绪 2/3");
        assert_eq!(trf(Lang::En, "ready {}/{}", &[&2, &3]), "ready 2/3");
        assert_eq!(t(Lang::Zh, "not a key"), "not a key");
    }
}
