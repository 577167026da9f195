//! The tables of storage and configuration: PersistentVolumeClaims, PersistentVolumes,
//! StorageClasses, ConfigMaps, Secrets.

use super::super::age;
use super::cells::*;
use crate::api::*;
use crate::time::SimTime;

/// PersistentVolumeClaim's columns.
pub(super) const PERSISTENT_VOLUME_CLAIM: Columns = Columns {
    names: &[
        "NAME",
        "STATUS",
        "VOLUME",
        "CAPACITY",
        "ACCESS MODES",
        "STORAGECLASS",
        "VOLUMEATTRIBUTESCLASS",
        "AGE",
    ],
    wide: &["VOLUMEMODE"],
};

/// PersistentVolume's columns.
pub(super) const PERSISTENT_VOLUME: Columns = Columns {
    names: &[
        "NAME",
        "CAPACITY",
        "ACCESS MODES",
        "RECLAIM POLICY",
        "STATUS",
        "CLAIM",
        "STORAGECLASS",
        "VOLUMEATTRIBUTESCLASS",
        "REASON",
        "AGE",
    ],
    wide: &["VOLUMEMODE"],
};

/// StorageClass's columns.
pub(super) const STORAGE_CLASS: Columns = Columns {
    names: &[
        "NAME",
        "PROVISIONER",
        "RECLAIMPOLICY",
        "VOLUMEBINDINGMODE",
        "ALLOWVOLUMEEXPANSION",
        "AGE",
    ],
    wide: &[],
};

/// ConfigMap's columns.
pub(super) const CONFIG_MAP: Columns = Columns {
    names: &["NAME", "DATA", "AGE"],
    wide: &[],
};

/// ServiceAccount's columns.
pub(super) const SERVICE_ACCOUNT: Columns = Columns {
    names: &["NAME", "SECRETS", "AGE"],
    wide: &[],
};

/// Secret's columns.
pub(super) const SECRET: Columns = Columns {
    names: &["NAME", "TYPE", "DATA", "AGE"],
    wide: &[],
};

/// `printPersistentVolumeClaim`: capacity and access modes once bound.
pub(super) fn print_persistent_volume_claim(
    name: String,
    c: &PersistentVolumeClaim,
    o: &TableOptions,
    now: SimTime,
) -> Vec<String> {
    let m = &c.metadata;
    let phase = if m.is_deleting() {
        "Terminating".to_string()
    } else {
        c.status.phase.clone()
    };
    let (capacity, modes) = if c.spec.volume_name.is_empty() {
        (String::new(), String::new())
    } else {
        (
            c.status
                .capacity
                .get("storage")
                .cloned()
                .unwrap_or_default(),
            access_modes_string(&c.status.access_modes),
        )
    };
    let mut r = vec![
        name,
        phase,
        c.spec.volume_name.clone(),
        capacity,
        modes,
        c.spec.storage_class_name.clone().unwrap_or_default(),
        "<unset>".into(),
        age(m.created_ms, now),
    ];
    if o.wide {
        r.push(
            c.spec
                .volume_mode
                .clone()
                .unwrap_or_else(|| "<unset>".into()),
        );
    }
    r
}

/// `printPersistentVolume`: its claim as `namespace/name`.
pub(super) fn print_persistent_volume(
    name: String,
    v: &PersistentVolume,
    o: &TableOptions,
    now: SimTime,
) -> Vec<String> {
    let m = &v.metadata;
    let phase = if m.is_deleting() {
        "Terminating".to_string()
    } else {
        v.status.phase.clone()
    };
    let claim = v
        .spec
        .claim_ref
        .as_ref()
        .map(|c| format!("{}/{}", c.namespace, c.name))
        .unwrap_or_default();
    let mut r = vec![
        name,
        v.spec.capacity.get("storage").cloned().unwrap_or_default(),
        access_modes_string(&v.spec.access_modes),
        v.spec.persistent_volume_reclaim_policy.clone(),
        phase,
        claim,
        v.spec.storage_class_name.clone(),
        "<unset>".into(),
        String::new(),
        age(m.created_ms, now),
    ];
    if o.wide {
        r.push(
            v.spec
                .volume_mode
                .clone()
                .unwrap_or_else(|| "<unset>".into()),
        );
    }
    r
}

/// `printStorageClass`: ` (default)` after the default class's name.
pub(super) fn print_storage_class(name: String, sc: &StorageClass, now: SimTime) -> Vec<String> {
    let m = &sc.metadata;
    let shown = if sc.is_default() {
        format!("{name} (default)")
    } else {
        name
    };
    vec![
        shown,
        sc.provisioner.clone(),
        or_default(&sc.reclaim_policy, "Delete"),
        or_default(&sc.volume_binding_mode, "Immediate"),
        sc.allow_volume_expansion.unwrap_or(false).to_string(),
        age(m.created_ms, now),
    ]
}

/// `printConfigMap`: the number of keys.
pub(super) fn print_config_map(name: String, cm: &ConfigMap, now: SimTime) -> Vec<String> {
    let m = &cm.metadata;
    vec![
        name,
        (cm.data.len() + cm.binary_data.len()).to_string(),
        age(m.created_ms, now),
    ]
}

/// `printSecret`: the type, the number of keys.
pub(super) fn print_secret(name: String, sec: &Secret, now: SimTime) -> Vec<String> {
    let m = &sec.metadata;
    vec![
        name,
        sec.type_.clone(),
        sec.data.len().to_string(),
        age(m.created_ms, now),
    ]
}

/// `GetAccessModesAsString`: RWO, ROX, RWX, RWOP in that order, comma-joined.
pub fn access_modes_string(modes: &[String]) -> String {
    [
        ("ReadWriteOnce", "RWO"),
        ("ReadOnlyMany", "ROX"),
        ("ReadWriteMany", "RWX"),
        ("ReadWriteOncePod", "RWOP"),
    ]
    .iter()
    .filter(|(m, _)| modes.iter().any(|x| x == m))
    .map(|(_, short)| *short)
    .collect::<Vec<_>>()
    .join(",")
}

/// `printServiceAccount`: how many Secrets it lists.
pub(super) fn print_service_account(
    name: String,
    sa: &ServiceAccount,
    now: SimTime,
) -> Vec<String> {
    vec![
        name,
        sa.secrets.len().to_string(),
        age(sa.metadata.created_ms, now),
    ]
}
