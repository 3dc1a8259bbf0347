/** The fixed texts of the slot picker. */
export const SLOT_PICKER_TEXT = {
  noAvailableTimes: 'No available times',
  noAvailableTimesHint: 'Please select another date or contact the mentor.',
  slotsLoadFailed: 'Failed to load available times',
} as const;
