/** The fixed texts of the booking page and its card payment (the group booking page shares the payment ones). */
export const BOOKING_TEXT = {
  serviceNotFoundTitle: 'Service Not Found',
  serviceNotFoundText: "The service you're looking for doesn't exist or is no longer available.",
  selectDateAndTime: 'Please select a date and time',
  freeBookedTitle: 'Free Session Booked!',
  freeBookedText: 'Your free session has been confirmed.',
  reservationErrorTitle: 'Error',
  reservationFailed: 'Failed to create reservation',
  paymentSuccessTitle: 'Payment Successful!',
  paymentSuccessText: 'Your booking has been confirmed.',
  paymentFailedTitle: 'Payment Failed',
  paymentFailedFallback: 'Payment could not be processed',
  paymentErrorTitle: 'Payment Error',
  paymentErrorText: 'An error occurred while processing payment',
} as const;
