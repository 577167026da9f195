//! YAML as `kubectl get -o yaml` prints it (sigs.k8s.io/yaml → go-yaml v2): keys
//! sorted, two-space indent, sequences not indented under their key, strings quoted
//! only when they would read as something else.

use serde_json::Value;

/// Render a JSON value as a YAML document (no leading `---`).
pub fn to_yaml(v: &Value) -> String {
    let mut out = String::new();
    match v {
        Value::Object(m) if !m.is_empty() => write_map(m, 0, &mut out),
        Value::Array(a) if !a.is_empty() => write_seq(a, 0, &mut out),
        other => {
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
    out
}

fn indent(n: usize, out: &mut String) {
    for _ in 0..n {
        out.push(' ');
    }
}

fn write_map(m: &serde_json::Map<String, Value>, ind: usize, out: &mut String) {
    for (k, v) in m {
        indent(ind, out);
        out.push_str(&key(k));
        out.push(':');
        write_value_after_key(v, ind, out);
    }
}

fn write_value_after_key(v: &Value, ind: usize, out: &mut String) {
    match v {
        Value::Object(m) if !m.is_empty() => {
            out.push('\n');
            write_map(m, ind + 2, out);
        }
        Value::Array(a) if !a.is_empty() => {
            out.push('\n');
            write_seq(a, ind, out);
        }
        Value::String(s) if s.contains('\n') => {
            out.push_str(" |");
            if s.ends_with('\n') {
                out.push('\n');
            } else {
                out.push_str("-\n");
            }
            for line in s.trim_end_matches('\n').split('\n') {
                if !line.is_empty() {
                    indent(ind + 2, out);
                    out.push_str(line);
                }
                out.push('\n');
            }
        }
        other => {
            out.push(' ');
            out.push_str(&scalar(other));
            out.push('\n');
        }
    }
}

fn write_seq(a: &[Value], ind: usize, out: &mut String) {
    for item in a {
        indent(ind, out);
        out.push('-');
        match item {
            Value::Object(m) if !m.is_empty() => {
                // The first key shares the dash's line; the rest align under it.
                let mut first = true;
                for (k, v) in m {
                    if first {
                        out.push(' ');
                        first = false;
                    } else {
                        indent(ind + 2, out);
                    }
                    out.push_str(&key(k));
                    out.push(':');
                    write_value_after_key(v, ind + 2, out);
                }
            }
            Value::Array(inner) if !inner.is_empty() => {
                out.push('\n');
                write_seq(inner, ind + 2, out);
            }
            other => {
                out.push(' ');
                out.push_str(&scalar(other));
                out.push('\n');
            }
        }
    }
}

fn key(k: &str) -> String {
    quoted(k)
}

/// go-yaml v2's choice for a string: plain when it reads back as the same string; a
/// string that would read as another type (`"true"`, `"1"`, a timestamp, empty)
/// double-quoted; one that is not plain-safe (`*/5 * * * *`, `a: b`) single-quoted,
/// unless it holds characters only the double-quoted style can escape.
fn quoted(s: &str) -> String {
    if !needs_quotes(s) {
        return s.to_string();
    }
    if reads_as_other_type(s) || s.chars().any(|c| c.is_control()) {
        return quote(s);
    }
    format!("'{}'", s.replace('\'', "''"))
}

fn scalar(v: &Value) -> String {
    match v {
        Value::Null => "null".into(),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) => n.to_string(),
        Value::String(s) => quoted(s),
        Value::Object(_) => "{}".into(),
        Value::Array(_) => "[]".into(),
    }
}

fn quote(s: &str) -> String {
    // go-yaml v2 (sigs.k8s.io/yaml) falls back to the double-quoted style.
    serde_json::to_string(s).unwrap_or_default()
}

fn looks_like_number(s: &str) -> bool {
    s.parse::<f64>().is_ok()
        || s.starts_with("0x")
        || s.starts_with("0o")
        || s.starts_with("+")
        || s.starts_with('.') && s[1..].parse::<f64>().is_ok()
}

fn looks_like_timestamp(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 10
        && b[..4].iter().all(u8::is_ascii_digit)
        && b[4] == b'-'
        && b[5..7].iter().all(u8::is_ascii_digit)
        && b[7] == b'-'
}

fn reads_as_other_type(s: &str) -> bool {
    let lower = s.to_ascii_lowercase();
    let reserved = [
        "true", "false", "yes", "no", "on", "off", "y", "n", "null", "~", ".inf", "-.inf", ".nan",
    ];
    s.is_empty()
        || reserved.contains(&lower.as_str())
        || looks_like_number(s)
        || looks_like_timestamp(s)
}

fn needs_quotes(s: &str) -> bool {
    if reads_as_other_type(s) {
        return true;
    }
    let first = s.chars().next().unwrap_or(' ');
    if "-?:,[]{}#&*!|>'\"%@`".contains(first)
        && !(first == '-' && s.len() > 1 && !s[1..].starts_with(' '))
    {
        return true;
    }
    s.starts_with(' ')
        || s.ends_with(' ')
        || s.contains(": ")
        || s.contains(" #")
        || s.ends_with(':')
        || s.chars().any(|c| c.is_control())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn yaml_looks_like_kubectls() {
        let v = json!({
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "web", "labels": {"app": "web"}, "resourceVersion": "12", "creationTimestamp": "2025-01-01T00:00:00Z", "annotations": {}},
            "spec": {"containers": [{"name": "nginx", "image": "nginx:1.27", "ports": [{"containerPort": 80}]}], "tolerations": []},
            "status": {"phase": "Running", "ready": true}
        });
        let want = r#"apiVersion: v1
kind: Pod
metadata:
  annotations: {}
  creationTimestamp: "2025-01-01T00:00:00Z"
  labels:
    app: web
  name: web
  resourceVersion: "12"
spec:
  containers:
  - image: nginx:1.27
    name: nginx
    ports:
    - containerPort: 80
  tolerations: []
status:
  phase: Running
  ready: true
"#;
        assert_eq!(to_yaml(&v), want);
    }

    #[test]
    fn strings_that_read_as_other_types_are_quoted() {
        for s in [
            "true", "123", "", "a: b", "- x", "-", "* all", "null", "1.5",
        ] {
            assert!(needs_quotes(s), "{s:?}");
        }
        for s in [
            "nginx:1.27",
            "web-7c5ddbdf54-x8q2v",
            "kubelet is posting ready status",
            "node.kubernetes.io/unreachable",
            "-x",
        ] {
            assert!(!needs_quotes(s), "{s:?}");
        }
    }
}
