//! The kubelet's failure modes: CrashLoopBackOff with its 10 s → 300 s curve, image
//! pulls refused (ErrImagePull → ImagePullBackOff), readiness probes, restartPolicy.

mod common;
use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::printers::pod_ready_status;
use kubeplay_engine::time::{parse_rfc3339, SECOND};

fn only_pod(c: &Cluster) -> Pod {
    c.store.list::<Pod>().next().expect("a pod").clone()
}

#[test]
fn a_crash_looping_container_restarts_in_the_same_pod_after_10_20_40_80_160_300_300_seconds() {
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "sim image-crash shop:2.0 --after 1s");
    sh(&mut c, "kubectl create deployment shop --image=shop:2.0");
    // Watch from before the first start (the image pull takes a few seconds).
    c.advance(SECOND);
    let uid = only_pod(&c).metadata.uid;
    // Record, for each restart, how long after the previous exit it came.
    let mut delays = Vec::new();
    let mut seen = 0;
    let mut saw_crashloop = false;
    while delays.len() < 8 {
        c.step();
        let p = only_pod(&c);
        assert_eq!(p.metadata.uid, uid, "restarts happen in the same Pod");
        let cs = &p.status.container_statuses[0];
        if let Some(w) = &cs.state.waiting {
            if w.reason == "CrashLoopBackOff" {
                saw_crashloop = true;
                assert!(w.message.starts_with("back-off "), "{}", w.message);
                assert!(
                    w.message.ends_with(&format!(
                        "restarting failed container=shop pod={}_default({uid})",
                        p.metadata.name
                    )),
                    "{}",
                    w.message
                );
                assert_eq!(pod_ready_status(&p).1, "CrashLoopBackOff");
            }
        }
        if cs.restart_count > seen && cs.state.running.is_some() {
            seen = cs.restart_count;
            let finished =
                parse_rfc3339(&cs.last_state.terminated.as_ref().unwrap().finished_at).unwrap();
            delays.push((c.now() - finished) / SECOND);
        }
        assert!(c.now() < 60 * 60 * SECOND, "ran too long: {delays:?}");
    }
    assert!(saw_crashloop);
    // The first restart is immediate (one PLEG relist), then the back-off doubles to 300 s.
    assert_eq!(delays, [1, 10, 20, 40, 80, 160, 300, 300]);
    let p = only_pod(&c);
    assert_eq!(
        p.status.container_statuses[0]
            .last_state
            .terminated
            .as_ref()
            .unwrap()
            .reason,
        "Error"
    );
    let backoff = c
        .events()
        .into_iter()
        .find(|e| e.reason == "BackOff")
        .unwrap();
    assert_eq!(backoff.type_, "Warning");
    assert_eq!(
        backoff.message,
        format!(
            "Back-off restarting failed container shop in pod {}_default({uid})",
            p.metadata.name
        )
    );
}

