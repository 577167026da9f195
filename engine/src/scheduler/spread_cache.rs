//! The default topology spread's counts per ReplicaSet, kept between scheduling cycles
//! (see [`SpreadCache`]); [`super::topology`] scores with them.

use crate::api::*;
use crate::apiserver::fxhash::FxHashMap;
use crate::apiserver::Store;

/// The system defaults' PreScore counts of each ReplicaSet, kept between scheduling
/// cycles and brought up to date from the writes since (the store's watch log), so a
/// cycle costs the writes since the last one and the nodes, not every Pod of the
/// ReplicaSet: scheduling n Pods of one ReplicaSet was quadratic in n. Derived data:
/// a copy of the scheduler (a snapshot) starts empty and counts afresh.
#[derive(Debug, Default)]
pub struct SpreadCache {
    by_rs: FxHashMap<String, OwnedCounts>,
}

impl Clone for SpreadCache {
    fn clone(&self) -> Self {
        SpreadCache::default()
    }
}

/// One ReplicaSet's bound, live, matching Pods: each Pod's node, and the count per node.
#[derive(Debug, Default)]
pub struct OwnedCounts {
    /// The watch log's length when last brought up to date, and that write's version.
    seen: (usize, u64),
    /// Each counted Pod's node.
    node_of: FxHashMap<crate::apiserver::ObjKey, String>,
    /// Counted Pods per node (no zero entries). A hash map: the score reads it for
    /// each of some 400 feasible nodes per cycle (a B-tree compared names a dozen
    /// times each); where it is iterated its counts are only added up, so its order
    /// reaches no output.
    pub(super) per_node: FxHashMap<String, i64>,
    /// `per_node` by the nodes' positions in the store's node list (what the score
    /// reads for each feasible node), and the node list generation it is laid out for.
    by_position: (Vec<i64>, Option<u64>),
}

/// ReplicaSets whose counts are kept at most; past it they are counted afresh.
const SPREAD_CACHE_SETS: usize = 256;

/// Writes replayed at most beyond a ReplicaSet's counted Pods before counting afresh.
const REPLAY_AT_MOST: usize = 64;

impl SpreadCache {
    /// `rs`'s counts, up to date with the store.
    pub(super) fn owned(&mut self, store: &Store, rs: &ReplicaSet) -> &OwnedCounts {
        if self.by_rs.len() >= SPREAD_CACHE_SETS && !self.by_rs.contains_key(&rs.metadata.uid) {
            self.by_rs.clear();
        }
        let log = &store.log;
        let last_rv = |i: usize| {
            i.checked_sub(1)
                .and_then(|i| log.get(i))
                .map_or(0, |e| e.resource_version)
        };
        let c = self.by_rs.entry(rs.metadata.uid.clone()).or_default();
        let (seen, rv) = c.seen;
        // A log that is not the one counted from (compacted past it, or another
        // store's): count afresh. So too when more was written since than the
        // ReplicaSet has Pods: replaying every write of every other ReplicaSet (a
        // failover reschedules hundreds of them, interleaved) costs more than counting
        // this one's dependents, and both give the same counts.
        let behind = log.len().saturating_sub(seen);
        if seen == 0
            || seen < log.first_kept()
            || seen > log.len()
            || last_rv(seen) != rv
            || behind > c.node_of.len() + REPLAY_AT_MOST
        {
            *c = OwnedCounts::default();
            for obj in store.dependent_objects(&rs.metadata.uid) {
                if let Some(p) = Pod::from_object(obj) {
                    c.set(
                        store,
                        crate::apiserver::ObjKey::of(&p.metadata),
                        counted_node(p, rs),
                    );
                }
            }
        } else {
            for e in log.since(seen) {
                if e.kind == Kind::Pod {
                    let now = store.get::<Pod>(&e.key).and_then(|p| counted_node(p, rs));
                    c.set(store, e.key.clone(), now);
                }
            }
        }
        c.seen = (log.len(), last_rv(log.len()));
        if c.by_position.1 != Some(store.node_list_generation()) {
            c.lay_out(store);
        }
        c
    }
}

