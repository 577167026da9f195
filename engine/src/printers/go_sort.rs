//! Go's `sort.Sort`: pattern-defeating quicksort, which is not stable. kubectl sorts
//! with it (`get --sort-by`'s RuntimeSort, `kubectl events`' SortableEvents), so equal
//! keys (Events of one second) come out in the order Go's algorithm leaves them, not
//! in list order. Transcribed step by step so that ties land where kubectl puts them.
//!
//! Upstream: Go's `src/sort/zsortinterface.go` (`pdqsort`, `insertionSort`,
//! `heapSort`, `partition`, `partitionEqual`, `partialInsertionSort`, `breakPatterns`,
//! `choosePivot`) and `src/sort/sort.go` (`Sort`, `xorshift`, `nextPowerOfTwo`).

#[derive(Clone, Copy, PartialEq, Eq)]
enum Hint {
    Unknown,
    Increasing,
    Decreasing,
}

struct Data<'a, T, F: Fn(&T, &T) -> bool> {
    v: &'a mut [T],
    less: F,
}

impl<T, F: Fn(&T, &T) -> bool> Data<'_, T, F> {
    fn less(&self, i: usize, j: usize) -> bool {
        (self.less)(&self.v[i], &self.v[j])
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.v.swap(i, j);
    }
}

/// `sort.Sort(data)` with `less` as `data.Less`.
pub fn sort<T>(v: &mut [T], less: impl Fn(&T, &T) -> bool) {
    let n = v.len();
    if n <= 1 {
        return;
    }
    // `bits.Len(uint(n))`.
    let limit = (usize::BITS - n.leading_zeros()) as usize;
    let mut d = Data { v, less };
    pdqsort(&mut d, 0, n, limit);
}

fn insertion_sort<T, F: Fn(&T, &T) -> bool>(d: &mut Data<T, F>, a: usize, b: usize) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && d.less(j, j - 1) {
            d.swap(j, j - 1);
            j -= 1;
        }
    }
}

fn sift_down<T, F: Fn(&T, &T) -> bool>(d: &mut Data<T, F>, lo: usize, hi: usize, first: usize) {
    let mut root = lo;
    loop {
        let mut child = 2 * root + 1;
        if child >= hi {
            break;
        }
        if child + 1 < hi && d.less(first + child, first + child + 1) {
            child += 1;
        }
        if !d.less(first + root, first + child) {
            return;
        }
        d.swap(first + root, first + child);
        root = child;
    }
}

fn heap_sort<T, F: Fn(&T, &T) -> bool>(d: &mut Data<T, F>, a: usize, b: usize) {
    let first = a;
    let hi = b - a;
    for i in (0..=(hi - 1) / 2).rev() {
        sift_down(d, i, hi, first);
    }
    for i in (0..hi).rev() {
        d.swap(first, first + i);
        sift_down(d, 0, i, first);
    }
}

fn pdqsort<T, F: Fn(&T, &T) -> bool>(
    d: &mut Data<T, F>,
    mut a: usize,
    mut b: usize,
    mut limit: usize,
) {
    const MAX_INSERTION: usize = 12;
    let (mut was_balanced, mut was_partitioned) = (true, true);
    loop {
        let length = b - a;
        if length <= MAX_INSERTION {
            insertion_sort(d, a, b);
            return;
        }
        if limit == 0 {
            heap_sort(d, a, b);
            return;
        }
        if !was_balanced {
            break_patterns(d, a, b);
            limit -= 1;
        }
        let (mut pivot, mut hint) = choose_pivot(d, a, b);
        if hint == Hint::Decreasing {
            reverse_range(d, a, b);
            pivot = (b - 1) - (pivot - a);
            hint = Hint::Increasing;
        }
        if was_balanced
            && was_partitioned
            && hint == Hint::Increasing
            && partial_insertion_sort(d, a, b)
        {
            return;
        }
        if a > 0 && !d.less(a - 1, pivot) {
            a = partition_equal(d, a, b, pivot);
            continue;
        }
        let (mid, already) = partition(d, a, b, pivot);
        was_partitioned = already;
        let (left, right) = (mid - a, b - mid);
        let threshold = length / 8;
        if left < right {
            was_balanced = left >= threshold;
            pdqsort(d, a, mid, limit);
            a = mid + 1;
        } else {
            was_balanced = right >= threshold;
            pdqsort(d, mid + 1, b, limit);
            b = mid;
        }
    }
}

