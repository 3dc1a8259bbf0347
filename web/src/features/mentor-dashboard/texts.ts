/** The fixed texts of the mentor dashboard's Bookings and Availability tabs. */
export const MENTOR_DASHBOARD_TEXT = {
  bookingsLoadFailed: 'Failed to fetch bookings',
  bookingUpdateFailed: 'Failed to update booking',
  noBookings: 'No bookings yet',
  availabilityLoadFailed: 'Failed to fetch availability',
  availabilitySaveFailed: 'Failed to save availability',
  availabilityDeleteFailed: 'Failed to delete availability',
  noAvailability: 'No availability set',
  notAvailable: 'Not available',
  endAfterStart: 'End time must be after start time',
  confirmDeleteSlot: 'Are you sure you want to delete this availability slot?',
} as const;
