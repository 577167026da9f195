//! LimitRanger and Pod Security admission: what each adds to a Pod, what each refuses
//! (at the validating admission stage, writing nothing), and what each only warns.

mod common;

use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::pod_security::{policy_to_evaluate, Level};
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::request_path::Stage;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn fails(c: &mut Cluster, line: &str, stdin: Option<&str>) -> String {
    let rev = c.store.revision();
    let o = run(c, line, stdin, &NoFiles);
    assert!(!o.ok, "{line} should fail: {}", o.output);
    assert_eq!(c.store.revision(), rev, "{line} wrote nothing");
    o.output
}

fn refused_at(c: &Cluster) -> Option<Stage> {
    c.request_log().recent.back().and_then(|r| r.refused_at())
}

const RANGE: &str = "apiVersion: v1
kind: LimitRange
metadata: {name: bounds}
spec:
  limits:
  - type: Container
    max: {cpu: '1', memory: 1Gi}
    min: {cpu: 100m}
    default: {cpu: 500m}
    defaultRequest: {cpu: 200m}
    maxLimitRequestRatio: {cpu: '4'}
";

fn pod_yaml(name: &str, resources: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  containers:\n  - name: app\n    image: nginx\n    resources: {resources}\n"
    )
}

#[test]
fn a_limit_range_gives_a_container_without_resources_its_defaults_and_says_so() {
    let mut c = web_cluster(7);
    apply(&mut c, RANGE);
    apply(&mut c, &pod_yaml("bare", "{}"));
    let p = pod(&c, "bare").expect("created");
    let r = &p.spec.containers[0].resources;
    assert_eq!(r.requests.get("cpu").map(String::as_str), Some("200m"));
    assert_eq!(r.limits.get("cpu").map(String::as_str), Some("500m"));
    // max memory defaults the limit (and through it the request) of memory too.
    assert_eq!(r.limits.get("memory").map(String::as_str), Some("1Gi"));
    assert_eq!(
        p.metadata
            .annotations
            .get("kubernetes.io/limit-ranger")
            .map(String::as_str),
        Some("LimitRanger plugin set: cpu, memory request for container app; cpu, memory limit for container app")
    );
}

#[test]
fn a_container_outside_the_range_is_refused_with_every_reason_at_validating_admission() {
    let mut c = web_cluster(7);
    apply(&mut c, RANGE);
    let out = fails(
        &mut c,
        "kubectl apply -f -",
        Some(&pod_yaml(
            "greedy",
            "{requests: {cpu: 50m}, limits: {cpu: '2'}}",
        )),
    );
    assert_eq!(
        out.trim_end(),
        "Error from server (Forbidden): error when creating \"STDIN\": pods \"greedy\" is forbidden: [minimum cpu usage per Container is 100m, but request is 50m, maximum cpu usage per Container is 1, but limit is 2, cpu max limit to request ratio per Container is 4, but provided ratio is 40.000000]"
    );
    assert_eq!(refused_at(&c), Some(Stage::ValidatingAdmission));
    assert!(pod(&c, "greedy").is_none());
}

#[test]
fn a_single_failure_is_not_bracketed_and_a_missing_limit_under_a_max_is_named() {
    let mut c = web_cluster(7);
    apply(
        &mut c,
        "apiVersion: v1\nkind: LimitRange\nmetadata: {name: pods}\nspec:\n  limits:\n  - type: Pod\n    max: {memory: 512Mi}\n",
    );
    // A Pod item sets no defaults: a container without a memory limit breaks its max.
    let out = fails(&mut c, "kubectl apply -f -", Some(&pod_yaml("p", "{}")));
    assert!(
        out.contains("pods \"p\" is forbidden: maximum memory usage per Pod is 512Mi.  No limit is specified"),
        "{out}"
    );
    // Two containers summed break the Pod's max though each fits.
    let two = "apiVersion: v1\nkind: Pod\nmetadata: {name: two}\nspec:\n  containers:\n  - {name: a, image: nginx, resources: {limits: {memory: 300Mi}}}\n  - {name: b, image: nginx, resources: {limits: {memory: 300Mi}}}\n";
    let out = fails(&mut c, "kubectl apply -f -", Some(two));
    assert!(
        out.contains("maximum memory usage per Pod is 512Mi, but limit is 600Mi"),
        "{out}"
    );
}

