//! The engine's fuzz targets, each a function of one input that must not panic:
//! manifests, scripts in the command language on a small cluster, scenario files, and
//! the lz-string half of a page link (the app crate fuzzes the rest of the link path
//! with its own `SimState`).
//!
//! The engine bounds itself: one command plays at most a day of simulated time
//! ([`crate::time::MAX_SPAN`], refused past it by `command::args::parse_span`), and a
//! cluster holds at most [`crate::apiserver::Store::pod_limit`] Pods. Inputs past those
//! bounds reach the engine as written, and it must refuse or handle them.
//!
//! What the harness still lowers is for its per-input *time budget* (2 s), not for
//! safety: a day is legal, but a day with a thousand Pending Pods is ~25 s of
//! scheduling retries (measured, fuzz profile), and a Deployment filling the default
//! Pod limit (10,000 on a small cluster) ~3 s. So:
//!
//! - spans longer than [`MAX_SPAN`] (an hour) and within the engine's bound are
//!   lowered to an hour ([`bound_script`]); longer ones pass, and the engine refuses
//!   them;
//! - replica counts above [`MAX_REPLICAS`] and below int32's largest are lowered to it
//!   ([`bound_replicas`]) in the command, scenario and link targets; larger ones pass,
//!   and the API server refuses them. int32's largest itself passes as the extreme it
//!   is: the engine must cost what its Pod limit allows for it, never a slot per
//!   replica (a StatefulSet's used to be an allocation of 17 GB). The engine's Pod
//!   limit grows with the nodes (110 per node), so `sim reset --nodes 5000` allows
//!   550,000 Pods: legal, and far past the budget;
//! - node counts of `sim reset --nodes N` above [`MAX_NODES`] are lowered to it: every
//!   node renews its Lease every 10 s, so a large cluster costs in proportion to its
//!   size even idle (the envelope benchmark measures the engine at 5,000 nodes). In an
//!   input that asks for int32's largest replica count they are lowered further, to
//!   [`MAX_NODES_WITH_EXTREMES`], so that the Pod limit stays [`POD_LIMIT`];
//! - a command-target input stops once it has played [`MAX_INPUT_SPAN`] (two hours)
//!   in all: work grows with simulated time times what runs in it, and forty one-hour
//!   commands over a thousand Pending Pods are forty hours of real scheduling retries
//!   (about 0.35 s per hour in the fuzz profile: the engine's cost is per event, and
//!   an unschedulable Pod is legitimately retried every five minutes);
//! - the command and manifest targets' cluster has a Pod limit of [`POD_LIMIT`]
//!   (`Store::pod_limit_floor`, which `sim reset` keeps): the engine's own limit,
//!   reached with fewer Pods (several Deployments of a thousand each).

use crate::cluster::Cluster;
use crate::command::{self, args, script, NoFiles};
use crate::time::{SimTime, MINUTE};

/// The Pod limit of the command and manifest targets' cluster (see the module docs:
/// the time budget's, not a safety bound).
pub const POD_LIMIT: usize = 1_000;
use std::borrow::Cow;

/// The most simulated time one command of a fuzz input plays: spans up to the engine's
/// own bound are lowered to it, for the per-input time budget (module docs).
pub const MAX_SPAN: SimTime = 60 * MINUTE;

/// The most simulated time one command-target input plays in all: its commands run
/// until the clock has moved this far, and the rest are not run (module docs).
pub const MAX_INPUT_SPAN: SimTime = 2 * MAX_SPAN;

/// Flags whose value is a span the clock plays (or waits) through.
const SPAN_FLAGS: &[&str] = &["--timeout", "--max", "--every", "--after"];

/// Whether `word` is a duration longer than [`MAX_SPAN`] that the engine would play
/// (past [`crate::time::MAX_SPAN`] it refuses the command: left as written).
fn too_long(word: &str) -> bool {
    args::parse_duration(word).is_ok_and(|ms| ms > MAX_SPAN && ms <= crate::time::MAX_SPAN)
}

