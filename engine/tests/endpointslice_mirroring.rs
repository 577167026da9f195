//! A Service without a selector gets its endpoints from a hand-written Endpoints
//! object; the EndpointSlice mirroring controller copies them into EndpointSlices, so
//! kube-proxy has rules for them.

mod common;

use common::*;
use kubeplay_engine::api::EndpointSlice;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;

const EXTERNAL: &str = "apiVersion: v1\nkind: Service\nmetadata: {name: db}\nspec:\n  ports: [{name: pg, port: 5432}]\n---\napiVersion: v1\nkind: Endpoints\nmetadata:\n  name: db\n  labels: {team: data}\nsubsets:\n- addresses: [{ip: 192.168.10.5}, {ip: 192.168.10.6}]\n  notReadyAddresses: [{ip: 192.168.10.7}]\n  ports: [{name: pg, port: 5432}]\n";

fn mirrored(c: &Cluster) -> Vec<EndpointSlice> {
    c.store
        .list::<EndpointSlice>()
        .filter(|s| {
            s.metadata
                .labels
                .get("endpointslice.kubernetes.io/managed-by")
                .map(String::as_str)
                == Some("endpointslicemirroring-controller.k8s.io")
        })
        .cloned()
        .collect()
}

#[test]
fn hand_written_endpoints_are_mirrored_into_a_slice_kube_proxy_reads() {
    let mut c = Cluster::with_default_nodes(3);
    apply(&mut c, EXTERNAL);
    c.settle(30_000);
    let slices = mirrored(&c);
    assert_eq!(slices.len(), 1, "{slices:?}");
    let s = &slices[0];
    assert!(s.metadata.name.starts_with("db-"), "{}", s.metadata.name);
    assert_eq!(
        s.metadata.labels.get("kubernetes.io/service-name").unwrap(),
        "db"
    );
    assert_eq!(s.metadata.labels.get("team").unwrap(), "data");
    assert_eq!(s.metadata.owner_references[0].kind, "Endpoints");
    let eps: Vec<(String, Option<bool>)> = s
        .endpoints
        .iter()
        .flatten()
        .map(|e| (e.addresses[0].clone(), e.conditions.ready))
        .collect();
    assert_eq!(
        eps,
        [
            ("192.168.10.5".to_string(), Some(true)),
            ("192.168.10.6".to_string(), Some(true)),
            ("192.168.10.7".to_string(), Some(false)),
        ]
    );
    // kube-proxy programs the two ready addresses.
    c.advance(5_000);
    let rules = c
        .proxies
        .rules("node-1", &ObjKey::new("default", "db"))
        .expect("rules");
    let ready: Vec<&str> = rules
        .endpoints
        .iter()
        .filter(|e| e.ready)
        .map(|e| e.ip.as_str())
        .collect();
    assert_eq!(ready, ["192.168.10.5", "192.168.10.6"]);
    // A changed Endpoints object changes the slice in place.
    apply(
        &mut c,
        &EXTERNAL.replace("{ip: 192.168.10.6}", "{ip: 192.168.10.8}"),
    );
    c.settle(30_000);
    let slices = mirrored(&c);
    assert_eq!(slices.len(), 1);
    assert_eq!(slices[0].metadata.name, s.metadata.name);
    assert!(slices[0]
        .endpoints
        .iter()
        .flatten()
        .any(|e| e.addresses[0] == "192.168.10.8"));
    // skip-mirror takes the slice away; so does a selector on the Service.
    sh(
        &mut c,
        "kubectl label endpoints db endpointslice.kubernetes.io/skip-mirror=true",
    );
    c.settle(30_000);
    assert!(mirrored(&c).is_empty());
    sh(
        &mut c,
        "kubectl label endpoints db endpointslice.kubernetes.io/skip-mirror-",
    );
    c.settle(30_000);
    assert_eq!(mirrored(&c).len(), 1);
    sh(
        &mut c,
        r#"kubectl patch service db -p '{"spec":{"selector":{"app":"db"}}}'"#,
    );
    c.settle(30_000);
    assert!(mirrored(&c).is_empty());
}

#[test]
fn a_service_with_a_selector_is_never_mirrored() {
    let mut c = Cluster::with_default_nodes(3);
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=2",
    );
    sh(&mut c, "kubectl expose deployment web --port=80");
    c.settle(60_000);
    assert!(mirrored(&c).is_empty());
}
