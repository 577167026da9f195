//! The hash Kubernetes uses where a name must follow from content (`pkg/util/hash`:
//! FNV-1a 32-bit), here also behind every stand-in digest (image ids, container ids).

/// 32-bit FNV-1a.
pub fn fnv1a32(bytes: &[u8]) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in bytes {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}
