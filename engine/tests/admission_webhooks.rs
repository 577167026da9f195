//! Validating admission webhooks (`apiserver::webhook`) served by the learner's own
//! code behind a Service (`sim webhook`): the AdmissionReview the server gets, a
//! refusal in the webhook's own status, each way a call fails in upstream's words
//! (no endpoint, no answer within timeoutSeconds, a server error, an answer that is
//! not an AdmissionReview), `failurePolicy: Ignore` with its audit annotation, the
//! selectors and match conditions, the configuration's validation, and a ReplicaSet
//! that cannot create Pods while its webhook is down.

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::controllers::script::runner;
use std::rc::Rc;

/// Refuses a Deployment of more than five replicas; warns above three.
const LIMIT: &str = r#"
function admit(review) {
  const req = review.request;
  const replicas = (req.object && req.object.spec && req.object.spec.replicas) || 0;
  console.log(`${req.operation} ${req.resource.resource} ${req.namespace}/${req.name} by ${req.userInfo.username}: ${replicas}`);
  const allowed = replicas <= 5;
  return {
    apiVersion: "admission.k8s.io/v1",
    kind: "AdmissionReview",
    response: {
      uid: req.uid,
      allowed,
      status: allowed ? undefined : { code: 403, reason: "Forbidden", message: `at most 5 replicas, not ${replicas}` },
      warnings: allowed && replicas > 3 ? [`${replicas} replicas is many`] : undefined,
      auditAnnotations: { replicas: String(replicas) },
    },
  };
}
"#;

fn configuration(extra: &str) -> String {
    format!(
        r#"
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata:
  name: replica-limit
webhooks:
- name: replicas.course.example.com
  clientConfig:
    service: {{namespace: default, name: replica-limit, path: /validate}}
  rules:
  - operations: [CREATE, UPDATE]
    apiGroups: [apps]
    apiVersions: [v1]
    resources: [deployments]
  sideEffects: None
  admissionReviewVersions: [v1]
{extra}"#
    )
}

/// The webhook Service's cluster IP, as the connection errors name it.
fn cluster_ip(c: &Cluster) -> String {
    c.store
        .get::<kubeplay_engine::api::Service>(&kubeplay_engine::apiserver::ObjKey::new(
            "default",
            "replica-limit",
        ))
        .map(|s| s.spec.cluster_ip.clone())
        .unwrap_or_default()
}

fn sh(c: &mut Cluster, cmd: &str, stdin: Option<&str>) -> String {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(o.ok, "{cmd}: {}", o.output);
    o.output.trim_end().to_string()
}

fn fails(c: &mut Cluster, cmd: &str, stdin: Option<&str>) -> String {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(!o.ok, "{cmd} should fail: {}", o.output);
    o.output.trim_end().to_string()
}

/// A cluster whose `replica-limit` Service serves `code`, and a configuration that
/// sends it Deployment writes (with `extra` lines for the webhook).
fn world(code: &str, extra: &str) -> Cluster {
    runner::install(Some(Rc::new(|call: &str| kubeplay_sandbox::run_json(call))));
    let mut c = Cluster::with_default_nodes(3);
    let out = sh(
        &mut c,
        "sim webhook run service/replica-limit -f -",
        Some(code),
    );
    assert_eq!(
        out,
        "deployment.apps/replica-limit created\nservice/replica-limit created\nservice/replica-limit: its Pods serve the webhook code: https://replica-limit.default.svc:443 answers with admit(review)"
    );
    assert!(c.settle(120_000));
    sh(&mut c, "kubectl apply -f -", Some(&configuration(extra)));
    c
}

