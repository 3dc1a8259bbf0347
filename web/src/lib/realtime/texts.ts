/** The title of the toast when the real-time channel (messages, calls) fails. */
export const CONNECTION_ERROR_TITLE = 'Connection Error';
