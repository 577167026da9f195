//! The cluster DNS add-on: CoreDNS as kubeadm installs it, its Pods ordinary Pods behind
//! `kube-system/kube-dns` at 10.96.0.10, and names that resolve only while one of them
//! is Ready.

use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::scenario;

fn sh(c: &mut Cluster, cmd: &str) -> (bool, String) {
    let o = run(c, cmd, None, &NoFiles);
    (o.ok, o.output)
}

fn dns_pods(c: &Cluster) -> Vec<&Pod> {
    c.store
        .list_ns::<Pod>("kube-system")
        .filter(|p| p.metadata.labels.get("k8s-app").map(String::as_str) == Some("kube-dns"))
        .collect()
}

#[test]
fn the_standard_cluster_runs_two_coredns_pods_on_two_nodes_behind_kube_dns() {
    let mut c = Cluster::standard(1);
    assert!(c.settle(120_000));
    let svc = c
        .store
        .get::<Service>(&ObjKey::new("kube-system", "kube-dns"))
        .expect("kube-dns");
    assert_eq!(svc.spec.cluster_ip, "10.96.0.10");
    assert_eq!(
        svc.spec
            .selector
            .as_ref()
            .and_then(|s| s.get("k8s-app"))
            .map(String::as_str),
        Some("kube-dns")
    );
    let pods = dns_pods(&c);
    assert_eq!(pods.len(), 2);
    assert!(pods.iter().all(|p| p.is_ready()));
    // The preferred anti-affinity spreads them.
    assert_ne!(pods[0].spec.node_name, pods[1].spec.node_name);
    assert_eq!(
        pods[0].spec.priority_class_name, "system-cluster-critical",
        "kubeadm's priority"
    );
    let ready: usize = c
        .store
        .list_ns::<EndpointSlice>("kube-system")
        .flat_map(|s| s.endpoints.clone().unwrap_or_default())
        .filter(|e| e.conditions.ready == Some(true))
        .count();
    assert_eq!(ready, 2, "the EndpointSlice controller lists both");
    let (ok, out) = sh(&mut c, "sim nslookup kubernetes.default");
    assert!(ok, "{out}");
    assert!(out.trim_end().ends_with("Address: 10.96.0.1"), "{out}");
}

#[test]
fn a_deleted_coredns_pod_is_replaced_by_its_replicaset_like_any_other() {
    let mut c = Cluster::standard(1);
    assert!(c.settle(120_000));
    let victim = dns_pods(&c)[0].metadata.name.clone();
    let (ok, out) = sh(
        &mut c,
        &format!("kubectl delete pod {victim} -n kube-system"),
    );
    assert!(ok, "{out}");
    assert!(c.settle(120_000));
    let pods = dns_pods(&c);
    assert_eq!(pods.len(), 2);
    assert!(pods
        .iter()
        .all(|p| p.metadata.name != victim && p.is_ready()));
}

#[test]
fn without_a_ready_coredns_no_name_resolves() {
    // A cluster without the add-on.
    let mut bare = Cluster::with_default_nodes(1);
    assert!(bare.settle(60_000));
    let (ok, out) = sh(&mut bare, "sim nslookup kubernetes.default");
    assert!(!ok);
    assert_eq!(
        out.trim(),
        ";; connection timed out; no servers could be reached"
    );
    // And one whose CoreDNS Pods are all gone.
    let mut c = Cluster::standard(1);
    assert!(c.settle(120_000));
    let (ok, out) = sh(
        &mut c,
        "kubectl scale deployment coredns -n kube-system --replicas=0",
    );
    assert!(ok, "{out}");
    assert!(c.settle(120_000));
    let (ok, out) = sh(&mut c, "sim nslookup kubernetes.default");
    assert!(!ok, "{out}");
    assert!(out.contains("no servers could be reached"), "{out}");
}

#[test]
fn reset_and_scenarios_choose_whether_the_add_on_runs() {
    let mut c = Cluster::standard(1);
    let (ok, out) = sh(&mut c, "sim reset --nodes 2 --dns=false");
    assert!(ok, "{out}");
    assert!(out.trim_end().ends_with(", no DNS add-on"), "{out}");
    assert!(c.settle(60_000));
    assert_eq!(c.store.list_ns::<Pod>("kube-system").count(), 0);
    let (ok, out) = sh(&mut c, "sim reset --nodes 2");
    assert!(ok, "{out}");
    assert!(c.settle(120_000));
    assert_eq!(dns_pods(&c).len(), 2);
    let text = |dns: &str| {
        format!("id: t\ntitle: {{en: a, zh: b}}\ndescription: {{en: a, zh: b}}\ncluster: {{nodes: [{{name: n1}}, {{name: n2}}]{dns}}}\nsetup: |\n  sim settle\n")
    };
    for (dns, pods) in [("", 2), (", dns: true", 2), (", dns: false", 0)] {
        let s = scenario::parse(&text(dns), "t.yaml").unwrap();
        let c = scenario::build(&s).unwrap();
        assert_eq!(dns_pods(&c).len(), pods, "{dns:?}");
    }
}
