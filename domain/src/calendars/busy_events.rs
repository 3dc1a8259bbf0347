//! The busy intervals an iCalendar object of the mentor's own calendar holds (issue 33 §2):
//! every occurrence of its events in a range, recurring ones expanded (RRULE, RDATE, EXDATE,
//! overridden instances by RECURRENCE-ID), leaving out transparent and cancelled events and the
//! sessions this platform wrote itself (by their UID). An all-day event blocks the mentor's whole
//! local day; a floating time is read on the mentor's clock.

use std::collections::{BTreeMap, HashSet};

use chrono::{DateTime, Duration, NaiveDate, NaiveDateTime, TimeZone as _, Utc};
use icalendar::{CalendarDateTime, Component, DatePerhapsTime, rrule};
use jiff::tz::TimeZone;

use crate::booking::{slot_arithmetic, to_chrono};

/// Occurrences of one event expanded at most (a daily event over the 90 days read is 90).
pub const MAX_OCCURRENCES: u16 = 2_000;

/// The UIDs this platform gives the sessions it writes (`booking-{id}@mystic-mentors`,
/// `group-session-{id}@mystic-mentors`): they are sessions already, never busy time.
pub fn is_ours(uid: &str) -> bool {
    uid.ends_with("@mystic-mentors") && (uid.starts_with("booking-") || uid.starts_with("group-session-"))
}

pub type Interval = (DateTime<Utc>, DateTime<Utc>);

/// The busy intervals of `ics` (one calendar object: a VCALENDAR with one or more VEVENTs) that
/// overlap `[from, to)`, for a mentor in `zone`.
pub fn busy_intervals(
    ics: &str,
    zone: &TimeZone,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<Vec<Interval>, String> {
    let calendar: icalendar::Calendar = ics.parse()?;
    let mut by_uid: BTreeMap<String, Vec<&icalendar::Event>> = BTreeMap::new();
    for event in calendar.events() {
        let uid = event.get_uid().unwrap_or_default().to_string();
        by_uid.entry(uid).or_default().push(event);
    }
    let mut out = Vec::new();
    for (uid, events) in by_uid {
        if is_ours(&uid) {
            continue;
        }
        let (overrides, masters): (Vec<&icalendar::Event>, Vec<&icalendar::Event>) =
            events.into_iter().partition(|e| e.get_recurrence_id().is_some());
        let replaced: HashSet<Key> = overrides
            .iter()
            .filter_map(|o| o.get_recurrence_id())
            .filter_map(|r| key_of(&r, zone))
            .collect();
        for master in masters {
            if !blocks(master) {
                continue;
            }
            for (start, key) in occurrences(master, zone, from, to)? {
                if !replaced.contains(&key) {
                    out.extend(interval(master, &start, zone));
                }
            }
        }
        for o in overrides {
            if blocks(o)
                && let Some(start) = o.get_start()
            {
                out.extend(interval(o, &start, zone));
            }
        }
    }
    out.retain(|(s, e)| *s < to && *e > from);
    out.sort();
    out.dedup();
    Ok(out)
}

/// Neither TRANSP:TRANSPARENT nor STATUS:CANCELLED.
fn blocks(e: &icalendar::Event) -> bool {
    let is = |key: &str, value: &str| {
        e.property_value(key)
            .is_some_and(|v| v.trim().eq_ignore_ascii_case(value))
    };
    !is("TRANSP", "TRANSPARENT") && !is("STATUS", "CANCELLED")
}

/// What identifies an occurrence: its instant, or its date for all-day ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Key {
    At(DateTime<Utc>),
    Day(NaiveDate),
}

/// A wall-clock time on `zone` as an instant (the earlier one when ambiguous).
fn on_clock(naive: NaiveDateTime, zone: &TimeZone) -> Option<DateTime<Utc>> {
    let civil = jiff::civil::DateTime::new(
        naive.format("%Y").to_string().parse().ok()?,
        naive.format("%m").to_string().parse().ok()?,
        naive.format("%d").to_string().parse().ok()?,
        naive.format("%H").to_string().parse().ok()?,
        naive.format("%M").to_string().parse().ok()?,
        naive.format("%S").to_string().parse().ok()?,
        0,
    )
    .ok()?;
    let zoned = zone.to_ambiguous_zoned(civil).compatible().ok()?;
    Some(to_chrono(zoned.timestamp()))
}

