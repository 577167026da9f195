//! The simulation handle shared through a Yew context.

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::wait::Blocking;
use kubeplay_engine::command::{self, script, NoFiles};
use kubeplay_engine::time::SimTime;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;
use yew::prelude::*;

/// Speeds offered by the toolbar, in tenths (×0.5 … ×60 simulated time per wall time):
/// tenths so half speed is an integer like the rest.
pub const SPEEDS_X10: [u32; 5] = [5, 10, 50, 300, 600];

/// `0.5×`, `30×`: a speed in tenths as the toolbar labels it.
pub fn speed_label(x10: u32) -> String {
    if x10 % 10 == 0 {
        format!("{}×", x10 / 10)
    } else {
        format!("{}.{}×", x10 / 10, x10 % 10)
    }
}

/// How many console entries are kept.
const CONSOLE_KEEP: usize = 200;

/// One command in the console and what it printed.
#[derive(Clone, Debug, PartialEq)]
pub struct ConsoleEntry {
    /// The command as typed (or as a click translated it).
    pub command: String,
    /// Its output, exactly as kubectl prints it.
    pub output: String,
    /// Whether it succeeded.
    pub ok: bool,
}

/// What the inspector shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Selection {
    /// A Pod by name.
    Pod(String),
    /// A Node by name.
    Node(String),
    /// A Deployment by name.
    Deployment(String),
    /// A ReplicaSet by name.
    ReplicaSet(String),
}

impl Selection {
    /// The selected object's kind and key (namespace default for namespaced kinds).
    pub fn kind_key(
        &self,
    ) -> (
        kubeplay_engine::api::Kind,
        kubeplay_engine::apiserver::ObjKey,
    ) {
        use kubeplay_engine::api::Kind;
        use kubeplay_engine::apiserver::ObjKey;
        match self {
            Selection::Pod(n) => (Kind::Pod, ObjKey::new("default", n)),
            Selection::Node(n) => (Kind::Node, ObjKey::new("", n)),
            Selection::Deployment(n) => (Kind::Deployment, ObjKey::new("default", n)),
            Selection::ReplicaSet(n) => (Kind::ReplicaSet, ObjKey::new("default", n)),
        }
    }
}

/// The mutable state behind the handle.
pub struct SimState {
    /// The object the inspector shows.
    pub selected: Option<Selection>,
    /// The cluster.
    pub cluster: Cluster,
    /// Whether the clock runs.
    pub playing: bool,
    /// Speed multiplier in tenths (10 = real time).
    pub speed_x10: u32,
    /// The last action's error, shown to the learner (kubectl's words).
    pub last_error: Option<String>,
    /// The equivalent command of the last click.
    pub last_command: Option<String>,
    /// The console transcript.
    pub console: Vec<ConsoleEntry>,
    /// Commands typed, oldest first (↑/↓).
    pub history: Vec<String>,
    /// A command waiting for the cluster (e.g. `kubectl rollout status`), with the index
    /// of its console entry: it finishes as the clock plays.
    pub pending: Option<(usize, Blocking)>,
    /// Lines of a multi-line input still to run after the pending one.
    queued: VecDeque<script::ScriptLine>,
    /// The UI language.
    pub lang: crate::i18n::Lang,
    /// Snapshots for rewinding.
    pub timeline: crate::timeline::Timeline,
}

impl SimState {
    /// A fresh state around `cluster`, playing at 1×.
    pub fn new(cluster: Cluster) -> Self {
        let timeline = crate::timeline::Timeline::new(&cluster);
        SimState {
            timeline,
            selected: None,
            cluster,
            playing: true,
            speed_x10: 10,
            last_error: None,
            last_command: None,
            console: Vec::new(),
            history: Vec::new(),
            pending: None,
            queued: VecDeque::new(),
            lang: crate::i18n::Lang::En,
        }
    }

    /// Run text (one command, several lines, or a heredoc) as the console does. A
    /// blocking command stays pending (and later lines wait for it) until the clock
    /// has played far enough.
    pub fn run_text(&mut self, text: &str) {
        match script::parse(text, "console") {
            Ok(lines) => {
                self.queued.extend(lines);
                self.run_queued();
            }
            Err(e) => self.push(ConsoleEntry {
                command: text.trim().to_string(),
                output: format!("error: {e}\n"),
                ok: false,
            }),
        }
    }

