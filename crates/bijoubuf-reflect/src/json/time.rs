//! The text forms of google.protobuf.Timestamp (RFC 3339, UTC, years 1 to 9999) and
//! Duration (`"-1.5s"`, within ±10000 years), as the proto3 JSON mapping writes them.

use super::{At, JsonError};

/// Seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z, the Timestamp range.
pub(super) const TS_MIN: i64 = -62_135_596_800;
pub(super) const TS_MAX: i64 = 253_402_300_799;
/// ±10000 years, the Duration range.
pub(super) const DUR_MAX: i64 = 315_576_000_000;

fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    // Days since 1970-01-01 in the proleptic Gregorian calendar, years counted from
    // March so the leap day ends the year.
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    (y, m, d)
}

/// 0, 3, 6 or 9 fractional digits, as proto3 JSON writes them.
fn fraction(nanos: i64) -> String {
    if nanos == 0 {
        String::new()
    } else if nanos % 1_000_000 == 0 {
        format!(".{:03}", nanos / 1_000_000)
    } else if nanos % 1000 == 0 {
        format!(".{:06}", nanos / 1000)
    } else {
        format!(".{nanos:09}")
    }
}

pub(super) fn timestamp_text(seconds: i64, nanos: i64, at: &At<'_>) -> Result<String, JsonError> {
    if !(TS_MIN..=TS_MAX).contains(&seconds) || !(0..1_000_000_000).contains(&nanos) {
        return Err(JsonError::at(
            at,
            format!("Timestamp {seconds}s {nanos}ns is outside 0001-01-01 to 9999-12-31"),
        ));
    }
    let (y, mo, d) = civil_from_days(seconds.div_euclid(86_400));
    let t = seconds.rem_euclid(86_400);
    Ok(format!(
        "{y:04}-{mo:02}-{d:02}T{:02}:{:02}:{:02}{}Z",
        t / 3600,
        t / 60 % 60,
        t % 60,
        fraction(nanos)
    ))
}

fn digits(s: &[u8]) -> Option<i64> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    std::str::from_utf8(s).ok()?.parse().ok()
}

/// `.123` (1 to 9 digits) → nanoseconds; returns the rest of the input.
fn parse_fraction(s: &[u8]) -> Option<(i64, &[u8])> {
    let Some(rest) = s.strip_prefix(b".") else {
        return Some((0, s));
    };
    let n = rest.iter().take_while(|c| c.is_ascii_digit()).count();
    if n == 0 || n > 9 {
        return None;
    }
    let v = digits(&rest[..n])? * 10_i64.pow(9 - n as u32);
    Some((v, &rest[n..]))
}

