//! One kubelet on its own, driven timer by timer against a store: each part's exact
//! status writes and Events.

use super::*;
use crate::apiserver::ObjKey;
use crate::rng::Rng;

/// A node with its kubelet, the store it reports to, and its pending timers.
struct Bench {
    store: Store,
    rng: Rng,
    k: Kubelet,
    faults: Faults,
    now: SimTime,
    timers: Vec<(SimTime, KubeletTimer)>,
}

fn container(name: &str, image: &str) -> Container {
    Container {
        name: name.into(),
        image: image.into(),
        ..Default::default()
    }
}

fn probe(period: i64, failures: i64) -> Probe {
    Probe {
        http_get: Some(HttpGetAction {
            path: "/".into(),
            port: IntOrString::Int(80),
            scheme: String::new(),
            extra: Default::default(),
        }),
        tcp_socket: None,
        exec: None,
        initial_delay_seconds: 0,
        period_seconds: period,
        failure_threshold: failures,
        success_threshold: 1,
        timeout_seconds: 1,
        extra: Default::default(),
    }
}

impl Bench {
    /// A registered node `node-1` (its Node and Lease in the store).
    fn new() -> Self {
        let mut b = Bench {
            store: Store::for_tests(),
            rng: Rng::new(1),
            k: Kubelet::new("node-1", 1, NodeConfig::default(), KubeletTiming::default()),
            faults: Faults::default(),
            now: 0,
            timers: Vec::new(),
        };
        let (requests, _) = b.k.register(0);
        b.apply(requests);
        b
    }

    /// Create `pod` bound to node-1 and show it to the kubelet; returns its uid.
    fn bind(&mut self, mut pod: Pod) -> String {
        pod.metadata.namespace = "default".into();
        let key = ObjKey::of(&pod.metadata);
        self.store
            .create(
                self.now,
                &mut self.rng,
                Object::Pod(Box::new(pod)),
                "kubectl",
            )
            .unwrap();
        let ch = self
            .store
            .bind(self.now, &key, "node-1", "default-scheduler")
            .unwrap();
        let bound = ch
            .new
            .as_deref()
            .and_then(Pod::from_object)
            .unwrap()
            .clone();
        let (r, t) = self.k.on_pod_change(None, Some(&bound), self.now);
        assert!(r.is_empty());
        self.timers.extend(t);
        bound.metadata.uid
    }

    /// `kubectl delete pod` (graceful) and the kubelet told of it, as its watch would.
    fn delete_pod(&mut self, uid: &str) {
        let old = self.pod(uid);
        let key = ObjKey::of(&old.metadata);
        let chs = self
            .store
            .delete(
                self.now,
                Kind::Pod,
                &key,
                &crate::apiserver::DeleteOptions::default(),
                "kubectl",
            )
            .unwrap();
        let deleting = chs[0]
            .new
            .as_deref()
            .and_then(Pod::from_object)
            .unwrap()
            .clone();
        let (_, timers) = self.k.on_pod_change(Some(&old), Some(&deleting), self.now);
        self.timers.extend(timers);
    }

    fn pod(&self, uid: &str) -> Pod {
        self.store
            .list::<Pod>()
            .find(|p| p.metadata.uid == uid)
            .unwrap()
            .clone()
    }

    /// Write the status updates and creates (Events are returned, not stored).
    fn apply(&mut self, requests: Vec<Request>) {
        for r in requests {
            match r {
                Request::Create { object, .. } => {
                    self.store
                        .create(self.now, &mut self.rng, object, "kubelet/node-1")
                        .unwrap();
                }
                Request::UpdateStatus(o) => {
                    self.store
                        .update_status(self.now, o, "kubelet/node-1")
                        .unwrap();
                }
                Request::Update(o) => {
                    self.store
                        .update(self.now, o, "kubelet/node-1", false)
                        .unwrap();
                }
                _ => {}
            }
        }
    }

