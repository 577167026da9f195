//! Storage and configuration: PersistentVolumeClaim, PersistentVolume, StorageClass,
//! ConfigMap and Secret, and the Pod volumes that refer to them.
//!
//! Upstream: `k8s.io/api/core/v1/types.go` and `k8s.io/api/storage/v1/types.go`;
//! defaults from `pkg/apis/core/v1/defaults.go` (`volumeMode: Filesystem`,
//! `persistentVolumeReclaimPolicy: Retain` for a PV written by hand) and
//! `pkg/apis/storage/v1/defaults.go` (`reclaimPolicy: Delete`,
//! `volumeBindingMode: Immediate`).

use super::{ObjectMeta, PodSpec, StringMap};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// `v1.PersistentVolumeClaimSpec`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PersistentVolumeClaimSpec {
    /// `ReadWriteOnce`, `ReadOnlyMany`, `ReadWriteMany`, `ReadWriteOncePod`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub access_modes: Vec<String>,
    /// `requests.storage` (and optionally `limits`).
    #[serde(default)]
    pub resources: VolumeResourceRequirements,
    /// The class; unset takes the default class at admission.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub storage_class_name: Option<String>,
    /// The bound PersistentVolume (set by the binder).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub volume_name: String,
    /// `Filesystem` (default) or `Block`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume_mode: Option<String>,
    /// Which PVs may be bound (by label).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub selector: Option<super::LabelSelector>,
}

/// `v1.VolumeResourceRequirements`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct VolumeResourceRequirements {
    /// e.g. `storage: 1Gi`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub requests: StringMap,
    /// Upper bounds.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub limits: StringMap,
}

/// `v1.PersistentVolumeClaimStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PersistentVolumeClaimStatus {
    /// `Pending`, `Bound` or `Lost`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub phase: String,
    /// The bound volume's access modes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub access_modes: Vec<String>,
    /// The bound volume's capacity.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub capacity: StringMap,
}

/// `v1.PersistentVolumeClaim`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PersistentVolumeClaim {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: PersistentVolumeClaimSpec,
    /// What is seen.
    #[serde(default)]
    pub status: PersistentVolumeClaimStatus,
}

impl PersistentVolumeClaim {
    /// `spec.resources.requests.storage`, as written.
    pub fn requested_storage(&self) -> &str {
        self.spec
            .resources
            .requests
            .get("storage")
            .map(String::as_str)
            .unwrap_or("")
    }
}

/// `v1.ObjectReference` as a PersistentVolume's `claimRef` holds it.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ClaimRef {
    /// `v1`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub api_version: String,
    /// `PersistentVolumeClaim`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub kind: String,
    /// The claim's name.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The claim's namespace.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    /// The claim's uid (unset: a pre-bound volume waiting for a claim of that name).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub uid: String,
    /// The claim's resourceVersion when bound.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub resource_version: String,
}

/// `v1.PersistentVolumeSpec`. The volume source (`csi`, `hostPath`, `nfs`, …) is kept
/// as written in `source`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PersistentVolumeSpec {
    /// e.g. `storage: 1Gi`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub capacity: StringMap,
    /// The modes it can be mounted with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub access_modes: Vec<String>,
    /// The claim it is bound (or reserved) to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claim_ref: Option<ClaimRef>,
    /// `Retain` (default), `Delete` or `Recycle`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub persistent_volume_reclaim_policy: String,
    /// The class it belongs to (empty: only claims asking for no class).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub storage_class_name: String,
    /// `Filesystem` (default) or `Block`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub volume_mode: Option<String>,
    /// Nodes that can reach it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub node_affinity: Option<serde_json::Value>,
    /// The volume source and any other field, as written.
    #[serde(flatten)]
    pub source: BTreeMap<String, serde_json::Value>,
}

/// `v1.PersistentVolumeStatus`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PersistentVolumeStatus {
    /// `Pending`, `Available`, `Bound`, `Released` or `Failed`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub phase: String,
    /// Why it is Failed.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub message: String,
    /// When the phase last changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_phase_transition_time: Option<String>,
}

/// `v1.PersistentVolume` (cluster-scoped).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct PersistentVolume {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// What is wanted.
    #[serde(default)]
    pub spec: PersistentVolumeSpec,
    /// What is seen.
    #[serde(default)]
    pub status: PersistentVolumeStatus,
}

/// `storage.k8s.io/v1.StorageClass` (cluster-scoped; no spec or status).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct StorageClass {
    /// Object metadata (`storageclass.kubernetes.io/is-default-class: "true"` marks
    /// the default class).
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// The provisioner that creates its volumes, e.g. a CSI driver's name.
    #[serde(default)]
    pub provisioner: String,
    /// Provisioner parameters.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: StringMap,
    /// `Delete` (default) or `Retain`, copied to each provisioned volume.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub reclaim_policy: String,
    /// `Immediate` (default) or `WaitForFirstConsumer`.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub volume_binding_mode: String,
    /// Whether claims may grow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub allow_volume_expansion: Option<bool>,
    /// Mount options copied to each volume.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub mount_options: Vec<String>,
}