fn partition<T, F: Fn(&T, &T) -> bool>(
    d: &mut Data<T, F>,
    a: usize,
    b: usize,
    pivot: usize,
) -> (usize, bool) {
    d.swap(a, pivot);
    // `i` and `j` are Go ints: `j` may reach a (never below it), `i` may pass `j`.
    let (mut i, mut j) = (a as isize + 1, b as isize - 1);
    let l = |x: isize| x as usize;
    while i <= j && d.less(l(i), a) {
        i += 1;
    }
    while i <= j && !d.less(l(j), a) {
        j -= 1;
    }
    if i > j {
        d.swap(l(j), a);
        return (l(j), true);
    }
    d.swap(l(i), l(j));
    i += 1;
    j -= 1;
    loop {
        while i <= j && d.less(l(i), a) {
            i += 1;
        }
        while i <= j && !d.less(l(j), a) {
            j -= 1;
        }
        if i > j {
            break;
        }
        d.swap(l(i), l(j));
        i += 1;
        j -= 1;
    }
    d.swap(l(j), a);
    (l(j), false)
}

fn partition_equal<T, F: Fn(&T, &T) -> bool>(
    d: &mut Data<T, F>,
    a: usize,
    b: usize,
    pivot: usize,
) -> usize {
    d.swap(a, pivot);
    let (mut i, mut j) = (a as isize + 1, b as isize - 1);
    let l = |x: isize| x as usize;
    loop {
        while i <= j && !d.less(a, l(i)) {
            i += 1;
        }
        while i <= j && d.less(a, l(j)) {
            j -= 1;
        }
        if i > j {
            break;
        }
        d.swap(l(i), l(j));
        i += 1;
        j -= 1;
    }
    l(i)
}

fn partial_insertion_sort<T, F: Fn(&T, &T) -> bool>(
    d: &mut Data<T, F>,
    a: usize,
    b: usize,
) -> bool {
    const MAX_STEPS: usize = 5;
    const SHORTEST_SHIFTING: usize = 50;
    let mut i = a + 1;
    for _ in 0..MAX_STEPS {
        while i < b && !d.less(i, i - 1) {
            i += 1;
        }
        if i == b {
            return true;
        }
        if b - a < SHORTEST_SHIFTING {
            return false;
        }
        d.swap(i, i - 1);
        // Shift the smaller one to the left (Go's loop runs down to index 1).
        if i - a >= 2 {
            let mut j = i - 1;
            while j >= 1 {
                if !d.less(j, j - 1) {
                    break;
                }
                d.swap(j, j - 1);
                j -= 1;
            }
        }
        // Shift the greater one to the right.
        if b - i >= 2 {
            for j in i + 1..b {
                if !d.less(j, j - 1) {
                    break;
                }
                d.swap(j, j - 1);
            }
        }
    }
    false
}

fn break_patterns<T, F: Fn(&T, &T) -> bool>(d: &mut Data<T, F>, a: usize, b: usize) {
    let length = b - a;
    if length >= 8 {
        let mut random = length as u64;
        // `nextPowerOfTwo`: 1 << bits.Len(length).
        let modulus = 1usize << (usize::BITS - length.leading_zeros());
        for idx in a + (length / 4) * 2 - 1..=a + (length / 4) * 2 + 1 {
            random ^= random << 13;
            random ^= random >> 7;
            random ^= random << 17;
            let mut other = (random as usize) & (modulus - 1);
            if other >= length {
                other -= length;
            }
            d.swap(idx, a + other);
        }
    }
}

