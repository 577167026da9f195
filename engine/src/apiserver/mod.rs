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
pub mod apply;
pub mod decode;
pub mod diff;
pub mod discovery;
pub mod door;
pub(crate) mod fxhash;
mod handlers;
pub mod health;
mod log;
mod logs;
pub mod managed_fields;
pub mod metrics;
pub mod mvcc;
pub mod node_restriction;
pub mod openapi;
pub mod pagination;
pub mod patch;
pub mod prepare;
pub mod request;
pub mod request_path;
pub use log::WatchLog;
mod errors;
mod pod_warnings;
pub mod validation;
mod warnings;

pub use errors::{
    connection_refused_line, ApiError, Cause, Details, API_SERVER_HOST_PORT, KUBE_APISERVER,
    REQUEST_TIMED_OUT,
};
pub mod autoscaling_v1;
pub mod custom;
mod events;
pub mod events_v1;
mod index;
pub mod limit_ranger;
mod per_kind;
pub mod pod_security;
mod pod_subresources;
mod policy;
pub mod quota;
pub mod rbac;
pub mod selectors;
pub mod service_account;
pub mod services;
mod storage;
mod usage;
pub mod webhook;
pub use per_kind::{FastPaths, PerKind};
mod write;
pub use usage::{
    allocatable, pod_requests, Allocatable, NodeUsage, PodRequests, DEFAULT_MEMORY_REQUEST,
    DEFAULT_MILLI_CPU_REQUEST,
};

use crate::api::*;
use crate::rng::Rng;
use crate::time::{rfc3339, SimTime, EPOCH_UNIX_SECONDS};
use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

/// The Node labels kept by position beside the node list
/// ([`Store::node_topology_label`]): the keys of the system-default spread constraints.
pub const TOPOLOGY_LABELS: [&str; 2] =
    [crate::api::LABEL_HOSTNAME, crate::api::LABEL_TOPOLOGY_ZONE];

/// The hash [`Store`] looks objects up by. The engine's own unit tests keep four bits
/// of it, so that keys share hashes all the time there and the B-tree fallback is
/// exercised by every test that stores more than a few objects.
fn key_hash(key: &ObjKey) -> u64 {
    key_hash_of(&key.namespace, &key.name)
}

/// [`key_hash`] of a key's parts (what the derived `Hash` of [`ObjKey`] feeds).
fn key_hash_of(namespace: &str, name: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    #[cfg(test)]
    const MASK: u64 = 0xf;
    #[cfg(not(test))]
    const MASK: u64 = u64::MAX;
    let mut h = fxhash::FxHasher::default();
    namespace.hash(&mut h);
    name.hash(&mut h);
    h.finish() & MASK
}

/// Whether `o` is the object of `key`.
fn has_key(o: &Object, key: &ObjKey) -> bool {
    is_named(o, &key.namespace, &key.name)
}

/// Whether `o` is the object named `name` in `namespace`.
fn is_named(o: &Object, namespace: &str, name: &str) -> bool {
    let m = o.meta();
    m.name == name && m.namespace == namespace
}

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

