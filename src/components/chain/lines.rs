//! The words of a card's lines, fitted to the room the card has. Each line is the
//! longest of its forms that fits ([`text_px`], measured on the wide side): a shorter
//! form drops words, never the part that tells objects apart (a Pod's suffix, its uid,
//! a node's name, a count). The full words stay in the line's tooltip and in the card's
//! accessible name.

use super::geo::{first_fitting, fit_name, mono_px, text_px};
use crate::i18n::{t, trf, Lang};

/// Font sizes of a card's lines (px), as the stylesheet sets them.
pub const STATUS_PX: f64 = 12.0;
/// The small lines (uid, node, restarts, kind, counts).
pub const SMALL_PX: f64 = 11.0;

/// A Pod's restarts at the right of its status line, in the room the status leaves
/// (`restarts 2`, `↻ 2`; nothing for none when even that does not fit).
pub fn restarts_label(lang: Lang, status: &str, restarts: i64, room: f64) -> String {
    let left = room - text_px(status, STATUS_PX, false) - 6.0;
    let mut forms = vec![
        trf(lang, "restarts {}", &[&restarts]),
        format!("↻ {restarts}"),
    ];
    if restarts == 0 {
        forms.push(String::new());
    }
    first_fitting(forms, left, |s| text_px(s, SMALL_PX, false))
}

/// `· node NAME` after a Pod's uid, in the room the uid leaves (`· NAME` next, the
/// name's shared middle last).
pub fn node_label(lang: Lang, uid: &str, node: &str, room: f64) -> String {
    let left = room - mono_px(uid, SMALL_PX) - 6.0;
    let width = |s: &str| text_px(s, SMALL_PX, false);
    let mut forms = vec![
        format!("· {}", trf(lang, "node {}", &[&node])),
        format!("· {node}"),
    ];
    forms.extend(
        (4..node.chars().count())
            .rev()
            .map(|n| format!("· {}", fit_name(node, n))),
    );
    first_fitting(forms, left, width)
}

/// "→ replaced by NAME (uid UID)" in `room`: the name's shared middle goes first, then
/// the words; the new Pod's suffix and uid always stay.
pub fn replaced_label(lang: Lang, name: &str, uid: &str, room: f64) -> String {
    let len = name.chars().count();
    // Never shorter than "…-" and the whole suffix.
    let least = name
        .rsplit('-')
        .next()
        .map_or(4, |t| t.chars().count() + 2)
        .min(len);
    let with_words = (least..=len).rev().map(|n| {
        format!(
            "→ {}",
            trf(lang, "replaced by {} (uid {})", &[&fit_name(name, n), &uid])
        )
    });
    let bare = (least..=len)
        .rev()
        .map(|n| format!("→ {} (uid {uid})", fit_name(name, n)));
    // The last resort: the suffix and the uid alone.
    let least_form = format!("→ {} ({uid})", fit_name(name, least));
    let mut forms: Vec<String> = with_words
        .take(len.min(8))
        .chain(bare)
        .chain(std::iter::once(least_form))
        .collect();
    forms.dedup();
    first_fitting(forms, room, |s| text_px(s, SMALL_PX, true))
}

/// A silent node's heartbeat on its card: the countdown to NotReady, or how long it
/// has been silent.
pub fn heartbeat_label(lang: Lang, silent_ms: u64, not_ready_in: Option<u64>) -> String {
    match not_ready_in {
        Some(left) => trf(lang, "NotReady in {} s", &[&left.div_ceil(1000)]),
        None => trf(lang, "no heartbeat for {} s", &[&(silent_ms / 1000)]),
    }
}

/// A node's taints on its card, grouped by key (`unreachable:NoExecute,NoSchedule`), in
/// at most `lines` lines of `room`: the groups whole where they fit, else their keys
/// (`taints unreachable, unschedulable`), else their count.
pub fn taint_labels(lang: Lang, groups: &[String], room: f64, lines: usize) -> Vec<String> {
    let width = |s: &str| text_px(s, SMALL_PX, false) + 8.0;
    // Each group wraps at its ':' and ','s, so a long one takes a line per part.
    let lines_of = |g: &str| (width(g) / room).ceil().max(1.0) as usize;
    if groups.iter().map(|g| lines_of(g)).sum::<usize>() <= lines {
        return groups.to_vec();
    }
    let keys: Vec<&str> = groups
        .iter()
        .map(|g| g.split(':').next().unwrap_or(g))
        .collect();
    let forms = vec![
        trf(lang, "taints {}", &[&keys.join(", ")]),
        trf(lang, "{} taints", &[&groups.len()]),
    ];
    vec![first_fitting(forms, room, width)]
}

/// A Service card's kind line: `Service · ClusterIP · 10.96.0.12:80` where it fits,
/// else the address goes to its own line: (kind line, address line).
pub fn service_kind_lines(
    lang: Lang,
    type_: &str,
    address: &str,
    room: f64,
) -> (String, Option<String>) {
    let short = format!("{} · {type_}", t(lang, "Service"));
    let long = format!("{short} · {address}");
    if text_px(&long, SMALL_PX, false) <= room {
        (long, None)
    } else {
        (short, Some(address.to_string()))
    }
}

