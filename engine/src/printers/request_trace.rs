//! `sim trace request/N` and `sim trace requests`: the requests kubectl sent, with
//! their way through the API server's stages (`cluster::request_path` records them).

use crate::cluster::request_path::{RequestLog, RequestTrace, Verdict};

/// `sim trace request/N`: the request's stages, one line each.
pub fn render(r: &RequestTrace) -> String {
    let what = if r.verb.is_empty() {
        "(refused before its attributes mattered)".to_string()
    } else {
        r.verb.clone()
    };
    let mut out = format!(
        "request/{} at {}: {}\n  {} {}{}{} as {}\n",
        r.n,
        crate::time::clock_label(r.time),
        r.command,
        what,
        r.resource,
        if r.name.is_empty() {
            String::new()
        } else {
            format!(" \"{}\"", r.name)
        },
        if r.namespace.is_empty() {
            String::new()
        } else {
            format!(" in {}", r.namespace)
        },
        r.user
    );
    for (i, s) in r.stages.iter().enumerate() {
        let verdict = match s.verdict {
            Verdict::Passed => "passed",
            Verdict::Refused => "REFUSED",
            Verdict::NotReached => "not reached",
            Verdict::Skipped => "skipped",
        };
        let detail = if s.detail.is_empty() {
            String::new()
        } else {
            format!("  {}", s.detail)
        };
        out.push_str(&format!(
            "  {}. {:<21}{:<12}{}\n",
            i + 1,
            s.stage.label(),
            verdict,
            detail.trim_start()
        ));
    }
    out.push_str(&format!("  → {}\n", r.status));
    for w in &r.webhooks {
        out.push_str(&format!("  webhook {w}\n"));
    }
    for (k, v) in &r.annotations {
        out.push_str(&format!("  audit annotation {k}: {v}\n"));
    }
    out
}

/// `sim trace requests`: the recent requests, newest last.
pub fn render_list(log: &RequestLog) -> String {
    let mut rows = vec![[
        "REQUEST",
        "TIME",
        "USER",
        "VERB",
        "RESOURCE",
        "CODE",
        "REFUSED AT",
    ]
    .map(String::from)
    .to_vec()];
    for r in &log.recent {
        let res = match (r.name.is_empty(), r.namespace.is_empty()) {
            (true, true) => r.resource.clone(),
            (true, false) => format!("{} -n {}", r.resource, r.namespace),
            (false, true) => format!("{}/{}", r.resource, r.name),
            (false, false) => format!("{}/{} -n {}", r.resource, r.name, r.namespace),
        };
        rows.push(vec![
            format!("request/{}", r.n),
            crate::time::clock_label(r.time),
            r.user.clone(),
            r.verb.clone(),
            res,
            r.code.to_string(),
            r.refused_at()
                .map(|s| s.label().to_string())
                .unwrap_or_else(|| "-".into()),
        ]);
    }
    crate::printers::table::render(&rows)
}
