/**
 * Full-page navigations (the spec's "reload at /" after login, the provider endpoints
 * /api/login and /api/logout). Kept in one function so tests can replace it.
 */
export function hardNavigate(url: string): void {
  window.location.assign(url);
}

/** The provider's login endpoint: a browser navigation that the server answers with /auth. */
export const LOGIN_URL = '/api/login';

/** Reloads the current page (the spec's 'Retry that reloads the page'). */
export function reloadPage(): void {
  window.location.reload();
}
