//! Stable sorts through one shared instantiation of the standard library's sort.
//!
//! Why: `slice::sort_by` is generic over the element and the comparator, so every call
//! site with its own closure compiled its own copy of the driftsort and quicksort
//! machinery, about 3.5 KB of WebAssembly each; a hundred call sites were about 8% of
//! the page's module. Here the sort itself runs once, over positions, with the
//! comparison behind a `dyn` call; only the small permutation step is per element type.
//! The order is exactly `sort_by`'s: stable, equal elements keep their input order.

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet};

/// The positions `0..n` in the order `cmp` sorts them, stably.
fn sorted_positions(n: usize, cmp: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut positions: Vec<usize> = (0..n).collect();
    positions.sort_by(|&a, &b| cmp(a, b));
    positions
}

/// Reorder `v` so that its element at `i` is the one that was at `from[i]`, following
/// each cycle of the permutation with swaps.
fn permute<T>(v: &mut [T], mut from: Vec<usize>) {
    const DONE: usize = usize::MAX;
    for start in 0..v.len() {
        let mut at = start;
        loop {
            let src = from[at];
            if src == DONE {
                break;
            }
            from[at] = DONE;
            if src == start {
                break;
            }
            v.swap(at, src);
            at = src;
        }
    }
}

/// Sort `v` stably by `cmp`, as `v.sort_by(cmp)` does.
pub fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let order = sorted_positions(v.len(), &mut |a, b| cmp(&v[a], &v[b]));
    permute(v, order);
}

/// Sort `v` stably by the key `key` gives, as `v.sort_by_key(key)` does.
pub fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sort `v` stably in its elements' own order, as `v.sort()` does.
pub fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// A B-tree map of `pairs`, each inserted in turn: what `collect()` makes (a later
/// pair's value wins over an earlier one's with an equal key), without the sort that
/// `collect()` runs first and compiles again for each iterator type.
pub fn btree_map<K: Ord, V>(pairs: impl IntoIterator<Item = (K, V)>) -> BTreeMap<K, V> {
    let mut m = BTreeMap::new();
    for (k, v) in pairs {
        m.insert(k, v);
    }
    m
}

/// A B-tree set of `items`, each inserted in turn: what `collect()` makes, without its
/// sort (see [`btree_map`]).
pub fn btree_set<T: Ord>(items: impl IntoIterator<Item = T>) -> BTreeSet<T> {
    let mut s = BTreeSet::new();
    for x in items {
        s.insert(x);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorting_matches_the_standard_librarys_stable_sort_on_every_small_input() {
        // Every sequence of length 0..=6 over three values, with each element tagged by
        // its input position so that stability shows.
        for len in 0..=6u32 {
            for code in 0..3usize.pow(len) {
                let mut c = code;
                let v: Vec<(usize, usize)> = (0..len as usize)
                    .map(|i| {
                        let x = c % 3;
                        c /= 3;
                        (x, i)
                    })
                    .collect();
                let mut ours = v.clone();
                sort_by(&mut ours, |a, b| a.0.cmp(&b.0));
                let mut std = v.clone();
                std.sort_by_key(|a| a.0);
                assert_eq!(ours, std, "input {v:?}");
            }
        }
    }

    #[test]
    fn maps_and_sets_built_by_inserting_equal_those_collect_builds() {
        let pairs = [(3, "c"), (1, "a"), (3, "z"), (2, "b"), (1, "y")];
        let collected: BTreeMap<i32, &str> = pairs.into_iter().collect();
        assert_eq!(btree_map(pairs), collected);
        let collected: BTreeSet<i32> = pairs.iter().map(|p| p.0).collect();
        assert_eq!(btree_set(pairs.iter().map(|p| p.0)), collected);
    }

    #[test]
    fn a_long_reversed_run_with_ties_sorts_as_sort_by_key_does() {
        let v: Vec<(u32, u32)> = (0..1000).map(|i| ((1000 - i) % 17, i)).collect();
        let mut ours = v.clone();
        sort_by_key(&mut ours, |p| p.0);
        let mut std = v;
        std.sort_by_key(|p| p.0);
        assert_eq!(ours, std);
    }
}