    fn run_queued(&mut self) {
        while self.pending.is_none() {
            let Some(l) = self.queued.pop_front() else {
                return;
            };
            let before = (self.cluster.store.revision(), self.cluster.now());
            let mut o = command::start(&mut self.cluster, &l.command, l.stdin.as_deref(), &NoFiles);
            // Only a command that changed the world is history (a `kubectl get` after
            // a rewind does not fork it).
            let mut words = l.command.split_whitespace();
            let sim_change = words.next() == Some("sim")
                && !matches!(words.next(), Some("time" | "log" | "why" | "expect"));
            // `sim` faults live in the kubelets, not the store: they are history too.
            if sim_change || (self.cluster.store.revision(), self.cluster.now()) != before {
                self.timeline.command(&self.cluster);
            }
            let shown = match &l.stdin {
                Some(_) => format!("{} <<EOF …", l.command),
                None => l.command.clone(),
            };
            let blocking = o.blocking.take();
            self.push(ConsoleEntry {
                command: shown,
                output: o.output,
                ok: o.ok,
            });
            if let Some(b) = blocking {
                let idx = self.console.len() - 1;
                self.pending = Some((idx, b));
                self.poll_pending();
            }
        }
    }

    /// The clock moved (tick or step): record it for rewinding.
    pub fn observe(&mut self) {
        if self.pending.is_some() {
            // A waiting command acts as the clock plays (drain's evictions…): the
            // clock alone cannot replay it, so every such moment is a snapshot.
            self.timeline.command(&self.cluster);
        } else {
            self.timeline.observe(&self.cluster);
        }
    }

    /// Go to simulated time `t` within the recorded history (paused; a waiting command
    /// is stopped).
    pub fn seek(&mut self, t: SimTime) {
        if let Some(c) = self.timeline.at(t) {
            self.interrupt();
            self.cluster = c;
            self.playing = false;
        }
    }

    /// Let a pending command look at the cluster (after every tick and step).
    pub fn poll_pending(&mut self) {
        let Some((idx, mut b)) = self.pending.take() else {
            return;
        };
        let done = b.poll(&mut self.cluster);
        let out = std::mem::take(&mut b.output);
        if let Some(e) = self.console.get_mut(idx) {
            e.output.push_str(&out);
            if done {
                e.ok = !b.failed;
            }
        }
        if done {
            self.run_queued();
        } else {
            self.pending = Some((idx, b));
        }
    }

    /// Ctrl+C: stop the pending command and drop queued lines.
    pub fn interrupt(&mut self) {
        if let Some((idx, mut b)) = self.pending.take() {
            b.interrupt();
            if let Some(e) = self.console.get_mut(idx) {
                e.output.push_str(&b.output);
                e.ok = false;
            }
        }
        self.queued.clear();
    }

    fn push(&mut self, e: ConsoleEntry) {
        self.console.push(e);
        let extra = self.console.len().saturating_sub(CONSOLE_KEEP);
        // Keep the pending entry's index right when old entries fall off.
        if extra > 0 && self.pending.as_ref().is_none_or(|(i, _)| *i >= extra) {
            self.console.drain(..extra);
            if let Some((i, _)) = self.pending.as_mut() {
                *i -= extra;
            }
        }
    }
}

/// A cheap, comparable handle: equality is by revision, so components re-render when
/// the simulation changed.
#[derive(Clone)]
pub struct SimHandle {
    /// Shared state.
    pub state: Rc<RefCell<SimState>>,
    /// Revision counter (bumped after every change).
    pub rev: u64,
    bump: Callback<()>,
}

impl PartialEq for SimHandle {
    fn eq(&self, other: &Self) -> bool {
        self.rev == other.rev && Rc::ptr_eq(&self.state, &other.state)
    }
}

impl SimHandle {
    /// A handle over `state`.
    pub fn new(state: Rc<RefCell<SimState>>, rev: u64, bump: Callback<()>) -> Self {
        SimHandle { state, rev, bump }
    }

    fn with<R>(&self, f: impl FnOnce(&mut SimState) -> R) -> R {
        let r = f(&mut self.state.borrow_mut());
        self.bump.emit(());
        r
    }

    /// Run what the learner typed in the console.
    pub fn run(&self, text: &str) {
        self.with(|s| {
            if !text.trim().is_empty() {
                s.history.push(text.trim().to_string());
            }
            s.run_text(text);
        });
    }

