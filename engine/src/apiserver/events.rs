//! Events: recorded with client-go's aggregation (a repeat of the same Event bumps its
//! count and last timestamp instead of adding another).
//!
//! Upstream: `staging/src/k8s.io/client-go/tools/record/events_cache.go`.

use super::*;

impl Store {
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

pub(super) fn event_dedupe_hash(e: &Event) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = fxhash::FxHasher::default();
    event_dedupe_fields(e).hash(&mut h);
    h.finish()
}

fn same_event(a: &Event, b: &Event) -> bool {
    event_dedupe_fields(a) == event_dedupe_fields(b)
}
