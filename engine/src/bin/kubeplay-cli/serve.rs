//! `kubeplay-cli serve`: the simulated cluster behind a Kubernetes API endpoint on
//! 127.0.0.1, for real kubectl and other clients; and `kubeplay-cli sim …` (also
//! installed as the kubectl plugin `kubectl-sim`), which sends `sim` verbs to it.
//!
//! The HTTP/1.1 here is the standard library's sockets and a thread per connection:
//! kubectl opens a handful of connections, keeps them alive, and holds one open per
//! watch. The engine answers each request under one lock ([`ApiServer::handle`]);
//! watches wait on a condition variable that every answered request and every clock
//! step signals. Plain HTTP only: the server listens on the loopback address alone,
//! and TLS would need a TLS stack (and certificates) for no one on the wire.

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::rest::{self, ApiServer, HttpRequest, HttpResponse, Reply};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::ExitCode;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

/// The server's usage line.
pub const SERVE_USAGE: &str = "kubeplay-cli serve [--port 6443] [--kubeconfig FILE] [--scenario ID|FILE] [--seed N] [--realtime]";

/// How many API requests the server answered and how long ago the last came.
pub const ACTIVITY_PATH: &str = "/kubeplay/v1/activity";

/// The largest request body accepted (an import of a large manifest fits).
const MAX_BODY: usize = 64 << 20;

struct Shared {
    /// (requests answered, when the last one came) — API requests only, not the
    /// `/kubeplay/` ones: `GET /kubeplay/v1/activity` reads it, so a script can
    /// move the clock once a waiting client has sent what it sends.
    activity: Mutex<(u64, Instant)>,
    server: Mutex<ApiServer>,
    /// Signalled after every request and clock step: watches look for new writes.
    wrote: Condvar,
}

fn lock(shared: &Shared) -> std::sync::MutexGuard<'_, ApiServer> {
    // A handler that panicked leaves the lock poisoned; the world is still whole
    // (every request is applied or refused in one piece), so serving goes on.
    shared.server.lock().unwrap_or_else(|e| e.into_inner())
}

/// `kubeplay-cli serve …`.
pub fn serve(args: &[String], seed: Option<u64>) -> ExitCode {
    let mut port: u16 = 6443;
    let mut kubeconfig = "kubeplay.kubeconfig".to_string();
    let mut scenario: Option<String> = None;
    let mut realtime = false;
    let mut i = 0;
    while i < args.len() {
        let (name, inline) = match args[i].split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (args[i].clone(), None),
        };
        let mut value = || {
            inline.clone().or_else(|| {
                i += 1;
                args.get(i).cloned()
            })
        };
        match name.as_str() {
            "--port" => match value().and_then(|v| v.parse().ok()) {
                Some(p) => port = p,
                None => return usage("--port takes a port number"),
            },
            "--kubeconfig" => match value() {
                Some(f) => kubeconfig = f,
                None => return usage("--kubeconfig takes a file"),
            },
            "--scenario" => match value() {
                Some(s) => scenario = Some(s),
                None => return usage("--scenario takes a lesson id or a file"),
            },
            "--realtime" => realtime = true,
            other => return usage(&format!("unknown flag \"{other}\"")),
        }
        i += 1;
    }
    let cluster = match &scenario {
        None => Cluster::with_default_nodes(seed.unwrap_or(1)),
        Some(s) => match open_scenario(s) {
            Ok(c) => c,
            Err(e) => {
                eprintln!("kubeplay-cli: {e}");
                return ExitCode::from(2);
            }
        },
    };
    let listener = match TcpListener::bind(("127.0.0.1", port)) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("kubeplay-cli: cannot listen on 127.0.0.1:{port}: {e}");
            return ExitCode::from(2);
        }
    };
    let port = listener.local_addr().map(|a| a.port()).unwrap_or(port);
    let server_url = format!("http://127.0.0.1:{port}");
    if let Err(e) = std::fs::write(&kubeconfig, kubeconfig_text(&server_url)) {
        eprintln!("kubeplay-cli: cannot write {kubeconfig}: {e}");
        return ExitCode::from(2);
    }
    // Written, not printed: a closed standard output must not stop the server.
    let mut out = std::io::stdout();
    let _ = writeln!(out, "kubeplay: serving the Kubernetes API on {server_url}");
    let _ = writeln!(
        out,
        "kubeplay: kubeconfig written to {kubeconfig}; use it with"
    );
    let _ = writeln!(out, "  export KUBECONFIG={kubeconfig}");
    if realtime {
        let _ = writeln!(out, "kubeplay: the clock runs with the wall");
    } else {
        let _ = writeln!(
            out,
            "kubeplay: time stands still between requests; move it with `kubeplay-cli sim advance 30s`"
        );
    }
    let _ = std::io::stdout().flush();
    let shared = Arc::new(Shared {
        activity: Mutex::new((0, Instant::now())),
        server: Mutex::new(ApiServer::new(cluster)),
        wrote: Condvar::new(),
    });
    if realtime {
        let s = shared.clone();
        std::thread::spawn(move || run_clock(&s));
    }
    for stream in listener.incoming() {
        let Ok(stream) = stream else { continue };
        let s = shared.clone();
        std::thread::spawn(move || {
            let _ = connection(&s, stream);
        });
    }
    ExitCode::SUCCESS
}

