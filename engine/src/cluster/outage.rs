//! The API server as a part that can fail: `sim apiserver down|up`.
//!
//! **While it is down** nothing reaches the store. kubectl gets kubectl's words for a
//! refused connection. The controllers and the scheduler cannot list, watch or write:
//! their timers are held, so no reconcile runs (upstream they spin on errors against
//! an address that refuses; nothing they decide can land). Every kubelet is cut off as
//! in a partition (`kubelet::Kubelet::partition`): its containers keep running, a
//! crashed one is restarted locally, and what it would report waits. Every node's
//! kube-proxy keeps the rules it has and routes by them: the data plane keeps
//! serving, which is the point the course makes (notes-api: control plane down, data
//! plane still serving).
//!
//! **When it comes back** the kubelets reconnect (they renew their Leases and report
//! what changed, `Kubelet::heal`), the kube-proxies resync, and the held controller
//! timers run, as controllers whose informers relist and whose queues resume. The
//! kubelets report before any controller looks, so the node lifecycle controller sees
//! fresh Leases and marks no node NotReady for the outage alone.
//!
//! Simplifications: one API server (no HA replicas), and etcd is not modelled
//! separately; a node cannot be powered on or added while the API server is down (its
//! kubelet could not register).

use super::*;

/// What an API server outage holds: the controller timers that came due, in order,
/// and the kubelets it cut off (a node the learner partitioned stays partitioned).
#[derive(Clone, Debug, Default)]
pub struct Outage {
    /// Controller and scheduler timers that fired while the API server was down.
    pub(super) held: Vec<Timer>,
    /// Kubelets the outage cut off.
    pub(super) cut: BTreeSet<String>,
    /// When it began.
    pub since: SimTime,
}

/// The address kubectl and the kubelets reach the API server at.
pub const API_SERVER_HOST_PORT: &str = "10.0.0.2:6443";

/// kubectl's last line when nothing listens at the API server's address.
pub fn connection_refused_line() -> String {
    format!(
        "The connection to the server {API_SERVER_HOST_PORT} was refused - did you specify the right host or port?"
    )
}

impl Cluster {
    /// Whether the API server is down (`sim apiserver down`).
    pub fn apiserver_down(&self) -> bool {
        self.outage.is_some()
    }

    /// When the API server went down, if it is down.
    pub fn apiserver_down_since(&self) -> Option<SimTime> {
        self.outage.as_ref().map(|o| o.since)
    }

    /// Stop the API server: every kubelet is cut off, every controller stalls.
    pub fn stop_apiserver(&mut self) -> Result<(), String> {
        if self.outage.is_some() {
            return Err("the API server is already down".into());
        }
        let mut cut = BTreeSet::new();
        for (name, k) in self.kubelets.iter_mut() {
            if k.up && !k.partitioned {
                k.partition(&self.store);
                k.apiserver_only = true;
                cut.insert(name.clone());
            }
        }
        self.outage = Some(Outage {
            held: Vec::new(),
            cut,
            since: self.now,
        });
        self.recount_foreground();
        Ok(())
    }

    /// Start the API server again: the kubelets reconnect and report, the proxies
    /// resync, then the controllers resume.
    pub fn start_apiserver(&mut self) -> Result<(), String> {
        let Some(outage) = self.outage.take() else {
            return Err("the API server is already up".into());
        };
        for name in &outage.cut {
            let now = self.now;
            let Some(k) = self.kubelets.get_mut(name) else {
                continue;
            };
            if !k.up || !k.partitioned {
                continue;
            }
            let out = k.heal(&self.store, now);
            self.kubelet_output(name, out);
            self.proxies.node_restarted(name);
        }
        self.recount_foreground();
        // The held timers run now, in the order they came due. Each is foreground or
        // background as it was: push them back through the queue.
        let now = self.now;
        for t in outage.held {
            self.push_timer(now, t);
        }
        Ok(())
    }

    /// While the API server is down, a controller's or the scheduler's timer is held
    /// (returns None); otherwise it is given back to run.
    pub(super) fn hold_if_down(&mut self, timer: Timer) -> Option<Timer> {
        match (&mut self.outage, &timer) {
            (Some(o), Timer::Process(_) | Timer::Requeue(_) | Timer::Own(_)) => {
                o.held.push(timer);
                None
            }
            _ => Some(timer),
        }
    }
}
