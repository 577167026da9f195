//! The learner's controller's sandbox in the page: fetched on demand (it is not part
//! of the first screen), then installed in the engine as the function its controller
//! runs in. The CLI links the same sandbox natively, so a replay there is exact.

use kubeplay_engine::controllers::script::runner;

#[cfg(target_arch = "wasm32")]
mod js {
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen(module = "/src/sandbox.js")]
    extern "C" {
        pub fn sandbox_load(done: &Closure<dyn FnMut(bool, String)>);
        pub fn sandbox_run(call: &str) -> String;
    }
}

/// Whether the sandbox is loaded and installed.
pub fn loaded() -> bool {
    runner::installed()
}

/// Load the sandbox, install it, then call `then` (at once when it is loaded).
pub fn load(then: impl FnOnce(Result<(), String>) + 'static) {
    if loaded() {
        then(Ok(()));
        return;
    }
    #[cfg(target_arch = "wasm32")]
    {
        use std::cell::RefCell;
        use std::rc::Rc;
        use wasm_bindgen::closure::Closure;
        let then: Rc<RefCell<Option<Box<dyn FnOnce(Result<(), String>)>>>> =
            Rc::new(RefCell::new(Some(Box::new(then))));
        let done = Closure::once(move |ok: bool, error: String| {
            if ok {
                runner::install(Some(Rc::new(|call: &str| js::sandbox_run(call))));
            }
            if let Some(f) = then.borrow_mut().take() {
                f(if ok { Ok(()) } else { Err(error) });
            }
        });
        js::sandbox_load(&done);
        // The loader calls it once, later: it lives until then.
        done.forget();
    }
    #[cfg(not(target_arch = "wasm32"))]
    then(Err("no JavaScript sandbox outside the browser".into()));
}
