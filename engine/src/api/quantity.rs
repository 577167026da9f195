//! `resource.Quantity` parsing: CPU in millicores, memory in bytes.

/// A quantity as `resource.ParseQuantity` reads it: `[+-]digits[.digits]` then a
/// suffix — decimal SI (`n u m "" k M G T P E`), binary SI (`Ki Mi Gi Ti Pi Ei`) or a
/// decimal exponent (`e3`, `E-2`). The value is `digits × 10^exp10 × 2^exp2`.
struct Parsed<'a> {
    negative: bool,
    /// The digits before and after the point, leading zeros of the whole kept.
    int: &'a str,
    frac: &'a str,
    exp10: i64,
    exp2: u32,
}

/// Upstream's `parseQuantityString` and suffix table. `None`: not a quantity.
fn parse_quantity(s: &str) -> Option<Parsed<'_>> {
    let (negative, rest) = match s.as_bytes().first()? {
        b'-' => (true, &s[1..]),
        b'+' => (false, &s[1..]),
        _ => (false, s),
    };
    let digits = |t: &str| t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let n = digits(rest);
    let (int, rest) = rest.split_at(n);
    let (frac, suffix) = match rest.strip_prefix('.') {
        Some(r) => r.split_at(digits(r)),
        None => ("", rest),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    let (exp10, exp2) = match suffix {
        "n" => (-9, 0),
        "u" => (-6, 0),
        "m" => (-3, 0),
        "" => (0, 0),
        "k" => (3, 0),
        "M" => (6, 0),
        "G" => (9, 0),
        "T" => (12, 0),
        "P" => (15, 0),
        "E" => (18, 0),
        "Ki" => (0, 10),
        "Mi" => (0, 20),
        "Gi" => (0, 30),
        "Ti" => (0, 40),
        "Pi" => (0, 50),
        "Ei" => (0, 60),
        _ => {
            // `e`/`E` and a signed int64 (`strconv.ParseInt`), digits only.
            let e = suffix.strip_prefix(['e', 'E'])?;
            let body = e.strip_prefix(['+', '-']).unwrap_or(e);
            if body.is_empty() || !body.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            (e.parse::<i64>().ok()?, 0)
        }
    };
    Some(Parsed {
        negative,
        int,
        frac,
        exp10,
        exp2,
    })
}

/// The quantity `s` in units of `10^-scale` (3: millis), rounded up as
/// `Quantity.ScaledValue` rounds, and saturated at `i64::MAX`. `None`: not a quantity,
/// or negative (which the callers refuse; see [`parse_cpu_milli`]).
///
/// Upstream caps a parsed quantity at 2⁶³−1 base units and then computes `MilliValue`
/// in int64, which wraps for a value above ~9.2 × 10¹⁵; saturating gives "more than
/// anything", which is what such a value means, and no panic. Exact for up to 19
/// significant digits; past that the extra digits only round up.
fn scaled(s: &str, scale: i64) -> Option<i64> {
    scaled_wide(s, scale).map(|v| i64::try_from(v).unwrap_or(i64::MAX))
}

/// [`scaled`] without the clamp to `i64`: up to `u128::MAX` units, as far as quota
/// arithmetic needs to tell a quantity past `int64` from one at it (upstream's
/// `Quantity` then holds an arbitrary-precision decimal and compares exactly).
fn scaled_wide(s: &str, scale: i64) -> Option<u128> {
    let q = parse_quantity(s.trim())?;
    let all = format!("{}{}", q.int, q.frac);
    let digits = all.trim_start_matches('0');
    if digits.is_empty() {
        return Some(0); // zero, whatever its sign and suffix
    }
    if q.negative {
        return None;
    }
    // value = digits × 10^e10 × 2^exp2.
    let mut e10 = q
        .exp10
        .saturating_sub(q.frac.len() as i64)
        .saturating_add(scale);
    // At least 10^(len + e10 − 1): past 10^38 it is beyond u128 whatever the rest.
    if (digits.len() as i64).saturating_add(e10) > 39 {
        return Some(u128::MAX);
    }
    // Keep 19 significant digits (they fit a u128 with 2^60 beside them); a dropped
    // non-zero digit rounds up.
    let (kept, dropped) = digits.split_at(digits.len().min(19));
    let sticky = dropped.bytes().any(|b| b != b'0');
    e10 = e10.saturating_add(dropped.len() as i64);
    let m: u128 = kept.parse().ok()?;
    let m = m << q.exp2; // < 10^19 × 2^60 < 2^124
    Some(if e10 >= 0 {
        // An overflow saturates.
        10u128
            .checked_pow(u32::try_from(e10).unwrap_or(u32::MAX))
            .and_then(|p| m.checked_mul(p))
            .unwrap_or(u128::MAX)
            .saturating_add(u128::from(sticky))
    } else {
        match 10u128.checked_pow(u32::try_from(-e10).unwrap_or(u32::MAX)) {
            Some(p) => m / p + u128::from(m % p != 0 || sticky),
            None => 1, // positive and smaller than one unit: rounds up to one
        }
    })
}

/// Whether `s` is a quantity below zero (`-1`, `-500m`; `-0` is zero). `None`: not a
/// quantity at all.
pub fn is_negative(s: &str) -> Option<bool> {
    let q = parse_quantity(s.trim())?;
    Some(q.negative && format!("{}{}", q.int, q.frac).bytes().any(|b| b != b'0'))
}

