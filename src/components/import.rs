//! From a real cluster and back: load a cluster's state (`kubectl get … -o json|yaml`)
//! by file picker or drag and drop, read here in the browser and nowhere else; export
//! the world as clean manifests or a snapshot, and the session as a script.

use crate::i18n::t;
use crate::sim::use_sim;
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;
use yew::prelude::*;

/// The largest total a page import reads (bytes): a 1,000-node, 30,000-Pod snapshot
/// is about 130 MB of JSON; past this the tab's memory is the limit, not kubeplay's.
const MAX_IMPORT_BYTES: f64 = 400e6;

/// Read `files` as text, all of them, then call `done` with (name, text) pairs or the
/// first error.
fn read_files(files: web_sys::FileList, done: Callback<Result<Vec<(String, String)>, String>>) {
    let mut names = Vec::new();
    let promises = js_sys::Array::new();
    let mut total = 0.0;
    for i in 0..files.length() {
        if let Some(f) = files.get(i) {
            total += f.size();
            names.push(f.name());
            promises.push(&f.text());
        }
    }
    if names.is_empty() {
        return;
    }
    if total > MAX_IMPORT_BYTES {
        done.emit(Err(format!(
            "error: the files are {:.0} MB together; a page import reads at most {:.0} MB (kubeplay-cli run has no such limit)",
            total / 1e6,
            MAX_IMPORT_BYTES / 1e6
        )));
        return;
    }
    let ok = {
        let done = done.clone();
        Closure::once(move |v: JsValue| {
            let texts = js_sys::Array::from(&v);
            let files = names
                .into_iter()
                .zip(texts.iter())
                .map(|(n, t)| (n, t.as_string().unwrap_or_default()))
                .collect();
            done.emit(Ok(files));
        })
    };
    let err = Closure::once(move |e: JsValue| {
        done.emit(Err(format!(
            "error: the browser could not read the files: {}",
            e.as_string().unwrap_or_else(|| format!("{e:?}"))
        )));
    });
    let _ = js_sys::Promise::all(&promises).then2(&ok, &err);
    // The promise calls one of them once; they live until then.
    ok.forget();
    err.forget();
}

/// The import and export panel.
#[function_component(ImportPanel)]
pub fn import_panel() -> Html {
    let sim = use_sim();
    let lang = sim.lang();
    let report = use_state(|| None::<Result<String, String>>);
    let over = use_state(|| false);
    let loaded = {
        let sim = sim.clone();
        let report = report.clone();
        Callback::from(move |r: Result<Vec<(String, String)>, String>| {
            report.set(Some(r.and_then(|files| sim.import_files(&files))));
        })
    };
    let onchange = {
        let loaded = loaded.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Some(files) = input.files() {
                read_files(files, loaded.clone());
            }
            // The same file chosen again is a new import.
            input.set_value("");
        })
    };
    let ondragover = {
        let over = over.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            over.set(true);
        })
    };
    let ondragleave = {
        let over = over.clone();
        Callback::from(move |_: DragEvent| over.set(false))
    };
    let ondrop = {
        let over = over.clone();
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            over.set(false);
            if let Some(files) = e.data_transfer().and_then(|d| d.files()) {
                read_files(files, loaded.clone());
            }
        })
    };
    let download = |what: &'static str| {
        let sim = sim.clone();
        Callback::from(move |_: MouseEvent| match what {
            "manifests" => crate::export::download_text(
                "kubeplay-manifests.yaml",
                "application/yaml",
                &sim.export_manifests(),
            ),
            "snapshot" => crate::export::download_text(
                "kubeplay-snapshot.json",
                "application/json",
                &sim.export_snapshot(),
            ),
            _ => crate::export::download_text(
                "kubeplay-session.txt",
                "text/plain",
                &sim.session_script(),
            ),
        })
    };
    let imported = sim.state.borrow().imported.is_some();
    html! {
        <details class="import" data-testid="import">
            <summary>{ t(lang, "Import a cluster · export") }</summary>
            <p class="privacy" data-testid="import-privacy">{ t(lang, "Nothing leaves this page: the files are read here, in your browser, and sent nowhere.") }</p>
            <label class={classes!("dropzone", over.then_some("over"))} {ondragover} {ondragleave} {ondrop}>
                <span>{ t(lang, "Drop the output of kubectl get nodes,namespaces,deployments,replicasets,pods,services,daemonsets,statefulsets,jobs,cronjobs,pdb,priorityclasses -A -o json (or -o yaml, or manifests) here, or choose files") }</span>
                <input type="file" multiple=true accept=".json,.yaml,.yml,application/json,application/yaml,text/yaml" {onchange} data-testid="import-files"
                       aria-label={t(lang, "Choose files to import")} />
            </label>
            if imported {
                <p class="import-note">{ t(lang, "An imported cluster: a share link cannot carry it (it would leave the page). Download the snapshot instead.") }</p>
            }
            { match &*report {
                Some(Ok(summary)) => html! { <pre class="import-report" data-testid="import-report">{ summary }</pre> },
                Some(Err(e)) => html! { <pre class="own-error" role="alert" data-testid="import-error">{ e }</pre> },
                None => html! {},
            } }
            <div class="export-buttons">
                <button class="btn" onclick={download("manifests")} data-testid="export-manifests"
                        title={t(lang, "The objects as clean manifests kubectl apply accepts on a real cluster (status, uid, resourceVersion and controller-made objects left out)")}>{ t(lang, "Download manifests (YAML)") }</button>
                <button class="btn" onclick={download("snapshot")} data-testid="export-snapshot"
                        title={t(lang, "The whole world with its status, as kubectl get -o json prints it: import it again here or with kubeplay-cli")}>{ t(lang, "Download snapshot (JSON)") }</button>
                <button class="btn" onclick={download("script")} data-testid="export-script"
                        title={t(lang, "This session as a script: kubeplay-cli run FILE plays it again")}>{ t(lang, "Download session as a script") }</button>
            </div>
        </details>
    }
}
