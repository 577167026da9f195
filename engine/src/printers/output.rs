//! What `kubectl get -o` prints with: the formats (`Output`) and the JSON texts the
//! printers share. Shared by `kubectl get` and its watch, which prints event by event
//! as the clock plays (`command::wait`).

use crate::printers::jsonpath::Template;
use serde_json::Value;

/// What `kubectl get -o` asked for, its template read and parsed.
#[derive(Clone, Debug, PartialEq)]
pub enum Output {
    /// The table (`-o wide`: its wide columns).
    Table {
        /// `-o wide`.
        wide: bool,
    },
    /// `-o name`.
    Name,
    /// `-o json`.
    Json,
    /// `-o yaml`.
    Yaml,
    /// `-o jsonpath`.
    JsonPath(Template),
    /// `-o jsonpath-as-json`: each result list as an indented JSON array.
    JsonPathAsJson(Template),
    /// `-o custom-columns`.
    CustomColumns(Vec<crate::printers::custom_columns::Column>),
    /// `-o go-template`.
    GoTemplate(crate::printers::gotemplate::GoTemplate),
}

/// JSON as kubectl prints it (4-space indent).
pub fn pretty_json(v: &serde_json::Value) -> String {
    use serde::Serialize;
    let mut buf = Vec::new();
    let fmt = serde_json::ser::PrettyFormatter::with_indent(b"    ");
    let mut ser = serde_json::Serializer::with_formatter(&mut buf, fmt);
    let _ = v.serialize(&mut ser);
    crate::printers::go_json::go_html_escape(String::from_utf8(buf).unwrap_or_default())
}

/// `-o jsonpath-as-json`: each of the template's results as an indented JSON array
/// (`PrintResults` with `outputJSON`).
pub fn jsonpath_as_json(t: &Template, data: &Value) -> Result<String, String> {
    let mut out = String::new();
    for results in t.find_results(data)? {
        out.push_str(&pretty_json(&Value::Array(results)));
        out.push('\n');
    }
    Ok(out)
}
