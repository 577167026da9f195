//! Indexed Jobs (`indexed_job_utils.go`): a Pod's completion index
//! (`getCompletionIndex`), the succeeded indexes (`calculateSucceededIndexes`), and
//! completed-index sets as `status.completedIndexes` writes them
//! (`orderedIntervals.String`, `parseIndexesFromString`).

use crate::api::*;
use std::collections::BTreeSet;

/// The annotation (and label) holding an Indexed Job Pod's index.
pub const JOB_COMPLETION_INDEX: &str = "batch.kubernetes.io/job-completion-index";

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
pub(super) fn succeeded_indexes(job: &Job, new_succeeded: &[&Pod]) -> BTreeSet<i64> {
    let completions = job.spec.completions.unwrap_or(0);
    let mut set = parse_indexes(&job.status.completed_indexes, completions);
    set.extend(new_succeeded.iter().filter_map(|p| valid_index(job, p)));
    set
}

/// `orderedIntervals.String`: intervals joined by `,`; one index prints as `a`, two
/// adjacent ones as `a,b`, three or more as `a-b` (`{1,3,4,5}` → `1,3-5`).
pub fn format_indexes(set: &BTreeSet<i64>) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut it = set.iter().copied().peekable();
    while let Some(first) = it.next() {
        let mut last = first;
        while it.peek() == Some(&(last + 1)) {
            last = it.next().unwrap_or(last);
        }
        match last - first {
            0 => parts.push(first.to_string()),
            1 => {
                parts.push(first.to_string());
                parts.push(last.to_string());
            }
            _ => parts.push(format!("{first}-{last}")),
        }
    }
    parts.join(",")
}

/// `parseIndexesFromString`: corrupt intervals are skipped, intervals starting at or
/// past `completions` end the parse, and a last index is clamped to `completions − 1`.
pub fn parse_indexes(s: &str, completions: i64) -> BTreeSet<i64> {
    let mut out = BTreeSet::new();
    if s.is_empty() {
        return out;
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
        out.extend(first..=last.min(completions - 1));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_print_as_upstream_writes_them() {
        let set = |v: &[i64]| v.iter().copied().collect::<BTreeSet<i64>>();
        assert_eq!(format_indexes(&set(&[1, 3, 4, 5])), "1,3-5");
        assert_eq!(format_indexes(&set(&[0, 1])), "0,1");
        assert_eq!(format_indexes(&set(&[0, 1, 2, 7])), "0-2,7");
        assert_eq!(format_indexes(&set(&[])), "");
    }

    #[test]
    fn parsing_skips_corrupt_intervals_and_clamps_to_completions() {
        let v: Vec<i64> = parse_indexes("0,x,2-3,5-9", 7).into_iter().collect();
        assert_eq!(v, vec![0, 2, 3, 5, 6]);
        assert!(parse_indexes("8", 7).is_empty());
    }
}
