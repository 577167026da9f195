//! The embed API: `postMessage` between a course page and the playground in its
//! iframe. Every message is an object `{kubeplay: 1, type: …}`.
//!
//! In (from the parent, obeyed only from the page's own origin or one listed in
//! `allowOrigins`; any origin only with `allowOrigins=*&unsafeAnyOrigin=1`): `run`
//! {command, id?} → `output` {command, output, ok, id?} (a command past the page's
//! bounds — see [`crate::sim::check_command`] — is refused there, with the reason);
//! `load` {scenario: id} or {yaml}; `play`; `pause`; `seek` {time: ms}; `hello`
//! (answered with `ready`).
//!
//! Out (to the parent, addressed to its origin only): `ready` {version, scenario};
//! `output`; `state` {time, deployments: [{name, desired, ready, available}], nodes:
//! [{name, ready}]} when it changes; `event` {time, reason, type, object, message,
//! count} for each Kubernetes Event written; `goal` {index, label, time};
//! `converged` {time} each time every Deployment reaches its spec with nothing left
//! terminating; `resize` {height} when the page's height changes (embed.js sizes the
//! iframe with it).

use crate::sim::{ScenarioSource, SimHandle, SimState};
use kubeplay_engine::api::{Deployment, Event, Kind, Node, Pod};
use serde_json::{json, Value};
use wasm_bindgen::{closure::Closure, JsCast, JsValue};

/// The console warning for a command from an origin the page does not obey.
pub fn blocked_warning(origin: &str) -> String {
    format!(
        "kubeplay: ignored a command from {origin}: that origin is not allowed to drive this page. \
         Add it to the frame's address, e.g. ?allowOrigins={origin} (see docs/authors.md)"
    )
}

/// The API version in every message.
pub const VERSION: u32 = 1;

/// What has been told to the parent already.
#[derive(Default)]
pub struct Bridge {
    /// The parent's origin (None: not in a frame, or unknown: nothing is sent).
    pub parent: Option<String>,
    log_seen: usize,
    last_state: String,
    converged: bool,
    height: i32,
}

fn window() -> Option<web_sys::Window> {
    web_sys::window()
}

/// The embedding page's origin: `location.ancestorOrigins[0]`, else the referrer's.
fn parent_origin() -> Option<String> {
    let w = window()?;
    let parent = w.parent().ok().flatten()?;
    // Not framed: the parent is the window itself.
    if JsValue::from(parent) == JsValue::from(w.clone()) {
        return None;
    }
    // `location.ancestorOrigins` (Chromium, WebKit): not in web-sys's bindings.
    let ancestors = js_sys::Reflect::get(&w.location(), &JsValue::from_str("ancestorOrigins"))
        .ok()
        .filter(|v| !v.is_undefined());
    if let Some(o) = ancestors
        .and_then(|l| js_sys::Reflect::get(&l, &JsValue::from_f64(0.0)).ok())
        .and_then(|v| v.as_string())
    {
        return Some(o);
    }
    let r = w.document()?.referrer();
    let url = web_sys::Url::new(&r).ok()?;
    Some(url.origin())
}

fn post(to: &str, msg: Value) {
    let Some(w) = window() else { return };
    let Some(parent) = w.parent().ok().flatten() else {
        return;
    };
    if let Ok(v) = js_sys::JSON::parse(&msg.to_string()) {
        let _ = parent.post_message(&v, to);
    }
}

impl Bridge {
    /// A bridge for this page (inert when not framed).
    pub fn new(s: &SimState) -> Self {
        Bridge {
            parent: parent_origin(),
            log_seen: s.cluster.store.log.len(),
            ..Bridge::default()
        }
    }

    fn send(&self, msg: Value) {
        if let Some(p) = &self.parent {
            post(p, msg);
        }
    }

    /// `ready`: sent once loaded, and again to a `hello`; with a lesson, an xAPI
    /// "launched" statement too.
    pub fn ready(&self, s: &SimState) {
        let scenario = s.scenario.as_ref().map(|a| a.scenario.id.clone());
        self.send(
            json!({"kubeplay": VERSION, "type": "ready", "version": VERSION, "scenario": scenario}),
        );
        if let Some(id) = scenario {
            self.send(xapi("launched", &id, Value::Null));
        }
    }

