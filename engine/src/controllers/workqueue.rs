//! A controller's work queue and its rate limiter.
//!
//! Upstream: `staging/src/k8s.io/client-go/util/workqueue` (`queue.go`: a key added
//! twice before it is processed is processed once; `default_rate_limiters.go`:
//! `ItemExponentialFailureRateLimiter`, whose delay doubles with each failure of a key
//! until `Forget`).

use crate::time::SimTime;
use std::collections::{BTreeMap, BTreeSet};

/// A deduplicating work queue of keys (client-go's workqueue without rate limiting:
/// a key added twice before it is processed is processed once).
#[derive(Clone, Debug)]
pub struct WorkQueue<K: Ord = crate::apiserver::ObjKey> {
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

/// `ItemExponentialFailureRateLimiter`: the delay before a failed key is retried is
/// `base × 2^(failures − 1)`, at most `max`; [`RateLimiter::forget`] (the key synced
/// without error) starts it over.
#[derive(Clone, Debug)]
pub struct RateLimiter<K: Ord> {
    /// Delay after the first failure.
    pub base: SimTime,
    /// Longest delay.
    pub max: SimTime,
    failures: BTreeMap<K, u32>,
}

impl<K: Ord> RateLimiter<K> {
    /// A limiter from `base` doubling up to `max`.
    pub fn new(base: SimTime, max: SimTime) -> Self {
        RateLimiter {
            base,
            max,
            failures: BTreeMap::new(),
        }
    }

    /// `When`: one more failure of `key`; how long to wait before retrying it.
    pub fn when(&mut self, key: K) -> SimTime {
        let n = self.failures.entry(key).or_insert(0);
        let exp = (*n).min(62);
        *n = n.saturating_add(1);
        self.base.saturating_mul(1u64 << exp).min(self.max)
    }

    /// `Forget`: `key` succeeded; its next failure starts from `base` again.
    pub fn forget(&mut self, key: &K) {
        self.failures.remove(key);
    }

    /// `NumRequeues`: failures of `key` since it last succeeded.
    pub fn num_requeues(&self, key: &K) -> u32 {
        self.failures.get(key).copied().unwrap_or(0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_added_twice_before_it_is_processed_is_processed_once() {
        let mut q = WorkQueue::default();
        q.add("b");
        q.add("a");
        q.add("b");
        assert_eq!(q.len(), 2);
        assert_eq!(q.drain(), vec!["a", "b"]);
        assert!(q.is_empty());
    }

    #[test]
    fn the_retry_delay_doubles_per_failure_up_to_the_maximum_and_forget_starts_it_over() {
        let mut r = RateLimiter::new(5, 40);
        let delays: Vec<SimTime> = (0..6).map(|_| r.when("k")).collect();
        assert_eq!(delays, vec![5, 10, 20, 40, 40, 40]);
        assert_eq!(r.num_requeues(&"k"), 6);
        assert_eq!(r.when("other"), 5);
        r.forget(&"k");
        assert_eq!(r.num_requeues(&"k"), 0);
        assert_eq!(r.when("k"), 5);
    }

    #[test]
    fn a_huge_failure_count_never_overflows_the_delay() {
        let mut r = RateLimiter::new(1_000, 1_000_000);
        for _ in 0..200 {
            assert!(r.when(1) <= 1_000_000);
        }
    }
}