fn usage(why: &str) -> ExitCode {
    eprintln!("kubeplay-cli serve: {why}\nusage: {SERVE_USAGE}");
    ExitCode::from(2)
}

fn open_scenario(s: &str) -> Result<Cluster, String> {
    use kubeplay_engine::scenario;
    let parsed = match scenario::builtin(s) {
        Some(r) => r?,
        None => {
            let text = std::fs::read_to_string(s)
                .map_err(|e| format!("{s}: not a built-in scenario and not a file ({e})"))?;
            scenario::parse(&text, s)?
        }
    };
    scenario::build(&parsed)
}

/// The clock of `--realtime`: simulated time follows the wall, in 100 ms steps.
fn run_clock(shared: &Shared) {
    let start = Instant::now();
    let base = lock(shared).cluster.now();
    loop {
        std::thread::sleep(Duration::from_millis(100));
        let target = base + start.elapsed().as_millis() as u64;
        let mut s = lock(shared);
        if target > s.cluster.now() {
            s.cluster.run_until(target);
            s.collect();
        }
        drop(s);
        shared.wrote.notify_all();
    }
}

/// A kubeconfig for the server: one cluster and a context per user. kubectl sends no
/// bearer token over plain HTTP, so the admin's context sends none (the server takes
/// it as the loopback's privileged user) and the others impersonate their user (`as:`),
/// which RBAC then judges as that user.
pub fn kubeconfig_text(server: &str) -> String {
    const CONTEXTS: &[&str] = &["kubernetes-admin", "alice", "bob"];
    let mut s = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: kubeplay\n  cluster:\n    server: {server}\ncontexts:\n"
    );
    for u in CONTEXTS {
        s.push_str(&format!(
            "- name: {u}@kubeplay\n  context:\n    cluster: kubeplay\n    user: {u}\n    namespace: default\n"
        ));
    }
    s.push_str("current-context: kubernetes-admin@kubeplay\nusers:\n");
    for u in CONTEXTS {
        if *u == "kubernetes-admin" {
            s.push_str(&format!("- name: {u}\n  user: {{}}\n"));
        } else {
            s.push_str(&format!("- name: {u}\n  user:\n    as: {u}\n"));
        }
    }
    s
}

