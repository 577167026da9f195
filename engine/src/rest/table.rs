//! The `Table` kubectl's `get` asks for (`Accept: …;as=Table;g=meta.k8s.io;v=v1`), with
//! the columns kubeplay's printers make: the `-o wide` ones at priority 1.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/endpoints/handlers/response.go`
//! (`asTable`), `pkg/printers/internalversion` (the column definitions).

use super::HttpRequest;
use crate::api::{Kind, Object};
use crate::printers::get::{headers, row, TableOptions};
use crate::time::SimTime;
use serde_json::{json, Value};

/// `includeObject`: what each row carries besides its cells.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum IncludeObject {
    None,
    Metadata,
    Object,
}

/// A Table was asked for, with what each row carries.
#[derive(Clone, Copy, Debug)]
pub(super) struct TableWanted {
    pub(super) include: IncludeObject,
}

/// Whether the request asks for a Table.
pub(super) fn table_wanted(req: &HttpRequest) -> Option<TableWanted> {
    let accept = req.header("accept")?;
    if !accept.contains("as=Table") {
        return None;
    }
    let include = match req.param("includeObject") {
        Some("None") => IncludeObject::None,
        Some("Object") => IncludeObject::Object,
        _ => IncludeObject::Metadata,
    };
    Some(TableWanted { include })
}

/// The Table of `objs` of `kind` at resource version `rv`.
pub(super) fn table(kind: Kind, objs: &[&Object], t: TableWanted, rv: u64, now: SimTime) -> Value {
    if let Kind::Custom(_) = kind {
        return custom_table(kind, objs, t, rv, now);
    }
    let narrow = headers(kind, &TableOptions::default()).len();
    let wide_opts = TableOptions {
        wide: true,
        ..Default::default()
    };
    let cols: Vec<Value> = headers(kind, &wide_opts)
        .iter()
        .enumerate()
        .map(|(i, h)| {
            json!({
                "name": column_name(h),
                "type": "string",
                "format": if i == 0 && h == "NAME" { "name" } else { "" },
                "description": "",
                "priority": if i < narrow { 0 } else { 1 },
            })
        })
        .collect();
    let rows: Vec<Value> = objs
        .iter()
        .map(|o| with_object(json!({"cells": row(o, &wide_opts, now)}), o, t))
        .collect();
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": rv.to_string()},
        "columnDefinitions": cols,
        "rows": rows,
    })
}

/// A row with what `includeObject` asks it to carry.
fn with_object(mut r: Value, o: &Object, t: TableWanted) -> Value {
    match t.include {
        IncludeObject::None => {}
        IncludeObject::Metadata => {
            let j = o.to_json();
            r["object"] = json!({
                "kind": "PartialObjectMetadata",
                "apiVersion": "meta.k8s.io/v1",
                "metadata": j.get("metadata").cloned().unwrap_or(Value::Null),
            });
        }
        IncludeObject::Object => r["object"] = o.to_json(),
    }
    r
}

/// A custom resource's Table (`tableconvertor.New`): Name, then the definition's
/// columns with their own types, formats, descriptions and priorities; a cell with no
/// value is null.
fn custom_table(kind: Kind, objs: &[&Object], t: TableWanted, rv: u64, now: SimTime) -> Value {
    let mut columns = crate::api::discovered::columns(kind);
    if columns.is_empty() {
        columns = crate::apiserver::custom::default_columns();
    }
    let mut cols = vec![json!({"name": "Name", "type": "string", "format": "name",
        "description": "Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names",
        "priority": 0})];
    for c in &columns {
        let description = if c.description.is_empty() {
            format!(
                "Custom resource definition column (in JSONPath format): {}",
                c.json_path
            )
        } else {
            c.description.clone()
        };
        cols.push(json!({"name": c.name, "type": c.type_, "format": c.format,
            "description": description, "priority": c.priority}));
    }
    let rows: Vec<Value> = objs
        .iter()
        .map(|o| {
            let cells = crate::printers::get::custom::cells(o, &columns, now);
            with_object(json!({"cells": cells}), o, t)
        })
        .collect();
    json!({
        "kind": "Table",
        "apiVersion": "meta.k8s.io/v1",
        "metadata": {"resourceVersion": rv.to_string()},
        "columnDefinitions": cols,
        "rows": rows,
    })
}

/// A header as the Table names its column (`NOMINATED NODE` → `Nominated Node`):
/// kubectl prints column names in capitals either way.
fn column_name(h: &str) -> String {
    h.split(' ')
        .map(|w| {
            let mut c = w.chars();
            match c.next() {
                Some(f) => f.to_string() + &c.as_str().to_ascii_lowercase(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}
