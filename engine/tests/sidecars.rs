//! Native sidecars (an init container with `restartPolicy: Always`, GA in v1.33): the
//! kubelet starts one and goes on without waiting for it to exit — once it runs, or once
//! its startup probe passes — keeps it running beside the app containers (its readiness
//! counting for the Pod's, its crashes restarted in place with the crash back-off), and
//! stops it after them, sidecars in reverse order of declaration.

mod common;

use kubeplay_engine::api::Kind;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

fn sh(c: &mut Cluster, cmd: &str, stdin: Option<&str>) -> String {
    let o = run(c, cmd, stdin, &NoFiles);
    assert!(o.ok, "{cmd}: {}", o.output);
    o.output
}

/// Pod `meshed`: sidecar `proxy` (with `proxy_probe`, a line of its fields, if any), then
/// init container `migrate`, then app container `app`.
fn meshed(proxy_probe: &str) -> String {
    format!(
        "apiVersion: v1
kind: Pod
metadata: {{name: meshed}}
spec:
  initContainers:
  - name: proxy
    image: 'envoy:1.31'
    restartPolicy: Always
{proxy_probe}  - {{name: migrate, image: 'busybox:1.36'}}
  containers:
  - {{name: app, image: 'nginx:1.27'}}
"
    )
}

/// The proxy's startup probe: first run after 6 s.
const STARTUP_PROBE: &str = "    startupProbe: {httpGet: {path: /healthz, port: 15021}, initialDelaySeconds: 6, periodSeconds: 2}\n";

/// The proxy's readiness probe: first run after 30 s.
const READINESS_PROBE: &str = "    readinessProbe: {httpGet: {path: /ready, port: 15021}, initialDelaySeconds: 30, periodSeconds: 5}\n";

#[test]
fn a_sidecar_starts_first_keeps_running_beside_the_app_and_stops_after_it() {
    let mut c = Cluster::with_default_nodes(2);
    sh(&mut c, "kubectl apply -f -", Some(&meshed("")));
    assert!(c.settle(120_000));
    let p = common::pod(&c, "meshed").unwrap();
    assert_eq!(p.status.phase, "Running");
    let proxy = &p.status.init_container_statuses[0];
    assert!(proxy.state.running.is_some(), "{proxy:?}");
    assert_eq!((proxy.started, proxy.ready), (Some(true), true));
    let migrate = &p.status.init_container_statuses[1];
    assert_eq!(
        migrate.state.terminated.as_ref().map(|t| t.exit_code),
        Some(0)
    );
    let table = sh(&mut c, "kubectl get pod meshed", None);
    assert!(table.contains("meshed   2/2     Running"), "{table}");
    // Started before migrate ran, and never waited for.
    let started: Vec<String> = c
        .events()
        .into_iter()
        .filter(|e| e.involved_object.name == "meshed" && e.reason == "Started")
        .map(|e| e.message.clone())
        .collect();
    assert_eq!(
        started,
        vec![
            "Started container proxy",
            "Started container migrate",
            "Started container app"
        ]
    );
    sh(&mut c, "kubectl delete pod meshed --wait=false", None);
    c.advance(5_000);
    let killing: Vec<String> = c
        .events()
        .into_iter()
        .filter(|e| e.involved_object.name == "meshed" && e.reason == "Killing")
        .map(|e| e.message.clone())
        .collect();
    assert_eq!(
        killing,
        vec!["Stopping container app", "Stopping container proxy"]
    );
}

#[test]
fn a_crashing_sidecar_is_restarted_even_in_a_pod_that_never_restarts() {
    let mut c = Cluster::with_default_nodes(2);
    sh(&mut c, "sim image-crash envoy:1.31 --after 1s", None);
    sh(
        &mut c,
        "kubectl apply -f -",
        Some(&meshed("").replace("spec:\n", "spec:\n  restartPolicy: Never\n")),
    );
    c.advance(60_000);
    let p = common::pod(&c, "meshed").unwrap();
    assert_ne!(p.status.phase, "Failed");
    assert!(p.status.init_container_statuses[0].restart_count >= 1);
}

/// The time of the first event about Pod `pod` with this reason and message.
fn event_at(c: &Cluster, pod: &str, reason: &str, message: &str) -> Option<u64> {
    c.events()
        .into_iter()
        .find(|e| e.involved_object.name == pod && e.reason == reason && e.message == message)
        .map(|e| e.first_ms)
}

