//! Seeded random fault runs: a long random session — workloads created, scaled, rolled
//! out and back, paused, deleted and orphaned; Pods deleted, crashed, OOM-killed, hung
//! and made unready; nodes powered off and on, cut off, removed and added again,
//! cordoned, drained and tainted; the API server stopped and started; images refused
//! and crashing; disruption budgets;
//! random advances of the clock — checked after every step, then healed and checked
//! for convergence.
//!
//! After every step these hold:
//! - resourceVersions in the watch log strictly increase;
//! - no node holds more than its allocatable (cpu, memory, Pods);
//! - no Pod stays bound to a missing node past PodGC's sweep (20 s tick + 40 s
//!   quarantine);
//! - no object keeps an owner that is gone past the garbage collector's reach (30 s),
//!   unless it is being deleted;
//! - the cluster's count of foreground timers (what `sim settle` waits for) agrees
//!   with a recount;
//! - no kubelet has a worker with work left and no timer to do it, and housekeeping
//!   never had to resume one (a repair means some path forgot a timer);
//! - during a rollout begun with every Deployment complete and no fault active, the
//!   Deployment stays within its surge (Σ ReplicaSet replicas and live Pods ≤
//!   replicas + maxSurge) and unavailability (ready Pods ≥ replicas − maxUnavailable)
//!   bounds, second by second.
//!
//! Then every fault stops (nodes up and reconnected, removed nodes added back,
//! uncordoned, untainted; images served; Pods ready; rollouts resumed), `sim settle`
//! must return settled, and the cluster must have converged: every Deployment and
//! ReplicaSet has all its replicas updated, ready and available, every Pod is bound,
//! Running and Ready (or finished), no Pod is Terminating, every Job has finished (its
//! CronJob suspended), every Pod the API server shows on a node runs there, no owner
//! dangles, and ten more minutes write nothing but Leases.
//!
//! A failing run is replayed without each of its steps in turn, keeping every removal
//! that still fails: [`Outcome::script`] prints what remains as a script for
//! `kubeplay-cli run`.

use crate::api::*;
use crate::apiserver::{allocatable, ObjKey, WatchType};
use crate::cluster::Cluster;
use crate::command::{self, script::EXPECT_ERROR, NoFiles};
use crate::controllers::deployment::sync::is_scaling_event;
use crate::controllers::deployment::util::resolve_fenceposts;
use crate::rng::Rng;
use crate::time::{SimTime, SECOND};
use std::collections::{BTreeMap, BTreeSet};

/// One command of a run: its line and its stdin (a manifest).
#[derive(Clone, Debug, PartialEq)]
pub struct Step {
    /// The command line.
    pub line: String,
    /// What it reads on stdin.
    pub stdin: Option<String>,
}

impl Step {
    fn new(line: impl Into<String>) -> Self {
        Step {
            line: line.into(),
            stdin: None,
        }
    }
}

/// What one run did and found.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The cluster's seed.
    pub seed: u64,
    /// The random steps (without the healing that follows them).
    pub steps: Vec<Step>,
    /// Whether each step succeeded.
    pub ok: Vec<bool>,
    /// Every command's output and the final state: what the determinism check compares.
    pub transcript: String,
    /// Invariant violations and convergence failures, each with the time.
    pub violations: Vec<String>,
    /// `sim settle` returned settled.
    pub settled: bool,
}

impl Outcome {
    /// No violation, and the cluster settled and converged.
    pub fn passed(&self) -> bool {
        self.violations.is_empty()
    }

    /// The steps as a script for `kubeplay-cli run --seed SEED` (failing commands marked
    /// as meant to fail), ending with the healing and the settle.
    pub fn script(&self) -> String {
        let mut out = format!(
            "# kubeplay-cli --seed {} run THIS_FILE\n# {}\n",
            self.seed,
            self.violations
                .first()
                .map(String::as_str)
                .unwrap_or("passes")
        );
        for (s, ok) in self.steps.iter().zip(&self.ok) {
            let mark = if *ok {
                String::new()
            } else {
                format!(" {EXPECT_ERROR}")
            };
            match &s.stdin {
                Some(body) => out.push_str(&format!("{} <<EOF{mark}\n{body}EOF\n", s.line)),
                None => out.push_str(&format!("{}{mark}\n", s.line)),
            }
        }
        out.push_str("# then: every fault stops, and `sim settle --max 20m`\n");
        out
    }
}