#[test]
fn a_webhook_refuses_in_its_own_status_and_allows_with_its_warnings_and_annotations() {
    let mut c = world(LIMIT, "");
    assert_eq!(
        fails(&mut c, "kubectl create deployment web --image=nginx --replicas=7", None),
        "error: failed to create deployment: admission webhook \"replicas.course.example.com\" denied the request: at most 5 replicas, not 7"
    );
    let at = sh(&mut c, "sim expect request/last {.code} == 403", None);
    assert!(at.starts_with("ok"), "{at}");
    let at = sh(
        &mut c,
        "sim expect request/last {.refusedAt} == 'validating admission'",
        None,
    );
    assert!(at.starts_with("ok"), "{at}");
    assert_eq!(
        sh(
            &mut c,
            "kubectl create deployment web --image=nginx --replicas=4",
            None
        ),
        "Warning: 4 replicas is many\ndeployment.apps/web created"
    );
    let trace = sh(&mut c, "sim trace request/last", None);
    assert!(
        trace.contains("  webhook replicas.course.example.com (Fail): allowed (pod replica-limit-"),
        "{trace}"
    );
    assert!(
        trace.contains("  audit annotation replicas.course.example.com/replicas: 4"),
        "{trace}"
    );
    // `kubectl scale` writes deployments/scale: the rule on deployments does not
    // send it to the webhook.
    sh(&mut c, "kubectl scale deployment web --replicas=9", None);
    let logs = sh(&mut c, "sim webhook logs", None);
    let lines: Vec<&str> = logs
        .lines()
        .map(|l| l.split_once(": ").map_or(l, |(_, r)| r))
        .collect();
    assert_eq!(
        lines,
        [
            "CREATE deployments default/web by kubernetes-admin: 7",
            "CREATE deployments default/web by kubernetes-admin: 4"
        ]
    );
    assert_eq!(
        sh(&mut c, "sim webhook status", None)
            .lines()
            .nth(1)
            .map(|l| l.split_whitespace().collect::<Vec<_>>()),
        Some(vec![
            "service/replica-limit",
            "default",
            "2",
            "1",
            "1",
            "0",
            "2"
        ])
    );
}

#[test]
fn a_server_with_no_ready_pod_refuses_the_connection_and_fail_refuses_the_request() {
    let mut c = world(LIMIT, "");
    sh(
        &mut c,
        "kubectl scale deployment replica-limit --replicas=0",
        None,
    );
    assert!(c.settle(120_000));
    let ip = cluster_ip(&c);
    assert_eq!(
        fails(&mut c, "kubectl create deployment api --image=nginx", None),
        format!("error: failed to create deployment: Internal error occurred: failed calling webhook \"replicas.course.example.com\": failed to call webhook: Post \"https://replica-limit.default.svc:443/validate?timeout=10s\": dial tcp {ip}:443: connect: connection refused")
    );
    let code = sh(&mut c, "sim expect request/last {.code} == 500", None);
    assert!(code.starts_with("ok"), "{code}");
}

#[test]
fn ignore_lets_the_request_through_and_records_that_it_failed_open() {
    let mut c = world(LIMIT, "  failurePolicy: Ignore\n");
    sh(&mut c, "kubectl delete service replica-limit", None);
    sh(
        &mut c,
        "kubectl create deployment api --image=nginx --replicas=9",
        None,
    );
    let trace = sh(&mut c, "sim trace request/last", None);
    assert!(
        trace.contains("  webhook replicas.course.example.com (Ignore): failed to call webhook: Post \"https://replica-limit.default.svc:443/validate?timeout=10s\": service \"replica-limit\" not found"),
        "{trace}"
    );
    assert!(
        trace.contains("  audit annotation failed-open.validating.webhook.admission.k8s.io/round_0_index_0: replicas.course.example.com"),
        "{trace}"
    );
}