fn choose_pivot<T, F: Fn(&T, &T) -> bool>(d: &mut Data<T, F>, a: usize, b: usize) -> (usize, Hint) {
    const SHORTEST_NINTHER: usize = 50;
    const MAX_SWAPS: usize = 4 * 3;
    let l = b - a;
    let mut swaps = 0;
    let mut i = a + l / 4;
    let mut j = a + l / 4 * 2;
    let mut k = a + l / 4 * 3;
    if l >= 8 {
        if l >= SHORTEST_NINTHER {
            i = median(d, i - 1, i, i + 1, &mut swaps);
            j = median(d, j - 1, j, j + 1, &mut swaps);
            k = median(d, k - 1, k, k + 1, &mut swaps);
        }
        j = median(d, i, j, k, &mut swaps);
    }
    match swaps {
        0 => (j, Hint::Increasing),
        MAX_SWAPS => (j, Hint::Decreasing),
        _ => (j, Hint::Unknown),
    }
}

fn order2<T, F: Fn(&T, &T) -> bool>(
    d: &Data<T, F>,
    a: usize,
    b: usize,
    swaps: &mut usize,
) -> (usize, usize) {
    if d.less(b, a) {
        *swaps += 1;
        return (b, a);
    }
    (a, b)
}

fn median<T, F: Fn(&T, &T) -> bool>(
    d: &Data<T, F>,
    a: usize,
    b: usize,
    c: usize,
    swaps: &mut usize,
) -> usize {
    let (a, b) = order2(d, a, b, swaps);
    let (b, c) = order2(d, b, c, swaps);
    let _ = c;
    let (_, b) = order2(d, a, b, swaps);
    b
}

fn reverse_range<T, F: Fn(&T, &T) -> bool>(d: &mut Data<T, F>, a: usize, b: usize) {
    let (mut i, mut j) = (a, b - 1);
    while i < j {
        d.swap(i, j);
        i += 1;
        j -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_sorts_by_the_key_and_leaves_ties_where_gos_algorithm_does() {
        // 40 items with 3 distinct keys, labelled by their first position.
        let mut v: Vec<(u32, usize)> = (0..40).map(|i| ((i * 7 % 3) as u32, i)).collect();
        sort(&mut v, |a, b| a.0 < b.0);
        assert!(v.windows(2).all(|w| w[0].0 <= w[1].0));
        // Not stable: Go's pdqsort moves equal keys out of list order.
        let stable = v
            .iter()
            .filter(|x| x.0 == 0)
            .map(|x| x.1)
            .collect::<Vec<_>>();
        let mut sorted = stable.clone();
        sorted.sort();
        assert_ne!(stable, sorted, "ties keep list order only by chance");
        // Short inputs are insertion-sorted: stable.
        let mut short: Vec<(u32, usize)> = (0..12).map(|i| ((i % 2) as u32, i)).collect();
        sort(&mut short, |a, b| a.0 < b.0);
        assert_eq!(
            short.iter().map(|x| x.1).collect::<Vec<_>>(),
            vec![0, 2, 4, 6, 8, 10, 1, 3, 5, 7, 9, 11]
        );
    }

    #[test]
    fn long_sorted_reversed_and_constant_inputs_come_out_sorted() {
        for n in [13, 50, 51, 100, 257, 1000] {
            let mut up: Vec<usize> = (0..n).collect();
            sort(&mut up, |a, b| a < b);
            assert!(up.windows(2).all(|w| w[0] <= w[1]));
            let mut down: Vec<usize> = (0..n).rev().collect();
            sort(&mut down, |a, b| a < b);
            assert!(down.windows(2).all(|w| w[0] <= w[1]), "{n}");
            let mut same = vec![1; n];
            sort(&mut same, |a, b| a < b);
            let mut mixed: Vec<usize> = (0..n).map(|i| (i * 7919) % 13).collect();
            sort(&mut mixed, |a, b| a < b);
            assert!(mixed.windows(2).all(|w| w[0] <= w[1]), "{n}");
        }
    }
}
