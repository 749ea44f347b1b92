//! Instants in gateway logs: RFC 3339 strings and Unix numbers, to and from Unix milliseconds.
//!
//! Written here rather than pulled from a date crate: the engine needs exactly two conversions,
//! they must behave the same on the server and in the browser (wasm32), and a small civil-calendar
//! routine does both without a time-zone database.
//!
//! Decisions:
//! * Precision is the millisecond; finer fractions are truncated toward the past (a log written
//!   with microseconds gives the same millisecond as one written with milliseconds).
//! * Strict mode (the generic schema) requires an offset (`Z` or `±hh:mm`); the date/time
//!   separator may be `T`, `t` or a space, as RFC 3339 permits.
//! * Lenient mode (LiteLLM exports) also accepts no offset, meaning UTC (LiteLLM stores UTC in
//!   `timestamp(3)` columns and database dumps print them without a zone), and PostgreSQL's
//!   `+00` / `+0000` offset spellings.
//! * Unix numbers are seconds (float); [`unix_number_to_ms`] reads values too large to be seconds
//!   by magnitude as milliseconds (≥ 10¹¹, i.e. after the year 5138 as seconds), microseconds
//!   (≥ 10¹⁴) or nanoseconds (≥ 10¹⁷). The gateway readers use the stricter
//!   [`unix_number_to_plausible_ms`]: a unit is inferred only when the number, read in it, lands in
//!   2000–2099 (unambiguous, since the four windows do not overlap), and a record whose numeric
//!   instants land in different units is refused (see [`crate::plausible`]).
//! * Only instants from [`EARLIEST_MS`] (2000-01-01) to before [`LATEST_MS`] (2100-01-01) are
//!   accepted ([`check_plausible`]): anything else is a unit mistake (`start_time: 1` is 1970),
//!   a placeholder (`9999-12-31`) or hostile input, and the demand profile must not be asked to
//!   lay out millennia of minutes.

/// The earliest instant a gateway log may hold: 2000-01-01T00:00:00Z, Unix ms.
pub const EARLIEST_MS: i64 = 946_684_800_000;

/// The first instant a gateway log may no longer hold: 2100-01-01T00:00:00Z, Unix ms.
pub const LATEST_MS: i64 = 4_102_444_800_000;

/// `Ok(unix_ms)` when the instant lies in 2000–2099 (see the module docs); otherwise what it
/// is, in words, for the error message.
pub fn check_plausible(unix_ms: i64) -> Result<i64, String> {
    if (EARLIEST_MS..LATEST_MS).contains(&unix_ms) {
        return Ok(unix_ms);
    }
    let when = if unix_ms.unsigned_abs() < 1 << 53 {
        format!(" ({})", format_rfc3339_ms(unix_ms))
    } else {
        String::new()
    };
    Err(format!(
        "the instant{when} is not between 2000-01-01 and 2100-01-01: a wrong unit or a \
         placeholder date?"
    ))
}

