//! What `create`, `apply`, `replace` and `delete -f` share: reading manifests (with
//! `--validate`'s strict decoding), the output flags, sending a create, and how kubectl
//! names an object in its messages.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/create/create.go`,
//! `staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go`.

use super::super::util::{api, key_for, R};
use crate::api::*;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::command::args::Parsed;
use crate::command::Files;
use crate::printers::qualified_name;

/// The documents of every `-f` (`-` is stdin), in order.
pub(in crate::command::kubectl) fn read_manifest(
    p: &Parsed,
    stdin: Option<&str>,
    files: &dyn Files,
) -> Result<Vec<crate::manifest::Document>, String> {
    read_manifest_each(p, stdin, files)?.into_iter().collect()
}

/// The documents of every `-f`, in order, each mapped or the builder's error for it
/// (`ContinueOnError`: `create` and `apply` go on past a kind the server does not
/// serve, and report it with the others).
pub(in crate::command::kubectl) fn read_manifest_each(
    p: &Parsed,
    stdin: Option<&str>,
    files: &dyn Files,
) -> Result<Vec<Result<crate::manifest::Document, String>>, String> {
    let mut docs = Vec::new();
    let paths = p.all("filename");
    if paths.is_empty() {
        return Err("error: must specify one of -f and -k".into());
    }
    for path in paths {
        let (text, source) = if path == "-" {
            (
                stdin
                    .ok_or("error: no objects passed to apply (stdin is empty)")?
                    .to_string(),
                "STDIN".to_string(),
            )
        } else {
            (
                files.read(path).map_err(|e| format!("error: {e}"))?,
                path.to_string(),
            )
        };
        docs.extend(crate::manifest::parse_each(&text, &source)?);
    }
    if docs.is_empty() {
        return Err("error: no objects passed to apply".into());
    }
    Ok(docs)
}

/// The API server's refusal of a document with fields its type does not have: kubectl
/// sends `fieldValidation=Strict` (its default `--validate=strict`), so the server
/// answers 400 (`transformDecodeError` in apiserver's handlers/rest.go, the list from
/// apimachinery's `NewStrictDecodingError`) and nothing is created. `verb` and
/// `source` are `cmdutil.AddSourceToErr`'s: `creating "web.yaml"`.
pub(in crate::command::kubectl) fn strict_decoding_error(
    doc: &crate::manifest::Document,
    verb: &str,
    source: &str,
) -> Option<String> {
    if doc.unknown_fields.is_empty() {
        return None;
    }
    let kind = doc.object.kind();
    let version = kind.api_version().rsplit('/').next().unwrap_or("v1");
    let fields: Vec<String> = doc
        .unknown_fields
        .iter()
        .map(|f| format!("unknown field \"{f}\""))
        .collect();
    Some(format!(
        "Error from server (BadRequest): error when {verb} \"{source}\": {k} in version \"{version}\" cannot be handled as a {k}: strict decoding error: {}",
        fields.join(", "),
        k = kind.name()
    ))
}

/// `--validate` (`cmdutil.GetValidationDirective`): what the server does with a field
/// its type does not have.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(in crate::command::kubectl) enum Validation {
    /// `strict` (or `true`, or a bare `--validate`): refused (kubectl's default).
    Strict,
    /// `warn`: `Warning: unknown field "…"`, then the object without it.
    Warn,
    /// `ignore` (or `false`): dropped silently.
    Ignore,
}

/// `--validate`'s value; `prefix` is how the verb reports a bad one (`error: ` from
/// create, cobra's `Error: ` from apply).
pub(in crate::command::kubectl) fn validation(
    p: &Parsed,
    prefix: &str,
) -> Result<Validation, String> {
    match p.get("validate").unwrap_or("strict") {
        "strict" | "true" => Ok(Validation::Strict),
        "warn" => Ok(Validation::Warn),
        "ignore" | "false" => Ok(Validation::Ignore),
        other => Err(format!(
            "{prefix}invalid - validate option \"{other}\"; must be one of: strict (or true), warn, ignore (or false)"
        )),
    }
}