impl OwnedCounts {
    /// The Pod at `key` counts on `node` now (None: not at all).
    fn set(&mut self, store: &Store, key: crate::apiserver::ObjKey, node: Option<String>) {
        if self.node_of.get(&key) == node.as_ref() {
            return;
        }
        if let Some(old) = self.node_of.remove(&key) {
            self.add(store, &old, -1);
        }
        if let Some(n) = node {
            self.add(store, &n, 1);
            self.node_of.insert(key, n);
        }
    }

    /// `delta` more Pods on `node`, in `per_node` and, when it is laid out for the
    /// store's node list as it is, at the node's position (otherwise
    /// [`SpreadCache::owned`] lays it out afresh).
    fn add(&mut self, store: &Store, node: &str, delta: i64) {
        let n = self.per_node.entry(node.to_string()).or_default();
        *n += delta;
        let now = *n;
        if now == 0 {
            self.per_node.remove(node);
        }
        if self.by_position.1 == Some(store.node_list_generation()) {
            let slot = store
                .node_position(node)
                .and_then(|i| self.by_position.0.get_mut(i));
            if let Some(slot) = slot {
                *slot = now;
            }
        }
    }

    /// `per_node` laid out afresh by the store's node positions.
    fn lay_out(&mut self, store: &Store) {
        let mut at = vec![0; store.node_count()];
        for (name, n) in &self.per_node {
            if let Some(i) = store.node_position(name) {
                at[i] = *n;
            }
        }
        self.by_position = (at, Some(store.node_list_generation()));
    }

    /// Counted Pods per node position in the store's node list.
    pub(super) fn by_position(&self) -> &[i64] {
        &self.by_position.0
    }
}

/// Whether `p` counts for its ReplicaSet's defaults: a dependent of `rs` in its
/// namespace, bound, live, and matching its selector. The one predicate of both counts,
/// the kept one here and the topology's fresh `count_owned`.
pub(super) fn counts_for_owner(p: &Pod, rs: &ReplicaSet) -> bool {
    let owned = p
        .metadata
        .owner_references
        .iter()
        .any(|r| r.uid == rs.metadata.uid);
    owned
        && !p.spec.node_name.is_empty()
        && p.metadata.namespace == rs.metadata.namespace
        && !p.metadata.is_deleting()
        && !p.is_terminal()
        && rs.spec.selector.matches(&p.metadata.labels)
}

