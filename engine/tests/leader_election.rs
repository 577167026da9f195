//! Leader election of kube-controller-manager and kube-scheduler (`sim leader`): the
//! Leases in kube-system, renewal every 2 s, the 15 s gap after the leader is killed,
//! the `LeaderElection` Event and the Lease's holder changing.

mod common;

use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::leader_election::{Elected, LEASE_DURATION, RETRY_PERIOD};
use kubeplay_engine::cluster::Cluster;

fn lease(c: &Cluster, name: &str) -> Lease {
    c.store
        .get::<Lease>(&ObjKey::new("kube-system", name))
        .expect("the Lease exists")
        .clone()
}

fn transitions(l: &Lease) -> i64 {
    l.spec.extra["leaseTransitions"].as_i64().unwrap()
}

fn leader_identity(c: &Cluster, e: Elected) -> Option<String> {
    c.elections().get(e).leader().map(|l| l.identity.clone())
}

fn election_messages(c: &Cluster, lease: &str) -> Vec<String> {
    c.events()
        .into_iter()
        .filter(|e| {
            e.involved_object.kind == "Lease"
                && e.involved_object.name == lease
                && e.reason == "LeaderElection"
        })
        .map(|e| e.message.clone())
        .collect()
}

fn ready_pods(c: &Cluster) -> usize {
    c.store
        .list::<Pod>()
        .filter(|p| p.metadata.namespace == "default" && p.is_ready())
        .count()
}

#[test]
fn a_new_cluster_has_both_leases_held_with_their_leader_election_events() {
    let c = Cluster::with_default_nodes(1);
    for e in Elected::ALL {
        let l = lease(&c, e.name());
        let id = leader_identity(&c, e).expect("a leader from the start");
        assert!(id.starts_with("control-plane-1_"), "{id}");
        assert_eq!(l.spec.holder_identity, id);
        assert_eq!(l.spec.lease_duration_seconds, 15);
        assert_eq!(transitions(&l), 0);
        assert_eq!(
            election_messages(&c, e.name()),
            [format!("{id} became leader")]
        );
    }
    let sched = c
        .events()
        .into_iter()
        .find(|e| e.involved_object.name == "kube-scheduler")
        .unwrap()
        .source
        .component
        .clone();
    assert_eq!(
        sched, "default-scheduler",
        "the scheduler records as its profile"
    );
}

#[test]
fn the_leader_renews_every_retry_period_without_a_transition() {
    let mut c = Cluster::with_default_nodes(1);
    c.advance(31_000);
    let l = lease(&c, "kube-controller-manager");
    assert_eq!(l.spec.renew_ms, 30_000, "renewed every {RETRY_PERIOD} ms");
    assert_eq!(
        l.spec.renew_time.as_deref(),
        Some("2025-01-01T00:00:30.000000Z")
    );
    assert_eq!(
        l.spec.extra["acquireTime"].as_str(),
        Some("2025-01-01T00:00:00.000000Z"),
        "acquireTime stays while the holder does"
    );
    assert_eq!(transitions(&l), 0);
    assert!(c.is_quiescent(), "renewals are background work");
}

