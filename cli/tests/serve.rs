//! `kubeplay-cli serve` over real connections: each of its limits and cross-site rules
//! gets one request that crosses it; a watch that ends by `timeoutSeconds` leaves its
//! connection serving the next request; a read is answered while `sim advance 6h`
//! runs. Each test starts a server of its own in this process, on a free port, and
//! talks TLS to it with the CA it made.

use kubeplay_cli::serve::{self, Options, Started};
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::rest::token_for;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::sync::Arc;

type Tls = rustls::StreamOwned<rustls::ClientConnection, TcpStream>;

fn start(options: Options) -> Started {
    let kubeconfig = std::env::temp_dir().join(format!(
        "kubeplay-serve-test-{}-{}",
        std::process::id(),
        std::thread::current()
            .name()
            .unwrap_or("t")
            .replace("::", "-")
    ));
    let options = Options {
        port: 0,
        kubeconfig: kubeconfig.to_str().unwrap().to_string(),
        ..options
    };
    serve::start(options, Cluster::with_default_nodes(1)).expect("the server starts")
}

fn connect(s: &Started) -> BufReader<Tls> {
    let config = kubeplay_cli::tls::client_config(s.ca_pem.as_bytes()).unwrap();
    let name = rustls::pki_types::ServerName::try_from("127.0.0.1").unwrap();
    let conn = rustls::ClientConnection::new(Arc::clone(&config), name).unwrap();
    let tcp = TcpStream::connect(("127.0.0.1", s.port)).unwrap();
    BufReader::new(rustls::StreamOwned::new(conn, tcp))
}

fn admin() -> String {
    format!(
        "Authorization: Bearer {}\r\n",
        token_for("kubernetes-admin")
    )
}

/// A request's head: the method and target, the Host of the server, and `extra` lines.
fn head(s: &Started, method: &str, target: &str, extra: &str) -> String {
    format!(
        "{method} {target} HTTP/1.1\r\nHost: 127.0.0.1:{}\r\n{extra}\r\n",
        s.port
    )
}

/// One answer read off a kept-alive connection: status, headers (lower-case names)
/// and body (by its length, or its chunks to the last).
fn read_answer(r: &mut BufReader<Tls>) -> (u16, Vec<(String, String)>, String) {
    let mut line = String::new();
    r.read_line(&mut line).expect("a status line");
    let status = line
        .split_whitespace()
        .nth(1)
        .unwrap_or("0")
        .parse()
        .unwrap();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        r.read_line(&mut h).unwrap();
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        let (k, v) = h.split_once(':').unwrap();
        headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
    }
    let get = |n: &str| headers.iter().find(|(k, _)| k == n).map(|(_, v)| v.clone());
    let mut body = Vec::new();
    if get("transfer-encoding").as_deref() == Some("chunked") {
        loop {
            let mut size = String::new();
            r.read_line(&mut size).unwrap();
            let n = usize::from_str_radix(size.trim(), 16).unwrap();
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk).unwrap();
            if n == 0 {
                break;
            }
            body.extend_from_slice(&chunk[..n]);
        }
    } else {
        let n: usize = get("content-length").map_or(0, |n| n.parse().unwrap());
        body = vec![0; n];
        r.read_exact(&mut body).unwrap();
    }
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

fn send(r: &mut BufReader<Tls>, bytes: &[u8]) {
    r.get_mut().write_all(bytes).unwrap();
    r.get_mut().flush().unwrap();
}

/// One request on a connection of its own.
fn ask(s: &Started, request: &[u8]) -> (u16, Vec<(String, String)>, String) {
    let mut c = connect(s);
    send(&mut c, request);
    read_answer(&mut c)
}

#[test]
fn a_body_past_the_api_servers_3_mib_is_413_by_its_declared_length_and_by_its_chunks() {
    let s = start(Options::default());
    let path = "/api/v1/namespaces/default/configmaps";
    let big = 3 * 1024 * 1024 + 1;
    let declared = head(
        &s,
        "POST",
        path,
        &format!(
            "{}Content-Type: application/json\r\nContent-Length: {big}\r\n",
            admin()
        ),
    );
    let (code, _, body) = ask(&s, declared.as_bytes());
    assert_eq!(code, 413, "{body}");
    assert!(
        body.contains("Request entity too large: limit is 3145728"),
        "{body}"
    );
    let mut c = connect(&s);
    send(
        &mut c,
        head(
            &s,
            "POST",
            path,
            &format!(
                "{}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n",
                admin()
            ),
        )
        .as_bytes(),
    );
    // 3 MiB and one byte in chunks, the last byte past the limit. Nothing more is sent,
    // so the server has read all there is when it answers and closes.
    let mib = vec![b' '; 1 << 20];
    for _ in 0..3 {
        send(&mut c, format!("{:x}\r\n", mib.len()).as_bytes());
        send(&mut c, &mib);
        send(&mut c, b"\r\n");
    }
    send(&mut c, b"1\r\n \r\n");
    let (code, _, body) = read_answer(&mut c);
    assert_eq!(code, 413, "{body}");
}