    /// A click, as the command it stands for: it runs through the same command
    /// language and appears in the console, so the learner sees what to type.
    pub fn click(&self, command: String) {
        self.with(|s| {
            s.run_text(&command);
            let ok = s.console.last().is_some_and(|e| e.ok);
            s.last_error = if ok {
                None
            } else {
                s.console.last().map(|e| e.output.trim().to_string())
            };
            s.last_command = Some(command);
        });
    }

    /// `kubectl delete pod NAME` (not waiting, so the deletion can be watched).
    pub fn delete_pod(&self, name: &str) {
        self.click(format!("kubectl delete pod {name} --wait=false"));
    }

    /// `kubectl scale deployment NAME --replicas=N`.
    pub fn scale(&self, name: &str, replicas: i64) {
        self.click(format!(
            "kubectl scale deployment {name} --replicas={replicas}"
        ));
    }

    /// Power a node off, or back on.
    pub fn toggle_node_power(&self, name: &str) {
        let up = self.state.borrow().cluster.node_up(name);
        self.click(format!(
            "sim node {} {name}",
            if up { "down" } else { "up" }
        ));
    }

    /// Ctrl+C in the console.
    pub fn interrupt(&self) {
        self.with(|s| s.interrupt());
    }

    /// Show an object in the inspector (None closes it).
    pub fn select(&self, sel: Option<Selection>) {
        self.with(|s| s.selected = sel);
    }

    /// Play or pause.
    pub fn toggle_play(&self) {
        self.with(|s| s.playing = !s.playing);
    }

    /// Run to the next visible change.
    pub fn step(&self) {
        self.with(|s| {
            s.playing = false;
            // Skip invisible heartbeats: a learner's step should show a change.
            s.cluster.step_visible(10_000);
            s.poll_pending();
            s.observe();
        });
    }

    /// Rewind or fast-forward to `t` within the recorded history.
    pub fn seek(&self, t: SimTime) {
        self.with(|s| s.seek(t));
    }

    /// Set the speed (in tenths: 5 is 0.5×).
    pub fn set_speed(&self, speed_x10: u32) {
        self.with(|s| s.speed_x10 = speed_x10);
    }

    /// Switch the UI language (kubectl output stays English).
    pub fn set_lang(&self, lang: crate::i18n::Lang) {
        self.with(|s| s.lang = lang);
        set_document_lang(lang);
    }

    /// The UI language.
    pub fn lang(&self) -> crate::i18n::Lang {
        self.state.borrow().lang
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

/// The handle of the enclosing provider.
#[hook]
pub fn use_sim() -> SimHandle {
    // The provider wraps the whole app, so the context is always there.
    use_context::<SimHandle>().expect("SimHandle provider")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::view::default_cluster;

    #[test]
    fn a_blocking_command_waits_for_the_clock_and_later_lines_wait_for_it() {
        let mut s = SimState::new(default_cluster());
        s.run_text("kubectl scale deployment web --replicas=5\nkubectl rollout status deployment/web\nkubectl get deploy web");
        assert!(s.pending.is_some(), "rollout status is waiting");
        assert_eq!(s.console.len(), 2, "the get waits its turn");
        for _ in 0..100 {
            s.cluster.advance(100);
            s.poll_pending();
        }
        assert!(s.pending.is_none());
        assert_eq!(s.console.len(), 3);
        assert!(
            s.console[1]
                .output
                .ends_with("deployment \"web\" successfully rolled out\n"),
            "{}",
            s.console[1].output
        );
        assert!(
            s.console[2].output.contains("5/5"),
            "{}",
            s.console[2].output
        );
    }

    #[test]
    fn speeds_run_from_half_to_sixty_times_and_read_as_the_toolbar_shows_them() {
        assert_eq!(SPEEDS_X10.first(), Some(&5));
        assert_eq!(SPEEDS_X10.last(), Some(&600));
        let labels: Vec<String> = SPEEDS_X10.iter().map(|s| speed_label(*s)).collect();
        assert_eq!(labels, ["0.5×", "1×", "5×", "30×", "60×"]);
    }

    #[test]
    fn interrupting_drops_the_queue_and_marks_the_command_failed() {
        let mut s = SimState::new(default_cluster());
        s.run_text("kubectl wait --for=delete node/node-1 --timeout=1m\nkubectl get nodes");
        s.interrupt();
        assert!(s.pending.is_none());
        assert_eq!(s.console.len(), 1);
        assert!(!s.console[0].ok);
        assert_eq!(s.console[0].output, "^C\n");
    }
}
