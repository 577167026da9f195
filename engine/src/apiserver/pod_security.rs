//! Pod Security admission: the namespace's `pod-security.kubernetes.io/*` labels name
//! a level (privileged, baseline, restricted) per mode. `enforce` refuses a Pod that
//! breaks its level; `warn` answers with a warning (kubectl prints `Warning: …`);
//! workload objects (Deployments, ReplicaSets) are never refused, only warned about,
//! and their Pods are refused when a controller creates them. Making a namespace's
//! `enforce` stricter warns about the Pods already there and changes nothing.
//!
//! The checks are upstream's, in its order (baseline's IDs sorted, then restricted's),
//! with their reasons and details word for word: `violates PodSecurity
//! "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set
//! securityContext.allowPrivilegeEscalation=false), …`.
//!
//! Upstream: `staging/src/k8s.io/pod-security-admission/` — `api/helpers.go`
//! (`ParseLevel`, `ParseVersion`, `PolicyToEvaluate` and its warn defaulting),
//! `admission/admission.go` (`ValidateNamespace`, `ValidatePod`,
//! `ValidatePodController`, `EvaluatePod`, `EvaluatePodsInNamespace`,
//! `isSignificantPodUpdate`), `policy/checks.go` (`ForbiddenDetail`),
//! `policy/registry.go` (check order, overrides), `policy/check_*.go`.
//!
//! Simplifications: the checks are v1.32's (what `latest` and every version from
//! v1.32 run); an older `*-version` label is shown as written and keeps the
//! version-dependent parts kubeplay models (the sysctl lists, SELinux's
//! `container_engine_t`, the Windows exemptions from v1.25) — the checks that did not
//! yet exist before v1.22 still run. `audit` is parsed and validated; kubeplay keeps no
//! audit log to annotate. No exemptions (upstream's default configuration has none).

use crate::api::*;
use serde_json::Value;
use std::collections::BTreeSet;

/// The label prefix.
pub const LABEL_PREFIX: &str = "pod-security.kubernetes.io/";

/// A Pod Security Standard level.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    /// Anything goes.
    Privileged,
    /// No known privilege escalation.
    Baseline,
    /// Hardened.
    Restricted,
}

impl Level {
    fn name(self) -> &'static str {
        match self {
            Level::Privileged => "privileged",
            Level::Baseline => "baseline",
            Level::Restricted => "restricted",
        }
    }
}

/// A level and the version of the standard it is read at, as labelled.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelVersion {
    /// The level.
    pub level: Level,
    /// `None`: latest; `Some(n)`: `v1.n`.
    pub minor: Option<u32>,
}

impl LevelVersion {
    const DEFAULT: LevelVersion = LevelVersion {
        level: Level::Privileged,
        minor: None,
    };

    /// `restricted:latest`, `baseline:v1.29`.
    pub fn label(&self) -> String {
        match self.minor {
            None => format!("{}:latest", self.level.name()),
            Some(m) => format!("{}:v1.{m}", self.level.name()),
        }
    }

    /// The minor version whose checks run (latest is v1.32's checks).
    fn effective_minor(&self) -> u32 {
        self.minor.map_or(32, |m| m.min(32))
    }
}

/// The three modes' levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// Refuse Pods.
    pub enforce: LevelVersion,
    /// Annotate the audit log.
    pub audit: LevelVersion,
    /// Warn the client.
    pub warn: LevelVersion,
}

/// `ParseLevel`.
fn parse_level(v: &str) -> Result<Level, &'static str> {
    match v {
        "privileged" => Ok(Level::Privileged),
        "baseline" => Ok(Level::Baseline),
        "restricted" => Ok(Level::Restricted),
        _ => Err("must be one of privileged, baseline, restricted"),
    }
}

/// `ParseVersion`: `latest` or `v1.N` (no leading zero).
fn parse_version(v: &str) -> Result<Option<u32>, &'static str> {
    const BAD: &str = "must be \"latest\" or \"v1.x\"";
    if v == "latest" {
        return Ok(None);
    }
    let n = v.strip_prefix("v1.").ok_or(BAD)?;
    if n.is_empty() || !n.bytes().all(|b| b.is_ascii_digit()) || (n.len() > 1 && n.starts_with('0'))
    {
        return Err(BAD);
    }
    n.parse().map(Some).map_err(|_| BAD)
}

