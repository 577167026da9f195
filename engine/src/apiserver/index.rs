//! The store's indexes: Pods by node and per-node request sums, dependents by owner
//! uid, objects by uid, Nodes by position, Events by time, images by node — kept as
//! objects are written, so no component has to scan every object.

use super::*;

impl Store {
    /// Keep `node_list` in step with a Node write (`Some`) or removal (`None`).
    pub(super) fn node_list_set(&mut self, name: &str, obj: Option<&Arc<Object>>) {
        let at = self.node_list.binary_search_by(|(n, _)| (**n).cmp(name));
        let topology = |o: &Object| {
            let labels = &o.meta().labels;
            super::TOPOLOGY_LABELS.map(|k| labels.get(k).map(|v| Arc::from(v.as_str())))
        };
        match (at, obj) {
            (Ok(i), Some(o)) => {
                self.node_list[i].1 = o.clone();
                self.node_topology[i] = topology(o);
            }
            (Err(i), Some(o)) => {
                self.node_list.insert(i, (Arc::from(name), o.clone()));
                let usage = self.node_usage.get(name).copied().unwrap_or_default();
                self.node_usage_list.insert(i, usage);
                self.node_topology.insert(i, topology(o));
                self.node_list_generation += 1;
            }
            (Ok(i), None) => {
                self.node_list.remove(i);
                self.node_usage_list.remove(i);
                self.node_topology.remove(i);
                self.node_list_generation += 1;
            }
            (Err(_), None) => {}
        }
    }

    /// Copy `node_usage` of `name` to its position in the node list, if it is a Node
    /// (Pods may be bound to a name no Node has: their sums wait in the map).
    fn mirror_usage(&mut self, name: &str) {
        if let Ok(i) = self.node_list.binary_search_by(|(n, _)| (**n).cmp(name)) {
            self.node_usage_list[i] = self.node_usage.get(name).copied().unwrap_or_default();
        }
    }

    /// [`Store::node_usage`] the plain way: sum the node's non-terminal Pods' requests
    /// and parse its allocatable.
    pub(super) fn node_usage_recounted(&self, node: &str) -> NodeUsage {
        let mut u = NodeUsage {
            // None: the filters and scores parse the Node's allocatable themselves.
            ..NodeUsage::default()
        };
        // Each Pod's requests parsed afresh, not the index's kept ones: this is the
        // reference the kept sums are checked against.
        for p in self.pods_on_node(node).filter(|p| !p.is_terminal()) {
            u.add_bound(p, &pod_requests(p));
        }
        u
    }

    pub(super) fn index_remove(&mut self, obj: &Object) {
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
            self.mirror_usage(&n.metadata.name);
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
        if takes_owner(obj.kind()) && meta.controller_ref().is_none() {
            if let Some(set) = self.orphans.get_mut(&(obj.kind(), meta.namespace.clone())) {
                set.remove(&key);
            }
        }
        if let Object::Pod(p) = obj {
            if !p.spec.node_name.is_empty() {
                self.pods_with_affinity.remove(&key);
                let kept = self
                    .pods_by_node
                    .get_mut(&p.spec.node_name)
                    .and_then(|set| set.remove(&key));
                if !p.is_terminal() {
                    // The requests kept with the entry are this version's (same spec).
                    let r = kept.map_or_else(|| pod_requests(p), |(_, r)| r);
                    self.node_usage
                        .entry(p.spec.node_name.clone())
                        .or_default()
                        .remove_bound(p, &r);
                    self.mirror_usage(&p.spec.node_name);
                }
            }
        }
    }

    /// Whether a write from `old` to `new` leaves every index as it was (all but the
    /// object references in `by_owner`): true for most writes (status updates), which
    /// then skip removing and re-adding a dozen index entries.
    pub(super) fn same_index_inputs(old: &Object, new: &Object) -> bool {
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
    pub(super) fn index_refresh(&mut self, kind: Kind, key: &ObjKey, obj: &Arc<Object>) {
        let ik = (kind, key.clone());
        for r in &obj.meta().owner_references {
            if let Some(slot) = self.by_owner.get_mut(&r.uid).and_then(|m| m.get_mut(&ik)) {
                *slot = obj.clone();
            }
        }
        if let Object::Pod(p) = &**obj {
            let bound = self.pods_by_node.get_mut(&p.spec.node_name);
            if let Some(slot) = bound.and_then(|m| m.get_mut(key)) {
                // Same spec (`same_index_inputs`): the same requests.
                slot.0 = obj.clone();
            }
        }
    }

    pub(super) fn index_add(&mut self, obj: &Arc<Object>) {
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
        let stored = obj;
        let obj: &Object = obj;
        if let Object::Event(e) = obj {
            self.events_by_time.insert((e.last_ms, key.clone()));
        }
        if let Object::Node(n) = obj {
            self.node_usage
                .entry(n.metadata.name.clone())
                .or_default()
                .alloc = Some(allocatable(n));
            self.mirror_usage(&n.metadata.name);
            for img in &n.status.images {
                for name in &img.names {
                    let e = self.image_states.entry(name.clone()).or_insert((0, 0));
                    e.0 = img.size_bytes;
                    e.1 += 1;
                }
            }
        }
        if takes_owner(obj.kind()) && meta.controller_ref().is_none() {
            self.orphans
                .entry((obj.kind(), meta.namespace.clone()))
                .or_default()
                .insert(key.clone());
        }
        if let Object::Pod(p) = obj {
            if !p.spec.node_name.is_empty() {
                if has_pod_affinity(p) {
                    self.pods_with_affinity.insert(key.clone());
                }
                let r = pod_requests(p);
                self.pods_by_node
                    .entry(p.spec.node_name.clone())
                    .or_default()
                    .insert(key, (stored.clone(), r));
                if !p.is_terminal() {
                    self.node_usage
                        .entry(p.spec.node_name.clone())
                        .or_default()
                        .add_bound(p, &r);
                    self.mirror_usage(&p.spec.node_name);
                }
            }
        }
    }
}

/// Kinds a controller adopts when they match its selector and have no controller:
/// Pods (ReplicaSets adopt them) and ReplicaSets (Deployments adopt them).
fn takes_owner(kind: Kind) -> bool {
    matches!(kind, Kind::Pod | Kind::ReplicaSet)
}
