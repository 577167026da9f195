//! `kubectl explain --output plaintext-openapiv2`: the schema of a kind, or of one of
//! its fields, printed from the OpenAPI v2 document's definitions the way kubectl
//! v1.33's original (pre-OpenAPI-v3) explain printer does.
//!
//! Upstream: `k8s.io/kubectl/pkg/explain` — `explain.go` (`PrintModelDescription`),
//! `field_lookup.go`, `model_printer.go`, `fields_printer.go`,
//! `fields_printer_builder.go`, `recursive_fields_printer.go`, `typename.go` and
//! `formatter.go` — over the schema model of `k8s.io/kube-openapi/pkg/util/proto`
//! (`document.go`'s `ParseSchema`: how a v2 schema becomes a Kind, Map, Array,
//! Primitive, Arbitrary or Reference). Go's visitors are `match`es on [`Type`] here.
//!
//! Where upstream refuses the whole document (a dangling `$ref`, an array without
//! exactly one `items` schema, several types), the schema reads as an arbitrary value
//! instead; and where a Go visitor would loop forever on references that come back to
//! themselves through no object (`A` an array of `A`), the loop ends as an arbitrary
//! value too.

use serde_json::{Map, Value};
use std::collections::BTreeMap;

/// Where a v2 reference points: `#/definitions/NAME` (kube-openapi's `parseReference`).
const DEFINITIONS_PREFIX: &str = "#/definitions/";
/// model_printer.go's `fieldIndentLevel`: the indentation of the `FIELDS:` entries.
const FIELD_INDENT_LEVEL: usize = 3;
/// model_printer.go's `descriptionIndentLevel`.
const DESCRIPTION_INDENT_LEVEL: usize = 5;
/// fields_printer.go's `indentDesc`: a field's description under its name.
const INDENT_DESC: usize = 2;
/// recursive_fields_printer.go's `indentPerLevel`.
const INDENT_PER_LEVEL: usize = 3;
/// explain.go's `Formatter{Wrap: 80}`.
const WRAP: usize = 80;

/// The OpenAPI v2 document's `definitions`, by name.
type Definitions = Map<String, Value>;

/// kube-openapi's `proto.Schema`: a description, and which kind of schema it is.
struct Schema<'a> {
    description: &'a str,
    ty: Type<'a>,
}

/// The implementations of `proto.Schema`.
enum Type<'a> {
    /// An object with named fields (`proto.Kind`), in the order of `Kind.Keys()`:
    /// sorted by name, bytewise as Go's `sort.Strings`.
    Kind {
        fields: BTreeMap<&'a str, Schema<'a>>,
        required: Vec<&'a str>,
    },
    /// An object from strings to one type of value.
    Map(Box<Schema<'a>>),
    Array(Box<Schema<'a>>),
    /// A string, integer, number or boolean: the `type`.
    Primitive(&'a str),
    /// Any value at all.
    Arbitrary,
    /// A definition, by name, resolved only when visited (`proto.Ref`), so definitions
    /// that refer to each other parse.
    Reference(&'a str),
}

/// An arbitrary value with `description`.
fn arbitrary(description: &str) -> Schema<'_> {
    Schema {
        description,
        ty: Type::Arbitrary,
    }
}

/// kube-openapi's `Definitions.ParseSchema`: what a v2 schema is, by its `$ref`, its
/// `type` and its `properties`.
fn parse_schema(s: &Value) -> Schema<'_> {
    let description = s.get("description").and_then(Value::as_str).unwrap_or("");
    let ty = match s.get("$ref").and_then(Value::as_str) {
        // Upstream ignores whatever else is beside a `$ref` (or refuses the document).
        Some(r) if !r.is_empty() => {
            Type::Reference(r.strip_prefix(DEFINITIONS_PREFIX).unwrap_or(r))
        }
        _ => parse_type(s),
    };
    Schema { description, ty }
}

/// `ParseSchema` for a schema that is not a reference.
fn parse_type(s: &Value) -> Type<'_> {
    // Empty `properties` count as none: the API server's JSON encoding (`omitempty`)
    // drops them before kubectl sees the document.
    let properties = s
        .get("properties")
        .and_then(Value::as_object)
        .filter(|p| !p.is_empty());
    match object_types(s).as_slice() {
        // Older servers published objects with `properties` but no `type`.
        [] => properties.map_or(Type::Arbitrary, |p| parse_kind(s, p)),
        ["object"] => properties.map_or_else(|| parse_map(s), |p| parse_kind(s, p)),
        ["array"] => parse_array(s),
        [t] => Type::Primitive(t),
        // Upstream: "definitions with multiple types aren't supported".
        _ => Type::Arbitrary,
    }
}

