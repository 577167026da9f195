//! Real kubectl against `kubeplay-cli serve`, compared with kubeplay's own kubectl.
//!
//! `real_kubectl/scenario.txt` runs twice from the same seed: every line through
//! kubeplay's kubectl emulation in-process, and every line through the real `kubectl`
//! on PATH (or `$KUBECTL`) against a `kubeplay-cli serve` of its own, with the `sim`
//! lines sent to that server. The outputs are compared command by command.
//!
//! - A command that made the emulation's clock run (it waits: `rollout status`,
//!   `delete`, `drain`, `wait`) is started in the background against the server,
//!   whose clock is then moved by exactly as much, and waited for.
//! - `describe` prints its Events' ages from the client's own wall clock, which is
//!   not the simulation's: that one column is masked on both sides before comparing
//!   (`normalize`). Nothing else is.
//! - A command whose output may differ is listed in `real_kubectl/allowed.txt` with
//!   the reason. A listed command that no longer differs fails the test too, so the
//!   list stays short and true.
//!
//! The server is the real thing: HTTPS with the CA and the tokens of the kubeconfig it
//! writes, which kubectl and the `sim` lines use as any user would.
//!
//! The test is ignored by a plain `cargo test`: it needs a real kubectl and starts a
//! server. `scripts/test.sh` runs it (`cargo test -p kubeplay-cli --test real_kubectl --
//! --ignored`) when `kubectl` is on PATH, and says it was skipped otherwise.

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{self, args::split_words, Files};
use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/real_kubectl")
}

struct DirFiles(PathBuf);

impl Files for DirFiles {
    fn read(&self, path: &str) -> Result<String, String> {
        std::fs::read_to_string(self.0.join(path))
            .map_err(|_| format!("the path \"{path}\" does not exist"))
    }
}

/// One line's result on one side.
#[derive(Clone, Debug)]
struct Ran {
    output: String,
    ok: bool,
    /// Simulated milliseconds the command let pass (the emulation's side).
    waited: u64,
}

fn scenario() -> Vec<String> {
    std::fs::read_to_string(dir().join("scenario.txt"))
        .expect("scenario.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect()
}

/// The allowed differences: command line → reason.
fn allowed() -> BTreeMap<String, String> {
    std::fs::read_to_string(dir().join("allowed.txt"))
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(" | "))
        .map(|(c, r)| (c.trim().to_string(), r.trim().to_string()))
        .collect()
}

fn emulate(lines: &[String]) -> Vec<Ran> {
    // The cluster `serve --scenario cluster.yaml` starts with, built the same way.
    let text = std::fs::read_to_string(dir().join("cluster.yaml")).expect("cluster.yaml");
    let s = kubeplay_engine::scenario::parse(&text, "cluster.yaml").expect("the scenario");
    let mut c: Cluster = kubeplay_engine::scenario::build(&s).expect("the cluster");
    // The learner's code runs in the same sandbox the server links.
    kubeplay_engine::controllers::script::runner::install_global(kubeplay_sandbox::run_json);
    let files = DirFiles(dir());
    lines
        .iter()
        .map(|line| {
            let before = c.now();
            let o = command::run(&mut c, line, None, &files);
            Ran {
                output: o.output,
                ok: o.ok,
                waited: c.now() - before,
            }
        })
        .collect()
}