#[test]
fn a_refused_image_goes_err_image_pull_then_image_pull_back_off_and_recovers_when_served() {
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "sim image-fail web:typo");
    sh(&mut c, "kubectl create deployment web --image=web:typo");
    c.advance(2 * SECOND);
    assert_eq!(pod_ready_status(&only_pod(&c)).1, "ErrImagePull");
    c.advance(SECOND);
    let p = only_pod(&c);
    assert_eq!(pod_ready_status(&p).1, "ImagePullBackOff");
    let w = p.status.container_statuses[0]
        .state
        .waiting
        .clone()
        .unwrap();
    assert!(
        w.message.starts_with(
            "Back-off pulling image \"web:typo\": ErrImagePull: rpc error: code = NotFound"
        ),
        "{}",
        w.message
    );
    let reasons: Vec<(String, String)> = c
        .events()
        .into_iter()
        .filter(|e| e.involved_object.kind == "Pod")
        .map(|e| (e.reason.clone(), e.message.clone()))
        .collect();
    assert!(
        reasons.contains(&("Failed".into(), "Error: ErrImagePull".into())),
        "{reasons:?}"
    );
    assert!(reasons.contains(&("Failed".into(), "Error: ImagePullBackOff".into())));
    assert!(reasons.contains(&(
        "BackOff".into(),
        "Back-off pulling image \"web:typo\"".into()
    )));
    assert!(reasons.iter().any(|(r, m)| r == "Failed" && m.starts_with("Failed to pull image \"web:typo\": rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/library/web:typo\"")));
    // It keeps retrying with back-off; once the registry serves it, the Pod runs.
    c.advance(60 * SECOND);
    let pulls = c
        .events()
        .into_iter()
        .find(|e| e.reason == "Pulling")
        .unwrap()
        .count;
    assert!(pulls >= 3, "retried {pulls} times");
    sh(&mut c, "sim image-ok web:typo");
    c.advance(200 * SECOND);
    let p = only_pod(&c);
    assert!(p.is_ready(), "{:?}", pod_ready_status(&p));
    assert_eq!(p.restarts(), 0, "a pull failure is not a restart");
}

const PROBED: &str = "apiVersion: apps/v1
kind: Deployment
metadata: {name: api}
spec:
  replicas: 2
  selector: {matchLabels: {app: api}}
  template:
    metadata: {labels: {app: api}}
    spec:
      containers:
      - name: api
        image: api:1.0
        readinessProbe:
          httpGet: {path: /healthz, port: 8080}
          periodSeconds: 5
          failureThreshold: 3
";

#[test]
fn a_failing_readiness_probe_clears_ready_without_restarting_and_recovers() {
    let mut c = Cluster::with_default_nodes(1);
    assert!(run(&mut c, "kubectl apply -f -", Some(PROBED), &NoFiles).ok);
    assert!(c.settle(60 * SECOND));
    let api = |c: &Cluster| {
        c.store
            .get::<Deployment>(&ObjKey::new("default", "api"))
            .unwrap()
            .clone()
    };
    assert_eq!(api(&c).status.ready_replicas, 2);
    let victim = c.store.list::<Pod>().next().unwrap().metadata.name.clone();
    sh(&mut c, &format!("sim unready pod/{victim}"));
    // Three failures 5 s apart: not Ready within 15 s, still Running, no restart.
    c.advance(16 * SECOND);
    let p = c
        .store
        .get::<Pod>(&ObjKey::new("default", &victim))
        .unwrap()
        .clone();
    assert!(!p.is_ready());
    assert_eq!(
        pod_ready_status(&p),
        ("0/1".to_string(), "Running".to_string(), 0)
    );
    assert_eq!(api(&c).status.ready_replicas, 1);
    let unhealthy = c
        .events()
        .into_iter()
        .find(|e| e.reason == "Unhealthy")
        .unwrap();
    assert_eq!(
        unhealthy.message,
        "Readiness probe failed: HTTP probe failed with statuscode: 503"
    );
    assert!(unhealthy.count >= 3);
    // The ReplicaSet does not replace it: the Pod is still active.
    assert_eq!(c.store.count(Kind::Pod), 2);
    sh(&mut c, &format!("sim ready pod/{victim}"));
    c.advance(6 * SECOND);
    assert!(c
        .store
        .get::<Pod>(&ObjKey::new("default", &victim))
        .unwrap()
        .is_ready());
    assert_eq!(api(&c).status.ready_replicas, 2);
}

#[test]
fn unready_on_a_pod_without_a_probe_explains_why_there_is_nothing_to_fail() {
    let mut c = web_cluster(1);
    let name = c.store.list::<Pod>().next().unwrap().metadata.name.clone();
    let o = run(&mut c, &format!("sim unready pod/{name}"), None, &NoFiles);
    assert!(!o.ok);
    assert!(o.output.contains("has no readiness probe"), "{}", o.output);
}

