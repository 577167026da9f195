//! Cron schedules as the CronJob controller reads them: `robfig/cron/v3`'s
//! `ParseStandard` (five fields — minute, hour, day of month, month, day of week —
//! names such as `jan`/`mon`, ranges, lists, steps, `*` and `?`, and the `@yearly`,
//! `@annually`, `@monthly`, `@weekly`, `@daily`, `@midnight`, `@hourly` and `@every`
//! descriptors), its error texts, and `SpecSchedule.Next`.
//!
//! Time zones: the simulation carries no tz database. A CronJob's `timeZone` is read
//! from a table of common IANA zones — fixed offsets, plus the US and EU daylight-time
//! rules for the zones that follow them — which covers the zones course material uses
//! (`Asia/Shanghai`, `Etc/UTC`, `America/New_York`, `Europe/Berlin`…). A zone outside
//! the table is refused as `unknown time zone`, as the API server refuses a name its
//! tz database lacks.

use crate::time::{civil_from_days, SimTime, EPOCH_UNIX_SECONDS};

const STAR: u64 = 1 << 63;

/// A parsed schedule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Schedule {
    /// `SpecSchedule`: bit sets per field.
    Spec {
        /// Minutes 0–59.
        minute: u64,
        /// Hours 0–23.
        hour: u64,
        /// Days of month 1–31.
        dom: u64,
        /// Months 1–12.
        month: u64,
        /// Days of week 0–6 (Sunday 0).
        dow: u64,
    },
    /// `@every <duration>`: a constant delay (rounded to whole seconds, at least 1 s).
    Every(u64),
}

struct Bounds {
    min: u32,
    max: u32,
    names: &'static [(&'static str, u32)],
}

const MINUTES: Bounds = Bounds {
    min: 0,
    max: 59,
    names: &[],
};
const HOURS: Bounds = Bounds {
    min: 0,
    max: 23,
    names: &[],
};
const DOM: Bounds = Bounds {
    min: 1,
    max: 31,
    names: &[],
};
const MONTHS: Bounds = Bounds {
    min: 1,
    max: 12,
    names: &[
        ("jan", 1),
        ("feb", 2),
        ("mar", 3),
        ("apr", 4),
        ("may", 5),
        ("jun", 6),
        ("jul", 7),
        ("aug", 8),
        ("sep", 9),
        ("oct", 10),
        ("nov", 11),
        ("dec", 12),
    ],
};
const DOW: Bounds = Bounds {
    min: 0,
    max: 6,
    names: &[
        ("sun", 0),
        ("mon", 1),
        ("tue", 2),
        ("wed", 3),
        ("thu", 4),
        ("fri", 5),
        ("sat", 6),
    ],
};

fn all(b: &Bounds) -> u64 {
    bits(b.min, b.max, 1) | STAR
}

fn bits(min: u32, max: u32, step: u32) -> u64 {
    if step == 1 {
        return (!(u64::MAX << (max + 1))) & (u64::MAX << min);
    }
    let mut b = 0;
    let mut i = min;
    while i <= max {
        b |= 1 << i;
        i += step;
    }
    b
}

/// `ParseStandard`, with robfig's error texts.
pub fn parse(spec: &str) -> Result<Schedule, String> {
    if spec.is_empty() {
        return Err("empty spec string".into());
    }
    let spec = spec.trim_start();
    if let Some(d) = spec.strip_prefix('@') {
        return descriptor(&format!("@{d}"));
    }
    let fields: Vec<&str> = spec.split_whitespace().collect();
    if fields.len() != 5 {
        return Err(format!(
            "expected exactly 5 fields, found {}: [{}]",
            fields.len(),
            fields.join(" ")
        ));
    }
    Ok(Schedule::Spec {
        minute: field(fields[0], &MINUTES)?,
        hour: field(fields[1], &HOURS)?,
        dom: field(fields[2], &DOM)?,
        month: field(fields[3], &MONTHS)?,
        dow: field(fields[4], &DOW)?,
    })
}

