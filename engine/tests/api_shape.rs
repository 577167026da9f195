//! Objects are written in Kubernetes' exact JSON shape: every key of every object the
//! simulation writes (and of every manifest it reads back) is a key of the upstream
//! OpenAPI definition at that place. serde's camelCase spells acronyms wrongly
//! (`podIp`, `hostIp`, `podCidr`); these tests catch any such key.

mod api_shape {
    pub mod upstream_schema;
}

use api_shape::upstream_schema::SCHEMA;
use kubeplay_engine::api::*;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use serde_json::Value;

/// The properties of an upstream definition.
fn definition(name: &str) -> &'static [(&'static str, &'static str)] {
    SCHEMA
        .iter()
        .find(|(n, _)| *n == name)
        .unwrap_or_else(|| panic!("definition {name} not transcribed"))
        .1
}

/// The upstream definition of each kind's root.
fn root(kind: Kind) -> &'static str {
    match kind {
        Kind::Deployment => "V1Deployment",
        Kind::ReplicaSet => "V1ReplicaSet",
        Kind::Pod => "V1Pod",
        Kind::Node => "V1Node",
        Kind::Event => "CoreV1Event",
        Kind::Lease => "V1Lease",
        Kind::Namespace => "V1Namespace",
        Kind::PodDisruptionBudget => "V1PodDisruptionBudget",
        Kind::PriorityClass => "V1PriorityClass",
        Kind::Service => "V1Service",
        Kind::EndpointSlice => "V1EndpointSlice",
        Kind::Endpoints => "V1Endpoints",
        Kind::Role => "V1Role",
        Kind::ClusterRole => "V1ClusterRole",
        Kind::RoleBinding => "V1RoleBinding",
        Kind::ClusterRoleBinding => "V1ClusterRoleBinding",
        Kind::ResourceQuota => "V1ResourceQuota",
        Kind::LimitRange => "V1LimitRange",
        Kind::Job => "V1Job",
        Kind::CronJob => "V1CronJob",
        Kind::DaemonSet => "V1DaemonSet",
        Kind::StatefulSet => "V1StatefulSet",
        Kind::ControllerRevision => "V1ControllerRevision",
        Kind::PersistentVolumeClaim => "V1PersistentVolumeClaim",
        Kind::PersistentVolume => "V1PersistentVolume",
        Kind::StorageClass => "V1StorageClass",
        Kind::ConfigMap => "V1ConfigMap",
        Kind::Secret => "V1Secret",
        Kind::ServiceAccount => "V1ServiceAccount",
        Kind::HorizontalPodAutoscaler => "V2HorizontalPodAutoscaler",
        Kind::Ingress => "V1Ingress",
        Kind::IngressClass => "V1IngressClass",
        Kind::NetworkPolicy => "V1NetworkPolicy",
        Kind::ServiceCIDR => "V1ServiceCIDR",
        Kind::IPAddress => "V1IPAddress",
        Kind::ValidatingAdmissionPolicy => "V1ValidatingAdmissionPolicy",
        Kind::ValidatingAdmissionPolicyBinding => "V1ValidatingAdmissionPolicyBinding",
        Kind::ValidatingWebhookConfiguration => "V1ValidatingWebhookConfiguration",
        // Not transcribed: a definition's shape is checked by its own tests, and a
        // custom object's keys are its schema's.
        Kind::CustomResourceDefinition | Kind::Custom(_) => "",
    }
}

/// Every key path of `v` that its upstream definition `def` does not have.
fn foreign_keys(v: &Value, def: &str, path: &str, out: &mut Vec<String>) {
    match v {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                foreign_keys(item, def, &format!("{path}[{i}]"), out);
            }
        }
        Value::Object(map) if def != "map" && !def.is_empty() => {
            let props = definition(def);
            for (k, child) in map {
                let p = format!("{path}.{k}");
                match props.iter().find(|(name, _)| name == k) {
                    Some((_, t)) => foreign_keys(child, t, &p, out),
                    None => out.push(format!("{p} (not in {def})")),
                }
            }
        }
        _ => {}
    }
}