/// `PolicyToEvaluate`: the policy the labels give, and the field errors of bad labels
/// (`metadata.labels[…]: Invalid value: "x": must be …`), in upstream's order.
pub fn policy_to_evaluate(labels: &StringMap) -> (Policy, Vec<String>) {
    let mut errs = Vec::new();
    let mut p = Policy {
        enforce: LevelVersion::DEFAULT,
        audit: LevelVersion::DEFAULT,
        warn: LevelVersion::DEFAULT,
    };
    let mut invalid = |key: &str, value: &str, why: &str| {
        errs.push(format!(
            "metadata.labels[{LABEL_PREFIX}{key}]: Invalid value: \"{value}\": {why}"
        ))
    };
    let mut has_enforce_level = false;
    let (mut has_warn_level, mut has_warn_version) = (false, false);
    for (mode, lv) in [
        ("enforce", &mut p.enforce),
        ("audit", &mut p.audit),
        ("warn", &mut p.warn),
    ] {
        if let Some(v) = labels.get(&format!("{LABEL_PREFIX}{mode}")) {
            match parse_level(v) {
                Ok(l) => {
                    lv.level = l;
                    has_enforce_level |= mode == "enforce";
                    has_warn_level |= mode == "warn";
                }
                Err(why) => {
                    // A bad enforce level fails closed; audit and warn fail open.
                    lv.level = if mode == "enforce" {
                        Level::Restricted
                    } else {
                        Level::Privileged
                    };
                    invalid(mode, v, why);
                }
            }
        }
        if let Some(v) = labels.get(&format!("{LABEL_PREFIX}{mode}-version")) {
            has_warn_version |= mode == "warn";
            match parse_version(v) {
                Ok(m) => lv.minor = m,
                Err(why) => invalid(&format!("{mode}-version"), v, why),
            }
        }
    }
    // Warn defaults to an explicitly stricter enforce level (and its version).
    if !has_warn_level && has_enforce_level && p.enforce.level > p.warn.level {
        p.warn.level = p.enforce.level;
        if !has_warn_version {
            p.warn.minor = p.enforce.minor;
        }
    }
    (p, errs)
}

/// Whether any label of the namespace is a Pod Security one.
pub fn labelled(labels: &StringMap) -> bool {
    labels
        .range(LABEL_PREFIX.to_string()..)
        .next()
        .is_some_and(|(k, _)| k.starts_with(LABEL_PREFIX))
}

/// `joinQuote`.
fn join_quote<S: AsRef<str>>(items: &[S]) -> String {
    if items.is_empty() {
        return String::new();
    }
    let v: Vec<&str> = items.iter().map(AsRef::as_ref).collect();
    format!("\"{}\"", v.join("\", \""))
}

/// `pluralize`.
fn pluralize<'a>(singular: &'a str, plural: &'a str, n: usize) -> &'a str {
    if n == 1 {
        singular
    } else {
        plural
    }
}

/// `container "a"` / `containers "a", "b"`.
fn containers_phrase(names: &[String]) -> String {
    format!(
        "{} {}",
        pluralize("container", "containers", names.len()),
        join_quote(names)
    )
}

/// The setters of a value the Pod level and its containers may set: `pod`,
/// `container "a"` / `containers "a", "b"`, as the checks join them with " and ".
fn setters(pod: bool, names: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    if pod {
        out.push("pod".to_string());
    }
    if !names.is_empty() {
        out.push(containers_phrase(names));
    }
    out
}

/// Where `securityContext.<field>.type` (an AppArmor or seccomp profile) is set to
/// neither `RuntimeDefault` nor `Localhost`: the setters and the values set.
fn bad_profile_type(v: &View, field: &str) -> (Vec<String>, BTreeSet<String>) {
    let mut bad = BTreeSet::new();
    let mut check = |sc: &Value| match sc[field]["type"].as_str() {
        Some(t) if !seccomp_ok(t) => {
            bad.insert(t.to_string());
            true
        }
        _ => false,
    };
    let pod = check(v.pod_sc());
    let names: Vec<String> = v
        .containers()
        .filter(|(_, sc)| check(sc))
        .map(|(n, _)| n.to_string())
        .collect();
    (setters(pod, &names), bad)
}

