//! kubeplay: the web app. A Yew front end over `kubeplay_engine`.
//!
//! The engine lives in one `Rc<RefCell<SimState>>` behind a context ([`sim::SimHandle`]);
//! components call its domain methods (`delete_pod`, `toggle_node_power`, `scale`,
//! `play`, `step`…) and never build engine requests themselves. Pacing (the ticker, a
//! link's replay) lives in [`sim`]'s `pace`; every behaviour lives in the engine.

mod components;
mod embed;
mod export;
mod i18n;
mod sandbox;
mod sim;
mod view;

fn main() {
    // Loaded outside a browser (a course server verifying records in Node): no page to
    // draw, only the exports below.
    if web_sys::window().is_none() {
        return;
    }
    if let Some(size) = bench_request() {
        run_bench(size);
        return;
    }
    yew::Renderer::<components::app::App>::new().render();
}

/// Check a completion record (its JSON text) as `kubeplay-cli verify` does: the verdict
/// as JSON — `passed`, `genuine`, `refused` (the reason, or null), `goals` (label, status
/// `confirmed`/`not met`/`refuted`, claimed and replayed times) and `report` (the CLI's
/// text). A course server calls it from Node with the page's own module: see
/// docs/grading.md.
#[wasm_bindgen::prelude::wasm_bindgen]
pub fn verify_record(json: &str) -> String {
    use kubeplay_engine::record::{verify, GoalCheck};
    let v = verify(json);
    let goals: Vec<serde_json::Value> = v
        .goals
        .iter()
        .map(|(label, g)| match g {
            GoalCheck::Confirmed(t) => serde_json::json!({"label": label, "status": "confirmed", "claimed": t, "replayed": t}),
            GoalCheck::NotMet => serde_json::json!({"label": label, "status": "not met", "claimed": null, "replayed": null}),
            GoalCheck::Refuted { claimed, replayed } => serde_json::json!({"label": label, "status": "refuted", "claimed": claimed, "replayed": replayed}),
        })
        .collect();
    serde_json::json!({
        "passed": v.passed(),
        "genuine": v.genuine(),
        "refused": v.refused,
        "goals": goals,
        "report": v.report(),
    })
    .to_string()
}

/// `?bench=envelope&nodes=N&deployments=D&replicas=R[&services=1][&daemonset=1]`: the
/// envelope benchmark instead of
/// the page (the same run as `cargo run --release --example envelope`).
fn bench_request() -> Option<kubeplay_engine::bench::Size> {
    let search = web_sys::window()?.location().search().ok()?;
    let p = web_sys::UrlSearchParams::new_with_str(&search).ok()?;
    if p.get("bench").as_deref() != Some("envelope") {
        return None;
    }
    let n = |k: &str, d: usize| p.get(k).and_then(|v| v.parse().ok()).unwrap_or(d);
    Some(kubeplay_engine::bench::Size {
        nodes: n("nodes", 100),
        deployments: n("deployments", 30),
        replicas: n("replicas", 100),
        services: p.get("services").as_deref() == Some("1"),
        daemonset: p.get("daemonset").as_deref() == Some("1"),
        converge_only: false,
    })
}

/// Run the benchmark after the page has painted "running", printing each figure to the
/// page and the console as it comes.
fn run_bench(size: kubeplay_engine::bench::Size) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else {
        return;
    };
    let Ok(pre) = doc.create_element("pre") else {
        return;
    };
    let _ = pre.set_attribute("data-testid", "bench");
    pre.set_text_content(Some("running the envelope benchmark…\n"));
    if let Some(body) = doc.body() {
        let _ = body.append_child(&pre);
    }
    gloo_timers::callback::Timeout::new(50, move || {
        let perf = web_sys::window().and_then(|w| w.performance());
        let now = move || perf.as_ref().map(|p| p.now() / 1000.0).unwrap_or(0.0);
        let mut text = String::new();
        kubeplay_engine::bench::envelope(size, &now, &wasm_memory, &mut |f| {
            web_sys::console::log_1(&f.to_string().into());
            text.push_str(&format!("{f}\n"));
        });
        text.push_str("done\n");
        pre.set_text_content(Some(&text));
    })
    .forget();
}

/// Wasm linear memory in bytes (it only grows, so it is its own peak).
fn wasm_memory() -> (u64, u64) {
    #[cfg(target_arch = "wasm32")]
    let bytes = core::arch::wasm32::memory_size(0) as u64 * 65_536;
    #[cfg(not(target_arch = "wasm32"))]
    let bytes = 0;
    (bytes, bytes)
}