fn assert_upstream_shape(c: &Cluster) -> usize {
    let mut foreign = Vec::new();
    let mut seen = 0;
    for kind in Kind::ALL {
        for obj in c.store.list_objects(kind) {
            seen += 1;
            let mut json = obj.to_json();
            // apiVersion and kind are the TypeMeta every definition has.
            for (k, v) in [("apiVersion", kind.api_version()), ("kind", kind.name())] {
                json.as_object_mut().unwrap().insert(k.into(), v.into());
            }
            let at = format!("{}/{}", kind.name(), obj.meta().name);
            foreign_keys(&json, root(kind), &at, &mut foreign);
        }
    }
    foreign.sort();
    foreign.dedup();
    assert!(
        foreign.is_empty(),
        "keys upstream does not have:\n{}",
        foreign.join("\n")
    );
    seen
}

fn sh(c: &mut Cluster, cmd: &str, stdin: Option<&str>) -> String {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(o.ok, "{cmd}: {}", o.output);
    o.output
}

#[test]
fn every_object_a_busy_cluster_writes_has_only_upstream_keys() {
    let mut c = Cluster::with_default_nodes(7);
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(
            "apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\ndescription: important\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web-pdb}\nspec:\n  minAvailable: 1\n  selector: {matchLabels: {app: web}}\n",
        ),
    );
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=3",
        None,
    );
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: probe, labels: {app: probe}}\nspec:\n  priorityClassName: high\n  initContainers: [{name: init, image: 'busybox:1.36'}]\n  containers:\n  - name: app\n    image: nginx:1.27\n    ports: [{containerPort: 80, hostPort: 8080, name: http, protocol: TCP}]\n    resources: {requests: {cpu: 100m}, limits: {cpu: 200m, memory: 64Mi}}\n    readinessProbe: {httpGet: {path: /, port: 80}}\n    livenessProbe: {tcpSocket: {port: 80}}\n    startupProbe: {exec: {command: ['true']}}\n  tolerations: [{key: k, operator: Equal, value: v, effect: NoSchedule}]\n  affinity:\n    nodeAffinity:\n      preferredDuringSchedulingIgnoredDuringExecution:\n      - weight: 1\n        preference: {matchExpressions: [{key: kubernetes.io/os, operator: In, values: [linux]}]}\n",
        ),
    );
    assert!(c.settle(300_000));
    sh(
        &mut c,
        "kubectl set image deployment/web nginx=nginx:1.28",
        None,
    );
    sh(&mut c, "kubectl cordon node-1", None);
    sh(
        &mut c,
        "kubectl taint nodes node-2 dedicated=x:NoSchedule",
        None,
    );
    sh(&mut c, "sim crash pod/probe", None);
    sh(
        &mut c,
        "kubectl create cronjob tick --image=busybox --schedule='*/1 * * * *' -- sh -c 'sleep 2'",
        None,
    );
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(
            "apiVersion: batch/v1\nkind: Job\nmetadata: {name: idx}\nspec:\n  completions: 3\n  parallelism: 2\n  completionMode: Indexed\n  backoffLimit: 1\n  podFailurePolicy:\n    rules: [{action: Ignore, onPodConditions: [{type: DisruptionTarget}]}]\n  template:\n    spec:\n      restartPolicy: Never\n      containers: [{name: w, image: busybox, command: [sh, -c, 'sleep 3; exit 1']}]\n",
        ),
    );
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(
            "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: logs}\nspec:\n  selector: {matchLabels: {app: logs}}\n  template:\n    metadata: {labels: {app: logs}}\n    spec:\n      containers: [{name: agent, image: 'fluentd:1.16'}]\n",
        ),
    );
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(
            "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  replicas: 2\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec:\n      containers: [{name: pg, image: 'postgres:16', volumeMounts: [{name: data, mountPath: /var/lib/postgresql}]}]\n  volumeClaimTemplates:\n  - metadata: {name: data}\n    spec: {accessModes: [ReadWriteOnce], resources: {requests: {storage: 1Gi}}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {mode: fast}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: creds}\nstringData: {password: hunter2}\n",
        ),
    );
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(
            "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}\n  maxReplicas: 5\n  behavior: {scaleDown: {stabilizationWindowSeconds: 60}}\n",
        ),
    );
    sh(&mut c, "sim load deployment/web --cpu 500m", None);
    c.advance(120_000);
    sh(
        &mut c,
        "kubectl set image statefulset/db pg=postgres:17",
        None,
    );
    sh(
        &mut c,
        "kubectl create ingress site --class=nginx --rule=shop.example.com/*=web:80,tls=shop-cert --default-backend=web:http",
        None,
    );
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(
            "apiVersion: networking.k8s.io/v1\nkind: IngressClass\nmetadata: {name: nginx}\nspec:\n  controller: k8s.io/ingress-nginx\n  parameters: {apiGroup: k8s.example.com, kind: IngressParameters, name: external-lb}\n---\napiVersion: networking.k8s.io/v1\nkind: NetworkPolicy\nmetadata: {name: db-in}\nspec:\n  podSelector: {matchLabels: {app: db}}\n  ingress:\n  - from: [{podSelector: {matchLabels: {app: web}}}, {namespaceSelector: {matchLabels: {team: a}}}, {ipBlock: {cidr: 10.0.0.0/8, except: [10.1.0.0/16]}}]\n    ports: [{port: 5432}, {port: 6000, endPort: 6010}]\n  egress:\n  - to: [{podSelector: {}}]\n",
        ),
    );
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(
            "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicy\nmetadata: {name: max-replicas}\nspec:\n  paramKind: {apiVersion: v1, kind: ConfigMap}\n  matchConstraints:\n    resourceRules: [{apiGroups: [apps], apiVersions: [v1], operations: [CREATE, UPDATE], resources: [deployments]}]\n  matchConditions: [{name: not-system, expression: \"request.namespace != 'kube-system'\"}]\n  variables: [{name: max, expression: 'int(params.data.max)'}]\n  validations: [{expression: 'object.spec.replicas <= variables.max', message: too many, reason: Forbidden}]\n  auditAnnotations: [{key: replicas, valueExpression: 'string(object.spec.replicas)'}]\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingAdmissionPolicyBinding\nmetadata: {name: max-replicas}\nspec:\n  policyName: max-replicas\n  validationActions: [Audit]\n  paramRef: {name: settings, namespace: default, parameterNotFoundAction: Allow}\n  matchResources: {namespaceSelector: {matchLabels: {team: a}}}\n",
        ),
    );
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(
            "apiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {name: replica-limit}\nwebhooks:\n- name: replicas.course.example.com\n  clientConfig:\n    service: {namespace: default, name: replica-limit, path: /validate}\n  rules: [{operations: [CREATE], apiGroups: [apps], apiVersions: [v1], resources: [deployments]}]\n  matchConditions: [{name: any, expression: 'true'}]\n  failurePolicy: Ignore\n  sideEffects: None\n  admissionReviewVersions: [v1]\n",
        ),
    );
    c.advance(60_000);
    let seen = assert_upstream_shape(&c);
    assert!(seen > 20, "{seen} objects checked");
    for kind in [
        Kind::StatefulSet,
        Kind::ControllerRevision,
        Kind::PersistentVolumeClaim,
        Kind::PersistentVolume,
        Kind::StorageClass,
        Kind::ConfigMap,
        Kind::Secret,
        Kind::HorizontalPodAutoscaler,
        Kind::Ingress,
        Kind::IngressClass,
        Kind::NetworkPolicy,
        Kind::ServiceCIDR,
        Kind::IPAddress,
        Kind::ValidatingAdmissionPolicy,
        Kind::ValidatingAdmissionPolicyBinding,
        Kind::ValidatingWebhookConfiguration,
    ] {
        assert!(c.store.count(kind) > 0, "no {kind:?} was checked");
    }
}

