//! The restricted level's checks (`pod-security-admission/policy/check_*.go`):
//! hardening best practice on top of baseline — privilege escalation, dropped
//! capabilities, volume types, non-root users, a seccomp profile. Each returns
//! upstream's reason and detail word for word.

use super::helpers::{
    containers_phrase, fail, join_quote, pluralize, seccomp_ok, setters, strings, volumes, Failure,
    View,
};
use serde_json::Value;
use std::collections::BTreeSet;

/// `allowPrivilegeEscalation` (restricted).
pub(super) fn allow_privilege_escalation(v: &View) -> Option<Failure> {
    let names: Vec<String> = v
        .containers()
        .filter(|(_, sc)| sc["allowPrivilegeEscalation"].as_bool() != Some(false))
        .map(|(n, _)| n.to_string())
        .collect();
    if names.is_empty() {
        return None;
    }
    fail(
        "allowPrivilegeEscalation != false",
        format!(
            "{} must set securityContext.allowPrivilegeEscalation=false",
            containers_phrase(&names)
        ),
    )
}

/// `capabilities_restricted`.
pub(super) fn capabilities_restricted(v: &View) -> Option<Failure> {
    let mut no_drop = Vec::new();
    let mut bad_add = Vec::new();
    let mut caps = BTreeSet::new();
    for (name, sc) in v.containers() {
        if !strings(&sc["capabilities"]["drop"]).any(|c| c == "ALL") {
            no_drop.push(name.to_string());
        }
        let mut bad = false;
        for cap in strings(&sc["capabilities"]["add"]) {
            if cap != "NET_BIND_SERVICE" {
                caps.insert(cap.to_string());
                bad = true;
            }
        }
        if bad {
            bad_add.push(name.to_string());
        }
    }
    let mut parts = Vec::new();
    if !no_drop.is_empty() {
        parts.push(format!(
            "{} must set securityContext.capabilities.drop=[\"ALL\"]",
            containers_phrase(&no_drop)
        ));
    }
    if !bad_add.is_empty() {
        let caps: Vec<String> = caps.into_iter().collect();
        parts.push(format!(
            "{} must not include {} in securityContext.capabilities.add",
            containers_phrase(&bad_add),
            join_quote(&caps)
        ));
    }
    if parts.is_empty() {
        return None;
    }
    fail("unrestricted capabilities", parts.join("; "))
}

/// `restrictedVolumes`.
pub(super) fn restricted_volumes(v: &View) -> Option<Failure> {
    const ALLOWED: &[&str] = &[
        "configMap",
        "csi",
        "downwardAPI",
        "emptyDir",
        "ephemeral",
        "image",
        "persistentVolumeClaim",
        "projected",
        "secret",
    ];
    const KNOWN: &[&str] = &[
        "hostPath",
        "gcePersistentDisk",
        "awsElasticBlockStore",
        "gitRepo",
        "nfs",
        "iscsi",
        "glusterfs",
        "rbd",
        "flexVolume",
        "cinder",
        "cephfs",
        "flocker",
        "fc",
        "azureFile",
        "vsphereVolume",
        "quobyte",
        "azureDisk",
        "photonPersistentDisk",
        "portworxVolume",
        "scaleIO",
        "storageos",
    ];
    let mut names = Vec::new();
    let mut types = BTreeSet::new();
    for (name, m) in volumes(v) {
        let sources: Vec<&str> = m
            .iter()
            .filter(|(k, val)| k.as_str() != "name" && !val.is_null())
            .map(|(k, _)| k.as_str())
            .collect();
        if sources.iter().any(|s| ALLOWED.contains(s)) {
            continue;
        }
        let t = sources
            .iter()
            .find(|s| KNOWN.contains(s))
            .copied()
            .unwrap_or("unknown");
        names.push(name.to_string());
        types.insert(t.to_string());
    }
    if names.is_empty() {
        return None;
    }
    let types: Vec<String> = types.into_iter().collect();
    fail(
        "restricted volume types",
        format!(
            "{} {} {} {} {}",
            pluralize("volume", "volumes", names.len()),
            join_quote(&names),
            pluralize("uses", "use", names.len()),
            pluralize(
                "restricted volume type",
                "restricted volume types",
                types.len()
            ),
            join_quote(&types)
        ),
    )
}

/// `runAsNonRoot`.
pub(super) fn run_as_non_root(v: &View) -> Option<Failure> {
    let mut setters = Vec::new();
    let mut pod_true = false;
    match v.pod_sc()["runAsNonRoot"].as_bool() {
        Some(false) => setters.push("pod".to_string()),
        Some(true) => pod_true = true,
        None => {}
    }
    let (mut explicit, mut implicit) = (Vec::new(), Vec::new());
    for (name, sc) in v.containers() {
        match sc["runAsNonRoot"].as_bool() {
            Some(false) => explicit.push(name.to_string()),
            Some(true) => {}
            None if !pod_true => implicit.push(name.to_string()),
            None => {}
        }
    }
    if !explicit.is_empty() {
        setters.push(containers_phrase(&explicit));
    }
    if !setters.is_empty() {
        return fail(
            "runAsNonRoot != true",
            format!(
                "{} must not set securityContext.runAsNonRoot=false",
                setters.join(" and ")
            ),
        );
    }
    if implicit.is_empty() {
        return None;
    }
    fail(
        "runAsNonRoot != true",
        format!(
            "pod or {} must set securityContext.runAsNonRoot=true",
            containers_phrase(&implicit)
        ),
    )
}

/// `runAsUser`.
pub(super) fn run_as_user(v: &View) -> Option<Failure> {
    let zero = |sc: &Value| sc["runAsUser"].as_i64() == Some(0);
    let names: Vec<String> = v
        .containers()
        .filter(|(_, sc)| zero(sc))
        .map(|(n, _)| n.to_string())
        .collect();
    let setters = setters(zero(v.pod_sc()), &names);
    if setters.is_empty() {
        return None;
    }
    fail(
        "runAsUser=0",
        format!("{} must not set runAsUser=0", setters.join(" and ")),
    )
}

/// `seccompProfile_restricted`.
pub(super) fn seccomp_restricted(v: &View) -> Option<Failure> {
    let mut setters = Vec::new();
    let mut bad = BTreeSet::new();
    let mut pod_set = false;
    if let Some(t) = v.pod_sc()["seccompProfile"]["type"].as_str() {
        if seccomp_ok(t) {
            pod_set = true;
        } else {
            setters.push("pod".to_string());
            bad.insert(t.to_string());
        }
    }
    let (mut explicit, mut implicit) = (Vec::new(), Vec::new());
    for (name, sc) in v.containers() {
        match sc["seccompProfile"]["type"].as_str() {
            Some(t) if !seccomp_ok(t) => {
                explicit.push(name.to_string());
                bad.insert(t.to_string());
            }
            Some(_) => {}
            None if !pod_set => implicit.push(name.to_string()),
            None => {}
        }
    }
    if !explicit.is_empty() {
        setters.push(containers_phrase(&explicit));
    }
    if !setters.is_empty() {
        let bad: Vec<String> = bad.into_iter().collect();
        return fail(
            "seccompProfile",
            format!(
                "{} must not set securityContext.seccompProfile.type to {}",
                setters.join(" and "),
                join_quote(&bad)
            ),
        );
    }
    if implicit.is_empty() {
        return None;
    }
    fail(
        "seccompProfile",
        format!(
            "pod or {} must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\"",
            containers_phrase(&implicit)
        ),
    )
}
