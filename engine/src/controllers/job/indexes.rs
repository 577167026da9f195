//! Indexed Jobs (`indexed_job_utils.go`): a Pod's completion index
//! (`getCompletionIndex`), the succeeded indexes (`calculateSucceededIndexes`), and
//! completed-index sets as `status.completedIndexes` writes them
//! (`orderedIntervals.String`, `parseIndexesFromString`).
//!
//! A set of indexes is kept as upstream keeps it, as ordered intervals: a Job of
//! 2,147,483,647 completions, or a `completedIndexes` of `0-2147483646`, costs what
//! its intervals do, never an entry per index.

use crate::api::*;

/// The annotation (and label) holding an Indexed Job Pod's index.
pub const JOB_COMPLETION_INDEX: &str = "batch.kubernetes.io/job-completion-index";

/// `orderedIntervals`: a set of indexes as sorted intervals `[first, last]` that
/// neither overlap nor touch (`{1,3,4,5}` is `[1,1],[3,5]`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OrderedIntervals(Vec<(i64, i64)>);

impl OrderedIntervals {
    /// The intervals of `intervals` in any order, overlapping or not, as one set.
    fn from_unsorted(mut intervals: Vec<(i64, i64)>) -> Self {
        intervals.sort_unstable();
        let mut out: Vec<(i64, i64)> = Vec::with_capacity(intervals.len());
        for (first, last) in intervals {
            match out.last_mut() {
                Some(prev) if first <= prev.1.saturating_add(1) => prev.1 = prev.1.max(last),
                _ => out.push((first, last)),
            }
        }
        OrderedIntervals(out)
    }

    /// The set of the given indexes.
    pub fn from_indexes(indexes: impl IntoIterator<Item = i64>) -> Self {
        Self::from_unsorted(indexes.into_iter().map(|i| (i, i)).collect())
    }

    /// The intervals, in order.
    pub fn intervals(&self) -> &[(i64, i64)] {
        &self.0
    }

    /// No index at all.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// How many indexes (`total`).
    pub fn total(&self) -> i64 {
        self.0.iter().map(|(a, b)| b - a + 1).sum()
    }

    /// Whether `i` is in the set (`has`).
    pub fn has(&self, i: i64) -> bool {
        let at = self.0.partition_point(|&(_, last)| last < i);
        self.0.get(at).is_some_and(|&(first, _)| first <= i)
    }

    /// The set with `other`'s indexes too (`merge`).
    pub fn merge(&self, other: &OrderedIntervals) -> Self {
        Self::from_unsorted(self.0.iter().chain(&other.0).copied().collect())
    }

    /// The set with `indexes` added (`withOrderedIndexes`).
    pub fn with_indexes(&self, indexes: impl IntoIterator<Item = i64>) -> Self {
        self.merge(&Self::from_indexes(indexes))
    }

    /// How many indexes both sets hold.
    pub fn intersection_total(&self, other: &OrderedIntervals) -> i64 {
        let (mut i, mut j, mut n) = (0, 0, 0);
        while let (Some(&(a1, b1)), Some(&(a2, b2))) = (self.0.get(i), other.0.get(j)) {
            let (lo, hi) = (a1.max(a2), b1.min(b2));
            if lo <= hi {
                n += hi - lo + 1;
            }
            if b1 < b2 {
                i += 1;
            } else {
                j += 1;
            }
        }
        n
    }

    /// The lowest `n` indexes in `[0, below)` not in the set.
    pub fn first_missing(&self, below: i64, n: usize) -> Vec<i64> {
        let mut out = Vec::new();
        let mut next = 0;
        let gaps = self
            .0
            .iter()
            .map(|&(first, last)| (first, last.saturating_add(1)))
            .chain(std::iter::once((i64::MAX, i64::MAX)));
        for (first, after) in gaps {
            while next < first.min(below) && out.len() < n {
                out.push(next);
                next += 1;
            }
            if out.len() >= n || next >= below {
                break;
            }
            next = next.max(after);
        }
        out
    }
}

/// `orderedIntervals.String`: intervals joined by `,`; one index prints as `a`, two
/// adjacent ones as `a,b`, three or more as `a-b` (`{1,3,4,5}` → `1,3-5`).
impl std::fmt::Display for OrderedIntervals {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for (i, &(first, last)) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            match last - first {
                0 => write!(f, "{first}")?,
                1 => write!(f, "{first},{last}")?,
                _ => write!(f, "{first}-{last}")?,
            }
        }
        Ok(())
    }
}

