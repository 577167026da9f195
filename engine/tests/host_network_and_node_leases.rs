//! A Pod in the node's network namespace has the node's IP as its own, and a
//! DaemonSet's hostNetwork Pods tolerate `network-unavailable`; each node's Lease is
//! owned by its Node, so deleting the Node deletes the Lease.

mod common;

use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::time::SECOND;

#[test]
fn a_host_network_pod_has_its_nodes_ip() {
    let mut c = web_cluster(4);
    apply(
        &mut c,
        "apiVersion: v1\nkind: Pod\nmetadata: {name: agent}\nspec:\n  hostNetwork: true\n  containers: [{name: a, image: nginx:1.27}]\n",
    );
    c.advance(20 * SECOND);
    let p = pod(&c, "agent").unwrap().clone();
    assert!(
        p.status.host_ip.starts_with("10.0."),
        "{}",
        p.status.host_ip
    );
    assert_eq!(p.status.pod_ip, p.status.host_ip);
    assert_eq!(p.status.pod_ips[0].ip, p.status.host_ip);
    let wide = sh(&mut c, "kubectl get pod agent -o wide --no-headers");
    assert!(wide.contains(&p.status.host_ip), "{wide}");
}

#[test]
fn a_host_network_daemonsets_pods_tolerate_an_unavailable_network() {
    let mut c = web_cluster(4);
    let ds = |host: bool| {
        format!(
            "apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {{name: ds{host}}}\nspec:\n  selector: {{matchLabels: {{app: ds{host}}}}}\n  template:\n    metadata: {{labels: {{app: ds{host}}}}}\n    spec:\n      hostNetwork: {host}\n      containers: [{{name: a, image: nginx:1.27}}]\n"
        )
    };
    apply(&mut c, &ds(true));
    apply(&mut c, &ds(false));
    c.advance(20 * SECOND);
    let tolerates = |prefix: &str| {
        c.store
            .list::<Pod>()
            .filter(|p| p.metadata.name.starts_with(prefix))
            .map(|p| {
                p.spec
                    .tolerations
                    .iter()
                    .any(|t| t.key == "node.kubernetes.io/network-unavailable")
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(tolerates("dstrue-"), vec![true; 3]);
    assert_eq!(tolerates("dsfalse-"), vec![false; 3]);
}

#[test]
fn each_node_lease_is_owned_by_its_node_and_goes_with_it() {
    let mut c = web_cluster(4);
    c.advance(20 * SECOND);
    let lease = c
        .store
        .get::<Lease>(&ObjKey::new("kube-node-lease", "node-2"))
        .unwrap();
    let node = c.store.get::<Node>(&ObjKey::new("", "node-2")).unwrap();
    let owner = &lease.metadata.owner_references[0];
    assert_eq!(
        (
            owner.api_version.as_str(),
            owner.kind.as_str(),
            owner.name.as_str()
        ),
        ("v1", "Node", "node-2")
    );
    assert_eq!(owner.uid, node.metadata.uid);
    assert_eq!(owner.controller, None);
    sh(&mut c, "kubectl delete node node-2");
    c.advance(20 * SECOND);
    assert!(c
        .store
        .get::<Lease>(&ObjKey::new("kube-node-lease", "node-2"))
        .is_none());
}
