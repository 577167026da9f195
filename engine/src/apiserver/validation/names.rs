//! Names and label values, as apimachinery checks them: `pkg/util/validation`
//! (`IsDNS1123Subdomain`, `IsDNS1035Label`, `IsDNS1123Label`, `IsValidPortName`,
//! `IsValidLabelValue`, `IsQualifiedName`) and `pkg/api/validation/path`
//! (`IsValidPathSegmentName`).

/// `IsDNS1123Subdomain`-style check used for object names.
pub fn dns1123_subdomain_error(name: &str) -> Option<String> {
    let ok = !name.is_empty()
        && name.len() <= 253
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.')
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    (!ok).then(|| {
        format!(
            "metadata.name: Invalid value: \"{name}\": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
        )
    })
}

/// `IsDNS1123Subdomain`'s messages: at most 253 characters, dot-separated labels of
/// lower-case letters, digits and `-`, each starting and ending with a letter or digit.
pub(in crate::apiserver) fn subdomain_errors(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 253 {
        errs.push("must be no more than 253 characters".to_string());
    }
    let label_ok = |l: &str| {
        !l.is_empty()
            && l.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
            && !l.starts_with('-')
            && !l.ends_with('-')
    };
    if !v.split('.').all(label_ok) {
        errs.push("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')".to_string());
    }
    errs
}

/// `IsDNS1035Label`.
pub(in crate::apiserver) fn dns1035_label_errors(v: &str) -> Vec<String> {
    label_errors(v, true)
}

/// `IsDNS1123Label`.
pub(in crate::apiserver) fn dns1123_label_errors(v: &str) -> Vec<String> {
    label_errors(v, false)
}

/// A DNS label (RFC 1035 when `alpha_first`: it must start with a letter), with the
/// message of upstream's check.
fn label_errors(v: &str, alpha_first: bool) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 63 {
        errs.push("must be no more than 63 characters".to_string());
    }
    let first_ok = |c: char| c.is_ascii_lowercase() || (!alpha_first && c.is_ascii_digit());
    let ok = !v.is_empty()
        && v.bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && v.starts_with(first_ok)
        && v.ends_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit());
    // A valid subdomain that is not a valid label has dots (`IsDNS1123Label`).
    let subdomain = !v.is_empty()
        && subdomain_errors(v)
            .iter()
            .all(|e| e.starts_with("must be no more"));
    if !ok && !alpha_first && subdomain {
        errs.push("must not contain dots".to_string());
    } else if !ok {
        errs.push(if alpha_first {
            "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')"
        } else {
            "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"
        }
        .to_string());
    }
    errs
}

/// `IsValidPortName`: an IANA service name.
pub fn port_name_errors(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 15 {
        errs.push("must be no more than 15 characters".to_string());
    }
    if !v
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
    {
        errs.push(
            "must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)".to_string(),
        );
    }
    if !v.bytes().any(|b| b.is_ascii_lowercase()) {
        errs.push("must contain at least one letter (a-z)".to_string());
    }
    if v.contains("--") {
        errs.push("must not contain consecutive hyphens".to_string());
    }
    if v.starts_with('-') || v.ends_with('-') {
        errs.push("must not begin or end with a hyphen".to_string());
    }
    errs
}

/// `IsValidLabelValue` (apimachinery `util/validation`): its messages, joined by `;`
/// as kubectl's `parseLabels` joins them.
pub fn label_value_errors(v: &str) -> Vec<String> {
    let mut errs = Vec::new();
    if v.len() > 63 {
        errs.push("must be no more than 63 characters".to_string());
    }
    let ok_char = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '_' || c == '.';
    let ok = v.is_empty()
        || (v.chars().all(ok_char)
            && v.starts_with(|c: char| c.is_ascii_alphanumeric())
            && v.ends_with(|c: char| c.is_ascii_alphanumeric()));
    if !ok {
        errs.push("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')".to_string());
    }
    errs
}

const QUALIFIED_NAME_FMT: &str = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";

/// `IsQualifiedName` (apimachinery util/validation): `[prefix/]name`.
pub fn qualified_name_errors(value: &str) -> Vec<String> {
    let regex_error = |what: &str| {
        format!("{what}must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '{QUALIFIED_NAME_FMT}')")
    };
    let mut errs = Vec::new();
    let parts: Vec<&str> = value.split('/').collect();
    let name = match parts.as_slice() {
        [name] => *name,
        [prefix, name] => {
            if prefix.is_empty() {
                errs.push("prefix part must be non-empty".to_string());
            } else if let Some(e) = dns1123_subdomain_error(prefix) {
                // The message after the field name: "a lowercase RFC 1123 subdomain …".
                let msg = e
                    .split_once(": Invalid value: ")
                    .map(|(_, r)| r)
                    .unwrap_or(&e);
                let msg = msg.split_once(": ").map(|(_, r)| r).unwrap_or(msg);
                errs.push(format!("prefix part {msg}"));
            }
            *name
        }
        _ => {
            errs.push(format!(
                "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
                regex_error("")
            ));
            return errs;
        }
    };
    if name.is_empty() {
        errs.push("name part must be non-empty".to_string());
    } else if name.len() > 63 {
        errs.push("name part must be no more than 63 characters".to_string());
    }
    let ok = name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    if !ok {
        errs.push(format!("name part {}", regex_error("")));
    }
    errs
}

/// `path.IsValidPathSegmentName` (ValidateRBACName).
pub(super) fn path_segment_errors(name: &str) -> Vec<String> {
    let bad = |m: &str| format!("metadata.name: Invalid value: \"{name}\": {m}");
    if name.is_empty() {
        return vec!["metadata.name: Required value: name or generateName is required".into()];
    }
    if name == "." || name == ".." {
        return vec![bad(&format!("may not be '{name}'"))];
    }
    let mut out = Vec::new();
    for c in ['/', '%'] {
        if name.contains(c) {
            out.push(bad(&format!("may not contain '{c}'")));
        }
    }
    out
}

/// A string as Go's `%q` writes it in a field error.
pub(in crate::apiserver) fn quote(s: &str) -> String {
    serde_json::Value::String(s.to_string()).to_string()
}
