//! Traffic through the kube-proxies: one test per way a request fails in a real
//! cluster, and the same change made safely next to it.

mod common;

use common::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::proxy::Outcome;

/// Totals of Service `svc`'s traffic so far, by outcome.
fn totals(c: &Cluster, svc: &str) -> [u64; 5] {
    let mut t = [0; 5];
    for b in c
        .proxies
        .series
        .get(&ObjKey::new("default", svc))
        .into_iter()
        .flat_map(|s| s.values())
    {
        for (i, n) in b.outcomes.iter().enumerate() {
            t[i] += n;
        }
    }
    t
}

fn count(t: &[u64; 5], o: Outcome) -> u64 {
    t[Outcome::ALL.iter().position(|x| *x == o).unwrap()]
}

fn errors(t: &[u64; 5]) -> u64 {
    t.iter().sum::<u64>() - count(t, Outcome::Ok)
}

/// Deployment `web` (3 replicas of `image`, port 80, optionally a readiness probe and a
/// preStop sleep) behind Service `web`, settled, with 20 requests a second flowing.
fn serving(seed: u64, image: &str, probe: bool, pre_stop: bool) -> Cluster {
    let mut c = Cluster::with_default_nodes(seed);
    let probe = if probe {
        "\n        readinessProbe: {tcpSocket: {port: 80}, periodSeconds: 2}"
    } else {
        ""
    };
    let pre_stop = if pre_stop {
        "\n        lifecycle: {preStop: {sleep: {seconds: 5}}}"
    } else {
        ""
    };
    apply(
        &mut c,
        &format!(
            "apiVersion: apps/v1
kind: Deployment
metadata: {{name: web}}
spec:
  replicas: 3
  selector: {{matchLabels: {{app: web}}}}
  template:
    metadata: {{labels: {{app: web}}}}
    spec:
      containers:
      - name: web
        image: {image}
        ports: [{{containerPort: 80}}]{probe}{pre_stop}
"
        ),
    );
    sh(&mut c, "kubectl expose deployment web --port=80");
    assert!(c.settle(120_000));
    sh(&mut c, "sim traffic service/web --rps 20 --for 30m");
    c.advance(10_000);
    assert_eq!(errors(&totals(&c, "web")), 0, "a settled Service answers");
    c
}

#[test]
fn a_rolling_update_without_a_readiness_probe_refuses_requests_and_with_one_does_not() {
    for (probe, expect_errors) in [(false, true), (true, false)] {
        let mut c = serving(11, "web:1", probe, false);
        // The new version needs 5 s after its container starts before it listens.
        sh(&mut c, "sim image-warmup web:2 5s");
        sh(&mut c, "kubectl set image deployment/web web=web:2");
        c.advance(90_000);
        let t = totals(&c, "web");
        if expect_errors {
            assert!(
                count(&t, Outcome::Refused) > 0,
                "Ready before listening: the proxies send it requests it refuses ({t:?})"
            );
        } else {
            assert_eq!(
                count(&t, Outcome::Refused),
                0,
                "the probe holds it out of the endpoints until it listens ({t:?})"
            );
        }
    }
}

#[test]
fn a_dead_nodes_pods_time_out_for_about_fifty_seconds_until_their_endpoints_turn_not_ready() {
    let mut c = serving(3, "web:1", false, false);
    sh(&mut c, "sim node down node-1");
    let start = c.now() / 1000;
    c.advance(120_000);
    let series = &c.proxies.series[&ObjKey::new("default", "web")];
    let timeout_seconds: Vec<u64> = series
        .iter()
        .filter(|(_, b)| {
            b.outcomes[Outcome::ALL
                .iter()
                .position(|o| *o == Outcome::Timeout)
                .unwrap()]
                > 0
        })
        .map(|(s, _)| *s - start)
        .collect();
    let last = *timeout_seconds.last().expect("some requests timed out");
    assert!(
        (40..=65).contains(&last),
        "timeouts stopped {last} s after the node died"
    );
    // Afterwards every request is answered by the Pods left.
    let after: u64 = series
        .iter()
        .filter(|(s, _)| **s > start + 70)
        .map(|(_, b)| b.errors())
        .sum();
    assert_eq!(after, 0);
}

