//! The page's models on real clusters.

use super::*;

#[test]
fn the_default_scenario_draws_one_chain_of_three_pods_over_three_nodes() {
    let m = chain_model(&default_cluster());
    assert_eq!(m.deployments.len(), 1);
    assert_eq!((m.deployments[0].desired, m.deployments[0].ready), (3, 3));
    assert_eq!(m.replicasets.len(), 1);
    assert_eq!(m.pods.len(), 3);
    assert!(m
        .pods
        .iter()
        .all(|p| p.status == "Running" && p.ready_col == "1/1"));
    assert_eq!(m.nodes.len(), 3);
    // Each node runs a web Pod; two of them also one of CoreDNS's (100m each), which
    // the chain does not draw but the node's counts and bars hold.
    assert!(m.nodes.iter().all(|n| n.status == "Ready" && n.pods >= 1));
    assert_eq!(m.nodes.iter().map(|n| n.pods).sum::<i64>(), 5);
    assert_eq!(m.nodes.iter().map(|n| n.cpu_requested).sum::<i64>(), 500);
    // 1 Deployment→RS line, 3 RS→Pod lines, 3 Pod→Node bindings.
    assert_eq!(m.links.iter().filter(|l| l.kind == "owner").count(), 4);
    assert_eq!(m.links.iter().filter(|l| l.kind == "binding").count(), 3);
    assert!(m.height >= 3.0 * NODE_H);
}

#[test]
fn the_next_image_bumps_the_last_number_of_the_tag() {
    assert_eq!(next_image("nginx:1.27"), "nginx:1.28");
    assert_eq!(next_image("shop:v9"), "shop:v10");
    assert_eq!(next_image("busybox:latest"), "busybox:v2");
    assert_eq!(next_image("busybox"), "busybox:v2");
}

#[test]
fn deployment_details_list_revisions_newest_first_with_the_budget() {
    let mut c = default_cluster();
    kubeplay_engine::command::run(
        &mut c,
        "kubectl set image deployment/web nginx=nginx:1.28",
        None,
        &kubeplay_engine::command::NoFiles,
    );
    c.settle(120_000);
    let d = &deployment_details_limited(&c, usize::MAX).0[0];
    assert_eq!((d.max_surge, d.max_unavailable, d.desired), (1, 0, 3));
    assert_eq!(
        d.revisions.iter().map(|r| r.revision).collect::<Vec<_>>(),
        [2, 1]
    );
    assert!(d.revisions[0].current && d.revisions[0].images == "nginx:1.28");
    assert_eq!(
        d.conditions
            .iter()
            .map(|c| c.0.as_str())
            .collect::<Vec<_>>(),
        ["Available", "Progressing"]
    );
}

#[test]
fn a_deleted_pod_shows_terminating_and_an_unbound_replacement_has_no_binding_line() {
    let mut c = default_cluster();
    let name = c.store.list::<Pod>().next().unwrap().metadata.name.clone();
    c.delete_pod(&name).unwrap();
    c.advance(250);
    let m = chain_model(&c);
    let old = m.pods.iter().find(|p| p.name == name).unwrap();
    assert!(old.terminating);
    assert_eq!(old.status, "Terminating");
    let new = m
        .pods
        .iter()
        .find(|p| p.node.is_empty())
        .expect("replacement, not yet bound");
    assert_eq!(new.status, "Pending");
    assert_eq!(m.links.iter().filter(|l| l.kind == "binding").count(), 3);
    let rows = event_rows(&c, 5);
    assert_eq!(rows[0].reason, "SuccessfulCreate");
    assert_eq!(rows[0].component, "replicaset-controller");
}

use kubeplay_engine::command::{run, NoFiles};

