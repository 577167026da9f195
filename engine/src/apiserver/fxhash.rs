//! A small, fast, deterministic hasher (the Fx hash of rustc and Firefox) for maps that
//! are only looked up, never iterated: SipHash's DoS resistance buys nothing in a
//! simulation, and the scheduler looks a node up for every node of every attempt.

use std::hash::{BuildHasherDefault, Hasher};

/// Fx hash state.
#[derive(Clone, Copy, Debug, Default)]
pub struct FxHasher {
    hash: u64,
}

const SEED: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl FxHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(SEED);
    }
}

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.add(u64::from_le_bytes(w));
        }
        let rest = chunks.remainder();
        if !rest.is_empty() {
            let mut w = [0u8; 8];
            w[..rest.len()].copy_from_slice(rest);
            self.add(u64::from_le_bytes(w));
        }
    }

    #[inline]
    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    #[inline]
    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// A `HashMap` with [`FxHasher`].
pub type FxHashMap<K, V> = std::collections::HashMap<K, V, BuildHasherDefault<FxHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_keys_hash_equal_and_a_map_finds_them() {
        let mut m: FxHashMap<String, u32> = FxHashMap::default();
        for i in 0..1000 {
            m.insert(format!("node-{i:05}"), i);
        }
        assert_eq!(m.get("node-00042"), Some(&42));
        assert_eq!(m.get("node-01000"), None);
        let h = |s: &str| {
            let mut a = FxHasher::default();
            a.write(s.as_bytes());
            a.finish()
        };
        assert_eq!(h("node-1"), h("node-1"));
        assert_ne!(h("node-1"), h("node-2"));
    }
}