#[test]
fn a_deployment_whose_pods_break_a_range_is_created_and_its_replicaset_reports_failed_create() {
    let mut c = web_cluster(7);
    apply(&mut c, RANGE);
    apply(
        &mut c,
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: big}\nspec:\n  replicas: 2\n  selector: {matchLabels: {app: big}}\n  template:\n    metadata: {labels: {app: big}}\n    spec:\n      containers:\n      - {name: app, image: nginx, resources: {limits: {cpu: '3'}}}\n",
    );
    sh(&mut c, "sim advance 5s");
    let msgs: Vec<String> = c
        .events()
        .into_iter()
        .filter(|e| e.reason == "FailedCreate")
        .map(|e| e.message.clone())
        .collect();
    assert!(
        msgs.iter()
            .any(|m| m
                .contains("is forbidden: maximum cpu usage per Container is 1, but limit is 3")),
        "{msgs:?}"
    );
}

#[test]
fn a_limit_range_with_min_above_max_is_invalid() {
    let mut c = web_cluster(7);
    let out = fails(
        &mut c,
        "kubectl apply -f -",
        Some("apiVersion: v1\nkind: LimitRange\nmetadata: {name: bad}\nspec:\n  limits:\n  - type: Container\n    max: {cpu: 500m}\n    min: {cpu: '1'}\n"),
    );
    assert!(out.starts_with("The LimitRange \"bad\" is invalid: \n* spec.limits[0].min[cpu]: Invalid value: resource.Quantity{i:resource.int64Amount{value:1, scale:0}"), "{out}");
    assert!(
        out.contains(": min value 1 is greater than max value 500m"),
        "{out}"
    );
    assert_eq!(refused_at(&c), Some(Stage::Validation));
}

#[test]
fn the_labels_give_the_policy_and_an_enforce_level_alone_also_warns() {
    let labels = |pairs: &[(&str, &str)]| -> StringMap {
        pairs
            .iter()
            .map(|(k, v)| (format!("pod-security.kubernetes.io/{k}"), v.to_string()))
            .collect()
    };
    let (p, errs) = policy_to_evaluate(&labels(&[("enforce", "restricted")]));
    assert!(errs.is_empty());
    assert_eq!(p.warn.level, Level::Restricted);
    let (p, _) = policy_to_evaluate(&labels(&[("enforce", "baseline"), ("warn", "privileged")]));
    assert_eq!(p.warn.level, Level::Privileged);
    // A bad enforce level fails closed, a bad warn level open.
    let (p, errs) = policy_to_evaluate(&labels(&[("enforce", "x"), ("warn", "y")]));
    assert_eq!(
        (p.enforce.level, p.warn.level),
        (Level::Restricted, Level::Privileged)
    );
    assert_eq!(errs.len(), 2);
    let (p, errs) = policy_to_evaluate(&labels(&[
        ("enforce", "baseline"),
        ("enforce-version", "v1.29"),
    ]));
    assert!(errs.is_empty());
    assert_eq!(p.enforce.label(), "baseline:v1.29");
    let (_, errs) = policy_to_evaluate(&labels(&[("audit-version", "v1.025")]));
    assert_eq!(
        errs,
        vec!["metadata.labels[pod-security.kubernetes.io/audit-version]: Invalid value: \"v1.025\": must be \"latest\" or \"v1.x\"".to_string()]
    );
}

fn locked(c: &mut Cluster, level: &str) {
    sh(c, "kubectl create namespace locked");
    sh(
        c,
        &format!("kubectl label namespace locked pod-security.kubernetes.io/enforce={level}"),
    );
}

#[test]
fn an_enforced_level_refuses_a_pod_with_upstreams_reasons_in_order() {
    let mut c = web_cluster(7);
    locked(&mut c, "restricted");
    let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: nginx, namespace: locked}\nspec:\n  containers:\n  - {name: nginx, image: nginx}\n";
    let out = fails(&mut c, "kubectl apply -f -", Some(yaml));
    assert_eq!(
        out.trim_end(),
        "Error from server (Forbidden): error when creating \"STDIN\": pods \"nginx\" is forbidden: violates PodSecurity \"restricted:latest\": allowPrivilegeEscalation != false (container \"nginx\" must set securityContext.allowPrivilegeEscalation=false), unrestricted capabilities (container \"nginx\" must set securityContext.capabilities.drop=[\"ALL\"]), runAsNonRoot != true (pod or container \"nginx\" must set securityContext.runAsNonRoot=true), seccompProfile (pod or container \"nginx\" must set securityContext.seccompProfile.type to \"RuntimeDefault\" or \"Localhost\")"
    );
    assert_eq!(refused_at(&c), Some(Stage::ValidatingAdmission));
}

#[test]
fn baseline_names_host_ports_sorted_as_strings_and_pluralizes() {
    let mut c = web_cluster(7);
    locked(&mut c, "baseline");
    let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: ports, namespace: locked}\nspec:\n  containers:\n  - name: a\n    image: nginx\n    ports: [{containerPort: 80, hostPort: 8080}, {containerPort: 9, hostPort: 100}]\n  - name: b\n    image: nginx\n    ports: [{containerPort: 20, hostPort: 20}]\n    securityContext: {procMount: Unmasked}\n";
    let out = fails(&mut c, "kubectl apply -f -", Some(yaml));
    assert!(
        out.contains("violates PodSecurity \"baseline:latest\": hostPort (containers \"a\", \"b\" use hostPorts 100, 20, 8080), procMount (container \"b\" must not set securityContext.procMount to \"Unmasked\")"),
        "{out}"
    );
}

