//! The API server and its store (etcd): every write of every component goes through here.
//!
//! It assigns `uid`, `creationTimestamp`, `resourceVersion` and `generation`, enforces
//! optimistic concurrency, runs admission (`DefaultTolerationSeconds`, defaults) and
//! validation, implements graceful deletion and finalizers, appends every write to the
//! watch log together with *who* wrote it, and keeps the indexes controllers read
//! (pods by node, dependents by owner uid, per-node requested resources) so that no
//! component has to scan all objects.
//!
//! Upstream: `staging/src/k8s.io/apiserver/pkg/registry/generic/registry/store.go`,
//! `pkg/registry/core/pod/strategy.go` (graceful deletion), `pkg/registry/core/pod/storage`
//! (binding), `plugin/pkg/admission/defaulttolerationseconds`.

pub mod admission;
pub mod diff;
mod fxhash;
mod log;
pub use log::WatchLog;
mod errors;
mod validation;

pub use errors::ApiError;
mod usage;
pub use usage::{
    allocatable, pod_requests, Allocatable, NodeUsage, PodRequests, DEFAULT_MEMORY_REQUEST,
    DEFAULT_MILLI_CPU_REQUEST,
};

use crate::api::*;
use crate::rng::Rng;
use crate::time::{rfc3339, SimTime, EPOCH_UNIX_SECONDS};
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Arc;

/// Namespace + name: the key of an object within its kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub struct ObjKey {
    /// Namespace (empty for cluster-scoped kinds).
    pub namespace: String,
    /// Name.
    pub name: String,
}

impl ObjKey {
    /// A key from parts.
    pub fn new(namespace: &str, name: &str) -> Self {
        ObjKey {
            namespace: namespace.to_string(),
            name: name.to_string(),
        }
    }

    /// The key of an object's metadata.
    pub fn of(meta: &ObjectMeta) -> Self {
        ObjKey::new(&meta.namespace, &meta.name)
    }
}

impl std::fmt::Display for ObjKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.namespace.is_empty() {
            f.write_str(&self.name)
        } else {
            write!(f, "{}/{}", self.namespace, self.name)
        }
    }
}

/// Watch event types.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub enum WatchType {
    /// Created.
    Added,
    /// Updated (including status and deletionTimestamp).
    Modified,
    /// Removed from the store.
    Deleted,
}

impl WatchType {
    /// `ADDED`, `MODIFIED`, `DELETED`.
    pub fn as_str(self) -> &'static str {
        match self {
            WatchType::Added => "ADDED",
            WatchType::Modified => "MODIFIED",
            WatchType::Deleted => "DELETED",
        }
    }
}

/// One entry of the watch log: a write, who made it and what it was.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct WatchEntry {
    /// The store revision this write produced.
    pub resource_version: u64,
    /// When (simulated ms).
    pub time: SimTime,
    /// ADDED / MODIFIED / DELETED.
    pub type_: WatchType,
    /// Verb: `create`, `update`, `update-status`, `bind`, `delete`.
    pub verb: &'static str,
    /// Kind written.
    pub kind: Kind,
    /// Object key.
    pub key: ObjKey,
    /// Object uid.
    pub uid: String,
    /// The writer (field manager): `kubectl`, `replicaset-controller`, `kubelet/node-1`…
    pub writer: String,
    /// For Events: the reason (so the log reads like a story); empty otherwise.
    pub reason: String,
    /// What the write changed (`spec.replicas: 3 → 2; …`, see [`diff::summarize`]); for
    /// an Event, its message; empty when no watched field changed.
    pub change: String,
    /// The uid of the object's controller (its controlling ownerReference), or of the
    /// Event's involved object: how the why-trace follows causes after an object is gone.
    pub owner_uid: String,
}

/// What a write changed: handed to the informers so they can enqueue work.
#[derive(Clone, Debug)]
pub struct Change {
    /// ADDED / MODIFIED / DELETED.
    pub type_: WatchType,
    /// Kind.
    pub kind: Kind,
    /// Key.
    pub key: ObjKey,
    /// The object before the write (None for ADDED). Shared with the store: a write
    /// hands the informers the stored object, not a copy.
    pub old: Option<Arc<Object>>,
    /// The object after the write (None for DELETED).
    pub new: Option<Arc<Object>>,
}

/// Options of a delete request.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DeleteOptions {
    /// Grace period override (`--grace-period`); None = the object's default.
    pub grace_period_seconds: Option<i64>,
    /// `Background` (default), `Foreground`, `Orphan`.
    pub propagation: Option<String>,
    /// Only delete if the uid still matches.
    pub precondition_uid: Option<String>,
}

/// The store's incremental shortcuts, each of which can be turned off to compute the
/// same thing the plain way. They exist for speed only: a test plays every built-in
/// scenario and a small envelope with all of them on and all of them off, and requires
/// byte-identical output (`engine/tests/fast_paths.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastPaths {
    /// A write whose index inputs did not change only repoints the owner index at the
    /// new object (off: every write removes and re-adds all of its index entries).
    pub index_refresh: bool,
    /// [`Store::node_usage`] reads running sums kept per node and the allocatable
    /// parsed when the Node was written (off: it sums the requests of the node's Pods
    /// and parses the Node's allocatable at each call).
    pub node_usage_sums: bool,
}