    /// Fire the earliest pending timer; returns it and the requests it made (applied).
    fn next(&mut self) -> (KubeletTimer, Vec<Request>) {
        let i = (0..self.timers.len())
            .min_by_key(|&i| (self.timers[i].0, i))
            .expect("a pending timer");
        let (at, t) = self.timers.remove(i);
        self.now = self.now.max(at);
        let (requests, timers) = self
            .k
            .fire(&mut self.faults, &self.store, t.clone(), self.now);
        self.timers.extend(timers);
        self.apply(requests.clone());
        (t, requests)
    }

    /// Fire timers until one of this shape fires; returns its requests.
    fn until(&mut self, want: impl Fn(&KubeletTimer) -> bool) -> Vec<Request> {
        for _ in 0..200 {
            let (t, r) = self.next();
            if want(&t) {
                return r;
            }
        }
        panic!("timer never fired");
    }
}

/// The Events among requests: (type, reason, message).
fn events(requests: &[Request]) -> Vec<(&'static str, String, String)> {
    requests
        .iter()
        .filter_map(|r| match r {
            Request::Event {
                type_,
                reason,
                message,
                ..
            } => Some((type_.as_str(), reason.clone(), message.clone())),
            _ => None,
        })
        .collect()
}

/// The Pods written by requests.
fn pod_writes(requests: &[Request]) -> Vec<&Pod> {
    requests
        .iter()
        .filter_map(|r| match r {
            Request::UpdateStatus(o) => Pod::from_object(o),
            _ => None,
        })
        .collect()
}

fn web(containers: Vec<Container>) -> Pod {
    Pod {
        metadata: ObjectMeta {
            name: "web-1".into(),
            ..Default::default()
        },
        spec: PodSpec {
            containers,
            ..Default::default()
        },
        ..Default::default()
    }
}

#[test]
fn registration_creates_the_node_ready_with_its_capacity_and_the_lease_then_heartbeats_every_10s_and_keeps_house_every_minute(
) {
    let mut k = Kubelet::new("node-7", 7, NodeConfig::default(), KubeletTiming::default());
    let (requests, timers) = k.register(1_000);
    assert_eq!(
        timers,
        vec![
            (11_000, KubeletTimer::Heartbeat),
            (61_000, KubeletTimer::Housekeeping)
        ]
    );
    let [Request::Create {
        object: Object::Node(n),
        ..
    }, Request::Create {
        object: Object::Lease(l),
        ..
    }] = requests.as_slice()
    else {
        panic!("{requests:?}");
    };
    assert_eq!(n.status.capacity.get("cpu").map(String::as_str), Some("4"));
    assert_eq!(
        n.status.allocatable.get("pods").map(String::as_str),
        Some("110")
    );
    assert_eq!(n.spec.pod_cidr, "10.244.7.0/24");
    let conds: Vec<(&str, &str, &str)> = n
        .status
        .conditions
        .iter()
        .map(|c| (c.type_.as_str(), c.status.as_str(), c.reason.as_str()))
        .collect();
    assert_eq!(
        conds,
        vec![
            ("MemoryPressure", "False", "KubeletHasSufficientMemory"),
            ("DiskPressure", "False", "KubeletHasNoDiskPressure"),
            ("PIDPressure", "False", "KubeletHasSufficientPID"),
            ("Ready", "True", "KubeletReady"),
        ]
    );
    assert_eq!(l.metadata.namespace, "kube-node-lease");
    assert_eq!(l.spec.holder_identity, "node-7");
    assert_eq!(l.spec.lease_duration_seconds, 40);
}