/// The schema's `type`: one name, or (not in Kubernetes' documents) a list of them.
fn object_types(s: &Value) -> Vec<&str> {
    match s.get("type") {
        Some(Value::String(t)) => vec![t.as_str()],
        Some(Value::Array(ts)) => ts.iter().filter_map(Value::as_str).collect(),
        _ => Vec::new(),
    }
}

/// `parseKind`: the fields, and which of them are required.
fn parse_kind<'a>(s: &'a Value, properties: &'a Map<String, Value>) -> Type<'a> {
    let fields = properties
        .iter()
        .map(|(name, p)| (name.as_str(), parse_schema(p)))
        .collect();
    let required = s
        .get("required")
        .and_then(Value::as_array)
        .map(|r| r.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    Type::Kind { fields, required }
}

/// `parseMap`: an object without properties maps strings to its
/// `additionalProperties`; with none (or `true`), to an arbitrary value that carries
/// the map's own description, as upstream builds it from the same schema.
fn parse_map(s: &Value) -> Type<'_> {
    let sub = match s.get("additionalProperties") {
        Some(a @ Value::Object(_)) => parse_schema(a),
        _ => arbitrary(s.get("description").and_then(Value::as_str).unwrap_or("")),
    };
    Type::Map(Box::new(sub))
}

/// `parseArray`: an array of its one `items` schema.
fn parse_array(s: &Value) -> Type<'_> {
    let items = match s.get("items") {
        Some(Value::Array(items)) if items.len() == 1 => items.first(),
        Some(Value::Array(_)) => None,
        items => items,
    };
    // Upstream: "array should have exactly one sub-item".
    let sub = items.map_or_else(|| arbitrary(""), parse_schema);
    Type::Array(Box::new(sub))
}

/// `Ref.SubSchema()`: the definition a reference names (an arbitrary value when there
/// is none, where upstream refuses the document: "unknown model in reference").
fn sub_schema<'a>(definitions: &'a Definitions, reference: &str) -> Schema<'a> {
    definitions
        .get(reference)
        .map_or_else(|| arbitrary(""), parse_schema)
}

/// explain.go's `PrintModelDescription` of `kind` (its group, version and kind;
/// `definitions` is the OpenAPI v2 document's `definitions` map, schemas referring to
/// each other with `{"$ref": "#/definitions/NAME"}`), for the field path `fields`
/// (empty: the kind itself), `recursive` as `--recursive`. Err: kubectl's error text
/// for a field that does not exist (`field "x" does not exist`, as field_lookup.go
/// words it), or for a `root` that is not in `definitions` (renderOpenAPIV2's).
pub(super) fn print_model_description(
    definitions: &serde_json::Map<String, Value>,
    root: &str,
    group: &str,
    version: &str,
    kind: &str,
    fields: &[String],
    recursive: bool,
) -> Result<String, String> {
    let Some(model) = definitions.get(root) else {
        let gvk = format!("{group}/{version}, Kind={kind}");
        return Err(format!("couldn't find resource for {gvk:?}"));
    };
    let schema = lookup_schema_for_field(definitions, parse_schema(model), fields)?;
    // `GroupVersion.String()`: the core group has no `group/` part.
    let group_version = match group {
        "" => version.to_string(),
        g => format!("{g}/{version}"),
    };
    let name = fields.last().map_or("", String::as_str);
    let printer = ModelPrinter {
        name,
        type_name: String::new(),
        descriptions: Vec::new(),
        kind,
        group_version,
        recursive,
        out: String::new(),
    };
    Ok(print_model(definitions, printer, schema))
}

