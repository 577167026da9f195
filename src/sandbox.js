// The learner's controller's sandbox (QuickJS built to wasm, `sandbox/`): fetched
// only when a controller is about to run, beside the page, and called synchronously
// after that. It is a separate module with no import but its own memory: the code it
// runs reaches no DOM, no network and no clock.
let sandbox = null;
let loading = null;

export function sandbox_load(done) {
  if (sandbox) {
    done(true, "");
    return;
  }
  if (!loading) {
    const url = new URL("kubeplay-sandbox.js", document.baseURI).href;
    loading = import(url).then(async (m) => {
      await m.default();
      sandbox = m;
    });
  }
  loading.then(
    () => done(true, ""),
    (e) => {
      loading = null;
      done(false, String(e));
    },
  );
}

export function sandbox_ready() {
  return sandbox !== null;
}

let broken = null;

export function sandbox_run(call) {
  // A trap inside the module (its memory exhausted by the host, a bug) must not take
  // the page with it: the reconcile fails with what happened, and so does every
  // later one, since the module's state is gone.
  if (broken === null) {
    try {
      return sandbox.run_json(call);
    } catch (e) {
      broken = `the JavaScript sandbox stopped (${String(e)}): reload the page`;
    }
  }
  return JSON.stringify({ ticks: 0, result: { Err: { kind: "Thrown", message: broken } } });
}