#[test]
fn a_heartbeat_renews_the_lease_and_reports_images_only_when_they_changed() {
    let mut b = Bench::new();
    let (requests, timers) = b.k.heartbeat(&b.store, 10_000);
    assert_eq!(timers, vec![(20_000, KubeletTimer::Heartbeat)]);
    assert!(
        matches!(requests.as_slice(), [Request::Update(Object::Lease(l))] if l.spec.renew_ms == 10_000)
    );
    b.k.images.insert("nginx:1.27".into());
    let (requests, _) = b.k.heartbeat(&b.store, 20_000);
    let Some(Request::UpdateStatus(Object::Node(n))) = requests.get(1) else {
        panic!("{requests:?}");
    };
    assert_eq!(
        n.status.images[0].names,
        vec![
            image_id("nginx:1.27"),
            "docker.io/library/nginx:1.27".to_string()
        ]
    );
}

#[test]
fn a_bound_pod_is_synced_300ms_later_pending_with_an_ip_and_containers_creating() {
    let mut b = Bench::new();
    let uid = b.bind(web(vec![container("app", "nginx:1.27")]));
    assert_eq!(b.timers, vec![(300, KubeletTimer::Sync(uid.clone()))]);
    let (_, requests) = b.next();
    let p = pod_writes(&requests)[0];
    assert_eq!(p.status.phase, "Pending");
    assert_eq!(p.status.pod_ip, "10.244.1.3");
    assert_eq!(p.status.host_ip, "10.0.0.3");
    let cs = &p.status.container_statuses[0];
    assert_eq!(
        cs.state.waiting.as_ref().unwrap().reason,
        "ContainerCreating"
    );
    let conds: Vec<(&str, &str)> = p
        .status
        .conditions
        .iter()
        .map(|c| (c.type_.as_str(), c.status.as_str()))
        .collect();
    assert_eq!(
        conds,
        vec![
            ("PodReadyToStartContainers", "True"),
            ("Initialized", "True"),
            ("Ready", "False"),
            ("ContainersReady", "False"),
            ("PodScheduled", "True"),
        ]
    );
    assert_eq!(
        events(&requests),
        vec![(
            "Normal",
            "Pulling".into(),
            "Pulling image \"nginx:1.27\"".into()
        )]
    );
}

#[test]
fn a_pulled_image_is_reported_with_its_time_and_size_then_the_container_runs_and_is_ready() {
    let mut b = Bench::new();
    let uid = b.bind(web(vec![container("app", "nginx:1.27")]));
    b.next();
    let (t, requests) = b.next();
    assert_eq!(t, KubeletTimer::PullDone(uid.clone(), 0));
    let ms = 800 + image_size("nginx:1.27") / 1_000_000 * 40;
    assert_eq!(b.now, 300 + ms);
    let secs = format_go_duration(ms);
    assert_eq!(
        events(&requests),
        vec![(
            "Normal",
            "Pulled".into(),
            format!(
                "Successfully pulled image \"nginx:1.27\" in {secs} ({secs} including waiting). Image size: {} bytes.",
                image_size("nginx:1.27")
            )
        )]
    );
    let (t, requests) = b.next();
    assert_eq!(t, KubeletTimer::Start(uid.clone(), 0));
    assert_eq!(
        events(&requests),
        vec![
            ("Normal", "Created".into(), "Created container app".into()),
            ("Normal", "Started".into(), "Started container app".into()),
        ]
    );
    let p = pod_writes(&requests)[0];
    assert_eq!(p.status.phase, "Running");
    assert!(p.is_ready());
    assert!(p.status.container_statuses[0]
        .container_id
        .starts_with("containerd://"));
}