#[test]
fn a_running_pod_reports_its_ips_and_a_node_its_cidrs_under_the_api_names() {
    let mut c = Cluster::with_default_nodes(3);
    sh(
        &mut c,
        "kubectl apply -f -",
        Some("apiVersion: v1\nkind: Pod\nmetadata: {name: solo}\nspec:\n  containers: [{name: c, image: 'nginx:1.27'}]\n"),
    );
    assert!(c.settle(120_000));
    let ip = sh(
        &mut c,
        "kubectl get pod solo -o jsonpath={.status.podIP}",
        None,
    );
    assert!(ip.starts_with("10.244."), "{ip}");
    let ips = sh(
        &mut c,
        "kubectl get pod solo -o jsonpath={.status.podIPs[0].ip}/{.status.hostIP}/{.status.hostIPs[0].ip}",
        None,
    );
    let parts: Vec<&str> = ips.trim().split('/').collect();
    assert_eq!(parts[0], ip.trim());
    assert_eq!(parts[1], parts[2]);
    let cidr = sh(
        &mut c,
        "kubectl get node node-1 -o jsonpath={.spec.podCIDR}={.spec.podCIDRs[0]}",
        None,
    );
    let (a, b) = cidr.trim().split_once('=').unwrap();
    assert!(a.starts_with("10.244.") && a == b, "{cidr}");
    let yaml = sh(&mut c, "kubectl get pod solo -o yaml", None);
    assert!(
        yaml.contains("  podIP: 10.244.") && !yaml.contains("podIp"),
        "{yaml}"
    );
}

