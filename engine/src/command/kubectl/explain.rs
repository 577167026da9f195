//! `kubectl explain RESOURCE[.FIELD…] [--recursive] [--api-version=G/V] [--output=…]`:
//! the schema of a kind or of one of its fields, read from the API server's OpenAPI v3
//! document for the resource's group version — the document `kubeplay-cli serve`
//! publishes to a real kubectl.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/explain/explain.go` (arguments, the
//! REST mapping), `pkg/explain/explain.go` (`SplitAndParseResourceRequest…`) and
//! `pkg/explain/v2/templates/plaintext.tmpl`, a Go template whose named templates are
//! the functions below (`output`, `field_list`, `field_detail`, `description`,
//! `type_guess`, `extract_enum`). The template's tests of truth are Go's: an empty map,
//! list or string is false (`truthy`).

use super::util::R;
use crate::apiserver::openapi::{openapi_document, openapi_index};
use crate::command::args::{bool_flag, flag, parse_flags};
use crate::printers::get::resolve_kind;
use serde_json::Value;
use std::collections::BTreeSet;

/// `kubectl explain`.
pub(super) fn explain(words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            bool_flag("recursive", None),
            flag("api-version", None),
            flag("output", None),
        ],
        "kubectl explain",
    )?;
    match p.args.len() {
        0 => return Err("error: You must specify the type of resource to explain. Use \"kubectl api-resources\" for a complete list of supported resources.\n".into()),
        1 => {}
        _ => return Err("error: We accept only this format: explain RESOURCE\n".into()),
    }
    let recursive = p.get("recursive") == Some("true");
    let api_version = p.get("api-version").unwrap_or("");
    let arg = p.args[0].trim_end_matches('.');
    let (kind, fields) = split_and_parse(arg, api_version.is_empty())?;
    let output = p.get("output").unwrap_or("plaintext");
    let (mut group, mut version) = crate::apiserver::discovery::group_version(kind);
    if !api_version.is_empty() {
        let (g, v) = parse_group_version(api_version)?;
        (group, version) = (g, v);
    }
    if output == "plaintext-openapiv2" {
        // `renderOpenAPIV2`: the kind's model in the v2 document, by its
        // group-version-kind.
        let defs = crate::apiserver::openapi::v2::v2_definitions();
        let gvk = serde_json::json!([{"group": group, "version": version, "kind": kind.name()}]);
        let root = defs
            .iter()
            .find(|(_, d)| d.get("x-kubernetes-group-version-kind") == Some(&gvk))
            .map(|(n, _)| n.clone())
            .unwrap_or_default();
        return super::explain_v2::print_model_description(
            &defs,
            &root,
            group,
            version,
            kind.name(),
            &fields,
            recursive,
        )
        .map_err(|e| format!("error: {e}\n"));
    }
    if output != "plaintext" {
        return Err(format!("error: unrecognized format: {output}\n"));
    }
    let gv_path = if group.is_empty() {
        format!("api/{version}")
    } else {
        format!("apis/{group}/{version}")
    };
    let gvr = if group.is_empty() {
        format!("/{version}, Resource={}", kind.resource())
    } else {
        format!("{group}/{version}, Resource={}", kind.resource())
    };
    let listed = openapi_index()["paths"].get(&gv_path).is_some();
    let doc = match openapi_document(&gv_path) {
        Some(d) if listed => d,
        _ => return Err(format!("error: couldn't find resource for \"{gvr}\"\n")),
    };
    render(
        &doc,
        group,
        version,
        kind.resource(),
        &gvr,
        &fields,
        recursive,
    )
}

/// `schema.ParseGroupVersion`.
fn parse_group_version(s: &str) -> Result<(&str, &str), String> {
    match s.split('/').collect::<Vec<_>>().as_slice() {
        [v] => Ok(("", v)),
        [g, v] => Ok((g, v)),
        _ => Err(format!("error: unexpected GroupVersion string: {s}\n")),
    }
}

/// The resource and the field path: `deployments.apps.spec.replicas` names the group
/// when it prefixes the argument (`SplitAndParseResourceRequestWithMatchingPrefix`,
/// without `--api-version`); otherwise the first word is the resource.
fn split_and_parse(
    arg: &str,
    match_prefix: bool,
) -> Result<(crate::api::Kind, Vec<String>), String> {
    let mut words = arg.split('.');
    let first = words.next().unwrap_or("");
    if first.is_empty() || arg.contains(['[', ']', '*', '@', '{', '}', '"', '\'', ' ']) {
        return Err("error: invalid jsonpath syntax, first node must be field node\n".into());
    }
    let kind = resolve_kind(first).ok_or_else(|| {
        // kubectl prints the mapper's error without its `error: ` (explain checks it
        // before `CheckErr` would add one).
        format!("the server doesn't have a resource type \"{first}\"\n")
    })?;
    let (group, _) = crate::apiserver::discovery::group_version(kind);
    let group_resource = if group.is_empty() {
        kind.resource().to_string()
    } else {
        format!("{}.{group}", kind.resource())
    };
    let rest = match arg.strip_prefix(&group_resource) {
        Some(rest) if match_prefix && (rest.is_empty() || rest.starts_with('.')) => rest,
        _ => &arg[first.len()..],
    };
    let fields: Vec<String> = rest
        .split('.')
        .filter(|f| !f.is_empty())
        .map(str::to_string)
        .collect();
    Ok((kind, fields))
}