/// A CPU quantity in millicores, beyond `int64` where it is (see [`scaled_wide`]).
pub fn parse_cpu_milli_wide(s: &str) -> Option<u128> {
    scaled_wide(s, 3)
}

/// A byte (or count) quantity, beyond `int64` where it is (see [`scaled_wide`]).
pub fn parse_bytes_wide(s: &str) -> Option<u128> {
    scaled_wide(s, 0)
}

/// Parse a CPU quantity (`100m`, `0.5`, `2`, `1e3`, `9223372036854775807`) into
/// millicores, rounded up and saturated at `i64::MAX`. `None` when malformed, or
/// negative: upstream parses a negative quantity and refuses it in validation; here it
/// is refused at decoding, a divergence kept for now.
pub fn parse_cpu_milli(s: &str) -> Option<i64> {
    scaled(s, 3)
}

/// Parse a memory (or any byte) quantity (`128Mi`, `8Gi`, `1G`, `500k`, `1024`) into
/// bytes, rounded up and saturated at `i64::MAX` (see [`parse_cpu_milli`]).
pub fn parse_bytes(s: &str) -> Option<i64> {
    scaled(s, 0)
}

/// Format millicores the way Quantity prints them (`100m`, `2`).
pub fn format_cpu_milli(m: i64) -> String {
    if m % 1000 == 0 {
        format!("{}", m / 1000)
    } else {
        format!("{m}m")
    }
}

/// Format bytes with the largest exact binary suffix (`128Mi`, `8Gi`), else plain bytes.
pub fn format_bytes(b: i64) -> String {
    const UNITS: [(&str, i64); 4] = [
        ("Ti", 1 << 40),
        ("Gi", 1 << 30),
        ("Mi", 1 << 20),
        ("Ki", 1 << 10),
    ];
    for (u, n) in UNITS {
        if b != 0 && b % n == 0 {
            return format!("{}{u}", b / n);
        }
    }
    format!("{b}")
}

/// A count the way a `DecimalSI` Quantity prints it.
pub fn format_decimal(q: i64) -> String {
    for (suffix, n) in [
        ("E", 1_000_000_000_000_000_000i64),
        ("P", 1_000_000_000_000_000),
        ("T", 1_000_000_000_000),
        ("G", 1_000_000_000),
        ("M", 1_000_000),
        ("k", 1_000),
    ] {
        if q != 0 && q % n == 0 {
            return format!("{}{suffix}", q / n);
        }
    }
    q.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_quantities_parse_to_millicores() {
        assert_eq!(parse_cpu_milli("100m"), Some(100));
        assert_eq!(parse_cpu_milli("0.5"), Some(500));
        assert_eq!(parse_cpu_milli("4"), Some(4000));
        assert_eq!(parse_cpu_milli("x"), None);
        assert_eq!(parse_cpu_milli("-1"), None);
        assert_eq!(parse_cpu_milli("1.5m"), Some(2));
        assert_eq!(parse_cpu_milli("1e3"), Some(1_000_000));
        assert_eq!(parse_cpu_milli("2E-3"), Some(2));
        assert_eq!(parse_cpu_milli("0.0001"), Some(1));
        assert_eq!(parse_cpu_milli("9223372036854775807"), Some(i64::MAX));
        assert_eq!(
            parse_cpu_milli("9223372036854775"),
            Some(9_223_372_036_854_775_000)
        );
        assert_eq!(parse_cpu_milli("1e999999999999"), Some(i64::MAX));
        assert_eq!(parse_cpu_milli("1e-999999999999"), Some(1));
        assert_eq!(parse_cpu_milli("1e99999999999999999999"), None);
        assert_eq!(parse_cpu_milli("e3"), None);
        assert_eq!(parse_cpu_milli("1e"), None);
        assert_eq!(parse_cpu_milli("1Qi"), None);
        assert_eq!(parse_cpu_milli("."), None);
    }

    #[test]
    fn memory_quantities_parse_to_bytes() {
        assert_eq!(parse_bytes("128Mi"), Some(128 << 20));
        assert_eq!(parse_bytes("8Gi"), Some(8 << 30));
        assert_eq!(parse_bytes("1G"), Some(1_000_000_000));
        assert_eq!(parse_bytes("1024"), Some(1024));
        assert_eq!(parse_bytes("lots"), None);
        assert_eq!(parse_bytes("1.5Ki"), Some(1536));
        assert_eq!(parse_bytes("7Ei"), Some(7 << 60));
        assert_eq!(parse_bytes("8Ei"), Some(i64::MAX));
        assert_eq!(
            parse_bytes("103106883778897823"),
            Some(103_106_883_778_897_823)
        );
        assert_eq!(parse_bytes("100m"), Some(1));
        assert_eq!(parse_bytes("00000000000000000000000000001"), Some(1));
        assert_eq!(
            parse_bytes("123456789012345678901234567890e-20"),
            Some(1_234_567_891)
        );
        assert_eq!(format_bytes(8 << 30), "8Gi");
        assert_eq!(format_cpu_milli(2500), "2500m");
        assert_eq!(format_cpu_milli(4000), "4");
    }
}
