/** The fixed texts of the group video call page. */
export const GROUP_CALL_TEXT = {
  sessionError: 'Session Error',
  noSessionId: 'No session ID provided',
  loadFailed: 'Failed to load group session',
  backToSessions: 'Back to Sessions',
  started: 'Group Session Started',
  ended: 'Group Session Ended',
  removedParticipant: 'Participant Removed',
  youWereRemoved: 'You were removed from this session',
  waiting: 'Waiting for the mentor to start the session',
  waitingMentor: 'The room is open. Start the session when you are ready; participants wait here until then.',
} as const;
