//! `explain_v2`'s tests: upstream's explain tests, and kubeplay's own definitions.

use super::*;
use serde_json::json;

fn definitions(doc: Value) -> Definitions {
    doc.as_object().cloned().unwrap_or_default()
}

/// Upstream's `pkg/explain/test-swagger.json` (less a trailing comma Go's YAML
/// reader forgave).
fn test_swagger() -> Definitions {
    let lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit. Nulla ut lacus ac enim vulputate imperdiet ac accumsan risus. Integer vel accumsan lectus. Praesent tempus nulla id tortor luctus, quis varius nulla laoreet. Ut orci nisi, suscipit id velit sed, blandit eleifend turpis. Curabitur tempus ante at lectus viverra, a mattis augue euismod. Morbi quam ligula, porttitor sit amet lacus non, interdum pulvinar tortor. Praesent accumsan risus et ipsum dictum, vel ullamcorper lorem egestas.";
    definitions(json!({
        "PrimitiveDef": {"type": "string"},
        "OneKind": {"description": "OneKind has a short description", "required": ["field1"], "properties": {
            "field1": {"description": lorem, "$ref": "#/definitions/OtherKind"},
            "field2": {"description": "This is an array of object of PrimitiveDef", "type": "array",
                "items": {"description": "This is an object of PrimitiveDef", "type": "object",
                    "additionalProperties": {"$ref": "#/definitions/PrimitiveDef"}}}}},
        "ControlCharacterKind": {"description": "Control character %",
            "properties": {"field1": {"description": "Control character %"}}},
        "OtherKind": {"description": "This is another kind of Kind", "required": ["string"], "properties": {
            "string": {"description": "This string must be a string", "type": "string"},
            "int": {"description": "This int must be an int", "type": "integer"},
            "array": {"description": "This array must be an array of int", "type": "array",
                "items": {"description": "This is an int in an array", "type": "integer"}},
            "object": {"description": "This is an object of string", "type": "object",
                "additionalProperties": {"description": "this is a string in an object", "type": "string"}},
            "primitive": {"$ref": "#/definitions/PrimitiveDef"}}},
        "CrdKind": {}
    }))
}

/// Upstream's `pkg/explain/test-recursive-swagger.json`.
fn test_recursive_swagger() -> Definitions {
    let reference = "#/definitions/ReferenceKind";
    definitions(json!({
        "OneKind": {"description": "OneKind has a short description", "required": ["field1"], "properties": {
            "field1": {"description": "This is first reference field", "$ref": reference},
            "field2": {"description": "This is other kind field with string and reference",
                "$ref": "#/definitions/OtherKind"}}},
        "ReferenceKind": {"description": "This is reference Kind", "properties": {
            "referencefield": {"description": "This is reference to itself.", "$ref": reference},
            "referencesarray": {"description": "This is an array of references", "type": "array",
                "items": {"description": "This is reference object", "$ref": reference}}}},
        "OtherKind": {"description": "This is other kind with string and reference fields", "properties": {
            "string": {"description": "This string must be a string", "type": "string"},
            "reference": {"description": "This is reference field.", "$ref": reference}}}
    }))
}

/// `kubectl explain` of the core `v1` kind defined as `root`, at `path`.
fn explain(defs: &Definitions, root: &str, path: &[&str], recursive: bool) -> String {
    let fields: Vec<String> = path.iter().map(|s| s.to_string()).collect();
    print_model_description(defs, root, "", "v1", root, &fields, recursive)
        .unwrap_or_else(|e| format!("error: {e}"))
}

/// The fields printer's output for the definition `root` at indentation 0, as
/// upstream's printer tests call it.
fn print_fields(defs: &Definitions, root: &str, recursive: bool) -> String {
    let mut out = String::new();
    if let Type::Kind { fields, required } = sub_schema(defs, root).ty {
        let f = Formatter::top();
        if recursive {
            visit_kind_recursive(defs, f, &fields, &mut Vec::new(), &mut out);
        } else {
            visit_kind_regular(defs, f, &fields, &required, &mut out);
        }
    }
    out
}

/// test-swagger.json's `field1` description, wrapped at indentation 5.
const LOREM_AT_5: &str =
    "     Lorem ipsum dolor sit amet, consectetur adipiscing elit. Nulla ut lacus ac
     enim vulputate imperdiet ac accumsan risus. Integer vel accumsan lectus.
     Praesent tempus nulla id tortor luctus, quis varius nulla laoreet. Ut orci
     nisi, suscipit id velit sed, blandit eleifend turpis. Curabitur tempus ante
     at lectus viverra, a mattis augue euismod. Morbi quam ligula, porttitor sit
     amet lacus non, interdum pulvinar tortor. Praesent accumsan risus et ipsum
     dictum, vel ullamcorper lorem egestas.