/// An instant of a date-time value; a TZID we cannot resolve is read on the mentor's clock.
fn instant(dt: &CalendarDateTime, zone: &TimeZone) -> Option<DateTime<Utc>> {
    match dt {
        CalendarDateTime::Utc(t) => Some(*t),
        CalendarDateTime::WithTimezone { date_time, tzid } => {
            let tz = TimeZone::get(tzid.trim_matches('"')).unwrap_or_else(|_| zone.clone());
            on_clock(*date_time, &tz)
        }
        CalendarDateTime::Floating(naive) => on_clock(*naive, zone),
    }
}

fn key_of(value: &DatePerhapsTime, zone: &TimeZone) -> Option<Key> {
    match value {
        DatePerhapsTime::Date(d) => Some(Key::Day(*d)),
        DatePerhapsTime::DateTime(dt) => instant(dt, zone).map(Key::At),
    }
}

/// The mentor's local days `[first, first + days)` as one interval.
fn local_days(first: NaiveDate, days: i64, zone: &TimeZone) -> Option<Interval> {
    let date = |d: NaiveDate| {
        jiff::civil::Date::new(
            d.format("%Y").to_string().parse().ok()?,
            d.format("%m").to_string().parse().ok()?,
            d.format("%d").to_string().parse().ok()?,
        )
        .ok()
    };
    let last = first + Duration::days(days.max(1));
    let (start, _) = slot_arithmetic::viewer_day(date(first)?, zone)?;
    let (end, _) = slot_arithmetic::viewer_day(date(last)?, zone)?;
    Some((to_chrono(start), to_chrono(end)))
}

/// How long an occurrence of `e` lasts: DTEND - DTSTART, else DURATION, else a day for an
/// all-day event and nothing for a timed one.
fn length(e: &icalendar::Event, zone: &TimeZone) -> Duration {
    match (e.get_start(), e.get_end()) {
        (Some(DatePerhapsTime::Date(s)), Some(DatePerhapsTime::Date(end))) => end - s,
        (Some(DatePerhapsTime::DateTime(s)), Some(DatePerhapsTime::DateTime(end))) => {
            match (instant(&s, zone), instant(&end, zone)) {
                (Some(s), Some(end)) => end - s,
                _ => Duration::zero(),
            }
        }
        (Some(start), _) => e
            .property_value("DURATION")
            .and_then(parse_duration)
            .unwrap_or(match start {
                DatePerhapsTime::Date(_) => Duration::days(1),
                DatePerhapsTime::DateTime(_) => Duration::zero(),
            }),
        _ => Duration::zero(),
    }
}

/// The busy interval of the occurrence of `e` starting at `start`.
fn interval(e: &icalendar::Event, start: &DatePerhapsTime, zone: &TimeZone) -> Option<Interval> {
    let len = length(e, zone);
    match start {
        DatePerhapsTime::Date(d) => local_days(*d, len.num_days(), zone),
        DatePerhapsTime::DateTime(dt) => {
            let s = instant(dt, zone)?;
            (len > Duration::zero()).then_some((s, s + len))
        }
    }
}

/// An iCalendar DURATION (`P1D`, `PT1H30M`, `P1W`, `-PT5M`).
pub fn parse_duration(raw: &str) -> Option<Duration> {
    let raw = raw.trim();
    let (sign, rest) = match raw.strip_prefix('-') {
        Some(r) => (-1, r),
        None => (1, raw.strip_prefix('+').unwrap_or(raw)),
    };
    let rest = rest.strip_prefix('P')?;
    let (mut total, mut number, mut in_time) = (Duration::zero(), String::new(), false);
    for c in rest.chars() {
        match c {
            'T' => in_time = true,
            '0'..='9' => number.push(c),
            unit => {
                let n: i64 = number.parse().ok()?;
                number.clear();
                total += match (unit, in_time) {
                    ('W', false) => Duration::weeks(n),
                    ('D', false) => Duration::days(n),
                    ('H', true) => Duration::hours(n),
                    ('M', true) => Duration::minutes(n),
                    ('S', true) => Duration::seconds(n),
                    _ => return None,
                };
            }
        }
    }
    number.is_empty().then_some(total * sign)
}

