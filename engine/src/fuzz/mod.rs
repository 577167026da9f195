//! The project's own fuzzing, on stable Rust and without new dependencies: seeded input
//! generators ([`gen`]: grammar-aware generation plus a mutation engine over a corpus of
//! the repository's own inputs), the engine's targets ([`targets`]: manifests, command
//! lines, scenarios, lz-string links), and the runner here, which plays each input
//! under `catch_unwind`, times it, measures its peak heap, shrinks what panics, and
//! reports.
//!
//! `cargo run -p kubeplay-engine --profile fuzz --example fuzz -- --target all` runs
//! it; `engine/tests/fuzz_smoke.rs` is its bounded run in CI. The same seed always
//! gives the same inputs, so every finding reproduces from `--seed` and its index.
//!
//! Native only: the page never fuzzes, and the watchdog needs threads.

pub mod gen;
pub mod targets;

use std::cell::RefCell;
use std::fmt;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::{Duration, Instant};

/// What one input may cost before the report calls it over budget.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    /// Wall time of one input (the reliability goal: 2 s).
    pub wall: Duration,
    /// Peak heap of one input, in bytes (the goal: 256 MiB).
    pub heap: usize,
    /// An input still running after this long is a hang: the watchdog prints it and
    /// ends the process, since a thread cannot be stopped from outside.
    pub hang: Duration,
    /// An input whose process holds more than this is a runaway: the watchdog prints
    /// and dumps it and ends the run before the kernel kills the process unnamed.
    pub runaway: usize,
    /// Stop the run once this instant has passed (the inputs run so far are
    /// reported): a long campaign given a time box rather than a count. None: run
    /// every input.
    pub until: Option<Instant>,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            wall: Duration::from_secs(2),
            heap: 256 << 20,
            hang: Duration::from_secs(120),
            runaway: 4 << 30,
            until: None,
        }
    }
}

/// The peak-heap hooks of a counting allocator (see [`counting_allocator!`]): the
/// allocator must be the binary's `#[global_allocator]`, which this crate cannot be
/// (it forbids `unsafe`).
#[derive(Clone, Copy, Debug)]
pub struct HeapMeter {
    /// Start a measurement on this thread.
    pub reset: fn(),
    /// Peak bytes allocated and still live, on this thread, since the last reset.
    pub peak: fn() -> usize,
    /// Bytes live in the whole process now (read by the watchdog).
    pub total: fn() -> usize,
}

/// Defines the binary's `#[global_allocator]`: `System`, counting live bytes per
/// thread, and a `heap_meter()` function giving its [`HeapMeter`]. Counting per thread
/// keeps parallel tests from adding to each other's figures.
///
/// ```ignore
/// kubeplay_engine::counting_allocator!();
/// let meter = heap_meter();
/// ```
#[macro_export]
macro_rules! counting_allocator {
    () => {
        mod counting_allocator {
            use std::alloc::{GlobalAlloc, Layout, System};
            use std::cell::Cell;

            /// Live bytes of every thread: the watchdog's view of a runaway input.
            static TOTAL: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

            std::thread_local! {
                static LIVE: Cell<usize> = const { Cell::new(0) };
                static PEAK: Cell<usize> = const { Cell::new(0) };
                static BASE: Cell<usize> = const { Cell::new(0) };
            }

            fn grow(n: usize) {
                TOTAL.fetch_add(n, std::sync::atomic::Ordering::Relaxed);
                // try_with: an allocation during thread teardown is simply not counted.
                let _ = LIVE.try_with(|live| {
                    let v = live.get().saturating_add(n);
                    live.set(v);
                    let _ = PEAK.try_with(|p| p.set(p.get().max(v)));
                });
            }

            fn shrink(n: usize) {
                TOTAL.fetch_sub(n, std::sync::atomic::Ordering::Relaxed);
                let _ = LIVE.try_with(|live| live.set(live.get().saturating_sub(n)));
            }

            /// `System`, counting.
            pub struct Counting;

            // SAFETY: every call is forwarded to `System` unchanged; the counters are
            // thread-locals with const initializers and no destructors, so counting
            // never allocates.
            unsafe impl GlobalAlloc for Counting {
                unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
                    let p = System.alloc(layout);
                    if !p.is_null() {
                        grow(layout.size());
                    }
                    p
                }
                unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
                    let p = System.alloc_zeroed(layout);
                    if !p.is_null() {
                        grow(layout.size());
                    }
                    p
                }
                unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
                    System.dealloc(ptr, layout);
                    shrink(layout.size());
                }
                unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
                    let p = System.realloc(ptr, layout, new);
                    if !p.is_null() {
                        shrink(layout.size());
                        grow(new);
                    }
                    p
                }
            }

            #[global_allocator]
            static ALLOCATOR: Counting = Counting;

            /// Start a measurement on this thread.
            pub fn reset() {
                let live = LIVE.with(Cell::get);
                BASE.with(|b| b.set(live));
                PEAK.with(|p| p.set(live));
            }

            /// Peak live bytes above the start, on this thread, since [`reset`].
            pub fn peak() -> usize {
                PEAK.with(Cell::get).saturating_sub(BASE.with(Cell::get))
            }

            /// Live bytes of the whole process.
            pub fn total() -> usize {
                TOTAL.load(std::sync::atomic::Ordering::Relaxed)
            }
        }

        /// The counting allocator's hooks for the fuzz runner.
        fn heap_meter() -> $crate::fuzz::HeapMeter {
            $crate::fuzz::HeapMeter {
                reset: counting_allocator::reset,
                peak: counting_allocator::peak,
                total: counting_allocator::total,
            }
        }
    };
}