fn descriptor(d: &str) -> Result<Schedule, String> {
    let spec = |minute, hour, dom, month, dow| Schedule::Spec {
        minute,
        hour,
        dom,
        month,
        dow,
    };
    Ok(match d {
        "@yearly" | "@annually" => spec(1, 1, 1 << 1, 1 << 1, all(&DOW)),
        "@monthly" => spec(1, 1, 1 << 1, all(&MONTHS), all(&DOW)),
        "@weekly" => spec(1, 1, all(&DOM), all(&MONTHS), 1),
        "@daily" | "@midnight" => spec(1, 1, all(&DOM), all(&MONTHS), all(&DOW)),
        "@hourly" => spec(1, all(&HOURS), all(&DOM), all(&MONTHS), all(&DOW)),
        _ => {
            if let Some(dur) = d.strip_prefix("@every ") {
                return match parse_go_duration(dur) {
                    Some(ms) => Ok(Schedule::Every((ms / 1000).max(1) * 1000)),
                    None => Err(format!(
                        "failed to parse duration {d}: time: invalid duration \"{dur}\""
                    )),
                };
            }
            return Err(format!("unrecognized descriptor: {d}"));
        }
    })
}

/// Go's `time.ParseDuration` for the units a schedule uses (h, m, s, ms).
fn parse_go_duration(s: &str) -> Option<u64> {
    let mut total = 0f64;
    let mut rest = s;
    if rest.is_empty() {
        return None;
    }
    while !rest.is_empty() {
        let n = rest
            .find(|c: char| !(c.is_ascii_digit() || c == '.'))
            .unwrap_or(rest.len());
        let v: f64 = rest[..n].parse().ok()?;
        rest = &rest[n..];
        let u = rest
            .find(|c: char| c.is_ascii_digit() || c == '.')
            .unwrap_or(rest.len());
        let mult = match &rest[..u] {
            "h" => 3_600_000.0,
            "m" => 60_000.0,
            "s" => 1_000.0,
            "ms" => 1.0,
            _ => return None,
        };
        total += v * mult;
        rest = &rest[u..];
    }
    Some(total as u64)
}

fn field(f: &str, b: &Bounds) -> Result<u64, String> {
    let mut out = 0;
    for expr in f.split(',') {
        out |= range(expr, b)?;
    }
    Ok(out)
}

/// `getRange`.
fn range(expr: &str, b: &Bounds) -> Result<u64, String> {
    let range_and_step: Vec<&str> = expr.split('/').collect();
    let low_and_high: Vec<&str> = range_and_step[0].split('-').collect();
    let single = low_and_high.len() == 1;
    let (start, mut end, mut extra);
    if low_and_high[0] == "*" || low_and_high[0] == "?" {
        start = b.min;
        end = b.max;
        extra = STAR;
    } else {
        start = int_or_name(low_and_high[0], b)?;
        end = match low_and_high.len() {
            1 => start,
            2 => int_or_name(low_and_high[1], b)?,
            _ => return Err(format!("too many hyphens: {expr}")),
        };
        extra = 0;
    }
    let step = match range_and_step.len() {
        1 => 1,
        2 => {
            let step = must_int(range_and_step[1])?;
            // "N/step" means "N-max/step".
            if single {
                end = b.max;
            }
            if step > 1 {
                extra = 0;
            }
            step
        }
        _ => return Err(format!("too many slashes: {expr}")),
    };
    if start < b.min {
        return Err(format!(
            "beginning of range ({start}) below minimum ({}): {expr}",
            b.min
        ));
    }
    if end > b.max {
        return Err(format!(
            "end of range ({end}) above maximum ({}): {expr}",
            b.max
        ));
    }
    if start > end {
        return Err(format!(
            "beginning of range ({start}) beyond end of range ({end}): {expr}"
        ));
    }
    if step == 0 {
        return Err(format!("step of range should be a positive number: {expr}"));
    }
    Ok(bits(start, end, step) | extra)
}