/// The store: objects by kind and key, the indexes, and the watch log.
#[derive(Clone, Debug, Default)]
pub struct Store {
    /// Objects are shared (`Arc`), not stored inline: an `Object` is as large as its
    /// largest kind (a Pod, 1.3 KB), so inline B-tree slots wasted most of the memory of
    /// the small kinds (Events, Leases); and a write's Change, the rewind snapshots and
    /// the informers all read the same allocation instead of a copy each.
    objects: PerKind<BTreeMap<ObjKey, Arc<Object>>>,
    /// The same objects by a hash of their key, for [`Store::get_object`]: a B-tree
    /// lookup compares its key with some 17 others at 150,000 Pods (string compares
    /// were a third of the envelope's CPU time), a hash lookup with one. `None`: two
    /// keys share the hash, and the B-tree answers for both. Only looked up, never
    /// iterated, so its order reaches no output.
    by_hash: PerKind<fxhash::FxHashMap<u64, Option<Arc<Object>>>>,
    revision: u64,
    /// Uid → kind and key: every object, for the garbage collector's owner look-ups.
    /// Fx-hashed (one insert per created object: SipHash was most of an insert), and
    /// only looked up, never iterated, so its order reaches no output.
    uids: fxhash::FxHashMap<String, (Kind, ObjKey)>,
    /// Owner uid → its dependents, with the stored object itself so the controllers
    /// that list their Pods (claimPods) read them without a lookup per Pod.
    by_owner: BTreeMap<String, BTreeMap<(Kind, ObjKey), Arc<Object>>>,
    /// Node name → its bound Pods, with the stored object itself (as `by_owner`) and
    /// its requests: a kubelet reads every Pod of its node for each Pod it admits
    /// (30 Pods a node, 30,000 admissions at 1,000 nodes), which was a hash of the key,
    /// a compare of names and a parse of every quantity per Pod.
    pods_by_node: BTreeMap<String, BTreeMap<ObjKey, (Arc<Object>, PodRequests)>>,
    orphans: BTreeMap<(Kind, String), BTreeSet<ObjKey>>,
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
    /// The spam filter's token buckets by source and object: (tokens in ms, last refill).
    event_spam: fxhash::FxHashMap<u64, (u64, SimTime)>,
    /// The aggregator's groups by source, object, type and reason.
    event_groups: fxhash::FxHashMap<u64, events::EventGroup>,
    event_seq: u64,
    /// The size of the Event correlator's tables past which they are swept of what no
    /// longer matters (see `events.rs`).
    event_sweep_mark: usize,
    /// The Nodes in name order, by position (upstream's snapshot `nodeInfoList`): the
    /// scheduler walks them round-robin from a start index for every attempt.
    /// Each name is shared (`Arc<str>`) with the scheduler's per-node verdicts, which
    /// would otherwise copy it for every node of every attempt.
    node_list: Vec<(Arc<str>, Arc<Object>)>,
    /// `node_usage` of each Node of `node_list`, by the same position: the filter loop
    /// reads it for every node it looks at, and a hash lookup by name per node was a
    /// quarter of the 5,000-node envelope's CPU time (a String key to hash and compare,
    /// far from the last one in memory).
    node_usage_list: Vec<NodeUsage>,
    /// The values of [`TOPOLOGY_LABELS`] of each Node of `node_list`, by position: the
    /// system-default topology spread reads both for every node it scores, and reading
    /// them from the string-keyed label maps was a fifth of the 5,000-node envelope.
    node_topology: Vec<[Option<Arc<str>>; 2]>,
    /// Bumped whenever a Node joins or leaves `node_list` (the positions move): what
    /// is kept by node position elsewhere is laid out again when it changes.
    node_list_generation: u64,
    /// Events by (lastTimestamp, namespace, name): the order of `kubectl get events -A
    /// --sort-by=.lastTimestamp` (a stable sort of the namespace/name list), so the
    /// newest are read without sorting every Event (there are several per Pod).
    events_by_time: BTreeSet<(SimTime, ObjKey)>,
    /// Which incremental shortcuts are on.
    pub fast: FastPaths,
    /// The floor of [`Store::pod_limit`] when set; `None` (the default) is
    /// [`POD_LIMIT_FLOOR`]. Tests lower it to reach the limit with a few Pods.
    pub pod_limit_floor: Option<usize>,
    /// Every write, in order.
    pub log: WatchLog,
    /// What etcd holds beside the objects: revisions, size, compaction (`mvcc`).
    mvcc: mvcc::Mvcc,
    /// Allocated cluster IPs → their Service.
    service_ips: BTreeMap<u32, ObjKey>,
    /// Allocated node ports → their Service.
    node_ports: BTreeMap<i64, ObjKey>,
    /// The warnings admission gave the request being written (`Warning: …`), taken
    /// by the door into its answer.
    pub warnings: Vec<String>,
    /// The audit annotations admission gave the request being written (a
    /// ValidatingAdmissionPolicy's `Audit` action and `auditAnnotations`), taken by the
    /// door into the request's trace.
    pub audit_annotations: Vec<(String, String)>,
    /// The subresource of the request being written (`scale`, `status`; empty for the
    /// object itself): admission policies match `deployments/scale`, not
    /// `deployments`, for `kubectl scale`.
    pub subresource: String,
    /// The learner's webhook servers, by Service (`sim webhook`): what the Pods behind
    /// each Service answer an AdmissionReview with.
    pub webhook_servers: webhook::WebhookServers,
    /// How the network stands for the request being written: how each webhook's
    /// Service answers a connection from the API server (set by the door from what
    /// the cluster worked out; None without webhook configurations).
    pub webhook_net: Option<std::sync::Arc<webhook::WebhookNet>>,
    /// The webhooks the request being written called and how each call went, taken
    /// by the door into the request's trace.
    pub webhook_calls: Vec<String>,
    /// Who sends the request being written, as authenticated (admission's
    /// `userInfo`): set by the door.
    pub request_user: Option<rbac::UserInfo>,
    /// Whether admission's warnings are worked out for this write: a person's
    /// requests get them (PodSecurity's `would violate …`); the components' own, many
    /// and never shown, skip the work.
    pub collect_warnings: bool,
    /// Every write with the object it wrote, while someone serves watches
    /// ([`Store::journal_objects`]): the watch log keeps who wrote what, not the
    /// objects, and a watch over HTTP streams each state. `None` (the default) keeps
    /// nothing, so the page and the benchmarks pay nothing for it.
    journal: Option<Vec<Written>>,
    /// What a waiting kubectl command follows ([`Store::follow`]), and each write to
    /// it since it was last read: a watch sees every write, not only the last of an
    /// instant.
    followed: Option<(Follow, Vec<Written>)>,
}

