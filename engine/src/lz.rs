//! lz-string's `compressToEncodedURIComponent` / `decompressFromEncodedURIComponent`,
//! byte-for-byte compatible with the JavaScript library (lz-string 1.5): share links
//! made here open with any lz-string decoder and vice versa.
//!
//! Strings are handled as UTF-16 code units, as in JavaScript, so non-BMP characters
//! compress to the same output. Decoding never panics: bad input gives `None`.

use std::collections::HashMap;

const URI_SAFE: &[u8; 65] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+-$";

struct Bits {
    out: Vec<u8>,
    val: u32,
    pos: u32,
}

impl Bits {
    const PER_CHAR: u32 = 6;

    fn push(&mut self, bit: u32) {
        self.val = (self.val << 1) | bit;
        if self.pos == Self::PER_CHAR - 1 {
            self.pos = 0;
            self.out.push(URI_SAFE[self.val as usize]);
            self.val = 0;
        } else {
            self.pos += 1;
        }
    }

    /// `n` bits of `value`, least significant first (lz-string's order).
    fn value(&mut self, mut value: u32, n: u32) {
        for _ in 0..n {
            self.push(value & 1);
            value >>= 1;
        }
    }
}

/// A small multiplicative hasher for the dictionary's integer keys: std's SipHash
/// guards against chosen keys, which a compressor of its own page's text does not
/// need, and it was most of the compression time.
#[derive(Clone, Copy, Default)]
struct IntHasher(u64);