#[test]
fn manifests_with_the_upstream_acronym_names_decode_into_the_fields() {
    let docs = kubeplay_engine::manifest::parse(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec: {containers: [{name: c, image: i}]}\nstatus:\n  podIP: 10.1.2.3\n  podIPs: [{ip: 10.1.2.3}]\n  hostIP: 10.0.0.9\n  hostIPs: [{ip: 10.0.0.9}]\n---\napiVersion: v1\nkind: Node\nmetadata: {name: n}\nspec: {podCIDR: 10.9.0.0/24, podCIDRs: [10.9.0.0/24]}\n",
        "f.yaml",
    )
    .unwrap();
    assert!(docs.iter().all(|d| d.unknown_fields.is_empty()));
    let (Object::Pod(p), Object::Node(n)) = (&docs[0].object, &docs[1].object) else {
        panic!("a Pod and a Node");
    };
    assert_eq!(p.status.pod_ip, "10.1.2.3");
    assert_eq!(p.status.pod_ips[0].ip, "10.1.2.3");
    assert_eq!(p.status.host_ip, "10.0.0.9");
    assert_eq!(p.status.host_ips[0].ip, "10.0.0.9");
    assert_eq!(n.spec.pod_cidr, "10.9.0.0/24");
    assert_eq!(n.spec.pod_cidrs, vec!["10.9.0.0/24".to_string()]);
}

#[test]
fn every_node_carries_all_ten_node_info_fields_as_a_real_server_sends_them() {
    let mut c = Cluster::with_default_nodes(1);
    // One the kubelet registered, and one a learner wrote with no status at all.
    sh(
        &mut c,
        "kubectl apply -f -",
        Some("apiVersion: v1\nkind: Node\nmetadata: {name: hand-made}\n"),
    );
    for node in ["node-1", "hand-made"] {
        let json = sh(&mut c, &format!("kubectl get node {node} -o json"), None);
        let v: Value = serde_json::from_str(&json).unwrap();
        let info = v["status"]["nodeInfo"].as_object().unwrap();
        let keys: Vec<&str> = info.keys().map(String::as_str).collect();
        let mut want = vec![
            "architecture",
            "bootID",
            "containerRuntimeVersion",
            "kernelVersion",
            "kubeProxyVersion",
            "kubeletVersion",
            "machineID",
            "operatingSystem",
            "osImage",
            "systemUUID",
        ];
        let mut got = keys.clone();
        got.sort_unstable();
        want.sort_unstable();
        assert_eq!(got, want, "{node}: {json}");
    }
}

#[test]
fn a_synced_stateful_set_reports_its_collision_count_zero_included() {
    let mut c = Cluster::with_default_nodes(2);
    sh(
        &mut c,
        "kubectl apply -f -",
        Some("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec:\n  serviceName: db\n  replicas: 1\n  selector: {matchLabels: {app: db}}\n  template:\n    metadata: {labels: {app: db}}\n    spec:\n      containers: [{name: db, image: 'postgres:16'}]\n"),
    );
    assert!(c.settle(120_000));
    let count = sh(
        &mut c,
        "kubectl get statefulset db -o jsonpath={.status.collisionCount}",
        None,
    );
    assert_eq!(count.trim(), "0");
}
