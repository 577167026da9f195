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
//!
//! The files: [`step`] (a run's steps and outcome), [`actions`] (the random actions and
//! their manifests), [`runner`] (playing steps, healing, the end), [`invariants`] (the
//! checks above), [`digest`] (what a run shows, byte for byte).

mod actions;
mod digest;
mod invariants;
mod runner;
mod step;

pub use actions::{manifest, IMAGES};
pub use digest::visible;
pub use step::{Outcome, Step};

use crate::rng::Rng;
use actions::random_step;
use runner::Runner;

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
        let s = random_step(&mut rng, step, &nodes, &pods, &mut deployments);
        r.exec(s);
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