#[test]
fn a_refused_image_fails_with_err_image_pull_then_backs_off_and_pulls_again_once_served() {
    let mut b = Bench::new();
    b.faults.refused_images.insert("shop:typo".into());
    let uid = b.bind(web(vec![container("app", "shop:typo")]));
    b.next();
    let requests = b.until(|t| matches!(t, KubeletTimer::PullFailed(..)));
    let err = pull_error("shop:typo");
    assert_eq!(
        events(&requests),
        vec![
            (
                "Warning",
                "Failed".into(),
                format!("Failed to pull image \"shop:typo\": {err}")
            ),
            ("Warning", "Failed".into(), "Error: ErrImagePull".into()),
        ]
    );
    let cs = &pod_writes(&requests)[0].status.container_statuses[0];
    assert_eq!(cs.state.waiting.as_ref().unwrap().reason, "ErrImagePull");
    let requests = b.until(|t| matches!(t, KubeletTimer::ImageBackOff(..)));
    assert_eq!(
        events(&requests),
        vec![
            (
                "Normal",
                "BackOff".into(),
                "Back-off pulling image \"shop:typo\"".into()
            ),
            ("Warning", "Failed".into(), "Error: ImagePullBackOff".into()),
        ]
    );
    let failed_at = b.now - PLEG_RELIST;
    // The retry comes 10 s after the failure; the registry serves it by then.
    b.faults.refused_images.clear();
    b.until(|t| matches!(t, KubeletTimer::RetryPull(..)));
    assert_eq!(b.now, failed_at + INITIAL_BACKOFF);
    b.until(|t| matches!(t, KubeletTimer::Start(..)));
    assert!(b.pod(&uid).is_ready());
}

#[test]
fn a_crashed_container_restarts_at_once_then_waits_in_crash_loop_back_off() {
    let mut b = Bench::new();
    let uid = b.bind(web(vec![container("app", "nginx:1.27")]));
    b.until(|t| matches!(t, KubeletTimer::Start(..)));
    let (requests, timers) = b.k.crash(&b.store, &uid, 0, None, b.now).unwrap();
    let exited = b.now;
    let p = pod_writes(&requests)[0];
    let t = p.status.container_statuses[0]
        .state
        .terminated
        .as_ref()
        .unwrap();
    assert_eq!((t.exit_code, t.reason.as_str()), (1, "Error"));
    assert!(!p.is_ready());
    assert_eq!(
        timers,
        vec![(
            exited + PLEG_RELIST,
            KubeletTimer::Restart(uid.clone(), 0, 2)
        )]
    );
    b.apply(requests);
    b.timers.extend(timers);
    // The first restart is immediate and arms a 10 s back-off.
    let requests = b.until(|t| matches!(t, KubeletTimer::Restart(..)));
    assert_eq!(
        events(&requests)[0],
        (
            "Normal",
            "Pulled".into(),
            "Container image \"nginx:1.27\" already present on machine".into()
        )
    );
    assert_eq!(b.pod(&uid).restarts(), 1);
    let (requests, timers) = b.k.crash(&b.store, &uid, 0, None, b.now).unwrap();
    b.apply(requests);
    b.timers.extend(timers);
    let requests = b.until(|t| matches!(t, KubeletTimer::Restart(..)));
    let what = format!("web-1_default({uid})");
    let cs = &pod_writes(&requests)[0].status.container_statuses[0];
    assert_eq!(
        cs.state.waiting.as_ref().unwrap().message,
        format!("back-off 10s restarting failed container=app pod={what}")
    );
    assert_eq!(
        events(&requests),
        vec![(
            "Warning",
            "BackOff".into(),
            format!("Back-off restarting failed container app in pod {what}")
        )]
    );
}