struct Server {
    child: Child,
    kubeconfig: PathBuf,
    /// kubectl's discovery cache, the test's own (not the user's `~/.kube/cache`).
    cache: PathBuf,
    /// Kept open: the server goes on printing.
    _stdout: BufReader<std::process::ChildStdout>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_server(work: &Path) -> Server {
    let kubeconfig = work.join("kubeconfig");
    let mut child = Command::new(env!("CARGO_BIN_EXE_kubeplay-cli"))
        .args(["serve", "--port", "0", "--scenario"])
        .arg(dir().join("cluster.yaml"))
        .arg("--kubeconfig")
        .arg(&kubeconfig)
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("start kubeplay-cli serve");
    // The first line says where it listens: the kubeconfig is written by then.
    let mut first = String::new();
    let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
    stdout.read_line(&mut first).expect("serve's first line");
    assert!(first.contains("serving"), "serve said: {first}");
    Server {
        child,
        kubeconfig,
        cache: work.join("cache"),
        _stdout: stdout,
    }
}

fn kubectl() -> String {
    std::env::var("KUBECTL").unwrap_or_else(|_| "kubectl".into())
}

fn spawn(server: &Server, line: &str) -> Child {
    let words = split_words(line).expect("a scenario line splits");
    let (program, args) = if words[0] == "sim" {
        (
            env!("CARGO_BIN_EXE_kubeplay-cli").to_string(),
            words.clone(),
        )
    } else {
        (kubectl(), words[1..].to_vec())
    };
    // Both streams into one pipe, in the order written (a warning before the table).
    // Run as `kubectl` whatever the binary's file name (`kubectl.1.32`): its name is
    // its User-Agent, and so the field manager of every write that names none.
    Command::new("bash")
        .arg("-c")
        .arg("name=$1; shift; exec -a \"$name\" \"$0\" \"$@\" 2>&1")
        .arg(&program)
        .arg(if words[0] == "sim" {
            "kubeplay-cli"
        } else {
            "kubectl"
        })
        .args(&args)
        .current_dir(dir())
        .env("KUBECONFIG", &server.kubeconfig)
        .env("KUBECACHEDIR", &server.cache)
        .env("NO_COLOR", "1")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run the command")
}

fn finish(child: Child, line: &str) -> Ran {
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut child = child;
    loop {
        match child.try_wait() {
            Ok(Some(_)) => break,
            Ok(None) if Instant::now() < deadline => std::thread::sleep(Duration::from_millis(20)),
            _ => {
                let _ = child.kill();
                panic!("`{line}` did not finish within a minute");
            }
        }
    }
    let out = child.wait_with_output().expect("output");
    let mut output = String::from_utf8_lossy(&out.stdout).into_owned();
    output.push_str(&String::from_utf8_lossy(&out.stderr));
    Ran {
        output,
        ok: out.status.success(),
        waited: 0,
    }
}

/// (API requests answered, ms since the last) from the server.
fn activity(server: &Server) -> (u64, u64) {
    let path = server.kubeconfig.to_str().expect("a UTF-8 path");
    let ep = kubeplay_cli::kubeconfig::endpoint(path).expect("the kubeconfig");
    let answer =
        kubeplay_cli::client::request(&ep, "GET", kubeplay_cli::serve::ACTIVITY_PATH, None, b"")
            .expect("the server's activity");
    let v: serde_json::Value = serde_json::from_slice(&answer.body).unwrap_or_default();
    (
        v["requests"].as_u64().unwrap_or(0),
        v["idleMs"].as_u64().unwrap_or(0),
    )
}

fn real(lines: &[String], emulated: &[Ran], work: &Path) -> Vec<Ran> {
    let server = start_server(work);
    let mut out = Vec::new();
    for (line, e) in lines.iter().zip(emulated) {
        let before = activity(&server).0;
        let child = spawn(&server, line);
        if e.waited > 0 && !line.starts_with("sim ") {
            // It waits for the cluster. Once it has sent its requests and waits (no
            // request for 400 ms), let the server's clock run as the emulation's did.
            let deadline = Instant::now() + Duration::from_secs(30);
            loop {
                let (n, idle) = activity(&server);
                if (n > before && idle >= 400) || Instant::now() > deadline {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
            let advance = spawn(&server, &format!("sim advance {}ms", e.waited));
            let a = finish(advance, "sim advance");
            assert!(a.ok, "sim advance: {}", a.output);
        }
        out.push(finish(child, line));
    }
    out
}

/// The cells of a table line (columns are two or more spaces apart).
fn cells(l: &str) -> Vec<&str> {
    l.trim()
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .collect()
}

fn indent(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

/// [`as_v1_32_prints`], and what kubectl v1.32 cannot do against a v1.33 API server:
/// its describers of ServiceCIDR and IPAddress read them through
/// `networking.k8s.io/v1beta1`, which v1.33 does not serve by default, and fail with
/// the NotFound of a missing resource.
fn as_v1_32_answers(line: &str, text: &str, ok: bool) -> (String, bool) {
    let words = split_words(line).unwrap_or_default();
    let is_describe = words.get(1).map(String::as_str) == Some("describe");
    let beta_only = [
        "servicecidr",
        "servicecidrs",
        "ipaddress",
        "ipaddresses",
        "ip",
    ];
    if is_describe
        && words
            .get(2)
            .is_some_and(|w| beta_only.contains(&w.as_str()))
        && ok
    {
        return (
            "Error from server (NotFound): the server could not find the requested resource\n"
                .into(),
            false,
        );
    }
    (as_v1_32_prints(line, text), ok)
}

/// kubeplay's kubectl is v1.33's. Where kubectl v1.32's own printing differs (not the
/// server's answer), its text is rewritten as v1.32 prints it: a projected volume's
/// ConfigMap source says `ConfigMapOptional: <nil>` in v1.32's describe, `Optional:
/// false` in v1.33's. And v1.33's `autoscale`, when its autoscaling/v2 attempt fails
/// (its printer included: a bad `-o`), creates once more through autoscaling/v1 and
/// reports that create's AlreadyExists; v1.32 reports the printer's own error.
fn as_v1_32_prints(line: &str, text: &str) -> String {
    if line.starts_with("kubectl autoscale") && text.contains("(AlreadyExists)") {
        let words = split_words(line).unwrap_or_default();
        let format = words
            .iter()
            .position(|w| w == "-o")
            .and_then(|i| words.get(i + 1).cloned())
            .or_else(|| {
                words
                    .iter()
                    .find_map(|w| w.strip_prefix("-o=").map(String::from))
            });
        if let Some(f) = format {
            return format!("error: unable to match a printer suitable for the output format \"{f}\", allowed formats are: go-template,go-template-file,json,jsonpath,jsonpath-as-json,jsonpath-file,name,template,templatefile,yaml\n");
        }
    }
    let mut out = String::new();
    let mut after_config_map_name = false;
    for l in text.lines() {
        let t = l.trim_start();
        if after_config_map_name && t.starts_with("Optional:") {
            let indent = &l[..l.len() - t.len()];
            let value_at = l.len() - t.trim_start_matches("Optional:").trim_start().len();
            let label = "ConfigMapOptional:";
            let pad = value_at.saturating_sub(indent.len() + label.len()).max(1);
            out.push_str(&format!("{indent}{label}{}<nil>\n", " ".repeat(pad)));
        } else {
            out.push_str(l);
            out.push('\n');
        }
        after_config_map_name = t.starts_with("ConfigMapName:");
    }
    if !text.ends_with('\n') {
        out.pop();
    }
    out
}

/// The server's address as the console's kubectl knows it: serve listens on a port of
/// its own (`https://127.0.0.1:PORT`), the console's API server is `10.0.0.2:6443`.
/// Nothing else is rewritten.
fn console_address(text: &str) -> String {
    let from = "https://127.0.0.1:";
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find(from) {
        out.push_str(&rest[..i]);
        let after = &rest[i + from.len()..];
        let digits = after.len() - after.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        out.push_str(&format!(
            "https://{}",
            kubeplay_engine::apiserver::API_SERVER_HOST_PORT
        ));
        rest = &after[digits..];
    }
    out.push_str(rest);
    out
}

/// One line of `kubectl diff`'s output with the client's own names, times and pid
/// masked (see [`normalize`]).
fn mask_diff_line(l: &str) -> String {
    // A klog line: `W1205 21:57:29.281577   28624 diff.go:723] …`.
    if l.len() > 1 && l.as_bytes()[1].is_ascii_digit() && l.starts_with(['W', 'E', 'I']) {
        if let Some(i) = l.find("] ") {
            let file = l[..i].rsplit(' ').next().unwrap_or("");
            return format!("{}… {file}{}", &l[..1], &l[i..]);
        }
    }
    let l = if l.starts_with("--- ") || l.starts_with("+++ ") {
        l.split('\t').next().unwrap_or(l)
    } else {
        l
    };
    let mut masked = String::new();
    let mut rest = l;
    while let Some(i) = rest.find("/tmp/") {
        masked.push_str(&rest[..i + 5]);
        rest = &rest[i + 5..];
        for dir in ["LIVE-", "MERGED-"] {
            if let Some(after) = rest.strip_prefix(dir) {
                masked.push_str(dir);
                masked.push('N');
                rest = after.trim_start_matches(|c: char| c.is_ascii_digit());
            }
        }
    }
    masked.push_str(rest);
    masked
}

/// Mask what the two sides cannot agree on by construction:
/// - in `describe`, every Age column (the Events', a node's Pods'): kubectl computes
///   it from its own wall clock, not the simulation's; those tables are compared
///   cell by cell with the age masked;
/// - in `drain`, the order of the eviction lines: kubectl evicts in parallel, and the
///   order of its lines varies from run to run;
/// - in `diff`, the temporary directories' random names and the files' times (the
///   client's wall clock), and the time and process id of a klog line;
/// - in `version`, the client's own version: the two clients are different programs;
///   what the server reports is compared, less the compatibility fields v1.32's
///   `version.Info` does not decode.
fn normalize(line: &str, text: &str) -> String {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = String::new();
    if line.starts_with("kubectl diff") {
        for l in lines {
            out.push_str(&mask_diff_line(l));
            out.push('\n');
        }
        return out;
    }
    if line.starts_with("kubectl version") {
        let server = text.find("serverVersion").map_or(text, |i| &text[i..]);
        for l in server.lines().filter(|l| {
            !l.starts_with("Client Version:")
                && !l.starts_with("Kustomize Version:")
                && !l.contains("emulationM")
                && !l.contains("minCompatibilityM")
        }) {
            out.push_str(l);
            out.push('\n');
        }
        return out;
    }
    if line.starts_with("kubectl drain") && lines.len() > 2 {
        let mut middle: Vec<&str> = lines[1..lines.len() - 1].to_vec();
        middle.sort();
        for l in std::iter::once(&lines[0])
            .chain(&middle)
            .chain(std::iter::once(&lines[lines.len() - 1]))
        {
            out.push_str(l);
            out.push('\n');
        }
        return out;
    }
    let describe = line.starts_with("kubectl describe");
    let mut i = 0;
    while i < lines.len() {
        let l = lines[i];
        let head = cells(l);
        let dashes = lines
            .get(i + 1)
            .is_some_and(|d| d.trim().starts_with("---"));
        if let (true, true, Some(age)) = (describe, dashes, head.iter().position(|c| *c == "Age")) {
            let ind = indent(l);
            out.push_str(&format!("{}\n", head.join(" | ")));
            i += 2;
            while i < lines.len() && indent(lines[i]) == ind && !lines[i].trim().is_empty() {
                let mut row: Vec<String> =
                    cells(lines[i]).into_iter().map(str::to_string).collect();
                if age < row.len() {
                    row[age] = "<age>".into();
                }
                out.push_str(&format!("{}\n", row.join(" | ")));
                i += 1;
            }
            continue;
        }
        out.push_str(l.trim_end());
        out.push('\n');
        i += 1;
    }
    out
}

fn diff(a: &str, b: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (a.lines().collect(), b.lines().collect());
    let mut s = String::new();
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i).copied(), b.get(i).copied());
        if x != y {
            s.push_str(&format!(
                "    kubeplay: {}\n    kubectl:  {}\n",
                x.unwrap_or("<none>"),
                y.unwrap_or("<none>")
            ));
        }
    }
    s
}

#[test]
#[ignore = "needs a real kubectl on PATH; scripts/test.sh runs it"]
fn real_kubectl_against_kubeplay_cli_serve_prints_what_kubeplays_kubectl_prints() {
    let version = Command::new(kubectl())
        .args(["version", "--client"])
        .output();
    let Ok(version) = version else {
        println!("skipped: no kubectl on PATH");
        return;
    };
    let client = String::from_utf8_lossy(&version.stdout)
        .lines()
        .next()
        .unwrap_or("")
        .to_string();
    println!("{client}");
    // The dispatcher a machine may install as `kubectl` reports its own version and
    // runs the client matching the server's (v1.33): only a real v1.32 prints as v1.32.
    let v1_32 = client.contains("v1.32.") && !client.contains("dispatcher");
    let lines = scenario();
    let work = std::env::temp_dir().join(format!("kubeplay-real-kubectl-{}", std::process::id()));
    std::fs::create_dir_all(&work).expect("work dir");
    let emulated = emulate(&lines);
    let real = real(&lines, &emulated, &work);
    let _ = std::fs::remove_dir_all(&work);
    let allowed = allowed();
    let mut same = 0;
    let mut allowed_seen = BTreeSet::new();
    let mut failures = Vec::new();
    let mut verbs: BTreeSet<String> = BTreeSet::new();
    let mut flags: BTreeSet<String> = BTreeSet::new();
    for ((line, e), r) in lines.iter().zip(&emulated).zip(&real) {
        let words = split_words(line).unwrap_or_default();
        if words[0] == "kubectl" {
            verbs.insert(words.get(1).cloned().unwrap_or_default());
            for w in &words[1..] {
                if let Some(f) = w
                    .strip_prefix("--")
                    .or(w.strip_prefix('-').filter(|f| f.len() == 1))
                {
                    flags.insert(f.split('=').next().unwrap_or(f).to_string());
                }
            }
        }
        let (ours, ours_ok) = if v1_32 {
            as_v1_32_answers(line, &e.output, e.ok)
        } else {
            (e.output.clone(), e.ok)
        };
        let theirs = console_address(&r.output);
        let (a, b) = (normalize(line, &ours), normalize(line, &theirs));
        let differs = a != b || ours_ok != r.ok;
        match (differs, allowed.get(line)) {
            (false, None) => same += 1,
            (false, Some(_)) => failures.push(format!(
                "`{line}` is allowed to differ but does not: take it off allowed.txt"
            )),
            (true, Some(why)) => {
                allowed_seen.insert(line.clone());
                println!("allowed difference in `{line}` ({why}):\n{}", diff(&a, &b));
            }
            (true, None) => failures.push(format!(
                "`{line}` differs (ok: kubeplay {}, kubectl {}):\n{}",
                ours_ok,
                r.ok,
                diff(&a, &b)
            )),
        }
    }
    for stale in allowed.keys().filter(|k| !lines.contains(k)) {
        failures.push(format!(
            "allowed.txt names `{stale}`, which the scenario does not run"
        ));
    }
    println!(
        "{} commands ({} kubectl verbs, {} flags): {same} the same, {} allowed differences, {} failures",
        lines.len(),
        verbs.len(),
        flags.len(),
        allowed_seen.len(),
        failures.len()
    );
    println!("verbs: {}", verbs.into_iter().collect::<Vec<_>>().join(" "));
    println!("flags: {}", flags.into_iter().collect::<Vec<_>>().join(" "));
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
