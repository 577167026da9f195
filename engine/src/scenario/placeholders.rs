//! Placeholders that name objects by selector (`{pod:app=web}`, `{newest-pod:…}`,
//! `{node-of:…}`, `{rs:…}`): filling them in from the cluster, and a step's command as
//! the learner is shown it.

use crate::api::{Pod, ReplicaSet};
use crate::apiserver::selectors::parse_label_selector;
use crate::cluster::Cluster;
use crate::command::script;

/// Replace `{pod:SEL}`, `{newest-pod:SEL}`, `{node-of:SEL}` and `{rs:SEL}` with names
/// from the cluster now.
pub fn expand(c: &Cluster, text: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('{') {
        let Some(j) = rest[i..].find('}') else { break };
        let inner = &rest[i + 1..i + j];
        let Some((what, sel)) = inner.split_once(':') else {
            out.push_str(&rest[..=i]);
            rest = &rest[i + 1..];
            continue;
        };
        let value = match what {
            "pod" | "node-of" => {
                let s = parse_label_selector(sel)?;
                let p = c
                    .store
                    .list::<Pod>()
                    .filter(|p| !p.metadata.is_deleting() && s.matches(&p.metadata.labels))
                    .min_by(|a, b| a.metadata.name.cmp(&b.metadata.name))
                    .ok_or_else(|| format!("no Pod matches {sel}"))?;
                if what == "pod" {
                    p.metadata.name.clone()
                } else if p.spec.node_name.is_empty() {
                    return Err(format!("Pod {} has no node yet", p.metadata.name));
                } else {
                    p.spec.node_name.clone()
                }
            }
            "newest-pod" => {
                let s = parse_label_selector(sel)?;
                c.store
                    .list::<Pod>()
                    .filter(|p| !p.metadata.is_deleting() && s.matches(&p.metadata.labels))
                    .max_by(|a, b| {
                        (a.metadata.created_ms, &a.metadata.name)
                            .cmp(&(b.metadata.created_ms, &b.metadata.name))
                    })
                    .map(|p| p.metadata.name.clone())
                    .ok_or_else(|| format!("no Pod matches {sel}"))?
            }
            "rs" => {
                let s = parse_label_selector(sel)?;
                c.store
                    .list::<ReplicaSet>()
                    .filter(|r| s.matches(&r.metadata.labels))
                    .max_by(|a, b| {
                        (a.metadata.created_ms, &a.metadata.name)
                            .cmp(&(b.metadata.created_ms, &b.metadata.name))
                    })
                    .map(|r| r.metadata.name.clone())
                    .ok_or_else(|| format!("no ReplicaSet matches {sel}"))?
            }
            _ => {
                // Not ours (a JSONPath `{.status…}`): keep it.
                out.push_str(&rest[..i + j + 1]);
                rest = &rest[i + j + 1..];
                continue;
            }
        };
        out.push_str(&rest[..i]);
        out.push_str(&value);
        rest = &rest[i + j + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// The placeholders [`expand`] fills in.
const PLACEHOLDERS: &[&str] = &["pod", "newest-pod", "node-of", "rs"];

/// Whether `text` still holds a placeholder (`{pod:app=web}`): what a learner must never
/// be shown as a command.
pub fn has_placeholder(text: &str) -> bool {
    PLACEHOLDERS
        .iter()
        .any(|p| text.contains(&format!("{{{p}:")))
}

/// A step's command as the learner sees it before it runs: each command line (a
/// heredoc's body left out) with the names filled in from the cluster now, which is what
/// a Run would run. A placeholder that names nothing yet reads `<a Pod with app=web>`,
/// never `{pod:app=web}`.
pub fn shown_command(c: &Cluster, cmd: &str) -> Vec<String> {
    let text = expand(c, cmd).unwrap_or_else(|_| describe_placeholders(cmd));
    command_lines(&text)
}

/// The command lines of a step's text, as the console shows them (`$ …`): a heredoc's
/// body is left out.
pub fn command_lines(text: &str) -> Vec<String> {
    match script::parse(text, "step") {
        Ok(lines) => lines.into_iter().map(|l| l.command).collect(),
        Err(_) => text.lines().map(str::to_string).collect(),
    }
}

/// `{pod:app=web}` → `<a Pod with app=web>` (and the others alike).
fn describe_placeholders(text: &str) -> String {
    let mut out = text.to_string();
    for (p, what) in [
        ("newest-pod", "the newest Pod with"),
        ("pod", "a Pod with"),
        ("node-of", "the node of a Pod with"),
        ("rs", "the newest ReplicaSet with"),
    ] {
        let open = format!("{{{p}:");
        while let Some(i) = out.find(&open) {
            let Some(j) = out[i..].find('}') else { break };
            let sel = out[i + open.len()..i + j].to_string();
            out.replace_range(i..i + j + 1, &format!("<{what} {sel}>"));
        }
    }
    out
}
