//! The control plane as its bar draws it: the API server replicas, the etcd members
//! and the two leader elections, read once from the cluster into a small comparable
//! model (the bar redraws only when one of them changes).

use kubeplay_engine::cluster::apiservers::replica_name;
use kubeplay_engine::cluster::etcd::{quorum_of, tolerated_failures};
use kubeplay_engine::cluster::leader_election::Elected;
use kubeplay_engine::cluster::Cluster;
use kubeplay_engine::time::SimTime;

/// What the control-plane bar shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ControlPlaneModel {
    /// Since when the whole API server is stopped (`sim apiserver down`).
    pub apiserver_down_since: Option<SimTime>,
    /// The API server replicas behind the load balancer: (name, up).
    pub apiservers: Vec<(String, bool)>,
    /// The etcd members.
    pub etcd: Vec<EtcdMember>,
    /// Members up.
    pub etcd_up: usize,
    /// Members needed for a quorum.
    pub quorum: usize,
    /// How long etcd has had no quorum (None: it has one).
    pub quorum_lost_for: Option<SimTime>,
    /// How long the API server has been cut off from etcd (None: it reaches it).
    pub etcd_cut_for: Option<SimTime>,
    /// etcd's data: (revision, DB size, size in use), in bytes, once someone looked
    /// inside etcd (`Etcd::data_shown`).
    pub etcd_data: Option<(u64, u64, u64)>,
    /// The leader-elected components, in [`Elected::ALL`]'s order.
    pub leaders: Vec<LeaderChip>,
    /// Replicas of kube-controller-manager and kube-scheduler.
    pub leader_replicas: usize,
}

/// One etcd member's chip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EtcdMember {
    /// `etcd-1`…
    pub name: String,
    /// Running.
    pub up: bool,
    /// The Raft leader.
    pub leader: bool,
}

/// One leader-elected component's chip.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderChip {
    /// The Lease's name (`kube-controller-manager`), which `sim leader kill` takes.
    pub lease: &'static str,
    /// The chip's short label.
    pub short: &'static str,
    /// The leader: (host, identity).
    pub holder: Option<(String, String)>,
    /// How long no replica has held the Lease (with no holder).
    pub leaderless_for: SimTime,
}

/// A member count the bar offers, with its quorum and the failures it tolerates.
pub fn etcd_size_figures(members: usize) -> (usize, usize) {
    (quorum_of(members), tolerated_failures(members))
}

impl ControlPlaneModel {
    /// The model of `c`'s control plane now.
    pub fn of(c: &Cluster) -> Self {
        let now = c.now();
        let etcd = c.etcd();
        let apiservers = c.apiservers();
        let elections = c.elections();
        ControlPlaneModel {
            apiserver_down_since: c.apiserver_down_since(),
            apiservers: (0..apiservers.replicas)
                .map(|i| (replica_name(i), !apiservers.down.contains(&i)))
                .collect(),
            etcd: etcd
                .members
                .iter()
                .enumerate()
                .map(|(i, m)| EtcdMember {
                    name: m.name.clone(),
                    up: m.up,
                    leader: etcd.leader == Some(i),
                })
                .collect(),
            etcd_up: etcd.up_count(),
            quorum: etcd.quorum(),
            quorum_lost_for: etcd.lost_since.map(|s| now.saturating_sub(s)),
            etcd_cut_for: etcd.cut_since.map(|s| now.saturating_sub(s)),
            etcd_data: etcd.data_shown.then(|| {
                let db = c.store.etcd_status_now();
                (db.revision, db.db_size, db.db_size_in_use)
            }),
            leaders: Elected::ALL
                .into_iter()
                .map(|e| {
                    let el = elections.get(e);
                    LeaderChip {
                        lease: e.name(),
                        short: match e {
                            Elected::ControllerManager => "controller-manager",
                            Elected::Scheduler => "scheduler",
                        },
                        holder: el.leader().map(|l| (l.host.clone(), l.identity.clone())),
                        leaderless_for: el.leaderless_since.map_or(0, |s| now.saturating_sub(s)),
                    }
                })
                .collect(),
            leader_replicas: elections.get(Elected::ControllerManager).candidates.len(),
        }
    }
}
