//! Seeded random fault runs through the command language, each summarised as one digest
//! of everything a learner or the why-views can see: every command's output, every write
//! in the watch log with its writer and change, every Event, the scheduler's last
//! attempts, the refused requests, and the final objects as `kubectl get -o yaml`.
//!
//! Two builds that print the same digests behaved the same on these runs; a refactor
//! compares its digests before and after each step:
//!
//! ```text
//! cargo run --release -p kubeplay-engine --example fault_runs -- --runs 200 > before.txt
//! # … change the code …
//! cargo run --release -p kubeplay-engine --example fault_runs -- --runs 200 | diff before.txt -
//! ```
//!
//! `--runs N` (default 100), `--first S` (first seed, default 1), `--steps K` (actions per
//! run, default 40), `--show SEED` (print that run's whole transcript instead).

use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::command::{self, NoFiles};
use kubeplay_engine::rng::Rng;

/// FNV-1a, 64 bits: a digest that needs no dependency.
fn fnv64(s: &str) -> u64 {
    let mut h: u64 = 0xcbf29ce484222325;
    for b in s.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x100000001b3);
    }
    h
}

const IMAGES: [&str; 4] = ["nginx:1.27", "nginx:1.28", "shop:2.0", "api:1.0"];

fn pick<'a>(rng: &mut Rng, xs: &'a [String]) -> Option<&'a String> {
    if xs.is_empty() {
        None
    } else {
        Some(&xs[rng.below(xs.len() as u64) as usize])
    }
}

fn names(c: &mut Cluster, what: &str) -> Vec<String> {
    let o = command::run(c, &format!("kubectl get {what} -o name"), None, &NoFiles);
    o.output
        .lines()
        .filter_map(|l| l.split('/').nth(1))
        .map(str::to_string)
        .collect()
}

/// A Deployment with probes, an init container and resources, as a heredoc manifest.
fn manifest(name: &str, image: &str, replicas: u64, with_init: bool) -> String {
    let init = if with_init {
        "      initContainers: [{name: init, image: busybox:1.36}]\n".to_string()
    } else {
        String::new()
    };
    format!(
        "apiVersion: apps/v1
kind: Deployment
metadata: {{name: {name}}}
spec:
  replicas: {replicas}
  selector: {{matchLabels: {{app: {name}}}}}
  template:
    metadata: {{labels: {{app: {name}}}}}
    spec:
{init}      containers:
      - name: app
        image: {image}
        resources: {{requests: {{cpu: 200m, memory: 256Mi}}}}
        readinessProbe: {{httpGet: {{path: /, port: 80}}, periodSeconds: 5}}
        livenessProbe: {{httpGet: {{path: /, port: 80}}, periodSeconds: 10, failureThreshold: 3}}
"
    )
}

