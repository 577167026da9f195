//! `-o` of the verbs that write (`create`, `run`, `expose`, `scale`, `label`,
//! `annotate`, `patch`, `autoscale`): genericclioptions' `PrintFlags`, which print the
//! object the server answered with as JSON, YAML, a JSONPath or Go template, or its
//! name; without `-o`, kubectl's `NAME OPERATION` line.
//!
//! Upstream: `staging/src/k8s.io/cli-runtime/pkg/genericclioptions/print_flags.go`
//! (`ToPrinter`, and `NoCompatiblePrinterError`'s list of formats),
//! `staging/src/k8s.io/cli-runtime/pkg/printers/{json,yaml,name,jsonpath}.go`,
//! `staging/src/k8s.io/client-go/util/jsonpath/jsonpath.go` (`PrintResults`).

use crate::command::Files;
use crate::printers::go_json;
use crate::printers::gotemplate::GoTemplate;
use crate::printers::jsonpath::Template;
use serde_json::Value;

/// The formats `PrintFlags` knows, sorted, as its error lists them.
pub(super) const FORMATS: &str = "go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml";

/// A printer `-o` chose.
pub(super) enum Printer {
    /// `-o name`: `KIND.GROUP/NAME`.
    Name,
    /// `-o json`.
    Json,
    /// `-o yaml`.
    Yaml,
    /// `-o jsonpath=…` (`as_json`: `-o jsonpath-as-json=…`).
    JsonPath { template: Template, as_json: bool },
    /// `-o go-template=…`.
    GoTemplate(GoTemplate),
}

/// `PrintFlags.ToPrinter` for `-o` (None without it), reading a `-file` format's
/// template through `files`; kubectl's errors for an unknown format or a missing
/// template.
pub(super) fn printer(o: Option<&str>, files: &dyn Files) -> Result<Option<Printer>, String> {
    let Some(o) = o.filter(|o| !o.is_empty()) else {
        return Ok(None);
    };
    let (name, arg) = o.split_once('=').unwrap_or((o, ""));
    let no_template = || "error: template format specified but no template given".to_string();
    let read = || -> Result<String, String> {
        files.read(arg).map_err(|_| {
            format!("error: error reading --template {arg}, open {arg}: no such file or directory")
        })
    };
    let jsonpath = |text: &str, as_json: bool| -> Result<Printer, String> {
        Ok(Printer::JsonPath {
            template: Template::parse(text)?,
            as_json,
        })
    };
    Ok(Some(match name {
        "name" if !o.contains('=') => Printer::Name,
        "json" if !o.contains('=') => Printer::Json,
        "yaml" if !o.contains('=') => Printer::Yaml,
        "jsonpath" | "jsonpath-as-json" | "jsonpath-file" | "go-template" | "template"
        | "go-template-file" | "templatefile"
            if arg.is_empty() =>
        {
            return Err(no_template())
        }
        "jsonpath" => jsonpath(arg, false)?,
        "jsonpath-as-json" => jsonpath(arg, true)?,
        "jsonpath-file" => jsonpath(&read()?, false)?,
        "go-template" | "template" => Printer::GoTemplate(GoTemplate::parse(arg)?),
        "go-template-file" | "templatefile" => Printer::GoTemplate(GoTemplate::parse(&read()?)?),
        _ => {
            return Err(format!(
                "error: unable to match a printer suitable for the output format \"{o}\", allowed formats are: {FORMATS}"
            ))
        }
    }))
}

/// `-o` checked, with a `-file` format's template read and put inline
/// (`jsonpath-file=t.txt` becomes `jsonpath=…`), so that the verb can print later
/// without the files.
pub(super) fn inline(o: Option<&str>, files: &dyn Files) -> Result<Option<String>, String> {
    printer(o, files)?;
    let Some(o) = o.filter(|o| !o.is_empty()) else {
        return Ok(None);
    };
    let (name, arg) = o.split_once('=').unwrap_or((o, ""));
    let inline_name = match name {
        "jsonpath-file" => "jsonpath",
        "go-template-file" | "templatefile" => "go-template",
        _ => return Ok(Some(o.to_string())),
    };
    let text = files
        .read(arg)
        .map_err(|_| format!("error: error reading --template {arg}"))?;
    Ok(Some(format!("{inline_name}={text}")))
}

/// What a write prints for one object: `-o`'s printer over `obj` (the server's
/// answer, or in a client dry run the object as kubectl built it), else kubectl's
/// `NAME OPERATION` line (`deployment.apps/web created`).
pub(super) fn report(
    format: Option<&str>,
    obj: &Value,
    qualified_name: &str,
    operation: &str,
) -> Result<String, String> {
    match printer(format, &crate::command::NoFiles)? {
        // The name printer's line, without the newline the console adds.
        Some(Printer::Name) => Ok(qualified_name.to_string()),
        Some(p) => p.print(&[(obj.clone(), qualified_name.to_string())]),
        None => Ok(format!("{qualified_name} {operation}")),
    }
}

/// [`report`] for an object kubectl holds as a Go type (what a typed client answered,
/// or a generator built): JSON in the struct's field order, and every format with the
/// struct's zero-valued fields ([`crate::printers::go_json`]).
pub(super) fn report_typed(
    format: Option<&str>,
    go_type: &str,
    obj: &Value,
    qualified_name: &str,
    operation: &str,
) -> Result<String, String> {
    let typed = crate::printers::go_json::typed(go_type, obj);
    match printer(format, &crate::command::NoFiles)? {
        Some(Printer::Json) => {
            let typed = crate::printers::go_json::typed(go_type, &omit_managed_fields(obj));
            Ok(typed.to_indented() + "\n")
        }
        _ => report(format, &typed.to_value(), qualified_name, operation),
    }
}

