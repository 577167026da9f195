//! A controller's work queue and its rate limiter.
//!
//! Upstream: `staging/src/k8s.io/client-go/util/workqueue` (`queue.go`: a key added
//! twice before it is processed is processed once; `default_rate_limiters.go`:
//! `DefaultControllerRateLimiter`, the larger of `ItemExponentialFailureRateLimiter`,
//! whose delay doubles with each failure of a key until `Forget`, and a
//! `BucketRateLimiter` of 10 requeues per second with a burst of 100 across keys).

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

    /// The first `n` queued keys, in the order they will be synced.
    pub fn peek(&self, n: usize) -> impl Iterator<Item = &K> {
        self.dirty.iter().take(n)
    }
}

/// How a work-queue key is shown (the page's queue view, `sim queues`).
pub trait KeyLabel {
    /// `namespace/name`, or `kind namespace/name` for keys that carry a kind.
    fn label(&self) -> String;
}

impl KeyLabel for crate::apiserver::ObjKey {
    fn label(&self) -> String {
        self.to_string()
    }
}

impl KeyLabel for (crate::api::Kind, crate::apiserver::ObjKey) {
    fn label(&self) -> String {
        format!("{}/{}", self.0.name().to_ascii_lowercase(), self.1)
    }
}

/// `BucketRateLimiter`'s rate: one token per 100 ms (10 qps).
const BUCKET_MS_PER_TOKEN: i64 = 100;
/// `BucketRateLimiter`'s burst: 100 tokens.
const BUCKET_BURST: i64 = 100;
/// Tokens are counted in thousandths, so refills of a few ms are not lost.
const MILLI: i64 = 1_000;

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
    /// The overall bucket's tokens (thousandths; below zero once reservations run
    /// ahead of the refill, as `rate.Limiter.Reserve` allows).
    tokens: i64,
    /// When the bucket was last refilled.
    refilled: SimTime,
}

impl<K: Ord> RateLimiter<K> {
    /// A limiter from `base` doubling up to `max`.
    pub fn new(base: SimTime, max: SimTime) -> Self {
        RateLimiter {
            base,
            max,
            failures: BTreeMap::new(),
            tokens: BUCKET_BURST * MILLI,
            refilled: 0,
        }
    }

    /// `When`: one more failure of `key`; how long to wait before retrying it — the
    /// per-key exponential delay or the overall bucket's, whichever is longer
    /// (`MaxOfRateLimiter`).
    pub fn when(&mut self, key: K, now: SimTime) -> SimTime {
        let n = self.failures.entry(key).or_insert(0);
        let exp = (*n).min(62);
        *n = n.saturating_add(1);
        let per_key = self.base.saturating_mul(1u64 << exp).min(self.max);
        per_key.max(self.reserve(now))
    }

    /// Take one token from the overall bucket: how long until it is there.
    fn reserve(&mut self, now: SimTime) -> SimTime {
        let elapsed = now
            .saturating_sub(self.refilled)
            .min(i64::MAX as u64 / MILLI as u64) as i64;
        self.refilled = self.refilled.max(now);
        self.tokens =
            (self.tokens + elapsed * MILLI / BUCKET_MS_PER_TOKEN).min(BUCKET_BURST * MILLI);
        self.tokens -= MILLI;
        if self.tokens >= 0 {
            0
        } else {
            // Whole ms until the deficit is refilled.
            (((-self.tokens) * BUCKET_MS_PER_TOKEN) as u64).div_ceil(MILLI as u64)
        }
    }

    /// Keys that failed and wait for a retry (their `NumRequeues` is above zero).
    pub fn failing(&self) -> usize {
        self.failures.len()
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
        let delays: Vec<SimTime> = (0..6).map(|_| r.when("k", 0)).collect();
        assert_eq!(delays, vec![5, 10, 20, 40, 40, 40]);
        assert_eq!(r.num_requeues(&"k"), 6);
        assert_eq!(r.when("other", 0), 5);
        assert_eq!(r.failing(), 2);
        r.forget(&"k");
        assert_eq!(r.num_requeues(&"k"), 0);
        assert_eq!(r.when("k", 0), 5);
    }

    #[test]
    fn a_huge_failure_count_never_overflows_the_delay() {
        let mut r = RateLimiter::new(1_000, 1_000_000);
        for _ in 0..200 {
            assert!(r.when(1, 0) <= 1_000_000);
        }
    }

    #[test]
    fn past_a_burst_of_100_the_overall_bucket_spaces_retries_10_per_second() {
        let mut r = RateLimiter::new(5, 1_000_000);
        // 100 different keys failing at once: each waits its own 5 ms.
        for k in 0..100 {
            assert_eq!(r.when(k, 0), 5);
        }
        // The 101st, 102nd… wait for the bucket: 100 ms, 200 ms…
        assert_eq!(r.when(100, 0), 100);
        assert_eq!(r.when(101, 0), 200);
        // A second later ten tokens came back, two of them owed.
        assert_eq!(r.when(102, 1_000), 5);
    }
}