/// What a waiting kubectl command follows, write by write ([`Store::follow`]).
#[derive(Clone, Debug, PartialEq)]
pub enum Follow {
    /// One object (`kubectl rollout status`).
    Object(Kind, ObjKey),
    /// Every object of a kind, in one namespace or (`None`) in all (`kubectl get -w`).
    Kind(Kind, Option<String>),
}

impl Follow {
    fn covers(&self, kind: Kind, key: &ObjKey) -> bool {
        match self {
            Follow::Object(k, fk) => *k == kind && fk == key,
            Follow::Kind(k, ns) => *k == kind && ns.as_ref().is_none_or(|n| *n == key.namespace),
        }
    }
}

/// One write with the object it left ([`Store::take_journal`]): for a DELETED write,
/// the object as it was when removed.
#[derive(Clone, Debug)]
pub struct Written {
    /// The store revision of the write.
    pub resource_version: u64,
    /// ADDED / MODIFIED / DELETED.
    pub type_: WatchType,
    /// The object.
    pub object: Arc<Object>,
    /// The object before the write (None for an ADDED; the deleted object itself for a
    /// DELETED), which a filtered watch compares against.
    pub prev: Option<Arc<Object>>,
    /// When it was written: a watch's table row is rendered as of then, as the API
    /// server renders it when it sends the event.
    pub at: SimTime,
}

impl Written {
    /// What a watch whose filter is `passes` hears of this write (the watch cache's
    /// `convertToWatchEvent`): an object that starts to pass is ADDED, one that stops
    /// passing is DELETED as it was before (at this write's resourceVersion), and a
    /// write on either side of the filter is not sent.
    pub fn seen_through(
        &self,
        passes: impl Fn(&Object) -> bool,
    ) -> Option<(WatchType, &Arc<Object>)> {
        let now = self.type_ != WatchType::Deleted && passes(&self.object);
        let before = self.prev.as_deref().is_some_and(&passes);
        match (now, before) {
            (true, false) => Some((WatchType::Added, &self.object)),
            (true, true) => Some((WatchType::Modified, &self.object)),
            (false, true) => self.prev.as_ref().map(|p| (WatchType::Deleted, p)),
            (false, false) => None,
        }
    }
}