/// field_lookup.go's `LookupSchemaForField`: walks `path` down from `schema` through
/// references, arrays and maps. A primitive or an arbitrary value ends the walk even
/// with path left (kubectl then explains it under the path's last name).
fn lookup_schema_for_field<'a>(
    definitions: &'a Definitions,
    mut schema: Schema<'a>,
    mut path: &[String],
) -> Result<Schema<'a>, String> {
    // The references followed since the last field: meeting one again is a cycle.
    let mut seen = Vec::new();
    loop {
        // `SaveLeafSchema`: the path is used up.
        if path.is_empty() {
            return Ok(schema);
        }
        schema = match schema.ty {
            Type::Primitive(_) | Type::Arbitrary => return Ok(schema),
            Type::Array(sub) | Type::Map(sub) => *sub,
            Type::Reference(r) if seen.contains(&r) => arbitrary(""),
            Type::Reference(r) => {
                seen.push(r);
                sub_schema(definitions, r)
            }
            Type::Kind { mut fields, .. } => {
                // Go's `%q`, as Rust's `{:?}` writes it but for rare control characters.
                let Some(field) = fields.remove(path[0].as_str()) else {
                    return Err(format!("field {:?} does not exist", path[0]));
                };
                path = &path[1..];
                seen.clear();
                field
            }
        };
    }
}

/// typename.go's `GetTypeName`: `Object` for a kind, `[]T`, `map[string]T`, a
/// primitive's type, and nothing for an arbitrary value (`typeName` has no
/// `VisitArbitrary`, so its name stays empty).
fn get_type_name<'a>(definitions: &'a Definitions, schema: &Schema<'a>) -> String {
    type_name(definitions, schema, &mut Vec::new())
}

/// [`get_type_name`], with the references followed so far.
fn type_name<'a>(
    definitions: &'a Definitions,
    schema: &Schema<'a>,
    seen: &mut Vec<&'a str>,
) -> String {
    match &schema.ty {
        Type::Array(sub) => format!("[]{}", type_name(definitions, sub, seen)),
        Type::Map(sub) => format!("map[string]{}", type_name(definitions, sub, seen)),
        Type::Kind { .. } => "Object".to_string(),
        Type::Primitive(t) => (*t).to_string(),
        Type::Arbitrary => String::new(),
        // A reference back to itself through no kind has no name (upstream loops).
        Type::Reference(r) if seen.contains(r) => String::new(),
        Type::Reference(r) => {
            seen.push(r);
            type_name(definitions, &sub_schema(definitions, r), seen)
        }
    }
}

/// model_printer.go's `modelPrinter`: what it collects on the way down to the schema
/// it prints, and the output.
struct ModelPrinter<'a> {
    /// The field explained: the path's last name (empty for the kind itself).
    name: &'a str,
    /// The type, from the first array, map, kind or primitive on the way.
    type_name: String,
    /// The descriptions of the references, arrays and maps on the way.
    descriptions: Vec<&'a str>,
    kind: &'a str,
    group_version: String,
    recursive: bool,
    out: String,
}

/// model_printer.go's `PrintModel`: follows references, arrays and maps down to a
/// kind, a primitive or an arbitrary value, then prints that.
fn print_model<'a>(
    definitions: &'a Definitions,
    mut m: ModelPrinter<'a>,
    mut schema: Schema<'a>,
) -> String {
    let mut seen = Vec::new();
    loop {
        // `VisitArray` and `VisitMap` take the type if none yet; `VisitReference` does not.
        if matches!(schema.ty, Type::Array(_) | Type::Map(_)) && m.type_name.is_empty() {
            m.type_name = get_type_name(definitions, &schema);
        }
        m.descriptions.push(schema.description);
        schema = match schema.ty {
            Type::Array(sub) | Type::Map(sub) => *sub,
            Type::Reference(r) if seen.contains(&r) => arbitrary(""),
            Type::Reference(r) => {
                seen.push(r);
                sub_schema(definitions, r)
            }
            Type::Kind { fields, required } => {
                m.visit_kind(definitions, &fields, &required);
                return m.out;
            }
            Type::Primitive(t) => {
                m.visit_primitive(t);
                return m.out;
            }
            Type::Arbitrary => {
                m.visit_arbitrary();
                return m.out;
            }
        };
    }
}

impl<'a> ModelPrinter<'a> {
    /// `PrintKindAndVersion`.
    fn print_kind_and_version(&mut self) {
        let f = Formatter::top();
        f.write(&mut self.out, &format!("KIND:     {}", self.kind));
        f.write(
            &mut self.out,
            &format!("VERSION:  {}\n", self.group_version),
        );
    }

    /// `PrintDescription`: the descriptions collected on the way, the schema's own
    /// last (it is already in `descriptions` here), or `<empty>` if all are empty.
    fn print_description(&mut self) {
        let f = Formatter::top();
        f.write(&mut self.out, "DESCRIPTION:");
        let mut empty = true;
        for (i, desc) in self.descriptions.iter().enumerate() {
            if desc.is_empty() {
                continue;
            }
            empty = false;
            // Upstream counts the empty descriptions skipped: a blank line comes before
            // every description but the first collected, printed or not.
            if i != 0 {
                f.write(&mut self.out, "");
            }
            f.indent(DESCRIPTION_INDENT_LEVEL)
                .write_wrapped(&mut self.out, desc);
        }
        if empty {
            f.indent(DESCRIPTION_INDENT_LEVEL)
                .write_wrapped(&mut self.out, "<empty>");
        }
    }

