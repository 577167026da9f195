//! `kubectl api-resources` and `kubectl api-versions`: what discovery says the API
//! server serves — the same table `kubeplay-cli serve` answers discovery from
//! ([`crate::apiserver::discovery`]), so the console and a real kubectl list the same.
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/apiresources/apiresources.go` (sorted
//! by API group, then name; `-o wide` adds VERBS and CATEGORIES; `-o name` prints
//! `resource.group`), `apiversions.go` (the group versions, sorted as strings).

use super::util::R;
use crate::apiserver::discovery::{group_version, REVIEWS, RW, SERVED};
use crate::command::args::{bool_flag, flag, parse_flags};

/// One row: (group, version, resource, short names, namespaced, kind, verbs, categories).
type Row = (
    String,
    String,
    String,
    Vec<String>,
    bool,
    String,
    Vec<String>,
    Vec<String>,
);

fn owned(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn rows() -> Vec<Row> {
    let mut out: Vec<Row> = SERVED
        .iter()
        .map(|s| {
            let (g, v) = group_version(s.kind);
            (
                g.into(),
                v.into(),
                s.kind.resource().into(),
                owned(s.short_names),
                s.kind.namespaced(),
                s.kind.name().into(),
                owned(RW),
                owned(s.categories),
            )
        })
        .collect();
    out.extend(REVIEWS.iter().map(|r| {
        (
            r.group.into(),
            r.version.into(),
            r.resource.into(),
            owned(r.short_names),
            r.namespaced,
            r.kind.into(),
            owned(r.verbs),
            vec![],
        )
    }));
    // The custom resources this command's discovery found, in their group's
    // preferred version.
    for g in custom_groups() {
        let Some(list) = custom_list(&g) else {
            continue;
        };
        for r in list["resources"].as_array().into_iter().flatten() {
            let name = r["name"].as_str().unwrap_or_default();
            if name.contains('/') {
                continue;
            }
            let strings = |k: &str| -> Vec<String> {
                r[k].as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(|x| x.as_str().map(String::from))
                    .collect()
            };
            out.push((
                g.clone(),
                list["groupVersion"]
                    .as_str()
                    .and_then(|gv| gv.split_once('/'))
                    .map(|(_, v)| v.to_string())
                    .unwrap_or_default(),
                name.into(),
                strings("shortNames"),
                r["namespaced"].as_bool().unwrap_or(false),
                r["kind"].as_str().unwrap_or_default().into(),
                strings("verbs"),
                strings("categories"),
            ));
        }
    }
    crate::sorting::sort_by(&mut out, |a, b| (&a.0, &a.2).cmp(&(&b.0, &b.2)));
    out
}

/// The custom groups, by name.
fn custom_groups() -> Vec<String> {
    crate::apiserver::custom::discovery::groups()
}

/// The resource list of a custom group's preferred version.
fn custom_list(group: &str) -> Option<serde_json::Value> {
    let groups = crate::apiserver::custom::discovery::api_groups();
    let g = groups.iter().find(|x| x["name"] == group)?;
    let v = g["preferredVersion"]["version"].as_str()?;
    crate::apiserver::custom::discovery::resource_list(group, v)
}

/// `kubectl api-resources [--namespaced=true|false] [--api-group=G] [-o wide|name]
/// [--no-headers]`.
pub(super) fn api_resources(words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            flag("namespaced", None),
            flag("api-group", None),
            flag("output", Some('o')),
            bool_flag("no-headers", None),
            flag("verbs", None),
            flag("categories", None),
            flag("sort-by", None),
            bool_flag("cached", None),
        ],
        "kubectl api-resources",
    )?;
    // String slices: repeated, or comma-separated.
    let list = |name: &str| -> Vec<String> {
        p.slice(name)
            .into_iter()
            .filter(|v| !v.is_empty())
            .map(str::to_string)
            .collect()
    };
    let (verbs, categories) = (list("verbs"), list("categories"));
    let namespaced = match p.get("namespaced") {
        None => None,
        Some("true") | Some("") => Some(true),
        Some("false") => Some(false),
        Some(v) => {
            return Err(format!(
                "error: invalid argument \"{v}\" for \"--namespaced\" flag: strconv.ParseBool: parsing \"{v}\": invalid syntax"
            ))
        }
    };
    let output = p.get("output").unwrap_or("");
    if !matches!(output, "" | "wide" | "name") {
        return Err(format!(
            "error: --output {output} is not available\nSee 'kubectl api-resources -h' for help and examples"
        ));
    }
    let sort_by = p.get("sort-by").unwrap_or("");
    if !matches!(sort_by, "" | "name" | "kind") {
        return Err("error: --sort-by accepts only name or kind".into());
    }
    let mut rows: Vec<Row> = rows()
        .into_iter()
        .filter(|r| namespaced.is_none_or(|n| r.4 == n))
        .filter(|r| p.get("api-group").is_none_or(|g| r.0 == g))
        // Every verb and category asked for (`HasAll`).
        .filter(|r| verbs.iter().all(|v| r.6.contains(v)))
        .filter(|r| categories.iter().all(|c| r.7.contains(c)))
        .collect();
    // `sortableResource`: by the group (or name, or kind), then by name; stable.
    crate::sorting::sort_by(&mut rows, |a, b| {
        let key = |r: &Row| match sort_by {
            "name" => r.2.clone(),
            "kind" => r.5.clone(),
            _ => r.0.clone(),
        };
        key(a).cmp(&key(b)).then(a.2.cmp(&b.2))
    });
    if output == "name" {
        return Ok(rows
            .iter()
            .map(|r| {
                if r.0.is_empty() {
                    r.2.to_string()
                } else {
                    format!("{}.{}", r.2, r.0)
                }
            })
            .collect::<Vec<_>>()
            .join("\n"));
    }
    let mut text = String::new();
    if !p.bool("no-headers") {
        text.push_str("NAME\tSHORTNAMES\tAPIVERSION\tNAMESPACED\tKIND");
        if output == "wide" {
            text.push_str("\tVERBS\tCATEGORIES");
        }
        text.push('\n');
    }
    for r in &rows {
        let gv = if r.0.is_empty() {
            r.1.to_string()
        } else {
            format!("{}/{}", r.0, r.1)
        };
        text.push_str(&format!(
            "{}\t{}\t{gv}\t{}\t{}",
            r.2,
            r.3.join(","),
            r.4,
            r.5
        ));
        if output == "wide" {
            text.push_str(&format!("\t{}\t{}", r.6.join(","), r.7.join(",")));
        }
        text.push('\n');
    }
    Ok(crate::tabwriter::format(&text, 0, 3)
        .trim_end_matches('\n')
        .to_string())
}

/// `kubectl api-versions`.
pub(super) fn api_versions(words: &[String]) -> R {
    parse_flags(words, &[], "kubectl api-versions")?;
    let mut gvs: Vec<String> = rows()
        .iter()
        .map(|r| {
            if r.0.is_empty() {
                r.1.to_string()
            } else {
                format!("{}/{}", r.0, r.1)
            }
        })
        .collect();
    // Every served version, not only the preferred ones api-resources shows.
    gvs.extend(
        crate::apiserver::discovery::ALSO_SERVED
            .iter()
            .map(|(_, g, v)| format!("{g}/{v}")),
    );
    crate::sorting::sort(&mut gvs);
    gvs.dedup();
    Ok(gvs.join("\n"))
}