#[test]
fn a_server_on_nodes_that_are_off_never_answers_and_the_call_times_out() {
    let mut c = world(LIMIT, "  timeoutSeconds: 3\n");
    for n in ["node-1", "node-2", "node-3"] {
        sh(&mut c, &format!("sim node down {n}"), None);
    }
    assert_eq!(
        fails(&mut c, "kubectl create deployment api --image=nginx", None),
        "error: failed to create deployment: Internal error occurred: failed calling webhook \"replicas.course.example.com\": failed to call webhook: Post \"https://replica-limit.default.svc:443/validate?timeout=3s\": context deadline exceeded"
    );
    let trace = sh(&mut c, "sim trace request/last", None);
    assert!(
        trace.contains(
            "  webhook replicas.course.example.com (Fail): no answer within 3s (pod replica-limit-"
        ),
        "{trace}"
    );
}

#[test]
fn code_that_loops_throws_or_answers_something_else_fails_the_call_in_upstreams_words() {
    let mut c = world(LIMIT, "");
    let cases = [
        (
            "function admit(review) { while (true) {} }",
            "failed to call webhook: Post \"https://replica-limit.default.svc:443/validate?timeout=10s\": context deadline exceeded",
        ),
        (
            "function admit(review) { return review.request.object.spec.nothing.here; }",
            "failed to call webhook: an error on the server (\"TypeError: cannot read property 'here' of undefined\") has prevented the request from succeeding",
        ),
        (
            "function admit(review) { return { response: { uid: review.request.uid, allowed: true } }; }",
            "received invalid webhook response: expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got /, Kind=",
        ),
        (
            "function admit(review) { return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: 'x', allowed: true } }; }",
            "received invalid webhook response: expected response.uid=",
        ),
        (
            "function admit(review) { return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview' }; }",
            "received invalid webhook response: webhook response was absent",
        ),
        // A field of the wrong type fails the decode, before any check of the answer.
        (
            "function admit(review) { return { response: { uid: 5, allowed: true } }; }",
            "failed to call webhook: json: cannot unmarshal number into Go struct field AdmissionResponse.response.uid of type types.UID",
        ),
        (
            "function admit(review) { return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: review.request.uid, allowed: true, patchType: 'JSONPatch', patch: 'W10=' } }; }",
            "received invalid webhook response: validating webhook may not return response.patch",
        ),
    ];
    for (code, want) in cases {
        sh(
            &mut c,
            "sim webhook run service/replica-limit -f -",
            Some(code),
        );
        let out = fails(&mut c, "kubectl create deployment api --image=nginx", None);
        let prefix = "error: failed to create deployment: Internal error occurred: failed calling webhook \"replicas.course.example.com\": ";
        assert!(out.starts_with(&format!("{prefix}{want}")), "{code}\n{out}");
    }
    // A refusal without a message or code: 400, `without explanation`, no reason.
    sh(
        &mut c,
        "sim webhook run service/replica-limit -f -",
        Some("function admit(r) { return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: r.request.uid, allowed: false } }; }"),
    );
    assert_eq!(
        fails(&mut c, "kubectl create deployment api --image=nginx", None),
        "error: failed to create deployment: admission webhook \"replicas.course.example.com\" denied the request without explanation"
    );
    let code = sh(&mut c, "sim expect request/last {.code} == 400", None);
    assert!(code.starts_with("ok"), "{code}");
    // A reason of the webhook's own is its status's reason too.
    sh(
        &mut c,
        "sim webhook run service/replica-limit -f -",
        Some("function admit(r) { return { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: r.request.uid, allowed: false, status: { code: 409, reason: 'TooManyReplicas', message: 'no' } } }; }"),
    );
    let o = run(&mut c, "kubectl apply -f -", Some("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: api}\nspec:\n  selector: {matchLabels: {app: api}}\n  template:\n    metadata: {labels: {app: api}}\n    spec: {containers: [{name: c, image: nginx}]}\n"), &NoFiles);
    assert_eq!(
        o.output.trim_end(),
        "Error from server (TooManyReplicas): error when creating \"STDIN\": admission webhook \"replicas.course.example.com\" denied the request: no"
    );
}