impl FastPaths {
    /// Every shortcut on (the default).
    pub const ALL: FastPaths = FastPaths {
        index_refresh: true,
        node_usage_sums: true,
    };
    /// Every shortcut off: the reference the shortcuts must agree with.
    pub const NONE: FastPaths = FastPaths {
        index_refresh: false,
        node_usage_sums: false,
    };
}

impl Default for FastPaths {
    fn default() -> Self {
        FastPaths::ALL
    }
}

/// The store: objects by kind and key, the indexes, and the watch log.
#[derive(Clone, Debug, Default)]
pub struct Store {
    /// Objects are shared (`Arc`), not stored inline: an `Object` is as large as its
    /// largest kind (a Pod, 1.3 KB), so inline B-tree slots wasted most of the memory of
    /// the small kinds (Events, Leases); and a write's Change, the rewind snapshots and
    /// the informers all read the same allocation instead of a copy each.
    objects: [BTreeMap<ObjKey, Arc<Object>>; Kind::ALL.len()],
    revision: u64,
    uids: HashMap<String, (Kind, ObjKey)>,
    /// Owner uid → its dependents, with the stored object itself so the controllers
    /// that list their Pods (claimPods) read them without a lookup per Pod.
    by_owner: BTreeMap<String, BTreeMap<(Kind, ObjKey), Arc<Object>>>,
    pods_by_node: BTreeMap<String, BTreeSet<ObjKey>>,
    orphan_pods: BTreeMap<String, BTreeSet<ObjKey>>,
    /// Node name → requests of its Pods and its allocatable. A hash map: the scheduler
    /// reads it for every node of every attempt, and it is only ever looked up (never
    /// iterated), so its order cannot reach any output.
    node_usage: fxhash::FxHashMap<String, NodeUsage>,
    /// Bound Pods with pod (anti-)affinity terms (upstream `NodeInfo.PodsWithAffinity`):
    /// the only existing Pods InterPodAffinity must look at for an incoming Pod
    /// without terms of its own.
    pods_with_affinity: BTreeSet<ObjKey>,
    /// Image name → (size, nodes reporting it): upstream's snapshot `imageStates`.
    image_states: BTreeMap<String, (i64, usize)>,

    /// Events by a hash of what makes two the same (involved object, type, reason,
    /// message, source): a repeat bumps `count`. Hashed rather than keyed by copies of
    /// those five strings (they were a tenth of the memory per Pod); a bucket's Events
    /// are compared field by field, so a collision never merges two different Events.
    event_dedupe: fxhash::FxHashMap<u64, Vec<ObjKey>>,
    event_seq: u64,
    /// The Nodes in name order, by position (upstream's snapshot `nodeInfoList`): the
    /// scheduler walks them round-robin from a start index for every attempt.
    /// Each name is shared (`Arc<str>`) with the scheduler's per-node verdicts, which
    /// would otherwise copy it for every node of every attempt.
    node_list: Vec<(Arc<str>, Arc<Object>)>,
    /// Events by (lastTimestamp, namespace, name): the order of `kubectl get events -A
    /// --sort-by=.lastTimestamp` (a stable sort of the namespace/name list), so the
    /// newest are read without sorting every Event (there are several per Pod).
    events_by_time: BTreeSet<(SimTime, ObjKey)>,
    /// Which incremental shortcuts are on.
    pub fast: FastPaths,
    /// Every write, in order.
    pub log: WatchLog,
}

/// The Pod has pod affinity or anti-affinity terms.
pub fn has_pod_affinity(p: &Pod) -> bool {
    p.spec
        .affinity
        .as_ref()
        .is_some_and(|a| a.pod_affinity.is_some() || a.pod_anti_affinity.is_some())
}

fn kind_index(kind: Kind) -> usize {
    kind as usize
}

impl Store {
    /// An empty store.
    pub fn new() -> Self {
        Store::default()
    }

    /// The current store revision (the newest resourceVersion).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Look up an object.
    pub fn get_object(&self, kind: Kind, key: &ObjKey) -> Option<&Object> {
        self.objects[kind_index(kind)].get(key).map(|o| &**o)
    }

    /// Look up a typed object.
    pub fn get<T: Resource>(&self, key: &ObjKey) -> Option<&T> {
        self.get_object(T::KIND, key).and_then(T::from_object)
    }

    /// All objects of a kind, sorted by namespace then name.
    pub fn list<'a, T: Resource + 'a>(&'a self) -> impl Iterator<Item = &'a T> + 'a {
        self.objects[kind_index(T::KIND)]
            .values()
            .filter_map(|o| T::from_object(o))
    }

