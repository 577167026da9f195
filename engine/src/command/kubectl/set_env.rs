//! `kubectl set env`: environment variables set on, or removed from, the containers of
//! each object's Pod template (`KEY=VALUE`, `KEY-`, `-e`, `--from=configmap/NAME` or
//! `secret/NAME` with `--keys` and `--prefix`), or listed (`--list`).
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/set/set_env.go` (`RunEnv`,
//! `updateEnv`, `keyToEnvName`), `pkg/cmd/set/env/env_parse.go` (`ParseEnv`),
//! `pkg/cmd/util` (`SplitEnvironmentFromResources`) and apimachinery's
//! `IsEnvVarName`.

use super::update::{get_cloned, glob_match, pod_spec_of};
use super::util::{api, key_for, namespace, targets, NS, R};
use crate::api::Object;
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags, Parsed};
use crate::command::client::Client;
use crate::printers::qualified_name;
use serde_json::{json, Value};

/// `IsEnvVarName`'s message (a `RegexError` with its three examples).
const ENV_NAME_ERROR: &str = "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')";

fn is_env_var_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || matches!(c, '-' | '.' | '_'))
        && chars.all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_'))
}

/// Variables to set (name, value) and names to remove.
type EnvChanges = (Vec<(String, String)>, Vec<String>);

/// `ParseEnv`: the variables to set and the names to remove.
fn parse_env(specs: &[String]) -> Result<EnvChanges, String> {
    let (mut env, mut remove) = (Vec::new(), Vec::new());
    for spec in specs {
        if spec == "-" {
            return Err("error: kubeplay reads no environment from stdin; give KEY=VALUE".into());
        } else if let Some((k, v)) = spec.split_once('=') {
            if !is_env_var_name(k) {
                return Err(format!(
                    "error: \"{k}\" is not a valid key name: {ENV_NAME_ERROR}"
                ));
            }
            env.push((k.to_string(), v.to_string()));
        } else if let Some(k) = spec.strip_suffix('-') {
            remove.push(k.to_string());
        } else {
            return Err(format!("error: unknown environment variable: {spec}"));
        }
    }
    if remove.iter().any(|r| env.iter().any(|(k, _)| k == r)) {
        return Err(
            "error: can not both modify and remove the same environment variable in the same command"
                .into(),
        );
    }
    Ok((env, remove))
}

/// `keyToEnvName`: upper case, `-` and `.` as `_`.
fn key_to_env_name(key: &str) -> String {
    key.to_ascii_uppercase().replace(['-', '.'], "_")
}

/// `updateEnv`: existing variables in place (replaced by a newer one of the same
/// name, dropped when removed), then the new ones in order.
/// Names are looked up in ordered sets, so a long list on either side stays linear
/// in its length (times a logarithm).
fn update_env(existing: &[Value], env: &[Value], remove: &[String]) -> Vec<Value> {
    use std::collections::{BTreeMap, BTreeSet};
    let name = |v: &Value| {
        v.get("name")
            .and_then(Value::as_str)
            .unwrap_or("")
            .to_string()
    };
    // `findEnv` returns the first of a name.
    let mut newer: BTreeMap<String, &Value> = BTreeMap::new();
    for e in env {
        newer.entry(name(e)).or_insert(e);
    }
    let mut covered: BTreeSet<String> = crate::sorting::btree_set(remove.iter().cloned());
    let mut out = Vec::new();
    for e in existing {
        let n = name(e);
        if covered.contains(&n) {
            continue;
        }
        match newer.get(&n) {
            Some(v) => {
                out.push((*v).clone());
                covered.insert(n);
            }
            None => out.push(e.clone()),
        }
    }
    for e in env {
        if covered.insert(name(e)) {
            out.push(e.clone());
        }
    }
    out
}

/// `--from=configmap/NAME|secret/NAME`: one variable per key (those of `--keys`, or
/// all), each a reference to its key, in the map's key order.
fn from_source(
    c: &mut Cluster,
    k: &Client,
    ns: &str,
    from: &str,
    keys: &[String],
) -> Result<Vec<Value>, String> {
    let (kind, name) = targets(&[from.to_string()])?
        .into_iter()
        .next()
        .ok_or_else(|| "error: unsupported resource specified in --from".to_string())?;
    let obj = get_cloned(c, k, kind, &key_for(kind, ns, &name))?;
    let (data, reference): (Vec<String>, &str) = match &obj {
        Object::ConfigMap(m) => (m.data.keys().cloned().collect(), "configMapKeyRef"),
        Object::Secret(s) => (s.data.keys().cloned().collect(), "secretKeyRef"),
        _ => return Err("error: unsupported resource specified in --from".into()),
    };
    Ok(data
        .into_iter()
        .filter(|key| keys.is_empty() || keys.contains(key))
        .map(|key| {
            json!({"name": key_to_env_name(&key),
                   "valueFrom": {reference: {"key": key, "name": name}}})
        })
        .collect())
}

/// `kubectl set env (TYPE NAME | TYPE/NAME)… KEY=VALUE… KEY-…`.
pub(super) fn set_env(c: &mut Cluster, k: &Client, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            NS,
            flag("env", Some('e')),
            flag("containers", Some('c')),
            bool_flag("list", None),
            bool_flag("resolve", None),
            flag("from", None),
            flag("keys", None),
            flag("prefix", None),
            flag("overwrite", None),
            flag("output", Some('o')),
        ],
        "kubectl set env",
    )?;
    // `SplitEnvironmentFromResources`: resources first, then the changes.
    let split = p
        .args
        .iter()
        .position(|a| a.contains('=') || a.ends_with('-'))
        .unwrap_or(p.args.len());
    let (resources, env_args) = p.args.split_at(split);
    if env_args
        .iter()
        .any(|a| !(a.contains('=') || a.ends_with('-')))
    {
        return Err(format!(
            "error: all resources must be specified before environment changes: {}",
            p.args.join(" ")
        ));
    }
    let format = super::print_flags::inline(p.get("output"), &crate::command::NoFiles)?;
    // `Validate`.
    if resources.is_empty() {
        return Err("error: one or more resources must be specified as <resource> <name> or <resource>/<name>".into());
    }
    if p.bool("list") && format.is_some() {
        return Err("error: --list and --output may not be specified together".into());
    }
    let keys: Vec<String> = p.slice("keys").into_iter().map(str::to_string).collect();
    if !keys.is_empty() && p.get("from").is_none() {
        return Err(
            "error: when specifying --keys, a configmap or secret must be provided with --from"
                .into(),
        );
    }
    let overwrite = !matches!(p.get("overwrite"), Some("false"));
    let mut specs: Vec<String> = p.all("env").iter().map(|s| s.to_string()).collect();
    specs.extend(env_args.iter().cloned());
    let (pairs, remove) = parse_env(&specs)?;
    let ns = namespace(&p);
    let mut env: Vec<Value> = pairs
        .iter()
        .map(|(k, v)| json!({"name": k, "value": v}))
        .collect();
    let mut warnings = String::new();
    if let Some(from) = p.get("from") {
        for e in from_source(c, k, &ns, from, &keys)? {
            // `keyToEnvName` says when a key had to change to be a variable's name.
            let key = e
                .pointer("/valueFrom/configMapKeyRef/key")
                .or_else(|| e.pointer("/valueFrom/secretKeyRef/key"))
                .and_then(Value::as_str)
                .unwrap_or("");
            let n = e["name"].as_str().unwrap_or("");
            if key != n {
                warnings.push_str(&format!("Warning: key {key} transferred to {n}\n"));
            }
            env.push(e);
        }
    }
    if let Some(prefix) = p.get("prefix").filter(|s| !s.is_empty()) {
        for e in &mut env {
            let n = e["name"].as_str().unwrap_or("").to_string();
            e["name"] = json!(format!("{prefix}{n}"));
        }
    }
    let selector = p.get("containers").unwrap_or("*");
    let done = run(
        c,
        k,
        &p,
        &ns,
        resources,
        Change {
            env,
            remove,
            selector,
            overwrite,
        },
        format,
    );
    match done {
        Ok(text) => Ok(format!("{warnings}{text}")),
        Err(text) => Err(format!("{warnings}{text}")),
    }
}

struct Change<'a> {
    env: Vec<Value>,
    remove: Vec<String>,
    selector: &'a str,
    overwrite: bool,
}

fn run(
    c: &mut Cluster,
    k: &Client,
    p: &Parsed,
    ns: &str,
    resources: &[String],
    ch: Change<'_>,
    format: Option<String>,
) -> R {
    let named = targets(resources)?;
    let mut printer = super::print_flags::Reporter::new(format);
    let (mut out, mut errs) = (String::new(), Vec::new());
    for (kind, name) in named {
        let key = key_for(kind, ns, &name);
        let before = get_cloned(c, k, kind, &key)?;
        let mut obj = before.clone();
        let Some(spec) = pod_spec_of(&mut obj) else {
            errs.push(format!(
                "error: {}/{name} the object is not a pod or does not have a pod template",
                kind.resource()
            ));
            continue;
        };
        let mut any = false;
        for ct in spec
            .containers
            .iter_mut()
            .chain(spec.init_containers.iter_mut())
        {
            if !glob_match(ch.selector, &ct.name) {
                continue;
            }
            any = true;
            // `validateNoOverwrites`: a variable that exists with another value.
            if !ch.overwrite {
                let taken = ch.env.iter().find_map(|e| {
                    ct.env
                        .iter()
                        .find(|x| x["name"] == e["name"] && x["value"] != e["value"])
                });
                if let Some(cur) = taken {
                    errs.push(format!(
                        "error: {}/{name} '{}' already has a value ({}), and --overwrite is false",
                        kind.resource(),
                        cur["name"].as_str().unwrap_or(""),
                        cur["value"].as_str().unwrap_or("")
                    ));
                    continue;
                }
            }
            ct.env = update_env(&ct.env, &ch.env, &ch.remove);
            if p.bool("list") {
                out.push_str(&format!(
                    "# {} {name}, container {}\n",
                    kind.name(),
                    ct.name
                ));
                for e in &ct.env {
                    let n = e["name"].as_str().unwrap_or("");
                    match e.get("valueFrom") {
                        None => {
                            out.push_str(&format!("{n}={}\n", e["value"].as_str().unwrap_or("")))
                        }
                        Some(from) => out.push_str(&format!("# {n} from {}\n", ref_string(from))),
                    }
                }
            }
        }
        if !any {
            out.push_str(&format!(
                "Warning: {}/{name} does not have any containers matching \"{}\"\n",
                kind.name(),
                ch.selector
            ));
            continue;
        }
        if p.bool("list") || before == obj {
            continue;
        }
        match k.patch(c, "", obj) {
            Ok(r) => {
                let shown =
                    super::util::served(c, r.object.map(|o| o.to_json()).unwrap_or_default());
                out.push_str(&printer.typed_object(
                    kind,
                    &shown,
                    &qualified_name(kind, &name),
                    "env updated",
                )?);
            }
            Err(e) => errs.push(format!(
                "error: failed to patch env update to pod template: {}",
                api(e).trim_start_matches("Error from server")
            )),
        }
    }
    if errs.is_empty() {
        Ok(out.trim_end_matches('\n').to_string())
    } else {
        Err(format!("{out}{}", errs.join("\n")))
    }
}

/// `GetEnvVarRefString`: where a reference points.
fn ref_string(from: &Value) -> String {
    if let Some(r) = from.get("configMapKeyRef") {
        return format!(
            "configmap {}, key {}",
            r["name"].as_str().unwrap_or(""),
            r["key"].as_str().unwrap_or("")
        );
    }
    if let Some(r) = from.get("secretKeyRef") {
        return format!(
            "secret {}, key {}",
            r["name"].as_str().unwrap_or(""),
            r["key"].as_str().unwrap_or("")
        );
    }
    if let Some(r) = from.get("fieldRef") {
        return format!("field path {}", r["fieldPath"].as_str().unwrap_or(""));
    }
    if let Some(r) = from.get("resourceFieldRef") {
        return format!("resource field {}", r["resource"].as_str().unwrap_or(""));
    }
    "invalid reference".into()
}