/// `--validate` without a value means `strict` (its NoOptDefVal), never the next word.
pub(in crate::command::kubectl) fn bare_validate(words: &[String]) -> Vec<String> {
    words
        .iter()
        .map(|w| {
            if w == "--validate" {
                "--validate=strict".to_string()
            } else {
                w.clone()
            }
        })
        .collect()
}

/// The server's answer to a document's unknown fields under `v`: refused (the error),
/// or accepted with warnings to print first.
pub(in crate::command::kubectl) fn field_validation(
    doc: &crate::manifest::Document,
    v: Validation,
    verb: &str,
    source: &str,
) -> Result<String, String> {
    match v {
        Validation::Strict => {
            strict_decoding_error(doc, verb, source).map_or(Ok(String::new()), Err)
        }
        Validation::Warn => Ok(doc
            .unknown_fields
            .iter()
            .map(|f| format!("Warning: unknown field \"{f}\"\n"))
            .collect()),
        Validation::Ignore => Ok(String::new()),
    }
}

/// `-f`'s source as kubectl names it in errors (`STDIN` for `-`).
pub(in crate::command::kubectl) fn source_name(p: &Parsed) -> String {
    match p.get("filename") {
        Some("-") | None => "STDIN".to_string(),
        Some(f) => f.to_string(),
    }
}

/// What a manifest may set: the server owns identity, timestamps and status (a
/// Node's too: kubeplay's kubelets report it).
pub(in crate::command::kubectl) fn strip_server_fields(obj: &mut Object) {
    crate::apiserver::prepare::clear_server_fields(obj);
    if let Object::Node(n) = obj {
        n.status = Default::default();
    }
}

/// The NAME after a `kubectl create` subcommand (`NameFromCommandArgs`).
pub(in crate::command::kubectl) fn name_from_args(p: &Parsed) -> Result<&String, String> {
    p.args
        .get(1)
        .ok_or_else(|| "error: exactly one NAME is required, got 0".to_string())
}

/// How `kubectl create SUBCOMMAND` reports what it made.
pub(in crate::command::kubectl) struct Output {
    /// kubectl's client for this command.
    pub(in crate::command::kubectl) client: crate::command::client::Client,
    /// `-o`, checked, a `-file` template put inline (`print_flags::inline`).
    pub(in crate::command::kubectl) format: Option<String>,
    /// `--dry-run=client`: nothing is sent.
    pub(in crate::command::kubectl) client_dry_run: bool,
    /// `-n` was given.
    pub(in crate::command::kubectl) explicit_ns: bool,
}

/// Create one object as kubectl's user (unless a client dry run), then print it as
/// `-o` says: `client` is the object as kubectl's generator builds it (no defaults,
/// `creationTimestamp: null`), which a client dry run prints; otherwise the server's.
///
/// `what` names the generators that wrap the server's refusal as `error: failed to
/// create WHAT: …` (deployment, poddisruptionbudgets, priorityclass); the others
/// return it as it came.
pub(in crate::command::kubectl) fn create_object(
    c: &mut Cluster,
    object: Object,
    client: serde_json::Value,
    out: &Output,
    what: Option<&str>,
) -> R {
    let kind = object.kind();
    let key = key_for(kind, &object.meta().namespace, &object.meta().name);
    let qn = qualified_name(kind, &key.name);
    let mut sent = None;
    if !out.client_dry_run {
        let r = out.client.create(c, object).map_err(|e| match what {
            Some(w) => format!("error: failed to create {w}: {}", e.message),
            None => api(e),
        })?;
        sent = r.object;
    }
    // The server's answer: the object as it stored it (or, in a server dry run, as
    // it would have); in a client dry run, the object as kubectl built it.
    let shown = match sent {
        Some(o) if !out.client_dry_run => super::super::util::served(c, o.to_json()),
        _ => client,
    };
    // kubectl's generators hold what they send and get back as Go types.
    let go_type = crate::printers::go_json::root_type(kind);
    super::super::print_flags::report_typed(out.format.as_deref(), &go_type, &shown, &qn, "created")
}

/// `metadata` of a generated object: `creationTimestamp: null`, the name, and the
/// namespace when -n gave it.
pub(in crate::command::kubectl) fn client_meta(name: &str, ns: Option<&str>) -> serde_json::Value {
    let mut m = serde_json::json!({"creationTimestamp": null, "name": name});
    if let Some(ns) = ns {
        m["namespace"] = ns.into();
    }
    m
}

