//! The custom resources a command sees: what the API server served when it started
//! (`apiserver::custom::served`), and how a name a client types (`widgets`, `wd`,
//! `widgets.example.com`) or a manifest's `apiVersion` and `kind` find one.
//!
//! kubectl finds resources through discovery (its RESTMapper). The console's kubectl
//! runs inside the simulation: a command sees the definitions established when it
//! starts ([`scope`]), as real kubectl sees the discovery it read for that command.
//! Kept here, beside the types, because the manifest reader and the printers resolve
//! names too, and they sit below the API server.

use super::structural;
use super::*;
use std::cell::RefCell;
use std::rc::Rc;

/// One custom resource as the API server serves it.
#[derive(Clone, Debug, PartialEq)]
pub struct Served {
    /// Its kind in the store.
    pub kind: Kind,
    /// The definition's name, `<plural>.<group>`.
    pub definition: String,
    /// The group.
    pub group: String,
    /// The versions served, in the definition's order.
    pub versions: Vec<String>,
    /// The accepted names.
    pub names: CustomResourceDefinitionNames,
    /// The storage version's printer columns (with the default Age column when it
    /// names none).
    pub columns: Vec<CustomResourceColumnDefinition>,
    /// The storage version's schema.
    pub schema: Option<serde_json::Value>,
    /// It has the status subresource.
    pub status: bool,
    /// Its scale subresource's paths, if it has one.
    pub scale: Option<CustomResourceSubresourceScale>,
}

impl Served {
    /// True when a client's resource name means this resource: its plural, singular,
    /// a short name or its kind in lowercase, alone or with `.group` or
    /// `.version.group`.
    pub fn matches(&self, typed: &str) -> bool {
        let typed = typed.to_ascii_lowercase();
        let (base, group) = match typed.split_once('.') {
            Some((b, g)) => (b, Some(g)),
            None => (typed.as_str(), None),
        };
        let n = &self.names;
        let named = base == n.plural
            || base == n.singular
            || base == n.kind.to_ascii_lowercase()
            || n.short_names.iter().any(|s| s == base);
        named
            && match group {
                None => true,
                Some(g) => {
                    g == self.group
                        || g.split_once('.').is_some_and(|(v, rest)| {
                            rest == self.group && self.versions.iter().any(|s| s == v)
                        })
                }
            }
    }
}

thread_local! {
    /// The custom resources the running command sees (see [`scope`]).
    static SCOPE: RefCell<Option<Rc<Vec<Served>>>> = const { RefCell::new(None) };
}

/// Run `f` with `served` (what [`served`] found) visible to name resolution
/// ([`resolve`], [`resolve_manifest`]): one command's view of discovery. Nested
/// scopes see their own, and the outer one is back after.
pub fn scope<R>(served: Vec<Served>, f: impl FnOnce() -> R) -> R {
    /// Puts the outer scope back when dropped, on an unwind too: one cluster's
    /// resources never stay visible to the next code on the thread.
    struct Restore(Option<Rc<Vec<Served>>>);
    impl Drop for Restore {
        fn drop(&mut self) {
            let before = self.0.take();
            SCOPE.with(|s| *s.borrow_mut() = before);
        }
    }
    let _restore = Restore(SCOPE.with(|s| s.replace(Some(Rc::new(served)))));
    f()
}

/// The served custom resources of the current [`scope`] (none outside one).
pub fn in_scope() -> Rc<Vec<Served>> {
    SCOPE.with(|s| s.borrow().clone()).unwrap_or_default()
}

/// A resource name a client typed, among the current scope's custom resources.
pub fn resolve(typed: &str) -> Option<Kind> {
    in_scope().iter().find(|s| s.matches(typed)).map(|s| s.kind)
}

/// A manifest's `apiVersion` and `kind`, among the current scope's custom resources.
pub fn resolve_manifest(api_version: &str, kind: &str) -> Option<Kind> {
    let (group, version) = api_version.split_once('/')?;
    in_scope()
        .iter()
        .find(|s| {
            s.group == group && s.names.kind == kind && s.versions.iter().any(|v| v == version)
        })
        .map(|s| s.kind)
}

/// The fields of a custom object (as JSON) its schema does not name, as the API
/// server's strict decoding reports them (`spec.colour`), sorted.
pub fn unknown_fields(kind: Kind, value: &serde_json::Value) -> Vec<String> {
    let scope = in_scope();
    let Some(schema) = scope
        .iter()
        .find(|s| s.kind == kind)
        .and_then(|s| s.schema.as_ref())
    else {
        return Vec::new();
    };
    let mut copy = value.clone();
    let mut paths = structural::prune(schema, &mut copy);
    paths.sort();
    paths
}

/// The scale subresource's paths of a custom resource in the current scope, as JSON
/// pointers: (spec replicas, status replicas, label selector).
pub fn scale_paths(kind: Kind) -> Option<(String, String, Option<String>)> {
    let pointer = |p: &str| p.replace('.', "/");
    in_scope()
        .iter()
        .find(|s| s.kind == kind)?
        .scale
        .as_ref()
        .map(|s| {
            (
                pointer(&s.spec_replicas_path),
                pointer(&s.status_replicas_path),
                s.label_selector_path
                    .as_deref()
                    .filter(|p| !p.is_empty())
                    .map(pointer),
            )
        })
}

/// The printer columns of a custom resource in the current scope.
pub fn columns(kind: Kind) -> Vec<CustomResourceColumnDefinition> {
    in_scope()
        .iter()
        .find(|s| s.kind == kind)
        .map(|s| s.columns.clone())
        .unwrap_or_default()
}
