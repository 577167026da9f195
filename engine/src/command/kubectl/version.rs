//! `kubectl version [--client] [-o yaml|json]`: the console's own version, and the
//! server's as `/version` answers it through the API server's handlers (what `serve`
//! answers real kubectl with), so a server that is refused or unauthorized is met as
//! kubectl meets it.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/version/version.go` (`Run`),
//! `staging/src/k8s.io/apimachinery/pkg/version/types.go` (`Info`).

use super::raw::{get_path, raw_error_text, RawIdentity};
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags};
use crate::rest::non_resource::VERSION_FIELDS;
use serde_json::{json, Value};

/// The console's kubectl as `version.Get()` reports it: built with the server it
/// simulates, without the server's compatibility-version fields.
fn client_info() -> Value {
    let mut v = crate::apiserver::discovery::version();
    if let Some(m) = v.as_object_mut() {
        m.retain(|k, _| !k.starts_with("emulation") && !k.starts_with("minCompatibility"));
    }
    v
}

/// The Kustomize version kubectl v1.33 embeds.
const KUSTOMIZE: &str = "v5.6.0";

/// `kubectl version` (`Options.Validate`, then `Run`): the client's lines, then the
/// server's, or the server's error after the client's lines.
pub(super) fn version(
    c: &mut Cluster,
    words: &[String],
    identity: &RawIdentity,
) -> crate::command::Outcome {
    use crate::command::Outcome;
    let p = match parse_flags(
        words,
        &[bool_flag("client", None), flag("output", Some('o'))],
        "kubectl version",
    ) {
        Ok(p) => p,
        Err(e) => return Outcome::err(e),
    };
    let client = p.bool("client");
    // `Complete` refuses arguments before the client is made, except with --client.
    if !client && !p.args.is_empty() {
        return Outcome::err(format!("error: extra arguments: [{}]", p.args.join(" ")));
    }
    let output = p.get("output").unwrap_or_default().to_string();
    if !matches!(output.as_str(), "" | "yaml" | "json") {
        return Outcome::err("error: --output must be 'yaml' or 'json'".into());
    }
    let (server, error) = if client {
        (None, None)
    } else if c.apiserver_down() {
        (None, Some(crate::apiserver::connection_refused_line()))
    } else {
        match get_path(c, "/version", identity) {
            Ok(body) => match serde_json::from_str::<Value>(&body) {
                Ok(v) => (Some(v), None),
                Err(e) => (None, Some(format!("error: {e}"))),
            },
            // The discovery client reads `/version` as raw bytes: a failure is worded
            // by its code alone, a Status body unread.
            Err((status, _)) => (None, Some(raw_error_text(status, b""))),
        }
    };
    let text = print(&output, &client_info(), server.as_ref());
    match error {
        None => Outcome::ok(text),
        Some(e) => Outcome::err(format!("{text}{e}\n")),
    }
}

/// `Run`'s switch on the output: three lines, `yaml.Marshal` or `json.MarshalIndent`
/// of the `Version` struct, each followed by `Fprintln`'s newline.
fn print(output: &str, client: &Value, server: Option<&Value>) -> String {
    let git = |v: &Value| v["gitVersion"].as_str().unwrap_or_default().to_string();
    match output {
        "yaml" => {
            let mut all = json!({"clientVersion": client, "kustomizeVersion": KUSTOMIZE});
            if let Some(s) = server {
                all["serverVersion"] = s.clone();
            }
            format!("{}\n", crate::printers::yaml::to_yaml(&all))
        }
        "json" => {
            let mut fields = vec![
                ("clientVersion", info_json(client)),
                ("kustomizeVersion", Value::from(KUSTOMIZE).to_string()),
            ];
            if let Some(s) = server {
                fields.push(("serverVersion", info_json(s)));
            }
            let body: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("  {}: {v}", Value::from(*k)))
                .collect();
            let text = format!("{{\n{}\n}}\n", body.join(",\n"));
            crate::printers::go_json::go_html_escape(text)
        }
        _ => {
            let mut out = format!(
                "Client Version: {}\nKustomize Version: {KUSTOMIZE}\n",
                git(client)
            );
            if let Some(s) = server {
                out.push_str(&format!("Server Version: {}\n", git(s)));
            }
            out
        }
    }
}

/// One `version.Info` under the top level, indented as `MarshalIndent(v, "", "  ")`
/// writes it, its fields in the struct's order and empty ones omitted.
fn info_json(v: &Value) -> String {
    let lines: Vec<String> = VERSION_FIELDS
        .iter()
        .filter_map(|k| {
            v.get(*k)
                .filter(|x| x.as_str() != Some(""))
                .map(|x| format!("    {}: {x}", Value::from(*k)))
        })
        .collect();
    format!("{{\n{}\n  }}", lines.join(",\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_json_form_indents_each_info_under_its_key_in_the_structs_order() {
        let server = crate::apiserver::discovery::version();
        let text = print("json", &client_info(), Some(&server));
        assert!(text.starts_with("{\n  \"clientVersion\": {\n    \"major\": \"1\",\n"));
        assert!(text.contains("\"kustomizeVersion\": \"v5.6.0\",\n  \"serverVersion\": {\n    \"major\": \"1\",\n    \"minor\": \"33\",\n    \"emulationMajor\": \"1\","));
        assert!(text.ends_with("\"platform\": \"linux/amd64\"\n  }\n}\n"));
    }

    #[test]
    fn the_yaml_form_sorts_its_keys_and_ends_with_a_blank_line() {
        let text = print("yaml", &client_info(), None);
        assert!(text.starts_with("clientVersion:\n  buildDate: \"2025-04-23T00:00:00Z\"\n"));
        assert!(text.ends_with("kustomizeVersion: v5.6.0\n\n"));
    }
}