/// The template's entry: the kind found by its operations, then its schema.
fn render(
    doc: &Value,
    group: &str,
    version: &str,
    resource: &str,
    gvr: &str,
    fields: &[String],
    recursive: bool,
) -> R {
    let prefix = if group.is_empty() {
        "/api".to_string()
    } else {
        format!("/apis/{group}")
    };
    let searches = [
        format!("{prefix}/{version}/{resource}"),
        format!("{prefix}/{version}/{resource}/{{name}}"),
        format!("{prefix}/{version}/namespaces/{{namespace}}/{resource}"),
        format!("{prefix}/{version}/namespaces/{{namespace}}/{resource}/{{name}}"),
    ];
    let mut gvk = None;
    for path in &searches {
        let Some(element) = doc["paths"].get(path) else {
            continue;
        };
        for method in ["get", "post", "put", "patch", "delete"] {
            if let Some(g) = element
                .get(method)
                .and_then(|m| m.get("x-kubernetes-group-version-kind"))
            {
                if truthy(g) {
                    gvk = Some(g.clone());
                    break;
                }
            }
        }
    }
    let Some(gvk) = gvk else {
        return Err(format!("error: GVR ({gvr}) not found in OpenAPI schema\n"));
    };
    let s = |k: &str| gvk.get(k).and_then(Value::as_str).unwrap_or("").to_string();
    let mut out = String::new();
    if !s("group").is_empty() {
        out += &format!("GROUP:      {}\n", s("group"));
    }
    out += &format!(
        "KIND:       {}\nVERSION:    {}\n\n",
        s("kind"),
        s("version")
    );
    let t = Template { doc, recursive };
    let found = doc["components"]["schemas"]
        .as_object()
        .into_iter()
        .flat_map(|m| m.values())
        .find(|d| {
            d.get("x-kubernetes-group-version-kind")
                .and_then(Value::as_array)
                .is_some_and(|l| l.contains(&gvk))
        });
    let Some(schema) = found else {
        // Go prints the map `%v`: its keys sorted.
        return Err(format!(
            "{out}error: GVK map[group:{} kind:{} version:{}] not found in OpenAPI schema\n",
            s("group"),
            s("kind"),
            s("version")
        ));
    };
    let body = t.output(schema, &BTreeSet::new(), fields);
    if body.is_empty() {
        let last = fields.last().map(String::as_str).unwrap_or("");
        return Err(format!("{out}error: field \"{last}\" does not exist\n"));
    }
    Ok(format!("{out}{body}\n"))
}

/// Go's template truth: false, 0, nil and empty maps, lists and strings are false.
fn truthy(v: &Value) -> bool {
    match v {
        Value::Null => false,
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64() != Some(0.0),
        Value::String(s) => !s.is_empty(),
        Value::Array(a) => !a.is_empty(),
        Value::Object(m) => !m.is_empty(),
    }
}

/// `index $schema KEY`, when true.
fn field<'a>(schema: &'a Value, key: &str) -> Option<&'a Value> {
    schema.get(key).filter(|v| truthy(v))
}

/// `additionalProperties` that is a schema, not a boolean.
fn additional(schema: &Value) -> Option<&Value> {
    field(schema, "additionalProperties").filter(|v| !v.is_boolean())
}

/// `wrap`: go-wordwrap's `WrapString`, which breaks at white space only, so that no
/// line passes `lim` unless one word does.
fn wrap(lim: usize, s: &str) -> String {
    let mut buf = String::with_capacity(s.len());
    let (mut current, mut word, mut space) = (0usize, String::new(), String::new());
    let (mut word_len, mut space_len) = (0usize, 0usize);
    for c in s.chars() {
        if c == '\n' {
            if word.is_empty() {
                if current + space_len <= lim {
                    buf.push_str(&space);
                }
            } else {
                buf.push_str(&space);
                buf.push_str(&word);
                word.clear();
                word_len = 0;
            }
            space.clear();
            space_len = 0;
            buf.push(c);
            current = 0;
        } else if c.is_whitespace() && c != '\u{a0}' {
            if space.is_empty() || !word.is_empty() {
                current += space_len + word_len;
                buf.push_str(&space);
                buf.push_str(&word);
                space.clear();
                space_len = 0;
                word.clear();
                word_len = 0;
            }
            space.push(c);
            space_len += 1;
        } else {
            word.push(c);
            word_len += 1;
            if current + word_len + space_len > lim && word_len < lim {
                buf.push('\n');
                current = 0;
                space.clear();
                space_len = 0;
            }
        }
    }
    if word.is_empty() {
        if current + space_len <= lim {
            buf.push_str(&space);
        }
    } else {
        buf.push_str(&space);
        buf.push_str(&word);
    }
    buf
}