/// One input that panicked.
#[derive(Clone, Debug)]
pub struct Panic {
    /// Its index in the run (the same seed gives the same input at the same index).
    pub index: u64,
    /// The panic's message and location.
    pub message: String,
    /// The input as generated.
    pub input: String,
    /// The smallest input found that still panics at the same place.
    pub minimal: String,
}

/// One input over a budget.
#[derive(Clone, Debug)]
pub struct Costly {
    /// Its index in the run.
    pub index: u64,
    /// Its wall time.
    pub wall: Duration,
    /// Its peak heap in bytes (0 when not measured).
    pub heap: usize,
    /// The input.
    pub input: String,
}

/// What a run of one target found.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The target's name.
    pub target: String,
    /// Inputs run.
    pub inputs: u64,
    /// Wall time of the whole run (shrinking included).
    pub elapsed: Duration,
    /// Inputs that panicked, one per panic location (the first found).
    pub panics: Vec<Panic>,
    /// Panicking inputs in all, duplicates of a location included.
    pub panicked: u64,
    /// The slowest input.
    pub slowest: Option<Costly>,
    /// The input with the largest peak heap.
    pub hungriest: Option<Costly>,
    /// Inputs over the wall budget (the first few).
    pub over_time: Vec<Costly>,
    /// Inputs over the heap budget (the first few).
    pub over_heap: Vec<Costly>,
    /// Whether heap was measured (a [`HeapMeter`] was given).
    pub heap_measured: bool,
}

impl Report {
    /// No panic, nothing over budget.
    pub fn clean(&self) -> bool {
        self.panicked == 0 && self.over_time.is_empty() && self.over_heap.is_empty()
    }

    /// Inputs per second of wall time.
    pub fn rate(&self) -> f64 {
        self.inputs as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// At most this many inputs of each kind of finding are kept for the report.
const KEEP: usize = 10;

/// Inputs are printed whole up to this many characters, then cut (with the length); a
/// panic's minimal input up to [`SHOW_MINIMAL`].
const SHOW: usize = 300;
const SHOW_MINIMAL: usize = 4_000;

/// An input for a report: escaped (so control characters and heredocs show), and cut
/// if long.
pub fn show(input: &str) -> String {
    show_up_to(input, SHOW)
}

fn show_up_to(input: &str, max: usize) -> String {
    let total = input.chars().count();
    if total <= max {
        format!("{input:?}")
    } else {
        let head: String = input.chars().take(max).collect();
        format!("{head:?}… ({total} characters)")
    }
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1u64 << 20) as f64
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "{}: {} inputs in {:.1} s ({:.0}/s), {} panics ({} distinct), {} over the time budget, {} over the heap budget",
            self.target,
            self.inputs,
            self.elapsed.as_secs_f64(),
            self.rate(),
            self.panicked,
            self.panics.len(),
            self.over_time.len(),
            self.over_heap.len(),
        )?;
        if let Some(s) = &self.slowest {
            writeln!(
                f,
                "  slowest: #{} {:.3} s: {}",
                s.index,
                s.wall.as_secs_f64(),
                show(&s.input)
            )?;
        }
        if let Some(h) = &self.hungriest {
            if self.heap_measured {
                writeln!(
                    f,
                    "  largest peak heap: #{} {:.1} MiB: {}",
                    h.index,
                    mib(h.heap),
                    show(&h.input)
                )?;
            }
        }
        for p in &self.panics {
            writeln!(f, "  PANIC #{}: {}", p.index, p.message)?;
            writeln!(
                f,
                "    minimal input: {}",
                show_up_to(&p.minimal, SHOW_MINIMAL)
            )?;
        }
        for c in &self.over_time {
            writeln!(
                f,
                "  OVER TIME #{} {:.3} s: {}",
                c.index,
                c.wall.as_secs_f64(),
                show(&c.input)
            )?;
        }
        for c in &self.over_heap {
            writeln!(
                f,
                "  OVER HEAP #{} {:.1} MiB: {}",
                c.index,
                mib(c.heap),
                show(&c.input)
            )?;
        }
        Ok(())
    }
}

