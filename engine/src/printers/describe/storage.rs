//! The storage describers: PersistentVolumeClaim, PersistentVolume, StorageClass.

use super::common::*;
use super::Reader;
use crate::api::*;
use crate::tabwriter;
use std::fmt::Write;

/// `printPodsMultiline`: the names of the Pods that mount the claim.
pub(super) fn claim_users(rd: &mut dyn Reader, pvc: &PersistentVolumeClaim) -> Vec<String> {
    let listed = rd.list(Kind::Pod, Some(&pvc.metadata.namespace), None, "");
    typed::<Pod>(&listed)
        .into_iter()
        .filter(|p| {
            pod_volumes(&p.spec)
                .iter()
                .any(|(_, s)| matches!(s, VolumeSource::Claim(n) if *n == pvc.metadata.name))
        })
        .map(|p| p.metadata.name.clone())
        .collect()
}

pub(super) fn go_list(v: &[String]) -> String {
    format!("[{}]", v.join(" "))
}

/// `describePersistentVolumeClaim`.
pub(super) fn describe_claim(rd: &mut dyn Reader, pvc: &PersistentVolumeClaim) -> String {
    let mut w = String::new();
    let m = &pvc.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(w, "Namespace:\t{}", m.namespace);
    let _ = writeln!(
        w,
        "StorageClass:\t{}",
        pvc.spec.storage_class_name.clone().unwrap_or_default()
    );
    match m.deletion_ms {
        Some(del) => {
            let _ = writeln!(
                w,
                "Status:\tTerminating (lasts {})",
                crate::time::human_duration_since(del, rd.now())
            );
        }
        None => {
            let _ = writeln!(w, "Status:\t{}", pvc.status.phase);
        }
    }
    let _ = writeln!(w, "Volume:\t{}", pvc.spec.volume_name);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "Finalizers:\t{}", go_list(&m.finalizers));
    let (capacity, modes) = if pvc.spec.volume_name.is_empty() {
        (String::new(), String::new())
    } else {
        (
            pvc.status
                .capacity
                .get("storage")
                .cloned()
                .unwrap_or_default(),
            crate::printers::get::access_modes_string(&pvc.status.access_modes),
        )
    };
    let _ = writeln!(w, "Capacity:\t{capacity}");
    let _ = writeln!(w, "Access Modes:\t{modes}");
    if let Some(mode) = &pvc.spec.volume_mode {
        let _ = writeln!(w, "VolumeMode:\t{mode}");
    }
    let users = claim_users(rd, pvc);
    if users.is_empty() {
        let _ = writeln!(w, "Used By:\t<none>");
    } else {
        for (i, u) in users.iter().enumerate() {
            let _ = writeln!(w, "{}\t{u}", if i == 0 { "Used By:" } else { "" });
        }
    }
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describePersistentVolume` (a CSI source, as the provisioner writes it).
pub(super) fn describe_volume(rd: &mut dyn Reader, pv: &PersistentVolume) -> String {
    let mut w = String::new();
    let m = &pv.metadata;
    let _ = writeln!(w, "Name:\t{}", m.name);
    multiline(&mut w, "Labels", &m.labels);
    annotations(&mut w, &m.annotations);
    let _ = writeln!(w, "Finalizers:\t{}", go_list(&m.finalizers));
    let _ = writeln!(w, "StorageClass:\t{}", pv.spec.storage_class_name);
    match m.deletion_ms {
        Some(del) => {
            let _ = writeln!(
                w,
                "Status:\tTerminating (lasts {})",
                crate::time::human_duration_since(del, rd.now())
            );
        }
        None => {
            let _ = writeln!(w, "Status:\t{}", pv.status.phase);
        }
    }
    let claim = pv
        .spec
        .claim_ref
        .as_ref()
        .map(|r| format!("{}/{}", r.namespace, r.name))
        .unwrap_or_default();
    let _ = writeln!(w, "Claim:\t{claim}");
    let _ = writeln!(
        w,
        "Reclaim Policy:\t{}",
        pv.spec.persistent_volume_reclaim_policy
    );
    let _ = writeln!(
        w,
        "Access Modes:\t{}",
        crate::printers::get::access_modes_string(&pv.spec.access_modes)
    );
    if let Some(mode) = &pv.spec.volume_mode {
        let _ = writeln!(w, "VolumeMode:\t{mode}");
    }
    let _ = writeln!(
        w,
        "Capacity:\t{}",
        pv.spec.capacity.get("storage").cloned().unwrap_or_default()
    );
    let _ = writeln!(w, "Node Affinity:\t<none>");
    let _ = writeln!(w, "Message:\t{}", pv.status.message);
    let _ = writeln!(w, "Source:");
    let text = |v: &serde_json::Value, k: &str| {
        v.get(k)
            .map(|x| x.as_str().map_or_else(|| x.to_string(), str::to_string))
            .unwrap_or_default()
    };
    if let Some(csi) = pv.spec.source.get("csi") {
        let _ = writeln!(
            w,
            "    Type:\tCSI (a Container Storage Interface (CSI) volume source)"
        );
        let _ = writeln!(w, "    Driver:\t{}", text(csi, "driver"));
        let _ = writeln!(w, "    FSType:\t{}", text(csi, "fsType"));
        let _ = writeln!(w, "    VolumeHandle:\t{}", text(csi, "volumeHandle"));
        let ro = csi
            .get("readOnly")
            .and_then(|b| b.as_bool())
            .unwrap_or(false);
        let _ = writeln!(w, "    ReadOnly:\t{ro}");
        let _ = writeln!(w, "    VolumeAttributes:\t<none>");
    } else if let Some(hp) = pv.spec.source.get("hostPath") {
        let _ = writeln!(w, "    Type:\tHostPath (bare host directory volume)");
        let _ = writeln!(w, "    Path:\t{}", text(hp, "path"));
        let ty = text(hp, "type");
        let _ = writeln!(
            w,
            "    HostPathType:\t{}",
            if hp.get("type").is_none() {
                "<none>".to_string()
            } else {
                ty
            }
        );
    }
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}

/// `describeStorageClass`.
pub(super) fn describe_storage_class(rd: &mut dyn Reader, sc: &StorageClass) -> String {
    let mut w = String::new();
    let m = &sc.metadata;
    let fmt = |map: &StringMap| {
        if map.is_empty() {
            "<none>".to_string()
        } else {
            map.iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect::<Vec<_>>()
                .join(",")
        }
    };
    let _ = writeln!(w, "Name:\t{}", m.name);
    let _ = writeln!(
        w,
        "IsDefaultClass:\t{}",
        if sc.is_default() { "Yes" } else { "No" }
    );
    let _ = writeln!(w, "Annotations:\t{}", fmt(&m.annotations));
    let _ = writeln!(w, "Provisioner:\t{}", sc.provisioner);
    let _ = writeln!(w, "Parameters:\t{}", fmt(&sc.parameters));
    let _ = writeln!(
        w,
        "AllowVolumeExpansion:\t{}",
        match sc.allow_volume_expansion {
            Some(true) => "True",
            Some(false) => "False",
            None => "<unset>",
        }
    );
    if sc.mount_options.is_empty() {
        let _ = writeln!(w, "MountOptions:\t<none>");
    } else {
        let _ = writeln!(w, "MountOptions:");
        for o in &sc.mount_options {
            let _ = writeln!(w, "  {o}");
        }
    }
    let _ = writeln!(w, "ReclaimPolicy:\t{}", sc.reclaim_policy);
    let _ = writeln!(w, "VolumeBindingMode:\t{}", sc.volume_binding_mode);
    events(&mut w, rd, &m.uid);
    tabwriter::format(&w, 0, 2)
}