    /// `VisitKind`: a resource (`RESOURCE:` only for a field) and its fields.
    fn visit_kind(&mut self, definitions: &'a Definitions, fields: &Fields<'a>, required: &[&str]) {
        self.print_kind_and_version();
        if self.type_name.is_empty() {
            self.type_name = "Object".to_string();
        }
        let f = Formatter::top();
        if !self.name.is_empty() {
            let line = format!("RESOURCE: {} <{}>\n", self.name, self.type_name);
            f.write(&mut self.out, &line);
        }
        self.print_description();
        f.write(&mut self.out, "\nFIELDS:");
        // fields_printer_builder.go's `BuildFieldsPrinter`.
        let fields_writer = f.indent(FIELD_INDENT_LEVEL);
        if self.recursive {
            let mut visited = Vec::new();
            visit_kind_recursive(
                definitions,
                fields_writer,
                fields,
                &mut visited,
                &mut self.out,
            );
        } else {
            visit_kind_regular(definitions, fields_writer, fields, required, &mut self.out);
        }
    }

    /// `VisitPrimitive`: a field, its type and description.
    fn visit_primitive(&mut self, primitive_type: &str) {
        self.print_kind_and_version();
        if self.type_name.is_empty() {
            self.type_name = primitive_type.to_string();
        }
        let line = format!("FIELD:    {} <{}>\n", self.name, self.type_name);
        Formatter::top().write(&mut self.out, &line);
        self.print_description();
    }

    /// `VisitArbitrary`: only the description (no `FIELD:` line).
    fn visit_arbitrary(&mut self) {
        self.print_kind_and_version();
        self.print_description();
    }
}

/// A kind's fields, sorted by name.
type Fields<'a> = BTreeMap<&'a str, Schema<'a>>;

/// fields_printer.go's `regularFieldsPrinter.VisitKind`: each field's name, type and
/// ` -required-` mark, then its wrapped description, then a blank line.
fn visit_kind_regular<'a>(
    definitions: &'a Definitions,
    f: Formatter,
    fields: &Fields<'a>,
    required: &[&str],
    out: &mut String,
) {
    for (key, v) in fields {
        let mark = if required.contains(key) {
            " -required-"
        } else {
            ""
        };
        let type_name = get_type_name(definitions, v);
        f.write(out, &format!("{key}\t<{type_name}>{mark}"));
        f.indent(INDENT_DESC).write_wrapped(out, v.description);
        f.write(out, "");
    }
}

/// recursive_fields_printer.go's `recursiveFieldsPrinter.VisitKind`: each field's
/// name and type (no mark, no description), then its own fields, indented (pre-order).
fn visit_kind_recursive<'a>(
    definitions: &'a Definitions,
    f: Formatter,
    fields: &Fields<'a>,
    visited: &mut Vec<&'a str>,
    out: &mut String,
) {
    for (key, v) in fields {
        f.write(out, &format!("{key}\t<{}>", get_type_name(definitions, v)));
        print_fields_recursive(definitions, f.indent(INDENT_PER_LEVEL), v, visited, out);
    }
}

/// `recursiveFieldsPrinter.PrintFields`: through arrays, maps and references to a
/// kind's fields. A reference already on the way down (`visitedReferences`) prints
/// nothing, which ends self-referring types.
fn print_fields_recursive<'a>(
    definitions: &'a Definitions,
    f: Formatter,
    schema: &Schema<'a>,
    visited: &mut Vec<&'a str>,
    out: &mut String,
) {
    match &schema.ty {
        Type::Array(sub) | Type::Map(sub) => {
            print_fields_recursive(definitions, f, sub, visited, out)
        }
        Type::Kind { fields, .. } => visit_kind_recursive(definitions, f, fields, visited, out),
        Type::Reference(r) if !visited.contains(r) => {
            visited.push(r);
            print_fields_recursive(definitions, f, &sub_schema(definitions, r), visited, out);
            visited.pop();
        }
        Type::Reference(_) | Type::Primitive(_) | Type::Arbitrary => {}
    }
}