#[test]
fn a_form_or_text_post_to_the_sim_endpoint_is_415_and_runs_nothing() {
    let s = start(Options::default());
    for ct in ["text/plain", "application/x-www-form-urlencoded"] {
        let body = "node down node-1";
        let req = head(
            &s,
            "POST",
            "/kubeplay/v1/sim",
            &format!(
                "{}Content-Type: {ct}\r\nContent-Length: {}\r\n",
                admin(),
                body.len()
            ),
        ) + body;
        let (code, _, answer) = ask(&s, req.as_bytes());
        assert_eq!(code, 415, "{ct}: {answer}");
    }
    let (code, _, node) = ask(
        &s,
        head(&s, "GET", "/api/v1/nodes/node-1", &admin()).as_bytes(),
    );
    assert_eq!(code, 200);
    assert!(
        node.contains("\"reason\":\"KubeletReady\",\"status\":\"True\""),
        "{node}"
    );
}

#[test]
fn basic_credentials_a_junk_bearer_and_no_credentials_are_each_401() {
    let s = start(Options::default());
    for auth in [
        "Authorization: Basic a3ViZXJuZXRlcy1hZG1pbjp4\r\n",
        "Authorization: bearer junk\r\n",
        "",
    ] {
        let (code, _, body) = ask(&s, head(&s, "GET", "/api/v1/pods", auth).as_bytes());
        assert_eq!(code, 401, "{auth:?}: {body}");
        assert!(body.contains("\"reason\":\"Unauthorized\""), "{body}");
    }
}

#[test]
fn a_host_that_is_not_the_servers_address_is_421() {
    let s = start(Options::default());
    let req = format!(
        "GET /healthz HTTP/1.1\r\nHost: rebound.example:{}\r\n{}\r\n",
        s.port,
        admin()
    );
    let (code, _, body) = ask(&s, req.as_bytes());
    assert_eq!(code, 421, "{body}");
    let localhost = format!(
        "GET /healthz HTTP/1.1\r\nHost: localhost:{}\r\n{}\r\n",
        s.port,
        admin()
    );
    assert_eq!(ask(&s, localhost.as_bytes()).0, 200);
}

#[test]
fn a_browser_origin_is_refused_unless_allowed_and_an_allowed_one_gets_cors() {
    let s = start(Options::default());
    let from_page = format!("{}Origin: https://page.example\r\n", admin());
    let (code, _, body) = ask(&s, head(&s, "GET", "/healthz", &from_page).as_bytes());
    assert_eq!(code, 403, "{body}");
    assert!(
        body.contains("--allow-origin https://page.example"),
        "{body}"
    );
    let allowed = start(Options {
        allowed_origins: vec!["https://page.example".into()],
        ..Options::default()
    });
    let (code, headers, _) = ask(
        &allowed,
        head(&allowed, "GET", "/healthz", &from_page).as_bytes(),
    );
    assert_eq!(code, 200);
    assert!(headers.contains(&(
        "access-control-allow-origin".into(),
        "https://page.example".into()
    )));
    let preflight = head(
        &allowed,
        "OPTIONS",
        "/api/v1/pods",
        "Origin: https://page.example\r\n",
    );
    assert_eq!(ask(&allowed, preflight.as_bytes()).0, 204);
    let other = format!("{}Origin: https://other.example\r\n", admin());
    assert_eq!(
        ask(
            &allowed,
            head(&allowed, "GET", "/healthz", &other).as_bytes()
        )
        .0,
        403
    );
}

#[test]
fn a_header_too_long_and_too_many_headers_are_each_431() {
    let s = start(Options::default());
    let long = format!("{}X-Long: {}\r\n", admin(), "a".repeat(1 << 20));
    let mut c = connect(&s);
    // The server answers once it has read past its limit, and may close before the
    // rest is written.
    let _ = c
        .get_mut()
        .write_all(head(&s, "GET", "/healthz", &long).as_bytes());
    assert_eq!(read_answer(&mut c).0, 431);
    let many: String = (0..200).map(|i| format!("X-H{i}: v\r\n")).collect();
    let (code, _, _) = ask(
        &s,
        head(&s, "GET", "/healthz", &format!("{}{many}", admin())).as_bytes(),
    );
    assert_eq!(code, 431);
}

