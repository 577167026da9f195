//! The tables of custom resources: the columns their definition names
//! (`additionalPrinterColumns`), as the API server's table convertor for custom
//! resources builds them (`apiextensions-apiserver/pkg/registry/customresource/
//! tableconvertor/tableconvertor.go`), and the definitions' own table.

use crate::api::*;
use crate::printers::jsonpath;
use crate::time::SimTime;

/// The headers: NAME, then each column shown (priority 0, or any with `-o wide`),
/// upper-cased as kubectl prints them.
pub fn headers(columns: &[CustomResourceColumnDefinition], wide: bool) -> Vec<String> {
    let mut h = vec!["NAME".to_string()];
    h.extend(
        columns
            .iter()
            .filter(|c| wide || c.priority == 0)
            .map(|c| c.name.to_uppercase()),
    );
    h
}

/// One row: the name, then each column's value by its JSON path (empty for none:
/// the server's cell is nil, which kubectl prints as nothing).
pub fn row(
    name: String,
    obj: &Object,
    columns: &[CustomResourceColumnDefinition],
    wide: bool,
    now: SimTime,
) -> Vec<String> {
    let json = obj.to_json();
    let mut r = vec![name];
    for c in columns.iter().filter(|c| wide || c.priority == 0) {
        r.push(cell(c, &json, now).unwrap_or_default());
    }
    r
}

/// The Table's cells of one object: its name, then each column's value typed as
/// `cellForJSONValue` types it (an integer column's a JSON integer…), null for none.
pub fn cells(
    obj: &Object,
    columns: &[CustomResourceColumnDefinition],
    now: SimTime,
) -> Vec<serde_json::Value> {
    let json = obj.to_json();
    let mut r = vec![serde_json::Value::String(obj.meta().name.clone())];
    for c in columns {
        let v = cell(c, &json, now).map_or(serde_json::Value::Null, |s| match c.type_.as_str() {
            "integer" => s.parse::<i64>().map_or(serde_json::Value::Null, Into::into),
            "number" => s.parse::<f64>().map_or(serde_json::Value::Null, Into::into),
            "boolean" => serde_json::Value::Bool(s == "true"),
            _ => serde_json::Value::String(s),
        });
        r.push(v);
    }
    r
}

/// `cellForJSONValue`, and a string column printed as the JSON path printer does.
fn cell(
    c: &CustomResourceColumnDefinition,
    json: &serde_json::Value,
    now: SimTime,
) -> Option<String> {
    let found = jsonpath::select(&format!("{{{}}}", c.json_path), json).ok()?;
    let v = *found.first()?;
    if v.is_null() {
        return None;
    }
    match c.type_.as_str() {
        "string" => Some(jsonpath::format_value(v)),
        "integer" => v
            .as_i64()
            .or_else(|| v.as_f64().map(|f| f as i64))
            .map(|i| i.to_string()),
        "number" => v
            .as_f64()
            .map(|f| jsonpath::go_sprint(&serde_json::json!(f))),
        "boolean" => v.as_bool().map(|b| b.to_string()),
        "date" => v.as_str().map(|s| match crate::time::parse_rfc3339(s) {
            Some(t) => crate::time::human_duration_since(t, now),
            None => "<invalid>".into(),
        }),
        _ => None,
    }
}