fn percent_decode(s: &str, plus_is_space: bool) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'%' if i + 2 < b.len() => {
                let hex = std::str::from_utf8(&b[i + 1..i + 3]).ok();
                match hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                    Some(v) => {
                        out.push(v);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b'+' if plus_is_space => out.push(b' '),
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Read one request; None when the client closed the connection.
fn read_request(r: &mut BufReader<TcpStream>) -> std::io::Result<Option<HttpRequest>> {
    let mut line = String::new();
    if r.read_line(&mut line)? == 0 {
        return Ok(None);
    }
    let mut parts = line.split_whitespace();
    let method = parts.next().unwrap_or("").to_string();
    let target = parts.next().unwrap_or("/").to_string();
    let mut headers = Vec::new();
    loop {
        let mut h = String::new();
        if r.read_line(&mut h)? == 0 {
            return Ok(None);
        }
        let h = h.trim_end();
        if h.is_empty() {
            break;
        }
        if let Some((k, v)) = h.split_once(':') {
            headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
        }
    }
    let header = |n: &str| {
        headers
            .iter()
            .find(|(k, _)| k == n)
            .map(|(_, v): &(String, String)| v.clone())
    };
    let mut body = Vec::new();
    if header("transfer-encoding").is_some_and(|t| t.eq_ignore_ascii_case("chunked")) {
        loop {
            let mut size = String::new();
            r.read_line(&mut size)?;
            let n = usize::from_str_radix(size.trim().split(';').next().unwrap_or("0"), 16)
                .unwrap_or(0);
            if n == 0 {
                let mut end = String::new();
                r.read_line(&mut end)?;
                break;
            }
            if body.len().saturating_add(n) > MAX_BODY {
                return Err(std::io::Error::other("body too large"));
            }
            let mut chunk = vec![0; n + 2];
            r.read_exact(&mut chunk)?;
            chunk.truncate(n);
            body.extend(chunk);
        }
    } else if let Some(n) = header("content-length").and_then(|v| v.parse::<usize>().ok()) {
        if n > MAX_BODY {
            return Err(std::io::Error::other("body too large"));
        }
        body = vec![0; n];
        r.read_exact(&mut body)?;
    }
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    let query = query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            (percent_decode(k, true), percent_decode(v, true))
        })
        .collect();
    Ok(Some(HttpRequest {
        method,
        path: percent_decode(path, false),
        query,
        headers,
        body,
    }))
}

fn write_response(w: &mut TcpStream, r: &HttpResponse) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nCache-Control: no-cache, private\r\n",
        r.status,
        kubeplay_engine::cluster::request_path::http_status(r.status),
        r.content_type,
        r.body.len()
    );
    for (k, v) in &r.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    w.write_all(head.as_bytes())?;
    w.write_all(&r.body)?;
    w.flush()
}

fn write_chunk(w: &mut TcpStream, data: &[u8]) -> std::io::Result<()> {
    if data.is_empty() {
        return Ok(());
    }
    w.write_all(format!("{:x}\r\n", data.len()).as_bytes())?;
    w.write_all(data)?;
    w.write_all(b"\r\n")?;
    w.flush()
}

/// The client asked to close the connection after this answer.
fn closes(req: &HttpRequest) -> bool {
    req.header("connection")
        .is_some_and(|c| c.eq_ignore_ascii_case("close"))
}