fn int_or_name(s: &str, b: &Bounds) -> Result<u32, String> {
    let lower = s.to_ascii_lowercase();
    if let Some((_, v)) = b.names.iter().find(|(n, _)| *n == lower) {
        return Ok(*v);
    }
    must_int(s)
}

fn must_int(s: &str) -> Result<u32, String> {
    match s.parse::<i64>() {
        Ok(n) if n < 0 => Err(format!("negative number ({n}) not allowed: {s}")),
        Ok(n) => Ok(n.min(u32::MAX as i64 / 2) as u32),
        Err(_) => Err(format!(
            "failed to parse int from {s}: strconv.Atoi: parsing \"{s}\": invalid syntax"
        )),
    }
}

/// A time zone: standard offset and, if it has one, its daylight-time rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Zone {
    /// Standard offset from UTC, minutes.
    pub offset_min: i64,
    /// Daylight-saving rule.
    pub dst: Dst,
}

/// Daylight-saving rules kubeplay knows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dst {
    /// None.
    None,
    /// US (since 2007): second Sunday of March 2:00 local to first Sunday of
    /// November 2:00 local, one hour ahead.
    Us,
    /// EU: last Sunday of March 01:00 UTC to last Sunday of October 01:00 UTC.
    Eu,
}

/// The zone named `tz` (None: unknown).
pub fn zone_offset(tz: &str) -> Option<Zone> {
    let fixed = |h: i64, m: i64| Zone {
        offset_min: h * 60 + m,
        dst: Dst::None,
    };
    let us = |h: i64| Zone {
        offset_min: h * 60,
        dst: Dst::Us,
    };
    let eu = |h: i64| Zone {
        offset_min: h * 60,
        dst: Dst::Eu,
    };
    if let Some(rest) = tz.strip_prefix("Etc/GMT") {
        // POSIX sign: Etc/GMT+8 is eight hours *behind* UTC.
        if rest.is_empty() {
            return Some(fixed(0, 0));
        }
        let n: i64 = rest.parse().ok()?;
        return (-14..=12).contains(&n).then(|| fixed(-n, 0));
    }
    Some(match tz {
        "UTC" | "Etc/UTC" | "Etc/UCT" | "Etc/Universal" | "Etc/Zulu" | "GMT" | "Etc/Greenwich"
        | "Africa/Abidjan" | "Atlantic/Reykjavik" => fixed(0, 0),
        "Asia/Shanghai" | "Asia/Chongqing" | "Asia/Harbin" | "PRC" | "Asia/Hong_Kong"
        | "Asia/Macau" | "Asia/Taipei" | "Asia/Singapore" | "Asia/Kuala_Lumpur" | "Asia/Manila"
        | "Australia/Perth" => fixed(8, 0),
        "Asia/Tokyo" | "Asia/Seoul" => fixed(9, 0),
        "Asia/Kolkata" | "Asia/Calcutta" => fixed(5, 30),
        "Asia/Dubai" => fixed(4, 0),
        "Asia/Jakarta" | "Asia/Bangkok" | "Asia/Ho_Chi_Minh" => fixed(7, 0),
        "Asia/Karachi" => fixed(5, 0),
        "Asia/Kathmandu" => fixed(5, 45),
        "Europe/Moscow" | "Europe/Istanbul" => fixed(3, 0),
        "America/Sao_Paulo" | "America/Argentina/Buenos_Aires" => fixed(-3, 0),
        "America/Phoenix" => fixed(-7, 0),
        "Pacific/Honolulu" => fixed(-10, 0),
        "Africa/Lagos" => fixed(1, 0),
        "Africa/Johannesburg" | "Africa/Cairo" => fixed(2, 0),
        "Africa/Nairobi" => fixed(3, 0),
        "America/New_York" | "America/Toronto" | "America/Detroit" | "US/Eastern" => us(-5),
        "America/Chicago" | "America/Mexico_City" | "US/Central" => us(-6),
        "America/Denver" | "US/Mountain" => us(-7),
        "America/Los_Angeles" | "America/Vancouver" | "US/Pacific" => us(-8),
        "America/Anchorage" => us(-9),
        "Europe/London" | "Europe/Dublin" | "Europe/Lisbon" => eu(0),
        "Europe/Berlin" | "Europe/Paris" | "Europe/Madrid" | "Europe/Rome" | "Europe/Amsterdam"
        | "Europe/Brussels" | "Europe/Vienna" | "Europe/Zurich" | "Europe/Stockholm"
        | "Europe/Oslo" | "Europe/Copenhagen" | "Europe/Warsaw" | "Europe/Prague"
        | "Europe/Budapest" => eu(1),
        "Europe/Athens" | "Europe/Helsinki" | "Europe/Kiev" | "Europe/Kyiv"
        | "Europe/Bucharest" => eu(2),
        _ => return None,
    })
}

