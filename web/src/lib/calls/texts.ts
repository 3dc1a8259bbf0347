/** The fixed texts of calls. */
export const CALL_TEXT = {
  incoming: 'Incoming video call',
  accept: 'Accept',
  decline: 'Decline',
  mediaError: 'Media Access Error',
  // The spec's words (02, errors: 'Media Access Error').
  mediaErrorText: 'Unable to access camera or microphone. Please check permissions.',
} as const;

/** The sound of an incoming call. */
export const INCOMING_CALL_SOUND = '/notification.mp3';
