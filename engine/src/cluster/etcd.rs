//! etcd as a Raft cluster of members that can fail: `sim etcd members N`,
//! `sim etcd down|up etcd-N`, `sim etcd isolate|rejoin etcd-N`, `sim etcd status`.
//!
//! A write commits once a quorum of ⌊n/2⌋+1 members has it, so n members tolerate
//! ⌊(n−1)/2⌋ failures: 1 member tolerates none, 3 tolerate one, 5 tolerate two (the
//! course's table). While a quorum is up the cluster works as before; when the leader
//! is among the failed members the others elect a new one.
//!
//! **Without quorum** the API server still answers (discovery, `kubectl version`,
//! `auth can-i` are served from its memory), but every request that reaches the
//! store times out: a write cannot commit, and a read cannot either, because kubectl's
//! reads are consistent reads (since v1.31 the watch cache serves them only after
//! asking etcd for its current revision, a linearizable read; a plain GET goes to etcd
//! directly). kubectl prints the error the API server passes on from etcd:
//! `Error from server: etcdserver: request timed out`. The components stall exactly as
//! when the API server is down (see `cluster::outage`): the controllers' and the
//! scheduler's writes cannot land, the kubelets keep their containers running but
//! cannot report, the Node Leases go stale.
//!
//! Upstream: etcd's `server/etcdserver` (`ErrTimeout`, "etcdserver: request timed
//! out"; the linearizable read loop), `staging/src/k8s.io/apiserver/pkg/storage/cacher`
//! (consistent lists from the cache), raft's quorum (`quorum.MajorityConfig`).
//!
//! **A member cut off from its peers** (`sim etcd isolate`) keeps running: its process
//! is alive and answers locally, but it cannot take part in a majority. Isolate enough
//! members and the cluster has no quorum with every process alive — the case the course
//! tells apart from stopped members ("etcd 进程还活着，但节点之间无法形成多数派"): the API
//! server times out the same way, and `sim etcd status` shows every member up.
//!
//! Simplifications: the Raft election takes no simulated time (a new leader is there
//! at once), and membership changes (`sim etcd members`) start every member afresh.

use super::*;

/// The most members `sim etcd members` accepts (etcd recommends at most 7).
pub const MAX_MEMBERS: usize = 7;

/// One etcd member.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct EtcdMember {
    /// `etcd-1`, `etcd-2`…
    pub name: String,
    /// Whether it runs.
    pub up: bool,
    /// Running, but cut off from its peers by the network (it counts for no majority).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub isolated: bool,
}

impl EtcdMember {
    /// Up and reachable by its peers: a member a majority can count.
    pub fn voting(&self) -> bool {
        self.up && !self.isolated
    }
}

/// The etcd cluster behind the API server.
#[derive(Clone, Debug, PartialEq)]
pub struct Etcd {
    /// Members in order.
    pub members: Vec<EtcdMember>,
    /// The Raft leader (an index into `members`), if there is one.
    pub leader: Option<usize>,
    /// When the quorum was lost, if it is lost.
    pub lost_since: Option<SimTime>,
    /// Raft's term: one more at every election.
    pub term: u64,
    /// When the network path from the API server to etcd broke, while it is broken
    /// (`sim etcd disconnect`): the members keep their quorum.
    pub cut_since: Option<SimTime>,
    /// Snapshots saved with `sim etcd snapshot save`, oldest first.
    pub snapshots: Vec<super::etcd_data::EtcdSnapshot>,
    /// Someone looked inside etcd or acted on its data (`sim etcdctl`, a snapshot, a
    /// wipe, a cut path): the page shows its revision and size from then on.
    pub data_shown: bool,
}

impl Default for Etcd {
    fn default() -> Self {
        Etcd::with_members(1)
    }
}

impl Etcd {
    /// `n` members, all up, the first one leading.
    pub fn with_members(n: usize) -> Self {
        Etcd {
            members: (1..=n)
                .map(|i| EtcdMember {
                    name: format!("etcd-{i}"),
                    up: true,
                    isolated: false,
                })
                .collect(),
            leader: Some(0),
            lost_since: None,
            // A new member elects itself at term 2 (its first campaign moves it from 1).
            term: 2,
            cut_since: None,
            snapshots: Vec::new(),
            data_shown: false,
        }
    }

    /// ⌊n/2⌋+1: how many members must be up for a write to commit.
    pub fn quorum(&self) -> usize {
        quorum_of(self.members.len())
    }

    /// How many members are up.
    pub fn up_count(&self) -> usize {
        self.members.iter().filter(|m| m.up).count()
    }

    /// How many members are up and cut off from their peers.
    pub fn isolated_count(&self) -> usize {
        self.members.iter().filter(|m| m.up && m.isolated).count()
    }

    /// Whether a quorum of members is up and can reach each other.
    pub fn has_quorum(&self) -> bool {
        self.members.iter().filter(|m| m.voting()).count() >= self.quorum()
    }

