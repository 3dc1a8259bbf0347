/**
 * Full-page navigations (the spec's "reload at /" after login, the provider endpoints
 * /api/login and /api/logout). Kept in one function so tests can replace it.
 */
export function hardNavigate(url: string): void {
  window.location.assign(url);
}

/** The provider's login endpoint: a browser navigation that the server answers with /auth. */
export const LOGIN_URL = '/api/login';

/** The sign-in page itself, which the header's 'Sign In' links (no redirect hop through the api). */
export const SIGN_IN_PATH = '/auth';

/** `/auth?mode=register` opens the registration form: where 'Get Started' leads a newcomer. */
export const MODE_PARAM = 'mode';
export const REGISTER_URL = `/auth?${MODE_PARAM}=register`;

/** Reloads the current page (the spec's 'Retry that reloads the page'). */
export function reloadPage(): void {
  window.location.reload();
}

/** The query parameter that brings a visitor back after signing in. */
export const NEXT_PARAM = 'next';

/**
 * The registration form, bringing the new user on to `path` after they verify their address and
 * sign in (e.g. 'Become a Mentor' → the wizard).
 */
export function registerPath(path: string): string {
  const next = safeNext(path);
  return next && next !== '/' ? `${REGISTER_URL}&${NEXT_PARAM}=${encodeURIComponent(next)}` : REGISTER_URL;
}

/** Where a signed-out visitor signs in before going on to `path` (a path of this app). */
export function signInPath(path: string): string {
  const next = safeNext(path);
  return next && next !== '/' ? `/auth?${NEXT_PARAM}=${encodeURIComponent(next)}` : '/auth';
}

/**
 * A place to go back to after signing in: only a path of this app (never another site, never
 * the sign-in page itself), otherwise null.
 */
export function safeNext(raw: string | null | undefined): string | null {
  if (!raw || !raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return null;
  if (raw === '/auth' || raw.startsWith('/auth?') || raw.startsWith('/api/')) return null;
  return raw;
}
