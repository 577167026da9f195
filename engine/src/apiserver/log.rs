//! The watch log: every write in order, append-only, cheap to clone.
//!
//! Why chunks: the page snapshots the whole cluster for rewinding after every command,
//! and a replayed share link does so thousands of times; a `Vec` of every write made
//! each snapshot copy the entire history (quadratic in the session's length). Full
//! chunks are frozen behind an `Arc` and shared by every clone, so a clone copies at
//! most one chunk of entries.

use super::WatchEntry;
use std::sync::Arc;

/// Entries per frozen chunk.
const CHUNK: usize = 4096;

/// The watch log.
#[derive(Clone, Debug, Default)]
pub struct WatchLog {
    frozen: Vec<Arc<[WatchEntry]>>,
    tail: Vec<WatchEntry>,
}

impl WatchLog {
    /// Append a write.
    pub fn push(&mut self, e: WatchEntry) {
        self.tail.push(e);
        if self.tail.len() == CHUNK {
            let full = std::mem::take(&mut self.tail);
            self.frozen.push(Arc::from(full));
        }
    }

    /// Number of writes.
    pub fn len(&self) -> usize {
        self.frozen.len() * CHUNK + self.tail.len()
    }

    /// No writes yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The write at `i`.
    pub fn get(&self, i: usize) -> Option<&WatchEntry> {
        match self.frozen.get(i / CHUNK) {
            Some(c) => c.get(i % CHUNK),
            None => self.tail.get(i - self.frozen.len() * CHUNK),
        }
    }

    /// Every write, oldest first (reversible).
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &WatchEntry> + '_ {
        self.frozen
            .iter()
            .flat_map(|c| c.iter())
            .chain(self.tail.iter())
    }

    /// The writes from index `start` on.
    pub fn since(&self, start: usize) -> impl Iterator<Item = &WatchEntry> + '_ {
        let first = (start / CHUNK).min(self.frozen.len());
        let skip = start - first * CHUNK;
        self.frozen[first..]
            .iter()
            .flat_map(|c| c.iter())
            .chain(self.tail.iter())
            .skip(skip)
    }
}

impl std::ops::Index<usize> for WatchLog {
    type Output = WatchEntry;
    fn index(&self, i: usize) -> &WatchEntry {
        // Callers index within len(), as with a Vec.
        self.get(i).expect("watch log index in range")
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
        assert_eq!(l[CHUNK + 3].resource_version, (CHUNK + 3) as u64);
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
}