pub(super) fn parse_timestamp(text: &str) -> Option<(i64, i32)> {
    let b = text.as_bytes();
    if b.len() < 20
        || b[4] != b'-'
        || b[7] != b'-'
        || !matches!(b[10], b'T' | b't')
        || b[13] != b':'
        || b[16] != b':'
    {
        return None;
    }
    let (y, mo, d) = (digits(&b[0..4])?, digits(&b[5..7])?, digits(&b[8..10])?);
    let (h, mi, s) = (
        digits(&b[11..13])?,
        digits(&b[14..16])?,
        digits(&b[17..19])?,
    );
    let leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
    let month_days = [
        31,
        if leap { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    if y < 1
        || !(1..=12).contains(&mo)
        || d < 1
        || d > month_days[(mo - 1) as usize]
        || h > 23
        || mi > 59
        || s > 59
    {
        return None;
    }
    let (nanos, rest) = parse_fraction(&b[19..])?;
    let offset = match rest {
        [b'Z' | b'z'] => 0,
        [sign @ (b'+' | b'-'), oh1, oh2, b':', om1, om2] => {
            let (oh, om) = (digits(&[*oh1, *oh2])?, digits(&[*om1, *om2])?);
            if oh > 23 || om > 59 {
                return None;
            }
            let o = oh * 3600 + om * 60;
            if *sign == b'-' { -o } else { o }
        }
        _ => return None,
    };
    let seconds = days_from_civil(y, mo, d) * 86_400 + h * 3600 + mi * 60 + s - offset;
    if !(TS_MIN..=TS_MAX).contains(&seconds) {
        return None;
    }
    Some((seconds, nanos as i32))
}

pub(super) fn duration_text(seconds: i64, nanos: i64, at: &At<'_>) -> Result<String, JsonError> {
    let same_sign = seconds == 0 || nanos == 0 || (seconds < 0) == (nanos < 0);
    // `unsigned_abs`: `i64::MIN.abs()` overflows.
    if seconds.unsigned_abs() > DUR_MAX as u64
        || nanos.unsigned_abs() >= 1_000_000_000
        || !same_sign
    {
        return Err(JsonError::at(
            at,
            format!("Duration {seconds}s {nanos}ns is out of range or mixes signs"),
        ));
    }
    let sign = if seconds < 0 || nanos < 0 { "-" } else { "" };
    Ok(format!("{sign}{}{}s", seconds.abs(), fraction(nanos.abs())))
}

pub(super) fn parse_duration(text: &str) -> Option<(i64, i32)> {
    let b = text.as_bytes();
    let (neg, b) = match b.strip_prefix(b"-") {
        Some(rest) => (true, rest),
        None => (false, b),
    };
    let b = b.strip_suffix(b"s")?;
    let n = b.iter().take_while(|c| c.is_ascii_digit()).count();
    let secs = digits(&b[..n])?;
    let (nanos, rest) = parse_fraction(&b[n..])?;
    if !rest.is_empty() || secs > DUR_MAX {
        return None;
    }
    if neg {
        Some((-secs, -(nanos as i32)))
    } else {
        Some((secs, nanos as i32))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_days_round_trip_at_the_range_ends() {
        assert_eq!(days_from_civil(1970, 1, 1), 0);
        assert_eq!(days_from_civil(1, 1, 1) * 86_400, TS_MIN);
        assert_eq!(days_from_civil(9999, 12, 31) * 86_400 + 86_399, TS_MAX);
        for z in [-719_162, -1, 0, 59, 365, 11_016, 2_932_896] {
            let (y, m, d) = civil_from_days(z);
            assert_eq!(days_from_civil(y, m, d), z, "day {z}");
        }
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn timestamps() {
        assert_eq!(
            timestamp_text(0, 0, &At::Root).as_deref(),
            Ok("1970-01-01T00:00:00Z")
        );
        assert_eq!(
            timestamp_text(1_700_000_000, 500_000_000, &At::Root).as_deref(),
            Ok("2023-11-14T22:13:20.500Z")
        );
        assert_eq!(
            timestamp_text(-1, 1000, &At::Root).as_deref(),
            Ok("1969-12-31T23:59:59.000001Z")
        );
        assert!(timestamp_text(TS_MAX + 1, 0, &At::Root).is_err());
        assert_eq!(
            parse_timestamp("2023-11-14T22:13:20.5Z"),
            Some((1_700_000_000, 500_000_000))
        );
        assert_eq!(
            parse_timestamp("2023-11-14T23:13:20+01:00"),
            Some((1_700_000_000, 0))
        );
        assert_eq!(parse_timestamp("0001-01-01T00:00:00Z"), Some((TS_MIN, 0)));
        for bad in [
            "2023-02-29T00:00:00Z",
            "2023-11-14 22:13:20Z",
            "2023-11-14T22:13:20",
            "2023-11-14T22:13:20.Z",
            "2023-11-14T22:13:20.1234567890Z",
            "0000-12-31T00:00:00Z",
        ] {
            assert_eq!(parse_timestamp(bad), None, "{bad}");
        }
    }

    #[test]
    fn durations() {
        assert_eq!(
            duration_text(1, 500_000_000, &At::Root).as_deref(),
            Ok("1.500s")
        );
        assert_eq!(
            duration_text(0, -1, &At::Root).as_deref(),
            Ok("-0.000000001s")
        );
        assert_eq!(duration_text(-3, 0, &At::Root).as_deref(), Ok("-3s"));
        assert!(duration_text(1, -1, &At::Root).is_err());
        // Regression: printed "--9223372036854775808s" (and overflowed in debug builds).
        assert!(duration_text(i64::MIN, 0, &At::Root).is_err());
        assert!(duration_text(-DUR_MAX - 1, 0, &At::Root).is_err());
        assert!(duration_text(0, i64::MIN, &At::Root).is_err());
        assert_eq!(parse_duration("1.5s"), Some((1, 500_000_000)));
        assert_eq!(parse_duration("-0.000000001s"), Some((0, -1)));
        for bad in ["1.5", "s", "-s", "1.s", "+1s", "315576000001s"] {
            assert_eq!(parse_duration(bad), None, "{bad}");
        }
    }
}
