//! The checks of a level in upstream's order (`pod-security-admission/policy/registry.go`:
//! baseline's IDs sorted, then restricted's, each overriding the baseline check it
//! replaces), and `ForbiddenDetail` (`policy/checks.go`).

use super::api::{Level, LevelVersion};
use super::check_baseline::*;
use super::check_restricted::*;
use super::helpers::{Failure, View};
use crate::api::*;
use serde_json::Value;

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
