//! The baseline level's checks (`pod-security-admission/policy/check_*.go`): no known
//! privilege escalation — AppArmor, capabilities, host namespaces, hostPath volumes,
//! host ports, privileged containers, procMount, SELinux, seccomp, sysctls, Windows
//! HostProcess. Each returns upstream's reason and detail word for word.

use super::helpers::{
    bad_profile_type, containers_phrase, fail, join_quote, pluralize, setters, strings, volumes,
    Failure, View,
};
use serde_json::Value;
use std::collections::BTreeSet;

/// `appArmorProfile`.
pub(super) fn app_armor(v: &View) -> Option<Failure> {
    let (mut setters, bad_types) = bad_profile_type(v, "appArmorProfile");
    let mut bad_annotations = Vec::new();
    for (k, val) in &v.annotations {
        if k.starts_with("container.apparmor.security.beta.kubernetes.io/")
            && !(val.is_empty() || val == "runtime/default" || val.starts_with("localhost/"))
        {
            bad_annotations.push(format!("{k}=\"{val}\""));
        }
    }
    if !bad_annotations.is_empty() {
        setters.push(pluralize("annotation", "annotations", bad_annotations.len()).to_string());
    }
    let values: Vec<String> = bad_types.into_iter().chain(bad_annotations).collect();
    if values.is_empty() {
        return None;
    }
    fail(
        pluralize(
            "forbidden AppArmor profile",
            "forbidden AppArmor profiles",
            values.len(),
        ),
        format!(
            "{} must not set AppArmor profile type to {}",
            setters.join(" and "),
            join_quote(&values)
        ),
    )
}

/// `capabilities_baseline`.
pub(super) fn capabilities_baseline(v: &View) -> Option<Failure> {
    const ALLOWED: &[&str] = &[
        "AUDIT_WRITE",
        "CHOWN",
        "DAC_OVERRIDE",
        "FOWNER",
        "FSETID",
        "KILL",
        "MKNOD",
        "NET_BIND_SERVICE",
        "SETFCAP",
        "SETGID",
        "SETPCAP",
        "SETUID",
        "SYS_CHROOT",
    ];
    let mut names = Vec::new();
    let mut caps = BTreeSet::new();
    for (name, sc) in v.containers() {
        let mut bad = false;
        for cap in strings(&sc["capabilities"]["add"]) {
            if !ALLOWED.contains(&cap) {
                caps.insert(cap.to_string());
                bad = true;
            }
        }
        if bad {
            names.push(name.to_string());
        }
    }
    if names.is_empty() {
        return None;
    }
    let caps: Vec<String> = caps.into_iter().collect();
    fail(
        "non-default capabilities",
        format!(
            "{} must not include {} in securityContext.capabilities.add",
            containers_phrase(&names),
            join_quote(&caps)
        ),
    )
}

/// `hostNamespaces`.
pub(super) fn host_namespaces(v: &View) -> Option<Failure> {
    let set: Vec<String> = ["hostNetwork", "hostPID", "hostIPC"]
        .into_iter()
        .filter(|k| v.spec[*k].as_bool() == Some(true))
        .map(|k| format!("{k}=true"))
        .collect();
    if set.is_empty() {
        return None;
    }
    fail("host namespaces", set.join(", "))
}

/// `hostPathVolumes`.
pub(super) fn host_path_volumes(v: &View) -> Option<Failure> {
    let names: Vec<String> = volumes(v)
        .filter(|(_, m)| m.get("hostPath").is_some_and(|h| !h.is_null()))
        .map(|(n, _)| n.to_string())
        .collect();
    if names.is_empty() {
        return None;
    }
    fail(
        "hostPath volumes",
        format!(
            "{} {}",
            pluralize("volume", "volumes", names.len()),
            join_quote(&names)
        ),
    )
}

/// `hostPorts`.
pub(super) fn host_ports(v: &View) -> Option<Failure> {
    let list = |k: &str| {
        v.spec[k]
            .as_array()
            .map(Vec::as_slice)
            .unwrap_or_default()
            .iter()
    };
    let mut names = Vec::new();
    let mut ports = BTreeSet::new();
    for c in list("initContainers").chain(list("containers")) {
        let mut bad = false;
        for p in c["ports"].as_array().map(Vec::as_slice).unwrap_or_default() {
            let hp = p["hostPort"].as_i64().unwrap_or(0);
            if hp != 0 {
                // sets.NewString: sorted as strings.
                ports.insert(hp.to_string());
                bad = true;
            }
        }
        if bad {
            names.push(c["name"].as_str().unwrap_or("").to_string());
        }
    }
    if names.is_empty() {
        return None;
    }
    let ports: Vec<String> = ports.into_iter().collect();
    fail(
        "hostPort",
        format!(
            "{} {} {} {} {}",
            pluralize("container", "containers", names.len()),
            join_quote(&names),
            pluralize("uses", "use", names.len()),
            pluralize("hostPort", "hostPorts", ports.len()),
            ports.join(", ")
        ),
    )
}

