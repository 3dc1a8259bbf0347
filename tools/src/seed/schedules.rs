//! Weekly schedules for the demo mentors, in each mentor's own time zone.

use domain::booking::slot_arithmetic::Window;

/// (days of week, Sunday = 0; start hour; end hour) ranges of one schedule.
type Ranges = &'static [(&'static [i8], i32, i32)];

const WEEKDAYS: &[i8] = &[1, 2, 3, 4, 5];
const TUESDAY_TO_SATURDAY: &[i8] = &[2, 3, 4, 5, 6];
const MON_WED_FRI: &[i8] = &[1, 3, 5];
const MON_TO_THU: &[i8] = &[1, 2, 3, 4];
const SATURDAY: &[i8] = &[6];
const WEEKEND: &[i8] = &[0, 6];

/// Office hours, a Tuesday-to-Saturday week, afternoons and evenings with a Saturday morning,
/// split days, and a weekend practice: mentors take turns so every day has someone.
const SCHEDULES: &[Ranges] = &[
    &[(WEEKDAYS, 9, 17)],
    &[(TUESDAY_TO_SATURDAY, 10, 18)],
    &[(MON_WED_FRI, 12, 20), (SATURDAY, 10, 14)],
    &[(MON_TO_THU, 8, 12), (MON_TO_THU, 14, 18)],
    &[(WEEKDAYS, 16, 21), (WEEKEND, 9, 15)],
];

/// The weekly windows of demo mentor number `i`.
pub(super) fn weekly(i: usize) -> Vec<Window> {
    SCHEDULES[i % SCHEDULES.len()]
        .iter()
        .flat_map(|(days, from, to)| {
            days.iter().map(move |&day_of_week| Window {
                day_of_week,
                start_minute: from * 60,
                end_minute: to * 60,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn works_weekends(i: usize) -> bool {
        weekly(i).iter().any(|w| w.day_of_week == 0 || w.day_of_week == 6)
    }

    #[test]
    fn every_day_of_the_week_has_a_mentor_and_some_work_weekends() {
        for day in 0..7 {
            assert!(
                (0..SCHEDULES.len()).any(|i| weekly(i).iter().any(|w| w.day_of_week == day)),
                "day {day}"
            );
        }
        assert!((0..SCHEDULES.len()).any(works_weekends));
        assert!((0..SCHEDULES.len()).any(|i| !works_weekends(i)));
    }

    #[test]
    fn windows_fit_the_availability_rules() {
        for i in 0..SCHEDULES.len() {
            for w in weekly(i) {
                assert!(w.start_minute < w.end_minute && w.end_minute <= 24 * 60 && w.start_minute % 30 == 0);
            }
        }
    }
}
