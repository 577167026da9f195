//! Each API server's records about itself: its identity Lease in kube-system, renewed
//! every 10 s with a holder that changes at each start, collected an hour after it
//! expires; and its address in the `kubernetes` Endpoints and EndpointSlice.

mod common;

use common::*;
use kubeplay_engine::api::{EndpointSlice, Endpoints, Lease};
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;

const FIRST: &str = "apiserver-ktnciuvxljjqohol43g65rthde";
const SECOND_ID: &str = "apiserver-i4xffy4akgtjq4cbary7c3zksu";

fn identity(c: &Cluster, name: &str) -> Option<Lease> {
    c.store
        .get::<Lease>(&ObjKey::new("kube-system", name))
        .cloned()
}

fn slice_addresses(c: &Cluster) -> Vec<String> {
    c.store
        .get::<EndpointSlice>(&ObjKey::new("default", "kubernetes"))
        .and_then(|s| s.endpoints.clone())
        .unwrap_or_default()
        .into_iter()
        .flat_map(|e| e.addresses)
        .collect()
}

fn endpoints_addresses(c: &Cluster) -> Vec<String> {
    c.store
        .get::<Endpoints>(&ObjKey::new("default", "kubernetes"))
        .map(|e| {
            e.subsets
                .iter()
                .flat_map(|s| s.addresses.iter().map(|a| a.ip.clone()))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn the_api_server_holds_its_identity_lease_and_renews_it_every_ten_seconds() {
    let mut c = Cluster::with_default_nodes(3);
    let l = identity(&c, FIRST).expect("created at start");
    assert_eq!(
        l.metadata.labels["apiserver.kubernetes.io/identity"],
        "kube-apiserver"
    );
    assert_eq!(
        l.metadata.labels["kubernetes.io/hostname"],
        "control-plane-1"
    );
    assert!(l.spec.holder_identity.starts_with(&format!("{FIRST}_")));
    assert_eq!(l.spec.lease_duration_seconds, 3600);
    c.advance(10_000);
    let renewed = identity(&c, FIRST).unwrap();
    assert_eq!(renewed.spec.renew_ms, 10_000);
    assert_eq!(renewed.spec.holder_identity, l.spec.holder_identity);
}

#[test]
fn the_kubernetes_endpoints_list_every_running_api_server_sorted() {
    let mut c = Cluster::with_default_nodes(3);
    assert_eq!(slice_addresses(&c), ["10.0.0.2"]);
    sh(&mut c, "sim apiserver replicas 3");
    let all = ["10.0.0.2", "10.0.255.2", "10.0.255.3"];
    assert_eq!(slice_addresses(&c), all);
    assert_eq!(endpoints_addresses(&c), all);
    assert!(identity(&c, SECOND_ID).is_some());
    let holder = identity(&c, SECOND_ID).unwrap().spec.holder_identity;
    // A replica that stops takes its address out as it shuts down.
    sh(&mut c, "sim apiserver down kube-apiserver-control-plane-2");
    assert_eq!(slice_addresses(&c), ["10.0.0.2", "10.0.255.3"]);
    assert_eq!(endpoints_addresses(&c), ["10.0.0.2", "10.0.255.3"]);
    c.advance(30_000);
    assert_eq!(
        identity(&c, SECOND_ID).unwrap().spec.renew_ms,
        0,
        "not renewed"
    );
    // Started again: a new process, a new holder.
    sh(&mut c, "sim apiserver up kube-apiserver-control-plane-2");
    assert_eq!(slice_addresses(&c), all);
    let again = identity(&c, SECOND_ID).unwrap().spec.holder_identity;
    assert_ne!(again, holder);
    assert!(again.starts_with(&format!("{SECOND_ID}_")));
}

#[test]
fn a_replica_removed_for_good_loses_its_identity_lease_an_hour_after_it_expired() {
    let mut c = Cluster::with_default_nodes(3);
    sh(&mut c, "sim apiserver replicas 2");
    sh(&mut c, "sim apiserver replicas 1");
    assert_eq!(slice_addresses(&c), ["10.0.0.2"]);
    c.advance(3_600_000);
    assert!(identity(&c, SECOND_ID).is_some(), "not expired yet");
    c.advance(3_600_000);
    assert!(identity(&c, SECOND_ID).is_none(), "collected");
    assert!(identity(&c, FIRST).is_some(), "the running one stays");
}

#[test]
fn the_api_server_down_writes_nothing_and_comes_back_with_a_new_holder() {
    let mut c = Cluster::with_default_nodes(3);
    let holder = identity(&c, FIRST).unwrap().spec.holder_identity;
    let rev = c.store.revision();
    sh(&mut c, "sim apiserver down");
    c.advance(60_000);
    assert_eq!(c.store.revision(), rev);
    sh(&mut c, "sim apiserver up");
    let l = identity(&c, FIRST).unwrap();
    assert_ne!(l.spec.holder_identity, holder);
    assert_eq!(slice_addresses(&c), ["10.0.0.2"]);
}
