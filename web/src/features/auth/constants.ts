/** After a password reset or an e-mail verification, go to /auth after 3 s. */
export const AUTH_REDIRECT_DELAY_MS = 3_000;