/// Days since 1970-01-01 of a civil date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (i64::from(m) + 9) % 12;
    let doy = (153 * mp + 2) / 5 + i64::from(d) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn nth_sunday(y: i64, m: u32, n: u32) -> i64 {
    let first = days_from_civil(y, m, 1);
    let dow = (first + 4).rem_euclid(7); // 1970-01-01 was a Thursday
    first + (7 - dow) % 7 + 7 * i64::from(n - 1)
}

fn last_sunday(y: i64, m: u32) -> i64 {
    let next = if m == 12 {
        days_from_civil(y + 1, 1, 1)
    } else {
        days_from_civil(y, m + 1, 1)
    };
    let last = next - 1;
    last - (last + 4).rem_euclid(7)
}

impl Zone {
    /// The offset (seconds) in force at Unix second `t`.
    pub fn offset_at(&self, t: i64) -> i64 {
        let std = self.offset_min * 60;
        let (y, _, _) = civil_from_days(t.div_euclid(86_400));
        let in_dst = match self.dst {
            Dst::None => false,
            Dst::Us => {
                // 2:00 local standard time, and 2:00 local daylight time.
                let start = nth_sunday(y, 3, 2) * 86_400 + 7_200 - std;
                let end = nth_sunday(y, 11, 1) * 86_400 + 7_200 - (std + 3_600);
                t >= start && t < end
            }
            Dst::Eu => {
                let start = last_sunday(y, 3) * 86_400 + 3_600;
                let end = last_sunday(y, 10) * 86_400 + 3_600;
                t >= start && t < end
            }
        };
        std + if in_dst { 3_600 } else { 0 }
    }
}

