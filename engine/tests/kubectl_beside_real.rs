//! Where the console's kubectl and the API server behind it once differed from real
//! kubectl against a v1.33 server: client-side apply's three-way merge, strict
//! decoding at every depth, the container rules of every pod template, and a Service
//! changing type.

mod common;

use common::*;
use kubeplay_engine::api::Service;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

const WEB: &str = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  selector: {matchLabels: {app: web}}\n  template:\n    metadata: {labels: {app: web}}\n    spec:\n      containers:\n      - name: nginx\n        image: nginx:1.27\n        resources: {requests: {cpu: 100m}}\n";

fn resources(c: &mut Cluster) -> String {
    sh(
        c,
        "kubectl get deploy web -o jsonpath={.spec.template.spec.containers[0].resources}",
    )
    .trim()
    .to_string()
}

#[test]
fn apply_keeps_what_another_writer_set_and_drops_what_the_last_apply_set() {
    let mut c = Cluster::with_default_nodes(1);
    apply(&mut c, WEB);
    sh(&mut c, "kubectl set resources deploy web --limits=cpu=200m");
    // The limit is in neither the last apply nor this manifest: it stays, and
    // nothing changes.
    let o = run(&mut c, "kubectl apply -f -", Some(WEB), &NoFiles);
    assert_eq!(o.output.trim(), "deployment.apps/web unchanged");
    assert_eq!(
        resources(&mut c),
        r#"{"limits":{"cpu":"200m"},"requests":{"cpu":"100m"}}"#
    );
    // The request was applied: a manifest without it deletes it (and a manifest
    // without `resources` at all would delete the whole map, limit included).
    let without = WEB.replace("resources: {requests: {cpu: 100m}}", "resources: {}");
    let o = run(&mut c, "kubectl apply -f -", Some(&without), &NoFiles);
    assert_eq!(o.output.trim(), "deployment.apps/web configured");
    assert_eq!(resources(&mut c), r#"{"limits":{"cpu":"200m"}}"#);
}

#[test]
fn apply_to_an_object_kubectl_create_made_warns_and_merges_containers_by_name() {
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "kubectl create deployment web --image=nginx:1.27");
    let o = run(&mut c, "kubectl apply -f -", Some(WEB), &NoFiles);
    assert!(o.ok, "{}", o.output);
    assert!(o.output.starts_with("Warning: resource deployments/web is missing the kubectl.kubernetes.io/last-applied-configuration annotation"), "{}", o.output);
    // `kubectl create` named the container after the image; the manifest's `nginx`
    // is the same name, so one container, now with the request.
    assert_eq!(
        sh(
            &mut c,
            "kubectl get deploy web -o jsonpath={.spec.template.spec.containers[*].name}"
        )
        .trim(),
        "nginx"
    );
    assert_eq!(resources(&mut c), r#"{"requests":{"cpu":"100m"}}"#);
}

#[test]
fn a_misspelled_field_deep_in_a_template_is_a_strict_decoding_error() {
    let mut c = Cluster::with_default_nodes(1);
    let typo = WEB.replace("image: nginx:1.27", "images: nginx:1.27");
    let o = run(&mut c, "kubectl apply -f -", Some(&typo), &NoFiles);
    assert!(!o.ok);
    assert_eq!(
        o.output.trim(),
        "Error from server (BadRequest): error when creating \"STDIN\": Deployment in version \"v1\" cannot be handled as a Deployment: strict decoding error: unknown field \"spec.template.spec.containers[0].images\""
    );
    // A Node status field name is not a container's either; in a Node it is fine.
    let o = run(
        &mut c,
        "kubectl apply -f -",
        Some("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  containers: [{name: c, image: nginx, daemonEndpoints: {}, volumesInUse: [a]}]\n"),
        &NoFiles,
    );
    assert!(
        o.output
            .contains("unknown field \"spec.containers[0].volumesInUse\""),
        "{}",
        o.output
    );
}

#[test]
fn every_pod_template_needs_named_containers_with_images() {
    let mut c = Cluster::with_default_nodes(1);
    let no_image = WEB.replace("        image: nginx:1.27\n", "");
    let o = run(&mut c, "kubectl apply -f -", Some(&no_image), &NoFiles);
    assert_eq!(
        o.output.trim(),
        "The Deployment \"web\" is invalid: spec.template.spec.containers[0].image: Required value"
    );
    for (kind, create) in [
        ("DaemonSet", "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers: [{name: Web, image: nginx}, {name: Web, image: nginx}]\n"),
        ("StatefulSet", "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: d}\nspec:\n  selector: {matchLabels: {a: b}}\n  template:\n    metadata: {labels: {a: b}}\n    spec:\n      containers: [{name: Web, image: nginx}, {name: Web, image: nginx}]\n"),
    ] {
        let o = run(&mut c, "kubectl apply -f -", Some(create), &NoFiles);
        assert!(
            o.output.contains(&format!("The {kind} \"d\" is invalid: "))
                && o.output.contains("* spec.template.spec.containers[0].name: Invalid value: \"Web\": a lowercase RFC 1123 label")
                && o.output.contains("* spec.template.spec.containers[1].name: Duplicate value: \"Web\""),
            "{kind}: {}",
            o.output
        );
    }
    let cron = "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: cj}\nspec:\n  schedule: '* * * * *'\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          containers: [{image: busybox}]\n";
    let o = run(&mut c, "kubectl apply -f -", Some(cron), &NoFiles);
    assert!(
        o.output
            .contains("spec.jobTemplate.spec.template.spec.containers[0].name: Required value"),
        "{}",
        o.output
    );
}

#[test]
fn a_node_port_service_patched_to_cluster_ip_drops_and_frees_its_node_port() {
    let mut c = Cluster::with_default_nodes(1);
    sh(
        &mut c,
        "kubectl create service nodeport np --tcp=80:80 --node-port=30080",
    );
    let o = sh(
        &mut c,
        r#"kubectl patch service np -p '{"spec":{"type":"ClusterIP"}}'"#,
    );
    assert_eq!(o.trim(), "service/np patched");
    let svc = c
        .store
        .get::<Service>(&ObjKey::new("default", "np"))
        .unwrap()
        .clone();
    assert_eq!(
        (
            svc.spec.ports[0].node_port,
            svc.spec.external_traffic_policy.as_str()
        ),
        (0, "")
    );
    // The port is free again: another Service may take it.
    sh(
        &mut c,
        "kubectl create service nodeport other --tcp=80:80 --node-port=30080",
    );
    // A node port the request names anew is the user's: validation refuses it.
    let o = run(
        &mut c,
        r#"kubectl patch service other -p '{"spec":{"type":"ClusterIP","ports":[{"port":80,"nodePort":30081}]}}'"#,
        None,
        &NoFiles,
    );
    assert!(
        o.output.contains(
            "spec.ports[0].nodePort: Forbidden: may not be used when `type` is 'ClusterIP'"
        ),
        "{}",
        o.output
    );
}

#[test]
fn a_warning_is_printed_when_its_object_is_answered_once_a_command() {
    let mut c = Cluster::with_default_nodes(1);
    let two = "apiVersion: v1\nkind: Service\nmetadata: {name: db}\nspec:\n  ports: [{port: 5432}]\n---\napiVersion: v1\nkind: Endpoints\nmetadata: {name: db}\nsubsets: [{addresses: [{ip: 192.168.10.5}], ports: [{port: 5432}]}]\n---\napiVersion: v1\nkind: Endpoints\nmetadata: {name: db2}\n";
    let o = run(&mut c, "kubectl apply -f -", Some(two), &NoFiles);
    assert_eq!(
        o.output,
        "service/db created\nWarning: v1 Endpoints is deprecated in v1.33+; use discovery.k8s.io/v1 EndpointSlice\nendpoints/db created\nendpoints/db2 created\n"
    );
    // SetDefaults_EndpointPort.
    assert_eq!(
        sh(
            &mut c,
            "kubectl get endpoints db -o jsonpath={.subsets[0].ports[0].protocol}"
        )
        .lines()
        .last(),
        Some("TCP")
    );
}

#[test]
fn an_ingress_status_update_is_validated_and_leaves_the_spec_alone() {
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, r#"kubectl create ingress st --rule="/=web:80""#);
    let o = run(
        &mut c,
        r#"kubectl patch ingress st --subresource=status --type=merge -p '{"status":{"loadBalancer":{"ingress":[{"ip":"10.0.0.300"},{"hostname":"10.0.0.9"}]}}}'"#,
        None,
        &NoFiles,
    );
    assert_eq!(
        o.output.trim(),
        "The Ingress \"st\" is invalid: \n* status.loadBalancer.ingress[0].ip: Invalid value: \"10.0.0.300\": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)\n* status.loadBalancer.ingress[1].hostname: Invalid value: \"10.0.0.9\": must be a DNS name, not an IP address"
    );
    sh(
        &mut c,
        r#"kubectl patch ingress st --subresource=status --type=merge -p '{"status":{"loadBalancer":{"ingress":[{"hostname":"lb.example.com"}]}},"spec":{"defaultBackend":{"service":{"name":"x","port":{"number":1}}}}}'"#,
    );
    assert_eq!(
        sh(&mut c, "kubectl get ingress st -o jsonpath={.status.loadBalancer.ingress[0].hostname}/{.spec.defaultBackend}").trim(),
        "lb.example.com/"
    );
}

#[test]
fn a_probes_explicit_zeros_are_its_defaults() {
    let mut c = Cluster::with_default_nodes(1);
    let probe = WEB.replace(
        "        resources: {requests: {cpu: 100m}}\n",
        "        livenessProbe: {tcpSocket: {port: 80}, successThreshold: 0, timeoutSeconds: 0, periodSeconds: 0, failureThreshold: 0}\n",
    );
    let o = run(&mut c, "kubectl apply -f -", Some(&probe), &NoFiles);
    assert!(o.ok, "{}", o.output);
    assert_eq!(
        sh(
            &mut c,
            "kubectl get deploy web -o jsonpath={.spec.template.spec.containers[0].livenessProbe}"
        )
        .trim(),
        r#"{"failureThreshold":3,"periodSeconds":10,"successThreshold":1,"tcpSocket":{"port":80},"timeoutSeconds":1}"#
    );
}

#[test]
fn a_bad_output_format_is_met_after_the_write_where_kubectls_printer_is_made_after_it() {
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "kubectl create deployment web --image=nginx:1.27");
    let printer_error = "error: unable to match a printer suitable for the output format \"wide\"";
    // label and patch: sent, then refused at the printer; annotate: refused before
    // anything is sent.
    for line in [
        "kubectl label deploy web x=1 -o wide",
        r#"kubectl patch deploy web -p '{"metadata":{"labels":{"p":"1"}}}' -o wide"#,
        "kubectl annotate deploy web a=1 -o wide",
    ] {
        let o = run(&mut c, line, None, &NoFiles);
        assert!(
            !o.ok && o.output.starts_with(printer_error),
            "{line}: {}",
            o.output
        );
    }
    let meta = sh(
        &mut c,
        "kubectl get deploy web -o jsonpath={.metadata.labels}/{.metadata.annotations.a}",
    );
    assert_eq!(meta.trim(), r#"{"app":"web","p":"1","x":"1"}/"#);
    // autoscale: created through autoscaling/v2, then created again through v1 by
    // kubectl's fallback, whose AlreadyExists is what it reports.
    let o = run(
        &mut c,
        "kubectl autoscale deploy web --max=3 -o wide",
        None,
        &NoFiles,
    );
    assert_eq!(
        o.output.trim(),
        "Error from server (AlreadyExists): horizontalpodautoscalers.autoscaling \"web\" already exists"
    );
    assert!(sh(&mut c, "kubectl get hpa web").contains("web"));
}

#[test]
fn get_raw_asks_the_api_servers_own_handlers_and_prints_their_answer_in_kubectls_words() {
    let mut c = Cluster::with_default_nodes(1);
    apply(&mut c, WEB);
    let rv_before = c.store.revision();
    let o = run(
        &mut c,
        "kubectl get --raw /apis/apps/v1/namespaces/default/deployments/web",
        None,
        &NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    let web: serde_json::Value = serde_json::from_str(&o.output).unwrap();
    assert_eq!(web["spec"]["replicas"], 1);
    // managedFields, which the server always sends, and kubectl's get hides.
    assert!(web["metadata"]["managedFields"].is_array(), "{web}");
    // A GET writes nothing.
    assert_eq!(c.store.revision(), rv_before);
    let fails = [
        (
            "kubectl get --raw /api/v1/namespaces/default/pods/nope",
            "Error from server (NotFound): pods \"nope\" not found",
        ),
        (
            "kubectl get --raw /no/such/path",
            "Error from server (NotFound): the server could not find the requested resource",
        ),
        (
            "kubectl get --raw api/v1",
            "error: --raw must be a valid URL path: parse \"api/v1\": invalid URI for request",
        ),
        (
            "kubectl get --raw /api/v1/nodes --as=alice",
            "Error from server (Forbidden): nodes is forbidden: User \"alice\" cannot list resource \"nodes\" in API group \"\" at the cluster scope",
        ),
        (
            "kubectl get --raw /api/v1/nodes --token=bogus",
            "error: You must be logged in to the server (Unauthorized)",
        ),
        (
            "kubectl get pods --raw /api",
            "error: arguments may not be passed when --raw is specified",
        ),
        (
            "kubectl get --raw /api -o yaml",
            "error: --raw and --output are mutually exclusive",
        ),
    ];
    for (line, want) in fails {
        let o = run(&mut c, line, None, &NoFiles);
        assert!(!o.ok, "{line}");
        assert_eq!(o.output.trim_end(), want, "{line}");
    }
}