    /// Tell the parent what changed since the last call: Events, goals, state,
    /// convergence, height.
    pub fn pump(&mut self, s: &mut SimState) {
        if self.parent.is_none() {
            s.goals_reached.clear();
            return;
        }
        let log = &s.cluster.store.log;
        // A rewind shortens the log: start again from there.
        if self.log_seen > log.len() {
            self.log_seen = log.len();
        }
        let mut out = Vec::new();
        for e in log.since(self.log_seen) {
            if e.kind != Kind::Event || e.change.is_empty() {
                continue;
            }
            if let Some(ev) = s.cluster.store.get::<Event>(&e.key) {
                out.push(json!({
                    "kubeplay": VERSION, "type": "event", "time": e.time,
                    "reason": ev.reason, "eventType": ev.type_,
                    "object": format!("{}/{}", ev.involved_object.kind.to_lowercase(), ev.involved_object.name),
                    "message": ev.message, "count": ev.count,
                }));
            }
        }
        self.log_seen = log.len();
        for m in out {
            self.send(m);
        }
        for m in goal_messages(s) {
            self.send(m);
        }
        let state = state_message(s);
        let text = state.to_string();
        if text != self.last_state {
            self.last_state = text;
            self.send(state);
        }
        let conv = converged(s);
        if conv && !self.converged {
            self.send(json!({"kubeplay": VERSION, "type": "converged", "time": s.cluster.now()}));
        }
        self.converged = conv;
        let h = window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
            .map(|e| e.scroll_height())
            .unwrap_or(0);
        if h != self.height {
            self.height = h;
            self.send(json!({"kubeplay": VERSION, "type": "resize", "height": h}));
        }
    }
}

/// The messages for the goals reached since the last call (which it takes from the
/// session): a `goal` and an xAPI "progressed" for each, and once the last one is met,
/// one "completed" and one "passed" with the record a server can verify, however many
/// goals were met in the same tick.
pub fn goal_messages(s: &mut SimState) -> Vec<Value> {
    let mut out = Vec::new();
    let reached: Vec<usize> = s.m.goals_reached.drain(..).collect();
    let Some(a) = s.m.scenario.as_ref() else {
        return out;
    };
    let mut finished = false;
    for i in reached {
        let (Some(g), Some(at)) = (a.scenario.goals.get(i), a.tracker.reached.get(i)) else {
            continue;
        };
        out.push(json!({
            "kubeplay": VERSION, "type": "goal", "index": i,
            "label": {"en": g.label.en, "zh": g.label.zh}, "time": at,
            "all": a.tracker.all(),
        }));
        let met = a.tracker.reached.iter().filter(|r| r.is_some()).count();
        let total = a.tracker.reached.len().max(1);
        out.push(xapi(
            "progressed",
            &a.scenario.id,
            json!({"score": {"raw": met, "min": 0, "max": total, "scaled": met as f64 / total as f64},
                   "extensions": {XAPI_GOAL: {"index": i, "label": g.label.en, "time": at}}}),
        ));
        finished |= a.tracker.all();
    }
    if finished {
        // Every goal met: completed and passed, with the record a server can verify.
        let id = a.scenario.id.clone();
        let mut m = s.m.clone();
        m.cluster.finish_instant();
        let record = kubeplay_engine::record::Record::of(&m);
        let result = json!({"completion": true, "success": true,
                            "score": {"raw": 1, "min": 0, "max": 1, "scaled": 1.0},
                            "extensions": {XAPI_RECORD: record}});
        out.push(xapi("completed", &id, result.clone()));
        out.push(xapi("passed", &id, result));
    }
    out
}

/// Counts per Deployment, node readiness, time.
pub fn state_message(s: &SimState) -> Value {
    let store = &s.cluster.store;
    let deployments: Vec<Value> = store
        .list::<Deployment>()
        .map(|d| {
            json!({"name": d.metadata.name, "namespace": d.metadata.namespace,
                   "desired": d.spec.replicas, "ready": d.status.ready_replicas,
                   "available": d.status.available_replicas, "updated": d.status.updated_replicas})
        })
        .collect();
    let nodes: Vec<Value> = store
        .list::<Node>()
        .map(|n| json!({"name": n.metadata.name, "ready": n.ready_status() == "True"}))
        .collect();
    json!({"kubeplay": VERSION, "type": "state", "time": s.cluster.now(),
           "deployments": deployments, "nodes": nodes})
}

/// The xAPI result extension holding a completion record.
pub const XAPI_RECORD: &str = "urn:kubeplay:xapi:completion-record";
/// The xAPI result extension naming the goal a "progressed" statement is about.
pub const XAPI_GOAL: &str = "urn:kubeplay:xapi:goal";