";

#[test]
fn a_kind_prints_its_description_and_its_fields_sorted_with_required_marks() {
    // model_printer_test.go's TestModel, path [].
    let want = format!(
        "KIND:     OneKind\nVERSION:  v1\n\nDESCRIPTION:\n     OneKind has a short description

FIELDS:\n   field1\t<Object> -required-\n{LOREM_AT_5}
   field2\t<[]map[string]string>\n     This is an array of object of PrimitiveDef\n\n"
    );
    assert_eq!(explain(&test_swagger(), "OneKind", &[], false), want);
}

#[test]
fn a_field_of_a_kind_prints_its_resource_line_and_both_descriptions() {
    // TestModel, path [field1].
    let want = format!(
        "KIND:     OneKind\nVERSION:  v1\n\nRESOURCE: field1 <Object>\n\nDESCRIPTION:\n{LOREM_AT_5}
     This is another kind of Kind

FIELDS:
   array\t<[]integer>\n     This array must be an array of int\n
   int\t<integer>\n     This int must be an int\n
   object\t<map[string]string>\n     This is an object of string\n
   primitive\t<string>\n
   string\t<string> -required-\n     This string must be a string\n\n"
    );
    assert_eq!(
        explain(&test_swagger(), "OneKind", &["field1"], false),
        want
    );
}

#[test]
fn a_field_of_a_primitive_type_prints_its_type_and_every_description_on_the_way() {
    // TestModel, paths [field1 string] and [field1 array].
    let want = "KIND:     OneKind\nVERSION:  v1\n\nFIELD:    string <string>\n
DESCRIPTION:\n     This string must be a string\n";
    let got = explain(&test_swagger(), "OneKind", &["field1", "string"], false);
    assert_eq!(got, want);
    let want = "KIND:     OneKind\nVERSION:  v1\n\nFIELD:    array <[]integer>\n
DESCRIPTION:\n     This array must be an array of int\n\n     This is an int in an array\n";
    assert_eq!(
        explain(&test_swagger(), "OneKind", &["field1", "array"], false),
        want
    );
}

#[test]
fn an_arbitrary_value_has_no_type_name_and_only_a_description() {
    // TestModel's ControlCharacterKind, and TestCRDModel.
    let want =
        "KIND:     ControlCharacterKind\nVERSION:  v1\n\nDESCRIPTION:\n     Control character %
\nFIELDS:\n   field1\t<>\n     Control character %\n\n";
    assert_eq!(
        explain(&test_swagger(), "ControlCharacterKind", &[], false),
        want
    );
    let want = "KIND:     CrdKind\nVERSION:  v1\n\nDESCRIPTION:\n     <empty>\n";
    assert_eq!(explain(&test_swagger(), "CrdKind", &[], false), want);
}

#[test]
fn a_field_that_does_not_exist_is_kubectls_error() {
    // field_lookup_test.go's TestFindField, tests 4 and 5.
    let defs = test_swagger();
    let got = explain(&defs, "OneKind", &["field1", "what?"], false);
    assert_eq!(got, "error: field \"what?\" does not exist");
    let got = explain(&defs, "OneKind", &["field1", ""], false);
    assert_eq!(got, "error: field \"\" does not exist");
    let got = explain(&defs, "Missing", &[], false);
    assert_eq!(
        got,
        "error: couldn't find resource for \"/v1, Kind=Missing\""
    );
}

#[test]
fn a_path_past_a_primitive_explains_the_primitive_under_the_last_name() {
    let got = explain(&test_swagger(), "OneKind", &["field1", "int", "x"], false);
    let want = "KIND:     OneKind\nVERSION:  v1\n\nFIELD:    x <integer>\n
DESCRIPTION:\n     This int must be an int\n";
    assert_eq!(got, want);
}

#[test]
fn type_names_follow_references_through_arrays_and_maps() {
    // typename_test.go's TestReferenceTypename.
    let defs = test_swagger();
    for (path, want) in [
        (&[][..], "Object"),
        (&["field1"][..], "Object"),
        (&["field1", "primitive"][..], "string"),
        (&["field2"][..], "[]map[string]string"),
        (&["field1", "array"][..], "[]integer"),
    ] {
        let path: Vec<String> = path.iter().map(|s| s.to_string()).collect();
        let root = sub_schema(&defs, "OneKind");
        let schema = lookup_schema_for_field(&defs, root, &path).unwrap();
        assert_eq!(get_type_name(&defs, &schema), want, "{path:?}");
    }
}

