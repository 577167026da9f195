//! `resource.Quantity` parsing: CPU in millicores, memory in bytes.

/// Parse a CPU quantity (`100m`, `0.5`, `2`) into millicores. `None` when malformed.
pub fn parse_cpu_milli(s: &str) -> Option<i64> {
    let s = s.trim();
    if let Some(m) = s.strip_suffix('m') {
        return m.parse::<i64>().ok().filter(|v| *v >= 0);
    }
    let v: f64 = s.parse().ok()?;
    if !(0.0..=1e12).contains(&v) {
        return None;
    }
    // Round up as Quantity.MilliValue does for fractions of a millicore.
    Some((v * 1000.0).ceil() as i64)
}

/// Parse a memory (or any byte) quantity (`128Mi`, `8Gi`, `1G`, `500k`, `1024`) into bytes.
pub fn parse_bytes(s: &str) -> Option<i64> {
    let s = s.trim();
    const SUFFIXES: [(&str, f64); 12] = [
        ("Ki", 1024.0),
        ("Mi", 1024.0 * 1024.0),
        ("Gi", 1024.0 * 1024.0 * 1024.0),
        ("Ti", 1024.0 * 1024.0 * 1024.0 * 1024.0),
        ("Pi", 1024.0 * 1024.0 * 1024.0 * 1024.0 * 1024.0),
        ("Ei", 1024.0 * 1024.0 * 1024.0 * 1024.0 * 1024.0 * 1024.0),
        ("k", 1e3),
        ("M", 1e6),
        ("G", 1e9),
        ("T", 1e12),
        ("P", 1e15),
        ("E", 1e18),
    ];
    for (suf, mult) in SUFFIXES {
        if let Some(num) = s.strip_suffix(suf) {
            let v: f64 = num.parse().ok()?;
            return (v >= 0.0 && v * mult < 9.2e18).then_some((v * mult).ceil() as i64);
        }
    }
    if let Some(num) = s.strip_suffix('m') {
        // Milli-bytes are legal but odd; round up to whole bytes.
        let v: f64 = num.parse().ok()?;
        return (v >= 0.0).then_some((v / 1000.0).ceil() as i64);
    }
    let v: f64 = s.parse().ok()?;
    (0.0..9.2e18).contains(&v).then_some(v.ceil() as i64)
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
    }

    #[test]
    fn memory_quantities_parse_to_bytes() {
        assert_eq!(parse_bytes("128Mi"), Some(128 << 20));
        assert_eq!(parse_bytes("8Gi"), Some(8 << 30));
        assert_eq!(parse_bytes("1G"), Some(1_000_000_000));
        assert_eq!(parse_bytes("1024"), Some(1024));
        assert_eq!(parse_bytes("lots"), None);
        assert_eq!(format_bytes(8 << 30), "8Gi");
        assert_eq!(format_cpu_milli(2500), "2500m");
        assert_eq!(format_cpu_milli(4000), "4");
    }
}
