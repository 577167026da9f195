//! What the API server defaults on create (`pkg/apis/core/v1/defaults.go`) and what a
//! user writes surviving the round trip through `-o yaml`.

mod common;

use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn sh(c: &mut Cluster, cmd: &str, stdin: Option<&str>) -> String {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(o.ok, "{cmd}: {}", o.output);
    o.output
}

fn pod_yaml(name: &str, node: &str, cpu_limit: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}}}\nspec:\n  nodeName: '{node}'\n  containers:\n  - name: c\n    image: nginx:1.27\n    resources: {{limits: {{cpu: '{cpu_limit}', memory: 1Gi}}}}\n"
    )
}

#[test]
fn a_container_with_only_limits_gets_requests_equal_to_them() {
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "kubectl apply -f -", Some(&pod_yaml("a", "", "3")));
    let p = common::pod(&c, "a").unwrap();
    let r = &p.spec.containers[0].resources;
    assert_eq!(r.requests.get("cpu").map(String::as_str), Some("3"));
    assert_eq!(r.requests.get("memory").map(String::as_str), Some("1Gi"));
    let y = sh(&mut c, "kubectl get pod a -o yaml", None);
    assert!(
        y.contains("      requests:\n        cpu: \"3\"\n        memory: 1Gi\n"),
        "{y}"
    );
}

#[test]
fn limits_only_pods_reserve_their_limits_so_the_scheduler_does_not_over_pack_a_node() {
    let mut c = Cluster::new(1);
    c.add_node("only", Default::default()).unwrap();
    sh(&mut c, "kubectl apply -f -", Some(&pod_yaml("a", "", "3")));
    sh(&mut c, "kubectl apply -f -", Some(&pod_yaml("b", "", "3")));
    c.advance(30_000);
    let phases: Vec<(String, String)> = ["a", "b"]
        .iter()
        .map(|n| {
            let p = common::pod(&c, n).unwrap();
            (p.spec.node_name.clone(), p.status.phase.clone())
        })
        .collect();
    assert_eq!(phases[0], ("only".into(), "Running".into()));
    assert_eq!(phases[1], (String::new(), "Pending".into()));
    assert!(common::reasons_for(&c, "Pod", "b").contains(&"FailedScheduling".to_string()));
}

#[test]
fn a_pod_template_keeps_its_limits_only_resources_but_gets_the_pod_spec_defaults() {
    let mut c = Cluster::with_default_nodes(1);
    sh(
        &mut c,
        "kubectl apply -f -",
        Some("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {app: d}}\n  template:\n    metadata: {labels: {app: d}}\n    spec:\n      containers:\n      - {name: c, image: nginx, ports: [{containerPort: 80}], resources: {limits: {cpu: 100m}}, readinessProbe: {httpGet: {port: 80}}}\n"),
    );
    let d = c
        .store
        .get::<Deployment>(&ObjKey::new("default", "d"))
        .unwrap();
    let spec = &d.spec.template.spec;
    let ctr = &spec.containers[0];
    assert!(
        ctr.resources.requests.is_empty(),
        "SetDefaults_Pod is for Pods only"
    );
    assert_eq!(ctr.image_pull_policy, "Always", "untagged means latest");
    assert_eq!(ctr.termination_message_path, "/dev/termination-log");
    assert_eq!(ctr.termination_message_policy, "File");
    assert_eq!(ctr.ports[0].protocol, "TCP");
    let probe = ctr
        .readiness_probe
        .as_ref()
        .unwrap()
        .http_get
        .as_ref()
        .unwrap();
    assert_eq!((probe.path.as_str(), probe.scheme.as_str()), ("/", "HTTP"));
    assert_eq!(spec.dns_policy, "ClusterFirst");
    assert_eq!(spec.security_context, Some(serde_json::json!({})));
    assert_eq!(
        spec.enable_service_links, None,
        "enableServiceLinks is SetDefaults_Pod's"
    );
    c.settle(60_000);
    let pod = c.store.list::<Pod>().next().unwrap();
    assert_eq!(pod.spec.enable_service_links, Some(true));
    assert_eq!(
        pod.spec.containers[0]
            .resources
            .requests
            .get("cpu")
            .map(String::as_str),
        Some("100m")
    );
}

