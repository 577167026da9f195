//! Simulated time: [`SimTime`] in milliseconds and the one timer queue ordered by
//! (time, insertion sequence). No wall clock is read anywhere in the engine.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// Milliseconds since the simulation started.
pub type SimTime = u64;

/// One second of simulated time.
pub const SECOND: SimTime = 1_000;
/// One minute of simulated time.
pub const MINUTE: SimTime = 60 * SECOND;

/// The longest stretch of simulated time one command may play (`sim advance`,
/// `sim settle --max`, a `--timeout`): 24 hours. Quiet time still costs its periodic
/// work — every node heartbeats every 10 s, and each renewal is a write the timeline
/// keeps — so a day is about 26,000 writes on the default three nodes and a fraction
/// of a second, while a year in one command would be millions of writes and
/// gigabytes. Longer stretches are played one command at a time.
pub const MAX_SPAN: SimTime = 24 * 60 * MINUTE;

/// A duration in seconds written by a user (`terminationGracePeriodSeconds`,
/// `minReadySeconds`, `tolerationSeconds`, a probe's `periodSeconds`…) as simulated
/// milliseconds. Negative values count as 0 and the product saturates: an int64 field
/// may hold `9223372036854775807`, and `u64::MAX` milliseconds then stands for "never"
/// (584 million years) rather than wrapping to a moment in the past.
pub fn seconds_to_ms(seconds: i64) -> SimTime {
    u64::try_from(seconds).unwrap_or(0).saturating_mul(SECOND)
}

/// `now + seconds`, saturating (see [`seconds_to_ms`]): every deadline computed from a
/// spec field goes through here, so a huge value means "later than any run", never an
/// overflow.
pub fn after_seconds(now: SimTime, seconds: i64) -> SimTime {
    now.saturating_add(seconds_to_ms(seconds))
}

/// Unix time (seconds) of simulated time zero: 2025-01-01T00:00:00Z. Timestamps printed
/// in objects (`creationTimestamp`, `lastTransitionTime`) are this plus the simulated time.
pub const EPOCH_UNIX_SECONDS: i64 = 1_735_689_600;

/// A min-queue of timers ordered by (time, insertion sequence): two timers due at the
/// same moment fire in the order they were scheduled, which keeps runs deterministic.
#[derive(Clone, Debug)]
pub struct TimerQueue<T> {
    heap: BinaryHeap<Reverse<(SimTime, u64, Entry<T>)>>,
    seq: u64,
}

/// Wrapper that makes any payload orderable by ignoring it (time and seq decide).
#[derive(Clone, Debug)]
struct Entry<T>(T);
impl<T> PartialEq for Entry<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<T> Eq for Entry<T> {}
impl<T> PartialOrd for Entry<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Entry<T> {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

impl<T> Default for TimerQueue<T> {
    fn default() -> Self {
        TimerQueue {
            heap: BinaryHeap::new(),
            seq: 0,
        }
    }
}

impl<T> TimerQueue<T> {
    /// Schedule `item` at `at`.
    pub fn push(&mut self, at: SimTime, item: T) {
        self.seq += 1;
        self.heap.push(Reverse((at, self.seq, Entry(item))));
    }

    /// When the earliest timer is due, if any.
    pub fn peek_time(&self) -> Option<SimTime> {
        self.heap.peek().map(|Reverse((t, _, _))| *t)
    }

    /// Remove and return the earliest timer if it is due at or before `now`.
    pub fn pop_due(&mut self, now: SimTime) -> Option<(SimTime, T)> {
        if self.peek_time()? <= now {
            self.heap
                .pop()
                .map(|Reverse((t, _, Entry(item)))| (t, item))
        } else {
            None
        }
    }

    /// The pending timers, in no particular order (for counting).
    pub fn iter(&self) -> impl Iterator<Item = &T> + '_ {
        self.heap.iter().map(|Reverse((_, _, Entry(item)))| item)
    }

    /// Number of pending timers.
    pub fn len(&self) -> usize {
        self.heap.len()
    }

    /// True when no timer is pending.
    pub fn is_empty(&self) -> bool {
        self.heap.is_empty()
    }
}

/// RFC 3339 timestamp (second precision, UTC) of simulated time `t`, as Kubernetes prints
/// `metav1.Time`.
pub fn rfc3339(t: SimTime) -> String {
    let secs = EPOCH_UNIX_SECONDS + (t / 1000) as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (y, m, d) = civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60
    )
}

/// `metav1.MicroTime` as the API writes it (a Lease's renewTime, an Event's
/// eventTime): `2025-01-01T00:00:02.000000Z`.
pub fn rfc3339_micro(t: SimTime) -> String {
    let s = rfc3339(t);
    format!("{}.{:06}Z", s.trim_end_matches('Z'), (t % 1000) * 1000)
}

