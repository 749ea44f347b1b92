//! Calendar formatting of Unix-millisecond timestamps.
//!
//! The database stores every instant as Unix milliseconds (portable across SQLite and
//! PostgreSQL); pages and reports show them as UTC calendar dates. The conversion is the civil
//! calendar algorithm (days since 1970-01-01 → proleptic Gregorian date), so no time-zone
//! database or clock is needed and the browser formats exactly like the server.

/// Splits days since 1970-01-01 into (year, month 1–12, day 1–31).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// `2026-11-30` for a Unix-millisecond timestamp (UTC).
pub fn utc_date(unix_ms: i64) -> String {
    let (y, m, d) = civil_from_days(unix_ms.div_euclid(86_400_000));
    format!("{y:04}-{m:02}-{d:02}")
}

/// `2026-11-30 09:18 UTC` for a Unix-millisecond timestamp.
pub fn utc_minute(unix_ms: i64) -> String {
    let ms_of_day = unix_ms.rem_euclid(86_400_000);
    let hour = ms_of_day / 3_600_000;
    let minute = (ms_of_day % 3_600_000) / 60_000;
    format!("{} {hour:02}:{minute:02} UTC", utc_date(unix_ms))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn formats_known_instants() {
        assert_eq!(utc_minute(0), "1970-01-01 00:00 UTC");
        // 2026-11-30T09:18:19Z
        assert_eq!(utc_minute(1_796_030_299_000), "2026-11-30 09:18 UTC");
        // leap day
        assert_eq!(utc_date(951_782_400_000), "2000-02-29");
        // before the epoch
        assert_eq!(utc_date(-86_400_000), "1969-12-31");
    }
}
