//! Devices on long-lived connections (`proxy::devices`) and the message contract
//! (`app::contract`): the course's gateway with B's devices. Connections stay with
//! their Pod and do not rebalance; a Pod that stops closes them and the devices come
//! back within the back-off; a node that goes off leaves them half open until a ping
//! goes unanswered; delivery, acknowledgement and read are separate evidence; a
//! device catches up from what the Pod it reaches holds.

mod common;

use common::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};
use kubeplay_engine::proxy::devices::{PING_INTERVAL, PONG_TIMEOUT};
use kubeplay_engine::time::SECOND;
use serde_json::Value;

fn gateway(seed: u64, nodes: usize, devices: u32) -> Cluster {
    let mut c = Cluster::new(seed);
    sh(&mut c, &format!("sim reset --nodes {nodes}"));
    sh(
        &mut c,
        "kubectl create deployment gateway --image=nginx --replicas=3",
    );
    sh(&mut c, "kubectl expose deployment gateway --port=80");
    sh(&mut c, "sim settle");
    sh(&mut c, &format!("sim devices {devices} service/gateway"));
    sh(&mut c, "sim advance 10s");
    c
}

fn summary(c: &Cluster) -> Value {
    c.proxies
        .devices_summary(&ObjKey::new("default", "gateway"))
        .expect("devices")
}

fn n(v: &Value, field: &str) -> u64 {
    v[field]
        .as_u64()
        .unwrap_or_else(|| panic!("{field} in {v}"))
}

/// The Pod (name) device-1 is connected to.
fn pod_of_device_1(c: &Cluster) -> String {
    let r = c
        .proxies
        .devices_report(Some(&ObjKey::new("default", "gateway")), Some(0));
    let first = r.lines().next().unwrap();
    first
        .split("connected to ")
        .nth(1)
        .and_then(|s| s.split(' ').next())
        .unwrap_or_else(|| panic!("device-1 connected: {r}"))
        .to_string()
}

#[test]
fn every_device_holds_one_connection_and_a_later_pod_gets_none() {
    let mut c = gateway(1, 3, 300);
    let v = summary(&c);
    assert_eq!(n(&v, "connected"), 300);
    let per_pod: Vec<u64> = v["pods"]
        .as_object()
        .unwrap()
        .values()
        .map(|x| x.as_u64().unwrap())
        .collect();
    assert_eq!(per_pod.len(), 3);
    assert_eq!(per_pod.iter().sum::<u64>(), 300);
    assert!(
        per_pod.iter().all(|x| *x > 60),
        "spread at random: {per_pod:?}"
    );
    sh(&mut c, "kubectl scale deployment gateway --replicas=4");
    sh(&mut c, "sim advance 2m");
    assert_eq!(
        sh(&mut c, "sim expect devices/gateway {.idlePods} == 1").trim_end(),
        "ok: devices/gateway {.idlePods} == 1"
    );
    assert_eq!(
        n(&summary(&c), "reconnects"),
        0,
        "nothing moves a connection"
    );
}

#[test]
fn the_contract_answers_size_membership_and_duplicates_in_order() {
    let mut c = gateway(2, 3, 10);
    let send = |c: &mut Cluster, args: &str| {
        let out = sh(c, &format!("sim message service/gateway {args}"));
        out.lines().skip(1).collect::<Vec<_>>().join("\n")
    };
    assert_eq!(
        send(&mut c, "--id m-1 --to device-1 --text 你好"),
        "HTTP/1.1 200 OK\n{\"id\":\"m-1\",\"status\":\"accepted_in_memory\"}"
    );
    assert_eq!(
        send(&mut c, "--id m-2 --to device-1 --text 你好啊"),
        "HTTP/1.1 400 Bad Request\n{\"error\":\"invalid_text\"}"
    );
    let big = "x".repeat(5000);
    assert_eq!(
        send(&mut c, &format!("--id m-3 --to device-1 --text {big}")),
        "HTTP/1.1 413 Payload Too Large\n{\"error\":\"request_too_large\"}"
    );
    let stranger = send(&mut c, "--id m-4 --to device-1 --text hi --as c");
    let missing = send(&mut c, "--id m-4 --to device-99 --text hi");
    assert_eq!(
        stranger,
        "HTTP/1.1 404 Not Found\n{\"error\":\"not_found\"}"
    );
    assert_eq!(
        stranger, missing,
        "a stranger learns nothing of who is there"
    );
    // The same id, until it lands on the Pod that holds it: 409 there, 200 elsewhere
    // (each Pod's memory knows only its own).
    let mut answers = Vec::new();
    for _ in 0..12 {
        answers.push(send(&mut c, "--id m-1 --to device-1 --text 你好"));
    }
    assert!(answers
        .iter()
        .any(|a| a.starts_with("HTTP/1.1 409 Conflict")));
    assert!(answers.iter().any(|a| a.starts_with("HTTP/1.1 200 OK")));
    sh(&mut c, "sim advance 1s");
    let v = summary(&c);
    assert_eq!(n(&v, "messages"), 1, "one message, however often accepted");
    assert!(
        n(&v, "duplicatesDropped") >= 1,
        "the device drops copies by id: {v}"
    );
}

#[test]
fn delivered_acknowledged_and_read_are_three_moments() {
    let mut c = gateway(3, 3, 10);
    let t0 = c.now();
    sh(
        &mut c,
        "sim message service/gateway --id m-9 --to device-1 --text hi",
    );
    sh(&mut c, "sim advance 2m");
    let ds = &c.proxies.devices[&ObjKey::new("default", "gateway")];
    let (_, _, _, evidence) = ds.device(0).unwrap();
    let e = &evidence[0];
    let (delivered, backfill) = e.delivered.unwrap();
    assert!(!backfill);
    assert!(delivered - t0 < 200, "pushed as it was accepted");
    let acked = e.acked.unwrap();
    assert!(
        acked > delivered && acked - delivered <= 300,
        "{delivered} {acked}"
    );
    let read = e.read.unwrap();
    assert!(
        (5 * SECOND..=60 * SECOND).contains(&(read - delivered)),
        "{read}"
    );
}