/// klog's timestamp of simulated time `t`: `mmdd hh:mm:ss.uuuuuu` (as in
/// `W0101 00:00:05.000000`).
pub fn klog_stamp(t: SimTime) -> String {
    let secs = EPOCH_UNIX_SECONDS + (t / 1000) as i64;
    let days = secs.div_euclid(86_400);
    let rem = secs.rem_euclid(86_400);
    let (_, m, d) = civil_from_days(days);
    format!(
        "{m:02}{d:02} {:02}:{:02}:{:02}.{:06}",
        rem / 3600,
        (rem % 3600) / 60,
        rem % 60,
        (t % 1000) * 1000
    )
}

/// Parse an RFC 3339 UTC timestamp (`2025-01-01T00:01:01Z`) back into simulated ms;
/// `None` for malformed input or a time before the simulation epoch.
pub fn parse_rfc3339(s: &str) -> Option<SimTime> {
    // A fraction (`metav1.MicroTime`: `…:05.250000Z`) counts to the millisecond.
    if let Some((whole, frac)) = s.strip_suffix('Z').and_then(|x| x.split_once('.')) {
        if frac.is_empty() || !frac.bytes().all(|c| c.is_ascii_digit()) {
            return None;
        }
        let ms: SimTime = format!("{frac:0<3}")[..3].parse().ok()?;
        return parse_rfc3339(&format!("{whole}Z")).map(|t| t + ms);
    }
    let b = s.as_bytes();
    if b.len() != 20
        || b[4] != b'-'
        || b[7] != b'-'
        || b[10] != b'T'
        || b[13] != b':'
        || b[16] != b':'
        || b[19] != b'Z'
    {
        return None;
    }
    let num = |r: std::ops::Range<usize>| s.get(r)?.parse::<i64>().ok();
    let (y, m, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (hh, mm, ss) = (num(11..13)?, num(14..16)?, num(17..19)?);
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) || hh > 23 || mm > 59 || ss > 60 {
        return None;
    }
    // days_from_civil (Howard Hinnant).
    let y2 = if m <= 2 { y - 1 } else { y };
    let era = y2.div_euclid(400);
    let yoe = y2 - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    let days = era * 146_097 + doe - 719_468;
    let secs = days * 86_400 + hh * 3600 + mm * 60 + ss - EPOCH_UNIX_SECONDS;
    (secs >= 0).then(|| secs as u64 * 1000)
}

/// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
/// The civil date (year, month, day) of a day count since 1970-01-01.
pub(crate) fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

/// Go's `time.Duration.String()` of a span in ms: `5m0s`, `2m30.5s`, `1h0m0s`, `750ms`.
pub fn go_duration(ms: SimTime) -> String {
    if ms < 1_000 {
        return if ms == 0 {
            "0s".into()
        } else {
            format!("{ms}ms")
        };
    }
    let (h, m) = (ms / 3_600_000, ms / 60_000 % 60);
    let (s, frac) = (ms / 1_000 % 60, ms % 1_000);
    let secs = if frac == 0 {
        format!("{s}s")
    } else {
        format!("{s}.{}s", format!("{frac:03}").trim_end_matches('0'))
    };
    match (h, m) {
        (0, 0) => secs,
        (0, m) => format!("{m}m{secs}"),
        (h, m) => format!("{h}h{m}m{secs}"),
    }
}

/// kubectl's `HumanDuration` (k8s.io/apimachinery/pkg/util/duration), used for AGE columns.
pub fn human_duration(ms: SimTime) -> String {
    let s = ms / 1000;
    if s < 120 {
        return format!("{s}s");
    }
    let m = s / 60;
    if m < 10 {
        let rs = s % 60;
        return if rs == 0 {
            format!("{m}m")
        } else {
            format!("{m}m{rs}s")
        };
    }
    if m < 180 {
        return format!("{m}m");
    }
    let h = s / 3600;
    if h < 8 {
        let rm = m % 60;
        return if rm == 0 {
            format!("{h}h")
        } else {
            format!("{h}h{rm}m")
        };
    }
    if h < 48 {
        return format!("{h}h");
    }
    if h < 24 * 8 {
        let rh = h % 24;
        let d = h / 24;
        return if rh == 0 {
            format!("{d}d")
        } else {
            format!("{d}d{rh}h")
        };
    }
    if h < 24 * 365 * 2 {
        return format!("{}d", h / 24);
    }
    if h < 24 * 365 * 8 {
        let dy = (h / 24) % 365;
        return if dy == 0 {
            format!("{}y", h / 24 / 365)
        } else {
            format!("{}y{dy}d", h / 24 / 365)
        };
    }
    format!("{}y", h / 24 / 365)
}

/// kubectl's `translateTimestampSince(t)`: `HumanDuration(time.Since(t))` for a
/// timestamp as the API server stores it — whole seconds, so the sub-second part of
/// `stamp_ms` is dropped first while `now` keeps it (an object created at 12.7 s shows
/// `61s` at 73.2 s). A time more than a second ahead is `<invalid>`, less `0s`
/// (HumanDuration's tolerance for clock skew).
pub fn human_duration_since(stamp_ms: SimTime, now: SimTime) -> String {
    let stored = stamp_ms / 1000 * 1000;
    let d = now as i128 - stored as i128;
    // int(d.Seconds()) truncates toward zero, as Rust's division does.
    let seconds = d / 1000;
    if seconds < -1 {
        "<invalid>".into()
    } else if d < 0 {
        "0s".into()
    } else {
        human_duration(d as SimTime)
    }
}