/// A Pod spec as the checks read it: the JSON of the spec, containers in upstream's
/// visiting order (init containers, then containers).
struct View {
    spec: Value,
    annotations: StringMap,
}

impl View {
    fn pod_sc(&self) -> &Value {
        &self.spec["securityContext"]
    }

    fn containers(&self) -> impl Iterator<Item = (&str, &Value)> {
        let list = |k: &str| {
            self.spec[k]
                .as_array()
                .map(Vec::as_slice)
                .unwrap_or_default()
                .iter()
        };
        list("initContainers")
            .chain(list("containers"))
            .map(|c| (c["name"].as_str().unwrap_or(""), &c["securityContext"]))
    }

    fn windows(&self) -> bool {
        self.spec["os"]["name"].as_str() == Some("windows")
    }
}

type Failure = (String, String);

fn fail(reason: impl Into<String>, detail: impl Into<String>) -> Option<Failure> {
    Some((reason.into(), detail.into()))
}

/// `appArmorProfile`.
fn app_armor(v: &View) -> Option<Failure> {
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

fn strings(v: &Value) -> impl Iterator<Item = &str> {
    v.as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(Value::as_str)
}

/// `capabilities_baseline`.
fn capabilities_baseline(v: &View) -> Option<Failure> {
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
fn host_namespaces(v: &View) -> Option<Failure> {
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

fn volumes(v: &View) -> impl Iterator<Item = (&str, &serde_json::Map<String, Value>)> {
    v.spec["volumes"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default()
        .iter()
        .filter_map(|vol| Some((vol["name"].as_str().unwrap_or(""), vol.as_object()?)))
}

/// `hostPathVolumes`.
fn host_path_volumes(v: &View) -> Option<Failure> {
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
fn host_ports(v: &View) -> Option<Failure> {
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
fn privileged(v: &View) -> Option<Failure> {
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
fn proc_mount(v: &View) -> Option<Failure> {
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
fn se_linux_options(v: &View, minor: u32) -> Option<Failure> {
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

fn seccomp_ok(t: &str) -> bool {
    matches!(t, "RuntimeDefault" | "Localhost")
}

/// `seccompProfile_baseline`.
fn seccomp_baseline(v: &View) -> Option<Failure> {
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
fn sysctls(v: &View, minor: u32) -> Option<Failure> {
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
fn windows_host_process(v: &View) -> Option<Failure> {
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

/// `allowPrivilegeEscalation` (restricted).
fn allow_privilege_escalation(v: &View) -> Option<Failure> {
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
fn capabilities_restricted(v: &View) -> Option<Failure> {
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
fn restricted_volumes(v: &View) -> Option<Failure> {
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
fn run_as_non_root(v: &View) -> Option<Failure> {
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
fn run_as_user(v: &View) -> Option<Failure> {
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
fn seccomp_restricted(v: &View) -> Option<Failure> {
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

/// Every check of `lv`'s level, in upstream's order; the failures.
pub fn evaluate(lv: &LevelVersion, meta: &ObjectMeta, spec: &PodSpec) -> Vec<Failure> {
    if lv.level == Level::Privileged {
        return Vec::new();
    }
    let v = View {
        spec: serde_json::to_value(spec).unwrap_or(Value::Null),
        annotations: meta.annotations.clone(),
    };
    let minor = lv.effective_minor();
    let restricted = lv.level == Level::Restricted;
    // The restricted checks that stand in for windows-incapable ones skip Windows Pods
    // from v1.25.
    let windows_skip = v.windows() && minor >= 25;
    let mut out = Vec::new();
    // Baseline's IDs sorted byte-wise (capitals first: seLinuxOptions before
    // seccompProfile_baseline); restricted drops the three it overrides.
    out.extend(app_armor(&v));
    if !restricted {
        out.extend(capabilities_baseline(&v));
    }
    out.extend(host_namespaces(&v));
    if !restricted {
        out.extend(host_path_volumes(&v));
    }
    out.extend(host_ports(&v));
    out.extend(privileged(&v));
    out.extend(proc_mount(&v));
    out.extend(se_linux_options(&v, minor));
    if !restricted {
        out.extend(seccomp_baseline(&v));
    }
    out.extend(sysctls(&v, minor));
    out.extend(windows_host_process(&v));
    if restricted {
        if !windows_skip {
            out.extend(allow_privilege_escalation(&v));
            out.extend(capabilities_restricted(&v));
        }
        out.extend(restricted_volumes(&v));
        out.extend(run_as_non_root(&v));
        out.extend(run_as_user(&v));
        if !windows_skip {
            out.extend(seccomp_restricted(&v));
        }
    }
    out
}

/// `ForbiddenDetail`: `reason (detail), reason (detail)`.
pub fn forbidden_detail(failures: &[Failure]) -> String {
    failures
        .iter()
        .map(|(r, d)| {
            if d.is_empty() {
                r.clone()
            } else {
                format!("{r} ({d})")
            }
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// What admission decided about a Pod or a workload's template.
#[derive(Debug, Default, PartialEq)]
pub struct Decision {
    /// The refusal (`violates PodSecurity …`), for a Pod under `enforce`.
    pub refusal: Option<String>,
    /// The warnings for the client.
    pub warnings: Vec<String>,
}

/// `EvaluatePod`: `enforce` only for Pods; `warn` only when not refused.
pub fn evaluate_pod(policy: &Policy, meta: &ObjectMeta, spec: &PodSpec, enforce: bool) -> Decision {
    let mut d = Decision::default();
    if enforce {
        let f = evaluate(&policy.enforce, meta, spec);
        if !f.is_empty() {
            d.refusal = Some(format!(
                "violates PodSecurity \"{}\": {}",
                policy.enforce.label(),
                forbidden_detail(&f)
            ));
            return d;
        }
    }
    let f = evaluate(&policy.warn, meta, spec);
    if !f.is_empty() {
        d.warnings.push(format!(
            "would violate PodSecurity \"{}\": {}",
            policy.warn.label(),
            forbidden_detail(&f)
        ));
    }
    d
}

/// `isSignificantPodUpdate`: only a change of the containers' number or images is
/// evaluated again.
pub fn significant_pod_update(new: &PodSpec, old: &PodSpec) -> bool {
    let images = |cs: &[Container]| cs.iter().map(|c| c.image.clone()).collect::<Vec<_>>();
    new.containers.len() != old.containers.len()
        || new.init_containers.len() != old.init_containers.len()
        || images(&new.containers) != images(&old.containers)
        || images(&new.init_containers) != images(&old.init_containers)
}

/// Whether a namespace change from `old` to `new` policy makes the existing Pods be
/// checked (`ValidateNamespace`): a stricter enforce level, or another version.
pub fn recheck_existing(old: &Policy, new: &Policy) -> bool {
    if old.enforce == new.enforce || new.enforce.level == Level::Privileged {
        return false;
    }
    !(old.enforce.minor == new.enforce.minor && new.enforce.level <= old.enforce.level)
}

/// `EvaluatePodsInNamespace`: the warnings for the Pods already in the namespace that
/// the new enforce level would refuse, grouped by their reasons.
pub fn existing_pod_warnings(ns: &str, lv: &LevelVersion, pods: &[&Pod]) -> Vec<String> {
    // prioritizePods: one Pod per controller first, then the other replicas.
    let mut seen = BTreeSet::new();
    let (mut first, mut rest) = (Vec::new(), Vec::new());
    for p in pods {
        match p
            .metadata
            .owner_references
            .iter()
            .find(|o| o.controller == Some(true))
        {
            Some(o) if !seen.insert(o.uid.clone()) => rest.push(*p),
            _ => first.push(*p),
        }
    }
    first.extend(rest);
    const MAX_PODS: usize = 3000;
    let total = first.len();
    first.truncate(MAX_PODS);
    let mut groups: std::collections::BTreeMap<String, (String, usize)> = Default::default();
    for p in &first {
        let f = evaluate(lv, &p.metadata, &p.spec);
        if f.is_empty() {
            continue;
        }
        let reasons = f
            .iter()
            .map(|(r, _)| r.as_str())
            .collect::<Vec<_>>()
            .join(", ");
        let g = groups
            .entry(reasons)
            .or_insert_with(|| (p.metadata.name.clone(), 0));
        if p.metadata.name < g.0 {
            g.0 = p.metadata.name.clone();
        }
        g.1 += 1;
    }
    let mut out = Vec::new();
    if total > MAX_PODS {
        out.push(format!(
            "new PodSecurity enforce level only checked against the first {MAX_PODS} of {total} existing pods"
        ));
    }
    if groups.is_empty() {
        return out;
    }
    out.push(format!(
        "existing pods in namespace \"{ns}\" violate the new PodSecurity enforce level \"{}\"",
        lv.label()
    ));
    let mut lines: Vec<String> = groups
        .into_iter()
        .map(|(reasons, (name, n))| match n {
            1 => format!("{name}: {reasons}"),
            2 => format!("{name} (and 1 other pod): {reasons}"),
            n => format!("{name} (and {} other pods): {reasons}", n - 1),
        })
        .collect();
    lines.sort();
    out.extend(lines);
    out
}

impl super::Store {
    /// The Pod Security policy of namespace `ns`, when it has any of the labels.
    fn pod_security_policy(&self, ns: &str) -> Option<Policy> {
        let n = self.get::<Namespace>(&super::ObjKey::new("", ns))?;
        labelled(&n.metadata.labels).then(|| policy_to_evaluate(&n.metadata.labels).0)
    }

    /// The PodSecurity admission plugin for a create (`old` None) or an update of
    /// `obj`: refuses a Pod under `enforce`, validates a Namespace's labels, and
    /// returns its warnings when `warn` (kubectl's requests: the components' warnings go
    /// nowhere, as client-go's default handler only logs them).
    pub(super) fn admit_pod_security(
        &self,
        obj: &Object,
        old: Option<&Object>,
        warn: bool,
    ) -> Result<Vec<String>, super::ApiError> {
        let template = |o: &Object| -> Option<(ObjectMeta, PodSpec)> {
            match o {
                Object::Deployment(d) => Some((
                    d.spec.template.metadata.clone(),
                    d.spec.template.spec.clone(),
                )),
                Object::ReplicaSet(r) => Some((
                    r.spec.template.metadata.clone(),
                    r.spec.template.spec.clone(),
                )),
                _ => None,
            }
        };
        match obj {
            Object::Namespace(n) => {
                let was = old.map(|o| o.meta().labels.clone()).unwrap_or_default();
                if !labelled(&n.metadata.labels) && !labelled(&was) {
                    return Ok(Vec::new());
                }
                let (policy, errs) = policy_to_evaluate(&n.metadata.labels);
                let (old_policy, old_errs) = policy_to_evaluate(&was);
                // An update keeps the label errors it already had.
                if !errs.is_empty() && (old.is_none() || old_errs.is_empty() || old_errs != errs) {
                    return Err(super::ApiError::invalid(
                        Kind::Namespace,
                        &n.metadata.name,
                        &errs,
                    ));
                }
                if warn && old.is_some() && recheck_existing(&old_policy, &policy) {
                    let pods: Vec<&Pod> = self
                        .list::<Pod>()
                        .filter(|p| p.metadata.namespace == n.metadata.name)
                        .collect();
                    return Ok(existing_pod_warnings(
                        &n.metadata.name,
                        &policy.enforce,
                        &pods,
                    ));
                }
                Ok(Vec::new())
            }
            Object::Pod(p) => {
                let Some(policy) = self.pod_security_policy(&p.metadata.namespace) else {
                    return Ok(Vec::new());
                };
                if let Some(Object::Pod(o)) = old {
                    if !significant_pod_update(&p.spec, &o.spec) {
                        return Ok(Vec::new());
                    }
                }
                let d = evaluate_pod(&policy, &p.metadata, &p.spec, true);
                if let Some(why) = d.refusal {
                    return Err(super::ApiError {
                        code: 403,
                        reason: "Forbidden",
                        message: format!("pods \"{}\" is forbidden: {why}", p.metadata.name),
                        kubectl_message: None,
                    });
                }
                Ok(if warn { d.warnings } else { Vec::new() })
            }
            o => {
                if !warn {
                    return Ok(Vec::new());
                }
                let Some((meta, spec)) = template(o) else {
                    return Ok(Vec::new());
                };
                let Some(policy) = self.pod_security_policy(&o.meta().namespace) else {
                    return Ok(Vec::new());
                };
                Ok(evaluate_pod(&policy, &meta, &spec, false).warnings)
            }
        }
    }
}