/// The floor of the cluster-wide Pod limit (see [`Store::pod_limit`]).
///
/// Why 10,000: measured natively on the default 3-node cluster (release build,
/// 2026-12), `kubectl scale deployment web --replicas=1000000` used to create Pods
/// without end: 89,342 Pending Pods after one simulated minute, 4 min 27 s of wall
/// time and 1.1 GB resident. Upstream's envelope of 150,000 Pods is sized for 5,000
/// nodes; at ~12 KB per Pending Pod (plus its Events) that many would cost ~1.8 GB
/// natively and more than a browser tab should hold, for Pods that can never run on a
/// small cluster. 10,000 Pending Pods is ample for any lesson: the same command then
/// stops at 10,000 Pods in 12 s and 133 MB (the machine loaded; creating 10,000 Pods
/// took as long before the limit), and its ReplicaSet records FailedCreate and backs off.
pub const POD_LIMIT_FLOOR: usize = 10_000;

/// Pods per node in the limit: the kubelet's default `maxPods`.
pub const POD_LIMIT_PER_NODE: usize = 110;

/// The name the Pod limit's refusals give as the "quota" that was exceeded.
pub const POD_LIMIT_NAME: &str = "kubeplay-pod-limit";

/// The Pod has pod affinity or anti-affinity terms.
pub fn has_pod_affinity(p: &Pod) -> bool {
    p.spec
        .affinity
        .as_ref()
        .is_some_and(|a| a.pod_affinity.is_some() || a.pod_anti_affinity.is_some())
}

impl Store {
    /// Keep every write's object from now on (`on`), or stop and drop what was kept.
    pub fn journal_objects(&mut self, on: bool) {
        self.journal = on.then(Vec::new);
    }

    /// Keep each write to what `what` covers from now on (`None`: stop).
    pub fn follow(&mut self, what: Option<Follow>) {
        self.followed = what.map(|f| (f, Vec::new()));
    }

    /// The writes to what is followed since the last call, in order.
    pub fn take_followed(&mut self) -> Vec<Written> {
        self.followed
            .as_mut()
            .map(|f| std::mem::take(&mut f.1))
            .unwrap_or_default()
    }

    /// Note a write for [`Store::follow`].
    fn note_followed(
        &mut self,
        w: (WatchType, u64, SimTime),
        key: &ObjKey,
        obj: &Arc<Object>,
        prev: Option<&Arc<Object>>,
    ) {
        if let Some((f, writes)) = &mut self.followed {
            if f.covers(obj.kind(), key) {
                writes.push(Written {
                    resource_version: w.1,
                    type_: w.0,
                    object: obj.clone(),
                    prev: prev.cloned(),
                    at: w.2,
                });
            }
        }
    }