thread_local! {
    /// Some while this thread fuzzes: the hook stores the panic's text here instead of
    /// printing it (a run may panic thousands of times).
    static CAPTURED: RefCell<Option<Option<String>>> = const { RefCell::new(None) };
}

/// Install (once per process) a panic hook that captures panics on fuzzing threads and
/// passes every other panic to the hook that was there before: tests in the same
/// binary keep their messages.
fn install_hook() {
    static HOOK: Once = Once::new();
    HOOK.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let fuzzing = CAPTURED.try_with(|c| c.borrow().is_some()).unwrap_or(false);
            if !fuzzing {
                previous(info);
                return;
            }
            let payload = info.payload();
            let msg = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(non-text panic)".into());
            let at = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            let _ = CAPTURED.try_with(|c| *c.borrow_mut() = Some(Some(format!("{at}: {msg}"))));
        }));
    });
}

/// Run `exec` on `input`; the panic's "file:line: message" if it panicked.
fn attempt(exec: &dyn Fn(&str), input: &str) -> Option<String> {
    CAPTURED.with(|c| *c.borrow_mut() = Some(None));
    let r = catch_unwind(AssertUnwindSafe(|| exec(input)));
    let msg = CAPTURED.with(|c| c.borrow_mut().take().flatten());
    match r {
        Ok(()) => None,
        Err(_) => Some(msg.unwrap_or_else(|| "(panic without a message)".into())),
    }
}

/// The panic's location ("file:line"), how shrinking tells one bug from another.
fn location(msg: &str) -> &str {
    msg.split(": ").next().unwrap_or(msg)
}

/// Shrink a panicking input: remove chunks of lines, then chunks of characters,
/// halving the chunk each round, keeping each removal after which it still panics at
/// the same place. Bounded in attempts and time, since each attempt replays the input.
pub fn shrink(exec: &dyn Fn(&str), input: &str, at: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    let still = |candidate: &str| attempt(exec, candidate).is_some_and(|m| location(&m) == at);
    let mut tries = 0u32;
    let mut best = input.to_string();
    for by_lines in [true, false] {
        let mut units: Vec<String> = if by_lines {
            best.split_inclusive('\n').map(str::to_string).collect()
        } else {
            best.chars().map(String::from).collect()
        };
        let mut chunk = units.len().div_ceil(2).max(1);
        loop {
            let mut i = 0;
            while i < units.len() {
                if tries >= 2_000 || Instant::now() > deadline {
                    return best;
                }
                let end = (i + chunk).min(units.len());
                let candidate: String = units[..i].concat() + &units[end..].concat();
                tries += 1;
                if still(&candidate) {
                    units.drain(i..end);
                    best = candidate;
                } else {
                    i += chunk;
                }
            }
            if chunk == 1 {
                break;
            }
            chunk = chunk.div_ceil(2);
        }
    }
    best
}

/// The input running now and since when, for the watchdog.
type Current = Arc<Mutex<Option<(Instant, u64, String)>>>;

/// Watch `current`: an input running longer than `hang` is printed and the process
/// ends with code 3 (a hang must fail loudly, not stall CI).
fn watchdog(
    target: String,
    current: Current,
    stop: Arc<AtomicBool>,
    hang: Duration,
    memory: Option<(fn() -> usize, usize)>,
) {
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(50));
        let Ok(slot) = current.lock() else {
            return;
        };
        if let Some((since, index, input)) = slot.as_ref() {
            if let Some((total, cap)) = memory {
                let live = total();
                if live > cap {
                    eprintln!(
                        "RUNAWAY MEMORY: {target} input #{index} holds {} MiB: {}",
                        live >> 20,
                        show(input)
                    );
                    dump(&target, "memory", *index, input);
                    std::process::exit(3);
                }
            }
            if since.elapsed() > hang {
                eprintln!(
                    "HANG: {target} input #{index} still running after {:.0} s: {}",
                    hang.as_secs_f64(),
                    show(input)
                );
                dump(&target, "hang", *index, input);
                std::process::exit(3);
            }
        }
    }
}

/// With `KUBEPLAY_FUZZ_DUMP=DIR`, each finding's whole input is written to
/// `DIR/TARGET-WHAT-INDEX.txt` (replay it with the example's `--replay FILE`).
fn dump(target: &str, what: &str, index: u64, input: &str) {
    if let Some(dir) = std::env::var_os("KUBEPLAY_FUZZ_DUMP") {
        let path = std::path::Path::new(&dir).join(format!("{target}-{what}-{index}.txt"));
        if let Err(e) = std::fs::write(&path, input) {
            eprintln!("{}: {e}", path.display());
        }
    }
}

