//! What several verbs share: the `-n` flag, resource arguments (`TYPE NAME…`,
//! `TYPE/NAME…`), `--timeout`, and the API server's errors in kubectl's words.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go` (`CheckErr`,
//! `GetFlagDuration`) and the resource builder of `k8s.io/cli-runtime/pkg/resource`
//! (`builder.go`: `ResourceTypeOrNameArgs`).
//!
//! Kept apart from `mod.rs` so that the verbs depend on it and the dispatch depends on
//! the verbs, never the other way round.

use crate::api::*;
use crate::apiserver::{ApiError, ObjKey};
use crate::command::args::{flag, parse_span, FlagSpec, Parsed};
use crate::command::wait::Blocking;
use crate::printers::get::resolve_kind;
use crate::time::{SimTime, MINUTE};

/// `-n, --namespace`.
pub(super) const NS: FlagSpec = flag("namespace", Some('n'));

/// Longest a blocking command waits when it has no `--timeout` (simulated).
pub(super) const DEFAULT_WAIT: SimTime = 30 * MINUTE;

/// A verb's text, or its error text.
pub(super) type R = Result<String, String>;

/// A result that may leave the command waiting for the cluster.
pub(super) type RB = Result<(String, Option<Blocking>), String>;

/// An API error as kubectl prints it.
pub(super) fn api(e: ApiError) -> String {
    e.kubectl_text()
}

/// An integer flag as pflag parses it: `strconv.ParseInt(v, 10, bits)` (an `int` flag
/// is 64 bits, an `int32` one 32), and cobra's error when it fails, e.g. `invalid
/// argument "3000000000" for "-r, --replicas" flag: strconv.ParseInt: parsing
/// "3000000000": value out of range`. `flag` is the name as cobra shows it
/// (`-r, --replicas` when there is a shorthand), `verb` the command for `See '…'`.
pub(super) fn int_flag(v: &str, flag: &str, bits: u32, verb: &str) -> Result<i64, String> {
    use std::num::IntErrorKind;
    let parsed = v.parse::<i64>();
    let reason = match &parsed {
        Ok(n) if bits == 32 && i32::try_from(*n).is_err() => "value out of range",
        Ok(n) => return Ok(*n),
        Err(e)
            if matches!(
                e.kind(),
                IntErrorKind::PosOverflow | IntErrorKind::NegOverflow
            ) =>
        {
            "value out of range"
        }
        Err(_) => "invalid syntax",
    };
    Err(format!(
        "error: invalid argument \"{v}\" for \"{flag}\" flag: strconv.ParseInt: parsing \"{v}\": {reason}\nSee '{verb} --help' for usage."
    ))
}

/// `-n`, or `default`.
pub(super) fn namespace(p: &Parsed) -> String {
    p.get("namespace").unwrap_or("default").to_string()
}

/// The store key of `name` of `kind` in `ns` (no namespace for cluster-scoped kinds).
pub(super) fn key_for(kind: Kind, ns: &str, name: &str) -> ObjKey {
    ObjKey::new(if kind.namespaced() { ns } else { "" }, name)
}

/// A resource type as typed (plural, singular, short name), or kubectl's error.
pub(super) fn kind_arg(s: &str) -> Result<Kind, String> {
    resolve_kind(s).ok_or_else(|| format!("error: the server doesn't have a resource type \"{s}\""))
}

/// `TYPE NAME…` or `TYPE/NAME…` into (kind, names).
pub(super) fn targets(args: &[String]) -> Result<Vec<(Kind, String)>, String> {
    let mut out = Vec::new();
    if args.is_empty() {
        return Ok(out);
    }
    // `hasCombinedTypeArgs`: every argument `TYPE/NAME`, or none.
    let slashed = args.iter().filter(|a| a.contains('/')).count();
    if slashed > 0 && slashed != args.len() {
        return Err("error: there is no need to specify a resource type as a separate argument when passing arguments in resource/name form (e.g. 'kubectl get resource/<resource_name>' instead of 'kubectl get resource resource/<resource_name>'".to_string());
    }
    if slashed > 0 {
        for a in args {
            let (t, n) = a.split_once('/').unwrap_or((a, ""));
            out.push((kind_arg(t)?, n.to_string()));
        }
    } else {
        let k = kind_arg(&args[0])?;
        for n in &args[1..] {
            out.push((k, n.to_string()));
        }
    }
    Ok(out)
}

/// `--timeout`: `default` when absent, [`DEFAULT_WAIT`] when `0`.
pub(super) fn timeout_flag(p: &Parsed, default: SimTime) -> Result<SimTime, String> {
    match p.get("timeout") {
        None => Ok(default),
        Some(t) => match parse_span("--timeout", t) {
            Ok(0) => Ok(DEFAULT_WAIT),
            Ok(ms) => Ok(ms),
            Err(e) => Err(format!("error: {e}")),
        },
    }
}

/// Exactly one `TYPE NAME` or `TYPE/NAME`, as `kubectl {verb}` requires.
pub(super) fn one_target(p: &Parsed, verb: &str) -> Result<(Kind, String), String> {
    let t = targets(&p.args)?;
    match t.len() {
        1 => Ok(t.into_iter().next().unwrap_or((Kind::Pod, String::new()))),
        0 => Err(format!("error: resource(s) were provided, but no name was specified\nSee 'kubectl {verb} -h' for help and examples")),
        _ => Err(format!("error: exactly one resource is required for kubectl {verb}")),
    }
}

/// An object's JSON as the API server serves it: with the `metadata.managedFields` it
/// keeps for the object. The JSON and YAML printers leave them out again
/// (cli-runtime's `OmitManagedFieldsPrinter`); the template printers see them.
pub(super) fn served(c: &crate::cluster::Cluster, mut v: serde_json::Value) -> serde_json::Value {
    let kind = v["kind"]
        .as_str()
        .and_then(|k| Kind::ALL.iter().copied().find(|x| x.name() == k));
    let key = ObjKey::new(
        v["metadata"]["namespace"].as_str().unwrap_or(""),
        v["metadata"]["name"].as_str().unwrap_or(""),
    );
    if let Some(kind) = kind.filter(|k| c.managed_fields().has(*k, &key)) {
        if v["metadata"].is_object() {
            v["metadata"]["managedFields"] = c.managed_fields().to_json(kind, &key);
        }
    }
    v
}
