//! Several API server replicas (`sim apiserver replicas 3`), as kubeadm's stacked
//! high-availability control plane runs them: one `kube-apiserver` per control-plane
//! host (`kube-apiserver-control-plane-N`) behind a load balancer at the cluster's
//! endpoint. kubectl and the kubelets reach the API through the load balancer, which
//! sends them to a replica that is up: while one is, nothing they see changes. The
//! controller manager and the scheduler on a host talk to *that host's* API server
//! (kubeadm's kubeconfigs for them name the local endpoint), so a replica going down
//! takes its host's components off the API: a leader there cannot renew its Lease,
//! gives up after the renew deadline, and a standby on another host takes over once
//! the Lease expires — the failover an HA control plane is built for. With every
//! replica down the API server is down (`cluster::outage`).
//!
//! Upstream: `cmd/kubeadm/app/phases/kubeconfig/kubeconfig.go` (the controller
//! manager's and scheduler's kubeconfigs use the local API endpoint),
//! `docs/…/high-availability` (the load balancer in front of the API servers).
//!
//! Simplification: the load balancer's health checks are instant (no request meets a
//! replica that has just gone down).

use super::*;

/// The API server replicas and which are down.
#[derive(Clone, Debug)]
pub struct ApiServers {
    /// How many run (one per control-plane host).
    pub replicas: usize,
    /// The indexes of those down.
    pub down: BTreeSet<usize>,
}

impl Default for ApiServers {
    fn default() -> Self {
        ApiServers {
            replicas: 1,
            down: BTreeSet::new(),
        }
    }
}

/// The most replicas `sim apiserver replicas` runs.
pub const MAX_APISERVERS: usize = 5;

/// Replica `i`'s name (its static Pod's): `kube-apiserver-control-plane-1`.
pub fn replica_name(i: usize) -> String {
    format!("kube-apiserver-control-plane-{}", i + 1)
}

impl ApiServers {
    /// The replica a name means (`kube-apiserver-control-plane-2` or
    /// `control-plane-2`).
    pub fn parse(&self, name: &str) -> Option<usize> {
        let host = name.strip_prefix("kube-apiserver-").unwrap_or(name);
        let n: usize = host.strip_prefix("control-plane-")?.parse().ok()?;
        (n >= 1 && n <= self.replicas).then(|| n - 1)
    }

    /// How many are up.
    pub fn up(&self) -> usize {
        self.replicas - self.down.len()
    }
}

impl Cluster {
    /// The API server replicas.
    pub fn apiservers(&self) -> &ApiServers {
        &self.apiservers
    }

    /// Whether a component replica on control-plane host `i` reaches the API: its
    /// host's API server is up (a host without one goes through the load balancer).
    pub(super) fn host_reaches_apiserver(&self, i: usize) -> bool {
        if i < self.apiservers.replicas {
            !self.apiservers.down.contains(&i)
        } else {
            self.apiservers.up() > 0
        }
    }

    /// `sim apiserver replicas N`.
    pub fn set_apiserver_replicas(&mut self, n: usize) -> Result<(), String> {
        if n == 0 || n > MAX_APISERVERS {
            return Err(format!("replicas must be between 1 and {MAX_APISERVERS}"));
        }
        if self.apiserver_down() {
            return Err("the API server is down: start it first (sim apiserver up)".into());
        }
        let had = self.apiservers.replicas;
        self.apiservers.replicas = n;
        self.apiservers.down.retain(|i| *i < n);
        for i in n..had {
            self.stop_apiserver_identity(i);
        }
        for i in had..n {
            self.start_apiserver_identity(i);
        }
        self.release_reachable_leaders();
        Ok(())
    }

    /// `sim apiserver down NAME`: one replica stops; the last one up stopping is the
    /// API server down.
    pub fn stop_apiserver_replica(&mut self, i: usize) -> Result<(), String> {
        if self.apiserver_down() || !self.apiservers.down.insert(i) {
            return Err(format!("{} is already down", replica_name(i)));
        }
        if self.apiservers.up() == 0 {
            self.stop_apiserver()?;
        }
        self.stop_apiserver_identity(i);
        Ok(())
    }

    /// `sim apiserver up NAME`.
    pub fn start_apiserver_replica(&mut self, i: usize) -> Result<(), String> {
        if !self.apiservers.down.remove(&i) {
            return Err(format!("{} is already up", replica_name(i)));
        }
        if self.apiserver_down() {
            self.start_apiserver()?;
        }
        self.start_apiserver_identity(i);
        self.release_reachable_leaders();
        Ok(())
    }

    /// Every replica down (`sim apiserver down` without a name, after
    /// [`Cluster::stop_apiserver`]).
    pub fn mark_all_apiservers_down(&mut self) {
        self.apiservers.down = (0..self.apiservers.replicas).collect();
        for i in 0..self.apiservers.replicas {
            self.stop_apiserver_identity(i);
        }
    }

    /// Every replica up (`sim apiserver up` without a name).
    pub fn mark_all_apiservers_up(&mut self) {
        let down = std::mem::take(&mut self.apiservers.down);
        for i in down {
            self.start_apiserver_identity(i);
        }
        self.release_reachable_leaders();
    }
}