/// An xAPI-shaped statement (`{type: "xapi", statement}`) for the parent page to send
/// to its LRS: the verb (one of ADL's), the lesson as the activity, and a result. The
/// actor, timestamp and authority are the parent's to add: kubeplay knows neither the
/// learner nor the wall clock, and contacts no server.
pub fn xapi(verb: &str, lesson: &str, result: Value) -> Value {
    let mut statement = json!({
        "verb": {"id": format!("http://adlnet.gov/expapi/verbs/{verb}"), "display": {"en-US": verb}},
        "object": {"objectType": "Activity", "id": format!("urn:kubeplay:lesson:{lesson}"),
                   "definition": {"type": "http://adlnet.gov/expapi/activities/simulation"}},
    });
    if !result.is_null() {
        statement["result"] = result;
    }
    json!({"kubeplay": VERSION, "type": "xapi", "statement": statement})
}

/// `getGrade`'s answer: whether every goal is met, the share of goals met, and the
/// completion record (JSON text) a server re-verifies.
pub fn grade(sim: &SimHandle) -> Value {
    let record = sim.record();
    let (met, total) = record.as_ref().map_or((0, 0), |r| {
        (
            r.goals.iter().filter(|g| g.is_some()).count(),
            r.goals.len(),
        )
    });
    json!({
        "complete": record.as_ref().is_some_and(kubeplay_engine::record::Record::complete),
        "score": if total == 0 { 0.0 } else { met as f64 / total as f64 },
        "record": record.and_then(|r| serde_json::to_string(&r).ok()),
    })
}

/// Every Deployment has what its spec asks (observed, updated, ready, available) and
/// no Pod is on its way out.
pub fn converged(s: &SimState) -> bool {
    let store = &s.cluster.store;
    store.list::<Deployment>().all(|d| {
        let r = d.spec.replicas;
        d.status.observed_generation >= d.metadata.generation
            && d.status.replicas == r
            && d.status.updated_replicas == r
            && d.status.ready_replicas == r
            && d.status.available_replicas == r
    }) && store.list::<Pod>().all(|p| !p.metadata.is_deleting())
}

/// Whether a command from `origin` is obeyed.
pub fn allowed(s: &SimState, origin: &str) -> bool {
    let own = window()
        .and_then(|w| w.location().origin().ok())
        .unwrap_or_default();
    origin == own || s.options.any_origin || s.options.allow_origins.iter().any(|o| o == origin)
}

/// Obey one message (already origin-checked); returns the reply, if any.
pub fn handle(sim: &SimHandle, data: &Value) -> Option<Value> {
    if data.get("kubeplay").and_then(Value::as_u64) != Some(u64::from(VERSION)) {
        return None;
    }
    let id = data.get("id").cloned().unwrap_or(Value::Null);
    match data.get("type").and_then(Value::as_str)? {
        "run" => {
            let command = data.get("command").and_then(Value::as_str)?.to_string();
            let (output, ok) = sim.api_run(&command);
            Some(json!({"kubeplay": VERSION, "type": "output", "id": id,
                        "command": command, "output": output, "ok": ok}))
        }
        "load" => {
            let src = if let Some(y) = data.get("yaml").and_then(Value::as_str) {
                Some(ScenarioSource::Yaml(y.to_string()))
            } else {
                data.get("scenario")
                    .and_then(Value::as_str)
                    .filter(|s| !s.is_empty())
                    .map(|s| ScenarioSource::Id(s.to_string()))
            };
            let r = sim.load(src);
            Some(json!({"kubeplay": VERSION, "type": "loaded", "id": id,
                        "ok": r.is_ok(), "error": r.err()}))
        }
        "play" => {
            sim.set_playing(true);
            None
        }
        "pause" => {
            sim.set_playing(false);
            None
        }
        "seek" => {
            let t = data.get("time").and_then(Value::as_u64)?;
            sim.seek(t);
            None
        }
        // Open edX JSInput's three functions, for a cross-origin parent.
        "getGrade" => {
            Some(json!({"kubeplay": VERSION, "type": "grade", "id": id, "grade": grade(sim)}))
        }
        "getState" => Some(
            json!({"kubeplay": VERSION, "type": "savedState", "id": id, "state": sim.state_string()}),
        ),
        "setState" => {
            let r = sim.set_state_string(
                data.get("state")
                    .and_then(Value::as_str)
                    .unwrap_or_default(),
            );
            Some(
                json!({"kubeplay": VERSION, "type": "stateSet", "id": id, "ok": r.is_ok(), "error": r.err()}),
            )
        }
        _ => None,
    }
}

