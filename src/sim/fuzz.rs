//! The page's own link path under the engine's fuzz runner (`kubeplay_engine::fuzz`):
//! a page address — query options and a `#s=` share link or a `#scenario=` link — read
//! as [`UrlRequest::initial_state`] reads it (lz-string, the session's JSON and its
//! checks, the scenario, then the journal replayed into a [`SimState`]), and the
//! loaded state's own share link decoded again.
//!
//! In CI a bounded run; the long run (docs/reliability.md, "Fuzzing"):
//! `KUBEPLAY_FUZZ_INPUTS=1000000 cargo test -p kubeplay --profile fuzz fuzzed_page_links -- --nocapture`.
//!
//! Work per link is bounded as in the engine's targets, for the per-input time budget
//! (the engine bounds itself: a day per command, its Pod limit): every command a link
//! carries (journal and scenario setup) has its spans between an hour and a day
//! lowered to an hour and its replica counts between a thousand and int32's range to a
//! thousand ([`kubeplay_engine::fuzz::targets::bound`]); what is past the engine's own
//! bounds reaches it as written, to be refused. The link's own `now` keeps the page's
//! bound ([`MAX_SHARED_TIME`]).

use super::*;
use kubeplay_engine::fuzz::gen::{Corpus, Generator, Kind};
use kubeplay_engine::fuzz::targets::bound;
use kubeplay_engine::fuzz::{run, Budget};
use kubeplay_engine::lz;
use std::borrow::Cow;
use std::time::Duration;

kubeplay_engine::counting_allocator!();

/// Every string in `v` (journal commands, a scenario's YAML) bounded.
fn bound_strings(v: &mut serde_json::Value) -> bool {
    match v {
        serde_json::Value::String(s) => match bound(s) {
            Cow::Owned(b) => {
                *s = b;
                true
            }
            Cow::Borrowed(_) => false,
        },
        serde_json::Value::Array(a) => a.iter_mut().fold(false, |c, x| bound_strings(x) | c),
        serde_json::Value::Object(o) => o.values_mut().fold(false, |c, x| bound_strings(x) | c),
        _ => false,
    }
}

/// The hash with the commands it carries bounded; unchanged (the same stream, damage
/// and all) when nothing needed it.
fn bound_hash(hash: &str) -> String {
    let (prefix, payload) = match hash.split_once('=') {
        Some((p @ ("s" | "scenario"), rest)) => (p, rest),
        _ => return hash.to_string(),
    };
    let Some(plain) = lz::decompress_from_uri(payload) else {
        return hash.to_string();
    };
    let bounded = if prefix == "s" {
        let Ok(mut v) = serde_json::from_str::<serde_json::Value>(&plain) else {
            return hash.to_string();
        };
        if !bound_strings(&mut v) {
            return hash.to_string();
        }
        v.to_string()
    } else {
        match bound(&plain) {
            Cow::Owned(b) => b,
            Cow::Borrowed(_) => return hash.to_string(),
        }
    };
    format!("{prefix}={}", lz::compress_to_uri(&bounded))
}

/// `?k=v&…#hash` as the page would see it.
fn request(input: &str) -> UrlRequest {
    let (query, hash) = input.split_once('#').unwrap_or((input, ""));
    let query = query
        .trim_start_matches('?')
        .split('&')
        .filter(|kv| !kv.is_empty())
        .map(|kv| {
            let (k, v) = kv.split_once('=').unwrap_or((kv, ""));
            (k.to_string(), v.to_string())
        })
        .collect();
    UrlRequest {
        query,
        hash: bound_hash(hash),
    }
}

/// One input: open the page on it, then decode its share link again.
fn open(input: &str) {
    let (s, _error) = request(input).initial_state();
    let link = s.session().encode();
    Session::decode(&link).expect("a loaded session's own share link decodes");
}

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

#[test]
fn fuzzed_page_links_never_panic_or_run_over_budget() {
    let inputs = env_or("KUBEPLAY_FUZZ_INPUTS", 100);
    let seed = env_or("KUBEPLAY_FUZZ_SEED", 1);
    // Time is reported, never asserted: a test must not fail because the machine
    // is loaded. The long run in the fuzz profile checks the 2 s goal
    // (KUBEPLAY_FUZZ_WALL_MS=2000) and bench.mjs prints it; a real hang still ends
    // the run through the watchdog.
    let budget = Budget {
        wall: Duration::from_millis(env_or("KUBEPLAY_FUZZ_WALL_MS", 30_000)),
        ..Budget::default()
    };
    let corpus = Corpus::from_repo(std::path::Path::new(env!("CARGO_MANIFEST_DIR")));
    let mut g = Generator::new(Kind::Link, &corpus, seed);
    let report = run(
        "page link",
        inputs,
        &budget,
        Some(heap_meter()),
        &mut |_| g.next_input(),
        &open,
        &mut |r| eprint!("{r}"),
    );
    eprint!("{report}");
    assert!(
        report.panicked == 0 && report.over_heap.is_empty(),
        "fuzzing found problems (seed {seed}):\n{report}"
    );
}

#[test]
fn a_link_whose_commands_ask_for_hours_is_bounded_before_the_page_replays_it() {
    let json = r#"{"v":1,"journal":[[0,{"r":"sim advance 20h"}]],"now":0}"#;
    let hash = bound_hash(&format!("s={}", lz::compress_to_uri(json)));
    let plain = lz::decompress_from_uri(hash.trim_start_matches("s=")).unwrap();
    assert!(plain.contains("sim advance 1h"), "{plain}");
    // Past the engine's own bound: left for the engine to refuse.
    let json = r#"{"v":1,"journal":[[0,{"r":"sim advance 99999h"}]],"now":0}"#;
    let hash = format!("s={}", lz::compress_to_uri(json));
    assert_eq!(bound_hash(&hash), hash);
    // Nothing to bound: the same stream, byte for byte.
    assert_eq!(bound_hash("s=NoIgLg"), "s=NoIgLg");
}
