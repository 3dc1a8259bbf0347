/** The fixed texts of the client dashboard and its dialogs. */
export const DASHBOARD_TEXT = {
  loadFailed: 'Failed to fetch dashboard data',
  emptyTitle: 'Welcome to Your Journey',
  fallbackName: 'Seeker',
  notSet: 'Not set',
  activeMember: 'Active member',
  newMember: 'New member',
  selectNewTime: 'Please select a new time',
  rescheduleFailedTitle: 'Rescheduling Failed',
  rescheduleFailed: 'Failed to reschedule booking',
  acknowledgePolicy: 'Please acknowledge the policy',
  cancelFailedTitle: 'Cancellation Failed',
  cancelFailed: 'Failed to cancel booking',
  preferencesLoadFailed: 'Failed to load email preferences',
  preferencesUpdateFailedTitle: 'Error',
  preferencesUpdateFailed: 'Failed to update email preferences',
  /** The api's 409 for a second review of one booking (docs/after-booking.md). */
  alreadyReviewed: 'You have already reviewed this session',
} as const;