#[test]
fn killing_the_controller_manager_leader_idles_every_controller_until_a_standby_acquires() {
    let mut c = web_cluster(3);
    sh(&mut c, "sim leader replicas 3");
    c.advance(10_000);
    let before = leader_identity(&c, Elected::ControllerManager).unwrap();
    let killed_at = c.now();
    let out = sh(&mut c, "sim leader kill kube-controller-manager");
    assert!(out.contains(&before), "{out}");
    sh(&mut c, "kubectl scale deployment web --replicas=5");
    // For the lease duration nobody reconciles: the Deployment's new replicas wait.
    c.advance(LEASE_DURATION - 1_000);
    assert_eq!(leader_identity(&c, Elected::ControllerManager), None);
    assert_eq!(
        ready_pods(&c),
        3,
        "no ReplicaSet scaled while no leader ran"
    );
    let acquired = step_until(&mut c, 10_000, "a replica acquires", |c| {
        leader_identity(c, Elected::ControllerManager).is_some()
    });
    let gap = acquired - killed_at;
    assert!(
        // From the last renewal a standby saw (at most a retry period before the kill)
        // to its first retry past the lease duration.
        (LEASE_DURATION - RETRY_PERIOD..=LEASE_DURATION + RETRY_PERIOD * 11 / 5).contains(&gap),
        "gap {gap} ms"
    );
    let after = leader_identity(&c, Elected::ControllerManager).unwrap();
    assert_ne!(after, before, "a new process holds it");
    let l = lease(&c, "kube-controller-manager");
    assert_eq!(l.spec.holder_identity, after);
    assert_eq!(transitions(&l), 1);
    assert_eq!(
        election_messages(&c, "kube-controller-manager")
            .last()
            .unwrap(),
        &format!("{after} became leader")
    );
    // The scheduler kept its leader throughout.
    assert_eq!(transitions(&lease(&c, "kube-scheduler")), 0);
    // What queued meanwhile runs now.
    assert!(c.settle(120_000));
    assert_eq!(ready_pods(&c), 5);
    assert_eq!(
        c.elections()
            .get(Elected::ControllerManager)
            .candidates
            .len(),
        3,
        "the killed replica came back as a standby"
    );
}

#[test]
fn killing_the_scheduler_leader_leaves_new_pods_pending_for_the_gap() {
    let mut c = web_cluster(4);
    sh(&mut c, "sim leader kill kube-scheduler");
    sh(&mut c, "kubectl scale deployment web --replicas=4");
    c.advance(8_000);
    let unbound = c
        .store
        .list::<Pod>()
        .filter(|p| p.metadata.namespace == "default" && p.spec.node_name.is_empty())
        .count();
    assert_eq!(unbound, 1, "the ReplicaSet created it; nobody binds it");
    assert!(c.settle(120_000));
    assert_eq!(ready_pods(&c), 4);
    // One replica: the same host, restarted with a new identity, took its Lease back.
    let l = lease(&c, "kube-scheduler");
    assert!(l.spec.holder_identity.starts_with("control-plane-1_"));
    assert_eq!(transitions(&l), 1);
    // The restarted process first saw the Lease at the kill: a full lease duration.
    let gap = c.elections().get(Elected::Scheduler).last_gap.unwrap();
    assert!(gap >= LEASE_DURATION, "gap {gap} ms");
}

#[test]
fn a_leader_whose_lease_another_took_stops_leading_and_restarts_as_a_standby() {
    let mut c = Cluster::with_default_nodes(5);
    c.advance(5_000);
    let mine = leader_identity(&c, Elected::Scheduler).unwrap();
    let mut l = lease(&c, "kube-scheduler");
    l.spec.holder_identity = "intruder_1".into();
    let yaml = Object::Lease(l).to_json().to_string();
    let o = kubeplay_engine::command::run(
        &mut c,
        "kubectl replace -f -",
        Some(&yaml),
        &kubeplay_engine::command::NoFiles,
    );
    assert!(o.ok, "{}", o.output);
    // It cannot renew a Lease held by another; past the renew deadline it gives up.
    step_until(&mut c, 15_000, "the leader gives up", |c| {
        leader_identity(c, Elected::Scheduler).is_none()
    });
    assert!(c.settle(60_000));
    let now = leader_identity(&c, Elected::Scheduler).unwrap();
    assert_ne!(now, mine, "a restarted process, a new identity");
    assert_eq!(lease(&c, "kube-scheduler").spec.holder_identity, now);
}

