//! Custom resources: what the established CustomResourceDefinitions serve, and how a
//! name a client types (`widgets`, `wd`, `widgets.example.com`) or a manifest's
//! `apiVersion` and `kind` find one.
//!
//! Upstream, the apiextensions-apiserver serves each established definition
//! (`pkg/apiserver/customresource_handler.go`, `crdHandler`), and kubectl finds the
//! resources through discovery (its RESTMapper). The console's kubectl runs inside the
//! simulation: a command sees the definitions established when it starts
//! ([`scope`]), as real kubectl sees the discovery it read for that command.

pub mod discovery;
pub mod openapi;
pub mod strategy;

pub use crate::api::discovered::{
    columns, in_scope, resolve, resolve_manifest, scope, unknown_fields, Served,
};

use super::Store;
use crate::api::*;

/// The definitions whose resources are served: `Established` and not being deleted,
/// by name.
pub fn served(store: &Store) -> Vec<Served> {
    store
        .list::<CustomResourceDefinition>()
        .filter(|d| d.condition_true("Established"))
        .filter_map(|d| {
            let kind = Kind::Custom(d.custom_type()?);
            let storage = d.storage_version()?;
            let columns = if storage.additional_printer_columns.is_empty() {
                default_columns()
            } else {
                storage.additional_printer_columns.clone()
            };
            Some(Served {
                kind,
                definition: d.metadata.name.clone(),
                group: d.spec.group.clone(),
                versions: d
                    .spec
                    .versions
                    .iter()
                    .filter(|v| v.served)
                    .map(|v| v.name.clone())
                    .collect(),
                names: d.status.accepted_names.clone(),
                columns,
                schema: storage
                    .schema
                    .as_ref()
                    .and_then(|s| s.open_api_v3_schema.clone()),
                status: storage
                    .subresources
                    .as_ref()
                    .is_some_and(|s| s.status.is_some()),
                scale: storage.subresources.as_ref().and_then(|s| s.scale.clone()),
            })
        })
        .collect()
}

/// The columns of a version without any: `serveDefaultColumnsIfEmpty`'s Age.
pub fn default_columns() -> Vec<CustomResourceColumnDefinition> {
    vec![CustomResourceColumnDefinition {
        name: "Age".into(),
        type_: "date".into(),
        json_path: ".metadata.creationTimestamp".into(),
        ..Default::default()
    }]
}

/// The definition serving `t`.
pub fn definition_of(store: &Store, t: CustomKind) -> Option<&CustomResourceDefinition> {
    let key = super::ObjKey::new("", &format!("{}.{}", t.ty.plural, t.ty.group));
    store
        .get::<CustomResourceDefinition>(&key)
        .filter(|d| d.custom_type() == Some(t))
}