#[test]
fn a_watch_that_ends_by_its_timeout_leaves_the_connection_serving_the_next_request() {
    let s = start(Options::default());
    let mut c = connect(&s);
    let watch = head(
        &s,
        "GET",
        "/api/v1/namespaces/default/pods?watch=True&timeoutSeconds=1",
        &admin(),
    );
    send(&mut c, watch.as_bytes());
    let (code, headers, _) = read_answer(&mut c);
    assert_eq!(code, 200);
    assert!(headers.contains(&("transfer-encoding".into(), "chunked".into())));
    // The same connection, as client-go's informers list again on it.
    send(
        &mut c,
        head(&s, "GET", "/api/v1/namespaces/default/pods", &admin()).as_bytes(),
    );
    let (code, _, list) = read_answer(&mut c);
    assert_eq!(code, 200);
    assert!(list.contains("\"kind\":\"PodList\""), "{list}");
}

/// The simulated time a Lease was last renewed at, as `HH:MM:SS` of 2025-01-01.
fn renewed(s: &Started) -> String {
    let (_, _, lease) = ask(
        s,
        head(
            s,
            "GET",
            "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1",
            &admin(),
        )
        .as_bytes(),
    );
    let v: serde_json::Value = serde_json::from_str(&lease).unwrap();
    v["spec"]["renewTime"].as_str().unwrap_or("")[11..19].to_string()
}

#[test]
fn reads_are_answered_between_the_slices_of_a_long_sim_advance() {
    let s = start(Options::default());
    let before = renewed(&s);
    let body = r#"{"command":"advance 6h"}"#;
    let advance = head(
        &s,
        "POST",
        "/kubeplay/v1/sim",
        &format!(
            "{}Content-Type: application/json\r\nContent-Length: {}\r\n",
            admin(),
            body.len()
        ),
    ) + body;
    let mut sim = connect(&s);
    send(&mut sim, advance.as_bytes());
    let waiting = std::thread::spawn(move || read_answer(&mut sim));
    let mut seen = Vec::new();
    while !waiting.is_finished() {
        let (code, _, ok) = ask(&s, head(&s, "GET", "/healthz", &admin()).as_bytes());
        assert_eq!((code, ok.as_str()), (200, "ok"));
        seen.push(renewed(&s));
    }
    let (code, _, printed) = waiting.join().unwrap();
    assert_eq!(code, 200, "{printed}");
    let after = renewed(&s);
    // A read taken while the clock ran saw it part of the way: after the start, before
    // the end.
    assert!(
        seen.iter().any(|t| *t > before && *t < after),
        "{before} {seen:?} {after}"
    );
}

/// `sim WORDS` through the server, as the admin.
fn sim(s: &Started, words: &str) -> (u16, String) {
    let body = serde_json::json!({ "command": words }).to_string();
    let request = head(
        s,
        "POST",
        "/kubeplay/v1/sim",
        &format!(
            "{}Content-Type: application/json\r\nContent-Length: {}\r\n",
            admin(),
            body.len()
        ),
    ) + &body;
    let (code, _, printed) = ask(s, request.as_bytes());
    (code, printed)
}

#[test]
fn probes_answered_without_the_clusters_thread_still_follow_its_health_and_its_rbac() {
    let s = start(Options::default());
    let as_user = |u: &str| format!("Authorization: Bearer {}\r\n", token_for(u));
    let probe = |path: &str, u: &str| {
        let (code, _, body) = ask(&s, head(&s, "GET", path, &as_user(u)).as_bytes());
        (code, body)
    };
    assert_eq!(probe("/readyz", "alice"), (200, "ok".to_string()));
    // etcd without quorum: /readyz lists its failing etcd checks, /livez is fine.
    for words in ["etcd members 3", "etcd down etcd-1", "etcd down etcd-2"] {
        assert_eq!(sim(&s, words).0, 200, "sim {words}");
    }
    let (code, body) = probe("/readyz?verbose", "kubernetes-admin");
    assert_eq!(code, 500, "{body}");
    assert!(body.contains("[-]etcd failed: reason withheld\n"), "{body}");
    assert!(body.ends_with("readyz check failed\n"), "{body}");
    assert_eq!(probe("/livez", "kubernetes-admin").0, 200);
    for words in ["etcd up etcd-1", "etcd up etcd-2"] {
        assert_eq!(sim(&s, words).0, 200, "sim {words}");
    }
    assert_eq!(probe("/readyz", "kubernetes-admin").0, 200);
    // A token the server refuses is 401 whatever the path.
    assert_eq!(probe("/healthz", "expired").0, 401);
    // Without the bindings of system:discovery and system:public-info-viewer (each lets
    // every authenticated user GET the probes), alice may not probe.
    for binding in ["system:discovery", "system:public-info-viewer"] {
        let delete = head(
            &s,
            "DELETE",
            &format!("/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/{binding}"),
            &admin(),
        );
        assert_eq!(ask(&s, delete.as_bytes()).0, 200, "{binding}");
    }
    let (code, body) = probe("/healthz", "alice");
    assert_eq!(code, 403, "{body}");
    assert_eq!(probe("/healthz", "kubernetes-admin").0, 200);
}
