//! [`Timestamp`] and [`Duration`] to and from the standard library's time types, with the
//! ranges protobuf defines checked both ways.
//!
//! - A `Timestamp` is valid from `0001-01-01T00:00:00Z` to `9999-12-31T23:59:59.999999999Z`
//!   (seconds [`Timestamp::MIN_SECONDS`]..=[`Timestamp::MAX_SECONDS`]) with `nanos` in
//!   `0..=999_999_999`; it converts to and from `std::time::SystemTime` (with `std`).
//! - A `Duration` is valid within ±315,576,000,000 seconds (about 10,000 years,
//!   [`Duration::MAX_SECONDS`]) with `nanos` in `-999_999_999..=999_999_999` and of the
//!   sign of `seconds` when both are non-zero; it converts to and from
//!   `core::time::Duration`, which is never negative.
//!
//! Every conversion is `TryFrom`: a value out of range is a [`TimeError`], never a
//! panic and never a value silently clamped.
//!
//! ```
//! use bijoubuf::wkt::{Duration, Timestamp};
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let d = Duration::try_from(core::time::Duration::from_millis(1500))?;
//! assert_eq!((d.seconds, d.nanos), (1, 500_000_000));
//! let back = core::time::Duration::try_from(d)?;
//! assert_eq!(back.as_millis(), 1500);
//!
//! let t = Timestamp::try_from(std::time::UNIX_EPOCH - core::time::Duration::from_nanos(1))?;
//! assert_eq!((t.seconds, t.nanos), (-1, 999_999_999));
//! # Ok(()) }
//! ```

use core::fmt;

use super::{Duration, Timestamp};

const NANOS_PER_SECOND: i32 = 1_000_000_000;

impl Timestamp {
    /// `0001-01-01T00:00:00Z`, the earliest valid timestamp's seconds.
    pub const MIN_SECONDS: i64 = -62_135_596_800;
    /// `9999-12-31T23:59:59Z`, the latest valid timestamp's seconds.
    pub const MAX_SECONDS: i64 = 253_402_300_799;

    /// Whether this is a valid timestamp: seconds within 0001..=9999 and nanos in
    /// `0..=999_999_999`.
    pub fn check(&self) -> Result<(), TimeError> {
        if !(0..NANOS_PER_SECOND).contains(&self.nanos) {
            return Err(TimeError::NanosOutOfRange {
                seconds: self.seconds,
                nanos: self.nanos,
            });
        }
        if !(Self::MIN_SECONDS..=Self::MAX_SECONDS).contains(&self.seconds) {
            return Err(TimeError::TimestampOutOfRange {
                seconds: self.seconds,
                nanos: self.nanos,
            });
        }
        Ok(())
    }
}

impl Duration {
    /// The largest magnitude of a valid duration's seconds: 10,000 years of 365.25 days.
    pub const MAX_SECONDS: i64 = 315_576_000_000;

    /// Whether this is a valid duration: seconds within ±[`MAX_SECONDS`](Self::MAX_SECONDS),
    /// nanos within ±999,999,999 and not of the opposite sign to seconds.
    pub fn check(&self) -> Result<(), TimeError> {
        let (seconds, nanos) = (self.seconds, self.nanos);
        if !(-(NANOS_PER_SECOND - 1)..NANOS_PER_SECOND).contains(&nanos) {
            return Err(TimeError::NanosOutOfRange { seconds, nanos });
        }
        if !(-Self::MAX_SECONDS..=Self::MAX_SECONDS).contains(&seconds) {
            return Err(TimeError::DurationOutOfRange { seconds, nanos });
        }
        if (seconds < 0 && nanos > 0) || (seconds > 0 && nanos < 0) {
            return Err(TimeError::SignMismatch { seconds, nanos });
        }
        Ok(())
    }
}

impl TryFrom<core::time::Duration> for Duration {
    type Error = TimeError;

    /// A non-negative duration; longer than [`Duration::MAX_SECONDS`] is an error.
    fn try_from(d: core::time::Duration) -> Result<Self, TimeError> {
        // `subsec_nanos` is below 10^9, so it fits an i32.
        let nanos = d.subsec_nanos() as i32;
        match i64::try_from(d.as_secs()) {
            Ok(seconds) if seconds <= Duration::MAX_SECONDS => Ok(Duration { seconds, nanos }),
            _ => Err(TimeError::DurationOutOfRange {
                seconds: i64::try_from(d.as_secs()).unwrap_or(i64::MAX),
                nanos,
            }),
        }
    }
}

