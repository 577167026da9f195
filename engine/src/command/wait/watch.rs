//! `kubectl get --watch` as the clock plays (`get.go`'s `watch`): the objects as
//! they are, then one line (or document) per write the API server sends, until the
//! watch ends — at `--request-timeout`, when the API server closes it, or at Ctrl+C.
//!
//! - The table is flushed after every event through a tabwriter that remembers each
//!   column's widest cell ([`RememberedWidths`]); its header is printed once, with the
//!   first row (an empty list prints nothing, not "No resources found").
//! - A DELETED event prints the object as it was last; `--output-watch-events` puts
//!   the event's type before it (an EVENT column, or a `metav1.WatchEvent` around the
//!   object: one compact JSON line each, or `object:`/`type:` in YAML, with the
//!   object's managedFields, which only bare objects lose).
//! - A row's ages are those of the moment of the write: the API server renders a
//!   watch's table rows as it sends them, at once.
//!
//! What is watched is every write to the kind in the namespace (or in all of them),
//! then the name, `-l` and `--field-selector` on the object before and after the
//! write, as the API server's watch filters (`rest::watch`): one that starts to match
//! is ADDED, one that stops is DELETED.

use crate::api::{Kind, LabelSelector, Object};
use crate::apiserver::selectors::{fields_match, FieldReq};
use crate::apiserver::{Follow, ObjKey, WatchType, Written};
use crate::cluster::Cluster;
use crate::printers::get::{headers, row, TableOptions};
use crate::printers::output::{jsonpath_as_json, pretty_json, Output};
use crate::printers::qualified_name;
use crate::printers::table::RememberedWidths;
use crate::printers::yaml::to_yaml;
use crate::time::{SimTime, MINUTE};
use serde_json::{json, Value};
use std::sync::Arc;

/// How long the API server keeps a watch open when its client sets no timeout: its
/// `--min-request-timeout` (30 minutes). Upstream stretches each watch by a random
/// factor in [1, 2) so that watches do not all end at once; the lower bound keeps the
/// simulation deterministic without drawing from its seeded stream.
pub const WATCH_TIMEOUT: SimTime = 30 * MINUTE;

/// What a watch prints and how far it has printed.
#[derive(Clone, Debug, PartialEq)]
pub struct Watch {
    kind: Kind,
    /// The namespace watched (`None`: all of them, or a cluster-scoped kind).
    namespace: Option<String>,
    /// The one object watched (`kubectl get pod NAME -w`).
    name: Option<String>,
    labels: Option<LabelSelector>,
    fields: Vec<FieldReq>,
    output: Output,
    table: TableOptions,
    no_headers: bool,
    /// `--output-watch-events`.
    events: bool,
    /// `--show-managed-fields`.
    show_managed_fields: bool,
    widths: RememberedWidths,
    printed_header: bool,
    /// Documents printed so far: the YAML printer separates them with `---`.
    printed: usize,
}

/// The filters of a watch: the namespace (`None`: all), the one name, `-l` and
/// `--field-selector`.
pub type WatchFilter = (
    Option<String>,
    Option<String>,
    Option<LabelSelector>,
    Vec<FieldReq>,
);

impl Watch {
    /// A watch of `kind` through `filter`, printed as `output` with the table's
    /// options; `events` is `--output-watch-events`.
    pub fn new(
        kind: Kind,
        filter: WatchFilter,
        output: Output,
        (table, no_headers, events, show_managed_fields): (TableOptions, bool, bool, bool),
    ) -> Self {
        let (namespace, name, labels, fields) = filter;
        Watch {
            kind,
            namespace: namespace.filter(|_| kind.namespaced()),
            name,
            labels,
            fields,
            output,
            table,
            no_headers,
            events,
            show_managed_fields,
            widths: RememberedWidths::default(),
            printed_header: false,
            printed: 0,
        }
    }

    /// Start following the kind's writes, and print the objects it starts with (none
    /// for `--watch-only`), as ADDED events with `--output-watch-events`.
    pub fn start(&mut self, c: &mut Cluster, initial: &[Arc<Object>]) -> Result<String, String> {
        c.store
            .follow(Some(Follow::Kind(self.kind, self.namespace.clone())));
        let items: Vec<(WatchType, &Object)> =
            initial.iter().map(|o| (WatchType::Added, &**o)).collect();
        self.print(c, c.now(), &items)
    }

