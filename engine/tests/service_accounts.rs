//! ServiceAccounts as a v1.33 cluster has them: `default` and `kube-root-ca.crt` in
//! every namespace, the ServiceAccount admission plugin's token volume and refusal,
//! TokenRequest and the token authenticator behind `kubectl create token`.

mod common;

use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn fails(c: &mut Cluster, line: &str) -> String {
    let o = run(c, line, None, &NoFiles);
    assert!(!o.ok, "{line} should fail: {}", o.output);
    o.output
}

#[test]
fn every_namespace_has_its_default_account_and_the_root_ca_even_a_new_one() {
    let mut c = web_cluster(1);
    for ns in ["default", "kube-node-lease", "kube-public", "kube-system"] {
        assert!(
            c.store
                .get::<ServiceAccount>(&ObjKey::new(ns, "default"))
                .is_some(),
            "{ns}"
        );
        let cm = c
            .store
            .get::<ConfigMap>(&ObjKey::new(ns, "kube-root-ca.crt"))
            .unwrap();
        assert!(cm.data["ca.crt"].starts_with("-----BEGIN CERTIFICATE-----"));
    }
    // kube-controller-manager's controllers run as accounts of kube-system.
    assert!(c
        .store
        .get::<ServiceAccount>(&ObjKey::new("kube-system", "replicaset-controller"))
        .is_some());
    sh(&mut c, "kubectl create namespace team");
    c.advance(1_000);
    assert_eq!(
        sh(&mut c, "kubectl get sa,cm -n team -o name"),
        "serviceaccount/default\nconfigmap/kube-root-ca.crt\n"
    );
    // Deleted, both come back; edited, the CA bundle is put back.
    sh(&mut c, "kubectl delete sa default -n team");
    sh(&mut c, "kubectl delete cm kube-root-ca.crt -n team");
    c.advance(1_000);
    assert_eq!(
        sh(&mut c, "kubectl get sa,cm -n team -o name"),
        "serviceaccount/default\nconfigmap/kube-root-ca.crt\n"
    );
    sh(
        &mut c,
        "kubectl patch cm kube-root-ca.crt -n team -p '{\"data\":{\"ca.crt\":\"x\"}}'",
    );
    c.advance(1_000);
    let cm = c
        .store
        .get::<ConfigMap>(&ObjKey::new("team", "kube-root-ca.crt"))
        .unwrap();
    assert!(cm.data["ca.crt"].starts_with("-----BEGIN CERTIFICATE-----"));
}

#[test]
fn admission_mounts_the_token_volume_in_every_container_unless_automount_is_off() {
    let mut c = web_cluster(2);
    let p = web_pod(&c);
    let volume = p
        .spec
        .volumes
        .iter()
        .find(|v| v.name.starts_with("kube-api-access-"))
        .unwrap();
    assert_eq!(volume.name.len(), "kube-api-access-".len() + 5);
    let projected = &volume.source["projected"];
    assert_eq!(
        projected["sources"][0]["serviceAccountToken"]["expirationSeconds"],
        3607
    );
    assert_eq!(
        projected["sources"][1]["configMap"]["name"],
        "kube-root-ca.crt"
    );
    let m = &p.spec.containers[0].volume_mounts[0];
    assert_eq!(
        m.mount_path,
        "/var/run/secrets/kubernetes.io/serviceaccount"
    );
    assert_eq!(
        (m.name.as_str(), m.read_only),
        (volume.name.as_str(), Some(true))
    );
    apply(
        &mut c,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: quiet}\nspec:\n  automountServiceAccountToken: false\n  initContainers: [{name: i, image: busybox}]\n  containers: [{name: c, image: nginx}]\n",
    );
    let quiet = pod(&c, "quiet").unwrap();
    assert!(quiet.spec.volumes.is_empty());
    apply(
        &mut c,
        "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: quiet}\nautomountServiceAccountToken: false\nimagePullSecrets: [{name: regcred}]\n",
    );
    apply(
        &mut c,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: q2}\nspec:\n  serviceAccountName: quiet\n  containers: [{name: c, image: nginx}]\n",
    );
    let q2 = pod(&c, "q2").unwrap();
    assert!(
        q2.spec.volumes.is_empty(),
        "the account turns automount off"
    );
    assert_eq!(
        q2.spec.extra["imagePullSecrets"],
        serde_json::json!([{"name": "regcred"}]),
        "the account's pull secrets are copied"
    );
    // Init containers get the mount too.
    apply(
        &mut c,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: init}\nspec:\n  initContainers: [{name: i, image: busybox}]\n  containers: [{name: c, image: nginx}]\n",
    );
    let init = pod(&c, "init").unwrap();
    assert_eq!(init.spec.init_containers[0].volume_mounts.len(), 1);
    assert_eq!(init.spec.volumes.len(), 1);
}

