//! Traffic through an Ingress: the cluster's ingress controller (ingress-nginx's
//! behaviour) serves the Ingresses of its IngressClass, publishes their address, and
//! routes each request by host and path to a Service, as the rules say at that moment.

mod common;

use common::*;
use kubeplay_engine::api::*;
use kubeplay_engine::apiserver::ObjKey;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{run, NoFiles};

/// `web` and `api` (two Pods each, behind Services of those names), the `nginx` class
/// and Ingress `site`: shop.example.com's `/` to web, `/api` to api.
fn cluster() -> Cluster {
    let mut c = Cluster::with_default_nodes(5);
    for app in ["web", "api"] {
        sh(
            &mut c,
            &format!("kubectl create deployment {app} --image=nginx:1.27 --replicas=2 --port=80"),
        );
        sh(
            &mut c,
            &format!("kubectl expose deployment {app} --port=80"),
        );
    }
    apply(
        &mut c,
        "apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata: {name: nginx}
spec: {controller: k8s.io/ingress-nginx}
",
    );
    sh(
        &mut c,
        "kubectl create ingress site --class=nginx --rule=shop.example.com/*=web:80 --rule=shop.example.com/api*=api:80",
    );
    assert!(c.settle(300_000));
    c
}

/// Answered and total requests of the flow through `ingress/site`, and which
/// Services' Pods were hit lately.
fn met(c: &Cluster) -> (u64, u64, Vec<String>) {
    let (mut ok, mut total) = (0, 0);
    for b in c
        .proxies
        .series
        .get(&ObjKey::new("default", "ingress/site"))
        .into_iter()
        .flat_map(|s| s.values())
    {
        ok += b.outcomes[0];
        total += b.total();
    }
    let mut services: Vec<String> = c.proxies.hits.keys().map(|(k, _)| k.name.clone()).collect();
    services.dedup();
    (ok, total, services)
}

#[test]
fn the_controller_publishes_the_address_and_announces_the_sync() {
    let mut c = cluster();
    let ing = c
        .store
        .get::<Ingress>(&ObjKey::new("default", "site"))
        .unwrap();
    let ip = ing.status.load_balancer.ingress[0].ip.clone();
    let node1 = c.store.node_at(0).unwrap();
    assert_eq!(ip, node1.status.addresses[0].address);
    let out = sh(&mut c, "kubectl get ingress site");
    assert!(out.contains(ip.as_str()) && out.contains("nginx"), "{out}");
    let out = sh(&mut c, "kubectl describe ingress site");
    assert!(
        out.contains("Normal  Sync")
            && out.contains("nginx-ingress-controller  Scheduled for sync"),
        "{out}"
    );
}

#[test]
fn requests_go_to_the_service_their_host_and_path_match_as_the_rules_are_now() {
    let mut c = cluster();
    sh(
        &mut c,
        "sim traffic ingress/site --rps 10 --for 10s --path /api/orders",
    );
    c.advance(5_000);
    let (ok, total, services) = met(&c);
    assert!(
        total > 40 && ok == total,
        "{ok}/{total} {}",
        sh(&mut c, "sim traffic --report")
    );
    assert_eq!(services, ["api"]);
    // The rule changed: /api now goes to web too.
    sh(
        &mut c,
        "kubectl patch ingress site --type=json -p '[{\"op\":\"replace\",\"path\":\"/spec/rules/0/http/paths/1/backend/service/name\",\"value\":\"web\"}]'",
    );
    c.advance(6_000);
    let (ok, total, _) = met(&c);
    assert!(ok == total, "{ok}/{total}");
    assert!(c.proxies.hits.keys().any(|(k, _)| k.name == "web"));
}

#[test]
fn an_ingress_of_a_class_no_controller_serves_gets_no_address_and_no_traffic() {
    let mut c = cluster();
    sh(
        &mut c,
        "kubectl create ingress other --class=traefik --rule=/=web:80",
    );
    assert!(c.settle(60_000));
    let ing = c
        .store
        .get::<Ingress>(&ObjKey::new("default", "other"))
        .unwrap();
    assert!(ing.status.load_balancer.ingress.is_empty());
    let o = run(&mut c, "sim traffic ingress/other --rps 1", None, &NoFiles);
    assert!(!o.ok);
    assert!(
        o.output
            .contains("its class \"traefik\" is not an IngressClass of k8s.io/ingress-nginx"),
        "{}",
        o.output
    );
    let o = run(&mut c, "sim traffic ingress/nope --rps 1", None, &NoFiles);
    assert_eq!(
        o.output.trim_end(),
        "Error from server (NotFound): ingresses.networking.k8s.io \"nope\" not found"
    );
}

#[test]
fn a_path_no_rule_matches_without_a_default_backend_is_an_error_for_every_request() {
    let mut c = cluster();
    sh(
        &mut c,
        "sim traffic ingress/site --rps 10 --for 5s --host blog.example.com",
    );
    c.advance(6_000);
    let (ok, total, _) = met(&c);
    assert!(total > 40 && ok == 0, "{ok}/{total}");
}
