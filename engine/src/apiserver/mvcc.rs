//! etcd's multi-version store under the API server: the keys it writes, the revisions
//! every write adds, the size of the database, compaction and defragmentation, and
//! the snapshot a restore starts from.
//!
//! **Keys.** Every object is one key, `/registry/<resource>/<namespace>/<name>` (or
//! without the namespace for a cluster-scoped kind). A few resources keep the prefix
//! of their history (`SpecialDefaultResourcePrefixes`): Nodes are `minions`, Services
//! `services/specs`, Endpoints `services/endpoints`, Ingresses `ingress`. A custom
//! resource is stored under its group (`/registry/<group>/<plural>/…`), and so are
//! the definitions (`/registry/apiextensions.k8s.io/customresourcedefinitions/…`).
//! The course calls the paths an implementation detail: programs go through the API.
//!
//! **Revisions and size.** etcd keeps every revision of a key until a compaction
//! removes the ones a later revision replaced (MVCC): an update adds a revision, a
//! delete adds a tombstone, and neither frees the old value. The database file (bbolt)
//! never shrinks by itself either: a compaction frees pages inside it (the size *in
//! use* falls), and only a defragmentation writes the file anew at the size in use.
//!
//! **The API server's compactor** (`storage/etcd3/compact.go`, `--etcd-compaction-interval`
//! 5m): every 5 minutes it writes `compact_rev_key` and compacts to the revision it
//! recorded at its previous run, so about 5 to 10 minutes of history stay; the first
//! run, 5 minutes after start, only records ("we don't compact on bootstrap").
//!
//! Simplifications, each a number rather than a behaviour: a value's size is the
//! object's JSON length (the API server stores built-in kinds as protobuf, about a
//! third smaller, and custom resources as JSON); each revision costs a fixed 48 bytes
//! beside its key and value (the revision key and the `KeyValue`'s revision fields); an
//! empty database is bbolt's 20 KiB; the compactor's own write to `compact_rev_key`
//! takes no revision, so the cluster's resourceVersions stay those of its objects.

use super::*;
use std::collections::VecDeque;

/// The API server's `--etcd-compaction-interval` default.
pub const COMPACTION_INTERVAL: SimTime = 5 * 60_000;
/// How far `etcdutl snapshot restore --bump-revision` moves the revision on: the
/// value Kubernetes' restore guide gives, so no client ever sees a resourceVersion go
/// backwards.
pub const RESTORE_BUMP: u64 = 1_000_000_000;
/// etcd's default backend quota (`--quota-backend-bytes`), 2 GiB.
pub const QUOTA_BYTES: u64 = 2 * 1024 * 1024 * 1024;
/// etcd's version in a v1.33 cluster (kubeadm's `DefaultEtcdVersion`).
pub const ETCD_VERSION: &str = "3.5.21";
/// The key the compactor writes.
pub const COMPACT_REV_KEY: &str = "compact_rev_key";
/// The error a compaction at or below the compacted revision gets.
pub const ERR_COMPACTED: &str = "etcdserver: mvcc: required revision has been compacted";
/// The error a compaction past the current revision gets.
pub const ERR_FUTURE_REV: &str = "etcdserver: mvcc: required revision is a future revision";

const PAGE: u64 = 4096;
const EMPTY_DB: u64 = 5 * PAGE;
const REVISION_OVERHEAD: u64 = 48;
/// The history kept for compaction is merged pairwise past this many entries: a
/// bound on memory whatever the write rate (a merged entry frees its bytes at the
/// later of its two revisions).
const HISTORY_CAP: usize = 1 << 16;

/// The part of the key after `/registry/` and before the namespace: upstream's
/// resource prefix.
pub fn resource_prefix(kind: Kind) -> std::borrow::Cow<'static, str> {
    match kind {
        Kind::Node => "minions".into(),
        Kind::Service => "services/specs".into(),
        Kind::Endpoints => "services/endpoints".into(),
        Kind::Ingress => "ingress".into(),
        Kind::CustomResourceDefinition => "apiextensions.k8s.io/customresourcedefinitions".into(),
        Kind::Custom(t) => format!(
            "{}/{}",
            t.api_version.split_once('/').map_or("", |(g, _)| g),
            t.ty.plural
        )
        .into(),
        k => k.resource().into(),
    }
}

