//! Which start times a mentor offers: weekly windows in the mentor's wall-clock time, turned into
//! instants across daylight-saving changes without inventing, losing or doubling a slot.
//!
//! Starts fall every [`SLOT_STEP_MINUTES`] of the mentor's wall clock inside a window. A wall time
//! skipped by a spring-forward gap offers no slot; a wall time repeated by a fall-back fold offers
//! its first occurrence only. A slot fits when its whole duration, measured in real time, ends
//! before the window's end. Date overrides change a date's windows ([`windows_on`]; they are
//! stored by `date_overrides`, which reads its rules from here, never the other way round).

use jiff::{
    Timestamp, ToSpan,
    civil::{Date, DateTime, Time},
    tz::{AmbiguousOffset, TimeZone},
};

/// Slots start every 30 minutes of the wall clock.
pub const SLOT_STEP_MINUTES: i32 = 30;
/// Bookings may be made at most 90 days ahead.
pub const BOOKING_WINDOW_DAYS: i64 = 90;
pub const MINUTES_PER_DAY: i32 = 24 * 60;

/// One weekly availability window, in minutes after the mentor's local midnight.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Window {
    /// 0 = Sunday .. 6 = Saturday
    pub day_of_week: i8,
    pub start_minute: i32,
    /// Up to 1440 (midnight at the end of the day).
    pub end_minute: i32,
}

/// What an override changes on its date, as slot arithmetic reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DateOverride {
    pub date: Date,
    pub day_off: bool,
    /// Minutes after local midnight, `[start, end)`.
    pub extra: Option<(i32, i32)>,
}

/// The windows `(start_minute, end_minute)` offered on `date` of the mentor's calendar.
pub fn windows_on(weekly: &[Window], overrides: &[DateOverride], date: Date) -> Vec<(i32, i32)> {
    let todays = || overrides.iter().filter(|o| o.date == date);
    let day_off = todays().any(|o| o.day_off);
    let weekday = date.weekday().to_sunday_zero_offset();
    let mut windows: Vec<(i32, i32)> = if day_off {
        Vec::new()
    } else {
        weekly
            .iter()
            .filter(|w| w.day_of_week == weekday)
            .map(|w| (w.start_minute, w.end_minute))
            .collect()
    };
    windows.extend(todays().filter_map(|o| o.extra));
    windows
}

fn wall(date: Date, minute: i32) -> Option<DateTime> {
    let (date, minute) = if minute >= MINUTES_PER_DAY {
        (date.tomorrow().ok()?, minute - MINUTES_PER_DAY)
    } else {
        (date, minute)
    };
    let time = Time::new((minute / 60) as i8, (minute % 60) as i8, 0, 0).ok()?;
    Some(date.to_datetime(time))
}

/// The instant a slot starting at this wall time begins, if the wall time exists (first occurrence).
fn start_instant(tz: &TimeZone, dt: DateTime) -> Option<Timestamp> {
    let ambiguous = tz.to_ambiguous_timestamp(dt);
    match ambiguous.offset() {
        AmbiguousOffset::Unambiguous { .. } => ambiguous.unambiguous().ok(),
        AmbiguousOffset::Gap { .. } => None,
        AmbiguousOffset::Fold { .. } => ambiguous.earlier().ok(),
    }
}

/// The instant a window ending at this wall time ends (the later reading when it is ambiguous).
fn end_instant(tz: &TimeZone, dt: DateTime) -> Option<Timestamp> {
    let ambiguous = tz.to_ambiguous_timestamp(dt);
    match ambiguous.offset() {
        AmbiguousOffset::Fold { .. } => ambiguous.later().ok(),
        _ => ambiguous.compatible().ok(),
    }
}