/// Every occurrence of an event about Pod `pod` with this reason: (time, message),
/// oldest first — from the write log, since repeats of an Event are counted on it.
fn events_of(c: &Cluster, pod: &str, reason: &str) -> Vec<(u64, String)> {
    let Some(uid) = c
        .events()
        .into_iter()
        .find(|e| e.involved_object.name == pod)
        .map(|e| e.involved_object.uid.clone())
    else {
        return vec![];
    };
    c.store
        .log
        .iter()
        .filter(|w| w.kind == Kind::Event && w.owner_uid == uid && w.reason == reason)
        .map(|w| (w.time, w.change.clone()))
        .collect()
}

fn condition(c: &Cluster, pod: &str, type_: &str) -> (String, String) {
    let p = common::pod(c, pod).unwrap();
    let cond = p
        .status
        .conditions
        .iter()
        .find(|x| x.type_ == type_)
        .unwrap_or_else(|| panic!("no {type_} condition: {:?}", p.status.conditions));
    (cond.status.clone(), cond.message.clone())
}

#[test]
fn the_next_init_container_waits_for_a_sidecars_startup_probe_to_pass() {
    let mut c = Cluster::with_default_nodes(2);
    sh(&mut c, "kubectl apply -f -", Some(&meshed(STARTUP_PROBE)));
    common::step_until(&mut c, 60_000, "proxy started", |c| {
        event_at(c, "meshed", "Started", "Started container proxy").is_some()
    });
    let proxy_at = event_at(&c, "meshed", "Started", "Started container proxy").unwrap();
    // Running but not yet started: the startup probe has not run.
    common::step_until(&mut c, 60_000, "5 s later", |c| c.now() >= proxy_at + 5_000);
    let p = common::pod(&c, "meshed").unwrap();
    let proxy = &p.status.init_container_statuses[0];
    assert!(proxy.state.running.is_some(), "{proxy:?}");
    assert_eq!((proxy.started, proxy.ready), (Some(false), false));
    assert!(
        p.status.init_container_statuses[1].state.waiting.is_some(),
        "migrate must wait for proxy's startup probe: {:?}",
        p.status.init_container_statuses[1]
    );
    assert!(event_at(&c, "meshed", "Pulling", "Pulling image \"busybox:1.36\"").is_none());
    assert!(c.settle(120_000));
    let p = common::pod(&c, "meshed").unwrap();
    assert_eq!(p.status.phase, "Running");
    let proxy = &p.status.init_container_statuses[0];
    assert_eq!((proxy.started, proxy.ready), (Some(true), true));
    // The first probe (initialDelaySeconds 6) passes; migrate is pulled a relist later.
    let pulling = event_at(&c, "meshed", "Pulling", "Pulling image \"busybox:1.36\"").unwrap();
    assert_eq!(pulling, proxy_at + 7_000);
    let migrate_at = event_at(&c, "meshed", "Started", "Started container migrate").unwrap();
    let app_at = event_at(&c, "meshed", "Started", "Started container app").unwrap();
    assert!(proxy_at + 7_000 < migrate_at && migrate_at < app_at);
    assert_eq!(condition(&c, "meshed", "Ready").0, "True");
}

#[test]
fn without_a_startup_probe_the_next_init_container_goes_on_once_the_sidecar_runs() {
    let mut c = Cluster::with_default_nodes(2);
    sh(&mut c, "kubectl apply -f -", Some(&meshed("")));
    assert!(c.settle(120_000));
    let proxy_at = event_at(&c, "meshed", "Started", "Started container proxy").unwrap();
    let pulling = event_at(&c, "meshed", "Pulling", "Pulling image \"busybox:1.36\"").unwrap();
    assert_eq!(pulling, proxy_at + 1_000);
}