/// `Schedule.Next`: the first activation strictly after simulated time `after`, read
/// in `zone`; None when there is none within five years (robfig gives up there too).
pub fn next(s: &Schedule, zone: &Zone, after: SimTime) -> Option<SimTime> {
    let after_unix = EPOCH_UNIX_SECONDS + (after / 1000) as i64;
    let (minute, hour, dom, month, dow) = match *s {
        Schedule::Every(ms) => {
            // Rounded to the second, then the delay added.
            return Some((after / 1000) * 1000 + ms);
        }
        Schedule::Spec {
            minute,
            hour,
            dom,
            month,
            dow,
        } => (minute, hour, dom, month, dow),
    };
    // Walk local wall-clock minutes, skipping whole months, days and hours that cannot
    // match (the same search as robfig's, by field).
    let to_unix = |local: i64| {
        let guess = local - zone.offset_at(local);
        local - zone.offset_at(guess)
    };
    let mut local = after_unix + zone.offset_at(after_unix);
    local = local - local.rem_euclid(60) + 60;
    let limit = local + 5 * 366 * 86_400;
    while local < limit {
        let days = local.div_euclid(86_400);
        let (y, m, d) = civil_from_days(days);
        let secs = local.rem_euclid(86_400);
        if month & (1 << m) == 0 {
            local = if m == 12 {
                days_from_civil(y + 1, 1, 1)
            } else {
                days_from_civil(y, m + 1, 1)
            } * 86_400;
            continue;
        }
        let wd = (days + 4).rem_euclid(7) as u32;
        let dom_match = dom & (1 << d) != 0;
        let dow_match = dow & (1 << wd) != 0;
        let day_ok = if dom & STAR != 0 || dow & STAR != 0 {
            dom_match && dow_match
        } else {
            dom_match || dow_match
        };
        if !day_ok {
            local = (days + 1) * 86_400;
            continue;
        }
        let h = (secs / 3_600) as u32;
        if hour & (1 << h) == 0 {
            local = days * 86_400 + (i64::from(h) + 1) * 3_600;
            continue;
        }
        let mi = ((secs % 3_600) / 60) as u32;
        if minute & (1 << mi) == 0 {
            local += 60;
            continue;
        }
        let unix = to_unix(local);
        if unix <= after_unix {
            local += 60;
            continue;
        }
        let ms = (unix - EPOCH_UNIX_SECONDS).checked_mul(1000)?;
        return u64::try_from(ms).ok();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::rfc3339;

    const UTC: Zone = Zone {
        offset_min: 0,
        dst: Dst::None,
    };

    fn next_after(spec: &str, zone: &Zone, at: &str) -> String {
        let s = parse(spec).unwrap();
        let t = crate::time::parse_rfc3339(at).unwrap();
        rfc3339(next(&s, zone, t).unwrap())
    }

    #[test]
    fn five_fields_steps_ranges_and_names_parse() {
        assert!(parse("*/5 * * * *").is_ok());
        assert!(parse("0 9-17 * jan-mar mon-fri").is_ok());
        assert!(parse("@hourly").is_ok());
    }

    #[test]
    fn bad_schedules_get_robfigs_words() {
        assert_eq!(
            parse("foo").unwrap_err(),
            "expected exactly 5 fields, found 1: [foo]"
        );
        assert_eq!(
            parse("70 * * * *").unwrap_err(),
            "end of range (70) above maximum (59): 70"
        );
        assert_eq!(
            parse("x * * * *").unwrap_err(),
            "failed to parse int from x: strconv.Atoi: parsing \"x\": invalid syntax"
        );
        assert_eq!(
            parse("@often").unwrap_err(),
            "unrecognized descriptor: @often"
        );
        assert_eq!(
            parse("* * * * 7").unwrap_err(),
            "end of range (7) above maximum (6): 7"
        );
    }

    #[test]
    fn next_finds_the_following_activation() {
        assert_eq!(
            next_after("*/5 * * * *", &UTC, "2025-01-01T00:02:30Z"),
            "2025-01-01T00:05:00Z"
        );
        assert_eq!(
            next_after("@hourly", &UTC, "2025-01-01T00:00:00Z"),
            "2025-01-01T01:00:00Z"
        );
        // 2025-01-01 is a Wednesday; the next Monday 09:00 is the 6th.
        assert_eq!(
            next_after("0 9 * * mon", &UTC, "2025-01-01T10:00:00Z"),
            "2025-01-06T09:00:00Z"
        );
        // Day of month OR day of week when neither is a star.
        assert_eq!(
            next_after("0 0 15 * mon", &UTC, "2025-01-01T10:00:00Z"),
            "2025-01-06T00:00:00Z"
        );
    }

    #[test]
    fn a_time_zone_shifts_the_schedule() {
        let shanghai = zone_offset("Asia/Shanghai").unwrap();
        // 09:00 in Shanghai is 01:00 UTC.
        assert_eq!(
            next_after("0 9 * * *", &shanghai, "2025-01-01T00:00:00Z"),
            "2025-01-01T01:00:00Z"
        );
        let ny = zone_offset("America/New_York").unwrap();
        // In July New York is on daylight time (UTC−4).
        assert_eq!(
            next_after("0 9 * * *", &ny, "2025-07-01T00:00:00Z"),
            "2025-07-01T13:00:00Z"
        );
        assert!(zone_offset("Mars/Olympus").is_none());
    }
}