#[test]
fn deleting_pods_without_a_pre_stop_delay_resets_connections_and_with_one_does_not() {
    for (pre_stop, expect_resets) in [(false, true), (true, false)] {
        let mut c = serving(5, "web:1", true, pre_stop);
        sh(&mut c, "kubectl rollout restart deployment/web");
        c.advance(120_000);
        let t = totals(&c, "web");
        if expect_resets {
            assert!(
                count(&t, Outcome::Reset) > 0,
                "TERM arrives while the endpoint is still in the rules ({t:?})"
            );
        } else {
            assert_eq!(
                errors(&t),
                0,
                "the preStop sleep outlasts the rules' update ({t:?})"
            );
        }
    }
}

#[test]
fn a_service_without_endpoints_rejects_every_request() {
    let mut c = serving(7, "web:1", true, false);
    sh(&mut c, "kubectl scale deployment web --replicas=0");
    c.advance(60_000);
    let before = totals(&c, "web");
    c.advance(10_000);
    let after = totals(&c, "web");
    assert_eq!(
        count(&after, Outcome::NoEndpoints) - count(&before, Outcome::NoEndpoints),
        200,
        "every request of the last 10 s was rejected"
    );
}

#[test]
fn a_drain_under_a_disruption_budget_keeps_serving() {
    let mut c = serving(13, "web:1", true, true);
    sh(
        &mut c,
        "kubectl create pdb web --selector=app=web --min-available=2",
    );
    c.advance(5_000);
    let node = c
        .store
        .list_ns::<kubeplay_engine::api::Pod>("default")
        .next()
        .map(|p| p.spec.node_name.clone())
        .unwrap();
    sh(
        &mut c,
        &format!("kubectl drain {node} --ignore-daemonsets --timeout=2m"),
    );
    c.advance(120_000);
    assert_eq!(errors(&totals(&c, "web")), 0);
}

#[test]
fn a_partitioned_nodes_proxy_keeps_routing_by_its_old_rules() {
    let mut c = serving(17, "web:1", true, false);
    sh(&mut c, "sim traffic service/web --stop");
    sh(&mut c, "sim node partition node-2");
    // New Pods replace the old ones; node-2's proxy never hears of it.
    sh(&mut c, "kubectl rollout restart deployment/web");
    c.advance(120_000);
    let fresh =
        kubeplay_engine::proxy::rules_for(&c.store, &ObjKey::new("default", "web")).unwrap();
    let stale = c
        .proxies
        .rules("node-2", &ObjKey::new("default", "web"))
        .unwrap()
        .clone();
    let stale_ips: Vec<&String> = stale.endpoints.iter().map(|e| &e.ip).collect();
    assert!(fresh
        .endpoints
        .iter()
        .filter(|e| e.ready)
        .all(|e| !stale_ips.contains(&&e.ip)));
    assert_eq!(
        c.proxies.rules("node-1", &ObjKey::new("default", "web")),
        Some(&fresh)
    );
    // Requests entering at node-2 go to Pods that are gone.
    sh(
        &mut c,
        "sim traffic service/web --rps 10 --from node-2 --for 5s",
    );
    c.advance(10_000);
    let t = totals(&c, "web");
    assert_eq!(errors(&t), 50, "every request from node-2 failed: {t:?}");
    // The heal brings the new rules.
    sh(&mut c, "sim node up node-2");
    assert_eq!(
        c.proxies.rules("node-2", &ObjKey::new("default", "web")),
        Some(&fresh)
    );
}

#[test]
fn the_same_seed_sends_the_same_requests_to_the_same_pods() {
    let run = || {
        let mut c = serving(19, "web:1", false, false);
        sh(&mut c, "sim node down node-3");
        c.advance(60_000);
        c.proxies.report(None)
    };
    assert_eq!(run(), run());
}