#[test]
fn a_sidecars_readiness_probe_decides_its_ready_and_holds_the_pods_ready_condition() {
    let mut c = Cluster::with_default_nodes(2);
    sh(&mut c, "kubectl apply -f -", Some(&meshed(READINESS_PROBE)));
    common::step_until(&mut c, 60_000, "app started", |c| {
        event_at(c, "meshed", "Started", "Started container app").is_some()
    });
    let proxy_at = event_at(&c, "meshed", "Started", "Started container proxy").unwrap();
    let app_at = event_at(&c, "meshed", "Started", "Started container app").unwrap();
    // A readiness probe does not gate the init sequence; the app runs before it passes.
    assert!(app_at < proxy_at + 30_000, "{app_at} vs {proxy_at}");
    let p = common::pod(&c, "meshed").unwrap();
    assert!(p.status.container_statuses[0].ready);
    let proxy = &p.status.init_container_statuses[0];
    assert_eq!((proxy.started, proxy.ready), (Some(true), false));
    let unready = "containers with unready status: [proxy]".to_string();
    assert_eq!(
        condition(&c, "meshed", "ContainersReady"),
        ("False".into(), unready.clone())
    );
    assert_eq!(
        condition(&c, "meshed", "Ready"),
        ("False".into(), unready.clone())
    );
    let table = sh(&mut c, "kubectl get pod meshed", None);
    assert!(table.contains("meshed   1/2     Running"), "{table}");
    // The first readiness probe (initialDelaySeconds 30) passes: Ready.
    assert!(c.settle(120_000));
    let p = common::pod(&c, "meshed").unwrap();
    assert!(p.status.init_container_statuses[0].ready);
    let ready = condition(&c, "meshed", "Ready");
    assert_eq!(ready, ("True".into(), String::new()));
    let p = common::pod(&c, "meshed").unwrap();
    let cond = p
        .status
        .conditions
        .iter()
        .find(|x| x.type_ == "Ready")
        .unwrap();
    assert_eq!(cond.transition_ms, proxy_at + 30_000);
    // The sidecar's application stops answering: the Pod is not Ready, for proxy only.
    sh(&mut c, "sim unready pod/meshed", None);
    // A failing readiness probe keeps probing: run a while rather than to quiescence.
    c.advance(30_000);
    let p = common::pod(&c, "meshed").unwrap();
    assert!(!p.status.init_container_statuses[0].ready);
    assert!(p.status.container_statuses[0].ready);
    assert_eq!(condition(&c, "meshed", "Ready"), ("False".into(), unready));
    let unhealthy = events_of(&c, "meshed", "Unhealthy");
    assert_eq!(
        unhealthy.last().map(|(_, m)| m.as_str()),
        Some("Readiness probe failed: HTTP probe failed with statuscode: 503")
    );
}

#[test]
fn a_sidecar_that_crashes_in_a_running_pod_restarts_in_place_with_the_crash_back_off() {
    let mut c = Cluster::with_default_nodes(2);
    sh(&mut c, "kubectl apply -f -", Some(&meshed("")));
    assert!(c.settle(120_000));
    let uid = common::pod(&c, "meshed").unwrap().metadata.uid.clone();
    // From now on every run of the proxy's image exits 1 a second after it starts.
    sh(&mut c, "sim image-crash envoy:1.31 --after 1s", None);
    // Statuses carry whole seconds (RFC 3339) and the back-off counts from the exit's
    // finishedAt: crash on a second boundary so the arithmetic below is exact.
    c.advance((1_000 - c.now() % 1_000) % 1_000);
    let t0 = c.now();
    sh(&mut c, "sim crash pod/meshed --container proxy", None);
    // One relist later: not Ready for the proxy's sake, restarted at once (no back-off yet).
    c.advance(500);
    let p = common::pod(&c, "meshed").unwrap();
    let proxy = &p.status.init_container_statuses[0];
    assert_eq!(
        proxy.state.terminated.as_ref().map(|t| t.exit_code),
        Some(1),
        "{proxy:?}"
    );
    assert_eq!(
        condition(&c, "meshed", "Ready"),
        (
            "False".into(),
            "containers with unready status: [proxy]".into()
        )
    );
    c.advance(40_000);
    let p = common::pod(&c, "meshed").unwrap();
    let proxy = &p.status.init_container_statuses[0];
    // Restarted at +1 s, crashed at +2 s, back-off 10 s → +12 s, crashed at +13 s,
    // back-off 20 s → +33 s, crashed at +34 s, waiting 40 s.
    assert_eq!(proxy.restart_count, 3);
    let waiting = proxy.state.waiting.as_ref().expect("waiting in back-off");
    assert_eq!(waiting.reason, "CrashLoopBackOff");
    assert_eq!(
        waiting.message,
        format!("back-off 40s restarting failed container=proxy pod=meshed_default({uid})")
    );
    assert_eq!(
        proxy.last_state.terminated.as_ref().map(|t| t.exit_code),
        Some(1)
    );
    let started: Vec<u64> = events_of(&c, "meshed", "Started")
        .into_iter()
        .filter(|(t, m)| m == "Started container proxy" && *t >= t0)
        .map(|(t, _)| t - t0)
        .collect();
    assert_eq!(started, [1_000, 12_000, 33_000]);
    let backoff = events_of(&c, "meshed", "BackOff");
    assert!(!backoff.is_empty());
    assert!(backoff.iter().all(|(_, m)| *m
        == format!("Back-off restarting failed container proxy in pod meshed_default({uid})")));
    assert_eq!(backoff[0].0 - t0, 3_000);
    // In place: the Pod keeps running, its app and migrate are not run again.
    assert_eq!(p.status.phase, "Running");
    assert!(p.status.container_statuses[0].state.running.is_some());
    assert_eq!(p.status.container_statuses[0].restart_count, 0);
    let others = events_of(&c, "meshed", "Started")
        .into_iter()
        .filter(|(_, m)| m != "Started container proxy")
        .count();
    assert_eq!(others, 2);
    // printPod: the sidecar waiting in back-off names the STATUS (Init:…, though the
    // Pod is Initialized and Running) and its restarts count, with its last exit's age.
    let table = sh(&mut c, "kubectl get pod meshed", None);
    assert!(
        table.contains("meshed   1/2     Init:CrashLoopBackOff   3 (6s ago)"),
        "{table}"
    );
    // The image is fixed: the next restart (after the 40 s back-off) stays up and Ready.
    sh(&mut c, "sim image-ok envoy:1.31", None);
    assert!(c.settle(600_000));
    let p = common::pod(&c, "meshed").unwrap();
    let proxy = &p.status.init_container_statuses[0];
    assert!(proxy.state.running.is_some(), "{proxy:?}");
    assert_eq!((proxy.restart_count, proxy.ready), (4, true));
    assert_eq!(condition(&c, "meshed", "Ready").0, "True");
}

