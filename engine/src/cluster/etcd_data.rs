//! What etcd holds, as a part that can be lost and restored: snapshots
//! (`sim etcd snapshot save|restore|status`), the loss of every member's data
//! (`sim etcd wipe`), and a broken path from the API server to a healthy etcd
//! (`sim etcd disconnect|reconnect`). The store's side (keys, revisions, size) is
//! `apiserver::mvcc`.
//!
//! **A snapshot** is the store at one revision (`etcdctl snapshot save`): every key,
//! as a consistent read of one member. **A restore** (`etcdutl snapshot restore
//! --bump-revision 1000000000 --mark-compacted`, then every member started on the new
//! data and the API server after them) makes etcd hold exactly the snapshot's
//! objects. What was created after the snapshot is gone; what was deleted after it
//! is back, with the status it had then; the revision moves on by a billion and
//! every watch must list again. The informers see the difference as changes and the
//! controllers reconcile from the restored desired state: a ReplicaSet that came back
//! finds its Pods gone and creates new ones, a kubelet whose Pod is gone stops its
//! containers.
//!
//! **Losing every member's data** (a deleted data directory on each) leaves etcd
//! empty. The API server, started against it, writes again what it writes at every
//! start (the namespaces, the `kubernetes` Service, the RBAC bootstrap policy, the
//! priority classes), and the controllers their defaults; everything else is gone:
//! Deployments, Services, Secrets, ConfigMaps, the Nodes, the DNS add-on. Every
//! kubelet finds its Pods gone and stops their containers; a kubelet does not
//! register its Node again until it restarts.
//!
//! **A broken path** (`disconnect`): the members keep their quorum and their leader,
//! and `etcdctl endpoint health` on the members says healthy, yet every request
//! through the API server hangs until its deadline: `Timeout: request did not complete
//! within requested timeout - context deadline exceeded`, where a lost quorum gives
//! `etcdserver: request timed out`. Both fail `/readyz`'s etcd checks: the course's
//! two cases that look alike from the API and are diagnosed apart.
//!
//! Simplifications: a restore and a wipe take no simulated time (upstream the API
//! server is stopped across them); the revision never goes back (a wiped etcd
//! upstream starts again at 1, and clients must relist); a restore keeps the
//! members' names.

use super::*;
use std::sync::Arc;

/// The most snapshots kept: each holds every object (shared, not copied).
pub const MAX_SNAPSHOTS: usize = 8;

/// One saved snapshot.
#[derive(Clone, Debug, PartialEq)]
pub struct EtcdSnapshot {
    /// The file name it was saved as.
    pub name: String,
    /// The store's revision when it was taken.
    pub revision: u64,
    /// When it was taken.
    pub at: SimTime,
    /// Its size: the database file's size then.
    pub size: u64,
    /// Every object.
    pub objects: Vec<Arc<Object>>,
}

impl EtcdSnapshot {
    /// Keys it holds.
    pub fn keys(&self) -> usize {
        self.objects.len()
    }
}

/// What a restore or a wipe changed, for the answer.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Restored {
    /// Objects gone (created after the snapshot, or every one for a wipe).
    pub removed: usize,
    /// Objects back or back as they were.
    pub restored: usize,
    /// The revision etcd goes on from.
    pub revision: u64,
}

impl Cluster {
    /// `etcdctl snapshot save NAME`: needs a member to answer.
    pub fn etcd_snapshot_save(&mut self, name: &str) -> Result<&EtcdSnapshot, String> {
        if name.is_empty() || name.len() > 253 {
            return Err("snapshot path must be 1 to 253 characters".into());
        }
        if self.etcd.up_count() == 0 {
            return Err("context deadline exceeded".into());
        }
        let status = self.store.etcd_status(self.now);
        let snap = EtcdSnapshot {
            name: name.to_string(),
            revision: status.revision,
            at: self.now,
            size: status.db_size,
            objects: self.store.snapshot_objects(),
        };
        let snaps = &mut self.etcd.snapshots;
        snaps.retain(|s| s.name != name);
        if snaps.len() >= MAX_SNAPSHOTS {
            snaps.remove(0);
        }
        snaps.push(snap);
        Ok(snaps.last().expect("just pushed"))
    }

    /// A saved snapshot by name.
    pub fn etcd_snapshot(&self, name: &str) -> Option<&EtcdSnapshot> {
        self.etcd.snapshots.iter().find(|s| s.name == name)
    }

    /// `etcdutl snapshot restore NAME` on every member, then etcd and the API server
    /// started on the new data (see the module's words).
    pub fn etcd_snapshot_restore(&mut self, name: &str) -> Result<Restored, String> {
        let Some(snap) = self.etcd_snapshot(name).cloned() else {
            return Err(format!(
                "open {name}: no such file or directory (saved: {})",
                self.snapshot_names()
            ));
        };
        Ok(self.replace_etcd_data(&snap.objects, snap.revision, writer::ETCD_RESTORE))
    }

    /// Every member loses its data directory; etcd starts empty and the API server
    /// writes its bootstrap objects again.
    pub fn etcd_wipe(&mut self) -> Restored {
        // What a new API server and the controllers' defaults write, with uids of
        // their own (a seed of their own, moved on by the time) and created now.
        let fresh = Cluster::new(self.seed ^ 0x7769_7065 ^ self.now);
        let now = self.now;
        let objects: Vec<Arc<Object>> = fresh
            .store
            .snapshot_objects()
            .into_iter()
            .filter(|o| !matches!(o.kind(), Kind::Lease))
            .map(|o| {
                let mut o = (*o).clone();
                let m = o.meta_mut();
                m.creation_timestamp = crate::time::rfc3339(now);
                m.created_ms = now;
                Arc::new(o)
            })
            .collect();
        self.replace_etcd_data(&objects, 0, writer::ETCD_DATA_LOSS)
    }

    /// etcd holds `objects` from now on: every member up on the new data, a new
    /// cluster at term 2, the control plane resumed if the data was all it lacked,
    /// and the informers told what changed.
    fn replace_etcd_data(
        &mut self,
        objects: &[Arc<Object>],
        revision: u64,
        writer: &str,
    ) -> Restored {
        let changes = self
            .store
            .restore_objects(self.now, objects, revision, writer);
        for m in &mut self.etcd.members {
            m.up = true;
            m.isolated = false;
        }
        self.etcd.leader = Some(0);
        self.etcd.term = 2;
        self.etcd.lost_since = None;
        self.resume_if_healthy();
        let removed = changes.iter().filter(|c| c.new.is_none()).count();
        for ch in &changes {
            self.dispatch(ch);
        }
        self.recount_foreground();
        Restored {
            removed,
            restored: changes.len() - removed,
            revision: self.store.revision(),
        }
    }

    /// Break (`true`) or mend the network path from the API server to etcd.
    pub fn etcd_disconnect(&mut self, cut: bool) -> Result<(), String> {
        match (cut, self.etcd.cut_since) {
            (true, Some(_)) => Err("the API server is already cut off from etcd".into()),
            (false, None) => Err("the API server already reaches etcd".into()),
            (true, None) => {
                self.etcd.cut_since = Some(self.now);
                self.stall();
                Ok(())
            }
            (false, Some(_)) => {
                self.etcd.cut_since = None;
                self.resume_if_healthy();
                Ok(())
            }
        }
    }

    fn snapshot_names(&self) -> String {
        match self.etcd.snapshots.len() {
            0 => "none".into(),
            _ => self
                .etcd
                .snapshots
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}
