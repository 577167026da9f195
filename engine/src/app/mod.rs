//! The application behind a Service, for the business lens: a message API (the course's
//! notes-api). A client POSTs message ids, each new, and GETs earlier ones back; the
//! application refuses a duplicate id with 409 and answers a GET with 200 or 404.
//!
//! **Where the state lives** is the lesson:
//! - `memory` (the default): each Pod keeps the ids it accepted in its own memory. A
//!   duplicate is caught only when it lands on the Pod that has it; a GET finds only
//!   what that Pod accepted; a replaced Pod's ids are gone.
//! - `database`: the ids live in one store behind another Service (a database with its
//!   own Pod). Duplicates are refused across Pods and survive replacement — and when
//!   the database has no endpoint, every write fails with 503.
//!
//! **Lost responses.** A request that reaches a Pod being stopped (TERM sent) was
//! processed but its connection is reset before the answer: the client sees an error
//! and, retrying, sends the same id again — to another Pod, which with in-memory state
//! accepts it a second time. Ready stays 3/3 throughout.
//!
//! Not part of Kubernetes: a model of the workload, as `crate::faults` is of the world.

use crate::apiserver::ObjKey;
use std::collections::{BTreeMap, BTreeSet};

pub mod contract;

/// Where an application keeps its messages.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Store {
    /// Each Pod in its own memory.
    Memory,
    /// One database behind this Service.
    Database(ObjKey),
}

/// What the business saw of one application.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Business {
    /// Distinct message ids accepted (200) at least once.
    pub accepted: u64,
    /// Accepts of an id already accepted once: the same message taken twice. Stored
    /// twice when the Pod that took it first still holds it; processed again when that
    /// Pod's memory is gone (a retry after its answer was lost: nobody is left who could
    /// tell).
    pub duplicates: u64,
    /// 409 answers: a duplicate caught.
    pub conflicts: u64,
    /// 200 answers to GETs.
    pub found: u64,
    /// 404 answers to GETs of ids that were accepted.
    pub not_found: u64,
    /// 503 answers: the database could not be reached.
    pub unavailable: u64,
    /// Requests processed whose answer was lost (reset by a stopping Pod).
    pub lost_answers: u64,
}

/// One application's state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct App {
    /// Where it keeps messages.
    pub store: Store,
    /// Ids accepted, per Pod uid (memory) — or under "" for the database.
    held: BTreeMap<String, BTreeSet<u64>>,
    /// Every id ever accepted (what the client believes is stored), sorted: a sorted
    /// list rather than a set, so the client picks one to read back by position at no
    /// cost growing with how many there are (ids come in nearly in order, so an insert
    /// moves few).
    sent: Vec<u64>,
    /// The run of each Pod's application its memory belongs to.
    instances: BTreeMap<String, String>,
    /// The next new id.
    pub next_id: u64,
    /// Counters.
    pub business: Business,
    /// Ids a learner named (`sim message --id m-9`), to the number the store keys them by.
    names: BTreeMap<String, u64>,
    /// The name of each named id.
    labels: BTreeMap<u64, String>,
    /// With a database, each message's per-device sequence number (the proposed S3's
    /// `seq`), and each device's last one.
    seqs: BTreeMap<u64, u64>,
    next_seq: BTreeMap<u32, u64>,
}

/// Where the numbers of named message ids start: far above any the traffic reaches.
const NAMED_BASE: u64 = 1 << 48;

/// The most message ids a learner may name (each `sim message` names at most one).
pub const MAX_NAMED: usize = 10_000;

/// What the application answered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reply {
    /// 200 OK: accepted. The course's notes-api contract answers an accepted message
    /// with 200 (`accepted_in_memory`: taken by this process's memory, nothing more),
    /// not 201.
    Created,
    /// 409 Conflict.
    Conflict,
    /// 200 OK.
    Found,
    /// 404 Not Found.
    NotFound,
    /// 503 Service Unavailable (no database).
    Unavailable,
}

