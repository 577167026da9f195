//! NetworkPolicies enforced on the traffic as a network plugin enforces them: a Pod
//! no policy selects accepts everything; once one isolates it, only what some rule
//! allows gets through, and the rest is dropped (the client times out).

mod common;

use common::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::proxy::Outcome;

/// Outcomes of Service `svc`'s traffic so far: (answered, timed out, total).
fn outcomes(c: &Cluster, svc: &str) -> (u64, u64, u64) {
    let (mut ok, mut timeout, mut total) = (0, 0, 0);
    for b in c
        .proxies
        .series
        .get(&ObjKey::new("default", svc))
        .into_iter()
        .flat_map(|s| s.values())
    {
        ok += b.outcomes[0];
        timeout += b.outcomes[Outcome::ALL
            .iter()
            .position(|o| *o == Outcome::Timeout)
            .unwrap()];
        total += b.total();
    }
    (ok, timeout, total)
}

/// A database (`app=db`, port 5432, behind Service `db`), a `web` Pod and an `other`
/// Pod, settled.
fn cluster() -> Cluster {
    let mut c = Cluster::with_default_nodes(11);
    apply(
        &mut c,
        "apiVersion: apps/v1
kind: Deployment
metadata: {name: db}
spec:
  replicas: 2
  selector: {matchLabels: {app: db}}
  template:
    metadata: {labels: {app: db}}
    spec:
      containers: [{name: pg, image: 'postgres:16', ports: [{containerPort: 5432, name: pg}]}]
---
apiVersion: v1
kind: Service
metadata: {name: db}
spec:
  selector: {app: db}
  ports: [{port: 5432, targetPort: 5432}]
---
apiVersion: v1
kind: Pod
metadata: {name: web, labels: {app: web}}
spec:
  containers: [{name: c, image: 'nginx:1.27'}]
---
apiVersion: v1
kind: Pod
metadata: {name: other, labels: {app: other}}
spec:
  containers: [{name: c, image: 'nginx:1.27'}]
",
    );
    assert!(c.settle(300_000));
    c
}

/// Send 10 requests a second to `db` from `from` for 10 s; what they met.
fn send(c: &mut Cluster, from: &str) -> (u64, u64, u64) {
    let before = outcomes(c, "db");
    sh(
        c,
        &format!("sim traffic service/db --rps 10 --for 10s --from {from}"),
    );
    c.advance(12_000);
    let after = outcomes(c, "db");
    (after.0 - before.0, after.1 - before.1, after.2 - before.2)
}

#[test]
fn without_a_policy_every_pod_reaches_the_database() {
    let mut c = cluster();
    let (ok, _, total) = send(&mut c, "pod/other");
    assert!(total > 90 && ok == total, "{ok}/{total}");
}

#[test]
fn a_policy_that_isolates_the_database_drops_all_but_the_traffic_it_allows() {
    let mut c = cluster();
    apply(
        &mut c,
        "apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: db-from-web}
spec:
  podSelector: {matchLabels: {app: db}}
  ingress:
  - from: [{podSelector: {matchLabels: {app: web}}}]
    ports: [{port: pg}]
",
    );
    let (ok, _, total) = send(&mut c, "pod/web");
    assert!(total > 90 && ok == total, "web: {ok}/{total}");
    let (ok, timeout, total) = send(&mut c, "pod/other");
    assert!(
        total > 90 && ok == 0 && timeout == total,
        "other: {ok}/{total}"
    );
    // A client on a node's host network is matched by its node IP: no rule names it.
    let db_nodes: Vec<String> = c
        .store
        .list::<kubeplay_engine::api::Pod>()
        .filter(|p| p.metadata.labels.get("app").is_some_and(|a| a == "db"))
        .map(|p| p.spec.node_name.clone())
        .collect();
    let elsewhere = (1..=9)
        .map(|i| format!("node-{i}"))
        .find(|n| c.kubelets.contains_key(n) && !db_nodes.contains(n))
        .expect("a node without a database Pod");
    let (ok, _, total) = send(&mut c, &elsewhere);
    assert!(total > 90 && ok == 0, "host on {elsewhere}: {ok}/{total}");
    // The policy gone, the Pods are no longer isolated.
    sh(&mut c, "kubectl delete networkpolicy db-from-web");
    let (ok, _, total) = send(&mut c, "pod/other");
    assert!(total > 90 && ok == total, "after delete: {ok}/{total}");
}

#[test]
fn a_rule_on_another_port_or_an_egress_policy_on_the_sender_also_drops() {
    let mut c = cluster();
    apply(
        &mut c,
        "apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: db-web-8080}
spec:
  podSelector: {matchLabels: {app: db}}
  ingress:
  - from: [{podSelector: {matchLabels: {app: web}}}]
    ports: [{port: 8080, endPort: 9000}]
",
    );
    let (ok, _, total) = send(&mut c, "pod/web");
    assert!(total > 90 && ok == 0, "wrong port: {ok}/{total}");
    sh(&mut c, "kubectl delete networkpolicy db-web-8080");
    // Egress: `web` may only talk to Pods labelled app=cache.
    apply(
        &mut c,
        "apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: web-out}
spec:
  podSelector: {matchLabels: {app: web}}
  policyTypes: [Egress]
  egress:
  - to: [{podSelector: {matchLabels: {app: cache}}}]
",
    );
    let (ok, _, total) = send(&mut c, "pod/web");
    assert!(total > 90 && ok == 0, "egress: {ok}/{total}");
    let (ok, _, total) = send(&mut c, "pod/other");
    assert!(
        total > 90 && ok == total,
        "other is not isolated: {ok}/{total}"
    );
}

#[test]
fn traffic_from_a_missing_pod_is_refused_with_kubectls_words() {
    let mut c = cluster();
    let o = kubeplay_engine::command::run(
        &mut c,
        "sim traffic service/db --rps 1 --from pod/nope",
        None,
        &kubeplay_engine::command::NoFiles,
    );
    assert!(!o.ok);
    assert_eq!(
        o.output.trim_end(),
        "Error from server (NotFound): pods \"nope\" not found"
    );
}