const EVERYTHING: &str = "apiVersion: v1
kind: Pod
metadata: {name: full}
spec:
  serviceAccountName: builder
  automountServiceAccountToken: false
  hostNetwork: true
  hostname: box
  imagePullSecrets: [{name: regcred}]
  securityContext: {runAsUser: 1000, fsGroup: 2000}
  volumes:
  - {name: scratch, emptyDir: {sizeLimit: 1Gi}}
  - {name: cfg, configMap: {name: app-config}}
  - {name: creds, secret: {secretName: s, defaultMode: 256}}
  - {name: logs, hostPath: {path: /var/log}}
  - {name: data, persistentVolumeClaim: {claimName: data}}
  - name: meta
    downwardAPI: {items: [{path: labels, fieldRef: {fieldPath: metadata.labels}}]}
  - {name: unnamed}
  containers:
  - name: app
    image: registry.local:5000/app@sha256:abc
    command: [/bin/app]
    args: [--port, '8080']
    workingDir: /srv
    env:
    - {name: MODE, value: prod}
    - name: NODE
      valueFrom: {fieldRef: {fieldPath: spec.nodeName}}
    envFrom: [{configMapRef: {name: app-config}}]
    ports: [{containerPort: 8080, hostIP: 0.0.0.0}]
    volumeMounts:
    - {name: scratch, mountPath: /tmp}
    - {name: cfg, mountPath: /etc/app, readOnly: true, subPath: app.yaml}
    securityContext: {readOnlyRootFilesystem: true}
    lifecycle: {preStop: {exec: {command: [sleep, '5']}}}
    tty: true
    imagePullPolicy: Never
    imagePullPolice: Always
";

#[test]
fn everything_a_user_writes_in_a_pod_survives_the_round_trip_and_only_typos_are_dropped() {
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "kubectl create serviceaccount builder", None);
    // Under kubectl's default --validate=strict the typo refuses the whole Pod.
    let refused = run(&mut c, "kubectl apply -f -", Some(EVERYTHING), &NoFiles);
    assert!(
        !refused.ok && refused.output.contains("strict decoding error"),
        "{}",
        refused.output
    );
    assert!(common::pod(&c, "full").is_none());
    // With --validate=warn it is dropped with the server's warning.
    let out = sh(
        &mut c,
        "kubectl apply --validate=warn -f -",
        Some(EVERYTHING),
    );
    assert!(
        out.contains("unknown field \"spec.containers[0].imagePullPolice\""),
        "{out}"
    );
    let got = common::pod(&c, "full").unwrap();
    let json = serde_json::to_value(got).unwrap();
    let input: serde_yaml_ng::Value = serde_yaml_ng::from_str(EVERYTHING).unwrap();
    let input = serde_json::to_value(input).unwrap();
    // Every field written is stored as written (the typo aside).
    fn contains(have: &serde_json::Value, want: &serde_json::Value, path: &str) {
        match (have, want) {
            (serde_json::Value::Object(h), serde_json::Value::Object(w)) => {
                for (k, v) in w {
                    if k == "imagePullPolice" {
                        assert!(!h.contains_key(k), "{path}.{k} is a typo: dropped");
                        continue;
                    }
                    let Some(hv) = h.get(k) else {
                        panic!("{path}.{k} was dropped");
                    };
                    contains(hv, v, &format!("{path}.{k}"));
                }
            }
            (serde_json::Value::Array(h), serde_json::Value::Array(w)) => {
                assert_eq!(h.len(), w.len(), "{path}");
                for (i, (a, b)) in h.iter().zip(w).enumerate() {
                    contains(a, b, &format!("{path}[{i}]"));
                }
            }
            (h, w) => assert_eq!(h, w, "{path}"),
        }
    }
    contains(&json["spec"], &input["spec"], "spec");
    let spec = &got.spec;
    // The defaults that come with them.
    assert_eq!(spec.containers[0].ports[0].host_port, 8080, "hostNetwork");
    assert_eq!(spec.containers[0].image_pull_policy, "Never");
    let source = |n: usize| serde_json::to_value(&spec.volumes[n].source).unwrap();
    assert_eq!(source(1)["configMap"]["defaultMode"], 420);
    assert_eq!(
        source(2)["secret"]["defaultMode"],
        256,
        "a written mode is kept"
    );
    assert_eq!(source(3)["hostPath"]["type"], "");
    assert_eq!(
        source(6),
        serde_json::json!({"emptyDir": {}}),
        "no source: emptyDir"
    );
    let y = sh(&mut c, "kubectl get pod full -o yaml", None);
    for line in [
        "    - mountPath: /etc/app\n      name: cfg\n      readOnly: true\n      subPath: app.yaml\n",
        "    workingDir: /srv\n",
        "  serviceAccountName: builder\n",
        "  - emptyDir:\n      sizeLimit: 1Gi\n    name: scratch\n",
        "  serviceAccount: builder\n",
    ] {
        assert!(y.contains(line), "{line}\n---\n{y}");
    }
}

#[test]
fn the_pull_policy_defaults_from_the_tag() {
    use kubeplay_engine::apiserver::admission::default_pull_policy;
    for (image, want) in [
        ("nginx", "Always"),
        ("nginx:latest", "Always"),
        ("nginx:1.27", "IfNotPresent"),
        ("registry.local:5000/nginx", "Always"),
        ("registry.local:5000/nginx:1.27", "IfNotPresent"),
        ("nginx@sha256:abc", "IfNotPresent"),
        ("nginx:latest@sha256:abc", "Always"),
    ] {
        assert_eq!(default_pull_policy(image), want, "{image}");
    }
}