/// One random run: its whole visible transcript.
fn run(seed: u64, steps: usize) -> String {
    let mut rng = Rng::new(seed ^ 0x5eed);
    let mut c = Cluster::with_default_nodes(seed);
    let mut out = String::new();
    let exec = |c: &mut Cluster, line: &str, stdin: Option<&str>, out: &mut String| {
        let o = command::run(c, line, stdin, &NoFiles);
        out.push_str(&format!("$ {line}\n{}", o.output));
    };
    let extra_nodes = rng.below(3);
    for i in 0..extra_nodes {
        exec(
            &mut c,
            &format!(
                "sim node add extra-{i} --cpu 2 --memory 4Gi --labels topology.kubernetes.io/zone=zone-{}",
                ["a", "b"][i as usize % 2]
            ),
            None,
            &mut out,
        );
    }
    exec(
        &mut c,
        "kubectl create deployment web --image=nginx:1.27 --replicas=3",
        None,
        &mut out,
    );
    let m = manifest("api", "api:1.0", 2, rng.below(2) == 0);
    exec(&mut c, "kubectl apply -f -", Some(&m), &mut out);
    let mut deployments = vec!["web".to_string(), "api".to_string()];
    for step in 0..steps {
        let nodes = names(&mut c, "nodes");
        let pods = names(&mut c, "pods");
        let n = pick(&mut rng, &nodes).cloned().unwrap_or_default();
        let p = pick(&mut rng, &pods).cloned().unwrap_or_default();
        let d = pick(&mut rng, &deployments).cloned().unwrap_or_default();
        let image = IMAGES[rng.below(IMAGES.len() as u64) as usize];
        let line = match rng.below(30) {
            0 => format!("kubectl delete pod {p} --wait=false"),
            1 => format!("kubectl scale deployment {d} --replicas={}", rng.below(6)),
            2 => format!("kubectl set image deployment/{d} app={image} {d}={image} nginx={image}"),
            3 => format!("kubectl rollout undo deployment/{d}"),
            4 => format!("kubectl cordon {n}"),
            5 => format!("kubectl uncordon {n}"),
            6 => format!("kubectl drain {n} --ignore-daemonsets --timeout=60s"),
            7 => format!("sim node down {n}"),
            8 => format!("sim node up {n}"),
            9 => format!("sim node partition {n}"),
            10 => format!("sim crash pod/{p}"),
            11 => format!("sim unready pod/{p}"),
            12 => format!("sim ready pod/{p}"),
            13 => format!("sim image-fail {image}"),
            14 => format!("sim image-ok {image}"),
            15 => format!("sim image-crash {image} --after 3s"),
            16 => format!("sim hang pod/{p}"),
            17 => format!("sim oom pod/{p}"),
            18 => format!("kubectl taint nodes {n} dedicated=x:NoExecute"),
            19 => format!("kubectl taint nodes {n} dedicated-"),
            20 => {
                let name = format!("d{step}");
                let m = manifest(&name, image, 1 + rng.below(3), rng.below(2) == 0);
                deployments.push(name);
                exec(&mut c, "kubectl apply -f -", Some(&m), &mut out);
                continue;
            }
            21 => format!("kubectl delete deployment {d} --wait=false"),
            22 => format!(
                "kubectl create pdb pdb-{step} --selector=app={d} --min-available={}",
                rng.below(3)
            ),
            23 => format!(
                "sim gitops on deployment/{d} --every {}",
                ["200ms", "5s", "30s"][rng.below(3) as usize]
            ),
            24 => format!("kubectl rollout restart deployment/{d}"),
            25 => format!("sim node remove {n}"),
            26 => format!("sim node add n{step} --cpu 4 --memory 8Gi"),
            27 => format!("kubectl delete pod {p} --grace-period=0 --force"),
            28 => "kubectl create namespace scratch".to_string(),
            _ => format!("kubectl label pods {p} tier=x --overwrite"),
        };
        exec(&mut c, &line, None, &mut out);
        let wait = 1 + rng.below(90);
        exec(&mut c, &format!("sim advance {wait}s"), None, &mut out);
    }
    // Every fault stops: images served, nodes back, then let it settle.
    for image in IMAGES {
        exec(&mut c, &format!("sim image-ok {image}"), None, &mut out);
    }
    for n in names(&mut c, "nodes") {
        exec(&mut c, &format!("sim node up {n}"), None, &mut out);
        exec(&mut c, &format!("kubectl uncordon {n}"), None, &mut out);
    }
    exec(&mut c, "sim settle --max 20m", None, &mut out);
    exec(
        &mut c,
        "kubectl get pods,rs,deploy,nodes -A -o wide",
        None,
        &mut out,
    );
    exec(
        &mut c,
        "kubectl get pods,rs,deploy,nodes,pdb,leases -A -o yaml",
        None,
        &mut out,
    );
    for p in names(&mut c, "pods").iter().take(3) {
        exec(&mut c, &format!("sim trace pod/{p}"), None, &mut out);
        exec(&mut c, &format!("sim why pod/{p}"), None, &mut out);
        exec(&mut c, &format!("kubectl describe pod {p}"), None, &mut out);
    }
    exec(&mut c, "kubectl describe nodes", None, &mut out);
    exec(&mut c, "kubectl describe deployments", None, &mut out);
    out.push_str(&c.transcript());
    for e in &c.store.log {
        out.push_str(&format!(
            "{} {} {} {:?} {} {} {}\n",
            e.resource_version, e.verb, e.writer, e.key, e.reason, e.change, e.owner_uid
        ));
    }
    for (key, a) in &c.scheduler().last_attempt {
        out.push_str(&format!("{key:?} {a:?}\n"));
    }
    for f in &c.failed {
        out.push_str(&format!("{} {} {}\n", f.time, f.writer, f.error));
    }
    out.push_str(&format!("now {} quiescent {}\n", c.now(), c.is_quiescent()));
    out
}

fn main() {
    let argv: Vec<String> = std::env::args().collect();
    let opt = |k: &str, d: u64| -> u64 {
        argv.iter()
            .position(|a| a == k)
            .and_then(|i| argv.get(i + 1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let steps = opt("--steps", 40) as usize;
    if let Some(seed) = argv
        .iter()
        .position(|a| a == "--show")
        .and_then(|i| argv.get(i + 1))
        .and_then(|v| v.parse::<u64>().ok())
    {
        print!("{}", run(seed, steps));
        return;
    }
    let first = opt("--first", 1);
    let runs = opt("--runs", 100);
    let mut all: u64 = 0;
    let mut settled = 0;
    for seed in first..first + runs {
        let t = run(seed, steps);
        let h = fnv64(&t);
        all = all.rotate_left(7) ^ h;
        let quiet = t.ends_with("quiescent true\n");
        settled += u64::from(quiet);
        println!(
            "seed {seed}: {h:016x} ({} lines, {})",
            t.lines().count(),
            if quiet { "settled" } else { "NOT settled" }
        );
    }
    println!("all: {all:016x} ({settled} of {runs} settled)");
}