/// Run `inputs` inputs from `next` (called with each input's index) through `exec`,
/// on this thread, and report. `progress` is told every 10 000 inputs (long runs).
pub fn run(
    target: &str,
    inputs: u64,
    budget: &Budget,
    meter: Option<HeapMeter>,
    next: &mut dyn FnMut(u64) -> String,
    exec: &dyn Fn(&str),
    progress: &mut dyn FnMut(&Report),
) -> Report {
    install_hook();
    let current: Current = Arc::new(Mutex::new(None));
    let stop = Arc::new(AtomicBool::new(false));
    let dog = {
        let (t, c, s, h) = (
            target.to_string(),
            current.clone(),
            stop.clone(),
            budget.hang,
        );
        let memory = meter.map(|m| (m.total, budget.runaway));
        std::thread::spawn(move || watchdog(t, c, s, h, memory))
    };
    let started = Instant::now();
    let mut r = Report {
        target: target.to_string(),
        heap_measured: meter.is_some(),
        ..Report::default()
    };
    for index in 0..inputs {
        if budget.until.is_some_and(|t| Instant::now() >= t) {
            break;
        }
        let input = next(index);
        if let Ok(mut slot) = current.lock() {
            *slot = Some((Instant::now(), index, input.clone()));
        }
        if let Some(m) = meter {
            (m.reset)();
        }
        let t0 = Instant::now();
        let panicked = attempt(exec, &input);
        let wall = t0.elapsed();
        let heap = meter.map(|m| (m.peak)()).unwrap_or(0);
        if let Ok(mut slot) = current.lock() {
            *slot = None;
        }
        r.inputs += 1;
        let cost = || Costly {
            index,
            wall,
            heap,
            input: input.clone(),
        };
        if r.slowest.as_ref().is_none_or(|s| wall > s.wall) {
            r.slowest = Some(cost());
        }
        if r.hungriest.as_ref().is_none_or(|h| heap > h.heap) {
            r.hungriest = Some(cost());
        }
        if wall > budget.wall && r.over_time.len() < KEEP {
            dump(target, "time", index, &input);
            r.over_time.push(cost());
        }
        if heap > budget.heap && r.over_heap.len() < KEEP {
            dump(target, "heap", index, &input);
            r.over_heap.push(cost());
        }
        if let Some(message) = panicked {
            r.panicked += 1;
            let at = location(&message).to_string();
            let known = r.panics.iter().any(|p| location(&p.message) == at);
            if !known && r.panics.len() < KEEP {
                let minimal = shrink(exec, &input, &at);
                dump(target, "panic", index, &minimal);
                r.panics.push(Panic {
                    index,
                    message,
                    input: input.clone(),
                    minimal,
                });
            }
        }
        if (index + 1) % 10_000 == 0 {
            r.elapsed = started.elapsed();
            progress(&r);
        }
    }
    r.elapsed = started.elapsed();
    stop.store(true, Ordering::Relaxed);
    let _ = dog.join();
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    fn picky(input: &str) {
        if input.contains("boom") {
            panic!("found a boom");
        }
    }

    #[test]
    fn a_panicking_input_is_caught_reported_and_shrunk_to_what_still_panics() {
        let inputs = ["fine", "line one\nsay boom here\nline three", "ok"];
        let r = run(
            "picky",
            3,
            &Budget::default(),
            None,
            &mut |i| inputs[i as usize].to_string(),
            &picky,
            &mut |_| {},
        );
        assert_eq!((r.inputs, r.panicked, r.panics.len()), (3, 1, 1));
        assert!(r.panics[0].message.contains("found a boom"), "{r}");
        assert_eq!(r.panics[0].minimal, "boom");
        assert!(!r.clean());
    }

    #[test]
    fn a_slow_input_is_over_the_time_budget_but_does_not_stop_the_run() {
        let budget = Budget {
            wall: Duration::from_millis(20),
            ..Budget::default()
        };
        let r = run(
            "sleepy",
            2,
            &budget,
            None,
            &mut |i| i.to_string(),
            &|s| {
                if s == "1" {
                    std::thread::sleep(Duration::from_millis(40))
                }
            },
            &mut |_| {},
        );
        assert_eq!(r.inputs, 2);
        assert_eq!(r.over_time.len(), 1);
        assert_eq!(r.over_time[0].input, "1");
        assert_eq!(r.slowest.as_ref().map(|s| s.index), Some(1));
    }
}