/// `indent`: every line, the first included.
fn indent(n: usize, s: &str) -> String {
    let pad = " ".repeat(n);
    format!("{pad}{}", s.replace('\n', &format!("\n{pad}")))
}

/// The document and the flag the named templates share.
struct Template<'a> {
    doc: &'a Value,
    recursive: bool,
}

impl Template<'_> {
    /// `resolveRef`: the schema a `#/…` reference points to.
    fn resolve(&self, r: Option<&Value>) -> Option<&Value> {
        let fragment = r?.as_str()?.strip_prefix('#')?;
        let mut cur = self.doc;
        for k in fragment.split('/').filter(|k| !k.is_empty()) {
            cur = cur.get(k).filter(|v| v.is_object())?;
        }
        Some(cur)
    }

    /// The schema itself, or the one its `$ref` names.
    fn resolved<'b>(&'b self, schema: &'b Value) -> &'b Value {
        match self.resolve(schema.get("$ref")) {
            Some(r) if truthy(r) => r,
            _ => schema,
        }
    }

    /// `output`: follow the field path, then print the description and the fields.
    fn output(&self, schema: &Value, history: &BTreeSet<String>, path: &[String]) -> String {
        let ref_string = schema.get("$ref").and_then(Value::as_str).unwrap_or("");
        let mut next = history.clone();
        next.insert(ref_string.to_string());
        let resolved = self.resolved(schema);
        let Some(first) = path.first() else {
            let d = self.description(resolved);
            let d = if d.is_empty() {
                "<empty>".to_string()
            } else {
                d
            };
            let mut out = format!("DESCRIPTION:\n{}\n", indent(4, &wrap(76, &d)));
            let list = self.field_list(resolved, 1, &BTreeSet::new());
            if !list.is_empty() {
                out += "FIELDS:\n";
                out += &list;
            }
            return out;
        };
        if !ref_string.is_empty() && history.contains(ref_string) {
            return String::new();
        }
        if let Some(sub) = field(resolved, "properties").and_then(|p| field(p, first)) {
            let mut out = String::new();
            if path.len() == 1 {
                out += &format!("FIELD: {first} <{}>\n", self.type_guess(sub));
                out += &extract_enum(sub, true, -1, 0);
                out += "\n\n";
            }
            return out + &self.output(sub, &BTreeSet::new(), &path[1..]);
        }
        if let Some(items) = field(resolved, "items") {
            return self.output(items, &next, path);
        }
        if let Some(more) = additional(resolved) {
            return self.output(more, &next, path);
        }
        for sub in field(resolved, "allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let o = self.output(sub, &next, path);
            if !o.is_empty() {
                return o;
            }
        }
        String::new()
    }

    /// `fieldList`: each property (sorted, as Go ranges over a map), and with
    /// `--recursive` its own fields beneath it.
    fn field_list(&self, schema: &Value, level: usize, history: &BTreeSet<String>) -> String {
        let ref_string = schema.get("$ref").and_then(Value::as_str).unwrap_or("");
        if !ref_string.is_empty() && history.contains(ref_string) {
            return String::new();
        }
        let mut next = history.clone();
        next.insert(ref_string.to_string());
        let resolved = self.resolved(schema);
        let mut out = String::new();
        if let Some(props) = field(resolved, "properties").and_then(Value::as_object) {
            let sorted: std::collections::BTreeMap<&String, &Value> =
                crate::sorting::btree_map(props.iter());
            for (name, sub) in sorted {
                out += &self.field_detail(name, resolved, level);
                if self.recursive {
                    out += &self.field_list(sub, level + 1, &next);
                }
            }
        }
        for sub in field(resolved, "allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out += &self.field_list(sub, level, &next);
        }
        if let Some(items) = field(resolved, "items") {
            out += &self.field_list(items, level, &next);
        }
        if let Some(more) = additional(resolved) {
            out += &self.field_list(more, level, &next);
        }
        out
    }

    /// `fieldDetail`: `name <type> -required-`, its enum, and (unless recursive) its
    /// description.
    fn field_detail(&self, name: &str, parent: &Value, level: usize) -> String {
        let n = level * 2;
        let sub = &parent["properties"][name];
        let mut out = format!("{}\t<{}>", indent(n, name), self.type_guess(sub));
        let required = parent
            .get("required")
            .and_then(Value::as_array)
            .is_some_and(|r| r.iter().any(|x| x == name));
        if required {
            out += " -required-";
        }
        out += &extract_enum(sub, false, 4, n);
        out += "\n";
        if !self.recursive {
            let d = field(sub, "description")
                .and_then(Value::as_str)
                .unwrap_or("<no description>");
            out += &indent(n + 2, &wrap(78 - n, d));
            out += "\n\n";
        }
        out
    }

    /// `description`: the schema's own, then those of what it is made of.
    fn description(&self, schema: &Value) -> String {
        let s = match self.resolve(schema.get("$ref")) {
            Some(r) if truthy(r) => r,
            _ => schema,
        };
        if !truthy(s) {
            return String::new();
        }
        let mut out = String::new();
        if let Some(d) = field(s, "description").and_then(Value::as_str) {
            out += d;
            out += "\n";
        }
        for sub in field(s, "allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out += &self.description(sub);
        }
        if let Some(items) = field(s, "items") {
            out += &self.description(items);
        }
        if let Some(more) = additional(s) {
            out += &self.description(more);
        }
        out
    }

    /// `typeGuess`: `string`, `integer`, `Object`, `[]Container`,
    /// `map[string]string`…
    fn type_guess(&self, schema: &Value) -> String {
        if let Some(items) = field(schema, "items") {
            return format!("[]{}", self.type_guess(items));
        }
        if let Some(more) = additional(schema) {
            return format!("map[string]{}", self.type_guess(more));
        }
        let all_of = field(schema, "allOf").and_then(Value::as_array);
        if let Some([only]) = all_of.map(Vec::as_slice) {
            if field(schema, "properties").is_none() {
                return self.type_guess(only);
            }
        }
        let ty = |s: &Value| field(s, "type").and_then(Value::as_str).map(str::to_string);
        if let Some(r) = field(schema, "$ref").and_then(Value::as_str) {
            let target = self.resolve(Some(&Value::from(r)));
            return match target.and_then(ty) {
                Some(t) if t != "object" => t,
                _ => {
                    let name = r.rsplit('/').next().unwrap_or("");
                    match name.rsplit('.').next() {
                        Some(n) if !n.is_empty() => n.to_string(),
                        _ => "Object".into(),
                    }
                }
            };
        }
        match ty(schema).as_deref() {
            Some("object") | None => "Object".into(),
            Some(t) => t.to_string(),
        }
    }
}