/// formatter.go's `Formatter`: writes lines at an indentation, wrapping text at `wrap`
/// columns (counted in bytes, as Go's `len`).
#[derive(Clone, Copy)]
struct Formatter {
    indent_level: usize,
    wrap: usize,
}

impl Formatter {
    /// explain.go's `&Formatter{Writer: w, Wrap: 80}`.
    fn top() -> Self {
        Formatter {
            indent_level: 0,
            wrap: WRAP,
        }
    }

    /// `Indent`: a formatter indenting by `indent` more.
    fn indent(self, indent: usize) -> Self {
        Formatter {
            indent_level: self.indent_level + indent,
            ..self
        }
    }

    /// `Write`: `line` and a newline, indented unless the line is empty.
    fn write(self, out: &mut String, line: &str) {
        if !line.is_empty() {
            out.push_str(&" ".repeat(self.indent_level));
            out.push_str(line);
        }
        out.push('\n');
    }

    /// `WriteWrapped`: `text` wrapped at the wrap width less the indentation.
    fn write_wrapped(self, out: &mut String, text: &str) {
        for line in wrap_string(text, self.wrap.saturating_sub(self.indent_level)) {
            self.write(out, &line);
        }
    }
}

/// formatter.go's `wrapString` state: the lines so far, the words of the line being
/// filled, and the last word added.
struct Wrapper<'t> {
    wrap: usize,
    wrapped: Vec<String>,
    words: Vec<&'t str>,
    last_word: &'t str,
}

impl<'t> Wrapper<'t> {
    /// `flush`: ends the line being filled, if it has words.
    fn flush(&mut self) {
        if !self.words.is_empty() {
            self.last_word = "";
            self.wrapped.push(self.words.join(" "));
            self.words.clear();
        }
    }

    /// `line.Add`: adds `word` if the line stays within the wrap width; an empty line
    /// takes any word, however long.
    fn add(&mut self, word: &'t str) -> bool {
        let len = self.words.iter().map(|w| w.len() + 1).sum::<usize>() + word.len();
        if len <= self.wrap || self.words.is_empty() {
            self.words.push(word);
            return true;
        }
        false
    }
}

/// formatter.go's `wrapString`: joins the text's lines into paragraphs wrapped at
/// `wrap`, keeping code blocks, blank lines, lines after a `:` and list items apart.
fn wrap_string(text: &str, wrap: usize) -> Vec<String> {
    let mut w = Wrapper {
        wrap,
        wrapped: Vec::new(),
        words: Vec::new(),
        last_word: "",
    };
    for line in text.split('\n') {
        // Code blocks and blockquotes stay as they are.
        if line.starts_with("    ") {
            w.flush();
            w.wrapped.push(line.to_string());
            continue;
        }
        // Blank lines separate sections, once a line is out: upstream checks the lines
        // flushed, so a blank line after a first paragraph that fits one line is lost.
        if !w.wrapped.is_empty() && line.trim().is_empty() {
            w.flush();
            w.wrapped.push(String::new());
            continue;
        }
        if should_start_new_line(w.last_word, line) {
            w.flush();
        }
        for word in line.split_whitespace() {
            // Set before the flush that clears it, as upstream does.
            w.last_word = word;
            if !w.add(word) {
                w.flush();
                w.add(word);
            }
        }
    }
    w.flush();
    w.wrapped
}

/// formatter.go's `shouldStartNewLine`: after a word ending in `:`, and before a code
/// block, an empty line or a list item.
fn should_start_new_line(last_word: &str, line: &str) -> bool {
    if last_word.ends_with(':') || line.starts_with("    ") {
        return true;
    }
    let line = line.trim();
    line.is_empty() || is_bullet(line)
}

/// formatter.go's `bullet`, `^(\d+\.?|-|\*)\s` (RE2: `\d` is ASCII, `\s` is
/// `[\t\n\f\r ]`). Only the whole run of digits can precede the `.` or the space.
fn is_bullet(line: &str) -> bool {
    let b = line.as_bytes();
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let rest = match (digits, b.first()) {
        (0, Some(b'-' | b'*')) => &b[1..],
        (0, _) => return false,
        (n, _) => b[n..].strip_prefix(b".").unwrap_or(&b[n..]),
    };
    matches!(rest.first(), Some(b'\t' | b'\n' | b'\x0c' | b'\r' | b' '))
}

#[cfg(test)]
#[path = "explain_v2_tests.rs"]
mod tests;