impl std::hash::Hasher for IntHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u16(&mut self, n: u16) {
        self.write_u64(u64::from(n));
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_u64(&mut self, n: u64) {
        // FxHash's step: rotate, mix in, multiply by an odd constant.
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

type IntMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<IntHasher>>;

/// `LZString.compressToEncodedURIComponent(text)`.
///
/// The dictionary is lz-string's, kept as a trie: a phrase is its code, and a phrase
/// one character longer is looked up by (code, character). Same codes in the same
/// order, so the same output, in time linear in the text (lz-string's own map of
/// whole phrases costs the phrase's length at every character).
pub fn compress_to_uri(text: &str) -> String {
    // Single characters and their codes; phrases extended by one character.
    let mut chars: IntMap<u16, u32> = IntMap::default();
    let mut phrases: IntMap<(u32, u16), u32> = IntMap::default();
    // Characters seen but not yet written out as literals.
    let mut to_create: IntMap<u16, ()> = IntMap::default();
    // The current phrase: its code, and its character when it is one long.
    let mut w: Option<(u32, Option<u16>)> = None;
    let mut enlarge_in: u32 = 2;
    let mut dict_size: u32 = 3;
    let mut num_bits: u32 = 2;
    let mut b = Bits {
        out: Vec::new(),
        val: 0,
        pos: 0,
    };
    // Emit the code for `w`: a new single character (its char code, after a 0/1 marker)
    // or a dictionary entry.
    let emit = |(code, single): (u32, Option<u16>),
                b: &mut Bits,
                to_create: &mut IntMap<u16, ()>,
                enlarge_in: &mut u32,
                num_bits: &mut u32| {
        match single.filter(|c| to_create.remove(c).is_some()) {
            Some(ch) => {
                let c = u32::from(ch);
                if c < 256 {
                    b.value(0, *num_bits);
                    b.value(c, 8);
                } else {
                    b.value(1, *num_bits);
                    b.value(c, 16);
                }
                *enlarge_in -= 1;
                if *enlarge_in == 0 {
                    *enlarge_in = 1 << *num_bits;
                    *num_bits += 1;
                }
            }
            None => b.value(code, *num_bits),
        }
        *enlarge_in -= 1;
        if *enlarge_in == 0 {
            *enlarge_in = 1 << *num_bits;
            *num_bits += 1;
        }
    };
    for ch in text.encode_utf16() {
        let c_code = *chars.entry(ch).or_insert_with(|| {
            to_create.insert(ch, ());
            dict_size += 1;
            dict_size - 1
        });
        w = Some(match w {
            None => (c_code, Some(ch)),
            Some((code, single)) => match phrases.get(&(code, ch)) {
                Some(&longer) => (longer, None),
                None => {
                    emit(
                        (code, single),
                        &mut b,
                        &mut to_create,
                        &mut enlarge_in,
                        &mut num_bits,
                    );
                    phrases.insert((code, ch), dict_size);
                    dict_size += 1;
                    (c_code, Some(ch))
                }
            },
        });
    }
    if let Some(w) = w {
        emit(w, &mut b, &mut to_create, &mut enlarge_in, &mut num_bits);
    }
    // End of stream, then flush the last character.
    b.value(2, num_bits);
    loop {
        b.val <<= 1;
        if b.pos == Bits::PER_CHAR - 1 {
            b.out.push(URI_SAFE[b.val as usize]);
            break;
        }
        b.pos += 1;
    }
    String::from_utf8(b.out).unwrap_or_default()
}

/// `LZString.decompressFromEncodedURIComponent(text)`; None for input that is not a
/// valid stream (a truncated or edited link).
///
/// The decoded text may be at most [`MAX_DECODED`] UTF-16 units; a longer one is
/// `None` too. lz-string's output grows with the *square* of its input at worst (each
/// code may stand for a phrase one longer than the last), so without a bound a 64 KiB
/// link decoded to gigabytes: the fuzzer's link target was killed at 24 GB resident.
pub fn decompress_from_uri(text: &str) -> Option<String> {
    decompress_bounded(text, MAX_DECODED)
}

/// The most UTF-16 units [`decompress_from_uri`] decodes: 16 Mi (32 MiB, and the
/// dictionary at most as much again). A page link is at most 200,000 characters and
/// its session JSON a journal of at most 10,000 acts; a real one decodes to well under
/// a megabyte, so this refuses only decompression bombs.
pub const MAX_DECODED: usize = 16 << 20;

/// [`decompress_from_uri`] with the output bound `max` (tests use a small one).
fn decompress_bounded(text: &str, max: usize) -> Option<String> {
    // A `+` that became a space in a URL is still a `+`.
    let values: Vec<u32> = text
        .bytes()
        .map(|c| if c == b' ' { b'+' } else { c })
        .map(|c| URI_SAFE.iter().position(|&x| x == c).map(|i| i as u32))
        .collect::<Option<Vec<u32>>>()?;
    if values.is_empty() {
        return Some(String::new());
    }
    let reset: u32 = 32;
    let (mut val, mut position, mut index) = (values[0], reset, 1usize);
    let mut read = |n: u32, index: &mut usize| -> Option<u32> {
        let mut bits = 0u32;
        for i in 0..n {
            let resb = val & position;
            position >>= 1;
            if position == 0 {
                position = reset;
                // Reading past the end yields zeros in JavaScript (NaN & x == 0).
                val = values.get(*index).copied().unwrap_or(0);
                *index += 1;
            }
            if resb > 0 {
                bits |= 1 << i;
            }
        }
        Some(bits)
    };
    let mut dict: Vec<Vec<u16>> = vec![vec![0], vec![1], vec![2]];
    let mut enlarge_in: u32 = 4;
    let mut num_bits: u32 = 3;
    let first = match read(2, &mut index)? {
        0 => read(8, &mut index)? as u16,
        1 => read(16, &mut index)? as u16,
        _ => return Some(String::new()),
    };
    dict.push(vec![first]);
    let mut w = vec![first];
    let mut result: Vec<u16> = vec![first];
    loop {
        // lz-string gives up here with "" (a stream that never says it ended).
        if index > values.len() || result.len() > 50_000_000 {
            return None;
        }
        let mut c = read(num_bits, &mut index)? as usize;
        match c {
            0 | 1 => {
                let ch = read(if c == 0 { 8 } else { 16 }, &mut index)? as u16;
                dict.push(vec![ch]);
                c = dict.len() - 1;
                enlarge_in = enlarge_in.checked_sub(1)?;
            }
            2 => return String::from_utf16(&result).ok(),
            _ => {}
        }
        if enlarge_in == 0 {
            enlarge_in = 1u32.checked_shl(num_bits)?;
            num_bits += 1;
        }
        let entry = if c < dict.len() {
            dict[c].clone()
        } else if c == dict.len() {
            let mut e = w.clone();
            e.push(w[0]);
            e
        } else {
            return None;
        };
        // The bound, before the text (and the dictionary, whose entries sum to about
        // the text's length) grows past it.
        if result.len().saturating_add(entry.len()) > max {
            return None;
        }
        result.extend_from_slice(&entry);
        let mut next = w.clone();
        next.push(entry[0]);
        dict.push(next);
        enlarge_in = enlarge_in.checked_sub(1)?;
        w = entry;
        if enlarge_in == 0 {
            enlarge_in = 1u32.checked_shl(num_bits)?;
            num_bits += 1;
        }
        // A real stream never gets near this; a forged one must not overflow.
        if num_bits > 31 {
            return None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first implementation (lz-string's map of whole phrases), as the oracle.
    fn compress_reference(text: &str) -> String {
        let input: Vec<u16> = text.encode_utf16().collect();
        let mut dict: HashMap<Vec<u16>, u32> = HashMap::new();
        let mut to_create: HashMap<Vec<u16>, bool> = HashMap::new();
        let mut w: Vec<u16> = Vec::new();
        let mut enlarge_in: u32 = 2;
        let mut dict_size: u32 = 3;
        let mut num_bits: u32 = 2;
        let mut b = Bits {
            out: Vec::new(),
            val: 0,
            pos: 0,
        };
        // Emit the code for `w`: a new single character (its char code, after a 0/1 marker)
        // or a dictionary entry.
        let emit = |w: &Vec<u16>,
                    b: &mut Bits,
                    dict: &HashMap<Vec<u16>, u32>,
                    to_create: &mut HashMap<Vec<u16>, bool>,
                    enlarge_in: &mut u32,
                    num_bits: &mut u32| {
            if to_create.remove(w).is_some() {
                let c = u32::from(w[0]);
                if c < 256 {
                    b.value(0, *num_bits);
                    b.value(c, 8);
                } else {
                    b.value(1, *num_bits);
                    b.value(c, 16);
                }
                *enlarge_in -= 1;
                if *enlarge_in == 0 {
                    *enlarge_in = 1 << *num_bits;
                    *num_bits += 1;
                }
            } else {
                b.value(dict.get(w).copied().unwrap_or(0), *num_bits);
            }
            *enlarge_in -= 1;
            if *enlarge_in == 0 {
                *enlarge_in = 1 << *num_bits;
                *num_bits += 1;
            }
        };
        for &ch in &input {
            let c = vec![ch];
            if !dict.contains_key(&c) {
                dict.insert(c.clone(), dict_size);
                dict_size += 1;
                to_create.insert(c.clone(), true);
            }
            let mut wc = w.clone();
            wc.push(ch);
            if dict.contains_key(&wc) {
                w = wc;
            } else {
                emit(
                    &w,
                    &mut b,
                    &dict,
                    &mut to_create,
                    &mut enlarge_in,
                    &mut num_bits,
                );
                dict.insert(wc, dict_size);
                dict_size += 1;
                w = c;
            }
        }
        if !w.is_empty() {
            emit(
                &w,
                &mut b,
                &dict,
                &mut to_create,
                &mut enlarge_in,
                &mut num_bits,
            );
        }
        // End of stream, then flush the last character.
        b.value(2, num_bits);
        loop {
            b.val <<= 1;
            if b.pos == Bits::PER_CHAR - 1 {
                b.out.push(URI_SAFE[b.val as usize]);
                break;
            }
            b.pos += 1;
        }
        String::from_utf8(b.out).unwrap_or_default()
    }

    #[test]
    fn the_trie_compressor_writes_what_the_whole_phrase_one_wrote() {
        let mut rng = crate::rng::Rng::new(7);
        let alphabet: Vec<char> = "ab c\n{}:\"é中😀".chars().collect();
        for len in [0usize, 1, 2, 3, 10, 100, 1_000, 5_000] {
            for _ in 0..20 {
                let text: String = (0..len)
                    .map(|_| alphabet[rng.below(alphabet.len() as u64) as usize])
                    .collect();
                assert_eq!(
                    compress_to_uri(&text),
                    compress_reference(&text),
                    "{text:?}"
                );
            }
        }
        let long = "kubectl get pods\n".repeat(500) + &"a".repeat(5_000);
        assert_eq!(compress_to_uri(&long), compress_reference(&long));
    }

    /// Outputs of lz-string 1.5.0's `compressToEncodedURIComponent` (Node).
    const VECTORS: &[(&str, &str)] = &[
        ("", "Q"),
        ("a", "IZA"),
        ("hello hello hello", "BYUwNmD2AEoTcpA"),
        (
            "{\"v\":1,\"j\":[[5300,\"r\",\"kubectl delete pod web-5fb447d66-kmcs7 --wait=false\"]]}",
            "N4IgbiBcCMA0ICsoG1kFYDMAGL8BOI8A1gK4BGApgMYAuANgAQAmFdFNFDADgPZMMB3CmQC0aAGZkALFIDsTAGwKRRALZUAzrIYiRAgIYBLGgF5x+uhoogAujYC+QA",
        ),
        ("中文 ✓ — ünïcödé 😀", "rRynDTAEjI5GgoBGA-A7A9wYwG8BMCXZC8G4AD2g"),
    ];

    #[test]
    fn compression_matches_the_javascript_library_and_round_trips() {
        for (text, want) in VECTORS {
            assert_eq!(compress_to_uri(text), *want, "{text}");
            assert_eq!(decompress_from_uri(want).as_deref(), Some(*text));
        }
        let long = "ab".repeat(10_000) + &"kubectl get pods\n".repeat(3_000);
        assert_eq!(decompress_from_uri(&compress_to_uri(&long)), Some(long));
    }

    #[test]
    fn a_link_decoding_past_the_bound_is_refused() {
        // Repetition compresses quadratically: 4,000 characters of `a` are 120 here.
        let bomb = compress_to_uri(&"a".repeat(4_000));
        assert!(bomb.len() < 200, "{}", bomb.len());
        assert_eq!(
            decompress_bounded(&bomb, 4_000).map(|s| s.len()),
            Some(4_000)
        );
        assert_eq!(decompress_bounded(&bomb, 3_999), None);
    }

    #[test]
    fn a_damaged_link_decodes_to_nothing_rather_than_panicking() {
        for bad in [
            "!!!",
            "N4Igbi%",
            "IZA==",
            "$$$$$$$$$$$$$$$$",
            "A",
            "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
        ] {
            let _ = decompress_from_uri(bad);
        }
        assert_eq!(decompress_from_uri("!!!"), None);
        // Truncating a real link never panics either.
        let full = compress_to_uri(&"kubectl delete pod web-x\n".repeat(50));
        for n in 0..full.len() {
            let _ = decompress_from_uri(&full[..n]);
        }
    }
}
