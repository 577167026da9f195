//! What a run shows, byte for byte: the determinism digest two builds or two runs must
//! agree on.

use crate::cluster::Cluster;
use crate::command::{self, NoFiles};

/// Everything a learner or the why-views can see at the end, for the determinism
/// digest.
pub(super) fn final_state(c: &mut Cluster) -> String {
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
