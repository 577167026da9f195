//! ValidatingWebhookConfiguration (`validateValidatingWebhookConfiguration`,
//! `validateValidatingWebhook`, `validateAdmissionReviewVersions` in
//! `pkg/apis/admissionregistration/validation/validation.go`; `ValidateWebhookURL`
//! and `ValidateWebhookService` in `staging/src/k8s.io/apiserver/pkg/util/webhook`).

use super::admissionregistration::{validate_match_conditions, validate_rule};
use super::meta::validate_label_selector;
use super::names::{dns1035_label_errors, subdomain_errors};
use crate::api::*;

/// The AdmissionReview versions the API server speaks.
const ACCEPTED_REVIEW_VERSIONS: &str = "v1, v1beta1";

/// Every webhook of the configuration, and their names unique.
pub(super) fn validate_webhook_configuration(
    c: &mut Vec<String>,
    w: &ValidatingWebhookConfiguration,
) {
    let mut names = std::collections::BTreeSet::new();
    for (i, hook) in w.webhooks.iter().enumerate() {
        let p = format!("webhooks[{i}]");
        validate_webhook(c, &p, hook);
        validate_review_versions(c, &format!("{p}.admissionReviewVersions"), hook);
        if !hook.name.is_empty() && !names.insert(hook.name.as_str()) {
            c.push(format!("{p}.name: Duplicate value: {:?}", hook.name));
        }
    }
}

/// `validateValidatingWebhook`.
fn validate_webhook(c: &mut Vec<String>, p: &str, hook: &ValidatingWebhook) {
    fully_qualified_name(c, &format!("{p}.name"), &hook.name);
    for (i, r) in hook.rules.iter().enumerate() {
        validate_rule(c, &format!("{p}.rules[{i}]"), &r.into());
    }
    let supported = |c: &mut Vec<String>, field: &str, v: &Option<String>, ok: &[&str]| {
        if let Some(v) = v {
            if !ok.contains(&v.as_str()) {
                let list: Vec<String> = ok.iter().map(|x| format!("{x:?}")).collect();
                c.push(format!(
                    "{p}.{field}: Unsupported value: {v:?}: supported values: {}",
                    list.join(", ")
                ));
            }
        }
    };
    supported(
        c,
        "failurePolicy",
        &hook.failure_policy,
        &["Fail", "Ignore"],
    );
    supported(
        c,
        "matchPolicy",
        &hook.match_policy,
        &["Equivalent", "Exact"],
    );
    match &hook.side_effects {
        None => c.push(format!(
            "{p}.sideEffects: Required value: must specify one of None, NoneOnDryRun"
        )),
        Some(_) => supported(
            c,
            "sideEffects",
            &hook.side_effects,
            &["None", "NoneOnDryRun"],
        ),
    }
    if let Some(t) = hook.timeout_seconds {
        if !(1..=30).contains(&t) {
            c.push(format!(
                "{p}.timeoutSeconds: Invalid value: {t}: the timeout value must be between 1 and 30 seconds"
            ));
        }
    }
    if let Some(sel) = &hook.namespace_selector {
        validate_label_selector(c, sel, &format!("{p}.namespaceSelector"));
    }
    if let Some(sel) = &hook.object_selector {
        validate_label_selector(c, sel, &format!("{p}.objectSelector"));
    }
    let cc = &hook.client_config;
    match (&cc.url, &cc.service) {
        (Some(url), None) => webhook_url(c, &format!("{p}.clientConfig.url"), url),
        (None, Some(s)) => webhook_service(c, &format!("{p}.clientConfig.service"), s),
        _ => c.push(format!(
            "{p}.clientConfig: Required value: exactly one of url or service is required"
        )),
    }
    validate_match_conditions(c, &format!("{p}.matchConditions"), &hook.match_conditions);
}

/// `IsFullyQualifiedName`: a DNS subdomain of at least three segments.
fn fully_qualified_name(c: &mut Vec<String>, p: &str, name: &str) {
    if name.is_empty() {
        return c.push(format!("{p}: Required value"));
    }
    let name = name.strip_suffix('.').unwrap_or(name);
    let errs = subdomain_errors(name);
    if !errs.is_empty() {
        return c.push(format!("{p}: Invalid value: {name:?}: {}", errs.join(",")));
    }
    if name.split('.').count() < 3 {
        c.push(format!(
            "{p}: Invalid value: {name:?}: should be a domain with at least three segments separated by dots"
        ));
    }
}

