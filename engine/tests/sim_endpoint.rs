//! The `sim` verbs through the server's endpoint (`POST /kubeplay/v1/sim`): run on the
//! server's cluster, in one piece or in slices, with the console's words as the answer.

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::rest::{token_for, ApiServer, HttpRequest, Reply, ADMIN_USER, SIM_PATH};
use kubeplay_engine::sim_endpoint::{self, Served};

fn server() -> ApiServer {
    ApiServer::new(Cluster::with_default_nodes(1))
}

fn get(target: &str) -> HttpRequest {
    let auth = format!("Bearer {}", token_for(ADMIN_USER));
    HttpRequest::get(
        target,
        vec![
            ("accept".into(), "application/json".into()),
            ("authorization".into(), auth),
        ],
    )
}

fn post(target: &str, body: &str) -> HttpRequest {
    let mut r = get(target);
    r.method = "POST".into();
    r.headers
        .push(("content-type".into(), "application/json".into()));
    r.body = body.as_bytes().to_vec();
    r
}

/// Status and body of a whole answer.
fn answered(reply: Reply) -> (u16, String) {
    match reply {
        Reply::Response(r) => (r.status, String::from_utf8_lossy(&r.body).into_owned()),
        other => panic!("not a response: {other:?}"),
    }
}

fn create_web(s: &mut ApiServer) {
    let d = r#"{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},
 "spec":{"replicas":2,"selector":{"matchLabels":{"app":"web"}},
 "template":{"metadata":{"labels":{"app":"web"}},"spec":{"containers":[{"name":"web","image":"nginx:1.27"}]}}}}"#;
    let (code, body) = answered(sim_endpoint::answer(
        s,
        &post("/apis/apps/v1/namespaces/default/deployments", d),
    ));
    assert_eq!(code, 201, "{body}");
}

#[test]
fn sim_verbs_move_the_clock_through_the_server_and_a_bad_one_is_a_400() {
    let mut s = server();
    let advance = post(SIM_PATH, r#"{"command":"advance 30s"}"#);
    let (code, out) = answered(sim_endpoint::answer(&mut s, &advance));
    assert_eq!(code, 200, "{out}");
    assert_eq!(s.cluster.now(), 30_000);
    let bad = post(SIM_PATH, r#"{"command":"advance soon"}"#);
    assert_eq!(answered(sim_endpoint::answer(&mut s, &bad)).0, 400);
    // A GET is no `sim` command.
    assert_eq!(
        answered(sim_endpoint::answer(&mut s, &get(SIM_PATH))).0,
        404
    );
}

#[test]
fn a_sim_advance_run_in_slices_ends_where_one_run_in_one_piece_ends_and_prints_the_same() {
    let advance = || post(SIM_PATH, r#"{"command":"advance 1h"}"#);
    let mut whole = server();
    create_web(&mut whole);
    let (code, printed) = answered(sim_endpoint::answer(&mut whole, &advance()));
    assert_eq!(code, 200);
    let mut sliced = server();
    create_web(&mut sliced);
    let mut served = sim_endpoint::handle(&mut sliced, &advance(), None);
    let mut slices = 0;
    let reply = loop {
        match served {
            Served::Reply(r) => break r,
            Served::Running(run) => {
                slices += 1;
                // Between two slices another client is answered.
                let health = sim_endpoint::answer(&mut sliced, &get("/healthz"));
                assert_eq!(answered(health).0, 200);
                let mut budget = 50;
                served = sim_endpoint::sim_continue(&mut sliced, run, &mut || {
                    budget -= 1;
                    budget == 0
                });
            }
        }
    };
    assert!(slices > 10, "{slices} slices");
    assert_eq!(answered(reply), (200, printed));
    assert_eq!(sliced.cluster.now(), whole.cluster.now());
    assert_eq!(sliced.revision(), whole.revision());
}

#[test]
fn readyz_says_what_a_real_api_server_says_in_health_without_etcd_and_when_stopped() {
    let mut s = server();
    let ask = |s: &mut ApiServer, r: HttpRequest| answered(sim_endpoint::answer(s, &r));
    assert_eq!(ask(&mut s, get("/readyz")), (200, "ok".to_string()));
    let (code, body) = ask(&mut s, get("/readyz?verbose"));
    assert_eq!(code, 200);
    assert!(
        body.ends_with("[+]shutdown ok\nreadyz check passed\n"),
        "{body}"
    );
    // etcd without its quorum: the API server answers, its readiness says why not.
    let sim = |words: &str| post(SIM_PATH, &format!("{{\"command\":\"{words}\"}}"));
    assert_eq!(ask(&mut s, sim("etcd down etcd-1")).0, 200);
    let (code, body) = ask(&mut s, get("/readyz"));
    assert_eq!(code, 500);
    assert!(body.contains("[-]etcd failed: reason withheld\n"), "{body}");
    assert!(body.ends_with("readyz check failed\n"), "{body}");
    assert_eq!(ask(&mut s, sim("etcd up etcd-1")).0, 200);
    // Stopped: nothing answers, not even "ok".
    assert_eq!(ask(&mut s, sim("apiserver down")).0, 200);
    for path in ["/readyz", "/livez", "/healthz", "/api/v1/pods"] {
        assert!(
            matches!(sim_endpoint::answer(&mut s, &get(path)), Reply::NoAnswer),
            "{path}"
        );
    }
    s.cluster.start_apiserver().unwrap();
    assert_eq!(ask(&mut s, get("/readyz")).0, 200);
}