#[test]
fn an_api_server_outage_past_the_renew_deadline_hands_the_lease_to_a_restarted_replica() {
    let mut c = web_cluster(6);
    sh(&mut c, "sim leader replicas 3");
    c.advance(5_000);
    let kcm = leader_identity(&c, Elected::ControllerManager);
    sh(&mut c, "sim apiserver down");
    c.advance(60_000);
    assert_eq!(leader_identity(&c, Elected::ControllerManager), None);
    sh(&mut c, "sim apiserver up");
    c.advance(10_000);
    assert_eq!(
        leader_identity(&c, Elected::ControllerManager),
        None,
        "every replica waits a lease duration from its first read after the outage"
    );
    c.advance(15_000);
    let now = leader_identity(&c, Elected::ControllerManager).expect("a new leader");
    assert_ne!(Some(now.clone()), kcm);
    let l = lease(&c, "kube-controller-manager");
    assert_eq!(l.spec.holder_identity, now);
    assert_eq!(transitions(&l), 1);
}

#[test]
fn leader_commands_refuse_what_they_cannot_do() {
    let mut c = Cluster::with_default_nodes(1);
    for (cmd, want) in [
        ("sim leader kill etcd", "unknown component \"etcd\""),
        ("sim leader replicas 0", "replicas must be between 1 and 5"),
        ("sim leader replicas x", "replicas must be a number"),
        ("sim leader", "usage: sim leader"),
    ] {
        let o =
            kubeplay_engine::command::run(&mut c, cmd, None, &kubeplay_engine::command::NoFiles);
        assert!(!o.ok && o.output.contains(want), "{cmd}: {}", o.output);
    }
    sh(&mut c, "sim leader kill kube-scheduler");
    let o = kubeplay_engine::command::run(
        &mut c,
        "sim leader kill kube-scheduler",
        None,
        &kubeplay_engine::command::NoFiles,
    );
    assert!(
        !o.ok && o.output.contains("has no leader now"),
        "{}",
        o.output
    );
}

#[test]
fn with_three_api_servers_losing_the_leaders_own_fails_it_over_and_kubectl_never_notices() {
    let mut c = web_cluster(9);
    sh(&mut c, "sim leader replicas 3");
    sh(&mut c, "sim apiserver replicas 3");
    c.advance(5_000);
    let host = c
        .elections()
        .get(Elected::ControllerManager)
        .leader()
        .expect("a leader")
        .host
        .clone();
    let out = sh(&mut c, &format!("sim apiserver down kube-apiserver-{host}"));
    assert!(out.contains("2 of 3 API servers up"), "{out}");
    // kubectl goes through the load balancer: the scale is stored at once…
    sh(&mut c, "kubectl scale deployment web --replicas=5");
    assert_eq!(web(&c).spec.replicas, 5);
    // …and acted on only once another host's replica leads (renew deadline, then the
    // Lease's expiry as the standbys saw it).
    c.advance(9_000);
    assert_eq!(
        c.store
            .list::<Pod>()
            .filter(|p| p.metadata.namespace == "default")
            .count(),
        3
    );
    step_until(&mut c, 30_000, "another host leads", |c| {
        c.elections()
            .get(Elected::ControllerManager)
            .leader()
            .is_some_and(|l| l.host != host)
    });
    c.advance(15_000);
    assert_eq!(ready_pods(&c), 5);
    assert!(election_messages(&c, "kube-controller-manager").len() >= 2);
    assert!(!c.apiserver_down());
    // All three down is the API server down.
    for i in 1..=3 {
        let name = format!("kube-apiserver-control-plane-{i}");
        if format!("kube-apiserver-{host}") != name {
            sh(&mut c, &format!("sim apiserver down {name}"));
        }
    }
    assert!(c.apiserver_down());
    let status = sh(&mut c, "sim apiserver status");
    assert!(status.contains("(0 of 3 replicas)"), "{status}");
    sh(&mut c, "sim apiserver up kube-apiserver-control-plane-2");
    assert!(!c.apiserver_down());
    assert_eq!(c.apiservers().up(), 1);
}
