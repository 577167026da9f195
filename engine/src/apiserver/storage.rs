//! The store's own writes under every verb: the next resourceVersion, the watch-log
//! entry with its writer, and putting or removing an object with its indexes, its
//! hash bucket and the journal kept in step.
//!
//! Upstream: the storage layer under `registry/generic/registry/store.go`
//! (`staging/src/k8s.io/apiserver/pkg/storage/etcd3/store.go`).

use super::events::event_dedupe_hash;
use super::*;

impl Store {
    pub(super) fn next_rv(&mut self) -> u64 {
        self.revision += 1;
        self.revision
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn record(
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
    pub(super) fn put(
        &mut self,
        now: SimTime,
        verb: &'static str,
        obj: Object,
        writer: &str,
    ) -> Change {
        self.put_at(now, verb, obj, writer, true)
    }

    /// Put an object as a restored snapshot holds it: with the resourceVersion it had
    /// there (`mvcc::restore_objects`).
    pub(super) fn put_restored(&mut self, now: SimTime, obj: Object, writer: &str) -> Change {
        self.put_at(now, "restore", obj, writer, false)
    }

    fn put_at(
        &mut self,
        now: SimTime,
        verb: &'static str,
        mut obj: Object,
        writer: &str,
        new_rv: bool,
    ) -> Change {
        let kind = obj.kind();
        let key = ObjKey::of(obj.meta());
        self.mvcc_tick(now);
        let rv = self.next_rv();
        if new_rv {
            obj.meta_mut().resource_version = rv.to_string();
        }
        // The old version by its hash (one compare), not by a B-tree removal: the
        // insert below replaces it in place, so the tree is walked once per write.
        let old = self.get_shared(kind, &key);
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
        self.mvcc_put(rv, &obj, old.as_ref());
        if let Some(j) = &mut self.journal {
            j.push(Written {
                resource_version: rv,
                type_,
                object: obj.clone(),
                prev: old.clone(),
                at: now,
            });
        }
        self.note_followed((type_, rv, now), &key, &obj, old.as_ref());
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
        self.by_hash_set(kind, &key, Some(&obj));
        self.objects.of_mut(kind).insert(key.clone(), obj.clone());
        Change {
            type_,
            kind,
            key,
            old,
            new: Some(obj),
        }
    }

    /// Remove an object from the store for good.
    pub(super) fn remove(
        &mut self,
        now: SimTime,
        kind: Kind,
        key: &ObjKey,
        writer: &str,
    ) -> Option<Change> {
        let old = self.objects.of_mut(kind).remove(key)?;
        self.by_hash_set(kind, key, None);
        self.index_remove(&old);
        if let Object::Service(svc) = &*old {
            self.release_service(svc);
        }
        if kind == Kind::Node {
            self.node_list_set(&key.name, None);
        }
        self.mvcc_tick(now);
        let rv = self.next_rv();
        self.mvcc_delete(rv, &old);
        self.record(
            now,
            WatchType::Deleted,
            "delete",
            &old,
            writer,
            rv,
            String::new(),
        );
        if let Some(j) = &mut self.journal {
            j.push(Written {
                resource_version: rv,
                type_: WatchType::Deleted,
                object: old.clone(),
                prev: Some(old.clone()),
                at: now,
            });
        }
        self.note_followed((WatchType::Deleted, rv, now), key, &old, Some(&old));
        if let Object::Service(svc) = &*old {
            // The allocator releases the address once the Service is gone.
            let ip = super::services::allocated_ip(svc);
            self.sync_ip_address(now, ip.as_deref(), None);
        }
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
}