#[test]
fn a_deleted_pod_points_to_the_new_pod_that_replaced_it() {
    let mut c = default_cluster();
    let victim = c.store.list::<Pod>().next().unwrap().clone();
    let o = run(
        &mut c,
        &format!("kubectl delete pod {} --wait=false", victim.metadata.name),
        None,
        &NoFiles,
    );
    assert!(o.ok);
    c.advance(600);
    let m = chain_model(&c);
    let old = m
        .pods
        .iter()
        .find(|p| p.name == victim.metadata.name)
        .unwrap();
    assert!(old.terminating);
    let (name, uid) = old
        .replaced_by
        .clone()
        .expect("paired with its replacement");
    let new = c
        .store
        .get::<Pod>(&kubeplay_engine::apiserver::ObjKey::new("default", &name))
        .unwrap();
    assert!(new.metadata.created_ms >= victim.metadata.created_ms);
    assert_ne!(new.metadata.uid, victim.metadata.uid);
    assert!(new.metadata.uid.starts_with(&uid));
    assert_eq!(m.links.iter().filter(|l| l.kind == "replaced").count(), 1);
    // The Pods that were not deleted point nowhere.
    assert_eq!(m.pods.iter().filter(|p| p.replaced_by.is_some()).count(), 1);
}

#[test]
fn many_kubelets_share_one_timeline_lane_and_each_mark_still_names_its_node() {
    let mut c = Cluster::new(1);
    let o = run(&mut c, "sim reset --nodes 12", None, &NoFiles);
    assert!(o.ok, "{}", o.output);
    let o = run(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=24",
        None,
        &NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    c.advance(30_000);
    let m = timeline_of_last(&c, 30_000);
    let kubelet_lanes: Vec<&Lane> = m
        .lanes
        .iter()
        .filter(|l| l.writer.starts_with("kubelet/"))
        .collect();
    assert_eq!(kubelet_lanes.len(), 1);
    assert_eq!(kubelet_lanes[0].writer, "kubelet/* (12)");
    assert!(kubelet_lanes[0]
        .groups
        .iter()
        .flat_map(|g| &g.marks)
        .any(|mk| mk.label.contains("kubelet/node-12 ")));
    // A few nodes keep a lane each.
    let small = timeline_of_last(&default_cluster(), 60_000);
    assert_eq!(
        small
            .lanes
            .iter()
            .filter(|l| l.writer.starts_with("kubelet/node-"))
            .count(),
        3
    );
}

#[test]
fn the_timeline_puts_the_user_first_and_shows_the_story_of_a_deletion() {
    let mut c = default_cluster();
    c.advance(20_000);
    let o = run(
        &mut c,
        "kubectl delete pod -l app=web --wait=false",
        None,
        &NoFiles,
    );
    assert!(o.ok);
    c.advance(10_000);
    let m = timeline_of_last(&c, 12_000);
    let writers: Vec<&str> = m.lanes.iter().map(|l| l.writer.as_str()).collect();
    let pos = |w: &str| writers.iter().position(|x| x.starts_with(w)).unwrap();
    assert_eq!(pos("kubectl"), 0);
    assert!(pos("deployment-controller") < pos("replicaset-controller"));
    assert!(pos("replicaset-controller") < pos("default-scheduler"));
    assert!(pos("default-scheduler") < pos("kubelet/"));
    assert!(!m
        .lanes
        .iter()
        .flat_map(|l| l.groups.iter().flat_map(|g| &g.marks))
        .any(|mk| mk.label.contains("lease/")));
    let kubectl: Vec<&Mark> = m.lanes[0].groups.iter().flat_map(|g| &g.marks).collect();
    assert_eq!(kubectl.len(), 3, "{kubectl:?}");
    assert!(
        kubectl[0].label.contains("kubectl · delete pod/web-"),
        "{}",
        kubectl[0].label
    );
    let rs: Vec<&Mark> = m.lanes[pos("replicaset-controller")]
        .groups
        .iter()
        .flat_map(|g| &g.marks)
        .collect();
    assert!(rs
        .iter()
        .any(|mk| mk.kind == "ADDED" && mk.label.contains("create pod/web-")));
    assert!(rs.iter().any(|mk| mk.kind == "event"
        && mk
            .label
            .contains("Event SuccessfulCreate: Created pod: web-")));
    // A write shows its change as field: before → after.
    assert!(
        rs.iter()
            .any(|mk| mk.label.contains("status.readyReplicas: 3 → 0")),
        "{rs:?}"
    );
    assert!(m
        .lanes
        .iter()
        .flat_map(|l| l.groups.iter().flat_map(|g| &g.marks))
        .all(|mk| mk.time >= m.start && mk.time <= m.end));
}

#[test]
fn the_page_says_a_pods_evidence_in_the_learners_language() {
    use crate::i18n::{InLang, Lang};
    let c = default_cluster();
    let ready = c.store.list::<Pod>().next().unwrap().metadata.name.clone();
    let path = pod_path(&c, &ready).unwrap();
    let created = &path.stages[0].evidence[0];
    assert!(
        created
            .text()
            .starts_with("created at 0:00.4 by ReplicaSet web-"),
        "{}",
        created.text()
    );
    assert!(
        created.in_lang(Lang::Zh).contains("创建"),
        "{}",
        created.in_lang(Lang::Zh)
    );
}

fn sh(c: &mut kubeplay_engine::cluster::Cluster, line: &str) {
    let out = kubeplay_engine::command::run(c, line, None, &kubeplay_engine::command::NoFiles);
    assert!(out.ok, "{line}: {}", out.output);
}

#[test]
fn a_service_stands_in_front_of_its_pods_with_a_route_into_each_ready_endpoint() {
    let mut c = default_cluster();
    sh(&mut c, "kubectl expose deployment web --port 80");
    sh(&mut c, "sim traffic service/web --rps 20 --for 1m");
    sh(&mut c, "sim advance 5s");
    let m = chain_model(&c);
    assert_eq!(
        m.services.len(),
        1,
        "the API server's own Service is left out"
    );
    let s = &m.services[0];
    assert_eq!((s.name.as_str(), s.type_.as_str()), ("web", "ClusterIP"));
    assert_eq!(s.endpoints, (3, 0, 0));
    assert_eq!(s.rps, Some(20));
    assert!(s.answered > 0 && s.failed == 0, "{s:?}");
    // The Pods start below the Service band, and each gets a route with traffic on it.
    assert!(m.pods.iter().all(|p| p.y >= OWNER_H + V_GAP));
    let routes: Vec<&Link> = m
        .links
        .iter()
        .filter(|l| l.kind.starts_with("route"))
        .collect();
    assert_eq!(routes.len(), 3);
    assert!(
        routes.iter().all(|l| l.kind == "route ready flow"),
        "{routes:?}"
    );
    for p in &m.pods {
        assert!(routes.iter().any(|l| l.y2 == p.y + ROUTE_INTO));
    }
}

#[test]
fn a_powered_off_nodes_pod_shows_a_failing_route_until_its_endpoint_turns_not_ready() {
    let mut c = default_cluster();
    sh(&mut c, "kubectl expose deployment web --port 80");
    sh(&mut c, "sim traffic service/web --rps 20 --for 5m");
    sh(&mut c, "sim advance 3s");
    sh(&mut c, "sim node down node-1");
    sh(&mut c, "sim advance 10s");
    let m = chain_model(&c);
    let on_node1: Vec<&PodView> = m.pods.iter().filter(|p| p.node == "node-1").collect();
    assert_eq!(on_node1.len(), 1);
    let route_of = |m: &ChainModel, p: &PodView| {
        m.links
            .iter()
            .find(|l| l.kind.starts_with("route") && l.y2 == p.y + ROUTE_INTO)
            .map(|l| l.kind)
    };
    assert_eq!(route_of(&m, on_node1[0]), Some("route ready fail"));
    let (ok, failed, worst) = on_node1[0].traffic.expect("requests reached it");
    assert_eq!((ok, worst), (0, "timed out"));
    assert!(failed > 0);
    assert!(m
        .pods
        .iter()
        .filter(|p| p.node != "node-1")
        .all(|p| matches!(p.traffic, Some((ok, 0, "")) if ok > 0)));
    assert!(m.services[0].failed > 0);
    // After the node lifecycle controller marks it NotReady (50 s grace) the Pod's
    // endpoint is not ready: no request goes there, so the route no longer fails.
    sh(&mut c, "sim advance 60s");
    let m = chain_model(&c);
    let p = m
        .pods
        .iter()
        .find(|p| p.node == "node-1")
        .expect("still bound");
    assert_eq!(route_of(&m, p), Some("route notready"));
    assert_eq!(m.services[0].failed, 0);
    assert_eq!(m.services[0].endpoints, (2, 1, 0));
}

#[test]
fn the_timeline_has_a_traffic_lane_whose_marks_turn_red_in_the_seconds_requests_failed() {
    let mut c = default_cluster();
    sh(&mut c, "kubectl expose deployment web --port 80");
    // The proxies program the new Service about a second later; until then requests
    // find no endpoints.
    sh(&mut c, "sim advance 2s");
    sh(&mut c, "sim traffic service/web --rps 20 --for 5m");
    sh(&mut c, "sim advance 3s");
    sh(&mut c, "sim node down node-1");
    sh(&mut c, "sim advance 10s");
    let m = timeline_of_last(&c, 60_000);
    let lane = m
        .lanes
        .last()
        .expect("a lane per Service with traffic, after the components");
    assert_eq!(lane.writer, "traffic service/web");
    let kinds: Vec<&str> = lane.groups.iter().map(|g| g.kind).collect();
    assert_eq!(
        kinds.first(),
        Some(&"traffic-ok"),
        "before the node went down"
    );
    assert_eq!(kinds.last(), Some(&"traffic-fail"), "its Pod times out");
    let fail = lane
        .groups
        .last()
        .and_then(|g| g.marks.last())
        .map(|k| k.label.clone())
        .unwrap_or_default();
    assert!(
        fail.contains("service/web · ")
            && fail.contains(" requests, ")
            && fail.contains(" TIMEOUT"),
        "{fail}"
    );
}

#[test]
fn the_aggregated_view_counts_each_services_endpoints_and_failed_requests() {
    let mut c = default_cluster();
    sh(&mut c, "kubectl scale deployment web --replicas 6");
    sh(
        &mut c,
        "kubectl create deployment db --image postgres:16 --replicas 2",
    );
    sh(&mut c, "kubectl expose deployment web --port 80");
    sh(&mut c, "kubectl create service clusterip empty --tcp 80:80");
    sh(&mut c, "sim advance 30s");
    sh(&mut c, "sim traffic service/empty --rps 10 --for 1m");
    sh(&mut c, "sim advance 3s");
    let m = aggregate_model(&c);
    let names: Vec<&str> = m.services.iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        ["empty", "web"],
        "name order, the API server's own left out"
    );
    let web = &m.services[1];
    assert_eq!((web.ready, web.not_ready, web.terminating), (6, 0, 0));
    let empty = &m.services[0];
    assert_eq!((empty.ready, empty.answered), (0, 0));
    assert!(
        empty.failed >= 20,
        "no endpoints: every request fails ({empty:?})"
    );
}