/// Every offered start instant in `[from, to)`, ascending, for slots of `duration_minutes`.
pub fn starts_between(
    windows: &[Window],
    overrides: &[DateOverride],
    tz: &TimeZone,
    from: Timestamp,
    to: Timestamp,
    duration_minutes: i32,
) -> Vec<Timestamp> {
    if duration_minutes <= 0 || from >= to {
        return Vec::new();
    }
    let first = from.to_zoned(tz.clone()).date().yesterday().unwrap_or(Date::MIN);
    let last = to.to_zoned(tz.clone()).date().tomorrow().unwrap_or(Date::MAX);
    let mut starts = Vec::new();
    let mut date = first;
    while date <= last {
        for (start_minute, end_minute) in windows_on(windows, overrides, date) {
            let Some(window_end) = wall(date, end_minute).and_then(|dt| end_instant(tz, dt)) else {
                continue;
            };
            let mut minute = start_minute;
            while minute + SLOT_STEP_MINUTES <= end_minute {
                if let Some(start) = wall(date, minute).and_then(|dt| start_instant(tz, dt)) {
                    let fits = start
                        .checked_add((duration_minutes as i64).minutes())
                        .is_ok_and(|end| end <= window_end);
                    if fits && start >= from && start < to {
                        starts.push(start);
                    }
                }
                minute += SLOT_STEP_MINUTES;
            }
        }
        match date.tomorrow() {
            Ok(next) => date = next,
            Err(_) => break,
        }
    }
    starts.sort();
    starts.dedup();
    starts
}

/// The viewer's day `[00:00, next 00:00)` in their zone.
pub fn viewer_day(date: Date, tz: &TimeZone) -> Option<(Timestamp, Timestamp)> {
    let start = tz
        .to_ambiguous_timestamp(date.to_datetime(Time::midnight()))
        .compatible()
        .ok()?;
    let end = tz
        .to_ambiguous_timestamp(date.tomorrow().ok()?.to_datetime(Time::midnight()))
        .compatible()
        .ok()?;
    Some((start, end))
}

