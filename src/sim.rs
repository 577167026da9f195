//! The simulation handle shared through a Yew context.

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{self, script, NoFiles};
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// Speeds offered by the toolbar (× simulated time per wall time).
pub const SPEEDS: [u32; 3] = [1, 5, 30];

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

/// The mutable state behind the handle.
pub struct SimState {
    /// The cluster.
    pub cluster: Cluster,
    /// Whether the clock runs.
    pub playing: bool,
    /// Speed multiplier.
    pub speed: u32,
    /// The last action's error, shown to the learner (kubectl's words).
    pub last_error: Option<String>,
    /// The equivalent command of the last click.
    pub last_command: Option<String>,
    /// The console transcript.
    pub console: Vec<ConsoleEntry>,
    /// Commands typed, oldest first (↑/↓).
    pub history: Vec<String>,
}

impl SimState {
    /// A fresh state around `cluster`, playing at 1×.
    pub fn new(cluster: Cluster) -> Self {
        SimState {
            cluster,
            playing: true,
            speed: 1,
            last_error: None,
            last_command: None,
            console: Vec::new(),
            history: Vec::new(),
        }
    }

    /// Run text (one command, several lines, or a heredoc) as the console does.
    pub fn run_text(&mut self, text: &str) {
        let lines = match script::parse(text, "console") {
            Ok(l) => l,
            Err(e) => {
                self.push(ConsoleEntry {
                    command: text.trim().to_string(),
                    output: format!("error: {e}\n"),
                    ok: false,
                });
                return;
            }
        };
        for l in lines {
            let o = command::run(&mut self.cluster, &l.command, l.stdin.as_deref(), &NoFiles);
            let shown = match &l.stdin {
                Some(_) => format!("{} <<EOF …", l.command),
                None => l.command.clone(),
            };
            self.push(ConsoleEntry {
                command: shown,
                output: o.output,
                ok: o.ok,
            });
        }
    }

    fn push(&mut self, e: ConsoleEntry) {
        self.console.push(e);
        let extra = self.console.len().saturating_sub(CONSOLE_KEEP);
        self.console.drain(..extra);
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
    fn click(&self, command: String) {
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
        });
    }

    /// Set the speed.
    pub fn set_speed(&self, speed: u32) {
        self.with(|s| s.speed = speed);
    }
}

/// The handle of the enclosing provider.
#[hook]
pub fn use_sim() -> SimHandle {
    // The provider wraps the whole app, so the context is always there.
    use_context::<SimHandle>().expect("SimHandle provider")
}