/// Days since 1970-01-01 for a proleptic Gregorian date (`month` 1–12).
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y.rem_euclid(400);
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// (year, month 1–12, day 1–31) for days since 1970-01-01.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (yoe + era * 400 + i64::from(month <= 2), month, day)
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        2 if (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Whether an offset is required (strict) or may be absent (lenient, see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OffsetRule {
    Required,
    DefaultsToUtc,
}

/// Parses an RFC 3339 date-time into Unix milliseconds. The error says what is wrong in words.
pub fn parse_rfc3339(text: &str, offset_rule: OffsetRule) -> Result<i64, String> {
    let s = text.trim().as_bytes();
    let bad = |what: &str| format!("{what} in date-time {:?}", text.trim());
    let digits = |from: usize, len: usize| -> Option<i64> {
        let part = s.get(from..from + len)?;
        part.iter().all(u8::is_ascii_digit).then(|| {
            part.iter()
                .fold(0i64, |acc, d| acc * 10 + i64::from(d - b'0'))
        })
    };
    let (Some(year), Some(month), Some(day)) = (digits(0, 4), digits(5, 2), digits(8, 2)) else {
        return Err(bad("expected YYYY-MM-DD"));
    };
    if s[4] != b'-' || s[7] != b'-' {
        return Err(bad("expected YYYY-MM-DD"));
    }
    if !matches!(s.get(10), Some(b'T' | b't' | b' ')) {
        return Err(bad("expected `T` between date and time"));
    }
    let (Some(hour), Some(minute), Some(second)) = (digits(11, 2), digits(14, 2), digits(17, 2))
    else {
        return Err(bad("expected hh:mm:ss"));
    };
    if s[13] != b':' || s[16] != b':' {
        return Err(bad("expected hh:mm:ss"));
    }
    let (month, day) = (month as u32, day as u32);
    if !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return Err(bad("no such calendar day"));
    }
    if hour > 23 || minute > 59 || second > 60 {
        return Err(bad("no such time of day"));
    }
    let mut i = 19;
    let mut millis = 0i64;
    if s.get(i) == Some(&b'.') {
        i += 1;
        let start = i;
        while s.get(i).is_some_and(u8::is_ascii_digit) {
            if i - start < 3 {
                millis = millis * 10 + i64::from(s[i] - b'0');
            }
            i += 1;
        }
        if i == start {
            return Err(bad("expected digits after the decimal point"));
        }
        for _ in (i - start)..3 {
            millis *= 10;
        }
    }
    let offset_minutes = match s.get(i) {
        Some(b'Z' | b'z') if i + 1 == s.len() => 0,
        Some(&sign @ (b'+' | b'-')) => {
            let rest = &s[i + 1..];
            let (h, m) = match (rest.len(), offset_rule) {
                (5, _) if rest[2] == b':' => (digits(i + 1, 2), digits(i + 4, 2)),
                (4, OffsetRule::DefaultsToUtc) => (digits(i + 1, 2), digits(i + 3, 2)),
                (2, OffsetRule::DefaultsToUtc) => (digits(i + 1, 2), Some(0)),
                _ => (None, None),
            };
            let (Some(h), Some(m)) = (h, m) else {
                return Err(bad("expected an offset like +02:00"));
            };
            if h > 23 || m > 59 {
                return Err(bad("no such offset"));
            }
            let minutes = h * 60 + m;
            if sign == b'-' { -minutes } else { minutes }
        }
        None if offset_rule == OffsetRule::DefaultsToUtc => 0,
        None => return Err(bad("missing time-zone offset (`Z` or `+hh:mm`)")),
        Some(_) => return Err(bad("unexpected characters after the time")),
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset_minutes * 60;
    Ok(seconds * 1_000 + millis)
}

/// Unix milliseconds for a Unix timestamp given as a number (seconds, or by magnitude ms/µs/ns;
/// see the module docs). `None` for a non-finite or negative number.
pub fn unix_number_to_ms(value: f64) -> Option<i64> {
    if !value.is_finite() || value < 0.0 {
        return None;
    }
    let ms = if value >= 1e17 {
        value / 1e6
    } else if value >= 1e14 {
        value / 1e3
    } else if value >= 1e11 {
        value
    } else {
        value * 1e3
    };
    Some(ms.round() as i64)
}

/// The unit a Unix number was read in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnixUnit {
    Seconds,
    Milliseconds,
    Microseconds,
    Nanoseconds,
}

impl UnixUnit {
    /// Every unit, with how many of it make a second.
    const ALL: [(UnixUnit, f64); 4] = [
        (UnixUnit::Seconds, 1.0),
        (UnixUnit::Milliseconds, 1e3),
        (UnixUnit::Microseconds, 1e6),
        (UnixUnit::Nanoseconds, 1e9),
    ];

    /// How many of this unit make a second.
    pub fn per_second(self) -> f64 {
        UnixUnit::ALL
            .iter()
            .find(|(unit, _)| *unit == self)
            .map_or(1.0, |(_, n)| *n)
    }

    /// The unit's name for messages.
    pub fn name(self) -> &'static str {
        match self {
            UnixUnit::Seconds => "seconds",
            UnixUnit::Milliseconds => "milliseconds",
            UnixUnit::Microseconds => "microseconds",
            UnixUnit::Nanoseconds => "nanoseconds",
        }
    }
}

/// A Unix number read as an instant only where its unit is unambiguous (see
/// [`crate::plausible`]): `Ok((unix_ms, unit))` when, read as seconds, milliseconds,
/// microseconds or nanoseconds, it lands in 2000–2099 ([`check_plausible`]); the four windows do
/// not overlap, so at most one unit fits. Otherwise an error saying what the number would be in
/// each unit. Unlike [`unix_number_to_ms`], it never rescales a number into a date outside the
/// window (`1e11` is neither the year 5138 in seconds nor 1973 in milliseconds).
pub fn unix_number_to_plausible_ms(value: f64) -> Result<(i64, UnixUnit), String> {
    if !value.is_finite() || value < 0.0 {
        return Err(
            "a Unix time must be a finite number ≥ 0 (seconds since 1970-01-01)".to_string(),
        );
    }
    for (unit, per_second) in UnixUnit::ALL {
        let ms = (value / per_second * 1e3).round();
        if ms >= EARLIEST_MS as f64 && ms < LATEST_MS as f64 {
            return Ok((ms as i64, unit));
        }
    }
    // No unit fits: the message of the by-magnitude reading (it names the date that gives).
    Err(unix_number_to_ms(value)
        .and_then(|ms| check_plausible(ms).err())
        .unwrap_or_default())
}