#[test]
fn a_deployment_is_only_warned_about_and_its_pods_are_refused_when_created() {
    let mut c = web_cluster(7);
    locked(&mut c, "restricted");
    let out = sh(
        &mut c,
        "kubectl create deployment api --image=nginx -n locked",
    );
    assert!(
        out.starts_with("Warning: would violate PodSecurity \"restricted:latest\": allowPrivilegeEscalation != false"),
        "{out}"
    );
    assert!(out.ends_with("deployment.apps/api created\n"), "{out}");
    sh(&mut c, "sim advance 3s");
    let pods = c
        .store
        .list::<Pod>()
        .filter(|p| p.metadata.namespace == "locked")
        .count();
    assert_eq!(pods, 0);
    assert!(c.events().iter().any(|e| e.reason == "FailedCreate"
        && e.message
            .contains("is forbidden: violates PodSecurity \"restricted:latest\"")));
}

#[test]
fn a_hardened_pod_passes_restricted_without_a_warning() {
    let mut c = web_cluster(7);
    locked(&mut c, "restricted");
    let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: ok, namespace: locked}\nspec:\n  securityContext: {runAsNonRoot: true, seccompProfile: {type: RuntimeDefault}}\n  containers:\n  - name: app\n    image: nginx\n    securityContext: {allowPrivilegeEscalation: false, capabilities: {drop: [ALL], add: [NET_BIND_SERVICE]}}\n";
    let o = run(&mut c, "kubectl apply -f -", Some(yaml), &NoFiles);
    assert!(o.ok, "{}", o.output);
    assert_eq!(o.output, "pod/ok created\n");
}

#[test]
fn warn_alone_admits_the_pod_with_a_warning() {
    let mut c = web_cluster(7);
    sh(&mut c, "kubectl create namespace soft");
    sh(
        &mut c,
        "kubectl label namespace soft pod-security.kubernetes.io/warn=baseline",
    );
    let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: soft}\nspec:\n  hostNetwork: true\n  containers:\n  - {name: app, image: nginx}\n";
    let o = run(&mut c, "kubectl apply -f -", Some(yaml), &NoFiles);
    assert!(o.ok, "{}", o.output);
    assert_eq!(
        o.output,
        "Warning: would violate PodSecurity \"baseline:latest\": host namespaces (hostNetwork=true)\npod/p created\n"
    );
}

#[test]
fn a_stricter_enforce_level_names_the_pods_already_there_and_keeps_them() {
    let mut c = web_cluster(7);
    let out = sh(
        &mut c,
        "kubectl label namespace default pod-security.kubernetes.io/enforce=restricted",
    );
    let first = c
        .store
        .list::<Pod>()
        .filter(|p| p.metadata.namespace == "default")
        .map(|p| p.metadata.name.clone())
        .min()
        .expect("web's pods");
    assert_eq!(
        out,
        format!("Warning: existing pods in namespace \"default\" violate the new PodSecurity enforce level \"restricted:latest\"\nWarning: {first} (and 2 other pods): allowPrivilegeEscalation != false, unrestricted capabilities, runAsNonRoot != true, seccompProfile\nnamespace/default labeled\n")
    );
    assert_eq!(web(&c).status.ready_replicas, 3);
    // Relaxing it says nothing.
    let out = sh(
        &mut c,
        "kubectl label namespace default pod-security.kubernetes.io/enforce=baseline --overwrite",
    );
    assert_eq!(out, "namespace/default labeled\n");
}

#[test]
fn a_pod_update_is_checked_only_when_an_image_changes() {
    let mut c = web_cluster(7);
    sh(&mut c, "kubectl create namespace later");
    apply(
        &mut c,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: later}\nspec:\n  containers:\n  - {name: p, image: nginx}\n",
    );
    sh(
        &mut c,
        "kubectl label namespace later pod-security.kubernetes.io/enforce=restricted",
    );
    // A label is not a significant update.
    sh(&mut c, "kubectl label pod p tier=web -n later");
    let out = fails(
        &mut c,
        "kubectl set image pod/p p=nginx:1.28 -n later",
        None,
    );
    assert!(
        out.contains("pods \"p\" is forbidden: violates PodSecurity \"restricted:latest\""),
        "{out}"
    );
    let p = c
        .store
        .get::<Pod>(&ObjKey::new("later", "p"))
        .expect("kept");
    assert_eq!(p.spec.containers[0].image, "nginx");
}
