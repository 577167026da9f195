//! Pacing: the clock's tick, and a share link replayed across animation frames. The
//! state's whole update lives here (as a Yew example keeps its `update` in one place);
//! the page only starts it and redraws after each change.

use super::{SimState, REPLAY_SLICE_MS};
use gloo_timers::callback::Interval;
use std::cell::RefCell;
use std::rc::Rc;
use yew::Callback;

/// Wall milliseconds between ticks.
pub const TICK_MS: u32 = 100;

/// Wall milliseconds a tick may spend simulating. A large cluster (thousands of nodes)
/// cannot always simulate 100 ms × speed in that time: the clock then falls behind the
/// chosen speed, and the page still paints and answers clicks between ticks.
pub const TICK_BUDGET_MS: f64 = 40.0;

/// Wall milliseconds between redraws of the page while a share link replays.
const REPLAY_DRAW_MS: f64 = 200.0;

/// Wall clock in ms (0 where there is no `performance`).
fn wall_ms() -> f64 {
    web_sys::window()
        .and_then(|w| w.performance())
        .map_or(0.0, |p| p.now())
}

impl SimState {
    /// How far one tick plays the clock: (simulated ms, whether a console command
    /// drives it), or None when the clock stands (paused, or a replay owns it).
    fn tick_span(&self) -> Option<(u64, bool)> {
        match self.clock_goal() {
            // The clock is the replay's until it ends.
            _ if self.replay.is_some() => None,
            // `sim advance`/`sim settle` in the console: as fast as the budget allows,
            // in slices so the page stays live and Ctrl+C can stop it; paused too, if
            // the learner just typed it.
            Some(goal) if self.playing || self.clock_live => {
                Some((goal.saturating_sub(self.cluster.now()), true))
            }
            _ => self.playing.then_some((
                (u64::from(TICK_MS) * u64::from(self.effective_speed_x10()) / 10).min(
                    // A lesson step is read at the end of its wait, exactly.
                    self.next_reading()
                        .map_or(u64::MAX, |t| t.saturating_sub(self.cluster.now())),
                ),
                false,
            )),
        }
    }

    /// One tick of the clock within `out_of_time`'s budget: play on, let a waiting
    /// command look, read predictions and goals. Whether anything ran (the page
    /// redraws then).
    pub fn tick(&mut self, out_of_time: &mut dyn FnMut() -> bool) -> bool {
        let Some((ms, driving)) = self.tick_span() else {
            return false;
        };
        let done = self.advance_all(ms, out_of_time);
        self.lagging = !done && !driving;
        // A blocking command in the console finishes as the clock plays.
        self.tick_poll();
        self.observe_predictions();
        self.observe();
        true
    }
}

/// Tick every [`TICK_MS`] for as long as the returned interval lives: redraw (`bump`)
/// after a tick that ran, and call `after` after every tick, run or not (the embed
/// bridge tells the parent page what happened, clicks included).
pub fn start_ticker(
    state: Rc<RefCell<SimState>>,
    bump: Callback<()>,
    mut after: impl FnMut(&mut SimState) + 'static,
) -> Interval {
    Interval::new(TICK_MS, move || {
        let ran = {
            let deadline = wall_ms() + TICK_BUDGET_MS;
            let mut out_of_time = || wall_ms() > deadline;
            state.borrow_mut().tick(&mut out_of_time)
        };
        if ran {
            bump.emit(());
        }
        after(&mut state.borrow_mut());
    })
}

/// Replay a share link in slices of [`REPLAY_SLICE_MS`], one per animation frame, so
/// the page paints its progress and answers clicks (the Stop button) in between; the
/// loop ends with the replay (finished or stopped).
pub fn replay_frames(state: Rc<RefCell<SimState>>, bump: Callback<()>) {
    use wasm_bindgen::{closure::Closure, JsCast};
    let Some(w) = web_sys::window() else {
        // No window (not a browser): replay at once.
        state.borrow_mut().replay_slice(&mut || false);
        return;
    };
    type Frame = Rc<RefCell<Option<Closure<dyn FnMut()>>>>;
    let frame: Frame = Rc::new(RefCell::new(None));
    let again = Rc::clone(&frame);
    let win = w.clone();
    let mut drawn = f64::NEG_INFINITY;
    *frame.borrow_mut() = Some(Closure::new(move || {
        let more = {
            let mut s = state.borrow_mut();
            let deadline = wall_ms() + REPLAY_SLICE_MS;
            let mut out_of_time = || wall_ms() > deadline;
            !s.replay_slice(&mut out_of_time)
        };
        // Drawn a few times a second, not every frame: a page drawn after a week of
        // simulated time costs more than the progress bar needs, and that time is
        // better left to the learner's clicks.
        if !more || wall_ms() - drawn >= REPLAY_DRAW_MS {
            drawn = wall_ms();
            bump.emit(());
        }
        if more {
            if let Some(f) = again.borrow().as_ref() {
                let _ = win.request_animation_frame(f.as_ref().unchecked_ref());
            }
        }
    }));
    if let Some(f) = frame.borrow().as_ref() {
        let _ = w.request_animation_frame(f.as_ref().unchecked_ref());
    };
    // The closure keeps itself alive through `again` for as long as frames come (one
    // small closure per page load: the cycle is not worth breaking).
}
