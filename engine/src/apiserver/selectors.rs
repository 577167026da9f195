//! Label selectors (`-l`, `labelSelector`) and field selectors (`--field-selector`,
//! `fieldSelector`) as apimachinery parses them and the registry matches fields.

use crate::api::*;

/// Parse a label selector: `a=b`, `a==b`, `a!=b`, `a in (x,y)`, `a notin (x)`, `a`, `!a`.
pub fn parse_label_selector(s: &str) -> Result<LabelSelector, String> {
    let mut sel = LabelSelector::default();
    for part in split_top(s) {
        let p = part.trim();
        if p.is_empty() {
            continue;
        }
        let bad = || {
            format!("error: unable to parse requirement: found '{p}', expected: in, notin, =, ==, !=, gt, lt")
        };
        if let Some(k) = p.strip_prefix('!') {
            sel.match_expressions
                .push(req(k.trim(), "DoesNotExist", vec![]));
        } else if let Some((k, v)) = p.split_once("!=") {
            sel.match_expressions
                .push(req(k.trim(), "NotIn", vec![v.trim().to_string()]));
        } else if let Some((k, v)) = p.split_once("==").or_else(|| p.split_once('=')) {
            sel.match_labels
                .insert(k.trim().to_string(), v.trim().to_string());
        } else if let Some((k, rest)) = split_set_op(p, " notin ") {
            sel.match_expressions
                .push(req(k, "NotIn", set_values(rest).ok_or_else(bad)?));
        } else if let Some((k, rest)) = split_set_op(p, " in ") {
            sel.match_expressions
                .push(req(k, "In", set_values(rest).ok_or_else(bad)?));
        } else if p
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
        {
            sel.match_expressions.push(req(p, "Exists", vec![]));
        } else {
            return Err(bad());
        }
    }
    Ok(sel)
}

fn req(k: &str, op: &str, values: Vec<String>) -> LabelSelectorRequirement {
    LabelSelectorRequirement {
        key: k.to_string(),
        operator: op.to_string(),
        values,
    }
}

fn split_set_op<'a>(p: &'a str, op: &str) -> Option<(&'a str, &'a str)> {
    p.split_once(op).map(|(k, r)| (k.trim(), r.trim()))
}

fn set_values(s: &str) -> Option<Vec<String>> {
    let inner = s.strip_prefix('(')?.strip_suffix(')')?;
    Some(
        inner
            .split(',')
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .collect(),
    )
}

/// Split on commas that are not inside parentheses.
fn split_top(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0;
    let mut cur = String::new();
    for c in s.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    out.push(cur);
    out
}

/// One `--field-selector` term.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldReq {
    field: String,
    value: String,
    equal: bool,
}

impl FieldReq {
    /// `field=value` for an equality term; None for `!=`.
    pub fn equality(&self) -> Option<(String, String)> {
        self.equal.then(|| (self.field.clone(), self.value.clone()))
    }
}

/// The `field=value` terms of a raw field selector (`a=b,c==d`; `!=` terms left out),
/// as an authorizer reads them.
pub fn equality_terms(raw: &str) -> Vec<(String, String)> {
    raw.split(',')
        .filter(|t| !t.contains("!="))
        .filter_map(|t| {
            let (f, v) = t.split_once("==").or_else(|| t.split_once('='))?;
            Some((f.trim().to_string(), v.trim().to_string()))
        })
        .collect()
}

/// Fields the API server supports per kind: each registry strategy's
/// `ToSelectableFields` / `GetAttrs` (`pkg/registry/core/pod/strategy.go`,
/// `core/event`, `core/node`, `core/namespace`, `core/secret`, `apps/replicaset`,
/// `batch/job`).
fn supported(kind: Kind, field: &str) -> bool {
    matches!(field, "metadata.name" | "metadata.namespace")
        || match kind {
            Kind::Pod => matches!(
                field,
                "status.phase"
                    | "spec.nodeName"
                    | "spec.restartPolicy"
                    | "spec.schedulerName"
                    | "spec.serviceAccountName"
                    | "spec.hostNetwork"
                    | "status.podIP"
                    | "status.nominatedNodeName"
            ),
            Kind::Event => matches!(
                field,
                "reason"
                    | "type"
                    | "involvedObject.name"
                    | "involvedObject.kind"
                    | "involvedObject.namespace"
                    | "involvedObject.uid"
                    | "involvedObject.apiVersion"
                    | "involvedObject.resourceVersion"
                    | "involvedObject.fieldPath"
                    | "reportingComponent"
                    | "source"
            ),
            Kind::Node => field == "spec.unschedulable",
            Kind::Namespace => field == "status.phase",
            Kind::Secret => field == "type",
            Kind::ReplicaSet => field == "status.replicas",
            Kind::Job => field == "status.successful",
            _ => false,
        }
}

/// Why a field selector was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldSelectorError {
    /// It does not parse (kubectl's own line: `error: invalid selector: …`).
    Syntax(String),
    /// The API server does not index this field for the kind (400).
    Unsupported(String),
}

impl FieldSelectorError {
    /// What the API server says (the Status's message): `field label not supported:
    /// foo`.
    pub fn server_message(&self) -> String {
        match self {
            FieldSelectorError::Syntax(line) => line.trim_start_matches("error: ").to_string(),
            FieldSelectorError::Unsupported(field) => format!("field label not supported: {field}"),
        }
    }

