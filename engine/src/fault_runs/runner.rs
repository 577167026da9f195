//! Playing a run: each step through the console as a learner types it, the invariants
//! checked after it, and at the end every fault stopped, the cluster settled and
//! checked for convergence.

use super::actions::IMAGES;
use super::digest::final_state;
use super::invariants::{rollout_watch, Invariants};
use super::step::{Outcome, Step};
use crate::api::*;
use crate::apiserver::ObjKey;
use crate::cluster::Cluster;
use crate::command::{self, NoFiles};
use crate::rng::Rng;
use crate::time::SECOND;
use std::collections::BTreeSet;

/// A run in progress: its cluster, the steps played, the console transcript.
pub(super) struct Runner {
    c: Cluster,
    steps: Vec<Step>,
    ok: Vec<bool>,
    transcript: String,
    /// Deployments to hold to their rollout bounds during the next advance, with
    /// whether unavailability is checked too (not for a scale-up).
    watch: Vec<(String, bool)>,
    /// The invariants' memory and the violations found.
    inv: Invariants,
}

impl Runner {
    /// A run on a fresh cluster with the default nodes, seeded.
    pub(super) fn new(seed: u64) -> Self {
        Runner {
            c: Cluster::standard(seed),
            steps: vec![],
            ok: vec![],
            transcript: String::new(),
            watch: vec![],
            inv: Invariants::default(),
        }
    }

    /// The names `kubectl get WHAT -o name` lists (none while the API server is down).
    pub(super) fn names(&mut self, what: &str) -> Vec<String> {
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

    /// A random wait of 1 to 90 s, as a step.
    pub(super) fn advance(&mut self, rng: &mut Rng) {
        let wait = 1 + rng.below(90);
        self.exec(Step::new(format!("sim advance {wait}s")));
    }

    /// Run one recorded step and check the invariants after it.
    pub(super) fn exec(&mut self, s: Step) {
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
                    self.inv.check_rollout_bounds(&self.c, &self.watch);
                }
                self.transcript
                    .push_str(&format!("$ {}\n(advanced)\n", s.line));
                true
            }
            _ => {
                self.watch = rollout_watch(&self.c, &s.line);
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
        self.inv.check_invariants(&self.c);
    }

    /// Every fault stops, the cluster settles, and it must have converged.
    pub(super) fn finish(mut self) -> Outcome {
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
        self.inv.check_invariants(&self.c);
        if !settled {
            let busy = self.c.busy_work(3);
            self.inv.violation(
                self.c.now(),
                format!("sim settle --max 20m did not settle: {busy:?}"),
            );
        }
        self.inv.check_converged(&self.c);
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
            self.inv.violation(
                self.c.now(),
                format!("still writing after it settled: {writes:?}"),
            );
        }
        self.inv.check_invariants(&self.c);
        self.transcript.push_str(&final_state(&mut self.c));
        Outcome {
            seed: self.c.seed(),
            steps: chaos_steps,
            ok: chaos_ok,
            transcript: self.transcript,
            violations: self.inv.violations,
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
        // An autoscaler keeps acting on its load: gone, the replicas it set stay.
        if self
            .c
            .store
            .list::<HorizontalPodAutoscaler>()
            .next()
            .is_some()
        {
            out.push("kubectl delete hpa --all -A".to_string());
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
}
