//! The cluster a lesson starts from: its nodes, then its setup script.

use super::format::Scenario;
use crate::api::LABEL_TOPOLOGY_ZONE;
use crate::apiserver::FastPaths;
use crate::cluster::Cluster;
use crate::command::{self, script, NoFiles};

/// The cluster a scenario starts from: its nodes, then its setup script. An error
/// names the setup line that failed and what it printed.
pub fn build(s: &Scenario) -> Result<Cluster, String> {
    build_with(s, FastPaths::ALL)
}

/// [`build`] with the store's shortcuts set to `fast`.
pub fn build_with(s: &Scenario, fast: FastPaths) -> Result<Cluster, String> {
    build_observed(s, fast, &mut |_| {})
}

/// [`build_with`], showing `observe` the world before each setup line runs (the nodes
/// are there, the line's work is not). A page keeps these as the first moments of its
/// history, so a learner can rewind to 0:00 and watch the opening story: the world
/// between two of them is the earlier one with the clock played on, which is what a
/// setup line that moves the clock (`sim settle`, `sim advance`, a waiting
/// `kubectl rollout status`) does.
pub fn build_observed(
    s: &Scenario,
    fast: FastPaths,
    observe: &mut dyn FnMut(&Cluster),
) -> Result<Cluster, String> {
    let mut c = Cluster::new(s.seed);
    c.store.fast = fast;
    if s.cluster.dns {
        c.install_cluster_dns();
    }
    for n in &s.cluster.nodes {
        let mut labels: Vec<String> = n.labels.iter().map(|(k, v)| format!("{k}={v}")).collect();
        if let Some(z) = &n.zone {
            labels.push(format!("{LABEL_TOPOLOGY_ZONE}={z}"));
        }
        let mut line = format!(
            "sim node add {} --cpu {} --memory {} --pods {}",
            n.name, n.cpu, n.memory, n.pods
        );
        if !labels.is_empty() {
            line.push_str(&format!(" --labels {}", labels.join(",")));
        }
        if !n.taints.is_empty() {
            line.push_str(&format!(" --taints {}", n.taints.join(",")));
        }
        let o = command::run(&mut c, &line, None, &NoFiles);
        if !o.ok {
            return Err(format!("cluster.nodes {}: {}", n.name, o.output.trim()));
        }
    }
    let lines = script::parse(&s.setup, "setup")?;
    for l in &lines {
        observe(&c);
        let o = command::run(&mut c, &l.command, l.stdin.as_deref(), &NoFiles);
        if o.ok == l.expect_error {
            if o.ok {
                return Err(format!(
                    "setup line {}: {}: succeeded, but the line says {}",
                    l.line,
                    l.command,
                    script::EXPECT_ERROR
                ));
            }
            return Err(format!(
                "setup line {}: {}: {}",
                l.line,
                l.command,
                o.output.trim()
            ));
        }
    }
    Ok(c)
}