/// `line` with every span longer than [`MAX_SPAN`] replaced by `1h`. A line whose long
/// span cannot be found as written (quoting) is dropped.
pub fn bound_line(line: &str) -> Cow<'_, str> {
    let Ok(words) = args::split_words(line) else {
        return Cow::Borrowed(line); // it is an error anyway; nothing runs
    };
    let mut long: Vec<&str> = Vec::new();
    for (i, w) in words.iter().enumerate() {
        let next = words.get(i + 1).map(String::as_str);
        if w == "advance" && i > 0 && words[i - 1] == "sim" || SPAN_FLAGS.contains(&w.as_str()) {
            long.extend(next.filter(|n| too_long(n)));
        }
        if let Some((f, v)) = w.split_once('=') {
            if SPAN_FLAGS.contains(&f) && too_long(v) {
                long.push(v);
            }
        }
    }
    if long.is_empty() {
        return Cow::Borrowed(line);
    }
    let mut out = line.to_string();
    for span in long {
        // Replace from the right: a span is written after its flag or verb.
        match out.rfind(span) {
            Some(at) if !span.is_empty() => out.replace_range(at..at + span.len(), "1h"),
            _ => return Cow::Owned(String::new()),
        }
    }
    Cow::Owned(out)
}

/// [`bound_line`] on every line of a script (or of any text holding command lines,
/// such as a scenario's YAML).
pub fn bound_script(text: &str) -> Cow<'_, str> {
    if !text.contains("advance") && !SPAN_FLAGS.iter().any(|f| text.contains(f)) {
        return Cow::Borrowed(text);
    }
    let mut changed = false;
    let mut out = String::with_capacity(text.len());
    for l in text.split_inclusive('\n') {
        let (body, end) = match l.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (l, ""),
        };
        let b = bound_line(body);
        changed |= matches!(b, Cow::Owned(_));
        out.push_str(&b);
        out.push_str(end);
    }
    if changed {
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// The most replicas a scenario's setup or a link's journal may ask for (module docs:
/// the time budget's, not a safety bound).
pub const MAX_REPLICAS: u64 = 1_000;

/// The most nodes a `sim reset --nodes N` of a fuzz input makes (module docs: the time
/// budget's; an idle node renews its Lease every 10 s, so 5,000 nodes for six simulated
/// minutes are 180,000 writes — the engine's cost per event, measured by the envelope
/// benchmark instead).
pub const MAX_NODES: u64 = 100;

/// The most nodes in an input that asks for int32's largest replica count: few enough
/// that the Pod limit (110 a node) stays [`POD_LIMIT`].
pub const MAX_NODES_WITH_EXTREMES: u64 = (POD_LIMIT / crate::apiserver::POD_LIMIT_PER_NODE) as u64;

/// int32's largest, the extreme replica count left as written.
const INT32_MAX: &str = "2147483647";

/// `text` with every replica count above [`MAX_REPLICAS`] and below int32's largest
/// lowered to it, wherever it is written: `--replicas=N`, `--replicas N`,
/// `replicas: N`, `"replicas":N`. int32's largest and larger counts are left as
/// written (the engine bounds the one, the API server refuses the others). Node counts
/// (`--nodes N`) above [`MAX_NODES`] are lowered the same way, or above
/// [`MAX_NODES_WITH_EXTREMES`] when the text asks for int32's largest anywhere.
pub fn bound_replicas(text: &str) -> Cow<'_, str> {
    let nodes = if text.contains(INT32_MAX) {
        MAX_NODES_WITH_EXTREMES
    } else {
        MAX_NODES
    };
    match bound_count(text, "replicas", MAX_REPLICAS) {
        Cow::Borrowed(t) => bound_count(t, "--nodes", nodes),
        Cow::Owned(o) => Cow::Owned(bound_count(&o, "--nodes", nodes).into_owned()),
    }
}

/// Every number written after `word` (past spaces, quotes, `:` and `=`) above `max`
/// and below int32's largest, lowered to `max`.
fn bound_count<'a>(text: &'a str, word: &str, max: u64) -> Cow<'a, str> {
    let mut out = String::new();
    let mut copied = 0;
    let mut from = 0;
    while let Some(i) = text[from..].find(word).map(|i| from + i) {
        from = i + word.len();
        let rest = &text[from..];
        let skip = rest.len() - rest.trim_start_matches([' ', '"', '\'', ':', '=']).len();
        let after = &rest[skip..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        let big = digits > 0
            && after[..digits]
                .parse::<u64>()
                .is_ok_and(|n| n > max && n < i32::MAX as u64);
        if big {
            out.push_str(&text[copied..from + skip]);
            out.push_str(&max.to_string());
            copied = from + skip + digits;
            from = copied;
        }
    }
    if copied == 0 {
        return Cow::Borrowed(text);
    }
    out.push_str(&text[copied..]);
    Cow::Owned(out)
}

/// Both bounds: [`bound_replicas`], then [`bound_script`].
pub fn bound(text: &str) -> Cow<'_, str> {
    match bound_replicas(text) {
        Cow::Borrowed(t) => bound_script(t),
        Cow::Owned(o) => Cow::Owned(bound_script(&o).into_owned()),
    }
}

