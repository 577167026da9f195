//! The simulation handle shared through a Yew context.

use kubeplay_engine::cluster::Cluster;
use std::cell::RefCell;
use std::rc::Rc;
use yew::prelude::*;

/// Speeds offered by the toolbar (× simulated time per wall time).
pub const SPEEDS: [u32; 3] = [1, 5, 30];

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
    /// The equivalent kubectl command of the last click.
    pub last_command: Option<String>,
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

    fn record(&self, command: String, result: Result<(), String>) {
        self.with(|s| {
            s.last_command = Some(command);
            s.last_error = result.err();
        });
    }

    /// `kubectl delete pod NAME`.
    pub fn delete_pod(&self, name: &str) {
        let r = self
            .state
            .borrow_mut()
            .cluster
            .delete_pod(name)
            .map_err(|e| e.kubectl_text());
        self.record(format!("kubectl delete pod {name}"), r);
    }

    /// `kubectl scale deployment NAME --replicas=N`.
    pub fn scale(&self, name: &str, replicas: i64) {
        let r = self
            .state
            .borrow_mut()
            .cluster
            .scale_deployment(name, replicas)
            .map_err(|e| e.kubectl_text());
        self.record(
            format!("kubectl scale deployment {name} --replicas={replicas}"),
            r,
        );
    }

    /// Power a node off, or back on.
    pub fn toggle_node_power(&self, name: &str) {
        let up = self.state.borrow().cluster.node_up(name);
        let r = if up {
            self.state.borrow_mut().cluster.power_off(name)
        } else {
            self.state.borrow_mut().cluster.power_on(name)
        };
        let verb = if up { "down" } else { "up" };
        self.record(format!("sim node {verb} {name}"), r);
    }

    /// Play or pause.
    pub fn toggle_play(&self) {
        self.with(|s| s.playing = !s.playing);
    }

    /// Run the next pending event.
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
