//! Events, recorded through client-go's EventCorrelator: the spam filter (a source may
//! send 25 events about one object, then one every 5 minutes), the aggregator (more than
//! 10 similar events — same source, object, type and reason, other messages — within 10
//! minutes become one `(combined from similar events): …` event), and the logger (a
//! repeat of the same event bumps its count and last timestamp).
//!
//! Events expire an hour after their last update (kube-apiserver's `--event-ttl`).
//!
//! Upstream: `staging/src/k8s.io/client-go/tools/record/events_cache.go`
//! (`EventSourceObjectSpamFilter`, `EventAggregator`, `eventLogger`). Upstream keeps this
//! state per recorder in LRU caches of 4,096 entries; here it is one table keyed by the
//! same fields (hashed: a collision could only merge two objects' budgets).

use super::*;

/// `--event-ttl`: an Event lives an hour past its last update (etcd's lease on it).
pub const EVENT_TTL: SimTime = 3_600_000;

impl Store {
    /// Drop the Events last updated more than [`EVENT_TTL`] ago, as their etcd lease
    /// runs out: the oldest first, each a deletion in the watch log.
    fn expire_events(&mut self, now: SimTime) {
        while let Some((t, key)) = self.events_by_time.first().cloned() {
            if now.saturating_sub(t) < EVENT_TTL {
                break;
            }
            if self
                .remove(now, Kind::Event, &key, super::KUBE_APISERVER)
                .is_none()
            {
                self.events_by_time.remove(&(t, key));
            }
        }
    }

    /// Upstream keeps the correlator's state in LRU caches of 4,096 entries; here the
    /// tables are swept, once they pass a mark that doubles with what is left, of the
    /// entries that no longer decide anything: a spam bucket refilled to the brim (a new
    /// one would be the same) and an aggregation group quiet for its whole interval
    /// (its next event resets it). Nothing any later event would see changes.
    fn sweep_correlator(&mut self, now: SimTime) {
        let size = self.event_spam.len() + self.event_groups.len();
        if size <= self.event_sweep_mark.max(4_096) {
            return;
        }
        let full = SPAM_BURST * SPAM_REFILL_MS;
        self.event_spam
            .retain(|_, (tokens, last)| tokens.saturating_add(now.saturating_sub(*last)) < full);
        self.event_groups
            .retain(|_, g| now.saturating_sub(g.last) <= AGGREGATE_INTERVAL_MS);
        self.event_sweep_mark = 2 * (self.event_spam.len() + self.event_groups.len());
    }