/// A clock reading for people: `m:ss.t` (e.g. `1:05.3`), used by the UI and logs.
pub fn clock_label(t: SimTime) -> String {
    let tenths = (t % 1000) / 100;
    let s = t / 1000;
    format!("{}:{:02}.{}", s / 60, s % 60, tenths)
}

/// Go's `time.RFC1123Z` for a simulated time: `Wed, 01 Jan 2025 00:00:00 +0000`.
pub fn rfc1123z(t: SimTime) -> String {
    let iso = rfc3339(t);
    let secs = EPOCH_UNIX_SECONDS + (t / 1000) as i64;
    let days = secs.div_euclid(86_400);
    let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][days.rem_euclid(7) as usize];
    let months = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    let m: usize = iso[5..7].parse().unwrap_or(1);
    format!(
        "{weekday}, {} {} {} {} +0000",
        &iso[8..10],
        months[m.saturating_sub(1) % 12],
        &iso[0..4],
        &iso[11..19]
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_duration_prints_as_gos_duration_string_does() {
        assert_eq!(go_duration(0), "0s");
        assert_eq!(go_duration(750), "750ms");
        assert_eq!(go_duration(300_000), "5m0s");
        assert_eq!(go_duration(150_500), "2m30.5s");
        assert_eq!(go_duration(3_600_000), "1h0m0s");
    }

    #[test]
    fn a_micro_time_parses_back_to_its_millisecond_and_a_bad_fraction_is_refused() {
        for t in [0, 1_250, 90_061_999] {
            assert_eq!(parse_rfc3339(&rfc3339_micro(t)), Some(t));
        }
        assert_eq!(parse_rfc3339("2025-01-01T00:00:01.5Z"), Some(1_500));
        assert_eq!(parse_rfc3339("2025-01-01T00:00:01.Z"), None);
        assert_eq!(parse_rfc3339("2025-01-01T00:00:01.x1Z"), None);
    }

    #[test]
    fn ages_count_from_the_whole_second_the_api_server_stored() {
        // Created at 12.7 s (stored 12 s), shown at 73.2 s: 61.2 s.
        assert_eq!(human_duration_since(12_700, 73_200), "61s");
        assert_eq!(human_duration_since(12_700, 12_700), "0s");
        // A timestamp ahead of now (a deletion deadline) is <invalid> past 1 s.
        assert_eq!(human_duration_since(30_000, 28_500), "0s");
        assert_eq!(human_duration_since(30_000, 27_900), "<invalid>");
        assert_eq!(
            human_duration(3 * 365 * 24 * 3_600_000 + 5 * 24 * 3_600_000),
            "3y5d"
        );
    }

    #[test]
    fn timers_due_at_the_same_time_fire_in_insertion_order() {
        let mut q = TimerQueue::default();
        q.push(5, "b");
        q.push(1, "a");
        q.push(5, "c");
        assert_eq!(q.pop_due(10), Some((1, "a")));
        assert_eq!(q.pop_due(10), Some((5, "b")));
        assert_eq!(q.pop_due(10), Some((5, "c")));
        assert_eq!(q.pop_due(10), None);
    }

    #[test]
    fn timestamps_start_at_the_simulation_epoch() {
        assert_eq!(rfc3339(0), "2025-01-01T00:00:00Z");
        assert_eq!(rfc3339(61_000), "2025-01-01T00:01:01Z");
        assert_eq!(rfc3339(86_400_000 * 59), "2025-03-01T00:00:00Z");
    }

    #[test]
    fn timestamps_parse_back_to_simulated_time() {
        for t in [0, 61_000, 86_400_000 * 400 + 7_000] {
            assert_eq!(parse_rfc3339(&rfc3339(t)), Some(t));
        }
        assert_eq!(parse_rfc3339("2024-12-31T23:59:59Z"), None);
        assert_eq!(parse_rfc3339("yesterday"), None);
    }

    #[test]
    fn human_duration_matches_kubectl_age_buckets() {
        let cases = [
            (0, "0s"),
            (119 * SECOND, "119s"),
            (120 * SECOND, "2m"),
            (185 * SECOND, "3m5s"),
            (10 * MINUTE, "10m"),
            (179 * MINUTE, "179m"),
            (3 * 60 * MINUTE, "3h"),
            (3 * 60 * MINUTE + 5 * MINUTE, "3h5m"),
            (8 * 60 * MINUTE, "8h"),
            (47 * 60 * MINUTE, "47h"),
            (49 * 60 * MINUTE, "2d1h"),
            (24 * 8 * 60 * MINUTE, "8d"),
        ];
        for (ms, want) in cases {
            assert_eq!(human_duration(ms), want, "for {ms} ms");
        }
    }
}
