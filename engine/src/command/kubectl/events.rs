//! `kubectl events`: the core Events of a namespace (or all), optionally of one object
//! (`--for TYPE/NAME`) and of some types (`--types`), sorted by when they last
//! happened and printed by kubectl's own event printer (not the API server's table:
//! `Kind/Name` objects, and `5s (x3 over 2m)` for repeated Events).
//!
//! Upstream: `staging/src/k8s.io/kubectl/pkg/cmd/events/events.go` (`Run`,
//! `SortableEvents`, `eventTime`, `decodeResourceTypeName`) and `event_printer.go`
//! (`printHeadings`, `printEvent`, `getInterval`).

use super::util::{api, kind_arg, namespace, NS, R};
use crate::api::{Event, Kind, Object};
use crate::cluster::Cluster;
use crate::command::args::{bool_flag, flag, parse_flags};
use crate::command::client::Client;
use crate::time::{human_duration_since, parse_rfc3339, SimTime};
use serde_json::{json, Value};

/// `kubectl events [--for TYPE/NAME] [--types=Normal,Warning] [-A] [--no-headers] [-o …]`.
pub(super) fn events(c: &mut Cluster, k: &Client, words: &[String]) -> R {
    let p = parse_flags(
        words,
        &[
            NS,
            bool_flag("all-namespaces", Some('A')),
            flag("for", None),
            flag("types", None),
            bool_flag("no-headers", None),
            bool_flag("watch", Some('w')),
            flag("output", Some('o')),
            flag("chunk-size", None),
        ],
        "kubectl events",
    )?;
    if let Some(n) = p.get("chunk-size") {
        super::util::int_flag(n, "--chunk-size", 64, "kubectl events")?;
    }
    let all = p.bool("all-namespaces");
    let ns = namespace(&p);
    // `ToOptions`: `--types` split on commas, deduplicated and sorted (a set's List).
    let mut types: Vec<String> = p
        .slice("types")
        .into_iter()
        .filter(|t| !t.is_empty())
        .map(str::to_string)
        .collect();
    crate::sorting::sort(&mut types);
    types.dedup();
    let mut fields = String::new();
    if let Some(f) = p.get("for").filter(|f| !f.is_empty()) {
        let Some((resource, name)) = f.split_once('/') else {
            return Err("error: --for must be in resource/name form".into());
        };
        if name.contains('/') {
            return Err(
                "error: arguments in resource/name form may not have more than one slash".into(),
            );
        }
        // The mapper's error is printed as it is, without `error: `.
        let kind = kind_arg(resource).map_err(|e| e.trim_start_matches("error: ").to_string())?;
        // v1.33 selects by the object's group version too.
        fields = format!(
            "involvedObject.kind={},involvedObject.apiVersion={},involvedObject.name={name}",
            kind.name(),
            kind.api_version()
        );
    }
    let printer = super::print_flags::inline(p.get("output"), &crate::command::NoFiles)?;
    // `Validate`.
    if types
        .iter()
        .any(|t| !t.eq_ignore_ascii_case("Normal") && !t.eq_ignore_ascii_case("Warning"))
    {
        return Err("error: valid --types are Normal or Warning".into());
    }
    if p.bool("watch") {
        return Err("error: kubeplay's kubectl events does not watch; advance the clock (sim advance) and list again".into());
    }
    let fields = crate::apiserver::selectors::parse_field_selector(Kind::Event, &fields)
        .map_err(|e| format!("error: {e}"))?;
    let listed = k
        .list(c, Kind::Event, (!all).then_some(ns.as_str()), None, &fields)
        .map_err(api)?;
    let mut events: Vec<Event> = listed
        .iter()
        .filter_map(|o| match o.as_ref() {
            Object::Event(e) => Some((**e).clone()),
            _ => None,
        })
        .filter(|e| types.is_empty() || types.iter().any(|t| t.eq_ignore_ascii_case(&e.type_)))
        .collect();
    if events.is_empty() {
        return Ok(if all {
            "No events found.".into()
        } else {
            format!("No events found in {ns} namespace.")
        });
    }
    // `sort.Sort(SortableEvents(…))`: not stable.
    crate::printers::go_sort::sort(&mut events, |a, b| event_time(a) < event_time(b));
    if let Some(format) = printer {
        return print_list(&events, &format);
    }
    let now = c.now();
    let mut text = String::new();
    if !p.bool("no-headers") {
        if all {
            text.push_str("NAMESPACE\t");
        }
        text.push_str("LAST SEEN\tTYPE\tREASON\tOBJECT\tMESSAGE\n");
    }
    for e in &events {
        if all {
            text.push_str(&format!("{}\t", e.metadata.namespace));
        }
        text.push_str(&format!(
            "{}\t{}\t{}\t{}/{}\t{}\n",
            interval(e, now),
            e.type_,
            e.reason,
            e.involved_object.kind,
            e.involved_object.name,
            e.message.trim()
        ));
    }
    // `printers.GetNewTabWriter`: minimum width 6, padding 3.
    Ok(crate::tabwriter::format(&text, 6, 3)
        .trim_end_matches('\n')
        .to_string())
}

/// `eventTime`: the series' last observation, else the last timestamp, else the
/// event time, in ms (an unset time is the zero time, before all others).
fn event_time(e: &Event) -> Option<SimTime> {
    if let Some(t) = e
        .series
        .as_ref()
        .and_then(|s| s.get("lastObservedTime"))
        .and_then(Value::as_str)
    {
        return parse_rfc3339(t);
    }
    if !e.last_timestamp.is_empty() {
        return parse_rfc3339(&e.last_timestamp);
    }
    e.event_time.as_deref().and_then(parse_rfc3339)
}

/// `translateTimestampSince`: `<unknown>` for an unset time.
fn since(t: Option<&str>, now: SimTime) -> String {
    match t.filter(|t| !t.is_empty()).and_then(parse_rfc3339) {
        Some(ms) => human_duration_since(ms, now),
        None => "<unknown>".into(),
    }
}

/// `getInterval`: when it was first seen, and for a repeated Event when last and how
/// often (`5s (x3 over 2m)`).
fn interval(e: &Event, now: SimTime) -> String {
    let first = match e.event_time.as_deref().filter(|t| !t.is_empty()) {
        Some(t) => since(Some(t), now),
        None => since(Some(&e.first_timestamp), now),
    };
    if let Some(s) = &e.series {
        let last = since(s.get("lastObservedTime").and_then(Value::as_str), now);
        let count = s.get("count").and_then(Value::as_i64).unwrap_or(0);
        return format!("{last} (x{count} over {first})");
    }
    if e.count > 1 {
        return format!(
            "{} (x{} over {first})",
            since(Some(&e.last_timestamp), now),
            e.count
        );
    }
    first
}

/// `-o`: the sorted `EventList` through PrintFlags' printer. The name printer refuses
/// a typed list ("list types are not supported by name printing") and `Run` drops
/// that error, so `-o name` prints nothing.
fn print_list(events: &[Event], format: &str) -> R {
    if format == "name" {
        return Ok(String::new());
    }
    let items: Vec<Value> = events
        .iter()
        .map(|e| Object::Event(Box::new(e.clone())).to_json())
        .collect();
    let list = json!({"apiVersion": "v1", "items": items, "kind": "EventList", "metadata": {}});
    let printer = super::print_flags::printer(Some(format), &crate::command::NoFiles)?
        .ok_or_else(|| "error: no printer".to_string())?;
    Ok(printer
        .print(&[(list, String::new())])?
        .trim_end_matches('\n')
        .to_string())
}