fn connection(shared: &Shared, stream: TcpStream) -> std::io::Result<()> {
    let mut w = stream.try_clone()?;
    let mut r = BufReader::new(stream);
    loop {
        let req = match read_request(&mut r) {
            Ok(Some(req)) => req,
            Ok(None) => return Ok(()),
            Err(e) => {
                let bad = HttpResponse {
                    status: 400,
                    content_type: "text/plain".into(),
                    headers: Vec::new(),
                    body: format!("{e}").into_bytes(),
                };
                let _ = write_response(&mut w, &bad);
                return Ok(());
            }
        };
        if req.path == ACTIVITY_PATH {
            let (n, at) = *shared.activity.lock().unwrap_or_else(|e| e.into_inner());
            let body = format!(
                "{{\"requests\":{n},\"idleMs\":{}}}",
                at.elapsed().as_millis()
            );
            write_response(
                &mut w,
                &HttpResponse {
                    status: 200,
                    content_type: "application/json".into(),
                    headers: Vec::new(),
                    body: body.into_bytes(),
                },
            )?;
            if closes(&req) {
                return Ok(());
            }
            continue;
        }
        if !req.path.starts_with("/kubeplay/") {
            let mut a = shared.activity.lock().unwrap_or_else(|e| e.into_inner());
            *a = (a.0 + 1, Instant::now());
        }
        let reply = lock(shared).handle(&req);
        shared.wrote.notify_all();
        match reply {
            // A stopped API server: nothing answers at its address.
            Reply::NoAnswer => return Ok(()),
            Reply::Response(resp) => {
                write_response(&mut w, &resp)?;
                if closes(&req) {
                    return Ok(());
                }
            }
            Reply::Watch(mut watch) => {
                let head = format!(
                    "HTTP/1.1 200 OK\r\nContent-Type: {}\r\nTransfer-Encoding: chunked\r\nCache-Control: no-cache, private\r\n\r\n",
                    watch.content_type
                );
                w.write_all(head.as_bytes())?;
                write_chunk(&mut w, &watch.first)?;
                // A timeout past what the clock can count is no timeout.
                let deadline = watch
                    .timeout_seconds
                    .and_then(|s| Instant::now().checked_add(Duration::from_secs(s)));
                // A client that goes away is noticed when a write fails, or by the
                // read side ending: a watcher thread reads nothing else.
                let gone = Arc::new(std::sync::atomic::AtomicBool::new(false));
                {
                    let gone = gone.clone();
                    let mut probe = r.get_ref().try_clone()?;
                    std::thread::spawn(move || {
                        let mut buf = [0u8; 64];
                        while let Ok(n) = probe.read(&mut buf) {
                            if n == 0 {
                                break;
                            }
                        }
                        gone.store(true, std::sync::atomic::Ordering::SeqCst);
                    });
                }
                loop {
                    if gone.load(std::sync::atomic::Ordering::SeqCst)
                        || deadline.is_some_and(|d| Instant::now() >= d)
                        || watch.cursor == u64::MAX
                    {
                        break;
                    }
                    let guard = lock(shared);
                    let (guard, _) = shared
                        .wrote
                        .wait_timeout(guard, Duration::from_millis(500))
                        .unwrap_or_else(|e| e.into_inner());
                    let data = guard.watch_events(&mut watch);
                    drop(guard);
                    write_chunk(&mut w, &data)?;
                }
                let _ = w.write_all(b"0\r\n\r\n");
                return Ok(());
            }
        }
    }
}

/// Where the `sim` client sends: the server and token of the kubeconfig's current
/// context (`--kubeconfig FILE`, else `$KUBECONFIG`, else `./kubeplay.kubeconfig`).
fn endpoint(kubeconfig: Option<&str>) -> Result<(String, Option<String>), String> {
    let path = kubeconfig
        .map(str::to_string)
        .or_else(|| {
            std::env::var("KUBECONFIG")
                .ok()
                .and_then(|k| k.split(':').next().map(str::to_string))
        })
        .unwrap_or_else(|| "kubeplay.kubeconfig".to_string());
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{path}: {e}"))?;
    let v: serde_json::Value =
        serde_yaml_ng::from_str(&text).map_err(|e| format!("{path}: {e}"))?;
    let current = v["current-context"].as_str().unwrap_or("");
    let find = |list: &str, name: &str| {
        v[list]
            .as_array()
            .and_then(|a| a.iter().find(|e| e["name"] == name).cloned())
            .unwrap_or(serde_json::Value::Null)
    };
    let ctx = find("contexts", current);
    let cluster = find("clusters", ctx["context"]["cluster"].as_str().unwrap_or(""));
    let user = find("users", ctx["context"]["user"].as_str().unwrap_or(""));
    let server = cluster["cluster"]["server"]
        .as_str()
        .ok_or_else(|| format!("{path}: the current context names no server"))?
        .to_string();
    Ok((server, user["user"]["token"].as_str().map(str::to_string)))
}

