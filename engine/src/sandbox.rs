//! Where the learner's code runs (their controller, their admission webhook): a
//! JavaScript sandbox the host installs.
//!
//! The engine does not carry a JavaScript interpreter: the CLI links one
//! (`kubeplay-sandbox`, QuickJS), and the page loads the same one as a separate wasm
//! module only when the controller view opens. Either way it is installed here as a
//! function from a call to an outcome, both as JSON: a pure function of its input,
//! which is what makes a replay exact.

use serde::{Deserialize, Serialize};
use std::cell::RefCell;
use std::rc::Rc;

/// One run of the learner's code (the sandbox's `Call`).
#[derive(Clone, Debug, Serialize)]
pub struct ScriptCall<'a> {
    /// The learner's script.
    pub source: &'a str,
    /// The client library, run after it.
    pub library: &'a str,
    /// The reconcile's input as JSON.
    pub input: &'a str,
    /// `Date.now()`.
    pub now_ms: i64,
    /// `Math.random`'s seed.
    pub seed: u64,
    /// The tick budget.
    pub budget_ticks: u32,
}

/// Why a run produced nothing (the sandbox's `Failure`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ScriptFailure {
    /// `Syntax`, `Thrown`, `Budget`, `Memory` or `Output`.
    pub kind: String,
    /// The error as JavaScript names it.
    pub message: String,
}

/// What a run did (the sandbox's `Outcome`).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
pub struct ScriptOutcome {
    /// Ticks used (10,000 interpreter polls each).
    pub ticks: u32,
    /// The library's output, or why there is none.
    pub result: Result<String, ScriptFailure>,
}

/// A sandbox: a call as JSON in, an outcome as JSON out.
pub type Runner = Rc<dyn Fn(&str) -> String>;

thread_local! {
    static RUNNER: RefCell<Option<Runner>> = const { RefCell::new(None) };
}

/// A sandbox for every thread (the CLI's server answers on several).
static GLOBAL: std::sync::OnceLock<fn(&str) -> String> = std::sync::OnceLock::new();

/// Install a sandbox for every thread, once (a later call changes nothing).
pub fn install_global(runner: fn(&str) -> String) {
    let _ = GLOBAL.set(runner);
}

/// Install the sandbox the learner's controller runs in (None: remove it).
pub fn install(runner: Option<Runner>) {
    RUNNER.with(|r| *r.borrow_mut() = runner);
}

/// Whether a sandbox is installed.
pub fn installed() -> bool {
    RUNNER.with(|r| r.borrow().is_some()) || GLOBAL.get().is_some()
}

/// Run `call` in the installed sandbox; None when there is none.
pub fn run(call: &ScriptCall<'_>) -> Option<ScriptOutcome> {
    let local = RUNNER.with(|r| r.borrow().clone());
    let global = GLOBAL.get().copied();
    if local.is_none() && global.is_none() {
        return None;
    }
    let json = serde_json::to_string(call).ok()?;
    let out = match (local, global) {
        (Some(r), _) => r(&json),
        (None, Some(g)) => g(&json),
        (None, None) => return None,
    };
    Some(
        serde_json::from_str(&out).unwrap_or_else(|e| ScriptOutcome {
            ticks: 0,
            result: Err(ScriptFailure {
                kind: "Output".into(),
                message: format!("the sandbox answered something unreadable: {e}"),
            }),
        }),
    )
}
