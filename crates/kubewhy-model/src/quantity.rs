//! Kubernetes resource quantities (`500m`, `1.5Gi`, `4`, `1e3`, `128974848`), parsed to a
//! number of base units (cores for cpu, bytes for memory). Never panics; malformed → `None`.

/// Parses a quantity into base units as f64 (enough precision for sanity checks and ratios).
pub fn parse(q: &str) -> Option<f64> {
    let q = q.trim();
    if q.is_empty() || q.len() > 64 {
        return None;
    }
    let split = q
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+' || c == '-'))
        .unwrap_or(q.len());
    let (num, suffix) = q.split_at(split);
    let value: f64 = num.parse().ok()?;
    let mult = match suffix {
        "" => 1.0,
        "n" => 1e-9,
        "u" => 1e-6,
        "m" => 1e-3,
        "k" => 1e3,
        "M" => 1e6,
        "G" => 1e9,
        "T" => 1e12,
        "P" => 1e15,
        "E" => 1e18,
        "Ki" => 1024.0,
        "Mi" => 1024f64.powi(2),
        "Gi" => 1024f64.powi(3),
        "Ti" => 1024f64.powi(4),
        "Pi" => 1024f64.powi(5),
        "Ei" => 1024f64.powi(6),
        s if s.starts_with(['e', 'E']) => {
            // Kubernetes quantities stay far inside ±10^30; a larger exponent is malformed.
            let exp = s[1..].parse::<i32>().ok().filter(|e| e.abs() <= 30)?;
            10f64.powi(exp)
        }
        _ => return None,
    };
    let v = value * mult;
    v.is_finite().then_some(v)
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn every_suffix() {
        assert_eq!(parse("4"), Some(4.0));
        assert_eq!(parse("1024m"), Some(1.024));
        assert_eq!(parse("500m"), Some(0.5));
        assert_eq!(parse("128Mi"), Some(128.0 * 1024.0 * 1024.0));
        assert_eq!(parse("1.5Gi"), Some(1.5 * 1024f64.powi(3)));
        assert_eq!(parse("2G"), Some(2e9));
        assert_eq!(parse("1e3"), Some(1000.0));
        assert_eq!(parse("12XYZ"), None);
        assert_eq!(parse(""), None);
        assert_eq!(parse("Mi"), None);
        assert_eq!(parse("1e400"), None);
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,40}") {
            let _ = parse(&s);
        }
    }
}