/// `validateAdmissionReviewVersions`: at least one, no repeats, DNS labels, and one the
/// API server speaks.
fn validate_review_versions(c: &mut Vec<String>, p: &str, hook: &ValidatingWebhook) {
    let versions = &hook.admission_review_versions;
    if versions.is_empty() {
        return c.push(format!(
            "{p}: Required value: must specify one of {ACCEPTED_REVIEW_VERSIONS}"
        ));
    }
    let mut seen = std::collections::BTreeSet::new();
    for (i, v) in versions.iter().enumerate() {
        if !seen.insert(v.as_str()) {
            c.push(format!("{p}[{i}]: Invalid value: {v:?}: duplicate version"));
            continue;
        }
        for e in dns1035_label_errors(v) {
            c.push(format!("{p}[{i}]: Invalid value: {v:?}: {e}"));
        }
    }
    if !versions.iter().any(|v| v == "v1" || v == "v1beta1") {
        let list: Vec<String> = versions.iter().map(|v| format!("{v:?}")).collect();
        c.push(format!(
            "{p}: Invalid value: []string{{{}}}: must include at least one of {ACCEPTED_REVIEW_VERSIONS}",
            list.join(", ")
        ));
    }
}

/// `ValidateWebhookURL` with https forced.
fn webhook_url(c: &mut Vec<String>, p: &str, url: &str) {
    const FORM: &str = "; desired format: https://host[/path]";
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let host = rest.split(['/', '?', '#']).next().unwrap_or_default();
    if scheme != "https" {
        c.push(format!(
            "{p}: Invalid value: {scheme:?}: 'https' is the only allowed URL scheme{FORM}"
        ));
    }
    if host.is_empty() || !url.contains("://") {
        c.push(format!(
            "{p}: Invalid value: \"\": host must be specified{FORM}"
        ));
    }
    if let Some((user, _)) = host.split_once('@') {
        c.push(format!(
            "{p}: Invalid value: {user:?}: user information is not permitted in the URL"
        ));
    }
    if let Some((_, fragment)) = rest.split_once('#') {
        if !fragment.is_empty() {
            c.push(format!(
                "{p}: Invalid value: {fragment:?}: fragments are not permitted in the URL"
            ));
        }
    }
    let before_fragment = rest.split('#').next().unwrap_or_default();
    if let Some((_, query)) = before_fragment.split_once('?') {
        if !query.is_empty() {
            c.push(format!(
                "{p}: Invalid value: {query:?}: query parameters are not permitted in the URL"
            ));
        }
    }
}

/// `ValidateWebhookService`: a name, a namespace, a port, and a path of DNS
/// subdomain segments.
fn webhook_service(c: &mut Vec<String>, p: &str, s: &ServiceReference) {
    if s.name.is_empty() {
        c.push(format!(
            "{p}.name: Required value: service name is required"
        ));
    }
    if s.namespace.is_empty() {
        c.push(format!(
            "{p}.namespace: Required value: service namespace is required"
        ));
    }
    let port = s.port.unwrap_or(443);
    if !(1..=65535).contains(&port) {
        c.push(format!(
            "{p}.port: Invalid value: {port}: port is not valid: must be between 1 and 65535, inclusive"
        ));
    }
    let Some(path) = &s.path else {
        return;
    };
    if path.is_empty() || path == "/" {
        return;
    }
    if path == "//" {
        return c.push(format!(
            "{p}.path: Invalid value: {path:?}: segment[0] may not be empty"
        ));
    }
    if !path.starts_with('/') {
        c.push(format!(
            "{p}.path: Invalid value: {path:?}: must start with a '/'"
        ));
    }
    let rest = path.get(1..).unwrap_or_default();
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    for (i, step) in rest.split('/').enumerate() {
        if step.is_empty() {
            c.push(format!(
                "{p}.path: Invalid value: {path:?}: segment[{i}] may not be empty"
            ));
            continue;
        }
        for e in subdomain_errors(step) {
            c.push(format!(
                "{p}.path: Invalid value: {path:?}: segment[{i}]: {e}"
            ));
        }
    }
}