fn web_pod(c: &Cluster) -> Pod {
    c.store
        .list::<Pod>()
        .find(|p| p.metadata.labels.get("app").map(String::as_str) == Some("web"))
        .cloned()
        .unwrap()
}

#[test]
fn a_missing_account_is_refused_with_the_generate_name_a_replica_set_sent() {
    let mut c = web_cluster(3);
    let o = run(
        &mut c,
        "kubectl apply -f -",
        Some("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  serviceAccountName: ghost\n  containers: [{name: c, image: nginx}]\n"),
        &NoFiles,
    );
    assert!(!o.ok);
    let out = o.output;
    assert!(out.contains("serviceaccount \"ghost\" not found"), "{out}");
    sh(
        &mut c,
        "kubectl patch deployment web -p '{\"spec\":{\"template\":{\"spec\":{\"serviceAccountName\":\"ghost\"}}}}'",
    );
    c.advance(5_000);
    let events = sh(
        &mut c,
        "kubectl get events --field-selector reason=FailedCreate",
    );
    assert!(
        events.contains("Error creating: pods \"web-") && events.contains("-\" is forbidden: error looking up service account default/ghost: serviceaccount \"ghost\" not found"),
        "{events}"
    );
}

#[test]
fn a_token_from_create_token_authenticates_as_its_account_until_it_expires_or_the_account_goes() {
    let mut c = web_cluster(4);
    sh(&mut c, "kubectl create serviceaccount robot");
    let token = sh(&mut c, "kubectl create token robot --duration=10m");
    let token = token.trim();
    assert_eq!(token.split('.').count(), 3);
    let whoami = sh(&mut c, &format!("kubectl auth whoami --token={token}"));
    assert!(
        whoami.contains("system:serviceaccount:default:robot"),
        "{whoami}"
    );
    assert!(
        whoami.contains("system:serviceaccounts:default"),
        "{whoami}"
    );
    let refused = fails(&mut c, &format!("kubectl get pods --token={token}"));
    assert!(
        refused
            .contains("User \"system:serviceaccount:default:robot\" cannot list resource \"pods\""),
        "{refused}"
    );
    sh(
        &mut c,
        "kubectl create rolebinding robot-view --clusterrole=view --serviceaccount=default:robot",
    );
    sh(&mut c, &format!("kubectl get pods --token={token}"));
    // One character changed, the signature no longer matches.
    let forged = format!("{}A", &token[..token.len() - 1]);
    let forged = if forged == token {
        format!("{}B", &token[..token.len() - 1])
    } else {
        forged
    };
    let out = fails(&mut c, &format!("kubectl get pods --token={forged}"));
    assert!(out.contains("Unauthorized"), "{out}");
    // Ten minutes later it has expired.
    c.advance(600_000);
    let out = fails(&mut c, &format!("kubectl get pods --token={token}"));
    assert!(out.contains("Unauthorized"), "{out}");
    // A new one works until the account is deleted.
    let token = sh(&mut c, "kubectl create token robot");
    let token = token.trim();
    sh(&mut c, &format!("kubectl get pods --token={token}"));
    sh(&mut c, "kubectl delete sa robot");
    let out = fails(&mut c, &format!("kubectl get pods --token={token}"));
    assert!(out.contains("Unauthorized"), "{out}");
}

#[test]
fn create_token_says_what_kubectl_says_when_it_cannot() {
    let mut c = web_cluster(5);
    assert_eq!(
        fails(&mut c, "kubectl create token nobody"),
        "error: failed to create token: serviceaccounts \"nobody\" not found\n"
    );
    assert_eq!(
        fails(&mut c, "kubectl create token default --duration=1m"),
        "error: failed to create token: TokenRequest.authentication.k8s.io \"default\" is invalid: spec.expirationSeconds: Invalid value: 60: may not specify a duration less than 10 minutes\n"
    );
    assert_eq!(
        fails(&mut c, "kubectl create token default --duration=1500ms"),
        "error: --duration cannot be expressed in units less than seconds\n"
    );
}

#[test]
fn describe_lists_an_accounts_secrets_and_marks_the_missing() {
    let mut c = web_cluster(6);
    apply(
        &mut c,
        "apiVersion: v1\nkind: ServiceAccount\nmetadata: {name: ci}\nimagePullSecrets: [{name: regcred}]\nsecrets: [{name: deploy-key}]\n",
    );
    sh(
        &mut c,
        "kubectl create secret generic deploy-key --from-literal=k=v",
    );
    let d = sh(&mut c, "kubectl describe sa ci");
    assert_eq!(
        d,
        "Name:                ci\nNamespace:           default\nLabels:              <none>\nAnnotations:         <none>\nImage pull secrets:  regcred (not found)\nMountable secrets:   deploy-key\nTokens:              <none>\nEvents:              <none>\n"
    );
    assert_eq!(
        sh(&mut c, "kubectl get sa ci"),
        "NAME   SECRETS   AGE\nci     1         0s\n"
    );
}