/// `2026-03-02T09:15:02.123Z` for Unix milliseconds (always UTC, always milliseconds).
pub fn format_rfc3339_ms(unix_ms: i64) -> String {
    let (year, month, day) = civil_from_days(unix_ms.div_euclid(86_400_000));
    let ms_of_day = unix_ms.rem_euclid(86_400_000);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        ms_of_day / 3_600_000,
        ms_of_day / 60_000 % 60,
        ms_of_day / 1_000 % 60,
        ms_of_day % 1_000
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRICT: OffsetRule = OffsetRule::Required;
    const LENIENT: OffsetRule = OffsetRule::DefaultsToUtc;

    #[test]
    fn parses_rfc3339_with_offsets_and_fractions() {
        // 2025-02-11T00:56:19.683Z = 1739235379.683 s (the LiteLLM fixture's startTime)
        assert_eq!(
            parse_rfc3339("2025-02-11T00:56:19.683Z", STRICT),
            Ok(1_739_235_379_683)
        );
        assert_eq!(
            parse_rfc3339("2025-02-11T01:56:19.683053+01:00", STRICT),
            Ok(1_739_235_379_683)
        );
        assert_eq!(
            parse_rfc3339("2025-02-10 19:56:19.6-05:00", STRICT),
            Ok(1_739_235_379_600)
        );
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z", STRICT), Ok(0));
        assert_eq!(
            parse_rfc3339("2000-02-29t12:00:00z", STRICT),
            Ok(951_825_600_000)
        );
        assert_eq!(parse_rfc3339("1969-12-31T23:59:59.999Z", STRICT), Ok(-1));
    }

    #[test]
    fn lenient_mode_reads_database_dumps_as_utc() {
        assert_eq!(
            parse_rfc3339("2025-02-11 00:56:19.683", LENIENT),
            Ok(1_739_235_379_683)
        );
        assert_eq!(
            parse_rfc3339("2025-02-11 00:56:19.683+00", LENIENT),
            Ok(1_739_235_379_683)
        );
        assert_eq!(
            parse_rfc3339("2025-02-11 02:56:19+0200", LENIENT),
            Ok(1_739_235_379_000)
        );
        assert!(
            parse_rfc3339("2025-02-11 00:56:19.683", STRICT)
                .unwrap_err()
                .contains("missing time-zone offset")
        );
    }

    #[test]
    fn rejects_impossible_dates_and_junk() {
        for text in [
            "2025-02-29T00:00:00Z",
            "2025-13-01T00:00:00Z",
            "2025-01-01T24:00:00Z",
            "2025-01-01",
            "yesterday",
            "2025-01-01T00:00:00Zjunk",
            "2025-01-01T00:00:00.Z",
            "2025-01-01T00:00:00+2:00",
        ] {
            assert!(parse_rfc3339(text, STRICT).is_err(), "{text}");
        }
    }

    #[test]
    fn reads_unix_numbers_by_magnitude() {
        assert_eq!(
            unix_number_to_ms(1_739_235_379.683_053),
            Some(1_739_235_379_683)
        );
        assert_eq!(
            unix_number_to_ms(1_739_235_379_683.0),
            Some(1_739_235_379_683)
        );
        assert_eq!(
            unix_number_to_ms(1_739_235_379_683_053.0),
            Some(1_739_235_379_683)
        );
        assert_eq!(
            unix_number_to_ms(1.739_235_379_683_053e18),
            Some(1_739_235_379_683)
        );
        assert_eq!(unix_number_to_ms(-1.0), None);
        assert_eq!(unix_number_to_ms(f64::NAN), None);
    }

    #[test]
    fn only_instants_of_this_century_are_plausible() {
        assert_eq!(check_plausible(EARLIEST_MS), Ok(EARLIEST_MS));
        assert_eq!(check_plausible(1_739_235_379_683), Ok(1_739_235_379_683));
        assert!(check_plausible(LATEST_MS).is_err());
        assert_eq!(
            check_plausible(1_000).unwrap_err(),
            "the instant (1970-01-01T00:00:01.000Z) is not between 2000-01-01 and 2100-01-01: \
             a wrong unit or a placeholder date?"
        );
        // 1e300 seconds saturates to i64::MAX: refused without formatting a date
        let huge = unix_number_to_ms(1e300).unwrap();
        assert!(
            check_plausible(huge)
                .unwrap_err()
                .starts_with("the instant is not between")
        );
        assert_eq!(format_rfc3339_ms(LATEST_MS), "2100-01-01T00:00:00.000Z");
        assert_eq!(format_rfc3339_ms(EARLIEST_MS), "2000-01-01T00:00:00.000Z");
    }

    #[test]
    fn formats_and_parses_round_trip() {
        for ms in [0, 1_739_235_379_683, 951_825_600_001, -1, 4_102_444_800_000] {
            let text = format_rfc3339_ms(ms);
            assert_eq!(parse_rfc3339(&text, STRICT), Ok(ms), "{text}");
        }
        assert_eq!(
            format_rfc3339_ms(1_739_235_379_683),
            "2025-02-11T00:56:19.683Z"
        );
    }
}