    /// What kubectl prints for it: its builder wraps the server's refusal of the list
    /// with the resource and both selectors (`Unable to find "/v1, Resource=pods" that
    /// match label selector "app=web", field selector "foo=bar": …`).
    pub fn kubectl_line(&self, kind: Kind, labels: &str, fields: &str) -> String {
        match self {
            FieldSelectorError::Syntax(line) => line.clone(),
            FieldSelectorError::Unsupported(_) => format!(
                "Error from server (BadRequest): Unable to find \"{}, Resource={}\" that match label selector \"{labels}\", field selector \"{fields}\": {}",
                match kind.api_version().split_once('/') {
                    Some((g, v)) => format!("{g}/{v}"),
                    None => format!("/{}", kind.api_version()),
                },
                kind.resource(),
                self.server_message()
            ),
        }
    }
}

/// Parse `a=b,c!=d` for `kind`; an unsupported field is the API server's BadRequest,
/// in kubectl's words (for a list with no label selector).
pub fn parse_field_selector(kind: Kind, s: &str) -> Result<Vec<FieldReq>, String> {
    parse_fields(kind, s).map_err(|e| e.kubectl_line(kind, "", s))
}

/// Parse `a=b,c!=d` for `kind`, as the API server does.
pub fn parse_fields(kind: Kind, s: &str) -> Result<Vec<FieldReq>, FieldSelectorError> {
    let mut out = Vec::new();
    for p in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (field, value, equal) = if let Some((f, v)) = p.split_once("!=") {
            (f, v, false)
        } else if let Some((f, v)) = p.split_once("==").or_else(|| p.split_once('=')) {
            (f, v, true)
        } else {
            return Err(FieldSelectorError::Syntax(format!(
                "error: invalid selector: '{s}'; can't understand '{p}'"
            )));
        };
        let field = field.trim();
        if !supported(kind, field) {
            return Err(FieldSelectorError::Unsupported(field.to_string()));
        }
        out.push(FieldReq {
            field: field.to_string(),
            value: value.trim().to_string(),
            equal,
        });
    }
    Ok(out)
}

fn field_value(obj: &Object, field: &str) -> String {
    let m = obj.meta();
    match (obj, field) {
        (_, "metadata.name") => m.name.clone(),
        (_, "metadata.namespace") => m.namespace.clone(),
        (Object::Pod(p), "status.phase") => p.status.phase.clone(),
        (Object::Pod(p), "spec.nodeName") => p.spec.node_name.clone(),
        (Object::Pod(p), "spec.schedulerName") => p.spec.scheduler_name.clone(),
        (Object::Pod(p), "status.podIP") => p.status.pod_ip.clone(),
        (Object::Event(e), "reason") => e.reason.clone(),
        (Object::Event(e), "type") => e.type_.clone(),
        // An Event without a source component selects by its reporting controller.
        (Object::Event(e), "source") if e.source.component.is_empty() => {
            e.reporting_component.clone()
        }
        (Object::Event(e), "source") => e.source.component.clone(),
        (Object::Event(e), "reportingComponent") => e.reporting_component.clone(),
        (Object::Event(e), "involvedObject.apiVersion") => e.involved_object.api_version.clone(),
        (Object::Pod(p), "spec.restartPolicy") => p.spec.restart_policy.clone(),
        (Object::Pod(p), "spec.serviceAccountName") => p.spec.service_account_name.clone(),
        (Object::Pod(p), "spec.hostNetwork") => p.spec.host_network.to_string(),
        (Object::Pod(p), "status.nominatedNodeName") => p.status.nominated_node_name.clone(),
        (Object::Namespace(n), "status.phase") => n.status.phase.clone(),
        (Object::Secret(s), "type") => s.type_.clone(),
        (Object::ReplicaSet(r), "status.replicas") => r.status.replicas.to_string(),
        (Object::Job(j), "status.successful") => j.status.succeeded.to_string(),
        (Object::Event(e), "involvedObject.name") => e.involved_object.name.clone(),
        (Object::Event(e), "involvedObject.kind") => e.involved_object.kind.clone(),
        (Object::Event(e), "involvedObject.namespace") => e.involved_object.namespace.clone(),
        (Object::Event(e), "involvedObject.uid") => e.involved_object.uid.clone(),
        (Object::Node(n), "spec.unschedulable") => n.spec.unschedulable.to_string(),
        _ => String::new(),
    }
}

/// Whether `obj` satisfies every field requirement.
pub fn fields_match(obj: &Object, reqs: &[FieldReq]) -> bool {
    reqs.iter()
        .all(|r| (field_value(obj, &r.field) == r.value) == r.equal)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn label_selectors_parse_every_operator() {
        let s = parse_label_selector("app=web,tier in (a, b),env!=prod,canary,!legacy").unwrap();
        assert_eq!(s.match_labels.get("app").map(String::as_str), Some("web"));
        let ops: Vec<(&str, &str)> = s
            .match_expressions
            .iter()
            .map(|r| (r.key.as_str(), r.operator.as_str()))
            .collect();
        assert_eq!(
            ops,
            [
                ("tier", "In"),
                ("env", "NotIn"),
                ("canary", "Exists"),
                ("legacy", "DoesNotExist")
            ]
        );
        assert!(parse_label_selector("a in b").is_err());
    }

    #[test]
    fn unsupported_field_selectors_are_bad_requests() {
        assert!(
            parse_field_selector(Kind::Pod, "status.phase=Running,spec.nodeName!=node-1").is_ok()
        );
        let e = parse_field_selector(Kind::Pod, "spec.foo=bar").unwrap_err();
        assert!(
            e.starts_with("Error from server (BadRequest): Unable to find \"/v1, Resource=pods\""),
            "{e}"
        );
        assert!(e.ends_with("field label not supported: spec.foo"));
    }
}
