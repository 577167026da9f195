//! A deterministic JavaScript sandbox for the learner's controller.
//!
//! One call runs one script in a fresh QuickJS runtime: no state carries over, no
//! host function is reachable, and nothing in it can read a clock or a random source
//! that the caller did not hand in. Work is bounded by QuickJS's interrupt handler,
//! which the interpreter polls every 10,000 function entries and backward jumps: a
//! tick is one such poll, so the same script and input stop at the same point on
//! every platform (native for `kubeplay-cli`, wasm32 in the page). Memory and stack
//! are capped too.
//!
//! The call is a pure function of [`Call`]: the engine hands in its whole input as
//! JSON and takes the output back as JSON, which is what makes a replay exact.

use rquickjs::{CatchResultExt, CaughtError, Context, Ctx, Function, Runtime};
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use std::rc::Rc;

/// The heap one call may use.
pub const MEMORY_LIMIT: usize = 32 << 20;
/// The interpreter's stack (set explicitly: on wasm32 the default would wrap).
pub const STACK_LIMIT: usize = 256 << 10;
/// The longest output one call may return.
pub const OUTPUT_LIMIT: usize = 1 << 20;

/// One run of a script.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Call {
    /// The learner's script, shown in errors as `controller.js`.
    pub source: String,
    /// The host's glue, run after `source`: it must define `__kubeplay_main(input)`,
    /// which returns a string.
    pub library: String,
    /// The argument to `__kubeplay_main`.
    pub input: String,
    /// What `Date.now()` returns, in ms since the epoch (the simulated clock).
    pub now_ms: i64,
    /// The seed of `Math.random`.
    pub seed: u64,
    /// Ticks (10,000 interpreter polls each) the call may use.
    pub budget_ticks: u32,
}

/// Why a call produced no output.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum FailureKind {
    /// The script does not parse.
    Syntax,
    /// The script threw (or returned something that is not a string).
    Thrown,
    /// It ran out of ticks: an endless loop, or too much work for one call.
    Budget,
    /// It ran out of memory.
    Memory,
    /// Its output was longer than [`OUTPUT_LIMIT`].
    Output,
}

/// A call that produced no output.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Failure {
    /// Why.
    pub kind: FailureKind,
    /// The error as JavaScript names it, with its stack where it has one.
    pub message: String,
}

/// What a call did.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Ticks used.
    pub ticks: u32,
    /// `__kubeplay_main`'s string, or why there is none.
    pub result: Result<String, Failure>,
}

/// `Math.random` from the seed and `Date` fixed at `now`: the only two sources of
/// difference between runs that QuickJS's core has. `Date.prototype.constructor`
/// points at the fixed one too, so no path reaches the real clock.
const DETERMINISM: &str = r#"(function (lo, hi, now) {
  let a = (lo >>> 0) || 0x9e3779b9, b = (hi >>> 0) || 0x243f6a88;
  Math.random = function random() {
    let t = a ^ (a << 11); a = b; b = (b ^ (b >>> 19)) ^ (t ^ (t >>> 8));
    return (b >>> 0) / 4294967296;
  };
  const Real = globalThis.Date;
  function Date(...args) {
    if (!new.target) return new Real(now).toString();
    return args.length ? new Real(...args) : new Real(now);
  }
  Date.now = function now_() { return now; };
  Date.UTC = Real.UTC;
  Date.parse = Real.parse;
  Date.prototype = Real.prototype;
  Object.defineProperty(Real.prototype, "constructor", { value: Date, writable: true, configurable: true });
  // Local time is UTC everywhere (the host's time zone would differ between machines).
  const P = Real.prototype;
  for (const n of ["FullYear", "Month", "Date", "Day", "Hours", "Minutes", "Seconds", "Milliseconds"]) {
    P["get" + n] = P["getUTC" + n];
    if (n !== "Day") P["set" + n] = P["setUTC" + n];
  }
  P.getTimezoneOffset = function getTimezoneOffset() { return 0; };
  P.toString = P.toUTCString;
  P.toTimeString = function toTimeString() { return this.toISOString().slice(11, 19) + " GMT+0000"; };
  P.toDateString = function toDateString() { return this.toUTCString().slice(0, 16); };
  P.toLocaleString = P.toUTCString;
  P.toLocaleDateString = P.toDateString;
  P.toLocaleTimeString = P.toTimeString;
  globalThis.Date = Date;
  // No other clock, and nothing that depends on when the collector runs.
  delete globalThis.performance;
  delete globalThis.WeakRef;
  delete globalThis.FinalizationRegistry;
})"#;

/// Run `call` to its end or its budget.
pub fn run(call: &Call) -> Outcome {
    set_host_now(call.now_ms);
    let ticks = Rc::new(Cell::new(0u32));
    let result = run_counted(call, &ticks);
    Outcome {
        ticks: ticks.get().min(call.budget_ticks),
        result,
    }
}