#[test]
fn with_memory_state_a_retried_message_is_accepted_twice_while_ready_stays_three_of_three() {
    let mut c = serving(23, "notes-api:1.0", true, false);
    sh(&mut c, "sim traffic service/web --stop");
    sh(&mut c, "sim app service/web");
    // A client that retries once after a lost answer.
    sh(
        &mut c,
        "sim traffic service/web --rps 20 --retries 1 --for 10m",
    );
    sh(&mut c, "kubectl rollout restart deployment/web");
    c.advance(120_000);
    let app = &c.proxies.apps[&ObjKey::new("default", "web")];
    assert!(app.business.lost_answers > 0, "{:?}", app.business);
    assert!(app.business.duplicates > 0, "{:?}", app.business);
    assert!(app.lost() > 0, "the old Pods' messages went with them");
    assert!(
        app.business.not_found > 0,
        "a read lands on a Pod that never had it"
    );
    let d = web(&c);
    assert_eq!((d.status.ready_replicas, d.status.replicas), (3, 3));
}

#[test]
fn with_a_database_duplicates_are_refused_across_pods_and_its_outage_fails_writes() {
    let mut c = serving(29, "notes-api:1.0", true, false);
    sh(&mut c, "sim traffic service/web --stop");
    sh(
        &mut c,
        "kubectl create deployment db --image=postgres:16 --port=5432",
    );
    sh(&mut c, "kubectl expose deployment db --port=5432");
    assert!(c.settle(120_000));
    sh(&mut c, "sim app service/web --store service/db");
    sh(
        &mut c,
        "sim traffic service/web --rps 20 --retries 1 --for 10m",
    );
    sh(&mut c, "kubectl rollout restart deployment/web");
    c.advance(120_000);
    let app = &c.proxies.apps[&ObjKey::new("default", "web")];
    assert_eq!(
        (app.business.duplicates, app.lost(), app.business.not_found),
        (0, 0, 0),
        "{:?}",
        app.business
    );
    // The database goes away: every write fails, Ready stays 3/3 for the API.
    sh(&mut c, "kubectl scale deployment db --replicas=0");
    c.advance(30_000);
    let before = c.proxies.apps[&ObjKey::new("default", "web")]
        .business
        .unavailable;
    c.advance(10_000);
    let after = c.proxies.apps[&ObjKey::new("default", "web")]
        .business
        .unavailable;
    assert_eq!(after - before, 200);
    assert_eq!(web(&c).status.ready_replicas, 3);
}

#[test]
fn client_ip_affinity_keeps_each_client_on_one_pod_until_that_pod_is_gone() {
    let mut c = serving(31, "web:1", true, false);
    let svc = ObjKey::new("default", "web");
    sh(&mut c, "sim traffic service/web --stop");
    // Without affinity no client is kept anywhere.
    sh(
        &mut c,
        "sim traffic service/web --rps 20 --from node-1 --for 10m",
    );
    c.advance(5_000);
    assert_eq!(c.proxies.affinity_of(&svc, 0, "node-1"), None);
    sh(
        &mut c,
        r#"kubectl patch service web -p '{"spec":{"sessionAffinity":"ClientIP"}}'"#,
    );
    c.advance(5_000);
    let kept: Vec<String> = (0..kubeplay_engine::proxy::CLIENTS)
        .map(|i| {
            c.proxies
                .affinity_of(&svc, i, "node-1")
                .expect("every client kept")
                .to_string()
        })
        .collect();
    c.advance(20_000);
    for (i, uid) in kept.iter().enumerate() {
        assert_eq!(
            c.proxies.affinity_of(&svc, i as u64, "node-1"),
            Some(uid.as_str()),
            "client {i} stays on its Pod"
        );
    }
    // Client 0's Pod is deleted: once its endpoint leaves the rules the client is
    // sent elsewhere — stickiness does not outlive the Pod.
    let (_, key) = c.store.by_uid(&kept[0]).cloned().expect("its Pod");
    sh(
        &mut c,
        &format!("kubectl delete pod {} --wait=false", key.name),
    );
    c.advance(40_000);
    let now = c
        .proxies
        .affinity_of(&svc, 0, "node-1")
        .expect("kept again");
    assert_ne!(now, kept[0]);
}

