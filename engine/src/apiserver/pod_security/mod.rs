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
//! Upstream: `staging/src/k8s.io/pod-security-admission/`, whose packages the files
//! follow: [`api`] is `api/helpers.go` (`ParseLevel`, `ParseVersion`,
//! `PolicyToEvaluate` and its warn defaulting); [`admission`] is
//! `admission/admission.go` (`ValidateNamespace`, `ValidatePod`,
//! `ValidatePodController`, `EvaluatePod`, `EvaluatePodsInNamespace`,
//! `isSignificantPodUpdate`); [`registry`] is `policy/registry.go` (check order,
//! overrides) with `policy/checks.go`'s `ForbiddenDetail`; [`check_baseline`] and
//! [`check_restricted`] are `policy/check_*.go` of each level, with the helpers they
//! share in [`helpers`] (`policy/helpers.go`).
//!
//! Simplifications: the checks are v1.32's (what `latest` and every version from
//! v1.32 run); an older `*-version` label is shown as written and keeps the
//! version-dependent parts kubeplay models (the sysctl lists, SELinux's
//! `container_engine_t`, the Windows exemptions from v1.25) — the checks that did not
//! yet exist before v1.22 still run. `audit` is parsed and validated; kubeplay keeps no
//! audit log to annotate. No exemptions (upstream's default configuration has none).

mod admission;
mod api;
mod check_baseline;
mod check_restricted;
mod helpers;
mod registry;

pub use admission::{
    evaluate_pod, existing_pod_warnings, recheck_existing, significant_pod_update, Decision,
};
pub use api::{labelled, policy_to_evaluate, Level, LevelVersion, Policy, LABEL_PREFIX};
pub use registry::{evaluate, forbidden_detail};