#[test]
fn selectors_and_match_conditions_decide_which_requests_are_sent() {
    let extra = "  namespaceSelector:\n    matchExpressions: [{key: webhooks, operator: NotIn, values: [skip]}]\n  matchConditions:\n  - name: not-the-admin-dry\n    expression: \"!has(object.metadata.labels) || !('exempt' in object.metadata.labels)\"\n";
    let mut c = world(LIMIT, extra);
    sh(&mut c, "kubectl create namespace quiet", None);
    sh(&mut c, "kubectl label namespace quiet webhooks=skip", None);
    sh(
        &mut c,
        "kubectl create deployment big -n quiet --image=nginx --replicas=9",
        None,
    );
    sh(
        &mut c,
        "kubectl apply -f -",
        Some("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: exempt, labels: {exempt: 'yes'}}\nspec:\n  replicas: 9\n  selector: {matchLabels: {app: exempt}}\n  template:\n    metadata: {labels: {app: exempt}}\n    spec: {containers: [{name: c, image: nginx}]}\n"),
    );
    fails(
        &mut c,
        "kubectl create deployment big --image=nginx --replicas=9",
        None,
    );
    assert_eq!(sh(&mut c, "sim webhook logs", None).lines().count(), 1);
}

#[test]
fn the_configuration_is_defaulted_and_validated_in_upstreams_words() {
    let mut c = world(LIMIT, "");
    let yaml = sh(
        &mut c,
        "kubectl get validatingwebhookconfiguration replica-limit -o yaml",
        None,
    );
    for line in [
        "  failurePolicy: Fail",
        "  matchPolicy: Equivalent",
        "  namespaceSelector: {}",
        "  objectSelector: {}",
        "  timeoutSeconds: 10",
        "      port: 443",
        "    scope: '*'",
    ] {
        assert!(yaml.contains(line), "{line}\n{yaml}");
    }
    assert_eq!(
        sh(&mut c, "kubectl get validatingwebhookconfigurations", None),
        "NAME            WEBHOOKS   AGE\nreplica-limit   1          0s"
    );
    let bad = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: bad}\nwebhooks:\n- name: webhook.example\n  clientConfig: {url: 'http://example.com/x'}\n  rules: [{operations: ['*', CREATE], apiGroups: [''], apiVersions: [v1], resources: [pods]}]\n  timeoutSeconds: 31\n  admissionReviewVersions: [v2]\n";
    assert_eq!(
        fails(&mut c, "kubectl apply -f -", Some(bad)),
        "The ValidatingWebhookConfiguration \"bad\" is invalid: \n* webhooks[0].name: Invalid value: \"webhook.example\": should be a domain with at least three segments separated by dots\n* webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{\"*\", \"CREATE\"}: if '*' is present, must not specify other operations\n* webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun\n* webhooks[0].timeoutSeconds: Invalid value: 31: the timeout value must be between 1 and 30 seconds\n* webhooks[0].clientConfig.url: Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]\n* webhooks[0].admissionReviewVersions: Invalid value: []string{\"v2\"}: must include at least one of v1, v1beta1"
    );
}

#[test]
fn a_replicaset_cannot_create_pods_while_the_webhook_on_pods_is_down() {
    let pods = "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: pods}\nwebhooks:\n- name: pods.course.example.com\n  clientConfig:\n    service: {namespace: default, name: replica-limit}\n  rules: [{operations: [CREATE], apiGroups: [''], apiVersions: [v1], resources: [pods]}]\n  namespaceSelector:\n    matchExpressions: [{key: kubernetes.io/metadata.name, operator: NotIn, values: [kube-system]}]\n  sideEffects: None\n  admissionReviewVersions: [v1]\n";
    let mut c = world(LIMIT, "");
    sh(
        &mut c,
        "kubectl delete validatingwebhookconfiguration replica-limit",
        None,
    );
    sh(&mut c, "kubectl apply -f -", Some(pods));
    sh(
        &mut c,
        "kubectl scale deployment replica-limit --replicas=0",
        None,
    );
    assert!(c.settle(120_000));
    let ip = cluster_ip(&c);
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx --replicas=2",
        None,
    );
    c.advance(5_000);
    let events = sh(&mut c, "kubectl get events --field-selector reason=FailedCreate -o custom-columns=SOURCE:.source.component,MESSAGE:.message", None);
    assert!(
        events.contains(&format!("replicaset-controller   Error creating: Internal error occurred: failed calling webhook \"pods.course.example.com\": failed to call webhook: Post \"https://replica-limit.default.svc:443/?timeout=10s\": dial tcp {ip}:443: connect: connection refused")),
        "{events}"
    );
    // The webhook's own Pods are Pods too: scaled back up, they are refused as well.
    sh(
        &mut c,
        "kubectl scale deployment replica-limit --replicas=2",
        None,
    );
    c.advance(5_000);
    assert_eq!(
        sh(
            &mut c,
            "kubectl get pods -l app=replica-limit -o name",
            None
        ),
        ""
    );
}