#[test]
fn a_crashed_container_in_a_never_restart_pod_leaves_the_pod_failed() {
    let mut c = Cluster::with_default_nodes(1);
    let pod = "apiVersion: v1\nkind: Pod\nmetadata: {name: job}\nspec:\n  restartPolicy: Never\n  containers: [{name: c, image: busybox}]\n";
    assert!(run(&mut c, "kubectl apply -f -", Some(pod), &NoFiles).ok);
    c.settle(60 * SECOND);
    sh(&mut c, "sim crash pod/job");
    c.advance(5 * SECOND);
    let p = only_pod(&c);
    assert_eq!(p.status.phase, "Failed");
    assert_eq!(pod_ready_status(&p).1, "Error");
    assert_eq!(p.restarts(), 0);
    // A terminal Pod no longer counts against the node.
    assert_eq!(c.store.node_usage(&p.spec.node_name).pods, 0);
}

const LIVE: &str = "apiVersion: v1
kind: Pod
metadata: {name: worker}
spec:
  containers:
  - name: worker
    image: worker:1.0
    resources: {limits: {memory: 256Mi}}
    livenessProbe:
      httpGet: {path: /healthz, port: 8080}
      periodSeconds: 10
      failureThreshold: 3
";

#[test]
fn a_hung_app_fails_its_liveness_probe_three_times_and_is_restarted_in_the_same_pod() {
    let mut c = Cluster::with_default_nodes(1);
    assert!(run(&mut c, "kubectl apply -f -", Some(LIVE), &NoFiles).ok);
    assert!(c.settle(60 * SECOND));
    let uid = only_pod(&c).metadata.uid;
    let out = sh(&mut c, "sim hang pod/worker");
    assert!(out.contains("the kubelet will restart it"), "{out}");
    c.advance(29 * SECOND);
    assert_eq!(only_pod(&c).restarts(), 0, "two failures so far");
    c.advance(5 * SECOND);
    let p = only_pod(&c);
    assert_eq!(p.metadata.uid, uid);
    assert_eq!(p.restarts(), 1);
    let last = p.status.container_statuses[0]
        .last_state
        .terminated
        .clone()
        .unwrap();
    assert_eq!((last.exit_code, last.reason.as_str()), (137, "Error"));
    let ev: Vec<(String, String, i64)> = c
        .events()
        .into_iter()
        .filter(|e| e.involved_object.name == "worker")
        .map(|e| (e.reason.clone(), e.message.clone(), e.count))
        .collect();
    assert!(
        ev.contains(&(
            "Unhealthy".into(),
            "Liveness probe failed: HTTP probe failed with statuscode: 503".into(),
            3
        )),
        "{ev:?}"
    );
    assert!(ev.iter().any(|(r, m, _)| r == "Killing"
        && m == "Container worker failed liveness probe, will be restarted"));
    // The restart cured the hang: no more failures.
    c.advance(120 * SECOND);
    assert_eq!(only_pod(&c).restarts(), 1);
}

#[test]
fn an_oom_kill_shows_oomkilled_and_restarts_the_container() {
    let mut c = Cluster::with_default_nodes(1);
    assert!(run(&mut c, "kubectl apply -f -", Some(LIVE), &NoFiles).ok);
    assert!(c.settle(60 * SECOND));
    sh(&mut c, "sim oom pod/worker");
    let p = only_pod(&c);
    assert_eq!(pod_ready_status(&p).1, "OOMKilled");
    c.advance(5 * SECOND);
    let p = only_pod(&c);
    assert_eq!(p.restarts(), 1);
    assert_eq!(
        p.status.container_statuses[0]
            .last_state
            .terminated
            .as_ref()
            .unwrap()
            .reason,
        "OOMKilled"
    );
    assert!(p.is_ready());
}

