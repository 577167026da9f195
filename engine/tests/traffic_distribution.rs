//! `trafficDistribution: PreferClose` (GA in v1.33): the EndpointSlice controller
//! hints each ready endpoint for its own zone, and kube-proxy keeps a node's traffic
//! on the endpoints hinted for the node's zone. Without the field the hints go away
//! and traffic spreads over every zone again.

mod common;

use common::*;
use kubeplay_engine::api::{EndpointSlice, Node, Pod};
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use std::collections::BTreeMap;

fn zone_of_node(c: &Cluster, node: &str) -> String {
    c.store
        .get::<Node>(&ObjKey::new("", node))
        .and_then(|n| {
            n.metadata
                .labels
                .get("topology.kubernetes.io/zone")
                .cloned()
        })
        .unwrap_or_default()
}

/// Requests each zone's Pods logged, by zone.
fn logged_by_zone(c: &Cluster) -> BTreeMap<String, usize> {
    let mut out = BTreeMap::new();
    for p in c.store.list::<Pod>() {
        let n = c.proxies.logs.get(&p.metadata.uid).map_or(0, |l| l.len());
        *out.entry(zone_of_node(c, &p.spec.node_name)).or_default() += n;
    }
    out
}

fn hints(c: &Cluster) -> Vec<(String, Vec<String>)> {
    c.store
        .list::<EndpointSlice>()
        .filter(|s| {
            s.metadata
                .labels
                .get("kubernetes.io/service-name")
                .map(String::as_str)
                == Some("web")
        })
        .flat_map(|s| s.endpoints.clone().unwrap_or_default())
        .map(|e| {
            let zones = e
                .hints
                .map(|h| h.for_zones.into_iter().map(|z| z.name).collect())
                .unwrap_or_default();
            (e.zone, zones)
        })
        .collect()
}

#[test]
fn prefer_close_hints_each_endpoint_for_its_zone_and_keeps_traffic_in_the_zone() {
    let mut c = Cluster::with_default_nodes(5);
    sh(&mut c, "sim reset --nodes 4 --zones 2");
    sh(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=4",
    );
    sh(&mut c, "kubectl expose deployment web --port=80");
    c.settle(120_000);
    assert!(
        hints(&c).iter().all(|(_, h)| h.is_empty()),
        "no hints without the field"
    );
    sh(
        &mut c,
        r#"kubectl patch service web -p '{"spec":{"trafficDistribution":"PreferClose"}}'"#,
    );
    c.settle(60_000);
    let h = hints(&c);
    assert_eq!(h.len(), 4);
    for (zone, for_zones) in &h {
        assert_eq!(for_zones, &vec![zone.clone()], "{h:?}");
    }
    // Both zones have Pods; traffic entering at node-1 (zone-a) stays in zone-a.
    assert_eq!(zone_of_node(&c, "node-1"), "zone-a");
    sh(
        &mut c,
        "sim traffic service/web --rps 10 --from node-1 --for 3s",
    );
    c.advance(10_000);
    let by_zone = logged_by_zone(&c);
    assert_eq!(
        by_zone.get("zone-b").copied().unwrap_or(0),
        0,
        "{by_zone:?}"
    );
    assert!(
        by_zone.get("zone-a").copied().unwrap_or(0) >= 30,
        "{by_zone:?}"
    );
    // Without the field the hints are removed.
    sh(
        &mut c,
        r#"kubectl patch service web -p '{"spec":{"trafficDistribution":null}}'"#,
    );
    c.settle(60_000);
    assert!(
        hints(&c).iter().all(|(_, h)| h.is_empty()),
        "{:?}",
        hints(&c)
    );
}

#[test]
fn an_unknown_traffic_distribution_is_refused() {
    let mut c = Cluster::with_default_nodes(5);
    sh(&mut c, "kubectl create service clusterip web --tcp=80:80");
    let o = kubeplay_engine::command::run(
        &mut c,
        r#"kubectl patch service web -p '{"spec":{"trafficDistribution":"Nearby"}}'"#,
        None,
        &kubeplay_engine::command::NoFiles,
    );
    assert_eq!(
        o.output.trim(),
        r#"The Service "web" is invalid: spec.trafficDistribution: Unsupported value: "Nearby": supported values: "PreferClose""#
    );
}