/// The node `p` counts on for its ReplicaSet's defaults (None: it does not count).
fn counted_node(p: &Pod, rs: &ReplicaSet) -> Option<String> {
    counts_for_owner(p, rs).then(|| p.spec.node_name.clone())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::Cluster;

    #[test]
    fn the_counts_kept_between_cycles_equal_a_fresh_count_through_scale_deletes_and_relabels() {
        let mut c = Cluster::with_default_nodes(3);
        c.create_deployment("web", "nginx:1.27", 40, "10m", "16Mi")
            .expect("create web");
        let mut cache = SpreadCache::default();
        let check = |c: &Cluster, cache: &mut SpreadCache| {
            let rs = c.store.list::<ReplicaSet>().next().expect("a ReplicaSet");
            let kept = cache.owned(&c.store, rs).per_node.clone();
            let fresh = SpreadCache::default().owned(&c.store, rs).per_node.clone();
            assert_eq!(kept, fresh);
            kept.values().sum::<i64>()
        };
        c.advance(1_000);
        check(&c, &mut cache);
        c.advance(60_000);
        assert_eq!(check(&c, &mut cache), 40);
        // Deleted, relabelled out of the selector, scaled down: each write is seen.
        let pods: Vec<String> = c
            .store
            .list::<Pod>()
            .map(|p| p.metadata.name.clone())
            .take(3)
            .collect();
        let mut run = |line: &str| {
            let o = crate::command::run(&mut c, line, None, &crate::command::NoFiles);
            assert!(o.ok, "{line}: {}", o.output);
        };
        run(&format!("kubectl delete pod {} --wait=false", pods[0]));
        run(&format!(
            "kubectl label pod {} app=other --overwrite",
            pods[1]
        ));
        run("kubectl scale deployment web --replicas=30");
        assert!(check(&c, &mut cache) < 40);
        c.advance(60_000);
        check(&c, &mut cache);
    }

    #[test]
    fn the_counts_by_node_position_follow_nodes_joining_and_leaving() {
        let mut c = Cluster::with_default_nodes(3);
        c.create_deployment("web", "nginx:1.27", 12, "10m", "16Mi")
            .expect("create web");
        c.settle(120_000);
        let rs = replica_set_of(&c, "web");
        let mut kept = SpreadCache::default();
        let check = |c: &Cluster, kept: &mut SpreadCache| {
            let mine = kept.owned(&c.store, &rs).by_position().to_vec();
            let fresh = SpreadCache::default()
                .owned(&c.store, &rs)
                .by_position()
                .to_vec();
            assert_eq!(mine, fresh);
            assert_eq!(mine.len(), c.store.node_count());
            // Each position holds the count of the Node at that position.
            let by_name = &kept.owned(&c.store, &rs).per_node;
            for (i, n) in mine.iter().enumerate() {
                let name = &c.store.node_at(i).expect("a node").metadata.name;
                assert_eq!(*n, by_name.get(name).copied().unwrap_or(0));
            }
            mine.iter().sum::<i64>()
        };
        assert_eq!(check(&c, &mut kept), 12);
        // A Node whose name sorts first moves every position by one.
        c.add_node("a-first", crate::kubelet::NodeConfig::default())
            .expect("add a node");
        check(&c, &mut kept);
        let o = crate::command::run(
            &mut c,
            "kubectl delete node a-first",
            None,
            &crate::command::NoFiles,
        );
        assert!(o.ok, "{}", o.output);
        c.settle(1_000);
        assert_eq!(check(&c, &mut kept), 12);
    }

    fn replica_set_of(c: &Cluster, deployment: &str) -> ReplicaSet {
        c.store
            .list::<ReplicaSet>()
            .find(|rs| rs.metadata.name.starts_with(&format!("{deployment}-")))
            .cloned()
            .expect("the Deployment's ReplicaSet")
    }

    #[test]
    fn counts_kept_across_many_other_writes_equal_counts_taken_afresh() {
        let mut c = Cluster::with_default_nodes(7);
        c.create_deployment("a", "nginx:1.27", 4, "10m", "16Mi")
            .unwrap();
        c.create_deployment("b", "nginx:1.27", 2, "10m", "16Mi")
            .unwrap();
        c.settle(120_000);
        let a = replica_set_of(&c, "a");
        let mut kept = SpreadCache::default();
        let before = kept.owned(&c.store, &a).per_node.clone();
        assert_eq!(before.values().sum::<i64>(), 4);
        // Far more writes than `a` has Pods (so the kept counts are recounted), then a
        // few (so they are brought up to date from the log): both as counted afresh.
        c.scale_deployment("b", 40).unwrap();
        c.settle(120_000);
        let after_many = kept.owned(&c.store, &a).per_node.clone();
        let fresh = SpreadCache::default().owned(&c.store, &a).per_node.clone();
        assert_eq!(after_many, fresh);
        let victim = c
            .store
            .list::<Pod>()
            .find(|p| p.metadata.name.starts_with("a-"))
            .map(|p| p.metadata.name.clone())
            .unwrap();
        c.delete_pod(&victim).unwrap();
        c.settle(120_000);
        let after_few = kept.owned(&c.store, &a).per_node.clone();
        let fresh = SpreadCache::default().owned(&c.store, &a).per_node.clone();
        assert_eq!(after_few, fresh);
        assert_eq!(after_few.values().sum::<i64>(), 4);
    }
}