#[test]
fn the_regular_fields_printer_wraps_descriptions_under_each_field() {
    // fields_printer_test.go's TestFields.
    let want = "field1\t<Object> -required-
  Lorem ipsum dolor sit amet, consectetur adipiscing elit. Nulla ut lacus ac
  enim vulputate imperdiet ac accumsan risus. Integer vel accumsan lectus.
  Praesent tempus nulla id tortor luctus, quis varius nulla laoreet. Ut orci
  nisi, suscipit id velit sed, blandit eleifend turpis. Curabitur tempus ante at
  lectus viverra, a mattis augue euismod. Morbi quam ligula, porttitor sit amet
  lacus non, interdum pulvinar tortor. Praesent accumsan risus et ipsum dictum,
  vel ullamcorper lorem egestas.

field2\t<[]map[string]string>\n  This is an array of object of PrimitiveDef\n\n";
    assert_eq!(print_fields(&test_swagger(), "OneKind", false), want);
}

#[test]
fn the_recursive_fields_printer_nests_fields_and_stops_at_a_reference_on_its_path() {
    // recursive_fields_printer_test.go's TestRecursiveFields and
    // TestRecursiveFieldsWithSelfReferenceObjects.
    let want = "field1\t<Object>\n   array\t<[]integer>\n   int\t<integer>
   object\t<map[string]string>\n   primitive\t<string>\n   string\t<string>
field2\t<[]map[string]string>\n";
    assert_eq!(print_fields(&test_swagger(), "OneKind", true), want);
    let want = "field1\t<Object>\n   referencefield\t<Object>\n   referencesarray\t<[]Object>
field2\t<Object>\n   reference\t<Object>\n      referencefield\t<Object>
      referencesarray\t<[]Object>\n   string\t<string>\n";
    assert_eq!(
        print_fields(&test_recursive_swagger(), "OneKind", true),
        want
    );
}

#[test]
fn a_recursive_explain_of_a_field_prints_the_group_version_and_its_field_tree() {
    let defs = test_recursive_swagger();
    let fields = ["field2".to_string()];
    let got = print_model_description(&defs, "OneKind", "apps", "v1", "One", &fields, true);
    let want = "KIND:     One\nVERSION:  apps/v1\n\nRESOURCE: field2 <Object>\n
DESCRIPTION:\n     This is other kind field with string and reference\n
     This is other kind with string and reference fields\n\nFIELDS:
   reference\t<Object>\n      referencefield\t<Object>\n      referencesarray\t<[]Object>
   string\t<string>\n";
    assert_eq!(got.unwrap(), want);
}

#[test]
fn an_object_without_properties_is_a_map_of_arbitrary_values() {
    let defs = definitions(json!({"K": {"type": "object", "properties": {
        "raw": {"type": "object", "description": "Raw data."},
        "empty": {"type": "object", "properties": {}}
    }}}));
    let got = explain(&defs, "K", &[], false);
    let want = "   empty\t<map[string]>\n\n   raw\t<map[string]>\n     Raw data.\n\n";
    assert!(got.ends_with(want), "{got}");
    // kube-openapi gives the map's arbitrary values the map's own description.
    let want = "KIND:     K\nVERSION:  v1\n\nDESCRIPTION:\n     Raw data.\n\n     Raw data.\n";
    assert_eq!(explain(&defs, "K", &["raw"], false), want);
}

#[test]
fn cycles_through_no_kind_and_dangling_references_end_instead_of_looping() {
    let defs = definitions(json!({
        "K": {"properties": {
            "loop": {"$ref": "#/definitions/A"},
            "gone": {"$ref": "#/definitions/Nowhere", "description": "Gone."}}},
        "A": {"type": "array", "items": {"$ref": "#/definitions/B"}},
        "B": {"type": "object", "additionalProperties": {"$ref": "#/definitions/A"}}
    }));
    for recursive in [false, true] {
        let got = explain(&defs, "K", &[], recursive);
        assert!(
            got.contains("gone\t<>") && got.contains("loop\t<[]map[string]>"),
            "{got}"
        );
        assert!(explain(&defs, "K", &["loop", "x"], recursive).starts_with("KIND:"));
        assert!(explain(&defs, "K", &["gone", "x"], recursive).starts_with("KIND:"));
    }
}

#[test]
fn the_formatter_indents_each_line_from_its_own_level() {
    // formatter_test.go's TestFormatterWrite.
    let mut out = String::new();
    let f = Formatter::top();
    f.write(
        &mut out,
        "Lorem ipsum dolor sit amet, consectetur adipiscing elit.",
    );
    f.indent(5).write(
        &mut out,
        "Morbi at turpis faucibus, gravida dolor ut, fringilla velit.",
    );
    f.indent(2)
        .write(&mut out, "Etiam maximus urna at tellus faucibus mattis.");
    let want = "Lorem ipsum dolor sit amet, consectetur adipiscing elit.
     Morbi at turpis faucibus, gravida dolor ut, fringilla velit.
  Etiam maximus urna at tellus faucibus mattis.\n";
    assert_eq!(out, want);
}