/// Manifests: parse every document; what parses is applied to a small cluster, as
/// `kubectl apply -f` would (validation and defaulting). The same text is also read
/// as another cluster's state (`sim import`).
pub struct ManifestTarget {
    template: Cluster,
}

/// A one-node cluster with a settled three-replica Deployment `web`: the page's
/// playground, the world most commands are typed into; its Pod limit is [`POD_LIMIT`].
pub fn small_cluster() -> Cluster {
    let mut c = Cluster::with_default_nodes(1);
    c.store.pod_limit_floor = Some(POD_LIMIT);
    // A fixed, valid Deployment on an empty cluster: creation cannot fail.
    let _ = c.create_deployment("web", "nginx:1.27", 3, "100m", "128Mi");
    c.settle(120_000);
    c
}

impl Default for ManifestTarget {
    fn default() -> Self {
        ManifestTarget {
            template: small_cluster(),
        }
    }
}

impl ManifestTarget {
    /// Run one input.
    pub fn exec(&self, input: &str) {
        // The same text as another cluster's state (`sim import`): restored, not
        // applied, through its own reader (JSON first, Lists, kinds left out).
        let _ = crate::import::import(
            1,
            Some(POD_LIMIT),
            &[("fuzz.yaml".into(), input.to_string())],
        );
        if let Ok(docs) = crate::manifest::parse(input, "fuzz.yaml") {
            for d in &docs {
                let _ = d.object.to_json();
            }
            let mut c = self.template.clone();
            let _ = command::run(&mut c, "kubectl apply -f -", Some(input), &NoFiles);
            // Applying does not play the clock: a huge replica count costs nothing here.
        }
    }
}

/// Scripts in the command language, on a copy of [`small_cluster`] each.
pub struct CommandTarget {
    template: Cluster,
}

impl Default for CommandTarget {
    fn default() -> Self {
        CommandTarget {
            template: small_cluster(),
        }
    }
}

impl CommandTarget {
    /// Names in the template worth aiming at (its Pods, nodes, ReplicaSets).
    pub fn names(&self) -> Vec<String> {
        let c = &self.template;
        let pods = c
            .store
            .list::<crate::api::Pod>()
            .map(|p| p.metadata.name.clone());
        let rs = c
            .store
            .list::<crate::api::ReplicaSet>()
            .map(|r| r.metadata.name.clone());
        let nodes = c
            .store
            .list::<crate::api::Node>()
            .map(|n| n.metadata.name.clone());
        pods.chain(rs).chain(nodes).collect()
    }

    /// Run one input: as a script when it parses as one (heredocs feed stdin), else
    /// line by line, spans and replica counts bounded (module docs).
    pub fn exec(&self, input: &str) {
        self.play(input);
    }

    /// [`CommandTarget::exec`], giving back the cluster it played on.
    fn play(&self, input: &str) -> Cluster {
        let mut c = self.template.clone();
        let start = c.now();
        // Commands after the input has played MAX_INPUT_SPAN are not run (module docs).
        let spent = |c: &Cluster| c.now().saturating_sub(start) >= MAX_INPUT_SPAN;
        let text = bound(input);
        match script::parse(&text, "fuzz.sh") {
            Ok(lines) => {
                for l in lines {
                    if spent(&c) {
                        break;
                    }
                    let cmd = bound_line(&l.command);
                    let _ = command::run(&mut c, &cmd, l.stdin.as_deref(), &NoFiles);
                }
            }
            Err(_) => {
                for l in text.lines() {
                    if spent(&c) {
                        break;
                    }
                    let _ = command::run(&mut c, l, None, &NoFiles);
                }
            }
        }
        c
    }
}

/// Scenario files: parse, then what parses is built (its nodes and setup script,
/// spans bounded), its goals checked once, and its steps' selectors expanded — what
/// the page does when a lesson is opened.
pub fn scenario(input: &str) {
    let Ok(mut s) = crate::scenario::parse(input, "fuzz.yaml") else {
        return;
    };
    s.setup = bound(&s.setup).into_owned();
    let Ok(mut c) = crate::scenario::build(&s) else {
        return;
    };
    let mut t = crate::scenario::Tracker::new(&s);
    t.check(&s, &mut c);
    for st in &s.steps {
        if let Some(cmd) = &st.command {
            let _ = crate::scenario::expand(&c, cmd);
        }
    }
}