/// The etcd key of an object.
pub fn etcd_key(kind: Kind, key: &ObjKey) -> String {
    let prefix = resource_prefix(kind);
    if key.namespace.is_empty() {
        format!("/registry/{prefix}/{}", key.name)
    } else {
        format!("/registry/{prefix}/{}/{}", key.namespace, key.name)
    }
}

/// The length of [`etcd_key`] without building it (every write counts it; only a
/// custom resource's prefix is built).
fn key_len(kind: Kind, key: &ObjKey) -> u64 {
    let ns = if key.namespace.is_empty() {
        0
    } else {
        key.namespace.len() + 1
    };
    ("/registry/".len() + resource_prefix(kind).len() + 1 + ns + key.name.len()) as u64
}

/// What etcd holds beside the objects: the revisions' bytes, the compacted revision,
/// the database file's size and the compactor's schedule.
#[derive(Clone, Debug)]
pub struct Mvcc {
    /// Bytes of the newest revision of every key.
    live: u64,
    /// Revisions a later write replaced, oldest first: (the revision that replaced
    /// it, its bytes). A compaction at or past the first frees the second.
    history: VecDeque<(u64, u64)>,
    history_bytes: u64,
    /// The revision compacted to (0: never).
    compacted: u64,
    /// The database file's size: the most ever in use since the last defragmentation.
    file: u64,
    /// The compactor's next run.
    next_run: SimTime,
    /// The revision the compactor recorded at its last run (None before its first).
    recorded: Option<u64>,
    /// How many times the compactor wrote `compact_rev_key` (its version).
    runs: u64,
    /// The revision a restore from a snapshot marked compacted (0: none): every
    /// watch from before it must list again.
    restored: u64,
    /// The counted size of each stored object, by the address of its shared
    /// allocation: a write reads its old value's size here instead of encoding it
    /// again. Only looked up, never iterated, so no address reaches any output.
    sizes: fxhash::FxHashMap<usize, u32>,
}

impl Default for Mvcc {
    fn default() -> Self {
        Mvcc {
            live: 0,
            history: VecDeque::new(),
            history_bytes: 0,
            compacted: 0,
            file: EMPTY_DB,
            next_run: COMPACTION_INTERVAL,
            recorded: None,
            runs: 0,
            restored: 0,
            sizes: Default::default(),
        }
    }
}

/// `etcdctl endpoint status`'s numbers.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DbStatus {
    /// The store's revision.
    pub revision: u64,
    /// The revision compacted to.
    pub compacted: u64,
    /// The database file's size in bytes.
    pub db_size: u64,
    /// The bytes in use inside it.
    pub db_size_in_use: u64,
    /// Keys held.
    pub keys: u64,
    /// Revisions kept that a compaction would free.
    pub old_revisions: u64,
}

fn pages(bytes: u64) -> u64 {
    bytes.div_ceil(PAGE) * PAGE
}

impl Mvcc {
    /// Bytes in use: the empty database, every key's newest revision, and the
    /// revisions not compacted yet.
    pub fn in_use(&self) -> u64 {
        EMPTY_DB + self.live + self.history_bytes
    }

    /// The revision compacted to.
    pub fn compacted(&self) -> u64 {
        self.compacted
    }

    /// How many times the API server's compactor has run.
    pub fn compactor_runs(&self) -> u64 {
        self.runs
    }

    /// A write at `rev`: a key's new value (`new`, None for a delete's tombstone)
    /// replacing its old one (`old`, None for a create).
    fn wrote(&mut self, rev: u64, key: u64, new: Option<u64>, old: Option<u64>) {
        let entry = |v: u64| key + v + REVISION_OVERHEAD;
        if let Some(o) = old {
            self.live = self.live.saturating_sub(entry(o));
            // The old value stays until a compaction past `rev`; a delete's tombstone
            // too.
            let freed = entry(o) + if new.is_none() { entry(0) } else { 0 };
            self.history.push_back((rev, freed));
            self.history_bytes += freed;
            if self.history.len() > HISTORY_CAP {
                self.merge_history();
            }
        }
        if let Some(n) = new {
            self.live += entry(n);
        }
        self.file = self.file.max(self.in_use());
    }

    /// Merge neighbouring history entries pairwise: half the entries, each freeing
    /// its bytes at the later revision of the two.
    fn merge_history(&mut self) {
        let old = std::mem::take(&mut self.history);
        let mut it = old.into_iter();
        while let Some((r1, b1)) = it.next() {
            match it.next() {
                Some((r2, b2)) => self.history.push_back((r2, b1 + b2)),
                None => self.history.push_back((r1, b1)),
            }
        }
    }