#[test]
fn a_failing_readiness_probe_says_unhealthy_each_period_and_unreadies_at_its_threshold() {
    let mut b = Bench::new();
    let mut c = container("app", "nginx:1.27");
    c.readiness_probe = Some(probe(5, 2));
    let uid = b.bind(web(vec![c]));
    let requests = b.until(|t| matches!(t, KubeletTimer::Start(..)));
    assert!(!pod_writes(&requests)[0].is_ready(), "the probe decides");
    let requests = b.until(|t| matches!(t, KubeletTimer::Probe(..)));
    assert!(
        pod_writes(&requests)[0].is_ready(),
        "the first success makes it Ready"
    );
    assert!(
        b.timers
            .iter()
            .all(|(_, t)| !matches!(t, KubeletTimer::Probe(..))),
        "then quiet"
    );
    let (_, timers) =
        b.k.set_unready(&mut b.faults, &b.store, &uid, true, b.now)
            .unwrap();
    b.timers.extend(timers);
    let unhealthy = (
        "Warning",
        "Unhealthy".to_string(),
        "Readiness probe failed: HTTP probe failed with statuscode: 503".to_string(),
    );
    let requests = b.until(|t| matches!(t, KubeletTimer::Probe(..)));
    assert_eq!(events(&requests), vec![unhealthy.clone()]);
    assert!(pod_writes(&requests).is_empty(), "one failure of two");
    let requests = b.until(|t| matches!(t, KubeletTimer::Probe(..)));
    assert_eq!(events(&requests), vec![unhealthy]);
    let p = pod_writes(&requests)[0];
    let ready = get_condition(&p.status.conditions, "Ready").unwrap();
    assert_eq!(
        (ready.status.as_str(), ready.message.as_str()),
        ("False", "containers with unready status: [app]")
    );
}

#[test]
fn a_hung_application_fails_its_liveness_probe_and_is_killed_at_the_threshold() {
    let mut b = Bench::new();
    let mut c = container("app", "nginx:1.27");
    c.liveness_probe = Some(probe(10, 3));
    let uid = b.bind(web(vec![c]));
    b.until(|t| matches!(t, KubeletTimer::Start(..)));
    let started = b.now;
    assert!(
        b.timers
            .iter()
            .all(|(_, t)| !matches!(t, KubeletTimer::Probe(..))),
        "quiet while healthy"
    );
    let (_, timers) =
        b.k.set_hung(&mut b.faults, &b.store, &uid, b.now + 1)
            .unwrap();
    assert_eq!(timers.len(), 1);
    assert_eq!(
        timers[0].0,
        started + 10_000,
        "the next tick on the prober's grid"
    );
    b.timers.extend(timers);
    b.until(|t| matches!(t, KubeletTimer::Probe(..)));
    b.until(|t| matches!(t, KubeletTimer::Probe(..)));
    let requests = b.until(|t| matches!(t, KubeletTimer::Probe(..)));
    assert_eq!(
        events(&requests),
        vec![
            (
                "Warning",
                "Unhealthy".into(),
                "Liveness probe failed: HTTP probe failed with statuscode: 503".into()
            ),
            (
                "Normal",
                "Killing".into(),
                "Container app failed liveness probe, will be restarted".into()
            ),
        ]
    );
    let t = pod_writes(&requests)[0].status.container_statuses[0]
        .state
        .terminated
        .clone()
        .unwrap();
    assert_eq!((t.exit_code, t.reason.as_str()), (137, "Error"));
    assert!(b.faults.alive(&uid), "the kill cures the hang");
}

#[test]
fn a_startup_probe_holds_the_container_unstarted_and_unready_until_it_passes() {
    let mut b = Bench::new();
    let mut c = container("app", "nginx:1.27");
    c.startup_probe = Some(probe(2, 30));
    let uid = b.bind(web(vec![c]));
    let requests = b.until(|t| matches!(t, KubeletTimer::Start(..)));
    let cs = &pod_writes(&requests)[0].status.container_statuses[0];
    assert_eq!((cs.started, cs.ready), (Some(false), false));
    let requests =
        b.until(|t| matches!(t, KubeletTimer::Probe(tick) if tick.probe == ProbeType::Startup));
    let p = pod_writes(&requests)[0];
    assert_eq!(p.status.container_statuses[0].started, Some(true));
    assert!(p.is_ready());
    assert!(events(&requests).is_empty());
    assert_eq!(b.pod(&uid).status.phase, "Running");
}