impl TryFrom<Duration> for core::time::Duration {
    type Error = TimeError;

    /// A valid, non-negative duration; a negative one is [`TimeError::Negative`].
    fn try_from(d: Duration) -> Result<Self, TimeError> {
        d.check()?;
        match (u64::try_from(d.seconds), u32::try_from(d.nanos)) {
            (Ok(s), Ok(n)) => Ok(core::time::Duration::new(s, n)),
            _ => Err(TimeError::Negative {
                seconds: d.seconds,
                nanos: d.nanos,
            }),
        }
    }
}

#[cfg(feature = "std")]
impl TryFrom<std::time::SystemTime> for Timestamp {
    type Error = TimeError;

    /// A time within 0001..=9999 (UTC); outside it is an error.
    fn try_from(t: std::time::SystemTime) -> Result<Self, TimeError> {
        let (seconds, nanos) = match t.duration_since(std::time::UNIX_EPOCH) {
            Ok(after) => (
                i64::try_from(after.as_secs()).unwrap_or(i64::MAX),
                after.subsec_nanos() as i32,
            ),
            Err(e) => {
                // Before the epoch: nanos count forwards within the second (protobuf's
                // normal form), so a fraction borrows one second.
                let before = e.duration();
                let s = i64::try_from(before.as_secs()).map_or(i64::MIN, |s| -s);
                match before.subsec_nanos() {
                    0 => (s, 0),
                    n => (s.saturating_sub(1), NANOS_PER_SECOND - n as i32),
                }
            }
        };
        let ts = Timestamp { seconds, nanos };
        ts.check()?;
        Ok(ts)
    }
}

#[cfg(feature = "std")]
impl TryFrom<Timestamp> for std::time::SystemTime {
    type Error = TimeError;

    /// A valid timestamp the platform's `SystemTime` can hold (every valid one, on the
    /// usual 64-bit platforms).
    fn try_from(t: Timestamp) -> Result<Self, TimeError> {
        t.check()?;
        let epoch = std::time::UNIX_EPOCH;
        let nanos = core::time::Duration::from_nanos(t.nanos as u64);
        let at = if t.seconds >= 0 {
            epoch.checked_add(core::time::Duration::from_secs(t.seconds as u64))
        } else {
            epoch.checked_sub(core::time::Duration::from_secs(t.seconds.unsigned_abs()))
        };
        at.and_then(|a| a.checked_add(nanos))
            .ok_or(TimeError::NotRepresentable {
                seconds: t.seconds,
                nanos: t.nanos,
            })
    }
}

/// Why a time conversion refused: the value, and the rule it breaks.
///
/// Each variant has a stable kebab-case [`code`](Self::code), the start of its text:
/// `timestamp-out-of-range`, `duration-out-of-range`, `nanos-out-of-range`,
/// `duration-sign-mismatch`, `negative-duration` and `time-not-representable`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum TimeError {
    /// A timestamp before 0001-01-01T00:00:00Z or after 9999-12-31T23:59:59.999999999Z.
    TimestampOutOfRange {
        /// The seconds.
        seconds: i64,
        /// The nanoseconds.
        nanos: i32,
    },
    /// A duration longer than ±315,576,000,000 seconds.
    DurationOutOfRange {
        /// The seconds.
        seconds: i64,
        /// The nanoseconds.
        nanos: i32,
    },
    /// Nanoseconds outside `0..=999_999_999` (a timestamp) or ±999,999,999 (a duration).
    NanosOutOfRange {
        /// The seconds.
        seconds: i64,
        /// The nanoseconds.
        nanos: i32,
    },
    /// A duration whose seconds and nanoseconds have opposite signs.
    SignMismatch {
        /// The seconds.
        seconds: i64,
        /// The nanoseconds.
        nanos: i32,
    },
    /// A negative duration, which `core::time::Duration` cannot hold.
    Negative {
        /// The seconds.
        seconds: i64,
        /// The nanoseconds.
        nanos: i32,
    },
    /// A valid timestamp this platform's `SystemTime` cannot hold.
    NotRepresentable {
        /// The seconds.
        seconds: i64,
        /// The nanoseconds.
        nanos: i32,
    },
}