/// A Service's endpoints by state: all three counts with the word where they fit,
/// else the counts that are not zero (ready always).
pub fn endpoints_label(
    lang: Lang,
    (ready, not_ready, terminating): (usize, usize, usize),
    room: f64,
) -> String {
    let mut short = vec![trf(lang, "{} ready", &[&ready])];
    if not_ready > 0 {
        short.push(trf(lang, "{} not ready", &[&not_ready]));
    }
    if terminating > 0 {
        short.push(trf(lang, "{} terminating", &[&terminating]));
    }
    let forms = vec![
        trf(
            lang,
            "endpoints {} ready · {} not ready · {} terminating",
            &[&ready, &not_ready, &terminating],
        ),
        short.join(" · "),
    ];
    first_fitting(forms, room, |s| text_px(s, SMALL_PX, false))
}

/// What a Service's requests met in the last `seconds`: failures first (they are the
/// news), the window's length the first thing to go.
pub fn traffic_label(lang: Lang, answered: u64, failed: u64, seconds: u64, room: f64) -> String {
    let mut forms = vec![trf(
        lang,
        "{} failed · {} answered in the last {} s",
        &[&failed, &answered, &seconds],
    )];
    if failed > 0 {
        forms.push(trf(lang, "{} failed · {} answered", &[&failed, &answered]));
        forms.push(trf(lang, "{} failed", &[&failed]));
    } else {
        forms.push(trf(
            lang,
            "{} answered in the last {} s",
            &[&answered, &seconds],
        ));
        forms.push(trf(lang, "{} answered", &[&answered]));
    }
    first_fitting(forms, room, |s| text_px(s, SMALL_PX, failed > 0))
}

/// An owner card's kind line (`ReplicaSet · revision 3`) in `room`: the kind goes first
/// (the column head names it), the detail stays.
pub fn kind_label(kind: &str, detail: &str, room: f64) -> String {
    let forms = vec![format!("{kind} · {detail}"), detail.to_string()];
    first_fitting(forms, room, |s| text_px(s, SMALL_PX, false))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_narrow_pod_card_gives_up_the_restarts_word_before_the_status() {
        let en = Lang::En;
        assert_eq!(restarts_label(en, "1/1 Running", 0, 220.0), "restarts 0");
        assert_eq!(restarts_label(en, "1/1 Running not Ready", 0, 170.0), "↻ 0");
        assert_eq!(restarts_label(en, "1/1 Running not Ready", 0, 140.0), "");
        assert_eq!(restarts_label(en, "1/1 Running not Ready", 4, 140.0), "↻ 4");
    }

    #[test]
    fn the_replacement_keeps_its_suffix_and_uid_in_any_room_and_language() {
        for lang in [Lang::En, Lang::Zh] {
            for room in [120.0, 160.0, 200.0, 320.0] {
                let l = replaced_label(lang, "gateway-5fccbcf6fb-x4jzh", "db20290a", room);
                assert!(l.contains("x4jzh") && l.contains("db20290a"), "{l}");
                assert!(
                    text_px(&l, SMALL_PX, true) <= room || room < 130.0,
                    "{l} in {room}"
                );
            }
        }
        let wide = replaced_label(Lang::En, "web-59fd79d996-x4jzh", "db20290a", 400.0);
        assert_eq!(wide, "→ replaced by web-59fd79d996-x4jzh (uid db20290a)");
    }

    #[test]
    fn taints_that_do_not_fit_their_lines_are_named_by_key() {
        let g = vec!["unreachable:NoExecute,NoSchedule".to_string()];
        assert_eq!(taint_labels(Lang::En, &g, 160.0, 2), g);
        let two = vec![g[0].clone(), "unschedulable:NoSchedule".to_string()];
        assert_eq!(
            taint_labels(Lang::En, &two, 220.0, 1),
            ["taints unreachable, unschedulable"]
        );
        assert_eq!(taint_labels(Lang::En, &two, 160.0, 2), ["2 taints"]);
    }

    #[test]
    fn a_service_line_drops_words_before_numbers() {
        assert_eq!(endpoints_label(Lang::En, (3, 0, 0), 120.0), "3 ready");
        assert_eq!(
            endpoints_label(Lang::En, (2, 0, 1), 120.0),
            "2 ready · 1 terminating"
        );
        assert_eq!(
            traffic_label(Lang::En, 52, 0, 3, 170.0),
            "52 answered in the last 3 s"
        );
        assert_eq!(traffic_label(Lang::En, 52, 0, 3, 130.0), "52 answered");
        assert_eq!(
            traffic_label(Lang::En, 50, 2, 3, 170.0),
            "2 failed · 50 answered"
        );
        let (kind, addr) = service_kind_lines(Lang::En, "ClusterIP", "10.104.163.19:80", 160.0);
        assert_eq!(
            (kind.as_str(), addr.as_deref()),
            ("Service · ClusterIP", Some("10.104.163.19:80"))
        );
    }
}
