//! Controllers: observe (the store, as an informer cache) → diff → act (requests).
//!
//! A controller never writes the store itself: `reconcile` returns the [`Request`]s it
//! wants made, and the cluster sends them through the API server under the
//! controller's name. That keeps every write visible in the watch log with its writer,
//! and lets tests assert the exact requests a reconcile makes.

pub mod deployment;
pub mod disruption;
pub mod garbage_collector;
pub mod node_lifecycle;
pub mod pod_gc;
pub mod replicaset;
pub mod taint_eviction;

use crate::api::{Kind, Object, ObjectReference};
use crate::apiserver::{DeleteOptions, ObjKey};
use crate::time::SimTime;
use std::collections::BTreeSet;

/// An Event to record once a request succeeds (client-go's pod control records
/// `SuccessfulCreate` only after the create returned, with the generated name).
#[derive(Clone, Debug, PartialEq)]
pub struct EventOnSuccess {
    /// The object the event is about (e.g. the ReplicaSet).
    pub involved: ObjectReference,
    /// Event type, `Normal` or `Warning`.
    pub type_: &'static str,
    /// Reason, e.g. `SuccessfulCreate`.
    pub reason: &'static str,
    /// Message before the created/deleted object's name, e.g. `Created pod: `.
    pub message_prefix: &'static str,
    /// Warning recorded when the request fails: (reason, message prefix before the
    /// error), e.g. (`FailedCreate`, `Error creating: `).
    pub on_failure: Option<(&'static str, &'static str)>,
}

/// A request to the API server.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// `POST` an object (name may come from generateName).
    Create {
        /// The object.
        object: Object,
        /// Event to record after success.
        event: Option<EventOnSuccess>,
    },
    /// `PUT` spec and metadata.
    Update(Object),
    /// `PUT` status.
    UpdateStatus(Object),
    /// `DELETE`.
    Delete {
        /// Kind.
        kind: Kind,
        /// Key.
        key: ObjKey,
        /// Options (grace, propagation, uid precondition).
        options: DeleteOptions,
        /// Event to record after success.
        event: Option<EventOnSuccess>,
    },
    /// `POST pods/<name>/eviction` (the Eviction API: checks disruption budgets).
    Evict {
        /// The Pod.
        key: ObjKey,
    },
    /// `POST pods/<name>/binding`.
    Bind {
        /// The Pod.
        key: ObjKey,
        /// The chosen node.
        node: String,
    },
    /// `controller.slowStartBatch`: send the requests in batches of 1, 2, 4, 8, …; a
    /// batch with a failure is finished but the remaining batches are skipped, so a
    /// controller that cannot create does not hammer the API server.
    SlowStart(Vec<Request>),
    /// Record a Kubernetes Event.
    Event {
        /// The object the event is about.
        involved: ObjectReference,
        /// `Normal` or `Warning`.
        type_: &'static str,
        /// Reason.
        reason: String,
        /// Message.
        message: String,
    },
}

/// What a reconcile decided: the requests to send and, optionally, when to look again.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Reconcile {
    /// Requests, in order.
    pub requests: Vec<Request>,
    /// `AddAfter`: reconcile this key again after this delay.
    pub requeue_after: Option<SimTime>,
}

/// A deduplicating work queue of keys (client-go's workqueue without rate limiting:
/// a key added twice before it is processed is processed once).
#[derive(Clone, Debug)]
pub struct WorkQueue<K: Ord = ObjKey> {
    dirty: BTreeSet<K>,
}

impl<K: Ord> Default for WorkQueue<K> {
    fn default() -> Self {
        WorkQueue {
            dirty: BTreeSet::new(),
        }
    }
}

impl<K: Ord> WorkQueue<K> {
    /// Add a key (no-op if already queued).
    pub fn add(&mut self, key: K) {
        self.dirty.insert(key);
    }

    /// Take every queued key, in key order.
    pub fn drain(&mut self) -> Vec<K> {
        std::mem::take(&mut self.dirty).into_iter().collect()
    }

    /// True when nothing is queued.
    pub fn is_empty(&self) -> bool {
        self.dirty.is_empty()
    }

    /// Number of queued keys.
    pub fn len(&self) -> usize {
        self.dirty.len()
    }
}

/// Who is writing: the field manager in the watch log and the Event source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Component {
    /// Writer name in the watch log, e.g. `replicaset-controller`, `kubelet/node-1`.
    pub writer: String,
    /// Event source component, e.g. `replicaset-controller`, `kubelet`.
    pub event_component: String,
    /// Event source host (kubelet events).
    pub host: String,
}

impl Component {
    /// A control-plane component whose writer and event source are the same name.
    pub fn named(name: &str) -> Self {
        Component {
            writer: name.into(),
            event_component: name.into(),
            host: String::new(),
        }
    }
}

/// The `metav1.OwnerReference` a controller puts on what it creates.
pub fn controller_ref(kind: Kind, name: &str, uid: &str) -> crate::api::OwnerReference {
    crate::api::OwnerReference {
        api_version: kind.api_version().into(),
        kind: kind.name().into(),
        name: name.into(),
        uid: uid.into(),
        controller: Some(true),
        block_owner_deletion: Some(true),
    }
}

/// An ObjectReference for Events, from kind and metadata.
pub fn event_ref(kind: Kind, meta: &crate::api::ObjectMeta) -> ObjectReference {
    ObjectReference {
        kind: kind.name().into(),
        namespace: meta.namespace.clone(),
        name: meta.name.clone(),
        uid: meta.uid.clone(),
        api_version: kind.api_version().into(),
    }
}