    /// The leader's name.
    pub fn leader_name(&self) -> Option<&str> {
        self.leader
            .and_then(|i| self.members.get(i))
            .map(|m| m.name.as_str())
    }

    fn index(&self, name: &str) -> Result<usize, String> {
        self.members
            .iter()
            .position(|m| m.name == name)
            .ok_or_else(|| {
                format!(
                    "no etcd member \"{name}\" (members: {})",
                    self.members
                        .iter()
                        .map(|m| m.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            })
    }

    /// Raft: with a quorum up, the leader is kept if it is up, else the first member
    /// that is up wins the election; without a quorum nobody can be elected.
    fn elect(&mut self) {
        if !self.has_quorum() {
            self.leader = None;
            return;
        }
        if self.leader.is_some_and(|i| self.members[i].voting()) {
            return;
        }
        self.leader = self.members.iter().position(EtcdMember::voting);
        self.term += 1;
    }
}

/// ⌊n/2⌋+1.
pub fn quorum_of(n: usize) -> usize {
    n / 2 + 1
}

/// The failures `n` members tolerate: ⌊(n−1)/2⌋.
pub fn tolerated_failures(n: usize) -> usize {
    n.saturating_sub(1) / 2
}

impl Cluster {
    /// The etcd cluster.
    pub fn etcd(&self) -> &Etcd {
        &self.etcd
    }

    /// Note that someone looked inside etcd (see [`Etcd::data_shown`]).
    pub fn show_etcd_data(&mut self) {
        self.etcd.data_shown = true;
    }

    /// Whether etcd has lost its quorum.
    pub fn etcd_lost_quorum(&self) -> bool {
        !self.etcd.has_quorum()
    }

    /// Stop an etcd member; losing the quorum stalls the control plane.
    pub fn etcd_member_down(&mut self, name: &str) -> Result<(), String> {
        let i = self.etcd.index(name)?;
        if !self.etcd.members[i].up {
            return Err(format!("etcd member \"{name}\" is already down"));
        }
        let had = self.etcd.has_quorum();
        self.etcd.members[i].up = false;
        self.etcd.elect();
        if had && !self.etcd.has_quorum() {
            self.etcd.lost_since = Some(self.now);
            self.stall();
        }
        Ok(())
    }

    /// Start an etcd member again; regaining the quorum lets the control plane resume.
    pub fn etcd_member_up(&mut self, name: &str) -> Result<(), String> {
        let i = self.etcd.index(name)?;
        if self.etcd.members[i].up {
            return Err(format!("etcd member \"{name}\" is already up"));
        }
        self.etcd.members[i].up = true;
        self.etcd.elect();
        if self.etcd.has_quorum() && self.etcd.lost_since.take().is_some() {
            self.resume_if_healthy();
        }
        Ok(())
    }

    /// Cut a running etcd member off from its peers (`rejoin: false`), or let it reach
    /// them again: its process runs on either way. Losing the majority this way stalls
    /// the control plane as stopping members does.
    pub fn etcd_member_isolated(&mut self, name: &str, isolated: bool) -> Result<(), String> {
        let i = self.etcd.index(name)?;
        let m = &self.etcd.members[i];
        if !m.up {
            return Err(format!("etcd member \"{name}\" is down: start it first"));
        }
        if m.isolated == isolated {
            return Err(format!(
                "etcd member \"{name}\" is already {}",
                if isolated {
                    "cut off from its peers"
                } else {
                    "with its peers"
                }
            ));
        }
        let had = self.etcd.has_quorum();
        self.etcd.members[i].isolated = isolated;
        self.etcd.elect();
        if had && !self.etcd.has_quorum() {
            self.etcd.lost_since = Some(self.now);
            self.stall();
        } else if !had && self.etcd.has_quorum() && self.etcd.lost_since.take().is_some() {
            self.resume_if_healthy();
        }
        Ok(())
    }

    /// Replace the etcd cluster by `n` members, all up. Refused without a quorum:
    /// changing the membership is itself a write to the cluster's configuration.
    pub fn set_etcd_members(&mut self, n: usize) -> Result<(), String> {
        if !(1..=MAX_MEMBERS).contains(&n) {
            return Err(format!(
                "etcd members must be between 1 and {MAX_MEMBERS}, got {n}"
            ));
        }
        if !self.etcd.has_quorum() {
            return Err(
                "etcd has no quorum: a membership change is a write and needs one (start members with sim etcd up first)"
                    .into(),
            );
        }
        let snapshots = std::mem::take(&mut self.etcd.snapshots);
        let cut_since = self.etcd.cut_since;
        let data_shown = self.etcd.data_shown;
        self.etcd = Etcd {
            snapshots,
            cut_since,
            data_shown,
            ..Etcd::with_members(n)
        };
        Ok(())
    }
}