impl Reply {
    /// The HTTP status.
    pub fn status(self) -> u16 {
        match self {
            Reply::Created => 200,
            Reply::Conflict => 409,
            Reply::Found => 200,
            Reply::NotFound => 404,
            Reply::Unavailable => 503,
        }
    }
}

impl App {
    /// A message API keeping its state in `store`.
    pub fn new(store: Store) -> Self {
        App {
            store,
            held: BTreeMap::new(),
            sent: Vec::new(),
            instances: BTreeMap::new(),
            next_id: 1,
            business: Business::default(),
            names: BTreeMap::new(),
            labels: BTreeMap::new(),
            seqs: BTreeMap::new(),
            next_seq: BTreeMap::new(),
        }
    }

    /// The number a learner's message id is stored under, given one the first time
    /// (None: [`MAX_NAMED`] ids are named already).
    pub fn named_id(&mut self, name: &str) -> Option<u64> {
        if let Some(id) = self.names.get(name) {
            return Some(*id);
        }
        if self.names.len() >= MAX_NAMED {
            return None;
        }
        let id = NAMED_BASE + self.names.len() as u64;
        self.names.insert(name.to_string(), id);
        self.labels.insert(id, name.to_string());
        Some(id)
    }

    /// How a message id is written: the learner's name for it, or the traffic's
    /// number (as its requests' paths say: `/messages/17`).
    pub fn id_label(&self, id: u64) -> String {
        match self.labels.get(&id) {
            Some(name) => name.clone(),
            None => id.to_string(),
        }
    }

    /// The same message API keeping its state in `store` from now on: the ids the
    /// clients use (the traffic's next one, the names a learner gave) are theirs and
    /// carry over; what the old store held does not.
    pub fn moved_to(&self, store: Store) -> Self {
        App {
            next_id: self.next_id,
            names: self.names.clone(),
            labels: self.labels.clone(),
            ..App::new(store)
        }
    }

    /// With a database, message `id`'s sequence number among `device`'s messages,
    /// given once when it is first stored (the database orders each device's
    /// messages); with memory, none: each Pod would count on its own, and the
    /// current contract has no sequence numbers.
    pub fn seq_for(&mut self, id: u64, device: u32) -> Option<u64> {
        if self.store == Store::Memory {
            return None;
        }
        if let Some(s) = self.seqs.get(&id) {
            return Some(*s);
        }
        let next = self.next_seq.entry(device).or_insert(0);
        *next += 1;
        self.seqs.insert(id, *next);
        Some(*next)
    }

    /// A message's sequence number, if it has one.
    pub fn seq_of(&self, id: u64) -> Option<u64> {
        self.seqs.get(&id).copied()
    }

    /// Whether Pod `pod_uid` can answer a backfill with message `id`: it holds it
    /// in its memory, or the database does.
    pub fn holds(&self, pod_uid: &str, id: u64) -> bool {
        self.held
            .get(&self.shelf(pod_uid))
            .is_some_and(|s| s.contains(&id))
    }

    /// Whether any Pod's memory (or the database) still holds message `id`.
    pub fn holds_anywhere(&self, id: u64) -> bool {
        self.held.values().any(|s| s.contains(&id))
    }

    fn shelf(&self, pod_uid: &str) -> String {
        match self.store {
            Store::Memory => pod_uid.to_string(),
            Store::Database(_) => String::new(),
        }
    }

    /// `POST /messages/{id}` served by Pod `pod_uid`; `db_up` says whether the
    /// database answered (ignored with memory).
    pub fn post(&mut self, id: u64, pod_uid: &str, db_up: bool) -> Reply {
        if matches!(self.store, Store::Database(_)) && !db_up {
            self.business.unavailable += 1;
            return Reply::Unavailable;
        }
        let shelf = self.shelf(pod_uid);
        if self.held.get(&shelf).is_some_and(|s| s.contains(&id)) {
            self.business.conflicts += 1;
            return Reply::Conflict;
        }
        self.held.entry(shelf).or_default().insert(id);
        if let Err(at) = self.sent.binary_search(&id) {
            self.sent.insert(at, id);
            self.business.accepted += 1;
        } else {
            self.business.duplicates += 1;
        }
        Reply::Created
    }