/// An Indexed Job Pod's index, if valid and below completions (`getCompletionIndex`).
pub(super) fn valid_index(job: &Job, p: &Pod) -> Option<i64> {
    let i: i64 = p
        .metadata
        .annotations
        .get(JOB_COMPLETION_INDEX)?
        .parse()
        .ok()?;
    (i >= 0 && i < job.spec.completions.unwrap_or(0)).then_some(i)
}

/// `calculateSucceededIndexes`: the recorded ones and the newly succeeded Pods'.
pub(super) fn succeeded_indexes(job: &Job, new_succeeded: &[&Pod]) -> OrderedIntervals {
    let completions = job.spec.completions.unwrap_or(0);
    parse_indexes(&job.status.completed_indexes, completions)
        .with_indexes(new_succeeded.iter().filter_map(|p| valid_index(job, p)))
}

/// `parseIndexesFromString`: corrupt intervals are skipped, intervals starting at or
/// past `completions` end the parse, and a last index is clamped to `completions − 1`.
pub fn parse_indexes(s: &str, completions: i64) -> OrderedIntervals {
    let mut out = Vec::new();
    if s.is_empty() {
        return OrderedIntervals::default();
    }
    for part in s.split(',') {
        let (a, b) = match part.split_once('-') {
            Some((a, b)) => (a.parse::<i64>(), b.parse::<i64>()),
            None => (part.parse::<i64>(), part.parse::<i64>()),
        };
        let (Ok(first), Ok(last)) = (a, b) else {
            continue;
        };
        if first >= completions {
            break;
        }
        if first < 0 || last < first {
            continue;
        }
        out.push((first, last.min(completions - 1)));
    }
    OrderedIntervals::from_unsorted(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn set(v: &[i64]) -> OrderedIntervals {
        OrderedIntervals::from_indexes(v.iter().copied())
    }

    #[test]
    fn intervals_print_as_upstream_writes_them() {
        assert_eq!(set(&[1, 3, 4, 5]).to_string(), "1,3-5");
        assert_eq!(set(&[0, 1]).to_string(), "0,1");
        assert_eq!(set(&[0, 1, 2, 7]).to_string(), "0-2,7");
        assert_eq!(set(&[5, 0, 2, 1, 5]).to_string(), "0-2,5");
        assert_eq!(set(&[]).to_string(), "");
    }

    #[test]
    fn parsing_skips_corrupt_intervals_and_clamps_to_completions() {
        assert_eq!(parse_indexes("0,x,2-3,5-9", 7), set(&[0, 2, 3, 5, 6]));
        assert!(parse_indexes("8", 7).is_empty());
        // Overlapping and unordered intervals are one set.
        assert_eq!(parse_indexes("4-6,0-1,5,2", 10).to_string(), "0-2,4-6");
    }

    #[test]
    fn a_range_of_two_billion_indexes_is_one_interval() {
        let all = parse_indexes("0-2147483646", 2_147_483_647);
        assert_eq!(all.intervals(), &[(0, 2_147_483_646)]);
        assert_eq!(all.total(), 2_147_483_647);
        assert!(all.has(2_147_483_646) && !all.has(2_147_483_647));
        assert!(all.first_missing(2_147_483_647, 500).is_empty());
        let holes = parse_indexes("0-9,11-2147483646", 2_147_483_647);
        assert_eq!(holes.first_missing(2_147_483_647, 500), vec![10]);
        assert_eq!(holes.to_string(), "0-9,11-2147483646");
    }

    #[test]
    fn the_first_missing_indexes_are_the_lowest_gaps_below_the_bound() {
        let s = set(&[0, 1, 3, 6]);
        assert_eq!(s.first_missing(8, 3), vec![2, 4, 5]);
        assert_eq!(s.first_missing(8, 10), vec![2, 4, 5, 7]);
        assert_eq!(s.first_missing(3, 10), vec![2]);
        assert_eq!(set(&[]).first_missing(3, 2), vec![0, 1]);
    }

    #[test]
    fn intersections_count_shared_indexes_across_intervals() {
        let a = parse_indexes("0-9,20-29", 100);
        let b = parse_indexes("5-24,28", 100);
        assert_eq!(a.intersection_total(&b), 5 + 5 + 1);
        assert_eq!(b.intersection_total(&a), 11);
        assert_eq!(a.merge(&b).to_string(), "0-29");
    }
}
