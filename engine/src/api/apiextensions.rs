//! `apiextensions.k8s.io/v1`: the CustomResourceDefinition (upstream
//! `k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/types.go`), and what a
//! definition makes: a [`CustomType`], the identity of the resource it serves, and the
//! [`CustomObject`]s stored under it.
//!
//! A definition's schema (`openAPIV3Schema`) is kept as the JSON it was written in:
//! the API server reads it as upstream's structural schema when it validates, prunes
//! and defaults the custom objects (`apiserver::custom`).

use super::{Condition, ObjectMeta};
use serde::{Deserialize, Serialize};
use std::sync::Mutex;

fn is_false(v: &bool) -> bool {
    !*v
}

fn is_zero(v: &i32) -> bool {
    *v == 0
}

/// `CustomResourceDefinitionNames`: how the resource is named in URLs and manifests.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionNames {
    /// The plural resource name, lowercase (`widgets`): the URL's last segment.
    #[serde(default)]
    pub plural: String,
    /// The singular name, lowercase (`widget`); defaults to the kind in lowercase.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub singular: String,
    /// Short names for the command line (`wd`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub short_names: Vec<String>,
    /// The kind in manifests, CamelCase (`Widget`).
    #[serde(default)]
    pub kind: String,
    /// The list's kind; defaults to the kind with `List` added.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub list_kind: String,
    /// Groups of resources it belongs to (`all` for `kubectl get all`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
}

/// `CustomResourceValidation`: the version's schema.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceValidation {
    /// The OpenAPI v3 schema of the whole object, as written.
    #[serde(
        rename = "openAPIV3Schema",
        default,
        skip_serializing_if = "Option::is_none"
    )]
    pub open_api_v3_schema: Option<serde_json::Value>,
}

/// `CustomResourceSubresourceScale`: where the scale subresource reads and writes.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceSubresourceScale {
    /// The JSON path of the desired replicas, e.g. `.spec.replicas`.
    #[serde(default)]
    pub spec_replicas_path: String,
    /// The JSON path of the observed replicas, e.g. `.status.replicas`.
    #[serde(default)]
    pub status_replicas_path: String,
    /// The JSON path of the label selector (as a string), for the HPA.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_selector_path: Option<String>,
}

/// `CustomResourceSubresources`: `status` and `scale`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceSubresources {
    /// Present: `/status` is its own endpoint, and the main one ignores status.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub status: Option<serde_json::Map<String, serde_json::Value>>,
    /// Present: `/scale` answers an `autoscaling/v1` Scale.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scale: Option<CustomResourceSubresourceScale>,
}

/// `CustomResourceColumnDefinition`: a column of `kubectl get`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceColumnDefinition {
    /// The header.
    #[serde(default)]
    pub name: String,
    /// `integer`, `number`, `string`, `boolean` or `date`.
    #[serde(rename = "type", default)]
    pub type_: String,
    /// An OpenAPI format, e.g. `int32`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub format: String,
    /// What the column means.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// 0: always shown; more: only with `-o wide`.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub priority: i32,
    /// The simple JSON path of the value, e.g. `.spec.replicas`.
    #[serde(rename = "jsonPath", default)]
    pub json_path: String,
}

/// `CustomResourceDefinitionVersion`: one version of the resource.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionVersion {
    /// The version's name, e.g. `v1`.
    #[serde(default)]
    pub name: String,
    /// Served through the REST API.
    #[serde(default)]
    pub served: bool,
    /// The version objects are stored in (exactly one).
    #[serde(default)]
    pub storage: bool,
    /// Deprecated: requests for it get a warning.
    #[serde(default, skip_serializing_if = "is_false")]
    pub deprecated: bool,
    /// The warning instead of the default one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub deprecation_warning: Option<String>,
    /// The schema.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub schema: Option<CustomResourceValidation>,
    /// The subresources.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub subresources: Option<CustomResourceSubresources>,
    /// The columns `kubectl get` shows.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub additional_printer_columns: Vec<CustomResourceColumnDefinition>,
}

