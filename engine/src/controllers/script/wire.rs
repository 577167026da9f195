//! The reconcile's wire: the informer cache and request as the sandbox's input, and
//! the writes it asked for as the cluster's [`Request`]s.

use super::runner::{self, ScriptCall};
use super::{ScriptSpec, LIBRARY, MAX_CACHE_OBJECTS, MAX_WRITES};
use crate::api::*;
use crate::apiserver::{DeleteOptions, ObjKey, Store};
use crate::client::Request;
use crate::time::{SimTime, EPOCH_UNIX_SECONDS};
use serde_json::{json, Value};

/// What one reconcile did.
pub(super) struct Ran {
    /// Ticks it used.
    pub ticks: u32,
    /// Its `console.log` lines.
    pub logs: Vec<String>,
    /// Its requests and `requeueAfter`, or why it wrote nothing.
    pub result: Result<(Vec<Request>, Option<SimTime>), String>,
}

/// Run the learner's reconcile of `key` against the cache in `store`.
pub(super) fn reconcile(
    spec: &ScriptSpec,
    key: &ObjKey,
    store: &Store,
    now: SimTime,
    call: u64,
) -> Ran {
    let failed = |message: String| Ran {
        ticks: 0,
        logs: Vec::new(),
        result: Err(message),
    };
    let input = match input(spec, key, store) {
        Ok(i) => i,
        Err(e) => return failed(e),
    };
    let now_ms = EPOCH_UNIX_SECONDS
        .saturating_mul(1000)
        .saturating_add(i64::try_from(now).unwrap_or(i64::MAX / 2));
    let c = ScriptCall {
        source: &spec.source,
        library: LIBRARY,
        input: &input,
        now_ms,
        seed: call,
        budget_ticks: super::BUDGET_TICKS,
    };
    let Some(outcome) = runner::run(&c) else {
        return failed("the JavaScript sandbox is not loaded".into());
    };
    let text = match outcome.result {
        Ok(t) => t,
        Err(f) => {
            let message = if f.kind == "Budget" {
                format!(
                    "reconcile used its whole budget ({} ticks of 10,000 steps) and was stopped: \
                     an endless loop, or too much work for one reconcile",
                    super::BUDGET_TICKS
                )
            } else {
                f.message
            };
            return Ran {
                ticks: outcome.ticks,
                logs: Vec::new(),
                result: Err(message),
            };
        }
    };
    let (logs, result) = decode(spec, &text);
    Ran {
        ticks: outcome.ticks,
        logs,
        result,
    }
}

/// The input: the request, the watched kinds, and their objects in the controller's
/// namespace (its informer cache), at most [`MAX_CACHE_OBJECTS`].
fn input(spec: &ScriptSpec, key: &ObjKey, store: &Store) -> Result<String, String> {
    let kinds = spec.kinds();
    let mut cache = Vec::new();
    for k in &kinds {
        for o in store.list_shared(*k, Some(&spec.namespace)) {
            if cache.len() == MAX_CACHE_OBJECTS {
                return Err(format!(
                    "the cache of namespace {} holds more than {MAX_CACHE_OBJECTS} objects of \
                     the watched kinds: more than one reconcile may read",
                    spec.namespace
                ));
            }
            cache.push(o.to_json());
        }
    }
    let kinds: Vec<Value> = kinds
        .iter()
        .map(|k| json!({"kind": k.name(), "plural": k.resource()}))
        .collect();
    let v = json!({
        "request": {"namespace": key.namespace, "name": key.name},
        "kinds": kinds,
        "cache": cache,
        "maxWrites": MAX_WRITES,
    });
    serde_json::to_string(&v).map_err(|e| e.to_string())
}

#[derive(serde::Deserialize)]
struct Output {
    #[serde(default)]
    requests: Vec<Value>,
    #[serde(default)]
    logs: Vec<String>,
    #[serde(default, rename = "requeueAfter")]
    requeue_after: Option<f64>,
    /// What reconcile threw.
    #[serde(default)]
    error: Option<String>,
}

type Decoded = Result<(Vec<Request>, Option<SimTime>), String>;