impl TimeError {
    /// The stable kebab-case code of the rule the value breaks (see the type's docs).
    pub const fn code(&self) -> &'static str {
        match self {
            TimeError::TimestampOutOfRange { .. } => "timestamp-out-of-range",
            TimeError::DurationOutOfRange { .. } => "duration-out-of-range",
            TimeError::NanosOutOfRange { .. } => "nanos-out-of-range",
            TimeError::SignMismatch { .. } => "duration-sign-mismatch",
            TimeError::Negative { .. } => "negative-duration",
            TimeError::NotRepresentable { .. } => "time-not-representable",
        }
    }
}

impl fmt::Display for TimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (what, seconds, nanos) = match *self {
            TimeError::TimestampOutOfRange { seconds, nanos } => (
                "outside 0001-01-01T00:00:00Z..=9999-12-31T23:59:59.999999999Z",
                seconds,
                nanos,
            ),
            TimeError::DurationOutOfRange { seconds, nanos } => {
                ("longer than 315576000000 seconds", seconds, nanos)
            }
            TimeError::NanosOutOfRange { seconds, nanos } => {
                ("nanos outside their range", seconds, nanos)
            }
            TimeError::SignMismatch { seconds, nanos } => {
                ("seconds and nanos of opposite signs", seconds, nanos)
            }
            TimeError::Negative { seconds, nanos } => (
                "core::time::Duration holds no negative span",
                seconds,
                nanos,
            ),
            TimeError::NotRepresentable { seconds, nanos } => {
                ("beyond this platform's SystemTime", seconds, nanos)
            }
        };
        write!(
            f,
            "{}: {what} (seconds {seconds}, nanos {nanos})",
            self.code()
        )
    }
}

impl core::error::Error for TimeError {}

#[cfg(test)]
mod tests {
    use alloc::string::ToString;
    use core::time::Duration as Std;

    use super::*;

    #[test]
    fn every_time_error_names_its_code_first() {
        let (seconds, nanos) = (1, 2);
        let cases = [
            (
                TimeError::TimestampOutOfRange { seconds, nanos },
                "timestamp-out-of-range",
            ),
            (
                TimeError::DurationOutOfRange { seconds, nanos },
                "duration-out-of-range",
            ),
            (
                TimeError::NanosOutOfRange { seconds, nanos },
                "nanos-out-of-range",
            ),
            (
                TimeError::SignMismatch { seconds, nanos },
                "duration-sign-mismatch",
            ),
            (TimeError::Negative { seconds, nanos }, "negative-duration"),
            (
                TimeError::NotRepresentable { seconds, nanos },
                "time-not-representable",
            ),
        ];
        for (e, code) in cases {
            assert_eq!(e.code(), code);
            assert!(
                e.to_string().starts_with(&alloc::format!("{code}: ")),
                "{e}"
            );
        }
        // A refusal from a conversion carries the code of the rule it broke.
        let e = Timestamp {
            seconds: Timestamp::MAX_SECONDS + 1,
            nanos: 0,
        }
        .check()
        .unwrap_err();
        assert_eq!(e.code(), "timestamp-out-of-range");
        let e = dur(1, -1).check().unwrap_err();
        assert_eq!(e.code(), "duration-sign-mismatch");
    }

    fn dur(seconds: i64, nanos: i32) -> Duration {
        Duration { seconds, nanos }
    }

    #[test]
    fn durations_convert_both_ways_at_the_edges() {
        for (s, n) in [(0, 0), (0, 1), (1, 0), (Duration::MAX_SECONDS, 999_999_999)] {
            let d = dur(s, n);
            let std = Std::try_from(d.clone()).unwrap();
            assert_eq!((std.as_secs(), std.subsec_nanos()), (s as u64, n as u32));
            assert_eq!(Duration::try_from(std), Ok(d));
        }
        let over = Std::new(Duration::MAX_SECONDS as u64 + 1, 0);
        assert_eq!(
            Duration::try_from(over),
            Err(TimeError::DurationOutOfRange {
                seconds: Duration::MAX_SECONDS + 1,
                nanos: 0
            })
        );
        assert_eq!(
            Duration::try_from(Std::MAX).unwrap_err(),
            TimeError::DurationOutOfRange {
                seconds: i64::MAX,
                nanos: 999_999_999
            }
        );
    }