/// The engine's half of a page link (`?query#s=…` or `#scenario=…`): lz-string
/// decoding, and that whatever decodes also survives a compress/decompress round trip
/// unchanged (lz-string's own promise); a `#scenario=` link's YAML is parsed too.
pub fn link(input: &str) {
    let hash = input.split_once('#').map_or("", |(_, h)| h);
    let payload = hash
        .strip_prefix("s=")
        .or_else(|| hash.strip_prefix("scenario="))
        .unwrap_or(hash);
    for text in [payload, input] {
        if let Some(plain) = crate::lz::decompress_from_uri(text) {
            let again = crate::lz::decompress_from_uri(&crate::lz::compress_to_uri(&plain));
            assert_eq!(
                again.as_deref(),
                Some(plain.as_str()),
                "lz-string round trip"
            );
            if hash.starts_with("scenario=") {
                let _ = crate::scenario::parse(&plain, "link.yaml");
            } else {
                let _ = serde_json::from_str::<serde_json::Value>(&plain);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spans_past_the_budget_are_lowered_and_past_the_engines_bound_left_as_written() {
        // Past a day: the engine refuses it, as written.
        assert_eq!(bound_line("sim advance 999999h"), "sim advance 999999h");
        assert_eq!(bound_line("sim advance 24h"), "sim advance 1h");
        assert_eq!(bound_line("sim advance 90s"), "sim advance 90s");
        assert_eq!(
            bound_line("kubectl wait pods --all --for=delete --timeout=100m"),
            "kubectl wait pods --all --for=delete --timeout=1h"
        );
        assert_eq!(bound_line("sim settle --max '3h'"), "sim settle --max '1h'");
        assert_eq!(bound_line("sim advance 7200"), "sim advance 1h");
        assert_eq!(bound_line("sim advance 9999999"), "sim advance 9999999");
        assert_eq!(
            bound_line("kubectl scale deploy web --replicas=999999"),
            "kubectl scale deploy web --replicas=999999"
        );
    }

    #[test]
    fn node_counts_past_the_budget_are_lowered() {
        assert_eq!(bound("sim reset --nodes 5000\n"), "sim reset --nodes 100\n");
        assert_eq!(bound("sim reset --nodes=40"), "sim reset --nodes=40");
        // With int32's largest replica count in the input, the Pod limit stays 1,000.
        assert_eq!(
            bound("sim reset --nodes=40\nk scale sts/db --replicas=2147483647"),
            "sim reset --nodes=9\nk scale sts/db --replicas=2147483647"
        );
    }

    #[test]
    fn replica_counts_past_the_budget_are_lowered_and_past_int32_left_as_written() {
        assert_eq!(
            bound_replicas("k scale deploy/web --replicas=3316348\n  replicas: 99999999999999999999\n{\"replicas\":5000}"),
            "k scale deploy/web --replicas=1000\n  replicas: 99999999999999999999\n{\"replicas\":1000}"
        );
        assert_eq!(
            bound_replicas("--replicas 3 replicas: 1000 replicas: 2147483648"),
            "--replicas 3 replicas: 1000 replicas: 2147483648"
        );
        assert_eq!(
            bound_replicas("--replicas=2147483646 --replicas=2147483647"),
            "--replicas=1000 --replicas=2147483647"
        );
        assert!(matches!(bound_replicas("replicas: 7"), Cow::Borrowed(_)));
        assert_eq!(
            bound_script("sim time\n  sim advance 2h\n"),
            "sim time\n  sim advance 1h\n"
        );
    }

    #[test]
    fn a_command_input_stops_once_it_has_played_two_hours() {
        let t = CommandTarget::default();
        let start = t.template.now();
        let c = t.play("sim advance 50m\nsim advance 50m\nsim advance 50m\n");
        assert_eq!(c.now() - start, 3 * 50 * MINUTE);
        let c = t.play("sim advance 50m\nsim advance 50m\nsim advance 50m\nsim advance 50m\n");
        assert_eq!(
            c.now() - start,
            3 * 50 * MINUTE,
            "the fourth command started past two hours and did not run"
        );
        let c = t.play("sim advance 3h\nsim advance 3h\nsim advance 3h\n");
        assert_eq!(
            c.now() - start,
            2 * 60 * MINUTE,
            "one command's span is lowered to an hour, and the third is not run"
        );
    }

    #[test]
    fn the_command_targets_cluster_keeps_its_pod_limit_across_a_reset() {
        let t = CommandTarget::default();
        let mut c = t.template.clone();
        let o = command::run(&mut c, "sim reset --nodes 1", None, &NoFiles);
        assert!(o.ok, "{}", o.output);
        assert_eq!(c.store.pod_limit(), POD_LIMIT);
    }
}