    /// The writes kept since the last call (see [`Store::journal_objects`]).
    pub fn take_journal(&mut self) -> Vec<Written> {
        self.journal
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// An empty store.
    pub fn new() -> Self {
        Store::default()
    }

    /// An empty store with the `default` ServiceAccount of the namespaces unit tests
    /// use, as a cluster has them, so that their Pods pass ServiceAccount admission.
    #[cfg(test)]
    pub fn for_tests() -> Self {
        let mut s = Store::default();
        let mut rng = crate::rng::Rng::new(0x5a);
        for ns in ["default", "kube-system", "prod", "team-a", "team-b", "dev"] {
            let sa = ServiceAccount {
                metadata: ObjectMeta {
                    name: "default".into(),
                    namespace: ns.into(),
                    ..Default::default()
                },
                ..Default::default()
            };
            let _ = s.create(
                0,
                &mut rng,
                Object::ServiceAccount(sa),
                "serviceaccount-controller",
            );
        }
        s
    }

    /// The custom resources the store holds objects of, by type.
    pub fn custom_kinds(&self) -> Vec<Kind> {
        self.objects
            .custom
            .iter()
            .filter(|(_, m)| !m.is_empty())
            .map(|(t, _)| Kind::Custom(t))
            .collect()
    }

    /// The current store revision (the newest resourceVersion).
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Look up an object.
    pub fn get_object(&self, kind: Kind, key: &ObjKey) -> Option<&Object> {
        match self.by_hash.of(kind).get(&key_hash(key)) {
            None => None,
            // The hash's one object is this key's, or this key has none.
            Some(Some(o)) => has_key(o, key).then_some(&**o),
            Some(None) => self.objects.of(kind).get(key).map(|o| &**o),
        }
    }

    /// Look up an object, shared (what a read through the door answers with).
    pub fn get_shared(&self, kind: Kind, key: &ObjKey) -> Option<Arc<Object>> {
        match self.by_hash.of(kind).get(&key_hash(key)) {
            None => None,
            Some(Some(o)) => has_key(o, key).then(|| o.clone()),
            Some(None) => self.objects.of(kind).get(key).cloned(),
        }
    }

    /// The objects of a kind, shared, sorted by namespace then name: in one namespace,
    /// or in all (`None`).
    pub fn list_shared(&self, kind: Kind, namespace: Option<&str>) -> Vec<Arc<Object>> {
        let all = &self.objects.of(kind);
        match namespace {
            None => all.values().cloned().collect(),
            Some(ns) => all
                .range(ObjKey::new(ns, "")..)
                .take_while(|(k, _)| k.namespace == ns)
                .map(|(_, o)| o.clone())
                .collect(),
        }
    }

    /// Keep [`Store::by_hash`] with `objects` (`obj` None: the key's object is gone).
    fn by_hash_set(&mut self, kind: Kind, key: &ObjKey, obj: Option<&Arc<Object>>) {
        use std::collections::hash_map::Entry;
        let map = self.by_hash.of_mut(kind);
        match (map.entry(key_hash(key)), obj) {
            (Entry::Vacant(e), Some(o)) => {
                e.insert(Some(o.clone()));
            }
            (Entry::Vacant(_), None) => {}
            (Entry::Occupied(mut e), Some(o)) => {
                let mine = e.get().as_ref().is_some_and(|old| has_key(old, key));
                // Another key's object here: from now on both are looked up in the B-tree.
                *e.get_mut() = mine.then(|| o.clone());
            }
            (Entry::Occupied(e), None) => {
                if e.get().as_ref().is_some_and(|old| has_key(old, key)) {
                    e.remove();
                }
            }
        }
    }

    /// Look up a typed object.
    pub fn get<T: Resource>(&self, key: &ObjKey) -> Option<&T> {
        self.get_object(T::KIND, key).and_then(T::from_object)
    }

    /// All objects of a kind, sorted by namespace then name.
    pub fn list<'a, T: Resource + 'a>(&'a self) -> impl Iterator<Item = &'a T> + 'a {
        self.objects
            .of(T::KIND)
            .values()
            .filter_map(|o| T::from_object(o))
    }

    /// All objects of a kind, untyped, sorted by namespace then name.
    pub fn list_objects(&self, kind: Kind) -> impl Iterator<Item = &Object> + '_ {
        self.objects.of(kind).values().map(|o| &**o)
    }

    /// All objects of a kind in one namespace, sorted by name.
    pub fn list_ns<'a, T: Resource + 'a>(
        &'a self,
        ns: &'a str,
    ) -> impl Iterator<Item = &'a T> + 'a {
        let from = ObjKey::new(ns, "");
        self.objects
            .of(T::KIND)
            .range(from..)
            .take_while(move |(k, _)| k.namespace == ns)
            .filter_map(|(_, o)| T::from_object(o))
    }