#[test]
fn init_containers_run_one_by_one_to_completion_before_the_app_container_is_pulled() {
    let mut b = Bench::new();
    let mut pod = web(vec![container("app", "nginx:1.27")]);
    pod.spec.init_containers = vec![
        container("one", "busybox:1.36"),
        container("two", "busybox:1.36"),
    ];
    let uid = b.bind(pod);
    let (_, requests) = b.next();
    let p = pod_writes(&requests)[0];
    let init = get_condition(&p.status.conditions, "Initialized").unwrap();
    assert_eq!(init.message, "containers with incomplete status: [one two]");
    assert_eq!(
        p.status.container_statuses[0]
            .state
            .waiting
            .as_ref()
            .unwrap()
            .reason,
        "PodInitializing"
    );
    let requests = b.until(|t| matches!(t, KubeletTimer::InitExit(_, 0, 0)));
    let p = pod_writes(&requests)[0];
    assert_eq!(
        get_condition(&p.status.conditions, "Initialized")
            .unwrap()
            .message,
        "containers with incomplete status: [two]"
    );
    assert_eq!(
        p.status.init_container_statuses[0]
            .state
            .terminated
            .as_ref()
            .unwrap()
            .reason,
        "Completed"
    );
    // The second one finds busybox already present.
    let requests = b.until(|t| matches!(t, KubeletTimer::InitPull(_, 1)));
    assert_eq!(
        events(&requests)[0].2,
        "Container image \"busybox:1.36\" already present on machine"
    );
    let requests = b.until(|t| matches!(t, KubeletTimer::InitExit(_, 1, 0)));
    let p = pod_writes(&requests)[0];
    assert_eq!(
        get_condition(&p.status.conditions, "Initialized")
            .unwrap()
            .status,
        "True"
    );
    assert_eq!(
        events(&requests),
        vec![(
            "Normal",
            "Pulling".into(),
            "Pulling image \"nginx:1.27\"".into()
        )]
    );
    b.until(|t| matches!(t, KubeletTimer::Start(..)));
    assert!(b.pod(&uid).is_ready());
}

#[test]
fn a_deleted_pod_is_stopped_within_its_grace_and_removed_with_a_final_delete() {
    let mut b = Bench::new();
    let uid = b.bind(web(vec![container("app", "nginx:1.27")]));
    b.until(|t| matches!(t, KubeletTimer::Start(..)));
    b.delete_pod(&uid);
    let requests = b.until(|t| matches!(t, KubeletTimer::Kill(..)));
    assert_eq!(
        events(&requests),
        vec![("Normal", "Killing".into(), "Stopping container app".into())]
    );
    let killed = b.now;
    let (_, requests) = b.next();
    assert_eq!(b.now, killed + 1_000, "containers exit a second after TERM");
    let p = pod_writes(&requests)[0];
    assert_eq!(p.status.phase, "Succeeded");
    assert!(matches!(
        requests.last(),
        Some(Request::Delete { options, .. }) if options.grace_period_seconds == Some(0)
            && options.precondition_uid.as_deref() == Some(uid.as_str())
    ));
}

#[test]
fn a_deleted_pods_sidecars_exit_one_after_another_after_the_app_in_reverse_order() {
    let mut b = Bench::new();
    let mut pod = web(vec![container("app", "nginx:1.27")]);
    for name in ["proxy", "logger"] {
        let mut c = container(name, "envoy:1.31");
        c.restart_policy = Some("Always".into());
        pod.spec.init_containers.push(c);
    }
    let uid = b.bind(pod);
    b.until(|t| matches!(t, KubeletTimer::Start(..)));
    b.delete_pod(&uid);
    let requests = b.until(|t| matches!(t, KubeletTimer::Kill(..)));
    let stopping: Vec<String> = events(&requests).into_iter().map(|e| e.2).collect();
    assert_eq!(
        stopping,
        [
            "Stopping container app",
            "Stopping container logger",
            "Stopping container proxy"
        ]
    );
    let killed = b.now;
    let (_, requests) = b.next();
    assert_eq!(b.now, killed + 3_000, "app, then logger, then proxy");
    let p = pod_writes(&requests)[0];
    let finished = |s: &ContainerStatus| s.state.terminated.as_ref().unwrap().finished_at.clone();
    assert_eq!(
        finished(&p.status.container_statuses[0]),
        rfc3339(killed + 1_000)
    );
    assert_eq!(
        finished(&p.status.init_container_statuses[1]),
        rfc3339(killed + 2_000)
    );
    assert_eq!(
        finished(&p.status.init_container_statuses[0]),
        rfc3339(killed + 3_000)
    );
}