/// `extractEnum`: the long view (`ENUM:` and one value a line) or the short one
/// (`enum: A, B, C, D, ....`, at most `limit`).
fn extract_enum(schema: &Value, long: bool, limit: i64, indent_amount: usize) -> String {
    let Some(values) = field(schema, "enum").and_then(Value::as_array) else {
        return String::new();
    };
    let mut out = if long {
        "ENUM:".to_string()
    } else {
        format!("\n{}enum: ", " ".repeat(indent_amount))
    };
    for (i, v) in values.iter().enumerate() {
        if limit > -1 && i as i64 >= limit {
            out += ", ....";
            break;
        }
        if i > 0 && !long {
            out += ", ";
        } else if long {
            out += "\n    ";
        }
        match v {
            Value::String(s) if s.is_empty() => out += "\"\"",
            Value::String(s) => out += s,
            other => out += &other.to_string(),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Map;

    #[test]
    fn wrapping_breaks_at_white_space_and_keeps_long_words_whole() {
        assert_eq!(wrap(10, "aaa bbb ccc ddd"), "aaa bbb\nccc ddd");
        assert_eq!(wrap(5, "abcdefgh ij"), "abcdefgh\nij");
        assert_eq!(wrap(76, "one\n"), "one\n");
    }

    #[test]
    fn a_field_path_after_the_group_resource_prefix_is_the_fields() {
        let (k, f) = split_and_parse("deployments.apps.spec.replicas", true).unwrap();
        assert_eq!(
            (k, f),
            (
                crate::api::Kind::Deployment,
                vec!["spec".into(), "replicas".into()]
            )
        );
        let (_, f) = split_and_parse("deploy.spec", true).unwrap();
        assert_eq!(f, vec!["spec".to_string()]);
        assert!(split_and_parse("nope.spec", true)
            .unwrap_err()
            .contains("\"nope\""));
    }

    #[test]
    fn go_template_truth_counts_empty_as_false() {
        assert!(!truthy(&Value::Object(Map::new())));
        assert!(truthy(&serde_json::json!({"a": 1})));
        assert!(!truthy(&serde_json::json!("")));
    }
}