    /// Print the writes since the last look that the watch sees, each flushed alone.
    pub(super) fn poll(&mut self, c: &mut Cluster, out: &mut String) -> Result<(), String> {
        let writes: Vec<Written> = c.store.take_followed();
        for w in &writes {
            // An object that starts or stops matching is ADDED or DELETED to the watch.
            if let Some((type_, obj)) = w.seen_through(|o| self.sees(o)) {
                out.push_str(&self.print(c, w.at, &[(type_, obj)])?);
            }
        }
        Ok(())
    }

    /// Stop following (the watch ended).
    pub(super) fn stop(&self, c: &mut Cluster) {
        c.store.follow(None);
    }

    fn sees(&self, o: &Object) -> bool {
        let m = o.meta();
        self.name.as_ref().is_none_or(|n| *n == m.name)
            && self.labels.as_ref().is_none_or(|s| s.matches(&m.labels))
            && fields_match(o, &self.fields)
    }

    /// One flush: these objects, each with its event type, their table rows as of
    /// `at`.
    fn print(
        &mut self,
        c: &Cluster,
        at: SimTime,
        items: &[(WatchType, &Object)],
    ) -> Result<String, String> {
        if items.is_empty() {
            return Ok(String::new());
        }
        let type_name = |t: &WatchType| match t {
            WatchType::Added => "ADDED",
            WatchType::Modified => "MODIFIED",
            WatchType::Deleted => "DELETED",
        };
        let mut out = String::new();
        match &self.output {
            Output::Table { wide } => {
                let o = TableOptions {
                    wide: *wide,
                    ..self.table.clone()
                };
                let mut rows = Vec::new();
                if !self.no_headers && !self.printed_header {
                    let mut h = headers(self.kind, &o);
                    if self.events {
                        h.insert(0, "EVENT".into());
                    }
                    rows.push(h);
                    self.printed_header = true;
                }
                for (t, obj) in items {
                    let mut r = row(obj, &o, at);
                    if self.events {
                        // `formatEventType`: padded to the longest, MODIFIED.
                        r.insert(0, format!("{:<8}", type_name(t)));
                    }
                    rows.push(r);
                }
                out = self.widths.layout(&rows);
            }
            Output::Name => {
                for (_, obj) in items {
                    out.push_str(&qualified_name(self.kind, &obj.meta().name));
                    out.push('\n');
                }
            }
            Output::CustomColumns(cols) => {
                let docs: Vec<Value> = items
                    .iter()
                    .map(|(t, o)| self.document(c, type_name(t), o, true))
                    .collect();
                let no_headers = self.no_headers || self.printed_header;
                self.printed_header = true;
                out = crate::printers::custom_columns::print(cols, &docs, no_headers)
                    .map_err(|(printed, e)| format!("{printed}error: {e}"))?;
            }
            output => {
                for (t, obj) in items {
                    let templated = !matches!(output, Output::Json | Output::Yaml);
                    let doc = self.document(c, type_name(t), obj, templated);
                    match output {
                        Output::Json if self.events => {
                            // `JSONPrinter` marshals a WatchEvent on one line.
                            let object =
                                crate::printers::go_json::go_html_escape(doc["object"].to_string());
                            out.push_str(&format!(
                                "{{\"type\":\"{}\",\"object\":{object}}}\n",
                                type_name(t)
                            ));
                        }
                        Output::Json => {
                            out.push_str(&pretty_json(&doc));
                            out.push('\n');
                        }
                        Output::Yaml => {
                            if self.printed > 0 {
                                out.push_str("---\n");
                            }
                            out.push_str(&to_yaml(&doc));
                        }
                        Output::JsonPath(tpl) => out.push_str(&tpl.execute(&doc)?),
                        Output::JsonPathAsJson(tpl) => out.push_str(&jsonpath_as_json(tpl, &doc)?),
                        Output::GoTemplate(tpl) => out.push_str(&tpl.execute(&doc)?),
                        _ => {}
                    }
                    self.printed += 1;
                }
            }
        }
        Ok(out)
    }

    /// What a printer is handed for one event: the object (its managedFields for the
    /// templates, or with `--show-managed-fields`), or with `--output-watch-events` a
    /// WatchEvent around it, managedFields kept.
    fn document(&self, c: &Cluster, type_: &str, o: &Object, templated: bool) -> Value {
        let mut v = o.to_json();
        let key = ObjKey::new(&o.meta().namespace, &o.meta().name);
        let managed = templated || self.events || self.show_managed_fields;
        if managed && c.managed_fields().has(self.kind, &key) {
            v["metadata"]["managedFields"] = c.managed_fields().to_json(self.kind, &key);
        }
        if self.events {
            json!({"type": type_, "object": v})
        } else {
            v
        }
    }
}