#[test]
fn a_deleted_pod_closes_its_connections_and_they_come_back_within_the_back_off() {
    let mut c = gateway(4, 3, 300);
    let victim = pod_of_device_1(&c);
    let held = summary(&c)["pods"][&victim].as_u64().unwrap();
    sh(&mut c, &format!("kubectl delete pod {victim} --wait=false"));
    sh(&mut c, "sim advance 2s");
    let v = summary(&c);
    assert_eq!(
        n(&v, "closed"),
        held,
        "the stopping Pod closed every connection"
    );
    sh(&mut c, "sim advance 1m");
    let v = summary(&c);
    assert_eq!(n(&v, "connected"), 300);
    assert_eq!(n(&v, "reconnects"), held);
    assert_eq!(n(&v, "timedOut"), 0, "nobody waited for a ping");
    assert!(v["pods"].get(&victim).is_none());
    assert_ne!(
        pod_of_device_1(&c),
        victim,
        "a new connection, not a moved one"
    );
}

#[test]
fn a_node_powered_off_is_noticed_at_a_ping_and_costs_connect_timeouts() {
    let mut c = gateway(5, 4, 300);
    let victim = pod_of_device_1(&c);
    let node = c
        .store
        .get::<kubeplay_engine::api::Pod>(&ObjKey::new("default", &victim))
        .unwrap()
        .spec
        .node_name
        .clone();
    let held = summary(&c)["pods"][&victim].as_u64().unwrap();
    sh(&mut c, &format!("sim node down {node}"));
    let off = c.now();
    // Nobody notices before a ping goes unanswered.
    sh(&mut c, "sim advance 9s");
    assert_eq!(n(&summary(&c), "timedOut"), 0);
    assert_eq!(n(&summary(&c), "connected"), 300, "half open");
    // Every device has pinged within PING_INTERVAL and waited PONG_TIMEOUT.
    let all = PING_INTERVAL + PONG_TIMEOUT + SECOND;
    let left = off + all - c.now();
    sh(&mut c, &format!("sim advance {left}ms"));
    assert_eq!(n(&summary(&c), "timedOut"), held);
    sh(&mut c, "sim advance 3m");
    let v = summary(&c);
    assert_eq!(n(&v, "connected"), 300);
    assert!(
        n(&v, "failedAttempts") > 0,
        "the dead Pod stays in the rules until its node is NotReady: {v}"
    );
}

#[test]
fn with_memory_a_message_for_an_offline_device_dies_with_its_pod_and_with_a_database_it_is_backfilled(
) {
    for (store, missing) in [("memory", true), ("database", false)] {
        let mut c = Cluster::new(6);
        sh(&mut c, "sim reset --nodes 3");
        sh(
            &mut c,
            "kubectl create deployment gateway --image=nginx --replicas=3",
        );
        sh(&mut c, "kubectl expose deployment gateway --port=80");
        sh(&mut c, "kubectl create deployment db --image=postgres");
        sh(&mut c, "kubectl expose deployment db --port=5432");
        sh(&mut c, "sim settle");
        if store == "database" {
            sh(&mut c, "sim app service/gateway --store service/db");
        }
        sh(&mut c, "sim devices 1 service/gateway");
        sh(&mut c, "sim advance 10s");
        // device-1's Pod goes silent with its node; while the device has not noticed,
        // messages are accepted for it by the other Pods and pushed nowhere.
        let first = pod_of_device_1(&c);
        let node = c
            .store
            .get::<kubeplay_engine::api::Pod>(&ObjKey::new("default", &first))
            .unwrap()
            .spec
            .node_name
            .clone();
        sh(&mut c, &format!("sim node down {node}"));
        sh(&mut c, "sim advance 1s");
        let mut taken_by = Vec::new();
        for i in 0..6 {
            let line = format!("sim message service/gateway --id m-{i} --to device-1 --text hi");
            // One that reaches the silent Pod times out: the sender would try again.
            let o = run(&mut c, &line, None, &NoFiles);
            if !o.ok {
                continue;
            }
            let out = o.output;
            let pod = out.split(" → ").nth(1).unwrap().split(' ').next().unwrap();
            taken_by.push(pod.to_string());
        }
        // The Pods that took them go too (all but the one device-1 is back on).
        sh(&mut c, "sim advance 1m");
        let now_on = pod_of_device_1(&c);
        for p in taken_by.iter().filter(|p| **p != now_on && **p != first) {
            sh(&mut c, &format!("kubectl delete pod {p} --wait=false"));
        }
        sh(&mut c, "sim advance 2m");
        let v = summary(&c);
        if missing {
            assert!(n(&v, "missing") > 0, "{store}: {v}");
        } else {
            assert_eq!(n(&v, "missing"), 0, "{store}: {v}");
            assert_eq!(n(&v, "pending"), 0, "{store}: every one acknowledged: {v}");
        }
    }
}

#[test]
fn the_same_seed_gives_the_same_devices_byte_for_byte() {
    let run = || {
        let mut c = gateway(9, 4, 500);
        sh(&mut c, "sim traffic service/gateway --rps 20 --for 2m");
        sh(&mut c, "sim node down node-2");
        sh(&mut c, "sim advance 2m");
        sh(&mut c, "sim devices --report")
    };
    assert_eq!(run(), run());
}