    /// `GET /messages/{id}` served by Pod `pod_uid`.
    pub fn get(&mut self, id: u64, pod_uid: &str, db_up: bool) -> Reply {
        if matches!(self.store, Store::Database(_)) && !db_up {
            self.business.unavailable += 1;
            return Reply::Unavailable;
        }
        if self
            .held
            .get(&self.shelf(pod_uid))
            .is_some_and(|s| s.contains(&id))
        {
            self.business.found += 1;
            Reply::Found
        } else {
            self.business.not_found += 1;
            Reply::NotFound
        }
    }

    /// A Pod's memory is gone (its Pod was deleted): with memory state, the ids only
    /// it held are lost.
    pub fn forget_pod(&mut self, pod_uid: &str) {
        if self.store == Store::Memory {
            self.held.remove(pod_uid);
        }
    }

    /// What runs in Pod `uid` now (its application's start; None: the Pod is gone):
    /// a different run than the one that accepted its messages lost them.
    pub fn observe_instance(&mut self, uid: &str, instance: Option<String>) {
        match instance {
            None => {
                self.forget_pod(uid);
                self.instances.remove(uid);
            }
            Some(run) => {
                let prev = self.instances.insert(uid.to_string(), run.clone());
                if prev.is_some_and(|p| p != run) {
                    self.forget_pod(uid);
                }
            }
        }
    }

    /// How many ids were ever accepted.
    pub fn sent_count(&self) -> usize {
        self.sent.len()
    }

    /// The `i`-th smallest id ever accepted.
    pub fn sent_nth(&self, i: usize) -> Option<u64> {
        self.sent.get(i).copied()
    }

    /// Ids the client had accepted that no Pod (or the database) holds any more.
    pub fn lost(&self) -> u64 {
        let held: BTreeSet<u64> = crate::sorting::btree_set(self.held.values().flatten().copied());
        self.sent.iter().filter(|id| !held.contains(id)).count() as u64
    }

    /// The uids whose memory the application keeps (to drop those of Pods gone).
    pub fn pods(&self) -> Vec<String> {
        self.held
            .keys()
            .filter(|k| !k.is_empty())
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn in_memory_a_duplicate_is_caught_only_on_the_pod_that_has_it() {
        let mut a = App::new(Store::Memory);
        assert_eq!(a.post(1, "pod-a", true), Reply::Created);
        assert_eq!(a.post(1, "pod-a", true), Reply::Conflict);
        assert_eq!(
            a.post(1, "pod-b", true),
            Reply::Created,
            "pod-b never saw it"
        );
        assert_eq!(
            (
                a.business.accepted,
                a.business.duplicates,
                a.business.conflicts
            ),
            (1, 1, 1)
        );
        assert_eq!(a.get(1, "pod-c", true), Reply::NotFound);
        a.forget_pod("pod-a");
        assert_eq!(a.lost(), 0, "pod-b still has it");
        a.forget_pod("pod-b");
        assert_eq!(a.lost(), 1, "both Pods replaced: the message is gone");
    }

    #[test]
    fn with_a_database_duplicates_are_refused_everywhere_and_survive_replacement() {
        let mut a = App::new(Store::Database(ObjKey::new("default", "db")));
        assert_eq!(a.post(1, "pod-a", true), Reply::Created);
        assert_eq!(a.post(1, "pod-b", true), Reply::Conflict);
        a.forget_pod("pod-a");
        assert_eq!(a.get(1, "pod-c", true), Reply::Found);
        assert_eq!(a.lost(), 0);
        assert_eq!(a.post(2, "pod-c", false), Reply::Unavailable);
    }
}