    /// Record a Kubernetes Event about `involved` as client-go's EventCorrelator would:
    /// None when the spam filter drops it; identical events (same object, type, reason,
    /// message, source) are counted on one Event object; an 11th similar one within 10
    /// minutes is counted on the aggregate event.
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
    ) -> Option<Change> {
        // Recording is when old Events are looked at: they only ever grow by it.
        self.expire_events(now);
        self.sweep_correlator(now);
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
        if !self.spam_filter_accepts(&probe, now) {
            return None;
        }
        let mut probe = probe;
        if let Some(aggregate) = self.aggregate(&mut probe, now) {
            // The aggregate event of this group: counted and re-worded, or made anew.
            if let Some(Object::Event(e)) = aggregate.and_then(|k| self.get_object(Kind::Event, &k))
            {
                let mut e = e.clone();
                e.count += 1;
                e.message = probe.message;
                e.last_ms = now;
                e.last_timestamp = rfc3339(now);
                return Some(self.put(now, "update", Object::Event(e), &writer));
            }
            let key = self.new_event(&mut probe, ns, now, rng);
            self.aggregate_event_is(&probe, key);
            return Some(self.put(now, "create", Object::Event(Box::new(probe)), &writer));
        }
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
            return Some(self.put(now, "update", Object::Event(e), &writer));
        }
        let mut e = probe;
        let key = self.new_event(&mut e, ns, now, rng);
        self.event_dedupe.entry(h).or_default().push(key);
        Some(self.put(now, "create", Object::Event(Box::new(e)), &writer))
    }

    /// Name, uid and timestamps of a new Event, counted once.
    fn new_event(&mut self, e: &mut Event, ns: String, now: SimTime, rng: &mut Rng) -> ObjKey {
        self.event_seq += 1;
        // Wrapping: the name only has to be unique and stable, and simulated time may run
        // past the nanosecond range of a u64 after enough `sim advance`.
        let nanos = (EPOCH_UNIX_SECONDS as u64 * 1_000_000_000)
            .wrapping_add(now.wrapping_mul(1_000_000))
            .wrapping_add(self.event_seq);
        e.metadata = ObjectMeta {
            name: format!("{}.{nanos:x}", e.involved_object.name),
            namespace: ns,
            uid: rng.uuid_v4(),
            creation_timestamp: rfc3339(now),
            created_ms: now,
            ..Default::default()
        };
        e.count = 1;
        e.reporting_component = e.source.component.clone();
        e.reporting_instance = e.source.host.clone();
        e.first_ms = now;
        e.last_ms = now;
        e.first_timestamp = rfc3339(now);
        e.last_timestamp = rfc3339(now);
        ObjKey::of(&e.metadata)
    }

    /// `EventSourceObjectSpamFilter.Filter`: a token bucket per source and object, 25
    /// tokens, refilled at one per 300 s; an event without a token is dropped.
    fn spam_filter_accepts(&mut self, e: &Event, now: SimTime) -> bool {
        let (tokens, last) = self
            .event_spam
            .entry(spam_key(e))
            .or_insert((SPAM_BURST * SPAM_REFILL_MS, now));
        *tokens = (*tokens + now.saturating_sub(*last)).min(SPAM_BURST * SPAM_REFILL_MS);
        *last = now;
        if *tokens < SPAM_REFILL_MS {
            return false;
        }
        *tokens -= SPAM_REFILL_MS;
        true
    }

    /// `EventAggregator.EventAggregate`: None while fewer than 10 distinct messages of
    /// this group were seen in the last 10 minutes (the event goes on as it is); else
    /// the event's message gets the `(combined from similar events): ` prefix and the
    /// answer is the group's aggregate event, if it has one yet.
    fn aggregate(&mut self, e: &mut Event, now: SimTime) -> Option<Option<ObjKey>> {
        let record = self.event_groups.entry(aggregate_key(e)).or_default();
        if now.saturating_sub(record.last) > AGGREGATE_INTERVAL_MS {
            *record = EventGroup::default();
        }
        record.messages.insert(fxhash_str(&e.message));
        record.last = now;
        if record.messages.len() < AGGREGATE_MAX_EVENTS {
            return None;
        }
        // Do not grow the set past the threshold (upstream pops any one).
        record.messages.pop_first();
        e.message = format!("(combined from similar events): {}", e.message);
        Some(record.aggregate.clone())
    }

    fn aggregate_event_is(&mut self, e: &Event, key: ObjKey) {
        if let Some(record) = self.event_groups.get_mut(&aggregate_key(e)) {
            record.aggregate = Some(key);
        }
    }
}

/// `defaultSpamBurst`.
const SPAM_BURST: u64 = 25;
/// `defaultSpamQPS` is 1/300: one token every 300,000 ms (tokens are counted in ms).
const SPAM_REFILL_MS: u64 = 300_000;
/// `defaultAggregateMaxEvents`.
const AGGREGATE_MAX_EVENTS: usize = 10;
/// `defaultAggregateIntervalInSeconds`.
const AGGREGATE_INTERVAL_MS: SimTime = 600_000;

/// One aggregation group's record (`aggregateRecord`).
#[derive(Clone, Debug, Default)]
pub(super) struct EventGroup {
    /// Hashes of the distinct messages seen.
    messages: BTreeSet<u64>,
    /// When the group last had an event.
    last: SimTime,
    /// The group's aggregate event, once made.
    aggregate: Option<ObjKey>,
}

fn fxhash_str(s: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = fxhash::FxHasher::default();
    s.hash(&mut h);
    h.finish()
}

/// `getSpamKey`: source and involved object.
fn spam_key(e: &Event) -> u64 {
    let o = &e.involved_object;
    let fields = [
        &e.source.component,
        &e.source.host,
        &o.kind,
        &o.namespace,
        &o.name,
        &o.uid,
        &o.api_version,
    ];
    use std::hash::{Hash, Hasher};
    let mut h = fxhash::FxHasher::default();
    fields.hash(&mut h);
    h.finish()
}

/// `EventAggregatorByReasonFunc`'s aggregate key: source, involved object, type, reason.
fn aggregate_key(e: &Event) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut h = fxhash::FxHasher::default();
    spam_key(e).hash(&mut h);
    e.type_.hash(&mut h);
    e.reason.hash(&mut h);
    h.finish()
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
