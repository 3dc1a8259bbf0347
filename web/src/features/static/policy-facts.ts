/** Support hours. */
export const SUPPORT_HOURS = {
  weekdays: 'Mon to Fri 9 AM to 8 PM EST',
  weekends: 'Sat to Sun 10 AM to 6 PM EST',
} as const;

/** Terms and privacy policy were last updated in this month. */
export const POLICIES_LAST_UPDATED = 'November 2026';

/** The minimum age to hold an account. */
export const MINIMUM_AGE = 18;

/** Days of notice before a material change of the terms takes effect. */
export const TERMS_CHANGE_NOTICE_DAYS = 30;

/** How long transaction records and communication logs are kept. */
export const TRANSACTION_RECORDS_RETENTION_YEARS = 7;
export const COMMUNICATION_LOGS_RETENTION_YEARS = 3;

/** Group sessions take 2 to 20 participants. */
export const GROUP_SIZE = { min: 2, max: 20 } as const;

/** Complaints about a session are accepted from its start until 24 hours after its end. */
export const COMPLAINT_WINDOW_HOURS = 24;

/** A mentor may answer a complaint within this many hours of it. */
export const COMPLAINT_RESPONSE_HOURS = 48;

/** A no-show is reported this many minutes or more after the start. */
export const NO_SHOW_WAIT_MINUTES = 15;