/// The printer of a verb that writes several objects, each printed as it is done:
/// the line printers end their lines, YAML puts `---` between objects, and a
/// template prints only what it says.
pub(super) struct Reporter {
    format: Option<String>,
    printed: usize,
}

impl Reporter {
    /// For `-o` (checked, a `-file` template inline: [`inline`]).
    pub(super) fn new(format: Option<String>) -> Reporter {
        Reporter { format, printed: 0 }
    }

    /// The text for one object (see [`report`]).
    pub(super) fn object(
        &mut self,
        obj: &Value,
        qualified_name: &str,
        operation: &str,
    ) -> Result<String, String> {
        let mut text = report(self.format.as_deref(), obj, qualified_name, operation)?;
        let name_or_line = matches!(self.format.as_deref(), None | Some("name"));
        if name_or_line {
            text.push('\n');
        } else if self.format.as_deref() == Some("yaml") && self.printed > 0 {
            text = format!("---\n{text}");
        }
        self.printed += 1;
        Ok(text)
    }

    /// [`Reporter::object`] for an object kubectl holds as a Go type
    /// ([`report_typed`]).
    pub(super) fn typed_object(
        &mut self,
        kind: crate::api::Kind,
        obj: &Value,
        qualified_name: &str,
        operation: &str,
    ) -> Result<String, String> {
        let typed = crate::printers::go_json::typed(&go_json::root_type(kind), obj);
        if self.format.as_deref() == Some("json") {
            self.printed += 1;
            let typed = go_json::typed(&go_json::root_type(kind), &omit_managed_fields(obj));
            return Ok(typed.to_indented() + "\n");
        }
        self.object(&typed.to_value(), qualified_name, operation)
    }
}

/// `OmitManagedFieldsPrinter`: the JSON and YAML printers leave out
/// `metadata.managedFields` (the verbs that write have no `--show-managed-fields`).
pub(super) fn omit_managed_fields(v: &Value) -> Value {
    let mut v = v.clone();
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        m.remove("managedFields");
    }
    v
}

pub(super) use crate::printers::output::{jsonpath_as_json, pretty_json};

impl Printer {
    /// Print the objects a command wrote, in order: `objects` holds each object's JSON
    /// and its qualified name (`deployment.apps/web`). The YAML printer separates
    /// objects with `---`, as its `printCount` does.
    pub(super) fn print(&self, objects: &[(Value, String)]) -> Result<String, String> {
        let mut out = String::new();
        for (i, (obj, name)) in objects.iter().enumerate() {
            match self {
                Printer::Name => {
                    out.push_str(name);
                    out.push('\n');
                }
                Printer::Json => {
                    out.push_str(&pretty_json(&omit_managed_fields(obj)));
                    out.push('\n');
                }
                Printer::Yaml => {
                    if i > 0 {
                        out.push_str("---\n");
                    }
                    out.push_str(&crate::printers::yaml::to_yaml(&omit_managed_fields(obj)));
                }
                Printer::JsonPath { template, as_json } => {
                    if *as_json {
                        out.push_str(&jsonpath_as_json(template, obj)?);
                    } else {
                        out.push_str(&template.execute(obj)?);
                    }
                }
                Printer::GoTemplate(t) => out.push_str(&t.execute(obj)?),
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::NoFiles;
    use serde_json::json;

    fn print(o: &str, objs: &[(Value, String)]) -> Result<String, String> {
        printer(Some(o), &NoFiles)?.expect("a printer").print(objs)
    }

    #[test]
    fn each_format_prints_the_objects_as_kubectls_printers_do() {
        let objs = vec![
            (
                json!({"metadata": {"name": "a"}}),
                "deployment.apps/a".to_string(),
            ),
            (
                json!({"metadata": {"name": "b"}}),
                "deployment.apps/b".to_string(),
            ),
        ];
        assert_eq!(
            print("name", &objs).unwrap(),
            "deployment.apps/a\ndeployment.apps/b\n"
        );
        assert_eq!(
            print("yaml", &objs).unwrap(),
            "metadata:\n  name: a\n---\nmetadata:\n  name: b\n"
        );
        assert_eq!(print("jsonpath={.metadata.name}", &objs).unwrap(), "ab");
        assert_eq!(
            print("jsonpath-as-json={.metadata.name}", &objs[..1]).unwrap(),
            "[\n    \"a\"\n]\n"
        );
        assert_eq!(
            print("go-template={{.metadata.name}} ", &objs).unwrap(),
            "a b "
        );
    }

    #[test]
    fn an_unknown_format_or_a_missing_template_is_kubectls_error() {
        assert_eq!(
            printer(Some("wide"), &NoFiles).err().unwrap(),
            format!("error: unable to match a printer suitable for the output format \"wide\", allowed formats are: {FORMATS}")
        );
        assert_eq!(
            printer(Some("jsonpath"), &NoFiles).err().unwrap(),
            "error: template format specified but no template given"
        );
        assert!(printer(None, &NoFiles).unwrap().is_none());
    }
}