#[test]
fn a_rebooted_node_posts_ready_and_restarts_its_pods_in_place_with_a_new_sandbox() {
    let mut b = Bench::new();
    let uid = b.bind(web(vec![container("app", "nginx:1.27")]));
    b.until(|t| matches!(t, KubeletTimer::Start(..)));
    let ip = b.pod(&uid).status.pod_ip;
    b.k.power_off();
    assert!(
        b.k.running(&b.store).is_empty(),
        "nothing runs on a node that is off"
    );
    b.timers.clear();
    b.now += 60_000;
    let (requests, timers) = b.k.power_on(&b.store, b.now);
    b.apply(requests.clone());
    b.timers.extend(timers);
    let ready = requests.iter().find_map(|r| match r {
        Request::UpdateStatus(Object::Node(n)) => Some(n.ready_status().to_string()),
        _ => None,
    });
    assert_eq!(ready.as_deref(), Some("True"));
    let said: Vec<String> = events(&requests).into_iter().map(|(_, r, _)| r).collect();
    assert_eq!(said, vec!["NodeReady", "SandboxChanged"]);
    let (_, requests) = b.next();
    let p = pod_writes(&requests)[0];
    let cs = &p.status.container_statuses[0];
    assert_eq!(cs.restart_count, 1, "same Pod, one restart");
    let last = cs.last_state.terminated.as_ref().unwrap();
    assert_eq!((last.exit_code, last.reason.as_str()), (255, "Unknown"));
    assert_ne!(p.status.pod_ip, ip, "a new sandbox, a new IP");
    b.until(|t| matches!(t, KubeletTimer::Start(..)));
    assert!(b.pod(&uid).is_ready());
}

#[test]
fn a_partitioned_kubelet_starts_its_pod_on_its_own_and_at_the_heal_sends_the_lease_its_events_and_one_status(
) {
    let mut b = Bench::new();
    let uid = b.bind(web(vec![container("app", "nginx:1.27")]));
    b.k.partition(&b.store);
    // Cut off, the kubelet pulls and starts the container; nothing reaches the store.
    let rv = b.store.revision();
    while let Some(i) = (0..b.timers.len())
        .filter(|&i| b.timers[i].1.pod_uid().is_some())
        .min_by_key(|&i| (b.timers[i].0, i))
    {
        let (at, t) = b.timers.remove(i);
        b.now = b.now.max(at);
        let (requests, timers) = b.k.fire(&mut b.faults, &b.store, t, b.now);
        b.k.hold(requests, b.now);
        b.timers.extend(timers);
    }
    assert_eq!(b.store.revision(), rv, "nothing written while cut off");
    assert!(b.pod(&uid).status.container_statuses.is_empty());
    assert_eq!(b.k.running(&b.store).len(), 1, "but the container runs");
    let (requests, timers) = b.k.heal(&b.store, b.now);
    assert!(timers.is_empty(), "nothing new to start");
    assert!(
        matches!(&requests[0], Request::Update(Object::Lease(_))),
        "the Lease first: {:?}",
        requests[0]
    );
    let reasons: Vec<String> = events(&requests).into_iter().map(|e| e.1).collect();
    assert_eq!(reasons, ["Pulling", "Pulled", "Created", "Started"]);
    let pods = pod_writes(&requests);
    assert_eq!(pods.len(), 1, "one status: the latest");
    assert_eq!(pods[0].status.phase, "Running");
    assert!(pods[0].is_ready());
    assert_eq!(
        requests.len(),
        1 + 4 + 1,
        "no Node write: it was still Ready"
    );
}