fn run_counted(call: &Call, ticks: &Rc<Cell<u32>>) -> Result<String, Failure> {
    let fail = |kind, message: String| Failure { kind, message };
    let rt = Runtime::new().map_err(|e| fail(FailureKind::Memory, e.to_string()))?;
    rt.set_memory_limit(MEMORY_LIMIT);
    rt.set_max_stack_size(STACK_LIMIT);
    let counter = ticks.clone();
    let budget = call.budget_ticks;
    rt.set_interrupt_handler(Some(Box::new(move || {
        counter.set(counter.get().saturating_add(1));
        counter.get() > budget
    })));
    let ctx = Context::full(&rt).map_err(|e| fail(FailureKind::Memory, e.to_string()))?;
    let out = ctx.with(|ctx| -> Result<String, Failure> {
        let caught =
            |e: CaughtError<'_>, syntax_ok: bool| classify(e, ticks.get() > budget, syntax_ok);
        let setup: Function = ctx
            .eval(DETERMINISM)
            .catch(&ctx)
            .map_err(|e| caught(e, false))?;
        setup
            .call::<_, ()>((
                call.seed as u32,
                (call.seed >> 32) as u32,
                call.now_ms as f64,
            ))
            .catch(&ctx)
            .map_err(|e| caught(e, false))?;
        eval_named(&ctx, &call.source, "controller.js").map_err(|e| caught(e, false))?;
        eval_named(&ctx, &call.library, "kubeplay.js").map_err(|e| caught(e, true))?;
        let main: Function = ctx
            .globals()
            .get("__kubeplay_main")
            .catch(&ctx)
            .map_err(|e| caught(e, true))?;
        let value: rquickjs::Value = main
            .call((call.input.as_str(),))
            .catch(&ctx)
            .map_err(|e| caught(e, true))?;
        match value.as_string().map(|s| s.to_string()) {
            Some(Ok(s)) if s.len() > OUTPUT_LIMIT => Err(fail(
                FailureKind::Output,
                format!("the output is {} bytes, more than {OUTPUT_LIMIT}", s.len()),
            )),
            Some(Ok(s)) => Ok(s),
            _ => Err(fail(
                FailureKind::Thrown,
                "TypeError: the glue returned no string".into(),
            )),
        }
    });
    drop(ctx);
    out
}

fn eval_named<'js>(ctx: &Ctx<'js>, text: &str, name: &str) -> Result<(), CaughtError<'js>> {
    let mut opts = rquickjs::context::EvalOptions::default();
    opts.global = true;
    opts.strict = false;
    opts.filename = Some(name.to_string());
    ctx.eval_with_options::<(), _>(text, opts).catch(ctx)
}

/// Name a failure: the budget first (its interrupt surfaces as an uncatchable
/// error), then memory, then a parse error, then whatever was thrown.
fn classify(e: CaughtError<'_>, out_of_ticks: bool, after_source: bool) -> Failure {
    if out_of_ticks {
        return Failure {
            kind: FailureKind::Budget,
            message: "InternalError: interrupted".into(),
        };
    }
    let message = match &e {
        CaughtError::Exception(x) => {
            let name: String = x.get("name").unwrap_or_else(|_| "Error".into());
            let head = format!("{name}: {}", x.message().unwrap_or_default());
            let stack = x.stack().unwrap_or_default();
            let frames: Vec<&str> = stack
                .lines()
                .map(str::trim_end)
                .filter(|l| !l.trim().is_empty() && !l.contains("kubeplay.js"))
                .take(5)
                .collect();
            let mut m = head;
            for f in frames {
                m.push('\n');
                m.push_str(f);
            }
            m
        }
        // QuickJS throws null when it cannot even allocate the error.
        CaughtError::Value(v) if v.is_null() => "InternalError: out of memory".into(),
        CaughtError::Value(v) => format!("Uncaught {}", describe(v)),
        CaughtError::Error(err) => err.to_string(),
    };
    let kind = if message.contains("out of memory") {
        FailureKind::Memory
    } else if !after_source && message.starts_with("SyntaxError") {
        FailureKind::Syntax
    } else {
        FailureKind::Thrown
    };
    Failure { kind, message }
}

fn describe(v: &rquickjs::Value<'_>) -> String {
    if let Some(s) = v.as_string().and_then(|s| s.to_string().ok()) {
        return s;
    }
    if let Some(n) = v.as_number() {
        return n.to_string();
    }
    format!("{:?}", v.type_of())
}

thread_local! {
    static HOST_NOW_US: Cell<f64> = const { Cell::new(0.0) };
}

fn set_host_now(now_ms: i64) {
    HOST_NOW_US.with(|c| c.set(now_ms as f64 * 1000.0));
}

/// The one import QuickJS's wasm32 build has (its clock): the simulated time, so
/// that even a path past the fixed `Date` finds no wall clock.
#[cfg(target_arch = "wasm32")]
#[no_mangle]
pub extern "C" fn __rquickjs_host_now_us() -> f64 {
    HOST_NOW_US.with(|c| c.get())
}

/// The host's door: a [`Call`] as JSON in, an [`Outcome`] as JSON out (the page
/// calls it across the wasm boundary; the CLI installs it in the engine).
#[cfg_attr(target_arch = "wasm32", wasm_bindgen::prelude::wasm_bindgen)]
pub fn run_json(call: &str) -> String {
    let outcome = match serde_json::from_str::<Call>(call) {
        Ok(c) => run(&c),
        Err(e) => Outcome {
            ticks: 0,
            result: Err(Failure {
                kind: FailureKind::Thrown,
                message: format!("bad call: {e}"),
            }),
        },
    };
    serde_json::to_string(&outcome).unwrap_or_default()
}

#[cfg(test)]
mod tests;