    /// The API server's compactor, run for every interval that has passed by `now`:
    /// compact to the revision recorded at the run before, then record `revision`.
    fn run_compactor(&mut self, now: SimTime, revision: u64) {
        while self.next_run <= now {
            if let Some(r) = self.recorded {
                if r > self.compacted {
                    self.compact_to(r);
                }
            }
            self.recorded = Some(revision);
            self.runs += 1;
            self.next_run += COMPACTION_INTERVAL;
        }
    }

    fn compact_to(&mut self, rev: u64) {
        while let Some(&(r, b)) = self.history.front() {
            if r > rev {
                break;
            }
            self.history.pop_front();
            self.history_bytes -= b;
        }
        self.compacted = rev;
    }

    /// `etcdctl compact REV` (see [`ERR_COMPACTED`], [`ERR_FUTURE_REV`]).
    pub fn compact(&mut self, rev: u64, revision: u64) -> Result<(), String> {
        if rev <= self.compacted {
            return Err(ERR_COMPACTED.into());
        }
        if rev > revision {
            return Err(ERR_FUTURE_REV.into());
        }
        self.compact_to(rev);
        Ok(())
    }

    /// `etcdctl defrag`: the file is written anew at the size in use.
    pub fn defrag(&mut self) {
        self.file = self.in_use();
    }
}

impl Store {
    /// The API server's compactor catches up with `now` (called before every write
    /// and every look: between writes the revision it records cannot change).
    pub(super) fn mvcc_tick(&mut self, now: SimTime) {
        let revision = self.revision;
        self.mvcc.run_compactor(now, revision);
    }

    /// Count a put of `obj` over `old` at `rev` (see [`Mvcc`]).
    pub(super) fn mvcc_put(&mut self, rev: u64, obj: &Arc<Object>, old: Option<&Arc<Object>>) {
        let key = key_len(obj.kind(), &ObjKey::of(obj.meta()));
        let new = obj.encoded_len() as u64;
        self.mvcc
            .sizes
            .insert(Arc::as_ptr(obj) as *const u8 as usize, new as u32);
        let old = old.map(|o| self.mvcc_forget(o));
        self.mvcc.wrote(rev, key, Some(new), old);
    }

    /// Count a delete of `old` at `rev`.
    pub(super) fn mvcc_delete(&mut self, rev: u64, old: &Arc<Object>) {
        let key = key_len(old.kind(), &ObjKey::of(old.meta()));
        let size = self.mvcc_forget(old);
        self.mvcc.wrote(rev, key, None, Some(size));
    }

    /// The counted size of a stored object that leaves the store.
    fn mvcc_forget(&mut self, o: &Arc<Object>) -> u64 {
        match self
            .mvcc
            .sizes
            .remove(&(Arc::as_ptr(o) as *const u8 as usize))
        {
            Some(n) => u64::from(n),
            None => o.encoded_len() as u64,
        }
    }

    /// etcd's numbers as `etcdctl endpoint status` shows them, the compactor caught
    /// up with `now`.
    pub fn etcd_status(&mut self, now: SimTime) -> DbStatus {
        self.mvcc_tick(now);
        self.etcd_status_now()
    }

    /// etcd's numbers as they stand, without catching the compactor up (what a view
    /// reads between writes: the next write catches it up).
    pub fn etcd_status_now(&self) -> DbStatus {
        let m = &self.mvcc;
        DbStatus {
            revision: self.revision,
            compacted: m.compacted,
            db_size: pages(m.file),
            db_size_in_use: pages(m.in_use()),
            keys: self.objects.iter().map(|o| o.len() as u64).sum::<u64>() + u64::from(m.runs > 0),
            old_revisions: m.history.len() as u64,
        }
    }

    /// `etcdctl compact REV`.
    pub fn etcd_compact(&mut self, now: SimTime, rev: u64) -> Result<(), String> {
        self.mvcc_tick(now);
        let revision = self.revision;
        self.mvcc.compact(rev, revision)
    }

    /// `etcdctl defrag`.
    pub fn etcd_defrag(&mut self, now: SimTime) {
        self.mvcc_tick(now);
        self.mvcc.defrag();
    }