#[test]
fn the_same_commands_give_the_same_calls() {
    let script = |c: &mut Cluster| {
        let mut out = String::new();
        for line in [
            "kubectl create deployment a --image=nginx --replicas=7",
            "kubectl create deployment a --image=nginx --replicas=2",
            "sim node down node-1",
            "kubectl create deployment b --image=nginx",
            "kubectl create deployment c --image=nginx",
            "sim webhook logs",
            "sim trace requests",
        ] {
            out.push_str(&run(c, line, None, &NoFiles).output);
        }
        out
    };
    let a = script(&mut world(LIMIT, ""));
    let b = script(&mut world(LIMIT, ""));
    assert_eq!(a, b);
}

#[test]
fn many_webhooks_whose_code_loops_cost_one_request_a_bounded_budget() {
    let mut c = world(
        "function admit(review) { while (true) {} }",
        "  failurePolicy: Ignore\n",
    );
    let hooks: String = (0..8)
        .map(|i| format!("- name: loop-{i}.course.example.com\n  clientConfig:\n    service: {{namespace: default, name: replica-limit}}\n  rules: [{{operations: [CREATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments]}}]\n  failurePolicy: Ignore\n  sideEffects: None\n  admissionReviewVersions: [v1]\n"))
        .collect();
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&format!("apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {{name: loops}}\nwebhooks:\n{hooks}")),
    );
    sh(&mut c, "kubectl create deployment api --image=nginx", None);
    let trace = sh(&mut c, "sim trace request/last", None);
    assert_eq!(
        trace.matches("(Ignore): no answer within 10s").count(),
        9,
        "{trace}"
    );
    assert_eq!(
        trace.matches("audit annotation failed-open.").count(),
        9,
        "{trace}"
    );
    // Four calls ran out of their own 50 ticks; the request's 200 were then spent, and
    // the other five got no answer without running: 200 ticks in all.
    let status = sh(&mut c, "sim webhook status", None);
    let row: Vec<&str> = status
        .lines()
        .nth(1)
        .unwrap_or_default()
        .split_whitespace()
        .collect();
    assert_eq!(
        row,
        [
            "service/replica-limit",
            "default",
            "9",
            "0",
            "0",
            "9",
            "200"
        ],
        "{status}"
    );
}

#[test]
fn pods_that_serve_no_webhook_code_refuse_the_connection_at_the_cluster_ip() {
    let mut c = world(LIMIT, "");
    assert_eq!(
        sh(&mut c, "sim webhook stop service/replica-limit", None),
        "service/replica-limit: its Pods no longer serve webhook code (nothing listens on their port)"
    );
    let ip = cluster_ip(&c);
    assert_eq!(
        fails(&mut c, "kubectl create deployment api --image=nginx", None),
        format!("error: failed to create deployment: Internal error occurred: failed calling webhook \"replicas.course.example.com\": failed to call webhook: Post \"https://replica-limit.default.svc:443/validate?timeout=10s\": dial tcp {ip}:443: connect: connection refused")
    );
}