#[test]
fn wrapped_text_keeps_long_words_code_blocks_lists_and_sections() {
    // formatter_test.go's TestFormatterWrappedWrite.
    let mut out = String::new();
    let f = Formatter {
        indent_level: 0,
        wrap: 50,
    };
    let lorem = "Lorem ipsum dolor sit amet, consectetur adipiscing elit.";
    let morbi = "Morbi at turpis faucibus, gravida dolor ut, fringilla velit.";
    let long = "ThisIsAVeryLongWordThatDoesn'tFitOnALineOnItsOwn.";
    f.write_wrapped(&mut out, &format!("{lorem} {morbi}"));
    f.indent(10)
        .write_wrapped(&mut out, &format!("{lorem} {morbi}"));
    f.indent(20)
        .write_wrapped(&mut out, &format!("{lorem} {long} {morbi}"));
    f.indent(4).write_wrapped(
        &mut out,
        "\nThis is an\nintroductory paragraph\nthat should end
up on a continuous line.\n\nExample:\nExample text on its own line\n\nList:\n1.  Item with
 wrapping text\n11.  Another\n item with wrapping text\n* Bullet item\n with wrapping text
- Dash item\n with wrapping text\n\nbase64(\n    code goes here\n    and here\n)",
    );
    let want = "Lorem ipsum dolor sit amet, consectetur adipiscing
elit. Morbi at turpis faucibus, gravida dolor ut,
fringilla velit.
          Lorem ipsum dolor sit amet, consectetur
          adipiscing elit. Morbi at turpis
          faucibus, gravida dolor ut, fringilla
          velit.
                    Lorem ipsum dolor sit amet,
                    consectetur adipiscing elit.
                    ThisIsAVeryLongWordThatDoesn'tFitOnALineOnItsOwn.
                    Morbi at turpis faucibus,
                    gravida dolor ut, fringilla
                    velit.
    This is an introductory paragraph that should
    end up on a continuous line.

    Example:
    Example text on its own line

    List:
    1. Item with wrapping text
    11. Another item with wrapping text
    * Bullet item with wrapping text
    - Dash item with wrapping text

    base64(
        code goes here
        and here
    )
";
    assert_eq!(out, want);
}

#[test]
fn a_blank_line_after_a_one_line_first_paragraph_is_lost_as_upstream_loses_it() {
    assert_eq!(wrap_string("One.\n\nTwo.", 80), ["One.", "Two."]);
    assert_eq!(wrap_string("a b c\n\nTwo.", 3), ["a b", "c", "", "Two."]);
    assert!(is_bullet("12. x") && is_bullet("3 x") && is_bullet("-\tx"));
    assert!(!is_bullet("1.5 x") && !is_bullet("-x") && !is_bullet("x. y"));
}

/// A kubeplay definition (an OpenAPI v3 component) in its v2 form: references to
/// `#/definitions/`, an `allOf` of one reference replaced by the reference.
fn v2(schema: &Value) -> Value {
    match schema {
        Value::Object(m) => Value::Object(m.iter().fold(Map::new(), |mut out, (k, v)| {
            match (k.as_str(), v) {
                ("allOf", Value::Array(items)) if items.len() == 1 => {
                    if let Value::Object(inner) = v2(&items[0]) {
                        out.extend(inner);
                    }
                }
                ("$ref", Value::String(r)) => {
                    let name = r.rsplit('/').next().unwrap_or(r);
                    out.insert(k.clone(), json!(format!("{DEFINITIONS_PREFIX}{name}")));
                }
                _ => {
                    out.insert(k.clone(), v2(v));
                }
            }
            out
        })),
        Value::Array(items) => Value::Array(items.iter().map(v2).collect()),
        other => other.clone(),
    }
}

#[test]
fn every_kubeplay_definition_explains_and_recursive_explains_end() {
    let defs: Definitions = crate::apiserver::openapi::definitions()
        .iter()
        .map(|(n, d)| (n.clone(), v2(d)))
        .collect();
    for name in defs.keys() {
        for recursive in [false, true] {
            let got = explain(&defs, name, &[], recursive);
            assert!(got.starts_with(&format!("KIND:     {name}\nVERSION:  v1\n\n")));
        }
    }
    let fields = ["spec".to_string(), "replicas".to_string()];
    let got = print_model_description(
        &defs,
        "Deployment",
        "apps",
        "v1",
        "Deployment",
        &fields,
        false,
    );
    let want =
        "KIND:     Deployment\nVERSION:  apps/v1\n\nFIELD:    replicas <integer>\n\nDESCRIPTION:\n";
    assert!(got.unwrap().starts_with(want));
    let got = explain(&defs, "Pod", &["spec", "containers"], false);
    assert!(got.contains("RESOURCE: containers <[]Object>\n"), "{got}");
}