    /// The most Pods the cluster stores: `max(POD_LIMIT_FLOOR, 110 × nodes)` — room
    /// for every Pod the nodes could run at the kubelet's default maxPods (so the
    /// 5,000-node envelope of 150,000 Pods fits, 550,000), and for 10,000 when the
    /// cluster is small. A Pod create beyond it is refused like a ResourceQuota's
    /// (`exceeded quota: kubeplay-pod-limit, …`), so a controller's FailedCreate and
    /// rate-limited retry apply. Unlike a quota it counts every stored Pod, terminal
    /// and terminating ones too: it bounds memory, and every stored Pod costs it.
    pub fn pod_limit(&self) -> usize {
        self.pod_limit_floor
            .unwrap_or(POD_LIMIT_FLOOR)
            .max(POD_LIMIT_PER_NODE.saturating_mul(self.node_count()))
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

    /// Changes whenever a Node joins or leaves the name-ordered node list, so that
    /// positions ([`Store::node_position`]) kept from before can be checked.
    pub fn node_list_generation(&self) -> u64 {
        self.node_list_generation
    }

    /// The value of the label `TOPOLOGY_LABELS[which]` of the `i`-th Node in name order.
    pub fn node_topology_label(&self, i: usize, which: usize) -> Option<&str> {
        self.node_topology.get(i)?.get(which)?.as_deref()
    }

    /// [`Store::node_usage`] of the `i`-th Node in name order ([`Store::node_entry`]).
    pub fn node_usage_at(&self, i: usize) -> NodeUsage {
        if !self.fast.node_usage_sums {
            return self
                .node_list
                .get(i)
                .map(|(name, _)| self.node_usage_recounted(name))
                .unwrap_or_default();
        }
        self.node_usage_list.get(i).copied().unwrap_or_default()
    }

    /// The position of the Node named `name` in the name-ordered node list (for
    /// [`Store::node_entry`]).
    pub fn node_position(&self, name: &str) -> Option<usize> {
        self.node_list
            .binary_search_by(|(n, _)| (**n).cmp(name))
            .ok()
    }

    /// The Node named `name`, found without building a key (a binary search of the
    /// name-ordered node list): for loops that look up a node per Pod.
    pub fn node_named(&self, name: &str) -> Option<&Node> {
        // By hash, without making a key (the scheduler asks for every Pod it counts).
        match self.by_hash.of(Kind::Node).get(&key_hash_of("", name)) {
            None => None,
            Some(Some(o)) => is_named(o, "", name)
                .then_some(o)
                .and_then(|o| Node::from_object(o)),
            Some(None) => {
                let i = self
                    .node_list
                    .binary_search_by(|(n, _)| (**n).cmp(name))
                    .ok()?;
                self.node_at(i)
            }
        }
    }

    /// Number of objects of every kind.
    pub fn object_count(&self) -> usize {
        self.objects.iter().map(BTreeMap::len).sum()
    }

    /// Number of objects of a kind.
    pub fn count(&self, kind: Kind) -> usize {
        self.objects.of(kind).len()
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
            .filter_map(|(_, (o, _))| Pod::from_object(o))
    }

    /// [`Store::pods_on_node`], each with its requests ([`pod_requests`], kept by the
    /// index: a write that changes a Pod's spec re-adds its entry, so they are never
    /// stale).
    pub fn pods_on_node_with_requests<'a>(
        &'a self,
        node: &str,
    ) -> impl Iterator<Item = (&'a Pod, PodRequests)> + 'a {
        self.pods_by_node
            .get(node)
            .into_iter()
            .flatten()
            .filter_map(|(_, (o, r))| Some((Pod::from_object(o)?, *r)))
    }

    /// Pods in `ns` without a controller ownerReference (candidates for adoption).
    pub fn orphan_pods<'a>(&'a self, ns: &str) -> impl Iterator<Item = &'a Pod> + 'a {
        self.orphans::<Pod>(ns)
    }

    /// Objects of kind `T` (Pods, ReplicaSets) in `ns` without a controller
    /// ownerReference: candidates for adoption.
    pub fn orphans<'a, T: Resource + 'a>(&'a self, ns: &str) -> impl Iterator<Item = &'a T> + 'a {
        self.orphans
            .get(&(T::KIND, ns.to_string()))
            .into_iter()
            .flatten()
            .filter_map(|k| self.get::<T>(k))
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
}

/// The defaults the API server applies to a write (idempotent), so a client can
/// compare what it would send with what is stored.
pub fn admission_defaults(obj: &mut Object) {
    admission::admit_create(obj);
}

#[cfg(test)]
mod tests;
