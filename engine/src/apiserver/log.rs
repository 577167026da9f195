//! The watch log: every write in order, append-only, cheap to clone, compacted past a
//! day.
//!
//! Why chunks: the page snapshots the whole cluster for rewinding after every command,
//! and a replayed share link does so thousands of times; a `Vec` of every write made
//! each snapshot copy the entire history (quadratic in the session's length). Full
//! chunks are frozen behind an `Arc` and shared by every clone, so a clone copies at
//! most one chunk of entries.
//!
//! Why compaction: an idle cluster writes a Lease every 10 s per node, so a log kept
//! forever grows with simulated time without end (tens of MB a simulated day). As the
//! API server compacts etcd's history, a frozen chunk whose newest write is older than
//! [`KEEP_FOR`] is dropped. Indexes stay absolute: [`WatchLog::len`] counts every write
//! ever made, and a compacted index reads as absent. Rewinding replays acts from
//! snapshots, so it needs none of the dropped writes.

use super::WatchEntry;
use std::sync::Arc;

/// Entries per frozen chunk.
const CHUNK: usize = 4096;

/// How long a write is kept: a frozen chunk all older than this is compacted away.
pub const KEEP_FOR: crate::time::SimTime = 24 * 3_600_000;

/// The watch log.
#[derive(Clone, Debug, Default)]
pub struct WatchLog {
    frozen: std::collections::VecDeque<Arc<[WatchEntry]>>,
    tail: Vec<WatchEntry>,
    /// Chunks compacted away from the front.
    dropped: usize,
}

impl WatchLog {
    /// Append a write.
    pub fn push(&mut self, e: WatchEntry) {
        let now = e.time;
        self.tail.push(e);
        if self.tail.len() == CHUNK {
            let full = std::mem::take(&mut self.tail);
            self.frozen.push_back(Arc::from(full));
            // Compact: the oldest chunks whose newest write is past the window.
            while self
                .frozen
                .front()
                .and_then(|c| c.last())
                .is_some_and(|last| now.saturating_sub(last.time) > KEEP_FOR)
            {
                self.frozen.pop_front();
                self.dropped += 1;
            }
        }
    }

    /// Number of writes ever made (compacted ones included: indexes stay absolute).
    pub fn len(&self) -> usize {
        (self.dropped + self.frozen.len()) * CHUNK + self.tail.len()
    }

    /// The index of the oldest write still kept.
    pub fn first_kept(&self) -> usize {
        self.dropped * CHUNK
    }

    /// No writes yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The write at `i`.
    pub fn get(&self, i: usize) -> Option<&WatchEntry> {
        let i = i.checked_sub(self.first_kept())?;
        match self.frozen.get(i / CHUNK) {
            Some(c) => c.get(i % CHUNK),
            None => self.tail.get(i - self.frozen.len() * CHUNK),
        }
    }

    /// Every write kept, oldest first (reversible).
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &WatchEntry> + '_ {
        self.frozen
            .iter()
            .flat_map(|c| c.iter())
            .chain(self.tail.iter())
    }

    /// The writes kept from index `start` on.
    pub fn since(&self, start: usize) -> impl Iterator<Item = &WatchEntry> + '_ {
        let start = start.saturating_sub(self.first_kept());
        let first = (start / CHUNK).min(self.frozen.len());
        let skip = start - first * CHUNK;
        self.frozen
            .range(first..)
            .flat_map(|c| c.iter())
            .chain(self.tail.iter())
            .skip(skip)
    }
}

impl PartialEq for WatchLog {
    fn eq(&self, other: &Self) -> bool {
        self.len() == other.len() && self.iter().eq(other.iter())
    }
}

impl<'a> IntoIterator for &'a WatchLog {
    type Item = &'a WatchEntry;
    type IntoIter = Box<dyn DoubleEndedIterator<Item = &'a WatchEntry> + 'a>;
    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::api::Kind;
    use crate::apiserver::{ObjKey, WatchType};

    fn entry(i: usize) -> WatchEntry {
        WatchEntry {
            resource_version: i as u64,
            time: 0,
            type_: WatchType::Added,
            verb: "create",
            kind: Kind::Pod,
            key: ObjKey::new("default", "p"),
            uid: String::new(),
            writer: String::new(),
            reason: String::new(),
            change: String::new(),
            owner_uid: String::new(),
        }
    }

    #[test]
    fn the_log_reads_like_a_vec_across_chunks_and_clones_share_frozen_chunks() {
        let mut l = WatchLog::default();
        let n = CHUNK * 2 + 17;
        for i in 0..n {
            l.push(entry(i));
        }
        assert_eq!(l.len(), n);
        assert_eq!(
            l.get(CHUNK + 3).map(|e| e.resource_version),
            Some((CHUNK + 3) as u64)
        );
        assert!(l.get(n).is_none());
        let rvs: Vec<u64> = l.iter().map(|e| e.resource_version).collect();
        assert_eq!(rvs, (0..n as u64).collect::<Vec<_>>());
        assert_eq!(l.iter().next_back().unwrap().resource_version, n as u64 - 1);
        for start in [0, 5, CHUNK, CHUNK + 1, n - 1, n] {
            let s: Vec<u64> = l.since(start).map(|e| e.resource_version).collect();
            assert_eq!(
                s,
                (start as u64..n as u64).collect::<Vec<_>>(),
                "since {start}"
            );
        }
        let c = l.clone();
        assert!(
            Arc::ptr_eq(&c.frozen[0], &l.frozen[0]),
            "frozen chunks are shared"
        );
        assert_eq!(c, l);
    }

    #[test]
    fn chunks_older_than_a_day_are_compacted_and_indexes_stay_absolute() {
        let mut l = WatchLog::default();
        let at = |i: usize| {
            let mut e = entry(i);
            e.time = i as u64 * 60_000; // a write a minute
            e
        };
        let n = CHUNK * 3;
        for i in 0..n {
            l.push(at(i));
        }
        // 3 × 4,096 minutes is over eight days: only the last day's chunk stays.
        assert_eq!(l.len(), n);
        assert!(l.first_kept() >= CHUNK * 2, "{}", l.first_kept());
        assert!(l.get(0).is_none());
        assert_eq!(l.get(n - 1).map(|e| e.resource_version), Some(n as u64 - 1));
        let kept: Vec<u64> = l.since(0).map(|e| e.resource_version).collect();
        assert_eq!(kept.first().copied(), Some(l.first_kept() as u64));
        assert_eq!(kept.len(), n - l.first_kept());
    }
}