/// `CustomResourceConversion`: how versions convert (`None`: only `apiVersion` changes).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceConversion {
    /// `None` or `Webhook`.
    #[serde(default)]
    pub strategy: String,
    /// The webhook's configuration, kept as written (no webhook is called).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub webhook: Option<serde_json::Value>,
}

/// `CustomResourceDefinitionSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionSpec {
    /// The API group, e.g. `example.com`.
    #[serde(default)]
    pub group: String,
    /// The names.
    #[serde(default)]
    pub names: CustomResourceDefinitionNames,
    /// `Namespaced` or `Cluster`.
    #[serde(default)]
    pub scope: String,
    /// The versions, served and stored.
    #[serde(default)]
    pub versions: Vec<CustomResourceDefinitionVersion>,
    /// Conversion between versions (`strategy: None` by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conversion: Option<CustomResourceConversion>,
    /// Keep fields the schema does not name (v1 allows only false).
    #[serde(default, skip_serializing_if = "is_false")]
    pub preserve_unknown_fields: bool,
}

/// `CustomResourceDefinitionStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinitionStatus {
    /// `NamesAccepted`, `Established`, `Terminating`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conditions: Vec<Condition>,
    /// The names actually served (they wait for conflicts to clear).
    #[serde(default)]
    pub accepted_names: CustomResourceDefinitionNames,
    /// Every version objects were ever stored in.
    #[serde(default)]
    pub stored_versions: Vec<String>,
}

/// `CustomResourceDefinition`: a new resource type the API server serves.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct CustomResourceDefinition {
    /// Its name: `<plural>.<group>`.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is defined.
    #[serde(default)]
    pub spec: CustomResourceDefinitionSpec,
    /// What the API server made of it.
    #[serde(default)]
    pub status: CustomResourceDefinitionStatus,
}

impl CustomResourceDefinition {
    /// The version objects are stored in.
    pub fn storage_version(&self) -> Option<&CustomResourceDefinitionVersion> {
        self.spec.versions.iter().find(|v| v.storage)
    }

    /// A version by name, if served.
    pub fn served_version(&self, name: &str) -> Option<&CustomResourceDefinitionVersion> {
        self.spec
            .versions
            .iter()
            .find(|v| v.served && v.name == name)
    }

    /// True when the condition `type_` is `True`.
    pub fn condition_true(&self, type_: &str) -> bool {
        self.status
            .conditions
            .iter()
            .any(|c| c.type_ == type_ && c.status == "True")
    }

    /// The resource type it serves, interned (None when its names are not usable:
    /// validation refuses such a definition before it is stored).
    pub fn custom_type(&self) -> Option<CustomKind> {
        let storage = self.storage_version()?;
        let names = &self.spec.names;
        CustomType {
            group: self.spec.group.clone(),
            kind: names.kind.clone(),
            plural: names.plural.clone(),
            namespaced: self.spec.scope == "Namespaced",
        }
        .intern(&storage.name)
    }
}

/// The identity of a custom resource type: what `Kind::Custom` carries. Interned (one
/// allocation per distinct type in the process), so a `Kind` stays `Copy` and its
/// names stay `&'static str`; compared by value, so interning order never reaches
/// output. The version is not part of it: a definition may serve several, and change
/// its storage version, while its objects stay the same resource (each object keeps
/// the version it was written in, [`CustomObject::api_version`]).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct CustomType {
    /// The group, e.g. `example.com`.
    pub group: String,
    /// The kind, e.g. `Widget`.
    pub kind: String,
    /// The plural resource, e.g. `widgets`.
    pub plural: String,
    /// Namespaced, or cluster-scoped.
    pub namespaced: bool,
}

/// An interned [`CustomType`].
pub type CustomKind = &'static InternedType;