/// Open edX JSInput calls `getGrade()`, `getState()` and `setState(state)` on the
/// frame's window when it is served from the course's own origin: define them.
fn define_jsinput_functions(w: &web_sys::Window, sim: &SimHandle) {
    let set = |name: &str, f: &JsValue| {
        let _ = js_sys::Reflect::set(w, &JsValue::from_str(name), f);
    };
    let s = sim.clone();
    let get_grade = Closure::<dyn Fn() -> String>::new(move || grade(&s).to_string());
    set("getGrade", get_grade.as_ref());
    get_grade.forget();
    let s = sim.clone();
    let get_state = Closure::<dyn Fn() -> String>::new(move || s.state_string());
    set("getState", get_state.as_ref());
    get_state.forget();
    let s = sim.clone();
    let set_state = Closure::<dyn Fn(String) -> bool>::new(move |v: String| {
        // JSInput hands back what getState gave, maybe JSON-quoted.
        let v = serde_json::from_str::<String>(&v).unwrap_or(v);
        s.set_state_string(&v).is_ok()
    });
    set("setState", set_state.as_ref());
    set_state.forget();
}

/// Listen for messages for the page's lifetime.
pub fn listen(sim: SimHandle, bridge: std::rc::Rc<std::cell::RefCell<Bridge>>) {
    let Some(w) = window() else { return };
    // The functions live as long as the page.
    define_jsinput_functions(&w, &sim);
    let cb = Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
        let origin = e.origin();
        let Some(text) = js_sys::JSON::stringify(&e.data())
            .ok()
            .and_then(|s| s.as_string())
        else {
            return;
        };
        let Ok(data) = serde_json::from_str::<Value>(&text) else {
            return;
        };
        if data.get("kubeplay").and_then(Value::as_u64) != Some(u64::from(VERSION)) {
            return;
        }
        if data.get("type").and_then(Value::as_str) == Some("hello") {
            // The resizer's handshake (any origin may ask: the answer goes only to the
            // parent's own origin): say ready again and resend the height.
            let mut b = bridge.borrow_mut();
            b.height = -1;
            b.ready(&sim.state.borrow());
            return;
        }
        if !allowed(&sim.state.borrow(), &origin) {
            // Say why, where the author looks: nothing else tells them the frame ignores
            // their page.
            web_sys::console::warn_1(&blocked_warning(&origin).into());
            return;
        }
        if let Some(reply) = handle(&sim, &data) {
            if let Some(src) = e.source() {
                // The sender's window belongs to another realm (and maybe origin):
                // `instanceof Window` is false there, so no checked cast.
                let win: web_sys::Window = src.unchecked_into();
                if let Ok(v) = js_sys::JSON::parse(&reply.to_string()) {
                    let _ = win.post_message(&v, &origin);
                }
            }
        }
    });
    let _ = w.add_event_listener_with_callback("message", cb.as_ref().unchecked_ref());
    // The listener lives as long as the page.
    cb.forget();
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A lesson whose last two goals read the same status write: they are met in the
    /// same tick.
    const TWO_AT_ONCE: &str = "id: two-at-once\ntitle: { en: Two, zh: 二 }\ndescription: { en: d, zh: d }\ncluster:\n  nodes: [{ name: node-1 }]\nsetup: |\n  kubectl create deployment web --image=nginx:1.27 --replicas=1\n  sim settle\ngoals:\n  - label: { en: One node, zh: 一个节点 }\n    expect: count nodes == 1\n  - label: { en: Two ready, zh: 两个就绪 }\n    expect: deployment/web {.status.readyReplicas} == 2\n  - label: { en: Two available, zh: 两个可用 }\n    expect: deployment/web {.status.availableReplicas} == 2\n";

    fn verbs(msgs: &[Value]) -> Vec<String> {
        msgs.iter()
            .map(|m| match m["type"].as_str() {
                Some("xapi") => m["statement"]["verb"]["display"]["en-US"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
                t => t.unwrap_or_default().to_string(),
            })
            .collect()
    }

    #[test]
    fn the_last_two_goals_met_in_one_tick_send_one_completed_and_one_passed() {
        let mut s = SimState::with_scenario(ScenarioSource::Yaml(TWO_AT_ONCE.into())).unwrap();
        s.advance_all(1_000, &mut || false);
        assert_eq!(verbs(&goal_messages(&mut s)), ["goal", "progressed"]);
        s.run_text("kubectl scale deployment web --replicas=2");
        s.advance_all(30_000, &mut || false);
        let msgs = goal_messages(&mut s);
        assert_eq!(
            verbs(&msgs),
            [
                "goal",
                "progressed",
                "goal",
                "progressed",
                "completed",
                "passed"
            ]
        );
        assert_eq!(msgs[0]["time"], msgs[2]["time"], "met in the same tick");
        // Nothing more until another goal is met.
        s.advance_all(30_000, &mut || false);
        assert!(goal_messages(&mut s).is_empty());
    }
}
