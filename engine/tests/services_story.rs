//! Services end to end: the EndpointSlice and Endpoints controllers follow the Pods
//! through a rollout and a node failure, and every write of theirs is in the watch log
//! under their names.

mod common;

use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;

/// Every endpoint of Service `svc`'s slices: (Pod name, ready, serving, terminating).
fn endpoints_of(c: &Cluster, svc: &str) -> Vec<(String, bool, bool, bool)> {
    let mut v: Vec<_> = c
        .store
        .list_ns::<EndpointSlice>("default")
        .filter(|s| {
            s.metadata
                .labels
                .get("kubernetes.io/service-name")
                .map(String::as_str)
                == Some(svc)
        })
        .flat_map(|s| s.endpoints.clone().unwrap_or_default())
        .map(|e| {
            (
                e.target_ref.map(|r| r.name).unwrap_or_default(),
                e.conditions.ready == Some(true),
                e.conditions.serving == Some(true),
                e.conditions.terminating == Some(true),
            )
        })
        .collect();
    v.sort();
    v
}

/// What the slices should say: every Pod of `app` with an IP that is not terminal.
fn expected(c: &Cluster, app: &str) -> Vec<(String, bool, bool, bool)> {
    let mut v: Vec<_> = c
        .store
        .list_ns::<Pod>("default")
        .filter(|p| p.metadata.labels.get("app").map(String::as_str) == Some(app))
        .filter(|p| !p.status.pod_ip.is_empty() && !p.is_terminal())
        .map(|p| {
            let terminating = p.metadata.is_deleting();
            (
                p.metadata.name.clone(),
                p.is_ready() && !terminating,
                p.is_ready(),
                terminating,
            )
        })
        .collect();
    v.sort();
    v
}

fn ready_addresses(c: &Cluster, svc: &str) -> usize {
    c.store
        .get::<Endpoints>(&ObjKey::new("default", svc))
        .map_or(0, |e| e.subsets.iter().map(|s| s.addresses.len()).sum())
}

#[test]
fn slices_follow_the_pods_through_a_rollout_and_settle_on_the_new_ones() {
    let mut c = web_cluster(7);
    sh(&mut c, "kubectl expose deployment web --port=80");
    assert!(c.settle(60_000));
    assert_eq!(endpoints_of(&c, "web"), expected(&c, "web"));
    assert_eq!(endpoints_of(&c, "web").len(), 3);
    assert_eq!(ready_addresses(&c, "web"), 3);
    sh(&mut c, "kubectl set image deployment/web nginx=nginx:1.28");
    // Mid-rollout the slices list new Pods before they are ready and old ones while
    // they terminate (one controller latency behind the Pods, so sampled, not equal).
    let (mut saw_not_ready_new, mut saw_terminating_old) = (false, false);
    for _ in 0..60 {
        c.advance(500);
        for (name, ready, serving, terminating) in endpoints_of(&c, "web") {
            let new = pod(&c, &name).is_some_and(|p| p.spec.containers[0].image == "nginx:1.28");
            saw_not_ready_new |= new && !ready && !serving && !terminating;
            saw_terminating_old |= !new && terminating && !ready;
        }
    }
    assert!(saw_not_ready_new && saw_terminating_old);
    assert!(c.settle(120_000));
    let eps = endpoints_of(&c, "web");
    assert_eq!(eps, expected(&c, "web"));
    assert_eq!(eps.len(), 3);
    assert!(eps.iter().all(|(_, ready, _, _)| *ready));
    // Every slice write is the controller's.
    let writers: std::collections::BTreeSet<String> = c
        .store
        .log
        .iter()
        .filter(|e| e.kind == Kind::EndpointSlice && e.key.name != "kubernetes")
        .map(|e| e.writer.clone())
        .collect();
    assert!(
        writers
            .iter()
            .all(|w| w == "endpointslice-controller" || w == "garbage-collector"),
        "{writers:?}"
    );
}

#[test]
fn a_powered_off_nodes_endpoints_turn_not_ready_only_after_the_node_is_marked_unknown() {
    let mut c = web_cluster(3);
    sh(&mut c, "kubectl expose deployment web --port=80");
    assert!(c.settle(60_000));
    let node = pod_names(&c)
        .first()
        .and_then(|n| pod(&c, n))
        .map(|p| p.spec.node_name.clone())
        .unwrap();
    let on_node: Vec<String> = c
        .store
        .pods_on_node(&node)
        .map(|p| p.metadata.name.clone())
        .collect();
    sh(&mut c, &format!("sim node down {node}"));
    let start = c.now();
    // The kubelet cannot say anything; the endpoints stay ready until the node
    // lifecycle controller marks the node's Pods not ready (grace period, then Unknown).
    let became = step_until(&mut c, 120_000, "endpoints not ready", |c| {
        endpoints_of(c, "web")
            .iter()
            .any(|(n, ready, _, _)| on_node.contains(n) && !ready)
    });
    let waited = became - start;
    assert!(
        (40_000..=60_000).contains(&waited),
        "the window of stale ready endpoints was {waited} ms"
    );
}

fn pod_names(c: &Cluster) -> Vec<String> {
    c.store
        .list_ns::<Pod>("default")
        .map(|p| p.metadata.name.clone())
        .collect()
}

#[test]
fn deleting_the_service_removes_its_slices_by_owner_and_its_endpoints_by_the_controller() {
    let mut c = web_cluster(5);
    sh(&mut c, "kubectl expose deployment web --port=80");
    assert!(c.settle(60_000));
    sh(&mut c, "kubectl delete service web");
    assert!(c.settle(60_000));
    assert!(endpoints_of(&c, "web").is_empty());
    assert!(c
        .store
        .get::<Endpoints>(&ObjKey::new("default", "web"))
        .is_none());
    let mut deleters: Vec<(Kind, String)> = c
        .store
        .log
        .iter()
        .filter(|e| e.verb == "delete" && matches!(e.kind, Kind::EndpointSlice | Kind::Endpoints))
        .map(|e| (e.kind, e.writer.clone()))
        .collect();
    deleters.sort();
    assert_eq!(
        deleters,
        [
            (Kind::EndpointSlice, "garbage-collector".to_string()),
            (Kind::Endpoints, "endpoint-controller".to_string()),
        ]
    );
}