/// notes-api (memory) behind a sticky Service, traffic retried once as `retry` says,
/// then a rollout restart played out: the application's (duplicates, 409s).
fn sticky_restart(retry: &str) -> (u64, u64) {
    let mut c = Cluster::with_default_nodes(7);
    for line in [
        "kubectl create deployment notes-api --image=notes-api:1.0 --replicas=3 --port=8080",
        "kubectl expose deployment notes-api --port=80 --target-port=8080",
        "sim settle",
        "sim app service/notes-api",
        r#"kubectl patch service notes-api -p '{"spec":{"sessionAffinity":"ClientIP"}}'"#,
        &format!("sim traffic service/notes-api --rps 20 --retries 1 {retry} --for 10m"),
        "sim advance 15s",
        "kubectl rollout restart deployment/notes-api",
        "sim advance 60s",
    ] {
        sh(&mut c, line);
    }
    let b = &c.proxies.apps[&ObjKey::new("default", "notes-api")].business;
    (b.duplicates, b.conflicts)
}

#[test]
fn a_retry_at_once_sticks_to_the_stopping_pod_and_is_refused_but_one_after_a_back_off_is_taken_twice(
) {
    let (duplicates, conflicts) = sticky_restart("");
    assert_eq!(
        duplicates, 0,
        "sticky: the retry went back to the Pod that knew the id"
    );
    assert!(conflicts >= 1, "…which answered 409");
    let (duplicates, conflicts) = sticky_restart("--retry-after 1s");
    assert!(
        duplicates >= 1,
        "1 s later the stopping Pod is out of the rules: another Pod takes the id again"
    );
    assert_eq!(conflicts, 0);
}

#[test]
fn retry_after_is_checked_and_said_in_the_flow_line() {
    let mut c = serving(5, "web:1", true, false);
    let out = sh(
        &mut c,
        "sim traffic service/web --rps 5 --retries 2 --retry-after 500ms",
    );
    assert!(out.contains("2 retries 500ms apart"), "{out}");
    let refused = |c: &mut Cluster, line: &str| {
        let o = kubeplay_engine::command::run(c, line, None, &kubeplay_engine::command::NoFiles);
        assert!(!o.ok, "{line}");
        o.output
    };
    let out = refused(&mut c, "sim traffic service/web --rps 5 --retry-after 11m");
    assert!(out.contains("--retry-after must be at most 10m"), "{out}");
    let out = refused(&mut c, "sim traffic service/web --rps 5 --retry-after soon");
    assert!(out.starts_with("error: "), "{out}");
}

#[test]
fn internal_traffic_policy_local_keeps_traffic_on_its_node_and_drops_it_where_no_endpoint_runs() {
    let mut c = serving(7, "web:1", true, false);
    sh(&mut c, "sim traffic service/web --stop");
    sh(&mut c, "kubectl scale deployment web --replicas=1");
    sh(
        &mut c,
        "kubectl patch service web -p '{\"spec\":{\"internalTrafficPolicy\":\"Local\"}}'",
    );
    c.advance(60_000);
    let pod = c
        .store
        .list::<kubeplay_engine::api::Pod>()
        .find(|p| p.metadata.name.starts_with("web-") && p.metadata.deletion_timestamp.is_none())
        .unwrap()
        .clone();
    let home = pod.spec.node_name.clone();
    let other = ["node-1", "node-2", "node-3"]
        .into_iter()
        .find(|n| *n != home)
        .unwrap();
    // From its own node every request reaches the one Pod.
    let before = totals(&c, "web");
    sh(
        &mut c,
        &format!("sim traffic service/web --rps 10 --from {home} --for 5s"),
    );
    c.advance(10_000);
    let after = totals(&c, "web");
    assert_eq!(count(&after, Outcome::Ok) - count(&before, Outcome::Ok), 50);
    // From a node without an endpoint the cluster IP is dropped: the client times out,
    // where without the policy it would have crossed to the other node.
    let before = after;
    sh(
        &mut c,
        &format!("sim traffic service/web --rps 10 --from {other} --for 5s"),
    );
    c.advance(30_000);
    let after = totals(&c, "web");
    assert_eq!(count(&after, Outcome::Ok) - count(&before, Outcome::Ok), 0);
    assert_eq!(
        count(&after, Outcome::Timeout) - count(&before, Outcome::Timeout),
        50
    );
}