    /// Every key under `prefix` with its object, in etcd's order (by the key's
    /// bytes), at most `limit` of them (0: all); `compact_rev_key` too once the
    /// compactor has written it.
    pub fn etcd_range(&self, prefix: &str, limit: usize) -> Vec<(String, Option<Arc<Object>>)> {
        let mut out: Vec<(String, Option<Arc<Object>>)> = Vec::new();
        for objects in self.objects.iter() {
            for (key, obj) in objects {
                let k = etcd_key(obj.kind(), key);
                if k.starts_with(prefix) {
                    out.push((k, Some(obj.clone())));
                }
            }
        }
        if self.mvcc.runs > 0 && COMPACT_REV_KEY.starts_with(prefix) {
            out.push((COMPACT_REV_KEY.into(), None));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        if limit > 0 {
            out.truncate(limit);
        }
        out
    }

    /// What changes with etcd's maintenance though no object is written: the
    /// compacted revision and the file's size.
    pub fn etcd_epoch(&self) -> u64 {
        self.mvcc.compacted ^ self.mvcc.file.rotate_left(32)
    }

    /// The revision the last restore from a snapshot marked compacted (0: none).
    pub fn etcd_restored_at(&self) -> u64 {
        self.mvcc.restored
    }

    /// The revision the compactor wrote into `compact_rev_key` at its last run.
    pub fn compactor_recorded(&self) -> Option<u64> {
        self.mvcc.recorded
    }

    /// Every object, as a snapshot keeps it.
    pub fn snapshot_objects(&self) -> Vec<Arc<Object>> {
        self.objects
            .iter()
            .flat_map(|m| m.values().cloned())
            .collect()
    }

    /// Make the store hold exactly `objects`, as an etcd restored from a snapshot of
    /// them at `snap_revision` does (`etcdutl snapshot restore --bump-revision
    /// 1000000000 --mark-compacted`): the revision moves on by [`RESTORE_BUMP`] and
    /// everything before is compacted, so every watch must list again. The objects
    /// keep the resourceVersions they had in the snapshot. The changes are returned
    /// for the informers, which list again and see the difference: what is gone as
    /// deleted, what came back as added, what differs as modified.
    pub fn restore_objects(
        &mut self,
        now: SimTime,
        objects: &[Arc<Object>],
        snap_revision: u64,
        writer: &str,
    ) -> Vec<Change> {
        self.mvcc_tick(now);
        self.revision = self.revision.max(snap_revision + RESTORE_BUMP);
        let wanted: BTreeMap<(Kind, ObjKey), &Arc<Object>> = objects
            .iter()
            .map(|o| ((o.kind(), ObjKey::of(o.meta())), o))
            .collect();
        let mut changes = Vec::new();
        // What the snapshot does not hold goes, dependents before what they depend
        // on does not matter here: the store holds no references.
        let present: Vec<(Kind, ObjKey)> = self
            .objects
            .iter()
            .flat_map(|m| m.iter().map(|(k, o)| (o.kind(), k.clone())))
            .collect();
        for (kind, key) in present {
            if !wanted.contains_key(&(kind, key.clone())) {
                if let Some(ch) = self.remove(now, kind, &key, writer) {
                    changes.push(ch);
                }
            }
        }
        for ((kind, key), obj) in wanted {
            let same = self
                .get_shared(kind, &key)
                .is_some_and(|o| Arc::ptr_eq(&o, obj) || *o == **obj);
            if !same {
                changes.push(self.put_restored(now, (**obj).clone(), writer));
            }
        }
        // A restored database holds only the snapshot's revisions, written afresh.
        let live: u64 = objects
            .iter()
            .map(|o| {
                key_len(o.kind(), &ObjKey::of(o.meta()))
                    + o.encoded_len() as u64
                    + REVISION_OVERHEAD
            })
            .sum();
        let sizes = std::mem::take(&mut self.mvcc.sizes);
        self.mvcc = Mvcc {
            live,
            compacted: self.revision,
            restored: self.revision,
            next_run: self.mvcc.next_run,
            sizes,
            ..Mvcc::default()
        };
        self.mvcc.file = self.mvcc.in_use();
        changes
    }
}

/// go-humanize's `Bytes`: SI units, one decimal under 10, Go's `%.0f` (half to even)
/// above.
pub fn humanize_bytes(s: u64) -> String {
    const SIZES: [&str; 7] = ["B", "kB", "MB", "GB", "TB", "PB", "EB"];
    if s < 10 {
        return format!("{s} B");
    }
    let mut e = 0;
    let mut unit: u128 = 1;
    while (s as u128) >= unit * 1000 && e < SIZES.len() - 1 {
        unit *= 1000;
        e += 1;
    }
    // floor(s / unit * 10 + 0.5), in integers.
    let tenths = ((s as u128) * 20 + unit) / (2 * unit);
    let (whole, frac) = (tenths / 10, tenths % 10);
    if tenths < 100 {
        format!("{whole}.{frac} {}", SIZES[e])
    } else {
        let round_up = frac > 5 || (frac == 5 && whole % 2 == 1);
        format!("{} {}", whole + u128::from(round_up), SIZES[e])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_follow_upstream_prefixes() {
        let k = |ns: &str, n: &str| ObjKey::new(ns, n);
        assert_eq!(
            etcd_key(Kind::Pod, &k("default", "web-abc")),
            "/registry/pods/default/web-abc"
        );
        assert_eq!(
            etcd_key(Kind::Node, &k("", "node-1")),
            "/registry/minions/node-1"
        );
        assert_eq!(
            etcd_key(Kind::Service, &k("default", "web")),
            "/registry/services/specs/default/web"
        );
        assert_eq!(
            etcd_key(Kind::Endpoints, &k("default", "web")),
            "/registry/services/endpoints/default/web"
        );
        assert_eq!(
            etcd_key(Kind::Deployment, &k("default", "web")),
            "/registry/deployments/default/web"
        );
        for kind in Kind::ALL {
            let key = k(if kind.namespaced() { "ns" } else { "" }, "name");
            assert_eq!(
                key_len(kind, &key) as usize,
                etcd_key(kind, &key).len(),
                "{kind:?}"
            );
        }
    }

    #[test]
    fn an_update_keeps_the_old_revision_until_a_compaction_and_the_file_until_a_defrag() {
        let mut m = Mvcc::default();
        m.wrote(1, 20, Some(1000), None);
        let one = m.in_use();
        m.wrote(2, 20, Some(1000), Some(1000));
        assert_eq!(m.in_use(), one + 1068, "the old value stays beside the new");
        m.compact(2, 2).unwrap();
        assert_eq!(m.in_use(), one, "compaction frees it inside the file");
        assert_eq!(m.file, one + 1068, "the file keeps its size");
        m.defrag();
        assert_eq!(m.file, one);
        assert_eq!(m.compact(2, 2), Err(ERR_COMPACTED.into()));
        assert_eq!(m.compact(9, 2), Err(ERR_FUTURE_REV.into()));
    }

    #[test]
    fn the_compactor_compacts_to_what_it_recorded_one_interval_before() {
        let mut m = Mvcc::default();
        m.run_compactor(COMPACTION_INTERVAL - 1, 10);
        assert_eq!((m.runs, m.compacted), (0, 0));
        m.run_compactor(COMPACTION_INTERVAL, 10);
        assert_eq!(
            (m.runs, m.compacted, m.recorded),
            (1, 0, Some(10)),
            "no compaction on bootstrap"
        );
        m.run_compactor(2 * COMPACTION_INTERVAL, 25);
        assert_eq!((m.runs, m.compacted, m.recorded), (2, 10, Some(25)));
    }

    #[test]
    fn history_stays_bounded_whatever_the_write_rate() {
        let mut m = Mvcc::default();
        m.wrote(1, 10, Some(100), None);
        for rev in 2..(3 * HISTORY_CAP as u64) {
            m.wrote(rev, 10, Some(100), Some(100));
        }
        assert!(m.history.len() <= HISTORY_CAP);
        let before = m.history_bytes;
        m.compact(3 * HISTORY_CAP as u64 - 1, 3 * HISTORY_CAP as u64 - 1)
            .unwrap();
        assert_eq!(m.history_bytes, 0, "{before} bytes freed");
    }

    #[test]
    fn sizes_read_as_go_humanize_writes_them() {
        assert_eq!(humanize_bytes(5), "5 B");
        assert_eq!(humanize_bytes(20_480), "20 kB");
        assert_eq!(humanize_bytes(2_134_016), "2.1 MB");
        assert_eq!(humanize_bytes(21_500), "22 kB");
        assert_eq!(humanize_bytes(999), "999 B");
        assert_eq!(humanize_bytes(1000), "1.0 kB");
    }
}
