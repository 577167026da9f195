//! Stable sorts through one shared instantiation of the standard library's sort.
//!
//! Why: `slice::sort_by` is generic over the element and the comparator, so every call
//! site with its own closure compiled its own copy of the driftsort and quicksort
//! machinery, about 3.5 KB of WebAssembly each; a hundred call sites were about 8% of
//! the page's module. Here the sort itself runs once, over positions, with the
//! comparison behind a `dyn` call; only the small permutation step is per element type.
//! The order is exactly `sort_by`'s: stable, equal elements keep their input order.

use std::cmp::Ordering;

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
    fn a_long_reversed_run_with_ties_sorts_as_sort_by_key_does() {
        let v: Vec<(u32, u32)> = (0..1000).map(|i| ((1000 - i) % 17, i)).collect();
        let mut ours = v.clone();
        sort_by_key(&mut ours, |p| p.0);
        let mut std = v;
        std.sort_by_key(|p| p.0);
        assert_eq!(ours, std);
    }
}