const TWO_SIDECARS: &str = "apiVersion: v1
kind: Pod
metadata: {name: meshed}
spec:
  initContainers:
  - {name: proxy, image: 'envoy:1.31', restartPolicy: Always}
  - {name: logger, image: 'fluent-bit:3.1', restartPolicy: Always}
  containers:
  - {name: app, image: 'nginx:1.27'}
";

#[test]
fn on_deletion_the_app_stops_first_then_each_sidecar_in_reverse_order_after_the_later_one_exited() {
    let mut c = Cluster::with_default_nodes(2);
    sh(&mut c, "kubectl apply -f -", Some(TWO_SIDECARS));
    assert!(c.settle(120_000));
    assert_eq!(common::pod(&c, "meshed").unwrap().status.phase, "Running");
    sh(&mut c, "kubectl delete pod meshed --wait=false", None);
    let t0 = c.now();
    // Every container is told to stop at once (one Killing each: the app, then the
    // sidecars latest-declared first)…
    common::step_until(&mut c, 10_000, "Killing", |c| {
        !events_of(c, "meshed", "Killing").is_empty()
    });
    let killing = events_of(&c, "meshed", "Killing");
    let kill_at = killing[0].0;
    assert!(killing.iter().all(|(t, _)| *t == kill_at), "{killing:?}");
    let order: Vec<&str> = killing.iter().map(|(_, m)| m.as_str()).collect();
    assert_eq!(
        order,
        [
            "Stopping container app",
            "Stopping container logger",
            "Stopping container proxy"
        ]
    );
    // …but the sidecars wait their turn: the app exits after a second, logger a second
    // later, proxy a second after that, and only then is the Pod gone (its final
    // status, each container's finishedAt at its turn, is checked in the kubelet's
    // unit tests: the status and the delete are written at the same instant).
    c.advance(kill_at + 2_999 - c.now());
    assert!(common::pod(&c, "meshed").is_some(), "proxy still stopping");
    c.advance(1);
    assert!(common::pod(&c, "meshed").is_none());
    assert!(kill_at >= t0);
}