#[test]
fn the_services_panel_draws_at_most_eight_services_those_in_trouble_first() {
    let mut c = default_cluster();
    for i in 0..11 {
        sh(
            &mut c,
            &format!("kubectl create deployment s{i:02} --image=nginx"),
        );
        sh(
            &mut c,
            &format!("kubectl expose deployment s{i:02} --port 80"),
        );
    }
    sh(&mut c, "kubectl expose deployment web --port 80");
    for i in 0..12 {
        sh(
            &mut c,
            &format!("kubectl create deployment d{i:02} --image=nginx"),
        );
    }
    sh(&mut c, "sim settle");
    // s09's Pods go: its users' requests fail.
    sh(&mut c, "kubectl delete deployment s09");
    sh(&mut c, "sim advance 5s");
    sh(&mut c, "sim traffic service/s09 --rps 5 --for 1m");
    sh(&mut c, "sim advance 3s");
    let (views, total) = service_views(&c);
    assert_eq!(total, 12);
    assert_eq!(views.len(), SERVICE_ROWS_MAX);
    let names: Vec<&str> = views.iter().map(|v| v.name.as_str()).collect();
    assert!(
        names.contains(&"s09"),
        "the failing one is drawn: {names:?}"
    );
    assert_eq!(
        names[..7],
        ["s00", "s01", "s02", "s03", "s04", "s05", "s06"]
    );
    assert!(
        names.windows(2).all(|w| w[0] < w[1]),
        "in name order: {names:?}"
    );
    assert!(views
        .iter()
        .filter(|v| v.name != "s09")
        .all(|v| v.endpoints == (1, 0, 0)));
    assert_eq!(unexposed_deployments(&c).len(), UNEXPOSED_MAX);
    assert!(unexposed_deployments(&c).iter().all(|d| d.starts_with('d')));
}