    #[test]
    fn invalid_durations_are_refused_with_the_rule_they_break() {
        let cases = [
            (dur(-1, 0), "negative-duration"),
            (dur(0, -1), "negative-duration"),
            (dur(1, -1), "duration-sign-mismatch"),
            (dur(-1, 1), "duration-sign-mismatch"),
            (dur(0, 1_000_000_000), "nanos-out-of-range"),
            (dur(0, -1_000_000_000), "nanos-out-of-range"),
            (dur(0, i32::MIN), "nanos-out-of-range"),
            (dur(Duration::MAX_SECONDS + 1, 0), "duration-out-of-range"),
            (dur(i64::MIN, 0), "duration-out-of-range"),
        ];
        for (d, code) in cases {
            let e = Std::try_from(d.clone()).unwrap_err();
            assert!(e.to_string().starts_with(code), "{d:?}: {e}");
        }
        // Negative but valid: only the conversion refuses it.
        assert_eq!(dur(-Duration::MAX_SECONDS, -999_999_999).check(), Ok(()));
        assert_eq!(dur(0, -5).check(), Ok(()));
    }

    #[test]
    fn timestamps_check_their_range() {
        let ok = [
            (Timestamp::MIN_SECONDS, 0),
            (Timestamp::MAX_SECONDS, 999_999_999),
            (0, 0),
        ];
        for (seconds, nanos) in ok {
            assert_eq!(Timestamp { seconds, nanos }.check(), Ok(()));
        }
        let bad = [
            (
                Timestamp::MIN_SECONDS - 1,
                999_999_999,
                "timestamp-out-of-range",
            ),
            (Timestamp::MAX_SECONDS + 1, 0, "timestamp-out-of-range"),
            (0, -1, "nanos-out-of-range"),
            (0, 1_000_000_000, "nanos-out-of-range"),
        ];
        for (seconds, nanos, code) in bad {
            let e = Timestamp { seconds, nanos }.check().unwrap_err();
            assert!(e.to_string().starts_with(code), "{seconds} {nanos}: {e}");
            assert!(e.to_string().contains(&seconds.to_string()), "{e}");
        }
    }

    #[cfg(feature = "std")]
    #[test]
    fn system_times_convert_both_ways_before_and_after_the_epoch() {
        use std::time::{SystemTime, UNIX_EPOCH};
        let cases = [
            (0, 0),
            (1, 5),
            (-1, 999_999_999),
            (-1, 0),
            (-62_135_596_800, 0),
            (253_402_300_799, 999_999_999),
            (1_700_000_000, 123_456_789),
        ];
        for (seconds, nanos) in cases {
            let t = Timestamp { seconds, nanos };
            let st = SystemTime::try_from(t.clone()).unwrap();
            // Against arithmetic on i128 nanoseconds since the epoch.
            let want = i128::from(seconds) * 1_000_000_000 + i128::from(nanos);
            let got = match st.duration_since(UNIX_EPOCH) {
                Ok(d) => d.as_nanos() as i128,
                Err(e) => -(e.duration().as_nanos() as i128),
            };
            assert_eq!(got, want, "{seconds} {nanos}");
            assert_eq!(Timestamp::try_from(st), Ok(t));
        }
        let before = UNIX_EPOCH - Std::from_secs(62_135_596_801);
        assert_eq!(
            Timestamp::try_from(before),
            Err(TimeError::TimestampOutOfRange {
                seconds: -62_135_596_801,
                nanos: 0
            })
        );
        let after = UNIX_EPOCH + Std::new(253_402_300_800, 0);
        assert!(matches!(
            Timestamp::try_from(after),
            Err(TimeError::TimestampOutOfRange { .. })
        ));
        let bad = Timestamp {
            seconds: 0,
            nanos: -1,
        };
        assert!(matches!(
            SystemTime::try_from(bad),
            Err(TimeError::NanosOutOfRange { .. })
        ));
    }
}