/// A [`CustomType`] with an `apiVersion` spelled once: the storage version it was
/// first defined with, what the type is named by where no object says better (an
/// error's group, an empty list).
#[derive(Debug, Serialize)]
pub struct InternedType {
    /// The identity.
    pub ty: CustomType,
    /// `group/version`.
    pub api_version: String,
}

// Compared, ordered and hashed by identity alone.
impl PartialEq for InternedType {
    fn eq(&self, other: &Self) -> bool {
        self.ty == other.ty
    }
}
impl Eq for InternedType {}
impl PartialOrd for InternedType {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for InternedType {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.ty.cmp(&other.ty)
    }
}
impl std::hash::Hash for InternedType {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.ty.hash(state)
    }
}

/// How many distinct custom resource types one process interns. Each is a few hundred
/// bytes that live as long as the process: the bound keeps a client that defines
/// endless differently named types from growing it without end.
pub const MAX_CUSTOM_TYPES: usize = 4096;

static INTERNED: Mutex<Vec<&'static InternedType>> = Mutex::new(Vec::new());

impl CustomType {
    /// The one `&'static` copy of this type (None once [`MAX_CUSTOM_TYPES`] are
    /// interned); `version` names it if it is new.
    pub fn intern(self, version: &str) -> Option<CustomKind> {
        // A poisoned lock only means another thread panicked while holding it; the
        // list itself is always whole (a push is the only write).
        let mut all = INTERNED.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(t) = all.iter().find(|t| t.ty == self) {
            return Some(t);
        }
        if all.len() >= MAX_CUSTOM_TYPES {
            return None;
        }
        let api_version = format!("{}/{version}", self.group);
        let t: &'static InternedType = Box::leak(Box::new(InternedType {
            ty: self,
            api_version,
        }));
        all.push(t);
        Some(t)
    }
}

/// An object of a custom resource: its metadata, and every other top-level field
/// (`spec`, `status`, anything the schema allows) as JSON.
#[derive(Clone, Debug, PartialEq)]
pub struct CustomObject {
    /// Its type.
    pub kind: CustomKind,
    /// The version it is written in (`group/version`): the storage version once
    /// stored, as etcd keeps it; empty for the type's own.
    pub api_version: String,
    /// Metadata.
    pub metadata: ObjectMeta,
    /// The other top-level fields, without `apiVersion`, `kind` and `metadata`.
    pub content: serde_json::Map<String, serde_json::Value>,
}

impl CustomObject {
    /// Read from JSON: the metadata typed, the rest kept.
    pub fn from_json(
        kind: CustomKind,
        value: serde_json::Value,
    ) -> Result<CustomObject, (String, String)> {
        let serde_json::Value::Object(mut map) = value else {
            return Err((String::new(), "expected an object".into()));
        };
        let api_version = match map.remove("apiVersion") {
            Some(serde_json::Value::String(v)) => v,
            _ => String::new(),
        };
        map.remove("kind");
        let metadata = match map.remove("metadata") {
            Some(m) => crate::value_de::from_value(m).map_err(|(p, e)| {
                let path = if p.is_empty() {
                    "metadata".to_string()
                } else {
                    format!("metadata.{p}")
                };
                (path, e)
            })?,
            None => ObjectMeta::default(),
        };
        Ok(CustomObject {
            kind,
            api_version,
            metadata,
            content: map,
        })
    }

    /// Written as JSON, without `kind` (and without `apiVersion` when it is the
    /// type's own).
    pub fn body_json(&self) -> serde_json::Value {
        let mut map = serde_json::Map::new();
        if !self.api_version.is_empty() {
            map.insert("apiVersion".into(), self.api_version.clone().into());
        }
        map.insert(
            "metadata".into(),
            serde_json::to_value(&self.metadata).unwrap_or(serde_json::Value::Null),
        );
        for (k, v) in &self.content {
            map.insert(k.clone(), v.clone());
        }
        serde_json::Value::Object(map)
    }

    /// A top-level field.
    pub fn field(&self, name: &str) -> Option<&serde_json::Value> {
        self.content.get(name)
    }
}