fn decode(spec: &ScriptSpec, text: &str) -> (Vec<String>, Decoded) {
    let out: Output = match serde_json::from_str(text) {
        Ok(o) => o,
        Err(e) => {
            return (
                Vec::new(),
                Err(format!("the client's output is unreadable: {e}")),
            )
        }
    };
    // The code could have replaced the client's own bounds: they are the engine's too.
    let logs: Vec<String> = out
        .logs
        .into_iter()
        .take(MAX_LOG_LINES_PER_CALL)
        .map(|l| clip(&l, MAX_LOG_LINE))
        .collect();
    if let Some(e) = out.error {
        return (logs, Err(clip(&e, MAX_ERROR)));
    }
    if out.requests.len() > MAX_WRITES {
        return (
            logs,
            Err(format!(
                "Error: reconcile made more than {MAX_WRITES} writes: a reconcile may make at most {MAX_WRITES}"
            )),
        );
    }
    let mut requests = Vec::with_capacity(out.requests.len());
    for (i, r) in out.requests.into_iter().enumerate() {
        match request(spec, r) {
            Ok(r) => requests.push(r),
            Err(e) => return (logs, Err(clip(&format!("write {}: {e}", i + 1), MAX_ERROR))),
        }
    }
    // A requeue sooner than a controller's wake-up would spin: the same floor.
    let requeue = out
        .requeue_after
        .filter(|t| t.is_finite() && *t > 0.0)
        .map(|t| (t.min(u64::MAX as f64 / 2.0) as SimTime).max(MIN_REQUEUE));
    (logs, Ok((requests, requeue)))
}

/// `console.log` lines kept from one reconcile, and the longest line.
const MAX_LOG_LINES_PER_CALL: usize = 50;
const MAX_LOG_LINE: usize = 500;
/// The longest error kept.
const MAX_ERROR: usize = 2_000;
/// The soonest requeue honoured.
const MIN_REQUEUE: SimTime = 100;

/// `s` cut to at most `max` bytes, at a character boundary.
fn clip(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

fn request(spec: &ScriptSpec, mut r: Value) -> Result<Request, String> {
    let verb = r
        .get("verb")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    match verb.as_str() {
        "create" | "update" | "updateStatus" | "patch" => {
            let obj = object(
                spec,
                r.get_mut("object").map(Value::take).unwrap_or_default(),
                &verb,
            )?;
            Ok(match verb.as_str() {
                "create" => Request::Create {
                    object: obj,
                    event: None,
                },
                "updateStatus" => Request::UpdateStatus(obj),
                _ => Request::Update(obj),
            })
        }
        "delete" => {
            let kind = kind_named(
                spec,
                r.get("kind").and_then(Value::as_str).unwrap_or_default(),
            )?;
            let name = r.get("name").and_then(Value::as_str).unwrap_or_default();
            Ok(Request::Delete {
                kind,
                key: ObjKey::new(&spec.namespace, name),
                options: DeleteOptions::default(),
                event: None,
            })
        }
        "event" => {
            let involved: ObjectReference =
                serde_json::from_value(r.get_mut("involved").map(Value::take).unwrap_or_default())
                    .map_err(|e| format!("client.event: {e}"))?;
            let t = r.get("type").and_then(Value::as_str).unwrap_or_default();
            let type_ = EventType::parse(t).ok_or_else(|| {
                format!("client.event: type must be Normal or Warning, not {t:?}")
            })?;
            let field = |f: &str| {
                r.get(f)
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string()
            };
            Ok(Request::Event {
                involved,
                type_,
                reason: field("reason"),
                message: field("message"),
            })
        }
        other => Err(format!("unknown write {other:?}")),
    }
}

/// An object the learner wrote, decoded as the API server's decoder reads a body.
fn object(spec: &ScriptSpec, mut v: Value, verb: &str) -> Result<Object, String> {
    let api_version = v
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    let kind_name = v
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or_default()
        .to_string();
    if api_version.is_empty() || kind_name.is_empty() {
        return Err(format!(
            "client.{verb}: the object has no apiVersion or kind"
        ));
    }
    let kind = crate::manifest::kind_of(&api_version, &kind_name).map_err(|_| {
        format!(
            "client.{verb}: no kind \"{kind_name}\" is registered for version \"{api_version}\""
        )
    })?;
    if let Some(meta) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        meta.entry("namespace")
            .or_insert_with(|| Value::String(spec.namespace.clone()));
    }
    crate::manifest::drop_nulls(&mut v);
    crate::manifest::object_from_json(kind, v).map_err(|e| format!("client.{verb}: {e}"))
}

fn kind_named(spec: &ScriptSpec, name: &str) -> Result<Kind, String> {
    spec.kinds()
        .into_iter()
        .find(|k| k.name() == name)
        .ok_or_else(|| format!("client.delete: kind {name:?} is not watched"))
}