/// The starts of `e`'s occurrences near `[from, to)` with their keys. A non-recurring event has
/// its DTSTART; a recurring one is expanded by the rrule crate. Dates and floating times are
/// expanded as if in UTC and then read as dates or on the mentor's clock.
fn occurrences(
    e: &icalendar::Event,
    zone: &TimeZone,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<Vec<(DatePerhapsTime, Key)>, String> {
    let Some(start) = e.get_start() else {
        return Ok(Vec::new());
    };
    let recurring = e.property_value("RRULE").is_some() || e.multi_properties().contains_key("RDATE");
    if !recurring {
        return Ok(key_of(&start, zone).map(|k| (start, k)).into_iter().collect());
    }
    let set = recurrence_set(e, &start, zone)?;
    // Wide enough for a long event begun before `from` and for dates and floating times read
    // as UTC (at most 14 hours off the mentor's clock).
    let reach = length(e, zone).max(Duration::zero()) + Duration::days(2);
    let utc = |t: DateTime<Utc>| rrule::Tz::UTC.from_utc_datetime(&t.naive_utc());
    let dates = set
        .after(utc(from - reach))
        .before(utc(to + Duration::days(2)))
        .all(MAX_OCCURRENCES)
        .dates;
    Ok(dates
        .into_iter()
        .filter_map(|occ| {
            let value = match &start {
                DatePerhapsTime::Date(_) => DatePerhapsTime::Date(occ.date_naive()),
                DatePerhapsTime::DateTime(CalendarDateTime::Floating(_)) => {
                    DatePerhapsTime::DateTime(CalendarDateTime::Floating(occ.naive_utc()))
                }
                DatePerhapsTime::DateTime(_) => {
                    DatePerhapsTime::DateTime(CalendarDateTime::Utc(occ.with_timezone(&Utc)))
                }
            };
            key_of(&value, zone).map(|k| (value, k))
        })
        .collect())
}

/// DTSTART, RRULE, RDATE and EXDATE as the rrule crate reads them: a DATE or floating value
/// becomes that time in UTC; a TZID the rrule crate does not know becomes the mentor's zone.
fn recurrence_set(e: &icalendar::Event, start: &DatePerhapsTime, zone: &TimeZone) -> Result<rrule::RRuleSet, String> {
    let mentor_tz = zone.iana_name().unwrap_or("UTC").to_string();
    let line = |name: &str, p: &icalendar::Property| -> Vec<String> {
        let tzid = p
            .params()
            .get("TZID")
            .map(|t| t.value().trim_matches('"').to_string())
            .map(|t| {
                if TimeZone::get(&t).is_ok() {
                    t
                } else {
                    mentor_tz.clone()
                }
            });
        p.value()
            .split(',')
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(|v| match &tzid {
                Some(tz) => format!("{name};TZID={tz}:{v}"),
                None if v.len() == 8 => format!("{name}:{v}T000000Z"),
                None if v.ends_with('Z') => format!("{name}:{v}"),
                None => format!("{name}:{v}Z"),
            })
            .collect()
    };
    let mut text = Vec::new();
    if let Some(p) = e.properties().get("DTSTART") {
        text.extend(line("DTSTART", p));
    }
    if let Some(rule) = e.property_value("RRULE") {
        // An UNTIL in another form than the DTSTART's is refused by rrule: a date-only UNTIL of
        // an all-day event becomes its midnight in UTC like the DTSTART.
        let rule = rule
            .split(';')
            .map(|part| match part.split_once('=') {
                Some((k, v)) if k.eq_ignore_ascii_case("UNTIL") && v.len() == 8 => format!("UNTIL={v}T000000Z"),
                Some((k, v))
                    if k.eq_ignore_ascii_case("UNTIL")
                        && !v.ends_with('Z')
                        && matches!(start, DatePerhapsTime::DateTime(CalendarDateTime::Floating(_))) =>
                {
                    format!("UNTIL={v}Z")
                }
                _ => part.to_string(),
            })
            .collect::<Vec<_>>()
            .join(";");
        text.push(format!("RRULE:{rule}"));
    }
    for (name, props) in [
        ("RDATE", e.multi_properties().get("RDATE")),
        ("EXDATE", e.multi_properties().get("EXDATE")),
    ] {
        for p in props.into_iter().flatten() {
            text.extend(line(name, p));
        }
    }
    text.join("\n")
        .parse::<rrule::RRuleSet>()
        .map_err(|err| err.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(s: &str) -> DateTime<Utc> {
        DateTime::parse_from_rfc3339(s).unwrap().to_utc()
    }

    fn cal(events: &str) -> String {
        format!("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//test//EN\r\n{events}END:VCALENDAR\r\n")
    }

    fn busy(ics: &str, zone: &str) -> Vec<(String, String)> {
        let tz = TimeZone::get(zone).unwrap();
        busy_intervals(ics, &tz, at("2026-06-01T00:00:00Z"), at("2026-07-01T00:00:00Z"))
            .unwrap()
            .into_iter()
            .map(|(s, e)| (s.to_rfc3339(), e.to_rfc3339()))
            .collect()
    }

    fn pair(a: &str, b: &str) -> (String, String) {
        (at(a).to_rfc3339(), at(b).to_rfc3339())
    }

    #[test]
    fn a_one_off_event_blocks_its_time() {
        let ics = cal(
            "BEGIN:VEVENT\r\nUID:dentist\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260603T140000Z\r\nDTEND:20260603T150000Z\r\nEND:VEVENT\r\n",
        );
        assert_eq!(
            busy(&ics, "UTC"),
            [pair("2026-06-03T14:00:00Z", "2026-06-03T15:00:00Z")]
        );
    }

    #[test]
    fn a_weekly_event_skips_its_exception_and_moves_its_override() {
        let ics = cal(concat!(
            "BEGIN:VEVENT\r\nUID:yoga\r\nDTSTAMP:20260101T000000Z\r\n",
            "DTSTART;TZID=Europe/Berlin:20260601T100000\r\nDTEND;TZID=Europe/Berlin:20260601T110000\r\n",
            "RRULE:FREQ=WEEKLY;COUNT=4\r\nEXDATE;TZID=Europe/Berlin:20260608T100000\r\nEND:VEVENT\r\n",
            "BEGIN:VEVENT\r\nUID:yoga\r\nDTSTAMP:20260101T000000Z\r\nRECURRENCE-ID;TZID=Europe/Berlin:20260615T100000\r\n",
            "DTSTART;TZID=Europe/Berlin:20260615T160000\r\nDTEND;TZID=Europe/Berlin:20260615T170000\r\nEND:VEVENT\r\n",
        ));
        assert_eq!(
            busy(&ics, "UTC"),
            [
                pair("2026-06-01T08:00:00Z", "2026-06-01T09:00:00Z"),
                pair("2026-06-15T14:00:00Z", "2026-06-15T15:00:00Z"),
                pair("2026-06-22T08:00:00Z", "2026-06-22T09:00:00Z"),
            ]
        );
    }

    #[test]
    fn a_cancelled_override_frees_its_instance() {
        let ics = cal(concat!(
            "BEGIN:VEVENT\r\nUID:standup\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260601T090000Z\r\nDURATION:PT30M\r\n",
            "RRULE:FREQ=DAILY;COUNT=3\r\nEND:VEVENT\r\n",
            "BEGIN:VEVENT\r\nUID:standup\r\nDTSTAMP:20260101T000000Z\r\nRECURRENCE-ID:20260602T090000Z\r\n",
            "DTSTART:20260602T090000Z\r\nDURATION:PT30M\r\nSTATUS:CANCELLED\r\nEND:VEVENT\r\n",
        ));
        assert_eq!(
            busy(&ics, "UTC"),
            [
                pair("2026-06-01T09:00:00Z", "2026-06-01T09:30:00Z"),
                pair("2026-06-03T09:00:00Z", "2026-06-03T09:30:00Z"),
            ]
        );
    }

    #[test]
    fn an_all_day_event_blocks_the_mentors_local_day() {
        let ics = cal(
            "BEGIN:VEVENT\r\nUID:holiday\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:20260610\r\nDTEND;VALUE=DATE:20260611\r\nEND:VEVENT\r\n",
        );
        assert_eq!(
            busy(&ics, "America/New_York"),
            [pair("2026-06-10T04:00:00Z", "2026-06-11T04:00:00Z")]
        );
        let weekly = cal(concat!(
            "BEGIN:VEVENT\r\nUID:sabbath\r\nDTSTAMP:20260101T000000Z\r\nDTSTART;VALUE=DATE:20260606\r\n",
            "RRULE:FREQ=WEEKLY;UNTIL=20260620\r\nEXDATE;VALUE=DATE:20260613\r\nEND:VEVENT\r\n",
        ));
        assert_eq!(
            busy(&weekly, "UTC"),
            [
                pair("2026-06-06T00:00:00Z", "2026-06-07T00:00:00Z"),
                pair("2026-06-20T00:00:00Z", "2026-06-21T00:00:00Z"),
            ]
        );
    }

    #[test]
    fn transparent_cancelled_and_our_own_events_are_not_busy() {
        let ics = cal(concat!(
            "BEGIN:VEVENT\r\nUID:free\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260603T140000Z\r\nDTEND:20260603T150000Z\r\nTRANSP:TRANSPARENT\r\nEND:VEVENT\r\n",
            "BEGIN:VEVENT\r\nUID:off\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260604T140000Z\r\nDTEND:20260604T150000Z\r\nSTATUS:CANCELLED\r\nEND:VEVENT\r\n",
            "BEGIN:VEVENT\r\nUID:booking-0c4f3c4e-7f0e-4b53-a1a5-2d1c1f1a9b77@mystic-mentors\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260605T140000Z\r\nDTEND:20260605T150000Z\r\nEND:VEVENT\r\n",
        ));
        assert!(busy(&ics, "UTC").is_empty());
        assert!(is_ours("group-session-1@mystic-mentors"));
        assert!(!is_ours("booking-1@elsewhere"));
    }

    #[test]
    fn floating_times_are_on_the_mentors_clock_and_out_of_range_is_left_out() {
        let ics = cal(concat!(
            "BEGIN:VEVENT\r\nUID:f\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260603T090000\r\nDTEND:20260603T100000\r\nEND:VEVENT\r\n",
            "BEGIN:VEVENT\r\nUID:old\r\nDTSTAMP:20260101T000000Z\r\nDTSTART:20260503T090000Z\r\nDTEND:20260503T100000Z\r\nEND:VEVENT\r\n",
        ));
        assert_eq!(
            busy(&ics, "Asia/Tokyo"),
            [pair("2026-06-03T00:00:00Z", "2026-06-03T01:00:00Z")]
        );
    }

    #[test]
    fn durations_read_as_rfc5545_writes_them() {
        assert_eq!(parse_duration("PT1H30M"), Some(Duration::minutes(90)));
        assert_eq!(parse_duration("P1D"), Some(Duration::days(1)));
        assert_eq!(parse_duration("P2W"), Some(Duration::weeks(2)));
        assert_eq!(parse_duration("-PT5M"), Some(Duration::minutes(-5)));
        assert_eq!(parse_duration("1H"), None);
        assert_eq!(parse_duration("PT"), Some(Duration::zero()));
        assert_eq!(parse_duration("PT5"), None);
    }
}