    /// All objects of a kind, untyped, sorted by namespace then name.
    pub fn list_objects(&self, kind: Kind) -> impl Iterator<Item = &Object> + '_ {
        self.objects[kind_index(kind)].values().map(|o| &**o)
    }

    /// All objects of a kind in one namespace, sorted by name.
    pub fn list_ns<'a, T: Resource + 'a>(
        &'a self,
        ns: &'a str,
    ) -> impl Iterator<Item = &'a T> + 'a {
        let from = ObjKey::new(ns, "");
        self.objects[kind_index(T::KIND)]
            .range(from..)
            .take_while(move |(k, _)| k.namespace == ns)
            .filter_map(|(_, o)| T::from_object(o))
    }

    /// Number of Nodes.
    pub fn node_count(&self) -> usize {
        self.node_list.len()
    }

    /// The `i`-th Node in name order.
    pub fn node_at(&self, i: usize) -> Option<&Node> {
        self.node_entry(i).map(|(_, n)| n)
    }

    /// The `i`-th Node in name order, with its shared name.
    pub fn node_entry(&self, i: usize) -> Option<(&Arc<str>, &Node)> {
        let (name, o) = self.node_list.get(i)?;
        Node::from_object(o).map(|n| (name, n))
    }

    /// Keep `node_list` in step with a Node write (`Some`) or removal (`None`).
    fn node_list_set(&mut self, name: &str, obj: Option<&Arc<Object>>) {
        let at = self.node_list.binary_search_by(|(n, _)| (**n).cmp(name));
        match (at, obj) {
            (Ok(i), Some(o)) => self.node_list[i].1 = o.clone(),
            (Err(i), Some(o)) => self.node_list.insert(i, (Arc::from(name), o.clone())),
            (Ok(i), None) => {
                self.node_list.remove(i);
            }
            (Err(_), None) => {}
        }
    }

    /// Number of objects of every kind.
    pub fn object_count(&self) -> usize {
        self.objects.iter().map(BTreeMap::len).sum()
    }

    /// Number of objects of a kind.
    pub fn count(&self, kind: Kind) -> usize {
        self.objects[kind_index(kind)].len()
    }

    /// Events, oldest first by lastTimestamp (then namespace and name); `.rev()` for the
    /// newest first.
    pub fn events_by_last_seen(&self) -> impl DoubleEndedIterator<Item = &Event> + '_ {
        self.events_by_time
            .iter()
            .filter_map(|(_, k)| self.get::<Event>(k))
    }

    /// Which object has this uid, if it still exists.
    pub fn by_uid(&self, uid: &str) -> Option<&(Kind, ObjKey)> {
        self.uids.get(uid)
    }

    /// Objects whose ownerReferences name `uid` (any owner reference, controller or not).
    pub fn dependents(&self, uid: &str) -> impl Iterator<Item = &(Kind, ObjKey)> + '_ {
        self.by_owner.get(uid).into_iter().flat_map(|m| m.keys())
    }

    /// [`Store::dependents`] with the objects themselves, in the same order.
    pub fn dependent_objects(&self, uid: &str) -> impl Iterator<Item = &Object> + '_ {
        self.by_owner
            .get(uid)
            .into_iter()
            .flat_map(|m| m.values().map(|o| &**o))
    }

    /// Pods bound to `node`.
    pub fn pods_on_node<'a>(&'a self, node: &str) -> impl Iterator<Item = &'a Pod> + 'a {
        self.pods_by_node
            .get(node)
            .into_iter()
            .flatten()
            .filter_map(|k| self.get::<Pod>(k))
    }

    /// Pods in `ns` without a controller ownerReference (candidates for adoption).
    pub fn orphan_pods<'a>(&'a self, ns: &str) -> impl Iterator<Item = &'a Pod> + 'a {
        self.orphan_pods
            .get(ns)
            .into_iter()
            .flatten()
            .filter_map(|k| self.get::<Pod>(k))
    }

    /// (size, number of nodes) for an image name nodes report in `status.images`.
    pub fn image_state(&self, name: &str) -> Option<(i64, usize)> {
        self.image_states.get(name).copied()
    }

    /// Bound Pods that carry pod affinity or anti-affinity terms.
    pub fn bound_pods_with_affinity(&self) -> impl Iterator<Item = &Pod> + '_ {
        self.pods_with_affinity
            .iter()
            .filter_map(|k| self.get::<Pod>(k))
    }

    /// Requested resources on `node` (Pods bound to it that are not terminal).
    pub fn node_usage(&self, node: &str) -> NodeUsage {
        if !self.fast.node_usage_sums {
            return self.node_usage_recounted(node);
        }
        self.node_usage.get(node).copied().unwrap_or_default()
    }

    /// [`Store::node_usage`] the plain way: sum the node's non-terminal Pods' requests
    /// and parse its allocatable.
    fn node_usage_recounted(&self, node: &str) -> NodeUsage {
        let mut u = NodeUsage {
            // None: the filters and scores parse the Node's allocatable themselves.
            ..NodeUsage::default()
        };
        for p in self.pods_on_node(node).filter(|p| !p.is_terminal()) {
            u.add_pod(&pod_requests(p));
        }
        u
    }

    // ---- index maintenance -------------------------------------------------------

    fn index_remove(&mut self, obj: &Object) {
        let meta = obj.meta();
        let key = ObjKey::of(meta);
        self.uids.remove(&meta.uid);
        for r in &meta.owner_references {
            if let Some(set) = self.by_owner.get_mut(&r.uid) {
                set.remove(&(obj.kind(), key.clone()));
                if set.is_empty() {
                    self.by_owner.remove(&r.uid);
                }
            }
        }
        if let Object::Event(e) = obj {
            self.events_by_time.remove(&(e.last_ms, key.clone()));
        }
        if let Object::Node(n) = obj {
            if let Some(u) = self.node_usage.get_mut(&n.metadata.name) {
                u.alloc = None;
            }
            for img in &n.status.images {
                for name in &img.names {
                    if let Some(e) = self.image_states.get_mut(name) {
                        e.1 -= 1;
                        if e.1 == 0 {
                            self.image_states.remove(name);
                        }
                    }
                }
            }
        }
        if let Object::Pod(p) = obj {
            if meta.controller_ref().is_none() {
                if let Some(set) = self.orphan_pods.get_mut(&meta.namespace) {
                    set.remove(&key);
                }
            }
            if !p.spec.node_name.is_empty() {
                self.pods_with_affinity.remove(&key);
                if let Some(set) = self.pods_by_node.get_mut(&p.spec.node_name) {
                    set.remove(&key);
                }
                if !p.is_terminal() {
                    self.node_usage
                        .entry(p.spec.node_name.clone())
                        .or_default()
                        .remove_pod(&pod_requests(p));
                }
            }
        }
    }

    /// Whether a write from `old` to `new` leaves every index as it was (all but the
    /// object references in `by_owner`): true for most writes (status updates), which
    /// then skip removing and re-adding a dozen index entries.
    fn same_index_inputs(old: &Object, new: &Object) -> bool {
        let (om, nm) = (old.meta(), new.meta());
        if om.uid != nm.uid || om.owner_references != nm.owner_references {
            return false;
        }
        match (old, new) {
            (Object::Pod(o), Object::Pod(n)) => {
                o.spec == n.spec && o.is_terminal() == n.is_terminal()
            }
            (Object::Event(o), Object::Event(n)) => o.last_ms == n.last_ms,
            (Object::Node(o), Object::Node(n)) => {
                o.status.allocatable == n.status.allocatable
                    && o.status.capacity == n.status.capacity
                    && o.status.images == n.status.images
            }
            _ => true,
        }
    }

    /// Point the object references of the indexes at the new version of an object
    /// whose index inputs did not change ([`Store::same_index_inputs`]).
    fn index_refresh(&mut self, kind: Kind, key: &ObjKey, obj: &Arc<Object>) {
        let ik = (kind, key.clone());
        for r in &obj.meta().owner_references {
            if let Some(slot) = self.by_owner.get_mut(&r.uid).and_then(|m| m.get_mut(&ik)) {
                *slot = obj.clone();
            }
        }
    }

    fn index_add(&mut self, obj: &Arc<Object>) {
        let meta = obj.meta();
        let key = ObjKey::of(meta);
        self.uids
            .insert(meta.uid.clone(), (obj.kind(), key.clone()));
        for r in &meta.owner_references {
            self.by_owner
                .entry(r.uid.clone())
                .or_default()
                .insert((obj.kind(), key.clone()), obj.clone());
        }
        let obj: &Object = obj;
        if let Object::Event(e) = obj {
            self.events_by_time.insert((e.last_ms, key.clone()));
        }
        if let Object::Node(n) = obj {
            self.node_usage
                .entry(n.metadata.name.clone())
                .or_default()
                .alloc = Some(allocatable(n));
            for img in &n.status.images {
                for name in &img.names {
                    let e = self.image_states.entry(name.clone()).or_insert((0, 0));
                    e.0 = img.size_bytes;
                    e.1 += 1;
                }
            }
        }
        if let Object::Pod(p) = obj {
            if meta.controller_ref().is_none() {
                self.orphan_pods
                    .entry(meta.namespace.clone())
                    .or_default()
                    .insert(key.clone());
            }
            if !p.spec.node_name.is_empty() {
                if has_pod_affinity(p) {
                    self.pods_with_affinity.insert(key.clone());
                }
                self.pods_by_node
                    .entry(p.spec.node_name.clone())
                    .or_default()
                    .insert(key);
                if !p.is_terminal() {
                    self.node_usage
                        .entry(p.spec.node_name.clone())
                        .or_default()
                        .add_pod(&pod_requests(p));
                }
            }
        }
    }

    fn next_rv(&mut self) -> u64 {
        self.revision += 1;
        self.revision
    }

    #[allow(clippy::too_many_arguments)]
    fn record(
        &mut self,
        now: SimTime,
        type_: WatchType,
        verb: &'static str,
        obj: &Object,
        writer: &str,
        rv: u64,
        change: String,
    ) {
        let (reason, owner_uid) = match obj {
            Object::Event(e) => (e.reason.clone(), e.involved_object.uid.clone()),
            _ => (
                String::new(),
                obj.meta()
                    .controller_ref()
                    .map(|r| r.uid.clone())
                    .unwrap_or_default(),
            ),
        };
        self.log.push(WatchEntry {
            resource_version: rv,
            time: now,
            type_,
            verb,
            kind: obj.kind(),
            key: ObjKey::of(obj.meta()),
            uid: obj.meta().uid.clone(),
            writer: writer.to_string(),
            reason,
            change,
            owner_uid,
        });
    }

    /// Replace the stored object, keeping indexes right, and log the write.
    fn put(&mut self, now: SimTime, verb: &'static str, mut obj: Object, writer: &str) -> Change {
        let kind = obj.kind();
        let key = ObjKey::of(obj.meta());
        let rv = self.next_rv();
        obj.meta_mut().resource_version = rv.to_string();
        let old = self.objects[kind_index(kind)].remove(&key);
        let type_ = if old.is_some() {
            WatchType::Modified
        } else {
            WatchType::Added
        };
        let change = match &old {
            _ if !diff::worth_summarizing(&obj) => String::new(),
            Some(o) => diff::summarize(o, &obj),
            None => diff::describe_added(&obj),
        };
        self.record(now, type_, verb, &obj, writer, rv, change);
        let obj = Arc::new(obj);
        match &old {
            Some(o) if self.fast.index_refresh && Self::same_index_inputs(o, &obj) => {
                self.index_refresh(kind, &key, &obj)
            }
            _ => {
                if let Some(o) = &old {
                    self.index_remove(o);
                }
                self.index_add(&obj);
            }
        }
        if kind == Kind::Node {
            self.node_list_set(&key.name, Some(&obj));
        }
        self.objects[kind_index(kind)].insert(key.clone(), obj.clone());
        Change {
            type_,
            kind,
            key,
            old,
            new: Some(obj),
        }
    }

    /// Remove an object from the store for good.
    fn remove(&mut self, now: SimTime, kind: Kind, key: &ObjKey, writer: &str) -> Option<Change> {
        let old = self.objects[kind_index(kind)].remove(key)?;
        self.index_remove(&old);
        if kind == Kind::Node {
            self.node_list_set(&key.name, None);
        }
        let rv = self.next_rv();
        self.record(
            now,
            WatchType::Deleted,
            "delete",
            &old,
            writer,
            rv,
            String::new(),
        );
        if let Object::Event(e) = &*old {
            let h = event_dedupe_hash(e);
            if let Some(bucket) = self.event_dedupe.get_mut(&h) {
                bucket.retain(|k| k != key);
                if bucket.is_empty() {
                    self.event_dedupe.remove(&h);
                }
            }
        }
        Some(Change {
            type_: WatchType::Deleted,
            kind,
            key: key.clone(),
            old: Some(old),
            new: None,
        })
    }

    // ---- verbs ---------------------------------------------------------------------

    /// `POST`: create an object. Fills in name (from generateName), namespace, uid,
    /// creationTimestamp, resourceVersion and generation; runs admission and validation.
    pub fn create(
        &mut self,
        now: SimTime,
        rng: &mut Rng,
        mut obj: Object,
        writer: &str,
    ) -> Result<Change, ApiError> {
        let kind = obj.kind();
        {
            let meta = obj.meta_mut();
            if kind.namespaced() && meta.namespace.is_empty() {
                meta.namespace = "default".into();
            }
            if !kind.namespaced() {
                meta.namespace.clear();
            }
            if meta.name.is_empty() {
                if meta.generate_name.is_empty() {
                    return Err(ApiError::invalid(
                        kind,
                        "",
                        &[
                            "metadata.name: Required value: name or generateName is required"
                                .to_string(),
                        ],
                    ));
                }
                // names.SimpleNameGenerator: base cut to 58 characters + 5 random ones.
                let base: String = meta.generate_name.chars().take(58).collect();
                meta.name = format!("{base}{}", rng.safe_string(5));
            }
        }
        admission::admit_create(&mut obj);
        if let Object::Pod(pod) = &mut obj {
            let classes: Vec<&PriorityClass> = self.list::<PriorityClass>().collect();
            if let Err(m) = admission::admit_priority(pod, &classes) {
                return Err(ApiError {
                    code: 403,
                    reason: "Forbidden",
                    message: format!("pods \"{}\" is forbidden: {m}", pod.metadata.name),
                    kubectl_message: None,
                });
            }
        }
        validation::validate(&obj, None)?;
        // A store that tracks namespaces (every Cluster's does) refuses content in a
        // missing or terminating one; the bare stores of unit tests track none.
        if kind.namespaced() && self.count(Kind::Namespace) > 0 {
            let ns = obj.meta().namespace.clone();
            match self.get::<Namespace>(&ObjKey::new("", &ns)) {
                None => return Err(ApiError::not_found(Kind::Namespace, &ns)),
                Some(n) if n.metadata.is_deleting() => {
                    return Err(ApiError {
                        code: 403,
                        reason: "Forbidden",
                        message: format!(
                            "{} \"{}\" is forbidden: unable to create new content in namespace {ns} because it is being terminated",
                            kind.qualified_resource(),
                            obj.meta().name
                        ),
                        kubectl_message: None,
                    })
                }
                Some(_) => {}
            }
        }
        let key = ObjKey::of(obj.meta());
        if self.objects[kind_index(kind)].contains_key(&key) {
            return Err(ApiError::already_exists(kind, &key.name));
        }
        let meta = obj.meta_mut();
        meta.uid = rng.uuid_v4();
        meta.creation_timestamp = rfc3339(now);
        meta.created_ms = now;
        meta.deletion_timestamp = None;
        meta.deletion_ms = None;
        meta.deletion_grace_period_seconds = None;
        // Workload kinds track spec changes in generation; in v1.33 Pods, Nodes, Events
        // and Leases leave it unset (Pod generation is an alpha feature, off).
        meta.generation = i64::from(matches!(kind, Kind::Deployment | Kind::ReplicaSet));
        Ok(self.put(now, "create", obj, writer))
    }

    fn current(&self, kind: Kind, key: &ObjKey) -> Result<&Object, ApiError> {
        self.get_object(kind, key)
            .ok_or_else(|| ApiError::not_found(kind, &key.name))
    }

    fn check_rv(current: &Object, obj: &Object) -> Result<(), ApiError> {
        let rv = &obj.meta().resource_version;
        if !rv.is_empty() && *rv != current.meta().resource_version {
            return Err(ApiError::conflict(obj.kind(), &obj.meta().name));
        }
        Ok(())
    }

    /// `PUT`: replace spec and metadata (status is kept: it has its own subresource).
    /// `generation` goes up when the spec changes. A non-empty resourceVersion must match.
    pub fn update(
        &mut self,
        now: SimTime,
        mut obj: Object,
        writer: &str,
    ) -> Result<Change, ApiError> {
        let kind = obj.kind();
        if kind.namespaced() && obj.meta().namespace.is_empty() {
            obj.meta_mut().namespace = "default".into();
        }
        let key = ObjKey::of(obj.meta());
        let current = self.current(kind, &key)?;
        Self::check_rv(current, &obj)?;
        // Defaulting runs on every write, as the API server decodes every request.
        admission::admit_create(&mut obj);
        validation::validate(&obj, Some(current))?;
        let spec_changed = obj.spec_differs(current);
        let cur_meta = current.meta().clone();
        // Status is owned by the status subresource; a spec update cannot change it.
        match (&mut obj, current) {
            (Object::Deployment(n), Object::Deployment(c)) => n.status = c.status.clone(),
            (Object::ReplicaSet(n), Object::ReplicaSet(c)) => n.status = c.status.clone(),
            (Object::Pod(n), Object::Pod(c)) => n.status = c.status.clone(),
            (Object::Node(n), Object::Node(c)) => n.status = c.status.clone(),
            (Object::Namespace(n), Object::Namespace(c)) => n.status = c.status.clone(),
            (Object::PodDisruptionBudget(n), Object::PodDisruptionBudget(c)) => {
                n.status = c.status.clone()
            }
            _ => {}
        }
        let meta = obj.meta_mut();
        meta.uid = cur_meta.uid;
        meta.creation_timestamp = cur_meta.creation_timestamp;
        meta.created_ms = cur_meta.created_ms;
        meta.deletion_timestamp = cur_meta.deletion_timestamp;
        meta.deletion_ms = cur_meta.deletion_ms;
        meta.deletion_grace_period_seconds = cur_meta.deletion_grace_period_seconds;
        meta.generate_name = cur_meta.generate_name;
        meta.generation = cur_meta.generation + i64::from(spec_changed && cur_meta.generation > 0);
        let spec_finalizers = matches!(&obj, Object::Namespace(n) if !n.spec.finalizers.is_empty());
        if obj.meta().is_deleting()
            && obj.meta().finalizers.is_empty()
            && !spec_finalizers
            && obj.meta().deletion_grace_period_seconds.unwrap_or(0) == 0
        {
            // The last finalizer is gone: the object can finally be removed.
            let change = self.put(now, "update", obj, writer);
            return Ok(self.remove(now, kind, &key, writer).unwrap_or(change));
        }
        Ok(self.put(now, "update", obj, writer))
    }

    /// `PUT .../status`: replace the status only.
    pub fn update_status(
        &mut self,
        now: SimTime,
        obj: Object,
        writer: &str,
    ) -> Result<Change, ApiError> {
        let kind = obj.kind();
        let key = ObjKey::of(obj.meta());
        let current = self.current(kind, &key)?;
        Self::check_rv(current, &obj)?;
        let mut merged = current.clone();
        match (&mut merged, obj) {
            (Object::Deployment(m), Object::Deployment(n)) => m.status = n.status,
            (Object::ReplicaSet(m), Object::ReplicaSet(n)) => m.status = n.status,
            (Object::Pod(m), Object::Pod(n)) => m.status = n.status,
            (Object::Node(m), Object::Node(n)) => m.status = n.status,
            (Object::PodDisruptionBudget(m), Object::PodDisruptionBudget(n)) => m.status = n.status,
            (m, n) => *m = n,
        }
        Ok(self.put(now, "update-status", merged, writer))
    }

    /// `POST pods/<name>/binding`: set spec.nodeName and PodScheduled=True.
    pub fn bind(
        &mut self,
        now: SimTime,
        key: &ObjKey,
        node: &str,
        writer: &str,
    ) -> Result<Change, ApiError> {
        let Some(Object::Pod(pod)) = self.get_object(Kind::Pod, key) else {
            return Err(ApiError::not_found(Kind::Pod, &key.name));
        };
        if !pod.spec.node_name.is_empty() {
            return Err(ApiError::conflict_detail(
                Kind::Pod,
                &key.name,
                &format!(
                    "pod {} is already assigned to node \"{}\"",
                    key.name, pod.spec.node_name
                ),
            ));
        }
        if pod.metadata.is_deleting() {
            return Err(ApiError::conflict_detail(
                Kind::Pod,
                &key.name,
                "pod is being deleted, cannot be assigned to a host",
            ));
        }
        let mut pod = pod.clone();
        pod.spec.node_name = node.to_string();
        set_condition(
            &mut pod.status.conditions,
            Condition {
                type_: PodConditionType::PodScheduled.into(),
                status: ConditionStatus::True.into(),
                last_transition_time: Some(rfc3339(now)),
                transition_ms: now,
                ..Default::default()
            },
        );
        Ok(self.put(now, "bind", Object::Pod(pod), writer))
    }

    /// `DELETE`: graceful for Pods bound to a node (deletionTimestamp = now + grace),
    /// held by finalizers (Foreground adds `foregroundDeletion`, Orphan adds `orphan`),
    /// otherwise immediate. Returns the changes made (empty if nothing changed).
    pub fn delete(
        &mut self,
        now: SimTime,
        kind: Kind,
        key: &ObjKey,
        opts: &DeleteOptions,
        writer: &str,
    ) -> Result<Vec<Change>, ApiError> {
        let current = self.current(kind, key)?;
        if let Some(uid) = &opts.precondition_uid {
            if *uid != current.meta().uid {
                return Err(ApiError::conflict_detail(
                    kind,
                    &key.name,
                    &format!(
                        "Precondition failed: UID in precondition: {uid}, UID in object meta: {}",
                        current.meta().uid
                    ),
                ));
            }
        }
        let mut obj = current.clone();
        if let Object::Namespace(n) = &mut obj {
            if matches!(
                key.name.as_str(),
                "default" | "kube-system" | "kube-public" | "kube-node-lease"
            ) {
                return Err(ApiError {
                    code: 403,
                    reason: "Forbidden",
                    message: format!(
                        "namespaces \"{}\" is forbidden: this namespace may not be deleted",
                        key.name
                    ),
                    kubectl_message: None,
                });
            }
            if !n.spec.finalizers.is_empty() {
                // Terminating until the namespace controller has emptied it.
                if n.metadata.is_deleting() {
                    return Ok(vec![]);
                }
                n.status.phase = "Terminating".into();
                n.metadata.deletion_ms = Some(now);
                n.metadata.deletion_timestamp = Some(rfc3339(now));
                n.metadata.deletion_grace_period_seconds = Some(0);
                return Ok(vec![self.put(now, "delete", obj, writer)]);
            }
        }
        // Graceful period: only Pods have one (pkg/registry/core/pod/strategy.go).
        let grace = match &obj {
            Object::Pod(p) => {
                let g = opts
                    .grace_period_seconds
                    .unwrap_or_else(|| p.spec.grace_seconds())
                    .max(0);
                // Unscheduled or terminal pods go at once: no kubelet has to stop them.
                if p.spec.node_name.is_empty() || p.is_terminal() {
                    0
                } else {
                    g
                }
            }
            _ => 0,
        };
        let finalizer = match opts.propagation.as_deref() {
            Some("Foreground") => Some("foregroundDeletion"),
            Some("Orphan") => Some("orphan"),
            _ => None,
        };
        let meta = obj.meta_mut();
        if let Some(f) = finalizer {
            if !meta.finalizers.iter().any(|x| x == f) {
                meta.finalizers.push(f.to_string());
            }
        }
        if meta.finalizers.is_empty() && grace == 0 {
            return Ok(self.remove(now, kind, key, writer).into_iter().collect());
        }
        let deadline = now + (grace as u64) * 1000;
        match meta.deletion_ms {
            // A second delete may only shorten the grace period.
            Some(existing) if existing <= deadline && finalizer.is_none() => return Ok(vec![]),
            _ => {}
        }
        meta.deletion_ms = Some(deadline);
        meta.deletion_timestamp = Some(rfc3339(deadline));
        meta.deletion_grace_period_seconds = Some(grace);
        Ok(vec![self.put(now, "delete", obj, writer)])
    }

    /// `POST pods/<name>/eviction`: refuse with 429 when a PodDisruptionBudget allows no
    /// disruption (a not-Ready Pod may go while the budget is met: IfHealthyBudget);
    /// otherwise spend one disruption, mark the Pod DisruptionTarget and delete it
    /// gracefully (`pkg/registry/core/pod/storage/eviction.go`).
    pub fn evict(
        &mut self,
        now: SimTime,
        key: &ObjKey,
        writer: &str,
    ) -> Result<Vec<Change>, ApiError> {
        let pod = self
            .get::<Pod>(key)
            .cloned()
            .ok_or_else(|| ApiError::not_found(Kind::Pod, &key.name))?;
        if pod.metadata.is_deleting() || pod.is_terminal() {
            return self.delete(now, Kind::Pod, key, &DeleteOptions::default(), writer);
        }
        let pdbs: Vec<PodDisruptionBudget> = self
            .list_ns::<PodDisruptionBudget>(&key.namespace)
            .filter(|b| {
                !b.spec.selector.is_empty() && b.spec.selector.matches(&pod.metadata.labels)
            })
            .cloned()
            .collect();
        if pdbs.len() > 1 {
            return Err(ApiError {
                code: 500,
                reason: "InternalError",
                message: "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.".into(),
                kubectl_message: None,
            });
        }
        let mut changes = Vec::new();
        if let Some(pdb) = pdbs.into_iter().next() {
            let healthy_enough = pdb.status.current_healthy >= pdb.status.desired_healthy;
            if !(pod.is_ready()) && healthy_enough {
                // An unhealthy Pod does not count against a met budget.
            } else if pdb.status.disruptions_allowed <= 0 {
                return Err(ApiError {
                    code: 429,
                    reason: "TooManyRequests",
                    message: "Cannot evict pod as it would violate the pod's disruption budget."
                        .into(),
                    kubectl_message: None,
                });
            } else {
                let mut b = pdb.clone();
                b.status.disruptions_allowed -= 1;
                changes.push(self.put(
                    now,
                    "update-status",
                    Object::PodDisruptionBudget(b),
                    writer,
                ));
            }
        }
        let mut marked = pod.clone();
        set_condition(
            &mut marked.status.conditions,
            disruption_target(
                "EvictionByEvictionAPI",
                "Eviction API: evicting".into(),
                now,
            ),
        );
        changes.push(self.put(now, "update-status", Object::Pod(Box::new(marked)), writer));
        let opts = DeleteOptions {
            precondition_uid: Some(pod.metadata.uid.clone()),
            ..Default::default()
        };
        changes.extend(self.delete(now, Kind::Pod, key, &opts, writer)?);
        Ok(changes)
    }

    /// Record a Kubernetes Event about `involved`: identical events (same object, type,
    /// reason, message, source) are counted on one Event object, as the client-go event
    /// correlator does.
    #[allow(clippy::too_many_arguments)]
    pub fn record_event(
        &mut self,
        now: SimTime,
        rng: &mut Rng,
        involved: &ObjectReference,
        type_: &str,
        reason: &str,
        message: &str,
        component: &str,
        host: &str,
    ) -> Change {
        let ns = if involved.namespace.is_empty() {
            "default".to_string()
        } else {
            involved.namespace.clone()
        };
        let probe = Event {
            involved_object: involved.clone(),
            reason: reason.into(),
            message: message.into(),
            source: EventSource {
                component: component.into(),
                host: host.into(),
            },
            type_: type_.into(),
            ..Default::default()
        };
        let writer = if host.is_empty() {
            component.to_string()
        } else {
            format!("{component}/{host}")
        };
        let h = event_dedupe_hash(&probe);
        let same = self.event_dedupe.get(&h).and_then(|bucket| {
            bucket
                .iter()
                .find_map(|k| match self.get_object(Kind::Event, k) {
                    Some(Object::Event(e)) if same_event(e, &probe) => Some(e.clone()),
                    _ => None,
                })
        });
        if let Some(mut e) = same {
            e.count += 1;
            e.last_ms = now;
            e.last_timestamp = rfc3339(now);
            return self.put(now, "update", Object::Event(e), &writer);
        }
        self.event_seq += 1;
        let nanos = (EPOCH_UNIX_SECONDS as u64) * 1_000_000_000 + now * 1_000_000 + self.event_seq;
        let mut e = probe;
        e.metadata = ObjectMeta {
            name: format!("{}.{nanos:x}", involved.name),
            namespace: ns,
            uid: rng.uuid_v4(),
            creation_timestamp: rfc3339(now),
            created_ms: now,
            ..Default::default()
        };
        e.count = 1;
        e.first_ms = now;
        e.last_ms = now;
        e.first_timestamp = rfc3339(now);
        e.last_timestamp = rfc3339(now);
        let key = ObjKey::of(&e.metadata);
        self.event_dedupe.entry(h).or_default().push(key);
        self.put(now, "create", Object::Event(e), &writer)
    }
}

/// What makes two Events the same one (upstream's EventCorrelator aggregation key with
/// the message): involved object, type, reason, message, source.
fn event_dedupe_fields(e: &Event) -> [&str; 9] {
    [
        &e.involved_object.kind,
        &e.involved_object.namespace,
        &e.involved_object.name,
        &e.involved_object.uid,
        &e.type_,
        &e.reason,
        &e.message,
        &e.source.component,
        &e.source.host,
    ]
}

fn event_dedupe_hash(e: &Event) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = fxhash::FxHasher::default();
    event_dedupe_fields(e).hash(&mut h);
    h.finish()
}

fn same_event(a: &Event, b: &Event) -> bool {
    event_dedupe_fields(a) == event_dedupe_fields(b)
}

/// The defaults the API server applies to a write (idempotent), so a client can
/// compare what it would send with what is stored.
pub fn admission_defaults(obj: &mut Object) {
    admission::admit_create(obj);
}

#[cfg(test)]
mod tests;