/// Images the runs use.
pub const IMAGES: [&str; 4] = ["nginx:1.27", "nginx:1.28", "shop:2.0", "api:1.0"];

/// A Deployment with probes, an init container and resources, as a manifest.
pub fn manifest(name: &str, image: &str, replicas: u64, with_init: bool) -> String {
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

/// Generate and run one random session of `steps` actions.
pub fn run(seed: u64, steps: usize) -> Outcome {
    let mut r = Runner::new(seed);
    let mut rng = Rng::new(seed ^ 0x5eed);
    for i in 0..rng.below(3) {
        r.exec(Step::new(format!(
            "sim node add extra-{i} --cpu 2 --memory 4Gi --labels topology.kubernetes.io/zone=zone-{}",
            ["a", "b"][i as usize % 2]
        )));
    }
    r.exec(Step::new(
        "kubectl create deployment web --image=nginx:1.27 --replicas=3",
    ));
    let with_init = rng.below(2) == 0;
    r.exec(Step {
        line: "kubectl apply -f -".into(),
        stdin: Some(manifest("api", "api:1.0", 2, with_init)),
    });
    // A log agent on every node: its Pods tolerate what a sick node gets, and stay.
    r.exec(Step {
        line: "kubectl apply -f -".into(),
        stdin: Some("apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: agent}\nspec:\n  selector: {matchLabels: {app: agent}}\n  template:\n    metadata: {labels: {app: agent}}\n    spec:\n      containers: [{name: agent, image: 'busybox:1.36', resources: {requests: {cpu: 10m}}}]\n".into()),
    });
    let mut deployments = vec!["web".to_string(), "api".to_string()];
    for step in 0..steps {
        let nodes = r.names("nodes");
        let pods = r.names("pods");
        let n = pick(&mut rng, &nodes);
        let p = pick(&mut rng, &pods);
        let d = pick(&mut rng, &deployments);
        let image = IMAGES[rng.below(IMAGES.len() as u64) as usize];
        let line = match rng.below(46) {
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
                r.exec(Step {
                    line: "kubectl apply -f -".into(),
                    stdin: Some(m),
                });
                r.advance(&mut rng);
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
            29 => format!("kubectl rollout pause deployment/{d}"),
            30 => format!("kubectl rollout resume deployment/{d}"),
            31 => format!("kubectl delete deployment {d} --cascade=orphan"),
            32 => {
                // A Deployment deleted (or orphaned) earlier comes back: it adopts
                // what matches its selector.
                let m = manifest(&d, image, 1 + rng.below(4), false);
                r.exec(Step {
                    line: "kubectl apply -f -".into(),
                    stdin: Some(m),
                });
                r.advance(&mut rng);
                continue;
            }
            33 => format!(
                "kubectl patch deployment {d} -p '{{\"spec\":{{\"strategy\":{{\"type\":\"{}\",\"rollingUpdate\":null}},\"replicas\":{}}}}}'",
                ["Recreate", "RollingUpdate"][rng.below(2) as usize],
                rng.below(5)
            ),
            34 => "kubectl create deployment s --image=nginx:1.27 --replicas=2 -n scratch".to_string(),
            35 => "kubectl delete namespace scratch --wait=false".to_string(),
            36 => "sim apiserver down".to_string(),
            37 => "sim apiserver up".to_string(),
            38 => "sim etcd members 3".to_string(),
            39 => format!("sim etcd down etcd-{}", 1 + rng.below(3)),
            40 => format!("sim etcd up etcd-{}", 1 + rng.below(3)),
            41 => format!("sim leader replicas {}", 1 + rng.below(3)),
            42 => format!(
                "sim leader kill {}",
                ["kube-controller-manager", "kube-scheduler"][rng.below(2) as usize]
            ),
            43 => format!(
                "sim watch break {} --for {}s{}",
                [
                    "replicaset-controller",
                    "deployment-controller",
                    "node-lifecycle-controller",
                    "default-scheduler",
                    "garbage-collector",
                ][rng.below(5) as usize],
                1 + rng.below(60),
                if rng.below(2) == 0 { " --gone" } else { "" }
            ),
            44 => {
                let m = job_manifest(step, rng.below(3), rng.below(2) == 0);
                r.exec(Step {
                    line: "kubectl apply -f -".into(),
                    stdin: Some(m),
                });
                r.advance(&mut rng);
                continue;
            }
            45 => format!(
                "kubectl create cronjob tick-{step} --image=busybox:1.36 --schedule='*/{} * * * *' -- sh -c 'sleep {}'",
                1 + rng.below(3),
                rng.below(120)
            ),
            _ => format!("kubectl label pods {p} tier=x --overwrite"),
        };
        r.exec(Step::new(line));
        r.advance(&mut rng);
    }
    r.finish()
}

/// Run exactly these steps (a failing run's, or fewer), then heal and check.
pub fn replay(seed: u64, steps: &[Step]) -> Outcome {
    let mut r = Runner::new(seed);
    for s in steps {
        r.exec(s.clone());
    }
    r.finish()
}

/// The failing run's steps with every step removed that the failure does not need
/// (one pass, last step first: a later step often needs an earlier one).
pub fn shrink(failing: &Outcome) -> Outcome {
    let mut best = failing.clone();
    let mut i = best.steps.len();
    while i > 0 {
        i -= 1;
        let mut fewer = best.steps.clone();
        fewer.remove(i);
        let o = replay(failing.seed, &fewer);
        if !o.passed() {
            best = o;
        }
    }
    best
}

fn pick(rng: &mut Rng, xs: &[String]) -> String {
    if xs.is_empty() {
        return String::new();
    }
    xs[rng.below(xs.len() as u64) as usize].clone()
}

/// How long GC may take to remove an object whose owner is gone.
const GC_REACH: SimTime = 30 * SECOND;
/// PodGC's sweep of a missing node's Pods: the first 20 s tick plus the 40 s
/// quarantine, and the force delete.
const PODGC_REACH: SimTime = 62 * SECOND;

/// A Job for the fault runs: three completions two at a time, Pods that exit with
/// `code` after 3 s, OnFailure or Never.
fn job_manifest(step: usize, code: u64, on_failure: bool) -> String {
    format!(
        "apiVersion: batch/v1\nkind: Job\nmetadata: {{name: batch-{step}}}\nspec:\n  completions: 3\n  parallelism: 2\n  backoffLimit: 3\n  template:\n    spec:\n      restartPolicy: {}\n      containers: [{{name: work, image: busybox, command: [sh, -c, 'sleep 3; exit {code}']}}]\n",
        if on_failure { "OnFailure" } else { "Never" }
    )
}

struct Runner {
    c: Cluster,
    steps: Vec<Step>,
    ok: Vec<bool>,
    transcript: String,
    violations: Vec<String>,
    /// Watch-log entries already checked, and the last resourceVersion seen.
    log_checked: usize,
    last_rv: u64,
    /// Node names that disappeared, and when.
    missing_since: BTreeMap<String, SimTime>,
    /// Objects (by uid) whose owner is gone, since when.
    dangling_since: BTreeMap<String, SimTime>,
    /// Deployments to hold to their rollout bounds during the next advance, with
    /// whether unavailability is checked too (not for a scale-up).
    watch: Vec<(String, bool)>,
    /// Pods ever created for each Job (by uid), from the watch log.
    job_pods: BTreeMap<String, BTreeSet<String>>,
}

impl Runner {
    fn new(seed: u64) -> Self {
        Runner {
            c: Cluster::with_default_nodes(seed),
            steps: vec![],
            ok: vec![],
            transcript: String::new(),
            violations: vec![],
            log_checked: 0,
            last_rv: 0,
            missing_since: BTreeMap::new(),
            dangling_since: BTreeMap::new(),
            watch: vec![],
            job_pods: BTreeMap::new(),
        }
    }

    fn names(&mut self, what: &str) -> Vec<String> {
        let o = command::run(
            &mut self.c,
            &format!("kubectl get {what} -o name"),
            None,
            &NoFiles,
        );
        if !o.ok {
            // The API server is down: kubectl lists nothing.
            return Vec::new();
        }
        o.output
            .lines()
            .filter_map(|l| l.split('/').nth(1))
            .map(str::to_string)
            .collect()
    }

    fn advance(&mut self, rng: &mut Rng) {
        let wait = 1 + rng.below(90);
        self.exec(Step::new(format!("sim advance {wait}s")));
    }

    /// Run one recorded step and check the invariants after it.
    fn exec(&mut self, s: Step) {
        let seconds = s
            .line
            .strip_prefix("sim advance ")
            .and_then(|w| w.strip_suffix('s'))
            .and_then(|n| n.parse::<u64>().ok());
        let ok = match seconds {
            // Second by second, so the rollout bounds are held throughout.
            Some(n) if !self.watch.is_empty() => {
                for _ in 0..n {
                    self.c.advance(SECOND);
                    self.check_rollout_bounds();
                }
                self.transcript
                    .push_str(&format!("$ {}\n(advanced)\n", s.line));
                true
            }
            _ => {
                self.watch = self.rollout_watch(&s.line);
                let o = command::run(&mut self.c, &s.line, s.stdin.as_deref(), &NoFiles);
                self.transcript
                    .push_str(&format!("$ {}\n{}", s.line, o.output));
                o.ok
            }
        };
        if seconds.is_some() {
            self.watch.clear();
        }
        self.steps.push(s);
        self.ok.push(ok);
        self.check_invariants();
    }

    /// Record a violation (once: the first time it was seen).
    fn violation(&mut self, what: String) {
        let seen = self
            .violations
            .iter()
            .any(|v| v.split_once(" ms: ").is_some_and(|(_, rest)| rest == what));
        if !seen {
            self.violations
                .push(format!("at {} ms: {what}", self.c.now()));
        }
    }

    /// Whether anything is broken on purpose right now.
    fn faults_active(&self) -> bool {
        let f = &self.c.faults;
        let nodes_ok = self.c.kubelets.values().all(|k| k.up && !k.partitioned)
            && self.c.store.list::<Node>().all(|n| {
                !n.spec.unschedulable && n.spec.taints.iter().all(|t| t.key != "dedicated")
            })
            && self.c.store.list::<Node>().count() == self.c.kubelets.len();
        // A Pod on a node that is gone, or one being deleted, is a disruption still
        // under way.
        let pods_ok = self.c.store.list::<Pod>().all(|p| {
            !p.metadata.is_deleting()
                && (p.spec.node_name.is_empty() || self.c.kubelets.contains_key(&p.spec.node_name))
        });
        !(nodes_ok
            && pods_ok
            && f.refused_images.is_empty()
            && f.crashing_images.is_empty()
            && f.unready.is_empty()
            && f.hung.is_empty())
    }

    /// The Deployments a command's rollout must keep within bounds: all of them when
    /// it starts a rollout (or scales) with every Deployment complete and no fault.
    fn rollout_watch(&self, line: &str) -> Vec<(String, bool)> {
        let rollout = [
            "kubectl set image",
            "kubectl rollout undo",
            "kubectl rollout restart",
        ]
        .iter()
        .any(|p| line.starts_with(p));
        let scale = line.starts_with("kubectl scale");
        if !(rollout || scale) || self.faults_active() {
            return vec![];
        }
        let ds: Vec<&Deployment> = self.c.store.list::<Deployment>().collect();
        // Complete by its status and by its Pods (a status can lag a deletion by a
        // controller's latency).
        let ready_pods = |d: &Deployment| {
            owned_sets(&self.c, d)
                .iter()
                .flat_map(|rs| owned_pods(&self.c, &rs.metadata.uid))
                .filter(|p| !p.metadata.is_deleting() && p.is_ready())
                .count() as i64
        };
        if !ds
            .iter()
            .all(|d| complete(&self.c, d) && ready_pods(d) == d.spec.replicas)
        {
            return vec![];
        }
        ds.iter()
            .filter(|d| !d.spec.paused && d.spec.strategy.type_ != "Recreate")
            .map(|d| (d.metadata.name.clone(), rollout))
            .collect()
    }

    fn check_rollout_bounds(&mut self) {
        let mut found = vec![];
        for (name, unavailable_too) in &self.watch {
            let Some(d) = self
                .c
                .store
                .get::<Deployment>(&ObjKey::new("default", name))
            else {
                continue;
            };
            if d.status.observed_generation < d.metadata.generation {
                // The controller has not seen this spec yet: the bounds are the last
                // spec's, which the store no longer has.
                continue;
            }
            let (surge, unavailable) = resolve_fenceposts(d);
            let sets = owned_sets(&self.c, d);
            let rs_sum: i64 = sets.iter().map(|rs| rs.spec.replicas).sum();
            let live: Vec<&Pod> = sets
                .iter()
                .flat_map(|rs| owned_pods(&self.c, &rs.metadata.uid))
                .filter(|p| !p.metadata.is_deleting() && !p.is_terminal())
                .collect();
            let ready = live.iter().filter(|p| p.is_ready()).count() as i64;
            let max = d.spec.replicas + surge;
            if rs_sum > max || live.len() as i64 > max {
                found.push(format!(
                    "deployment {name}: {rs_sum} replicas in its ReplicaSets and {} live Pods, over replicas {} + maxSurge {surge}",
                    live.len(),
                    d.spec.replicas
                ));
            }
            if *unavailable_too && ready < d.spec.replicas - unavailable {
                found.push(format!(
                    "deployment {name}: {ready} ready Pods, under replicas {} - maxUnavailable {unavailable}",
                    d.spec.replicas
                ));
            }
        }
        for f in found {
            self.violation(f);
        }
    }

    fn check_invariants(&mut self) {
        let now = self.c.now();
        let mut found = vec![];
        // resourceVersions strictly increase.
        for e in self.c.store.log.since(self.log_checked) {
            if e.resource_version <= self.last_rv {
                found.push(format!(
                    "resourceVersion {} after {}",
                    e.resource_version, self.last_rv
                ));
            }
            self.last_rv = e.resource_version;
            if e.kind == Kind::Pod && e.type_ == WatchType::Added && !e.owner_uid.is_empty() {
                self.job_pods
                    .entry(e.owner_uid.clone())
                    .or_default()
                    .insert(e.uid.clone());
            }
        }
        // A Job counts each of its Pods once: never more finished Pods than it made.
        for j in self.c.store.list::<Job>() {
            let made = self.job_pods.get(&j.metadata.uid).map_or(0, |s| s.len()) as i64;
            if j.status.succeeded + j.status.failed > made {
                found.push(format!(
                    "job {}: {} succeeded + {} failed of {made} Pods created",
                    j.metadata.name, j.status.succeeded, j.status.failed
                ));
            }
        }
        self.log_checked = self.c.store.log.len();
        // No node over its allocatable.
        for n in self.c.store.list::<Node>() {
            let a = allocatable(n);
            let u = self.c.store.node_usage(&n.metadata.name);
            if u.requested.cpu_milli > a.cpu_milli
                || u.requested.memory > a.memory
                || u.pods > a.pods
            {
                found.push(format!(
                    "node {} over its allocatable: {:?} of {a:?}",
                    n.metadata.name, u.requested
                ));
            }
        }
        // While the API server is down PodGC and the garbage collector cannot act: their
        // reach is counted again from when it is back.
        if self.c.unavailable().is_some() {
            self.missing_since.clear();
            self.dangling_since.clear();
        }
        // No Pod on a missing node past PodGC.
        let nodes: BTreeSet<String> = self
            .c
            .store
            .list::<Node>()
            .map(|n| n.metadata.name.clone())
            .collect();
        self.missing_since.retain(|n, _| !nodes.contains(n));
        for p in self.c.store.list::<Pod>() {
            let n = &p.spec.node_name;
            if n.is_empty() || nodes.contains(n) {
                continue;
            }
            let since = *self.missing_since.entry(n.clone()).or_insert(now);
            if now.saturating_sub(since) > PODGC_REACH {
                found.push(format!(
                    "pod {} still bound to missing node {n} (gone since {since} ms)",
                    p.metadata.name
                ));
            }
        }
        // No owner dangling past the garbage collector's reach.
        let mut dangling = BTreeSet::new();
        for kind in [Kind::Pod, Kind::ReplicaSet, Kind::Job] {
            for o in self.c.store.list_objects(kind) {
                let m = o.meta();
                if m.is_deleting() {
                    continue;
                }
                if m.owner_references
                    .iter()
                    .any(|r| self.c.store.by_uid(&r.uid).is_none())
                {
                    dangling.insert((m.uid.clone(), format!("{kind:?} {}", m.name)));
                }
            }
        }
        let uids: BTreeSet<String> = dangling.iter().map(|(u, _)| u.clone()).collect();
        self.dangling_since.retain(|u, _| uids.contains(u));
        for (uid, what) in dangling {
            let since = *self.dangling_since.entry(uid).or_insert(now);
            if now.saturating_sub(since) > GC_REACH {
                found.push(format!("{what}: its owner is gone (since {since} ms)"));
            }
        }
        if !self.c.foreground_count_is_exact() {
            found.push("the count of foreground timers is off: settle cannot be trusted".into());
        }
        // No stranded kubelet work.
        for (n, k) in &self.c.kubelets {
            let stalled = k.stalled_pods(&self.c.store);
            if !stalled.is_empty() {
                found.push(format!("kubelet {n}: stranded workers {stalled:?}"));
            }
            if k.repairs() > 0 {
                found.push(format!(
                    "kubelet {n}: housekeeping resumed {} forgotten workers",
                    k.repairs()
                ));
            }
        }
        for f in found {
            self.violation(f);
        }
    }

    /// Every fault stops, the cluster settles, and it must have converged.
    fn finish(mut self) -> Outcome {
        let chaos_steps = self.steps.clone();
        let chaos_ok = self.ok.clone();
        // First the API server and etcd's members: the kubelets the stall cut off
        // reconnect with them, and the rest of the healing reads the cluster through
        // them.
        let mut first = Vec::new();
        if self.c.apiserver_down() {
            first.push("sim apiserver up".to_string());
        }
        for m in &self.c.etcd().members {
            if !m.up {
                first.push(format!("sim etcd up {}", m.name));
            }
        }
        for line in first {
            let o = command::run(&mut self.c, &line, None, &NoFiles);
            self.transcript.push_str(&format!("$ {line}\n{}", o.output));
        }
        for line in self.healing() {
            let o = command::run(&mut self.c, &line, None, &NoFiles);
            self.transcript.push_str(&format!("$ {line}\n{}", o.output));
        }
        let settled = self.c.settle(20 * 60 * SECOND);
        self.transcript
            .push_str(&format!("settled {settled} at {}\n", self.c.now()));
        self.check_invariants();
        if !settled {
            let busy = self.c.busy_work(3);
            self.violation(format!("sim settle --max 20m did not settle: {busy:?}"));
        }
        self.check_converged();
        // A fixed point: ten more minutes write nothing but heartbeats.
        let start = self.c.store.log.len();
        self.c.advance(10 * 60 * SECOND);
        let writes: Vec<String> = self
            .c
            .store
            .log
            .since(start)
            // The kubelet's node status sync is a heartbeat too (upstream posts it at
            // least every 5 min).
            .filter(|e| e.kind != Kind::Lease && e.kind != Kind::Event)
            .filter(|e| !(e.kind == Kind::Node && e.writer.starts_with("kubelet/")))
            .map(|e| format!("{} {:?} {} by {}", e.verb, e.kind, e.key.name, e.writer))
            .take(5)
            .collect();
        if !writes.is_empty() {
            self.violation(format!("still writing after it settled: {writes:?}"));
        }
        self.check_invariants();
        self.transcript.push_str(&final_state(&mut self.c));
        Outcome {
            seed: self.c.seed(),
            steps: chaos_steps,
            ok: chaos_ok,
            transcript: self.transcript,
            violations: self.violations,
            settled,
        }
    }

    /// The commands that stop every fault.
    fn healing(&mut self) -> Vec<String> {
        let mut out = vec![];

        for image in IMAGES {
            out.push(format!("sim image-ok {image}"));
        }
        for (name, k) in &self.c.kubelets {
            if !k.up || (k.partitioned && !k.apiserver_only) {
                out.push(format!("sim node up {name}"));
            }
        }
        // Removed nodes come back under their names.
        let mut gone: BTreeSet<String> = self
            .c
            .store
            .list::<Pod>()
            .map(|p| p.spec.node_name.clone())
            .filter(|n| !n.is_empty() && !self.c.kubelets.contains_key(n))
            .collect();
        for n in ["node-1", "node-2", "node-3"] {
            if !self.c.kubelets.contains_key(n) {
                gone.insert(n.to_string());
            }
        }
        for n in gone {
            out.push(format!("sim node add {n}"));
        }
        // After the nodes: `sim ready` needs the Pod's node up (and back).
        let unready: Vec<String> = self.c.faults.unready.iter().cloned().collect();
        for uid in unready {
            if let Some((Kind::Pod, key)) = self.c.store.by_uid(&uid).cloned() {
                out.push(format!("sim ready pod/{} -n {}", key.name, key.namespace));
            }
        }
        for n in self.names("nodes") {
            out.push(format!("kubectl uncordon {n}"));
            out.push(format!("kubectl taint nodes {n} dedicated- # if tainted"));
        }
        // A schedule never stops writing: the CronJobs are suspended.
        for cj in self.c.store.list::<CronJob>() {
            if cj.spec.suspend != Some(true) {
                out.push(format!(
                    "kubectl patch cronjob {} -n {} -p '{{\"spec\":{{\"suspend\":true}}}}'",
                    cj.metadata.name, cj.metadata.namespace
                ));
            }
        }
        for d in self.c.store.list::<Deployment>() {
            if d.spec.paused {
                out.push(format!(
                    "kubectl rollout resume deployment/{} -n {}",
                    d.metadata.name, d.metadata.namespace
                ));
            }
        }
        // The taint removal fails where there is none: keep only what applies.
        out.into_iter()
            .filter_map(|l| match l.strip_suffix(" # if tainted") {
                Some(cmd) => {
                    let node = cmd.split(' ').nth(3).unwrap_or_default();
                    let tainted = self
                        .c
                        .store
                        .get::<Node>(&ObjKey::new("", node))
                        .is_some_and(|n| n.spec.taints.iter().any(|t| t.key == "dedicated"));
                    tainted.then(|| cmd.to_string())
                }
                None => Some(l),
            })
            .collect()
    }

    fn check_converged(&mut self) {
        let c = &self.c;
        let mut found = vec![];
        for d in c.store.list::<Deployment>() {
            // Paused mid-rollout is a resting state (a GitOps sync may declare it).
            let paused_ok = d.spec.paused && d.status.observed_generation >= d.metadata.generation;
            if !paused_ok && !complete(c, d) && !recreate_stall(c, d) {
                found.push(format!(
                    "deployment {}/{} did not converge: generation {} observed {}, replicas {} status {}/{}/{}/{} (replicas/updated/ready/available), {} active ReplicaSets",
                    d.metadata.namespace,
                    d.metadata.name,
                    d.metadata.generation,
                    d.status.observed_generation,
                    d.spec.replicas,
                    d.status.replicas,
                    d.status.updated_replicas,
                    d.status.ready_replicas,
                    d.status.available_replicas,
                    owned_sets(c, d).iter().filter(|rs| rs.spec.replicas > 0).count(),
                ));
            }
        }
        for rs in c.store.list::<ReplicaSet>() {
            let s = &rs.status;
            if s.replicas == rs.spec.replicas && s.ready_replicas == s.replicas {
                continue;
            }
            {
                found.push(format!(
                    "replicaset {} did not converge: spec {} status {}/{}",
                    rs.metadata.name, rs.spec.replicas, s.replicas, s.ready_replicas
                ));
            }
        }
        for p in c.store.list::<Pod>() {
            let why = if p.metadata.is_deleting() {
                Some("Terminating")
            } else if p.spec.node_name.is_empty() {
                Some("not bound")
            } else if p.is_terminal() {
                None
            } else if p.status.phase != PodPhase::Running || !p.is_ready() {
                Some("not Running and Ready")
            } else {
                None
            };
            if let Some(why) = why {
                found.push(format!(
                    "pod {}/{} {why} ({} on {:?})",
                    p.metadata.namespace, p.metadata.name, p.status.phase, p.spec.node_name
                ));
            }
        }
        // What the API server shows running runs.
        for (n, k) in &c.kubelets {
            let shown: usize = c
                .store
                .pods_on_node(n)
                .filter(|p| !p.is_terminal() && !p.metadata.is_deleting())
                .map(|p| {
                    p.status
                        .container_statuses
                        .iter()
                        .filter(|s| s.state.running.is_some())
                        .count()
                })
                .sum();
            let running = k.running(&c.store).len();
            if shown > running {
                found.push(format!(
                    "node {n}: the API server shows {shown} running containers, its runtime runs {running}"
                ));
            }
        }
        for ds in c.store.list::<DaemonSet>() {
            let s = &ds.status;
            if s.observed_generation < ds.metadata.generation
                || s.current_number_scheduled != s.desired_number_scheduled
                || s.number_ready != s.desired_number_scheduled
                || s.updated_number_scheduled != s.desired_number_scheduled
            {
                found.push(format!(
                    "daemonset {} did not converge: desired {} current {} ready {} updated {}",
                    ds.metadata.name,
                    s.desired_number_scheduled,
                    s.current_number_scheduled,
                    s.number_ready,
                    s.updated_number_scheduled
                ));
            }
        }
        for j in c.store.list::<Job>() {
            if j.is_finished().is_none() && !j.spec.is_suspended() {
                found.push(format!(
                    "job {}/{} did not finish: {} active, {} succeeded, {} failed",
                    j.metadata.namespace,
                    j.metadata.name,
                    j.status.active,
                    j.status.succeeded,
                    j.status.failed
                ));
            }
        }
        for ns in c.store.list::<Namespace>() {
            if ns.metadata.is_deleting() {
                found.push(format!("namespace {} stuck Terminating", ns.metadata.name));
            }
        }
        for f in found {
            self.violation(f);
        }
    }
}

/// A Deployment whose controller has seen its spec and which has all its replicas
/// updated, ready and available in one ReplicaSet.
fn complete(c: &Cluster, d: &Deployment) -> bool {
    let s = &d.status;
    let r = d.spec.replicas;
    let active = owned_sets(c, d)
        .iter()
        .filter(|rs| rs.spec.replicas > 0)
        .count();
    s.observed_generation >= d.metadata.generation
        && s.replicas == r
        && s.updated_replicas == r
        && s.ready_replicas == r
        && s.available_replicas == r
        && active <= 1
}

/// Upstream's own stall: a Recreate Deployment scaled (or switched to Recreate with a
/// new count) mid-rollout keeps two active ReplicaSets for ever, because `scale`
/// spreads a new count only for RollingUpdate (see `deployment::sync::scale`).
fn recreate_stall(c: &Cluster, d: &Deployment) -> bool {
    let sets: Vec<ReplicaSet> = owned_sets(c, d).into_iter().cloned().collect();
    d.spec.strategy.type_ == "Recreate"
        && sets.iter().filter(|rs| rs.spec.replicas > 0).count() >= 2
        && is_scaling_event(d, &sets)
}

fn owned_sets<'a>(c: &'a Cluster, d: &Deployment) -> Vec<&'a ReplicaSet> {
    c.store
        .dependent_objects(&d.metadata.uid)
        .filter_map(|o| match o {
            Object::ReplicaSet(rs) => Some(rs.as_ref()),
            _ => None,
        })
        .filter(|rs| {
            rs.metadata
                .controller_ref()
                .is_some_and(|r| r.uid == d.metadata.uid)
        })
        .collect()
}

