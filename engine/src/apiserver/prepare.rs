//! What the API server resets or keeps itself before a write: a create's server-set
//! fields (`PrepareForCreate`), and the fields JSON does not carry.

use crate::api::*;

/// What the server sets itself on a create: identity, timestamps, generation, and the
/// status of the kinds whose `PrepareForCreate` resets it.
pub fn clear_server_fields(obj: &mut Object) {
    let m = obj.meta_mut();
    m.uid.clear();
    m.resource_version.clear();
    m.creation_timestamp.clear();
    m.deletion_timestamp = None;
    m.generation = 0;
    match obj {
        Object::Deployment(d) => d.status = Default::default(),
        Object::ReplicaSet(r) => r.status = Default::default(),
        Object::Pod(p) => p.status = Default::default(),
        _ => {}
    }
}

/// Keep what JSON does not carry (simulated times) from the live object.
pub fn keep_hidden(live: &Object, new: &mut Object) {
    let (o, m) = (live.meta(), new.meta_mut());
    m.created_ms = o.created_ms;
    m.deletion_ms = o.deletion_ms;
}