/// The annotation that makes a StorageClass the default.
pub const IS_DEFAULT_CLASS: &str = "storageclass.kubernetes.io/is-default-class";

impl StorageClass {
    /// True when annotated as the default class.
    pub fn is_default(&self) -> bool {
        self.metadata
            .annotations
            .get(IS_DEFAULT_CLASS)
            .is_some_and(|v| v == "true")
    }
}

/// `v1.ConfigMap`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct ConfigMap {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// UTF-8 values by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub data: StringMap,
    /// Base64 values by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub binary_data: StringMap,
    /// True: data may not change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub immutable: Option<bool>,
}

/// `v1.Secret`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(schemars::JsonSchema))]
#[serde(rename_all = "camelCase")]
pub struct Secret {
    /// Object metadata.
    #[serde(default)]
    pub metadata: ObjectMeta,
    /// Base64 values by key.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub data: StringMap,
    /// Write-only plain values, merged into `data` by the API server.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub string_data: StringMap,
    /// `Opaque` (default), `kubernetes.io/tls`, …
    #[serde(rename = "type", default, skip_serializing_if = "String::is_empty")]
    pub type_: String,
    /// True: data may not change.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub immutable: Option<bool>,
}

/// What a Pod volume refers to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum VolumeSource {
    /// `persistentVolumeClaim.claimName`.
    Claim(String),
    /// `configMap.name` (optional or not).
    ConfigMap(String, bool),
    /// `secret.secretName` (optional or not).
    Secret(String, bool),
    /// Anything else (`emptyDir`, `hostPath`, projected, …): nothing to wait for.
    Other,
}

/// The Pod's volumes, by name, with what each refers to.
pub fn pod_volumes(spec: &PodSpec) -> Vec<(String, VolumeSource)> {
    spec.volumes
        .iter()
        .map(|v| {
            let text = |obj: &str, field: &str| {
                v.source
                    .get(obj)
                    .and_then(|o| o.get(field))
                    .and_then(|n| n.as_str())
                    .map(str::to_string)
            };
            let optional = |obj: &str| {
                v.source
                    .get(obj)
                    .and_then(|o| o.get("optional"))
                    .and_then(|b| b.as_bool())
                    .unwrap_or(false)
            };
            let source = if let Some(c) = text("persistentVolumeClaim", "claimName") {
                VolumeSource::Claim(c)
            } else if let Some(c) = text("configMap", "name") {
                VolumeSource::ConfigMap(c, optional("configMap"))
            } else if let Some(s) = text("secret", "secretName") {
                VolumeSource::Secret(s, optional("secret"))
            } else {
                VolumeSource::Other
            };
            (v.name.clone(), source)
        })
        .collect()
}

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding, as a Secret's `data` holds its values.
pub fn base64_encode(bytes: &[u8]) -> String {
    base64_encode_with(bytes, B64, true)
}

/// Base64 in `alphabet` (standard, or URL-safe as a continue token's), padded or not.
pub fn base64_encode_with(bytes: &[u8], alphabet: &[u8; 64], pad: bool) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(alphabet[((n >> (18 - 6 * i)) & 63) as usize] as char);
            } else if pad {
                out.push('=');
            }
        }
    }
    out
}

/// Standard base64 decoding (padding optional); None for a character outside the
/// alphabet.
pub fn base64_decode(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let (mut acc, mut bits) = (0u32, 0u32);
    for c in text.bytes().filter(|c| *c != b'=') {
        let v = B64.iter().position(|x| *x == c)? as u32;
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push(((acc >> bits) & 0xff) as u8);
        }
    }
    Some(out)
}

/// `SetDefaults_PersistentVolumeClaim` and the strategy's `PrepareForCreate`: status
/// starts `Pending`, `volumeMode` is `Filesystem`.
pub fn default_claim(c: &mut PersistentVolumeClaim) {
    c.spec
        .volume_mode
        .get_or_insert_with(|| "Filesystem".into());
    if c.status.phase.is_empty() {
        c.status.phase = "Pending".into();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips_every_padding_length() {
        for (plain, coded) in [
            ("", ""),
            ("a", "YQ=="),
            ("ab", "YWI="),
            ("abc", "YWJj"),
            ("hunter2", "aHVudGVyMg=="),
        ] {
            assert_eq!(base64_encode(plain.as_bytes()), coded);
            assert_eq!(base64_decode(coded).unwrap(), plain.as_bytes());
        }
        assert_eq!(base64_decode("a*b"), None);
    }
}