fn owned_pods<'a>(c: &'a Cluster, uid: &str) -> Vec<&'a Pod> {
    c.store
        .dependent_objects(uid)
        .filter_map(|o| match o {
            Object::Pod(p) => Some(p.as_ref()),
            _ => None,
        })
        .collect()
}

/// Everything a learner or the why-views can see at the end, for the determinism
/// digest.
fn final_state(c: &mut Cluster) -> String {
    let mut out = String::new();
    for line in [
        "kubectl get pods,rs,deploy,nodes -A -o wide",
        "kubectl get pods,rs,deploy,nodes,pdb,leases -A -o yaml",
        "kubectl describe nodes",
        "kubectl describe deployments",
    ] {
        let o = command::run(c, line, None, &NoFiles);
        out.push_str(&format!("$ {line}\n{}", o.output));
    }
    out.push_str(&visible(c));
    for f in &c.failed {
        out.push_str(&format!("{} {} {}\n", f.time, f.writer, f.error));
    }
    out.push_str(&format!("now {} quiescent {}\n", c.now(), c.is_quiescent()));
    out
}

/// Everything a learner or the why-views can see of a run: the console transcript,
/// every write in the watch log with its writer and change, and the scheduler's last
/// attempts — what two builds (or two runs) must agree on byte for byte.
pub fn visible(c: &Cluster) -> String {
    let mut out = c.transcript();
    for e in &c.store.log {
        out.push_str(&format!(
            "{} {} {} {:?} {} {} {}\n",
            e.resource_version, e.verb, e.writer, e.key, e.reason, e.change, e.owner_uid
        ));
    }
    for (key, a) in &c.scheduler().last_attempt {
        out.push_str(&format!("{key:?} {a:?}\n"));
    }
    out
}
