//! The cluster's one source of randomness: a seeded SplitMix64 generator.
//!
//! Kubernetes draws uids, generated name suffixes and scheduler tie-breaks at random.
//! The simulation draws them from this generator so that the same seed and the same
//! commands always give byte-identical output (design.md, "Deterministic").

/// Seeded pseudo-random generator (SplitMix64: small, fast, and good enough for ids).
#[derive(Clone, Debug)]
pub struct Rng {
    state: u64,
}

/// Alphabet of `k8s.io/apimachinery/pkg/util/rand` (no vowels, no confusable digits).
pub const SAFE_ALPHABET: &[u8; 27] = b"bcdfghjklmnpqrstvwxz2456789";

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Self {
        Rng { state: seed }
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (`n > 0`; returns 0 for `n == 0`).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        self.next_u64() % n
    }

    /// A random UUIDv4 string, as the API server assigns to `metadata.uid`.
    pub fn uuid_v4(&mut self) -> String {
        let a = self.next_u64();
        let b = self.next_u64();
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&a.to_be_bytes());
        bytes[8..].copy_from_slice(&b.to_be_bytes());
        bytes[6] = (bytes[6] & 0x0f) | 0x40;
        bytes[8] = (bytes[8] & 0x3f) | 0x80;
        let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
        format!(
            "{}-{}-{}-{}-{}",
            hex[0..4].concat(),
            hex[4..6].concat(),
            hex[6..8].concat(),
            hex[8..10].concat(),
            hex[10..16].concat()
        )
    }

    /// `n` characters from [`SAFE_ALPHABET`], like `utilrand.String(n)` for generateName.
    pub fn safe_string(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| SAFE_ALPHABET[self.below(SAFE_ALPHABET.len() as u64) as usize] as char)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_same_seed_gives_the_same_sequence() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        assert_eq!(a.uuid_v4(), b.uuid_v4());
        assert_eq!(a.safe_string(5), b.safe_string(5));
    }

    #[test]
    fn uuids_have_the_version_4_shape() {
        let u = Rng::new(1).uuid_v4();
        assert_eq!(u.len(), 36);
        assert_eq!(&u[14..15], "4");
        assert!(matches!(&u[19..20], "8" | "9" | "a" | "b"));
    }
}