const SLOW_START: &str = "apiVersion: v1
kind: Pod
metadata: {name: slow}
spec:
  containers:
  - name: slow
    image: slow:1.0
    startupProbe:
      httpGet: {path: /started, port: 8080}
      initialDelaySeconds: 30
      periodSeconds: 10
      failureThreshold: 3
    livenessProbe:
      httpGet: {path: /healthz, port: 8080}
      periodSeconds: 5
      failureThreshold: 1
";

fn started_at_ms(p: &Pod) -> u64 {
    let s = p.status.container_statuses[0]
        .state
        .running
        .as_ref()
        .unwrap()
        .started_at
        .clone();
    parse_rfc3339(&s).unwrap()
}

#[test]
fn a_startup_probe_holds_started_and_ready_until_it_passes() {
    let mut c = Cluster::with_default_nodes(1);
    assert!(run(&mut c, "kubectl apply -f -", Some(SLOW_START), &NoFiles).ok);
    step_until(&mut c, 60 * SECOND, "container running", |c| {
        only_pod(c)
            .status
            .container_statuses
            .first()
            .is_some_and(|cs| cs.state.running.is_some())
    });
    let p = only_pod(&c);
    let t0 = started_at_ms(&p);
    let cs = &p.status.container_statuses[0];
    assert_eq!((cs.started, cs.ready), (Some(false), false));
    assert_eq!(pod_ready_status(&p).0, "0/1");
    // Just before the first startup probe (30 s after the start): still not started.
    c.advance(t0 + 29 * SECOND - c.now());
    assert_eq!(
        only_pod(&c).status.container_statuses[0].started,
        Some(false)
    );
    c.advance(2 * SECOND);
    let p = only_pod(&c);
    let cs = &p.status.container_statuses[0];
    // No readiness probe: ready as soon as started.
    assert_eq!((cs.started, cs.ready), (Some(true), true));
    assert_eq!(pod_ready_status(&p).0, "1/1");
    assert_eq!(p.restarts(), 0);
}

#[test]
fn an_app_that_never_starts_fails_its_startup_probe_and_is_restarted_while_liveness_waits() {
    let mut c = Cluster::with_default_nodes(1);
    assert!(run(&mut c, "kubectl apply -f -", Some(SLOW_START), &NoFiles).ok);
    step_until(&mut c, 60 * SECOND, "container running", |c| {
        only_pod(c)
            .status
            .container_statuses
            .first()
            .is_some_and(|cs| cs.state.running.is_some())
    });
    let t0 = started_at_ms(&only_pod(&c));
    sh(&mut c, "sim hang pod/slow");
    // Probes at +30, +40 and +50 s fail; the third kills the container. The liveness
    // probe (failureThreshold 1, every 5 s) never ran: it waits for the start.
    c.advance(t0 + 49 * SECOND - c.now());
    assert_eq!(only_pod(&c).restarts(), 0);
    c.advance(5 * SECOND);
    let p = only_pod(&c);
    assert_eq!(p.restarts(), 1);
    let last = p.status.container_statuses[0]
        .last_state
        .terminated
        .clone()
        .unwrap();
    assert_eq!(last.exit_code, 137);
    let ev: Vec<(String, String, i64)> = c
        .events()
        .into_iter()
        .filter(|e| e.involved_object.name == "slow")
        .map(|e| (e.reason.clone(), e.message.clone(), e.count))
        .collect();
    assert!(
        ev.contains(&(
            "Unhealthy".into(),
            "Startup probe failed: HTTP probe failed with statuscode: 503".into(),
            3
        )),
        "{ev:?}"
    );
    assert!(ev
        .iter()
        .any(|(r, m, _)| r == "Killing"
            && m == "Container slow failed startup probe, will be restarted"));
    assert!(
        !ev.iter()
            .any(|(_, m, _)| m.starts_with("Liveness probe failed")),
        "{ev:?}"
    );
}