/// `privileged`.
pub(super) fn privileged(v: &View) -> Option<Failure> {
    let names: Vec<String> = v
        .containers()
        .filter(|(_, sc)| sc["privileged"].as_bool() == Some(true))
        .map(|(n, _)| n.to_string())
        .collect();
    if names.is_empty() {
        return None;
    }
    fail(
        "privileged",
        format!(
            "{} must not set securityContext.privileged=true",
            containers_phrase(&names)
        ),
    )
}

/// `procMount`.
pub(super) fn proc_mount(v: &View) -> Option<Failure> {
    let mut names = Vec::new();
    let mut kinds = BTreeSet::new();
    for (name, sc) in v.containers() {
        if let Some(t) = sc["procMount"].as_str() {
            if t != "Default" {
                names.push(name.to_string());
                kinds.insert(t.to_string());
            }
        }
    }
    if names.is_empty() {
        return None;
    }
    let kinds: Vec<String> = kinds.into_iter().collect();
    fail(
        "procMount",
        format!(
            "{} must not set securityContext.procMount to {}",
            containers_phrase(&names),
            join_quote(&kinds)
        ),
    )
}

/// `seLinuxOptions`.
pub(super) fn se_linux_options(v: &View, minor: u32) -> Option<Failure> {
    let ok_type = |t: &str| {
        matches!(
            t,
            "" | "container_t" | "container_init_t" | "container_kvm_t"
        ) || (t == "container_engine_t" && minor >= 31)
    };
    let mut bad_types = BTreeSet::new();
    let (mut user, mut role) = (false, false);
    let mut check = |o: &Value| -> bool {
        if o.is_null() {
            return false;
        }
        let mut bad = false;
        if let Some(t) = o["type"].as_str() {
            if !ok_type(t) {
                bad_types.insert(t.to_string());
                bad = true;
            }
        }
        if o["user"].as_str().is_some_and(|s| !s.is_empty()) {
            user = true;
            bad = true;
        }
        if o["role"].as_str().is_some_and(|s| !s.is_empty()) {
            role = true;
            bad = true;
        }
        bad
    };
    let pod = check(&v.pod_sc()["seLinuxOptions"]);
    let names: Vec<String> = v
        .containers()
        .filter(|(_, sc)| check(&sc["seLinuxOptions"]))
        .map(|(n, _)| n.to_string())
        .collect();
    let setters = setters(pod, &names);
    if setters.is_empty() {
        return None;
    }
    let mut data = Vec::new();
    if !bad_types.is_empty() {
        let t: Vec<String> = bad_types.into_iter().collect();
        data.push(format!(
            "{} {}",
            pluralize("type", "types", t.len()),
            join_quote(&t)
        ));
    }
    if user {
        data.push("user may not be set".to_string());
    }
    if role {
        data.push("role may not be set".to_string());
    }
    fail(
        "seLinuxOptions",
        format!(
            "{} set forbidden securityContext.seLinuxOptions: {}",
            setters.join(" and "),
            data.join("; ")
        ),
    )
}

/// `seccompProfile_baseline`.
pub(super) fn seccomp_baseline(v: &View) -> Option<Failure> {
    let (setters, bad) = bad_profile_type(v, "seccompProfile");
    if setters.is_empty() {
        return None;
    }
    let bad: Vec<String> = bad.into_iter().collect();
    fail(
        "seccompProfile",
        format!(
            "{} must not set securityContext.seccompProfile.type to {}",
            setters.join(" and "),
            join_quote(&bad)
        ),
    )
}

/// `sysctls`.
pub(super) fn sysctls(v: &View, minor: u32) -> Option<Failure> {
    let allowed = |n: &str| {
        matches!(
            n,
            "kernel.shm_rmid_forced"
                | "net.ipv4.ip_local_port_range"
                | "net.ipv4.tcp_syncookies"
                | "net.ipv4.ping_group_range"
                | "net.ipv4.ip_unprivileged_port_start"
        ) || (minor >= 27 && n == "net.ipv4.ip_local_reserved_ports")
            || (minor >= 29
                && matches!(
                    n,
                    "net.ipv4.tcp_keepalive_time"
                        | "net.ipv4.tcp_fin_timeout"
                        | "net.ipv4.tcp_keepalive_intvl"
                        | "net.ipv4.tcp_keepalive_probes"
                ))
            || (minor >= 32 && matches!(n, "net.ipv4.tcp_rmem" | "net.ipv4.tcp_wmem"))
    };
    let bad: Vec<&str> = v.pod_sc()["sysctls"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(|s| s["name"].as_str())
        .filter(|n| !allowed(n))
        .collect();
    if bad.is_empty() {
        return None;
    }
    fail("forbidden sysctls", bad.join(", "))
}

/// `windowsHostProcess`.
pub(super) fn windows_host_process(v: &View) -> Option<Failure> {
    let hp = |sc: &Value| sc["windowsOptions"]["hostProcess"].as_bool() == Some(true);
    let names: Vec<String> = v
        .containers()
        .filter(|(_, sc)| hp(sc))
        .map(|(n, _)| n.to_string())
        .collect();
    let setters = setters(hp(v.pod_sc()), &names);
    if setters.is_empty() {
        return None;
    }
    fail(
        "hostProcess",
        format!(
            "{} must not set securityContext.windowsOptions.hostProcess=true",
            setters.join(" and ")
        ),
    )
}
