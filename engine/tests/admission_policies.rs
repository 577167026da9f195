//! ValidatingAdmissionPolicy and its binding (`apiserver::policy`): the Kubernetes
//! docs' examples give upstream's words; each action (Deny, Warn, Audit), each
//! reason's code, failurePolicy on an error, parameters and their absence, the
//! binding's own validation, and what a rule on `deployments` does not cover.

mod common;

use common::*;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

const POLICY: &str = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "demo-policy.example.com"
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups:   ["apps"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments"]
  validations:
    - expression: "object.spec.replicas <= 5"
"#;

fn binding(actions: &str) -> String {
    format!(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: "demo-binding-test.example.com"
spec:
  policyName: "demo-policy.example.com"
  validationActions: {actions}
  matchResources:
    namespaceSelector:
      matchLabels:
        environment: test
"#
    )
}

fn cluster(policy: &str, actions: &str) -> Cluster {
    let mut c = Cluster::new(1);
    sh(&mut c, "kubectl label namespace default environment=test");
    apply(&mut c, policy);
    apply(&mut c, &binding(actions));
    c
}

fn fails(c: &mut Cluster, line: &str) -> String {
    let o = run(c, line, None, &NoFiles);
    assert!(!o.ok, "{line} should fail: {}", o.output);
    o.output.trim_end().to_string()
}

#[test]
fn the_docs_example_denies_with_upstreams_words() {
    let mut c = cluster(POLICY, "[Deny]");
    assert_eq!(
        fails(&mut c, "kubectl create deployment nginx --image=nginx --replicas=7"),
        "error: failed to create deployment: deployments.apps \"nginx\" is forbidden: ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com' denied request: failed expression: object.spec.replicas <= 5"
    );
    sh(
        &mut c,
        "kubectl create deployment nginx --image=nginx --replicas=3",
    );
    let trace = sh(&mut c, "sim expect request/last {.code} == 201");
    assert!(trace.starts_with("ok"), "{trace}");
    // `kubectl scale` writes deployments/scale: a rule on `deployments` does not cover it.
    sh(&mut c, "kubectl scale deployment nginx --replicas=9");
    // An update of the object itself is covered: 422, reason Invalid.
    let out = fails(
        &mut c,
        "kubectl set image deployment/nginx nginx=nginx:1.27 --dry-run=none",
    );
    assert!(
        out.contains("The deployments \"nginx\" is invalid: : ValidatingAdmissionPolicy"),
        "{out}"
    );
    let code = sh(&mut c, "sim expect request/last {.code} == 422");
    assert!(code.starts_with("ok"), "{code}");
    let at = sh(
        &mut c,
        "sim expect request/last {.refusedAt} == 'validating admission'",
    );
    assert!(at.starts_with("ok"), "{at}");
}

#[test]
fn a_namespace_the_binding_does_not_select_is_not_checked() {
    let mut c = cluster(POLICY, "[Deny]");
    sh(&mut c, "kubectl create namespace prod");
    sh(
        &mut c,
        "kubectl create deployment big -n prod --image=nginx --replicas=7",
    );
}

#[test]
fn warn_lets_the_request_through_with_a_warning_and_audit_records_the_first_failure() {
    let mut c = cluster(POLICY, "[Warn, Audit]");
    let out = sh(
        &mut c,
        "kubectl create deployment nginx --image=nginx --replicas=7",
    );
    assert_eq!(
        out.trim_end(),
        "Warning: Validation failed for ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-binding-test.example.com': failed expression: object.spec.replicas <= 5\ndeployment.apps/nginx created"
    );
    let trace = sh(&mut c, "sim trace request/last");
    assert!(
        trace.contains("audit annotation validation.policy.admission.k8s.io/validation_failure: [{\"binding\":\"demo-binding-test.example.com\",\"expressionIndex\":0,\"message\":\"failed expression: object.spec.replicas <= 5\",\"policy\":\"demo-policy.example.com\",\"validationActions\":[\"Warn\",\"Audit\"]}]"),
        "{trace}"
    );
}

#[test]
fn a_reason_sets_the_code_and_a_message_expression_the_message() {
    let policy = POLICY.replace(
        "    - expression: \"object.spec.replicas <= 5\"\n",
        "    - expression: \"object.spec.replicas <= 5\"\n      messageExpression: \"'object.spec.replicas must be no greater than ' + string(5)\"\n      reason: Forbidden\n",
    );
    let mut c = cluster(&policy, "[Deny]");
    let out = fails(
        &mut c,
        "kubectl create deployment nginx --image=nginx --replicas=7",
    );
    assert!(
        out.ends_with("denied request: object.spec.replicas must be no greater than 5"),
        "{out}"
    );
    let code = sh(&mut c, "sim expect request/last {.code} == 403");
    assert!(code.starts_with("ok"), "{code}");
}

#[test]
fn an_expression_that_errs_denies_under_fail_and_passes_under_ignore() {
    let policy = POLICY.replace("object.spec.replicas <= 5", "object.spec.xyz == 1");
    let mut c = cluster(&policy, "[Deny]");
    let out = fails(&mut c, "kubectl create deployment nginx --image=nginx");
    assert!(
        out.ends_with(
            "denied request: expression 'object.spec.xyz == 1' resulted in error: no such key: xyz"
        ),
        "{out}"
    );
    let ignore = policy.replace("failurePolicy: Fail", "failurePolicy: Ignore");
    let mut c = cluster(&ignore, "[Deny]");
    sh(&mut c, "kubectl create deployment nginx --image=nginx");
}

#[test]
fn parameters_come_from_the_bound_object_and_a_missing_one_denies_with_deny() {
    let policy = r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: replicalimit-policy.example.com
spec:
  failurePolicy: Fail
  paramKind:
    apiVersion: v1
    kind: ConfigMap
  matchConstraints:
    resourceRules:
    - apiGroups: ["apps"]
      apiVersions: ["v1"]
      operations: ["CREATE", "UPDATE"]
      resources: ["deployments"]
  validations:
  - expression: "object.spec.replicas <= int(params.data.maxReplicas)"
    messageExpression: "'object.spec.replicas must be no greater than ' + params.data.maxReplicas"
    reason: Invalid
"#;
    let mut c = Cluster::new(1);
    apply(&mut c, policy);
    apply(
        &mut c,
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: replicalimit-binding
spec:
  policyName: replicalimit-policy.example.com
  validationActions: [Deny]
  paramRef:
    name: replica-limit
    namespace: default
    parameterNotFoundAction: Deny
"#,
    );
    let out = fails(&mut c, "kubectl create deployment nginx --image=nginx");
    assert!(
        out.ends_with("denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction"),
        "{out}"
    );
    sh(
        &mut c,
        "kubectl create configmap replica-limit --from-literal=maxReplicas=3",
    );
    let out = fails(
        &mut c,
        "kubectl create deployment nginx --image=nginx --replicas=4",
    );
    assert!(
        out.ends_with("denied request: object.spec.replicas must be no greater than 3"),
        "{out}"
    );
    sh(
        &mut c,
        "kubectl create deployment nginx --image=nginx --replicas=3",
    );
    sh(&mut c, "kubectl get validatingadmissionpolicybindings");
    let get = sh(&mut c, "kubectl get validatingadmissionpolicybindings");
    assert_eq!(
        get.lines()
            .nth(1)
            .unwrap()
            .split_whitespace()
            .take(3)
            .collect::<Vec<_>>(),
        [
            "replicalimit-binding",
            "replicalimit-policy.example.com",
            "default/replica-limit"
        ]
    );
}

#[test]
fn the_binding_and_the_policy_are_validated_as_upstream_words_it() {
    let mut c = Cluster::new(1);
    let o = run(
        &mut c,
        "kubectl apply -f -",
        Some(&binding("[Deny, Warn]")),
        &NoFiles,
    );
    assert!(!o.ok);
    assert!(
        o.output.contains("spec.validationActions: Invalid value: []admissionregistration.ValidationAction{\"Deny\", \"Warn\"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"),
        "{}",
        o.output
    );
    let o = run(&mut c, "kubectl apply -f -", Some(&binding("[]")), &NoFiles);
    assert!(
        o.output.contains(
            "spec.validationActions: Required value: at least one validation action is required"
        ),
        "{}",
        o.output
    );
    let bad = POLICY.replace("object.spec.replicas <= 5", "object.spec.replicas <=");
    let o = run(&mut c, "kubectl apply -f -", Some(&bad), &NoFiles);
    assert!(
        o.output.contains("spec.validations[0].expression: Invalid value: \"object.spec.replicas <=\": compilation failed: "),
        "{}",
        o.output
    );
}

#[test]
fn a_delete_is_checked_against_the_old_object() {
    let policy = POLICY
        .replace(
            "operations:  [\"CREATE\", \"UPDATE\"]",
            "operations:  [\"DELETE\"]",
        )
        .replace(
            "object.spec.replicas <= 5",
            "!has(oldObject.metadata.labels) || !('protected' in oldObject.metadata.labels)",
        );
    let mut c = cluster(&policy, "[Deny]");
    sh(&mut c, "kubectl create deployment keep --image=nginx");
    sh(&mut c, "kubectl label deployment keep protected=yes");
    let out = fails(&mut c, "kubectl delete deployment keep");
    assert!(out.contains("denied request: failed expression: "), "{out}");
    sh(&mut c, "kubectl label deployment keep protected-");
    sh(&mut c, "kubectl delete deployment keep");
}