#[test]
fn a_node_reports_pulled_images_by_digest_and_full_tag_at_its_next_status_sync() {
    let mut c = Cluster::with_default_nodes(1);
    sh(
        &mut c,
        "kubectl create deployment pause --image=registry.k8s.io/pause:3.10",
    );
    sh(&mut c, "kubectl create deployment web2 --image=nginx:1.27");
    assert!(c.settle(60 * SECOND));
    c.advance(11 * SECOND);
    let p = c
        .store
        .list::<Pod>()
        .find(|p| p.metadata.labels.get("app").map(String::as_str) == Some("pause"))
        .unwrap()
        .clone();
    let node = c
        .store
        .get::<Node>(&ObjKey::new("", &p.spec.node_name))
        .unwrap();
    let img = node
        .status
        .images
        .iter()
        .find(|i| i.names.iter().any(|n| n == "registry.k8s.io/pause:3.10"))
        .expect("reported");
    assert!(img.names[0].starts_with("registry.k8s.io/pause@sha256:"));
    assert_eq!(
        c.store.image_state("registry.k8s.io/pause:3.10"),
        Some((img.size_bytes, 1))
    );
    // The short name is reported fully qualified, as containerd does.
    assert!(c
        .store
        .image_state("docker.io/library/nginx:1.27")
        .is_some());
    assert!(c.store.image_state("nginx:1.27").is_none());
}

/// Crash the only Pod's container and return how long (s) after the exit it ran again.
fn crash_and_time_restart(c: &mut Cluster) -> u64 {
    let name = only_pod(c).metadata.name.clone();
    let before = only_pod(c).restarts();
    sh(c, &format!("sim crash pod/{name}"));
    step_until(c, 400 * SECOND, "restarted", |c| {
        let p = only_pod(c);
        p.restarts() > before && p.status.container_statuses[0].state.running.is_some()
    });
    let p = only_pod(c);
    let finished = parse_rfc3339(
        &p.status.container_statuses[0]
            .last_state
            .terminated
            .as_ref()
            .unwrap()
            .finished_at,
    )
    .unwrap();
    (c.now() - finished) / SECOND
}

#[test]
fn ten_quiet_minutes_reset_the_crash_back_off() {
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "kubectl create deployment shop --image=shop:1.0");
    assert!(c.settle(60 * SECOND));
    assert_eq!(crash_and_time_restart(&mut c), 1);
    assert_eq!(crash_and_time_restart(&mut c), 10);
    assert_eq!(crash_and_time_restart(&mut c), 20);
    // Five quiet minutes are not enough: the next delay doubles.
    c.advance(5 * 60 * SECOND);
    assert_eq!(crash_and_time_restart(&mut c), 40);
    // More than ten quiet minutes forget the back-off: restart at once again.
    c.advance(11 * 60 * SECOND);
    assert_eq!(crash_and_time_restart(&mut c), 1);
    assert_eq!(crash_and_time_restart(&mut c), 10);
}

const WITH_INIT: &str = "apiVersion: v1
kind: Pod
metadata: {name: web}
spec:
  initContainers:
  - {name: migrate, image: migrate:1.0}
  - {name: warm, image: busybox:1.36}
  containers:
  - {name: app, image: nginx:1.27}
";

