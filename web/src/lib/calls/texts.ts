/** The fixed texts of calls. */
export const CALL_TEXT = {
  incoming: 'Incoming video call',
  accept: 'Accept',
  decline: 'Decline',
  mediaError: 'Media Access Error',
  mediaErrorText: 'Could not access your camera or microphone. Check the browser permissions.',
} as const;

/** The sound of an incoming call. */
export const INCOMING_CALL_SOUND = '/notification.mp3';