#[test]
fn a_sidecar_failing_its_startup_probe_is_restarted_and_the_next_init_container_keeps_waiting() {
    let mut c = Cluster::with_default_nodes(2);
    sh(&mut c, "kubectl apply -f -", Some(&meshed(STARTUP_PROBE)));
    common::step_until(&mut c, 60_000, "proxy started", |c| {
        event_at(c, "meshed", "Started", "Started container proxy").is_some()
    });
    let proxy_at = event_at(&c, "meshed", "Started", "Started container proxy").unwrap();
    // The proxy does not answer: its startup probe fails at 6, 8 and 10 s (threshold 3).
    sh(&mut c, "sim hang pod/meshed", None);
    common::step_until(&mut c, 60_000, "killed", |c| {
        event_at(
            c,
            "meshed",
            "Killing",
            "Container proxy failed startup probe, will be restarted",
        )
        .is_some()
    });
    let killed_at = c.now();
    assert_eq!(killed_at, proxy_at + 10_000);
    let unhealthy = events_of(&c, "meshed", "Unhealthy");
    assert_eq!(unhealthy.len(), 3);
    assert!(unhealthy
        .iter()
        .all(|(_, m)| m == "Startup probe failed: HTTP probe failed with statuscode: 503"));
    let p = common::pod(&c, "meshed").unwrap();
    let proxy = &p.status.init_container_statuses[0];
    assert_eq!(
        proxy.state.terminated.as_ref().map(|t| t.exit_code),
        Some(137)
    );
    assert!(event_at(&c, "meshed", "Pulling", "Pulling image \"busybox:1.36\"").is_none());
    // Restarted a relist later (the kill cured the hang): its startup probe passes 6 s
    // on, and only then does migrate go on.
    assert!(c.settle(120_000));
    let p = common::pod(&c, "meshed").unwrap();
    let proxy = &p.status.init_container_statuses[0];
    assert_eq!((proxy.restart_count, proxy.started), (1, Some(true)));
    assert_eq!(p.status.phase, "Running");
    let pulling = event_at(&c, "meshed", "Pulling", "Pulling image \"busybox:1.36\"").unwrap();
    assert_eq!(pulling, killed_at + 1_000 + 7_000);
}

#[test]
fn the_nodes_runtime_lists_a_running_sidecar_beside_the_app() {
    let mut c = Cluster::with_default_nodes(2);
    sh(&mut c, "kubectl apply -f -", Some(&meshed("")));
    assert!(c.settle(120_000));
    let node = common::pod(&c, "meshed").unwrap().spec.node_name.clone();
    let ps = sh(&mut c, &format!("sim node ps {node}"), None);
    let rows: Vec<&str> = ps.lines().skip(1).collect();
    assert_eq!(rows.len(), 2, "{ps}");
    assert!(
        rows[0].starts_with("meshed") && rows[0].contains("proxy"),
        "{ps}"
    );
    assert!(
        rows[1].contains("app") && rows[1].contains("nginx:1.27"),
        "{ps}"
    );
}

#[test]
fn once_the_app_of_a_pod_that_never_restarts_has_exited_its_sidecars_are_stopped_in_reverse_order()
{
    let mut c = Cluster::with_default_nodes(2);
    let never = TWO_SIDECARS.replace("spec:\n", "spec:\n  restartPolicy: Never\n");
    sh(&mut c, "kubectl apply -f -", Some(&never));
    assert!(c.settle(120_000));
    sh(&mut c, "sim crash pod/meshed --container app", None);
    assert!(c.settle(120_000));
    // The phase follows the app container alone: Failed. Its sidecars are then stopped
    // (logger, then proxy) and the Pod stays, every container terminated.
    let p = common::pod(&c, "meshed").expect("a completed Pod is not removed");
    assert_eq!(p.status.phase, "Failed");
    assert!(p
        .status
        .init_container_statuses
        .iter()
        .all(|s| s.state.terminated.is_some() && !s.ready));
    let killing: Vec<String> = events_of(&c, "meshed", "Killing")
        .into_iter()
        .map(|(_, m)| m)
        .collect();
    assert_eq!(
        killing,
        ["Stopping container logger", "Stopping container proxy"]
    );
    assert_eq!(
        condition(&c, "meshed", "Ready"),
        ("False".into(), String::new())
    );
    let ready = p
        .status
        .conditions
        .iter()
        .find(|x| x.type_ == "Ready")
        .unwrap();
    assert_eq!(ready.reason, "PodFailed");
    let node = p.spec.node_name.clone();
    let ps = sh(&mut c, &format!("sim node ps {node}"), None);
    assert!(!ps.contains("meshed"), "{ps}");
    sh(&mut c, "kubectl delete pod meshed --wait=false", None);
    assert!(c.settle(60_000));
    assert!(common::pod(&c, "meshed").is_none());
}
