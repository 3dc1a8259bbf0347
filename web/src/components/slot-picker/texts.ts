/** The fixed texts of the slot picker. */
export const SLOT_PICKER_TEXT = {
  noAvailableTimes: 'No available times',
  noAvailableTimesHint: 'Please select another date or contact the mentor.',
  slotsLoadFailed: 'Failed to load available times',
  /** Said of a calendar day the mentor has no free time on (the day is disabled and struck through). */
  dayFull: 'no free times',
  legendFree: 'Free times',
  legendFull: 'Fully booked or unavailable',
  daysLoading: 'Finding the days your mentor is free…',
  daysFailed: 'Could not check which days are free; pick a day to see its times.',
} as const;