/// `HH:MM` labels in the viewer's zone, in order, each once.
pub fn labels(starts: &[Timestamp], viewer: &TimeZone) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in starts {
        let t = s.to_zoned(viewer.clone()).time();
        let label = format!("{:02}:{:02}", t.hour(), t.minute());
        if !out.contains(&label) {
            out.push(label);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tz(name: &str) -> TimeZone {
        TimeZone::get(name).unwrap()
    }

    fn day_labels(windows: &[Window], mentor: &str, viewer: &str, date: &str, duration: i32) -> Vec<String> {
        let (from, to) = viewer_day(date.parse().unwrap(), &tz(viewer)).unwrap();
        labels(
            &starts_between(windows, &[], &tz(mentor), from, to, duration),
            &tz(viewer),
        )
    }

    fn all_day(day_of_week: i8) -> Window {
        Window {
            day_of_week,
            start_minute: 0,
            end_minute: MINUTES_PER_DAY,
        }
    }

    #[test]
    fn an_ordinary_day_has_a_slot_every_half_hour_that_fits() {
        let w = [Window {
            day_of_week: 1,
            start_minute: 9 * 60,
            end_minute: 11 * 60,
        }];
        // 2026-06-01 is a Monday.
        assert_eq!(
            day_labels(&w, "Europe/London", "Europe/London", "2026-06-01", 60),
            ["09:00", "09:30", "10:00"]
        );
        assert_eq!(
            day_labels(&w, "Europe/London", "Europe/London", "2026-06-01", 30),
            ["09:00", "09:30", "10:00", "10:30"]
        );
        assert_eq!(
            day_labels(&w, "Europe/London", "Europe/London", "2026-06-02", 60),
            Vec::<String>::new()
        );
    }

    #[test]
    fn spring_forward_in_new_york_invents_no_slot() {
        // 2026-03-08 (Sunday): 02:00 -> 03:00. 01:00-04:00 wall is two real hours.
        let w = [Window {
            day_of_week: 0,
            start_minute: 60,
            end_minute: 4 * 60,
        }];
        let got = day_labels(&w, "America/New_York", "America/New_York", "2026-03-08", 60);
        // 02:00 and 02:30 do not exist; 01:30 EST + 60 min is 03:30 EDT, inside the window.
        assert_eq!(got, ["01:00", "01:30", "03:00"]);
    }

    #[test]
    fn fall_back_in_new_york_doubles_no_slot() {
        // 2026-11-01 (Sunday): 02:00 -> 01:00 again.
        let w = [Window {
            day_of_week: 0,
            start_minute: 0,
            end_minute: 3 * 60,
        }];
        let got = day_labels(&w, "America/New_York", "America/New_York", "2026-11-01", 30);
        assert_eq!(got, ["00:00", "00:30", "01:00", "01:30", "02:00", "02:30"]);
    }

    #[test]
    fn london_changes_keep_every_real_slot() {
        // 2026-03-29 (Sunday): 01:00 -> 02:00 in London. A whole-day window.
        let spring = day_labels(&[all_day(0)], "Europe/London", "Europe/London", "2026-03-29", 60);
        assert!(!spring.contains(&"01:00".to_string()) && !spring.contains(&"01:30".to_string()));
        assert_eq!(
            spring.len(),
            48 - 2 - 1,
            "two wall slots skipped, and 23:30 does not fit 60 minutes"
        );
        // 2026-10-25 (Sunday): 02:00 -> 01:00.
        let autumn = day_labels(&[all_day(0)], "Europe/London", "Europe/London", "2026-10-25", 30);
        assert_eq!(autumn.len(), 48, "each wall slot once");
    }

    #[test]
    fn viewer_and_mentor_in_different_zones() {
        // Mentor in London 09:00-10:00 on Monday 2026-06-01 (BST, UTC+1) = 04:00-05:00 in New York (EDT).
        let w = [Window {
            day_of_week: 1,
            start_minute: 9 * 60,
            end_minute: 10 * 60,
        }];
        assert_eq!(
            day_labels(&w, "Europe/London", "America/New_York", "2026-06-01", 30),
            ["04:00", "04:30"]
        );
        // A late window crosses into the viewer's next day.
        let late = [Window {
            day_of_week: 1,
            start_minute: 23 * 60,
            end_minute: MINUTES_PER_DAY,
        }];
        assert_eq!(
            day_labels(&late, "America/New_York", "Europe/London", "2026-06-02", 30),
            ["04:00", "04:30"]
        );
        assert_eq!(
            day_labels(&late, "America/New_York", "Europe/London", "2026-06-01", 30),
            Vec::<String>::new()
        );
    }

    #[test]
    fn half_hour_zones_work() {
        // Mentor in Kolkata (UTC+5:30) 10:00-11:00 Monday = 04:30-05:30 UTC.
        let w = [Window {
            day_of_week: 1,
            start_minute: 10 * 60,
            end_minute: 11 * 60,
        }];
        assert_eq!(
            day_labels(&w, "Asia/Kolkata", "UTC", "2026-06-01", 30),
            ["04:30", "05:00"]
        );
        assert_eq!(
            day_labels(&w, "UTC", "Asia/Kolkata", "2026-06-01", 30),
            ["15:30", "16:00"]
        );
        let utc = [Window {
            day_of_week: 1,
            start_minute: 0,
            end_minute: 60,
        }];
        assert_eq!(
            day_labels(&utc, "UTC", "Asia/Kolkata", "2026-06-01", 30),
            ["05:30", "06:00"]
        );
    }

    #[test]
    fn starts_are_instants_within_the_range() {
        let w = [all_day(1)];
        let (from, to) = viewer_day("2026-06-01".parse().unwrap(), &tz("UTC")).unwrap();
        let starts = starts_between(&w, &[], &tz("UTC"), from, to, 60);
        assert_eq!(starts.len(), 47);
        assert_eq!(starts[0], from);
        assert!(starts.windows(2).all(|p| p[1].duration_since(p[0]).as_secs() == 1800));
    }

    #[test]
    fn overrides_remove_a_days_slots_and_add_extra_hours() {
        let w = [Window {
            day_of_week: 1,
            start_minute: 9 * 60,
            end_minute: 11 * 60,
        }];
        let day = |date: &str, overrides: &[DateOverride]| {
            let (from, to) = viewer_day(date.parse().unwrap(), &tz("Europe/London")).unwrap();
            labels(
                &starts_between(&w, overrides, &tz("Europe/London"), from, to, 60),
                &tz("Europe/London"),
            )
        };
        let off = [DateOverride {
            date: "2026-06-01".parse().unwrap(),
            day_off: true,
            extra: None,
        }];
        assert_eq!(day("2026-06-01", &off), Vec::<String>::new());
        assert_eq!(day("2026-06-08", &off), ["09:00", "09:30", "10:00"]);
        let evening = [DateOverride {
            date: "2026-06-01".parse().unwrap(),
            day_off: false,
            extra: Some((18 * 60, 19 * 60)),
        }];
        assert_eq!(day("2026-06-01", &evening), ["09:00", "09:30", "10:00", "18:00"]);
        let sunday = [DateOverride {
            date: "2026-05-31".parse().unwrap(),
            day_off: false,
            extra: Some((10 * 60, 11 * 60)),
        }];
        assert_eq!(day("2026-05-31", &sunday), ["10:00"]);
    }
}