/// The namespace an applied object ends up in ("" for a cluster-scoped kind).
pub(in crate::command::kubectl) fn obj_ns(kind: Kind, key: &ObjKey) -> String {
    if kind.namespaced() {
        key.namespace.clone()
    } else {
        String::new()
    }
}

/// cmdutil.AddSourceToErr: the server's words after the file they came from.
pub(in crate::command::kubectl) fn with_source(text: String, source: &str, verb: &str) -> String {
    match text.split_once("): ") {
        Some((head, rest)) if head.starts_with("Error from server (") => {
            format!("{head}): error when {verb} \"{source}\": {rest}")
        }
        // A status without a reason (etcd's timeout): `Error from server: …`.
        _ => match text.strip_prefix("Error from server: ") {
            Some(rest) => format!("Error from server: error when {verb} \"{source}\": {rest}"),
            None => text,
        },
    }
}

/// cli-runtime's `Info.String()`: the REST mapping and the name, as apply's errors
/// quote them (`Resource: "apps/v1, Resource=deployments", …`).
pub(in crate::command::kubectl) fn info_string(kind: Kind, key: &ObjKey) -> String {
    let (group, version) = kind
        .api_version()
        .split_once('/')
        .unwrap_or(("", kind.api_version()));
    format!(
        "Resource: \"{group}/{version}, Resource={}\", GroupVersionKind: \"{group}/{version}, Kind={}\"\nName: \"{}\", Namespace: \"{}\"",
        kind.resource(),
        kind.name(),
        key.name,
        key.namespace
    )
}

/// One object's failure in a verb over several objects, as kubectl prints it: alone
/// (`checkErr` of the one error: an Invalid status as `The Kind "name" is invalid: …`)
/// or as one of several (`checkErr` of the aggregate prints each error's
/// `StandardErrorMessage`: `Error from server (Invalid): error when creating …`).
pub(in crate::command::kubectl) struct Failure {
    alone: String,
    listed: String,
}

impl From<String> for Failure {
    fn from(text: String) -> Failure {
        Failure {
            alone: text.clone(),
            listed: text,
        }
    }
}

impl Failure {
    /// The server's refusal of one object of `source` (`cmdutil.AddSourceToErr`).
    pub(in crate::command::kubectl) fn api(
        e: crate::apiserver::ApiError,
        source: &str,
        verb: &str,
    ) -> Failure {
        let standard = if e.reason.is_empty() {
            format!("Error from server: {}", e.message)
        } else {
            format!("Error from server ({}): {}", e.reason, e.message)
        };
        Failure {
            alone: with_source(e.kubectl_text(), source, verb),
            listed: with_source(standard, source, verb),
        }
    }

    /// Another `AddSourceToErr` around both forms.
    pub(in crate::command::kubectl) fn within(self, source: &str, verb: &str) -> Failure {
        Failure {
            alone: with_source(self.alone, source, verb),
            listed: with_source(self.listed, source, verb),
        }
    }
}

/// What a multi-object verb printed, then its errors (an error exit if any).
pub(in crate::command::kubectl) fn finish(out: String, errors: Vec<Failure>) -> R {
    match errors.as_slice() {
        [] => Ok(out),
        [one] => Err(format!("{out}{}", one.alone)),
        many => {
            let listed: Vec<&str> = many.iter().map(|f| f.listed.as_str()).collect();
            Err(format!("{out}{}", listed.join("\n")))
        }
    }
}

/// The typed object of a generated client-side object (its `null`s dropped).
pub(in crate::command::kubectl) fn typed_from_client<T: serde::de::DeserializeOwned>(
    client: &serde_json::Value,
) -> Result<T, String> {
    fn strip(v: &mut serde_json::Value) {
        match v {
            serde_json::Value::Object(m) => {
                m.retain(|_, x| !x.is_null());
                m.values_mut().for_each(strip);
            }
            serde_json::Value::Array(a) => a.iter_mut().for_each(strip),
            _ => {}
        }
    }
    let mut v = client.clone();
    strip(&mut v);
    crate::value_de::from_value(v).map_err(|(_, e)| format!("error: {e}"))
}
