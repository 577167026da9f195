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
//! **When it comes back** the held controller timers are given back. Each kubelet
//! reconnects on its own schedule: its Lease and status loops retry every 10 s, so it
//! reports at its next heartbeat (`Kubelet::heal`: renew the Lease, post what changed),
//! and its node's kube-proxy resyncs then. The controller manager and the scheduler do
//! not resume at once after an outage longer than their 10 s renew deadline: their
//! leaders gave up and restarted during it (`cluster::leader_election`), and a new
//! leader takes the Lease only after seeing it unrenewed for 15 s. Its node lifecycle
//! controller, a new process, starts each node's grace period then, by which time the
//! kubelets have reported: the nodes stay Ready, and a node that died during the
//! outage is found NotReady one grace period after the new leader started. After a
//! shorter outage the leader keeps leading and its loops resume at once. The same
//! holds for an API server outage and for etcd's lost quorum (`cluster::etcd`), which
//! stall the components alike.
//!
//! Simplifications: one API server (no HA replicas); a node cannot be powered on or
//! added while the control plane is stalled (its kubelet could not register).

use super::*;

/// What a stalled control plane (the API server down, or etcd without quorum) holds:
/// the controller timers that came due, in order, and the kubelets it cut off (a node
/// the learner partitioned stays partitioned).
#[derive(Clone, Debug, Default)]
pub struct Outage {
    /// Controller and scheduler timers that fired while the API server was down.
    pub(super) held: Vec<Timer>,
    /// Kubelets the outage cut off.
    pub(super) cut: BTreeSet<String>,
    /// When it began.
    pub since: SimTime,
}

pub use crate::apiserver::request::Unavailable;

impl Cluster {
    /// Whether the API server is down (`sim apiserver down`).
    pub fn apiserver_down(&self) -> bool {
        self.apiserver_stopped.is_some()
    }

    /// When the API server went down, if it is down.
    pub fn apiserver_down_since(&self) -> Option<SimTime> {
        self.apiserver_stopped
    }

    /// Whether requests fail, and why: the API server down comes first (nothing
    /// answers at all), then etcd without quorum.
    pub fn unavailable(&self) -> Option<Unavailable> {
        if self.apiserver_down() {
            Some(Unavailable::ApiServerDown)
        } else if self.etcd.cut_since.is_some() {
            // The API server's calls hang whatever the members could do.
            Some(Unavailable::EtcdUnreachable)
        } else if !self.etcd.has_quorum() {
            Some(Unavailable::EtcdNoQuorum)
        } else {
            None
        }
    }

    /// Whether the control plane is stalled (the API server down or etcd without
    /// quorum), and since when.
    pub fn stalled_since(&self) -> Option<SimTime> {
        self.outage.as_ref().map(|o| o.since)
    }

    /// What goal checks compare to skip a check that would find what the last one
    /// found: the store revision, the requests kubectl sent (a refused one writes
    /// nothing), while the control plane is stalled (nothing is written, yet "down
    /// for N seconds" moves) the simulated second too, and etcd's maintenance.
    pub fn goal_epoch(&self) -> (u64, u64, u64, u64) {
        let second = if self.outage.is_some() {
            self.now / 1000
        } else {
            0
        };
        (
            self.store.revision(),
            self.api.requests.recent.back().map_or(0, |r| r.n),
            second,
            // etcdctl's maintenance (a compaction, a defragmentation, a snapshot)
            // writes no object, yet changes what `sim expect etcd` reads.
            self.store.etcd_epoch() ^ (self.etcd.snapshots.len() as u64) << 48,
        )
    }

    /// Stop the API server: every kubelet is cut off, every controller stalls.
    pub fn stop_apiserver(&mut self) -> Result<(), String> {
        if self.apiserver_stopped.is_some() {
            return Err("the API server is already down".into());
        }
        self.apiserver_stopped = Some(self.now);
        self.stall();
        Ok(())
    }

    /// Start the API server again: the controllers resume, the kubelets reconnect at
    /// their next heartbeat (unless etcd is still without quorum).
    pub fn start_apiserver(&mut self) -> Result<(), String> {
        if self.apiserver_stopped.take().is_none() {
            return Err("the API server is already up".into());
        }
        self.resume_if_healthy();
        Ok(())
    }

    /// The control plane stops answering (if it was not stalled already): every
    /// connected kubelet is cut off, and controller timers are held from now on.
    pub(super) fn stall(&mut self) {
        if self.outage.is_some() {
            return;
        }
        let mut cut = BTreeSet::new();
        for (name, k) in self.kubelets.iter_mut() {
            if k.up && !k.partitioned {
                k.partition(&self.store);
                k.apiserver_only = true;
                cut.insert(name.clone());
            }
        }
        // A kubelet still waiting to reconnect from the last stall stays cut off.
        cut.append(&mut self.reconnecting);
        self.outage = Some(Outage {
            held: Vec::new(),
            cut,
            since: self.now,
        });
        self.recount_foreground();
    }

    /// Once both the API server and etcd's quorum are back: the held timers run now,
    /// and each kubelet the stall cut off reconnects at its next heartbeat.
    pub(super) fn resume_if_healthy(&mut self) {
        if self.unavailable().is_some() {
            return;
        }
        let Some(outage) = self.outage.take() else {
            return;
        };
        self.reconnecting = outage.cut;
        self.recount_foreground();
        // The held timers run now, in the order they came due. Each is foreground or
        // background as it was: push them back through the queue.
        let now = self.now;
        for t in outage.held {
            self.push_timer(now, t);
        }
    }

    /// A kubelet waiting to reconnect after a stall renews its Lease and reports what
    /// changed (its heartbeat came: its loops retry on their period).
    pub(super) fn reconnect_kubelet(&mut self, name: &str) {
        if !self.reconnecting.remove(name) {
            return;
        }
        let now = self.now;
        let Some(k) = self.kubelets.get_mut(name) else {
            return;
        };
        if !k.up || !k.partitioned || !k.apiserver_only {
            return;
        }
        let out = k.heal(&self.store, now);
        self.kubelet_output(name, out);
        self.kube_proxy_started(name);
        self.recount_foreground();
    }

    /// While the control plane is stalled, a controller's or the scheduler's timer is
    /// held (returns None); otherwise it is given back to run. The elections' own tries
    /// run and fail (`cluster::leader_election`).
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