/// `kubeplay-cli sim WORDS…` (or `kubectl sim WORDS…`): send the words to the server
/// and print its answer. Exit 0 when the command succeeded, 1 when it failed, 2 when
/// the server cannot be reached.
pub fn sim_client(args: &[String]) -> ExitCode {
    let mut words = Vec::new();
    let mut kubeconfig = None;
    let mut i = 0;
    while i < args.len() {
        if args[i] == "--kubeconfig" {
            i += 1;
            kubeconfig = args.get(i).cloned();
        } else if let Some(k) = args[i].strip_prefix("--kubeconfig=") {
            kubeconfig = Some(k.to_string());
        } else {
            words.push(args[i].clone());
        }
        i += 1;
    }
    let (server, token) = match endpoint(kubeconfig.as_deref()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("kubectl-sim: {e}");
            return ExitCode::from(2);
        }
    };
    let Some(hostport) = server.strip_prefix("http://") else {
        eprintln!("kubectl-sim: {server}: only a kubeplay server (http://) can be driven");
        return ExitCode::from(2);
    };
    let hostport = hostport.trim_end_matches('/');
    let body = words.join(" ");
    let result = (|| -> std::io::Result<(u16, String)> {
        let mut s = TcpStream::connect(hostport)?;
        let mut req = format!(
            "POST {} HTTP/1.1\r\nHost: {hostport}\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n",
            rest::SIM_PATH,
            body.len()
        );
        if let Some(t) = &token {
            req.push_str(&format!("Authorization: Bearer {t}\r\n"));
        }
        req.push_str("\r\n");
        s.write_all(req.as_bytes())?;
        s.write_all(body.as_bytes())?;
        let mut r = BufReader::new(s);
        let mut status = String::new();
        r.read_line(&mut status)?;
        let code = status
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or(0);
        let mut len = 0;
        loop {
            let mut h = String::new();
            if r.read_line(&mut h)? == 0 {
                break;
            }
            let h = h.trim_end();
            if h.is_empty() {
                break;
            }
            if let Some((k, v)) = h.split_once(':') {
                if k.eq_ignore_ascii_case("content-length") {
                    len = v.trim().parse().unwrap_or(0);
                }
            }
        }
        let mut out = vec![0; len];
        r.read_exact(&mut out)?;
        Ok((code, String::from_utf8_lossy(&out).into_owned()))
    })();
    match result {
        Ok((200, out)) => {
            print!("{out}");
            ExitCode::SUCCESS
        }
        Ok((_, out)) => {
            print!("{out}");
            ExitCode::from(1)
        }
        Err(e) => {
            eprintln!("kubectl-sim: cannot reach {server}: {e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_query_decodes_percent_escapes_and_plus_but_a_path_keeps_its_plus() {
        assert_eq!(percent_decode("app%3Dweb%2Ctier+x", true), "app=web,tier x");
        assert_eq!(percent_decode("a+b%2", false), "a+b%2");
        assert_eq!(percent_decode("%zz%", true), "%zz%");
    }

    #[test]
    fn the_written_kubeconfig_names_the_server_for_the_sim_client() {
        let dir = std::env::temp_dir().join(format!("kubeplay-kc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("config");
        std::fs::write(&path, kubeconfig_text("http://127.0.0.1:7777")).unwrap();
        let (server, token) = endpoint(path.to_str()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(server, "http://127.0.0.1:7777");
        assert_eq!(token, None, "the admin sends no token over plain HTTP");
        let v: serde_json::Value = serde_yaml_ng::from_str(&kubeconfig_text("http://x")).unwrap();
        assert_eq!(v["users"][1]["user"]["as"], "alice");
    }
}
