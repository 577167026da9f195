//! `-o custom-columns=HEADER:PATH,…` and `-o custom-columns-file=FILE`, as kubectl's
//! `CustomColumnsPrinter` prints them.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/get/customcolumn.go`.

use super::jsonpath::{go_sprint, Template};
use serde_json::Value;

/// One column: its header and its JSONPath template (`{.metadata.name}`).
#[derive(Clone, Debug, PartialEq)]
pub struct Column {
    /// Printed above the column as written.
    pub header: String,
    /// The relaxed path made whole, e.g. `{.metadata.name}` (empty for an empty spec).
    pub field_spec: String,
}

/// `RelaxedJSONPathExpression`: `a.b`, `.a.b`, `{a.b}` and `{.a.b}` all become
/// `{.a.b}`; an empty expression stays empty; braces anywhere else are refused.
pub fn relaxed_jsonpath(expr: &str) -> Result<String, String> {
    if expr.is_empty() {
        return Ok(String::new());
    }
    // The regexp `^\{\.?([^{}]+)\}$|^\.?([^{}]+)$`, by hand.
    let inner = match expr.strip_prefix('{').and_then(|e| e.strip_suffix('}')) {
        Some(i) => i,
        None => expr,
    };
    let field = inner.strip_prefix('.').unwrap_or(inner);
    if field.is_empty() || field.contains(['{', '}']) {
        return Err("unexpected path string, expected a 'name1.name2' or '.name1.name2' or '{name1.name2}' or '{.name1.name2}'".into());
    }
    Ok(format!("{{.{field}}}"))
}

/// `NewCustomColumnsPrinterFromSpec`: comma-separated `HEADER:PATH` pairs.
pub fn parse_spec(spec: &str) -> Result<Vec<Column>, String> {
    if spec.is_empty() {
        return Err("custom-columns format specified but no custom columns given".into());
    }
    spec.split(',')
        .map(|part| {
            let (header, path) = part.split_once(':').ok_or_else(|| {
                format!(
                    "unexpected custom-columns spec: {part}, expected <header>:<json-path-expr>"
                )
            })?;
            Ok(Column {
                header: header.to_string(),
                field_spec: relaxed_jsonpath(path)?,
            })
        })
        .collect()
}

/// `NewCustomColumnsPrinterFromTemplate`: a line of headers and a line of paths, both
/// split on whitespace.
pub fn parse_file(text: &str) -> Result<Vec<Column>, String> {
    let mut lines = text.lines();
    let headers: Vec<&str> = lines
        .next()
        .ok_or("invalid template, missing header line. Expected format is one line of space separated headers, one line of space separated column specs.")?
        .split_whitespace()
        .collect();
    let specs: Vec<&str> = lines
        .next()
        .ok_or("invalid template, missing spec line. Expected format is one line of space separated headers, one line of space separated column specs.")?
        .split_whitespace()
        .collect();
    if headers.len() != specs.len() {
        return Err(format!(
            "number of headers ({}) and field specifications ({}) don't match",
            headers.len(),
            specs.len()
        ));
    }
    headers
        .iter()
        .zip(specs)
        .map(|(h, s)| {
            Ok(Column {
                header: h.to_string(),
                field_spec: relaxed_jsonpath(s)?,
            })
        })
        .collect()
}

/// `PrintObj` over `items`: the header line (unless `no_headers`), then one line per
/// item, each cell every match joined with `,` (Go's `%v` of each) or `<none>`.
/// On an error the lines printed before it come back with it, as kubectl has already
/// written them: `(printed, error)`.
pub fn print(
    cols: &[Column],
    items: &[Value],
    no_headers: bool,
) -> Result<String, (String, String)> {
    let mut text = String::new();
    if !no_headers {
        let h: Vec<&str> = cols.iter().map(|c| c.header.as_str()).collect();
        text.push_str(&h.join("\t"));
        text.push('\n');
    }
    let layout = |t: &str| crate::tabwriter::format(t, 6, 3);
    // The columns are parsed when printing starts, after the header is out.
    let mut parsed = Vec::new();
    for c in cols {
        match Template::parse_raw(&c.field_spec) {
            Ok(t) => parsed.push(t),
            Err(e) => return Err((layout(&text), e)),
        }
    }
    for item in items {
        let mut cells = Vec::new();
        for t in &parsed {
            let results = match t.find_results(item) {
                Ok(r) => r,
                Err(e) => return Err((layout(&text), e)),
            };
            let mut vals: Vec<String> = Vec::new();
            if results.first().is_none_or(|r| r.is_empty()) {
                vals.push("<none>".into());
            }
            vals.extend(results.iter().flatten().map(go_sprint));
            cells.push(vals.join(","));
        }
        text.push_str(&cells.join("\t"));
        text.push('\n');
    }
    Ok(layout(&text))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn relaxed_paths_all_become_a_whole_template() {
        for e in ["a.b", ".a.b", "{a.b}", "{.a.b}"] {
            assert_eq!(relaxed_jsonpath(e).unwrap(), "{.a.b}");
        }
        assert!(relaxed_jsonpath("{.a").is_err());
    }

    #[test]
    fn a_column_without_a_colon_is_refused_with_kubectls_text() {
        assert_eq!(
            parse_spec("NAME:.metadata.name,X").unwrap_err(),
            "unexpected custom-columns spec: X, expected <header>:<json-path-expr>"
        );
    }

    #[test]
    fn lists_and_maps_print_as_go_prints_them_and_missing_fields_as_none() {
        let cols = parse_spec("P:.ports,L:.labels,N:.nope,I:.ports[*].containerPort").unwrap();
        let item = json!({"ports": [{"containerPort": 80, "protocol": "TCP"}, {"containerPort": 81}], "labels": {"b": "2", "a": "1"}});
        assert_eq!(
            print(&cols, &[item], true).unwrap(),
            "[map[containerPort:80 protocol:TCP] map[containerPort:81]]   map[a:1 b:2]   <none>   80,81\n"
        );
    }
}