#[test]
fn init_containers_run_one_after_another_before_the_app_containers() {
    let mut c = Cluster::with_default_nodes(1);
    assert!(run(&mut c, "kubectl apply -f -", Some(WITH_INIT), &NoFiles).ok);
    // Record every STATUS the Pod shows, in order, until it is Running.
    let mut seen: Vec<String> = Vec::new();
    while seen.last().map(String::as_str) != Some("Running") {
        assert!(c.now() < 120 * SECOND, "{seen:?}");
        c.step();
        if let Some(p) = c.store.list::<Pod>().next() {
            let s = pod_ready_status(p).1;
            if seen.last() != Some(&s) {
                seen.push(s);
            }
        }
    }
    assert_eq!(
        seen,
        [
            "Pending",
            "Init:0/2",
            "Init:1/2",
            "PodInitializing",
            "Running"
        ]
    );
    let p = only_pod(&c);
    for cs in &p.status.init_container_statuses {
        let t = cs.state.terminated.as_ref().unwrap();
        assert_eq!((t.exit_code, t.reason.as_str()), (0, "Completed"));
    }
    // migrate finished before warm started, warm before app started.
    let t = |s: &str| parse_rfc3339(s).unwrap();
    let migrate = p.status.init_container_statuses[0]
        .state
        .terminated
        .clone()
        .unwrap();
    let warm = p.status.init_container_statuses[1]
        .state
        .terminated
        .clone()
        .unwrap();
    let app = p.status.container_statuses[0]
        .state
        .running
        .clone()
        .unwrap();
    assert!(t(&migrate.finished_at) <= t(&warm.started_at));
    assert!(t(&warm.finished_at) <= t(&app.started_at));
    let init = p
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "Initialized")
        .unwrap();
    assert_eq!(init.status, "True");
}

#[test]
fn a_failing_init_container_crash_loops_and_the_app_never_starts() {
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "sim image-crash migrate:1.0 --after 1s");
    assert!(run(&mut c, "kubectl apply -f -", Some(WITH_INIT), &NoFiles).ok);
    c.advance(60 * SECOND);
    let p = only_pod(&c);
    assert_eq!(pod_ready_status(&p).1, "Init:CrashLoopBackOff");
    assert!(p.status.init_container_statuses[0].restart_count >= 2);
    assert!(
        p.status.init_container_statuses[1].state.waiting.is_some(),
        "warm never ran"
    );
    assert!(
        p.status.container_statuses[0].state.running.is_none(),
        "app never ran"
    );
    let init = p
        .status
        .conditions
        .iter()
        .find(|c| c.type_ == "Initialized")
        .unwrap();
    assert_eq!(
        (
            init.status.as_str(),
            init.reason.as_str(),
            init.message.as_str()
        ),
        (
            "False",
            "ContainersNotInitialized",
            "containers with incomplete status: [migrate warm]"
        )
    );
    // restartPolicy Never: the first failure fails the Pod (Init:Error).
    let mut c = Cluster::with_default_nodes(1);
    sh(&mut c, "sim image-crash migrate:1.0 --after 1s");
    let never = WITH_INIT.replace("spec:\n", "spec:\n  restartPolicy: Never\n");
    assert!(run(&mut c, "kubectl apply -f -", Some(&never), &NoFiles).ok);
    c.advance(30 * SECOND);
    let p = only_pod(&c);
    assert_eq!(p.status.phase, "Failed");
    assert_eq!(pod_ready_status(&p).1, "Init:Error");
}

#[test]
fn a_fault_switched_on_while_no_node_exists_holds_for_the_nodes_added_later() {
    // The registry and the application are the world's, not a kubelet's: a switch
    // flipped while the cluster has no node at all still holds for a node added later.
    let mut c = Cluster::new(1);
    sh(&mut c, "sim image-fail shop:typo");
    sh(&mut c, "sim image-crash shop:2.0 --after 1s");
    sh(&mut c, "sim node add late");
    sh(&mut c, "kubectl create deployment typo --image=shop:typo");
    sh(&mut c, "kubectl create deployment crashy --image=shop:2.0");
    c.advance(60 * SECOND);
    let status = |prefix: &str| {
        let p = c
            .store
            .list::<Pod>()
            .find(|p| p.metadata.name.starts_with(prefix))
            .expect("pod");
        pod_ready_status(p).1
    };
    assert_eq!(status("typo-"), "ImagePullBackOff");
    assert!(
        ["CrashLoopBackOff", "Error"].contains(&status("crashy-").as_str()),
        "{}",
        status("crashy-")
    );
}
